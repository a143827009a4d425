"""known_failures.py — miscompiles the generator finds that are not fixed yet.

Each entry is a minimized program (what run_gen.py's minimizer printed: `src`, its `inputs`
and the program `seed` that make_inputs draws their values from), the reason, and what
recognises the same root cause in other failures: `detail`, a regular expression searched in
the one-line description of what differed, and/or `patterns`, regular expressions searched in
the canonical source of the minimized program (run_gen.canonical: local names renumbered v0,
a1, ..., numbers written as #). Entries with only `detail` are matched before minimizing. The first entry that matches wins:
keep the narrow ones (with `detail`) before the broad ones. `make gen-check` counts a failing program whose minimized form matches
an entry as "known" and fails on any other failure, and on an entry whose own program passes
(it was fixed: delete the entry).
"""
import re

import torch

KNOWN = [
    {"name": "item-float-dtype",
     "reason": "the Python float of a float tensor's .item() is returned as int64 (PyTorch: float)",
     "outcome": "wrong", "mode": "script", "detail": r"dtype int64, PyTorch float64",
     "patterns": [r"\.item\(\)"],
     "seed": 1000174, "inputs": [("x0", "float32", [3, 1, 3])],
     "src": "def f(x0):\n    s2 = x0.sum().item()\n    return s2\n"},
    {"name": "bool-fill-float",
     "reason": "a float scalar (or 0-dim float tensor) written into a bool tensor by fill_ or "
               "masked_fill_ is truncated (0.5 -> False); PyTorch converts by value != 0 (True). "
               "copy_ and index assignment are right",
     "outcome": "wrong", "mode": "both", "patterns": [r"fill_\("],
     "detail": r"(False|0\.0|0), PyTorch (True|1\.0|1)$",
     "seed": 5, "inputs": [("x1", "bool", [3])],
     "src": "def f(x1):\n    x1.fill_(0.5)\n    return x1.to(torch.float32)\n"},
    {"name": "inplace-view-op-on-alias",
     "reason": "v = t.relu_() is t itself; a later t.transpose_() (or t_/squeeze_/unsqueeze_) "
               "changes the shape of both names in PyTorch, mc only t's",
     "outcome": "wrong", "mode": "script", "patterns": [r"\.(transpose_|t_|squeeze_|unsqueeze_)\("],
     "seed": 1000159, "inputs": [("x0", "int32", [1, 4, 3])],
     "src": "def f(x0):\n    v1 = torch.zeros_like(x0)\n    v3 = v1.relu_()\n    v1.transpose_(0, 1)\n"
            "    v17 = v3[0]\n    return v17.narrow(1, 1, 2)\n"},
    {"name": "mask-assign-broadcast",
     "reason": "x[mask] = v with v of shape [1, 1] (broadcast to the selected elements) fails at "
               "run time in aten::index_put ('shape mismatch'); PyTorch broadcasts it",
     "outcome": "crash", "mode": "both", "detail": r"aten::index_put: shape mismatch",
     "seed": 1000296, "inputs": [("x1", "int32", [3, 1, 1]), ("x2", "int32", [3, 1, 1])],
     "src": "def f(x1, x2):\n    x1[x2 > 0] = x2[0]\n    return x1\n"},
    {"name": "noop-cast-view-chain",
     "reason": "a cast to the dtype a strided view already has (x[..., ::2][:, :, -3]"
               ".permute(0, 1).float()) is the view itself in PyTorch; mc reads the wrong "
               "elements through it (also without any write)",
     "outcome": "wrong", "mode": "both",
     "patterns": [r"\.(to\(torch\.\w+\)|float\(\)|double\(\)|int\(\)|long\(\))"],
     "seed": 202000829, "inputs": [("x0", "float32", [1, 5, 5])],
     "src": "def f(x0):\n    v1 = x0[..., ::2]\n    v3 = v1[:, :, -3].permute(0, 1)\n    v4 = v3.float()\n"
            "    return v4.detach()\n"},
    {"name": "loop-carried-view-inplace",
     "reason": "a view of an input carried by a loop as the result of an in-place op on itself "
               "(v = x[:, -1]; for ...: v = v.clamp_(-1, 2)) reads stale memory after the loop "
               "(mc run --interp is right: the passes)",
     "outcome": "wrong", "mode": "script",
     "patterns": [r"(for \w+ in range\(#\)|while \w+ < #):\n(\s+.*\n)*?\s+(\w+) = \3\.\w+_\("],
     "seed": 1000979, "inputs": [("x1", "int32", [2, 2])],
     "src": "def f(x1):\n    v5 = x1[:, -1]\n    for i10 in range(1):\n        v5 = v5.clamp_(-1, 2)\n"
            "    return v5[:, None]\n"},
]


def program(ent):
    """The entry as a program run_gen.check_prog accepts."""
    ins = [(n, getattr(torch, dt), tuple(sh)) for n, dt, sh in ent["inputs"]]
    mode = ent["mode"] if ent["mode"] != "both" else ent.get("run_as", "script")
    return {"seed": ent.get("seed", 0), "mode": mode, "inputs": ins, "src": ent["src"]}


def match(canon, mode, res, detail_only=False):
    """The name of the entry a failure belongs to, or None. An entry matches when mode and
    outcome agree, its `detail` regex (if any) is found in what differed, and one of its
    `patterns` (if any) is found in the canonical source."""
    for ent in KNOWN:
        if ent["mode"] not in (mode, "both") or ent["outcome"] != res[0]:
            continue
        if ent.get("detail") and not re.search(ent["detail"], res[1]):
            continue
        if detail_only and ent.get("patterns"):
            continue
        if ent.get("patterns") and not any(re.search(p, canon, re.S) for p in ent["patterns"]):
            continue
        return ent["name"]
    return None
