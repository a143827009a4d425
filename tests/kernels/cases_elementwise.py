"""cases_elementwise.py — kernel cases for the elementwise family (k_elementwise.h), computed
by PyTorch: binary ops over dtype pairs, broadcasting, views, 0-dim and empty tensors, Python
scalars; the int/float arithmetic of scripted graphs (expected values from TorchScript itself);
unary ops and activations; clamp/where/masked_fill; casts, fills, creation ops; every in-place
twin (mutated=[0]); and the errors PyTorch raises (w.error)."""
import math

import torch

F32, F64, F16, I64, I32, I8, U8, BOOL = (torch.float32, torch.float64, torch.float16, torch.int64,
                                         torch.int32, torch.int8, torch.uint8, torch.bool)


def rand(shape, dt, lo=-5, hi=6, nonzero=False):
    if dt.is_floating_point:
        t = torch.randn(shape, dtype=torch.float64).mul(2).to(dt)
        if nonzero:
            t = torch.where(t == 0, torch.ones_like(t), t)
        return t
    if dt == BOOL:
        return torch.randint(0, 2, shape).bool()
    if dt == U8:
        lo, hi = max(lo, 0) + (1 if nonzero else 0), max(hi, 2)
        return torch.randint(lo, hi, shape).to(dt)
    t = torch.randint(lo, hi, shape).to(dt)
    if nonzero:
        t = torch.where(t == 0, torch.ones_like(t), t)
    return t


def strided(t):
    """The same values as a non-contiguous view (every dim stepped by 2, nonzero offset)."""
    if t.dim() == 0:
        return t
    big = torch.zeros([2 * s + 1 for s in t.shape], dtype=t.dtype)
    v = big[tuple(slice(1, 1 + 2 * s, 2) for s in t.shape)]
    v.copy_(t)
    return v


def transposed(t):
    if t.dim() < 2:
        return strided(t)
    return t.transpose(0, 1).contiguous().transpose(0, 1)


def expanded(shape, dt, **kw):
    """A stride-0 broadcast view of shape (first dim expanded)."""
    base = rand([1] + list(shape[1:]), dt, **kw)
    return base.expand(*shape)


def scripted(src, argtypes, op):
    """A TorchScript function `f` of the given expression; checks the graph uses `op`."""
    args = ", ".join("%s: %s" % (n, t) for n, t in zip("abc", argtypes))
    cu = torch.jit.CompilationUnit("def f(%s):\n    return %s\n" % (args, src))
    return checked(cu.f, op)


def checked(f, op):
    kinds = [n.kind() for n in f.graph.nodes()]
    assert op in kinds, (op, kinds)
    return f


def _s_neg_i(a: int):
    return -a


def _s_neg_f(a: float):
    return -a


def _s_floor(a: float):
    return math.floor(a)


def _s_ceil(a: float):
    return math.ceil(a)


def _s_sqrt_f(a: float):
    return math.sqrt(a)


def _s_sqrt_i(a: int):
    return math.sqrt(a)


def _s_exp(a: float):
    return math.exp(a)


def _s_log(a: float):
    return math.log(a)


def _s_tanh(a: float):
    return math.tanh(a)


def _s_tensor_f(a: float):
    return torch.tensor(a)


def _s_tensor_i(a: int):
    return torch.tensor(a)


SHAPE_PAIRS = [((3, 4), (3, 4)), ((3, 1), (4,)), ((2, 3, 4), (3, 1)), ((), (5,)), ((4,), ()),
               ((0, 3), (3,)), ((1,), (2, 2)), ((2, 1, 3), (1, 4, 1))]

BINARY = {
    # name: (torch fn on (a, b), extra node inputs, allowed dtype kinds, needs nonzero divisor)
    "add": (lambda a, b: torch.add(a, b), [1], "fib", False),
    "sub": (lambda a, b: torch.sub(a, b), [1], "fi", False),
    "mul": (torch.mul, [], "fib", False),
    "div": (torch.div, [], "fib", False),
    "remainder": (torch.remainder, [], "fi", True),
    "floor_divide": (torch.floor_divide, [], "fi", True),
    "pow": (torch.pow, [], "fi", False),
    "maximum": (torch.maximum, [], "fib", False),
    "minimum": (torch.minimum, [], "fib", False),
    "atan2": (torch.atan2, [], "fi", False),
    "eq": (torch.eq, [], "fib", False),
    "ne": (torch.ne, [], "fib", False),
    "lt": (torch.lt, [], "fib", False),
    "le": (torch.le, [], "fib", False),
    "gt": (torch.gt, [], "fib", False),
    "ge": (torch.ge, [], "fib", False),
    "logical_and": (torch.logical_and, [], "fib", False),
    "logical_or": (torch.logical_or, [], "fib", False),
    "logical_xor": (torch.logical_xor, [], "fib", False),
    "bitwise_and": (torch.bitwise_and, [], "ib", False),
    "bitwise_or": (torch.bitwise_or, [], "ib", False),
    "bitwise_xor": (torch.bitwise_xor, [], "ib", False),
}
DTYPE_PAIRS = [(F32, F32), (F64, F32), (F32, F64), (I64, I64), (I32, I64), (U8, U8), (BOOL, BOOL),
               (I64, F32), (BOOL, I64), (U8, I8), (F16, F32), (I32, BOOL), (F16, F16), (I8, I8)]


