/* dce.c — the `dce` pass: alias- and effect-aware dead code elimination (PyTorch's
 * dead_code_elimination.cpp with AliasDb is the model; docs/passes.md states the rule).
 *
 * Liveness is computed backwards over program order with two facts: which values are live
 * (used by a live node or returned) and L, the set of storage locations (alias.h) that a live
 * node or the caller may read later. The caller reads every graph input's and output's
 * storage at the end, so L starts as their union. Walking a block from its last node up, a node
 * is live when
 *   - it has an external effect (print, raise, warn, SetAttr, EXTERN, unknown op), or
 *   - one of its outputs is live, or
 *   - it writes storage in L (it writes something somebody reads afterwards);
 * and a live node makes its inputs live and adds what they point to to L. Writes nobody reads
 * afterwards — into a local clone, or into a tensor whose last read came earlier — are dead.
 * prim::If: each block is walked with L and the live outputs' returns; the If is live when
 * either block holds a live node or an output is live. prim::Loop: the body is walked
 * repeatedly with L = (what the code after the loop reads) ∪ (what the body's start reads, for
 * the next iteration) until nothing changes; a live loop keeps all its carried values.
 * Then dead nodes are removed (with their blocks), and dead outputs of live prim::If nodes are
 * removed from the If and from both blocks' returns. The whole thing repeats until nothing is
 * removed. Sound before functionalize (reference semantics) and after it (mc::write_back writes
 * a graph input, so it is always live). */
#include "pass.h"

#include "alias.h"
#include "ops/ops.h"

#include <stdlib.h>
#include <string.h>

typedef struct Dce {
  Graph *g;
  AliasDb *a;
  int words;
  bool *live_node; /* by node id */
  bool *live_val;  /* by value id */
  bool changed;    /* a mark was added during the current walk */
} Dce;

static uint64_t *set_new(const Dce *d) {
  uint64_t *s = calloc((size_t)d->words + 1, sizeof *s);
  if (!s) abort();
  return s;
}

static bool set_or(uint64_t *dst, const uint64_t *src, int words) {
  bool grew = false;
  for (int i = 0; i < words; i++) {
    if (src[i] & ~dst[i]) grew = true;
    dst[i] |= src[i];
  }
  return grew;
}

static void mark_val(Dce *d, const Value *v) {
  if (!d->live_val[v->id]) {
    d->live_val[v->id] = true;
    d->changed = true;
  }
}

static void mark_block(Dce *d, Block *b, uint64_t *L);

static bool block_has_live(const Dce *d, const Block *b) {
  for (const Node *m = b->first; m; m = m->next)
    if (d->live_node[m->id]) return true;
  return false;
}

/* prim::If: returns whether it is live; L becomes what is read before it. */
static bool mark_if(Dce *d, Node *n, uint64_t *L) {
  uint64_t *acc = set_new(d);
  for (int k = 0; k < n->nblocks; k++) {
    Block *b = n->blocks[k];
    for (int i = 0; i < n->noutputs && i < b->nrets; i++)
      if (d->live_val[n->outputs[i]->id]) mark_val(d, b->rets[i]);
    uint64_t *Lb = set_new(d);
    memcpy(Lb, L, sizeof *Lb * (size_t)d->words);
    mark_block(d, b, Lb);
    set_or(acc, Lb, d->words);
    free(Lb);
  }
  set_or(L, acc, d->words);
  free(acc);
  bool live = false;
  for (int i = 0; i < n->noutputs; i++) live |= d->live_val[n->outputs[i]->id];
  for (int k = 0; k < n->nblocks; k++) live |= block_has_live(d, n->blocks[k]);
  return live;
}

/* prim::Loop: the body runs again after itself, so what its start reads is read after its end. */
static bool mark_loop(Dce *d, Node *n, uint64_t *L) {
  Block *body = n->blocks[0];
  bool live = d->live_node[n->id];
  for (int i = 0; i < n->noutputs; i++) live |= d->live_val[n->outputs[i]->id];
  uint64_t *start = set_new(d), *Lb = set_new(d);
  for (int round = 0;; round++) {
    if (live)
      for (int i = 0; i < body->nrets; i++) mark_val(d, body->rets[i]);
    bool before = d->changed;
    d->changed = false;
    memcpy(Lb, L, sizeof *Lb * (size_t)d->words);
    set_or(Lb, start, d->words);
    mark_block(d, body, Lb);
    bool grew = set_or(start, Lb, d->words);
    bool now_live = live || block_has_live(d, body);
    bool again = grew || d->changed || now_live != live;
    d->changed |= before;
    live = now_live;
    if (!again && round > 0) break;
  }
  set_or(L, start, d->words);
  free(start);
  free(Lb);
  return live;
}

