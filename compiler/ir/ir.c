/* ir.c — building and editing graphs: values with unique names, nodes, blocks, attributes,
 * use replacement and traversal. All memory comes from the graph's arena. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

/* ---- name set: open addressing, name -> Value -------------------------------------------
 * One array of slots, each holding a value and its name's hash, so that a probe reads one slot and
 * looks at a name only when the hashes agree, and growing never reads a name again. */
typedef struct NameSlot {
  uint64_t h;
  Value *val; /* NULL: empty; the key is val->name */
} NameSlot;

typedef struct NameSet {
  NameSlot *slots;
  size_t cap, n;
  int checked; /* values with a smaller id were found to own their names (ir_names_checked) */
  const char **kinds; /* node kinds, each stored once in the arena (ir_node_new) */
  size_t kcap, kn;
} NameSet;

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h ^ (h >> 29); /* the table takes the low bits: fold the well-mixed high ones in */
}

static NameSlot *names_slot(const NameSet *ns, const char *name, uint64_t h) {
  size_t i = h & (ns->cap - 1);
  for (;; i = (i + 1) & (ns->cap - 1)) {
    NameSlot *s = &ns->slots[i];
    if (!s->val || (s->h == h && (s->val->name == name || strcmp(s->val->name, name) == 0))) return s;
  }
}

static void names_put(Graph *g, const char *name, Value *v) {
  NameSet *ns = g->names;
  if ((ns->n + 1) * 2 > ns->cap) {
    size_t cap = ns->cap ? ns->cap * 2 : 256;
    NameSlot *big = calloc(cap, sizeof *big);
    if (!big) {
      fputs("mc: out of memory\n", stderr);
      abort();
    }
    for (size_t i = 0; i < ns->cap; i++) {
      const NameSlot *o = &ns->slots[i];
      if (!o->val) continue;
      size_t j = o->h & (cap - 1);
      while (big[j].val) j = (j + 1) & (cap - 1);
      big[j] = *o;
    }
    free(ns->slots);
    ns->slots = big;
    ns->cap = cap;
  }
  uint64_t h = hash_str(name);
  NameSlot *s = names_slot(ns, name, h);
  if (!s->val) ns->n++;
  s->h = h;
  s->val = v;
}

/* The graph's copy of node kind `kind` (one per distinct kind). */
static const char *kind_intern(Graph *g, const char *kind) {
  NameSet *ns = g->names;
  if ((ns->kn + 1) * 2 > ns->kcap) {
    size_t cap = ns->kcap ? ns->kcap * 2 : 64;
    const char **nk = calloc(cap, sizeof *nk);
    if (!nk) {
      fputs("mc: out of memory\n", stderr);
      abort();
    }
    for (size_t i = 0; i < ns->kcap; i++) {
      if (!ns->kinds[i]) continue;
      size_t j = hash_str(ns->kinds[i]) & (cap - 1);
      while (nk[j]) j = (j + 1) & (cap - 1);
      nk[j] = ns->kinds[i];
    }
    free(ns->kinds);
    ns->kinds = nk;
    ns->kcap = cap;
  }
  size_t i = hash_str(kind) & (ns->kcap - 1);
  while (ns->kinds[i] && strcmp(ns->kinds[i], kind) != 0) i = (i + 1) & (ns->kcap - 1);
  if (!ns->kinds[i]) {
    ns->kinds[i] = arena_strdup(g->arena, kind);
    ns->kn++;
  }
  return ns->kinds[i];
}

Value *ir_find_value(const Graph *g, const char *name) {
  if (!g->names->cap) return NULL;
  NameSlot *s = names_slot(g->names, name, hash_str(name));
  return s->val;
}

bool ir_name_taken(const Graph *g, const char *name) { return ir_find_value(g, name) != NULL; }

bool ir_value_owns_name(const Graph *g, const Value *x) {
  if (x->id >= 0 && x->id < g->names->checked) return true;
  return x->name && ir_find_value(g, x->name) == x;
}

