/* k_gemm.h — the float32 GEMM core: packing, register tiles, the store epilogue (bias and
 * fused activation, k_act.h), operands (strided, prepacked in canonical panels, or the implicit
 * im2col of a convolution) and the split of one product across threads (k_thread.h). The conv
 * family (k_conv.h, k_dw.h) and the linalg family's kl_sgemm (k_linalg.h) run on it.
 *
 * Prefix: kconv_.
 */
#ifndef MC_K_GEMM_H
#define MC_K_GEMM_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_args.h"
#include "k_thread.h"
#include "k_act.h"

/* What the GEMM does to a finished tile of C (after its last K block): add a per-row or
 * per-column bias, then the activation. */
typedef struct kconv_epi {
  const float *bias; /* NULL: none; indexed by C's row (bias_rows) or column */
  int bias_rows;
  int act;
  double lo, hi;
} kconv_epi;

/* Geometry with the op's 1..3 spatial dims right-aligned into 3 (missing ones are size 1). */
typedef struct kconv_geom {
  int nsp, transposed, batched;
  int64_t N, Cin, Cout, G;
  int64_t in[3], out[3], k[3], s[3], d[3], plo[3], phi[3], opad[3];
} kconv_geom;

static inline int64_t kconv_prod3(const int64_t *v) { return v[0] * v[1] * v[2]; }

/* Valid output positions o (0 <= o < nout) for which o*s - p + kk*d falls inside [0, nin). */
static inline void kconv_range(int64_t nin, int64_t nout, int64_t s, int64_t p, int64_t off,
                               int64_t *lo, int64_t *hi) {
  /* need 0 <= o*s + (off - p) < nin */
  int64_t base = off - p;
  *lo = kconv_max(0, kconv_ceildiv(-base, s));
  *hi = kconv_min(nout, kconv_floordiv(nin - 1 - base, s) + 1);
  if (*hi < *lo) *hi = *lo;
}

/* ---- SGEMM: C[M x N] = alpha * A[M x K] * B[K x N] (+ C) ------------------------------------ */
/* A, B and C are accessed through (row, column) strides, so transposed operands cost nothing
 * extra (a conv with few output positions computes C^T = B^T A^T to fill the register tile):
 * they are packed into MR-row / NR-column panels (zero-padded at the edges) and a register
 * tile of MR x NR accumulators runs over each pair of panels. Loop order and block sizes follow
 * BLIS: an NR-wide B micro-panel stays in L1, an MC x KC block of A in L2, a KC x NC panel of B
 * in L2/L3. The tile is written with GCC/clang vector extensions when the target has AVX-512
 * (12 x 32: 24 zmm accumulators) or AVX2 (6 x 16: 12 ymm accumulators), chosen at compile time
 * from the -m flags (-march=native), and with arm_neon.h intrinsics on Arm NEON targets
 * (aarch64 12 x 8, Armv7 -mfpu=neon 4 x 8; -DMC_NO_SIMD keeps the portable tile there);
 * elsewhere (and under tcc) it is portable scalar C that compilers still vectorise. The linalg family's kl_sgemm runs on this same core (k_linalg.h
 * includes this header; the paste order of generated C puts k_conv.h first). */
#if defined(__GNUC__) && !defined(__TINYC__) && defined(__AVX512F__)
#define KCONV_VW 16
#define KCONV_MR 12
#define KCONV_NV 2
#elif defined(__GNUC__) && !defined(__TINYC__) && defined(__AVX2__) && defined(__FMA__)
#define KCONV_VW 8
#define KCONV_MR 6
#define KCONV_NV 2
#elif defined(__GNUC__) && !defined(__TINYC__) && defined(__ARM_NEON) && !defined(MC_NO_SIMD)
/* Arm NEON (aarch64; Armv7 with -mfpu=neon): arm_neon.h intrinsics, see kconv_micro */
#include <arm_neon.h>
#define KCONV_NEON 1
#if defined(__aarch64__)
#define KCONV_MR 12
#else
#define KCONV_MR 4
#endif
#define KCONV_NR 8
#else
#define KCONV_MR 6
#endif
#ifdef KCONV_VW
#include <immintrin.h>
#define KCONV_NR (KCONV_VW * KCONV_NV)
typedef float kconv_vf __attribute__((vector_size(KCONV_VW * 4)));
typedef float kconv_vfu __attribute__((vector_size(KCONV_VW * 4), aligned(4)));
typedef int kconv_vi __attribute__((vector_size(KCONV_VW * 4)));
/* acc + x * y in one rounding: -std=c11 turns GCC's FMA contraction off, so it is explicit */
#if KCONV_VW == 16
#define KCONV_FMA(x, y, acc) ((kconv_vf)_mm512_fmadd_ps((__m512)(x), (__m512)(y), (__m512)(acc)))
#define KCONV_SET1(f) ((kconv_vf)_mm512_set1_ps(f))
#else
#define KCONV_FMA(x, y, acc) ((kconv_vf)_mm256_fmadd_ps((__m256)(x), (__m256)(y), (__m256)(acc)))
#define KCONV_SET1(f) ((kconv_vf)_mm256_set1_ps(f))
#endif
#elif !defined(KCONV_NEON)
#define KCONV_NR 16
#endif
#ifndef KCONV_KC
#define KCONV_KC 512
#endif
#ifndef KCONV_MC
#define KCONV_MC (KCONV_MR * 16)
#endif
#ifndef KCONV_NC
#define KCONV_NC 1024
#endif

