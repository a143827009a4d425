/* k_create.h — the creation ops of the elementwise family: tensors made from scalars only
 * (zeros, ones, full, empty, arange, linspace, eye, the *_like forms, ...; OPF_ALLOC_LIKE rows).
 */
#ifndef MCK_CREATE_H
#define MCK_CREATE_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_unary.h"

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
