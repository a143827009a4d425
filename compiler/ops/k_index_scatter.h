/* k_index_scatter.h — the index family's second part (see k_index.h for the family's
 * invariants): scatter, scatter_add, scatter_reduce, index_add, index_copy, index_fill and their
 * in-place twins, take, take_along_dim, put, masked_scatter. Indices are checked at run time
 * before anything is written. Prefix: ki_. */
#ifndef MC_K_INDEX_SCATTER_H
#define MC_K_INDEX_SCATTER_H

#include "k_index_sort.h"

/* ---- scatter family ---------------------------------------------------------------------- */
enum { KI_R_SET, KI_R_SUM, KI_R_PROD, KI_R_MEAN, KI_R_AMAX, KI_R_AMIN };
/* a op b in dtype dt (ints wrap, floats round once to dt on store) */
static inline void ki_combine(mck_tensor *o, int64_t off, const mck_tensor *s, int64_t soff,
                              double sval, int red) {
  int fl = mck_is_float(o->dtype);
  if (fl || o->dtype == MCK_BOOL) {
    double a = mck_getf(o, off), b = s ? mck_getf(s, soff) : sval, r = b;
    switch (red) {
    case KI_R_SUM: case KI_R_MEAN: r = a + b; break;
    case KI_R_PROD: r = a * b; break;
    case KI_R_AMAX: r = a != a || b != b ? (a != a ? a : b) : (a > b ? a : b); break;
    case KI_R_AMIN: r = a != a || b != b ? (a != a ? a : b) : (a < b ? a : b); break;
    default: break;
    }
    if (o->dtype == MCK_BOOL && (red == KI_R_SUM || red == KI_R_MEAN)) r = a != 0 || b != 0;
    mck_setf(o, off, r);
    return;
  }
  int64_t a = mck_geti(o, off), b = s ? mck_geti(s, soff) : (int64_t)sval, r = b;
  switch (red) {
  case KI_R_SUM: case KI_R_MEAN: r = (int64_t)((uint64_t)a + (uint64_t)b); break;
  case KI_R_PROD: r = (int64_t)((uint64_t)a * (uint64_t)b); break;
  case KI_R_AMAX: r = a > b ? a : b; break;
  case KI_R_AMIN: r = a < b ? a : b; break;
  default: break;
  }
  mck_seti(o, off, r);
}
/* The value reduce starts from where include_self=False. */
static inline void ki_identity(mck_tensor *o, int64_t off, int red) {
  if (red == KI_R_PROD) mck_setf(o, off, 1);
  else if (red == KI_R_AMAX) {
    if (mck_is_float(o->dtype)) mck_setf(o, off, -INFINITY);
    else mck_seti(o, off, o->dtype == MCK_I64 ? INT64_MIN : o->dtype == MCK_I32 ? INT32_MIN : o->dtype == MCK_I16 ? INT16_MIN : o->dtype == MCK_I8 ? INT8_MIN : 0);
  } else if (red == KI_R_AMIN) {
    if (mck_is_float(o->dtype)) mck_setf(o, off, INFINITY);
    else mck_seti(o, off, o->dtype == MCK_I64 ? INT64_MAX : o->dtype == MCK_I32 ? INT32_MAX : o->dtype == MCK_I16 ? INT16_MAX : o->dtype == MCK_I8 ? INT8_MAX : o->dtype == MCK_U8 ? 255 : 1);
  } else mck_setf(o, off, 0);
}
/* Checks scatter's index/src geometry (ATen's scatter_shape_check). */
static inline int ki_scatter_check(mck_ctx *c, const char *op, const mck_tensor *s, int d,
                                   const mck_tensor *ix, const mck_tensor *src) {
  if (ix->dtype != MCK_I64) return mck_fail(c, "%s: Expected dtype int64 for index", op);
  if (src && src->dtype != s->dtype) return mck_fail(c, "%s: Expected self.dtype to be equal to src.dtype", op);
  int sn = s->ndim ? s->ndim : 1, in_ = ix->ndim ? ix->ndim : 1;
  if (mck_numel(ix) == 0) return 0;
  if (sn != in_) return mck_fail(c, "%s: Index tensor must have the same number of dimensions as self tensor", op);
  if (src && (src->ndim ? src->ndim : 1) != in_)
    return mck_fail(c, "%s: Index tensor must have the same number of dimensions as src tensor", op);
  for (int i = 0; i < ix->ndim; i++) {
    if (i != d && s->ndim && ix->shape[i] > s->shape[i])
      return mck_fail(c, "%s: Expected index [...] to be smaller than self apart from dimension %d", op, d);
    if (src && src->ndim && ix->shape[i] > src->shape[i])
      return mck_fail(c, "%s: Expected index [...] to be smaller size than src", op);
  }
  return 0;
}
/* Scatters into o (already holding self) along d: o[..ix..] red= src[pos] (or value). Real
 * mode; the index range is checked first, nothing is written on an error. mean divides by
 * the count afterwards (floor division for integers, as PyTorch). */
