/* k_conv.h — kernels of the convolution / pooling / normalisation / resampling family:
 * aten::_convolution and conv{1,2,3}d / conv_transpose{1,2,3}d, batch_norm, instance_norm,
 * layer_norm, group_norm, max/avg/adaptive pools, upsample_{nearest,bilinear}2d, pad and its
 * named variants, pixel_(un)shuffle and channel_shuffle.
 *
 * Every kernel follows mck.h's contract: inputs follow the TorchScript schema positionally
 * (trailing defaulted inputs may be missing), outputs are fresh contiguous tensors prepared by
 * the caller, ctx->meta computes only dtype and shape. Inputs may be arbitrarily strided.
 *
 * Numerics: float32 runs fast paths (convolution = im2col + a cache-blocked, register-tiled
 * SGEMM, or a direct loop for depthwise; pools and norms read float pointers directly); every
 * other float dtype runs the generic path, which computes in double and rounds once on store.
 * Integer inputs are rejected where PyTorch rejects them (convolution, norms). Index formulas
 * (pool output sizes with ceil_mode, adaptive windows, interpolation source indices incl. their
 * float32 rounding) are copied from ATen 1.13 so results match PyTorch, not only approximately.
 *
 * Fused activations (mc::conv_act, mc::linear_act, mc::add_act; made by passes/fuse.c): the
 * activation is applied in the GEMM's store epilogue, to each register tile right after its
 * last K block is stored (bias first: acc + b, then act), or per output row of the direct
 * depthwise loop; its formula is kconv_act_f, the same double-precision expression the unfused
 * aten:: kernel (k_elementwise.h mck_ew_un_f) evaluates, rounded once to float, so fusing does
 * not change a single bit of the activation (relu and hardtanh run as float compares, which
 * give the same values). Every float32 GEMM convolution adds its bias in the epilogue
 * (acc + b, as PyTorch does) rather than accumulating onto a bias-filled output.
 *
 * Prefix: kconv_ for helpers, mckc_ for the kernels named in ops_conv.c.
 */
#ifndef MC_K_CONV_H
#define MC_K_CONV_H

#ifndef MCK_H
#include "mck.h"
#endif

/* ---- argument helpers -------------------------------------------------------------------- */
static inline const mck_arg *kconv_arg(const mck_arg *in, int nin, int k) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  return k < nin ? &in[k] : &none;
}

/* An int[] argument as n values: a list of n, one value repeated, or (empty list / None /
 * missing) the defaults dflt (NULL: the argument is required). */
static inline int kconv_ints(mck_ctx *c, const mck_arg *a, int n, const int64_t *dflt,
                             int64_t *out, const char *op, const char *what) {
  if (a->kind == MCK_UNKNOWN) {
    return mck_fail(c, "%s: %s must be a compile-time constant", op, what);
  }
  if (a->kind == MCK_INT) {
    for (int i = 0; i < n; i++) out[i] = a->u.i;
    return 0;
  }
  if (a->kind == MCK_INTS && (a->n == n || a->n == 1)) {
    for (int i = 0; i < n; i++) out[i] = a->u.ints[a->n == 1 ? 0 : i];
    return 0;
  }
  if (dflt && (a->kind == MCK_NONE || (a->kind == MCK_INTS && a->n == 0))) {
    for (int i = 0; i < n; i++) out[i] = dflt[i];
    return 0;
  }
  if (a->kind == MCK_INTS) {
    return mck_fail(c, "%s: %s expects %d values, got %d", op, what, n, a->n);
  }
  return mck_fail(c, "%s: %s must be an int list", op, what);
}

static inline int kconv_int(mck_ctx *c, const mck_arg *a, int64_t dflt, int64_t *out,
                            const char *op, const char *what) {
  if (a->kind == MCK_NONE) *out = dflt;
  else if (a->kind == MCK_INT || a->kind == MCK_BOOL_ARG) *out = a->u.i;
  else if (a->kind == MCK_INTS && a->n == 1) *out = a->u.ints[0];
  else if (a->kind == MCK_UNKNOWN) return mck_fail(c, "%s: %s must be a compile-time constant", op, what);
  else return mck_fail(c, "%s: %s must be an int", op, what);
  return 0;
}

/* A bool argument; an unknown one is an error only where `need` (the result depends on it). */
static inline int kconv_bool(mck_ctx *c, const mck_arg *a, int dflt, int need, int *out,
                             const char *op, const char *what) {
  if (a->kind == MCK_NONE) *out = dflt;
  else if (a->kind == MCK_BOOL_ARG || a->kind == MCK_INT) *out = a->u.i != 0;
  else if (a->kind == MCK_UNKNOWN && !need && c->meta) *out = dflt;
  else if (a->kind == MCK_UNKNOWN) return mck_fail(c, "%s: %s must be a compile-time constant", op, what);
  else return mck_fail(c, "%s: %s must be a bool", op, what);
  return 0;
}

static inline int kconv_float(mck_ctx *c, const mck_arg *a, double dflt, double *out,
                              const char *op, const char *what) {
  if (a->kind == MCK_NONE) *out = dflt;
  else if (mck_arg_is_scalar(a)) *out = mck_arg_f(a);
  else if (a->kind == MCK_UNKNOWN && c->meta) *out = dflt;
  else if (a->kind == MCK_UNKNOWN) return mck_fail(c, "%s: %s must be known", op, what);
  else return mck_fail(c, "%s: %s must be a number", op, what);
  return 0;
}

static inline const mck_tensor *kconv_tensor(const mck_arg *a) {
  return a->kind == MCK_TENSOR ? a->u.t : NULL;
}

static inline int64_t kconv_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t kconv_ceildiv(int64_t a, int64_t b) { return -kconv_floordiv(-a, b); }
static inline int64_t kconv_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t kconv_max(int64_t a, int64_t b) { return a > b ? a : b; }

static inline void *kconv_alloc(int64_t n, size_t es) {
  return malloc((size_t)(n > 0 ? n : 1) * es);
}

/* Contiguous float32 / float64 copies of a tensor (any dtype, any strides). The result is t's
 * own memory when it already is one; *own then stays NULL, else it is the buffer to free. */
static inline const float *kconv_as_f32(const mck_tensor *t, float **own) {
  *own = NULL;
  if (t->dtype == MCK_F32 && mck_is_contiguous(t)) return (const float *)t->data + t->offset;
  int64_t n = mck_numel(t);
  float *p = (float *)kconv_alloc(n, sizeof(float));
  if (!p) return NULL;
  mck_iter it;
  const int64_t *st[1] = {t->stride};
  int64_t base[1] = {t->offset};
  mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) p[k] = (float)mck_getf(t, it.off[0]);
  *own = p;
  return p;
}
static inline const double *kconv_as_f64(const mck_tensor *t, double **own) {
  *own = NULL;
  if (t->dtype == MCK_F64 && mck_is_contiguous(t)) return (const double *)t->data + t->offset;
  int64_t n = mck_numel(t);
  double *p = (double *)kconv_alloc(n, sizeof(double));
  if (!p) return NULL;
  mck_iter it;
  const int64_t *st[1] = {t->stride};
  int64_t base[1] = {t->offset};
  mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) p[k] = mck_getf(t, it.off[0]);
  *own = p;
  return p;
}
/* Stores n doubles into a fresh contiguous output of any dtype. */
static inline void kconv_store(mck_tensor *o, const double *v, int64_t n) {
  for (int64_t i = 0; i < n; i++) mck_setf(o, o->offset + i, v[i]);
}

static inline int kconv_is_floatish(int dt) { return mck_is_float(dt); }

/* ---- fused activations ---------------------------------------------------------------------- */
enum {
  KCONV_ACT_NONE, KCONV_ACT_RELU, KCONV_ACT_HARDTANH, KCONV_ACT_SIGMOID, KCONV_ACT_TANH,
  KCONV_ACT_SILU, KCONV_ACT_HARDSWISH, KCONV_ACT_GELU, KCONV_ACT_GELU_TANH, KCONV_ACT_N
};
static inline int kconv_act_code(const char *s) {
  static const char *const nm[KCONV_ACT_N] = {"none", "relu", "hardtanh", "sigmoid", "tanh",
                                              "silu", "hardswish", "gelu", "gelu_tanh"};
  for (int i = 0; i < KCONV_ACT_N; i++)
    if (!strcmp(s, nm[i])) return i;
  return -1;
}
/* The activation in double, the formulas of mck_ew_un_f (hardtanh bounds lo, hi). */
static inline double kconv_act_f(int act, double x, double lo, double hi) {
  switch (act) {
  case KCONV_ACT_RELU: return x != x ? x : x > 0 ? x : 0;
  case KCONV_ACT_HARDTANH: return x != x ? x : x < lo ? lo : x > hi ? hi : x;
  case KCONV_ACT_SIGMOID: return 1.0 / (1.0 + exp(-x));
  case KCONV_ACT_TANH: return tanh(x);
  case KCONV_ACT_SILU: return x / (1.0 + exp(-x));
  case KCONV_ACT_HARDSWISH: {
    double t = x + 3.0;
    t = t < 0 ? 0 : t;
    t = t > 6 ? 6 : t;
    return x * t / 6.0;
  }
  case KCONV_ACT_GELU: return 0.5 * x * (1.0 + erf(x * 0.70710678118654752440));
  case KCONV_ACT_GELU_TANH: {
    double inner = 0.79788456080286535588 * (x + 0.044715 * x * x * x);
    return 0.5 * x * (1.0 + tanh(inner));
  }
  default: return x;
  }
}
/* p[i * s] = act(p[i * s]) for i < n (float32). */
static inline void kconv_act_run(int act, double lo, double hi, float *p, int64_t n, int64_t s) {
  if (act == KCONV_ACT_RELU && s == 1) {
    for (int64_t i = 0; i < n; i++) p[i] = p[i] > 0 || p[i] != p[i] ? p[i] : 0.0f;
  } else if (act == KCONV_ACT_HARDTANH && s == 1) {
    float l = (float)lo, h = (float)hi;
    for (int64_t i = 0; i < n; i++) p[i] = p[i] != p[i] ? p[i] : p[i] < l ? l : p[i] > h ? h : p[i];
  } else if (act != KCONV_ACT_NONE) {
    for (int64_t i = 0; i < n; i++) p[i * s] = (float)kconv_act_f(act, p[i * s], lo, hi);
  }
}
/* Parses the (act, a, b) arguments of the fused ops; a, b are hardtanh's bounds. */
static inline int kconv_act_args(mck_ctx *c, const char *op, const mck_arg *act, const mck_arg *a,
                                 const mck_arg *b, int *code, double *lo, double *hi) {
  *lo = a->kind == MCK_FLOAT ? a->u.f : a->kind == MCK_INT ? (double)a->u.i : -1.0;
  *hi = b->kind == MCK_FLOAT ? b->u.f : b->kind == MCK_INT ? (double)b->u.i : 1.0;
  *code = act->kind == MCK_STR ? kconv_act_code(act->u.s) : -1;
  if (*code < 0) return mck_fail(c, "%s: act must be a constant activation name", op);
  return 0;
}

