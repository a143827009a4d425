/* k_meta.h — the shape family's scalar ops on tensor metadata and values: size, dim, numel,
 * Int, Float, Bool, ScalarImplicit, NumToTensor, prim::min/max. Their results are known in meta
 * mode when they depend only on shapes (infer folds them).
 */
#ifndef K_META_H
#define K_META_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_shape_util.h"

/* ---- scalar ops on tensor metadata and values -------------------------------------------- */
/* aten::size(self) -> int[] ; aten::size(self, int dim) -> int */
static inline int ks_size(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *t = in[0].u.t;
  if (nin < 2) {
    if (!out[0].u.ints)
      return mck_fail(c, "internal: aten::size(self) needs caller-provided int storage in out->u.ints");
    out[0].kind = MCK_INTS;
    out[0].n = t->ndim;
    for (int i = 0; i < t->ndim; i++) {
      if (t->shape[i] < 0) {
        out[0].kind = MCK_UNKNOWN;
        return 0;
      }
      out[0].u.ints[i] = t->shape[i];
    }
    return 0;
  }
  int d;
  if (in[1].kind == MCK_UNKNOWN) {
    out[0].kind = MCK_UNKNOWN;
    return 0;
  }
  if (ks_dim(c, "aten::size", in[1].u.i, t->ndim, &d)) return -1;
  if (t->ndim == 0) return mck_fail(c, "aten::size: dimension specified as %lld but tensor has no dimensions", (long long)in[1].u.i);
  out[0].kind = t->shape[d] < 0 ? MCK_UNKNOWN : MCK_INT;
  out[0].u.i = t->shape[d];
  return 0;
}

/* aten::dim(self) -> int */
static inline int ks_dim_op(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)c, (void)nout, (void)nin;
  out[0].kind = MCK_INT;
  out[0].u.i = in[0].u.t->ndim;
  return 0;
}

/* aten::numel(self) -> int */
static inline int ks_numel(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)c, (void)nout, (void)nin;
  const mck_tensor *t = in[0].u.t;
  out[0].kind = MCK_INT;
  out[0].u.i = mck_numel(t);
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] < 0) out[0].kind = MCK_UNKNOWN;
  return 0;
}

/* Reads a one-element tensor or a scalar argument; kind 0 unknown, else its MCK kind. */
static inline int ks_item(mck_ctx *c, const char *op, const mck_arg *a, int *kind, int64_t *iv,
                          double *fv) {
  *kind = 0;
  *iv = 0;
  *fv = 0;
  if (a->kind == MCK_UNKNOWN || (a->kind == MCK_TENSOR && c->meta)) {
    *kind = 0;
    return 0;
  }
  if (a->kind == MCK_TENSOR) {
    const mck_tensor *t = a->u.t;
    if (mck_numel(t) != 1)
      return mck_fail(c, "%s: a Tensor with %lld elements cannot be converted to Scalar", op,
                      (long long)mck_numel(t));
    *kind = mck_is_float(t->dtype) ? MCK_FLOAT : t->dtype == MCK_BOOL ? MCK_BOOL_ARG : MCK_INT;
    *iv = mck_geti(t, t->offset);
    *fv = mck_getf(t, t->offset);
    return 0;
  }
  if (!mck_arg_is_scalar(a)) return mck_fail(c, "%s: expected a tensor or a number", op);
  *kind = a->kind;
  *iv = a->kind == MCK_FLOAT ? mck_f2i_sat(a->u.f, INT64_MIN, INT64_MAX) : a->u.i;
  *fv = mck_arg_f(a);
  return 0;
}

/* aten::Int(Tensor|Scalar a) -> int (floats truncate) */
static inline int ks_Int(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  int k;
  int64_t i;
  double f;
  if (ks_item(c, "aten::Int", &in[0], &k, &i, &f)) return -1;
  if (k == MCK_FLOAT && !(f >= -9223372036854775808.0 && f < 9223372036854775808.0))
    return mck_fail(c, "aten::Int: cannot convert float %g to an integer", f);
  out[0].kind = k ? MCK_INT : MCK_UNKNOWN;
  out[0].u.i = i;
  return 0;
}

/* aten::Float(Tensor|Scalar a) -> float */
static inline int ks_Float(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  int k;
  int64_t i;
  double f;
  if (ks_item(c, "aten::Float", &in[0], &k, &i, &f)) return -1;
  out[0].kind = k ? MCK_FLOAT : MCK_UNKNOWN;
  out[0].u.f = f;
  return 0;
}