static inline int ki_scatter_into(mck_ctx *c, const char *op, mck_tensor *o, int d,
                                  const mck_tensor *ix, const mck_tensor *src, double val, int red,
                                  int include_self) {
  int64_t lim = o->ndim ? o->shape[d] : 1;
  if (ks_check_range(c, op, ix, lim, 0)) return -1;
  if (mck_numel(ix) == 0) return 0;
  int64_t ost[MCK_MAX_DIMS] = {0}, sst[MCK_MAX_DIMS] = {0};
  for (int i = 0; i < ix->ndim; i++) {
    ost[i] = i == d || !o->ndim ? 0 : o->stride[i];
    sst[i] = src && src->ndim ? src->stride[i] : 0;
  }
  int64_t ds = o->ndim ? o->stride[d] : 0;
  int64_t *cnt = NULL;
  int64_t on = mck_numel(o);
  if (red == KI_R_MEAN || !include_self) {
    cnt = (int64_t *)calloc((size_t)(on ? on : 1), sizeof(int64_t));
    if (!cnt) return mck_fail(c, "%s: out of memory", op);
  }
  mck_iter it;
  const int64_t *st[3] = {ix->stride, ost, sst};
  int64_t base[3] = {ix->offset, o->offset, src ? src->offset : 0};
  mck_iter_init(&it, ix->ndim, ix->shape, 3, st, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int64_t v = mck_geti(ix, it.off[0]);
    int64_t off = it.off[1] + v * ds;
    if (cnt) {
      /* o is contiguous (a fresh output or checked by the caller): off - offset is its slot */
      int64_t slot = off - o->offset;
      if (!include_self && cnt[slot] == 0) ki_identity(o, off, red);
      cnt[slot]++;
    }
    ki_combine(o, off, src, it.off[2], val, red);
  }
  if (red == KI_R_MEAN) {
    for (int64_t j = 0; j < on; j++) {
      int64_t n = cnt[j] + (include_self ? 1 : 0);
      if (cnt[j] == 0) continue;
      int64_t off = o->offset + j;
      if (mck_is_float(o->dtype)) {
        mck_setf(o, off, mck_getf(o, off) / (double)n);
      } else {
        int64_t a = mck_geti(o, off), q = a / n;
        if ((a % n != 0) && ((a < 0) != (n < 0))) q--;
        mck_seti(o, off, q);
      }
    }
  }
  free(cnt);
  return 0;
}
static inline int ki_reduce_name(mck_ctx *c, const char *op, const mck_arg *a, int two, int *red) {
  if (a->kind != MCK_STR) return mck_fail(c, "%s: reduce must be a compile-time constant string", op);
  const char *s = a->u.s;
  if (two) {
    if (!strcmp(s, "sum")) *red = KI_R_SUM;
    else if (!strcmp(s, "prod")) *red = KI_R_PROD;
    else if (!strcmp(s, "mean")) *red = KI_R_MEAN;
    else if (!strcmp(s, "amax")) *red = KI_R_AMAX;
    else if (!strcmp(s, "amin")) *red = KI_R_AMIN;
    else return mck_fail(c, "%s: reduce argument must be either sum, prod, mean, amax or amin, got %s", op, s);
  } else {
    if (!strcmp(s, "add")) *red = KI_R_SUM;
    else if (!strcmp(s, "multiply")) *red = KI_R_PROD;
    else return mck_fail(c, "%s: reduce argument must be either add or multiply, got %s", op, s);
  }
  return 0;
}
/* The shared body: kind 0 scatter (src or value, reduce 'add'/'multiply'), 1 scatter_add,
 * 2 scatter_reduce.two. inplace: write input 0 (EFF_WRITE) instead of a fresh output. */
