"""cases_index.py — kernel cases of the index family (k_index.h). Every expected value is
PyTorch's (torch.ops.aten on CPU). Orders of equal elements are PyTorch's, so the inputs are
full of ties: small integer ranges, repeated floats, NaN, -0.0 and inf, lines shorter and longer
than the 16 elements where std::sort switches from insertion sort to introsort, and topk's
partial_sort (k * 64 <= n) and nth_element paths. Dtypes PyTorch refuses are error cases,
found by asking PyTorch (`each_dtype`)."""
import torch

A = torch.ops.aten

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
          torch.int16, torch.int8, torch.uint8, torch.bool]


def ties(*shape, dtype=torch.float32, hi=4):
    """Values in a small range (many ties); floats get NaN, inf and -0.0 sprinkled in."""
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    lo = 0 if dtype == torch.uint8 else -hi
    t = torch.randint(lo, hi, shape).to(torch.float64)
    if dtype.is_floating_point and t.numel() >= 8:
        f = t.view(-1)
        f[torch.randperm(f.numel())[:max(1, f.numel() // 8)]] = float("nan")
        f[torch.randperm(f.numel())[:1]] = float("inf")
        f[torch.randperm(f.numel())[:1]] = -0.0
    return t.to(dtype)


def rnd(*shape, dtype=torch.float32):
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=torch.float64).to(dtype)
    lo = 0 if dtype == torch.uint8 else -9
    return torch.randint(lo, 10, shape, dtype=dtype)


def strided(t):
    """t's values in a non-contiguous layout (every other element of a bigger storage)."""
    big = torch.zeros(t.shape[:-1] + (t.shape[-1] * 2 + 1,), dtype=t.dtype) if t.dim() else torch.zeros(2, dtype=t.dtype)
    if not t.dim():
        big[1] = t
        return big[1]
    big[..., 1::2] = t
    return big[..., 1::2]


def each_dtype(w, op, make, fn, dtypes=DTYPES):
    """For each dtype: a case with PyTorch's result, or an error case where PyTorch refuses."""
    for dt in dtypes:
        ins = make(dt)
        try:
            want = fn(*ins)
        except Exception:  # noqa: BLE001
            w.error(op, ins, check=fn)
            continue
        w.case(op, ins, want)


def sorting(w):
    torch.manual_seed(1)
    for dt in DTYPES:
        for shape in [(40,), (3, 17), (5, 7), (2, 3, 33)]:
            x = ties(*shape, dtype=dt)
            for desc in (False, True):
                w.case("aten::sort", [x, -1, desc], A.sort(x, -1, desc))
                w.case("aten::sort", [x, True, 0, desc], A.sort(x, stable=True, dim=0, descending=desc))
                w.case("aten::argsort", [x, 0, desc], A.argsort(x, 0, desc))
        x = ties(3, 50, dtype=dt)
        w.case("aten::sort", [x, False, 1, False], A.sort(x, stable=False, dim=1, descending=False))
        w.case("aten::msort", [x], A.msort(x))
    # long lines with few distinct values (introsort partitions), a strided and an expanded input
    for n in [17, 100, 300, 1000]:
        x = ties(n, hi=2)
        w.case("aten::sort", [x, 0, False], A.sort(x, 0, False))
        w.case("aten::sort", [x, 0, True], A.sort(x, 0, True))
        xi = ties(2, n, dtype=torch.int64, hi=3)
        w.case("aten::argsort", [xi, -1, True], A.argsort(xi, -1, True))
    x = strided(ties(4, 30))
    w.case("aten::sort", [x, 1, False], A.sort(x, 1, False))
    w.case("aten::sort", [x.t(), 0, True], A.sort(x.t(), 0, True))
    xe = torch.tensor([[1.5], [2.5]]).expand(2, 40)
    w.case("aten::sort", [xe, 1, False], A.sort(xe, 1, False))
    w.case("aten::argsort", [xe, True, -1, True], A.argsort(xe, stable=True, dim=-1, descending=True))
    w.case("aten::sort", [torch.tensor(2.5), -1, False], A.sort(torch.tensor(2.5), -1, False))
    w.case("aten::sort", [torch.zeros(0, 3), 0, False], A.sort(torch.zeros(0, 3), 0, False))
    w.case("aten::sort", [torch.zeros(3, 0), 0, False], A.sort(torch.zeros(3, 0), 0, False))
    w.case("aten::msort", [torch.zeros(0)], A.msort(torch.zeros(0)))
    w.error("aten::sort", [rnd(3, 4), 2, False])
    w.error("aten::sort", [rnd(3, 4), -3, False])


def selection(w):
    torch.manual_seed(2)
    for dt in DTYPES:
        x = ties(6, 40, dtype=dt)
        each_dtype(w, "aten::topk", lambda d, x=x: [x, 3, -1, True, True], lambda *a: A.topk(*a), [dt])
    for n, ks in [(40, [1, 3, 10, 39, 40]), (400, [1, 5, 6, 7, 100]), (12, [0, 5, 12])]:
        for dt in [torch.float32, torch.int64, torch.float64, torch.uint8]:
            x = ties(3, n, dtype=dt, hi=3)
            for k in ks:
                for largest in (True, False):
                    for srt in (True, False):
                        w.case("aten::topk", [x, k, 1, largest, srt], A.topk(x, k, 1, largest, srt))
    x = strided(ties(5, 33))
    w.case("aten::topk", [x.t(), 4, 0, True, True], A.topk(x.t(), 4, 0, True, True))
    w.case("aten::topk", [torch.tensor(3.0), 1, -1, True, True], A.topk(torch.tensor(3.0), 1))
    w.case("aten::topk", [torch.zeros(0, 4), 2, 1, True, True], A.topk(torch.zeros(0, 4), 2, 1))
    w.error("aten::topk", [rnd(3, 4), 5, 1, True, True])
    w.error("aten::topk", [rnd(3, 4), -1, 1, True, True])
    # kthvalue
    for dt in DTYPES:
        x = ties(4, 30, dtype=dt)
        each_dtype(w, "aten::kthvalue", lambda d, x=x: [x, 7, -1, False], lambda *a: A.kthvalue(*a), [dt])
    for n in [2, 3, 5, 17, 64, 301]:
        x = ties(3, n, hi=3)
        for k in sorted({1, 2, n // 2 + 1, n}):
            if k <= n:
                w.case("aten::kthvalue", [x, k, 1, False], A.kthvalue(x, k, 1, False))
                w.case("aten::kthvalue", [x.t(), k, 0, True], A.kthvalue(x.t(), k, 0, True))
        xi = ties(2, n, dtype=torch.int32, hi=2)
        w.case("aten::kthvalue", [xi, (n + 1) // 2, -1, False], A.kthvalue(xi, (n + 1) // 2, -1, False))
    w.case("aten::kthvalue", [torch.tensor(1.5), 1, 0, False], A.kthvalue(torch.tensor(1.5), 1, 0, False))
    w.error("aten::kthvalue", [rnd(3, 4), 5, 1, False])
    w.error("aten::kthvalue", [rnd(3, 4), 0, 1, False])
    # median / nanmedian: full and per dim
    for op in ["aten::median", "aten::nanmedian"]:
        f = A.median if op == "aten::median" else A.nanmedian
        for dt in DTYPES:
            x = ties(5, 9, dtype=dt)
            each_dtype(w, op, lambda d, x=x: [x], lambda *a, f=f: f(*a), [dt])
            each_dtype(w, op, lambda d, x=x: [x, 1, False], lambda *a, f=f: f(*a), [dt])
        for n in [1, 2, 7, 20, 51]:
            x = ties(4, n, hi=3)
            w.case(op, [x, -1, True], f(x, -1, True))
            w.case(op, [x, 0, False], f(x, 0, False))
            w.case(op, [x], f(x))
            xi = ties(3, n, dtype=torch.int64, hi=2)
            w.case(op, [xi, 1, False], f(xi, 1, False))
        nan = float("nan")
        allnan = torch.tensor([[nan, nan, nan], [1.0, nan, 2.0], [nan, 3.0, 3.0]])
        w.case(op, [allnan, 1, False], f(allnan, 1, False))
        w.case(op, [allnan], f(allnan))
        xs = strided(ties(3, 10))
        w.case(op, [xs, 1, False], f(xs, 1, False))
        w.case(op, [torch.tensor(2.0), 0, False], f(torch.tensor(2.0), 0, False))
        w.case(op, [torch.zeros(0)], f(torch.zeros(0)))
        w.error(op, [torch.zeros(3, 0), 1, False])
        w.error(op, [rnd(3), 1, False])
    # mode
    for dt in DTYPES:
        x = ties(5, 30, dtype=dt)
        w.case("aten::mode", [x, -1, False], A.mode(x, -1, False))
        w.case("aten::mode", [x, 0, True], A.mode(x, 0, True))
    for n in [1, 5, 16, 17, 40, 200]:
        x = ties(3, n, dtype=torch.int64, hi=3)
        w.case("aten::mode", [x, 1, False], A.mode(x, 1, False))
    xf = torch.tensor([1.0, 2.0, 2.0, 1.0, 3.0, 3.0, 1.0, 3.0] * 3)
    w.case("aten::mode", [xf, 0, False], A.mode(xf, 0, False))
    xs = strided(ties(4, 20))
    w.case("aten::mode", [xs, 1, False], A.mode(xs, 1, False))
    w.case("aten::mode", [torch.tensor(7), -1, False], A.mode(torch.tensor(7), -1, False))
    w.error("aten::mode", [torch.zeros(3, 0), 1, False])


def cases(w):
    sorting(w)
    selection(w)
