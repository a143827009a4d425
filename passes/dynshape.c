/* dynshape.c — shapes of a graph with dynamic extents at chosen sizes (dynshape.h).
 *
 * One walk of the top block per assignment of the Dims. Each value gets an mck_arg: graph
 * inputs a data-less tensor of the assigned shape; constants their value; prim::ListConstruct
 * the list of its elements' values; a kernel node the outputs its kernel computes in meta mode
 * from its inputs' values. Where every input has a value (scalars, and small tensors with data
 * such as prim::NumToTensor of a size), a pure kernel also runs for real, so sizes computed from
 * sizes (`x.view(x.size(0) * 2, -1)`) are known.
 *
 * Control flow: a prim::If whose condition is known at this assignment walks the branch taken
 * (its kernels' errors are errors) and then the other one quietly (its values still get sizes
 * for the plan; a kernel that refuses them stops only that walk: the branch is not taken at these
 * sizes); on a condition known only at run time both branches are walked quietly. The outputs
 * take the taken branch's results (else the first branch that got through), and the bytes of the
 * largest; at the max sizes the larger of the two results, so that what follows is planned for
 * a branch taken at a size in between. A prim::Loop's body is walked once, its carried values at their initial values and the
 * iteration count unknown (0 stands for it), and every carried tensor must come out of it with
 * the shape it went in with (infer checked this at the example's sizes). Every tensor in a block,
 * and every output of a prim::If or prim::Loop, counts as a run-time shape. */
#include "dynshape.h"

#include "kargs.h"
#include "ops/ops.h"

#include <stdlib.h>
#include <string.h>

#define DYN_SMALL_NUMEL 4096 /* tensors that get data during the walk */

const IrDim *dyn_input_dim(const Graph *g, const Value *v, int axis) {
  for (int k = 0; k < g->ndims; k++)
    if (g->dims[k].value == v && g->dims[k].axis == axis) return &g->dims[k];
  return NULL;
}

static int64_t dim_size(const IrDim *dm, int cfg, int64_t example) {
  return cfg == DYN_MAX ? dm->max : cfg == DYN_MIN ? dm->min : example;
}

typedef struct Eval {
  Graph *g;
  Arena *ar;
  mck_arg *vals; /* by value id; kind 0 with known 0: no value */
  bool *known;   /* the value is fully known (scalars, tensors with data) */
  size_t *bytes; /* by value id: the largest byte size a tensor value took in this walk */
  char *sized;   /* by value id: a result whose size depends on the data (its kernel said so) */
  int nvalues;
  int cfg;
  Diag *d;
  int errs;
} Eval;

static size_t arg_bytes(const mck_arg *a) {
  if (a->kind != MCK_TENSOR || !a->u.t) return 0;
  int64_t numel = mck_numel(a->u.t);
  size_t es = mck_dtype_size(a->u.t->dtype);
  if (numel < 0) return SIZE_MAX;
  if (numel > 0 && (uint64_t)numel > (uint64_t)SIZE_MAX / es) return SIZE_MAX;
  return (size_t)numel * es;
}

static void eval_grow(Eval *e, const Value *v, size_t bytes) {
  if (v->id >= 0 && v->id < e->nvalues && bytes > e->bytes[v->id]) e->bytes[v->id] = bytes;
}

static void eval_set(Eval *e, const Value *v, const mck_arg *a, bool known) {
  if (v->id < 0 || v->id >= e->nvalues) return;
  e->vals[v->id] = *a;
  e->known[v->id] = known;
  eval_grow(e, v, arg_bytes(a));
}

static const char *cfg_name(int cfg) { return cfg == DYN_MAX ? "max" : cfg == DYN_MIN ? "min" : "example"; }

