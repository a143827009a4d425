/* k_linalg.h — kernels of the linalg family: mm, bmm, matmul (every rank case of torch.matmul,
 * batch dims broadcast), mv, dot, addmm, baddbmm, linear; einsum (a plain loop nest, at the
 * end). Prefix: kl_.
 *
 * Everything funnels into kl_matmul_batched: C[b] = alpha * A[b] @ B[b] + beta * C[b] over a
 * broadcast batch, with every operand addressed through (row, column, batch) strides, so
 * transposed or sliced operands are never copied up front. When beta == 0, C is not read (a NaN
 * in it does not propagate, as in BLAS). float32 goes to kl_sgemm, which runs the convolution
 * family's BLIS-style core (k_gemm.h: packed panels from any strides, a register-tile micro-kernel
 * in AVX-512 / AVX2 vector extensions chosen at compile time, portable C otherwise); one-row (or
 * one-column) products take a vectorised dot/axpy path instead. float32 accumulates in float as
 * PyTorch's BLAS does. Other dtypes take a generic strided loop (double accumulator for floats,
 * wrapping int64 for integers). When B is shared across the batch and the batch dims of A and C
 * collapse into their row dim, the batch folds into one large GEMM (linear on [B, T, K] inputs).
 */
#ifndef K_LINALG_H
#define K_LINALG_H

#include "mck.h"
#include "k_gemm.h" /* the float32 GEMM core (kconv_sgemm_ex) and its vector types */
#include "k_matvec.h" /* products of few rows, without packing */

/* C = alpha * A @ B + beta * C for float32 with arbitrary element strides, on the blocked,
 * packed, register-tiled core of k_gemm.h (kconv_sgemm_ex), with up to nthreads threads. -1 on
 * OOM. */
static inline int kl_sgemm_nt(int nthreads, int64_t m, int64_t n, int64_t kdim, float alpha,
                              const float *a, int64_t sam, int64_t sak, const float *b,
                              int64_t sbk, int64_t sbn, float beta, float *cp, int64_t scm,
                              int64_t scn) {
  if (m == 0 || n == 0) return 0;
  if (kdim == 0) {
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++)
        cp[i * scm + j * scn] = beta == 0.0f ? 0.0f : beta * cp[i * scm + j * scn];
    return 0;
  }
  if (alpha == 1.0f && beta == 0.0f &&
      !kl_sgemm_small(m, n, kdim, a, sam, sak, b, sbk, sbn, cp, scm, scn))
    return 0;
  if (m == 1) return kl_sgemv(n, kdim, alpha, a, sak, b, sbk, sbn, beta, cp, scn);
  if (n == 1) return kl_sgemv(m, kdim, alpha, b, sbk, a, sak, sam, beta, cp, scm);
  kconv_gemm_ws ws;
  if (kconv_gemm_ws_init_for(&ws, m, n, kdim)) {
    kconv_gemm_ws_free(&ws);
    return -1;
  }
  if (beta != 0.0f && beta != 1.0f)
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) cp[i * scm + j * scn] *= beta;
  ws.nthreads = nthreads;
  kconv_sgemm_ex(&ws, m, n, kdim, a, sam, sak, b, sbk, sbn, cp, scm, scn, alpha, beta == 0.0f);
  kconv_gemm_ws_free(&ws);
  return 0;
}

static inline int kl_sgemm(int64_t m, int64_t n, int64_t kdim, float alpha, const float *a,
                           int64_t sam, int64_t sak, const float *b, int64_t sbk, int64_t sbn,
                           float beta, float *cp, int64_t scm, int64_t scn) {
  return kl_sgemm_nt(1, m, n, kdim, alpha, a, sam, sak, b, sbk, sbn, beta, cp, scm, scn);
}

/* Generic strided GEMM on one matrix of each operand (element offsets ao, bo, co). */
static inline void kl_gemm_generic(int64_t m, int64_t n, int64_t kdim, double alpha,
                                   const mck_tensor *A, int64_t ao, int64_t sam, int64_t sak,
                                   const mck_tensor *B, int64_t bo, int64_t sbk, int64_t sbn,
                                   double beta, mck_tensor *C, int64_t co, int64_t scm,
                                   int64_t scn) {
  if (C->dtype == MCK_F64 && A->dtype == MCK_F64 && B->dtype == MCK_F64) {
    const double *a = (const double *)A->data + ao, *b = (const double *)B->data + bo;
    double *cp = (double *)C->data + co;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t k = 0; k < kdim; k++) s += a[i * sam + k * sak] * b[k * sbk + j * sbn];
        double *o = cp + i * scm + j * scn;
        *o = beta == 0 ? alpha * s : alpha * s + beta * *o;
      }
    return;
  }
  if (mck_is_float(C->dtype)) {
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t k = 0; k < kdim; k++)
          s += mck_getf(A, ao + i * sam + k * sak) * mck_getf(B, bo + k * sbk + j * sbn);
        int64_t o = co + i * scm + j * scn;
        mck_setf(C, o, beta == 0 ? alpha * s : alpha * s + beta * mck_getf(C, o));
      }
    return;
  }
  uint64_t ia = (uint64_t)mck_f2i_sat(alpha, INT64_MIN, INT64_MAX),
           ib = (uint64_t)mck_f2i_sat(beta, INT64_MIN, INT64_MAX);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      uint64_t s = 0;
      for (int64_t k = 0; k < kdim; k++)
        s += (uint64_t)mck_geti(A, ao + i * sam + k * sak) *
             (uint64_t)mck_geti(B, bo + k * sbk + j * sbn);
      int64_t o = co + i * scm + j * scn;
      uint64_t r = ia * s;
      if (ib != 0) r += ib * (uint64_t)mck_geti(C, o);
      if (C->dtype == MCK_BOOL) mck_seti(C, o, s != 0);
      else mck_seti(C, o, (int64_t)r);
    }
}

