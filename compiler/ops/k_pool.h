/* k_pool.h — pooling (max / avg / adaptive) and upsample_{nearest,bilinear}2d. Uses the
 * argument helpers (k_args.h), the thread pool (k_thread.h) and k_norm.h's float pointer
 * helpers; padding and channel permutations are in k_pad.h.
 */
#ifndef MC_K_POOL_H
#define MC_K_POOL_H

#include "k_gemm.h"
#include "k_norm.h"

/* ---- pooling ------------------------------------------------------------------------------ */
/* An input seen as planes: up to two leading dims (n0 x n1, strides s0, s1) of H x W planes.
 * 1-D ops use H = 1. The output is contiguous (n0, n1, OH, OW). */
typedef struct kconv_planes {
  int lead;                  /* number of leading dims (1 or 2) */
  int64_t n0, n1, s0, s1, H, W, sH, sW;
  int64_t OH, OW;
} kconv_planes;

static inline int kconv_planes_init(mck_ctx *c, const char *op, const mck_tensor *x, int nsp,
                                    kconv_planes *p) {
  if (x->ndim != nsp + 1 && x->ndim != nsp + 2) {
    return mck_fail(c, "%s: expected %dD or %dD input, got %dD", op, nsp + 1, nsp + 2, x->ndim);
  }
  p->lead = x->ndim - nsp;
  p->n0 = p->lead == 2 ? x->shape[0] : 1;
  p->s0 = p->lead == 2 ? x->stride[0] : 0;
  p->n1 = x->shape[p->lead - 1];
  p->s1 = x->stride[p->lead - 1];
  p->H = nsp == 2 ? x->shape[x->ndim - 2] : 1;
  p->sH = nsp == 2 ? x->stride[x->ndim - 2] : 0;
  p->W = x->shape[x->ndim - 1];
  p->sW = x->stride[x->ndim - 1];
  return 0;
}

static inline int kconv_planes_out(mck_ctx *c, const mck_tensor *x, const kconv_planes *p,
                                   int nsp, mck_tensor *y, int dtype) {
  int64_t shape[4];
  int r = 0;
  if (p->lead == 2) shape[r++] = p->n0;
  shape[r++] = p->n1;
  if (nsp == 2) shape[r++] = p->OH;
  shape[r++] = p->OW;
  (void)x;
  return mck_out(c, y, dtype, r, shape);
}

/* ATen's pooling_output_shape: floor or ceil mode, where the last window must start inside
 * the input or its left padding. */
static inline int64_t kconv_pool_out(int64_t in, int64_t k, int64_t pad, int64_t s, int64_t d,
                                     int ceil_mode) {
  int64_t o = kconv_floordiv(in + 2 * pad - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0), s) + 1;
  if (ceil_mode && (o - 1) * s >= in + pad) o--;
  return o;
}

typedef struct kconv_win {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  int ceil_mode;
} kconv_win;

/* Parses kernel / stride / padding / dilation / ceil_mode for 1-D (nsp 1) or 2-D pools and
 * sets p->OH, p->OW; dil_arg / ceil_arg may be NULL (avg pools: dilation 1). */
static inline int kconv_win_init(mck_ctx *c, const char *op, int nsp, const mck_arg *ka,
                                 const mck_arg *sa, const mck_arg *pa, const mck_arg *da,
                                 const mck_arg *ca, kconv_planes *p, kconv_win *w) {
  static const int64_t zeros[2] = {0, 0}, ones[2] = {1, 1};
  int64_t k[2] = {0, 0}, s[2] = {0, 0}, pd[2] = {0, 0}, d[2] = {1, 1}; /* gcc -O2 cannot see kconv_ints fill them */
  if (kconv_ints(c, ka, nsp, NULL, k, op, "kernel_size")) return -1;
  if (kconv_ints(c, sa, nsp, k, s, op, "stride")) return -1;
  if (kconv_ints(c, pa, nsp, zeros, pd, op, "padding")) return -1;
  if (da && kconv_ints(c, da, nsp, ones, d, op, "dilation")) return -1;
  if (!da) d[0] = d[1] = 1;
  if (kconv_bool(c, ca, 0, 1, &w->ceil_mode, op, "ceil_mode")) return -1;
  int o = nsp == 2;
  w->kh = o ? k[0] : 1; w->kw = k[o];
  w->sh = o ? s[0] : 1; w->sw = s[o];
  w->ph = o ? pd[0] : 0; w->pw = pd[o];
  w->dh = o ? d[0] : 1; w->dw = d[o];
  if (w->kh < 1 || w->kw < 1 || w->sh < 1 || w->sw < 1 || w->dh < 1 || w->dw < 1) {
    return mck_fail(c, "%s: kernel_size, stride and dilation must be positive", op);
  }
  if (w->kh >= MCK_MAX_GEOM || w->kw >= MCK_MAX_GEOM || w->sh >= MCK_MAX_GEOM ||
      w->sw >= MCK_MAX_GEOM || w->dh >= MCK_MAX_GEOM || w->dw >= MCK_MAX_GEOM ||
      p->H >= MCK_MAX_GEOM || p->W >= MCK_MAX_GEOM)
    return mck_fail(c, "%s: kernel_size, stride, dilation and input extents must be below 2^31",
                    op);
  if (w->ph < 0 || w->pw < 0 || w->ph > w->kh / 2 || w->pw > w->kw / 2) {
    return mck_fail(c, "%s: pad should be at most half of kernel size, got kernel %lldx%lld pad "
                    "%lldx%lld", op, (long long)w->kh, (long long)w->kw, (long long)w->ph,
                    (long long)w->pw);
  }
  p->OH = kconv_pool_out(p->H, w->kh, w->ph, w->sh, w->dh, w->ceil_mode);
  p->OW = kconv_pool_out(p->W, w->kw, w->pw, w->sw, w->dw, w->ceil_mode);
  if (p->OH < 1 || p->OW < 1) {
    return mck_fail(c, "%s: input %lldx%lld is too small for kernel %lldx%lld (output %lldx%lld)",
                    op, (long long)p->H, (long long)p->W, (long long)w->kh, (long long)w->kw,
                    (long long)p->OH, (long long)p->OW);
  }
  return 0;
}

