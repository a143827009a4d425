/* k_math.h — kernels of the math family: unary and binary math beyond the elementwise core
 * (inverse and hyperbolic trigonometry, log10/log2/exp2, erfc/erfinv, sinc, logit, finite
 * tests), activations with parameters (celu, selu, glu, log_sigmoid, threshold, prelu, rrelu in
 * eval mode, hardshrink, softshrink), binary math (fmod, hypot, copysign, xlogy, logaddexp,
 * float_power, heaviside, nextafter, ldexp, gcd, lcm, shifts) and the ternary lerp, addcmul and
 * addcdiv.
 *
 * Invariants, as in PyTorch 1.13 on the CPU:
 *   - every op accepts the input dtypes PyTorch's CPU kernel is dispatched for and refuses the
 *     others (float16 is refused by most of them, as PyTorch 1.13 does); functions with a
 *     floating result compute integer and bool inputs as float32;
 *   - the common dtype of binary and ternary ops is torch.result_type (mck_promo_*), operands
 *     are cast to it, broadcasting and in-place checks are k_elementwise.h's (mck_ew_bcast,
 *     mck_ew_dest), whose helpers this header uses (it is pasted after k_elementwise.h);
 *   - floats compute in double and round once on store; where PyTorch rounds an intermediate
 *     to the tensor's dtype and the result depends on it (logit's clamp bounds and quotient,
 *     sinc's pi * x, the parameters of threshold and the shrink functions, ldexp's power of
 *     two, each step of addcmul/addcdiv) the kernel rounds there too (km_r); erfinv in
 *     float32/bfloat16 follows PyTorch's float algorithm (Newton steps in float), since its
 *     float result differs from the exact one near +-1;
 *   - integers compute in int64 with wrap-around and no undefined behaviour. Shifts follow
 *     what PyTorch 1.13 computes on x86-64 CPUs, where its C++ `a << b` / `a >> b` meet the
 *     hardware: operands narrower than int32 are promoted to a 32-bit int, the count is taken
 *     modulo the width of the promoted type (b & 31, or b & 63 for int64; a negative count too:
 *     int64 x << -1 is x << 63), left shifts wrap into the dtype, right shifts are arithmetic
 *     (uint8: logical). TorchScript's int << int has the same rule (b & 63). fmod of integers
 *     is C's %, refused for a zero divisor (ZeroDivisionError); x fmod -1 is 0 (PyTorch's
 *     INT64_MIN fmod -1 crashes with SIGFPE).
 *
 * Kernel names: km_<op> and km_<op>_ for in-place twins. Helpers: km_*.
 */
#ifndef MC_K_MATH_H
#define MC_K_MATH_H

#include "mck.h"
#include "k_elementwise.h"

/* ---- dtype sets ------------------------------------------------------------------------------ */
#define KM_DT(d) (1u << (d))
#define KM_FLT (KM_DT(MCK_F32) | KM_DT(MCK_F64) | KM_DT(MCK_BF16)) /* PyTorch's FLOATING_TYPES_AND(BFloat16) */
#define KM_HALF KM_DT(MCK_F16)
#define KM_INTS (KM_DT(MCK_I64) | KM_DT(MCK_I32) | KM_DT(MCK_I16) | KM_DT(MCK_I8) | KM_DT(MCK_U8))
#define KM_BOOL KM_DT(MCK_BOOL)
#define KM_ALL (KM_FLT | KM_HALF | KM_INTS | KM_BOOL)

enum { KM_O_SAME, KM_O_FLOAT, KM_O_BOOL, KM_O_F64 }; /* result dtype: input's, float32 for
                                                       integers, bool, float64 */

/* v rounded to the precision of floating dtype dt (an intermediate PyTorch keeps in dt). */
static inline double km_r(int dt, double v) { return mck_ew_round(dt, v); }

static inline int km_fail_dtype(mck_ctx *c, const char *name, int dt) {
  return mck_fail(c, "aten::%s: not implemented for %s", name, mck_dtype_name(dt));
}

/* A Scalar parameter at in[k] (default dflt when absent or None); *unknown set when its value
 * is not known yet (meta mode). */
static inline double km_param(const mck_arg *in, int nin, int k, double dflt, int *unknown) {
  if (nin <= k || in[k].kind == MCK_NONE) return dflt;
  if (in[k].kind == MCK_UNKNOWN) {
    *unknown = 1;
    return dflt;
  }
  if (in[k].kind == MCK_TENSOR && in[k].u.t && in[k].u.t->data && mck_numel(in[k].u.t) == 1)
    return mck_getf(in[k].u.t, in[k].u.t->offset);
  return mck_arg_is_scalar(&in[k]) ? mck_arg_f(&in[k]) : dflt;
}

/* ---- erfinv -------------------------------------------------------------------------------- */
/* PyTorch's calc_erfinv (c10 Math.h): a rational first guess, then two Newton steps. */
static inline double km_erfinv_d(double y) {
  static const double a[4] = {0.886226899, -1.645349621, 0.914624893, -0.140543331};
  static const double b[4] = {-2.118377725, 1.442710462, -0.329097515, 0.012229801};
  static const double cc[4] = {-1.970840454, -1.624906493, 3.429567803, 1.641345311};
  static const double d[2] = {3.543889200, 1.637067800};
  double ya = fabs(y), x, z, num, dem;
  if (ya > 1.0) return NAN;
  if (ya == 1.0) return copysign(INFINITY, y);
  if (ya <= 0.7) {
    z = y * y;
    num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
    dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0;
    x = y * num / dem;
  } else {
    z = sqrt(-log((1.0 - ya) / 2.0));
    num = ((cc[3] * z + cc[2]) * z + cc[1]) * z + cc[0];
    dem = (d[1] * z + d[0]) * z + 1.0;
    x = copysign(num, y) / dem;
  }
  x = x - (erf(x) - y) / (1.12837916709551257390 * exp(-x * x));
  x = x - (erf(x) - y) / (1.12837916709551257390 * exp(-x * x));
  return x;
}
/* The same in float, as PyTorch computes float32 (and bfloat16, through float). */
static inline float km_erfinv_f32(float y) {
  static const float a[4] = {0.886226899f, -1.645349621f, 0.914624893f, -0.140543331f};
  static const float b[4] = {-2.118377725f, 1.442710462f, -0.329097515f, 0.012229801f};
  static const float cc[4] = {-1.970840454f, -1.624906493f, 3.429567803f, 1.641345311f};
  static const float d[2] = {3.543889200f, 1.637067800f};
  const float k = 2.0f / (float)1.77245385090551602730; /* 2 / sqrt(pi), rounded as PyTorch */
  float ya = fabsf(y), x, z, num, dem;
  if (ya > 1.0f) return NAN;
  if (ya == 1.0f) return copysignf(INFINITY, y);
  if (ya <= 0.7f) {
    z = y * y;
    num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
    dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0f;
    x = y * num / dem;
  } else {
    z = sqrtf(-logf((1.0f - ya) / 2.0f));
    num = ((cc[3] * z + cc[2]) * z + cc[1]) * z + cc[0];
    dem = (d[1] * z + d[0]) * z + 1.0f;
    x = copysignf(num, y) / dem;
  }
  x = x - (erff(x) - y) / (k * expf(-x * x));
  x = x - (erff(x) - y) / (k * expf(-x * x));
  return x;
}

