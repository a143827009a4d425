/* neon.c — the Arm NEON kernels (k_gemm.h's register tile and epilogue, k_dw.h's depthwise
 * planes, k_act.h's float32 math and relu / hardtanh loops, k_unary.h's float32 relu, relu6 and
 * hardtanh rows against mck_ew_un_f's double formulas) against a scalar reference that
 * does each output's arithmetic in the same order: per element of C one chain over k per K
 * block, then alpha, bias and the activation; per depthwise output bias + taps in (kh, kw)
 * order, padding taps adding w * 0. The reference multiply-add is REF_FMA: fused (fmaf) where
 * the NEON paths fuse (aarch64), else a * b + c (Armv7 NEON's vmla, and every portable build).
 * Comparisons are bitwise (any NaN equals any NaN). It also prints a hash of the GEMM and
 * depthwise results with NaNs and zeros made canonical: every unfused build (x86-64 portable,
 * aarch64 -DMC_NO_SIMD, Armv7 NEON and portable) must print the same one, so Armv7's NEON
 * tile gives the portable path's bits. Built and run by tests/cross/neon.sh (qemu-user).
 * No denormals are made: Armv7 NEON flushes them to zero, the portable path does not. */
#include "ops/k_conv.h"
#include "ops/k_elementwise.h"
#include <stdio.h>

#if defined(KCONV_NEON) && defined(__aarch64__)
#define REF_FMA(a, b, c) fmaf(a, b, c)
#define PATH "aarch64 NEON"
#elif defined(KCONV_NEON)
#define REF_FMA(a, b, c) ((a) * (b) + (c))
#define PATH "Armv7 NEON"
#else
#define REF_FMA(a, b, c) ((a) * (b) + (c))
#define PATH "portable"
#endif

static uint32_t rng = 12345;
static float frand(float scale) {
  rng = rng * 1103515245u + 12345u;
  return ((float)((rng >> 8) % 2001) - 1000.0f) / scale;
}
static int64_t irand(int64_t n) {
  rng = rng * 1103515245u + 12345u;
  return (int64_t)((rng >> 8) % (uint32_t)n);
}
static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static int same(float a, float b) { return (a != a && b != b) || bits(a) == bits(b); }
static uint64_t hash = 1469598103934665603u;
static void hash_f(float f) {
  uint32_t u = f != f ? 0x7fc00000u : f == 0 ? 0u : bits(f);
  for (int i = 0; i < 4; i++) hash = (hash ^ ((u >> (8 * i)) & 255u)) * 1099511628211u;
}
static float act_ref(int act, float x, float lo, float hi) {
  if (act == KCONV_ACT_RELU) return x > 0 || x != x ? x : 0.0f;
  if (act == KCONV_ACT_HARDTANH) return x != x ? x : x < lo ? lo : x > hi ? hi : x;
  if (act != KCONV_ACT_NONE) return kact_apply_s(act, x);
  return x;
}

