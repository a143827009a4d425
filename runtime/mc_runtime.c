/* mc_runtime.c — the CPU runtime (libmcrt.a): creates, runs and destroys an mc-generated model
 * and copies its outputs out. Binding, validation and introspection are runtime/mc_core.c's
 * (shared with the CUDA runtime); mc_core.h states the invariants both keep.
 *
 * A model is its def (static, owned by the generated code), a 64-byte aligned arena and the
 * shared core (one slot per input, the outputs' descriptors). What is CPU-specific:
 *  - Accepted tensors: device kDLCPU, kDLCUDAHost or kDLROCMHost (host memory the CPU can
 *    address); zero-copy and DLPack data aligned to the element size (copies may be unaligned).
 *  - Memory: malloc/free only, aligned by hand (mc_alloc64), so the runtime builds with any C99
 *    library (newlib's aligned_alloc needs posix_memalign, newlib-nano has neither). Every
 *    allocation is made by mc_model_new, a first copying bind of an input, mc_copy_output (a
 *    temporary when the destination overlaps the output) or mc_get_output_dlpack, and freed by
 *    mc_model_destroy (or the returned tensor's deleter); mc_run allocates nothing itself.
 *  - Threads: mc_set_num_threads's count reaches run() through mc_runtime_num_threads, a
 *    per-thread variable set around run() (a plain static with -DMC_NO_THREADS, where nothing
 *    uses thread-local storage).
 *  - A model is used by one thread at a time.
 */
#include "mc_core.h"

#include <stdlib.h>
#include <string.h>

#define MC_ALIGN 64

struct mc_model {
  mc_core core; /* first: MCC(m) */
  const mc_model_def *def;
  void *arena;
  char *copies; /* made in the caller's memory: the inputs' copy buffers, each 64-rounded */
  int in_caller_memory; /* mc_model_new_in: nothing to free */
  int nthreads; /* mc_set_num_threads; 0: never set (1) */
  const mc_model_dyn *dyn; /* a model with dynamic extents (mc_model_new_dyn), else NULL */
};

/* MC_MEMORY_BYTES (mc_runtime.h) bounds what mc_model_new_in takes: checked here, at build
 * time, for this target's sizes (C99: a negative array size is the error). */
#define MC_ASSERT(name, cond) typedef char mc_assert_##name[(cond) ? 1 : -1]
MC_ASSERT(model_bytes, (sizeof(struct mc_model) + MC_ALIGN - 1) / MC_ALIGN * MC_ALIGN <=
                           MC_MEM_MODEL_BYTES);
MC_ASSERT(input_bytes, ((sizeof(mc_slot) + 7) & ~(size_t)7) + 2 * 8 + sizeof(DLTensor) +
                           MC_MAX_DIMS * sizeof(int64_t) <= MC_MEM_PER_INPUT);
MC_ASSERT(output_bytes, 8 + 2 * sizeof(DLTensor) + 2 * MC_MAX_DIMS * sizeof(int64_t) <=
                            MC_MEM_PER_OUTPUT);

/* ---- memory -------------------------------------------------------------------------------- */

/* (not built with -DMC_NO_MALLOC, where nothing here calls malloc or free)
 * bytes (0 allowed) at a 64-byte boundary, from malloc: the block starts with room for the
 * pointer malloc returned, stored just before the aligned address. NULL on failure or when the
 * block would not fit a ptrdiff_t (no object may be larger). */
#ifndef MC_NO_MALLOC
static void *mc_alloc64(size_t bytes) {
  size_t extra = MC_ALIGN + sizeof(void *);
  if (bytes > (size_t)PTRDIFF_MAX - extra) return NULL;
  char *raw = malloc(bytes + extra);
  if (!raw) return NULL;
  uintptr_t p = ((uintptr_t)(raw + sizeof(void *)) + (MC_ALIGN - 1)) & ~(uintptr_t)(MC_ALIGN - 1);
  void **at = (void **)p;
  at[-1] = raw;
  return at;
}

static void mc_free64(void *p) {
  if (p) free(((void **)p)[-1]);
}
#endif

static int mc_cpu_check_device(const mc_model *m, const char *what, const char *kind, int idx,
                               const char *nm, const DLTensor *t, int external) {
  (void)external;
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost &&
      t->device.device_type != kDLROCMHost)
    return mcc_fail(m, MC_EDEVICE,
                    "%s: %s %d '%s': device type %d is not CPU-addressable (expected kDLCPU)",
                    what, kind, idx, nm, (int)t->device.device_type);
  return MC_OK;
}

