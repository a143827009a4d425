/* interp.c — the reference interpreter (see interp.h for its contract).
 *
 * Run-time values (RVal) are tensors (an mck_tensor descriptor: storage base, offset, strides),
 * scalars, strings, None, and lists/tuples (a shared, mutable RList, so aten::append is seen
 * through every name of the list). One environment slot per value id; a block that runs again
 * (a loop body) overwrites its slots.
 *
 * A kernel node runs as in constant folding (passes/infer.c: node_args / arg_of / out_arg build
 * the same arguments from compile-time knowledge; this file builds them from run-time values —
 * keep the two in step): the kernel first runs in meta mode on the real inputs to learn each
 * output's dtype and shape; an output whose meta descriptor points at input data (a view, an
 * in-place result, a maybe-view that is a view) is left for the kernel to fill in, every other
 * tensor output gets fresh zeroed contiguous storage; then the kernel runs for real. An EFF_WRITE
 * op's output 0 is its target's descriptor (ops.h), whatever the kernel left there. Views thus
 * share storage exactly as in PyTorch, and in-place ops write through them.
 *
 * Memory: all storage and lists of one run come from one arena, freed when the run ends (a long
 * loop keeps every iteration's temporaries until then). Constants are copied into fresh storage
 * when their node runs, so an in-place write never changes the graph. */
#include "interp/interp.h"

#include "ops/ops.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef enum RvKind { RV_NONE, RV_TENSOR, RV_INT, RV_FLOAT, RV_BOOL, RV_STR, RV_DEVICE, RV_LIST, RV_TUPLE } RvKind;

typedef struct RList RList;
typedef struct RVal {
  RvKind kind;
  mck_tensor t;
  int64_t i;
  double f;
  const char *s;
  RList *l;
} RVal;

struct RList {
  int n, cap;
  RVal *items;
};

typedef struct Interp {
  Graph *g;
  InterpOptions *o;
  Diag *d;
  Arena *ar;   /* storage, lists: freed at the end of the run */
  RVal *env;   /* by value id */
  const Value **same; /* by value id: the value whose tensor object it is (an op that returned
                       * its input, decided at run time: returns_self), or NULL */
  int64_t steps;
  int errs;
} Interp;

static int fail(Interp *in, const Node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(Interp *in, const Node *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(in->d, n ? n->loc : (SrcLoc){0}, fmt, ap);
  va_end(ap);
  if (n && n->py_loc) diag_note(in->d, n->loc, "from PyTorch code at %s", n->py_loc);
  in->errs++;
  return -1;
}

/* ---- values ------------------------------------------------------------------------------ */
static RList *list_new(Interp *in, int n) {
  RList *l = arena_alloc(in->ar, sizeof *l);
  l->cap = n > 4 ? n : 4;
  l->items = arena_alloc(in->ar, sizeof(RVal) * (size_t)l->cap);
  l->n = n;
  return l;
}

static void list_push(Interp *in, RList *l, const RVal *v) {
  if (l->n == l->cap) {
    RVal *items = arena_alloc(in->ar, sizeof(RVal) * (size_t)l->cap * 2);
    memcpy(items, l->items, sizeof(RVal) * (size_t)l->n);
    l->items = items;
    l->cap *= 2;
  }
  l->items[l->n++] = *v;
}

static void *storage(Interp *in, int64_t numel, int dtype) {
  size_t bytes = (size_t)(numel > 0 ? numel : 1) * mck_dtype_size(dtype);
  return arena_alloc(in->ar, bytes ? bytes : 1);
}

static RVal scalar_int(int64_t i) { return (RVal){.kind = RV_INT, .i = i}; }

/* A fresh contiguous copy of descriptor src into dst's storage (same dtype and shape). */
static void copy_elems(mck_tensor *dst, const mck_tensor *src) {
  size_t es = mck_dtype_size(src->dtype);
  mck_iter it;
  mck_iter_init(&it, src->ndim, src->shape, 2, (const int64_t *const[]){dst->stride, src->stride},
                (const int64_t[]){dst->offset, src->offset});
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it))
    memcpy((char *)dst->data + it.off[0] * (int64_t)es, (const char *)src->data + it.off[1] * (int64_t)es, es);
}

static RVal tensor_from_ir(Interp *in, const IrTensor *t) {
  RVal v = {.kind = RV_TENSOR};
  v.t.dtype = t->dtype;
  v.t.ndim = t->ndim;
  for (int i = 0; i < t->ndim; i++) v.t.shape[i] = t->shape[i];
  mck_contiguous_strides(&v.t);
  v.t.data = storage(in, mck_numel(&v.t), v.t.dtype);
  if (t->data) memcpy(v.t.data, t->data, t->nbytes);
  return v;
}

static RVal constant_value(Interp *in, const Node *n) {
  const Attr *a = ir_node_attr(n, "value");
  const Type *ty = n->outputs[0]->type;
  if (!a || a->kind == ATTR_NONE) return (RVal){.kind = RV_NONE};
  switch (a->kind) {
  case ATTR_INT:
    if (ty && ty->kind == TY_BOOL) return (RVal){.kind = RV_BOOL, .i = a->i != 0};
    return scalar_int(a->i);
  case ATTR_BOOL: return (RVal){.kind = RV_BOOL, .i = a->i != 0};
  case ATTR_FLOAT: return (RVal){.kind = RV_FLOAT, .f = a->f};
  case ATTR_STR: return (RVal){.kind = RV_STR, .s = a->s};
  case ATTR_DEVICE: return (RVal){.kind = RV_DEVICE, .s = a->s};
  case ATTR_TENSOR: return tensor_from_ir(in, a->t);
  case ATTR_INTS: case ATTR_BOOLS: case ATTR_FLOATS: case ATTR_STRS: {
    RVal v = {.kind = RV_LIST};
    v.l = list_new(in, a->n);
    for (int i = 0; i < a->n; i++) {
      RVal *e = &v.l->items[i];
      if (a->kind == ATTR_INTS) *e = scalar_int(a->ints[i]);
      else if (a->kind == ATTR_BOOLS) *e = (RVal){.kind = RV_BOOL, .i = a->ints[i] != 0};
      else if (a->kind == ATTR_FLOATS) *e = (RVal){.kind = RV_FLOAT, .f = a->floats[i]};
      else *e = (RVal){.kind = RV_STR, .s = a->strs[i]};
    }
    return v;
  }
  default: return (RVal){.kind = RV_NONE};
  }
}

