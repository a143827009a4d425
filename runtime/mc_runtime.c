/* mc_runtime.c — binds inputs, runs an mc-generated model and hands out its outputs.
 *
 * A model is its def (static, owned by the generated code), a 64-byte aligned arena, one slot per
 * input and a table of output descriptors. Invariants:
 *  - Each input has exactly one slot, and the slot is the only record of the current binding:
 *    an owned compact copy (MC_SLOT_COPY), a borrowed caller pointer (MC_SLOT_BORROW, the caller's
 *    data + byte_offset; the DLTensor itself is never kept) or an owned DLManagedTensor
 *    (MC_SLOT_DLPACK). mc_run builds the in[] array from the slots at call time, so no copy of a
 *    descriptor can go stale (seeds/000).
 *  - Rebinding an input releases the previous binding only after the new one is complete: a
 *    borrowed pointer is forgotten (never read or written again), a DLPack tensor's deleter is
 *    called exactly once, an owned copy buffer is kept for the next copying bind of that slot
 *    and freed when the slot is bound otherwise or the model destroyed.
 *  - Outputs handed out by mc_get_output may point into input buffers or the arena, so every
 *    successful mc_set_input* (and every mc_run, failed or not) invalidates them. No output
 *    handed out by the runtime outlives a binding: mc_get_output's tensors die with the binding
 *    and mc_get_output_dlpack copies, so a DLPack input's deleter may run as soon as its input is
 *    replaced (seeds/004).
 *  - A refused call changes nothing and writes nothing, except that mc_set_input_dlpack always
 *    takes ownership: a refused tensor's deleter is called once before the call returns.
 *  - Accepted tensors: device kDLCPU, kDLCUDAHost or kDLROCMHost (host memory the CPU can
 *    address); the exact dtype of the input with lanes 1 (a bool input also accepts uint8, the
 *    way PyTorch 1.13 exports bool, and DLPack >= 0.8's kDLBool); the exact ndim and extents;
 *    strides NULL or compact row-major (dims of extent 1 may carry any stride; a tensor with no
 *    element may carry any strides); zero-copy and DLPack data aligned to the element size.
 *  - A model is used by one thread at a time.
 */
#include "mc_runtime.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MC_ERR_LEN 512
#define MC_ALIGN 64
#define MC_DL_BOOL_CODE 6 /* kDLBool in DLPack >= 0.8; absent from older headers */

typedef enum { MC_SLOT_UNBOUND, MC_SLOT_COPY, MC_SLOT_BORROW, MC_SLOT_DLPACK } mc_slot_kind;

typedef struct mc_slot {
  mc_slot_kind kind;
  void *data;               /* what run() reads and writes: copy, borrowed or DLPack memory */
  void *copy;               /* owned compact buffer of the last copying bind, or NULL */
  DLManagedTensor *managed; /* owned while kind == MC_SLOT_DLPACK */
} mc_slot;

struct mc_model {
  const mc_model_def *def;
  void *arena;
  mc_slot *slots;       /* num_inputs */
  void **in;            /* num_inputs, filled from slots by mc_run */
  void **out;           /* num_outputs, filled by run() */
  DLTensor *in_info;    /* num_inputs, data NULL, strides NULL */
  DLTensor *out_info;   /* num_outputs, data NULL, strides NULL */
  DLTensor *outputs;    /* num_outputs, valid while outputs_valid */
  int64_t *dims;        /* shapes of in_info, out_info and outputs' strides, MC_MAX_DIMS each */
  size_t *in_bytes;     /* compact size of each input */
  int outputs_valid;
  int nthreads;         /* mc_set_num_threads; 0: never set (1) */
  char err[MC_ERR_LEN];
};

static const char mc_null_model_msg[] = "mc: NULL model";

/* ---- dtypes -------------------------------------------------------------------------------- */

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
#if DLPACK_VERSION >= 80
  if (code == 9) t.code = MC_DL_BOOL_CODE;
#endif
  return t;
}

