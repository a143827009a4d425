"""Scripted models with control flow (prim::If, prim::Loop), exported with mc_export
(torch.jit.script + freeze): branches on tensor conditions, data-dependent while loops,
loop-carried tensors and scalars, lists built in loops, in-place writes inside a branch."""
from typing import List

import torch
import torch.nn as nn


class IfTensor(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        return y


class WhileCounter(nn.Module):
    """A data-dependent while loop that also returns its counter."""

    def forward(self, x):
        i = 0
        while x.abs().sum() < 100:
            x = x * 2 + 0.5
            i += 1
        return x, i


class ForAccumulate(nn.Module):
    def forward(self, x):
        acc = torch.zeros_like(x)
        for i in range(4):
            acc = acc + x * i
        return acc


class ForRuntimeTrip(nn.Module):
    """A for loop whose trip count is known only at run time (from the data)."""

    def forward(self, x):
        n = int(x[0, 0].abs().item() * 3) + 1
        acc = x
        for _ in range(n):
            acc = torch.tanh(acc) + x
        return acc


class SliceWriteInBranch(nn.Module):
    def forward(self, x):
        if x[0, 0] > 0:
            x[1:3] = 0
        return x


class ListInLoop(nn.Module):
    def forward(self, x):
        ys: List[torch.Tensor] = []
        for i in range(3):
            ys.append(x + i)
        return torch.cat(ys, 0)


class RowsInPlace(nn.Module):
    def forward(self, x):
        for i in range(3):
            x[i] = x[i] * 2
        return x


class NestedIfInLoop(nn.Module):
    def forward(self, x, y):
        s = x
        k = 0
        while k < 5:
            if s.mean() > y.mean():
                s = s - y
            else:
                s = s + y * 0.5
            k += 1
        return s, k


def pos(*s):
    return lambda: [torch.rand(*s) + 0.1]


CASES = [
    dict(name="ctl_if_tensor_pos", module=IfTensor, inputs=pos(3, 4), format="json", method="script"),
    dict(name="ctl_if_tensor_neg", module=IfTensor, inputs=lambda: [-torch.rand(3, 4)], format="json", method="script"),
    dict(name="ctl_while_counter", module=WhileCounter, inputs=pos(2, 3), format="json", method="script"),
    dict(name="ctl_for_accumulate", module=ForAccumulate, inputs=pos(5), format="json", method="script"),
    dict(name="ctl_for_runtime_trip", module=ForRuntimeTrip, inputs=pos(2, 2), format="json", method="script"),
    dict(name="ctl_slice_write_in_branch", module=SliceWriteInBranch, inputs=pos(4, 3), format="json", method="script"),
    dict(name="ctl_list_in_loop", module=ListInLoop, inputs=pos(2, 3), format="json", method="script"),
    dict(name="ctl_rows_in_place", module=RowsInPlace, inputs=pos(4, 2), format="json", method="script"),
    dict(name="ctl_nested_if_in_loop", module=NestedIfInLoop, inputs=lambda: [torch.randn(3, 3), torch.randn(3, 3)],
         format="json", method="script"),
]


class RaiseOnNegative(nn.Module):
    """A branch that raises (prim::RaiseException + prim::Uninitialized) on a run-time condition."""

    def forward(self, x):
        if bool(x.sum() < 0):
            raise ValueError("negative sum")
        else:
            y = x * 2
        return y


CASES.append(dict(name="ctl_raise_not_taken", module=RaiseOnNegative, inputs=pos(2, 3), format="json", method="script"))
