/* k_linalg2.h — kernels of the linalg family on small dense problems: LU factorisation with
 * partial pivoting and what it gives (linalg_inv / inverse, linalg_det / det, slogdet /
 * linalg_slogdet, logdet), the matrix norms (linalg_matrix_norm, linalg_norm, nuclear_norm) and
 * the distances (pairwise_distance, cosine_similarity, cdist / _cdist_forward).
 *
 * LU: each matrix of a batch is copied to a double scratch and factored as LAPACK's getrf does
 * (column by column; the pivot is the first row of largest absolute value in the column; a zero
 * pivot column is left as is and reported, the factorisation goes on; linalg_inv factors A^T
 * when A is contiguous, as PyTorch does); the result is rounded once to the input dtype.
 * float32 results therefore are at least as accurate as PyTorch's (which factors in float32):
 * they agree with PyTorch within 1e-4 relative (float32) and 1e-10 (float64) on
 * well-conditioned matrices; results of ill-conditioned matrices agree only as far as the
 * condition number allows. Only float32 and float64 are accepted, as in PyTorch; a singular
 * matrix makes linalg_inv fail at run time with PyTorch's message (the first zero pivot,
 * 1-based, and the batch element), before any output is written.
 *
 * Matrix norms: ord 'fro', 1, -1, inf, -inf; 'nuc', 2 and -2 from singular values (one-sided
 * Jacobi in double; within 1e-5 relative of PyTorch's LAPACK gesdd for float32, 1e-10 for
 * float64; a non-finite element fails the op at run time, as PyTorch's SVD does). Distances
 * compute in double and round once; cdist's p == 2 matrix-product path (compute_mode 1, or 0
 * with more than 25 rows) uses PyTorch's formula sqrt(clamp_min(|x|^2 + |y|^2 - 2 x.y, 0)).
 * Prefix: kl_.
 */
#ifndef K_LINALG2_H
#define K_LINALG2_H

#include "mck.h"
#include "k_args.h"
#include "k_shape_util.h"
#include "k_reduce.h"
#include "k_matrix.h" /* kl_round_as */

/* ---- LU ---------------------------------------------------------------------------------- */
/* Factors the n x n row-major a in place (L unit lower, U upper), row swaps in piv; *sign is the
 * permutation's sign. Returns 0, or the 1-based index of the first zero pivot. */
static inline int64_t kl_lu(double *a, int64_t n, int64_t *piv, int *sign) {
  int64_t info = 0;
  *sign = 1;
  for (int64_t j = 0; j < n; j++) {
    int64_t p = j;
    double best = fabs(a[j * n + j]);
    for (int64_t i = j + 1; i < n; i++) {
      double v = fabs(a[i * n + j]);
      if (v > best) best = v, p = i;
    }
    piv[j] = p;
    if (a[p * n + j] == 0) {
      if (!info) info = j + 1;
      continue;
    }
    if (p != j) {
      *sign = -*sign;
      for (int64_t k = 0; k < n; k++) {
        double t = a[j * n + k];
        a[j * n + k] = a[p * n + k];
        a[p * n + k] = t;
      }
    }
    double r = 1.0 / a[j * n + j];
    for (int64_t i = j + 1; i < n; i++) {
      double l = a[i * n + j] * r;
      a[i * n + j] = l;
      if (l == 0) continue;
      for (int64_t k = j + 1; k < n; k++) a[i * n + k] -= l * a[j * n + k];
    }
  }
  return info;
}

/* The common front of the LU ops: A is [..., n, n] float32 / float64. */
static inline int kl_square_check(mck_ctx *c, const char *op, const char *pyop, const mck_tensor *a) {
  if (a->ndim < 2)
    return mck_fail(c, "%s: %s: The input tensor A must have at least 2 dimensions.", op, pyop);
  if (a->shape[a->ndim - 1] != a->shape[a->ndim - 2])
    return mck_fail(c, "%s: %s: A must be batches of square matrices, but they are %lld by %lld matrices",
                    op, pyop, (long long)a->shape[a->ndim - 2], (long long)a->shape[a->ndim - 1]);
  if (a->dtype == MCK_F16 || a->dtype == MCK_BF16)
    return mck_fail(c, "%s: %s: Low precision dtypes not supported. Got %s", op, pyop, mck_dtype_name(a->dtype));
  if (!mck_is_float(a->dtype))
    return mck_fail(c, "%s: %s: Expected a floating point or complex tensor as input. Got %s", op, pyop,
                    mck_dtype_name(a->dtype));
  if (a->shape[a->ndim - 1] > MCK_MAX_GEOM)
    return mck_fail(c, "%s: matrices of size %lld are too large", op, (long long)a->shape[a->ndim - 1]);
  return 0;
}