void ir_names_checked(const Graph *g, int below_id) {
  if (below_id > g->names->checked) g->names->checked = below_id;
}

/* ---- use counts -------------------------------------------------------------------------
 * cnt[value id] = uses by linked nodes and returns of blocks reachable from the top block, the
 * same thing the full walk in count_in_block finds. Built on the first ir_count_uses, then kept
 * current: the list and input editing functions adjust it when the block they edit is reachable,
 * so each edit costs its own size, not the graph's. */
typedef struct UseIndex {
  int *cnt;
  size_t cap;
  bool valid;
} UseIndex;

static void uses_reserve(UseIndex *u, size_t n) {
  if (n <= u->cap) return;
  size_t nc = u->cap ? u->cap : 256;
  while (nc < n) nc *= 2;
  int *p = realloc(u->cnt, nc * sizeof *p);
  if (!p) {
    fputs("mc: out of memory\n", stderr);
    abort();
  }
  memset(p + u->cap, 0, (nc - u->cap) * sizeof *p);
  u->cnt = p;
  u->cap = nc;
}

static void uses_add(UseIndex *u, const Value *v, int d) {
  if (!v) return;
  uses_reserve(u, (size_t)v->id + 1);
  u->cnt[v->id] += d;
}

/* Whether b is the top block or a block of a linked node, up to the top. */
static bool block_reachable(const Block *b) {
  while (b) {
    if (!b->owner) return b == b->graph->top;
    b = b->owner->owner;
  }
  return false;
}

static void uses_block(UseIndex *u, const Block *b, int d);

static void uses_node(UseIndex *u, const Node *n, int d) {
  for (int i = 0; i < n->ninputs; i++) uses_add(u, n->inputs[i], d);
  for (int k = 0; k < n->nblocks; k++) uses_block(u, n->blocks[k], d);
}

static void uses_block(UseIndex *u, const Block *b, int d) {
  for (const Node *n = b->first; n; n = n->next) uses_node(u, n, d);
  for (int i = 0; i < b->nrets; i++) uses_add(u, b->rets[i], d);
}

static UseIndex *uses_get(const Graph *g) {
  UseIndex *u = g->uses;
  if (!u->valid) {
    if (u->cap) memset(u->cnt, 0, u->cap * sizeof *u->cnt);
    uses_reserve(u, (size_t)g->next_value_id + 1);
    uses_block(u, g->top, 1);
    u->valid = true;
  }
  return u;
}

/* The index to adjust for an edit in block b, or NULL when there is none to keep. */
static UseIndex *uses_for(const Block *b) {
  UseIndex *u = b && b->graph ? b->graph->uses : NULL;
  return u && u->valid && block_reachable(b) ? u : NULL;
}

void ir_uses_invalidate(Graph *g) { g->uses->valid = false; }

bool ir_uses_check(const Graph *g) {
  const UseIndex *u = g->uses;
  if (!u->valid) return true;
  UseIndex fresh = {0};
  uses_reserve(&fresh, u->cap);
  uses_block(&fresh, g->top, 1);
  bool ok = fresh.cap == u->cap && memcmp(fresh.cnt, u->cnt, u->cap * sizeof *u->cnt) == 0;
  free(fresh.cnt);
  return ok;
}

/* ---- shared types: open addressing over tensor types, plus one per scalar kind ------------ */
typedef struct TypeSet {
  Type **slots;
  size_t cap, n;
  Type *scalar[TY_DEVICE + 1];
} TypeSet;

static uint64_t hash_tensor_type(const Type *t) {
  uint64_t h = 1469598103934665603ull;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ull)
  MIX(t->dtype);
  MIX(t->ndim);
  MIX(t->has_strides);
  MIX(t->requires_grad);
  for (int i = 0; i < IR_MAX_DIMS; i++) {
    MIX(t->shape[i]);
    MIX(t->strides[i]);
  }
  if (t->device) MIX(hash_str(t->device));
#undef MIX
  return h;
}

