/* k_shape.h — kernels of the shape family: views (view, reshape, slice, select, transpose,
 * permute, expand, squeeze, diagonal, ...), copy-making shape ops (cat, stack, repeat, flip,
 * roll, gather, index_select, embedding, index, index_put, *_scatter), copy_, and the scalar ops
 * that read a tensor's metadata or value (size, dim, numel, Int, Float, Bool, ScalarImplicit,
 * NumToTensor, prim::min/max). Prefix: ks_ (helpers and kernels alike).
 *
 * Invariants and conventions:
 * - A view kernel writes its whole output descriptor (data, offset, dtype, ndim, shape, stride)
 *   from input 0; it never touches memory, so it runs the same in meta and real mode.
 * - OPF_MAYBE_VIEW ops (reshape, flatten, contiguous, reshape_as). In meta mode the output is
 *   the view when the input's strides allow one (offset >= 0, data = the input's data), and
 *   otherwise a contiguous descriptor with the sentinel `offset = -1`: "a fresh tensor is
 *   needed". In real mode the caller prepares the output as a fresh tensor (it may leave
 *   data NULL when meta mode said "view"); the kernel either overwrites the descriptor with the
 *   view — then out->data == in->data — or copies into the prepared buffer (failing when data is
 *   NULL). The view/copy decision is PyTorch's (computeStride for reshape, is_contiguous for
 *   contiguous).
 * - Tensor?[] arguments (index, index_put) arrive as MCK_TENSORS whose NULL entries are None.
 * - EFF_WRITE kernels (copy_, index_put_) write input 0 through its strides and set out[0] to
 *   input 0's descriptor. copy_ is correct when source and destination overlap in memory: it
 *   copies through a temporary then.
 * - Scalar results set out->kind (MCK_INT / MCK_FLOAT / MCK_BOOL_ARG / MCK_INTS) and the value;
 *   MCK_UNKNOWN when the value is not known in meta mode. aten::size(self) writes into the
 *   caller's out->u.ints (room for MCK_MAX_DIMS entries).
 */
#ifndef K_SHAPE_H
#define K_SHAPE_H

#include "mck.h"

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

