"""cases_linalg2.py — kernel cases of the linalg family's composite and small-matrix ops
(k_matrix.h, k_linalg2.h) and of aten::embedding_bag (k_bag.h): outer/ger, trace, diag /
diag_embed / diagflat, rot90, the stacks, tensordot, count_nonzero, bilinear, linalg_inv /
inverse, det / linalg_det, slogdet / linalg_slogdet, logdet, linalg_matrix_norm, linalg_norm,
pairwise_distance, cosine_similarity, cdist / _cdist_forward (both p == 2 paths), and
embedding_bag's modes, offsets, include_last_offset, per_sample_weights and padding_idx, with
all four outputs; fractional_max_pool2d / 3d (k_fracpool.h) with given random samples. Every case runs torch.ops.aten.<op> on the same inputs: when PyTorch
accepts them the kernel must give its outputs (values and dtypes), when PyTorch refuses them
the kernel must fail too. Expected values come from PyTorch."""
import math

import torch

aten = torch.ops.aten
FLOATS = (torch.float32, torch.float64)
ALL = (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
       torch.int16, torch.int8, torch.uint8, torch.bool)


def rnd(*shape, dtype=torch.float32):
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=torch.float64).to(dtype)
    lo = 0 if dtype == torch.uint8 else -5
    return torch.randint(lo, 6, tuple(shape), dtype=dtype)


def tol_for(dtype):
    if dtype in (torch.float16, torch.bfloat16):
        return 2e-2
    if dtype == torch.float64:
        return 1e-10
    if dtype.is_floating_point:
        return 1e-5
    return 0


def noncontig(t):
    """The same values, laid out with a doubled last stride and an offset."""
    if t.dim() == 0:
        return t
    big = torch.zeros(*t.shape[:-1], t.shape[-1] * 2 + 1, dtype=t.dtype)
    v = big[..., 1::2]
    v.copy_(t)
    return v


