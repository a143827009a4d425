"""verify_passes.py — `mc compile --verify-passes` (passes/pass_verify.c): the interpreter run
before the pipeline and after each pass agrees on the e2e models (every alias case of
tests/e2e/cases_alias.py, a few models), and a deliberately broken pass is caught and named.

The broken pass is `test-corrupt` (passes/pass.c: the first aten::add becomes aten::sub),
reachable only with MC_TEST_PASSES=1 in the environment.

Usage: verify_passes.py WORKDIR (MC: path to mc). Exits 1 on a failure."""
import os
import subprocess
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests/e2e"))
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
import mc_export  # noqa: E402
import run_e2e  # noqa: E402

MC = os.path.abspath(os.environ.get("MC", os.path.join(ROOT, "build/mc")))

# e2e cases besides the alias ones
MODELS = ["mlp", "conv", "linear", "json_", "ctl_", "seed000", "seed002"]
# Differences the check finds today that are not pass bugs the compiled code shows (the e2e
# cases pass): the pass it names. Remove a line when the check passes.
KNOWN = {
    # after functionalize, a prim::If output is a value of its own for the emitter (plan.c),
    # but the interpreter runs it as an alias of the branch's tensor: the in-place add_ left on
    # it (removed by dce) writes the input a second time there
    "alias_if_then_write_script": "functionalize",
    "alias_if_then_write_return_script": "functionalize",
    # before infer the interpreter promotes with a traced graph's 0-dim float64 constants
    # (wrapped numbers) as with tensors: float64 where PyTorch and infer say float32
    "types_promote_trace": "infer",
    "types_promote_trace_json": "infer",
    "types_buffers_trace_json": "infer",
}


def mc(*args, env=None):
    return subprocess.run([MC] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=env)


