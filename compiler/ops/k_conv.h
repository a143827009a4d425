/* k_conv.h — the float32 GEMM core (packing, register tiles, threads) and the convolution
 * kernels: aten::_convolution, conv{1,2,3}d, conv_transpose{1,2,3}d, mc::conv_act.
 *
 * Every kernel follows mck.h's contract: inputs follow the TorchScript schema positionally
 * (trailing defaulted inputs may be missing), outputs are fresh contiguous tensors prepared by
 * the caller, ctx->meta computes only dtype and shape. Inputs may be arbitrarily strided.
 *
 * Numerics: float32 runs fast paths (convolution = a cache-blocked, register-tiled SGEMM that
 * reads its input through an implicit im2col (kconv_gather) and, when the emitter prepacked it,
 * its weight in the GEMM's own panel layout; or a direct loop for depthwise, k_dw.h); every
 * other float dtype runs the generic path, which computes in double and rounds once on store.
 * Integer inputs are rejected where PyTorch rejects them.
 *
 * Fused activations (mc::conv_act, mc::linear_act, mc::add_act; made by passes/fuse.c): the
 * activation is applied in the GEMM's store epilogue, to each register tile right after its
 * last K block is stored (bias first: acc + b, then act), or per output row of the direct
 * depthwise loop, with the float32 functions of k_act.h (the ones the unfused float32 kernels
 * use, so fusing does not change a bit). Every float32 GEMM convolution adds its bias in the
 * epilogue (acc + b, as PyTorch does) rather than accumulating onto a bias-filled output.
 *
 * The family is split over k_act.h (activations), this file (arguments, GEMM, threads,
 * convolution), k_dw.h (direct depthwise), k_norm.h (normalisation) and k_pool.h (pooling,
 * resampling, padding, shuffles).
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
  if (n < 1) n = 1;
  if (es && (uint64_t)n > (uint64_t)SIZE_MAX / es) return NULL; /* the size does not fit */
  return malloc((size_t)n * es);
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

#include "k_act.h"

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

/* Geometry with the op's 1..3 spatial dims right-aligned into 3 (missing ones are size 1). */
typedef struct kconv_geom {
  int nsp, transposed, batched;
  int64_t N, Cin, Cout, G;
  int64_t in[3], out[3], k[3], s[3], d[3], plo[3], phi[3], opad[3];
} kconv_geom;

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
typedef int kconv_vi __attribute__((vector_size(KCONV_VW * 4)));
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

/* 64-byte aligned blocks from malloc (the pointer malloc returned is kept just before the
 * block), so the kernels need neither aligned_alloc (C11; newlib's wants posix_memalign) nor
 * posix_memalign (POSIX; newlib-nano lacks it): C99 and bare-metal libraries build them as
 * they are. NULL when out of memory or when the block would not fit a ptrdiff_t. */
static inline void *kconv_aligned(size_t bytes) {
  size_t extra = 64 + sizeof(void *);
  if (bytes > (size_t)PTRDIFF_MAX - extra) return NULL;
  char *raw = (char *)malloc(bytes + extra);
  if (!raw) return NULL;
  uintptr_t p = ((uintptr_t)(raw + sizeof(void *)) + 63) & ~(uintptr_t)63;
  ((void **)p)[-1] = raw;
  return (void *)p;
}
static inline void kconv_aligned_free(void *p) {
  if (p) free(((void **)p)[-1]);
}

/* POSIX threads (the pool below, and per-thread scratch): not under tcc (`mc run`), not with
 * -DMC_NO_THREADS, not where there is no POSIX. */
#if !defined(__TINYC__) && !defined(MC_NO_THREADS) && !defined(MC_NO_MALLOC) && \
    (defined(__unix__) || defined(__APPLE__))
#define KCONV_THREADS 1
#include <pthread.h>
#endif

