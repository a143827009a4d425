/* k_elementwise.h — kernels of the elementwise family: binary arithmetic, comparison and logic
 * with broadcasting and PyTorch type promotion (Tensor-Tensor, Tensor-Scalar and the int/float
 * arithmetic of scripted graphs), unary math and activations, clamp, where, masked_fill,
 * dtype casts, copies, fills and the creation ops (zeros, full, arange, linspace, ...).
 *
 * Invariants, as in PyTorch 1.13:
 *   - the common dtype is torch.result_type of the operands (mck_promo_*); every operand is
 *     cast to it (integers wrap, floats round to float32/float16/bfloat16) before the op;
 *     integer division and comparison results follow the op's own rule (true division of
 *     integers gives float32, comparisons give bool);
 *   - an in-place twin (add_, relu_, ...) computes like its functional op, checks that the
 *     result can be cast to self's dtype and that the broadcast shape is self's shape, writes
 *     through self's strides, and returns self (out[0] aliases in[0]);
 *   - floats compute in double and round once on store, except float32 exp, erf, sigmoid,
 *     tanh, silu, gelu and hardswish: k_act.h's float32 math (vectorised, a few ULP, as
 *     PyTorch's own float kernels), shared with the fused activations; integers compute in
 *     int64 with wrap-around (no signed overflow in C);
 *   - a Scalar operand may be MCK_INT, MCK_FLOAT or MCK_BOOL_ARG; in meta mode an MCK_UNKNOWN
 *     whose `n` holds the kind it will have (MCK_INT/MCK_FLOAT/MCK_BOOL_ARG, or 0 if not known).
 *
 * Kernel names: mck_<op> and mck_<op>_ for in-place twins. Helpers: mck_ew_*. mck.h comes first
 * wherever this is pasted or included; mc::add_act (the fuse pass's residual add + activation)
 * uses k_conv.h's activation helpers (pasted before this header).
 */
#ifndef MCK_ELEMENTWISE_H
#define MCK_ELEMENTWISE_H

#include "k_conv.h"

/* ---- helpers ----------------------------------------------------------------------------- */
/* A Scalar argument wrapped as a 0-dim tensor, so every operand is read the same way. */
typedef struct mck_ew_sc {
  mck_tensor t;
  double f;
  int64_t i;
  float f32;
  uint8_t b;
} mck_ew_sc;

/* Points *t at a's tensor, or wraps a Scalar in s. Returns 0, or -1 if a is neither. */
static inline int mck_ew_operand(const mck_arg *a, mck_ew_sc *s, const mck_tensor **t) {
  memset(&s->t, 0, sizeof s->t);
  if (a->kind == MCK_TENSOR && a->u.t) {
    *t = a->u.t;
    return 0;
  }
  if (a->kind == MCK_FLOAT) {
    s->f = a->u.f;
    s->t.data = &s->f;
    s->t.dtype = MCK_F64;
  } else if (a->kind == MCK_INT) {
    s->i = a->u.i;
    s->t.data = &s->i;
    s->t.dtype = MCK_I64;
  } else if (a->kind == MCK_BOOL_ARG) {
    s->b = a->u.i != 0;
    s->t.data = &s->b;
    s->t.dtype = MCK_BOOL;
  } else if (a->kind == MCK_UNKNOWN) {
    s->t.dtype = a->n == MCK_FLOAT ? MCK_F64 : a->n == MCK_BOOL_ARG ? MCK_BOOL : MCK_I64;
  } else {
    return -1;
  }
  *t = &s->t;
  return 0;
}

/* A wrapped Scalar operand of a float32 op is stored as float32 (fast path, and PyTorch's
 * rounding of the scalar to the common dtype). */
static inline void mck_ew_sc_to_f32(const mck_arg *a, mck_ew_sc *s, int cdt) {
  if (a->kind == MCK_TENSOR || cdt != MCK_F32 || !s->t.data) return;
  s->f32 = (float)mck_getf(&s->t, 0);
  s->t.data = &s->f32;
  s->t.dtype = MCK_F32;
}

/* Kind a Scalar argument has or will have (MCK_UNKNOWN resolved through `n`). */
static inline int mck_ew_scalar_kind(const mck_arg *a) {
  if (a->kind == MCK_UNKNOWN) return a->n ? a->n : MCK_INT;
  return a->kind;
}

static inline void mck_ew_promo_add(mck_promo *p, const mck_arg *a) {
  if (a->kind == MCK_UNKNOWN) {
    mck_arg k;
    memset(&k, 0, sizeof k);
    k.kind = mck_ew_scalar_kind(a);
    mck_promo_add(p, &k);
    return;
  }
  mck_promo_add(p, a);
}

/* Casts an integer to dtype dt as PyTorch's integral casts do (wrap-around). */
static inline int64_t mck_ew_wrap(int dt, int64_t v) {
  switch (dt) {
  case MCK_I32: return (int32_t)(uint32_t)(uint64_t)v;
  case MCK_I16: return (int16_t)(uint16_t)(uint64_t)v;
  case MCK_I8: return (int8_t)(uint8_t)(uint64_t)v;
  case MCK_U8: return (uint8_t)(uint64_t)v;
  case MCK_BOOL: return v != 0;
  default: return v;
  }
}
/* Rounds a double to the precision of floating dtype dt. */
static inline double mck_ew_round(int dt, double v) {
  switch (dt) {
  case MCK_F32: return (float)v;
  case MCK_F16: return mck_h2f(mck_f2h((float)v));
  case MCK_BF16: return mck_bf2f(mck_f2bf((float)v));
  default: return v;
  }
}
/* Element `off` of t as a value of dtype dt (int: wrapped; float: rounded). */
static inline double mck_ew_getf(const mck_tensor *t, int64_t off, int dt) {
  return mck_ew_round(dt, mck_getf(t, off));
}
static inline int64_t mck_ew_geti(const mck_tensor *t, int64_t off, int dt) {
  return mck_ew_wrap(dt, mck_geti(t, off));
}
/* torch.can_cast: float -> integral/bool and integral -> bool are refused. */
static inline int mck_ew_can_cast(int from, int to) {
  if (mck_is_float(from) && !mck_is_float(to)) return 0;
  if (from != MCK_BOOL && to == MCK_BOOL) return 0;
  return 1;
}
static inline int64_t mck_ew_uadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t mck_ew_umul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

static inline void mck_ew_shape_str(char *buf, size_t n, const mck_tensor *t) {
  size_t o = (size_t)snprintf(buf, n, "[");
  for (int d = 0; d < t->ndim && o < n; d++)
    o += (size_t)snprintf(buf + o, n - o, d ? ", %lld" : "%lld", (long long)t->shape[d]);
  if (o < n) snprintf(buf + o, n - o, "]");
}

/* Broadcasts the shapes of up to 3 operands. */
static inline int mck_ew_bcast(mck_ctx *c, const char *name, int nt, const mck_tensor *const *ts,
                               int *nd, int64_t *shape) {
  *nd = 0;
  /* shape (MCK_MAX_DIMS long) starts empty; filled so that no compiler sees it read unset */
  for (int d = 0; d < MCK_MAX_DIMS; d++) shape[d] = 1;
  for (int k = 0; k < nt; k++) {
    int64_t tmp[MCK_MAX_DIMS];
    int n2;
    if (mck_broadcast_shape(*nd, shape, ts[k]->ndim, ts[k]->shape, &n2, tmp) != 0) {
      char a[96], b[96];
      mck_tensor cur;
      memset(&cur, 0, sizeof cur);
      cur.ndim = *nd;
      for (int d = 0; d < *nd; d++) cur.shape[d] = shape[d];
      mck_ew_shape_str(a, sizeof a, &cur);
      mck_ew_shape_str(b, sizeof b, ts[k]);
      return mck_fail(c, "%s: shapes %s and %s cannot be broadcast together", name, a, b);
    }
    *nd = n2;
    for (int d = 0; d < n2; d++) shape[d] = tmp[d];
  }
  return 0;
}

/* Destination of an elementwise op: a fresh output, or self for an in-place twin (whose
 * shape must be the broadcast shape and whose dtype must accept the result). */
static inline int mck_ew_dest(mck_ctx *c, const char *name, mck_arg *out, int nout,
                              const mck_arg *in, int inplace, int dtype, int nd,
                              const int64_t *shape, mck_tensor **dst) {
  if (inplace) {
    mck_tensor *self = in[0].u.t;
    int same = self->ndim == nd;
    for (int d = 0; same && d < nd; d++) same = self->shape[d] == shape[d];
    if (!same) {
      char a[96], b[96];
      mck_tensor bt;
      memset(&bt, 0, sizeof bt);
      bt.ndim = nd;
      for (int d = 0; d < nd; d++) bt.shape[d] = shape[d];
      mck_ew_shape_str(a, sizeof a, self);
      mck_ew_shape_str(b, sizeof b, &bt);
      return mck_fail(c, "%s: output with shape %s doesn't match the broadcast shape %s", name, a, b);
    }
    if (!mck_ew_can_cast(dtype, self->dtype))
      return mck_fail(c, "%s: result type %s can't be cast to the desired output type %s", name,
                      mck_dtype_name(dtype), mck_dtype_name(self->dtype));
    if (nout > 0 && out[0].u.t) {
      out[0].kind = MCK_TENSOR;
      if (out[0].u.t != self) *out[0].u.t = *self;
    }
    *dst = self;
    return 0;
  }
  if (nout < 1 || out[0].kind != MCK_TENSOR || !out[0].u.t)
    return mck_fail(c, "%s: expects one tensor output", name);
  *dst = out[0].u.t;
  return mck_out(c, *dst, dtype, nd, shape);
}

/* ---- binary ops -------------------------------------------------------------------------- */
enum {
  MCK_EW_ADD, MCK_EW_SUB, MCK_EW_RSUB, MCK_EW_MUL, MCK_EW_DIV, MCK_EW_DIV_TRUNC,
  MCK_EW_DIV_FLOOR, MCK_EW_REM, MCK_EW_POW, MCK_EW_MAX, MCK_EW_MIN, MCK_EW_ATAN2,
  MCK_EW_EQ, MCK_EW_NE, MCK_EW_LT, MCK_EW_LE, MCK_EW_GT, MCK_EW_GE,
  MCK_EW_LAND, MCK_EW_LOR, MCK_EW_LXOR, MCK_EW_BAND, MCK_EW_BOR, MCK_EW_BXOR
};
static inline int mck_ew_is_cmp(int op) { return op >= MCK_EW_EQ && op <= MCK_EW_LXOR; }
static inline int mck_ew_is_bitwise(int op) { return op >= MCK_EW_BAND; }

