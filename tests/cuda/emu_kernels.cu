/* emu_kernels.cu — checks of the CPU emulation of CUDA (runtime/mc_cuda_emu.h) on kernels
 * that use what mc's generated kernels may use: __shared__ memory with __syncthreads, dynamic
 * shared memory, warp shuffles and votes, atomics, 2-d and 3-d grids and blocks, cuBLAS GEMM,
 * streams and events, the errors of bad launches, and two host threads launching at once. Every expected value is worked out by
 * hand in the comment beside its check. Built by tests/cuda/run.sh:
 *   c++ -std=c++17 -O1 -DMC_CUDA_EMULATE -Ibuild/runtime-dist -x c++ emu_kernels.cu libmcrt_cuda_emu.a
 * and, where nvcc is, compiled (not run) by nvcc too, so that it stays valid CUDA.
 * Exit 0 when every check passes. */
#ifdef MC_CUDA_EMULATE
#include "mc_cuda_emu.h"
#else
#include <cublas_v2.h>
#include <cuda_runtime.h>
#define MC_LAUNCH(k, g, b, sh, st, ...) k<<<(g), (b), (sh), (st)>>>(__VA_ARGS__)
#define MC_DYN_SHARED(T, name) extern __shared__ T name[]
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int fails;
#define CHECK(c, ...)                                                                             \
  do {                                                                                            \
    if (!(c)) {                                                                                   \
      printf("emu_kernels: FAIL line %d: ", __LINE__);                                            \
      printf(__VA_ARGS__);                                                                        \
      printf("\n");                                                                               \
      fails++;                                                                                    \
    }                                                                                             \
  } while (0)

/* Tree sum of 256 values per block through shared memory: every step needs the barrier, since
 * thread t reads what thread t + s wrote in the step before. */
__global__ void k_block_sum(const float *x, float *out) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  buf[t] = x[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}

/* Reversal through shared memory: thread t writes slot t, then reads slot n-1-t, written by
 * another thread: wrong without the barrier (thread 0 would read an unwritten slot). */
__global__ void k_reverse(const int *x, int *y, int n) {
  MC_DYN_SHARED(int, s);
  int t = (int)threadIdx.x;
  s[t] = x[blockIdx.x * n + t];
  __syncthreads();
  y[blockIdx.x * n + t] = s[n - 1 - t];
}

/* Warp sum with __shfl_down_sync, then lane 0 of each warp adds into out[0] atomically. */
__global__ void k_warp_sum(const int *x, int *out) {
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

/* y[t] = x of lane (lane ^ 1) (pairs swap); b[warp] = ballot of even lanes */
__global__ void k_xor_ballot(const int *x, int *y, unsigned *b) {
  int t = (int)threadIdx.x;
  y[t] = __shfl_xor_sync(0xffffffffu, x[t], 1);
  unsigned m = __ballot_sync(0xffffffffu, t % 2 == 0);
  if (t % 32 == 0) b[t / 32] = m;
}

/* early exit: threads >= n return before the barrier; the others still meet and finish */
__global__ void k_early_exit(int *y, int n) {
  __shared__ int c;
  if ((int)threadIdx.x >= n) return;
  if (threadIdx.x == 0) c = 0;
  __syncthreads();
  atomicAdd(&c, 1);
  __syncthreads();
  y[threadIdx.x] = c;
}

/* every thread of a 3-d grid of 3-d blocks writes its global coordinates once */
__global__ void k_coords(int *hits, unsigned W, unsigned H) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
           z = blockIdx.z * blockDim.z + threadIdx.z;
  hits[(z * H + y) * W + x] += 1 + (int)(x + 10 * y + 100 * z);
}

