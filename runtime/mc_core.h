/* mc_core.h — the part of the runtime that the CPU runtime (mc_runtime.c) and the CUDA runtime
 * (mc_runtime_cuda.c) share: one slot per input and the rules for binding it (seeds/000 and
 * seeds/004), validation of caller tensors, introspection, errors, and the bookkeeping of
 * outputs. Internal to the runtime: programs include mc_runtime.h (or mc_runtime_cuda.h).
 *
 * Each runtime defines `struct mc_model` with an mc_core as its first member, and an
 * mc_device that says where its memory lives: which DLPack devices a call accepts, how an owned
 * copy buffer is allocated, freed and filled. mc_core.c implements, once, every public function
 * whose meaning does not depend on the device (binding, introspection, mc_get_output); each
 * runtime implements creation, destruction, mc_run (around mcc_run_begin / mcc_run_end) and the
 * functions that copy outputs.
 *
 * Invariants (both runtimes):
 *  - Each input has exactly one slot, and the slot is the only record of the current binding:
 *    an owned compact copy (MC_SLOT_COPY), a borrowed caller pointer (MC_SLOT_BORROW, the
 *    caller's data + byte_offset; the DLTensor itself is never kept) or an owned DLManagedTensor
 *    (MC_SLOT_DLPACK). mc_run builds the in[] array from the slots at call time, so no copy of a
 *    descriptor can go stale (seeds/000).
 *  - A DLManagedTensor is owned by at most one slot. Rebinding an input releases the previous
 *    binding only after the new one is complete: a borrowed pointer is forgotten, a DLPack
 *    tensor's deleter is called (once: the slot forgets it before calling), an owned copy buffer
 *    is kept for the next copying bind of that slot and freed when the slot is bound otherwise or
 *    the model destroyed.
 *  - Outputs handed out by mc_get_output may point into input buffers or the arena, so every
 *    successful mc_set_input* (and every mc_run, failed or not) invalidates them; the runtimes'
 *    mc_get_output_dlpack copies, so a DLPack input's deleter may run as soon as its input is
 *    replaced (seeds/004).
 *  - A refused call changes nothing and writes nothing, except that mc_set_input_dlpack takes
 *    ownership of a tensor it does not own yet: a refused one's deleter is called once before the
 *    call returns (mc_runtime.h states the whole rule).
 *  - Every size derived from a model description is checked for overflow when the model is
 *    created (mcc_def_ok): a description whose tensors do not fit the address space is refused,
 *    never allocated short.
 *
 * Prefix: mcc_ for the shared helpers.
 */
#ifndef MC_CORE_H
#define MC_CORE_H

#include "mc_runtime.h"

#define MC_ERR_LEN 512
#define MC_DL_BOOL_CODE 6 /* kDLBool in DLPack >= 0.8; absent from older headers */
#define MC_NUM_DTYPES 10

typedef enum { MC_SLOT_UNBOUND, MC_SLOT_COPY, MC_SLOT_BORROW, MC_SLOT_DLPACK } mc_slot_kind;

typedef struct mc_slot {
  mc_slot_kind kind;
  void *data;               /* what run() reads and writes: copy, borrowed or DLPack memory */
  void *copy;               /* owned compact buffer of the last copying bind, or NULL */
  DLManagedTensor *managed; /* owned while kind == MC_SLOT_DLPACK */
} mc_slot;

/* What differs between the runtimes' memory. */
typedef struct mc_device {
  DLDeviceType info_device; /* device type that mc_input_info / mc_output_info report */
  int align_always;         /* 1: copying calls also need element-aligned data */
  /* MC_OK if a tensor on t's device may be used by a call; `external` is 1 for zero-copy and
   * DLPack bindings (the model reads t's memory later), 0 for copies in and out. Else an error
   * code, with the message set through mcc_fail (what, kind, idx, name prefix it). */
  int (*check_device)(const mc_model *m, const char *what, const char *kind, int idx,
                      const char *name, const DLTensor *t, int external);
  /* An owned copy buffer of `bytes` (> 0 or not) for input i into *p: MC_OK or an error code
   * with a message. */
  int (*alloc)(mc_model *m, const char *what, int i, size_t bytes, void **p);
  void (*free)(void *p);
  /* Copies n bytes (the ranges may overlap); MC_OK or an error code with a message. */
  int (*copy)(const mc_model *m, const char *what, void *dst, const void *src, size_t n);
} mc_device;