static void mark_node(Dce *d, Node *n, uint64_t *L) {
  bool live = d->live_node[n->id] || alias_node_is_extern(n);
  for (int i = 0; i < n->noutputs; i++) live |= d->live_val[n->outputs[i]->id];
  if (ir_node_is(n, "prim::If") && n->nblocks == 2) {
    live |= mark_if(d, n, L);
  } else if (ir_node_is(n, "prim::Loop") && n->nblocks == 1) {
    live |= mark_loop(d, n, L);
  } else if (!live && alias_node_writes_any(n)) {
    uint64_t *w = set_new(d);
    alias_node_writes(d->a, n, w);
    live = alias_sets_intersect(w, L, d->words);
    free(w);
  }
  if (!live) return;
  if (!d->live_node[n->id]) {
    d->live_node[n->id] = true;
    d->changed = true;
  }
  /* a live node reads all its inputs (a view's base too: cheap and conservative) */
  for (int i = 0; i < n->ninputs; i++) {
    mark_val(d, n->inputs[i]);
    if (d->a) set_or(L, alias_set(d->a, n->inputs[i]), d->words);
  }
}

static void mark_block(Dce *d, Block *b, uint64_t *L) {
  for (Node *n = b->last; n; n = n->prev) mark_node(d, n, L);
}

/* Removes output i of prim::If n and the matching returns of its blocks. */
static void drop_if_output(Node *n, int i) {
  for (int j = i + 1; j < n->noutputs; j++) {
    n->outputs[j - 1] = n->outputs[j];
    n->outputs[j - 1]->index = j - 1;
  }
  n->noutputs--;
  for (int k = 0; k < n->nblocks; k++) {
    Block *b = n->blocks[k];
    for (int j = i + 1; j < b->nrets; j++) b->rets[j - 1] = b->rets[j];
    b->nrets--;
  }
  ir_uses_invalidate(n->graph);
}

static int sweep(Dce *d, Block *b) {
  int removed = 0;
  for (Node *n = b->last, *prev; n; n = prev) {
    prev = n->prev;
    if (!d->live_node[n->id]) {
      ir_remove(n);
      removed++;
      continue;
    }
    if (ir_node_is(n, "prim::If"))
      for (int i = n->noutputs - 1; i >= 0; i--)
        if (!d->live_val[n->outputs[i]->id]) {
          drop_if_output(n, i);
          removed++;
        }
    for (int k = 0; k < n->nblocks; k++) removed += sweep(d, n->blocks[k]);
  }
  return removed;
}

static int dce_round(Graph *g) {
  Dce d = {0};
  d.g = g;
  /* Without a node that writes (or has an external effect) no location set decides anything:
   * skip the analysis, whose sets take memory and time growing with the square of the graph. */
  bool writes = false;
  for (const Node *n = g->top->first; n && !writes; n = n->next) writes = alias_node_writes_any(n);
  d.a = writes ? alias_analyze(g) : NULL;
  d.words = writes ? alias_words(d.a) : 0;
  d.live_node = calloc((size_t)g->next_node_id + 1, sizeof *d.live_node);
  d.live_val = calloc((size_t)g->next_value_id + 1, sizeof *d.live_val);
  uint64_t *L = set_new(&d);
  if (!d.live_node || !d.live_val) abort();
  Block *top = g->top;
  for (int i = 0; i < top->nparams && d.a; i++) set_or(L, alias_set(d.a, top->params[i]), d.words);
  for (int i = 0; i < top->nrets; i++) {
    mark_val(&d, top->rets[i]);
    if (d.a) set_or(L, alias_set(d.a, top->rets[i]), d.words);
  }
  mark_block(&d, top, L);
  int removed = sweep(&d, top);
  free(L);
  free(d.live_node);
  free(d.live_val);
  alias_free(d.a);
  return removed;
}

int dce_run(Graph *g, PassCtx *c) {
  int total = 0, r;
  while ((r = dce_round(g)) > 0) total += r;
  if (c && c->verbose > 1) fprintf(stderr, "dce: removed %d nodes and outputs\n", total);
  return 0;
}
