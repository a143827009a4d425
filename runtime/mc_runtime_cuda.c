/* mc_runtime_cuda.c — the CUDA runtime (libmcrt_cuda.a; plain C against the CUDA runtime and
 * cuBLAS C APIs): creates, runs and destroys an mc-generated CUDA model and copies its outputs.
 * Binding, validation and introspection are runtime/mc_core.c's, shared with the CPU runtime
 * (mc_core.h states the invariants); this file is the device half:
 *  - A model owns a device arena, a device copy of its weights (uploaded once in
 *    mc_cuda_model_new), a cuBLAS handle (CUBLAS_DEFAULT_MATH: float32, no TF32) and the stream
 *    it queues on. Every CUDA and cuBLAS call is checked; failures come back as error codes with
 *    a message in mc_last_error, never an abort.
 *  - Its mc_device: copies from host or device memory (cudaMemcpyDefault) into owned device
 *    buffers (cudaMalloc); zero-copy and DLPack bindings take device memory only (kDLCUDA on the
 *    model's device, or kDLCUDAManaged); every tensor must be element-aligned.
 *  - mc_run waits for its stream so that asynchronous faults are reported by the call that
 *    caused them.
 * Built only when the CUDA toolkit is present (Makefile: $(BUILD)/libmcrt_cuda.a). */
#include "mc_runtime_cuda.h"

#include "mc_core.h"

#ifdef MC_CUDA_EMULATE /* libmcrt_cuda_emu.a: the CPU emulation (mc_cuda_emu.h) */
#include "mc_cuda_emu.h"
#else
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mc_model {
  mc_core core; /* first: MCC(m) */
  const mc_cuda_def *def;
  const mc_cuda_dyn *dyn; /* run-time shapes (mc_cuda_model_new_dyn), else NULL */
  int device;
  void *arena, *weights; /* device */
  void *host;            /* pinned host staging (def->host_bytes) */
  cublasHandle_t blas;
  cudaStream_t stream;
};

static _Thread_local char mc_create_err[MC_ERR_LEN];

static int mc_cuda_fail(const mc_model *m, const char *what, cudaError_t e) {
  int code = e == cudaErrorMemoryAllocation ? MC_ENOMEM : MC_ERUN;
  return mcc_fail(m, code, "%s: CUDA error: %s", what, cudaGetErrorString(e));
}

/* ---- the device interface of mc_core ------------------------------------------------------- */

static int mc_is_device(const DLTensor *t) {
  return t->device.device_type == kDLCUDA || t->device.device_type == kDLCUDAManaged;
}
static int mc_is_host(const DLTensor *t) {
  return t->device.device_type == kDLCPU || t->device.device_type == kDLCUDAHost;
}

static int mc_cuda_check_device(const mc_model *m, const char *what, const char *kind, int idx,
                                const char *nm, const DLTensor *t, int external) {
  if (!mc_is_device(t) && (external || !mc_is_host(t)))
    return mcc_fail(m, MC_EDEVICE, "%s: %s %d '%s': device type %d is not accepted (expected kDLCUDA%s)", what,
                    kind, idx, nm, (int)t->device.device_type, external ? "" : " or kDLCPU");
  if (t->device.device_type == kDLCUDA && t->device.device_id != m->device)
    return mcc_fail(m, MC_EDEVICE, "%s: %s %d '%s': on CUDA device %d, the model is on device %d", what, kind, idx,
                    nm, (int)t->device.device_id, m->device);
  return MC_OK;
}

static int mc_cuda_alloc(mc_model *m, const char *what, int i, size_t bytes, void **p) {
  (void)i;
  cudaError_t e = cudaMalloc(p, bytes ? bytes : 256);
  if (e == cudaSuccess) return MC_OK;
  *p = NULL;
  return mc_cuda_fail(m, what, e);
}

static void mc_cuda_free(void *p) { cudaFree(p); }

static int mc_cuda_copy(const mc_model *m, const char *what, void *dst, const void *src, size_t n) {
  cudaError_t e = cudaMemcpy(dst, src, n, cudaMemcpyDefault);
  return e == cudaSuccess ? MC_OK : mc_cuda_fail(m, what, e);
}

static const mc_device mc_cuda = {kDLCUDA, 1, mc_cuda_check_device, mc_cuda_alloc, mc_cuda_free, mc_cuda_copy};

/* ---- model lifetime ------------------------------------------------------------------------ */

const char *mc_cuda_create_error(void) { return mc_create_err; }

static mc_model *mc_create_fail(mc_model *m, const char *what, const char *why) {
  snprintf(mc_create_err, sizeof mc_create_err, "%s_create: %s: %s", m && m->def && m->def->name ? m->def->name : "mc",
           what, why);
  mc_model_destroy(m);
  return NULL;
}

