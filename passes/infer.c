/* infer.c — the `infer` pass: dtype and shape inference and constant folding, in one walk.
 *
 * For every node in program order it builds the kernel's arguments from what is known at
 * compile time (constant values, tensor types), and then either
 *   - folds the node, when every input is known and the op is pure: runs its kernel for real and
 *     replaces its outputs with constants (scalars always; tensors when they have tensor inputs
 *     or are small, so folding never grows the generated source much), or
 *   - runs the kernel in meta mode, which fills in the outputs' dtype, shape and (for views)
 *     strides; those become the outputs' types.
 * List and tuple plumbing (prim::ListConstruct/Unpack, TupleConstruct/Unpack/Index, unchecked
 * casts, None checks) is resolved structurally, and a prim::If on a known condition is replaced
 * by its taken block. A shape PyTorch recorded in the dump that disagrees with the inferred one
 * is reported: it means a kernel and PyTorch disagree. */
#include "pass.h"
#include "dynshape.h"
#include "kargs.h"
#include "ops/ops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FOLD_SMALL_NUMEL 4096
#define FOLD_MAX_BYTES (64u << 20)

/* ---- building kernel arguments from compile-time knowledge ------------------------------- */
/* Whether some node writes the storage of v, directly or through a view or alias of it:
 * such a constant is not known at compile time, and such a value must not become constant. */
static bool use_writes(const Block *b, const Value *v);
static bool storage_written(const Graph *g, const Value *v) { return use_writes(g->top, v); }

static bool use_writes(const Block *b, const Value *v) {
  for (const Node *n = b->first; n; n = n->next) {
    for (int k = 0; k < n->nblocks; k++)
      if (use_writes(n->blocks[k], v)) return true;
    const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
    for (int i = 0; i < n->ninputs; i++) {
      if (n->inputs[i] != v) continue;
      if (!op) return true;
      if (ir_node_is(n, "prim::ListConstruct") && n->noutputs && use_writes(b, n->outputs[0])) return true;
      if (op->effect_arg != i) continue;
      if (op->effect == EFF_WRITE) return true;
      if ((op->effect == EFF_VIEW || (op->flags & OPF_MAYBE_VIEW)) && n->noutputs &&
          storage_written(n->graph, n->outputs[0]))
        return true;
    }
  }
  return false;
}

static bool tensor_known(const Value *v) {
  const Attr *c = ir_constant_attr(v);
  return c && c->kind == ATTR_TENSOR && c->t && c->t->data && !storage_written(v->def->graph, v);
}

/* Fills `a` for input value v; returns whether its value is known at compile time. */
static bool arg_of(Arena *ar, const Value *v, mck_arg *a) {
  memset(a, 0, sizeof *a);
  const Type *ty = v->type;
  if (ir_is_constant(v) || ir_constant_attr(v)) {
    bool known = kargs_constant(ar, v, a);
    return a->kind == MCK_TENSOR ? known && tensor_known(v) : known;
  }
  if (ty->kind == TY_TENSOR) {
    a->kind = MCK_TENSOR;
    a->u.t = kargs_tensor(ar, v);
    return false;
  }
  if (ty->kind == TY_LIST && v->def && ir_node_is(v->def, "prim::ListConstruct")) {
    const Node *d = v->def;
    const Type *el = ty->elem;
    if (el && (el->kind == TY_TENSOR || el->kind == TY_OPTIONAL)) {
      bool known = true;
      a->kind = MCK_TENSORS;
      a->n = d->ninputs;
      a->u.ts = arena_alloc(ar, sizeof(mck_tensor *) * (size_t)(d->ninputs + 1));
      for (int i = 0; i < d->ninputs; i++) {
        if (ir_constant_is_none(d->inputs[i])) {
          a->u.ts[i] = NULL;
          continue;
        }
        a->u.ts[i] = kargs_tensor(ar, d->inputs[i]);
        known = known && tensor_known(d->inputs[i]);
      }
      return known;
    }
    /* a list of scalars that are not all constants */
    a->kind = MCK_UNKNOWN;
    a->n = d->ninputs;
    return false;
  }
  /* A scalar known only at run time carries the kind it will have in `n` (mck.h). */
  a->kind = MCK_UNKNOWN;
  a->n = ty->kind == TY_FLOAT ? MCK_FLOAT : ty->kind == TY_BOOL ? MCK_BOOL_ARG : ty->kind == TY_INT ? MCK_INT : 0;
  return false;
}

/* Builds the argument arrays of a kernel node. Returns whether every input is known. */
typedef struct NodeArgs {
  mck_arg *in, *out;
  int nin, nout;
  bool known;
} NodeArgs;

static void node_args(Arena *ar, const Node *n, NodeArgs *na) {
  na->nin = n->ninputs;
  na->nout = n->noutputs;
  na->in = arena_alloc(ar, sizeof(mck_arg) * (size_t)(n->ninputs + 1));
  na->out = arena_alloc(ar, sizeof(mck_arg) * (size_t)(n->noutputs + 1));
  na->known = true;
  for (int i = 0; i < n->ninputs; i++) na->known &= arg_of(ar, n->inputs[i], &na->in[i]);
  for (int i = 0; i < n->noutputs; i++) kargs_out(ar, n->outputs[i], &na->out[i]);
}

bool infer_node_is_view(const Node *n) {
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (!op) return false;
  if (!(op->flags & OPF_MAYBE_VIEW)) return op->effect == EFF_VIEW || op->effect == EFF_WRITE;
  if (!op->kernel) return false;
  Arena *ar = arena_new();
  NodeArgs na;
  node_args(ar, n, &na);
  mck_ctx ctx = {0};
  ctx.meta = 1;
  bool view = false;
  if (na.nout > 0 && na.out[0].kind == MCK_TENSOR && op->kernel(&ctx, na.out, na.nout, na.in, na.nin) == 0)
    view = na.out[0].u.t->offset != -1;
  arena_free(ar);
  return view;
}

const Value *infer_alias_source(const Value *v) {
  const Node *n = v->def;
  if (!n || v->index != 0 || v->type->kind != TY_TENSOR) return NULL;
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (!op || op->flags & OPF_STRUCTURAL) return NULL;
  if ((op->effect == EFF_VIEW || op->effect == EFF_WRITE || (op->flags & OPF_MAYBE_VIEW)) &&
      op->effect_arg < n->ninputs && infer_node_is_view(n))
    return n->inputs[op->effect_arg];
  return NULL;
}

/* ---- replacing nodes by constants -------------------------------------------------------- */
static Node *constant_for(Graph *g, const mck_arg *a, const Value *like) {
  SrcLoc loc = like->def ? like->def->loc : like->loc;
  switch (a->kind) {
  case MCK_INT: return ir_make_constant_int(g, a->u.i, loc);
  case MCK_BOOL_ARG: return ir_make_constant_bool(g, a->u.i != 0, loc);
  case MCK_FLOAT: return ir_make_constant_float(g, a->u.f, loc);
  case MCK_NONE: return ir_make_constant_none(g, loc);
  case MCK_INTS: return ir_make_constant_ints(g, a->u.ints, a->n, loc);
  case MCK_TENSOR: {
    const mck_tensor *t = a->u.t;
    IrTensor *it = arena_alloc(g->arena, sizeof *it);
    it->dtype = (DType)t->dtype;
    it->ndim = t->ndim;
    for (int i = 0; i < t->ndim; i++) it->shape[i] = t->shape[i];
    int64_t numel = mck_numel(t);
    size_t es = mck_dtype_size(t->dtype);
    it->nbytes = (size_t)numel * es;
    it->data = arena_alloc(g->arena, it->nbytes ? it->nbytes : 1);
    /* materialise (the kernel may have produced a view) */
    mck_tensor dst = *t;
    dst.data = it->data;
    dst.offset = 0;
    mck_contiguous_strides(&dst);
    mck_iter iter;
    mck_iter_init(&iter, t->ndim, t->shape, 2, (const int64_t *const[]){dst.stride, t->stride},
                  (const int64_t[]){0, t->offset});
    for (int64_t k = 0; k < iter.total; k++, mck_iter_next(&iter))
      memcpy((char *)it->data + iter.off[0] * (int64_t)es, (const char *)t->data + iter.off[1] * (int64_t)es, es);
    return ir_make_constant_tensor(g, it, loc);
  }
  default: return NULL;
  }
}

/* ---- the pass ---------------------------------------------------------------------------- */
struct Infer;
static void infer_block(struct Infer *in, Block *b);
typedef struct Infer {
  Graph *g;
  PassCtx *c;
  Arena *scratch;
  int errs;
  int first_new_node; /* nodes with a smaller id were in the graph before infer ran */
  /* Graphs with dynamic extents (Graph.dims, docs/dynamic.md); all NULL for static graphs. By
   * value id: dyn[id] = 1 when the value may depend on a dynamic extent (it is then never
   * folded), ex[id] its value at the example's sizes where known (exk[id] = 1). */
  char *dyn, *exk;
  mck_arg *ex;
  int ncap;
} Infer;

/* ---- dynamic extents ----------------------------------------------------------------------
 * Nothing that depends on a dynamic extent becomes a constant: sizes of such tensors and every
 * scalar computed from them stay nodes that the generated code computes at run time. Types are
 * still inferred at the example's sizes (the example values of those scalars, kept beside the
 * graph in ex[], feed the shape rules), so the graph keeps complete types; dynshape.c computes
 * the shapes at the Dims' bounds for the memory plan. */
static void set_type_from_arg(Infer *in, Value *v, const mck_arg *a, const Node *n);

