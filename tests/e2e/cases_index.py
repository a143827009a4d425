"""The index family end to end (k_index.h): sorting and selection with ties, searching,
scatter-style writes (an in-place scatter_ on a graph input whose final value is compared),
gathers, shape-level ops, paired reductions, constant-input counting, and the random ops,
whose outputs are reduced to statistics that any correct generator meets (their values cannot
be PyTorch's). The numerics of every dtype are in tests/kernels/cases_index.py."""
import torch
import torch.nn as nn


class Sorting(nn.Module):
    """Ties everywhere (inputs are small integers as floats): std::sort's order of equals."""

    def forward(self, x):
        v, i = torch.sort(x, dim=1)
        vs, js = torch.sort(x, dim=0, descending=True, stable=True)
        a = torch.argsort(x, dim=-1, descending=True)
        tv, ti = torch.topk(x, 3, dim=1)
        lv, li = torch.topk(x, 2, dim=0, largest=False, sorted=True)
        kv, ki = torch.kthvalue(x, 4, dim=1, keepdim=True)
        mv, mi = torch.median(x, dim=1)
        ov, oi = torch.mode(x, dim=1)
        return v, i, vs, js, a, tv, ti, lv, li, kv, ki, mv, mi, ov, oi, torch.median(x), torch.msort(x)


class Searching(nn.Module):
    def forward(self, b, v):
        s = torch.sort(b, dim=-1)
        r1 = torch.searchsorted(s.values, v)
        r2 = torch.searchsorted(s.values, v, right=True, out_int32=True)
        r3 = torch.searchsorted(b, v, side="right", sorter=s.indices)
        r4 = torch.bucketize(v, s.values[0], right=True)
        return r1, r2, r3, r4


class ScatterInPlace(nn.Module):
    """scatter_ / scatter_add_ / index_add_ write the graph input x: its final value counts."""

    def forward(self, x, idx, src):
        x.scatter_(1, idx, src)
        y = x * 2.0
        x.scatter_add_(0, idx, src)
        x.index_fill_(1, torch.tensor([0]), -1.0)
        return y, x.sum()


class Scatters(nn.Module):
    def forward(self, x, idx, src):
        a = x.scatter(1, idx, 2.5)
        b = x.scatter(1, idx, src, reduce="multiply")
        c = x.scatter_reduce(1, idx, src, "amax", include_self=False)
        d = x.scatter_reduce(0, idx, src, "mean")
        e = x.index_add(0, torch.tensor([2, 0]), x[1:3] * 0.5, alpha=-2.0)
        f = x.index_copy(1, torch.tensor([3, 1]), x[:, :2] + 1.0)
        return a, b, c, d, e, f


class Gathers(nn.Module):
    def forward(self, x, idx):
        a = torch.take(x, idx)
        b = torch.take_along_dim(x, idx.clamp(0, 2), dim=0)
        y = x.clone()
        y.put_(idx, torch.ones(idx.shape), accumulate=True)
        m = x.masked_scatter(x > 0, torch.arange(20.0))
        return a, b, y, m


class Shapes(nn.Module):
    """Shape-level ops; repeat_interleave with a constant repeats tensor and one_hot of a
    constant with num_classes=-1 (sizes known at compile time)."""

    def forward(self, x, lab):
        a = x.tile((2, 1, 1))
        b = x[:, :1].broadcast_to((2, 3, 4))
        c = x.repeat_interleave(2, dim=1)
        d = x.repeat_interleave(torch.tensor([1, 0, 3]), dim=1)
        e = torch.nn.functional.one_hot(lab, 5)
        f = torch.nn.functional.one_hot(torch.tensor([1, 3]), -1)
        g = torch.eye(3, 4, dtype=torch.float64) + torch.eye(4)[:3]
        h = torch.concat([x, x], dim=-1)
        i = torch.tril_indices(3, 4, 1)
        return a, b, c, d, e, f, g, h, i, torch.triu_indices(4, 3, -1)


class Paired(nn.Module):
    def forward(self, x, y):
        v, m = torch.var_mean(x, dim=1, unbiased=False)
        s, m2 = torch.std_mean(x, dim=[0, 1], keepdim=True)
        lo, hi = torch.aminmax(x, dim=0)
        cv, ci = torch.cummax(x, dim=1)
        nv, ni = torch.cummin(x, dim=0)
        l = torch.logcumsumexp(x, dim=1)
        d = torch.diff(x, n=2, dim=1, prepend=y[:, :1])
        c = torch.linalg.cross(x[:, :3], y[:, :3])
        return v, m, s, m2, lo, hi, cv, ci, nv, ni, l, d, c


