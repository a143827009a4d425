/* pass_verify.c — `--verify-passes`: the differential check of the pass pipeline. Before the
 * pipeline, the reference interpreter (compiler/interp/) runs the graph as read on random
 * inputs (a fixed seed; the graph inputs' dtypes and shapes); after each pass it runs the
 * rewritten graph on the same inputs, and every output and every input's final value must be
 * what it was: bitwise for integers and bools, within a tolerance for floats (NaN equal to NaN).
 * The first pass that changes one is named:
 *   error: pass 'fuse' changed output 0 (max abs diff 0.5)
 *
 * Random inputs: floats uniform in [-2, 2) (at the dtype's precision), integers in [0, 4),
 * bools 0/1, int/float/bool scalar inputs in [1, 4]. Graphs with random ops (OPF_NONDET), and
 * graphs that fail on these inputs before the pipeline (a prim::RaiseException taken), are not
 * checked: a warning says so.
 *
 * Prefix: pv_.
 */
#include "pass.h"

#include "interp/interp.h"
#include "ops/ops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct PvState {
  int ninputs;
  IrTensor **inputs;  /* the random inputs, never written (each run gets clones) */
  IrTensor **ref_out; /* the reference run: outputs and the inputs' final values */
  int nref_out;
  IrTensor **ref_in;
  bool skip;          /* nothing to check (random ops) */
};

static uint64_t rng_next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static mck_tensor as_mck(const IrTensor *t) {
  mck_tensor m;
  memset(&m, 0, sizeof m);
  m.data = t->data;
  m.dtype = (int)t->dtype;
  m.ndim = 0;
  return m;
}

static int64_t numel_of(const IrTensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++) n *= t->shape[i];
  return n;
}

static bool nondet_block(const Block *b, const char **which) {
  for (const Node *n = b->first; n; n = n->next) {
    const OpDef *op = n->op;
    if (op && (op->flags & OPF_NONDET)) {
      *which = n->kind;
      return true;
    }
    for (int k = 0; k < n->nblocks; k++)
      if (nondet_block(n->blocks[k], which)) return true;
  }
  return false;
}

/* Random input k for parameter p, or NULL with a diagnostic when its type says too little. */
static IrTensor *random_input(const Value *p, int k, uint64_t *seed, Diag *d) {
  const Type *t = p->type;
  TypeKind tk = t ? t->kind : TY_ANY;
  if (tk == TY_INT || tk == TY_FLOAT || tk == TY_BOOL) {
    IrTensor *x = interp_tensor_new(tk == TY_FLOAT ? DT_F64 : tk == TY_BOOL ? DT_BOOL : DT_I64, 0, NULL);
    mck_tensor m = as_mck(x);
    int64_t v = 1 + (int64_t)(rng_next(seed) % 4);
    if (tk == TY_FLOAT) mck_setf(&m, 0, (double)v);
    else mck_seti(&m, 0, tk == TY_BOOL ? v & 1 : v);
    return x;
  }
  if (tk != TY_TENSOR || !ir_type_is_complete_tensor(t)) {
    diag_error(d, p->loc, "--verify-passes: input %d (%%%s) has no known dtype and shape to make a random "
               "value of", k, p->name);
    return NULL;
  }
  IrTensor *x = interp_tensor_new(t->dtype, t->ndim, t->shape);
  mck_tensor m = as_mck(x);
  int64_t n = numel_of(x);
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = rng_next(seed);
    if (ir_dtype_is_float(t->dtype)) mck_setf(&m, i, (double)(r >> 11) * (4.0 / 9007199254740992.0) - 2.0);
    else if (t->dtype == DT_BOOL) mck_seti(&m, i, (int64_t)(r & 1));
    else mck_seti(&m, i, (int64_t)(r % 4));
  }
  return x;
}

static void free_tensors(IrTensor **ts, int n) {
  for (int i = 0; ts && i < n; i++) interp_tensor_free(ts[i]);
  free(ts);
}

/* Runs g on clones of the random inputs: its outputs in *out, the inputs' final values in *fin. */
static int run_on_inputs(const PvState *s, Graph *g, IrTensor ***out, int *nout, IrTensor ***fin, Diag *d) {
  IrTensor **in = calloc((size_t)s->ninputs + 1, sizeof *in);
  if (!in) abort();
  for (int i = 0; i < s->ninputs; i++) in[i] = interp_tensor_clone(s->inputs[i]);
  int errs = interp_run(g, in, s->ninputs, out, nout, d);
  if (errs) {
    free_tensors(in, s->ninputs);
    *fin = NULL;
    return errs;
  }
  *fin = in;
  return 0;
}

static double tol_rel(DType t) {
  return t == DT_F64 ? 1e-9 : t == DT_F16 || t == DT_BF16 ? 1e-2 : 1e-4;
}
static double tol_abs(DType t) {
  return t == DT_F64 ? 1e-12 : t == DT_F16 || t == DT_BF16 ? 1e-3 : 1e-5;
}

/* 0 when b (after the pass) is a (before) up to the tolerance; else 1, with the largest
 * absolute difference in *maxdiff (or a description in why when dtypes or shapes differ). */