#ifndef MC_NO_MALLOC
static int mc_cpu_alloc(mc_model *m, const char *what, int i, size_t bytes, void **p) {
  if ((*p = mc_alloc64(bytes))) return MC_OK;
  return mcc_fail(m, MC_ENOMEM, "%s: input %d '%s': out of memory (%lu bytes)", what, i,
                  mcc_io_name(&MCC(m)->inputs[i]), (unsigned long)bytes);
}
#endif

static int mc_cpu_copy(const mc_model *m, const char *what, void *dst, const void *src, size_t n) {
  (void)m, (void)what;
  memmove(dst, src, n);
  return MC_OK;
}

#ifndef MC_NO_MALLOC
static const mc_device mc_cpu = {kDLCPU, 0, mc_cpu_check_device, mc_cpu_alloc, mc_free64,
                                 mc_cpu_copy};
#endif

static size_t mc_round64(size_t n) { return (n + MC_ALIGN - 1) / MC_ALIGN * MC_ALIGN; }

/* A model made in the caller's memory: input i's copy buffer is its own part of that memory,
 * laid out by mc_model_new_in; nothing is freed. */
static int mc_in_alloc(mc_model *m, const char *what, int i, size_t bytes, void **p) {
  char *at = m->copies;
  (void)what, (void)bytes;
  for (int k = 0; k < i; k++) at += mc_round64(m->core.in_bytes[k]);
  *p = at;
  return MC_OK;
}

static void mc_in_free(void *p) { (void)p; }

static const mc_device mc_cpu_in = {kDLCPU, 0, mc_cpu_check_device, mc_in_alloc, mc_in_free,
                                    mc_cpu_copy};

/* ---- sizes and layouts --------------------------------------------------------------------- */

#define mc_numel mcc_numel

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

/* ---- model lifetime ------------------------------------------------------------------------ */

/* Returns NULL on allocation failure or when def is malformed (NULL, no run function, a dtype
 * code or ndim out of range, a negative extent, a tensor or arena whose size does not fit the
 * address space). */
mc_model *mc_model_new(const mc_model_def *def) {
  if (!def || !def->run ||
      !mcc_def_ok(def->num_inputs, def->num_outputs, def->inputs, def->outputs))
    return NULL;
#ifdef MC_NO_MALLOC
  return NULL; /* no heap: NAME_create_in */
#else
  mc_model *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->def = def;
  m->arena = mc_alloc64(def->arena_bytes);
  if (!m->arena || mcc_init(&m->core, &mc_cpu, def->name, def->num_inputs, def->num_outputs,
                            def->inputs, def->outputs, 0)) {
    mc_model_destroy(m);
    return NULL;
  }
  return m;
#endif
}

/* What mc_model_new_in needs for def (0: def malformed or the sum overflows). */
size_t mc_model_memory_bytes(const mc_model_def *def) {
  if (!def || !def->run ||
      !mcc_def_ok(def->num_inputs, def->num_outputs, def->inputs, def->outputs))
    return 0;
  size_t total = mc_round64(sizeof(mc_model)), part;
  const size_t lim = (size_t)PTRDIFF_MAX;
  if (def->arena_bytes > lim - MC_ALIGN) return 0;
  part = mc_round64(def->arena_bytes);
  if (part > lim - total) return 0;
  total += part;
  for (int i = 0; i < def->num_inputs; i++) {
    const mc_io_desc *d = &def->inputs[i];
    part = mc_round64((size_t)mc_numel(d->ndim, d->shape) * mcc_dtype_sizes[d->dtype]);
    if (part > lim - total) return 0;
    total += part;
  }
  part = mcc_tables_bytes(def->num_inputs, def->num_outputs);
  if (part > lim - total) return 0;
  return total + part;
}

