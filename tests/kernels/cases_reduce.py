"""cases_reduce.py — kernel cases for the reduction family (k_reduce.h), computed by PyTorch:
every op over dtypes, dim lists (None, [], negative, several), keepdim, views, 0-dim and empty
tensors, NaN handling, dtype arguments, and the errors PyTorch raises."""
import torch

from cases_elementwise import (BOOL, F16, F32, F64, I32, I64, U8, expanded, rand, strided,
                               transposed)


def attempt(w, op, inputs, fn, tol=1e-5):
    """A case from fn(*inputs), or an error case if PyTorch rejects the inputs."""
    try:
        r = fn(*inputs)
    except (RuntimeError, IndexError) as e:
        if "not implemented for 'Half'" in str(e):
            return
        w.error(op, inputs, check=fn)
        return
    w.case(op, inputs, r if isinstance(r, tuple) else [r], tol=tol)


def views(x):
    return [x, strided(x), transposed(x)]


SHAPES = [(3, 4), (2, 3, 4), (5,), (), (0, 3), (1, 4, 1)]


def dims_for(nd):
    if nd == 0:
        return [None, [], [0], [-1]]
    out = [None, [], [0], [-1]]
    if nd >= 2:
        out += [[0, 1], [1], [-1, 0]]
    if nd >= 3:
        out += [[0, 2], [2, 0, 1]]
    return out


def tol_for(dt):
    return 2e-3 if dt == F16 else 1e-5


def sum_mean_prod(w):
    for dt in (F32, F64, I64, I32, BOOL, U8, F16):
        for shape in SHAPES:
            x = rand(shape, dt, lo=-3, hi=4)
            for v in views(x):
                t = tol_for(dt)
                attempt(w, "aten::sum", [v, None], lambda a, d: torch.sum(a, dtype=d), t)
                attempt(w, "aten::mean", [v, None], lambda a, d: torch.mean(a, dtype=d), t)
                attempt(w, "aten::prod", [v, None], lambda a, d: torch.prod(a, dtype=d), t)
            for dims in dims_for(len(shape)):
                for keep in (False, True):
                    attempt(w, "aten::sum", [x, dims, keep, None],
                            lambda a, d, k, dt_: torch.sum(a, d if d is not None else [], k, dtype=dt_)
                            if d is not None else torch.sum(a, dtype=dt_).reshape([1] * a.dim() if k else []),
                            tol_for(dt))
                    attempt(w, "aten::mean", [strided(x), dims, keep, None],
                            lambda a, d, k, dt_: torch.mean(a, d, k, dtype=dt_) if d is not None
                            else torch.mean(a, dtype=dt_).reshape([1] * a.dim() if k else []), tol_for(dt))
            if len(shape):
                for d in (0, -1):
                    for keep in (False, True):
                        attempt(w, "aten::prod", [transposed(x), d, keep, None],
                                lambda a, d_, k, dt_: torch.prod(a, d_, k, dtype=dt_), tol_for(dt))
        x = rand((3, 4), dt)
        for odt in (F64, I64, F32):
            attempt(w, "aten::sum", [x, [1], False, odt], lambda a, d, k, o: torch.sum(a, d, k, dtype=o))
            attempt(w, "aten::mean", [x, [0], True, odt], lambda a, d, k, o: torch.mean(a, d, k, dtype=o))
            attempt(w, "aten::prod", [x, 1, False, odt], lambda a, d, k, o: torch.prod(a, d, k, dtype=o))
    e = expanded((4, 3), F32)
    w.case("aten::sum", [e, [0], False, None], [torch.sum(e, [0])])
    w.case("aten::mean", [torch.empty(0, 3), [0], False, None], [torch.mean(torch.empty(0, 3), [0])])
    w.error("aten::sum", [rand((3,), F32), [5], False, None])
    w.error("aten::sum", [rand((3, 2), F32), [0, -2], False, None])
    w.error("aten::mean", [rand((3,), I64), None, False, None])


