/* alias.c — alias analysis (see alias.h for the model). Locations are numbered densely: 0 is the
 * wildcard, then one per graph input, constant and fresh allocation that can hold storage. The
 * sets are bitsets, one row per value id, computed by walking the graph in program order and
 * repeating the walk until no set grows (loop-carried values and aten::append feed earlier
 * values). Sets only ever grow, so the walk terminates. */
#include "alias.h"

#include "ops/ops.h"

#include <stdlib.h>
#include <string.h>

#define W_LOC 0

struct AliasDb {
  Graph *g;
  int nvalues; /* value ids below this were analysed */
  int nlocs, words;
  uint64_t *sets;   /* nvalues rows of `words` */
  int *loc_of;      /* value id -> its own location, or -1 */
  uint64_t *all;    /* the full set, for values the analysis never saw */
  uint64_t *empty;
  uint64_t *io;     /* locations of graph inputs and outputs */
  bool changed;
};

bool alias_holds_storage(const Type *t) {
  if (!t) return true;
  switch (t->kind) {
  case TY_TENSOR: case TY_LIST: case TY_TUPLE: case TY_OPTIONAL: case TY_CLASS: case TY_ANY: return true;
  default: return false;
  }
}

bool alias_sets_intersect(const uint64_t *x, const uint64_t *y, int words) {
  for (int i = 0; i < words; i++)
    if (x[i] & y[i]) return true;
  return false;
}

static uint64_t *row(AliasDb *a, const Value *v) { return a->sets + (size_t)v->id * (size_t)a->words; }

static void add_loc(AliasDb *a, const Value *v, int loc) {
  if (loc < 0 || !alias_holds_storage(v->type)) return;
  uint64_t *r = row(a, v), bit = (uint64_t)1 << (loc % 64);
  if (!(r[loc / 64] & bit)) {
    r[loc / 64] |= bit;
    a->changed = true;
  }
}

static void add_set(AliasDb *a, const Value *dst, const Value *src) {
  if (!alias_holds_storage(dst->type) || !alias_holds_storage(src->type) || dst == src) return;
  uint64_t *d = row(a, dst);
  const uint64_t *s = row(a, src);
  for (int i = 0; i < a->words; i++) {
    if (s[i] & ~d[i]) {
      d[i] |= s[i];
      a->changed = true;
    }
  }
}

static void fresh(AliasDb *a, const Value *v) { add_loc(a, v, a->loc_of[v->id]); }

/* ---- numbering locations ---------------------------------------------------------------- */
static bool number_node(Node *n, void *ctx) {
  AliasDb *a = ctx;
  for (int i = 0; i < n->noutputs; i++)
    if (alias_holds_storage(n->outputs[i]->type)) a->loc_of[n->outputs[i]->id] = a->nlocs++;
  return true;
}

/* ---- transfer functions ------------------------------------------------------------------ */
static bool is_extractor(const Node *n) {
  return ir_node_is(n, "prim::ListUnpack") || ir_node_is(n, "prim::TupleUnpack") ||
         ir_node_is(n, "prim::TupleIndex") || ir_node_is(n, "aten::__getitem__") ||
         ir_node_is(n, "prim::GetAttr");
}

static void walk_block(AliasDb *a, Block *b);