def auto(w, op, inputs, fn=None, tol=1e-5, data_error=False):
    """A case when PyTorch accepts the inputs, else an error case (skipped when the error
    depends on the values, data_error: check_kernels.c cannot run those yet)."""
    f = fn or getattr(aten, op.split("::")[1])
    try:
        f(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
    except Exception:  # noqa: BLE001
        if not data_error:
            w.error(op, inputs, check=f)
        return
    w.case(op, inputs, lambda *a: f(*a), tol=tol)


def shape_ops(w):
    for dt in ALL:
        a, b = rnd(4, dtype=dt), rnd(3, dtype=dt)
        auto(w, "aten::outer", [a, b], tol=tol_for(dt))
        auto(w, "aten::trace", [rnd(3, 4, dtype=dt)], tol=tol_for(dt) * 4)
        auto(w, "aten::diag", [rnd(3, dtype=dt), 1])
        auto(w, "aten::diag", [rnd(3, 4, dtype=dt), -1])
        auto(w, "aten::rot90", [rnd(2, 3, dtype=dt)])
        auto(w, "aten::hstack", [[rnd(2, dtype=dt), rnd(3, dtype=dt)]])
    auto(w, "aten::outer", [rnd(4, dtype=torch.int32), rnd(3)])
    auto(w, "aten::ger", [rnd(4, dtype=torch.bool), rnd(3, dtype=torch.int64)])
    auto(w, "aten::outer", [noncontig(rnd(4)), rnd(3, dtype=torch.float64)], tol=1e-10)
    auto(w, "aten::outer", [rnd(0), rnd(3)])
    auto(w, "aten::outer", [rnd(2, 2), rnd(3)])
    auto(w, "aten::ger", [rnd(2), rnd()])
    # trace
    for s in ((3, 3), (2, 5), (5, 2), (0, 3), (1, 1)):
        auto(w, "aten::trace", [rnd(*s)])
    auto(w, "aten::trace", [noncontig(rnd(4, 4, dtype=torch.int32))])
    auto(w, "aten::trace", [rnd(3)])
    auto(w, "aten::trace", [rnd(2, 2, 2)])
    # diag / diagflat / diag_embed
    for off in (0, 1, -2, 3, -4):
        auto(w, "aten::diag", [rnd(3), off])
        auto(w, "aten::diag", [noncontig(rnd(3, 4)), off])
        auto(w, "aten::diagflat", [rnd(2, 2), off])
    auto(w, "aten::diag", [rnd(3, 4), 4])
    auto(w, "aten::diag", [rnd(3, 4), -3])
    auto(w, "aten::diag", [rnd(3, 4), 5])
    auto(w, "aten::diag", [rnd(0)])
    auto(w, "aten::diag", [rnd()])
    auto(w, "aten::diag", [rnd(2, 2, 2)])
    auto(w, "aten::diagflat", [rnd()])
    auto(w, "aten::diagflat", [noncontig(rnd(2, 3, dtype=torch.int64)), -1])
    auto(w, "aten::diagflat", [rnd(3, dtype=torch.bool)])
    for args in ((0, -2, -1), (1, 0, 2), (-1, 2, 0), (2, 1, 2), (0, 0, 0), (0, 3, 0)):
        auto(w, "aten::diag_embed", [rnd(2, 3), *args])
    auto(w, "aten::diag_embed", [noncontig(rnd(2, 3, dtype=torch.int32))])
    auto(w, "aten::diag_embed", [rnd(3), -1])
    auto(w, "aten::diag_embed", [rnd()])
    # rot90
    x = torch.arange(24.0).view(2, 3, 4)
    for k in (0, 1, 2, 3, 4, 5, -1, -2, -7):
        auto(w, "aten::rot90", [x, k, [0, 1]])
        auto(w, "aten::rot90", [x, k, [2, 0]])
    auto(w, "aten::rot90", [noncontig(x), 1, [-1, -2]])
    auto(w, "aten::rot90", [x, 1, [1, 1]])
    auto(w, "aten::rot90", [x, 1, [0]])
    auto(w, "aten::rot90", [x, 1, [0, 3]])
    auto(w, "aten::rot90", [rnd(3), 1, [0, 1]])
    auto(w, "aten::rot90", [rnd(0, 2), 1, [0, 1]])
    # stacks
    sets = [
        [rnd(), rnd(2)], [rnd(3), rnd(2)], [rnd(2, 3), rnd(2, 1)], [rnd(2, 3, 2), rnd(2, 1, 2)],
        [rnd(3), rnd(3)], [rnd(1, 3), rnd(3)], [rnd(2, 3), rnd(4, 3)], [rnd(2, 2, 2), rnd(2, 2)],
        [rnd(2), rnd(1, 2)], [rnd(), rnd(1, 1)], [rnd(2), rnd(2, 3)], [rnd(2, 2), rnd(2, 2, 1)],
        [rnd(2, dtype=torch.int32), rnd(2)], [noncontig(rnd(2, 3)), rnd(2, 3, dtype=torch.float64)],
        [rnd(0), rnd(2)], [], [rnd(2, 3), rnd(3, 3)],
    ]
    for ts in sets:
        for op in ("hstack", "vstack", "row_stack", "dstack", "column_stack"):
            auto(w, "aten::" + op, [ts], tol=1e-10)
    # tensordot
    a, b = rnd(2, 3, 4), rnd(4, 3, 5)
    for da, db in (([2], [0]), ([1, 2], [1, 0]), ([], []), ([-1], [-3]), ([0], [1])):
        auto(w, "aten::tensordot", [a, b, da, db], tol=1e-5)
    auto(w, "aten::tensordot", [noncontig(a), noncontig(b), [2, 1], [0, 1]])
    auto(w, "aten::tensordot", [rnd(2, 1), rnd(3, 2), [1], [0]])
    auto(w, "aten::tensordot", [rnd(2, 3, dtype=torch.float64), rnd(3, 2, dtype=torch.float64), [1], [0]], tol=1e-10)
    auto(w, "aten::tensordot", [rnd(2, 3, dtype=torch.int64), rnd(3, 2, dtype=torch.int64), [1], [0]])
    auto(w, "aten::tensordot", [rnd(2, 3, dtype=torch.int32), rnd(3, 2, dtype=torch.int32), [1], [0]])
    auto(w, "aten::tensordot", [rnd(2, 3, dtype=torch.bool), rnd(3, 2, dtype=torch.bool), [1], [0]])
    auto(w, "aten::tensordot", [rnd(2, 3), rnd(3, 2, dtype=torch.float64), [1], [0]])
    auto(w, "aten::tensordot", [rnd(2, 3), rnd(2, 2), [1], [0]])
    auto(w, "aten::tensordot", [rnd(2, 3), rnd(3, 2), [1], [0, 1]])
    auto(w, "aten::tensordot", [rnd(2, 0), rnd(0, 2), [1], [0]])
    auto(w, "aten::tensordot", [rnd(40, 30), rnd(30, 20), [1], [0]], tol=1e-4)
    # count_nonzero
    z = rnd(3, 4)
    z[0, 1] = 0
    z[2] = 0
    z[1, 2] = float("nan")
    for dims in (None, 0, -1, [0, 1], [1], [], [0, 0], 2):
        auto(w, "aten::count_nonzero", [z, dims])
    auto(w, "aten::count_nonzero", [z])
    for dt in ALL:
        auto(w, "aten::count_nonzero", [noncontig(z.to(dt)), 1])
    auto(w, "aten::count_nonzero", [rnd(), None])
    auto(w, "aten::count_nonzero", [rnd(0, 3), 0])


def bilinear(w):
    for s1, s2, ws, bias in (((4, 3), (4, 2), (5, 3, 2), True), ((3,), (2,), (5, 3, 2), False),
                             ((2, 3, 3), (2, 3, 2), (4, 3, 2), True), ((0, 3), (0, 2), (4, 3, 2), True)):
        for dt in (torch.float32, torch.float64, torch.int64, torch.int32, torch.bool, torch.float16, torch.bfloat16):
            if s1[0] == 0 and dt in (torch.bool, torch.float16):
                continue  # PyTorch skips its dtype check on empty input
            args = [rnd(*s1, dtype=dt), rnd(*s2, dtype=dt), rnd(*ws, dtype=dt), rnd(ws[0], dtype=dt) if bias else None]
            auto(w, "aten::bilinear", args, tol=tol_for(dt) * 10)
    auto(w, "aten::bilinear", [noncontig(rnd(4, 3)), noncontig(rnd(4, 2)), noncontig(rnd(5, 3, 2)), noncontig(rnd(5))])
    auto(w, "aten::bilinear", [rnd(4, 3), rnd(4, 2), rnd(5, 3, 2), rnd(5, dtype=torch.float64)])
    auto(w, "aten::bilinear", [rnd(4, 3), rnd(4, 2), rnd(5, 3, 2), rnd(5, dtype=torch.int64)])
    auto(w, "aten::bilinear", [rnd(4, 3), rnd(1, 2), rnd(5, 3, 2)])
    auto(w, "aten::bilinear", [rnd(4, 3), rnd(2), rnd(5, 3, 2)])
    auto(w, "aten::bilinear", [rnd(4, 3), rnd(4, 2), rnd(5, 2, 2)])
    auto(w, "aten::bilinear", [rnd(4, 3), rnd(4, 2), rnd(5, 3, 3)])
    auto(w, "aten::bilinear", [rnd(4, 3), rnd(4, 2), rnd(3, 2)])
    auto(w, "aten::bilinear", [rnd(4, 3), rnd(4, 2, dtype=torch.float64), rnd(5, 3, 2)])


def well_conditioned(*shape, dtype=torch.float32):
    a = torch.randn(shape, dtype=torch.float64)
    n = shape[-1]
    return (a + 2 * n ** 0.5 * torch.eye(n, dtype=torch.float64) * torch.sign(torch.randn(shape[:-1], dtype=torch.float64)).unsqueeze(-1)).to(dtype)


def lu_ops(w):
    mats = [well_conditioned(3, 3), well_conditioned(2, 4, 4), well_conditioned(1, 1), well_conditioned(5, 5),
            torch.randn(4, 4), torch.tensor([[0.0, 1.0], [1.0, 0.0]]), torch.tensor([[2.0, 1.0], [4.0, 2.0]]),
            torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]), torch.zeros(0, 0), torch.zeros(2, 0, 0),
            torch.stack([torch.eye(2), torch.ones(2, 2)]), torch.tensor([[float("nan"), 1.0], [1.0, 1.0]]),
            -torch.eye(3), torch.diag(torch.tensor([1.0, -2.0, 3.0])), noncontig(well_conditioned(3, 3)).transpose(0, 1)]
    ops = ("linalg_inv", "inverse", "linalg_det", "det", "slogdet", "linalg_slogdet", "logdet")
    for m in mats:
        for dt in FLOATS:
            for op in ops:
                # singular matrices make linalg_inv fail at run time (e2e cases_more.py checks it)
                auto(w, "aten::" + op, [m.to(dt)], tol=1e-4 if dt == torch.float32 else 1e-9, data_error=True)
    for bad in (rnd(2, 3), rnd(3), rnd(2, 2, dtype=torch.int64), rnd(2, 2, dtype=torch.float16),
                rnd(2, 2, dtype=torch.bfloat16), rnd(2, 2, dtype=torch.bool)):
        for op in ops:
            auto(w, "aten::" + op, [bad])
    # a larger float64 system
    auto(w, "aten::linalg_inv", [well_conditioned(12, 12, dtype=torch.float64)], tol=1e-9)
    auto(w, "aten::linalg_det", [well_conditioned(3, 6, 6, dtype=torch.float64)], tol=1e-9)


