/* mck.h — core of mc's kernel library: tensor descriptors, kernel arguments, element access,
 * broadcasting and N-d iteration. Every op's kernel is written once, against this header, and
 * serves three masters:
 *   1. the reference interpreter and constant folder, which compile it into `mc`;
 *   2. shape and dtype inference, which calls the same kernel in meta mode (ctx->meta: tensors
 *      carry no data; the kernel only fills in its outputs' dtype, rank, shape and, for views,
 *      strides and offset);
 *   3. generated C, into which the kernel headers are pasted verbatim (they are C11, depend on
 *      nothing but libc and <math.h>, and are `static inline` so unused ones cost nothing).
 *
 * A kernel has the signature mck_fn: outputs and inputs are mck_arg arrays that follow the op's
 * schema positionally (a None bias is an MCK_NONE arg at its position). Before a non-meta call,
 * the caller gives every non-view tensor output its dtype, shape, contiguous strides and memory;
 * a view kernel sets `data`, `offset`, `shape` and `stride` of its output itself. Kernels return
 * 0, or -1 with a message in ctx->err.
 *
 * Element codes match the compiler's DType (DT_F32 = MCK_F32 ...).
 */
#ifndef MCK_H
#define MCK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MCK_MAX_DIMS 8

enum {
  MCK_F32 = 0, MCK_F64, MCK_F16, MCK_BF16, MCK_I64, MCK_I32, MCK_I16, MCK_I8, MCK_U8, MCK_BOOL,
  MCK_NDTYPES
};

typedef struct mck_tensor {
  void *data;                   /* storage base; NULL in meta mode */
  int64_t offset;               /* in elements from data */
  int dtype;                    /* MCK_F32 ... */
  int ndim;
  int64_t shape[MCK_MAX_DIMS];
  int64_t stride[MCK_MAX_DIMS]; /* in elements; may be 0 (expand) */
} mck_tensor;

enum {
  MCK_NONE = 0, MCK_TENSOR, MCK_INT, MCK_FLOAT, MCK_BOOL_ARG, MCK_INTS, MCK_FLOATS, MCK_BOOLS,
  MCK_TENSORS, MCK_STR, MCK_DEVICE,
  MCK_UNKNOWN /* a scalar whose value is not known (meta mode); `n` holds the kind it will have
                 (MCK_INT, MCK_FLOAT or MCK_BOOL_ARG; 0 when not even that is known) */
};

typedef struct mck_arg {
  int kind;
  int n; /* list length */
  union {
    mck_tensor *t;
    int64_t i;                 /* MCK_INT, MCK_BOOL_ARG */
    double f;
    int64_t *ints;             /* MCK_INTS, MCK_BOOLS: caller-provided storage of n (or more) */
    double *floats;
    mck_tensor **ts;           /* MCK_TENSORS */
    const char *s;
  } u;
} mck_arg;

typedef struct mck_ctx {
  int meta;       /* shape/dtype inference only: tensors have no data */
  int nthreads;   /* hint; kernels may ignore */
  /* A constant operand the emitter packed at compile time for the next kernel call (NULL:
   * none): the kernel uses it only when kind and sizes match its own plan (k_conv.h
   * kconv_conv_f32), and clears it either way. */
  const float *pack;
  int pack_kind;
  int64_t pack_m, pack_k, pack_g;
  /* Set by a kernel in meta mode when its output's size depends on the data (nonzero,
   * masked_select, a boolean-mask index, unique: rows with OPF_DATA_SIZED): the shape it gave
   * is the bound, and the real call sets the output's real shape (mck_out_sized). */
  int sized_by_data;
  char err[256];
} mck_ctx;

typedef int (*mck_fn)(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin);

#if defined(__GNUC__)
#ifndef MCK_UNUSED
#define MCK_UNUSED __attribute__((unused))
#endif
#define MCK_FMT(a, b) __attribute__((format(printf, a, b)))
#else
#ifndef MCK_UNUSED
#define MCK_UNUSED
#endif
#define MCK_FMT(a, b)
#endif

