/* k_sample.h — kernels of the sample family (spatial resampling): 3-D pools and upsampling in
 * 1-3 dims (nearest, nearest-exact, linear, bicubic, antialiased bilinear/bicubic); grid
 * sampling, affine grids, im2col / col2im, Tensor.unfold and torchvision's ops are in
 * k_sample_grid.h. Pasted into generated C after k_pool.h (uses its argument, window and index
 * helpers).
 *
 * Numerics follow PyTorch 1.13's CPU kernels (torchvision 0.14's for the torchvision ops):
 * float32 inputs compute in float, each operation rounded as ATen's scalar or vector code
 * rounds it (ksm_r rounds a double to float where the kernel works in float32), float64 in
 * double, in the same order of operations. Sums that ATen hands to a GEMM (deform_conv2d)
 * are accumulated in double and rounded once.
 *
 * Prefix: ksm_ for helpers, mcks_ for the kernels named in ops_sample.c.
 */
#ifndef MC_K_SAMPLE_H
#define MC_K_SAMPLE_H

#include "mck.h"
#include "k_pool.h"

/* Rounds v to float where the kernel computes in float32. */
static inline double ksm_r(double v, int f32) { return f32 ? (double)(float)v : v; }

static inline int ksm_f32_f64(mck_ctx *c, const char *op, int dt) {
  if (dt == MCK_F32 || dt == MCK_F64) return 0;
  return mck_fail(c, "%s: not implemented for %s (float32 and float64 are supported)", op,
                  mck_dtype_name(dt));
}

static inline int ksm_one_out(mck_ctx *c, const char *op, mck_arg *out, int nout, int n) {
  for (int k = 0; k < n; k++)
    if (nout <= k || out[k].kind != MCK_TENSOR) return mck_fail(c, "%s: expects %d tensor outputs", op, n);
  return 0;
}

/* ---- volumes: an input seen as (n0, n1) planes of D x H x W -------------------------------- */
/* nsp spatial dims (1..3) are the last ones; fewer than 3 leave D (and H) at extent 1. Leading
 * dims: 2 (N, C) or, where unbatched input is allowed, 1 (C). */
typedef struct ksm_vol {
  int nsp, lead;
  int64_t n0, n1, s0, s1;
  int64_t sz[3], st[3]; /* D, H, W extents and strides */
  int64_t osz[3];       /* output extents */
} ksm_vol;

static inline int ksm_vol_init(mck_ctx *c, const char *op, const mck_tensor *x, int nsp,
                               int unbatched, ksm_vol *v) {
  memset(v, 0, sizeof *v);
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (x->ndim != nsp + 2 && !(unbatched && x->ndim == nsp + 1)) {
    if (unbatched)
      return mck_fail(c, "%s: expected a %dD or %dD input, got %dD", op, nsp + 1, nsp + 2, x->ndim);
    return mck_fail(c, "%s: expected a %dD input, got %dD", op, nsp + 2, x->ndim);
  }
  v->nsp = nsp;
  v->lead = x->ndim - nsp;
  v->n0 = v->lead == 2 ? x->shape[0] : 1;
  v->s0 = v->lead == 2 ? x->stride[0] : 0;
  v->n1 = x->shape[v->lead - 1];
  v->s1 = x->stride[v->lead - 1];
  for (int i = 0; i < 3; i++) {
    int d = i - (3 - nsp);
    v->sz[i] = d >= 0 ? x->shape[v->lead + d] : 1;
    v->st[i] = d >= 0 ? x->stride[v->lead + d] : 0;
    v->osz[i] = v->sz[i];
    if (v->sz[i] >= MCK_MAX_GEOM)
      return mck_fail(c, "%s: spatial extents must be below 2^31", op);
  }
  return 0;
}

static inline int ksm_vol_out(mck_ctx *c, const ksm_vol *v, mck_tensor *y, int dtype) {
  int64_t shape[5];
  int r = 0;
  if (v->lead == 2) shape[r++] = v->n0;
  shape[r++] = v->n1;
  for (int i = 3 - v->nsp; i < 3; i++) shape[r++] = v->osz[i];
  return mck_out(c, y, dtype, r, shape);
}

static inline int64_t ksm_vol_base(const mck_tensor *x, const ksm_vol *v, int64_t a, int64_t b) {
  return x->offset + a * v->s0 + b * v->s1;
}

/* ---- 3-D pools ------------------------------------------------------------------------------ */
typedef struct ksm_win {
  int64_t k[3], s[3], p[3], d[3];
  int ceil_mode;
} ksm_win;

