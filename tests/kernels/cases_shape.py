"""cases_shape.py — kernel cases of the shape family (k_shape.h): views (whose strides and
offsets check_kernels compares with PyTorch's, on inputs that are themselves views), the
MAYBE_VIEW ops in both their view and copy cases, copy-making shape and indexing ops, copy_
(broadcast, cast, overlapping source), index_put with masks / broadcast / accumulate, and the
scalar ops. Expected values come from PyTorch; where PyTorch refuses a case mc defines (copy_
from an overlapping source), the expected value is PyTorch's result for a cloned source, which
is what a program that reads the source before writing computes."""
import torch

A = torch.ops.aten

# check_kernels.c gives error cases (w.error) no output descriptors, so a kernel whose error is
# data-dependent (an index out of range: meta mode must succeed) meets a NULL output in meta
# mode; and it gives int[] outputs (aten::size(self)) no storage. Turn these on once it does.
HARNESS_DATA_ERRORS = False
HARNESS_LIST_OUTPUTS = False


def rnd(*shape, dtype=torch.float32):
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=torch.float64).to(dtype)
    lo = 0 if dtype == torch.uint8 else -9
    return torch.randint(lo, 10, tuple(shape), dtype=dtype)


def strided(*shape, dtype=torch.float32):
    """A non-contiguous tensor of `shape`: every other element of a bigger one, offset 1."""
    big = rnd(*shape[:-1], shape[-1] * 2 + 1, dtype=dtype) if shape else rnd(1, dtype=dtype)
    return big[..., 1::2] if shape else big[0]


DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool, torch.uint8,
          torch.float16, torch.int8, torch.int16, torch.bfloat16]


