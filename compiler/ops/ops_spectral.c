/* ops_spectral.c — the spectral family's rows: the short-time Fourier transform (its real
 * [..., 2] result: mc has no complex dtype) and the window factories. Kernels in
 * k_spectral.h. */
#include "ops.h"

#include "k_spectral.h"

#define PURE(name, kern, nmin, nmax, flags, schema, doc) \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, flags, schema, doc)

#define WINDOW_KW "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, " \
                  "bool? pin_memory=None) -> Tensor"

static const OpDef rows[] = {
    PURE("stft", kspec_stft, 2, 10, 0,
         "(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
         "Tensor? window=None, bool normalized=False, bool? onesided=None, "
         "bool? return_complex=None) -> Tensor | "
         "(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
         "Tensor? window=None, bool center=True, str pad_mode=\"reflect\", "
         "bool normalized=False, bool? onesided=None, bool? return_complex=None) -> Tensor",
         "short-time DFT of [L] or [B, L] frames (window zero-padded to n_fft, centre padding "
         "reflect/constant/replicate/circular) as real [B?, freq, frames, 2]; "
         "return_complex=True is refused"),
    PURE("hann_window", kspec_hann_window, 5, 6, OPF_ALLOC_LIKE,
         "(int window_length, " WINDOW_KW " | (int window_length, bool periodic, " WINDOW_KW,
         "0.5 - 0.5 cos(2 pi i / (N - 1)); periodic (default) uses N + 1 and drops the last"),
    PURE("hamming_window", kspec_hamming_window, 5, 8, OPF_ALLOC_LIKE,
         "(int window_length, " WINDOW_KW " | (int window_length, bool periodic, " WINDOW_KW
         " | (int window_length, bool periodic, float alpha, " WINDOW_KW
         " | (int window_length, bool periodic, float alpha, float beta, " WINDOW_KW,
         "alpha - beta cos(2 pi i / (N - 1)), alpha 0.54, beta 0.46 by default"),
    PURE("blackman_window", kspec_blackman_window, 5, 6, OPF_ALLOC_LIKE,
         "(int window_length, " WINDOW_KW " | (int window_length, bool periodic, " WINDOW_KW,
         "0.42 - 0.5 cos(2 pi i / (N - 1)) + 0.08 cos(4 pi i / (N - 1))"),
    PURE("bartlett_window", kspec_bartlett_window, 5, 6, OPF_ALLOC_LIKE,
         "(int window_length, " WINDOW_KW " | (int window_length, bool periodic, " WINDOW_KW,
         "triangle 2 i / (N - 1), mirrored past the middle"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 5, "spectral op table size");

const OpFamily ops_family_spectral = {"spectral", rows, (int)(sizeof rows / sizeof rows[0])};