def try_case(w, op, inputs, fn, tol=1e-5):
    """A case from fn(*inputs); if PyTorch rejects the inputs, an error case instead (except
    for float16 gaps of PyTorch's CPU kernels, which are skipped)."""
    try:
        r = fn(*inputs)
    except (RuntimeError, IndexError) as e:
        if "not implemented for 'Half'" in str(e):
            return
        w.error(op, inputs, check=fn)
        return
    w.case(op, inputs, [r], tol=tol)


def try_inplace(w, op, inputs, fn, tol=1e-5):
    """An in-place case (mutated=[0]), or an error case if PyTorch rejects the inputs."""
    try:
        fn(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
    except TypeError:  # no such overload (a Scalar where the op takes a Tensor)
        return
    except (RuntimeError, IndexError) as e:
        if "not implemented for 'Half'" not in str(e):
            w.error(op, inputs, check=fn)
        return
    w.case(op, inputs, fn, tol=tol, mutated=[0])


def kind(dt):
    return "f" if dt.is_floating_point else "b" if dt == BOOL else "i"


def operands(name, da, db, sa, sb):
    _, _, _, nz = BINARY[name]
    a = rand(sa, da)
    b = rand(sb, db, nonzero=nz)
    if name == "pow":
        if not db.is_floating_point:
            b = rand(sb, db, lo=0, hi=4)
        if not da.is_floating_point:
            a = rand(sa, da, lo=-3, hi=4)
        else:
            a = a.abs() + 0.1 if db.is_floating_point else a
    return a, b


def tol_for(*dts):
    return 2e-3 if any(d in (F16, torch.bfloat16) for d in dts) else 1e-5


def binary_cases(w):
    for name, (fn, extra, kinds, nz) in BINARY.items():
        op = "aten::" + name
        for da, db in DTYPE_PAIRS:
            if kind(da) not in kinds or kind(db) not in kinds:
                continue
            if name == "sub" and BOOL in (da, db):
                continue
            if name == "pow" and (da == BOOL or db == BOOL):
                continue
            if da == F16 and name in ("remainder", "floor_divide"):
                continue
            for sa, sb in SHAPE_PAIRS:
                a, b = operands(name, da, db, sa, sb)
                try_case(w, op, [a, b] + extra, lambda x, y, *r: fn(x, y), tol_for(da, db))
            # views: non-contiguous and expanded operands
            a, b = operands(name, da, db, (3, 4), (3, 4))
            try_case(w, op, [strided(a), transposed(b)] + extra, lambda x, y, *r: fn(x, y), tol_for(da, db))
            e = expanded((3, 4), da)
            try_case(w, op, [e, strided(b)] + extra, lambda x, y, *r: fn(x, y), tol_for(da, db))
        # Tensor-Scalar, Scalar-Tensor and 0-dim tensor operands
        for da in (F32, I64, I32, U8, BOOL, F64):
            if kind(da) not in kinds or (name == "pow" and da == BOOL):
                continue
            a = rand((2, 3), da, lo=-3, hi=4, nonzero=nz)
            scalars = [2, -3, 2.5, True, 0.1] if kinds != "ib" else [3, True]
            for s in scalars:
                if nz and s == 0:
                    continue
                if name == "sub" and (da == BOOL or isinstance(s, bool)):
                    w.error(op, [a, s] + extra, check=lambda x, y, al: torch.sub(x, y, alpha=al))
                    continue
                if name == "pow" and (isinstance(s, bool) or (s == -3 and not da.is_floating_point)):
                    continue
                if name in ("floor_divide", "remainder") and isinstance(s, bool) and not s:
                    continue
                try:
                    r = fn(a, s)
                except TypeError:  # the op takes no Scalar operand
                    continue
                w.case(op, [a, s] + extra, [r], tol=tol_for(da))
            z = torch.tensor(3, dtype=I64) if kinds != "f" else torch.tensor(2.5, dtype=F64)
            if not (name == "sub" and da == BOOL):
                w.case(op, [a, z] + extra, [fn(a, z)], tol=tol_for(da))
                w.case(op, [z, a] + extra, [fn(z, a)], tol=tol_for(da))
        # 0-dim with 0-dim
        x, y = torch.tensor(7, dtype=I64), torch.tensor(2, dtype=I32)
        w.case(op, [x, y] + extra, [fn(x, y)])

    # alpha
    a, b = rand((3, 4), F32), rand((4,), F32)
    for al in (2, -1.5, 0):
        w.case("aten::add", [a, b, al], [torch.add(a, b, alpha=al)])
        w.case("aten::sub", [a, b, al], [torch.sub(a, b, alpha=al)])
        w.case("aten::rsub", [a, b, al], [torch.rsub(a, b, alpha=al)])
        w.case("aten::rsub", [a, 3, al], [torch.rsub(a, 3, alpha=al)])
    ai, bi = rand((3, 4), I64), rand((3, 4), I32)
    w.case("aten::add", [ai, bi, 3], [torch.add(ai, bi, alpha=3)])
    w.case("aten::sub", [ai, 2, -2], [torch.sub(ai, 2, alpha=-2)])
    w.case("aten::add", [ai, 2.5, 2], [torch.add(ai, 2.5, alpha=2)])
    w.error("aten::add", [ai, bi, 2.5])
    # division rounding modes
    for da, db in ((F32, F32), (I64, I64), (I32, I64), (F64, I64), (U8, U8)):
        a, b = rand((4, 5), da), rand((5,), db, nonzero=True)
        for mode in ("trunc", "floor", None):
            w.case("aten::div", [a, b, mode], [torch.div(a, b, rounding_mode=mode)])
        w.case("aten::div", [a, 3, "floor"], [torch.div(a, 3, rounding_mode="floor")])
    w.case("aten::true_divide", [ai, bi], [torch.true_divide(ai, bi)])
    # NaN / inf / signed zero in floats
    sp = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1.0, -2.5])
    sq = torch.tensor([1.0, float("nan"), 2.0, -0.0, 0.0, float("inf"), -0.0])
    for name in ("add", "mul", "div", "remainder", "floor_divide", "maximum", "minimum", "eq",
                 "lt", "ge", "pow", "atan2", "logical_and"):
        fn, extra = BINARY[name][0], BINARY[name][1]
        w.case("aten::" + name, [sp, sq] + extra, [fn(sp, sq)])
        w.case("aten::" + name, [sq, sp] + extra, [fn(sq, sp)])
    # integer wrap-around and scalar casts to the common dtype
    u = torch.tensor([3, 200, 255, 0], dtype=U8)
    w.case("aten::add", [u, 100, 1], [torch.add(u, 100)])
    w.case("aten::mul", [u, 300], [torch.mul(u, 300)])
    w.case("aten::lt", [u, -1], [torch.lt(u, -1)])
    w.case("aten::add", [u, torch.tensor(300), 1], [u + torch.tensor(300)])
    w.case("aten::sub", [u, torch.tensor([1], dtype=U8).expand(4), 1], [u - 1])
    big = torch.tensor([2 ** 62, -2 ** 63, 2 ** 63 - 1], dtype=I64)
    w.case("aten::add", [big, big, 1], [big + big])
    w.case("aten::mul", [big, 3], [big * 3])
    w.case("aten::pow", [torch.tensor([2, -3, 1, -1, 0]), torch.tensor([-1, -2, -5, -3, 3])],
           [torch.pow(torch.tensor([2, -3, 1, -1, 0]), torch.tensor([-1, -2, -5, -3, 3]))])
    w.case("aten::pow", [2, torch.tensor([3, 0, 5])], [torch.pow(2, torch.tensor([3, 0, 5]))])
    w.case("aten::pow", [2.5, torch.tensor([3, -1, 2])], [torch.pow(2.5, torch.tensor([3, -1, 2]))])
    x = rand((4,), F32).abs()
    w.case("aten::pow", [x, 0.5], [torch.pow(x, 0.5)])
    w.case("aten::pow", [x, 2], [torch.pow(x, 2)])
    w.case("aten::pow", [x, -1.5], [torch.pow(x, -1.5)])
    w.case("aten::__and__", [rand((3,), BOOL), rand((3,), BOOL)], lambda a, b: a & b)
    w.case("aten::__or__", [rand((3,), I64), 6], lambda a, b: a | b)
    w.case("aten::__xor__", [rand((3,), I32), rand((2, 3), I64)], lambda a, b: a ^ b)
    w.case("aten::__and__", [True, False], [False])
    # errors
    b = rand((3,), BOOL)
    w.error("aten::sub", [b, b, 1])
    w.error("aten::remainder", [ai, torch.zeros(4, dtype=I64)])
    w.error("aten::floor_divide", [ai, 0])
    w.error("aten::div", [ai, torch.zeros(4, dtype=I64), "floor"])
    w.error("aten::pow", [ai, -1])
    w.error("aten::bitwise_and", [rand((3,), F32), rand((3,), F32)])
    w.error("aten::add", [rand((3, 4), F32), rand((3,), F32), 1])


