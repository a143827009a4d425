"""Overloads and type promotion end to end: every overload of a multi-overload op reachable
from PyTorch's own spellings (max/min with a dim give values and indices, var/std forms,
reductions with and without dims), and dtypes of mixed-dtype arithmetic with Python scalars and
0-dim tensors, traced (where Python scalars are recorded as 0-dim tensor constants) and scripted.
The matrix of every op x dtype pair x operand kind is tests/types/."""
import torch
import torch.nn as nn


class MaxMinDim(nn.Module):
    def forward(self, x, y):
        a, i = torch.max(x, 1)
        b = x.min(dim=0, keepdim=True)
        c, j = x.max(-1, True)
        return a, i, b.values, b.indices, c, j, torch.max(x, y), x.max(), torch.min(x, y), x.min()


class MaxMinDimInt(nn.Module):
    def forward(self, x):
        v, i = x.max(0)
        w, j = torch.min(x, dim=1, keepdim=True)
        return v, i, w, j


class VarStd(nn.Module):
    def forward(self, x):
        return (x.var(), x.var(1), x.var(0, False, True), x.std(), x.std(1, True, True), x.std(False),
                torch.var(x, unbiased=False), x.prod(1), x.prod(), x.sum(1, keepdim=True), (x > 0).all(1),
                (x > 0).any(), x.squeeze(), x.unsqueeze(0).squeeze(0))


class Promote(nn.Module):
    """Python scalars never widen a tensor within its category; 0-dim tensors do not widen a
    dimensioned one; a higher category from a lower priority does promote it."""

    def forward(self, xi, xf, xh, z, zi):
        return (2.5 * xi, xi + 1, xf * 2, xh + 2.5, z * 2.0, z + 3, zi * 2.5, zi + 1,
                xi + zi, xf + z.double(), xi / 2, xi // 2, xi % 3, xi < 2.5, xh * z, (xi > 2) + 1,
                (xi > 2) * 1.5, xf.sum() * 1.5, xi.sum() + 2)


class Buffers(nn.Module):
    """0-dim float64/int64 buffers are frozen into constants like a trace's Python numbers, but
    they are tensors: they promote as 0-dim tensors do."""

    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.tensor(2.0, dtype=torch.float64))
        self.register_buffer("k", torch.tensor(3))

    def forward(self, x, z):
        return x * self.scale, z + self.k, x * 2.5, z * 2.5


def promote_inputs():
    return [torch.arange(-3, 3, dtype=torch.int32).reshape(2, 3), torch.randn(2, 3),
            torch.randn(2, 3).half(), torch.tensor(1.25), torch.tensor(3, dtype=torch.int16)]


CASES = [
    dict(name="types_maxmin_dim_trace", module=MaxMinDim, inputs=lambda: [torch.randn(3, 4), torch.randn(3, 4)]),
    dict(name="types_maxmin_dim_script", module=MaxMinDim, method="script", format="json",
         inputs=lambda: [torch.randn(3, 4), torch.randn(3, 4)]),
    dict(name="types_maxmin_dim_json", module=MaxMinDim, format="json", method="trace",
         inputs=lambda: [torch.randn(3, 4), torch.randn(3, 4)]),
    dict(name="types_maxmin_dim_int", module=MaxMinDimInt, method="script", format="json",
         inputs=lambda: [torch.tensor([[3, 1, 3], [0, 7, 7]], dtype=torch.int32)]),
    dict(name="types_var_std_reduce_trace", module=VarStd, inputs=lambda: [torch.randn(3, 1, 4)], atol=1e-5),
    dict(name="types_var_std_reduce_script", module=VarStd, method="script", format="json", inputs=lambda: [torch.randn(3, 1, 4)],
         atol=1e-5),
    dict(name="types_promote_trace", module=Promote, inputs=promote_inputs, atol=1e-3, rtol=1e-3),
    dict(name="types_promote_trace_json", module=Promote, format="json", inputs=promote_inputs, atol=1e-3, rtol=1e-3),
    dict(name="types_buffers_trace_json", module=Buffers, format="json",
         inputs=lambda: [torch.arange(6, dtype=torch.int32).reshape(2, 3), torch.tensor(2, dtype=torch.int32)]),
    dict(name="types_buffers_script_json", module=Buffers, format="json", method="script",
         inputs=lambda: [torch.arange(6, dtype=torch.int32).reshape(2, 3), torch.tensor(2, dtype=torch.int32)]),
    dict(name="types_promote_script", module=Promote, method="script", format="json", inputs=promote_inputs, atol=1e-3, rtol=1e-3),
]
