"""PyTorch's type promotion, as a generated matrix checked against PyTorch 1.13.

Every case is one op applied to two operands (a third for where/clamp) drawn from: a
dimensioned tensor of each dtype, a 0-dim tensor of each dtype, and Python int and float
scalars, out of place and in place (on a clone). Many cases are batched into one module per
op group; each module is scripted and traced, exported with mc_export, and run by `mc run`; every
output's dtype and values must equal PyTorch eager's on the same inputs. The expected dtype is
also checked against the rule (torch.result_type of the operands; true division of integers
gives the default float dtype; comparisons give bool), so the generator states the rule it tests.
A traced graph records a Python scalar as a 0-dim float64/int64 tensor constant (a "wrapped
number"), a scripted one as a number: both must promote as the eager op did.

Combinations PyTorch refuses (an in-place result that cannot be cast to self's dtype, a
broadcast that changes self's shape, integers to negative integer powers, bool subtraction,
bitwise ops on floats) are checked on a sample: each is scripted alone and `mc compile` must
refuse it with a located error of the same meaning.

Usage: gen.py OUTDIR (MC: path to mc). Prints one line per module and a summary; exits 1 on a
mismatch."""
import importlib.util
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
import mc_export  # noqa: E402

MC = os.path.abspath(os.environ.get("MC", os.path.join(ROOT, "build/mc")))
warnings.filterwarnings("ignore")

DTYPES = {
    "b": torch.bool, "u8": torch.uint8, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
    "i64": torch.int64, "f16": torch.float16, "f32": torch.float32, "f64": torch.float64,
}  # not bfloat16: .npy files, through which `mc run` reads and writes, have no such dtype
TORCH_NAMES = {torch.bool: "Bool", torch.uint8: "Byte", torch.int8: "Char", torch.int16: "Short",
               torch.int32: "Int", torch.int64: "Long", torch.float16: "Half",
               torch.float32: "Float", torch.float64: "Double"}
# dimensioned (d_) and 0-dim (z_) operands of every dtype; m is a bool mask for where
BASE = [[1, 2, 3], [-1, -2, 4]]   # nonzero: integer division and remainder stay defined
POW_BASE = [[1, 2, 3], [0, 1, 2]]
POW_EXP = [[0, 1, 2], [3, 1, 2]]


def inputs(kind):
    vals, zero = (POW_BASE, 2) if kind == "pow_base" else (POW_EXP, 3) if kind == "pow_exp" else (BASE, -3)
    ins = {}
    for k, dt in DTYPES.items():
        ins["d_" + k] = torch.tensor(vals, dtype=torch.float64).to(dt) if dt != torch.bool else \
            torch.tensor([[True, False, True], [True, True, False]])
        ins["z_" + k] = torch.tensor(zero, dtype=torch.float64).to(dt) if dt != torch.bool else torch.tensor(True)
    ins["m"] = torch.tensor([[True, False, True], [False, True, False]])
    return ins


SCALARS = ["2", "-3", "2.5", "-1.5"]
POW_SCALARS = ["2", "3", "0.5", "2.0"]

