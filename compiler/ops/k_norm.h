/* k_norm.h — normalisation kernels: batch_norm, instance_norm, layer_norm, group_norm.
 * Uses the argument helpers (k_args.h) and the GEMM core's vector types (k_gemm.h).
 */
#ifndef MC_K_NORM_H
#define MC_K_NORM_H

#include "k_gemm.h"

/* ---- normalisation ----------------------------------------------------------------------- */
/* Float32 tensors are read and written through plain pointers; other dtypes through
 * mck_getf / mck_setf. Statistics are always accumulated in double. */
static inline double kconv_ld(const mck_tensor *t, const float *f, int64_t off) {
  return f ? (double)f[off] : mck_getf(t, off);
}
static inline void kconv_st(mck_tensor *t, float *f, int64_t off, double v) {
  if (f) f[off] = (float)v;
  else mck_setf(t, off, v);
}
static inline const float *kconv_f32p(const mck_tensor *t) {
  return t->dtype == MCK_F32 ? (const float *)t->data : NULL;
}
static inline float *kconv_f32w(mck_tensor *t) {
  return t->dtype == MCK_F32 ? (float *)t->data : NULL;
}

/* A per-channel parameter (weight, bias, running stats) as n doubles; absent -> dflt. */
static inline int kconv_param(mck_ctx *c, const char *op, const char *what, const mck_arg *a,
                              int64_t n, double dflt, double *out) {
  const mck_tensor *t = kconv_tensor(a);
  if (!t) {
    if (a->kind != MCK_NONE) return mck_fail(c, "%s: %s must be a tensor or None", op, what);
    if (c->meta) return 0;
    for (int64_t i = 0; i < n; i++) out[i] = dflt;
    return 0;
  }
  if (mck_numel(t) != n) {
    return mck_fail(c, "%s: %s has %lld elements, expected %lld", op, what,
                    (long long)mck_numel(t), (long long)n);
  }
  if (c->meta) return 0;
  mck_iter it;
  const int64_t *st[1] = {t->stride};
  int64_t base[1] = {t->offset};
  mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) out[k] = mck_getf(t, it.off[0]);
  return 0;
}

/* y = x * a[ch] + b[ch] where ch is the index along dim 1 (batch_norm inference form). */
static inline void kconv_chan_affine(const mck_tensor *x, mck_tensor *y, const double *a,
                                     const double *b) {
  int64_t n = mck_numel(x);
  if (x->dtype == MCK_F32 && y->dtype == MCK_F32 && mck_is_contiguous(x)) {
    const float *xp = (const float *)x->data + x->offset;
    float *yp = (float *)y->data + y->offset;
    int64_t C = x->shape[1], S = n / (x->shape[0] * C > 0 ? x->shape[0] * C : 1);
    for (int64_t p = 0; p < x->shape[0] * C; p++) {
      float av = (float)a[p % C], bv = (float)b[p % C];
      const float *xr = xp + p * S;
      float *yr = yp + p * S;
      for (int64_t i = 0; i < S; i++) yr[i] = xr[i] * av + bv;
    }
    return;
  }
  mck_iter it;
  const int64_t *st[2] = {x->stride, y->stride};
  int64_t base[2] = {x->offset, y->offset};
  mck_iter_init(&it, x->ndim, x->shape, 2, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) {
    int64_t ch = it.idx[1];
    mck_setf(y, it.off[1], mck_getf(x, it.off[0]) * a[ch] + b[ch]);
  }
}

/* Per-channel (dim 1) batch mean and biased variance. */
static inline void kconv_chan_stats(const mck_tensor *x, double *mean, double *var) {
  int64_t n = mck_numel(x), C = x->shape[1], cnt = C ? n / C : 0;
  mck_iter it;
  const int64_t *st[1] = {x->stride};
  int64_t base[1] = {x->offset};
  for (int64_t ch = 0; ch < C; ch++) mean[ch] = var[ch] = 0.0;
  mck_iter_init(&it, x->ndim, x->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) mean[it.idx[1]] += mck_getf(x, it.off[0]);
  for (int64_t ch = 0; ch < C; ch++) mean[ch] /= (double)(cnt ? cnt : 1);
  mck_iter_init(&it, x->ndim, x->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) {
    double d = mck_getf(x, it.off[0]) - mean[it.idx[1]];
    var[it.idx[1]] += d * d;
  }
  for (int64_t ch = 0; ch < C; ch++) var[ch] /= (double)(cnt ? cnt : 1);
}

/* Shared by batch_norm and instance_norm (use_input_stats=false): channel-wise affine from
 * running (or batch) statistics. */
