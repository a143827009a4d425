/* k_matrix.h — kernels of the linalg family built on the other families' kernels: outer/ger
 * (mul of a column and a row view), trace, diag / diag_embed / diagflat (copies through a
 * diagonal view), rot90 (a copy through a flipped, transposed view), the stacks hstack / vstack
 * / row_stack / dstack / column_stack (cat of atleast_Nd views), tensordot (operands copied
 * into [M, K] and [K, N] matrices, then one product), count_nonzero and bilinear.
 *
 * Invariants, as in PyTorch 1.13: no op here changes its input; the views it builds are local
 * descriptors over the input's storage (never written); dtype rules are those of the kernel
 * each op is made of (outer promotes as mul; the stacks as cat; tensordot and bilinear want one
 * dtype, as mm does); trace sums integers in int64. Prefix: kl_.
 */
#ifndef K_MATRIX_H
#define K_MATRIX_H

#include "mck.h"
#include "k_args.h"
#include "k_elementwise.h"
#include "k_view.h"
#include "k_copy.h"
#include "k_reduce.h"
#include "k_linalg.h"

/* A 1-D operand of outer/ger viewed as a column ([n, 1]) or a row ([1, n]). */
static inline mck_tensor kl_vec_view(const mck_tensor *t, int col) {
  mck_tensor v = *t;
  v.ndim = 2;
  v.shape[col ? 0 : 1] = t->shape[0];
  v.stride[col ? 0 : 1] = t->stride[0];
  v.shape[col ? 1 : 0] = 1;
  v.stride[col ? 1 : 0] = 0;
  return v;
}

/* aten::outer(self, vec2) / aten::ger: self[i] * vec2[j], promoted as mul. */
static inline int kl_outer_as(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, const char *op) {
  const mck_tensor *a = in[0].u.t, *b = in[1].u.t;
  if (a->ndim != 1) return mck_fail(c, "%s: Expected 1-D argument self, but got %d-D", op, a->ndim);
  if (b->ndim != 1) return mck_fail(c, "%s: Expected 1-D argument vec2, but got %d-D", op, b->ndim);
  mck_tensor va = kl_vec_view(a, 1), vb = kl_vec_view(b, 0);
  mck_arg args[2] = {{MCK_TENSOR, 0, {0}}, {MCK_TENSOR, 0, {0}}};
  args[0].u.t = &va;
  args[1].u.t = &vb;
  return mck_mul(c, out, nout, args, 2);
}
static inline int kl_outer(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return kl_outer_as(c, out, nout, in, "aten::outer");
}
static inline int kl_ger(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return kl_outer_as(c, out, nout, in, "aten::ger");
}

/* aten::trace(self): the sum of the main diagonal of a matrix; int64 for integer input. */
static inline int kl_trace(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *x = in[0].u.t;
  if (x->ndim != 2) return mck_fail(c, "aten::trace: expected a matrix, but got tensor with dim %d", x->ndim);
  if (x->dtype == MCK_BOOL || x->dtype == MCK_F16 || x->dtype == MCK_BF16)
    return mck_fail(c, "aten::trace: \"trace\" not implemented for '%s'",
                    x->dtype == MCK_BOOL ? "Bool" : x->dtype == MCK_F16 ? "Half" : "BFloat16");
  mck_tensor d = *x;
  if (ks_diagonal_desc(c, "aten::trace", &d, 0, 0, 1)) return -1;
  mck_arg a = {MCK_TENSOR, 0, {0}};
  a.u.t = &d;
  return mck_sum(c, out, 1, &a, 1);
}

/* Zeroes a fresh contiguous output (meta mode: nothing). */
static inline void kl_zero(mck_ctx *c, mck_tensor *o) {
  if (!c->meta) memset((char *)o->data + (size_t)o->offset * mck_dtype_size(o->dtype), 0,
                       (size_t)mck_numel(o) * mck_dtype_size(o->dtype));
}

