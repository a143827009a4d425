"""cases_spectral.py — kernel cases of the spectral family (k_spectral.h): aten::stft in both
overloads (with and without `center, pad_mode`) as its real [..., 2] result
(return_complex=False, and None, which PyTorch 1.13 treats the same for real input; and
return_complex=True, compared with PyTorch's view_as_real of its complex result), mc's
complex_abs of those pairs against PyTorch's abs of the complex result, view_as_real,
fft_rfft / fft_fft of real (and integer) input and fft_irfft of a complex value (as its
pairs) with n / dim / norm, view_as_complex, over
n_fft / hop_length / win_length / window / center / pad_mode (reflect, constant, replicate,
circular) / normalized / onesided, 1-D and batched 2-D input, strided input, float32 and float64
(and a float64 window promoting a float32 input); the window factories (hann, hamming with its
alpha/beta overloads, blackman, bartlett, kaiser with its beta overload; periodic and
symmetric, lengths 0, 1, 2 and more, each float dtype); and what PyTorch refuses. Expected values come from PyTorch
(torch.ops.aten).

Tolerance: PyTorch's float32 stft is an FFT in float32, mc's a DFT accumulated in double and
rounded once; the difference is PyTorch's own rounding error, which grows like
eps32 * log2(n_fft) * |X| for standard normal input (measured against the float64 transform
with a Hann window: max abs error 1.2e-6 at n_fft 16, 5.9e-6 at 512, 1.2e-5 at 2048, with
|X| up to 10, 41, 100). check_kernels accepts |a - e| <= tol (1 + |e|); tol = 4e-6 log2(n_fft)
(at least 4e-6) covers that twice over. float64: 1e-9."""
import math

import torch

A = torch.ops.aten
F32, F64 = torch.float32, torch.float64


def tol(dt, n_fft):
    return 1e-9 if dt == F64 else 4e-6 * max(1.0, math.log2(n_fft))


def stft(w, args, dt, n_fft):
    w.case("aten::stft", args, A.stft(*args), tol=tol(dt, n_fft))