/* One operand of a batched product: the tensor, its row/col strides and its batch strides
 * (0 on broadcast dims). For A the "col" is k; for B the "row" is k. */
typedef struct kl_operand {
  const mck_tensor *t;
  int64_t sr, sc;
  int64_t sb[MCK_MAX_DIMS];
} kl_operand;

/* 1 when the batch dims (nb, bshape, sb) followed by a row dim of extent m and stride sr walk
 * memory as one dim of stride sr. */
static inline int kl_collapsible(int nb, const int64_t *bshape, const int64_t *sb, int64_t m,
                                 int64_t sr) {
  int64_t expect = sr * m;
  for (int d = nb - 1; d >= 0; d--) {
    if (bshape[d] == 1) continue;
    if (sb[d] != expect) return 0;
    expect *= bshape[d];
  }
  return 1;
}

static inline int kl_matmul_batched(mck_ctx *c, const char *op, int nb, const int64_t *bshape,
                                    int64_t m, int64_t n, int64_t kdim, double alpha,
                                    const kl_operand *A, const kl_operand *B, double beta,
                                    mck_tensor *C, const kl_operand *Cs) {
  int f32 = A->t->dtype == MCK_F32 && B->t->dtype == MCK_F32 && C->dtype == MCK_F32;
  int64_t bt = 1;
  for (int d = 0; d < nb; d++) bt *= bshape[d];
  if (bt == 0 || m == 0 || n == 0) return 0;
  int bshared = 1;
  for (int d = 0; d < nb; d++) bshared &= B->sb[d] == 0 || bshape[d] == 1;
  if (nb > 0 && bshared && kl_collapsible(nb, bshape, A->sb, m, A->sr) &&
      kl_collapsible(nb, bshape, Cs->sb, m, Cs->sr)) {
    m *= bt;
    nb = 0;
    bt = 1;
  }
  mck_iter it;
  const int64_t *st[3] = {A->sb, B->sb, Cs->sb};
  int64_t base[3] = {A->t->offset, B->t->offset, C->offset};
  mck_iter_init(&it, nb, bshape, 3, st, base);
  for (int64_t k = 0; k < bt; k++, mck_iter_next(&it)) {
    if (f32) {
      if (kl_sgemm_nt(c->nthreads, m, n, kdim, (float)alpha,
                      (const float *)A->t->data + it.off[0], A->sr, A->sc,
                      (const float *)B->t->data + it.off[1], B->sr, B->sc, (float)beta,
                      (float *)C->data + it.off[2], Cs->sr, Cs->sc))
        return mck_fail(c, "%s: out of memory", op);
    } else {
      kl_gemm_generic(m, n, kdim, alpha, A->t, it.off[0], A->sr, A->sc, B->t, it.off[1], B->sr,
                      B->sc, beta, C, it.off[2], Cs->sr, Cs->sc);
    }
  }
  return 0;
}

static inline int kl_check_dtypes(mck_ctx *c, const char *op, const mck_tensor *a,
                                  const mck_tensor *b) {
  if (a->dtype != b->dtype)
    return mck_fail(c, "%s: expected both operands to have the same dtype, but got: %s != %s", op,
                    mck_dtype_name(a->dtype), mck_dtype_name(b->dtype));
  if (a->dtype == MCK_BOOL) return mck_fail(c, "%s: not implemented for 'Bool'", op);
  return 0;
}

/* Writes init (broadcast, same dtype) into the contiguous output o. */
static inline void kl_fill(mck_tensor *o, const mck_tensor *init) {
  int64_t ist[MCK_MAX_DIMS];
  mck_broadcast_strides(init, o->ndim, o->shape, ist);
  mck_iter it;
  const int64_t *st[2] = {o->stride, ist};
  int64_t base[2] = {o->offset, init->offset};
  mck_iter_init(&it, o->ndim, o->shape, 2, st, base);
  int fl = mck_is_float(o->dtype);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    if (fl) mck_setf(o, it.off[0], mck_getf(init, it.off[1]));
    else mck_seti(o, it.off[0], mck_geti(init, it.off[1]));
  }
}

/* The general product of torch.matmul (also serves mm, bmm, mv, dot, linear, addmm, baddbmm).
 * `init`, when not NULL, is broadcast into C first and C = alpha * A @ B + beta * init;
 * otherwise C = A @ B. */