/* ---- float32 fast paths --------------------------------------------------------------------
 * max_pool2d/1d (dilation 1, no indices), avg_pool2d/1d and adaptive_avg_pool2d/1d on float32
 * planes whose rows are contiguous: float compares and adds in the order ATen's CPU kernels
 * use (avg: the window summed row by row in float, divided by the count converted to float;
 * adaptive: sum / kh / kw; adaptive to 1x1 is ATen's mean, here a double sum). Output rows
 * are vectorised over the interior columns (whole window inside the row, no bounds checks) on
 * AVX-512 (masked tail) and AVX2+FMA targets, stride 1 or 2 (stride 2 de-interleaved from two
 * loads); edge columns and other strides are scalar, and without vectors the interior runs
 * tap by tap (compilers vectorise that). Planes are split across threads. */
#if defined(KCONV_VW) && (KCONV_VW == 16 || KCONV_VW == 8)
#define KCONV_PL_VEC KCONV_VW
#endif

enum { KCONV_PL_MAX, KCONV_PL_AVG };

/* One output row of a max (avg) pool: nr input rows x0 + r*rs of width W; column ow's window
 * is input columns [ow*S - pl, ow*S - pl + K) clipped. avg: hp = window rows counted with the
 * padding (count_include_pad), div = divisor_override or 0. */
typedef struct kconv_pl_row {
  const float *x0;
  int64_t rs, W, pl, OW, hp, div;
  int nr, K, S, kind, cip;
} kconv_pl_row;

/* Columns [ow0, ow1), bounds-checked (PyTorch's order: rows, then columns). */
static inline void kconv_pl_cols(const kconv_pl_row *q, float *dst, int64_t ow0, int64_t ow1) {
  for (int64_t ow = ow0; ow < ow1; ow++) {
    int64_t w0 = ow * q->S - q->pl, w1 = kconv_min(w0 + q->K, q->W + q->pl);
    int64_t pw = w1 - w0;
    w0 = kconv_max(w0, 0);
    w1 = kconv_min(w1, q->W);
    if (q->kind == KCONV_PL_MAX) {
      float m = -INFINITY;
      for (int r = 0; r < q->nr; r++)
        for (int64_t iw = w0; iw < w1; iw++) {
          float v = q->x0[r * q->rs + iw];
          if (v > m || v != v) m = v;
        }
      dst[ow] = m;
    } else {
      float s = 0.0f;
      if (q->nr <= 0 || w0 >= w1) {
        dst[ow] = 0.0f;
        continue;
      }
      for (int r = 0; r < q->nr; r++)
        for (int64_t iw = w0; iw < w1; iw++) s += q->x0[r * q->rs + iw];
      int64_t div = q->div ? q->div : q->cip ? q->hp * pw : q->nr * (w1 - w0);
      dst[ow] = s / (float)div;
    }
  }
}

#ifdef KCONV_PL_VEC
/* Interior columns [lo, hi): inlined with constant kind and S. */
static inline __attribute__((always_inline)) void kconv_pl_vec(const kconv_pl_row *q, float *dst,
                                                                int64_t lo, int64_t hi, int kind,
                                                                int S) {
  int K = q->K, nr = q->nr;
  int64_t rs = q->rs;
  float dv = (float)(q->div ? q->div : q->cip ? q->hp * K : nr * K);
#if KCONV_PL_VEC == 16
  const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i od = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  for (int64_t ow = lo; ow < hi; ow += 16) {
    int64_t n = hi - ow, e = n >= 16 ? 32 : 2 * n;
    __mmask16 m = n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1);
    __mmask16 ma = e >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << e) - 1);
    __mmask16 mb = e >= 32 ? (__mmask16)0xFFFF : e > 16 ? (__mmask16)((1u << (e - 16)) - 1) : 0;
    __m512 acc = kind == KCONV_PL_MAX ? _mm512_set1_ps(-INFINITY) : _mm512_setzero_ps();
    const float *s = q->x0 + ow * S - q->pl;
    for (int r = 0; r < nr; r++, s += rs)
      for (int t = 0; t < K; t++) {
        __m512 v;
        if (S == 1) {
          v = _mm512_maskz_loadu_ps(m, s + t);
        } else {
          /* tap t: even lanes of the pair at t, or odd lanes of the pair at t - 1 (the last
           * even tap too, so no load passes the last window) */
          int o = (t & 1) || t + 1 == K ? t - 1 : t;
          __m512 a = _mm512_maskz_loadu_ps(ma, s + o);
          __m512 b = mb ? _mm512_maskz_loadu_ps(mb, s + o + 16) : _mm512_setzero_ps();
          v = _mm512_permutex2var_ps(a, o == t ? ev : od, b);
        }
        if (kind == KCONV_PL_MAX) {
          /* max_ps(v, acc) keeps acc when either is NaN: a NaN in acc stays, a NaN v goes in */
          acc = _mm512_max_ps(v, acc);
          acc = _mm512_mask_mov_ps(acc, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), v);
        } else {
          acc = _mm512_add_ps(acc, v);
        }
      }
    if (kind == KCONV_PL_AVG) acc = _mm512_div_ps(acc, _mm512_set1_ps(dv));
    _mm512_mask_storeu_ps(dst + ow, m, acc);
  }