static inline MCK_FMT(2, 3) int mck_fail(mck_ctx *c, const char *fmt, ...);
#include <stdarg.h>
static inline int mck_fail(mck_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, sizeof c->err, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- dtypes ------------------------------------------------------------------------------ */
static inline size_t mck_dtype_size(int dt) {
  static const unsigned char sz[MCK_NDTYPES] = {4, 8, 2, 2, 8, 4, 2, 1, 1, 1};
  return dt >= 0 && dt < MCK_NDTYPES ? sz[dt] : 0;
}
static inline int mck_is_float(int dt) { return dt <= MCK_BF16; }
static inline int mck_is_int(int dt) { return dt >= MCK_I64 && dt <= MCK_U8; }
static inline const char *mck_dtype_name(int dt) {
  static const char *const nm[MCK_NDTYPES] = {"float32", "float64", "float16", "bfloat16",
                                              "int64",   "int32",   "int16",   "int8",
                                              "uint8",   "bool"};
  return dt >= 0 && dt < MCK_NDTYPES ? nm[dt] : "?";
}

static inline float mck_h2f(uint16_t h) {
  uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
  if (e == 0) {
    if (m == 0) {
      u = s;
    } else { /* subnormal */
      e = 113;
      while (!(m & 0x400)) { m <<= 1; e--; }
      u = s | (e << 23) | ((m & 0x3ff) << 13);
    }
  } else if (e == 31) {
    u = s | 0x7f800000u | (m << 13);
  } else {
    u = s | ((e + 112) << 23) | (m << 13);
  }
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint16_t mck_f2h(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t s = (u >> 16) & 0x8000, e = (u >> 23) & 0xff, m = u & 0x7fffff;
  if (e == 0xff) return (uint16_t)(s | 0x7c00 | (m ? 0x200 : 0));
  int32_t ne = (int32_t)e - 127 + 15;
  if (ne >= 31) return (uint16_t)(s | 0x7c00);
  if (ne <= 0) {
    if (ne < -10) return (uint16_t)s;
    m |= 0x800000;
    uint32_t shift = (uint32_t)(14 - ne);
    uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (hm & 1))) hm++;
    return (uint16_t)(s | hm);
  }
  uint32_t hm = m >> 13, rem = m & 0x1fff;
  uint32_t r = s | ((uint32_t)ne << 10) | hm;
  if (rem > 0x1000 || (rem == 0x1000 && (hm & 1))) r++;
  return (uint16_t)r;
}
static inline float mck_bf2f(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint16_t mck_f2bf(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffff) > 0x7f800000) return (uint16_t)((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}

/* Element access by element offset (already including t->offset). */
static inline double mck_getf(const mck_tensor *t, int64_t off) {
  const char *p = (const char *)t->data;
  switch (t->dtype) {
  case MCK_F32: return ((const float *)p)[off];
  case MCK_F64: return ((const double *)p)[off];
  case MCK_F16: return mck_h2f(((const uint16_t *)p)[off]);
  case MCK_BF16: return mck_bf2f(((const uint16_t *)p)[off]);
  case MCK_I64: return (double)((const int64_t *)p)[off];
  case MCK_I32: return ((const int32_t *)p)[off];
  case MCK_I16: return ((const int16_t *)p)[off];
  case MCK_I8: return ((const int8_t *)p)[off];
  case MCK_U8: return ((const uint8_t *)p)[off];
  case MCK_BOOL: return ((const uint8_t *)p)[off] != 0;
  }
  return 0;
}
static inline int64_t mck_geti(const mck_tensor *t, int64_t off) {
  const char *p = (const char *)t->data;
  switch (t->dtype) {
  case MCK_I64: return ((const int64_t *)p)[off];
  case MCK_I32: return ((const int32_t *)p)[off];
  case MCK_I16: return ((const int16_t *)p)[off];
  case MCK_I8: return ((const int8_t *)p)[off];
  case MCK_U8: return ((const uint8_t *)p)[off];
  case MCK_BOOL: return ((const uint8_t *)p)[off] != 0;
  default: {
    double d = mck_getf(t, off);
    if (d != d) return 0;
    if (d >= 9.2233720368547758e18) return INT64_MAX;
    if (d <= -9.2233720368547758e18) return INT64_MIN;
    return (int64_t)d;
  }
  }
}
/* Float-to-integer stores truncate toward zero as PyTorch's casts do; out-of-range values
 * saturate (PyTorch leaves them undefined). */
static inline int64_t mck_f2i_sat(double d, int64_t lo, int64_t hi) {
  if (d != d) return 0;
  if (d >= (double)hi) return hi;
  if (d <= (double)lo) return lo;
  return (int64_t)d;
}
static inline void mck_setf(mck_tensor *t, int64_t off, double v) {
  char *p = (char *)t->data;
  switch (t->dtype) {
  case MCK_F32: ((float *)p)[off] = (float)v; break;
  case MCK_F64: ((double *)p)[off] = v; break;
  case MCK_F16: ((uint16_t *)p)[off] = mck_f2h((float)v); break;
  case MCK_BF16: ((uint16_t *)p)[off] = mck_f2bf((float)v); break;
  case MCK_I64: ((int64_t *)p)[off] = mck_f2i_sat(v, INT64_MIN, INT64_MAX); break;
  case MCK_I32: ((int32_t *)p)[off] = (int32_t)mck_f2i_sat(v, INT32_MIN, INT32_MAX); break;
  case MCK_I16: ((int16_t *)p)[off] = (int16_t)mck_f2i_sat(v, INT16_MIN, INT16_MAX); break;
  case MCK_I8: ((int8_t *)p)[off] = (int8_t)mck_f2i_sat(v, INT8_MIN, INT8_MAX); break;
  case MCK_U8: ((uint8_t *)p)[off] = (uint8_t)(int64_t)mck_f2i_sat(v, INT64_MIN, INT64_MAX); break;
  case MCK_BOOL: ((uint8_t *)p)[off] = v != 0; break;
  }
}
static inline void mck_seti(mck_tensor *t, int64_t off, int64_t v) {
  char *p = (char *)t->data;
  switch (t->dtype) {
  case MCK_I64: ((int64_t *)p)[off] = v; break;
  case MCK_I32: ((int32_t *)p)[off] = (int32_t)(uint32_t)v; break;
  case MCK_I16: ((int16_t *)p)[off] = (int16_t)(uint16_t)v; break;
  case MCK_I8: ((int8_t *)p)[off] = (int8_t)(uint8_t)v; break;
  case MCK_U8: ((uint8_t *)p)[off] = (uint8_t)v; break;
  case MCK_BOOL: ((uint8_t *)p)[off] = v != 0; break;
  default: mck_setf(t, off, (double)v); break;
  }
}

/* ---- shapes ------------------------------------------------------------------------------ */
/* a * b, saturating at +-INT64_MAX instead of overflowing (meta mode sees any extents). */
static inline int64_t mck_mul_sat(int64_t a, int64_t b) {
  uint64_t ma = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, mb = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
  uint64_t m = ma && mb > (uint64_t)INT64_MAX / ma ? (uint64_t)INT64_MAX : ma * mb;
  if (m > (uint64_t)INT64_MAX) m = (uint64_t)INT64_MAX;
  return (a < 0) != (b < 0) ? -(int64_t)m : (int64_t)m;
}
/* Checked int64 arithmetic for shape rules: *r = a * b (a + b), returning 1 instead when the
 * result does not fit. Portable C (the generated code is also built by compilers without
 * __builtin_mul_overflow). */
static inline int mck_mul_ovf(int64_t a, int64_t b, int64_t *r) {
  if (a == 0 || b == 0) { *r = 0; return 0; }
  if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) return 1;
  if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
            : (b > 0 ? a < INT64_MIN / b : a != -1 && b < INT64_MAX / a))
    return 1;
  *r = a * b;
  return 0;
}
static inline int mck_add_ovf(int64_t a, int64_t b, int64_t *r) {
  if (b > 0 ? a > INT64_MAX - b : a < INT64_MIN - b) return 1;
  *r = a + b;
  return 0;
}
/* Window parameters (kernel, stride, padding, dilation) and the extents they slide over stay
 * below this, so that every index expression of a convolution or pool fits in int64. */