/* aten::Bool(Tensor|Scalar a) -> bool */
static inline int ks_Bool(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  int k;
  int64_t i;
  double f;
  if (ks_item(c, "aten::Bool", &in[0], &k, &i, &f)) return -1;
  out[0].kind = k ? MCK_BOOL_ARG : MCK_UNKNOWN;
  out[0].u.i = k == MCK_FLOAT ? f != 0 : i != 0;
  return 0;
}

/* aten::ScalarImplicit(Tensor a) -> Scalar of the tensor's category */
/* The value of a one-element tensor as a number of its dtype's kind (MCK_UNKNOWN in meta mode). */
static inline int ks_scalar_out(mck_ctx *c, const char *op, mck_arg *out, const mck_arg *in) {
  int k;
  int64_t i;
  double f;
  if (ks_item(c, op, &in[0], &k, &i, &f)) return -1;
  out[0].kind = k ? k : MCK_UNKNOWN;
  if (k == MCK_FLOAT) out[0].u.f = f;
  else out[0].u.i = i;
  return 0;
}

/* aten::item: any one-element tensor. */
static inline int ks_item_op(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return ks_scalar_out(c, "aten::item", out, in);
}

/* aten::ScalarImplicit: a 0-dim tensor only. */
static inline int ks_ScalarImplicit(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                    int nin) {
  (void)nout, (void)nin;
  if (in[0].kind == MCK_TENSOR && in[0].u.t->ndim != 0)
    return mck_fail(c, "aten::ScalarImplicit: expected a 0-dim tensor, got %d dims", in[0].u.t->ndim);
  return ks_scalar_out(c, "aten::ScalarImplicit", out, in);
}

/* prim::NumToTensor(Scalar a) -> 0-dim tensor: int -> int64, float -> float64, bool -> bool */
static inline int ks_NumToTensor(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_arg *a = &in[0];
  if (!mck_arg_is_scalar(a)) {
    if (a->kind == MCK_UNKNOWN)
      return mck_fail(c, "prim::NumToTensor: the scalar's type (int, float or bool) must be known");
    return mck_fail(c, "prim::NumToTensor: expected a number");
  }
  int dt = a->kind == MCK_FLOAT ? MCK_F64 : a->kind == MCK_BOOL_ARG ? MCK_BOOL : MCK_I64;
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, dt, 0, NULL)) return -1;
  if (c->meta) return 0;
  if (dt == MCK_F64) mck_setf(o, o->offset, a->u.f);
  else mck_seti(o, o->offset, a->u.i);
  return 0;
}

static inline int ks_minmax(mck_ctx *c, const char *op, mck_arg *out, const mck_arg *in, int nin,
                            int want_max) {
  int isf = 0;
  double best = 0;
  int64_t besti = 0;
  if (nin == 1) {
    const mck_arg *l = &in[0];
    if (l->kind == MCK_UNKNOWN) {
      out[0].kind = MCK_UNKNOWN;
      return 0;
    }
    if (l->kind != MCK_INTS && l->kind != MCK_FLOATS && l->kind != MCK_BOOLS)
      return mck_fail(c, "%s: expected a list of numbers", op);
    if (l->n == 0) return mck_fail(c, "%s: min/max of an empty list", op);
    isf = l->kind == MCK_FLOATS;
    for (int i = 0; i < l->n; i++) {
      if (isf) {
        double v = l->u.floats[i];
        if (i == 0 || v != v || (want_max ? v > best : v < best)) best = v;
        if (best != best) break;
      } else {
        int64_t v = l->u.ints[i];
        if (i == 0 || (want_max ? v > besti : v < besti)) besti = v;
      }
    }
    out[0].kind = isf ? MCK_FLOAT : l->kind == MCK_BOOLS ? MCK_BOOL_ARG : MCK_INT;
    if (isf) out[0].u.f = best;
    else out[0].u.i = besti;
    return 0;
  }
  for (int k = 0; k < 2; k++) {
    if (in[k].kind == MCK_UNKNOWN) {
      out[0].kind = MCK_UNKNOWN;
      return 0;
    }
    if (!mck_arg_is_scalar(&in[k])) return mck_fail(c, "%s: expected two numbers", op);
    isf |= in[k].kind == MCK_FLOAT;
  }
  if (isf) {
    double a = mck_arg_f(&in[0]), b = mck_arg_f(&in[1]);
    out[0].kind = MCK_FLOAT;
    out[0].u.f = a != a ? a : b != b ? b : want_max ? (a > b ? a : b) : (a < b ? a : b);
  } else {
    int64_t a = in[0].u.i, b = in[1].u.i;
    out[0].kind = in[0].kind == MCK_BOOL_ARG && in[1].kind == MCK_BOOL_ARG ? MCK_BOOL_ARG : MCK_INT;
    out[0].u.i = want_max ? (a > b ? a : b) : (a < b ? a : b);
  }
  return 0;
}