/* Loads matrix b of the batch of a (n x n), or its transpose, into the double scratch m. */
static inline void kl_load_matrix(const mck_tensor *a, int64_t b, int64_t n, double *m, int tr) {
  int nb = a->ndim - 2;
  int64_t off = a->offset, rest = b;
  for (int d = nb - 1; d >= 0; d--) {
    off += (rest % a->shape[d]) * a->stride[d];
    rest /= a->shape[d];
  }
  int64_t sr = a->stride[nb], sc = a->stride[nb + 1];
  if (tr) sr = a->stride[nb + 1], sc = a->stride[nb];
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) m[i * n + j] = mck_getf(a, off + i * sr + j * sc);
}

enum { KL_LU_INV, KL_LU_DET, KL_LU_SLOGDET, KL_LU_LOGDET };

/* The outputs of an LU op (set up in meta mode, checked otherwise). */
static inline int kl_lu_outs(mck_ctx *c, mck_arg *out, int nout, const mck_tensor *a, int what,
                             const char *op) {
  int nb = a->ndim - 2;
  if (what == KL_LU_INV) return mck_out(c, out[0].u.t, a->dtype, a->ndim, a->shape);
  if (mck_out(c, out[0].u.t, a->dtype, nb, a->shape)) return -1;
  if (what != KL_LU_SLOGDET) return 0;
  if (nout < 2) return mck_fail(c, "%s: expects two outputs", op);
  return mck_out(c, out[1].u.t, a->dtype, nb, a->shape);
}

/* Every matrix is solved into a double scratch first, so a singular one fails the op before
 * an output is touched. */
static inline int kl_lu_op(mck_ctx *c, mck_arg *out, int nout, const mck_tensor *a, int what,
                           const char *op, const char *pyop) {
  if (kl_square_check(c, op, pyop, a)) return -1;
  if (c->meta) return kl_lu_outs(c, out, nout, a, what, op);
  int nb = a->ndim - 2;
  int64_t n = a->shape[nb], batch = 1;
  for (int d = 0; d < nb; d++) batch = mck_mul_sat(batch, a->shape[d]);
  int64_t nn = mck_mul_sat(n, n), per = what == KL_LU_INV ? nn : 2;
  double *m = (double *)kconv_alloc(nn, sizeof(double));
  double *res = (double *)kconv_alloc(mck_mul_sat(batch, per), sizeof(double));
  int64_t *piv = (int64_t *)kconv_alloc(n, sizeof(int64_t));
  if (!m || !piv || !res) {
    free(m), free(res), free(piv);
    return mck_fail(c, "%s: out of memory", op);
  }
  int rc = 0;
  /* PyTorch inverts a contiguous A by factoring A^T (the first zero pivot it reports is A^T's) */
  int tr = what == KL_LU_INV && mck_is_contiguous(a);
  for (int64_t b = 0; b < batch && !rc; b++) {
    int sign;
    double *r = res + b * per;
    kl_load_matrix(a, b, n, m, tr);
    int64_t info = kl_lu(m, n, piv, &sign);
    if (what == KL_LU_INV) {
      if (info) {
        if (nb) rc = mck_fail(c, "%s: %s: (Batch element %lld): The diagonal element %lld is zero, the inversion could not be completed because the input matrix is singular.", op, pyop, (long long)b, (long long)info);
        else rc = mck_fail(c, "%s: %s: The diagonal element %lld is zero, the inversion could not be completed because the input matrix is singular.", op, pyop, (long long)info);
        break;
      }
      /* solve L U x = P e_j for each column j; x is kept as row j of r (r is transposed on store) */
      for (int64_t j = 0; j < n; j++) {
        double *x = r + j * n;
        for (int64_t i = 0; i < n; i++) x[i] = i == j;
        for (int64_t i = 0; i < n; i++) { /* the row swaps, in order */
          double t = x[i];
          x[i] = x[piv[i]];
          x[piv[i]] = t;
        }
        for (int64_t i = 0; i < n; i++)
          for (int64_t k = 0; k < i; k++) x[i] -= m[i * n + k] * x[k];
        for (int64_t i = n - 1; i >= 0; i--) {
          for (int64_t k = i + 1; k < n; k++) x[i] -= m[i * n + k] * x[k];
          x[i] /= m[i * n + i];
        }
      }
      continue;
    }
    double det = sign, lad = 0;
    int sg = sign;
    for (int64_t i = 0; i < n; i++) {
      double u = m[i * n + i];
      det *= u;
      if (u < 0) sg = -sg;
      else if (u == 0) sg = 0;
      else if (u != u) sg = 2; /* NaN: sign 0 and NaN logabsdet, as PyTorch */
      lad += log(fabs(u));
    }
    if (what == KL_LU_DET) {
      r[0] = det;
    } else if (what == KL_LU_SLOGDET) {
      r[0] = sg == 2 ? 0 : (double)sg;
      r[1] = lad;
    } else {
      r[0] = sg == -1 ? NAN : lad;
    }
  }
  if (!rc) rc = kl_lu_outs(c, out, nout, a, what, op);
  if (!rc) {
    mck_tensor *o = out[0].u.t;
    for (int64_t b = 0; b < batch; b++) {
      const double *r = res + b * per;
      if (what == KL_LU_INV) {
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = 0; j < n; j++)
            mck_setf(o, o->offset + b * nn + i * n + j, tr ? r[i * n + j] : r[j * n + i]);
      } else {
        mck_setf(o, o->offset + b, r[0]);
        if (what == KL_LU_SLOGDET) mck_setf(out[1].u.t, out[1].u.t->offset + b, r[1]);
      }
    }
  }
  free(m), free(res), free(piv);
  return rc;
}