/* Scratch kept between calls (slot 0: packed A, 1: packed B, 2: im2col columns, 3: k_dw.h's
 * padded plane), grown on demand and never shrunk, so a model's products stop paying malloc and
 * fresh-page faults after its first run. With threads, each thread has its own set, hung off a
 * pthread key whose destructor frees it when the thread exits (a pool worker, or a program's
 * thread that ran a model); without them (tcc, -DMC_NO_THREADS, other targets) there is one
 * static set and no thread-local storage at all. kconv_scratch_release() frees the calling
 * thread's set now (the next product allocates again). */
#define KCONV_SCRATCH_SLOTS 4
typedef struct kconv_scratch_set {
  float *buf[KCONV_SCRATCH_SLOTS];
  int64_t cap[KCONV_SCRATCH_SLOTS];
  void *raw[KCONV_SCRATCH_SLOTS]; /* malloc's pointer of each buf: leak checkers see it held */
} kconv_scratch_set;

static inline void kconv_scratch_clear(kconv_scratch_set *s) {
  for (int k = 0; k < KCONV_SCRATCH_SLOTS; k++) {
    kconv_aligned_free(s->buf[k]);
    s->buf[k] = NULL;
    s->raw[k] = NULL;
    s->cap[k] = 0;
  }
}

#ifdef KCONV_THREADS
typedef struct kconv_scratch_key {
  pthread_once_t once;
  pthread_key_t key;
  int ok;
} kconv_scratch_key;
static inline kconv_scratch_key *kconv_scratch_key_get(void) {
  static kconv_scratch_key k = {.once = PTHREAD_ONCE_INIT};
  return &k;
}
static inline void kconv_scratch_at_exit(void *p) { /* the key's destructor */
  kconv_scratch_clear((kconv_scratch_set *)p);
  free(p);
}
static inline void kconv_scratch_key_init(void) {
  kconv_scratch_key *k = kconv_scratch_key_get();
  k->ok = pthread_key_create(&k->key, kconv_scratch_at_exit) == 0;
}
/* The calling thread's set (made when `make`); NULL when there is none or no memory. */
static inline kconv_scratch_set *kconv_scratch_set_get(int make) {
  kconv_scratch_key *k = kconv_scratch_key_get();
  if (pthread_once(&k->once, kconv_scratch_key_init) || !k->ok) return NULL;
  kconv_scratch_set *s = (kconv_scratch_set *)pthread_getspecific(k->key);
  if (!s && make) {
    s = (kconv_scratch_set *)calloc(1, sizeof *s);
    if (s && pthread_setspecific(k->key, s)) {
      free(s);
      s = NULL;
    }
  }
  return s;
}
#else
static inline kconv_scratch_set *kconv_scratch_set_get(int make) {
  static kconv_scratch_set set;
  (void)make;
  return &set;
}
#endif

#ifdef MC_NO_MALLOC
/* Without a heap (generated code built with -DMC_NO_MALLOC, single-threaded) each slot is a
 * block the generated file's pool keeps for the run (mck_pool_keep_, emit_c.c). */
static inline float *kconv_scratch(int slot, int64_t n) {
  if (n < 0 || n > PTRDIFF_MAX / (int64_t)sizeof(float)) return NULL;
  return (float *)mck_pool_keep_(slot, sizeof(float) * (size_t)n);
}
static inline void kconv_scratch_release(void) {}
#else
static inline float *kconv_scratch(int slot, int64_t n) {
  kconv_scratch_set *s = kconv_scratch_set_get(1);
  if (!s) return NULL;
  if (n > s->cap[slot]) {
    kconv_aligned_free(s->buf[slot]);
    s->buf[slot] = n <= PTRDIFF_MAX / (int64_t)sizeof(float)
                       ? (float *)kconv_aligned(sizeof(float) * (size_t)n)
                       : NULL;
    s->cap[slot] = s->buf[slot] ? n : 0;
    s->raw[slot] = s->buf[slot] ? ((void **)s->buf[slot])[-1] : NULL;
  }
  return s->buf[slot];
}