/* c10::div_floor_floating */
static inline double mck_ew_floordiv_f(double a, double b) {
  if (b == 0) return a / b;
  double mod = fmod(a, b), div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
  if (div != 0) {
    double fl = floor(div);
    if (div - fl > 0.5) fl += 1.0;
    return fl;
  }
  return copysign(0.0, a / b);
}
static inline double mck_ew_rem_f(double a, double b) {
  double mod = fmod(a, b);
  if (mod != 0 && (b < 0) != (mod < 0)) mod += b;
  return mod;
}

static inline double mck_ew_bin_f(int op, double a, double b, double alpha) {
  switch (op) {
  case MCK_EW_ADD: return alpha == 1 ? a + b : a + alpha * b;
  case MCK_EW_SUB: return alpha == 1 ? a - b : a - alpha * b;
  case MCK_EW_RSUB: return alpha == 1 ? b - a : b - alpha * a;
  case MCK_EW_MUL: return a * b;
  case MCK_EW_DIV: return a / b;
  case MCK_EW_DIV_TRUNC: return trunc(a / b);
  case MCK_EW_DIV_FLOOR: return mck_ew_floordiv_f(a, b);
  case MCK_EW_REM: return mck_ew_rem_f(a, b);
  case MCK_EW_POW: return b == 2 ? a * a : b == 0.5 ? sqrt(a) : pow(a, b);
  case MCK_EW_MAX: return a != a ? a : b != b ? b : a > b ? a : b;
  case MCK_EW_MIN: return a != a ? a : b != b ? b : a < b ? a : b;
  case MCK_EW_ATAN2: return atan2(a, b);
  case MCK_EW_EQ: return a == b;
  case MCK_EW_NE: return a != b;
  case MCK_EW_LT: return a < b;
  case MCK_EW_LE: return a <= b;
  case MCK_EW_GT: return a > b;
  case MCK_EW_GE: return a >= b;
  case MCK_EW_LAND: return a != 0 && b != 0;
  case MCK_EW_LOR: return a != 0 || b != 0;
  case MCK_EW_LXOR: return (a != 0) != (b != 0);
  default: return 0;
  }
}

/* Integer op; *zero set on an integer division by zero. */
static inline int64_t mck_ew_bin_i(int op, int64_t a, int64_t b, int64_t alpha, int *zero) {
  switch (op) {
  case MCK_EW_ADD: return mck_ew_uadd(a, mck_ew_umul(alpha, b));
  case MCK_EW_SUB: return (int64_t)((uint64_t)a - (uint64_t)mck_ew_umul(alpha, b));
  case MCK_EW_RSUB: return (int64_t)((uint64_t)b - (uint64_t)mck_ew_umul(alpha, a));
  case MCK_EW_MUL: return mck_ew_umul(a, b);
  case MCK_EW_DIV_TRUNC:
  case MCK_EW_DIV_FLOOR:
  case MCK_EW_REM: {
    if (b == 0) {
      *zero = 1;
      return 0;
    }
    if (b == -1) return op == MCK_EW_REM ? 0 : (int64_t)(0 - (uint64_t)a);
    int64_t q = a / b, r = a % b;
    if (op == MCK_EW_DIV_TRUNC) return q;
    if (op == MCK_EW_DIV_FLOOR) return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  }
  case MCK_EW_POW: {
    if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
    int64_t r = 1;
    uint64_t e = (uint64_t)b;
    while (e) {
      if (e & 1) r = mck_ew_umul(r, a);
      a = mck_ew_umul(a, a);
      e >>= 1;
    }
    return r;
  }
  case MCK_EW_MAX: return a > b ? a : b;
  case MCK_EW_MIN: return a < b ? a : b;
  case MCK_EW_EQ: return a == b;
  case MCK_EW_NE: return a != b;
  case MCK_EW_LT: return a < b;
  case MCK_EW_LE: return a <= b;
  case MCK_EW_GT: return a > b;
  case MCK_EW_GE: return a >= b;
  case MCK_EW_LAND: return a != 0 && b != 0;
  case MCK_EW_LOR: return a != 0 || b != 0;
  case MCK_EW_LXOR: return (a != 0) != (b != 0);
  case MCK_EW_BAND: return a & b;
  case MCK_EW_BOR: return a | b;
  case MCK_EW_BXOR: return a ^ b;
  default: return 0;
  }
}

/* float32 rows: o[k*so] = a[k*sa] op b[k*sb]. */
static inline void mck_ew_row_f32(int op, float *o, int64_t so, const float *a, int64_t sa,
                                  const float *b, int64_t sb, int64_t n, double alpha) {
  int64_t k;
  float al = (float)alpha;
  switch (op) {
  case MCK_EW_ADD:
    if (alpha == 1) for (k = 0; k < n; k++) o[k * so] = a[k * sa] + b[k * sb];
    else for (k = 0; k < n; k++) o[k * so] = a[k * sa] + al * b[k * sb];
    break;
  case MCK_EW_SUB:
    if (alpha == 1) for (k = 0; k < n; k++) o[k * so] = a[k * sa] - b[k * sb];
    else for (k = 0; k < n; k++) o[k * so] = a[k * sa] - al * b[k * sb];
    break;
  case MCK_EW_MUL: for (k = 0; k < n; k++) o[k * so] = a[k * sa] * b[k * sb]; break;
  case MCK_EW_DIV: for (k = 0; k < n; k++) o[k * so] = a[k * sa] / b[k * sb]; break;
  default:
    for (k = 0; k < n; k++) o[k * so] = (float)mck_ew_bin_f(op, a[k * sa], b[k * sb], alpha);
    break;
  }
}

struct mck_ew_par;
static inline void mck_ew_un_row_f32(int op, float *po, const float *px, int64_t n,
                                     const struct mck_ew_par *p);

/* A flat float32 loop over n contiguous elements (unary op, binary op, or mc::add_act's add
 * then activation in 2048-element blocks), split into ranges across threads (k_conv.h's pool)
 * when n >= MCK_EW_PAR_MIN and c->nthreads > 1. Every element is computed as on one thread, so
 * results do not depend on the thread count. */
#define MCK_EW_PAR_MIN ((int64_t)1 << 16)
enum { MCK_EW_JOB_UNARY, MCK_EW_JOB_BINARY, MCK_EW_JOB_ADD_ACT };
typedef struct mck_ew_job {
  int kind, op, act;
  float *o;
  const float *a, *b;
  double alpha, lo, hi;
  const struct mck_ew_par *p;
  int64_t n, chunk;
} mck_ew_job;

static inline void mck_ew_job_range(const mck_ew_job *j, int64_t k0, int64_t m) {
  if (j->kind == MCK_EW_JOB_UNARY) {
    mck_ew_un_row_f32(j->op, j->o + k0, j->a + k0, m, j->p);
  } else if (j->kind == MCK_EW_JOB_BINARY) {
    mck_ew_row_f32(j->op, j->o + k0, 1, j->a + k0, 1, j->b + k0, 1, m, j->alpha);
  } else { /* the add, then the activation on the block while it is in L1 */
    for (int64_t k = k0; k < k0 + m; k += 2048) {
      int64_t q = k0 + m - k < 2048 ? k0 + m - k : 2048;
      mck_ew_row_f32(MCK_EW_ADD, j->o + k, 1, j->a + k, 1, j->b + k, 1, q, j->alpha);
      kconv_act_run(j->act, j->lo, j->hi, j->o + k, q, 1);
    }
  }
}
static inline void mck_ew_job_task(void *arg, int t) {
  const mck_ew_job *j = (const mck_ew_job *)arg;
  int64_t k0 = t * j->chunk;
  if (k0 < j->n) mck_ew_job_range(j, k0, j->n - k0 < j->chunk ? j->n - k0 : j->chunk);
}
/* Runs job j; `overlap`: the output shares storage with an input at another offset, so the
 * ranges must run in order (serially). */
static inline void mck_ew_job_run(mck_ctx *c, mck_ew_job *j, int overlap) {
  j->chunk = j->n;
#ifdef KCONV_THREADS
  int64_t nt = c->nthreads < KCONV_MAX_THREADS ? c->nthreads : KCONV_MAX_THREADS;
  if (nt > j->n / (MCK_EW_PAR_MIN / 2)) nt = j->n / (MCK_EW_PAR_MIN / 2);
  if (nt > 1 && !overlap) {
    j->chunk = ((j->n + nt - 1) / nt + 2047) / 2048 * 2048; /* whole add_act blocks */
    int ntasks = (int)((j->n + j->chunk - 1) / j->chunk);
    int ran = ntasks > 1 ? kconv_pool_run(ntasks, mck_ew_job_task, j) : 1;
    for (int t = ran > 1 ? ran : 0; t < ntasks; t++) mck_ew_job_task(j, t);
    return;
  }
#else
  (void)c;
  (void)overlap;
#endif
  mck_ew_job_range(j, 0, j->n);
}
static inline int mck_ew_overlap(const mck_tensor *o, const mck_tensor *a) {
  return o->data == a->data && o->offset != a->offset;
}

static inline const char *mck_ew_bin_name(int op) {
  static const char *const nm[] = {"add", "sub", "rsub", "mul", "div", "div", "div", "remainder",
                                   "pow", "maximum", "minimum", "atan2", "eq", "ne", "lt", "le",
                                   "gt", "ge", "logical_and", "logical_or", "logical_xor",
                                   "bitwise_and", "bitwise_or", "bitwise_xor"};
  return nm[op];
}

/* Scalar-Scalar arithmetic of scripted graphs (aten::add(int, int) -> int ...). */
static inline int mck_ew_bin_scalar(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int op,
                                    int floordiv) {
  /* as TorchScript: int // 0 and int % 0 raise; float ops and int / 0 give inf or nan */
  const char *name = mck_ew_bin_name(op);
  if (nout < 1) return mck_fail(c, "aten::%s: expects one output", name);
  int ka = mck_ew_scalar_kind(&in[0]), kb = mck_ew_scalar_kind(&in[1]);
  int isf = ka == MCK_FLOAT || kb == MCK_FLOAT;
  int kind;
  if (mck_ew_is_cmp(op) || (mck_ew_is_bitwise(op) && ka == MCK_BOOL_ARG && kb == MCK_BOOL_ARG))
    kind = MCK_BOOL_ARG;
  else if (op == MCK_EW_DIV || op == MCK_EW_POW || op == MCK_EW_ATAN2) kind = MCK_FLOAT;
  else kind = isf ? MCK_FLOAT : MCK_INT;
  if (in[0].kind == MCK_UNKNOWN || in[1].kind == MCK_UNKNOWN) {
    out[0].kind = MCK_UNKNOWN;
    out[0].n = kind;
    return 0;
  }
  out[0].kind = kind;
  if (kind == MCK_INT || (kind == MCK_BOOL_ARG && !isf)) {
    int zero = 0;
    out[0].u.i = mck_ew_bin_i(op, in[0].u.i, in[1].u.i, 1, &zero);
    if (zero) return mck_fail(c, "aten::%s: integer division by zero", floordiv ? "floordiv" : name);
  } else {
    double a = mck_arg_f(&in[0]), b = mck_arg_f(&in[1]);
    if (op == MCK_EW_REM && b == 0) {
      out[0].u.f = NAN;
      return 0;
    }
    double r = mck_ew_bin_f(op, a, b, 1);
    if (kind == MCK_BOOL_ARG) out[0].u.i = r != 0;
    else out[0].u.f = r;
  }
  return 0;
}

