/* k_index_sort.h — the index family's first part (see k_index.h for the family's invariants):
 * argument helpers, PyTorch's sorting algorithms reproduced step for step (libstdc++'s
 * std::sort, std::nth_element, std::partial_sort; ATen's quick_select_template), sort, argsort,
 * msort, topk, kthvalue, median, nanmedian, mode, searchsorted and bucketize. Prefix: ki_. */
#ifndef MC_K_INDEX_SORT_H
#define MC_K_INDEX_SORT_H

#include "mck.h"
#include "k_shape.h"

/* ---- argument helpers -------------------------------------------------------------------- */
/* A bool argument (bool or int kind) that must be known; dflt for None or a missing one. */
static inline int ki_bool(mck_ctx *c, const char *op, const mck_arg *in, int nin, int i, int dflt,
                          int *v) {
  *v = dflt;
  if (i >= nin || in[i].kind == MCK_NONE) return 0;
  if (in[i].kind == MCK_BOOL_ARG || in[i].kind == MCK_INT) {
    *v = in[i].u.i != 0;
    return 0;
  }
  return mck_fail(c, "%s: argument %d must be a compile-time constant bool", op, i);
}
/* An int argument that must be known; dflt for None or a missing one. */
static inline int ki_int(mck_ctx *c, const char *op, const mck_arg *in, int nin, int i,
                         int64_t dflt, int64_t *v) {
  *v = dflt;
  if (i >= nin) return 0;
  return ks_int(c, op, &in[i], dflt, v);
}
/* A dim argument wrapped against rank ndim (a 0-d tensor takes dims -1 and 0). */
static inline int ki_dim(mck_ctx *c, const char *op, const mck_arg *in, int nin, int i,
                         int64_t dflt, int ndim, int *d) {
  int64_t d0;
  if (ki_int(c, op, in, nin, i, dflt, &d0)) return -1;
  return ks_dim(c, op, d0, ndim, d);
}
static inline int ki_tensor_out(mck_ctx *c, const char *op, mck_arg *out, int nout, int k) {
  if (nout <= k || !out[k].u.t) return mck_fail(c, "%s: expects %d tensor outputs", op, k + 1);
  out[k].kind = MCK_TENSOR;
  return 0;
}

/* Iterates the lines of up to three tensors of the same shape along dim d (every other dim in
 * the outer walk); a 0-d tensor is one line of one element. */
static inline void ki_lines(mck_iter *it, int nt, const mck_tensor *const *t, int d) {
  int64_t shp[MCK_MAX_DIMS], st[3][MCK_MAX_DIMS], base[3];
  const int64_t *sts[3];
  int n = 0;
  const mck_tensor *r = t[0];
  for (int k = 0; k < r->ndim; k++) {
    if (k == d) continue;
    shp[n] = r->shape[k];
    for (int j = 0; j < nt; j++) st[j][n] = t[j]->stride[k];
    n++;
  }
  for (int j = 0; j < nt; j++) {
    sts[j] = st[j];
    base[j] = t[j]->offset;
  }
  mck_iter_init(it, n, shp, nt, sts, base);
}
static inline int64_t ki_len(const mck_tensor *t, int d) { return t->ndim ? t->shape[d] : 1; }
static inline int64_t ki_str(const mck_tensor *t, int d) { return t->ndim ? t->stride[d] : 0; }

/* ---- PyTorch's sorting algorithms -------------------------------------------------------- */
/* One element being sorted: its value (f for floating dtypes, i for the others) and index. */
typedef struct ki_el {
  double f;
  int64_t i, ix;
} ki_el;
/* Comparators: KV_ASC / KV_DESC are ATen's KeyValueCompAsc/Desc (NaN largest); LT is a plain
 * a < b (mode). */