static inline int kl_product(mck_ctx *c, const char *op, mck_arg *out, const mck_tensor *a,
                             const mck_tensor *b, const mck_tensor *init, double alpha,
                             double beta) {
  int da = a->ndim, db = b->ndim;
  if (da == 0 || db == 0)
    return mck_fail(c, "%s: both arguments to matmul need to be at least 1D, but they are %dD and %dD",
                    op, da, db);
  if (kl_check_dtypes(c, op, a, b)) return -1;
  int64_t m = da >= 2 ? a->shape[da - 2] : 1, ka = a->shape[da - 1];
  int64_t kb = db >= 2 ? b->shape[db - 2] : b->shape[0], n = db >= 2 ? b->shape[db - 1] : 1;
  if (ka != kb) {
    return mck_fail(c, "%s: mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                    op, (long long)m, (long long)ka, (long long)kb, (long long)n);
  }
  int nba = da > 2 ? da - 2 : 0, nbb = db > 2 ? db - 2 : 0, nb = 0;
  int64_t bshape[MCK_MAX_DIMS], oshape[MCK_MAX_DIMS];
  if (mck_broadcast_shape(nba, a->shape, nbb, b->shape, &nb, bshape))
    return mck_fail(c, "%s: batch dimensions of the operands cannot be broadcast", op);
  int no = nb;
  for (int d = 0; d < nb; d++) oshape[d] = bshape[d];
  if (da >= 2) oshape[no++] = m;
  if (db >= 2) oshape[no++] = n;
  if (no > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dimensions", op);
  if (init) {
    int ni = 0;
    int64_t ish[MCK_MAX_DIMS];
    if (init->dtype != a->dtype)
      return mck_fail(c, "%s: expected the added tensor to have dtype %s, got %s", op,
                      mck_dtype_name(a->dtype), mck_dtype_name(init->dtype));
    if (mck_broadcast_shape(init->ndim, init->shape, no, oshape, &ni, ish) || ni != no)
      return mck_fail(c, "%s: the added tensor cannot be broadcast to the product's shape", op);
    for (int d = 0; d < no; d++)
      if (ish[d] != oshape[d])
        return mck_fail(c, "%s: the added tensor cannot be broadcast to the product's shape", op);
  }
  mck_tensor *o = out[0].u.t;
  out[0].kind = MCK_TENSOR;
  if (mck_out(c, o, a->dtype, no, oshape)) return -1;
  if (c->meta) return 0;
  kl_operand A, B, C;
  mck_tensor ab = *a, bb = *b;
  ab.ndim = nba;
  bb.ndim = nbb;
  A.t = a;
  A.sr = da >= 2 ? a->stride[da - 2] : 0;
  A.sc = a->stride[da - 1];
  B.t = b;
  B.sr = db >= 2 ? b->stride[db - 2] : b->stride[0];
  B.sc = db >= 2 ? b->stride[db - 1] : 0;
  C.t = o;
  C.sr = da >= 2 ? o->stride[nb] : 0;
  C.sc = db >= 2 ? o->stride[no - 1] : 0;
  mck_broadcast_strides(&ab, nb, bshape, A.sb);
  mck_broadcast_strides(&bb, nb, bshape, B.sb);
  for (int d = 0; d < nb; d++) C.sb[d] = o->stride[d];
  double be = 0;
  if (init && beta != 0) {
    kl_fill(o, init);
    be = beta;
  }
  return kl_matmul_batched(c, op, nb, bshape, m, n, ka, init ? alpha : 1.0, &A, &B, be, o, &C);
}

static inline double kl_scalar(const mck_arg *in, int nin, int k, double dflt) {
  if (k >= nin || !mck_arg_is_scalar(&in[k])) return dflt;
  return mck_arg_f(&in[k]);
}

/* aten::matmul(self, other) */
static inline int kl_matmul(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  return kl_product(c, "aten::matmul", out, in[0].u.t, in[1].u.t, NULL, 1, 0);
}

/* aten::mm(self, mat2): 2-D x 2-D */
static inline int kl_mm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *a = in[0].u.t, *b = in[1].u.t;
  if (a->ndim != 2 || b->ndim != 2)
    return mck_fail(c, "aten::mm: self must be a matrix (got %dD and %dD)", a->ndim, b->ndim);
  return kl_product(c, "aten::mm", out, a, b, NULL, 1, 0);
}

/* aten::bmm(self, mat2): 3-D x 3-D with equal batch */
static inline int kl_bmm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *a = in[0].u.t, *b = in[1].u.t;
  if (a->ndim != 3 || b->ndim != 3)
    return mck_fail(c, "aten::bmm: batch1 must be a 3D tensor (got %dD and %dD)", a->ndim, b->ndim);
  if (a->shape[0] != b->shape[0])
    return mck_fail(c, "aten::bmm: batch1 and batch2 must have same number of batches, got %lld and %lld",
                    (long long)a->shape[0], (long long)b->shape[0]);
  return kl_product(c, "aten::bmm", out, a, b, NULL, 1, 0);
}

/* aten::mv(self, vec): 2-D x 1-D */
static inline int kl_mv(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *a = in[0].u.t, *b = in[1].u.t;
  if (a->ndim != 2 || b->ndim != 1)
    return mck_fail(c, "aten::mv: vector + matrix @ vector expected, got %dD, %dD", a->ndim, b->ndim);
  return kl_product(c, "aten::mv", out, a, b, NULL, 1, 0);
}

