/* k_view.h — the shape family's views (view, reshape, slice, select, transpose, permute,
 * expand, squeeze, diagonal, ...) and maybe-views (reshape, flatten, contiguous): kernels that
 * write an output descriptor over input 0's storage (k_shape.h states the conventions).
 */
#ifndef K_VIEW_H
#define K_VIEW_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_shape_util.h"

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
  int64_t s = 0, e = INT64_MAX;
  if (t->ndim == 0) return mck_fail(c, "%s: slice() cannot be applied to a 0-dim tensor.", op);
  /* A bound that is a run-time integer (meta mode: a loop counter, item(), size arithmetic)
   * makes the length known at run time only: in meta mode the slice spans the elements every
   * value could select (from a known start, or 0, to a known end, or the end) and says so, as
   * results sized by the data; the real call gives the real view. */
  int rt = c->meta && (start->kind == MCK_UNKNOWN || end->kind == MCK_UNKNOWN);
  if (ks_dim(c, op, d0, t->ndim, &d) || (start->kind != MCK_UNKNOWN && ks_int(c, op, start, 0, &s)) ||
      (end->kind != MCK_UNKNOWN && ks_int(c, op, end, INT64_MAX, &e)))
    return -1;
  if (rt) {
    c->sized_by_data = 1;
    if (start->kind == MCK_UNKNOWN) s = 0;
    if (end->kind == MCK_UNKNOWN) e = INT64_MAX;
  } else if (start->kind == MCK_UNKNOWN || end->kind == MCK_UNKNOWN) {
    return mck_fail(c, "%s: a slice bound is not an integer", op);
  }
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

/* A run-time index (MCK_UNKNOWN in meta mode: a loop counter, size arithmetic) takes the
 * place of index 0 there: the output's shape does not depend on it, only its offset, and the
 * real call checks the bounds. */
static inline int ks_rt_index(mck_ctx *c, const char *op, const mck_arg *a, int64_t *v, int *rt) {
  *rt = a->kind == MCK_UNKNOWN && c->meta;
  if (*rt) {
    *v = 0;
    return 0;
  }
  return ks_int(c, op, a, 0, v);
}

static inline int ks_select_desc_rt(mck_ctx *c, const char *op, mck_tensor *t, int64_t d0,
                                    int64_t idx, int rt) {
  int d;
  if (t->ndim == 0) return mck_fail(c, "%s: select() cannot be applied to a 0-dim tensor.", op);
  if (ks_dim(c, op, d0, t->ndim, &d)) return -1;
  int64_t n = t->shape[d];
  if (rt) idx = 0, n = n > 0 ? n : 1;
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

static inline int ks_select_desc(mck_ctx *c, const char *op, mck_tensor *t, int64_t d0,
                                 int64_t idx) {
  return ks_select_desc_rt(c, op, t, d0, idx, 0);
}

/* aten::select(self, int dim, int index) */
static inline int ks_select(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  int64_t d, i;
  int rt;
  if (ks_int(c, "aten::select", &in[1], 0, &d) || ks_rt_index(c, "aten::select", &in[2], &i, &rt) ||
      ks_select_desc_rt(c, "aten::select", &t, d, i, rt))
    return -1;
  ks_set_view(&out[0], &t);
  return 0;
}

/* aten::narrow(self, int dim, int start, int length) */
static inline int ks_narrow(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  mck_tensor t = ks_in(&in[0]);
  int64_t d0, s, l = 0;
  int d, rt;
  if (t.ndim == 0) return mck_fail(c, "aten::narrow: narrow() cannot be applied to a 0-dim tensor.");
  /* a run-time length (meta mode) makes the extent known at run time only: the bound is every
   * element from the start (0 when it is a run-time integer too), as for a sized-by-data result */
  int rt_len = c->meta && in[3].kind == MCK_UNKNOWN;
  if (ks_int(c, "aten::narrow", &in[1], 0, &d0) || ks_rt_index(c, "aten::narrow", &in[2], &s, &rt) ||
      (!rt_len && ks_int(c, "aten::narrow", &in[3], 0, &l)) || ks_dim(c, "aten::narrow", d0, t.ndim, &d))
    return -1;
  int64_t n = t.shape[d];
  (void)rt; /* a run-time start was taken as 0 (the shape does not depend on it) */
  if (rt_len) {
    c->sized_by_data = 1;
    if (s < -n || s > n) s = 0;
    l = n - (s < 0 ? s + n : s);
  }
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

#endif
