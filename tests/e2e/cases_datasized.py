"""Results whose size depends on the data (docs/dynamic.md, *Sizes from the data*): nonzero,
argwhere, masked_select, boolean-mask indexing, unique and unique_consecutive (with inverse and
counts), alone and feeding further ops (reductions,
arithmetic, indexing by the result, writes through a mask), traced and scripted. The compiled
model plans each such result at its bound (every element selected) and reports the real shape
after each run; the harness compares shapes, values and dtypes with PyTorch."""
import torch
import torch.nn as nn
import torchvision


class Nonzero(nn.Module):
    def forward(self, x):
        return torch.nonzero(x > 0.5)


class Argwhere(nn.Module):
    def forward(self, x):
        return torch.argwhere(x)


class NonzeroT(nn.Module):
    """A strided output sized by the data: the transposed index matrix, returned as a view."""

    def forward(self, x):
        return torch.nonzero(x > 0.5).t()


class MaskedSelect(nn.Module):
    """A mask broadcast against self, then arithmetic and a reduction over the selection."""

    def forward(self, x, m):
        s = torch.masked_select(x, m)
        return s * 2 + 1, s.sum(), s.numel()


class MaskIndex(nn.Module):
    """x[mask] over the leading dims, then rows of the selection and their count."""

    def forward(self, x):
        rows = x[x[:, 0] > 0]
        return rows, rows.mean(0), rows.size(0)


class MaskIndexMiddle(nn.Module):
    """A mask on dim 1 of a 3-d tensor: the selected extent sits in the middle."""

    def forward(self, x, m):
        return x[:, m] + 1


class GatherByNonzero(nn.Module):
    """Indices from nonzero used to index another tensor (advanced indexing by the result)."""

    def forward(self, x, y):
        idx = torch.nonzero(x > 0)
        return y[idx[:, 0], idx[:, 1]], idx.size(0) * 2


class WriteThroughMask(nn.Module):
    """A boolean-mask write (index_put_ with a mask), then the selection of what was written."""

    def forward(self, x):
        y = x.clone()
        y[y < 0] = 0.0
        return y, y[y > 0.5]


class WriteIntoSelection(nn.Module):
    """In-place ops on a selection (a copy: x is not written), views of it and a cat with it."""

    def forward(self, x):
        s = x[x > 0]
        s.mul_(2)
        s.add_(1)
        t = s.unsqueeze(1) * 3
        return s, t, torch.cat([s, x.reshape(-1)]), x


class NMS(nn.Module):
    """Non-maximum suppression (torchvision.ops.nms), then the kept boxes and their scores."""

    def forward(self, boxes, scores):
        keep = torchvision.ops.nms(boxes, scores, 0.4)
        return keep, boxes[keep], scores[keep].sum()


def _boxes(n, seed_shift=0.0):
    def make():
        xy = torch.rand(n, 2) * 4 + seed_shift
        return [torch.cat([xy, xy + torch.rand(n, 2) * 3 + 0.1], 1), torch.rand(n)]
    return make


class EmptySelection(nn.Module):
    def forward(self, x):
        return torch.nonzero(x > 100.0), x[x > 100.0].sum()


class Unique(nn.Module):
    """torch.unique with its inverse and counts, and a reduction over the distinct values."""

    def forward(self, x):
        v, i, c = torch.unique(x, return_inverse=True, return_counts=True)
        return v, i, c, torch.unique(x).sum()


class UniqueDim(nn.Module):
    """torch.unique along a dim: distinct rows with inverse and counts, distinct columns of a
    3-d tensor, and arithmetic on the result."""

    def forward(self, x, y):
        v, i, c = torch.unique(x, dim=0, return_inverse=True, return_counts=True)
        w, j = torch.unique(y, dim=2, return_inverse=True)
        return v, i, c, w, j, v.float().mean(0) + c.sum()


class UniqueConsecutive(nn.Module):
    def forward(self, x):
        v, i, c = torch.unique_consecutive(x, return_inverse=True, return_counts=True)
        return v * 2, i, c, torch.unique_consecutive(x)


class WhereOneArg(nn.Module):
    """One-argument torch.where: an index tensor per dim, used to gather, to write and to count;
    an in-place op on one of them writes only its own column of the nonzero result."""

    def forward(self, x, y):
        i, j, k = torch.where(x > 0)
        g = y[i, j, k] * 2
        z = x.clone()
        a, b, c = torch.where(z < -0.5)
        z[a, b, c] = 0.0
        j.add_(1)
        return g, i, j, k, z, torch.where(y)[2].sum()


class WhereScalarCond(nn.Module):
    """A 0-d and a 1-d condition: where of a 0-d tensor gives one index tensor, as for 1-d."""

    def forward(self, x):
        (a,) = torch.where(x.sum() > 0)
        (b,) = torch.where(x > 0)
        return a, b, x[b]