#define MCK_MAX_GEOM ((int64_t)1 << 31)
/* Whether a tensor of these extents (each >= 0) has a numel, and a byte size in elements of
 * es bytes, that fit in int64. */
static inline int mck_shape_fits(int ndim, const int64_t *shape, int64_t es) {
  int64_t n = es > 0 ? es : 1;
  for (int i = 0; i < ndim; i++)
    if (shape[i] < 0 || mck_mul_ovf(n, shape[i], &n)) return 0;
  return 1;
}
static inline int64_t mck_numel(const mck_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++) n = mck_mul_sat(n, t->shape[i]);
  return n;
}
static inline void mck_contiguous_strides(mck_tensor *t) {
  int64_t s = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    t->stride[i] = s;
    s = mck_mul_sat(s, t->shape[i] > 0 ? t->shape[i] : 1);
  }
}
static inline int mck_is_contiguous(const mck_tensor *t) {
  int64_t s = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    if (t->shape[i] != 1 && t->stride[i] != s) return 0;
    s = mck_mul_sat(s, t->shape[i]);
  }
  return 1;
}
/* Normalises a dim index against rank n (-1 -> n-1); returns -1 when out of range. */
static inline int mck_wrap_dim(int64_t d, int n) {
  int m = n > 0 ? n : 1;
  if (d < -m || d >= m) return -1;
  return (int)(d < 0 ? d + m : d);
}
/* Broadcast shapes a and b (right-aligned) into out; -1 if incompatible. */
static inline int mck_broadcast_shape(int na, const int64_t *a, int nb, const int64_t *b, int *nout,
                                      int64_t *out) {
  int n = na > nb ? na : nb;
  if (n > MCK_MAX_DIMS) return -1;
  for (int i = 0; i < n; i++) {
    int ia = i - (n - na), ib = i - (n - nb);
    int64_t x = ia >= 0 ? a[ia] : 1, y = ib >= 0 ? b[ib] : 1;
    if (x == y || y == 1) out[i] = x;
    else if (x == 1) out[i] = y;
    else return -1;
  }
  *nout = n;
  return 0;
}
/* Strides of t viewed with the broadcast shape (ndim, shape): 0 on broadcast dims. */
static inline void mck_broadcast_strides(const mck_tensor *t, int ndim, const int64_t *shape,
                                         int64_t *st) {
  for (int i = 0; i < ndim; i++) {
    int it = i - (ndim - t->ndim);
    st[i] = (it >= 0 && t->shape[it] == shape[i] && shape[i] != 1) ? t->stride[it] : 0;
  }
}

