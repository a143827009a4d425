/* k_spectral.h — kernels of the spectral family: the short-time Fourier transform
 * (aten::stft, with and without the `center, pad_mode` overload) giving its real [..., 2]
 * result, fft_rfft and fft_fft of a real input (as [..., 2] pairs), view_as_real and abs of
 * those complex results, and the window factories (hann, hamming, blackman, bartlett,
 * kaiser). Prefix: kspec_.
 *
 * Semantics are PyTorch 1.13's on CPU. mc has no complex dtype: with return_complex=True the
 * result is written as the same real [..., 2] pairs, and aten::view_as_real of it is that
 * tensor (kspec_view_as_real); ops_spectral.c's check refuses every other use of the complex
 * value. (A graph dump typed ComplexFloat is refused by the text frontend.) stft's input is
 * 1-D [L] or 2-D [B, L] float32/float64, the window (optional, 1-D of win_length elements,
 * zero-padded on both sides to n_fft) promotes with it; frames start every hop_length samples,
 * n_frames = 1 + (L' - n_fft) / hop_length (L' the length after centre padding by n_fft / 2 on
 * each side: reflect, constant, replicate or circular). Output [B?, n_freq, n_frames, 2] with
 * n_freq = n_fft / 2 + 1 (onesided, the default for real input) or n_fft; normalized scales by
 * 1 / sqrt(n_fft). Each bin is a direct DFT accumulated in double (O(n_fft^2) per frame, no
 * tables: the twiddle exp(-2 pi i f k / n) is advanced by complex multiplication and reseeded
 * from cos/sin every 32 steps), stored in the output dtype.
 *
 * Windows are computed in double from PyTorch's formulas (periodic: the N + 1 symmetric window
 * without its last sample) and stored in the dtype (float32 by default; float dtypes only).
 */
#ifndef MC_K_SPECTRAL_H
#define MC_K_SPECTRAL_H

#include "mck.h"

#define KSPEC_PI 3.14159265358979323846

/* An optional int argument (dflt when absent or None); -1 when it is not known. */
static inline int kspec_int(mck_ctx *c, const char *op, const mck_arg *in, int nin, int k,
                            int64_t dflt, const char *what, int64_t *v) {
  *v = dflt;
  if (k >= nin || in[k].kind == MCK_NONE) return 0;
  if (in[k].kind == MCK_INT || in[k].kind == MCK_BOOL_ARG) {
    *v = in[k].u.i;
    return 0;
  }
  return mck_fail(c, "%s: %s must be a compile-time constant", op, what);
}

/* An optional bool argument: 0/1, or dflt (-1 for "None") when absent or None. */
static inline int kspec_bool(mck_ctx *c, const char *op, const mck_arg *in, int nin, int k,
                             int dflt, const char *what, int *v) {
  int64_t x;
  if (kspec_int(c, op, in, nin, k, dflt, what, &x)) return -1;
  *v = (int)(x != 0 && x != -1 ? 1 : x);
  return 0;
}

/* Position q (may be outside [0, n)) read through the padding mode: 0 reflect, 1 constant
 * (returns -1: the sample is zero), 2 replicate, 3 circular. n >= 1; reflect needs pad < n. */
static inline int64_t kspec_padpos(int64_t q, int64_t n, int mode) {
  if (q >= 0 && q < n) return q;
  switch (mode) {
  case 0:
    if (n == 1) return 0;
    return q < 0 ? -q : 2 * (n - 1) - q;
  case 2: return q < 0 ? 0 : n - 1;
  case 3: return ((q % n) + n) % n;
  default: return -1;
  }
}

/* Bin f of a length-n DFT: the sum over k in [k0, k0 + count) of the sample at position
 * pos0 + k of a row of len samples (x at base + q * xs, q read through kspec_padpos with pmode:
 * 0 where it gives -1), times w[k - k0] when w is given, times e^(-2 pi i f k / n). The twiddle
 * turns by a complex rotation, reseeded from the exact angle every 32 terms. */
