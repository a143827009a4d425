"""cases_vmath.py — kernel cases of k_act.h's float32 math (exp, erf, sigmoid, tanh, silu, gelu
in both approximations, hardswish), through the unfused aten:: kernels (k_elementwise.h) and
the fused epilogues (mc::add_act, mc::linear_act, mc::conv_act). Inputs cover wide ranges:
a dense sweep of [-100, 100], random values of every magnitude, tiny and denormal values,
the edges of exp's range (overflow near 88.72, denormal results below -87.3, 0 below -103.97),
the branch points of tanh (0.625) and erf (0.9277), +-inf and NaN; lengths that are not a
multiple of the vector width (the tail) and strided views (the scalar path). Expected values
are PyTorch's float32 results."""
import torch

A = torch.ops.aten
F = torch.nn.functional
F32 = torch.float32

UNARY = {
    "sigmoid": torch.sigmoid, "tanh": torch.tanh, "exp": torch.exp, "erf": torch.erf,
    "silu": F.silu, "hardswish": F.hardswish,
}
GELU = {"none": F.gelu, "tanh": lambda t: F.gelu(t, approximate="tanh")}

SPECIAL = [float("inf"), float("-inf"), float("nan"), 0.0, -0.0, 1e-45, -1e-45, 1e-40, -1e-40,
           1.1754944e-38, -1.1754944e-38, 1e-30, -1e-30, 1e-7, -1e-7, 3.4028235e38, -3.4028235e38,
           88.72, 88.7228, 88.73, 89.0, -87.3, -87.34, -88.0, -100.0, -103.9, -103.98, -104.0,
           -150.0, 9.0, 9.01, 9.1, -9.01, 0.625, -0.625, 0.62499, 0.6250001, 0.927734375,
           -0.927734375, 1.3120, -1.3120, 1.3121, -1.3121, 3.92, -3.92, 5.5, -5.5, 20.0, -20.0,
           44.4, 44.5, -44.5, 2.9999, 3.0, -3.0, -2.9999, 6.0]


def inputs():
    """(name, float32 tensor) pairs."""
    torch.manual_seed(7)
    dense = torch.linspace(-100, 100, 4001, dtype=torch.float64).to(F32)
    mags = torch.exp(torch.empty(2003, dtype=torch.float64).uniform_(-100, 5)).to(F32)
    signs = torch.where(torch.rand(2003) < 0.5, -1.0, 1.0)
    wide = mags * signs
    small = torch.linspace(-6, 6, 1001, dtype=torch.float64).to(F32)
    return [("dense", dense), ("wide", wide), ("small", small),
            ("special", torch.tensor(SPECIAL, dtype=F32)), ("randn37", torch.randn(37) * 8)]


def cases(w):
    xs = inputs()
    for name, fn in UNARY.items():
        op = "aten::" + name
        for _, x in xs:
            w.case(op, [x], [fn(x)], tol=1e-6)
        x = xs[1][1]
        w.case(op, [x[::3]], [fn(x[::3])], tol=1e-6)            # strided: the scalar path
        w.case(op, [x.view(1, -1).t()], [fn(x.view(1, -1).t())], tol=1e-6)
        w.case(op + "_", [xs[0][1].clone()], lambda t, f=getattr(A, name + "_"): f(t), tol=1e-6,
               mutated=[0])
    for approx, fn in GELU.items():
        for _, x in xs:
            w.case("aten::gelu", [x, approx], [fn(x)], tol=1e-6)
        x = xs[1][1]
        w.case("aten::gelu", [x[::3], approx], [fn(x[::3])], tol=1e-6)
    # float64 keeps the double path
    xd = xs[0][1].double()
    for name, fn in UNARY.items():
        w.case("aten::" + name, [xd], [fn(xd)], tol=1e-12)

    # fused epilogues: the same functions on GEMM tiles (both orientations) and add blocks
    acts = {"sigmoid": torch.sigmoid, "tanh": torch.tanh, "silu": F.silu,
            "hardswish": F.hardswish, "gelu": F.gelu,
            "gelu_tanh": lambda t: F.gelu(t, approximate="tanh")}
    for act, ref in acts.items():
        for _, x in xs:
            a = x.clone()
            b = torch.zeros_like(x)
            w.case("mc::add_act", [a, b, 1, act, -1.0, 1.0],
                   lambda a, b, al, *r, ref=ref: ref(torch.add(a, b, alpha=al)), tol=1e-6)
        # big pre-activations: linear with a wide spread of outputs (batch 1 and GEMM)
        for x, wt in [(torch.randn(1, 64), torch.randn(130, 64) * 6),
                      (torch.randn(3, 33), torch.randn(45, 33) * 8)]:
            wb = torch.randn(wt.shape[0]) * 20
            w.case("mc::linear_act", [x, wt, wb, act, -1.0, 1.0],
                   lambda x, wt, b, *r, ref=ref: ref(F.linear(x, wt, b)), tol=1e-4)
        # conv: P = 81 >= Cout (bias per row) and P = 4 < Cout (transposed C, strided epilogue)
        for x, wt in [(torch.randn(1, 4, 9, 9), torch.randn(8, 4, 3, 3) * 5),
                      (torch.randn(1, 16, 2, 2), torch.randn(40, 16, 1, 1) * 10)]:
            wb = torch.randn(wt.shape[0]) * 10
            w.case("mc::conv_act", [x, wt, wb, [1, 1], [1, 1] if wt.shape[-1] == 3 else [0, 0],
                                    [1, 1], 1, act, -1.0, 1.0],
                   lambda x, wt, b, s, p, d, g, *r, ref=ref: ref(A.conv2d(x, wt, b, s, p, d, g)),
                   tol=1e-4)
