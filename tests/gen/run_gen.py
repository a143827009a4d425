"""run_gen.py — runs random programs (gen.py) through mc and compares them with PyTorch eager.

For every program, in one Python process: render the source, run it in eager PyTorch (the
expected outputs, final values of the inputs, dtypes), script or trace it and check that
TorchScript agrees with eager, export it with frontend/python/mc_export.py. Then, on a small
thread pool: `mc run` (libtcc) for every program, and for every K-th one (--cc-every) the cc
path as well (`mc compile`, the generated C built at -O0 with -Wall -Wextra -Werror and linked
with tests/e2e/harness.c, run with copying, zero-copy and DLPack input binding).

Outcomes: pass, wrong (an output, its dtype or shape, or the final value of an input differs),
crash (mc or the model dies, an `internal` error, generated C that does not compile, a timeout),
refused (mc exits 1 with a diagnostic: bucketed by its first line, numbers and names blotted),
and pytorch-rejected (eager, scripting/tracing or the exporter raise, or TorchScript disagrees
with eager: not mc's business, counted apart). A wrong or crashing program is shrunk by the
minimizer (delta debugging over statements, return items and inputs) and written, with what
differed, to the findings folder, one file per distinct minimized program.

--check (make gen-check): a failure whose minimized program matches an entry of
known_failures.py counts as known; any other failure fails the run, and so does a known entry
whose own program now passes (remove it from the list). Exit status 0 ok, 1 failed.
"""
import argparse
import collections
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
import warnings

os.environ.setdefault("GLOG_minloglevel", "2")  # TorchScript warnings about generated lists
import numpy as np  # noqa: E402
import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import mc_export  # noqa: E402

DT = {(2, 32): np.float32, (2, 64): np.float64, (0, 64): np.int64, (0, 32): np.int32,
      (0, 16): np.int16, (0, 8): np.int8, (1, 8): np.uint8, (6, 8): np.bool_, (2, 16): np.float16}
RTOL, ATOL = 1e-4, 1e-5


class Cfg:
    mc = os.path.join(ROOT, "build/mc")
    build = os.path.join(ROOT, "build")
    cc = "cc"
    work = "/tmp/mc-gen"
    timeout = 60


# ---- PyTorch side --------------------------------------------------------------------------
def flatten(x):
    if isinstance(x, (tuple, list)):
        return [y for e in x for y in flatten(e)]
    return [x]


def to_numpy(x):
    if isinstance(x, torch.Tensor):
        return x.detach().contiguous().numpy().copy()
    if isinstance(x, bool):
        return np.array(x, dtype=np.bool_)
    if isinstance(x, int):
        return np.array(x, dtype=np.int64)
    if isinstance(x, float):
        return np.array(x, dtype=np.float64)
    raise TypeError(type(x))


def differ(got, want, what):
    """None if got matches want (values, shape, dtype), else a one-line description."""
    if got.dtype != want.dtype:
        return "%s: dtype %s, PyTorch %s" % (what, got.dtype, want.dtype)
    if got.shape != want.shape:
        return "%s: shape %s, PyTorch %s" % (what, got.shape, want.shape)
    if np.issubdtype(want.dtype, np.floating):
        g, w = got.astype(np.float64), want.astype(np.float64)
        bad = ~((np.abs(g - w) <= ATOL + RTOL * np.abs(w)) | (np.isnan(g) & np.isnan(w)) | (g == w))
    else:
        bad = got != want
    if bad.any():
        i = tuple(np.argwhere(bad)[0])
        return "%s: differs at %s: %r, PyTorch %r" % (what, i, got[i].item(), want[i].item())
    return None


def first_line(e):
    s = str(e).strip().splitlines()
    return s[0][:200] if s else type(e).__name__


