"""cases_linalg.py — kernel cases of the linalg family (k_linalg.h): every rank combination of
torch.matmul, mm/bmm/mv/dot, addmm/baddbmm with beta/alpha, linear with and without bias on
inputs of rank 1..4; operands transposed, sliced, expanded (stride 0) or offset; float32 on
the blocked GEMM (sizes that cross its 4x8 tiles and 64/256/512 blocks), float64, bfloat16
and integer dtypes on the generic path. Expected values come from PyTorch."""
import torch


def rnd(*shape, dtype=torch.float32):
    """Random values; big float tensors get multiples of 1/8 so the case file stays small."""
    if dtype.is_floating_point:
        n = 1
        for d in shape:
            n *= d
        if n > 600:
            return (torch.randint(-16, 17, shape, dtype=torch.float64) / 8).to(dtype)
        return torch.randn(shape, dtype=torch.float64).to(dtype)
    return torch.randint(-5, 6, tuple(shape), dtype=dtype)


def tol_for(k, dtype=torch.float32):
    if dtype == torch.bfloat16:
        return 2e-2
    if dtype == torch.float64:
        return 1e-10
    if not dtype.is_floating_point:
        return 0
    return 1e-4 if k > 16 else 1e-5


def noncontig(t):
    """The same values, laid out with a doubled last stride and an offset."""
    if t.dim() == 0:
        return t
    big = torch.zeros(*t.shape[:-1], t.shape[-1] * 2 + 1, dtype=t.dtype)
    v = big[..., 1::2]
    v.copy_(t)
    return v


