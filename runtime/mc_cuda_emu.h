/* mc_cuda_emu.h — the CUDA runtime, cuBLAS and device built-ins on the CPU, so that a .cu file
 * written by `mc compile --target cuda` builds and runs without a GPU (docs/cuda.md, spec 6):
 *
 *   c++ -std=c++17 -O1 -DMC_CUDA_EMULATE -Ibuild/runtime-dist -x c++ -c model.cu
 *   c++ model.o main.o build/libmcrt_cuda_emu.a -lm -lpthread
 *
 * The generated .cu, mcu_core.cuh and mc_runtime_cuda.c include this header instead of
 * <cuda_runtime.h> and <cublas_v2.h> when MC_CUDA_EMULATE is defined. The C part (types, enums,
 * cuda* and cublas* functions) is plain C for mc_runtime_cuda.c; the C++ part (dim3, threadIdx,
 * __syncthreads, warp shuffles, MC_LAUNCH) is for kernels. Implementation: mc_cuda_emu.c.
 *
 * What a GPU would do, on one CPU thread:
 *  - Device memory is host memory (cudaMalloc is a 256-byte aligned malloc); copies of every kind
 *    are memmove; there is one device, 0.
 *  - A launch runs at once, block after block (x fastest, then y, z), each block's threads in
 *    order of their linear index. A thread runs until it finishes or reaches a barrier; a block
 *    barrier (__syncthreads) releases once every thread of the block that has not exited waits
 *    at it, a warp barrier (__syncwarp, the shuffles and votes) once every live lane of the warp
 *    does. Waiting threads are fibers (ucontext) with their own stacks, made only when a thread
 *    actually waits, so kernels without barriers cost one context switch per launch.
 *  - __shared__ variables are one copy per OS thread (blocks run one at a time), not zeroed
 *    between blocks, as on a GPU. Dynamic shared memory: MC_DYN_SHARED(T, name) instead of
 *    `extern __shared__ T name[];` (the latter cannot be emulated).
 *  - Streams and events are in order and synchronous; cudaEventElapsedTime measures host time.
 *  - cuBLAS: cublasSgemm and cublasSgemmStridedBatched, column-major as cuBLAS, accumulated in
 *    double (no TF32 whatever the math mode).
 *  - Errors: an invalid launch configuration (no threads, more than 1024 threads a block, grid
 *    y or z over 65535, shared memory over 48 KiB) sets cudaErrorInvalidConfiguration and runs
 *    nothing; cudaGetLastError returns and clears the last error of the calling thread. For
 *    tests, MC_CUDA_EMU_FAIL_MALLOC=N and MC_CUDA_EMU_FAIL_LAUNCH=N in the environment make the
 *    Nth cudaMalloc (cudaErrorMemoryAllocation) or the Nth launch (cudaErrorLaunchFailure,
 *    nothing run) of the process fail.
 * Warp shuffles and votes ignore their mask: every live lane of the warp must take part. */
#ifndef MC_CUDA_EMU_H
#define MC_CUDA_EMU_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- CUDA runtime API ---------------------------------------------------------------------- */
typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchFailure = 719
} cudaError_t;

typedef enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef struct mc_emu_stream *cudaStream_t;
typedef struct mc_emu_event *cudaEvent_t;
#define cudaStreamDefault 0x0
#define cudaStreamNonBlocking 0x1
#define cudaEventDefault 0x0

cudaError_t cudaMalloc(void **p, size_t bytes);
cudaError_t cudaMallocHost(void **p, size_t bytes);
cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemset(void *p, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t s);
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaGetDevice(int *dev);
cudaError_t cudaSetDevice(int dev);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e);

/* ---- cuBLAS (v2 API, the entry points mc uses) --------------------------------------------- */
typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;
typedef enum { CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2,
               CUBLAS_TF32_TENSOR_OP_MATH = 3 } cublasMath_t;
typedef struct mc_emu_blas *cublasHandle_t;

cublasStatus_t cublasCreate(cublasHandle_t *h);
cublasStatus_t cublasDestroy(cublasHandle_t h);
cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t s);
cublasStatus_t cublasGetStream(cublasHandle_t h, cudaStream_t *s);
cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t *mode);
const char *cublasGetStatusString(cublasStatus_t s);
const char *cublasGetStatusName(cublasStatus_t s);
cublasStatus_t cublasSgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const float *alpha, const float *A, int lda, const float *B, int ldb, const float *beta,
                           float *C, int ldc);
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                         int k, const float *alpha, const float *A, int lda, long long sA,
                                         const float *B, int ldb, long long sB, const float *beta, float *C, int ldc,
                                         long long sC, int batch);