/* What the GEMM does to a finished tile of C (after its last K block): add a per-row or
 * per-column bias, then the activation. */
typedef struct kconv_epi {
  const float *bias; /* NULL: none; indexed by C's row (bias_rows) or column */
  int bias_rows;
  int act;
  double lo, hi;
} kconv_epi;

/* ---- SGEMM: C[M x N] = alpha * A[M x K] * B[K x N] (+ C) ------------------------------------ */
/* A, B and C are accessed through (row, column) strides, so transposed operands cost nothing
 * extra (a conv with few output positions computes C^T = B^T A^T to fill the register tile):
 * they are packed into MR-row / NR-column panels (zero-padded at the edges) and a register
 * tile of MR x NR accumulators runs over each pair of panels. Loop order and block sizes follow
 * BLIS: an NR-wide B micro-panel stays in L1, an MC x KC block of A in L2, a KC x NC panel of B
 * in L2/L3. The tile is written with GCC/clang vector extensions when the target has AVX-512
 * (12 x 32: 24 zmm accumulators) or AVX2 (6 x 16: 12 ymm accumulators), chosen at compile time
 * from the -m flags (-march=native); elsewhere (and under tcc) it is portable scalar C that
 * compilers still vectorise. The linalg family's kl_sgemm runs on this same core (k_linalg.h
 * includes this header; the paste order of generated C puts k_conv.h first). */
#if defined(__GNUC__) && !defined(__TINYC__) && defined(__AVX512F__)
#define KCONV_VW 16
#define KCONV_MR 12
#define KCONV_NV 2
#elif defined(__GNUC__) && !defined(__TINYC__) && defined(__AVX2__) && defined(__FMA__)
#define KCONV_VW 8
#define KCONV_MR 6
#define KCONV_NV 2
#else
#define KCONV_MR 6
#endif
#ifdef KCONV_VW
#include <immintrin.h>
#define KCONV_NR (KCONV_VW * KCONV_NV)
typedef float kconv_vf __attribute__((vector_size(KCONV_VW * 4)));
typedef float kconv_vfu __attribute__((vector_size(KCONV_VW * 4), aligned(4)));
/* acc + x * y in one rounding: -std=c11 turns GCC's FMA contraction off, so it is explicit */
#if KCONV_VW == 16
#define KCONV_FMA(x, y, acc) ((kconv_vf)_mm512_fmadd_ps((__m512)(x), (__m512)(y), (__m512)(acc)))
#define KCONV_SET1(f) ((kconv_vf)_mm512_set1_ps(f))
#else
#define KCONV_FMA(x, y, acc) ((kconv_vf)_mm256_fmadd_ps((__m256)(x), (__m256)(y), (__m256)(acc)))
#define KCONV_SET1(f) ((kconv_vf)_mm256_set1_ps(f))
#endif
#else
#define KCONV_NR 16
#endif
#define KCONV_KC 256
#define KCONV_MC (KCONV_MR * 16)
#define KCONV_NC 2048

typedef struct kconv_gemm_ws {
  float *ap; /* KCONV_MC * KCONV_KC */
  float *bp; /* KCONV_KC * KCONV_NC */
  int nthreads; /* threads the product may use (<= 1: this one); see "threads" below */
} kconv_gemm_ws;

static inline void *kconv_aligned(size_t bytes) {
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__TINYC__)
  return aligned_alloc(64, (bytes + 63) / 64 * 64);
#else
  return malloc(bytes);
#endif
}

/* Per-thread scratch kept between calls (slot 0: packed A, 1: packed B, 2: im2col columns),
 * grown on demand and never shrunk, so a model's products stop paying malloc and fresh-page
 * faults after its first run; the largest request of each slot stays allocated for the
 * thread's life. tcc (mc run's JIT, one thread) has no _Thread_local: a plain static there. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__TINYC__)
#define KCONV_TLS _Thread_local
#else
#define KCONV_TLS
#endif
static inline float *kconv_scratch(int slot, int64_t n) {
  static KCONV_TLS float *buf[3];
  static KCONV_TLS int64_t cap[3];
  if (n > cap[slot]) {
    free(buf[slot]);
    buf[slot] = (float *)kconv_aligned(sizeof(float) * (size_t)n);
    cap[slot] = buf[slot] ? n : 0;
  }
  return buf[slot];
}

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
static inline void kconv_micro(int64_t kc, const float *restrict ap, const float *restrict bp,
                               float *restrict cp, int64_t rsc, int64_t csc, int64_t mr,
                               int64_t nr, float alpha, int over) {
  kconv_vf c[KCONV_MR][KCONV_NV];
  for (int i = 0; i < KCONV_MR; i++)
    for (int v = 0; v < KCONV_NV; v++) c[i][v] = (kconv_vf){0};
  for (int64_t p = 0; p < kc; p++) {
    const float *a = ap + p * KCONV_MR;
    kconv_vf b[KCONV_NV];
    for (int v = 0; v < KCONV_NV; v++) b[v] = *(const kconv_vfu *)(bp + p * KCONV_NR + v * KCONV_VW);
    for (int i = 0; i < KCONV_MR; i++) {
      kconv_vf ai = KCONV_SET1(a[i]);
      for (int v = 0; v < KCONV_NV; v++) c[i][v] = KCONV_FMA(ai, b[v], c[i][v]);
    }
  }
  if (mr == KCONV_MR && nr == KCONV_NR && csc == 1) {
    for (int i = 0; i < KCONV_MR; i++)
      for (int v = 0; v < KCONV_NV; v++) {
        kconv_vfu *o = (kconv_vfu *)(cp + i * rsc + v * KCONV_VW);
        if (over) *o = alpha * c[i][v];
        else *o += alpha * c[i][v];
      }
    return;
  }
  float t[KCONV_MR * KCONV_NR];
  for (int i = 0; i < KCONV_MR; i++)
    for (int v = 0; v < KCONV_NV; v++) *(kconv_vfu *)(t + i * KCONV_NR + v * KCONV_VW) = c[i][v];
  kconv_tile_store(t, cp, rsc, csc, mr, nr, alpha, over);
}
#else
/* Portable tile: six accumulator rows of NR floats, each updated with one broadcast of A and
 * the same NR-wide row of B, written as one j-loop over six named rows (not a 2-D array)
 * because that is the form GCC and clang both keep in vector registers. */