enum { KI_ASC, KI_DESC, KI_LT };
typedef struct ki_cmp {
  int kind, fl;
} ki_cmp;
static inline int ki_less(const ki_cmp *k, const ki_el *a, const ki_el *b) {
  if (!k->fl) return k->kind == KI_DESC ? a->i > b->i : a->i < b->i;
  int na = a->f != a->f, nb = b->f != b->f;
  switch (k->kind) {
  case KI_ASC: return (!na && nb) || a->f < b->f;
  case KI_DESC: return (na && !nb) || a->f > b->f;
  default: return a->f < b->f;
  }
}
static inline void ki_swap(ki_el *a, ki_el *b) {
  ki_el t = *a;
  *a = *b;
  *b = t;
}
static inline int64_t ki_lg(int64_t n) {
  int64_t k = 0;
  while (n > 1) {
    n >>= 1;
    k++;
  }
  return k;
}
/* libstdc++ heap helpers (std::__adjust_heap, __push_heap, __make_heap, __pop_heap). */
static inline void ki_push_heap(ki_el *f, int64_t hole, int64_t top, ki_el v, const ki_cmp *k) {
  int64_t parent = (hole - 1) / 2;
  while (hole > top && ki_less(k, &f[parent], &v)) {
    f[hole] = f[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  f[hole] = v;
}
static inline void ki_adjust_heap(ki_el *f, int64_t hole, int64_t len, ki_el v, const ki_cmp *k) {
  int64_t top = hole, child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (ki_less(k, &f[child], &f[child - 1])) child--;
    f[hole] = f[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    f[hole] = f[child - 1];
    hole = child - 1;
  }
  ki_push_heap(f, hole, top, v, k);
}
static inline void ki_make_heap(ki_el *f, int64_t len, const ki_cmp *k) {
  if (len < 2) return;
  for (int64_t parent = (len - 2) / 2;; parent--) {
    ki_adjust_heap(f, parent, len, f[parent], k);
    if (parent == 0) return;
  }
}
static inline void ki_pop_heap(ki_el *f, int64_t last, int64_t result, const ki_cmp *k) {
  ki_el v = f[result];
  f[result] = f[0];
  ki_adjust_heap(f, 0, last, v, k);
}
/* std::__heap_select(first, middle, last) and std::partial_sort. */
static inline void ki_heap_select(ki_el *f, int64_t mid, int64_t n, const ki_cmp *k) {
  ki_make_heap(f, mid, k);
  for (int64_t i = mid; i < n; i++)
    if (ki_less(k, &f[i], &f[0])) ki_pop_heap(f, mid, i, k);
}
static inline void ki_partial_sort(ki_el *f, int64_t mid, int64_t n, const ki_cmp *k) {
  ki_heap_select(f, mid, n, k);
  for (int64_t last = mid; last > 1;) {
    last--;
    ki_pop_heap(f, last, last, k);
  }
}
/* std::__insertion_sort / __unguarded_insertion_sort. */
static inline void ki_linear_insert(ki_el *f, int64_t last, const ki_cmp *k) {
  ki_el v = f[last];
  int64_t next = last - 1;
  while (ki_less(k, &v, &f[next])) {
    f[last] = f[next];
    last = next--;
  }
  f[last] = v;
}
static inline void ki_insertion_sort(ki_el *f, int64_t n, const ki_cmp *k) {
  for (int64_t i = 1; i < n; i++) {
    if (ki_less(k, &f[i], &f[0])) {
      ki_el v = f[i];
      memmove(f + 1, f, (size_t)i * sizeof *f);
      f[0] = v;
    } else {
      ki_linear_insert(f, i, k);
    }
  }
}
/* std::__unguarded_partition_pivot (median of three moved to the front). */
static inline int64_t ki_partition_pivot(ki_el *f, int64_t n, const ki_cmp *k) {
  int64_t a = 1, b = n / 2, cc = n - 1;
  if (ki_less(k, &f[a], &f[b])) {
    if (ki_less(k, &f[b], &f[cc])) ki_swap(&f[0], &f[b]);
    else if (ki_less(k, &f[a], &f[cc])) ki_swap(&f[0], &f[cc]);
    else ki_swap(&f[0], &f[a]);
  } else if (ki_less(k, &f[a], &f[cc])) ki_swap(&f[0], &f[a]);
  else if (ki_less(k, &f[b], &f[cc])) ki_swap(&f[0], &f[cc]);
  else ki_swap(&f[0], &f[b]);
  int64_t lo = 1, hi = n;
  for (;;) {
    while (ki_less(k, &f[lo], &f[0])) lo++;
    hi--;
    while (ki_less(k, &f[0], &f[hi])) hi--;
    if (!(lo < hi)) return lo;
    ki_swap(&f[lo], &f[hi]);
    lo++;
  }
}
static inline void ki_introsort_loop(ki_el *f, int64_t n, int64_t depth, const ki_cmp *k) {
  while (n > 16) {
    if (depth == 0) {
      ki_partial_sort(f, n, n, k);
      return;
    }
    depth--;
    int64_t cut = ki_partition_pivot(f, n, k);
    ki_introsort_loop(f + cut, n - cut, depth, k);
    n = cut;
  }
}
/* std::sort. */
static inline void ki_sort_std(ki_el *f, int64_t n, const ki_cmp *k) {
  if (n < 2) return;
  ki_introsort_loop(f, n, ki_lg(n) * 2, k);
  if (n > 16) {
    ki_insertion_sort(f, 16, k);
    for (int64_t i = 16; i < n; i++) ki_linear_insert(f, i, k);
  } else {
    ki_insertion_sort(f, n, k);
  }
}
/* std::nth_element. */
static inline void ki_nth_element(ki_el *f, int64_t nth, int64_t n, const ki_cmp *k) {
  if (n == 0 || nth == n) return;
  int64_t lo = 0, depth = ki_lg(n) * 2;
  while (n - lo > 3) {
    if (depth == 0) {
      ki_heap_select(f + lo, nth - lo + 1, n - lo, k);
      ki_swap(&f[lo], &f[nth]);
      return;
    }
    depth--;
    int64_t cut = lo + ki_partition_pivot(f + lo, n - lo, k);
    if (cut <= nth) lo = cut;
    else n = cut;
  }
  ki_insertion_sort(f + lo, n - lo, k);
}
/* A stable merge sort (std::stable_sort's result: equal elements keep their order). */
static inline void ki_sort_stable(ki_el *f, ki_el *tmp, int64_t n, const ki_cmp *k) {
  for (int64_t w = 1; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int64_t a = lo, b = mid, o = lo;
      while (a < mid && b < hi) tmp[o++] = ki_less(k, &f[b], &f[a]) ? f[b++] : f[a++];
      while (a < mid) tmp[o++] = f[a++];
      while (b < hi) tmp[o++] = f[b++];
    }
    memcpy(f, tmp, (size_t)n * sizeof *f);
  }
}
/* ATen's quick_select_template with the comparator "x > y or x is NaN" (kthvalue). */
static inline void ki_qselect(ki_el *a, int64_t n, int64_t kk, int fl) {
  ki_cmp g = {KI_DESC, fl};
  int64_t L = 0, R = n - 1, i, j;
  for (;;) {
    if (R <= L) return;
    if (R == L + 1) {
      if (ki_less(&g, &a[L], &a[R])) ki_swap(&a[L], &a[R]);
      return;
    }
    int64_t P = L + (R - L) / 2;
    ki_swap(&a[P], &a[L + 1]);
    if (ki_less(&g, &a[L + 1], &a[R])) ki_swap(&a[L + 1], &a[R]);
    if (ki_less(&g, &a[L], &a[R])) ki_swap(&a[L], &a[R]);
    if (ki_less(&g, &a[L + 1], &a[L])) ki_swap(&a[L + 1], &a[L]);
    i = L + 1;
    j = R;
    ki_el piv = a[L];
    for (;;) {
      do i++; while (ki_less(&g, &piv, &a[i]));
      do j--; while (ki_less(&g, &a[j], &piv));
      if (j < i) break;
      ki_swap(&a[i], &a[j]);
    }
    ki_swap(&a[L], &a[j]);
    if (j <= kk) L = i;
    if (j >= kk) R = j - 1;
  }
}

/* Loads line `off` (len elements at stride st) of x into a (indices 0..len-1). */
static inline void ki_load(ki_el *a, const mck_tensor *x, int64_t off, int64_t len, int64_t st) {
  int fl = mck_is_float(x->dtype);
  for (int64_t j = 0; j < len; j++) {
    int64_t o = off + j * st;
    a[j].f = fl ? mck_getf(x, o) : 0;
    a[j].i = fl ? 0 : mck_geti(x, o);
    a[j].ix = j;
  }
}
static inline void ki_store(mck_tensor *t, int64_t off, const ki_el *e) {
  if (mck_is_float(t->dtype)) mck_setf(t, off, e->f);
  else mck_seti(t, off, e->i);
}
static inline ki_el *ki_alloc(mck_ctx *c, const char *op, int64_t n) {
  if ((uint64_t)n > (uint64_t)(SIZE_MAX / sizeof(ki_el))) {
    mck_fail(c, "%s: out of memory", op);
    return NULL;
  }
  ki_el *a = (ki_el *)malloc((size_t)(n > 0 ? n : 1) * sizeof(ki_el));
  if (!a) mck_fail(c, "%s: out of memory", op);
  return a;
}

/* ---- sort / argsort / msort -------------------------------------------------------------- */
/* Sorts x along d into values vo (may be NULL) and indices io (may be NULL). */
static inline int ki_sort_into(mck_ctx *c, const char *op, const mck_tensor *x, int d, int desc,
                               int stable, mck_tensor *vo, mck_tensor *io) {
  int64_t len = ki_len(x, d), sx = ki_str(x, d);
  ki_el *a = ki_alloc(c, op, 2 * len);
  if (!a) return -1;
  ki_cmp k = {desc ? KI_DESC : KI_ASC, mck_is_float(x->dtype)};
  const mck_tensor *ts[3] = {x, vo ? vo : io, io ? io : vo};
  mck_iter it;
  ki_lines(&it, 3, ts, d);
  int64_t sv = vo ? ki_str(vo, d) : 0, si = io ? ki_str(io, d) : 0;
  for (int64_t l = 0; l < it.total; l++, mck_iter_next(&it)) {
    ki_load(a, x, it.off[0], len, sx);
    if (stable) ki_sort_stable(a, a + len, len, &k);
    else ki_sort_std(a, len, &k);
    for (int64_t j = 0; j < len; j++) {
      if (vo) ki_store(vo, it.off[1] + j * sv, &a[j]);
      if (io) mck_seti(io, it.off[2] + j * si, a[j].ix);
    }
  }
  free(a);
  return 0;
}

/* sort(self, int dim=-1, bool descending=False) | sort(self, *, bool? stable, int dim=-1,
 * bool descending=False) -> (values, indices) */
static inline int ki_sort(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::sort";
  const mck_tensor *x = in[0].u.t;
  int st = nin == 4, stable, desc, d;
  if (ki_bool(c, op, in, nin, 1, 0, &stable)) return -1;
  if (!st) stable = 0;
  if (ki_dim(c, op, in, nin, st ? 2 : 1, -1, x->ndim, &d) ||
      ki_bool(c, op, in, nin, st ? 3 : 2, 0, &desc) || ki_tensor_out(c, op, out, nout, 1) ||
      ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape) ||
      mck_out(c, out[1].u.t, MCK_I64, x->ndim, x->shape))
    return -1;
  if (c->meta) return 0;
  return ki_sort_into(c, op, x, d, desc, stable, out[0].u.t, out[1].u.t);
}
/* argsort(self, int dim=-1, bool descending=False) | argsort(self, *, bool stable, int dim=-1,
 * bool descending=False) */