static inline int ksm_win_init(mck_ctx *c, const char *op, const mck_arg *ka, const mck_arg *sa,
                               const mck_arg *pa, const mck_arg *da, const mck_arg *ca, ksm_vol *v,
                               ksm_win *w) {
  static const int64_t zeros[3] = {0, 0, 0}, ones[3] = {1, 1, 1};
  memset(w, 0, sizeof *w);
  w->d[0] = w->d[1] = w->d[2] = 1;
  if (kconv_ints(c, ka, 3, NULL, w->k, op, "kernel_size")) return -1;
  if (kconv_ints(c, sa, 3, w->k, w->s, op, "stride")) return -1;
  if (kconv_ints(c, pa, 3, zeros, w->p, op, "padding")) return -1;
  if (da && kconv_ints(c, da, 3, ones, w->d, op, "dilation")) return -1;
  if (kconv_bool(c, ca, 0, 1, &w->ceil_mode, op, "ceil_mode")) return -1;
  for (int i = 0; i < 3; i++) {
    if (w->k[i] < 1 || w->s[i] < 1 || w->d[i] < 1)
      return mck_fail(c, "%s: kernel_size, stride and dilation must be positive", op);
    if (w->k[i] >= MCK_MAX_GEOM || w->s[i] >= MCK_MAX_GEOM || w->d[i] >= MCK_MAX_GEOM)
      return mck_fail(c, "%s: kernel_size, stride and dilation must be below 2^31", op);
    if (w->p[i] < 0 || w->p[i] > w->k[i] / 2)
      return mck_fail(c, "%s: pad should be at most half of kernel size, got kernel %lld pad %lld", op,
                      (long long)w->k[i], (long long)w->p[i]);
    v->osz[i] = kconv_pool_out(v->sz[i], w->k[i], w->p[i], w->s[i], w->d[i], w->ceil_mode);
    if (v->osz[i] < 1)
      return mck_fail(c, "%s: input %lldx%lldx%lld is too small for kernel %lldx%lldx%lld", op,
                      (long long)v->sz[0], (long long)v->sz[1], (long long)v->sz[2],
                      (long long)w->k[0], (long long)w->k[1], (long long)w->k[2]);
  }
  return 0;
}

/* First index >= 0 of the window starting at s0 with dilation d (s0 < 0: skip whole steps). */
static inline int64_t ksm_first(int64_t s0, int64_t d) {
  return s0 < 0 ? s0 + (-s0 + d - 1) / d * d : s0;
}

/* aten::max_pool3d / max_pool3d_with_indices(self, kernel, stride=[], padding, dilation,
 * ceil_mode): ATen's loop; NaN wins; the index is d*H*W + h*W + w within the plane. */
static inline int ksm_maxpool3d(mck_ctx *c, const char *op, int want_ind, mck_arg *out, int nout,
                                const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  ksm_vol v;
  ksm_win w;
  if (ksm_one_out(c, op, out, nout, 1 + want_ind)) return -1;
  if (ksm_vol_init(c, op, x, 3, 1, &v)) return -1;
  if (ksm_f32_f64(c, op, x->dtype)) return -1;
  if (ksm_win_init(c, op, kconv_arg(in, nin, 1), kconv_arg(in, nin, 2), kconv_arg(in, nin, 3),
                   kconv_arg(in, nin, 4), kconv_arg(in, nin, 5), &v, &w))
    return -1;
  if (ksm_vol_out(c, &v, out[0].u.t, x->dtype)) return -1;
  if (want_ind && ksm_vol_out(c, &v, out[1].u.t, MCK_I64)) return -1;
  if (c->meta || mck_numel(out[0].u.t) == 0) return 0;
  mck_tensor *y = out[0].u.t;
  int64_t *ip = want_ind ? (int64_t *)out[1].u.t->data + out[1].u.t->offset : NULL, q = 0;
  const int64_t D = v.sz[0], H = v.sz[1], W = v.sz[2];
  for (int64_t a = 0; a < v.n0; a++)
    for (int64_t b = 0; b < v.n1; b++) {
      int64_t base = ksm_vol_base(x, &v, a, b);
      for (int64_t od = 0; od < v.osz[0]; od++) {
        int64_t t0 = od * w.s[0] - w.p[0], t1 = kconv_min(t0 + (w.k[0] - 1) * w.d[0] + 1, D);
        t0 = ksm_first(t0, w.d[0]);
        for (int64_t oh = 0; oh < v.osz[1]; oh++) {
          int64_t h0 = oh * w.s[1] - w.p[1], h1 = kconv_min(h0 + (w.k[1] - 1) * w.d[1] + 1, H);
          h0 = ksm_first(h0, w.d[1]);
          for (int64_t ow = 0; ow < v.osz[2]; ow++, q++) {
            int64_t w0 = ow * w.s[2] - w.p[2], w1 = kconv_min(w0 + (w.k[2] - 1) * w.d[2] + 1, W);
            w0 = ksm_first(w0, w.d[2]);
            int64_t mi = (t0 * H + h0) * W + w0;
            double mv = -INFINITY;
            for (int64_t it = t0; it < t1; it += w.d[0])
              for (int64_t ih = h0; ih < h1; ih += w.d[1])
                for (int64_t iw = w0; iw < w1; iw += w.d[2]) {
                  double val = mck_getf(x, base + it * v.st[0] + ih * v.st[1] + iw * v.st[2]);
                  if (val > mv || val != val) {
                    mv = val;
                    mi = (it * H + ih) * W + iw;
                  }
                }
            mck_setf(y, y->offset + q, mv);
            if (ip) ip[q] = mi;
          }
        }
      }
    }
  return 0;
}