#else
  int64_t ow = lo;
  for (; ow + 8 <= hi; ow += 8) {
    __m256 acc = kind == KCONV_PL_MAX ? _mm256_set1_ps(-INFINITY) : _mm256_setzero_ps();
    const float *s = q->x0 + ow * S - q->pl;
    for (int r = 0; r < nr; r++, s += rs)
      for (int t = 0; t < K; t++) {
        __m256 v;
        if (S == 1) {
          v = _mm256_loadu_ps(s + t);
        } else {
          int o = (t & 1) || t + 1 == K ? t - 1 : t;
          __m256 a = _mm256_loadu_ps(s + o), b = _mm256_loadu_ps(s + o + 8);
          __m256 sh = o == t ? _mm256_shuffle_ps(a, b, 0x88) : _mm256_shuffle_ps(a, b, 0xDD);
          v = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(sh), 0xD8));
        }
        if (kind == KCONV_PL_MAX) {
          acc = _mm256_max_ps(v, acc);
          acc = _mm256_blendv_ps(acc, v, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        } else {
          acc = _mm256_add_ps(acc, v);
        }
      }
    if (kind == KCONV_PL_AVG) acc = _mm256_div_ps(acc, _mm256_set1_ps(dv));
    _mm256_storeu_ps(dst + ow, acc);
  }
  kconv_pl_cols(q, dst, ow, hi);
#endif
}
#endif

static inline void kconv_pl_row_run(const kconv_pl_row *q, float *dst) {
  /* interior: 0 <= ow*S - pl and ow*S - pl + K <= W */
  int64_t lo = kconv_min(q->OW, kconv_ceildiv(q->pl, q->S));
  int64_t hi = kconv_max(lo, kconv_min(q->OW, kconv_floordiv(q->W - q->K + q->pl, q->S) + 1));
  kconv_pl_cols(q, dst, 0, lo);
#ifdef KCONV_PL_VEC
  if (q->nr > 0 && (q->S == 1 || (q->S == 2 && q->K >= 2))) {
    if (q->kind == KCONV_PL_MAX && q->S == 1) kconv_pl_vec(q, dst, lo, hi, KCONV_PL_MAX, 1);
    else if (q->kind == KCONV_PL_MAX) kconv_pl_vec(q, dst, lo, hi, KCONV_PL_MAX, 2);
    else if (q->S == 1) kconv_pl_vec(q, dst, lo, hi, KCONV_PL_AVG, 1);
    else kconv_pl_vec(q, dst, lo, hi, KCONV_PL_AVG, 2);
    lo = hi;
  }
#else
  if (q->nr > 0 && lo < hi) {
    /* tap by tap over the interior, which compilers vectorise; each column still takes its
     * window in PyTorch's order */
    int64_t n = hi - lo, S = q->S;
    float *d = dst + lo;
    for (int64_t i = 0; i < n; i++) d[i] = q->kind == KCONV_PL_MAX ? -INFINITY : 0.0f;
    for (int r = 0; r < q->nr; r++)
      for (int t = 0; t < q->K; t++) {
        const float *s = q->x0 + r * q->rs + lo * S - q->pl + t;
        if (q->kind == KCONV_PL_MAX) {
          for (int64_t i = 0; i < n; i++) {
            float v = s[i * S];
            d[i] = v > d[i] || v != v ? v : d[i];
          }
        } else {
          for (int64_t i = 0; i < n; i++) d[i] += s[i * S];
        }
      }
    if (q->kind == KCONV_PL_AVG) {
      float dv = (float)(q->div ? q->div : q->cip ? q->hp * q->K : q->nr * q->K);
      for (int64_t i = 0; i < n; i++) d[i] /= dv;
    }
    lo = hi;
  }
#endif
  kconv_pl_cols(q, dst, lo, hi);
  kconv_pl_cols(q, dst, hi, q->OW);
}

/* Below this many window elements a plane split costs more than it saves. */
#define KCONV_PL_PAR_MIN ((int64_t)1 << 19)

typedef struct kconv_pl_job {
  const float *x;  /* storage base (offsets below are in elements) */
  float *y;        /* first output element */
  const kconv_planes *p;
  const kconv_win *w; /* NULL: adaptive average */
  int kind, cip;
  int64_t div, xoff, chunk; /* chunk: planes per task */
} kconv_pl_job;

static inline void kconv_pl_planes(const kconv_pl_job *j, int64_t i0, int64_t i1) {
  const kconv_planes *p = j->p;
  const kconv_win *w = j->w;
  for (int64_t i = i0; i < i1; i++) {
    const float *xp = j->x + j->xoff + (i / p->n1) * p->s0 + (i % p->n1) * p->s1;
    float *yp = j->y + i * p->OH * p->OW;
    if (!w && p->OH == 1 && p->OW == 1) {
      /* mean of the plane: 8 double partial sums (vectorisable, no float drift) */
      double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      for (int64_t h = 0; h < p->H; h++) {
        const float *r = xp + h * p->sH;
        int64_t c = 0;
        for (; c + 8 <= p->W; c += 8)
          for (int l = 0; l < 8; l++) acc[l] += (double)r[c + l];
        for (; c < p->W; c++) acc[0] += (double)r[c];
      }
      double s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
      yp[0] = (float)(s / (double)(p->H * p->W));
      continue;
    }
    if (!w) {
      for (int64_t oh = 0; oh < p->OH; oh++) {
        int64_t h0 = oh * p->H / p->OH, h1 = ((oh + 1) * p->H + p->OH - 1) / p->OH;
        for (int64_t ow = 0; ow < p->OW; ow++) {
          int64_t w0 = ow * p->W / p->OW, w1 = ((ow + 1) * p->W + p->OW - 1) / p->OW;
          float s = 0.0f;
          for (int64_t ih = h0; ih < h1; ih++)
            for (int64_t iw = w0; iw < w1; iw++) s += xp[ih * p->sH + iw];
          yp[oh * p->OW + ow] = s / (float)(h1 - h0) / (float)(w1 - w0);
        }
      }
      continue;
    }
    for (int64_t oh = 0; oh < p->OH; oh++) {
      int64_t h0 = oh * w->sh - w->ph, h1 = kconv_min(h0 + w->kh, p->H);
      kconv_pl_row q;
      q.hp = kconv_min(h0 + w->kh, p->H + w->ph) - h0;
      h0 = kconv_max(h0, 0);
      q.x0 = xp + h0 * p->sH;
      q.rs = p->sH;
      q.W = p->W;
      q.pl = w->pw;
      q.OW = p->OW;
      q.div = j->div;
      q.nr = (int)kconv_max(0, h1 - h0);
      q.K = (int)w->kw;
      q.S = (int)w->sw;
      q.kind = j->kind;
      q.cip = j->cip;
      kconv_pl_row_run(&q, yp + oh * p->OW);
    }
  }
}