static bool dyn_room(Infer *in, int id) {
  if (id < in->ncap) return true;
  int cap = in->g->next_value_id + 64;
  if (cap <= id) cap = id + 64;
  char *d = realloc(in->dyn, (size_t)cap), *k = realloc(in->exk, (size_t)cap);
  if (d) in->dyn = d;
  if (k) in->exk = k;
  mck_arg *x = realloc(in->ex, sizeof *x * (size_t)cap);
  if (x) in->ex = x;
  if (!d || !k || !x) return false;
  memset(in->dyn + in->ncap, 0, (size_t)(cap - in->ncap));
  memset(in->exk + in->ncap, 0, (size_t)(cap - in->ncap));
  memset(in->ex + in->ncap, 0, sizeof *x * (size_t)(cap - in->ncap));
  in->ncap = cap;
  return true;
}

static bool is_dyn(const Infer *in, const Value *v) { return in->dyn && v->id < in->ncap && in->dyn[v->id]; }

static void mark_dyn(Infer *in, const Value *v, const mck_arg *ex) {
  if (!dyn_room(in, v->id)) return;
  in->dyn[v->id] = 1;
  if (ex && ex->kind != MCK_UNKNOWN) {
    in->ex[v->id] = *ex;
    in->exk[v->id] = 1;
  }
}

/* Node n's results have sizes that depend on the data (its kernel said so in meta mode): typed
 * at their bounds, they and everything computed from them are run-time shapes, never folded. */
static void data_sized(Infer *in, const Node *n) {
  Graph *g = in->g;
  if (!g->sized_by_data) {
    g->sized_by_data = true;
    g->sized_loc = n->loc;
    g->sized_kind = n->kind;
    g->sized_py = n->py_loc;
  }
  for (int i = 0; i < n->noutputs; i++) mark_dyn(in, n->outputs[i], NULL);
}

/* Runs kernel node n for real on its inputs' (example) values, as fold_node does, without
 * making constants: the results stay in na->out. false when a value is not known. */
static bool example_run(Infer *in, const OpDef *op, NodeArgs *na) {
  mck_ctx ctx = {0};
  ctx.meta = 1;
  if (op->kernel(&ctx, na->out, na->nout, na->in, na->nin) != 0) return false;
  if (!kargs_give_data(in->scratch, op, na->out, na->nout, FOLD_SMALL_NUMEL, UINT64_MAX)) return false;
  ctx.meta = 0;
  if (op->kernel(&ctx, na->out, na->nout, na->in, na->nin) != 0) return false;
  for (int i = 0; i < na->nout; i++)
    if (na->out[i].kind == MCK_UNKNOWN) return false;
  return true;
}

/* Kernel node n with an input that depends on a dynamic extent: typed at the example's sizes,
 * its outputs marked, never folded. Returns false when n has no such input. */
static bool infer_dynamic_node(Infer *in, Node *n, const OpDef *op) {
  if (!in->dyn) return false;
  /* the rank, dtype and kind of a tensor do not depend on its extents: those fold as usual */
  if ((op->flags & OPF_SHAPE_ONLY) && !ir_node_is(n, "aten::size") && !ir_node_is(n, "aten::numel")) return false;
  bool tainted = false, have = op->effect == EFF_PURE && !(op->flags & OPF_NONDET);
  NodeArgs na;
  node_args(in->scratch, n, &na);
  for (int i = 0; i < n->ninputs; i++) {
    const Value *v = n->inputs[i];
    if (is_dyn(in, v)) {
      tainted = true;
      if (in->exk[v->id]) na.in[i] = in->ex[v->id];
      else have = false;
    } else {
      mck_arg tmp;
      have = have && arg_of(in->scratch, v, &tmp);
    }
  }
  if (!tainted) return false;
  for (int i = 0; i < n->noutputs; i++)
    if (n->outputs[i]->type->kind == TY_TENSOR && storage_written(in->g, n->outputs[i])) have = false;
  bool ran = have && !(op->flags & OPF_DATA_SIZED) && example_run(in, op, &na);
  if (!ran) {
    for (int i = 0; i < na.nout; i++) kargs_out(in->scratch, n->outputs[i], &na.out[i]);
    mck_ctx ctx = {0};
    ctx.meta = 1;
    if (op->kernel(&ctx, na.out, na.nout, na.in, na.nin) != 0) {
      diag_error(in->c->diag, n->loc, "%s", ctx.err[0] ? ctx.err : "invalid arguments");
      if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
      in->errs++;
      return true;
    }
    if (ctx.sized_by_data) data_sized(in, n);
  }
  for (int i = 0; i < na.nout; i++) {
    set_type_from_arg(in, n->outputs[i], &na.out[i], n);
    bool shape_only = (op->flags & OPF_SHAPE_ONLY) && na.out[i].kind != MCK_TENSOR;
    mark_dyn(in, n->outputs[i], ran || shape_only ? &na.out[i] : NULL);
  }
  return true;
}

/* A list of scalars with an element that depends on a dynamic extent: kept (not folded),
 * marked, with its example value when every element has one. */
static bool infer_dynamic_list(Infer *in, Node *n) {
  if (!in->dyn) return false;
  bool tainted = false, have = true;
  for (int i = 0; i < n->ninputs; i++) tainted |= is_dyn(in, n->inputs[i]);
  if (!tainted) return false;
  const Type *el = n->outputs[0]->type->elem;
  bool fl = el && el->kind == TY_FLOAT;
  mck_arg a = {0};
  a.kind = fl ? MCK_FLOATS : el && el->kind == TY_BOOL ? MCK_BOOLS : MCK_INTS;
  a.n = n->ninputs;
  a.u.ints = arena_alloc(in->scratch, sizeof(int64_t) * (size_t)(n->ninputs + 1));
  double *fs = arena_alloc(in->scratch, sizeof(double) * (size_t)(n->ninputs + 1));
  if (fl) a.u.floats = fs;
  for (int i = 0; i < n->ninputs && have; i++) {
    const Value *v = n->inputs[i];
    mck_arg x;
    if (is_dyn(in, v)) {
      if (!in->exk[v->id]) {
        have = false;
        break;
      }
      x = in->ex[v->id];
    } else if (!arg_of(in->scratch, v, &x)) {
      have = false;
      break;
    }
    if (x.kind != MCK_INT && x.kind != MCK_BOOL_ARG && x.kind != MCK_FLOAT) {
      have = false;
      break;
    }
    if (fl) fs[i] = x.kind == MCK_FLOAT ? x.u.f : (double)x.u.i;
    else a.u.ints[i] = x.kind == MCK_FLOAT ? (int64_t)x.u.f : x.u.i;
  }
  bool tensors = el && (el->kind == TY_TENSOR || el->kind == TY_OPTIONAL);
  mark_dyn(in, n->outputs[0], have && !tensors ? &a : NULL);
  return true;
}

/* Element i of `aten::size(x)` for a tensor x whose size depends on a dynamic extent (a scripted
 * `b, s = x.shape` or `x.shape[0]`): the node aten::size(x, i), inserted before `at`, typed. */
static void infer_node(Infer *in, Node *n);
static Value *dyn_size_elem(Infer *in, Node *at, Value *x, int64_t i) {
  Graph *g = in->g;
  Node *c = ir_make_constant_int(g, i, at->loc);
  ir_insert_before(at, c);
  Value *ins[2] = {x, c->outputs[0]};
  Type *t = ir_type_scalar(g, TY_INT);
  Node *sz = ir_node_new(g, "aten::size", ins, 2, 1, &t);
  sz->loc = at->loc;
  sz->py_loc = at->py_loc;
  ir_insert_before(at, sz);
  infer_node(in, sz);
  return sz->outputs[0];
}

static bool dyn_size_list(const Infer *in, const Value *l) {
  return in->dyn && is_dyn(in, l) && l->def && ir_node_is(l->def, "aten::size") && l->def->ninputs == 1 &&
         l->def->inputs[0]->type->kind == TY_TENSOR && l->def->inputs[0]->type->ndim >= 0;
}

/* Splitting tensor x (the list's source) into pieces along `dim` is only right when that
 * extent is the same at every size of the Dims. */
static bool pieces_fixed(Infer *in, const Node *d, int64_t dim, const Node *at) {
  if (!in->dyn || !d || d->ninputs < 1 || !is_dyn(in, d->inputs[0])) return true;
  const Value *x = d->inputs[0];
  int64_t nd = x->type->ndim;
  int64_t ax = dim < 0 ? dim + nd : dim;
  if (d->owner == in->g->top && ax >= 0 && ax < nd && dyn_extent_fixed(in->g, x, (int)ax, d)) return true;
  diag_error(in->c->diag, at->loc, "'%s' splits %%%s along dim %lld, whose size depends on a dynamic extent (Dim); "
             "this is not supported yet", d->kind, x->name, (long long)dim);
  if (d->py_loc) diag_note(in->c->diag, at->loc, "from PyTorch code at %s", d->py_loc);
  in->errs++;
  return false;
}

static void set_type_from_arg(Infer *in, Value *v, const mck_arg *a, const Node *n) {
  if (a->kind != MCK_TENSOR || v->type->kind == TY_LIST) return;
  const mck_tensor *t = a->u.t;
  Type *old = v->type;
  Type cand = {.kind = TY_TENSOR}, *nt = &cand; /* then shared: one Type per distinct type */
  nt->dtype = (DType)t->dtype;
  nt->ndim = t->ndim;
  for (int i = 0; i < t->ndim; i++) {
    nt->shape[i] = t->shape[i];
    nt->strides[i] = t->stride[i];
  }
  nt->has_strides = true;
  nt->requires_grad = 0;
  nt->device = "cpu";
  if (ir_type_is_complete_tensor(old) && !ir_type_equal(old, nt)) {
    char *want = ir_type_str(in->g->arena, old), *got = ir_type_str(in->g->arena, nt);
    diag_error(in->c->diag, n->loc, "'%s' computes %%%s as %s, but PyTorch recorded %s", n->kind, v->name, got, want);
    if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
    in->errs++;
  }
  v->type = ir_type_shared(in->g, nt);
}