/* A vector (1-D) on the offset-th diagonal of a fresh [n, n] matrix. */
static inline int kl_vec_to_diag(mck_ctx *c, const char *op, mck_tensor *o, const mck_tensor *v,
                                 int64_t off) {
  int64_t n, sh[2], a = off < 0 ? -off : off;
  if (off == INT64_MIN || mck_add_ovf(v->shape[0], a, &n))
    return mck_fail(c, "%s: the diagonal offset %lld is out of range", op, (long long)off);
  sh[0] = sh[1] = n;
  if (mck_out(c, o, v->dtype, 2, sh)) return -1;
  if (c->meta) return 0;
  kl_zero(c, o);
  mck_tensor d = *o;
  if (ks_diagonal_desc(c, op, &d, off, 0, 1)) return -1;
  ks_copy_nocheck(&d, v);
  return 0;
}

/* aten::diag(self, int diagonal=0): a vector to a matrix, or a matrix's diagonal as a vector. */
static inline int kl_diag(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *x = in[0].u.t;
  int64_t off = 0;
  if (nin > 1 && ks_int(c, "aten::diag", &in[1], 0, &off)) return -1;
  if (x->ndim != 1 && x->ndim != 2) return mck_fail(c, "aten::diag: matrix or a vector expected");
  if (x->dtype == MCK_F16) return mck_fail(c, "aten::diag: \"diag\" not implemented for 'Half'");
  mck_tensor *o = out[0].u.t;
  if (x->ndim == 1) return kl_vec_to_diag(c, "aten::diag", o, x, off);
  int64_t r = x->shape[0], k = x->shape[1], n;
  if (off >= 0) n = r < k - off ? r : k - off;
  else n = r + off < k ? r + off : k;
  if (n < 0) return mck_fail(c, "aten::diag: the diagonal %lld lies outside a %lldx%lld matrix", (long long)off, (long long)r, (long long)k);
  mck_tensor d = *x;
  if (ks_diagonal_desc(c, "aten::diag", &d, off, 0, 1)) return -1;
  if (mck_out(c, o, x->dtype, 1, &n)) return -1;
  if (!c->meta) ks_copy_nocheck(o, &d);
  return 0;
}

/* aten::diagflat(self, int offset=0): the flattened input on a diagonal. */
static inline int kl_diagflat(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *x = in[0].u.t;
  int64_t off = 0;
  if (nin > 1 && ks_int(c, "aten::diagflat", &in[1], 0, &off)) return -1;
  mck_tensor flat;
  int64_t n = mck_numel(x);
  /* the flattened values, in a contiguous scratch copy when x is not contiguous */
  void *buf = NULL;
  flat = *x;
  flat.ndim = 1;
  flat.shape[0] = n;
  flat.stride[0] = 1;
  if (!c->meta && !mck_is_contiguous(x)) {
    buf = kconv_alloc(n, mck_dtype_size(x->dtype));
    if (!buf) return mck_fail(c, "aten::diagflat: out of memory");
    flat.data = buf;
    flat.offset = 0;
    mck_tensor dst = flat;
    dst.ndim = x->ndim;
    for (int i = 0; i < x->ndim; i++) dst.shape[i] = x->shape[i];
    mck_contiguous_strides(&dst);
    ks_copy_nocheck(&dst, x);
  }
  int rc = kl_vec_to_diag(c, "aten::diagflat", out[0].u.t, &flat, off);
  free(buf);
  return rc;
}

/* aten::diag_embed(self, int offset=0, int dim1=-2, int dim2=-1): the last dim of self on the
 * offset-th diagonal of the planes (dim1, dim2) of a new tensor of rank self.dim() + 1. */