static inline void kconv_micro(int64_t kc, const float *restrict ap, const float *restrict bp,
                               float *restrict cp, int64_t rsc, int64_t csc, int64_t mr,
                               int64_t nr, float alpha, int over) {
  float t[KCONV_MR * KCONV_NR];
  float *c0 = t, *c1 = t + KCONV_NR, *c2 = t + 2 * KCONV_NR, *c3 = t + 3 * KCONV_NR,
        *c4 = t + 4 * KCONV_NR, *c5 = t + 5 * KCONV_NR;
  for (int j = 0; j < KCONV_MR * KCONV_NR; j++) t[j] = 0.0f;
  for (int64_t p = 0; p < kc; p++) {
    const float *a = ap + p * KCONV_MR, *b = bp + p * KCONV_NR;
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
  kconv_tile_store(t, cp, rsc, csc, mr, nr, alpha, over);
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

/* The serial core of kconv_sgemm_epi (below). */
static inline void kconv_sgemm_run(kconv_gemm_ws *w, int64_t M, int64_t N, int64_t K,
                                   const float *A, int64_t rsa, int64_t csa, const float *B,
                                   int64_t rsb, int64_t csb, float *C, int64_t rsc, int64_t csc,
                                   float alpha, int over, const kconv_epi *epi) {
  if (epi && !epi->bias && epi->act == KCONV_ACT_NONE) epi = NULL;
  for (int64_t jc = 0; jc < N; jc += KCONV_NC) {
    int64_t nc = kconv_min(KCONV_NC, N - jc);
    for (int64_t pc = 0; pc < K; pc += KCONV_KC) {
      int64_t kc = kconv_min(KCONV_KC, K - pc);
      int ov = over && pc == 0;
      kconv_pack_b(kc, nc, B + pc * rsb + jc * csb, rsb, csb, w->bp);
      for (int64_t ic = 0; ic < M; ic += KCONV_MC) {
        int64_t mc = kconv_min(KCONV_MC, M - ic);
        kconv_pack_a(mc, kc, A + ic * rsa + pc * csa, rsa, csa, w->ap);
        for (int64_t jr = 0; jr < nc; jr += KCONV_NR) {
          for (int64_t ir = 0; ir < mc; ir += KCONV_MR) {
            float *cp = C + (ic + ir) * rsc + (jc + jr) * csc;
            int64_t mr = kconv_min(KCONV_MR, mc - ir), nr = kconv_min(KCONV_NR, nc - jr);
            kconv_micro(kc, w->ap + ir * kc, w->bp + jr * kc, cp, rsc, csc, mr, nr, alpha, ov);
            if (epi && pc + kc >= K) kconv_epi_tile(epi, cp, rsc, csc, mr, nr, ic + ir, jc + jr);
          }
        }
      }
    }
  }
}

/* ---- threads: the SGEMM split across a pool of POSIX threads ----------------------------------
 * With w->nthreads > 1 and a product of at least KCONV_PAR_MIN multiply-adds, kconv_sgemm_epi
 * cuts C into column (or, when C has more MR-row panels than NR-column ones, row) ranges whose
 * widths are multiples of NR (MR), one per thread. Every element of C is still the same FMA
 * chain over the same K blocks, so results are bitwise those of one thread. Threads come from a
 * pool per translation unit, started on first use and kept (detached, parked on a condition
 * variable); each has its own kconv_scratch. One parallel product at a time per pool: a caller
 * that finds the pool busy (another thread's model, or a product nested in a worker) runs
 * serially. A worker that cannot get its scratch leaves its range to the caller. The pool is
 * rebuilt after fork(). Without POSIX threads (tcc: `mc run`, other targets, or -DMC_NO_THREADS)
 * everything is serial. glibc declares what is used here under plain -std=c11, so nothing
 * defines _POSIX_C_SOURCE (generated C includes <math.h> before this). */
#if !defined(__TINYC__) && !defined(MC_NO_THREADS) && (defined(__unix__) || defined(__APPLE__))
#define KCONV_THREADS 1
#include <pthread.h>
#endif
#define KCONV_MAX_THREADS 64
#define KCONV_PAR_MIN ((int64_t)1 << 21)

typedef struct kconv_par {
  kconv_gemm_ws *w0; /* the caller's workspace, for its own range */
  int64_t M, N, K;
  const float *A, *B;
  int64_t rsa, csa, rsb, csb, rsc, csc;
  float *C;
  float alpha;
  int over, split_n;
  const kconv_epi *epi;
  int64_t chunk; /* columns (split_n) or rows per task */
  int failed[KCONV_MAX_THREADS];
} kconv_par;

static inline void kconv_par_task(kconv_par *p, int t, kconv_gemm_ws *w) {
  int64_t total = p->split_n ? p->N : p->M, lo = t * p->chunk;
  int64_t n = kconv_min(p->chunk, total - lo);
  kconv_epi e, *ep = NULL;
  if (n <= 0) return;
  if (p->epi) {
    e = *p->epi;
    if (e.bias && e.bias_rows != p->split_n) e.bias += lo;
    ep = &e;
  }
  if (p->split_n)
    kconv_sgemm_run(w, p->M, n, p->K, p->A, p->rsa, p->csa, p->B + lo * p->csb, p->rsb, p->csb,
                    p->C + lo * p->csc, p->rsc, p->csc, p->alpha, p->over, ep);
  else
    kconv_sgemm_run(w, n, p->N, p->K, p->A + lo * p->rsa, p->rsa, p->csa, p->B, p->rsb, p->csb,
                    p->C + lo * p->rsc, p->rsc, p->csc, p->alpha, p->over, ep);
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

#ifdef KCONV_THREADS
typedef struct kconv_pool {
  pthread_mutex_t mu, busy;
  pthread_cond_t go, done;
  int nworkers, atfork;
  unsigned long gen; /* bumped per job; a worker runs each job it has not seen */
  int ntasks, pending;
  void (*fn)(void *, int);
  void *arg;
} kconv_pool;

static inline kconv_pool *kconv_pool_get(void) {
  static kconv_pool pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
                            .busy = PTHREAD_MUTEX_INITIALIZER,
                            .go = PTHREAD_COND_INITIALIZER,
                            .done = PTHREAD_COND_INITIALIZER};
  return &pool;
}

/* fork() keeps only the calling thread: the child starts a pool of its own. */
static inline void kconv_pool_atfork_child(void) {
  kconv_pool *p = kconv_pool_get();
  pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t c0 = PTHREAD_COND_INITIALIZER;
  p->mu = p->busy = m0;
  p->go = p->done = c0;
  p->nworkers = 0;
  p->pending = 0;
}

static inline void *kconv_pool_worker(void *arg) {
  kconv_pool *p = kconv_pool_get();
  int id = (int)(intptr_t)arg;
  unsigned long seen = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (seen == p->gen) pthread_cond_wait(&p->go, &p->mu);
    seen = p->gen;
    if (id >= p->ntasks) continue;
    void (*fn)(void *, int) = p->fn;
    void *a = p->arg;
    pthread_mutex_unlock(&p->mu);
    fn(a, id);
    pthread_mutex_lock(&p->mu);
    if (--p->pending == 0) pthread_cond_signal(&p->done);
  }
  return NULL;
}

/* Runs fn(arg, t) for t in [0, n), t = 0 on the calling thread; returns how many tasks ran in
 * parallel (1: none, the pool was busy or no thread could start; the caller runs the rest). */
static inline int kconv_pool_run(int n, void (*fn)(void *, int), void *arg) {
  kconv_pool *p = kconv_pool_get();
  if (pthread_mutex_trylock(&p->busy)) return 1;
  pthread_mutex_lock(&p->mu);
  if (!p->atfork) p->atfork = pthread_atfork(NULL, NULL, kconv_pool_atfork_child) == 0;
  while (p->nworkers < n - 1) {
    pthread_t th;
    if (pthread_create(&th, NULL, kconv_pool_worker, (void *)(intptr_t)(p->nworkers + 1))) break;
    pthread_detach(th);
    p->nworkers++;
  }
  if (n > p->nworkers + 1) n = p->nworkers + 1;
  if (n > 1) {
    p->fn = fn;
    p->arg = arg;
    p->ntasks = n;
    p->pending = n - 1;
    p->gen++;
    pthread_cond_broadcast(&p->go);
  }
  pthread_mutex_unlock(&p->mu);
  if (n > 1) {
    fn(arg, 0);
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
  }
  pthread_mutex_unlock(&p->busy);
  return n;
}
#endif

static inline void kconv_par_task0(void *arg, int t) {
  kconv_par *p = (kconv_par *)arg;
  if (t == 0) kconv_par_task(p, 0, p->w0);
  else kconv_par_worker_task(p, t);
}

/* C = epi(alpha * A B + (over ? 0 : C)): `over` (overwrite) makes the first K block store
 * instead of accumulate, so C is never read (BLAS's beta == 0: a NaN in C does not propagate);
 * epi (may be NULL) runs on each tile while it is in L1. Threaded as described above. */
static inline void kconv_sgemm_epi(kconv_gemm_ws *w, int64_t M, int64_t N, int64_t K,
                                   const float *A, int64_t rsa, int64_t csa, const float *B,
                                   int64_t rsb, int64_t csb, float *C, int64_t rsc, int64_t csc,
                                   float alpha, int over, const kconv_epi *epi) {
#ifdef KCONV_THREADS
  int64_t nt = kconv_min(w->nthreads, KCONV_MAX_THREADS);
  if (nt > 1 && M * N * K >= KCONV_PAR_MIN) {
    int64_t nb = (N + KCONV_NR - 1) / KCONV_NR, mb = (M + KCONV_MR - 1) / KCONV_MR;
    int split_n = nb >= mb;
    int64_t units = split_n ? nb : mb, step = split_n ? KCONV_NR : KCONV_MR;
    nt = kconv_min(nt, kconv_min(units, M * N * K / (KCONV_PAR_MIN / 2)));
    if (nt > 1) {
      kconv_par p = {w, M, N, K, A, B, rsa, csa, rsb, csb, rsc, csc, C, alpha, over, split_n,
                     epi, (units + nt - 1) / nt * step, {0}};
      int ntasks = (int)(((split_n ? N : M) + p.chunk - 1) / p.chunk);
      int ran = kconv_pool_run(ntasks, kconv_par_task0, &p);
      if (ran == 1) kconv_par_task(&p, 0, w);
      for (int t = 1; t < ntasks; t++)
        if (t >= ran || p.failed[t]) kconv_par_task(&p, t, w);
      return;
    }
  }
#endif
  kconv_sgemm_run(w, M, N, K, A, rsa, csa, B, rsb, csb, C, rsc, csc, alpha, over, epi);
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

/* ---- convolution -------------------------------------------------------------------------- */
/* Geometry with the op's 1..3 spatial dims right-aligned into 3 (missing ones are size 1). */
typedef struct kconv_geom {
  int nsp, transposed, batched;
  int64_t N, Cin, Cout, G;
  int64_t in[3], out[3], k[3], s[3], d[3], plo[3], phi[3], opad[3];
} kconv_geom;

static inline int64_t kconv_prod3(const int64_t *v) { return v[0] * v[1] * v[2]; }

/* Fills g from the tensors and the already-parsed per-dim lists (nsp entries each; pad_str:
 * NULL, "same" or "valid"). */
static inline int kconv_geom_init(mck_ctx *c, const char *op, kconv_geom *g, const mck_tensor *x,
                                  const mck_tensor *w, const mck_tensor *b, int transposed,
                                  const int64_t *stride, const int64_t *pad, const char *pad_str,
                                  const int64_t *dil, const int64_t *opad, int64_t groups) {
  int nsp = w->ndim - 2;
  if (nsp < 1 || nsp > 3) return mck_fail(c, "%s: weight must have 3 to 5 dims, got %d", op, w->ndim);
  if (x->ndim != nsp + 2 && x->ndim != nsp + 1) {
    return mck_fail(c, "%s: expected %dD or %dD input for %dD weight, got %dD", op, nsp + 1,
                    nsp + 2, w->ndim, x->ndim);
  }
  if (groups < 1) return mck_fail(c, "%s: groups must be positive, got %lld", op, (long long)groups);
  g->nsp = nsp;
  g->transposed = transposed;
  g->batched = x->ndim == nsp + 2;
  g->N = g->batched ? x->shape[0] : 1;
  g->Cin = x->shape[g->batched ? 1 : 0];
  g->G = groups;
  if (!transposed) {
    g->Cout = w->shape[0];
    if (w->shape[1] * groups != g->Cin || g->Cout % groups) {
      return mck_fail(c, "%s: input has %lld channels, weight %lldx%lld with groups=%lld", op,
                      (long long)g->Cin, (long long)w->shape[0], (long long)w->shape[1],
                      (long long)groups);
    }
  } else {
    if (w->shape[0] != g->Cin || g->Cin % groups) {
      return mck_fail(c, "%s: input has %lld channels, transposed weight has %lld (groups=%lld)",
                      op, (long long)g->Cin, (long long)w->shape[0], (long long)groups);
    }
    g->Cout = w->shape[1] * groups;
  }
  if (b && (b->ndim != 1 || b->shape[0] != g->Cout)) {
    return mck_fail(c, "%s: bias must have shape [%lld]", op, (long long)g->Cout);
  }
  for (int i = 0; i < 3; i++) {
    int j = i - (3 - nsp);
    int real = j >= 0;
    g->in[i] = real ? x->shape[x->ndim - nsp + j] : 1;
    g->k[i] = real ? w->shape[2 + j] : 1;
    g->s[i] = real ? stride[j] : 1;
    g->d[i] = real ? dil[j] : 1;
    g->opad[i] = real && opad ? opad[j] : 0;
    if (g->s[i] < 1 || g->d[i] < 1) return mck_fail(c, "%s: stride and dilation must be positive", op);
    if (!real) {
      g->plo[i] = g->phi[i] = 0;
    } else if (pad_str && !strcmp(pad_str, "same")) {
      int64_t tot = g->d[i] * (g->k[i] - 1);
      if (g->s[i] != 1) return mck_fail(c, "%s: padding='same' is not supported for strided convolutions", op);
      g->plo[i] = tot / 2;
      g->phi[i] = tot - tot / 2;
    } else if (pad_str && !strcmp(pad_str, "valid")) {
      g->plo[i] = g->phi[i] = 0;
    } else if (pad_str) {
      return mck_fail(c, "%s: invalid padding string '%s'", op, pad_str);
    } else {
      g->plo[i] = g->phi[i] = pad[j];
      if (pad[j] < 0) return mck_fail(c, "%s: negative padding is not supported", op);
    }
    if (transposed) {
      g->out[i] = (g->in[i] - 1) * g->s[i] - g->plo[i] - g->phi[i] + g->d[i] * (g->k[i] - 1) +
                  g->opad[i] + 1;
      if (real && (g->opad[i] >= g->s[i] && g->opad[i] >= g->d[i])) {
        return mck_fail(c, "%s: output padding must be smaller than either stride or dilation", op);
      }
    } else {
      g->out[i] = (g->in[i] + g->plo[i] + g->phi[i] - g->d[i] * (g->k[i] - 1) - 1) / g->s[i] + 1;
      if (g->in[i] + g->plo[i] + g->phi[i] < g->d[i] * (g->k[i] - 1) + 1) g->out[i] = 0;
    }
    if (real && g->out[i] < 1) {
      return mck_fail(c, "%s: input spatial size %lld with kernel %lld, padding %lld, dilation "
                      "%lld gives an empty output", op, (long long)g->in[i], (long long)g->k[i],
                      (long long)g->plo[i], (long long)g->d[i]);
    }
  }
  return 0;
}

/* Valid output positions o (0 <= o < nout) for which o*s - p + kk*d falls inside [0, nin). */
static inline void kconv_range(int64_t nin, int64_t nout, int64_t s, int64_t p, int64_t off,
                               int64_t *lo, int64_t *hi) {
  /* need 0 <= o*s + (off - p) < nin */
  int64_t base = off - p;
  *lo = kconv_max(0, kconv_ceildiv(-base, s));
  *hi = kconv_min(nout, kconv_floordiv(nin - 1 - base, s) + 1);
  if (*hi < *lo) *hi = *lo;
}

/* im2col of one group of channels: col[(c, kd, kh, kw)][od, oh, ow] (zero where padded). */
static inline void kconv_im2col(const kconv_geom *g, int64_t cg, const float *x, float *col) {
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in);
  for (int64_t ci = 0; ci < cg; ci++) {
    const float *xc = x + ci * IP;
    for (int64_t kd = 0; kd < g->k[0]; kd++)
      for (int64_t kh = 0; kh < g->k[1]; kh++)
        for (int64_t kw = 0; kw < g->k[2]; kw++) {
          float *dst = col;
          col += P;
          int64_t wlo, whi;
          kconv_range(g->in[2], g->out[2], g->s[2], g->plo[2], kw * g->d[2], &wlo, &whi);
          for (int64_t od = 0; od < g->out[0]; od++) {
            int64_t id = od * g->s[0] - g->plo[0] + kd * g->d[0];
            for (int64_t oh = 0; oh < g->out[1]; oh++, dst += g->out[2]) {
              int64_t ih = oh * g->s[1] - g->plo[1] + kh * g->d[1];
              if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1]) {
                for (int64_t ow = 0; ow < g->out[2]; ow++) dst[ow] = 0.0f;
                continue;
              }
              const float *src = xc + (id * g->in[1] + ih) * g->in[2] - g->plo[2] + kw * g->d[2];
              for (int64_t ow = 0; ow < wlo; ow++) dst[ow] = 0.0f;
              if (g->s[2] == 1) {
                for (int64_t ow = wlo; ow < whi; ow++) dst[ow] = src[ow];
              } else {
                for (int64_t ow = wlo; ow < whi; ow++) dst[ow] = src[ow * g->s[2]];
              }
              for (int64_t ow = whi; ow < g->out[2]; ow++) dst[ow] = 0.0f;
            }
          }
        }
  }
}