static inline int ki_argsort(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::argsort";
  const mck_tensor *x = in[0].u.t;
  int st = nin == 4, stable, desc, d;
  if (ki_bool(c, op, in, nin, 1, 0, &stable)) return -1;
  if (!st) stable = 0;
  if (ki_dim(c, op, in, nin, st ? 2 : 1, -1, x->ndim, &d) ||
      ki_bool(c, op, in, nin, st ? 3 : 2, 0, &desc) || ki_tensor_out(c, op, out, nout, 0) ||
      mck_out(c, out[0].u.t, MCK_I64, x->ndim, x->shape))
    return -1;
  if (c->meta) return 0;
  return ki_sort_into(c, op, x, d, desc, stable, NULL, out[0].u.t);
}
/* msort(self): sort along dim 0, values only */
static inline int ki_msort(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  const mck_tensor *x = in[0].u.t;
  if (ki_tensor_out(c, "aten::msort", out, nout, 0) ||
      mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape))
    return -1;
  if (c->meta) return 0;
  return ki_sort_into(c, "aten::msort", x, 0, 0, 0, out[0].u.t, NULL);
}

/* The dtypes topk/kthvalue/median refuse on CPU (PyTorch 1.13 has no Half or Bool kernel). */
static inline int ki_select_dtype_ok(mck_ctx *c, const char *op, const mck_tensor *x) {
  if (x->dtype == MCK_F16 || x->dtype == MCK_BOOL)
    return mck_fail(c, "%s: \"%s_cpu\" not implemented for '%s'", op, op + 6,
                    x->dtype == MCK_F16 ? "Half" : "Bool");
  return 0;
}

