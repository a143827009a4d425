/* k_matvec.h — the linalg family's float32 products of few rows (or one), without packing:
 * kl_sdot_rows_act (rows of X against rows of W: linear at small batch, q @ k^T), kl_saxpy_rows,
 * kl_sgemm_small and kl_sgemv. k_linalg.h picks them before the packed GEMM (k_gemm.h).
 * Prefix: kl_.
 */
#ifndef K_MATVEC_H
#define K_MATVEC_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_gemm.h" /* the vector types, the activations */

/* ---- float32 products of few rows, without packing ------------------------------------------ */
/* Y[i, j] = sum_k X[i, k] * W[j, k] (+ bias[j]) for i < m, j < n: X rows at stride ldx and W rows
 * at stride ldw, both contiguous along k (linear's weight, or B of A @ B when B's k is
 * contiguous: q @ k^T); Y rows at stride ldy, contiguous along j. Each group of four W rows is
 * read once per pair of X rows, straight from the caller's memory into vector registers, with
 * one horizontal reduction per four outputs: no allocation, no packing, so a linear at batch 1
 * costs its weight read. Accumulation is in float, as PyTorch's BLAS does. */
#define KL_DOT_ROWS 8 /* linear takes this path up to this many rows (else the packed GEMM) */
#ifdef KCONV_VW
#define KL_AINLINE __attribute__((always_inline))
/* p[0..n) for 0 < n < KCONV_VW, zero beyond (masked: nothing past p + n is touched) */
static inline KL_AINLINE kconv_vf kl_vtail(const float *p, int64_t n) {
#if KCONV_VW == 16
  return (kconv_vf)_mm512_maskz_loadu_ps((__mmask16)((1u << n) - 1u), p);
#else
  static const int32_t mk[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  return (kconv_vf)_mm256_maskload_ps(p, _mm256_loadu_si256((const __m256i *)(mk + 8 - n)));
#endif
}
static inline KL_AINLINE __m256 kl_fold256(kconv_vf s) {
#if KCONV_VW == 16
  __m512 v = (__m512)s;
  return _mm256_add_ps(_mm512_castps512_ps256(v),
                       _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
#else
  return (__m256)s;
#endif
}
/* {sum(s0), sum(s1), sum(s2), sum(s3)} */
static inline KL_AINLINE __m128 kl_hsum4(kconv_vf s0, kconv_vf s1, kconv_vf s2, kconv_vf s3) {
  __m256 h = _mm256_hadd_ps(_mm256_hadd_ps(kl_fold256(s0), kl_fold256(s1)),
                            _mm256_hadd_ps(kl_fold256(s2), kl_fold256(s3)));
  return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}
/* r0 (and r1 when two) = the dot products of x0 (x1) with the four rows w[0..3]. */
static inline KL_AINLINE void kl_dot4(int two, int64_t k, const float *x0, const float *x1,
                                      const float *const *w, __m128 *r0, __m128 *r1) {
  const float *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];
  kconv_vf a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, b0 = {0}, b1 = {0}, b2 = {0}, b3 = {0};
  int64_t p = 0;
  for (; p + KCONV_VW <= k; p += KCONV_VW) {
    kconv_vf u0 = *(const kconv_vfu *)(w0 + p), u1 = *(const kconv_vfu *)(w1 + p);
    kconv_vf u2 = *(const kconv_vfu *)(w2 + p), u3 = *(const kconv_vfu *)(w3 + p);
    kconv_vf v = *(const kconv_vfu *)(x0 + p);
    a0 = KCONV_FMA(v, u0, a0);
    a1 = KCONV_FMA(v, u1, a1);
    a2 = KCONV_FMA(v, u2, a2);
    a3 = KCONV_FMA(v, u3, a3);
    if (two) {
      v = *(const kconv_vfu *)(x1 + p);
      b0 = KCONV_FMA(v, u0, b0);
      b1 = KCONV_FMA(v, u1, b1);
      b2 = KCONV_FMA(v, u2, b2);
      b3 = KCONV_FMA(v, u3, b3);
    }
  }
  if (p < k) {
    int64_t t = k - p;
    kconv_vf u0 = kl_vtail(w0 + p, t), u1 = kl_vtail(w1 + p, t);
    kconv_vf u2 = kl_vtail(w2 + p, t), u3 = kl_vtail(w3 + p, t);
    kconv_vf v = kl_vtail(x0 + p, t);
    a0 = KCONV_FMA(v, u0, a0);
    a1 = KCONV_FMA(v, u1, a1);
    a2 = KCONV_FMA(v, u2, a2);
    a3 = KCONV_FMA(v, u3, a3);
    if (two) {
      v = kl_vtail(x1 + p, t);
      b0 = KCONV_FMA(v, u0, b0);
      b1 = KCONV_FMA(v, u1, b1);
      b2 = KCONV_FMA(v, u2, b2);
      b3 = KCONV_FMA(v, u3, b3);
    }
  }
  *r0 = kl_hsum4(a0, a1, a2, a3);
  if (two) *r1 = kl_hsum4(b0, b1, b2, b3);
}
/* bias, then relu / hardtanh on four finished sums (the float compares of kconv_act_run: NaN
 * kept, relu(-0) = +0); other activations run over the output afterwards. */
static inline KL_AINLINE __m128 kl_fin4(__m128 r, const float *bias, int act, __m128 lo,
                                        __m128 hi) {
  if (bias) r = _mm_add_ps(r, _mm_loadu_ps(bias));
  if (act == KCONV_ACT_RELU)
    r = _mm_and_ps(r, _mm_or_ps(_mm_cmpgt_ps(r, _mm_setzero_ps()), _mm_cmpunord_ps(r, r)));
  else if (act == KCONV_ACT_HARDTANH)
    r = _mm_min_ps(hi, _mm_max_ps(lo, r)); /* maxps/minps return the second operand on NaN */
  return r;
}
static inline void kl_sdot_rows_act(int64_t m, int64_t n, int64_t k, const float *x,
                                    int64_t ldx, const float *w, int64_t ldw, const float *bias,
                                    float *y, int64_t ldy, int act, double lo, double hi) {
  __m128 lv = _mm_set1_ps((float)lo), hv = _mm_set1_ps((float)hi);
  int va = act == KCONV_ACT_RELU || act == KCONV_ACT_HARDTANH ? act : KCONV_ACT_NONE;
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const float *wr[4] = {w + j * ldw, w + (j + 1) * ldw, w + (j + 2) * ldw, w + (j + 3) * ldw};
    const float *bj = bias ? bias + j : NULL;
    int64_t i = 0;
    for (; i + 2 <= m; i += 2) {
      __m128 r0, r1;
      kl_dot4(1, k, x + i * ldx, x + (i + 1) * ldx, wr, &r0, &r1);
      _mm_storeu_ps(y + i * ldy + j, kl_fin4(r0, bj, va, lv, hv));
      _mm_storeu_ps(y + (i + 1) * ldy + j, kl_fin4(r1, bj, va, lv, hv));
    }
    if (i < m) {
      __m128 r0, r1;
      kl_dot4(0, k, x + i * ldx, x, wr, &r0, &r1);
      _mm_storeu_ps(y + i * ldy + j, kl_fin4(r0, bj, va, lv, hv));
    }
  }
  if (j < n) { /* 1..3 columns left: the last W row repeats, only the real sums are stored */
    int64_t nj = n - j;
    const float *wr[4];
    float bt[4] = {0, 0, 0, 0}, t[4];
    for (int q = 0; q < 4; q++) wr[q] = w + (j + (q < nj ? q : nj - 1)) * ldw;
    if (bias)
      for (int q = 0; q < nj; q++) bt[q] = bias[j + q];
    for (int64_t i = 0; i < m; i++) {
      __m128 r0, r1;
      kl_dot4(0, k, x + i * ldx, x, wr, &r0, &r1);
      _mm_storeu_ps(t, kl_fin4(r0, bias ? bt : NULL, va, lv, hv));
      for (int q = 0; q < nj; q++) y[i * ldy + j + q] = t[q];
    }
  }
  if (act != va)
    for (int64_t i = 0; i < m; i++) kconv_act_run(act, lo, hi, y + i * ldy, n, 1);
}
#else
static inline void kl_sdot_rows_act(int64_t m, int64_t n, int64_t k, const float *x,
                                    int64_t ldx, const float *w, int64_t ldw, const float *bias,
                                    float *y, int64_t ldy, int act, double lo, double hi) {
  for (int64_t j = 0; j < n; j++) {
    const float *wj = w + j * ldw;
    for (int64_t i = 0; i < m; i++) {
      const float *xi = x + i * ldx;
      float part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      int64_t p = 0;
      for (; p + 8 <= k; p += 8)
        for (int l = 0; l < 8; l++) part[l] += xi[p + l] * wj[p + l];
      float s = 0.0f;
      for (; p < k; p++) s += xi[p] * wj[p];
      s += ((part[0] + part[4]) + (part[1] + part[5])) + ((part[2] + part[6]) + (part[3] + part[7]));
      y[i * ldy + j] = bias ? s + bias[j] : s;
    }
  }
  for (int64_t i = 0; i < m; i++) kconv_act_run(act, lo, hi, y + i * ldy, n, 1);
}
#endif

