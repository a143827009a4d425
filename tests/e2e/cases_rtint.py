"""Run-time integers as view arguments: select / narrow whose index or start is a loop counter
or size arithmetic, inside prim::Loop (mc_export, torch.jit.script + freeze). The output shape
is static (select drops a dim, narrow takes a constant length); only the offset varies, and the
kernel checks the bounds when it runs. Writes through such views inside the loop body (out[t] =
..., x[t].add_(1)) keep reference semantics; the final value of a mutated input is compared."""
import torch
import torch.nn as nn


class SumRows(nn.Module):
    def forward(self, x):
        s = torch.zeros_like(x[0])
        for t in range(x.shape[0]):
            s = s + x[t]
        return s


class SumCols(nn.Module):
    def forward(self, x):
        s = torch.zeros_like(x[:, 0])
        for t in range(x.shape[1]):
            s = s * 0.5 + x[:, t]
        return s


class NarrowWindows(nn.Module):
    """Windows of 2 rows starting at the loop counter (a constant length, a run-time start)."""

    def forward(self, x):
        s = torch.zeros_like(x.narrow(0, 0, 2))
        for t in range(x.shape[0] - 1):
            s = s + x.narrow(0, t, 2) * (t + 1)
        return s


class ReverseSelect(nn.Module):
    """An index computed from a size: rows in reverse order, weighted by position."""

    def forward(self, x):
        s = torch.zeros_like(x[0])
        n = x.shape[0]
        for t in range(n):
            s = s * 2 + torch.select(x, 0, n - 1 - t)
        return s


class WriteRows(nn.Module):
    """out[t] = f(x[t]) into a preallocated tensor, returned."""

    def forward(self, x):
        out = torch.empty_like(x)
        for t in range(x.shape[0]):
            out[t] = torch.tanh(x[t]) * t
        return out


class AddIntoInput(nn.Module):
    """An in-place add into row t of a graph input: the final value of x is compared."""

    def forward(self, x, y):
        for t in range(x.shape[0]):
            x[t].add_(y[t] * (t + 1))
        return x.sum(0)


class AssignRowsOfInput(nn.Module):
    """x[t] = ... (copy_ through a select) on a graph input, reading rows already written."""

    def forward(self, x):
        for t in range(x.shape[0] - 1):
            x[t + 1] = x[t + 1] * 2 + x[t]
        return x


class WriteItemIndex(nn.Module):
    """A write through x[i] outside a loop, i from item(): functionalized into select_scatter
    with the run-time index; r = x[0] aliases the written row when i == 0."""

    def forward(self, x, k):
        i = int(k[0].item())
        r = x[0]
        x[i] = x[i] * 3
        a = r + 1
        x[0].add_(x[i])
        return x * 2, a, r.clone()


class IndexFromData(nn.Module):
    """An index read out of a tensor (item()): in range at export, out of range in the run that
    the case expects to fail."""

    def forward(self, x, k):
        s = torch.zeros_like(x[0])
        for t in range(2):
            s = s + x[int(k[0].item()) + t]
        return s


class SteppedRanges(nn.Module):
    """range(start, stop, step) loops: the loop value is aten::__derive_index of the counter, at
    run time; `not` of a run-time bool (aten::__not__) picks the rows; a reversed range."""

    def forward(self, x):
        s = torch.zeros_like(x[0])
        for t in range(1, x.shape[0], 2):
            if not bool(t > 2):
                s = s + x[t] * t
        for t in range(x.shape[0] - 1, -1, -1):
            s = s * 0.5 + x[t]
        return s


def pos(*s):
    return lambda: [torch.rand(*s) + 0.1]


CASES = [
    dict(name="rtint_sum_rows", module=SumRows, inputs=pos(4, 3), format="json", method="script"),
    dict(name="rtint_sum_cols", module=SumCols, inputs=pos(3, 5), format="json", method="script"),
    dict(name="rtint_narrow_windows", module=NarrowWindows, inputs=pos(5, 3), format="json", method="script"),
    dict(name="rtint_reverse_select", module=ReverseSelect, inputs=pos(4, 2), format="json", method="script"),
    dict(name="rtint_stepped_ranges", module=SteppedRanges, inputs=pos(7, 3), format="json", method="script"),
    dict(name="rtint_write_rows", module=WriteRows, inputs=lambda: [torch.randn(4, 3)], format="json",
         method="script"),
    dict(name="rtint_add_into_input", module=AddIntoInput, inputs=lambda: [torch.randn(3, 4), torch.randn(3, 4)],
         format="json", method="script"),
    dict(name="rtint_assign_rows_of_input", module=AssignRowsOfInput, inputs=lambda: [torch.randn(4, 3)],
         format="json", method="script"),
    dict(name="rtint_write_item_index_alias", module=WriteItemIndex,
         inputs=lambda: [torch.rand(4, 3), torch.tensor([0])], format="json", method="script"),
    dict(name="rtint_write_item_index", module=WriteItemIndex,
         inputs=lambda: [torch.rand(4, 3), torch.tensor([2])], format="json", method="script"),
    dict(name="rtint_index_from_data", module=IndexFromData,
         inputs=lambda: [torch.rand(4, 2), torch.tensor([1])], format="json", method="script"),
    # run with k = 3: row 4 of 4 at the second trip (PyTorch: IndexError)
    dict(name="rtint_index_out_of_range", module=IndexFromData,
         inputs=lambda: [torch.rand(4, 2), torch.tensor([1])], format="json", method="script",
         run_inputs=lambda: [torch.rand(4, 2), torch.tensor([3])],
         run_error="aten::select: index 4 out of range for tensor of size 4 at dimension 0"),
]