# op: (template, dtype rule, in-place template or None)
BINARY = {
    "add": ("({a} + {b})", "promote", "{a}.clone().add_({b})"),
    "sub": ("({a} - {b})", "promote", "{a}.clone().sub_({b})"),
    "mul": ("({a} * {b})", "promote", "{a}.clone().mul_({b})"),
    "rmul": ("({b} * {a})", "promote", None),
    "div": ("({a} / {b})", "div", "{a}.clone().div_({b})"),
    "floor_divide": ("torch.floor_divide({a}, {b})", "promote", "{a}.clone().floor_divide_({b})"),
    "remainder": ("torch.remainder({a}, {b})", "promote", "{a}.clone().remainder_({b})"),
    "pow": ("torch.pow({a}, {b})", "promote", "{a}.clone().pow_({b})"),
    "eq": ("({a} == {b})", "bool", None),
    "ne": ("({a} != {b})", "bool", None),
    "lt": ("({a} < {b})", "bool", None),
    "le": ("({a} <= {b})", "bool", None),
    "gt": ("({a} > {b})", "bool", None),
    "ge": ("({a} >= {b})", "bool", None),
    "maximum": ("torch.maximum({a}, {b})", "promote", None),
    "minimum": ("torch.minimum({a}, {b})", "promote", None),
    "where": ("torch.where(m, {a}, {b})", "promote", None),
    "clamp_min": ("torch.clamp({a}, min={b})", "promote", "{a}.clone().clamp_(min={b})"),
    "bitwise_and": ("({a} & {b})", "promote", "{a}.clone().bitwise_and_({b})"),
    "bitwise_or": ("({a} | {b})", "promote", "{a}.clone().bitwise_or_({b})"),
    "bitwise_xor": ("({a} ^ {b})", "promote", None),
    "logical_and": ("torch.logical_and({a}, {b})", "bool", None),
    "atan2": ("torch.atan2({a}, {b})", "div", None),
}
# more forms, with their own rules: (template over {a} and {b}, rule, operands b may be)
FORMS = {
    "add_alpha": ("torch.add({a}, {b}, alpha=2)", "promote", "any"),
    "sub_alpha": ("torch.sub({a}, {b}, alpha=-3)", "promote", "any"),
    "rsub": ("({b} - {a})", "promote", "scalar"),
    "clamp_both": ("torch.clamp({a}, {b}, 2.5)", "promote3", "scalar"),
    "clamp_tensors": ("torch.clamp({a}, {b}, {b})", "promote", "tensor"),
    "where_scalars": ("torch.where(m, {b}, 2.5)", "where2", "scalar"),
    "masked_fill": ("{a}.masked_fill(m, {b})", "self", "scalar0"),
    "fill_": ("{a}.clone().fill_({b})", "self", "scalar0"),
    "copy_": ("{a}.clone().copy_({b})", "self", "tensor"),
}
# unary ops: (template, rule): keep = self's dtype, float = integers and bool give the default
# float dtype, long = integers and bool give int64, bool = bool
UNARY = {
    "neg": ("(-{a})", "keep"), "abs": ("torch.abs({a})", "keep"), "relu": ("torch.relu({a})", "keep"),
    "sign": ("torch.sign({a})", "keep"), "floor": ("torch.floor({a})", "keep"), "ceil": ("torch.ceil({a})", "keep"),
    "round": ("torch.round({a})", "keep"), "trunc": ("torch.trunc({a})", "keep"),
    "sqrt": ("torch.sqrt({a})", "float"), "exp": ("torch.exp({a})", "float"), "log": ("torch.log({a})", "float"),
    "sigmoid": ("torch.sigmoid({a})", "float"), "tanh": ("torch.tanh({a})", "float"),
    "sin": ("torch.sin({a})", "float"), "erf": ("torch.erf({a})", "float"),
    "reciprocal": ("torch.reciprocal({a})", "float"), "rsqrt": ("torch.rsqrt({a})", "float"),
    "logical_not": ("torch.logical_not({a})", "bool"), "isnan": ("torch.isnan({a})", "bool"),
    "bitwise_not": ("torch.bitwise_not({a})", "keep"),
    "sum": ("{a}.sum()", "long"), "cumsum": ("{a}.cumsum(0)", "long"), "prod": ("{a}.prod()", "long"),
    "mean": ("{a}.mean()", "keep"), "neg_": ("{a}.clone().neg_()", "keep"), "abs_": ("{a}.clone().abs_()", "keep"),
    "sqrt_": ("{a}.clone().sqrt_()", "keep"), "relu_": ("{a}.clone().relu_()", "keep"),
}
# ops that share another's promotion path: against a few operands only (time)
FEW = {"rmul": SCALARS, "ne": SCALARS + ["z_f64", "d_i16"], "le": SCALARS + ["z_f64", "d_i16"],
       "gt": SCALARS + ["z_i64", "d_f16"], "ge": SCALARS + ["z_i64", "d_f16"]}
TENSOR_ONLY = {"maximum", "minimum", "logical_and", "atan2", "bitwise_xor"}  # PyTorch takes no Python number there


def operand_names():
    return ["d_" + k for k in DTYPES] + ["z_" + k for k in DTYPES]