/* The binary kernel: op on in[0], in[1]; extra: alpha (in[2]) for add/sub/rsub. */
static inline int mck_ew_binary(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                                int op, int inplace) {
  const char *name = mck_ew_bin_name(op);
  if (nin < 2) return mck_fail(c, "aten::%s: expects two operands", name);
  int ta = in[0].kind == MCK_TENSOR, tb = in[1].kind == MCK_TENSOR;
  if (!ta && !tb) {
    if (in[0].kind == MCK_STR && in[1].kind == MCK_STR && (op == MCK_EW_EQ || op == MCK_EW_NE) &&
        nout > 0) {
      out[0].kind = MCK_BOOL_ARG;
      out[0].u.i = (strcmp(in[0].u.s, in[1].u.s) == 0) == (op == MCK_EW_EQ);
      return 0;
    }
    if ((mck_arg_is_scalar(&in[0]) || in[0].kind == MCK_UNKNOWN) &&
        (mck_arg_is_scalar(&in[1]) || in[1].kind == MCK_UNKNOWN) && !inplace)
      return mck_ew_bin_scalar(c, out, nout, in, op, 0);
    return mck_fail(c, "aten::%s: unsupported operand kinds %d and %d", name, in[0].kind, in[1].kind);
  }
  if (inplace && !ta) return mck_fail(c, "aten::%s_: self must be a tensor", name);
  mck_ew_sc sa, sb;
  const mck_tensor *A, *B;
  if (mck_ew_operand(&in[0], &sa, &A) || mck_ew_operand(&in[1], &sb, &B))
    return mck_fail(c, "aten::%s: operands must be tensors or scalars", name);
  mck_promo p;
  mck_promo_init(&p);
  mck_ew_promo_add(&p, &in[0]);
  mck_ew_promo_add(&p, &in[1]);
  int cdt = mck_promo_result(&p), odt = cdt;
  if (mck_ew_is_cmp(op)) odt = MCK_BOOL;
  else if ((op == MCK_EW_DIV || op == MCK_EW_ATAN2) && !mck_is_float(cdt)) odt = cdt = MCK_F32;
  mck_ew_sc_to_f32(&in[0], &sa, cdt);
  mck_ew_sc_to_f32(&in[1], &sb, cdt);
  /* a 0-dim tensor of another dtype (a traced Python constant is a double) next to float32
   * operands: promotion makes it a float32 value, so convert it once and keep the float path */
  mck_tensor za, zb;
  float fa, fb;
  if (cdt == MCK_F32 && !inplace && A->ndim == 0 && A->dtype != MCK_F32 && A->data) {
    fa = (float)mck_getf(A, A->offset);
    memset(&za, 0, sizeof za);
    za.data = &fa;
    za.dtype = MCK_F32;
    A = &za;
  }
  if (cdt == MCK_F32 && B->ndim == 0 && B->dtype != MCK_F32 && B->data) {
    fb = (float)mck_getf(B, B->offset);
    memset(&zb, 0, sizeof zb);
    zb.data = &fb;
    zb.dtype = MCK_F32;
    B = &zb;
  }
  if (mck_ew_is_bitwise(op) && mck_is_float(cdt))
    return mck_fail(c, "aten::%s: not implemented for %s", name, mck_dtype_name(cdt));
  if ((op == MCK_EW_SUB || op == MCK_EW_RSUB) && (A->dtype == MCK_BOOL || B->dtype == MCK_BOOL))
    return mck_fail(c, "aten::%s: subtraction with a bool tensor is not supported; use "
                       "logical_not or logical_xor", name);
  if (op == MCK_EW_POW && cdt == MCK_BOOL) return mck_fail(c, "aten::pow: not implemented for bool");
  double alpha = 1;
  int64_t ialpha = 1;
  if (nin > 2 && (op == MCK_EW_ADD || op == MCK_EW_SUB || op == MCK_EW_RSUB)) {
    if (mck_arg_is_scalar(&in[2])) {
      alpha = mck_arg_f(&in[2]);
      ialpha = in[2].kind == MCK_FLOAT ? mck_f2i_sat(in[2].u.f, INT64_MIN, INT64_MAX) : in[2].u.i;
    }
    if (!mck_is_float(cdt) && mck_ew_scalar_kind(&in[2]) == MCK_FLOAT)
      return mck_fail(c, "aten::%s: for integral input tensors, argument alpha must not be a "
                         "floating point number", name);
    if (cdt == MCK_BOOL && mck_arg_is_scalar(&in[2])) ialpha = ialpha != 0;
  }
  if (op == MCK_EW_POW && !mck_is_float(cdt) && !tb && in[1].kind == MCK_INT && in[1].u.i < 0)
    return mck_fail(c, "aten::pow: integers to negative integer powers are not allowed");
  const mck_tensor *ops3[2] = {A, B};
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (mck_ew_bcast(c, inplace ? "in-place binary op" : name, 2, ops3, &nd, shape)) return -1;
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, name, out, nout, in, inplace, odt, nd, shape, &o)) return -1;
  if (c->meta) return 0;

  int64_t so[MCK_MAX_DIMS], s1[MCK_MAX_DIMS], s2[MCK_MAX_DIMS];
  for (int d = 0; d < nd; d++) so[d] = o->stride[d];
  mck_broadcast_strides(A, nd, shape, s1);
  mck_broadcast_strides(B, nd, shape, s2);
  int64_t inner = nd > 0 ? shape[nd - 1] : 1;
  int64_t io = nd > 0 ? so[nd - 1] : 0, ia = nd > 0 ? s1[nd - 1] : 0, ib = nd > 0 ? s2[nd - 1] : 0;
  mck_iter it;
  const int64_t *sts[3] = {so, s1, s2};
  int64_t base[3] = {o->offset, A->offset, B->offset};
  mck_iter_init(&it, nd > 0 ? nd - 1 : 0, shape, 3, sts, base);
  if (inner == 0) return 0;
  int fast = o->dtype == MCK_F32 && A->dtype == MCK_F32 && B->dtype == MCK_F32 && cdt == MCK_F32 &&
             odt == MCK_F32;
  if (fast && mck_is_contiguous(o) && mck_is_contiguous(A) && mck_is_contiguous(B) &&
      mck_numel(A) == mck_numel(o) && mck_numel(B) == mck_numel(o)) {
    /* one flat row (threads for big tensors) */
    mck_ew_job j = {MCK_EW_JOB_BINARY, op, 0, (float *)o->data + o->offset,
                    (const float *)A->data + A->offset, (const float *)B->data + B->offset,
                    alpha, 0, 0, NULL, mck_numel(o), 0};
    mck_ew_job_run(c, &j, mck_ew_overlap(o, A) || mck_ew_overlap(o, B));
    return 0;
  }
  int zero = 0;
  for (int64_t r = 0; r < it.total; r++, mck_iter_next(&it)) {
    int64_t oo = it.off[0], oa = it.off[1], ob = it.off[2];
    if (fast) {
      mck_ew_row_f32(op, (float *)o->data + oo, io, (const float *)A->data + oa, ia,
                     (const float *)B->data + ob, ib, inner, alpha);
      continue;
    }
    for (int64_t k = 0; k < inner; k++, oo += io, oa += ia, ob += ib) {
      if (mck_is_float(cdt)) {
        double v = mck_ew_bin_f(op, mck_ew_getf(A, oa, cdt), mck_ew_getf(B, ob, cdt), alpha);
        mck_setf(o, oo, mck_is_float(odt) ? mck_ew_round(cdt, v) : v);
      } else {
        int64_t v = mck_ew_bin_i(op, mck_ew_geti(A, oa, cdt), mck_ew_geti(B, ob, cdt), ialpha, &zero);
        if (zero) return mck_fail(c, "aten::%s: ZeroDivisionError (integer division by zero)", name);
        mck_seti(o, oo, mck_is_float(odt) ? v : mck_ew_wrap(cdt, v));
      }
    }
  }
  return 0;
}

/* aten::div with rounding_mode (in[2]: MCK_STR "trunc"/"floor" or MCK_NONE). */
static inline int mck_ew_div(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                             int inplace) {
  int op = MCK_EW_DIV;
  if (nin > 2 && in[2].kind == MCK_STR) {
    if (!strcmp(in[2].u.s, "trunc")) op = MCK_EW_DIV_TRUNC;
    else if (!strcmp(in[2].u.s, "floor")) op = MCK_EW_DIV_FLOOR;
    else return mck_fail(c, "aten::div: rounding_mode must be None, 'trunc' or 'floor', not '%s'", in[2].u.s);
  } else if (nin > 2 && in[2].kind == MCK_UNKNOWN) {
    return mck_fail(c, "aten::div: rounding_mode must be a compile-time constant");
  }
  return mck_ew_binary(c, out, nout, in, 2, op, inplace);
}

#define MCK_EW_BINARY(fn, op)                                                                     \
  static inline int mck_##fn(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {     \
    return mck_ew_binary(c, out, nout, in, nin, op, 0);                                            \
  }                                                                                                \
  static inline int mck_##fn##_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {  \
    return mck_ew_binary(c, out, nout, in, nin, op, 1);                                            \
  }
MCK_EW_BINARY(add, MCK_EW_ADD)
MCK_EW_BINARY(sub, MCK_EW_SUB)
MCK_EW_BINARY(mul, MCK_EW_MUL)
MCK_EW_BINARY(remainder, MCK_EW_REM)
MCK_EW_BINARY(floor_divide, MCK_EW_DIV_FLOOR)
MCK_EW_BINARY(pow, MCK_EW_POW)
MCK_EW_BINARY(maximum, MCK_EW_MAX)
MCK_EW_BINARY(minimum, MCK_EW_MIN)
MCK_EW_BINARY(atan2, MCK_EW_ATAN2)
MCK_EW_BINARY(eq, MCK_EW_EQ)
MCK_EW_BINARY(ne, MCK_EW_NE)
MCK_EW_BINARY(lt, MCK_EW_LT)
MCK_EW_BINARY(le, MCK_EW_LE)
MCK_EW_BINARY(gt, MCK_EW_GT)
MCK_EW_BINARY(ge, MCK_EW_GE)
MCK_EW_BINARY(logical_and, MCK_EW_LAND)
MCK_EW_BINARY(logical_or, MCK_EW_LOR)
MCK_EW_BINARY(logical_xor, MCK_EW_LXOR)
MCK_EW_BINARY(bitwise_and, MCK_EW_BAND)
MCK_EW_BINARY(bitwise_or, MCK_EW_BOR)
MCK_EW_BINARY(bitwise_xor, MCK_EW_BXOR)
#undef MCK_EW_BINARY

