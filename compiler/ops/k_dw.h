/* k_dw.h — the direct (depthwise-style) float32 convolution: one input channel per group.
 * k_conv.h's dispatch calls it (k_conv.h includes this header; this one includes only the GEMM
 * core's geometry, epilogue and threads, k_gemm.h).
 */
#ifndef MC_K_DW_H
#define MC_K_DW_H

#include "k_gemm.h"

/* Output-row-major: each output row takes every kernel tap while it sits in L1 (a tap-major
 * order streams the whole plane through the cache once per tap). Every output is
 * bias + taps in (kh, kw) order, then the activation, on whichever path computes it.
 *
 * Fast path (AVX-512 or AVX2+FMA targets): 2-D / 1-D, no dilation, kernel width 3 or 5,
 * height <= 5, horizontal stride 1 or 2. The input plane is first copied into a zero-padded
 * per-thread buffer (borders zeroed once per call and thread), so every output row is the same
 * branch-free loop: one register accumulator per KCONV_VW output columns over all taps
 * (explicit FMA: -std=c11 does not contract), stride 2 de-interleaved from two loads by a
 * permute, relu / hardtanh applied in registers, and no scalar edge columns (with 7x7 and
 * 14x14 planes those cost more than the interior). Padding taps add w * 0, as PyTorch's
 * padded convolution does. Elsewhere the portable row-accumulating loop, which compilers
 * vectorise themselves. Channels are split across threads (each channel's arithmetic is the
 * same on any thread). NEON targets (aarch64, Armv7 -mfpu=neon) take the fast path too. */
#if defined(KCONV_VW) && (KCONV_VW == 16 || KCONV_VW == 8)
#define KCONV_DW_VEC KCONV_VW
#define KCONV_DW_MAXR 5
#elif defined(KCONV_NEON)
/* NEON (k_gemm.h): four columns per q register, stride 2 de-interleaved by vld2q; the last
 * OW % 4 columns are scalar with the lanes' arithmetic (KCONV_DW_FMA_S), so every output of a
 * row gets the same bits */
#define KCONV_DW_VEC 4
#define KCONV_DW_MAXR 5
#if defined(__aarch64__)
#define KCONV_DW_FMA(acc, w, x) vfmaq_f32(acc, w, x)
#define KCONV_DW_FMA_S(acc, w, x) __builtin_fmaf(w, x, acc)
#else /* Armv7: vmla rounds the product, then the sum */
#define KCONV_DW_FMA(acc, w, x) vmlaq_f32(acc, w, x)
#define KCONV_DW_FMA_S(acc, w, x) ((acc) + (w) * (x))
#endif
#endif

typedef struct kconv_dw_job {
  const kconv_geom *g;
  const float *x, *w, *b;
  float *y;
  int act;
  double alo, ahi;
  int64_t chunk; /* output channels per task */
} kconv_dw_job;

/* Output channels [oc0, oc1) on the portable path. */
static inline void kconv_dw_channels_gen(const kconv_dw_job *j, int64_t oc0, int64_t oc1) {
  const kconv_geom *g = j->g;
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in), K = kconv_prod3(g->k);
  int64_t mg = g->Cout / g->G, OW = g->out[2], s2 = g->s[2];
  int64_t wlo[64], whi[64];
  int64_t nkw = g->k[2] < 64 ? g->k[2] : 64;
  for (int64_t kw = 0; kw < nkw; kw++)
    kconv_range(g->in[2], OW, s2, g->plo[2], kw * g->d[2], &wlo[kw], &whi[kw]);
  for (int64_t oc = oc0; oc < oc1; oc++) {
    const float *xc = j->x + (oc / mg) * IP;
    const float *wc = j->w + oc * K;
    float bv = j->b ? j->b[oc] : 0.0f;
    for (int64_t od = 0; od < g->out[0]; od++)
      for (int64_t oh = 0; oh < g->out[1]; oh++) {
        float *dst = j->y + oc * P + (od * g->out[1] + oh) * OW;
        for (int64_t ow = 0; ow < OW; ow++) dst[ow] = bv;
        for (int64_t kd = 0; kd < g->k[0]; kd++) {
          int64_t id = od * g->s[0] - g->plo[0] + kd * g->d[0];
          if (id < 0 || id >= g->in[0]) continue;
          for (int64_t kh = 0; kh < g->k[1]; kh++) {
            int64_t ih = oh * g->s[1] - g->plo[1] + kh * g->d[1];
            if (ih < 0 || ih >= g->in[1]) continue;
            const float *xr = xc + (id * g->in[1] + ih) * g->in[2];
            for (int64_t kw = 0; kw < g->k[2]; kw++) {
              float wv = wc[(kd * g->k[1] + kh) * g->k[2] + kw];
              int64_t lo, hi;
              if (kw < nkw) {
                lo = wlo[kw];
                hi = whi[kw];
              } else {
                kconv_range(g->in[2], OW, s2, g->plo[2], kw * g->d[2], &lo, &hi);
              }
              if (lo >= hi) continue;
              /* src[ow * s2] is input column ow*s2 - pl + kw*d, in bounds for lo <= ow < hi */
              const float *src = xr + lo * s2 - g->plo[2] + kw * g->d[2];
              float *dd = dst + lo;
              int64_t n = hi - lo;
              if (s2 == 1) {
                for (int64_t i = 0; i < n; i++) dd[i] += wv * src[i];
              } else if (s2 == 2) {
                for (int64_t i = 0; i < n; i++) dd[i] += wv * src[2 * i];
              } else {
                for (int64_t i = 0; i < n; i++) dd[i] += wv * src[i * s2];
              }
            }
          }
        }
        kconv_act_run(j->act, j->alo, j->ahi, dst, OW, 1);
      }
  }
}