def expected_dtype(rule, a, b):
    """The rule under test, from torch.result_type; checked against eager below."""
    if rule == "bool":
        return torch.bool
    r = torch.result_type(a, b)
    if rule == "div" and not r.is_floating_point:
        return torch.get_default_dtype()
    return r


def unary_dtype(rule, a):
    if rule == "bool":
        return torch.bool
    if rule == "float" and not a.dtype.is_floating_point:
        return torch.get_default_dtype()
    if rule == "long" and not a.dtype.is_floating_point:
        return torch.int64
    return a.dtype


def form_dtype(rule, a, b):
    if rule == "self":
        return a.dtype
    if rule == "promote3":  # clamp(a, b, 2.5)
        return torch.result_type(torch.empty(0, dtype=torch.result_type(a, b)) if a.dim() else
                                 torch.tensor(0, dtype=torch.result_type(a, b)), 2.5)
    if rule == "where2":  # where(m, b, 2.5): two Python numbers
        return torch.result_type(torch.tensor(b), 2.5)
    return torch.result_type(a, b)


def build_unary(op):
    tpl, rule = UNARY[op]
    base = inputs(None)
    cases = []
    for an in operand_names():
        expr = tpl.format(a=an)
        try:
            with torch.no_grad():
                want = eval_expr(expr, base)
        except RuntimeError as e:
            cases.append(dict(op=op, expr=expr, refused=str(e).split("\n")[0]))
            continue
        if want.dtype != unary_dtype(rule, base[an]):
            raise SystemExit("generator: %s: eager gives %s, the rule %s" % (expr, want.dtype, unary_dtype(rule, base[an])))
        cases.append(dict(op=op, expr=expr, want=want))
    return cases


def build_form(op):
    tpl, rule, bkinds = FORMS[op]
    base = inputs(None)
    cases = []
    bs = []
    if bkinds in ("any", "tensor"):
        bs += operand_names()
    if bkinds in ("any", "scalar", "scalar0"):
        bs += SCALARS
    if bkinds == "scalar0":
        bs += ["z_" + k for k in DTYPES]
    for an in operand_names():
        for bn in bs:
            expr = tpl.format(a=an, b=bn)
            try:
                with torch.no_grad():
                    want = eval_expr(expr, base)
            except RuntimeError as e:
                cases.append(dict(op=op, expr=expr, refused=str(e).split("\n")[0]))
                continue
            rt = form_dtype(rule, base[an], base[bn] if bn in base else eval(bn))
            if want.dtype != rt:
                raise SystemExit("generator: %s: eager gives %s, the rule %s" % (expr, want.dtype, rt))
            cases.append(dict(op=op, expr=expr, want=want))
    return cases


def eval_expr(expr, env):
    return eval(expr, {"torch": torch}, dict(env))


def build_cases(op, inplace):
    tpl, rule, itpl = BINARY[op]
    if inplace:
        tpl = itpl
    base = inputs("pow_base" if op == "pow" else None)
    expo = inputs("pow_exp") if op == "pow" else base
    cases = []
    scal = POW_SCALARS if op == "pow" else SCALARS
    bs = FEW.get(op) or operand_names() + ([] if op in TENSOR_ONLY else scal)
    for an in operand_names():
        for bn in bs:
            env = dict(base)
            bval = expo[bn] if bn in expo else eval(bn)
            env["B"] = bval
            expr = tpl.format(a=an, b="B" if bn in expo else bn)
            # in the module, pow's exponent tensors are inputs of their own (e + name)
            mexpr = tpl.format(a=an, b=("e" + bn if op == "pow" else bn) if bn in expo else bn)
            try:
                with torch.no_grad():
                    want = eval_expr(expr, env)
            except RuntimeError as e:
                cases.append(dict(op=op, a=an, b=bn, expr=mexpr, refused=str(e).split("\n")[0]))
                continue
            rt = expected_dtype(rule, base[an], bval)
            if not inplace and want.dtype != rt:
                raise SystemExit("generator: %s: eager gives %s, the rule %s" % (expr, want.dtype, rt))
            if inplace and want.dtype != base[an].dtype:
                raise SystemExit("generator: %s: in place gives %s" % (expr, want.dtype))
            cases.append(dict(op=op, a=an, b=bn, expr=mexpr, want=want))
    return cases