static inline int mck_rsub(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_binary(c, out, nout, in, nin, MCK_EW_RSUB, 0);
}
static inline int mck_div(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_div(c, out, nout, in, nin, 0);
}
static inline int mck_div_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_div(c, out, nout, in, nin, 1);
}
/* aten::floordiv(int|float, int|float): Python's // on scalars. */
static inline int mck_floordiv(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 2 || in[0].kind == MCK_TENSOR || in[1].kind == MCK_TENSOR)
    return mck_fail(c, "aten::floordiv: expects two scalars");
  return mck_ew_bin_scalar(c, out, nout, in, MCK_EW_DIV_FLOOR, 1);
}

/* ---- unary ops --------------------------------------------------------------------------- */
enum {
  MCK_EW_NEG, MCK_EW_ABS, MCK_EW_RELU, MCK_EW_SIGN, MCK_EW_FLOOR, MCK_EW_CEIL, MCK_EW_ROUND,
  MCK_EW_TRUNC, MCK_EW_BNOT, MCK_EW_LNOT, MCK_EW_ISNAN, MCK_EW_COPY, MCK_EW_HARDTANH,
  MCK_EW_RELU6, /* ^ integers allowed, dtype kept (LNOT/ISNAN: bool) */
  MCK_EW_SIGMOID, MCK_EW_TANH, MCK_EW_EXP, MCK_EW_LOG, MCK_EW_LOG1P, MCK_EW_EXPM1, MCK_EW_SQRT,
  MCK_EW_RSQRT, MCK_EW_SIN, MCK_EW_COS, MCK_EW_ERF, MCK_EW_RECIP, /* ^ integers -> float32 */
  MCK_EW_GELU, MCK_EW_GELU_TANH, MCK_EW_SILU, MCK_EW_LEAKY, MCK_EW_ELU, MCK_EW_SOFTPLUS,
  MCK_EW_HSIGMOID, MCK_EW_HSWISH, MCK_EW_MISH, /* ^ floating only */
  MCK_EW_NUNARY
};

static inline const char *mck_ew_un_name(int op) {
  static const char *const nm[MCK_EW_NUNARY] = {
      "neg",   "abs",   "relu",  "sign",  "floor", "ceil",       "round",      "trunc",
      "bitwise_not", "logical_not", "isnan", "clone", "hardtanh", "relu6", "sigmoid", "tanh",
      "exp",   "log",   "log1p", "expm1", "sqrt",  "rsqrt",      "sin",        "cos",
      "erf",   "reciprocal", "gelu", "gelu", "silu", "leaky_relu", "elu",      "softplus",
      "hardsigmoid", "hardswish", "mish"};
  return nm[op];
}

/* Parameters of the parametrised activations. */
typedef struct mck_ew_par {
  double a, b, c; /* hardtanh: min, max; leaky: slope; elu: alpha, scale, input_scale;
                     softplus: beta, threshold; round: decimals */
} mck_ew_par;

static inline double mck_ew_un_f(int op, double x, const mck_ew_par *p) {
  switch (op) {
  case MCK_EW_NEG: return -x;
  case MCK_EW_ABS: return fabs(x);
  case MCK_EW_RELU: return x != x ? x : x > 0 ? x : 0;
  case MCK_EW_SIGN: return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
  case MCK_EW_FLOOR: return floor(x);
  case MCK_EW_CEIL: return ceil(x);
  case MCK_EW_ROUND: {
    if (p->a == 0) return nearbyint(x);
    double tp = pow(10.0, fabs(p->a));
    return p->a > 0 ? nearbyint(x * tp) / tp : nearbyint(x / tp) * tp;
  }
  case MCK_EW_TRUNC: return trunc(x);
  case MCK_EW_LNOT: return x == 0;
  case MCK_EW_ISNAN: return x != x;
  case MCK_EW_COPY: return x;
  case MCK_EW_HARDTANH:
  case MCK_EW_RELU6: return x != x ? x : x < p->a ? p->a : x > p->b ? p->b : x;
  case MCK_EW_SIGMOID: return 1.0 / (1.0 + exp(-x));
  case MCK_EW_TANH: return tanh(x);
  case MCK_EW_EXP: return exp(x);
  case MCK_EW_LOG: return log(x);
  case MCK_EW_LOG1P: return log1p(x);
  case MCK_EW_EXPM1: return expm1(x);
  case MCK_EW_SQRT: return sqrt(x);
  case MCK_EW_RSQRT: return 1.0 / sqrt(x);
  case MCK_EW_SIN: return sin(x);
  case MCK_EW_COS: return cos(x);
  case MCK_EW_ERF: return erf(x);
  case MCK_EW_RECIP: return 1.0 / x;
  case MCK_EW_GELU: return 0.5 * x * (1.0 + erf(x * 0.70710678118654752440));
  case MCK_EW_GELU_TANH: {
    double inner = 0.79788456080286535588 * (x + 0.044715 * x * x * x);
    return 0.5 * x * (1.0 + tanh(inner));
  }
  case MCK_EW_SILU: return x / (1.0 + exp(-x));
  case MCK_EW_LEAKY: return x > 0 ? x : x * p->a;
  case MCK_EW_ELU: return x > 0 ? x * p->b : p->b * p->a * expm1(x * p->c);
  case MCK_EW_SOFTPLUS: return x * p->a > p->b ? x : log1p(exp(x * p->a)) / p->a;
  case MCK_EW_HSIGMOID: return x <= -3 ? 0 : x >= 3 ? 1 : x / 6.0 + 0.5;
  case MCK_EW_HSWISH: {
    double t = x + 3.0;
    t = t < 0 ? 0 : t;
    t = t > 6 ? 6 : t;
    return x * t / 6.0;
  }
  case MCK_EW_MISH: return x * tanh(x > 20 ? x : log1p(exp(x)));
  default: return x;
  }
}
static inline int64_t mck_ew_un_i(int op, int64_t x, int dt, const mck_ew_par *p) {
  switch (op) {
  case MCK_EW_NEG: return (int64_t)(0 - (uint64_t)x);
  case MCK_EW_ABS: return x < 0 ? (int64_t)(0 - (uint64_t)x) : x;
  case MCK_EW_RELU: return x > 0 ? x : 0;
  case MCK_EW_SIGN: return x > 0 ? 1 : x < 0 ? -1 : 0;
  case MCK_EW_BNOT: return dt == MCK_BOOL ? !x : ~x;
  case MCK_EW_LNOT: return x == 0;
  case MCK_EW_ISNAN: return 0;
  case MCK_EW_HARDTANH:
  case MCK_EW_RELU6: {
    int64_t lo = mck_f2i_sat(p->a, INT64_MIN, INT64_MAX), hi = mck_f2i_sat(p->b, INT64_MIN, INT64_MAX);
    return x < lo ? lo : x > hi ? hi : x;
  }
  default: return x; /* floor, ceil, round, trunc, copy */
  }
}

/* The float32 function of k_act.h (kact_run_f32) that computes op, or -1. */
static inline int mck_ew_kact(int op) {
  switch (op) {
  case MCK_EW_SIGMOID: return KCONV_ACT_SIGMOID;
  case MCK_EW_TANH: return KCONV_ACT_TANH;
  case MCK_EW_SILU: return KCONV_ACT_SILU;
  case MCK_EW_HSWISH: return KCONV_ACT_HARDSWISH;
  case MCK_EW_GELU: return KCONV_ACT_GELU;
  case MCK_EW_GELU_TANH: return KCONV_ACT_GELU_TANH;
  case MCK_EW_EXP: return KACT_EXP;
  case MCK_EW_ERF: return KACT_ERF;
  default: return -1;
  }
}

/* float32 contiguous: po[k] = op(px[k]) for k < n (po may be px). */
static inline void mck_ew_un_row_f32(int op, float *po, const float *px, int64_t n,
                                     const mck_ew_par *p) {
  int f = mck_ew_kact(op);
  if (f >= 0) {
    kact_run_f32(f, po, 1, px, 1, n);
  } else if (op == MCK_EW_RELU) {
    for (int64_t k = 0; k < n; k++) po[k] = px[k] > 0 || px[k] != px[k] ? px[k] : 0.0f;
  } else if (op == MCK_EW_COPY) {
    memmove(po, px, (size_t)n * sizeof(float));
  } else {
    for (int64_t k = 0; k < n; k++) po[k] = (float)mck_ew_un_f(op, px[k], p);
  }
}

/* Scalar forms of scripted math (aten::neg(int), aten::floor(float) -> int, aten::sqrt(int)...). */
static inline int mck_ew_unary_scalar(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int op) {
  const char *name = mck_ew_un_name(op);
  if (nout < 1) return mck_fail(c, "aten::%s: expects one output", name);
  int k = mck_ew_scalar_kind(&in[0]), kind;
  if (op == MCK_EW_NEG || op == MCK_EW_ABS) kind = k == MCK_FLOAT ? MCK_FLOAT : MCK_INT;
  else if (op == MCK_EW_FLOOR || op == MCK_EW_CEIL) kind = MCK_INT;
  else if (op >= MCK_EW_SIGMOID || op == MCK_EW_ROUND) kind = MCK_FLOAT;
  else return mck_fail(c, "aten::%s: has no scalar form", name);
  out[0].kind = kind;
  if (in[0].kind == MCK_UNKNOWN) {
    out[0].kind = MCK_UNKNOWN;
    out[0].n = kind;
    return 0;
  }
  mck_ew_par p = {0, 0, 0};
  if (kind == MCK_INT && k != MCK_FLOAT) out[0].u.i = mck_ew_un_i(op, in[0].u.i, MCK_I64, &p);
  else if (kind == MCK_INT) {
    double r = mck_ew_un_f(op, in[0].u.f, &p);
    if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
      return mck_fail(c, "aten::%s: cannot convert float %g to an integer", name, r);
    out[0].u.i = (int64_t)r;
  } else out[0].u.f = mck_ew_un_f(op, mck_arg_f(&in[0]), &p);
  return 0;
}

static inline double mck_ew_param(const mck_arg *in, int nin, int k, double dflt) {
  return nin > k && mck_arg_is_scalar(&in[k]) ? mck_arg_f(&in[k]) : dflt;
}