/* Y[i, :] = sum_k X[i, k] * B[k, :] for i < m (B's rows at stride ldb, contiguous along j; X
 * at any strides; Y rows at stride ldy, contiguous): a small product (attn @ v) in broadcast-FMA
 * form, four Y rows held in registers per vector of columns. */
static inline void kl_saxpy_rows(int64_t m, int64_t n, int64_t k, const float *x, int64_t sxm,
                                 int64_t sxk, const float *b, int64_t ldb, float *y, int64_t ldy) {
#ifdef KCONV_VW
  int64_t i = 0;
  for (; i + 4 <= m; i += 4) {
    const float *x0 = x + i * sxm, *x1 = x0 + sxm, *x2 = x1 + sxm, *x3 = x2 + sxm;
    for (int64_t j = 0; j < n; j += KCONV_VW) {
      kconv_vf c0 = {0}, c1 = {0}, c2 = {0}, c3 = {0};
      int full = n - j >= KCONV_VW;
      for (int64_t p = 0; p < k; p++) {
        const float *bp = b + p * ldb + j;
        kconv_vf v = full ? *(const kconv_vfu *)bp : kl_vtail(bp, n - j);
        c0 = KCONV_FMA(KCONV_SET1(x0[p * sxk]), v, c0);
        c1 = KCONV_FMA(KCONV_SET1(x1[p * sxk]), v, c1);
        c2 = KCONV_FMA(KCONV_SET1(x2[p * sxk]), v, c2);
        c3 = KCONV_FMA(KCONV_SET1(x3[p * sxk]), v, c3);
      }
      float *yr = y + i * ldy + j;
      if (full) {
        *(kconv_vfu *)yr = c0;
        *(kconv_vfu *)(yr + ldy) = c1;
        *(kconv_vfu *)(yr + 2 * ldy) = c2;
        *(kconv_vfu *)(yr + 3 * ldy) = c3;
      } else {
        float t[4][KCONV_VW];
        *(kconv_vfu *)t[0] = c0;
        *(kconv_vfu *)t[1] = c1;
        *(kconv_vfu *)t[2] = c2;
        *(kconv_vfu *)t[3] = c3;
        for (int r = 0; r < 4; r++)
          for (int64_t q = 0; q < n - j; q++) yr[r * ldy + q] = t[r][q];
      }
    }
  }
  for (; i < m; i++) {
    const float *x0 = x + i * sxm;
    for (int64_t j = 0; j < n; j += KCONV_VW) {
      kconv_vf c0 = {0};
      int full = n - j >= KCONV_VW;
      for (int64_t p = 0; p < k; p++) {
        const float *bp = b + p * ldb + j;
        c0 = KCONV_FMA(KCONV_SET1(x0[p * sxk]), full ? *(const kconv_vfu *)bp : kl_vtail(bp, n - j), c0);
      }
      float *yr = y + i * ldy + j;
      if (full) {
        *(kconv_vfu *)yr = c0;
      } else {
        float t[KCONV_VW];
        *(kconv_vfu *)t = c0;
        for (int64_t q = 0; q < n - j; q++) yr[q] = t[q];
      }
    }
  }
#else
  for (int64_t i = 0; i < m; i++) {
    float *yr = y + i * ldy;
    for (int64_t j = 0; j < n; j++) yr[j] = 0.0f;
    for (int64_t p = 0; p < k; p++) {
      float a = x[i * sxm + p * sxk];
      const float *bp = b + p * ldb;
      for (int64_t j = 0; j < n; j++) yr[j] += a * bp[j];
    }
  }
#endif
}