/* ---- views ------------------------------------------------------------------------------- */
/* aten::view(self, int[] size) */
static inline int ks_view(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  const int64_t *sz;
  int n;
  int64_t one, ns[MCK_MAX_DIMS], st[MCK_MAX_DIMS];
  if (ks_ints(&in[1], &sz, &n, &one))
    return mck_fail(c, "aten::view: size must be a compile-time constant int list");
  if (ks_infer_size(c, "aten::view", mck_numel(&t), n, sz, ns)) return -1;
  if (ks_view_strides(&t, n, ns, st)) {
    return mck_fail(c, "aten::view: view size is not compatible with input tensor's size and "
                    "stride (at least one dimension spans across two contiguous subspaces). "
                    "Use .reshape(...) instead.");
  }
  t.ndim = n;
  for (int i = 0; i < n; i++) {
    t.shape[i] = ns[i];
    t.stride[i] = st[i];
  }
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::reshape(self, int[] shape) */
static inline int ks_reshape(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *t = in[0].u.t;
  const int64_t *sz;
  int n;
  int64_t one, ns[MCK_MAX_DIMS];
  if (ks_ints(&in[1], &sz, &n, &one))
    return mck_fail(c, "aten::reshape: shape must be a compile-time constant int list");
  if (ks_infer_size(c, "aten::reshape", mck_numel(t), n, sz, ns)) return -1;
  return ks_reshape_to(c, "aten::reshape", out, t, n, ns, 0);
}

/* aten::reshape_as(self, other) */
static inline int ks_reshape_as(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *t = in[0].u.t, *o = in[1].u.t;
  int64_t ns[MCK_MAX_DIMS];
  if (ks_infer_size(c, "aten::reshape_as", mck_numel(t), o->ndim, o->shape, ns)) return -1;
  return ks_reshape_to(c, "aten::reshape_as", out, t, o->ndim, ns, 0);
}

/* aten::view_as(self, other) */
static inline int ks_view_as(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  mck_arg a[2];
  a[0] = in[0];
  a[1].kind = MCK_INTS;
  a[1].n = in[1].u.t->ndim;
  a[1].u.ints = in[1].u.t->shape;
  return ks_view(c, out, nout, a, nin);
}

/* aten::flatten(self, int start_dim=0, int end_dim=-1) */
static inline int ks_flatten(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *t = in[0].u.t;
  int64_t s0, e0, ns[MCK_MAX_DIMS];
  int s, e, n = 0;
  if (ks_int(c, "aten::flatten", nin > 1 ? &in[1] : &(mck_arg){0, 0, {0}}, 0, &s0) ||
      ks_int(c, "aten::flatten", nin > 2 ? &in[2] : &(mck_arg){0, 0, {0}}, -1, &e0) ||
      ks_dim(c, "aten::flatten", s0, t->ndim, &s) || ks_dim(c, "aten::flatten", e0, t->ndim, &e))
    return -1;
  if (s > e) return mck_fail(c, "aten::flatten: start_dim cannot come after end_dim");
  if (t->ndim == 0) {
    ns[0] = 1;
    return ks_reshape_to(c, "aten::flatten", out, t, 1, ns, 0);
  }
  if (s == e) {
    ks_set_view(&out[0], t);
    return 0;
  }
  for (int i = 0; i < s; i++) ns[n++] = t->shape[i];
  int64_t p = 1;
  for (int i = s; i <= e; i++) p *= t->shape[i];
  ns[n++] = p;
  for (int i = e + 1; i < t->ndim; i++) ns[n++] = t->shape[i];
  return ks_reshape_to(c, "aten::flatten", out, t, n, ns, 0);
}

/* aten::contiguous(self, memory_format=0) */
static inline int ks_contiguous(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *t = in[0].u.t;
  return ks_reshape_to(c, "aten::contiguous", out, t, t->ndim, t->shape, 1);
}

/* aten::unflatten(self, int dim, int[] sizes): a view */
static inline int ks_unflatten(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const mck_tensor *t = in[0].u.t;
  int64_t d0, one, ns[MCK_MAX_DIMS], rs[MCK_MAX_DIMS];
  const int64_t *sz;
  int d, n, k = 0;
  if (ks_int(c, "aten::unflatten", &in[1], 0, &d0) || ks_dim(c, "aten::unflatten", d0, t->ndim, &d))
    return -1;
  if (ks_ints(&in[2], &sz, &n, &one))
    return mck_fail(c, "aten::unflatten: sizes must be a compile-time constant int list");
  if (n == 0) return mck_fail(c, "aten::unflatten: sizes must be non-empty");
  if (t->ndim - 1 + n > MCK_MAX_DIMS) return mck_fail(c, "aten::unflatten: too many dimensions");
  if (ks_infer_size(c, "aten::unflatten", t->ndim ? t->shape[d] : 1, n, sz, rs)) return -1;
  for (int i = 0; i < d; i++) ns[k++] = t->shape[i];
  for (int i = 0; i < n; i++) ns[k++] = rs[i];
  for (int i = d + 1; i < t->ndim; i++) ns[k++] = t->shape[i];
  mck_arg a[2];
  a[0] = in[0];
  a[1].kind = MCK_INTS;
  a[1].n = k;
  a[1].u.ints = ns;
  return ks_view(c, out, nout, a, nin);
}

static inline int ks_slice_desc(mck_ctx *c, const char *op, mck_tensor *t, int64_t d0,
                                const mck_arg *start, const mck_arg *end, int64_t step) {
  int d;
  int64_t s, e;
  if (t->ndim == 0) return mck_fail(c, "%s: slice() cannot be applied to a 0-dim tensor.", op);
  if (ks_dim(c, op, d0, t->ndim, &d) || ks_int(c, op, start, 0, &s) ||
      ks_int(c, op, end, INT64_MAX, &e))
    return -1;
  if (step <= 0) return mck_fail(c, "%s: slice step must be positive", op);
  int64_t n = t->shape[d];
  if (s < 0) s += n;
  if (e < 0) e += n;
  if (s < 0) s = 0;
  else if (s >= n) s = n;
  if (e < s) e = s;
  else if (e >= n) e = n;
  t->offset += s * t->stride[d];
  t->shape[d] = e > s ? (e - s - 1) / step + 1 : 0;
  /* an extent-1 dim keeps its stride: stride * step may not fit, and iterators step over it once */
  if (t->shape[d] > 1) t->stride[d] *= step;
  return 0;
}

/* aten::slice(self, int dim=0, int? start=None, int? end=None, int step=1) */
static inline int ks_slice(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  mck_tensor t = ks_in(&in[0]);
  mck_arg none = {MCK_NONE, 0, {0}};
  int64_t d, step;
  if (ks_int(c, "aten::slice", nin > 1 ? &in[1] : &none, 0, &d) ||
      ks_int(c, "aten::slice", nin > 4 ? &in[4] : &none, 1, &step) ||
      ks_slice_desc(c, "aten::slice", &t, d, nin > 2 ? &in[2] : &none, nin > 3 ? &in[3] : &none,
                    step))
    return -1;
  ks_set_view(&out[0], &t);
  return 0;
}

static inline int ks_select_desc(mck_ctx *c, const char *op, mck_tensor *t, int64_t d0,
                                 int64_t idx) {
  int d;
  if (t->ndim == 0) return mck_fail(c, "%s: select() cannot be applied to a 0-dim tensor.", op);
  if (ks_dim(c, op, d0, t->ndim, &d)) return -1;
  int64_t n = t->shape[d];
  if (idx < -n || idx >= n)
    return mck_fail(c, "%s: index %lld out of range for tensor of size %lld at dimension %d", op,
                    (long long)idx, (long long)n, d);
  if (idx < 0) idx += n;
  t->offset += idx * t->stride[d];
  for (int i = d; i < t->ndim - 1; i++) {
    t->shape[i] = t->shape[i + 1];
    t->stride[i] = t->stride[i + 1];
  }
  t->ndim--;
  return 0;
}

/* aten::select(self, int dim, int index) */
static inline int ks_select(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  int64_t d, i;
  if (ks_int(c, "aten::select", &in[1], 0, &d) || ks_int(c, "aten::select", &in[2], 0, &i) ||
      ks_select_desc(c, "aten::select", &t, d, i))
    return -1;
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::narrow(self, int dim, int start, int length) */
static inline int ks_narrow(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  int64_t d0, s, l;
  int d;
  if (t.ndim == 0) return mck_fail(c, "aten::narrow: narrow() cannot be applied to a 0-dim tensor.");
  if (ks_int(c, "aten::narrow", &in[1], 0, &d0) || ks_int(c, "aten::narrow", &in[2], 0, &s) ||
      ks_int(c, "aten::narrow", &in[3], 0, &l) || ks_dim(c, "aten::narrow", d0, t.ndim, &d))
    return -1;
  int64_t n = t.shape[d];
  if (s < -n || s > n)
    return mck_fail(c, "aten::narrow: start (%lld) out of range for dimension %d of size %lld",
                    (long long)s, d, (long long)n);
  if (s < 0) s += n;
  if (l < 0 || l > n - s)
    return mck_fail(c, "aten::narrow: start (%lld) + length (%lld) exceeds dimension size (%lld).",
                    (long long)s, (long long)l, (long long)n);
  t.offset += s * t.stride[d];
  t.shape[d] = l;
  ks_set_view(&out[0], &t);
  return 0;
}

static inline void ks_swap_dims(mck_tensor *t, int a, int b) {
  int64_t x = t->shape[a], y = t->stride[a];
  t->shape[a] = t->shape[b];
  t->stride[a] = t->stride[b];
  t->shape[b] = x;
  t->stride[b] = y;
}

/* aten::transpose(self, int dim0, int dim1) */
static inline int ks_transpose(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  int64_t a0, b0;
  int a, b;
  if (ks_int(c, "aten::transpose", &in[1], 0, &a0) || ks_int(c, "aten::transpose", &in[2], 0, &b0) ||
      ks_dim(c, "aten::transpose", a0, t.ndim, &a) || ks_dim(c, "aten::transpose", b0, t.ndim, &b))
    return -1;
  if (t.ndim > 0) ks_swap_dims(&t, a, b);
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::t(self): transpose of a matrix; vectors and scalars unchanged */
static inline int ks_t(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  if (t.ndim > 2)
    return mck_fail(c, "aten::t: t() expects a tensor with <= 2 dimensions, but self is %dD", t.ndim);
  if (t.ndim == 2) ks_swap_dims(&t, 0, 1);
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::numpy_T(self): all dims reversed */
static inline int ks_numpy_T(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)c, (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  for (int i = 0; i < t.ndim / 2; i++) ks_swap_dims(&t, i, t.ndim - 1 - i);
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::mT(self): last two dims swapped */
static inline int ks_mT(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  if (t.ndim < 2) return mck_fail(c, "aten::mT: tensor.mT is only supported on matrices or batches of matrices. Got %d-D tensor.", t.ndim);
  ks_swap_dims(&t, t.ndim - 2, t.ndim - 1);
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::permute(self, int[] dims) */
static inline int ks_permute(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *s = in[0].u.t;
  mck_tensor t = *s;
  const int64_t *p;
  int n, seen[MCK_MAX_DIMS] = {0};
  int64_t one;
  if (ks_ints(&in[1], &p, &n, &one))
    return mck_fail(c, "aten::permute: dims must be a compile-time constant int list");
  if (n != s->ndim)
    return mck_fail(c, "aten::permute: number of dims don't match in permute (%d vs %d)", n, s->ndim);
  for (int i = 0; i < n; i++) {
    int d;
    if (ks_dim(c, "aten::permute", p[i], s->ndim, &d)) return -1;
    if (seen[d]) return mck_fail(c, "aten::permute: repeated dim in permute");
    seen[d] = 1;
    t.shape[i] = s->shape[d];
    t.stride[i] = s->stride[d];
  }
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::movedim(self, int[]|int source, int[]|int destination) */
static inline int ks_movedim(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *s = in[0].u.t;
  const int64_t *src, *dst;
  int ns, nd, n = s->ndim, perm[MCK_MAX_DIMS], used_src[MCK_MAX_DIMS] = {0},
                 used_dst[MCK_MAX_DIMS] = {0};
  int64_t o1, o2;
  if (ks_ints(&in[1], &src, &ns, &o1) || ks_ints(&in[2], &dst, &nd, &o2))
    return mck_fail(c, "aten::movedim: source and destination must be compile-time constants");
  if (ns != nd)
    return mck_fail(c, "aten::movedim: Invalid source or destination dims: source (%d dims) should contain the same number of dims as destination (%d dims)", ns, nd);
  for (int i = 0; i < n; i++) perm[i] = -1;
  for (int i = 0; i < ns; i++) {
    int a, b;
    if (ks_dim(c, "aten::movedim", src[i], n, &a) || ks_dim(c, "aten::movedim", dst[i], n, &b))
      return -1;
    if (n == 0) continue;
    if (used_src[a] || used_dst[b]) return mck_fail(c, "aten::movedim: repeated dim");
    used_src[a] = used_dst[b] = 1;
    perm[b] = a;
  }
  int next = 0;
  for (int i = 0; i < n; i++) {
    if (perm[i] >= 0) continue;
    while (used_src[next]) next++;
    perm[i] = next++;
  }
  mck_tensor t = *s;
  for (int i = 0; i < n; i++) {
    t.shape[i] = s->shape[perm[i]];
    t.stride[i] = s->stride[perm[i]];
  }
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::unsqueeze(self, int dim) */
static inline int ks_unsqueeze(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  int64_t d0;
  int d;
  if (ks_int(c, "aten::unsqueeze", &in[1], 0, &d0) ||
      ks_dim(c, "aten::unsqueeze", d0, t.ndim + 1, &d))
    return -1;
  if (t.ndim >= MCK_MAX_DIMS) return mck_fail(c, "aten::unsqueeze: too many dimensions");
  int64_t ns = d >= t.ndim ? 1 : t.shape[d] * t.stride[d];
  for (int i = t.ndim; i > d; i--) {
    t.shape[i] = t.shape[i - 1];
    t.stride[i] = t.stride[i - 1];
  }
  t.shape[d] = 1;
  t.stride[d] = ns;
  t.ndim++;
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::squeeze(self) / squeeze(self, int dim) / squeeze(self, int[] dims) */
static inline int ks_squeeze(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *s = in[0].u.t;
  int drop[MCK_MAX_DIMS] = {0};
  if (nin < 2 || in[1].kind == MCK_NONE) {
    for (int i = 0; i < s->ndim; i++) drop[i] = s->shape[i] == 1;
  } else {
    const int64_t *p;
    int n;
    int64_t one;
    if (ks_ints(&in[1], &p, &n, &one))
      return mck_fail(c, "aten::squeeze: dim must be a compile-time constant");
    for (int i = 0; i < n; i++) {
      int d;
      if (ks_dim(c, "aten::squeeze", p[i], s->ndim, &d)) return -1;
      if (s->ndim > 0) drop[d] = s->shape[d] == 1;
    }
  }
  mck_tensor t = *s;
  t.ndim = 0;
  for (int i = 0; i < s->ndim; i++) {
    if (drop[i]) continue;
    t.shape[t.ndim] = s->shape[i];
    t.stride[t.ndim++] = s->stride[i];
  }
  ks_set_view(&out[0], &t);
  return 0;
}

static inline int ks_expand_to(mck_ctx *c, const char *op, mck_arg *out, const mck_tensor *s,
                               int n, const int64_t *sz) {
  char a[96], b[96];
  if (n < s->ndim || n > MCK_MAX_DIMS) {
    return mck_fail(c, "%s: the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", op, n, s->ndim);
  }
  mck_tensor t = *s;
  t.ndim = n;
  for (int i = n - 1; i >= 0; i--) {
    int j = i - (n - s->ndim);
    int64_t want = sz[i];
    if (j < 0) {
      if (want < 0) return mck_fail(c, "%s: the expanded size of the tensor (%lld) isn't allowed in a leading, non-existing dimension %d", op, (long long)want, i);
      t.shape[i] = want;
      t.stride[i] = 0;
      continue;
    }
    if (want == -1) want = s->shape[j];
    if (s->shape[j] == want) {
      t.shape[i] = want;
      t.stride[i] = s->stride[j];
    } else if (s->shape[j] == 1 && want >= 0) {
      t.shape[i] = want;
      t.stride[i] = 0;
    } else {
      ks_shape_str(a, sizeof a, s->ndim, s->shape);
      ks_shape_str(b, sizeof b, n, sz);
      return mck_fail(c, "%s: the expanded size of the tensor (%lld) must match the existing size (%lld) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                      op, (long long)want, (long long)s->shape[j], i, b, a);
    }
  }
  if (!mck_shape_fits(t.ndim, t.shape, (int64_t)mck_dtype_size(t.dtype)))
    return mck_fail(c, "%s: the expanded tensor's size is beyond int64", op);
  ks_set_view(out, &t);
  return 0;
}

/* aten::expand(self, int[] size, *, bool implicit=False) */
static inline int ks_expand(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const int64_t *sz;
  int n;
  int64_t one;
  if (ks_ints(&in[1], &sz, &n, &one))
    return mck_fail(c, "aten::expand: size must be a compile-time constant int list");
  return ks_expand_to(c, "aten::expand", &out[0], in[0].u.t, n, sz);
}

/* aten::expand_as(self, other) */
static inline int ks_expand_as(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return ks_expand_to(c, "aten::expand_as", &out[0], in[0].u.t, in[1].u.t->ndim, in[1].u.t->shape);
}

static inline int ks_diagonal_desc(mck_ctx *c, const char *op, mck_tensor *t, int64_t off,
                                   int64_t d10, int64_t d20) {
  int d1, d2;
  if (ks_dim(c, op, d10, t->ndim, &d1) || ks_dim(c, op, d20, t->ndim, &d2)) return -1;
  if (t->ndim < 2) return mck_fail(c, "%s: diagonal requires a tensor of at least 2 dimensions", op);
  if (d1 == d2) return mck_fail(c, "%s: diagonal dimensions cannot be identical %lld, %lld", op,
                                (long long)d10, (long long)d20);
  int64_t n1 = t->shape[d1], n2 = t->shape[d2], n;
  if (off >= 0) n = n1 < n2 - off ? n1 : n2 - off;
  else n = n1 + off < n2 ? n1 + off : n2;
  if (n < 0) n = 0;
  if (n > 0) t->offset += off >= 0 ? off * t->stride[d2] : -off * t->stride[d1];
  int64_t ds = t->stride[d1] + t->stride[d2];
  int k = 0;
  for (int i = 0; i < t->ndim; i++) {
    if (i == d1 || i == d2) continue;
    t->shape[k] = t->shape[i];
    t->stride[k++] = t->stride[i];
  }
  t->shape[k] = n;
  t->stride[k] = ds;
  t->ndim = k + 1;
  return 0;
}

/* aten::diagonal(self, int offset=0, int dim1=0, int dim2=1) */
static inline int ks_diagonal(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  mck_tensor t = ks_in(&in[0]);
  mck_arg none = {MCK_NONE, 0, {0}};
  int64_t off, d1, d2;
  if (ks_int(c, "aten::diagonal", nin > 1 ? &in[1] : &none, 0, &off) ||
      ks_int(c, "aten::diagonal", nin > 2 ? &in[2] : &none, 0, &d1) ||
      ks_int(c, "aten::diagonal", nin > 3 ? &in[3] : &none, 1, &d2) ||
      ks_diagonal_desc(c, "aten::diagonal", &t, off, d1, d2))
    return -1;
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::as_strided(self, int[] size, int[] stride, int? storage_offset=None) */
static inline int ks_as_strided(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  mck_tensor t = ks_in(&in[0]);
  const int64_t *sz, *st;
  int n, m;
  int64_t o1, o2, off;
  mck_arg none = {MCK_NONE, 0, {0}};
  if (ks_ints(&in[1], &sz, &n, &o1) || ks_ints(&in[2], &st, &m, &o2))
    return mck_fail(c, "aten::as_strided: size and stride must be compile-time constants");
  if (ks_int(c, "aten::as_strided", nin > 3 ? &in[3] : &none, t.offset, &off)) return -1;
  if (n != m || n > MCK_MAX_DIMS)
    return mck_fail(c, "aten::as_strided: mismatch in length of strides and shape");
  if (off < 0) return mck_fail(c, "aten::as_strided: negative storage offset %lld", (long long)off);
  /* The view must stay inside the elements self spans (self's storage is not known here
   * beyond them): offset + sum((size - 1) * stride) <= self's last element. */
  int64_t lo = t.offset, hi = t.offset, last = off, empty = 0;
  for (int i = 0; i < t.ndim; i++) {
    if (t.shape[i] == 0) empty = 1;
    int64_t e = mck_mul_sat(t.shape[i] > 0 ? t.shape[i] - 1 : 0, t.stride[i]);
    if (e < 0) lo = mck_add_ovf(lo, e, &lo) ? INT64_MIN : lo;
    else hi = mck_add_ovf(hi, e, &hi) ? INT64_MAX : hi;
  }
  int out_empty = 0;
  for (int i = 0; i < n; i++) {
    if (sz[i] < 0 || st[i] < 0) return mck_fail(c, "aten::as_strided: negative size or stride");
    if (sz[i] == 0) out_empty = 1;
  }
  for (int i = 0; i < n && !out_empty; i++) {
    int64_t e;
    if (mck_mul_ovf(sz[i] - 1, st[i], &e) || mck_add_ovf(last, e, &last))
      return mck_fail(c, "aten::as_strided: the view's extent overflows int64");
  }
  if (!out_empty && (empty || off < lo || last > hi))
    return mck_fail(c, "aten::as_strided: the view reaches elements %lld..%lld of the storage, "
                    "outside the %lld..%lld that self covers", (long long)off, (long long)last,
                    (long long)lo, (long long)(empty ? lo - 1 : hi));
  t.ndim = n;
  for (int i = 0; i < n; i++) {
    t.shape[i] = sz[i];
    t.stride[i] = sz[i] > 1 ? st[i] : 1; /* iterators step over an extent-1 dim once */
  }
  t.offset = off;
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::alias(self), aten::detach(self): the same tensor */
static inline int ks_alias(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)c, (void)nout, (void)nin;
  ks_set_view(&out[0], in[0].u.t);
  return 0;
}

/* ---- copies ------------------------------------------------------------------------------ */
/* aten::copy_(self, src, non_blocking=False); src may be a Scalar (copy_.int / copy_.float) */
static inline int ks_copy_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor *self = in[0].u.t;
  if (in[1].kind != MCK_TENSOR && !mck_arg_is_scalar(&in[1]) && !c->meta)
    return mck_fail(c, "aten::copy_: source must be a tensor or a number");
  if (!c->meta) {
    if (in[1].kind == MCK_TENSOR) {
      if (ks_copy(c, "aten::copy_", self, in[1].u.t)) return -1;
    } else {
      int64_t iv = in[1].u.i;
      double fv = mck_arg_f(&in[1]);
      mck_tensor s = {&iv, 0, MCK_I64, 0, {0}, {0}};
      if (in[1].kind == MCK_FLOAT) {
        s.data = &fv;
        s.dtype = MCK_F64;
      }
      ks_copy_nocheck(self, &s);
    }
  } else if (in[1].kind == MCK_TENSOR) {
    int nb = 0;
    int64_t bs[MCK_MAX_DIMS];
    const mck_tensor *src = in[1].u.t;
    int ok = mck_broadcast_shape(self->ndim, self->shape, src->ndim, src->shape, &nb, bs) == 0 &&
             nb == self->ndim;
    for (int i = 0; ok && i < nb; i++) ok = bs[i] == self->shape[i];
    if (!ok) return mck_fail(c, "aten::copy_: source cannot be broadcast to the destination");
  }
  ks_set_view(&out[0], self);
  return 0;
}

static inline int ks_same_shape(const mck_tensor *a, int n, const int64_t *s) {
  if (a->ndim != n) return 0;
  for (int i = 0; i < n; i++)
    if (a->shape[i] != s[i]) return 0;
  return 1;
}

/* A contiguous descriptor of self's dtype and shape, without data: the scatter ops compute their
 * view on it before the output is touched. */
static inline mck_tensor ks_template(const mck_tensor *self) {
  mck_tensor t = *self;
  t.data = NULL;
  mck_out_shape(&t, self->dtype, self->ndim, self->shape);
  return t;
}

/* v is the op's view of a template of self (ks_template); src must have exactly its shape.
 * Then the output o is set up, self copied into it and src into the view. */
static inline int ks_scatter_finish(mck_ctx *c, const char *op, mck_arg *out,
                                    const mck_tensor *self, mck_tensor *v, const mck_tensor *src) {
  mck_tensor *o = out->u.t;
  if (!ks_same_shape(src, v->ndim, v->shape)) {
    char a[96], b[96];
    ks_shape_str(a, sizeof a, v->ndim, v->shape);
    ks_shape_str(b, sizeof b, src->ndim, src->shape);
    return mck_fail(c, "%s: expected src to have a size equal to the slice of self. src size = %s, slice size = %s",
                    op, b, a);
  }
  int64_t lo = v->offset, hi = v->offset;
  for (int i = 0; i < v->ndim; i++) {
    if (v->shape[i] == 0) lo = 0, hi = -1, i = v->ndim;
    else hi += (v->shape[i] - 1) * v->stride[i];
  }
  if (lo < 0 || hi >= mck_numel(self))
    return mck_fail(c, "%s: the view lies outside self's %lld elements", op, (long long)mck_numel(self));
  out->kind = MCK_TENSOR;
  if (mck_out(c, o, self->dtype, self->ndim, self->shape)) return -1;
  if (c->meta) return 0;
  v->data = o->data;
  v->offset += o->offset;
  ks_copy_nocheck(o, self);
  ks_copy_nocheck(v, src);
  return 0;
}

/* aten::slice_scatter(self, src, int dim=0, int? start=None, int? end=None, int step=1) */
static inline int ks_slice_scatter(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *self = in[0].u.t;
  mck_arg none = {MCK_NONE, 0, {0}};
  int64_t d, step;
  mck_tensor v = ks_template(self);
  if (ks_int(c, "aten::slice_scatter", nin > 2 ? &in[2] : &none, 0, &d) ||
      ks_int(c, "aten::slice_scatter", nin > 5 ? &in[5] : &none, 1, &step) ||
      ks_slice_desc(c, "aten::slice_scatter", &v, d, nin > 3 ? &in[3] : &none,
                    nin > 4 ? &in[4] : &none, step))
    return -1;
  return ks_scatter_finish(c, "aten::slice_scatter", &out[0], self, &v, in[1].u.t);
}

/* aten::select_scatter(self, src, int dim, int index) */
static inline int ks_select_scatter(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *self = in[0].u.t;
  int64_t d, i;
  mck_tensor v = ks_template(self);
  if (ks_int(c, "aten::select_scatter", &in[2], 0, &d) ||
      ks_int(c, "aten::select_scatter", &in[3], 0, &i) ||
      ks_select_desc(c, "aten::select_scatter", &v, d, i))
    return -1;
  return ks_scatter_finish(c, "aten::select_scatter", &out[0], self, &v, in[1].u.t);
}

/* aten::diagonal_scatter(self, src, int offset=0, int dim1=0, int dim2=1) */
static inline int ks_diagonal_scatter(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *self = in[0].u.t;
  mck_arg none = {MCK_NONE, 0, {0}};
  int64_t off, d1, d2;
  mck_tensor v = ks_template(self);
  if (ks_int(c, "aten::diagonal_scatter", nin > 2 ? &in[2] : &none, 0, &off) ||
      ks_int(c, "aten::diagonal_scatter", nin > 3 ? &in[3] : &none, 0, &d1) ||
      ks_int(c, "aten::diagonal_scatter", nin > 4 ? &in[4] : &none, 1, &d2) ||
      ks_diagonal_desc(c, "aten::diagonal_scatter", &v, off, d1, d2))
    return -1;
  return ks_scatter_finish(c, "aten::diagonal_scatter", &out[0], self, &v, in[1].u.t);
}

/* aten::as_strided_scatter(self, src, int[] size, int[] stride, int? storage_offset=None) */
static inline int ks_as_strided_scatter(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                        int nin) {
  const mck_tensor *self = in[0].u.t;
  mck_tensor tmpl = ks_template(self), v;
  mck_arg vo = {MCK_TENSOR, 0, {0}}, a[4];
  vo.u.t = &v;
  a[0].kind = MCK_TENSOR;
  a[0].u.t = &tmpl;
  a[1] = in[2];
  a[2] = in[3];
  a[3] = nin > 4 ? in[4] : (mck_arg){MCK_NONE, 0, {0}};
  if (ks_as_strided(c, &vo, nout, a, 4)) return -1;
  return ks_scatter_finish(c, "aten::as_strided_scatter", &out[0], self, &v, in[1].u.t);
}

/* aten::cat(Tensor[] tensors, int dim=0): 1-D empty tensors are skipped (legacy) */
static inline int ks_cat(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  if (in[0].kind != MCK_TENSORS) return mck_fail(c, "aten::cat: expected a list of tensors");
  int n = in[0].n, first = -1, dt = -1, d;
  int64_t d0, ns[MCK_MAX_DIMS];
  mck_arg none = {MCK_NONE, 0, {0}};
  if (n == 0) return mck_fail(c, "aten::cat: expected a non-empty list of Tensors");
  if (ks_int(c, "aten::cat", nin > 1 ? &in[1] : &none, 0, &d0)) return -1;
  for (int k = 0; k < n; k++) {
    const mck_tensor *t = in[0].u.ts[k];
    dt = dt < 0 ? t->dtype : mck_promote_types(dt, t->dtype);
    if (t->ndim == 0)
      return mck_fail(c, "aten::cat: zero-dimensional tensor (at position %d) cannot be concatenated", k);
    if (first < 0 && !(t->ndim == 1 && t->shape[0] == 0)) first = k;
  }
  if (first < 0) first = 0;
  const mck_tensor *f = in[0].u.ts[first];
  if (ks_dim(c, "aten::cat", d0, f->ndim, &d)) return -1;
  for (int i = 0; i < f->ndim; i++) ns[i] = f->shape[i];
  ns[d] = 0;
  for (int k = 0; k < n; k++) {
    const mck_tensor *t = in[0].u.ts[k];
    if (t->ndim == 1 && t->shape[0] == 0 && k != first) continue;
    if (t->ndim != f->ndim)
      return mck_fail(c, "aten::cat: Tensors must have same number of dimensions: got %d and %d",
                      f->ndim, t->ndim);
    for (int i = 0; i < t->ndim; i++)
      if (i != d && t->shape[i] != f->shape[i])
        return mck_fail(c, "aten::cat: Sizes of tensors must match except in dimension %d. Expected size %lld but got size %lld for tensor number %d in the list.",
                        d, (long long)f->shape[i], (long long)t->shape[i], k);
    if (mck_add_ovf(ns[d], t->shape[d], &ns[d]))
      return mck_fail(c, "aten::cat: the concatenated size overflows int64");
  }
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, dt, f->ndim, ns)) return -1;
  if (c->meta) return 0;
  int64_t at = 0;
  for (int k = 0; k < n; k++) {
    const mck_tensor *t = in[0].u.ts[k];
    if (t->ndim == 1 && t->shape[0] == 0 && k != first) continue;
    mck_tensor v = *o;
    v.offset += at * v.stride[d];
    v.shape[d] = t->shape[d];
    ks_copy_nocheck(&v, t);
    at += t->shape[d];
  }
  return 0;
}

/* aten::stack(Tensor[] tensors, int dim=0) */
static inline int ks_stack(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  if (in[0].kind != MCK_TENSORS) return mck_fail(c, "aten::stack: expected a list of tensors");
  int n = in[0].n, dt = -1, d;
  int64_t d0, ns[MCK_MAX_DIMS];
  mck_arg none = {MCK_NONE, 0, {0}};
  if (n == 0) return mck_fail(c, "aten::stack: stack expects a non-empty TensorList");
  const mck_tensor *f = in[0].u.ts[0];
  if (ks_int(c, "aten::stack", nin > 1 ? &in[1] : &none, 0, &d0) ||
      ks_dim(c, "aten::stack", d0, f->ndim + 1, &d))
    return -1;
  if (f->ndim + 1 > MCK_MAX_DIMS) return mck_fail(c, "aten::stack: too many dimensions");
  for (int k = 0; k < n; k++) {
    const mck_tensor *t = in[0].u.ts[k];
    dt = dt < 0 ? t->dtype : mck_promote_types(dt, t->dtype);
    if (!ks_same_shape(t, f->ndim, f->shape))
      return mck_fail(c, "aten::stack: stack expects each tensor to be equal size, but got different sizes at entry %d", k);
  }
  for (int i = 0, j = 0; i <= f->ndim; i++) ns[i] = i == d ? n : f->shape[j++];
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, dt, f->ndim + 1, ns)) return -1;
  if (c->meta) return 0;
  for (int k = 0; k < n; k++) {
    mck_tensor v = *o;
    ks_select_desc(c, "aten::stack", &v, d, k);
    ks_copy_nocheck(&v, in[0].u.ts[k]);
  }
  return 0;
}

/* aten::repeat(self, int[] repeats) */
static inline int ks_repeat(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *s = in[0].u.t;
  const int64_t *r;
  int n;
  int64_t one, ns[MCK_MAX_DIMS], ss[MCK_MAX_DIMS], sst[MCK_MAX_DIMS];
  if (ks_ints(&in[1], &r, &n, &one))
    return mck_fail(c, "aten::repeat: repeats must be a compile-time constant int list");
  if (n < s->ndim)
    return mck_fail(c, "aten::repeat: Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  if (n > MCK_MAX_DIMS) return mck_fail(c, "aten::repeat: too many dimensions");
  for (int i = 0; i < n; i++) {
    int j = i - (n - s->ndim);
    ss[i] = j >= 0 ? s->shape[j] : 1;
    sst[i] = j >= 0 ? s->stride[j] : 0;
    if (r[i] < 0) return mck_fail(c, "aten::repeat: negative repeat %lld", (long long)r[i]);
    ns[i] = ss[i] * r[i];
  }
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, s->dtype, n, ns)) return -1;
  if (c->meta || mck_numel(o) == 0) return 0;
  mck_tensor src = *s;
  src.ndim = 0;
  mck_iter it;
  const int64_t *st[1] = {o->stride};
  int64_t base[1] = {o->offset};
  mck_iter_init(&it, n, ns, 1, st, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    src.offset = s->offset;
    for (int i = 0; i < n; i++) src.offset += (it.idx[i] % ss[i]) * sst[i];
    mck_tensor dst = *o;
    dst.ndim = 0;
    dst.offset = it.off[0];
    ks_copy_nocheck(&dst, &src);
  }
  return 0;
}

/* aten::flip(self, int[] dims) */
/* tril / triu: self with the elements above (tril) or below (triu) the `diagonal`-th
 * diagonal of the last two dims set to zero. */
static inline int ks_tri(mck_ctx *c, mck_arg *out, const mck_arg *in, int nin, int lower, const char *op) {
  const mck_tensor *s = in[0].u.t;
  int64_t k = nin > 1 && in[1].kind == MCK_INT ? in[1].u.i : 0;
  if (nin > 1 && in[1].kind != MCK_INT && in[1].kind != MCK_NONE)
    return mck_fail(c, "%s: diagonal must be a compile-time constant int", op);
  if (s->ndim < 2) return mck_fail(c, "%s: input tensor must have at least 2 dimensions", op);
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, s->dtype, s->ndim, s->shape)) return -1;
  if (c->meta) return 0;
  ks_copy_nocheck(o, s);
  int r = s->ndim - 2, q = s->ndim - 1;
  mck_iter it;
  mck_iter_init(&it, s->ndim, s->shape, 1, (const int64_t *const[]){o->stride}, (const int64_t[]){o->offset});
  for (int64_t n = 0; n < it.total; n++, mck_iter_next(&it)) {
    int64_t i = it.idx[r], j = it.idx[q];
    if (lower ? (j - i > k) : (j - i < k)) mck_seti(o, it.off[0], 0);
  }
  return 0;
}
static inline int ks_tril(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  return ks_tri(c, out, in, nin, 1, "aten::tril");
}
static inline int ks_triu(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  return ks_tri(c, out, in, nin, 0, "aten::triu");
}

static inline int ks_flip(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *s = in[0].u.t;
  const int64_t *p;
  int n, seen[MCK_MAX_DIMS] = {0};
  int64_t one;
  if (ks_ints(&in[1], &p, &n, &one))
    return mck_fail(c, "aten::flip: dims must be a compile-time constant int list");
  mck_tensor v = *s;
  for (int i = 0; i < n; i++) {
    int d;
    if (ks_dim(c, "aten::flip", p[i], s->ndim, &d)) return -1;
    if (s->ndim == 0) continue;
    if (seen[d]) return mck_fail(c, "aten::flip: dim %d appears multiple times in the list of dims", d);
    seen[d] = 1;
    if (v.shape[d] > 0) v.offset += (v.shape[d] - 1) * v.stride[d];
    v.stride[d] = -v.stride[d];
  }
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, s->dtype, s->ndim, s->shape)) return -1;
  if (!c->meta) ks_copy_nocheck(o, &v);
  return 0;
}

/* aten::roll(self, int[] shifts, int[] dims=[]): with no dims, rolls the flattened tensor */
static inline int ks_roll(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *s = in[0].u.t;
  const int64_t *sh, *dm;
  int nsh, ndm;
  int64_t o1, o2, shift[MCK_MAX_DIMS] = {0};
  mck_arg none = {MCK_NONE, 0, {0}};
  if (ks_ints(&in[1], &sh, &nsh, &o1) || ks_ints(nin > 2 ? &in[2] : &none, &dm, &ndm, &o2))
    return mck_fail(c, "aten::roll: shifts and dims must be compile-time constants");
  if (ndm == 0) {
    if (nsh != 1) return mck_fail(c, "aten::roll: shifts and dimensions must align. shifts: %d, dims: 0", nsh);
  } else if (nsh != ndm) {
    return mck_fail(c, "aten::roll: shifts and dimensions must align. shifts: %d, dims: %d", nsh, ndm);
  }
  for (int i = 0; i < ndm; i++) {
    int d;
    if (ks_dim(c, "aten::roll", dm[i], s->ndim, &d)) return -1;
    int64_t n = s->shape[d], r = n > 0 ? sh[i] % n : 0; /* shifts reduced into [0, n) */
    if (r < 0) r += n;
    shift[d] = shift[d] >= n - r ? shift[d] - (n - r) : shift[d] + r;
  }
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, s->dtype, s->ndim, s->shape)) return -1;
  if (c->meta) return 0;
  int64_t numel = mck_numel(s);
  if (numel == 0) return 0;
  mck_iter it;
  const int64_t *st[1] = {o->stride};
  int64_t base[1] = {o->offset};
  mck_iter_init(&it, s->ndim, s->shape, 1, st, base);
  mck_tensor src = *s, dst = *o;
  src.ndim = dst.ndim = 0;
  int64_t fs = ndm == 0 ? sh[0] % numel : 0;
  if (fs < 0) fs += numel;
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    src.offset = s->offset;
    if (ndm == 0) {
      int64_t lin = k >= fs ? k - fs : k - fs + numel;
      for (int i = s->ndim - 1; i >= 0; i--) {
        src.offset += (lin % s->shape[i]) * s->stride[i];
        lin /= s->shape[i];
      }
    } else {
      for (int i = 0; i < s->ndim; i++) {
        int64_t j = it.idx[i] >= shift[i] ? it.idx[i] - shift[i] : it.idx[i] - shift[i] + s->shape[i];
        src.offset += j * s->stride[i];
      }
    }
    dst.offset = it.off[0];
    ks_copy_nocheck(&dst, &src);
  }
  return 0;
}

