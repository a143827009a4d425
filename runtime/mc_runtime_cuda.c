/* mc_runtime_cuda.c — binds inputs, runs an mc-generated CUDA model and hands out its outputs
 * (libmcrt_cuda.a; plain C11 against the CUDA runtime and cuBLAS C APIs).
 *
 * The same design as mc_runtime.c, on device memory:
 *  - A model owns a device arena, a device copy of its weights (uploaded once in
 *    mc_cuda_model_new), a cuBLAS handle (CUBLAS_DEFAULT_MATH: float32, no TF32) and the stream
 *    it queues on. Every CUDA and cuBLAS call is checked; failures come back as error codes with
 *    a message in mc_last_error, never an abort.
 *  - Each input has one slot, the only record of its binding: an owned device copy
 *    (MC_SLOT_COPY), a borrowed device pointer (MC_SLOT_BORROW; the DLTensor itself is never
 *    kept) or an owned DLManagedTensor (MC_SLOT_DLPACK, deleter called exactly once). mc_run
 *    builds in[] from the slots at call time, so no descriptor copy can go stale (seeds/000).
 *  - Every successful mc_set_input* and every mc_run invalidates outputs (they may alias inputs);
 *    mc_get_output_dlpack copies, so no output outlives a binding (seeds/004).
 *  - A refused call changes nothing, except that mc_set_input_dlpack always takes ownership.
 *  - mc_run waits for its stream so that asynchronous faults are reported by the call that
 *    caused them.
 * Built only when the CUDA toolkit is present (Makefile: $(BUILD)/libmcrt_cuda.a). */
#include "mc_runtime_cuda.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MC_ERR_LEN 512
#define MC_DL_BOOL_CODE 6

typedef enum { MC_SLOT_UNBOUND, MC_SLOT_COPY, MC_SLOT_BORROW, MC_SLOT_DLPACK } mc_slot_kind;

typedef struct mc_slot {
  mc_slot_kind kind;
  void *data;               /* device memory run() reads and writes */
  void *copy;               /* owned device buffer of the last copying bind, or NULL */
  DLManagedTensor *managed; /* owned while kind == MC_SLOT_DLPACK */
} mc_slot;

struct mc_model {
  const mc_cuda_def *def;
  int device;
  void *arena, *weights;     /* device */
  cublasHandle_t blas;
  cudaStream_t stream;
  mc_slot *slots;
  void **in, **out;
  DLTensor *in_info, *out_info, *outputs;
  int64_t *dims;
  size_t *in_bytes;
  int outputs_valid;
  char err[MC_ERR_LEN];
};

static _Thread_local char mc_create_err[MC_ERR_LEN];
static const char mc_null_model_msg[] = "mc: NULL model";
static const char *const mc_dtype_names[] = {"float32", "float64", "float16", "bfloat16", "int64",
                                             "int32",   "int16",   "int8",    "uint8",    "bool"};
static const size_t mc_dtype_sizes[] = {4, 8, 2, 2, 8, 4, 2, 1, 1, 1};
#define MC_NUM_DTYPES ((int)(sizeof mc_dtype_sizes / sizeof mc_dtype_sizes[0]))

static DLDataType mc_dtype_to_dl(int code) {
  static const uint8_t codes[] = {kDLFloat, kDLFloat, kDLFloat, kDLBfloat, kDLInt,
                                  kDLInt,   kDLInt,   kDLInt,   kDLUInt,   kDLUInt};
  DLDataType t;
  t.code = codes[code];
  t.bits = (uint8_t)(mc_dtype_sizes[code] * 8);
  t.lanes = 1;
  return t;
}

static int mc_dtype_matches(int code, DLDataType got) {
  DLDataType want = mc_dtype_to_dl(code);
  if (got.lanes != 1 || got.bits != want.bits) return 0;
  if (code == 9) return got.code == kDLUInt || got.code == MC_DL_BOOL_CODE;
  return got.code == want.code;
}

static int mc_fail(const mc_model *cm, int code, const char *fmt, ...) {
  mc_model *m = (mc_model *)cm;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->err, sizeof m->err, fmt, ap);
  va_end(ap);
  return code;
}
static void mc_clear_error(const mc_model *cm) { ((mc_model *)cm)->err[0] = '\0'; }
static const char *mc_io_name(const mc_io_desc *d) { return d->name ? d->name : "?"; }