def extrema(w):
    nanx = torch.tensor([[1.0, float("nan"), 3.0], [-1.0, -2.0, -0.5], [float("nan"), 5, float("nan")]])
    ties = torch.tensor([[2, 1, 2, 2], [0, 0, -1, -1], [3, 3, 3, 3]])
    for dt in (F32, F64, I64, I32, U8, BOOL, F16):
        for shape in SHAPES + [(4, 0)]:
            x = rand(shape, dt)
            vs = views(x)
            k = 0
            for name in ("amax", "amin"):
                for dims in dims_for(len(shape))[1:]:
                    for keep in (False, True):
                        k += 1
                        attempt(w, "aten::" + name, [vs[k % 3], dims, keep],
                                lambda a, d, kd, f=getattr(torch, name): f(a, d, kd))
            for v in vs:
                for name in ("max", "min"):
                    attempt(w, "aten::" + name, [v], getattr(torch, name))
            for name in ("max", "min"):
                for d in (0, -1):
                    for keep in (False, True):
                        k += 1
                        attempt(w, "aten::" + name, [vs[k % 3], d, keep],
                                lambda a, d_, kd, f=getattr(torch, name): tuple(f(a, d_, kd)))
            for name in ("argmax", "argmin"):
                for d in (None, 0, -1):
                    for keep in (False, True):
                        k += 1
                        attempt(w, "aten::" + name, [vs[k % 3], d, keep],
                                lambda a, d_, kd, f=getattr(torch, name): f(a, d_, kd))
    for x in (nanx, ties, nanx.t(), ties.t()):
        for name in ("max", "min"):
            w.case("aten::" + name, [x], [getattr(torch, name)(x)])
            for d in (0, 1):
                w.case("aten::" + name, [x, d, False], tuple(getattr(torch, name)(x, d)))
        for name in ("amax", "amin"):
            w.case("aten::" + name, [x, [1], True], [getattr(torch, name)(x, [1], True)])
        for name in ("argmax", "argmin"):
            for d in (None, 0, 1):
                w.case("aten::" + name, [x, d, False], [getattr(torch, name)(x, d)])
    # max/min(Tensor, Tensor): elementwise
    for da, db in ((F32, F32), (I64, F32), (I32, I64), (BOOL, BOOL)):
        a, b = rand((3, 4), da), rand((4,), db)
        w.case("aten::max", [a, b], [torch.max(a, b)])
        w.case("aten::min", [strided(a), b], [torch.min(a, b)])
    w.case("aten::max", [nanx, nanx.t()], [torch.max(nanx, nanx.t())])


def along(w):
    for dt in (F32, F64, F16, I64):
        for shape in ((3, 4), (2, 3, 4), (5,), (), (0, 3)):
            x = rand(shape, dt) * (4 if dt.is_floating_point else 1)
            for v in views(x):
                for d in range(-max(len(shape), 1), max(len(shape), 1)):
                    t = 1e-2 if dt == F16 else 1e-5
                    attempt(w, "aten::softmax", [v, d, None], lambda a, d_, o: torch.softmax(a, d_, dtype=o), t)
                    attempt(w, "aten::log_softmax", [v, d, None],
                            lambda a, d_, o: torch.log_softmax(a, d_, dtype=o), t)
                    attempt(w, "aten::cumsum", [v, d, None], lambda a, d_, o: torch.cumsum(a, d_, dtype=o), t)
                    attempt(w, "aten::cumprod", [v, d, None], lambda a, d_, o: torch.cumprod(a, d_, dtype=o), t)
    x = rand((3, 5), F32) * 10
    w.case("aten::softmax", [x, 1, F64], [torch.softmax(x, 1, dtype=F64)])
    w.case("aten::log_softmax", [x, 0, F64], [torch.log_softmax(x, 0, dtype=F64)])
    xi = rand((2, 3), I64)
    w.case("aten::softmax", [xi, 1, F32], [torch.softmax(xi, 1, dtype=F32)])
    w.case("aten::_softmax", [x, 1, False], [torch._softmax(x, 1, False)])
    w.case("aten::_log_softmax", [x, -1, False], [torch._log_softmax(x, -1, False)])
    big = torch.tensor([[1000.0, 0.0, -1000.0], [-float("inf"), 0.0, 1.0], [-float("inf")] * 3,
                        [float("nan"), 1.0, 2.0]])
    for d in (0, 1):
        w.case("aten::softmax", [big, d, None], [torch.softmax(big, d)])
        w.case("aten::log_softmax", [big, d, None], [torch.log_softmax(big, d)])
        w.case("aten::logsumexp", [big, [d], False], [torch.logsumexp(big, [d])])
    for dt in (BOOL, U8, I32):
        xb = rand((3, 4), dt)
        w.case("aten::cumsum", [xb, 1, None], [torch.cumsum(xb, 1)])
        w.case("aten::cumsum", [xb, 0, F32], [torch.cumsum(xb, 0, dtype=F32)])
    w.error("aten::softmax", [rand((3,), I64), 0, None])
    w.error("aten::softmax", [rand((3,), F32), 1, None])