def expect(prog, d):
    """Runs prog in PyTorch and exports it into folder d. Returns (None, want) or (reason, None)."""
    src = gen.render(prog)
    inputs = gen.make_inputs(prog)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn = gen.compile_fn(src)
            ins = [x.clone() for x in inputs]
            # the inputs' memory in their own layout: in-place view ops (x.t_()) change the
            # caller's tensor object, not the buffer mc writes back
            mem = [x.view(x.shape) for x in ins]
            with torch.no_grad():
                out = flatten(fn(*ins))
            want = [to_numpy(o) for o in out]
            want_in = [x.numpy().copy() for x in mem]
        except Exception as e:
            return "eager: " + first_line(e), None
        try:
            if prog["mode"] == "script":
                jf = torch.jit.CompilationUnit(src).f
            else:
                jf = torch.jit.trace(fn, tuple(x.clone() for x in inputs), check_trace=False)
        except Exception as e:
            return "%s: %s" % (prog["mode"], first_line(e)), None
        try:
            ins2 = [x.clone() for x in inputs]
            mem2 = [x.view(x.shape) for x in ins2]
            with torch.no_grad():
                out2 = [to_numpy(o) for o in flatten(jf(*ins2))]
        except Exception as e:
            return "%s run: %s" % (prog["mode"], first_line(e)), None
        if len(out2) != len(want) or any(differ(a, b, "") for a, b in zip(out2, want)) or \
                any(differ(x.numpy(), w, "") for x, w in zip(mem2, want_in)):
            return "%s differs from eager" % prog["mode"], None
        os.makedirs(d, exist_ok=True)
        try:
            mc_export.export(jf if prog["mode"] == "script" else fn, tuple(x.clone() for x in inputs),
                             os.path.join(d, "m.json"), method=prog["mode"])
        except Exception as e:
            return "export: " + first_line(e), None
    for k, x in enumerate(inputs):
        a = x.numpy()
        np.save(os.path.join(d, "in%d.npy" % k), a)
        a.tofile(os.path.join(d, "in%d.bin" % k))
    return None, {"out": want, "in": want_in, "orig": [x.numpy().copy() for x in inputs]}


# ---- mc side -------------------------------------------------------------------------------
def run(cmd, **kw):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace", timeout=Cfg.timeout, **kw)
    except subprocess.TimeoutExpired:
        return None


def bucket(msg):
    """The first line of a diagnostic with its location, numbers and names blotted."""
    line = ""
    for l in msg.splitlines():
        if "error" in l or "internal" in l:
            line = l
            break
    line = line or (msg.strip().splitlines() or [""])[0]
    line = re.sub(r"^\S+:\d+:\d+: ", "", line)
    line = re.sub(r"^\S+\.(json|npy|txt): ", "", line)
    line = re.sub(r"%[\w.]+", "%v", line)
    line = re.sub(r"'[^']*'", lambda m: m.group(0) if "::" in m.group(0) else "'_'", line)
    line = re.sub(r"\d+", "N", line)
    return line[:160]


def mc_failed(r, stage):
    """Outcome of an mc process that did not succeed, or None if it did."""
    if r is None:
        return ("crash", "%s: timeout" % stage)
    if r.returncode == 0:
        return None
    if r.returncode == 1 and "internal" not in r.stdout and "the model failed" not in r.stdout:
        return ("refused", bucket(r.stdout))
    return ("crash", "%s: exit %d: %s" % (stage, r.returncode, bucket(r.stdout)))


def compare(want, outs, ins, label):
    if len(outs) != len(want["out"]):
        return "%s: %d outputs, PyTorch %d" % (label, len(outs), len(want["out"]))
    for k, (g, w) in enumerate(zip(outs, want["out"])):
        m = differ(g, w, "%s: output %d" % (label, k))
        if m:
            return m
    for k, w in enumerate(want["in"]):
        g = ins[k]
        if g is None:
            if differ(want["orig"][k], w, ""):
                return "%s: input %d is mutated by PyTorch but mc does not write it" % (label, k)
            continue
        m = differ(g, w, "%s: final value of input %d" % (label, k))
        if m:
            return m
    return None


def mc_run(d, nin, want, interp=False):
    od = os.path.join(d, "interp" if interp else "run")
    shutil.rmtree(od, ignore_errors=True)
    r = run([Cfg.mc, "run", os.path.join(d, "m.json")] + [os.path.join(d, "in%d.npy" % k) for k in range(nin)]
            + ["-o", od, "-q"] + (["--interp"] if interp else []))
    f = mc_failed(r, "mc run")
    if f:
        return f
    outs = []
    k = 0
    while os.path.exists(os.path.join(od, "output_%d.npy" % k)):
        outs.append(np.load(os.path.join(od, "output_%d.npy" % k)))
        k += 1
    ins = []
    for k in range(nin):
        p = os.path.join(od, "input_%d.npy" % k)
        ins.append(np.load(p) if os.path.exists(p) else None)
    m = compare(want, outs, ins, "mc run --interp" if interp else "mc run")
    return ("wrong", m) if m else ("pass", "")


