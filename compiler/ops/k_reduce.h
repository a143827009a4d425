/* k_reduce.h — kernels of the reduction family: sum, mean, prod, amax/amin, max/min (full, per
 * dim with indices, and the elementwise max(Tensor, Tensor)), argmax/argmin, softmax and
 * log_softmax, var/std, norm, all/any, cumsum/cumprod, logsumexp.
 *
 * Invariants, as in PyTorch 1.13:
 *   - floating inputs accumulate in double and round once on store; integer sums and products
 *     accumulate in int64 with wrap-around; sum/prod/cumsum of integers and bools give int64;
 *     mean/var/std/norm/softmax refuse integer inputs (unless a dtype argument says otherwise:
 *     the input is then cast to it first);
 *   - a dim list that is None or empty reduces every dim; dims may be negative and must not
 *     repeat; keepdim keeps them with size 1;
 *   - max/min/amax/amin/argmax propagate NaN (the first NaN wins); ties give the first index;
 *     reducing an empty dim is an error for them and gives the identity for sum/prod;
 *   - every kernel honours its input's strides and offset.
 * Helpers: mck_red_*. Like every kernel header it includes nothing: mck.h comes first.
 */
#ifndef MCK_REDUCE_H
#define MCK_REDUCE_H

/* A reduction plan: the kept dims (outer) and the reduced dims (inner) of the input. */
typedef struct mck_red {
  int ndim;                 /* input rank */
  unsigned mask;            /* bit d: dim d is reduced */
  int ond;                  /* output rank */
  int64_t oshape[MCK_MAX_DIMS];
  int nk, nr;               /* kept / reduced dims */
  int64_t kshape[MCK_MAX_DIMS], kstride[MCK_MAX_DIMS];
  int64_t rshape[MCK_MAX_DIMS], rstride[MCK_MAX_DIMS];
  int64_t rcount;           /* elements per reduction */
} mck_red;

/* Parses a dim argument (None, int, or int[]; empty list = all) into a mask over x's dims. */
static inline int mck_red_mask(mck_ctx *c, const char *name, const mck_arg *a, int ndim,
                               unsigned *mask) {
  unsigned all = ndim ? (1u << ndim) - 1 : 0;
  if (!a || a->kind == MCK_NONE || (a->kind == MCK_INTS && a->n == 0)) {
    *mask = all;
    return 0;
  }
  if (a->kind == MCK_UNKNOWN) return mck_fail(c, "aten::%s: dim must be a compile-time constant", name);
  int n = a->kind == MCK_INT ? 1 : a->kind == MCK_INTS ? a->n : -1;
  if (n < 0) return mck_fail(c, "aten::%s: dim must be an int or a list of ints", name);
  *mask = 0;
  for (int k = 0; k < n; k++) {
    int64_t d = a->kind == MCK_INT ? a->u.i : a->u.ints[k];
    int w = mck_wrap_dim(d, ndim);
    if (w < 0)
      return mck_fail(c, "aten::%s: dimension out of range (expected to be in range of [%d, %d], "
                         "but got %lld)", name, ndim ? -ndim : -1, ndim ? ndim - 1 : 0, (long long)d);
    if (ndim == 0) continue;
    if (*mask & (1u << w)) return mck_fail(c, "aten::%s: dim %d appears multiple times in the list of dims", name, w);
    *mask |= 1u << w;
  }
  return 0;
}

static inline void mck_red_plan(mck_red *r, const mck_tensor *x, unsigned mask, int keepdim) {
  r->ndim = x->ndim;
  r->mask = mask;
  r->ond = r->nk = r->nr = 0;
  r->rcount = 1;
  for (int d = 0; d < x->ndim; d++) {
    if (mask & (1u << d)) {
      r->rshape[r->nr] = x->shape[d];
      r->rstride[r->nr++] = x->stride[d];
      r->rcount = mck_mul_sat(r->rcount, x->shape[d]);
      if (keepdim) r->oshape[r->ond++] = 1;
    } else {
      r->kshape[r->nk] = x->shape[d];
      r->kstride[r->nk++] = x->stride[d];
      r->oshape[r->ond++] = x->shape[d];
    }
  }
}

/* Iterates the output (contiguous, kept dims in order) and the input's kept dims together. */
static inline void mck_red_outer(mck_iter *it, const mck_red *r, const mck_tensor *x,
                                 const mck_tensor *o) {
  int64_t ost[MCK_MAX_DIMS];
  int k = 0;
  for (int d = 0; d < o->ndim && k < r->nk; d++) {
    if (r->ond != r->nk && (r->mask & (1u << d))) continue;
    ost[k++] = o->stride[d];
  }
  for (; k < r->nk; k++) ost[k] = 0;
  const int64_t *sts[2] = {r->kstride, ost};
  int64_t base[2] = {x->offset, o->offset};
  mck_iter_init(it, r->nk, r->kshape, 2, sts, base);
}
static inline void mck_red_inner(mck_iter *it, const mck_red *r, int64_t base) {
  const int64_t *sts[1] = {r->rstride};
  mck_iter_init(it, r->nr, r->rshape, 1, sts, &base);
}