/* topk(self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (values, indices) */
static inline int ki_topk(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::topk";
  const mck_tensor *x = in[0].u.t;
  int64_t kk, ns[MCK_MAX_DIMS];
  int d, largest, sorted;
  if (ki_select_dtype_ok(c, op, x) || ki_int(c, op, in, nin, 1, 0, &kk) ||
      ki_dim(c, op, in, nin, 2, -1, x->ndim, &d) || ki_bool(c, op, in, nin, 3, 1, &largest) ||
      ki_bool(c, op, in, nin, 4, 1, &sorted))
    return -1;
  int64_t len = ki_len(x, d);
  if (kk < 0 || kk > len) return mck_fail(c, "%s: selected index k out of range", op);
  for (int i = 0; i < x->ndim; i++) ns[i] = i == d ? kk : x->shape[i];
  if (ki_tensor_out(c, op, out, nout, 1) || ki_tensor_out(c, op, out, nout, 0) ||
      mck_out(c, out[0].u.t, x->dtype, x->ndim, ns) || mck_out(c, out[1].u.t, MCK_I64, x->ndim, ns))
    return -1;
  if (c->meta || kk == 0) return 0;
  mck_tensor *vo = out[0].u.t, *io = out[1].u.t;
  ki_el *a = ki_alloc(c, op, len);
  if (!a) return -1;
  ki_cmp k = {largest ? KI_DESC : KI_ASC, mck_is_float(x->dtype)};
  const mck_tensor *ts[3] = {x, vo, io};
  mck_iter it;
  ki_lines(&it, 3, ts, d);
  int64_t sx = ki_str(x, d), sv = ki_str(vo, d), si = ki_str(io, d);
  for (int64_t l = 0; l < it.total; l++, mck_iter_next(&it)) {
    ki_load(a, x, it.off[0], len, sx);
    if (kk * 64 <= len) {
      ki_partial_sort(a, kk, len, &k);
    } else {
      ki_nth_element(a, kk - 1, len, &k);
      if (sorted) ki_sort_std(a, kk - 1, &k);
    }
    for (int64_t j = 0; j < kk; j++) {
      ki_store(vo, it.off[1] + j * sv, &a[j]);
      mck_seti(io, it.off[2] + j * si, a[j].ix);
    }
  }
  free(a);
  return 0;
}

/* The common front of the per-dim selections (kthvalue, median, nanmedian, mode): values and
 * int64 indices shaped as x reduced over d (kept with keepdim). */
static inline int ki_select_setup(mck_ctx *c, const char *op, mck_arg *out, int nout,
                                  const mck_tensor *x, int d, int keep) {
  int64_t ns[MCK_MAX_DIMS];
  int n = 0;
  for (int i = 0; i < x->ndim; i++) {
    if (i != d) ns[n++] = x->shape[i];
    else if (keep) ns[n++] = 1;
  }
  if (ki_tensor_out(c, op, out, nout, 1) || ki_tensor_out(c, op, out, nout, 0) ||
      mck_out(c, out[0].u.t, x->dtype, n, ns) || mck_out(c, out[1].u.t, MCK_I64, n, ns))
    return -1;
  return 0;
}
/* Walks the lines of x along d with the matching element of the reduced outputs vo, io. */
static inline void ki_select_lines(mck_iter *it, const mck_tensor *x, int d, const mck_tensor *vo,
                                   const mck_tensor *io) {
  mck_tensor v = *vo, i = *io;
  /* the outputs seen with x's rank: the reduced dim gets stride 0 */
  int keep = vo->ndim == x->ndim;
  v.ndim = i.ndim = x->ndim;
  for (int k = 0; k < x->ndim; k++) {
    int j = keep || k < d ? k : k - 1;
    v.shape[k] = i.shape[k] = x->shape[k];
    v.stride[k] = k == d ? 0 : vo->stride[j];
    i.stride[k] = k == d ? 0 : io->stride[j];
  }
  const mck_tensor *ts[3] = {x, &v, &i};
  ki_lines(it, 3, ts, d);
}

/* kthvalue(self, int k, int dim=-1, bool keepdim=False) -> (values, indices) */
static inline int ki_kthvalue(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::kthvalue";
  const mck_tensor *x = in[0].u.t;
  int64_t kk;
  int d, keep;
  if (ki_select_dtype_ok(c, op, x) || ki_int(c, op, in, nin, 1, 0, &kk) ||
      ki_dim(c, op, in, nin, 2, -1, x->ndim, &d) || ki_bool(c, op, in, nin, 3, 0, &keep))
    return -1;
  int64_t len = ki_len(x, d);
  if (kk < 1 || kk > len)
    return mck_fail(c, "%s: kthvalue(): selected number k out of range for dimension %d", op, d);
  if (ki_select_setup(c, op, out, nout, x, d, keep)) return -1;
  if (c->meta) return 0;
  mck_tensor *vo = out[0].u.t, *io = out[1].u.t;
  ki_el *a = ki_alloc(c, op, len);
  if (!a) return -1;
  mck_iter it;
  ki_select_lines(&it, x, d, vo, io);
  for (int64_t l = 0; l < it.total; l++, mck_iter_next(&it)) {
    ki_load(a, x, it.off[0], len, ki_str(x, d));
    ki_qselect(a, len, kk - 1, mck_is_float(x->dtype));
    ki_store(vo, it.off[1], &a[kk - 1]);
    mck_seti(io, it.off[2], a[kk - 1].ix);
  }
  free(a);
  return 0;
}

/* median / nanmedian: (self) -> Tensor | (self, int dim, bool keepdim=False) -> (values,
 * indices). The median of n values is the one of rank (n - 1) / 2 (the lower one), ties broken
 * by index; median returns the first NaN of a line that has one, nanmedian ignores NaNs (a line
 * of NaNs only gives NaN). The full form of an empty tensor is NaN. */