static inline int kconv_bn(mck_ctx *c, const char *op, mck_arg *out, int nout, const mck_arg *in,
                           int nin, int batch_stats) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  double eps = 1e-5;
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (x->ndim < 2) return mck_fail(c, "%s: expected at least 2D input, got %dD", op, x->ndim);
  if (!mck_is_float(x->dtype)) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (kconv_float(c, kconv_arg(in, nin, 7), 1e-5, &eps, op, "eps")) return -1;
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  int64_t C = x->shape[1];
  double *buf = (double *)kconv_alloc(mck_mul_sat(6, C), sizeof(double));
  if (!buf) return mck_fail(c, "%s: out of memory", op);
  double *w = buf, *b = buf + C, *rm = buf + 2 * C, *rv = buf + 3 * C, *a = buf + 4 * C,
         *sh = buf + 5 * C;
  int rc = kconv_param(c, op, "weight", kconv_arg(in, nin, 1), C, 1.0, w) ||
           kconv_param(c, op, "bias", kconv_arg(in, nin, 2), C, 0.0, b) ||
           kconv_param(c, op, "running_mean", kconv_arg(in, nin, 3), C, 0.0, rm) ||
           kconv_param(c, op, "running_var", kconv_arg(in, nin, 4), C, 1.0, rv);
  if (!rc && !batch_stats && (kconv_arg(in, nin, 3)->kind == MCK_NONE ||
                              kconv_arg(in, nin, 4)->kind == MCK_NONE)) {
    rc = mck_fail(c, "%s: running_mean and running_var must be defined in evaluation mode", op);
  }
  if (!rc && !c->meta && mck_numel(x) > 0) {
    if (batch_stats) kconv_chan_stats(x, rm, rv);
    for (int64_t ch = 0; ch < C; ch++) {
      a[ch] = w[ch] / sqrt(rv[ch] + eps);
      sh[ch] = b[ch] - rm[ch] * a[ch];
    }
    kconv_chan_affine(x, out[0].u.t, a, sh);
  }
  free(buf);
  return rc ? -1 : 0;
}

/* aten::batch_norm(input, weight?, bias?, running_mean?, running_var?, training, momentum, eps,
 * cudnn_enabled). training=true normalises with the batch statistics; the running statistics
 * are not updated (mc has no side effect for it). */
static inline int mckc_batch_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  int training = 0;
  if (kconv_bool(c, kconv_arg(in, nin, 5), 1, 0, &training, "aten::batch_norm", "training")) return -1;
  return kconv_bn(c, "aten::batch_norm", out, nout, in, nin, training);
}

/* Row-wise normalisation: R rows of L contiguous-in-logical-order elements of x; each row
 * normalised with its own mean / biased variance, then scaled by w[ch] + b[ch], where
 * ch = (r % G) * cg + j / S (group/instance norm) or ch = j (G == 0: layer norm). */
typedef struct kconv_rows {
  int64_t R, L, G, cg, S;
} kconv_rows;

static inline int kconv_rownorm(mck_ctx *c, const char *op, const mck_tensor *x, mck_tensor *y,
                                const kconv_rows *rw, const double *w, const double *b,
                                double eps) {
  float *xo = NULL;
  double *xd = NULL, *yd = NULL;
  const float *xf = NULL;
  const double *xdd = NULL;
  int64_t total = rw->R * rw->L;
  if (x->dtype == MCK_F32) {
    xf = kconv_as_f32(x, &xo);
  } else {
    xdd = kconv_as_f64(x, &xd);
  }
  float *yf = y->dtype == MCK_F32 ? (float *)y->data + y->offset : NULL;
  if (!yf) yd = (double *)kconv_alloc(total, sizeof(double));
  if ((!xf && !xdd) || (!yf && !yd)) {
    free(xo); free(xd); free(yd);
    return mck_fail(c, "%s: out of memory", op);
  }
  for (int64_t r = 0; r < rw->R; r++) {
    int64_t o = r * rw->L;
    double s = 0.0, v = 0.0;
    for (int64_t j = 0; j < rw->L; j++) s += xf ? (double)xf[o + j] : xdd[o + j];
    double mean = rw->L ? s / (double)rw->L : 0.0;
    for (int64_t j = 0; j < rw->L; j++) {
      double d = (xf ? (double)xf[o + j] : xdd[o + j]) - mean;
      v += d * d;
    }
    double rstd = 1.0 / sqrt((rw->L ? v / (double)rw->L : 0.0) + eps);
    for (int64_t j = 0; j < rw->L; j++) {
      int64_t ch = rw->G ? (r % rw->G) * rw->cg + j / rw->S : j;
      double val = ((xf ? (double)xf[o + j] : xdd[o + j]) - mean) * rstd * w[ch] + b[ch];
      if (yf) yf[o + j] = (float)val;
      else yd[o + j] = val;
    }
  }
  if (yd) kconv_store(y, yd, total);
  free(xo); free(xd); free(yd);
  return 0;
}

