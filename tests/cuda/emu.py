"""The CUDA target on the CPU emulation (spec 6, docs/cuda.md): every tests/e2e case, exported
and checked against PyTorch as tests/e2e/run_e2e.py does (its export and compare functions),
but compiled with `mc compile --target cuda`, built the spec-6 way

    c++ -std=c++17 -O1 -DMC_CUDA_EMULATE -I$BUILD/runtime-dist -x c++ -c model.cu
    cc -c tests/cuda/emu_harness.c; c++ model.o emu_harness.o $BUILD/libmcrt_cuda_emu.a -lm -lpthread

and run by tests/cuda/emu_harness.c in each of the case's binding modes (copy from host
memory, zero-copy and DLPack of device buffers). Outputs, final values of inputs and dtypes
must match PyTorch within the case's tolerances.

A case --target cuda refuses (an op without a CUDA implementation, control flow, a dtype the
kernels lack: exit 1 with a located diagnostic) is counted, not failed; the closing lines say
how many, and for which ops. So is a case mc rejects for the C target too, with the same first
error (tests/e2e fails it). Any other compile failure, build failure or mismatch fails.

A case with `run_error` is also run on its `run_inputs`: mc_run must fail with that message; a
case's `more_inputs` (other input sets: results sized by the data get other counts) run too.
The models in NO_FALLBACK (resnet18, mobilenet_v2, the transformer layers and the other
torchvision models) must run entirely on the device: `mc inspect --target cuda` lists no node on
the host.

usage: emu.py [NAME_SUBSTRING ...]. Environment: MC, BUILD, as for run_e2e.py; cases marked
heavy run only with MC_E2E_HEAVY=1. Every other case runs (make check); MC_CUDA_EMU_SAMPLE=1
runs a fixed sample for a quicker look: every control-flow (ctl_*) and dtype (types_*) case and
about half of the others, chosen by a hash of the name. Exit 0 when nothing failed."""
import collections
import os
import zlib
import re
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests/e2e"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import run_e2e as e2e  # noqa: E402

OUT = os.path.join(e2e.BUILD, "cuda-emu")
NO_FALLBACK = {"json_resnet18", "json_mobilenet_v2", "json_gpt_block", "json_encoder_layer_batch_first",
               "json_encoder_layer_seq_first", "json_encoder_layer_causal_prenorm", "json_mlp", "json_lenet5",
               "json_smallconv", "tv_squeezenet1_1", "tv_shufflenet_v2_x1_0", "tv_mobilenet_v3_small"}
DIST = os.path.join(e2e.BUILD, "runtime-dist")
CXX = os.environ.get("CXX", "clang++" if "clang" in e2e.CC else "c++")
# runtime-dist holds every header of the runtime once the runtime's rule has made it; until
# then the headers it lacks come from runtime/ (the emulation's own are always there).
INC = ["-I" + DIST] + ([] if os.path.exists(os.path.join(DIST, "mc_runtime.h")) else ["-I" + os.path.join(ROOT, "runtime")])


def refusal(log):
    """What --target cuda refused, from mc's first error line, or None if not a refusal."""
    for line in log.splitlines():
        m = re.search(r"error: (.*)", line)
        if not m:
            continue
        msg = m.group(1)
        m2 = re.match(r"'([^']+)' has no CUDA implementation( for \w+)?", msg)
        if m2:
            return m2.group(1) + (" (%s)" % m2.group(2).split()[-1] if m2.group(2) else "")
        m2 = re.match(r"'([^']+)': control flow", msg)
        if m2:
            return m2.group(1) + " (control flow)"
        if "CUDA target" in msg:
            return re.sub(r"%\S+", "%v", msg)
        return None
    return None


def build_emu(d):
    """Builds d/model.cu the spec-6 way with tests/cuda/emu_harness.c; returns (exe, errors)."""
    r = e2e.run([CXX, "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-DMC_CUDA_EMULATE"] + e2e.SAN + INC +
                ["-x", "c++", "-c", "model.cu", "-o", "model.o"], cwd=d)
    if r.returncode != 0:
        return None, ["c++: %s" % r.stdout[-3000:]]
    exe = os.path.join(d, "emu_harness")
    r = e2e.run([e2e.CC, "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-DMC_CUDA_EMULATE", "-I" + d] + e2e.SAN + INC +
                ["-c", os.path.join(HERE, "emu_harness.c"), "-o", os.path.join(d, "emu_harness.o")])
    if r.returncode != 0:
        return None, ["cc: %s" % r.stdout[-3000:]]
    r = e2e.run([CXX] + e2e.SAN + [os.path.join(d, "emu_harness.o"), os.path.join(d, "model.o"),
                                  os.path.join(e2e.BUILD, "libmcrt_cuda_emu.a"), "-lm", "-lpthread", "-o", exe])
    if r.returncode != 0:
        return None, ["c++ (link): %s" % r.stdout[-3000:]]
    return exe, []


