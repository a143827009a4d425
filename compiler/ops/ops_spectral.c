/* ops_spectral.c — the spectral family's rows: the short-time Fourier transform (its real
 * [..., 2] result: mc has no complex dtype), view_as_real and abs of its complex result, and
 * fft_rfft / fft_fft of real input, and the window factories. Kernels in k_spectral.h.
 * The rows say which make a complex value, written as real [..., 2] pairs (OPF_COMPLEX_OUT:
 * stft(return_complex=True), fft_rfft, fft_fft, view_as_complex) and which take one
 * (OPF_COMPLEX_IN: view_as_real, fft_irfft, and mc::complex_abs, the magnitude of the pairs,
 * which aten::abs of a complex value becomes); ops_complex_check (run by ops_resolve) reads
 * those flags. */
#include "ops.h"

#include <stdio.h>
#include <string.h>

#include "k_spectral.h"

#define PURE(name, kern, nmin, nmax, flags, schema, doc) \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, flags, schema, doc)

#define WINDOW_KW "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, " \
                  "bool? pin_memory=None) -> Tensor"

static const OpDef rows[] = {
    PURE("stft", kspec_stft, 2, 10, OPF_COMPLEX_OUT | OPF_COMPLEX_ASKED | OPF_STRIDED_OUT,
         "(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
         "Tensor? window=None, bool normalized=False, bool? onesided=None, "
         "bool? return_complex=None) -> Tensor | "
         "(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
         "Tensor? window=None, bool center=True, str pad_mode=\"reflect\", "
         "bool normalized=False, bool? onesided=None, bool? return_complex=None) -> Tensor",
         "short-time DFT of [L] or [B, L] frames (window zero-padded to n_fft, centre padding "
         "reflect/constant/replicate/circular) as real [B?, freq, frames, 2]; "
         "return_complex=True gives the same pairs (only view_as_real and abs may use it)"),
    PURE("fft_rfft", kspec_fft_rfft, 1, 4, OPF_COMPLEX_OUT,
         "(Tensor self, int? n=None, int dim=-1, str? norm=None) -> Tensor",
         "DFT of a real input along dim, n / 2 + 1 bins, as [..., 2] pairs (complex: only "
         "view_as_real and abs may use it)"),
    PURE("fft_fft", kspec_fft_fft, 1, 4, OPF_COMPLEX_OUT,
         "(Tensor self, int? n=None, int dim=-1, str? norm=None) -> Tensor",
         "DFT of a real input along dim, n bins, as [..., 2] pairs (complex: only view_as_real "
         "and abs may use it; complex inputs are not supported)"),
    PURE("fft_irfft", kspec_fft_irfft, 1, 4, OPF_COMPLEX_IN,
         "(Tensor self, int? n=None, int dim=-1, str? norm=None) -> Tensor",
         "inverse of rfft: n = 2 (bins - 1) real samples by default; the input must be "
         "view_as_complex of real [..., 2] or an rfft result"),
    OPDEF("aten::view_as_complex", kspec_view_as_complex, EFF_VIEW, 0, NULL, 1, 1, OPF_COMPLEX_OUT,
          "(Tensor(a) self) -> Tensor(a)",
          "real [..., 2] as a complex value (the same tensor); only fft_irfft, view_as_real "
          "and abs may use it"),
    OPDEF("aten::view_as_real", kspec_view_as_real, EFF_VIEW, 0, NULL, 1, 1, OPF_COMPLEX_IN,
          "(Tensor(a) self) -> Tensor(a)",
          "the complex result of stft(return_complex=True) as real [..., 2] (the same tensor: "
          "mc writes complex results as pairs); no other complex value is supported"),
    OPDEF("mc::complex_abs", kspec_complex_abs, EFF_PURE, 0, NULL, 1, 1, OPF_COMPLEX_IN,
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

/* ---- the complex-value check, read from the rows' flags ----------------------------------- */
static const OpDef *row_of(const Node *n) { return n->op ? n->op : ops_lookup(n->kind); }

/* Whether v is a complex value: result 0 of an OPF_COMPLEX_OUT row (OPF_COMPLEX_ASKED: when the
 * last input of a call with every parameter, return_complex, is not a constant False / None). */
static bool complex_value(const Value *v) {
  const Node *n = v ? v->def : NULL;
  const OpDef *op = n ? row_of(n) : NULL;
  if (!op || v->index != 0 || !(op->flags & OPF_COMPLEX_OUT)) return false;
  if (!(op->flags & OPF_COMPLEX_ASKED)) return true;
  OpSig sig;
  bool full = false;
  for (int k = 0; !full && ops_overload(op, k, &sig); k++) full = !sig.variadic && sig.nparams == n->ninputs;
  if (!full || n->ninputs == 0) return false;
  const Value *rc = n->inputs[n->ninputs - 1];
  int64_t b;
  if (ir_constant_is_none(rc)) return false;
  return !ir_constant_int(rc, &b) || b != 0;
}

/* The row an op becomes on a complex input: mc::complex_<name> with OPF_COMPLEX_IN, or NULL. */
static const OpDef *complex_twin(const Node *n) {
  const char *base = strstr(n->kind, "::");
  char name[96];
  if (!base || n->ninputs != 1) return NULL;
  int w = snprintf(name, sizeof name, "mc::complex_%s", base + 2);
  if (w < 0 || (size_t)w >= sizeof name) return NULL;
  const OpDef *op = ops_lookup(name);
  return op && (op->flags & OPF_COMPLEX_IN) ? op : NULL;
}

/* The rows with flag f, comma separated, in buf (an mc::complex_X row named as aten::X, the op
 * written in a model; OPF_COMPLEX_ASKED ones with "(return_complex=True)"). */
static const char *rows_with(int f, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < ops_count(); i++) {
    const OpDef *op = ops_at(i);
    if (!(op->flags & f)) continue;
    const char *name = op->name;
    bool twin = !strncmp(name, "mc::complex_", 12);
    int w = snprintf(buf + len, size - len, "%s%s%s%s", len ? ", " : "", twin ? "aten::" : "", twin ? name + 12 : name,
                     op->flags & OPF_COMPLEX_ASKED ? "(return_complex=True)" : "");
    if (w < 0 || (size_t)w >= size - len) break;
    len += (size_t)w;
  }
  return buf;
}

static int complex_check_block(Block *b, Diag *d) {
  int errs = 0;
  char uses[512], makers[512];
  for (Node *n = b->first; n; n = n->next) {
    const OpDef *op = row_of(n), *twin;
    if (op && !(op->flags & OPF_COMPLEX_IN) && n->ninputs == 1 && complex_value(n->inputs[0]) &&
        (twin = complex_twin(n)) != NULL) {
      /* |z| of the pairs: the real row that computes it */
      n->kind = twin->name;
      n->op = twin;
      continue;
    }
    bool takes = op && (op->flags & OPF_COMPLEX_IN);
    /* A graph or block parameter is refused too: mc's inputs are never complex, and PyTorch
     * reads a real tensor given to irfft as complex numbers with no imaginary part, not as
     * [..., 2] pairs. */
    if (takes && n->ninputs >= 1 && n->inputs[0] && !complex_value(n->inputs[0])) {
      diag_error(d, n->loc, "'%s' is supported only on a complex value of %s (mc has no complex dtype)", n->kind,
                 rows_with(OPF_COMPLEX_OUT, makers, sizeof makers));
      if (n->py_loc) diag_note(d, n->loc, "from PyTorch code at %s", n->py_loc);
      errs++;
      continue;
    }
    for (int i = 0; i < n->ninputs; i++) {
      if (!complex_value(n->inputs[i]) || (takes && i == 0)) continue;
      diag_error(d, n->loc, "'%s' of the complex result of %s is not supported: mc has no "
                 "complex dtype; only %s of it are",
                 n->kind, n->inputs[i]->def->kind, rows_with(OPF_COMPLEX_IN, uses, sizeof uses));
      if (n->py_loc) diag_note(d, n->loc, "from PyTorch code at %s", n->py_loc);
      errs++;
      break;
    }
    for (int k = 0; k < n->nblocks; k++) errs += complex_check_block(n->blocks[k], d);
  }
  for (int i = 0; i < b->nrets; i++) {
    if (!complex_value(b->rets[i])) continue;
    diag_error(d, b->rets[i]->def->loc, "the complex result of %s is returned: mc has no "
               "complex dtype; only %s of it are supported",
               b->rets[i]->def->kind, rows_with(OPF_COMPLEX_IN, uses, sizeof uses));
    errs++;
  }
  return errs;
}

int ops_complex_check(Graph *g, Diag *d) { return complex_check_block(g->top, d); }