static void eval_fail(Eval *e, const Node *n, const char *why) {
  char sizes[256];
  size_t u = 0;
  sizes[0] = '\0';
  for (int k = 0; k < e->g->ndims && u < 200; k++) {
    bool seen = false;
    for (int j = 0; j < k; j++) seen |= strcmp(e->g->dims[j].name, e->g->dims[k].name) == 0;
    if (seen) continue;
    const IrDim *dm = &e->g->dims[k];
    u += (size_t)snprintf(sizes + u, sizeof sizes - u, "%s%s=%lld", u ? ", " : "", dm->name,
                          (long long)dim_size(dm, e->cfg, dm->value->type->shape[dm->axis]));
  }
  diag_error(e->d, n->loc, "'%s' fails at the %s sizes of the Dims (%s): %s", n->kind, cfg_name(e->cfg), sizes, why);
  if (n->py_loc) diag_note(e->d, n->loc, "from PyTorch code at %s", n->py_loc);
  e->errs++;
}

static void eval_kernel(Eval *e, const Node *n, const OpDef *op) {
  mck_arg *in = arena_alloc(e->ar, sizeof(mck_arg) * (size_t)(n->ninputs + 1));
  mck_arg *out = arena_alloc(e->ar, sizeof(mck_arg) * (size_t)(n->noutputs + 1));
  bool all_known = true;
  for (int i = 0; i < n->ninputs; i++) {
    const Value *v = n->inputs[i];
    in[i] = e->vals[v->id];
    all_known &= e->known[v->id];
  }
  for (int i = 0; i < n->noutputs; i++) kargs_out(e->ar, n->outputs[i], &out[i]);
  mck_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.meta = 1;
  if (op->kernel(&ctx, out, n->noutputs, in, n->ninputs) != 0) {
    eval_fail(e, n, ctx.err[0] ? ctx.err : "invalid arguments");
    return;
  }
  if (ctx.sized_by_data) /* the shapes are bounds: the sizes are known at run time only */
    for (int i = 0; i < n->noutputs; i++)
      if (n->outputs[i]->id >= 0 && n->outputs[i]->id < e->nvalues) e->sized[n->outputs[i]->id] = 1;
  bool run = all_known && op->effect == EFF_PURE && !(op->flags & OPF_NONDET) && !ctx.sized_by_data &&
             kargs_give_data(e->ar, op, out, n->noutputs, DYN_SMALL_NUMEL, UINT64_MAX);
  bool known = false;
  if (run) {
    ctx.meta = 0;
    known = op->kernel(&ctx, out, n->noutputs, in, n->ninputs) == 0;
    if (!known) { /* the shapes stand; the values are not known */
      for (int i = 0; i < n->noutputs; i++) {
        if (out[i].kind == MCK_TENSOR) out[i].u.t->data = NULL;
        else out[i].kind = MCK_UNKNOWN;
      }
    }
  }
  for (int i = 0; i < n->noutputs; i++) {
    bool k = known || (out[i].kind != MCK_TENSOR && out[i].kind != MCK_UNKNOWN && (op->flags & OPF_SHAPE_ONLY));
    if (out[i].kind == MCK_TENSOR && !known) out[i].u.t->data = NULL;
    eval_set(e, n->outputs[i], &out[i], k && out[i].kind != MCK_UNKNOWN);
  }
}

static void eval_list(Eval *e, const Node *n) {
  const Value *v = n->outputs[0];
  const Type *el = v->type->elem;
  mck_arg a;
  memset(&a, 0, sizeof a);
  bool known = true;
  if (el && (el->kind == TY_TENSOR || el->kind == TY_OPTIONAL)) {
    a.kind = MCK_TENSORS;
    a.n = n->ninputs;
    a.u.ts = arena_alloc(e->ar, sizeof(mck_tensor *) * (size_t)(n->ninputs + 1));
    for (int i = 0; i < n->ninputs; i++) {
      const mck_arg *x = &e->vals[n->inputs[i]->id];
      a.u.ts[i] = x->kind == MCK_TENSOR ? x->u.t : NULL;
      known &= x->kind != MCK_TENSOR || e->known[n->inputs[i]->id];
    }
  } else {
    bool fl = el && el->kind == TY_FLOAT;
    a.kind = fl ? MCK_FLOATS : el && el->kind == TY_BOOL ? MCK_BOOLS : MCK_INTS;
    a.n = n->ninputs;
    if (fl) a.u.floats = arena_alloc(e->ar, sizeof(double) * (size_t)(n->ninputs + 1));
    else a.u.ints = arena_alloc(e->ar, sizeof(int64_t) * (size_t)(n->ninputs + 1));
    for (int i = 0; i < n->ninputs; i++) {
      const mck_arg *x = &e->vals[n->inputs[i]->id];
      known &= e->known[n->inputs[i]->id];
      if (fl) a.u.floats[i] = x->kind == MCK_FLOAT ? x->u.f : (double)x->u.i;
      else a.u.ints[i] = x->kind == MCK_FLOAT ? (int64_t)x->u.f : x->u.i;
    }
    if (!known) {
      a.kind = MCK_UNKNOWN;
    }
  }
  eval_set(e, v, &a, known);
}