static inline void kconv_scratch_release(void) {
  kconv_scratch_set *s = kconv_scratch_set_get(0);
  if (s) kconv_scratch_clear(s);
}
#endif

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
/* KCONV_THREADS: defined above the scratch */
#define KCONV_MAX_THREADS 64
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

#ifdef KCONV_THREADS
#include <stdatomic.h>
/* Workers spin on the job counter for a while (about 50-100 us) before they block on the
 * condition variable, and so does the caller waiting for them: a model runs one parallel op
 * after another with short serial gaps, and a futex wake-up per op cost mobilenet_v2 a sixth
 * of its time at 2 threads. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define KCONV_PAUSE() __builtin_ia32_pause()
#else
#define KCONV_PAUSE() ((void)0)
#endif
#define KCONV_SPIN 2000
typedef struct kconv_pool {
  pthread_mutex_t mu, busy;
  pthread_cond_t go, done;
  int nworkers, atfork;
  /* the job word: (job number << 8) | task count, published (release) after fn / arg are set.
   * A worker decides from this one word whether it takes part: the task count must not be
   * read separately, or a worker that skips a job could read the next job's count */
  atomic_ulong gen;
  atomic_int pending;  /* tasks of the current job not finished by workers */
  unsigned long created_gen; /* gen when the newest worker was created (under mu) */
  int sleeping;        /* workers blocked on `go` (under mu) */
  int waiting;         /* the caller is blocked on `done` (under mu) */
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
  p->sleeping = p->waiting = 0;
  atomic_store(&p->pending, 0);
}

static inline void *kconv_pool_worker(void *arg) {
  kconv_pool *p = kconv_pool_get();
  int id = (int)(intptr_t)arg;
  /* the job that made this worker is the one after created_gen: it may be posted already */
  pthread_mutex_lock(&p->mu);
  unsigned long seen = p->created_gen, g;
  pthread_mutex_unlock(&p->mu);
  for (;;) {
    int spins = 0;
    while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen && spins < KCONV_SPIN) {
      KCONV_PAUSE();
      spins++;
    }
    if (g == seen) {
      pthread_mutex_lock(&p->mu);
      p->sleeping++;
      while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen)
        pthread_cond_wait(&p->go, &p->mu);
      p->sleeping--;
      pthread_mutex_unlock(&p->mu);
    }
    seen = g;
    if (id >= (int)(g & 0xff)) continue;
    p->fn(p->arg, id); /* stable: the job cannot end before this task does */
    if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
      pthread_mutex_lock(&p->mu);
      if (p->waiting) pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->mu);
    }
  }
  return NULL;
}

/* Runs fn(arg, t) for t in [0, n), t = 0 on the calling thread; returns how many tasks ran in
 * parallel (1: none, the pool was busy or no thread could start; the caller runs the rest). */
static inline int kconv_pool_run(int n, void (*fn)(void *, int), void *arg) {
  kconv_pool *p = kconv_pool_get();
  if (n > KCONV_MAX_THREADS) n = KCONV_MAX_THREADS; /* the caller runs tasks >= the result */
  if (pthread_mutex_trylock(&p->busy)) return 1;
  pthread_mutex_lock(&p->mu);
  if (!p->atfork) p->atfork = pthread_atfork(NULL, NULL, kconv_pool_atfork_child) == 0;
  while (p->nworkers < n - 1) {
    pthread_t th;
    p->created_gen = atomic_load_explicit(&p->gen, memory_order_relaxed);
    if (pthread_create(&th, NULL, kconv_pool_worker, (void *)(intptr_t)(p->nworkers + 1))) break;
    pthread_detach(th);
    p->nworkers++;
  }
  pthread_mutex_unlock(&p->mu);
  if (n > p->nworkers + 1) n = p->nworkers + 1;
  if (n > 1) {
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->pending, n - 1, memory_order_relaxed);
    unsigned long g = atomic_load_explicit(&p->gen, memory_order_relaxed);
    atomic_store_explicit(&p->gen, ((g >> 8) + 1) << 8 | (unsigned long)n, memory_order_release);
    pthread_mutex_lock(&p->mu);
    if (p->sleeping) pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0);
    for (int spins = 0; atomic_load_explicit(&p->pending, memory_order_acquire) > 0 && spins < KCONV_SPIN; spins++)
      KCONV_PAUSE();
    if (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) {
      pthread_mutex_lock(&p->mu);
      p->waiting = 1;
      while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) pthread_cond_wait(&p->done, &p->mu);
      p->waiting = 0;
      pthread_mutex_unlock(&p->mu);
    }
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