static bool is_struct(const Node *n, const char *k) { return ir_node_is(n, k); }

/* Whether tensor value v is a new tensor object, made by its node: a kernel that never returns
 * one of its inputs itself (nor writes one in place), so v is no other value's object. */
static bool fresh_object(const Value *v) {
  const Node *d = v->def;
  const OpDef *op = d ? (d->op ? d->op : ops_lookup(d->kind)) : NULL;
  return op && op->kernel && (op->effect == EFF_PURE || op->effect == EFF_VIEW) &&
         !(op->flags & (OPF_SELF_ANY | OPF_MAY_ALIAS | OPF_MAYBE_VIEW));
}

/* len() of a Python str: its code points; -1 when the text is not well-formed UTF-8 (no str
 * holds it, so no length is folded). */
static int64_t utf8_length(const char *s) {
  int64_t n = 0;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    int more = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 && *p >= 0xC2 ? 1 : (*p & 0xF0) == 0xE0 ? 2
               : (*p & 0xF8) == 0xF0 && *p <= 0xF4 ? 3 : -1;
    if (more < 0) return -1;
    p++;
    for (int k = 0; k < more; k++, p++)
      if ((*p & 0xC0) != 0x80) return -1;
    n++;
  }
  return n;
}

/* Replaces node n's outputs by values `vs` and removes n. */
static void forward_outputs(Graph *g, Node *n, Value **vs) {
  for (int i = 0; i < n->noutputs; i++) ir_replace_uses(g, n->outputs[i], vs[i], NULL);
  ir_remove(n);
}


static bool fold_node(Infer *in, Node *n, const OpDef *op, NodeArgs *na) {
  if (op->effect != EFF_PURE || (op->flags & OPF_NONDET) || !na->known) return false;
  for (int i = 0; i < n->noutputs; i++)
    if (n->outputs[i]->type->kind == TY_TENSOR && storage_written(in->g, n->outputs[i])) return false;
  mck_ctx ctx = {0};
  ctx.meta = 1;
  if (op->kernel(&ctx, na->out, na->nout, na->in, na->nin) != 0) return false;
  bool has_tensor_in = false;
  for (int i = 0; i < na->nin; i++) has_tensor_in |= na->in[i].kind == MCK_TENSOR || na->in[i].kind == MCK_TENSORS;
  if (!kargs_give_data(in->scratch, op, na->out, na->nout, has_tensor_in ? -1 : FOLD_SMALL_NUMEL, FOLD_MAX_BYTES))
    return false;
  ctx.meta = 0;
  /* view kernels set data themselves from the (real) input */
  if (op->kernel(&ctx, na->out, na->nout, na->in, na->nin) != 0) return false;
  for (int i = 0; i < na->nout; i++)
    if (na->out[i].kind == MCK_UNKNOWN) return false;
  Value **vs = arena_alloc(in->scratch, sizeof(Value *) * (size_t)(na->nout + 1));
  for (int i = 0; i < na->nout; i++) {
    Node *c = constant_for(in->g, &na->out[i], n->outputs[i]);
    if (!c) return false;
    ir_insert_before(n, c);
    c->py_loc = n->py_loc;
    vs[i] = c->outputs[0];
    if (c->outputs[0]->type->kind == TY_TENSOR) set_type_from_arg(in, c->outputs[0], &na->out[i], n);
  }
  forward_outputs(in->g, n, vs);
  return true;
}

/* ---- Python numbers in traced graphs ------------------------------------------------------
 * PyTorch wraps a Python number passed for a tensor operand (`2.5 * x`, `x + 1`) into a 0-dim
 * tensor marked as a "wrapped number": float64 for a float, int64 for an int, bool for a bool.
 * torch.jit.trace records it as such a tensor constant (`Double() = prim::Constant[value={2.5}]`),
 * and in type promotion it counts as a Python scalar, not as a 0-dim tensor: it never widens a
 * tensor within its category, and a float gives the default dtype (float32) to integer tensors.
 * So a 0-dim float64/int64/bool tensor constant of the input graph, passed where the schema also
 * takes a Scalar, becomes the number itself, which the kernels promote as PyTorch does. Module
 * attributes frozen into constants (`%self.scale`, buffers) stay tensors. A 0-dim tensor the
 * program made itself (`torch.tensor(2.5, dtype=torch.float64)`) looks like a wrapped number;
 * where the dump records the node's result types, the reading that gives PyTorch's recorded
 * dtypes wins (a graph JSON records none: there the number reading is taken). Scripted graphs
 * pass numbers as numbers. */
static bool param_takes_scalar(const OpDef *op, const Node *n, int i) {
  int k = ops_match(op, n);
  OpSig sig;
  if (k < 0 || !ops_overload(op, k, &sig) || sig.variadic || i >= sig.nparams || i >= OPS_MAX_PARAMS) return false;
  const char *t = sig.params[i].type;
  for (const char *p = strstr(t, "Scalar"); p; p = strstr(p + 1, "Scalar"))
    if ((p == t || p[-1] == '|') && (p[6] == '\0' || p[6] == '|' || p[6] == '?')) return true;
  return false;
}

static bool wrapped_number(const Infer *in, const Value *v) {
  const Node *d = v->def;
  const Attr *c = ir_constant_attr(v);
  if (!d || !ir_node_is(d, "prim::Constant") || d->id >= in->first_new_node || !c || c->kind != ATTR_TENSOR ||
      !c->t || !c->t->data || c->t->ndim != 0)
    return false;
  if (c->t->dtype != DT_F64 && c->t->dtype != DT_I64 && c->t->dtype != DT_BOOL) return false;
  /* a module attribute frozen into a constant (%self.scale: a buffer) is a tensor */
  if (v->name && strncmp(v->name, "self.", 5) == 0) return false;
  return !storage_written(in->g, v);
}

static Node *number_constant(Graph *g, const IrTensor *t, SrcLoc loc) {
  if (t->dtype == DT_F64) {
    double f;
    memcpy(&f, t->data, sizeof f);
    return ir_make_constant_float(g, f, loc);
  }
  if (t->dtype == DT_BOOL) return ir_make_constant_bool(g, *(const uint8_t *)t->data != 0, loc);
  int64_t i;
  memcpy(&i, t->data, sizeof i);
  return ir_make_constant_int(g, i, loc);
}

/* The dtypes of n's tensor results as its kernel computes them now; false if it fails. */
static bool meta_dtypes(Infer *in, Node *n, const OpDef *op, int *dts) {
  NodeArgs na;
  node_args(in->scratch, n, &na);
  for (int i = 0; i < na.nin; i++)
    if (na.in[i].kind == MCK_TENSOR && !ir_type_is_complete_tensor(n->inputs[i]->type)) return false;
  mck_ctx ctx = {0};
  ctx.meta = 1;
  if (op->kernel(&ctx, na.out, na.nout, na.in, na.nin) != 0) return false;
  for (int k = 0; k < na.nout; k++) dts[k] = na.out[k].kind == MCK_TENSOR ? na.out[k].u.t->dtype : -1;
  return true;
}

static bool recorded_dtypes_match(const Node *n, const int *dts) {
  for (int k = 0; k < n->noutputs; k++) {
    const Type *t = n->outputs[k]->type;
    if (ir_type_is_complete_tensor(t) && dts[k] != (int)t->dtype) return false;
  }
  return true;
}

static void unwrap_numbers(Infer *in, Node *n, const OpDef *op) {
  enum { MAXW = 4 };
  int idx[MAXW], nw = 0;
  for (int i = 0; i < n->ninputs && nw < MAXW; i++)
    if (wrapped_number(in, n->inputs[i]) && param_takes_scalar(op, n, i)) idx[nw++] = i;
  if (!nw) return;
  bool recorded = false;
  for (int k = 0; k < n->noutputs; k++) recorded |= ir_type_is_complete_tensor(n->outputs[k]->type);
  int *as_tensor = arena_alloc(in->scratch, sizeof(int) * (size_t)(n->noutputs + 1));
  int *as_number = arena_alloc(in->scratch, sizeof(int) * (size_t)(n->noutputs + 1));
  bool tensor_ok = recorded && meta_dtypes(in, n, op, as_tensor) && recorded_dtypes_match(n, as_tensor);
  Value *orig[MAXW];
  Node *made[MAXW];
  for (int w = 0; w < nw; w++) {
    orig[w] = n->inputs[idx[w]];
    made[w] = number_constant(in->g, ir_constant_attr(orig[w])->t, orig[w]->def->loc);
    made[w]->py_loc = orig[w]->def->py_loc;
    ir_insert_before(n, made[w]);
    ir_node_set_input(n, idx[w], made[w]->outputs[0]);
  }
  if (!tensor_ok || (meta_dtypes(in, n, op, as_number) && recorded_dtypes_match(n, as_number))) return;
  /* only the 0-dim tensor reading gives what PyTorch recorded: a tensor the program made */
  for (int w = 0; w < nw; w++) {
    ir_node_set_input(n, idx[w], orig[w]);
    ir_remove(made[w]);
  }
}

static int list_pieces(const Node *d, int64_t *dim, int64_t *starts, int64_t *ends);
static void infer_node(Infer *in, Node *n);
static Value *piece_view(Infer *in, Node *n, const Node *d, int64_t dim, int64_t start, int64_t end);