/* The common front of dim reductions: x = in[0], dims, keepdim; fills the plan and the output. */
static inline int mck_red_setup(mck_ctx *c, const char *name, mck_arg *out, int nout,
                                const mck_tensor *x, const mck_arg *dim, const mck_arg *keep,
                                int odt, mck_red *r) {
  unsigned mask = 0;
  if (mck_red_mask(c, name, dim, x->ndim, &mask)) return -1;
  if (keep && keep->kind == MCK_UNKNOWN) return mck_fail(c, "aten::%s: keepdim must be a compile-time constant", name);
  int keepdim = keep && keep->kind == MCK_BOOL_ARG ? (int)keep->u.i : 0;
  mck_red_plan(r, x, mask, keepdim);
  if (nout < 1 || !out[0].u.t) return mck_fail(c, "aten::%s: expects a tensor output", name);
  return mck_out(c, out[0].u.t, odt, r->ond, r->oshape);
}

static inline int mck_red_dtype(mck_ctx *c, const char *name, const mck_arg *a, int dflt) {
  if (!a || a->kind == MCK_NONE) return dflt;
  if (a->kind != MCK_INT) return mck_fail(c, "aten::%s: dtype must be a compile-time constant ScalarType", name);
  int dt = mck_dtype_from_scalar_type(a->u.i);
  if (dt < 0) return mck_fail(c, "aten::%s: unsupported ScalarType code %lld", name, (long long)a->u.i);
  return dt;
}

/* Value of element off of x cast to dtype dt (the `dtype=` argument casts before reducing). */
static inline double mck_red_getf(const mck_tensor *x, int64_t off, int dt) {
  double v = mck_getf(x, off);
  if (mck_is_float(dt)) return v;
  return (double)mck_geti(x, off);
}

/* ---- sum / mean / prod ------------------------------------------------------------------- */
enum { MCK_RED_SUM, MCK_RED_MEAN, MCK_RED_PROD };

/* sum(self, int? dtype) | sum(self, int[]? dim, bool keepdim, int? dtype); mean likewise;
 * prod(self, int? dtype) | prod(self, int dim, bool keepdim, int? dtype). */
static inline int mck_red_accum(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                                int op) {
  const char *name = op == MCK_RED_SUM ? "sum" : op == MCK_RED_MEAN ? "mean" : "prod";
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  const mck_tensor *x = in[0].u.t;
  int full = nin <= 2;
  const mck_arg *dim = full ? NULL : &in[1], *keep = full ? NULL : &in[2];
  const mck_arg *dta = full ? (nin > 1 ? &in[1] : NULL) : (nin > 3 ? &in[3] : NULL);
  int dflt = op != MCK_RED_MEAN && !mck_is_float(x->dtype) ? MCK_I64 : x->dtype;
  int odt = mck_red_dtype(c, name, dta, dflt);
  if (odt < 0) return -1;
  if (op == MCK_RED_MEAN && !mck_is_float(odt))
    return mck_fail(c, "aten::mean: could not infer output dtype. Input dtype must be either a "
                       "floating point or complex dtype. Got: %s", mck_dtype_name(odt));
  if (op == MCK_RED_PROD && dim && dim->kind == MCK_INTS)
    return mck_fail(c, "aten::prod: dim must be a single int");
  mck_red r;
  if (mck_red_setup(c, name, out, nout, x, dim, keep, odt, &r)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_iter ot, it;
  mck_red_outer(&ot, &r, x, o);
  int fl = mck_is_float(odt);
  for (int64_t k = 0; k < ot.total; k++, mck_iter_next(&ot)) {
    mck_red_inner(&it, &r, ot.off[0]);
    double acc = op == MCK_RED_PROD ? 1 : 0;
    int64_t iacc = op == MCK_RED_PROD ? 1 : 0;
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) {
      if (fl) {
        double v = mck_red_getf(x, it.off[0], odt);
        acc = op == MCK_RED_PROD ? acc * v : acc + v;
      } else {
        int64_t v = mck_geti(x, it.off[0]);
        if (mck_is_float(x->dtype)) v = mck_f2i_sat(mck_getf(x, it.off[0]), INT64_MIN, INT64_MAX);
        iacc = op == MCK_RED_PROD ? (int64_t)((uint64_t)iacc * (uint64_t)v)
                                  : (int64_t)((uint64_t)iacc + (uint64_t)v);
      }
    }
    if (op == MCK_RED_MEAN) acc /= (double)r.rcount;
    if (fl) mck_setf(o, ot.off[1], acc);
    else mck_seti(o, ot.off[1], iacc);
  }
  return 0;
}
static inline int mck_sum(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_accum(c, out, nout, in, nin, MCK_RED_SUM);
}
static inline int mck_mean(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_accum(c, out, nout, in, nin, MCK_RED_MEAN);
}
static inline int mck_prod(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_accum(c, out, nout, in, nin, MCK_RED_PROD);
}

