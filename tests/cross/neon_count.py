"""Guest instruction counts of one inference on aarch64, NEON kernels against the portable path.

For resnet18 and mobilenet_v2 (tests/e2e/cases_models.py, batch 1, 3x224x224): export, compile
with mc, build bench/driver.c with aarch64-linux-gnu-gcc (-std=c11 -O2 -static -DMC_NO_THREADS)
twice, as is (NEON) and with -DMC_NO_SIMD (portable), and run each under qemu-aarch64 with
tools/qemu_insn.c, the counting plugin: once with no run (start-up, model creation, input) and
once with one run; the difference is one inference. The first outputs are checked against
PyTorch. Prints a table (also written to BUILD/neon-count/neon-count.md). Not part of make
check (minutes under qemu): `make neon-count`.

Usage: /usr/bin/python3 tests/cross/neon_count.py [--armhf] [MODEL ...]   (environment: MC, BUILD)
--armhf counts Armv7 instead (arm-linux-gnueabihf-gcc -mfpu=neon, qemu-arm).
"""
import os
import subprocess
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests/e2e"))
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
import cases_models  # noqa: E402
import mc_export  # noqa: E402

BUILD = os.environ.get("BUILD", "build")
MC = os.environ.get("MC", os.path.join(BUILD, "mc"))
OUT = os.path.join(BUILD, "neon-count")
DIST = os.path.join(BUILD, "runtime-dist")
FLAGS = ["-std=c11", "-O2", "-static", "-DMC_NO_THREADS"]
ARCHS = {"aarch64": (["aarch64-linux-gnu-gcc"], "qemu-aarch64"),
         "armhf": (["arm-linux-gnueabihf-gcc", "-mfpu=neon"], "qemu-arm")}
ARCH = "aarch64"
MODELS = [("resnet18", "resnet18"), ("mobilenet_v2", "mobilenet_v2")]
VARIANTS = [("portable", ["-DMC_NO_SIMD"]), ("NEON", [])]


def sh(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        sys.exit("neon-count: %s exited %d:\n%s" % (" ".join(cmd), r.returncode, r.stdout[-4000:]))
    return r.stdout


def count(plugin, prog, inputs, commands, d, tag):
    """Instructions qemu-aarch64 executes for prog given these driver commands; its stdout."""
    cnt = os.path.join(d, "count_%s.txt" % tag)
    if os.path.exists(cnt):
        os.unlink(cnt)
    out = sh([ARCHS[ARCH][1], "-plugin", "%s,out=%s" % (plugin, cnt), prog] + inputs, input=commands)
    n = int(open(cnt).read().split()[1])
    return n, out


def main():
    global ARCH, OUT
    args = sys.argv[1:]
    if "--armhf" in args:
        args.remove("--armhf")
        ARCH = "armhf"
        OUT = os.path.join(BUILD, "neon-count-armhf")
    torch.set_num_threads(1)
    os.makedirs(OUT, exist_ok=True)
    plugin = os.path.join(OUT, "qemu_insn.so")
    sh(["cc", "-shared", "-fPIC", "-O2", "-std=c11", "-Wall", "-Wextra", "-Werror",
        os.path.join(ROOT, "tools/qemu_insn.c"), "-o", plugin])
    names = args or [m for m, _ in MODELS]
    rows = []
    for name, factory in MODELS:
        if name not in names:
            continue
        d = os.path.join(OUT, name)
        os.makedirs(d, exist_ok=True)
        torch.manual_seed(0)
        mod = getattr(cases_models, factory)().eval()
        x = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(1))
        mc_export.export(mod, (x.clone(),), os.path.join(d, "model.json"))
        with torch.no_grad():
            want = mod(x.clone()).flatten()[:8].tolist()
        src = os.path.join(d, "model.c")
        sh([MC, "compile", os.path.join(d, "model.json"), "-o", src, "--name", "model"])
        inp = os.path.join(d, "in_0.bin")
        x.contiguous().numpy().tofile(inp)
        rt = sorted(os.path.join(DIST, f) for f in os.listdir(DIST) if f.endswith(".c"))
        counts = {}
        for label, flags in VARIANTS:
            prog = os.path.join(d, "driver_%s" % label.lower())
            sh(ARCHS[ARCH][0] + FLAGS + flags + ["-I" + d, "-Wa,-I" + d, "-I" + DIST, src,
                             os.path.join(ROOT, "bench/driver.c")] + rt + ["-lm", "-o", prog])
            base, _ = count(plugin, prog, [inp], "quit\n", d, label + "_base")
            full, out = count(plugin, prog, [inp], "run 1\nout\nquit\n", d, label + "_run")
            got = [float(v) for l in out.splitlines() if l.startswith("out ") for v in l.split()[1:]]
            if len(got) != len(want) or any(abs(g - w) > 1e-3 + 1e-3 * abs(w) for g, w in zip(got, want)):
                sys.exit("neon-count: %s %s: output %s, PyTorch %s" % (name, label, got, want))
            counts[label] = full - base
            print("neon-count: %s %s %s: %d instructions (start-up %d), output matches PyTorch" %
                  (ARCH, name, label, full - base, base))
            sys.stdout.flush()
        rows.append((name, counts["portable"], counts["NEON"]))
    lines = ["| model (%s) | portable | NEON | portable / NEON |" % ARCH, "| --- | ---: | ---: | ---: |"]
    for name, p, n in rows:
        lines.append("| %s | %.3f G | %.3f G | %.2fx |" % (name, p / 1e9, n / 1e9, p / n))
    table = "\n".join(lines)
    open(os.path.join(OUT, "neon-count.md"), "w").write(table + "\n")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