static inline void kconv_pl_task(void *arg, int t) {
  const kconv_pl_job *j = (const kconv_pl_job *)arg;
  int64_t n = j->p->n0 * j->p->n1, i0 = t * j->chunk;
  kconv_pl_planes(j, i0, kconv_min(n, i0 + j->chunk));
}

/* Whether the float32 path takes x -> y: rows contiguous, window sizes that fit an int. */
static inline int kconv_pl_ok(const mck_tensor *x, const kconv_planes *p, const kconv_win *w) {
  if (x->dtype != MCK_F32 || (p->sW != 1 && p->W > 1)) return 0;
  return !w || (w->dh == 1 && w->dw == 1 && w->kh <= 1 << 20 && w->kw <= 1 << 20 &&
                w->sw <= 1 << 20);
}

static inline void kconv_pl_run(mck_ctx *c, const mck_tensor *x, const kconv_planes *p,
                                const kconv_win *w, int kind, int cip, int64_t div, mck_tensor *y) {
  kconv_pl_job j = {(const float *)x->data, (float *)y->data + y->offset, p, w, kind, cip, div,
                    x->offset, p->n0 * p->n1};
  int64_t n = p->n0 * p->n1;
#ifdef KCONV_THREADS
  int64_t win = w ? w->kh * w->kw : kconv_max(1, p->H * p->W / kconv_max(1, p->OH * p->OW));
  int64_t work = n * p->OH * p->OW * win;
  int64_t nt = kconv_min(c->nthreads, KCONV_MAX_THREADS);
  nt = kconv_min(nt, kconv_min(n, work / (KCONV_PL_PAR_MIN / 2)));
  if (nt > 1 && work >= KCONV_PL_PAR_MIN) {
    j.chunk = (n + nt - 1) / nt;
    int ntasks = (int)((n + j.chunk - 1) / j.chunk);
    int ran = kconv_pool_run(ntasks, kconv_pl_task, &j);
    if (ran == 1) kconv_pl_task(&j, 0);
    for (int t = ran > 1 ? ran : 1; t < ntasks; t++) kconv_pl_task(&j, t);
    return;
  }
#else
  (void)c;
#endif
  kconv_pl_planes(&j, 0, n);
}

/* Max over each window; NaN wins (PyTorch: `val > max || isnan(val)`); idx gets the flat
 * h*W+w index of the winner. */
static inline void kconv_maxpool(const mck_tensor *x, const kconv_planes *p, const kconv_win *w,
                                 mck_tensor *y, mck_tensor *ind) {
  const float *xf = kconv_f32p(x);
  float *yf = kconv_f32w(y);
  int64_t *ip = ind ? (int64_t *)ind->data + ind->offset : NULL;
  int64_t q = 0;
  for (int64_t a = 0; a < p->n0; a++)
    for (int64_t b = 0; b < p->n1; b++) {
      int64_t base = x->offset + a * p->s0 + b * p->s1;
      for (int64_t oh = 0; oh < p->OH; oh++) {
        int64_t h0 = oh * w->sh - w->ph;
        int64_t h1 = kconv_min(h0 + (w->kh - 1) * w->dh + 1, p->H);
        while (h0 < 0) h0 += w->dh;
        for (int64_t ow = 0; ow < p->OW; ow++, q++) {
          int64_t w0 = ow * w->sw - w->pw;
          int64_t w1 = kconv_min(w0 + (w->kw - 1) * w->dw + 1, p->W);
          while (w0 < 0) w0 += w->dw;
          int64_t mi = h0 * p->W + w0;
          double mv = -INFINITY;
          for (int64_t ih = h0; ih < h1; ih += w->dh)
            for (int64_t iw = w0; iw < w1; iw += w->dw) {
              double v = kconv_ld(x, xf, base + ih * p->sH + iw * p->sW);
              if (v > mv || v != v) {
                mv = v;
                mi = ih * p->W + iw;
              }
            }
          kconv_st(y, yf, y->offset + q, mv);
          if (ip) ip[q] = mi;
        }
      }
    }
}