static inline int kl_linalg_inv(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return kl_lu_op(c, out, nout, in[0].u.t, KL_LU_INV, "aten::linalg_inv", "linalg.inv");
}
static inline int kl_inverse(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return kl_lu_op(c, out, nout, in[0].u.t, KL_LU_INV, "aten::inverse", "linalg.inv");
}
static inline int kl_linalg_det(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return kl_lu_op(c, out, nout, in[0].u.t, KL_LU_DET, "aten::linalg_det", "linalg.det");
}
static inline int kl_det(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return kl_lu_op(c, out, nout, in[0].u.t, KL_LU_DET, "aten::det", "linalg.det");
}
static inline int kl_slogdet(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return kl_lu_op(c, out, nout, in[0].u.t, KL_LU_SLOGDET, "aten::slogdet", "linalg.slogdet");
}
static inline int kl_linalg_slogdet(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return kl_lu_op(c, out, nout, in[0].u.t, KL_LU_SLOGDET, "aten::linalg_slogdet", "linalg.slogdet");
}
static inline int kl_logdet(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return kl_lu_op(c, out, nout, in[0].u.t, KL_LU_LOGDET, "aten::logdet", "logdet");
}

/* ---- matrix norms ------------------------------------------------------------------------ */
/* The singular values of the r x k row-major matrix a (destroyed), largest first, into sv
 * (min(r, k) of them), by one-sided Jacobi rotations on the columns of a (or of its transpose,
 * whichever has fewer columns) until every pair is orthogonal to working precision. */
static inline void kl_svdvals(double *a, int64_t r, int64_t k, double *sv) {
  int tr = k > r;
  int64_t m = tr ? k : r, n = tr ? r : k; /* m >= n; column j of the m x n matrix at (i, j) */
#define KL_AT(i, j) a[tr ? (j) * k + (i) : (i) * k + (j)]
  for (int sweep = 0; sweep < 80; sweep++) {
    int rotated = 0;
    for (int64_t p = 0; p + 1 < n; p++)
      for (int64_t q = p + 1; q < n; q++) {
        double al = 0, be = 0, ga = 0;
        for (int64_t i = 0; i < m; i++) {
          double x = KL_AT(i, p), y = KL_AT(i, q);
          al += x * x, be += y * y, ga += x * y;
        }
        if (ga == 0 || fabs(ga) <= 1e-17 * sqrt(al * be)) continue;
        rotated = 1;
        double ze = (be - al) / (2 * ga);
        double t = (ze >= 0 ? 1.0 : -1.0) / (fabs(ze) + sqrt(1 + ze * ze));
        double cs = 1 / sqrt(1 + t * t), sn = cs * t;
        for (int64_t i = 0; i < m; i++) {
          double x = KL_AT(i, p), y = KL_AT(i, q);
          KL_AT(i, p) = cs * x - sn * y;
          KL_AT(i, q) = sn * x + cs * y;
        }
      }
    if (!rotated) break;
  }
  for (int64_t j = 0; j < n; j++) {
    double v = 0;
    for (int64_t i = 0; i < m; i++) v += KL_AT(i, j) * KL_AT(i, j);
    sv[j] = sqrt(v);
  }
#undef KL_AT
  for (int64_t i = 1; i < n; i++) /* largest first (insertion sort: n is small) */
    for (int64_t j = i; j > 0 && sv[j] > sv[j - 1]; j--) {
      double t = sv[j];
      sv[j] = sv[j - 1];
      sv[j - 1] = t;
    }
}

/* A dtype= argument must hold the input's values without narrowing. */
static inline int kl_norm_dtype_check(mck_ctx *c, const char *op, int xdt, int odt) {
  if (mck_promote_types(xdt, odt) != odt)
    return mck_fail(c, "%s: the dtype of the input (%s) should be convertible without narrowing to the specified dtype (%s)",
                    op, mck_dtype_name(xdt), mck_dtype_name(odt));
  return 0;
}