static int mc_dtype_matches(int code, DLDataType got) {
  DLDataType want = mc_dtype_to_dl(code);
  if (got.lanes != 1 || got.bits != want.bits) return 0;
  if (code == 9) return got.code == kDLUInt || got.code == MC_DL_BOOL_CODE;
  return got.code == want.code;
}

static void mc_dtype_str(DLDataType t, char *buf, size_t n) {
  static const char *const kinds[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  if (t.code < sizeof kinds / sizeof kinds[0])
    snprintf(buf, n, "%s%u", kinds[t.code], (unsigned)t.bits);
  else
    snprintf(buf, n, "code %u bits %u", (unsigned)t.code, (unsigned)t.bits);
  if (t.lanes != 1) {
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "x%u", (unsigned)t.lanes);
  }
}

/* ---- errors -------------------------------------------------------------------------------- */

static int mc_fail(const mc_model *cm, int code, const char *fmt, ...) {
  mc_model *m = (mc_model *)cm; /* every model is allocated writable by mc_model_new */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->err, sizeof m->err, fmt, ap);
  va_end(ap);
  return code;
}

static void mc_clear_error(const mc_model *cm) { ((mc_model *)cm)->err[0] = '\0'; }

static const char *mc_io_name(const mc_io_desc *d) { return d->name ? d->name : "?"; }

/* ---- sizes and layouts --------------------------------------------------------------------- */

static int64_t mc_numel(int ndim, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  return n;
}

static void *mc_aligned_alloc(size_t bytes) {
  size_t n = bytes ? bytes : 1;
  n = (n + MC_ALIGN - 1) / MC_ALIGN * MC_ALIGN;
  return aligned_alloc(MC_ALIGN, n);
}