static void walk_node(AliasDb *a, Node *n) {
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (ir_node_is(n, "prim::If") && n->nblocks == 2) {
    for (int k = 0; k < 2; k++) {
      walk_block(a, n->blocks[k]);
      for (int i = 0; i < n->noutputs && i < n->blocks[k]->nrets; i++) add_set(a, n->outputs[i], n->blocks[k]->rets[i]);
    }
    return;
  }
  if (ir_node_is(n, "prim::Loop") && n->nblocks == 1) {
    Block *body = n->blocks[0];
    for (int i = 0; i + 2 < n->ninputs; i++) {
      if (i + 1 < body->nparams) add_set(a, body->params[i + 1], n->inputs[i + 2]);
      if (i + 1 < body->nparams && i + 1 < body->nrets) add_set(a, body->params[i + 1], body->rets[i + 1]);
    }
    walk_block(a, body);
    for (int i = 0; i < n->noutputs; i++) {
      if (i + 2 < n->ninputs) add_set(a, n->outputs[i], n->inputs[i + 2]);
      if (i + 1 < body->nrets) add_set(a, n->outputs[i], body->rets[i + 1]);
    }
    return;
  }
  if (!op || op->effect == EFF_EXTERN || n->nblocks) {
    /* an unknown op, a method call or SetAttr may keep what it is given; print/raise/warn do not */
    bool keeps = !op || n->nblocks || ir_node_is(n, "prim::SetAttr") || ir_node_is(n, "prim::CallMethod");
    for (int i = 0; i < n->ninputs && keeps; i++) add_loc(a, n->inputs[i], W_LOC);
    for (int i = 0; i < n->noutputs; i++) {
      fresh(a, n->outputs[i]);
      add_loc(a, n->outputs[i], W_LOC);
    }
    for (int k = 0; k < n->nblocks; k++) walk_block(a, n->blocks[k]);
    return;
  }
  if (ir_node_is(n, "prim::ListConstruct") || ir_node_is(n, "prim::TupleConstruct")) {
    Value *o = n->outputs[0];
    fresh(a, o);
    add_loc(a, o, W_LOC);
    for (int i = 0; i < n->ninputs; i++) {
      add_loc(a, n->inputs[i], W_LOC);
      add_set(a, o, n->inputs[i]);
    }
    return;
  }
  if (is_extractor(n) || ir_node_is(n, "prim::unchecked_cast")) {
    for (int i = 0; i < n->noutputs; i++) {
      add_set(a, n->outputs[i], n->inputs[0]);
      if (!ir_node_is(n, "prim::unchecked_cast")) add_loc(a, n->outputs[i], W_LOC);
    }
    return;
  }
  if (ir_node_is(n, "aten::append")) {
    add_loc(a, n->inputs[1], W_LOC);
    add_set(a, n->inputs[0], n->inputs[1]);
    if (n->noutputs) add_set(a, n->outputs[0], n->inputs[0]);
    return;
  }
  for (int i = 0; i < n->noutputs; i++) {
    Value *o = n->outputs[i];
    bool aliases = i == 0 && (op->effect == EFF_VIEW || op->effect == EFF_WRITE) && op->effect_arg < n->ninputs;
    if (aliases) add_set(a, o, n->inputs[op->effect_arg]);
    if (!aliases || (op->flags & OPF_MAYBE_VIEW)) fresh(a, o);
  }
}

static void walk_block(AliasDb *a, Block *b) {
  for (Node *n = b->first; n; n = n->next) walk_node(a, n);
}

AliasDb *alias_analyze(Graph *g) {
  AliasDb *a = calloc(1, sizeof *a);
  if (!a) abort();
  a->g = g;
  a->nvalues = g->next_value_id;
  a->loc_of = malloc(sizeof(int) * (size_t)(a->nvalues + 1));
  if (!a->loc_of) abort();
  for (int i = 0; i <= a->nvalues; i++) a->loc_of[i] = -1;
  a->nlocs = 1;
  Block *top = g->top;
  for (int i = 0; i < top->nparams; i++)
    if (alias_holds_storage(top->params[i]->type)) a->loc_of[top->params[i]->id] = a->nlocs++;
  ir_walk(top, number_node, a);
  a->words = (a->nlocs + 63) / 64;
  a->sets = calloc((size_t)a->nvalues * (size_t)a->words + 1, sizeof(uint64_t));
  a->all = malloc(sizeof(uint64_t) * (size_t)a->words);
  a->empty = calloc((size_t)a->words, sizeof(uint64_t));
  a->io = calloc((size_t)a->words, sizeof(uint64_t));
  if (!a->sets || !a->all || !a->empty || !a->io) abort();
  memset(a->all, 0xff, sizeof(uint64_t) * (size_t)a->words);
  for (int i = 0; i < top->nparams; i++) {
    Value *p = top->params[i];
    fresh(a, p);
    TypeKind k = p->type ? p->type->kind : TY_TENSOR;
    if (k != TY_TENSOR && k != TY_OPTIONAL) add_loc(a, p, W_LOC);
  }
  do {
    a->changed = false;
    walk_block(a, top);
  } while (a->changed);
  for (int i = 0; i < top->nparams; i++)
    for (int w = 0; w < a->words; w++) a->io[w] |= row(a, top->params[i])[w];
  for (int i = 0; i < top->nrets; i++) {
    const uint64_t *s = alias_set(a, top->rets[i]);
    for (int w = 0; w < a->words; w++) a->io[w] |= s[w];
  }
  return a;
}

void alias_free(AliasDb *a) {
  if (!a) return;
  free(a->sets);
  free(a->loc_of);
  free(a->all);
  free(a->empty);
  free(a->io);
  free(a);
}

int alias_words(const AliasDb *a) { return a->words; }
int alias_nlocs(const AliasDb *a) { return a->nlocs; }

const uint64_t *alias_set(const AliasDb *a, const Value *v) {
  if (!alias_holds_storage(v->type)) return a->empty;
  if (v->id < 0 || v->id >= a->nvalues) return a->all;
  return a->sets + (size_t)v->id * (size_t)a->words;
}

bool alias_may_alias(const AliasDb *a, const Value *x, const Value *y) {
  return alias_sets_intersect(alias_set(a, x), alias_set(a, y), a->words);
}

bool alias_may_alias_io(const AliasDb *a, const Value *v) {
  return alias_sets_intersect(alias_set(a, v), a->io, a->words);
}

/* ---- node effects ------------------------------------------------------------------------ */
static void or_set(uint64_t *acc, const uint64_t *s, int words) {
  for (int i = 0; i < words; i++) acc[i] |= s[i];
}