static bool truthy(const RVal *v) {
  switch (v->kind) {
  case RV_INT: case RV_BOOL: return v->i != 0;
  case RV_FLOAT: return v->f != 0;
  case RV_TENSOR: return mck_numel(&v->t) == 1 && mck_getf(&v->t, v->t.offset) != 0;
  default: return false;
  }
}

/* ---- kernel arguments from run-time values (cf. infer.c's arg_of / out_arg) --------------- */
static int arg_of(Interp *in, Arena *sc, const Node *n, const Value *val, const RVal *v, mck_arg *a) {
  memset(a, 0, sizeof *a);
  switch (v->kind) {
  case RV_NONE: a->kind = MCK_NONE; return 0;
  case RV_TENSOR:
    a->kind = MCK_TENSOR;
    a->u.t = arena_memdup(sc, &v->t, sizeof v->t);
    return 0;
  case RV_INT: a->kind = MCK_INT; a->u.i = v->i; return 0;
  case RV_BOOL: a->kind = MCK_BOOL_ARG; a->u.i = v->i; return 0;
  case RV_FLOAT: a->kind = MCK_FLOAT; a->u.f = v->f; return 0;
  case RV_STR: a->kind = MCK_STR; a->u.s = v->s; return 0;
  case RV_DEVICE: a->kind = MCK_DEVICE; a->u.s = v->s; return 0;
  case RV_LIST: case RV_TUPLE: {
    const RList *l = v->l;
    const Type *el = val->type && val->type->kind == TY_LIST ? val->type->elem : NULL;
    bool tensors = el && (el->kind == TY_TENSOR || el->kind == TY_OPTIONAL), floats = el && el->kind == TY_FLOAT;
    bool bools = l->n > 0;
    for (int i = 0; i < l->n; i++) {
      tensors |= l->items[i].kind == RV_TENSOR;
      floats |= l->items[i].kind == RV_FLOAT;
      bools &= l->items[i].kind == RV_BOOL;
    }
    a->n = l->n;
    if (tensors) {
      a->kind = MCK_TENSORS;
      a->u.ts = arena_alloc(sc, sizeof(mck_tensor *) * (size_t)(l->n + 1));
      for (int i = 0; i < l->n; i++)
        a->u.ts[i] = l->items[i].kind == RV_TENSOR ? arena_memdup(sc, &l->items[i].t, sizeof(mck_tensor)) : NULL;
    } else if (floats) {
      a->kind = MCK_FLOATS;
      a->u.floats = arena_alloc(sc, sizeof(double) * (size_t)(l->n + 1));
      for (int i = 0; i < l->n; i++)
        a->u.floats[i] = l->items[i].kind == RV_FLOAT ? l->items[i].f : (double)l->items[i].i;
    } else {
      a->kind = bools ? MCK_BOOLS : MCK_INTS;
      a->u.ints = arena_alloc(sc, sizeof(int64_t) * (size_t)(l->n + 1));
      for (int i = 0; i < l->n; i++) {
        if (l->items[i].kind != RV_INT && l->items[i].kind != RV_BOOL)
          return fail(in, n, "'%s': a list of this kind cannot be passed to a kernel", n->kind);
        a->u.ints[i] = l->items[i].i;
      }
    }
    return 0;
  }
  }
  return fail(in, n, "'%s': unsupported argument", n->kind);
}

static int out_arg(Interp *in, Arena *sc, const Node *n, const Value *v, mck_arg *a) {
  memset(a, 0, sizeof *a);
  const Type *t = v->type;
  switch (t ? t->kind : TY_TENSOR) {
  case TY_INT: a->kind = MCK_INT; return 0;
  case TY_FLOAT: a->kind = MCK_FLOAT; return 0;
  case TY_BOOL: a->kind = MCK_BOOL_ARG; return 0;
  case TY_NUMBER: a->kind = MCK_UNKNOWN; return 0;
  case TY_LIST:
    if (t->elem && (t->elem->kind == TY_TENSOR || t->elem->kind == TY_OPTIONAL))
      return fail(in, n, "'%s': kernels returning a list of tensors are not supported", n->kind);
    if (t->elem && t->elem->kind == TY_FLOAT) {
      a->kind = MCK_FLOATS;
      a->u.floats = arena_alloc(sc, sizeof(double) * IR_MAX_DIMS * 8);
    } else {
      a->kind = MCK_INTS;
      a->u.ints = arena_alloc(sc, sizeof(int64_t) * IR_MAX_DIMS * 8);
    }
    return 0;
  default:
    a->kind = MCK_TENSOR;
    a->u.t = arena_alloc(sc, sizeof(mck_tensor));
    return 0;
  }
}

