/* k_act.h — the activation functions fused into the GEMM / depthwise / elementwise epilogues
 * (mc::conv_act, mc::linear_act, mc::add_act): KCONV_ACT_* codes and their float32 loops, and
 * the float32 math (exp, erf, tanh, sigmoid, silu, gelu, hardswish) that the unfused float32
 * aten:: kernels (k_elementwise.h) share, so fusing does not change a bit.
 * Pasted into generated C before k_conv.h.
 */
#ifndef MC_K_ACT_H
#define MC_K_ACT_H

#ifndef MCK_H
#include "mck.h"
#endif

/* ---- fused activations ---------------------------------------------------------------------- */
enum {
  KCONV_ACT_NONE, KCONV_ACT_RELU, KCONV_ACT_HARDTANH, KCONV_ACT_SIGMOID, KCONV_ACT_TANH,
  KCONV_ACT_SILU, KCONV_ACT_HARDSWISH, KCONV_ACT_GELU, KCONV_ACT_GELU_TANH, KCONV_ACT_N
};
/* Functions of the float32 math below that are not activation codes. */
enum { KACT_EXP = KCONV_ACT_N, KACT_ERF };

static inline int kconv_act_code(const char *s) {
  static const char *const nm[KCONV_ACT_N] = {"none", "relu", "hardtanh", "sigmoid", "tanh",
                                              "silu", "hardswish", "gelu", "gelu_tanh"};
  for (int i = 0; i < KCONV_ACT_N; i++)
    if (!strcmp(s, nm[i])) return i;
  return -1;
}
/* The activation in double, the formulas of mck_ew_un_f (hardtanh bounds lo, hi): float64 and
 * half-precision tensors. */
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

/* ---- float32 math --------------------------------------------------------------------------
 * Evaluated in float, as PyTorch's own CPU kernels do (they use Sleef's 1-ULP functions), instead
 * of libm's double functions rounded once (LeNet-5 spent half its time in libm's tanh).
 * One algorithm, written once (KACT_GEN) for a scalar type and, where the target has AVX-512,
 * AVX2+FMA or aarch64 NEON, for a vector of KACT_VW floats. Every a*b+c is KACT_FMA: a fused multiply-add where
 * the target has one (vector and scalar alike), else a*b+c; so the vector loop, its tail and the
 * strided scalar path give the same bits in one build, and targets differ only in FMA rounding.
 *   exp: Cephes expf: n = round(x log2e) (the 1.5*2^23 trick), r = x - n ln2 in two parts
 *     (0.693359375 is exact times n), degree-5 polynomial p(r) r^2 + r + 1, times 2^(n/2) and
 *     2^(n - n/2) so that results down to the denormals round once; x is clamped to
 *     [-104, 89] (below: 0, above: inf).
 *   tanh: Cephes tanhf: |x| < 0.625: odd polynomial; else 1 - 2 / (exp(2|x|) + 1) (1 once exp
 *     overflows), sign copied from x.
 *   erf: N. Juffa's erff: |x| <= 0.9277: x + x p(x^2); else 1 - exp(q(|x|)), q ~ log erfc.
 *   sigmoid 1 / (1 + exp(-x)) and silu x / (1 + exp(-x)) are PyTorch's formulas;
 *   gelu = x/2 (1 + erf(x/sqrt2)) for |x| <= 1.312 and x >= -0.5, else x/2 erfc(|x|/sqrt2)
 *     (x < 0) or x/2 (2 - erfc(x/sqrt2)) (x > 0), erfc from Numerical Recipes' erfcc with its
 *     exp argument in two parts (kact_erfcs): no cancellation of 1 + erf at negative x;
 *   gelu_tanh = x/2 (1 + tanh(y)) = x / (1 + exp(-2y)), y = sqrt(2/pi) (x + 0.044715 x^3);
 *   hardswish = x * min(max(x + 3, 0), 6) / 6 in float: PyTorch's own float operations.
 * NaN in, NaN out; +-inf give PyTorch's values (silu(-inf) and gelu(-inf) are NaN there too).
 * Accuracy, max error in ULP of the float result against double libm (erfc for gelu, the exact
 * formula for gelu_tanh) over every 2^-12 step of [-20, 492) and 4M random floats of every
 * exponent, with FMA (AVX-512, AVX2, aarch64 NEON, scalar with -mfma) / without (portable):
 *   exp 0.99 / 0.96, tanh 1.28 / 1.28, sigmoid 2.18 / 2.42, silu 2.23 / 2.23, erf 0.97 / 1.08,
 *   gelu 5.7 / 6.5 (all results above 1e-30), gelu_tanh 3.0 for x >= -1.3, then
 *   growing with |y| (20 at x = -3.7, 150 at x = -9 where it is 1e-30): y is rounded to float,
 *   as in PyTorch's float kernel, whose 1 + tanh(y) is much worse there (absolute 1e-7).
 * sigmoid and silu below x = -87.3 (denormal results) are off by at most 3e-37 absolute; exp
 * rounds its denormal results once. Vector loop, tail and scalar path give the same bits
 * (checked over the same inputs). */