def inplace_binary_cases(w):
    ops = {
        "add_": (lambda a, b, al: a.add_(b, alpha=al), True),
        "sub_": (lambda a, b, al: a.sub_(b, alpha=al), True),
        "mul_": (lambda a, b: a.mul_(b), False),
        "div_": (lambda a, b: a.div_(b), False),
        "pow_": (lambda a, b: a.pow_(b), False),
        "remainder_": (lambda a, b: a.remainder_(b), False),
        "floor_divide_": (lambda a, b: a.floor_divide_(b), False),
        "atan2_": (lambda a, b: a.atan2_(b), False),
    }
    for name, (fn, alpha) in ops.items():
        op = "aten::" + name
        extra = [1] if alpha else []
        for da, db in ((F32, F32), (F32, F64), (F64, I64), (F16, F32), (F32, BOOL)):
            for sa, sb in (((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 3, 4), (3, 1)), ((), ()),
                           ((5,), ())):
                a = rand(sa, da)
                b = rand(sb, db, nonzero=True)
                if name == "pow_":
                    a = a.abs() + 0.5
                try_inplace(w, op, [a, b] + extra, fn, tol_for(da, db))
            a, b = rand((3, 4), da), rand((3, 4), db, nonzero=True)
            if name == "pow_":
                a = a.abs() + 0.5
            try_inplace(w, op, [strided(a), transposed(b)] + extra, fn, tol_for(da, db))
            try_inplace(w, op, [transposed(a), 2] + extra, fn, tol_for(da, db))
        if name not in ("div_", "atan2_"):
            a, b = rand((3, 4), I64, lo=1), rand((4,), I32, lo=1, hi=4)
            try_inplace(w, op, [a, b] + extra, fn)
            try_inplace(w, op, [rand((5,), I32, lo=1), 3] + extra, fn)
            try_inplace(w, op, [rand((4,), U8, lo=1), torch.tensor(2)] + extra, fn)
    a = rand((3, 4), F32)
    w.case("aten::add_", [a, a, 1], lambda x, y, al: x.add_(y), mutated=[0])
    base = rand((4, 4), F32)
    w.case("aten::mul_", [base[1:3, ::2], 3.0], lambda x, y: x.mul_(y), mutated=[0])
    w.case("aten::sub_", [base[1:3], base[0], 0.5], lambda x, y, al: x.sub_(y, alpha=al), mutated=[0])
    for name, fn in (("bitwise_and_", lambda a, b: a.bitwise_and_(b)),
                     ("bitwise_or_", lambda a, b: a.bitwise_or_(b))):
        w.case("aten::" + name, [rand((3, 4), I64), rand((4,), I64)], fn, mutated=[0])
        w.case("aten::" + name, [rand((3,), BOOL), rand((3,), BOOL)], fn, mutated=[0])
    # can't cast the result into self; broadcast would change self's shape
    w.error("aten::add_", [rand((3,), I64), rand((3,), F32), 1])
    w.error("aten::div_", [rand((3,), I64), 2])
    w.error("aten::add_", [rand((3,), F32), rand((2, 3), F32), 1])
    w.error("aten::mul_", [rand((3,), BOOL), 2])