static inline int ki_scatter_impl(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                                  const char *op, int kind, int inplace) {
  mck_tensor *s = in[0].u.t;
  const mck_tensor *ix = in[2].u.t, *src = NULL;
  double val = 0;
  int d, red = kind == 1 ? KI_R_SUM : KI_R_SET, incl = 1;
  if (ki_dim(c, op, in, nin, 1, 0, s->ndim, &d)) return -1;
  if (in[2].kind != MCK_TENSOR) return mck_fail(c, "%s: index must be a tensor", op);
  if (in[3].kind == MCK_TENSOR) src = in[3].u.t;
  else if (mck_arg_is_scalar(&in[3])) val = mck_arg_f(&in[3]);
  else if (!c->meta || in[3].kind != MCK_UNKNOWN) return mck_fail(c, "%s: value must be a number", op);
  if (kind == 0 && nin > 4 && in[4].kind != MCK_NONE && ki_reduce_name(c, op, &in[4], 0, &red)) return -1;
  if (kind == 2 && (ki_reduce_name(c, op, &in[4], 1, &red) || ki_bool(c, op, in, nin, 5, 1, &incl))) return -1;
  if (kind == 2 && red == KI_R_MEAN && s->dtype == MCK_BOOL)
    return mck_fail(c, "%s: \"scatter_reduce_mean\" not implemented for 'Bool'", op);
  if (ki_scatter_check(c, op, s, d, ix, src)) return -1;
  if (inplace) {
    if (!mck_is_contiguous(s) && (red == KI_R_MEAN || !incl)) {
      /* the counts are kept per element of a compact copy */
      mck_tensor tmp = ks_template(s);
      if (c->meta) { ks_set_view(&out[0], s); return 0; }
      tmp.data = malloc((size_t)(mck_numel(s) ? mck_numel(s) : 1) * mck_dtype_size(s->dtype));
      if (!tmp.data) return mck_fail(c, "%s: out of memory", op);
      ks_copy_nocheck(&tmp, s);
      int rc = ki_scatter_into(c, op, &tmp, d, ix, src, val, red, incl);
      if (!rc) ks_copy_nocheck(s, &tmp);
      free(tmp.data);
      if (rc) return -1;
      ks_set_view(&out[0], s);
      return 0;
    }
    if (!c->meta && ki_scatter_into(c, op, s, d, ix, src, val, red, incl)) return -1;
    if (nout > 0) ks_set_view(&out[0], s);
    return 0;
  }
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, s->dtype, s->ndim, s->shape)) return -1;
  if (c->meta) return ks_check_range(c, op, ix, s->ndim ? s->shape[d] : 1, 0);
  mck_tensor *o = out[0].u.t;
  ks_copy_nocheck(o, s);
  return ki_scatter_into(c, op, o, d, ix, src, val, red, incl);
}
/* scatter(self, int dim, Tensor index, Tensor|Scalar src [, *, str reduce]) */
static inline int ki_scatter(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_scatter_impl(c, out, nout, in, nin, "aten::scatter", 0, 0);
}
static inline int ki_scatter_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_scatter_impl(c, out, nout, in, nin, "aten::scatter_", 0, 1);
}
/* scatter_add(self, int dim, Tensor index, Tensor src) */
static inline int ki_scatter_add(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (in[3].kind != MCK_TENSOR) return mck_fail(c, "aten::scatter_add: src must be a tensor");
  return ki_scatter_impl(c, out, nout, in, nin, "aten::scatter_add", 1, 0);
}
static inline int ki_scatter_add_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (in[3].kind != MCK_TENSOR) return mck_fail(c, "aten::scatter_add_: src must be a tensor");
  return ki_scatter_impl(c, out, nout, in, nin, "aten::scatter_add_", 1, 1);
}
/* scatter_reduce(self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) */
static inline int ki_scatter_reduce(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (in[3].kind != MCK_TENSOR) return mck_fail(c, "aten::scatter_reduce: src must be a tensor");
  return ki_scatter_impl(c, out, nout, in, nin, "aten::scatter_reduce", 2, 0);
}
static inline int ki_scatter_reduce_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  if (in[3].kind != MCK_TENSOR) return mck_fail(c, "aten::scatter_reduce_: src must be a tensor");
  return ki_scatter_impl(c, out, nout, in, nin, "aten::scatter_reduce_", 2, 1);
}