typedef struct kconv_gemm_ws {
  float *ap; /* KCONV_MC * KCONV_KC */
  float *bp; /* KCONV_KC * KCONV_NC */
  int nthreads; /* threads the product may use (<= 1: this one); see "threads" below */
} kconv_gemm_ws;


/* Workspace for products of at most M x N x K (packed panels, 64-byte aligned, from the
 * per-thread scratch: nothing to free). -1 when out of memory. */
static inline int kconv_gemm_ws_init_for(kconv_gemm_ws *w, int64_t M, int64_t N, int64_t K) {
  int64_t mc = kconv_min(KCONV_MC, (M + KCONV_MR - 1) / KCONV_MR * KCONV_MR);
  int64_t nc = kconv_min(KCONV_NC, (N + KCONV_NR - 1) / KCONV_NR * KCONV_NR);
  int64_t kc = kconv_max(1, kconv_min(KCONV_KC, K));
  w->nthreads = 1;
  w->ap = kconv_scratch(0, kconv_max(mc, KCONV_MR) * kc);
  w->bp = kconv_scratch(1, kconv_max(nc, KCONV_NR) * kc);
  return w->ap && w->bp ? 0 : -1;
}
static inline int kconv_gemm_ws_init(kconv_gemm_ws *w) {
  return kconv_gemm_ws_init_for(w, KCONV_MC, KCONV_NC, KCONV_KC);
}
static inline void kconv_gemm_ws_free(kconv_gemm_ws *w) { w->ap = w->bp = NULL; }

static inline void kconv_pack_a(int64_t mc, int64_t kc, const float *a, int64_t rsa, int64_t csa,
                                float *ap) {
  for (int64_t i0 = 0; i0 < mc; i0 += KCONV_MR) {
    int64_t mr = kconv_min(KCONV_MR, mc - i0);
    if (mr == KCONV_MR && csa == 1) {
      for (int64_t i = 0; i < KCONV_MR; i++) {
        const float *src = a + (i0 + i) * rsa;
        for (int64_t p = 0; p < kc; p++) ap[p * KCONV_MR + i] = src[p];
      }
      ap += kc * KCONV_MR;
      continue;
    }
    for (int64_t p = 0; p < kc; p++) {
      const float *src = a + i0 * rsa + p * csa;
      for (int64_t i = 0; i < KCONV_MR; i++) *ap++ = i < mr ? src[i * rsa] : 0.0f;
    }
  }
}

static inline void kconv_pack_b(int64_t kc, int64_t nc, const float *b, int64_t rsb, int64_t csb,
                                float *bp) {
  for (int64_t j0 = 0; j0 < nc; j0 += KCONV_NR) {
    int64_t nr = kconv_min(KCONV_NR, nc - j0);
    if (nr == KCONV_NR && csb == 1) {
      for (int64_t p = 0; p < kc; p++, bp += KCONV_NR) {
        const float *src = b + p * rsb + j0;
        for (int64_t j = 0; j < KCONV_NR; j++) bp[j] = src[j];
      }
    } else if (rsb == 1) {
      for (int64_t j = 0; j < KCONV_NR; j++) {
        const float *src = b + (j0 + j) * csb;
        if (j < nr)
          for (int64_t p = 0; p < kc; p++) bp[p * KCONV_NR + j] = src[p];
        else
          for (int64_t p = 0; p < kc; p++) bp[p * KCONV_NR + j] = 0.0f;
      }
      bp += kc * KCONV_NR;
    } else {
      for (int64_t p = 0; p < kc; p++, bp += KCONV_NR) {
        const float *src = b + p * rsb + j0 * csb;
        for (int64_t j = 0; j < KCONV_NR; j++) bp[j] = j < nr ? src[j * csb] : 0.0f;
      }
    }
  }
}

/* Writes the finished tile t (MR x NR, row-major) into C: C = alpha * t (over) or
 * C += alpha * t, for the mr x nr corner that exists. */
static inline void kconv_tile_store(const float *t, float *cp, int64_t rsc, int64_t csc,
                                    int64_t mr, int64_t nr, float alpha, int over) {
  for (int64_t i = 0; i < mr; i++) {
    float *row = cp + i * rsc;
    const float *ti = t + i * KCONV_NR;
    if (over)
      for (int64_t j = 0; j < nr; j++) row[j * csc] = alpha * ti[j];
    else
      for (int64_t j = 0; j < nr; j++) row[j * csc] += alpha * ti[j];
  }
}

#ifdef KCONV_VW
/* The register tile: MR rows of NV vectors, each row updated with one broadcast of A (which
 * the compiler folds into the FMA's memory operand) against the NV vectors of one B row. */