static int rval_of_out(Interp *in, const Node *n, const mck_arg *a, RVal *v) {
  memset(v, 0, sizeof *v);
  switch (a->kind) {
  case MCK_TENSOR: v->kind = RV_TENSOR; v->t = *a->u.t; return 0;
  case MCK_INT: *v = scalar_int(a->u.i); return 0;
  case MCK_BOOL_ARG: v->kind = RV_BOOL; v->i = a->u.i != 0; return 0;
  case MCK_FLOAT: v->kind = RV_FLOAT; v->f = a->u.f; return 0;
  case MCK_NONE: v->kind = RV_NONE; return 0;
  case MCK_INTS: case MCK_BOOLS: case MCK_FLOATS:
    v->kind = RV_LIST;
    v->l = list_new(in, a->n);
    for (int i = 0; i < a->n; i++) {
      if (a->kind == MCK_FLOATS) v->l->items[i] = (RVal){.kind = RV_FLOAT, .f = a->u.floats[i]};
      else if (a->kind == MCK_BOOLS) v->l->items[i] = (RVal){.kind = RV_BOOL, .i = a->u.ints[i] != 0};
      else v->l->items[i] = scalar_int(a->u.ints[i]);
    }
    return 0;
  default: return fail(in, n, "'%s': the kernel produced no value", n->kind);
  }
}

/* Whether node n returned its input tensor itself in this run, by its row's OPF_SELF_* condition
 * (ops.h; the compile-time twin is returns_self in passes/functionalize.c): a cast to the dtype
 * the tensor has (no copy=True, no memory format), contiguous() of a tensor contiguous already,
 * flatten() whose start and end name one dimension of a tensor of rank >= 1. */
static bool returns_self(const OpDef *op, const mck_arg *ia, int nin, const mck_arg *oa, int nout) {
  if (!(op->flags & OPF_SELF_ANY)) return false;
  if (nout != 1 || nin < 1 || ia[0].kind != MCK_TENSOR || oa[0].kind != MCK_TENSOR) return false;
  const mck_tensor *x = ia[0].u.t;
  if (oa[0].u.t->dtype != x->dtype) return false;
  if (op->flags & OPF_SELF_CAST)
    return nin >= 2 && (nin < 5 || ((ia[nin - 2].kind == MCK_BOOL_ARG || ia[nin - 2].kind == MCK_INT) &&
                                    ia[nin - 2].u.i == 0 && ia[nin - 1].kind == MCK_NONE));
  if (op->flags & OPF_SELF_CONTIGUOUS) {
    if (nin >= 2 && ia[1].kind != MCK_NONE && !(ia[1].kind == MCK_INT && ia[1].u.i == 0)) return false;
    return mck_numel(x) == 0 || mck_is_contiguous(x);
  }
  if (nin == 3 && ia[1].kind == MCK_INT && ia[2].kind == MCK_INT && x->ndim >= 1) /* OPF_SELF_ONE_DIM */
    return mck_wrap_dim(ia[1].u.i, x->ndim) == mck_wrap_dim(ia[2].u.i, x->ndim) && mck_wrap_dim(ia[1].u.i, x->ndim) >= 0;
  return false;
}

static int run_kernel(Interp *in, const Node *n, const OpDef *op) {
  Arena *sc = arena_new();
  int nin = n->ninputs, nout = n->noutputs, rc = 0;
  mck_arg *ia = arena_alloc(sc, sizeof(mck_arg) * (size_t)(nin + 1));
  mck_arg *oa = arena_alloc(sc, sizeof(mck_arg) * (size_t)(nout + 1));
  for (int i = 0; i < nin && rc == 0; i++) rc = arg_of(in, sc, n, n->inputs[i], &in->env[n->inputs[i]->id], &ia[i]);
  for (int i = 0; i < nout && rc == 0; i++) rc = out_arg(in, sc, n, n->outputs[i], &oa[i]);
  mck_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.meta = 1;
  if (rc == 0 && op->kernel(&ctx, oa, nout, ia, nin) != 0) rc = fail(in, n, "%s", ctx.err[0] ? ctx.err : "kernel failed");
  /* an in-place op's output 0 is its target, by the op table's contract */
  bool writes = op->effect == EFF_WRITE && nout > 0 && op->effect_arg < nin && ia[op->effect_arg].kind == MCK_TENSOR &&
                oa[0].kind == MCK_TENSOR;
  for (int i = 0; i < nout && rc == 0; i++) {
    if (i == 0 && writes) {
      *oa[0].u.t = *ia[op->effect_arg].u.t;
    } else if (oa[i].kind == MCK_TENSOR) {
      mck_tensor *t = oa[i].u.t;
      if (t->data && t->offset != -1) continue; /* a view of an input: the kernel fills it in */
      t->offset = 0;
      mck_contiguous_strides(t);
      t->data = storage(in, mck_numel(t), t->dtype);
    } else if (oa[i].kind != MCK_INTS && oa[i].kind != MCK_FLOATS) {
      rc = out_arg(in, sc, n, n->outputs[i], &oa[i]);
    }
  }
  ctx.meta = 0;
  if (rc == 0 && op->kernel(&ctx, oa, nout, ia, nin) != 0) rc = fail(in, n, "%s", ctx.err[0] ? ctx.err : "kernel failed");
  if (writes) *oa[0].u.t = *ia[op->effect_arg].u.t;
  if (rc == 0 && returns_self(op, ia, nin, oa, nout)) {
    *oa[0].u.t = *ia[0].u.t;
    in->same[n->outputs[0]->id] = n->inputs[0];
  }
  for (int i = 0; i < nout && rc == 0; i++) rc = rval_of_out(in, n, &oa[i], &in->env[n->outputs[i]->id]);
  arena_free(sc);
  return rc;
}