static int gemm_trials(void) {
  int fails = 0;
  for (int trial = 0; trial < 80; trial++) {
    int64_t M = 1 + irand(trial < 40 ? 40 : 70), N = 1 + irand(trial < 40 ? 40 : 90);
    int64_t K = 1 + irand(trial % 8 == 7 ? 1100 : 300);
    int ta = trial % 3 == 1, tb = trial % 4 == 2, pka = trial % 5 == 3, pkb = trial % 6 == 4;
    int over = trial % 7 != 5, tc = trial % 9 == 8;
    float alpha = trial % 10 == 9 ? 0.75f : 1.0f;
    float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
    float *C = malloc(sizeof(float) * M * N), *R = malloc(sizeof(float) * M * N);
    float *bias = malloc(sizeof(float) * (M + N));
    float *PA = malloc(sizeof(float) * kconv_prepack_a_size(M, K));
    float *PB = malloc(sizeof(float) * kconv_prepack_b_size(K, N));
    for (int64_t i = 0; i < M * K; i++) A[i] = frand(700.0f);
    for (int64_t i = 0; i < K * N; i++) B[i] = frand(900.0f);
    for (int64_t i = 0; i < M + N; i++) bias[i] = frand(300.0f);
    for (int64_t i = 0; i < M * N; i++) C[i] = R[i] = frand(500.0f);
    if (trial % 11 == 3) A[0] = NAN;
    if (trial % 13 == 6) {
      for (int64_t k = 0; k < K; k++) A[ta ? k * M : k] = 0.0f;
      bias[0] = -0.0f;
    }
    int act = (int[]){KCONV_ACT_NONE, KCONV_ACT_RELU, KCONV_ACT_HARDTANH, KCONV_ACT_SIGMOID}[trial % 4];
    int rows = trial % 2;
    kconv_epi e = {trial % 5 == 4 ? NULL : bias, rows, act, trial % 6 < 3 ? 0.0 : -1.5, 6.0};
    /* A is M x K (row-major, or stored transposed), B is K x N likewise, C row- or column-major */
    int64_t rsa = ta ? 1 : K, csa = ta ? M : 1, rsb = tb ? 1 : N, csb = tb ? K : 1;
    int64_t rsc = tc ? 1 : N, csc = tc ? M : 1;
    kconv_opnd a = {A, rsa, csa, NULL, 0, NULL, NULL}, b = {B, rsb, csb, NULL, 0, NULL, NULL};
    if (pka) {
      kconv_prepack_a(M, K, A, rsa, csa, PA);
      a.p = NULL, a.pk = PA, a.pk_k = K;
    }
    if (pkb) {
      kconv_prepack_b(K, N, B, rsb, csb, PB);
      b.p = NULL, b.pk = PB, b.pk_k = K;
    }
    kconv_gemm_ws ws;
    if (kconv_gemm_ws_init_for(&ws, M, N, K)) return 1;
    kconv_gemm_op(&ws, M, N, K, &a, &b, C, rsc, csc, alpha, over, &e);
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) {
        float c = R[i * rsc + j * csc];
        for (int64_t k0 = 0; k0 < K; k0 += KCONV_KC) {
          float t = 0.0f;
          for (int64_t k = k0; k < K && k < k0 + KCONV_KC; k++)
            t = REF_FMA(A[i * rsa + k * csa], B[k * rsb + j * csb], t);
          c = over && k0 == 0 ? alpha * t : c + alpha * t;
        }
        if (e.bias) c += rows ? bias[i] : bias[j];
        c = act_ref(act, c, (float)e.lo, (float)e.hi);
        float got = C[i * rsc + j * csc];
        hash_f(got);
        if (!same(got, c)) {
          if (fails < 5)
            printf("gemm trial %d (M %lld N %lld K %lld act %d) C[%lld,%lld] = %.9g, want %.9g\n", trial,
                   (long long)M, (long long)N, (long long)K, act, (long long)i, (long long)j, got, c);
          fails++;
          i = M;
          break;
        }
      }
    free(A), free(B), free(C), free(R), free(bias), free(PA), free(PB);
  }
  return fails;
}

static int dw_trials(void) {
  int fails = 0;
  for (int trial = 0; trial < 48; trial++) {
    kconv_geom g;
    memset(&g, 0, sizeof g);
    int64_t KW = trial % 2 ? 5 : 3, KH = trial % 8 < 4 ? KW : 1 + irand(5);
    int64_t S = 1 + trial / 2 % 2, SH = trial % 16 < 8 ? S : 1 + irand(2), C = 1 + irand(3);
    int64_t mg = trial % 5 == 4 ? 2 : 1, H = KH + irand(14), W = KW + irand(22);
    int64_t pt = irand(KH / 2 + 1), pb = irand(KH / 2 + 1), pl = irand(KW / 2 + 1), pr = irand(KW / 2 + 1);
    g.nsp = 2, g.N = 1, g.Cin = C, g.Cout = C * mg, g.G = C;
    g.in[0] = g.k[0] = g.s[0] = g.d[0] = g.d[1] = g.d[2] = 1;
    g.in[1] = H, g.in[2] = W, g.k[1] = KH, g.k[2] = KW, g.s[1] = SH, g.s[2] = S;
    g.plo[1] = pt, g.phi[1] = pb, g.plo[2] = pl, g.phi[2] = pr;
    g.out[0] = 1, g.out[1] = (H + pt + pb - KH) / SH + 1, g.out[2] = (W + pl + pr - KW) / S + 1;
    int64_t OH = g.out[1], OW = g.out[2];
    float *x = malloc(sizeof(float) * C * H * W), *w = malloc(sizeof(float) * g.Cout * KH * KW);
    float *b = malloc(sizeof(float) * g.Cout), *y = malloc(sizeof(float) * g.Cout * OH * OW);
    for (int64_t i = 0; i < C * H * W; i++) x[i] = frand(400.0f);
    for (int64_t i = 0; i < g.Cout * KH * KW; i++) w[i] = frand(800.0f);
    for (int64_t i = 0; i < g.Cout; i++) b[i] = frand(600.0f);
    if (trial % 7 == 2) x[0] = NAN;
    int act = (int[]){KCONV_ACT_NONE, KCONV_ACT_RELU, KCONV_ACT_HARDTANH, KCONV_ACT_SILU}[trial % 4];
    double lo = trial % 3 ? 0.0 : -0.25, hi = 0.5;
    kconv_direct_f32(&g, x, w, trial % 6 == 5 ? NULL : b, y, act, lo, hi, 1);
    for (int64_t oc = 0; oc < g.Cout; oc++)
      for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
          float acc = trial % 6 == 5 ? 0.0f : b[oc];
          for (int64_t kh = 0; kh < KH; kh++)
            for (int64_t kw = 0; kw < KW; kw++) {
              int64_t ih = oh * SH - pt + kh, iw = ow * S - pl + kw;
              float xv = ih < 0 || ih >= H || iw < 0 || iw >= W ? 0.0f : x[((oc / mg) * H + ih) * W + iw];
              acc = REF_FMA(w[(oc * KH + kh) * KW + kw], xv, acc);
            }
          acc = act_ref(act, acc, (float)lo, (float)hi);
          float got = y[(oc * OH + oh) * OW + ow];
          hash_f(got);
          if (!same(got, acc)) {
            if (fails < 5)
              printf("dw trial %d (%lldx%lld s %lld,%lld in %lldx%lld act %d) y[%lld,%lld,%lld] = %.9g, want %.9g\n",
                     trial, (long long)KH, (long long)KW, (long long)SH, (long long)S, (long long)H,
                     (long long)W, act, (long long)oc, (long long)oh, (long long)ow, got, acc);
            fails++;
            oc = g.Cout, oh = OH;
            break;
          }
        }
    free(x), free(w), free(b), free(y);
  }
  return fails;
}