mc_model *mc_cuda_model_new(const mc_cuda_def *def) {
  mc_create_err[0] = '\0';
  if (!def || !def->run || (def->weights_bytes && !def->weights) ||
      !mcc_def_ok(def->num_inputs, def->num_outputs, def->inputs, def->outputs)) {
    snprintf(mc_create_err, sizeof mc_create_err, "mc_cuda_model_new: malformed model description");
    return NULL;
  }
  mc_model *m = calloc(1, sizeof *m);
  if (!m) return mc_create_fail(NULL, "host memory", "out of memory");
  m->def = def;
  cudaError_t e = cudaGetDevice(&m->device);
  if (e != cudaSuccess) return mc_create_fail(m, "cudaGetDevice", cudaGetErrorString(e));
  if (mcc_init(&m->core, &mc_cuda, def->name, def->num_inputs, def->num_outputs, def->inputs, def->outputs,
               m->device))
    return mc_create_fail(m, "host memory", "out of memory");
  if ((e = cudaMalloc(&m->arena, def->arena_bytes ? def->arena_bytes : 256)) != cudaSuccess)
    return mc_create_fail(m, "cudaMalloc (arena)", cudaGetErrorString(e));
  if ((e = cudaMalloc(&m->weights, def->weights_bytes ? def->weights_bytes : 256)) != cudaSuccess)
    return mc_create_fail(m, "cudaMalloc (weights)", cudaGetErrorString(e));
  if (def->host_bytes && (e = cudaMallocHost(&m->host, def->host_bytes)) != cudaSuccess) {
    m->host = NULL;
    return mc_create_fail(m, "cudaMallocHost (host staging)", cudaGetErrorString(e));
  }
  if (def->weights_bytes &&
      (e = cudaMemcpy(m->weights, def->weights, def->weights_bytes, cudaMemcpyHostToDevice)) != cudaSuccess)
    return mc_create_fail(m, "uploading the weights", cudaGetErrorString(e));
  cublasStatus_t bs = cublasCreate(&m->blas);
  if (bs != CUBLAS_STATUS_SUCCESS) {
    m->blas = NULL;
    return mc_create_fail(m, "cublasCreate", cublasGetStatusString(bs));
  }
  if ((bs = cublasSetMathMode(m->blas, CUBLAS_DEFAULT_MATH)) != CUBLAS_STATUS_SUCCESS ||
      (bs = cublasSetStream(m->blas, NULL)) != CUBLAS_STATUS_SUCCESS)
    return mc_create_fail(m, "cuBLAS setup", cublasGetStatusString(bs));
  return m;
}

mc_model *mc_cuda_model_new_dyn(const mc_cuda_dyn *dyn) {
  if (!dyn || !dyn->def || !dyn->run || !dyn->def->inputs ||
      !mcc_dims_ok(dyn->def->num_inputs, dyn->def->inputs, dyn->num_dims, dyn->dims)) {
    mc_create_err[0] = '\0';
    snprintf(mc_create_err, sizeof mc_create_err, "mc_cuda_model_new_dyn: malformed model description");
    return NULL;
  }
  mc_model *m = mc_cuda_model_new(dyn->def);
  if (!m) return NULL;
  m->dyn = dyn;
  if (mcc_make_dynamic(&m->core, dyn->num_dims, dyn->dims, NULL, NULL))
    return mc_create_fail(m, "host memory", "out of memory");
  return m;
}

void mc_model_destroy(mc_model *m) {
  if (!m) return;
  if (m->core.dev) mcc_fini(&m->core);
  if (m->blas) cublasDestroy(m->blas);
  if (m->arena) cudaFree(m->arena);
  if (m->weights) cudaFree(m->weights);
  if (m->host) cudaFreeHost(m->host);
  free(m);
}

int mc_set_stream(mc_model *m, void *stream) {
  if (!m) return MC_EINVAL;
  cublasStatus_t bs = cublasSetStream(m->blas, (cudaStream_t)stream);
  if (bs != CUBLAS_STATUS_SUCCESS) return mcc_fail(m, MC_ERUN, "mc_set_stream: %s", cublasGetStatusString(bs));
  m->stream = (cudaStream_t)stream;
  mcc_clear_error(m);
  return MC_OK;
}

/* ---- running ------------------------------------------------------------------------------- */

int mc_run(mc_model *m) {
  if (!m) return MC_EINVAL;
  int rc = mcc_run_begin(m);
  if (rc) return rc;
  cudaError_t e = cudaSetDevice(m->device);
  if (e != cudaSuccess) return mc_cuda_fail(m, "mc_run", e);
  mc_cuda_ctx ctx = {(void *)m->stream, (void *)m->blas, m->host};
  char err[256] = {0};
  if (m->dyn)
    rc = m->dyn->run(&ctx, m->core.cur_in, m->core.in, m->arena, m->weights, m->core.out, m->core.cur_out, err);
  else
    rc = m->def->run(&ctx, m->core.in, m->arena, m->weights, m->core.out, err);
  e = cudaStreamSynchronize(m->stream);
  if (rc == 0 && e != cudaSuccess) return mc_cuda_fail(m, "mc_run", e);
  return mcc_run_end(m, rc, err);
}