def views(w):
    x = rnd(2, 3, 4)
    xt = x.transpose(0, 2)          # non-contiguous
    xs = rnd(6, 9)[1::2, 2:8]       # sliced, offset
    xe = rnd(3, 1).expand(3, 4)     # stride 0
    # view
    for t, size in [(x, [6, 4]), (x, [-1]), (x, [4, -1, 3]), (x, [2, 3, 4, 1]), (xs, [3, 2, 3]),
                    (xe, [3, 2, 2]), (rnd(), [1, 1]), (rnd(1), []), (rnd(0, 3), [3, 0, 5]),
                    (x[:, 1], [2, 2, 2]), (xt, [4, 3, 2]), (x.transpose(1, 2), [2, 4, 3])]:
        w.case("aten::view", [t, size], t.view(size))
    for t, size in [(xt, [-1]), (xs, [-1]), (xe, [12]), (x, [5, -1]), (x, [-1, -1]), (x[:, 1], [8]),
                    (rnd(0, 3), [-1, 0])]:
        w.error("aten::view", [t, size])
    w.case("aten::view_as", [x, rnd(4, 6)], x.view(4, 6))
    for dt in DTYPES:
        t = rnd(2, 6, dtype=dt)[:, 1:5]
        w.case("aten::view", [t, [2, 2, 2]], t.view(2, 2, 2))
    # reshape / flatten / contiguous / reshape_as: view when possible, else copy
    for t, size in [(x, [6, -1]), (xt, [-1]), (xt, [4, 6]), (xs, [18]), (xs, [3, 6]),
                    (xe, [12]), (xe, [3, 2, 2]), (rnd(), [-1]), (rnd(2, 0), [0, 5]),
                    (rnd(4, 4)[::2], [-1]), (rnd(4, 4)[:, ::2], [2, 2, 2])]:
        w.case("aten::reshape", [t, size], t.reshape(size))
    w.case("aten::reshape_as", [xt, rnd(8, 3)], xt.reshape(8, 3))
    w.case("aten::reshape_as", [x, rnd(8, 3)], x.reshape(8, 3))
    w.error("aten::reshape", [x, [5, 5]])
    for t, s, e in [(x, 0, -1), (x, 1, 2), (x, 0, 1), (x, -2, -1), (x, 1, 1), (xt, 0, -1),
                    (xt, 1, 2), (rnd(), 0, -1), (rnd(5), 0, 0), (xs, 0, 1), (rnd(2, 1, 3, 1), 1, 3)]:
        w.case("aten::flatten", [t, s, e], torch.flatten(t, s, e))
    w.error("aten::flatten", [x, 2, 1])
    for t in [x, xt, xs, xe, rnd(), rnd(3, 1, 2)[:, :, 1:], rnd(4)[::2]]:
        w.case("aten::contiguous", [t, torch.contiguous_format], t.contiguous())
    for t, d, sz in [(rnd(2, 12), 1, [3, 4]), (rnd(2, 12), -1, [2, -1, 3]), (rnd(6), 0, [6, 1]),
                     (xs, 1, [2, 3])]:
        w.case("aten::unflatten", [t, d, sz], t.unflatten(d, sz))
    # slice, including Python's clamping of out-of-range bounds
    s10 = rnd(10, 3)
    for d, st, en, step in [(0, 2, 7, 1), (0, None, None, 1), (0, -3, None, 1), (0, None, -2, 2),
                            (0, 3, 100, 3), (0, -100, 4, 1), (0, 8, 2, 1), (0, 20, 30, 1),
                            (0, -1, 0, 1), (1, 1, None, 1), (-1, 0, 9223372036854775807, 2),
                            (0, None, 5, 4), (0, 0, 0, 1)]:
        w.case("aten::slice", [s10, d, st, en, step], A.slice(s10, d, st, en, step))
    # views of views: slice of a transposed slice, select of an expand
    v1 = x[:, 1:, ::2].transpose(0, 1)
    w.case("aten::slice", [v1, 2, 1, None, 1], v1[:, :, 1:])
    w.case("aten::slice", [xs, 1, 1, 6, 2], xs[:, 1:6:2])
    w.error("aten::slice", [s10, 0, 0, 5, 0])
    w.error("aten::slice", [s10, 2, 0, 5, 1])
    w.error("aten::slice", [rnd(), 0, 0, 1, 1])
    for t, d, i in [(x, 0, 1), (x, 1, -1), (x, -1, 3), (xt, 2, 0), (xe, 1, 2), (xs, 0, -3),
                    (rnd(4), 0, 2)]:
        w.case("aten::select", [t, d, i], t.select(d, i))
    w.error("aten::select", [x, 1, 3])
    w.error("aten::select", [x, 1, -4])
    w.error("aten::select", [x, 3, 0])
    for t, d, s, n in [(s10, 0, 2, 5), (s10, 1, -2, 2), (xt, 0, 1, 2), (s10, 0, 10, 0)]:
        w.case("aten::narrow", [t, d, s, n], t.narrow(d, s, n))
    w.error("aten::narrow", [s10, 0, 8, 5])
    for t, a, b in [(x, 0, 2), (x, -1, 0), (x, 1, 1), (xs, 0, 1), (rnd(), 0, -1)]:
        w.case("aten::transpose", [t, a, b], t.transpose(a, b))
    for t in [rnd(3, 4), rnd(5), rnd(), xs]:
        w.case("aten::t", [t], t.t())
    w.error("aten::t", [x])
    for t in [rnd(3, 4), xs]:  # other ranks warn (deprecated) in PyTorch
        w.case("aten::numpy_T", [t], A.numpy_T(t))
    w.case("aten::mT", [x], x.mT)
    w.error("aten::mT", [rnd(3)])
    for t, p in [(x, [2, 0, 1]), (x, [-1, -3, -2]), (xt, [1, 2, 0]), (rnd(), [])]:
        w.case("aten::permute", [t, p], t.permute(p))
    w.error("aten::permute", [x, [0, 0, 1]])
    w.error("aten::permute", [x, [0, 1]])
    for t, s, d in [(x, 0, 2), (x, -1, 0), (x, [0, 1], [2, 0]), (rnd(2, 3, 4, 5), [3, 0], [1, 2])]:
        w.case("aten::movedim", [t, s, d], torch.movedim(t, s, d))
    for t, d in [(x, 0), (x, 3), (x, -1), (xs, 1), (rnd(), 0), (xe, 1)]:
        w.case("aten::unsqueeze", [t, d], t.unsqueeze(d))
    w.error("aten::unsqueeze", [x, 4])
    y = rnd(1, 3, 1, 2)
    w.case("aten::squeeze", [y], y.squeeze())
    for d in [0, 1, 2, -2]:
        w.case("aten::squeeze", [y, d], y.squeeze(d))
    w.case("aten::squeeze", [y, [0, 2]], lambda t, dims: t.squeeze(2).squeeze(0))
    w.case("aten::squeeze", [rnd()], lambda t: t.squeeze())
    w.case("aten::squeeze", [rnd(1, 1)[:, ::1]], lambda t: t.squeeze())
    for t, size in [(rnd(3, 1), [3, 4]), (rnd(3, 1), [2, 3, 5]), (rnd(3, 1), [-1, 4]), (rnd(), [2, 2]),
                    (xs, [2, 3, 6]), (rnd(1, 3).t(), [2, 3, 3]), (rnd(3, 1), [3, 0])]:
        w.case("aten::expand", [t, size, False], t.expand(size))
    w.error("aten::expand", [rnd(3, 2), [3, 4]])
    w.error("aten::expand", [rnd(3, 1), [4]])
    w.error("aten::expand", [rnd(3, 1), [-1, 3, 1]])
    w.case("aten::expand_as", [rnd(1, 4), rnd(2, 3, 4)], lambda a, b: a.expand_as(b))
    for t, off, d1, d2 in [(rnd(4, 5), 0, 0, 1), (rnd(4, 5), 2, 0, 1), (rnd(4, 5), -1, 0, 1),
                           (rnd(4, 5), 7, 0, 1), (rnd(4, 5), -9, 0, 1), (x, 1, 2, 0), (x, 0, -1, -2),
                           (xt, -1, 0, 1), (xs, 1, 1, 0)]:
        w.case("aten::diagonal", [t, off, d1, d2], torch.diagonal(t, off, d1, d2))
    w.error("aten::diagonal", [x, 0, 1, 1])
    base = rnd(20)
    w.case("aten::as_strided", [base, [3, 3], [1, 3], 2], torch.as_strided(base, [3, 3], [1, 3], 2))
    w.case("aten::as_strided", [base[4:], [2, 2], [2, 1], None],
           torch.as_strided(base[4:], [2, 2], [2, 1]))
    w.case("aten::alias", [xs], A.alias(xs))
    w.case("aten::detach", [xt], xt.detach())