def scalar_cases(w):
    """int/float arithmetic of scripted graphs: expected values from TorchScript."""
    exprs = [("a + b", "aten::add"), ("a - b", "aten::sub"), ("a * b", "aten::mul"),
             ("a / b", "aten::div"), ("a // b", "aten::floordiv"), ("a % b", "aten::remainder"),
             ("a ** b", "aten::pow"), ("a == b", "aten::eq"), ("a != b", "aten::ne"),
             ("a < b", "aten::lt"), ("a <= b", "aten::le"), ("a > b", "aten::gt"),
             ("a >= b", "aten::ge")]
    vals = {"int": [7, -7, 3, 0, 2], "float": [2.5, -7.25, 0.5, 3.0]}
    for src, op in exprs:
        for ta in ("int", "float"):
            for tb in ("int", "float"):
                f = scripted(src, (ta, tb), op)
                for a in vals[ta]:
                    for b in vals[tb]:
                        if b == 0 and src in ("a // b", "a % b") and tb == "int" and ta == "int":
                            # TorchScript's int ops crash (SIGFPE) or raise; Python raises
                            w.error(op, [a, b], check=lambda x, y, s=src: eval(s, {"a": x, "b": y}))
                            continue
                        try:
                            r = f(a, b)
                        except Exception:  # noqa: BLE001 - ZeroDivisionError and friends
                            w.error(op, [a, b]) if op == "aten::floordiv" else None
                            continue
                        if src == "a ** b" and a < 0 and not float(b).is_integer():
                            continue
                        w.case(op, [a, b], [r], tol=1e-12)
    for fn, op, args in ((_s_neg_i, "aten::neg", [5, -3]), (_s_neg_f, "aten::neg", [2.5]),
                         (_s_floor, "aten::floor", [2.5, -2.5]), (_s_ceil, "aten::ceil", [2.1, -2.1]),
                         (_s_sqrt_f, "aten::sqrt", [2.0]), (_s_sqrt_i, "aten::sqrt", [4]),
                         (_s_exp, "aten::exp", [1.5]), (_s_log, "aten::log", [3.0]),
                         (_s_tanh, "aten::tanh", [0.3])):
        f = checked(torch.jit.script(fn), op)
        for a in args:
            w.case(op, [a], [f(a)], tol=1e-12)
    w.case("aten::eq", ["ab", "ab"], [True])
    w.case("aten::ne", ["ab", "ab"], [False])
    # int lists computed at run time (`hx.size() != expected_hidden_size` in scripted nn.LSTM)
    for src, op in (("a == b", "aten::eq"), ("a != b", "aten::ne")):
        f = scripted(src, ("List[int]", "List[int]"), op)
        for a, b in (([2, 3, 5], [2, 3, 5]), ([2, 3, 5], [2, 4, 5]), ([2, 3], [2, 3, 1]), ([], [])):
            w.case(op, [a, b], [f(a, b)])


UNARY = {
    # name: (fn, extra node inputs, dtypes allowed, domain)
    "neg": (torch.neg, [], (F32, F64, I64, I32, U8, F16), None),
    "abs": (torch.abs, [], (F32, F64, I64, I32, I8, F16), None),
    "relu": (torch.relu, [], (F32, F64, I64, I32, F16), None),
    "sign": (torch.sign, [], (F32, I64, BOOL, F64), None),
    "floor": (torch.floor, [], (F32, F64, I64, U8), None),
    "ceil": (torch.ceil, [], (F32, F64, I32), None),
    "round": (torch.round, [], (F32, F64, I64), None),
    "trunc": (torch.trunc, [], (F32, F64, I64), None),
    "bitwise_not": (torch.bitwise_not, [], (I64, I32, U8, BOOL, I8), None),
    "logical_not": (torch.logical_not, [], (F32, I64, BOOL, U8), None),
    "isnan": (torch.isnan, [], (F32, F64, I64, BOOL), None),
    "sigmoid": (torch.sigmoid, [], (F32, F64, I64, BOOL, F16), None),
    "tanh": (torch.tanh, [], (F32, F64, I32, F16), None),
    "exp": (torch.exp, [], (F32, F64, I64, U8), None),
    "log": (torch.log, [], (F32, F64, I64), None),
    "log1p": (torch.log1p, [], (F32, F64, I64), None),
    "expm1": (torch.expm1, [], (F32, F64, I64), None),
    "sqrt": (torch.sqrt, [], (F32, F64, I64, BOOL), None),
    "rsqrt": (torch.rsqrt, [], (F32, F64, I64), "pos"),
    "sin": (torch.sin, [], (F32, F64, I64), None),
    "cos": (torch.cos, [], (F32, F64, I64), None),
    "erf": (torch.erf, [], (F32, F64, I64), None),
    "reciprocal": (torch.reciprocal, [], (F32, F64, I64), None),
    "gelu": (lambda x: torch.nn.functional.gelu(x), [], (F32, F64), None),
    "silu": (torch.nn.functional.silu, [], (F32, F64), None),
    "mish": (torch.nn.functional.mish, [], (F32, F64), None),
    "hardtanh": (lambda x: torch.nn.functional.hardtanh(x), [], (F32, F64, I64), None),
    "relu6": (torch.ops.aten.relu6, [], (F32, I64), None),
    "leaky_relu": (torch.nn.functional.leaky_relu, [], (F32, F64), None),
    "elu": (torch.nn.functional.elu, [], (F32, F64), None),
    "softplus": (torch.nn.functional.softplus, [], (F32, F64), None),
    "hardsigmoid": (torch.nn.functional.hardsigmoid, [], (F32, F64), None),
    "hardswish": (torch.nn.functional.hardswish, [], (F32, F64), None),
}