/* ---- extrema ----------------------------------------------------------------------------- */
/* Is a "better" than the current best b for max (sign 1) or min (sign -1)? NaN wins, first. */
static inline int mck_red_better(double a, double b, int sign) {
  if (b != b) return 0;
  if (a != a) return 1;
  return sign > 0 ? a > b : a < b;
}

/* Reduces x over r with max/min; writes values into vo (may be NULL) and indices into io
 * (may be NULL; the flat index within the reduced dims). */
static inline int mck_red_extreme(mck_ctx *c, const char *name, const mck_tensor *x, const mck_red *r,
                                  mck_tensor *vo, mck_tensor *io, int sign) {
  if (r->rcount == 0) return mck_fail(c, "aten::%s: Expected reduction dim to have non-zero size", name);
  if (c->meta) return 0;
  mck_iter ot, it, ot2;
  mck_red_outer(&ot, r, x, vo ? vo : io);
  if (vo && io) mck_red_outer(&ot2, r, x, io);
  int fl = mck_is_float(x->dtype);
  for (int64_t k = 0; k < ot.total; k++, mck_iter_next(&ot)) {
    mck_red_inner(&it, r, ot.off[0]);
    double best = 0;
    int64_t ibest = 0, at = 0;
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) {
      if (fl) {
        double v = mck_getf(x, it.off[0]);
        if (j == 0 || mck_red_better(v, best, sign)) {
          best = v;
          at = j;
        }
      } else {
        int64_t v = mck_geti(x, it.off[0]);
        if (j == 0 || (sign > 0 ? v > ibest : v < ibest)) {
          ibest = v;
          at = j;
        }
      }
    }
    if (vo) {
      if (fl) mck_setf(vo, ot.off[1], best);
      else mck_seti(vo, ot.off[1], ibest);
    }
    if (io) mck_seti(io, vo ? ot2.off[1] : ot.off[1], at);
    if (vo && io) mck_iter_next(&ot2);
  }
  return 0;
}

/* amax/amin(self, int[] dim=[], bool keepdim=False) */
static inline int mck_red_amax(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int sign) {
  const char *name = sign > 0 ? "amax" : "amin";
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  const mck_tensor *x = in[0].u.t;
  mck_red r;
  if (mck_red_setup(c, name, out, nout, x, nin > 1 ? &in[1] : NULL, nin > 2 ? &in[2] : NULL, x->dtype, &r))
    return -1;
  return mck_red_extreme(c, name, x, &r, out[0].u.t, NULL, sign);
}
static inline int mck_amax(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_amax(c, out, nout, in, nin, 1);
}
static inline int mck_amin(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_amax(c, out, nout, in, nin, -1);
}

/* max(Tensor, Tensor): elementwise, broadcast, promoted, NaN propagates. */
static inline int mck_red_binary_extreme(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int sign) {
  const char *name = sign > 0 ? "max" : "min";
  const mck_tensor *A = in[0].u.t, *B = in[1].u.t;
  mck_promo p;
  mck_promo_init(&p);
  mck_promo_add(&p, &in[0]);
  mck_promo_add(&p, &in[1]);
  int dt = mck_promo_result(&p);
  int nd;
  int64_t shape[MCK_MAX_DIMS];
  if (mck_broadcast_shape(A->ndim, A->shape, B->ndim, B->shape, &nd, shape))
    return mck_fail(c, "aten::%s: shapes cannot be broadcast together", name);
  if (nout < 1 || !out[0].u.t) return mck_fail(c, "aten::%s: expects a tensor output", name);
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, dt, nd, shape)) return -1;
  if (c->meta) return 0;
  int64_t sa[MCK_MAX_DIMS], sb[MCK_MAX_DIMS];
  mck_broadcast_strides(A, nd, shape, sa);
  mck_broadcast_strides(B, nd, shape, sb);
  const int64_t *sts[3] = {o->stride, sa, sb};
  int64_t base[3] = {o->offset, A->offset, B->offset};
  mck_iter it;
  mck_iter_init(&it, nd, shape, 3, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    if (mck_is_float(dt)) {
      double a = mck_getf(A, it.off[1]), b = mck_getf(B, it.off[2]);
      mck_setf(o, it.off[0], a != a ? a : b != b ? b : (sign > 0 ? (a > b ? a : b) : (a < b ? a : b)));
    } else {
      int64_t a = mck_geti(A, it.off[1]), b = mck_geti(B, it.off[2]);
      mck_seti(o, it.off[0], sign > 0 ? (a > b ? a : b) : (a < b ? a : b));
    }
  }
  return 0;
}