static int mc_cuda_fail(const mc_model *m, const char *what, cudaError_t e) {
  int code = e == cudaErrorMemoryAllocation ? MC_ENOMEM : MC_ERUN;
  return mc_fail(m, code, "%s: CUDA error: %s", what, cudaGetErrorString(e));
}

static int64_t mc_numel(int ndim, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  return n;
}

static int mc_is_compact(int ndim, const int64_t *shape, const int64_t *st) {
  int64_t want = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    if (shape[d] != 1 && st[d] != want) return 0;
    want *= shape[d];
  }
  return 1;
}

/* Where a pointer lives: 1 device memory of the model's GPU (or managed), 0 host, -1 other. */
static int mc_is_device(const DLTensor *t) { return t->device.device_type == kDLCUDA || t->device.device_type == kDLCUDAManaged; }
static int mc_is_host(const DLTensor *t) { return t->device.device_type == kDLCPU || t->device.device_type == kDLCUDAHost; }

/* Validates t against desc (as mc_runtime.c does); device_only refuses host memory. */
static int mc_check_tensor(const mc_model *m, const char *what, const char *kind, int idx, const mc_io_desc *desc,
                           const DLTensor *t, int device_only, char **data) {
  const char *nm = mc_io_name(desc);
  if (!t) return mc_fail(m, MC_EINVAL, "%s: %s %d '%s': NULL tensor", what, kind, idx, nm);
  if (!mc_is_device(t) && (device_only || !mc_is_host(t)))
    return mc_fail(m, MC_EDEVICE, "%s: %s %d '%s': device type %d is not accepted (expected kDLCUDA%s)", what, kind,
                   idx, nm, (int)t->device.device_type, device_only ? "" : " or kDLCPU");
  if (mc_is_device(t) && t->device.device_type == kDLCUDA && t->device.device_id != m->device)
    return mc_fail(m, MC_EDEVICE, "%s: %s %d '%s': on CUDA device %d, the model is on device %d", what, kind, idx, nm,
                   (int)t->device.device_id, m->device);
  if (!mc_dtype_matches(desc->dtype, t->dtype))
    return mc_fail(m, MC_EDTYPE, "%s: %s %d '%s': dtype code %u bits %u lanes %u, expected %s", what, kind, idx, nm,
                   (unsigned)t->dtype.code, (unsigned)t->dtype.bits, (unsigned)t->dtype.lanes,
                   mc_dtype_names[desc->dtype]);
  if (t->ndim != desc->ndim)
    return mc_fail(m, MC_ESHAPE, "%s: %s %d '%s': ndim %d, expected %d", what, kind, idx, nm, t->ndim, desc->ndim);
  if (t->ndim > 0 && !t->shape) return mc_fail(m, MC_EINVAL, "%s: %s %d '%s': NULL shape", what, kind, idx, nm);
  for (int d = 0; d < t->ndim; d++)
    if (t->shape[d] != desc->shape[d])
      return mc_fail(m, MC_ESHAPE, "%s: %s %d '%s': extent %lld in dim %d, expected %lld", what, kind, idx, nm,
                     (long long)t->shape[d], d, (long long)desc->shape[d]);
  int64_t numel = mc_numel(desc->ndim, desc->shape);
  if (t->strides && numel > 0 && !mc_is_compact(t->ndim, t->shape, t->strides))
    return mc_fail(m, MC_ESTRIDE, "%s: %s %d '%s': strides are not compact row-major", what, kind, idx, nm);
  if (numel > 0 && !t->data) return mc_fail(m, MC_EINVAL, "%s: %s %d '%s': NULL data", what, kind, idx, nm);
  uintptr_t base = (uintptr_t)t->data;
  if (t->byte_offset > UINTPTR_MAX - base)
    return mc_fail(m, MC_EINVAL, "%s: %s %d '%s': byte_offset overflows the address space", what, kind, idx, nm);
  if (numel > 0 && (base + (uintptr_t)t->byte_offset) % mc_dtype_sizes[desc->dtype] != 0)
    return mc_fail(m, MC_EINVAL, "%s: %s %d '%s': data + byte_offset is not aligned to the element size", what, kind,
                   idx, nm);
  *data = t->data ? (char *)t->data + t->byte_offset : NULL;
  return MC_OK;
}