static void eval_block(Eval *e, const Block *b, const Node *stop);

/* Walks block b with errors counted but not reported; returns whether it got through. */
static bool eval_block_quiet(Eval *e, const Block *b) {
  Diag quiet, *d = e->d;
  int errs = e->errs;
  diag_init(&quiet);
  quiet.max_errors = 0; /* nothing printed */
  e->d = &quiet;
  e->errs = 0;
  eval_block(e, b, NULL);
  bool ok = e->errs == 0;
  e->d = d;
  e->errs = errs;
  return ok;
}

static void eval_if(Eval *e, const Node *n) {
  const Value *c = n->inputs[0];
  int taken = -1;
  bool got[2] = {false, false};
  if (n->nblocks != 2 || n->ninputs < 1) {
    diag_error(e->d, n->loc, "malformed prim::If");
    e->errs++;
    return;
  }
  if (e->known[c->id] && e->vals[c->id].kind != MCK_TENSOR && e->vals[c->id].kind != MCK_UNKNOWN) {
    taken = e->vals[c->id].u.i ? 0 : 1;
    eval_block(e, n->blocks[taken], NULL);
    if (e->errs) return;
    got[taken] = true;
    got[1 - taken] = eval_block_quiet(e, n->blocks[1 - taken]);
  } else {
    for (int k = 0; k < 2; k++) got[k] = eval_block_quiet(e, n->blocks[k]);
  }
  int from = taken >= 0 ? taken : got[0] ? 0 : got[1] ? 1 : -1;
  for (int i = 0; i < n->noutputs && i < n->blocks[0]->nrets && i < n->blocks[1]->nrets; i++) {
    int k = from;
    /* at the max sizes, what follows sees the larger result: the branch not taken there may be
     * taken at a size in between, with a result up to its size at the max */
    if (e->cfg == DYN_MAX && got[0] && got[1])
      k = e->bytes[n->blocks[1]->rets[i]->id] > e->bytes[n->blocks[0]->rets[i]->id] ? 1 : 0;
    if (k >= 0) {
      const Value *r = n->blocks[k]->rets[i];
      eval_set(e, n->outputs[i], &e->vals[r->id], e->known[r->id] && taken == k);
    }
    for (int k = 0; k < 2; k++)
      if (got[k]) eval_grow(e, n->outputs[i], e->bytes[n->blocks[k]->rets[i]->id]);
  }
}

static bool same_shape(const mck_arg *a, const mck_arg *b) {
  if (a->kind != MCK_TENSOR || b->kind != MCK_TENSOR) return a->kind == b->kind;
  if (!a->u.t || !b->u.t || a->u.t->ndim != b->u.t->ndim) return false;
  for (int i = 0; i < a->u.t->ndim; i++)
    if (a->u.t->shape[i] != b->u.t->shape[i]) return false;
  return true;
}