/* ---- index_add / index_copy / index_fill ------------------------------------------------- */
enum { KI_IX_ADD, KI_IX_COPY, KI_IX_FILL };
/* Writes o (already holding self) along d at the rows index names: += alpha * source's row j
 * (add), = source's row j (copy), = value (fill; negative indices wrap). Real mode. */
static inline int ki_index_into(mck_ctx *c, const char *op, mck_tensor *o, int d,
                                const mck_tensor *ix, const mck_tensor *src, double val,
                                int kind) {
  int64_t lim = o->ndim ? o->shape[d] : 1;
  if (ks_check_range(c, op, ix, lim, kind == KI_IX_FILL)) return -1;
  int64_t ni = mck_numel(ix);
  for (int64_t j = 0; j < ni; j++) {
    int64_t v = mck_geti(ix, ix->offset + (ix->ndim ? j * ix->stride[0] : 0));
    if (v < 0) v += lim;
    mck_tensor dst = *o;
    if (o->ndim) {
      dst.offset += v * o->stride[d];
      dst.shape[d] = 1;
    }
    if (kind == KI_IX_FILL) {
      mck_iter it;
      const int64_t *st[1] = {dst.stride};
      int64_t base[1] = {dst.offset};
      mck_iter_init(&it, dst.ndim, dst.shape, 1, st, base);
      for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) mck_setf(&dst, it.off[0], val);
      continue;
    }
    mck_tensor sr = *src;
    if (src->ndim && o->ndim) {
      sr.offset += j * src->stride[d];
      sr.shape[d] = 1;
    }
    if (kind == KI_IX_COPY) {
      ks_copy_nocheck(&dst, &sr);
      continue;
    }
    mck_iter it;
    int64_t sst[MCK_MAX_DIMS];
    mck_broadcast_strides(&sr, dst.ndim, dst.shape, sst);
    const int64_t *st[2] = {dst.stride, sst};
    int64_t base[2] = {dst.offset, sr.offset};
    mck_iter_init(&it, dst.ndim, dst.shape, 2, st, base);
    int fl = mck_is_float(o->dtype);
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
      if (fl) {
        /* alpha * source rounds to the dtype before the add, as PyTorch's kernel does */
        double t = ki_round(o->dtype, mck_getf(&sr, it.off[1]) * val);
        mck_setf(&dst, it.off[0], mck_getf(&dst, it.off[0]) + t);
      } else if (o->dtype == MCK_BOOL) {
        int a = mck_geti(&dst, it.off[0]) != 0, b = mck_geti(&sr, it.off[1]) != 0 && val != 0;
        mck_seti(&dst, it.off[0], a || b);
      } else {
        uint64_t a = (uint64_t)mck_geti(&dst, it.off[0]);
        uint64_t b = (uint64_t)mck_geti(&sr, it.off[1]) * (uint64_t)(int64_t)val;
        mck_seti(&dst, it.off[0], (int64_t)(a + b));
      }
    }
  }
  return 0;
}
/* Checks index_add/index_copy/index_fill's index (a vector, or one value) and source shapes. */
static inline int ki_index_check(mck_ctx *c, const char *op, const mck_tensor *s, int d,
                                 const mck_tensor *ix, const mck_tensor *src, int kind) {
  int i64only = kind != KI_IX_ADD;
  if (ix->dtype != MCK_I64 && (i64only || ix->dtype != MCK_I32))
    return mck_fail(c, "%s: Expected dtype int64 for index", op);
  if (ix->ndim > 1) return mck_fail(c, "%s: Index is supposed to be a vector", op);
  if (!src) return 0;
  if (src->dtype != s->dtype)
    return mck_fail(c, "%s: self (%s) and source (%s) must have the same scalar type", op,
                    mck_dtype_name(s->dtype), mck_dtype_name(src->dtype));
  int64_t ni = mck_numel(ix);
  int sn = s->ndim ? s->ndim : 1, srn = src->ndim ? src->ndim : 1;
  if (kind == KI_IX_COPY && sn != srn && !(s->ndim == 0 || src->ndim == 0))
    return mck_fail(c, "%s: When source and destination are not scalars, their dimensionality must match", op);
  if (sn != srn && s->ndim && src->ndim)
    return mck_fail(c, "%s: source and self must have the same number of dimensions", op);
  int64_t srcd = src->ndim ? src->shape[d < src->ndim ? d : 0] : 1;
  if (srcd != ni)
    return mck_fail(c, "%s: Number of indices (%lld) should be equal to source.size(dim) (%lld)", op,
                    (long long)ni, (long long)srcd);
  for (int i = 0; i < s->ndim && src->ndim; i++)
    if (i != d && s->shape[i] != src->shape[i])
      return mck_fail(c, "%s: source.size(%d) = %lld does not match self.size(%d) = %lld", op, i,
                      (long long)src->shape[i], i, (long long)s->shape[i]);
  return 0;
}
/* index_add / index_copy / index_fill, functional (fresh output) or in place (input 0). */
static inline int ki_index_impl(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                                const char *op, int kind, int inplace) {
  mck_tensor *s = in[0].u.t;
  const mck_tensor *ix = in[2].u.t, *src = NULL;
  double val = 1;
  int d;
  if (ki_dim(c, op, in, nin, 1, 0, s->ndim, &d)) return -1;
  if (kind == KI_IX_FILL) {
    if (in[3].kind == MCK_TENSOR) {
      const mck_tensor *vt = in[3].u.t;
      if (vt->ndim != 0)
        return mck_fail(c, "%s: only supports a 0-dimensional value tensor, but got tensor with %d dimension(s)", op, vt->ndim);
      if (!c->meta) val = mck_getf(vt, vt->offset);
    } else if (mck_arg_is_scalar(&in[3])) {
      val = mck_arg_f(&in[3]);
      if (in[3].kind == MCK_FLOAT && !mck_is_float(s->dtype) && s->dtype != MCK_BOOL)
        val = (double)mck_f2i_sat(val, INT64_MIN, INT64_MAX);
    } else if (!c->meta) {
      return mck_fail(c, "%s: value must be a number", op);
    }
  } else {
    if (in[3].kind != MCK_TENSOR) return mck_fail(c, "%s: source must be a tensor", op);
    src = in[3].u.t;
    if (kind == KI_IX_ADD && nin > 4 && in[4].kind != MCK_NONE) {
      if (mck_arg_is_scalar(&in[4])) val = mck_arg_f(&in[4]);
      else if (!c->meta) return mck_fail(c, "%s: alpha must be a number", op);
    }
  }
  if (ki_index_check(c, op, s, d, ix, src, kind)) return -1;
  mck_tensor *o = s;
  if (!inplace) {
    if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, s->dtype, s->ndim, s->shape)) return -1;
    o = out[0].u.t;
  }
  if (c->meta) {
    if (inplace && nout > 0) ks_set_view(&out[0], s);
    return 0;
  }
  if (!inplace) ks_copy_nocheck(o, s);
  if (ki_index_into(c, op, o, d, ix, src, val, kind)) return -1;
  if (inplace && nout > 0) ks_set_view(&out[0], s);
  return 0;
}
/* index_add(self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) */
static inline int ki_index_add(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_index_impl(c, out, nout, in, nin, "aten::index_add", KI_IX_ADD, 0);
}
static inline int ki_index_add_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_index_impl(c, out, nout, in, nin, "aten::index_add_", KI_IX_ADD, 1);
}
/* index_copy(self, int dim, Tensor index, Tensor source) */
static inline int ki_index_copy(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_index_impl(c, out, nout, in, nin, "aten::index_copy", KI_IX_COPY, 0);
}
static inline int ki_index_copy_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_index_impl(c, out, nout, in, nin, "aten::index_copy_", KI_IX_COPY, 1);
}
/* index_fill(self, int dim, Tensor index, Tensor|Scalar value) */
static inline int ki_index_fill(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_index_impl(c, out, nout, in, nin, "aten::index_fill", KI_IX_FILL, 0);
}
static inline int ki_index_fill_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_index_impl(c, out, nout, in, nin, "aten::index_fill_", KI_IX_FILL, 1);
}