static int mc_check_index(const mc_model *m, const char *what, const char *kind, int i, int n) {
  if (i < 0 || i >= n)
    return mc_fail(m, MC_EINVAL, "%s: %s index %d out of range (model '%s' has %d)", what, kind, i,
                   m->def->name ? m->def->name : "?", n);
  return MC_OK;
}

static void mc_release_binding(mc_slot *s) {
  if (s->kind == MC_SLOT_DLPACK && s->managed) {
    DLManagedTensor *t = s->managed;
    s->managed = NULL;
    if (t->deleter) t->deleter(t);
  }
  s->kind = MC_SLOT_UNBOUND;
  s->data = NULL;
}

static void mc_fill_info(DLTensor *t, const mc_io_desc *d, int64_t *shape, int device) {
  memset(t, 0, sizeof *t);
  t->device.device_type = kDLCUDA;
  t->device.device_id = device;
  t->ndim = d->ndim;
  t->dtype = mc_dtype_to_dl(d->dtype);
  memcpy(shape, d->shape, sizeof d->shape);
  t->shape = shape;
}

const char *mc_cuda_create_error(void) { return mc_create_err; }

static mc_model *mc_create_fail(mc_model *m, const char *what, const char *why) {
  snprintf(mc_create_err, sizeof mc_create_err, "%s_create: %s: %s", m && m->def && m->def->name ? m->def->name : "mc",
           what, why);
  mc_model_destroy(m);
  return NULL;
}

mc_model *mc_cuda_model_new(const mc_cuda_def *def) {
  mc_create_err[0] = '\0';
  if (!def || !def->run || def->num_inputs < 0 || def->num_outputs < 0 || (def->num_inputs && !def->inputs) ||
      (def->num_outputs && !def->outputs) || (def->weights_bytes && !def->weights)) {
    snprintf(mc_create_err, sizeof mc_create_err, "mc_cuda_model_new: malformed model description");
    return NULL;
  }
  for (int k = 0; k < def->num_inputs + def->num_outputs; k++) {
    const mc_io_desc *d = k < def->num_inputs ? &def->inputs[k] : &def->outputs[k - def->num_inputs];
    if (d->dtype < 0 || d->dtype >= MC_NUM_DTYPES || d->ndim < 0 || d->ndim > MC_MAX_DIMS) {
      snprintf(mc_create_err, sizeof mc_create_err, "mc_cuda_model_new: malformed model description");
      return NULL;
    }
  }
  int ni = def->num_inputs, no = def->num_outputs;
  size_t ci = ni ? (size_t)ni : 1, co = no ? (size_t)no : 1;
  mc_model *m = calloc(1, sizeof *m);
  if (!m) return mc_create_fail(NULL, "host memory", "out of memory");
  m->def = def;
  m->slots = calloc(ci, sizeof *m->slots);
  m->in = calloc(ci, sizeof *m->in);
  m->in_bytes = calloc(ci, sizeof *m->in_bytes);
  m->in_info = calloc(ci, sizeof *m->in_info);
  m->out = calloc(co, sizeof *m->out);
  m->out_info = calloc(co, sizeof *m->out_info);
  m->outputs = calloc(co, sizeof *m->outputs);
  m->dims = calloc((size_t)(ni + 2 * no) + 1, MC_MAX_DIMS * sizeof *m->dims);
  if (!m->slots || !m->in || !m->in_bytes || !m->in_info || !m->out || !m->out_info || !m->outputs || !m->dims)
    return mc_create_fail(m, "host memory", "out of memory");
  cudaError_t e = cudaGetDevice(&m->device);
  if (e != cudaSuccess) return mc_create_fail(m, "cudaGetDevice", cudaGetErrorString(e));
  if ((e = cudaMalloc(&m->arena, def->arena_bytes ? def->arena_bytes : 256)) != cudaSuccess)
    return mc_create_fail(m, "cudaMalloc (arena)", cudaGetErrorString(e));
  if ((e = cudaMalloc(&m->weights, def->weights_bytes ? def->weights_bytes : 256)) != cudaSuccess)
    return mc_create_fail(m, "cudaMalloc (weights)", cudaGetErrorString(e));
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
  int64_t *dims = m->dims;
  for (int i = 0; i < ni; i++, dims += MC_MAX_DIMS) {
    const mc_io_desc *d = &def->inputs[i];
    mc_fill_info(&m->in_info[i], d, dims, m->device);
    m->in_bytes[i] = (size_t)mc_numel(d->ndim, d->shape) * mc_dtype_sizes[d->dtype];
  }
  for (int k = 0; k < no; k++, dims += 2 * MC_MAX_DIMS) {
    const mc_io_desc *d = &def->outputs[k];
    mc_fill_info(&m->out_info[k], d, dims, m->device);
    m->outputs[k] = m->out_info[k];
    memcpy(dims + MC_MAX_DIMS, d->strides, sizeof d->strides);
    m->outputs[k].strides = dims + MC_MAX_DIMS;
  }
  return m;
}