/* col2im for transposed convolution: y[m][o] += col[(m, kd, kh, kw)][i] where
 * o = i*s - p + k*d (per dim). col rows are over the input positions. */
static inline void kconv_col2im(const kconv_geom *g, int64_t mg, const float *col, float *y) {
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in);
  for (int64_t m = 0; m < mg; m++) {
    float *ym = y + m * P;
    for (int64_t kd = 0; kd < g->k[0]; kd++)
      for (int64_t kh = 0; kh < g->k[1]; kh++)
        for (int64_t kw = 0; kw < g->k[2]; kw++) {
          const float *src = col;
          col += IP;
          /* input positions iw with 0 <= iw*s - p + kw*d < OW */
          int64_t wlo, whi;
          kconv_range(g->out[2], g->in[2], g->s[2], g->plo[2], kw * g->d[2], &wlo, &whi);
          for (int64_t id = 0; id < g->in[0]; id++) {
            int64_t od = id * g->s[0] - g->plo[0] + kd * g->d[0];
            for (int64_t ih = 0; ih < g->in[1]; ih++, src += g->in[2]) {
              int64_t oh = ih * g->s[1] - g->plo[1] + kh * g->d[1];
              if (od < 0 || od >= g->out[0] || oh < 0 || oh >= g->out[1]) continue;
              float *dst = ym + (od * g->out[1] + oh) * g->out[2] - g->plo[2] + kw * g->d[2];
              for (int64_t iw = wlo; iw < whi; iw++) dst[iw * g->s[2]] += src[iw];
            }
          }
        }
  }
}

/* Depthwise-style direct convolution: one input channel per group (mg output channels each).
 * Output-row-major: each output row takes every kernel tap while it sits in L1 (a tap-major
 * order streams the whole plane through the cache once per tap). */
static inline void kconv_direct_f32(const kconv_geom *g, const float *x, const float *w,
                                    float *y, int act, double alo, double ahi) {
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in), K = kconv_prod3(g->k);
  int64_t mg = g->Cout / g->G, OW = g->out[2], s2 = g->s[2];
  int64_t wlo[64], whi[64];
  int64_t nkw = g->k[2] < 64 ? g->k[2] : 64;
  for (int64_t kw = 0; kw < nkw; kw++)
    kconv_range(g->in[2], OW, s2, g->plo[2], kw * g->d[2], &wlo[kw], &whi[kw]);
  for (int64_t oc = 0; oc < g->Cout; oc++) {
    const float *xc = x + (oc / mg) * IP;
    const float *wc = w + oc * K;
    for (int64_t od = 0; od < g->out[0]; od++)
      for (int64_t oh = 0; oh < g->out[1]; oh++) {
        float *dst = y + oc * P + (od * g->out[1] + oh) * OW;
        for (int64_t kd = 0; kd < g->k[0]; kd++) {
          int64_t id = od * g->s[0] - g->plo[0] + kd * g->d[0];
          if (id < 0 || id >= g->in[0]) continue;
          for (int64_t kh = 0; kh < g->k[1]; kh++) {
            int64_t ih = oh * g->s[1] - g->plo[1] + kh * g->d[1];
            if (ih < 0 || ih >= g->in[1]) continue;
            for (int64_t kw = 0; kw < g->k[2]; kw++) {
              float wv = wc[(kd * g->k[1] + kh) * g->k[2] + kw];
              int64_t lo, hi;
              if (kw < nkw) {
                lo = wlo[kw];
                hi = whi[kw];
              } else {
                kconv_range(g->in[2], OW, s2, g->plo[2], kw * g->d[2], &lo, &hi);
              }
              const float *src = xc + (id * g->in[1] + ih) * g->in[2] - g->plo[2] + kw * g->d[2];
              if (s2 == 1) {
                for (int64_t ow = lo; ow < hi; ow++) dst[ow] += wv * src[ow];
              } else if (s2 == 2) {
                for (int64_t ow = lo; ow < hi; ow++) dst[ow] += wv * src[2 * ow];
              } else {
                for (int64_t ow = lo; ow < hi; ow++) dst[ow] += wv * src[ow * s2];
              }
            }
          }
        }
        kconv_act_run(act, alo, ahi, dst, OW, 1);
      }
  }
}

/* y = act(conv(x, w) + b) in float32: the bias and the activation (KCONV_ACT_*, hardtanh
 * bounds lo, hi) are applied per tile in the GEMM epilogue, or per output row of the direct
 * loop; transposed convolution applies the activation per image after col2im. */