def unary_cases(w):
    special = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 0.5, -0.5,
                            1.5, 2.5, -2.5, 3.0, -3.0, 25.0, -25.0, 1e-8])
    for name, (fn, extra, dts, dom) in UNARY.items():
        op = "aten::" + name
        for dt in dts:
            for shape in ((3, 4), (), (0, 2), (2, 3, 4)):
                x = rand(shape, dt)
                if dom == "pos" and dt.is_floating_point:
                    x = x.abs() + 0.1
                try_case(w, op, [x] + extra, fn, tol_for(dt))
            x = rand((4, 3), dt)
            try_case(w, op, [strided(x)] + extra, fn, tol_for(dt))
            try_case(w, op, [transposed(x)] + extra, fn, tol_for(dt))
            try_case(w, op, [expanded((3, 5), dt)] + extra, fn, tol_for(dt))
        try_case(w, op, [special] + extra, fn)
        # in-place twin
        ip = getattr(torch.ops.aten, name + "_", None)
        if ip is not None and name not in ("isnan",):
            for dt in dts:
                if not dt.is_floating_point and name in (
                        "sigmoid", "tanh", "exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sin",
                        "cos", "erf", "reciprocal"):
                    w.error(op + "_", [rand((3,), dt)])
                    continue
                if dt == BOOL and name in ("sign",):
                    continue
                x = rand((3, 4), dt)
                if dom == "pos" and dt.is_floating_point:
                    x = x.abs() + 0.1
                try_inplace(w, op + "_", [transposed(x)] + extra, lambda t, ip=ip: ip(t), tol_for(dt))
    # parametrised activations
    x = rand((4, 5), F32) * 3
    w.case("aten::gelu", [x, "tanh"], [torch.nn.functional.gelu(x, approximate="tanh")])
    w.case("aten::gelu", [x, "none"], [torch.nn.functional.gelu(x)])
    w.case("aten::gelu_", [x.clone(), "tanh"], lambda t, a: torch.ops.aten.gelu_(t, approximate=a),
           mutated=[0])
    for lo, hi in ((-1, 1), (0.0, 6.0), (-2.5, 0.5)):
        w.case("aten::hardtanh", [x, lo, hi], [torch.nn.functional.hardtanh(x, lo, hi)])
        w.case("aten::hardtanh_", [strided(x), lo, hi], lambda t, a, b: torch.ops.aten.hardtanh_(t, a, b),
               mutated=[0])
    xi = rand((6,), I64)
    w.case("aten::hardtanh", [xi, -2, 3], [torch.nn.functional.hardtanh(xi, -2, 3)])
    for s in (0.01, 0.2, -1.0):
        w.case("aten::leaky_relu", [x, s], [torch.nn.functional.leaky_relu(x, s)])
        w.case("aten::leaky_relu_", [x.clone(), s], lambda t, a: torch.ops.aten.leaky_relu_(t, a), mutated=[0])
    for al, sc, isc in ((1.0, 1.0, 1.0), (0.5, 2.0, 1.5), (1.6732632423543772, 1.0507009873554805, 1)):
        w.case("aten::elu", [x, al, sc, isc], [torch.ops.aten.elu(x, al, sc, isc)])
        w.case("aten::elu_", [x.clone(), al, sc, isc], lambda t, a, b, c: torch.ops.aten.elu_(t, a, b, c),
               mutated=[0])
    for beta, th in ((1, 20), (2.0, 1.5), (0.5, 3)):
        w.case("aten::softplus", [x, beta, th], [torch.nn.functional.softplus(x, beta, th)])
    w.case("aten::round", [x * 37.3, 2], [torch.round(x * 37.3, decimals=2)])
    w.case("aten::round", [x * 370.3, -1], [torch.round(x * 370.3, decimals=-1)])
    w.case("aten::round", [torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5])], [torch.tensor([0., 2, 2, -0., -2])])
    for name in ("gelu", "silu", "elu", "softplus", "hardsigmoid", "leaky_relu"):
        w.error("aten::" + name, [rand((3,), I64)])
    w.error("aten::neg", [rand((3,), BOOL)])
    w.error("aten::abs", [rand((3,), BOOL)])
    w.error("aten::bitwise_not", [rand((3,), F32)])
    w.error("aten::relu_", [rand((3,), BOOL)])


