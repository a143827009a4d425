"""End-to-end tests: PyTorch module -> dump (TorchScript text or mc_export JSON) -> mc compile
-> cc (gcc and clang, -std=c11 -Wall -Wextra -Werror) -> run through the runtime (copying,
zero-copy and DLPack input binding) -> compare every output and the final value of every input
with what PyTorch itself computed on the same inputs. A case's `more_inputs` (functions making
other input sets of the same shapes) runs the same compiled model on each of them as well:
results whose size depends on the data, at several sizes.

Run with /usr/bin/python3 (Debian's python3-torch). Environment: MC (path to mc), BUILD (build
dir), CC. Prints one line per case and mode and a closing 'N passed, N failed' line.
"""
import importlib.util
import os
import subprocess
import sys
import traceback

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MC = os.path.abspath(os.environ.get("MC", os.path.join(ROOT, "build/mc")))
BUILD = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
CC = os.environ.get("CC", "cc")
SAN = os.environ.get("SAN", "").split()
# MC_E2E_CFLAGS: optimisation flags for the generated C (default -O1); "-O3 -march=native"
# runs the kernels' explicit-vector paths (AVX2 / AVX-512) instead of the portable ones.
OPTFLAGS = os.environ.get("MC_E2E_CFLAGS", "-O1").split()
OUT = os.path.join(BUILD, "e2e" if not os.environ.get("MC_E2E_CFLAGS") else "e2e-opt")

sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
sys.path.insert(0, HERE)

DT = {  # DLPack (code, bits) -> numpy dtype
    (2, 32): np.float32, (2, 64): np.float64, (2, 16): np.float16, (0, 64): np.int64,
    (0, 32): np.int32, (0, 16): np.int16, (0, 8): np.int8, (1, 8): np.uint8, (6, 8): np.bool_,
}


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def flatten(x):
    if isinstance(x, (tuple, list)):
        out = []
        for e in x:
            out.extend(flatten(e))
        return out
    return [x]


def to_numpy(x):
    if isinstance(x, torch.Tensor):
        return x.detach().contiguous().numpy()
    if isinstance(x, bool):
        return np.array(x, dtype=np.uint8)
    if isinstance(x, int):
        return np.array(x, dtype=np.int64)
    if isinstance(x, float):
        return np.array(x, dtype=np.float64)
    raise TypeError(type(x))


def close(got, want, rtol, atol):
    if got.shape != want.shape:
        return "shape %s, PyTorch %s" % (got.shape, want.shape)
    if want.dtype == np.bool_:
        want = want.astype(np.uint8)
        got = got.astype(np.uint8)
    if got.dtype != want.dtype:
        return "dtype %s, PyTorch %s" % (got.dtype, want.dtype)
    if np.issubdtype(want.dtype, np.floating):
        g, w = got.astype(np.float64), want.astype(np.float64)
        bad = ~((np.abs(g - w) <= atol + rtol * np.abs(w)) | (np.isnan(g) & np.isnan(w)) | (g == w))
        if bad.any():
            i = np.argwhere(bad)[0]
            return "differs at %s: %r vs PyTorch %r (max abs err %g)" % (
                tuple(i), g[tuple(i)], w[tuple(i)], np.nanmax(np.abs(g - w)))
        return None
    if not np.array_equal(got, want):
        i = np.argwhere(got != want)[0]
        return "differs at %s: %r vs PyTorch %r" % (tuple(i), got[tuple(i)], want[tuple(i)])
    return None


def export_case(case, d):
    """Writes the model file for a case; returns its path."""
    torch.manual_seed(0)
    mod = case["module"]()
    mod.eval()
    inputs = case["inputs"]()
    if case.get("format", "text") == "text":
        with torch.no_grad():
            if case.get("method", "trace") == "trace":
                traced = torch.jit.trace(mod, tuple(x.clone() for x in inputs), check_trace=False)
            else:
                traced = torch.jit.script(mod)
        path = os.path.join(d, "model.txt")
        with open(path, "w") as f:
            f.write(str(traced.inlined_graph))
    else:
        import mc_export
        path = os.path.join(d, "model.json")
        mc_export.export(mod, tuple(x.clone() for x in inputs), path, method=case.get("method", "trace"))
    return mod, inputs, path