static inline int mck_ew_unary(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                               int op, int inplace) {
  const char *name = mck_ew_un_name(op);
  if (nin < 1) return mck_fail(c, "aten::%s: expects an input", name);
  if (in[0].kind != MCK_TENSOR) {
    if ((mck_arg_is_scalar(&in[0]) || in[0].kind == MCK_UNKNOWN) && !inplace)
      return mck_ew_unary_scalar(c, out, nout, in, op);
    return mck_fail(c, "aten::%s: expects a tensor", name);
  }
  const mck_tensor *x = in[0].u.t;
  int idt = x->dtype, odt = idt;
  mck_ew_par p = {0, 0, 0};
  if (op == MCK_EW_LNOT || op == MCK_EW_ISNAN) {
    odt = MCK_BOOL;
  } else if (op >= MCK_EW_GELU) {
    if (!mck_is_float(idt)) return mck_fail(c, "aten::%s: not implemented for %s", name, mck_dtype_name(idt));
  } else if (op >= MCK_EW_SIGMOID) {
    if (!mck_is_float(idt)) odt = MCK_F32;
  } else if (op == MCK_EW_BNOT) {
    if (mck_is_float(idt)) return mck_fail(c, "aten::bitwise_not: not implemented for %s", mck_dtype_name(idt));
  } else if (idt == MCK_BOOL && op != MCK_EW_SIGN && op != MCK_EW_COPY) {
    return mck_fail(c, "aten::%s: not implemented for bool tensors", name);
  }
  int unknown = 0;
  for (int k = 1; k < nin; k++) unknown |= in[k].kind == MCK_UNKNOWN;
  switch (op) {
  case MCK_EW_HARDTANH: p.a = mck_ew_param(in, nin, 1, -1); p.b = mck_ew_param(in, nin, 2, 1); break;
  case MCK_EW_RELU6: p.a = 0; p.b = 6; break;
  case MCK_EW_LEAKY: p.a = mck_ew_param(in, nin, 1, 0.01); break;
  case MCK_EW_ELU:
    p.a = mck_ew_param(in, nin, 1, 1);
    p.b = mck_ew_param(in, nin, 2, 1);
    p.c = mck_ew_param(in, nin, 3, 1);
    break;
  case MCK_EW_SOFTPLUS: p.a = mck_ew_param(in, nin, 1, 1); p.b = mck_ew_param(in, nin, 2, 20); break;
  case MCK_EW_ROUND: p.a = mck_ew_param(in, nin, 1, 0); break;
  case MCK_EW_GELU:
    if (nin > 1 && in[1].kind == MCK_STR) {
      if (!strcmp(in[1].u.s, "tanh")) op = MCK_EW_GELU_TANH;
      else if (strcmp(in[1].u.s, "none"))
        return mck_fail(c, "aten::gelu: approximate must be 'none' or 'tanh', not '%s'", in[1].u.s);
    } else if (nin > 1 && in[1].kind == MCK_UNKNOWN) {
      return mck_fail(c, "aten::gelu: approximate must be a compile-time constant");
    }
    break;
  default: break;
  }
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, name, out, nout, in, inplace, odt, x->ndim, x->shape, &o)) return -1;
  if (c->meta || unknown) return c->meta ? 0 : mck_fail(c, "aten::%s: unknown parameter", name);
  int nd = x->ndim;
  int64_t n = mck_numel(x);
  if (n == 0) return 0;
  const int64_t *sts[2] = {o->stride, x->stride};
  int64_t base[2] = {o->offset, x->offset};
  if (o->dtype == MCK_F32 && idt == MCK_F32 && mck_is_contiguous(o) && mck_is_contiguous(x)) {
    mck_ew_job j = {MCK_EW_JOB_UNARY, op, 0, (float *)o->data + o->offset,
                    (const float *)x->data + x->offset, NULL, 0, 0, 0, &p, n, 0};
    mck_ew_job_run(c, &j, op == MCK_EW_COPY || mck_ew_overlap(o, x));
    return 0;
  }
  mck_iter it;
  mck_iter_init(&it, nd, x->shape, 2, sts, base);
  int fpath = mck_is_float(idt) || mck_is_float(odt);
  /* float32 strided: the same float math as the contiguous loop */
  int kf = idt == MCK_F32 && o->dtype == MCK_F32 ? mck_ew_kact(op) : -1;
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) {
    if (kf >= 0) mck_setf(o, it.off[0], kact_apply_s(kf, (float)mck_getf(x, it.off[1])));
    else if (fpath && op != MCK_EW_COPY) mck_setf(o, it.off[0], mck_ew_un_f(op, mck_getf(x, it.off[1]), &p));
    else if (fpath) mck_setf(o, it.off[0], mck_getf(x, it.off[1]));
    else mck_seti(o, it.off[0], mck_ew_un_i(op, mck_geti(x, it.off[1]), idt, &p));
  }
  return 0;
}

#define MCK_EW_UNARY(fn, op)                                                                      \
  static inline int mck_##fn(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {     \
    return mck_ew_unary(c, out, nout, in, nin, op, 0);                                             \
  }                                                                                                \
  static inline int mck_##fn##_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {  \
    return mck_ew_unary(c, out, nout, in, nin, op, 1);                                             \
  }
MCK_EW_UNARY(neg, MCK_EW_NEG)
MCK_EW_UNARY(abs, MCK_EW_ABS)
MCK_EW_UNARY(relu, MCK_EW_RELU)
MCK_EW_UNARY(sign, MCK_EW_SIGN)
MCK_EW_UNARY(floor, MCK_EW_FLOOR)
MCK_EW_UNARY(ceil, MCK_EW_CEIL)
MCK_EW_UNARY(round, MCK_EW_ROUND)
MCK_EW_UNARY(trunc, MCK_EW_TRUNC)
MCK_EW_UNARY(bitwise_not, MCK_EW_BNOT)
MCK_EW_UNARY(logical_not, MCK_EW_LNOT)
MCK_EW_UNARY(hardtanh, MCK_EW_HARDTANH)
MCK_EW_UNARY(relu6, MCK_EW_RELU6)
MCK_EW_UNARY(sigmoid, MCK_EW_SIGMOID)
MCK_EW_UNARY(tanh, MCK_EW_TANH)
MCK_EW_UNARY(exp, MCK_EW_EXP)
MCK_EW_UNARY(log, MCK_EW_LOG)
MCK_EW_UNARY(log1p, MCK_EW_LOG1P)
MCK_EW_UNARY(expm1, MCK_EW_EXPM1)
MCK_EW_UNARY(sqrt, MCK_EW_SQRT)
MCK_EW_UNARY(rsqrt, MCK_EW_RSQRT)
MCK_EW_UNARY(sin, MCK_EW_SIN)
MCK_EW_UNARY(cos, MCK_EW_COS)
MCK_EW_UNARY(erf, MCK_EW_ERF)
MCK_EW_UNARY(reciprocal, MCK_EW_RECIP)
MCK_EW_UNARY(gelu, MCK_EW_GELU)
MCK_EW_UNARY(silu, MCK_EW_SILU)
MCK_EW_UNARY(leaky_relu, MCK_EW_LEAKY)
MCK_EW_UNARY(elu, MCK_EW_ELU)
MCK_EW_UNARY(softplus, MCK_EW_SOFTPLUS)
MCK_EW_UNARY(hardsigmoid, MCK_EW_HSIGMOID)
MCK_EW_UNARY(hardswish, MCK_EW_HSWISH)
MCK_EW_UNARY(mish, MCK_EW_MISH)
#undef MCK_EW_UNARY

static inline int mck_isnan(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_unary(c, out, nout, in, nin, MCK_EW_ISNAN, 0);
}
/* clone(self, memory_format?): a contiguous copy. */
static inline int mck_clone(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_unary(c, out, nout, in, nin < 1 ? nin : 1, MCK_EW_COPY, 0);
}

/* ---- ternary: clamp, where, masked_fill -------------------------------------------------- */
/* clamp(self, min?, max?) with Scalar or Tensor bounds (clamp_min / clamp_max: which = 1 / 2). */
static inline int mck_ew_clamp(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                               int which, int inplace) {
  const char *name = which == 1 ? "clamp_min" : which == 2 ? "clamp_max" : "clamp";
  if (nin < 2 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  const mck_arg *lo = NULL, *hi = NULL;
  if (which == 1) lo = &in[1];
  else if (which == 2) hi = &in[1];
  else {
    lo = &in[1];
    hi = nin > 2 ? &in[2] : NULL;
  }
  if (lo && lo->kind == MCK_NONE) lo = NULL;
  if (hi && hi->kind == MCK_NONE) hi = NULL;
  if (!lo && !hi) return mck_fail(c, "aten::%s: at least one of 'min' or 'max' must not be None", name);
  mck_ew_sc s0, s1, s2;
  const mck_tensor *X, *L = NULL, *H = NULL;
  if (mck_ew_operand(&in[0], &s0, &X) || (lo && mck_ew_operand(lo, &s1, &L)) ||
      (hi && mck_ew_operand(hi, &s2, &H)))
    return mck_fail(c, "aten::%s: bounds must be scalars or tensors", name);
  mck_promo p;
  mck_promo_init(&p);
  mck_ew_promo_add(&p, &in[0]);
  if (lo) mck_ew_promo_add(&p, lo);
  if (hi) mck_ew_promo_add(&p, hi);
  int cdt = mck_promo_result(&p);
  /* bool: PyTorch clamps only with one bound that is a tensor (clamp_min/max.Tensor) */
  if (cdt == MCK_BOOL && !(!lo != !hi && (lo ? lo : hi)->kind == MCK_TENSOR))
    return mck_fail(c, "aten::%s: not implemented for bool", name);
  const mck_tensor *ts[3] = {X, L ? L : X, H ? H : X};
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (mck_ew_bcast(c, name, 3, ts, &nd, shape)) return -1;
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, name, out, nout, in, inplace, cdt, nd, shape, &o)) return -1;
  if (c->meta) return 0;
  int64_t st[4][MCK_MAX_DIMS];
  for (int d = 0; d < nd; d++) st[0][d] = o->stride[d];
  for (int k = 0; k < 3; k++) mck_broadcast_strides(ts[k], nd, shape, st[k + 1]);
  const int64_t *sts[4] = {st[0], st[1], st[2], st[3]};
  int64_t base[4] = {o->offset, X->offset, ts[1]->offset, ts[2]->offset};
  mck_iter it;
  mck_iter_init(&it, nd, shape, 4, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    if (mck_is_float(cdt)) {
      double v = mck_ew_getf(X, it.off[1], cdt);
      if (v == v) {
        if (L) {
          double l = mck_ew_getf(L, it.off[2], cdt);
          v = l != l ? l : v < l ? l : v;
        }
        if (H) {
          double h = mck_ew_getf(H, it.off[3], cdt);
          v = h != h ? h : v > h ? h : v;
        }
      }
      mck_setf(o, it.off[0], v);
    } else {
      int64_t v = mck_ew_geti(X, it.off[1], cdt);
      if (L) {
        int64_t l = mck_ew_geti(L, it.off[2], cdt);
        v = v < l ? l : v;
      }
      if (H) {
        int64_t h = mck_ew_geti(H, it.off[3], cdt);
        v = v > h ? h : v;
      }
      mck_seti(o, it.off[0], v);
    }
  }
  return 0;
}
static inline int mck_clamp(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_clamp(c, out, nout, in, nin, 0, 0);
}
static inline int mck_clamp_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_clamp(c, out, nout, in, nin, 0, 1);
}
static inline int mck_clamp_min(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_clamp(c, out, nout, in, nin, 1, 0);
}
static inline int mck_clamp_min_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_clamp(c, out, nout, in, nin, 1, 1);
}
static inline int mck_clamp_max(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_clamp(c, out, nout, in, nin, 2, 0);
}
static inline int mck_clamp_max_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_clamp(c, out, nout, in, nin, 2, 1);
}