def clamp_cases(w):
    for dt in (F32, F64, I64, I32, U8):
        x = rand((3, 4), dt) * (3 if dt.is_floating_point else 1)
        for lo, hi in ((-1, 1), (None, 2), (-2, None), (0.5, 2.5), (3, -3), (-1.5, None)):
            w.case("aten::clamp", [x, lo, hi], [torch.clamp(x, lo, hi)], tol=tol_for(dt))
            if not (isinstance(lo, float) or isinstance(hi, float)) or dt.is_floating_point:
                w.case("aten::clamp_", [transposed(x), lo, hi],
                       lambda t, a, b: t.clamp_(a, b), mutated=[0])
        w.case("aten::clamp_min", [strided(x), 1], [torch.clamp_min(x, 1)])
        w.case("aten::clamp_max", [x, 0], [torch.clamp_max(x, 0)])
        w.case("aten::clamp_min_", [x.clone(), 1], lambda t, a: t.clamp_min_(a), mutated=[0])
        w.case("aten::clamp_max_", [strided(x), 0], lambda t, a: t.clamp_max_(a), mutated=[0])
    x = torch.tensor([float("nan"), -3.0, 0.5, 4.0])
    w.case("aten::clamp", [x, -1.0, 1.0], [torch.clamp(x, -1.0, 1.0)])
    lo, hi = rand((4,), F32) - 1, rand((3, 1), F32) + 1
    y = rand((3, 4), F32) * 3
    w.case("aten::clamp", [y, lo, hi], [torch.clamp(y, lo, hi)])
    w.case("aten::clamp", [y, None, hi], [torch.clamp(y, None, hi)])
    w.case("aten::clamp", [x, torch.tensor([float("nan"), 0.0, 0.0, 0.0]), None],
           [torch.clamp(x, torch.tensor([float("nan"), 0.0, 0.0, 0.0]))])
    w.case("aten::clamp_min", [y, lo], [torch.clamp_min(y, lo)])
    w.case("aten::clamp_max", [y, hi], [torch.clamp_max(y, hi)])
    bl = rand((4,), BOOL)
    w.case("aten::clamp", [bl, 0, None], [torch.clamp(bl, 0)])
    w.case("aten::clip", [y, -1, 1], [torch.clip(y, -1, 1)])
    w.error("aten::clamp", [y, None, None])


def select_cases(w):
    for dc, (da, db) in ((BOOL, (F32, F32)), (BOOL, (I64, F32)), (U8, (I32, I64)), (BOOL, (BOOL, BOOL)),
                         (BOOL, (F64, F16))):
        for sc, sa, sb in (((3, 4), (3, 4), (3, 4)), ((3, 1), (4,), ()), ((4,), (2, 1, 4), (1, 3, 1)),
                           ((), (3,), (3,)), ((0, 2), (2,), (0, 1))):
            cond, a, b = rand(sc, dc, lo=0, hi=2), rand(sa, da), rand(sb, db)
            w.case("aten::where", [cond, a, b], [torch.where(cond, a, b)], tol=tol_for(da, db))
        cond, a, b = rand((3, 4), dc, lo=0, hi=2), rand((3, 4), da), rand((3, 4), db)
        w.case("aten::where", [strided(cond), transposed(a), strided(b)], [torch.where(cond, a, b)],
               tol=tol_for(da, db))
    c = rand((2, 3), BOOL)
    x = rand((2, 3), I64)
    for a, b in ((x, 2.5), (1, 2.5), (1, 2), (True, x), (2.5, rand((2, 3), F64)), (torch.tensor(1.5), x)):
        w.case("aten::where", [c, a, b], [torch.where(c, a, b)])
    w.error("aten::where", [rand((3,), F32), x[0], x[1]])
    # masked_fill
    for dt in (F32, F64, I64, I32, BOOL, U8, F16):
        x = rand((3, 4), dt)
        for mshape in ((3, 4), (4,), (3, 1), ()):
            m = rand(mshape, BOOL)
            for v in (2, -1.5, True, torch.tensor(7), torch.tensor(2.5, dtype=F64)):
                try_case(w, "aten::masked_fill", [x, m, v], torch.masked_fill, tol_for(dt))
            w.case("aten::masked_fill_", [transposed(x), m, 3], lambda t, mm, v: t.masked_fill_(mm, v),
                   mutated=[0])
        w.case("aten::masked_fill", [strided(x), transposed(rand((3, 4), BOOL)), 0],
               lambda t, mm, v: torch.masked_fill(t, mm, v))
    x = rand((3, 1), F32)
    m = rand((3, 4), BOOL)
    w.case("aten::masked_fill", [x, m, -float("inf")], [torch.masked_fill(x, m, -float("inf"))])
    w.error("aten::masked_fill", [rand((3,), F32), rand((3,), BOOL), torch.ones(2)])
    w.error("aten::masked_fill", [rand((3,), F32), rand((3,), F32), 1])
    w.error("aten::masked_fill_", [rand((3,), F32), rand((2, 3), BOOL), 1])