/* Checks every value of the int tensor ix lies in [-n, n) (neg_ok) or [0, n); real mode only. */
static inline int ks_check_range(mck_ctx *c, const char *op, const mck_tensor *ix, int64_t n,
                                 int neg_ok) {
  if (c->meta) return 0;
  mck_iter it;
  memset(&it, 0, sizeof it); /* gcc -O3 cannot see that a rank-0 walk reads no shape */
  const int64_t *st[1] = {ix->stride};
  int64_t base[1] = {ix->offset};
  mck_iter_init(&it, ix->ndim, ix->shape, 1, st, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int64_t v = mck_geti(ix, it.off[0]);
    if (v >= n || v < (neg_ok ? -n : 0))
      return mck_fail(c, "%s: index %lld is out of bounds for a dimension of size %lld", op,
                      (long long)v, (long long)n);
  }
  return 0;
}

static inline int ks_index_dtype_ok(const mck_tensor *t) {
  return t->dtype == MCK_I64 || t->dtype == MCK_I32;
}

/* aten::index_select(self, int dim, Tensor index) */
static inline int ks_index_select(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *s = in[0].u.t, *ix = in[2].u.t;
  int64_t d0, ns[MCK_MAX_DIMS];
  int d;
  if (ks_int(c, "aten::index_select", &in[1], 0, &d0) ||
      ks_dim(c, "aten::index_select", d0, s->ndim, &d))
    return -1;
  if (!ks_index_dtype_ok(ix))
    return mck_fail(c, "aten::index_select(): Expected dtype int32/int64 for index");
  if (ix->ndim > 1) return mck_fail(c, "aten::index_select(): Index is supposed to be a vector");
  int64_t ni = mck_numel(ix);
  for (int i = 0; i < s->ndim; i++) ns[i] = i == d ? ni : s->shape[i];
  if (s->ndim == 0 && ni != 1)
    return mck_fail(c, "aten::index_select(): index_select(): Index to scalar can have only 1 value");
  int64_t lim = s->ndim ? s->shape[d] : 1;
  if (ks_check_range(c, "aten::index_select", ix, lim, 0)) return -1;
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, s->dtype, s->ndim, ns)) return -1;
  if (c->meta) return 0;
  mck_tensor src = *s, dst = *o, sv = *s;
  if (s->ndim) {
    sv.shape[d] = 1;
    sv.stride[d] = 0;
  }
  for (int64_t j = 0; j < ni; j++) {
    int64_t v = mck_geti(ix, ix->offset + (ix->ndim ? j * ix->stride[0] : 0));
    src = sv;
    dst = *o;
    if (s->ndim) {
      src.offset += v * s->stride[d];
      dst.offset += j * o->stride[d];
      dst.shape[d] = 1;
    }
    ks_copy_nocheck(&dst, &src);
  }
  return 0;
}

