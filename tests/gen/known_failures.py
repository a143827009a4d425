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