/* max(self) | max(self, Tensor other) | max(self, int dim, bool keepdim) -> (values, indices) */
static inline int mck_red_max(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int sign) {
  const char *name = sign > 0 ? "max" : "min";
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  const mck_tensor *x = in[0].u.t;
  if (nin == 2 && in[1].kind == MCK_TENSOR) return mck_red_binary_extreme(c, out, nout, in, sign);
  mck_red r;
  if (nin == 1) {
    if (mck_numel(x) == 0)
      return mck_fail(c, "aten::%s: Expected reduction dim to be specified for input.numel() == 0", name);
    if (mck_red_setup(c, name, out, nout, x, NULL, NULL, x->dtype, &r)) return -1;
    return mck_red_extreme(c, name, x, &r, out[0].u.t, NULL, sign);
  }
  if (in[1].kind != MCK_INT && in[1].kind != MCK_UNKNOWN)
    return mck_fail(c, "aten::%s: dim must be an int", name);
  if (nout < 2 || !out[1].u.t) return mck_fail(c, "aten::%s: the dim form has two outputs (values, indices)", name);
  if (mck_red_setup(c, name, out, nout, x, &in[1], nin > 2 ? &in[2] : NULL, x->dtype, &r)) return -1;
  if (mck_out(c, out[1].u.t, MCK_I64, r.ond, r.oshape)) return -1;
  return mck_red_extreme(c, name, x, &r, out[0].u.t, out[1].u.t, sign);
}
static inline int mck_max(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_max(c, out, nout, in, nin, 1);
}
static inline int mck_min(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_max(c, out, nout, in, nin, -1);
}

/* argmax/argmin(self, int? dim=None, bool keepdim=False): None flattens (keepdim: all ones). */
static inline int mck_red_argmax(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int sign) {
  const char *name = sign > 0 ? "argmax" : "argmin";
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  const mck_tensor *x = in[0].u.t;
  const mck_arg *dim = nin > 1 ? &in[1] : NULL;
  if (x->dtype == MCK_BOOL && mck_numel(x) > 0) { /* PyTorch skips the dispatch on trivial dims */
    int d = dim && dim->kind == MCK_INT ? mck_wrap_dim(dim->u.i, x->ndim) : -1;
    if (d < 0 || (x->ndim > 0 && x->shape[d] != 1))
      return mck_fail(c, "aten::%s: not implemented for bool", name);
  }
  if (dim && dim->kind != MCK_NONE && dim->kind != MCK_INT)
    return mck_fail(c, "aten::%s: dim must be a compile-time constant int or None", name);
  if ((!dim || dim->kind == MCK_NONE) && mck_numel(x) == 0)
    return mck_fail(c, "aten::%s: Expected reduction dim to be specified for input.numel() == 0", name);
  mck_red r;
  if (mck_red_setup(c, name, out, nout, x, dim, nin > 2 ? &in[2] : NULL, MCK_I64, &r)) return -1;
  return mck_red_extreme(c, name, x, &r, NULL, out[0].u.t, sign);
}
static inline int mck_argmax(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_argmax(c, out, nout, in, nin, 1);
}
static inline int mck_argmin(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_argmax(c, out, nout, in, nin, -1);
}

/* ---- along one dim: softmax, log_softmax, cumsum, cumprod -------------------------------- */
/* Iterates the lines of x along dim d: outer iterator over every other dim for x and o. */
static inline void mck_red_lines(mck_iter *it, const mck_tensor *x, const mck_tensor *o, int d) {
  int64_t shp[MCK_MAX_DIMS], sx[MCK_MAX_DIMS], so[MCK_MAX_DIMS];
  int n = 0;
  for (int k = 0; k < x->ndim; k++) {
    if (k == d) continue;
    shp[n] = x->shape[k];
    sx[n] = x->stride[k];
    so[n++] = o->stride[k];
  }
  const int64_t *sts[2] = {sx, so};
  int64_t base[2] = {x->offset, o->offset};
  mck_iter_init(it, n, shp, 2, sts, base);
}

enum { MCK_RED_SOFTMAX, MCK_RED_LOG_SOFTMAX, MCK_RED_CUMSUM, MCK_RED_CUMPROD };

/* float32 softmax / log_softmax of one contiguous line, in float as PyTorch's CPU kernel
 * computes it: max, then sum of exp(x - max) (vector lanes, combined in double), then
 * exp(x - max) / sum or (x - max) - log(sum). exp is a Cephes-style polynomial (range
 * reduction by ln 2, degree-5 minimax; about 1 ulp, flushed to 0 below -87.3) evaluated in
 * vector registers; the portable path calls expf. A NaN anywhere (or +inf, whose x - max is NaN)
 * makes the whole line NaN and an all -inf line gives NaN, as the double-precision path does. */