/* N-d iteration over a shape, with up to MCK_ITER_MAX operands each with its own strides and
 * base offset. Usage:
 *   mck_iter it; mck_iter_init(&it, ndim, shape, 2, (const int64_t *[]){so, sa}, (int64_t[]){oo, oa});
 *   for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) use(it.off[0], it.off[1]);
 */
#define MCK_ITER_MAX 4
typedef struct mck_iter {
  int ndim, nops;
  int64_t total;
  int64_t shape[MCK_MAX_DIMS], idx[MCK_MAX_DIMS];
  int64_t st[MCK_ITER_MAX][MCK_MAX_DIMS];
  int64_t off[MCK_ITER_MAX];
} mck_iter;
static inline void mck_iter_init(mck_iter *it, int ndim, const int64_t *shape, int nops,
                                 const int64_t *const *strides, const int64_t *base) {
  it->ndim = ndim;
  it->nops = nops;
  it->total = 1;
  for (int d = 0; d < ndim; d++) {
    it->shape[d] = shape[d];
    it->idx[d] = 0;
    it->total *= shape[d];
  }
  for (int k = 0; k < nops; k++) {
    it->off[k] = base[k];
    for (int d = 0; d < ndim; d++) it->st[k][d] = strides[k][d];
  }
}
static inline void mck_iter_next(mck_iter *it) {
  for (int d = it->ndim - 1; d >= 0; d--) {
    for (int k = 0; k < it->nops; k++) it->off[k] += it->st[k][d];
    if (++it->idx[d] < it->shape[d]) return;
    for (int k = 0; k < it->nops; k++) it->off[k] -= it->st[k][d] * it->shape[d];
    it->idx[d] = 0;
  }
}