/* ---- structural ops ---------------------------------------------------------------------- */
static void print_rval(FILE *f, const RVal *v) {
  switch (v->kind) {
  case RV_NONE: fputs("None", f); break;
  case RV_INT: fprintf(f, "%" PRId64, v->i); break;
  case RV_BOOL: fputs(v->i ? "True" : "False", f); break;
  case RV_FLOAT: fprintf(f, "%.6g", v->f); break;
  case RV_STR: case RV_DEVICE: fputs(v->s ? v->s : "", f); break;
  case RV_LIST: case RV_TUPLE:
    fputc(v->kind == RV_LIST ? '[' : '(', f);
    for (int i = 0; i < v->l->n; i++) {
      if (i) fputs(", ", f);
      print_rval(f, &v->l->items[i]);
    }
    fputc(v->kind == RV_LIST ? ']' : ')', f);
    break;
  case RV_TENSOR: {
    const mck_tensor *t = &v->t;
    fputs("tensor([", f);
    mck_iter it;
    mck_iter_init(&it, t->ndim, t->shape, 1, (const int64_t *const[]){t->stride}, (const int64_t[]){t->offset});
    for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it))
      fprintf(f, "%s%.6g", k ? ", " : "", mck_getf(t, it.off[0]));
    fprintf(f, "], %s)", mck_dtype_name(t->dtype));
    break;
  }
  }
}

static bool same_object(const RVal *a, const RVal *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case RV_NONE: return true;
  case RV_TENSOR: return memcmp(&a->t, &b->t, sizeof a->t) == 0;
  case RV_LIST: case RV_TUPLE: return a->l == b->l;
  case RV_FLOAT: return a->f == b->f;
  case RV_STR: case RV_DEVICE: return a->s == b->s || (a->s && b->s && strcmp(a->s, b->s) == 0);
  default: return a->i == b->i;
  }
}

static int run_block(Interp *in, Block *b);
static const Value *obj_root(const Interp *in, const Value *r);

/* Whether value v is defined inside one of node n's blocks (at any depth). */
static bool defined_inside(const Value *v, const Node *n) {
  for (const Block *b = v->def ? v->def->owner : v->param_of; b && b->owner; b = b->owner->owner)
    if (b->owner == n) return true;
  return false;
}

/* The tensor object a block returns as r, when it is one from outside node n (else NULL): the
 * outputs of an If or a Loop that return an outer tensor itself (`x = x.add_(1)` in a loop) are
 * that tensor object, as in PyTorch. */
static const Value *outer_object(const Interp *in, const Value *r, const Node *n) {
  if (in->env[r->id].kind != RV_TENSOR) return NULL;
  const Value *o = obj_root(in, r);
  return defined_inside(o, n) ? NULL : o;
}

static int run_loop(Interp *in, Node *n) {
  Block *body = n->blocks[0];
  RVal *env = in->env;
  const RVal *mt = &env[n->inputs[0]->id];
  int64_t max_trip = mt->kind == RV_NONE ? INT64_MAX : mt->kind == RV_FLOAT ? (int64_t)mt->f : mt->i;
  bool cond = truthy(&env[n->inputs[1]->id]);
  int ncarried = n->ninputs - 2;
  if (body->nparams != ncarried + 1 || body->nrets != ncarried + 1 || n->noutputs != ncarried)
    return fail(in, n, "malformed prim::Loop: %d carried values, body has %d parameters and %d returns", ncarried,
                body->nparams, body->nrets);
  RVal *cur = malloc(sizeof(RVal) * (size_t)(ncarried + 1));
  const Value **obj = malloc(sizeof *obj * (size_t)(ncarried + 1)); /* carried tensor objects from outside */
  if (!cur || !obj) abort();
  for (int i = 0; i < ncarried; i++) {
    cur[i] = env[n->inputs[i + 2]->id];
    obj[i] = cur[i].kind == RV_TENSOR ? obj_root(in, n->inputs[i + 2]) : NULL;
  }
  int rc = 0;
  for (int64_t trip = 0; trip < max_trip && cond; trip++) {
    env[body->params[0]->id] = scalar_int(trip);
    for (int i = 0; i < ncarried; i++) {
      env[body->params[i + 1]->id] = cur[i];
      in->same[body->params[i + 1]->id] = obj[i];
    }
    if ((rc = run_block(in, body)) != 0) break;
    cond = truthy(&env[body->rets[0]->id]);
    for (int i = 0; i < ncarried; i++) {
      cur[i] = env[body->rets[i + 1]->id];
      obj[i] = outer_object(in, body->rets[i + 1], n);
    }
  }
  for (int i = 0; i < ncarried && rc == 0; i++) {
    env[n->outputs[i]->id] = cur[i];
    in->same[n->outputs[i]->id] = obj[i];
  }
  free(cur);
  free(obj);
  return rc;
}

static int run_write_back(Interp *in, const Node *n) {
  const OpDef *cp = ops_lookup("aten::copy_");
  if (!cp || !cp->kernel) return fail(in, n, "internal: no aten::copy_ kernel for mc::write_back");
  const RVal *dst = &in->env[n->inputs[0]->id], *src = &in->env[n->inputs[1]->id];
  if (dst->kind != RV_TENSOR) return fail(in, n, "mc::write_back into a value that is not a tensor");
  mck_tensor d = dst->t, s = src->t, o;
  memset(&o, 0, sizeof o);
  mck_arg ia[3] = {{MCK_TENSOR, 0, {.t = &d}}, {MCK_TENSOR, 0, {.t = &s}}, {MCK_BOOL_ARG, 0, {.i = 0}}};
  if (src->kind != RV_TENSOR) arg_of(in, in->ar, n, n->inputs[1], src, &ia[1]);
  mck_arg oa[1] = {{MCK_TENSOR, 0, {.t = &o}}};
  mck_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  if (cp->kernel(&ctx, oa, 1, ia, 3) != 0) return fail(in, n, "mc::write_back: %s", ctx.err);
  return 0;
}

