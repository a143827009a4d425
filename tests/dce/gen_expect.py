#!/usr/bin/python3
"""Writes NAME.expect for every NAME.txt graph here: the outputs and final input values that
PyTorch 1.13 itself computes when it runs the graph (torch._C.parse_ir, then a function made
from the graph). Inputs are deterministic: element k of float input i is
((3k + 5i) mod 11 - 5) / 2, the same formula tests/check_dce.c and tests/check_interp.c use.
Graphs whose NAME.dce has a `nointerp` line (a module `self` input, which PyTorch's IR parser
cannot type) get no .expect: check_dce checks only their structure after dce.
Run with /usr/bin/python3 tests/dce/gen_expect.py (writes beside itself)."""
import glob
import os
import re
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def make_input(i, shape):
    n = 1
    for s in shape:
        n *= s
    vals = [((3 * k + 5 * i) % 11 - 5) * 0.5 for k in range(n)]
    return torch.tensor(vals, dtype=torch.float32).reshape(shape)


def flat(v, out):
    if isinstance(v, (tuple, list)):
        for x in v:
            flat(x, out)
    elif isinstance(v, torch.Tensor):
        out.append(v)
    elif isinstance(v, bool):
        out.append(torch.tensor(v))
    elif isinstance(v, int):
        out.append(torch.tensor(v, dtype=torch.int64))
    elif isinstance(v, float):
        out.append(torch.tensor(v, dtype=torch.float64))


DT = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64", torch.bool: "bool"}


def line(tag, k, t):
    t = t.contiguous()
    vals = " ".join(repr(float(x)) for x in t.reshape(-1).tolist())
    dims = " ".join(str(s) for s in t.shape)
    return f"{tag} {k} {DT[t.dtype]} {t.dim()} {dims} : {vals}".replace("  ", " ")


# A traced graph's 0-dim constants (`%3 : Double(...) = prim::Constant[value={0.9}]()`): PyTorch's
# parser leaves such tensors uninitialised, so they become the scalar constants they print as. A
# 0-dim operand and a scalar promote alike against a Float tensor.
TENSOR_CONST = re.compile(r"(%\S+) : (Double|Float|Long)\([^)]*\) = prim::Constant\[value=\{([^}]*)\}\]\(\)")


def scalar_const(m):
    v = m.group(3)
    if m.group(2) == "Long":
        return "%s : int = prim::Constant[value=%s]()" % (m.group(1), v)
    if not re.search(r"[.eE]", v):
        v += "."
    return "%s : float = prim::Constant[value=%s]()" % (m.group(1), v)


for path in sorted(glob.glob(os.path.join(HERE, "*.txt"))):
    spec = path[:-4] + ".dce"
    if os.path.exists(spec) and re.search(r"^nointerp$", open(spec).read(), flags=re.M):
        continue
    # PyTorch prints a node without outputs as "  = prim::Print(...)" but its parser wants
    # "  prim::Print(...)"
    text = re.sub(r"^(\s*) = ", r"\1", open(path).read(), flags=re.M)
    text = re.sub(TENSOR_CONST, scalar_const, text)
    g = torch._C.parse_ir(text)
    if len(list(g.outputs())) != 1:
        g.makeMultiOutputIntoTuple()
    f = torch._C._create_function_from_graph("f", g)
    ins = [make_input(i, inp.type().sizes()) for i, inp in enumerate(g.inputs())]
    res = f(*ins)
    outs = []
    flat(res, outs)
    with open(path[:-4] + ".expect", "w") as fh:
        for k, t in enumerate(outs):
            fh.write(line("out", k, t) + "\n")
        for k, t in enumerate(ins):
            fh.write(line("in", k, t) + "\n")
    print("wrote", os.path.basename(path[:-4]) + ".expect", file=sys.stderr)