/* ---- convolution -------------------------------------------------------------------------- */

/* Defined in k_dw.h (pasted after this file). */
/* y = act(conv(x, w) + b) for one image, x (Cin, in...), y (Cout, out...) contiguous; b may be
 * NULL; nthreads: how many threads it may use (results must not depend on it). */
static inline void kconv_direct_f32(const kconv_geom *g, const float *x, const float *w,
                                    const float *b, float *y, int act, double alo, double ahi,
                                    int nthreads);

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
    if (g->s[i] >= MCK_MAX_GEOM || g->d[i] >= MCK_MAX_GEOM || g->in[i] >= MCK_MAX_GEOM ||
        g->k[i] >= MCK_MAX_GEOM || (real && !pad_str && pad[j] >= MCK_MAX_GEOM) ||
        g->opad[i] >= MCK_MAX_GEOM || g->opad[i] < 0)
      return mck_fail(c, "%s: stride, padding, dilation, output padding, kernel and input "
                      "extents must be below 2^31", op);
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

/* Whether a convolution with one input channel per group (cg == 1) and mg output channels per
 * group runs the direct loop (k_dw.h) rather than the GEMM: depthwise convolutions, and small
 * channel multipliers like a first layer on a grey image, where an im2col of K = taps rows
 * costs more than the product. The compiler asks too (it packs weights only for the GEMM). */
static inline int kconv_conv_direct(int64_t cg, int64_t mg) { return cg == 1 && mg <= 8; }

/* Whether a convolution with P output positions and mg output channels per group computes
 * C^T = im2col^T W^T (positions as rows) instead of C = W im2col: with few positions (deep
 * layers) that fills the register tile with channels. A fixed rule, not the target's tile: the
 * compiler packs constant weights for it (kconv_conv_prepack). */
static inline int kconv_conv_ct(int64_t P, int64_t mg) { return P < mg && P < 128; }

/* Size in floats of a convolution weight (G groups of mg x K) prepacked for the GEMM, and the
 * packing itself: per group, canonical A panels of W (mg x K), or with ct canonical B panels of
 * W^T (K x mg). w is (Cout, Cin / G, k...) contiguous. */
static inline int64_t kconv_conv_prepack_size(int ct, int64_t G, int64_t mg, int64_t K) {
  return G * (ct ? kconv_prepack_b_size(K, mg) : kconv_prepack_a_size(mg, K));
}
static inline void kconv_conv_prepack(int ct, int64_t G, int64_t mg, int64_t K, const float *w,
                                      float *dst) {
  int64_t per = kconv_conv_prepack_size(ct, 1, mg, K);
  for (int64_t gi = 0; gi < G; gi++) {
    const float *wg = w + gi * mg * K;
    if (ct) kconv_prepack_b(K, mg, wg, 1, K, dst + gi * per);
    else kconv_prepack_a(mg, K, wg, K, 1, dst + gi * per);
  }
}

/* y = act(conv(x, w) + b) in float32: the bias and the activation (KCONV_ACT_*, hardtanh
 * bounds lo, hi) are applied per tile in the GEMM epilogue, or per output row of the direct
 * loop; transposed convolution applies the activation per image after col2im. The GEMM reads
 * the input through kconv_gather (no im2col buffer) and the weight from c->pack when the
 * emitter prepacked it for this very product. */