static inline void kspec_dft_bin(const mck_tensor *x, int64_t base, int64_t xs, int64_t len, int pmode, int64_t pos0,
                                 const mck_tensor *w, int64_t k0, int64_t count, int64_t f, int64_t n,
                                 double *re_out, double *im_out) {
  double step = -2.0 * KSPEC_PI / (double)n;
  double re = 0.0, im = 0.0, cr = 1.0, ci = 0.0;
  double dr = cos(step * (double)f), di = sin(step * (double)f);
  for (int64_t k = k0; k < k0 + count; k++) {
    if (((k - k0) & 31) == 0) { /* reseed: angle of f*k mod n */
      double a = step * (double)((f * k) % n);
      cr = cos(a);
      ci = sin(a);
    }
    int64_t q = kspec_padpos(pos0 + k, len, pmode);
    if (q >= 0) {
      double v = mck_getf(x, base + q * xs);
      if (w) v *= mck_getf(w, w->offset + (k - k0) * w->stride[0]);
      re += v * cr;
      im += v * ci;
    }
    double nr = cr * dr - ci * di;
    ci = cr * di + ci * dr;
    cr = nr;
  }
  *re_out = re;
  *im_out = im;
}

/* stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None,
 *      bool normalized=False, bool? onesided=None, bool? return_complex=None)
 * stft.center(Tensor self, int n_fft, int? hop_length=None, int? win_length=None,
 *      Tensor? window=None, bool center=True, str pad_mode="reflect", bool normalized=False,
 *      bool? onesided=None, bool? return_complex=None) */
