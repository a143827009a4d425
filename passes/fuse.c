/* fuse.c — the `fuse` pass: an elementwise activation whose input is a float32 convolution,
 * linear or tensor + tensor add used by nothing else becomes one node of a fused op that
 * applies the activation while the producer's result is still in cache (k_conv.h's GEMM
 * epilogue, k_linalg.h, k_elementwise.h):
 *   act(aten::_convolution / conv{1,2,3}d / _convolution_mode(...))  -> mc::conv_act
 *   act(aten::linear(x, w, b))                                        -> mc::linear_act
 *   act(aten::add(a, b, alpha))                                       -> mc::add_act
 * act is relu, relu6 / hardtanh (constant bounds), sigmoid, tanh, silu, hardswish or gelu
 * (constant approximate); the fused ops name it with a str constant and two float bounds.
 *
 * Invariants (docs/passes.md): only pure nodes fuse (EFF_PURE, not OPF_NONDET), in the same
 * block, and only when the producer's output has exactly one use (the activation; a graph
 * output or a second reader keeps it). The fused node goes where the producer was: its inputs
 * are the producer's (all defined before it) and constants, and the activation reads nothing
 * else, so no read moves across a write. The old producer and activation are left, unused, for
 * dce. Transposed convolutions are not fused. Runs after functionalize (value semantics). */
#include "pass.h"
#include "ops/ops.h"

#include <string.h>

typedef struct FuseAct {
  const char *name; /* kconv_act_code's name */
  double a, b;
} FuseAct;

static bool is_f32(const Value *v) {
  return v->type->kind == TY_TENSOR && v->type->dtype == DT_F32;
}

static bool is_pure(const Node *n) {
  const OpDef *op = n->op ? (const OpDef *)n->op : ops_lookup(n->kind);
  return op && op->effect == EFF_PURE && !(op->flags & OPF_NONDET) && n->nblocks == 0;
}

static bool const_num(const Value *v, double *out) {
  return ir_constant_float(v, out);
}

/* Recognises an activation node; false if n is none or its parameters are not constants. */
static bool activation(const Node *n, FuseAct *a) {
  static const char *const plain[] = {"relu", "sigmoid", "tanh", "silu", "hardswish"};
  a->a = -1.0;
  a->b = 1.0;
  if (!n->ninputs || n->noutputs != 1 || !is_f32(n->outputs[0])) return false;
  for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
    if (!strncmp(n->kind, "aten::", 6) && !strcmp(n->kind + 6, plain[i]) && n->ninputs == 1) {
      a->name = plain[i];
      return true;
    }
  }
  if (ir_node_is(n, "aten::relu6") && n->ninputs == 1) {
    *a = (FuseAct){"hardtanh", 0.0, 6.0};
    return true;
  }
  if (ir_node_is(n, "aten::hardtanh")) {
    a->name = "hardtanh";
    if (n->ninputs > 1 && !const_num(n->inputs[1], &a->a)) return false;
    if (n->ninputs > 2 && !const_num(n->inputs[2], &a->b)) return false;
    return n->ninputs <= 3;
  }
  if (ir_node_is(n, "aten::gelu")) {
    a->name = "gelu";
    if (n->ninputs == 1) return true;
    const Attr *s = n->ninputs == 2 ? ir_constant_attr(n->inputs[1]) : NULL;
    if (!s || s->kind != ATTR_STR || !s->s) return false;
    if (!strcmp(s->s, "tanh")) a->name = "gelu_tanh";
    return !strcmp(s->s, "none") || !strcmp(s->s, "tanh");
  }
  return false;
}

/* The constants fused nodes read (the activation's name and bounds, a defaulted alpha or None
 * argument), one node per distinct value, at the start of the top block: it precedes every
 * fused node, in any block. */
#define FUSE_NCONSTS 32
typedef struct FuseConsts {
  char kind[FUSE_NCONSTS]; /* 's' str, 'f' float, 'i' int, 'n' None */
  const char *s[FUSE_NCONSTS];
  double f[FUSE_NCONSTS];
  int64_t i[FUSE_NCONSTS];
  Value *v[FUSE_NCONSTS];
  int n;
} FuseConsts;