#ifdef KCONV_DW_VEC
static inline int kconv_dw_fast(const kconv_geom *g) {
  return g->in[0] == 1 && g->k[0] == 1 && g->out[0] == 1 && g->d[1] == 1 && g->d[2] == 1 &&
         (g->k[2] == 3 || g->k[2] == 5) && g->k[1] <= KCONV_DW_MAXR &&
         (g->s[2] == 1 || g->s[2] == 2);
}

/* The padded plane: kconv_scratch's slot 3 (grown on demand, kept per thread). */
static inline float *kconv_dw_buf(int64_t n) { return kconv_scratch(3, n); }

#if KCONV_DW_VEC == 16
/* kconv_act_run's relu / hardtanh exactly, in registers: NaN passes, relu(-0) = +0 */
static inline __m512 kconv_dw_act16(__m512 v, int act, __m512 lo, __m512 hi) {
  if (act == KCONV_ACT_RELU)
    return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_NLE_UQ), v);
  if (act == KCONV_ACT_HARDTANH) return _mm512_min_ps(hi, _mm512_max_ps(lo, v));
  return v;
}
#endif

/* One channel: output plane yc (OH x OW) from the padded input plane xp (rows of PW) and the
 * KH x K weights wc. */
typedef struct kconv_dw_pl {
  const float *xp, *wc;
  float *yc;
  int64_t PW, OH, OW, SH;
  float bias, alo, ahi;
  int act;
} kconv_dw_pl;

/* yc = act(bias + taps), inlined with constant KH, K, S, so the tap loops unroll and the
 * weights stay in registers. */