def copies(w):
    # copy_: cast + broadcast + strided destination; mutated input 0
    for dst, src in [(rnd(3, 4), rnd(4, dtype=torch.float64)), (rnd(3, 4), rnd(3, 1, dtype=torch.int64)),
                     (rnd(6, 8)[::2, 1::2], rnd(3, 4)), (rnd(2, 3, dtype=torch.int32), rnd(2, 3) * 10),
                     (rnd(3, 4).t(), rnd(4, 3)), (rnd(4, dtype=torch.bool), torch.tensor([0.0, 0.5, -1.0, float("nan")])),
                     (rnd(3, dtype=torch.uint8), rnd(3, dtype=torch.bool)), (rnd(2, 2, dtype=torch.float16), rnd(2))]:
        w.case("aten::copy_", [dst, src, False], lambda d, s, nb: d.copy_(s), mutated=[0])
    # overlapping source and destination in one storage: the source's old values win
    base = torch.arange(10.0)
    w.case("aten::copy_", [base[1:], base[:-1], False], lambda d, s, nb: d.copy_(s.clone()), mutated=[0])
    base = torch.arange(10.0)
    w.case("aten::copy_", [base[:-2], base[2:], False], lambda d, s, nb: d.copy_(s.clone()), mutated=[0])
    base = torch.arange(20.0)  # strided: a naive forward loop would read what it just wrote
    w.case("aten::copy_", [base[2::2], base[:-2:2], False], lambda d, s, nb: d.copy_(s.clone()), mutated=[0])
    base = torch.arange(24.0).reshape(4, 6)
    w.case("aten::copy_", [base[1:, ::2], base[:-1, 1::2].to(torch.float64), False],
           lambda d, s, nb: d.copy_(s.clone()), mutated=[0])
    base = torch.arange(24.0).reshape(4, 6)
    w.case("aten::copy_", [base[1:, ::2], base[:-1, ::2], False], lambda d, s, nb: d.copy_(s.clone()), mutated=[0])
    m = torch.arange(16.0).reshape(4, 4)
    w.case("aten::copy_", [m, m.t(), False], lambda d, s, nb: d.copy_(s.clone()), mutated=[0])
    m = torch.arange(12.0).reshape(3, 4)
    w.case("aten::copy_", [m[:, :2], m[0, 2:], False], lambda d, s, nb: d.copy_(s.clone()), mutated=[0])
    # a write through a view lands in the base: slice is a view, then copy_ into it
    b = torch.zeros(4, 5)
    w.case("aten::copy_", [b[1:3, ::2], torch.ones(3), False], lambda d, s, nb: d.copy_(s), mutated=[0])
    w.case("aten::copy_", [rnd(3, 4), 2.5], lambda d, s: d.copy_(torch.tensor(s)), mutated=[0])
    w.error("aten::copy_", [rnd(3, 4), rnd(3), False])
    # cat / stack, promoted dtypes, legacy empty tensors
    for ts, d in [([rnd(2, 3), rnd(4, 3)], 0), ([rnd(2, 3), rnd(2, 1), rnd(2, 2)], 1),
                  ([rnd(2, 3), rnd(2, 3, dtype=torch.float64)], -1),
                  ([rnd(2, dtype=torch.int32), rnd(3, dtype=torch.int64), rnd(1, dtype=torch.bool)], 0),
                  ([rnd(2, dtype=torch.uint8), rnd(3, dtype=torch.int8)], 0),
                  ([rnd(2, 2, dtype=torch.int64), rnd(2, 2)], 0),
                  ([torch.zeros(0), rnd(2, 3)], 1), ([rnd(2, 3), torch.zeros(0), rnd(1, 3)], 0),
                  ([rnd(3, 4).t(), strided(4, 2)], 1), ([rnd(1, 2, 3)], 2), ([rnd(0, 3), rnd(0, 3)], 0)]:
        w.case("aten::cat", [ts, d], torch.cat(ts, d))
    w.error("aten::cat", [[rnd(2, 3), rnd(2, 4)], 0])
    w.error("aten::cat", [[rnd(2, 3), rnd(2, 3, 1)], 0])
    w.error("aten::cat", [[rnd(), rnd()], 0])
    for ts, d in [([rnd(2, 3), rnd(2, 3)], 0), ([rnd(2, 3), rnd(2, 3)], 2), ([rnd(2, 3), rnd(3, 2).t()], -1),
                  ([rnd(), rnd()], 0), ([rnd(2, dtype=torch.int64), rnd(2)], 1)]:
        w.case("aten::stack", [ts, d], torch.stack(ts, d))
    w.error("aten::stack", [[rnd(2, 3), rnd(3, 2)], 0])
    for t, r in [(rnd(2, 3), [2, 2]), (rnd(3), [2, 1, 2]), (rnd(), [3]), (strided(2, 2), [1, 3]),
                 (rnd(2, 3), [0, 1]), (rnd(2, dtype=torch.int64), [3])]:
        w.case("aten::repeat", [t, r], t.repeat(r))
    w.error("aten::repeat", [rnd(2, 3), [2]])
    for t, d in [(rnd(3, 4), [0]), (rnd(3, 4), [0, 1]), (rnd(2, 3, 4), [-1, 0]), (strided(3, 3), [1]),
                 (rnd(4, dtype=torch.int32), [0]), (rnd(), [0]), (rnd(0, 2), [0])]:
        w.case("aten::flip", [t, d], torch.flip(t, d))
    w.error("aten::flip", [rnd(3, 4), [0, 0]])
    for t, s, d in [(rnd(5), [2], [0]), (rnd(3, 4), [1, -1], [0, 1]), (rnd(3, 4), [5], []),
                    (rnd(3, 4), [-7], [1]), (strided(3, 4), [1], [0]), (rnd(3, 4), [2, 1], [1, 1]),
                    (rnd(3, 4), [0], [])]:
        w.case("aten::roll", [t, s, d], torch.roll(t, s, d))
    w.error("aten::roll", [rnd(3, 4), [1, 2], [0]])
    # index_select / gather / embedding
    for t, d, ix in [(rnd(4, 5), 0, torch.tensor([3, 0, 3])), (rnd(4, 5), 1, torch.tensor([4, 1])),
                     (strided(4, 5), -1, torch.tensor([4, 2], dtype=torch.int32)),
                     (rnd(4, 5), 0, torch.tensor(2)), (rnd(4, 5), 0, torch.tensor([], dtype=torch.int64)),
                     (rnd(3, dtype=torch.int64), 0, torch.tensor([2, 2, 0]))]:
        w.case("aten::index_select", [t, d, ix], torch.index_select(t, d, ix))
    if HARNESS_DATA_ERRORS:
        w.error("aten::index_select", [rnd(4, 5), 0, torch.tensor([4])])
        w.error("aten::index_select", [rnd(4, 5), 0, torch.tensor([-1])])
    g = rnd(3, 4)
    for d, ix in [(0, torch.tensor([[0, 2, 1, 0]])), (1, torch.tensor([[3, 3], [0, 1], [2, 2]])),
                  (-1, torch.tensor([[1], [0]])), (0, torch.tensor([[2, 0], [1, 1]]))]:
        w.case("aten::gather", [g, d, ix, False], torch.gather(g, d, ix))
    w.case("aten::gather", [g.t(), 0, torch.tensor([[0, 1, 2], [3, 3, 3]]), False],
           lambda s, d, i, sg: torch.gather(s, d, i))
    if HARNESS_DATA_ERRORS:
        w.error("aten::gather", [g, 1, torch.tensor([[4]]), False])
        w.error("aten::gather", [g, 1, torch.tensor([[-1]]), False])
    wt = rnd(10, 3)
    for ix in [torch.tensor([1, 9, 1]), torch.tensor([[0, 2], [4, 5]]), torch.tensor(7),
               torch.tensor([3, 4], dtype=torch.int32)]:
        w.case("aten::embedding", [wt, ix, -1, False, False], torch.nn.functional.embedding(ix, wt))
    w.case("aten::embedding", [wt.t().contiguous().t(), torch.tensor([2, 0]), 0, False, False],
           lambda a, i, p, s, sp: torch.nn.functional.embedding(i, a, padding_idx=p))
    if HARNESS_DATA_ERRORS:
        w.error("aten::embedding", [wt, torch.tensor([10]), -1, False, False])
    # scatter twins of the views
    s = rnd(5, 4)
    w.case("aten::slice_scatter", [s, rnd(2, 4), 0, 1, 5, 2], torch.slice_scatter)
    w.case("aten::slice_scatter", [s, rnd(5, 2), 1, -2, None, 1], torch.slice_scatter)
    w.case("aten::slice_scatter", [s.t(), rnd(4, 5), 0, None, None, 1], torch.slice_scatter)
    w.case("aten::slice_scatter", [s, rnd(5, 0), 1, 10, 20, 1], torch.slice_scatter)
    w.error("aten::slice_scatter", [s, rnd(3, 4), 0, 1, 5, 2])
    w.case("aten::select_scatter", [s, rnd(4), 0, -1], torch.select_scatter)
    w.case("aten::select_scatter", [s, rnd(5), 1, 2], torch.select_scatter)
    w.error("aten::select_scatter", [s, rnd(5), 0, 2])
    w.case("aten::diagonal_scatter", [s, rnd(4), 0, 0, 1], torch.diagonal_scatter)
    w.case("aten::diagonal_scatter", [s, rnd(3), 1, 0, 1], torch.diagonal_scatter)
    w.case("aten::diagonal_scatter", [s, rnd(3), -1, 1, 0], torch.diagonal_scatter)
    w.case("aten::as_strided_scatter", [s, rnd(2, 2), [2, 2], [1, 4], 1], torch.as_strided_scatter)


