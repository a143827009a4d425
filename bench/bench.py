"""bench.py — `make bench`: mc's generated C against PyTorch on the CPU, in one run.

For each bench model (MLP 64-128-10, LeNet-5, resnet18, mobilenet_v2, a GPT-style block; the
definitions are tests/e2e/cases_models.py's) it exports with frontend/python/mc_export.py,
compiles with build/mc, builds the C with -O3 -march=native into bench/driver.c (a long-lived
timing process), then times mc and PyTorch (torch.jit.freeze of the trace, and
torch.jit.optimize_for_inference of that) interleaved in rounds inside one worker process per
thread count, whose environment pins OMP_NUM_THREADS / OPENBLAS_NUM_THREADS / MKL_NUM_THREADS
before torch is imported (torch.set_num_threads alone does not limit Debian's OpenBLAS).
Reported: medians of all iterations, ratio mc/PyTorch, GFLOP/s from `mc inspect`'s FLOP
estimate, peak RSS of the mc process, arena bytes, `mc compile` wall time. bench/sgemm.c then
compares mc's GEMM kernels with OpenBLAS at 256..2048. With --doc FILE the tables are written
into FILE (docs/performance.md) between the bench markers, with the machine's CPU model.

Run with /usr/bin/python3 (Debian's torch). Not part of `make check`: it takes minutes and its
numbers depend on the machine. Options: --threads 1,2  --models mlp,lenet5  --quick  --doc F

ONNX Runtime (benchmark only, never the tests): a venv $BUILD/benchenv made once with
--system-site-packages (so Debian's torch and numpy stay the ones imported) gets onnxruntime from
PyPI, with numpy pinned to Debian's version so pip can neither replace nor shadow it; the worker
then runs under that venv's interpreter and times an ONNX export (torch.onnx.export, opset 17) of
the same module in the same rounds. Without the venv (offline, pip failed) the ORT columns say n/a.
"""
import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
MC = os.path.join(BUILD, "mc")
CC = os.environ.get("CC", "cc")
OUT = os.path.join(BUILD, "bench")
CFLAGS = ["-std=c11", "-O3", "-march=native"]
VENV = os.path.join(BUILD, "benchenv")
OPSET = 17  # the newest torch 1.13 exports