#if defined(__GNUC__) && !defined(__TINYC__) && defined(__AVX512F__)
#define KACT_VW 16
#elif defined(__GNUC__) && !defined(__TINYC__) && defined(__AVX2__) && defined(__FMA__)
#define KACT_VW 8
#elif defined(__GNUC__) && !defined(__TINYC__) && defined(__ARM_NEON) && defined(__aarch64__) && \
    !defined(MC_NO_SIMD)
/* aarch64 NEON: 4 lanes, vfmaq_f32 (and fmadd in the scalar path: same bits as the lanes).
 * Armv7 NEON has no vector divide or FMA and flushes denormals to zero, so its float32 math
 * stays scalar. */
#define KACT_VW 4
#define KACT_NEON 1
#endif
#if defined(__GNUC__) && !defined(__TINYC__) && (defined(__FMA__) || defined(KACT_NEON))
#define KACT_FMA_S(a, b, c) __builtin_fmaf(a, b, c)
#else
#define KACT_FMA_S(a, b, c) ((a) * (b) + (c))
#endif
static inline int32_t kact_asi_s(float f) {
  int32_t i;
  memcpy(&i, &f, sizeof i);
  return i;
}
static inline float kact_asf_s(int32_t i) {
  float f;
  memcpy(&f, &i, sizeof f);
  return f;
}
#define KACT_C_s(c) (c)
#define KACT_LT_s(a, b) (-(int32_t)((a) < (b))) /* a mask: all ones or zero */
#define KACT_EQ_s(a, b) (-(int32_t)((a) == (b)))
#define KACT_FMA_s(a, b, c) KACT_FMA_S(a, b, c)

#ifdef KACT_VW
#ifdef KACT_NEON
#include <arm_neon.h>
#else
#include <immintrin.h>
#endif
typedef float kact_vf __attribute__((vector_size(KACT_VW * 4)));
typedef int32_t kact_vi __attribute__((vector_size(KACT_VW * 4)));
typedef float kact_vfu __attribute__((vector_size(KACT_VW * 4), aligned(4)));
#if KACT_VW == 16
#define KACT_FMA_v(a, b, c) ((kact_vf)_mm512_fmadd_ps((__m512)(a), (__m512)(b), (__m512)(c)))
#elif KACT_VW == 8
#define KACT_FMA_v(a, b, c) ((kact_vf)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))
#else
#define KACT_FMA_v(a, b, c) ((kact_vf)vfmaq_f32((float32x4_t)(c), (float32x4_t)(a), (float32x4_t)(b)))
#endif
static inline kact_vi kact_asi_v(kact_vf f) { return (kact_vi)f; }
static inline kact_vf kact_asf_v(kact_vi i) { return (kact_vf)i; }
#define KACT_C_v(c) ((kact_vf){0} + (c))
#define KACT_LT_v(a, b) ((kact_vi)((a) < (b)))
#define KACT_EQ_v(a, b) ((kact_vi)((a) == (b)))
#endif

