/* k_index.h — kernels of the index family: sorting and selection (sort, argsort, msort, topk,
 * kthvalue, median, nanmedian, mode), searching (searchsorted, bucketize), scatter-style
 * writes (scatter, scatter_add, scatter_reduce, index_add, index_copy, index_fill, put,
 * masked_scatter) and gathers (take, take_along_dim), shape-level ops (tile, broadcast_to,
 * repeat_interleave, one_hot, eye, concat, tril/triu_indices), paired reductions (var_mean,
 * std_mean, aminmax, cummax, cummin), logcumsumexp, diff, cross, bincount, and the random ops.
 * Prefix: ki_.
 *
 * Invariants, as in PyTorch 1.13 on CPU:
 *   - Orders of equal elements are PyTorch's. sort (stable=False), topk, kthvalue and mode run
 *     the algorithms PyTorch's CPU kernels run (libstdc++'s std::sort / std::nth_element /
 *     std::partial_sort, and ATen's quick_select_template), reproduced step for step in ki_sort_*
 *     and ki_qselect, so ties come out as PyTorch gives them; stable sort gives equal elements
 *     in ascending index order; NaN sorts as the largest value; median picks the element of
 *     rank (n - 1) / 2 with ties broken by index, as PyTorch's comparator does.
 *   - Index tensors are checked at run time (negative indices wrap where PyTorch allows them):
 *     an index out of range fails the kernel with PyTorch's message, never touches memory.
 *   - Output sizes that depend on tensor data (repeat_interleave with a run-time repeats tensor,
 *     one_hot with num_classes=-1, bincount) are computed only from constant inputs; otherwise
 *     the meta path refuses with a message saying so.
 *   - Random ops (OPF_NONDET) draw from ki_rng, one splitmix64 stream per program (seeded with
 *     0 at start, advanced by every draw in program order), not from PyTorch's generator: their
 *     shapes and dtypes are exact, their values follow the distribution only.
 * Helpers of other families are reused: k_shape.h (ks_ copies, gather, cat, repeat, expand) and
 * k_reduce.h (dim masks and plans, var, mean, extrema); the build pastes this header after
 * them.
 */
#ifndef MC_K_INDEX_H
#define MC_K_INDEX_H

#include "mck.h"
#include "k_reduce.h"
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
/* ---- shape-level ops --------------------------------------------------------------------- */
/* tile(self, int[] dims): repeat with dims padded by leading ones to self's rank */
static inline int ki_tile(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  const char *op = "aten::tile";
  const mck_tensor *s = in[0].u.t;
  const int64_t *r;
  int n;
  int64_t one, reps[MCK_MAX_DIMS], t;
  if (ks_ints(&in[1], &r, &n, &one)) return mck_fail(c, "%s: dims must be a compile-time constant int list", op);
  int m = n > s->ndim ? n : s->ndim;
  if (m > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dimensions", op);
  for (int i = 0; i < m; i++) {
    reps[i] = i < m - n ? 1 : r[i - (m - n)];
    int j = i - (m - s->ndim);
    if (reps[i] < 0) return mck_fail(c, "%s: Trying to create tensor with negative dimension %lld", op, (long long)reps[i]);
    if (mck_mul_ovf(j >= 0 ? s->shape[j] : 1, reps[i], &t)) return mck_fail(c, "%s: the tiled size overflows int64", op);
  }
  mck_arg a[2];
  a[0] = in[0];
  memset(&a[1], 0, sizeof a[1]);
  a[1].kind = MCK_INTS;
  a[1].n = m;
  a[1].u.ints = reps;
  if (ki_tensor_out(c, op, out, nout, 0)) return -1;
  return ks_repeat(c, out, nout, a, 2);
}
/* broadcast_to(self, int[] size): a view, as expand */
static inline int ki_broadcast_to(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const int64_t *sz;
  int n;
  int64_t one;
  if (ks_ints(&in[1], &sz, &n, &one)) return mck_fail(c, "aten::broadcast_to: size must be a compile-time constant int list");
  return ks_expand_to(c, "aten::broadcast_to", out, in[0].u.t, n, sz);
}

/* repeat_interleave(Tensor repeats, *, int? output_size) | (self, Tensor repeats, int? dim=None,
 * *, int? output_size) | (self, int repeats, int? dim=None, *, int? output_size). A repeats
 * tensor makes the output size its sum: known when repeats is a constant or output_size is
 * given (then checked at run time), refused otherwise. */
static inline int ki_repeat_interleave(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::repeat_interleave";
  /* forms: repeats only (repeats, output_size) or self, repeats, dim, output_size */
  int only = nin <= 2;
  const mck_tensor *s = only ? NULL : in[0].u.t;
  const mck_arg *ra = only ? &in[0] : &in[1];
  const mck_arg *da = only || nin < 3 ? NULL : &in[2];
  const mck_arg *oa = only ? (nin > 1 ? &in[1] : NULL) : (nin > 3 ? &in[3] : NULL);
  int64_t osize = -1, scal = -1;
  if (oa && oa->kind != MCK_NONE && ks_int(c, op, oa, -1, &osize)) return -1;
  const mck_tensor *rt = NULL;
  if (ra->kind == MCK_TENSOR) {
    rt = ra->u.t;
    if (rt->dtype != MCK_I64 && rt->dtype != MCK_I32) return mck_fail(c, "%s: repeats has to be Long or Int tensor", op);
    if (rt->ndim > 1) return mck_fail(c, "%s: repeats must be 0-dim or 1-dim tensor", op);
  } else if (ks_int(c, op, ra, 0, &scal)) {
    return -1;
  } else if (scal < 0) {
    return mck_fail(c, "%s: repeats can not be negative", op);
  }
  /* the input seen as the line to repeat along: flattened without dim */
  mck_tensor x;
  int d = 0;
  if (s) {
    x = *s;
    if (!da || da->kind == MCK_NONE) {
      int64_t n1[1] = {mck_numel(s)};
      if (ks_view_strides(s, 1, n1, x.stride)) { /* a non-flat layout: walked element by element */
        x.stride[0] = -1;
      }
      x.ndim = 1;
      x.shape[0] = n1[0];
      if (x.stride[0] == -1) x.stride[0] = 0, d = -1;
    } else {
      int64_t d0;
      if (ks_int(c, op, da, 0, &d0) || ks_dim(c, op, d0, s->ndim, &d)) return -1;
      if (s->ndim == 0) {
        x.ndim = 1;
        x.shape[0] = 1;
        x.stride[0] = 0;
        d = 0;
      }
    }
  }
  int flat_walk = d == -1;
  if (flat_walk) d = 0;
  int64_t len = s ? x.shape[d] : (rt ? (rt->ndim ? rt->shape[0] : 1) : 0);
  if (rt && s && rt->ndim == 1 && rt->shape[0] != len && rt->shape[0] != 1)
    return mck_fail(c, "%s: repeats must have the same size as input along dim, but got repeats.size(0) = %lld and input.size(%d) = %lld", op, (long long)rt->shape[0], d, (long long)len);
  if (rt && !s && rt->ndim != 1) return mck_fail(c, "%s: repeats must be 1-dim tensor", op);
  /* the total */
  int64_t total = 0;
  int data = rt && rt->data != NULL;
  if (!rt) {
    if (mck_mul_ovf(len, scal, &total)) return mck_fail(c, "%s: the output size overflows int64", op);
  } else if (data) {
    int64_t nr = rt->ndim ? rt->shape[0] : 1;
    for (int64_t j = 0; j < (s ? len : nr); j++) {
      int64_t v = mck_geti(rt, rt->offset + (rt->ndim && nr > 1 ? j * rt->stride[0] : 0));
      if (v < 0) return mck_fail(c, "%s: repeats can not be negative", op);
      if (mck_add_ovf(total, v, &total)) return mck_fail(c, "%s: the output size overflows int64", op);
    }
    if (osize >= 0 && osize != total)
      return mck_fail(c, "%s: allocated size does not match required size", op);
  } else if (osize >= 0) {
    total = osize;
  } else {
    return mck_fail(c, "%s: the output size is the sum of the repeats tensor, which is known only at run time; mc supports a constant repeats tensor, an int repeats, or output_size=", op);
  }
  int64_t ns[MCK_MAX_DIMS];
  int nd = s ? x.ndim : 1;
  for (int i = 0; i < nd; i++) ns[i] = s ? (i == d ? total : x.shape[i]) : total;
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, s ? s->dtype : rt->dtype, nd, ns)) return -1;
  if (c->meta || total == 0) return 0;
  mck_tensor *o = out[0].u.t;
  int64_t at = 0;
  int64_t nr = rt ? (rt->ndim ? rt->shape[0] : 1) : 0;
  for (int64_t j = 0; j < (s ? len : nr); j++) {
    int64_t r = !rt ? scal : mck_geti(rt, rt->offset + (rt->ndim && nr > 1 ? j * rt->stride[0] : 0));
    if (at + r > total) return mck_fail(c, "%s: allocated size does not match required size", op);
    for (int64_t q = 0; q < r; q++, at++) {
      if (!s) {
        mck_seti(o, o->offset + at * o->stride[0], j);
        continue;
      }
      mck_tensor src = x, dst = *o;
      if (flat_walk) {
        src.ndim = dst.ndim = 0;
        src.offset = ki_flat_off(s, j);
        dst.offset = o->offset + at;
      } else {
        src.offset += j * x.stride[d];
        src.shape[d] = 1;
        dst.offset += at * o->stride[d];
        dst.shape[d] = 1;
      }
      ks_copy_nocheck(&dst, &src);
    }
  }
  if (at != total) return mck_fail(c, "%s: allocated size does not match required size", op);
  return 0;
}