static inline int kconv_micro(int64_t kc, const float *restrict ap, int64_t as,
                              const float *restrict bp, int64_t bs, float *restrict cp,
                              int64_t rsc, int64_t csc, int64_t mr, int64_t nr, float alpha,
                              int over, const kconv_epi *e, int64_t i0, int64_t j0) {
  kconv_vf c[KCONV_MR][KCONV_NV];
  /* C's tile is read (or written) after the K loop: start fetching it now, since its rows are
   * far apart (a row stride of 2^k floats also maps them onto few cache sets) */
  if (csc == 1)
    for (int i = 0; i < KCONV_MR && i < mr; i++)
      for (int v = 0; v < KCONV_NV; v++) __builtin_prefetch(cp + i * rsc + v * KCONV_VW, 1);
  for (int i = 0; i < KCONV_MR; i++)
    for (int v = 0; v < KCONV_NV; v++) c[i][v] = (kconv_vf){0};
  for (int64_t p = 0; p < kc; p++) {
    const float *a = ap + p * as;
    kconv_vf b[KCONV_NV];
    for (int v = 0; v < KCONV_NV; v++) b[v] = *(const kconv_vfu *)(bp + p * bs + v * KCONV_VW);
    for (int i = 0; i < KCONV_MR; i++) {
      kconv_vf ai = KCONV_SET1(a[i]);
      for (int v = 0; v < KCONV_NV; v++) c[i][v] = KCONV_FMA(ai, b[v], c[i][v]);
    }
  }
  if (mr == KCONV_MR && nr == KCONV_NR && csc == 1) {
    /* e (the last K block's epilogue): bias, relu and hardtanh in registers, with the scalar
     * epilogue's arithmetic (acc + b; NaN passes; relu(-0) = +0) */
    int fe = e && (e->act == KCONV_ACT_NONE || e->act == KCONV_ACT_RELU || e->act == KCONV_ACT_HARDTANH);
    kconv_vf zero = (kconv_vf){0}, lo = KCONV_SET1(fe ? (float)e->lo : 0.0f);
    kconv_vf hi = KCONV_SET1(fe ? (float)e->hi : 0.0f);
    for (int i = 0; i < KCONV_MR; i++)
      for (int v = 0; v < KCONV_NV; v++) {
        kconv_vfu *o = (kconv_vfu *)(cp + i * rsc + v * KCONV_VW);
        kconv_vf r = over ? alpha * c[i][v] : *o + alpha * c[i][v];
        if (fe) {
          if (e->bias)
            r += e->bias_rows ? KCONV_SET1(e->bias[i0 + i]) : *(const kconv_vfu *)(e->bias + j0 + v * KCONV_VW);
          if (e->act == KCONV_ACT_RELU) {
            kconv_vi m = (r > zero) | (r != r);
            r = (kconv_vf)((kconv_vi)r & m);
          } else if (e->act == KCONV_ACT_HARDTANH) {
            kconv_vi m = r < lo;
            r = (kconv_vf)(((kconv_vi)lo & m) | ((kconv_vi)r & ~m));
            m = r > hi;
            r = (kconv_vf)(((kconv_vi)hi & m) | ((kconv_vi)r & ~m));
          }
        }
        *o = r;
      }
    return fe;
  }
  float t[KCONV_MR * KCONV_NR];
  for (int i = 0; i < KCONV_MR; i++)
    for (int v = 0; v < KCONV_NV; v++) *(kconv_vfu *)(t + i * KCONV_NR + v * KCONV_VW) = c[i][v];
  kconv_tile_store(t, cp, rsc, csc, mr, nr, alpha, over);
  return 0;
}
#elif defined(KCONV_NEON)
/* The NEON register tile. aarch64: 12 x 8, 24 accumulators (two q registers per row), each
 * k step three loads of A and two of B, every multiply-add by a lane of A (fmla by element),
 * fused like the AVX tiles. Armv7: 4 x 8 in 8 of its 16 q registers, vmla by a lane of A: not
 * fused (product rounded, then sum), so each element's chain is the portable tile's a * b + c,
 * except that Armv7 NEON flushes denormal inputs and results to zero. Either way each element
 * of C is one chain over k in order (no reordered sums); the finished tile goes through the
 * same register epilogue as the AVX tiles. */
#if defined(__aarch64__)
#define KCONV_NEON_FMA(c, b, a, l) vfmaq_laneq_f32(c, b, a, l)
#endif
/* r = alpha * acc (over) or o + alpha * acc, then (fe) bias and relu / hardtanh as the scalar
 * epilogue computes them (acc + b; NaN passes; relu(-0) = +0) */
static inline void kconv_neon_out(float *o, float32x4_t r, float32x4_t va, int over, int fe,
                                  int act, const float *bias_col, float bias_row, int hb,
                                  float32x4_t lo, float32x4_t hi) {
  r = vmulq_f32(va, r);
  if (!over) r = vaddq_f32(vld1q_f32(o), r);
  if (fe) {
    if (hb) r = vaddq_f32(r, bias_col ? vld1q_f32(bias_col) : vdupq_n_f32(bias_row));
    if (act == KCONV_ACT_RELU) {
      uint32x4_t m = vorrq_u32(vcgtq_f32(r, vdupq_n_f32(0.0f)), vmvnq_u32(vceqq_f32(r, r)));
      r = vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(r), m));
    } else if (act == KCONV_ACT_HARDTANH) {
      r = vbslq_f32(vcltq_f32(r, lo), lo, vbslq_f32(vcgtq_f32(r, hi), hi, r));
    }
  }
  vst1q_f32(o, r);
}

