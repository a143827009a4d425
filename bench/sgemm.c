/* sgemm.c — GFLOP/s of mc's float32 GEMM kernels against OpenBLAS on square row-major
 * products C = A @ B (n x n), n from the command line (default 256 512 1024 2048).
 * kl_sgemm is the linalg family's entry (aten::mm / linear / matmul); kconv_sgemm is the
 * convolution family's accumulate-only GEMM. Both are compiled exactly as generated C builds
 * them (the kernel headers, -O3 -march=native). Each result is checked against OpenBLAS.
 * Prints one line per size: "sgemm N mc_GFLOPS conv_GFLOPS openblas_GFLOPS ratio". Built
 * and run by bench/bench.py; links -lopenblas (the bench only, never generated code). */
#include "ops/k_conv.h"
#include "ops/k_linalg.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median seconds of `reps` runs of kind k (0 mc linalg, 1 mc conv, 2 OpenBLAS), interleaved
 * with the others by the caller. */
static double bench_once(int k, int n, const float *a, const float *b, float *c,
                         kconv_gemm_ws *ws) {
  double t0 = bench_now();
  if (k == 0) {
    if (kl_sgemm(n, n, n, 1.0f, a, n, 1, b, n, 1, 0.0f, c, n, 1)) exit(1);
  } else if (k == 1) {
    memset(c, 0, sizeof(float) * (size_t)n * (size_t)n);
    kconv_sgemm(ws, n, n, n, a, n, 1, b, n, 1, c, n, 1);
  } else {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
  }
  return bench_now() - t0;
}

static double bench_maxdiff(const float *x, const float *y, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; i++) {
    double d = fabs((double)x[i] - (double)y[i]) / (1.0 + fabs((double)y[i]));
    if (d > m) m = d;
  }
  return m;
}

int main(int argc, char **argv) {
  int sizes[16] = {256, 512, 1024, 2048}, ns = 4;
  if (argc > 1) {
    ns = 0;
    for (int i = 1; i < argc && ns < 16; i++) sizes[ns++] = atoi(argv[i]);
  }
  kconv_gemm_ws ws;
  if (kconv_gemm_ws_init(&ws)) return 1;
  for (int s = 0; s < ns; s++) {
    int n = sizes[s];
    size_t nn = (size_t)n * (size_t)n;
    float *a = malloc(nn * sizeof(float)), *b = malloc(nn * sizeof(float));
    float *c[3] = {malloc(nn * sizeof(float)), malloc(nn * sizeof(float)), malloc(nn * sizeof(float))};
    srand(1);
    for (size_t i = 0; i < nn; i++) a[i] = (float)((double)rand() / RAND_MAX - 0.5);
    for (size_t i = 0; i < nn; i++) b[i] = (float)((double)rand() / RAND_MAX - 0.5);
    double flop = 2.0 * n * (double)n * n;
    int reps = (int)(2e10 / flop);
    if (reps < 3) reps = 3;
    if (reps > 50) reps = 50;
    double *t[3];
    for (int k = 0; k < 3; k++) {
      t[k] = malloc(sizeof(double) * (size_t)reps);
      bench_once(k, n, a, b, c[k], &ws); /* warm-up */
    }
    for (int r = 0; r < reps; r++)
      for (int k = 0; k < 3; k++) t[k][r] = bench_once(k, n, a, b, c[k], &ws);
    double g[3];
    for (int k = 0; k < 3; k++) {
      qsort(t[k], (size_t)reps, sizeof(double), bench_cmp);
      g[k] = flop / t[k][reps / 2] * 1e-9;
    }
    double e0 = bench_maxdiff(c[0], c[2], nn), e1 = bench_maxdiff(c[1], c[2], nn);
    printf("sgemm %d %.1f %.1f %.1f %.2f\n", n, g[0], g[1], g[2], g[0] / g[2]);
    if (e0 > 1e-3 || e1 > 1e-3) {
      fprintf(stderr, "sgemm %d: mc differs from OpenBLAS (%g, %g)\n", n, e0, e1);
      return 1;
    }
    for (int k = 0; k < 3; k++) free(t[k]), free(c[k]);
    free(a);
    free(b);
  }
  kconv_gemm_ws_free(&ws);
  return 0;
}