/* prim::min(int a, int b) / prim::min(int[] l) (floats too) */
static inline int ks_prim_min(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  return ks_minmax(c, "prim::min", out, in, nin, 0);
}
/* prim::max(int a, int b) / prim::max(int[] l) */
static inline int ks_prim_max(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  return ks_minmax(c, "prim::max", out, in, nin, 1);
}

/* The int arithmetic scripted for loops carry at run time: Python's len(range(lo, hi, step))
 * (aten::__range_length), the loop's value start + index * step (aten::__derive_index), and
 * `not b` (aten::__not__). Unknown inputs give an unknown result (infer types it as int/bool). */
static inline int ks_int3(mck_ctx *c, const char *op, const mck_arg *in, int nin, int64_t v[3]) {
  if (nin != 3) return mck_fail(c, "%s: expected three ints", op);
  for (int k = 0; k < 3; k++) {
    if (in[k].kind == MCK_UNKNOWN) return 1;
    if (in[k].kind != MCK_INT && in[k].kind != MCK_BOOL_ARG) return mck_fail(c, "%s: expected ints", op);
    v[k] = in[k].u.i;
  }
  return 0;
}
static inline int ks_range_length(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  int64_t v[3];
  int rc = ks_int3(c, "aten::__range_length", in, nin, v);
  if (rc < 0) return rc;
  if (rc) return out[0].kind = MCK_UNKNOWN, 0;
  int64_t lo = v[0], hi = v[1], st = v[2], n = 0;
  if (st == 0) return mck_fail(c, "range() arg 3 must not be zero");
  /* the count without overflow: (hi - lo) may not fit int64, its unsigned difference does */
  if (st > 0 && lo < hi) n = (int64_t)(((uint64_t)hi - (uint64_t)lo - 1u) / (uint64_t)st + 1u);
  if (st < 0 && lo > hi)
    n = (int64_t)(((uint64_t)lo - (uint64_t)hi - 1u) / (st == INT64_MIN ? (uint64_t)1 << 63 : (uint64_t)-st) + 1u);
  out[0].kind = MCK_INT;
  out[0].u.i = n;
  return 0;
}
static inline int ks_derive_index(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  int64_t v[3], r;
  int rc = ks_int3(c, "aten::__derive_index", in, nin, v);
  if (rc < 0) return rc;
  if (rc) return out[0].kind = MCK_UNKNOWN, 0;
  if (mck_mul_ovf(v[0], v[2], &r) || mck_add_ovf(v[1], r, &r))
    return mck_fail(c, "aten::__derive_index: the loop value overflows int64");
  out[0].kind = MCK_INT;
  out[0].u.i = r;
  return 0;
}
static inline int ks_not(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  if (nin != 1) return mck_fail(c, "aten::__not__: expected one bool");
  if (in[0].kind == MCK_UNKNOWN) return out[0].kind = MCK_UNKNOWN, 0;
  if (in[0].kind != MCK_BOOL_ARG && in[0].kind != MCK_INT) return mck_fail(c, "aten::__not__: expected a bool");
  out[0].kind = MCK_BOOL_ARG;
  out[0].u.i = !in[0].u.i;
  return 0;
}

/* The script-level queries and string / list ops of TorchScript's builtins, folded by infer when
 * their inputs are known (an unknown input gives an unknown result). */
/* prim::is_cuda, prim::is_nested, prim::requires_grad (Tensor a), aten::is_autocast_enabled(),
 * aten::is_grad_enabled(): false. mc's tensors are plain CPU tensors, and a model computes
 * inference, as under torch.no_grad() (no autograd, no autocast). */
static inline int ks_false(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)c, (void)nout, (void)in, (void)nin;
  out[0].kind = MCK_BOOL_ARG;
  out[0].u.i = 0;
  return 0;
}