def indexing(w):
    x = rnd(4, 5, 6)
    i0, i1 = torch.tensor([0, 3, 1]), torch.tensor([[1], [3]])
    cases = [
        [i0], [None, i0], [None, None, torch.tensor([-1, 0])], [i0, torch.tensor([2, 2, 4])],
        [i1, torch.tensor([0, 1, 2])], [i0, None, torch.tensor([5, 0, 1])],
        [torch.tensor(2)],
    ]
    for ix in cases:
        # the op itself: Python's t[tensor(2)] would be a view (a basic index), aten::index copies
        w.case("aten::index", [x, ix], lambda t, ixs: torch.ops.aten.index(t, ixs))
    xt = x.transpose(0, 2)
    w.case("aten::index", [xt, [None, torch.tensor([4, 0])]], lambda t, ixs: t[:, ixs[1]])
    if HARNESS_DATA_ERRORS:
        w.error("aten::index", [x, [torch.tensor([4])]])
    w.error("aten::index", [x, [torch.tensor([1, 2], dtype=torch.int32)]])
    w.error("aten::index", [x, [i0, torch.tensor([0, 1])]])
    # index_put: int indices, broadcast values, masks, accumulate with repeats, casts
    for ix, vals, acc in [
            ([i0], rnd(3, 5, 6), False), ([i0], rnd(6), False), ([None, torch.tensor([4, 0])], rnd(1), False),
            ([i1, torch.tensor([0, 1, 2])], rnd(2, 3, 6), False), ([torch.tensor([1, 1, 2])], rnd(3, 5, 6), True),
            ([x > 0.5], rnd(1), False), ([x[:, :, 0] > 0], rnd(6), False),
            ([None, torch.tensor([True, False, True, False, False])], rnd(4, 2, 6), True),
            ([i0, None, torch.tensor([5, 0, 1])], rnd(3, 5), False),
            ([torch.tensor(-1)], rnd(5, 6), True)]:
        w.case("aten::index_put", [x, ix, vals, acc], lambda t, ixs, v, a: A.index_put(t, ixs, v, a))
        w.case("aten::index_put_", [x.clone(), ix, vals, acc],
               lambda t, ixs, v, a: A.index_put_(t, ixs, v, a), mutated=[0])
    xi = rnd(3, 4, dtype=torch.int64)
    w.case("aten::index_put", [xi, [torch.tensor([0, 0, 2]), torch.tensor([1, 1, 3])], torch.tensor([5, 7, 9]), True],
           lambda t, ixs, v, a: A.index_put(t, ixs, v, a))
    xs = rnd(5, 8)[:, ::2]
    w.case("aten::index_put_", [xs, [torch.tensor([0, 4])], torch.tensor(1.5), False],
           lambda t, ixs, v, a: A.index_put_(t, ixs, v, a), mutated=[0])
    w.error("aten::index_put", [x, [i0], rnd(2, 5, 6), False])
    if HARNESS_DATA_ERRORS:
        w.error("aten::index_put", [x, [torch.tensor([9])], rnd(1), False])