def compare_outputs(od, want, want_inputs, case, label):
    """What a harness run wrote into od (shapes.txt, output_K.bin, input_K.bin) against PyTorch's
    outputs `want` and final inputs `want_inputs`; returns the differences as messages."""
    errors = []
    shapes = [l.split() for l in open(os.path.join(od, "shapes.txt")).read().splitlines()]
    if len(shapes) != len(want):
        return ["%s: %d outputs, PyTorch %d" % (label, len(shapes), len(want))]
    for k, (w, s) in enumerate(zip(want, shapes)):
        code, bits = map(int, s[2].split(":"))
        dims = tuple(int(x) for x in s[3:])
        got = np.fromfile(os.path.join(od, "output_%d.bin" % k), dtype=DT[(code, bits)]).reshape(dims)
        atol = case["scale_tol"] * float(np.abs(w).max()) if "scale_tol" in case else case.get("atol", 1e-6)
        msg = close(got, w, case.get("rtol", 1e-5), atol)
        if msg:
            errors.append("%s: output %d %s" % (label, k, msg))
    for i, w in enumerate(want_inputs):
        got = np.fromfile(os.path.join(od, "input_%d.bin" % i), dtype=w.dtype).reshape(w.shape)
        msg = close(got, w, case.get("rtol", 1e-5), case.get("atol", 1e-6))
        if msg:
            errors.append("%s: final value of input %d %s" % (label, i, msg))
    return errors


def check_more_inputs(case, d, mod, exe):
    """A case's `more_inputs` (other input sets: results sized by the data get other counts),
    each run by the harness `exe` (argv: copy OUTDIR INPUT...) and compared with PyTorch."""
    errors = []
    for j, make in enumerate(case.get("more_inputs", [])):
        xs = make()
        ins2 = [x.clone() for x in xs]
        with torch.no_grad():
            want2 = [to_numpy(w) for w in flatten(mod(*ins2))]
        files2 = []
        for i, x in enumerate(xs):
            p = os.path.join(d, "more%d_in_%d.bin" % (j, i))
            x.contiguous().numpy().tofile(p)
            files2.append(p)
        od = os.path.join(d, "more%d" % j)
        os.makedirs(od, exist_ok=True)
        r = run([exe, "copy", od] + files2)
        if r.returncode != 0:
            errors.append("inputs %d: harness exited %d: %s" % (j + 1, r.returncode, r.stdout[-2000:]))
            continue
        errors.extend(compare_outputs(od, want2, [x.numpy() for x in ins2], case, "inputs %d" % (j + 1)))
    return errors


def check_run_error(case, d, mod, ins, path):
    """A case whose run fails (an index out of range at run time): PyTorch raises, mc compiles,
    and `mc run` exits 1 with case["run_error"] in its message, without a crash. The export
    takes case["inputs"], the run case["run_inputs"] (where given)."""
    if "run_inputs" in case:
        ins = case["run_inputs"]()
    try:
        with torch.no_grad():
            mod(*ins)
        return ["PyTorch ran the model; the case expects a run-time error"]
    except (RuntimeError, IndexError):
        pass
    files = []
    for i, x in enumerate(ins):
        p = os.path.join(d, "in_%d.npy" % i)
        np.save(p, x.contiguous().numpy())
        files.append(p)
    r = run([MC, "run", path] + files + ["-o", os.path.join(d, "run_out")])
    if r.returncode != 1 or case["run_error"] not in r.stdout:
        return ["mc run exited %d (want 1 with %r):\n%s" % (r.returncode, case["run_error"], r.stdout[-2000:])]
    return []