/* aten::dot(self, tensor): 1-D x 1-D -> 0-dim */
static inline int kl_dot(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  const mck_tensor *a = in[0].u.t, *b = in[1].u.t;
  if (a->ndim != 1 || b->ndim != 1)
    return mck_fail(c, "aten::dot: 1D tensors expected, but got %dD and %dD tensors", a->ndim, b->ndim);
  if (a->shape[0] != b->shape[0])
    return mck_fail(c, "aten::dot: inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the same number of elements, but got %lld and %lld elements respectively",
                    (long long)a->shape[0], (long long)b->shape[0], (long long)a->shape[0], (long long)b->shape[0]);
  return kl_product(c, "aten::dot", out, a, b, NULL, 1, 0);
}

/* aten::addmm(self, mat1, mat2, *, beta=1, alpha=1) */
static inline int kl_addmm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *a = in[1].u.t, *b = in[2].u.t;
  if (a->ndim != 2 || b->ndim != 2)
    return mck_fail(c, "aten::addmm: mat1 and mat2 must be matrices (got %dD and %dD)", a->ndim, b->ndim);
  return kl_product(c, "aten::addmm", out, a, b, in[0].u.t, kl_scalar(in, nin, 4, 1),
                    kl_scalar(in, nin, 3, 1));
}

/* aten::baddbmm(self, batch1, batch2, *, beta=1, alpha=1) */
static inline int kl_baddbmm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *a = in[1].u.t, *b = in[2].u.t;
  if (a->ndim != 3 || b->ndim != 3 || a->shape[0] != b->shape[0])
    return mck_fail(c, "aten::baddbmm: batch1 and batch2 must be 3D with the same batch size");
  return kl_product(c, "aten::baddbmm", out, a, b, in[0].u.t, kl_scalar(in, nin, 4, 1),
                    kl_scalar(in, nin, 3, 1));
}

/* float32 linear (+ act) on contiguous operands, the usual case in a model: at most
 * KL_DOT_ROWS rows take the dot-product path (the weight read once, bias added to the sums),
 * more rows the packed GEMM with bias and activation in its tile epilogue; the output is
 * written once either way. Anything unusual (other dtypes, strides, shapes that do not match,
 * empty products, meta mode) returns 1 and the caller takes kl_product, which also reports
 * the errors. 0: done; -1: out of memory. */
/* A linear weight W (n x k) prepacked by the compiler: W^T as canonical B panels of KCONV_PB
 * columns (k_gemm.h), except that a last panel of at most 16 columns is 16 wide: a batch-1
 * GEMV reads every byte of the weight each call, and for a small output (a classifier's 10)
 * the zero padding of a full panel would be most of it. */
#define KL_PB_NARROW 16
static inline int64_t kl_prepack_linear_size(int64_t n, int64_t k) {
  int64_t r = n % KCONV_PB;
  return (n - r) * k + (r == 0 ? 0 : r <= KL_PB_NARROW ? KL_PB_NARROW : KCONV_PB) * k;
}
static inline void kl_prepack_linear(int64_t n, int64_t k, const float *w, float *dst) {
  int64_t full = n - n % KCONV_PB;
  kconv_prepack_b(k, full, w, 1, k, dst);
  dst += full * k;
  if (full < n) {
    int64_t pw = n - full <= KL_PB_NARROW ? KL_PB_NARROW : KCONV_PB;
    for (int64_t kk = 0; kk < k; kk++)
      for (int64_t j = 0; j < pw; j++) *dst++ = full + j < n ? w[(full + j) * k + kk] : 0.0f;
  }
}
/* Whether the GEMM (which reads whole KCONV_PB panels) can use that layout. */
static inline int kl_prepack_linear_full(int64_t n) {
  return n % KCONV_PB == 0 || n % KCONV_PB > KL_PB_NARROW;
}

/* y[r] = act(x[r] W^T + b) for m rows from W prepacked as canonical B panels (k_gemm.h
 * KCONV_PB columns each, k deep): each panel's outputs accumulate in vector registers while
 * x[r][kk] is broadcast, so there are no horizontal sums. An FMA chain waits on its previous
 * result, so enough chains run at once to cover the latency: four panels side by side, or one
 * panel with four partial sums over interleaved k (added in a fixed order at the end). */
