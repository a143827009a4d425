"""cases_math.py — kernel cases for the math family (k_math.h), computed by PyTorch: every
unary op over the dtypes PyTorch accepts (and the ones it refuses, as errors), shapes, views,
edge values (0, -0, +-inf, NaN, domain edges, large and tiny magnitudes) and its in-place twin;
activations with their parameters; binary ops over dtype pairs, broadcasting, scalars and
edge values; shifts with counts beyond the width and negative counts; lerp/addcmul/addcdiv;
the scalar forms of scripted graphs (expected values from TorchScript)."""
import math

import torch

from cases_elementwise import (BOOL, F16, F32, F64, I8, I32, I64, U8, checked, expanded, rand,
                               strided, transposed)

A = torch.ops.aten
F = torch.nn.functional
BF16, I16 = torch.bfloat16, torch.int16
ALL = (F32, F64, F16, BF16, I64, I32, I16, I8, U8, BOOL)

SPECIAL = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5,
           3.0, -3.0, 25.0, -25.0, 1e-8, -1e-30, 88.0, -100.0, 0.999, -0.9999, 1e20, 7.25]

# name: (torch fn, parameters passed after self, has an in-place twin, domain of random inputs)
UNARY = {
    "acos": (torch.acos, [], True, "unit"), "asin": (torch.asin, [], True, "unit"),
    "atan": (torch.atan, [], True, None), "cosh": (torch.cosh, [], True, None),
    "sinh": (torch.sinh, [], True, None), "tan": (torch.tan, [], True, None),
    "acosh": (torch.acosh, [], True, "ge1"), "asinh": (torch.asinh, [], True, None),
    "atanh": (torch.atanh, [], True, "unit"), "log10": (torch.log10, [], True, "pos"),
    "log2": (torch.log2, [], True, "pos"), "exp2": (torch.exp2, [], True, None),
    "erfc": (torch.erfc, [], True, None), "erfinv": (torch.erfinv, [], True, "unit"),
    "sinc": (torch.sinc, [], True, None), "logit": (torch.logit, [], True, "prob"),
    "deg2rad": (torch.deg2rad, [], True, None), "rad2deg": (torch.rad2deg, [], True, None),
    "frac": (torch.frac, [], True, None), "square": (torch.square, [], True, None),
    "sgn": (torch.sgn, [], True, None), "nan_to_num": (torch.nan_to_num, [], True, None),
    "signbit": (torch.signbit, [], False, None), "isfinite": (torch.isfinite, [], False, None),
    "isinf": (torch.isinf, [], False, None), "isposinf": (torch.isposinf, [], False, None),
    "isneginf": (torch.isneginf, [], False, None), "isreal": (torch.isreal, [], False, None),
    "log_sigmoid": (F.logsigmoid, [], False, None), "selu": (F.selu, [], True, None),
    "celu": (lambda x: A.celu(x), [], True, None),
    "hardshrink": (lambda x: A.hardshrink(x), [], False, None),
    "softshrink": (lambda x: A.softshrink(x), [], False, None),
    "rrelu": (lambda x: A.rrelu(x), [], True, None),
}


def tol_for(*dts):
    """float16: 2e-3; bfloat16 (8 significant bits, results one rounding apart): 1e-2."""
    return 1e-2 if BF16 in dts else 2e-3 if F16 in dts else 1e-5


def try_case(w, op, inputs, fn, tol=1e-5):
    """A case from fn(*inputs), or an error case if PyTorch rejects the inputs (float16 too:
    the kernels refuse what PyTorch's CPU kernels are not built for)."""
    try:
        r = fn(*inputs)
    except (RuntimeError, IndexError) as e:  # noqa: F841
        w.error(op, inputs, check=fn)
        return
    w.case(op, inputs, [r], tol=tol)