def cc_path(d, nin, want):
    src = os.path.join(d, "model.c")
    r = run([Cfg.mc, "compile", os.path.join(d, "m.json"), "-o", src, "--name", "model"])
    f = mc_failed(r, "mc compile")
    if f:
        return f
    exe = os.path.join(d, "harness")
    # SAN: the flags libmcrt.a was built with (make asan), needed to link it
    r = run([Cfg.cc, "-std=c11", "-O0", "-Wall", "-Wextra", "-Werror"] + os.environ.get("SAN", "").split() + ["-I" + d, "-Wa,-I" + d,
             "-I" + os.path.join(ROOT, "runtime"), src, os.path.join(ROOT, "tests/e2e/harness.c"),
             os.path.join(Cfg.build, "libmcrt.a"), "-lm", "-lpthread", "-o", exe])
    if r is None or r.returncode:
        return ("crash", "cc: " + bucket(r.stdout if r else "timeout"))
    for mode in ("copy", "zerocopy", "dlpack"):
        od = os.path.join(d, mode)
        os.makedirs(od, exist_ok=True)
        r = run([exe, mode, od] + [os.path.join(d, "in%d.bin" % k) for k in range(nin)])
        if r is None or r.returncode:
            return ("crash", "harness %s: %s" % (mode, "timeout" if r is None else
                                                 "exit %d: %s" % (r.returncode, bucket(r.stdout))))
        outs = []
        for line in open(os.path.join(od, "shapes.txt")).read().splitlines():
            s = line.split()
            code, bits = map(int, s[2].split(":"))
            dims = tuple(int(x) for x in s[3:])
            o = np.fromfile(os.path.join(od, "output_%s.bin" % s[1]), dtype=DT[(code, bits)]).reshape(dims)
            k = len(outs)
            if (code, bits) == (1, 8) and k < len(want["out"]) and want["out"][k].dtype == np.bool_ \
                    and not (o > 1).any():
                o = o.astype(np.bool_)  # bool outputs report {kDLUInt,8} (runtime/mc_runtime.h)
            outs.append(o)
        ins = [np.fromfile(os.path.join(od, "input_%d.bin" % k), dtype=w.dtype).reshape(w.shape)
               for k, w in enumerate(want["in"])]
        m = compare(want, outs, ins, "cc " + mode)
        if m:
            return ("wrong", m)
    return ("pass", "")


RANK = {"pass": 0, "refused": 1, "crash": 2, "wrong": 3}
# refusal buckets grouped by what they have in common, for the report
FAMILIES = [("shape-unknown (list elements: unbind/split/chunk)", r"shape of .*not known"),
            ("run-time index", r"compile-time constant"),
            ("in-place view op", r"in-place view op|unsupported op 'aten::(squeeze|unsqueeze|transpose|t)_'"),
            ("overlapping write", r"more than one element of the written-to tensor"),
            ("alias through blocks/lists", r"control flow|through a list|lists"),
            ("dtype", r"but PyTorch recorded"),
            ("unsupported op", r"unsupported op")]


def mc_job(d, nin, want, cc, run_path=True):
    """Both paths for one exported program; the worst outcome wins."""
    res = mc_run(d, nin, want) if run_path else ("pass", "")
    if res[0] != "refused" and cc:
        res2 = cc_path(d, nin, want)
        if RANK[res2[0]] > RANK[res[0]]:
            res = res2
    return res


def check_prog(prog, d, cc=True, run_path=True):
    """(outcome, detail) of one program, pytorch-rejected included."""
    why, want = expect(prog, d)
    if why:
        return ("pytorch-rejected", why)
    return mc_job(d, len(prog["inputs"]), want, cc, run_path)


def failing_path(res):
    """Which path a failure was seen on: (cc, run_path) for check_prog."""
    return (False, True) if res[1].startswith("mc run") else (True, False)