static inline void kl_gemv_tail(int64_t j0, int64_t n, float *t, const float *b, float *y, int act,
                                double lo, double hi) {
  int64_t nj = kconv_min(KCONV_PB, n - j0);
  if (b)
    for (int64_t j = 0; j < nj; j++) t[j] += b[j0 + j];
  kconv_act_run(act, lo, hi, t, nj, 1);
  for (int64_t j = 0; j < nj; j++) y[j0 + j] = t[j];
}
static inline void kl_gemv_packed(int64_t m, int64_t n, int64_t k, const float *x, const float *pk,
                                  const float *b, float *y, int act, double lo, double hi) {
  /* columns in full-width panels; the rest (if any) is the narrow panel */
  const int64_t nall = n, nw = kl_prepack_linear_full(n) ? n : n - n % KCONV_PB;
  (void)nw;
  for (int64_t r = 0; r < m; r++, x += k, y += nall) {
    int64_t j0 = 0;
#ifdef KCONV_VW
    enum { NV = KCONV_PB / KCONV_VW };
    for (; j0 + 4 * KCONV_PB <= n; j0 += 4 * KCONV_PB) {
      const float *p = pk + j0 * k;
      kconv_vf acc[4][NV];
      for (int q = 0; q < 4; q++)
        for (int v = 0; v < NV; v++) acc[q][v] = (kconv_vf){0};
      for (int64_t kk = 0; kk < k; kk++) {
        kconv_vf xv = KCONV_SET1(x[kk]);
        for (int q = 0; q < 4; q++)
          for (int v = 0; v < NV; v++)
            acc[q][v] = KCONV_FMA(xv, *(const kconv_vfu *)(p + (q * k + kk) * KCONV_PB + v * KCONV_VW), acc[q][v]);
      }
      for (int q = 0; q < 4; q++) {
        float t[KCONV_PB];
        for (int v = 0; v < NV; v++) *(kconv_vfu *)(t + v * KCONV_VW) = acc[q][v];
        kl_gemv_tail(j0 + q * KCONV_PB, n, t, b, y, act, lo, hi);
      }
    }
    for (; j0 < nw; j0 += KCONV_PB) {
      const float *p = pk + j0 * k;
      kconv_vf acc[4][NV];
      for (int s = 0; s < 4; s++)
        for (int v = 0; v < NV; v++) acc[s][v] = (kconv_vf){0};
      int64_t kk = 0;
      for (; kk + 4 <= k; kk += 4)
        for (int s = 0; s < 4; s++) {
          kconv_vf xv = KCONV_SET1(x[kk + s]);
          for (int v = 0; v < NV; v++)
            acc[s][v] = KCONV_FMA(xv, *(const kconv_vfu *)(p + (kk + s) * KCONV_PB + v * KCONV_VW), acc[s][v]);
        }
      for (; kk < k; kk++) {
        kconv_vf xv = KCONV_SET1(x[kk]);
        for (int v = 0; v < NV; v++)
          acc[0][v] = KCONV_FMA(xv, *(const kconv_vfu *)(p + kk * KCONV_PB + v * KCONV_VW), acc[0][v]);
      }
      float t[KCONV_PB];
      for (int v = 0; v < NV; v++)
        *(kconv_vfu *)(t + v * KCONV_VW) = (acc[0][v] + acc[1][v]) + (acc[2][v] + acc[3][v]);
      kl_gemv_tail(j0, n, t, b, y, act, lo, hi);
    }
    if (j0 < nall) { /* a narrow last panel: KL_PB_NARROW columns, eight partial sums */
      enum { NW = KL_PB_NARROW / KCONV_VW };
      const float *p = pk + j0 * k;
      kconv_vf acc[8][NW];
      for (int s = 0; s < 8; s++)
        for (int v = 0; v < NW; v++) acc[s][v] = (kconv_vf){0};
      int64_t kk = 0;
      for (; kk + 8 <= k; kk += 8)
        for (int s = 0; s < 8; s++) {
          kconv_vf xv = KCONV_SET1(x[kk + s]);
          for (int v = 0; v < NW; v++)
            acc[s][v] = KCONV_FMA(xv, *(const kconv_vfu *)(p + (kk + s) * KL_PB_NARROW + v * KCONV_VW), acc[s][v]);
        }
      for (; kk < k; kk++) {
        kconv_vf xv = KCONV_SET1(x[kk]);
        for (int v = 0; v < NW; v++)
          acc[0][v] = KCONV_FMA(xv, *(const kconv_vfu *)(p + kk * KL_PB_NARROW + v * KCONV_VW), acc[0][v]);
      }
      float t[KCONV_PB];
      for (int v = 0; v < NW; v++)
        *(kconv_vfu *)(t + v * KCONV_VW) = ((acc[0][v] + acc[1][v]) + (acc[2][v] + acc[3][v])) +
                                          ((acc[4][v] + acc[5][v]) + (acc[6][v] + acc[7][v]));
      kl_gemv_tail(j0, nall, t, b, y, act, lo, hi);
    }
#else
    for (; j0 < n; j0 += KCONV_PB) {
      const float *p = pk + j0 * k;
      int64_t pw = n - j0 < KCONV_PB && !kl_prepack_linear_full(n) ? KL_PB_NARROW : KCONV_PB;
      float t[KCONV_PB];
      for (int j = 0; j < KCONV_PB; j++) t[j] = 0.0f;
      for (int64_t kk = 0; kk < k; kk++, p += pw) {
        float xv = x[kk];
        for (int64_t j = 0; j < pw; j++) t[j] += xv * p[j];
      }
      kl_gemv_tail(j0, n, t, b, y, act, lo, hi);
    }
#endif
  }
}

/* The operands of a float32 linear as kl_linear_f32's fast paths take them (x contiguous, W
 * row-major, bias contiguous, o of x's leading shape): *m rows, the weight prepacked by the
 * emitter (emit_c.c) when it is this product's (*pk, else NULL). 1: not so. */