static inline int kconv_micro(int64_t kc, const float *restrict ap, int64_t as,
                              const float *restrict bp, int64_t bs, float *restrict cp,
                              int64_t rsc, int64_t csc, int64_t mr, int64_t nr, float alpha,
                              int over, const kconv_epi *e, int64_t i0, int64_t j0) {
  float32x4_t c[KCONV_MR][2];
  if (csc == 1)
    for (int i = 0; i < KCONV_MR && i < mr; i++) __builtin_prefetch(cp + i * rsc, 1);
  {
    const float32x4_t z = vdupq_n_f32(0.0f);
#if defined(__aarch64__)
    /* named accumulators: the tile stays in registers at -O1 as well */
    float32x4_t c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z, c30 = z, c31 = z;
    float32x4_t c40 = z, c41 = z, c50 = z, c51 = z, c60 = z, c61 = z, c70 = z, c71 = z;
    float32x4_t c80 = z, c81 = z, c90 = z, c91 = z, ca0 = z, ca1 = z, cb0 = z, cb1 = z;
    for (int64_t p = 0; p < kc; p++) {
      const float *a = ap + p * as, *b = bp + p * bs;
      float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4);
      float32x4_t a0 = vld1q_f32(a), a1 = vld1q_f32(a + 4), a2 = vld1q_f32(a + 8);
      c00 = KCONV_NEON_FMA(c00, b0, a0, 0); c01 = KCONV_NEON_FMA(c01, b1, a0, 0);
      c10 = KCONV_NEON_FMA(c10, b0, a0, 1); c11 = KCONV_NEON_FMA(c11, b1, a0, 1);
      c20 = KCONV_NEON_FMA(c20, b0, a0, 2); c21 = KCONV_NEON_FMA(c21, b1, a0, 2);
      c30 = KCONV_NEON_FMA(c30, b0, a0, 3); c31 = KCONV_NEON_FMA(c31, b1, a0, 3);
      c40 = KCONV_NEON_FMA(c40, b0, a1, 0); c41 = KCONV_NEON_FMA(c41, b1, a1, 0);
      c50 = KCONV_NEON_FMA(c50, b0, a1, 1); c51 = KCONV_NEON_FMA(c51, b1, a1, 1);
      c60 = KCONV_NEON_FMA(c60, b0, a1, 2); c61 = KCONV_NEON_FMA(c61, b1, a1, 2);
      c70 = KCONV_NEON_FMA(c70, b0, a1, 3); c71 = KCONV_NEON_FMA(c71, b1, a1, 3);
      c80 = KCONV_NEON_FMA(c80, b0, a2, 0); c81 = KCONV_NEON_FMA(c81, b1, a2, 0);
      c90 = KCONV_NEON_FMA(c90, b0, a2, 1); c91 = KCONV_NEON_FMA(c91, b1, a2, 1);
      ca0 = KCONV_NEON_FMA(ca0, b0, a2, 2); ca1 = KCONV_NEON_FMA(ca1, b1, a2, 2);
      cb0 = KCONV_NEON_FMA(cb0, b0, a2, 3); cb1 = KCONV_NEON_FMA(cb1, b1, a2, 3);
    }
    c[0][0] = c00, c[0][1] = c01, c[1][0] = c10, c[1][1] = c11, c[2][0] = c20, c[2][1] = c21;
    c[3][0] = c30, c[3][1] = c31, c[4][0] = c40, c[4][1] = c41, c[5][0] = c50, c[5][1] = c51;
    c[6][0] = c60, c[6][1] = c61, c[7][0] = c70, c[7][1] = c71, c[8][0] = c80, c[8][1] = c81;
    c[9][0] = c90, c[9][1] = c91, c[10][0] = ca0, c[10][1] = ca1, c[11][0] = cb0, c[11][1] = cb1;
#else
    float32x4_t c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z, c30 = z, c31 = z;
    for (int64_t p = 0; p < kc; p++) {
      const float *a = ap + p * as, *b = bp + p * bs;
      float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4), a0 = vld1q_f32(a);
      float32x2_t al = vget_low_f32(a0), ah = vget_high_f32(a0);
      c00 = vmlaq_lane_f32(c00, b0, al, 0); c01 = vmlaq_lane_f32(c01, b1, al, 0);
      c10 = vmlaq_lane_f32(c10, b0, al, 1); c11 = vmlaq_lane_f32(c11, b1, al, 1);
      c20 = vmlaq_lane_f32(c20, b0, ah, 0); c21 = vmlaq_lane_f32(c21, b1, ah, 0);
      c30 = vmlaq_lane_f32(c30, b0, ah, 1); c31 = vmlaq_lane_f32(c31, b1, ah, 1);
    }
    c[0][0] = c00, c[0][1] = c01, c[1][0] = c10, c[1][1] = c11;
    c[2][0] = c20, c[2][1] = c21, c[3][0] = c30, c[3][1] = c31;
