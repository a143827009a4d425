/* k_copy.h — the shape family's copy-making ops (cat, stack, repeat, flip, roll, gather,
 * index_select, embedding, *_scatter) and copy_ (correct when source and destination
 * overlap). k_shape.h states the conventions.
 */
#ifndef K_COPY_H
#define K_COPY_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_view.h"

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
  int sized = c->sized_by_data;
  c->sized_by_data = 0;
  if (ks_int(c, "aten::slice_scatter", nin > 2 ? &in[2] : &none, 0, &d) ||
      ks_int(c, "aten::slice_scatter", nin > 5 ? &in[5] : &none, 1, &step) ||
      ks_slice_desc(c, "aten::slice_scatter", &v, d, nin > 3 ? &in[3] : &none,
                    nin > 4 ? &in[4] : &none, step))
    return -1;
  /* a run-time bound in meta mode: the slice's extent along d is known at run time only (the
   * real call checks src against it); the result has self's shape whatever it is */
  int rt = c->sized_by_data;
  c->sized_by_data = sized;
  if (rt) {
    const mck_tensor *src = in[1].u.t;
    if (src->ndim != v.ndim)
      return mck_fail(c, "aten::slice_scatter: expected src to have %d dims, got %d", v.ndim, src->ndim);
    out[0].kind = MCK_TENSOR;
    return mck_out(c, out[0].u.t, self->dtype, self->ndim, self->shape);
  }
  return ks_scatter_finish(c, "aten::slice_scatter", &out[0], self, &v, in[1].u.t);
}

/* aten::select_scatter(self, src, int dim, int index) */
static inline int ks_select_scatter(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *self = in[0].u.t;
  int64_t d, i;
  int rt; /* a run-time index in meta mode: the output has self's shape whatever it is */
  mck_tensor v = ks_template(self);
  if (ks_int(c, "aten::select_scatter", &in[2], 0, &d) ||
      ks_rt_index(c, "aten::select_scatter", &in[3], &i, &rt) ||
      ks_select_desc_rt(c, "aten::select_scatter", &v, d, i, rt))
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

#endif