static inline __attribute__((always_inline)) void kconv_dw_plane(const kconv_dw_pl *q, int KH,
                                                                  int K, int S) {
  const float *xp = q->xp, *wc = q->wc;
  float *yc = q->yc, bias = q->bias, alo = q->alo, ahi = q->ahi;
  int64_t PW = q->PW, OH = q->OH, OW = q->OW, SH = q->SH;
  int act = q->act;
#if KCONV_DW_VEC == 16
  __m512 wv[KCONV_DW_MAXR * 5];
  for (int i = 0; i < KH * K; i++) wv[i] = _mm512_set1_ps(wc[i]);
  const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i od = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  const __m512 vb = _mm512_set1_ps(bias), vlo = _mm512_set1_ps(alo), vhi = _mm512_set1_ps(ahi);
  const __m512 zero = _mm512_setzero_ps();
  int in_regs = act == KCONV_ACT_NONE || act == KCONV_ACT_RELU || act == KCONV_ACT_HARDTANH;
  int64_t oh = 0;
  if (S == 1 && SH == 1) {
    /* two output rows at once share KH - 1 input rows: (KH + 1) * K loads for 2 * KH * K
     * FMAs instead of one load per FMA; each output still takes its taps in (kh, kw) order */
    for (; oh + 2 <= OH; oh += 2) {
      float *d0 = yc + oh * OW;
      for (int64_t ow = 0; ow < OW; ow += 16) {
        int64_t n = OW - ow;
        __mmask16 m = n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1);
        __m512 a0 = vb, a1 = vb;
        const float *s = xp + oh * PW + ow;
        for (int r = 0; r <= KH; r++, s += PW)
          for (int kw = 0; kw < K; kw++) {
            __m512 v = _mm512_maskz_loadu_ps(m, s + kw);
            if (r < KH) a0 = _mm512_fmadd_ps(wv[r * K + kw], v, a0);
            if (r > 0) a1 = _mm512_fmadd_ps(wv[(r - 1) * K + kw], v, a1);
          }
        _mm512_mask_storeu_ps(d0 + ow, m, kconv_dw_act16(a0, act, vlo, vhi));
        _mm512_mask_storeu_ps(d0 + OW + ow, m, kconv_dw_act16(a1, act, vlo, vhi));
      }
      if (!in_regs) kconv_act_run(act, alo, ahi, d0, 2 * OW, 1);
    }
  }
  for (; oh < OH; oh++) {
    float *dst = yc + oh * OW;
    for (int64_t ow = 0; ow < OW; ow += 16) {
      int64_t n = OW - ow, e = n >= 16 ? 32 : 2 * n;
      /* the last block is masked: masked-off lanes neither load nor store */
      __mmask16 m = n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1);
      __mmask16 ma = e >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << e) - 1);
      __mmask16 mb = e >= 32 ? (__mmask16)0xFFFF : e > 16 ? (__mmask16)((1u << (e - 16)) - 1) : 0;
      __m512 acc = vb;
      const float *s = xp + oh * SH * PW + ow * S;
      for (int r = 0; r < KH; r++, s += PW) {
        if (S == 1) {
          for (int kw = 0; kw < K; kw++)
            acc = _mm512_fmadd_ps(wv[r * K + kw], _mm512_maskz_loadu_ps(m, s + kw), acc);
          continue;
        }
        /* a pair of loads at s + o covers taps o (even lanes) and o + 1 (odd lanes); with K
         * odd the last tap is the odd lanes of the pair at K - 2, so no load reaches past
         * the last column's window */
        int kw = 0;
        for (; kw + 1 < K; kw += 2) {
          __m512 a = _mm512_maskz_loadu_ps(ma, s + kw);
          __m512 b = mb ? _mm512_maskz_loadu_ps(mb, s + kw + 16) : zero;
          acc = _mm512_fmadd_ps(wv[r * K + kw], _mm512_permutex2var_ps(a, ev, b), acc);
          acc = _mm512_fmadd_ps(wv[r * K + kw + 1], _mm512_permutex2var_ps(a, od, b), acc);
        }
        if (kw < K) {
          __m512 a = _mm512_maskz_loadu_ps(ma, s + kw - 1);
          __m512 b = mb ? _mm512_maskz_loadu_ps(mb, s + kw + 15) : zero;
          acc = _mm512_fmadd_ps(wv[r * K + kw], _mm512_permutex2var_ps(a, od, b), acc);
        }
      }
      _mm512_mask_storeu_ps(dst + ow, m, kconv_dw_act16(acc, act, vlo, vhi));
    }
    if (!in_regs) kconv_act_run(act, alo, ahi, dst, OW, 1);
  }
#elif KCONV_DW_VEC == 4
  float32x4_t wv[KCONV_DW_MAXR * 5];
  for (int i = 0; i < KH * K; i++) wv[i] = vdupq_n_f32(wc[i]);
  const float32x4_t vb = vdupq_n_f32(bias), vlo = vdupq_n_f32(alo), vhi = vdupq_n_f32(ahi);
  const float32x4_t zero = vdupq_n_f32(0.0f);
  for (int64_t oh = 0; oh < OH; oh++) {
    float *dst = yc + oh * OW;
    const float *row = xp + oh * SH * PW;
    int64_t ow = 0;
    for (; ow + 4 <= OW; ow += 4) {
      float32x4_t acc = vb;
      const float *s = row + ow * S;
      for (int r = 0; r < KH; r++, s += PW) {
        if (S == 1) {
          for (int kw = 0; kw < K; kw++) acc = KCONV_DW_FMA(acc, wv[r * K + kw], vld1q_f32(s + kw));
          continue;
        }
        /* vld2q at s + o: taps o (even) and o + 1 (odd elements); with K odd the last tap is
         * the odd elements at K - 2, so no load reaches past the last column's window */
        for (int kw = 0; kw < K; kw += 2) {
          if (kw + 1 < K) {
            float32x4x2_t v = vld2q_f32(s + kw);
            acc = KCONV_DW_FMA(acc, wv[r * K + kw], v.val[0]);
            acc = KCONV_DW_FMA(acc, wv[r * K + kw + 1], v.val[1]);
          } else {
            acc = KCONV_DW_FMA(acc, wv[r * K + kw], vld2q_f32(s + kw - 1).val[1]);
          }
        }
      }
      if (act == KCONV_ACT_RELU) {
        uint32x4_t m = vorrq_u32(vcgtq_f32(acc, zero), vmvnq_u32(vceqq_f32(acc, acc)));
        acc = vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(acc), m));
      } else if (act == KCONV_ACT_HARDTANH) {
        acc = vbslq_f32(vcltq_f32(acc, vlo), vlo, vbslq_f32(vcgtq_f32(acc, vhi), vhi, acc));
      }
      vst1q_f32(dst + ow, acc);
    }
    int64_t tail = ow;
    for (; ow < OW; ow++) {
      float acc = bias;
      const float *s = row + ow * S;
      for (int r = 0; r < KH; r++)
        for (int kw = 0; kw < K; kw++) acc = KCONV_DW_FMA_S(acc, wc[r * K + kw], s[r * PW + kw]);
      dst[ow] = acc;
    }
    if (act == KCONV_ACT_RELU || act == KCONV_ACT_HARDTANH)
      kconv_act_run(act, alo, ahi, dst + tail, OW - tail, 1);
    else if (act != KCONV_ACT_NONE)
      kconv_act_run(act, alo, ahi, dst, OW, 1);
  }