# ---- minimizer -----------------------------------------------------------------------------
def _paths(body, pre=()):
    """Paths of every statement (pre-order), as index tuples through nested bodies."""
    out = []
    for i, s in enumerate(body):
        p = pre + (i,)
        out.append(p)
        if s[0] == "if":
            out += _paths(s[2], p + (2,)) + _paths(s[3], p + (3,))
        elif s[0] in ("for", "while"):
            out += _paths(s[3], p + (3,))
    return out


def _edit(body, path, repl):
    """A copy of body with the statement at path replaced by the list repl."""
    body = list(body)
    if len(path) == 1:
        return body[:path[0]] + repl + body[path[0] + 1:]
    s = list(body[path[0]])
    s[path[1]] = _edit(s[path[1]], path[2:], repl)
    body[path[0]] = tuple(s)
    return body


def _get(body, path):
    s = body[path[0]]
    return s if len(path) == 1 else _get(s[path[1]], path[2:])


def same_failure(a, b):
    if a[0] != b[0]:
        return False
    if a[0] == "crash":
        return a[1].split(":")[0] == b[1].split(":")[0]
    return True


def minimize(prog, res, d, budget=400):
    """Delta debugging over statements: the smallest program that fails as prog does."""
    tries = [0]
    cc, run_path = failing_path(res)

    def fails(p):
        if tries[0] >= budget:
            return False
        tries[0] += 1
        shutil.rmtree(d, ignore_errors=True)
        r = check_prog(p, d, cc, run_path)
        return same_failure(r, res)

    best = prog
    changed = True
    while changed and tries[0] < budget:
        changed = False
        body = best["body"]
        # return items
        ret = body[-1]
        for i in range(len(ret[1])):
            if len(ret[1]) > 1:
                items = ret[1][:i] + ret[1][i + 1:]
                p = dict(best, body=body[:-1] + [("ret", items)])
                if fails(p):
                    best, changed = p, True
                    break
        if changed:
            continue
        # chunks of top-level statements first (ddmin), halving the chunk size
        n = len(best["body"]) - 1
        size = n // 2
        while size >= 2 and not changed:
            for st in range(n - size, -1, -size):
                body = best["body"]
                p = dict(best, body=body[:st] + body[st + size:])
                if fails(p):
                    best, changed = p, True
                    break
            size //= 2
        if changed:
            continue
        # statements, last first (later statements use earlier ones); in reverse pre-order an
        # edit never moves a statement still to be visited
        for path in reversed(_paths(best["body"][:-1])):
            body = best["body"]
            s = _get(body, path)
            cands = [[]]
            if s[0] == "if":
                cands += [list(s[2]), list(s[3])]
            elif s[0] in ("for", "while"):
                cands += [list(s[3])]
            for c in cands:
                p = dict(best, body=_edit(body, path, c))
                if fails(p):
                    best, changed = p, True
                    break
        if changed:
            continue
        # inputs nobody uses
        src = gen.render(best)
        for k, (name, _, _) in enumerate(best["inputs"]):
            if not re.search(r"\b%s\b" % name, src.split("\n", 1)[1]):
                p = dict(best, inputs=best["inputs"][:k] + best["inputs"][k + 1:])
                p["inputs"] = [inp for inp in p["inputs"]]
                if fails(p):
                    best, changed = p, True
                    break
    shutil.rmtree(d, ignore_errors=True)
    return best, check_prog(best, d, cc, run_path)


def canonical(prog):
    """Source with local names renumbered and numbers blotted: the de-duplication key."""
    src = gen.render(prog)
    names = {}
    for m in re.finditer(r"\b([vacsik]\d+)\b", src):
        if m.group(1) not in names:
            names[m.group(1)] = "%s%d" % (m.group(1)[0], len(names))
    src = re.sub(r"\b([vacsik]\d+)\b", lambda m: names[m.group(1)], src)
    return re.sub(r"(?<![\w.])-?\d+(\.\d+)?", "#", src)


def describe(prog):
    return "inputs: " + ", ".join("%s %s%s" % (n, str(dt).replace("torch.", ""), list(sh))
                                  for n, dt, sh in prog["inputs"])