static bool same_tensor_type(const Type *x, const Type *y) {
  return x->dtype == y->dtype && x->ndim == y->ndim && x->has_strides == y->has_strides &&
         x->requires_grad == y->requires_grad && memcmp(x->shape, y->shape, sizeof x->shape) == 0 &&
         memcmp(x->strides, y->strides, sizeof x->strides) == 0 &&
         (x->device == y->device || (x->device && y->device && strcmp(x->device, y->device) == 0));
}

static Type **types_slot(const TypeSet *ts, const Type *t) {
  size_t i = hash_tensor_type(t) & (ts->cap - 1);
  while (ts->slots[i] && !same_tensor_type(ts->slots[i], t)) i = (i + 1) & (ts->cap - 1);
  return &ts->slots[i];
}

Type *ir_type_shared(Graph *g, const Type *t) {
  if (t->kind != TY_TENSOR || t->elem || t->elems || t->nelems || t->name) return ir_type_copy(g->arena, t);
  TypeSet *ts = g->types;
  if ((ts->n + 1) * 2 > ts->cap) {
    TypeSet big = *ts;
    big.cap = ts->cap ? ts->cap * 2 : 64;
    big.slots = calloc(big.cap, sizeof *big.slots);
    if (!big.slots) {
      fputs("mc: out of memory\n", stderr);
      abort();
    }
    for (size_t i = 0; i < ts->cap; i++)
      if (ts->slots[i]) *types_slot(&big, ts->slots[i]) = ts->slots[i];
    free(ts->slots);
    *ts = big;
  }
  Type **s = types_slot(ts, t);
  if (!*s) {
    *s = arena_memdup(g->arena, t, sizeof *t);
    ts->n++;
  }
  return *s;
}

Type *ir_type_scalar(Graph *g, TypeKind k) {
  if (k < TY_INT || k > TY_DEVICE) return ir_type_new(g->arena, k);
  TypeSet *ts = g->types;
  if (!ts->scalar[k]) ts->scalar[k] = ir_type_new(g->arena, k);
  return ts->scalar[k];
}

/* ---- graphs ------------------------------------------------------------------------------ */
Graph *ir_graph_new(const char *path) {
  Arena *a = arena_new();
  Graph *g = arena_alloc(a, sizeof *g);
  g->arena = a;
  g->path = path ? arena_strdup(a, path) : NULL;
  g->names = calloc(1, sizeof *g->names);
  if (!g->names) {
    fputs("mc: out of memory\n", stderr);
    abort();
  }
  g->uses = calloc(1, sizeof *g->uses);
  g->types = calloc(1, sizeof *g->types);
  if (!g->uses || !g->types) {
    fputs("mc: out of memory\n", stderr);
    abort();
  }
  g->top = ir_block_new(g, NULL);
  g->loc.file = g->path;
  return g;
}

void ir_graph_free(Graph *g) {
  if (!g) return;
  free(g->names->slots);
  free(g->names->kinds);
  free(g->names);
  free(g->uses->cnt);
  free(g->uses);
  free(g->types->slots);
  free(g->types);
  arena_free(g->arena);
}

Value *ir_value_new(Graph *g, Type *t, const char *name) {
  Value *v = arena_alloc(g->arena, sizeof *v);
  v->id = g->next_value_id++;
  v->type = t ? t : ir_type_new(g->arena, TY_TENSOR);
  char buf[64];
  if (!name || !*name) {
    snprintf(buf, sizeof buf, "%d", v->id);
    name = buf;
  }
  if (ir_name_taken(g, name)) {
    /* "x.3" -> base "x", as TorchScript numbers its uniqued names. */
    const char *dot = strrchr(name, '.');
    size_t base = strlen(name);
    if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1)) base = (size_t)(dot - name);
    for (int k = 1;; k++) {
      char *cand = arena_printf(g->arena, "%.*s.%d", (int)base, name, k);
      if (!ir_name_taken(g, cand)) {
        v->name = cand;
        break;
      }
    }
  } else {
    v->name = arena_strdup(g->arena, name);
  }
  names_put(g, v->name, v);
  return v;
}