static int differs(const IrTensor *a, const IrTensor *b, double *maxdiff, char *why, size_t whylen) {
  why[0] = '\0';
  *maxdiff = 0;
  bool same_shape = a->dtype == b->dtype && a->ndim == b->ndim;
  for (int i = 0; same_shape && i < a->ndim; i++) same_shape = a->shape[i] == b->shape[i];
  if (!same_shape) {
    snprintf(why, whylen, "%s of rank %d became %s of rank %d, or its shape changed", ir_dtype_name(a->dtype), a->ndim,
             ir_dtype_name(b->dtype), b->ndim);
    return 1;
  }
  mck_tensor ma = as_mck(a), mb = as_mck(b);
  int64_t n = numel_of(a);
  bool bad = false;
  if (!ir_dtype_is_float(a->dtype)) {
    for (int64_t i = 0; i < n; i++) {
      int64_t x = mck_geti(&ma, i), y = mck_geti(&mb, i);
      if (x != y) {
        bad = true;
        double dd = fabs((double)x - (double)y);
        if (dd > *maxdiff) *maxdiff = dd;
      }
    }
    return bad;
  }
  double rt = tol_rel(a->dtype), at = tol_abs(a->dtype);
  for (int64_t i = 0; i < n; i++) {
    double x = mck_getf(&ma, i), y = mck_getf(&mb, i);
    if (isnan(x) && isnan(y)) continue;
    if (x == y) continue;
    double dd = isnan(x) || isnan(y) ? INFINITY : fabs(x - y);
    if (isnan(dd)) dd = INFINITY; /* inf against -inf */
    if (dd > *maxdiff) *maxdiff = dd;
    if (!(dd <= at + rt * fabs(x))) bad = true;
  }
  return bad;
}

PvState *pv_begin(Graph *g, Diag *d) {
  PvState *s = calloc(1, sizeof *s);
  if (!s) abort();
  const char *which = NULL;
  if (nondet_block(g->top, &which)) {
    diag_warning(d, g->loc, "--verify-passes: the graph has random ops ('%s'): passes not checked", which);
    s->skip = true;
    return s;
  }
  int first = g->has_self ? 1 : 0;
  s->ninputs = g->top->nparams - first;
  s->inputs = calloc((size_t)s->ninputs + 1, sizeof *s->inputs);
  if (!s->inputs) abort();
  uint64_t seed = 0x6d632d7665726966ull; /* fixed: the same inputs on every run */
  for (int i = 0; i < s->ninputs; i++) {
    s->inputs[i] = random_input(g->top->params[first + i], i, &seed, d);
    if (!s->inputs[i]) {
      pv_end(s);
      return NULL;
    }
  }
  /* A model may fail on some inputs (prim::RaiseException, an index out of range): then there is
   * nothing to compare, which is no error of the model's. */
  char *msg = NULL;
  size_t msglen = 0;
  FILE *mem = open_memstream(&msg, &msglen);
  Diag q;
  diag_init(&q);
  q.out = mem ? mem : d->out;
  q.max_errors = 1;
  int errs = run_on_inputs(s, g, &s->ref_out, &s->nref_out, &s->ref_in, &q);
  if (mem) fclose(mem);
  if (errs) {
    const char *m = msg ? strstr(msg, "error: ") : NULL;
    int len = m ? (int)strcspn(m + 7, "\n") : 0;
    diag_warning(d, g->loc, "--verify-passes: passes not checked: the graph as read fails on the random inputs%s%.*s",
                 m ? ": " : "", len, m ? m + 7 : "");
    free_tensors(s->ref_in, s->ninputs);
    s->ref_in = NULL;
    s->skip = true;
  }
  free(msg);
  return s;
}

int pv_check(PvState *s, Graph *g, const char *pass, Diag *d) {
  if (s->skip) return 0;
  IrTensor **out = NULL, **fin = NULL;
  int nout = 0;
  if (run_on_inputs(s, g, &out, &nout, &fin, d)) {
    diag_error(d, g->loc, "pass '%s': the interpreter fails on the IR after it (it ran before the pipeline)", pass);
    return 1;
  }
  int errs = 0;
  char why[160];
  double diff;
  if (nout != s->nref_out) {
    diag_error(d, g->loc, "pass '%s' changed the number of outputs (%d, was %d)", pass, nout, s->nref_out);
    errs = 1;
  }
  for (int k = 0; !errs && k < nout; k++) {
    if (!differs(s->ref_out[k], out[k], &diff, why, sizeof why)) continue;
    if (why[0]) diag_error(d, g->loc, "pass '%s' changed output %d (%s)", pass, k, why);
    else diag_error(d, g->loc, "pass '%s' changed output %d (max abs diff %g)", pass, k, diff);
    errs = 1;
  }
  for (int i = 0; !errs && i < s->ninputs; i++) {
    if (!differs(s->ref_in[i], fin[i], &diff, why, sizeof why)) continue;
    if (why[0]) diag_error(d, g->loc, "pass '%s' changed the final value of input %d (%s)", pass, i, why);
    else diag_error(d, g->loc, "pass '%s' changed the final value of input %d (max abs diff %g)", pass, i, diff);
    errs = 1;
  }
  interp_free_outputs(out, nout);
  free_tensors(fin, s->ninputs);
  return errs;
}

void pv_end(PvState *s) {
  if (!s) return;
  free_tensors(s->inputs, s->ninputs);
  if (s->ref_out) interp_free_outputs(s->ref_out, s->nref_out);
  free_tensors(s->ref_in, s->ninputs);
  free(s);
}