#if defined(__GNUC__) && !defined(__TINYC__) && defined(__AVX512F__)
#define MCK_RED_VW 16
#elif defined(__GNUC__) && !defined(__TINYC__) && defined(__AVX2__) && defined(__FMA__)
#define MCK_RED_VW 8
#endif
#ifdef MCK_RED_VW
#include <immintrin.h>
typedef float mck_red_vf __attribute__((vector_size(MCK_RED_VW * 4)));
typedef float mck_red_vfu __attribute__((vector_size(MCK_RED_VW * 4), aligned(4)));
typedef int32_t mck_red_vi __attribute__((vector_size(MCK_RED_VW * 4)));
#if MCK_RED_VW == 16
#define MCK_RED_FMA(x, y, a) ((mck_red_vf)_mm512_fmadd_ps((__m512)(x), (__m512)(y), (__m512)(a)))
#define MCK_RED_FNMA(x, y, a) ((mck_red_vf)_mm512_fnmadd_ps((__m512)(x), (__m512)(y), (__m512)(a)))
#define MCK_RED_MAX(x, y) ((mck_red_vf)_mm512_max_ps((__m512)(x), (__m512)(y)))
#else
#define MCK_RED_FMA(x, y, a) ((mck_red_vf)_mm256_fmadd_ps((__m256)(x), (__m256)(y), (__m256)(a)))
#define MCK_RED_FNMA(x, y, a) ((mck_red_vf)_mm256_fnmadd_ps((__m256)(x), (__m256)(y), (__m256)(a)))
#define MCK_RED_MAX(x, y) ((mck_red_vf)_mm256_max_ps((__m256)(x), (__m256)(y)))
#endif
/* p[0..n) for 0 < n < MCK_RED_VW; the other lanes are `fill` (nothing past p + n is read) */
static inline mck_red_vf mck_red_vload_tail(const float *p, int64_t n, float fill) {
#if MCK_RED_VW == 16
  return (mck_red_vf)_mm512_mask_loadu_ps(_mm512_set1_ps(fill), (__mmask16)((1u << n) - 1u), p);
#else
  static const int32_t mk[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  __m256i m = _mm256_loadu_si256((const __m256i *)(mk + 8 - n));
  return (mck_red_vf)_mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(p, m),
                                      _mm256_castsi256_ps(m));
#endif
}
static inline void mck_red_vstore_tail(float *p, int64_t n, mck_red_vf v) {
#if MCK_RED_VW == 16
  _mm512_mask_storeu_ps(p, (__mmask16)((1u << n) - 1u), (__m512)v);
#else
  static const int32_t mk[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  _mm256_maskstore_ps(p, _mm256_loadu_si256((const __m256i *)(mk + 8 - n)), (__m256)v);
#endif
}
/* exp(x) for x <= 0 (or NaN): n = round(x / ln 2), r = x - n ln 2 (two FMAs), exp(r) by
 * Cephes' expf polynomial, times 2^n built in the exponent bits; 0 below -87.3 (and at -inf). */
static inline mck_red_vf mck_red_vexp(mck_red_vf x) {
  const mck_red_vf lo = (mck_red_vf){0} - 87.33654f, magic = (mck_red_vf){0} + 12582912.0f;
  mck_red_vi under = x < lo;
  x = (mck_red_vf)(((mck_red_vi)x & ~under) | ((mck_red_vi)lo & under));
  mck_red_vf t = MCK_RED_FMA(x, (mck_red_vf){0} + 1.44269504088896341f, magic);
  mck_red_vf n = t - magic;
  mck_red_vf r = MCK_RED_FNMA(n, (mck_red_vf){0} + 0.693359375f, x);
  r = MCK_RED_FNMA(n, (mck_red_vf){0} - 2.12194440e-4f, r);
  mck_red_vf y = (mck_red_vf){0} + 1.9875691500e-4f;
  y = MCK_RED_FMA(y, r, (mck_red_vf){0} + 1.3981999507e-3f);
  y = MCK_RED_FMA(y, r, (mck_red_vf){0} + 8.3334519073e-3f);
  y = MCK_RED_FMA(y, r, (mck_red_vf){0} + 4.1665795894e-2f);
  y = MCK_RED_FMA(y, r, (mck_red_vf){0} + 1.6666665459e-1f);
  y = MCK_RED_FMA(y, r, (mck_red_vf){0} + 5.0000001201e-1f);
  y = MCK_RED_FMA(y, r * r, r) + 1.0f;
  mck_red_vi e = ((mck_red_vi)t - (mck_red_vi)magic + 127) << 23;
  return (mck_red_vf)((mck_red_vi)(y * (mck_red_vf)e) & ~under);
}
static inline double mck_red_vsum(mck_red_vf v) {
  double s = 0;
  for (int l = 0; l < MCK_RED_VW; l++) s += v[l];
  return s;
}
#endif

static inline void mck_red_softmax_f32(const float *x, float *y, int64_t len, int logsm) {
  int64_t j = 0;
  float mx = -INFINITY;
  double sum = 0;
#ifdef MCK_RED_VW
  mck_red_vf vm = (mck_red_vf){0} - INFINITY, vs = {0};
  for (; j + MCK_RED_VW <= len; j += MCK_RED_VW) vm = MCK_RED_MAX(*(const mck_red_vfu *)(x + j), vm);
  if (j < len) vm = MCK_RED_MAX(mck_red_vload_tail(x + j, len - j, -INFINITY), vm);
  for (int l = 0; l < MCK_RED_VW; l++) mx = vm[l] > mx ? vm[l] : mx;
  if (mx == -INFINITY) mx = 0;
  mck_red_vf m = (mck_red_vf){0} + mx;
  for (j = 0; j + MCK_RED_VW <= len; j += MCK_RED_VW) {
    mck_red_vf e = mck_red_vexp(*(const mck_red_vfu *)(x + j) - m);
    if (!logsm) *(mck_red_vfu *)(y + j) = e;
    vs += e;
  }
  if (j < len) {
    mck_red_vf e = mck_red_vexp(mck_red_vload_tail(x + j, len - j, -INFINITY) - m);
    if (!logsm) mck_red_vstore_tail(y + j, len - j, e);
    vs += e;
  }
  sum = mck_red_vsum(vs);
#else
  for (; j < len; j++) mx = x[j] > mx ? x[j] : mx;
  if (mx == -INFINITY) mx = 0;
  for (j = 0; j < len; j++) {
    float e = expf(x[j] - mx);
    if (!logsm) y[j] = e;
    sum += e;
  }
#endif
  /* NaN sum: a NaN in x (skipped by the max) or +inf max */
  if (sum != sum) {
    for (j = 0; j < len; j++) y[j] = NAN;
    return;
  }
  if (logsm) {
    float lse = (float)log(sum);
    for (j = 0; j < len; j++) y[j] = (x[j] - mx) - lse;
  } else {
    float inv = (float)(1.0 / sum);
    for (j = 0; j < len; j++) y[j] *= inv;
  }
}

/* softmax/log_softmax(self, int dim, int? dtype) — also _softmax(self, dim, bool half_to_float);
 * cumsum/cumprod(self, int dim, int? dtype). */
static inline int mck_red_along(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int op) {
  static const char *const names[] = {"softmax", "log_softmax", "cumsum", "cumprod"};
  const char *name = names[op];
  if (nin < 2 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects (Tensor self, int dim, ...)", name);
  if (in[1].kind != MCK_INT) return mck_fail(c, "aten::%s: dim must be a compile-time constant int", name);
  const mck_tensor *x = in[0].u.t;
  int cum = op >= MCK_RED_CUMSUM;
  int dflt = cum && !mck_is_float(x->dtype) ? MCK_I64 : x->dtype;
  int odt = nin > 2 && in[2].kind != MCK_BOOL_ARG ? mck_red_dtype(c, name, &in[2], dflt) : dflt;
  if (odt < 0) return -1;
  if (!cum && !mck_is_float(odt) && mck_numel(x) > 0) return mck_fail(c, "aten::%s: not implemented for %s", name, mck_dtype_name(odt));
  int d = mck_wrap_dim(in[1].u.i, x->ndim);
  if (d < 0) return mck_fail(c, "aten::%s: dimension out of range (got %lld for a %d-d tensor)", name, (long long)in[1].u.i, x->ndim);
  if (nout < 1 || !out[0].u.t) return mck_fail(c, "aten::%s: expects a tensor output", name);
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, odt, x->ndim, x->shape)) return -1;
  if (c->meta) return 0;
  int64_t len = x->ndim ? x->shape[d] : 1, sx = x->ndim ? x->stride[d] : 0, so = o->ndim ? o->stride[d] : 0;
  mck_iter it;
  mck_red_lines(&it, x, o, x->ndim ? d : -1);
  int fl = mck_is_float(odt);
  if (!cum && x->dtype == MCK_F32 && odt == MCK_F32 && (sx == 1 || len == 1) && (so == 1 || len == 1)) {
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it))
      mck_red_softmax_f32((const float *)x->data + it.off[0], (float *)o->data + it.off[1], len,
                          op == MCK_RED_LOG_SOFTMAX);
    return 0;
  }
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int64_t xo = it.off[0], oo = it.off[1];
    if (cum) {
      double acc = op == MCK_RED_CUMPROD;
      int64_t iacc = op == MCK_RED_CUMPROD;
      for (int64_t j = 0; j < len; j++) {
        if (fl) {
          double v = mck_getf(x, xo + j * sx);
          acc = op == MCK_RED_CUMSUM ? acc + v : acc * v;
          mck_setf(o, oo + j * so, acc);
        } else {
          int64_t v = mck_is_float(x->dtype) ? mck_f2i_sat(mck_getf(x, xo + j * sx), INT64_MIN, INT64_MAX)
                                             : mck_geti(x, xo + j * sx);
          iacc = op == MCK_RED_CUMSUM ? (int64_t)((uint64_t)iacc + (uint64_t)v)
                                      : (int64_t)((uint64_t)iacc * (uint64_t)v);
          mck_seti(o, oo + j * so, iacc);
        }
      }
      continue;
    }
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < len; j++) {
      double v = mck_getf(x, xo + j * sx);
      if (v > mx || v != v) mx = v;
      if (mx != mx) break;
    }
    if (mx == -INFINITY) mx = 0;
    for (int64_t j = 0; j < len; j++) sum += exp(mck_getf(x, xo + j * sx) - mx);
    double lse = log(sum);
    for (int64_t j = 0; j < len; j++) {
      double v = mck_getf(x, xo + j * sx) - mx;
      mck_setf(o, oo + j * so, op == MCK_RED_SOFTMAX ? exp(v) / sum : v - lse);
    }
  }
  return 0;
}
static inline int mck_softmax(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_along(c, out, nout, in, nin, MCK_RED_SOFTMAX);
}
static inline int mck_log_softmax(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_along(c, out, nout, in, nin, MCK_RED_LOG_SOFTMAX);
}
static inline int mck_cumsum(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_along(c, out, nout, in, nin, MCK_RED_CUMSUM);
}
static inline int mck_cumprod(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_along(c, out, nout, in, nin, MCK_RED_CUMPROD);
}

