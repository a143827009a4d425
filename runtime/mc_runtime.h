/* mc_runtime.h — the runtime that ships inside programs using mc-generated models.
 *
 * A generated model.c defines one `mc_model_def` (its static description and its run
 * function) and `NAME_create()`, which calls mc_model_new(). Everything else — binding inputs
 * (copying, zero-copy borrow, DLPack ownership), validation, running, handing out outputs — is
 * here, once, for every model. The runtime knows nothing of the compiler.
 *
 * Ownership, in one place:
 *  - mc_set_input copies src; the caller keeps src.
 *  - mc_set_input_zero_copy borrows ext->data until the next mc_set_input* for that index or
 *    mc_model_destroy; the model reads and writes that buffer directly. It keeps no pointer to
 *    `ext` itself, only to ext->data.
 *  - mc_set_input_dlpack(m, i, t): the deleter of every tensor passed in is called exactly once
 *    in all, by the runtime, on every path. A t that m does not own yet is taken on success and
 *    on failure alike: if the call is refused (NULL m, bad index, wrong dtype/shape/strides/
 *    device, misaligned) its deleter runs before the call returns; else it runs when input i is
 *    replaced (by any mc_set_input* that succeeds) or m is destroyed, and never before every
 *    output tensor aliasing it has been released. A t that m already owns (bound to input j)
 *    is never taken twice and never deleted by the call: for i == j it is kept (rebound, or the
 *    call refused with the binding unchanged if t no longer fits); for any other i, in range or
 *    not, the call is refused with MC_EINVAL. So one tensor is never bound to two inputs, and
 *    its deleter runs once, when input j is replaced or m destroyed. A NULL t is refused
 *    (MC_EINVAL); nothing is deleted.
 *  - mc_get_output's tensor belongs to the model and is valid until the next mc_run or
 *    mc_set_input* or mc_model_destroy. It is compact row-major (extent-1 dims may have any
 *    stride). An output that is a graph input itself (returned after an in-place update), or a
 *    contiguous view of one, may point into that input's memory: the caller's buffer when the
 *    input is bound zero-copy or through DLPack, the model's copy when bound by mc_set_input.
 *  - mc_get_output_dlpack returns a tensor the caller owns: it holds its own copy of the data,
 *    stays valid after mc_model_destroy and after every input is freed; call its deleter once.
 *
 * Errors: every int function returns 0 or a negative MC_E* code, with a message that
 * mc_last_error(m) returns until the next call on m.
 *
 * Details the contract leaves open, as libmcrt implements them:
 *  - Accepted tensors: device kDLCPU, kDLCUDAHost or kDLROCMHost; the input's exact dtype, lanes
 *    1 (a bool input also takes {kDLUInt,8}, as PyTorch 1.13 exports bool, and kDLBool = 6);
 *    exact ndim and extents; strides NULL or compact row-major (extent-1 dims may have any
 *    stride); data NULL only with no element; zero-copy and DLPack data + byte_offset aligned
 *    to the element size. Outputs report bool as {kDLUInt,8} under this DLPack (0.6) header.
 *  - A successful mc_set_input* invalidates every mc_get_output tensor (an output may alias an
 *    input), so a replaced DLPack input has no aliasing output left when its deleter runs.
 *  - mc_set_input_zero_copy(m, i, &t->dl_tensor) for the DLPack tensor t that input i owns is
 *    refused (MC_EINVAL): replacing the binding would free the memory it borrows. Borrowing, for
 *    another input, memory that the model owns through DLPack is the caller's to keep valid.
 *  - Sizes: a model whose description does not fit the address space (a tensor or the arena
 *    larger than PTRDIFF_MAX bytes, extents whose product overflows) is refused when it is
 *    created (NAME_create() returns NULL); nothing is ever allocated short.
 *  - Memory: the runtime calls malloc and free only (no aligned_alloc, no posix_memalign); it
 *    allocates in NAME_create(), in the first copying mc_set_input of an input, and in
 *    mc_copy_output (a non-compact output overlapping its destination) / mc_get_output_dlpack,
 *    and frees all of it in mc_model_destroy (or the returned tensor's deleter). A model made by
 *    NAME_create_in(mem, bytes) lives in mem (NAME_MEMORY_BYTES, from model.h): its arena, tables
 *    and input copies; mc_model_destroy frees none of it. Built with -DMC_NO_THREADS it uses no
 *    thread-local storage; built with -DMC_NO_MALLOC it calls no allocator at all: NAME_create()
 *    returns NULL, mc_get_output_dlpack returns NULL (MC_ENOMEM, with a message: the tensor
 *    would have to outlive the model), and so does mc_copy_output in the overlapping case.
 *  - Messages are formatted by mc_vsnprintf (no C library formatter, no stdio).
 *  - mc_copy_input works for any bound input; mc_input_is_mutated returns 1, 0 or MC_EINVAL;
 *    mc_num_inputs/mc_num_outputs(NULL) return MC_EINVAL; mc_last_error(NULL) is a static text.
 *  - A model is used by one thread at a time.
 *  - A model compiled with dynamic shapes (docs/dynamic.md) accepts, in every mc_set_input*, any
 *    extent within its Dim's bounds (mc_input_dim_bounds; MC_ESHAPE naming the Dim otherwise);
 *    mc_run returns MC_ESHAPE when inputs that share a Dim disagree; mc_get_output's shape is
 *    the last run's, mc_input_info's and mc_output_info's the shapes at the upper bounds.
 *
 * The runtime is plain C99 (or later): runtime/mc_runtime.c and runtime/mc_core.c, with this
 * header and <dlpack/dlpack.h>. `make` leaves both C files and every header a generated model
 * includes in build/runtime-dist/ for builds with other compilers and targets (docs/targets.md).
 */