static inline int kconv_maxpool_op(mck_ctx *c, const char *op, int nsp, mck_arg *out, int nout,
                                   const mck_arg *in, int nin, int want_ind) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  kconv_planes p;
  memset(&p, 0, sizeof p);
  kconv_win w;
  memset(&w, 0, sizeof w);
  if (nout < 1 + want_ind || out[0].kind != MCK_TENSOR || (want_ind && out[1].kind != MCK_TENSOR)) {
    return mck_fail(c, "%s: expects %d tensor outputs", op, 1 + want_ind);
  }
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (x->dtype == MCK_BOOL) return mck_fail(c, "%s: not implemented for bool", op);
  if (kconv_planes_init(c, op, x, nsp, &p)) return -1;
  if (kconv_win_init(c, op, nsp, kconv_arg(in, nin, 1), kconv_arg(in, nin, 2),
                     kconv_arg(in, nin, 3), kconv_arg(in, nin, 4), kconv_arg(in, nin, 5), &p, &w)) {
    return -1;
  }
  if (kconv_planes_out(c, x, &p, nsp, out[0].u.t, x->dtype)) return -1;
  if (want_ind && kconv_planes_out(c, x, &p, nsp, out[1].u.t, MCK_I64)) return -1;
  if (c->meta || p.H * p.W == 0) return 0;
  if (!want_ind && kconv_pl_ok(x, &p, &w)) {
    kconv_pl_run(c, x, &p, &w, KCONV_PL_MAX, 0, 0, out[0].u.t);
    return 0;
  }
  kconv_maxpool(x, &p, &w, out[0].u.t, want_ind ? out[1].u.t : NULL);
  return 0;
}

/* aten::max_pool2d(self, kernel_size, stride=[] (= kernel), padding, dilation, ceil_mode) */
static inline int mckc_max_pool2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kconv_maxpool_op(c, "aten::max_pool2d", 2, out, nout, in, nin, 0);
}
/* aten::max_pool2d_with_indices: also the flat index (h*W+w) of each maximum */
static inline int mckc_max_pool2d_with_indices(mck_ctx *c, mck_arg *out, int nout,
                                               const mck_arg *in, int nin) {
  return kconv_maxpool_op(c, "aten::max_pool2d_with_indices", 2, out, nout, in, nin, 1);
}
/* aten::max_pool1d_with_indices: also the index (in the last dim) of each maximum */
static inline int mckc_max_pool1d_with_indices(mck_ctx *c, mck_arg *out, int nout,
                                               const mck_arg *in, int nin) {
  return kconv_maxpool_op(c, "aten::max_pool1d_with_indices", 1, out, nout, in, nin, 1);
}
/* aten::max_pool1d(self, kernel_size, stride, padding, dilation, ceil_mode) */
static inline int mckc_max_pool1d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kconv_maxpool_op(c, "aten::max_pool1d", 1, out, nout, in, nin, 0);
}

/* Average over each window, ATen's cpu_avg_pool: the window is clipped to input + padding for
 * count_include_pad, to the input for the sum and the other count. */
static inline void kconv_avgpool(const mck_tensor *x, const kconv_planes *p, const kconv_win *w,
                                 int count_pad, int64_t divisor, mck_tensor *y) {
  const float *xf = kconv_f32p(x);
  float *yf = kconv_f32w(y);
  int64_t q = 0;
  for (int64_t a = 0; a < p->n0; a++)
    for (int64_t b = 0; b < p->n1; b++) {
      int64_t base = x->offset + a * p->s0 + b * p->s1;
      for (int64_t oh = 0; oh < p->OH; oh++)
        for (int64_t ow = 0; ow < p->OW; ow++, q++) {
          int64_t h0 = oh * w->sh - w->ph, w0 = ow * w->sw - w->pw;
          int64_t h1 = kconv_min(h0 + w->kh, p->H + w->ph), w1 = kconv_min(w0 + w->kw, p->W + w->pw);
          int64_t pool = (h1 - h0) * (w1 - w0);
          h0 = kconv_max(h0, 0);
          w0 = kconv_max(w0, 0);
          h1 = kconv_min(h1, p->H);
          w1 = kconv_min(w1, p->W);
          if (h0 >= h1 || w0 >= w1) {
            kconv_st(y, yf, y->offset + q, 0.0);
            continue;
          }
          int64_t div = divisor ? divisor : count_pad ? pool : (h1 - h0) * (w1 - w0);
          double s = 0.0;
          for (int64_t ih = h0; ih < h1; ih++)
            for (int64_t iw = w0; iw < w1; iw++) s += kconv_ld(x, xf, base + ih * p->sH + iw * p->sW);
          if (mck_is_int(y->dtype)) {
            kconv_st(y, yf, y->offset + q, (double)(mck_f2i_sat(s, INT64_MIN, INT64_MAX) / div));
          } else {
            kconv_st(y, yf, y->offset + q, s / (double)div);
          }
        }
    }
}

static inline int kconv_avgpool_op(mck_ctx *c, const char *op, int nsp, mck_arg *out, int nout,
                                   const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  kconv_planes p;
  memset(&p, 0, sizeof p);
  kconv_win w;
  memset(&w, 0, sizeof w);
  int count_pad = 1;
  int64_t divisor = 0;
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (x->dtype == MCK_BOOL) return mck_fail(c, "%s: not implemented for bool", op);
  if (kconv_planes_init(c, op, x, nsp, &p)) return -1;
  if (kconv_win_init(c, op, nsp, kconv_arg(in, nin, 1), kconv_arg(in, nin, 2),
                     kconv_arg(in, nin, 3), NULL, kconv_arg(in, nin, 4), &p, &w)) {
    return -1;
  }
  if (kconv_bool(c, kconv_arg(in, nin, 5), 1, 0, &count_pad, op, "count_include_pad")) return -1;
  if (nsp == 2 && kconv_int(c, kconv_arg(in, nin, 6), 0, &divisor, op, "divisor_override")) return -1;
  if (nsp == 2 && kconv_arg(in, nin, 6)->kind != MCK_NONE && divisor == 0) {
    return mck_fail(c, "%s: divisor must be not zero", op);
  }
  if (kconv_planes_out(c, x, &p, nsp, out[0].u.t, x->dtype)) return -1;
  if (c->meta || p.H * p.W == 0) return 0;
  if (kconv_pl_ok(x, &p, &w)) {
    kconv_pl_run(c, x, &p, &w, KCONV_PL_AVG, count_pad, divisor, out[0].u.t);
    return 0;
  }
  kconv_avgpool(x, &p, &w, count_pad, divisor, out[0].u.t);
  return 0;
}