/* ---- the emulated device (kernels only) ---------------------------------------------------- */
typedef struct mc_emu_dim3 {
  unsigned x, y, z;
} mc_emu_dim3;

/* Runs body(ctx) once per thread of the grid; returns (and records as the last error) what a
 * launch of that configuration would. */
cudaError_t mc_emu_launch(mc_emu_dim3 grid, mc_emu_dim3 block, size_t shmem, cudaStream_t s, void (*body)(void *),
                          void *ctx);
void mc_emu_syncthreads(void);
void mc_emu_syncwarp(void);
/* The calling thread's slot for warp exchanges (8 bytes per thread of the block). */
uint64_t *mc_emu_lane_slots(void);
/* Bit i set: lane i of the calling thread's warp exists and has not exited. */
unsigned mc_emu_warp_live(void);
void *mc_emu_dyn_shared(void);

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
#define __global__
#define __device__
#define __host__
#define __constant__
#define __shared__ static __thread
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define MC_DYN_SHARED(T, name) T *name = (T *)mc_emu_dyn_shared()

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  operator mc_emu_dim3() const { return mc_emu_dim3{x, y, z}; }
};
extern "C" __thread uint3 threadIdx, blockIdx;
extern "C" __thread dim3 blockDim, gridDim;
static const int warpSize = 32;

static inline void __syncthreads(void) { mc_emu_syncthreads(); }
static inline void __syncwarp(unsigned = 0xffffffffu) { mc_emu_syncwarp(); }
static inline void __threadfence(void) {}
static inline void __threadfence_block(void) {}

/* Launch: MC_LAUNCH(kernel, grid, block, shared bytes, stream, args...) is kernel<<<...>>>(args)
 * under nvcc (mcu_core.cuh) and this under emulation. Each thread gets its own copy of the
 * arguments, converted to the kernel's parameter types as a call would. */
template <class K, class... A>
static inline void mc_emu_launch_kernel(K k, dim3 g, dim3 b, size_t sh, cudaStream_t s, A... a) {
  auto fn = [=]() { k(a...); };
  typedef decltype(fn) Fn;
  mc_emu_launch(g, b, sh, s, [](void *p) { (*(Fn *)p)(); }, &fn);
}
#define MC_LAUNCH(k, g, b, sh, st, ...) mc_emu_launch_kernel(k, dim3(g), dim3(b), (size_t)(sh), (st), __VA_ARGS__)

/* Atomics: threads run one at a time, so a read-modify-write is atomic. */
template <class T> static inline T atomicAdd(T *p, T v) { T o = *p; *p = o + v; return o; }
template <class T> static inline T atomicSub(T *p, T v) { T o = *p; *p = o - v; return o; }
template <class T> static inline T atomicExch(T *p, T v) { T o = *p; *p = v; return o; }
template <class T> static inline T atomicMax(T *p, T v) { T o = *p; *p = o > v ? o : v; return o; }
template <class T> static inline T atomicMin(T *p, T v) { T o = *p; *p = o < v ? o : v; return o; }
template <class T> static inline T atomicAnd(T *p, T v) { T o = *p; *p = o & v; return o; }
template <class T> static inline T atomicOr(T *p, T v) { T o = *p; *p = o | v; return o; }
template <class T> static inline T atomicCAS(T *p, T cmp, T v) { T o = *p; if (o == cmp) *p = v; return o; }

/* Warp exchanges: each lane publishes its value, the warp meets, each reads its source lane,
 * and the warp meets again before the slots are reused. A source outside the lane's segment of
 * `width` lanes gives the lane's own value, as on a GPU. */