/* aten::embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False) */
static inline int ks_embedding(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *w = in[0].u.t, *ix = in[1].u.t;
  int64_t ns[MCK_MAX_DIMS];
  if (w->ndim != 2) return mck_fail(c, "aten::embedding: 'weight' must be 2-D");
  if (!ks_index_dtype_ok(ix))
    return mck_fail(c, "aten::embedding: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int");
  if (ix->ndim + 1 > MCK_MAX_DIMS) return mck_fail(c, "aten::embedding: too many dimensions");
  for (int i = 0; i < ix->ndim; i++) ns[i] = ix->shape[i];
  ns[ix->ndim] = w->shape[1];
  if (ks_check_range(c, "aten::embedding", ix, w->shape[0], 0)) return -1;
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, w->dtype, ix->ndim + 1, ns)) return -1;
  if (c->meta || mck_numel(ix) == 0) return 0;
  mck_iter it;
  const int64_t *st[2] = {o->stride, ix->stride};
  int64_t base[2] = {o->offset, ix->offset};
  mck_iter_init(&it, ix->ndim, ix->shape, 2, st, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int64_t v = mck_geti(ix, it.off[1]);
    mck_tensor src = *w, dst = *o;
    src.ndim = dst.ndim = 1;
    src.offset += v * w->stride[0];
    src.shape[0] = w->shape[1];
    src.stride[0] = w->stride[1];
    dst.offset = it.off[0];
    dst.shape[0] = w->shape[1];
    dst.stride[0] = o->stride[ix->ndim];
    ks_copy_nocheck(&dst, &src);
  }
  return 0;
}

