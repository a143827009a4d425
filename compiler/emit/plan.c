/* plan.c — the memory plan: every tensor value gets a storage — a graph input's buffer, constant
 * data, a view of another value, or a slice of the one arena whose size is fixed at compile
 * time. Arena slices are reused once every value sharing them (views included) is dead;
 * graph outputs live to the end, and nothing is ever placed in storage the caller can see.
 * First-fit over live intervals, 64-byte aligned.
 *
 * Bounds: every size is computed with overflow checks; a graph input, an arena value or the
 * whole arena larger than the limit (plan_graph_bounded; PLAN_DEFAULT_MAX_BYTES) is refused
 * with a diagnostic before anything that size is allocated, here or in the generated code. */
#include "emit.h"

#include "ops/ops.h"
#include "passes/pass.h"

#include <stdint.h>
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

/* Total order (offset holds the value id until placed): qsort is not stable across libcs. */
static int cmp_interval(const void *a, const void *b) {
  const Interval *x = a, *y = b;
  if (x->bytes != y->bytes) return x->bytes < y->bytes ? 1 : -1; /* largest first */
  return x->start != y->start ? x->start - y->start : (x->offset > y->offset) - (x->offset < y->offset);
}

typedef struct Walk {
  Plan *p;
  int cap;
  int *idx, *end; /* by node id: pre-order index, last index of its subtree */
} Walk;

static bool collect(Walk *w, Block *b) {
  Plan *p = w->p;
  for (Node *n = b->first; n; n = n->next) {
    if (p->nnodes == w->cap) {
      w->cap *= 2;
      Node **no = realloc(p->order, sizeof *no * (size_t)w->cap);
      if (!no) return false;
      p->order = no;
    }
    w->idx[n->id] = p->nnodes;
    p->order[p->nnodes++] = n;
    for (int k = 0; k < n->nblocks; k++)
      if (!collect(w, n->blocks[k])) return false;
    w->end[n->id] = p->nnodes - 1;
  }
  return true;
}

/* Index where v comes into being: its node, the construct owning the block it is a parameter
 * of, or -1 for a graph input. */
static int def_index(const Walk *w, const Value *v) {
  if (v->def) return w->idx[v->def->id];
  if (v->param_of && v->param_of->owner) return w->idx[v->param_of->owner->id];
  return -1;
}

/* The point a use at index k by a node nested in `loops` (outermost first) keeps v alive to. */
static int use_point(const Walk *w, const Value *v, int k, Node *const *loops, int nloops) {
  int d = def_index(w, v);
  for (int i = 0; i < nloops; i++)
    if (d < w->idx[loops[i]->id]) return w->end[loops[i]->id] > k ? w->end[loops[i]->id] : k;
  return k;
}

static void touch(Plan *p, int *last, const Value *v, int at) {
  const Value *r = plan_root(p, v);
  if (r && p->st[r->id].kind == ST_ARENA && last[r->id] < at) last[r->id] = at;
}

static void uses_in(Walk *w, int *last, Block *b, Node **loops, int nloops) {
  Plan *p = w->p;
  for (Node *n = b->first; n; n = n->next) {
    int k = w->idx[n->id];
    for (int i = 0; i < n->noutputs; i++) touch(p, last, n->outputs[i], k);
    for (int i = 0; i < n->ninputs; i++) {
      touch(p, last, n->inputs[i], use_point(w, n->inputs[i], k, loops, nloops));
      /* a list of tensors is used where the list is used */
      const Node *ld = n->inputs[i]->def;
      if (ld && ir_node_is(ld, "prim::ListConstruct"))
        for (int j = 0; j < ld->ninputs; j++) touch(p, last, ld->inputs[j], use_point(w, ld->inputs[j], k, loops, nloops));
    }
    bool loop = ir_node_is(n, "prim::Loop");
    if (loop) loops[nloops] = n;
    for (int j = 0; j < n->nblocks; j++) {
      Block *nb = n->blocks[j];
      for (int i = 0; i < nb->nparams; i++) touch(p, last, nb->params[i], w->end[n->id]);
      uses_in(w, last, nb, loops, nloops + loop);
      /* results are copied into the construct's outputs or state when the block ends */
      for (int i = 0; i < nb->nrets; i++)
        touch(p, last, nb->rets[i], use_point(w, nb->rets[i], w->end[n->id], loops, nloops + loop));
    }
  }
}

/* For a graph with dynamic extents (plan_graph_sized): by value id, the largest byte size the
 * value takes at any size of the Dims; NULL while planning a static graph. */
static const size_t *plan_bound_bytes;
static int plan_bound_n;

/* numel x element size of a complete tensor type, or false when unknown, overflowing or over max;
 * at least the value's bound in a graph with dynamic extents. */