/* where(cond, self, other): cond bool (or uint8), self/other tensors or scalars. */
static inline int mck_where(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin != 3 || in[0].kind != MCK_TENSOR)
    return mck_fail(c, "aten::where: only where(condition, self, other) is supported "
                       "(where(condition) has a data-dependent shape)");
  const mck_tensor *C = in[0].u.t, *A, *B;
  if (C->dtype != MCK_BOOL && C->dtype != MCK_U8)
    return mck_fail(c, "aten::where: condition must be a bool tensor, not %s", mck_dtype_name(C->dtype));
  mck_ew_sc sa, sb;
  if (mck_ew_operand(&in[1], &sa, &A) || mck_ew_operand(&in[2], &sb, &B))
    return mck_fail(c, "aten::where: self and other must be tensors or scalars");
  mck_promo p;
  mck_promo_init(&p);
  mck_ew_promo_add(&p, &in[1]);
  mck_ew_promo_add(&p, &in[2]);
  int odt = mck_promo_result(&p);
  const mck_tensor *ts[3] = {C, A, B};
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (mck_ew_bcast(c, "aten::where", 3, ts, &nd, shape)) return -1;
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, "where", out, nout, in, 0, odt, nd, shape, &o)) return -1;
  if (c->meta) return 0;
  int64_t st[4][MCK_MAX_DIMS];
  for (int d = 0; d < nd; d++) st[0][d] = o->stride[d];
  for (int k = 0; k < 3; k++) mck_broadcast_strides(ts[k], nd, shape, st[k + 1]);
  const int64_t *sts[4] = {st[0], st[1], st[2], st[3]};
  int64_t base[4] = {o->offset, C->offset, A->offset, B->offset};
  mck_iter it;
  mck_iter_init(&it, nd, shape, 4, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int sel = mck_geti(C, it.off[1]) != 0;
    const mck_tensor *src = sel ? A : B;
    int64_t off = sel ? it.off[2] : it.off[3];
    if (mck_is_float(odt)) mck_setf(o, it.off[0], mck_ew_getf(src, off, odt));
    else mck_seti(o, it.off[0], mck_ew_geti(src, off, odt));
  }
  return 0;
}

/* c10::checked_convert, as fill_/masked_fill_/full apply it to their value: an integral value
 * may wrap into uint8 (down to -255) but must fit other integer types; a floating value must
 * fit the destination's range (inf and NaN are fine for floating destinations). */
static inline int mck_ew_check_range(mck_ctx *c, const char *name, int dt, const mck_tensor *v) {
  static const double lo[MCK_NDTYPES] = {-3.4028234663852886e38, 0, -65504, 0, -9.2233720368547758e18,
                                         -2147483648.0, -32768, -128, 0, 0};
  static const double hi[MCK_NDTYPES] = {3.4028234663852886e38, 0, 65504, 0, 9.2233720368547758e18,
                                         2147483647.0, 32767, 127, 255, 0};
  if (!v->data || dt == MCK_BOOL || dt == MCK_F64 || dt == MCK_BF16 || v->dtype == MCK_BOOL) return 0;
  int bad;
  if (!mck_is_float(v->dtype)) {
    int64_t x = mck_geti(v, v->offset);
    if (dt == MCK_I64) bad = 0;
    else if (dt == MCK_U8) bad = x > 255 || x < -255;
    else bad = (double)x < lo[dt] || (double)x > hi[dt];
  } else {
    double x = mck_getf(v, v->offset);
    if (mck_is_float(dt)) bad = !isinf(x) && x == x && (x < lo[dt] || x > hi[dt]);
    else bad = x != x || x < lo[dt] || x > hi[dt];
  }
  if (bad)
    return mck_fail(c, "aten::%s: value cannot be converted to type %s without overflow", name,
                    mck_dtype_name(dt));
  return 0;
}

/* masked_fill(self, mask, value): value a Scalar or a 0-dim tensor, cast to self's dtype. */
static inline int mck_ew_masked_fill(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                     int nin, int inplace) {
  const char *name = inplace ? "masked_fill_" : "masked_fill";
  if (nin < 3 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR)
    return mck_fail(c, "aten::%s: expects (Tensor self, Tensor mask, Scalar value)", name);
  const mck_tensor *X = in[0].u.t, *M = in[1].u.t, *V;
  if (M->dtype != MCK_BOOL && M->dtype != MCK_U8)
    return mck_fail(c, "aten::%s: mask must be a bool tensor, not %s", name, mck_dtype_name(M->dtype));
  mck_ew_sc sv;
  if (mck_ew_operand(&in[2], &sv, &V)) return mck_fail(c, "aten::%s: value must be a scalar or a tensor", name);
  if (V->ndim != 0)
    return mck_fail(c, "aten::%s: only supports a 0-dimensional value tensor, but got a tensor "
                       "with %d dimensions", name, V->ndim);
  if (mck_ew_check_range(c, name, X->dtype, V)) return -1;
  const mck_tensor *ts[2] = {X, M};
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (mck_ew_bcast(c, name, 2, ts, &nd, shape)) return -1;
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, name, out, nout, in, inplace, X->dtype, nd, shape, &o)) return -1;
  if (c->meta) return 0;
  double fv = mck_getf(V, V->offset);
  int64_t iv = mck_geti(V, V->offset);
  if (X->dtype == MCK_BOOL && mck_is_float(V->dtype)) iv = fv != 0; /* as PyTorch: NaN and 0.5 are True */
  int64_t st[3][MCK_MAX_DIMS];
  for (int d = 0; d < nd; d++) st[0][d] = o->stride[d];
  mck_broadcast_strides(X, nd, shape, st[1]);
  mck_broadcast_strides(M, nd, shape, st[2]);
  const int64_t *sts[3] = {st[0], st[1], st[2]};
  int64_t base[3] = {o->offset, X->offset, M->offset};
  mck_iter it;
  if (X->dtype == MCK_F32 && o->dtype == MCK_F32 && nd > 0) {
    /* float32 (an attention mask): rows of the innermost dim through plain pointers; the value
     * rounds to float as mck_setf would */
    float v = (float)fv;
    int64_t inner = shape[nd - 1], so = st[0][nd - 1], sx = st[1][nd - 1], sm = st[2][nd - 1];
    mck_iter_init(&it, nd - 1, shape, 3, sts, base);
    for (int64_t r = 0; r < it.total; r++, mck_iter_next(&it)) {
      float *po = (float *)o->data + it.off[0];
      const float *px = (const float *)X->data + it.off[1];
      const uint8_t *pm = (const uint8_t *)M->data + it.off[2];
      for (int64_t k = 0; k < inner; k++) po[k * so] = pm[k * sm] ? v : px[k * sx];
    }
    return 0;
  }
  mck_iter_init(&it, nd, shape, 3, sts, base);
  int fl = mck_is_float(X->dtype);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int m = mck_geti(M, it.off[2]) != 0;
    if (fl) mck_setf(o, it.off[0], m ? fv : mck_getf(X, it.off[1]));
    else mck_seti(o, it.off[0], m ? iv : mck_geti(X, it.off[1]));
  }
  return 0;
}
static inline int mck_masked_fill(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_masked_fill(c, out, nout, in, nin, 0);
}
static inline int mck_masked_fill_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_masked_fill(c, out, nout, in, nin, 1);
}

/* ---- casts, copies, fills ---------------------------------------------------------------- */
/* Copies src (broadcast to dst's shape) into dst, converting the dtype. */
static inline void mck_ew_copy_into(mck_tensor *dst, const mck_tensor *src) {
  int nd = dst->ndim;
  int64_t ss[MCK_MAX_DIMS];
  mck_broadcast_strides(src, nd, dst->shape, ss);
  const int64_t *sts[2] = {dst->stride, ss};
  int64_t base[2] = {dst->offset, src->offset};
  mck_iter it;
  mck_iter_init(&it, nd, dst->shape, 2, sts, base);
  int fl = mck_is_float(dst->dtype) || mck_is_float(src->dtype);
  if (dst->dtype == src->dtype && mck_is_contiguous(dst) && mck_is_contiguous(src) &&
      mck_numel(dst) == mck_numel(src)) {
    size_t sz = mck_dtype_size(dst->dtype);
    memmove((char *)dst->data + (size_t)dst->offset * sz, (const char *)src->data + (size_t)src->offset * sz,
            (size_t)mck_numel(dst) * sz);
    return;
  }
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    if (fl) mck_setf(dst, it.off[0], mck_getf(src, it.off[1]));
    else mck_seti(dst, it.off[0], mck_geti(src, it.off[1]));
  }
}

/* Reads a `ScalarType? dtype` argument: dtype, `dflt` for None; -1 with a message otherwise. */
static inline int mck_ew_dtype_arg(mck_ctx *c, const char *name, const mck_arg *a, int dflt) {
  if (!a || a->kind == MCK_NONE) return dflt;
  if (a->kind == MCK_UNKNOWN) return mck_fail(c, "aten::%s: dtype must be a compile-time constant", name);
  if (a->kind != MCK_INT) return mck_fail(c, "aten::%s: dtype must be an int (ScalarType) or None", name);
  int dt = mck_dtype_from_scalar_type(a->u.i);
  if (dt < 0) return mck_fail(c, "aten::%s: unsupported ScalarType code %lld", name, (long long)a->u.i);
  return dt;
}

/* aten::to, every overload (a fresh copy, also when the dtype does not change):
 *   to.dtype(self, int dtype, bool non_blocking, bool copy, int? memory_format)
 *   to.device(self, Device device, int dtype, bool, bool, int?)
 *   to.other(self, Tensor other, bool, bool, int?)
 *   to.dtype_layout(self, int? dtype, int? layout, Device? device, bool? pin, bool, bool, int?)
 *   to.prim_Device(self, Device? device, int? dtype, bool, bool)
 *   to.prim_dtype(self, int? dtype, bool, bool)
 *   to.prim_other(self, bool non_blocking, bool copy) */