static inline int ki_median_impl(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                                 int ignore_nan) {
  const char *op = ignore_nan ? "aten::nanmedian" : "aten::median";
  const mck_tensor *x = in[0].u.t;
  if (ki_select_dtype_ok(c, op, x)) return -1;
  int fl = mck_is_float(x->dtype);
  ki_cmp k = {KI_ASC, fl};
  if (nin < 2) { /* the full median: values only */
    if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, x->dtype, 0, NULL)) return -1;
    if (c->meta) return 0;
    int64_t n = mck_numel(x);
    mck_tensor *o = out[0].u.t;
    if (n == 0) {
      mck_setf(o, o->offset, NAN);
      return 0;
    }
    ki_el *a = ki_alloc(c, op, 2 * n);
    if (!a) return -1;
    mck_iter it;
    const int64_t *st[1] = {x->stride};
    int64_t base[1] = {x->offset};
    mck_iter_init(&it, x->ndim, x->shape, 1, st, base);
    int64_t m = 0, nan = 0;
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) {
      a[m].f = fl ? mck_getf(x, it.off[0]) : 0;
      a[m].i = fl ? 0 : mck_geti(x, it.off[0]);
      a[m].ix = j;
      nan += a[m].f != a[m].f;
      m++;
    }
    ki_sort_stable(a, a + n, n, &k);
    if (nan && !ignore_nan) mck_setf(o, o->offset, NAN);
    else if (nan == n) mck_setf(o, o->offset, NAN);
    else ki_store(o, o->offset, &a[(n - nan - 1) / 2]);
    free(a);
    return 0;
  }
  int d, keep;
  if (ki_dim(c, op, in, nin, 1, 0, x->ndim, &d) || ki_bool(c, op, in, nin, 2, 0, &keep)) return -1;
  int64_t len = ki_len(x, d);
  if (len == 0)
    return mck_fail(c, "%s: median() cannot compute median for a dimension of size 0 because the operation does not have an identity", op);
  if (ki_select_setup(c, op, out, nout, x, d, keep)) return -1;
  if (c->meta) return 0;
  mck_tensor *vo = out[0].u.t, *io = out[1].u.t;
  ki_el *a = ki_alloc(c, op, 2 * len);
  if (!a) return -1;
  mck_iter it;
  ki_select_lines(&it, x, d, vo, io);
  for (int64_t l = 0; l < it.total; l++, mck_iter_next(&it)) {
    ki_load(a, x, it.off[0], len, ki_str(x, d));
    int64_t nan = 0, first = -1;
    for (int64_t j = 0; j < len; j++)
      if (a[j].f != a[j].f) {
        if (first < 0) first = j;
        nan++;
      }
    ki_el *pick;
    if (nan && !ignore_nan) {
      pick = &a[first];
    } else {
      ki_sort_stable(a, a + len, len, &k);
      pick = &a[nan == len ? 0 : (len - nan - 1) / 2];
    }
    ki_store(vo, it.off[1], pick);
    mck_seti(io, it.off[2], pick->ix);
  }
  free(a);
  return 0;
}
static inline int ki_median(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_median_impl(c, out, nout, in, nin, 0);
}
static inline int ki_nanmedian(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_median_impl(c, out, nout, in, nin, 1);
}

/* mode(self, int dim=-1, bool keepdim=False) -> (values, indices): the most frequent value
 * (the smallest among equally frequent ones) and the index PyTorch reports for it: the last of
 * its run after std::sort with a < b. */
static inline int ki_mode(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::mode";
  const mck_tensor *x = in[0].u.t;
  int d, keep;
  if (ki_dim(c, op, in, nin, 1, -1, x->ndim, &d) || ki_bool(c, op, in, nin, 2, 0, &keep)) return -1;
  int64_t len = ki_len(x, d);
  if (len == 0) return mck_fail(c, "%s: mode(): Expected reduction dim %d to have non-zero size", op, d);
  if (ki_select_setup(c, op, out, nout, x, d, keep)) return -1;
  if (c->meta) return 0;
  mck_tensor *vo = out[0].u.t, *io = out[1].u.t;
  ki_el *a = ki_alloc(c, op, len);
  if (!a) return -1;
  int fl = mck_is_float(x->dtype);
  ki_cmp k = {KI_LT, fl};
  mck_iter it;
  ki_select_lines(&it, x, d, vo, io);
  for (int64_t l = 0; l < it.total; l++, mck_iter_next(&it)) {
    ki_load(a, x, it.off[0], len, ki_str(x, d));
    ki_sort_std(a, len, &k);
    int64_t run = 0, best = 0, at = 0;
    for (int64_t j = 0; j < len; j++) {
      run++;
      int differ = j == len - 1 || (fl ? a[j].f != a[j + 1].f : a[j].i != a[j + 1].i);
      if (differ) {
        if (run > best) {
          best = run;
          at = j;
        }
        run = 0;
      }
    }
    ki_store(vo, it.off[1], &a[at]);
    mck_seti(io, it.off[2], a[at].ix);
  }
  free(a);
  return 0;
}

/* v rounded to floating dtype dt. */
static inline double ki_round(int dt, double v) {
  if (dt == MCK_F32) return (float)v;
  if (dt == MCK_F16) return mck_h2f(mck_f2h((float)v));
  if (dt == MCK_BF16) return mck_bf2f(mck_f2bf((float)v));
  return v;
}

/* ---- searchsorted / bucketize ------------------------------------------------------------ */
/* A value of t at off, as the promoted dtype pd sees it (rounded to pd when pd is a narrower
 * float), in ki_el form: f for floating pd, i otherwise. */
static inline ki_el ki_as(const mck_tensor *t, int64_t off, int pd) {
  ki_el e = {0, 0, 0};
  if (!mck_is_float(pd)) {
    e.i = mck_geti(t, off);
    return e;
  }
  e.f = ki_round(pd, mck_getf(t, off));
  return e;
}
/* ATen's cus_lower_bound / cus_upper_bound: binary search with !(mid >= v) (lower) or
 * !(mid > v) (upper), so NaN values land past the end. */
