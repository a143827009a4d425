/* k_shape_util.h — the shape family's helpers (prefix ks_): reading arguments, dims and int
 * lists, contiguous strides, element copies between strided tensors. The conventions of the
 * family are stated in k_shape.h.
 */
#ifndef K_SHAPE_UTIL_H
#define K_SHAPE_UTIL_H

#ifndef MCK_H
#include "mck.h"
#endif

/* ---- helpers ----------------------------------------------------------------------------- */
static inline mck_tensor ks_in(const mck_arg *a) { return *a->u.t; }

static inline void ks_set_view(mck_arg *out, const mck_tensor *v) {
  out->kind = MCK_TENSOR;
  *out->u.t = *v;
}

/* Reads an int list argument (a plain int counts as a one-element list). 0, or -1 when the
 * value is not known / not a list. */
static inline int ks_ints(const mck_arg *a, const int64_t **p, int *n, int64_t *one) {
  *p = one;
  *n = 0;
  if (a->kind == MCK_INTS || a->kind == MCK_BOOLS) {
    *p = a->u.ints;
    *n = a->n;
    return 0;
  }
  if (a->kind == MCK_INT) {
    *one = a->u.i;
    *p = one;
    *n = 1;
    return 0;
  }
  if (a->kind == MCK_NONE) {
    *p = one;
    *n = 0;
    return 0;
  }
  return -1;
}

/* An int argument that must be known; `dflt` for None. */
static inline int ks_int(mck_ctx *c, const char *op, const mck_arg *a, int64_t dflt,
                         int64_t *v) {
  *v = dflt;
  if (a->kind == MCK_NONE) {
    *v = dflt;
    return 0;
  }
  if (a->kind == MCK_INT || a->kind == MCK_BOOL_ARG) {
    *v = a->u.i;
    return 0;
  }
  if (a->kind == MCK_UNKNOWN) return mck_fail(c, "%s: argument must be a compile-time constant", op);
  return mck_fail(c, "%s: expected an int argument", op);
}

static inline int ks_dim(mck_ctx *c, const char *op, int64_t d, int ndim, int *out) {
  *out = 0;
  int w = mck_wrap_dim(d, ndim);
  if (w < 0) {
    int m = ndim > 0 ? ndim : 1;
    return mck_fail(c, "%s: dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                    op, -m, m - 1, (long long)d);
  }
  *out = w;
  return 0;
}

static inline void ks_shape_str(char *buf, size_t cap, int n, const int64_t *s) {
  size_t k = 0;
  k += (size_t)snprintf(buf + k, cap - k, "[");
  for (int i = 0; i < n && k < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, i ? ", %lld" : "%lld", (long long)s[i]);
  if (k < cap) snprintf(buf + k, cap - k, "]");
}

/* Copies src (broadcast to dst's shape, cast to dst's dtype) into dst through both strides.
 * No overlap check. */
static inline void ks_copy_nocheck(mck_tensor *dst, const mck_tensor *src) {
  int64_t sst[MCK_MAX_DIMS];
  mck_broadcast_strides(src, dst->ndim, dst->shape, sst);
  if (mck_numel(dst) == 0) return;
  if (dst->dtype == src->dtype && src->ndim == dst->ndim && mck_is_contiguous(dst) &&
      mck_is_contiguous(src)) {
    int same = 1;
    for (int i = 0; i < dst->ndim; i++) same &= src->shape[i] == dst->shape[i];
    if (same) {
      size_t es = mck_dtype_size(dst->dtype);
      memmove((char *)dst->data + (size_t)dst->offset * es,
              (const char *)src->data + (size_t)src->offset * es, (size_t)mck_numel(dst) * es);
      return;
    }
  }
  mck_iter it;
  const int64_t *st[2] = {dst->stride, sst};
  int64_t base[2] = {dst->offset, src->offset};
  mck_iter_init(&it, dst->ndim, dst->shape, 2, st, base);
  if (dst->dtype == src->dtype) {
    switch (mck_dtype_size(dst->dtype)) {
    case 1: {
      uint8_t *d = (uint8_t *)dst->data;
      const uint8_t *s = (const uint8_t *)src->data;
      for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) d[it.off[0]] = s[it.off[1]];
      return;
    }
    case 2: {
      uint16_t *d = (uint16_t *)dst->data;
      const uint16_t *s = (const uint16_t *)src->data;
      for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) d[it.off[0]] = s[it.off[1]];
      return;
    }
    case 4: {
      uint32_t *d = (uint32_t *)dst->data;
      const uint32_t *s = (const uint32_t *)src->data;
      for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) d[it.off[0]] = s[it.off[1]];
      return;
    }
    default: {
      uint64_t *d = (uint64_t *)dst->data;
      const uint64_t *s = (const uint64_t *)src->data;
      for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) d[it.off[0]] = s[it.off[1]];
      return;
    }
    }
  }
  if (mck_is_float(dst->dtype) || mck_is_float(src->dtype)) {
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it))
      mck_setf(dst, it.off[0], mck_getf(src, it.off[1]));
  } else {
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it))
      mck_seti(dst, it.off[0], mck_geti(src, it.off[1]));
  }
}

