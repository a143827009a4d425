"""End-to-end cases of the linalg family's composite and small-matrix ops and of embedding_bag:
nn.EmbeddingBag / F.embedding_bag (modes, offsets, include_last_offset, per_sample_weights,
padding_idx), distances (pairwise_distance, cosine_similarity, cdist), nn.Bilinear, the
diagonal / stack / rotation ops, tensordot and count_nonzero, LU-based inverse and
determinants, matrix norms, fractional max pooling with given samples; and a singular matrix given to linalg.inv at run time."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Bags(nn.Module):
    """nn.EmbeddingBag in three forms: 2-D input with max and a padding row; 1-D input with
    offsets, per-sample weights and include_last_offset; F.embedding_bag mean."""

    def __init__(self):
        super().__init__()
        self.mx = nn.EmbeddingBag(12, 4, mode="max", padding_idx=3)
        self.sm = nn.EmbeddingBag(12, 4, mode="sum", include_last_offset=True)
        self.w = nn.Parameter(torch.randn(12, 4))

    def forward(self, idx2d, idx, offsets, psw):
        a = self.mx(idx2d)
        b = self.sm(idx, offsets, per_sample_weights=psw)
        c = F.embedding_bag(idx, self.w, offsets[:-1], mode="mean", padding_idx=-1)
        return a, b, c


def bag_inputs():
    return [torch.tensor([[1, 3, 5], [3, 3, 3], [0, 11, 2]]), torch.tensor([4, 0, 3, 3, 7, 1, 9, 2]),
            torch.tensor([0, 2, 2, 5, 8]), torch.rand(8)]


class Distances(nn.Module):
    def forward(self, x, y, z):
        return (F.pairwise_distance(x, y), F.pairwise_distance(x, y, p=1.0, keepdim=True),
                F.cosine_similarity(x, y), F.cosine_similarity(z, y, dim=-1),
                torch.cdist(z, y), torch.cdist(z, y, p=1.0), torch.cdist(x, y, compute_mode="use_mm_for_euclid_dist"))


class BilinearNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.b = nn.Bilinear(5, 3, 4)

    def forward(self, x1, x2):
        return torch.relu(self.b(x1, x2))


class MatrixShapes(nn.Module):
    def forward(self, x, v, n):
        return (torch.outer(v, v[:3]), torch.trace(x), torch.diag(v, 1), torch.diag(x, -1),
                torch.diag_embed(x, 0, 0, 2), torch.diagflat(x[:2, :2]), torch.rot90(x, 1, [0, 1]),
                torch.rot90(x, -1, [1, 0]), torch.hstack([x, x[:, :1]]), torch.vstack([x, v[:3]]),
                torch.dstack([x, x]), torch.column_stack([v[:4], x]), torch.row_stack([v[:3], x[0]]),
                torch.tensordot(x, n.float(), dims=([1], [0])), torch.count_nonzero(n, 0), torch.count_nonzero(n))


class SmallLinalg(nn.Module):
    def forward(self, a, b):
        sign, logabs = torch.linalg.slogdet(b)
        return (torch.linalg.inv(a), torch.det(a), torch.linalg.det(b), sign, logabs, torch.logdet(a @ a.mT),
                torch.linalg.matrix_norm(b), torch.linalg.matrix_norm(b, 1), torch.linalg.norm(b, float("inf"), (-1, -2)),
                torch.linalg.norm(a), torch.linalg.norm(a[0, 0], 3.0), torch.linalg.matrix_norm(a, 2),
                torch.linalg.matrix_norm(b, "nuc"), torch.nuclear_norm(a[1]))


class FracPool(nn.Module):
    """nn.FractionalMaxPool2d / 3d with given samples (without them PyTorch draws the samples with
    aten::rand, whose values in mc are not PyTorch's)."""

    def __init__(self):
        super().__init__()
        self.p2 = nn.FractionalMaxPool2d(2, output_size=(4, 3), return_indices=True, _random_samples=torch.rand(2, 3, 2))
        self.p3 = nn.FractionalMaxPool3d(2, output_size=(2, 3, 2), _random_samples=torch.rand(1, 2, 3))

    def forward(self, x, v):
        y, i = self.p2(x)
        return y, i, self.p3(v)


class Inverse(nn.Module):
    def forward(self, a):
        return torch.linalg.inv(a) * 2


def well_conditioned(*shape):
    n = shape[-1]
    return torch.randn(*shape) + 3 * torch.eye(n)


CASES = [
    dict(name="more_embedding_bag", module=Bags, inputs=bag_inputs, format="json"),
    dict(name="more_embedding_bag_script", module=Bags, inputs=bag_inputs, format="json", method="script"),
    dict(name="more_distances", module=Distances,
         inputs=lambda: [torch.randn(4, 6), torch.randn(30, 6)[:4], torch.randn(2, 4, 6)], rtol=1e-4, atol=1e-5),
    dict(name="more_distances_script", module=Distances,
         inputs=lambda: [torch.randn(4, 6), torch.randn(4, 6), torch.randn(2, 4, 6)], method="script", format="json",
         rtol=1e-4, atol=1e-5),
    dict(name="more_bilinear", module=BilinearNet, inputs=lambda: [torch.randn(2, 3, 5), torch.randn(2, 3, 3)],
         format="json"),
    dict(name="more_matrix_shapes", module=MatrixShapes,
         inputs=lambda: [torch.randn(4, 3), torch.randn(5), torch.randint(-1, 2, (3, 2))], rtol=1e-5, atol=1e-5),
    dict(name="more_small_linalg", module=SmallLinalg,
         inputs=lambda: [well_conditioned(2, 3, 3), well_conditioned(4, 4).double()], method="script", format="json",
         rtol=1e-4, atol=1e-5),
    dict(name="more_fractional_max_pool", module=FracPool, inputs=lambda: [torch.randn(2, 3, 9, 7), torch.randn(1, 2, 5, 6, 5)],
         format="json"),
    # run with a singular matrix (PyTorch: linalg.inv: The diagonal element 2 is zero, ...)
    dict(name="more_inv_singular", module=Inverse, inputs=lambda: [well_conditioned(3, 3)],
         run_inputs=lambda: [torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])],
         run_error="linalg.inv: The diagonal element 2 is zero"),
]
