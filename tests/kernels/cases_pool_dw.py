"""cases_pool_dw.py — kernel cases of the float32 fast paths of the depthwise convolution
(compiler/ops/k_dw.h) and the pools (compiler/ops/k_pool.h): rows wide enough for full vector
blocks (16 lanes), masked tails and scalar edge columns, stride 1 and 2, 3x3 and 5x5 kernels,
padding 0/1/2 (rows with no input at all), channel multiplier 2, fused activations; max pools
with NaN in interior and edge windows, avg pools with every divisor rule and ceil_mode,
adaptive average pools (1x1 and general). Every expected value is computed by PyTorch.
"""
import torch

A = torch.ops.aten
F32_TOL = 1e-4


def rn(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


def dw_cases(w):
    def dw(x, k, s, p, mult=1, bias=True, d=1):
        c = x.shape[1]
        wt = rn(c * mult, 1, *k) if len(k) == 2 else rn(c * mult, 1, k[0])
        b = rn(c * mult) if bias else None
        conv = A.conv2d if len(k) == 2 else A.conv1d
        dil = [d] * len(k)
        w.case("aten::conv2d" if len(k) == 2 else "aten::conv1d", [x, wt, b, s, p, dil, c],
               lambda *a: conv(*a), tol=F32_TOL)

    for kk in (3, 5):
        for s in (1, 2):
            for p in (0, 1, 2):
                dw(rn(1, 3, 21, 37), [kk, kk], [s, s], [p, p])
    dw(rn(2, 4, 40, 70), [3, 3], [1, 1], [1, 1])            # several full blocks + tail
    dw(rn(1, 4, 41, 71), [3, 3], [2, 2], [1, 1])
    dw(rn(1, 4, 41, 71), [5, 5], [2, 2], [2, 2])
    dw(rn(1, 5, 7, 7), [3, 3], [1, 1], [1, 1])              # a masked block only
    dw(rn(1, 5, 7, 7), [3, 3], [2, 2], [1, 1])
    dw(rn(1, 5, 14, 14), [5, 5], [1, 1], [2, 2])
    dw(rn(1, 3, 3, 4), [3, 3], [1, 1], [2, 2])              # interior empty, edge only
    dw(rn(1, 2, 5, 5), [3, 3], [1, 1], [3, 3])              # rows with no input
    dw(rn(1, 3, 18, 33), [3, 3], [1, 1], [1, 1], mult=2)    # channel multiplier 2
    dw(rn(1, 3, 18, 33), [5, 5], [2, 2], [2, 2], mult=2, bias=False)
    dw(rn(1, 3, 19, 35), [3, 5], [2, 1], [1, 2])            # rectangular, mixed strides
    dw(rn(1, 3, 19, 35), [5, 3], [1, 2], [2, 0])
    dw(rn(1, 3, 19, 35), [1, 3], [1, 2], [0, 1])
    dw(rn(1, 3, 19, 35), [3, 3], [3, 3], [1, 1])            # stride 3: portable path
    dw(rn(1, 3, 19, 35), [3, 3], [1, 1], [2, 2], d=2)       # dilation: portable path
    dw(rn(2, 6, 50), [3], [1], [1])                         # 1-D
    dw(rn(2, 6, 51), [5], [2], [2])
    x = rn(1, 4, 16, 40)
    x[0, 1, 5, 20] = float("nan")
    x[0, 2, 0, 0] = float("inf")
    dw(x, [3, 3], [2, 2], [1, 1])

    # fused bias + activation per output row (relu6 as mobilenet's, silu as efficientnet's)
    F = torch.nn.functional
    for act, lo, hi, ref in (("hardtanh", 0.0, 6.0, lambda t: F.hardtanh(t, 0.0, 6.0)),
                             ("relu", -1.0, 1.0, torch.relu), ("silu", -1.0, 1.0, F.silu)):
        for kk, s in ((3, 1), (3, 2), (5, 2)):
            x, wt, b = rn(1, 6, 23, 38) * 3, rn(6, 1, kk, kk), rn(6)
            w.case("mc::conv_act", [x, wt, b, [s, s], [kk // 2, kk // 2], [1, 1], 6, act, lo, hi],
                   lambda x, wt, b, s_, p_, d_, g_, *r: ref(A.conv2d(x, wt, b, s_, p_, d_, g_)),
                   tol=F32_TOL)


def pool_cases(w):
    def mp(x, k, s, p, d, ceil, op="aten::max_pool2d"):
        w.case(op, [x, k, s, p, d, ceil], lambda *a: getattr(A, op.split("::")[1])(*a))

    for (k, s, p) in (([3, 3], [2, 2], [1, 1]), ([3, 3], [1, 1], [1, 1]), ([2, 2], [2, 2], [0, 0]),
                      ([5, 5], [2, 2], [2, 2]), ([4, 3], [2, 1], [2, 1]), ([3, 3], [3, 3], [0, 0]),
                      ([1, 1], [2, 2], [0, 0])):
        for ceil in (False, True):
            mp(rn(2, 3, 23, 41), k, s, p, [1, 1], ceil)
    mp(rn(1, 8, 56, 56), [3, 3], [2, 2], [1, 1], [1, 1], False)  # resnet stem, smaller
    mp(rn(1, 3, 7, 7), [3, 3], [2, 2], [1, 1], [1, 1], True)
    mp(rn(1, 3, 20, 37), [3, 3], [2, 2], [1, 1], [2, 2], False)  # dilation: generic path
    mp(rn(1, 3, 20, 37)[:, :, :, 1:], [3, 3], [2, 2], [1, 1], [1, 1], False)  # strided rows
    mp(torch.full((1, 2, 9, 40), -float("inf")), [3, 3], [2, 2], [1, 1], [1, 1], False)
    xn = rn(1, 3, 19, 40)
    for (c, h, ww) in ((0, 0, 0), (0, 5, 20), (1, 9, 39), (2, 4, 7), (2, 4, 8), (2, 18, 30)):
        xn[0, c, h, ww] = float("nan")
    xn[0, 1, 3, 10] = float("inf")
    for (k, s) in (([3, 3], [2, 2]), ([3, 3], [1, 1]), ([2, 2], [2, 2])):
        mp(xn, k, s, [1, 1] if k[0] == 3 else [0, 0], [1, 1], True)
    mp(xn, [3, 3], [2, 2], [1, 1], [1, 1], False, op="aten::max_pool2d_with_indices")

    def ap(x, k, s, p, ceil, cip, div=None):
        w.case("aten::avg_pool2d", [x, k, s, p, ceil, cip, div], lambda *a: A.avg_pool2d(*a))

    for (k, s, p) in (([3, 3], [1, 1], [1, 1]), ([3, 3], [2, 2], [1, 1]), ([2, 2], [2, 2], [0, 0]),
                      ([5, 5], [2, 2], [2, 2]), ([3, 2], [3, 1], [1, 0])):
        for ceil in (False, True):
            for cip in (False, True):
                ap(rn(2, 3, 22, 39), k, s, p, ceil, cip)
    ap(rn(1, 3, 22, 39), [3, 3], [2, 2], [1, 1], True, False, 5)
    ap(rn(1, 3, 22, 39), [2, 2], [1, 1], [1, 1], False, True, 3)
    ap(rn(1, 3, 7, 7), [3, 3], [2, 2], [1, 1], True, True)
    ap(rn(1, 3, 22, 39)[:, :, ::2, :], [3, 3], [2, 2], [1, 1], False, True)  # strided rows
    xn = rn(1, 2, 9, 33)
    xn[0, 0, 4, 17] = float("nan")
    xn[0, 1, 0, 0] = float("inf")
    ap(xn, [3, 3], [2, 2], [1, 1], False, True)

    def ad(x, size):
        w.case("aten::adaptive_avg_pool2d", [x, size], lambda *a: A.adaptive_avg_pool2d(*a))

    ad(rn(1, 64, 7, 7), [1, 1])
    ad(rn(2, 5, 56, 56), [1, 1])
    ad(rn(3, 9, 13), [1, 1])
    ad(rn(1, 3, 30, 41), [7, 7])
    ad(rn(1, 3, 30, 41), [7, 1])
    ad(rn(1, 4, 14, 14), [7, 7])
    ad(rn(1, 3, 5, 6), [9, 11])
    ad(rn(1, 3, 30, 41)[:, :, 1:, :], [4, 4])


def cases(w):
    dw_cases(w)
    pool_cases(w)