def cases(w):
    g = torch.Generator().manual_seed(0)
    for dt in (F32, F64):
        x1 = torch.randn(200, generator=g, dtype=dt)
        x2 = torch.randn(3, 150, generator=g, dtype=dt)
        # the plain overload: hop / win_length defaults, windows, normalized, onesided
        for x in (x1, x2):
            stft(w, [x, 16, None, None, None, False, None, False], dt, 16)
            stft(w, [x, 16, 4, None, torch.hann_window(16, dtype=dt), False, None, False], dt, 16)
            stft(w, [x, 20, 5, 12, torch.hamming_window(12, dtype=dt), True, None, False], dt, 20)
            stft(w, [x, 15, 3, None, None, False, False, False], dt, 15)
            stft(w, [x, 32, 7, 31, torch.rand(31, generator=g, dtype=dt), False, True, None], dt,
                 32)
        # the centre overload in each pad mode
        for mode in ("reflect", "constant", "replicate", "circular"):
            stft(w, [x2, 16, 4, None, torch.hann_window(16, dtype=dt), True, mode, False, None,
                     False], dt, 16)
        stft(w, [x1, 64, 16, 50, torch.blackman_window(50, dtype=dt), True, "reflect", True,
                 False, False], dt, 64)
        stft(w, [x1, 25, 25, None, None, False, "reflect", False, None, False], dt, 25)
        stft(w, [x1, 1, 1, None, None, True, "constant", False, None, False], dt, 1)
        # strided input
        big = torch.randn(2, 400, generator=g, dtype=dt)
        stft(w, [big[:, ::2], 32, 8, None, torch.hann_window(32, dtype=dt), True, "reflect",
                 False, None, False], dt, 32)
        stft(w, [big.t().contiguous().t(), 16, 4, None, None, False, None, False], dt, 16)
    # return_complex=True: the same pairs (PyTorch's result through view_as_real); its abs
    # (mc::complex_abs, what aten::abs of it becomes) against PyTorch's abs of the complex
    # result; view_as_real of the pairs is the pairs themselves (a view of its input)
    for dt in (F32, F64):
        x = torch.randn(2, 120, generator=g, dtype=dt)
        win = torch.hann_window(16, dtype=dt)
        for args in ([x, 16, 4, None, win, False, None, True],
                     [x[0], 16, 4, None, win, True, "reflect", True, None, True],
                     [x, 16, 5, 10, None, True, "constant", False, False, True]):
            z = A.stft(*args)
            w.case("aten::stft", args, torch.view_as_real(z), tol=tol(dt, 16))
            r = torch.view_as_real(z).clone()
            w.case("mc::complex_abs", [r], z.abs(), tol=tol(dt, 16))
            w.case("mc::complex_abs", [r.transpose(0, 1)], z.transpose(0, 1).abs(), tol=tol(dt, 16))
            w.case("aten::view_as_real", [r], lambda t: t, tol=0)
    w.error("mc::complex_abs", [torch.randn(3, 4)], check=lambda t: torch.view_as_complex(t))
    w.error("aten::view_as_real", [torch.randn(3, 4)])

    # fft_rfft / fft_fft of real input: n (cut, padded), dim, norm; pairs as view_as_real
    for dt in (F32, F64):
        x = torch.randn(3, 10, 4, generator=g, dtype=dt)
        for name in ("fft_rfft", "fft_fft"):
            for args in ([x], [x, None, 1, None], [x, 7, 1, "ortho"], [x, 16, -1, "forward"],
                         [x.transpose(0, 2), 12, 0, "backward"], [x[:, 1], None, 0, None]):
                want = torch.view_as_real(getattr(A, name)(*args))
                w.case("aten::" + name, args, want, tol=tol(dt, 16))
    xi = torch.randint(-5, 5, (2, 6), generator=g)
    for name in ("fft_rfft", "fft_fft"):
        w.case("aten::" + name, [xi], torch.view_as_real(getattr(A, name)(xi)), tol=tol(F32, 8))
        w.error("aten::" + name, [torch.randn(4), 0])
        w.error("aten::" + name, [torch.randn(4), None, 1])
        w.error("aten::" + name, [torch.randn(4), None, -1, "bogus"])
    z = A.fft_rfft(torch.randn(5, 9, generator=g, dtype=F64), None, 0)
    w.case("mc::complex_abs", [torch.view_as_real(z).clone()], z.abs(), tol=1e-12)

    # fft_irfft of a complex value given as its [..., 2] pairs (view_as_complex of them in
    # PyTorch): default n (even), odd n, n cutting and padding the bins, dim, norm; a strided
    # input; view_as_complex of pairs is the pairs themselves (a view)
    for dt in (F32, F64):
        r = torch.randn(3, 6, 4, 2, generator=g, dtype=dt)
        for args in ([None, -1, None], [7, -1, None], [4, 1, "ortho"], [12, 0, "forward"],
                     [9, 1, "backward"]):
            want = A.fft_irfft(torch.view_as_complex(r), *args)
            w.case("aten::fft_irfft", [r] + args, want, tol=tol(dt, 16))
        rt = r.transpose(0, 1)
        w.case("aten::fft_irfft", [rt, None, 0, None],
               A.fft_irfft(torch.view_as_complex(rt), None, 0, None), tol=tol(dt, 16))
        w.case("aten::view_as_complex", [r], lambda t: t, tol=0)
    w.error("aten::fft_irfft", [torch.randn(1, 2), None, -1, None],
            check=lambda t, *a: A.fft_irfft(torch.view_as_complex(t), *a))
    w.error("aten::view_as_complex", [torch.randn(3, 3)])
    w.error("aten::view_as_complex", [torch.randn(2, 3).t()])

    # a float64 window promotes a float32 input
    x = torch.randn(100, generator=g)
    stft(w, [x, 16, 4, None, torch.hann_window(16, dtype=F64), False, None, False], F32, 16)
    # larger transforms (float32 error against n_fft)
    x = torch.randn(4096, generator=g)
    for n in (512, 2048):
        stft(w, [x, n, n // 2, None, torch.hann_window(n), True, "reflect", False, None, False],
             F32, n)

    # refused: 3-D input, n_fft longer than the input, hop 0, win_length > n_fft, window size,
    # reflect padding not smaller than the input, integer input
    x = torch.randn(2, 3, 50)
    w.error("aten::stft", [x, 16, 4, None, None, False, None, False])
    x = torch.randn(20)
    w.error("aten::stft", [x, 32, 4, None, None, False, None, False])
    w.error("aten::stft", [x, 8, 0, None, None, False, None, False])
    w.error("aten::stft", [x, 8, 2, 9, None, False, None, False])
    w.error("aten::stft", [x, 8, 2, 6, torch.ones(5), False, None, False])
    w.error("aten::stft", [torch.randn(4), 8, 2, None, None, True, "reflect", False, None, False])
    w.error("aten::stft", [torch.arange(20), 8, 2, None, None, False, None, False])

    # windows
    for n in (0, 1, 2, 5, 16):
        for periodic in (True, False):
            for dt in (F32, F64):
                for name in ("hann_window", "hamming_window", "blackman_window",
                             "bartlett_window"):
                    want = getattr(torch, name)(n, periodic, dtype=dt)
                    w.case("aten::" + name, [n, periodic, dt, None, None, None], want, tol=2e-7)
                w.case("aten::hamming_window", [n, periodic, 0.6, dt, None, None, None],
                       torch.hamming_window(n, periodic, 0.6, dtype=dt), tol=2e-7)
                w.case("aten::hamming_window", [n, periodic, 0.6, 0.3, dt, None, None, None],
                       torch.hamming_window(n, periodic, 0.6, 0.3, dtype=dt), tol=2e-7)
    for n in (0, 1, 2, 5, 16):
        for periodic in (True, False):
            for dt in (F32, F64):
                w.case("aten::kaiser_window", [n, periodic, dt, None, None, None],
                       torch.kaiser_window(n, periodic, dtype=dt), tol=2e-6)
                w.case("aten::kaiser_window", [n, periodic, 5.5, dt, None, None, None],
                       torch.kaiser_window(n, periodic, 5.5, dtype=dt), tol=2e-6)
    for name in ("hann_window", "hamming_window", "blackman_window", "bartlett_window",
                 "kaiser_window"):
        t = 2e-6 if name == "kaiser_window" else 2e-7  # PyTorch's float32 I0 is within ~1e-6
        w.case("aten::" + name, [10, None, None, None, None], getattr(torch, name)(10), tol=t)
        w.case("aten::" + name, [7, None, None, None, None], getattr(torch, name)(7), tol=t)
        w.error("aten::" + name, [-1, None, None, None, None])
        w.error("aten::" + name, [4, torch.int64, None, None, None])
