"""The sample family end to end (compiler/ops/k_sample.h): F.grid_sample in every mode with
F.affine_grid, F.interpolate bicubic / antialiased / trilinear / nearest-exact with non-integer
scale factors, 3-D pools, F.unfold / F.fold, Tensor.unfold, torchvision's roi_align / roi_pool
and deform_conv2d, compared with PyTorch. The kernel cases carry the numerics; these check
that the traced (and one scripted) graphs reach the kernels with the arguments PyTorch
passes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GridSample(nn.Module):
    def forward(self, x, g):
        return (F.grid_sample(x, g, mode="bilinear", padding_mode="zeros", align_corners=False),
                F.grid_sample(x, g, mode="nearest", padding_mode="border", align_corners=True),
                F.grid_sample(x, g, mode="bicubic", padding_mode="reflection", align_corners=False))


class SpatialTransformer(nn.Module):
    """An STN: a small localisation net gives theta, F.affine_grid and F.grid_sample apply it."""

    def __init__(self):
        super().__init__()
        self.loc = nn.Linear(3 * 8 * 8, 6)
        with torch.no_grad():
            self.loc.weight.mul_(0.1)
            self.loc.bias.copy_(torch.tensor([1.0, 0.1, 0.0, -0.1, 0.9, 0.05]))

    def forward(self, x, v):
        theta = self.loc(x.flatten(1)).view(-1, 2, 3)
        grid = F.affine_grid(theta, [x.shape[0], 3, 6, 7], align_corners=False)
        t3 = torch.tensor([[[0.9, 0.1, 0.0, 0.1], [0.0, 1.1, 0.1, 0.0], [0.1, 0.0, 0.8, -0.2]]])
        g3 = F.affine_grid(t3.expand(v.shape[0], 3, 4), [v.shape[0], 2, 3, 4, 5], align_corners=True)
        return (F.grid_sample(x, grid, align_corners=False),
                F.grid_sample(v, g3, mode="bilinear", padding_mode="border", align_corners=True))


class Interp2d(nn.Module):
    def forward(self, x):
        return (F.interpolate(x, scale_factor=1.7, mode="bicubic", align_corners=False),
                F.interpolate(x, size=(5, 7), mode="bicubic", align_corners=True),
                F.interpolate(x, size=(6, 9), mode="bilinear", antialias=True),
                F.interpolate(x, scale_factor=0.45, mode="bicubic", antialias=True),
                F.interpolate(x, scale_factor=1.6, mode="nearest-exact"))


class Interp13d(nn.Module):
    def forward(self, s, v):
        return (F.interpolate(s, scale_factor=2.3, mode="linear", align_corners=False),
                F.interpolate(s, size=11, mode="nearest"),
                F.interpolate(v, scale_factor=(1.5, 0.7, 2.2), mode="trilinear"),
                F.interpolate(v, size=(7, 3, 9), mode="trilinear", align_corners=True),
                F.interpolate(v, scale_factor=1.4, mode="nearest"),
                F.interpolate(v, size=(4, 9, 5), mode="nearest-exact"))


class Pools3d(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(2, 4, 3, padding=1)
        self.mp = nn.MaxPool3d(3, stride=2, padding=1, ceil_mode=True, return_indices=True)
        self.ap = nn.AvgPool3d((2, 3, 2), stride=(1, 2, 2), padding=1, count_include_pad=False)
        self.aap = nn.AdaptiveAvgPool3d((3, 2, 5))
        self.amp = nn.AdaptiveMaxPool3d((2, 3, 2), return_indices=True)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        m, i = self.mp(y)
        a, j = self.amp(y)
        return m, i, self.ap(y), self.aap(y), a, j, F.max_pool3d(y, 2, dilation=2)


class FoldUnfold(nn.Module):
    def forward(self, x):
        cols = F.unfold(x, (3, 2), dilation=(1, 2), padding=1, stride=(2, 1))
        back = F.fold(cols * 0.5, (7, 9), (3, 2), dilation=(1, 2), padding=1, stride=(2, 1))
        win = x.unfold(2, 3, 2)          # a view: (N, C, 3, W, 3)
        return cols, back, win.mean(-1), win[:, :, 1]


class Rois(nn.Module):
    def __init__(self):
        super().__init__()
        import torchvision  # noqa: F401 - registers torch.ops.torchvision (not while tracing)

    def forward(self, x, boxes):
        # the op torchvision.ops.roi_align / roi_pool call (their Python wrappers do not trace)
        tv = torch.ops.torchvision
        return (tv.roi_align(x, boxes, 0.5, 3, 4, -1, True), tv.roi_align(x, boxes, 1.0, 2, 2, 2, False),
                tv.roi_pool(x, boxes, 0.5, 3, 2))


class Deform(nn.Module):
    def __init__(self):
        super().__init__()
        import torchvision
        self.off = nn.Conv2d(4, 2 * 2 * 9, 3, padding=1)
        self.msk = nn.Conv2d(4, 2 * 9, 3, padding=1)
        self.dc = torchvision.ops.DeformConv2d(4, 6, 3, padding=1, groups=2)
        self.dc2 = torchvision.ops.DeformConv2d(4, 3, 3, stride=2, bias=False)

    def forward(self, x):
        import torchvision
        off = self.off(x)
        y = self.dc(x, off, torch.sigmoid(self.msk(x)))
        o2 = torch.zeros(x.shape[0], 18, 2, 3) + 0.3
        return y, self.dc2(x, o2), torchvision.ops.deform_conv2d(x, off[:, :18], self.dc.weight, None, padding=1)


class ScriptedSample(nn.Module):
    """Scripted: the ops called directly (F.interpolate and F.grid_sample script into string
    checks and error formatting that are not the sample family's)."""

    def forward(self, x, g):
        y = torch.grid_sampler(x, g, 2, 1, True)
        w = y.unfold(3, 2, 1)
        return torch.max_pool3d(w, [1, 2, 2], [1, 1, 1], [0, 1, 1], [1, 1, 1], True), w.sum(-1)


def _boxes():
    return torch.tensor([[0, 1.0, 1.5, 12.0, 9.0], [1, 3.2, 0.0, 7.7, 13.9], [0, -2.0, -1.0, 5.0, 4.0]])


TOL = dict(rtol=1e-4, atol=1e-5)
CASES = [
    dict(name="sample_grid_sample", module=GridSample,
         inputs=lambda: [torch.randn(2, 3, 7, 9), torch.rand(2, 5, 6, 2) * 2.6 - 1.3], **TOL),
    dict(name="sample_affine_stn", module=SpatialTransformer,
         inputs=lambda: [torch.randn(2, 3, 8, 8), torch.randn(2, 2, 4, 5, 6)], format="json", **TOL),
    dict(name="sample_interp_2d", module=Interp2d, inputs=lambda: [torch.randn(1, 3, 11, 13)], **TOL),
    dict(name="sample_interp_1d_3d", module=Interp13d,
         inputs=lambda: [torch.randn(2, 3, 7), torch.randn(1, 2, 4, 5, 6)], **TOL),
    dict(name="sample_pools_3d", module=Pools3d, inputs=lambda: [torch.randn(1, 2, 7, 9, 8)],
         format="json", **TOL),
    dict(name="sample_fold_unfold", module=FoldUnfold, inputs=lambda: [torch.randn(2, 3, 7, 9)], **TOL),
    dict(name="sample_roi_align_pool", module=Rois,
         inputs=lambda: [torch.randn(2, 3, 16, 15), _boxes()], **TOL),
    dict(name="sample_deform_conv2d", module=Deform, inputs=lambda: [torch.randn(2, 4, 6, 8)],
         format="json", **TOL),
    dict(name="sample_scripted", module=ScriptedSample, method="script", format="json",
         inputs=lambda: [torch.randn(1, 2, 6, 5), torch.rand(1, 4, 3, 2) * 2 - 1], **TOL),
]