def cases(w):
    mm = torch.matmul
    # matmul: every rank pair
    shapes = [
        ((5,), (5,)), ((3, 5), (5,)), ((5,), (5, 4)), ((3, 5), (5, 4)),
        ((2, 3, 5), (5,)), ((5,), (2, 5, 4)), ((2, 3, 5), (5, 4)), ((3, 5), (2, 5, 4)),
        ((2, 3, 5), (2, 5, 4)), ((2, 1, 3, 5), (4, 5, 6)), ((1, 3, 5), (2, 2, 5, 4)),
        ((3, 3, 5), (2, 1, 5, 2)), ((7,), (2, 3, 7, 2)), ((2, 2, 3, 7), (7,)),
        ((0, 3), (3, 4)), ((3, 0), (0, 4)), ((2, 0, 3), (3, 2)), ((1, 1), (1, 1)),
        ((4, 1), (1, 6)),
    ]
    for sa, sb in shapes:
        a, b = rnd(*sa), rnd(*sb)
        w.case("aten::matmul", [a, b], mm(a, b), tol=tol_for(sa[-1]))
        w.case("aten::matmul", [noncontig(a), noncontig(b)], mm(a, b), tol=tol_for(sa[-1]))
    for dt in (torch.float64, torch.int64, torch.int32, torch.bfloat16):
        for sa, sb in [((3, 5), (5, 4)), ((5,), (5,)), ((2, 3, 5), (5,)), ((2, 1, 3, 4), (3, 4, 2))]:
            a, b = rnd(*sa, dtype=dt), rnd(*sb, dtype=dt)
            w.case("aten::matmul", [a, b], mm(a, b), tol=tol_for(sa[-1], dt))
    # float32 GEMM sizes across tile and block edges, transposed operands through strides
    for m, k, n in [(1, 300, 70), (70, 300, 1), (2, 3, 2), (4, 8, 8), (5, 9, 17), (13, 257, 19),
                    (65, 33, 9), (67, 300, 30), (3, 1000, 5), (9, 16, 515)]:
        a, b = rnd(m, k), rnd(k, n)
        t = tol_for(k)
        w.case("aten::mm", [a, b], a @ b, tol=t)
        at, bt = rnd(k, m).t(), rnd(n, k).t()
        w.case("aten::mm", [at, bt], at @ bt, tol=t)
        w.case("aten::mm", [a, bt], a @ bt, tol=t)
        w.case("aten::mm", [noncontig(a), noncontig(b)], a @ b, tol=t)
    big = rnd(40, 50)
    a, b = big[3:20:2, 5:35], big[10:40, 1:49:3]
    w.case("aten::mm", [a, b], a @ b, tol=1e-4)
    e = rnd(1, 6).expand(5, 6)
    f = rnd(6, 1).expand(6, 4)
    w.case("aten::mm", [e, f], e @ f)
    w.case("aten::mm", [rnd(3, 4, dtype=torch.float64), rnd(4, 2, dtype=torch.float64).t().t()],
           lambda x, y: x @ y, tol=1e-10)
    x = torch.tensor([[1.0, float("nan")], [2.0, 3.0]])
    y = torch.tensor([[float("inf"), 0.0], [1.0, 1.0]])
    w.case("aten::mm", [x, y], x @ y)
    # bmm, mv, dot
    for bs, m, k, n in [(3, 4, 5, 6), (1, 1, 7, 1), (2, 9, 270, 11), (0, 2, 2, 2)]:
        a, b = rnd(bs, m, k), rnd(bs, k, n)
        w.case("aten::bmm", [a, b], torch.bmm(a, b), tol=tol_for(k))
        a2, b2 = rnd(bs, k, m).transpose(1, 2), rnd(n, bs, k).permute(1, 2, 0)
        w.case("aten::bmm", [a2, b2], torch.bmm(a2, b2), tol=tol_for(k))
    a, v = rnd(6, 40), rnd(40)
    w.case("aten::mv", [a, v], torch.mv(a, v), tol=1e-4)
    w.case("aten::mv", [a.t().contiguous().t(), v[::1]], torch.mv(a, v), tol=1e-4)
    p, q = rnd(100), rnd(200)[::2]
    w.case("aten::dot", [p, q], torch.dot(p, q), tol=1e-4)
    pi, qi = rnd(9, dtype=torch.int64), rnd(9, dtype=torch.int64)
    w.case("aten::dot", [pi, qi], torch.dot(pi, qi))
    # addmm / baddbmm with beta and alpha (beta == 0 ignores NaN in self)
    for beta, alpha in [(1, 1), (0.5, 2.0), (0, 1), (2, 0), (0.0, -1.5)]:
        s, a, b = rnd(4, 6), rnd(4, 9), rnd(9, 6)
        if beta == 0:
            s[0, 0] = float("nan")
        w.case("aten::addmm", [s, a, b, beta, alpha],
               torch.addmm(s, a, b, beta=beta, alpha=alpha), tol=1e-5)
        s1 = rnd(6)
        w.case("aten::addmm", [s1, a.t().contiguous().t(), b, beta, alpha],
               torch.addmm(s1, a, b, beta=beta, alpha=alpha), tol=1e-5)
        s3, b1, b2 = rnd(1, 4, 1), rnd(3, 4, 9), rnd(3, 9, 6)
        # PyTorch 1.13's CPU baddbmm with beta == 0 or alpha == 0 sometimes returns NaN: it scales
        # memory it did not initialise. The expected value is then the composition
        # beta * self + alpha * bmm (self ignored when beta == 0, as the op documents).
        if beta != 0 and alpha != 0:
            want = torch.baddbmm(s3, b1, b2, beta=beta, alpha=alpha)
        elif beta == 0:
            want = alpha * torch.bmm(b1, b2)
        else:
            want = (beta * s3 + alpha * torch.bmm(b1, b2))
        w.case("aten::baddbmm", [s3, b1, b2, beta, alpha], want, tol=1e-5)
    s, a, b = rnd(10, 20), rnd(10, 260), rnd(260, 20)
    w.case("aten::addmm", [s, a, b, 1, 1], torch.addmm(s, a, b), tol=1e-4)
    si, ai, bi = rnd(3, 2, dtype=torch.int64), rnd(3, 4, dtype=torch.int64), rnd(4, 2, dtype=torch.int64)
    w.case("aten::addmm", [si, ai, bi, 2, 3], torch.addmm(si, ai, bi, beta=2, alpha=3))
    sd, ad, bd = rnd(3, 2, dtype=torch.float64), rnd(3, 4, dtype=torch.float64), rnd(4, 2, dtype=torch.float64)
    w.case("aten::addmm", [sd, ad, bd, 0.25, 4.0], torch.addmm(sd, ad, bd, beta=0.25, alpha=4.0), tol=1e-10)
    # linear: input ranks 1..4, bias None / tensor, transposed weight, float64
    F = torch.nn.functional
    for xs in [(7,), (3, 7), (2, 3, 7), (2, 2, 3, 7), (1, 7), (0, 7), (66, 270)]:
        k = xs[-1]
        x, wt, bias = rnd(*xs), rnd(5, k), rnd(5)
        t = tol_for(k)
        w.case("aten::linear", [x, wt, bias], F.linear(x, wt, bias), tol=t)
        w.case("aten::linear", [x, wt, None], F.linear(x, wt), tol=t)
        w.case("aten::linear", [noncontig(x), rnd(k, 5).t(), bias], lambda a, b, c: F.linear(a, b, c), tol=t)
    x = rnd(4, 6, 8).transpose(0, 1)
    wt, bias = rnd(3, 8), rnd(3)
    w.case("aten::linear", [x, wt, bias], F.linear(x, wt, bias))
    x, wt, bias = rnd(70, 260), rnd(20, 260), rnd(20)
    w.case("aten::linear", [x, wt, bias], F.linear(x, wt, bias), tol=1e-4)
    x, wt, bias = rnd(2, 5, dtype=torch.float64), rnd(3, 5, dtype=torch.float64), rnd(3, dtype=torch.float64)
    w.case("aten::linear", [x, wt, bias], F.linear(x, wt, bias), tol=1e-10)
    w.case("aten::linear", [rnd(2, 5), rnd(5), None], F.linear)
    w.case("aten::linear", [rnd(5), rnd(5), rnd()], F.linear)
    w.error("aten::linear", [rnd(2, 5), rnd(5), rnd()])  # PyTorch's addmm path wants a matrix
    # errors
    w.error("aten::mm", [rnd(2, 3), rnd(4, 2)])
    w.error("aten::mm", [rnd(2, 3, 3), rnd(3, 2)])
    w.error("aten::mm", [rnd(2, 3), rnd(3, 2, dtype=torch.float64)])
    w.error("aten::matmul", [rnd(3), rnd(4)])
    w.error("aten::matmul", [rnd(2, 3, 4), rnd(3, 4, 5)])
    w.error("aten::matmul", [rnd(), rnd(3)])
    w.error("aten::bmm", [rnd(2, 3, 4), rnd(3, 4, 5)])
    w.error("aten::dot", [rnd(3), rnd(4)])
    w.error("aten::linear", [rnd(2, 5), rnd(3, 4), None])
    w.error("aten::addmm", [rnd(3, 3), rnd(2, 4), rnd(4, 5), 1, 1])


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