/* ---- take / take_along_dim / put / masked_scatter ---------------------------------------- */
/* Element offset of the flat (row-major) position p of t. */
static inline int64_t ki_flat_off(const mck_tensor *t, int64_t p) {
  int64_t off = t->offset;
  for (int i = t->ndim - 1; i >= 0; i--) {
    off += (p % t->shape[i]) * t->stride[i];
    p /= t->shape[i];
  }
  return off;
}
/* take(self, Tensor index): self.flatten()[index], negative indices wrap */
static inline int ki_take(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  const char *op = "aten::take";
  const mck_tensor *s = in[0].u.t, *ix = in[1].u.t;
  if (ix->dtype != MCK_I64) return mck_fail(c, "%s: take(): Expected a long tensor for index, but got %s", op, mck_dtype_name(ix->dtype));
  int64_t n = mck_numel(s);
  if (n == 0 && mck_numel(ix) > 0) return mck_fail(c, "%s: take(): tried to take from an empty tensor", op);
  if (ks_check_range(c, op, ix, n, 1)) return -1;
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, s->dtype, ix->ndim, ix->shape)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_iter it;
  const int64_t *st[2] = {ix->stride, o->stride};
  int64_t base[2] = {ix->offset, o->offset};
  mck_iter_init(&it, ix->ndim, ix->shape, 2, st, base);
  mck_tensor src = *s, dst = *o;
  src.ndim = dst.ndim = 0;
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int64_t v = mck_geti(ix, it.off[0]);
    src.offset = ki_flat_off(s, v < 0 ? v + n : v);
    dst.offset = it.off[1];
    ks_copy_nocheck(&dst, &src);
  }
  return 0;
}
/* take_along_dim(self, Tensor indices, int? dim=None): gather along dim after broadcasting
 * self and indices on the other dims; None gathers from the flattened self. */