static inline int kl_diag_embed(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *x = in[0].u.t;
  mck_arg none = {MCK_NONE, 0, {0}};
  int64_t off, d10, d20, n, sh[MCK_MAX_DIMS];
  int d1, d2, nd = x->ndim + 1;
  if (ks_int(c, "aten::diag_embed", nin > 1 ? &in[1] : &none, 0, &off) ||
      ks_int(c, "aten::diag_embed", nin > 2 ? &in[2] : &none, -2, &d10) ||
      ks_int(c, "aten::diag_embed", nin > 3 ? &in[3] : &none, -1, &d20))
    return -1;
  if (nd > MCK_MAX_DIMS) return mck_fail(c, "aten::diag_embed: too many dimensions");
  if (x->ndim == 0) return mck_fail(c, "aten::diag_embed: Dimension out of range (expected to be in range of [-1, 0], but got -1)");
  if (ks_dim(c, "aten::diag_embed", d10, nd, &d1) || ks_dim(c, "aten::diag_embed", d20, nd, &d2)) return -1;
  if (d1 == d2) return mck_fail(c, "aten::diag_embed: diagonal dimensions cannot be identical %lld, %lld", (long long)d10, (long long)d20);
  int64_t a = off < 0 ? -off : off;
  if (off == INT64_MIN || mck_add_ovf(x->shape[x->ndim - 1], a, &n))
    return mck_fail(c, "aten::diag_embed: the diagonal offset %lld is out of range", (long long)off);
  for (int i = 0, k = 0; i < nd; i++) sh[i] = i == d1 || i == d2 ? n : x->shape[k++];
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, x->dtype, nd, sh)) return -1;
  if (c->meta) return 0;
  kl_zero(c, o);
  mck_tensor d = *o;
  if (ks_diagonal_desc(c, "aten::diag_embed", &d, off, d1, d2)) return -1;
  ks_copy_nocheck(&d, x);
  return 0;
}

/* aten::rot90(self, int k=1, int[] dims=[0, 1]): rotation by 90 degrees k times, from the
 * first dim towards the second (a flip and a transpose, copied). */
static inline int kl_rot90(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *x = in[0].u.t;
  mck_arg none = {MCK_NONE, 0, {0}};
  int64_t k, one, dd[2] = {0, 1};
  const int64_t *p = dd;
  int n = 2, d0, d1;
  if (ks_int(c, "aten::rot90", nin > 1 ? &in[1] : &none, 1, &k)) return -1;
  if (nin > 2 && in[2].kind != MCK_NONE && ks_ints(&in[2], &p, &n, &one))
    return mck_fail(c, "aten::rot90: dims must be a compile-time constant int list");
  if (n != 2) return mck_fail(c, "aten::rot90: expected total rotation dims == 2, but got dims = %d", n);
  if (x->ndim < 2) return mck_fail(c, "aten::rot90: expected total dims >= 2, but got total dims = %d", x->ndim);
  if (ks_dim(c, "aten::rot90", p[0], x->ndim, &d0) || ks_dim(c, "aten::rot90", p[1], x->ndim, &d1)) return -1;
  if (d0 == d1) return mck_fail(c, "aten::rot90: expected rotation dims to be different, but got dim0 = %d and dim1 = %d", d0, d1);
  int r = (int)(((k % 4) + 4) % 4);
  mck_tensor v = *x;
  int fl[2] = {r == 2 || r == 3, r == 1 || r == 2}; /* flip d0 / d1 */
  for (int i = 0; i < 2; i++) {
    int d = i ? d1 : d0;
    if (!fl[i]) continue;
    if (v.shape[d] > 0) v.offset += (v.shape[d] - 1) * v.stride[d];
    v.stride[d] = -v.stride[d];
  }
  if (r == 1 || r == 3) {
    int64_t s = v.shape[d0], st = v.stride[d0];
    v.shape[d0] = v.shape[d1], v.stride[d0] = v.stride[d1];
    v.shape[d1] = s, v.stride[d1] = st;
  }
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, x->dtype, v.ndim, v.shape)) return -1;
  if (!c->meta) ks_copy_nocheck(o, &v);
  return 0;
}

