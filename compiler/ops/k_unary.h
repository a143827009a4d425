/* k_unary.h — the elementwise family's unary math and activations, clamp, where, masked_fill,
 * dtype casts, copies and fills (k_elementwise.h states the conventions).
 */
#ifndef MCK_UNARY_H
#define MCK_UNARY_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_binary.h"

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
#ifdef KACT_NEON
  } else if (op == MCK_EW_RELU) { /* k_act.h's NEON loops: the same values as mck_ew_un_f's */
    kact_clamp_f32(KCONV_ACT_RELU, 0.0f, 0.0f, po, px, n);
  } else if (op == MCK_EW_HARDTANH || op == MCK_EW_RELU6) {
    kact_clamp_f32(KCONV_ACT_HARDTANH, (float)p->a, (float)p->b, po, px, n);
#endif
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

/* An op's kernel pre##fn and its in-place twin pre##fn##_, both calling one worker
 * worker(c, out, nout, in, nin, arg, inplace) (the unary and math families' ops). One level of
 * macro: the kernel library's tree-shaker reads the names a call pastes. */
#define MCK_EW_PAIR(pre, fn, worker, arg)                                                         \
  static inline int pre##fn(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {      \
    return worker(c, out, nout, in, nin, arg, 0);                                                  \
  }                                                                                                \
  static inline int pre##fn##_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {   \
    return worker(c, out, nout, in, nin, arg, 1);                                                  \
  }
MCK_EW_PAIR(mck_, neg, mck_ew_unary, MCK_EW_NEG)
MCK_EW_PAIR(mck_, abs, mck_ew_unary, MCK_EW_ABS)
MCK_EW_PAIR(mck_, relu, mck_ew_unary, MCK_EW_RELU)
MCK_EW_PAIR(mck_, sign, mck_ew_unary, MCK_EW_SIGN)
MCK_EW_PAIR(mck_, floor, mck_ew_unary, MCK_EW_FLOOR)
MCK_EW_PAIR(mck_, ceil, mck_ew_unary, MCK_EW_CEIL)
MCK_EW_PAIR(mck_, round, mck_ew_unary, MCK_EW_ROUND)
MCK_EW_PAIR(mck_, trunc, mck_ew_unary, MCK_EW_TRUNC)
MCK_EW_PAIR(mck_, bitwise_not, mck_ew_unary, MCK_EW_BNOT)
MCK_EW_PAIR(mck_, logical_not, mck_ew_unary, MCK_EW_LNOT)
MCK_EW_PAIR(mck_, hardtanh, mck_ew_unary, MCK_EW_HARDTANH)
MCK_EW_PAIR(mck_, relu6, mck_ew_unary, MCK_EW_RELU6)
MCK_EW_PAIR(mck_, sigmoid, mck_ew_unary, MCK_EW_SIGMOID)
MCK_EW_PAIR(mck_, tanh, mck_ew_unary, MCK_EW_TANH)
MCK_EW_PAIR(mck_, exp, mck_ew_unary, MCK_EW_EXP)
MCK_EW_PAIR(mck_, log, mck_ew_unary, MCK_EW_LOG)
MCK_EW_PAIR(mck_, log1p, mck_ew_unary, MCK_EW_LOG1P)
MCK_EW_PAIR(mck_, expm1, mck_ew_unary, MCK_EW_EXPM1)
MCK_EW_PAIR(mck_, sqrt, mck_ew_unary, MCK_EW_SQRT)
MCK_EW_PAIR(mck_, rsqrt, mck_ew_unary, MCK_EW_RSQRT)
MCK_EW_PAIR(mck_, sin, mck_ew_unary, MCK_EW_SIN)
MCK_EW_PAIR(mck_, cos, mck_ew_unary, MCK_EW_COS)
MCK_EW_PAIR(mck_, erf, mck_ew_unary, MCK_EW_ERF)
MCK_EW_PAIR(mck_, reciprocal, mck_ew_unary, MCK_EW_RECIP)
MCK_EW_PAIR(mck_, gelu, mck_ew_unary, MCK_EW_GELU)
MCK_EW_PAIR(mck_, silu, mck_ew_unary, MCK_EW_SILU)
MCK_EW_PAIR(mck_, leaky_relu, mck_ew_unary, MCK_EW_LEAKY)
MCK_EW_PAIR(mck_, elu, mck_ew_unary, MCK_EW_ELU)
MCK_EW_PAIR(mck_, softplus, mck_ew_unary, MCK_EW_SOFTPLUS)
MCK_EW_PAIR(mck_, hardsigmoid, mck_ew_unary, MCK_EW_HSIGMOID)
MCK_EW_PAIR(mck_, hardswish, mck_ew_unary, MCK_EW_HSWISH)
MCK_EW_PAIR(mck_, mish, mck_ew_unary, MCK_EW_MISH)

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
    return mck_fail(c, "aten::where: where(condition, self, other) takes a tensor condition "
                       "(one-argument where is rewritten to nonzero before any kernel runs)");
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
MCK_EW_PAIR(mck_, fill, mck_ew_fill, 0)
MCK_EW_PAIR(mck_, zero, mck_ew_fill, 1)

#endif
