"""compile_scaling.py — how `mc compile` scales with the size of the model (`make bench-compile`,
also run by `make bench`).

Generates synthetic models in both input forms (TorchScript text dump and mc-graph JSON) and
times `mc compile` (all default passes, emitting the C) on each: CPU time (user + system; the
wall time is printed too, but on a shared machine it mostly measures the other jobs) and peak
RSS, both from wait4's rusage of the mc process. Models, N = size:
  chain     N nodes cycling aten::add / aten::relu / aten::mul on a Float(2, 3) input
  inputs    N Float(2, 3) graph inputs summed by a chain of N - 1 aten::add
  consts    N unused int constants beside one aten::relu
  list      one prim::ListConstruct of N tensors into aten::cat
  nest      prim::If blocks nested N deep (refused beyond the frontends' depth limits)
The slope is the least-squares fit of log(CPU time) against log(N) over the sizes that compiled
(1 = linear). With --doc FILE the table is written into FILE between the compile-scaling
markers.

Usage: python3 bench/compile_scaling.py [--sizes 1000,10000,100000,1000000] [--models chain_ts,...]
       [--keep DIR] [--doc docs/performance.md] [--timeout S]
       python3 bench/compile_scaling.py --gen MODEL N FILE   (write one model and exit)
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
MC = os.environ.get("MC", os.path.join(BUILD, "mc"))
BEGIN, END = "<!-- compile-scaling:begin -->", "<!-- compile-scaling:end -->"

TT = "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"
CHAIN_OPS = ("aten::add", "aten::relu", "aten::mul")


# ---- TorchScript text ---------------------------------------------------------------------
def ts_chain(n, w):
    w("graph(%x : " + TT + "):\n")
    w("  %one : int = prim::Constant[value=1]()\n")
    prev = "x"
    for i in range(n):
        op = CHAIN_OPS[i % 3]
        args = {"aten::add": "%%%s, %%x, %%one" % prev, "aten::relu": "%" + prev,
                "aten::mul": "%%%s, %%x" % prev}[op]
        w("  %%v%d : %s = %s(%s) # m.py:%d:4\n" % (i, TT, op, args, i + 1))
        prev = "v%d" % i
    w("  return (%%%s)\n" % prev)


def ts_inputs(n, w):
    w("graph(" + ",\n      ".join("%%x%d : %s" % (i, TT) for i in range(n)) + "):\n")
    w("  %one : int = prim::Constant[value=1]()\n")
    prev = "x0"
    for i in range(1, n):
        w("  %%s%d : %s = aten::add(%%%s, %%x%d, %%one)\n" % (i, TT, prev, i))
        prev = "s%d" % i
    w("  return (%%%s)\n" % prev)


def ts_consts(n, w):
    w("graph(%x : " + TT + "):\n")
    for i in range(n):
        w("  %%c%d : int = prim::Constant[value=%d]()\n" % (i, i))
    w("  %%y : %s = aten::relu(%%x)\n" % TT)
    w("  return (%y)\n")


def ts_list(n, w):
    w("graph(%x : " + TT + "):\n")
    w("  %zero : int = prim::Constant[value=0]()\n")
    w("  %l : Tensor[] = prim::ListConstruct(" + ", ".join(["%x"] * n) + ")\n")
    w("  %y : Tensor = aten::cat(%l, %zero)\n")
    w("  return (%y)\n")


def ts_nest(n, w):
    w("graph(%x : " + TT + ",\n      %f : Bool(requires_grad=0, device=cpu)):\n")
    w("  %flag : bool = aten::Bool(%f)\n")
    n = min(n, 2000)  # the text form indents each level (quadratic size); refused long before
    # the If at depth d defines %y<d>; its then-branch holds the If of depth d + 1
    for d in range(n):
        ind = "  " + "    " * d
        w("%s%%y%d : Tensor = prim::If(%%flag)\n" % (ind, d))
        w("%s  block0():\n" % ind)
    w("%s  %%r : Tensor = aten::relu(%%x)\n" % ("  " + "    " * n))
    for d in reversed(range(n)):
        ind = "  " + "    " * d
        w("%s    -> (%%%s)\n" % (ind, "y%d" % (d + 1) if d + 1 < n else "r"))
        w("%s  block1():\n" % ind)
        w("%s    -> (%%x)\n" % ind)
    w("  return (%y0)\n")


# ---- mc-graph JSON ------------------------------------------------------------------------
def js_doc(inputs, nodes_writer, outputs, w):
    w('{"format": "mc-graph", "version": 1, "graph": {"inputs": [')
    w(", ".join(json.dumps(i) for i in inputs))
    w('], "nodes": [\n')
    nodes_writer(w)
    w('], "outputs": %s}}\n' % json.dumps(outputs))


def tensor_in(name):
    return {"name": name, "type": "Tensor", "dtype": "float32", "shape": [2, 3]}


def node(kind, inputs, out, typ="Tensor", **extra):
    d = {"kind": kind, "inputs": inputs, "outputs": [{"name": out, "type": typ}]}
    d.update(extra)
    return json.dumps(d)


def int_const(name, v):
    return node("prim::Constant", [], name, "int", attrs={"value": {"type": "int", "value": v}})


def js_chain(n, w):
    def nodes(w):
        w(int_const("one", 1))
        prev = "x"
        for i in range(n):
            op = CHAIN_OPS[i % 3]
            ins = {"aten::add": [prev, "x", "one"], "aten::relu": [prev], "aten::mul": [prev, "x"]}[op]
            w(",\n" + node(op, ins, "v%d" % i, source="m.py:%d:4" % (i + 1)))
            prev = "v%d" % i
    js_doc([tensor_in("x")], nodes, ["v%d" % (n - 1)], w)


def js_inputs(n, w):
    def nodes(w):
        w(int_const("one", 1))
        prev = "x0"
        for i in range(1, n):
            w(",\n" + node("aten::add", [prev, "x%d" % i, "one"], "s%d" % i))
            prev = "s%d" % i
    js_doc([tensor_in("x%d" % i) for i in range(n)], nodes, ["s%d" % (n - 1) if n > 1 else "x0"], w)


def js_consts(n, w):
    def nodes(w):
        for i in range(n):
            w(int_const("c%d" % i, i) + ",\n")
        w(node("aten::relu", ["x"], "y"))
    js_doc([tensor_in("x")], nodes, ["y"], w)


def js_list(n, w):
    def nodes(w):
        w(int_const("zero", 0) + ",\n")
        w(node("prim::ListConstruct", ["x"] * n, "l", "Tensor[]") + ",\n")
        w(node("aten::cat", ["l", "zero"], "y"))
    js_doc([tensor_in("x")], nodes, ["y"], w)


def js_nest(n, w):
    # written by hand: json.dumps would recurse n levels deep
    w('{"format": "mc-graph", "version": 1, "graph": {"inputs": [%s, %s], "nodes": [\n'
      % (json.dumps(tensor_in("x")), json.dumps({"name": "f", "type": "Tensor", "dtype": "bool", "shape": []})))
    w(node("aten::Bool", ["f"], "flag", "bool") + ",\n")
    for d in range(n):
        w('{"kind": "prim::If", "inputs": ["flag"], "outputs": [{"name": "y%d", "type": "Tensor"}], "blocks": [\n' % d)
        w('{"inputs": [], "outputs": ["x"], "nodes": []}, {"inputs": [], "nodes": [\n')
    w(node("aten::relu", ["x"], "r"))
    for d in reversed(range(n)):
        w('], "outputs": ["%s"]}]}\n' % ("y%d" % (d + 1) if d + 1 < n else "r"))
    w('], "outputs": ["y0"]}}\n')


GENERATORS = {
    "chain_ts": ts_chain, "chain_json": js_chain,
    "inputs_ts": ts_inputs, "inputs_json": js_inputs,
    "consts_ts": ts_consts, "consts_json": js_consts,
    "list_ts": ts_list, "list_json": js_list,
    "nest_ts": ts_nest, "nest_json": js_nest,
}


def generate(model, n, path):
    with open(path, "w") as f:
        GENERATORS[model](n, f.write)


# Runs in a fresh interpreter: a child's ru_maxrss starts at what its parent had when it forked,
# so mc is started from a small process, not from this one (which holds generated text).
RUNNER = r"""
import json, os, subprocess, sys, tempfile, threading, time
mc, path, out, timeout = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
with tempfile.TemporaryFile() as err:
    t0 = time.monotonic()
    p = subprocess.Popen([mc, "compile", path, "-o", out], stdout=subprocess.DEVNULL, stderr=err)
    timer = threading.Timer(timeout, p.kill)
    timer.start()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    timed_out = not timer.is_alive()
    timer.cancel()
    err.seek(0)
    lines = err.read().decode(errors="replace").strip().splitlines()
