/* emit.h — source emitters: turn a planned graph into model.c + model.h.
 * Prefixes: emit_c_ (emit_c.c), cu_ / emit_cuda (emit_cuda.c), plan_ (plan.c). */
#ifndef MC_EMIT_H
#define MC_EMIT_H

#include "ir/ir.h"

typedef struct EmitOptions {
  const char *name;        /* C identifier prefix, e.g. "model" */
  const char *header_name; /* file name of the header to #include, e.g. "model.h" */
  const char *source_name; /* the model file, for the banner (base name only: deterministic) */
  /* Large constants: when `blob` is non-NULL, every constant tensor of at least
   * blob_threshold bytes is written there (64-byte aligned) instead of as C initialisers, and
   * the C file pulls it in with the assembler's `.incbin "blob_name"` (resolved by the
   * assembler relative to its working directory and its -I paths: `cc -c` from the blob's
   * folder, or pass -Wa,-I<folder>). Keeps resnet-size models compiling in seconds. */
  FILE *blob;
  const char *blob_name;
  size_t blob_threshold;
  size_t max_arena_bytes;  /* limit on the arena and on any one tensor; 0 = PLAN_DEFAULT_MAX_BYTES */
  /* 16 hex digits naming this compile, or NULL: the header defines NAME_MC_BUILD_ID, the source
   * #errors when the header it includes has another, and the weights file ends in a 64-byte
   * trailer "mc-weights ID\n" that the assembler's .incbin length and NAME_create check, so a
   * mixed set of outputs (an interrupted compile) fails to build or to create. */
  const char *build_id;
  /* --target cuda only (NULL: none): called for every node emit_cuda runs on the host by its C
   * kernel, with why it has no device code (mc inspect --target cuda lists them). */
  void (*on_host)(void *ctx, const Node *n, const char *why);
  void *on_host_ctx;
  /* emit_c only (NULL: a model.c of its own): the source is for emit_cuda to paste into a .cu as
   * host C++ (a graph with run-time shapes, or one the device code refuses, runs the C target's
   * code on the host under --target cuda): no #include of the header, no model description struct nor create functions, one
   * thread. emit_c fills it in with what the .cu's wrapper needs. */
  struct EmitEmbed *embed;
} EmitOptions;

/* What emit_c tells emit_cuda of an embedded source (EmitOptions.embed). The source defines
 * static NAME_run_dyn_ (mc_model_dyn.run's contract, for fixed shapes too), NAME_inputs_,
 * NAME_outputs_ (at the Dims' upper bounds) and NAME_dims_ (one unused entry when there are
 * none); with a weights file, NAME_weights_check_. */
typedef struct EmitEmbed {
  size_t arena_bytes; /* the arena NAME_run_dyn_ takes (scalar outputs' slots included) */
  size_t in_bytes;    /* the inputs' compact sizes at the upper bounds, each rounded up to 64 */
  size_t out_bytes;   /* the same of the outputs (a scalar: one element) */
  int ndims;          /* entries of NAME_dims_ */
  bool weights_file;  /* NAME_weights_check_() is defined and must pass at create */
} EmitEmbed;

/* Writes the C source to `c` and the header to `h`. Returns the number of errors reported. */
int emit_c(Graph *g, const EmitOptions *o, FILE *c, FILE *h, Diag *d);

/* The CUDA target (emit_cuda.c): a .cu file for nvcc that links with libmcrt_cuda.a (docs/cuda.md).
 * Same contract as emit_c; an op without a CUDA implementation is an error at its node. */
int emit_cuda(Graph *g, const EmitOptions *o, FILE *c, FILE *h, Diag *d);
/* Whether --target cuda has a device kernel for op `kind` (float32; other dtypes, in-place forms
 * and run-time scalar arguments run the op's C kernel on the host, docs/cuda.md). */
bool emit_cuda_has_device_kernel(const char *kind);

/* ---- plan.c: storage of every tensor value ---- */
typedef enum StorageKind { ST_NONE, ST_INPUT, ST_CONST, ST_ARENA, ST_VIEW } StorageKind;
typedef struct Storage {
  StorageKind kind;
  int input;             /* ST_INPUT: graph input index */
  size_t offset, bytes;  /* ST_ARENA */
  const Value *base;     /* ST_VIEW: the value it aliases */
} Storage;

typedef struct Plan {
  Storage *st;           /* indexed by Value id */
  int nvalues;
  size_t arena_bytes;    /* what the plan uses */
  size_t lower_bound;    /* largest sum of simultaneously live intermediates */
  Node **order;          /* every node, nested blocks included, in program order (pre-order) */
  int nnodes;
} Plan;

/* Plans storage for every tensor value of g. Values live from their definition to their last
 * use; a use inside a prim::Loop of a value defined outside it lasts until the loop ends, and a
 * block result lasts until its construct ends (it is copied into the construct's outputs or
 * loop state there). prim::If outputs and loop-carried state get arena storage of their own;
 * a loop's outputs are its state. Returns 0 or the error count. */
int plan_graph(Graph *g, Plan *p, Diag *d);
/* Same with a limit on the arena and on every input or intermediate tensor (0 = default):
 * anything larger is refused with a diagnostic. Sizes are computed with overflow checks. */
#define PLAN_DEFAULT_MAX_BYTES ((size_t)16 << 30)
int plan_graph_bounded(Graph *g, Plan *p, size_t max_bytes, Diag *d);
/* Same for a graph with dynamic extents: a tensor value with bound_bytes[id] != 0 (ids below
 * nbound) gets a slot of at least that many bytes, its size at the Dims' bounds (dynshape.h). */
int plan_graph_sized(Graph *g, Plan *p, size_t max_bytes, const size_t *bound_bytes, int nbound, Diag *d);
void plan_free(Plan *p);
const Value *plan_root(const Plan *p, const Value *v); /* follows views to the storage owner */

#endif