/* ---- stacks: cat of atleast_Nd views ----------------------------------------------------- */
enum { KL_HSTACK, KL_VSTACK, KL_DSTACK, KL_COLSTACK };

/* t viewed with at least n dims as torch.atleast_{1,2,3}d does (column: as column_stack does,
 * 0-D and 1-D tensors become [numel, 1]). */
static inline mck_tensor kl_atleast(const mck_tensor *t, int n, int column) {
  mck_tensor v = *t;
  if (column) {
    if (t->ndim <= 1) {
      v.ndim = 2;
      v.shape[0] = t->ndim ? t->shape[0] : 1;
      v.stride[0] = t->ndim ? t->stride[0] : 1;
      v.shape[1] = 1;
      v.stride[1] = 1;
    }
    return v;
  }
  if (t->ndim >= n) return v;
  int64_t s0 = t->ndim > 0 ? t->shape[0] : 1, t0 = t->ndim > 0 ? t->stride[0] : 1;
  v.ndim = n;
  for (int i = 0; i < n; i++) v.shape[i] = 1, v.stride[i] = 1;
  if (t->ndim == 1) { /* [n] -> [n], [1, n], [1, n, 1] */
    int at = n == 1 ? 0 : 1;
    v.shape[at] = s0;
    v.stride[at] = t0;
  } else if (t->ndim == 2) { /* [a, b] -> [a, b, 1] */
    for (int i = 0; i < 2; i++) v.shape[i] = t->shape[i], v.stride[i] = t->stride[i];
  }
  return v;
}

static inline int kl_stack_kind(mck_ctx *c, mck_arg *out, const mck_arg *in, int kind, const char *op) {
  if (in[0].kind != MCK_TENSORS) return mck_fail(c, "%s: expected a list of tensors", op);
  int n = in[0].n;
  if (n == 0) return mck_fail(c, "%s: %s expects a non-empty TensorList", op, op + 6);
  mck_tensor *vs = (mck_tensor *)kconv_alloc(n, sizeof(mck_tensor));
  /* zeroed: g++ (the CUDA target's host code) cannot see that the loop below fills it */
  mck_tensor **ps = (mck_tensor **)calloc((size_t)n, sizeof(mck_tensor *));
  if (!vs || !ps) {
    free(vs);
    free(ps);
    return mck_fail(c, "%s: out of memory", op);
  }
  int need = kind == KL_HSTACK ? 1 : kind == KL_VSTACK ? 2 : 3;
  for (int k = 0; k < n; k++) {
    vs[k] = kl_atleast(in[0].u.ts[k], need, kind == KL_COLSTACK);
    ps[k] = &vs[k];
  }
  int64_t dim = kind == KL_VSTACK ? 0 : kind == KL_DSTACK ? 2 : kind == KL_COLSTACK ? 1 : vs[0].ndim == 1 ? 0 : 1;
  mck_arg a[2] = {{MCK_TENSORS, 0, {0}}, {MCK_INT, 0, {0}}};
  a[0].n = n;
  a[0].u.ts = ps;
  a[1].u.i = dim;
  int rc = ks_cat(c, out, 1, a, 2);
  free(vs);
  free(ps);
  return rc;
}
static inline int kl_hstack(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return kl_stack_kind(c, out, in, KL_HSTACK, "aten::hstack");
}
static inline int kl_vstack(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return kl_stack_kind(c, out, in, KL_VSTACK, "aten::vstack");
}
static inline int kl_row_stack(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return kl_stack_kind(c, out, in, KL_VSTACK, "aten::row_stack");
}
static inline int kl_dstack(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return kl_stack_kind(c, out, in, KL_DSTACK, "aten::dstack");
}
static inline int kl_column_stack(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return kl_stack_kind(c, out, in, KL_COLSTACK, "aten::column_stack");
}