Block *ir_block_new(Graph *g, Node *owner) {
  Block *b = arena_alloc(g->arena, sizeof *b);
  b->owner = owner;
  b->graph = g;
  return b;
}

/* Arrays grow by doubling inside the arena; capacity is implied by the count (powers of 2). */
static void *grow(Arena *a, void *arr, int n, size_t elem) {
  if (n == 0 || (n & (n - 1)) == 0) {
    int cap = n ? n * 2 : 2;
    void *na = arena_alloc(a, (size_t)cap * elem);
    if (n) memcpy(na, arr, (size_t)n * elem);
    return na;
  }
  return arr;
}

Value *ir_block_add_param(Block *b, Type *t, const char *name) {
  Value *v = ir_value_new(b->graph, t, name);
  v->param_of = b;
  v->index = b->nparams;
  b->params = grow(b->graph->arena, b->params, b->nparams, sizeof(Value *));
  b->params[b->nparams++] = v;
  return v;
}

void ir_block_add_ret(Block *b, Value *v) {
  b->rets = grow(b->graph->arena, b->rets, b->nrets, sizeof(Value *));
  b->rets[b->nrets++] = v;
  UseIndex *u = uses_for(b);
  if (u) uses_add(u, v, 1);
}

/* ---- nodes ------------------------------------------------------------------------------- */
Node *ir_node_new(Graph *g, const char *kind, Value **inputs, int nin, int nout, Type **types) {
  Node *n = arena_alloc(g->arena, sizeof *n);
  n->graph = g;
  n->kind = kind ? kind_intern(g, kind) : NULL;
  n->id = g->next_node_id++;
  n->loc = g->loc;
  n->loc.line = 0;
  if (nin > 0) { /* the capacity grow() implies for nin: the power of 2 from nin up */
    int cap = 1;
    while (cap < nin) cap *= 2;
    n->inputs = arena_alloc(g->arena, (size_t)cap * sizeof(Value *));
  }
  for (int i = 0; i < nin; i++) {
    n->inputs[n->ninputs++] = inputs[i];
    UseIndex *u = uses_for(n->owner);
    if (u) uses_add(u, inputs[i], 1);
  }
  for (int i = 0; i < nout; i++) ir_node_add_output(n, types ? types[i] : NULL, NULL);
  return n;
}

void ir_node_add_input(Node *n, Value *v) {
  n->inputs = grow(n->graph->arena, n->inputs, n->ninputs, sizeof(Value *));
  n->inputs[n->ninputs++] = v;
  UseIndex *u = uses_for(n->owner);
  if (u) uses_add(u, v, 1);
}

void ir_node_set_input(Node *n, int i, Value *v) {
  UseIndex *u = uses_for(n->owner);
  if (u) {
    uses_add(u, n->inputs[i], -1);
    uses_add(u, v, 1);
  }
  n->inputs[i] = v;
}

Value *ir_node_add_output(Node *n, Type *t, const char *name) {
  Value *v = ir_value_new(n->graph, t, name);
  v->def = n;
  v->index = n->noutputs;
  v->loc = n->loc;
  n->outputs = grow(n->graph->arena, n->outputs, n->noutputs, sizeof(Value *));
  n->outputs[n->noutputs++] = v;
  return v;
}

Block *ir_node_add_block(Node *n) {
  Block *b = ir_block_new(n->graph, n);
  b->loc = n->loc;
  n->blocks = grow(n->graph->arena, n->blocks, n->nblocks, sizeof(Block *));
  n->blocks[n->nblocks++] = b;
  return b;
}

Attr *ir_node_add_attr(Node *n, const char *name, AttrKind k) {
  /* most nodes with attributes have one (a constant's value): start at one, then double */
  if (n->nattrs == 0) n->attrs = arena_alloc(n->graph->arena, sizeof(Attr));
  else n->attrs = grow(n->graph->arena, n->attrs, n->nattrs, sizeof(Attr));
  Attr *a = &n->attrs[n->nattrs++];
  memset(a, 0, sizeof *a);
  a->name = arena_strdup(n->graph->arena, name);
  a->kind = k;
  return a;
}

