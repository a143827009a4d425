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
 * The family spans three headers: k_index_sort.h (argument helpers, the sorting algorithms,
 * sorting, selection, searching), k_index_scatter.h (scatter-style writes and gathers) and this
 * one (shape-level ops, paired reductions, counting, random ops), each including the one before.
 * Helpers of other families are reused: k_shape.h (ks_ copies, gather, cat, repeat, expand) and
 * k_reduce.h (dim masks and plans, var, mean, extrema); the build pastes these headers after
 * them.
 */
#ifndef MC_K_INDEX_H
#define MC_K_INDEX_H

#include "mck.h"
#include "k_reduce.h"
#include "k_index_scatter.h" /* which includes k_index_sort.h */

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