/* Copies a tensor laid out with element strides `st` (from src) to a compact buffer dst. */
static void mc_gather(char *dst, const char *src, int ndim, const int64_t *shape,
                      const int64_t *st, size_t es) {
  int64_t numel = mc_numel(ndim, shape);
  if (numel == 0) return;
  if (ndim == 0) {
    memcpy(dst, src, es);
    return;
  }
  int64_t idx[MC_MAX_DIMS] = {0};
  int64_t inner = shape[ndim - 1], inner_st = st[ndim - 1];
  for (int64_t done = 0; done < numel; done += inner) {
    const char *p = src;
    for (int d = 0; d < ndim - 1; d++) p += idx[d] * st[d] * (int64_t)es;
    if (inner_st == 1 || inner == 1) {
      memcpy(dst, p, (size_t)inner * es);
    } else {
      for (int64_t j = 0; j < inner; j++) memcpy(dst + j * (int64_t)es, p + j * inner_st * (int64_t)es, es);
    }
    dst += inner * (int64_t)es;
    for (int d = ndim - 2; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

/* Byte range [*lo, *hi) touched by a strided tensor starting at base. */
static void mc_span(const char *base, int ndim, const int64_t *shape, const int64_t *st, size_t es,
                    const char **lo, const char **hi) {
  int64_t mn = 0, mx = 0;
  for (int d = 0; d < ndim; d++) {
    int64_t ext = (shape[d] - 1) * st[d];
    if (ext < 0) mn += ext;
    else mx += ext;
  }
  *lo = base + mn * (int64_t)es;
  *hi = base + (mx + 1) * (int64_t)es;
}

/* ---- validation of caller tensors ---------------------------------------------------------- */

/* Checks t against desc; on success *data is t's first element. `what` names the call, `kind`
 * says "input" or "output", idx the index. */
static int mc_check_tensor(const mc_model *m, const char *what, const char *kind, int idx,
                           const mc_io_desc *desc, const DLTensor *t, int need_align,
                           char **data) {
  const char *nm = mc_io_name(desc);
  char got[48];
  if (!t) return mc_fail(m, MC_EINVAL, "%s: %s %d '%s': NULL tensor", what, kind, idx, nm);
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost &&
      t->device.device_type != kDLROCMHost)
    return mc_fail(m, MC_EDEVICE,
                   "%s: %s %d '%s': device type %d is not CPU-addressable (expected kDLCPU)",
                   what, kind, idx, nm, (int)t->device.device_type);
  if (!mc_dtype_matches(desc->dtype, t->dtype)) {
    mc_dtype_str(t->dtype, got, sizeof got);
    return mc_fail(m, MC_EDTYPE, "%s: %s %d '%s': dtype %s, expected %s", what, kind, idx, nm, got,
                   mc_dtype_names[desc->dtype]);
  }
  if (t->ndim != desc->ndim)
    return mc_fail(m, MC_ESHAPE, "%s: %s %d '%s': ndim %d, expected %d", what, kind, idx, nm,
                   t->ndim, desc->ndim);
  if (t->ndim > 0 && !t->shape)
    return mc_fail(m, MC_EINVAL, "%s: %s %d '%s': NULL shape", what, kind, idx, nm);
  for (int d = 0; d < t->ndim; d++)
    if (t->shape[d] != desc->shape[d])
      return mc_fail(m, MC_ESHAPE, "%s: %s %d '%s': extent %lld in dim %d, expected %lld", what,
                     kind, idx, nm, (long long)t->shape[d], d, (long long)desc->shape[d]);
  int64_t numel = mc_numel(desc->ndim, desc->shape);
  if (t->strides && numel > 0) {
    int64_t want_st = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
      if (t->shape[d] != 1 && t->strides[d] != want_st)
        return mc_fail(m, MC_ESTRIDE,
                       "%s: %s %d '%s': stride %lld in dim %d is not compact row-major "
                       "(expected %lld)",
                       what, kind, idx, nm, (long long)t->strides[d], d, (long long)want_st);
      want_st *= t->shape[d];
    }
  }
  if (numel > 0 && !t->data)
    return mc_fail(m, MC_EINVAL, "%s: %s %d '%s': NULL data", what, kind, idx, nm);
  uintptr_t base = (uintptr_t)t->data;
  if (t->byte_offset > UINTPTR_MAX - base)
    return mc_fail(m, MC_EINVAL, "%s: %s %d '%s': byte_offset %llu overflows the address space",
                   what, kind, idx, nm, (unsigned long long)t->byte_offset);
  size_t es = mc_dtype_sizes[desc->dtype];
  if (need_align && numel > 0 && (base + (uintptr_t)t->byte_offset) % es != 0)
    return mc_fail(m, MC_EINVAL,
                   "%s: %s %d '%s': data + byte_offset is not aligned to the element size %zu",
                   what, kind, idx, nm, es);
  *data = t->data ? (char *)t->data + t->byte_offset : NULL;
  return MC_OK;
}

static int mc_check_index(const mc_model *m, const char *what, const char *kind, int i, int n) {
  if (i < 0 || i >= n)
    return mc_fail(m, MC_EINVAL, "%s: %s index %d out of range (model '%s' has %d)", what, kind, i,
                   m->def->name ? m->def->name : "?", n);
  return MC_OK;
}

/* ---- model lifetime ------------------------------------------------------------------------ */

static void mc_release_binding(mc_slot *s) {
  if (s->kind == MC_SLOT_DLPACK && s->managed) {
    DLManagedTensor *t = s->managed;
    s->managed = NULL;
    if (t->deleter) t->deleter(t);
  }
  s->kind = MC_SLOT_UNBOUND;
  s->data = NULL;
}

static int mc_def_ok(const mc_model_def *def) {
  if (!def || !def->run || def->num_inputs < 0 || def->num_outputs < 0) return 0;
  if ((def->num_inputs && !def->inputs) || (def->num_outputs && !def->outputs)) return 0;
  for (int k = 0; k < def->num_inputs + def->num_outputs; k++) {
    const mc_io_desc *d =
        k < def->num_inputs ? &def->inputs[k] : &def->outputs[k - def->num_inputs];
    if (d->dtype < 0 || d->dtype >= MC_NUM_DTYPES || d->ndim < 0 || d->ndim > MC_MAX_DIMS)
      return 0;
    for (int j = 0; j < d->ndim; j++)
      if (d->shape[j] < 0) return 0;
  }
  return 1;
}

static void mc_fill_info(DLTensor *t, const mc_io_desc *d, int64_t *shape) {
  memset(t, 0, sizeof *t);
  t->device.device_type = kDLCPU;
  t->ndim = d->ndim;
  t->dtype = mc_dtype_to_dl(d->dtype);
  memcpy(shape, d->shape, sizeof d->shape);
  t->shape = shape;
}

/* Returns NULL on allocation failure or when def is malformed (NULL, no run function, a dtype
 * code or ndim out of range, a negative extent). */
mc_model *mc_model_new(const mc_model_def *def) {
  if (!mc_def_ok(def)) return NULL;
  int ni = def->num_inputs, no = def->num_outputs;
  size_t cnt_i = ni ? (size_t)ni : 1, cnt_o = no ? (size_t)no : 1;
  mc_model *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->def = def;
  m->arena = mc_aligned_alloc(def->arena_bytes);
  m->slots = calloc(cnt_i, sizeof *m->slots);
  m->in = calloc(cnt_i, sizeof *m->in);
  m->in_bytes = calloc(cnt_i, sizeof *m->in_bytes);
  m->in_info = calloc(cnt_i, sizeof *m->in_info);
  m->out = calloc(cnt_o, sizeof *m->out);
  m->out_info = calloc(cnt_o, sizeof *m->out_info);
  m->outputs = calloc(cnt_o, sizeof *m->outputs);
  m->dims = calloc((size_t)(ni + 2 * no) + 1, MC_MAX_DIMS * sizeof *m->dims);
  if (!m->arena || !m->slots || !m->in || !m->in_bytes || !m->in_info || !m->out ||
      !m->out_info || !m->outputs || !m->dims) {
    mc_model_destroy(m);
    return NULL;
  }
  int64_t *dims = m->dims;
  for (int i = 0; i < ni; i++, dims += MC_MAX_DIMS) {
    const mc_io_desc *d = &def->inputs[i];
    mc_fill_info(&m->in_info[i], d, dims);
    m->in_bytes[i] = (size_t)mc_numel(d->ndim, d->shape) * mc_dtype_sizes[d->dtype];
  }
  for (int k = 0; k < no; k++, dims += 2 * MC_MAX_DIMS) {
    const mc_io_desc *d = &def->outputs[k];
    mc_fill_info(&m->out_info[k], d, dims);
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
      free(m->slots[i].copy);
    }
  }
  free(m->slots);
  free(m->arena);
  free(m->in);
  free(m->in_bytes);
  free(m->in_info);
  free(m->out);
  free(m->out_info);
  free(m->outputs);
  free(m->dims);
  free(m);
}