/* The model, then its arena, the inputs' copy buffers and the tables, all in mem. */
mc_model *mc_model_new_in(const mc_model_def *def, void *mem, size_t bytes) {
  size_t need = mc_model_memory_bytes(def);
  if (!need || !mem || ((uintptr_t)mem & (MC_ALIGN - 1)) || bytes < need) return NULL;
  char *p = (char *)mem;
  mc_model *m = (mc_model *)mem;
  memset(m, 0, sizeof *m);
  m->def = def;
  m->in_caller_memory = 1;
  p += mc_round64(sizeof *m);
  m->arena = p;
  p += mc_round64(def->arena_bytes);
  m->copies = p;
  for (int i = 0; i < def->num_inputs; i++) {
    const mc_io_desc *d = &def->inputs[i];
    p += mc_round64((size_t)mc_numel(d->ndim, d->shape) * mcc_dtype_sizes[d->dtype]);
  }
  size_t left = need - (size_t)(p - (char *)mem);
  if (mcc_init_in(&m->core, &mc_cpu_in, def->name, def->num_inputs, def->num_outputs,
                  def->inputs, def->outputs, 0, &p, &left))
    return NULL; /* cannot happen: need counted the tables */
  return m;
}

/* A model with dynamic extents: the static model of dyn->def, then the tables of current shapes
 * (docs/dynamic.md). */
static int mc_dyn_ok(const mc_model_dyn *dyn) {
  return dyn && dyn->def && dyn->run && dyn->def->inputs &&
         mcc_dims_ok(dyn->def->num_inputs, dyn->def->inputs, dyn->num_dims, dyn->dims);
}

mc_model *mc_model_new_dyn(const mc_model_dyn *dyn) {
  if (!mc_dyn_ok(dyn)) return NULL;
  mc_model *m = mc_model_new(dyn->def);
  if (!m) return NULL;
  m->dyn = dyn;
  if (mcc_make_dynamic(&m->core, dyn->num_dims, dyn->dims, NULL, NULL)) {
    mc_model_destroy(m);
    return NULL;
  }
  return m;
}

mc_model *mc_model_new_dyn_in(const mc_model_dyn *dyn, void *mem, size_t bytes) {
  if (!mc_dyn_ok(dyn)) return NULL;
  size_t need = mc_model_memory_bytes(dyn->def);
  const mc_model_def *def = dyn->def;
  size_t extra = MC_DYN_MEMORY_BYTES(def->num_inputs, def->num_outputs);
  need = mc_round64(need);
  if (!need || need > (size_t)PTRDIFF_MAX - extra || bytes < need + extra) return NULL;
  mc_model *m = mc_model_new_in(def, mem, need);
  if (!m) return NULL;
  char *p = (char *)mem + need;
  size_t left = extra;
  m->dyn = dyn;
  if (mcc_make_dynamic(&m->core, dyn->num_dims, dyn->dims, &p, &left)) return NULL;
  return m;
}

void mc_model_destroy(mc_model *m) {
  if (!m) return;
  mcc_fini(&m->core);
  if (m->in_caller_memory) return;
#ifndef MC_NO_MALLOC
  mc_free64(m->arena);
  free(m);
#endif
}

/* ---- running ------------------------------------------------------------------------------- */

/* The thread count of the mc_run in progress on this thread, read by generated code through
 * mc_runtime_num_threads (the mc_model_def ABI has no room for it). Without threads
 * (-DMC_NO_THREADS: bare metal, where thread-local storage needs an OS) a plain static. */
#if defined(MC_NO_THREADS)
#define MC_THREAD_LOCAL
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define MC_THREAD_LOCAL _Thread_local
#elif defined(__GNUC__)
#define MC_THREAD_LOCAL __thread /* C99 with GCC or clang */
#else
#define MC_THREAD_LOCAL
#endif
static MC_THREAD_LOCAL int mc_run_nthreads = 1;

int mc_runtime_num_threads(void) { return mc_run_nthreads; }

int mc_set_num_threads(mc_model *m, int n) {
  if (!m) return MC_EINVAL;
  if (n < 1) return mcc_fail(m, MC_EINVAL, "mc_set_num_threads: thread count %d < 1", n);
  m->nthreads = n;
  mcc_clear_error(m);
  return MC_OK;
}

int mc_run(mc_model *m) {
  if (!m) return MC_EINVAL;
  int rc = mcc_run_begin(m);
  if (rc) return rc;
  char err[256] = {0};
  int saved_nthreads = mc_run_nthreads;
  mc_run_nthreads = m->nthreads > 0 ? m->nthreads : 1;
  if (m->dyn)
    rc = m->dyn->run(m->core.cur_in, m->core.in, m->arena, m->core.out, m->core.cur_out, err);
  else
    rc = m->def->run(m->core.in, m->arena, m->core.out, err);
  mc_run_nthreads = saved_nthreads;
  return mcc_run_end(m, rc, err);
}