/* kact_run_f32 (vector loop and tail) and the relu / hardtanh loops against the scalar forms */
static int act_trials(void) {
  enum { N = 4099 };
  static float x[N], y[N];
  int fails = 0;
  for (int i = 0; i < N; i++) x[i] = (float)(i - N / 2) * 0.0137f;
  float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-30f, -1e-30f, 88.5f, -88.5f, 104.0f, -104.0f, 7.0f, -3.0f};
  memcpy(x, sp, sizeof sp);
  int fs[] = {KCONV_ACT_SIGMOID, KCONV_ACT_TANH, KCONV_ACT_SILU, KCONV_ACT_HARDSWISH, KCONV_ACT_GELU,
              KCONV_ACT_GELU_TANH, KACT_EXP, KACT_ERF, KCONV_ACT_RELU, KCONV_ACT_HARDTANH};
  for (unsigned q = 0; q < sizeof fs / sizeof fs[0]; q++) {
    int f = fs[q];
    for (int n = N - 3; n <= N; n++) {
      memcpy(y, x, sizeof x);
      if (f == KCONV_ACT_RELU || f == KCONV_ACT_HARDTANH) kconv_act_run(f, -0.5, 2.0, y, n, 1);
      else kact_run_f32(f, y, 1, x, 1, n);
      for (int i = 0; i < n; i++) {
        float want = f == KCONV_ACT_RELU || f == KCONV_ACT_HARDTANH ? act_ref(f, x[i], -0.5f, 2.0f) : kact_apply_s(f, x[i]);
        if (!same(y[i], want)) {
          if (fails < 5) printf("act %d x %.9g: %.9g, want %.9g\n", f, x[i], y[i], want);
          fails++;
          break;
        }
      }
    }
  }
  /* the unary rows (out of place), bounds that are not floats included */
  static const struct { int op; double a, b; } un[] = {
      {MCK_EW_RELU, 0, 0}, {MCK_EW_RELU6, 0, 6}, {MCK_EW_HARDTANH, -0.5, 2}, {MCK_EW_HARDTANH, -0.1, 0.3},
      {MCK_EW_HARDTANH, -1e300, 1e-300}, {MCK_EW_SIGMOID, 0, 0}};
  for (unsigned q = 0; q < sizeof un / sizeof un[0]; q++) {
    mck_ew_par p = {un[q].a, un[q].b, 0};
    for (int n = N - 3; n <= N; n++) {
      mck_ew_un_row_f32(un[q].op, y, x, n, &p);
      for (int i = 0; i < n; i++) {
        float want = un[q].op == MCK_EW_SIGMOID ? kact_apply_s(KCONV_ACT_SIGMOID, x[i])
                                                : (float)mck_ew_un_f(un[q].op, x[i], &p);
        if (!same(y[i], want)) {
          if (fails < 5) printf("unary %d x %.9g: %.9g, want %.9g\n", un[q].op, x[i], y[i], want);
          fails++;
          break;
        }
      }
    }
  }
  return fails;
}

int main(void) {
  int g = gemm_trials(), d = dw_trials(), a = act_trials();
  printf("%s (MR %d NR %d): gemm %s, depthwise %s, activations %s; hash %016llx\n", PATH, KCONV_MR,
         KCONV_NR, g ? "FAIL" : "80 products ok", d ? "FAIL" : "48 convolutions ok",
         a ? "FAIL" : "16 functions ok", (unsigned long long)hash);
  return g || d || a;
}