/* aten::find(str self, str substr, int start=0, int end=-1) -> int, as TorchScript computes it: a
 * negative start counts from the end (clamped at 0), a negative end too with -1 the end; the
 * first match in self[start:end] (its index in self), or -1. */
static inline int ks_find(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  if (nin < 2 || nin > 4) return mck_fail(c, "aten::find: expected (str self, str substr, int start, int end)");
  for (int k = 0; k < nin; k++)
    if (in[k].kind == MCK_UNKNOWN) return out[0].kind = MCK_UNKNOWN, 0;
  if (in[0].kind != MCK_STR || in[1].kind != MCK_STR || !in[0].u.s || !in[1].u.s)
    return mck_fail(c, "aten::find: expected two strings");
  if ((nin > 2 && in[2].kind != MCK_INT) || (nin > 3 && in[3].kind != MCK_INT))
    return mck_fail(c, "aten::find: start and end must be ints");
  const char *s = in[0].u.s, *sub = in[1].u.s;
  int64_t size = (int64_t)strlen(s), m = (int64_t)strlen(sub);
  int64_t start = nin > 2 ? in[2].u.i : 0, end = nin > 3 ? in[3].u.i : -1;
  if (start < 0) start = start < -size ? 0 : size + start;
  if (end < 0) end = end < -size - 1 ? 0 : size + end + 1;
  if (end > start && start > size) return mck_fail(c, "aten::find: start %lld is out of range", (long long)start);
  if (end > size) end = size;
  int64_t r = m == 0 ? start : -1; /* "" is found at the window's start, even an empty one */
  for (int64_t i = start; r < 0 && i + m <= end; i++)
    if (!memcmp(s + i, sub, (size_t)m)) r = i;
  out[0].kind = MCK_INT;
  out[0].u.i = r;
  return 0;
}

/* Whether a is a list of numbers (int[], float[], bool[]). */
static inline int ks_number_list(const mck_arg *a) {
  return a->kind == MCK_INTS || a->kind == MCK_FLOATS || a->kind == MCK_BOOLS;
}

/* l[i] of a list of numbers (mc::list_getitem), as Python indexes: i < 0 counts from the end. */
static inline int ks_list_getitem(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  if (nin != 2) return mck_fail(c, "mc::list_getitem: expected (list l, int i)");
  if (in[0].kind == MCK_UNKNOWN || in[1].kind == MCK_UNKNOWN) return out[0].kind = MCK_UNKNOWN, 0;
  const mck_arg *l = &in[0];
  if (!ks_number_list(l)) return mck_fail(c, "mc::list_getitem: expected a list of numbers");
  if (in[1].kind != MCK_INT && in[1].kind != MCK_BOOL_ARG) return mck_fail(c, "mc::list_getitem: expected an int index");
  int64_t i = in[1].u.i;
  if (i < 0) i += l->n;
  if (i < 0 || i >= l->n) return mck_fail(c, "list index out of range");
  out[0].n = 0;
  if (l->kind == MCK_FLOATS) {
    out[0].kind = MCK_FLOAT;
    out[0].u.f = l->u.floats[i];
  } else {
    out[0].kind = l->kind == MCK_BOOLS ? MCK_BOOL_ARG : MCK_INT;
    out[0].u.i = l->u.ints[i];
  }
  return 0;
}

/* aten::__contains__(int[]|float[]|bool[] l, Scalar x) -> bool: x in l, compared as numbers. */
static inline int ks_contains(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  if (nin != 2) return mck_fail(c, "aten::__contains__: expected (list l, item x)");
  if (in[0].kind == MCK_UNKNOWN || in[1].kind == MCK_UNKNOWN) return out[0].kind = MCK_UNKNOWN, 0;
  const mck_arg *l = &in[0];
  if (!ks_number_list(l)) return mck_fail(c, "aten::__contains__: expected a list of numbers");
  if (!mck_arg_is_scalar(&in[1])) return mck_fail(c, "aten::__contains__: expected a number");
  int r = 0;
  if (l->kind != MCK_FLOATS && in[1].kind != MCK_FLOAT) {
    for (int i = 0; i < l->n && !r; i++) r = l->u.ints[i] == in[1].u.i;
  } else {
    double x = mck_arg_f(&in[1]);
    for (int i = 0; i < l->n && !r; i++) r = (l->kind == MCK_FLOATS ? l->u.floats[i] : (double)l->u.ints[i]) == x;
  }
  out[0].kind = MCK_BOOL_ARG;
  out[0].u.i = r;
  return 0;
}

#endif