/* ---- unary ops ----------------------------------------------------------------------------- */
enum {
  KM_ACOS, KM_ASIN, KM_ATAN, KM_COSH, KM_SINH, KM_TAN, KM_ACOSH, KM_ASINH, KM_ATANH, KM_LOG10,
  KM_LOG2, KM_EXP2, KM_ERFC, KM_ERFINV, KM_SINC, KM_LOGIT, KM_DEG2RAD, KM_RAD2DEG, KM_FRAC,
  KM_LOGSIG, KM_HARDSHRINK, KM_SOFTSHRINK, KM_THRESHOLD, KM_NAN_TO_NUM, KM_SIGNBIT, KM_ISFINITE,
  KM_ISINF, KM_ISPOSINF, KM_ISNEGINF, KM_ISREAL, KM_NUNARY
};
typedef struct km_uinfo {
  const char *name;
  unsigned dtypes; /* accepted input dtypes */
  int out;         /* KM_O_* */
  int scalar;      /* has a scalar form: 1 -> float (acos.float), 2 -> bool (isinf.float) */
} km_uinfo;
static inline const km_uinfo *km_uinfo_of(int op) {
  static const km_uinfo u[KM_NUNARY] = {
      {"acos", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"asin", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"atan", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"cosh", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"sinh", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"tan", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"acosh", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"asinh", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"atanh", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"log10", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"log2", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 0},
      {"exp2", KM_ALL, KM_O_FLOAT, 0},
      {"erfc", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 1},
      {"erfinv", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 0},
      {"sinc", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 0},
      {"logit", KM_FLT | KM_INTS | KM_BOOL, KM_O_FLOAT, 0},
      {"deg2rad", KM_ALL, KM_O_FLOAT, 0},
      {"rad2deg", KM_ALL, KM_O_FLOAT, 0},
      {"frac", KM_FLT | KM_HALF, KM_O_SAME, 0},
      {"log_sigmoid", KM_FLT, KM_O_SAME, 0},
      {"hardshrink", KM_FLT, KM_O_SAME, 0},
      {"softshrink", KM_FLT, KM_O_SAME, 0},
      {"threshold", KM_FLT | KM_INTS, KM_O_SAME, 0},
      {"nan_to_num", KM_ALL, KM_O_SAME, 0},
      {"signbit", KM_ALL, KM_O_BOOL, 0},
      {"isfinite", KM_ALL, KM_O_BOOL, 2},
      {"isinf", KM_ALL, KM_O_BOOL, 2},
      {"isposinf", KM_ALL, KM_O_BOOL, 0},
      {"isneginf", KM_ALL, KM_O_BOOL, 0},
      {"isreal", KM_ALL, KM_O_BOOL, 0},
  };
  return &u[op];
}

/* Parameters: logit eps (a, used when b != 0); shrink lambd (a); threshold (a), value (b);
 * nan_to_num nan (a), posinf (b), neginf (c). */
typedef struct km_upar {
  double a, b, c;
} km_upar;

/* Largest finite value of floating dtype dt (nan_to_num's default replacements). */
static inline double km_max_finite(int dt) {
  switch (dt) {
  case MCK_F32: return 3.4028234663852886e38;
  case MCK_F16: return 65504.0;
  case MCK_BF16: return 3.3895313892515355e38;
  default: return 1.7976931348623157e308;
  }
}

/* op(x) for a floating result; dt: the dtype the op computes in (float32 for integers). */
static inline double km_un_f(int op, double x, const km_upar *p, int dt) {
  switch (op) {
  case KM_ACOS: return acos(x);
  case KM_ASIN: return asin(x);
  case KM_ATAN: return atan(x);
  case KM_COSH: return cosh(x);
  case KM_SINH: return sinh(x);
  case KM_TAN: return tan(x);
  case KM_ACOSH: return acosh(x);
  case KM_ASINH: return asinh(x);
  case KM_ATANH: return atanh(x);
  case KM_LOG10: return log10(x);
  case KM_LOG2: return log2(x);
  case KM_EXP2: return exp2(x);
  case KM_ERFC: return erfc(x);
  case KM_ERFINV: return dt == MCK_F64 ? km_erfinv_d(x) : (double)km_erfinv_f32((float)x);
  case KM_SINC: { /* the product pi * x in dt, as PyTorch's */
    if (x == 0) return 1.0;
    double px = km_r(dt, km_r(dt, 3.14159265358979323846) * x);
    return km_r(dt, sin(px)) / px; /* bfloat16: std::sin gives a bfloat16 too */
  }
  case KM_LOGIT: {
    if (p->b != 0) { /* eps >= 0: clamp to [eps, 1 - eps] (bounds in dt), as PyTorch's vector
                        loop: eps > 0.5 gives 1 - eps everywhere */
      double lo = km_r(dt, p->a), hi = km_r(dt, 1.0 - lo);
      x = x != x ? x : x < lo ? lo : x;
      x = x != x ? x : x > hi ? hi : x;
    }
    if (x == 1) return INFINITY;
    return log(km_r(dt, x / km_r(dt, 1.0 - x)));
  }
  case KM_DEG2RAD: return x * km_r(dt, 0.017453292519943295);
  case KM_RAD2DEG: return x * km_r(dt, 57.295779513082323);
  case KM_FRAC: return x - trunc(x);
  case KM_LOGSIG: return x < 0 ? x - log1p(exp(x)) : -log1p(exp(-x));
  case KM_HARDSHRINK: {
    double l = km_r(dt, p->a);
    return x >= -l && x <= l ? 0.0 : x;
  }
  case KM_SOFTSHRINK: {
    double l = km_r(dt, p->a);
    return x > l ? km_r(dt, x - l) : x < -l ? km_r(dt, x + l) : 0.0;
  }
  case KM_THRESHOLD: return x <= km_r(dt, p->a) ? p->b : x;
  case KM_NAN_TO_NUM: return x != x ? p->a : x == INFINITY ? p->b : x == -INFINITY ? p->c : x;
  default: return x;
  }
}
/* op(x) for a bool result: x read as a double (floats), or ix (integers and bool). */
static inline int km_un_b(int op, int isf, double x, int64_t ix) {
  switch (op) {
  case KM_SIGNBIT: return isf ? signbit(x) != 0 : ix < 0;
  case KM_ISFINITE: return isf ? isfinite(x) != 0 : 1;
  case KM_ISINF: return isf ? isinf(x) != 0 : 0;
  case KM_ISPOSINF: return isf && x == INFINITY;
  case KM_ISNEGINF: return isf && x == -INFINITY;
  default: return 1; /* isreal: every real tensor */
  }
}