/* ---- tensordot --------------------------------------------------------------------------- */
/* A contiguous scratch copy of the view v (shape sh, broadcast), or NULL when out of memory. */
static inline int kl_scratch_copy(mck_tensor *dst, const mck_tensor *v, int nd, const int64_t *sh) {
  *dst = *v;
  dst->ndim = nd;
  for (int i = 0; i < nd; i++) dst->shape[i] = sh[i];
  mck_contiguous_strides(dst);
  dst->offset = 0;
  dst->data = kconv_alloc(mck_numel(dst), mck_dtype_size(v->dtype));
  if (!dst->data) return -1;
  ks_copy_nocheck(dst, v);
  return 0;
}

/* aten::tensordot(self, other, int[] dims_self, int[] dims_other): sum over the paired dims
 * (a size-1 dim pairs with any size, as in PyTorch); the result has self's other dims, then
 * other's. */
static inline int kl_tensordot(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const char *op = "aten::tensordot";
  const mck_tensor *a = in[0].u.t, *b = in[1].u.t;
  const int64_t *pa, *pb;
  int na, nb, da[MCK_MAX_DIMS], db[MCK_MAX_DIMS], ua[MCK_MAX_DIMS] = {0}, ub[MCK_MAX_DIMS] = {0};
  int64_t oa, ob;
  if (ks_ints(&in[2], &pa, &na, &oa) || ks_ints(&in[3], &pb, &nb, &ob))
    return mck_fail(c, "%s: dims must be compile-time constant int lists", op);
  if (na != nb) return mck_fail(c, "%s: both dimension lists should have same length", op);
  if (kl_check_dtypes(c, op, a, b)) return -1;
  if (na > a->ndim || na > b->ndim) return mck_fail(c, "%s: more contracted dims than dims", op);
  mck_tensor va = *a, vb = *b;
  int64_t sha[MCK_MAX_DIMS], shb[MCK_MAX_DIMS], osh[MCK_MAX_DIMS], m = 1, n = 1, kk = 1;
  int no = 0, ka = 0, kb = 0;
  for (int i = 0; i < na; i++) {
    if (ks_dim(c, op, pa[i], a->ndim, &da[i]) || ks_dim(c, op, pb[i], b->ndim, &db[i])) return -1;
    if (ua[da[i]] || ub[db[i]]) return mck_fail(c, "%s: a dim appears twice in the dims list", op);
    ua[da[i]] = ub[db[i]] = 1;
    int64_t s1 = a->shape[da[i]], s2 = b->shape[db[i]];
    if (s1 != s2 && s1 != 1 && s2 != 1)
      return mck_fail(c, "%s: contracted dimensions need to match, but first has size %lld in dim %lld and second has size %lld in dim %lld",
                      op, (long long)s1, (long long)pa[i], (long long)s2, (long long)pb[i]);
  }
  /* va: self's free dims, then the contracted ones; vb: the contracted ones, then other's free */
  for (int d = 0; d < a->ndim; d++)
    if (!ua[d]) {
      va.shape[ka] = a->shape[d], va.stride[ka] = a->stride[d], sha[ka++] = a->shape[d];
      osh[no++] = a->shape[d];
      m = mck_mul_sat(m, a->shape[d]);
    }
  for (int i = 0; i < na; i++) {
    int64_t s = a->shape[da[i]] > b->shape[db[i]] ? a->shape[da[i]] : b->shape[db[i]];
    if (a->shape[da[i]] == 0 || b->shape[db[i]] == 0) s = 0;
    va.shape[ka] = a->shape[da[i]], va.stride[ka] = a->stride[da[i]], sha[ka++] = s;
    vb.shape[kb] = b->shape[db[i]], vb.stride[kb] = b->stride[db[i]], shb[kb++] = s;
    kk = mck_mul_sat(kk, s);
  }
  for (int d = 0; d < b->ndim; d++)
    if (!ub[d]) {
      if (no == MCK_MAX_DIMS) return mck_fail(c, "%s: too many dimensions", op);
      vb.shape[kb] = b->shape[d], vb.stride[kb] = b->stride[d], shb[kb++] = b->shape[d];
      osh[no++] = b->shape[d];
      n = mck_mul_sat(n, b->shape[d]);
    }
  if (!mck_shape_fits(ka, sha, (int64_t)mck_dtype_size(a->dtype)) ||
      !mck_shape_fits(kb, shb, (int64_t)mck_dtype_size(b->dtype)))
    return mck_fail(c, "%s: the operands broadcast over the contracted dims are too large", op);
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, a->dtype, no, osh)) return -1;
  if (c->meta) return 0;
  /* the broadcast (size-1) contracted dims of the views are expanded by the copies */
  mck_tensor ca, cb;
  ca.data = cb.data = NULL;
  if (kl_scratch_copy(&ca, &va, ka, sha) || kl_scratch_copy(&cb, &vb, kb, shb)) {
    free(ca.data);
    free(cb.data);
    return mck_fail(c, "%s: out of memory", op);
  }
  mck_tensor A = ca, B = cb, C = *o;
  A.ndim = B.ndim = C.ndim = 2;
  A.shape[0] = m, A.shape[1] = kk;
  B.shape[0] = kk, B.shape[1] = n;
  C.shape[0] = m, C.shape[1] = n;
  mck_contiguous_strides(&A);
  mck_contiguous_strides(&B);
  mck_contiguous_strides(&C);
  mck_arg oc = {MCK_TENSOR, 0, {0}};
  oc.u.t = &C;
  int rc = kl_product(c, op, &oc, &A, &B, NULL, 1, 0);
  free(ca.data);
  free(cb.data);
  return rc;
}