#else
  __m256 wv[KCONV_DW_MAXR * 5];
  for (int i = 0; i < KH * K; i++) wv[i] = _mm256_set1_ps(wc[i]);
  const __m256 vb = _mm256_set1_ps(bias), vlo = _mm256_set1_ps(alo), vhi = _mm256_set1_ps(ahi);
  const __m256 zero = _mm256_setzero_ps();
  for (int64_t oh = 0; oh < OH; oh++) {
    float *dst = yc + oh * OW;
    const float *row = xp + oh * SH * PW;
    int64_t ow = 0;
    for (; ow + 8 <= OW; ow += 8) {
      __m256 acc = vb;
      const float *s = row + ow * S;
      for (int r = 0; r < KH; r++, s += PW) {
        if (S == 1) {
          for (int kw = 0; kw < K; kw++)
            acc = _mm256_fmadd_ps(wv[r * K + kw], _mm256_loadu_ps(s + kw), acc);
          continue;
        }
        /* even / odd elements of 16 floats: shuffle within 128-bit lanes, then fix the order
         * of the 64-bit quarters; the last tap of an odd K as in the AVX-512 loop */
        for (int kw = 0; kw < K; kw += 2) {
          int o = kw + 1 < K ? kw : kw - 1;
          __m256 a = _mm256_loadu_ps(s + o), b = _mm256_loadu_ps(s + o + 8);
          __m256 od = _mm256_castpd_ps(
              _mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(a, b, 0xDD)), 0xD8));
          if (kw + 1 < K) {
            __m256 ev = _mm256_castpd_ps(
                _mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(a, b, 0x88)), 0xD8));
            acc = _mm256_fmadd_ps(wv[r * K + kw], ev, acc);
            acc = _mm256_fmadd_ps(wv[r * K + kw + 1], od, acc);
          } else {
            acc = _mm256_fmadd_ps(wv[r * K + kw], od, acc);
          }
        }
      }
      if (act == KCONV_ACT_RELU) {
        acc = _mm256_and_ps(acc, _mm256_cmp_ps(acc, zero, _CMP_NLE_UQ));
      } else if (act == KCONV_ACT_HARDTANH) {
        acc = _mm256_min_ps(vhi, _mm256_max_ps(vlo, acc));
      }
      _mm256_storeu_ps(dst + ow, acc);
    }
    int64_t tail = ow;
    for (; ow < OW; ow++) {
      float acc = bias;
      const float *s = row + ow * S;
      for (int r = 0; r < KH; r++)
        for (int kw = 0; kw < K; kw++) acc += wc[r * K + kw] * s[r * PW + kw];
      dst[ow] = acc;
    }
    if (act == KCONV_ACT_RELU || act == KCONV_ACT_HARDTANH)
      kconv_act_run(act, alo, ahi, dst + tail, OW - tail, 1);
    else if (act != KCONV_ACT_NONE)
      kconv_act_run(act, alo, ahi, dst, OW, 1);
  }
#endif
}