#endif
  }
  if (mr == KCONV_MR && nr == KCONV_NR && csc == 1) {
    int fe = e && (e->act == KCONV_ACT_NONE || e->act == KCONV_ACT_RELU || e->act == KCONV_ACT_HARDTANH);
    int act = fe ? e->act : KCONV_ACT_NONE, hb = fe && e->bias, rows = hb && e->bias_rows;
    float32x4_t va = vdupq_n_f32(alpha);
    float32x4_t lo = vdupq_n_f32(fe ? (float)e->lo : 0.0f), hi = vdupq_n_f32(fe ? (float)e->hi : 0.0f);
    for (int i = 0; i < KCONV_MR; i++) {
      float *o = cp + i * rsc;
      float br = rows ? e->bias[i0 + i] : 0.0f;
      const float *bc = hb && !rows ? e->bias + j0 : NULL;
      kconv_neon_out(o, c[i][0], va, over, fe, act, bc, br, hb, lo, hi);
      kconv_neon_out(o + 4, c[i][1], va, over, fe, act, bc ? bc + 4 : NULL, br, hb, lo, hi);
    }
    return fe;
  }
  float t[KCONV_MR * KCONV_NR];
  for (int i = 0; i < KCONV_MR; i++) {
    vst1q_f32(t + i * KCONV_NR, c[i][0]);
    vst1q_f32(t + i * KCONV_NR + 4, c[i][1]);
  }
  kconv_tile_store(t, cp, rsc, csc, mr, nr, alpha, over);
  return 0;
}
#else
/* Portable tile: six accumulator rows of NR floats, each updated with one broadcast of A and
 * the same NR-wide row of B, written as one j-loop over six named rows (not a 2-D array)
 * because that is the form GCC and clang both keep in vector registers. */
static inline int kconv_micro(int64_t kc, const float *restrict ap, int64_t as,
                              const float *restrict bp, int64_t bs, float *restrict cp,
                              int64_t rsc, int64_t csc, int64_t mr, int64_t nr, float alpha,
                              int over, const kconv_epi *e, int64_t i0, int64_t j0) {
  float t[KCONV_MR * KCONV_NR];
  float *c0 = t, *c1 = t + KCONV_NR, *c2 = t + 2 * KCONV_NR, *c3 = t + 3 * KCONV_NR,
        *c4 = t + 4 * KCONV_NR, *c5 = t + 5 * KCONV_NR;
  for (int j = 0; j < KCONV_MR * KCONV_NR; j++) t[j] = 0.0f;
  for (int64_t p = 0; p < kc; p++) {
    const float *a = ap + p * as, *b = bp + p * bs;
    float a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5];
    for (int j = 0; j < KCONV_NR; j++) {
      float bj = b[j];
      c0[j] += a0 * bj;
      c1[j] += a1 * bj;
      c2[j] += a2 * bj;
      c3[j] += a3 * bj;
      c4[j] += a4 * bj;
      c5[j] += a5 * bj;
    }
  }
  (void)e;
  (void)i0;
  (void)j0;
  kconv_tile_store(t, cp, rsc, csc, mr, nr, alpha, over);
  return 0;
}
#endif

static inline void kconv_epi_tile(const kconv_epi *e, float *cp, int64_t rsc, int64_t csc,
                                  int64_t mr, int64_t nr, int64_t i0, int64_t j0) {
  for (int64_t i = 0; i < mr; i++) {
    float *row = cp + i * rsc;
    if (e->bias && e->bias_rows) {
      float bv = e->bias[i0 + i];
      for (int64_t j = 0; j < nr; j++) row[j * csc] += bv;
    } else if (e->bias) {
      const float *bv = e->bias + j0;
      for (int64_t j = 0; j < nr; j++) row[j * csc] += bv[j];
    }
    kconv_act_run(e->act, e->lo, e->hi, row, nr, csc);
  }
}

/* ---- operands: strided, prepacked, or the implicit im2col of a convolution ------------------ */
/* Canonical layouts of prepacked operands, independent of the target's register tile so that
 * the compiler can pack constant weights once for every target: A in panels of KCONV_PA rows,
 * B in panels of KCONV_PB columns, each panel as deep as the whole K (panel[k * width + r],
 * zero-padded past the last row / column). Every target's MR divides KCONV_PA and its NR
 * divides KCONV_PB, so a micro-panel is a slice of a canonical panel read with the canonical
 * width as its k-stride. */
#define KCONV_PA 12
#define KCONV_PB 32
static inline int64_t kconv_prepack_a_size(int64_t M, int64_t K) {
  return (M + KCONV_PA - 1) / KCONV_PA * KCONV_PA * K;
}
static inline int64_t kconv_prepack_b_size(int64_t K, int64_t N) {
  return (N + KCONV_PB - 1) / KCONV_PB * KCONV_PB * K;
}
/* A (M x K, element (i, k) at a[i * rs + k * cs]) into canonical A panels. */
static inline void kconv_prepack_a(int64_t M, int64_t K, const float *a, int64_t rs, int64_t cs,
                                   float *dst) {
  for (int64_t i0 = 0; i0 < M; i0 += KCONV_PA)
    for (int64_t k = 0; k < K; k++)
      for (int64_t i = 0; i < KCONV_PA; i++) *dst++ = i0 + i < M ? a[(i0 + i) * rs + k * cs] : 0.0f;
}
/* B (K x N, element (k, j) at b[k * rs + j * cs]) into canonical B panels. */
static inline void kconv_prepack_b(int64_t K, int64_t N, const float *b, int64_t rs, int64_t cs,
                                   float *dst) {
  for (int64_t j0 = 0; j0 < N; j0 += KCONV_PB)
    for (int64_t k = 0; k < K; k++)
      for (int64_t j = 0; j < KCONV_PB; j++) *dst++ = j0 + j < N ? b[k * rs + (j0 + j) * cs] : 0.0f;
}

