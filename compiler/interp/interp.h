/* interp.h — the reference interpreter: runs any IR (before or after any pass, prim::If and
 * prim::Loop included) with the op table's kernels, so passes can be checked differentially
 * (`mc compile --verify-passes`: passes/pass_verify.c runs it before the pipeline and after
 * every pass).
 *
 * Semantics are TorchScript's reference semantics: a view shares its base's storage, an in-place
 * op writes through it, and a graph input's storage is the caller's buffer, so after the run the
 * caller's input tensors hold their final values (an optimizer step lands there).
 *
 * Ownership: `inputs` stay the caller's (their data is updated in place). `*outputs` is a
 * malloc'd array of malloc'd contiguous copies (tuple/list outputs flattened depth-first, left to
 * right; None outputs skipped; int/float/bool outputs as 0-dim int64/float64/bool tensors); free
 * it with interp_free_outputs. Scalar graph inputs (int/float/bool) are passed as one-element
 * tensors. A graph with %self (has_self) takes its inputs without it.
 *
 * Prefix: interp_.
 */
#ifndef MC_INTERP_H
#define MC_INTERP_H

#include "ir/ir.h"

typedef struct InterpOptions {
  FILE *print_out;   /* prim::Print and aten::warn write here; NULL = stdout */
  int64_t max_steps; /* stop with an error after this many nodes run; 0 = no limit */
  int nevents;       /* out: Print and warn nodes executed */
} InterpOptions;

/* Returns 0, or the number of errors reported through d (a kernel failure, prim::RaiseException,
 * an unsupported op, wrong input count or shape). On error *outputs is NULL. */
int interp_run(Graph *g, IrTensor *const *inputs, int ninputs, IrTensor ***outputs, int *noutputs, Diag *d);
int interp_run_opts(Graph *g, InterpOptions *o, IrTensor *const *inputs, int ninputs, IrTensor ***outputs,
                    int *noutputs, Diag *d);
void interp_free_outputs(IrTensor **outputs, int n);

/* Heap tensors for callers (tests, `--verify-passes`): zeroed contiguous data, freed with
 * interp_tensor_free. */
IrTensor *interp_tensor_new(DType dt, int ndim, const int64_t *shape);
IrTensor *interp_tensor_clone(const IrTensor *t);
void interp_tensor_free(IrTensor *t);
/* 0 when a and b have the same dtype and shape and every element agrees within
 * atol + rtol * |b| (NaN equals NaN); else 1 with a message naming the first difference. */
int interp_tensor_compare(const IrTensor *a, const IrTensor *b, double rtol, double atol, char *msg, size_t msglen);

#endif