/* aten::avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad,
 * divisor_override?) */
static inline int mckc_avg_pool2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kconv_avgpool_op(c, "aten::avg_pool2d", 2, out, nout, in, nin);
}
/* aten::avg_pool1d(self, kernel_size, stride, padding, ceil_mode, count_include_pad) */
static inline int mckc_avg_pool1d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kconv_avgpool_op(c, "aten::avg_pool1d", 1, out, nout, in, nin);
}

/* Adaptive windows: [floor(i*in/out), ceil((i+1)*in/out)). Max (with indices) or mean. */
static inline void kconv_adaptive(const mck_tensor *x, const kconv_planes *p, int is_max,
                                  mck_tensor *y, mck_tensor *ind) {
  const float *xf = kconv_f32p(x);
  float *yf = kconv_f32w(y);
  int64_t *ip = ind ? (int64_t *)ind->data + ind->offset : NULL;
  int64_t q = 0;
  for (int64_t a = 0; a < p->n0; a++)
    for (int64_t b = 0; b < p->n1; b++) {
      int64_t base = x->offset + a * p->s0 + b * p->s1;
      for (int64_t oh = 0; oh < p->OH; oh++) {
        int64_t h0 = oh * p->H / p->OH, h1 = ((oh + 1) * p->H + p->OH - 1) / p->OH;
        for (int64_t ow = 0; ow < p->OW; ow++, q++) {
          int64_t w0 = ow * p->W / p->OW, w1 = ((ow + 1) * p->W + p->OW - 1) / p->OW;
          double acc = is_max ? -INFINITY : 0.0;
          int64_t mi = h0 * p->W + w0;
          for (int64_t ih = h0; ih < h1; ih++)
            for (int64_t iw = w0; iw < w1; iw++) {
              double v = kconv_ld(x, xf, base + ih * p->sH + iw * p->sW);
              if (!is_max) {
                acc += v;
              } else if (v > acc || v != v) {
                acc = v;
                mi = ih * p->W + iw;
              }
            }
          if (!is_max) acc /= (double)((h1 - h0) * (w1 - w0));
          kconv_st(y, yf, y->offset + q, acc);
          if (ip) ip[q] = mi;
        }
      }
    }
}

static inline int kconv_adaptive_op(mck_ctx *c, const char *op, int nsp, int is_max,
                                    mck_arg *out, int nout, const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  kconv_planes p;
  memset(&p, 0, sizeof p);
  int64_t os[2] = {1, 1};
  int nt = is_max && nout >= 2 ? 2 : 1;
  if (nout < 1 || out[0].kind != MCK_TENSOR || (nt == 2 && out[1].kind != MCK_TENSOR)) {
    return mck_fail(c, "%s: bad outputs", op);
  }
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (x->dtype == MCK_BOOL || (!is_max && !mck_is_float(x->dtype))) {
    return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  }
  if (kconv_planes_init(c, op, x, nsp, &p)) return -1;
  if (kconv_ints(c, kconv_arg(in, nin, 1), nsp, NULL, os, op, "output_size")) return -1;
  p.OH = nsp == 2 ? os[0] : 1;
  p.OW = os[nsp - 1];
  if (p.OH < 0 || p.OW < 0) return mck_fail(c, "%s: output_size must be non-negative", op);
  if ((p.H == 0 || p.W == 0) && p.OH * p.OW > 0) {
    return mck_fail(c, "%s: empty spatial input", op);
  }
  if (kconv_planes_out(c, x, &p, nsp, out[0].u.t, x->dtype)) return -1;
  if (nt == 2 && kconv_planes_out(c, x, &p, nsp, out[1].u.t, MCK_I64)) return -1;
  if (c->meta || p.OH * p.OW == 0) return 0;
  if (!is_max && kconv_pl_ok(x, &p, NULL)) {
    kconv_pl_run(c, x, &p, NULL, KCONV_PL_AVG, 0, 0, out[0].u.t);
    return 0;
  }
  kconv_adaptive(x, &p, is_max, out[0].u.t, nt == 2 ? out[1].u.t : NULL);
  return 0;
}

/* aten::adaptive_avg_pool2d(self, output_size) */
static inline int mckc_adaptive_avg_pool2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                           int nin) {
  return kconv_adaptive_op(c, "aten::adaptive_avg_pool2d", 2, 0, out, nout, in, nin);
}
/* aten::adaptive_avg_pool1d(self, output_size) */
static inline int mckc_adaptive_avg_pool1d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                           int nin) {
  return kconv_adaptive_op(c, "aten::adaptive_avg_pool1d", 1, 0, out, nout, in, nin);
}
/* aten::adaptive_max_pool2d(self, output_size) -> (values, indices) */
static inline int mckc_adaptive_max_pool2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                           int nin) {
  return kconv_adaptive_op(c, "aten::adaptive_max_pool2d", 2, 1, out, nout, in, nin);
}
/* aten::adaptive_max_pool1d(self, output_size) -> (values, indices) */
static inline int mckc_adaptive_max_pool1d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                           int nin) {
  return kconv_adaptive_op(c, "aten::adaptive_max_pool1d", 1, 1, out, nout, in, nin);
}