def main(argv):
    work = os.path.abspath(argv[1] if len(argv) > 1 else "/tmp/mc-verify-passes")
    os.makedirs(work, exist_ok=True)
    torch.set_num_threads(1)
    t0 = time.time()
    fails, nok = [], 0
    for case in run_e2e.load_cases():
        name = case["name"]
        if not (name.startswith("alias_") or any(name.startswith(m) for m in MODELS) or name in KNOWN):
            continue
        if case.get("heavy"):
            continue
        d = os.path.join(work, name)
        os.makedirs(d, exist_ok=True)
        _, _, path = run_e2e.export_case(case, d)
        r = mc("compile", path, "-o", os.path.join(d, "model.c"), "--verify-passes")
        if name in KNOWN:
            want = "error: pass '%s' changed" % KNOWN[name]
            if r.returncode == 0:
                fails.append("%s: --verify-passes passes now: remove it from KNOWN" % name)
            elif want not in r.stdout:
                fails.append("%s: expected '%s...', got:\n%s" % (name, want, r.stdout))
            continue
        if r.returncode != 0:
            fails.append("%s: mc compile --verify-passes failed:\n%s" % (name, r.stdout))
        else:
            nok += 1

    d = os.path.join(work, "broken")
    os.makedirs(d, exist_ok=True)

    class AddOut(torch.nn.Module):
        def forward(self, x, y):
            return (x + y).relu()

    class AddInput(torch.nn.Module):  # the output does not change, input 0's final value does
        def forward(self, x, y):
            x.add_(y)
            return y * 2.0

    env = dict(os.environ, MC_TEST_PASSES="1")
    pipeline = "prep,infer,test-corrupt,functionalize,fold_bn,fuse,dce"
    for mod, method, want in [(AddOut, "trace", "error: pass 'test-corrupt' changed output 0 (max abs diff "),
                              (AddInput, "script", "error: pass 'test-corrupt' changed the final value of input 0 "
                                                   "(max abs diff ")]:
        path = os.path.join(d, mod.__name__ + ".json")
        mc_export.export(mod(), (torch.randn(2, 3), torch.randn(2, 3)), path, method=method)
        r = mc("compile", path, "-o", os.path.join(d, "model.c"), "--verify-passes", "--passes", pipeline, env=env)
        if r.returncode != 1 or want not in r.stdout:
            fails.append("%s: the broken pass is not caught: exit %d\n%s" % (mod.__name__, r.returncode, r.stdout))
        # without --verify-passes the broken pass compiles
        r = mc("compile", path, "-o", os.path.join(d, "model.c"), "--passes", pipeline, env=env)
        if r.returncode != 0:
            fails.append("%s: --passes with test-corrupt failed without --verify-passes:\n%s" % (mod.__name__, r.stdout))
        # the broken pass is no pass without MC_TEST_PASSES=1
        r = mc("compile", path, "-o", os.path.join(d, "model.c"), "--passes", pipeline)
        if r.returncode != 2 or "unknown pass 'test-corrupt'" not in r.stdout:
            fails.append("test-corrupt is reachable without MC_TEST_PASSES=1: exit %d\n%s" % (r.returncode, r.stdout))
    if "test-corrupt" in mc("compile", "--help", env=env).stdout:
        fails.append("mc compile --help lists test-corrupt")

    # fold_bn and fuse find convolutions by their rows' descriptors (ops.h OpConv): a scripted
    # conv with padding='same' (conv2d's str overload) gets its batch_norm folded and its relu
    # fused, and the passes still agree with the interpreter
    class ConvSameBn(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.c = torch.nn.Conv2d(3, 4, 3, padding="same")
            self.bn = torch.nn.BatchNorm2d(4)

        def forward(self, x):
            return torch.relu(self.bn(self.c(x)))

    m = ConvSameBn().eval()
    with torch.no_grad():
        m.bn.running_mean.uniform_(-1, 1)
        m.bn.running_var.uniform_(0.5, 2)
    path = os.path.join(d, "ConvSameBn.json")
    mc_export.export(m, (torch.randn(1, 3, 6, 6),), path, method="script")
    r = mc("dump", path, "--after", "dce")
    if "batch_norm" in r.stdout or "mc::conv_act" not in r.stdout:
        fails.append("ConvSameBn: batch_norm not folded or relu not fused:\n" + r.stdout)
    r = mc("compile", path, "-o", os.path.join(d, "model.c"), "--verify-passes")
    if r.returncode != 0:
        fails.append("ConvSameBn: --verify-passes failed:\n" + r.stdout)

    # mc run --verify-passes: checks, then runs as without it
    path = os.path.join(d, "AddOut.json")
    x, y = np.ones((2, 3), np.float32), np.full((2, 3), -2.0, np.float32)
    np.save(os.path.join(d, "x.npy"), x)
    np.save(os.path.join(d, "y.npy"), y)
    r = mc("run", path, os.path.join(d, "x.npy"), os.path.join(d, "y.npy"), "-o", os.path.join(d, "out"),
           "--verify-passes", "-q")
    if r.returncode != 0 or not np.array_equal(np.load(os.path.join(d, "out", "output_0.npy")), np.zeros((2, 3))):
        fails.append("mc run --verify-passes: exit %d\n%s" % (r.returncode, r.stdout))
    r = mc("run", path, os.path.join(d, "x.npy"), os.path.join(d, "y.npy"), "-o", os.path.join(d, "out"),
           "--verify-passes", "-q", "--passes", pipeline, env=env)
    if r.returncode != 1 or "error: pass 'test-corrupt' changed output 0" not in r.stdout:
        fails.append("mc run --verify-passes: the broken pass is not caught: exit %d\n%s" % (r.returncode, r.stdout))

    for f in fails:
        print("FAIL tests/ops/verify_passes: " + f)
    print("tests/ops: --verify-passes agrees on %d models, %d known differences, catches the broken pass (%.1f s)"
          % (nok, len(KNOWN), time.time() - t0))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