def cast_cases(w):
    dts = (F32, F64, F16, I64, I32, I8, U8, BOOL)
    for src in dts:
        x = rand((3, 4), src) if src != F32 else torch.tensor([[-2.7, -0.5, 0.0, 0.4], [1.5, 2.5, 300.2, -130.9],
                                                              [7.0, 100.0, 1e-3, -1e-3]])
        for dst in dts:
            if src.is_floating_point and dst in (U8, I8) and (x.abs() > 100).any():
                continue  # out-of-range float -> small int casts are undefined in PyTorch
            w.case("aten::to", [x, dst, False, False, None], [x.to(dst)], tol=tol_for(src, dst))
        w.case("aten::to", [strided(x), I64, False, True, None], [x.to(I64)])
        w.case("aten::to", [transposed(x), torch.device("cpu"), F64, False, False, None], [x.to(F64)])
        w.case("aten::to", [x, rand((1,), I32), False, False, None], [x.to(I32)])
        w.case("aten::to", [x, F64, None, torch.device("cpu"), None, False, False, None], [x.to(F64)])
        w.case("aten::to", [x, None, F16, False, False], [x.to(F16)], tol=2e-3)
        w.case("aten::to", [x, None, None, False, False], [x.clone()])
        w.case("aten::to", [x, BOOL, False, False], [x.to(BOOL)])
        w.case("aten::to", [x, False, False], [x.clone()])
        w.case("aten::type_as", [strided(x), rand((2,), F64)], [x.to(F64)])
        w.case("aten::clone", [transposed(x), None], [x.clone()])
        w.case("aten::clone", [expanded((3, 4), src), torch.contiguous_format],
               lambda t, m: t.clone(memory_format=m))
    x = rand((2, 3), F32)
    for name in ("dropout", "feature_dropout", "alpha_dropout", "feature_alpha_dropout"):
        w.case("aten::" + name, [x, 0.5, False], [x.clone()])
        w.case("aten::" + name, [strided(x), 0.0, True], [x.clone()])
        w.case("aten::" + name + "_", [x.clone(), 0.3, False], lambda t, p, tr: t, mutated=[0])
    # fill / zero
    for dt in (F32, I64, BOOL, U8, F64, I32):
        x = rand((3, 4), dt)
        for v in (2.7, -3, True, torch.tensor(5), torch.tensor(-1.25)):
            try_inplace(w, "aten::fill_", [transposed(x), v], lambda t, v: t.fill_(v))
            try_case(w, "aten::fill", [x, v], lambda t, v: torch.ops.aten.fill(t, v))
        w.case("aten::zero_", [strided(x)], lambda t: t.zero_(), mutated=[0])
        w.case("aten::zero", [x], lambda t: torch.ops.aten.zero(t))
    base = rand((4, 4), F32)
    w.case("aten::fill_", [base[1:3, ::2], 9.0], lambda t, v: t.fill_(v), mutated=[0])
    w.error("aten::fill_", [rand((3,), F32), torch.ones(2)])


def creation_cases(w):
    for size in ([2, 3], [0], [], [4, 1, 2]):
        for dt in (None, F32, I64, BOOL, F64, U8):
            args = [size, dt, None, None, None]
            w.case("aten::zeros", args, [torch.zeros(size, dtype=dt)])
            w.case("aten::ones", args, [torch.ones(size, dtype=dt)])
            w.case("aten::empty", args + [None], [torch.zeros(size, dtype=dt)])
            for v in (2.5, 3, True, -1):
                w.case("aten::full", [size, v, dt, None, None, None], [torch.full(size, v, dtype=dt)])
    x = rand((2, 3), I32)
    for dt in (None, F32, I64, BOOL):
        tail = [None, None, None, None]
        w.case("aten::zeros_like", [strided(x), dt] + tail, [torch.zeros_like(x, dtype=dt)])
        w.case("aten::ones_like", [x, dt] + tail, [torch.ones_like(x, dtype=dt)])
        w.case("aten::empty_like", [x, dt] + tail, [torch.zeros_like(x, dtype=dt)])
        for v in (1.5, 7, False):
            w.case("aten::full_like", [x, v, dt] + tail, [torch.full_like(x, v, dtype=dt)])
        w.case("aten::new_zeros", [x, [4, 2], dt, None, None, None], [x.new_zeros([4, 2], dtype=dt)])
        w.case("aten::new_ones", [x, [3], dt, None, None, None], [x.new_ones([3], dtype=dt)])
        w.case("aten::new_empty", [x, [1, 2], dt, None, None, None], [x.new_zeros([1, 2], dtype=dt)])
        w.case("aten::new_full", [x, [2, 2], 2.5, dt, None, None, None], [x.new_full([2, 2], 2.5, dtype=dt)])
    for s, dt in ((3, None), (2.5, None), (True, None), (4, I64), (1.5, F64)):
        w.case("aten::scalar_tensor", [s, dt, None, None, None], [torch.scalar_tensor(s, dtype=dt)])
    none4 = [None, None, None, None]
    for end in (5, 0, 3.5, 1):
        w.case("aten::arange", [end, None, None, None, None], [torch.arange(end)])
        w.case("aten::arange", [end, F64, None, None, None], [torch.arange(end, dtype=F64)])
    for start, end in ((2, 7), (-3, 3), (0.5, 4), (1, 2.5), (5, 5)):
        w.case("aten::arange", [start, end, None, None, None, None], [torch.arange(start, end)])
        w.case("aten::arange", [start, end, I32, None, None, None], [torch.arange(start, end, dtype=I32)])
    for start, end, step in ((0, 10, 3), (10, 0, -2), (0, 1, 0.1), (0.0, 2.0, 0.25), (-1, 1, 0.3),
                             (1, 10, 4), (0, 3, 1.5), (5, -5, -1.5)):
        w.case("aten::arange", [start, end, step, None, None, None, None], [torch.arange(start, end, step)])
        w.case("aten::arange", [start, end, step, F64, None, None, None],
               [torch.arange(start, end, step, dtype=F64)])
    w.error("aten::arange", [0, 5, 0, None, None, None, None])
    w.error("aten::arange", [5, 0, 1, None, None, None, None])
    for start, end, steps in ((0, 1, 5), (-2.5, 3.5, 7), (3, -1, 4), (0, 10, 1), (2, 3, 0), (0, 1, 100),
                              (0, 10, 6)):
        w.case("aten::linspace", [start, end, steps] + none4, [torch.linspace(start, end, steps)])
        w.case("aten::linspace", [start, end, steps, F64, None, None, None],
               [torch.linspace(start, end, steps, dtype=F64)])
        w.case("aten::linspace", [start, end, steps, I64, None, None, None],
               [torch.linspace(start, end, steps, dtype=I64)])
    w.case("aten::tensor", [[1, 2, 3], None, None, False], [torch.tensor([1, 2, 3])])
    w.case("aten::tensor", [[1.5, -2.0], None, None, False], [torch.tensor([1.5, -2.0])])
    w.case("aten::tensor", [[True, False], None, None, False], [torch.tensor([True, False])])
    w.case("aten::tensor", [[1, 2], F64, None, False], [torch.tensor([1, 2], dtype=F64)])
    f = checked(torch.jit.script(_s_tensor_f), "aten::tensor")
    w.case("aten::tensor", [2.5, None, None, False], [f(2.5)])
    f = checked(torch.jit.script(_s_tensor_i), "aten::tensor")
    w.case("aten::tensor", [3, None, None, False], [f(3)])
    w.error("aten::zeros", [[2, -1], None, None, None, None])