/* A list of views with known pieces passed to a kernel (torch.cat(x.split(2), 1)): the list of
 * its pieces, built before n. */
static void list_args_of_pieces(Infer *in, Node *n) {
  for (int i = 0; i < n->ninputs; i++) {
    Value *l = n->inputs[i];
    int64_t dim, starts[256], ends[256];
    if (l->type->kind != TY_LIST) continue;
    int k = list_pieces(l->def, &dim, starts, ends);
    if (k < 0) continue;
    if (!pieces_fixed(in, l->def, dim, n)) return;
    Value **vs = arena_alloc(in->scratch, sizeof(Value *) * (size_t)(k + 1));
    for (int j = 0; j < k && !in->errs; j++) {
      vs[j] = piece_view(in, n, l->def, dim, starts[j], ends[j]);
      infer_node(in, vs[j]->def); /* the walk is past the point they are inserted at */
    }
    if (in->errs) return;
    Type *t = ir_type_copy(in->g->arena, l->type);
    Node *lc = ir_node_new(in->g, "prim::ListConstruct", vs, k, 1, &t);
    lc->loc = l->def->loc;
    lc->py_loc = l->def->py_loc;
    ir_insert_before(n, lc);
    ir_node_set_input(n, i, lc->outputs[0]);
  }
}

static bool list_appended_in(const Block *b, const Value *l);

static void infer_kernel_node(Infer *in, Node *n, const OpDef *op) {
  list_args_of_pieces(in, n);
  if (in->errs) return;
  unwrap_numbers(in, n, op);
  NodeArgs na;
  node_args(in->scratch, n, &na);
  for (int i = 0; i < na.nin; i++) {
    if (na.in[i].kind != MCK_TENSOR && ops_node_param_is_tensor(n, i)) {
      diag_error(in->c->diag, n->loc, "'%s': input %d (%%%s) must be a tensor, not %s", n->kind, i,
                 n->inputs[i]->name, ir_type_str(in->scratch, n->inputs[i]->type));
      in->errs++;
      return;
    }
    if (na.in[i].kind == MCK_TENSOR && !ir_type_is_complete_tensor(n->inputs[i]->type)) {
      diag_error(in->c->diag, n->loc, "'%s': the shape of input %%%s is not known", n->kind, n->inputs[i]->name);
      in->errs++;
      return;
    }
  }
  for (int i = 0; i < na.nout; i++) {
    if (na.out[i].kind != MCK_TENSOR && ops_node_result_is_tensor(n, i)) {
      diag_error(in->c->diag, n->loc, "'%s' returns a tensor, but %%%s is declared %s", n->kind,
                 n->outputs[i]->name, ir_type_str(in->scratch, n->outputs[i]->type));
      in->errs++;
      return;
    }
  }
  for (int i = 0; i < n->ninputs; i++) {
    const Value *l = n->inputs[i];
    if (l->type->kind == TY_LIST && l->def && ir_node_is(l->def, "prim::ListConstruct") &&
        list_appended_in(in->g->top, l)) {
      diag_error(in->c->diag, n->loc,
                 "'%s': the length of list %%%s is known only at run time (it is appended to in a loop "
                 "or branch that cannot be unrolled at compile time); mc needs list lengths at compile time",
                 n->kind, l->name);
      if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
      in->errs++;
      return;
    }
  }
  if (infer_dynamic_node(in, n, op)) return;
  if (fold_node(in, n, op, &na)) return;
  node_args(in->scratch, n, &na);
  mck_ctx ctx = {0};
  ctx.meta = 1;
  if (op->kernel(&ctx, na.out, na.nout, na.in, na.nin) != 0) {
    diag_error(in->c->diag, n->loc, "%s", ctx.err[0] ? ctx.err : "invalid arguments");
    if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
    in->errs++;
    return;
  }
  for (int i = 0; i < na.nout; i++) set_type_from_arg(in, n->outputs[i], &na.out[i], n);
  if (ctx.sized_by_data) data_sized(in, n);
  /* A Scalar read out of a tensor (aten::item, aten::ScalarImplicit) has the kind of the
   * tensor's dtype, as the Python number PyTorch returns: float, bool or int. */
  if (na.nout == 1 && n->outputs[0]->type->kind == TY_NUMBER && na.nin >= 1 && na.in[0].kind == MCK_TENSOR &&
      (ir_node_is(n, "aten::item") || ir_node_is(n, "aten::ScalarImplicit"))) {
    DType dt = n->inputs[0]->type->dtype;
    n->outputs[0]->type = ir_type_scalar(in->g, ir_dtype_is_float(dt) ? TY_FLOAT : dt == DT_BOOL ? TY_BOOL : TY_INT);
  }
  if ((op->flags & OPF_SHAPE_ONLY) && na.nout == 1 && na.out[0].kind != MCK_UNKNOWN && na.out[0].kind != MCK_TENSOR) {
    Node *c = constant_for(in->g, &na.out[0], n->outputs[0]);
    if (c) {
      ir_insert_before(n, c);
      forward_outputs(in->g, n, c->outputs);
    }
  }
}

/* aten::split / split_with_sizes / chunk / unbind produce a Tensor[] whose elements
 * prim::ListUnpack or aten::__getitem__ take out. With static shapes every piece is known: the
 * list's def d gives its pieces along *dim (start..end, or the index `start` for unbind) and
 * returns how many there are, or -1 when they are not known at compile time. */
#define MAX_PIECES 256
static int list_pieces(const Node *d, int64_t *dim, int64_t *starts, int64_t *ends) {
  if (!d || d->ninputs < 1 || !ir_type_is_complete_tensor(d->inputs[0]->type)) return -1;
  bool split = ir_node_is(d, "aten::split") || ir_node_is(d, "aten::split_with_sizes") ||
               ir_node_is(d, "aten::unsafe_split") || ir_node_is(d, "aten::unsafe_split_with_sizes");
  bool chunk = ir_node_is(d, "aten::chunk") || ir_node_is(d, "aten::unsafe_chunk"), unbind = ir_node_is(d, "aten::unbind");
  bool tsplit = ir_node_is(d, "aten::tensor_split");
  if (!split && !chunk && !unbind && !tsplit) return -1;
  const Type *t = d->inputs[0]->type;
  *dim = 0;
  int dim_input = unbind ? 1 : 2;
  if (d->ninputs > dim_input && !ir_constant_int(d->inputs[dim_input], dim)) return -1;
  if (t->ndim == 0) return -1;
  if (*dim < 0) *dim += t->ndim;
  if (*dim < 0 || *dim >= t->ndim) return -1;
  int64_t len = t->shape[*dim];
  int k = 0;
  const Attr *sizes = d->ninputs > 1 ? ir_constant_attr(d->inputs[1]) : NULL;
  if (tsplit && sizes && sizes->kind == ATTR_INTS) {
    /* the pieces between the indices: slice bounds (aten::slice wraps and clamps them) */
    if (sizes->n + 1 > MAX_PIECES) return -1;
    for (int i = 0; i <= sizes->n; i++, k++) {
      starts[k] = i ? sizes->ints[i - 1] : 0;
      ends[k] = i < sizes->n ? sizes->ints[i] : INT64_MAX;
    }
  } else if (tsplit) {
    int64_t sections;
    if (d->ninputs < 2 || !ir_constant_int(d->inputs[1], &sections) || sections <= 0 || sections > MAX_PIECES) return -1;
    int64_t at = 0;
    for (int64_t i = 0; i < sections; i++, k++) {
      starts[k] = at;
      at += len / sections + (i < len % sections);
      ends[k] = at;
    }
  } else if (unbind) {
    if (len > MAX_PIECES) return -1;
    for (int64_t i = 0; i < len; i++, k++) starts[k] = i;
  } else if (sizes && sizes->kind == ATTR_INTS) {
    int64_t at = 0;
    if (sizes->n > MAX_PIECES) return -1;
    for (int i = 0; i < sizes->n; i++, k++) {
      if (sizes->ints[i] < 0) return -1;
      starts[k] = at;
      at += sizes->ints[i];
      ends[k] = at;
    }
    if (at != len) return -1;
  } else {
    int64_t step;
    if (d->ninputs < 2 || !ir_constant_int(d->inputs[1], &step) || step <= 0) return -1;
    if (chunk) step = (len + step - 1) / step;
    if (step <= 0) step = 1;
    if ((len + step - 1) / step > MAX_PIECES) return -1;
    for (int64_t at = 0; at < len; at += step, k++) {
      starts[k] = at;
      ends[k] = at + step < len ? at + step : len;
    }
    if (len == 0) {
      starts[0] = 0;
      ends[0] = 0;
      k = 1;
    }
  }
  return k;
}

/* Piece i of list def d as a view of d's input, inserted before n: an aten::slice (an
 * aten::select for unbind), like the piece PyTorch returns. */
static Value *piece_view(Infer *in, Node *n, const Node *d, int64_t dim, int64_t start, int64_t end) {
  Graph *g = in->g;
  Node *cd = ir_make_constant_int(g, dim, n->loc);
  ir_insert_before(n, cd);
  Node *piece;
  if (ir_node_is(d, "aten::unbind")) {
    Node *ci = ir_make_constant_int(g, start, n->loc);
    ir_insert_before(n, ci);
    Value *args[3] = {d->inputs[0], cd->outputs[0], ci->outputs[0]};
    piece = ir_node_new(g, "aten::select", args, 3, 1, NULL);
  } else {
    Node *c0 = ir_make_constant_int(g, start, n->loc), *c1 = ir_make_constant_int(g, end, n->loc),
         *c2 = ir_make_constant_int(g, 1, n->loc);
    ir_insert_before(n, c0);
    ir_insert_before(n, c1);
    ir_insert_before(n, c2);
    Value *args[5] = {d->inputs[0], cd->outputs[0], c0->outputs[0], c1->outputs[0], c2->outputs[0]};
    piece = ir_node_new(g, "aten::slice", args, 5, 1, NULL);
  }
  piece->loc = d->loc;
  piece->py_loc = d->py_loc;
  ir_insert_before(n, piece);
  return piece->outputs[0];
}

