/* mc_runtime_cuda.h — the runtime of models compiled with `mc compile --target cuda`
 * (library libmcrt_cuda.a, linked instead of libmcrt.a, plus -lcudart -lcublas).
 *
 * The API is runtime/mc_runtime.h's, unchanged in names and meaning; what differs:
 *  - Tensors live on the GPU that was current when NAME_create() ran. mc_get_output hands out
 *    kDLCUDA tensors (device pointers into the model's arena, weights or an input's buffer);
 *    mc_get_output_dlpack returns a compact kDLCUDA copy the caller owns (cudaFree in its
 *    deleter); mc_copy_output and mc_copy_input copy into host (kDLCPU, kDLCUDAHost) or device
 *    (kDLCUDA, kDLCUDAManaged) memory.
 *  - mc_set_input copies from host or device memory (cudaMemcpy); mc_set_input_zero_copy and
 *    mc_set_input_dlpack take device memory only (kDLCUDA or kDLCUDAManaged on the model's
 *    device), with the same borrow and ownership rules as the CPU runtime.
 *  - Work is queued on one stream (the default stream unless mc_set_stream was called) and
 *    mc_run waits for it, so every failure — a launch, cuBLAS, or an asynchronous fault — comes
 *    back from mc_run as MC_ERUN with a message in mc_last_error. Nothing aborts.
 *  - Weights are uploaded once, by NAME_create(); GEMMs run in float32 without TF32
 *    (CUBLAS_DEFAULT_MATH). NAME_create() returns NULL when there is no usable device or memory;
 *    mc_cuda_create_error() then says why.
 */
#ifndef MC_RUNTIME_CUDA_H
#define MC_RUNTIME_CUDA_H

#include "mc_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Orders the model's work after, and before, other work on `stream` (a cudaStream_t; NULL = the
 * default stream). The stream must outlive its use by the model. */
int mc_set_stream(mc_model *m, void *stream);
/* Why the last NAME_create() on this thread returned NULL ("" if it did not). */
const char *mc_cuda_create_error(void);

/* ---- for generated code only --------------------------------------------------------------- */
typedef struct mc_cuda_ctx {
  void *stream; /* cudaStream_t */
  void *blas;   /* cublasHandle_t, bound to `stream` */
  void *host;   /* def->host_bytes of pinned host memory: staging of the ops run on the host */
} mc_cuda_ctx;

typedef struct mc_cuda_def {
  const char *name;
  int num_inputs, num_outputs;
  const mc_io_desc *inputs;
  const mc_io_desc *outputs;
  size_t arena_bytes;          /* device scratch run() needs (256-byte aligned base) */
  const void *weights;         /* host image of every constant, uploaded once at create */
  size_t weights_bytes;
  /* Queues the model on ctx->stream. in[i]: device data of input i; arena and weights: device
   * memory; sets out[k] to output k's first element (device), laid out as outputs[k].strides.
   * Returns nonzero with a message in err (256 bytes) when a CUDA or cuBLAS call fails. */
  int (*run)(const mc_cuda_ctx *ctx, void *const *in, void *arena, const void *weights, void **out, char *err);
  /* Host staging run() needs for the ops that run their C kernel on the host (copies of their
   * operands; 0 = none), allocated at create (cudaMallocHost) and passed as ctx->host. */
  size_t host_bytes;
} mc_cuda_def;

mc_model *mc_cuda_model_new(const mc_cuda_def *def); /* NULL on failure: mc_cuda_create_error() */

/* A model with run-time shapes (Dims, or results sized by the data; docs/dynamic.md): def
 * describes it at the upper bounds (arena, host staging and io shapes) and its run refuses to
 * run; this run takes the bound inputs' shapes (in_desc[i].shape) and sets out_desc[k]'s shape
 * and strides to output k's of this run. Otherwise as mc_cuda_def.run. */
typedef struct mc_cuda_dyn {
  const mc_cuda_def *def;
  int num_dims;
  const mc_dim_desc *dims;
  int (*run)(const mc_cuda_ctx *ctx, const mc_io_desc *in_desc, void *const *in, void *arena, const void *weights,
             void **out, mc_io_desc *out_desc, char *err);
} mc_cuda_dyn;
mc_model *mc_cuda_model_new_dyn(const mc_cuda_dyn *dyn); /* NULL on failure: mc_cuda_create_error() */

#ifdef __cplusplus
}
#endif
#endif
