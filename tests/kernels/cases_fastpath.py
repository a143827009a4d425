"""cases_fastpath.py — kernel cases of the float32 fast paths: linear / mc::linear_act at 1..8
rows (the dot-product path, k_linalg.h kl_sdot_rows_act) and beyond (the GEMM with bias and
activation in its epilogue), odd sizes that leave vector tails (in/out features 1, 3, 10, 37,
129), with and without bias, every fused activation; small matmul / bmm in dot-product
(A @ B^T) and broadcast-FMA (A @ B) form; softmax / log_softmax over the last dim of contiguous
rows of many lengths, with -inf, NaN, +inf and large values (k_reduce.h mck_red_softmax_f32);
layer_norm over the last dims with and without affine parameters (k_norm.h kconv_ln_f32);
float32 binary ops with a 0-dim operand of another dtype, masked_fill with a broadcast mask.
Expected values come from PyTorch."""
import torch

from cases_linalg import FUSED_ACTS, act_ref

F = torch.nn.functional


def rnd(*shape):
    return torch.randn(shape, dtype=torch.float64).to(torch.float32)


def linear_cases(w):
    for m in range(1, 9):
        for k, n in [(64, 128), (37, 10), (129, 3), (10, 37), (3, 1), (1, 5), (16, 4)]:
            x, wt, b = rnd(m, k), rnd(n, k), rnd(n)
            t = 1e-4 if k > 16 else 1e-5
            w.case("aten::linear", [x, wt, b], F.linear(x, wt, b), tol=t)
            if m in (1, 3, 8):
                w.case("aten::linear", [x, wt, None], F.linear(x, wt), tol=t)
    # rank 1 and 3 inputs, more rows than the dot path takes
    for xs in [(37,), (2, 3, 37), (3, 5, 37), (12, 129)]:
        x, wt, b = rnd(*xs), rnd(10, xs[-1]), rnd(10)
        w.case("aten::linear", [x, wt, b], F.linear(x, wt, b), tol=1e-4)
    for act, lo, hi in FUSED_ACTS:
        ref = act_ref(act, lo, hi)
        for m, k, n in [(1, 37, 10), (2, 64, 129), (5, 129, 3), (8, 10, 37), (9, 37, 10)]:
            x, wt = rnd(m, k), rnd(n, k)
            for b in (rnd(n), None):
                w.case("mc::linear_act", [x, wt, b, act, lo, hi],
                       lambda x, wt, b, *r, ref=ref: ref(F.linear(x, wt, b)), tol=1e-4)
    # relu / hardtanh of NaN and of values on the bounds
    x = torch.tensor([[1.0, -1.0, float("nan"), 0.0]])
    wt = torch.eye(4)
    for act, lo, hi in [("relu", -1.0, 1.0), ("hardtanh", 0.0, 0.5)]:
        w.case("mc::linear_act", [x, wt, None, act, lo, hi],
               lambda x, wt, b, *r, ref=act_ref(act, lo, hi): ref(F.linear(x, wt, b)))


def matmul_cases(w):
    for (b, m, k, n) in [(8, 16, 16, 16), (3, 5, 37, 10), (2, 9, 3, 129), (1, 1, 10, 37), (4, 7, 1, 5)]:
        a = rnd(b, m, k)
        kt = rnd(b, n, k).transpose(1, 2)   # k contiguous: A @ B^T form
        v = rnd(b, k, n)                    # rows contiguous: broadcast-FMA form
        t = 1e-4 if k > 16 else 1e-5
        w.case("aten::bmm", [a, kt], torch.bmm(a, kt), tol=t)
        w.case("aten::bmm", [a, v], torch.bmm(a, v), tol=t)
        w.case("aten::matmul", [a, kt], torch.matmul(a, kt), tol=t)
    # attention shapes: [B, H, T, D] views as the GPT block makes them
    q = rnd(2, 16, 4, 16).transpose(1, 2)
    kk = rnd(2, 16, 4, 16).transpose(1, 2)
    vv = rnd(2, 16, 4, 16).transpose(1, 2)
    att = torch.matmul(q, kk.transpose(-2, -1))
    w.case("aten::matmul", [q, kk.transpose(-2, -1)], att, tol=1e-5)
    p = torch.softmax(att, -1)
    w.case("aten::matmul", [p, vv], torch.matmul(p, vv), tol=1e-5)
    a, bm = rnd(10, 37), rnd(37, 3)
    w.case("aten::mm", [a, bm], torch.mm(a, bm), tol=1e-4)