/* Matrix norms from singular values: ord 2 the largest, -2 the smallest, 0 ('nuc') their sum.
 * Every matrix is done before the output is written: a non-finite element fails the op, as
 * PyTorch's SVD does. */
static inline int kl_svd_norm(mck_ctx *c, mck_tensor *o, const char *op, const mck_tensor *x,
                              const mck_red *r, int d0, int d1, double ord) {
  int64_t rr = x->shape[d0], kk = x->shape[d1], nv = rr < kk ? rr : kk, cnt = 1;
  for (int i = 0; i < r->nk; i++) cnt = mck_mul_sat(cnt, r->kshape[i]);
  double *a = (double *)kconv_alloc(mck_mul_sat(rr, kk), sizeof(double));
  double *sv = (double *)kconv_alloc(nv, sizeof(double));
  double *res = (double *)kconv_alloc(cnt, sizeof(double));
  if (!a || !sv || !res) {
    free(a), free(sv), free(res);
    return mck_fail(c, "%s: out of memory", op);
  }
  mck_iter ot;
  mck_red_outer(&ot, r, x, o);
  int rc = 0;
  for (int64_t k = 0; k < ot.total && !rc; k++, mck_iter_next(&ot)) {
    for (int64_t i = 0; i < rr; i++)
      for (int64_t j = 0; j < kk; j++) {
        double v = mck_getf(x, ot.off[0] + i * x->stride[d0] + j * x->stride[d1]);
        if (!isfinite(v))
          rc = mck_fail(c, "%s: linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.", op);
        a[i * kk + j] = v;
      }
    if (rc) break;
    kl_svdvals(a, rr, kk, sv);
    double v = 0;
    if (ord == 0)
      for (int64_t i = 0; i < nv; i++) v += kl_round_as(x->dtype, sv[i]);
    else v = nv ? sv[ord > 0 ? 0 : nv - 1] : 0;
    res[k] = v;
  }
  if (!rc) {
    mck_red_outer(&ot, r, x, o);
    for (int64_t k = 0; k < ot.total; k++, mck_iter_next(&ot)) mck_setf(o, ot.off[1], res[k]);
  }
  free(a), free(sv), free(res);
  return rc;
}

/* ord as a number (kind 0) or 'fro' (1) / 'nuc' (2). */
static inline int kl_matrix_norm_core(mck_ctx *c, mck_arg *out, int nout, const char *op,
                                      const mck_tensor *x, double ord, int sord,
                                      const mck_arg *dim, const mck_arg *keep, const mck_arg *dta) {
  int d0 = x->ndim - 2, d1 = x->ndim - 1;
  if (x->ndim < 2) return mck_fail(c, "%s: The input tensor A must have at least 2 dimensions.", op);
  if (dim && dim->kind != MCK_NONE) {
    if (dim->kind != MCK_INTS || dim->n != 2) return mck_fail(c, "%s: dim must be a 2-tuple. Got a list of %d", op, dim->kind == MCK_INTS ? dim->n : 1);
    if (ks_dim(c, op, dim->u.ints[0], x->ndim, &d0) || ks_dim(c, op, dim->u.ints[1], x->ndim, &d1)) return -1;
    if (d0 == d1) return mck_fail(c, "%s: dims must be different. Got (%lld, %lld)", op, (long long)dim->u.ints[0], (long long)dim->u.ints[1]);
  }
  int svd = sord == 2 || (!sord && (ord == 2 || ord == -2));
  if (!sord && !svd && ord != 1 && ord != -1 && !isinf(ord))
    return mck_fail(c, "%s: Order %g not supported.", op, ord);
  int odt = mck_red_dtype(c, op + 6, dta, x->dtype);
  if (odt < 0) return -1;
  if (!mck_is_float(x->dtype))
    return mck_fail(c, "%s: Expected a floating point or complex tensor as input. Got %s", op, mck_dtype_name(x->dtype));
  if (kl_norm_dtype_check(c, op, x->dtype, odt)) return -1;
  unsigned mask = (1u << d0) | (1u << d1);
  int keepdim = keep && keep->kind == MCK_BOOL_ARG ? (int)keep->u.i : 0;
  if (keep && keep->kind == MCK_UNKNOWN) return mck_fail(c, "%s: keepdim must be a compile-time constant", op);
  mck_red r;
  mck_red_plan(&r, x, mask, keepdim);
  if (!sord && svd && (x->shape[d0] == 0 || x->shape[d1] == 0))
    return mck_fail(c, "%s: %s(): Expected reduction dim -1 to have non-zero size.", op, ord > 0 ? "amax" : "amin");
  if (!sord && !svd && x->shape[isinf(ord) ? d0 : d1] == 0)
    return mck_fail(c, "%s: %s(): Expected reduction dim %d to have non-zero size.", op, ord > 0 ? "amax" : "amin",
                    isinf(ord) ? d0 : d1);
  if (mck_out(c, out[0].u.t, odt, r.ond, r.oshape)) return -1;
  (void)nout;
  if (c->meta) return 0;
  if (svd) return kl_svd_norm(c, out[0].u.t, op, x, &r, d0, d1, sord == 2 ? 0 : ord);
  mck_tensor *o = out[0].u.t;
  mck_iter ot;
  mck_red_outer(&ot, &r, x, o);
  /* ord +-1 sums over d0 and takes the extreme over d1; ord +-inf the other way round */
  int inner = isinf(ord) ? d1 : d0, outer = isinf(ord) ? d0 : d1;
  for (int64_t k = 0; k < ot.total; k++, mck_iter_next(&ot)) {
    double v = 0;
    if (sord == 1) {
      for (int64_t i = 0; i < x->shape[d0]; i++)
        for (int64_t j = 0; j < x->shape[d1]; j++) {
          double a = mck_getf(x, ot.off[0] + i * x->stride[d0] + j * x->stride[d1]);
          v += a * a;
        }
      v = sqrt(v);
    } else {
      v = ord > 0 ? -INFINITY : INFINITY;
      for (int64_t j = 0; j < x->shape[outer]; j++) {
        double s = 0;
        for (int64_t i = 0; i < x->shape[inner]; i++)
          s += fabs(mck_getf(x, ot.off[0] + i * x->stride[inner] + j * x->stride[outer]));
        s = kl_round_as(odt, s);
        if (s != s) {
          v = s;
          break;
        }
        v = ord > 0 ? (s > v ? s : v) : (s < v ? s : v);
      }
    }
    mck_setf(o, ot.off[1], v);
  }
  return 0;
}