static inline int64_t ki_bound(const mck_tensor *b, int64_t boff, int64_t bst, int64_t n,
                               const mck_tensor *srt, int64_t soff, int64_t sst, ki_el v, int pd,
                               int right) {
  int64_t lo = 0, hi = n;
  int fl = mck_is_float(pd);
  while (lo < hi) {
    int64_t mid = lo + ((hi - lo) >> 1);
    int64_t at = srt ? mck_geti(srt, soff + mid * sst) : mid;
    ki_el m = ki_as(b, boff + at * bst, pd);
    int past = fl ? (right ? !(m.f > v.f) : !(m.f >= v.f)) : (right ? !(m.i > v.i) : !(m.i >= v.i));
    if (past) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
/* searchsorted(sorted_sequence, Tensor|Scalar self, *, bool out_int32=False, bool right=False,
 * str? side=None, Tensor? sorter=None); bucketize(Tensor|Scalar self, boundaries, *, out_int32,
 * right) is searchsorted(boundaries, self) with 1-D boundaries. */
static inline int ki_search(mck_ctx *c, const char *op, mck_arg *out, int nout,
                            const mck_tensor *b, const mck_arg *va, int out_int32, int right,
                            const mck_arg *side, const mck_tensor *srt) {
  mck_tensor sv;
  const mck_tensor *v;
  int64_t sbuf[1];
  double fbuf[1];
  if (va->kind == MCK_TENSOR) {
    v = va->u.t;
  } else if (mck_arg_is_scalar(va)) {
    memset(&sv, 0, sizeof sv);
    sv.dtype = mck_scalar_dtype(va);
    if (sv.dtype == MCK_F64) fbuf[0] = va->u.f, sv.data = fbuf;
    else sbuf[0] = va->u.i, sv.dtype = MCK_I64, sv.data = sbuf;
    v = &sv;
    if (b->ndim != 1)
      return mck_fail(c, "%s: input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim(%d)", op, b->ndim);
  } else {
    return mck_fail(c, "%s: the value must be a tensor or a compile-time constant number", op);
  }
  if (side && side->kind == MCK_STR) {
    int r = !strcmp(side->u.s, "right");
    if (!r && strcmp(side->u.s, "left"))
      return mck_fail(c, "%s: side can only be 'left' or 'right' but got %s", op, side->u.s);
    if (right && !r)
      return mck_fail(c, "%s: side and right can't be set to opposites, got side of left while right was True", op);
    right = r;
  } else if (side && side->kind != MCK_NONE) {
    return mck_fail(c, "%s: side must be a compile-time constant string", op);
  }
  if (b->dtype == MCK_BOOL || v->dtype == MCK_BOOL)
    return mck_fail(c, "%s: \"searchsorted_out_cpu\" not implemented for 'Bool'", op);
  if (b->ndim == 0) return mck_fail(c, "%s: boundaries tensor should have positive dimension, but got 0 dimension", op);
  if (b->ndim > 1) {
    int ok = b->ndim == v->ndim;
    for (int i = 0; ok && i < b->ndim - 1; i++) ok = b->shape[i] == v->shape[i];
    if (!ok)
      return mck_fail(c, "%s: boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match", op);
  }
  if (srt) {
    int ok = srt->ndim == b->ndim && srt->dtype == MCK_I64;
    for (int i = 0; ok && i < b->ndim; i++) ok = srt->shape[i] == b->shape[i];
    if (!ok) return mck_fail(c, "%s: sorter must be an int64 tensor of the boundaries' shape", op);
    if (ks_check_range(c, op, srt, b->shape[b->ndim - 1], 0)) return -1;
  }
  int odt = out_int32 ? MCK_I32 : MCK_I64;
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, odt, v->ndim, v->shape)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  int pd = mck_promote_types(b->dtype, v->dtype);
  int64_t n = b->shape[b->ndim - 1], bst = b->stride[b->ndim - 1];
  int64_t sst = srt ? srt->stride[b->ndim - 1] : 0;
  mck_iter it;
  const int64_t *st[2] = {v->stride, o->stride};
  int64_t base[2] = {v->offset, o->offset};
  mck_iter_init(&it, v->ndim, v->shape, 2, st, base);
  int64_t inner = v->ndim ? v->shape[v->ndim - 1] : 1;
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int64_t boff = b->offset, soff = srt ? srt->offset : 0;
    if (b->ndim > 1) { /* the boundary row of this element: the same leading coordinates */
      int64_t row = inner ? k / inner : 0;
      for (int i = b->ndim - 2; i >= 0; i--) {
        int64_t ci = row % b->shape[i];
        row /= b->shape[i];
        boff += ci * b->stride[i];
        if (srt) soff += ci * srt->stride[i];
      }
    }
    ki_el e = ki_as(v, it.off[0], pd);
    mck_seti(o, it.off[1], ki_bound(b, boff, bst, n, srt, soff, sst, e, pd, right));
  }
  return 0;
}
static inline int ki_searchsorted(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::searchsorted";
  int i32, right;
  if (ki_bool(c, op, in, nin, 2, 0, &i32) || ki_bool(c, op, in, nin, 3, 0, &right)) return -1;
  const mck_tensor *srt = nin > 5 && in[5].kind == MCK_TENSOR ? in[5].u.t : NULL;
  return ki_search(c, op, out, nout, in[0].u.t, &in[1], i32, right, nin > 4 ? &in[4] : NULL, srt);
}
static inline int ki_bucketize(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::bucketize";
  int i32, right;
  if (ki_bool(c, op, in, nin, 2, 0, &i32) || ki_bool(c, op, in, nin, 3, 0, &right)) return -1;
  if (in[1].kind != MCK_TENSOR) return mck_fail(c, "%s: boundaries must be a tensor", op);
  if (in[1].u.t->ndim != 1)
    return mck_fail(c, "%s: boundaries tensor must be 1 dimension, but got dim(%d)", op, in[1].u.t->ndim);
  return ki_search(c, op, out, nout, in[1].u.t, &in[0], i32, right, NULL, NULL);
}

/* ---- unique (sizes from the data: ctx->sized_by_data, mck_out_sized) ----------------------- */
/* Every element of x, row-major, into a (ix: the position). */
static inline void ki_load_all(ki_el *a, const mck_tensor *x) {
  int fl = mck_is_float(x->dtype);
  const int64_t *st[1] = {x->stride};
  int64_t base[1] = {x->offset};
  mck_iter it;
  mck_iter_init(&it, x->ndim, x->shape, 1, st, base);
  for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it)) {
    a[j].f = fl ? mck_getf(x, it.off[0]) : 0;
    a[j].i = fl ? 0 : mck_geti(x, it.off[0]);
    a[j].ix = j;
  }
}
static inline int ki_el_eq(int fl, const ki_el *a, const ki_el *b) { return fl ? a->f == b->f : a->i == b->i; }

