"""The scalar builtins of scripted code that infer folds through their rows' kernels (k_meta.h):
tensor.is_cuda / requires_grad, torch.is_grad_enabled() (PyTorch runs these models under
torch.no_grad(), as mc computes inference), str.find on constants, and `in` on lists of numbers
and of strs, with the item a constant or a size; an element of a list of numbers at a run-time
index (a loop over x.size(), as GroupNorm's check does: mc::list_getitem), negative indices and
an index out of range (PyTorch's IndexError, mc_run's error)."""
from typing import List

import torch
import torch.nn as nn


class Queries(nn.Module):
    def __init__(self):
        super().__init__()
        self.mode = "conv_bn"
        self.sizes: List[int] = [2, 4, 8]
        self.names: List[str] = ["a", "bn"]

    def forward(self, x):
        y = x * 2
        if x.is_cuda:
            y = y + 100
        if x.requires_grad:
            y = y + 1000
        if torch.is_grad_enabled():
            y = y - 7
        k = self.mode.find("bn")
        y = y + k + self.mode.find("x") * 10 + self.mode.find("_", 5) * 100 + self.mode.find("c", -4, -1)
        if x.size(0) in self.sizes:
            y = y * 3
        if 2.5 in [1.0, 2.5]:
            y = y + 0.5
        if "bn" in self.names:
            y = y + 0.25
        return y


class SizeLoop(nn.Module):
    def __init__(self):
        super().__init__()
        self.w: List[float] = [0.5, -1.0, 2.0]

    def forward(self, x):
        s = x.size()
        p = 1
        acc = 0.0
        for i in range(len(s)):
            p = p * s[-1 - i] + s[i]
            acc += self.w[i - 3]
        return x * p + acc


class SizeAtData(nn.Module):
    def forward(self, x, n):
        s = x.size()
        return x + s[int(n.item())]


CASES = [
    dict(name="scriptops_queries_script", module=Queries, method="script", format="json",
         inputs=lambda: [torch.randn(4, 3)]),
    dict(name="scriptops_size_loop_script", module=SizeLoop, method="script", format="json",
         inputs=lambda: [torch.randn(2, 3, 5)]),
    dict(name="scriptops_size_at_data_script", module=SizeAtData, method="script", format="json",
         inputs=lambda: [torch.randn(2, 3, 4), torch.tensor(1)],
         more_inputs=[lambda: [torch.randn(2, 3, 4), torch.tensor(-1)], lambda: [torch.randn(2, 3, 4), torch.tensor(-3)]]),
    dict(name="scriptops_size_past_end_script", module=SizeAtData, method="script", format="json",
         inputs=lambda: [torch.randn(2, 3, 4), torch.tensor(2)],
         run_inputs=lambda: [torch.randn(2, 3, 4), torch.tensor(3)], run_error="list index out of range"),
]
