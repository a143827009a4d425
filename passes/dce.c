/* dce.c — the `dce` pass (conservative form): removes nodes that are pure or structural-pure
 * and whose outputs nobody uses, repeatedly, innermost blocks included. Any node that writes
 * (EFF_WRITE), has an external effect, or contains blocks is kept. */
#include "pass.h"
#include "ops/ops.h"

static bool removable(const Node *n) {
  const OpDef *op = n->op;
  if (!op || n->nblocks) return false;
  return op->effect == EFF_PURE || op->effect == EFF_VIEW;
}

static int sweep(Graph *g, Block *b) {
  int removed = 0;
  for (Node *n = b->last, *prev; n; n = prev) {
    prev = n->prev;
    for (int k = 0; k < n->nblocks; k++) removed += sweep(g, n->blocks[k]);
    if (!removable(n)) continue;
    bool used = false;
    for (int i = 0; i < n->noutputs && !used; i++) used = ir_count_uses(g, n->outputs[i]) > 0;
    if (!used) {
      ir_remove(n);
      removed++;
    }
  }
  return removed;
}

int dce_run(Graph *g, PassCtx *c) {
  (void)c;
  while (sweep(g, g->top) > 0) {
  }
  return 0;
}