def act_ref(name, a, b):
    """PyTorch's unfused activation named as the fuse pass names it (mc::*_act's act, a, b)."""
    F = torch.nn.functional
    return {"none": lambda t: t, "relu": torch.relu, "hardtanh": lambda t: F.hardtanh(t, a, b),
            "sigmoid": torch.sigmoid, "tanh": torch.tanh, "silu": F.silu,
            "hardswish": F.hardswish, "gelu": F.gelu,
            "gelu_tanh": lambda t: F.gelu(t, approximate="tanh")}[name]


# every activation the fuse pass makes, with the bounds it passes (relu6 = hardtanh 0 6)
FUSED_ACTS = [("relu", -1.0, 1.0), ("hardtanh", 0.0, 6.0), ("hardtanh", -0.5, 0.25),
              ("sigmoid", -1.0, 1.0), ("tanh", -1.0, 1.0), ("silu", -1.0, 1.0),
              ("hardswish", -1.0, 1.0), ("gelu", -1.0, 1.0), ("gelu_tanh", -1.0, 1.0)]


def add_act_cases(w):
    """mc::add_act = act(self + alpha * other) against PyTorch's add then activation: the
    blocked float32 path (sizes across its 2048-element blocks, NaN propagation), alpha != 1,
    broadcast and strided operands (aten::add's kernel, then the activation), float64."""
    for act, lo, hi in FUSED_ACTS:
        ref = act_ref(act, lo, hi)
        a, b = torch.randn(2, 3, 30, 37), torch.randn(2, 3, 30, 37)
        a.view(-1)[::97] = float("nan")
        w.case("mc::add_act", [a, b, 1, act, lo, hi],
               lambda a, b, al, *r, ref=ref: ref(torch.add(a, b, alpha=al)), tol=1e-5)
    ref = act_ref("hardtanh", 0.0, 6.0)
    w.case("mc::add_act", [torch.randn(5, 6) * 4, torch.randn(5, 6), 2.5, "hardtanh", 0.0, 6.0],
           lambda a, b, al, *r: ref(torch.add(a, b, alpha=al)), tol=1e-5)
    w.case("mc::add_act", [torch.randn(4, 6), torch.randn(6), 1, "relu", -1.0, 1.0],
           lambda a, b, al, *r: torch.relu(a + b), tol=1e-5)
    w.case("mc::add_act", [transposed(torch.randn(5, 7)), torch.randn(5, 7), 1, "silu", -1.0, 1.0],
           lambda a, b, al, *r: torch.nn.functional.silu(a + b), tol=1e-5)
    d = torch.float64
    w.case("mc::add_act", [torch.randn(3, 4, dtype=d), torch.randn(3, 4, dtype=d), 1, "gelu", -1.0, 1.0],
           lambda a, b, al, *r: torch.nn.functional.gelu(a + b), tol=1e-10)


def cases(w):
    binary_cases(w)
    add_act_cases(w)
    inplace_binary_cases(w)
    scalar_cases(w)
    unary_cases(w)
    clamp_cases(w)
    select_cases(w)
    cast_cases(w)
    creation_cases(w)


def _clip_inplace_cases(w):
    g = torch.Generator().manual_seed(12)
    y = torch.randn(3, 4, generator=g) * 2
    w.case("aten::clip_", [y.clone(), -1, 1], lambda t, a, b: t.clip_(a, b), mutated=[0])
    w.case("aten::clip_", [y.clone().t(), None, 0.5], lambda t, a, b: t.clip_(a, b), mutated=[0])


_cases_before_clip_inplace = cases


def cases(w):
    _cases_before_clip_inplace(w)
    _clip_inplace_cases(w)