class ScalarArgs(torch.nn.Module):
    def forward(self, x, n: int, s: float, b: bool):
        y = x * n + s
        if b:
            y = y - n
        return y.t(), n + 1  # a strided output (a view): packed compactly for the device


def check_scalar_inputs():
    """A graph the device code refuses (int, float and bool graph inputs: 0-d int64, float64 and
    uint8 tensors at the runtime API) runs whole on the host, as mc inspect says; both branches
    match PyTorch in each binding mode."""
    d = os.path.join(OUT, "whole_scalar_inputs")
    os.makedirs(d, exist_ok=True)
    import mc_export
    mod = ScalarArgs()
    x = torch.randn(2, 3)
    path = os.path.join(d, "model.json")
    mc_export.export(mod, (x, 3, 0.5, True), path, method="script")
    r = e2e.run([e2e.MC, "compile", path, "--target", "cuda", "-o", os.path.join(d, "model.cu"), "--name", "model"])
    if r.returncode != 0:
        return ["compile: mc exited %d:\n%s" % (r.returncode, r.stdout[-3000:])]
    r = e2e.run([e2e.MC, "inspect", path, "--target", "cuda"])
    if r.returncode != 0 or "the device code refuses this graph (graph input %n is not a tensor" not in r.stdout:
        return ["mc inspect --target cuda does not say why the graph runs on the host:\n" + r.stdout[-2000:]]
    exe, errors = build_emu(d)
    if errors:
        return errors
    for b in (True, False):
        args = (x, 3, 0.5, b)
        want = [e2e.to_numpy(w) for w in e2e.flatten(mod(*args))]
        files = []
        for i, (a, dt) in enumerate(zip(args, (np.float32, np.int64, np.float64, np.uint8))):
            files.append(os.path.join(d, "in_%d_%d.bin" % (b, i)))
            (a.numpy() if i == 0 else np.array(a, dtype=dt)).tofile(files[-1])
        for mode in ("copy", "zerocopy", "dlpack"):
            od = os.path.join(d, "%s_%d" % (mode, b))
            os.makedirs(od, exist_ok=True)
            r = e2e.run([exe, mode, od] + files)
            if r.returncode != 0:
                errors.append("%s: emu_harness exited %d: %s" % (mode, r.returncode, r.stdout[-2000:]))
                continue
            errors.extend(e2e.compare_outputs(od, want, [x.numpy()], {}, "%s, b=%s" % (mode, b)))
    return errors