/* The functions for suffix S, float type F, int32 type I (see above). */
#define KACT_GEN(S, F, I)                                                                        \
  static inline F kact_sel_##S(I m, F a, F b) {                                                  \
    return kact_asf_##S((m & kact_asi_##S(a)) | (~m & kact_asi_##S(b)));                         \
  }                                                                                              \
  static inline F kact_abs_##S(F x) { return kact_asf_##S(kact_asi_##S(x) & 0x7fffffff); }     \
  /* NaN in: a finite result (callers put the NaN back) */                                      \
  static inline F kact_exp_##S(F x) {                                                            \
    x = kact_sel_##S(KACT_LT_##S(KACT_C_##S(-104.0f), x), x, KACT_C_##S(-104.0f));               \
    x = kact_sel_##S(KACT_LT_##S(x, KACT_C_##S(89.0f)), x, KACT_C_##S(89.0f));                   \
    F t = KACT_FMA_##S(x, KACT_C_##S(1.44269504088896341f), KACT_C_##S(12582912.0f));            \
    I n = kact_asi_##S(t) - 0x4B400000;                                                          \
    t = t - 12582912.0f;                                                                         \
    F r = KACT_FMA_##S(t, KACT_C_##S(-0.693359375f), x);                                         \
    r = KACT_FMA_##S(t, KACT_C_##S(2.12194440e-4f), r);                                          \
    F p = KACT_FMA_##S(KACT_C_##S(1.9875691500e-4f), r, KACT_C_##S(1.3981999507e-3f));           \
    p = KACT_FMA_##S(p, r, KACT_C_##S(8.3334519073e-3f));                                        \
    p = KACT_FMA_##S(p, r, KACT_C_##S(4.1665795894e-2f));                                        \
    p = KACT_FMA_##S(p, r, KACT_C_##S(1.6666665459e-1f));                                        \
    p = KACT_FMA_##S(p, r, KACT_C_##S(5.0000001201e-1f));                                        \
    p = KACT_FMA_##S(p, r * r, r) + 1.0f;                                                        \
    I n1 = n >> 1; /* 2^n in two steps: n is in [-150, 128] */                                   \
    return p * kact_asf_##S((n1 + 127) << 23) * kact_asf_##S((n - n1 + 127) << 23);             \
  }                                                                                              \
  /* exp(A + d) for A <= 0 with A - n ln2 exact (|A| < 2^17, |d| < 1), for arguments whose     \
     rounding to one float would cost accuracy */                                                \
  static inline F kact_exp2_##S(F A, F d) {                                                      \
    I keep = KACT_LT_##S(KACT_C_##S(-104.0f), A + d);                                            \
    A = kact_sel_##S(keep, A, KACT_C_##S(-104.0f));                                              \
    d = kact_sel_##S(keep, d, KACT_C_##S(0.0f));                                                 \
    F t = KACT_FMA_##S(A + d, KACT_C_##S(1.44269504088896341f), KACT_C_##S(12582912.0f));        \
    I n = kact_asi_##S(t) - 0x4B400000;                                                          \
    t = t - 12582912.0f;                                                                         \
    F r = KACT_FMA_##S(t, KACT_C_##S(-0.693359375f), A);                                         \
    r = KACT_FMA_##S(t, KACT_C_##S(2.12194440e-4f), r) + d;                                      \
    F p = KACT_FMA_##S(KACT_C_##S(1.9875691500e-4f), r, KACT_C_##S(1.3981999507e-3f));           \
    p = KACT_FMA_##S(p, r, KACT_C_##S(8.3334519073e-3f));                                        \
    p = KACT_FMA_##S(p, r, KACT_C_##S(4.1665795894e-2f));                                        \
    p = KACT_FMA_##S(p, r, KACT_C_##S(1.6666665459e-1f));                                        \
    p = KACT_FMA_##S(p, r, KACT_C_##S(5.0000001201e-1f));                                        \
    p = KACT_FMA_##S(p, r * r, r) + 1.0f;                                                        \
    I n1 = n >> 1;                                                                               \
    return p * kact_asf_##S((n1 + 127) << 23) * kact_asf_##S((n - n1 + 127) << 23);             \
  }                                                                                              \
  static inline F kact_fexp_##S(F x) {                                                           \
    return kact_sel_##S(KACT_EQ_##S(x, x), kact_exp_##S(x), x);                                 \
  }                                                                                              \
  static inline F kact_tanh_##S(F x) {                                                           \
    F a = kact_abs_##S(x), z = a * a;                                                            \
    F p = KACT_FMA_##S(KACT_C_##S(-5.70498872745e-3f), z, KACT_C_##S(2.06390887954e-2f));        \
    p = KACT_FMA_##S(p, z, KACT_C_##S(-5.37397155531e-2f));                                      \
    p = KACT_FMA_##S(p, z, KACT_C_##S(1.33314422036e-1f));                                       \
    p = KACT_FMA_##S(p, z, KACT_C_##S(-3.33332819422e-1f));                                      \
    F small = KACT_FMA_##S(p * z, a, a);                                                         \
    F big = 1.0f - 2.0f / (kact_exp_##S(a + a) + 1.0f);                                          \
    F r = kact_sel_##S(KACT_LT_##S(a, KACT_C_##S(0.625f)), small, big);                          \
    r = kact_asf_##S(kact_asi_##S(r) | (kact_asi_##S(x) & (-0x7fffffff - 1)));                   \
    return kact_sel_##S(KACT_EQ_##S(x, x), r, x);                                                \
  }                                                                                              \
  static inline F kact_sigmoid_##S(F x) {                                                        \
    return kact_sel_##S(KACT_EQ_##S(x, x), 1.0f / (1.0f + kact_exp_##S(-x)), x);                \
  }                                                                                              \
  static inline F kact_silu_##S(F x) {                                                           \
    return kact_sel_##S(KACT_EQ_##S(x, x), x / (1.0f + kact_exp_##S(-x)), x);                   \
  }                                                                                              \
  /* erf(u) for |u| <= 0.9277 (odd polynomial) */                                               \
  static inline F kact_erf_small_##S(F u) {                                                      \
    F s = u * u;                                                                                 \
    F p = KACT_FMA_##S(KACT_C_##S(-5.96761703e-4f), s, KACT_C_##S(4.99119423e-3f));             \
    p = KACT_FMA_##S(p, s, KACT_C_##S(-2.67681349e-2f));                                         \
    p = KACT_FMA_##S(p, s, KACT_C_##S(1.12819925e-1f));                                          \
    p = KACT_FMA_##S(p, s, KACT_C_##S(-3.76125336e-1f));                                         \
    p = KACT_FMA_##S(p, s, KACT_C_##S(1.28379166e-1f));                                          \
    return KACT_FMA_##S(p, u, u);                                                                \
  }                                                                                              \
  /* erfc(a) = exp(q(a)) for a > 0.9277; a is clamped to 11, where it is 0 */                    \
  static inline F kact_erfc_big_##S(F a) {                                                       \
    a = kact_sel_##S(KACT_LT_##S(a, KACT_C_##S(11.0f)), a, KACT_C_##S(11.0f));                   \
    F s = a * a;                                                                                 \
    F r = KACT_FMA_##S(KACT_C_##S(-1.72853470e-5f), a, KACT_C_##S(3.83197126e-4f));             \
    F u = KACT_FMA_##S(KACT_C_##S(-3.88396438e-3f), a, KACT_C_##S(2.42546219e-2f));             \
    r = KACT_FMA_##S(r, s, u);                                                                   \
    r = KACT_FMA_##S(r, a, KACT_C_##S(-1.06777877e-1f));                                         \
    r = KACT_FMA_##S(r, a, KACT_C_##S(-6.34846687e-1f));                                         \
    r = KACT_FMA_##S(r, a, KACT_C_##S(-1.28717512e-1f));                                         \
    r = KACT_FMA_##S(r, a, -a);                                                                  \
    return kact_exp_##S(r);                                                                      \
  }                                                                                              \
  static inline F kact_erf_##S(F x) {                                                            \
    F a = kact_abs_##S(x);                                                                       \
    F big = 1.0f - kact_erfc_big_##S(a);                                                         \
    big = kact_asf_##S(kact_asi_##S(big) | (kact_asi_##S(x) & (-0x7fffffff - 1)));               \
    return kact_sel_##S(KACT_LT_##S(KACT_C_##S(0.927734375f), a), big, kact_erf_small_##S(x));   \
  }                                                                                              \
  /* erfc(y / sqrt2) for y >= 0, relative error ~1e-7: Numerical Recipes' erfcc, t exp(-a^2 +  \
     p(t)), a = y / sqrt2, t = 1 / (1 + a/2); a^2 = (yh^2 + yl (yh + y)) / 2 with yh = y's upper \
     12 bits, so that yh^2 is exact and exp sees its argument in two parts (rounding y / sqrt2  \
     or a^2 to one float would cost up to 150 ULP); y is clamped to 15.6, where it is 0 */      \
  static inline F kact_erfcs_##S(F y) {                                                          \
    y = kact_sel_##S(KACT_LT_##S(y, KACT_C_##S(15.6f)), y, KACT_C_##S(15.6f));                   \
    F t = 1.0f / KACT_FMA_##S(y, KACT_C_##S(0.35355339059327376f), KACT_C_##S(1.0f));            \
    F p = KACT_FMA_##S(KACT_C_##S(0.17087277f), t, KACT_C_##S(-0.82215223f));                    \
    p = KACT_FMA_##S(p, t, KACT_C_##S(1.48851587f));                                             \
    p = KACT_FMA_##S(p, t, KACT_C_##S(-1.13520398f));                                            \
    p = KACT_FMA_##S(p, t, KACT_C_##S(0.27886807f));                                             \
    p = KACT_FMA_##S(p, t, KACT_C_##S(-0.18628806f));                                            \
    p = KACT_FMA_##S(p, t, KACT_C_##S(0.09678418f));                                             \
    p = KACT_FMA_##S(p, t, KACT_C_##S(0.37409196f));                                             \
    p = KACT_FMA_##S(p, t, KACT_C_##S(1.00002368f));                                             \
    p = KACT_FMA_##S(p, t, KACT_C_##S(-1.26551223f));                                            \
    F yh = kact_asf_##S(kact_asi_##S(y) & -4096), yl = y - yh;                                   \
    return t * kact_exp2_##S(-0.5f * (yh * yh), KACT_FMA_##S(-0.5f * yl, yh + y, p));            \
  }                                                                                              \
  static inline F kact_gelu_##S(F x) {                                                           \
    F u = x * 0.70710678118654752f, a = kact_abs_##S(u), h = x * 0.5f;                           \
    F e = kact_erfcs_##S(kact_abs_##S(x));                                                       \
    F big = h * kact_sel_##S(KACT_LT_##S(x, KACT_C_##S(0.0f)), e, 2.0f - e);                     \
    /* erfc also for x < -0.5: 1 + erf(u) cancels there */                                        \
    I m = KACT_LT_##S(KACT_C_##S(0.927734375f), a) | KACT_LT_##S(x, KACT_C_##S(-0.5f));               \
    F r = kact_sel_##S(m, big, h * (1.0f + kact_erf_small_##S(u)));                              \
    return kact_sel_##S(KACT_EQ_##S(x, x), r, x);                                                \
  }                                                                                              \
  static inline F kact_gelu_tanh_##S(F x) {                                                      \
    F y = KACT_FMA_##S(x * x * x, KACT_C_##S(0.044715f), x) * -1.59576912160573071f;            \
    return kact_sel_##S(KACT_EQ_##S(x, x), x / (1.0f + kact_exp_##S(y)), x);                    \
  }                                                                                              \
  static inline F kact_hardswish_##S(F x) {                                                      \
    F t = x + 3.0f;                                                                              \
    t = kact_sel_##S(KACT_LT_##S(t, KACT_C_##S(0.0f)), KACT_C_##S(0.0f), t);                     \
    t = kact_sel_##S(KACT_LT_##S(KACT_C_##S(6.0f), t), KACT_C_##S(6.0f), t);                     \
    return x * t / 6.0f;                                                                         \
  }                                                                                              \
  static inline F kact_apply_##S(int f, F x) {                                                   \
    switch (f) {                                                                                 \
    case KCONV_ACT_SIGMOID: return kact_sigmoid_##S(x);                                          \
    case KCONV_ACT_TANH: return kact_tanh_##S(x);                                                \
    case KCONV_ACT_SILU: return kact_silu_##S(x);                                                \
    case KCONV_ACT_HARDSWISH: return kact_hardswish_##S(x);                                      \
    case KCONV_ACT_GELU: return kact_gelu_##S(x);                                                \
    case KCONV_ACT_GELU_TANH: return kact_gelu_tanh_##S(x);                                      \
    case KACT_EXP: return kact_fexp_##S(x);                                                      \
    case KACT_ERF: return kact_erf_##S(x);                                                       \
    default: return x;                                                                           \
    }                                                                                            \
  }
