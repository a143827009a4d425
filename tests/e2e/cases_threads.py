"""mc_set_num_threads: convolution and linear models whose float32 GEMMs are large enough to be
split across threads (k_conv.h kconv_sgemm_epi), run with 1, 2 and 3 threads (harness reads
MC_E2E_THREADS). Each run is checked against PyTorch, and run_e2e.py also requires the outputs
of all thread counts to be bitwise equal (each thread computes whole output tiles with the same
FMA chains). Shapes are chosen so that both split directions run: conv columns (output
positions) with a per-row bias, conv computed transposed (few positions, many channels: the
bias is per column), linear split by columns and by rows."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    # 32 x 1024 x 144 and, after pooling, the transposed 16 x 256 x 2304 product
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(16, 32, 3, padding=1)
        self.c2 = nn.Conv2d(32, 256, 3, padding=1)
        self.c3 = nn.Conv2d(256, 256, 3, padding=1)

    def forward(self, x):
        x = F.relu(self.c1(x))
        x = F.max_pool2d(F.relu(self.c2(x)), 8)
        return self.c3(x)


class Linears(nn.Module):
    # 64 x 256 x 256 (split by columns), then 64 rows out of a 512-row batch: 512 x 24 x 256
    def __init__(self):
        super().__init__()
        self.f1 = nn.Linear(256, 256)
        self.f2 = nn.Linear(256, 24)

    def forward(self, x, y):
        return F.relu(self.f1(x)), self.f2(y)


class Elementwise(nn.Module):
    # float32 activations (k_act.h vector math) over 150K elements: split across threads
    def forward(self, x, y):
        a = torch.tanh(x)
        b = torch.sigmoid(y) * x
        c = F.gelu(a + b)               # add + gelu: mc::add_act
        d = F.silu(x + y)
        e = torch.exp(-x * x)
        f = F.gelu(y, approximate="tanh") + torch.erf(x) + F.hardswish(y * 4)
        return c, d, e, f, x[:, ::2].tanh()


THREADS = [1, 2, 3]
CASES = [
    dict(name="threads_conv", module=ConvNet, inputs=lambda: [torch.randn(1, 16, 32, 32)],
         format="json", threads=THREADS, modes=["copy"], rtol=1e-4, atol=1e-4),
    dict(name="threads_linear", module=Linears, inputs=lambda: [torch.randn(64, 256), torch.randn(512, 256)],
         format="json", threads=THREADS, modes=["copy"], rtol=1e-4, atol=1e-4),
    dict(name="threads_elementwise", module=Elementwise,
         inputs=lambda: [torch.randn(3, 50000) * 6, torch.randn(3, 50000) * 30],
         format="json", threads=THREADS, modes=["copy"], rtol=1e-5, atol=1e-6),
    dict(name="elementwise_small", module=Elementwise,
         inputs=lambda: [torch.randn(3, 77) * 6, torch.randn(3, 77) * 30], format="json", rtol=1e-5, atol=1e-6),
]