/* Scalar forms of scripted math (aten::acos.float(float a) -> float, isinf.float -> bool). */
static inline int km_unary_scalar(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int op) {
  const km_uinfo *u = km_uinfo_of(op);
  if (nout < 1) return mck_fail(c, "aten::%s: expects one output", u->name);
  int kind = u->scalar == 2 ? MCK_BOOL_ARG : MCK_FLOAT;
  if (in[0].kind == MCK_UNKNOWN) {
    out[0].kind = MCK_UNKNOWN;
    out[0].n = kind;
    return 0;
  }
  double x = mck_arg_f(&in[0]);
  km_upar p = {0, 0, 0};
  out[0].kind = kind;
  if (kind == MCK_BOOL_ARG) out[0].u.i = km_un_b(op, 1, x, 0);
  else out[0].u.f = km_un_f(op, x, &p, MCK_F64);
  return 0;
}

/* The unary kernel (in[1..]: the op's parameters). */
static inline int km_unary(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int op,
                           int inplace) {
  const km_uinfo *u = km_uinfo_of(op);
  if (nin < 1) return mck_fail(c, "aten::%s: expects an input", u->name);
  if (in[0].kind != MCK_TENSOR) {
    if (u->scalar && !inplace && (mck_arg_is_scalar(&in[0]) || in[0].kind == MCK_UNKNOWN))
      return km_unary_scalar(c, out, nout, in, op);
    return mck_fail(c, "aten::%s: expects a tensor", u->name);
  }
  const mck_tensor *x = in[0].u.t;
  int idt = x->dtype;
  if (!(u->dtypes & KM_DT(idt))) return km_fail_dtype(c, u->name, idt);
  int odt = u->out == KM_O_BOOL ? MCK_BOOL : u->out == KM_O_FLOAT && !mck_is_float(idt) ? MCK_F32 : idt;
  int cdt = mck_is_float(idt) ? idt : MCK_F32; /* the dtype a floating result computes in */
  km_upar p = {0, 0, 0};
  int unknown = 0;
  int64_t ith = 0, ival = 0; /* threshold on integers */
  switch (op) {
  case KM_LOGIT: {
    double eps = km_param(in, nin, 1, -1, &unknown);
    p.a = eps;
    p.b = eps >= 0;
    break;
  }
  case KM_HARDSHRINK:
  case KM_SOFTSHRINK:
    p.a = km_param(in, nin, 1, 0.5, &unknown);
    if (op == KM_SOFTSHRINK && !unknown && p.a < 0)
      return mck_fail(c, "aten::softshrink: lambda must be greater or equal to 0, but found to be %g", p.a);
    break;
  case KM_THRESHOLD: {
    if (nin < 3) return mck_fail(c, "aten::threshold: expects (self, threshold, value)");
    p.a = km_param(in, nin, 1, 0, &unknown);
    p.b = km_param(in, nin, 2, 0, &unknown);
    for (int k = 1; k <= 2 && !unknown; k++) {
      mck_ew_sc s;
      const mck_tensor *V;
      if (mck_ew_operand(&in[k], &s, &V)) return mck_fail(c, "aten::threshold: threshold and value must be numbers");
      if (mck_ew_check_range(c, "threshold", idt, V)) return -1;
    }
    if (!mck_is_float(idt)) {
      ith = in[1].kind == MCK_INT ? in[1].u.i : mck_f2i_sat(p.a, INT64_MIN, INT64_MAX);
      ival = in[2].kind == MCK_INT ? in[2].u.i : mck_f2i_sat(p.b, INT64_MIN, INT64_MAX);
    }
    p.b = km_r(idt, p.b);
    break;
  }
  case KM_NAN_TO_NUM: {
    double mx = km_max_finite(idt);
    p.a = km_param(in, nin, 1, 0, &unknown);
    p.b = km_param(in, nin, 2, mx, &unknown);
    p.c = km_param(in, nin, 3, -mx, &unknown);
    break;
  }
  default: break;
  }
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, u->name, out, nout, in, inplace, odt, x->ndim, x->shape, &o)) return -1;
  if (c->meta) return 0;
  if (unknown) return mck_fail(c, "aten::%s: unknown parameter", u->name);
  int64_t n = mck_numel(x);
  if (n == 0) return 0;
  if (idt == MCK_F32 && o->dtype == MCK_F32 && mck_is_contiguous(x) && mck_is_contiguous(o)) {
    float *po = (float *)o->data + o->offset;
    const float *px = (const float *)x->data + x->offset;
    for (int64_t k = 0; k < n; k++) po[k] = (float)km_un_f(op, px[k], &p, MCK_F32);
    return 0;
  }
  const int64_t *sts[2] = {o->stride, x->stride};
  int64_t base[2] = {o->offset, x->offset};
  mck_iter it;
  mck_iter_init(&it, x->ndim, x->shape, 2, sts, base);
  int isf = mck_is_float(idt);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) {
    int64_t oo = it.off[0], ox = it.off[1];
    if (u->out == KM_O_BOOL) {
      mck_seti(o, oo, km_un_b(op, isf, isf ? mck_getf(x, ox) : 0, isf ? 0 : mck_geti(x, ox)));
    } else if (mck_is_float(odt)) {
      mck_setf(o, oo, km_un_f(op, mck_ew_getf(x, ox, cdt), &p, cdt));
    } else {
      int64_t v = mck_geti(x, ox);
      if (op == KM_THRESHOLD) v = v <= ith ? ival : v;
      mck_seti(o, oo, v);
    }
  }
  return 0;
}