/* aten::broadcast_tensors(prim::ListConstruct(a, b, ...)) taken apart by prim::ListUnpack
 * (unpack) or by aten::__getitem__ with the constant index `at`: element i is the view
 * broadcast_to(tensor i, the broadcast shape of all), as PyTorch returns it. False when n's list
 * does not come from broadcast_tensors; true when handled (n replaced, or an error reported). */
static bool broadcast_into_views(Infer *in, Node *n, bool unpack, int64_t at) {
  const Node *d = n->inputs[0]->def;
  if (!d || !ir_node_is(d, "aten::broadcast_tensors")) return false;
  const Node *lc = d->ninputs == 1 ? d->inputs[0]->def : NULL;
  int k = lc && ir_node_is(lc, "prim::ListConstruct") ? lc->ninputs : -1;
  if (at < 0) at += k;
  if (k < 0 || (unpack && k != n->noutputs) || (!unpack && (at < 0 || at >= k))) {
    if (k < 0) diag_error(in->c->diag, n->loc, "aten::broadcast_tensors of a list not built in the graph is not supported");
    else diag_error(in->c->diag, n->loc, "the elements taken out of aten::broadcast_tensors do not match its %d tensors", k);
    if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
    in->errs++;
    return true;
  }
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS] = {0};
  for (int i = 0; i < k; i++) {
    const Type *t = lc->inputs[i]->type;
    int64_t prev[MCK_MAX_DIMS];
    int np = nd;
    memcpy(prev, shape, sizeof shape);
    if (!ir_type_is_complete_tensor(t) || t->ndim > MCK_MAX_DIMS ||
        mck_broadcast_shape(np, prev, t->ndim, t->shape, &nd, shape)) {
      if (ir_type_is_complete_tensor(t)) diag_error(in->c->diag, n->loc, "aten::broadcast_tensors: the shapes of the tensors cannot be broadcast");
      else diag_error(in->c->diag, n->loc, "aten::broadcast_tensors: the shape of input %%%s is not known", lc->inputs[i]->name);
      in->errs++;
      return true;
    }
  }
  Node *cs = ir_make_constant_ints(in->g, shape, nd, n->loc);
  ir_insert_before(n, cs);
  int lo = unpack ? 0 : (int)at, hi = unpack ? k : lo + 1;
  Value **vs = arena_alloc(in->scratch, sizeof(Value *) * (size_t)(k + 1));
  for (int i = lo; i < hi; i++) {
    Value *args[2] = {lc->inputs[i], cs->outputs[0]};
    Node *e = ir_node_new(in->g, "aten::broadcast_to", args, 2, 1, NULL);
    e->loc = d->loc;
    e->py_loc = d->py_loc;
    ir_insert_before(n, e);
    vs[i - lo] = e->outputs[0];
  }
  forward_outputs(in->g, n, vs);
  return true;
}

/* torch.where(condition) and nonzero(as_tuple=True) (aten::nonzero_numpy under trace): one
 * int64 index tensor per dimension, which PyTorch builds as nonzero(condition).unbind(1), a 0-d
 * condition taken as 1-d. n becomes those nodes; the list machinery then takes the unbind apart
 * into selects of the nonzero result (contiguous columns of its column-major result, as
 * PyTorch's). */
static void where_into_nonzero(Infer *in, Node *n) {
  Graph *g = in->g;
  Value *c = n->inputs[0];
  if (c->type->kind == TY_TENSOR && c->type->ndim == 0) {
    Node *zero = ir_make_constant_int(g, 0, n->loc);
    ir_insert_before(n, zero);
    Value *args[2] = {c, zero->outputs[0]};
    Node *u = ir_node_new(g, "aten::unsqueeze", args, 2, 1, NULL);
    u->loc = n->loc;
    u->py_loc = n->py_loc;
    ir_insert_before(n, u);
    infer_node(in, u);
    c = u->outputs[0];
  }
  Node *nz = ir_node_new(g, "aten::nonzero", &c, 1, 1, NULL);
  nz->loc = n->loc;
  nz->py_loc = n->py_loc;
  ir_insert_before(n, nz);
  infer_node(in, nz);
  Node *one = ir_make_constant_int(g, 1, n->loc);
  ir_insert_before(n, one);
  Value *args[2] = {nz->outputs[0], one->outputs[0]};
  Type *lt = ir_type_copy(g->arena, n->outputs[0]->type);
  Node *ub = ir_node_new(g, "aten::unbind", args, 2, 1, &lt);
  ub->loc = n->loc;
  ub->py_loc = n->py_loc;
  ir_insert_before(n, ub);
  infer_node(in, ub);
  forward_outputs(g, n, ub->outputs);
}

/* The elements of tensor list v, inserted before n where they are pieces (views) of a split;
 * NULL when they are not known here. *k: how many. */
static Value **tensor_list_elems(Infer *in, Node *n, Value *v, int *k) {
  const Node *d = v->def;
  int64_t dim, starts[MAX_PIECES], ends[MAX_PIECES];
  if (!d || v->type->kind != TY_LIST || !v->type->elem || v->type->elem->kind != TY_TENSOR) return NULL;
  if (ir_node_is(d, "prim::ListConstruct")) {
    *k = d->ninputs;
    return d->inputs;
  }
  int np = list_pieces(d, &dim, starts, ends);
  if (np < 0 || !pieces_fixed(in, d, dim, n)) return NULL;
  Value **vs = arena_alloc(in->g->arena, sizeof(Value *) * (size_t)(np + 1));
  for (int i = 0; i < np; i++) vs[i] = piece_view(in, n, d, dim, starts[i], ends[i]);
  *k = np;
  return vs;
}

/* aten::add of two lists of tensors (`(linear(q),) + linear(k).chunk(2)` in F.multi_head_attention's
 * in-projection) whose elements are known: one prim::ListConstruct of them all. */
static bool tensor_list_concat(Infer *in, Node *n) {
  Value *a = n->inputs[0], *b = n->inputs[1];
  if (a->type->kind != TY_LIST || b->type->kind != TY_LIST || !a->type->elem || a->type->elem->kind != TY_TENSOR)
    return false;
  int ka = 0, kb = 0;
  int64_t dim, starts[MAX_PIECES], ends[MAX_PIECES];
  for (int i = 0; i < 2; i++) { /* both known, before any piece is made */
    const Node *d = n->inputs[i]->def;
    if (!d || (!ir_node_is(d, "prim::ListConstruct") && list_pieces(d, &dim, starts, ends) < 0)) return false;
  }
  Value **ea = tensor_list_elems(in, n, a, &ka);
  Value **eb = ea ? tensor_list_elems(in, n, b, &kb) : NULL;
  if (!ea || !eb || in->errs) return in->errs > 0;
  Value **all = arena_alloc(in->g->arena, sizeof(Value *) * (size_t)(ka + kb + 1));
  memcpy(all, ea, sizeof(Value *) * (size_t)ka);
  memcpy(all + ka, eb, sizeof(Value *) * (size_t)kb);
  Type *t = ir_type_copy(in->g->arena, n->outputs[0]->type);
  Node *lc = ir_node_new(in->g, "prim::ListConstruct", all, ka + kb, 1, &t);
  lc->loc = n->loc;
  lc->py_loc = n->py_loc;
  ir_insert_before(n, lc);
  forward_outputs(in->g, n, lc->outputs); /* the walk goes on from the pieces and the list */
  return true;
}

/* prim::ListUnpack of such a list: one view per piece. */
static bool split_into_views(Infer *in, Node *n) {
  int64_t dim, starts[MAX_PIECES], ends[MAX_PIECES];
  const Node *d = n->inputs[0]->def;
  int k = list_pieces(d, &dim, starts, ends);
  if (k < 0 || k != n->noutputs) return false;
  if (!pieces_fixed(in, d, dim, n)) return true;
  Value **vs = arena_alloc(in->scratch, sizeof(Value *) * (size_t)(k + 1));
  for (int i = 0; i < k; i++) vs[i] = piece_view(in, n, d, dim, starts[i], ends[i]);
  forward_outputs(in->g, n, vs);
  return true;
}

/* A block's result flowing into a construct's output or loop state: tensors become fresh
 * contiguous tensors there (the C backend copies them), so only dtype and shape must agree. */
static Type *state_type(Infer *in, const Type *t) {
  if (t->kind != TY_TENSOR) return ir_type_copy(in->g->arena, t);
  Type *c = ir_type_tensor(in->g->arena, t->dtype, t->ndim, t->shape);
  c->requires_grad = 0;
  c->device = "cpu";
  return c;
}

static bool same_tensor_shape(const Type *a, const Type *b) {
  if (a->kind != TY_TENSOR || b->kind != TY_TENSOR) return a->kind == b->kind;
  if (a->dtype != b->dtype || a->ndim != b->ndim) return false;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i]) return false;
  return true;
}

/* Whether a block always raises (a prim::RaiseException at its top level). */
static bool block_raises(const Block *b) {
  for (const Node *n = b->first; n; n = n->next)
    if (ir_node_is(n, "prim::RaiseException")) return true;
  return false;
}

/* prim::If on a condition known only at run time: both branches are inferred; each output
 * takes the type both branches agree on. */