/* The three results of _unique2 / unique_consecutive: values [n] (n known at run time), the
 * inverse (self's shape, or [0] when not asked for) and counts ([n], or [0]); in meta mode the
 * bounds. */
static inline int ki_unique_outs(mck_ctx *c, mck_arg *out, int nout, const mck_tensor *x, int64_t n, int inv,
                                 int cnt) {
  if (nout < 3 || out[0].kind != MCK_TENSOR || out[1].kind != MCK_TENSOR || out[2].kind != MCK_TENSOR)
    return mck_fail(c, "unique: expects three tensor results");
  if (x->dtype == MCK_F16) return mck_fail(c, "\"unique\" not implemented for 'Half'");
  int64_t zero = 0;
  if (mck_out_sized(c, out[0].u.t, x->dtype, 1, &n)) return -1;
  if (inv ? mck_out(c, out[1].u.t, MCK_I64, x->ndim, x->shape) : mck_out(c, out[1].u.t, MCK_I64, 1, &zero)) return -1;
  return cnt ? mck_out_sized(c, out[2].u.t, MCK_I64, 1, &n) : mck_out(c, out[2].u.t, MCK_I64, 1, &zero);
}

/* Groups of equal elements, in the order of a (sorted, or as they come): values take each group's
 * first element (the first occurrence in self: with a stable sort, -0.0 or 0.0 as PyTorch's hash
 * set keeps it), inverse[position] = group, counts[group] = size. NaN equals nothing. */
static inline int ki_unique_groups(mck_ctx *c, mck_arg *out, int nout, const mck_tensor *x, const ki_el *a,
                                   int64_t n, int inv, int cnt) {
  int fl = mck_is_float(x->dtype);
  int64_t ng = 0;
  for (int64_t j = 0; j < n; j++) ng += j == 0 || !ki_el_eq(fl, &a[j - 1], &a[j]);
  if (ki_unique_outs(c, out, nout, x, ng, inv, cnt)) return -1;
  mck_tensor *v = out[0].u.t, *iv = out[1].u.t, *ct = out[2].u.t;
  int64_t g = -1;
  for (int64_t j = 0; j < n; j++) {
    if (j == 0 || !ki_el_eq(fl, &a[j - 1], &a[j])) {
      g++;
      ki_store(v, v->offset + g, &a[j]);
      if (cnt) mck_seti(ct, ct->offset + g, 0);
    }
    if (inv) mck_seti(iv, iv->offset + a[j].ix, g);
    if (cnt) mck_seti(ct, ct->offset + g, mck_geti(ct, ct->offset + g) + 1);
  }
  return 0;
}

/* _unique2(self, bool sorted=True, bool return_inverse=False, bool return_counts=False):
 * the distinct elements in ascending order (with return_counts the inverse too, as PyTorch gives
 * it whenever it counts). PyTorch's unsorted order (sorted=False) is its hash
 * set's, and its result with NaN in self is not well defined (1.13 gives NaN counts of 0): mc
 * refuses the first and treats every NaN as distinct, sorted last. */