static inline int ki_take_along_dim(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::take_along_dim";
  const mck_tensor *s = in[0].u.t, *ix = in[1].u.t;
  if (ix->dtype != MCK_I64) return mck_fail(c, "%s: torch.take_along_dim(): dtype of indices should be Long but got %s", op, mck_dtype_name(ix->dtype));
  mck_tensor sv = *s, iv = *ix;
  int64_t d0 = 0;
  if (nin > 2 && in[2].kind != MCK_NONE) {
    if (ks_int(c, op, &in[2], 0, &d0)) return -1;
    if (s->ndim != ix->ndim)
      return mck_fail(c, "%s: torch.take_along_dim(): input and indices should have the same number of dimensions, but got %d dimensions for input, and %d dimensions for indices", op, s->ndim, ix->ndim);
    int d;
    if (ks_dim(c, op, d0, s->ndim, &d)) return -1;
    /* broadcast every dim but d */
    for (int i = 0; i < s->ndim; i++) {
      if (i == d) continue;
      int64_t a = s->shape[i], b = ix->shape[i];
      if (a != b && a != 1 && b != 1)
        return mck_fail(c, "%s: shape mismatch: the sizes %lld and %lld at dimension %d cannot be broadcast", op, (long long)a, (long long)b, i);
      int64_t m = a == 1 ? b : a;
      if (a != m) sv.shape[i] = m, sv.stride[i] = 0;
      if (b != m) iv.shape[i] = m, iv.stride[i] = 0;
    }
    d0 = d;
  } else {
    /* PyTorch flattens both with view(-1), which fails when their strides do not allow it */
    int64_t n1[1] = {mck_numel(s)}, n2[1] = {mck_numel(ix)}, st1[1], st2[1];
    if (ks_view_strides(s, 1, n1, st1) || ks_view_strides(ix, 1, n2, st2))
      return mck_fail(c, "%s: view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.", op);
    sv.ndim = iv.ndim = 1;
    sv.shape[0] = n1[0];
    sv.stride[0] = st1[0];
    iv.shape[0] = n2[0];
    iv.stride[0] = st2[0];
  }
  mck_arg gi[3];
  memset(gi, 0, sizeof gi);
  gi[0].kind = MCK_TENSOR;
  gi[0].u.t = &sv;
  gi[1].kind = MCK_INT;
  gi[1].u.i = d0;
  gi[2].kind = MCK_TENSOR;
  gi[2].u.t = &iv;
  if (ki_tensor_out(c, op, out, nout, 0)) return -1;
  return ks_gather(c, out, nout, gi, 3);
}

/* put(self, Tensor index, Tensor source, bool accumulate=False): self.flatten()[index] = source
 * (+= when accumulate), negative indices wrap; put_ in place. */