/* aten::gather(self, int dim, Tensor index, *, bool sparse_grad=False) */
static inline int ks_gather(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *s = in[0].u.t, *ix = in[2].u.t;
  int64_t d0;
  int d;
  if (ks_int(c, "aten::gather", &in[1], 0, &d0) || ks_dim(c, "aten::gather", d0, s->ndim, &d))
    return -1;
  if (ix->dtype != MCK_I64) return mck_fail(c, "aten::gather(): Expected dtype int64 for index");
  int sn = s->ndim ? s->ndim : 1, in_ = ix->ndim ? ix->ndim : 1;
  if (sn != in_)
    return mck_fail(c, "aten::gather: Index tensor must have the same number of dimensions as input tensor");
  for (int i = 0; i < ix->ndim && s->ndim; i++)
    if (i != d && ix->shape[i] > s->shape[i])
      return mck_fail(c, "aten::gather: Size does not match at dimension %d expected index [...] to be smaller than self apart from dimension %d", i, d);
  if (ks_check_range(c, "aten::gather", ix, s->ndim ? s->shape[d] : 1, 0)) return -1;
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, s->dtype, ix->ndim, ix->shape)) return -1;
  if (c->meta || mck_numel(ix) == 0) return 0;
  int64_t sst[MCK_MAX_DIMS] = {0};
  for (int i = 0; i < ix->ndim && s->ndim; i++) sst[i] = i == d ? 0 : s->stride[i];
  mck_iter it;
  const int64_t *st[3] = {o->stride, ix->stride, sst};
  int64_t base[3] = {o->offset, ix->offset, s->offset};
  mck_iter_init(&it, ix->ndim, ix->shape, 3, st, base);
  int64_t ds = s->ndim ? s->stride[d] : 0;
  mck_tensor src = *s, dst = *o;
  src.ndim = dst.ndim = 0;
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int64_t v = mck_geti(ix, it.off[1]);
    src.offset = it.off[2] + v * ds;
    dst.offset = it.off[0];
    ks_copy_nocheck(&dst, &src);
  }
  return 0;
}