static void eval_loop(Eval *e, const Node *n) {
  const Block *body = n->nblocks == 1 ? n->blocks[0] : NULL;
  int nc = n->ninputs - 2;
  if (!body || nc < 0 || body->nparams != nc + 1 || body->nrets != nc + 1 || n->noutputs != nc) {
    diag_error(e->d, n->loc, "malformed prim::Loop");
    e->errs++;
    return;
  }
  mck_arg it;
  memset(&it, 0, sizeof it);
  it.kind = MCK_INT; /* the iteration count is not known: 0 stands for it */
  eval_set(e, body->params[0], &it, false);
  for (int k = 0; k < nc; k++) {
    const Value *init = n->inputs[k + 2];
    eval_set(e, body->params[k + 1], &e->vals[init->id], false);
  }
  eval_block(e, body, NULL);
  if (e->errs) return;
  for (int k = 0; k < nc; k++) {
    const Value *p = body->params[k + 1], *r = body->rets[k + 1];
    if (p->type->kind == TY_TENSOR && !same_shape(&e->vals[p->id], &e->vals[r->id])) {
      eval_fail(e, n, "a loop-carried tensor comes out of an iteration with another shape than it went in with");
      return;
    }
    eval_grow(e, p, e->bytes[r->id]);
    eval_set(e, n->outputs[k], &e->vals[p->id], false);
    eval_grow(e, n->outputs[k], e->bytes[p->id]);
  }
}

/* Walks block b up to (not including) `stop`, or all of it. */
static void eval_block(Eval *e, const Block *b, const Node *stop) {
  for (const Node *n = b->first; n && n != stop && !e->errs; n = n->next) {
    const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
    if (ir_node_is(n, "prim::Constant")) {
      mck_arg a;
      bool k = kargs_constant(e->ar, n->outputs[0], &a);
      eval_set(e, n->outputs[0], &a, k);
    } else if (ir_node_is(n, "prim::ListConstruct")) {
      eval_list(e, n);
    } else if (ir_node_is(n, "prim::If")) {
      eval_if(e, n);
    } else if (ir_node_is(n, "prim::Loop")) {
      eval_loop(e, n);
    } else if (n->nblocks > 0) {
      diag_error(e->d, n->loc, "'%s' in a graph with dynamic shapes (Dims) is not supported by the C backend yet",
                 n->kind);
      if (n->py_loc) diag_note(e->d, n->loc, "from PyTorch code at %s", n->py_loc);
      e->errs++;
    } else if (op && op->kernel) {
      eval_kernel(e, n, op);
    } else if (ir_node_is(n, "mc::write_back") || ir_node_is(n, "prim::Print") || ir_node_is(n, "aten::warn") ||
               ir_node_is(n, "prim::RaiseException") || ir_node_is(n, "prim::Uninitialized")) {
      continue;
    }
    /* other structural nodes (a list op that infer has taken apart, left for dce) get no value:
     * a kernel that reads one fails at its node */
  }
}

static int eval_graph(Graph *g, int cfg, const Node *stop, Eval *e, Diag *d) {
  memset(e, 0, sizeof *e);
  e->g = g;
  e->ar = arena_new();
  e->nvalues = g->next_value_id + 1;
  e->vals = arena_alloc(e->ar, sizeof(mck_arg) * (size_t)e->nvalues);
  e->known = arena_alloc(e->ar, sizeof(bool) * (size_t)e->nvalues);
  memset(e->vals, 0, sizeof(mck_arg) * (size_t)e->nvalues);
  for (int i = 0; i < e->nvalues; i++) e->vals[i].kind = MCK_UNKNOWN; /* values not computed */
  memset(e->known, 0, sizeof(bool) * (size_t)e->nvalues);
  e->bytes = arena_alloc(e->ar, sizeof(size_t) * (size_t)e->nvalues);
  memset(e->bytes, 0, sizeof(size_t) * (size_t)e->nvalues);
  e->sized = arena_alloc(e->ar, (size_t)e->nvalues);
  memset(e->sized, 0, (size_t)e->nvalues);
  e->cfg = cfg;
  e->d = d;
  const Block *top = g->top;
  for (int i = 0; i < top->nparams; i++) {
    const Value *p = top->params[i];
    mck_arg a;
    memset(&a, 0, sizeof a);
    if (p->type->kind == TY_TENSOR) {
      a.kind = MCK_TENSOR;
      a.u.t = kargs_tensor(e->ar, p);
      for (int k = 0; k < a.u.t->ndim; k++) {
        const IrDim *dm = dyn_input_dim(g, p, k);
        if (dm) a.u.t->shape[k] = dim_size(dm, cfg, p->type->shape[k]);
      }
      mck_contiguous_strides(a.u.t);
    } else {
      a.kind = MCK_UNKNOWN;
    }
    eval_set(e, p, &a, false);
  }
  eval_block(e, top, stop);
  return e->errs;
}

