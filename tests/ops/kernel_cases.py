"""kernel_cases.py — every op row with a kernel has PyTorch-computed kernel cases.

Usage: kernel_cases.py OPS.json CASES.txt
  OPS.json   `mc ops --format json` (the op table)
  CASES.txt  the cases file tests/kernels/gen_kernels.py writes (records `case <op> ...`,
             see tests/kernels/kcase.py)

A row without cases must be listed in tests/ops/no_kernel_cases.txt with the reason (one line
each: `OP  REASON`): covered elsewhere (scalar arithmetic by tests/types, random ops checked
statistically, ...), or under the heading `## to do (N)` while its cases are still to write.
Fails when a row has neither, when a listed op is no row (or has no kernel), when a "to do" op
has cases now, or when the heading's count is not the number of "to do" lines. Structural rows
(no kernel: the passes and the emitter give them meaning) need no cases. Prints the counts.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXEMPT = os.path.join(HERE, "no_kernel_cases.txt")
REL = "tests/ops/no_kernel_cases.txt"


def read_exemptions():
    """{op: (section, reason, line)}, the stated "to do" count (or None) and errors."""
    out, errs, section, todo_count = {}, [], "", None
    for no, line in enumerate(open(EXEMPT), 1):
        s = line.strip()
        if not s or s.startswith("#") and not s.startswith("##"):
            continue
        if s.startswith("##"):
            section = s[2:].strip()
            m = re.match(r"to do \((\d+)\)$", section)
            if m:
                todo_count = int(m.group(1))
                section = "to do"
            continue
        parts = s.split(None, 1)
        if len(parts) < 2:
            errs.append("%s:%d: '%s' has no reason" % (REL, no, parts[0]))
            continue
        if parts[0] in out:
            errs.append("%s:%d: %s listed twice" % (REL, no, parts[0]))
        out[parts[0]] = (section, parts[1], no)
    return out, todo_count, errs


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: kernel_cases.py OPS.json CASES.txt\n")
        return 2
    ops = json.load(open(argv[1]))["ops"]
    with_cases = set()
    for line in open(argv[2]):
        if line.startswith("case "):
            with_cases.add(line.split()[1])
    rows = {o["name"]: o for o in ops if "kernel" in o}
    exempt, todo_count, errs = read_exemptions()
    for name in sorted(rows):
        if name not in with_cases and name not in exempt:
            fam = rows[name]["family"]
            errs.append("%s (%s family) has no kernel cases: add PyTorch-computed cases in "
                        "tests/kernels/cases_%s.py (w.case, tests/kernels/kcase.py), or list it in "
                        "%s with the reason" % (name, fam, fam, REL))
    todo = sorted(n for n, (sec, _, _) in exempt.items() if sec == "to do")
    for name, (sec, _, no) in sorted(exempt.items()):
        if name not in rows:
            errs.append("%s:%d: %s is not an op row with a kernel: remove the line" % (REL, no, name))
        elif sec == "to do" and name in with_cases:
            errs.append("%s:%d: %s has kernel cases now: remove it from the \"to do\" list "
                        "(and lower the count in its heading)" % (REL, no, name))
    if todo and todo_count != len(todo):
        errs.append("%s: the heading says '## to do (%s)' but %d ops are listed under it" %
                    (REL, todo_count, len(todo)))
    covered = sum(1 for n in rows if n in with_cases)
    elsewhere = sum(1 for n, (sec, _, _) in exempt.items() if sec != "to do" and n in rows and n not in with_cases)
    print("tests/ops: %d op rows with a kernel: %d with kernel cases, %d without (%d covered "
          "elsewhere, %d to do)" % (len(rows), covered, len(rows) - covered, elsewhere, len(todo)))
    for e in errs:
        print("FAIL " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