def mnorm(x, o="fro", d=(-2, -1), k=False, dt=None):
    return aten.linalg_matrix_norm(x, o, list(d), k, dtype=dt)


def lnorm(x, o=None, d=None, k=False, dt=None):
    return aten.linalg_norm(x, o, d, k, dtype=dt)


def norms(w):
    inf = math.inf
    x = rnd(3, 4)
    x3 = rnd(2, 3, 4)
    for o in ("fro", "nuc", "bad"):
        auto(w, "aten::linalg_matrix_norm", [x, o], fn=mnorm)
        auto(w, "aten::linalg_matrix_norm", [x3, o, [0, 2], True, None], fn=mnorm)
    for o in (1, -1, inf, -inf, 2, -2, 3, 1.0):
        auto(w, "aten::linalg_matrix_norm", [x, o], fn=mnorm)
        auto(w, "aten::linalg_matrix_norm", [noncontig(x3), o, [2, 0], False, None], fn=mnorm)
        auto(w, "aten::linalg_matrix_norm", [x3, o, [-1, -2], True, None], fn=mnorm)
    auto(w, "aten::linalg_matrix_norm", [x, 1, [0, 0]], fn=mnorm)
    auto(w, "aten::linalg_matrix_norm", [x, 1, [0]], fn=mnorm)
    auto(w, "aten::linalg_matrix_norm", [rnd(3), "fro"], fn=mnorm)
    auto(w, "aten::linalg_matrix_norm", [rnd(3, 3, dtype=torch.int64), "fro"], fn=mnorm)
    auto(w, "aten::linalg_matrix_norm", [x, "fro", [-2, -1], False, torch.float64], fn=mnorm, tol=1e-10)
    auto(w, "aten::linalg_matrix_norm", [x.double(), inf, [-2, -1], False, torch.float32], fn=mnorm)
    auto(w, "aten::linalg_matrix_norm", [rnd(0, 3), 1], fn=mnorm)
    auto(w, "aten::linalg_matrix_norm", [rnd(0, 3), "fro"], fn=mnorm)
    nan = torch.tensor([[1.0, float("nan")], [2.0, 3.0]])
    auto(w, "aten::linalg_matrix_norm", [nan, inf], fn=mnorm)
    for o in (2, "nuc"):  # PyTorch's SVD refuses non-finite input at run time: not cased here
        auto(w, "aten::linalg_matrix_norm", [nan, o], fn=mnorm, data_error=True)
    # singular values: wide, tall, rank-deficient, batched, float64
    for m in (rnd(2, 5), rnd(6, 3), torch.tensor([[1.0, 2.0], [2.0, 4.0]]), rnd(3, 4, 4), torch.eye(3), torch.zeros(2, 2),
              rnd(5, 5, dtype=torch.float64), rnd(1, 4), rnd(8, 7, dtype=torch.float64)):
        for o in (2, -2, "nuc"):
            auto(w, "aten::linalg_matrix_norm", [m, o], fn=mnorm, tol=1e-5 if m.dtype == torch.float32 else 1e-10)
    auto(w, "aten::linalg_matrix_norm", [rnd(0, 3), "nuc"], fn=mnorm)
    auto(w, "aten::linalg_matrix_norm", [rnd(0, 3), 2], fn=mnorm)
    auto(w, "aten::linalg_matrix_norm", [rnd(0, 3), -2], fn=mnorm)
    # nuclear_norm: a matrix, or over two dims
    auto(w, "aten::nuclear_norm", [x])
    auto(w, "aten::nuclear_norm", [x, True])
    auto(w, "aten::nuclear_norm", [x3, [0, 2]])
    auto(w, "aten::nuclear_norm", [noncontig(x3), [2, 1], True])
    auto(w, "aten::nuclear_norm", [x3])
    auto(w, "aten::nuclear_norm", [x3, [0]])
    auto(w, "aten::nuclear_norm", [rnd(3, 3, dtype=torch.int64)])
    auto(w, "aten::nuclear_norm", [rnd(3, 3, dtype=torch.float64)], tol=1e-10)
    for dt in (torch.float64, torch.float16, torch.bfloat16):
        auto(w, "aten::linalg_matrix_norm", [x.to(dt), 1], fn=mnorm, tol=tol_for(dt))
    # linalg_norm: vector and matrix forms
    v = rnd(5)
    for o in (None, 2, 1, inf, -inf, 0, 3.5, -1, -2, "fro", "nuc"):
        for inp, dim in ((v, None), (x, None), (x3, None), (x3, [1]), (x3, [2, 0]), (x3, 1), (x3, [0, 1, 2])):
            auto(w, "aten::linalg_norm", [inp, o, dim, False, None], fn=lnorm, tol=1e-5)
    auto(w, "aten::linalg_norm", [x3, None, [1], True, None], fn=lnorm)
    auto(w, "aten::linalg_norm", [x3, 1, [0, 1], True, None], fn=lnorm)
    auto(w, "aten::linalg_norm", [x, "fro", None, True, torch.float64], fn=lnorm, tol=1e-10)
    auto(w, "aten::linalg_norm", [rnd(3, dtype=torch.int64), None, None, False, None], fn=lnorm)
    auto(w, "aten::linalg_norm", [noncontig(x3), 2, [-1], False, None], fn=lnorm)