static bool same_arg(const mck_arg *a, const mck_arg *b, bool ka, bool kb) {
  if (a->kind != b->kind) return false;
  if (a->kind == MCK_TENSOR) {
    const mck_tensor *x = a->u.t, *y = b->u.t;
    if (!x || !y || x->ndim != y->ndim || x->dtype != y->dtype) return false;
    for (int i = 0; i < x->ndim; i++)
      if (x->shape[i] != y->shape[i]) return false;
    return true;
  }
  if (!ka || !kb) return ka == kb;
  if (a->kind == MCK_INTS || a->kind == MCK_BOOLS) {
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
      if (a->u.ints[i] != b->u.ints[i]) return false;
    return true;
  }
  if (a->kind == MCK_FLOATS) {
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
      if (a->u.floats[i] != b->u.floats[i]) return false;
    return true;
  }
  if (a->kind == MCK_FLOAT) return a->u.f == b->u.f;
  return a->u.i == b->u.i;
}

/* Propagates `varies` from inputs to outputs through block b; inside control flow (`nested`)
 * every value varies: a branch or an iteration may give it another shape at each run. */
static void mark_varies(const Block *b, DynInfo *info, bool nested) {
  for (int i = 0; nested && i < b->nparams; i++) info->varies[b->params[i]->id] = 1;
  for (const Node *n = b->first; n; n = n->next) {
    bool v = nested || n->nblocks > 0;
    for (int i = 0; i < n->ninputs; i++) v |= info->varies[n->inputs[i]->id] != 0;
    for (int k = 0; k < n->nblocks; k++) mark_varies(n->blocks[k], info, true);
    if (v)
      for (int i = 0; i < n->noutputs; i++) info->varies[n->outputs[i]->id] = 1;
  }
}

int dyn_analyse(Graph *g, DynInfo *info, Diag *d) {
  memset(info, 0, sizeof *info);
  info->nvalues = g->next_value_id + 1;
  info->bytes = calloc((size_t)info->nvalues, sizeof *info->bytes);
  info->varies = calloc((size_t)info->nvalues, 1);
  info->max_shape = calloc((size_t)info->nvalues, sizeof *info->max_shape);
  info->hi_shape = calloc((size_t)info->nvalues, sizeof *info->hi_shape);
  if (!info->bytes || !info->varies || !info->max_shape || !info->hi_shape) {
    diag_error(d, g->loc, "out of memory");
    return 1;
  }
  Eval ev[DYN_NCFG];
  int errs = 0, done = 0;
  for (int c = 0; c < DYN_NCFG && !errs; c++, done++) errs += eval_graph(g, c, NULL, &ev[c], d);
  for (int id = 0; !errs && id < info->nvalues; id++) {
    for (int c = 0; c < DYN_NCFG; c++) {
      const mck_arg *a = &ev[c].vals[id];
      if (ev[c].bytes[id] > info->bytes[id]) info->bytes[id] = ev[c].bytes[id];
      if (a->kind == MCK_TENSOR && a->u.t) {
        if (c == DYN_MAX)
          for (int k = 0; k < a->u.t->ndim && k < IR_MAX_DIMS; k++) info->max_shape[id][k] = a->u.t->shape[k];
        for (int k = 0; k < a->u.t->ndim && k < IR_MAX_DIMS; k++)
          if (a->u.t->shape[k] > info->hi_shape[id][k]) info->hi_shape[id][k] = a->u.t->shape[k];
      }
      if (c > 0 && !same_arg(a, &ev[0].vals[id], ev[c].known[id], ev[0].known[id])) info->varies[id] = 1;
      if (ev[c].sized[id]) info->varies[id] = 1;
    }
  }
  /* a value computed from one that varies varies too (a coincidence of sizes is not a proof) */
  if (!errs) mark_varies(g->top, info, false);
  for (int c = 0; c < done; c++) arena_free(ev[c].ar);
  return errs;
}