/* ---- advanced indexing: aten::index, aten::index_put(_) ---------------------------------- */
/* The plan of an advanced-indexing expression self[indices]: the indexed dims, the broadcast
 * shape of the index tensors, and the shape of the result. Boolean masks become int64 index
 * vectors (allocated; ks_index_plan_free releases them). */
typedef struct ks_index_plan {
  int nidx;                        /* number of self dims consumed by the index list */
  int adv[MCK_MAX_DIMS];           /* self dim -> 1 when indexed by a tensor */
  mck_tensor ix[MCK_MAX_DIMS];     /* per indexed self dim: int index tensor (broadcast below) */
  int64_t *owned[MCK_MAX_DIMS];    /* mask-derived index buffers */
  int nb;                          /* rank of the broadcast index shape */
  int64_t bshape[MCK_MAX_DIMS];
  int front;                       /* 1: index dims go first (non-adjacent indexed dims) */
  int first;                       /* first indexed self dim */
  int ndim;                        /* result rank */
  int64_t shape[MCK_MAX_DIMS];
} ks_index_plan;

static inline void ks_index_plan_free(ks_index_plan *p) {
  for (int i = 0; i < MCK_MAX_DIMS; i++) free(p->owned[i]);
}

static inline int ks_index_plan_make(mck_ctx *c, const char *op, ks_index_plan *p,
                                     const mck_tensor *s, const mck_arg *list) {
  memset(p, 0, sizeof *p);
  if (list->kind != MCK_TENSORS) return mck_fail(c, "%s: expected a list of optional tensors", op);
  int d = 0, last = -1, gap = 0;
  p->first = -1;
  for (int k = 0; k < list->n; k++) {
    const mck_tensor *t = list->u.ts[k];
    if (!t) {
      d++;
      continue;
    }
    if (t->dtype == MCK_BOOL || t->dtype == MCK_U8) {
      if (d + t->ndim > s->ndim)
        return mck_fail(c, "%s: too many indices for tensor of dimension %d", op, s->ndim);
      for (int i = 0; i < t->ndim; i++)
        if (t->shape[i] != s->shape[d + i])
          return mck_fail(c, "%s: The shape of the mask [...] at index %d does not match the shape of the indexed tensor at index %d", op, i, d + i);
      if (c->meta) return mck_fail(c, "%s: a boolean mask index gives a data-dependent shape", op);
      int64_t cnt = 0, tot = mck_numel(t);
      mck_iter it;
      const int64_t *st[1] = {t->stride};
      int64_t base[1] = {t->offset};
      mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
      for (int64_t e = 0; e < tot; e++, mck_iter_next(&it)) cnt += mck_geti(t, it.off[0]) != 0;
      int nd0 = t->ndim ? t->ndim : 1;
      if (t->ndim == 0) {
        return mck_fail(c, "%s: 0-dim boolean index is not supported", op);
      }
      for (int i = 0; i < nd0; i++) {
        p->owned[d + i] = (int64_t *)malloc(sizeof(int64_t) * (size_t)(cnt ? cnt : 1));
        if (!p->owned[d + i]) return mck_fail(c, "%s: out of memory", op);
      }
      mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
      int64_t w = 0;
      for (int64_t e = 0; e < tot; e++, mck_iter_next(&it)) {
        if (mck_geti(t, it.off[0]) == 0) continue;
        for (int i = 0; i < t->ndim; i++) p->owned[d + i][w] = it.idx[i];
        w++;
      }
      for (int i = 0; i < t->ndim; i++) {
        mck_tensor *x = &p->ix[d + i];
        x->data = p->owned[d + i];
        x->dtype = MCK_I64;
        x->ndim = 1;
        x->shape[0] = cnt;
        x->stride[0] = 1;
        p->adv[d + i] = 1;
      }
      if (last >= 0 && last != d - 1) gap = 1;
      if (p->first < 0) p->first = d;
      last = d + t->ndim - 1;
      d += t->ndim;
      continue;
    }
    if (t->dtype != MCK_I64)
      return mck_fail(c, "%s: tensors used as indices must be long, byte or bool tensors", op);
    if (d >= s->ndim) return mck_fail(c, "%s: too many indices for tensor of dimension %d", op, s->ndim);
    p->ix[d] = *t;
    p->adv[d] = 1;
    if (last >= 0 && last != d - 1) gap = 1;
    if (p->first < 0) p->first = d;
    last = d;
    d++;
  }
  if (d > s->ndim) return mck_fail(c, "%s: too many indices for tensor of dimension %d", op, s->ndim);
  p->nidx = d;
  p->front = gap;
  p->nb = 0;
  for (int i = 0; i < s->ndim; i++) {
    if (!p->adv[i]) continue;
    int64_t tmp[MCK_MAX_DIMS];
    int nt = 0;
    if (mck_broadcast_shape(p->nb, p->bshape, p->ix[i].ndim, p->ix[i].shape, &nt, tmp))
      return mck_fail(c, "%s: shape mismatch: indexing tensors could not be broadcast together", op);
    p->nb = nt;
    memcpy(p->bshape, tmp, sizeof tmp);
  }
  if (p->first < 0) p->front = 0;
  int n = 0;
  if (p->first < 0) {
    for (int i = 0; i < s->ndim; i++) p->shape[n++] = s->shape[i];
  } else {
    int rest = 0;
    for (int i = 0; i < s->ndim; i++) rest += !p->adv[i];
    if (rest + p->nb > MCK_MAX_DIMS) return mck_fail(c, "%s: result has too many dimensions", op);
    int placed = 0;
    for (int i = 0; i <= s->ndim; i++) {
      if (!placed && (p->front || i == p->first)) {
        for (int j = 0; j < p->nb; j++) p->shape[n++] = p->bshape[j];
        placed = 1;
      }
      if (i < s->ndim && !p->adv[i]) p->shape[n++] = s->shape[i];
    }
  }
  p->ndim = n;
  return 0;
}