static void infer_if(Infer *in, Node *n) {
  if (n->nblocks != 2) return;
  for (int k = 0; k < 2 && !in->errs; k++) infer_block(in, n->blocks[k]);
  if (in->errs) return;
  bool raises0 = block_raises(n->blocks[0]), raises1 = block_raises(n->blocks[1]);
  for (int i = 0; i < n->noutputs; i++) {
    const Value *a = n->blocks[0]->rets[i], *b = n->blocks[1]->rets[i];
    if (n->outputs[i]->type->kind != TY_TENSOR) continue;
    /* a branch that raises never delivers its results: the other one decides the type */
    if (raises0 && !raises1) a = b;
    if (raises1 && !raises0) b = a;
    /* with Dims, the branch taken at the example's sizes types the output when the branches' shapes
     * differ there (the generated code gives it the shape of the branch taken at each run, and
     * dynshape plans for both); they must still agree on dtype and rank */
    const Value *c = n->inputs[0];
    if (in->dyn && is_dyn(in, c) && in->exk[c->id] && ir_type_is_complete_tensor(a->type) &&
        ir_type_is_complete_tensor(b->type) && a->type->dtype == b->type->dtype && a->type->ndim == b->type->ndim)
      a = b = in->ex[c->id].u.i ? a : b;
    if (!ir_type_is_complete_tensor(a->type) || !ir_type_is_complete_tensor(b->type) ||
        !same_tensor_shape(a->type, b->type)) {
      char *ta = ir_type_str(in->g->arena, a->type), *tb = ir_type_str(in->g->arena, b->type);
      diag_error(in->c->diag, n->loc, "the branches of this prim::If give output %d different types (%s and %s); "
                 "mc needs one static shape", i, ta, tb);
      if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
      in->errs++;
      return;
    }
    n->outputs[i]->type = state_type(in, a->type);
    if (in->dyn) mark_dyn(in, n->outputs[i], NULL); /* with Dims, a branch's result may have other sizes */
  }
}

/* prim::Loop(max_trip, cond, init...) with block (iter, carried...) -> (cond, carried...): the
 * carried values start with their initial types, which every iteration must keep. */
static void infer_loop(Infer *in, Node *n) {
  if (n->nblocks != 1) return;
  Block *body = n->blocks[0];
  int ncarried = n->ninputs - 2;
  if (ncarried < 0 || body->nparams != ncarried + 1 || body->nrets != ncarried + 1 || n->noutputs != ncarried) {
    diag_error(in->c->diag, n->loc, "malformed prim::Loop: %d inputs, %d block parameters, %d block results, %d outputs",
               n->ninputs, body->nparams, body->nrets, n->noutputs);
    in->errs++;
    return;
  }
  for (int k = 0; k < ncarried; k++) {
    const Type *t = n->inputs[k + 2]->type;
    if (t->kind == TY_TENSOR && !ir_type_is_complete_tensor(t)) {
      diag_error(in->c->diag, n->loc, "the shape of loop-carried %%%s is not known", n->inputs[k + 2]->name);
      in->errs++;
      return;
    }
    if (t->kind == TY_TENSOR || body->params[k + 1]->type->kind == TY_TENSOR)
      body->params[k + 1]->type = state_type(in, t);
  }
  /* with Dims, a carried tensor may have other sizes at run time: nothing computed from it folds */
  for (int k = 0; in->dyn && k < ncarried; k++)
    if (body->params[k + 1]->type->kind == TY_TENSOR) mark_dyn(in, body->params[k + 1], NULL);
  infer_block(in, body);
  if (in->errs) return;
  for (int k = 0; k < ncarried; k++) {
    const Type *p = body->params[k + 1]->type, *r = body->rets[k + 1]->type;
    if (p->kind == TY_TENSOR && !same_tensor_shape(p, r)) {
      char *tp = ir_type_str(in->g->arena, p), *tr = ir_type_str(in->g->arena, r);
      diag_error(in->c->diag, n->loc, "loop-carried %%%s enters the loop as %s but an iteration makes it %s; "
                 "mc needs one static shape", body->params[k + 1]->name, tp, tr);
      if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
      in->errs++;
      return;
    }
    n->outputs[k]->type = state_type(in, p);
    if (in->dyn && p->kind == TY_TENSOR) mark_dyn(in, n->outputs[k], NULL);
  }
}

/* ---- scripted Python on compile-time values ------------------------------------------------
 * `not b`, `x in [..]` and `list(l)` of the scripted paths of torch.nn.functional fold when
 * their operands are constants; otherwise they stay, and the C backend refuses them. */
static bool list_appended_in(const Block *b, const Value *l) {
  for (const Node *n = b->first; n; n = n->next) {
    if (ir_node_is(n, "aten::append") && n->ninputs > 0 && n->inputs[0] == l) return true;
    for (int k = 0; k < n->nblocks; k++)
      if (list_appended_in(n->blocks[k], l)) return true;
  }
  return false;
}

static bool const_eq(const Value *a, const Value *b, bool *eq) {
  const Attr *x = ir_constant_attr(a), *y = ir_constant_attr(b);
  double fx, fy;
  if (x && y && x->kind == ATTR_STR && y->kind == ATTR_STR) return *eq = !strcmp(x->s, y->s), true;
  if (x && y && (x->kind == ATTR_STR) != (y->kind == ATTR_STR)) return false;
  if (!ir_constant_float(a, &fx) || !ir_constant_float(b, &fy)) return false;
  return *eq = fx == fy, true;
}

/* The overloads mck_arg cannot carry to a kernel, folded here when constant: eq / ne / add /
 * slice of int lists (rows of other families, whose kernels take tensors and scalars), `in` of a
 * str[] (no str-list kind), and aten::list, which forwards the list itself. */
static bool fold_script_op(Infer *in, Node *n) {
  Graph *g = in->g;
  int64_t lo, hi, st;
  bool r = false;
  if (is_struct(n, "aten::eq") || is_struct(n, "aten::ne")) { /* int lists: a == b */
    const Attr *x = ir_constant_attr(n->inputs[0]), *y = ir_constant_attr(n->inputs[1]);
    if (n->ninputs != 2 || !x || !y || x->kind != ATTR_INTS || y->kind != ATTR_INTS) return false;
    r = x->n == y->n;
    for (int i = 0; i < x->n && r; i++) r = x->ints[i] == y->ints[i];
    if (is_struct(n, "aten::ne")) r = !r;
  } else if (is_struct(n, "aten::add")) { /* int lists: a + b */
    const Attr *x = ir_constant_attr(n->inputs[0]), *y = ir_constant_attr(n->inputs[1]);
    if (n->ninputs != 2 || !x || !y || x->kind != ATTR_INTS || y->kind != ATTR_INTS) return false;
    int64_t *xs = arena_alloc(g->arena, sizeof(int64_t) * (size_t)(x->n + y->n + 1));
    for (int i = 0; i < x->n; i++) xs[i] = x->ints[i];
    for (int i = 0; i < y->n; i++) xs[x->n + i] = y->ints[i];
    Node *c = ir_make_constant_ints(g, xs, x->n + y->n, n->loc);
    c->outputs[0]->type = n->outputs[0]->type;
    ir_insert_before(n, c);
    forward_outputs(g, n, c->outputs);
    return true;
  } else if (is_struct(n, "aten::slice")) { /* l[start:end:step] of a constant int list */
    const Attr *x = ir_constant_attr(n->inputs[0]);
    int64_t len, k = 0;
    if (n->ninputs != 4 || !x || x->kind != ATTR_INTS) return false;
    len = x->n;
    lo = 0, hi = len;
    if (!ir_constant_is_none(n->inputs[1]) && !ir_constant_int(n->inputs[1], &lo)) return false;
    if (!ir_constant_is_none(n->inputs[2]) && !ir_constant_int(n->inputs[2], &hi)) return false;
    if (!ir_constant_int(n->inputs[3], &st) || st <= 0) return false;
    if (lo < 0) lo = lo + len < 0 ? 0 : lo + len;
    if (hi < 0) hi = hi + len < 0 ? 0 : hi + len;
    if (lo > len) lo = len;
    if (hi > len) hi = len;
    int64_t *xs = arena_alloc(g->arena, sizeof(int64_t) * (size_t)(len + 1));
    for (int64_t i = lo; i < hi; i += st) xs[k++] = x->ints[i];
    Node *c = ir_make_constant_ints(g, xs, (int)k, n->loc);
    c->outputs[0]->type = n->outputs[0]->type;
    ir_insert_before(n, c);
    forward_outputs(g, n, c->outputs);
    return true;
  } else if (is_struct(n, "aten::__contains__")) { /* str lists (numbers: its kernel) */
    if (n->ninputs != 2) return false;
    const Value *l = n->inputs[0], *x = n->inputs[1];
    const Attr *a = ir_constant_attr(l), *xa = ir_constant_attr(x);
    if (a && a->kind == ATTR_STRS) {
      if (!xa || xa->kind != ATTR_STR) return false;
      for (int i = 0; i < a->n && !r; i++) r = !strcmp(a->strs[i], xa->s);
    } else if (l->def && ir_node_is(l->def, "prim::ListConstruct") && !list_appended_in(g->top, l)) {
      for (int i = 0; i < l->def->ninputs && !r; i++) {
        bool eq;
        if (!const_eq(l->def->inputs[i], x, &eq)) return false;
        r = eq;
      }
    } else {
      return false;
    }
  } else { /* aten::list(l): a copy; the same list when neither is appended to */
    const Value *l = n->inputs[0];
    if (n->ninputs != 1 || list_appended_in(g->top, n->outputs[0]) || list_appended_in(g->top, l)) return false;
    if (!ir_is_constant(l) && !(l->def && ir_node_is(l->def, "prim::ListConstruct"))) return false;
    forward_outputs(g, n, (Value **)&n->inputs[0]);
    return true;
  }
  Node *c = ir_make_constant_bool(g, r, n->loc);
  ir_insert_before(n, c);
  forward_outputs(g, n, c->outputs);
  return true;
}