def try_inplace(w, op, inputs, fn, tol=1e-5):
    """An in-place case (mutated=[0]), or an error case if PyTorch rejects the inputs."""
    try:
        fn(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
    except TypeError:  # no such overload
        return
    except (RuntimeError, IndexError):
        w.error(op, inputs, check=fn)
        return
    w.case(op, inputs, fn, tol=tol, mutated=[0])


def domain(x, dom):
    if not x.dtype.is_floating_point:
        return x
    if dom == "unit":
        return torch.tanh(x.double()).mul(0.999).to(x.dtype)
    if dom == "ge1":
        return (x.double().abs() + 1).to(x.dtype)
    if dom == "pos":
        return (x.double().abs() + 0.01).to(x.dtype)
    if dom == "prob":
        return torch.sigmoid(x.double()).to(x.dtype)
    return x


def unary_cases(w):
    for name, (fn, extra, inplace, dom) in UNARY.items():
        op = "aten::" + name
        for dt in ALL:
            tol = tol_for(dt)
            # every dtype once; float32 and int64 through every shape and layout
            full = dt in (F32, I64)
            for shape in ((3, 4), (), (0, 2), (2, 3, 5)) if full else ((3, 4),):
                try_case(w, op, [domain(rand(shape, dt), dom)] + extra, fn, tol)
            x = domain(rand((4, 3), dt), dom)
            try_case(w, op, [strided(x)] + extra, fn, tol)
            if full:
                try_case(w, op, [transposed(x)] + extra, fn, tol)
                try_case(w, op, [domain(expanded((3, 5), dt), dom)] + extra, fn, tol)
        for dt in (F32, F64, BF16):
            s = torch.tensor(SPECIAL, dtype=dt)
            if name == "erfinv" and dt != F64:
                s = s[(s.abs() < 0.9999) | (s.abs() >= 1) | s.isnan()]  # float erfinv is ill-conditioned near 1
            try_case(w, op, [s] + extra, fn, 1e-5 if dt != BF16 else 1e-2)
        # integers at the edges of their range (cast to float32 first)
        big = torch.tensor([2 ** 62, -2 ** 63, 2 ** 31 - 1, 3, 0], dtype=I64)
        try_case(w, op, [big] + extra, fn)
        if inplace:
            ip = getattr(A, name + "_")
            for dt in ALL:
                x = domain(rand((3, 4), dt), dom)
                try_inplace(w, op + "_", [transposed(x)] + extra, lambda t, *r, ip=ip: ip(t, *r), tol_for(dt))
            base = domain(rand((4, 4), F32), dom)
            w.case(op + "_", [base[1:3, ::2]] + extra, lambda t, *r, ip=ip: ip(t, *r), mutated=[0])


def param_cases(w):
    x = rand((4, 5), F32) * 3
    xd = rand((3, 4), F64) * 3
    p = torch.tensor([-0.5, 0.0, 0.1, 0.5, 0.9, 1.0, 1.5, float("nan"), 0.999, 1e-7])
    for eps in (None, 0.0, 1e-6, 0.1, 0.5, -0.1):
        w.case("aten::logit", [p, eps], [torch.logit(p, eps)])
        w.case("aten::logit", [p.double(), eps], [torch.logit(p.double(), eps)])
        w.case("aten::logit_", [p.clone(), eps], lambda t, e: t.logit_(e), mutated=[0])
    w.case("aten::logit", [torch.tensor([0, 1, 2]), 0.25], [torch.logit(torch.tensor([0, 1, 2]), 0.25)])
    # eps > 0.5: PyTorch's vector loop (16-element blocks of float32) clamps everything to
    # 1 - eps, its scalar tail to eps below eps; mc follows the vector loop
    p16 = torch.linspace(-0.5, 1.5, 32)
    w.case("aten::logit", [p16, 0.6], [torch.logit(p16, 0.6)])
    s = torch.tensor(SPECIAL)
    for args in ((), (1.5,), (1.5, 100.0), (0.0, 1e39, -1e39), (None, None, -7.0), (-1.0, 2.0, 3.0)):
        fnn = lambda t, *a: torch.nan_to_num(t, *a)  # noqa: E731
        full = list(args) + [None] * (3 - len(args))
        for dt in (F32, F64, F16, BF16):
            t = s.to(dt)
            w.case("aten::nan_to_num", [t] + full, lambda t, *a: fnn(t, *a), tol=tol_for(dt))
        w.case("aten::nan_to_num_", [strided(s)] + full, lambda t, *a: t.nan_to_num_(*a), mutated=[0])
        w.case("aten::nan_to_num", [rand((3,), I32)] + full, lambda t, *a: fnn(t, *a))
    for alpha in (1.0, 0.5, 2, -1.5):
        w.case("aten::celu", [x, alpha], [A.celu(x, alpha)])
        w.case("aten::celu", [xd, alpha], [A.celu(xd, alpha)])
        w.case("aten::celu_", [transposed(x), alpha], lambda t, a: A.celu_(t, a), mutated=[0])
    w.error("aten::celu", [x, 0])
    w.error("aten::celu", [x, 0.0])
    for lambd in (0.5, 0.0, 1.7, -0.5):
        for t in (x, xd, s, s.to(BF16)):
            if lambd < 0:
                w.case("aten::hardshrink", [t, lambd], [A.hardshrink(t, lambd)])
                w.error("aten::softshrink", [t, lambd])
                continue
            tol = 1e-2 if t.dtype == BF16 else 1e-5
            w.case("aten::hardshrink", [t, lambd], [A.hardshrink(t, lambd)], tol=tol)
            w.case("aten::softshrink", [t, lambd], [A.softshrink(t, lambd)], tol=tol)
    # threshold: floats and integers, the bounds converted to self's dtype (checked)
    for t in (x, xd, s, rand((3, 4), I64), rand((5,), I32), rand((4,), U8), rand((2, 3), I8), s.to(BF16)):
        for th, val in ((0.5, -2.0), (1, 10), (-1.5, 2.5), (0, 0), (2, 3.75)):
            try_case(w, "aten::threshold", [t, th, val], lambda a, b, c: A.threshold(a, b, c), tol_for(t.dtype))
        try_inplace(w, "aten::threshold_", [transposed(t) if t.dim() > 1 else strided(t), 0.5, -1],
                    lambda a, b, c: A.threshold_(a, b, c), tol_for(t.dtype))
    w.error("aten::threshold", [rand((3,), U8), 2, 300])
    w.error("aten::threshold", [rand((3,), BOOL), 0, 1])
    w.error("aten::threshold", [rand((3,), F16), 0, 1])
    # rrelu in eval mode
    for lo, hi in ((0.125, 1 / 3), (0.1, 0.3), (0.5, 0.5), (-0.2, 0.0)):
        w.case("aten::rrelu", [x, lo, hi, False, None], [A.rrelu(x, lo, hi, False)])
        w.case("aten::rrelu", [xd, lo, hi, False, None], [A.rrelu(xd, lo, hi, False)])
        w.case("aten::rrelu_", [strided(x), lo, hi, False, None], lambda t, a, b, tr, g: A.rrelu_(t, a, b, tr),
               mutated=[0])
    w.error("aten::rrelu", [x, 0.3, 0.1, False, None])
    # training=True draws random slopes: refused (PyTorch accepts it; not an error case there)
    # glu
    for dt in (F32, F64, BF16):
        t = rand((4, 6, 2), dt)
        for d in (0, 1, 2, -1, -3):
            w.case("aten::glu", [t, d], [A.glu(t, d)], tol=tol_for(dt) if dt != BF16 else 1e-2)
        w.case("aten::glu", [transposed(t), 1], [A.glu(transposed(t), 1)], tol=tol_for(dt) if dt != BF16 else 1e-2)
        w.case("aten::glu", [strided(rand((3, 4), dt)), -1], lambda a, d: A.glu(a, d), tol=1e-2 if dt == BF16 else 1e-5)
    w.case("aten::glu", [s.reshape(1, -1)[:, :22], -1], lambda a, d: A.glu(a, d))
    w.case("aten::glu", [rand((0, 4), F32), 1], lambda a, d: A.glu(a, d))
    w.error("aten::glu", [rand((3, 3), F32), 0])
    w.error("aten::glu", [torch.tensor(2.0), 0])
    w.error("aten::glu", [rand((4, 2), F32), 2])
    w.error("aten::glu", [rand((4, 2), I64), 0])
    w.error("aten::glu", [rand((4, 2), F16), 0])
    # prelu: one weight or one per channel (dim 1)
    for dt in (F32, F64, BF16):
        tol = 1e-2 if dt == BF16 else 1e-5
        for shape, wn in (((2, 3, 4), 3), ((2, 3, 4), 1), ((2, 3), 3), ((5,), 1), ((), 1), ((2, 3, 2, 2), 3),
                          ((1, 4, 0), 4)):
            t, wt = rand(shape, dt), rand((wn,), dt)
            w.case("aten::prelu", [t, wt], [A.prelu(t, wt)], tol=tol)
        t = rand((2, 3, 4), dt)
        w.case("aten::prelu", [transposed(t), strided(rand((3,), dt))], lambda a, b: A.prelu(a, b), tol=tol)
        w.case("aten::prelu", [t, torch.tensor(0.25, dtype=dt)], [A.prelu(t, torch.tensor(0.25, dtype=dt))], tol=tol)
    w.case("aten::prelu", [s, torch.tensor([-0.5])], [A.prelu(s, torch.tensor([-0.5]))])
    w.error("aten::prelu", [rand((3,), F32), rand((3,), F32)])
    w.error("aten::prelu", [rand((2, 3), F32), rand((2,), F32)])
    w.error("aten::prelu", [rand((2, 3), F32), rand((3, 1), F32)])
    w.error("aten::prelu", [rand((2, 3), F32), rand((3,), F64)])
    w.error("aten::prelu", [rand((2, 3), I64), rand((3,), I64)])
    # positive: self itself; is_floating_point; is_nonzero
    for dt in ALL:
        t = rand((2, 3), dt)
        if dt == BOOL:
            w.error("aten::positive", [t])
        else:
            w.case("aten::positive", [t], [A.positive(t)])
        w.case("aten::is_floating_point", [t], [A.is_floating_point(t)])
        w.case("aten::is_nonzero", [t[:1, 1:2]], [A.is_nonzero(t[:1, 1:2])])
        w.case("aten::is_nonzero", [torch.zeros((), dtype=dt)], [False])
    w.case("aten::positive", [transposed(x)], lambda t: A.positive(t))
    w.case("aten::is_nonzero", [torch.tensor([[float("nan")]])], [True])
    w.case("aten::is_nonzero", [torch.tensor([-0.0])], [False])
    w.error("aten::is_nonzero", [torch.zeros(0)])
    w.error("aten::is_nonzero", [torch.ones(2)])
    # square of bool promotes to int64; its in-place twin cannot write that into bool
    w.error("aten::square_", [rand((3,), BOOL)])


def _s_acos(a: float):
    return math.acos(a)


def _s_acos_i(a: int):
    return math.acos(a)


def _s_log10(a: float):
    return math.log10(a)


def _s_erfc(a: float):
    return math.erfc(a)


def _s_atanh(a: float):
    return math.atanh(a)


def _s_isinf(a: float):
    return math.isinf(a)


def _s_isfinite(a: float):
    return math.isfinite(a)


def _s_fmod(a: float, b: float):
    return math.fmod(a, b)


def _s_fmod_i(a: int, b: int):
    return math.fmod(a, b)


def _s_copysign(a: float, b: float):
    return math.copysign(a, b)


def _s_ldexp(a: float, b: int):
    return math.ldexp(a, b)


def _s_gcd(a: int, b: int):
    return math.gcd(a, b)


def _s_lshift(a: int, b: int):
    return a << b


def _s_rshift(a: int, b: int):
    return a >> b


def scalar_cases(w):
    """Scalar forms of scripted graphs: expected values from TorchScript."""
    for fn, op, args in ((_s_acos, "aten::acos", [0.5, -1.0, 2.0]), (_s_acos_i, "aten::acos", [1, 0]),
                         (_s_log10, "aten::log10", [1000.0, 0.0]), (_s_erfc, "aten::erfc", [0.5, -3.0]),
                         (_s_atanh, "aten::atanh", [0.25]),
                         (_s_isinf, "aten::isinf", [float("inf"), 1.0, float("nan")]),
                         (_s_isfinite, "aten::isfinite", [float("-inf"), 2.5])):
        f = checked(torch.jit.script(fn), op)
        for a in args:
            w.case(op, [a], [f(a)], tol=1e-12)
    for fn, op, args in ((_s_fmod, "aten::fmod", [(5.5, 2.0), (-5.5, 2.0), (1.0, 0.0)]),
                         (_s_fmod_i, "aten::fmod", [(7, 3), (-7, 3), (5, 0)]),
                         (_s_copysign, "aten::copysign", [(2.0, -0.0), (-3.0, 1.0)]),
                         (_s_ldexp, "aten::ldexp", [(1.5, 3), (1.0, -1075), (3.0, 1024)]),
                         (_s_gcd, "aten::gcd", [(12, 18), (-12, 18), (0, 0), (7, -21)]),
                         (_s_lshift, "aten::__lshift__", [(3, 1), (3, 63), (3, 64), (-5, -1), (5, 100)]),
                         (_s_rshift, "aten::__rshift__", [(-5, 1), (3, 64), (-5, 100), (7, -1), (-9, 2)])):
        f = checked(torch.jit.script(fn), op)
        for a, b in args:
            w.case(op, [a, b], [f(a, b)], tol=1e-12)


BINARY = {
    # name: (fn, dtype kinds of operands used, has in-place twin, takes a Scalar other)
    "fmod": (torch.fmod, True, True), "hypot": (torch.hypot, True, False),
    "copysign": (torch.copysign, True, True), "xlogy": (torch.xlogy, True, True),
    "logaddexp": (torch.logaddexp, False, False), "logaddexp2": (torch.logaddexp2, False, False),
    "float_power": (torch.float_power, True, True), "heaviside": (torch.heaviside, True, False),
    "nextafter": (torch.nextafter, True, False), "ldexp": (torch.ldexp, True, False),
    "gcd": (torch.gcd, True, False), "lcm": (torch.lcm, True, False),
    "__lshift__": (lambda a, b: a << b, True, True), "__rshift__": (lambda a, b: a >> b, True, True),
    "bitwise_left_shift": (torch.bitwise_left_shift, True, True),
    "bitwise_right_shift": (torch.bitwise_right_shift, True, True),
}
PAIRS = [(F32, F32), (F64, F64), (F16, F16), (BF16, BF16), (I64, I64), (I32, I32), (I16, I16), (I8, I8),
         (U8, U8), (BOOL, BOOL), (F32, F64), (I64, F32), (I32, I64), (U8, I8), (BOOL, I32), (F16, F32),
         (BF16, F32), (I64, BOOL)]
SHAPES = [((3, 4), (3, 4)), ((3, 1), (4,)), ((), (5,)), ((0, 3), (3,)), ((2, 1, 3), (1, 4, 1))]


def operands(name, da, db, sa, sb):
    a, b = rand(sa, da), rand(sb, db)
    if name in ("fmod",) and not (da.is_floating_point or db.is_floating_point):
        b = rand(sb, db, nonzero=True)
    if "shift" in name:
        if db != BOOL:
            b = rand(sb, db, lo=0, hi=7)
    if name == "xlogy" and db.is_floating_point:
        b = b.abs()
    if name == "ldexp" and not db.is_floating_point:
        b = rand(sb, db, lo=-3, hi=4)
    if name == "float_power" and da.is_floating_point:
        a = a.abs()
    return a, b


def binary_cases(w):
    for name, (fn, inplace, scalar) in BINARY.items():
        op = "aten::" + name
        for da, db in PAIRS:
            tol = tol_for(da, db)
            # every pair broadcast once; float32 and int32 pairs through every shape and layout
            full = (da, db) in ((F32, F32), (I32, I32))
            for sa, sb in SHAPES if full else SHAPES[1:2]:
                a, b = operands(name, da, db, sa, sb)
                try_case(w, op, [a, b], fn, tol)
            a, b = operands(name, da, db, (3, 4), (3, 4))
            try_case(w, op, [strided(a), transposed(b)], fn, tol)
            if full:
                try_case(w, op, [expanded((3, 4), da), strided(b)], fn, tol)
            if inplace:
                ip = getattr(A, name + "_") if not name.startswith("__") else getattr(A, "__i" + name[2:])
                opi = op + "_" if not name.startswith("__") else "aten::__i" + name[2:]
                a, b = operands(name, da, db, (3, 4), (4,))
                try_inplace(w, opi, [transposed(a), b], lambda x, y, ip=ip: ip(x, y), tol)
        if scalar:
            for da in (F32, F64, I64, I32, U8, I8, BF16):
                a = rand((2, 3), da, lo=-3, hi=4)
                for s in (2, -3, 2.5, 0.5, 7):
                    if "shift" in name and isinstance(s, float):
                        continue
                    if name == "fmod" and s == 0:
                        continue
                    try:
                        r = fn(a, s)
                    except (RuntimeError, TypeError):
                        continue
                    w.case(op, [a, s], [r], tol=tol_for(da) if da != BF16 else 1e-2)
    # edge values in floats
    sp = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1.0, -2.5, 3.0, 1e-30, 1e30, 0.0,
                       float("inf"), 5.0])
    sq = torch.tensor([1.0, float("nan"), 2.0, -0.0, 0.0, float("inf"), -0.0, 0.0, -1e-30, 1e30, float("nan"),
                       float("inf"), -1.5])
    for name in ("fmod", "hypot", "copysign", "xlogy", "logaddexp", "logaddexp2", "float_power", "heaviside",
                 "nextafter"):
        fn = BINARY[name][0]
        for x, y in ((sp, sq), (sq, sp), (sp.double(), sq.double())):
            w.case("aten::" + name, [x, y], [fn(x, y)])
    w.case("aten::ldexp", [sp, torch.tensor([1, 2, 3, -1, 0, 200, -200, 1, 3, 10, 0, -1, 1])],
           lambda a, b: torch.ldexp(a, b))
    w.case("aten::ldexp", [rand((3,), F64), torch.tensor([1.5, -2.0, 0.25])], lambda a, b: torch.ldexp(a, b))
    w.case("aten::nextafter", [torch.tensor([0.0, -0.0, 1.0, 0.0], dtype=BF16),
                               torch.tensor([1.0, -1.0, 0.0, -0.0], dtype=BF16)],
           lambda a, b: torch.nextafter(a, b))
    w.case("aten::xlogy", [2.0, rand((3, 2), F32).abs()], lambda a, b: torch.xlogy(a, b))
    w.case("aten::xlogy", [3, rand((4,), I64, lo=0)], lambda a, b: torch.xlogy(a, b))
    w.case("aten::float_power", [2, rand((4,), I64)], lambda a, b: torch.float_power(a, b))
    w.case("aten::float_power", [-1.5, rand((4,), F32)], lambda a, b: torch.float_power(a, b))
    w.case("aten::bitwise_left_shift", [3, rand((4,), I32, lo=0, hi=5)], lambda a, b: torch.bitwise_left_shift(a, b))
    w.case("aten::bitwise_right_shift", [-100, rand((4,), I64, lo=0, hi=5)],
           lambda a, b: torch.bitwise_right_shift(a, b))
    # shifts beyond the width and negative counts (the rule written in k_math.h)
    for dt, bits in ((I64, 64), (I32, 32), (I16, 16), (I8, 8), (U8, 8)):
        counts = [0, 1, bits - 1, bits, bits + 1, 100, -1, -3, 127] if dt != U8 else [0, 1, 7, 8, 9, 100, 255, 31, 32]
        vals = [-5, 7, -128, 1, 3, -1, 0, 100, -77] if dt != U8 else [250, 7, 128, 1, 3, 255, 0, 100, 77]
        a, b = torch.tensor(vals, dtype=dt), torch.tensor(counts, dtype=dt)
        w.case("aten::__lshift__", [a, b], lambda x, y: x << y)
        w.case("aten::__rshift__", [a, b], lambda x, y: x >> y)
        for s in (bits, bits + 1, -1, 3):
            if dt == U8 and s < 0:
                continue
            w.case("aten::__lshift__", [a, s], lambda x, y: x << y)
            w.case("aten::__rshift__", [a, s], lambda x, y: x >> y)
    # integer edges: fmod with negative operands and divisor -1, gcd/lcm of the most negative values
    w.case("aten::fmod", [torch.tensor([7, -7, 7, -7, 5]), torch.tensor([3, 3, -3, -3, -1])],
           lambda a, b: torch.fmod(a, b))
    w.case("aten::fmod", [torch.tensor([5, -5], dtype=I8), 260], lambda a, b: torch.fmod(a, b))
    w.case("aten::fmod", [rand((4,), F16), 1.5], lambda a, b: torch.fmod(a, b), tol=2e-3)
    for dt, lo in ((I64, -2 ** 63), (I32, -2 ** 31), (I16, -2 ** 15), (I8, -128)):
        a = torch.tensor([lo, 0, -4, 6, 12, lo, 100, -7], dtype=dt)
        b = torch.tensor([3, 0, 6, -4, 18, 6, 3, 0], dtype=dt)
        w.case("aten::gcd", [a, b], lambda x, y: torch.gcd(x, y))
        w.case("aten::lcm", [a, b], lambda x, y: torch.lcm(x, y))
    w.case("aten::lcm", [torch.tensor([2 ** 62, 3 ** 20], dtype=I64), torch.tensor([3, 5 ** 13])],
           lambda x, y: torch.lcm(x, y))
    w.case("aten::lcm", [torch.tensor([200, 15], dtype=U8), torch.tensor([3, 10], dtype=U8)],
           lambda x, y: torch.lcm(x, y))
    # errors
    w.error("aten::fmod", [rand((3,), I64), 0])
    w.error("aten::fmod", [rand((3,), I32), torch.tensor([1, 0, 2], dtype=I32)])
    w.error("aten::fmod_", [rand((3,), I64), torch.zeros(3, dtype=I64)])
    w.error("aten::heaviside", [rand((3,), F32), rand((3,), F64)])
    w.error("aten::float_power_", [rand((3,), F32), 2])
    w.error("aten::__ilshift__", [rand((3,), I64), 2.5])
    w.error("aten::copysign_", [rand((3,), I64), rand((3,), I64)])
    w.error("aten::hypot", [rand((3,), F32), rand((4,), F32)])


