"""cases_conv.py — kernel cases of the conv family (compiler/ops/k_conv.h): convolutions (plain,
strided, padded, dilated, grouped, depthwise, transposed, 1-D/3-D, 'same'/'valid'), norms,
pools (ceil_mode edge windows, count_include_pad, adaptive with non-divisible sizes), upsampling,
padding and channel permutations. Every expected value is computed by PyTorch; inputs include
views (channels_last, transposed, sliced) so kernels are exercised on arbitrary strides.
Sizes are chosen to cross the SGEMM's block edges (MR=6, NR=16, KC=256, NC=2048).
"""
import torch

A = torch.ops.aten
F32_TOL = 1e-4


def rn(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


def nchw_view(t):
    """Same values as t, stored channels_last (non-contiguous NCHW strides)."""
    return t.contiguous(memory_format=torch.channels_last)


def hw_transposed(t):
    """Same values as t, through a transposed view of a (N, C, W, H) tensor."""
    return t.transpose(-1, -2).contiguous().transpose(-1, -2)


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


def conv_act_cases(w):
    """mc::conv_act = act(conv2d(...)), against PyTorch's conv followed by its activation: the
    GEMM epilogue in both orientations (bias per row; per column when P < Cout), several K
    blocks (Cin * kh * kw > 256), the depthwise direct loop, 1-D, 'same' padding, no bias,
    float64 (generic path)."""
    def case(x, wt, b, stride, pad, dil, groups, act, lo=-1.0, hi=1.0, tol=F32_TOL):
        conv = A.conv1d if wt.dim() == 3 else A.conv2d
        ref = act_ref(act, lo, hi)
        w.case("mc::conv_act", [x, wt, b, stride, pad, dil, groups, act, lo, hi],
               lambda x, wt, b, s, p, d, g, *r: ref(conv(x, wt, b, s, p, d, g)), tol=tol)

    for act, lo, hi in FUSED_ACTS:
        case(rn(2, 8, 9, 9), rn(16, 8, 3, 3), rn(16), [1, 1], [1, 1], [1, 1], 1, act, lo, hi)
        case(rn(1, 8, 9, 9), rn(8, 1, 3, 3), rn(8), [2, 2], [1, 1], [1, 1], 8, act, lo, hi)
    for act, lo, hi in [("relu", -1.0, 1.0), ("hardtanh", 0.0, 6.0), ("silu", -1.0, 1.0), ("none", -1.0, 1.0)]:
        case(rn(1, 32, 2, 2), rn(40, 32, 1, 1), rn(40), [1, 1], [0, 0], [1, 1], 1, act, lo, hi)
        case(rn(1, 64, 6, 6), rn(20, 64, 3, 3), rn(20), [1, 1], [1, 1], [1, 1], 1, act, lo, hi,
             tol=2e-4)
    case(rn(1, 6, 7, 7), rn(9, 2, 3, 3), None, [2, 2], [1, 1], [1, 1], 3, "relu")
    case(rn(2, 4, 10), rn(6, 4, 3), rn(6), [1], [1], [1], 1, "gelu")
    case(rn(1, 4, 8, 8), rn(5, 4, 3, 3), rn(5), [1, 1], "same", [1, 1], 1, "hardswish")
    case(nchw_view(rn(1, 3, 8, 8)), rn(7, 3, 3, 3), rn(7), [1, 1], [1, 1], [1, 1], 1, "relu")
    d = torch.float64
    case(rn(1, 3, 6, 6, dtype=d), rn(4, 3, 3, 3, dtype=d), rn(4, dtype=d), [1, 1], [1, 1],
         [1, 1], 1, "silu", tol=1e-10)
    case(rn(1, 3, 6, 6, dtype=d), rn(4, 3, 3, 3, dtype=d), rn(4, dtype=d), [1, 1], [1, 1],
         [1, 1], 1, "hardtanh", -0.5, 0.5, tol=1e-10)


def conv_cases(w):
    def conv(x, wt, b, stride, pad, dil, groups, tol=F32_TOL, op="aten::conv2d"):
        args = [x, wt, b, stride, pad, dil, groups]
        w.case(op, args, lambda *a: getattr(A, op.split("::")[1])(*a), tol=tol)

    def conv_(x, wt, b, stride, pad, dil, transposed, opad, groups, tol=F32_TOL):
        args = [x, wt, b, stride, pad, dil, transposed, opad, groups, False, False, True, True]
        w.case("aten::_convolution", args, lambda *a: A._convolution(*a), tol=tol)

    # the resnet stem and block shapes, small
    conv(rn(2, 3, 8, 8), rn(4, 3, 3, 3), rn(4), [1, 1], [1, 1], [1, 1], 1)
    conv(rn(1, 3, 23, 21), rn(8, 3, 7, 7), None, [2, 2], [3, 3], [1, 1], 1)
    conv(rn(2, 5, 9, 7), rn(6, 5, 3, 3), None, [2, 2], [0, 0], [1, 1], 1)
    conv(rn(1, 4, 10, 11), rn(3, 4, 3, 3), rn(3), [1, 1], [2, 2], [2, 2], 1)
    conv(rn(1, 4, 10, 11), rn(5, 4, 3, 5), rn(5), [1, 2], [1, 2], [1, 1], 1)
    conv(rn(1, 4, 10, 11), rn(5, 4, 2, 3), rn(5), [3, 2], [1, 0], [2, 1], 1)
    # grouped
    conv(rn(2, 4, 7, 7), rn(6, 2, 3, 3), rn(6), [1, 1], [1, 1], [1, 1], 2)
    conv(rn(1, 6, 9, 9), rn(9, 2, 3, 3), None, [2, 2], [1, 1], [1, 1], 3)
    # depthwise (mobilenet_v2): multiplier 1 and 2, stride 1 and 2, dilation
    conv(rn(2, 8, 9, 9), rn(8, 1, 3, 3), rn(8), [1, 1], [1, 1], [1, 1], 8)
    conv(rn(1, 8, 12, 11), rn(8, 1, 3, 3), rn(8), [2, 2], [1, 1], [1, 1], 8)
    conv(rn(1, 4, 10, 10), rn(8, 1, 3, 3), None, [1, 1], [2, 2], [2, 2], 4)
    conv(rn(1, 3, 10, 10), rn(24, 1, 5, 5), None, [2, 1], [2, 2], [1, 1], 3)
    # Cin == 1, groups == 1 (direct path with many output channels goes to GEMM)
    conv(rn(2, 1, 9, 9), rn(3, 1, 3, 3), rn(3), [1, 1], [0, 0], [1, 1], 1)
    conv(rn(2, 1, 9, 9), rn(10, 1, 3, 3), rn(10), [1, 1], [1, 1], [1, 1], 1)
    # 1x1 (no im2col), 1x1 strided (resnet downsample)
    conv(rn(2, 16, 7, 6), rn(20, 16, 1, 1), rn(20), [1, 1], [0, 0], [1, 1], 1)
    conv(rn(1, 16, 8, 8), rn(32, 16, 1, 1), None, [2, 2], [0, 0], [1, 1], 1)
    # reductions longer than KC, M not a multiple of MR, N crossing NC
    conv(rn(1, 64, 14, 14), rn(70, 64, 3, 3), rn(70), [1, 1], [1, 1], [1, 1], 1, tol=2e-4)
    conv(rn(1, 300, 5, 5), rn(7, 300, 1, 1), rn(7), [1, 1], [0, 0], [1, 1], 1, tol=2e-4)
    conv(rn(1, 4, 50, 47), rn(13, 4, 3, 3), rn(13), [1, 1], [1, 1], [1, 1], 1)
    # unbatched input
    conv(rn(3, 8, 8), rn(4, 3, 3, 3), rn(4), [1, 1], [1, 1], [1, 1], 1)
    # int broadcast lists of length 1
    conv(rn(1, 3, 8, 8), rn(4, 3, 3, 3), rn(4), [2], [1], [1], 1)
    # strided inputs and weights
    conv(nchw_view(rn(2, 6, 8, 9)), rn(4, 6, 3, 3), rn(4), [1, 1], [1, 1], [1, 1], 1)
    conv(hw_transposed(rn(1, 3, 9, 8)), hw_transposed(rn(5, 3, 3, 3)), rn(10)[::2], [1, 1],
         [1, 1], [1, 1], 1)
    conv(rn(1, 3, 16, 16)[:, :, ::2, 1::2], rn(4, 3, 3, 3), rn(4), [1, 1], [0, 0], [1, 1], 1)
    conv(nchw_view(rn(1, 8, 9, 9)), rn(8, 1, 3, 3), rn(8), [1, 1], [1, 1], [1, 1], 8)
    # 'same' / 'valid' (str overloads), even kernels make 'same' asymmetric
    conv(rn(1, 3, 8, 9), rn(4, 3, 4, 3), rn(4), [1, 1], "same", [1, 1], 1)
    conv(rn(1, 3, 11, 9), rn(4, 3, 4, 2), None, [1, 1], "same", [2, 3], 1)
    conv(rn(1, 3, 8, 9), rn(4, 3, 3, 3), rn(4), [1, 1], "valid", [1, 1], 1)
    conv(rn(2, 3, 10), rn(5, 3, 4), rn(5), [1], "same", [1], 1, op="aten::conv1d")
    # 1-D and 3-D
    conv(rn(2, 3, 17), rn(5, 3, 3), rn(5), [2], [1], [1], 1, op="aten::conv1d")
    conv(rn(2, 4, 17), rn(4, 1, 5), None, [1], [4], [2], 4, op="aten::conv1d")
    conv(rn(3, 17), rn(5, 3, 3), rn(5), [1], [0], [1], 1, op="aten::conv1d")
    conv(rn(1, 2, 5, 6, 7), rn(3, 2, 3, 3, 2), rn(3), [1, 2, 1], [1, 1, 0], [1, 1, 2], 1,
         op="aten::conv3d")
    conv(rn(1, 4, 5, 6, 5), rn(4, 2, 2, 3, 3), None, [2, 1, 1], [0, 1, 1], [1, 1, 1], 2,
         op="aten::conv3d")
    # float64 (generic path)
    d = torch.float64
    conv(rn(2, 3, 8, 7, dtype=d), rn(4, 3, 3, 3, dtype=d), rn(4, dtype=d), [2, 1], [1, 1],
         [1, 2], 1, tol=1e-10)
    conv(rn(1, 6, 8, 8, dtype=d), rn(6, 1, 3, 3, dtype=d), None, [1, 1], [1, 1], [1, 1], 6,
         tol=1e-10)
    conv(nchw_view(rn(1, 4, 6, 6, dtype=d)), rn(6, 2, 3, 3, dtype=d), rn(6, dtype=d), [1, 1],
         [1, 1], [1, 1], 2, tol=1e-10)
    conv(rn(1, 3, 8, 9, dtype=d), rn(4, 3, 4, 3, dtype=d), rn(4, dtype=d), [1, 1], "same",
         [1, 1], 1, tol=1e-10)

    # aten::_convolution (what traced graphs contain), plain and transposed
    conv_(rn(2, 3, 8, 8), rn(4, 3, 3, 3), rn(4), [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
    conv_(rn(2, 3, 9), rn(4, 3, 3), rn(4), [2], [1], [1], False, [0], 1)
    conv_(rn(1, 3, 5, 5), rn(3, 4, 3, 3), rn(4), [2, 2], [0, 0], [1, 1], True, [0, 0], 1)
    conv_(rn(1, 4, 5, 6), rn(4, 3, 3, 3), None, [2, 2], [1, 1], [1, 1], True, [1, 1], 2)
    conv_(rn(2, 4, 5, 4), rn(4, 2, 4, 3), rn(4), [2, 3], [1, 0], [2, 1], True, [1, 2], 2)
    conv_(rn(1, 70, 4, 4), rn(70, 5, 2, 2), rn(5), [2, 2], [0, 0], [1, 1], True, [0, 0], 1,
          tol=2e-4)
    conv_(rn(2, 3, 7), rn(3, 2, 4), rn(2), [3], [1], [1], True, [2], 1)
    conv_(rn(1, 2, 3, 4, 3), rn(2, 2, 2, 3, 2), rn(2), [2, 1, 2], [0, 1, 0], [1, 1, 1], True,
          [1, 0, 0], 1)
    conv_(rn(1, 4, 5, 5, dtype=d), rn(4, 3, 3, 3, dtype=d), rn(6, dtype=d), [2, 2], [1, 1],
          [1, 1], True, [1, 1], 2, tol=1e-10)
    conv_(nchw_view(rn(1, 3, 5, 6)), rn(3, 4, 3, 3), None, [1, 2], [1, 1], [1, 1], True, [0, 1],
          1)
    # deprecated 12-argument form
    w.case("aten::_convolution",
           [rn(1, 2, 6, 6), rn(3, 2, 3, 3), None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1,
            False, False, True],
           lambda *a: A._convolution(*a), tol=F32_TOL)
    # conv_transpose{1,2}d ops
    x, wt = rn(1, 4, 5, 5), rn(4, 3, 3, 3)
    w.case("aten::conv_transpose2d", [x, wt, rn(6), [2, 2], [1, 1], [1, 1], 2, [1, 1]],
           lambda *a: A.conv_transpose2d(*a), tol=F32_TOL)
    w.case("aten::conv_transpose1d", [rn(2, 3, 6), rn(3, 2, 3), None, [2], [0], [0], 1, [1]],
           lambda *a: A.conv_transpose1d(*a), tol=F32_TOL)

    # rejected by PyTorch
    w.error("aten::conv2d", [rn(1, 3, 8, 8), rn(4, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], 1])
    w.error("aten::conv2d", [rn(1, 3, 2, 2), rn(4, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], 1])
    w.error("aten::conv2d", [rn(1, 4, 8, 8), rn(3, 2, 3, 3), None, [1, 1], [0, 0], [1, 1], 2])
    w.error("aten::conv2d", [rn(1, 3, 8, 8), rn(4, 3, 3, 3), None, [2, 2], "same", [1, 1], 1])


def norm_cases(w):
    def bn(x, wt, b, rm, rv, training, eps, tol=1e-5):
        w.case("aten::batch_norm", [x, wt, b, rm, rv, training, 0.1, eps, False],
               lambda *a: A.batch_norm(*a), tol=tol)

    C = 5
    rm, rv = rn(C), torch.rand(C) + 0.5
    bn(rn(2, C, 4, 3), rn(C), rn(C), rm, rv, False, 1e-5)
    bn(rn(2, C, 4, 3), None, None, rm, rv, False, 1e-3)
    bn(rn(2, C, 4, 3), rn(C), None, rm, rv, False, 0.5)
    bn(rn(7, C), rn(C), rn(C), rm, rv, False, 1e-5)
    bn(rn(3, C, 9), rn(C), rn(C), rm, rv, False, 1e-5)
    bn(nchw_view(rn(2, C, 4, 3)), rn(C), rn(C), rm, rv, False, 1e-5)
    bn(rn(2, 10, 4, 3)[:, ::2], rn(C), rn(C), rm, rv, False, 1e-5)
    bn(rn(1, C, 2, 2, 3), rn(C), rn(C), rm, rv, False, 1e-5)
    bn(rn(2, C, 4, 3, dtype=torch.float64), rn(C, dtype=torch.float64),
       rn(C, dtype=torch.float64), rm.double(), rv.double(), False, 1e-5, tol=1e-12)
    # training: batch statistics (running stats None, as with track_running_stats=False)
    bn(rn(4, C, 3, 3), rn(C), rn(C), None, None, True, 1e-5, tol=1e-4)
    bn(rn(6, C), None, None, None, None, True, 1e-5, tol=1e-4)
    bn(rn(2, C, 4, 3) * 3 + 1, rn(C), rn(C), rm.clone(), rv.clone(), True, 1e-5, tol=1e-4)

    def inorm(x, wt, b, rm, rv, use_stats, eps, tol=1e-4):
        w.case("aten::instance_norm", [x, wt, b, rm, rv, use_stats, 0.1, eps, False],
               lambda *a: A.instance_norm(*a), tol=tol)

    inorm(rn(2, 3, 5, 4), rn(3), rn(3), None, None, True, 1e-5)
    inorm(rn(2, 3, 5, 4), None, None, None, None, True, 1e-5)
    inorm(rn(2, 3, 7) * 2 - 1, None, None, None, None, True, 1e-3)
    inorm(nchw_view(rn(2, 3, 5, 4)), rn(3), rn(3), None, None, True, 1e-5)
    inorm(rn(2, 3, 5, 4), rn(3), rn(3), rn(3), torch.rand(3) + 0.5, False, 1e-5)

    def ln(x, shape, wt, b, eps, tol=1e-4):
        w.case("aten::layer_norm", [x, shape, wt, b, eps, True],
               lambda *a: A.layer_norm(*a), tol=tol)

    ln(rn(2, 3, 8), [8], rn(8), rn(8), 1e-5)
    ln(rn(2, 3, 8), [3, 8], rn(3, 8), rn(3, 8), 1e-5)
    ln(rn(4, 6) * 5 + 2, [6], None, None, 1e-5)
    ln(rn(4, 6), [6], rn(6), None, 0.1)
    ln(rn(2, 8, 3).transpose(1, 2), [8], rn(8), rn(8), 1e-5)
    ln(rn(2, 3, 16)[:, :, ::2], [3, 8], rn(3, 8), rn(3, 8), 1e-5)
    ln(rn(5, 768), [768], rn(768), rn(768), 1e-12)
    ln(rn(2, 3, 8, dtype=torch.float64), [8], rn(8, dtype=torch.float64),
       rn(8, dtype=torch.float64), 1e-5, tol=1e-12)
    w.error("aten::layer_norm", [rn(2, 3, 8), [4], None, None, 1e-5, True])

    def gn(x, g, wt, b, eps, tol=1e-4):
        w.case("aten::group_norm", [x, g, wt, b, eps, True],
               lambda *a: A.group_norm(*a), tol=tol)

    gn(rn(2, 6, 4, 3), 2, rn(6), rn(6), 1e-5)
    gn(rn(2, 6, 4, 3), 1, rn(6), rn(6), 1e-5)
    gn(rn(2, 6, 4, 3), 6, None, None, 1e-5)
    gn(rn(3, 4, 5), 2, rn(4), rn(4), 1e-3)
    gn(rn(3, 4), 2, rn(4), rn(4), 1e-5)
    gn(nchw_view(rn(2, 6, 4, 3)), 3, rn(6), rn(6), 1e-5)
    gn(rn(2, 6, 4, 3, dtype=torch.float64), 3, rn(6, dtype=torch.float64),
       rn(6, dtype=torch.float64), 1e-5, tol=1e-12)
    w.error("aten::group_norm", [rn(2, 6, 4, 3), 4, None, None, 1e-5, True])


def pool_cases(w):
    def mp(x, k, s, p, d, ceil, op="aten::max_pool2d"):
        w.case(op, [x, k, s, p, d, ceil], lambda *a: getattr(A, op.split("::")[1])(*a))

    x = rn(2, 3, 8, 8)
    mp(x, [3, 3], [2, 2], [1, 1], [1, 1], False)          # resnet stem
    mp(x, [3, 3], [2, 2], [1, 1], [1, 1], True)
    mp(x, [2, 2], [], [0, 0], [1, 1], False)               # stride [] = kernel
    mp(rn(1, 2, 5, 5), [2, 2], [2, 2], [1, 1], [1, 1], True)  # last window starts in the pad: dropped
    mp(rn(1, 2, 7, 6), [3, 2], [2, 2], [1, 0], [1, 1], True)
    mp(rn(1, 2, 9, 9), [3, 3], [2, 2], [0, 0], [2, 2], True)
    mp(rn(1, 2, 10, 9), [3, 2], [3, 2], [1, 1], [2, 3], False)
    mp(rn(3, 7, 7), [3, 3], [2, 2], [1, 1], [1, 1], True)  # unbatched
    mp(nchw_view(rn(2, 3, 6, 7)), [2, 2], [1, 2], [1, 1], [1, 1], False)
    mp(rn(1, 3, 8, 8, dtype=torch.float64), [3, 3], [2, 2], [1, 1], [1, 1], True)
    mp(torch.full((1, 1, 4, 4), -float("inf")), [2, 2], [2, 2], [1, 1], [1, 1], False)
    xn = rn(1, 2, 6, 6)
    xn[0, 0, 1, 1] = float("nan")
    xn[0, 1, 4, 5] = float("nan")
    mp(xn, [3, 3], [2, 2], [1, 1], [1, 1], True)
    mp(xn, [3, 3], [2, 2], [1, 1], [1, 1], True, op="aten::max_pool2d_with_indices")
    mp(rn(2, 3, 9, 8), [3, 2], [2, 3], [1, 1], [1, 2], True, op="aten::max_pool2d_with_indices")
    mp(rn(2, 3, 11), [3], [2], [1], [1], True, op="aten::max_pool1d")
    mp(rn(3, 11), [2], [], [0], [2], False, op="aten::max_pool1d")
    mp(rn(2, 3, 11), [3], [2], [1], [1], True, op="aten::max_pool1d_with_indices")
    mp(rn(3, 12), [2], [], [0], [2], False, op="aten::max_pool1d_with_indices")
    x1 = rn(1, 2, 9)
    x1[0, 1, 4] = float("nan")
    mp(x1, [3], [1], [1], [1], False, op="aten::max_pool1d_with_indices")
    mp(rn(2, 4, 10, dtype=torch.float64), [4], [3], [2], [1], True, op="aten::max_pool1d_with_indices")
    w.error("aten::max_pool2d", [x, [2, 2], [2, 2], [2, 2], [1, 1], False])
    w.error("aten::max_pool2d", [rn(1, 1, 2, 2), [3, 3], [1, 1], [0, 0], [1, 1], False])

    def ap(x, k, s, p, ceil, cip, div=None, op="aten::avg_pool2d"):
        args = [x, k, s, p, ceil, cip] + ([div] if op == "aten::avg_pool2d" else [])
        w.case(op, args, lambda *a: getattr(A, op.split("::")[1])(*a))

    ap(rn(2, 3, 8, 8), [2, 2], [2, 2], [0, 0], False, True)
    ap(rn(2, 3, 7, 7), [3, 3], [2, 2], [1, 1], False, True)
    ap(rn(2, 3, 7, 7), [3, 3], [2, 2], [1, 1], False, False)
    ap(rn(1, 2, 8, 7), [3, 3], [2, 2], [1, 1], True, True)   # edge windows beyond the pad
    ap(rn(1, 2, 8, 7), [3, 3], [2, 2], [1, 1], True, False)
    ap(rn(1, 2, 6, 6), [4, 3], [3, 2], [2, 1], True, True)
    ap(rn(1, 2, 6, 6), [2, 2], [], [1, 1], False, True, 3)
    ap(nchw_view(rn(2, 3, 7, 6)), [3, 2], [1, 2], [1, 0], True, False)
    ap(rn(3, 6, 7), [2, 2], [2, 2], [0, 0], True, True)
    ap(rn(1, 2, 6, 6, dtype=torch.float64), [3, 3], [2, 2], [1, 1], True, True)
    ap(torch.randint(-50, 50, (1, 2, 5, 5)), [2, 2], [2, 2], [1, 1], False, True)
    ap(rn(2, 3, 10), [3], [2], [1], True, False, op="aten::avg_pool1d")
    ap(rn(2, 10), [4], [3], [2], False, True, op="aten::avg_pool1d")

    def ad(op, x, size):
        w.case(op, [x, size], lambda *a: getattr(A, op.split("::")[1])(*a))

    ad("aten::adaptive_avg_pool2d", rn(2, 3, 8, 8), [1, 1])
    ad("aten::adaptive_avg_pool2d", rn(2, 3, 7, 5), [3, 3])
    ad("aten::adaptive_avg_pool2d", rn(1, 2, 3, 4), [5, 7])
    ad("aten::adaptive_avg_pool2d", rn(3, 10, 9), [4, 2])
    ad("aten::adaptive_avg_pool2d", nchw_view(rn(2, 512, 7, 7)), [1, 1])
    ad("aten::adaptive_avg_pool2d", rn(1, 2, 13, 11, dtype=torch.float64), [6, 6])
    ad("aten::adaptive_avg_pool1d", rn(2, 3, 10), [4])
    ad("aten::adaptive_avg_pool1d", rn(3, 5), [7])
    ad("aten::adaptive_max_pool2d", rn(2, 3, 7, 5), [3, 3])
    ad("aten::adaptive_max_pool2d", rn(1, 2, 3, 4), [5, 2])
    ad("aten::adaptive_max_pool2d", xn, [4, 4])
    ad("aten::adaptive_max_pool1d", rn(2, 3, 10), [4])


def resample_cases(w):
    def up(op, args, tol=1e-5):
        w.case(op, args, lambda *a: getattr(A, op.split("::")[1])(*a), tol=tol)

    x = rn(2, 3, 5, 7)
    up("aten::upsample_nearest2d", [x, None, [2.0, 2.0]])
    up("aten::upsample_nearest2d", [x, None, [1.5, 1.7]])
    up("aten::upsample_nearest2d", [x, None, [0.5, 0.6]])
    up("aten::upsample_nearest2d", [x, [7, 9], None])
    up("aten::upsample_nearest2d", [x, [8, 20]])
    up("aten::upsample_nearest2d", [x, [8, 11], 1.5, 1.5])
    up("aten::upsample_nearest2d", [nchw_view(x), [3, 14], None])
    up("aten::upsample_nearest2d", [torch.randint(0, 255, (1, 2, 3, 3), dtype=torch.uint8),
                                    None, [2.5, 3.0]])
    for align in (False, True):
        up("aten::upsample_bilinear2d", [x, None, align, [2.0, 2.0]])
        up("aten::upsample_bilinear2d", [x, None, align, [1.5, 0.7]])
        up("aten::upsample_bilinear2d", [x, [9, 4], align, None])
        up("aten::upsample_bilinear2d", [x, [1, 1], align, None])
        up("aten::upsample_bilinear2d", [x, [10, 14], align])
        up("aten::upsample_bilinear2d", [nchw_view(x), [6, 13], align, None])
        up("aten::upsample_bilinear2d", [x.double(), [9, 11], align, None], tol=1e-12)
    up("aten::upsample_bilinear2d", [x, [8, 11], False, 1.5, 1.5])

    def pad(op, args):
        w.case(op, args, lambda *a: getattr(A, op.split("::")[1])(*a), tol=0)

    x = rn(2, 3, 4, 5)
    pad("aten::pad", [x, [1, 2], "constant", 0.5])
    pad("aten::pad", [x, [1, 2, 0, 3], "constant", None])
    pad("aten::pad", [x, [-1, 2, 1, -2], "constant", 0.0])
    pad("aten::pad", [x, [1, 1, 1, 1, 1, 0], "constant", -1.0])
    pad("aten::pad", [x, [2, 3, 1, 3], "reflect", None])
    pad("aten::pad", [x, [2, 3, 1, 2], "replicate", None])
    pad("aten::pad", [x, [2, 3, 1, 2], "circular", None])
    pad("aten::pad", [rn(2, 3, 7), [3, 1], "reflect", None])
    pad("aten::pad", [nchw_view(x), [1, 2, 3, 0], "reflect", None])
    pad("aten::constant_pad_nd", [torch.arange(12).reshape(3, 4), [1, 1, 2, 0], 7])
    pad("aten::constant_pad_nd", [torch.arange(12).reshape(3, 4).t(), [0, -1, 1, 1]])
    pad("aten::constant_pad_nd", [x.double(), [1, 0], 2.5])
    pad("aten::reflection_pad2d", [x, [1, 2, 3, 0]])
    pad("aten::reflection_pad1d", [rn(2, 6), [5, 2]])
    pad("aten::replication_pad2d", [x, [4, 0, 1, 6]])
    pad("aten::replication_pad1d", [rn(2, 3, 4), [2, 3]])
    w.error("aten::pad", [x, [5, 0], "reflect", None])

    def perm(op, x, r):
        w.case(op, [x, r], lambda *a: getattr(A, op.split("::")[1])(*a), tol=0)

    perm("aten::pixel_shuffle", rn(2, 8, 3, 4), 2)
    perm("aten::pixel_shuffle", rn(18, 2, 3), 3)
    perm("aten::pixel_shuffle", nchw_view(rn(1, 12, 3, 5)), 2)
    perm("aten::pixel_shuffle", torch.arange(2 * 2 * 4 * 2 * 2).reshape(2, 2, 4, 2, 2), 2)
    perm("aten::pixel_unshuffle", rn(2, 2, 6, 4), 2)
    perm("aten::pixel_unshuffle", nchw_view(rn(1, 3, 6, 9)), 3)
    perm("aten::channel_shuffle", rn(2, 6, 3, 4), 3)
    perm("aten::channel_shuffle", nchw_view(rn(2, 8, 3, 2)), 2)
    perm("aten::channel_shuffle", torch.arange(24).reshape(2, 6, 2), 2)


def cases(w):
    conv_cases(w)
    conv_act_cases(w)
    norm_cases(w)
    pool_cases(w)
    resample_cases(w)


def _conv_mode_transpose3d_cases(w):
    """aten::_convolution_mode (the str-padding form scripted graphs call) and conv_transpose3d."""
    g = torch.Generator().manual_seed(13)

    def r(*shape):
        return torch.randn(*shape, generator=g)

    for x, wt, b, stride, pad, dil, groups in [
            (r(1, 3, 8, 9), r(4, 3, 4, 3), r(4), [1, 1], "same", [1, 1], 1),
            (r(2, 4, 7, 7), r(6, 2, 3, 3), None, [2, 2], "valid", [1, 1], 2),
            (r(2, 3, 10), r(5, 3, 4), r(5), [1], "same", [2], 1)]:
        w.case("aten::_convolution_mode", [x, wt, b, stride, pad, dil, groups],
               lambda *a: A._convolution_mode(*a), tol=F32_TOL)
    w.case("aten::conv_transpose3d",
           [r(1, 2, 3, 4, 3), r(2, 3, 2, 3, 2), r(3), [2, 1, 2], [0, 1, 0], [1, 0, 1], 1, [1, 1, 1]],
           lambda *a: A.conv_transpose3d(*a), tol=F32_TOL)
    w.case("aten::conv_transpose3d", [r(1, 4, 2, 3, 3), r(4, 1, 2, 2, 2), None, [1, 1, 1], [0, 0, 0],
                                      [0, 0, 0], 2, [1, 1, 1]],
           lambda *a: A.conv_transpose3d(*a), tol=F32_TOL)


_cases_before_conv_mode = cases


def cases(w):
    _cases_before_conv_mode(w)
    _conv_mode_transpose3d_cases(w)
