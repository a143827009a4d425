"""End-to-end cases of the spectral family (ops_spectral.c): an rfft feature module and
spectrogram modules built on
torch.stft with return_complex=False (its real [..., 2] result, which is what view_as_real of
the complex result gives), traced (centre padding traces as aten::pad before aten::stft; scripting
torch.stft is not covered: torch.functional's stft multiplies a list by an int, which mc's list
ops do not take yet); the kernel cases (tests/kernels/cases_spectral.py) carry the numerics across
n_fft / hop / window / centre / pad modes / dtypes."""
import torch
import torch.nn as nn


class PowerSpec(nn.Module):
    """Power spectrogram, window computed in the graph, reflect centre padding."""

    def forward(self, x):
        w = torch.hann_window(64)
        s = torch.stft(x, 64, 16, window=w, center=True, pad_mode="reflect", return_complex=False)
        return s.pow(2).sum(-1), torch.hamming_window(8, False, dtype=torch.float64)


class MagSpec(nn.Module):
    """Magnitude of a normalized two-sided transform with a shorter constant window (a buffer),
    constant centre padding, batched input."""

    def __init__(self):
        super().__init__()
        self.register_buffer("win", torch.blackman_window(24))

    def forward(self, x):
        s = torch.stft(x, 32, 8, 24, self.win, center=True, pad_mode="constant",
                       normalized=True, onesided=False, return_complex=False)
        windows = torch.bartlett_window(5).sum() + torch.kaiser_window(9).sum()
        return s.pow(2).sum(-1).sqrt() + windows


class Frames(nn.Module):
    """No centre padding, default hop and window, float64 input."""

    def forward(self, x):
        return torch.stft(x, 20, center=False, return_complex=False)


class ComplexSpec(nn.Module):
    """return_complex=True consumed as PyTorch models do: view_as_real -> power, and .abs()
    (magnitude spectrogram). mc writes the complex result as [..., 2] pairs; the graph dump's
    ComplexFloat types are refused by the text frontend, so this goes through mc_export."""

    def forward(self, x):
        s = torch.stft(x, 32, 8, window=torch.hann_window(32), return_complex=True)
        return torch.view_as_real(s).pow(2).sum(-1), s.abs(), torch.view_as_real(s)


class RfftFeatures(nn.Module):
    """torch.fft.rfft / fft of real input: magnitudes and power through view_as_real; irfft of
    an rfft and of view_as_complex of real pairs."""

    def forward(self, x):
        a = torch.fft.rfft(x).abs()
        b = torch.view_as_real(torch.fft.rfft(x, n=16, dim=1, norm="ortho")).pow(2).sum(-1)
        back = torch.fft.irfft(torch.fft.rfft(x), n=12)
        pairs = torch.stack([x, x * 0.5], -1)
        c = torch.fft.irfft(torch.view_as_complex(pairs), dim=1, norm="ortho")
        return a, b, torch.view_as_real(torch.fft.fft(x, norm="forward")), back, c


def sig(*s, dt=torch.float32):
    return lambda: [torch.randn(*s, dtype=dt)]


CASES = [
    dict(name="spectral_power_trace", module=PowerSpec, inputs=sig(400), rtol=1e-4, atol=1e-4),
    dict(name="spectral_mag_trace", module=MagSpec, inputs=sig(3, 200), format="json",
         rtol=1e-4, atol=1e-4),
    dict(name="spectral_complex_trace", module=ComplexSpec, inputs=sig(2, 300), format="json",
         rtol=1e-4, atol=1e-4),
    dict(name="spectral_rfft_trace", module=RfftFeatures, inputs=sig(3, 12), format="json",
         rtol=1e-4, atol=1e-5),
    dict(name="spectral_frames_trace", module=Frames, inputs=sig(2, 150, dt=torch.float64)),
]
