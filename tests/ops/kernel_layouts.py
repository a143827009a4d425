"""kernel_layouts.py — the op table's layout and alias flags agree with what PyTorch's results
showed in the kernel cases.

Usage: kernel_layouts.py OPS.json LAYOUT.json
  OPS.json     `mc ops --format json` (the op table)
  LAYOUT.json  what tests/kernels/gen_kernels.py saw of PyTorch's results, per op
               (kcase.Writer.layouts: noncontig_from_contig, noncontig_low, noncontig_any, view)

mc gives every computed tensor a contiguous buffer and knows the layout PyTorch would give it
only from the rows' flags (passes/functionalize.c, check_layouts): whether reshape/flatten/
contiguous of it is a view, and so whether a later write through one reaches the other. A
row is wrong, and this fails, when in one of its cases PyTorch
  - gave a result that is not contiguous from contiguous inputs, and the row is pure without
    strided_out (mc would take the result for contiguous);
  - gave a non-contiguous result to a contiguous_out row, or one from inputs of rank >= 3 all
    contiguous to a contiguous_low_rank row;
  - returned a result sharing an input's storage, and the row is pure (no view effect,
    maybe_view, self_* or may_alias flag): a write to one would not reach the other in mc.
Writes (the result is the written input) and views (mc follows their strides) need no flag.
"""
import json
import sys


def main(argv):
    ops = {o["name"]: o for o in json.load(open(argv[1]))["ops"]}
    facts = json.load(open(argv[2]))
    errs = []
    for name, f in sorted(facts.items()):
        o = ops.get(name)
        if not o or o["effect"] in ("write", "view", "control flow"):
            continue
        flags = set(o.get("flags", []))
        if flags & {"maybe_view", "self_cast", "self_contiguous", "self_one_dim"}:
            continue
        if "view" in f and "may_alias" not in flags:
            errs.append("%s: PyTorch returned a view of an input (%s), the row is pure" % (name, f["view"]))
        if "contiguous_out" in flags:
            if "noncontig_any" in f:
                errs.append("%s: contiguous_out, but PyTorch gave a non-contiguous result (%s)" % (name, f["noncontig_any"]))
        elif "contiguous_low_rank" in flags:
            if "noncontig_low" in f:
                errs.append("%s: contiguous_low_rank, but PyTorch gave a non-contiguous result from inputs of rank "
                            ">= 3 all contiguous (%s)" % (name, f["noncontig_low"]))
        elif "strided_out" not in flags and "noncontig_from_contig" in f:
            errs.append("%s: PyTorch gave a non-contiguous result from contiguous inputs (%s): the row needs "
                        "strided_out" % (name, f["noncontig_from_contig"]))
    for e in errs:
        print("FAIL tests/ops:", e)
    nflag = sum(1 for o in ops.values() if {"contiguous_out", "contiguous_low_rank", "strided_out"} & set(o.get("flags", [])))
    print("tests/ops: layouts of %d ops' results checked against PyTorch's (%d rows with a layout flag), %d wrong"
          % (len(facts), nflag, len(errs)))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