static inline int ki_put_impl(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                              const char *op, int inplace) {
  mck_tensor *s = in[0].u.t;
  const mck_tensor *ix = in[1].u.t, *src = in[2].u.t;
  int acc;
  if (ki_bool(c, op, in, nin, 3, 0, &acc)) return -1;
  if (ix->dtype != MCK_I64) return mck_fail(c, "%s: put_(): Expected a long tensor for index, but got %s", op, mck_dtype_name(ix->dtype));
  if (src->dtype != s->dtype)
    return mck_fail(c, "%s: put_(): self and source expected to have the same dtype, but got self.dtype = %s and source.dtype = %s", op, mck_dtype_name(s->dtype), mck_dtype_name(src->dtype));
  if (mck_numel(ix) != mck_numel(src))
    return mck_fail(c, "%s: put_(): Expected source and index to have the same number of elements, but got source.numel() = %lld, index.numel() = %lld", op, (long long)mck_numel(src), (long long)mck_numel(ix));
  int64_t n = mck_numel(s);
  if (n == 0 && mck_numel(ix) > 0) return mck_fail(c, "%s: put_(): Tried to put elements into an empty tensor", op);
  if (ks_check_range(c, op, ix, n, 1)) return -1;
  mck_tensor *o = s;
  if (!inplace) {
    if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, s->dtype, s->ndim, s->shape)) return -1;
    o = out[0].u.t;
  }
  if (!c->meta) {
    if (!inplace) ks_copy_nocheck(o, s);
    mck_iter it;
    const int64_t *st[1] = {ix->stride};
    int64_t base[1] = {ix->offset};
    mck_iter_init(&it, ix->ndim, ix->shape, 1, st, base);
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
      int64_t v = mck_geti(ix, it.off[0]);
      int64_t off = ki_flat_off(o, v < 0 ? v + n : v);
      int64_t soff = ki_flat_off(src, k);
      if (acc) ki_combine(o, off, src, soff, 0, KI_R_SUM);
      else ki_combine(o, off, src, soff, 0, KI_R_SET);
    }
  }
  if (inplace && nout > 0) ks_set_view(&out[0], s);
  return 0;
}
static inline int ki_put(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_put_impl(c, out, nout, in, nin, "aten::put", 0);
}
static inline int ki_put_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_put_impl(c, out, nout, in, nin, "aten::put_", 1);
}

/* masked_scatter(self, Tensor mask, Tensor source): where mask (broadcast) is true, the next
 * element of source in row-major order; masked_scatter_ in place (mask broadcast to self). */
static inline int ki_masked_scatter_impl(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                         const char *op, int inplace) {
  mck_tensor *s = in[0].u.t;
  const mck_tensor *m = in[1].u.t, *src = in[2].u.t;
  if (m->dtype != MCK_BOOL && m->dtype != MCK_U8)
    return mck_fail(c, "%s: masked_scatter_ only supports boolean masks, but got mask with dtype %s", op, mck_dtype_name(m->dtype));
  if (src->dtype != s->dtype)
    return mck_fail(c, "%s: masked_scatter: expected self and source to have same dtypes but got %s and %s", op, mck_dtype_name(s->dtype), mck_dtype_name(src->dtype));
  int nd;
  int64_t bs[MCK_MAX_DIMS];
  if (mck_broadcast_shape(s->ndim, s->shape, m->ndim, m->shape, &nd, bs))
    return mck_fail(c, "%s: the mask's shape cannot be broadcast to self's", op);
  if (inplace && !ks_same_shape(s, nd, bs))
    return mck_fail(c, "%s: the mask's shape cannot be broadcast to self's shape", op);
  mck_tensor *o = s;
  if (!inplace) {
    if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, s->dtype, nd, bs)) return -1;
    o = out[0].u.t;
  }
  if (!c->meta) {
    int64_t mst[MCK_MAX_DIMS];
    mck_broadcast_strides(m, nd, bs, mst);
    mck_iter it;
    const int64_t *st[2] = {o->stride, mst};
    int64_t base[2] = {o->offset, m->offset};
    mck_iter_init(&it, nd, bs, 2, st, base);
    int64_t need = 0, have = mck_numel(src);
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) need += mck_geti(m, it.off[1]) != 0;
    if (need > have) return mck_fail(c, "%s: Number of elements of source < number of ones in mask", op);
    if (!inplace) ks_copy_nocheck(o, s);
    mck_iter_init(&it, nd, bs, 2, st, base);
    int64_t j = 0;
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it))
      if (mck_geti(m, it.off[1]) != 0) ki_combine(o, it.off[0], src, ki_flat_off(src, j++), 0, KI_R_SET);
  }
  if (inplace && nout > 0) ks_set_view(&out[0], s);
  return 0;
}
static inline int ki_masked_scatter(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return ki_masked_scatter_impl(c, out, nout, in, "aten::masked_scatter", 0);
}
static inline int ki_masked_scatter_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return ki_masked_scatter_impl(c, out, nout, in, "aten::masked_scatter_", 1);
}
/* ---- outputs whose size depends on the data ---------------------------------------------- */
/* In meta mode these give the bound (every element selected) and set ctx->sized_by_data; the
 * real call counts and gives the output its real shape (mck_out_sized, docs/dynamic.md). */