/* The tensor an in-place op's result r is (x.relu_() is x), or NULL when r is not one. */
static const Value *write_target(const Value *r) {
  if (!r->def || r->index != 0) return NULL;
  const OpDef *op = r->def->op ? r->def->op : ops_lookup(r->def->kind);
  return op && op->effect == EFF_WRITE && op->effect_arg < r->def->ninputs ? r->def->inputs[op->effect_arg] : NULL;
}

/* The value whose tensor object r is: an in-place op's target (x.relu_() is x) or the input of an
 * op of this run that returned it (x.to(x.dtype) is x, returns_self); NULL when r is its own. */
static const Value *obj_next(const Interp *in, const Value *r) {
  const Value *w = write_target(r);
  return w ? w : in->same[r->id];
}

/* The tensor object value r is. */
static const Value *obj_root(const Interp *in, const Value *r) {
  for (int guard = 0; guard < 100000 && obj_next(in, r); guard++) r = obj_next(in, r);
  return r;
}

/* The bounds of a piece of tensor_split with indices: Python slice bounds of a dimension of len. */
static int64_t slice_bound(int64_t i, int64_t len) {
  if (i < 0) i += len;
  return i < 0 ? 0 : i > len ? len : i;
}

/* aten::split / split_with_sizes / chunk / unbind / tensor_split (and the unsafe_ splits): a
 * list of views of the input, as PyTorch's pieces (the same pieces passes/infer.c rewrites into
 * slices and selects). */
static int run_split(Interp *in, const Node *n) {
  const char *k = n->kind;
  RVal *env = in->env;
  const RVal *x = &env[n->inputs[0]->id];
  bool unbind = !strcmp(k, "aten::unbind"), chunk = !strcmp(k, "aten::chunk") || !strcmp(k, "aten::unsafe_chunk");
  bool tsplit = !strcmp(k, "aten::tensor_split");
  if (x->kind != RV_TENSOR) return fail(in, n, "'%s' of a value that is not a tensor", k);
  int dim_input = unbind ? 1 : 2;
  int64_t dim = n->ninputs > dim_input ? env[n->inputs[dim_input]->id].i : 0;
  if (x->t.ndim == 0) return fail(in, n, "'%s' of a 0-dim tensor", k);
  if (dim < 0) dim += x->t.ndim;
  if (dim < 0 || dim >= x->t.ndim) return fail(in, n, "'%s': dimension out of range", k);
  int64_t len = x->t.shape[dim];
  const RVal *a1 = n->ninputs > 1 ? &env[n->inputs[1]->id] : NULL;
  int64_t step = 1, npieces;
  if (tsplit && a1 && a1->kind == RV_LIST) {
    npieces = a1->l->n + 1;
  } else if (tsplit) {
    if (!a1 || a1->i <= 0) return fail(in, n, "'%s': sections must be positive", k);
    npieces = a1->i;
  } else if (unbind) {
    npieces = len;
  } else if (a1 && a1->kind == RV_LIST) {
    npieces = a1->l->n;
    int64_t sum = 0;
    for (int i = 0; i < a1->l->n; i++) {
      if (a1->l->items[i].i < 0) return fail(in, n, "'%s': negative size", k);
      sum += a1->l->items[i].i;
    }
    if (sum != len) return fail(in, n, "'%s': sizes sum to %lld, dimension %lld has %lld", k, (long long)sum, (long long)dim, (long long)len);
  } else {
    step = a1 ? a1->i : 0;
    if (step <= 0) return fail(in, n, "'%s': %s must be positive", k, chunk ? "chunks" : "split_size");
    if (chunk) step = (len + step - 1) / step;
    if (step <= 0) step = 1;
    npieces = len == 0 ? 1 : (len + step - 1) / step;
  }
  if (npieces > 1 << 20) return fail(in, n, "'%s': too many pieces", k);
  RVal l = {.kind = RV_LIST};
  l.l = list_new(in, (int)npieces);
  int64_t at = 0;
  for (int i = 0; i < npieces; i++) {
    mck_tensor t = x->t;
    int64_t size;
    if (tsplit && a1->kind == RV_LIST) {
      at = i ? slice_bound(a1->l->items[i - 1].i, len) : 0;
      int64_t end = i < a1->l->n ? slice_bound(a1->l->items[i].i, len) : len;
      size = end > at ? end - at : 0;
    } else if (tsplit) {
      size = len / npieces + (i < len % npieces);
    } else {
      size = unbind ? 1 : a1 && a1->kind == RV_LIST ? a1->l->items[i].i : (at + step < len ? step : len - at);
    }
    t.offset += at * x->t.stride[dim];
    if (unbind) {
      for (int j = (int)dim; j + 1 < t.ndim; j++) {
        t.shape[j] = t.shape[j + 1];
        t.stride[j] = t.stride[j + 1];
      }
      t.ndim--;
    } else {
      t.shape[dim] = size;
    }
    at += size;
    l.l->items[i] = (RVal){.kind = RV_TENSOR, .t = t};
  }
  env[n->outputs[0]->id] = l;
  return 0;
}