/* ---- introspection ------------------------------------------------------------------------- */

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

/* ---- binding inputs ------------------------------------------------------------------------ */

static int mc_check_input(mc_model *m, const char *what, int i, const DLTensor *t, int need_align,
                          char **data) {
  int rc = mc_check_index(m, what, "input", i, m->def->num_inputs);
  if (rc) return rc;
  return mc_check_tensor(m, what, "input", i, &m->def->inputs[i], t, need_align, data);
}

int mc_set_input(mc_model *m, int i, const DLTensor *src) {
  if (!m) return MC_EINVAL;
  char *data;
  int rc = mc_check_input(m, "mc_set_input", i, src, 0, &data);
  if (rc) return rc;
  mc_slot *s = &m->slots[i];
  if (!s->copy && !(s->copy = mc_aligned_alloc(m->in_bytes[i])))
    return mc_fail(m, MC_ENOMEM, "mc_set_input: input %d '%s': out of memory (%zu bytes)", i,
                   mc_io_name(&m->def->inputs[i]), m->in_bytes[i]);
  if (m->in_bytes[i]) memmove(s->copy, data, m->in_bytes[i]); /* src may be our own copy */
  if (s->kind != MC_SLOT_COPY) mc_release_binding(s);
  s->kind = MC_SLOT_COPY;
  s->data = s->copy;
  m->outputs_valid = 0;
  mc_clear_error(m);
  return MC_OK;
}