static bool value_bytes(const Value *v, size_t max, size_t *out, Diag *d, SrcLoc loc, const char *what) {
  int64_t numel = ir_type_numel(v->type);
  size_t bytes;
  if (plan_bound_bytes && v->id >= 0 && v->id < plan_bound_n && plan_bound_bytes[v->id]) {
    size_t b = plan_bound_bytes[v->id];
    if (b > max) {
      diag_error(d, loc, "%s%%%s needs more than the limit of %zu bytes at the Dims' bounds", what, v->name, max);
      return false;
    }
    if (numel >= 0 && !__builtin_mul_overflow((size_t)numel, ir_dtype_size(v->type->dtype), &bytes) && bytes > b)
      b = bytes;
    *out = b;
    return true;
  }
  if (numel < 0) {
    bool big = ir_type_is_complete_tensor(v->type);
    if (big) diag_error(d, loc, "the size of %s%%%s overflows 64 bits", what, v->name);
    else diag_error(d, loc, "the shape of %s%%%s is not known at compile time", what, v->name);
    return false;
  }
  if (__builtin_mul_overflow((size_t)numel, ir_dtype_size(v->type->dtype), &bytes) || bytes > max) {
    diag_error(d, loc, "%s%%%s needs more than the limit of %zu bytes", what, v->name, max);
    return false;
  }
  *out = bytes;
  return true;
}

static int set_storage(Walk *w, size_t max, size_t *weights, Diag *d) {
  Plan *p = w->p;
  for (int k = 0; k < p->nnodes; k++) {
    Node *n = p->order[k];
    if (ir_node_is(n, "prim::Constant")) {
      const Attr *a = ir_node_attr(n, "value");
      if (a && a->kind == ATTR_TENSOR) {
        size_t bytes;
        p->st[n->outputs[0]->id].kind = ST_CONST;
        if (!value_bytes(n->outputs[0], max, &bytes, d, n->loc, "constant ")) return 1;
        if (__builtin_add_overflow(*weights, a->t->nbytes, weights) || *weights > max) {
          diag_error(d, n->loc, "the constants (weights) need more than the limit of %zu bytes", max);
          return 1;
        }
      }
      continue;
    }
    if (ir_node_is(n, "prim::Uninitialized")) continue; /* a placeholder: no storage */
    bool loop = ir_node_is(n, "prim::Loop");
    for (int i = 0; i < n->noutputs; i++) {
      Value *v = n->outputs[i];
      if (v->type->kind != TY_TENSOR) continue;
      Storage *s = &p->st[v->id];
      const Value *src = NULL;
      if (loop) src = n->blocks[0]->params[i + 1];
      else if (i == 0 && !n->nblocks) src = infer_alias_source(v);
      /* With dynamic extents a reshape may be a view at one size and a copy at another: it
       * gets a slot of its own, and the generated code copies a view into it. */
      const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
      if (src && plan_bound_bytes && !loop && op && (op->flags & OPF_MAYBE_VIEW)) src = NULL;
      if (src) {
        s->kind = ST_VIEW;
        s->base = src;
        continue;
      }
      s->kind = ST_ARENA;
      if (!value_bytes(v, max, &s->bytes, d, n->loc, "")) return 1;
    }
    if (loop) {
      Block *body = n->blocks[0];
      for (int i = 1; i < body->nparams; i++) {
        Value *v = body->params[i];
        if (v->type->kind != TY_TENSOR) continue;
        p->st[v->id].kind = ST_ARENA;
        if (!value_bytes(v, max, &p->st[v->id].bytes, d, n->loc, "loop-carried ")) return 1;
      }
    }
  }
  return 0;
}

/* Placed intervals by time, for first fit without looking at every placed interval: a segment
 * tree over node indices [0, n) where interval j is listed at the O(log n) nodes that tile
 * [start, end]; `sub` counts the listings below a node so a query only descends where there
 * are some. A query lists each placed interval that overlaps [start, end] in time once. */
typedef struct Placed {
  int i;
  size_t off;
} Placed;

typedef struct TimeTree {
  int size;                      /* leaves: a power of 2 >= n */
  int **list, *nlist, *caplist;  /* per tree node */
  int *sub;                      /* listings in the subtree below the node */
  int *stamp;                    /* by interval: the query that listed it last, + 1 */
  Placed *found;
} TimeTree;

static bool tt_init(TimeTree *t, int n, int nint) {
  t->size = 1;
  while (t->size < n) t->size *= 2;
  size_t nn = 2 * (size_t)t->size;
  t->list = calloc(nn, sizeof *t->list);
  t->nlist = calloc(nn, sizeof *t->nlist);
  t->caplist = calloc(nn, sizeof *t->caplist);
  t->sub = calloc(nn, sizeof *t->sub);
  t->stamp = calloc((size_t)nint + 1, sizeof *t->stamp);
  t->found = malloc(((size_t)nint + 1) * sizeof *t->found);
  return t->list && t->nlist && t->caplist && t->sub && t->stamp && t->found;
}