def scalars(w):
    x = rnd(2, 3, 4)
    for d in [0, 2, -1, -3]:
        w.case("aten::size", [x, d], x.size(d))
    w.error("aten::size", [x, 3])
    if HARNESS_LIST_OUTPUTS:
        w.case("aten::size", [x.transpose(0, 2)], [list(x.transpose(0, 2).shape)])
        w.case("aten::size", [rnd()], [[]])
    w.case("aten::dim", [x], x.dim())
    w.case("aten::dim", [rnd()], 0)
    w.case("aten::numel", [x[:, 1:]], x[:, 1:].numel())
    w.case("aten::numel", [rnd(0, 3)], 0)
    for t in [torch.tensor(3.7), torch.tensor(-3.7, dtype=torch.float64), torch.tensor([5]),
              torch.tensor(True), torch.tensor(200, dtype=torch.uint8), torch.tensor([[-7]], dtype=torch.int32)]:
        w.case("aten::Int", [t], int(t.item()))
        w.case("aten::Float", [t], float(t.item()))
        w.case("aten::Bool", [t], bool(t.item()))
    w.case("aten::Int", [2.9], 2)
    w.case("aten::Int", [True], 1)
    w.case("aten::Float", [4], 4.0)
    w.case("aten::Bool", [0.0], False)
    w.error("aten::Int", [rnd(2)])
    w.case("aten::ScalarImplicit", [torch.tensor(2.5)], 2.5)
    w.case("aten::ScalarImplicit", [torch.tensor(-4)], -4)
    w.case("aten::ScalarImplicit", [torch.tensor(True)], True)
    for v in [3, -2.5]:
        w.case("prim::NumToTensor", [v], torch.ops.prim.NumToTensor(v))
    # torch.ops picks the Scalar overload for a Python bool (int64); in a TorchScript graph a
    # bool input resolves to NumToTensor.bool, which gives a bool tensor: that is the spec here.
    w.case("prim::NumToTensor", [True], torch.ops.prim.NumToTensor.bool(True))
    w.case("prim::min", [3, -5], -5)
    w.case("prim::max", [3, -5], 3)
    w.case("prim::min", [2.5, 1], 1.0)
    w.case("prim::max", [[4, 9, -1]], 9)
    w.case("prim::min", [[4, 9, -1]], -1)
    w.case("prim::max", [[0.5, -2.0]], 0.5)