code = os.waitstatus_to_exitcode(status)
print(json.dumps([None if timed_out else code, ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss / 1024.0,
                  "timed out after %g s" % timeout if timed_out else (lines[0] if lines else "")]))
"""


def measure(path, out_dir, timeout):
    """Runs mc compile; returns (exit code or None on timeout, CPU seconds (user + system), wall
    seconds, peak RSS in MiB, first stderr line), from wait4's rusage of that process alone."""
    out = os.path.join(out_dir, "model.c")
    r = subprocess.run([sys.executable, "-c", RUNNER, MC, path, out, str(timeout)],
                       stdout=subprocess.PIPE, text=True, check=True)
    return tuple(json.loads(r.stdout))


def slope(points):
    pts = [(math.log(n), math.log(t)) for n, t in points if t > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else None


def fmt_n(n):
    e = int(round(math.log10(n))) if n > 0 else 0
    return "1e%d" % e if 10 ** e == n else str(n)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000,1000000")
    ap.add_argument("--models", default="chain_ts,chain_json,inputs_ts,inputs_json,consts_ts,consts_json,list_ts,list_json")
    ap.add_argument("--nest", default="1000,100000", help="depths for nest_ts / nest_json")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--keep", help="write the models into this folder and keep them")
    ap.add_argument("--doc", help="write the table into this Markdown file between the markers")
    ap.add_argument("--gen", nargs=3, metavar=("MODEL", "N", "FILE"), help="write one model and exit")
    a = ap.parse_args()
    if a.gen:
        generate(a.gen[0], int(float(a.gen[1])), a.gen[2])
        return
    if not os.path.exists(MC):
        sys.exit("compile_scaling: %s not built (make all)" % MC)
    work = a.keep or tempfile.mkdtemp(prefix="mc-scaling-")
    os.makedirs(work, exist_ok=True)
    sizes = [int(float(s)) for s in a.sizes.split(",") if s]
    rows = []
    try:
        for model in [m for m in a.models.split(",") if m]:
            ext = ".json" if model.endswith("_json") else ".txt"
            pts, cells = [], []
            for n in sizes:
                path = os.path.join(work, "%s_%d%s" % (model, n, ext))
                generate(model, n, path)
                mb = os.path.getsize(path) / 1e6
                out_dir = os.path.join(work, "out_%s_%d" % (model, n))
                os.makedirs(out_dir, exist_ok=True)
                rc, cpu, wall, rss, msg = measure(path, out_dir, a.timeout)
                ok = rc == 0
                if ok:
                    pts.append((n, cpu))
                refused = rc == 1 and "error: " in msg  # a located refusal, e.g. a width limit
                cells.append("%.2f s / %.0f MiB" % (cpu, rss) if ok else
                             "refused, %.2f s / %.0f MiB" % (cpu, rss) if refused else
                             ("timeout" if rc is None else "exit %s" % rc))
                print("compile-scaling: %-12s N=%-8s %7.1f MB  %s (wall %.2f s)%s" %
                      (model, fmt_n(n), mb, cells[-1], wall, "" if ok else "  " + msg), flush=True)
                if not a.keep:
                    os.unlink(path)
                    shutil.rmtree(out_dir, ignore_errors=True)
            s = slope(pts)
            rows.append((model, cells, "%.2f" % s if s is not None else "n/a"))
        nest = []
        for model in ("nest_ts", "nest_json"):
            for n in [int(float(s)) for s in a.nest.split(",") if s]:
                path = os.path.join(work, "%s_%d%s" % (model, n, ".json" if "json" in model else ".txt"))
                generate(model, n, path)
                out_dir = os.path.join(work, "out_%s_%d" % (model, n))
                os.makedirs(out_dir, exist_ok=True)
                rc, cpu, wall, rss, msg = measure(path, out_dir, a.timeout)
                what = "compiled" if rc == 0 else ("refused: " + msg.split("error: ", 1)[-1] if rc == 1 else "exit %s: %s" % (rc, msg))
                nest.append((model, n, "%.2f s / %.0f MiB" % (cpu, rss), what))
                print("compile-scaling: %-12s N=%-8s %s  %s" % (model, fmt_n(n), nest[-1][2], what), flush=True)
                if not a.keep:
                    os.unlink(path)
                    shutil.rmtree(out_dir, ignore_errors=True)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    lines = ["| model | " + " | ".join("N = " + fmt_n(n) for n in sizes) + " | slope |",
             "|---" * (len(sizes) + 2) + "|"]
    for model, cells, s in rows:
        lines.append("| %s | %s | %s |" % (model, " | ".join(cells), s))
    lines.append("")
    lines.append("| nesting | depth | time / peak RSS | result |")
    lines.append("|---|---|---|---|")
    for model, n, cell, what in nest:
        lines.append("| %s | %s | %s | %s |" % (model, fmt_n(n), cell, what.replace("|", "\\|")))
    table = "\n".join(lines)
    print(table)
    if a.doc:
        with open(a.doc) as f:
            doc = f.read()
        if BEGIN in doc and END in doc:
            head, rest = doc.split(BEGIN, 1)
            _, tail = rest.split(END, 1)
            cpu = ""
            try:
                with open("/proc/cpuinfo") as f:
                    cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
            except OSError:
                pass
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
            note = ("Each cell: CPU time (user + system) / peak RSS of `mc compile MODEL -o model.c` "
                    "(default passes, C emitted; \"refused\": a located error, e.g. more graph inputs "
                    "than IR_MAX_GRAPH_IO), %s, %d cores%s." %
                    (cpu or "this machine", os.cpu_count() or 0,
                     ", load average %.1f when it ended" % load if load is not None else ""))
            with open(a.doc, "w") as f:
                f.write(head + BEGIN + "\n" + note + "\n\n" + table + "\n" + END + tail)


if __name__ == "__main__":
    main()
