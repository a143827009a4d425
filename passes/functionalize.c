/* functionalize.c — the `functionalize` pass: turns the reference semantics of a traced or
 * scripted graph (views share storage, `*_` ops write it) into value semantics (every value
 * immutable) plus one explicit `mc::write_back(%input, %final)` per graph input the model
 * mutates. PyTorch's functionalization (FunctionalInverses.cpp) and ONNX export's
 * remove_inplace_ops_for_onnx are the models.
 *
 * The pass walks the top block in program order and keeps, for every tensor value it has seen,
 * a Member: its Storage (the root value the memory began as: a graph input, a constant or a
 * fresh result) and the chain of view nodes that leads from the root to it. A Storage knows
 * its current value (`cur`) and the members that may still be read. An in-place op
 * `y = op_(v, ...)` whose target v has chain c1..ck becomes:
 *   nv  = functional twin applied to v (copy_: src cast to v's dtype, expanded to its shape),
 *         cast / expanded back to v's type when the twin promotes or broadcasts;
 *   b0  = cur, b(i) = c(i)(b(i-1))          the bases, re-derived from the current root;
 *   w   = nv; for i = k..1: w = inverse of c(i) scattering w into b(i-1)
 *         (slice_scatter, select_scatter, diagonal_scatter, inverse permutation, reshape back);
 *   cur = w.
 * Every member still read after the write is re-derived from the new root by replaying its
 * chain, and its later uses (nested blocks and returns included) are redirected; y's uses read
 * nv. Lists and tuples that hold a member and are read later are rebuilt the same way, since
 * they hold references. A source overlapping its destination reads the old values, because the
 * functional computation reads them. Every node this pass creates goes before the write and is
 * typed by running its kernel in meta mode; the write node is removed.
 *
 * The new root keeps the root's layout (contiguous when the root was), and the written view's
 * later uses read a view of the new root.
 *
 * Blocks: first, a loop-carried tensor every trip returns as itself, and an If output every
 * branch returns as the same outer tensor, are replaced by that tensor (resolve_block_identities).
 * A top-level write to an If output that may be one of several tensors is rewritten as above for
 * the output, plus a second If on the same condition that gives each candidate storage its new
 * value (write_candidates). Writes inside blocks keep reference semantics: their targets are
 * redirected to the current versions like every other use, so they write the memory that later
 * reads (and the write-backs) read, and the C backend and the interpreter execute them as
 * written; one whose target is an If output that may be several tensors (a copy in C) is also
 * applied to the candidate the If returned, under the same condition (lift_block_write).
 *
 * Invariants after the pass: outside prim::If / prim::Loop blocks no EFF_WRITE node remains
 * except mc::write_back (list appends are not tensor writes and stay); the remaining views are
 * pure reads; every graph output is compact row-major and none reads an input's memory that a
 * write-back overwrites. Where aliasing cannot be resolved the pass refuses with a located error
 * instead of guessing: writes through as_strided, an unknown view or a broadcasting expand that
 * later slice / select / narrow steps do not cut to one index per broadcast dim, writes
 * into a tensor whose elements overlap in memory (PyTorch refuses these too), writes to storage
 * a live block output may alias, writes inside a block to a loop-carried copy of a tensor
 * observed elsewhere (check_block_writes), and writes to If outputs whose candidates cannot be
 * traced back (if_candidates).
 *
 * The view/copy decision of reshape-like ops (OPF_MAYBE_VIEW) is taken once, from the strides
 * the graph had before the pass, so rewriting a base never turns a copy into an alias.
 * Scratch: Value->aux holds a value's Member, Node->aux marks maybe-view nodes that are views;
 * both are cleared before returning.
 */
#include "functionalize_int.h"
#include "kargs.h"

#include <string.h>

static const char *const MAYBE_VIEW_MARK = "view";

/* ---- small helpers ---------------------------------------------------------------------- */
const OpDef *fz_op_of(const Node *n) { return n->op ? n->op : ops_lookup(n->kind); }