static inline int mcks_max_pool3d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_maxpool3d(c, "aten::max_pool3d", 0, out, nout, in, nin);
}
static inline int mcks_max_pool3d_with_indices(mck_ctx *c, mck_arg *out, int nout,
                                               const mck_arg *in, int nin) {
  return ksm_maxpool3d(c, "aten::max_pool3d_with_indices", 1, out, nout, in, nin);
}

/* aten::avg_pool3d(self, kernel, stride=[], padding, ceil_mode, count_include_pad,
 * divisor_override?): ATen's avg_pool3d_out_frame (sum in the input's type, then one
 * division; a window with no input element gives 0). int64 inputs divide as integers. */
static inline int mcks_avg_pool3d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::avg_pool3d";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  ksm_vol v;
  ksm_win w;
  int cip = 1;
  int64_t divisor = 0;
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (ksm_vol_init(c, op, x, 3, 1, &v)) return -1;
  if (x->dtype != MCK_I64 && ksm_f32_f64(c, op, x->dtype)) return -1;
  if (ksm_win_init(c, op, kconv_arg(in, nin, 1), kconv_arg(in, nin, 2), kconv_arg(in, nin, 3), NULL,
                   kconv_arg(in, nin, 4), &v, &w))
    return -1;
  if (kconv_bool(c, kconv_arg(in, nin, 5), 1, 1, &cip, op, "count_include_pad")) return -1;
  if (kconv_int(c, kconv_arg(in, nin, 6), 0, &divisor, op, "divisor_override")) return -1;
  if (kconv_arg(in, nin, 6)->kind != MCK_NONE && divisor == 0)
    return mck_fail(c, "%s: divisor must be not zero", op);
  if (ksm_vol_out(c, &v, out[0].u.t, x->dtype)) return -1;
  if (c->meta || mck_numel(out[0].u.t) == 0) return 0;
  mck_tensor *y = out[0].u.t;
  int f32 = x->dtype == MCK_F32, isint = x->dtype == MCK_I64;
  int64_t q = 0;
  for (int64_t a = 0; a < v.n0; a++)
    for (int64_t b = 0; b < v.n1; b++) {
      int64_t base = ksm_vol_base(x, &v, a, b);
      for (int64_t od = 0; od < v.osz[0]; od++)
        for (int64_t oh = 0; oh < v.osz[1]; oh++)
          for (int64_t ow = 0; ow < v.osz[2]; ow++, q++) {
            int64_t lo[3], hi[3], o[3] = {od, oh, ow}, pool = 1, cnt = 1;
            for (int i = 0; i < 3; i++) {
              lo[i] = o[i] * w.s[i] - w.p[i];
              hi[i] = kconv_min(lo[i] + w.k[i], v.sz[i] + w.p[i]);
              pool = mck_mul_sat(pool, hi[i] - lo[i]);
              lo[i] = kconv_max(lo[i], 0);
              hi[i] = kconv_min(hi[i], v.sz[i]);
              cnt = mck_mul_sat(cnt, kconv_max(hi[i] - lo[i], 0));
            }
            if (cnt == 0) {
              mck_setf(y, y->offset + q, 0.0);
              continue;
            }
            int64_t div = divisor ? divisor : cip ? pool : cnt;
            if (isint) {
              uint64_t s = 0;
              for (int64_t it = lo[0]; it < hi[0]; it++)
                for (int64_t ih = lo[1]; ih < hi[1]; ih++)
                  for (int64_t iw = lo[2]; iw < hi[2]; iw++)
                    s += (uint64_t)mck_geti(x, base + it * v.st[0] + ih * v.st[1] + iw * v.st[2]);
              int64_t si = s > (uint64_t)INT64_MAX ? -(int64_t)(~s) - 1 : (int64_t)s;
              mck_seti(y, y->offset + q, div == -1 ? (int64_t)(0 - (uint64_t)si) : si / div);
              continue;
            }
            double s = 0.0;
            for (int64_t it = lo[0]; it < hi[0]; it++)
              for (int64_t ih = lo[1]; ih < hi[1]; ih++)
                for (int64_t iw = lo[2]; iw < hi[2]; iw++)
                  s = ksm_r(s + mck_getf(x, base + it * v.st[0] + ih * v.st[1] + iw * v.st[2]), f32);
            mck_setf(y, y->offset + q, ksm_r(s / ksm_r((double)div, f32), f32));
          }
    }
  return 0;
}

/* ATen's adaptive window [start_index, end_index) of output i (in -> out). */
static inline int64_t ksm_ad_lo(int64_t i, int64_t out, int64_t in) {
  return (i / out) * in + ((i % out) * in) / out;
}
static inline int64_t ksm_ad_hi(int64_t i, int64_t out, int64_t in) {
  return 1 + ((i + 1) * in - 1) / out;
}

/* aten::adaptive_avg_pool3d(self, output_size) / adaptive_max_pool3d (values, indices). The
 * mean sums in the input's type and divides by the window's extents one at a time. */