/* A GEMM operand. Exactly one of: a strided matrix (p, rs, cs: element (r, c) at
 * p[r * rs + c * cs]); a prepacked one (pk, K deep, canonical panels); the im2col matrix of one
 * group of one image x of a convolution g (rows k = (c, kd, kh, kw), columns = output
 * positions), used as B directly and as A transposed (rows = positions). */
typedef struct kconv_opnd {
  const float *p;
  int64_t rs, cs;
  const float *pk;
  int64_t pk_k;
  const kconv_geom *g;
  const float *x;
} kconv_opnd;

/* The im2col matrix without materialising it: rows k in [k0, k0 + kc), output positions in
 * [p0, p0 + np), written as panels of W positions (zero-padded past np):
 * dst[(j / W) * kc * W + (k - k0) * W + j % W]. The positions of a panel that share an output
 * row (od, oh) form a run that reads one input row segment (contiguous at stride 1), so the
 * per-element work is a copy and the per-run work is two bounds checks. W <= 64. */
static inline void kconv_gather(const kconv_geom *g, const float *x, int64_t k0, int64_t kc,
                                int64_t p0, int64_t np, int64_t W, float *dst) {
  const int64_t OH = g->out[1], OW = g->out[2], ID = g->in[0], IH = g->in[1], IW = g->in[2];
  const int64_t KD = g->k[0], KH = g->k[1], KW = g->k[2], sw = g->s[2];
  for (int64_t j0 = 0; j0 < np; j0 += W, dst += kc * W) {
    int64_t w = kconv_min(W, np - j0);
    int64_t rj[64], rn[64], rd[64], rh[64], rw[64];
    int nr = 0;
    for (int64_t j = 0; j < w; nr++) {
      int64_t q = p0 + j0 + j, ow = q % OW, t = q / OW, oh = t % OH, od = t / OH;
      int64_t len = kconv_min(w - j, OW - ow);
      rj[nr] = j;
      rn[nr] = len;
      rd[nr] = od * g->s[0] - g->plo[0];
      rh[nr] = oh * g->s[1] - g->plo[1];
      rw[nr] = ow * sw - g->plo[2];
      j += len;
    }
    int64_t r0 = k0 / KW, kw = k0 % KW, kh = r0 % KH, r1 = r0 / KH, kd = r1 % KD, c = r1 / KD;
    const float *rowp[64]; /* per run: its input row for the current (c, kd, kh), or NULL */
    int fresh = 1;
    for (int64_t kk = 0; kk < kc; kk++) {
      float *o = dst + kk * W;
      if (fresh) {
        const float *xc = x + c * ID * IH * IW;
        int64_t dd = kd * g->d[0], dh = kh * g->d[1];
        for (int r = 0; r < nr; r++) {
          int64_t id = rd[r] + dd, ih = rh[r] + dh;
          rowp[r] = id < 0 || id >= ID || ih < 0 || ih >= IH ? NULL : xc + (id * IH + ih) * IW;
        }
        fresh = 0;
      }
      int64_t dw = kw * g->d[2];
      for (int r = 0; r < nr; r++) {
        float *restrict orun = o + rj[r];
        int64_t n = rn[r], iw0 = rw[r] + dw;
        const float *src = rowp[r];
        if (!src) {
          for (int64_t t = 0; t < n; t++) orun[t] = 0.0f;
          continue;
        }
        if (sw == 1) {
          int64_t lo = kconv_min(n, kconv_max(0, -iw0));
          int64_t hi = kconv_max(lo, kconv_min(n, IW - iw0));
          for (int64_t t = 0; t < lo; t++) orun[t] = 0.0f;
          const float *restrict s1 = src + iw0;
          for (int64_t t = lo; t < hi; t++) orun[t] = s1[t];
          for (int64_t t = hi; t < n; t++) orun[t] = 0.0f;
        } else { /* in bounds for lo <= t < hi: iw0 + t * sw in [0, IW) */
          int64_t lo = kconv_min(n, iw0 < 0 ? (-iw0 + sw - 1) / sw : 0);
          int64_t hi = kconv_max(lo, kconv_min(n, (IW - iw0 + sw - 1) / sw));
          for (int64_t t = 0; t < lo; t++) orun[t] = 0.0f;
          const float *restrict s1 = src + iw0;
          if (sw == 2)
            for (int64_t t = lo; t < hi; t++) orun[t] = s1[2 * t];
          else
            for (int64_t t = lo; t < hi; t++) orun[t] = s1[t * sw];
          for (int64_t t = hi; t < n; t++) orun[t] = 0.0f;
        }
      }
      for (int64_t t = w; t < W; t++) o[t] = 0.0f;
      if (++kw == KW) {
        kw = 0;
        fresh = 1;
        if (++kh == KH) {
          kh = 0;
          if (++kd == KD) {
            kd = 0;
            c++;
          }
        }
      }
    }
  }
}

