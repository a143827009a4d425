/* k_binary.h — the elementwise family's helpers (operands, broadcasting, promotion, the
 * destination of in-place twins; prefix mck_ew_) and its binary ops: arithmetic, comparison and
 * logic, Tensor-Tensor, Tensor-Scalar and scalar-scalar, mc::add_act. k_elementwise.h states
 * the conventions.
 */
#ifndef MCK_BINARY_H
#define MCK_BINARY_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_act.h"    /* the float32 activations mc::add_act fuses, kconv_act_args */
#include "k_thread.h" /* kconv_pool_run */

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
    if (in[0].kind == MCK_INTS && in[1].kind == MCK_INTS && (op == MCK_EW_EQ || op == MCK_EW_NE) && nout > 0) {
      int eq = in[0].n == in[1].n; /* int lists computed at run time (`x.size() != (b, 8)`) */
      for (int i = 0; eq && i < in[0].n; i++) eq = in[0].u.ints[i] == in[1].u.ints[i];
      out[0].kind = MCK_BOOL_ARG;
      out[0].u.i = eq == (op == MCK_EW_EQ);
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

#endif
