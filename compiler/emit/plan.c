/* plan.c — the memory plan: every tensor value gets a storage — a graph input's buffer, constant
 * data, a view of another value, or a slice of the one arena whose size is fixed at compile
 * time. Arena slices are reused once every value sharing them (views included) is dead;
 * graph outputs live to the end, and nothing is ever placed in storage the caller can see.
 * First-fit over live intervals, 64-byte aligned. */
#include "emit.h"

#include "ops/ops.h"
#include "passes/pass.h"

#include <stdlib.h>
#include <string.h>

#define ALIGN 64

const Value *plan_root(const Plan *p, const Value *v) {
  while (v && p->st[v->id].kind == ST_VIEW) v = p->st[v->id].base;
  return v;
}

typedef struct Interval {
  const Value *v;
  int start, end;
  size_t bytes, offset;
} Interval;

static int cmp_interval(const void *a, const void *b) {
  const Interval *x = a, *y = b;
  if (x->bytes != y->bytes) return x->bytes < y->bytes ? 1 : -1; /* largest first */
  return x->start - y->start;
}

int plan_graph(Graph *g, Plan *p, Diag *d) {
  memset(p, 0, sizeof *p);
  p->nvalues = g->next_value_id;
  p->st = calloc((size_t)p->nvalues + 1, sizeof *p->st);
  int cap = 64;
  p->order = malloc(sizeof *p->order * (size_t)cap);
  if (!p->st || !p->order) return 1;
  for (Node *n = g->top->first; n; n = n->next) {
    if (n->nblocks) {
      diag_error(d, n->loc, "'%s' with nested blocks is not supported by the C emitter yet", n->kind);
      return 1;
    }
    if (p->nnodes == cap) {
      cap *= 2;
      Node **no = realloc(p->order, sizeof *no * (size_t)cap);
      if (!no) return 1;
      p->order = no;
    }
    p->order[p->nnodes++] = n;
  }
  Block *top = g->top;
  for (int i = 0; i < top->nparams; i++) {
    Storage *s = &p->st[top->params[i]->id];
    s->kind = ST_INPUT;
    s->input = i;
  }
  /* storage kinds */
  for (int k = 0; k < p->nnodes; k++) {
    Node *n = p->order[k];
    if (ir_node_is(n, "prim::Constant")) {
      const Attr *a = ir_node_attr(n, "value");
      if (a && a->kind == ATTR_TENSOR) p->st[n->outputs[0]->id].kind = ST_CONST;
      continue;
    }
    for (int i = 0; i < n->noutputs; i++) {
      Value *v = n->outputs[i];
      if (v->type->kind != TY_TENSOR) continue;
      const Value *src = i == 0 ? infer_alias_source(v) : NULL;
      Storage *s = &p->st[v->id];
      if (src) {
        s->kind = ST_VIEW;
        s->base = src;
      } else {
        s->kind = ST_ARENA;
        int64_t numel = ir_type_numel(v->type);
        if (numel < 0) {
          diag_error(d, n->loc, "the shape of %%%s is not known at compile time", v->name);
          return 1;
        }
        s->bytes = (size_t)numel * ir_dtype_size(v->type->dtype);
      }
    }
  }
  /* constant data is read-only: a write into it needs the functionalize pass first */
  for (int k = 0; k < p->nnodes; k++) {
    Node *n = p->order[k];
    const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
    if (!op || op->effect != EFF_WRITE || op->effect_arg >= n->ninputs) continue;
    const Value *r = plan_root(p, n->inputs[op->effect_arg]);
    if (r && p->st[r->id].kind == ST_CONST) {
      diag_error(d, n->loc, "'%s' writes into constant %%%s; run the functionalize pass first", n->kind, r->name);
      return 1;
    }
  }
  /* live intervals of arena roots: from definition to the last use of any value sharing them */
  int *last = calloc((size_t)p->nvalues + 1, sizeof *last);
  int *first = calloc((size_t)p->nvalues + 1, sizeof *first);
  if (!last || !first) return 1;
  for (int k = 0; k < p->nnodes; k++) {
    Node *n = p->order[k];
    for (int i = 0; i < n->noutputs; i++) {
      const Value *r = plan_root(p, n->outputs[i]);
      if (r && p->st[r->id].kind == ST_ARENA) {
        if (r == n->outputs[i]) first[r->id] = k;
        if (last[r->id] < k) last[r->id] = k;
      }
    }
    for (int i = 0; i < n->ninputs; i++) {
      const Value *r = plan_root(p, n->inputs[i]);
      if (r && p->st[r->id].kind == ST_ARENA && last[r->id] < k) last[r->id] = k;
      /* a list of tensors is used where the list is used */
      const Node *ld = n->inputs[i]->def;
      if (ld && ir_node_is(ld, "prim::ListConstruct"))
        for (int j = 0; j < ld->ninputs; j++) {
          const Value *lr = plan_root(p, ld->inputs[j]);
          if (lr && p->st[lr->id].kind == ST_ARENA && last[lr->id] < k) last[lr->id] = k;
        }
    }
  }
  for (int i = 0; i < top->nrets; i++) {
    const Value *r = plan_root(p, top->rets[i]);
    if (r && p->st[r->id].kind == ST_ARENA) last[r->id] = p->nnodes;
  }
  int nint = 0;
  Interval *iv = calloc((size_t)p->nvalues + 1, sizeof *iv);
  if (!iv) return 1;
  for (int id = 0; id < p->nvalues; id++) {
    if (p->st[id].kind != ST_ARENA) continue;
    iv[nint].v = NULL;
    iv[nint].start = first[id];
    iv[nint].end = last[id] < first[id] ? first[id] : last[id];
    iv[nint].bytes = (p->st[id].bytes + ALIGN - 1) / ALIGN * ALIGN;
    iv[nint].offset = (size_t)id; /* remember the id until placed */
    nint++;
  }
  /* lower bound: the largest sum of simultaneously live bytes */
  for (int k = 0; k <= p->nnodes; k++) {
    size_t live = 0;
    for (int i = 0; i < nint; i++)
      if (iv[i].start <= k && k <= iv[i].end) live += iv[i].bytes;
    if (live > p->lower_bound) p->lower_bound = live;
  }
  qsort(iv, (size_t)nint, sizeof *iv, cmp_interval);
  size_t *placed_off = calloc((size_t)nint + 1, sizeof *placed_off);
  if (!placed_off) return 1;
  for (int i = 0; i < nint; i++) {
    /* first fit among already placed intervals that overlap in time */
    size_t off = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (int j = 0; j < i; j++) {
        if (iv[j].end < iv[i].start || iv[i].end < iv[j].start) continue;
        if (off < placed_off[j] + iv[j].bytes && placed_off[j] < off + iv[i].bytes) {
          off = placed_off[j] + iv[j].bytes;
          moved = true;
        }
      }
    }
    placed_off[i] = off;
    int id = (int)iv[i].offset;
    p->st[id].offset = off;
    if (off + iv[i].bytes > p->arena_bytes) p->arena_bytes = off + iv[i].bytes;
  }
  free(placed_off);
  free(iv);
  free(first);
  free(last);
  return 0;
}

void plan_free(Plan *p) {
  free(p->st);
  free(p->order);
  memset(p, 0, sizeof *p);
}