def check_case(case):
    """Returns (errors, refused): refused is the refusal key when --target cuda refuses."""
    name = case["name"]
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    mod, inputs, path = e2e.export_case(case, d)
    ins = [x.clone() for x in inputs]
    with torch.no_grad():
        want = e2e.flatten(mod(*ins))
    want = [e2e.to_numpy(w) for w in want]
    want_inputs = [x.numpy() for x in ins]
    src = os.path.join(d, "model.cu")
    r = e2e.run([e2e.MC, "compile", path, "--target", "cuda", "-o", src, "--name", "model"])
    if r.returncode == 1 and refusal(r.stdout):
        if os.path.exists(src):
            return ["mc refused the model but left %s" % src], None
        return [], refusal(r.stdout)
    if r.returncode == 1:
        # rejected for every target (tests/e2e reports it): not the CUDA target's failure
        rc = e2e.run([e2e.MC, "compile", path, "-o", os.path.join(d, "model.c"), "--name", "model"])
        first = [l for l in r.stdout.splitlines() if "error:" in l][:1]
        if rc.returncode == 1 and first and first[0] in rc.stdout:
            return [], "(rejected by mc for the C target too)"
    if r.returncode != 0:
        return ["compile: mc exited %d:\n%s" % (r.returncode, r.stdout[-3000:])], None
    if name in NO_FALLBACK:
        r = e2e.run([e2e.MC, "inspect", path, "--target", "cuda"])
        if r.returncode != 0 or "cuda: every node has device code (no host fallback)" not in r.stdout:
            return ["mc inspect --target cuda: nodes on the host (this model must run on the device):\n%s" %
                    r.stdout[r.stdout.find("cuda:"):][-3000:]], None
    exe, errors = build_emu(d)
    if errors:
        return errors, None
    files = []
    for i, x in enumerate(inputs):
        p = os.path.join(d, "in_%d.bin" % i)
        x.contiguous().numpy().tofile(p)
        files.append(p)
    errors = []
    for mode in case.get("modes", ["copy", "zerocopy", "dlpack"]):
        od = os.path.join(d, mode)
        os.makedirs(od, exist_ok=True)
        r = e2e.run([exe, mode, od] + files)
        if r.returncode != 0:
            errors.append("%s: emu_harness exited %d: %s" % (mode, r.returncode, r.stdout[-2000:]))
            continue
        errors.extend(e2e.compare_outputs(od, want, want_inputs, case, mode))
    errors.extend(e2e.check_more_inputs(case, d, mod, exe))
    if "run_error" in case:
        # inputs PyTorch raises on (an index out of range at run time): mc_run fails with its message
        rfiles = []
        for i, x in enumerate(case["run_inputs"]() if "run_inputs" in case else inputs):
            p = os.path.join(d, "run_in_%d.bin" % i)
            x.contiguous().numpy().tofile(p)
            rfiles.append(p)
        od = os.path.join(d, "run_error")
        os.makedirs(od, exist_ok=True)
        r = e2e.run([exe, "copy", od] + rfiles)
        if r.returncode != 5 or case["run_error"] not in r.stdout:
            errors.append("run_inputs: emu_harness exited %d (want 5, mc_run failing with %r):\n%s" %
                          (r.returncode, case["run_error"], r.stdout[-2000:]))
    return errors, None


def sampled(name):
    """Whether the default run (make check) takes this case: see the module docstring."""
    return name.startswith(("ctl_", "types_")) or zlib.crc32(name.encode()) % 2 == 0


def main():
    torch.set_num_threads(1)
    only = sys.argv[1:]
    sample = not only and os.environ.get("MC_CUDA_EMU_SAMPLE") == "1"
    skipped = 0
    passed = failed = 0
    refused = collections.OrderedDict()
    rejected = []
    for case in e2e.load_cases():
        if only and not any(o in case["name"] for o in only):
            continue
        if case.get("heavy") and os.environ.get("MC_E2E_HEAVY") != "1":
            continue
        if sample and not sampled(case["name"]):
            skipped += 1
            continue
        try:
            errs, why = check_case(case)
        except Exception:
            errs, why = ["exception: " + traceback.format_exc()], None
        if why and why.startswith("("):
            rejected.append(case["name"])
            print("--   %s: %s" % (case["name"], why[1:-1]))
        elif why:
            refused.setdefault(why, []).append(case["name"])
            print("--   %s: refused by --target cuda: %s" % (case["name"], why))
        elif errs:
            failed += 1
            print("FAIL %s" % case["name"])
            for e in errs:
                print("    " + e.replace("\n", "\n    "))
        else:
            passed += 1
            print("ok   %s" % case["name"])
        sys.stdout.flush()
    if not only or any(o in "whole_scalar_inputs" for o in only):
        errs = check_scalar_inputs()
        passed, failed = passed + (not errs), failed + bool(errs)
        print("%s whole_scalar_inputs" % ("FAIL" if errs else "ok  "))
        for e in errs:
            print("    " + e.replace("\n", "\n    "))
    nref = sum(len(v) for v in refused.values())
    print("cuda-emu: %d refused by --target cuda (not failures), by first refusal:" % nref)
    for why, names in sorted(refused.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print("    %3d  %s" % (len(names), why))
    if rejected:
        print("cuda-emu: %d rejected by mc for the C target too (tests/e2e reports them): %s" %
              (len(rejected), " ".join(rejected)))
    print("cuda-emu: %d passed, %d failed, %d refused%s" % (passed, failed, nref, (
        " (a sample: %d more cases without MC_CUDA_EMU_SAMPLE=1)" % skipped) if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