/* ---- var / std --------------------------------------------------------------------------- */
/* var(self, bool unbiased=True) | var(self, int[]? dim, bool unbiased, bool keepdim) |
 * var(self, int[]? dim, *, int? correction, bool keepdim); std likewise. */
static inline int mck_red_var(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int sq) {
  const char *name = sq ? "std" : "var";
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  const mck_tensor *x = in[0].u.t;
  if (!mck_is_float(x->dtype)) return mck_fail(c, "aten::%s: std and var only support floating point dtypes", name);
  const mck_arg *dim = NULL, *keep = NULL;
  double corr = 1;
  if (nin == 2) {
    if (in[1].kind == MCK_BOOL_ARG) corr = (double)in[1].u.i;
    else dim = &in[1];
  } else if (nin >= 3) {
    dim = &in[1];
    keep = nin > 3 ? &in[3] : NULL;
    if (in[2].kind == MCK_BOOL_ARG) corr = (double)in[2].u.i;
    else if (mck_arg_is_scalar(&in[2])) corr = mck_arg_f(&in[2]);
    else if (in[2].kind == MCK_UNKNOWN && !c->meta) return mck_fail(c, "aten::%s: unknown correction", name);
  }
  mck_red r;
  if (mck_red_setup(c, name, out, nout, x, dim, keep, x->dtype, &r)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_iter ot, it;
  mck_red_outer(&ot, &r, x, o);
  for (int64_t k = 0; k < ot.total; k++, mck_iter_next(&ot)) {
    double mean = 0, m2 = 0;
    mck_red_inner(&it, &r, ot.off[0]);
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) mean += mck_getf(x, it.off[0]);
    mean /= (double)r.rcount;
    mck_red_inner(&it, &r, ot.off[0]);
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) {
      double dv = mck_getf(x, it.off[0]) - mean;
      m2 += dv * dv;
    }
    double den = (double)r.rcount - corr;
    if (den < 0) den = 0;
    double v = m2 / den;
    mck_setf(o, ot.off[1], sq ? sqrt(v) : v);
  }
  return 0;
}
static inline int mck_var(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_var(c, out, nout, in, nin, 0);
}
static inline int mck_std(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_var(c, out, nout, in, nin, 1);
}