static inline unsigned mc_emu_lane(void) {
  return ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 32u;
}
template <class T> static inline T mc_emu_shfl(T v, int src, bool valid) {
  static_assert(sizeof(T) <= 8, "warp shuffles move at most 8 bytes");
  uint64_t *slot = mc_emu_lane_slots(), bits = 0;
  memcpy(&bits, &v, sizeof v);
  *slot = bits;
  mc_emu_syncwarp();
  T r = v;
  if (valid) memcpy(&r, slot + (src - (int)mc_emu_lane()), sizeof r);
  mc_emu_syncwarp();
  return r;
}
template <class T> static inline T __shfl_sync(unsigned, T v, int src, int width = 32) {
  int lane = (int)mc_emu_lane(), base = lane / width * width;
  return mc_emu_shfl(v, base + ((src % width) + width) % width, true);
}
template <class T> static inline T __shfl_down_sync(unsigned, T v, unsigned d, int width = 32) {
  int lane = (int)mc_emu_lane(), base = lane / width * width, src = lane + (int)d;
  return mc_emu_shfl(v, src, src < base + width && src < 32);
}
template <class T> static inline T __shfl_up_sync(unsigned, T v, unsigned d, int width = 32) {
  int lane = (int)mc_emu_lane(), base = lane / width * width, src = lane - (int)d;
  return mc_emu_shfl(v, src, src >= base);
}
template <class T> static inline T __shfl_xor_sync(unsigned, T v, int m, int width = 32) {
  int lane = (int)mc_emu_lane(), base = lane / width * width, src = lane ^ m;
  return mc_emu_shfl(v, src, src >= base && src < base + width && src < 32);
}
/* votes: bit i of the result is lane i's predicate (exited lanes contribute 0) */
static inline unsigned __ballot_sync(unsigned, int pred) {
  uint64_t *slot = mc_emu_lane_slots(), *w = slot - mc_emu_lane();
  *slot = pred ? 1u : 0u;
  mc_emu_syncwarp();
  unsigned live = mc_emu_warp_live(), r = 0;
  for (unsigned i = 0; i < 32; i++)
    if (live >> i & 1u) r |= (unsigned)(w[i] & 1u) << i;
  mc_emu_syncwarp();
  return r;
}
static inline int __any_sync(unsigned m, int pred) { return __ballot_sync(m, pred) != 0; }
static inline int __all_sync(unsigned m, int pred) { return __ballot_sync(m, pred) == mc_emu_warp_live(); }

/* Device math intrinsics: the precise functions (the fast ones are allowed to be exact). */
static inline float mc_emu_expf(float x) { return expf(x); }
static inline float mc_emu_logf(float x) { return logf(x); }
static inline float mc_emu_log2f(float x) { return log2f(x); }
static inline float mc_emu_powf(float a, float b) { return powf(a, b); }
static inline float mc_emu_sinf(float x) { return sinf(x); }
static inline float mc_emu_cosf(float x) { return cosf(x); }
static inline float mc_emu_tanf(float x) { return tanf(x); }
/* glibc declares functions of these names: the macros keep ours apart */
#define __expf mc_emu_expf
#define __logf mc_emu_logf
#define __log2f mc_emu_log2f
#define __powf mc_emu_powf
#define __sinf mc_emu_sinf
#define __cosf mc_emu_cosf
#define __tanf mc_emu_tanf
static inline float __fdividef(float a, float b) { return a / b; }
static inline float __frcp_rn(float x) { return 1.f / x; }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline float __saturatef(float x) { return x != x ? 0.f : x < 0.f ? 0.f : x > 1.f ? 1.f : x; }
static inline float mc_emu_rsqrtf(float x) { return 1.f / sqrtf(x); }
static inline double mc_emu_rsqrt(double x) { return 1.0 / sqrt(x); }
#define rsqrtf mc_emu_rsqrtf /* C23 libms may declare their own */
#define rsqrt mc_emu_rsqrt
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __int_as_float(int v) { float f; memcpy(&f, &v, sizeof f); return f; }
static inline int __float_as_int(float f) { int v; memcpy(&v, &f, sizeof v); return v; }
static inline float __uint_as_float(unsigned v) { float f; memcpy(&f, &v, sizeof f); return f; }
static inline unsigned __float_as_uint(float f) { unsigned v; memcpy(&v, &f, sizeof v); return v; }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static inline long long llmax(long long a, long long b) { return a > b ? a : b; }

/* the C++ overloads CUDA's headers add */
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t bytes) { return cudaMalloc((void **)p, bytes); }
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t bytes) {
  return cudaMallocHost((void **)p, bytes);
}
#endif /* __cplusplus */

#endif