MCK_EW_PAIR(km_, acos, km_unary, KM_ACOS)
MCK_EW_PAIR(km_, asin, km_unary, KM_ASIN)
MCK_EW_PAIR(km_, atan, km_unary, KM_ATAN)
MCK_EW_PAIR(km_, cosh, km_unary, KM_COSH)
MCK_EW_PAIR(km_, sinh, km_unary, KM_SINH)
MCK_EW_PAIR(km_, tan, km_unary, KM_TAN)
MCK_EW_PAIR(km_, acosh, km_unary, KM_ACOSH)
MCK_EW_PAIR(km_, asinh, km_unary, KM_ASINH)
MCK_EW_PAIR(km_, atanh, km_unary, KM_ATANH)
MCK_EW_PAIR(km_, log10, km_unary, KM_LOG10)
MCK_EW_PAIR(km_, log2, km_unary, KM_LOG2)
MCK_EW_PAIR(km_, exp2, km_unary, KM_EXP2)
MCK_EW_PAIR(km_, erfc, km_unary, KM_ERFC)
MCK_EW_PAIR(km_, erfinv, km_unary, KM_ERFINV)
MCK_EW_PAIR(km_, sinc, km_unary, KM_SINC)
MCK_EW_PAIR(km_, logit, km_unary, KM_LOGIT)
MCK_EW_PAIR(km_, deg2rad, km_unary, KM_DEG2RAD)
MCK_EW_PAIR(km_, rad2deg, km_unary, KM_RAD2DEG)
MCK_EW_PAIR(km_, frac, km_unary, KM_FRAC)
MCK_EW_PAIR(km_, log_sigmoid, km_unary, KM_LOGSIG)
MCK_EW_PAIR(km_, hardshrink, km_unary, KM_HARDSHRINK)
MCK_EW_PAIR(km_, softshrink, km_unary, KM_SOFTSHRINK)
MCK_EW_PAIR(km_, threshold, km_unary, KM_THRESHOLD)
MCK_EW_PAIR(km_, nan_to_num, km_unary, KM_NAN_TO_NUM)
MCK_EW_PAIR(km_, signbit, km_unary, KM_SIGNBIT)
MCK_EW_PAIR(km_, isfinite, km_unary, KM_ISFINITE)
MCK_EW_PAIR(km_, isinf, km_unary, KM_ISINF)
MCK_EW_PAIR(km_, isposinf, km_unary, KM_ISPOSINF)
MCK_EW_PAIR(km_, isneginf, km_unary, KM_ISNEGINF)
MCK_EW_PAIR(km_, isreal, km_unary, KM_ISREAL)

/* ---- unary ops that are other kernels with fixed arguments --------------------------------- */
/* Checks in[0] is a tensor of a dtype in `dtypes`. */
static inline int km_check_self(mck_ctx *c, const char *name, const mck_arg *in, int nin, unsigned dtypes) {
  if (nin < 1 || in[0].kind != MCK_TENSOR) return mck_fail(c, "aten::%s: expects a tensor", name);
  if (!(dtypes & KM_DT(in[0].u.t->dtype))) return km_fail_dtype(c, name, in[0].u.t->dtype);
  return 0;
}
static inline mck_arg km_float_arg(double v) {
  mck_arg a;
  memset(&a, 0, sizeof a);
  a.kind = MCK_FLOAT;
  a.u.f = v;
  return a;
}

/* square(self) = pow(self, 2) (bool -> int64, as PyTorch's promotion with the int 2). */
static inline int km_square_k(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int inplace) {
  if (km_check_self(c, "square", in, nin, KM_ALL)) return -1;
  mck_arg a[2];
  a[0] = in[0];
  memset(&a[1], 0, sizeof a[1]);
  a[1].kind = MCK_INT;
  a[1].u.i = 2;
  return inplace ? mck_pow_(c, out, nout, a, 2) : mck_pow(c, out, nout, a, 2);
}
static inline int km_square(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return km_square_k(c, out, nout, in, nin, 0);
}
static inline int km_square_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return km_square_k(c, out, nout, in, nin, 1);
}

/* elu with the parameters of celu(self, alpha) = elu(self, alpha, 1, 1 / alpha) and selu. */
static inline int km_elu_as(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int selu,
                            int inplace) {
  const char *name = selu ? "selu" : "celu";
  if (km_check_self(c, name, in, nin, KM_FLT)) return -1;
  mck_arg a[4];
  a[0] = in[0];
  if (selu) {
    a[1] = km_float_arg(1.6732632423543772848170429916717);
    a[2] = km_float_arg(1.0507009873554804934193349852946);
    a[3] = km_float_arg(1.0);
  } else {
    int unknown = 0;
    double alpha = km_param(in, nin, 1, 1.0, &unknown);
    if (!unknown && alpha == 0) return mck_fail(c, "aten::celu: ZeroDivisionError: alpha cannot be 0 for CELU");
    a[1] = km_float_arg(alpha);
    a[2] = km_float_arg(1.0);
    a[3] = km_float_arg(1.0 / alpha);
    if (unknown) a[1].kind = a[3].kind = MCK_UNKNOWN;
  }
  return inplace ? mck_elu_(c, out, nout, a, 4) : mck_elu(c, out, nout, a, 4);
}
MCK_EW_PAIR(km_, celu, km_elu_as, 0)
MCK_EW_PAIR(km_, selu, km_elu_as, 1)

/* rrelu(self, lower, upper, training, generator) in eval mode = leaky_relu(self, (lower + upper)
 * / 2); training=True draws random slopes and is refused. */
static inline int km_rrelu_k(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int inplace) {
  if (km_check_self(c, "rrelu", in, nin, KM_FLT)) return -1;
  int unknown = 0;
  double lo = km_param(in, nin, 1, 0.125, &unknown), hi = km_param(in, nin, 2, 1.0 / 3.0, &unknown);
  if (nin > 3 && in[3].kind == MCK_UNKNOWN)
    return mck_fail(c, "aten::rrelu: training must be a compile-time constant");
  if (nin > 3 && in[3].kind == MCK_BOOL_ARG && in[3].u.i)
    return mck_fail(c, "aten::rrelu: training=True draws random slopes; mc compiles inference graphs "
                       "only (call model.eval())");
  if (!unknown && lo > hi) return mck_fail(c, "aten::rrelu: Lower bound should be less than or equal to the upper bound");
  mck_arg a[2];
  a[0] = in[0];
  a[1] = km_float_arg((lo + hi) / 2);
  if (unknown) a[1].kind = MCK_UNKNOWN;
  return inplace ? mck_leaky_relu_(c, out, nout, a, 2) : mck_leaky_relu(c, out, nout, a, 2);
}
static inline int km_rrelu(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return km_rrelu_k(c, out, nout, in, nin, 0);
}
static inline int km_rrelu_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return km_rrelu_k(c, out, nout, in, nin, 1);
}

