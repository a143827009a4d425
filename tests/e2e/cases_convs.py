"""Convolutions on the GEMM path with weights the compiler prepacks (k_conv.h kconv_conv_prepack,
emit_c.c emit_prepacked) and inputs read through the implicit im2col (kconv_gather): 1-D, 2-D and
3-D, groups, dilation, strides 2 and 3, asymmetric kernels, 'same' padding, channel counts that
are not multiples of the register tile, few output positions (the product computed transposed,
weights packed as B) and batch 2. Each runs at 1 and 2 threads (bitwise equal, checked by
run_e2e.py) against PyTorch; `conv_prepack_batch` also binds by zero-copy and DLPack."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Mixed2d(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(5, 37, 3, stride=2, padding=1)                 # 37 rows: ragged A panels
        self.b = nn.Conv2d(37, 40, (3, 5), padding=(2, 1), dilation=(2, 1), groups=1)
        self.c = nn.Conv2d(40, 40, 3, padding="same", groups=4)           # 4 groups of 10 x 90
        self.d = nn.Conv2d(40, 130, 2, stride=3)                          # few positions: transposed
        self.e = nn.Conv2d(130, 26, 1, groups=2)                          # 1x1, grouped

    def forward(self, x):
        x = F.relu(self.a(x))
        x = torch.tanh(self.b(x))
        x = self.c(x) + x
        x = F.relu6(self.d(x))
        return self.e(x)


class Conv1d3d(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(6, 20, 5, stride=2, padding=3)
        self.c2 = nn.Conv1d(20, 33, 3, dilation=3, groups=1)
        self.c3 = nn.Conv3d(3, 14, (2, 3, 3), stride=(1, 2, 2), padding=(1, 1, 0))

    def forward(self, x, v):
        return self.c2(F.silu(self.c1(x))), F.relu(self.c3(v))


THREADS = [1, 2]
CASES = [
    dict(name="conv_prepack_2d", module=Mixed2d, inputs=lambda: [torch.randn(1, 5, 45, 39)],
         format="json", threads=THREADS, modes=["copy"], rtol=1e-4, atol=1e-4),
    dict(name="conv_prepack_batch", module=Mixed2d, inputs=lambda: [torch.randn(2, 5, 21, 30)],
         format="json", rtol=1e-4, atol=1e-4),
    dict(name="conv_prepack_1d_3d", module=Conv1d3d,
         inputs=lambda: [torch.randn(1, 6, 301), torch.randn(1, 3, 5, 17, 16)],
         format="json", threads=THREADS, modes=["copy"], rtol=1e-4, atol=1e-4),
]


class Linears(nn.Module):
    """Linear weights prepacked by the compiler (k_linalg.h kl_prepack_linear): output sizes
    with a narrow last panel (10, 40 = 32 + 8), a wide partial one (57 = 32 + 25), whole
    panels (64); one-row GEMV and the batched GEMM."""
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(33, 64)
        self.b = nn.Linear(64, 57)
        self.c = nn.Linear(57, 40)
        self.d = nn.Linear(40, 10, bias=False)

    def forward(self, x):
        x = F.relu(self.a(x))
        x = torch.tanh(self.b(x))
        x = F.gelu(self.c(x))
        return self.d(x)


CASES += [
    dict(name="linear_prepack_row", module=Linears, inputs=lambda: [torch.randn(1, 33)],
         format="json", rtol=1e-4, atol=1e-5),
    dict(name="linear_prepack_rows", module=Linears, inputs=lambda: [torch.randn(5, 33)],
         format="json", rtol=1e-4, atol=1e-5),
    dict(name="linear_prepack_batch", module=Linears, inputs=lambda: [torch.randn(3, 7, 33)],
         format="json", threads=THREADS, modes=["copy"], rtol=1e-4, atol=1e-5),
]


class FewInputChannels(nn.Module):
    """One input channel per group with up to 8 output channels each: the direct loop
    (k_conv.h kconv_conv_direct), whose fast path takes 3x3 / 5x5 and the portable one the rest."""
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(1, 6, 5, padding=2)                # LeNet's first layer
        self.b = nn.Conv2d(6, 48, 3, stride=2, groups=6)      # multiplier 8, stride 2
        self.c = nn.Conv2d(48, 96, 7, padding=3, groups=48)   # 7x7: the portable loop

    def forward(self, x):
        return self.c(F.relu(self.b(torch.tanh(self.a(x)))))


CASES += [
    dict(name="conv_direct_multiplier", module=FewInputChannels, inputs=lambda: [torch.randn(2, 1, 29, 30)],
         format="json", threads=THREADS, modes=["copy"], rtol=1e-4, atol=1e-5),
]