/* one_hot(self, int num_classes=-1): int64 of shape self.shape + [num_classes]; -1 takes
 * max(self) + 1, known only for a constant self (refused otherwise). */
static inline int ki_one_hot(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::one_hot";
  const mck_tensor *s = in[0].u.t;
  int64_t nc, ns[MCK_MAX_DIMS];
  if (ki_int(c, op, in, nin, 1, -1, &nc)) return -1;
  if (s->dtype != MCK_I64) return mck_fail(c, "%s: one_hot is only applicable to index tensor.", op);
  if (s->ndim + 1 > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dimensions", op);
  int64_t n = mck_numel(s);
  mck_iter it;
  const int64_t *st[1] = {s->stride};
  int64_t base[1] = {s->offset};
  if (nc == -1) {
    if (n == 0) return mck_fail(c, "%s: Can not infer total number of classes from empty tensor.", op);
    if (!s->data)
      return mck_fail(c, "%s: num_classes=-1 makes the output size max(self) + 1, known only at run time; mc supports it for a constant input, or pass num_classes", op);
    mck_iter_init(&it, s->ndim, s->shape, 1, st, base);
    int64_t mx = INT64_MIN;
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
      int64_t v = mck_geti(s, it.off[0]);
      mx = v > mx ? v : mx;
    }
    if (mx == INT64_MAX) return mck_fail(c, "%s: Class values must be smaller than num_classes.", op);
    nc = mx + 1;
  } else if (nc < -1) {
    return mck_fail(c, "%s: num_classes should be positive", op);
  }
  for (int i = 0; i < s->ndim; i++) ns[i] = s->shape[i];
  ns[s->ndim] = nc;
  if (!c->meta || s->data) {
    mck_iter_init(&it, s->ndim, s->shape, 1, st, base);
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
      int64_t v = mck_geti(s, it.off[0]);
      if (v < 0) return mck_fail(c, "%s: Class values must be non-negative.", op);
      if (v >= nc) return mck_fail(c, "%s: Class values must be smaller than num_classes.", op);
    }
  }
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, MCK_I64, s->ndim + 1, ns)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_iter_init(&it, s->ndim, s->shape, 1, st, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    int64_t v = mck_geti(s, it.off[0]);
    for (int64_t j = 0; j < nc; j++) mck_seti(o, o->offset + k * nc + j, j == v);
  }
  return 0;
}