class NonzeroAsTuple(nn.Module):
    """nonzero(as_tuple=True) and indexing by where's tuple itself (traced only: TorchScript has
    no as_tuple, and its x[tuple] reads the tuple as one index tensor, which fails)."""

    def forward(self, x):
        r, c = torch.nonzero(x > 0.3, as_tuple=True)
        z = x.clone()
        z[torch.where(x > 0.6)] = -1.0
        return r * 10 + c, x[r, c], z


class SliceRuntimeBounds(nn.Module):
    """Slices whose bounds are run-time integers (item(), arithmetic on it): their lengths are
    known at run time only, planned at the bound, clamped as Python slices (negative, past the
    end)."""

    def forward(self, x, n):
        k = int(n.item())
        return x[:k] * 2, x[k:].sum(0), x[k - 1:k + 1], x[1:, :k].shape[1], x[-k:]


class NarrowRuntimeLength(nn.Module):
    def forward(self, x, n):
        k = int(n.item())
        return x.narrow(0, 1, k) + 1, x.narrow(1, k // 2, x.size(1) - k // 2).sum()


class PrefixMeans(nn.Module):
    """out[t] = x[:t + 1].mean(0): a slice whose length is the loop counter, in a loop."""

    def forward(self, x):
        out = torch.zeros_like(x)
        for t in range(x.size(0)):
            out[t] = x[:t + 1].mean(0)
        return out


class WriteRuntimeSlices(nn.Module):
    """Writes into slices with run-time bounds (slice_scatter after functionalization), one of
    them into the graph input itself."""

    def forward(self, x, n):
        k = int(n.item())
        y = x.clone()
        y[:k] = 0.0
        y[k:] *= 2
        x[:, k:] += 1
        return y, x


def _ints(*s, hi=4):
    return lambda: [torch.randint(0, hi, s)]


def _mask(*s):
    return lambda: [torch.randn(*s), torch.rand(s[-1]) > 0.5]


def _sets(*makers):
    """Other input sets for the same compiled model: none selected, all selected, some."""
    return list(makers)


CASES = []
for method in ("trace", "script"):
    sfx = "_" + method
    CASES += [
        dict(name="ds_nonzero" + sfx, module=Nonzero, inputs=lambda: [torch.rand(4, 5)], format="json", method=method,
             more_inputs=_sets(lambda: [torch.zeros(4, 5)], lambda: [torch.ones(4, 5)], lambda: [torch.rand(4, 5)])),
        dict(name="ds_nonzero_t" + sfx, module=NonzeroT, inputs=lambda: [torch.rand(3, 5)],
             format="json", method=method,
             more_inputs=_sets(lambda: [torch.zeros(3, 5)], lambda: [torch.ones(3, 5)])),
        dict(name="ds_argwhere" + sfx, module=Argwhere, inputs=lambda: [(torch.rand(3, 2, 4) > 0.4).float()],
             format="json", method=method,
             more_inputs=_sets(lambda: [torch.zeros(3, 2, 4)], lambda: [torch.full((3, 2, 4), float("nan"))],
                               lambda: [(torch.rand(3, 2, 4) > 0.8).float()])),
        dict(name="ds_masked_select" + sfx, module=MaskedSelect, inputs=_mask(3, 6), format="json", method=method,
             more_inputs=_sets(lambda: [torch.randn(3, 6), torch.zeros(6, dtype=torch.bool)],
                               lambda: [torch.randn(3, 6), torch.ones(6, dtype=torch.bool)], _mask(3, 6))),
        dict(name="ds_mask_index" + sfx, module=MaskIndex, inputs=lambda: [torch.randn(7, 3)], format="json",
             method=method, rtol=1e-5, atol=1e-6,
             more_inputs=_sets(lambda: [torch.rand(7, 3) + 0.1], lambda: [-torch.rand(7, 3)],
                               lambda: [torch.randn(7, 3)])),
        dict(name="ds_mask_index_middle" + sfx, module=MaskIndexMiddle,
             inputs=lambda: [torch.randn(2, 5, 3), torch.tensor([True, False, True, True, False])],
             format="json", method=method,
             more_inputs=_sets(lambda: [torch.randn(2, 5, 3), torch.zeros(5, dtype=torch.bool)],
                               lambda: [torch.randn(2, 5, 3), torch.tensor([False, True, False, False, False])])),
        dict(name="ds_gather_by_nonzero" + sfx, module=GatherByNonzero,
             inputs=lambda: [torch.randn(4, 4), torch.randn(4, 4)], format="json", method=method,
             more_inputs=_sets(lambda: [-torch.rand(4, 4), torch.randn(4, 4)],
                               lambda: [torch.randn(4, 4), torch.randn(4, 4)])),
        dict(name="ds_write_through_mask" + sfx, module=WriteThroughMask, inputs=lambda: [torch.randn(5, 4)],
             format="json", method=method,
             more_inputs=_sets(lambda: [-torch.rand(5, 4)], lambda: [torch.rand(5, 4) + 0.6])),
        dict(name="ds_unique" + sfx, module=Unique, inputs=_ints(3, 5), format="json", method=method,
             more_inputs=_sets(_ints(3, 5, hi=1), _ints(3, 5, hi=100))),
        dict(name="ds_unique_float" + sfx, module=Unique, inputs=lambda: [torch.randint(-3, 3, (2, 4)).float() / 2],
             format="json", method=method,
             more_inputs=_sets(lambda: [torch.tensor([[0.0, -0.0, 1.0, 0.0], [1.0, 1.0, -2.5, 0.0]])])),
        dict(name="ds_unique_dim" + sfx, module=UniqueDim,
             inputs=lambda: [torch.randint(0, 2, (6, 3)), torch.randint(0, 2, (2, 3, 5)).float()],
             format="json", method=method,
             more_inputs=_sets(lambda: [torch.zeros(6, 3, dtype=torch.int64), torch.zeros(2, 3, 5)],
                               lambda: [torch.arange(18).reshape(6, 3), torch.randn(2, 3, 5)])),
        dict(name="ds_unique_consecutive" + sfx, module=UniqueConsecutive, inputs=_ints(12, hi=3), format="json",
             method=method, more_inputs=_sets(_ints(12, hi=1), lambda: [torch.arange(12)])),
        dict(name="ds_write_into_selection" + sfx, module=WriteIntoSelection, inputs=lambda: [torch.randn(3, 4)],
             format="json", method=method, more_inputs=_sets(lambda: [-torch.rand(3, 4)], lambda: [torch.rand(3, 4)])),
        dict(name="ds_nms" + sfx, module=NMS, inputs=_boxes(16), format="json", method=method,
             more_inputs=_sets(_boxes(16), lambda: [torch.tensor([[0.0, 0.0, 1.0, 1.0]] * 16), torch.rand(16)],
                               lambda: [torch.arange(64.0).reshape(16, 4).cumsum(1), torch.ones(16)])),
        dict(name="ds_where_one_arg" + sfx, module=WhereOneArg,
             inputs=lambda: [torch.randn(2, 3, 4), torch.randint(0, 2, (2, 3, 4)).float()], format="json",
             method=method,
             more_inputs=_sets(lambda: [-torch.rand(2, 3, 4), torch.zeros(2, 3, 4)],
                               lambda: [torch.rand(2, 3, 4) + 0.1, torch.ones(2, 3, 4)])),
        dict(name="ds_where_scalar_cond" + sfx, module=WhereScalarCond, inputs=lambda: [torch.randn(6)],
             format="json", method=method,
             more_inputs=_sets(lambda: [-torch.rand(6)], lambda: [torch.rand(6)])),
        dict(name="ds_empty_selection" + sfx, module=EmptySelection, inputs=lambda: [torch.randn(3, 3)],
             format="json", method=method,
             more_inputs=_sets(lambda: [torch.randn(3, 3) * 1000])),
    ]
_n = torch.tensor
CASES += [
    dict(name="ds_rtlen_slice_script", module=SliceRuntimeBounds, inputs=lambda: [torch.randn(5, 4), _n(2)],
         format="json", method="script",
         more_inputs=_sets(lambda: [torch.randn(5, 4), _n(0)], lambda: [torch.randn(5, 4), _n(5)],
                           lambda: [torch.randn(5, 4), _n(9)], lambda: [torch.randn(5, 4), _n(-2)])),
    dict(name="ds_rtlen_narrow_script", module=NarrowRuntimeLength, inputs=lambda: [torch.randn(6, 5), _n(3)],
         format="json", method="script",
         more_inputs=_sets(lambda: [torch.randn(6, 5), _n(0)], lambda: [torch.randn(6, 5), _n(5)])),
    dict(name="ds_rtlen_narrow_past_end_script", module=NarrowRuntimeLength,
         inputs=lambda: [torch.randn(6, 5), _n(3)], run_inputs=lambda: [torch.randn(6, 5), _n(6)],
         format="json", method="script", run_error="start (1) + length (6) exceeds dimension size (6)"),
    dict(name="ds_rtlen_prefix_means_script", module=PrefixMeans, inputs=lambda: [torch.randn(6, 3)],
         format="json", method="script", rtol=1e-5, atol=1e-6),
    dict(name="ds_rtlen_write_script", module=WriteRuntimeSlices, inputs=lambda: [torch.randn(4, 5), _n(2)],
         format="json", method="script",
         more_inputs=_sets(lambda: [torch.randn(4, 5), _n(0)], lambda: [torch.randn(4, 5), _n(7)])),
]
CASES.append(dict(name="ds_nonzero_as_tuple_trace", module=NonzeroAsTuple, inputs=lambda: [torch.rand(4, 3)],
                  format="json", method="trace",
                  more_inputs=_sets(lambda: [torch.zeros(4, 3)], lambda: [torch.ones(4, 3)])))