/* aten::count_nonzero(self, int? dim=None) | (self, int[] dim): int64 counts of x != 0 (NaN
 * counts) over dims, not kept. */
static inline int kl_count_nonzero(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const mck_tensor *x = in[0].u.t;
  mck_red r;
  if (mck_red_setup(c, "count_nonzero", out, nout, x, nin > 1 ? &in[1] : NULL, NULL, MCK_I64, &r)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_iter ot, it;
  mck_red_outer(&ot, &r, x, o);
  int fl = mck_is_float(x->dtype);
  for (int64_t k = 0; k < ot.total; k++, mck_iter_next(&ot)) {
    int64_t cnt = 0;
    mck_red_inner(&it, &r, ot.off[0]);
    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it))
      cnt += fl ? mck_getf(x, it.off[0]) != 0 : mck_geti(x, it.off[0]) != 0;
    mck_seti(o, ot.off[1], cnt);
  }
  return 0;
}

/* ---- bilinear ---------------------------------------------------------------------------- */
/* v rounded to a float32 / float16 / bfloat16 value when dt is one. */
static inline double kl_round_as(int dt, double v) {
  if (dt == MCK_F32) return (double)(float)v;
  if (dt == MCK_F16) return (double)mck_h2f(mck_f2h((float)v));
  if (dt == MCK_BF16) return (double)mck_bf2f(mck_f2bf((float)v));
  return v;
}

/* aten::bilinear(input1, input2, weight, bias=None): out[..., o] = sum_ij x1[..., i] W[o, i, j]
 * x2[..., j] + bias[o]; inputs of one rank with equal batch dims (no broadcast), one dtype. */