/* The dtype argument of a factory (ScalarType code or None). */
static inline int ki_factory_dtype(mck_ctx *c, const char *op, const mck_arg *in, int nin, int i,
                                   int dflt, int *dt) {
  *dt = dflt;
  if (i >= nin || in[i].kind == MCK_NONE) return 0;
  if (in[i].kind != MCK_INT) return mck_fail(c, "%s: dtype must be a compile-time constant ScalarType", op);
  *dt = mck_dtype_from_scalar_type(in[i].u.i);
  if (*dt < 0) return mck_fail(c, "%s: unsupported ScalarType code %lld", op, (long long)in[i].u.i);
  return 0;
}
/* eye(int n, *, dtype, layout, device, pin_memory) | eye(int n, int m, *, ...) */
static inline int ki_eye(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::eye";
  int two = nin == 6 || (nin >= 2 && nin != 5 && in[1].kind == MCK_INT && nin == 2);
  int64_t n, m;
  int dt;
  if (ki_int(c, op, in, nin, 0, 0, &n)) return -1;
  m = n;
  if (two && ki_int(c, op, in, nin, 1, 0, &m)) return -1;
  if (ki_factory_dtype(c, op, in, nin, two ? 2 : 1, MCK_F32, &dt)) return -1;
  if (n < 0) return mck_fail(c, "%s: n must be greater or equal to 0, got %lld", op, (long long)n);
  if (m < 0) return mck_fail(c, "%s: m must be greater or equal to 0, got %lld", op, (long long)m);
  int64_t ns[2] = {n, m};
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, dt, 2, ns)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < m; j++) mck_seti(o, o->offset + i * m + j, i == j);
  return 0;
}
/* tril_indices / triu_indices(int row, int col, int offset=0, *, dtype=int64, ...): the
 * coordinates (2 x N) of the lower (upper) triangle, row by row. */
static inline int ki_tri_indices(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int lower) {
  const char *op = lower ? "aten::tril_indices" : "aten::triu_indices";
  int64_t row, col, off;
  int dt;
  if (ki_int(c, op, in, nin, 0, 0, &row) || ki_int(c, op, in, nin, 1, 0, &col) ||
      ki_int(c, op, in, nin, 2, 0, &off) || ki_factory_dtype(c, op, in, nin, 3, MCK_I64, &dt))
    return -1;
  if (row < 0) return mck_fail(c, "%s: row must be non-negative, got%lld", op, (long long)row);
  if (col < 0) return mck_fail(c, "%s: col must be non-negative, got%lld", op, (long long)col);
  if (dt != MCK_I64 && dt != MCK_I32) return mck_fail(c, "%s: \"%s\" not implemented for '%s'", op, op + 6, mck_dtype_name(dt));
  if (row > MCK_MAX_GEOM || col > MCK_MAX_GEOM || off > MCK_MAX_GEOM || off < -MCK_MAX_GEOM)
    return mck_fail(c, "%s: row, col and offset must stay below 2^31", op);
  int64_t cnt = 0;
  for (int64_t i = 0; i < row; i++) {
    /* lower: j <= i + off; upper: j >= i + off */
    int64_t k = lower ? i + off + 1 : col - (i + off);
    cnt += k < 0 ? 0 : k > col ? col : k;
  }
  int64_t ns[2] = {2, cnt};
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, dt, 2, ns)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  int64_t at = 0;
  for (int64_t i = 0; i < row; i++) {
    int64_t lo = lower ? 0 : i + off, hi = lower ? i + off + 1 : col;
    if (lo < 0) lo = 0;
    if (hi > col) hi = col;
    for (int64_t j = lo; j < hi; j++, at++) {
      mck_seti(o, o->offset + at, i);
      mck_seti(o, o->offset + cnt + at, j);
    }
  }
  return 0;
}
static inline int ki_tril_indices(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_tri_indices(c, out, nout, in, nin, 1);
}
static inline int ki_triu_indices(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_tri_indices(c, out, nout, in, nin, 0);
}

/* ---- paired reductions ------------------------------------------------------------------- */
/* var_mean / std_mean: (self, bool unbiased=True) | (self, int[1]? dim, bool unbiased=True,
 * bool keepdim=False) | (self, int[1]? dim, *, int? correction, bool keepdim=False) ->
 * (var or std, mean): k_reduce.h's var/std and mean over the same dims. */
static inline int ki_var_mean_impl(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int sq) {
  const char *op = sq ? "aten::std_mean" : "aten::var_mean";
  if (nout < 2) return mck_fail(c, "%s: expects two outputs", op);
  if (mck_red_var(c, out, 1, in, nin, sq)) return -1;
  mck_arg m[3];
  memset(m, 0, sizeof m);
  m[0] = in[0];
  int full = nin == 2 && in[1].kind == MCK_BOOL_ARG;
  if (nin < 2 || full) {
    m[1].kind = MCK_NONE;
  } else {
    m[1] = in[1];
  }
  m[2].kind = MCK_BOOL_ARG;
  m[2].u.i = 0;
  if (nin > 3 && !full) m[2] = in[3];
  return mck_mean(c, out + 1, 1, m, 3);
}
static inline int ki_var_mean(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_var_mean_impl(c, out, nout, in, nin, 0);
}
static inline int ki_std_mean(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_var_mean_impl(c, out, nout, in, nin, 1);
}
/* aminmax(self, *, int? dim=None, bool keepdim=False) -> (min, max) */
static inline int ki_aminmax(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::aminmax";
  const mck_tensor *x = in[0].u.t;
  if (x->dtype == MCK_F16) return mck_fail(c, "%s: \"aminmax_cpu\" not implemented for 'Half'", op);
  if (nout < 2) return mck_fail(c, "%s: expects two outputs", op);
  mck_arg a[3];
  memset(a, 0, sizeof a);
  a[0] = in[0];
  if (nin > 1 && in[1].kind != MCK_NONE) {
    a[1] = in[1];
    if (in[1].kind == MCK_INT && x->ndim == 0 && mck_wrap_dim(in[1].u.i, 0) < 0)
      return mck_fail(c, "%s: dimension out of range", op);
  } else {
    a[1].kind = MCK_INTS;
    a[1].n = 0;
    if (x->ndim && mck_numel(x) == 0)
      return mck_fail(c, "%s: aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.", op);
  }
  a[2].kind = MCK_BOOL_ARG;
  if (nin > 2) a[2] = in[2];
  if (mck_amin(c, out, 1, a, 3)) return -1;
  return mck_amax(c, out + 1, 1, a, 3);
}
/* cummax / cummin(self, int dim) -> (values, indices): PyTorch's scan: x replaces the running
 * value when it is NaN or (the running value is not NaN and) x >= it (x <= it): ties take the
 * later index, NaN sticks with the index of the last NaN. */