/* aten::instance_norm(input, weight?, bias?, running_mean?, running_var?, use_input_stats,
 * momentum, eps, cudnn_enabled) */
static inline int mckc_instance_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                     int nin) {
  const char *op = "aten::instance_norm";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  int use_stats = 1;
  double eps = 1e-5;
  if (kconv_bool(c, kconv_arg(in, nin, 5), 1, 0, &use_stats, op, "use_input_stats")) return -1;
  if (!use_stats) return kconv_bn(c, op, out, nout, in, nin, 0);
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || x->ndim < 2) return mck_fail(c, "%s: expected a tensor of at least 2 dims", op);
  if (!mck_is_float(x->dtype)) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (kconv_float(c, kconv_arg(in, nin, 7), 1e-5, &eps, op, "eps")) return -1;
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  int64_t C = x->shape[1], n = mck_numel(x);
  double *wb = (double *)kconv_alloc(mck_mul_sat(2, C), sizeof(double));
  if (!wb) return mck_fail(c, "%s: out of memory", op);
  int rc = kconv_param(c, op, "weight", kconv_arg(in, nin, 1), C, 1.0, wb) ||
           kconv_param(c, op, "bias", kconv_arg(in, nin, 2), C, 0.0, wb + C);
  if (!rc && !c->meta && n > 0) {
    kconv_rows rw;
    rw.R = x->shape[0] * C;
    rw.L = n / rw.R;
    rw.G = C;
    rw.cg = 1;
    rw.S = rw.L ? rw.L : 1;
    rc = kconv_rownorm(c, op, x, out[0].u.t, &rw, wb, wb + C, eps);
  }
  free(wb);
  return rc ? -1 : 0;
}

/* float32 layer_norm over contiguous rows of L: mean and biased variance per row in float
 * vector lanes (two passes: the variance sums squared deviations, no cancellation), combined in
 * double; y = (x - mean) * rstd * w + b in float, as PyTorch's CPU kernel does (within 1e-6
 * of the double-precision path). w, b: L floats or NULL. */
static inline void kconv_ln_f32(const float *x, float *y, int64_t R, int64_t L, const float *w,
                                const float *b, double eps) {
  for (int64_t r = 0; r < R; r++, x += L, y += L) {
    int64_t j = 0;
    double s = 0, v = 0;
#ifdef KCONV_VW
    kconv_vf vs = {0}, vv = {0};
    for (; j + KCONV_VW <= L; j += KCONV_VW) vs += *(const kconv_vfu *)(x + j);
    for (int l = 0; l < KCONV_VW; l++) s += vs[l];
#endif
    for (; j < L; j++) s += x[j];
    float mean = (float)(s / (double)L);
    j = 0;
#ifdef KCONV_VW
    for (; j + KCONV_VW <= L; j += KCONV_VW) {
      kconv_vf d = *(const kconv_vfu *)(x + j) - mean;
      vv = KCONV_FMA(d, d, vv);
    }
    for (int l = 0; l < KCONV_VW; l++) v += vv[l];
#endif
    for (; j < L; j++) {
      float d = x[j] - mean;
      v += d * d;
    }
    float rstd = (float)(1.0 / sqrt(v / (double)L + eps));
    j = 0;
#ifdef KCONV_VW
    for (; j + KCONV_VW <= L; j += KCONV_VW) {
      kconv_vf t = (*(const kconv_vfu *)(x + j) - mean) * rstd;
      if (w) t = t * *(const kconv_vfu *)(w + j);
      if (b) t = t + *(const kconv_vfu *)(b + j);
      *(kconv_vfu *)(y + j) = t;
    }
#endif
    for (; j < L; j++) {
      float t = (x[j] - mean) * rstd;
      if (w) t = t * w[j];
      if (b) t = t + b[j];
      y[j] = t;
    }
  }
}

/* The affine parameter a of layer_norm as L contiguous floats: 1 when it is not one (the
 * general path then reads it, or reports it), else 0 with *p set (NULL for None). */
