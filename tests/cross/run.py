"""Cross-target end-to-end tests: a set of models (in-place input updates, int64 inputs, weights
of 64 KiB and more that go through OUT.weights, convolutions with prepacked weights) compiled
once by mc, then built for every target whose compiler is installed -- x86-64, i386 (-m32),
aarch64 (NEON kernels), armhf (without and with -mfpu=neon) and s390x (big-endian) -- strictly by the runtime-dist command line of
spec section 5 (`$CC -std=c99 -O1 -Ibuild/runtime-dist model.c build/runtime-dist/*.c main.c
-lm`), run (natively or under qemu-user) with tests/e2e/harness.c in its three input-binding
modes, and compared with what PyTorch computed: outputs, final values of mutated inputs, dtypes.

Usage: /usr/bin/python3 tests/cross/run.py [TARGET ...]   (environment: MC, BUILD)
A target whose compiler or qemu is missing is reported as skipped; MC_CROSS_REQUIRE=1 (CI)
turns a skip into a failure.
"""
import os
import shutil
import subprocess
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests/e2e"))
import run_e2e as E  # noqa: E402  (export_case, flatten, to_numpy, close, DT)

MC = E.MC
BUILD = E.BUILD
OUT = os.path.join(BUILD, "cross")
DIST = os.path.join(BUILD, "runtime-dist")

# name: (C compiler and flags, how to run the program or None for natively)
TARGETS = {
    "x86_64": (["cc"], None),
    "i386": (["cc", "-m32"], None),
    "aarch64": (["aarch64-linux-gnu-gcc", "-static"], ["qemu-aarch64"]),
    "armhf": (["arm-linux-gnueabihf-gcc", "-static"], ["qemu-arm"]),
    # Armv7 with NEON: the kernels' NEON paths (aarch64 takes them by default)
    "armhf_neon": (["arm-linux-gnueabihf-gcc", "-static", "-mfpu=neon"], ["qemu-arm"]),
    "s390x": (["s390x-linux-gnu-gcc", "-static"], ["qemu-s390x"]),
}


class Embed(nn.Module):
    """int64 input, a 300x64 float table (76.8 KB: goes to OUT.weights), a linear layer."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(300, 64)
        self.fc = nn.Linear(64, 8)

    def forward(self, ids):
        return self.fc(self.emb(ids)).relu(), ids * 3 + 1


class SgdStep(nn.Module):
    """An optimizer step: the weight (an input) is updated in place, and returned."""

    def forward(self, w, g, m):
        m.mul_(0.9).add_(g)
        w.sub_(0.01 * m)
        return w.sum(), m[1:3]


class BigLinear(nn.Module):
    """256x256 weights (256 KiB plain + packed) and int64/float64 constants over 64 KiB."""

    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(256, 256)
        self.l2 = nn.Linear(256, 4)
        self.register_buffer("k64", torch.arange(9000, dtype=torch.int64) % 7)
        self.register_buffer("d64", torch.linspace(-1, 1, 9000, dtype=torch.float64))

    def forward(self, x, i):
        y = self.l2(torch.relu(self.l1(x)))
        z = (self.k64[i] * self.d64[i]).sum()
        return y, z


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 64, 3, stride=2)
        self.bn = nn.BatchNorm2d(64)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = torch.relu(self.c1(x))
        x = torch.relu(self.bn(self.c2(x)))
        return self.fc(x.mean((2, 3))).softmax(-1)


class DwNet(nn.Module):
    """Depthwise 3x3 / 5x5 (stride 1 and 2) with fused relu6 and hardswish, then silu and
    sigmoid: the depthwise and activation kernels' vector paths (NEON on aarch64 / armhf_neon)."""

    def __init__(self):
        super().__init__()
        self.pw = nn.Conv2d(3, 16, 1)
        self.d3 = nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.d5 = nn.Conv2d(16, 16, 5, stride=2, padding=2, groups=16)

    def forward(self, x):
        x = nn.functional.relu6(self.d3(self.pw(x)))
        x = nn.functional.hardswish(self.d5(x))
        return nn.functional.silu(x).sigmoid()


class SliceAssign(nn.Module):
    """seeds/002 with a second input: writes through views of two inputs."""

    def forward(self, x, y):
        x[:5, :5] = x[:5, :5] + 1
        y[1] = x[0, :6] * 2
        return x, y.t()