#ifndef MC_RUNTIME_H
#define MC_RUNTIME_H

#include <dlpack/dlpack.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_MAX_DIMS 8

enum {
  MC_OK = 0,
  MC_EINVAL = -1,   /* NULL pointer, bad index or argument */
  MC_EDTYPE = -2,   /* dtype does not match the model's input */
  MC_ESHAPE = -3,   /* ndim or shape does not match */
  MC_ESTRIDE = -4,  /* non-compact strides */
  MC_EDEVICE = -5,  /* wrong device */
  MC_ENOMEM = -6,
  MC_EUNBOUND = -7, /* mc_run with an input never set */
  MC_ERUN = -8,     /* the model's code reported an error (message says which op) */
};

typedef struct mc_model mc_model;

void mc_model_destroy(mc_model *m);
int mc_num_inputs(const mc_model *m);
int mc_num_outputs(const mc_model *m);
const DLTensor *mc_input_info(const mc_model *m, int i);  /* dtype, ndim, shape expected */
const DLTensor *mc_output_info(const mc_model *m, int i); /* dtype, ndim, shape produced */
const char *mc_input_name(const mc_model *m, int i);   /* forward()'s parameter, or the state's attribute */
const char *mc_output_name(const mc_model *m, int i);  /* "out", "out.logits", "out.1.0"; else "output_K" */
/* The index of the input / output named `name`, or MC_EINVAL (with a message) when none is. */
int mc_find_input(const mc_model *m, const char *name);
int mc_find_output(const mc_model *m, const char *name);
int mc_set_input(mc_model *m, int i, const DLTensor *src);        /* copies */
int mc_set_input_zero_copy(mc_model *m, int i, DLTensor *ext);    /* borrows ext->data */
int mc_set_input_dlpack(mc_model *m, int i, DLManagedTensor *t);  /* takes ownership */
int mc_run(mc_model *m);
const DLTensor *mc_get_output(const mc_model *m, int i); /* valid until next run/destroy */
int mc_copy_output(const mc_model *m, int i, DLTensor *dst);
DLManagedTensor *mc_get_output_dlpack(mc_model *m, int i); /* caller owns; outlives m */
/* For a mutated input bound by copy (mc_set_input), its current value lives inside the model:
 * this copies it out (zero-copy and DLPack inputs are updated in the caller's buffer). */
int mc_copy_input(const mc_model *m, int i, DLTensor *dst);
const char *mc_last_error(const mc_model *m);
int mc_input_is_mutated(const mc_model *m, int i);
/* Bounds of extent d of input i: *min == *max for a fixed extent; an extent that follows a Dim
 * (a model compiled with dynamic shapes, docs/dynamic.md) may be bound with any size in
 * [*min, *max], and mc_input_info's shape holds *max. Either pointer may be NULL. */
int mc_input_dim_bounds(const mc_model *m, int i, int d, int64_t *min, int64_t *max);
/* Threads the model's large float32 products (convolution, linear, matmul) may use in mc_run;
 * n >= 1 (else MC_EINVAL), default 1. Generated code built without POSIX threads (tcc, `mc
 * run`, -DMC_NO_THREADS) ignores it; results do not depend on n. */
int mc_set_num_threads(mc_model *m, int n);

/* ---- for generated code only ---------------------------------------------------------------
 * Element type codes (dtype fields below) are mc's: 0 float32, 1 float64, 2 float16,
 * 3 bfloat16, 4 int64, 5 int32, 6 int16, 7 int8, 8 uint8, 9 bool. */