static inline int kconv_ln_param(const mck_arg *a, int64_t L, const float **p) {
  *p = NULL;
  if (a->kind == MCK_NONE) return 0;
  if (a->kind != MCK_TENSOR || a->u.t->dtype != MCK_F32 || mck_numel(a->u.t) != L ||
      !mck_is_contiguous(a->u.t))
    return 1;
  *p = (const float *)a->u.t->data + a->u.t->offset;
  return 0;
}

/* aten::layer_norm(input, normalized_shape, weight?, bias?, eps, cudnn_enable) */
static inline int mckc_layer_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::layer_norm";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  const mck_arg *ns = kconv_arg(in, nin, 1);
  double eps = 1e-5;
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (!mck_is_float(x->dtype)) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (ns->kind == MCK_UNKNOWN) return mck_fail(c, "%s: normalized_shape must be a compile-time constant", op);
  int k = ns->kind == MCK_INTS ? ns->n : ns->kind == MCK_INT ? 1 : -1;
  if (k < 1 || k > x->ndim) return mck_fail(c, "%s: bad normalized_shape for a %dD input", op, x->ndim);
  int64_t L = 1;
  for (int i = 0; i < k; i++) {
    int64_t v = ns->kind == MCK_INT ? ns->u.i : ns->u.ints[i];
    if (x->shape[x->ndim - k + i] != v) {
      return mck_fail(c, "%s: normalized_shape[%d]=%lld does not match input dim %d of size %lld",
                      op, i, (long long)v, x->ndim - k + i, (long long)x->shape[x->ndim - k + i]);
    }
    L *= v;
  }
  if (kconv_float(c, kconv_arg(in, nin, 4), 1e-5, &eps, op, "eps")) return -1;
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  const float *wf, *bf;
  mck_tensor *y = out[0].u.t;
  if (!c->meta && x->dtype == MCK_F32 && L > 0 && mck_numel(x) > 0 && mck_is_contiguous(x) &&
      !kconv_ln_param(kconv_arg(in, nin, 2), L, &wf) &&
      !kconv_ln_param(kconv_arg(in, nin, 3), L, &bf)) {
    kconv_ln_f32((const float *)x->data + x->offset, (float *)y->data + y->offset,
                 mck_numel(x) / L, L, wf, bf, eps);
    return 0;
  }
  double *wb = (double *)kconv_alloc(mck_mul_sat(2, L), sizeof(double));
  if (!wb) return mck_fail(c, "%s: out of memory", op);
  int rc = kconv_param(c, op, "weight", kconv_arg(in, nin, 2), L, 1.0, wb) ||
           kconv_param(c, op, "bias", kconv_arg(in, nin, 3), L, 0.0, wb + L);
  if (!rc && !c->meta && mck_numel(x) > 0) {
    kconv_rows rw;
    rw.L = L;
    rw.R = mck_numel(x) / L;
    rw.G = 0;
    rw.cg = rw.S = 1;
    rc = kconv_rownorm(c, op, x, out[0].u.t, &rw, wb, wb + L, eps);
  }
  free(wb);
  return rc ? -1 : 0;
}

/* aten::group_norm(input, num_groups, weight?, bias?, eps, cudnn_enabled) */
static inline int mckc_group_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::group_norm";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  int64_t G = 1;
  double eps = 1e-5;
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || x->ndim < 2) return mck_fail(c, "%s: expected a tensor of at least 2 dims", op);
  if (!mck_is_float(x->dtype)) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (kconv_int(c, kconv_arg(in, nin, 1), 1, &G, op, "num_groups")) return -1;
  int64_t C = x->shape[1];
  if (G < 1 || C % G) {
    return mck_fail(c, "%s: %lld channels are not divisible into %lld groups", op, (long long)C,
                    (long long)G);
  }
  if (kconv_float(c, kconv_arg(in, nin, 4), 1e-5, &eps, op, "eps")) return -1;
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  double *wb = (double *)kconv_alloc(mck_mul_sat(2, C), sizeof(double));
  if (!wb) return mck_fail(c, "%s: out of memory", op);
  int rc = kconv_param(c, op, "weight", kconv_arg(in, nin, 2), C, 1.0, wb) ||
           kconv_param(c, op, "bias", kconv_arg(in, nin, 3), C, 0.0, wb + C);
  int64_t n = mck_numel(x);
  if (!rc && !c->meta && n > 0) {
    kconv_rows rw;
    rw.R = x->shape[0] * G;
    rw.L = n / rw.R;
    rw.G = G;
    rw.cg = C / G;
    rw.S = rw.L / rw.cg ? rw.L / rw.cg : 1;
    rc = kconv_rownorm(c, op, x, out[0].u.t, &rw, wb, wb + C, eps);
  }
  free(wb);
  return rc ? -1 : 0;
}

#endif