static Value *shared_const(Graph *g, FuseConsts *fc, Node *pos, char kind, const char *str, double f, int64_t i) {
  for (int k = 0; k < fc->n; k++)
    if (fc->kind[k] == kind && (kind != 's' || !strcmp(fc->s[k], str)) &&
        (kind != 'f' || !memcmp(&fc->f[k], &f, sizeof f)) && (kind != 'i' || fc->i[k] == i))
      return fc->v[k];
  Node *c;
  if (kind == 's') {
    Type *t = ir_type_scalar(g, TY_STR);
    c = ir_node_new(g, "prim::Constant", NULL, 0, 1, &t);
    c->loc = pos->loc;
    ir_node_add_attr(c, "value", ATTR_STR)->s = str;
  } else {
    c = kind == 'f' ? ir_make_constant_float(g, f, pos->loc)
        : kind == 'i' ? ir_make_constant_int(g, i, pos->loc) : ir_make_constant_none(g, pos->loc);
  }
  c->op = ops_lookup("prim::Constant");
  ir_insert_before(g->top->first, c);
  if (fc->n < FUSE_NCONSTS) {
    fc->kind[fc->n] = kind;
    fc->s[fc->n] = str;
    fc->f[fc->n] = f;
    fc->i[fc->n] = i;
    fc->v[fc->n++] = c->outputs[0];
  }
  return c->outputs[0];
}

/* Producer input i, or a None constant when the (defaulted) input is absent. */
static Value *arg_or_none(Graph *g, FuseConsts *fc, Node *p, int i) {
  return i < p->ninputs ? p->inputs[i] : shared_const(g, fc, p, 'n', NULL, 0, 0);
}

/* Builds the fused node's inputs from producer p; returns the fused kind or NULL. */
static const char *fused_inputs(Graph *g, FuseConsts *fc, Node *p, Value **in, int *nin) {
  const OpDef *op = p->op;
  const OpConv *cd = op ? op->conv : NULL;
  if (cd && cd->fuse_min > 0) { /* a convolution: its descriptor names mc::conv_act's inputs */
    int64_t tr = cd->transposed == 1;
    if (p->ninputs < cd->fuse_min) return NULL;
    if (cd->transposed == 2 && (p->ninputs <= cd->transposed_arg || !ir_constant_int(p->inputs[cd->transposed_arg], &tr)))
      return NULL;
    if (tr) return NULL;
    for (int i = 0; i < 7; i++) in[i] = arg_or_none(g, fc, p, cd->fused[i]);
    *nin = 7;
    return "mc::conv_act";
  }
  if (ir_node_is(p, "aten::linear")) {
    if (p->ninputs < 2) return NULL;
    for (int i = 0; i < 3; i++) in[i] = arg_or_none(g, fc, p, i);
    *nin = 3;
    return "mc::linear_act";
  }
  if (ir_node_is(p, "aten::add")) {
    if (p->ninputs < 2 || !is_f32(p->inputs[0]) || !is_f32(p->inputs[1])) return NULL;
    double alpha = 1.0;
    if (p->ninputs > 2 && !const_num(p->inputs[2], &alpha)) return NULL;
    in[0] = p->inputs[0];
    in[1] = p->inputs[1];
    in[2] = p->ninputs > 2 ? p->inputs[2] : shared_const(g, fc, p, 'i', NULL, 0, 1);
    *nin = 3;
    return "mc::add_act";
  }
  return NULL;
}

/* Tries to fuse activation node n into its producer; returns whether it did. */
static bool fuse(Graph *g, FuseConsts *fc, Node *n) {
  FuseAct a;
  if (!is_pure(n) || !activation(n, &a)) return false;
  Value *x = n->inputs[0];
  Node *p = x->def;
  if (!p || p->owner != n->owner || p->noutputs != 1 || !is_pure(p) || !is_f32(x) ||
      ir_count_uses(g, x) != 1)
    return false;
  Value *in[10];
  int nin = 0;
  const char *kind = fused_inputs(g, fc, p, in, &nin);
  if (!kind) return false;
  in[nin++] = shared_const(g, fc, p, 's', a.name, 0, 0);
  in[nin++] = shared_const(g, fc, p, 'f', NULL, a.a, 0);
  in[nin++] = shared_const(g, fc, p, 'f', NULL, a.b, 0);
  Type *t = ir_type_shared(g, n->outputs[0]->type);
  Node *f = ir_node_new(g, kind, in, nin, 1, &t);
  f->op = ops_lookup(kind);
  f->loc = p->loc;
  f->py_loc = p->py_loc;
  f->scope = p->scope;
  f->outputs[0]->loc = n->outputs[0]->loc;
  ir_insert_before(p, f);
  ir_replace_uses(g, n->outputs[0], f->outputs[0], NULL);
  return true;
}

static int fuse_block(Graph *g, FuseConsts *fc, Block *b) {
  int k = 0;
  for (Node *node = b->first, *next; node; node = next) {
    next = node->next;
    for (int i = 0; i < node->nblocks; i++) k += fuse_block(g, fc, node->blocks[i]);
    if (fuse(g, fc, node)) k++;
  }
  return k;
}

int fuse_run(Graph *g, PassCtx *c) {
  FuseConsts fc = {0};
  int k = fuse_block(g, &fc, g->top);
  if (c && c->verbose > 1) fprintf(stderr, "fuse: fused %d activations\n", k);
  return 0;
}