def _linear_act_cases(w):
    """mc::linear_act = act(linear(...)) against PyTorch's linear then activation: the batch-1
    dot-product path, the GEMM path, no bias, float64."""
    F = torch.nn.functional
    for act, lo, hi in FUSED_ACTS:
        ref = act_ref(act, lo, hi)
        for x, wt, b in [(rnd(1, 64), rnd(128, 64), rnd(128)), (rnd(2, 16, 64), rnd(40, 64), rnd(40))]:
            w.case("mc::linear_act", [x, wt, b, act, lo, hi],
                   lambda x, wt, b, *r, ref=ref: ref(F.linear(x, wt, b)), tol=1e-4)
    w.case("mc::linear_act", [rnd(3, 7), rnd(5, 7), None, "relu", -1.0, 1.0],
           lambda x, wt, b, *r: torch.relu(F.linear(x, wt, b)), tol=1e-5)
    d = torch.float64
    w.case("mc::linear_act", [rnd(3, 7, dtype=d), rnd(5, 7, dtype=d), rnd(5, dtype=d), "gelu", -1.0, 1.0],
           lambda x, wt, b, *r: F.gelu(F.linear(x, wt, b)), tol=1e-10)


def _einsum_cases(w):
    """einsum: explicit and implicit outputs, the maxvit attention equations, traces,
    diagonals, outer products, full sums, three operands, size-1 broadcast, strided operands,
    float64 and int64; PyTorch's errors for bad equations and mixed dtypes."""
    torch.manual_seed(11)
    ein = "aten::einsum"
    for eq, shapes in [
        ("ij,jk->ik", [(3, 4), (4, 5)]),
        ("ij,jk", [(3, 4), (4, 5)]),
        ("ji", [(3, 4)]),
        ("B G H I D, B G H J D -> B G H I J", [(1, 3, 2, 5, 4), (1, 3, 2, 6, 4)]),
        ("B G H I J, B G H J D -> B G H I D", [(1, 3, 2, 5, 6), (1, 3, 2, 6, 4)]),
        ("ii->", [(4, 4)]),
        ("ii", [(4, 4)]),
        ("ii->i", [(4, 4)]),
        ("i,j->ij", [(3,), (5,)]),
        ("ijk->", [(2, 3, 4)]),
        ("ijk->kj", [(2, 3, 4)]),
        ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
        ("ij,ij->ij", [(3, 1), (3, 4)]),
        ("bij,bjk->bik", [(2, 0, 3), (2, 3, 4)]),
        ("ij,jk->ik", [(2, 0), (0, 3)]),
    ]:
        ts = [rnd(*s) for s in shapes]
        w.case(ein, [eq, ts], torch.einsum(eq, *ts))
    a, b = rnd(5, 3).t(), noncontig(rnd(5, 4))
    w.case(ein, ["ij,jk->ki", [a, b]], torch.einsum("ij,jk->ki", a, b))
    a, b = rnd(3, 5), rnd(5, 4)  # contiguous operands, a transposed result in PyTorch
    w.case(ein, ["ij,jk->ki", [a, b]], torch.einsum("ij,jk->ki", a, b))
    a, b = rnd(3, 4, dtype=torch.float64), rnd(4, 2, dtype=torch.float64)
    w.case(ein, ["ij,jk->ik", [a, b]], torch.einsum("ij,jk->ik", a, b), tol=1e-12)
    a, b = rnd(3, 4, dtype=torch.int64), rnd(4, 2, dtype=torch.int64)
    w.case(ein, ["ij,jk->ik", [a, b]], torch.einsum("ij,jk->ik", a, b), tol=0)
    chk = lambda eq, ts: torch.einsum(eq, *ts)  # noqa: E731
    w.error(ein, ["ij,jk->ik", [rnd(2, 3)]], check=chk)
    w.error(ein, ["ij->ij", [rnd(2, 3), rnd(3, 2)]], check=chk)
    w.error(ein, ["ijk->ij", [rnd(2, 3)]], check=chk)
    w.error(ein, ["ij->ik", [rnd(2, 3)]], check=chk)
    w.error(ein, ["ij->ii", [rnd(2, 3)]], check=chk)
    w.error(ein, ["ij,jk->ik", [rnd(2, 3), rnd(4, 2)]], check=chk)
    w.error(ein, ["ij,jk->ik", [rnd(2, 3), rnd(3, 2, dtype=torch.float64)]], check=chk)


_cases_before_einsum = cases


def cases(w):
    _cases_before_einsum(w)
    _linear_act_cases(w)
    _einsum_cases(w)