/* ord of a str argument: 'fro' 1, 'nuc' 2, else -1. */
static inline int kl_str_ord(const mck_arg *a) {
  if (a->kind != MCK_STR) return 0;
  if (!strcmp(a->u.s, "fro")) return 1;
  if (!strcmp(a->u.s, "nuc")) return 2;
  return -1;
}

/* linalg_matrix_norm(self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *, dtype=None)
 * | (self, str ord='fro', ...) */
static inline int kl_linalg_matrix_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::linalg_matrix_norm";
  const mck_arg *oa = kconv_arg(in, nin, 1);
  int sord = oa->kind == MCK_NONE ? 1 : kl_str_ord(oa);
  if (sord < 0) return mck_fail(c, "%s: Order %s not supported.", op, oa->u.s);
  if (!sord && !mck_arg_is_scalar(oa)) return mck_fail(c, "%s: ord must be a compile-time constant number or string", op);
  return kl_matrix_norm_core(c, out, nout, op, in[0].u.t, sord ? 0 : mck_arg_f(oa), sord,
                             nin > 2 ? &in[2] : NULL, nin > 3 ? &in[3] : NULL, nin > 4 ? &in[4] : NULL);
}

/* nuclear_norm(self, bool keepdim=False) | (self, int[2] dim, bool keepdim=False) */
static inline int kl_nuclear_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const mck_arg *a1 = kconv_arg(in, nin, 1);
  int has_dim = a1->kind == MCK_INTS;
  mck_arg dflt = {MCK_INTS, 2, {0}};
  int64_t dd[2] = {0, 1};
  dflt.u.ints = dd;
  const mck_tensor *x = in[0].u.t;
  if (!has_dim && x->ndim != 2)
    return mck_fail(c, "aten::nuclear_norm: Expected a tensor with 2 dimensions, but got a tensor with %d dimensions instead.", x->ndim);
  return kl_matrix_norm_core(c, out, nout, "aten::nuclear_norm", x, 0, 2, has_dim ? a1 : &dflt,
                             has_dim ? kconv_arg(in, nin, 2) : a1, NULL);
}

/* linalg_norm(self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, dtype=None)
 * | (self, str ord, ...): a vector norm or a matrix norm, chosen as torch.linalg.norm does. */