const Attr *ir_node_attr(const Node *n, const char *name) {
  for (int i = 0; i < n->nattrs; i++)
    if (strcmp(n->attrs[i].name, name) == 0) return &n->attrs[i];
  return NULL;
}

bool ir_node_is(const Node *n, const char *kind) { return n && strcmp(n->kind, kind) == 0; }

/* ---- lists ------------------------------------------------------------------------------- */
void ir_append(Block *b, Node *n) {
  n->owner = b;
  n->next = NULL;
  n->prev = b->last;
  if (b->last) b->last->next = n;
  else b->first = n;
  b->last = n;
  UseIndex *u = uses_for(b);
  if (u) uses_node(u, n, 1);
}

void ir_insert_before(Node *pos, Node *n) {
  Block *b = pos->owner;
  n->owner = b;
  n->next = pos;
  n->prev = pos->prev;
  if (pos->prev) pos->prev->next = n;
  else b->first = n;
  pos->prev = n;
  UseIndex *u = uses_for(b);
  if (u) uses_node(u, n, 1);
}

void ir_insert_after(Node *pos, Node *n) {
  if (pos->next) {
    ir_insert_before(pos->next, n);
  } else {
    ir_append(pos->owner, n);
  }
}

void ir_remove(Node *n) {
  Block *b = n->owner;
  if (!b) return;
  UseIndex *u = uses_for(b);
  if (u) uses_node(u, n, -1);
  if (n->prev) n->prev->next = n->next;
  else b->first = n->next;
  if (n->next) n->next->prev = n->prev;
  else b->last = n->prev;
  n->prev = n->next = NULL;
  n->owner = NULL;
}

/* ---- uses -------------------------------------------------------------------------------- */
typedef struct ReplaceCtx {
  Value *from, *to;
  Node *after;
  bool active;
  int count;
  int want; /* stop once this many are replaced; -1 = walk everything */
} ReplaceCtx;

static bool replace_done(const ReplaceCtx *c) { return c->want >= 0 && c->count >= c->want; }

/* Replaces in the nodes of b from `n` on (nested blocks included) and in b's returns. */
static void replace_from(Block *b, Node *n, ReplaceCtx *c) {
  for (; n && !replace_done(c); n = n->next) {
    if (c->active) {
      for (int i = 0; i < n->ninputs; i++)
        if (n->inputs[i] == c->from) {
          n->inputs[i] = c->to;
          c->count++;
        }
    }
    for (int k = 0; k < n->nblocks; k++) replace_from(n->blocks[k], n->blocks[k]->first, c);
    if (n == c->after) c->active = true;
  }
  if (c->active && !replace_done(c)) {
    for (int i = 0; i < b->nrets; i++)
      if (b->rets[i] == c->from) {
        b->rets[i] = c->to;
        c->count++;
      }
  }
}

int ir_replace_uses(Graph *g, Value *from, Value *to, Node *after) {
  UseIndex *u = uses_get(g);
  int have = (size_t)from->id < u->cap ? u->cnt[from->id] : 0;
  ReplaceCtx c = {from, to, after, after == NULL, 0, after ? -1 : have};
  if (!after && have > 0) {
    /* In SSA form every use follows the definition in its block or sits in a nested block of a
     * later node: look there first, then (only if some are still missing) everywhere. */
    if (from->def && from->def->owner && block_reachable(from->def->owner))
      replace_from(from->def->owner, from->def->next, &c);
    else if (!from->def && from->param_of && block_reachable(from->param_of))
      replace_from(from->param_of, from->param_of->first, &c);
  }
  if (!replace_done(&c) && (after || have > 0)) replace_from(g->top, g->top->first, &c);
  uses_add(u, from, -c.count);
  uses_add(u, to, c.count);
  return c.count;
}