static inline int ksm_adaptive3d(mck_ctx *c, const char *op, int is_max, mck_arg *out, int nout,
                                 const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  ksm_vol v;
  if (ksm_one_out(c, op, out, nout, 1 + is_max)) return -1;
  if (ksm_vol_init(c, op, x, 3, 1, &v)) return -1;
  if (ksm_f32_f64(c, op, x->dtype)) return -1;
  if (kconv_ints(c, kconv_arg(in, nin, 1), 3, NULL, v.osz, op, "output_size")) return -1;
  for (int i = 0; i < 3; i++) {
    if (v.osz[i] < 0 || v.osz[i] >= MCK_MAX_GEOM)
      return mck_fail(c, "%s: output_size must be non-negative and below 2^31", op);
    if (v.sz[i] == 0 && v.osz[i] > 0) return mck_fail(c, "%s: empty spatial input", op);
  }
  if (ksm_vol_out(c, &v, out[0].u.t, x->dtype)) return -1;
  if (is_max && ksm_vol_out(c, &v, out[1].u.t, MCK_I64)) return -1;
  if (c->meta || mck_numel(out[0].u.t) == 0) return 0;
  mck_tensor *y = out[0].u.t;
  int64_t *ip = is_max ? (int64_t *)out[1].u.t->data + out[1].u.t->offset : NULL, q = 0;
  int f32 = x->dtype == MCK_F32;
  const int64_t H = v.sz[1], W = v.sz[2];
  for (int64_t a = 0; a < v.n0; a++)
    for (int64_t b = 0; b < v.n1; b++) {
      int64_t base = ksm_vol_base(x, &v, a, b);
      for (int64_t od = 0; od < v.osz[0]; od++) {
        int64_t t0 = ksm_ad_lo(od, v.osz[0], v.sz[0]), t1 = ksm_ad_hi(od, v.osz[0], v.sz[0]);
        for (int64_t oh = 0; oh < v.osz[1]; oh++) {
          int64_t h0 = ksm_ad_lo(oh, v.osz[1], H), h1 = ksm_ad_hi(oh, v.osz[1], H);
          for (int64_t ow = 0; ow < v.osz[2]; ow++, q++) {
            int64_t w0 = ksm_ad_lo(ow, v.osz[2], W), w1 = ksm_ad_hi(ow, v.osz[2], W);
            double acc = is_max ? -INFINITY : 0.0;
            int64_t mi = (t0 * H + h0) * W + w0;
            for (int64_t it = t0; it < t1; it++)
              for (int64_t ih = h0; ih < h1; ih++)
                for (int64_t iw = w0; iw < w1; iw++) {
                  double val = mck_getf(x, base + it * v.st[0] + ih * v.st[1] + iw * v.st[2]);
                  if (!is_max) {
                    acc = ksm_r(acc + val, f32);
                  } else if (val > acc || val != val) {
                    acc = val;
                    mi = (it * H + ih) * W + iw;
                  }
                }
            if (!is_max) {
              acc = ksm_r(acc / (double)(t1 - t0), f32);
              acc = ksm_r(acc / (double)(h1 - h0), f32);
              acc = ksm_r(acc / (double)(w1 - w0), f32);
            }
            mck_setf(y, y->offset + q, acc);
            if (ip) ip[q] = mi;
          }
        }
      }
    }
  return 0;
}

static inline int mcks_adaptive_avg_pool3d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                           int nin) {
  return ksm_adaptive3d(c, "aten::adaptive_avg_pool3d", 0, out, nout, in, nin);
}
static inline int mcks_adaptive_max_pool3d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                           int nin) {
  return ksm_adaptive3d(c, "aten::adaptive_max_pool3d", 1, out, nout, in, nin);
}

/* ---- upsampling ----------------------------------------------------------------------------- */
/* Output sizes and scales of an upsample op over nsp dims. Overloads: the .vec form
 * (input, output_size?, [align_corners,] scale_factors?) and the sized form (self,
 * output_size, [align_corners,] scales...?) with one float? per dim; `k` is the index of the
 * first scale argument. With scale_factors and no output_size, out = floor(in * scale) and the
 * kernel uses 1/scale as ATen does. */
typedef struct ksm_up {
  int has[3];
  double sc[3];
} ksm_up;

