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
#include "pass.h"
#include "ops/ops.h"

#include <string.h>

typedef struct Storage Storage;

typedef struct Member {
  Value *v;
  Storage *s;
  int nsteps;
  Node **steps; /* view nodes from the root outward; only their kind and non-base inputs count */
} Member;

typedef struct Container { /* a list or tuple construct holding members of a storage */
  Node *n;
} Container;

struct Storage {
  Value *root;     /* the value the storage began as */
  Value *cur;      /* its current value */
  bool written;
  bool ambiguous;  /* a block output that may alias storages in `maybe` (or any: nmaybe < 0) */
  Storage **maybe;
  int nmaybe;
  Member **members;
  int nmembers, capmembers;
  Node **containers;
  int ncontainers, capcontainers;
  Storage *next;
};

typedef struct Fz {
  Graph *g;
  PassCtx *c;
  Arena *ar; /* scratch, freed at the end */
  Storage *stores;
  int errs;
} Fz;

static const char *const MAYBE_VIEW_MARK = "view";

/* ---- small helpers ---------------------------------------------------------------------- */
static const OpDef *op_of(const Node *n) { return n->op ? n->op : ops_lookup(n->kind); }

static void fz_error(Fz *F, const Node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fz_error(Fz *F, const Node *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(F->c->diag, n->loc, fmt, ap);
  va_end(ap);
  if (n->py_loc) diag_note(F->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
  F->errs++;
}

static bool is_tensor(const Value *v) { return v->type && v->type->kind == TY_TENSOR; }

static bool is_write(const Node *n) {
  const OpDef *op = op_of(n);
  return op && op->effect == EFF_WRITE && !ir_node_is(n, "mc::write_back") && !ir_node_is(n, "aten::append");
}

/* Whether n's output 0 shares storage with its input `effect_arg` (a view, not a write). */
static bool is_view(const Node *n) {
  const OpDef *op = op_of(n);
  if (!op || n->noutputs < 1 || !is_tensor(n->outputs[0])) return false;
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
static bool used_after(const Value *v, const Node *pos) {
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
  t->dtype = ty->dtype;
  t->ndim = ty->ndim < 0 ? 0 : ty->ndim;
  for (int i = 0; i < t->ndim; i++) t->shape[i] = ty->shape[i];
  if (ty->has_strides) {
    for (int i = 0; i < t->ndim; i++) t->stride[i] = ty->strides[i];
  } else {
    mck_contiguous_strides(t);
  }
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
  if (is_tensor(v)) {
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
  if (!op->kernel || n->noutputs < 1 || op->effect_arg >= n->ninputs || !is_tensor(n->inputs[op->effect_arg]) ||
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
    const OpDef *op = op_of(n);
    n->op = op;
    if (op && (op->flags & OPF_MAYBE_VIEW) && maybe_view_is_view(F, n)) n->aux = (void *)MAYBE_VIEW_MARK;
    for (int k = 0; k < n->nblocks; k++) mark_maybe_views(F, n->blocks[k]);
  }
}

/* ---- building nodes (all inserted before the write `at`) -------------------------------- */
static Value *cint(Fz *F, Node *at, int64_t x) {
  Node *c = ir_make_constant_int(F->g, x, at->loc);
  ir_insert_before(at, c);
  return c->outputs[0];
}

static Value *cbool(Fz *F, Node *at, bool x) {
  Node *c = ir_make_constant_bool(F->g, x, at->loc);
  ir_insert_before(at, c);
  return c->outputs[0];
}

static Value *cnone(Fz *F, Node *at) {
  Node *c = ir_make_constant_none(F->g, at->loc);
  ir_insert_before(at, c);
  return c->outputs[0];
}

static Value *cints(Fz *F, Node *at, const int64_t *xs, int n) {
  Node *c = ir_make_constant_ints(F->g, xs, n, at->loc);
  ir_insert_before(at, c);
  return c->outputs[0];
}

/* A one-output node of `kind`, typed; NULL (reported) when the op is unknown or rejects. */
static Value *emit(Fz *F, Node *at, const char *kind, Value **ins, int nin) {
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
static Value *replay(Fz *F, Node *at, const Node *step, Value *base) {
  const OpDef *op = op_of(step);
  Value **ins = arena_alloc(F->ar, sizeof(Value *) * (size_t)(step->ninputs + 1));
  for (int i = 0; i < step->ninputs; i++) ins[i] = step->inputs[i];
  ins[op->effect_arg] = base;
  return emit(F, at, step->kind, ins, step->ninputs);
}

static bool same_shape(const Type *a, const Type *b) {
  if (a->ndim != b->ndim) return false;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

/* v cast to dtype dt and broadcast to `like`'s shape, as copy_ stores a source. */
static Value *conform(Fz *F, Node *at, Value *v, const Type *like) {
  if (!v) return NULL;
  if (v->type->dtype != like->dtype) {
    Value *ins[5] = {v, cint(F, at, ir_dtype_to_scalar_type(like->dtype)), cbool(F, at, false),
                     cbool(F, at, false), cnone(F, at)};
    v = emit(F, at, "aten::to", ins, 5);
    if (!v) return NULL;
  }
  if (!same_shape(v->type, like)) {
    Value *ins[3] = {v, cints(F, at, like->shape, like->ndim), cbool(F, at, false)};
    v = emit(F, at, "aten::expand", ins, 3);
  }
  return v;
}

/* Whether t is laid out row-major without gaps (size-1 dims' strides do not count). */
static bool compact(const Type *t) {
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

static Member *member_add(Fz *F, Storage *s, Value *v, Node **steps, int nsteps) {
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
static Member *member_of(Fz *F, Value *v) {
  if (v->aux) return v->aux;
  return member_add(F, storage_new(F, v), v, NULL, 0);
}

static void container_add(Fz *F, Storage *s, Node *n) {
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

/* ---- writes ------------------------------------------------------------------------------ */
static const char *const SCATTER_LIKE[] = {"aten::slice", "aten::select", "aten::diagonal", "aten::narrow",
                                           NULL};
static const char *const SELF_INVERSE[] = {"aten::transpose", "aten::swapaxes", "aten::swapdims", "aten::t",
                                           "aten::numpy_T", "aten::mT", NULL};
static const char *const RESHAPE_LIKE[] = {"aten::view", "aten::reshape", "aten::flatten", "aten::unflatten",
                                           "aten::unsqueeze", "aten::squeeze", "aten::view_as", "aten::reshape_as",
                                           "aten::contiguous", "aten::alias", "aten::detach", "aten::expand",
                                           "aten::expand_as", "aten::_reshape_alias", NULL};

static bool kind_in(const Node *n, const char *const *kinds) {
  for (int i = 0; kinds[i]; i++)
    if (ir_node_is(n, kinds[i])) return true;
  return false;
}

static int64_t numel_of(const Type *t) {
  int64_t p = 1;
  for (int i = 0; i < t->ndim; i++) p *= t->shape[i];
  return p;
}

static int norm_dim(int64_t d, int ndim) { return (int)(d < 0 ? d + ndim : d); }

/* An int or int-list constant as a list; false when not constant. */
static bool const_ints(const Value *v, int64_t *xs, int *n, int max) {
  const Attr *a = ir_constant_attr(v);
  if (a && a->kind == ATTR_INT) {
    xs[0] = a->i;
    *n = 1;
    return true;
  }
  if (!a || a->kind != ATTR_INTS || a->n > max) return false;
  for (int i = 0; i < a->n; i++) xs[i] = a->ints[i];
  *n = a->n;
  return true;
}

/* The permutation a permute / movedim node applies: output dim i is input dim perm[i]. */
static bool view_permutation(const Node *st, int64_t *perm) {
  int nd = st->inputs[0]->type->ndim, n, m;
  int64_t a[IR_MAX_DIMS], b[IR_MAX_DIMS];
  bool used[IR_MAX_DIMS] = {0}, placed[IR_MAX_DIMS] = {0};
  if (nd < 0 || nd > IR_MAX_DIMS || !const_ints(st->inputs[1], a, &n, IR_MAX_DIMS)) return false;
  if (ir_node_is(st, "aten::permute")) {
    if (n != nd) return false;
    for (int i = 0; i < nd; i++) {
      int p = norm_dim(a[i], nd);
      if (p < 0 || p >= nd || used[p]) return false;
      used[p] = true;
      perm[i] = p;
    }
    return true;
  }
  if (st->ninputs < 3 || !const_ints(st->inputs[2], b, &m, IR_MAX_DIMS) || m != n) return false;
  for (int i = 0; i < n; i++) {
    int s = norm_dim(a[i], nd), d = norm_dim(b[i], nd);
    if (s < 0 || s >= nd || d < 0 || d >= nd || used[s] || placed[d]) return false;
    used[s] = placed[d] = true;
    perm[d] = s;
  }
  for (int d = 0, s = 0; d < nd; d++) {
    if (placed[d]) continue;
    while (used[s]) s++;
    perm[d] = s;
    used[s] = true;
  }
  return true;
}

/* Whether the write can go back through view step `st`; reports at `at` otherwise. */
static bool step_invertible(Fz *F, Node *at, const Node *st) {
  if (kind_in(st, SCATTER_LIKE) || kind_in(st, SELF_INVERSE)) {
    int64_t x;
    if (ir_node_is(st, "aten::narrow") && (!ir_constant_int(st->inputs[1], &x) || !ir_constant_int(st->inputs[2], &x) ||
                                           !ir_constant_int(st->inputs[3], &x))) {
      fz_error(F, at, "'%s' writes through aten::narrow with bounds known only at run time; not supported", at->kind);
      return false;
    }
    return true;
  }
  if (ir_node_is(st, "aten::permute") || ir_node_is(st, "aten::movedim")) {
    int64_t perm[IR_MAX_DIMS];
    if (!view_permutation(st, perm)) {
      fz_error(F, at, "'%s' writes through '%s' (line %d) with dims known only at run time or invalid; not "
               "supported", at->kind, st->kind, st->loc.line);
      return false;
    }
    return true;
  }
  if (kind_in(st, RESHAPE_LIKE)) {
    const Type *in = st->inputs[0]->type, *out = st->outputs[0]->type;
    if (numel_of(in) != numel_of(out)) {
      fz_error(F, at, "'%s' writes through a broadcasting '%s' (line %d): more than one element of the "
               "written-to tensor refers to a single memory location", at->kind, st->kind, st->loc.line);
      return false;
    }
    return true;
  }
  if (ir_node_is(st, "aten::as_strided")) {
    fz_error(F, at, "'%s' writes through aten::as_strided (line %d); writes through as_strided views are not "
             "supported", at->kind, st->loc.line);
    return false;
  }
  fz_error(F, at, "'%s' writes through the view '%s' (line %d), which functionalize cannot invert", at->kind,
           st->kind, st->loc.line);
  return false;
}

/* The inverse of view step `st`: scatters `src` (the new value of st's output) into `base`
 * (the current value of st's input). */
static Value *unview(Fz *F, Node *at, const Node *st, Value *base, Value *src) {
  int ni = st->ninputs;
  if (ir_node_is(st, "aten::slice")) {
    Value *ins[6] = {base, src, ni > 1 ? st->inputs[1] : cint(F, at, 0), ni > 2 ? st->inputs[2] : cnone(F, at),
                     ni > 3 ? st->inputs[3] : cnone(F, at), ni > 4 ? st->inputs[4] : cint(F, at, 1)};
    return emit(F, at, "aten::slice_scatter", ins, 6);
  }
  if (ir_node_is(st, "aten::select")) {
    Value *ins[4] = {base, src, st->inputs[1], st->inputs[2]};
    return emit(F, at, "aten::select_scatter", ins, 4);
  }
  if (ir_node_is(st, "aten::diagonal")) {
    Value *ins[5] = {base, src, ni > 1 ? st->inputs[1] : cint(F, at, 0), ni > 2 ? st->inputs[2] : cint(F, at, 0),
                     ni > 3 ? st->inputs[3] : cint(F, at, 1)};
    return emit(F, at, "aten::diagonal_scatter", ins, 5);
  }
  if (ir_node_is(st, "aten::narrow")) {
    int64_t d, start, len;
    ir_constant_int(st->inputs[1], &d);
    ir_constant_int(st->inputs[2], &start);
    ir_constant_int(st->inputs[3], &len);
    const Type *bt = base->type;
    int dd = norm_dim(d, bt->ndim);
    if (start < 0 && dd >= 0 && dd < bt->ndim) start += bt->shape[dd];
    Value *ins[6] = {base, src, st->inputs[1], cint(F, at, start), cint(F, at, start + len), cint(F, at, 1)};
    return emit(F, at, "aten::slice_scatter", ins, 6);
  }
  if (kind_in(st, SELF_INVERSE)) {
    Value **ins = arena_alloc(F->ar, sizeof(Value *) * (size_t)(ni + 1));
    for (int i = 0; i < ni; i++) ins[i] = st->inputs[i];
    ins[0] = src;
    return emit(F, at, st->kind, ins, ni);
  }
  if (ir_node_is(st, "aten::permute") || ir_node_is(st, "aten::movedim")) {
    int64_t perm[IR_MAX_DIMS], inv[IR_MAX_DIMS];
    int nd = base->type->ndim;
    view_permutation(st, perm);
    for (int i = 0; i < nd; i++) inv[perm[i]] = i;
    Value *ins[2] = {src, cints(F, at, inv, nd)};
    return emit(F, at, "aten::permute", ins, 2);
  }
  /* reshape-like: the same elements in the same order */
  if (same_shape(src->type, base->type)) return src;
  Value *ins[2] = {src, cints(F, at, base->type->shape, base->type->ndim)};
  return emit(F, at, "aten::reshape", ins, 2);
}

/* A broadcasting expand `st` (a step of a chain) that later slice / select / narrow steps cut
 * down to one index along every broadcast dim: the write reaches one copy of each base element,
 * as PyTorch allows. Fills idx[d] with that index for every dim d of the expand's output (-1:
 * not broadcast). False when the later steps are other views or leave a broadcast dim wider,
 * unless any_index (a fill stores one value everywhere, as PyTorch's fill_ and zero_ do on
 * tensors whose elements overlap: any copy will do). */
static bool expand_indices(const Node *st, Node *const *later, int nlater, bool any_index, int64_t *idx) {
  const Type *bt = st->inputs[0]->type, *et = st->outputs[0]->type;
  int ne = et->ndim, lead = ne - bt->ndim;
  if (bt->ndim < 0 || ne < 0 || lead < 0) return false;
  int pos[IR_MAX_DIMS];
  int64_t lo[IR_MAX_DIMS], cnt[IR_MAX_DIMS], stp[IR_MAX_DIMS];
  for (int d = 0; d < ne; d++) {
    pos[d] = d;
    lo[d] = 0;
    cnt[d] = et->shape[d];
    stp[d] = 1;
  }
  int nd = ne;
  for (int k = 0; k < nlater; k++) {
    const Node *v = later[k];
    int64_t dim, a, b, c;
    if (!v->ninputs || !ir_constant_int(v->inputs[1 < v->ninputs ? 1 : 0], &dim)) return false;
    int dd = norm_dim(dim, nd), d = -1;
    for (int j = 0; j < ne; j++)
      if (pos[j] == dd) d = j;
    if (d < 0) return false;
    int64_t size = cnt[d];
    if (ir_node_is(v, "aten::select") && v->ninputs == 3 && ir_constant_int(v->inputs[2], &a)) {
      if (a < 0) a += size;
      lo[d] += a * stp[d];
      cnt[d] = 1;
      pos[d] = -1;
      for (int j = 0; j < ne; j++)
        if (pos[j] > dd) pos[j]--;
      nd--;
    } else if (ir_node_is(v, "aten::slice") && v->ninputs == 5) {
      a = 0;
      b = size;
      c = 1;
      if (!ir_constant_is_none(v->inputs[2]) && !ir_constant_int(v->inputs[2], &a)) return false;
      if (!ir_constant_is_none(v->inputs[3]) && !ir_constant_int(v->inputs[3], &b)) return false;
      if (!ir_constant_int(v->inputs[4], &c) || c <= 0) return false;
      if (a < 0) a += size;
      if (b < 0) b += size;
      a = a < 0 ? 0 : a > size ? size : a;
      b = b < a ? a : b > size ? size : b;
      lo[d] += a * stp[d];
      stp[d] *= c;
      cnt[d] = (b - a + c - 1) / c;
    } else if (ir_node_is(v, "aten::narrow") && v->ninputs == 4 && ir_constant_int(v->inputs[2], &a) &&
               ir_constant_int(v->inputs[3], &b)) {
      if (a < 0) a += size;
      lo[d] += a * stp[d];
      cnt[d] = b;
    } else {
      return false;
    }
  }
  for (int d = 0; d < ne; d++) {
    bool broadcast = d < lead || bt->shape[d - lead] != et->shape[d];
    if (broadcast && cnt[d] > 1 && !any_index) return false;
    idx[d] = broadcast ? (cnt[d] >= 1 ? lo[d] : 0) : -1;
  }
  return true;
}

/* The inverse of a broadcasting expand cut down as expand_indices says: the copy at those
 * indices of the expanded new value. */
static Value *unexpand(Fz *F, Node *at, const Node *st, const int64_t *idx, Value *src) {
  int ne = st->outputs[0]->type->ndim, lead = ne - st->inputs[0]->type->ndim;
  for (int d = lead; d < ne && src; d++)
    if (idx[d] >= 0) {
      Value *ins[4] = {src, cint(F, at, d), cint(F, at, idx[d]), cint(F, at, 1)};
      src = emit(F, at, "aten::narrow", ins, 4);
    }
  for (int d = lead - 1; d >= 0 && src; d--) {
    Value *ins[3] = {src, cint(F, at, d), cint(F, at, idx[d])};
    src = emit(F, at, "aten::select", ins, 3);
  }
  return src;
}

static bool is_broadcasting_expand(const Node *st) {
  return (ir_node_is(st, "aten::expand") || ir_node_is(st, "aten::expand_as")) &&
         numel_of(st->inputs[0]->type) != numel_of(st->outputs[0]->type);
}

/* The new value of the written view, before being conformed to its type. */
static Value *new_view_value(Fz *F, Node *n, const OpDef *op, Value *v) {
  if (ir_node_is(n, "aten::copy_") && n->ninputs >= 2 && is_tensor(n->inputs[1])) return n->inputs[1];
  const char *twin = op->functional;
  if (ir_node_is(n, "aten::copy_")) {
    /* a Scalar source (copy_.int / copy_.float): fill */
    const OpDef *fill = ops_lookup("aten::fill_");
    twin = fill && fill->functional ? fill->functional : "aten::fill";
    Value *ins[2] = {v, n->inputs[1]};
    return emit(F, n, twin, ins, 2);
  }
  if (!twin) {
    fz_error(F, n, "in-place op '%s' has no functional form in the op table", n->kind);
    return NULL;
  }
  return emit(F, n, twin, n->inputs, n->ninputs);
}

static bool overlapping(const Type *t) {
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] > 1 && t->has_strides && t->strides[i] == 0) return true;
  return false;
}

static bool container_holds(const Node *c, const Value *v) {
  for (int i = 0; i < c->ninputs; i++)
    if (c->inputs[i] == v) return true;
  return false;
}

static bool defined_inside(const Value *v, const Node *blocknode) {
  const Block *b = v->def ? v->def->owner : v->param_of;
  while (b) {
    if (b->owner == blocknode) return true;
    b = b->owner ? b->owner->owner : NULL;
  }
  return false;
}

/* What branch k of a prim::If returns as output o, when that is (a view of) a tensor from
 * outside the If: the outer tensor's member and the view steps taken inside the branch. */
typedef struct Cand {
  Member *m;   /* NULL: the branch returns a fresh tensor */
  Node **steps;
  int nsteps;
} Cand;

/* The candidates of a write to the output of prim::If `ifn` (storage s, ambiguous): one per
 * branch. Reports at the write n when one cannot be written back. */
static bool if_candidates(Fz *F, Node *n, Storage *s, Cand *c) {
  Node *ifn = s->root->def;
  int o = s->root->index;
  for (int k = 0; k < 2; k++) {
    memset(&c[k], 0, sizeof c[k]);
    if (o >= ifn->blocks[k]->nrets) return false;
    Value *r = ifn->blocks[k]->rets[o];
    if (!is_tensor(r) || !same_shape(r->type, s->root->type)) {
      fz_error(F, n, "'%s' writes the result of 'prim::If' (line %d), whose branches return tensors of different "
               "shapes; not supported", n->kind, ifn->loc.line);
      return false;
    }
    Node *rev[64];
    int nrev = 0;
    while (r->def && defined_inside(r, ifn) && r->index == 0 && nrev < 64) {
      const Node *d = r->def;
      if (is_write(d)) {
        r = d->inputs[op_of(d)->effect_arg];
        continue;
      }
      if (!is_view(d)) break;
      for (int i = 0; i < d->ninputs; i++)
        if (i != op_of(d)->effect_arg && defined_inside(d->inputs[i], ifn)) {
          fz_error(F, n, "'%s' writes the result of 'prim::If' (line %d), a view '%s' (line %d) whose arguments are "
                   "computed inside the branch; not supported", n->kind, ifn->loc.line, d->kind, d->loc.line);
          return false;
        }
      if (!step_invertible(F, n, d)) return false;
      rev[nrev++] = (Node *)d;
      r = d->inputs[op_of(d)->effect_arg];
    }
    if (defined_inside(r, ifn)) continue; /* a fresh tensor: nothing outside is written */
    if (nrev == 64 || !is_tensor(r)) {
      fz_error(F, n, "'%s' writes the result of 'prim::If' (line %d), which functionalize cannot trace back; not "
               "supported", n->kind, ifn->loc.line);
      return false;
    }
    Member *m = member_of(F, r);
    if (m->s->ambiguous) {
      fz_error(F, n, "'%s' writes the result of 'prim::If' (line %d), whose branch returns a tensor that may alias "
               "others through control flow or a list; not supported yet", n->kind, ifn->loc.line);
      return false;
    }
    for (int i = 0; i < m->nsteps; i++)
      if (!step_invertible(F, n, m->steps[i])) return false;
    c[k].m = m;
    c[k].nsteps = m->nsteps + nrev;
    c[k].steps = arena_alloc(F->ar, sizeof(Node *) * (size_t)(c[k].nsteps + 1));
    if (m->nsteps) memcpy(c[k].steps, m->steps, sizeof(Node *) * (size_t)m->nsteps);
    for (int i = 0; i < nrev; i++) c[k].steps[m->nsteps + i] = rev[nrev - 1 - i];
  }
  return true;
}

/* Some live block output may alias s. */
static bool ambiguous_alias(Fz *F, Storage *s, Node *at, const Storage *skip) {
  for (Storage *a = F->stores; a; a = a->next) {
    if (!a->ambiguous || a == skip) continue;
    bool may = a->nmaybe < 0;
    for (int i = 0; i < a->nmaybe && !may; i++) may = a->maybe[i] == s;
    if (!may) continue;
    for (int i = 0; i < a->nmembers; i++) {
      if (used_after(a->members[i]->v, at) || container_holds(at, a->members[i]->v)) {
        Node *def = a->root->def;
        fz_error(F, at, "'%s' writes memory that the result of '%s' (line %d) may alias; aliasing through "
                 "control flow or lists is not supported yet", at->kind, def ? def->kind : "?", def ? def->loc.line : 0);
        return true;
      }
    }
  }
  return false;
}

/* Whether nv is a value this rewrite computed into fresh memory (not a source it was given,
 * nor a view of one): only such a value may stand for the storage's new contents, since a
 * later write to the source's storage redirects the source's uses. */
static bool fresh_value(const Node *n, const Value *nv) {
  for (int i = 0; i < n->ninputs; i++)
    if (n->inputs[i] == nv) return false;
  const OpDef *op = nv->def ? op_of(nv->def) : NULL;
  return op && op->effect == EFF_PURE && !(op->flags & OPF_MAYBE_VIEW);
}

/* Storage s now holds w (computed before node n): every member read after n is re-derived from
 * w by replaying its view chain and its later uses redirected; so are the lists and tuples
 * read later that hold members (they hold references). */
static bool rederive(Fz *F, Storage *s, Value *w, Node *n) {
  s->cur = w;
  s->written = true;

  /* lists and tuples read later hold references to the members they contain */
  Node **live = arena_alloc(F->ar, sizeof(Node *) * (size_t)(s->ncontainers + 1));
  int nlive = 0;
  for (int i = 0; i < s->ncontainers; i++)
    if (used_after(s->containers[i]->outputs[0], n)) live[nlive++] = s->containers[i];
  s->containers = NULL;
  s->ncontainers = s->capcontainers = 0;

  /* re-derive the members read later from the new root; their later uses read the new values */
  Member **old = s->members;
  int nold = s->nmembers;
  s->members = NULL;
  s->nmembers = s->capmembers = 0;
  Value **from = arena_alloc(F->ar, sizeof(Value *) * (size_t)(nold + 1));
  Value **to = arena_alloc(F->ar, sizeof(Value *) * (size_t)(nold + 1));
  int nren = 0;
  for (int i = 0; i < nold; i++) {
    Member *u = old[i];
    u->v->aux = NULL;
    bool needed = used_after(u->v, n);
    for (int j = 0; j < nlive && !needed; j++) needed = container_holds(live[j], u->v);
    if (!needed) continue;
    Value *x = w;
    for (int j = 0; j < u->nsteps && x; j++) x = replay(F, n, u->steps[j], x);
    if (!x) return false;
    ir_replace_uses(F->g, u->v, x, n->prev);
    member_add(F, s, x, u->steps, u->nsteps);
    from[nren] = u->v;
    to[nren++] = x;
  }
  for (int i = 0; i < nlive; i++) {
    Node *c = live[i];
    Node *cl = ir_node_new(F->g, c->kind, c->inputs, c->ninputs, 1, &c->outputs[0]->type);
    cl->op = c->op;
    cl->loc = c->loc;
    cl->py_loc = c->py_loc;
    for (int j = 0; j < cl->ninputs; j++)
      for (int r = 0; r < nren; r++)
        if (cl->inputs[j] == from[r]) ir_node_set_input(cl, j, to[r]);
    ir_insert_before(n, cl);
    ir_replace_uses(F->g, c->outputs[0], cl->outputs[0], n->prev);
    container_add(F, s, cl);
  }
  return true;
}

/* The tensors the prim::If `ifn` may have returned, after its result was written with the new
 * value w (computed before node n): a second If on the same condition gives each candidate's
 * storage its new value, w scattered through the candidate's view chain in the branch that
 * returned it and the old value in the other. */
static bool write_candidates(Fz *F, Node *n, Storage *written, const Cand *cands, Value *w) {
  Node *ifn = written->root->def;
  Storage *ss[2];
  int ns = 0;
  for (int k = 0; k < 2; k++)
    if (cands[k].m && (ns == 0 || ss[0] != cands[k].m->s)) ss[ns++] = cands[k].m->s;
  if (ns == 0) return true;
  for (int j = 0; j < ns; j++)
    if (ambiguous_alias(F, ss[j], n, written)) return false;
  Type *types[2];
  for (int j = 0; j < ns; j++) types[j] = ss[j]->cur->type;
  Value *cond = ifn->inputs[0];
  Node *ifn2 = ir_node_new(F->g, "prim::If", &cond, 1, ns, types);
  ifn2->op = ops_lookup("prim::If");
  ifn2->loc = n->loc;
  ifn2->py_loc = n->py_loc;
  ir_insert_before(n, ifn2);
  for (int k = 0; k < 2; k++) {
    Block *b = ir_node_add_block(ifn2);
    Node *at = ir_make_constant_none(F->g, n->loc);
    at->py_loc = n->py_loc;
    ir_append(b, at);
    for (int j = 0; j < ns; j++) {
      Value *x = ss[j]->cur;
      const Cand *c = &cands[k];
      if (c->m && c->m->s == ss[j]) {
        Value **bases = arena_alloc(F->ar, sizeof(Value *) * (size_t)(c->nsteps + 1));
        bases[0] = ss[j]->cur;
        for (int i = 1; i < c->nsteps; i++)
          if (!(bases[i] = replay(F, at, c->steps[i - 1], bases[i - 1]))) return false;
        x = w;
        for (int i = c->nsteps - 1; i >= 0; i--)
          if (!(x = unview(F, at, c->steps[i], bases[i], x))) return false;
        if (compact(ss[j]->root->type) && !compact(x->type)) {
          Value *ins[1] = {x};
          if (!(x = emit(F, at, "aten::contiguous", ins, 1))) return false;
        }
      }
      ir_block_add_ret(b, x);
    }
    ir_remove(at);
  }
  for (int j = 0; j < ns; j++)
    if (!rederive(F, ss[j], ifn2->outputs[j], n)) return false;
  return true;
}

/* Whether w is v or a view of it (through view ops). */
static bool views_of(const Value *w, const Value *v) {
  for (int guard = 0; guard < 100000 && w != v && w->def && w->index == 0; guard++) {
    const OpDef *op = op_of(w->def);
    if (!op || op->effect != EFF_VIEW || op->effect_arg >= w->def->ninputs) break;
    w = w->def->inputs[op->effect_arg];
  }
  return w == v;
}

static void rewrite_write(Fz *F, Node *n) {
  const OpDef *op = op_of(n);
  int k = op->effect_arg;
  if (k >= n->ninputs || !is_tensor(n->inputs[k])) {
    fz_error(F, n, "in-place op '%s' does not write a tensor", n->kind);
    return;
  }
  if (op->functional) {
    const OpDef *twin = ops_lookup(op->functional);
    if (twin && twin->effect != EFF_PURE) {
      fz_error(F, n, "in-place view op '%s' changes the tensor's shape or strides; not supported", n->kind);
      return;
    }
  }
  Value *v = n->inputs[k];
  Member *m = member_of(F, v);
  Storage *s = m->s;
  Cand cands[2];
  if (s->ambiguous) {
    Node *def = s->root->def;
    if (!def || !ir_node_is(def, "prim::If") || def->nblocks != 2 || def->owner != F->g->top || s->nmaybe < 0) {
      fz_error(F, n, "'%s' writes the result of '%s' (line %d), which may alias other tensors through a loop or "
               "a list; not supported yet", n->kind, def ? def->kind : "?", def ? def->loc.line : 0);
      return;
    }
    if (!if_candidates(F, n, s, cands)) return;
  }
  if (ambiguous_alias(F, s, n, NULL)) return;
  /* fill_ and zero_ store one value: PyTorch runs them on tensors whose elements overlap */
  bool fill = ir_node_is(n, "aten::fill_") || ir_node_is(n, "aten::zero_");
  if (overlapping(v->type) && !fill) {
    fz_error(F, n, "'%s': more than one element of the written-to tensor refers to a single memory location "
             "(PyTorch refuses this too; clone() the tensor first)", n->kind);
    return;
  }
  int64_t(*eidx)[IR_MAX_DIMS] = arena_alloc(F->ar, sizeof *eidx * (size_t)(m->nsteps + 1));
  for (int i = 0; i < m->nsteps; i++) {
    if (is_broadcasting_expand(m->steps[i]) && (fill || !overlapping(v->type)) &&
        expand_indices(m->steps[i], m->steps + i + 1, m->nsteps - i - 1, fill, eidx[i]))
      continue;
    if (!step_invertible(F, n, m->steps[i])) return;
  }

  /* the new value of the view, then of the root */
  Value *nv = conform(F, n, new_view_value(F, n, op, v), v->type);
  if (!nv) return;
  bool fresh = fresh_value(n, nv);
  Value **bases = arena_alloc(F->ar, sizeof(Value *) * (size_t)(m->nsteps + 1));
  bases[0] = s->cur;
  for (int i = 1; i < m->nsteps; i++)
    if (!(bases[i] = replay(F, n, m->steps[i - 1], bases[i - 1]))) return;
  Value *w = nv;
  for (int i = m->nsteps - 1; i >= 0; i--) {
    if (is_broadcasting_expand(m->steps[i])) w = unexpand(F, n, m->steps[i], eidx[i], w);
    else w = unview(F, n, m->steps[i], bases[i], w);
    if (!w) return;
  }
  if (!fresh && views_of(w, nv)) {
    /* the storage's new value would share a source's memory (`x.detach().copy_(y)`): copy it,
     * so a later write to the source leaves this storage as it is */
    Value *ins[2] = {w, cnone(F, n)};
    if (!(w = emit(F, n, "aten::clone", ins, 2))) return;
  }
  /* the new root keeps the layout the tensor had (PyTorch writes in place): a base written
   * through a transposed view stays row-major */
  if (compact(s->root->type) && !compact(w->type)) {
    Value *ins[1] = {w};
    if (!(w = emit(F, n, "aten::contiguous", ins, 1))) return;
  }
  /* The view's new value as a member of s: a view of the new root (unless it is the root), so
   * that a later write through it inside a block reaches the root's memory. */
  Value *nvm = nv;
  if (!fresh || m->nsteps > 0 || w != nv) {
    nvm = w;
    for (int j = 0; j < m->nsteps && nvm; j++) nvm = replay(F, n, m->steps[j], nvm);
    if (!nvm) return;
  }
  if (!rederive(F, s, w, n)) return;
  if (s->ambiguous && !write_candidates(F, n, s, cands, w)) return;
  if (n->noutputs > 0) ir_replace_uses(F->g, n->outputs[0], nvm, NULL);
  if (!nvm->aux) member_add(F, s, nvm, m->steps, m->nsteps);
  ir_remove(n);
}

/* ---- control flow -------------------------------------------------------------------------- */


static void mark_ambiguous(Fz *F, Value *v, Storage **maybe, int nmaybe) {
  Storage *s = storage_new(F, v);
  member_add(F, s, v, NULL, 0);
  s->ambiguous = true;
  s->nmaybe = nmaybe;
  if (nmaybe > 0) s->maybe = arena_memdup(F->ar, maybe, sizeof(Storage *) * (size_t)nmaybe);
}

/* v followed back through views and in-place results defined inside blocknode. */
static Value *trace_inside(Value *v, const Node *blocknode) {
  for (int guard = 0; guard < 100000 && v->def && v->index == 0 && defined_inside(v, blocknode) &&
                      (is_view(v->def) || is_write(v->def));
       guard++)
    v = v->def->inputs[op_of(v->def)->effect_arg];
  return v;
}

/* Whether value v (what a loop-carried tensor starts as or becomes), traced back, is a tensor
 * whose memory a write to the loop's copy of it would have to reach: an outer tensor that is a
 * graph input, may alias through control flow, or is read after top-level node `top`. */
static bool carried_observed(Fz *F, Value *v, const Node *loop, const Node *top) {
  v = trace_inside(v, loop);
  if (defined_inside(v, loop)) return !v->def; /* a fresh tensor of the body, or another carried one */
  v = trace_inside(v, top);
  if (defined_inside(v, top)) return !v->def;
  Member *m = v->aux;
  if (!m) return v->param_of == F->g->top;
  if (m->s->ambiguous || m->s->root->param_of == F->g->top) return true;
  for (int i = 0; i < m->s->nmembers; i++)
    if (used_after(m->s->members[i]->v, top)) return true;
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
  if (!if_candidates(F, d, s, cands)) return false;
  for (int k = 0; k < 2; k++)
    if (cands[k].m && ambiguous_alias(F, cands[k].m->s, (Node *)top, s)) return false;
  /* the views from r to the written tensor, inside top */
  int ea = op_of(d)->effect_arg;
  Node *rev[64];
  int nrev = 0;
  for (Value *v = d->inputs[ea]; v != r && nrev < 64; v = v->def->inputs[op_of(v->def)->effect_arg]) {
    if (!v->def) return true; /* cannot happen: v traces back to r */
    if (is_view(v->def)) {
      if (!step_invertible(F, d, v->def)) return false;
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
    for (int i = 0; i < cands[k].nsteps && x; i++) x = replay(F, at, cands[k].steps[i], x);
    for (int i = 0; i < m->nsteps && x; i++) x = replay(F, at, m->steps[i], x);
    for (int i = nrev - 1; i >= 0 && x; i--) x = replay(F, at, rev[i], x);
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
    if (!is_write(d) || op_of(d)->effect_arg >= d->ninputs || !is_tensor(d->inputs[op_of(d)->effect_arg])) continue;
    Value *r = trace_inside(d->inputs[op_of(d)->effect_arg], top);
    if (!defined_inside(r, top)) {
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
    if (!is_tensor(out)) continue;
    Storage *maybe[8];
    int nmaybe = 0;
    bool any = false;
    for (int k = 0; k < n->nblocks; k++) {
      Block *b = n->blocks[k];
      int ri = o + (ir_node_is(n, "prim::Loop") ? 1 : 0);
      if (ri >= b->nrets) continue;
      const Value *r = b->rets[ri];
      while (defined_inside(r, n) && r->def) {
        const Node *d = r->def;
        if (r->index != 0 || !(is_view(d) || is_write(d))) break;
        r = d->inputs[op_of(d)->effect_arg];
      }
      if (defined_inside(r, n) && r->def) continue; /* a fresh value */
      if (defined_inside(r, n) || !is_tensor(r)) {
        any = true; /* a loop-carried block parameter */
        continue;
      }
      Storage *s = member_of(F, (Value *)r)->s;
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
    if (!is_tensor(base)) return;
    maybe[nmaybe++] = member_of(F, base)->s;
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
        if (!is_tensor(l->def->inputs[i])) continue;
        if (nmaybe < 8) maybe[nmaybe++] = member_of(F, l->def->inputs[i])->s;
        else any = true;
      }
    } else if (l->param_of || (l->def && !ir_is_constant(l))) {
      any = true;
    }
  }
  if (!any && nmaybe == 0) return;
  for (int o = 0; o < n->noutputs; o++)
    if (is_tensor(n->outputs[o]) || op->effect == EFF_VIEW) mark_ambiguous(F, n->outputs[o], maybe, any ? -1 : nmaybe);
}

/* ---- the same tensor object through blocks ------------------------------------------------ */
/* The value r stands for, followed back through in-place results (an in-place op returns the
 * tensor it wrote) defined inside blocknode. */
static Value *same_object(Value *r, const Node *blocknode) {
  for (int guard = 0; guard < 100000 && r->def && defined_inside(r, blocknode) && r->index == 0 && is_write(r->def);
       guard++)
    r = r->def->inputs[op_of(r->def)->effect_arg];
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
        if (!is_tensor(p) || !is_tensor(init) || same_object(body->rets[k + 1], n) != p) continue;
        replace_node_inputs(body, p, init);
        ir_replace_uses(g, n->outputs[k], init, NULL);
        nres++;
      }
    } else if (ir_node_is(n, "prim::If") && n->nblocks == 2) {
      for (int o = 0; o < n->noutputs; o++) {
        if (!is_tensor(n->outputs[o]) || o >= n->blocks[0]->nrets || o >= n->blocks[1]->nrets) continue;
        Value *u = same_object(n->blocks[0]->rets[o], n);
        if (defined_inside(u, n) || same_object(n->blocks[1]->rets[o], n) != u) continue;
        ir_replace_uses(g, n->outputs[o], u, NULL);
        nres++;
      }
    }
  }
  return nres;
}

/* ---- casts that return their input --------------------------------------------------------- */
/* aten::to / aten::type_as to the dtype the tensor has, without copy=True or a memory format:
 * PyTorch returns the tensor itself, so a later write through either is seen by both. */
static bool cast_is_alias(const Node *n) {
  if (n->noutputs != 1 || n->ninputs < 1 || !is_tensor(n->inputs[0]) || !is_tensor(n->outputs[0])) return false;
  const Type *a = n->inputs[0]->type, *b = n->outputs[0]->type;
  if (a->dtype == DT_UNDEF || a->dtype != b->dtype || a->ndim < 0 || !same_shape(a, b)) return false;
  if (ir_node_is(n, "aten::type_as")) return n->ninputs == 2;
  if (!ir_node_is(n, "aten::to")) return false;
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
  const OpDef *op = op_of(n);
  return op && op->effect == EFF_VIEW && op->schema && strncmp(op->schema, "(Tensor(a!) self", 16) == 0 &&
         n->ninputs > 0 && n->noutputs == 1;
}

/* Whether node m (aten::to / aten::type_as) returns its input itself, as PyTorch does for a cast
 * to the dtype the tensor has without copy=True or a memory format: 1 yes, 0 no (or not a
 * cast), -1 a cast whose dtypes are not known yet (this runs before infer). */
static DType object_dtype(const Value *v);

static int cast_returns_self(const Node *m) {
  bool to = ir_node_is(m, "aten::to"), ta = ir_node_is(m, "aten::type_as");
  if ((!to && !ta) || m->noutputs != 1 || m->ninputs < 2 || !is_tensor(m->inputs[0])) return 0;
  DType have = object_dtype(m->inputs[0]), want = DT_UNDEF;
  if (ta) {
    if (!is_tensor(m->inputs[1])) return 0;
    want = m->inputs[1]->type->dtype;
  } else {
    int64_t code;
    if (m->ninputs >= 5) {
      int64_t copy;
      if (!ir_constant_int(m->inputs[m->ninputs - 2], &copy)) return -1;
      if (copy || !ir_constant_is_none(m->inputs[m->ninputs - 1])) return 0;
    }
    if (ir_constant_int(m->inputs[1], &code)) want = ir_dtype_from_scalar_type(code);
    else if (is_tensor(m->inputs[1])) want = m->inputs[1]->type->dtype; /* to(other) */
    else return -1;                                                      /* to(device, ...) */
  }
  if (have == DT_UNDEF || want == DT_UNDEF) return -1;
  return have == want;
}

/* The dtype of tensor v where known: an in-place op's result has its target's dtype, a cast that
 * returns its input the input's; DT_UNDEF otherwise. */
static DType object_dtype(const Value *v) {
  for (int guard = 0; guard < 100000 && is_tensor(v); guard++) {
    if (v->type->dtype != DT_UNDEF) return v->type->dtype;
    if (!v->def || v->index != 0) break;
    if (is_write(v->def)) v = v->def->inputs[op_of(v->def)->effect_arg];
    else if (cast_returns_self(v->def) == 1) v = v->def->inputs[0];
    else break;
  }
  return DT_UNDEF;
}

/* Whether any name of the tensor object root (root itself, or a value before `at` in b that is
 * root through in-place results and casts that return their input) is used after `at`. */
static Value *object_root(Value *r);
static bool object_used_after(Block *b, Value *root, const Node *at) {
  if (used_after(root, at)) return true;
  for (Node *m = b->first; m && m != at; m = m->next)
    if (m->noutputs > 0 && object_root(m->outputs[0]) == root && used_after(m->outputs[0], at)) return true;
  return false;
}

/* The tensor object value r is, through the results of in-place ops (x.relu_() is x) and casts
 * that return their input (x.to(x.dtype) is x). */
static Value *object_root(Value *r) {
  for (int guard = 0; guard < 100000 && r->def && r->index == 0; guard++) {
    if (is_write(r->def)) r = r->def->inputs[op_of(r->def)->effect_arg];
    else if (cast_returns_self(r->def) == 1) r = r->def->inputs[0];
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
      int same = cast_returns_self(m);
      if (m->outputs[0] != self && (is_write(m) || same == 1) && object_root(m->outputs[0]) == root) {
        ir_replace_uses(g, m->outputs[0], n->outputs[0], n);
      } else if (same < 0 && ((object_root(m->inputs[0]) == root && used_after(m->outputs[0], n)) ||
                              (object_root(m->outputs[0]) == root &&
                               object_used_after(b, object_root(m->inputs[0]), n)))) {
        diag_error(c->diag, n->loc, "in-place view op '%s' changes the shape of %%%s, and the cast to %%%s (line %d) "
                   "may have returned its input (a cast to the dtype a tensor has returns the tensor itself) but its "
                   "dtypes are not known here; not supported (use the out-of-place '%.*s')", n->kind, self->name,
                   m->outputs[0]->name, m->loc.line, (int)strlen(n->kind) - 1, n->kind);
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
int functionalize_inplace_views(Graph *g, PassCtx *c) { return inplace_views_in(g, c, g->top); }

/* ---- the pass ---------------------------------------------------------------------------- */
static void fz_node(Fz *F, Node *n) {
  const OpDef *op = op_of(n);
  if (!op) return;
  n->op = op;
  if (n->nblocks) {
    for (int k = 0; k < n->nblocks; k++)
      if (!check_block_writes(F, n->blocks[k], n)) return;
    visit_block_node(F, n);
    return;
  }
  if (is_write(n)) {
    rewrite_write(F, n);
    return;
  }
  if ((op->effect == EFF_VIEW && n->noutputs > 0 && !is_tensor(n->outputs[0])) || ir_node_is(n, "prim::ListUnpack") ||
      ir_node_is(n, "prim::TupleUnpack") || ir_node_is(n, "aten::__getitem__") || ir_node_is(n, "prim::TupleIndex")) {
    visit_container_read(F, n, op);
    return;
  }
  if (is_view(n)) {
    Value *base = n->inputs[op->effect_arg];
    if (!is_tensor(base)) return;
    Member *b = member_of(F, base);
    Node **steps = arena_alloc(F->ar, sizeof(Node *) * (size_t)(b->nsteps + 1));
    if (b->nsteps) memcpy(steps, b->steps, sizeof(Node *) * (size_t)b->nsteps);
    steps[b->nsteps] = n;
    member_add(F, b->s, n->outputs[0], steps, b->nsteps + 1);
    return;
  }
  if ((ir_node_is(n, "prim::ListConstruct") || ir_node_is(n, "prim::TupleConstruct")) && n->noutputs == 1) {
    for (int i = 0; i < n->ninputs; i++)
      if (is_tensor(n->inputs[i])) container_add(F, member_of(F, n->inputs[i])->s, n);
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
  for (int i = 0; i < top->nparams; i++)
    if (is_tensor(top->params[i])) member_of(&F, top->params[i]);
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
      if (!is_tensor(r)) continue;
      const Value *root = r;
      while (root->def && root->index == 0 && op_of(root->def) && op_of(root->def)->effect == EFF_VIEW &&
             op_of(root->def)->effect_arg < root->def->ninputs && is_tensor(root->def->inputs[op_of(root->def)->effect_arg]))
        root = root->def->inputs[op_of(root->def)->effect_arg];
      bool stale = root != r && root->param_of == top && root->index >= 0 && root->index < top->nparams &&
                   written_in[root->index];
      if (!stale && compact(r->type)) continue;
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