/* `l = []; for _ in range(k): l.append(v)` (a list comprehension of a value from outside, as
 * torch.nn.functional builds scale factors) with k known: l is the list of k copies of v. */
static bool fold_append_loop(Infer *in, Node *n) {
  Graph *g = in->g;
  int64_t trip, cond;
  if (n->nblocks != 1 || n->ninputs != 2 || n->noutputs != 0 || !ir_constant_int(n->inputs[0], &trip) ||
      !ir_constant_int(n->inputs[1], &cond) || !cond || trip < 0 || trip > 64)
    return false;
  Block *body = n->blocks[0];
  Node *ap = body->first;
  int64_t c2;
  if (!ap || ap->next || !ir_node_is(ap, "aten::append") || ap->ninputs != 2 || body->nrets != 1 ||
      !ir_constant_int(body->rets[0], &c2) || !c2)
    return false;
  Value *l = ap->inputs[0], *v = ap->inputs[1];
  if (!l->def || !ir_node_is(l->def, "prim::ListConstruct") || l->def->owner != n->owner || v->def == ap ||
      (v->def && v->def->owner == body) || v->param_of)
    return false;
  /* the list must not be appended to elsewhere, nor read between its construction and the loop */
  int count = 0;
  for (const Node *m = l->def->next; m && m != n; m = m->next)
    for (int i = 0; i < m->ninputs; i++) count += m->inputs[i] == l;
  if (count) return false;
  Node *d = l->def;
  int64_t nn = d->ninputs + trip;
  Value **xs = arena_alloc(g->arena, sizeof(Value *) * (size_t)(nn + 1));
  for (int i = 0; i < d->ninputs; i++) xs[i] = d->inputs[i];
  for (int64_t i = 0; i < trip; i++) xs[d->ninputs + i] = v;
  Type *t = l->type;
  Node *nl = ir_node_new(g, "prim::ListConstruct", xs, (int)nn, 1, &t);
  nl->loc = n->loc;
  ir_insert_before(n, nl);
  ir_remove(n);
  ir_replace_uses(g, l, nl->outputs[0], nl);
  infer_node(in, nl);
  return true;
}

static void infer_node(Infer *in, Node *n) {
  Graph *g = in->g;
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (!op || op == &ops_unknown_in_branch) { /* in a branch that stays */
    diag_error(in->c->diag, n->loc, "unsupported op '%s'", n->kind);
    if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
    in->errs++;
    return;
  }
  n->op = op;
  /* the int-list overloads of eq/ne/slice (`a.size() == b.size()`, `shape[2:]`) on constants, and
   * `in` of a str list (constant only) */
  if (n->ninputs > 0 && n->inputs[0]->type->kind == TY_LIST &&
      (is_struct(n, "aten::eq") || is_struct(n, "aten::ne") || is_struct(n, "aten::slice") || is_struct(n, "aten::add")) &&
      fold_script_op(in, n))
    return;
  if (is_struct(n, "aten::add") && n->ninputs == 2 && tensor_list_concat(in, n)) return;
  if (is_struct(n, "aten::__contains__") && n->ninputs > 0 && n->inputs[0]->type->kind == TY_LIST &&
      n->inputs[0]->type->elem && n->inputs[0]->type->elem->kind == TY_STR) {
    if (fold_script_op(in, n)) return;
    diag_error(in->c->diag, n->loc, "'%s' of a str list not known at compile time is not supported", n->kind);
    if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
    in->errs++;
    return;
  }
  if ((ir_node_is(n, "aten::where") && n->ninputs == 1) || is_struct(n, "aten::nonzero_numpy")) {
    where_into_nonzero(in, n);
    return;
  }
  if (op->kernel) {
    infer_kernel_node(in, n, op);
    return;
  }
  /* structural ops */
  if (is_struct(n, "prim::ListConstruct")) {
    const Type *el = n->outputs[0]->type->elem;
    bool scalars = el && (el->kind == TY_INT || el->kind == TY_BOOL || el->kind == TY_FLOAT);
    if (infer_dynamic_list(in, n) || !scalars || list_appended_in(g->top, n->outputs[0])) return;
    int64_t *xs = arena_alloc(g->arena, sizeof(int64_t) * (size_t)(n->ninputs + 1));
    double *fs = arena_alloc(g->arena, sizeof(double) * (size_t)(n->ninputs + 1));
    for (int i = 0; i < n->ninputs; i++) {
      if (el->kind == TY_FLOAT ? !ir_constant_float(n->inputs[i], &fs[i]) : !ir_constant_int(n->inputs[i], &xs[i])) return;
    }
    Node *c;
    if (el->kind == TY_INT) {
      c = ir_make_constant_ints(g, xs, n->ninputs, n->loc);
    } else {
      c = ir_make_constant_none(g, n->loc);
      c->outputs[0]->type = n->outputs[0]->type;
      Attr *a = ir_node_add_attr(c, "value", el->kind == TY_FLOAT ? ATTR_FLOATS : ATTR_BOOLS);
      a->n = n->ninputs;
      a->ints = xs;
      a->floats = fs;
    }
    ir_insert_before(n, c);
    forward_outputs(g, n, &c->outputs[0]);
    return;
  }
  if (is_struct(n, "prim::ListUnpack") || is_struct(n, "prim::TupleUnpack")) {
    Value *src = n->inputs[0];
    if (split_into_views(in, n) || broadcast_into_views(in, n, true, 0)) return;
    if (src->def && (ir_node_is(src->def, "prim::ListConstruct") || ir_node_is(src->def, "prim::TupleConstruct")) &&
        src->def->ninputs == n->noutputs) {
      forward_outputs(g, n, src->def->inputs);
      return;
    }
    const Attr *a = ir_constant_attr(src);
    if (a && a->kind == ATTR_INTS && a->n == n->noutputs) {
      Value **vs = arena_alloc(in->scratch, sizeof(Value *) * (size_t)(a->n + 1));
      for (int i = 0; i < a->n; i++) {
        Node *c = ir_make_constant_int(g, a->ints[i], n->loc);
        ir_insert_before(n, c);
        vs[i] = c->outputs[0];
      }
      forward_outputs(g, n, vs);
      return;
    }
    if (dyn_size_list(in, src) && src->def->inputs[0]->type->ndim == n->noutputs) {
      Value **vs = arena_alloc(in->scratch, sizeof(Value *) * (size_t)(n->noutputs + 1));
      for (int i = 0; i < n->noutputs && !in->errs; i++) vs[i] = dyn_size_elem(in, n, src->def->inputs[0], i);
      if (!in->errs) forward_outputs(g, n, vs);
      return;
    }
    diag_error(in->c->diag, n->loc, "'%s' of a value not built in the graph is not supported", n->kind);
    in->errs++;
    return;
  }
  if (is_struct(n, "prim::TupleIndex") || is_struct(n, "aten::__getitem__")) {
    Value *src = n->inputs[0];
    int64_t i;
    if (ir_constant_int(n->inputs[1], &i) && src->def &&
        (ir_node_is(src->def, "prim::TupleConstruct") || ir_node_is(src->def, "prim::ListConstruct"))) {
      int64_t len = src->def->ninputs;
      if (i < 0) i += len;
      if (i >= 0 && i < len) {
        forward_outputs(g, n, &src->def->inputs[i]);
        return;
      }
    }
    int64_t dim, starts[MAX_PIECES], ends[MAX_PIECES];
    if (is_struct(n, "aten::__getitem__") && ir_constant_int(n->inputs[1], &i) && broadcast_into_views(in, n, false, i))
      return;
    int k = is_struct(n, "aten::__getitem__") && ir_constant_int(n->inputs[1], &i) ? list_pieces(src->def, &dim, starts, ends) : -1;
    if (k >= 0 && !pieces_fixed(in, src->def, dim, n)) return;
    if (k >= 0) {
      int64_t at = i < 0 ? i + k : i;
      if (at < 0 || at >= k) {
        diag_error(in->c->diag, n->loc, "list index %lld out of range for a list of %d tensors", (long long)i, k);
        if (n->py_loc) diag_note(in->c->diag, n->loc, "from PyTorch code at %s", n->py_loc);
        in->errs++;
        return;
      }
      Value *v = piece_view(in, n, src->def, dim, starts[at], ends[at]);
      forward_outputs(g, n, &v);
      return;
    }
    const Attr *a = ir_constant_attr(src);
    if (a && a->kind == ATTR_INTS && ir_constant_int(n->inputs[1], &i)) {
      if (i < 0) i += a->n;
      if (i >= 0 && i < a->n) {
        Node *c = ir_make_constant_int(g, a->ints[i], n->loc);
        ir_insert_before(n, c);
        forward_outputs(g, n, c->outputs);
        return;
      }
      diag_error(in->c->diag, n->loc, "list index %lld out of range", (long long)i);
      in->errs++;
      return;
    }
    if (is_struct(n, "aten::__getitem__") && dyn_size_list(in, src) && ir_constant_int(n->inputs[1], &i)) {
      int64_t nd = src->def->inputs[0]->type->ndim, at = i < 0 ? i + nd : i;
      if (at >= 0 && at < nd) {
        Value *v = dyn_size_elem(in, n, src->def->inputs[0], at);
        if (!in->errs) forward_outputs(g, n, &v);
        return;
      }
    }
    /* an element of a list of numbers at a run-time index, or of one built at run time: a kernel */
    const Type *el = src->type->kind == TY_LIST ? src->type->elem : NULL, *ot = n->outputs[0]->type;
    if (is_struct(n, "aten::__getitem__") && el && (el->kind == TY_INT || el->kind == TY_FLOAT || el->kind == TY_BOOL) &&
        (ot->kind == TY_INT || ot->kind == TY_FLOAT || ot->kind == TY_BOOL)) {
      Type *t = ir_type_copy(g->arena, ot);
      Node *r = ir_node_new(g, "mc::list_getitem", n->inputs, 2, 1, &t);
      r->loc = n->loc;
      r->py_loc = n->py_loc;
      ir_insert_before(n, r);
      infer_node(in, r);
      forward_outputs(g, n, r->outputs);
    }
    return;
  }
  if (is_struct(n, "aten::len")) {
    Value *src = n->inputs[0];
    const Attr *a = ir_constant_attr(src);
    int64_t len = -1;
    if (a && (a->kind == ATTR_INTS || a->kind == ATTR_FLOATS || a->kind == ATTR_BOOLS)) len = a->n;
    else if (a && a->kind == ATTR_STR && a->s) len = utf8_length(a->s); /* `if why_not_fast_path:`; not UTF-8: -1 */
    else if (src->def && ir_node_is(src->def, "prim::ListConstruct")) len = src->def->ninputs;
    if (len >= 0) {
      Node *c = ir_make_constant_int(g, len, n->loc);
      ir_insert_before(n, c);
      forward_outputs(g, n, c->outputs);
    }
    return;
  }
  if (is_struct(n, "prim::unchecked_cast")) {
    forward_outputs(g, n, n->inputs);
    return;
  }
  if (is_struct(n, "aten::__is__") || is_struct(n, "aten::__isnot__")) {
    bool an = n->inputs[0]->type->kind == TY_NONE || ir_constant_is_none(n->inputs[0]);
    bool bn = n->inputs[1]->type->kind == TY_NONE || ir_constant_is_none(n->inputs[1]);
    bool a_some = n->inputs[0]->type->kind != TY_NONE && n->inputs[0]->type->kind != TY_OPTIONAL && !ir_constant_is_none(n->inputs[0]);
    bool b_some = n->inputs[1]->type->kind != TY_NONE && n->inputs[1]->type->kind != TY_OPTIONAL && !ir_constant_is_none(n->inputs[1]);
    int r = -1;
    if (an && bn) r = 1;
    else if ((an && b_some) || (bn && a_some)) r = 0;
    /* tensors: one value is one object; two graph inputs are two (mc binds each input on its
     * own), as in the call that was exported, and a tensor a kernel made is no other
     * (`query is key` of nn.MultiheadAttention's fast-path checks) */
    const Value *a = n->inputs[0], *b = n->inputs[1];
    if (r < 0 && a->type->kind == TY_TENSOR && b->type->kind == TY_TENSOR) {
      bool ia = !a->def && a->param_of == g->top, ib = !b->def && b->param_of == g->top;
      if (a == b) r = 1;
      else if ((ia || fresh_object(a)) && (ib || fresh_object(b))) r = 0;
    }
    if (r >= 0) {
      if (is_struct(n, "aten::__isnot__")) r = !r;
      Node *c = ir_make_constant_bool(g, r, n->loc);
      ir_insert_before(n, c);
      forward_outputs(g, n, c->outputs);
    }
    return;
  }
  if (is_struct(n, "prim::dtype")) {
    const Type *t = n->inputs[0]->type;
    if (t->kind == TY_TENSOR && t->dtype != DT_UNDEF) {
      Node *c = ir_make_constant_int(g, ir_dtype_to_scalar_type(t->dtype), n->loc);
      ir_insert_before(n, c);
      forward_outputs(g, n, c->outputs);
    }
    return;
  }
  if (is_struct(n, "prim::device")) {
    Type *t = ir_type_new(g->arena, TY_DEVICE);
    Node *c = ir_node_new(g, "prim::Constant", NULL, 0, 1, &t);
    c->loc = n->loc;
    ir_node_add_attr(c, "value", ATTR_DEVICE)->s = "cpu";
    ir_insert_before(n, c);
    forward_outputs(g, n, c->outputs);
    return;
  }
  if (is_struct(n, "prim::If")) {
    int64_t cond;
    if (ir_constant_int(n->inputs[0], &cond)) {
      Block *taken = n->blocks[cond ? 0 : 1];
      for (Node *m = taken->first, *next; m; m = next) {
        next = m->next;
        ir_remove(m);
        ir_insert_before(n, m);
      }
      forward_outputs(g, n, taken->rets);
      return;
    }
    infer_if(in, n);
    return;
  }
  if (is_struct(n, "aten::list")) {
    fold_script_op(in, n);
    return;
  }
  if (is_struct(n, "prim::Loop")) {
    if (fold_append_loop(in, n)) return;
    infer_loop(in, n);
    return;
  }
}