/* Output channels [oc0, oc1) on the fast path. */
static inline void kconv_dw_channels_vec(const kconv_dw_job *j, int64_t oc0, int64_t oc1) {
  const kconv_geom *g = j->g;
  int64_t H = g->in[1], W = g->in[2], OH = g->out[1], OW = g->out[2], IP = H * W;
  int64_t KH = g->k[1], K = g->k[2], SH = g->s[1], S = g->s[2], pt = g->plo[1], pl = g->plo[2];
  int64_t mg = g->Cout / g->G;
  /* padded plane: every window of every output inside it */
  int64_t PH = kconv_max(pt + H, (OH - 1) * SH + KH), PW = kconv_max(pl + W, (OW - 1) * S + K);
  float *xp = kconv_dw_buf(PH * PW);
  if (!xp) {
    kconv_dw_channels_gen(j, oc0, oc1);
    return;
  }
  kconv_dw_pl q = {xp, NULL, NULL, PW, OH, OW, SH, 0.0f, (float)j->alo, (float)j->ahi, j->act};
  memset(xp, 0, sizeof(float) * (size_t)(PH * PW));
  for (int64_t oc = oc0; oc < oc1; oc++) {
    if (oc == oc0 || oc % mg == 0) {
      const float *xc = j->x + (oc / mg) * IP;
      for (int64_t h = 0; h < H; h++)
        memcpy(xp + (pt + h) * PW + pl, xc + h * W, sizeof(float) * (size_t)W);
    }
    q.wc = j->w + oc * KH * K;
    q.yc = j->y + oc * OH * OW;
    q.bias = j->b ? j->b[oc] : 0.0f;
    if (K == 3 && KH == 3 && S == 1) kconv_dw_plane(&q, 3, 3, 1);
    else if (K == 3 && KH == 3) kconv_dw_plane(&q, 3, 3, 2);
    else if (K == 5 && KH == 5 && S == 1) kconv_dw_plane(&q, 5, 5, 1);
    else if (K == 5 && KH == 5) kconv_dw_plane(&q, 5, 5, 2);
    else if (K == 3 && S == 1) kconv_dw_plane(&q, (int)KH, 3, 1);
    else if (K == 3) kconv_dw_plane(&q, (int)KH, 3, 2);
    else if (S == 1) kconv_dw_plane(&q, (int)KH, 5, 1);
    else kconv_dw_plane(&q, (int)KH, 5, 2);
  }
}
#endif

/* Output channels [oc0, oc1). */
static inline void kconv_dw_channels(const kconv_dw_job *j, int64_t oc0, int64_t oc1) {
#ifdef KCONV_DW_VEC
  if (kconv_dw_fast(j->g)) {
    kconv_dw_channels_vec(j, oc0, oc1);
    return;
  }
#endif
  kconv_dw_channels_gen(j, oc0, oc1);
}

static inline void kconv_dw_task(void *arg, int t) {
  const kconv_dw_job *j = (const kconv_dw_job *)arg;
  int64_t oc0 = t * j->chunk;
  kconv_dw_channels(j, oc0, kconv_min(j->g->Cout, oc0 + j->chunk));
}

/* Below this many multiply-adds a channel split costs more than it saves. */
#define KCONV_DW_PAR_MIN ((int64_t)1 << 19)

/* Depthwise-style direct convolution: one input channel per group (mg output channels each). */
static inline void kconv_direct_f32(const kconv_geom *g, const float *x, const float *w,
                                    const float *b, float *y, int act, double alo, double ahi,
                                    int nthreads) {
  kconv_dw_job j = {g, x, w, b, y, act, alo, ahi, g->Cout};
#ifdef KCONV_THREADS
  int64_t nt = kconv_min(nthreads, KCONV_MAX_THREADS);
  int64_t work = g->Cout * kconv_prod3(g->out) * kconv_prod3(g->k);
  nt = kconv_min(nt, kconv_min(g->Cout, work / (KCONV_DW_PAR_MIN / 2)));
  if (nt > 1 && work >= KCONV_DW_PAR_MIN) {
    j.chunk = (g->Cout + nt - 1) / nt;
    int ntasks = (int)((g->Cout + j.chunk - 1) / j.chunk);
    int ran = kconv_pool_run(ntasks, kconv_dw_task, &j);
    if (ran == 1) kconv_dw_task(&j, 0);
    for (int t = ran > 1 ? ran : 1; t < ntasks; t++) kconv_dw_task(&j, t);
    return;
  }
#else
  (void)nthreads;
#endif
  kconv_dw_channels(&j, 0, g->Cout);
}

#endif
