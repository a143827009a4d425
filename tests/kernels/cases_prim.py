"""cases_prim.py — kernel cases of the prim family's scalar rows (k_meta.h): str.find,
`in` of a list of numbers, and the queries mc answers false (is_cuda, is_nested, requires_grad,
is_grad_enabled, is_autocast_enabled). Expected values come from TorchScript (the scripted
builtins the graphs call) and, for the queries, from PyTorch on a CPU tensor under
torch.no_grad(), which is what mc computes."""
from typing import List

import torch


@torch.jit.script
def _find(s: str, sub: str, start: int, end: int) -> int:
    return s.find(sub, start, end)


@torch.jit.script
def _find2(s: str, sub: str) -> int:
    return s.find(sub)


@torch.jit.script
def _in_ints(l: List[int], x: int) -> bool:
    return x in l


@torch.jit.script
def _in_floats(l: List[float], x: float) -> bool:
    return x in l


def cases(w):
    for s, sub in [("conv_bn", "bn"), ("conv_bn", "x"), ("abcabc", "c"), ("abc", ""), ("", ""), ("", "a")]:
        w.case("aten::find", [s, sub], _find2(s, sub))
        for start, end in [(0, -1), (3, -1), (-4, -1), (1, 4), (-2, -3), (5, 2), (3, 3), (0, 100), (-100, -100)]:
            try:
                want = _find(s, sub, start, end)
            except RuntimeError:  # a window starting past the end: TorchScript's substr throws
                w.error("aten::find", [s, sub, start, end], check=_find)
                continue
            w.case("aten::find", [s, sub, start, end], want)
    w.error("aten::find", ["abc", "a", 5, 10], check=_find)
    for l, x in [([2, 4, 8], 4), ([2, 4, 8], 5), ([], 0), ([-1], -1)]:
        w.case("aten::__contains__", [l, x], _in_ints(l, x))
    for l, x in [([1.0, 2.5], 2.5), ([1.0, 2.5], 2.0), ([float("nan")], float("nan"))]:
        w.case("aten::__contains__", [l, x], _in_floats(l, x))
    x = torch.randn(2, 3)
    with torch.no_grad():
        w.case("prim::is_cuda", [x], x.is_cuda)
        w.case("prim::is_nested", [x], x.is_nested)
        w.case("prim::requires_grad", [x], x.requires_grad)
        w.case("aten::is_grad_enabled", [], torch.is_grad_enabled())
    w.case("aten::is_autocast_enabled", [], torch.is_autocast_enabled())