static inline int ksm_up_init(mck_ctx *c, const char *op, ksm_vol *v, const mck_arg *in, int nin,
                              int k, ksm_up *u) {
  int nsp = v->nsp, off = 3 - nsp;
  const mck_arg *sz = kconv_arg(in, nin, 1), *sc = kconv_arg(in, nin, k);
  memset(u, 0, sizeof *u);
  for (int i = 0; i < nsp; i++)
    if (kconv_arg(in, nin, k + i)->kind == MCK_UNKNOWN)
      return mck_fail(c, "%s: scale factors must be compile-time constants", op);
  if (sz->kind == MCK_UNKNOWN)
    return mck_fail(c, "%s: output_size must be a compile-time constant", op);
  if (sc->kind == MCK_FLOATS) {
    if (sc->n != nsp) return mck_fail(c, "%s: expected %d scale factors, got %d", op, nsp, sc->n);
    for (int i = 0; i < nsp; i++) {
      u->has[off + i] = 1;
      u->sc[off + i] = sc->u.floats[i];
    }
  } else {
    for (int i = 0; i < nsp; i++) {
      const mck_arg *a = kconv_arg(in, nin, k + i);
      if (mck_arg_is_scalar(a)) {
        u->has[off + i] = 1;
        u->sc[off + i] = mck_arg_f(a);
      } else if (a->kind != MCK_NONE) {
        return mck_fail(c, "%s: scales must be floats or None", op);
      }
    }
  }
  if (sz->kind == MCK_INTS) {
    if (sz->n != nsp) return mck_fail(c, "%s: output_size must have %d elements, got %d", op, nsp, sz->n);
    for (int i = 0; i < nsp; i++) v->osz[off + i] = sz->u.ints[i];
  } else if (sz->kind == MCK_NONE && sc->kind == MCK_FLOATS) {
    for (int i = 0; i < nsp; i++) {
      double o = floor((double)v->sz[off + i] * u->sc[off + i]);
      if (!(u->sc[off + i] > 0 && o < 4611686018427387904.0))
        return mck_fail(c, "%s: scale factor %g must be positive and give a size below 2^62", op,
                        u->sc[off + i]);
      v->osz[off + i] = (int64_t)o;
    }
  } else {
    return mck_fail(c, "%s: either output_size or scale_factors must be given", op);
  }
  for (int i = 0; i < 3; i++) {
    if (v->osz[i] < 1 || v->sz[i] < 1)
      return mck_fail(c, "%s: input and output sizes should be greater than 0", op);
    if (v->osz[i] >= MCK_MAX_GEOM) return mck_fail(c, "%s: output sizes must be below 2^31", op);
  }
  return 0;
}

/* ATen's nearest-exact source index (float scale; the product in double, floored as float). */
static inline int64_t ksm_nearest_exact(int64_t o, int64_t in, int64_t out, int has, double sc) {
  float scale = has && sc > 0.0 ? (float)(1.0 / sc) : (float)in / (float)out;
  float f = floorf((float)(((double)o + 0.5) * (double)scale));
  return f >= (float)(in - 1) ? in - 1 : f > 0.0f ? (int64_t)f : 0;
}

/* upsample_nearest{1,3}d and _upsample_nearest_exact{1,2,3}d: copies of source elements. */
static inline int ksm_nearest(mck_ctx *c, const char *op, int nsp, int exact, mck_arg *out,
                              int nout, const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  ksm_vol v;
  ksm_up u;
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (ksm_vol_init(c, op, x, nsp, 0, &v)) return -1;
  if (x->dtype != MCK_F32 && x->dtype != MCK_F64 && x->dtype != MCK_U8 &&
      !(x->dtype == MCK_BF16 && !exact))
    return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (ksm_up_init(c, op, &v, in, nin, 2, &u)) return -1;
  if (ksm_vol_out(c, &v, out[0].u.t, x->dtype)) return -1;
  if (c->meta || mck_numel(out[0].u.t) == 0) return 0;
  mck_tensor *y = out[0].u.t;
  int64_t *ix = (int64_t *)kconv_alloc(v.osz[2], sizeof(int64_t)), q = 0;
  if (!ix) return mck_fail(c, "%s: out of memory", op);
  for (int64_t o = 0; o < v.osz[2]; o++)
    ix[o] = exact ? ksm_nearest_exact(o, v.sz[2], v.osz[2], u.has[2], u.sc[2])
                  : kconv_nearest(o, v.sz[2], v.osz[2], u.has[2], u.sc[2]);
  size_t es = mck_dtype_size(x->dtype);
  for (int64_t a = 0; a < v.n0; a++)
    for (int64_t b = 0; b < v.n1; b++)
      for (int64_t od = 0; od < v.osz[0]; od++) {
        int64_t id = exact ? ksm_nearest_exact(od, v.sz[0], v.osz[0], u.has[0], u.sc[0])
                           : kconv_nearest(od, v.sz[0], v.osz[0], u.has[0], u.sc[0]);
        for (int64_t oh = 0; oh < v.osz[1]; oh++) {
          int64_t ih = exact ? ksm_nearest_exact(oh, v.sz[1], v.osz[1], u.has[1], u.sc[1])
                             : kconv_nearest(oh, v.sz[1], v.osz[1], u.has[1], u.sc[1]);
          int64_t base = ksm_vol_base(x, &v, a, b) + id * v.st[0] + ih * v.st[1];
          for (int64_t ow = 0; ow < v.osz[2]; ow++, q++)
            memcpy((char *)y->data + (size_t)(y->offset + q) * es,
                   (const char *)x->data + (size_t)(base + ix[ow] * v.st[2]) * es, es);
        }
      }
  free(ix);
  return 0;
}

static inline int mcks_upsample_nearest1d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_nearest(c, "aten::upsample_nearest1d", 1, 0, out, nout, in, nin);
}
static inline int mcks_upsample_nearest3d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_nearest(c, "aten::upsample_nearest3d", 3, 0, out, nout, in, nin);
}
static inline int mcks_upsample_nearest_exact1d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_nearest(c, "aten::_upsample_nearest_exact1d", 1, 1, out, nout, in, nin);
}
static inline int mcks_upsample_nearest_exact2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_nearest(c, "aten::_upsample_nearest_exact2d", 2, 1, out, nout, in, nin);
}
static inline int mcks_upsample_nearest_exact3d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_nearest(c, "aten::_upsample_nearest_exact3d", 3, 1, out, nout, in, nin);
}