static inline int ki_cum_extreme(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int mx) {
  const char *op = mx ? "aten::cummax" : "aten::cummin";
  const mck_tensor *x = in[0].u.t;
  int d;
  if (x->dtype == MCK_F16) return mck_fail(c, "%s: \"%s_cpu\" not implemented for 'Half'", op, op + 6);
  if (ki_dim(c, op, in, nin, 1, 0, x->ndim, &d) || ki_tensor_out(c, op, out, nout, 1) ||
      ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape) ||
      mck_out(c, out[1].u.t, MCK_I64, x->ndim, x->shape))
    return -1;
  if (c->meta || mck_numel(x) == 0) return 0;
  mck_tensor *vo = out[0].u.t, *io = out[1].u.t;
  const mck_tensor *ts[3] = {x, vo, io};
  mck_iter it;
  ki_lines(&it, 3, ts, d);
  int64_t len = ki_len(x, d), sx = ki_str(x, d), sv = ki_str(vo, d), si = ki_str(io, d);
  int fl = mck_is_float(x->dtype);
  for (int64_t l = 0; l < it.total; l++, mck_iter_next(&it)) {
    ki_el best;
    ki_load(&best, x, it.off[0], 1, sx);
    int64_t at = 0;
    for (int64_t j = 0; j < len; j++) {
      ki_el e;
      ki_load(&e, x, it.off[0] + j * sx, 1, sx);
      int take;
      if (fl) take = e.f != e.f || (best.f == best.f && (mx ? e.f >= best.f : e.f <= best.f));
      else take = mx ? e.i >= best.i : e.i <= best.i;
      if (take) {
        best = e;
        at = j;
      }
      ki_store(vo, it.off[1] + j * sv, &best);
      mck_seti(io, it.off[2] + j * si, at);
    }
  }
  return 0;
}
static inline int ki_cummax(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_cum_extreme(c, out, nout, in, nin, 1);
}
static inline int ki_cummin(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_cum_extreme(c, out, nout, in, nin, 0);
}
/* logcumsumexp(self, int dim): running log(sum(exp)) along dim, in double, PyTorch's
 * log_add_exp (infinities of one sign stay, NaN propagates); floating dtypes other than half. */
static inline int ki_logcumsumexp(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::logcumsumexp";
  const mck_tensor *x = in[0].u.t;
  int d;
  if (!mck_is_float(x->dtype) || x->dtype == MCK_F16)
    return mck_fail(c, "%s: \"logcumsumexp_out_cpu\" not implemented for '%s'", op, mck_dtype_name(x->dtype));
  if (ki_dim(c, op, in, nin, 1, 0, x->ndim, &d) || ki_tensor_out(c, op, out, nout, 0) ||
      mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape))
    return -1;
  if (c->meta || mck_numel(x) == 0) return 0;
  mck_tensor *o = out[0].u.t;
  const mck_tensor *ts[2] = {x, o};
  mck_iter it;
  ki_lines(&it, 2, ts, d);
  int64_t len = ki_len(x, d), sx = ki_str(x, d), so = ki_str(o, d);
  for (int64_t l = 0; l < it.total; l++, mck_iter_next(&it)) {
    double acc = -INFINITY;
    for (int64_t j = 0; j < len; j++) {
      double y = mck_getf(x, it.off[0] + j * sx);
      double mn = y != y ? y : (acc < y ? acc : y), mxv = y != y ? y : (acc > y ? acc : y);
      if (acc != acc) mn = mxv = acc;
      if (mn != mxv || isfinite(mn)) acc = log1p(exp(mn - mxv)) + mxv;
      mck_setf(o, it.off[1] + j * so, acc);
    }
  }
  return 0;
}

/* diff(self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None): the n-th forward
 * difference along dim of cat([prepend, self, append]); bools give x[i+1] != x[i]; each step
 * rounds (wraps) to the dtype as PyTorch's repeated subtraction does. */
static inline int ki_diff(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::diff";
  const mck_tensor *s = in[0].u.t;
  int64_t n;
  int d;
  if (s->ndim == 0) return mck_fail(c, "%s: diff expects input to be at least one-dimensional", op);
  if (ki_int(c, op, in, nin, 1, 1, &n) || ki_dim(c, op, in, nin, 2, -1, s->ndim, &d)) return -1;
  if (n < 0) n = 0; /* PyTorch 1.13 returns the input for a negative order */
  const mck_tensor *pre = nin > 3 && in[3].kind == MCK_TENSOR ? in[3].u.t : NULL;
  const mck_tensor *app = nin > 4 && in[4].kind == MCK_TENSOR ? in[4].u.t : NULL;
  int dt = s->dtype;
  int64_t len = s->shape[d];
  const mck_tensor *parts[3] = {pre, s, app};
  for (int k = 0; k < 3; k += 2) {
    const mck_tensor *p = parts[k];
    if (!p) continue;
    if (p->ndim != s->ndim) return mck_fail(c, "%s: diff expects prepend or append to be the same dimension as input", op);
    for (int i = 0; i < s->ndim; i++)
      if (i != d && p->shape[i] != s->shape[i])
        return mck_fail(c, "%s: diff expects the shape of tensor to prepend or append to match that of input except along the differencing dimension", op);
    dt = mck_promote_types(dt, p->dtype);
    if (mck_add_ovf(len, p->shape[d], &len)) return mck_fail(c, "%s: size overflows int64", op);
  }
  int64_t ol = len - n < 0 ? 0 : len - n, ns[MCK_MAX_DIMS];
  for (int i = 0; i < s->ndim; i++) ns[i] = i == d ? ol : s->shape[i];
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, dt, s->ndim, ns)) return -1;
  if (c->meta || mck_numel(out[0].u.t) == 0) return 0;
  mck_tensor *o = out[0].u.t;
  /* one line at a time in a scratch tensor of dtype dt */
  size_t es = mck_dtype_size(dt);
  mck_tensor tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.dtype = dt;
  tmp.ndim = 1;
  tmp.shape[0] = len;
  tmp.stride[0] = 1;
  tmp.data = malloc((size_t)len * es);
  if (!tmp.data) return mck_fail(c, "%s: out of memory", op);
  const mck_tensor *ts[2] = {s, o};
  mck_iter it;
  ki_lines(&it, 2, ts, d);
  int fl = mck_is_float(dt);
  for (int64_t l = 0; l < it.total; l++, mck_iter_next(&it)) {
    /* the line's coordinates in the other dims, to find the same line of prepend/append */
    int64_t rem = l, at = 0, coord[MCK_MAX_DIMS] = {0};
    for (int i = s->ndim - 1; i >= 0; i--) {
      if (i == d) continue;
      coord[i] = rem % s->shape[i];
      rem /= s->shape[i];
    }
    for (int k = 0; k < 3; k++) {
      const mck_tensor *p = parts[k];
      if (!p) continue;
      int64_t base = p->offset;
      for (int i = 0; i < s->ndim; i++)
        if (i != d) base += coord[i] * p->stride[i];
      for (int64_t j = 0; j < p->shape[d]; j++, at++) {
        int64_t off = base + j * p->stride[d];
        if (fl) mck_setf(&tmp, at, mck_getf(p, off));
        else mck_seti(&tmp, at, mck_geti(p, off));
      }
    }
    for (int64_t step = 0; step < n && step < len; step++) {
      for (int64_t j = 0; j + 1 < len - step; j++) {
        if (dt == MCK_BOOL) mck_seti(&tmp, j, mck_geti(&tmp, j + 1) != mck_geti(&tmp, j));
        else if (fl) mck_setf(&tmp, j, mck_getf(&tmp, j + 1) - mck_getf(&tmp, j));
        else mck_seti(&tmp, j, (int64_t)((uint64_t)mck_geti(&tmp, j + 1) - (uint64_t)mck_geti(&tmp, j)));
      }
    }
    for (int64_t j = 0; j < ol; j++) {
      int64_t off = it.off[1] + j * o->stride[d];
      if (fl) mck_setf(o, off, mck_getf(&tmp, j));
      else mck_seti(o, off, mck_geti(&tmp, j));
    }
  }
  free(tmp.data);
  return 0;
}