static inline int kl_linear_f32_opnds(mck_ctx *c, mck_tensor *o, const mck_tensor *x, const mck_tensor *w,
                                      const mck_tensor *bias, int64_t *mrows, const float **pkp) {
  int nd = x->ndim;
  /* the weight prepacked by the emitter (emit_c.c), used when it is this product's */
  const float *pk = c->pack && c->pack_kind == 3 && w->ndim == 2 && c->pack_m == w->shape[0] &&
                    c->pack_k == w->shape[1] ? c->pack : NULL;
  c->pack = NULL;
  if (c->meta || x->dtype != MCK_F32 || w->dtype != MCK_F32 || o->dtype != MCK_F32 ||
      w->ndim != 2 || nd < 1 || o->ndim != nd)
    return 1;
  int64_t n = w->shape[0], k = w->shape[1];
  if (x->shape[nd - 1] != k || o->shape[nd - 1] != n || k == 0 || n == 0 ||
      (k > 1 && w->stride[1] != 1) || (n > 1 && w->stride[0] != k))
    return 1;
  if (bias && (bias->dtype != MCK_F32 || bias->ndim != 1 || bias->shape[0] != n ||
               (n > 1 && bias->stride[0] != 1)))
    return 1;
  int64_t m = 1, s = k;
  for (int d = nd - 2; d >= 0; d--) { /* x contiguous, o of x's leading shape */
    if (o->shape[d] != x->shape[d] || (x->shape[d] != 1 && x->stride[d] != s)) return 1;
    s *= x->shape[d];
    m *= x->shape[d];
  }
  if (x->shape[nd - 1] != 1 && x->stride[nd - 1] != 1) return 1;
  if (m == 0) return 1;
  *mrows = m;
  *pkp = pk;
  return 0;
}

static inline int kl_linear_f32(mck_ctx *c, const char *op, mck_tensor *o, const mck_tensor *x,
                                const mck_tensor *w, const mck_tensor *bias, int act, double lo,
                                double hi) {
  int64_t m;
  const float *pk;
  if (kl_linear_f32_opnds(c, o, x, w, bias, &m, &pk)) return 1;
  int64_t n = w->shape[0], k = w->shape[1];
  const float *xp = (const float *)x->data + x->offset;
  const float *wp = w->data ? (const float *)w->data + w->offset : NULL; /* NULL: only the packed copy exists */
  const float *bp = bias ? (const float *)bias->data + bias->offset : NULL;
  float *yp = (float *)o->data + o->offset;
  if (pk && m <= KL_DOT_ROWS) {
    kl_gemv_packed(m, n, k, xp, pk, bp, yp, act, lo, hi);
    return 0;
  }
  if (m <= KL_DOT_ROWS) {
    kl_sdot_rows_act(m, n, k, xp, k, wp, k, bp, yp, n, act, lo, hi);
    return 0;
  }
  kconv_gemm_ws ws;
  if (kconv_gemm_ws_init_for(&ws, m, n, k)) return mck_fail(c, "%s: out of memory", op);
  ws.nthreads = c->nthreads;
  kconv_epi e = {bp, 0, act, lo, hi};
  if (pk && kl_prepack_linear_full(n)) {
    kconv_opnd a = {xp, k, 1, NULL, 0, NULL, NULL}, bo = {NULL, 0, 0, pk, k, NULL, NULL};
    kconv_gemm_op(&ws, m, n, k, &a, &bo, yp, n, 1, 1.0f, 1, &e);
    return 0;
  }
  kconv_sgemm_epi(&ws, m, n, k, xp, k, 1, wp, 1, k, yp, n, 1, 1.0f, 1, &e);
  return 0;
}

/* aten::linear(input, weight, bias=None) = input @ weight.T + bias */
static inline int kl_linear(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const mck_tensor *x = in[0].u.t, *w = in[1].u.t;
  const mck_tensor *bias = nin > 2 && in[2].kind == MCK_TENSOR ? in[2].u.t : NULL;
  int fr = kl_linear_f32(c, "aten::linear", out[0].u.t, x, w, bias, KCONV_ACT_NONE, 0, 0);
  if (fr <= 0) return fr;
  if (!w->data && !c->meta && mck_numel(w)) /* stored prepacked only (emit_c.c) */
    return mck_fail(c, "aten::linear: internal: the prepacked weight does not fit this product");
  if (w->ndim != 1 && w->ndim != 2)
    return mck_fail(c, "aten::linear: weight must be 1-D or 2-D, got %dD", w->ndim);
  if (w->ndim == 1 && bias && x->ndim >= 2) /* as PyTorch 1.13 for contiguous input */
    return mck_fail(c, "aten::linear: mat2 must be a matrix, got 1-D tensor");
  mck_tensor wt = *w;
  if (w->ndim == 2) {
    wt.shape[0] = w->shape[1];
    wt.shape[1] = w->shape[0];
    wt.stride[0] = w->stride[1];
    wt.stride[1] = w->stride[0];
  }
  return kl_product(c, "aten::linear", out, x, &wt, bias, 1, 1);
}

/* mc::linear_act(input, weight, bias?, act, a, b) = act(linear(input, weight, bias)), made by
 * the fuse pass (act as in k_act.h's kconv_act_code). The activation runs over the product's
 * rows right after it (a linear's output is small next to its weight). */