/* Rows [i0, i0 + mc) x columns [pc, pc + kc) of A into MR-row panels (ap). */
static inline void kconv_pack_a_op(const kconv_opnd *a, int64_t i0, int64_t mc, int64_t pc,
                                   int64_t kc, float *ap) {
  if (a->g) kconv_gather(a->g, a->x, pc, kc, i0, mc, KCONV_MR, ap);
  else kconv_pack_a(mc, kc, a->p + i0 * a->rs + pc * a->cs, a->rs, a->cs, ap);
}
/* Rows [pc, pc + kc) x columns [j0, j0 + nc) of B into NR-column panels (bp). */
static inline void kconv_pack_b_op(const kconv_opnd *b, int64_t pc, int64_t kc, int64_t j0,
                                   int64_t nc, float *bp) {
  if (b->g) kconv_gather(b->g, b->x, pc, kc, j0, nc, KCONV_NR, bp);
  else kconv_pack_b(kc, nc, b->p + pc * b->rs + j0 * b->cs, b->rs, b->cs, bp);
}

/* The serial core of kconv_gemm_op (below): rows [m0, m1) x columns [n0, n1) of C (m0 a
 * multiple of MR, n0 of NR). Blocks of B are packed once per (jc, pc) and of A once per
 * (jc, pc, ic); prepacked operands are read in place. */
static inline void kconv_gemm_run(kconv_gemm_ws *w, int64_t m0, int64_t m1, int64_t n0,
                                  int64_t n1, int64_t K, const kconv_opnd *A, const kconv_opnd *B,
                                  float *C, int64_t rsc, int64_t csc, float alpha, int over,
                                  const kconv_epi *epi) {
  if (epi && !epi->bias && epi->act == KCONV_ACT_NONE) epi = NULL;
  for (int64_t jc = n0; jc < n1; jc += KCONV_NC) {
    int64_t nc = kconv_min(KCONV_NC, n1 - jc);
    for (int64_t pc = 0; pc < K; pc += KCONV_KC) {
      int64_t kc = kconv_min(KCONV_KC, K - pc);
      int ov = over && pc == 0;
      if (!B->pk) kconv_pack_b_op(B, pc, kc, jc, nc, w->bp);
      for (int64_t ic = m0; ic < m1; ic += KCONV_MC) {
        int64_t mc = kconv_min(KCONV_MC, m1 - ic);
        if (!A->pk) kconv_pack_a_op(A, ic, mc, pc, kc, w->ap);
        for (int64_t jr = 0; jr < nc; jr += KCONV_NR) {
          int64_t j = jc + jr, bs = KCONV_NR;
          const float *bq = w->bp + jr * kc;
          if (B->pk) {
            bq = B->pk + (j / KCONV_PB) * KCONV_PB * B->pk_k + pc * KCONV_PB + j % KCONV_PB;
            bs = KCONV_PB;
          }
          for (int64_t ir = 0; ir < mc; ir += KCONV_MR) {
            int64_t i = ic + ir, as = KCONV_MR;
            const float *aq = w->ap + ir * kc;
            if (A->pk) {
              aq = A->pk + (i / KCONV_PA) * KCONV_PA * A->pk_k + pc * KCONV_PA + i % KCONV_PA;
              as = KCONV_PA;
            }
            float *cp = C + i * rsc + j * csc;
            int64_t mr = kconv_min(KCONV_MR, mc - ir), nr = kconv_min(KCONV_NR, nc - jr);
            const kconv_epi *le = epi && pc + kc >= K ? epi : NULL; /* the last K block */
            if (!kconv_micro(kc, aq, as, bq, bs, cp, rsc, csc, mr, nr, alpha, ov, le, i, j) && le)
              kconv_epi_tile(le, cp, rsc, csc, mr, nr, i, j);
          }
        }
      }
    }
  }
}

/* ---- threads: the GEMM split across a pool of POSIX threads ------------------------------------
 * With w->nthreads > 1 and a product of at least KCONV_PAR_MIN multiply-adds, kconv_gemm_op
 * cuts C into column (or, when C has more MR-row panels than NR-column ones, row) ranges whose
 * widths are multiples of NR (MR), one per thread; each thread packs (or gathers, for an
 * implicit im2col) its own panels. Every element of C is still the same FMA chain over the same
 * K blocks, so results are bitwise those of one thread. Threads come from a pool per
 * translation unit, started on first use and kept (detached, parked on a condition variable);
 * each has its own kconv_scratch. One parallel product at a time per pool: a caller that finds
 * the pool busy (another thread's model, or a product nested in a worker) runs serially. A
 * worker that cannot get its scratch leaves its range to the caller. The pool is rebuilt after
 * fork(). Without POSIX threads (tcc: `mc run`, other targets, or -DMC_NO_THREADS) everything
 * is serial. glibc declares what is used here under plain -std=c11, so nothing defines
 * _POSIX_C_SOURCE (generated C includes <math.h> before this). */
#define KCONV_PAR_MIN ((int64_t)1 << 21)