MODELS = [  # name, factory in cases_models, input shapes
    ("mlp", "MLP", [(1, 64)]),
    ("lenet5", "LeNet5", [(1, 1, 28, 28)]),
    ("resnet18", "resnet18", [(1, 3, 224, 224)]),
    ("mobilenet_v2", "mobilenet_v2", [(1, 3, 224, 224)]),
    ("gpt_block", "Block", [(2, 16, 64)]),
]
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def sh(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        sys.exit("bench: %s exited %d:\n%s" % (" ".join(cmd), r.returncode, r.stdout[-4000:]))
    return r.stdout


def make_module(factory):
    sys.path.insert(0, os.path.join(ROOT, "tests/e2e"))
    import cases_models
    import torch
    torch.manual_seed(0)
    mod = getattr(cases_models, factory)()
    mod.eval()
    return mod


def inputs_for(shapes):
    import torch
    g = torch.Generator().manual_seed(1)
    return [torch.randn(*s, generator=g) for s in shapes]


def ort_python():
    """The venv interpreter that imports both Debian's torch and onnxruntime, set up on first
    use; returns (path, None) or (None, why not)."""
    py = os.path.join(VENV, "bin", "python")
    # numpy must come from Debian's dist-packages: torch 1.13 was built against it
    check = ("import numpy, torch, onnxruntime; assert numpy.__file__.startswith('%s'), "
             "numpy.__file__; print(onnxruntime.__version__)" %
             os.path.dirname(os.path.dirname(__import__("numpy").__file__)))

    def works():
        if not os.path.exists(py):
            return False
        return subprocess.run([py, "-c", check], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0

    if works():
        return py, None
    print("bench: setting up %s (onnxruntime from PyPI, once)" % VENV)
    sys.stdout.flush()
    pins = os.path.join(OUT, "constraints.txt")
    with open(pins, "w") as f:
        f.write("numpy==%s\n" % __import__("numpy").__version__)
    for cmd in ([sys.executable, "-m", "venv", "--system-site-packages", VENV],
                [py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--timeout", "20",
                 "--retries", "1", "-c", pins, "onnxruntime"]):
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            tail = [l for l in r.stdout.strip().splitlines() if l.strip()][-1:] or [""]
            return None, "`%s` exited %d: %s" % (" ".join(cmd[:4]), r.returncode, tail[0])
    if not works():
        return None, "onnxruntime installed in %s but `%s` fails" % (VENV, check)
    return py, None


def prepare(name, factory, shapes, ort):
    """Exports, compiles, inspects and builds one model; returns its facts."""
    sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
    import mc_export
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    mod, ins = make_module(factory), inputs_for(shapes)
    mc_export.export(mod, tuple(x.clone() for x in ins), os.path.join(d, "model.json"))
    onnx = None
    if ort:
        import torch
        onnx = os.path.join(d, "model.onnx")
        try:
            torch.onnx.export(mod, tuple(x.clone() for x in ins), onnx, opset_version=OPSET,
                              input_names=["in%d" % i for i in range(len(ins))])
        except Exception as e:  # that model's ORT cells say n/a; the rest of the bench goes on
            onnx = None
            print("bench: %s: ONNX Runtime n/a: torch.onnx.export: %s" %
                  (name, (str(e).splitlines() or [type(e).__name__])[0]))
    files = []
    for i, x in enumerate(ins):
        p = os.path.join(d, "in_%d.bin" % i)
        x.contiguous().numpy().tofile(p)
        files.append(p)
    src = os.path.join(d, "model.c")
    t0 = time.perf_counter()
    sh([MC, "compile", os.path.join(d, "model.json"), "-o", src, "--name", "model"])
    compile_s = time.perf_counter() - t0
    info = sh([MC, "inspect", os.path.join(d, "model.json")])
    flops = int(re.search(r"^flops: (\d+)", info, re.M).group(1))
    m = re.search(r"^arena bytes: (\d+)(?: \(live-set lower bound (\d+)\))?", info, re.M)
    exe = os.path.join(d, "driver")
    sh([CC] + CFLAGS + ["-I" + d, "-Wa,-I" + d, "-I" + os.path.join(ROOT, "runtime"), src,
                        os.path.join(HERE, "driver.c"), os.path.join(BUILD, "libmcrt.a"), "-lm", "-lpthread", "-o", exe])
    return dict(name=name, factory=factory, shapes=shapes, dir=d, exe=exe, inputs=files,
                flops=flops, arena=int(m.group(1)), bound=int(m.group(2) or m.group(1)),
                compile_s=compile_s, onnx=onnx)


class Driver:
    def __init__(self, exe, inputs):
        self.p = subprocess.Popen([exe] + inputs, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        r = self.p.stdout.readline().split()
        if not r:
            sys.exit("bench: the driver died on '%s'" % line)
        return r[1:]

    def close(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.close()
        self.p.wait()


def ort_session(path, threads):
    """An ONNX Runtime session set up like the PyTorch side: `threads` intra-op threads, no
    inter-op parallelism, all graph optimisations."""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3  # errors only: its warnings would land in our stdout pipe
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def worker(args):
    """Runs in a child whose environment fixes the thread count; prints one JSON line. Under the
    bench venv's interpreter it also times ONNX Runtime (torch is imported first, so it is
    Debian's torch and numpy either way)."""
    import torch
    torch.set_num_threads(args.threads)
    have_ort = importlib.util.find_spec("onnxruntime") is not None
    facts = json.loads(open(args.worker).read())
    results = []
    for f in facts:
        mod, ins = make_module(f["factory"]), inputs_for(f["shapes"])
        sess = ort_session(f["onnx"], args.threads) if have_ort and f.get("onnx") else None
        feeds = {"in%d" % i: x.numpy() for i, x in enumerate(ins)}
        err_ort = None
        with torch.no_grad():
            frozen = torch.jit.freeze(torch.jit.trace(mod, tuple(ins), check_trace=False))
            ofi = torch.jit.optimize_for_inference(torch.jit.freeze(
                torch.jit.trace(mod, tuple(ins), check_trace=False)))
            want = frozen(*ins)
            want = (want[0] if isinstance(want, tuple) else want).flatten()[:8].tolist()
            drv = Driver(f["exe"], f["inputs"])
            drv.ask("run 3")
            got = [float(x) for x in drv.ask("out")]
            err = max(abs(a - b) / (1 + abs(b)) for a, b in zip(got, want))
            if sess:
                got = sess.run(None, feeds)[0].flatten()[:8].tolist()
                err_ort = max(abs(a - b) / (1 + abs(b)) for a, b in zip(got, want))
            for _ in range(3):
                frozen(*ins)
                ofi(*ins)
                if sess:
                    sess.run(None, feeds)
            t0 = time.perf_counter()
            frozen(*ins)
            est = time.perf_counter() - t0
            per_round = max(5, min(500, int(args.budget / 10 / max(est, 1e-6))))
            tm, tf, to, tr = [], [], [], []
            # Between blocks a pause lets the previous runtime's threads stop spinning (ORT's
            # pool and OpenMP spin-wait after each run; mc's pool too, briefly): otherwise on a
            # 2-core machine each side's 2-thread block runs against the other's spinners.
            settle = 0.05 if args.threads > 1 else 0.0
            for _ in range(10):
                tm += [float(x) for x in drv.ask("run %d" % per_round)]
                time.sleep(settle)
                for _ in range(per_round):
                    t0 = time.perf_counter()
                    frozen(*ins)
                    tf.append((time.perf_counter() - t0) * 1e6)
                for _ in range(per_round):
                    t0 = time.perf_counter()
                    ofi(*ins)
                    to.append((time.perf_counter() - t0) * 1e6)
                time.sleep(settle)
                for _ in range(per_round if sess else 0):
                    t0 = time.perf_counter()
                    sess.run(None, feeds)
                    tr.append((time.perf_counter() - t0) * 1e6)
                time.sleep(settle)
            rss = int(drv.ask("rss")[0])
            drv.close()
        results.append(dict(name=f["name"], mc_us=statistics.median(tm),
                            pt_us=statistics.median(tf), ofi_us=statistics.median(to),
                            ort_us=statistics.median(tr) if tr else None,
                            iters=len(tm), rss_kb=rss, err=err, err_ort=err_ort))
    print(json.dumps(results))


def cpu_model():
    out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"^Model name:\s*(.+)$", out, re.M)
    flags = re.search(r"^Flags:\s*(.+)$", out, re.M)
    isa = [f for f in ("avx2", "fma", "avx512f") if flags and f in flags.group(1).split()]
    return "%s, %d cores, %s" % (m.group(1).strip() if m else "unknown CPU", os.cpu_count(),
                                 "/".join(isa) or "no AVX")


def fmt_us(us):
    return "%.2f us" % us if us < 100 else ("%.1f us" % us if us < 1000 else "%.2f ms" % (us / 1e3))


def bench_env(threads):
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)  # the bench's own command only: see the env notes
    env.pop("OPENBLAS_L2_SIZE", None)
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[k] = str(threads)
    env["MC_BENCH_THREADS"] = str(threads)  # driver.c: mc_set_num_threads
    return env


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--models", default="")
    ap.add_argument("--quick", action="store_true", help="shorter timing, sgemm to 1024")
    ap.add_argument("--doc", default="")
    ap.add_argument("--worker", default="")
    ap.add_argument("--budget", type=float, default=3.0, help="seconds per model and side")
    args = ap.parse_args()
    if args.worker:
        args.threads = int(args.threads)
        return worker(args)
    if args.quick:
        args.budget = 1.0
    os.makedirs(OUT, exist_ok=True)
    want = [m for m in args.models.split(",") if m]
    py, why = ort_python()
    if why:
        print("bench: ONNX Runtime columns n/a: %s" % why)
        ort_note = "ONNX Runtime: n/a (%s)." % why
    else:
        ver = subprocess.run([py, "-c", "import onnxruntime; print(onnxruntime.__version__)"],
                             stdout=subprocess.PIPE, text=True).stdout.strip()
        ort_note = ("ONNX Runtime %s (CPU) on a torch.onnx.export (opset %d) of the same module: "
                    "intra_op_num_threads = the thread count, inter_op 1, sequential, graph "
                    "optimisations ALL." % (ver, OPSET))
    facts = [prepare(*m, ort=bool(py)) for m in MODELS if not want or m[0] in want]
    fpath = os.path.join(OUT, "facts.json")
    with open(fpath, "w") as f:
        json.dump(facts, f)
    lines = ["Machine: %s. mc: generated C built with `%s`, run with mc_set_num_threads(the "
             "thread count shown: GEMMs, depthwise convolutions, pools and large elementwise ops split across threads); PyTorch %s "
             "with the thread count shown. %s" %
             (cpu_model(), " ".join(["cc"] + CFLAGS), __import__("torch").__version__, ort_note), "",
             "| model | threads | mc | PyTorch frozen | mc/PyTorch | PyTorch optimize_for_inference "
             "| mc/ofi | ONNX Runtime | mc/ORT | mc GFLOP/s | mc peak RSS | arena (lower bound) "
             "| mc compile |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for t in [int(x) for x in args.threads.split(",")]:
        # the venv's interpreter when there is one: torch and onnxruntime in one worker
        out = sh([py or sys.executable, os.path.abspath(__file__), "--worker", fpath, "--threads",
                  str(t), "--budget", str(args.budget)], env=bench_env(t))
        res = json.loads(out.strip().splitlines()[-1])
        for f, r in zip(facts, res):
            if r["err"] > 1e-3:
                print("bench: warning: %s output differs from PyTorch (%g)" % (f["name"], r["err"]))
            if r["err_ort"] is not None and r["err_ort"] > 1e-3:
                print("bench: warning: %s ONNX Runtime output differs from PyTorch (%g)" %
                      (f["name"], r["err_ort"]))
            ort_us = r["ort_us"]
            lines.append("| %s | %d | %s | %s | %.2fx | %s | %.2fx | %s | %s | %.1f | %.1f MiB | %d (%d) | %.2f s |" % (
                f["name"], t, fmt_us(r["mc_us"]), fmt_us(r["pt_us"]), r["mc_us"] / r["pt_us"],
                fmt_us(r["ofi_us"]), r["mc_us"] / r["ofi_us"],
                fmt_us(ort_us) if ort_us else "n/a", "%.2fx" % (r["mc_us"] / ort_us) if ort_us else "n/a",
                f["flops"] / r["mc_us"] / 1e3, r["rss_kb"] / 1024.0, f["arena"], f["bound"],
                f["compile_s"]))
            print(lines[-1])
            sys.stdout.flush()
    exe = os.path.join(OUT, "sgemm")
    sh([CC] + CFLAGS + ["-D_GNU_SOURCE", "-I" + os.path.join(ROOT, "compiler"),
                        os.path.join(HERE, "sgemm.c"), "-lopenblas", "-lm", "-lpthread", "-o", exe])
    sizes = ["256", "512", "1024"] + ([] if args.quick else ["2048"])
    lines += ["", "| sgemm n (1 thread) | mc kl_sgemm GFLOP/s | mc kconv_sgemm GFLOP/s | "
              "OpenBLAS GFLOP/s | mc/OpenBLAS |", "|---|---|---|---|---|"]
    for l in sh([exe] + sizes, env=bench_env(1)).splitlines():
        p = l.split()
        if p and p[0] == "sgemm":
            lines.append("| %s | %s | %s | %s | %sx |" % tuple(p[1:6]))
            print(lines[-1])
    table = "\n".join(lines)
    print()
    print(table)
    if args.doc:
        text = open(args.doc).read() if os.path.exists(args.doc) else ""
        block = "%s\n%s\n%s" % (BEGIN, table, END)
        if BEGIN in text and END in text:
            text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
        else:
            text += "\n" + block + "\n"
        with open(args.doc, "w") as f:
            f.write(text)
        print("bench: wrote %s" % args.doc)


if __name__ == "__main__":
    sys.exit(main())