/* positive(self): self itself (a view), refused for bool. */
static inline int km_positive(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 1 || in[0].kind != MCK_TENSOR || nout < 1 || !out[0].u.t)
    return mck_fail(c, "aten::positive: expects a tensor");
  if (in[0].u.t->dtype == MCK_BOOL)
    return mck_fail(c, "aten::positive: The `+` operator, on a bool tensor is not supported.");
  out[0].kind = MCK_TENSOR;
  *out[0].u.t = *in[0].u.t;
  return 0;
}

/* is_floating_point(self) -> bool: from the dtype alone (infer folds it). */
static inline int km_is_floating_point(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 1 || in[0].kind != MCK_TENSOR || nout < 1)
    return mck_fail(c, "aten::is_floating_point: expects a tensor");
  out[0].kind = MCK_BOOL_ARG;
  out[0].u.i = mck_is_float(in[0].u.t->dtype);
  return 0;
}
/* is_nonzero(self) -> bool: the truth of a one-element tensor. */
static inline int km_is_nonzero(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (nin < 1 || in[0].kind != MCK_TENSOR || nout < 1) return mck_fail(c, "aten::is_nonzero: expects a tensor");
  const mck_tensor *x = in[0].u.t;
  int64_t n = mck_numel(x);
  if (n == 0) return mck_fail(c, "aten::is_nonzero: Boolean value of Tensor with no values is ambiguous");
  if (n > 1) return mck_fail(c, "aten::is_nonzero: Boolean value of Tensor with more than one value is ambiguous");
  if (c->meta) {
    out[0].kind = MCK_UNKNOWN;
    out[0].n = MCK_BOOL_ARG;
    return 0;
  }
  out[0].kind = MCK_BOOL_ARG;
  out[0].u.i = mck_is_float(x->dtype) ? mck_getf(x, x->offset) != 0 : mck_geti(x, x->offset) != 0;
  return 0;
}

/* ---- glu, prelu ---------------------------------------------------------------------------- */
/* glu(self, dim=-1) = a * sigmoid(b), a and b the halves of self along dim. */
static inline int km_glu(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (km_check_self(c, "glu", in, nin, KM_FLT)) return -1;
  const mck_tensor *x = in[0].u.t;
  if (x->ndim == 0) return mck_fail(c, "aten::glu: glu does not support 0-dimensional tensors");
  if (nin > 1 && in[1].kind == MCK_UNKNOWN) return mck_fail(c, "aten::glu: dim must be a compile-time constant");
  int64_t d0 = nin > 1 && in[1].kind == MCK_INT ? in[1].u.i : -1;
  int d = mck_wrap_dim(d0, x->ndim);
  if (d < 0)
    return mck_fail(c, "aten::glu: Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                    -x->ndim, x->ndim - 1, (long long)d0);
  if (x->shape[d] % 2)
    return mck_fail(c, "aten::glu: Halving dimension must be even, but dimension %d is size %lld", d,
                    (long long)x->shape[d]);
  int64_t shape[MCK_MAX_DIMS];
  for (int k = 0; k < x->ndim; k++) shape[k] = x->shape[k];
  shape[d] /= 2;
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, "glu", out, nout, in, 0, x->dtype, x->ndim, shape, &o)) return -1;
  if (c->meta) return 0;
  const int64_t *sts[3] = {o->stride, x->stride, x->stride};
  int64_t base[3] = {o->offset, x->offset, x->offset + shape[d] * x->stride[d]};
  mck_iter it;
  mck_iter_init(&it, x->ndim, shape, 3, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    double a = mck_getf(x, it.off[1]), b = mck_getf(x, it.off[2]);
    mck_setf(o, it.off[0], a / (1.0 + exp(-b)));
  }
  return 0;
}

/* prelu(self, weight): self > 0 ? self : weight * self, weight one value or one per channel
 * (dim 1; rank < 2: one channel). */
static inline int km_prelu(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (km_check_self(c, "prelu", in, nin, KM_FLT)) return -1;
  if (nin < 2 || in[1].kind != MCK_TENSOR) return mck_fail(c, "aten::prelu: weight must be a tensor");
  const mck_tensor *x = in[0].u.t, *w = in[1].u.t;
  if (w->dtype != x->dtype)
    return mck_fail(c, "aten::prelu: Found dtype %s but expected %s", mck_dtype_name(w->dtype),
                    mck_dtype_name(x->dtype));
  if (w->ndim > 1)
    return mck_fail(c, "aten::prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = %d", w->ndim);
  int64_t nw = mck_numel(w), ch = x->ndim >= 2 ? x->shape[1] : 1;
  if (nw != 1 && nw != ch)
    return mck_fail(c, "aten::prelu: Mismatch of parameter numbers and input channel size. Found parameter "
                       "numbers = %lld and channel size = %lld.", (long long)nw, (long long)ch);
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, "prelu", out, nout, in, 0, x->dtype, x->ndim, x->shape, &o)) return -1;
  if (c->meta) return 0;
  int64_t sw[MCK_MAX_DIMS];
  for (int k = 0; k < x->ndim; k++) sw[k] = 0;
  if (nw > 1) sw[1] = w->stride[0];
  const int64_t *sts[3] = {o->stride, x->stride, sw};
  int64_t base[3] = {o->offset, x->offset, w->offset};
  mck_iter it;
  mck_iter_init(&it, x->ndim, x->shape, 3, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    double v = mck_getf(x, it.off[1]);
    mck_setf(o, it.off[0], v > 0 ? v : mck_getf(w, it.off[2]) * v);
  }
  return 0;
}