/* 10. two host threads launching barrier kernels at once: each sums its own 8 blocks */
static void *sum_thread(void *arg) {
  float base = *(float *)arg, *x, *out;
  int bad = 0;
  cudaMallocManaged((void **)&x, 8 * 256 * sizeof(float), 1);
  cudaMallocManaged((void **)&out, 8 * sizeof(float), 1);
  for (int i = 0; i < 8 * 256; i++) x[i] = base;
  for (int rep = 0; rep < 20; rep++) {
    MC_LAUNCH(k_block_sum, 8, 256, 0, 0, x, out);
    cudaDeviceSynchronize();
    for (int b = 0; b < 8; b++) bad += out[b] != 256.f * base;
  }
  cudaFree(x);
  cudaFree(out);
  *(float *)arg = (float)bad;
  return NULL;
}

int main(void) {
  /* 1. block sums: block b holds b*256 .. b*256+255, so its sum is 256*256*b + 255*256/2 */
  {
    const int nb = 4;
    float *x, *out;
    cudaMallocManaged((void **)&x, nb * 256 * sizeof(float), 1);
    cudaMallocManaged((void **)&out, nb * sizeof(float), 1);
    for (int i = 0; i < nb * 256; i++) x[i] = (float)i;
    MC_LAUNCH(k_block_sum, nb, 256, 0, 0, x, out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess, "block_sum launch");
    for (int b = 0; b < nb; b++)
      CHECK(out[b] == 65536.f * b + 32640.f, "block_sum[%d] = %g, want %g", b, out[b], 65536.f * b + 32640.f);
    cudaFree(x);
    cudaFree(out);
  }
  /* 2. reversal in 3 blocks of 100 threads with 400 bytes of dynamic shared memory */
  {
    int *x, *y, n = 100;
    cudaMallocManaged((void **)&x, 300 * sizeof(int), 1);
    cudaMallocManaged((void **)&y, 300 * sizeof(int), 1);
    for (int i = 0; i < 300; i++) x[i] = i;
    MC_LAUNCH(k_reverse, 3, n, n * sizeof(int), 0, x, y, n);
    cudaDeviceSynchronize();
    int bad = 0;
    for (int b = 0; b < 3; b++)
      for (int t = 0; t < n; t++) bad += y[b * n + t] != b * n + n - 1 - t;
    CHECK(bad == 0, "reverse: %d wrong", bad);
    cudaFree(x);
    cudaFree(y);
  }
  /* 3. warp sums of 0..511 over 2 blocks of 256: 511*512/2 = 130816 */
  {
    int *x, *out;
    cudaMallocManaged((void **)&x, 512 * sizeof(int), 1);
    cudaMallocManaged((void **)&out, sizeof(int), 1);
    for (int i = 0; i < 512; i++) x[i] = i;
    *out = 0;
    MC_LAUNCH(k_warp_sum, 2, 256, 0, 0, x, out);
    cudaDeviceSynchronize();
    CHECK(*out == 130816, "warp_sum = %d, want 130816", *out);
    cudaFree(x);
    cudaFree(out);
  }
  /* 4. xor shuffle over 64 threads swaps neighbours; the ballot of even lanes is 0x55555555 */
  {
    int *x, *y;
    unsigned *b;
    cudaMallocManaged((void **)&x, 64 * sizeof(int), 1);
    cudaMallocManaged((void **)&y, 64 * sizeof(int), 1);
    cudaMallocManaged((void **)&b, 2 * sizeof(unsigned), 1);
    for (int i = 0; i < 64; i++) x[i] = 1000 + i;
    MC_LAUNCH(k_xor_ballot, 1, 64, 0, 0, x, y, b);
    cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += y[i] != 1000 + (i ^ 1);
    CHECK(bad == 0, "xor shuffle: %d wrong", bad);
    CHECK(b[0] == 0x55555555u && b[1] == 0x55555555u, "ballot = %08x %08x", b[0], b[1]);
    cudaFree(x);
    cudaFree(y);
    cudaFree(b);
  }
  /* 5. 40 of 64 threads stay: each reads the count 40 after the second barrier */
  {
    int *y;
    cudaMallocManaged((void **)&y, 64 * sizeof(int), 1);
    for (int i = 0; i < 64; i++) y[i] = -1;
    MC_LAUNCH(k_early_exit, 1, 64, 0, 0, y, 40);
    CHECK(cudaGetLastError() == cudaSuccess, "early_exit launch");
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += y[i] != (i < 40 ? 40 : -1);
    CHECK(bad == 0, "early_exit: %d wrong", bad);
    cudaFree(y);
  }
  /* 6. grid (2,3,2) of blocks (4,2,3): an 8 x 6 x 6 box, each point hit once */
  {
    unsigned W = 8, H = 6, D = 6;
    int *hits;
    cudaMallocManaged((void **)&hits, W * H * D * sizeof(int), 1);
    cudaMemset(hits, 0, W * H * D * sizeof(int));
    MC_LAUNCH(k_coords, dim3(2, 3, 2), dim3(4, 2, 3), 0, 0, hits, W, H);
    cudaDeviceSynchronize();
    int bad = 0;
    for (unsigned z = 0; z < D; z++)
      for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) bad += hits[(z * H + y) * W + x] != 1 + (int)(x + 10 * y + 100 * z);
    CHECK(bad == 0, "coords: %d wrong", bad);
    /* 7. bad configurations: 1025 threads, an empty grid; the error is returned once */
    MC_LAUNCH(k_coords, 1, 1025, 0, 0, hits, W, H);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration, "1025 threads must be refused");
    CHECK(cudaGetLastError() == cudaSuccess, "cudaGetLastError must clear the error");
    MC_LAUNCH(k_coords, 0, 32, 0, 0, hits, W, H);
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration, "an empty grid must be refused");
    cudaFree(hits);
  }
  /* 8. cuBLAS, column-major: A = [[1,2],[3,4]] (2x2, lda 2: A[0]=1 A[1]=3 A[2]=2 A[3]=4),
   *    B = I; C = 2 A B + 1 C with C = all 1: [[3,5],[7,9]] column-major {3,7,5,9}; with
   *    op(A) = A^T: 2 A^T + C = [[3,7],[5,9]] -> {3,5,7,9}. */
  {
    cublasHandle_t h;
    CHECK(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
    float A[4] = {1, 3, 2, 4}, B[4] = {1, 0, 0, 1}, C[4] = {1, 1, 1, 1}, al = 2, be = 1;
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &al, A, 2, B, 2, &be, C, 2) == CUBLAS_STATUS_SUCCESS,
          "sgemm");
    CHECK(C[0] == 3 && C[1] == 7 && C[2] == 5 && C[3] == 9, "sgemm NN: %g %g %g %g", C[0], C[1], C[2], C[3]);
    float D[4] = {1, 1, 1, 1};
    cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 2, &al, A, 2, B, 2, &be, D, 2);
    CHECK(D[0] == 3 && D[1] == 5 && D[2] == 7 && D[3] == 9, "sgemm TN: %g %g %g %g", D[0], D[1], D[2], D[3]);
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &al, A, 1, B, 2, &be, C, 2) == CUBLAS_STATUS_INVALID_VALUE,
          "lda 1 < m 2 must be refused");
    cublasDestroy(h);
  }
  /* 9. streams and events run in order and measure a non-negative time */
  {
    cudaStream_t s = 0;
    cudaEvent_t a = 0, b = 0;
    float ms = -1;
    CHECK(cudaStreamCreate(&s) == cudaSuccess && cudaEventCreate(&a) == cudaSuccess &&
              cudaEventCreate(&b) == cudaSuccess,
          "stream/event create");
    cudaEventRecord(a, s);
    cudaEventRecord(b, s);
    CHECK(cudaEventSynchronize(b) == cudaSuccess && cudaEventElapsedTime(&ms, a, b) == cudaSuccess && ms >= 0,
          "elapsed time %g", ms);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaStreamDestroy(s);
  }
  {
    float a = 1.f, b = 2.f;
    pthread_t ta, tb;
    pthread_create(&ta, NULL, sum_thread, &a);
    pthread_create(&tb, NULL, sum_thread, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(a == 0.f && b == 0.f, "threads: %g and %g wrong block sums", a, b);
  }
  printf("emu_kernels: %s\n", fails ? "FAIL" : "all checks passed");
  return fails ? 1 : 0;
}