def check_case(case):
    name = case["name"]
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    mod, inputs, path = export_case(case, d)
    ins = [x.clone() for x in inputs]
    if "run_error" in case:
        return check_run_error(case, d, mod, ins, path)
    with torch.no_grad():
        want = flatten(mod(*ins))
    want = [to_numpy(w) for w in want]
    want_inputs = [x.numpy() for x in ins]
    src = os.path.join(d, "model.c")
    r = run([MC, "compile", path, "-o", src, "--name", "model"])
    if r.returncode != 0:
        return ["compile: mc exited %d:\n%s" % (r.returncode, r.stdout)]
    exe = os.path.join(d, "harness")
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror"] + OPTFLAGS + ["-I" + d, "-Wa,-I" + d, "-I" + os.path.join(ROOT, "runtime")]
    r = run([CC] + flags + SAN + [src, os.path.join(HERE, "harness.c"), os.path.join(BUILD, "libmcrt.a"), "-lm", "-lpthread", "-o", exe])
    if r.returncode != 0:
        return ["cc: %s" % r.stdout[-3000:]]
    if case.get("clang", True) and not SAN:
        r = run(["clang", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O0", "-I" + d,
                 "-Wa,-I" + d, "-I" + os.path.join(ROOT, "runtime"), "-c", src, "-o", os.path.join(d, "model_clang.o")])
        if r.returncode != 0:
            return ["clang: %s" % r.stdout[-3000:]]
    files = []
    for i, x in enumerate(inputs):
        p = os.path.join(d, "in_%d.bin" % i)
        x.contiguous().numpy().tofile(p)
        files.append(p)
    errors = []
    runs = [(mode, nt) for nt in case.get("threads", [None]) for mode in case.get("modes", ["copy", "zerocopy", "dlpack"])]
    for mode, nt in runs:
        od = os.path.join(d, mode if nt is None else "%s_t%d" % (mode, nt))
        os.makedirs(od, exist_ok=True)
        env = dict(os.environ)
        label = mode
        if nt is not None:
            env["MC_E2E_THREADS"] = str(nt)
            label = "%s, %d threads" % (mode, nt)
        r = run([exe, mode, od] + files, env=env)
        if r.returncode != 0:
            errors.append("%s: harness exited %d: %s" % (label, r.returncode, r.stdout[-2000:]))
            continue
        errors.extend(compare_outputs(od, want, want_inputs, case, label))
    errors.extend(check_more_inputs(case, d, mod, exe))
    # threads split whole output tiles, each computed as on one thread: bitwise equal
    for mode, nt in runs[1:] if "threads" in case else []:
        a, b = os.path.join(d, "%s_t%d" % (runs[0][0], runs[0][1])), os.path.join(d, "%s_t%d" % (mode, nt))
        for k in range(len(want)):
            fa, fb = os.path.join(a, "output_%d.bin" % k), os.path.join(b, "output_%d.bin" % k)
            if os.path.exists(fa) and os.path.exists(fb) and open(fa, "rb").read() != open(fb, "rb").read():
                errors.append("%s, %d threads: output %d differs bitwise from %s, %d threads" % (mode, nt, k, runs[0][0], runs[0][1]))
    return errors


def load_cases():
    cases = []
    for fn in sorted(os.listdir(HERE)):
        if fn.startswith("cases_") and fn.endswith(".py"):
            spec = importlib.util.spec_from_file_location(fn[:-3], os.path.join(HERE, fn))
            m = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(m)
            cases.extend(m.CASES)
    return cases


def main():
    torch.set_num_threads(1)
    only = sys.argv[1:]
    passed = failed = 0
    for case in load_cases():
        if only and not any(o in case["name"] for o in only):
            continue
        if case.get("heavy") and os.environ.get("MC_E2E_HEAVY") != "1":
            continue
        try:
            errs = check_case(case)
        except Exception:
            errs = ["exception: " + traceback.format_exc()]
        if errs:
            failed += 1
            print("FAIL %s" % case["name"])
            for e in errs:
                print("    " + e.replace("\n", "\n    "))
        else:
            passed += 1
            print("ok   %s" % case["name"])
        sys.stdout.flush()
    print("e2e: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