static inline int kconv_conv_f32(mck_ctx *c, const char *op, const kconv_geom *g,
                                 const mck_tensor *xt, const mck_tensor *wt, const mck_tensor *bt,
                                 mck_tensor *yt, int act, double lo, double hi) {
  float *xo = NULL, *wo = NULL, *bo = NULL, *col = NULL;
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in), K = kconv_prod3(g->k);
  int64_t cg = g->Cin / g->G, mg = g->Cout / g->G, Kc = cg * K;
  int direct = !g->transposed && kconv_conv_direct(cg, mg);
  int ct = !g->transposed && !direct && kconv_conv_ct(P, mg);
  const float *pk = NULL;
  if (c->pack && !direct && !g->transposed && c->pack_kind == (ct ? 2 : 1) && c->pack_m == mg &&
      c->pack_k == Kc && c->pack_g == g->G)
    pk = c->pack;
  c->pack = NULL;
  if (!pk && !wt->data) return mck_fail(c, "%s: internal: the prepacked weight does not fit this convolution", op);
  const float *x = kconv_as_f32(xt, &xo), *w = pk ? NULL : kconv_as_f32(wt, &wo), *b = NULL;
  float *y = (float *)yt->data + yt->offset;
  kconv_gemm_ws ws = {NULL, NULL, 1};
  int rc = 0;
  if (bt) b = kconv_as_f32(bt, &bo);
  int one = !g->transposed && K == 1 && g->s[0] * g->s[1] * g->s[2] == 1 &&
            g->plo[0] + g->plo[1] + g->plo[2] + g->phi[0] + g->phi[1] + g->phi[2] == 0;
  if (!x || (!pk && !w) || (bt && !b)) goto oom;
  if (!direct) {
    int64_t mn = kconv_max(mg, P);
    if (g->transposed ? kconv_gemm_ws_init_for(&ws, mg * K, IP, cg)
                      : kconv_gemm_ws_init_for(&ws, mn, mn, Kc))
      goto oom;
    ws.nthreads = c->nthreads;
    if (g->transposed) {
      col = kconv_scratch(2, mg * K * IP);
      if (!col) goto oom;
    }
  }
  for (int64_t n = 0; n < g->N; n++) {
    const float *xn = x + n * g->Cin * IP;
    float *yn = y + n * g->Cout * P;
    if (direct) {
      kconv_direct_f32(g, xn, w, b, yn, act, lo, hi, c->nthreads);
      continue;
    }
    if (g->transposed) {
      for (int64_t oc = 0; oc < g->Cout; oc++) {
        float bv = b ? b[oc] : 0.0f;
        for (int64_t i = 0; i < P; i++) yn[oc * P + i] = bv;
      }
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
        continue;
      }
      /* X: the im2col matrix (Kc x P) of this group, or x itself for a 1x1 convolution */
      kconv_opnd xm = {NULL, 0, 0, NULL, 0, g, xg}, wm = {NULL, 0, 0, NULL, 0, NULL, NULL};
      if (one) {
        xm.g = NULL;
        xm.p = xg;
        xm.rs = ct ? 1 : P;
        xm.cs = ct ? P : 1;
      }
      if (pk) {
        wm.pk = pk + gi * kconv_conv_prepack_size(ct, 1, mg, Kc);
        wm.pk_k = Kc;
      } else {
        wm.p = w + gi * mg * Kc;
        wm.rs = ct ? 1 : Kc;
        wm.cs = ct ? Kc : 1;
      }
      kconv_epi e = {b ? b + gi * mg : NULL, !ct, act, lo, hi};
      if (ct) kconv_gemm_op(&ws, P, mg, Kc, &xm, &wm, yg, 1, P, 1.0f, 1, &e);
      else kconv_gemm_op(&ws, mg, P, Kc, &wm, &xm, yg, P, 1, 1.0f, 1, &e);
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

#endif

/* The rest of the family (each includes this header first). */
#ifndef MC_K_CONV_TAIL
#define MC_K_CONV_TAIL
#include "k_dw.h"
#include "k_norm.h"
#include "k_pool.h"
#endif
