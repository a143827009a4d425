"""e2e.py — the functionalize patterns of gen.py, end to end: traced (and, where listed,
scripted) -> mc compile -> cc -> run through the runtime with copying, zero-copy and DLPack
inputs -> compare every output and every input's final value with PyTorch.

Usage: /usr/bin/python3 tests/functionalize/e2e.py [NAME-SUBSTRING ...]
Uses tests/e2e/run_e2e.py's check_case (environment MC, BUILD, CC as there).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "e2e"))

import torch  # noqa: E402

import gen  # noqa: E402
import run_e2e  # noqa: E402


def cases():
    out = []
    for name, fn, mk in gen.CASES:
        out.append(dict(name="fz_" + name, module=(lambda fn=fn: gen.Wrap(fn)), inputs=(lambda mk=mk: list(mk()))))
    return out


def main(argv):
    torch.set_num_threads(1)
    only = argv[1:]
    passed = failed = 0
    for case in cases():
        if only and not any(o in case["name"] for o in only):
            continue
        try:
            errs = run_e2e.check_case(case)
        except Exception as e:  # noqa: BLE001
            errs = ["exception: %r" % e]
        if errs:
            failed += 1
            print("FAIL %s" % case["name"])
            for e in errs:
                print("    " + e.replace("\n", "\n    "))
        else:
            passed += 1
            print("ok   %s" % case["name"])
        sys.stdout.flush()
    print("functionalize e2e: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
