/* mc_cuda_emu.c — the CPU emulation of the CUDA runtime and cuBLAS declared in mc_cuda_emu.h
 * (libmcrt_cuda_emu.a, with mc_runtime_cuda.c built -DMC_CUDA_EMULATE).
 *
 * Launches: mc_emu_launch runs the grid on the calling thread. A "runner" fiber starts threads
 * one after another (thread t = body(ctx) with threadIdx set); a thread that reaches a barrier
 * keeps its fiber, parked on the waiting list, and the scheduler starts a new runner for the
 * next thread. Once every thread of the block has started, a barrier releases: the lanes of a
 * warp when each of its live lanes waits at a warp barrier, the block when each live thread
 * waits at a block barrier; released fibers resume in thread order. A runner that finds its
 * block complete moves on to the next block itself, so a kernel without barriers runs in one
 * fiber switch. Fibers and their stacks are kept per OS thread for later launches and freed
 * when the thread exits.
 * Everything else is host memory, memmove and in-order no-ops; errors are per OS thread. */
#include "mc_cuda_emu.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <ucontext.h>

#define EMU_STACK (128 * 1024) /* per waiting thread; mc's kernels need a few KiB */
#define EMU_MAX_THREADS 1024
#define EMU_MAX_SHARED (48 * 1024)

__thread struct mc_emu_dim3 threadIdx, blockIdx, blockDim, gridDim;

static __thread cudaError_t emu_last_error;
/* injected failures (MC_CUDA_EMU_FAIL_*), counted over the process's threads */
static long emu_fail_malloc = -1, emu_fail_launch = -1, emu_nmalloc, emu_nlaunch;
static pthread_once_t emu_env_once = PTHREAD_ONCE_INIT;

static void emu_env_init(void) {
  const char *s = getenv("MC_CUDA_EMU_FAIL_MALLOC");
  if (s && *s) emu_fail_malloc = atol(s);
  s = getenv("MC_CUDA_EMU_FAIL_LAUNCH");
  if (s && *s) emu_fail_launch = atol(s);
}
static void emu_read_env(void) { pthread_once(&emu_env_once, emu_env_init); }

static cudaError_t emu_err(cudaError_t e) {
  if (e != cudaSuccess) emu_last_error = e;
  return e;
}

/* ---- memory -------------------------------------------------------------------------------- */
cudaError_t cudaMalloc(void **p, size_t bytes) {
  emu_read_env();
  if (!p) return emu_err(cudaErrorInvalidValue);
  *p = NULL;
  if (__atomic_add_fetch(&emu_nmalloc, 1, __ATOMIC_RELAXED) == emu_fail_malloc) return emu_err(cudaErrorMemoryAllocation);
  void *q = NULL;
  if (posix_memalign(&q, 256, bytes ? bytes : 1)) return emu_err(cudaErrorMemoryAllocation);
  *p = q;
  return cudaSuccess;
}
cudaError_t cudaMallocHost(void **p, size_t bytes) { return cudaMalloc(p, bytes); }
cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags) {
  (void)flags;
  return cudaMalloc(p, bytes);
}
cudaError_t cudaFree(void *p) {
  free(p);
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void *p) { return cudaFree(p); }

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind) {
  if ((unsigned)kind > cudaMemcpyDefault) return emu_err(cudaErrorInvalidMemcpyDirection);
  if (bytes && (!dst || !src)) return emu_err(cudaErrorInvalidValue);
  if (bytes) memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
  (void)s;
  return cudaMemcpy(dst, src, bytes, kind);
}
cudaError_t cudaMemset(void *p, int value, size_t bytes) {
  if (bytes && !p) return emu_err(cudaErrorInvalidValue);
  if (bytes) memset(p, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t s) {
  (void)s;
  return cudaMemset(p, value, bytes);
}

/* ---- device, streams, events --------------------------------------------------------------- */
cudaError_t cudaGetDeviceCount(int *n) {
  if (!n) return emu_err(cudaErrorInvalidValue);
  *n = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int *dev) {
  if (!dev) return emu_err(cudaErrorInvalidValue);
  *dev = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int dev) { return dev == 0 ? cudaSuccess : emu_err(cudaErrorInvalidDevice); }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

struct mc_emu_stream {
  unsigned flags;
};
struct mc_emu_event {
  double ms; /* host time of the last record, -1 before */
};

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) {
  if (!s) return emu_err(cudaErrorInvalidValue);
  *s = calloc(1, sizeof **s);
  if (!*s) return emu_err(cudaErrorMemoryAllocation);
  (*s)->flags = flags;
  return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (!s) return emu_err(cudaErrorInvalidResourceHandle);
  free(s);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  (void)s;
  return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t s) {
  (void)s;
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags) {
  (void)s;
  (void)flags;
  return e ? cudaSuccess : emu_err(cudaErrorInvalidResourceHandle);
}