/* Byte range [lo, hi) a tensor's elements occupy; lo == hi when empty. */
static inline void ks_extent(const mck_tensor *t, uintptr_t *lo, uintptr_t *hi) {
  int64_t mn = t->offset, mx = t->offset;
  size_t es = mck_dtype_size(t->dtype);
  if (mck_numel(t) == 0 || !t->data) {
    *lo = *hi = 0;
    return;
  }
  for (int i = 0; i < t->ndim; i++) {
    int64_t span = (t->shape[i] - 1) * t->stride[i];
    if (span > 0) mx += span;
    else mn += span;
  }
  *lo = (uintptr_t)t->data + (uintptr_t)mn * es;
  *hi = (uintptr_t)t->data + (uintptr_t)(mx + 1) * es;
}

/* Like ks_copy_nocheck, but checks broadcasting and goes through a temporary when src and dst
 * overlap in memory. */
static inline int ks_copy(mck_ctx *c, const char *op, mck_tensor *dst, const mck_tensor *src) {
  int nb = 0;
  int64_t bs[MCK_MAX_DIMS];
  int ok = mck_broadcast_shape(dst->ndim, dst->shape, src->ndim, src->shape, &nb, bs) == 0 &&
           nb == dst->ndim;
  for (int i = 0; ok && i < nb; i++) ok = bs[i] == dst->shape[i];
  if (!ok) {
    char a[96], b[96];
    ks_shape_str(a, sizeof a, src->ndim, src->shape);
    ks_shape_str(b, sizeof b, dst->ndim, dst->shape);
    return mck_fail(c, "%s: source of shape %s cannot be broadcast to destination shape %s", op,
                    a, b);
  }
  uintptr_t dl, dh, sl, sh;
  ks_extent(dst, &dl, &dh);
  ks_extent(src, &sl, &sh);
  if (dl < dh && sl < sh && dl < sh && sl < dh) {
    mck_tensor tmp = *src;
    size_t es = mck_dtype_size(src->dtype);
    tmp.offset = 0;
    mck_contiguous_strides(&tmp);
    tmp.data = malloc((size_t)mck_numel(src) * es);
    if (!tmp.data) return mck_fail(c, "%s: out of memory", op);
    ks_copy_nocheck(&tmp, src);
    ks_copy_nocheck(dst, &tmp);
    free(tmp.data);
    return 0;
  }
  ks_copy_nocheck(dst, src);
  return 0;
}

/* Computes the strides of `in` viewed with shape (n, ns), PyTorch's computeStride. 0 if a view
 * is possible, -1 otherwise. */