/* linalg_cross(self, other, *, int dim=-1) | cross(self, other, int? dim=None): the cross
 * product of 3-vectors along dim, the other dims broadcast; cross without dim takes the first
 * dim of size 3 of self. */
static inline int ki_cross_impl(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin,
                                const char *op, int dflt_first) {
  const mck_tensor *a = in[0].u.t, *b = in[1].u.t;
  int64_t d0 = -1;
  if (a->ndim != b->ndim)
    return mck_fail(c, "%s: linalg.cross: inputs must have the same number of dimensions.", op);
  if (nin > 2 && in[2].kind != MCK_NONE) {
    if (ks_int(c, op, &in[2], -1, &d0)) return -1;
  } else if (dflt_first) {
    d0 = -100;
    for (int i = 0; i < a->ndim; i++)
      if (a->shape[i] == 3) {
        d0 = i;
        break;
      }
    if (d0 == -100) return mck_fail(c, "%s: no dimension of size 3 in input", op);
  }
  if (a->dtype != b->dtype) return mck_fail(c, "%s: expected both inputs to have the same dtype", op);
  if (a->dtype == MCK_F16 || a->dtype == MCK_BOOL)
    return mck_fail(c, "%s: \"linalg_cross\" not implemented for '%s'", op, a->dtype == MCK_F16 ? "Half" : "Bool");
  int d, nd;
  if (ks_dim(c, op, d0, a->ndim, &d)) return -1;
  if (a->ndim == 0 || a->shape[d] != 3 || b->shape[d] != 3)
    return mck_fail(c, "%s: linalg.cross: inputs dimension %d must have length 3.", op, d);
  int64_t bs[MCK_MAX_DIMS];
  if (mck_broadcast_shape(a->ndim, a->shape, b->ndim, b->shape, &nd, bs))
    return mck_fail(c, "%s: the shapes of the inputs cannot be broadcast", op);
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, a->dtype, nd, bs)) return -1;
  if (c->meta || mck_numel(out[0].u.t) == 0) return 0;
  mck_tensor *o = out[0].u.t;
  int64_t sa[MCK_MAX_DIMS], sb[MCK_MAX_DIMS], shp[MCK_MAX_DIMS], s0[MCK_MAX_DIMS], s1[MCK_MAX_DIMS], s2[MCK_MAX_DIMS];
  mck_broadcast_strides(a, nd, bs, sa);
  mck_broadcast_strides(b, nd, bs, sb);
  int m = 0;
  for (int i = 0; i < nd; i++) {
    if (i == d) continue;
    shp[m] = bs[i];
    s0[m] = sa[i];
    s1[m] = sb[i];
    s2[m++] = o->stride[i];
  }
  mck_iter it;
  const int64_t *st[3] = {s0, s1, s2};
  int64_t base[3] = {a->offset, b->offset, o->offset};
  mck_iter_init(&it, m, shp, 3, st, base);
  int64_t da = a->stride[d], db = b->stride[d], dd = o->stride[d];
  int fl = mck_is_float(a->dtype);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    for (int q = 0; q < 3; q++) {
      int q1 = (q + 1) % 3, q2 = (q + 2) % 3;
      int64_t off = it.off[2] + q * dd;
      if (fl) {
        double v = ki_round(a->dtype, mck_getf(a, it.off[0] + q1 * da) * mck_getf(b, it.off[1] + q2 * db)) -
                   ki_round(a->dtype, mck_getf(a, it.off[0] + q2 * da) * mck_getf(b, it.off[1] + q1 * db));
        mck_setf(o, off, v);
      } else {
        uint64_t v = (uint64_t)mck_geti(a, it.off[0] + q1 * da) * (uint64_t)mck_geti(b, it.off[1] + q2 * db) -
                     (uint64_t)mck_geti(a, it.off[0] + q2 * da) * (uint64_t)mck_geti(b, it.off[1] + q1 * db);
        mck_seti(o, off, (int64_t)v);
      }
    }
  }
  return 0;
}
static inline int ki_linalg_cross(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_cross_impl(c, out, nout, in, nin, "aten::linalg_cross", 0);
}
static inline int ki_cross(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_cross_impl(c, out, nout, in, nin, "aten::cross", 1);
}

/* bincount(self, Tensor? weights=None, int minlength=0): counts (int64; float32 weights give
 * float32, other weights float64) of the non-negative ints of a 1-D self. Its length is
 * max(self) + 1 or minlength: known for a constant self; otherwise minlength is taken and a
 * value reaching past it fails at run time (the size PyTorch returns would depend on data). */