static double emu_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags) {
  (void)flags;
  if (!e) return emu_err(cudaErrorInvalidValue);
  *e = malloc(sizeof **e);
  if (!*e) return emu_err(cudaErrorMemoryAllocation);
  (*e)->ms = -1;
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  if (!e) return emu_err(cudaErrorInvalidResourceHandle);
  free(e);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  (void)s;
  if (!e) return emu_err(cudaErrorInvalidResourceHandle);
  e->ms = emu_now_ms();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) { return e ? cudaSuccess : emu_err(cudaErrorInvalidResourceHandle); }
cudaError_t cudaEventQuery(cudaEvent_t e) { return e ? cudaSuccess : emu_err(cudaErrorInvalidResourceHandle); }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return emu_err(cudaErrorInvalidValue);
  if (start->ms < 0 || end->ms < 0) return emu_err(cudaErrorInvalidResourceHandle);
  *ms = (float)(end->ms - start->ms);
  return cudaSuccess;
}

/* ---- errors -------------------------------------------------------------------------------- */
cudaError_t cudaGetLastError(void) {
  cudaError_t e = emu_last_error;
  emu_last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError(void) { return emu_last_error; }

const char *cudaGetErrorName(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "cudaSuccess";
  case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
  case cudaErrorInitializationError: return "cudaErrorInitializationError";
  case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
  case cudaErrorNoDevice: return "cudaErrorNoDevice";
  case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
  case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
  case cudaErrorNotReady: return "cudaErrorNotReady";
  case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
  case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}
const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInitializationError: return "initialization error";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
  case cudaErrorNoDevice: return "no CUDA-capable device is detected";
  case cudaErrorInvalidDevice: return "invalid device ordinal";
  case cudaErrorInvalidResourceHandle: return "invalid resource handle";
  case cudaErrorNotReady: return "device not ready";
  case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
  case cudaErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unrecognized error code";
}

/* ---- cuBLAS -------------------------------------------------------------------------------- */
struct mc_emu_blas {
  cudaStream_t stream;
  cublasMath_t math;
};

cublasStatus_t cublasCreate(cublasHandle_t *h) {
  if (!h) return CUBLAS_STATUS_INVALID_VALUE;
  *h = calloc(1, sizeof **h);
  return *h ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}
cublasStatus_t cublasDestroy(cublasHandle_t h) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  free(h);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t s) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  h->stream = s;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetStream(cublasHandle_t h, cudaStream_t *s) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!s) return CUBLAS_STATUS_INVALID_VALUE;
  *s = h->stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t mode) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  h->math = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t *mode) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = h->math;
  return CUBLAS_STATUS_SUCCESS;
}
const char *cublasGetStatusName(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}
const char *cublasGetStatusString(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_SUCCESS: return "the operation completed successfully";
  case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
  case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
  case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
  case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
  case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
  }
  return "unknown error";
}

/* C[i + j*ldc] = alpha * sum_p op(A)[i,p] op(B)[p,j] + beta * C (column-major, as cuBLAS);
 * beta == 0 writes C without reading it. One column of C at a time, summed in double. */