static inline int mck_to(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::to: expects a tensor");
  const mck_tensor *x = in[0].u.t;
  int dt = x->dtype;
  if (nin > 1) {
    const mck_arg *d = NULL;
    if (in[1].kind == MCK_TENSOR) dt = in[1].u.t->dtype;
    else if (in[1].kind == MCK_BOOL_ARG) d = NULL;
    else if (nin == 8) d = &in[1];
    else if (in[1].kind == MCK_DEVICE || (in[1].kind == MCK_NONE && nin >= 5)) d = nin > 2 ? &in[2] : NULL;
    else d = &in[1];
    if (d) {
      dt = mck_ew_dtype_arg(c, "to", d, x->dtype);
      if (dt < 0) return -1;
    }
  }
  if (nout < 1 || !out[0].u.t) return mck_fail(c, "aten::to: expects one tensor output");
  if (mck_out(c, out[0].u.t, dt, x->ndim, x->shape)) return -1;
  if (!c->meta) mck_ew_copy_into(out[0].u.t, x);
  return 0;
}
/* type_as(self, other): self cast to other's dtype. */
static inline int mck_type_as(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin != 2 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR)
    return mck_fail(c, "aten::type_as: expects two tensors");
  return mck_to(c, out, nout, in, 2);
}

/* dropout(input, p, train) and its feature/alpha variants: inference only (identity). */
static inline int mck_ew_dropout(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                                 int inplace) {
  if (nin < 3 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::dropout: expects (Tensor, float p, bool train)");
  if (in[2].kind == MCK_UNKNOWN) return mck_fail(c, "aten::dropout: train must be a compile-time constant");
  double p = mck_arg_is_scalar(&in[1]) ? mck_arg_f(&in[1]) : 0;
  if (in[2].u.i && p != 0)
    return mck_fail(c, "aten::dropout: training mode (train=True, p=%g) is random; mc compiles "
                       "inference graphs only (call model.eval())", p);
  const mck_tensor *x = in[0].u.t;
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, "dropout", out, nout, in, inplace, x->dtype, x->ndim, x->shape, &o)) return -1;
  if (!c->meta && !inplace) mck_ew_copy_into(o, x);
  return 0;
}
static inline int mck_dropout(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_dropout(c, out, nout, in, nin, 0);
}
static inline int mck_dropout_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_dropout(c, out, nout, in, nin, 1);
}

/* fill(self, value) / fill_ / zero / zero_: value a Scalar or a 0-dim tensor. */
static inline int mck_ew_fill(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                              int zero, int inplace) {
  const char *name = zero ? "zero" : "fill";
  if (nin < (zero ? 1 : 2) || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  const mck_tensor *x = in[0].u.t;
  double fv = 0;
  int64_t iv = 0;
  if (!zero) {
    mck_ew_sc sv;
    const mck_tensor *V;
    if (mck_ew_operand(&in[1], &sv, &V)) return mck_fail(c, "aten::fill: value must be a scalar or a tensor");
    if (V->ndim != 0)
      return mck_fail(c, "aten::fill_: only supports 0-dimension value tensor but got tensor "
                         "with %d dimensions", V->ndim);
    if (mck_ew_check_range(c, name, x->dtype, V)) return -1;
    if (!c->meta && in[1].kind != MCK_UNKNOWN) {
      fv = mck_getf(V, V->offset);
      iv = mck_geti(V, V->offset);
      if (x->dtype == MCK_BOOL && mck_is_float(V->dtype)) iv = fv != 0; /* as PyTorch: NaN and 0.5 are True */
    }
  }
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, name, out, nout, in, inplace, x->dtype, x->ndim, x->shape, &o)) return -1;
  if (c->meta) return 0;
  int64_t n = mck_numel(o);
  mck_iter it;
  const int64_t *sts[1] = {o->stride};
  int64_t base[1] = {o->offset};
  mck_iter_init(&it, o->ndim, o->shape, 1, sts, base);
  int fl = mck_is_float(o->dtype);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) {
    if (fl) mck_setf(o, it.off[0], fv);
    else mck_seti(o, it.off[0], iv);
  }
  return 0;
}
static inline int mck_fill(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_fill(c, out, nout, in, nin, 0, 0);
}
static inline int mck_fill_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_fill(c, out, nout, in, nin, 0, 1);
}
static inline int mck_zero(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_fill(c, out, nout, in, nin, 1, 0);
}
static inline int mck_zero_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_fill(c, out, nout, in, nin, 1, 1);
}

/* ---- creation ---------------------------------------------------------------------------- */
/* Reads a size list (int[]) into shape. */
static inline int mck_ew_size_arg(mck_ctx *c, const char *name, const mck_arg *a, int *nd,
                                  int64_t *shape) {
  if (a->kind == MCK_UNKNOWN) return mck_fail(c, "aten::%s: size must be a compile-time constant", name);
  if (a->kind == MCK_INT) {
    *nd = 1;
    shape[0] = a->u.i;
  } else if (a->kind == MCK_INTS) {
    if (a->n > MCK_MAX_DIMS) return mck_fail(c, "aten::%s: at most %d dimensions", name, MCK_MAX_DIMS);
    *nd = a->n;
    for (int d = 0; d < a->n; d++) shape[d] = a->u.ints[d];
  } else {
    return mck_fail(c, "aten::%s: size must be a list of ints", name);
  }
  for (int d = 0; d < *nd; d++)
    if (shape[d] < 0)
      return mck_fail(c, "aten::%s: trying to create tensor with negative dimension %lld", name,
                      (long long)shape[d]);
  return 0;
}
/* dtype that a fill value of full() gives when dtype is None. */
static inline int mck_ew_value_dtype(const mck_arg *v) {
  int k = mck_ew_scalar_kind(v);
  return v->kind == MCK_TENSOR ? v->u.t->dtype : k == MCK_FLOAT ? MCK_F32 : k == MCK_BOOL_ARG ? MCK_BOOL : MCK_I64;
}
static inline int mck_ew_make(mck_ctx *c, mck_arg *out, int nout, const char *name, int dt, int nd,
                              const int64_t *shape, const mck_arg *value, double fvalue) {
  if (nout < 1 || !out[0].u.t) return mck_fail(c, "aten::%s: expects one tensor output", name);
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, dt, nd, shape)) return -1;
  if (value && mck_arg_is_scalar(value)) {
    mck_ew_sc sv;
    const mck_tensor *V;
    if (mck_ew_operand(value, &sv, &V) == 0 && mck_ew_check_range(c, name, dt, V)) return -1;
  }
  if (c->meta) return 0;
  if (value && value->kind == MCK_UNKNOWN) return mck_fail(c, "aten::%s: fill value unknown", name);
  double fv = value ? mck_arg_f(value) : fvalue;
  int64_t iv = value ? (value->kind == MCK_FLOAT ? mck_f2i_sat(value->u.f, INT64_MIN, INT64_MAX) : value->u.i)
                     : mck_f2i_sat(fvalue, INT64_MIN, INT64_MAX);
  int64_t n = mck_numel(o);
  if (dt == MCK_F32 && fv == 0) {
    memset((float *)o->data + o->offset, 0, (size_t)n * sizeof(float));
    return 0;
  }
  for (int64_t k = 0; k < n; k++) {
    if (mck_is_float(dt)) mck_setf(o, o->offset + k, fv);
    else mck_seti(o, o->offset + k, iv);
  }
  return 0;
}

/* zeros/ones/empty(int[] size, int? dtype, int? layout, Device? device, bool? pin[, memory_format]) */
static inline int mck_ew_const_new(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                                   const char *name, double v) {
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (nin < 1 || mck_ew_size_arg(c, name, &in[0], &nd, shape)) return nin < 1 ? mck_fail(c, "aten::%s: missing size", name) : -1;
  int dt = mck_ew_dtype_arg(c, name, nin > 1 ? &in[1] : NULL, MCK_F32);
  if (dt < 0) return -1;
  return mck_ew_make(c, out, nout, name, dt, nd, shape, NULL, v);
}
static inline int mck_zeros(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_const_new(c, out, nout, in, nin, "zeros", 0);
}
static inline int mck_ones(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_const_new(c, out, nout, in, nin, "ones", 1);
}
static inline int mck_empty(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_const_new(c, out, nout, in, nin, "empty", 0);
}
/* full(int[] size, Scalar fill_value, int? dtype, ...) */
static inline int mck_full(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (nin < 2) return mck_fail(c, "aten::full: expects (size, fill_value, ...)");
  if (mck_ew_size_arg(c, "full", &in[0], &nd, shape)) return -1;
  int dt = mck_ew_dtype_arg(c, "full", nin > 2 ? &in[2] : NULL, mck_ew_value_dtype(&in[1]));
  if (dt < 0) return -1;
  return mck_ew_make(c, out, nout, "full", dt, nd, shape, &in[1], 0);
}
/* zeros_like/ones_like/empty_like(self, int? dtype, ...); full_like(self, value, int? dtype, ...) */
static inline int mck_ew_like(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                              const char *name, const mck_arg *value, double v, int dtype_at) {
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  const mck_tensor *x = in[0].u.t;
  int dt = mck_ew_dtype_arg(c, name, nin > dtype_at ? &in[dtype_at] : NULL, x->dtype);
  if (dt < 0) return -1;
  return mck_ew_make(c, out, nout, name, dt, x->ndim, x->shape, value, v);
}
static inline int mck_zeros_like(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_like(c, out, nout, in, nin, "zeros_like", NULL, 0, 1);
}
static inline int mck_ones_like(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_like(c, out, nout, in, nin, "ones_like", NULL, 1, 1);
}
static inline int mck_empty_like(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_like(c, out, nout, in, nin, "empty_like", NULL, 0, 1);
}
static inline int mck_full_like(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 2) return mck_fail(c, "aten::full_like: expects (self, fill_value, ...)");
  return mck_ew_like(c, out, nout, in, nin, "full_like", &in[1], 0, 2);
}
/* new_zeros/new_ones/new_empty(self, int[] size, int? dtype, ...); new_full(self, size, value, dtype?) */
static inline int mck_ew_new(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                             const char *name, const mck_arg *value, double v, int dtype_at) {
  if (nin < 2 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects (self, size, ...)", name);
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (mck_ew_size_arg(c, name, &in[1], &nd, shape)) return -1;
  int dt = mck_ew_dtype_arg(c, name, nin > dtype_at ? &in[dtype_at] : NULL, in[0].u.t->dtype);
  if (dt < 0) return -1;
  return mck_ew_make(c, out, nout, name, dt, nd, shape, value, v);
}
static inline int mck_new_zeros(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_new(c, out, nout, in, nin, "new_zeros", NULL, 0, 2);
}
static inline int mck_new_ones(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_new(c, out, nout, in, nin, "new_ones", NULL, 1, 2);
}
static inline int mck_new_empty(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return mck_ew_new(c, out, nout, in, nin, "new_empty", NULL, 0, 2);
}
static inline int mck_new_full(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 3) return mck_fail(c, "aten::new_full: expects (self, size, fill_value, ...)");
  return mck_ew_new(c, out, nout, in, nin, "new_full", &in[2], 0, 3);
}
/* scalar_tensor(Scalar s, int? dtype, ...): 0-dim, float32 unless dtype says otherwise. */
static inline int mck_scalar_tensor(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 1 || !(mck_arg_is_scalar(&in[0]) || in[0].kind == MCK_UNKNOWN))
    return mck_fail(c, "aten::scalar_tensor: expects a scalar");
  int dt = mck_ew_dtype_arg(c, "scalar_tensor", nin > 1 ? &in[1] : NULL, MCK_F32);
  if (dt < 0) return -1;
  return mck_ew_make(c, out, nout, "scalar_tensor", dt, 0, NULL, &in[0], 0);
}