KACT_GEN(s, float, int32_t)
#ifdef KACT_VW
KACT_GEN(v, kact_vf, kact_vi)
#endif

/* Whether kact_run_f32 computes function f (an activation code or KACT_EXP / KACT_ERF). */
static inline int kact_has_f32(int f) {
  return f == KCONV_ACT_SIGMOID || f == KCONV_ACT_TANH || f == KCONV_ACT_SILU ||
         f == KCONV_ACT_HARDSWISH || f == KCONV_ACT_GELU || f == KCONV_ACT_GELU_TANH ||
         f == KACT_EXP || f == KACT_ERF;
}

/* y[i * sy] = f(x[i * sx]) for i < n, float32 (y may be x). */
static inline void kact_run_f32(int f, float *y, int64_t sy, const float *x, int64_t sx, int64_t n) {
  int64_t i = 0;
#ifdef KACT_VW
  if (sy == 1 && sx == 1) {
    for (; i + KACT_VW <= n; i += KACT_VW)
      *(kact_vfu *)(y + i) = kact_apply_v(f, *(const kact_vfu *)(x + i));
    if (i < n) { /* the tail through the vector code too: the same bits as a full vector */
      float t[KACT_VW] = {0};
      memcpy(t, x + i, (size_t)(n - i) * sizeof(float));
      *(kact_vfu *)t = kact_apply_v(f, *(kact_vfu *)t);
      memcpy(y + i, t, (size_t)(n - i) * sizeof(float));
    }
    return;
  }
#endif
  for (; i < n; i++) y[i * sy] = kact_apply_s(f, x[i * sx]);
}