class Counting(nn.Module):
    """bincount of a constant (length known at compile time) and of an input with a minlength
    that covers every value (checked at run time)."""

    def forward(self, x, w):
        a = torch.bincount(torch.tensor([3, 1, 1, 0]))
        b = torch.bincount(x, minlength=8)
        c = torch.bincount(x, weights=w, minlength=8)
        return a, b, c


class Random(nn.Module):
    """Random ops: shapes and dtypes exact (the empty slices carry them), values only through
    statistics every correct generator meets (many standard deviations of slack)."""

    def forward(self, p):
        u = torch.rand(200, 100)
        n = torch.randn(200, 100, dtype=torch.float64)
        k = torch.randint(3, 9, (200, 50))
        ki = torch.randint(5, (10,), dtype=torch.int32)
        nl = torch.randn_like(p)
        ul = torch.rand_like(p)
        rl = torch.randint_like(p, 2, 4)
        g = torch.normal(torch.full((100, 100), 3.0), 0.5)
        b = torch.bernoulli(torch.full((100, 100), 0.25))
        mn = torch.multinomial(p, 2)
        mr = torch.multinomial(p, 300, replacement=True)
        stats = torch.stack([
            ((u >= 0) & (u < 1)).all().float(), ((u.mean() - 0.5).abs() < 0.02).float(),
            ((n.mean()).abs() < 0.05).float(), ((n.std() - 1.0).abs() < 0.05).float(),
            ((k >= 3) & (k < 9)).all().float(), ((k.float().mean() - 5.5).abs() < 0.2).float(),
            ((ki >= 0) & (ki < 5)).all().float(), ((g.mean() - 3.0).abs() < 0.05).float(),
            ((b.mean() - 0.25).abs() < 0.05).float(), ((b == 0) | (b == 1)).all().float(),
            (mn[:, 0] != mn[:, 1]).all().float(), (mr != 1).all().float(),
            ((rl >= 2) & (rl < 4)).all().float(), ((ul >= 0) & (ul < 1)).all().float()])
        return stats, u[:0], n[:0], k[:0], ki[:0], nl[:0], rl[:0], mn[:0], mr[:0]


class Broadcast(nn.Module):
    """broadcast_tensors taken apart (unpacked, and indexed with a negative index): views of
    the inputs with the broadcast shape."""

    def forward(self, x, y, z):
        a, b, c = torch.broadcast_tensors(x, y, z)
        d = torch.broadcast_tensors(y, x)[-1]
        return a * 1.0, b + c, d.sum(0), a.shape[0] + b.shape[1]


def ties(*shape):
    return lambda: [torch.randint(0, 4, shape).float()]


CASES = [
    dict(name="index_sorting_trace", module=Sorting, inputs=ties(6, 40)),
    dict(name="index_sorting_script", module=Sorting, inputs=ties(5, 20), method="script", format="json"),
    dict(name="index_searching_trace", module=Searching,
         inputs=lambda: [torch.randn(3, 8), torch.randn(3, 5)], format="json"),
    dict(name="index_scatter_inplace_input", module=ScatterInPlace,
         inputs=lambda: [torch.randn(3, 5), torch.randint(0, 3, (2, 5)), torch.randn(2, 5)], format="json"),
    dict(name="index_scatter_inplace_input_script", module=ScatterInPlace, method="script",
         inputs=lambda: [torch.randn(3, 5), torch.randint(0, 3, (2, 5)), torch.randn(2, 5)], format="json"),
    dict(name="index_scatters_script", module=Scatters, method="script", format="json",
         inputs=lambda: [torch.randn(4, 5), torch.randint(0, 4, (3, 4)), torch.randn(3, 4)]),
    dict(name="index_gathers_trace", module=Gathers, format="json",
         inputs=lambda: [torch.randn(4, 5), torch.randint(-20, 20, (3, 5))]),
    dict(name="index_shapes_trace", module=Shapes, format="json",
         inputs=lambda: [torch.randn(2, 3, 4), torch.randint(0, 5, (2, 3))]),
    dict(name="index_paired_script", module=Paired, method="script", format="json",
         inputs=lambda: [torch.randn(4, 6), torch.randn(4, 6)]),
    dict(name="index_counting_trace", module=Counting, format="json",
         inputs=lambda: [torch.randint(0, 8, (20,)), torch.rand(20)]),
    dict(name="index_broadcast_tensors_trace", module=Broadcast, format="json",
         inputs=lambda: [torch.randn(3, 1), torch.randn(1, 4), torch.randn(4)]),
    dict(name="index_broadcast_tensors_script", module=Broadcast, method="script", format="json",
         inputs=lambda: [torch.randn(3, 1), torch.randn(1, 4), torch.randn(4)]),
    dict(name="index_random_trace", module=Random, format="json",
         inputs=lambda: [torch.tensor([[0.2, 0.0, 0.5, 0.3], [1.0, 0.0, 1.0, 1.0]])]),
]