void mc_model_destroy(mc_model *m) {
  if (!m) return;
  if (m->slots) {
    for (int i = 0; i < m->def->num_inputs; i++) {
      mc_release_binding(&m->slots[i]);
      if (m->slots[i].copy) cudaFree(m->slots[i].copy);
    }
  }
  if (m->blas) cublasDestroy(m->blas);
  if (m->arena) cudaFree(m->arena);
  if (m->weights) cudaFree(m->weights);
  free(m->slots);
  free(m->in);
  free(m->in_bytes);
  free(m->in_info);
  free(m->out);
  free(m->out_info);
  free(m->outputs);
  free(m->dims);
  free(m);
}

int mc_set_stream(mc_model *m, void *stream) {
  if (!m) return MC_EINVAL;
  cublasStatus_t bs = cublasSetStream(m->blas, (cudaStream_t)stream);
  if (bs != CUBLAS_STATUS_SUCCESS) return mc_fail(m, MC_ERUN, "mc_set_stream: %s", cublasGetStatusString(bs));
  m->stream = (cudaStream_t)stream;
  mc_clear_error(m);
  return MC_OK;
}

int mc_num_inputs(const mc_model *m) { return m ? m->def->num_inputs : MC_EINVAL; }
int mc_num_outputs(const mc_model *m) { return m ? m->def->num_outputs : MC_EINVAL; }

const DLTensor *mc_input_info(const mc_model *m, int i) {
  if (!m || mc_check_index(m, "mc_input_info", "input", i, m->def->num_inputs)) return NULL;
  mc_clear_error(m);
  return &m->in_info[i];
}
const DLTensor *mc_output_info(const mc_model *m, int i) {
  if (!m || mc_check_index(m, "mc_output_info", "output", i, m->def->num_outputs)) return NULL;
  mc_clear_error(m);
  return &m->out_info[i];
}
const char *mc_input_name(const mc_model *m, int i) {
  if (!m || mc_check_index(m, "mc_input_name", "input", i, m->def->num_inputs)) return NULL;
  mc_clear_error(m);
  return m->def->inputs[i].name;
}
int mc_input_is_mutated(const mc_model *m, int i) {
  if (!m) return MC_EINVAL;
  int rc = mc_check_index(m, "mc_input_is_mutated", "input", i, m->def->num_inputs);
  if (rc) return rc;
  mc_clear_error(m);
  return m->def->inputs[i].mutated ? 1 : 0;
}
const char *mc_last_error(const mc_model *m) { return m ? m->err : mc_null_model_msg; }

static int mc_check_input(mc_model *m, const char *what, int i, const DLTensor *t, int device_only, char **data) {
  int rc = mc_check_index(m, what, "input", i, m->def->num_inputs);
  if (rc) return rc;
  return mc_check_tensor(m, what, "input", i, &m->def->inputs[i], t, device_only, data);
}