static inline int kspec_stft(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::stft";
  if (nin < 2 || in[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects a tensor input", op);
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects a tensor output", op);
  int ctr_form = nin >= 7 && (in[6].kind == MCK_STR || nin > 8);
  const mck_tensor *x = in[0].u.t;
  const mck_tensor *w = nin > 4 && in[4].kind == MCK_TENSOR ? in[4].u.t : NULL;
  int64_t n_fft, hop, winl;
  int center = 0, pmode = 0, normalized, onesided, rc;
  if (kspec_int(c, op, in, nin, 1, 0, "n_fft", &n_fft)) return -1;
  if (in[1].kind == MCK_NONE) return mck_fail(c, "%s: n_fft must be an int", op);
  if (n_fft <= 0 || n_fft > ((int64_t)1 << 30))
    return mck_fail(c, "%s: expected 0 < n_fft, got n_fft=%lld", op, (long long)n_fft);
  if (kspec_int(c, op, in, nin, 2, n_fft / 4, "hop_length", &hop) ||
      kspec_int(c, op, in, nin, 3, n_fft, "win_length", &winl))
    return -1;
  if (ctr_form) {
    if (kspec_bool(c, op, in, nin, 5, 1, "center", &center)) return -1;
    if (center == -1) center = 1;
    const char *pm = nin > 6 && in[6].kind == MCK_STR ? in[6].u.s : "reflect";
    if (nin > 6 && in[6].kind != MCK_STR && in[6].kind != MCK_NONE)
      return mck_fail(c, "%s: pad_mode must be a constant string", op);
    if (strcmp(pm, "reflect") == 0) pmode = 0;
    else if (strcmp(pm, "constant") == 0) pmode = 1;
    else if (strcmp(pm, "replicate") == 0) pmode = 2;
    else if (strcmp(pm, "circular") == 0) pmode = 3;
    else return mck_fail(c, "%s: unsupported pad_mode '%s' (reflect, constant, replicate and "
                         "circular are)", op, pm);
  }
  int b = ctr_form ? 7 : 5;
  if (kspec_bool(c, op, in, nin, b, 0, "normalized", &normalized) ||
      kspec_bool(c, op, in, nin, b + 1, -1, "onesided", &onesided) ||
      kspec_bool(c, op, in, nin, b + 2, -1, "return_complex", &rc))
    return -1;
  if (normalized == -1) normalized = 0;
  if (onesided == -1) onesided = 1;
  (void)rc; /* True: the same [..., 2] pairs; ops_complex_check allows only the OPF_COMPLEX_IN rows on it */
  if (x->dtype != MCK_F32 && x->dtype != MCK_F64)
    return mck_fail(c, "%s: input of dtype %s is not supported (float32 and float64 are)", op,
                    mck_dtype_name(x->dtype));
  if (x->ndim != 1 && x->ndim != 2)
    return mck_fail(c, "%s: expected a 1D or 2D tensor, got %d dims", op, x->ndim);
  int dt = x->dtype;
  if (w) {
    if (w->dtype != MCK_F32 && w->dtype != MCK_F64)
      return mck_fail(c, "%s: window of dtype %s is not supported (float32 and float64 are)", op,
                      mck_dtype_name(w->dtype));
    if (w->dtype == MCK_F64) dt = MCK_F64;
  }
  int64_t len = x->shape[x->ndim - 1], nb = x->ndim == 2 ? x->shape[0] : 1;
  int64_t pad = center ? n_fft / 2 : 0;
  if (center && pmode == 0 && pad >= len && len > 0)
    return mck_fail(c, "%s: reflect padding %lld must be smaller than the input length %lld",
                    op, (long long)pad, (long long)len);
  if (center && len == 0 && pmode != 1)
    return mck_fail(c, "%s: cannot pad an empty input in mode '%s'", op,
                    pmode == 0 ? "reflect" : pmode == 2 ? "replicate" : "circular");
  int64_t plen = len + 2 * pad;
  if (n_fft > plen)
    return mck_fail(c, "%s: expected 0 < n_fft < %lld, but got n_fft=%lld", op,
                    (long long)plen, (long long)n_fft);
  if (hop <= 0) return mck_fail(c, "%s: expected hop_length > 0, but got hop_length=%lld", op,
                                (long long)hop);
  if (winl <= 0 || winl > n_fft)
    return mck_fail(c, "%s: expected 0 < win_length <= n_fft, but got win_length=%lld", op,
                    (long long)winl);
  if (w && (w->ndim != 1 || w->shape[0] != winl))
    return mck_fail(c, "%s: expected a 1D window tensor of size equal to win_length=%lld", op,
                    (long long)winl);
  int64_t nfr = 1 + (plen - n_fft) / hop, nfq = onesided ? n_fft / 2 + 1 : n_fft;
  int64_t os[4];
  int on = 0;
  if (x->ndim == 2) os[on++] = nb;
  os[on++] = nfq;
  os[on++] = nfr;
  os[on++] = 2;
  if (!mck_shape_fits(on, os, (int64_t)mck_dtype_size(dt)))
    return mck_fail(c, "%s: output too large", op);
  if (mck_out(c, out[0].u.t, dt, on, os)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  int64_t left = (n_fft - winl) / 2;
  double scale = normalized ? 1.0 / sqrt((double)n_fft) : 1.0;
  int64_t xs = x->stride[x->ndim - 1], xbs = x->ndim == 2 ? x->stride[0] : 0;
  for (int64_t bi = 0; bi < nb; bi++) {
    for (int64_t t = 0; t < nfr; t++) {
      for (int64_t f = 0; f < nfq; f++) {
        double re, im;
        kspec_dft_bin(x, x->offset + bi * xbs, xs, len, pmode, t * hop - pad, w, left, winl, f, n_fft, &re, &im);
        int64_t oo = o->offset + ((bi * nfq + f) * nfr + t) * 2;
        mck_setf(o, oo, re * scale);
        mck_setf(o, oo + 1, im * scale);
      }
    }
  }
  return 0;
}

/* fft_rfft / fft_fft(Tensor self, int? n=None, int dim=-1, str? norm=None) of a real input:
 * the DFT along dim of the input cut or zero-padded to n, as [..., 2] pairs appended after
 * the last dim (dim keeps n / 2 + 1 bins for rfft, n for fft); norm "backward" (None) scales
 * by 1, "ortho" by 1 / sqrt(n), "forward" by 1 / n. Integer and bool inputs give float32. */
static inline int kspec_fft_real(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                                 int half) {
  const char *op = half ? "aten::fft_rfft" : "aten::fft_fft";
  if (nin < 1 || in[0].kind != MCK_TENSOR || nout < 1 || out[0].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects a tensor", op);
  const mck_tensor *x = in[0].u.t;
  int64_t n, dim;
  if (kspec_int(c, op, in, nin, 2, -1, "dim", &dim)) return -1;
  if (x->ndim == 0) return mck_fail(c, "%s: expected a tensor of at least one dimension", op);
  if (dim < -x->ndim || dim >= x->ndim)
    return mck_fail(c, "%s: dimension %lld out of range for %d dims", op, (long long)dim, x->ndim);
  int d = (int)(dim < 0 ? dim + x->ndim : dim);
  if (kspec_int(c, op, in, nin, 1, x->shape[d], "n", &n)) return -1;
  if (n < 1) return mck_fail(c, "%s: Invalid number of data points (%lld) specified", op,
                             (long long)n);
  if (n > ((int64_t)1 << 30)) return mck_fail(c, "%s: n too large", op);
  double scale = 1.0;
  if (nin > 3 && in[3].kind == MCK_STR) {
    if (strcmp(in[3].u.s, "ortho") == 0) scale = 1.0 / sqrt((double)n);
    else if (strcmp(in[3].u.s, "forward") == 0) scale = 1.0 / (double)n;
    else if (strcmp(in[3].u.s, "backward") != 0)
      return mck_fail(c, "%s: Invalid normalization mode: \"%s\"", op, in[3].u.s);
  } else if (nin > 3 && in[3].kind != MCK_NONE) {
    return mck_fail(c, "%s: norm must be a constant string", op);
  }
  int dt = x->dtype == MCK_F64 ? MCK_F64 : MCK_F32;
  if (x->dtype == MCK_F16 || x->dtype == MCK_BF16)
    return mck_fail(c, "%s: Unsupported dtype %s", op, mck_dtype_name(x->dtype));
  if (x->ndim + 1 > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dims", op);
  int64_t nf = half ? n / 2 + 1 : n, os[MCK_MAX_DIMS];
  for (int k = 0; k < x->ndim; k++) os[k] = x->shape[k];
  os[d] = nf;
  os[x->ndim] = 2;
  if (!mck_shape_fits(x->ndim + 1, os, (int64_t)mck_dtype_size(dt)))
    return mck_fail(c, "%s: output too large", op);
  if (mck_out(c, out[0].u.t, dt, x->ndim + 1, os)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  int64_t len = x->shape[d], m = n < len ? n : len, outer = 1, inner = 1;
  for (int k = 0; k < d; k++) outer *= x->shape[k];
  for (int k = d + 1; k < x->ndim; k++) inner *= x->shape[k];
  if (outer == 0 || inner == 0) return 0;
  int64_t idx[MCK_MAX_DIMS];
  for (int64_t a = 0; a < outer; a++) {
    for (int64_t b = 0; b < inner; b++) {
      /* the input's offset of (a, 0, b) */
      int64_t base = x->offset, r = a;
      for (int k = d - 1; k >= 0; k--) { idx[k] = r % x->shape[k]; r /= x->shape[k]; }
      for (int k = 0; k < d; k++) base += idx[k] * x->stride[k];
      r = b;
      for (int k = x->ndim - 1; k > d; k--) { idx[k] = r % x->shape[k]; r /= x->shape[k]; }
      for (int k = d + 1; k < x->ndim; k++) base += idx[k] * x->stride[k];
      for (int64_t f = 0; f < nf; f++) {
        double re, im; /* positions 0..m-1 lie in the row: constant padding (1) never applies */
        kspec_dft_bin(x, base, x->stride[d], len, 1, 0, NULL, 0, m, f, n, &re, &im);
        int64_t oo = o->offset + ((a * nf + f) * inner + b) * 2;
        mck_setf(o, oo, re * scale);
        mck_setf(o, oo + 1, im * scale);
      }
    }
  }
  return 0;
}
static inline int kspec_fft_rfft(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kspec_fft_real(c, out, nout, in, nin, 1);
}
static inline int kspec_fft_fft(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kspec_fft_real(c, out, nout, in, nin, 0);
}

/* fft_irfft(Tensor self, int? n=None, int dim=-1, str? norm=None): self is a complex value
 * written as [..., 2] pairs (view_as_complex of a real [..., 2] tensor, or an rfft result:
 * ops_complex_check refuses any other input); dim counts the complex dims. The inverse of
 * rfft: n = 2 (m - 1) real samples by default (m bins along dim, cut or zero-padded to
 * n / 2 + 1), the imaginary parts of bin 0 and (n even) bin n / 2 ignored as PyTorch's
 * Hermitian transform does; norm "backward" (None) scales by 1 / n, "ortho" 1 / sqrt(n),
 * "forward" 1. */
static inline int kspec_fft_irfft(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                  int nin) {
  const char *op = "aten::fft_irfft";
  if (nin < 1 || in[0].kind != MCK_TENSOR || nout < 1 || out[0].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects a tensor", op);
  const mck_tensor *x = in[0].u.t;
  if (x->ndim < 2 || x->shape[x->ndim - 1] != 2 || (x->dtype != MCK_F32 && x->dtype != MCK_F64))
    return mck_fail(c, "%s: the input must be a complex value of at least one dimension", op);
  int cn = x->ndim - 1;
  int64_t n, dim;
  if (kspec_int(c, op, in, nin, 2, -1, "dim", &dim)) return -1;
  if (dim < -cn || dim >= cn)
    return mck_fail(c, "%s: dimension %lld out of range for %d dims", op, (long long)dim, cn);
  int d = (int)(dim < 0 ? dim + cn : dim);
  int64_t mbins = x->shape[d];
  if (kspec_int(c, op, in, nin, 1, 2 * (mbins - 1), "n", &n)) return -1;
  if (n < 1) return mck_fail(c, "%s: Invalid number of data points (%lld) specified", op,
                             (long long)n);
  if (n > ((int64_t)1 << 30)) return mck_fail(c, "%s: n too large", op);
  double scale = 1.0 / (double)n;
  if (nin > 3 && in[3].kind == MCK_STR) {
    if (strcmp(in[3].u.s, "ortho") == 0) scale = 1.0 / sqrt((double)n);
    else if (strcmp(in[3].u.s, "forward") == 0) scale = 1.0;
    else if (strcmp(in[3].u.s, "backward") != 0)
      return mck_fail(c, "%s: Invalid normalization mode: \"%s\"", op, in[3].u.s);
  } else if (nin > 3 && in[3].kind != MCK_NONE) {
    return mck_fail(c, "%s: norm must be a constant string", op);
  }
  int64_t os[MCK_MAX_DIMS];
  for (int k = 0; k < cn; k++) os[k] = x->shape[k];
  os[d] = n;
  if (!mck_shape_fits(cn, os, (int64_t)mck_dtype_size(x->dtype)))
    return mck_fail(c, "%s: output too large", op);
  if (mck_out(c, out[0].u.t, x->dtype, cn, os)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  int64_t nb = n / 2 + 1, m = nb < mbins ? nb : mbins, outer = 1, inner = 1;
  for (int k = 0; k < d; k++) outer *= x->shape[k];
  for (int k = d + 1; k < cn; k++) inner *= x->shape[k];
  if (outer == 0 || inner == 0) return 0;
  double step = 2.0 * KSPEC_PI / (double)n;
  int64_t idx[MCK_MAX_DIMS], ps = x->stride[cn];
  for (int64_t a = 0; a < outer; a++) {
    for (int64_t b = 0; b < inner; b++) {
      int64_t base = x->offset, r = a;
      for (int k = d - 1; k >= 0; k--) { idx[k] = r % x->shape[k]; r /= x->shape[k]; }
      for (int k = 0; k < d; k++) base += idx[k] * x->stride[k];
      r = b;
      for (int k = cn - 1; k > d; k--) { idx[k] = r % x->shape[k]; r /= x->shape[k]; }
      for (int k = d + 1; k < cn; k++) base += idx[k] * x->stride[k];
      for (int64_t t = 0; t < n; t++) {
        double acc = 0.0, cr = 1.0, ci = 0.0;
        double dr = cos(step * (double)t), di = sin(step * (double)t);
        for (int64_t k = 0; k < m; k++) {
          if ((k & 31) == 0) {
            double ang = step * (double)((t * k) % n);
            cr = cos(ang);
            ci = sin(ang);
          }
          int64_t off = base + k * x->stride[d];
          double re = mck_getf(x, off), im = mck_getf(x, off + ps);
          if (k == 0 || (n % 2 == 0 && k == n / 2)) acc += re * cr; /* imag ignored */
          else acc += 2.0 * (re * cr - im * ci);
          double nr = cr * dr - ci * di;
          ci = cr * di + ci * dr;
          cr = nr;
        }
        mck_setf(o, o->offset + (a * n + t) * inner + b, acc * scale);
      }
    }
  }
  return 0;
}

/* view_as_complex(Tensor(a) self): real [..., 2] as the complex value it is in mc's
 * representation: the same tensor (PyTorch's rule: last dim 2 of stride 1, float). */
static inline int kspec_view_as_complex(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                        int nin) {
  if (nin < 1 || in[0].kind != MCK_TENSOR || nout < 1 || out[0].kind != MCK_TENSOR)
    return mck_fail(c, "aten::view_as_complex: expects a tensor");
  const mck_tensor *t = in[0].u.t;
  if (t->dtype != MCK_F32 && t->dtype != MCK_F64)
    return mck_fail(c, "aten::view_as_complex is only supported for float and double tensors, "
                    "but got a tensor of scalar type: %s", mck_dtype_name(t->dtype));
  if (t->ndim < 1 || t->shape[t->ndim - 1] != 2)
    return mck_fail(c, "aten::view_as_complex: Tensor must have a last dimension of size 2");
  if (t->stride[t->ndim - 1] != 1)
    return mck_fail(c, "aten::view_as_complex: Tensor must have a last dimension with stride 1");
  *out[0].u.t = *t;
  return 0;
}

/* view_as_real(Tensor(a) self): the input is the complex result of a row that writes it as
 * real [..., 2] pairs (aten::stft with return_complex=True; ops_complex_check refuses any other
 * producer or use), so this is that tensor itself. */
static inline int kspec_view_as_real(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                     int nin) {
  if (nin < 1 || in[0].kind != MCK_TENSOR || nout < 1 || out[0].kind != MCK_TENSOR)
    return mck_fail(c, "aten::view_as_real: expects a tensor");
  const mck_tensor *t = in[0].u.t;
  if (t->ndim < 1 || t->shape[t->ndim - 1] != 2 || (t->dtype != MCK_F32 && t->dtype != MCK_F64))
    return mck_fail(c, "aten::view_as_real is only supported on a complex result written as "
                    "[..., 2] pairs (torch.stft with return_complex=True)");
  *out[0].u.t = *t;
  return 0;
}

/* mc::complex_abs(Tensor self): |z| of complex values written as real [..., 2] pairs: the
 * aten::abs of stft(return_complex=True) (ops_spectral.c rewrites it to this row); [...] of
 * hypot(re, im) in the input's dtype (PyTorch's std::abs of a complex is hypot too). */
static inline int kspec_complex_abs(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                    int nin) {
  const char *op = "aten::abs";
  if (nin < 1 || in[0].kind != MCK_TENSOR || nout < 1 || out[0].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects a tensor", op);
  const mck_tensor *t = in[0].u.t;
  if (t->ndim < 1 || t->shape[t->ndim - 1] != 2 || (t->dtype != MCK_F32 && t->dtype != MCK_F64))
    return mck_fail(c, "%s: a complex value must be float32/float64 [..., 2] pairs", op);
  int on = t->ndim - 1;
  if (mck_out(c, out[0].u.t, t->dtype, on, t->shape)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  int64_t n = mck_numel(o), idx[MCK_MAX_DIMS] = {0};
  for (int64_t e = 0; e < n; e++) {
    int64_t off = t->offset;
    for (int d = 0; d < on; d++) off += idx[d] * t->stride[d];
    double re = mck_getf(t, off), im = mck_getf(t, off + t->stride[on]);
    double v = hypot(re, im);
    if (t->dtype == MCK_F32) v = (double)hypotf((float)re, (float)im);
    mck_setf(o, o->offset + e, v);
    for (int d = on - 1; d >= 0; d--) {
      if (++idx[d] < t->shape[d]) break;
      idx[d] = 0;
    }
  }
  return 0;
}

/* I0, the modified Bessel function of the first kind of order 0: its power series (all terms
 * positive; stops when a term no longer changes the sum). */
static inline double kspec_i0(double x) {
  double sum = 1.0, term = 1.0, q = x * x / 4.0;
  for (int k = 1; k < 500; k++) {
    term *= q / ((double)k * (double)k);
    if (sum + term == sum) break;
    sum += term;
  }
  return sum;
}

/* The window factories: kind 0 hann, 1 hamming, 2 blackman, 3 bartlett, 4 kaiser.
 *   X_window(int N, *, dtype, layout, device, pin_memory)
 *   X_window.periodic(int N, bool periodic, *, dtype, ...)
 *   hamming_window.periodic_alpha(int N, bool periodic, float alpha, *, ...)
 *   hamming_window.periodic_alpha_beta(int N, bool periodic, float alpha, float beta, *, ...)
 *   kaiser_window.beta(int N, bool periodic, float beta=12., *, ...):
 *     I0(beta sqrt(1 - ((i - a) / a)^2)) / I0(beta), a = (N - 1) / 2
 * The overload is told by the count of arguments before the four keyword ones. */
static inline int kspec_window(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                               int kind) {
  static const char *const names[] = {"aten::hann_window", "aten::hamming_window",
                                      "aten::blackman_window", "aten::bartlett_window",
                                      "aten::kaiser_window"};
  const char *op = names[kind];
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects a tensor output", op);
  int npos = nin - 4;
  if (npos < 1 || npos > (kind == 1 ? 4 : kind == 4 ? 3 : 2))
    return mck_fail(c, "%s: unexpected argument count %d", op, nin);
  int64_t n, periodic = 1;
  double alpha = 0.54, beta = 0.46;
  if (kspec_int(c, op, in, nin, 0, 0, "window_length", &n)) return -1;
  if (in[0].kind != MCK_INT) return mck_fail(c, "%s: window_length must be an int", op);
  if (npos >= 2 && kspec_int(c, op, in, nin, 1, 1, "periodic", &periodic)) return -1;
  if (kind == 4) alpha = 12.0; /* beta */
  if (npos >= 3) {
    if (!mck_arg_is_scalar(&in[2]))
      return mck_fail(c, "%s: %s must be a constant", op, kind == 4 ? "beta" : "alpha");
    alpha = mck_arg_f(&in[2]);
  }
  if (npos >= 4) {
    if (!mck_arg_is_scalar(&in[3])) return mck_fail(c, "%s: beta must be a constant", op);
    beta = mck_arg_f(&in[3]);
  }
  if (kind == 0) alpha = beta = 0.5;
  int dt = MCK_F32;
  if (in[npos].kind != MCK_NONE) {
    if (in[npos].kind != MCK_INT)
      return mck_fail(c, "%s: dtype must be a compile-time constant ScalarType", op);
    dt = mck_dtype_from_scalar_type(in[npos].u.i);
    if (dt < 0) return mck_fail(c, "%s: unsupported ScalarType code %lld", op,
                                (long long)in[npos].u.i);
  }
  if (dt != MCK_F32 && dt != MCK_F64 && dt != MCK_F16 && dt != MCK_BF16)
    return mck_fail(c, "%s: expected a floating point dtype, got %s", op, mck_dtype_name(dt));
  if (n < 0) return mck_fail(c, "%s: requires non-negative window_length, got window_length=%lld",
                             op, (long long)n);
  if (n > ((int64_t)1 << 40)) return mck_fail(c, "%s: window_length too large", op);
  if (mck_out(c, out[0].u.t, dt, 1, &n)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  if (n == 1) {
    mck_setf(o, o->offset, 1.0);
    return 0;
  }
  int64_t m = periodic ? n + 1 : n; /* the symmetric window's length */
  for (int64_t i = 0; i < n; i++) {
    double v, d = (double)i;
    switch (kind) {
    case 0:
    case 1: v = alpha - beta * cos(d * (2.0 * KSPEC_PI / (double)(m - 1))); break;
    case 2: {
      double a = d * (KSPEC_PI / (double)(m - 1));
      v = 0.08 * cos(4.0 * a) - 0.5 * cos(2.0 * a) + 0.42;
      break;
    }
    case 3: {
      v = d * (2.0 / (double)(m - 1));
      if (i >= ((m - 1) >> 1) + 1) v = 2.0 - v;
      break;
    }
    default: {
      double a = (double)(m - 1) / 2.0, r = (d - a) / a;
      v = kspec_i0(alpha * sqrt(fmax(0.0, 1.0 - r * r))) / kspec_i0(alpha);
      break;
    }
    }
    mck_setf(o, o->offset + i, v);
  }
  return 0;
}
static inline int kspec_hann_window(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kspec_window(c, out, nout, in, nin, 0);
}
static inline int kspec_hamming_window(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  return kspec_window(c, out, nout, in, nin, 1);
}
static inline int kspec_blackman_window(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                        int nin) {
  return kspec_window(c, out, nout, in, nin, 2);
}
static inline int kspec_kaiser_window(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                      int nin) {
  return kspec_window(c, out, nout, in, nin, 4);
}
static inline int kspec_bartlett_window(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                        int nin) {
  return kspec_window(c, out, nout, in, nin, 3);
}

#endif