static int run_node(Interp *in, Node *n) {
  RVal *env = in->env;
  if (in->o->max_steps && ++in->steps > in->o->max_steps) return fail(in, n, "interpreter step limit reached");
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (op && op->kernel) {
    int rc = run_kernel(in, n, op);
    /* an in-place view op (unsqueeze_, t_, ...): the tensor object itself takes the new view */
    if (!rc && op->effect == EFF_VIEW && op->schema && !strncmp(op->schema, "(Tensor(a!) self", 16) && n->ninputs > 0 &&
        n->noutputs == 1) {
      /* and so do its other names before n: v = x.relu_() is x */
      const Value *root = obj_root(in, n->inputs[0]);
      for (const Node *m = n->owner->first; m && m != n; m = m->next)
        for (int o = 0; o < (m->nblocks ? m->noutputs : m->noutputs > 0); o++) /* block outputs: each */
          if (obj_root(in, m->outputs[o]) == root) env[m->outputs[o]->id] = env[n->outputs[0]->id];
      for (const Value *v = n->inputs[0]; v; v = obj_next(in, v)) env[v->id] = env[n->outputs[0]->id];
    }
    return rc;
  }
  const char *k = n->kind;
  RVal *i0 = n->ninputs > 0 ? &env[n->inputs[0]->id] : NULL;
  if (!strcmp(k, "prim::Constant")) {
    const Attr *a = ir_node_attr(n, "value");
    if (a && a->kind == ATTR_TENSOR && (!a->t || (!a->t->data && a->t->nbytes)))
      return fail(in, n, "constant %%%s has no data", n->outputs[0]->name);
    env[n->outputs[0]->id] = constant_value(in, n);
  } else if (!strcmp(k, "prim::ListConstruct") || !strcmp(k, "prim::TupleConstruct")) {
    RVal v = {.kind = k[6] == 'L' ? RV_LIST : RV_TUPLE};
    v.l = list_new(in, n->ninputs);
    for (int i = 0; i < n->ninputs; i++) v.l->items[i] = env[n->inputs[i]->id];
    env[n->outputs[0]->id] = v;
  } else if (!strcmp(k, "prim::ListUnpack") || !strcmp(k, "prim::TupleUnpack")) {
    if ((i0->kind != RV_LIST && i0->kind != RV_TUPLE) || i0->l->n != n->noutputs)
      return fail(in, n, "'%s': expected %d elements", k, n->noutputs);
    for (int i = 0; i < n->noutputs; i++) env[n->outputs[i]->id] = i0->l->items[i];
  } else if (!strcmp(k, "prim::TupleIndex") || !strcmp(k, "aten::__getitem__")) {
    int64_t i = env[n->inputs[1]->id].i;
    if (i0->kind != RV_LIST && i0->kind != RV_TUPLE) return fail(in, n, "'%s' of a value that is not a list", k);
    if (i < 0) i += i0->l->n;
    if (i < 0 || i >= i0->l->n) return fail(in, n, "list index out of range");
    env[n->outputs[0]->id] = i0->l->items[i];
  } else if (!strcmp(k, "aten::split") || !strcmp(k, "aten::split_with_sizes") || !strcmp(k, "aten::chunk") ||
             !strcmp(k, "aten::unbind") || !strcmp(k, "aten::unsafe_split") ||
             !strcmp(k, "aten::unsafe_split_with_sizes") || !strcmp(k, "aten::tensor_split") ||
             !strcmp(k, "aten::unsafe_chunk")) {
    return run_split(in, n);
  } else if (!strcmp(k, "aten::len")) {
    if (i0->kind != RV_LIST && i0->kind != RV_TUPLE) return fail(in, n, "aten::len of a value that is not a list");
    env[n->outputs[0]->id] = scalar_int(i0->l->n);
  } else if (!strcmp(k, "aten::append")) {
    if (i0->kind != RV_LIST) return fail(in, n, "aten::append to a value that is not a list");
    list_push(in, i0->l, &env[n->inputs[1]->id]);
    if (n->noutputs) env[n->outputs[0]->id] = *i0;
  } else if (!strcmp(k, "prim::If")) {
    Block *b = n->blocks[truthy(i0) ? 0 : 1];
    if (run_block(in, b)) return -1;
    if (b->nrets != n->noutputs) return fail(in, n, "malformed prim::If: %d outputs, block returns %d", n->noutputs, b->nrets);
    for (int i = 0; i < n->noutputs; i++) {
      env[n->outputs[i]->id] = env[b->rets[i]->id];
      in->same[n->outputs[i]->id] = outer_object(in, b->rets[i], n);
    }
  } else if (!strcmp(k, "prim::Loop")) {
    return run_loop(in, n);
  } else if (!strcmp(k, "prim::Print") || !strcmp(k, "aten::warn")) {
    FILE *f = in->o->print_out ? in->o->print_out : stdout;
    if (k[0] == 'a') fputs("UserWarning: ", f);
    int np = k[0] == 'a' ? 1 : n->ninputs;
    for (int i = 0; i < np && i < n->ninputs; i++) {
      if (i) fputc(' ', f);
      print_rval(f, &env[n->inputs[i]->id]);
    }
    fputc('\n', f);
    in->o->nevents++;
  } else if (!strcmp(k, "prim::RaiseException")) {
    return fail(in, n, "the model raised an exception: %s", i0 && i0->kind == RV_STR && i0->s ? i0->s : "?");
  } else if (!strcmp(k, "prim::Uninitialized")) {
    env[n->outputs[0]->id] = (RVal){.kind = RV_NONE};
  } else if (!strcmp(k, "prim::unchecked_cast")) {
    env[n->outputs[0]->id] = *i0;
  } else if (!strcmp(k, "aten::__is__") || !strcmp(k, "aten::__isnot__")) {
    bool same = same_object(i0, &env[n->inputs[1]->id]);
    env[n->outputs[0]->id] = (RVal){.kind = RV_BOOL, .i = k[8] == '_' ? same : !same};
  } else if (!strcmp(k, "prim::dtype")) {
    if (i0->kind != RV_TENSOR) return fail(in, n, "prim::dtype of a value that is not a tensor");
    env[n->outputs[0]->id] = scalar_int(mck_scalar_type_of(i0->t.dtype));
  } else if (!strcmp(k, "prim::device")) {
    env[n->outputs[0]->id] = (RVal){.kind = RV_DEVICE, .s = "cpu"};
  } else if (!strcmp(k, "mc::write_back")) {
    return run_write_back(in, n);
  } else {
    return fail(in, n, "the interpreter cannot run '%s'", k);
  }
  return 0;
}