static void tt_free(TimeTree *t) {
  if (t->list)
    for (size_t k = 0; k < 2 * (size_t)t->size; k++) free(t->list[k]);
  free(t->list);
  free(t->nlist);
  free(t->caplist);
  free(t->sub);
  free(t->stamp);
  free(t->found);
}

static bool tt_add(TimeTree *t, int node, int j, int s, int e, int l, int r) {
  if (e < l || r < s) return true;
  if (s <= l && r <= e) {
    if (t->nlist[node] == t->caplist[node]) {
      int nc = t->caplist[node] ? t->caplist[node] * 2 : 2;
      int *nl = realloc(t->list[node], sizeof *nl * (size_t)nc);
      if (!nl) return false;
      t->list[node] = nl;
      t->caplist[node] = nc;
    }
    t->list[node][t->nlist[node]++] = j;
    for (int a = node / 2; a >= 1; a /= 2) t->sub[a]++;
    return true;
  }
  int m = l + (r - l) / 2;
  return tt_add(t, 2 * node, j, s, e, l, m) && tt_add(t, 2 * node + 1, j, s, e, m + 1, r);
}

static bool tt_insert(TimeTree *t, const Interval *iv, int j) {
  return tt_add(t, 1, j, iv[j].start, iv[j].end, 0, t->size - 1);
}

static void tt_report(TimeTree *t, int node, int q, int *k) {
  for (int x = 0; x < t->nlist[node]; x++) {
    int j = t->list[node][x];
    if (t->stamp[j] == q + 1) continue;
    t->stamp[j] = q + 1;
    t->found[(*k)++] = (Placed){j, 0};
  }
}

/* every listing in the subtree of `node` (all of it lies inside the query) */
static void tt_all(TimeTree *t, int node, int q, int *k) {
  tt_report(t, node, q, k);
  if (node < t->size && t->sub[node]) {
    tt_all(t, 2 * node, q, k);
    tt_all(t, 2 * node + 1, q, k);
  }
}

static void tt_visit(TimeTree *t, int node, int s, int e, int l, int r, int q, int *k) {
  if (e < l || r < s) return;
  if (s <= l && r <= e) {
    tt_all(t, node, q, k);
    return;
  }
  tt_report(t, node, q, k); /* listed here: covers [l, r], which meets [s, e] */
  if (!t->sub[node]) return;
  int m = l + (r - l) / 2;
  tt_visit(t, 2 * node, s, e, l, m, q, k);
  tt_visit(t, 2 * node + 1, s, e, m + 1, r, q, k);
}

static bool tt_query(TimeTree *t, const Interval *iv, int q, int *k) {
  *k = 0;
  tt_visit(t, 1, iv[q].start, iv[q].end, 0, t->size - 1, q, k);
  return true;
}

static int cmp_placed(const void *a, const void *b) {
  const Placed *x = a, *y = b;
  if (x->off != y->off) return x->off < y->off ? -1 : 1;
  return x->i - y->i;
}

int plan_graph(Graph *g, Plan *p, Diag *d) { return plan_graph_bounded(g, p, 0, d); }

int plan_graph_sized(Graph *g, Plan *p, size_t max, const size_t *bound_bytes, int nbound, Diag *d) {
  plan_bound_bytes = bound_bytes;
  plan_bound_n = nbound;
  int rc = plan_graph_bounded(g, p, max, d);
  plan_bound_bytes = NULL;
  plan_bound_n = 0;
  return rc;
}

