/* fold_bn.c — the `fold_bn` pass: an inference batch_norm (training = false) whose input is a
 * convolution used by nothing else (a row whose descriptor, OpDef.conv, allows it: not
 * transposed), with constant weights and statistics, is folded into the convolution's weights
 * at compile time, as PyTorch's fuse_conv_bn_eval does:
 *   s[c] = gamma[c] / sqrt(var[c] + eps)
 *   W'[c, ...] = W[c, ...] * s[c],   b'[c] = (b[c] - mean[c]) * s[c] + beta[c]
 * computed in double and rounded once. The batch_norm goes; the old constants are left for dce.
 * Runs after functionalize, so no constant is written in place any more. */
#include "pass.h"
#include "ops/ops.h"

#include <math.h>
#include <string.h>

static const IrTensor *const_tensor(const Value *v, DType dt, int64_t n) {
  const Attr *a = ir_constant_attr(v);
  if (!a || a->kind != ATTR_TENSOR || !a->t || !a->t->data || a->t->dtype != dt) return NULL;
  int64_t numel = 1;
  for (int i = 0; i < a->t->ndim; i++) numel *= a->t->shape[i];
  return n < 0 || numel == n ? a->t : NULL;
}

static double elem(const IrTensor *t, int64_t i) {
  return t->dtype == DT_F32 ? (double)((const float *)t->data)[i] : ((const double *)t->data)[i];
}

static void set_elem(IrTensor *t, int64_t i, double x) {
  if (t->dtype == DT_F32) ((float *)t->data)[i] = (float)x;
  else ((double *)t->data)[i] = x;
}

static IrTensor *new_tensor(Graph *g, DType dt, int ndim, const int64_t *shape) {
  IrTensor *t = arena_alloc(g->arena, sizeof *t);
  t->dtype = dt;
  t->ndim = ndim;
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) n *= t->shape[i] = shape[i];
  t->nbytes = (size_t)n * ir_dtype_size(dt);
  t->data = arena_alloc(g->arena, t->nbytes ? t->nbytes : 1);
  return t;
}

/* Tries to fold batch_norm node bn; returns whether it did. */
static bool fold(Graph *g, Node *bn) {
  if (bn->ninputs < 8) return false;
  int64_t training;
  double eps;
  if (!ir_constant_int(bn->inputs[5], &training) || training || !ir_constant_float(bn->inputs[7], &eps)) return false;
  Node *cv = bn->inputs[0]->def;
  if (!cv || ir_count_uses(g, bn->inputs[0]) != 1) return false;
  const OpDef *op = cv->op;
  const OpConv *cd = op ? op->conv : NULL;
  if (!cd || !cd->fold_bn || cd->transposed == 1 || cv->ninputs <= cd->weight || cv->ninputs <= cd->bias) return false;
  int64_t transposed = 0;
  if (cd->transposed == 2 &&
      (cv->ninputs <= cd->transposed_arg || !ir_constant_int(cv->inputs[cd->transposed_arg], &transposed)))
    return false;
  if (transposed) return false;
  const Attr *wa = ir_constant_attr(cv->inputs[cd->weight]);
  if (!wa || wa->kind != ATTR_TENSOR || !wa->t || !wa->t->data || wa->t->ndim < 1) return false;
  const IrTensor *W = wa->t;
  DType dt = W->dtype;
  if (dt != DT_F32 && dt != DT_F64) return false;
  int64_t C = W->shape[0], per = 1;
  for (int i = 1; i < W->ndim; i++) per *= W->shape[i];
  const IrTensor *b = ir_constant_is_none(cv->inputs[cd->bias]) ? NULL : const_tensor(cv->inputs[cd->bias], dt, C);
  if (!b && !ir_constant_is_none(cv->inputs[cd->bias])) return false;
  const IrTensor *gamma = ir_constant_is_none(bn->inputs[1]) ? NULL : const_tensor(bn->inputs[1], dt, C);
  const IrTensor *beta = ir_constant_is_none(bn->inputs[2]) ? NULL : const_tensor(bn->inputs[2], dt, C);
  const IrTensor *mean = const_tensor(bn->inputs[3], dt, C), *var = const_tensor(bn->inputs[4], dt, C);
  if ((!gamma && !ir_constant_is_none(bn->inputs[1])) || (!beta && !ir_constant_is_none(bn->inputs[2])) || !mean || !var)
    return false;
  IrTensor *W2 = new_tensor(g, dt, W->ndim, W->shape);
  IrTensor *b2 = new_tensor(g, dt, 1, &C);
  for (int64_t c = 0; c < C; c++) {
    double s = (gamma ? elem(gamma, c) : 1.0) / sqrt(elem(var, c) + eps);
    for (int64_t k = 0; k < per; k++) set_elem(W2, c * per + k, elem(W, c * per + k) * s);
    set_elem(b2, c, ((b ? elem(b, c) : 0.0) - elem(mean, c)) * s + (beta ? elem(beta, c) : 0.0));
  }
  Node *nw = ir_make_constant_tensor(g, W2, cv->inputs[cd->weight]->def->loc);
  Node *nb = ir_make_constant_tensor(g, b2, bn->loc);
  nw->op = nb->op = ops_lookup("prim::Constant");
  ir_insert_before(cv, nw);
  ir_insert_before(cv, nb);
  ir_node_set_input(cv, cd->weight, nw->outputs[0]);
  ir_node_set_input(cv, cd->bias, nb->outputs[0]);
  ir_replace_uses(g, bn->outputs[0], cv->outputs[0], NULL);
  ir_remove(bn);
  return true;
}

static int fold_block(Graph *g, Block *b) {
  int n = 0;
  for (Node *node = b->first, *next; node; node = next) {
    next = node->next;
    for (int k = 0; k < node->nblocks; k++) n += fold_block(g, node->blocks[k]);
    if (ir_node_is(node, "aten::batch_norm") && fold(g, node)) n++;
  }
  return n;
}

int fold_bn_run(Graph *g, PassCtx *c) {
  int n = fold_block(g, g->top);
  if (c && c->verbose > 1) fprintf(stderr, "fold_bn: folded %d batch norms\n", n);
  return 0;
}