/* ---- norm -------------------------------------------------------------------------------- */
static inline int mck_red_pnorm(mck_ctx *c, mck_arg *out, int nout, const char *name, const mck_tensor *x,
                                double p, const mck_arg *dim, const mck_arg *keep, const mck_arg *dta) {
  int odt = mck_red_dtype(c, name, dta, x->dtype);
  if (odt < 0) return -1;
  if (!mck_is_float(x->dtype) || !mck_is_float(odt))
    return mck_fail(c, "aten::%s: input dtype should be floating point, got %s", name, mck_dtype_name(x->dtype));
  mck_red r;
  if (mck_red_setup(c, name, out, nout, x, dim, keep, odt, &r)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_iter ot, it;
  mck_red_outer(&ot, &r, x, o);
  for (int64_t k = 0; k < ot.total; k++, mck_iter_next(&ot)) {
    double acc = isinf(p) && p < 0 ? INFINITY : 0;
    mck_red_inner(&it, &r, ot.off[0]);
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) {
      double a = fabs(mck_getf(x, it.off[0]));
      if (p == 0) acc += a != 0;
      else if (a != a) acc = a;
      else if (acc != acc) continue;
      else if (isinf(p)) acc = p > 0 ? (a > acc ? a : acc) : (a < acc ? a : acc);
      else if (p == 1) acc += a;
      else if (p == 2) acc += a * a;
      else acc += pow(a, p);
    }
    double v = isinf(p) || p == 0 || p == 1 ? acc : p == 2 ? sqrt(acc) : pow(acc, 1.0 / p);
    mck_setf(o, ot.off[1], v);
  }
  return 0;
}
/* norm(self, Scalar p=2) | norm(self, Scalar? p, int dtype) | norm(self, Scalar? p, int[] dim,
 * bool keepdim[, int dtype]) */