void alias_node_reads(const AliasDb *a, const Node *n, uint64_t *acc) {
  for (int i = 0; i < n->ninputs; i++) or_set(acc, alias_set(a, n->inputs[i]), a->words);
  for (int k = 0; k < n->nblocks; k++) {
    const Block *b = n->blocks[k];
    for (const Node *m = b->first; m; m = m->next) alias_node_reads(a, m, acc);
    for (int i = 0; i < b->nrets; i++) or_set(acc, alias_set(a, b->rets[i]), a->words);
  }
}

void alias_node_writes(const AliasDb *a, const Node *n, uint64_t *acc) {
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (!op || op->effect == EFF_EXTERN) {
    /* an unknown or external op may write anything it is given */
    for (int i = 0; i < n->ninputs; i++) or_set(acc, alias_set(a, n->inputs[i]), a->words);
  } else if (op->effect == EFF_WRITE && op->effect_arg < n->ninputs) {
    or_set(acc, alias_set(a, n->inputs[op->effect_arg]), a->words);
  }
  for (int k = 0; k < n->nblocks; k++)
    for (const Node *m = n->blocks[k]->first; m; m = m->next) alias_node_writes(a, m, acc);
}

bool alias_node_writes_any(const Node *n) {
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (!op || op->effect == EFF_EXTERN || op->effect == EFF_WRITE) return true;
  for (int k = 0; k < n->nblocks; k++)
    for (const Node *m = n->blocks[k]->first; m; m = m->next)
      if (alias_node_writes_any(m)) return true;
  return false;
}

bool alias_node_is_extern(const Node *n) {
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (!op || op->effect == EFF_EXTERN) return true;
  if (n->nblocks && op->effect != EFF_CONTROL) return true;
  for (int k = 0; k < n->nblocks; k++)
    for (const Node *m = n->blocks[k]->first; m; m = m->next)
      if (alias_node_is_extern(m)) return true;
  return false;
}

bool alias_nodes_conflict(const AliasDb *a, const Node *x, const Node *y) {
  if (alias_node_is_extern(x) || alias_node_is_extern(y)) return true;
  bool wx = alias_node_writes_any(x), wy = alias_node_writes_any(y);
  if (!wx && !wy) return false;
  int words = a->words;
  uint64_t *rx = calloc((size_t)words, sizeof *rx), *ry = calloc((size_t)words, sizeof *ry);
  uint64_t *xw = calloc((size_t)words, sizeof *xw), *yw = calloc((size_t)words, sizeof *yw);
  if (!rx || !ry || !xw || !yw) abort();
  alias_node_reads(a, x, rx);
  alias_node_reads(a, y, ry);
  alias_node_writes(a, x, xw);
  alias_node_writes(a, y, yw);
  bool c = alias_sets_intersect(xw, ry, words) || alias_sets_intersect(yw, rx, words) ||
           alias_sets_intersect(xw, yw, words);
  free(rx);
  free(ry);
  free(xw);
  free(yw);
  return c;
}

/* ---- printing ------------------------------------------------------------------------------ */
typedef struct DumpCtx {
  FILE *f;
  const AliasDb *a;
} DumpCtx;

static void dump_value(const DumpCtx *c, const Value *v) {
  if (!alias_holds_storage(v->type)) return;
  const AliasDb *a = c->a;
  const uint64_t *s = alias_set(a, v);
  fprintf(c->f, "%%%s: {", v->name);
  bool first = true;
  for (int l = 0; l < a->nlocs; l++) {
    if (!(s[l / 64] >> (l % 64) & 1)) continue;
    fputs(first ? "" : ", ", c->f);
    first = false;
    if (l == W_LOC) {
      fputs("W", c->f);
      continue;
    }
    for (int id = 0; id < a->nvalues; id++) {
      if (a->loc_of[id] != l) continue;
      /* name the location after the value that owns it */
      const Value *owner = NULL;
      for (int i = 0; i < a->g->top->nparams && !owner; i++)
        if (a->g->top->params[i]->id == id) owner = a->g->top->params[i];
      if (owner) fprintf(c->f, "in:%s", owner->name);
      else fprintf(c->f, "#%d", id);
      break;
    }
  }
  fputs("}\n", c->f);
}

static bool dump_node(Node *n, void *ctx) {
  for (int i = 0; i < n->noutputs; i++) dump_value(ctx, n->outputs[i]);
  for (int k = 0; k < n->nblocks; k++)
    for (int i = 0; i < n->blocks[k]->nparams; i++) dump_value(ctx, n->blocks[k]->params[i]);
  return true;
}

void alias_dump(FILE *f, const AliasDb *a) {
  DumpCtx c = {f, a};
  for (int i = 0; i < a->g->top->nparams; i++) dump_value(&c, a->g->top->params[i]);
  ir_walk(a->g->top, dump_node, &c);
}