typedef struct mc_io_desc {
  const char *name;
  int dtype;
  int ndim;
  int64_t shape[MC_MAX_DIMS];
  int64_t strides[MC_MAX_DIMS]; /* outputs: element strides of what run() hands back */
  int mutated;                  /* inputs: the model writes this input in place */
} mc_io_desc;

typedef struct mc_model_def {
  const char *name;
  int num_inputs, num_outputs;
  const mc_io_desc *inputs;
  const mc_io_desc *outputs;
  size_t arena_bytes; /* scratch memory run() needs, allocated by mc_model_new (64-aligned) */
  /* Runs the model. in[i]: compact data of input i (read, and written when mutated). Sets
   * out[k] to the first element of output k (in the arena, in an input's buffer, or constant
   * data), laid out as outputs[k].strides. On failure returns nonzero with a message in err
   * (256 bytes). */
  int (*run)(void *const *in, void *arena, void **out, char *err);
} mc_model_def;

mc_model *mc_model_new(const mc_model_def *def); /* NULL on allocation failure */

/* A model with dynamic extents (docs/dynamic.md): def describes it at the Dims' upper bounds
 * (inputs' shapes; arena_bytes holds every value at any size within the bounds) and its run
 * refuses to run; this run takes the bound inputs' shapes and reports the outputs'. */
typedef struct mc_dim_desc {
  int input, axis;  /* extent `axis` of input `input` */
  const char *name; /* the Dim: extents sharing a name are one size */
  int64_t min, max;
} mc_dim_desc;
typedef struct mc_model_dyn {
  const mc_model_def *def;
  int num_dims;
  const mc_dim_desc *dims;
  /* in_desc[i].shape: the extents of input i as bound; sets out_desc[k]'s shape and strides to
   * those of output k (same dtype and ndim as def's). Otherwise as mc_model_def.run. */
  int (*run)(const mc_io_desc *in_desc, void *const *in, void *arena, void **out, mc_io_desc *out_desc,
             char *err);
} mc_model_dyn;
mc_model *mc_model_new_dyn(const mc_model_dyn *dyn); /* NULL on allocation failure */
/* In the caller's memory, as mc_model_new_in; MC_DYN_MEMORY_BYTES(NI, NO) more than the static
 * model's MC_MEMORY_BYTES (the tables of current shapes). */
mc_model *mc_model_new_dyn_in(const mc_model_dyn *dyn, void *mem, size_t bytes);
#define MC_DYN_MEMORY_BYTES(NI, NO) (((size_t)(NI) + (size_t)(NO) + 1u) * sizeof(mc_io_desc) + 64u)
/* The same in the caller's memory (64-byte aligned, `bytes` long; NULL if misaligned, too
 * small or def malformed): the model, its arena, a copy buffer per input and the tables all
 * live there, nothing is allocated, and mc_model_destroy frees nothing (it still releases the
 * bindings). mc_model_memory_bytes(def) is what it takes (0: def malformed); MC_MEMORY_BYTES
 * bounds that at compile time: NI inputs, NO outputs, ARENA = def->arena_bytes, INPUTS = the
 * inputs' compact sizes, each rounded up to 64 bytes. */
mc_model *mc_model_new_in(const mc_model_def *def, void *mem, size_t bytes);
size_t mc_model_memory_bytes(const mc_model_def *def);
#define MC_MEM_MODEL_BYTES 1024u /* the model itself (checked by the runtime's build) */
#define MC_MEM_PER_INPUT 192u
#define MC_MEM_PER_OUTPUT 256u
#define MC_MEM_TABLES_BYTES 512u
#define MC_MEMORY_BYTES(NI, NO, ARENA, INPUTS)                                                   \
  (MC_MEM_MODEL_BYTES + ((size_t)(ARENA) + 63u) / 64u * 64u + (size_t)(INPUTS) +                 \
   MC_MEM_TABLES_BYTES + MC_MEM_PER_INPUT * (size_t)(NI) + MC_MEM_PER_OUTPUT * (size_t)(NO))
/* snprintf and vsnprintf for messages without the C library's formatter (mc_core.c says what
 * they print); generated code built with -DMC_NO_MALLOC formats its errors with these. */
int mc_snprintf(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int mc_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
/* The thread count set by mc_set_num_threads on the model that this thread's mc_run is running
 * (1 outside mc_run): run() reads it into its kernels' context. */
int mc_runtime_num_threads(void);

#ifdef __cplusplus
}
#endif
#endif