# ---- driver --------------------------------------------------------------------------------
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="programs per mode")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--modes", default="script,trace")
    ap.add_argument("--cc-every", type=int, default=10, help="cc path for every K-th program")
    ap.add_argument("-j", type=int, default=2, help="mc jobs at a time")
    ap.add_argument("--findings", default="", help="folder for minimized failing programs")
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--check", action="store_true", help="known failures pass, anything new fails")
    ap.add_argument("--work", default=os.path.join(os.environ.get("BUILD", "build"), "gen"))
    ap.add_argument("--progress", type=int, default=0, help="report line every N programs")
    ap.add_argument("--repro", metavar="FILE", help="run one finding file again and stop")
    a = ap.parse_args(argv)
    Cfg.mc = os.path.abspath(os.environ.get("MC", os.path.join(ROOT, "build/mc")))
    Cfg.build = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
    Cfg.cc = os.environ.get("CC", "cc")
    Cfg.work = os.path.abspath(a.work)
    if os.environ.get("SAN"):  # mc built with sanitizers: libtcc's scratch is not a leak of ours
        os.environ["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    torch.set_num_threads(1)
    if a.repro:
        return repro(a.repro)
    import known_failures
    t0 = time.time()
    modes = a.modes.split(",")
    counts = {m: collections.Counter() for m in modes}
    refusals = collections.Counter()
    rejected = collections.Counter()
    crashes = collections.Counter()
    fails = []  # (mode, index, prog, res)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(a.j, 1))
    shutil.rmtree(Cfg.work, ignore_errors=True)

    new, known_hits, seen = [], collections.Counter(), {}
    t_min = [0.0]

    def classify(mode, i, prog, res):
        """Minimizes a failure, matches it against the known list, writes the finding."""
        t1 = time.time()
        mprog, mres = prog, res
        # known by what differed alone (no source pattern): no need to shrink it
        quick = known_failures.match(None, mode, res, detail_only=True)
        # a crash bucket already shrunk twice is not shrunk again (they are many and alike)
        if not quick and not a.no_minimize and (res[0] == "wrong" or crashes[res[1]] <= 2):
            mprog, mres = minimize(prog, res, os.path.join(Cfg.work, "min"), budget=120 if a.check else 300)
            if not same_failure(mres, res):
                mprog, mres = prog, res
        canon = canonical(mprog)
        hit = quick or known_failures.match(canon, mode, mres)
        if hit:
            known_hits[hit] += 1
            key = hit
        else:
            new.append((mode, i, mprog, mres))
            key = hashlib.sha1((mode + canon).encode()).hexdigest()[:10]
        if a.findings and key not in seen:
            seen[key] = True
            write_finding(a.findings, key, mode, a.seed * 1000003 + i, prog, mprog, mres, hit)
        t_min[0] += time.time() - t1

    def collect(fut, mode, i, prog, d):
        res = fut.result()
        counts[mode][res[0]] += 1
        if res[0] == "refused":
            refusals[res[1]] += 1
        elif res[0] in ("wrong", "crash"):
            if res[0] == "crash":
                crashes[res[1]] += 1
            fails.append((mode, i, prog, res))
            classify(mode, i, prog, res)
        shutil.rmtree(d, ignore_errors=True)

    done = 0
    for mode in modes:
        pending = collections.deque()
        for i in range(a.n):
            seed = a.seed * 1000003 + i
            prog = gen.generate(seed, mode)
            d = os.path.join(Cfg.work, mode, str(i))
            why, want = expect(prog, d)
            if why:
                counts[mode]["pytorch-rejected"] += 1
                rejected[re.sub(r"\d+", "N", why)[:100]] += 1
                shutil.rmtree(d, ignore_errors=True)
            else:
                fut = pool.submit(mc_job, d, len(prog["inputs"]), want, a.cc_every > 0 and i % a.cc_every == 0)
                pending.append((fut, mode, i, prog, d))
            while pending and (pending[0][0].done() or len(pending) > 4 * a.j):
                collect(*pending.popleft())
            done += 1
            if a.progress and done % a.progress == 0:
                print("[%d programs, %.0f s] %s refusals %s" % (done, time.time() - t0, dict(
                    (m, dict(c)) for m, c in counts.items()), refusals.most_common(6)), flush=True)
        while pending:
            collect(*pending.popleft())
    t_all = time.time() - t0
    t_run = t_all - t_min[0]

    # the known entries themselves must still fail
    now_pass = []
    if a.check:
        for ent in known_failures.KNOWN:
            p = known_failures.program(ent)
            r = check_prog(p, os.path.join(Cfg.work, "known", ent["name"]))
            if known_failures.match(canonical(p), p["mode"], r) != ent["name"]:
                now_pass.append((ent["name"], r))

    # report
    for mode in modes:
        c = counts[mode]
        n = sum(c.values())
        valid = n - c["pytorch-rejected"]
        print("gen %s: %d programs: %d pass, %d wrong, %d crash, %d refused (%.1f%% of valid), %d pytorch-rejected"
              % (mode, n, c["pass"], c["wrong"], c["crash"], c["refused"],
                 100.0 * c["refused"] / max(valid, 1), c["pytorch-rejected"]))
    fam = collections.Counter()
    for b, k in refusals.items():
        fam[next((name for name, rx in FAMILIES if re.search(rx, b)), "other")] += k
    print("  refusal families: " + ", ".join("%s %d" % (f, k) for f, k in fam.most_common()))
    for b, k in refusals.most_common():
        print("  refused %5d  %s" % (k, b))
    for b, k in crashes.most_common():
        print("  crash   %5d  %s" % (k, b))
    for b, k in rejected.most_common(8):
        print("  pytorch-rejected %5d  %s" % (k, b))
    for name, k in known_hits.most_common():
        print("  known   %5d  %s" % (k, name))
    for mode, i, p, r in new:
        print("NEW %s %s (program %d, seed %d):\n    %s\n    %s\n%s" % (
            r[0], mode, i, a.seed * 1000003 + i, r[1], describe(p) + ", values from seed %d" % p["seed"],
            "    " + gen.render(p).replace("\n", "\n    ")))
    for name, r in now_pass:
        print("KNOWN FAILURE %s NO LONGER FAILS AS LISTED: %s: %s -- fixed? remove it from "
              "tests/gen/known_failures.py (or update it)" % (name, r[0], r[1]))
    print("gen: %.0f s (%.0f s running, %.0f s minimizing), %d failures: %d known, %d new"
          % (t_all, t_run, t_all - t_run, len(fails), sum(known_hits.values()), len(new)))
    if a.check and (new or now_pass):
        return 1
    return 0


def entry(prog):
    """The program as a known_failures.py entry (also the header of a finding file)."""
    return {"mode": prog["mode"], "seed": prog["seed"],
            "inputs": [(n, str(dt).replace("torch.", ""), list(sh)) for n, dt, sh in prog["inputs"]],
            "src": gen.render(prog)}


def write_finding(folder, key, mode, seed, prog, mprog, mres, hit):
    """One file per distinct minimized failure; `run_gen.py --repro FILE` runs it again."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "%s-%s-%s.py" % (mres[0], mode, key))
    if os.path.exists(path):
        return
    e = entry(mprog)
    with open(path + ".tmp", "w") as f:
        f.write("# mode: %s   outcome: %s%s\n" % (mode, mres[0], "   known: " + hit if hit else ""))
        f.write("# %s\n" % mres[1])
        f.write("# %s (values: tests/gen/gen.py make_inputs, seed %d)\n" % (describe(mprog), mprog["seed"]))
        f.write("# rerun: /usr/bin/python3 tests/gen/run_gen.py --repro %s\n" % path)
        f.write("# entry: %r\n" % ({k: v for k, v in e.items() if k != "src"},))
        f.write(e["src"])
        f.write("\n# found as (generator seed %d):\n# " % seed + gen.render(prog).replace("\n", "\n# ") + "\n")
    os.replace(path + ".tmp", path)


def repro(path):
    """Runs a finding file (or a file in its format) again: both paths, and --interp."""
    import ast
    text = open(path).read()
    e = ast.literal_eval(re.search(r"^# entry: (.*)$", text, re.M).group(1))
    src = "".join(l + "\n" for l in text.splitlines() if not l.startswith("#")).strip() + "\n"
    import known_failures
    prog = known_failures.program(dict(e, src=src))
    d = os.path.join(Cfg.work, "repro")
    shutil.rmtree(d, ignore_errors=True)
    print(src)
    print("cc path + mc run:", check_prog(prog, d))
    why, want = expect(prog, d)
    if not why:
        print("mc run --interp:", mc_run(d, len(prog["inputs"]), want, interp=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