def bitwise_inplace_cases(w):
    """x &= y, x |= y, x ^= y as traced graphs record them (aten::__iand__ ...), and
    x.bitwise_xor_(y)."""
    for name, fn in (("__iand__", lambda a, b: a.__iand__(b)), ("__ior__", lambda a, b: a.__ior__(b)),
                     ("__ixor__", lambda a, b: a.__ixor__(b)), ("bitwise_xor_", lambda a, b: a.bitwise_xor_(b))):
        op = "aten::" + name
        for da, db in ((I64, I64), (I32, I64), (U8, U8), (BOOL, BOOL), (I8, BOOL), (I16, I32)):
            try_inplace(w, op, [rand((3, 4), da), rand((4,), db)], fn)
            try_inplace(w, op, [transposed(rand((3, 4), da)), strided(rand((3, 4), db))], fn)
        w.case(op, [rand((2, 3), I64), 6], fn, mutated=[0])
        w.case(op, [rand((2, 3), I32), -1], fn, mutated=[0])
        base = rand((4, 4), I64)
        w.case(op, [base[1:3, ::2], base[0, :2]], fn, mutated=[0])
        w.error(op, [rand((3,), F32), rand((3,), F32)])
        w.error(op, [rand((3,), BOOL), rand((3,), I64)])
        w.error(op, [rand((3,), I32), rand((2, 3), I32)])