static inline int kconv_conv_f32(mck_ctx *c, const char *op, const kconv_geom *g,
                                 const mck_tensor *xt, const mck_tensor *wt, const mck_tensor *bt,
                                 mck_tensor *yt, int act, double lo, double hi) {
  float *xo, *wo, *bo = NULL, *col = NULL;
  const float *x = kconv_as_f32(xt, &xo), *w = kconv_as_f32(wt, &wo), *b = NULL;
  float *y = (float *)yt->data + yt->offset;
  kconv_gemm_ws ws = {NULL, NULL, 1};
  int rc = 0;
  if (bt) b = kconv_as_f32(bt, &bo);
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in), K = kconv_prod3(g->k);
  int64_t cg = g->Cin / g->G, mg = g->Cout / g->G;
  int direct = !g->transposed && cg == 1 && mg <= 4;
  int one = !g->transposed && K == 1 && g->s[0] * g->s[1] * g->s[2] == 1 &&
            g->plo[0] + g->plo[1] + g->plo[2] + g->phi[0] + g->phi[1] + g->phi[2] == 0;
  if (!x || !w || (bt && !b)) goto oom;
  if (!direct) {
    int64_t mn = kconv_max(mg, P);
    if (g->transposed ? kconv_gemm_ws_init_for(&ws, mg * K, IP, cg)
                      : kconv_gemm_ws_init_for(&ws, mn, mn, cg * K))
      goto oom;
    ws.nthreads = c->nthreads;
    if (!one) {
      col = kconv_scratch(2, g->transposed ? mg * K * IP : cg * K * P);
      if (!col) goto oom;
    }
  }
  for (int64_t n = 0; n < g->N; n++) {
    const float *xn = x + n * g->Cin * IP;
    float *yn = y + n * g->Cout * P;
    if (direct || g->transposed) {
      for (int64_t oc = 0; oc < g->Cout; oc++) {
        float bv = b ? b[oc] : 0.0f;
        for (int64_t i = 0; i < P; i++) yn[oc * P + i] = bv;
      }
    }
    if (direct) {
      kconv_direct_f32(g, xn, w, yn, act, lo, hi);
      continue;
    }
    for (int64_t gi = 0; gi < g->G; gi++) {
      const float *xg = xn + gi * cg * IP;
      float *yg = yn + gi * mg * P;
      if (g->transposed) {
        /* col[(m,k)][i] = sum_c W[c][(m,k)] x[c][i];  W is (Cin, mg*K) per group */
        int64_t rows = mg * K;
        for (int64_t i = 0; i < rows * IP; i++) col[i] = 0.0f;
        kconv_sgemm(&ws, rows, IP, cg, w + gi * cg * rows, 1, rows, xg, IP, 1, col, IP, 1);
        kconv_col2im(g, mg, col, yg);
      } else {
        const float *bm = xg;
        if (!one) {
          kconv_im2col(g, cg, xg, col);
          bm = col;
        }
        const float *wg = w + gi * mg * cg * K;
        kconv_epi e = {b ? b + gi * mg : NULL, 1, act, lo, hi};
        if (P < mg && P < 4 * KCONV_NR) {
          e.bias_rows = 0;
          kconv_sgemm_epi(&ws, P, mg, cg * K, bm, 1, P, wg, 1, cg * K, yg, 1, P, 1.0f, 1, &e);
        } else {
          kconv_sgemm_epi(&ws, mg, P, cg * K, wg, cg * K, 1, bm, P, 1, yg, P, 1, 1.0f, 1, &e);
        }
      }
    }
    if (g->transposed) kconv_act_run(act, lo, hi, yn, g->Cout * P, 1);
  }
  goto done;
oom:
  rc = mck_fail(c, "%s: out of memory", op);
done:
  kconv_gemm_ws_free(&ws);
  free(xo);
  free(wo);
  free(bo);
  return rc;
}

/* Reference convolution in double: direct loops, any float dtype. */
static inline int kconv_conv_generic(mck_ctx *c, const char *op, const kconv_geom *g,
                                     const mck_tensor *xt, const mck_tensor *wt,
                                     const mck_tensor *bt, mck_tensor *yt) {
  double *xo, *wo, *bo = NULL;
  const double *x = kconv_as_f64(xt, &xo), *w = kconv_as_f64(wt, &wo), *b = NULL;
  if (bt) b = kconv_as_f64(bt, &bo);
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in), K = kconv_prod3(g->k);
  int64_t cg = g->Cin / g->G, mg = g->Cout / g->G, total = g->N * g->Cout * P;
  double *y = (double *)kconv_alloc(total, sizeof(double));
  if (!x || !w || (bt && !b) || !y) {
    free(xo); free(wo); free(bo); free(y);
    return mck_fail(c, "%s: out of memory", op);
  }
  for (int64_t i = 0; i < total; i++) y[i] = b ? b[(i / P) % g->Cout] : 0.0;
  for (int64_t n = 0; n < g->N; n++)
    for (int64_t ci = 0; ci < g->Cin; ci++) {
      int64_t gi = ci / cg, cl = ci % cg;
      const double *xc = x + (n * g->Cin + ci) * IP;
      for (int64_t m = 0; m < mg; m++) {
        int64_t oc = gi * mg + m;
        double *yc = y + (n * g->Cout + oc) * P;
        const double *wk = g->transposed ? w + (ci * mg + m) * K : w + (oc * cg + cl) * K;
        for (int64_t kd = 0; kd < g->k[0]; kd++)
          for (int64_t kh = 0; kh < g->k[1]; kh++)
            for (int64_t kw = 0; kw < g->k[2]; kw++) {
              double wv = wk[(kd * g->k[1] + kh) * g->k[2] + kw];
              int64_t off[3] = {kd * g->d[0], kh * g->d[1], kw * g->d[2]};
              if (!g->transposed) {
                for (int64_t od = 0; od < g->out[0]; od++)
                  for (int64_t oh = 0; oh < g->out[1]; oh++)
                    for (int64_t ow = 0; ow < g->out[2]; ow++) {
                      int64_t id = od * g->s[0] - g->plo[0] + off[0];
                      int64_t ih = oh * g->s[1] - g->plo[1] + off[1];
                      int64_t iw = ow * g->s[2] - g->plo[2] + off[2];
                      if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1] || iw < 0 ||
                          iw >= g->in[2])
                        continue;
                      yc[(od * g->out[1] + oh) * g->out[2] + ow] +=
                          wv * xc[(id * g->in[1] + ih) * g->in[2] + iw];
                    }
              } else {
                for (int64_t id = 0; id < g->in[0]; id++)
                  for (int64_t ih = 0; ih < g->in[1]; ih++)
                    for (int64_t iw = 0; iw < g->in[2]; iw++) {
                      int64_t od = id * g->s[0] - g->plo[0] + off[0];
                      int64_t oh = ih * g->s[1] - g->plo[1] + off[1];
                      int64_t ow = iw * g->s[2] - g->plo[2] + off[2];
                      if (od < 0 || od >= g->out[0] || oh < 0 || oh >= g->out[1] || ow < 0 ||
                          ow >= g->out[2])
                        continue;
                      yc[(od * g->out[1] + oh) * g->out[2] + ow] +=
                          wv * xc[(id * g->in[1] + ih) * g->in[2] + iw];
                    }
              }
            }
      }
    }
  kconv_store(yt, y, total);
  free(xo); free(wo); free(bo); free(y);
  return 0;
}

/* Shared driver: parsed arguments -> output shape (meta) or values. */
static inline int kconv_conv_run(mck_ctx *c, const char *op, mck_arg *out, int nout,
                                 const mck_arg *xa, const mck_arg *wa, const mck_arg *ba,
                                 int transposed, const mck_arg *sa, const mck_arg *pa,
                                 const mck_arg *da, const mck_arg *opa, const mck_arg *ga,
                                 int act, double lo, double hi) {
  static const int64_t ones[3] = {1, 1, 1}, zeros[3] = {0, 0, 0};
  const mck_tensor *x = kconv_tensor(xa), *w = kconv_tensor(wa), *b = kconv_tensor(ba);
  int64_t stride[3] = {1, 1, 1}, pad[3] = {0, 0, 0}, dil[3] = {1, 1, 1}, opad[3] = {0, 0, 0},
          groups = 1;
  const char *pad_str = NULL;
  kconv_geom g;
  memset(&g, 0, sizeof g);
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || !w) return mck_fail(c, "%s: input and weight must be tensors", op);
  if (ba->kind != MCK_NONE && !b) return mck_fail(c, "%s: bias must be a tensor or None", op);
  int nsp = w->ndim - 2;
  if (nsp < 1 || nsp > 3) return mck_fail(c, "%s: weight must have 3 to 5 dims, got %d", op, w->ndim);
  if (kconv_ints(c, sa, nsp, ones, stride, op, "stride")) return -1;
  if (pa->kind == MCK_STR) {
    pad_str = pa->u.s;
  } else if (kconv_ints(c, pa, nsp, zeros, pad, op, "padding")) {
    return -1;
  }
  if (kconv_ints(c, da, nsp, ones, dil, op, "dilation")) return -1;
  if (kconv_ints(c, opa, nsp, zeros, opad, op, "output_padding")) return -1;
  if (kconv_int(c, ga, 1, &groups, op, "groups")) return -1;
  if (!kconv_is_floatish(x->dtype) || x->dtype != w->dtype || (b && b->dtype != x->dtype)) {
    return mck_fail(c, "%s: input %s, weight %s%s%s: expected the same floating dtype", op,
                    mck_dtype_name(x->dtype), mck_dtype_name(w->dtype), b ? ", bias " : "",
                    b ? mck_dtype_name(b->dtype) : "");
  }
  if (kconv_geom_init(c, op, &g, x, w, b, transposed, stride, pad, pad_str, dil, opad, groups)) {
    return -1;
  }
  int64_t shape[5];
  int r = 0;
  if (g.batched) shape[r++] = g.N;
  shape[r++] = g.Cout;
  for (int i = 3 - nsp; i < 3; i++) shape[r++] = g.out[i];
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, x->dtype, r, shape)) return -1;
  if (c->meta || mck_numel(y) == 0) return 0;
  if (x->dtype == MCK_F32) return kconv_conv_f32(c, op, &g, x, w, b, y, act, lo, hi);
  if (kconv_conv_generic(c, op, &g, x, w, b, y)) return -1;
  if (act != KCONV_ACT_NONE) {
    int64_t n = mck_numel(y);
    for (int64_t i = 0; i < n; i++)
      mck_setf(y, y->offset + i, kconv_act_f(act, mck_getf(y, y->offset + i), lo, hi));
  }
  return 0;
}