def distances(w):
    for s1, s2 in (((4, 5), (4, 5)), ((4, 5), (5,)), ((2, 1, 5), (3, 5)), ((5,), (5,)), ((), ()), ((0, 3), (1, 3))):
        for p in (2.0, 1.0, 0.0, math.inf, -math.inf, 3.0, 0.5, -1.0):
            auto(w, "aten::pairwise_distance", [rnd(*s1), rnd(*s2), p, 1e-6, False])
        auto(w, "aten::pairwise_distance", [rnd(*s1), rnd(*s2), 2.0, 1e-6, True])
        auto(w, "aten::pairwise_distance", [rnd(*s1), rnd(*s2)])
    for dt in ALL:
        auto(w, "aten::pairwise_distance", [rnd(3, 4, dtype=dt), rnd(3, 4, dtype=dt), 2.0, 1e-6, False], tol=max(tol_for(dt), 1e-5))
    auto(w, "aten::pairwise_distance", [rnd(3, 4, dtype=torch.int32), rnd(3, 4), 1.0, 0.1, False])
    auto(w, "aten::pairwise_distance", [noncontig(rnd(3, 4)), rnd(3, 4, dtype=torch.float64), 2.0, 0.0, False], tol=1e-10)
    auto(w, "aten::pairwise_distance", [rnd(3, 4), rnd(2, 4)])
    # cosine_similarity
    for s1, s2, d in (((4, 5), (4, 5), 1), ((4, 5), (5,), -1), ((2, 3, 5), (3, 5), 0), ((5,), (5,), 0), ((3, 4), (3, 4), 0),
                      ((3, 4), (3, 4), 2), ((0, 4), (0, 4), 1), ((3, 0), (3, 0), 1)):
        auto(w, "aten::cosine_similarity", [rnd(*s1), rnd(*s2), d, 1e-8])
    for dt in ALL:
        auto(w, "aten::cosine_similarity", [rnd(3, 4, dtype=dt), rnd(3, 4, dtype=dt)], tol=max(tol_for(dt), 1e-5))
    auto(w, "aten::cosine_similarity", [rnd(3, 4, dtype=torch.int64), rnd(3, 4)])
    auto(w, "aten::cosine_similarity", [rnd(3, 4, dtype=torch.float64), rnd(3, 4)], tol=1e-6)
    auto(w, "aten::cosine_similarity", [noncontig(rnd(3, 4)), rnd(3, 4), 1, 0.5])
    tiny = torch.tensor([[1e-10, 0.0], [3.0, 4.0]])
    auto(w, "aten::cosine_similarity", [tiny, tiny.flip(0), 1, 1e-8])
    auto(w, "aten::cosine_similarity", [torch.zeros(2, 3), rnd(2, 3)])
    # cdist: the direct path, and the matrix-product path for p == 2 (mode 1, or > 25 rows)
    for s1, s2 in (((4, 3), (5, 3)), ((2, 4, 3), (5, 3)), ((2, 1, 4, 3), (3, 5, 3)), ((0, 3), (5, 3)), ((2, 0), (3, 0))):
        for p in (2.0, 1.0, 0.0, math.inf, 3.0, 0.5):
            for mode in (None, 0, 1, 2):
                auto(w, "aten::cdist", [rnd(*s1), rnd(*s2), p, mode], tol=1e-4)
    auto(w, "aten::cdist", [rnd(30, 3), rnd(4, 3), 2.0, None], tol=1e-4)
    auto(w, "aten::cdist", [rnd(30, 3), rnd(4, 3), 2.0, 2], tol=1e-5)
    auto(w, "aten::cdist", [rnd(3, 4, dtype=torch.float64), rnd(27, 4, dtype=torch.float64), 2.0, 0], tol=1e-9)
    auto(w, "aten::cdist", [noncontig(rnd(4, 3)), noncontig(rnd(5, 3)), 2.0, 2], tol=1e-5)
    auto(w, "aten::_cdist_forward", [rnd(4, 3), rnd(5, 3), 1.0, None], tol=1e-5)
    for dt in ALL:
        auto(w, "aten::cdist", [rnd(4, 3, dtype=dt), rnd(5, 3, dtype=dt), 2.0, None])
    auto(w, "aten::cdist", [rnd(4, 3), rnd(5, 3, dtype=torch.float64)])
    auto(w, "aten::cdist", [rnd(4, 3), rnd(5, 2)])
    auto(w, "aten::cdist", [rnd(3), rnd(5, 3)])
    auto(w, "aten::cdist", [rnd(4, 3), rnd(5, 3), -1.0, None])
    auto(w, "aten::cdist", [rnd(4, 3), rnd(5, 3), 2.0, 3])
    auto(w, "aten::cdist", [rnd(2, 4, 3), rnd(3, 5, 3)])