static inline int ki_unique2(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::_unique2";
  int sorted, inv, cnt;
  if (in[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects a tensor", op);
  if (ki_bool(c, op, in, nin, 1, 1, &sorted) || ki_bool(c, op, in, nin, 2, 0, &inv) || ki_bool(c, op, in, nin, 3, 0, &cnt))
    return -1;
  if (!sorted)
    return mck_fail(c, "%s: sorted=False is not supported (PyTorch's order is that of its hash set); use sorted=True", op);
  const mck_tensor *x = in[0].u.t;
  int64_t n = mck_numel(x);
  inv |= cnt; /* PyTorch computes (and returns) the inverse whenever it counts */
  if (c->meta) return ki_unique_outs(c, out, nout, x, n, inv, cnt);
  ki_el *a = ki_alloc(c, op, n), *tmp = ki_alloc(c, op, n);
  int rc = -1;
  if (a && tmp) {
    ki_cmp k = {KI_ASC, mck_is_float(x->dtype)};
    ki_load_all(a, x);
    ki_sort_stable(a, tmp, n, &k);
    rc = ki_unique_groups(c, out, nout, x, a, n, inv, cnt);
  }
  free(a);
  free(tmp);
  return rc;
}

/* unique_consecutive(self, bool return_inverse=False, bool return_counts=False, int? dim=None):
 * runs of equal elements in row-major order (dim=None only). */
static inline int ki_unique_consecutive(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::unique_consecutive";
  int inv, cnt;
  if (in[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects a tensor", op);
  if (ki_bool(c, op, in, nin, 1, 0, &inv) || ki_bool(c, op, in, nin, 2, 0, &cnt)) return -1;
  if (nin > 3 && in[3].kind != MCK_NONE) return mck_fail(c, "%s: only dim=None is supported", op);
  const mck_tensor *x = in[0].u.t;
  int64_t n = mck_numel(x);
  if (c->meta) return ki_unique_outs(c, out, nout, x, n, inv, cnt);
  ki_el *a = ki_alloc(c, op, n);
  if (!a) return -1;
  ki_load_all(a, x);
  int rc = ki_unique_groups(c, out, nout, x, a, n, inv, cnt);
  free(a);
  return rc;
}
/* ---- unique along a dim: distinct slices --------------------------------------------------- */
/* Rows r and q of a (n rows of m elements, loaded row by row) compared lexicographically;
 * NaN after every number (a total order, so the sort is deterministic). */
static inline int ki_row_cmp(int fl, const ki_el *a, int64_t m, int64_t r, int64_t q) {
  ki_cmp k = {KI_ASC, fl};
  for (int64_t j = 0; j < m; j++) {
    const ki_el *x = &a[r * m + j], *y = &a[q * m + j];
    if (ki_el_eq(fl, x, y)) continue;
    if (ki_less(&k, x, y)) return -1;
    if (ki_less(&k, y, x)) return 1;
  }
  return 0;
}
static inline int ki_row_eq(int fl, const ki_el *a, int64_t m, int64_t r, int64_t q) {
  for (int64_t j = 0; j < m; j++)
    if (!ki_el_eq(fl, &a[r * m + j], &a[q * m + j])) return 0;
  return 1;
}

/* unique_dim(self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False):
 * the distinct slices of self along dim in lexicographic order, and for each slice of self the
 * index of its distinct slice, and how many slices each one stands for. PyTorch sorts whatever
 * `sorted` says and computes (and returns) the inverse and counts whatever the flags say: so does
 * mc. Of equal slices the first in self is kept (a stable sort); a slice with NaN equals none, NaN
 * sorting last (PyTorch's order there is its unstable sort's). mc's result is contiguous;
 * PyTorch's is transposed back from dim 0 (strided_out). */
static inline int ki_unique_dim(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::unique_dim";
  if (in[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects a tensor", op);
  const mck_tensor *x = in[0].u.t;
  if (x->ndim == 0) return mck_fail(c, "%s: Dimension specified as %lld but tensor has no dimensions", op,
                                    (long long)(nin > 1 && in[1].kind == MCK_INT ? in[1].u.i : 0));
  int d;
  if (ki_dim(c, op, in, nin, 1, 0, x->ndim, &d)) return -1;
  if (x->dtype == MCK_F16) return mck_fail(c, "\"unique_dim\" not implemented for 'Half'");
  if (nout < 3 || out[0].kind != MCK_TENSOR || out[1].kind != MCK_TENSOR || out[2].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects three tensor results", op);
  int64_t n = x->shape[d], tot = mck_numel(x), m = n ? tot / n : 0;
  if (n > 0 && tot == 0)
    return mck_fail(c, "%s: There are 0 sized dimensions, and they aren't selected, so unique cannot be applied", op);
  int fl = mck_is_float(x->dtype);
  /* PyTorch compares the rows of self.transpose(0, dim): dims 0 and dim swapped, so a row's
   * elements run over the other dims in the order pm[1..] */
  int pm[MCK_MAX_DIMS];
  for (int i = 0; i < x->ndim; i++) pm[i] = i == 0 ? d : i == d ? 0 : i;
  ki_el *a = NULL;
  int64_t *ord = NULL, *tmp = NULL, ng = n;
  if (!c->meta && n > 0) {
    /* self's slices as rows: element j of row r is self[..., r (at d), ...] in row-major order */
    a = ki_alloc(c, op, tot);
    ord = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * n));
    if (!a || !ord) {
      free(a);
      free(ord);
      return mck_fail(c, "%s: out of memory", op);
    }
    tmp = ord + n;
    int64_t shp[MCK_MAX_DIMS], st[MCK_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++) shp[i] = x->shape[pm[i]], st[i] = x->stride[pm[i]];
    const int64_t *sts[1] = {st};
    int64_t base[1] = {x->offset};
    mck_iter it;
    mck_iter_init(&it, x->ndim, shp, 1, sts, base);
    for (int64_t j = 0; j < tot; j++, mck_iter_next(&it)) {
      a[j].f = fl ? mck_getf(x, it.off[0]) : 0;
      a[j].i = fl ? 0 : mck_geti(x, it.off[0]);
      a[j].ix = j / m;
    }
    /* stable bottom-up merge sort of the row numbers */
    for (int64_t r = 0; r < n; r++) ord[r] = r;
    for (int64_t w = 1; w < n; w *= 2) {
      for (int64_t lo = 0; lo < n; lo += 2 * w) {
        int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, o = lo;
        while (i < mid && j < hi) tmp[o++] = ki_row_cmp(fl, a, m, ord[j], ord[i]) < 0 ? ord[j++] : ord[i++];
        while (i < mid) tmp[o++] = ord[i++];
        while (j < hi) tmp[o++] = ord[j++];
      }
      memcpy(ord, tmp, sizeof(int64_t) * (size_t)n);
    }
    ng = 0;
    for (int64_t r = 0; r < n; r++) ng += r == 0 || !ki_row_eq(fl, a, m, ord[r - 1], ord[r]);
  }
  int64_t vs[MCK_MAX_DIMS];
  for (int i = 0; i < x->ndim; i++) vs[i] = i == d ? ng : x->shape[i];
  int rc = mck_out_sized(c, out[0].u.t, x->dtype, x->ndim, vs) || mck_out(c, out[1].u.t, MCK_I64, 1, &n) ||
           mck_out_sized(c, out[2].u.t, MCK_I64, 1, &ng);
  if (!rc && !c->meta && n > 0) {
    mck_tensor *v = out[0].u.t, *iv = out[1].u.t, *ct = out[2].u.t;
    /* slice g of v along d, walked in the rows' element order */
    int64_t vshp[MCK_MAX_DIMS], vst[MCK_MAX_DIMS];
    for (int i = 1; i < x->ndim; i++) vshp[i - 1] = v->shape[pm[i]], vst[i - 1] = v->stride[pm[i]];
    const int64_t *vsts[1] = {vst};
    int64_t g = -1, count = 0;
    for (int64_t r = 0; r < n; r++) {
      int64_t q = ord[r];
      if (r == 0 || !ki_row_eq(fl, a, m, ord[r - 1], q)) {
        if (g >= 0) mck_seti(ct, ct->offset + g, count);
        g++, count = 0;
        int64_t base[1] = {v->offset + g * v->stride[d]};
        mck_iter it;
        mck_iter_init(&it, x->ndim - 1, vshp, 1, vsts, base);
        for (int64_t j = 0; j < m; j++, mck_iter_next(&it)) ki_store(v, it.off[0], &a[q * m + j]);
      }
      count++;
      mck_seti(iv, iv->offset + q, g);
    }
    mck_seti(ct, ct->offset + g, count);
  }
  free(a);
  free(ord);
  return rc ? -1 : 0;
}
#endif