/* ---- argument helpers -------------------------------------------------------------------- */
static inline int mck_arg_is_scalar(const mck_arg *a) {
  return a->kind == MCK_INT || a->kind == MCK_FLOAT || a->kind == MCK_BOOL_ARG;
}
static inline double mck_arg_f(const mck_arg *a) {
  return a->kind == MCK_FLOAT ? a->u.f : (double)a->u.i;
}
/* dtype a Python scalar argument has in type promotion: float -> float32 category etc. */
static inline int mck_scalar_dtype(const mck_arg *a) {
  return a->kind == MCK_FLOAT ? MCK_F64 : a->kind == MCK_BOOL_ARG ? MCK_BOOL : MCK_I64;
}

/* ---- type promotion (torch.result_type) -------------------------------------------------- */
/* Category: 0 bool, 1 integer, 2 floating. */
static inline int mck_dtype_category(int dt) {
  return dt == MCK_BOOL ? 0 : mck_is_float(dt) ? 2 : 1;
}
/* Promotes two dtypes of the same priority class (both dimensioned tensors, etc). */
static inline int mck_promote_types(int a, int b) {
  if (a == b) return a;
  if (a == MCK_BOOL) return b;
  if (b == MCK_BOOL) return a;
  int fa = mck_is_float(a), fb = mck_is_float(b);
  if (fa && !fb) return a;
  if (fb && !fa) return b;
  if (fa && fb) {
    if (a == MCK_F64 || b == MCK_F64) return MCK_F64;
    if (a == MCK_F32 || b == MCK_F32) return MCK_F32;
    return MCK_F32; /* f16 with bf16 */
  }
  /* both integer */
  if ((a == MCK_U8 && b == MCK_I8) || (a == MCK_I8 && b == MCK_U8)) return MCK_I16;
  static const int rank[MCK_NDTYPES] = {0, 0, 0, 0, 4, 3, 2, 1, 1, 0};
  if (a == MCK_U8) return b;
  if (b == MCK_U8) return a;
  return rank[a] >= rank[b] ? a : b;
}
/* torch.result_type over operands (ATen's ResultTypeState): dimensioned tensors, 0-dim
 * tensors and Python scalars are promoted within their class; then a lower class can only
 * raise the category (bool < integer < floating) of a higher one. A Python float counts as the
 * default dtype (float32), a Python int as int64, a Python bool as bool. */
typedef struct mck_promo {
  int dim, zero, scal; /* running result per class, -1 none */
} mck_promo;
static inline void mck_promo_init(mck_promo *p) { p->dim = p->zero = p->scal = -1; }
static inline void mck_promo_add(mck_promo *p, const mck_arg *a) {
  int *slot;
  int dt;
  if (a->kind == MCK_TENSOR) {
    dt = a->u.t->dtype;
    slot = a->u.t->ndim > 0 ? &p->dim : &p->zero;
  } else if (mck_arg_is_scalar(a)) {
    dt = a->kind == MCK_FLOAT ? MCK_F32 : a->kind == MCK_BOOL_ARG ? MCK_BOOL : MCK_I64;
    slot = &p->scal;
  } else {
    return;
  }
  *slot = *slot < 0 ? dt : mck_promote_types(*slot, dt);
}
static inline int mck_promo_combine(int higher, int lower) {
  if (higher >= 0 && mck_is_float(higher)) return higher;
  if (higher == MCK_BOOL || (lower >= 0 && mck_is_float(lower))) {
    if (higher < 0) return lower;
    if (lower < 0) return higher;
    return mck_promote_types(higher, lower);
  }
  return higher >= 0 ? higher : lower;
}
static inline int mck_promo_result(const mck_promo *p) {
  int r = mck_promo_combine(p->dim, mck_promo_combine(p->zero, p->scal));
  return r < 0 ? MCK_F32 : r;
}

/* Sets up a meta or real fresh output: dtype, shape, contiguous strides. The data pointer is
 * the caller's business (already set for real runs). */