static inline int kl_bilinear(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const char *op = "aten::bilinear";
  const mck_tensor *x1 = in[0].u.t, *x2 = in[1].u.t, *w = in[2].u.t;
  const mck_tensor *bias = nin > 3 ? kconv_tensor(&in[3]) : NULL;
  if (x1->ndim != x2->ndim)
    return mck_fail(c, "%s: input dimensions do not match: got %d and %d", op, x1->ndim, x2->ndim);
  if (x1->ndim == 0) return mck_fail(c, "%s: the inputs must have at least one dimension", op);
  if (w->ndim != 3) return mck_fail(c, "%s: weight must be three-dimensional", op);
  int nd = x1->ndim;
  for (int d = 0; d < nd - 1; d++)
    if (x1->shape[d] != x2->shape[d])
      return mck_fail(c, "%s: input batch dimensions do not match at dim %d: got %lld and %lld", op, d,
                      (long long)x1->shape[d], (long long)x2->shape[d]);
  int64_t i1 = x1->shape[nd - 1], i2 = x2->shape[nd - 1], no = w->shape[0];
  if (i1 != w->shape[1])
    return mck_fail(c, "%s: input1 size does not match weight size: got %lld but expected %lld", op, (long long)i1, (long long)w->shape[1]);
  if (i2 != w->shape[2])
    return mck_fail(c, "%s: input2 size does not match weight size: got %lld but expected %lld", op, (long long)i2, (long long)w->shape[2]);
  if (x1->dtype != x2->dtype || x1->dtype != w->dtype)
    return mck_fail(c, "%s: expected the inputs and weight to have one dtype, got %s, %s and %s", op,
                    mck_dtype_name(x1->dtype), mck_dtype_name(x2->dtype), mck_dtype_name(w->dtype));
  if (x1->dtype == MCK_BOOL || x1->dtype == MCK_F16) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x1->dtype));
  int dt = x1->dtype;
  if (bias) {
    if (bias->ndim != 1 || bias->shape[0] != no)
      return mck_fail(c, "%s: bias must be 1-D of size %lld (the weight's first dim)", op, (long long)no);
    dt = mck_promote_types(dt, bias->dtype); /* the product + bias, promoted */
  }
  int64_t sh[MCK_MAX_DIMS];
  for (int d = 0; d < nd - 1; d++) sh[d] = x1->shape[d];
  sh[nd - 1] = no;
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, dt, nd, sh)) return -1;
  if (c->meta) return 0;
  mck_iter it;
  const int64_t *st[3] = {x1->stride, x2->stride, o->stride};
  int64_t base[3] = {x1->offset, x2->offset, o->offset};
  mck_iter_init(&it, nd - 1, x1->shape, 3, st, base);
  int fl = mck_is_float(x1->dtype);
  int64_t s1 = x1->stride[nd - 1], s2 = x2->stride[nd - 1], so = o->stride[nd - 1];
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    for (int64_t q = 0; q < no; q++) {
      double acc = 0;
      uint64_t iacc = 0;
      for (int64_t i = 0; i < i1; i++) {
        int64_t wo = w->offset + q * w->stride[0] + i * w->stride[1];
        if (fl) {
          double s = 0, a = mck_getf(x1, it.off[0] + i * s1);
          for (int64_t j = 0; j < i2; j++) s += mck_getf(w, wo + j * w->stride[2]) * mck_getf(x2, it.off[1] + j * s2);
          acc += a * s;
        } else {
          uint64_t s = 0, a = (uint64_t)mck_geti(x1, it.off[0] + i * s1);
          for (int64_t j = 0; j < i2; j++)
            s += (uint64_t)mck_geti(w, wo + j * w->stride[2]) * (uint64_t)mck_geti(x2, it.off[1] + j * s2);
          iacc += a * s;
        }
      }
      int64_t oo = it.off[2] + q * so;
      if (fl) {
        acc = kl_round_as(x1->dtype, acc);
        if (bias) acc += mck_is_float(bias->dtype) ? mck_getf(bias, bias->offset + q * bias->stride[0])
                                                   : (double)mck_geti(bias, bias->offset + q * bias->stride[0]);
        mck_setf(o, oo, acc);
      } else {
        if (bias) iacc += (uint64_t)mck_geti(bias, bias->offset + q * bias->stride[0]);
        mck_seti(o, oo, (int64_t)iacc);
      }
    }
  }
  return 0;
}

#endif