int ir_count_uses(const Graph *g, const Value *v) {
  const UseIndex *u = uses_get(g);
  return (size_t)v->id < u->cap ? u->cnt[v->id] : 0;
}

bool ir_walk(Block *b, ir_node_fn fn, void *ctx) {
  for (Node *n = b->first, *next; n; n = next) {
    next = n->next;
    if (!fn(n, ctx)) return false;
    for (int k = 0; k < n->nblocks; k++)
      if (!ir_walk(n->blocks[k], fn, ctx)) return false;
  }
  return true;
}

/* ---- constants --------------------------------------------------------------------------- */
bool ir_is_constant(const Value *v) { return v && v->def && ir_node_is(v->def, "prim::Constant"); }

const Attr *ir_constant_attr(const Value *v) {
  return ir_is_constant(v) ? ir_node_attr(v->def, "value") : NULL;
}

bool ir_constant_int(const Value *v, int64_t *out) {
  const Attr *a = ir_constant_attr(v);
  if (!a || (a->kind != ATTR_INT && a->kind != ATTR_BOOL)) return false;
  *out = a->i;
  return true;
}

bool ir_constant_float(const Value *v, double *out) {
  const Attr *a = ir_constant_attr(v);
  if (!a) return false;
  if (a->kind == ATTR_FLOAT) *out = a->f;
  else if (a->kind == ATTR_INT || a->kind == ATTR_BOOL) *out = (double)a->i;
  else return false;
  return true;
}

bool ir_constant_is_none(const Value *v) {
  if (!ir_is_constant(v)) return false;
  const Attr *a = ir_node_attr(v->def, "value");
  return !a || a->kind == ATTR_NONE;
}

static Node *const_node(Graph *g, TypeKind tk, SrcLoc loc) {
  Type *t = tk == TY_LIST ? ir_type_new(g->arena, tk) : ir_type_scalar(g, tk);
  Node *n = ir_node_new(g, "prim::Constant", NULL, 0, 1, &t);
  n->loc = loc;
  n->outputs[0]->loc = loc;
  return n;
}

Node *ir_make_constant_int(Graph *g, int64_t x, SrcLoc loc) {
  Node *n = const_node(g, TY_INT, loc);
  ir_node_add_attr(n, "value", ATTR_INT)->i = x;
  return n;
}

Node *ir_make_constant_float(Graph *g, double x, SrcLoc loc) {
  Node *n = const_node(g, TY_FLOAT, loc);
  ir_node_add_attr(n, "value", ATTR_FLOAT)->f = x;
  return n;
}

Node *ir_make_constant_bool(Graph *g, bool x, SrcLoc loc) {
  Node *n = const_node(g, TY_BOOL, loc);
  ir_node_add_attr(n, "value", ATTR_BOOL)->i = x;
  return n;
}

Node *ir_make_constant_none(Graph *g, SrcLoc loc) { return const_node(g, TY_NONE, loc); }

Node *ir_make_constant_ints(Graph *g, const int64_t *xs, int k, SrcLoc loc) {
  Node *n = const_node(g, TY_LIST, loc);
  n->outputs[0]->type->elem = ir_type_new(g->arena, TY_INT);
  Attr *a = ir_node_add_attr(n, "value", ATTR_INTS);
  a->n = k;
  a->ints = arena_memdup(g->arena, xs, sizeof(int64_t) * (size_t)(k ? k : 1));
  return n;
}

Node *ir_make_constant_tensor(Graph *g, IrTensor *t, SrcLoc loc) {
  Type *ty = ir_type_tensor(g->arena, t->dtype, t->ndim, t->shape);
  ty->requires_grad = 0;
  ty->device = "cpu";
  Node *n = ir_node_new(g, "prim::Constant", NULL, 0, 1, &ty);
  n->loc = loc;
  ir_node_add_attr(n, "value", ATTR_TENSOR)->t = t;
  return n;
}