static inline int mck_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::norm: expects a tensor");
  double p = 2;
  if (nin > 1 && in[1].kind == MCK_UNKNOWN) return mck_fail(c, "aten::norm: p must be a compile-time constant");
  if (nin > 1 && mck_arg_is_scalar(&in[1])) p = mck_arg_f(&in[1]);
  if (nin == 3 && in[2].kind != MCK_INTS) return mck_red_pnorm(c, out, nout, "norm", in[0].u.t, p, NULL, NULL, &in[2]);
  return mck_red_pnorm(c, out, nout, "norm", in[0].u.t, p, nin > 2 ? &in[2] : NULL, nin > 3 ? &in[3] : NULL,
                       nin > 4 ? &in[4] : NULL);
}
/* linalg_vector_norm(self, Scalar ord=2, int[]? dim=None, bool keepdim=False, int? dtype=None) */
static inline int mck_linalg_vector_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::linalg_vector_norm: expects a tensor");
  if (nin > 1 && in[1].kind == MCK_UNKNOWN) return mck_fail(c, "aten::linalg_vector_norm: ord must be a compile-time constant");
  double p = nin > 1 && mck_arg_is_scalar(&in[1]) ? mck_arg_f(&in[1]) : 2;
  return mck_red_pnorm(c, out, nout, "linalg_vector_norm", in[0].u.t, p, nin > 2 ? &in[2] : NULL,
                       nin > 3 ? &in[3] : NULL, nin > 4 ? &in[4] : NULL);
}
/* frobenius_norm(self, int[] dim, bool keepdim=False) */
static inline int mck_frobenius_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::frobenius_norm: expects a tensor");
  return mck_red_pnorm(c, out, nout, "frobenius_norm", in[0].u.t, 2, nin > 1 ? &in[1] : NULL,
                       nin > 2 ? &in[2] : NULL, NULL);
}

/* ---- all / any / logsumexp --------------------------------------------------------------- */
/* all/any(self) | (self, int dim, bool keepdim): bool, but uint8 for uint8 input. */
static inline int mck_red_allany(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int any) {
  const char *name = any ? "any" : "all";
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  const mck_tensor *x = in[0].u.t;
  int odt = x->dtype == MCK_U8 ? MCK_U8 : MCK_BOOL;
  mck_red r;
  if (mck_red_setup(c, name, out, nout, x, nin > 1 ? &in[1] : NULL, nin > 2 ? &in[2] : NULL, odt, &r)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_iter ot, it;
  mck_red_outer(&ot, &r, x, o);
  for (int64_t k = 0; k < ot.total; k++, mck_iter_next(&ot)) {
    int acc = !any;
    mck_red_inner(&it, &r, ot.off[0]);
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) {
      int t = mck_is_float(x->dtype) ? mck_getf(x, it.off[0]) != 0 : mck_geti(x, it.off[0]) != 0;
      if (any ? t : !t) {
        acc = any;
        break;
      }
    }
    mck_seti(o, ot.off[1], acc);
  }
  return 0;
}
static inline int mck_all(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_allany(c, out, nout, in, nin, 0);
}
static inline int mck_any(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_red_allany(c, out, nout, in, nin, 1);
}

/* logsumexp(self, int[] dim, bool keepdim=False): integers give float32. */
static inline int mck_logsumexp(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 2 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::logsumexp: expects (Tensor self, int[] dim, ...)");
  const mck_tensor *x = in[0].u.t;
  int odt = mck_is_float(x->dtype) ? x->dtype : MCK_F32;
  if (in[1].kind == MCK_INTS && in[1].n == 0 && x->ndim > 0)
    return mck_fail(c, "aten::logsumexp: an empty dim list is not supported");
  mck_red r;
  if (mck_red_setup(c, "logsumexp", out, nout, x, &in[1], nin > 2 ? &in[2] : NULL, odt, &r)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_iter ot, it;
  mck_red_outer(&ot, &r, x, o);
  for (int64_t k = 0; k < ot.total; k++, mck_iter_next(&ot)) {
    double mx = -INFINITY, sum = 0;
    mck_red_inner(&it, &r, ot.off[0]);
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) {
      double v = mck_getf(x, it.off[0]);
      if (v > mx || v != v) mx = v;
    }
    if (isinf(mx)) {
      mck_setf(o, ot.off[1], mx);
      continue;
    }
    mck_red_inner(&it, &r, ot.off[0]);
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) sum += exp(mck_getf(x, it.off[0]) - mx);
    mck_setf(o, ot.off[1], mx + log(sum));
  }
  return 0;
}

#endif