static inline int ki_is_nonzero_at(const mck_tensor *t, int64_t off) {
  if (mck_is_float(t->dtype)) return mck_getf(t, off) != 0.0; /* NaN counts, as in PyTorch */
  return mck_geti(t, off) != 0;
}

/* nonzero(self) / argwhere(self): int64 [n, self.dim()] of the indices of the nonzero
 * elements, row-major (a 0-d self gives [n, 0]). */
static inline int ki_nonzero_impl(mck_ctx *c, mck_arg *out, const mck_arg *in, const char *op) {
  if (in[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects a tensor", op);
  const mck_tensor *t = in[0].u.t;
  mck_tensor *o = out[0].u.t;
  if (t->ndim > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dimensions", op);
  int64_t tot = mck_numel(t), cnt = 0;
  const int64_t *st[1] = {t->stride};
  int64_t base[1] = {t->offset};
  mck_iter it;
  if (!c->meta) {
    mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
    for (int64_t e = 0; e < tot; e++, mck_iter_next(&it)) cnt += ki_is_nonzero_at(t, it.off[0]);
  } else {
    cnt = tot;
  }
  int64_t shape[2] = {cnt, t->ndim};
  if (mck_out_sized(c, o, MCK_I64, 2, shape)) return -1;
  if (c->meta) return 0;
  int64_t *y = (int64_t *)o->data + o->offset, w = 0;
  mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
  for (int64_t e = 0; e < tot; e++, mck_iter_next(&it)) {
    if (!ki_is_nonzero_at(t, it.off[0])) continue;
    for (int i = 0; i < t->ndim; i++) y[w * t->ndim + i] = it.idx[i];
    w++;
  }
  return 0;
}
static inline int ki_nonzero(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return ki_nonzero_impl(c, out, in, "aten::nonzero");
}
static inline int ki_argwhere(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return ki_nonzero_impl(c, out, in, "aten::argwhere");
}

/* masked_select(self, mask): the elements of self where the (bool) mask is true, self and mask
 * broadcast together, row-major, as a 1-d tensor of self's dtype. */
static inline int ki_masked_select(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  if (in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR) return mck_fail(c, "aten::masked_select: expects tensors");
  const mck_tensor *t = in[0].u.t, *m = in[1].u.t;
  mck_tensor *o = out[0].u.t;
  if (m->dtype != MCK_BOOL)
    return mck_fail(c, "aten::masked_select: expected BoolTensor for mask");
  int nb = 0;
  int64_t bs[MCK_MAX_DIMS] = {0}, ts[MCK_MAX_DIMS], ms[MCK_MAX_DIMS];
  if (mck_broadcast_shape(t->ndim, t->shape, m->ndim, m->shape, &nb, bs))
    return mck_fail(c, "aten::masked_select: The size of tensor a must match the size of tensor b at a non-singleton dimension");
  mck_broadcast_strides(t, nb, bs, ts);
  mck_broadcast_strides(m, nb, bs, ms);
  int64_t tot = 1, cnt = 0;
  for (int i = 0; i < nb; i++) tot *= bs[i];
  const int64_t *st[2] = {ts, ms};
  int64_t base[2] = {t->offset, m->offset};
  mck_iter it;
  if (!c->meta) {
    mck_iter_init(&it, nb, bs, 2, st, base);
    for (int64_t e = 0; e < tot; e++, mck_iter_next(&it)) cnt += mck_geti(m, it.off[1]) != 0;
  } else {
    cnt = tot;
  }
  if (mck_out_sized(c, o, t->dtype, 1, &cnt)) return -1;
  if (c->meta) return 0;
  size_t es = mck_dtype_size(t->dtype);
  char *y = (char *)o->data + o->offset * (int64_t)es;
  const char *x = (const char *)t->data;
  mck_iter_init(&it, nb, bs, 2, st, base);
  for (int64_t e = 0; e < tot; e++, mck_iter_next(&it)) {
    if (mck_geti(m, it.off[1]) == 0) continue;
    memcpy(y, x + it.off[0] * (int64_t)es, es);
    y += es;
  }
  return 0;
}
#endif