int plan_graph_bounded(Graph *g, Plan *p, size_t max, Diag *d) {
  memset(p, 0, sizeof *p);
  if (!max) max = PLAN_DEFAULT_MAX_BYTES;
  if (max > (size_t)1 << 60) max = (size_t)1 << 60; /* so that offset + size never wraps */
  p->nvalues = g->next_value_id;
  p->st = calloc((size_t)p->nvalues + 1, sizeof *p->st);
  Walk w = {p, 64, calloc((size_t)g->next_node_id + 1, sizeof(int)), calloc((size_t)g->next_node_id + 1, sizeof(int))};
  p->order = malloc(sizeof *p->order * (size_t)w.cap);
  int rc = 1;
  int *last = NULL, *first = NULL;
  Interval *iv = NULL;
  size_t *placed_off = NULL, *live_diff = NULL;
  Node **loops = NULL;
  TimeTree tt = {0};
  if (!p->st || !p->order || !w.idx || !w.end || !collect(&w, g->top)) goto out;
  Block *top = g->top;
  for (int i = 0; i < top->nparams; i++) {
    Storage *s = &p->st[top->params[i]->id];
    s->kind = ST_INPUT;
    s->input = i;
    size_t bytes;
    if (top->params[i]->type->kind == TY_TENSOR && ir_type_is_complete_tensor(top->params[i]->type) &&
        !value_bytes(top->params[i], max, &bytes, d, top->params[i]->loc, "input "))
      goto out;
  }
  size_t weights = 0;
  if (set_storage(&w, max, &weights, d)) goto out;
  /* constant data is read-only: a write into it needs the functionalize pass first */
  for (int k = 0; k < p->nnodes; k++) {
    Node *n = p->order[k];
    const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
    if (!op || op->effect != EFF_WRITE || op->effect_arg >= n->ninputs) continue;
    const Value *r = plan_root(p, n->inputs[op->effect_arg]);
    if (r && p->st[r->id].kind == ST_CONST) {
      diag_error(d, n->loc, "'%s' writes into constant %%%s; run the functionalize pass first", n->kind, r->name);
      goto out;
    }
  }
  last = calloc((size_t)p->nvalues + 1, sizeof *last);
  first = calloc((size_t)p->nvalues + 1, sizeof *first);
  loops = calloc((size_t)p->nnodes + 1, sizeof *loops);
  if (!last || !first || !loops) goto out;
  for (int id = 0; id < p->nvalues; id++) last[id] = -1;
  uses_in(&w, last, top, loops, 0);
  for (int i = 0; i < top->nrets; i++) touch(p, last, top->rets[i], p->nnodes);
  int nint = 0;
  iv = calloc((size_t)p->nvalues + 1, sizeof *iv);
  if (!iv) goto out;
  for (int k = 0; k < p->nnodes; k++) {
    Node *n = p->order[k];
    for (int i = 0; i < n->noutputs; i++) first[n->outputs[i]->id] = k;
    for (int j = 0; j < n->nblocks; j++)
      for (int i = 0; i < n->blocks[j]->nparams; i++) first[n->blocks[j]->params[i]->id] = k;
  }
  for (int id = 0; id < p->nvalues; id++) {
    if (p->st[id].kind != ST_ARENA) continue;
    iv[nint].start = first[id];
    iv[nint].end = last[id] < first[id] ? first[id] : last[id];
    iv[nint].bytes = (p->st[id].bytes + ALIGN - 1) / ALIGN * ALIGN;
    iv[nint].offset = (size_t)id; /* remember the id until placed */
    nint++;
  }
  qsort(iv, (size_t)nint, sizeof *iv, cmp_interval);
  placed_off = calloc((size_t)nint + 1, sizeof *placed_off);
  if (!placed_off || !tt_init(&tt, p->nnodes + 1, nint)) goto out;
  for (int i = 0; i < nint; i++) {
    /* first fit: the lowest offset free of every placed interval that overlaps in time */
    size_t off = 0;
    int k = 0;
    if (!tt_query(&tt, iv, i, &k)) goto out;
    for (int j = 0; j < k; j++) tt.found[j].off = placed_off[tt.found[j].i];
    qsort(tt.found, (size_t)k, sizeof *tt.found, cmp_placed);
    for (int j = 0; j < k; j++) {
      const Interval *o = &iv[tt.found[j].i];
      if (off + iv[i].bytes <= tt.found[j].off) break;
      if (tt.found[j].off + o->bytes > off) off = tt.found[j].off + o->bytes;
    }
    placed_off[i] = off;
    if (!tt_insert(&tt, iv, i)) goto out;
    int id = (int)iv[i].offset;
    p->st[id].offset = off;
    if (off + iv[i].bytes > p->arena_bytes) p->arena_bytes = off + iv[i].bytes;
    if (p->arena_bytes > max) {
      diag_error(d, g->loc, "the graph needs an arena of more than the limit of %zu bytes", max);
      goto out;
    }
  }
  /* lower bound: the largest sum of simultaneously live bytes (exact: the placement succeeded,
   * so no such sum exceeds the arena) */
  live_diff = calloc((size_t)p->nnodes + 2, sizeof *live_diff);
  if (!live_diff) goto out;
  for (int i = 0; i < nint; i++) {
    live_diff[iv[i].start] += iv[i].bytes;
    live_diff[iv[i].end + 1] -= iv[i].bytes;
  }
  size_t live = 0;
  for (int k = 0; k <= p->nnodes; k++) {
    live += live_diff[k];
    if (live > p->lower_bound) p->lower_bound = live;
  }
  rc = 0;
out:
  tt_free(&tt);
  free(live_diff);
  free(placed_off);
  free(iv);
  free(first);
  free(last);
  free(loops);
  free(w.idx);
  free(w.end);
  return rc;
}

void plan_free(Plan *p) {
  free(p->st);
  free(p->order);
  memset(p, 0, sizeof *p);
}