/* arange(end, dtype?, layout?, device?, pin?) / (start, end, dtype?, ...) /
 * (start, end, step, dtype?, ...): dtype None -> int64 if every bound is an int, else float32. */
static inline int mck_arange(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  int nsc = nin >= 7 ? 3 : nin == 6 ? 2 : nin == 5 ? 1 : nin < 3 ? nin : 3;
  if (nsc < 1) return mck_fail(c, "aten::arange: missing end");
  double v[3] = {0, 0, 1};
  int anyf = 0;
  for (int k = 0; k < nsc; k++) {
    const mck_arg *a = &in[k];
    if (a->kind == MCK_UNKNOWN)
      return mck_fail(c, "aten::arange: start/end/step must be compile-time constants");
    if (a->kind == MCK_TENSOR && a->u.t->ndim == 0 && a->u.t->data) {
      anyf |= mck_is_float(a->u.t->dtype);
      v[nsc == 1 ? 1 : k] = mck_getf(a->u.t, a->u.t->offset);
      continue;
    }
    if (!mck_arg_is_scalar(a)) return mck_fail(c, "aten::arange: start/end/step must be scalars");
    anyf |= a->kind == MCK_FLOAT;
    v[nsc == 1 ? 1 : k] = mck_arg_f(a);
  }
  int dt = mck_ew_dtype_arg(c, "arange", nin > nsc ? &in[nsc] : NULL, anyf ? MCK_F32 : MCK_I64);
  if (dt < 0) return -1;
  double start = v[0], end = v[1], step = v[2];
  double xs = start, xe = end, xst = step; /* ATen's accscalar_t values */
  if (!mck_is_float(dt)) {
    xs = trunc(start);
    xe = trunc(end);
    xst = trunc(step);
  }
  if (xst == 0) return mck_fail(c, "aten::arange: step must be nonzero");
  if ((xst > 0 && xe < xs) || (xst < 0 && xe > xs))
    return mck_fail(c, "aten::arange: upper bound and larger bound inconsistent with step sign");
  double nd = dt == MCK_I64 ? ceil((xe - xs) / xst) : ceil((end - start) / step);
  if (!(nd >= 0 && nd < 9.0e15)) return mck_fail(c, "aten::arange: invalid size %g", nd);
  int64_t n = (int64_t)nd;
  /* integer results are computed in int64 (wrapping, as ATen's int64 accumulator does), from
   * bounds that must be int64 values */
  if (!mck_is_float(dt) && !(xs >= -9223372036854775808.0 && xs < 9223372036854775808.0 &&
                             xst >= -9223372036854775808.0 && xst < 9223372036854775808.0))
    return mck_fail(c, "aten::arange: start %g or step %g is out of the range of int64", xs, xst);
  if (nout < 1 || !out[0].u.t) return mck_fail(c, "aten::arange: expects one tensor output");
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, dt, 1, &n)) return -1;
  if (c->meta) return 0;
  for (int64_t k = 0; k < n; k++) {
    if (mck_is_float(dt)) mck_setf(o, o->offset + k, xs + xst * (double)k);
    else mck_seti(o, o->offset + k, (int64_t)((uint64_t)(int64_t)xs + (uint64_t)(int64_t)xst * (uint64_t)k));
  }
  return 0;
}

/* linspace(start, end, int steps, dtype?, ...): ATen's two-sided formula. */
static inline int mck_linspace(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 3) return mck_fail(c, "aten::linspace: expects (start, end, steps, ...)");
  for (int k = 0; k < 3; k++)
    if (!mck_arg_is_scalar(&in[k]))
      return mck_fail(c, "aten::linspace: start, end and steps must be compile-time constants");
  if (in[2].kind != MCK_INT || in[2].u.i < 0) return mck_fail(c, "aten::linspace: number of steps must be non-negative");
  int dt = mck_ew_dtype_arg(c, "linspace", nin > 3 ? &in[3] : NULL, MCK_F32);
  if (dt < 0) return -1;
  int64_t n = in[2].u.i;
  if (nout < 1 || !out[0].u.t) return mck_fail(c, "aten::linspace: expects one tensor output");
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, dt, 1, &n)) return -1;
  if (c->meta) return 0;
  double start = mck_arg_f(&in[0]), end = mck_arg_f(&in[1]);
  if (!mck_is_float(dt)) {
    start = (double)mck_f2i_sat(start, INT64_MIN, INT64_MAX);
    end = (double)mck_f2i_sat(end, INT64_MIN, INT64_MAX);
  }
  if (n == 1) {
    mck_setf(o, o->offset, start);
    return 0;
  }
  int64_t half = n / 2;
  if (dt == MCK_F32) {
    float s = (float)start, e = (float)end, st = (e - s) / (float)(n - 1);
    for (int64_t k = 0; k < n; k++)
      ((float *)o->data)[o->offset + k] = k < half ? s + st * (float)k : e - st * (float)(n - k - 1);
    return 0;
  }
  double st = (end - start) / (double)(n - 1);
  for (int64_t k = 0; k < n; k++)
    mck_setf(o, o->offset + k, k < half ? start + st * (double)k : end - st * (double)(n - k - 1));
  return 0;
}

/* tensor(t[] data, int? dtype, Device? device, bool requires_grad): a flat list, or a scalar. */
static inline int mck_tensor_from_data(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 1) return mck_fail(c, "aten::tensor: missing data");
  const mck_arg *a = &in[0];
  int dflt, nd = 1;
  int64_t n;
  if (a->kind == MCK_INTS) dflt = MCK_I64;
  else if (a->kind == MCK_FLOATS) dflt = MCK_F32;
  else if (a->kind == MCK_BOOLS) dflt = MCK_BOOL;
  else if (mck_arg_is_scalar(a) || a->kind == MCK_UNKNOWN) {
    int k = mck_ew_scalar_kind(a);
    dflt = k == MCK_FLOAT ? MCK_F32 : k == MCK_BOOL_ARG ? MCK_BOOL : MCK_I64;
    nd = 0;
  } else {
    return mck_fail(c, "aten::tensor: data must be a flat list of numbers or a number");
  }
  n = nd ? a->n : 1;
  int dt = mck_ew_dtype_arg(c, "tensor", nin > 1 ? &in[1] : NULL, dflt);
  if (dt < 0) return -1;
  if (nout < 1 || !out[0].u.t) return mck_fail(c, "aten::tensor: expects one tensor output");
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, dt, nd, &n)) return -1;
  if (c->meta) return 0;
  if (a->kind == MCK_UNKNOWN) return mck_fail(c, "aten::tensor: value unknown");
  for (int64_t k = 0; k < n; k++) {
    if (a->kind == MCK_FLOATS) mck_setf(o, o->offset + k, a->u.floats[k]);
    else if (a->kind == MCK_INTS || a->kind == MCK_BOOLS) mck_seti(o, o->offset + k, a->u.ints[k]);
    else if (a->kind == MCK_FLOAT) mck_setf(o, o->offset, a->u.f);
    else mck_seti(o, o->offset, a->u.i);
  }
  return 0;
}

/* mc::add_act(self, other, alpha, act, a, b) = act(self + alpha * other), made by the fuse pass
 * (act as in k_conv.h's kconv_act_code). float32 operands of one shape, contiguous, run in
 * blocks of 2048 elements: the add, then the activation on the block while it is in L1; other
 * cases run aten::add's kernel and then the activation. */
static inline int mck_add_act(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  int act;
  double lo, hi;
  if (nin < 6 || nout < 1) return mck_fail(c, "mc::add_act: expects 6 inputs and an output");
  if (kconv_act_args(c, "mc::add_act", &in[3], &in[4], &in[5], &act, &lo, &hi)) return -1;
  if (in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR || !mck_arg_is_scalar(&in[2]))
    return mck_fail(c, "mc::add_act: expects two tensors and a scalar alpha");
  const mck_tensor *a = in[0].u.t, *b = in[1].u.t;
  mck_tensor *o = out[0].u.t;
  int same = a->ndim == b->ndim;
  for (int d = 0; same && d < a->ndim; d++) same = a->shape[d] == b->shape[d];
  if (!c->meta && same && a->dtype == MCK_F32 && b->dtype == MCK_F32 && o->dtype == MCK_F32 &&
      o->ndim == a->ndim && mck_is_contiguous(a) && mck_is_contiguous(b) && mck_is_contiguous(o) &&
      mck_numel(o) == mck_numel(a)) {
    mck_ew_job j = {MCK_EW_JOB_ADD_ACT, MCK_EW_ADD, act, (float *)o->data + o->offset,
                    (const float *)a->data + a->offset, (const float *)b->data + b->offset,
                    mck_arg_f(&in[2]), lo, hi, NULL, mck_numel(o), 0};
    mck_ew_job_run(c, &j, mck_ew_overlap(o, a) || mck_ew_overlap(o, b));
    return 0;
  }
  if (mck_ew_binary(c, out, nout, in, 3, MCK_EW_ADD, 0)) return -1;
  if (!mck_is_float(o->dtype)) return mck_fail(c, "mc::add_act: activations need a floating dtype");
  if (c->meta || act == KCONV_ACT_NONE) return 0;
  int64_t n = mck_numel(o);
  if (o->dtype == MCK_F32) {
    kconv_act_run(act, lo, hi, (float *)o->data + o->offset, n, 1);
  } else {
    for (int64_t i = 0; i < n; i++)
      mck_setf(o, o->offset + i, kconv_act_f(act, mck_getf(o, o->offset + i), lo, hi));
  }
  return 0;
}

#endif