#ifdef KACT_NEON
/* y[i] = relu(x[i]) (act KCONV_ACT_RELU) or hardtanh(x[i], lo, hi) for i < n, float32 (y may
 * be x), four lanes at a time: NaN passes, relu(-0) = +0, as the scalar loops of kconv_act_run. */
static inline void kact_clamp_f32(int act, float lo, float hi, float *y, const float *x, int64_t n) {
  int64_t i = 0;
  const float32x4_t vl = vdupq_n_f32(lo), vh = vdupq_n_f32(hi), z = vdupq_n_f32(0.0f);
  if (act == KCONV_ACT_RELU)
    for (; i + 4 <= n; i += 4) {
      float32x4_t v = vld1q_f32(x + i);
      uint32x4_t m = vorrq_u32(vcgtq_f32(v, z), vmvnq_u32(vceqq_f32(v, v)));
      vst1q_f32(y + i, vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(v), m)));
    }
  else
    for (; i + 4 <= n; i += 4) {
      float32x4_t v = vld1q_f32(x + i);
      /* both tests on x: x < lo gives lo even when lo > hi, as the scalar loop */
      float32x4_t r = vbslq_f32(vcgtq_f32(v, vh), vh, v);
      vst1q_f32(y + i, vbslq_f32(vcltq_f32(v, vl), vl, r));
    }
  if (act == KCONV_ACT_RELU)
    for (; i < n; i++) y[i] = x[i] > 0 || x[i] != x[i] ? x[i] : 0.0f;
  else
    for (; i < n; i++) y[i] = x[i] != x[i] ? x[i] : x[i] < lo ? lo : x[i] > hi ? hi : x[i];
}
#endif

