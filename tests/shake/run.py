"""The tree-shaken kernel library (compiler/emit/kernel_lib.c): a model of linear + relu gets a
model.c well below the whole library's size (the ratio measured against MC_ALL_KERNELS=1 output
of the same model), and that model.c compiles with gcc and clang, C99 and C11, -Wall -Wextra
-Werror (unused kernels must not warn), with -DMC_NO_MALLOC -DMC_NO_THREADS, and with tcc.

Run with /usr/bin/python3; environment: MC (path to mc), BUILD (build directory)."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MC = os.path.abspath(os.environ.get("MC", os.path.join(ROOT, "build/mc")))
BUILD = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
OUT = os.path.join(BUILD, "shake")
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))

# Most of the library is convolution, pooling, indexing, losses, sampling, RNNs...: a linear +
# relu model needs a small part of it. Today's figure is about 0.06 (0.2 before C keywords
# stopped counting as definitions and one-row linears called kl_linear_gemv); 0.15 leaves room
# for growth of the GEMV and activation paths while still catching a shaker that keeps by doubt.
MAX_RATIO = 0.15


def lines(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def main():
    import torch
    import mc_export

    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    mod = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).eval()
    js = os.path.join(OUT, "mlp.json")
    mc_export.export(mod, (torch.randn(2, 16),), js)
    shaken, whole = os.path.join(OUT, "mlp.c"), os.path.join(OUT, "mlp_all.c")
    env = dict(os.environ)
    env.pop("MC_ALL_KERNELS", None)
    subprocess.run([MC, "compile", js, "-o", shaken], check=True, env=env)
    env["MC_ALL_KERNELS"] = "1"
    subprocess.run([MC, "compile", js, "-o", whole], check=True, env=env)
    a, b = lines(shaken), lines(whole)
    ratio = a / b
    print(f"shake: linear+relu model.c {a} lines, whole library {b} lines, ratio {ratio:.3f}")
    fails = 0
    if ratio >= MAX_RATIO:
        print(f"FAIL: ratio {ratio:.3f} >= {MAX_RATIO}")
        fails += 1
    inc = ["-I" + os.path.join(ROOT, "runtime"), "-I" + OUT]
    # objects go to a file of our own, never to /dev/null: tcc unlinks its output before
    # writing it, which run as root replaces /dev/null with a regular file
    obj = os.path.join(OUT, "model.o")
    for cc in ("gcc", "clang"):
        if not shutil.which(cc):
            print(f"skip {cc}: not installed")
            continue
        for flags in (["-std=c99"], ["-std=c11"], ["-std=c99", "-DMC_NO_MALLOC", "-DMC_NO_THREADS"]):
            for src in (shaken, whole):
                cmd = [cc, *flags, "-O0", "-Wall", "-Wextra", "-Werror", *inc, "-c", src, "-o", obj]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode:
                    print("FAIL:", " ".join(cmd))
                    print(r.stderr[-3000:])
                    fails += 1
    if shutil.which("tcc"):  # mc run compiles with libtcc
        for flags in ([], ["-DMC_NO_MALLOC", "-DMC_NO_THREADS"]):
            cmd = ["tcc", *flags, *inc, "-c", shaken, "-o", obj]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                print("FAIL:", " ".join(cmd))
                print(r.stderr[-3000:])
                fails += 1
    print("shake: ok" if not fails else f"shake: {fails} failure(s)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
