/* epilogue.c — the GEMM epilogue applied in registers (k_conv.h kconv_micro: bias, relu,
 * hardtanh on the last K block) must give the same bits as the scalar epilogue (kconv_epi_tile
 * semantics: acc + b, then kconv_act_run). Random products of every shape class, NaN and
 * signed zeros, row and column bias. Built for this machine and for AVX2 by
 * tests/kernels/native.sh. */
#include "ops/k_conv.h"
int main(void) {
  int fails = 0;
  srand(3);
  for (int trial = 0; trial < 200; trial++) {
    int64_t M = 1 + rand() % 70, N = 1 + rand() % 90, K = 1 + rand() % 600;
    float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
    float *C1 = malloc(sizeof(float) * M * N), *C2 = malloc(sizeof(float) * M * N), *bias = malloc(sizeof(float) * (M + N));
    for (int64_t i = 0; i < M * K; i++) A[i] = (float)(rand() % 2001 - 1000) / 700.0f;
    for (int64_t i = 0; i < K * N; i++) B[i] = (float)(rand() % 2001 - 1000) / 900.0f;
    for (int64_t i = 0; i < M + N; i++) bias[i] = (float)(rand() % 2001 - 1000) / 300.0f;
    if (trial % 5 == 0) A[0] = NAN;
    if (trial % 7 == 0) { for (int64_t k = 0; k < K; k++) A[k] = 0.0f; bias[0] = -0.0f; }
    int act = (int[]){KCONV_ACT_NONE, KCONV_ACT_RELU, KCONV_ACT_HARDTANH}[trial % 3];
    int rows = trial % 2;
    kconv_epi e = {trial % 4 == 3 ? NULL : bias, rows, act, trial % 6 < 3 ? 0.0 : -1.5, 6.0};
    kconv_gemm_ws ws;
    if (kconv_gemm_ws_init_for(&ws, M, N, K)) return 2;
    kconv_sgemm_epi(&ws, M, N, K, A, K, 1, B, N, 1, C1, N, 1, 1.0f, 1, &e);
    kconv_sgemm_epi(&ws, M, N, K, A, K, 1, B, N, 1, C2, N, 1, 1.0f, 1, NULL);
    for (int64_t i = 0; i < M; i++) {
      float *row = C2 + i * N;
      if (e.bias && rows) for (int64_t j = 0; j < N; j++) row[j] += e.bias[i];
      else if (e.bias) for (int64_t j = 0; j < N; j++) row[j] += e.bias[j];
      kconv_act_run(act, e.lo, e.hi, row, N, 1);
    }
    if (memcmp(C1, C2, sizeof(float) * M * N)) { printf("trial %d (M %lld N %lld K %lld act %d rows %d) differs\n", trial, (long long)M, (long long)N, (long long)K, act, rows); fails++; }
    free(A); free(B); free(C1); free(C2); free(bias);
  }
  printf("%s\n", fails ? "FAIL" : "200 products: register epilogue bitwise equal to the scalar one");
  return fails != 0;
}