def module_source(name, cases, names):
    body = ",\n            ".join(c["expr"].replace("{", "").replace("}", "") for c in cases)
    args = ", ".join(names)
    # a list: one short type ("Tensor[]") however many results
    return ("import torch\nfrom typing import List\n\n\nclass %s(torch.nn.Module):\n"
            "    def forward(self, %s) -> List[torch.Tensor]:\n"
            "        return [\n            %s,\n        ]\n" % (name, args, body))


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return getattr(m, name)()


def close(got, want):
    if got.dtype != want.dtype:
        return "dtype %s, PyTorch %s" % (got.dtype, want.dtype)
    if got.shape != want.shape:
        return "shape %s, PyTorch %s" % (got.shape, want.shape)
    if np.issubdtype(want.dtype, np.floating):
        g, w = got.astype(np.float64), want.astype(np.float64)
        tol = 1e-2 if want.dtype == np.float16 else 1e-6
        ok = (np.abs(g - w) <= tol * (1 + np.abs(w))) | (np.isnan(g) & np.isnan(w)) | (g == w)
        return None if ok.all() else "values %s, PyTorch %s" % (g.tolist(), w.tolist())
    return None if np.array_equal(got, want) else "values %s, PyTorch %s" % (got.tolist(), want.tolist())


def run_module(out, tag, cases, method, kind_inputs):
    d = os.path.join(out, tag)
    os.makedirs(d, exist_ok=True)
    names = [n for n in kind_inputs if any(re.search(r"\b%s\b" % n, c["expr"]) for c in cases)]
    src = os.path.join(d, "model_%s.py" % tag)
    cls = "M_" + tag
    with open(src, "w") as f:
        f.write(module_source(cls, cases, names))
    mod = load_module(src, cls)
    ins = [kind_inputs[n] for n in names]
    path = os.path.join(d, "model.json")
    with torch.no_grad():
        jit = torch.jit.script(mod) if method == "script" else \
            torch.jit.trace(mod, tuple(x.clone() for x in ins), strict=False, check_trace=False)
    mc_export.export(jit, tuple(x.clone() for x in ins), path, method=method)
    files = []
    for i, x in enumerate(ins):
        p = os.path.join(d, "in_%d.npy" % i)
        np.save(p, x.numpy())
        files.append(p)
    od = os.path.join(d, "out")
    r = subprocess.run([MC, "run", path] + files + ["-o", od], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        return ["mc run exited %d: %s" % (r.returncode, r.stdout[-3000:])]
    # mc compiles the graph, so the graph's own result is the reference; where TorchScript
    # computes something else than eager (scripted `2.5 - uint8_tensor` is `-x + 2.5`, which
    # wraps), the case counts as a TorchScript difference and mc must match the graph
    with torch.no_grad():
        graph_out = jit(*[x.clone() for x in ins])
    errs = []
    for k, c in enumerate(cases):
        got = np.load(os.path.join(od, "output_%d.npy" % k))
        want = c["want"].numpy()
        if close(graph_out[k].numpy(), want):
            TS_DIFFERS.append("%s (%s)" % (c["expr"], method))
            want = graph_out[k].numpy()
        msg = close(got, want)
        if msg:
            errs.append("%s: %s" % (c["expr"], msg))
    return errs


TS_DIFFERS = []


REFUSALS = [  # (expression, what mc's message must say)
    ("d_i64.add_(1.5)", "can't be cast"),
    ("d_i32.mul_(d_f32)", "can't be cast"),
    ("d_b.add_(d_i32)", "can't be cast"),
    ("d_i16.div_(2)", "can't be cast"),
    ("d_u8.clamp_(min=0.5)", "can't be cast"),
    ("z_f32.add_(d_f32)", "doesn't match the broadcast shape"),
    ("d_i32.pow(-2)", "negative integer powers"),
    ("d_b - d_b", "subtraction"),
    ("d_f32 & d_i32", "not implemented"),
]


def run_refusals(out, kind_inputs):
    errs = []
    for k, (expr, want) in enumerate(REFUSALS):
        names = [n for n in operand_names() if re.search(r"\b%s\b" % n, expr)]
        try:
            with torch.no_grad():
                eval_expr(expr, {n: kind_inputs[n].clone() for n in names})
            errs.append("%s: PyTorch runs it (the case is wrong)" % expr)
            continue
        except RuntimeError:
            pass
        d = os.path.join(out, "refuse_%d" % k)
        os.makedirs(d, exist_ok=True)
        src = os.path.join(d, "model_r%d.py" % k)
        with open(src, "w") as f:
            f.write(module_source("R%d" % k, [dict(expr=expr)], names))
        mod = load_module(src, "R%d" % k)
        # PyTorch raises on it, so no exporter runs it: a scripted text dump with the inputs' types
        text = str(torch.jit.script(mod).inlined_graph)
        for n in names:
            t = kind_inputs[n]
            ty = "%s(%sstrides=[%s], requires_grad=0, device=cpu)" % (
                TORCH_NAMES[t.dtype], "".join("%d, " % s for s in t.shape), ", ".join(str(s) for s in t.stride()))
            text = re.sub(r"%%(%s(\.\d+)?) : Tensor" % n, lambda m: "%%%s : %s" % (m.group(1), ty), text)
        path = os.path.join(d, "model.txt")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run([MC, "compile", path, "-o", os.path.join(d, "m.c")], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        located = [l for l in r.stdout.splitlines() if ": error: " in l and l.split(":")[1].isdigit()]
        if r.returncode != 1 or not located or want not in r.stdout:
            errs.append("%s: mc compile exited %d, wanted a located error with '%s':\n%s" % (
                expr, r.returncode, want, r.stdout[-1500:]))
    return errs


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/types")
    os.makedirs(out, exist_ok=True)
    ncases = nrefused = 0
    failed = []
    groups = [("arith", ["add", "sub", "mul", "rmul", "div"]),
              ("intdiv", ["floor_divide", "remainder"]),
              ("pow", ["pow"]),
              ("cmp", ["eq", "ne", "lt", "le", "gt", "ge", "logical_and"]),
              ("minmax", ["maximum", "minimum", "where", "clamp_min", "atan2"]),
              ("bitwise", ["bitwise_and", "bitwise_or", "bitwise_xor"])]
    groups += [("unary", list(UNARY)), ("forms", list(FORMS))]
    for gname, ops in groups:
        for inplace in (False, True) if gname not in ("unary", "forms") else (False,):
            cases = []
            for op in ops:
                if gname == "unary":
                    cases.extend(build_unary(op))
                elif gname == "forms":
                    cases.extend(build_form(op))
                elif not inplace or BINARY[op][2]:
                    cases.extend(build_cases(op, inplace))
            runnable = [c for c in cases if "want" in c]
            nrefused += len(cases) - len(runnable)
            if not runnable:
                continue
            kin = inputs("pow_base" if gname == "pow" else None)
            if gname == "pow":  # exponents come from their own tensors
                kin.update(("e" + k, v) for k, v in inputs("pow_exp").items())
            for method in ("script", "trace"):
                tag = "%s_%s_%s" % (gname, "inplace" if inplace else "out", method)
                errs = run_module(out, tag, runnable, method, kin)
                ncases += len(runnable)
                print("%s %s: %d cases" % ("ok  " if not errs else "FAIL", tag, len(runnable)))
                for e in errs[:20]:
                    print("    " + e)
                if errs:
                    failed.append(tag)
                sys.stdout.flush()
    errs = run_refusals(out, inputs(None))
    print("%s refusals: %d cases" % ("ok  " if not errs else "FAIL", len(REFUSALS)))
    for e in errs:
        print("    " + e)
    if errs:
        failed.append("refusals")
    if TS_DIFFERS:
        print("TorchScript itself differs from eager in %d cases, e.g. %s" % (len(TS_DIFFERS), TS_DIFFERS[0]))
    print("types: %d cases compiled and compared (%d combinations PyTorch refuses), %d refusals; %s" % (
        ncases, nrefused, len(REFUSALS), "FAILED: " + " ".join(failed) if failed else "all match"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