static int run_block(Interp *in, Block *b) {
  for (Node *n = b->first; n; n = n->next)
    if (run_node(in, n)) return -1;
  return 0;
}

/* ---- outputs ----------------------------------------------------------------------------- */
typedef struct OutVec {
  IrTensor **v;
  int n, cap;
} OutVec;

static void outvec_push(OutVec *o, IrTensor *t) {
  if (o->n == o->cap) {
    o->cap = o->cap ? o->cap * 2 : 8;
    o->v = realloc(o->v, sizeof *o->v * (size_t)o->cap);
    if (!o->v) abort();
  }
  o->v[o->n++] = t;
}

static void flatten(const RVal *v, OutVec *o) {
  IrTensor *t = NULL;
  switch (v->kind) {
  case RV_TENSOR: {
    t = interp_tensor_new((DType)v->t.dtype, v->t.ndim, v->t.shape);
    mck_tensor dst = v->t;
    dst.data = t->data;
    dst.offset = 0;
    mck_contiguous_strides(&dst);
    copy_elems(&dst, &v->t);
    break;
  }
  case RV_INT:
    t = interp_tensor_new(DT_I64, 0, NULL);
    memcpy(t->data, &v->i, 8);
    break;
  case RV_FLOAT:
    t = interp_tensor_new(DT_F64, 0, NULL);
    memcpy(t->data, &v->f, 8);
    break;
  case RV_BOOL:
    t = interp_tensor_new(DT_BOOL, 0, NULL);
    *(uint8_t *)t->data = v->i != 0;
    break;
  case RV_LIST: case RV_TUPLE:
    for (int i = 0; i < v->l->n; i++) flatten(&v->l->items[i], o);
    return;
  default: return;
  }
  outvec_push(o, t);
}

/* ---- entry points ------------------------------------------------------------------------ */
/* The Dim extent `axis` of graph input p follows (docs/dynamic.md), or NULL. */
static const IrDim *input_dim(const Graph *g, const Value *p, int axis) {
  for (int k = 0; k < g->ndims; k++)
    if (g->dims[k].value == p && g->dims[k].axis == axis) return &g->dims[k];
  return NULL;
}

/* Inputs whose extents share a Dim must be bound with one size. */
static int check_shared_dims(Interp *in) {
  const Graph *g = in->g;
  for (int a = 0; a < g->ndims; a++)
    for (int b = 0; b < a; b++) {
      const IrDim *x = &g->dims[a], *y = &g->dims[b];
      const RVal *vx = &in->env[x->value->id], *vy = &in->env[y->value->id];
      if (strcmp(x->name, y->name) || vx->kind != RV_TENSOR || vy->kind != RV_TENSOR || x->axis >= vx->t.ndim ||
          y->axis >= vy->t.ndim || vx->t.shape[x->axis] == vy->t.shape[y->axis])
        continue;
      return fail(in, NULL, "Dim '%s' is %lld in %%%s (dim %d) but %lld in %%%s (dim %d)", x->name,
                  (long long)vy->t.shape[y->axis], y->value->name, y->axis, (long long)vx->t.shape[x->axis],
                  x->value->name, x->axis);
    }
  return 0;
}

static int bind_input(Interp *in, const Value *p, IrTensor *t, int k) {
  RVal *v = &in->env[p->id];
  const Type *ty = p->type;
  TypeKind tk = ty ? ty->kind : TY_TENSOR;
  if (!t) return fail(in, NULL, "input %d is NULL", k);
  if (tk == TY_INT || tk == TY_FLOAT || tk == TY_BOOL || tk == TY_NUMBER) {
    if (!t->data || t->nbytes < ir_dtype_size(t->dtype))
      return fail(in, NULL, "input %d (%%%s): a scalar input needs a one-element tensor", k, p->name);
    mck_tensor m = {.data = t->data, .dtype = t->dtype, .ndim = 0};
    if (tk == TY_FLOAT || (tk == TY_NUMBER && ir_dtype_is_float(t->dtype))) *v = (RVal){.kind = RV_FLOAT, .f = mck_getf(&m, 0)};
    else if (tk == TY_BOOL) *v = (RVal){.kind = RV_BOOL, .i = mck_geti(&m, 0) != 0};
    else *v = scalar_int(mck_geti(&m, 0));
    return 0;
  }
  if (tk != TY_TENSOR && tk != TY_OPTIONAL) return fail(in, NULL, "input %d (%%%s): only tensor and scalar inputs are supported", k, p->name);
  if (ir_type_is_complete_tensor(ty)) {
    bool ok = ty->dtype == t->dtype && ty->ndim == t->ndim;
    for (int i = 0; ok && i < t->ndim; i++) ok = ty->shape[i] == t->shape[i] || input_dim(in->g, p, i);
    if (!ok) {
      char *want = ir_type_str(in->ar, ty);
      return fail(in, NULL, "input %d (%%%s): expected %s, got a %s tensor of rank %d", k, p->name, want,
                  ir_dtype_name(t->dtype), t->ndim);
    }
    for (int i = 0; i < t->ndim; i++) { /* an extent that follows a Dim: any size within its bounds */
      const IrDim *dm = input_dim(in->g, p, i);
      if (dm && (t->shape[i] < dm->min || t->shape[i] > dm->max))
        return fail(in, NULL, "input %d (%%%s): extent %lld in dim %d is outside Dim '%s' [%lld, %lld]", k, p->name,
                    (long long)t->shape[i], i, dm->name, (long long)dm->min, (long long)dm->max);
    }
  }
  v->kind = RV_TENSOR;
  memset(&v->t, 0, sizeof v->t);
  v->t.dtype = t->dtype;
  v->t.ndim = t->ndim;
  for (int i = 0; i < t->ndim; i++) v->t.shape[i] = t->shape[i];
  mck_contiguous_strides(&v->t);
  v->t.data = t->data ? t->data : storage(in, 1, t->dtype);
  return 0;
}