/* Small float32 products C = A @ B (alpha 1, beta 0, C contiguous along j) that skip the packed
 * GEMM: few rows, or a product small enough that packing would cost more than it saves. 0 when
 * done, 1 when not applicable. */
#define KL_SMALL_MNK 32768
static inline int kl_sgemm_small(int64_t m, int64_t n, int64_t kdim, const float *a, int64_t sam,
                                 int64_t sak, const float *b, int64_t sbk, int64_t sbn,
                                 float *cp, int64_t scm, int64_t scn) {
  if (scn != 1 || kdim == 0) return 1;
  int small = m * n * kdim <= KL_SMALL_MNK;
  if ((sak == 1 || kdim == 1) && (sbk == 1 || kdim == 1) && (small || m <= KL_DOT_ROWS)) {
    kl_sdot_rows_act(m, n, kdim, a, sam, b, sbn, NULL, cp, scm, KCONV_ACT_NONE, 0, 0);
    return 0;
  }
  if ((sbn == 1 || n == 1) && small) {
    kl_saxpy_rows(m, n, kdim, a, sam, sak, b, sbk, cp, scm);
    return 0;
  }
  return 1;
}

/* c[j] = alpha * sum_k a[k] * B[k, j] (+ beta * c[j]) for one row a (M == 1). */
static inline int kl_sgemv(int64_t n, int64_t kdim, float alpha, const float *a, int64_t sak,
                           const float *b, int64_t sbk, int64_t sbn, float beta, float *cp,
                           int64_t scn) {
  float *own = NULL;
  const float *av = a;
  if (sak != 1) {
    own = (float *)malloc(sizeof(float) * (size_t)kdim);
    if (!own) return -1;
    for (int64_t k = 0; k < kdim; k++) own[k] = a[k * sak];
    av = own;
  }
  if (sbk == 1) {
    int64_t j = 0;
#ifdef KCONV_VW
    /* four dot products at once, KCONV_VW lanes each, then one horizontal sum per column */
    for (; j + 4 <= n; j += 4) {
      const float *b0 = b + j * sbn, *b1 = b0 + sbn, *b2 = b1 + sbn, *b3 = b2 + sbn;
      kconv_vf s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
      int64_t k = 0;
      for (; k + KCONV_VW <= kdim; k += KCONV_VW) {
        kconv_vf x = *(const kconv_vfu *)(av + k);
        s0 = KCONV_FMA(x, *(const kconv_vfu *)(b0 + k), s0);
        s1 = KCONV_FMA(x, *(const kconv_vfu *)(b1 + k), s1);
        s2 = KCONV_FMA(x, *(const kconv_vfu *)(b2 + k), s2);
        s3 = KCONV_FMA(x, *(const kconv_vfu *)(b3 + k), s3);
      }
      float r[4] = {0, 0, 0, 0};
      for (int l = 0; l < KCONV_VW; l++) r[0] += s0[l], r[1] += s1[l], r[2] += s2[l], r[3] += s3[l];
      for (; k < kdim; k++) {
        r[0] += av[k] * b0[k];
        r[1] += av[k] * b1[k];
        r[2] += av[k] * b2[k];
        r[3] += av[k] * b3[k];
      }
      for (int q = 0; q < 4; q++) {
        float *o = cp + (j + q) * scn;
        *o = beta == 0.0f ? alpha * r[q] : alpha * r[q] + beta * *o;
      }
    }
#endif
    for (; j < n; j++) {
      const float *bj = b + j * sbn;
      float part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      int64_t k = 0;
      for (; k + 8 <= kdim; k += 8)
        for (int l = 0; l < 8; l++) part[l] += av[k + l] * bj[k + l];
      float s = 0.0f;
      for (int64_t q = 0; q < kdim - k; q++) s += av[k + q] * bj[k + q];
      s += ((part[0] + part[4]) + (part[1] + part[5])) + ((part[2] + part[6]) + (part[3] + part[7]));
      float *o = cp + j * scn;
      *o = beta == 0.0f ? alpha * s : alpha * s + beta * *o;
    }
  } else {
    float *acc = cp;
    if (scn != 1 || beta != 0.0f) {
      acc = (float *)malloc(sizeof(float) * (size_t)n);
      if (!acc) {
        free(own);
        return -1;
      }
    }
    for (int64_t j = 0; j < n; j++) acc[j] = 0.0f;
    for (int64_t k = 0; k < kdim; k++) {
      const float *bk = b + k * sbk;
      float x = av[k];
      if (sbn == 1)
        for (int64_t j = 0; j < n; j++) acc[j] += x * bk[j];
      else
        for (int64_t j = 0; j < n; j++) acc[j] += x * bk[j * sbn];
    }
    if (acc == cp) {
      for (int64_t j = 0; j < n; j++) cp[j] = alpha * acc[j];
    } else {
      for (int64_t j = 0; j < n; j++)
        cp[j * scn] = beta == 0.0f ? alpha * acc[j] : alpha * acc[j] + beta * cp[j * scn];
      free(acc);
    }
  }
  free(own);
  return 0;
}

#endif
