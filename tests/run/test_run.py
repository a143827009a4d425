"""Tests of `mc run`, `mc inspect` and `mc dump --format dot|json` against PyTorch itself.

Each case traces a module with torch.jit.trace (text dump of `inlined_graph`) or exports it with
mc_export (graph JSON + weights), saves its inputs as .npy, runs `mc run` (libtcc) and
`mc run --interp`, and compares DIR/output_K.npy with PyTorch's outputs and DIR/input_K.npy with
the final value of every input PyTorch mutated in place (and checks no input_K.npy appears for an
input the model does not mutate). Then: bad .npy inputs (wrong dtype, wrong shape, truncated,
Fortran order, wrong count) exit 1, name the file, and leave DIR untouched; `mc inspect`'s arena
bytes equal the arena the generated code asks for (the mc_model_def in `mc compile`'s output
and what the JIT'd model reports with -v) and its FLOPs follow the rule written beside the
case; `mc dump --format dot` renders with `dot -Tsvg`, `--format json` parses.

Run with /usr/bin/python3; environment MC (path to mc, default build/mc). Prints one line per
check and 'N passed, N failed'; exits 1 on any failure.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MC = os.path.abspath(os.environ.get("MC", os.path.join(ROOT, "build/mc")))
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))

passed, failed = 0, 0


def report(name, err):
    global passed, failed
    if err:
        failed += 1
        print("FAIL %s: %s" % (name, err))
    else:
        passed += 1
        print("ok   %s" % name)


def mc(*args):
    return subprocess.run([MC] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class MlpNoWeights(nn.Module):
    """An MLP whose weights are inputs: relu(x @ w1 + b1) @ w2."""

    def forward(self, x, w1, b1, w2):
        return torch.relu(x @ w1 + b1) @ w2


class Seed002(nn.Module):
    """seeds/002: an in-place write through a slice chain; mutates its input."""

    def forward(self, x):
        x[:5, :5] = x[:5, :5] + 1
        return x


class TwoOutputs(nn.Module):
    """Views, a matmul and two outputs, one of them a strided view of the input."""

    def forward(self, a, b):
        return a.t() @ b, a[:, 1:3]


class AddIntoSecond(nn.Module):
    """An in-place update of the second input only (an optimizer-like step)."""

    def forward(self, p, g):
        p.add_(g * 0.5)
        return p.sum(0)


class ScalarOutput(nn.Module):
    """A scalar (int) output: a 0-dim int64 output_1.npy, and an arena slot for it."""

    def forward(self, x):
        return x * 2.0, x.dim()


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 12)
        self.fc2 = nn.Linear(12, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def cases():
    g = torch.Generator().manual_seed(0)
    r = lambda *s: torch.randn(*s, generator=g)
    return [
        ("mlp_noweights", MlpNoWeights(), [r(4, 8), r(8, 16), r(16), r(16, 3)], "text"),
        ("seed002", Seed002(), [r(10, 10)], "text"),
        ("two_outputs", TwoOutputs(), [r(3, 4), r(3, 5)], "text"),
        ("add_into_second", AddIntoSecond(), [r(2, 3), r(2, 3)], "text"),
        ("mlp_json", Mlp(), [r(5, 6)], "json"),
        ("scalar_output", ScalarOutput(), [r(10, 10)], "script"),
    ]


def export(name, mod, inputs, how, d):
    if how == "text":
        path = os.path.join(d, name + ".txt")
        with torch.no_grad():
            traced = torch.jit.trace(mod, tuple(x.clone() for x in inputs), check_trace=False)
        with open(path, "w") as f:
            f.write(str(traced.inlined_graph))
    else:
        import mc_export
        path = os.path.join(d, name + ".json")
        mc_export.export(mod, tuple(x.clone() for x in inputs), path, method="trace" if how == "json" else how)
    return path


def flatten(x):
    if isinstance(x, (tuple, list)):
        return [y for e in x for y in flatten(e)]
    return [x]


def compare(got_path, want):
    if not os.path.exists(got_path):
        return "%s missing" % os.path.basename(got_path)
    got = np.load(got_path)
    if isinstance(want, torch.Tensor):
        want = want.detach().contiguous().numpy()
    else:  # a scalar output: a 0-dim tensor (bool as uint8, int as int64, float as float64)
        want = np.array(want, dtype=np.uint8 if isinstance(want, bool) else np.int64 if isinstance(want, int)
                        else np.float64)
    if got.shape != want.shape or got.dtype != want.dtype:
        return "%s: %s %s, PyTorch %s %s" % (os.path.basename(got_path), got.dtype, got.shape, want.dtype, want.shape)
    if not np.allclose(got, want, rtol=1e-4, atol=1e-5):
        return "%s: max abs err %g" % (os.path.basename(got_path), np.abs(got - want).max())
    return None


def check_run(name, mod, inputs, how, d):
    model = export(name, mod, inputs, how, d)
    files = []
    for i, x in enumerate(inputs):
        p = os.path.join(d, "%s_in%d.npy" % (name, i))
        np.save(p, x.numpy())
        files.append(p)
    after = [x.clone() for x in inputs]
    with torch.no_grad():
        want = flatten(mod(*after))
    mutated = [not torch.equal(a, b) for a, b in zip(inputs, after)]
    for mode in ["jit", "interp"]:
        out = os.path.join(d, name + "_" + mode)
        p = mc("run", model, *files, "-o", out, *(["--interp"] if mode == "interp" else []))
        err = None
        if p.returncode != 0:
            err = "exit %d: %s" % (p.returncode, p.stderr.strip()[-800:])
        for k, w in enumerate(want):
            err = err or compare(os.path.join(out, "output_%d.npy" % k), w)
        for i, m in enumerate(mutated):
            q = os.path.join(out, "input_%d.npy" % i)
            if m:
                err = err or compare(q, after[i])
            elif os.path.exists(q) and not err:
                err = "input_%d.npy written for an input PyTorch does not mutate" % i
        if not err:
            extra = sorted(set(os.listdir(out)) - {"output_%d.npy" % k for k in range(len(want))}
                           - {"input_%d.npy" % i for i, m in enumerate(mutated) if m})
            if extra:
                err = "unexpected files %s" % extra
        report("run %s (%s)" % (name, mode), err)
    return model, files


def check_bad_inputs(model, files, d):
    """The seed model takes one float32 (10, 10) input."""
    bad = os.path.join(d, "bad")
    os.makedirs(bad, exist_ok=True)
    good = np.load(files[0])
    variants = {
        "wrong_dtype": (lambda p: np.save(p, good.astype(np.float64)), "expects float32 of shape (10, 10)"),
        "wrong_shape": (lambda p: np.save(p, good[:3]), "the file holds float32 of shape (3, 10)"),
        "fortran": (lambda p: np.save(p, np.asfortranarray(good)), "Fortran"),
        "truncated": (lambda p: open(p, "wb").write(open(files[0], "rb").read()[:-7]), "truncated"),
        "not_npy": (lambda p: open(p, "w").write("hello"), "not a .npy file"),
    }
    for name, (make, expect) in variants.items():
        p = os.path.join(bad, name + ".npy")
        make(p)
        out = os.path.join(d, "out_" + name)
        r = mc("run", model, p, "-o", out)
        err = None
        if r.returncode != 1:
            err = "exit %d, expected 1" % r.returncode
        elif not r.stderr.startswith(p + ": error:") or expect not in r.stderr:
            err = "message %r lacks '%s: error: ...%s'" % (r.stderr, p, expect)
        elif os.path.exists(out):
            err = "output folder created"
        report("bad input %s" % name, err)
    # an existing output folder is left exactly as it was
    out = os.path.join(d, "out_existing")
    os.makedirs(out)
    open(os.path.join(out, "keep"), "w").close()
    r = mc("run", model, files[0], files[0], "-o", out)
    err = None
    if r.returncode != 1 or "takes 1 input" not in r.stderr:
        err = "exit %d: %r" % (r.returncode, r.stderr)
    elif os.listdir(out) != ["keep"]:
        err = "folder now holds %s" % os.listdir(out)
    report("bad input count", err)


def check_inspect(model, files, d, flops=None):
    name = os.path.basename(model)
    r = mc("inspect", model)
    m = re.search(r"^arena bytes: (\d+)", r.stdout, re.M)
    if r.returncode != 0 or not m:
        report("inspect %s" % name, "exit %d: %s%s" % (r.returncode, r.stdout, r.stderr))
        return
    arena = int(m.group(1))
    c = os.path.join(d, "gen_" + name + ".c")
    p = mc("compile", model, "-o", c, "--name", "m")
    src = open(c).read() if p.returncode == 0 else ""
    g = re.search(r"const mc_model_def m_def = \{\s*\"m\", \d+, \d+, m_inputs_, m_outputs_, (\d+), m_run", src)
    j = mc("run", model, *files, "-o", os.path.join(d, "v_" + name), "-v")
    jm = re.search(r"arena (\d+) bytes", j.stderr)
    err = None
    if not g or not jm:
        err = "could not find the generated arena (compile exit %d, run -v: %r)" % (p.returncode, j.stderr)
    elif int(g.group(1)) != arena or int(jm.group(1)) != arena:
        err = "inspect says %d, generated def %s, JIT'd def %s" % (arena, g.group(1), jm.group(1))
    if not err and flops is not None:
        fm = re.search(r"^flops: (\d+)", r.stdout, re.M)
        if not fm or int(fm.group(1)) != flops:
            err = "flops %s, expected %d" % (fm and fm.group(1), flops)
    report("inspect %s (arena %d)" % (name, arena), err)


def check_dump(model, d):
    name = os.path.basename(model)
    for after in [None, "functionalize", "dce"]:
        extra = ["--after", after] if after else []
        p = mc("dump", model, "--format", "dot", *extra)
        err = None
        if p.returncode != 0:
            err = "mc dump exit %d: %s" % (p.returncode, p.stderr)
        else:
            s = subprocess.run(["dot", "-Tsvg"], input=p.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            if s.returncode != 0 or "<svg" not in s.stdout:
                err = "dot -Tsvg exit %d: %s" % (s.returncode, s.stderr)
        report("dump dot %s %s" % (name, after or "as read"), err)
    p = mc("dump", model, "--format", "json", "--after", "dce")
    err = None
    try:
        j = json.loads(p.stdout)
        kinds = [n["kind"] for n in j["nodes"]]
        if not j["values"] or not all(isinstance(v["type"], str) for v in j["values"]) or not kinds:
            err = "json lacks values/types/nodes"
    except ValueError as e:
        err = "exit %d, not JSON: %s %s" % (p.returncode, e, p.stderr)
    report("dump json %s" % name, err)


def main():
    d = tempfile.mkdtemp(prefix="mc_test_run_")
    try:
        made = {}
        for name, mod, inputs, how in cases():
            try:
                made[name] = check_run(name, mod, inputs, how, d)
            except Exception as e:  # an export failure is a failed case, not a crash
                report("run %s" % name, "%s: %s" % (type(e).__name__, e))
        if "seed002" in made:
            check_bad_inputs(*made["seed002"], d)
            check_dump(made["seed002"][0], d)
            check_inspect(*made["seed002"], d)
        if "two_outputs" in made:
            # a.t() @ b with a: (3, 4), b: (3, 5) -> (4, 5) from K = 3: 2*4*5*3 = 120 FLOPs; the
            # transpose and the slice are views (0 FLOPs).
            check_inspect(*made["two_outputs"], d, flops=120)
        for name in ["mlp_noweights", "mlp_json", "scalar_output"]:
            if name in made:
                check_inspect(*made[name], d)
    finally:
        if failed == 0:
            shutil.rmtree(d, ignore_errors=True)
        else:
            print("files kept in %s" % d)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