int mc_set_input(mc_model *m, int i, const DLTensor *src) {
  if (!m) return MC_EINVAL;
  char *data;
  int rc = mc_check_input(m, "mc_set_input", i, src, 0, &data);
  if (rc) return rc;
  mc_slot *s = &m->slots[i];
  cudaError_t e;
  if (!s->copy && (e = cudaMalloc(&s->copy, m->in_bytes[i] ? m->in_bytes[i] : 256)) != cudaSuccess) {
    s->copy = NULL;
    return mc_cuda_fail(m, "mc_set_input", e);
  }
  if (m->in_bytes[i] && (e = cudaMemcpy(s->copy, data, m->in_bytes[i], cudaMemcpyDefault)) != cudaSuccess)
    return mc_cuda_fail(m, "mc_set_input", e);
  if (s->kind != MC_SLOT_COPY) mc_release_binding(s);
  s->kind = MC_SLOT_COPY;
  s->data = s->copy;
  m->outputs_valid = 0;
  mc_clear_error(m);
  return MC_OK;
}

static void mc_bind_external(mc_model *m, int i, mc_slot_kind kind, char *data, DLManagedTensor *managed) {
  mc_slot *s = &m->slots[i];
  mc_release_binding(s);
  if (s->copy) cudaFree(s->copy);
  s->copy = NULL;
  s->kind = kind;
  s->data = data;
  s->managed = managed;
  m->outputs_valid = 0;
  mc_clear_error(m);
}

int mc_set_input_zero_copy(mc_model *m, int i, DLTensor *ext) {
  if (!m) return MC_EINVAL;
  char *data;
  int rc = mc_check_input(m, "mc_set_input_zero_copy", i, ext, 1, &data);
  if (rc) return rc;
  mc_bind_external(m, i, MC_SLOT_BORROW, data, NULL);
  return MC_OK;
}

int mc_set_input_dlpack(mc_model *m, int i, DLManagedTensor *t) {
  if (!t) return m ? mc_fail(m, MC_EINVAL, "mc_set_input_dlpack: input %d: NULL tensor", i) : MC_EINVAL;
  char *data = NULL;
  int rc = m ? mc_check_input(m, "mc_set_input_dlpack", i, &t->dl_tensor, 1, &data) : MC_EINVAL;
  if (rc) {
    if (t->deleter) t->deleter(t);
    return rc;
  }
  for (int j = 0; j < m->def->num_inputs; j++)
    if (j != i && m->slots[j].kind == MC_SLOT_DLPACK && m->slots[j].managed == t)
      return mc_fail(m, MC_EINVAL, "mc_set_input_dlpack: input %d: tensor is already bound to input %d", i, j);
  if (m->slots[i].kind == MC_SLOT_DLPACK && m->slots[i].managed == t) {
    m->slots[i].data = data;
    m->outputs_valid = 0;
    mc_clear_error(m);
    return MC_OK;
  }
  mc_bind_external(m, i, MC_SLOT_DLPACK, data, t);
  return MC_OK;
}

int mc_copy_input(const mc_model *m, int i, DLTensor *dst) {
  if (!m) return MC_EINVAL;
  char *data;
  int rc = mc_check_index(m, "mc_copy_input", "input", i, m->def->num_inputs);
  if (rc) return rc;
  if (m->slots[i].kind == MC_SLOT_UNBOUND)
    return mc_fail(m, MC_EUNBOUND, "mc_copy_input: input %d '%s' was never set", i, mc_io_name(&m->def->inputs[i]));
  rc = mc_check_tensor(m, "mc_copy_input", "input", i, &m->def->inputs[i], dst, 0, &data);
  if (rc) return rc;
  cudaError_t e;
  if (m->in_bytes[i] && (e = cudaMemcpy(data, m->slots[i].data, m->in_bytes[i], cudaMemcpyDefault)) != cudaSuccess)
    return mc_cuda_fail(m, "mc_copy_input", e);
  mc_clear_error(m);
  return MC_OK;
}