typedef struct mc_core {
  const mc_device *dev;
  const char *name;
  int num_inputs, num_outputs;
  const mc_io_desc *inputs, *outputs;
  mc_slot *slots;     /* num_inputs */
  void **in;          /* num_inputs, filled from slots by mcc_run_begin */
  void **out;         /* num_outputs, filled by run() */
  DLTensor *in_info;  /* num_inputs, data NULL, strides NULL */
  DLTensor *out_info; /* num_outputs, data NULL, strides NULL */
  DLTensor *results;  /* num_outputs: what mc_get_output hands out, valid while outputs_valid */
  int64_t *dims;      /* shapes of in_info, out_info and results' strides, MC_MAX_DIMS each */
  size_t *in_bytes;   /* compact size of each input */
  int outputs_valid;
  int pooled; /* tables in the caller's memory (mcc_init_in): mcc_fini frees none */
  /* A model with dynamic extents (mcc_make_dynamic): its Dims; cur_in holds the shapes the
   * inputs are bound with, and `outputs` points to cur_out, the shapes of the last run (results
   * read them); inputs keeps the bounds (shapes at max). NULL / 0 for a static model. */
  int num_dims;
  const mc_dim_desc *dim_descs;
  mc_io_desc *cur_in, *cur_out;
  int dyn_owned; /* cur_in / cur_out were allocated by mcc_make_dynamic */
  char err[MC_ERR_LEN];
} mc_core;

#define MCC(m) ((mc_core *)(void *)(m)) /* the mc_core that starts every struct mc_model */

extern const char *const mcc_dtype_names[MC_NUM_DTYPES];
extern const size_t mcc_dtype_sizes[MC_NUM_DTYPES];

int mcc_fail(const mc_model *m, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void mcc_clear_error(const mc_model *m);
const char *mcc_io_name(const mc_io_desc *d);
const char *mcc_model_name(const mc_model *m);
DLDataType mcc_dtype_to_dl(int code);

/* Elements of a shape whose element count was checked by mcc_def_ok. */
int64_t mcc_numel(int ndim, const int64_t *shape);
int mcc_is_compact(int ndim, const int64_t *shape, const int64_t *strides);
/* 1 if every tensor of the description is well formed and its byte size (and, for outputs, the
 * span of its strides) fits in a ptrdiff_t; 0 otherwise. */
int mcc_def_ok(int num_inputs, int num_outputs, const mc_io_desc *inputs,
               const mc_io_desc *outputs);

/* Fills c (zeroed by the caller) for a description mcc_def_ok accepted: MC_OK or MC_ENOMEM. */
int mcc_init(mc_core *c, const mc_device *dev, const char *name, int num_inputs, int num_outputs,
             const mc_io_desc *inputs, const mc_io_desc *outputs, int device_id);
/* The same with the tables carved from [*pool, *pool + *left) (8-byte aligned; both advanced),
 * nothing allocated; when pool is NULL, as mcc_init. mcc_tables_bytes: what the tables take. */
int mcc_init_in(mc_core *c, const mc_device *dev, const char *name, int num_inputs,
                int num_outputs, const mc_io_desc *inputs, const mc_io_desc *outputs,
                int device_id, char **pool, size_t *left);
size_t mcc_tables_bytes(int num_inputs, int num_outputs);
/* Makes c (just initialised) a model with dynamic extents: the tables of current shapes from
 * [*pool, *pool + *left) when pool is not NULL, else allocated. MC_OK or MC_ENOMEM. */
int mcc_make_dynamic(mc_core *c, int num_dims, const mc_dim_desc *dims, char **pool, size_t *left);
/* 1 if dims are well formed for a model whose inputs (at their upper bounds) are `inputs`: each
 * names an extent of an input, min <= max, and max is that extent in `inputs`. */
int mcc_dims_ok(int num_inputs, const mc_io_desc *inputs, int num_dims, const mc_dim_desc *dims);
/* Releases every binding (deleters, copy buffers) and frees what mcc_init allocated. */
void mcc_fini(mc_core *c);

int mcc_check_index(const mc_model *m, const char *what, const char *kind, int i, int n);
/* Checks t against desc; on success *data is t's first element. `kind` says "input" or
 * "output", `external` as in mc_device.check_device. */
int mcc_check_tensor(const mc_model *m, const char *what, const char *kind, int idx,
                     const mc_io_desc *desc, const DLTensor *t, int external, char **data);
/* Output i may be read: index in range and a successful mc_run since the last binding. */
int mcc_check_output(const mc_model *m, const char *what, int i);

/* mc_run's frame: begin checks every input is bound and fills c->in (outputs become invalid);
 * end turns run()'s result (rc, its message err[256]) into mc_run's, and on success publishes
 * the outputs. */
int mcc_run_begin(mc_model *m);
int mcc_run_end(mc_model *m, int rc, char *err);

#endif