static inline int kl_linear_act(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  int act;
  double lo, hi;
  if (nin < 6) return mck_fail(c, "mc::linear_act: expects 6 inputs");
  if (kconv_act_args(c, "mc::linear_act", &in[3], &in[4], &in[5], &act, &lo, &hi)) return -1;
  const mck_tensor *bias = in[2].kind == MCK_TENSOR ? in[2].u.t : NULL;
  int fr = kl_linear_f32(c, "mc::linear_act", out[0].u.t, in[0].u.t, in[1].u.t, bias, act, lo, hi);
  if (fr <= 0) return fr;
  if (kl_linear(c, out, nout, in, 3)) return -1;
  mck_tensor *o = out[0].u.t;
  if (c->meta || act == KCONV_ACT_NONE) return 0;
  int64_t n = mck_numel(o);
  if (o->dtype == MCK_F32) {
    kconv_act_run(act, lo, hi, (float *)o->data + o->offset, n, 1);
  } else if (mck_is_float(o->dtype)) {
    for (int64_t i = 0; i < n; i++)
      mck_setf(o, o->offset + i, kconv_act_f(act, mck_getf(o, o->offset + i), lo, hi));
  } else {
    return mck_fail(c, "mc::linear_act: activations need a floating dtype");
  }
  return 0;
}

/* aten::linear and mc::linear_act (nin 6) whose weight the emitter stored prepacked only and whose
 * product it knows to be of at most KL_DOT_ROWS rows (emit_c.c, static shapes): the packed GEMV
 * alone, so a small program carries neither the GEMM nor the generic product. The operands are
 * checked as kl_linear_f32 checks them; any that do not fit (an input bound with strides) fail as
 * kl_linear does when the prepacked weight does not fit. */
static inline int kl_linear_gemv(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const char *op = nin >= 6 ? "mc::linear_act" : "aten::linear";
  int act = KCONV_ACT_NONE;
  double lo = 0, hi = 0;
  if (nin >= 6 && kconv_act_args(c, op, &in[3], &in[4], &in[5], &act, &lo, &hi)) return -1;
  const mck_tensor *x = in[0].u.t, *w = in[1].u.t;
  const mck_tensor *bias = nin > 2 && in[2].kind == MCK_TENSOR ? in[2].u.t : NULL;
  mck_tensor *o = out[0].u.t;
  int64_t m;
  const float *pk;
  if (kl_linear_f32_opnds(c, o, x, w, bias, &m, &pk) || !pk || m > KL_DOT_ROWS)
    return mck_fail(c, "%s: internal: the prepacked weight does not fit this product", op);
  kl_gemv_packed(m, w->shape[0], w->shape[1], (const float *)x->data + x->offset, pk,
                 bias ? (const float *)bias->data + bias->offset : NULL, (float *)o->data + o->offset, act,
                 lo, hi);
  return 0;
}

/* aten::einsum(equation, tensors, path=None): explicit ("ij,jk->ik") or implicit ("ij,jk",
 * output = labels seen once, in ASCII order) subscripts of letters, spaces ignored; a label
 * repeated in one operand takes its diagonal; a size-1 dim broadcasts against its label's size.
 * No ellipsis. One loop nest over the output labels then the summed ones; float dtypes
 * accumulate in double, integers in wrapping int64; operands must share a dtype. The
 * contraction path is a hint and ignored. */
#define KL_EIN_OPS 8
#define KL_EIN_LABELS 52

static inline int kl_ein_label(char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return 26 + ch - 'a';
  return -1;
}

