/* pass.h — the pass manager and every pass. A pass is a named record (name = CLI name = dump
 * label); the manager runs a pipeline, prints the IR around passes on request (--dump-ir) and
 * verifies the IR after each one.
 *
 * Prefixes: pm_ (pass.c), and one per pass file (infer_, fz_ functionalize, dce_, prep_).
 */
#ifndef MC_PASS_H
#define MC_PASS_H

#include "ir/ir.h"

typedef struct PassCtx {
  Diag *diag;
  int verbose;
} PassCtx;

/* Returns the number of errors reported (0 = success). */
typedef int (*pass_fn)(Graph *g, PassCtx *c);

typedef struct Pass {
  const char *name;    /* "functionalize" */
  const char *summary; /* one line for `mc compile --help` */
  pass_fn run;
} Pass;

const Pass *pm_find(const char *name);
int pm_npasses(void);
const Pass *pm_pass(int i);
const char *pm_default_pipeline(void); /* "prep,infer,functionalize,..." */
const char *pm_cuda_pipeline(void);    /* the default for --target cuda: without fuse */

typedef enum DumpWhen { DUMP_NONE, DUMP_ALL, DUMP_BEFORE, DUMP_AFTER, DUMP_PASS } DumpWhen;

typedef struct PmOptions {
  const char *pipeline; /* comma separated; NULL = default */
  DumpWhen dump;
  const char *dump_pass; /* DUMP_PASS: print before and after this pass only */
  FILE *dump_out;        /* default stderr */
  bool verify;           /* default true */
  /* --verify-passes: run the interpreter on random inputs before the pipeline and after each
   * pass; the first pass that changes an output or an input's final value is an error
   * (pass_verify.c). */
  bool verify_passes;
  int verbose;
} PmOptions;

/* Checks a pipeline string; reports an unknown pass name and returns false. */
bool pm_check_pipeline(const char *pipeline, char *err, size_t errlen);
/* Runs the pipeline; returns the number of errors (diagnostics already printed). */
int pm_run(Graph *g, const PmOptions *o, Diag *d);

/* pass_verify.c: the differential check behind PmOptions.verify_passes. pv_begin makes the
 * random inputs and runs g as it is now (NULL on error, reported); pv_check runs g again and
 * reports the first output or final input value that differs, naming `pass`. */
typedef struct PvState PvState;
PvState *pv_begin(Graph *g, Diag *d);
int pv_check(PvState *s, Graph *g, const char *pass, Diag *d);
void pv_end(PvState *s);

/* ---- passes (one file each) ---- */
int prep_run(Graph *g, PassCtx *c);          /* prep.c: inline checks, drop %self, flatten outputs */
int infer_run(Graph *g, PassCtx *c);         /* infer.c: dtype/shape inference + constant folding */
int functionalize_run(Graph *g, PassCtx *c); /* functionalize.c */
int functionalize_inplace_views(Graph *g, PassCtx *c); /* functionalize.c: run by prep */
int dce_run(Graph *g, PassCtx *c);           /* dce.c */
int fold_bn_run(Graph *g, PassCtx *c);       /* fold_bn.c: batch_norm into the convolution */
int fuse_run(Graph *g, PassCtx *c);          /* fuse.c: activations into conv / linear / add */

/* infer.c, also used by the emitter and interpreter: whether a maybe-view op (reshape,
 * flatten, contiguous) is a view for its inputs' static strides. */
bool infer_node_is_view(const Node *n);
/* Whether value v's storage is shared with its defining node's input (view or in-place). Returns
 * the input it aliases or NULL. */
const Value *infer_alias_source(const Value *v);

#endif