def var_std(w):
    for dt in (F32, F64):
        for shape in ((3, 4), (2, 3, 4), (5,), (1,), (), (0, 3)):
            x = rand(shape, dt)
            for name in ("var", "std"):
                f = getattr(torch, name)
                for v in views(x):
                    for unb in (True, False):
                        attempt(w, "aten::" + name, [v, unb], lambda a, u: f(a, u))
                for i, dims in enumerate(dims_for(len(shape))):
                    for keep in (False, True):
                        attempt(w, "aten::" + name, [strided(x), dims, bool(i % 2), keep],
                                lambda a, d, u, k: f(a, d, u, k) if d is not None
                                else f(a, u).reshape([1] * a.dim() if k else []))
                        corr = (None, 0, 1, 2)[(i + keep) % 4]
                        attempt(w, "aten::" + name, [transposed(x), dims, corr, keep],
                                lambda a, d, cr, k: f(a, d, correction=cr, keepdim=k))
    w.error("aten::var", [rand((3,), I64), True])


def norms(w):
    for dt in (F32, F64):
        for shape in ((3, 4), (2, 3, 4), (5,), ()):
            x = rand(shape, dt)
            for p in (2, 1, 3, 0.5, 0, float("inf"), -float("inf")):
                w.case("aten::norm", [strided(x), p], [torch.norm(x, p)])
                for dims in dims_for(len(shape))[2:]:
                    for keep in (False, True):
                        attempt(w, "aten::norm", [transposed(x), p, dims, keep],
                                lambda a, p_, d, k: torch.norm(a, p_, d, k))
                        attempt(w, "aten::linalg_vector_norm", [x, p, dims, keep, None],
                                lambda a, p_, d, k, o: torch.linalg.vector_norm(a, p_, d, k, dtype=o))
            w.case("aten::linalg_vector_norm", [x, 2, None, False, None], [torch.linalg.vector_norm(x)])
            if len(shape) >= 1:
                w.case("aten::frobenius_norm", [x, [-1], True], [torch.frobenius_norm(x, [-1], True)])
    x = rand((3, 4), F32)
    w.case("aten::norm", [x, None, [1], False], [torch.norm(x, None, [1], False)])
    w.case("aten::norm", [x, 2, [1], False, F64], [torch.norm(x, 2, [1], False, dtype=F64)])
    w.case("aten::norm", [x, 2, F64], [torch.ops.aten.norm(x, 2, dtype=F64)])
    nanx = torch.tensor([1.0, float("nan"), -3.0])
    for p in (2, 1, float("inf"), 0):
        w.case("aten::norm", [nanx, p], [torch.norm(nanx, p)])
    w.error("aten::norm", [rand((3,), I64), 2])


def logic(w):
    for dt in (BOOL, F32, I64, U8, I32):
        for shape in ((3, 4), (2, 3, 4), (5,), (), (0, 3)):
            x = rand(shape, dt, lo=0, hi=3)
            for name in ("all", "any"):
                f = getattr(torch, name)
                for v in views(x):
                    w.case("aten::" + name, [v], [f(v)])
                for d in range(-max(len(shape), 1), max(len(shape), 1)):
                    for keep in (False, True):
                        w.case("aten::" + name, [transposed(x), d, keep], [f(x, d, keep)])
    for dt in (F32, F64, I64):
        for shape in ((3, 4), (2, 3, 4), (5,)):
            x = rand(shape, dt)
            for dims in dims_for(len(shape))[2:]:
                for keep in (False, True):
                    w.case("aten::logsumexp", [strided(x), dims, keep], [torch.logsumexp(x, dims, keep)])
    z = torch.tensor(2.5)
    w.case("aten::logsumexp", [z, [0], False], [torch.logsumexp(z, [0])])


def cases(w):
    sum_mean_prod(w)
    extrema(w)
    along(w)
    var_std(w)
    norms(w)
    logic(w)
