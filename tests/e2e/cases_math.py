"""End-to-end cases of the math family (ops_math.c): a sample of each group of ops traced and
scripted, compiled and run against PyTorch; the kernel cases (tests/kernels/cases_math.py)
carry the numerics across dtypes and edge values."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trig(nn.Module):
    def forward(self, x):
        u = torch.tanh(x) * 0.9
        a = torch.acos(u) + torch.asin(u) * torch.atan(x) - torch.atanh(u)
        b = torch.cosh(u) - torch.sinh(u) + torch.tan(u) + torch.asinh(x) + torch.acosh(x.abs() + 1)
        c = torch.log10(x.abs() + 1) + torch.log2(x.abs() + 0.5) + torch.exp2(u) + torch.erfc(x)
        d = torch.erfinv(u) + torch.sinc(x) + torch.logit(torch.sigmoid(x), 1e-3) + torch.frac(x * 3)
        return a, b, c, d, torch.deg2rad(x) + torch.rad2deg(u), torch.square(x), x.sgn()


class Activations(nn.Module):
    def forward(self, x):
        a = F.celu(x, 0.7) + F.selu(x) + F.logsigmoid(x) + F.threshold(x, 0.1, -2.0)
        b = F.hardshrink(x, 0.3) + F.softshrink(x, 0.4) + F.rrelu(x, 0.1, 0.3, training=False)
        return a, b, F.glu(x, 1), F.softsign(x), F.tanhshrink(x)


class Binary(nn.Module):
    def forward(self, x, y):
        a = torch.fmod(x, y) + torch.fmod(x, 1.5) + torch.hypot(x, y) + torch.copysign(x, y)
        b = torch.xlogy(x.abs(), y.abs()) + torch.logaddexp(x, y) + torch.logaddexp2(x, y)
        c = torch.heaviside(x, y) + torch.nextafter(x, y) + torch.ldexp(x, torch.ones_like(y))
        d = torch.lerp(x, y, 0.3) + torch.lerp(x, y, torch.sigmoid(y)) + torch.addcmul(x, x, y, value=0.5)
        e = torch.addcdiv(x, y, y.abs() + 1, value=-2)
        return a, b, c, d, e, torch.float_power(x.abs(), 2.5)


class Bitwise(nn.Module):
    def forward(self, x, y):
        a = x.clone()
        a &= y
        b = x.clone()
        b |= y
        c = x.clone()
        c ^= y
        d = x.clone()
        d <<= 2
        e = x.clone()
        e >>= y
        return a, b, c, d, e, x << y, x >> 1, torch.gcd(x, y), torch.lcm(x, y), torch.bitwise_left_shift(x, 3)


class ScriptShifts(nn.Module):
    def forward(self, x, y):
        a = x << y
        a >>= y
        return a, torch.bitwise_right_shift(x, y), x & y


class Tests(nn.Module):
    def forward(self, x):
        z = torch.where(x > 1, torch.full_like(x, float("inf")), x)
        z = torch.where(x < -1, torch.full_like(x, float("nan")), z)
        out = torch.nan_to_num(z, 0.5, 100.0, -100.0) + torch.isfinite(z).float()
        if z.is_floating_point():
            out = out * 2
        if x[0, 0].is_nonzero():
            out = out + 1
        return out, torch.isinf(z), torch.isposinf(z), torch.isneginf(z), torch.signbit(z), torch.isnan(z)


class InplaceOnInput(nn.Module):
    """In-place math on the inputs themselves: their final values are compared too."""

    def forward(self, x, y):
        x.acos_()
        y.nan_to_num_(1.0)
        x.lerp_(y, 0.25)
        y.addcmul_(x, x, value=2)
        return x * 2, torch.positive(y)


class PReLUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.act = nn.PReLU(4)
        self.act1 = nn.PReLU()

    def forward(self, x):
        return self.act1(self.act(self.conv(x)) - 0.2)


def rand(*s):
    return lambda: [torch.randn(*s) * 1.5]


def two(*s):
    return lambda: [torch.randn(*s) * 2, torch.randn(*s) * 2]


def ints():
    return [torch.randint(-50, 50, (3, 4), dtype=torch.int32), torch.randint(0, 5, (3, 4), dtype=torch.int32)]


def with_nan():
    x = torch.randn(3, 4)
    y = torch.randn(3, 4)
    y[0, 1] = float("nan")
    y[2, 2] = float("inf")
    return [x.clamp(-0.9, 0.9), y]


CASES = [
    dict(name="math_trig_trace", module=Trig, inputs=rand(3, 5), rtol=1e-4, atol=1e-5),
    dict(name="math_trig_script", module=Trig, inputs=rand(3, 5), method="script", format="json", rtol=1e-4, atol=1e-5),
    dict(name="math_activations_trace", module=Activations, inputs=rand(2, 6, 3)),
    dict(name="math_activations_script", module=Activations, inputs=rand(2, 6, 3), method="script", format="json"),
    dict(name="math_binary_trace", module=Binary, inputs=two(4, 5), rtol=1e-4, atol=1e-5),
    dict(name="math_binary_script", module=Binary, inputs=two(4, 5), method="script", format="json", rtol=1e-4, atol=1e-5),
    dict(name="math_bitwise_trace", module=Bitwise, inputs=ints),
    dict(name="math_shifts_script", module=ScriptShifts, inputs=ints, method="script", format="json"),
    dict(name="math_tests_script", module=Tests, inputs=rand(3, 4), method="script", format="json"),
    dict(name="math_inplace_inputs_trace", module=InplaceOnInput, inputs=with_nan),
    dict(name="math_prelu_json", module=PReLUNet, inputs=rand(1, 3, 6, 6), format="json", rtol=1e-4, atol=1e-5),
]