static inline int ki_bincount(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::bincount";
  const mck_tensor *s = in[0].u.t;
  const mck_tensor *w = nin > 1 && in[1].kind == MCK_TENSOR ? in[1].u.t : NULL;
  int64_t minl;
  if (ki_int(c, op, in, nin, 2, 0, &minl)) return -1;
  if (!mck_is_int(s->dtype)) return mck_fail(c, "%s: \"bincount_cpu\" not implemented for '%s'", op, mck_dtype_name(s->dtype));
  if (s->ndim != 1) return mck_fail(c, "%s: bincount only supports 1-d non-negative integral inputs.", op);
  if (minl < 0) return mck_fail(c, "%s: minlength should be >= 0", op);
  if (w && (w->ndim != 1 || w->shape[0] != s->shape[0]))
    return mck_fail(c, "%s: weights should be 1-d and have the same length as input", op);
  int odt = !w ? MCK_I64 : w->dtype == MCK_F32 ? MCK_F32 : MCK_F64;
  int64_t len = minl;
  int known = s->data != NULL;
  if (known) {
    for (int64_t j = 0; j < s->shape[0]; j++) {
      int64_t v = mck_geti(s, s->offset + j * s->stride[0]);
      if (v < 0) return mck_fail(c, "%s: bincount only supports 1-d non-negative integral inputs.", op);
      if (v >= len) len = v + 1;
    }
  } else if (minl == 0 && s->shape[0] > 0) {
    return mck_fail(c, "%s: the output length is max(self) + 1, known only at run time; mc supports a constant input, or a minlength that covers every value (checked at run time)", op);
  }
  int64_t ns[1] = {len};
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, odt, 1, ns)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  if (o->shape[0] != len) return mck_fail(c, "internal: bincount output prepared with another length");
  for (int64_t j = 0; j < len; j++) mck_seti(o, o->offset + j, 0);
  double *acc = NULL;
  if (w) {
    acc = (double *)calloc((size_t)(len ? len : 1), sizeof(double));
    if (!acc) return mck_fail(c, "%s: out of memory", op);
  }
  for (int64_t j = 0; j < s->shape[0]; j++) {
    int64_t v = mck_geti(s, s->offset + j * s->stride[0]);
    if (v < 0 || v >= len) {
      free(acc);
      return mck_fail(c, v < 0 ? "%s: bincount only supports 1-d non-negative integral inputs."
                               : "%s: a value reaches past minlength: the output length depends on the data (mc fixes it to minlength)", op);
    }
    if (w) acc[v] += mck_getf(w, w->offset + j * w->stride[0]);
    else mck_seti(o, o->offset + v, mck_geti(o, o->offset + v) + 1);
  }
  if (w)
    for (int64_t j = 0; j < len; j++) mck_setf(o, o->offset + j, acc[j]);
  free(acc);
  return 0;
}
/* ---- random ops -------------------------------------------------------------------------- */
/* ki_rng: the generator of every random op: one splitmix64 stream per program (per model.c,
 * and one in mc's interpreter), state 0 at start, advanced once per 64-bit draw in the order
 * the ops run. Not PyTorch's generator: values follow the distributions, they are not
 * PyTorch's values. A Generator argument other than None is refused. One program running the
 * same model on several threads at once shares the stream (draws stay valid numbers, their
 * order is not reproducible then). */
