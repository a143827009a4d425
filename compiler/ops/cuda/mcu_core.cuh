/* mcu_core.cuh — core of mc's CUDA kernel library, pasted into every generated .cu (after
 * <cuda_runtime.h> and <cublas_v2.h>): the N-d index helper, launch sizing and error macros.
 *
 * Invariants: every launcher returns cudaError_t (cudaGetLastError() after the launch) and every
 * cuBLAS helper a cublasStatus_t; generated code checks each one with MCU_TRY / MCU_BLAS and
 * returns the message through `err` (never aborts). Launches go through MC_LAUNCH, never
 * `<<<>>>` directly, so that the same source builds for the CPU emulation. Element offsets are int64_t. Kernels are
 * templates or `static inline` host helpers so unused ones cost nothing and warn nothing.
 * Prefix: mcu_. */
#define MCU_MAX_DIMS 8

/* MC_LAUNCH(kernel, grid, block, shared bytes, stream, args...): every kernel launch. Under
 * -DMC_CUDA_EMULATE, mc_cuda_emu.h defines it to run the grid on the CPU (docs/cuda.md). */
#ifndef MC_CUDA_EMULATE
#define MC_LAUNCH(k, g, b, sh, st, ...) k<<<(g), (b), (sh), (st)>>>(__VA_ARGS__)
#endif

#define MCU_THREADS 256

/* An N-d loop over `shape` (numel n) with up to 3 operands, each with element strides st[k]
 * (0 on broadcast dims); contig: every operand is compact row-major over `shape`, offsets = i. */
struct mcu_nd {
  int ndim, contig;
  int64_t n;
  int64_t shape[MCU_MAX_DIMS];
  int64_t st[3][MCU_MAX_DIMS];
};

__device__ inline void mcu_nd_offsets(const mcu_nd &d, int64_t i, int64_t *o) {
  o[0] = o[1] = o[2] = 0;
  if (d.contig) {
    o[0] = o[1] = o[2] = i;
    return;
  }
  for (int k = d.ndim - 1; k >= 0; k--) {
    int64_t q = i % d.shape[k];
    i /= d.shape[k];
    o[0] += q * d.st[0][k];
    o[1] += q * d.st[1][k];
    o[2] += q * d.st[2][k];
  }
}

static inline unsigned mcu_blocks(int64_t n) {
  int64_t b = (n + MCU_THREADS - 1) / MCU_THREADS;
  return (unsigned)(b < 1 ? 1 : b > 65535 * 8 ? 65535 * 8 : b);
}

#define MCU_FOR(i, n) for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (n); i += (int64_t)gridDim.x * blockDim.x)

static inline int mcu_fail(char *err, const char *where, const char *what) {
  snprintf(err, 256, "%.120s: %.120s", where, what);
  return -1;
}
#define MCU_TRY(e, where)                                                                         \
  do {                                                                                            \
    cudaError_t r_ = (e);                                                                         \
    if (r_ != cudaSuccess) return mcu_fail(err, where, cudaGetErrorString(r_));                   \
  } while (0)
#define MCU_BLAS(e, where)                                                                        \
  do {                                                                                            \
    cublasStatus_t r_ = (e);                                                                      \
    if (r_ != CUBLAS_STATUS_SUCCESS) return mcu_fail(err, where, cublasGetStatusString(r_));      \
  } while (0)