static void emu_sgemm(int ta, int tb, int m, int n, int k, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc, double *acc, float *bcol) {
  for (int j = 0; j < n; j++) {
    for (int p = 0; p < k; p++) bcol[p] = tb ? B[j + (size_t)p * ldb] : B[p + (size_t)j * ldb];
    if (!ta) {
      for (int i = 0; i < m; i++) acc[i] = 0;
      for (int p = 0; p < k; p++) {
        const float *a = A + (size_t)p * lda;
        double b = bcol[p];
        for (int i = 0; i < m; i++) acc[i] += (double)a[i] * b;
      }
    } else {
      for (int i = 0; i < m; i++) {
        const float *a = A + (size_t)i * lda;
        double s = 0;
        for (int p = 0; p < k; p++) s += (double)a[p] * bcol[p];
        acc[i] = s;
      }
    }
    float *c = C + (size_t)j * ldc;
    for (int i = 0; i < m; i++) c[i] = (float)(alpha * acc[i] + (beta == 0.f ? 0.0 : (double)beta * c[i]));
  }
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                         int k, const float *alpha, const float *A, int lda, long long sA,
                                         const float *B, int ldb, long long sB, const float *beta, float *C, int ldc,
                                         long long sC, int batch) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  int at = ta != CUBLAS_OP_N, bt = tb != CUBLAS_OP_N;
  if ((unsigned)ta > CUBLAS_OP_C || (unsigned)tb > CUBLAS_OP_C || m < 0 || n < 0 || k < 0 || batch < 0 || !alpha ||
      !beta || lda < (at ? (k > 1 ? k : 1) : (m > 1 ? m : 1)) || ldb < (bt ? (n > 1 ? n : 1) : (k > 1 ? k : 1)) ||
      ldc < (m > 1 ? m : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || batch == 0) return CUBLAS_STATUS_SUCCESS;
  double *acc = malloc((size_t)m * sizeof *acc);
  float *bcol = malloc((size_t)(k ? k : 1) * sizeof *bcol);
  if (!acc || !bcol) {
    free(acc);
    free(bcol);
    return CUBLAS_STATUS_ALLOC_FAILED;
  }
  for (int b = 0; b < batch; b++)
    emu_sgemm(at, bt, m, n, k, *alpha, A + b * sA, lda, B + b * sB, ldb, *beta, C + b * sC, ldc, acc, bcol);
  free(acc);
  free(bcol);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const float *alpha, const float *A, int lda, const float *B, int ldb, const float *beta,
                           float *C, int ldc) {
  return cublasSgemmStridedBatched(h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
}

/* ---- launches ------------------------------------------------------------------------------ */
enum { EMU_RUNNING, EMU_WAIT_BLOCK, EMU_WAIT_WARP, EMU_DONE };

typedef struct emu_fiber {
  ucontext_t uc;
  char *stack;
  unsigned tid;
  int state;
} emu_fiber;

typedef struct emu_sched {
  ucontext_t main;
  void (*body)(void *);
  void *ctx;
  unsigned nthreads, next; /* threads of the block; the next one to start */
  unsigned live;           /* started and not finished */
  unsigned long long block, nblocks;
  emu_fiber *cur;
  emu_fiber **pool; /* every fiber made on this OS thread */
  int npool, cap;
  emu_fiber **idle; /* parked runners, free to start threads */
  int nidle;
  emu_fiber **wait; /* fibers at a barrier, in arrival order */
  int nwait;
  emu_fiber **resume; /* released, resumed in order from resume_at */
  int nresume, resume_at;
  unsigned char *exited; /* by tid: the thread has finished */
  uint64_t *slots;       /* by tid: warp exchange values */
  unsigned char *shared; /* dynamic shared memory */
  int active;
} emu_sched;

static __thread emu_sched emu_s;

static void emu_set_thread(unsigned t) {
  threadIdx.x = t % blockDim.x;
  threadIdx.y = t / blockDim.x % blockDim.y;
  threadIdx.z = t / (blockDim.x * blockDim.y);
}

static void emu_set_block(emu_sched *s) {
  unsigned long long b = s->block;
  blockIdx.x = (unsigned)(b % gridDim.x);
  blockIdx.y = (unsigned)(b / gridDim.x % gridDim.y);
  blockIdx.z = (unsigned)(b / ((unsigned long long)gridDim.x * gridDim.y));
  s->next = 0;
  s->live = 0;
  memset(s->exited, 0, s->nthreads);
}

static int emu_block_complete(const emu_sched *s) {
  return s->next == s->nthreads && s->live == 0;
}

/* A runner: starts threads while there are any; when its block completes and nothing of it is
 * parked, starts the next block; else returns to the scheduler and parks until reused. */
static void emu_runner(void) {
  for (;;) {
    emu_sched *s = &emu_s;
    while (s->next < s->nthreads) {
      emu_fiber *f = s->cur;
      f->tid = s->next++;
      f->state = EMU_RUNNING;
      s->live++;
      emu_set_thread(f->tid);
      s->body(s->ctx);
      s = &emu_s;
      s->live--;
      s->exited[f->tid] = 1;
      if (emu_block_complete(s) && s->nwait == 0 && s->resume_at == s->nresume && s->block + 1 < s->nblocks) {
        s->block++;
        emu_set_block(s);
      }
    }
    s->cur->state = EMU_DONE;
    swapcontext(&s->cur->uc, &s->main);
  }
}

/* (Re)starts f's context at emu_runner on its own stack. */
static __attribute__((noinline)) int emu_fiber_reset(emu_fiber *f) {
  if (getcontext(&f->uc)) return -1;
  f->uc.uc_stack.ss_sp = f->stack;
  f->uc.uc_stack.ss_size = EMU_STACK;
  f->uc.uc_link = NULL;
  makecontext(&f->uc, emu_runner, 0);
  f->state = EMU_DONE;
  return 0;
}

static emu_fiber *emu_new_runner(emu_sched *s) {
  if (s->nidle > 0) return s->idle[--s->nidle];
  if (s->npool == s->cap) return NULL;
  emu_fiber *f = calloc(1, sizeof *f);
  char *stack = malloc(EMU_STACK);
  if (f) f->stack = stack;
  if (!f || !stack || emu_fiber_reset(f)) {
    free(f);
    free(stack);
    return NULL;
  }
  s->pool[s->npool++] = f;
  return f;
}

/* Switches to f until it finishes its threads or waits. */
static void emu_switch(emu_sched *s, emu_fiber *f) {
  s->cur = f;
  swapcontext(&s->main, &f->uc);
  if (f->state == EMU_DONE) s->idle[s->nidle++] = f;
}

/* Moves the waiters a barrier releases to the resume list; 0 when none can go (a deadlock). */
static int emu_release(emu_sched *s) {
  unsigned nwarps = (s->nthreads + 31) / 32;
  s->nresume = s->resume_at = 0;
  for (unsigned w = 0; w < nwarps; w++) {
    unsigned live = 0, waiting = 0;
    for (unsigned t = w * 32; t < s->nthreads && t < w * 32 + 32; t++) live += !s->exited[t];
    for (int i = 0; i < s->nwait; i++) waiting += s->wait[i]->tid / 32 == w && s->wait[i]->state == EMU_WAIT_WARP;
    if (live && waiting == live) {
      int k = 0;
      for (int i = 0; i < s->nwait; i++) {
        emu_fiber *f = s->wait[i];
        if (f->tid / 32 == w && f->state == EMU_WAIT_WARP) s->resume[s->nresume++] = f;
        else s->wait[k++] = f;
      }
      s->nwait = k;
    }
  }
  if (s->nresume) return 1;
  int blockwait = 0;
  for (int i = 0; i < s->nwait; i++) blockwait += s->wait[i]->state == EMU_WAIT_BLOCK;
  if (blockwait == 0 || (unsigned)blockwait != s->live) return 0;
  for (int i = 0; i < s->nwait; i++) s->resume[s->nresume++] = s->wait[i];
  s->nwait = 0;
  return 1;
}

static void emu_wait(int kind) {
  emu_sched *s = &emu_s;
  if (!s->active) return; /* outside a kernel: nothing to wait for */
  emu_fiber *f = s->cur;
  f->state = kind;
  s->wait[s->nwait++] = f;
  swapcontext(&f->uc, &s->main);
  s = &emu_s;
  f->state = EMU_RUNNING;
  emu_set_thread(f->tid);
}
void mc_emu_syncthreads(void) { emu_wait(EMU_WAIT_BLOCK); }
void mc_emu_syncwarp(void) { emu_wait(EMU_WAIT_WARP); }

uint64_t *mc_emu_lane_slots(void) {
  emu_sched *s = &emu_s;
  static __thread uint64_t outside;
  return s->active ? &s->slots[s->cur->tid] : &outside;
}
unsigned mc_emu_warp_live(void) {
  emu_sched *s = &emu_s;
  if (!s->active) return 1;
  unsigned w = s->cur->tid / 32 * 32, m = 0;
  for (unsigned i = 0; i < 32 && w + i < s->nthreads; i++)
    if (!s->exited[w + i]) m |= 1u << i;
  return m;
}
void *mc_emu_dyn_shared(void) { return emu_s.shared; }

/* At the exit of an OS thread that launched: its fibers and buffers go. */
static pthread_key_t emu_key;
static int emu_key_ok;
static pthread_once_t emu_key_once = PTHREAD_ONCE_INIT;
static void emu_thread_exit(void *p) {
  emu_sched *s = p;
  for (int i = 0; i < s->npool; i++) {
    free(s->pool[i]->stack);
    free(s->pool[i]);
  }
  free(s->pool), free(s->idle), free(s->wait), free(s->resume), free(s->exited), free(s->slots), free(s->shared);
  memset(s, 0, sizeof *s);
}
static void emu_key_init(void) {
  emu_key_ok = pthread_key_create(&emu_key, emu_thread_exit) == 0;
}

static int emu_setup(emu_sched *s) {
  if (s->pool) return 0;
  pthread_once(&emu_key_once, emu_key_init);
  if (emu_key_ok) pthread_setspecific(emu_key, s);
  int cap = EMU_MAX_THREADS + 1;
  s->pool = calloc((size_t)cap, sizeof *s->pool);
  s->idle = calloc((size_t)cap, sizeof *s->idle);
  s->wait = calloc((size_t)cap, sizeof *s->wait);
  s->resume = calloc((size_t)cap, sizeof *s->resume);
  s->exited = calloc(EMU_MAX_THREADS, 1);
  s->slots = calloc(EMU_MAX_THREADS, sizeof *s->slots);
  s->shared = calloc(EMU_MAX_SHARED, 1);
  if (!s->pool || !s->idle || !s->wait || !s->resume || !s->exited || !s->slots || !s->shared) {
    free(s->pool), free(s->idle), free(s->wait), free(s->resume), free(s->exited), free(s->slots), free(s->shared);
    memset(s, 0, sizeof *s);
    return -1;
  }
  s->cap = cap;
  return 0;
}

cudaError_t mc_emu_launch(mc_emu_dim3 grid, mc_emu_dim3 block, size_t shmem, cudaStream_t stream,
                          void (*body)(void *), void *ctx) {
  (void)stream;
  emu_read_env();
  emu_sched *s = &emu_s;
  unsigned long long nthreads = (unsigned long long)block.x * block.y * block.z;
  if (s->active) return emu_err(cudaErrorLaunchFailure); /* a launch from inside a kernel */
  if (!grid.x || !grid.y || !grid.z || !nthreads || nthreads > EMU_MAX_THREADS || block.z > 64 || grid.y > 65535 ||
      grid.z > 65535 || grid.x > 2147483647u)
    return emu_err(cudaErrorInvalidConfiguration);
  if (shmem > EMU_MAX_SHARED) return emu_err(cudaErrorInvalidValue);
  if (__atomic_add_fetch(&emu_nlaunch, 1, __ATOMIC_RELAXED) == emu_fail_launch) return emu_err(cudaErrorLaunchFailure);
  if (emu_setup(s)) return emu_err(cudaErrorMemoryAllocation);
  struct mc_emu_dim3 saved_bd = blockDim, saved_gd = gridDim;
  blockDim = block;
  gridDim = grid;
  s->body = body;
  s->ctx = ctx;
  s->nthreads = (unsigned)nthreads;
  s->nblocks = (unsigned long long)grid.x * grid.y * grid.z;
  s->block = 0;
  s->nwait = s->nresume = s->resume_at = 0;
  s->active = 1;
  emu_set_block(s);
  cudaError_t rc = cudaSuccess;
  for (;;) {
    if (s->resume_at < s->nresume) {
      emu_switch(s, s->resume[s->resume_at++]);
      continue;
    }
    if (s->next < s->nthreads) {
      emu_fiber *f = emu_new_runner(s);
      if (!f) {
        rc = cudaErrorLaunchOutOfResources;
        break;
      }
      emu_switch(s, f);
      continue;
    }
    if (s->nwait > 0) {
      if (!emu_release(s)) {
        rc = cudaErrorLaunchFailure; /* threads wait at barriers no one else reaches */
        break;
      }
      continue;
    }
    if (s->block + 1 >= s->nblocks) break;
    s->block++;
    emu_set_block(s);
  }
  if (rc != cudaSuccess) {
    /* abandon the parked threads: their fibers go back to the idle list, never resumed */
    for (int i = 0; i < s->nwait; i++) s->idle[s->nidle++] = s->wait[i];
    for (int i = s->resume_at; i < s->nresume; i++) s->idle[s->nidle++] = s->resume[i];
    for (int i = 0; i < s->nidle; i++) emu_fiber_reset(s->idle[i]);
    s->nwait = s->nresume = s->resume_at = 0;
  }
  s->active = 0;
  blockDim = saved_bd;
  gridDim = saved_gd;
  return emu_err(rc);
}