CASES = [
    dict(name="x_embed", module=Embed, inputs=lambda: [torch.randint(0, 300, (3, 5))], format="json"),
    dict(name="x_sgd_step", module=SgdStep, inputs=lambda: [torch.randn(4, 8), torch.randn(4, 8), torch.randn(4, 8)],
         method="script", format="json"),
    dict(name="x_big_linear", module=BigLinear, inputs=lambda: [torch.randn(2, 256), torch.tensor([3, 8000, 17])],
         format="json", rtol=1e-4, atol=1e-5),
    dict(name="x_convnet", module=ConvNet, inputs=lambda: [torch.randn(2, 3, 12, 12)], format="json",
         rtol=1e-4, atol=1e-5),
    dict(name="x_dwnet", module=DwNet, inputs=lambda: [torch.randn(1, 3, 15, 19)], format="json",
         rtol=1e-4, atol=1e-5),
    dict(name="x_slice_assign", module=SliceAssign, inputs=lambda: [torch.randn(6, 6), torch.randn(3, 6)]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def available(target):
    cc, runner = TARGETS[target]
    if not shutil.which(cc[0]) or (runner and not shutil.which(runner[0])):
        return False
    if target == "i386":  # -m32 needs the multilib C library
        probe = os.path.join(OUT, "probe32")
        r = run(cc + ["-x", "c", "-", "-o", probe], input="#include <stdio.h>\nint main(void){return 0;}\n")
        return r.returncode == 0 and run([probe]).returncode == 0
    return True


def runtime_sources():
    """The runtime as a foreign build sees it: build/runtime-dist (spec 5)."""
    srcs = sorted(os.path.join(DIST, f) for f in os.listdir(DIST) if f.endswith(".c"))
    return ["-I" + DIST], srcs


def prepare(case):
    d = os.path.join(OUT, case["name"])
    os.makedirs(d, exist_ok=True)
    mod, inputs, path = E.export_case(case, d)
    ins = [x.clone() for x in inputs]
    with torch.no_grad():
        want = [E.to_numpy(w) for w in E.flatten(mod(*ins))]
    want_inputs = [x.numpy() for x in ins]
    src = os.path.join(d, "model.c")
    r = run([MC, "compile", path, "-o", src, "--name", "model"])
    if r.returncode != 0:
        raise RuntimeError("mc compile exited %d:\n%s" % (r.returncode, r.stdout))
    files = []
    for i, x in enumerate(inputs):
        p = os.path.join(d, "in_%d.bin" % i)
        x.contiguous().numpy().tofile(p)  # little-endian: the harness swaps on big-endian
        files.append(p)
    return d, src, files, want, want_inputs


def check(case, target, std, prep):
    d, src, files, want, want_inputs = prep
    cc, runner = TARGETS[target]
    incs, rt = runtime_sources()
    exe = os.path.join(d, "harness_%s_%s" % (target, std))
    cmd = cc + ["-std=" + std, "-Wall", "-Wextra", "-Werror", "-O1", "-I" + d, "-Wa,-I" + d] + incs + \
        [src, os.path.join(ROOT, "tests/e2e/harness.c")] + rt + ["-lm", "-lpthread", "-o", exe]
    r = run(cmd)
    if r.returncode != 0:
        return ["build: %s\n%s" % (" ".join(cmd), r.stdout[-3000:])]
    errors = []
    for mode in ("copy", "zerocopy", "dlpack"):
        od = os.path.join(d, "%s_%s_%s" % (target, std, mode))
        os.makedirs(od, exist_ok=True)
        r = run((runner or []) + [exe, mode, od] + files)
        if r.returncode != 0:
            errors.append("%s: harness exited %d: %s" % (mode, r.returncode, r.stdout[-2000:]))
            continue
        errors.extend(E.compare_outputs(od, want, want_inputs, case, mode))
    return errors


BIG = """graph(%x : Float(1200000000, strides=[1], requires_grad=0, device=cpu)):
  %y : Float(1200000000, strides=[1], requires_grad=0, device=cpu) = aten::relu(%x)
  return (%y)
"""


def check_too_big():
    """A 4.8 GB arena and input: builds for a 64-bit target, stops with an #error naming the
    reason on a 32-bit one (never a wrapped size and a crash at run time)."""
    d = os.path.join(OUT, "x_too_big")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "model.txt")
    open(path, "w").write(BIG)
    src = os.path.join(d, "model.c")
    r = run([MC, "compile", path, "-o", src, "--name", "model"])
    if r.returncode != 0:
        return ["mc compile exited %d: %s" % (r.returncode, r.stdout)]
    errs = []
    incs, _ = runtime_sources()
    r = run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", src, "-o", os.path.join(d, "m64.o")] + incs)
    if r.returncode != 0:
        errs.append("x86-64 build failed: %s" % r.stdout[-2000:])
    if available("i386"):
        r = run(["cc", "-m32", "-std=c99", "-c", src, "-o", os.path.join(d, "m32.o")] + incs)
        if r.returncode == 0 or "more than this target's size_t holds" not in r.stdout:
            errs.append("i386 build: want the size #error, got exit %d: %s" % (r.returncode, r.stdout[-2000:]))
    return errs


def main():
    torch.set_num_threads(1)
    os.makedirs(OUT, exist_ok=True)
    if not os.path.isdir(DIST):
        print("cross: %s is missing (make builds it)" % DIST)
        return 1
    targets = sys.argv[1:] or list(TARGETS)
    require = os.environ.get("MC_CROSS_REQUIRE") == "1"
    passed = failed = 0
    live = []
    for t in targets:
        if available(t):
            live.append(t)
        else:
            print("%s cross %s: compiler or qemu not installed" % ("FAIL" if require else "skip", t))
            failed += require
    for case in CASES:
        try:
            prep = prepare(case)
        except Exception as ex:  # noqa: BLE001
            print("FAIL %s: %s" % (case["name"], ex))
            failed += 1
            continue
        for t in live:
            for std in ("c99", "c11") if t == "x86_64" else ("c99",):
                errs = check(case, t, std, prep)
                label = "%s %s %s" % (case["name"], t, std)
                if errs:
                    failed += 1
                    print("FAIL %s" % label)
                    for e in errs:
                        print("    " + e.replace("\n", "\n    "))
                else:
                    passed += 1
                    print("ok   %s" % label)
                sys.stdout.flush()
    errs = check_too_big()
    if errs:
        failed += 1
        print("FAIL x_too_big")
        for e in errs:
            print("    " + e.replace("\n", "\n    "))
    else:
        passed += 1
        print("ok   x_too_big (4.8 GB arena: #error on i386)")
    print("cross: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