/* ---- outputs ------------------------------------------------------------------------------- */

int mc_copy_output(const mc_model *m, int i, DLTensor *dst) {
  if (!m) return MC_EINVAL;
  char *data;
  int rc = mcc_check_output(m, "mc_copy_output", i);
  if (rc) return rc;
  const mc_io_desc *d = &m->core.outputs[i];
  rc = mcc_check_tensor(m, "mc_copy_output", "output", i, d, dst, 0, &data);
  if (rc) return rc;
  size_t es = mcc_dtype_sizes[d->dtype];
  size_t bytes = (size_t)mc_numel(d->ndim, d->shape) * es;
  if (bytes) {
    const char *src = m->core.results[i].data, *lo, *hi;
    mc_span(src, d->ndim, d->shape, d->strides, es, &lo, &hi);
    if (data < hi && lo < data + bytes &&
        mcc_is_compact(d->ndim, d->shape, d->strides)) { /* overlapping, in order */
      memmove(data, src, bytes);
    } else if (data < hi && lo < data + bytes) { /* dst overlaps the output (an input's buffer) */
#ifdef MC_NO_MALLOC
      return mcc_fail(m, MC_ENOMEM, "mc_copy_output: output %d: the destination overlaps the "
                      "output and no heap is available (MC_NO_MALLOC)", i);
#else
      char *tmp = malloc(bytes);
      if (!tmp)
        return mcc_fail(m, MC_ENOMEM, "mc_copy_output: output %d: out of memory (%lu bytes)", i,
                        (unsigned long)bytes);
      mc_gather(tmp, src, d->ndim, d->shape, d->strides, es);
      memcpy(data, tmp, bytes);
      free(tmp);
#endif
    } else {
      mc_gather(data, src, d->ndim, d->shape, d->strides, es);
    }
  }
  mcc_clear_error(m);
  return MC_OK;
}

#ifdef MC_NO_MALLOC
/* The returned tensor must outlive the model: without a heap there is nowhere to put it. */
DLManagedTensor *mc_get_output_dlpack(mc_model *m, int i) {
  if (!m || mcc_check_output(m, "mc_get_output_dlpack", i)) return NULL;
  mcc_fail(m, MC_ENOMEM, "mc_get_output_dlpack: output %d: not available without a heap "
           "(built with MC_NO_MALLOC; use mc_get_output or mc_copy_output)", i);
  return NULL;
}
#else
static void mc_dlpack_free(DLManagedTensor *self) { free(self); }

/* One malloc block: the DLManagedTensor, its shape and strides, then the 64-aligned data. */
DLManagedTensor *mc_get_output_dlpack(mc_model *m, int i) {
  if (!m || mcc_check_output(m, "mc_get_output_dlpack", i)) return NULL;
  const mc_io_desc *d = &m->core.outputs[i];
  size_t es = mcc_dtype_sizes[d->dtype];
  size_t bytes = (size_t)mc_numel(d->ndim, d->shape) * es;
  size_t head = sizeof(DLManagedTensor) + 2 * MC_MAX_DIMS * sizeof(int64_t);
  char *block = malloc(head + MC_ALIGN + (bytes ? bytes : 1));
  if (!block) {
    mcc_fail(m, MC_ENOMEM, "mc_get_output_dlpack: output %d: out of memory (%lu bytes)", i,
             (unsigned long)bytes);
    return NULL;
  }
  DLManagedTensor *t = (DLManagedTensor *)block;
  int64_t *shape = (int64_t *)(block + sizeof(DLManagedTensor));
  int64_t *strides = shape + MC_MAX_DIMS;
  uintptr_t p = (uintptr_t)(block + head);
  char *data = (char *)((p + MC_ALIGN - 1) / MC_ALIGN * MC_ALIGN);
  memset(t, 0, sizeof *t);
  t->dl_tensor = m->core.out_info[i];
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
  if (bytes) mc_gather(data, m->core.results[i].data, d->ndim, d->shape, d->strides, es);
  mcc_clear_error(m);
  return t;
}
#endif