/* ---- binary ops ---------------------------------------------------------------------------- */
enum {
  KM_FMOD, KM_HYPOT, KM_COPYSIGN, KM_XLOGY, KM_LOGADDEXP, KM_LOGADDEXP2, KM_FLOAT_POWER,
  KM_HEAVISIDE, KM_NEXTAFTER, KM_LDEXP, KM_GCD, KM_LCM, KM_LSHIFT, KM_RSHIFT, KM_NBINARY
};
typedef struct km_binfo {
  const char *name;
  unsigned dtypes; /* accepted common dtypes */
  int out;         /* KM_O_* */
} km_binfo;
static inline const km_binfo *km_binfo_of(int op) {
  static const km_binfo b[KM_NBINARY] = {
      {"fmod", KM_FLT | KM_HALF | KM_INTS, KM_O_SAME},
      {"hypot", KM_FLT, KM_O_SAME},
      {"copysign", KM_ALL, KM_O_FLOAT},
      {"xlogy", KM_ALL, KM_O_FLOAT},
      {"logaddexp", KM_FLT, KM_O_SAME},
      {"logaddexp2", KM_FLT, KM_O_SAME},
      {"float_power", KM_ALL, KM_O_F64},
      {"heaviside", KM_ALL, KM_O_SAME},
      {"nextafter", KM_FLT, KM_O_SAME},
      {"ldexp", KM_ALL, KM_O_FLOAT},
      {"gcd", KM_INTS, KM_O_SAME},
      {"lcm", KM_INTS, KM_O_SAME},
      {"__lshift__", KM_INTS, KM_O_SAME},
      {"__rshift__", KM_INTS, KM_O_SAME},
  };
  return &b[op];
}

/* nextafter in bfloat16, on its bits (c10's BFloat16 nextafter). */
static inline double km_nextafter_bf16(double a, double b) {
  if (a != a || b != b) return a + b;
  uint16_t fa = mck_f2bf((float)a), fb = mck_f2bf((float)b), sign = 0x8000;
  if (fa == fb) return a;
  uint16_t aa = fa & (uint16_t)~sign, ab = fb & (uint16_t)~sign;
  if (aa == 0) {
    if (ab == 0) return b;
    fa = (uint16_t)((fb & sign) | 1u);
  } else if (aa > ab || ((fa ^ fb) & sign)) {
    fa--;
  } else {
    fa++;
  }
  return mck_bf2f(fa);
}

static inline double km_bin_f(int op, double a, double b, int dt) {
  switch (op) {
  case KM_FMOD: return fmod(a, b);
  case KM_HYPOT: return hypot(a, b);
  case KM_COPYSIGN: return copysign(a, b);
  case KM_XLOGY: return b != b ? NAN : a == 0 ? 0.0 : a * log(b);
  case KM_LOGADDEXP:
  case KM_LOGADDEXP2: {
    if (isinf(a) && a == b) return a;
    double m = a < b ? b : a, e = -fabs(a - b);
    return op == KM_LOGADDEXP ? m + log1p(exp(e)) : m + log1p(exp2(e)) * 1.44269504088896340736;
  }
  case KM_FLOAT_POWER: return pow(a, b);
  case KM_HEAVISIDE: return a == 0 ? b : (double)(a > 0);
  case KM_NEXTAFTER:
    if (dt == MCK_F32) return nextafterf((float)a, (float)b);
    if (dt == MCK_BF16) return km_nextafter_bf16(a, b);
    return nextafter(a, b);
  default: return 0;
  }
}

/* gcd of two values of integer dtype dt, as PyTorch's calc_gcd computes in dt. */
static inline int64_t km_gcd_i(int dt, int64_t a, int64_t b) {
  a = mck_ew_wrap(dt, a < 0 ? (int64_t)(0 - (uint64_t)a) : a);
  b = mck_ew_wrap(dt, b < 0 ? (int64_t)(0 - (uint64_t)b) : b);
  while (a != 0) {
    int64_t t = a;
    a = a == -1 ? 0 : mck_ew_wrap(dt, b % a);
    b = t;
  }
  return b;
}

/* Integer op in dt; *zero set on a zero divisor (fmod). */
static inline int64_t km_bin_i(int op, int64_t a, int64_t b, int dt, int *zero) {
  switch (op) {
  case KM_FMOD:
    if (b == 0) {
      *zero = 1;
      return 0;
    }
    return b == -1 ? 0 : a % b;
  case KM_HEAVISIDE: return a == 0 ? b : a > 0;
  case KM_GCD: return km_gcd_i(dt, a, b);
  case KM_LCM: {
    int64_t g = km_gcd_i(dt, a, b);
    if (g == 0) return 0;
    /* abs(a / g * b) in the C type dt promotes to: exact for int8/int16/uint8 (int), wrapping
     * in int32 and int64; g is never -1 */
    int64_t q = g == -1 ? (int64_t)(0 - (uint64_t)a) : a / g;
    int64_t r = mck_ew_umul(q, b);
    if (dt == MCK_I32) r = mck_ew_wrap(MCK_I32, r);
    return r < 0 ? (int64_t)(0 - (uint64_t)r) : r;
  }
  case KM_LSHIFT: {
    unsigned s = (unsigned)((uint64_t)b & (dt == MCK_I64 ? 63u : 31u));
    return (int64_t)((uint64_t)a << s);
  }
  case KM_RSHIFT: {
    unsigned s = (unsigned)((uint64_t)b & (dt == MCK_I64 ? 63u : 31u));
    return a >= 0 ? a >> s : ~(~a >> s);
  }
  default: return 0;
  }
}

/* Scalar-Scalar forms of scripted graphs: fmod/copysign(a, b) -> float, ldexp(float, int) ->
 * float, gcd(int, int) -> int, int << int, int >> int. */
static inline int km_binary_scalar(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int op) {
  const char *name = km_binfo_of(op)->name;
  int kind;
  if (op == KM_FMOD || op == KM_COPYSIGN || op == KM_LDEXP) kind = MCK_FLOAT;
  else if (op == KM_GCD || op == KM_LSHIFT || op == KM_RSHIFT) kind = MCK_INT;
  else return mck_fail(c, "aten::%s: has no scalar form", name);
  if (nout < 1) return mck_fail(c, "aten::%s: expects one output", name);
  if (kind == MCK_INT && (mck_ew_scalar_kind(&in[0]) != MCK_INT || mck_ew_scalar_kind(&in[1]) != MCK_INT))
    return mck_fail(c, "aten::%s: expects two ints", name);
  if (in[0].kind == MCK_UNKNOWN || in[1].kind == MCK_UNKNOWN) {
    out[0].kind = MCK_UNKNOWN;
    out[0].n = kind;
    return 0;
  }
  out[0].kind = kind;
  if (kind == MCK_INT) {
    int zero = 0;
    out[0].u.i = km_bin_i(op, in[0].u.i, in[1].u.i, MCK_I64, &zero);
    if (op == KM_GCD && out[0].u.i < 0) out[0].u.i = (int64_t)(0 - (uint64_t)out[0].u.i);
    return 0;
  }
  double a = mck_arg_f(&in[0]), b = mck_arg_f(&in[1]);
  out[0].u.f = op == KM_LDEXP ? a * pow(2.0, b) : km_bin_f(op, a, b, MCK_F64);
  return 0;
}