/* ---- upsampling --------------------------------------------------------------------------- */
/* Output size and scale of one dim from output_size or scale factor (vec overloads compute
 * out = (int64)(in * scale) and keep the scale for the source index, as ATen does). */
typedef struct kconv_up {
  int64_t OH, OW;
  int has_sh, has_sw;
  double sh, sw;
} kconv_up;

/* sz: output_size arg (int[]?); sc: scale_factors (float[]?) for vec overloads, or
 * scales_h / scales_w (float?) for the sized ones. */
static inline int kconv_up_init(mck_ctx *c, const char *op, const kconv_planes *p,
                                const mck_arg *sz, const mck_arg *sc, const mck_arg *sc2,
                                kconv_up *u) {
  u->has_sh = u->has_sw = 0;
  u->sh = u->sw = 0.0;
  if (sz->kind == MCK_UNKNOWN || sc->kind == MCK_UNKNOWN || sc2->kind == MCK_UNKNOWN) {
    return mck_fail(c, "%s: output_size and scale factors must be compile-time constants", op);
  }
  if (sc->kind == MCK_FLOATS) {
    if (sc->n != 2) return mck_fail(c, "%s: expected 2 scale factors, got %d", op, sc->n);
    u->has_sh = u->has_sw = 1;
    u->sh = sc->u.floats[0];
    u->sw = sc->u.floats[1];
  } else {
    if (mck_arg_is_scalar(sc)) { u->has_sh = 1; u->sh = mck_arg_f(sc); }
    if (mck_arg_is_scalar(sc2)) { u->has_sw = 1; u->sw = mck_arg_f(sc2); }
  }
  if (sz->kind == MCK_INTS) {
    if (sz->n != 2) return mck_fail(c, "%s: output_size must have 2 elements, got %d", op, sz->n);
    u->OH = sz->u.ints[0];
    u->OW = sz->u.ints[1];
  } else if (sz->kind == MCK_NONE && sc->kind == MCK_FLOATS) {
    /* floor(in * scale), as ATen; a scale that is not a positive finite number, or a size
     * beyond 2^62, is refused rather than converted */
    double oh = floor((double)p->H * u->sh), ow = floor((double)p->W * u->sw);
    if (!(u->sh > 0 && u->sw > 0 && oh < 4611686018427387904.0 && ow < 4611686018427387904.0))
      return mck_fail(c, "%s: scale factors %g, %g must be positive and give sizes below 2^62", op,
                      u->sh, u->sw);
    u->OH = (int64_t)oh;
    u->OW = (int64_t)ow;
  } else {
    return mck_fail(c, "%s: either output_size or scale_factors must be given", op);
  }
  if (u->OH < 1 || u->OW < 1) {
    return mck_fail(c, "%s: output size %lldx%lld must be positive", op, (long long)u->OH,
                    (long long)u->OW);
  }
  return 0;
}

/* ATen's nearest_idx with float32 arithmetic. */
static inline int64_t kconv_nearest(int64_t o, int64_t in, int64_t out, int has, double sc) {
  if (out == in) return o;
  if (out == 2 * in) return o >> 1;
  float scale = has && sc > 0.0 ? (float)(1.0 / sc) : (float)in / (float)out;
  float f = floorf((float)o * scale); /* inf or NaN for a scale beyond float: clamped */
  return f >= (float)(in - 1) ? in - 1 : f > 0.0f ? (int64_t)f : 0;
}

static inline int kconv_up_common(mck_ctx *c, const char *op, mck_arg *out, int nout,
                                  const mck_tensor *x, kconv_planes *p) {
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (x->ndim != 4) return mck_fail(c, "%s: expected a 4D input, got %dD", op, x->ndim);
  return kconv_planes_init(c, op, x, 2, p);
}

/* aten::upsample_nearest2d.vec(input, output_size?, scale_factors?) and
 * aten::upsample_nearest2d(self, output_size, scales_h?, scales_w?) */
static inline int mckc_upsample_nearest2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                          int nin) {
  const char *op = "aten::upsample_nearest2d";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  kconv_planes p;
  memset(&p, 0, sizeof p);
  kconv_up u;
  memset(&u, 0, sizeof u);
  if (kconv_up_common(c, op, out, nout, x, &p)) return -1;
  if (kconv_up_init(c, op, &p, kconv_arg(in, nin, 1), kconv_arg(in, nin, 2),
                    kconv_arg(in, nin, 3), &u)) {
    return -1;
  }
  p.OH = u.OH;
  p.OW = u.OW;
  if (kconv_planes_out(c, x, &p, 2, out[0].u.t, x->dtype)) return -1;
  if (c->meta || mck_numel(x) == 0) return 0;
  mck_tensor *y = out[0].u.t;
  const float *xf = kconv_f32p(x);
  float *yf = kconv_f32w(y);
  int64_t *wi = (int64_t *)kconv_alloc(p.OW, sizeof(int64_t)), q = 0;
  if (!wi) return mck_fail(c, "%s: out of memory", op);
  for (int64_t ow = 0; ow < p.OW; ow++) wi[ow] = kconv_nearest(ow, p.W, p.OW, u.has_sw, u.sw);
  for (int64_t a = 0; a < p.n0; a++)
    for (int64_t b = 0; b < p.n1; b++)
      for (int64_t oh = 0; oh < p.OH; oh++) {
        int64_t ih = kconv_nearest(oh, p.H, p.OH, u.has_sh, u.sh);
        int64_t base = x->offset + a * p.s0 + b * p.s1 + ih * p.sH;
        for (int64_t ow = 0; ow < p.OW; ow++, q++) {
          if (xf && yf) yf[y->offset + q] = xf[base + wi[ow] * p.sW];
          else mck_setf(y, y->offset + q, mck_getf(x, base + wi[ow] * p.sW));
        }
      }
  free(wi);
  return 0;
}