int mc_run(mc_model *m) {
  if (!m) return MC_EINVAL;
  const mc_cuda_def *def = m->def;
  m->outputs_valid = 0;
  for (int i = 0; i < def->num_inputs; i++) {
    if (m->slots[i].kind == MC_SLOT_UNBOUND)
      return mc_fail(m, MC_EUNBOUND, "mc_run: input %d '%s' was never set", i, mc_io_name(&def->inputs[i]));
    m->in[i] = m->slots[i].data;
  }
  for (int k = 0; k < def->num_outputs; k++) m->out[k] = NULL;
  cudaError_t e = cudaSetDevice(m->device);
  if (e != cudaSuccess) return mc_cuda_fail(m, "mc_run", e);
  mc_cuda_ctx ctx = {(void *)m->stream, (void *)m->blas};
  char err[256] = {0};
  int rc = def->run(&ctx, m->in, m->arena, m->weights, m->out, err);
  e = cudaStreamSynchronize(m->stream);
  if (rc != 0) {
    err[sizeof err - 1] = '\0';
    return mc_fail(m, MC_ERUN, "mc_run: model '%s': %s", def->name ? def->name : "?",
                   err[0] ? err : "run failed without a message");
  }
  if (e != cudaSuccess) return mc_cuda_fail(m, "mc_run", e);
  for (int k = 0; k < def->num_outputs; k++) {
    const mc_io_desc *d = &def->outputs[k];
    if (!m->out[k] && mc_numel(d->ndim, d->shape) > 0)
      return mc_fail(m, MC_ERUN, "mc_run: model '%s': output %d was not produced", def->name ? def->name : "?", k);
    m->outputs[k].data = m->out[k];
  }
  m->outputs_valid = 1;
  mc_clear_error(m);
  return MC_OK;
}

static int mc_check_output(const mc_model *m, const char *what, int i) {
  int rc = mc_check_index(m, what, "output", i, m->def->num_outputs);
  if (rc) return rc;
  if (!m->outputs_valid)
    return mc_fail(m, MC_EINVAL, "%s: output %d: no outputs (no successful mc_run since the last mc_set_input*)",
                   what, i);
  return MC_OK;
}

const DLTensor *mc_get_output(const mc_model *m, int i) {
  if (!m || mc_check_output(m, "mc_get_output", i)) return NULL;
  mc_clear_error(m);
  return &m->outputs[i];
}

/* Copies output i, compact, to dst (host or device: cudaMemcpyDefault). A strided output is
 * gathered through host memory: its byte span comes over once, then it is packed. */
static int mc_gather_output(const mc_model *m, const char *what, int i, char *dst) {
  const mc_io_desc *d = &m->def->outputs[i];
  size_t es = mc_dtype_sizes[d->dtype];
  int64_t numel = mc_numel(d->ndim, d->shape);
  size_t bytes = (size_t)numel * es;
  const char *src = m->outputs[i].data;
  cudaError_t e;
  if (!bytes) return MC_OK;
  if (mc_is_compact(d->ndim, d->shape, d->strides)) {
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
    return mc_fail(m, MC_ENOMEM, "%s: output %d: out of memory", what, i);
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
  int rc = mc_check_output(m, "mc_copy_output", i);
  if (rc) return rc;
  rc = mc_check_tensor(m, "mc_copy_output", "output", i, &m->def->outputs[i], dst, 0, &data);
  if (rc) return rc;
  if ((rc = mc_gather_output(m, "mc_copy_output", i, data))) return rc;
  mc_clear_error(m);
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
  if (!m || mc_check_output(m, "mc_get_output_dlpack", i)) return NULL;
  const mc_io_desc *d = &m->def->outputs[i];
  size_t bytes = (size_t)mc_numel(d->ndim, d->shape) * mc_dtype_sizes[d->dtype];
  mc_dl_block *b = calloc(1, sizeof *b);
  void *data = NULL;
  cudaError_t e;
  if (!b) {
    mc_fail(m, MC_ENOMEM, "mc_get_output_dlpack: output %d: out of memory", i);
    return NULL;
  }
  if ((e = cudaMalloc(&data, bytes ? bytes : 256)) != cudaSuccess) {
    free(b);
    mc_cuda_fail(m, "mc_get_output_dlpack", e);
    return NULL;
  }
  b->t.dl_tensor = m->out_info[i];
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
  mc_clear_error(m);
  return &b->t;
}