/* The binary kernel: op on in[0], in[1] (Tensor-Tensor, Tensor-Scalar, Scalar-Tensor). */
static inline int km_binary(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int op,
                            int inplace) {
  const km_binfo *bi = km_binfo_of(op);
  const char *name = bi->name;
  if (nin < 2) return mck_fail(c, "aten::%s: expects two operands", name);
  int ta = in[0].kind == MCK_TENSOR, tb = in[1].kind == MCK_TENSOR;
  if (!ta && !tb) {
    if (!inplace && (mck_arg_is_scalar(&in[0]) || in[0].kind == MCK_UNKNOWN) &&
        (mck_arg_is_scalar(&in[1]) || in[1].kind == MCK_UNKNOWN))
      return km_binary_scalar(c, out, nout, in, op);
    return mck_fail(c, "aten::%s: expects a tensor operand", name);
  }
  if (inplace && !ta) return mck_fail(c, "aten::%s_: self must be a tensor", name);
  mck_ew_sc sa, sb;
  const mck_tensor *A, *B;
  if (mck_ew_operand(&in[0], &sa, &A) || mck_ew_operand(&in[1], &sb, &B))
    return mck_fail(c, "aten::%s: operands must be tensors or scalars", name);
  if (op == KM_HEAVISIDE && A->dtype != B->dtype)
    return mck_fail(c, "aten::heaviside: heaviside is not yet implemented for tensors with different dtypes.");
  mck_promo p;
  mck_promo_init(&p);
  mck_ew_promo_add(&p, &in[0]);
  mck_ew_promo_add(&p, &in[1]);
  int cdt = mck_promo_result(&p);
  /* ldexp = self * pow(2.0, other): the power is float32 unless other is floating */
  int pdt = op == KM_LDEXP ? (mck_is_float(B->dtype) ? B->dtype : MCK_F32) : MCK_F64;
  if (op == KM_LDEXP) cdt = mck_promote_types(A->dtype, pdt);
  if (!(bi->dtypes & KM_DT(cdt))) return km_fail_dtype(c, name, cdt);
  int odt = bi->out == KM_O_F64 ? MCK_F64 : bi->out == KM_O_FLOAT && !mck_is_float(cdt) ? MCK_F32 : cdt;
  if (bi->out == KM_O_F64 || odt != cdt) cdt = odt; /* float_power computes in double; copysign... in float32 */
  if (op == KM_FLOAT_POWER && inplace && A->dtype != MCK_F64)
    return mck_fail(c, "aten::float_power_: the base given to float_power_ has dtype %s but the operation's "
                       "result requires dtype float64", mck_dtype_name(A->dtype));
  const mck_tensor *ts[2] = {A, B};
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (mck_ew_bcast(c, name, 2, ts, &nd, shape)) return -1;
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, name, out, nout, in, inplace, odt, nd, shape, &o)) return -1;
  if (c->meta) return 0;
  int64_t st[3][MCK_MAX_DIMS];
  for (int d = 0; d < nd; d++) st[0][d] = o->stride[d];
  mck_broadcast_strides(A, nd, shape, st[1]);
  mck_broadcast_strides(B, nd, shape, st[2]);
  const int64_t *sts[3] = {st[0], st[1], st[2]};
  int64_t base[3] = {o->offset, A->offset, B->offset};
  mck_iter it;
  mck_iter_init(&it, nd, shape, 3, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    if (mck_is_float(cdt)) {
      double a = mck_ew_getf(A, it.off[1], cdt), b = mck_ew_getf(B, it.off[2], cdt), v;
      if (op == KM_LDEXP) v = a * km_r(pdt, pow(2.0, mck_ew_getf(B, it.off[2], pdt)));
      else v = km_bin_f(op, a, b, cdt);
      mck_setf(o, it.off[0], v);
    } else {
      int zero = 0;
      int64_t v = km_bin_i(op, mck_ew_geti(A, it.off[1], cdt), mck_ew_geti(B, it.off[2], cdt), cdt, &zero);
      if (zero) return mck_fail(c, "aten::%s: ZeroDivisionError", name);
      mck_seti(o, it.off[0], mck_ew_wrap(cdt, v));
    }
  }
  return 0;
}

MCK_EW_PAIR(km_, fmod, km_binary, KM_FMOD)
MCK_EW_PAIR(km_, hypot, km_binary, KM_HYPOT)
MCK_EW_PAIR(km_, copysign, km_binary, KM_COPYSIGN)
MCK_EW_PAIR(km_, xlogy, km_binary, KM_XLOGY)
MCK_EW_PAIR(km_, logaddexp, km_binary, KM_LOGADDEXP)
MCK_EW_PAIR(km_, logaddexp2, km_binary, KM_LOGADDEXP2)
MCK_EW_PAIR(km_, float_power, km_binary, KM_FLOAT_POWER)
MCK_EW_PAIR(km_, heaviside, km_binary, KM_HEAVISIDE)
MCK_EW_PAIR(km_, nextafter, km_binary, KM_NEXTAFTER)
MCK_EW_PAIR(km_, ldexp, km_binary, KM_LDEXP)
MCK_EW_PAIR(km_, gcd, km_binary, KM_GCD)
MCK_EW_PAIR(km_, lcm, km_binary, KM_LCM)
MCK_EW_PAIR(km_, lshift, km_binary, KM_LSHIFT)
MCK_EW_PAIR(km_, rshift, km_binary, KM_RSHIFT)

/* ---- ternary: lerp, addcmul, addcdiv ------------------------------------------------------- */
/* lerp(self, end, weight): self + weight * (end - self), weight a Scalar or a tensor; self, end
 * and a tensor weight share one floating dtype. */