/* aten::_convolution(input, weight, bias?, stride, padding, dilation, transposed,
 *                    output_padding, groups, benchmark, deterministic, cudnn_enabled[, allow_tf32]) */
static inline int mckc_convolution(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  int tr = 0;
  if (kconv_bool(c, kconv_arg(in, nin, 6), 0, 1, &tr, "aten::_convolution", "transposed")) return -1;
  return kconv_conv_run(c, "aten::_convolution", out, nout, kconv_arg(in, nin, 0),
                        kconv_arg(in, nin, 1), kconv_arg(in, nin, 2), tr, kconv_arg(in, nin, 3),
                        kconv_arg(in, nin, 4), kconv_arg(in, nin, 5), kconv_arg(in, nin, 7),
                        kconv_arg(in, nin, 8), KCONV_ACT_NONE, 0, 0);
}

/* aten::conv{1,2,3}d(input, weight, bias?, stride, padding (int[] or str), dilation, groups)
 * and aten::_convolution_mode (same arguments, str padding). */
static inline int mckc_conv(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  return kconv_conv_run(c, "aten::conv", out, nout, kconv_arg(in, nin, 0), kconv_arg(in, nin, 1),
                        kconv_arg(in, nin, 2), 0, kconv_arg(in, nin, 3), kconv_arg(in, nin, 4),
                        kconv_arg(in, nin, 5), &none, kconv_arg(in, nin, 6), KCONV_ACT_NONE, 0, 0);
}

/* mc::conv_act(input, weight, bias?, stride, padding (int[] or str), dilation, groups, act, a, b)
 * = act(conv(input, weight, bias)), made by the fuse pass; act names a KCONV_ACT_* ("relu",
 * "hardtanh" with bounds a, b, "sigmoid", "tanh", "silu", "hardswish", "gelu", "gelu_tanh",
 * "none"). */
static inline int mckc_conv_act(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  int act;
  double lo, hi;
  if (kconv_act_args(c, "mc::conv_act", kconv_arg(in, nin, 7), kconv_arg(in, nin, 8),
                     kconv_arg(in, nin, 9), &act, &lo, &hi))
    return -1;
  return kconv_conv_run(c, "mc::conv_act", out, nout, kconv_arg(in, nin, 0), kconv_arg(in, nin, 1),
                        kconv_arg(in, nin, 2), 0, kconv_arg(in, nin, 3), kconv_arg(in, nin, 4),
                        kconv_arg(in, nin, 5), &none, kconv_arg(in, nin, 6), act, lo, hi);
}

/* aten::conv_transpose{1,2,3}d(input, weight, bias?, stride, padding, output_padding, groups,
 *                              dilation) */
static inline int mckc_conv_transpose(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                      int nin) {
  return kconv_conv_run(c, "aten::conv_transpose", out, nout, kconv_arg(in, nin, 0),
                        kconv_arg(in, nin, 1), kconv_arg(in, nin, 2), 1, kconv_arg(in, nin, 3),
                        kconv_arg(in, nin, 4), kconv_arg(in, nin, 7), kconv_arg(in, nin, 5),
                        kconv_arg(in, nin, 6), KCONV_ACT_NONE, 0, 0);
}

/* ---- normalisation ----------------------------------------------------------------------- */
/* Float32 tensors are read and written through plain pointers; other dtypes through
 * mck_getf / mck_setf. Statistics are always accumulated in double. */
static inline double kconv_ld(const mck_tensor *t, const float *f, int64_t off) {
  return f ? (double)f[off] : mck_getf(t, off);
}
static inline void kconv_st(mck_tensor *t, float *f, int64_t off, double v) {
  if (f) f[off] = (float)v;
  else mck_setf(t, off, v);
}
static inline const float *kconv_f32p(const mck_tensor *t) {
  return t->dtype == MCK_F32 ? (const float *)t->data : NULL;
}
static inline float *kconv_f32w(mck_tensor *t) {
  return t->dtype == MCK_F32 ? (float *)t->data : NULL;
}

/* A per-channel parameter (weight, bias, running stats) as n doubles; absent -> dflt. */
static inline int kconv_param(mck_ctx *c, const char *op, const char *what, const mck_arg *a,
                              int64_t n, double dflt, double *out) {
  const mck_tensor *t = kconv_tensor(a);
  if (!t) {
    if (a->kind != MCK_NONE) return mck_fail(c, "%s: %s must be a tensor or None", op, what);
    for (int64_t i = 0; i < n; i++) out[i] = dflt;
    return 0;
  }
  if (mck_numel(t) != n) {
    return mck_fail(c, "%s: %s has %lld elements, expected %lld", op, what,
                    (long long)mck_numel(t), (long long)n);
  }
  if (c->meta) return 0;
  mck_iter it;
  const int64_t *st[1] = {t->stride};
  int64_t base[1] = {t->offset};
  mck_iter_init(&it, t->ndim, t->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) out[k] = mck_getf(t, it.off[0]);
  return 0;
}

/* y = x * a[ch] + b[ch] where ch is the index along dim 1 (batch_norm inference form). */
static inline void kconv_chan_affine(const mck_tensor *x, mck_tensor *y, const double *a,
                                     const double *b) {
  int64_t n = mck_numel(x);
  if (x->dtype == MCK_F32 && y->dtype == MCK_F32 && mck_is_contiguous(x)) {
    const float *xp = (const float *)x->data + x->offset;
    float *yp = (float *)y->data + y->offset;
    int64_t C = x->shape[1], S = n / (x->shape[0] * C > 0 ? x->shape[0] * C : 1);
    for (int64_t p = 0; p < x->shape[0] * C; p++) {
      float av = (float)a[p % C], bv = (float)b[p % C];
      const float *xr = xp + p * S;
      float *yr = yp + p * S;
      for (int64_t i = 0; i < S; i++) yr[i] = xr[i] * av + bv;
    }
    return;
  }
  mck_iter it;
  const int64_t *st[2] = {x->stride, y->stride};
  int64_t base[2] = {x->offset, y->offset};
  mck_iter_init(&it, x->ndim, x->shape, 2, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) {
    int64_t ch = it.idx[1];
    mck_setf(y, it.off[1], mck_getf(x, it.off[0]) * a[ch] + b[ch]);
  }
}

/* Per-channel (dim 1) batch mean and biased variance. */
static inline void kconv_chan_stats(const mck_tensor *x, double *mean, double *var) {
  int64_t n = mck_numel(x), C = x->shape[1], cnt = C ? n / C : 0;
  mck_iter it;
  const int64_t *st[1] = {x->stride};
  int64_t base[1] = {x->offset};
  for (int64_t ch = 0; ch < C; ch++) mean[ch] = var[ch] = 0.0;
  mck_iter_init(&it, x->ndim, x->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) mean[it.idx[1]] += mck_getf(x, it.off[0]);
  for (int64_t ch = 0; ch < C; ch++) mean[ch] /= (double)(cnt ? cnt : 1);
  mck_iter_init(&it, x->ndim, x->shape, 1, st, base);
  for (int64_t k = 0; k < n; k++, mck_iter_next(&it)) {
    double d = mck_getf(x, it.off[0]) - mean[it.idx[1]];
    var[it.idx[1]] += d * d;
  }
  for (int64_t ch = 0; ch < C; ch++) var[ch] /= (double)(cnt ? cnt : 1);
}

/* Shared by batch_norm and instance_norm (use_input_stats=false): channel-wise affine from
 * running (or batch) statistics. */
static inline int kconv_bn(mck_ctx *c, const char *op, mck_arg *out, int nout, const mck_arg *in,
                           int nin, int batch_stats) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  double eps = 1e-5;
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (x->ndim < 2) return mck_fail(c, "%s: expected at least 2D input, got %dD", op, x->ndim);
  if (!mck_is_float(x->dtype)) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (kconv_float(c, kconv_arg(in, nin, 7), 1e-5, &eps, op, "eps")) return -1;
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  int64_t C = x->shape[1];
  double *buf = (double *)kconv_alloc(6 * C, sizeof(double));
  if (!buf) return mck_fail(c, "%s: out of memory", op);
  double *w = buf, *b = buf + C, *rm = buf + 2 * C, *rv = buf + 3 * C, *a = buf + 4 * C,
         *sh = buf + 5 * C;
  int rc = kconv_param(c, op, "weight", kconv_arg(in, nin, 1), C, 1.0, w) ||
           kconv_param(c, op, "bias", kconv_arg(in, nin, 2), C, 0.0, b) ||
           kconv_param(c, op, "running_mean", kconv_arg(in, nin, 3), C, 0.0, rm) ||
           kconv_param(c, op, "running_var", kconv_arg(in, nin, 4), C, 1.0, rv);
  if (!rc && !batch_stats && (kconv_arg(in, nin, 3)->kind == MCK_NONE ||
                              kconv_arg(in, nin, 4)->kind == MCK_NONE)) {
    rc = mck_fail(c, "%s: running_mean and running_var must be defined in evaluation mode", op);
  }
  if (!rc && !c->meta && mck_numel(x) > 0) {
    if (batch_stats) kconv_chan_stats(x, rm, rv);
    for (int64_t ch = 0; ch < C; ch++) {
      a[ch] = w[ch] / sqrt(rv[ch] + eps);
      sh[ch] = b[ch] - rm[ch] * a[ch];
    }
    kconv_chan_affine(x, out[0].u.t, a, sh);
  }
  free(buf);
  return rc ? -1 : 0;
}

/* aten::batch_norm(input, weight?, bias?, running_mean?, running_var?, training, momentum, eps,
 * cudnn_enabled). training=true normalises with the batch statistics; the running statistics
 * are not updated (mc has no side effect for it). */