def embedding_bag(w):
    wt = rnd(10, 3)
    idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    offsets = ([0, 4, 6], [0, 4, 4, 6], [0], [0, 8], [0, 0, 0], [0, 2, 4, 6, 7])
    for mode in (0, 1, 2):
        for off in offsets:
            for pad in (None, 2, -1, 9):
                o = torch.tensor(off)
                auto(w, "aten::embedding_bag", [wt, idx, o, False, mode, False, None, False, pad])
        for off in ([0, 4, 6, 8], [0, 4, 4, 8], [0, 8], [0, 4, 8, 8]):
            auto(w, "aten::embedding_bag", [wt, idx, torch.tensor(off), False, mode, False, None, True, None])
            auto(w, "aten::embedding_bag", [wt, idx, torch.tensor(off), False, mode, False, None, True, 4])
        auto(w, "aten::embedding_bag", [wt, idx, torch.tensor([0, 3]), False, mode, False, None, False])
        auto(w, "aten::_embedding_bag", [wt, idx, torch.tensor([0, 3]), False, mode, False, None, False, 2])
        auto(w, "aten::_embedding_bag", [wt, idx, torch.tensor([0, 3]), False, mode, False, None, False, -1])
        for it, ot in ((torch.int32, torch.int32), (torch.int32, torch.int64), (torch.int16, torch.int16)):
            auto(w, "aten::embedding_bag", [wt, idx.to(it), torch.tensor([0, 3]).to(ot), False, mode, False, None, False])
        for dt in (torch.float64, torch.float16, torch.bfloat16, torch.int64):
            auto(w, "aten::embedding_bag", [wt.to(dt), idx, torch.tensor([0, 3]), False, mode, False, None, False], tol=tol_for(dt))
        auto(w, "aten::embedding_bag", [noncontig(wt), noncontig(idx), noncontig(torch.tensor([0, 3, 5])), False, mode, False, None, False])
        psw = torch.rand(8)
        auto(w, "aten::embedding_bag", [wt, idx, torch.tensor([0, 3, 5]), False, mode, False, psw, False, None])
    # max: ties keep the first row, NaN
    tw = torch.tensor([[1.0, float("nan")], [1.0, 2.0], [0.5, 3.0], [float("nan"), 1.0]])
    auto(w, "aten::embedding_bag", [tw, torch.tensor([1, 0, 2, 3, 0, 3]), torch.tensor([0, 3]), False, 2, False, None, False])
    auto(w, "aten::embedding_bag", [wt, idx, torch.tensor([0, 4]), False, 0, False, torch.rand(8, dtype=torch.float64), False])
    auto(w, "aten::embedding_bag", [wt, idx, torch.tensor([0, 4]), False, 0, False, torch.rand(7), False])
    auto(w, "aten::embedding_bag", [wt, idx, torch.tensor([1, 4]), False, 0, False, None, False])
    auto(w, "aten::embedding_bag", [wt, idx, torch.tensor([0, 4]), False, 0, False, None, False, 10])
    auto(w, "aten::embedding_bag", [wt, idx, torch.tensor([0, 4]), False, 0, False, None, False, -11])
    auto(w, "aten::embedding_bag", [rnd(10), idx, torch.tensor([0, 4]), False, 0, False, None, False])
    auto(w, "aten::embedding_bag", [wt, torch.tensor([], dtype=torch.int64), torch.tensor([0, 0]), False, 1, False, None, False])