int interp_run_opts(Graph *g, InterpOptions *o, IrTensor *const *inputs, int ninputs, IrTensor ***outputs,
                    int *noutputs, Diag *d) {
  InterpOptions defaults = {0};
  if (!o) o = &defaults;
  o->nevents = 0;
  *outputs = NULL;
  *noutputs = 0;
  Interp in = {g, o, d, arena_new(), NULL, NULL, 0, 0};
  in.env = calloc((size_t)g->next_value_id + 1, sizeof *in.env);
  in.same = calloc((size_t)g->next_value_id + 1, sizeof *in.same);
  if (!in.env || !in.same) abort();
  Block *top = g->top;
  int first = g->has_self ? 1 : 0;
  if (top->nparams - first != ninputs) {
    fail(&in, NULL, "the graph takes %d inputs, %d given", top->nparams - first, ninputs);
  } else {
    if (first) in.env[top->params[0]->id] = (RVal){.kind = RV_NONE};
    for (int i = 0; i < ninputs && !in.errs; i++) bind_input(&in, top->params[first + i], inputs[i], i);
    if (!in.errs && g->ndims) check_shared_dims(&in);
  }
  if (!in.errs) run_block(&in, top);
  if (!in.errs) {
    OutVec ov = {0};
    for (int i = 0; i < top->nrets; i++) flatten(&in.env[top->rets[i]->id], &ov);
    *outputs = ov.v;
    *noutputs = ov.n;
  }
  free(in.env);
  free(in.same);
  arena_free(in.ar);
  return in.errs;
}

int interp_run(Graph *g, IrTensor *const *inputs, int ninputs, IrTensor ***outputs, int *noutputs, Diag *d) {
  return interp_run_opts(g, NULL, inputs, ninputs, outputs, noutputs, d);
}

void interp_free_outputs(IrTensor **outputs, int n) {
  for (int i = 0; i < n; i++) interp_tensor_free(outputs[i]);
  free(outputs);
}

/* ---- heap tensors -------------------------------------------------------------------------- */
IrTensor *interp_tensor_new(DType dt, int ndim, const int64_t *shape) {
  IrTensor *t = calloc(1, sizeof *t);
  if (!t) abort();
  t->dtype = dt;
  t->ndim = ndim;
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) {
    t->shape[i] = shape[i];
    n *= shape[i];
  }
  t->nbytes = (size_t)n * ir_dtype_size(dt);
  t->data = calloc(t->nbytes ? t->nbytes : 1, 1);
  if (!t->data) abort();
  return t;
}

IrTensor *interp_tensor_clone(const IrTensor *t) {
  IrTensor *c = interp_tensor_new(t->dtype, t->ndim, t->shape);
  if (t->data && t->nbytes) memcpy(c->data, t->data, t->nbytes);
  return c;
}

void interp_tensor_free(IrTensor *t) {
  if (!t) return;
  free(t->data);
  free(t);
}

int interp_tensor_compare(const IrTensor *a, const IrTensor *b, double rtol, double atol, char *msg, size_t msglen) {
  if (a->dtype != b->dtype || a->ndim != b->ndim) {
    snprintf(msg, msglen, "%s rank %d vs %s rank %d", ir_dtype_name(a->dtype), a->ndim, ir_dtype_name(b->dtype), b->ndim);
    return 1;
  }
  for (int i = 0; i < a->ndim; i++) {
    if (a->shape[i] != b->shape[i]) {
      snprintf(msg, msglen, "dim %d: %lld vs %lld", i, (long long)a->shape[i], (long long)b->shape[i]);
      return 1;
    }
  }
  size_t es = ir_dtype_size(a->dtype);
  size_t n = es ? a->nbytes / es : 0;
  mck_tensor ta = {.data = a->data, .dtype = a->dtype}, tb = {.data = b->data, .dtype = b->dtype};
  for (size_t i = 0; i < n; i++) {
    double x = mck_getf(&ta, (int64_t)i), y = mck_getf(&tb, (int64_t)i);
    if (x != x && y != y) continue;
    if (!(fabs(x - y) <= atol + rtol * fabs(y))) {
      snprintf(msg, msglen, "element %zu: %.9g vs %.9g", i, x, y);
      return 1;
    }
  }
  if (msglen) msg[0] = 0;
  return 0;
}