static inline int mckc_batch_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  int training = 0;
  if (kconv_bool(c, kconv_arg(in, nin, 5), 1, 0, &training, "aten::batch_norm", "training")) return -1;
  return kconv_bn(c, "aten::batch_norm", out, nout, in, nin, training);
}

/* Row-wise normalisation: R rows of L contiguous-in-logical-order elements of x; each row
 * normalised with its own mean / biased variance, then scaled by w[ch] + b[ch], where
 * ch = (r % G) * cg + j / S (group/instance norm) or ch = j (G == 0: layer norm). */
typedef struct kconv_rows {
  int64_t R, L, G, cg, S;
} kconv_rows;

static inline int kconv_rownorm(mck_ctx *c, const char *op, const mck_tensor *x, mck_tensor *y,
                                const kconv_rows *rw, const double *w, const double *b,
                                double eps) {
  float *xo = NULL;
  double *xd = NULL, *yd = NULL;
  const float *xf = NULL;
  const double *xdd = NULL;
  int64_t total = rw->R * rw->L;
  if (x->dtype == MCK_F32) {
    xf = kconv_as_f32(x, &xo);
  } else {
    xdd = kconv_as_f64(x, &xd);
  }
  float *yf = y->dtype == MCK_F32 ? (float *)y->data + y->offset : NULL;
  if (!yf) yd = (double *)kconv_alloc(total, sizeof(double));
  if ((!xf && !xdd) || (!yf && !yd)) {
    free(xo); free(xd); free(yd);
    return mck_fail(c, "%s: out of memory", op);
  }
  for (int64_t r = 0; r < rw->R; r++) {
    int64_t o = r * rw->L;
    double s = 0.0, v = 0.0;
    for (int64_t j = 0; j < rw->L; j++) s += xf ? (double)xf[o + j] : xdd[o + j];
    double mean = rw->L ? s / (double)rw->L : 0.0;
    for (int64_t j = 0; j < rw->L; j++) {
      double d = (xf ? (double)xf[o + j] : xdd[o + j]) - mean;
      v += d * d;
    }
    double rstd = 1.0 / sqrt((rw->L ? v / (double)rw->L : 0.0) + eps);
    for (int64_t j = 0; j < rw->L; j++) {
      int64_t ch = rw->G ? (r % rw->G) * rw->cg + j / rw->S : j;
      double val = ((xf ? (double)xf[o + j] : xdd[o + j]) - mean) * rstd * w[ch] + b[ch];
      if (yf) yf[o + j] = (float)val;
      else yd[o + j] = val;
    }
  }
  if (yd) kconv_store(y, yd, total);
  free(xo); free(xd); free(yd);
  return 0;
}

/* aten::instance_norm(input, weight?, bias?, running_mean?, running_var?, use_input_stats,
 * momentum, eps, cudnn_enabled) */
static inline int mckc_instance_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                     int nin) {
  const char *op = "aten::instance_norm";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  int use_stats = 1;
  double eps = 1e-5;
  if (kconv_bool(c, kconv_arg(in, nin, 5), 1, 0, &use_stats, op, "use_input_stats")) return -1;
  if (!use_stats) return kconv_bn(c, op, out, nout, in, nin, 0);
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || x->ndim < 2) return mck_fail(c, "%s: expected a tensor of at least 2 dims", op);
  if (!mck_is_float(x->dtype)) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (kconv_float(c, kconv_arg(in, nin, 7), 1e-5, &eps, op, "eps")) return -1;
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  int64_t C = x->shape[1], n = mck_numel(x);
  double *wb = (double *)kconv_alloc(2 * C, sizeof(double));
  if (!wb) return mck_fail(c, "%s: out of memory", op);
  int rc = kconv_param(c, op, "weight", kconv_arg(in, nin, 1), C, 1.0, wb) ||
           kconv_param(c, op, "bias", kconv_arg(in, nin, 2), C, 0.0, wb + C);
  if (!rc && !c->meta && n > 0) {
    kconv_rows rw;
    rw.R = x->shape[0] * C;
    rw.L = n / rw.R;
    rw.G = C;
    rw.cg = 1;
    rw.S = rw.L ? rw.L : 1;
    rc = kconv_rownorm(c, op, x, out[0].u.t, &rw, wb, wb + C, eps);
  }
  free(wb);
  return rc ? -1 : 0;
}

/* aten::layer_norm(input, normalized_shape, weight?, bias?, eps, cudnn_enable) */
static inline int mckc_layer_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::layer_norm";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  const mck_arg *ns = kconv_arg(in, nin, 1);
  double eps = 1e-5;
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (!mck_is_float(x->dtype)) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (ns->kind == MCK_UNKNOWN) return mck_fail(c, "%s: normalized_shape must be a compile-time constant", op);
  int k = ns->kind == MCK_INTS ? ns->n : ns->kind == MCK_INT ? 1 : -1;
  if (k < 1 || k > x->ndim) return mck_fail(c, "%s: bad normalized_shape for a %dD input", op, x->ndim);
  int64_t L = 1;
  for (int i = 0; i < k; i++) {
    int64_t v = ns->kind == MCK_INT ? ns->u.i : ns->u.ints[i];
    if (x->shape[x->ndim - k + i] != v) {
      return mck_fail(c, "%s: normalized_shape[%d]=%lld does not match input dim %d of size %lld",
                      op, i, (long long)v, x->ndim - k + i, (long long)x->shape[x->ndim - k + i]);
    }
    L *= v;
  }
  if (kconv_float(c, kconv_arg(in, nin, 4), 1e-5, &eps, op, "eps")) return -1;
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  double *wb = (double *)kconv_alloc(2 * L, sizeof(double));
  if (!wb) return mck_fail(c, "%s: out of memory", op);
  int rc = kconv_param(c, op, "weight", kconv_arg(in, nin, 2), L, 1.0, wb) ||
           kconv_param(c, op, "bias", kconv_arg(in, nin, 3), L, 0.0, wb + L);
  if (!rc && !c->meta && mck_numel(x) > 0) {
    kconv_rows rw;
    rw.L = L;
    rw.R = mck_numel(x) / L;
    rw.G = 0;
    rw.cg = rw.S = 1;
    rc = kconv_rownorm(c, op, x, out[0].u.t, &rw, wb, wb + L, eps);
  }
  free(wb);
  return rc ? -1 : 0;
}

/* aten::group_norm(input, num_groups, weight?, bias?, eps, cudnn_enabled) */
static inline int mckc_group_norm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::group_norm";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  int64_t G = 1;
  double eps = 1e-5;
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || x->ndim < 2) return mck_fail(c, "%s: expected a tensor of at least 2 dims", op);
  if (!mck_is_float(x->dtype)) return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (kconv_int(c, kconv_arg(in, nin, 1), 1, &G, op, "num_groups")) return -1;
  int64_t C = x->shape[1];
  if (G < 1 || C % G) {
    return mck_fail(c, "%s: %lld channels are not divisible into %lld groups", op, (long long)C,
                    (long long)G);
  }
  if (kconv_float(c, kconv_arg(in, nin, 4), 1e-5, &eps, op, "eps")) return -1;
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  double *wb = (double *)kconv_alloc(2 * C, sizeof(double));
  if (!wb) return mck_fail(c, "%s: out of memory", op);
  int rc = kconv_param(c, op, "weight", kconv_arg(in, nin, 2), C, 1.0, wb) ||
           kconv_param(c, op, "bias", kconv_arg(in, nin, 3), C, 0.0, wb + C);
  int64_t n = mck_numel(x);
  if (!rc && !c->meta && n > 0) {
    kconv_rows rw;
    rw.R = x->shape[0] * G;
    rw.L = n / rw.R;
    rw.G = G;
    rw.cg = C / G;
    rw.S = rw.L / rw.cg ? rw.L / rw.cg : 1;
    rc = kconv_rownorm(c, op, x, out[0].u.t, &rw, wb, wb + C, eps);
  }
  free(wb);
  return rc ? -1 : 0;
}

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
            kconv_st(y, yf, y->offset + q, (double)((int64_t)s / div));
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
    u->OH = (int64_t)((double)p->H * u->sh);
    u->OW = (int64_t)((double)p->W * u->sw);
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
  int64_t i = (int64_t)floorf((float)o * scale);
  return i < in - 1 ? i : in - 1;
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
    *i0 = (int64_t)r;
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
    *i0 = (int64_t)r;
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

/* ---- padding and channel permutations ----------------------------------------------------- */
enum { KCONV_PAD_CONST, KCONV_PAD_REFLECT, KCONV_PAD_REPLICATE, KCONV_PAD_CIRCULAR };

/* Copies element bytes: y[k] (contiguous) from x at the source of each output position; pads
 * the last npairs dims by pad[] (PyTorch order: last dim first, left then right). */