def cases(w):
    shape_ops(w)
    bilinear(w)
    lu_ops(w)
    norms(w)
    distances(w)
    embedding_bag(w)
    frac_pool(w)


def frac_pool(w):
    """fractional_max_pool2d / 3d with given random samples (the row's kernel is k_fracpool.h)."""
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        for shape, k, o in (((1, 2, 7, 7), [2, 2], [3, 3]), ((2, 3, 9, 8), [3, 2], [4, 5]), ((2, 5, 6), [2, 3], [5, 1]),
                            ((1, 1, 5, 5), [1, 1], [5, 5]), ((1, 2, 6, 6), [2, 2], [1, 1]), ((1, 2, 6, 6), [3, 3], [5, 5])):
            x = rnd(*shape, dtype=dt)
            n, c = (shape[0], shape[1]) if len(shape) == 4 else (1, shape[0])
            auto(w, "aten::fractional_max_pool2d", [x, k, o, torch.rand(n, c, 2, dtype=torch.float64).to(dt)])
    x = rnd(1, 2, 7, 7)
    x[0, 0, 1, 1] = float("nan")
    auto(w, "aten::fractional_max_pool2d", [x, [2, 2], [3, 3], torch.rand(1, 2, 2)])
    auto(w, "aten::fractional_max_pool2d", [noncontig(rnd(1, 2, 7, 7)), [2, 2], [3, 3], torch.rand(1, 2, 2)])
    auto(w, "aten::fractional_max_pool2d", [rnd(1, 2, 7, 7), [2, 2], [3, 3], torch.rand(1, 2, 2, dtype=torch.float64)])
    # random_samples of fewer channels than the input: PyTorch reads past them; mc refuses (not cased)
    auto(w, "aten::fractional_max_pool2d", [rnd(7, 7), [2, 2], [3, 3], torch.rand(1, 1, 2)])
    auto(w, "aten::fractional_max_pool2d", [rnd(1, 2, 7, 7, dtype=torch.int64), [2, 2], [3, 3], torch.rand(1, 2, 2)])
    for dt in (torch.float32, torch.float64):
        for shape, k, o in (((1, 2, 5, 5, 5), [2, 2, 2], [2, 2, 2]), ((2, 2, 6, 7, 5), [2, 3, 1], [3, 4, 5]), ((2, 5, 6, 4), [2, 2, 2], [3, 4, 2])):
            x = rnd(*shape, dtype=dt)
            n, c = (shape[0], shape[1]) if len(shape) == 5 else (1, shape[0])
            auto(w, "aten::fractional_max_pool3d", [x, k, o, torch.rand(n, c, 3, dtype=dt)])
