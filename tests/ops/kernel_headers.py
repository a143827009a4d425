"""kernel_headers.py — the kernel library's headers (compiler/ops/mck.h, k_*.h) are pasted into
every model.c in the Makefile's order (KERNEL_HDRS) with their own #include lines dropped, so
every header must come after each header it includes: that also rules out include cycles.
The headers split along the library's seams stay under 1,000 lines each.

Usage: kernel_headers.py HEADER... (in paste order: `make -s kernel-headers`). Exits 1 on a
failure; prints the largest headers."""
import os
import re
import sys

LIMIT = 1000
# the headers of the conv, elementwise, shape, linalg, reduce, prim, math, loss, sample and
# spectral families and the shared ones (others are checked for order only)
SIZED = {"mck.h", "k_args.h", "k_thread.h", "k_act.h", "k_gemm.h", "k_dw.h", "k_conv.h", "k_norm.h",
         "k_pool.h", "k_pad.h", "k_binary.h", "k_unary.h", "k_create.h", "k_elementwise.h",
         "k_shape_util.h", "k_view.h", "k_copy.h", "k_indexing.h", "k_meta.h", "k_shape.h",
         "k_reduce.h", "k_matvec.h", "k_linalg.h", "k_math.h", "k_loss.h", "k_loss_margin.h",
         "k_sample.h", "k_sample_grid.h", "k_spectral.h"}
INC = re.compile(r'^\s*#\s*include\s+"((?:mck|k_[a-z_]*)\.h)"')


def main(argv):
    order = [os.path.basename(p) for p in argv[1:]]
    paths = {os.path.basename(p): p for p in argv[1:]}
    if not order:
        sys.stderr.write("usage: kernel_headers.py HEADER...\n")
        return 2
    pos = {h: i for i, h in enumerate(order)}
    fails, sizes = [], []
    here = os.path.dirname(paths[order[0]])
    for h in sorted(set(os.listdir(here))):
        if (h.startswith("k_") or h == "mck.h") and h.endswith(".h") and h not in pos:
            fails.append("%s is not pasted into generated C (not in the Makefile's KERNEL_HDRS)" % h)
    for h in order:
        lines = open(paths[h]).read().split("\n")
        sizes.append((len(lines) - 1, h))
        for no, line in enumerate(lines, 1):
            m = INC.match(line)
            if not m:
                continue
            dep = m.group(1)
            if dep not in pos:
                fails.append("%s:%d includes %s, which is not pasted" % (h, no, dep))
            elif pos[dep] >= pos[h]:
                fails.append("%s:%d includes %s, which the Makefile's KERNEL_ORDER pastes after it "
                             "(an include cycle, or the order needs %s first)" % (h, no, dep, dep))
        if h in SIZED and len(lines) - 1 > LIMIT:
            fails.append("%s has %d lines (at most %d: split it along a seam)" % (h, len(lines) - 1, LIMIT))
    sizes.sort(reverse=True)
    print("tests/ops: %d kernel headers in paste order; largest: %s" %
          (len(order), ", ".join("%s %d" % (h, n) for n, h in sizes[:5])))
    for f in fails:
        print("FAIL tests/ops/kernel_headers: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