static inline void mck_out_shape(mck_tensor *o, int dtype, int ndim, const int64_t *shape) {
  o->dtype = dtype;
  o->ndim = ndim;
  for (int i = 0; i < ndim; i++) o->shape[i] = shape[i];
  o->offset = 0;
  mck_contiguous_strides(o);
}

/* Checks a real (non-meta) output was prepared with the shape the kernel computed. */
static inline int mck_check_out(mck_ctx *c, const mck_tensor *o, int dtype, int ndim,
                                const int64_t *shape) {
  if (o->dtype != dtype || o->ndim != ndim) {
    return mck_fail(c, "internal: output prepared as %s rank %d, kernel computes %s rank %d",
                    mck_dtype_name(o->dtype), o->ndim, mck_dtype_name(dtype), ndim);
  }
  for (int i = 0; i < ndim; i++) {
    if (o->shape[i] != shape[i]) {
      return mck_fail(c, "internal: output dim %d prepared as %lld, kernel computes %lld", i,
                      (long long)o->shape[i], (long long)shape[i]);
    }
  }
  return 0;
}

/* Shorthand used by kernels: set or check a fresh output's type.
 * In meta mode fills it in; otherwise checks it matches. */
static inline int mck_out(mck_ctx *c, mck_tensor *o, int dtype, int ndim, const int64_t *shape) {
  if (c->meta) {
    if (!mck_shape_fits(ndim, shape, (int64_t)mck_dtype_size(dtype))) {
      char sh[160];
      int k = 0;
      for (int i = 0; i < ndim && k < 120; i++)
        k += snprintf(sh + k, sizeof sh - (size_t)k, "%s%lld", i ? ", " : "", (long long)shape[i]);
      return mck_fail(c, "output of shape [%s%s] has a negative extent or a size beyond int64", sh,
                      k >= 120 ? ", ..." : "");
    }
    o->data = NULL;
    mck_out_shape(o, dtype, ndim, shape);
    return 0;
  }
  return mck_check_out(c, o, dtype, ndim, shape);
}

/* A fresh output whose size depends on the data: in meta mode `shape` is the bound (every
 * element selected) and the kernel says so (ctx->sized_by_data); in a real call the caller
 * prepared the output at that bound, and it takes the real `shape` (compact, in the same
 * memory), which must not hold more elements. */
static inline int mck_out_sized(mck_ctx *c, mck_tensor *o, int dtype, int ndim, const int64_t *shape) {
  if (c->meta) {
    c->sized_by_data = 1;
    return mck_out(c, o, dtype, ndim, shape);
  }
  int64_t n = 1, cap = mck_numel(o);
  for (int i = 0; i < ndim; i++) n *= shape[i];
  if (o->dtype != dtype || o->ndim != ndim || n > cap)
    return mck_fail(c, "internal: output prepared as %s rank %d of %lld elements, kernel computes %s rank %d of %lld",
                    mck_dtype_name(o->dtype), o->ndim, (long long)cap, mck_dtype_name(dtype), ndim, (long long)n);
  for (int i = 0; i < ndim; i++) o->shape[i] = shape[i];
  mck_contiguous_strides(o);
  return 0;
}

/* c10::ScalarType code (a TorchScript `dtype` argument: 6 = float32) -> MCK dtype, -1 if
 * unsupported; and back. */
static inline int mck_dtype_from_scalar_type(int64_t st) {
  switch (st) {
  case 0: return MCK_U8;
  case 1: return MCK_I8;
  case 2: return MCK_I16;
  case 3: return MCK_I32;
  case 4: return MCK_I64;
  case 5: return MCK_F16;
  case 6: return MCK_F32;
  case 7: return MCK_F64;
  case 11: return MCK_BOOL;
  case 15: return MCK_BF16;
  default: return -1;
  }
}
static inline int64_t mck_scalar_type_of(int dt) {
  static const signed char st[MCK_NDTYPES] = {6, 7, 5, 15, 4, 3, 2, 1, 0, 11};
  return dt >= 0 && dt < MCK_NDTYPES ? st[dt] : -1;
}

#endif
