"""cases_prim.py — kernel cases of the prim family's scalar rows (k_meta.h): str.find,
`in` of a list of numbers, an element of one (mc::list_getitem, TorchScript's l[i]), and the queries mc answers false (is_cuda, is_nested, requires_grad,
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


@torch.jit.script
def _get_ints(l: List[int], i: int) -> int:
    return l[i]


@torch.jit.script
def _get_floats(l: List[float], i: int) -> float:
    return l[i]


@torch.jit.script
def _get_bools(l: List[bool], i: int) -> bool:
    return l[i]


def cases(w):
    for fn, l in [(_get_ints, [3, -7, 11]), (_get_floats, [0.5, -2.25, float("inf")]), (_get_bools, [True, False, True])]:
        for i in [0, 2, -1, -3]:
            w.case("mc::list_getitem", [l, i], fn(l, i))
        for i in [3, -4]:
            w.error("mc::list_getitem", [l, i], check=fn)
    w.error("mc::list_getitem", [[], 0], check=_get_ints)
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