void fz_error(Fz *F, const Node *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(F->c->diag, n->loc, fmt, ap);
  va_end(ap);
  if (n->py_loc) diag_note(F->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
  F->errs++;
}

bool fz_is_tensor(const Value *v) { return v->type && v->type->kind == TY_TENSOR; }

bool fz_is_write(const Node *n) {
  const OpDef *op = fz_op_of(n);
  return op && op->effect == EFF_WRITE && !ir_node_is(n, "mc::write_back") && !ir_node_is(n, "aten::append");
}

/* Whether n's output 0 shares storage with its input `effect_arg` (a view, not a write). */
bool fz_is_view(const Node *n) {
  const OpDef *op = fz_op_of(n);
  if (!op || n->noutputs < 1 || !fz_is_tensor(n->outputs[0])) return false;
  if (op->flags & OPF_MAYBE_VIEW) return n->aux == MAYBE_VIEW_MARK;
  return op->effect == EFF_VIEW && op->effect_arg < n->ninputs;
}

static void clear_aux(Block *b) {
  for (int i = 0; i < b->nparams; i++) b->params[i]->aux = NULL;
  for (Node *n = b->first; n; n = n->next) {
    n->aux = NULL;
    for (int i = 0; i < n->noutputs; i++) n->outputs[i]->aux = NULL;
    for (int k = 0; k < n->nblocks; k++) clear_aux(n->blocks[k]);
  }
}

static bool uses_in_block(const Block *b, const Value *v) {
  for (const Node *n = b->first; n; n = n->next) {
    for (int i = 0; i < n->ninputs; i++)
      if (n->inputs[i] == v) return true;
    for (int k = 0; k < n->nblocks; k++)
      if (uses_in_block(n->blocks[k], v)) return true;
  }
  for (int i = 0; i < b->nrets; i++)
    if (b->rets[i] == v) return true;
  return false;
}

/* Whether v is read by a node after `pos` (a top-block node), nested blocks included, or by the
 * top block's returns. */
bool fz_used_after(const Value *v, const Node *pos) {
  for (const Node *n = pos->next; n; n = n->next) {
    for (int i = 0; i < n->ninputs; i++)
      if (n->inputs[i] == v) return true;
    for (int k = 0; k < n->nblocks; k++)
      if (uses_in_block(n->blocks[k], v)) return true;
  }
  const Block *top = pos->owner;
  for (int i = 0; i < top->nrets; i++)
    if (top->rets[i] == v) return true;
  return false;
}

/* ---- typing new nodes by running their kernels in meta mode ----------------------------- */
static void meta_tensor_of(const Value *v, mck_tensor *t) {
  memset(t, 0, sizeof *t);
  const Type *ty = v->type;
  const Attr *c = ir_constant_attr(v);
  if ((ty->ndim < 0 || ty->dtype == DT_UNDEF) && c && c->kind == ATTR_TENSOR && c->t) {
    t->dtype = c->t->dtype;
    t->ndim = c->t->ndim;
    for (int i = 0; i < t->ndim; i++) t->shape[i] = c->t->shape[i];
    mck_contiguous_strides(t);
    return;
  }
  kargs_tensor_of_type(t, ty);
}

static void meta_arg(Fz *F, const Value *v, mck_arg *a) {
  memset(a, 0, sizeof *a);
  if (ir_is_constant(v)) {
    const Attr *c = ir_constant_attr(v);
    if (!c || c->kind == ATTR_NONE) {
      a->kind = MCK_NONE;
      return;
    }
    switch (c->kind) {
    case ATTR_INT: a->kind = MCK_INT; a->u.i = c->i; return;
    case ATTR_BOOL: a->kind = MCK_BOOL_ARG; a->u.i = c->i; return;
    case ATTR_FLOAT: a->kind = MCK_FLOAT; a->u.f = c->f; return;
    case ATTR_INTS: a->kind = MCK_INTS; a->n = c->n; a->u.ints = c->ints; return;
    case ATTR_BOOLS: a->kind = MCK_BOOLS; a->n = c->n; a->u.ints = c->ints; return;
    case ATTR_FLOATS: a->kind = MCK_FLOATS; a->n = c->n; a->u.floats = c->floats; return;
    case ATTR_STR: a->kind = MCK_STR; a->u.s = c->s; return;
    case ATTR_DEVICE: a->kind = MCK_DEVICE; a->u.s = c->s; return;
    default: break;
    }
  }
  if (fz_is_tensor(v)) {
    a->kind = MCK_TENSOR;
    a->u.t = arena_alloc(F->ar, sizeof(mck_tensor));
    meta_tensor_of(v, a->u.t);
    return;
  }
  if (v->type->kind == TY_LIST && v->def && ir_node_is(v->def, "prim::ListConstruct")) {
    const Node *d = v->def;
    const Type *el = v->type->elem;
    if (el && (el->kind == TY_TENSOR || el->kind == TY_OPTIONAL)) {
      a->kind = MCK_TENSORS;
      a->n = d->ninputs;
      a->u.ts = arena_alloc(F->ar, sizeof(mck_tensor *) * (size_t)(d->ninputs + 1));
      for (int i = 0; i < d->ninputs; i++) {
        if (ir_constant_is_none(d->inputs[i])) continue;
        a->u.ts[i] = arena_alloc(F->ar, sizeof(mck_tensor));
        meta_tensor_of(d->inputs[i], a->u.ts[i]);
      }
      return;
    }
  }
  a->kind = MCK_UNKNOWN;
}

/* Types node n's tensor outputs; reports through `like` (the write being rewritten). */
static bool type_node(Fz *F, Node *n, const Node *like) {
  const OpDef *op = n->op;
  if (!op->kernel) return true;
  mck_arg *in = arena_alloc(F->ar, sizeof(mck_arg) * (size_t)(n->ninputs + 1));
  mck_arg *out = arena_alloc(F->ar, sizeof(mck_arg) * (size_t)(n->noutputs + 1));
  for (int i = 0; i < n->ninputs; i++) meta_arg(F, n->inputs[i], &in[i]);
  for (int i = 0; i < n->noutputs; i++) {
    out[i].kind = MCK_TENSOR;
    out[i].u.t = arena_alloc(F->ar, sizeof(mck_tensor));
  }
  mck_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.meta = 1;
  if (op->kernel(&ctx, out, n->noutputs, in, n->ninputs) != 0) {
    fz_error(F, like, "functionalizing '%s': %s", like->kind, ctx.err[0] ? ctx.err : "invalid arguments");
    return false;
  }
  for (int i = 0; i < n->noutputs; i++) {
    if (out[i].kind != MCK_TENSOR) continue;
    const mck_tensor *t = out[i].u.t;
    Type *ty = ir_type_new(F->g->arena, TY_TENSOR);
    ty->dtype = (DType)t->dtype;
    ty->ndim = t->ndim;
    for (int d = 0; d < t->ndim; d++) {
      ty->shape[d] = t->shape[d];
      ty->strides[d] = t->stride[d];
    }
    if (t->offset == -1) ir_contiguous_strides(t->ndim, t->shape, ty->strides);
    ty->has_strides = true;
    ty->requires_grad = 0;
    ty->device = "cpu";
    n->outputs[i]->type = ty;
  }
  return true;
}

/* Whether a maybe-view node (reshape, flatten, contiguous) is a view for its input's strides:
 * its kernel, run in meta mode, says so by leaving the output's offset at 0 or more. */
static bool maybe_view_is_view(Fz *F, Node *n) {
  const OpDef *op = n->op;
  if (!op->kernel || n->noutputs < 1 || op->effect_arg >= n->ninputs || !fz_is_tensor(n->inputs[op->effect_arg]) ||
      !ir_type_is_complete_tensor(n->inputs[op->effect_arg]->type))
    return false;
  mck_arg *in = arena_alloc(F->ar, sizeof(mck_arg) * (size_t)(n->ninputs + 1));
  mck_arg out[1];
  for (int i = 0; i < n->ninputs; i++) meta_arg(F, n->inputs[i], &in[i]);
  out[0].kind = MCK_TENSOR;
  out[0].u.t = arena_alloc(F->ar, sizeof(mck_tensor));
  mck_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.meta = 1;
  return op->kernel(&ctx, out, 1, in, n->ninputs) == 0 && out[0].u.t->offset != -1;
}

static void mark_maybe_views(Fz *F, Block *b) {
  for (Node *n = b->first; n; n = n->next) {
    const OpDef *op = fz_op_of(n);
    n->op = op;
    if (op && (op->flags & OPF_MAYBE_VIEW) && maybe_view_is_view(F, n)) n->aux = (void *)MAYBE_VIEW_MARK;
    for (int k = 0; k < n->nblocks; k++) mark_maybe_views(F, n->blocks[k]);
  }
}

/* ---- building nodes (all inserted before the write `at`) -------------------------------- */
Value *fz_cint(Fz *F, Node *at, int64_t x) {
  Node *c = ir_make_constant_int(F->g, x, at->loc);
  ir_insert_before(at, c);
  return c->outputs[0];
}

static Value *cbool(Fz *F, Node *at, bool x) {
  Node *c = ir_make_constant_bool(F->g, x, at->loc);
  ir_insert_before(at, c);
  return c->outputs[0];
}

Value *fz_cnone(Fz *F, Node *at) {
  Node *c = ir_make_constant_none(F->g, at->loc);
  ir_insert_before(at, c);
  return c->outputs[0];
}

Value *fz_cints(Fz *F, Node *at, const int64_t *xs, int n) {
  Node *c = ir_make_constant_ints(F->g, xs, n, at->loc);
  ir_insert_before(at, c);
  return c->outputs[0];
}

/* A one-output node of `kind`, typed; NULL (reported) when the op is unknown or rejects. */
Value *fz_emit(Fz *F, Node *at, const char *kind, Value **ins, int nin) {
  const OpDef *op = ops_lookup(kind);
  if (!op) {
    fz_error(F, at, "functionalizing '%s' needs '%s', which is not in the op table", at->kind, kind);
    return NULL;
  }
  Node *n = ir_node_new(F->g, kind, ins, nin, 1, NULL);
  n->op = op;
  n->loc = at->loc;
  n->py_loc = at->py_loc;
  n->scope = at->scope;
  ir_insert_before(at, n);
  if (!type_node(F, n, at)) return NULL;
  return n->outputs[0];
}

/* Replays view node `step` on a new base. */
Value *fz_replay(Fz *F, Node *at, const Node *step, Value *base) {
  const OpDef *op = fz_op_of(step);
  Value **ins = arena_alloc(F->ar, sizeof(Value *) * (size_t)(step->ninputs + 1));
  for (int i = 0; i < step->ninputs; i++) ins[i] = step->inputs[i];
  ins[op->effect_arg] = base;
  return fz_emit(F, at, step->kind, ins, step->ninputs);
}

bool fz_same_shape(const Type *a, const Type *b) {
  if (a->ndim != b->ndim) return false;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

/* v cast to the dtype of `like` and broadcast to its shape, as copy_ stores a source. In a
 * dynamic graph (Dims, or sizes from the data) like's type gives its shape at the example only:
 * the broadcast is then expand_as(v, like), which takes the shape at run time. */
Value *fz_conform(Fz *F, Node *at, Value *v, Value *like_v) {
  const Type *like = like_v->type;
  if (!v) return NULL;
  if (v->type->dtype != like->dtype) {
    Value *ins[5] = {v, fz_cint(F, at, ir_dtype_to_scalar_type(like->dtype)), cbool(F, at, false),
                     cbool(F, at, false), fz_cnone(F, at)};
    v = fz_emit(F, at, "aten::to", ins, 5);
    if (!v) return NULL;
  }
  if (!fz_same_shape(v->type, like) && ir_graph_is_dynamic(F->g)) {
    Value *ins[2] = {v, like_v};
    v = fz_emit(F, at, "aten::expand_as", ins, 2);
  } else if (!fz_same_shape(v->type, like)) {
    Value *ins[3] = {v, fz_cints(F, at, like->shape, like->ndim), cbool(F, at, false)};
    v = fz_emit(F, at, "aten::expand", ins, 3);
  }
  return v;
}

/* Whether t is laid out row-major without gaps (size-1 dims' strides do not count). */
bool fz_compact(const Type *t) {
  if (!t || t->kind != TY_TENSOR || !t->has_strides || t->ndim < 0) return true;
  int64_t want = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    if (t->shape[i] != 1 && t->strides[i] != want) return false;
    want *= t->shape[i];
  }
  return true;
}

/* ---- members and storages ---------------------------------------------------------------- */
static Storage *storage_new(Fz *F, Value *root) {
  Storage *s = arena_alloc(F->ar, sizeof *s);
  s->root = root;
  s->cur = root;
  s->next = F->stores;
  F->stores = s;
  return s;
}

Member *fz_member_add(Fz *F, Storage *s, Value *v, Node **steps, int nsteps) {
  Member *m = arena_alloc(F->ar, sizeof *m);
  m->v = v;
  m->s = s;
  m->nsteps = nsteps;
  m->steps = steps;
  if (s->nmembers == s->capmembers) {
    int cap = s->capmembers ? 2 * s->capmembers : 8;
    Member **ms = arena_alloc(F->ar, sizeof(Member *) * (size_t)cap);
    if (s->nmembers) memcpy(ms, s->members, sizeof(Member *) * (size_t)s->nmembers);
    s->members = ms;
    s->capmembers = cap;
  }
  s->members[s->nmembers++] = m;
  v->aux = m;
  return m;
}

/* The member record of v, making v the root of a new storage when it is not known yet. */
Member *fz_member_of(Fz *F, Value *v) {
  if (v->aux) return v->aux;
  return fz_member_add(F, storage_new(F, v), v, NULL, 0);
}

void fz_container_add(Fz *F, Storage *s, Node *n) {
  for (int i = 0; i < s->ncontainers; i++)
    if (s->containers[i] == n) return;
  if (s->ncontainers == s->capcontainers) {
    int cap = s->capcontainers ? 2 * s->capcontainers : 4;
    Node **ns = arena_alloc(F->ar, sizeof(Node *) * (size_t)cap);
    if (s->ncontainers) memcpy(ns, s->containers, sizeof(Node *) * (size_t)s->ncontainers);
    s->containers = ns;
    s->capcontainers = cap;
  }
  s->containers[s->ncontainers++] = n;
}

/* ---- control flow -------------------------------------------------------------------------- */


static void mark_ambiguous(Fz *F, Value *v, Storage **maybe, int nmaybe) {
  Storage *s = storage_new(F, v);
  fz_member_add(F, s, v, NULL, 0);
  s->ambiguous = true;
  s->nmaybe = nmaybe;
  if (nmaybe > 0) s->maybe = arena_memdup(F->ar, maybe, sizeof(Storage *) * (size_t)nmaybe);
}

/* v followed back through views and in-place results defined inside blocknode. */
static Value *trace_inside(Value *v, const Node *blocknode) {
  for (int guard = 0; guard < 100000 && v->def && v->index == 0 && fz_defined_inside(v, blocknode) &&
                      (fz_is_view(v->def) || fz_is_write(v->def));
       guard++)
    v = v->def->inputs[fz_op_of(v->def)->effect_arg];
  return v;
}

/* Whether value v (what a loop-carried tensor starts as or becomes), traced back, is a tensor
 * whose memory a write to the loop's copy of it would have to reach: an outer tensor that is a
 * graph input, may alias through control flow, or is read after top-level node `top`. */
static bool carried_observed(Fz *F, Value *v, const Node *loop, const Node *top) {
  v = trace_inside(v, loop);
  if (fz_defined_inside(v, loop)) return !v->def; /* a fresh tensor of the body, or another carried one */
  v = trace_inside(v, top);
  if (fz_defined_inside(v, top)) return !v->def;
  Member *m = v->aux;
  if (!m) return v->param_of == F->g->top;
  if (m->s->ambiguous || m->s->root->param_of == F->g->top) return true;
  for (int i = 0; i < m->s->nmembers; i++)
    if (fz_used_after(m->s->members[i]->v, top)) return true;
  return false;
}

/* Write d, inside the blocks of top-level node `top`, writes r (member m of the ambiguous
 * storage of a prim::If result, which the C backend holds as a copy). The write stays (it keeps
 * the copy current) and, right before it, a prim::If on the same condition as the one that
 * made r applies the same write to the tensor that If returned, through the same views: both
 * happen by reference at run time, so the tensor PyTorch writes is written. */
static bool lift_block_write(Fz *F, Node *d, Member *m, Value *r, const Node *top) {
  Storage *s = m->s;
  Node *ifn = s->root->def;
  if (!ifn || !ir_node_is(ifn, "prim::If") || ifn->nblocks != 2 || ifn->owner != F->g->top || s->nmaybe < 0) {
    fz_error(F, d, "'%s' inside a block writes the result of '%s' (line %d), which may alias other tensors through a "
             "loop or a list; not supported yet", d->kind, ifn ? ifn->kind : "?", ifn ? ifn->loc.line : 0);
    return false;
  }
  Cand cands[2];
  if (!fz_if_candidates(F, d, s, cands)) return false;
  for (int k = 0; k < 2; k++)
    if (cands[k].m && fz_ambiguous_alias(F, cands[k].m->s, (Node *)top, s)) return false;
  /* the views from r to the written tensor, inside top */
  int ea = fz_op_of(d)->effect_arg;
  Node *rev[64];
  int nrev = 0;
  for (Value *v = d->inputs[ea]; v != r && nrev < 64; v = v->def->inputs[fz_op_of(v->def)->effect_arg]) {
    if (!v->def) return true; /* cannot happen: v traces back to r */
    if (fz_is_view(v->def)) {
      if (!fz_step_invertible(F, d, v->def)) return false;
      rev[nrev++] = v->def;
    }
  }
  if (nrev == 64) {
    fz_error(F, d, "'%s' writes through too many views; not supported", d->kind);
    return false;
  }
  Value *cond = ifn->inputs[0];
  Node *ifc = ir_node_new(F->g, "prim::If", &cond, 1, 0, NULL);
  ifc->op = ops_lookup("prim::If");
  ifc->loc = d->loc;
  ifc->py_loc = d->py_loc;
  ir_insert_before(d, ifc);
  for (int k = 0; k < 2; k++) {
    Block *b = ir_node_add_block(ifc);
    if (!cands[k].m) continue;
    Node *at = ir_make_constant_none(F->g, d->loc);
    ir_append(b, at);
    Value *x = cands[k].m->s->cur;
    for (int i = 0; i < cands[k].nsteps && x; i++) x = fz_replay(F, at, cands[k].steps[i], x);
    for (int i = 0; i < m->nsteps && x; i++) x = fz_replay(F, at, m->steps[i], x);
    for (int i = nrev - 1; i >= 0 && x; i--) x = fz_replay(F, at, rev[i], x);
    if (!x) return false;
    Value **ins = arena_alloc(F->ar, sizeof(Value *) * (size_t)(d->ninputs + 1));
    Type **types = arena_alloc(F->ar, sizeof(Type *) * (size_t)(d->noutputs + 1));
    for (int i = 0; i < d->ninputs; i++) ins[i] = d->inputs[i];
    for (int i = 0; i < d->noutputs; i++) types[i] = d->outputs[i]->type;
    ins[ea] = x;
    Node *dw = ir_node_new(F->g, d->kind, ins, d->ninputs, d->noutputs, types);
    dw->op = d->op;
    dw->loc = d->loc;
    dw->py_loc = d->py_loc;
    dw->scope = d->scope;
    ir_insert_before(at, dw);
    ir_remove(at);
  }
  return true;
}

/* Writes inside the blocks of top-level node `top` keep reference semantics; refuses those whose
 * target the C backend holds as a copy while the tensor it stands for is observed elsewhere: a
 * prim::If result that may alias other tensors, or a loop-carried tensor that starts as or
 * becomes such a tensor. */
static bool check_block_writes(Fz *F, const Block *b, const Node *top) {
  for (const Node *d = b->first; d; d = d->next) {
    for (int k = 0; k < d->nblocks; k++)
      if (!check_block_writes(F, d->blocks[k], top)) return false;
    if (!fz_is_write(d) || fz_op_of(d)->effect_arg >= d->ninputs || !fz_is_tensor(d->inputs[fz_op_of(d)->effect_arg])) continue;
    Value *r = trace_inside(d->inputs[fz_op_of(d)->effect_arg], top);
    if (!fz_defined_inside(r, top)) {
      Member *m = r->aux;
      if (m && m->s->ambiguous && !lift_block_write(F, (Node *)d, m, r, top)) return false;
      continue;
    }
    if (r->def || !r->param_of || !r->param_of->owner || !ir_node_is(r->param_of->owner, "prim::Loop") ||
        r->index < 1)
      continue;
    const Node *loop = r->param_of->owner;
    const Block *body = r->param_of;
    if (r->index + 1 >= loop->ninputs || r->index >= body->nrets) continue;
    if (carried_observed(F, loop->inputs[r->index + 1], loop, top) || carried_observed(F, body->rets[r->index], loop, top)) {
      fz_error(F, (Node *)d, "'%s' writes the loop-carried tensor %%%s, which may alias a tensor that is an input, "
               "is read after the loop or comes out of control flow; writes through such loop-carried aliases are "
               "not supported yet", d->kind, r->name);
      return false;
    }
  }
  return true;
}

/* Marks tensor outputs of a node with blocks that may alias outer storage as ambiguous. */
static void visit_block_node(Fz *F, Node *n) {
  for (int o = 0; o < n->noutputs; o++) {
    Value *out = n->outputs[o];
    if (!fz_is_tensor(out)) continue;
    Storage *maybe[8];
    int nmaybe = 0;
    bool any = false;
    for (int k = 0; k < n->nblocks; k++) {
      Block *b = n->blocks[k];
      int ri = o + (ir_node_is(n, "prim::Loop") ? 1 : 0);
      if (ri >= b->nrets) continue;
      const Value *r = b->rets[ri];
      while (fz_defined_inside(r, n) && r->def) {
        const Node *d = r->def;
        if (r->index != 0 || !(fz_is_view(d) || fz_is_write(d))) break;
        r = d->inputs[fz_op_of(d)->effect_arg];
      }
      if (fz_defined_inside(r, n) && r->def) continue; /* a fresh value */
      if (fz_defined_inside(r, n) || !fz_is_tensor(r)) {
        any = true; /* a loop-carried block parameter */
        continue;
      }
      Storage *s = fz_member_of(F, (Value *)r)->s;
      if (s->ambiguous) any = true;
      if (nmaybe < 8) maybe[nmaybe++] = s;
      else any = true;
    }
    if (any || nmaybe) mark_ambiguous(F, out, maybe, any ? -1 : nmaybe);
  }
}

/* Values that alias storage in a way the pass does not track precisely: tensors taken out of a
 * list or tuple by a runtime index, and lists of views (split, chunk, unbind). They become
 * ambiguous storages; writing them, or writing what they may alias while they are live, is
 * refused. */
/* Whether list l is appended to anywhere (its elements then are not just its constructor's). */
static bool list_appended(const Block *b, const Value *l) {
  for (const Node *n = b->first; n; n = n->next) {
    if (ir_node_is(n, "aten::append") && n->ninputs > 0 && n->inputs[0] == l) return true;
    for (int k = 0; k < n->nblocks; k++)
      if (list_appended(n->blocks[k], l)) return true;
  }
  return false;
}

static void visit_container_read(Fz *F, Node *n, const OpDef *op) {
  Storage *maybe[8];
  int nmaybe = 0;
  bool any = false;
  if (op->effect == EFF_VIEW) { /* a list of views of input effect_arg */
    Value *base = n->inputs[op->effect_arg];
    if (!fz_is_tensor(base)) return;
    maybe[nmaybe++] = fz_member_of(F, base)->s;
  } else {
    Value *l = n->inputs[0];
    if (l->aux && ((Member *)l->aux)->s->ambiguous) {
      Storage *a = ((Member *)l->aux)->s;
      any = a->nmaybe < 0;
      for (int i = 0; i < a->nmaybe; i++) maybe[nmaybe++] = a->maybe[i];
    } else if (l->def && ir_node_is(l->def, "prim::ListConstruct") && list_appended(F->g->top, l)) {
      any = true; /* elements appended at run time: may be anything */
    } else if (l->def && (ir_node_is(l->def, "prim::ListConstruct") || ir_node_is(l->def, "prim::TupleConstruct"))) {
      for (int i = 0; i < l->def->ninputs; i++) {
        if (!fz_is_tensor(l->def->inputs[i])) continue;
        if (nmaybe < 8) maybe[nmaybe++] = fz_member_of(F, l->def->inputs[i])->s;
        else any = true;
      }
    } else if (l->param_of || (l->def && !ir_is_constant(l))) {
      any = true;
    }
  }
  if (!any && nmaybe == 0) return;
  for (int o = 0; o < n->noutputs; o++)
    if (fz_is_tensor(n->outputs[o]) || op->effect == EFF_VIEW) mark_ambiguous(F, n->outputs[o], maybe, any ? -1 : nmaybe);
}

/* ---- the same tensor object through blocks ------------------------------------------------ */
/* The value r stands for, followed back through in-place results (an in-place op returns the
 * tensor it wrote) defined inside blocknode. */
static Value *same_object(Value *r, const Node *blocknode) {
  for (int guard = 0; guard < 100000 && r->def && fz_defined_inside(r, blocknode) && r->index == 0 && fz_is_write(r->def);
       guard++)
    r = r->def->inputs[fz_op_of(r->def)->effect_arg];
  return r;
}

/* Replaces `from` by `to` in the inputs of b's nodes (nested blocks included), not in returns. */
static void replace_node_inputs(Block *b, const Value *from, Value *to) {
  for (Node *n = b->first; n; n = n->next) {
    for (int i = 0; i < n->ninputs; i++)
      if (n->inputs[i] == from) ir_node_set_input(n, i, to);
    for (int k = 0; k < n->nblocks; k++) replace_node_inputs(n->blocks[k], from, to);
  }
}

/* In reference semantics a loop-carried tensor that every trip returns as itself (`a = x`,
 * then `a += 1` or `x = x.mul_(2)` in the loop) is its initial value on every trip, and a
 * prim::If output that every branch returns as the same outer tensor is that tensor. Their
 * uses are redirected to it, so writes inside the blocks write the tensor they write in
 * PyTorch (an input included) rather than the block's copy. Inner blocks go first, so nested
 * loops resolve from the inside out. The carried state itself stays, unread. Returns how many
 * values were redirected. */
static int resolve_block_identities(Graph *g, Block *b) {
  int nres = 0;
  for (Node *n = b->first; n; n = n->next) {
    for (int k = 0; k < n->nblocks; k++) nres += resolve_block_identities(g, n->blocks[k]);
    if (ir_node_is(n, "prim::Loop") && n->nblocks == 1) {
      Block *body = n->blocks[0];
      int nc = n->ninputs - 2;
      for (int k = 0; k < nc && k + 1 < body->nparams && k + 1 < body->nrets && k < n->noutputs; k++) {
        Value *p = body->params[k + 1], *init = n->inputs[k + 2];
        if (!fz_is_tensor(p) || !fz_is_tensor(init) || same_object(body->rets[k + 1], n) != p) continue;
        replace_node_inputs(body, p, init);
        ir_replace_uses(g, n->outputs[k], init, NULL);
        nres++;
      }
    } else if (ir_node_is(n, "prim::If") && n->nblocks == 2) {
      for (int o = 0; o < n->noutputs; o++) {
        if (!fz_is_tensor(n->outputs[o]) || o >= n->blocks[0]->nrets || o >= n->blocks[1]->nrets) continue;
        Value *u = same_object(n->blocks[0]->rets[o], n);
        if (fz_defined_inside(u, n) || same_object(n->blocks[1]->rets[o], n) != u) continue;
        ir_replace_uses(g, n->outputs[o], u, NULL);
        nres++;
      }
    }
  }
  return nres;
}

/* ---- casts that return their input --------------------------------------------------------- */
/* A cast (an OPF_SELF_CAST row: aten::to, aten::type_as) to the dtype the tensor has, without
 * copy=True or a memory format: PyTorch returns the tensor itself, so a later write through
 * either is seen by both. */
static bool cast_is_alias(const Node *n) {
  const OpDef *op = fz_op_of(n);
  if (!op || !(op->flags & OPF_SELF_CAST)) return false;
  if (n->noutputs != 1 || n->ninputs < 2 || !fz_is_tensor(n->inputs[0]) || !fz_is_tensor(n->outputs[0])) return false;
  const Type *a = n->inputs[0]->type, *b = n->outputs[0]->type;
  if (a->dtype == DT_UNDEF || a->dtype != b->dtype || a->ndim < 0 || !fz_same_shape(a, b)) return false;
  if (n->ninputs >= 5) {
    int64_t copy;
    if (!ir_constant_int(n->inputs[n->ninputs - 2], &copy) || copy) return false;
    if (!ir_constant_is_none(n->inputs[n->ninputs - 1])) return false;
  }
  return true;
}

static int alias_casts(Fz *F, Block *b) {
  int nal = 0;
  for (Node *n = b->first, *next; n; n = next) {
    next = n->next;
    for (int k = 0; k < n->nblocks; k++) nal += alias_casts(F, n->blocks[k]);
    if (!cast_is_alias(n)) continue;
    Value *x = n->inputs[0];
    Node *al = ir_node_new(F->g, "aten::alias", &x, 1, 1, &x->type);
    al->op = ops_lookup("aten::alias");
    al->loc = n->loc;
    al->py_loc = n->py_loc;
    al->scope = n->scope;
    ir_insert_before(n, al);
    ir_replace_uses(F->g, n->outputs[0], al->outputs[0], NULL);
    ir_remove(n);
    nal++;
  }
  return nal;
}

/* ---- in-place view ops ----------------------------------------------------------------------- */
/* An in-place view op (unsqueeze_, squeeze_, transpose_, t_: an EFF_VIEW row whose schema
 * writes self) gives the tensor object itself new metadata. */
static bool is_inplace_view(const Node *n) {
  const OpDef *op = fz_op_of(n);
  return op && op->effect == EFF_VIEW && op->schema && strncmp(op->schema, "(Tensor(a!) self", 16) == 0 &&
         n->ninputs > 0 && n->noutputs == 1;
}

/* What is known here of tensor v's tensor object: its dtype and rank (an in-place op's result
 * has its target's, an op that returns its input the input's; DT_UNDEF / -1 otherwise), and
 * whether it is contiguous (1 yes, 0 no, -1 not known: graph inputs are bound contiguous, other
 * values are known where their type gives every extent and stride). */
static DType object_dtype(const Value *v);
static int object_rank(const Value *v);
static int object_contiguous(const Value *v);

/* Whether node m returns its input itself (the same tensor object, so an in-place view op on
 * either changes both), by its row's OPF_SELF_* condition (ops.h):
 * 1 yes, 0 no (or not such an op), -1 not known yet (this runs before infer). */
static int returns_self(const Node *m) {
  const OpDef *op = fz_op_of(m);
  if (!op || !(op->flags & OPF_SELF_ANY)) return 0;
  if (m->noutputs != 1 || m->ninputs < 1 || !fz_is_tensor(m->inputs[0])) return 0;
  if (op->flags & OPF_SELF_CONTIGUOUS) {
    int64_t format = 0; /* torch.contiguous_format */
    if (m->ninputs >= 2 && !ir_constant_is_none(m->inputs[1]) && !ir_constant_int(m->inputs[1], &format)) return -1;
    if (format != 0) return -1; /* channels_last (preserve_format PyTorch refuses): not tracked */
    return object_contiguous(m->inputs[0]);
  }
  if (op->flags & OPF_SELF_ONE_DIM) {
    int64_t s0, e0;
    if (m->ninputs != 3 || !ir_constant_int(m->inputs[1], &s0) || !ir_constant_int(m->inputs[2], &e0)) return 0;
    int r = object_rank(m->inputs[0]);
    if (r < 0) {
      if (s0 == e0 && s0 != 0 && s0 != -1) return 1; /* valid only for rank >= 1 */
      if ((s0 < 0) == (e0 < 0)) return s0 == e0 ? -1 : 0;
      return -1;
    }
    if (r == 0) return 0; /* a rank-0 tensor is reshaped to [1] */
    if (s0 < 0) s0 += r;
    if (e0 < 0) e0 += r;
    return s0 == e0;
  }
  /* OPF_SELF_CAST: input 1 is the dtype code or a tensor of the wanted dtype (to(other),
   * type_as), else a device (to(device, dtype, ...)), not followed here */
  if (m->ninputs < 2) return 0;
  DType have = object_dtype(m->inputs[0]), want = DT_UNDEF;
  int64_t code;
  if (m->ninputs >= 5) {
    int64_t copy;
    if (!ir_constant_int(m->inputs[m->ninputs - 2], &copy)) return -1;
    if (copy || !ir_constant_is_none(m->inputs[m->ninputs - 1])) return 0;
  }
  if (fz_is_tensor(m->inputs[1])) want = m->inputs[1]->type->dtype;
  else if (ir_constant_int(m->inputs[1], &code)) want = ir_dtype_from_scalar_type(code);
  else return -1;
  if (have == DT_UNDEF || want == DT_UNDEF) return -1;
  return have == want;
}

/* The value v's tensor object came from: through in-place results and ops that return their
 * input, as far as that is known. */
static const Value *object_source(const Value *v, bool (*known)(const Value *)) {
  for (int guard = 0; guard < 100000 && fz_is_tensor(v) && !known(v); guard++) {
    if (!v->def || v->index != 0) break;
    if (fz_is_write(v->def)) v = v->def->inputs[fz_op_of(v->def)->effect_arg];
    else if (returns_self(v->def) == 1) v = v->def->inputs[0];
    else break;
  }
  return v;
}

static bool dtype_known(const Value *v) { return v->type->dtype != DT_UNDEF; }
static bool rank_known(const Value *v) { return v->type->ndim >= 0; }

static DType object_dtype(const Value *v) {
  v = object_source(v, dtype_known);
  return fz_is_tensor(v) ? v->type->dtype : DT_UNDEF;
}

static int object_rank(const Value *v) {
  v = object_source(v, rank_known);
  return fz_is_tensor(v) ? v->type->ndim : -1;
}

/* PyTorch's is_contiguous for a type with every extent and stride known: 1, 0, or -1. */
static int type_contiguous(const Type *t) {
  if (t->ndim < 0 || !t->has_strides) return -1;
  for (int k = 0; k < t->ndim; k++)
    if (t->shape[k] < 0) return -1;
    else if (t->shape[k] == 0) return 1;
  return fz_compact(t);
}

static bool contiguity_known(const Value *v) {
  return (v->param_of && v->param_of->graph->top == v->param_of) || type_contiguous(v->type) >= 0;
}

static int object_contiguous(const Value *v) {
  v = object_source(v, contiguity_known);
  if (!fz_is_tensor(v) || !contiguity_known(v)) return -1;
  if (v->param_of && v->param_of->graph->top == v->param_of) return 1; /* bound contiguous row-major */
  return type_contiguous(v->type);
}

/* Whether any name of the tensor object root (root itself, or a value before `at` in b that is
 * root through in-place results and casts that return their input) is used after `at`. */
static Value *object_root(Value *r);
static bool object_used_after(Block *b, Value *root, const Node *at) {
  if (fz_used_after(root, at)) return true;
  for (Node *m = b->first; m && m != at; m = m->next)
    if (m->noutputs > 0 && object_root(m->outputs[0]) == root && fz_used_after(m->outputs[0], at)) return true;
  return false;
}

/* The tensor object value r is, through the results of in-place ops (x.relu_() is x) and ops
 * that return their input (x.to(x.dtype) is x, returns_self). */
static Value *object_root(Value *r) {
  for (int guard = 0; guard < 100000 && r->def && r->index == 0; guard++) {
    if (fz_is_write(r->def)) r = r->def->inputs[fz_op_of(r->def)->effect_arg];
    else if (returns_self(r->def) == 1) r = r->def->inputs[0];
    else break;
  }
  return r;
}

static int inplace_views_in(Graph *g, PassCtx *c, Block *b) {
  int errs = 0;
  for (Node *n = b->first; n; n = n->next) {
    for (int k = 0; k < n->nblocks; k++) errs += inplace_views_in(g, c, n->blocks[k]);
    if (!is_inplace_view(n)) continue;
    Value *self = n->inputs[0], *root = object_root(self);
    const Block *sb = self->def ? self->def->owner : self->param_of;
    const Block *rb = root->def ? root->def->owner : root->param_of;
    if (sb != b || rb != b) {
      diag_error(c->diag, n->loc, "in-place view op '%s' inside a block changes the shape of %%%s, defined outside "
                 "it; not supported (use the out-of-place '%.*s')", n->kind, self->name,
                 (int)strlen(n->kind) - 1, n->kind);
      if (n->py_loc) diag_note(c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
      errs++;
      continue;
    }
    ir_replace_uses(g, self, n->outputs[0], n);
    /* the other names of the same tensor object (v = x.relu_() is x) change shape too */
    if (root != self) ir_replace_uses(g, root, n->outputs[0], n);
    for (Node *m = b->first; m != n; m = m->next) {
      if (m->noutputs == 0) continue;
      int same = returns_self(m);
      if (m->outputs[0] != self && (fz_is_write(m) || same == 1) && object_root(m->outputs[0]) == root) {
        ir_replace_uses(g, m->outputs[0], n->outputs[0], n);
      } else if (same < 0 && ((object_root(m->inputs[0]) == root && fz_used_after(m->outputs[0], n)) ||
                              (object_root(m->outputs[0]) == root &&
                               object_used_after(b, object_root(m->inputs[0]), n)))) {
        diag_error(c->diag, n->loc, "in-place view op '%s' changes the shape of %%%s, and the %s to %%%s (line %d) "
                   "may have returned its input (%s) but that is not known here; not supported (use the "
                   "out-of-place '%.*s')", n->kind, self->name, m->kind, m->outputs[0]->name, m->loc.line,
                   fz_op_of(m)->flags & OPF_SELF_CONTIGUOUS ? "contiguous() of a contiguous tensor returns the tensor itself"
                   : fz_op_of(m)->flags & OPF_SELF_ONE_DIM ? "flatten() of one dimension returns the tensor itself"
                   : "a cast to the dtype a tensor has returns the tensor itself",
                   (int)strlen(n->kind) - 1, n->kind);
        errs++;
      }
    }
    /* from here on an ordinary view: the out-of-place op */
    const char *kind = arena_strndup(g->arena, n->kind, strlen(n->kind) - 1);
    const OpDef *op = ops_lookup(kind);
    if (op && op->effect == EFF_VIEW) {
      n->kind = kind;
      n->op = op;
    }
  }
  return errs;
}

/* Every use of the tensor an in-place view op changed, after the op, reads the op's result (a
 * view of the same memory with the new shape), and the op becomes its out-of-place view, so
 * the rest of the pipeline sees ordinary views. Uses through other values that are the same
 * tensor object (results of in-place ops on it taken before, or the tensor such a result came
 * from) are redirected too. */
int functionalize_inplace_views(Graph *g, PassCtx *c) {
  /* a loop-carried tensor or If output that is one outer tensor on every path is that tensor
   * object, so an in-place view op on it after the block changes the outer tensor's other names */
  resolve_block_identities(g, g->top);
  return inplace_views_in(g, c, g->top);
}

/* ---- layouts PyTorch may differ in ------------------------------------------------------------
 * mc gives every computed tensor a contiguous buffer; PyTorch's elementwise results, reductions
 * and clone() follow their inputs' layout (TensorIterator), so `y = x.t() * 2.0` has strides
 * [1, 3] there. Whether reshape / flatten / contiguous of y returns a view or a copy then
 * differs, and with it whether a later write through one of them reaches the other
 * (`y.reshape(-1).add_(1.0)` leaves y as it is in PyTorch). PyTorch's layout of a tensor is known
 * here when at most one of its extents exceeds 1, or it is a graph input or constant, a view or
 * in-place result of a known tensor, the result of an op whose row says it is contiguous
 * (OPF_CONTIGUOUS_OUT, or OPF_CONTIGUOUS_LOW_RANK with its inputs of rank >= 3 known contiguous),
 * or computed from known contiguous tensors only. A maybe-view op on a tensor whose layout is not
 * known, followed by a write to the memory of its input or of its result, is refused. */
typedef struct LayScan {
  unsigned char *known; /* by value id: PyTorch's strides for it are mc's */
  const Value **root;   /* by value id: the tensor whose memory it is, through views and writes */
  int *last_write;      /* by value id (of a root): order of the last write to it; 0: none */
  const Node **unsure;  /* maybe-view ops on tensors whose layout is not known, OPF_MAY_ALIAS */
  int *unsure_at;       /* ops on one operand; their order, and the tensor they may share */
  const Value **unsure_x;
  int nunsure, capunsure, order;
} LayScan;

static bool lay_trivial(const Type *t) {
  if (t->kind != TY_TENSOR || t->ndim < 0) return false;
  int big = 0;
  for (int k = 0; k < t->ndim; k++) {
    if (t->shape[k] == 0) return true;
    if (t->shape[k] < 0) return false;
    big += t->shape[k] > 1;
  }
  return big <= 1;
}

/* Whether PyTorch's layout of tensor x is known here and contiguous (or does not matter). */
static bool lay_contiguous(const LayScan *S, const Value *x) {
  return lay_trivial(x->type) || (S->known[x->id] && type_contiguous(x->type) == 1);
}

/* Whether PyTorch makes the result of pure node n contiguous: its row says so
 * (OPF_CONTIGUOUS_OUT), or every tensor input it reads (with OPF_CONTIGUOUS_LOW_RANK: every one
 * of rank >= 3, the elements of a list included) is known contiguous. */
static bool lay_result_contiguous(const LayScan *S, const Node *n, const OpDef *op) {
  if (op->flags & OPF_CONTIGUOUS_OUT) return true;
  if (op->flags & OPF_STRIDED_OUT) return false;
  bool low = (op->flags & OPF_CONTIGUOUS_LOW_RANK) != 0;
  for (int i = 0; i < n->ninputs; i++) {
    const Value *x = n->inputs[i];
    if (!x->type) continue;
    if (x->type->kind == TY_LIST || x->type->kind == TY_TUPLE) {
      const Node *d = x->def;
      if (!low || !d || !ir_node_is(d, "prim::ListConstruct")) return false;
      for (int j = 0; j < d->ninputs; j++) {
        const Value *e = d->inputs[j];
        if (!e->type || e->type->kind != TY_TENSOR) return false;
        if (!(e->type->ndim >= 0 && e->type->ndim < 3) && !lay_contiguous(S, e)) return false;
      }
    } else if (x->type->kind == TY_TENSOR) {
      if (low && x->type->ndim >= 0 && x->type->ndim < 3) continue;
      if (!lay_contiguous(S, x)) return false;
    }
  }
  return true;
}

/* Node n (order at) may or may not share memory with x in PyTorch: checked at the end. */
static void lay_unsure(LayScan *S, const Node *n, int at, const Value *x) {
  if (S->nunsure == S->capunsure) {
    S->capunsure = S->capunsure ? 2 * S->capunsure : 16;
    S->unsure = realloc(S->unsure, sizeof *S->unsure * (size_t)S->capunsure);
    S->unsure_at = realloc(S->unsure_at, sizeof *S->unsure_at * (size_t)S->capunsure);
    S->unsure_x = realloc(S->unsure_x, sizeof *S->unsure_x * (size_t)S->capunsure);
    if (!S->unsure || !S->unsure_at || !S->unsure_x) abort();
  }
  S->unsure[S->nunsure] = n;
  S->unsure_x[S->nunsure] = x;
  S->unsure_at[S->nunsure++] = at;
}

/* The one tensor operand of an OPF_MAY_ALIAS node (a tensor input, or the one element of a
 * Tensor[] input), or NULL when it has none or several or its input 1 is an int >= 0. */
static const Value *lay_one_operand(const Node *n) {
  const Value *one = NULL;
  int64_t k;
  if (n->ninputs > 1 && ir_constant_int(n->inputs[1], &k) && k >= 0) return NULL;
  for (int i = 0; i < n->ninputs; i++) {
    const Value *x = n->inputs[i];
    if (!x->type) continue;
    if (x->type->kind == TY_TENSOR) {
      if (one) return NULL;
      one = x;
    } else if (x->type->kind == TY_LIST) {
      const Node *d = x->def;
      if (!d || !ir_node_is(d, "prim::ListConstruct")) return NULL;
      for (int j = 0; j < d->ninputs; j++) {
        if (one) return NULL;
        one = d->inputs[j];
      }
    }
  }
  return one && fz_is_tensor(one) ? one : NULL;
}

static void lay_set(LayScan *S, const Value *v, bool known, const Value *root) {
  S->known[v->id] = known || lay_trivial(v->type);
  S->root[v->id] = root ? root : v;
}

static const Value *lay_root(const LayScan *S, const Value *v) { return S->root[v->id] ? S->root[v->id] : v; }

static void lay_block(LayScan *S, const Block *b, bool top) {
  for (int i = 0; i < b->nparams; i++) lay_set(S, b->params[i], top, NULL);
  for (const Node *n = b->first; n; n = n->next) {
    int at = ++S->order;
    for (int k = 0; k < n->nblocks; k++) lay_block(S, n->blocks[k], false);
    const OpDef *op = fz_op_of(n);
    if (n->nblocks || !op) {
      for (int i = 0; i < n->noutputs; i++) lay_set(S, n->outputs[i], false, NULL);
    } else if (fz_is_write(n) && op->effect_arg < n->ninputs && fz_is_tensor(n->inputs[op->effect_arg])) {
      const Value *t = n->inputs[op->effect_arg], *r = lay_root(S, t);
      S->last_write[r->id] = at;
      for (int i = 0; i < n->noutputs; i++)
        lay_set(S, n->outputs[i], i == 0 && S->known[t->id], i == 0 ? r : NULL);
    } else if ((op->flags & OPF_MAYBE_VIEW) && op->effect_arg < n->ninputs && fz_is_tensor(n->inputs[op->effect_arg]) &&
               n->noutputs >= 1) {
      const Value *x = n->inputs[op->effect_arg];
      bool kx = S->known[x->id];
      if (!kx) lay_unsure(S, n, at, x);
      bool view = fz_is_view(n);
      lay_set(S, n->outputs[0], kx, view ? lay_root(S, x) : NULL);
      for (int i = 1; i < n->noutputs; i++) lay_set(S, n->outputs[i], false, NULL);
    } else if (fz_is_view(n) && fz_is_tensor(n->inputs[op->effect_arg])) {
      const Value *x = n->inputs[op->effect_arg];
      for (int i = 0; i < n->noutputs; i++) lay_set(S, n->outputs[i], S->known[x->id], lay_root(S, x));
    } else {
      bool known = lay_result_contiguous(S, n, op);
      const Value *one = (op->flags & OPF_MAY_ALIAS) ? lay_one_operand(n) : NULL;
      if (one) lay_unsure(S, n, at, one);
      for (int i = 0; i < n->noutputs; i++) lay_set(S, n->outputs[i], known, NULL);
    }
  }
}

/* The refusals described above; returns how many. */
static int check_layouts(Fz *F) {
  size_t nv = (size_t)F->g->next_value_id + 1;
  LayScan S = {calloc(nv, 1), calloc(nv, sizeof(Value *)), calloc(nv, sizeof(int)), NULL, NULL, NULL, 0, 0, 0};
  if (!S.known || !S.root || !S.last_write) abort();
  lay_block(&S, F->g->top, true);
  int errs = 0;
  for (int i = 0; i < S.nunsure && errs < 4; i++) {
    const Node *n = S.unsure[i];
    const Value *x = S.unsure_x[i];
    const Value *rx = lay_root(&S, x), *ro = lay_root(&S, n->outputs[0]);
    if (S.last_write[rx->id] <= S.unsure_at[i] && S.last_write[ro->id] <= S.unsure_at[i]) continue;
    if (ir_count_uses(F->g, n->outputs[0]) == 0) continue; /* an unread result: no one sees the difference */
    if (fz_op_of(n)->flags & OPF_MAY_ALIAS) {
      diag_error(F->c->diag, n->loc, "'%s' of the one tensor %%%s, when the memory of either is written later: "
                 "PyTorch may return %%%s itself or a view of it here (e.g. an einsum that only permutes, diff "
                 "with n < 0), so that the write reaches the other, and mc computes a copy; not supported "
                 "(.clone() the result before writing)", n->kind, x->name, x->name);
      if (n->py_loc) diag_note(F->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
      errs++;
      continue;
    }
    diag_error(F->c->diag, n->loc, "'%s' of %%%s, whose memory is written later: whether PyTorch returns a view "
               "or a copy here depends on %%%s's strides, which follow the layout of the tensors it was computed "
               "from (e.g. a transposed input), and mc does not know them; not supported (compute it from "
               "contiguous tensors, or .clone() it before writing)", n->kind, x->name, x->name);
    if (n->py_loc) diag_note(F->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
    errs++;
  }
  free(S.known);
  free(S.root);
  free(S.last_write);
  free(S.unsure);
  free(S.unsure_at);
  free(S.unsure_x);
  return errs;
}

/* ---- the pass ---------------------------------------------------------------------------- */
static void fz_node(Fz *F, Node *n) {
  const OpDef *op = fz_op_of(n);
  if (!op) return;
  n->op = op;
  if (n->nblocks) {
    for (int k = 0; k < n->nblocks; k++)
      if (!check_block_writes(F, n->blocks[k], n)) return;
    visit_block_node(F, n);
    return;
  }
  if (fz_is_write(n)) {
    fz_rewrite_write(F, n);
    return;
  }
  if ((op->effect == EFF_VIEW && n->noutputs > 0 && !fz_is_tensor(n->outputs[0])) || ir_node_is(n, "prim::ListUnpack") ||
      ir_node_is(n, "prim::TupleUnpack") || ir_node_is(n, "aten::__getitem__") || ir_node_is(n, "prim::TupleIndex")) {
    visit_container_read(F, n, op);
    return;
  }
  if (fz_is_view(n)) {
    Value *base = n->inputs[op->effect_arg];
    if (!fz_is_tensor(base)) return;
    Member *b = fz_member_of(F, base);
    Node **steps = arena_alloc(F->ar, sizeof(Node *) * (size_t)(b->nsteps + 1));
    if (b->nsteps) memcpy(steps, b->steps, sizeof(Node *) * (size_t)b->nsteps);
    steps[b->nsteps] = n;
    fz_member_add(F, b->s, n->outputs[0], steps, b->nsteps + 1);
    return;
  }
  if ((ir_node_is(n, "prim::ListConstruct") || ir_node_is(n, "prim::TupleConstruct")) && n->noutputs == 1) {
    for (int i = 0; i < n->ninputs; i++)
      if (fz_is_tensor(n->inputs[i])) fz_container_add(F, fz_member_of(F, n->inputs[i])->s, n);
  }
}

int functionalize_run(Graph *g, PassCtx *c) {
  Fz F = {g, c, arena_new(), NULL, 0};
  Block *top = g->top;
  clear_aux(top);
  int nal = alias_casts(&F, top);
  /* the uses now read the tensor itself, whose strides may differ from the cast's or the
   * block's copy: the types after it are inferred again */
  if (resolve_block_identities(g, top) + nal > 0 && infer_run(g, c) != 0) {
    arena_free(F.ar);
    return 1;
  }
  mark_maybe_views(&F, top);
  if ((F.errs = check_layouts(&F)) != 0) {
    arena_free(F.ar);
    return F.errs;
  }
  for (int i = 0; i < top->nparams; i++)
    if (fz_is_tensor(top->params[i])) fz_member_of(&F, top->params[i]);
  for (Node *n = top->first, *next; n && F.errs == 0; n = next) {
    next = n->next;
    fz_node(&F, n);
  }
  /* by graph input: the last storage rooted at it, and whether any such storage is written
   * (one pass over the storages instead of one per input) */
  Storage **last_store = calloc((size_t)top->nparams + 1, sizeof *last_store);
  bool *written_in = calloc((size_t)top->nparams + 1, sizeof *written_in);
  if (!last_store || !written_in) abort();
  for (Storage *t = F.stores; t; t = t->next)
    if (t->root && !t->root->def && t->root->param_of == top && t->root->index >= 0 && t->root->index < top->nparams &&
        top->params[t->root->index] == t->root) {
      last_store[t->root->index] = t;
      written_in[t->root->index] |= t->written;
    }
  if (F.errs == 0) {
    /* Every output is compact row-major, and none still reads the first value of an input
     * written back below (the write-back overwrites that memory). */
    for (int i = 0; i < top->nrets; i++) {
      Value *r = top->rets[i];
      if (!fz_is_tensor(r)) continue;
      const Value *root = r;
      while (root->def && root->index == 0 && fz_op_of(root->def) && fz_op_of(root->def)->effect == EFF_VIEW &&
             fz_op_of(root->def)->effect_arg < root->def->ninputs && fz_is_tensor(root->def->inputs[fz_op_of(root->def)->effect_arg]))
        root = root->def->inputs[fz_op_of(root->def)->effect_arg];
      bool stale = root != r && root->param_of == top && root->index >= 0 && root->index < top->nparams &&
                   written_in[root->index];
      if (!stale && fz_compact(r->type)) continue;
      Node *nn = ir_make_constant_none(g, r->loc);
      ir_append(top, nn);
      Value *ins[2] = {r, nn->outputs[0]};
      const char *kind = stale ? "aten::clone" : "aten::contiguous";
      Node *cp = ir_node_new(g, kind, ins, stale ? 2 : 1, 1, NULL);
      cp->op = ops_lookup(kind);
      cp->loc = r->def ? r->def->loc : r->loc;
      ir_append(top, cp);
      if (!type_node(&F, cp, cp)) break;
      ir_replace_uses(g, r, cp->outputs[0], cp);
    }
    /* one write-back per mutated graph input, in input order */
    for (int i = 0; i < top->nparams; i++) {
      Value *p = top->params[i];
      Storage *s = last_store[i];
      if (!s || !s->written) continue;
      Value *ins[2] = {p, s->cur};
      Node *wb = ir_node_new(g, "mc::write_back", ins, 2, 0, NULL);
      wb->op = ops_lookup("mc::write_back");
      wb->loc = p->loc;
      ir_append(top, wb);
    }
  }
  free(last_store);
  free(written_in);
  clear_aux(top);
  arena_free(F.ar);
  return F.errs;
}
