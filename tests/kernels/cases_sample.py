"""cases_sample.py — kernel cases of the sample family (compiler/ops/k_sample.h): 3-D pools
(padding, dilation, ceil_mode, count_include_pad, divisor_override, NaN, unbatched input),
adaptive 3-D pools with non-divisible sizes, upsampling in 1-3 dims (nearest, nearest-exact,
linear, trilinear, bicubic, antialiased bilinear/bicubic; output sizes and non-integer scale
factors, align_corners both), grid_sampler 2-D/3-D in every interpolation and padding mode
with grids reaching outside [-1, 1], affine_grid_generator, im2col/col2im, unfold (a view),
torchvision's roi_align / roi_pool / deform_conv2d; and the inputs PyTorch refuses. Every
expected value is computed by PyTorch (torchvision 0.14 for its ops), float32 and float64.
"""
import torch
import torchvision  # noqa: F401 - registers torch.ops.torchvision

A = torch.ops.aten
TV = torch.ops.torchvision
DTS = (torch.float32, torch.float64)


def rn(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


def tol(dt):
    return 1e-5 if dt == torch.float32 else 1e-10


def pool3d_cases(w):
    for dt in DTS:
        x = rn(2, 3, 7, 9, 8, dtype=dt)
        for (k, s, p, d, ceil) in (([2, 2, 2], [], [0, 0, 0], [1, 1, 1], False),
                                   ([3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], False),
                                   ([3, 2, 3], [2, 1, 2], [1, 1, 0], [1, 1, 1], True),
                                   ([2, 3, 2], [2, 2, 3], [1, 1, 1], [2, 1, 2], True),
                                   ([3, 3, 3], [3, 3, 3], [0, 1, 1], [1, 2, 1], False)):
            w.case("aten::max_pool3d", [x, k, s, p, d, ceil], lambda *a: A.max_pool3d(*a), tol=0)
            w.case("aten::max_pool3d_with_indices", [x, k, s, p, d, ceil],
                   lambda *a: A.max_pool3d_with_indices(*a), tol=0)
        for (k, s, p, ceil, cip, div) in (([2, 2, 2], [], [0, 0, 0], False, True, None),
                                          ([3, 3, 3], [2, 2, 2], [1, 1, 1], False, True, None),
                                          ([3, 3, 3], [2, 2, 2], [1, 1, 1], True, False, None),
                                          ([3, 2, 3], [2, 1, 2], [1, 1, 1], True, True, None),
                                          ([2, 3, 2], [2, 2, 2], [1, 1, 1], True, False, 5)):
            w.case("aten::avg_pool3d", [x, k, s, p, ceil, cip, div],
                   lambda *a: A.avg_pool3d(*a), tol=tol(dt))
        for size in ([1, 1, 1], [3, 4, 5], [7, 9, 8], [4, 2, 3], [9, 11, 10]):
            w.case("aten::adaptive_avg_pool3d", [x, size], lambda *a: A.adaptive_avg_pool3d(*a),
                   tol=tol(dt))
            w.case("aten::adaptive_max_pool3d", [x, size], lambda *a: A.adaptive_max_pool3d(*a),
                   tol=0)
    xn = rn(1, 2, 5, 6, 7)
    xn[0, 0, 2, 3, 4] = float("nan")
    xn[0, 1, 0, 0, 0] = float("nan")
    xn[0, 1, 4, 5, 6] = -float("inf")
    w.case("aten::max_pool3d_with_indices", [xn, [3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], True],
           lambda *a: A.max_pool3d_with_indices(*a), tol=0)
    w.case("aten::adaptive_max_pool3d", [xn, [2, 3, 2]], lambda *a: A.adaptive_max_pool3d(*a), tol=0)
    w.case("aten::avg_pool3d", [xn, [2, 2, 2], [2, 2, 2], [1, 1, 1], False, True, None],
           lambda *a: A.avg_pool3d(*a))
    w.case("aten::max_pool3d", [torch.full((1, 1, 3, 3, 3), -float("inf")), [2, 2, 2], [1, 1, 1],
                                [0, 0, 0], [1, 1, 1], False],
           lambda *a: A.max_pool3d_with_indices(*a)[0], tol=0)
    # unbatched (C, D, H, W), strided input, int64 average
    xu = rn(3, 6, 5, 7)
    w.case("aten::max_pool3d", [xu, [2, 2, 2], [1, 2, 1], [1, 0, 1], [1, 1, 1], False],
           lambda *a: A.max_pool3d(*a), tol=0)
    w.case("aten::avg_pool3d", [xu.transpose(1, 3), [2, 2, 2], [1, 1, 1], [1, 1, 0], True, False, None],
           lambda *a: A.avg_pool3d(*a))
    w.case("aten::adaptive_avg_pool3d", [xu[:, ::2], [2, 3, 4]], lambda *a: A.adaptive_avg_pool3d(*a))
    xi = torch.randint(-50, 50, (1, 2, 5, 5, 5))
    w.case("aten::avg_pool3d", [xi, [2, 2, 2], [2, 2, 2], [1, 1, 1], True, True, None],
           lambda *a: A.avg_pool3d(*a), tol=0)
    w.case("aten::avg_pool3d", [xi, [3, 3, 3], [2, 2, 2], [1, 1, 1], False, False, -3],
           lambda *a: A.avg_pool3d(*a), tol=0)
    # refused
    w.error("aten::max_pool3d", [xi, [2, 2, 2], [], [0, 0, 0], [1, 1, 1], False])
    w.error("aten::max_pool3d", [rn(1, 1, 4, 4, 4), [2, 2, 2], [], [2, 0, 0], [1, 1, 1], False])
    w.error("aten::max_pool3d", [rn(1, 1, 2, 4, 4), [3, 3, 3], [], [0, 0, 0], [1, 1, 1], False])
    w.error("aten::max_pool3d", [rn(4, 4, 4), [2, 2, 2], [], [0, 0, 0], [1, 1, 1], False])
    w.error("aten::avg_pool3d", [rn(1, 1, 4, 4, 4), [2, 2, 2], [], [0, 0, 0], False, True, 0])
    w.error("aten::adaptive_avg_pool3d", [xi, [2, 2, 2]])


def upsample_cases(w):
    for dt in DTS:
        t = tol(dt)
        x1, x2, x3 = rn(2, 3, 7, dtype=dt), rn(2, 3, 7, 9, dtype=dt), rn(1, 2, 5, 6, 7, dtype=dt)
        # nearest / nearest-exact: sizes and scale factors (vec) and the sized overloads
        for op, x, n in (("upsample_nearest1d", x1, 1), ("upsample_nearest3d", x3, 3),
                         ("_upsample_nearest_exact1d", x1, 1), ("_upsample_nearest_exact2d", x2, 2),
                         ("_upsample_nearest_exact3d", x3, 3)):
            f = getattr(A, op)
            sizes = {1: ([15], [4], [14]), 2: ([15, 13], [4, 5], [14, 18]),
                     3: ([11, 7, 9], [3, 4, 5], [10, 12, 14])}[n]
            for sz in sizes:
                w.case("aten::" + op, [x, sz, None], lambda x_, s_, n_, f=f: f.vec(x_, s_, None), tol=0)
            for sc in ([1.7] * n, [0.6] * n, [2.0] * n, [2.3, 0.7, 1.5][:n]):
                w.case("aten::" + op, [x, None, sc], lambda x_, s_, c_, f=f: f.vec(x_, None, c_), tol=0)
            # sized overload: scales that give the size (PyTorch reads out of bounds otherwise)
            scales = [2.3, 1.7, 1.45][:n]
            sz = [int(e * c) for e, c in zip(x.shape[2:], scales)]
            w.case("aten::" + op, [x, sz] + scales, lambda x_, s_, *c, f=f: f(x_, s_, *c), tol=0)
        # linear / trilinear / bicubic
        for op, x, n in (("upsample_linear1d", x1, 1), ("upsample_trilinear3d", x3, 3),
                         ("upsample_bicubic2d", x2, 2)):
            f = getattr(A, op)
            sizes = {1: ([15], [4], [7], [1]), 2: ([15, 13], [4, 5], [14, 18], [1, 3]),
                     3: ([11, 7, 9], [3, 4, 5], [1, 6, 14])}[n]
            for al in (False, True):
                for sz in sizes:
                    w.case("aten::" + op, [x, sz, al, None],
                           lambda x_, s_, a_, n_, f=f: f.vec(x_, s_, a_, None), tol=t)
                for sc in ([1.7] * n, [0.6] * n, [2.5, 0.45, 1.3][:n]):
                    w.case("aten::" + op, [x, None, al, sc],
                           lambda x_, s_, a_, c_, f=f: f.vec(x_, None, a_, c_), tol=t)
                scales = [2.3, 1.7, 1.45][:n]
                sz = [int(e * c) for e, c in zip(x.shape[2:], scales)]
                w.case("aten::" + op, [x, sz, al] + scales,
                       lambda x_, s_, a_, *c, f=f: f(x_, s_, a_, *c), tol=t)
        # antialiased (downscaling widens the filter; upscaling is the plain filter)
        for op in ("_upsample_bilinear2d_aa", "_upsample_bicubic2d_aa"):
            f = getattr(A, op)
            xa = rn(2, 3, 17, 23, dtype=dt)
            for al in (False, True):
                for sz in ([5, 7], [9, 23], [17, 6], [30, 40], [3, 31], [1, 1]):
                    w.case("aten::" + op, [xa, sz, al, None],
                           lambda x_, s_, a_, n_, f=f: f.vec(x_, s_, a_, None), tol=t)
                for sc in ([0.3, 0.45], [1.6, 0.7]):
                    w.case("aten::" + op, [xa, None, al, sc],
                           lambda x_, s_, a_, c_, f=f: f.vec(x_, None, a_, c_), tol=t)
                w.case("aten::" + op, [xa, [5, 9], al, 0.35, 0.4],
                       lambda x_, s_, a_, *c, f=f: f(x_, s_, a_, *c), tol=t)
    # views, NaN, uint8 nearest
    xv = rn(2, 3, 9, 7).transpose(2, 3)
    w.case("aten::upsample_bicubic2d", [xv, [11, 13], False, None],
           lambda x_, s_, a_, n_: A.upsample_bicubic2d.vec(x_, s_, a_, None))
    xu8 = torch.randint(0, 255, (1, 2, 5, 4, 3), dtype=torch.uint8)
    w.case("aten::upsample_nearest3d", [xu8, None, [1.5, 2.5, 0.7]],
           lambda x_, s_, c_: A.upsample_nearest3d.vec(x_, None, c_), tol=0)
    w.case("aten::_upsample_nearest_exact3d", [xu8, [7, 3, 5], None],
           lambda x_, s_, c_: A._upsample_nearest_exact3d.vec(x_, s_, None), tol=0)
    # refused
    w.error("aten::upsample_bicubic2d", [rn(1, 2, 3), [4, 4], False, None],
            check=lambda x_, s_, a_, n_: A.upsample_bicubic2d.vec(x_, s_, a_, None))
    w.error("aten::upsample_trilinear3d", [torch.ones(1, 1, 2, 2, 2, dtype=torch.int64), [3, 3, 3], False, None],
            check=lambda x_, s_, a_, n_: A.upsample_trilinear3d.vec(x_, s_, a_, None))
    w.error("aten::upsample_linear1d", [rn(1, 2, 3), [0], False, None],
            check=lambda x_, s_, a_, n_: A.upsample_linear1d.vec(x_, s_, a_, None))
    w.error("aten::upsample_nearest1d", [rn(1, 2, 3), None, None],
            check=lambda x_, s_, n_: A.upsample_nearest1d.vec(x_, None, None))


def grid_cases(w):
    for dt in DTS:
        t = tol(dt)
        x = rn(2, 3, 5, 7, dtype=dt)
        g = (torch.rand(2, 4, 6, 2, dtype=dt) * 2.6 - 1.3)  # reaches outside [-1, 1]
        g[0, 0, 0] = torch.tensor([-1.0, 1.0])
        g[0, 0, 1] = torch.tensor([1.0, -1.0])
        g[1, 3, 5] = torch.tensor([3.7, -4.2])               # far outside: reflections fold twice
        g[1, 3, 4] = torch.tensor([-9.1, 12.5])
        for im in (0, 1, 2):
            for pm in (0, 1, 2):
                for al in (False, True):
                    w.case("aten::grid_sampler", [x, g, im, pm, al], lambda *a: A.grid_sampler(*a), tol=t)
        w.case("aten::grid_sampler_2d", [x, g, 0, 2, False], lambda *a: A.grid_sampler_2d(*a), tol=t)
        x3 = rn(2, 2, 4, 5, 6, dtype=dt)
        g3 = torch.rand(2, 3, 4, 5, 3, dtype=dt) * 2.6 - 1.3
        g3[1, 2, 3, 4] = torch.tensor([5.3, -3.9, 7.7])
        for im in (0, 1):
            for pm in (0, 1, 2):
                for al in (False, True):
                    w.case("aten::grid_sampler", [x3, g3, im, pm, al], lambda *a: A.grid_sampler(*a), tol=t)
        w.case("aten::grid_sampler_3d", [x3, g3, 0, 0, True], lambda *a: A.grid_sampler_3d(*a), tol=t)
        # affine grids
        th = rn(2, 2, 3, dtype=dt)
        th3 = rn(2, 3, 4, dtype=dt)
        for al in (False, True):
            for size in ([2, 3, 5, 7], [2, 1, 1, 9], [2, 4, 12, 3]):
                w.case("aten::affine_grid_generator", [th, size, al],
                       lambda *a: A.affine_grid_generator(*a), tol=t)
            for size in ([2, 3, 4, 5, 6], [2, 1, 3, 1, 10]):
                w.case("aten::affine_grid_generator", [th3, size, al],
                       lambda *a: A.affine_grid_generator(*a), tol=t)
    # one-pixel dims, strided grid, NaN grid
    x1 = rn(1, 2, 1, 6)
    g1 = torch.rand(1, 3, 4, 2) * 3 - 1.5
    for pm in (0, 1, 2):
        for al in (False, True):
            w.case("aten::grid_sampler", [x1, g1, 0, pm, al], lambda *a: A.grid_sampler(*a))
    gt = (torch.rand(1, 2, 5, 4) * 2 - 1).permute(0, 2, 3, 1)[:, :, :3]
    w.case("aten::grid_sampler", [rn(1, 3, 4, 4), gt, 2, 1, False], lambda *a: A.grid_sampler(*a))
    gn = torch.rand(1, 2, 2, 2) * 2 - 1
    gn[0, 0, 0, 0] = float("nan")
    gn[0, 1, 1, 1] = float("inf")
    gn[0, 1, 0, 0] = -float("inf")
    for pm in (0, 1, 2):
        for im in (0, 1, 2):
            w.case("aten::grid_sampler", [rn(1, 1, 3, 3), gn, im, pm, False], lambda *a: A.grid_sampler(*a))
    gn3 = torch.rand(1, 2, 2, 2, 3) * 2 - 1
    gn3[0, 0, 0, 0, 0] = float("nan")
    gn3[0, 1, 1, 1, 2] = float("inf")
    gn3[0, 1, 0, 1, 1] = -float("inf")
    for pm in (0, 1, 2):
        for im in (0, 1):
            w.case("aten::grid_sampler", [rn(1, 2, 3, 4, 3), gn3, im, pm, True], lambda *a: A.grid_sampler(*a))
    # refused
    w.error("aten::grid_sampler", [rn(1, 1, 3, 3, 3), torch.zeros(1, 2, 2, 2, 3), 2, 0, False])
    w.error("aten::grid_sampler", [rn(1, 1, 3, 3), torch.zeros(1, 2, 2, 2, dtype=torch.float64), 0, 0, False])
    w.error("aten::grid_sampler", [rn(1, 1, 3, 3), torch.zeros(2, 2, 2, 2), 0, 0, False])
    w.error("aten::grid_sampler_3d", [rn(1, 1, 3, 3), torch.zeros(1, 2, 2, 2), 0, 0, False])
    w.error("aten::affine_grid_generator", [rn(2, 2, 3), [2, 3, 4, 5, 6], False])


def im2col_cases(w):
    for dt in DTS:
        x = rn(2, 3, 7, 8, dtype=dt)
        for (k, d, p, s) in (([3, 3], [1, 1], [1, 1], [1, 1]), ([2, 3], [1, 2], [0, 1], [2, 1]),
                             ([3, 2], [2, 1], [2, 0], [3, 2]), ([7, 8], [1, 1], [0, 0], [1, 1])):
            w.case("aten::im2col", [x, k, d, p, s], lambda *a: A.im2col(*a), tol=0)
            cols = A.im2col(x, k, d, p, s)
            w.case("aten::col2im", [torch.randn_like(cols), [7, 8], k, d, p, s],
                   lambda *a: A.col2im(*a), tol=tol(dt))
        w.case("aten::im2col", [x[0].transpose(1, 2), [2, 2], [1, 1], [1, 1], [2, 2]],
               lambda *a: A.im2col(*a), tol=0)
        w.case("aten::col2im", [rn(12, 20, dtype=dt), [6, 5], [2, 2], [1, 1], [0, 0], [1, 1]],
               lambda *a: A.col2im(*a), tol=tol(dt))
        # unfold: views over every dim, step below and above size
        u = rn(4, 9, 6, dtype=dt)
        for (d, sz, st) in ((0, 2, 1), (1, 3, 2), (-1, 6, 1), (2, 1, 4), (1, 0, 3), (1, 9, 5)):
            w.case("aten::unfold", [u, d, sz, st], lambda *a: A.unfold(*a), tol=0)
        w.case("aten::unfold", [u.transpose(0, 2)[1:], 1, 2, 2], lambda *a: A.unfold(*a), tol=0)
    w.case("aten::unfold", [torch.tensor(3.5), 0, 1, 1], lambda *a: A.unfold(*a), tol=0)
    w.case("aten::im2col", [rn(1, 2, 5, 5).half(), [2, 2], [1, 1], [0, 0], [1, 1]], lambda *a: A.im2col(*a), tol=0)
    # refused
    w.error("aten::im2col", [rn(1, 2, 3, 3), [5, 5], [1, 1], [0, 0], [1, 1]])
    w.error("aten::im2col", [rn(1, 2, 3, 3), [0, 2], [1, 1], [0, 0], [1, 1]])
    w.error("aten::col2im", [rn(1, 10, 9), [4, 4], [2, 2], [1, 1], [0, 0], [1, 1]])
    w.error("aten::col2im", [rn(1, 12, 8), [4, 4], [2, 2], [1, 1], [0, 0], [1, 1]])
    w.error("aten::unfold", [rn(3, 4), 1, 5, 1])
    w.error("aten::unfold", [rn(3, 4), 1, 2, 0])
    w.error("aten::unfold", [rn(3, 4), 2, 2, 1])


def tv_cases(w):
    for dt in DTS:
        t = tol(dt) * 10
        x = rn(2, 3, 11, 13, dtype=dt)
        rois = torch.tensor([[0, 1.2, 0.7, 9.6, 8.1], [1, -2.0, -1.5, 4.2, 3.3],
                             [1, 3.0, 2.0, 3.4, 2.1], [0, 8.5, 7.9, 20.0, 15.0],
                             [1, 0.0, 0.0, 12.9, 10.9], [0, 5.0, 5.0, 4.0, 3.0]], dtype=dt)
        for (ss, ph, pw, sr, al) in ((1.0, 3, 4, 2, False), (1.0, 2, 2, -1, False), (0.5, 5, 3, 0, True),
                                     (1.0, 7, 7, -1, True), (1.3, 1, 1, 3, False), (0.8, 4, 2, 1, True)):
            w.case("torchvision::roi_align", [x, rois, ss, ph, pw, sr, al],
                   lambda *a: TV.roi_align(*a), tol=t)
        for (ss, ph, pw) in ((1.0, 3, 4), (0.5, 2, 2), (1.3, 5, 3)):
            w.case("torchvision::roi_pool", [x, rois, ss, ph, pw], lambda *a: TV.roi_pool(*a), tol=0)
        # deform_conv2d: with and without mask, weight and offset groups, stride / padding / dilation
        for (cin, cout, k, s, p, d, g, og, mask) in ((4, 6, (3, 3), (1, 1), (1, 1), (1, 1), 1, 1, True),
                                                     (4, 6, (3, 2), (2, 1), (1, 0), (1, 2), 2, 2, False),
                                                     (6, 4, (2, 2), (1, 2), (0, 1), (2, 1), 2, 3, True)):
            xi = rn(2, cin, 7, 8, dtype=dt)
            wt = rn(cout, cin // g, *k, dtype=dt)
            oh = (7 + 2 * p[0] - (d[0] * (k[0] - 1) + 1)) // s[0] + 1
            ow = (8 + 2 * p[1] - (d[1] * (k[1] - 1) + 1)) // s[1] + 1
            off = rn(2, og * 2 * k[0] * k[1], oh, ow, dtype=dt) * 2.5
            mk = torch.rand(2, og * k[0] * k[1], oh, ow, dtype=dt) if mask else torch.zeros(2, 1, dtype=dt)
            b = rn(cout, dtype=dt)
            w.case("torchvision::deform_conv2d",
                   [xi, wt, off, mk, b, s[0], s[1], p[0], p[1], d[0], d[1], g, og, mask],
                   lambda *a: TV.deform_conv2d(*a), tol=1e-4 if dt == torch.float32 else 1e-9)
    x = rn(1, 2, 5, 5)
    w.error("torchvision::roi_align", [x, torch.tensor([[0, 1.0, 1.0, 3.0, 3.0]], dtype=torch.float64), 1.0, 2, 2, 2, False],
            check=lambda *a: TV.roi_align(*a))


def nms_cases(w):
    """torchvision::nms: boxes that overlap in clusters, scores with ties (kept in index order: a
    stable sort), thresholds from none to all suppressed, strided inputs, no boxes."""
    for dt in (torch.float32, torch.float64):
        for n, thr in [(12, 0.5), (12, 0.0), (30, 0.3), (30, 0.7), (5, 1.0), (1, 0.5)]:
            xy = torch.rand(n, 2, dtype=dt) * 4
            wh = torch.rand(n, 2, dtype=dt) * 3 + 0.1
            boxes = torch.cat([xy, xy + wh], 1)
            scores = torch.randint(0, 5, (n,)).to(dt) / 4  # ties
            w.case("torchvision::nms", [boxes, scores, thr], lambda *a: TV.nms(*a))
        boxes = torch.cat([xy, xy + wh], 1).t().contiguous().t()  # column-major boxes
        w.case("torchvision::nms", [boxes, scores.flip(0), 0.4], lambda *a: TV.nms(*a))
        w.case("torchvision::nms", [torch.zeros(0, 4, dtype=dt), torch.zeros(0, dtype=dt), 0.5], lambda *a: TV.nms(*a))
    b, s = torch.rand(4, 4), torch.rand(4)
    w.error("torchvision::nms", [b.half(), s.half(), 0.5], check=lambda *a: TV.nms(*a))
    w.error("torchvision::nms", [b, s.double(), 0.5], check=lambda *a: TV.nms(*a))
    w.error("torchvision::nms", [b[:, :3], s, 0.5], check=lambda *a: TV.nms(*a))
    w.error("torchvision::nms", [b, torch.rand(5), 0.5], check=lambda *a: TV.nms(*a))


def cases(w):
    pool3d_cases(w)
    upsample_cases(w)
    grid_cases(w)
    im2col_cases(w)
    tv_cases(w)
    nms_cases(w)
