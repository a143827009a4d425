"""gen_kernels.py — writes every kernel numeric test case to one text file.

Usage: /usr/bin/python3 tests/kernels/gen_kernels.py OUT.txt [FAMILY ...]

Imports each tests/kernels/cases_<family>.py (or only the named families), calls its
`cases(w)` with a kcase.Writer, and writes the file atomically. Seeds are fixed, so the file is
the same on every run. The format is described in kcase.py. Beside it, OUT.txt.layout.json:
what PyTorch's results showed of their layouts, per op (kcase.Writer.layouts).
"""
import glob
import importlib
import json
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kcase  # noqa: E402


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: gen_kernels.py OUT.txt [FAMILY ...]\n")
        return 2
    out = argv[1]
    fams = argv[2:] or sorted(os.path.basename(p)[len("cases_"):-len(".py")]
                              for p in glob.glob(os.path.join(HERE, "cases_*.py")))
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")
    tmp = out + ".tmp"
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(tmp, "w") as f:
        w = kcase.Writer(f)
        for fam in fams:
            torch.manual_seed(0)
            before = w.ncases
            importlib.import_module("cases_" + fam).cases(w)
            sys.stderr.write("gen_kernels: %-12s %5d cases\n" % (fam, w.ncases - before))
    with open(tmp + ".layout", "w") as f:
        json.dump(w.layouts, f, indent=1, sort_keys=True)
    os.replace(tmp + ".layout", out + ".layout.json")
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