typedef struct kconv_par {
  kconv_gemm_ws *w0; /* the caller's workspace, for its own range */
  int64_t M, N, K;
  const kconv_opnd *A, *B;
  float *C;
  int64_t rsc, csc;
  float alpha;
  int over, split_n;
  const kconv_epi *epi;
  int64_t chunk; /* columns (split_n) or rows per task */
  int failed[KCONV_MAX_THREADS];
} kconv_par;

static inline void kconv_par_task(kconv_par *p, int t, kconv_gemm_ws *w) {
  int64_t total = p->split_n ? p->N : p->M, lo = t * p->chunk;
  int64_t hi = kconv_min(lo + p->chunk, total);
  if (hi <= lo) return;
  if (p->split_n)
    kconv_gemm_run(w, 0, p->M, lo, hi, p->K, p->A, p->B, p->C, p->rsc, p->csc, p->alpha, p->over, p->epi);
  else
    kconv_gemm_run(w, lo, hi, 0, p->N, p->K, p->A, p->B, p->C, p->rsc, p->csc, p->alpha, p->over, p->epi);
}

static inline void kconv_par_worker_task(void *arg, int t) {
  kconv_par *p = (kconv_par *)arg;
  kconv_gemm_ws w;
  int64_t total = p->split_n ? p->N : p->M, n = kconv_min(p->chunk, total - t * p->chunk);
  if (kconv_gemm_ws_init_for(&w, p->split_n ? p->M : n, p->split_n ? n : p->N, p->K)) {
    p->failed[t] = 1;
    return;
  }
  kconv_par_task(p, t, &w);
}


static inline void kconv_par_task0(void *arg, int t) {
  kconv_par *p = (kconv_par *)arg;
  if (t == 0) kconv_par_task(p, 0, p->w0);
  else kconv_par_worker_task(p, t);
}

/* C = epi(alpha * A B + (over ? 0 : C)) for an M x N x K product of operands A and B: `over`
 * (overwrite) makes the first K block store instead of accumulate, so C is never read (BLAS's
 * beta == 0: a NaN in C does not propagate); epi (may be NULL) runs on each tile while it is in
 * L1 (bias indexed by C's absolute row or column). Threaded as described above. */
static inline void kconv_gemm_op(kconv_gemm_ws *w, int64_t M, int64_t N, int64_t K,
                                 const kconv_opnd *A, const kconv_opnd *B, float *C, int64_t rsc,
                                 int64_t csc, float alpha, int over, const kconv_epi *epi) {
#ifdef KCONV_THREADS
  int64_t nt = kconv_min(w->nthreads, KCONV_MAX_THREADS);
  if (nt > 1 && M * N * K >= KCONV_PAR_MIN) {
    int64_t nb = (N + KCONV_NR - 1) / KCONV_NR, mb = (M + KCONV_MR - 1) / KCONV_MR;
    int split_n = nb >= mb;
    int64_t units = split_n ? nb : mb, step = split_n ? KCONV_NR : KCONV_MR;
    nt = kconv_min(nt, kconv_min(units, M * N * K / (KCONV_PAR_MIN / 2)));
    if (nt > 1) {
      kconv_par p = {w, M, N, K, A, B, C, rsc, csc, alpha, over, split_n, epi,
                     (units + nt - 1) / nt * step, {0}};
      int ntasks = (int)(((split_n ? N : M) + p.chunk - 1) / p.chunk);
      int ran = kconv_pool_run(ntasks, kconv_par_task0, &p);
      if (ran == 1) kconv_par_task(&p, 0, w);
      for (int t = 1; t < ntasks; t++)
        if (t >= ran || p.failed[t]) kconv_par_task(&p, t, w);
      return;
    }
  }
#endif
  kconv_gemm_run(w, 0, M, 0, N, K, A, B, C, rsc, csc, alpha, over, epi);
}

/* The same for strided A and B. */
static inline void kconv_sgemm_epi(kconv_gemm_ws *w, int64_t M, int64_t N, int64_t K,
                                   const float *A, int64_t rsa, int64_t csa, const float *B,
                                   int64_t rsb, int64_t csb, float *C, int64_t rsc, int64_t csc,
                                   float alpha, int over, const kconv_epi *epi) {
  kconv_opnd a = {A, rsa, csa, NULL, 0, NULL, NULL}, b = {B, rsb, csb, NULL, 0, NULL, NULL};
  kconv_gemm_op(w, M, N, K, &a, &b, C, rsc, csc, alpha, over, epi);
}

static inline void kconv_sgemm_ex(kconv_gemm_ws *w, int64_t M, int64_t N, int64_t K,
                                  const float *A, int64_t rsa, int64_t csa, const float *B,
                                  int64_t rsb, int64_t csb, float *C, int64_t rsc, int64_t csc,
                                  float alpha, int over) {
  kconv_sgemm_epi(w, M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, csc, alpha, over, NULL);
}

/* C += A B */
static inline void kconv_sgemm(kconv_gemm_ws *w, int64_t M, int64_t N, int64_t K, const float *A,
                               int64_t rsa, int64_t csa, const float *B, int64_t rsb, int64_t csb,
                               float *C, int64_t rsc, int64_t csc) {
  kconv_sgemm_ex(w, M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, csc, 1.0f, 0);
}

#endif
