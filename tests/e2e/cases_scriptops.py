"""The scalar builtins of scripted code that infer folds through their rows' kernels (k_meta.h):
tensor.is_cuda / requires_grad, torch.is_grad_enabled() (PyTorch runs these models under
torch.no_grad(), as mc computes inference), str.find on constants, and `in` on lists of numbers
and of strs, with the item a constant or a size."""
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


CASES = [
    dict(name="scriptops_queries_script", module=Queries, method="script", format="json",
         inputs=lambda: [torch.randn(4, 3)]),
]