void dyn_info_free(DynInfo *info) {
  free(info->bytes);
  free(info->varies);
  free(info->max_shape);
  free(info->hi_shape);
  memset(info, 0, sizeof *info);
}

static void hi_value(Graph *g, const DynInfo *info, Value *v, Type **saved) {
  if (v->id < 0 || v->id >= info->nvalues || saved[v->id] || !info->varies[v->id] || v->type->kind != TY_TENSOR ||
      v->type->ndim <= 0)
    return;
  const int64_t *hi = info->hi_shape[v->id];
  bool seen = false;
  for (int k = 0; k < v->type->ndim; k++) seen |= hi[k] > 0;
  if (!seen) return; /* not evaluated at any assignment: its example type stands */
  Type *t = ir_type_copy(g->arena, v->type);
  for (int k = 0; k < t->ndim; k++)
    if (hi[k] > t->shape[k]) t->shape[k] = hi[k];
  t->has_strides = false;
  saved[v->id] = v->type;
  v->type = t;
}

static void hi_block(Graph *g, const DynInfo *info, Block *b, Type **saved) {
  for (int i = 0; i < b->nparams; i++) hi_value(g, info, b->params[i], saved);
  for (Node *n = b->first; n; n = n->next) {
    for (int k = 0; k < n->nblocks; k++) hi_block(g, info, n->blocks[k], saved);
    for (int i = 0; i < n->noutputs; i++) hi_value(g, info, n->outputs[i], saved);
  }
}

Type **dyn_types_at_hi(Graph *g, const DynInfo *info) {
  Type **saved = calloc((size_t)info->nvalues + 1, sizeof *saved);
  if (saved) hi_block(g, info, g->top, saved);
  return saved;
}

static void restore_block(Block *b, Type **saved, int nvalues) {
  for (int i = 0; i < b->nparams; i++)
    if (b->params[i]->id < nvalues && saved[b->params[i]->id]) b->params[i]->type = saved[b->params[i]->id];
  for (Node *n = b->first; n; n = n->next) {
    for (int k = 0; k < n->nblocks; k++) restore_block(n->blocks[k], saved, nvalues);
    for (int i = 0; i < n->noutputs; i++)
      if (n->outputs[i]->id < nvalues && saved[n->outputs[i]->id]) n->outputs[i]->type = saved[n->outputs[i]->id];
  }
}

void dyn_types_put_back(Graph *g, Type **saved) {
  if (!saved) return;
  restore_block(g->top, saved, g->next_value_id + 1);
  free(saved);
}

bool dyn_extent_fixed(Graph *g, const Value *v, int axis, const Node *stop) {
  Diag quiet;
  diag_init(&quiet);
  quiet.max_errors = 0; /* nothing printed */
  int64_t ext[DYN_NCFG];
  bool ok = true;
  for (int c = 0; c < DYN_NCFG && ok; c++) {
    Eval e;
    if (eval_graph(g, c, stop, &e, &quiet) || v->id >= e.nvalues || e.vals[v->id].kind != MCK_TENSOR ||
        !e.vals[v->id].u.t || axis >= e.vals[v->id].u.t->ndim)
      ok = false;
    else
      ext[c] = e.vals[v->id].u.t->shape[axis];
    arena_free(e.ar);
  }
  return ok && ext[1] == ext[0] && ext[2] == ext[0];
}