static void infer_block(Infer *in, Block *b) {
  /* Nodes may be replaced or spliced in before the current one; walk with a saved next. */
  for (Node *n = b->first, *next; n && in->errs == 0; n = next) {
    next = n->next;
    Node *prev = n->prev;
    ArenaMark m = arena_mark(in->scratch);
    infer_node(in, n);
    /* a node's kernel arguments are scratch; dynamic graphs keep example values (ex[]) there */
    if (!in->dyn) arena_release(in->scratch, m);
    /* a prim::If that was inlined put its block's nodes before `next`: visit them too */
    if (!n->owner && prev != NULL && prev->next != next) next = prev->next;
    else if (!n->owner && prev == NULL && b->first != next) next = b->first;
  }
}

/* A graph output that is a list of tensors with pieces known here (split, chunk, unbind,
 * tensor_split, broadcast_tensors: `return x.split(2)` in scripted code), or a tuple or list
 * that a branch infer inlined built, is returned as its elements, one output each, as a traced
 * graph returns them (prep flattened the tuples and lists built at the top level before). */
/* Graph output i becomes the k values vs. */
static void splice_ret(Graph *g, int i, Value **vs, int k) {
  Block *top = g->top;
  Value **outs = arena_alloc(g->arena, sizeof(Value *) * (size_t)(top->nrets + k + 1));
  for (int j = 0; j < i; j++) outs[j] = top->rets[j];
  for (int j = 0; j < k; j++) outs[i + j] = vs[j];
  for (int j = i + 1; j < top->nrets; j++) outs[j + k - 1] = top->rets[j];
  top->rets = outs;
  top->nrets += k - 1;
  ir_uses_invalidate(g);
}

static void flatten_list_returns(Infer *in) {
  Graph *g = in->g;
  Block *top = g->top;
  for (int i = 0; i < top->nrets && !in->errs; i++) {
    Value *v = top->rets[i];
    const Node *d = v->def;
    int64_t dim, starts[MAX_PIECES], ends[MAX_PIECES];
    if (d && (ir_node_is(d, "prim::TupleConstruct") || ir_node_is(d, "prim::ListConstruct")) &&
        !(v->type->kind == TY_LIST && v->type->elem && v->type->elem->kind != TY_TENSOR)) {
      /* built in a branch infer inlined (prep flattened those built at the top level) */
      splice_ret(g, i, d->inputs, d->ninputs);
      i--; /* its elements may be such lists themselves */
      continue;
    }
    if (v->type->kind != TY_LIST || !v->type->elem || v->type->elem->kind != TY_TENSOR || !d) continue;
    const Node *lc = ir_node_is(d, "aten::broadcast_tensors") && d->ninputs == 1 ? d->inputs[0]->def : NULL;
    int k = lc && ir_node_is(lc, "prim::ListConstruct") ? lc->ninputs : list_pieces(d, &dim, starts, ends);
    if (k < 1) continue;
    Node *u = ir_node_new(g, "prim::ListUnpack", &v, 1, k, NULL);
    u->loc = d->loc;
    u->py_loc = d->py_loc;
    ir_append(top, u);
    splice_ret(g, i, u->outputs, k);
    Node *before = u->prev;
    infer_node(in, u); /* the pieces become views (split_into_views, broadcast_into_views) ... */
    for (Node *p = before ? before->next : top->first, *next; p && !in->errs; p = next) {
      next = p->next; /* ... inserted where u was: inferred too */
      infer_node(in, p);
    }
    i += k - 1;
  }
}

int infer_run(Graph *g, PassCtx *c) {
  Infer in = {g, c, arena_new(), 0, g->next_node_id, NULL, NULL, NULL, 0};
  for (int k = 0; k < g->ndims; k++)
    if (g->dims[k].value) mark_dyn(&in, g->dims[k].value, NULL);
  Block *top = g->top;
  for (int i = 0; i < top->nparams; i++) {
    Value *p = top->params[i];
    if (g->has_self && i == 0) continue;
    if (p->type->kind == TY_TENSOR && !ir_type_is_complete_tensor(p->type)) {
      diag_error(c->diag, p->loc, "graph input %%%s has no dtype and shape; export with mc_export, which records "
                 "the example inputs' shapes", p->name);
      in.errs++;
    } else if (p->type->kind == TY_TENSOR) {
      ir_contiguous_strides(p->type->ndim, p->type->shape, p->type->strides);
      p->type->has_strides = true;
    }
  }
  if (!in.errs) infer_block(&in, top);
  if (!in.errs) flatten_list_returns(&in);
  free(in.dyn);
  free(in.exk);
  free(in.ex);
  arena_free(in.scratch);
  return in.errs;
}