/* ---- outputs ------------------------------------------------------------------------------- */

/* Copies output i, compact, to dst (host or device: cudaMemcpyDefault). A strided output is
 * gathered through host memory: its byte span comes over once, then it is packed. */
static int mc_gather_output(const mc_model *m, const char *what, int i, char *dst) {
  const mc_io_desc *d = &m->core.outputs[i];
  size_t es = mcc_dtype_sizes[d->dtype];
  int64_t numel = mcc_numel(d->ndim, d->shape);
  size_t bytes = (size_t)numel * es;
  const char *src = m->core.results[i].data;
  cudaError_t e;
  if (!bytes) return MC_OK;
  if (mcc_is_compact(d->ndim, d->shape, d->strides)) {
    if ((e = cudaMemcpy(dst, src, bytes, cudaMemcpyDefault)) != cudaSuccess) return mc_cuda_fail(m, what, e);
    return MC_OK;
  }
  int64_t lo = 0, hi = 0;
  for (int k = 0; k < d->ndim; k++) {
    int64_t ext = (d->shape[k] - 1) * d->strides[k];
    if (ext < 0) lo += ext;
    else hi += ext;
  }
  size_t span = (size_t)(hi - lo + 1) * es;
  char *host = malloc(span), *packed = malloc(bytes);
  if (!host || !packed) {
    free(host);
    free(packed);
    return mcc_fail(m, MC_ENOMEM, "%s: output %d: out of memory", what, i);
  }
  if ((e = cudaMemcpy(host, src + lo * (int64_t)es, span, cudaMemcpyDefault)) != cudaSuccess) {
    free(host);
    free(packed);
    return mc_cuda_fail(m, what, e);
  }
  int64_t idx[MC_MAX_DIMS] = {0};
  for (int64_t n = 0; n < numel; n++) {
    int64_t off = -lo;
    for (int k = 0; k < d->ndim; k++) off += idx[k] * d->strides[k];
    memcpy(packed + n * (int64_t)es, host + off * (int64_t)es, es);
    for (int k = d->ndim - 1; k >= 0; k--) {
      if (++idx[k] < d->shape[k]) break;
      idx[k] = 0;
    }
  }
  e = cudaMemcpy(dst, packed, bytes, cudaMemcpyDefault);
  free(host);
  free(packed);
  return e == cudaSuccess ? MC_OK : mc_cuda_fail(m, what, e);
}

int mc_copy_output(const mc_model *m, int i, DLTensor *dst) {
  if (!m) return MC_EINVAL;
  char *data;
  int rc = mcc_check_output(m, "mc_copy_output", i);
  if (rc) return rc;
  rc = mcc_check_tensor(m, "mc_copy_output", "output", i, &m->core.outputs[i], dst, 0, &data);
  if (rc) return rc;
  if ((rc = mc_gather_output(m, "mc_copy_output", i, data))) return rc;
  mcc_clear_error(m);
  return MC_OK;
}

typedef struct mc_dl_block {
  DLManagedTensor t;
  int64_t shape[MC_MAX_DIMS], strides[MC_MAX_DIMS];
} mc_dl_block;

static void mc_dlpack_free(DLManagedTensor *self) {
  if (self->dl_tensor.data) cudaFree(self->dl_tensor.data);
  free(self);
}

DLManagedTensor *mc_get_output_dlpack(mc_model *m, int i) {
  if (!m || mcc_check_output(m, "mc_get_output_dlpack", i)) return NULL;
  const mc_io_desc *d = &m->core.outputs[i];
  size_t bytes = (size_t)mcc_numel(d->ndim, d->shape) * mcc_dtype_sizes[d->dtype];
  mc_dl_block *b = calloc(1, sizeof *b);
  void *data = NULL;
  cudaError_t e;
  if (!b) {
    mcc_fail(m, MC_ENOMEM, "mc_get_output_dlpack: output %d: out of memory", i);
    return NULL;
  }
  if ((e = cudaMalloc(&data, bytes ? bytes : 256)) != cudaSuccess) {
    free(b);
    mc_cuda_fail(m, "mc_get_output_dlpack", e);
    return NULL;
  }
  b->t.dl_tensor = m->core.out_info[i];
  memcpy(b->shape, d->shape, sizeof d->shape);
  int64_t st = 1;
  for (int k = d->ndim - 1; k >= 0; k--) {
    b->strides[k] = st;
    st *= d->shape[k];
  }
  b->t.dl_tensor.shape = b->shape;
  b->t.dl_tensor.strides = b->strides;
  b->t.dl_tensor.data = data;
  b->t.deleter = mc_dlpack_free;
  if (mc_gather_output(m, "mc_get_output_dlpack", i, data)) {
    mc_dlpack_free(&b->t);
    return NULL;
  }
  mcc_clear_error(m);
  return &b->t;
}