/* ATen's linear source index and weights (compute_source_index_and_lambda); float32 inputs
 * use float arithmetic like ATen's opmath. */
static inline void kconv_linear_idx(int64_t o, int64_t in, int64_t out, int align, int has,
                                    double sc, int f32, int64_t *i0, int64_t *i1, double *l0,
                                    double *l1) {
  if (in == out) {
    *i0 = *i1 = o;
    *l0 = 1.0;
    *l1 = 0.0;
    return;
  }
  double real;
  if (f32) {
    float scale = align ? (out > 1 ? (float)(in - 1) / (float)(out - 1) : 0.0f)
                        : (has && sc > 0.0 ? (float)(1.0 / sc) : (float)in / (float)out);
    float r = align ? scale * (float)o : scale * ((float)o + 0.5f) - 0.5f;
    if (!align && r < 0.0f) r = 0.0f;
    *i0 = r >= (float)(in - 1) ? in - 1 : r > 0.0f ? (int64_t)r : 0; /* ATen's guard_index */
    float lam = r - (float)*i0;
    lam = lam < 0.0f ? 0.0f : lam > 1.0f ? 1.0f : lam;
    *l1 = lam;
    *l0 = (double)(1.0f - lam);
    real = r;
  } else {
    double scale = align ? (out > 1 ? (double)(in - 1) / (double)(out - 1) : 0.0)
                         : (has && sc > 0.0 ? 1.0 / sc : (double)in / (double)out);
    double r = align ? scale * (double)o : scale * ((double)o + 0.5) - 0.5;
    if (!align && r < 0.0) r = 0.0;
    *i0 = r >= (double)(in - 1) ? in - 1 : r > 0.0 ? (int64_t)r : 0; /* ATen's guard_index */
    double lam = r - (double)*i0;
    lam = lam < 0.0 ? 0.0 : lam > 1.0 ? 1.0 : lam;
    *l1 = lam;
    *l0 = 1.0 - lam;
    real = r;
  }
  (void)real;
  *i1 = *i0 + (*i0 < in - 1 ? 1 : 0);
}

/* aten::upsample_bilinear2d.vec(input, output_size?, align_corners, scale_factors?) and
 * aten::upsample_bilinear2d(self, output_size, align_corners, scales_h?, scales_w?) */
static inline int mckc_upsample_bilinear2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                           int nin) {
  const char *op = "aten::upsample_bilinear2d";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  kconv_planes p;
  memset(&p, 0, sizeof p);
  kconv_up u;
  memset(&u, 0, sizeof u);
  int align = 0;
  if (kconv_up_common(c, op, out, nout, x, &p)) return -1;
  if (!mck_is_float(x->dtype)) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (kconv_bool(c, kconv_arg(in, nin, 2), 0, 1, &align, op, "align_corners")) return -1;
  if (kconv_up_init(c, op, &p, kconv_arg(in, nin, 1), kconv_arg(in, nin, 3),
                    kconv_arg(in, nin, 4), &u)) {
    return -1;
  }
  p.OH = u.OH;
  p.OW = u.OW;
  if (kconv_planes_out(c, x, &p, 2, out[0].u.t, x->dtype)) return -1;
  if (c->meta || mck_numel(x) == 0) return 0;
  mck_tensor *y = out[0].u.t;
  int f32 = x->dtype == MCK_F32;
  const float *xf = kconv_f32p(x);
  float *yf = kconv_f32w(y);
  int64_t *wi = (int64_t *)kconv_alloc(2 * p.OW, sizeof(int64_t)), q = 0;
  double *wl = (double *)kconv_alloc(2 * p.OW, sizeof(double));
  if (!wi || !wl) {
    free(wi); free(wl);
    return mck_fail(c, "%s: out of memory", op);
  }
  for (int64_t ow = 0; ow < p.OW; ow++) {
    kconv_linear_idx(ow, p.W, p.OW, align, u.has_sw, u.sw, f32, &wi[2 * ow], &wi[2 * ow + 1],
                     &wl[2 * ow], &wl[2 * ow + 1]);
  }
  for (int64_t a = 0; a < p.n0; a++)
    for (int64_t b = 0; b < p.n1; b++)
      for (int64_t oh = 0; oh < p.OH; oh++) {
        int64_t h0, h1;
        double hl0, hl1;
        kconv_linear_idx(oh, p.H, p.OH, align, u.has_sh, u.sh, f32, &h0, &h1, &hl0, &hl1);
        int64_t base = x->offset + a * p.s0 + b * p.s1;
        int64_t r0 = base + h0 * p.sH, r1 = base + h1 * p.sH;
        for (int64_t ow = 0; ow < p.OW; ow++, q++) {
          int64_t c0 = wi[2 * ow] * p.sW, c1 = wi[2 * ow + 1] * p.sW;
          if (f32) {
            float w0 = (float)wl[2 * ow], w1 = (float)wl[2 * ow + 1];
            float v = (float)hl0 * (xf[r0 + c0] * w0 + xf[r0 + c1] * w1) +
                      (float)hl1 * (xf[r1 + c0] * w0 + xf[r1 + c1] * w1);
            yf[y->offset + q] = v;
          } else {
            double w0 = wl[2 * ow], w1 = wl[2 * ow + 1];
            double v = hl0 * (mck_getf(x, r0 + c0) * w0 + mck_getf(x, r0 + c1) * w1) +
                       hl1 * (mck_getf(x, r1 + c0) * w0 + mck_getf(x, r1 + c1) * w1);
            mck_setf(y, y->offset + q, v);
          }
        }
      }
  free(wi);
  free(wl);
  return 0;
}

#endif