static inline uint64_t *ki_rng_state(void) {
  static uint64_t state = 0;
  return &state;
}
static inline uint64_t ki_rng(void) {
  uint64_t *s = ki_rng_state();
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* Uniform in [0, 1) with as many random bits as dt's significand holds, so it never rounds to
 * 1 in dt. */
static inline double ki_uniform(int dt) {
  int bits = dt == MCK_F64 ? 53 : dt == MCK_F16 ? 11 : dt == MCK_BF16 ? 8 : 24;
  return (double)(ki_rng() >> (64 - bits)) * ldexp(1.0, -bits);
}
/* Standard normal (Box-Muller, one value per pair of draws). */
static inline double ki_normal(void) {
  double u1 = ((double)(ki_rng() >> 11) + 1.0) * ldexp(1.0, -53); /* (0, 1] */
  double u2 = (double)(ki_rng() >> 11) * ldexp(1.0, -53);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
/* Uniform integer in [lo, hi) (hi > lo), unbiased (rejection). */
static inline int64_t ki_randint(int64_t lo, int64_t hi) {
  uint64_t range = (uint64_t)hi - (uint64_t)lo, lim = UINT64_MAX - UINT64_MAX % range, x;
  do x = ki_rng(); while (x >= lim);
  return (int64_t)((uint64_t)lo + x % range);
}
static inline int ki_no_generator(mck_ctx *c, const char *op, const mck_arg *a) {
  if (a && a->kind != MCK_NONE) return mck_fail(c, "%s: a Generator argument is not supported (mc's random ops use one generator, see k_index.h)", op);
  return 0;
}
enum { KI_RAND, KI_RANDN, KI_RANDINT };
/* Fills o with draws of kind (randint: [lo, hi)). */
static inline void ki_fill_random(mck_tensor *o, int kind, int64_t lo, int64_t hi) {
  int64_t n = mck_numel(o);
  for (int64_t k = 0; k < n; k++) {
    int64_t off = ki_flat_off(o, k);
    if (kind == KI_RAND) mck_setf(o, off, ki_uniform(o->dtype));
    else if (kind == KI_RANDN) mck_setf(o, off, ki_normal());
    else mck_seti(o, off, ki_randint(lo, hi));
  }
}
static inline int ki_random_out(mck_ctx *c, const char *op, mck_arg *out, int nout, int kind,
                                int dt, int nd, const int64_t *shape, int64_t lo, int64_t hi) {
  if (kind != KI_RANDINT && !mck_is_float(dt))
    return mck_fail(c, "%s: \"%s\" not implemented for '%s'", op, kind == KI_RAND ? "uniform" : "normal_kernel_cpu", mck_dtype_name(dt));
  if (kind == KI_RANDINT) {
    if (lo >= hi) return mck_fail(c, "%s: random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld", op, (long long)lo, (long long)hi);
    /* the range must fit the dtype */
    int64_t mx = dt == MCK_BOOL ? 1 : dt == MCK_U8 ? 255 : dt == MCK_I8 ? 127 : dt == MCK_I16 ? 32767 : dt == MCK_I32 ? INT32_MAX
               : dt == MCK_F16 ? 2048 : dt == MCK_BF16 ? 256 : dt == MCK_F32 ? ((int64_t)1 << 24) : dt == MCK_F64 ? ((int64_t)1 << 53) : INT64_MAX;
    int64_t mn = dt == MCK_BOOL || dt == MCK_U8 ? 0 : dt == MCK_I8 ? -128 : dt == MCK_I16 ? -32768 : dt == MCK_I32 ? INT32_MIN : -mx;
    if (lo < mn || hi - 1 > mx)
      return mck_fail(c, "%s: random_ expects 'from' and 'to - 1' to be within [%lld, %lld] for %s", op, (long long)mn, (long long)mx, mck_dtype_name(dt));
  }
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, dt, nd, shape)) return -1;
  if (c->meta) return 0;
  ki_fill_random(out[0].u.t, kind, lo, hi);
  return 0;
}
static inline int ki_size_arg(mck_ctx *c, const char *op, const mck_arg *a, int *nd, int64_t *shape) {
  const int64_t *p;
  int64_t one;
  if (ks_ints(a, &p, nd, &one)) return mck_fail(c, "%s: size must be a compile-time constant int list", op);
  if (*nd > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dimensions", op);
  for (int i = 0; i < *nd; i++) {
    if (p[i] < 0) return mck_fail(c, "%s: Trying to create tensor with negative dimension %lld", op, (long long)p[i]);
    shape[i] = p[i];
  }
  return 0;
}
/* rand / randn(int[] size, *, dtype=None, layout, device, pin_memory): float32 unless dtype */
static inline int ki_rand_impl(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int kind) {
  const char *op = kind == KI_RAND ? "aten::rand" : "aten::randn";
  int nd, dt;
  int64_t shape[MCK_MAX_DIMS];
  if (ki_size_arg(c, op, &in[0], &nd, shape) || ki_factory_dtype(c, op, in, nin, 1, MCK_F32, &dt)) return -1;
  return ki_random_out(c, op, out, nout, kind, dt, nd, shape, 0, 0);
}
static inline int ki_rand(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_rand_impl(c, out, nout, in, nin, KI_RAND);
}
static inline int ki_randn(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_rand_impl(c, out, nout, in, nin, KI_RANDN);
}
/* randint(int high, int[] size, *, dtype=int64, ...) | randint(int low, int high, int[] size, ...) */
static inline int ki_randint_op(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::randint";
  int low = nin >= 3 && in[2].kind == MCK_INTS, nd, dt;
  int64_t lo = 0, hi, shape[MCK_MAX_DIMS];
  if (low && ki_int(c, op, in, nin, 0, 0, &lo)) return -1;
  if (ki_int(c, op, in, nin, low, 0, &hi) || ki_size_arg(c, op, &in[low + 1], &nd, shape) ||
      ki_factory_dtype(c, op, in, nin, low + 2, MCK_I64, &dt))
    return -1;
  return ki_random_out(c, op, out, nout, KI_RANDINT, dt, nd, shape, lo, hi);
}
/* rand_like / randn_like(self, *, dtype=None, layout, device, pin_memory, memory_format) */
static inline int ki_rand_like_impl(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin, int kind) {
  const char *op = kind == KI_RAND ? "aten::rand_like" : "aten::randn_like";
  const mck_tensor *s = in[0].u.t;
  int dt;
  if (ki_factory_dtype(c, op, in, nin, 1, s->dtype, &dt)) return -1;
  return ki_random_out(c, op, out, nout, kind, dt, s->ndim, s->shape, 0, 0);
}
static inline int ki_rand_like(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_rand_like_impl(c, out, nout, in, nin, KI_RAND);
}
static inline int ki_randn_like(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ki_rand_like_impl(c, out, nout, in, nin, KI_RANDN);
}
/* randint_like(self, int high, *, dtype=None, ...) | randint_like(self, int low, int high, ...) */
static inline int ki_randint_like(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::randint_like";
  const mck_tensor *s = in[0].u.t;
  int low = nin == 8, dt;
  int64_t lo = 0, hi;
  if (low && ki_int(c, op, in, nin, 1, 0, &lo)) return -1;
  if (ki_int(c, op, in, nin, 1 + low, 0, &hi) || ki_factory_dtype(c, op, in, nin, 2 + low, s->dtype, &dt)) return -1;
  return ki_random_out(c, op, out, nout, KI_RANDINT, dt, s->ndim, s->shape, lo, hi);
}
/* normal(Tensor|float mean, Tensor|float std=1, *, generator=None) | normal(float mean, float
 * std, int[] size, *, generator=None, dtype=None, ...): mean + std * N(0, 1), the tensors
 * broadcast; std must be >= 0. */
static inline int ki_normal_op(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::normal";
  int sized = nin >= 3 && in[2].kind == MCK_INTS;
  int nd = 0, dt = MCK_F32;
  int64_t shape[MCK_MAX_DIMS];
  const mck_tensor *mt = in[0].kind == MCK_TENSOR ? in[0].u.t : NULL;
  const mck_tensor *st = nin > 1 && in[1].kind == MCK_TENSOR ? in[1].u.t : NULL;
  double mv = mt || !mck_arg_is_scalar(&in[0]) ? 0 : mck_arg_f(&in[0]);
  double sv = st || nin < 2 || !mck_arg_is_scalar(&in[1]) ? 1 : mck_arg_f(&in[1]);
  if (ki_no_generator(c, op, sized ? (nin > 3 ? &in[3] : NULL) : (nin > 2 ? &in[2] : NULL))) return -1;
  if (sized) {
    if (ki_size_arg(c, op, &in[2], &nd, shape) || ki_factory_dtype(c, op, in, nin, 4, MCK_F32, &dt)) return -1;
  } else if (mt && st) {
    if (mck_broadcast_shape(mt->ndim, mt->shape, st->ndim, st->shape, &nd, shape))
      return mck_fail(c, "%s: the shapes of mean and std cannot be broadcast", op);
    dt = mck_promote_types(mt->dtype, st->dtype);
  } else if (mt || st) {
    const mck_tensor *t = mt ? mt : st;
    nd = t->ndim;
    for (int i = 0; i < nd; i++) shape[i] = t->shape[i];
    dt = t->dtype;
  } else {
    return mck_fail(c, "%s: mean or std must be a tensor, or a size be given", op);
  }
  if (!mck_is_float(dt)) return mck_fail(c, "%s: \"normal_kernel_cpu\" not implemented for '%s'", op, mck_dtype_name(dt));
  if (!st && sv < 0) return mck_fail(c, "%s: normal expects std >= 0.0, but found std %g", op, sv);
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, dt, nd, shape)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  int64_t ms[MCK_MAX_DIMS], ss[MCK_MAX_DIMS];
  if (mt) mck_broadcast_strides(mt, nd, shape, ms);
  if (st) mck_broadcast_strides(st, nd, shape, ss);
  mck_iter it;
  const int64_t *sts[3] = {o->stride, mt ? ms : o->stride, st ? ss : o->stride};
  int64_t base[3] = {o->offset, mt ? mt->offset : 0, st ? st->offset : 0};
  mck_iter_init(&it, nd, shape, 3, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    double m = mt ? mck_getf(mt, it.off[1]) : mv, s = st ? mck_getf(st, it.off[2]) : sv;
    if (s < 0) return mck_fail(c, "%s: normal expects all elements of std >= 0.0", op);
    mck_setf(o, it.off[0], m + s * ki_normal());
  }
  return 0;
}
/* bernoulli(self, *, generator=None) | bernoulli(self, float p, *, generator=None): 1 with
 * probability self (or p), else 0, in self's dtype. */