/* Fills offs[k] with the element offset into self of the k-th result element (row-major over
 * the plan's result shape). Fails on out-of-range indices. */
static inline int ks_index_walk(mck_ctx *c, const char *op, const ks_index_plan *p,
                                const mck_tensor *s, int64_t *offs) {
  int64_t ixst[MCK_MAX_DIMS][MCK_MAX_DIMS];
  for (int i = 0; i < s->ndim; i++)
    if (p->adv[i]) mck_broadcast_strides(&p->ix[i], p->nb, p->bshape, ixst[i]);
  int64_t total = 1;
  for (int i = 0; i < p->ndim; i++) total *= p->shape[i];
  int64_t idx[MCK_MAX_DIMS] = {0};
  int bpos = 0; /* result position of the first broadcast index dim */
  if (p->first >= 0 && !p->front)
    for (int i = 0; i < p->first; i++) bpos += !p->adv[i];
  for (int64_t k = 0; k < total; k++) {
    int64_t off = s->offset;
    int r = 0;
    for (int i = 0; i < s->ndim; i++) {
      if (p->adv[i]) continue;
      if (p->first >= 0 && r == bpos) r += p->nb;
      off += idx[r] * s->stride[i];
      r++;
    }
    for (int i = 0; i < s->ndim; i++) {
      if (!p->adv[i]) continue;
      const mck_tensor *x = &p->ix[i];
      int64_t xo = x->offset;
      for (int j = 0; j < p->nb; j++) xo += idx[bpos + j] * ixst[i][j];
      int64_t v = mck_geti(x, xo), n = s->shape[i];
      if (v < -n || v >= n)
        return mck_fail(c, "%s: index %lld is out of bounds for dimension %d with size %lld", op,
                        (long long)v, i, (long long)n);
      off += (v < 0 ? v + n : v) * s->stride[i];
    }
    offs[k] = off;
    for (int d = p->ndim - 1; d >= 0; d--) {
      if (++idx[d] < p->shape[d]) break;
      idx[d] = 0;
    }
  }
  return 0;
}