/* ATen's cubic convolution coefficients of fraction t with parameter A, in float or double. */
static inline void ksm_cubic_coeffs(double t, double A, int f32, double *co) {
  double x1 = t, x2 = ksm_r(1.0 - t, f32), a2 = ksm_r(A + 2.0, f32), a3 = ksm_r(A + 3.0, f32);
  double y;
  y = ksm_r(x1 + 1.0, f32); /* cubic_convolution2 */
  co[0] = ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(A * y, f32) - ksm_r(5.0 * A, f32), f32) * y, f32) +
                            ksm_r(8.0 * A, f32), f32) * y, f32) - ksm_r(4.0 * A, f32), f32);
  co[1] = ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(a2 * x1, f32) - a3, f32) * x1, f32) * x1, f32) + 1.0, f32);
  co[2] = ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(a2 * x2, f32) - a3, f32) * x2, f32) * x2, f32) + 1.0, f32);
  y = ksm_r(x2 + 1.0, f32);
  co[3] = ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(A * y, f32) - ksm_r(5.0 * A, f32), f32) * y, f32) +
                            ksm_r(8.0 * A, f32), f32) * y, f32) - ksm_r(4.0 * A, f32), f32);
}

/* ATen's area_pixel_compute_scale. */
static inline double ksm_area_scale(int64_t in, int64_t out, int align, int has, double sc, int f32) {
  if (align) return out > 1 ? ksm_r((double)in - 1.0, f32) / (double)(out - 1) : 0.0;
  return has && sc > 0.0 ? ksm_r(1.0 / sc, f32) : ksm_r((double)in, f32) / (double)out;
}

/* The taps of one dim of a separable interpolation, computed per output index (nothing is
 * allocated: a build without malloc has no room for tables): identity (dims the op does not
 * have), ATen's linear taps (k_pool.h's kconv_linear_idx) or its cubic taps (4 indices around
 * floor(src), clamped to the border, A = -0.75). */
typedef struct ksm_dim {
  int mode, align, has, f32; /* mode: -1 identity, KSM_LINEAR, KSM_CUBIC */
  int64_t in, out;
  double sc, scale;
} ksm_dim;

enum { KSM_LINEAR, KSM_CUBIC };

static inline void ksm_dim_init(ksm_dim *d, int mode, int64_t in, int64_t out, int align, int has, double sc,
                                int f32) {
  d->mode = mode;
  d->in = in;
  d->out = out;
  d->align = align;
  d->has = has;
  d->sc = sc;
  d->f32 = f32;
  d->scale = ksm_r(ksm_area_scale(in, out, align, has, sc, f32), f32);
}

static inline int ksm_dim_taps(const ksm_dim *d, int64_t o, int64_t *idx, double *w) {
  int f32 = d->f32;
  if (d->mode < 0) {
    idx[0] = o;
    w[0] = 1.0;
    return 1;
  }
  if (d->mode == KSM_LINEAR) {
    kconv_linear_idx(o, d->in, d->out, d->align, d->has, d->sc, f32, &idx[0], &idx[1], &w[0], &w[1]);
    return 2;
  }
  double r = d->align ? ksm_r(d->scale * (double)o, f32)
                      : ksm_r(ksm_r(d->scale * ksm_r((double)o + 0.5, f32), f32) - 0.5, f32);
  double fl = floor((double)(float)r); /* ATen floors with floorf */
  int64_t i0 = !(fl >= -4.0) ? -4 : fl > (double)d->in + 4.0 ? d->in + 4 : (int64_t)fl; /* NaN: any */
  ksm_cubic_coeffs(ksm_r(r - (double)i0, f32), -0.75, f32, w);
  for (int j = 0; j < 4; j++) {
    int64_t k = i0 - 1 + j;
    idx[j] = k < 0 ? 0 : k > d->in - 1 ? d->in - 1 : k;
  }
  return 4;
}

/* y = separable interpolation of x over D, H, W: ATen's Interpolate<n>: the outer dim's taps
 * weight the inner results, each sum formed left to right. */
static inline void ksm_sep_run(const mck_tensor *x, const ksm_vol *v, const ksm_dim *dm, mck_tensor *y) {
  int f32 = x->dtype == MCK_F32;
  int64_t q = 0;
  for (int64_t a = 0; a < v->n0; a++)
    for (int64_t b = 0; b < v->n1; b++) {
      int64_t base = ksm_vol_base(x, v, a, b);
      for (int64_t od = 0; od < v->osz[0]; od++) {
        int64_t id[4], ih[4], iw[4];
        double wd[4], wh[4], ww[4];
        int nd = ksm_dim_taps(&dm[0], od, id, wd);
        for (int64_t oh = 0; oh < v->osz[1]; oh++) {
          int nh = ksm_dim_taps(&dm[1], oh, ih, wh);
          for (int64_t ow = 0; ow < v->osz[2]; ow++, q++) {
            int nw = ksm_dim_taps(&dm[2], ow, iw, ww);
            double accd = 0.0;
            for (int i = 0; i < nd; i++) {
              double acch = 0.0;
              for (int j = 0; j < nh; j++) {
                int64_t rb = base + id[i] * v->st[0] + ih[j] * v->st[1];
                double accw = 0.0;
                for (int k = 0; k < nw; k++) {
                  double p = ksm_r(mck_getf(x, rb + iw[k] * v->st[2]) * ww[k], f32);
                  accw = k ? ksm_r(accw + p, f32) : p;
                }
                double p = ksm_r(accw * wh[j], f32);
                acch = j ? ksm_r(acch + p, f32) : p;
              }
              double p = ksm_r(acch * wd[i], f32);
              accd = i ? ksm_r(accd + p, f32) : p;
            }
            mck_setf(y, y->offset + q, accd);
          }
        }
      }
    }
}

