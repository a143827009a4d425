/* prep.c — the `prep` pass: makes a graph as PyTorch printed or exported it ready for the rest
 * of the pipeline, or says clearly why it cannot be:
 *   - prim::CallMethod means the dump is not inlined (print `module.inlined_graph`);
 *   - prim::GetAttr on the module means parameters that a text dump does not carry;
 *   - a constant printed as <Tensor> has no data;
 * then drops the unused module input (%self) and flattens tuple/list outputs depth-first, left to
 * right, as the runtime and `mc run` number them. */
#include "pass.h"

#include <string.h>

static const char export_hint[] = "export the model with mc_export (frozen graph JSON with its weights)";

static int check_block(Block *b, Graph *g, PassCtx *c) {
  int errs = 0;
  for (Node *n = b->first; n; n = n->next) {
    if (ir_node_is(n, "prim::CallMethod")) {
      const Attr *a = ir_node_attr(n, "name");
      diag_error(c->diag, n->loc, "call of submodule method '%s' is not inlined; print `module.inlined_graph` or %s",
                 a && a->s ? a->s : "?", export_hint);
      errs++;
    } else if (ir_node_is(n, "prim::GetAttr") && ir_count_uses(g, n->outputs[0]) > 0 &&
               n->outputs[0]->type->kind != TY_CLASS) {
      const Attr *a = ir_node_attr(n, "name");
      size_t len = g->path ? strlen(g->path) : 0;
      if (len >= 5 && strcmp(g->path + len - 5, ".json") == 0)
        diag_error(c->diag, n->loc,
                   "module attribute '%s' is read from the module at run time, which mc does not have; re-export "
                   "with mc_export, which makes module state that forward updates graph inputs",
                   a && a->s ? a->s : "?");
      else
        diag_error(c->diag, n->loc, "module attribute '%s' has no value in a text dump; %s",
                   a && a->s ? a->s : "?", export_hint);
      errs++;
    } else if (ir_node_is(n, "prim::Constant") && ir_count_uses(g, n->outputs[0]) > 0) {
      const Attr *a = ir_node_attr(n, "value");
      if (a && a->kind == ATTR_TENSOR && (!a->t || !a->t->data) && (!a->t || ir_type_numel(n->outputs[0]->type) != 0)) {
        diag_error(c->diag, n->loc, "constant %%%s has no data (PyTorch prints large tensors as <Tensor>); %s",
                   n->outputs[0]->name, export_hint);
        errs++;
      }
    }
    for (int k = 0; k < n->nblocks; k++) errs += check_block(n->blocks[k], g, c);
  }
  return errs;
}

/* Removes GetAttr chains nobody uses, so the module input can go. */
static void drop_dead_getattrs(Graph *g) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (Node *n = g->top->last, *prev; n; n = prev) {
      prev = n->prev;
      if (ir_node_is(n, "prim::GetAttr") && ir_count_uses(g, n->outputs[0]) == 0) {
        ir_remove(n);
        changed = true;
      }
    }
  }
}

static void flatten_into(Value *v, Value ***out, int *n, int *cap, Arena *a) {
  Node *d = v->def;
  if (d && (ir_node_is(d, "prim::TupleConstruct") || ir_node_is(d, "prim::ListConstruct")) &&
      !(v->type->kind == TY_LIST && v->type->elem && v->type->elem->kind != TY_TENSOR)) {
    for (int i = 0; i < d->ninputs; i++) flatten_into(d->inputs[i], out, n, cap, a);
    return;
  }
  if (*n == *cap) {
    int nc = *cap ? *cap * 2 : 8;
    Value **nv = arena_alloc(a, sizeof *nv * (size_t)nc);
    if (*n) memcpy(nv, *out, sizeof *nv * (size_t)*n);
    *out = nv;
    *cap = nc;
  }
  (*out)[(*n)++] = v;
}

int prep_run(Graph *g, PassCtx *c) {
  drop_dead_getattrs(g);
  int errs = check_block(g->top, g, c);
  if (!errs) errs = functionalize_inplace_views(g, c);
  if (errs) return errs;
  Block *top = g->top;
  if (g->has_self && top->nparams > 0 && ir_count_uses(g, top->params[0]) == 0) {
    for (int i = 1; i < top->nparams; i++) {
      top->params[i - 1] = top->params[i];
      top->params[i - 1]->index = i - 1;
    }
    top->nparams--;
    g->has_self = false;
  }
  Value **outs = NULL;
  int n = 0, cap = 0;
  for (int i = 0; i < top->nrets; i++) flatten_into(top->rets[i], &outs, &n, &cap, g->arena);
  top->rets = outs;
  top->nrets = n;
  ir_uses_invalidate(g);
  return 0;
}