static inline int kconv_pad_run(mck_ctx *c, const char *op, mck_arg *out, int nout,
                                const mck_tensor *x, const mck_arg *pa, int mode,
                                const mck_arg *va) {
  int64_t pads[2 * MCK_MAX_DIMS], lo[MCK_MAX_DIMS], shape[MCK_MAX_DIMS];
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (pa->kind == MCK_UNKNOWN) return mck_fail(c, "%s: pad must be a compile-time constant", op);
  if (pa->kind != MCK_INTS || pa->n % 2 || pa->n / 2 > x->ndim) {
    return mck_fail(c, "%s: pad must be an even-length int list of at most 2*%d values", op, x->ndim);
  }
  int np = pa->n / 2;
  for (int i = 0; i < 2 * np; i++) pads[i] = pa->u.ints[i];
  for (int d = 0; d < x->ndim; d++) {
    int k = x->ndim - 1 - d; /* pair index */
    lo[d] = k < np ? pads[2 * k] : 0;
    int64_t hi = k < np ? pads[2 * k + 1] : 0;
    shape[d] = x->shape[d] + lo[d] + hi;
    if (k < np && mode == KCONV_PAD_REFLECT && (lo[d] >= x->shape[d] || hi >= x->shape[d])) {
      return mck_fail(c, "%s: padding (%lld, %lld) should be less than the input dim %d of "
                      "size %lld", op, (long long)lo[d], (long long)hi, d, (long long)x->shape[d]);
    }
    if (k < np && mode == KCONV_PAD_CIRCULAR && (lo[d] > x->shape[d] || hi > x->shape[d])) {
      return mck_fail(c, "%s: circular padding larger than dim %d of size %lld", op, d,
                      (long long)x->shape[d]);
    }
    if (k < np && mode != KCONV_PAD_CONST && shape[d] > 0 && x->shape[d] == 0) {
      return mck_fail(c, "%s: cannot pad an empty dim %d in this mode", op, d);
    }
    if (shape[d] < 0) return mck_fail(c, "%s: padding makes dim %d negative", op, d);
  }
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, x->dtype, x->ndim, shape)) return -1;
  if (c->meta) return 0;
  double v = 0.0;
  if (va->kind != MCK_NONE && !mck_arg_is_scalar(va)) return mck_fail(c, "%s: bad pad value", op);
  if (va->kind != MCK_NONE) v = mck_arg_f(va);
  size_t es = mck_dtype_size(x->dtype);
  unsigned char fill[8];
  mck_tensor ft = *y;
  ft.data = fill;
  ft.offset = 0;
  if (va->kind == MCK_INT && mck_is_int(x->dtype)) mck_seti(&ft, 0, va->u.i);
  else mck_setf(&ft, 0, v);
  int64_t n = mck_numel(y), idx[MCK_MAX_DIMS] = {0};
  const char *xs = (const char *)x->data;
  char *ys = (char *)y->data + (size_t)y->offset * es;
  for (int64_t k = 0; k < n; k++) {
    int64_t off = x->offset;
    int inside = 1;
    for (int d = 0; d < x->ndim && inside; d++) {
      int64_t i = idx[d] - lo[d], S = x->shape[d];
      if (i < 0 || i >= S) {
        if (mode == KCONV_PAD_CONST) inside = 0;
        else if (mode == KCONV_PAD_REPLICATE) i = i < 0 ? 0 : S - 1;
        else if (mode == KCONV_PAD_REFLECT) i = i < 0 ? -i : 2 * (S - 1) - i;
        else i = ((i % S) + S) % S;
      }
      off += i * x->stride[d];
    }
    memcpy(ys + (size_t)k * es, inside ? xs + (size_t)off * es : (const char *)fill, es);
    for (int d = x->ndim - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return 0;
}

/* aten::pad(self, pad, mode="constant", value?) */
static inline int mckc_pad(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::pad";
  const mck_arg *ma = kconv_arg(in, nin, 2);
  int mode = KCONV_PAD_CONST;
  if (ma->kind == MCK_STR) {
    if (!strcmp(ma->u.s, "constant")) mode = KCONV_PAD_CONST;
    else if (!strcmp(ma->u.s, "reflect")) mode = KCONV_PAD_REFLECT;
    else if (!strcmp(ma->u.s, "replicate")) mode = KCONV_PAD_REPLICATE;
    else if (!strcmp(ma->u.s, "circular")) mode = KCONV_PAD_CIRCULAR;
    else return mck_fail(c, "%s: unknown padding mode '%s'", op, ma->u.s);
  } else if (ma->kind != MCK_NONE) {
    return mck_fail(c, "%s: mode must be a string", op);
  }
  const mck_arg *va = kconv_arg(in, nin, 3);
  if (mode != KCONV_PAD_CONST && va->kind != MCK_NONE && mck_arg_f(va) != 0.0) {
    return mck_fail(c, "%s: padding mode '%s' doesn't take in value argument", op, ma->u.s);
  }
  return kconv_pad_run(c, op, out, nout, kconv_tensor(kconv_arg(in, nin, 0)),
                       kconv_arg(in, nin, 1), mode, va);
}
/* aten::constant_pad_nd(self, pad, value=0) */
static inline int mckc_constant_pad_nd(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  return kconv_pad_run(c, "aten::constant_pad_nd", out, nout, kconv_tensor(kconv_arg(in, nin, 0)),
                       kconv_arg(in, nin, 1), KCONV_PAD_CONST, kconv_arg(in, nin, 2));
}
/* aten::reflection_pad{1,2}d(self, padding) */
static inline int mckc_reflection_pad(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                      int nin) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  return kconv_pad_run(c, "aten::reflection_pad", out, nout, kconv_tensor(kconv_arg(in, nin, 0)),
                       kconv_arg(in, nin, 1), KCONV_PAD_REFLECT, &none);
}
/* aten::replication_pad{1,2}d(self, padding) */
static inline int mckc_replication_pad(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  return kconv_pad_run(c, "aten::replication_pad", out, nout,
                       kconv_tensor(kconv_arg(in, nin, 0)), kconv_arg(in, nin, 1),
                       KCONV_PAD_REPLICATE, &none);
}

/* Copies the strided view (ndim, shape, stride, offset) of x's storage into the contiguous
 * output y element by element (bytes, so every dtype is exact). */
static inline void kconv_copy_view(const mck_tensor *x, int ndim, const int64_t *shape,
                                   const int64_t *stride, int64_t offset, mck_tensor *y) {
  size_t es = mck_dtype_size(x->dtype);
  mck_iter it;
  const int64_t *st[1] = {stride};
  int64_t base[1] = {offset};
  mck_iter_init(&it, ndim, shape, 1, st, base);
  const char *xs = (const char *)x->data;
  char *ys = (char *)y->data + (size_t)y->offset * es;
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    memcpy(ys + (size_t)k * es, xs + (size_t)it.off[0] * es, es);
  }
}

/* pixel_shuffle (up = 1): (*, C*r*r, H, W) -> (*, C, H*r, W*r); pixel_unshuffle (up = 0):
 * the inverse. Both are one strided read of the input. */
static inline int kconv_shuffle(mck_ctx *c, const char *op, int up, mck_arg *out, int nout,
                                const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  int64_t r = 1, shape[MCK_MAX_DIMS], vs[MCK_MAX_DIMS], vst[MCK_MAX_DIMS];
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || x->ndim < 3) return mck_fail(c, "%s: expected an input of at least 3 dims", op);
  if (kconv_int(c, kconv_arg(in, nin, 1), 1, &r, op, "factor")) return -1;
  int nd = x->ndim, lead = nd - 3;
  if (r < 1) return mck_fail(c, "%s: factor must be positive", op);
  if (lead + 5 > MCK_MAX_DIMS) return mck_fail(c, "%s: too many leading dims", op);
  int64_t C = x->shape[nd - 3], H = x->shape[nd - 2], W = x->shape[nd - 1];
  int64_t sC = x->stride[nd - 3], sH = x->stride[nd - 2], sW = x->stride[nd - 1];
  for (int i = 0; i < lead; i++) {
    shape[i] = vs[i] = x->shape[i];
    vst[i] = x->stride[i];
  }
  if (up) {
    if (C % (r * r)) return mck_fail(c, "%s: channels %lld not divisible by %lld", op, (long long)C, (long long)(r * r));
    shape[lead] = C / (r * r);
    shape[lead + 1] = H * r;
    shape[lead + 2] = W * r;
    /* output (c, h, i, w, j) <- input (c*r*r + i*r + j, h, w) */
    int64_t v[5] = {C / (r * r), H, r, W, r}, s[5] = {sC * r * r, sH, sC * r, sW, sC};
    for (int i = 0; i < 5; i++) { vs[lead + i] = v[i]; vst[lead + i] = s[i]; }
  } else {
    if (H % r || W % r) return mck_fail(c, "%s: spatial size %lldx%lld not divisible by %lld", op, (long long)H, (long long)W, (long long)r);
    shape[lead] = C * r * r;
    shape[lead + 1] = H / r;
    shape[lead + 2] = W / r;
    /* output (c, i, j, h, w) <- input (c, h*r + i, w*r + j) */
    int64_t v[5] = {C, r, r, H / r, W / r}, s[5] = {sC, sH, sW, sH * r, sW * r};
    for (int i = 0; i < 5; i++) { vs[lead + i] = v[i]; vst[lead + i] = s[i]; }
  }
  if (mck_out(c, out[0].u.t, x->dtype, nd, shape)) return -1;
  if (c->meta) return 0;
  kconv_copy_view(x, lead + 5, vs, vst, x->offset, out[0].u.t);
  return 0;
}

/* aten::pixel_shuffle(self, upscale_factor) */
static inline int mckc_pixel_shuffle(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kconv_shuffle(c, "aten::pixel_shuffle", 1, out, nout, in, nin);
}
/* aten::pixel_unshuffle(self, downscale_factor) */
static inline int mckc_pixel_unshuffle(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  return kconv_shuffle(c, "aten::pixel_unshuffle", 0, out, nout, in, nin);
}

/* aten::channel_shuffle(self, groups): channel a*g + b of the output is channel b*(C/g) + a. */
static inline int mckc_channel_shuffle(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  const char *op = "aten::channel_shuffle";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  int64_t g = 1, vs[MCK_MAX_DIMS], vst[MCK_MAX_DIMS];
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || x->ndim < 3) return mck_fail(c, "%s: expected an input of at least 3 dims", op);
  if (x->ndim + 1 > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dims", op);
  if (kconv_int(c, kconv_arg(in, nin, 1), 1, &g, op, "groups")) return -1;
  int64_t C = x->shape[1];
  if (g < 1 || C % g) return mck_fail(c, "%s: %lld channels not divisible into %lld groups", op, (long long)C, (long long)g);
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  if (c->meta) return 0;
  vs[0] = x->shape[0];
  vst[0] = x->stride[0];
  vs[1] = C / g;
  vst[1] = x->stride[1];
  vs[2] = g;
  vst[2] = x->stride[1] * (C / g);
  for (int d = 2; d < x->ndim; d++) {
    vs[d + 1] = x->shape[d];
    vst[d + 1] = x->stride[d];
  }
  kconv_copy_view(x, x->ndim + 1, vs, vst, x->offset, out[0].u.t);
  return 0;
}

#endif