/* upsample_linear1d, upsample_bicubic2d, upsample_trilinear3d (input, output_size,
 * align_corners, scales...). */
static inline int ksm_interp(mck_ctx *c, const char *op, int nsp, int mode, mck_arg *out, int nout,
                             const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  ksm_vol v;
  ksm_up u;
  int align = 0;
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (ksm_vol_init(c, op, x, nsp, 0, &v)) return -1;
  if (ksm_f32_f64(c, op, x->dtype)) return -1;
  if (kconv_bool(c, kconv_arg(in, nin, 2), 0, 1, &align, op, "align_corners")) return -1;
  if (ksm_up_init(c, op, &v, in, nin, 3, &u)) return -1;
  if (ksm_vol_out(c, &v, out[0].u.t, x->dtype)) return -1;
  if (c->meta || mck_numel(out[0].u.t) == 0) return 0;
  ksm_dim dm[3];
  for (int i = 0; i < 3; i++)
    ksm_dim_init(&dm[i], i < 3 - nsp ? -1 : mode, v.sz[i], v.osz[i], align, u.has[i], u.sc[i], x->dtype == MCK_F32);
  ksm_sep_run(x, &v, dm, out[0].u.t);
  return 0;
}

static inline int mcks_upsample_linear1d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_interp(c, "aten::upsample_linear1d", 1, KSM_LINEAR, out, nout, in, nin);
}
static inline int mcks_upsample_trilinear3d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_interp(c, "aten::upsample_trilinear3d", 3, KSM_LINEAR, out, nout, in, nin);
}
static inline int mcks_upsample_bicubic2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_interp(c, "aten::upsample_bicubic2d", 2, KSM_CUBIC, out, nout, in, nin);
}

/* The antialiasing filters of ATen's _upsample_*_aa: triangle and cubic (A = -0.5). */
static inline double ksm_aa_filter(double x, int mode, int f32) {
  if (x < 0.0) x = -x;
  if (mode == KSM_LINEAR) return x < 1.0 ? ksm_r(1.0 - x, f32) : 0.0;
  double A = -0.5;
  if (x < 1.0)
    return ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(A + 2.0, f32) * x, f32) - ksm_r(A + 3.0, f32), f32) * x, f32) * x,
                       f32) + 1.0, f32);
  if (x < 2.0)
    return ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(A * x, f32) - ksm_r(5.0 * A, f32), f32) * x, f32) +
                             ksm_r(8.0 * A, f32), f32) * x, f32) - ksm_r(4.0 * A, f32), f32);
  return 0.0;
}

/* Where an antialiased pass reads and writes: a tensor (the op's input or output, seen as
 * planes through the volume's strides) or a contiguous buffer of n planes of H x W. */
typedef struct ksm_aa_io {
  const mck_tensor *t; /* or NULL: buf */
  mck_tensor *tw;
  const ksm_vol *v;
  double *buf;
} ksm_aa_io;

static inline int64_t ksm_aa_off(const ksm_aa_io *io, int64_t p, int64_t h, int64_t w, int64_t H, int64_t W) {
  if (!io->t && !io->tw) return (p * H + h) * W + w;
  const mck_tensor *t = io->t ? io->t : io->tw;
  if (io->tw) return t->offset + (p * H + h) * W + w; /* the fresh output: contiguous */
  return ksm_vol_base(t, io->v, p / io->v->n1, p % io->v->n1) + h * io->v->st[1] + w * io->v->st[2];
}

/* One antialiased pass along spatial dim `dim` (1: H, 2: W) of n planes of H x W from src
 * into dst (dim resized to out): ATen's _compute_weights_aa and interpolate_aa_single_dim.
 * The taps of each output index are computed as they are used. */