static inline int kl_linalg_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::linalg_norm";
  const mck_tensor *x = in[0].u.t;
  const mck_arg *oa = kconv_arg(in, nin, 1), *dim = kconv_arg(in, nin, 2);
  const mck_arg *keep = kconv_arg(in, nin, 3), *dta = kconv_arg(in, nin, 4);
  int nd = dim->kind == MCK_NONE ? 0 : dim->kind == MCK_INT ? 1 : dim->kind == MCK_INTS ? dim->n : -1;
  if (nd < 0 || oa->kind == MCK_UNKNOWN) return mck_fail(c, "%s: ord and dim must be compile-time constants", op);
  int sord = kl_str_ord(oa);
  if (sord < 0) return mck_fail(c, "%s: Order %s not supported.", op, oa->u.s);
  if (nd > 2) return mck_fail(c, "%s: If dim is specified, it must be of length 1 or 2. Got [%d dims]", op, nd);
  if (oa->kind != MCK_NONE && nd == 0 && (sord ? x->ndim != 2 : x->ndim != 1 && x->ndim != 2))
    return mck_fail(c, "%s: If %s is not specified but ord is, the input must be %s. Got %dD.", op, "dim",
                    sord ? "2D" : "1D or 2D", x->ndim);
  if (sord && nd == 1) return mck_fail(c, "%s: If ord is a string, dim must have length 2", op);
  int matrix = nd == 2 || (oa->kind != MCK_NONE && nd == 0 && x->ndim == 2);
  if (matrix && oa->kind != MCK_NONE) {
    int64_t dd[2] = {0, 1};
    mck_arg dl = {MCK_INTS, 2, {0}};
    dl.u.ints = nd == 2 ? dim->u.ints : dd;
    return kl_matrix_norm_core(c, out, nout, op, x, sord ? 0 : mck_arg_f(oa), sord, &dl, keep, dta);
  }
  /* a vector norm (ord None over two dims is the Frobenius norm, the same thing) */
  double p = oa->kind == MCK_NONE ? 2 : mck_arg_f(oa);
  int odt = mck_red_dtype(c, "linalg_norm", dta, x->dtype);
  if (odt < 0 || kl_norm_dtype_check(c, op, x->dtype, odt)) return -1;
  return mck_red_pnorm(c, out, nout, "linalg_norm", x, p, dim, keep, dta);
}

/* ---- distances --------------------------------------------------------------------------- */
/* pairwise_distance(x1, x2, float p=2, float eps=1e-6, bool keepdim=False):
 * norm(x1 - x2 + eps, p, dim=-1, keepdim), broadcast. */
static inline int kl_pairwise_distance(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::pairwise_distance";
  const mck_tensor *x1 = in[0].u.t, *x2 = in[1].u.t;
  double p = 2, eps = 1e-6;
  if (kconv_float(c, kconv_arg(in, nin, 2), 2, &p, op, "p") ||
      kconv_float(c, kconv_arg(in, nin, 3), 1e-6, &eps, op, "eps"))
    return -1;
  if (x1->dtype == MCK_BOOL && x2->dtype == MCK_BOOL)
    return mck_fail(c, "%s: Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.", op);
  int sdt = mck_promote_types(x1->dtype, x2->dtype);
  int dt = mck_is_float(sdt) ? sdt : MCK_F32;
  int nd;
  int64_t sh[MCK_MAX_DIMS];
  if (mck_broadcast_shape(x1->ndim, x1->shape, x2->ndim, x2->shape, &nd, sh))
    return mck_fail(c, "%s: the shapes of x1 and x2 cannot be broadcast together", op);
  mck_tensor d;
  memset(&d, 0, sizeof d);
  mck_out_shape(&d, dt, nd, sh);
  if (!mck_shape_fits(nd, sh, 8)) return mck_fail(c, "%s: the broadcast shape is too large", op);
  mck_arg dim = {MCK_INT, 0, {0}};
  dim.u.i = -1;
  if (!c->meta) {
    int64_t n = mck_numel(&d);
    d.data = kconv_alloc(n, mck_dtype_size(dt));
    if (!d.data) return mck_fail(c, "%s: out of memory", op);
    int64_t s1[MCK_MAX_DIMS], s2[MCK_MAX_DIMS];
    mck_broadcast_strides(x1, nd, sh, s1);
    mck_broadcast_strides(x2, nd, sh, s2);
    mck_iter it;
    const int64_t *st[2] = {s1, s2};
    int64_t base[2] = {x1->offset, x2->offset};
    mck_iter_init(&it, nd, sh, 2, st, base);
    int fl = mck_is_float(sdt);
    for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) {
      double v;
      if (fl) v = kl_round_as(sdt, mck_getf(x1, it.off[0]) - mck_getf(x2, it.off[1]));
      else {
        uint64_t q = (uint64_t)mck_geti(x1, it.off[0]) - (uint64_t)mck_geti(x2, it.off[1]);
        int64_t w = (int64_t)q; /* wrapped to the integer dtype of the difference */
        switch (sdt) {
        case MCK_I32: w = (int32_t)(uint32_t)q; break;
        case MCK_I16: w = (int16_t)(uint16_t)q; break;
        case MCK_I8: w = (int8_t)(uint8_t)q; break;
        case MCK_U8: w = (uint8_t)q; break;
        default: break;
        }
        v = (double)w;
      }
      mck_setf(&d, k, kl_round_as(dt, v) + eps);
    }
  }
  mck_arg keep = *kconv_arg(in, nin, 4);
  int rc = mck_red_pnorm(c, out, nout, "pairwise_distance", &d, p, &dim, &keep, NULL);
  free(d.data);
  return rc;
}

