/* k_args.h — argument and buffer helpers shared by the kernel families that read their
 * arguments the conv way (conv, norm, pool, linalg, sample): optional arguments past the end,
 * int lists broadcast from one value, float32 / float64 copies of strided tensors, integer
 * floor / ceil division.
 *
 * Prefix: kconv_ (the conv family's, where they started).
 */
#ifndef MC_K_ARGS_H
#define MC_K_ARGS_H

#ifndef MCK_H
#include "mck.h"
#endif

/* ---- argument helpers -------------------------------------------------------------------- */
static inline const mck_arg *kconv_arg(const mck_arg *in, int nin, int k) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  return k < nin ? &in[k] : &none;
}

/* An int[] argument as n values: a list of n, one value repeated, or (empty list / None /
 * missing) the defaults dflt (NULL: the argument is required). */
static inline int kconv_ints(mck_ctx *c, const mck_arg *a, int n, const int64_t *dflt,
                             int64_t *out, const char *op, const char *what) {
  if (a->kind == MCK_UNKNOWN) {
    return mck_fail(c, "%s: %s must be a compile-time constant", op, what);
  }
  if (a->kind == MCK_INT) {
    for (int i = 0; i < n; i++) out[i] = a->u.i;
    return 0;
  }
  if (a->kind == MCK_INTS && (a->n == n || a->n == 1)) {
    for (int i = 0; i < n; i++) out[i] = a->u.ints[a->n == 1 ? 0 : i];
    return 0;
  }
  if (dflt && (a->kind == MCK_NONE || (a->kind == MCK_INTS && a->n == 0))) {
    for (int i = 0; i < n; i++) out[i] = dflt[i];
    return 0;
  }
  if (a->kind == MCK_INTS) {
    return mck_fail(c, "%s: %s expects %d values, got %d", op, what, n, a->n);
  }
  return mck_fail(c, "%s: %s must be an int list", op, what);
}

static inline int kconv_int(mck_ctx *c, const mck_arg *a, int64_t dflt, int64_t *out,
                            const char *op, const char *what) {
  if (a->kind == MCK_NONE) *out = dflt;
  else if (a->kind == MCK_INT || a->kind == MCK_BOOL_ARG) *out = a->u.i;
  else if (a->kind == MCK_INTS && a->n == 1) *out = a->u.ints[0];
  else if (a->kind == MCK_UNKNOWN) return mck_fail(c, "%s: %s must be a compile-time constant", op, what);
  else return mck_fail(c, "%s: %s must be an int", op, what);
  return 0;
}

/* A bool argument; an unknown one is an error only where `need` (the result depends on it). */
static inline int kconv_bool(mck_ctx *c, const mck_arg *a, int dflt, int need, int *out,
                             const char *op, const char *what) {
  if (a->kind == MCK_NONE) *out = dflt;
  else if (a->kind == MCK_BOOL_ARG || a->kind == MCK_INT) *out = a->u.i != 0;
  else if (a->kind == MCK_UNKNOWN && !need && c->meta) *out = dflt;
  else if (a->kind == MCK_UNKNOWN) return mck_fail(c, "%s: %s must be a compile-time constant", op, what);
  else return mck_fail(c, "%s: %s must be a bool", op, what);
  return 0;
}

static inline int kconv_float(mck_ctx *c, const mck_arg *a, double dflt, double *out,
                              const char *op, const char *what) {
  if (a->kind == MCK_NONE) *out = dflt;
  else if (mck_arg_is_scalar(a)) *out = mck_arg_f(a);
  else if (a->kind == MCK_UNKNOWN && c->meta) *out = dflt;
  else if (a->kind == MCK_UNKNOWN) return mck_fail(c, "%s: %s must be known", op, what);
  else return mck_fail(c, "%s: %s must be a number", op, what);
  return 0;
}

static inline const mck_tensor *kconv_tensor(const mck_arg *a) {
  return a->kind == MCK_TENSOR ? a->u.t : NULL;
}

static inline int64_t kconv_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t kconv_ceildiv(int64_t a, int64_t b) { return -kconv_floordiv(-a, b); }
static inline int64_t kconv_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t kconv_max(int64_t a, int64_t b) { return a > b ? a : b; }

static inline void *kconv_alloc(int64_t n, size_t es) {
  if (n < 1) n = 1;
  if (es && (uint64_t)n > (uint64_t)SIZE_MAX / es) return NULL; /* the size does not fit */
  return malloc((size_t)n * es);
}

/* Contiguous float32 / float64 copies of a tensor (any dtype, any strides). The result is t's
 * own memory when it already is one; *own then stays NULL, else it is the buffer to free. */
static inline const float *kconv_as_f32(const mck_tensor *t, float **own) {
  *own = NULL;
  if (t->dtype == MCK_F32 && mck_is_contiguous(t)) return (const float *)t->data + t->offset;
  int64_t n = mck_numel(t);
  float *p = (float *)kconv_alloc(n, sizeof(float));
  if (!p) return NULL;
  mck_iter it;
  const int64_t *st[1] = {t->stride};
  int64_t base[1] = {t->offset};
  mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) p[k] = (float)mck_getf(t, it.off[0]);
  *own = p;
  return p;
}
static inline const double *kconv_as_f64(const mck_tensor *t, double **own) {
  *own = NULL;
  if (t->dtype == MCK_F64 && mck_is_contiguous(t)) return (const double *)t->data + t->offset;
  int64_t n = mck_numel(t);
  double *p = (double *)kconv_alloc(n, sizeof(double));
  if (!p) return NULL;
  mck_iter it;
  const int64_t *st[1] = {t->stride};
  int64_t base[1] = {t->offset};
  mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) p[k] = mck_getf(t, it.off[0]);
  *own = p;
  return p;
}
/* Stores n doubles into a fresh contiguous output of any dtype. */
static inline void kconv_store(mck_tensor *o, const double *v, int64_t n) {
  for (int64_t i = 0; i < n; i++) mck_setf(o, o->offset + i, v[i]);
}

static inline int kconv_is_floatish(int dt) { return mck_is_float(dt); }

#endif