def cases(w):
    views(w)
    copies(w)
    indexing(w)
    scalars(w)


def _tri_cases(w):
    import torch
    torch.manual_seed(7)
    for k in (-2, -1, 0, 1, 3):
        x = torch.randn(3, 4, 5)
        w.case("aten::tril", [x, k], [torch.tril(x, k)])
        w.case("aten::triu", [x, k], [torch.triu(x, k)])
    x = torch.randn(6, 4).t()
    w.case("aten::tril", [x, 0], [torch.tril(x)])
    w.case("aten::triu", [torch.ones(5, 5, dtype=torch.int64), 1], [torch.triu(torch.ones(5, 5, dtype=torch.int64), 1)])


_cases_before_tri = cases


def cases(w):
    _cases_before_tri(w)
    _tri_cases(w)


def _swap_cases(w):
    import torch
    torch.manual_seed(8)
    x = torch.randn(2, 3, 4)
    for op, d0, d1 in [("aten::swapaxes", 0, 2), ("aten::swapdims", -1, 1), ("aten::swapaxes", 1, 1)]:
        w.case(op, [x, d0, d1], [x.transpose(d0, d1)])
    w.error("aten::swapaxes", [x, 0, 3])


_cases_before_swap = cases


def cases(w):
    _cases_before_swap(w)
    _swap_cases(w)