/* aten::index(self, Tensor?[] indices) */
static inline int ks_index(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *s = in[0].u.t;
  ks_index_plan p;
  int rc = ks_index_plan_make(c, "aten::index", &p, s, &in[1]);
  mck_tensor *o = out[0].u.t;
  int64_t total = 1, *offs = NULL;
  for (int i = 0; !rc && i < p.ndim; i++) total *= p.shape[i];
  if (!rc && !c->meta) {
    offs = (int64_t *)malloc(sizeof(int64_t) * (size_t)(total ? total : 1));
    if (!offs) rc = mck_fail(c, "aten::index: out of memory");
    if (!rc) rc = ks_index_walk(c, "aten::index", &p, s, offs);
  }
  if (!rc) rc = mck_out(c, o, s->dtype, p.ndim, p.shape);
  if (!rc && !c->meta) {
    mck_tensor src = *s, dst = *o;
    src.ndim = dst.ndim = 0;
    for (int64_t k = 0; k < total; k++) {
      src.offset = offs[k];
      dst.offset = o->offset + k;
      ks_copy_nocheck(&dst, &src);
    }
  }
  free(offs);
  ks_index_plan_free(&p);
  return rc;
}

/* Scatters values (broadcast to the result shape of dst[indices]) into dst, or adds them
 * (accumulate). Everything is checked against `geom` (dst's geometry; its data is not touched)
 * before dst is written; dst's offsets are geom's shifted by `shift`. */
static inline int ks_index_put_into(mck_ctx *c, const char *op, const mck_tensor *geom,
                                    mck_tensor *dst, int64_t shift, const mck_arg *indices,
                                    const mck_tensor *vals, int accumulate) {
  ks_index_plan p;
  if (c->meta && indices->kind == MCK_TENSORS) {
    for (int k = 0; k < indices->n; k++) {
      const mck_tensor *t = indices->u.ts[k];
      if (t && (t->dtype == MCK_BOOL || t->dtype == MCK_U8)) return 0; /* data-dependent */
    }
  }
  /* One bool mask (Nones around it) and a one-element value, not accumulated: PyTorch takes
   * masked_fill_ with the value's number, whatever its shape (x[mask] = v with v [1, 1]). */
  mck_tensor v0;
  if (!accumulate && indices->kind == MCK_TENSORS && mck_numel(vals) == 1) {
    int masks = 0, others = 0;
    for (int k = 0; k < indices->n; k++) {
      const mck_tensor *t = indices->u.ts[k];
      if (!t) continue;
      if (t->dtype == MCK_BOOL || t->dtype == MCK_U8) masks++;
      else others++;
    }
    if (masks == 1 && !others) {
      v0 = *vals;
      v0.ndim = 0;
      vals = &v0;
    }
  }
  int rc = ks_index_plan_make(c, op, &p, geom, indices);
  if (!rc) {
    int nb = 0;
    int64_t bs[MCK_MAX_DIMS];
    int ok = mck_broadcast_shape(p.ndim, p.shape, vals->ndim, vals->shape, &nb, bs) == 0 &&
             nb == p.ndim;
    for (int i = 0; ok && i < nb; i++) ok = bs[i] == p.shape[i];
    if (!ok) {
      char a[96], b[96];
      ks_shape_str(a, sizeof a, vals->ndim, vals->shape);
      ks_shape_str(b, sizeof b, p.ndim, p.shape);
      rc = mck_fail(c, "%s: shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s", op, a, b);
    }
  }
  int64_t total = 1, *offs = NULL;
  for (int i = 0; !rc && i < p.ndim; i++) total *= p.shape[i];
  if (!rc && !c->meta) {
    offs = (int64_t *)malloc(sizeof(int64_t) * (size_t)(total ? total : 1));
    if (!offs) rc = mck_fail(c, "%s: out of memory", op);
    if (!rc) rc = ks_index_walk(c, op, &p, geom, offs);
  }
  if (!rc && !c->meta && dst && total > 0) {
    int64_t vst[MCK_MAX_DIMS];
    mck_broadcast_strides(vals, p.ndim, p.shape, vst);
    mck_iter it;
    const int64_t *st[1] = {vst};
    int64_t base[1] = {vals->offset};
    mck_iter_init(&it, p.ndim, p.shape, 1, st, base);
    mck_tensor d1 = *dst, s1 = *vals;
    d1.ndim = s1.ndim = 0;
    for (int64_t k = 0; k < total; k++, mck_iter_next(&it)) {
      int64_t at = offs[k] + shift;
      if (accumulate) {
        if (mck_is_float(dst->dtype))
          mck_setf(dst, at, mck_getf(dst, at) + mck_getf(vals, it.off[0]));
        else
          mck_seti(dst, at, (int64_t)((uint64_t)mck_geti(dst, at) + (uint64_t)mck_geti(vals, it.off[0])));
      } else {
        d1.offset = at;
        s1.offset = it.off[0];
        ks_copy_nocheck(&d1, &s1);
      }
    }
  }
  free(offs);
  ks_index_plan_free(&p);
  return rc;
}

static inline int ks_accumulate_arg(mck_ctx *c, const char *op, const mck_arg *in, int nin,
                                    int *acc) {
  *acc = 0;
  if (nin < 4 || in[3].kind == MCK_NONE) return 0;
  if (in[3].kind != MCK_BOOL_ARG && in[3].kind != MCK_INT)
    return mck_fail(c, "%s: accumulate must be a compile-time constant bool", op);
  *acc = in[3].u.i != 0;
  return 0;
}

/* aten::index_put(self, Tensor?[] indices, Tensor values, bool accumulate=False) */
static inline int ks_index_put(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *s = in[0].u.t;
  mck_tensor geom = ks_template(s);
  int acc;
  if (ks_accumulate_arg(c, "aten::index_put", in, nin, &acc) ||
      ks_index_put_into(c, "aten::index_put", &geom, NULL, 0, &in[1], in[2].u.t, acc))
    return -1;
  mck_tensor *o = out[0].u.t;
  out[0].kind = MCK_TENSOR;
  if (mck_out(c, o, s->dtype, s->ndim, s->shape)) return -1;
  if (c->meta) return 0;
  ks_copy_nocheck(o, s);
  return ks_index_put_into(c, "aten::index_put", &geom, o, o->offset, &in[1], in[2].u.t, acc);
}

/* aten::index_put_(self, Tensor?[] indices, Tensor values, bool accumulate=False) */
static inline int ks_index_put_(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  mck_tensor *s = in[0].u.t;
  int acc;
  if (ks_accumulate_arg(c, "aten::index_put_", in, nin, &acc) ||
      ks_index_put_into(c, "aten::index_put_", s, s, 0, &in[1], in[2].u.t, acc))
    return -1;
  ks_set_view(&out[0], s);
  return 0;
}

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

#endif