static inline int km_lerp_k(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int inplace) {
  if (km_check_self(c, "lerp", in, nin, KM_FLT)) return -1;
  if (nin < 3 || in[1].kind != MCK_TENSOR) return mck_fail(c, "aten::lerp: expects (self, end, weight)");
  const mck_tensor *S = in[0].u.t, *E = in[1].u.t, *W = NULL;
  int dt = S->dtype;
  if (E->dtype != dt)
    return mck_fail(c, "aten::lerp: expected dtype %s for `end` but got dtype %s", mck_dtype_name(dt),
                    mck_dtype_name(E->dtype));
  double w = 0;
  if (in[2].kind == MCK_TENSOR) {
    W = in[2].u.t;
    if (W->dtype != dt)
      return mck_fail(c, "aten::lerp: expected dtype %s for `weight` but got dtype %s", mck_dtype_name(dt),
                      mck_dtype_name(W->dtype));
  } else if (mck_arg_is_scalar(&in[2])) {
    w = km_r(dt, mck_arg_f(&in[2]));
  } else if (in[2].kind != MCK_UNKNOWN) {
    return mck_fail(c, "aten::lerp: weight must be a tensor or a number");
  }
  const mck_tensor *ts[3] = {S, E, W ? W : S};
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (mck_ew_bcast(c, "lerp", 3, ts, &nd, shape)) return -1;
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, "lerp", out, nout, in, inplace, dt, nd, shape, &o)) return -1;
  if (c->meta) return 0;
  if (in[2].kind == MCK_UNKNOWN) return mck_fail(c, "aten::lerp: unknown weight");
  int64_t st[4][MCK_MAX_DIMS];
  for (int d = 0; d < nd; d++) st[0][d] = o->stride[d];
  for (int k = 0; k < 3; k++) mck_broadcast_strides(ts[k], nd, shape, st[k + 1]);
  const int64_t *sts[4] = {st[0], st[1], st[2], st[3]};
  int64_t base[4] = {o->offset, S->offset, E->offset, ts[2]->offset};
  mck_iter it;
  mck_iter_init(&it, nd, shape, 4, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    double s = mck_getf(S, it.off[1]), e = mck_getf(E, it.off[2]), wk = W ? mck_getf(W, it.off[3]) : w;
    mck_setf(o, it.off[0], fabs(wk) < 0.5 ? s + wk * (e - s) : e - (e - s) * (1.0 - wk));
  }
  return 0;
}
static inline int km_lerp(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return km_lerp_k(c, out, nout, in, nin, 0);
}
static inline int km_lerp_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return km_lerp_k(c, out, nout, in, nin, 1);
}

/* addcmul / addcdiv(self, tensor1, tensor2, value=1): self + value * tensor1 * tensor2 (or /
 * tensor2), in the common dtype of the three tensors, value cast to it; each step rounds to
 * that dtype as PyTorch's scalar_t arithmetic does. addcdiv of two integer tensors is refused. */
static inline int km_addc(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int div, int inplace) {
  const char *name = div ? "addcdiv" : "addcmul";
  if (nin < 3 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR || in[2].kind != MCK_TENSOR)
    return mck_fail(c, "aten::%s: expects (self, tensor1, tensor2, value)", name);
  const mck_tensor *S = in[0].u.t, *T1 = in[1].u.t, *T2 = in[2].u.t;
  if (div && !mck_is_float(T1->dtype) && !mck_is_float(T2->dtype))
    return mck_fail(c, "aten::addcdiv: Integer division with addcdiv is no longer supported, and in a future "
                       "release addcdiv will perform a true division of tensor1 and tensor2.");
  mck_promo p;
  mck_promo_init(&p);
  for (int k = 0; k < 3; k++) mck_ew_promo_add(&p, &in[k]);
  int cdt = mck_promo_result(&p);
  if (!((KM_FLT | KM_INTS) & KM_DT(cdt))) return km_fail_dtype(c, name, cdt);
  if (inplace && cdt != S->dtype)
    return mck_fail(c, "aten::%s_: the result type %s differs from self's dtype %s (PyTorch 1.13 fails "
                       "there on an internal assert)", name, mck_dtype_name(cdt), mck_dtype_name(S->dtype));
  int unknown = 0;
  double v = km_param(in, nin, 3, 1.0, &unknown);
  if (nin > 3 && !mck_arg_is_scalar(&in[3]) && in[3].kind != MCK_UNKNOWN && in[3].kind != MCK_NONE)
    return mck_fail(c, "aten::%s: value must be a number", name);
  int64_t iv = nin > 3 && in[3].kind == MCK_INT ? in[3].u.i : mck_f2i_sat(v, INT64_MIN, INT64_MAX);
  const mck_tensor *ts[3] = {S, T1, T2};
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  if (mck_ew_bcast(c, name, 3, ts, &nd, shape)) return -1;
  mck_tensor *o = NULL;
  if (mck_ew_dest(c, name, out, nout, in, inplace, cdt, nd, shape, &o)) return -1;
  if (c->meta) return 0;
  if (unknown) return mck_fail(c, "aten::%s: unknown value", name);
  v = km_r(cdt, v);
  int64_t st[4][MCK_MAX_DIMS];
  for (int d = 0; d < nd; d++) st[0][d] = o->stride[d];
  for (int k = 0; k < 3; k++) mck_broadcast_strides(ts[k], nd, shape, st[k + 1]);
  const int64_t *sts[4] = {st[0], st[1], st[2], st[3]};
  int64_t base[4] = {o->offset, S->offset, T1->offset, T2->offset};
  mck_iter it;
  mck_iter_init(&it, nd, shape, 4, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    if (mck_is_float(cdt)) {
      double s = mck_ew_getf(S, it.off[1], cdt), a = mck_ew_getf(T1, it.off[2], cdt),
             b = mck_ew_getf(T2, it.off[3], cdt);
      double t = km_r(cdt, v * a);
      t = km_r(cdt, div ? t / b : t * b);
      mck_setf(o, it.off[0], s + t);
    } else {
      int64_t s = mck_ew_geti(S, it.off[1], cdt), a = mck_ew_geti(T1, it.off[2], cdt),
              b = mck_ew_geti(T2, it.off[3], cdt);
      mck_seti(o, it.off[0], mck_ew_wrap(cdt, mck_ew_uadd(s, mck_ew_umul(mck_ew_umul(iv, a), b))));
    }
  }
  return 0;
}
MCK_EW_PAIR(km_, addcmul, km_addc, 0)
MCK_EW_PAIR(km_, addcdiv, km_addc, 1)

#endif
