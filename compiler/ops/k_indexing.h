/* k_indexing.h — advanced indexing: aten::index and aten::index_put(_) (Tensor?[] indices,
 * boolean masks, broadcast index tensors), every index bounds-checked at run time.
 */
#ifndef K_INDEXING_H
#define K_INDEXING_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_copy.h"

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
  int sized;                       /* a boolean mask: the result's size depends on the data (in
                                      meta mode the shape is its bound: every element selected) */
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
      if (t->ndim == 0) return mck_fail(c, "%s: 0-dim boolean index is not supported", op);
      int64_t cnt = 0, tot = mck_numel(t);
      p->sized = 1;
      mck_iter it;
      const int64_t *st[1] = {t->stride};
      int64_t base[1] = {t->offset};
      if (c->meta) {
        cnt = tot; /* the bound; the real call counts */
      } else {
        mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
        for (int64_t e = 0; e < tot; e++, mck_iter_next(&it)) cnt += mck_geti(t, it.off[0]) != 0;
        for (int i = 0; i < t->ndim; i++) {
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
  if (!rc) rc = p.sized ? mck_out_sized(c, o, s->dtype, p.ndim, p.shape) : mck_out(c, o, s->dtype, p.ndim, p.shape);
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

#endif