static inline int ki_bernoulli(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::bernoulli";
  const mck_tensor *s = in[0].u.t;
  int hasp = nin >= 2 && mck_arg_is_scalar(&in[1]);
  double p = hasp ? mck_arg_f(&in[1]) : 0;
  if (ki_no_generator(c, op, nin > 1 + hasp ? &in[1 + hasp] : NULL)) return -1;
  if (!hasp && nin >= 2 && in[1].kind == MCK_UNKNOWN) return mck_fail(c, "%s: p must be a compile-time constant", op);
  if (!hasp && !mck_is_float(s->dtype))
    return mck_fail(c, "%s: \"bernoulli_tensor_cpu_self_\" not implemented for '%s'", op, mck_dtype_name(s->dtype));
  if (hasp && !(p >= 0 && p <= 1)) return mck_fail(c, "%s: bernoulli_ expects p to be in [0, 1], but got p=%g", op, p);
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, s->dtype, s->ndim, s->shape)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_iter it;
  const int64_t *sts[2] = {o->stride, s->stride};
  int64_t base[2] = {o->offset, s->offset};
  mck_iter_init(&it, s->ndim, s->shape, 2, sts, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    double q = hasp ? p : mck_getf(s, it.off[1]);
    if (!(q >= 0 && q <= 1)) return mck_fail(c, "%s: Expected p_in >= 0 && p_in <= 1 to be true", op);
    mck_setf(o, it.off[0], ki_uniform(MCK_F64) < q);
  }
  return 0;
}
/* multinomial(self, int num_samples, bool replacement=False, *, generator=None): int64 draws of
 * category indices with weights self (1-D, or 2-D: one row per distribution); without
 * replacement each category at most once. */
static inline int ki_multinomial(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::multinomial";
  const mck_tensor *s = in[0].u.t;
  int64_t n;
  int repl;
  if (ki_int(c, op, in, nin, 1, 0, &n) || ki_bool(c, op, in, nin, 2, 0, &repl) ||
      ki_no_generator(c, op, nin > 3 ? &in[3] : NULL))
    return -1;
  if (!mck_is_float(s->dtype)) return mck_fail(c, "%s: multinomial only supports floating-point dtypes for input, got: %s", op, mck_dtype_name(s->dtype));
  if (s->ndim != 1 && s->ndim != 2) return mck_fail(c, "%s: prob_dist must be 1 or 2 dim", op);
  int64_t cats = s->shape[s->ndim - 1], rows = s->ndim == 2 ? s->shape[0] : 1;
  if (n <= 0) return mck_fail(c, "%s: cannot sample n_sample <= 0 samples", op);
  if (!repl && n > cats) return mck_fail(c, "%s: cannot sample n_sample > prob_dist.size(-1) samples without replacement", op);
  int64_t ns[2] = {rows, n};
  if (ki_tensor_out(c, op, out, nout, 0) || mck_out(c, out[0].u.t, MCK_I64, s->ndim, s->ndim == 2 ? ns : ns + 1)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  double *w = (uint64_t)cats > (uint64_t)(SIZE_MAX / sizeof(double)) ? NULL : (double *)malloc((size_t)(cats ? cats : 1) * sizeof(double));
  if (!w) return mck_fail(c, "%s: out of memory", op);
  for (int64_t r = 0; r < rows; r++) {
    double tot = 0;
    int64_t nz = 0;
    for (int64_t j = 0; j < cats; j++) {
      int64_t off = s->offset + (s->ndim == 2 ? r * s->stride[0] : 0) + j * s->stride[s->ndim - 1];
      w[j] = mck_getf(s, off);
      if (!(w[j] >= 0) || isinf(w[j])) {
        free(w);
        return mck_fail(c, "%s: probability tensor contains either `inf`, `nan` or element < 0", op);
      }
      tot += w[j];
      nz += w[j] > 0;
    }
    if (!(tot > 0)) {
      free(w);
      return mck_fail(c, "%s: invalid multinomial distribution (sum of probabilities <= 0)", op);
    }
    if (!repl && nz < n) {
      free(w);
      return mck_fail(c, "%s: invalid multinomial distribution (with replacement=False, not enough non-negative category to sample)", op);
    }
    for (int64_t k = 0; k < n; k++) {
      double u = ki_uniform(MCK_F64) * tot, acc = 0;
      int64_t pick = -1;
      for (int64_t j = 0; j < cats; j++) {
        if (w[j] <= 0) continue;
        acc += w[j];
        pick = j;
        if (u < acc) break;
      }
      mck_seti(o, o->offset + r * n + k, pick);
      if (!repl) {
        tot -= w[pick];
        w[pick] = 0;
        if (!(tot > 0)) { /* rounding left nothing: recompute */
          tot = 0;
          for (int64_t j = 0; j < cats; j++) tot += w[j];
        }
      }
    }
  }
  free(w);
  return 0;
}
#endif