/* p[i * s] = act(p[i * s]) for i < n (float32). */
static inline void kconv_act_run(int act, double lo, double hi, float *p, int64_t n, int64_t s) {
#ifdef KACT_NEON
  if ((act == KCONV_ACT_RELU || act == KCONV_ACT_HARDTANH) && s == 1) {
    kact_clamp_f32(act, (float)lo, (float)hi, p, p, n);
    return;
  }
#endif
  if (act == KCONV_ACT_RELU && s == 1) {
    for (int64_t i = 0; i < n; i++) p[i] = p[i] > 0 || p[i] != p[i] ? p[i] : 0.0f;
  } else if (act == KCONV_ACT_HARDTANH && s == 1) {
    float l = (float)lo, h = (float)hi;
    for (int64_t i = 0; i < n; i++) p[i] = p[i] != p[i] ? p[i] : p[i] < l ? l : p[i] > h ? h : p[i];
  } else if (kact_has_f32(act)) {
    kact_run_f32(act, p, s, p, s, n);
  } else if (act == KCONV_ACT_RELU || act == KCONV_ACT_HARDTANH) { /* strided: float32 alone too */
    float l = (float)lo, h = (float)hi;
    for (int64_t i = 0; i < n; i++) {
      float v = p[i * s];
      p[i * s] = v != v ? v : act == KCONV_ACT_RELU ? (v > 0 ? v : 0.0f) : v < l ? l : v > h ? h : v;
    }
  } /* every code is one of these or none: the double math (kconv_act_f) is not linked */
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

#endif
