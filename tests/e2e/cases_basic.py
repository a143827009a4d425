"""Basic end-to-end cases: MLPs and the seed graphs. Each case: a module factory, an input
factory (seeded), how to dump it (text: str(traced.inlined_graph); json: mc_export)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Seed002(nn.Module):
    """seeds/002: in-place write through a slice chain; the copy_ result is unused."""

    def forward(self, x):
        x[:5, :5] = x[:5, :5] + 1
        return x


class ReturnInputAndAdd(nn.Module):
    """seeds/000: an output that is the input itself."""

    def forward(self, x):
        return x, x + 1


class Elementwise(nn.Module):
    def forward(self, x, y):
        a = torch.relu(x) * 2.0 - y / 3.0
        b = torch.sigmoid(a) + torch.tanh(y) - torch.exp(-x.abs())
        return torch.softmax(b, dim=1), torch.log_softmax(a, dim=-1), b.sum(1), a.mean()


class Shapes(nn.Module):
    def forward(self, x):
        y = x.view(4, 6).transpose(0, 1).contiguous()
        z = y.reshape(2, 12)[:, 3:9:2]
        w = x.permute(2, 0, 1).flatten(1).unsqueeze(0)
        return z, w.squeeze(0), x[1].select(0, -1)


def rand(*s):
    return lambda: [torch.randn(*s)]


CASES = [
    dict(name="seed002_slice_copy", module=Seed002, inputs=rand(10, 10)),
    dict(name="seed000_return_input", module=ReturnInputAndAdd, inputs=rand(2, 2)),
    dict(name="elementwise", module=Elementwise, inputs=lambda: [torch.randn(3, 5), torch.randn(3, 5)]),
    dict(name="shapes_views", module=Shapes, inputs=rand(2, 3, 4)),
    dict(name="mlp_functional", module=lambda: MLPFn(), inputs=rand(4, 8)),
]


class MLPFn(nn.Module):
    """An MLP whose weights are inputs-free buffers: the text dump carries no tensors."""

    def forward(self, x):
        w = torch.ones(16, 8) * 0.1
        h = F.relu(F.linear(x, w))
        return torch.matmul(h, torch.ones(16, 4)) / 16.0