/* cosine_similarity(x1, x2, int dim=1, float eps=1e-8): sum(x1 / max(|x1|, eps) * x2 /
 * max(|x2|, eps)) over dim, broadcast (PyTorch 1.13 normalises each operand first). */
static inline int kl_cosine_similarity(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const char *op = "aten::cosine_similarity";
  const mck_tensor *x1 = in[0].u.t, *x2 = in[1].u.t;
  int64_t d0 = 1;
  double eps = 1e-8;
  if (kconv_int(c, kconv_arg(in, nin, 2), 1, &d0, op, "dim") ||
      kconv_float(c, kconv_arg(in, nin, 3), 1e-8, &eps, op, "eps"))
    return -1;
  int dt = mck_promote_types(x1->dtype, x2->dtype);
  if (!mck_is_float(dt))
    return mck_fail(c, "%s: expected common dtype to be floating point, yet common dtype is %s", op, mck_dtype_name(dt));
  if (x1->dtype == MCK_F16 || x2->dtype == MCK_F16)
    return mck_fail(c, "%s: \"clamp_min_cpu\" not implemented for 'Half'", op);
  int nd, d;
  int64_t sh[MCK_MAX_DIMS], s1[MCK_MAX_DIMS] = {0}, s2[MCK_MAX_DIMS] = {0};
  if (mck_broadcast_shape(x1->ndim, x1->shape, x2->ndim, x2->shape, &nd, sh))
    return mck_fail(c, "%s: the shapes of x1 and x2 cannot be broadcast together", op);
  if (ks_dim(c, op, d0, nd, &d)) return -1;
  mck_tensor b = *x1; /* the broadcast shape, for the reduction plan */
  b.ndim = nd;
  for (int i = 0; i < nd; i++) b.shape[i] = sh[i], b.stride[i] = 0;
  mck_red r;
  mck_red_plan(&r, &b, nd ? 1u << d : 0, 0);
  if (mck_out(c, out[0].u.t, dt, r.ond, r.oshape)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t;
  mck_broadcast_strides(x1, nd, sh, s1);
  mck_broadcast_strides(x2, nd, sh, s2);
  int64_t os[MCK_MAX_DIMS], ksh[MCK_MAX_DIMS], k1[MCK_MAX_DIMS], k2[MCK_MAX_DIMS];
  int nk = 0;
  for (int i = 0; i < nd; i++)
    if (i != d) {
      ksh[nk] = sh[i], k1[nk] = s1[i], k2[nk] = s2[i], os[nk] = o->stride[nk];
      nk++;
    }
  int64_t len = nd ? sh[d] : 1, t1 = nd ? s1[d] : 0, t2 = nd ? s2[d] : 0;
  mck_iter it;
  const int64_t *st[3] = {k1, k2, os};
  int64_t base[3] = {x1->offset, x2->offset, o->offset};
  mck_iter_init(&it, nk, ksh, 3, st, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    double n1 = 0, n2 = 0, s = 0;
    for (int64_t j = 0; j < len; j++) {
      double a = mck_getf(x1, it.off[0] + j * t1), bb = mck_getf(x2, it.off[1] + j * t2);
      n1 += a * a;
      n2 += bb * bb;
    }
    n1 = kl_round_as(mck_is_float(x1->dtype) ? x1->dtype : dt, sqrt(n1));
    n2 = kl_round_as(mck_is_float(x2->dtype) ? x2->dtype : dt, sqrt(n2));
    if (n1 < eps) n1 = eps;
    if (n2 < eps) n2 = eps;
    for (int64_t j = 0; j < len; j++)
      s += mck_getf(x1, it.off[0] + j * t1) / n1 * (mck_getf(x2, it.off[1] + j * t2) / n2);
    mck_setf(o, it.off[2], s);
  }
  return 0;
}

/* cdist(x1, x2, float p=2, int? compute_mode=None) | _cdist_forward(x1, x2, p, compute_mode):
 * [..., P, M] and [..., R, M] -> [..., P, R], batch dims broadcast; p-norm distances. */
static inline int kl_cdist_as(mck_ctx *c, mck_arg *out, const mck_arg *in, int nin, const char *op) {
  const mck_tensor *x1 = in[0].u.t, *x2 = in[1].u.t;
  double p = 2;
  int64_t mode = 0;
  if (kconv_arg(in, nin, 2)->kind == MCK_UNKNOWN) return mck_fail(c, "%s: p must be a compile-time constant", op);
  if (kconv_float(c, kconv_arg(in, nin, 2), 2, &p, op, "p") ||
      kconv_int(c, kconv_arg(in, nin, 3), 0, &mode, op, "compute_mode"))
    return -1;
  if (x1->ndim < 2) return mck_fail(c, "%s: cdist only supports at least 2D tensors, X1 got: %dD", op, x1->ndim);
  if (x2->ndim < 2) return mck_fail(c, "%s: cdist only supports at least 2D tensors, X2 got: %dD", op, x2->ndim);
  int64_t m = x1->shape[x1->ndim - 1];
  if (m != x2->shape[x2->ndim - 1])
    return mck_fail(c, "%s: X1 and X2 must have the same number of columns. X1: %lld X2: %lld", op, (long long)m, (long long)x2->shape[x2->ndim - 1]);
  if (!mck_is_float(x1->dtype)) return mck_fail(c, "%s: cdist only supports floating-point dtypes, X1 got: %s", op, mck_dtype_name(x1->dtype));
  if (!mck_is_float(x2->dtype)) return mck_fail(c, "%s: cdist only supports floating-point dtypes, X2 got: %s", op, mck_dtype_name(x2->dtype));
  if (x1->dtype != MCK_F32 && x1->dtype != MCK_F64) return mck_fail(c, "%s: \"cdist\" not implemented for %s", op, mck_dtype_name(x1->dtype));
  if (x1->dtype != x2->dtype) return mck_fail(c, "%s: expected both inputs to have one dtype, got %s and %s", op, mck_dtype_name(x1->dtype), mck_dtype_name(x2->dtype));
  if (!(p >= 0)) return mck_fail(c, "%s: cdist only supports non-negative p values", op);
  if (mode < 0 || mode > 2) return mck_fail(c, "%s: possible modes: 0, 1, 2, but was: %lld", op, (long long)mode);
  int nb, nb1 = x1->ndim - 2, nb2 = x2->ndim - 2;
  int64_t sh[MCK_MAX_DIMS], s1[MCK_MAX_DIMS], s2[MCK_MAX_DIMS];
  if (mck_broadcast_shape(nb1, x1->shape, nb2, x2->shape, &nb, sh))
    return mck_fail(c, "%s: the batch dims of X1 and X2 cannot be broadcast together", op);
  if (nb + 2 > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dimensions", op);
  int64_t P = x1->shape[nb1], R = x2->shape[nb2];
  sh[nb] = P;
  sh[nb + 1] = R;
  mck_tensor *o = out[0].u.t;
  if (mck_out(c, o, x1->dtype, nb + 2, sh)) return -1;
  if (c->meta) return 0;
  mck_tensor b1 = *x1, b2 = *x2;
  b1.ndim = nb1, b2.ndim = nb2;
  mck_broadcast_strides(&b1, nb, sh, s1);
  mck_broadcast_strides(&b2, nb, sh, s2);
  int mm = p == 2 && (mode == 1 || (mode == 0 && (P > 25 || R > 25)));
  int dt = x1->dtype;
  int64_t r1 = x1->stride[nb1], c1 = x1->stride[nb1 + 1], r2 = x2->stride[nb2], c2 = x2->stride[nb2 + 1];
  mck_iter it;
  const int64_t *st[3] = {s1, s2, o->stride};
  int64_t base[3] = {x1->offset, x2->offset, o->offset};
  mck_iter_init(&it, nb, sh, 3, st, base);
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it))
    for (int64_t i = 0; i < P; i++)
      for (int64_t j = 0; j < R; j++) {
        double acc = 0, v;
        int64_t a0 = it.off[0] + i * r1, b0 = it.off[1] + j * r2;
        if (mm) {
          double n1 = 0, n2 = 0, dot = 0;
          for (int64_t q = 0; q < m; q++) {
            double a = mck_getf(x1, a0 + q * c1), bb = mck_getf(x2, b0 + q * c2);
            n1 += a * a, n2 += bb * bb, dot += a * bb;
          }
          v = kl_round_as(dt, kl_round_as(dt, n1) + kl_round_as(dt, n2) - 2 * dot);
          v = sqrt(v > 0 ? v : 0);
        } else {
          for (int64_t q = 0; q < m; q++) {
            double a = fabs(mck_getf(x1, a0 + q * c1) - mck_getf(x2, b0 + q * c2));
            if (p == 0) acc += a != 0;
            else if (isinf(p)) acc = a > acc || a != a ? a : acc;
            else if (p == 1) acc += a;
            else if (p == 2) acc += a * a;
            else acc += pow(a, p);
          }
          v = p == 0 || p == 1 || isinf(p) ? acc : p == 2 ? sqrt(acc) : pow(acc, 1.0 / p);
        }
        mck_setf(o, it.off[2] + i * o->stride[nb] + j * o->stride[nb + 1], v);
      }
  return 0;
}
static inline int kl_cdist(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  return kl_cdist_as(c, out, in, nin, "aten::cdist");
}
static inline int kl_cdist_forward(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  return kl_cdist_as(c, out, in, nin, "aten::_cdist_forward");
}

#endif