def _item_cases(w):
    import torch
    w.case("aten::item", [torch.tensor(2.5)], [2.5])
    w.case("aten::item", [torch.tensor([7], dtype=torch.int64)], [7])
    w.case("aten::item", [torch.tensor(True)], [True])


_cases_before_item = cases


def cases(w):
    _cases_before_item(w)
    _item_cases(w)


def _inplace_view_cases(w):
    """In-place view ops: the result is input 0 itself with the new shape and strides (the
    values do not change)."""
    import torch
    g = torch.Generator().manual_seed(11)
    x = torch.randn(2, 3, 4, generator=g)
    w.case("aten::transpose_", [x.clone(), 0, 2], lambda t, a, b: t.transpose_(a, b))
    w.case("aten::transpose_", [x.clone()[:, 1:], -1, 1], lambda t, a, b: t.transpose_(a, b))
    w.case("aten::t_", [torch.randn(3, 5, generator=g)], lambda t: t.t_())
    w.case("aten::t_", [torch.randn(4, generator=g)], lambda t: t.t_())
    w.case("aten::unsqueeze_", [x.clone(), 1], lambda t, d: t.unsqueeze_(d))
    w.case("aten::unsqueeze_", [x.clone(), -1], lambda t, d: t.unsqueeze_(d))
    y = torch.randn(1, 3, 1, 2, generator=g)
    w.case("aten::squeeze_", [y.clone()], lambda t: t.squeeze_())
    w.case("aten::squeeze_", [y.clone(), 2], lambda t, d: t.squeeze_(d))
    w.case("aten::squeeze_", [y.clone(), 1], lambda t, d: t.squeeze_(d))
    w.error("aten::transpose_", [x.clone(), 0, 3])


_cases_before_inplace_view = cases


def cases(w):
    _cases_before_inplace_view(w)
    _inplace_view_cases(w)