def softmax_cases(w):
    for rows in (1, 3):
        for n in (1, 2, 7, 10, 15, 16, 17, 33, 64, 129, 1000):
            x = rnd(rows, n) * 4
            w.case("aten::softmax", [x, -1, None], torch.softmax(x, -1), tol=1e-5)
            w.case("aten::log_softmax", [x, 1, None], torch.log_softmax(x, 1), tol=1e-5)
    x = rnd(2, 4, 16, 16) * 3
    w.case("aten::softmax", [x, -1, None], torch.softmax(x, -1), tol=1e-5)
    x = rnd(3, 40) * 30  # wide range: exp underflows for most entries
    w.case("aten::softmax", [x, -1, None], torch.softmax(x, -1), tol=1e-5)
    w.case("aten::log_softmax", [x, -1, None], torch.log_softmax(x, -1), tol=1e-5)
    inf, nan = float("inf"), float("nan")
    big = torch.tensor([[1000.0, 0.0, -1000.0] + [0.5] * 14, [-inf, 0.0, 1.0] + [-inf] * 14,
                        [-inf] * 17, [nan] + [1.0] * 16, [1.0] * 16 + [nan], [inf] + [0.0] * 16,
                        [-90.0, 0.0] + [-87.0] * 15])
    w.case("aten::softmax", [big, -1, None], torch.softmax(big, -1))
    w.case("aten::log_softmax", [big, -1, None], torch.log_softmax(big, -1))
    # rows of a view whose last dim is contiguous
    x = rnd(4, 40)[:, 3:20]
    w.case("aten::softmax", [x, -1, None], torch.softmax(x, -1), tol=1e-5)


def layer_norm_cases(w):
    A = torch.ops.aten
    for rows in (1, 5):
        for n in (1, 7, 16, 37, 64, 129):
            x = rnd(rows, n) * 3 + 1
            wt, b = rnd(n), rnd(n)
            w.case("aten::layer_norm", [x, [n], wt, b, 1e-5, True],
                   lambda *a: A.layer_norm(*a), tol=1e-4)
            w.case("aten::layer_norm", [x, [n], None, None, 1e-5, True],
                   lambda *a: A.layer_norm(*a), tol=1e-4)
            w.case("aten::layer_norm", [x, [n], wt, None, 1e-3, True],
                   lambda *a: A.layer_norm(*a), tol=1e-4)
    x = rnd(2, 16, 64)
    w.case("aten::layer_norm", [x, [64], rnd(64), rnd(64), 1e-5, True],
           lambda *a: A.layer_norm(*a), tol=1e-4)
    w.case("aten::layer_norm", [x, [16, 64], rnd(16, 64), rnd(16, 64), 1e-5, True],
           lambda *a: A.layer_norm(*a), tol=1e-4)
    w.case("aten::layer_norm", [torch.full((3, 8), 2.5), [8], None, None, 1e-5, True],
           lambda *a: A.layer_norm(*a), tol=1e-4)


def elementwise_cases(w):
    """float32 binary ops with a 0-dim operand of another dtype (a traced Python constant is a
    0-dim double: promoted to a float32 value, k_elementwise.h mck_ew_binary), and masked_fill
    of float32 with a broadcast bool mask (the attention mask, a float row loop)."""
    x = rnd(2, 4, 16, 16)
    for other in (torch.tensor(0.25, dtype=torch.float64), torch.tensor(3), torch.tensor(True),
                  torch.tensor(1e300, dtype=torch.float64), torch.tensor(float("nan"), dtype=torch.float64)):
        for op, f in [("aten::mul", torch.mul), ("aten::add", torch.add), ("aten::sub", torch.sub),
                      ("aten::div", torch.div), ("aten::eq", torch.eq), ("aten::lt", torch.lt)]:
            if other.dtype == torch.bool and op in ("aten::sub", "aten::div"):
                continue
            w.case(op, [x, other], f(x, other))
            w.case(op, [other, x], f(other, x))
    mask = torch.tril(torch.ones(16, 16)).view(1, 1, 16, 16) == 0
    for v in (float("-inf"), float("nan"), -2.5, 3):
        w.case("aten::masked_fill", [x, mask, v], x.masked_fill(mask, v))
    w.case("aten::masked_fill", [x.transpose(2, 3), mask[0, 0, 0], -1.0], x.transpose(2, 3).masked_fill(mask[0, 0, 0], -1.0))
    w.case("aten::masked_fill", [x, mask, torch.tensor(-7.0, dtype=torch.float64)],
           x.masked_fill(mask, torch.tensor(-7.0, dtype=torch.float64)))


def cases(w):
    torch.manual_seed(7)
    elementwise_cases(w)
    linear_cases(w)
    matmul_cases(w)
    softmax_cases(w)
    layer_norm_cases(w)
