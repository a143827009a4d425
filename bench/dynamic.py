"""dynamic.py — `make bench-dynamic`: a model compiled once with Dims against the same model
compiled for one fixed size, run at that size (docs/dynamic.md, docs/performance.md).

Rows: resnet18 with a batch Dim (1..8) at batch 1 and 8; a 2-layer transformer encoder (d=128,
4 heads, feed-forward 512, batch_first) with a sequence Dim (2..128) at seq 32 and 128. For each
row both model.c files are built with -O3 -march=native into bench/driver.c (the dynamic one
bound at the row's extents), checked to give the same output, and timed interleaved in rounds
in one run: reported are the medians and the ratio dynamic / static (the target is <= 1.15),
at 1 thread. Run with /usr/bin/python3; minutes; not part of `make check`. Options:
--rounds N  --doc FILE (writes the table into FILE between the bench-dynamic markers)."""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
sys.path.insert(0, os.path.join(ROOT, "tests/e2e"))

import bench  # noqa: E402  (its build settings, driver and helpers)

BEGIN, END = "<!-- bench-dynamic:begin -->", "<!-- bench-dynamic:end -->"


def encoder():
    import torch
    layer = torch.nn.TransformerEncoderLayer(128, 4, 512, dropout=0.0, batch_first=True)
    return torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)


def resnet18():
    import cases_models
    return cases_models.resnet18()


# name, factory, example shape (export), Dim (axis, name, min, max), sizes to time
ROWS = [
    ("resnet18", resnet18, (2, 3, 224, 224), (0, "batch", 1, 8), [(1, 3, 224, 224), (8, 3, 224, 224)]),
    ("encoder", encoder, (1, 16, 128), (1, "seq", 2, 128), [(1, 32, 128), (1, 128, 128)]),
]


def build(d, mod, example, dyn=None):
    """Exports mod at `example` (with dynamic_shapes dyn), compiles and builds it; returns the driver."""
    import mc_export
    os.makedirs(d, exist_ok=True)
    mc_export.export(mod, (example,), os.path.join(d, "model.json"), dynamic_shapes=dyn)
    src = os.path.join(d, "model.c")
    bench.sh([bench.MC, "compile", os.path.join(d, "model.json"), "-o", src, "--name", "model"])
    exe = os.path.join(d, "driver")
    bench.sh([bench.CC] + bench.CFLAGS + ["-I" + d, "-Wa,-I" + d, "-I" + os.path.join(ROOT, "runtime"), src,
                                          os.path.join(HERE, "driver.c"), os.path.join(bench.BUILD, "libmcrt.a"),
                                          "-lm", "-lpthread", "-o", exe])
    return exe


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--doc")
    args = ap.parse_args()
    import torch
    from mc_export import Dim
    torch.set_num_threads(1)
    out = os.path.join(bench.OUT, "dynamic")
    lines = ["| model | size | static ms | dynamic ms | dynamic / static |", "|---|---|---|---|---|"]
    for name, factory, example, (axis, dname, lo, hi), sizes in ROWS:
        torch.manual_seed(0)
        mod = factory()
        mod.eval()
        g = torch.Generator().manual_seed(1)
        dyn_exe = build(os.path.join(out, name + "_dyn"), mod, torch.randn(*example, generator=g),
                        ({axis: Dim(dname, min=lo, max=hi)},))
        for shape in sizes:
            x = torch.randn(*shape, generator=g)
            tag = "x".join(map(str, shape))
            d = os.path.join(out, "%s_%s" % (name, tag))
            st_exe = build(d, mod, x)
            inp = os.path.join(d, "in_0.bin")
            x.contiguous().numpy().tofile(inp)
            st = bench.Driver(st_exe, [inp])
            dy = bench.Driver(dyn_exe, ["%s:%s" % (inp, tag)])
            a, b = st.ask("out"), dy.ask("out")
            if any(abs(float(p) - float(q)) > 1e-3 * (1 + abs(float(p))) for p, q in zip(a, b)) or len(a) != len(b):
                sys.exit("bench-dynamic: %s at %s: the dynamic build's output %s differs from the static one's %s" %
                         (name, tag, b, a))
            n = 3 if shape[0] * shape[1] > 64 or name == "resnet18" else 20
            ts, td = [], []
            for _ in range(args.rounds):
                ts += [float(t) for t in st.ask("run %d" % n)]
                td += [float(t) for t in dy.ask("run %d" % n)]
            st.close()
            dy.close()
            ms, md = statistics.median(ts) / 1e3, statistics.median(td) / 1e3
            row = "| %s (%s %d..%d) | %s | %.2f | %.2f | %.2fx |" % (name, dname, lo, hi, tag, ms, md, md / ms)
            print(row)
            sys.stdout.flush()
            lines.append(row)
    cpu = bench.cpu_model()
    text = "\n".join(lines) + "\n\n1 thread, -O3 -march=native, medians of %d rounds, interleaved%s; load %.1f.\n" % (
        args.rounds, (" on " + cpu) if cpu else "", os.getloadavg()[0])
    print(text)
    if args.doc:
        doc = open(args.doc).read()
        if BEGIN in doc and END in doc:
            doc = doc[:doc.index(BEGIN) + len(BEGIN)] + "\n" + text + doc[doc.index(END):]
        else:
            doc += "\n## Dynamic shapes against fixed ones (`make bench-dynamic`)\n\n%s\n%s%s\n" % (BEGIN, text, END)
        with open(args.doc, "w") as f:
            f.write(doc)


if __name__ == "__main__":
    main()