def ternary_cases(w):
    for dt in (F32, F64, BF16):
        tol = 1e-2 if dt == BF16 else 1e-5
        s, e = rand((3, 4), dt), rand((3, 4), dt)
        for wt in (0.5, 0.25, 0.75, -1.0, 2, 0, 1):
            w.case("aten::lerp", [s, e, wt], [torch.lerp(s, e, wt)], tol=tol)
        w.case("aten::lerp", [s, rand((4,), dt), rand((3, 1), dt)], lambda a, b, c: torch.lerp(a, b, c), tol=tol)
        w.case("aten::lerp", [rand((4,), dt), rand((2, 1, 4), dt), 0.3], lambda a, b, c: torch.lerp(a, b, c), tol=tol)
        w.case("aten::lerp", [strided(s), transposed(e), expanded((3, 4), dt)], lambda a, b, c: torch.lerp(a, b, c),
               tol=tol)
        w.case("aten::lerp_", [transposed(s), e, 0.4], lambda a, b, c: a.lerp_(b, c), mutated=[0], tol=tol)
        w.case("aten::lerp_", [s.clone(), rand((4,), dt), rand((3, 4), dt)], lambda a, b, c: a.lerp_(b, c),
               mutated=[0], tol=tol)
    sp = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0, 1.0, -2.0])
    w.case("aten::lerp", [sp, sp.flip(0), torch.tensor([0.5, 0.25, 0.75, float("nan"), 1.0, 0.0])],
           lambda a, b, c: torch.lerp(a, b, c))
    w.error("aten::lerp", [rand((3,), F32), rand((3,), F64), 0.5])
    w.error("aten::lerp", [rand((3,), F32), rand((3,), F32), rand((3,), F64)])
    w.error("aten::lerp", [rand((3,), I64), rand((3,), I64), 0.5])
    w.error("aten::lerp_", [rand((3,), F32), rand((2, 3), F32), 0.5])
    # addcmul / addcdiv: promotion over the three tensors, value cast to the common dtype
    triples = [(F32, F32, F32), (F64, F32, F32), (F32, I64, I64), (I64, I64, I64), (I32, I64, I32), (U8, U8, U8),
               (F32, F32, F64), (BF16, BF16, BF16), (I64, F32, I64), (I8, U8, I8), (BOOL, BOOL, BOOL),
               (F16, F16, F16)]
    for name in ("addcmul", "addcdiv"):
        fn = getattr(torch, name)
        op = "aten::" + name
        for d0, d1, d2 in triples:
            tol = 1e-2 if BF16 in (d0, d1, d2) else 1e-5
            for v in (1, 0.5, -2, 3):
                s, t1, t2 = rand((3, 4), d0), rand((4,), d1), rand((3, 1), d2, nonzero=True)
                try_case(w, op, [s, t1, t2, v], lambda a, b, c, vv: fn(a, b, c, value=vv), tol)
            try_inplace(w, op + "_", [transposed(rand((3, 4), d0)), strided(rand((3, 4), d1)),
                                      rand((4,), d2, nonzero=True), 2],
                        lambda a, b, c, vv, fn=fn: getattr(a, name + "_")(b, c, value=vv), tol)
        w.case(op, [sp, sp.flip(0), torch.tensor([1.0, 0.0, 2.0, -0.0, float("inf"), 3.0]), 1.5],
               lambda a, b, c, v: fn(a, b, c, value=v))
    u = torch.tensor([1, 250], dtype=U8)
    w.case("aten::addcmul", [u, torch.tensor([200, 3], dtype=U8), torch.tensor([2, 7], dtype=U8), 3],
           lambda a, b, c, v: torch.addcmul(a, b, c, value=v))
    w.case("aten::addcmul", [rand((3,), I64), rand((3,), I64), rand((3,), I64), 2.5],
           lambda a, b, c, v: torch.addcmul(a, b, c, value=v))
    w.error("aten::addcdiv", [rand((3,), F32), rand((3,), I64), rand((3,), I64), 1])
    w.error("aten::addcmul", [rand((3,), F32), rand((3,), F32), rand((2, 3), F32), 1])


def cases(w):
    unary_cases(w)
    param_cases(w)
    scalar_cases(w)
    binary_cases(w)
    bitwise_inplace_cases(w)
    ternary_cases(w)
