/* ops_spectral.c — the spectral family's rows: the short-time Fourier transform (its real
 * [..., 2] result: mc has no complex dtype), view_as_real and abs of its complex result, and
 * fft_rfft / fft_fft of real input, and the window factories. Kernels in k_spectral.h.
 * ops_spectral_check (run by ops_resolve) keeps the complex values mc has, the results of
 * stft(return_complex=True), fft_rfft and fft_fft written as real [..., 2] pairs, to its supported uses: view_as_real, and abs, which it rewrites to
 * mc::complex_abs (the magnitude of the pairs). */
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
         "return_complex=True gives the same pairs (only view_as_real and abs may use it)"),
    PURE("fft_rfft", kspec_fft_rfft, 1, 4, 0,
         "(Tensor self, int? n=None, int dim=-1, str? norm=None) -> Tensor",
         "DFT of a real input along dim, n / 2 + 1 bins, as [..., 2] pairs (complex: only "
         "view_as_real and abs may use it)"),
    PURE("fft_fft", kspec_fft_fft, 1, 4, 0,
         "(Tensor self, int? n=None, int dim=-1, str? norm=None) -> Tensor",
         "DFT of a real input along dim, n bins, as [..., 2] pairs (complex: only view_as_real "
         "and abs may use it; complex inputs are not supported)"),
    PURE("fft_irfft", kspec_fft_irfft, 1, 4, 0,
         "(Tensor self, int? n=None, int dim=-1, str? norm=None) -> Tensor",
         "inverse of rfft: n = 2 (bins - 1) real samples by default; the input must be "
         "view_as_complex of real [..., 2] or an rfft result"),
    OPDEF("aten::view_as_complex", kspec_view_as_complex, EFF_VIEW, 0, NULL, 1, 1, 0,
          "(Tensor(a) self) -> Tensor(a)",
          "real [..., 2] as a complex value (the same tensor); only fft_irfft, view_as_real "
          "and abs may use it"),
    OPDEF("aten::view_as_real", kspec_view_as_real, EFF_VIEW, 0, NULL, 1, 1, 0,
          "(Tensor(a) self) -> Tensor(a)",
          "the complex result of stft(return_complex=True) as real [..., 2] (the same tensor: "
          "mc writes complex results as pairs); no other complex value is supported"),
    OPDEF("mc::complex_abs", kspec_complex_abs, EFF_PURE, 0, NULL, 1, 1, 0,
          "(Tensor self) -> Tensor",
          "hypot(self[..., 0], self[..., 1]): abs of stft(return_complex=True) (what "
          "aten::abs of that complex value becomes)"),
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
    PURE("kaiser_window", kspec_kaiser_window, 5, 7, OPF_ALLOC_LIKE,
         "(int window_length, " WINDOW_KW " | (int window_length, bool periodic, " WINDOW_KW
         " | (int window_length, bool periodic, float beta, " WINDOW_KW,
         "I0(beta sqrt(1 - ((i - a) / a)^2)) / I0(beta), a = (N - 1) / 2, beta 12 by default"),
    PURE("bartlett_window", kspec_bartlett_window, 5, 6, OPF_ALLOC_LIKE,
         "(int window_length, " WINDOW_KW " | (int window_length, bool periodic, " WINDOW_KW,
         "triangle 2 i / (N - 1), mirrored past the middle"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 12, "spectral op table size");

const OpFamily ops_family_spectral = {"spectral", rows, (int)(sizeof rows / sizeof rows[0])};

/* The complex-producing nodes: fft_rfft, fft_fft, and stft whose return_complex is not a
 * constant False / None. */
static bool spectral_complex_value(const Value *v) {
  const Node *n = v ? v->def : NULL;
  if (!n || v->index != 0) return false;
  if (ir_node_is(n, "aten::fft_rfft") || ir_node_is(n, "aten::fft_fft") ||
      ir_node_is(n, "aten::view_as_complex"))
    return true;
  if (!ir_node_is(n, "aten::stft")) return false;
  int k = n->ninputs == 10 ? 9 : n->ninputs == 8 ? 7 : -1;
  if (k < 0) return false;
  int64_t rc;
  if (ir_constant_is_none(n->inputs[k])) return false;
  return !ir_constant_int(n->inputs[k], &rc) || rc != 0;
}

static int spectral_check_block(Block *b, Diag *d) {
  int errs = 0;
  for (Node *n = b->first; n; n = n->next) {
    if (ir_node_is(n, "aten::abs") && n->ninputs == 1 && spectral_complex_value(n->inputs[0])) {
      /* |z| of the pairs: the fused real row */
      n->kind = "mc::complex_abs";
      n->op = ops_lookup(n->kind);
      continue;
    }
    /* A graph or block parameter is refused too: mc's inputs are never complex, and PyTorch
     * reads a real tensor given to irfft as complex numbers with no imaginary part, not as
     * [..., 2] pairs. */
    if ((ir_node_is(n, "aten::fft_irfft") || ir_node_is(n, "aten::view_as_real")) &&
        n->ninputs >= 1 && n->inputs[0] && !spectral_complex_value(n->inputs[0])) {
      diag_error(d, n->loc, "'%s' is supported only on a complex value of view_as_complex, "
                 "fft_rfft, fft_fft or stft(return_complex=True) (mc has no complex dtype)",
                 n->kind);
      if (n->py_loc) diag_note(d, n->loc, "from PyTorch code at %s", n->py_loc);
      errs++;
      continue;
    }
    for (int i = 0; i < n->ninputs; i++) {
      if (!spectral_complex_value(n->inputs[i])) continue;
      if ((ir_node_is(n, "aten::view_as_real") || ir_node_is(n, "aten::fft_irfft")) && i == 0)
        continue;
      diag_error(d, n->loc, "'%s' of the complex result of %s is not supported: mc has no "
                 "complex dtype; only aten::view_as_real, aten::abs and aten::fft_irfft of it are",
                 n->kind,
                 n->inputs[i]->def->kind);
      if (n->py_loc) diag_note(d, n->loc, "from PyTorch code at %s", n->py_loc);
      errs++;
      break;
    }
    for (int k = 0; k < n->nblocks; k++) errs += spectral_check_block(n->blocks[k], d);
  }
  for (int i = 0; i < b->nrets; i++) {
    if (!spectral_complex_value(b->rets[i])) continue;
    diag_error(d, b->rets[i]->def->loc, "the complex result of %s is returned: mc has no "
               "complex dtype; only aten::view_as_real and aten::abs of it are supported",
               b->rets[i]->def->kind);
    errs++;
  }
  return errs;
}

int ops_spectral_check(Graph *g, Diag *d) { return spectral_check_block(g->top, d); }