static inline int ks_view_strides(const mck_tensor *in, int n, const int64_t *ns, int64_t *st) {
  if (in->ndim == 0) {
    for (int i = 0; i < n; i++) st[i] = 1;
    return 0;
  }
  int64_t numel = mck_numel(in);
  if (numel == 0) {
    int same = n == in->ndim;
    for (int i = 0; same && i < n; i++) same = ns[i] == in->shape[i];
    if (same) {
      for (int i = 0; i < n; i++) st[i] = in->stride[i];
      return 0;
    }
    for (int d = n - 1; d >= 0; d--)
      st[d] = d == n - 1 ? 1 : (ns[d + 1] > 1 ? ns[d + 1] : 1) * st[d + 1];
    return 0;
  }
  int view_d = n - 1;
  int64_t chunk = in->stride[in->ndim - 1], tnumel = 1, vnumel = 1;
  for (int td = in->ndim - 1; td >= 0; td--) {
    tnumel *= in->shape[td];
    if (td == 0 || (in->shape[td - 1] != 1 && in->stride[td - 1] != tnumel * chunk)) {
      while (view_d >= 0 && (vnumel < tnumel || ns[view_d] == 1)) {
        st[view_d] = vnumel * chunk;
        vnumel *= ns[view_d];
        view_d--;
      }
      if (vnumel != tnumel) return -1;
      if (td > 0) {
        chunk = in->stride[td - 1];
        tnumel = 1;
        vnumel = 1;
      }
    }
  }
  return view_d == -1 ? 0 : -1;
}

/* Resolves a size list with at most one -1 against numel (PyTorch's infer_size). */
static inline int ks_infer_size(mck_ctx *c, const char *op, int64_t numel, int n,
                                const int64_t *sz, int64_t *out) {
  int infer = -1;
  int64_t prod = 1;
  char b[128];
  if (n > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dimensions (%d)", op, n);
  for (int i = 0; i < n; i++) {
    out[i] = sz[i];
    if (sz[i] == -1) {
      if (infer >= 0) return mck_fail(c, "%s: only one dimension can be inferred", op);
      infer = i;
    } else if (sz[i] < 0) {
      return mck_fail(c, "%s: invalid shape dimension %lld", op, (long long)sz[i]);
    } else {
      prod = mck_mul_sat(prod, sz[i]);
    }
  }
  if (infer >= 0) {
    if (prod == 0) {
      ks_shape_str(b, sizeof b, n, sz);
      return mck_fail(c, "%s: cannot reshape tensor of %lld elements into shape %s because the "
                      "unspecified dimension size -1 can be any value",
                      op, (long long)numel, b);
    }
    if (numel % prod == 0) {
      out[infer] = numel / prod;
      return 0;
    }
  } else if (prod == numel) {
    return 0;
  }
  ks_shape_str(b, sizeof b, n, sz);
  return mck_fail(c, "%s: shape '%s' is invalid for input of size %lld", op, b, (long long)numel);
}

/* Shared body of the MAYBE_VIEW ops: output `in` with shape (n, ns) as a view when possible,
 * else as a contiguous copy (see the file comment). */
static inline int ks_reshape_to(mck_ctx *c, const char *op, mck_arg *out, const mck_tensor *in,
                                int n, const int64_t *ns, int force_contig) {
  int64_t st[MCK_MAX_DIMS];
  int view = force_contig ? mck_is_contiguous(in) : ks_view_strides(in, n, ns, st) == 0;
  if (view) {
    mck_tensor v = *in;
    v.ndim = n;
    for (int i = 0; i < n; i++) {
      v.shape[i] = ns[i];
      v.stride[i] = force_contig ? in->stride[i] : st[i];
    }
    ks_set_view(out, &v);
    return 0;
  }
  mck_tensor *o = out->u.t;
  out->kind = MCK_TENSOR;
  if (c->meta) {
    mck_out_shape(o, in->dtype, n, ns);
    o->data = NULL;
    o->offset = -1;
    return 0;
  }
  if (mck_check_out(c, o, in->dtype, n, ns)) return -1;
  if (!o->data) return mck_fail(c, "internal: %s needs a copy but the output has no buffer", op);
  mck_tensor src = *in, dst = *o;
  /* view the copy target with the input's shape: both are walked in row-major order */
  dst.ndim = in->ndim;
  for (int i = 0; i < in->ndim; i++) dst.shape[i] = in->shape[i];
  mck_contiguous_strides(&dst);
  ks_copy_nocheck(&dst, &src);
  return 0;
}

#endif