static inline int kl_einsum(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout, (void)nin;
  if (in[0].kind != MCK_STR || in[1].kind != MCK_TENSORS)
    return mck_fail(c, "aten::einsum: expected an equation and a list of tensors");
  const char *eq = in[0].u.s;
  int nops = in[1].n;
  if (nops < 1 || nops > KL_EIN_OPS)
    return mck_fail(c, "aten::einsum: %d operands (1 to %d supported)", nops, KL_EIN_OPS);
  mck_tensor *const *ts = in[1].u.ts;
  int lab[KL_EIN_OPS][MCK_MAX_DIMS], nl[KL_EIN_OPS] = {0}, count[KL_EIN_LABELS] = {0};
  int olab[MCK_MAX_DIMS], no = 0, k = 0, explicit_out = 0;
  int64_t size[KL_EIN_LABELS];
  for (int l = 0; l < KL_EIN_LABELS; l++) size[l] = -1;
  for (const char *p = eq; *p; p++) {
    if (*p == ' ') continue;
    if (*p == '.') return mck_fail(c, "aten::einsum: ellipsis ('...') is not supported");
    if (*p == ',') {
      if (explicit_out || ++k >= nops)
        return mck_fail(c, "aten::einsum: more operands in the equation than the %d given", nops);
      continue;
    }
    if (*p == '-' && p[1] == '>' && !explicit_out) {
      explicit_out = 1;
      p++;
      continue;
    }
    int l = kl_ein_label(*p);
    if (l < 0) return mck_fail(c, "aten::einsum: invalid subscript '%c' in \"%s\"", *p, eq);
    if (explicit_out) {
      if (no == MCK_MAX_DIMS) return mck_fail(c, "aten::einsum: output has too many dims");
      for (int i = 0; i < no; i++)
        if (olab[i] == l) return mck_fail(c, "aten::einsum: output subscript '%c' appears more than once", *p);
      olab[no++] = l;
      continue;
    }
    if (nl[k] == ts[k]->ndim)
      return mck_fail(c, "aten::einsum: the equation has more subscripts than operand %d's %d dims", k, ts[k]->ndim);
    int64_t s = ts[k]->shape[nl[k]];
    if (size[l] < 0 || size[l] == 1) {
      size[l] = s;
    } else if (s != size[l] && s != 1) {
      return mck_fail(c, "aten::einsum: subscript '%c' has size %lld for operand %d, which does not broadcast with %lld",
                      *p, (long long)s, k, (long long)size[l]);
    }
    lab[k][nl[k]++] = l;
    count[l]++;
  }
  if (k != nops - 1) return mck_fail(c, "aten::einsum: %d operands given, the equation names %d", nops, k + 1);
  for (int i = 0; i < nops; i++) {
    if (nl[i] != ts[i]->ndim)
      return mck_fail(c, "aten::einsum: the equation has %d subscripts for operand %d, which has %d dims", nl[i], i, ts[i]->ndim);
    if (ts[i]->dtype != ts[0]->dtype)
      return mck_fail(c, "aten::einsum: operands of different dtypes (%s and %s)",
                      mck_dtype_name(ts[0]->dtype), mck_dtype_name(ts[i]->dtype));
  }
  int dt = ts[0]->dtype;
  if (dt == MCK_BOOL) return mck_fail(c, "aten::einsum: bool operands are not supported");
  if (!explicit_out) {
    for (int l = 0; l < KL_EIN_LABELS; l++) {
      if (count[l] != 1) continue;
      if (no == MCK_MAX_DIMS) return mck_fail(c, "aten::einsum: output has too many dims");
      olab[no++] = l;
    }
  }
  int loop[KL_EIN_LABELS], nloop = 0, used[KL_EIN_LABELS] = {0};
  int64_t oshape[MCK_MAX_DIMS];
  for (int i = 0; i < no; i++) {
    if (!count[olab[i]])
      return mck_fail(c, "aten::einsum: output subscript '%c' does not appear in any operand",
                      olab[i] < 26 ? 'A' + olab[i] : 'a' + olab[i] - 26);
    oshape[i] = size[olab[i]];
    loop[nloop++] = olab[i];
    used[olab[i]] = 1;
  }
  for (int l = 0; l < KL_EIN_LABELS; l++)
    if (count[l] && !used[l]) loop[nloop++] = l;
  mck_tensor *o = out[0].u.t;
  out[0].kind = MCK_TENSOR;
  if (mck_out(c, o, dt, no, oshape)) return -1;
  if (c->meta) return 0;
  /* st[k][j]: operand k's stride along loop label j (summed over a repeated label's dims;
   * 0 where a size-1 dim broadcasts); st[nops]: the output's. */
  int64_t st[KL_EIN_OPS + 1][KL_EIN_LABELS], lsize[KL_EIN_LABELS];
  for (int j = 0; j < nloop; j++) {
    lsize[j] = size[loop[j]];
    for (int i = 0; i < nops; i++) {
      st[i][j] = 0;
      for (int d = 0; d < nl[i]; d++)
        if (lab[i][d] == loop[j] && ts[i]->shape[d] != 1) st[i][j] += ts[i]->stride[d];
    }
    st[nops][j] = j < no ? o->stride[j] : 0;
  }
  int64_t nouter = 1, ninner = 1;
  for (int j = 0; j < nloop; j++) {
    if (j < no) nouter *= lsize[j];
    else ninner *= lsize[j];
  }
  int isf = mck_is_float(dt), f32 = dt == MCK_F32 && o->dtype == MCK_F32;
  int64_t idx[KL_EIN_LABELS] = {0}, off[KL_EIN_OPS + 1];
  for (int i = 0; i <= nops; i++) off[i] = i < nops ? ts[i]->offset : o->offset;
  for (int64_t q = 0; q < nouter; q++) {
    double accf = 0;
    int64_t acci = 0;
    int64_t ioff[KL_EIN_OPS];
    for (int i = 0; i < nops; i++) ioff[i] = off[i];
    for (int64_t r = 0; r < ninner; r++) {
      if (f32) {
        double p = 1;
        for (int i = 0; i < nops; i++) p *= ((const float *)ts[i]->data)[ioff[i]];
        accf += p;
      } else if (isf) {
        double p = 1;
        for (int i = 0; i < nops; i++) p *= mck_getf(ts[i], ioff[i]);
        accf += p;
      } else {
        uint64_t p = 1;
        for (int i = 0; i < nops; i++) p *= (uint64_t)mck_geti(ts[i], ioff[i]);
        acci = (int64_t)((uint64_t)acci + p);
      }
      for (int j = nloop - 1; j >= no; j--) {
        for (int i = 0; i < nops; i++) ioff[i] += st[i][j];
        if (++idx[j] < lsize[j]) break;
        for (int i = 0; i < nops; i++) ioff[i] -= st[i][j] * lsize[j];
        idx[j] = 0;
      }
    }
    if (f32) ((float *)o->data)[off[nops]] = (float)accf;
    else if (isf) mck_setf(o, off[nops], accf);
    else mck_seti(o, off[nops], acci);
    for (int j = no - 1; j >= 0; j--) {
      for (int i = 0; i <= nops; i++) off[i] += st[i][j];
      if (++idx[j] < lsize[j]) break;
      for (int i = 0; i <= nops; i++) off[i] -= st[i][j] * lsize[j];
      idx[j] = 0;
    }
  }
  return 0;
}

#endif