static void mc_bind_external(mc_model *m, int i, mc_slot_kind kind, char *data,
                             DLManagedTensor *managed) {
  mc_slot *s = &m->slots[i];
  mc_release_binding(s);
  free(s->copy);
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

/* A tensor the runtime already owns is not taken twice: passed again for the index it is bound
 * to, the binding is kept; passed for another index, the call is refused with MC_EINVAL and no
 * deleter runs (it still belongs to the first index). */
int mc_set_input_dlpack(mc_model *m, int i, DLManagedTensor *t) {
  if (!t) return m ? mc_fail(m, MC_EINVAL, "mc_set_input_dlpack: input %d: NULL tensor", i)
                   : MC_EINVAL;
  char *data = NULL;
  int rc = m ? mc_check_input(m, "mc_set_input_dlpack", i, &t->dl_tensor, 1, &data) : MC_EINVAL;
  if (rc) {
    if (t->deleter) t->deleter(t);
    return rc;
  }
  for (int j = 0; j < m->def->num_inputs; j++)
    if (j != i && m->slots[j].kind == MC_SLOT_DLPACK && m->slots[j].managed == t)
      return mc_fail(m, MC_EINVAL, "mc_set_input_dlpack: input %d: tensor is already bound to "
                     "input %d and owned by the model", i, j);
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
    return mc_fail(m, MC_EUNBOUND, "mc_copy_input: input %d '%s' was never set", i,
                   mc_io_name(&m->def->inputs[i]));
  rc = mc_check_tensor(m, "mc_copy_input", "input", i, &m->def->inputs[i], dst, 0, &data);
  if (rc) return rc;
  if (m->in_bytes[i]) memmove(data, m->slots[i].data, m->in_bytes[i]);
  mc_clear_error(m);
  return MC_OK;
}

/* ---- running ------------------------------------------------------------------------------- */

/* The thread count of the mc_run in progress on this thread, read by generated code through
 * mc_runtime_num_threads (the mc_model_def ABI has no room for it). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_THREADS__)
static _Thread_local int mc_run_nthreads = 1;
#else
static int mc_run_nthreads = 1;
#endif

int mc_runtime_num_threads(void) { return mc_run_nthreads; }

int mc_set_num_threads(mc_model *m, int n) {
  if (!m) return MC_EINVAL;
  if (n < 1) return mc_fail(m, MC_EINVAL, "mc_set_num_threads: thread count %d < 1", n);
  m->nthreads = n;
  mc_clear_error(m);
  return MC_OK;
}

int mc_run(mc_model *m) {
  if (!m) return MC_EINVAL;
  const mc_model_def *def = m->def;
  m->outputs_valid = 0;
  for (int i = 0; i < def->num_inputs; i++) {
    if (m->slots[i].kind == MC_SLOT_UNBOUND)
      return mc_fail(m, MC_EUNBOUND, "mc_run: input %d '%s' was never set", i,
                     mc_io_name(&def->inputs[i]));
    m->in[i] = m->slots[i].data;
  }
  for (int k = 0; k < def->num_outputs; k++) m->out[k] = NULL;
  char err[256] = {0};
  int saved_nthreads = mc_run_nthreads;
  mc_run_nthreads = m->nthreads > 0 ? m->nthreads : 1;
  int rc = def->run(m->in, m->arena, m->out, err);
  mc_run_nthreads = saved_nthreads;
  if (rc != 0) {
    err[sizeof err - 1] = '\0';
    return mc_fail(m, MC_ERUN, "mc_run: model '%s': %s", def->name ? def->name : "?",
                   err[0] ? err : "run failed without a message");
  }
  for (int k = 0; k < def->num_outputs; k++) {
    const mc_io_desc *d = &def->outputs[k];
    if (!m->out[k] && mc_numel(d->ndim, d->shape) > 0)
      return mc_fail(m, MC_ERUN, "mc_run: model '%s': output %d '%s' was not produced",
                     def->name ? def->name : "?", k, mc_io_name(d));
    m->outputs[k].data = m->out[k];
  }
  m->outputs_valid = 1;
  mc_clear_error(m);
  return MC_OK;
}

/* ---- outputs ------------------------------------------------------------------------------- */

static int mc_check_output(const mc_model *m, const char *what, int i) {
  int rc = mc_check_index(m, what, "output", i, m->def->num_outputs);
  if (rc) return rc;
  if (!m->outputs_valid)
    return mc_fail(m, MC_EINVAL,
                   "%s: output %d: no outputs (no successful mc_run since the last "
                   "mc_set_input*)",
                   what, i);
  return MC_OK;
}

const DLTensor *mc_get_output(const mc_model *m, int i) {
  if (!m || mc_check_output(m, "mc_get_output", i)) return NULL;
  mc_clear_error(m);
  return &m->outputs[i];
}

int mc_copy_output(const mc_model *m, int i, DLTensor *dst) {
  if (!m) return MC_EINVAL;
  char *data;
  int rc = mc_check_output(m, "mc_copy_output", i);
  if (rc) return rc;
  const mc_io_desc *d = &m->def->outputs[i];
  rc = mc_check_tensor(m, "mc_copy_output", "output", i, d, dst, 0, &data);
  if (rc) return rc;
  size_t es = mc_dtype_sizes[d->dtype];
  size_t bytes = (size_t)mc_numel(d->ndim, d->shape) * es;
  if (bytes) {
    const char *src = m->outputs[i].data, *lo, *hi;
    mc_span(src, d->ndim, d->shape, d->strides, es, &lo, &hi);
    if (data < hi && lo < data + bytes) { /* dst overlaps the output (an input's buffer) */
      char *tmp = malloc(bytes);
      if (!tmp)
        return mc_fail(m, MC_ENOMEM, "mc_copy_output: output %d: out of memory (%zu bytes)", i,
                       bytes);
      mc_gather(tmp, src, d->ndim, d->shape, d->strides, es);
      memcpy(data, tmp, bytes);
      free(tmp);
    } else {
      mc_gather(data, src, d->ndim, d->shape, d->strides, es);
    }
  }
  mc_clear_error(m);
  return MC_OK;
}

static void mc_dlpack_free(DLManagedTensor *self) { free(self); }

/* One malloc block: the DLManagedTensor, its shape and strides, then the 64-aligned data. */
DLManagedTensor *mc_get_output_dlpack(mc_model *m, int i) {
  if (!m || mc_check_output(m, "mc_get_output_dlpack", i)) return NULL;
  const mc_io_desc *d = &m->def->outputs[i];
  size_t es = mc_dtype_sizes[d->dtype];
  size_t bytes = (size_t)mc_numel(d->ndim, d->shape) * es;
  size_t head = sizeof(DLManagedTensor) + 2 * MC_MAX_DIMS * sizeof(int64_t);
  char *block = malloc(head + MC_ALIGN + (bytes ? bytes : 1));
  if (!block) {
    mc_fail(m, MC_ENOMEM, "mc_get_output_dlpack: output %d: out of memory (%zu bytes)", i, bytes);
    return NULL;
  }
  DLManagedTensor *t = (DLManagedTensor *)block;
  int64_t *shape = (int64_t *)(block + sizeof(DLManagedTensor));
  int64_t *strides = shape + MC_MAX_DIMS;
  uintptr_t p = (uintptr_t)(block + head);
  char *data = (char *)((p + MC_ALIGN - 1) / MC_ALIGN * MC_ALIGN);
  memset(t, 0, sizeof *t);
  t->dl_tensor = m->out_info[i];
  memcpy(shape, d->shape, sizeof d->shape);
  int64_t st = 1;
  for (int k = d->ndim - 1; k >= 0; k--) {
    strides[k] = st;
    st *= d->shape[k];
  }
  t->dl_tensor.shape = shape;
  t->dl_tensor.strides = strides;
  t->dl_tensor.data = data;
  t->deleter = mc_dlpack_free;
  if (bytes) mc_gather(data, m->outputs[i].data, d->ndim, d->shape, d->strides, es);
  mc_clear_error(m);
  return t;
}