static inline void ksm_aa_pass(const ksm_aa_io *src, const ksm_aa_io *dst, int64_t n, int64_t H, int64_t W,
                               int dim, int64_t out, int align, int has, double sc, int mode, int f32,
                               double *w) {
  int64_t in = dim == 1 ? H : W;
  double scale = ksm_r(ksm_area_scale(in, out, align, has, sc, f32), f32);
  double interp = mode == KSM_LINEAR ? 2.0 : 4.0;
  double support = ksm_r(scale >= 1.0 ? interp * 0.5 * scale : interp * 0.5, f32);
  double invscale = ksm_r(scale >= 1.0 ? 1.0 / scale : 1.0, f32);
  int64_t ws = 2.0 * support + 2.0 < (double)in ? (int64_t)(2.0 * support) + 2 : in;
  int64_t OH = dim == 1 ? out : H, OW = dim == 2 ? out : W;
  for (int64_t i = 0; i < out; i++) {
    double center = ksm_r(scale * ((double)i + 0.5), f32);
    double lo = ksm_r(center - support, f32) + 0.5, hi = ksm_r(center + support, f32) + 0.5;
    int64_t mn = lo > 0.0 ? (lo < (double)in ? (int64_t)lo : in) : 0;
    int64_t mx = hi > 0.0 ? (hi < (double)in ? (int64_t)hi : in) : 0;
    if (mx < mn) mx = mn;
    if (mx - mn > ws) mx = mn + ws; /* a window spans at most 2 * support + 2 taps */
    int64_t xs = mx - mn;
    double total = 0.0;
    for (int64_t j = 0; j < xs; j++) {
      double arg = ksm_r(ksm_r((double)(j + mn), f32) - center, f32) + 0.5;
      w[j] = ksm_aa_filter(ksm_r(arg * invscale, f32), mode, f32);
      total = ksm_r(total + w[j], f32);
    }
    for (int64_t j = 0; j < xs; j++)
      if (total != 0.0) w[j] = ksm_r(w[j] / total, f32);
    for (int64_t p = 0; p < n; p++)
      for (int64_t o2 = 0; o2 < (dim == 1 ? OW : OH); o2++) {
        int64_t h = dim == 1 ? i : o2, x = dim == 1 ? o2 : i;
        double acc = 0.0;
        for (int64_t j = 0; j < xs; j++) {
          int64_t s0 = mn + j;
          int64_t so = dim == 1 ? ksm_aa_off(src, p, s0, x, H, W) : ksm_aa_off(src, p, h, s0, H, W);
          double val = src->buf ? src->buf[so] : mck_getf(src->t, so);
          double pr = ksm_r(val * w[j], f32);
          acc = j ? ksm_r(acc + pr, f32) : pr;
        }
        int64_t d = ksm_aa_off(dst, p, h, x, OH, OW);
        if (dst->buf) dst->buf[d] = acc;
        else mck_setf(dst->tw, d, acc);
      }
  }
}

/* _upsample_bilinear2d_aa / _upsample_bicubic2d_aa (F.interpolate antialias=True): separable
 * passes, W first, then H; a dim whose size does not change is not resampled (a buffer holds
 * the W pass's result only when both change). */
static inline int ksm_aa(mck_ctx *c, const char *op, int mode, mck_arg *out, int nout,
                         const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  ksm_vol v;
  ksm_up u;
  int align = 0;
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (ksm_vol_init(c, op, x, 2, 0, &v)) return -1;
  if (ksm_f32_f64(c, op, x->dtype)) return -1;
  if (kconv_bool(c, kconv_arg(in, nin, 2), 0, 1, &align, op, "align_corners")) return -1;
  if (ksm_up_init(c, op, &v, in, nin, 3, &u)) return -1;
  if (ksm_vol_out(c, &v, out[0].u.t, x->dtype)) return -1;
  mck_tensor *y = out[0].u.t;
  if (c->meta || mck_numel(y) == 0) return 0;
  int f32 = x->dtype == MCK_F32;
  int64_t n = v.n0 * v.n1, H = v.sz[1], W = v.sz[2], OH = v.osz[1], OW = v.osz[2];
  ksm_aa_io xin = {x, NULL, &v, NULL}, yout = {NULL, y, &v, NULL}, mid = {NULL, NULL, &v, NULL};
  double *w = (double *)kconv_alloc(H > W ? H : W, sizeof(double));
  if (!w) return mck_fail(c, "%s: out of memory", op);
  if (OW != W && OH != H) {
    mid.buf = (double *)kconv_alloc(mck_mul_sat(n, H * OW), sizeof(double));
    if (!mid.buf) {
      free(w);
      return mck_fail(c, "%s: out of memory", op);
    }
    ksm_aa_pass(&xin, &mid, n, H, W, 2, OW, align, u.has[2], u.sc[2], mode, f32, w);
    ksm_aa_pass(&mid, &yout, n, H, OW, 1, OH, align, u.has[1], u.sc[1], mode, f32, w);
    free(mid.buf);
  } else if (OW != W) {
    ksm_aa_pass(&xin, &yout, n, H, W, 2, OW, align, u.has[2], u.sc[2], mode, f32, w);
  } else if (OH != H) {
    ksm_aa_pass(&xin, &yout, n, H, W, 1, OH, align, u.has[1], u.sc[1], mode, f32, w);
  } else {
    for (int64_t p = 0, q = 0; p < n; p++)
      for (int64_t h = 0; h < H; h++)
        for (int64_t x2 = 0; x2 < W; x2++, q++) mck_setf(y, y->offset + q, mck_getf(x, ksm_aa_off(&xin, p, h, x2, H, W)));
  }
  free(w);
  return 0;
}

static inline int mcks_upsample_bilinear2d_aa(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_aa(c, "aten::_upsample_bilinear2d_aa", KSM_LINEAR, out, nout, in, nin);
}
static inline int mcks_upsample_bicubic2d_aa(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_aa(c, "aten::_upsample_bicubic2d_aa", KSM_CUBIC, out, nout, in, nin);
}

#endif
