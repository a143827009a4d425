/* verify.c — checks that a graph is well formed; every pass runs it afterwards.
 *
 * Checked: the node lists are consistent doubly linked lists owned by their block (and end,
 * so a cycle is reported, not followed); every value has one definition, a type and a unique
 * name; a use (node input or block return) sees a value defined earlier in its own block or
 * in an enclosing block before the node that holds it (SSA dominance for structured control
 * flow); outputs and block parameters record their definer and index; prim::If has one
 * condition and two blocks without parameters, each returning one value per output;
 * prim::Loop has (max_trip, cond, carried...) inputs and one block with (i, carried...)
 * parameters returning (cond, carried...), with one output per carried value; conditions are
 * bool (or int), the trip count and iteration parameter int, and a prim::If's block returns and
 * a loop's carried input, body parameter, body return and output have compatible types.
 *
 * The verifier keeps its own tables (Value.aux belongs to the running pass) and never
 * changes the graph. Messages name `when` ("after pass dce") and point at the node.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum { VF_UNSEEN, VF_LIVE, VF_DEAD };

typedef struct VfSlot {
  const void *key;
  int state;
} VfSlot;

typedef struct Vf {
  const Graph *g;
  Diag *d;
  const char *when;
  int errors;
  VfSlot *byid; /* slot per value id (ids below the graph's next_value_id): the common case */
  size_t nbyid;
  VfSlot *vals; /* Value* -> VF_*: values whose id is out of range or taken by another value */
  size_t cap, cnt;
  const Value **stack; /* live values, innermost block last */
  size_t nstack, capstack;
  const char **names; /* set of names seen */
  size_t *nhash;      /* the hash of each entry of names */
  size_t ncap, ncnt;
  long budget; /* nodes left to visit before declaring a cycle */
  bool oom;
} Vf;

__attribute__((format(printf, 3, 4))) static void vf_err(Vf *v, SrcLoc loc, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!loc.file) loc.file = v->g->path;
  if (v->when && *v->when) diag_error(v->d, loc, "invalid IR %s: %s", v->when, msg);
  else diag_error(v->d, loc, "invalid IR: %s", msg);
  v->errors++;
}

/* An error in the model rather than in the IR (no "invalid IR" prefix). */
__attribute__((format(printf, 3, 4))) static void vf_model_err(Vf *v, SrcLoc loc, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!loc.file) loc.file = v->g->path;
  diag_error(v->d, loc, "%s", msg);
  v->errors++;
}

static size_t vf_hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0x9e3779b97f4a7c15ull;
  return (size_t)(x ^ (x >> 29));
}

static size_t vf_hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (size_t)h;
}

static bool vf_grow_vals(Vf *v) {
  size_t ncap = v->cap ? v->cap * 2 : 1024;
  VfSlot *nt = calloc(ncap, sizeof *nt);
  if (!nt) return false;
  for (size_t i = 0; i < v->cap; i++) {
    if (!v->vals[i].key) continue;
    size_t j = vf_hash_ptr(v->vals[i].key) & (ncap - 1);
    while (nt[j].key) j = (j + 1) & (ncap - 1);
    nt[j] = v->vals[i];
  }
  free(v->vals);
  v->vals = nt;
  v->cap = ncap;
  return true;
}

static VfSlot *vf_slot(Vf *v, const Value *x, bool insert) {
  if (x->id >= 0 && (size_t)x->id < v->nbyid) {
    VfSlot *s = &v->byid[x->id];
    if (s->key == x) return s;
    if (!s->key) {
      if (!insert) return NULL;
      s->key = x;
      return s;
    }
  }
  if (insert && (v->cnt + 1) * 2 > v->cap && !vf_grow_vals(v)) {
    v->oom = true;
    return NULL;
  }
  if (!v->cap) return NULL;
  size_t i = vf_hash_ptr(x) & (v->cap - 1);
  while (v->vals[i].key && v->vals[i].key != x) i = (i + 1) & (v->cap - 1);
  if (!v->vals[i].key) {
    if (!insert) return NULL;
    v->vals[i].key = x;
    v->cnt++;
  }
  return &v->vals[i];
}

static int vf_state(Vf *v, const Value *x) {
  VfSlot *s = vf_slot(v, x, false);
  return s ? s->state : VF_UNSEEN;
}

/* Records a name; false if it was already there. */
static bool vf_name_add(Vf *v, const char *name) {
  if ((v->ncnt + 1) * 2 > v->ncap) {
    size_t ncap = v->ncap ? v->ncap * 2 : 1024;
    while (ncap < 2 * (size_t)v->g->next_value_id + 2) ncap *= 2;
    const char **nt = calloc(ncap, sizeof *nt);
    size_t *nh = calloc(ncap, sizeof *nh);
    if (!nt || !nh) {
      free(nt);
      free(nh);
      v->oom = true;
      return true;
    }
    for (size_t i = 0; i < v->ncap; i++) {
      if (!v->names[i]) continue;
      size_t j = v->nhash[i] & (ncap - 1);
      while (nt[j]) j = (j + 1) & (ncap - 1);
      nt[j] = v->names[i];
      nh[j] = v->nhash[i];
    }
    free(v->names);
    free(v->nhash);
    v->names = nt;
    v->nhash = nh;
    v->ncap = ncap;
  }
  size_t h = vf_hash_str(name), i = h & (v->ncap - 1);
  while (v->names[i]) {
    if (v->nhash[i] == h && strcmp(v->names[i], name) == 0) return false;
    i = (i + 1) & (v->ncap - 1);
  }
  v->names[i] = name;
  v->nhash[i] = h;
  v->ncnt++;
  return true;
}

static const char *vf_name(const Value *x) { return x && x->name ? x->name : "?"; }

/* A device name mc knows: "cpu", "cuda" or "cuda:N". */
static bool vf_device_ok(const char *s) {
  if (strcmp(s, "cpu") == 0 || strcmp(s, "cuda") == 0) return true;
  if (strncmp(s, "cuda:", 5) != 0 || !s[5] || strlen(s) > 9) return false;
  for (s += 5; *s; s++)
    if (*s < '0' || *s > '9') return false;
  return true;
}

static const char *vf_type_text(Vf *v, const Value *x) {
  return x && x->type ? ir_type_str(v->g->arena, x->type) : "?";
}

/* Whether the known extents of a tensor type, each counted as at least 1, times its element
 * size fit in int64: contiguous strides and byte offsets are then exact. */
static bool vf_extents_fit(const Type *t) {
  int64_t n = t->dtype >= 0 && t->dtype < DT_COUNT ? (int64_t)ir_dtype_size(t->dtype) : 8;
  for (int i = 0; i < t->ndim && i < IR_MAX_DIMS; i++)
    if (t->shape[i] > 1 && __builtin_mul_overflow(n, t->shape[i], &n)) return false;
  return true;
}

/* A new definition of x at loc. */
static void vf_define(Vf *v, const Value *x, SrcLoc loc) {
  if (vf_state(v, x) != VF_UNSEEN) {
    vf_err(v, loc, "value '%%%s' is defined twice", vf_name(x));
    return;
  }
  if (!x->type) vf_err(v, loc, "value '%%%s' has no type", vf_name(x));
  else if (x->type->kind == TY_TENSOR && !vf_extents_fit(x->type))
    vf_model_err(v, loc, "'%%%s' of type %s has extents whose product (empty dims aside) or byte "
                 "size does not fit in int64", vf_name(x), vf_type_text(v, x));
  else if (x->type->kind == TY_TENSOR && x->type->device && !vf_device_ok(x->type->device))
    vf_model_err(v, loc, "'%%%s' is on unknown device '%s' (mc knows cpu, cuda and cuda:N)",
           vf_name(x), x->type->device);
  if (!x->name || !*x->name) vf_err(v, loc, "value with id %d has no name", x->id);
  else {
    /* the graph's name set gives each name to one value (ir_value_new): a value it names has a
     * name no other value of the graph has, one it gives to another value shares it, and only
     * values it does not know go through the verifier's own set */
    if (!ir_value_owns_name(v->g, x) && (ir_name_taken(v->g, x->name) || !vf_name_add(v, x->name)))
      vf_err(v, loc, "two values are named '%%%s'", x->name);
  }
  VfSlot *s = vf_slot(v, x, true);
  if (!s) return;
  s->state = VF_LIVE;
  if (v->nstack == v->capstack) {
    size_t nc = v->capstack ? v->capstack * 2 : 1024;
    const Value **ns = realloc(v->stack, nc * sizeof *ns);
    if (!ns) {
      v->oom = true;
      return;
    }
    v->stack = ns;
    v->capstack = nc;
  }
  v->stack[v->nstack++] = x;
}

static void vf_close(Vf *v, size_t mark) {
  while (v->nstack > mark) {
    VfSlot *s = vf_slot(v, v->stack[--v->nstack], false);
    if (s) s->state = VF_DEAD;
  }
}

static void vf_use(Vf *v, const Value *x, SrcLoc loc, const char *user) {
  if (!x) {
    vf_err(v, loc, "%s uses a NULL value", user);
    return;
  }
  switch (vf_state(v, x)) {
    case VF_LIVE: return;
    case VF_DEAD:
      vf_err(v, loc, "%s uses '%%%s' outside the block that defines it", user, vf_name(x));
      return;
    default:
      vf_err(v, loc, "%s uses '%%%s' before its definition (or it is defined nowhere)", user,
             vf_name(x));
  }
}

static void vf_block(Vf *v, const Block *b, const Node *owner, int depth);

/* Whether a value of type `got` may stand where `want` is declared: same kind (tensors of any
 * dtype and shape: infer checks those), an Optional takes None or its element, a Scalar takes
 * int, float or bool, Any takes everything; an unknown type is not judged here. */
static bool vf_type_fits(const Type *want, const Type *got) {
  if (!want || !got || want->kind == TY_ANY || got->kind == TY_ANY) return true;
  if (want->kind == TY_OPTIONAL) {
    if (got->kind == TY_NONE || got->kind == TY_OPTIONAL) return true;
    return vf_type_fits(want->elem, got);
  }
  if (got->kind == TY_OPTIONAL) return vf_type_fits(want, got->elem);
  if (want->kind == TY_NUMBER)
    return got->kind == TY_INT || got->kind == TY_FLOAT || got->kind == TY_BOOL ||
           got->kind == TY_NUMBER;
  if (got->kind == TY_NUMBER)
    return want->kind == TY_INT || want->kind == TY_FLOAT || want->kind == TY_BOOL;
  return want->kind == got->kind;
}

/* A condition: bool, or int (TorchScript's implicit truth of an int). */
static bool vf_is_cond(const Value *x) {
  const Type *t = x ? x->type : NULL;
  return !t || t->kind == TY_BOOL || t->kind == TY_INT || t->kind == TY_ANY;
}


static void vf_control(Vf *v, const Node *n) {
  if (ir_node_is(n, "prim::If")) {
    if (n->nblocks != 2) {
      vf_err(v, n->loc, "prim::If has %d blocks, expected 2", n->nblocks);
      return;
    }
    if (n->ninputs != 1) vf_err(v, n->loc, "prim::If has %d inputs, expected 1", n->ninputs);
    else if (!vf_is_cond(n->inputs[0]))
      vf_model_err(v, n->loc, "the condition of prim::If ('%%%s') is %s, expected bool",
             vf_name(n->inputs[0]), vf_type_text(v, n->inputs[0]));
    for (int i = 0; i < 2; i++) {
      const Block *b = n->blocks[i];
      if (b->nparams) vf_err(v, n->loc, "block%d of prim::If has parameters", i);
      if (b->nrets != n->noutputs) {
        vf_err(v, n->loc, "block%d of prim::If returns %d values for %d outputs", i, b->nrets,
               n->noutputs);
        continue;
      }
      for (int k = 0; k < b->nrets; k++)
        if (b->rets[k] && n->outputs[k] && !vf_type_fits(n->outputs[k]->type, b->rets[k]->type))
          vf_model_err(v, n->loc, "block%d of prim::If returns '%%%s' of type %s as output %d ('%%%s'), "
                 "declared %s", i, vf_name(b->rets[k]), vf_type_text(v, b->rets[k]), k,
                 vf_name(n->outputs[k]), vf_type_text(v, n->outputs[k]));
    }
  } else if (ir_node_is(n, "prim::Loop")) {
    if (n->nblocks != 1) {
      vf_err(v, n->loc, "prim::Loop has %d blocks, expected 1", n->nblocks);
      return;
    }
    if (n->ninputs < 2) {
      vf_err(v, n->loc, "prim::Loop has %d inputs, expected (max_trip, cond, carried...)",
             n->ninputs);
      return;
    }
    int carried = n->ninputs - 2;
    const Block *b = n->blocks[0];
    if (n->noutputs != carried)
      vf_err(v, n->loc, "prim::Loop carries %d values but has %d outputs", carried, n->noutputs);
    if (b->nparams != carried + 1)
      vf_err(v, n->loc, "prim::Loop body has %d parameters, expected %d (i, carried...)",
             b->nparams, carried + 1);
    if (b->nrets != carried + 1)
      vf_err(v, n->loc, "prim::Loop body returns %d values, expected %d (cond, carried...)",
             b->nrets, carried + 1);
    const Value *trip = n->inputs[0];
    if (trip && trip->type && trip->type->kind != TY_INT && trip->type->kind != TY_ANY)
      vf_model_err(v, n->loc, "the trip count of prim::Loop ('%%%s') is %s, expected int",
             vf_name(trip), vf_type_text(v, trip));
    if (!vf_is_cond(n->inputs[1]))
      vf_model_err(v, n->loc, "the condition of prim::Loop ('%%%s') is %s, expected bool",
             vf_name(n->inputs[1]), vf_type_text(v, n->inputs[1]));
    if (b->nparams >= 1 && b->params[0] && b->params[0]->type &&
        b->params[0]->type->kind != TY_INT && b->params[0]->type->kind != TY_ANY)
      vf_model_err(v, n->loc, "the iteration parameter of prim::Loop ('%%%s') is %s, expected int",
             vf_name(b->params[0]), vf_type_text(v, b->params[0]));
    if (b->nrets >= 1 && !vf_is_cond(b->rets[0]))
      vf_model_err(v, n->loc, "the body of prim::Loop returns '%%%s' of type %s as its condition, "
             "expected bool", vf_name(b->rets[0]), vf_type_text(v, b->rets[0]));
    if (n->noutputs != carried || b->nparams != carried + 1 || b->nrets != carried + 1) return;
    for (int k = 0; k < carried; k++) {
      const Value *in = n->inputs[2 + k], *par = b->params[1 + k], *ret = b->rets[1 + k],
                  *out = n->outputs[k];
      if (!in || !par || !ret || !out) continue;
      const Value *bad = !vf_type_fits(par->type, in->type)    ? in
                         : !vf_type_fits(par->type, ret->type) ? ret
                         : !vf_type_fits(out->type, par->type) ? out
                                                               : NULL;
      if (bad)
        vf_model_err(v, n->loc, "loop-carried value %d of prim::Loop is %s as '%%%s' but %s as "
               "'%%%s' (input, body parameter, body return and output must agree)", k,
               vf_type_text(v, par), vf_name(par), vf_type_text(v, bad), vf_name(bad));
    }
  } else if (ir_node_is(n, "prim::ListConstruct")) {
    /* A list of tensors holds tensors (Tensor?[]: or None): kernels read its elements as
     * tensors. Lists of scalars are judged by infer (a traced size may be a 0-dim tensor). */
    const Type *lt = n->noutputs == 1 && n->outputs[0] ? n->outputs[0]->type : NULL;
    const Type *el = lt && lt->kind == TY_LIST ? lt->elem : NULL;
    bool opt = el && el->kind == TY_OPTIONAL && el->elem && el->elem->kind == TY_TENSOR;
    if (!el || (el->kind != TY_TENSOR && !opt)) return;
    for (int k = 0; k < n->ninputs; k++) {
      const Value *x = n->inputs[k];
      const Type *t = x ? x->type : NULL;
      if (!t || t->kind == TY_ANY || t->kind == TY_TENSOR) continue;
      if (t->kind == TY_OPTIONAL && t->elem && t->elem->kind == TY_TENSOR) continue;
      if (opt && t->kind == TY_NONE) continue;
      vf_model_err(v, n->loc, "element %d of prim::ListConstruct ('%%%s') is %s, but the list '%%%s' is %s",
                   k, vf_name(x), vf_type_text(v, x), vf_name(n->outputs[0]), vf_type_text(v, n->outputs[0]));
      return;
    }
  }
}

/* Whether a list element type `e` can hold the elements of list attribute kind k. */
static bool vf_elem_fits(AttrKind k, const Type *e) {
  if (!e || e->kind == TY_ANY || e->kind == TY_NUMBER || e->kind == TY_OPTIONAL) return true;
  switch (k) {
  case ATTR_INTS:
    return e->kind == TY_INT || e->kind == TY_SCALARTYPE || e->kind == TY_LAYOUT ||
           e->kind == TY_MEMFORMAT;
  case ATTR_FLOATS: return e->kind == TY_FLOAT;
  case ATTR_BOOLS: return e->kind == TY_BOOL;
  case ATTR_STRS: return e->kind == TY_STR || e->kind == TY_DEVICE;
  default: return false;
  }
}

/* Whether the `value` attribute a (NULL: None) fits the declared type t of a prim::Constant. */
static bool vf_const_fits(const Attr *a, const Type *t) {
  if (!t || t->kind == TY_ANY) return true;
  if (!a || a->kind == ATTR_NONE) return t->kind == TY_NONE || t->kind == TY_OPTIONAL;
  if (t->kind == TY_OPTIONAL) return vf_const_fits(a, t->elem);
  switch (a->kind) {
  case ATTR_INT:
    return t->kind == TY_INT || t->kind == TY_NUMBER || t->kind == TY_SCALARTYPE ||
           t->kind == TY_LAYOUT || t->kind == TY_MEMFORMAT;
  case ATTR_FLOAT: return t->kind == TY_FLOAT || t->kind == TY_NUMBER;
  case ATTR_BOOL: return t->kind == TY_BOOL || t->kind == TY_NUMBER;
  case ATTR_STR: return t->kind == TY_STR || t->kind == TY_DEVICE;
  case ATTR_DEVICE: return t->kind == TY_DEVICE || t->kind == TY_STR;
  case ATTR_TENSOR: return t->kind == TY_TENSOR || t->kind == TY_NUMBER;
  case ATTR_INTS: case ATTR_FLOATS: case ATTR_BOOLS: case ATTR_STRS:
    return t->kind == TY_LIST && (a->n == 0 || vf_elem_fits(a->kind, t->elem));
  default: return false;
  }
}

static const char *const vf_attr_kind_names[] = {
    [ATTR_INT] = "an int", [ATTR_FLOAT] = "a float", [ATTR_BOOL] = "a bool",
    [ATTR_STR] = "a string", [ATTR_NONE] = "None", [ATTR_TENSOR] = "a tensor",
    [ATTR_INTS] = "an int list", [ATTR_FLOATS] = "a float list", [ATTR_BOOLS] = "a bool list",
    [ATTR_STRS] = "a string list", [ATTR_DEVICE] = "a device"};

static void vf_constant(Vf *v, const Node *n) {
  if (n->noutputs != 1 || !n->outputs[0]) return;
  const Attr *a = ir_node_attr(n, "value");
  if (!a && ir_node_attr(n, "name")) return; /* prim::Constant[name="softmax"]: a function */
  const Type *t = n->outputs[0]->type;
  if (!a && n->nattrs && !vf_const_fits(a, t))
    vf_model_err(v, n->loc, "constant '%%%s' is declared %s but has no 'value' attribute",
                 vf_name(n->outputs[0]), vf_type_text(v, n->outputs[0]));
  else if (!vf_const_fits(a, t))
    vf_model_err(v, n->loc, "constant '%%%s' is declared %s but its value is %s",
           vf_name(n->outputs[0]), vf_type_text(v, n->outputs[0]),
           a ? vf_attr_kind_names[a->kind] : "None");
  else if (a && (a->kind == ATTR_STR || a->kind == ATTR_DEVICE) && t &&
           t->kind == TY_DEVICE && a->s && !vf_device_ok(a->s))
    vf_model_err(v, n->loc, "unknown device '%s' (mc knows cpu, cuda and cuda:N)", a->s);
}

static void vf_node(Vf *v, const Node *n, int depth) {
  const char *kind = n->kind ? n->kind : "node";
  if (!n->kind) vf_err(v, n->loc, "node without a kind");
  for (int i = 0; i < n->ninputs; i++) vf_use(v, n->inputs[i], n->loc, kind);
  for (int i = 0; i < n->nblocks; i++) {
    const Block *c = n->blocks[i];
    if (!c) {
      vf_err(v, n->loc, "%s has a NULL block", kind);
      continue;
    }
    if (c->owner != n) vf_err(v, n->loc, "block%d of %s does not point back to it", i, kind);
    vf_block(v, c, n, depth + 1);
  }
  bool prim = n->kind && strncmp(n->kind, "prim::", 6) == 0; /* the kinds checked below */
  if (prim) vf_control(v, n);
  if (n->nblocks && n->kind && !ir_node_is(n, "prim::If") && !ir_node_is(n, "prim::Loop"))
    vf_model_err(v, n->loc, "%s has %d block%s, but only prim::If and prim::Loop take blocks", kind,
           n->nblocks, n->nblocks == 1 ? "" : "s");
  if (prim && ir_node_is(n, "prim::Constant")) vf_constant(v, n);
  for (int i = 0; i < n->noutputs; i++) {
    const Value *x = n->outputs[i];
    if (!x) {
      vf_err(v, n->loc, "%s has a NULL output", kind);
      continue;
    }
    if (x->def != n || x->index != i)
      vf_err(v, n->loc, "output %d ('%%%s') of %s does not record its definition", i,
             vf_name(x), kind);
    vf_define(v, x, x->loc.line ? x->loc : n->loc);
  }
}

static void vf_block(Vf *v, const Block *b, const Node *owner, int depth) {
  SrcLoc loc = owner ? owner->loc : b->loc;
  if (depth > 1000) {
    vf_err(v, loc, "blocks nested too deeply");
    return;
  }
  if (b->graph != v->g) vf_err(v, loc, "block belongs to another graph");
  size_t mark = v->nstack;
  for (int i = 0; i < b->nparams; i++) {
    const Value *x = b->params[i];
    if (!x) {
      vf_err(v, loc, "NULL block parameter");
      continue;
    }
    if (x->def || x->param_of != b || x->index != i)
      vf_err(v, loc, "parameter %d ('%%%s') does not record its block", i, vf_name(x));
    vf_define(v, x, x->loc.line ? x->loc : loc);
  }
  const Node *prev = NULL;
  for (const Node *n = b->first; n; prev = n, n = n->next) {
    if (--v->budget < 0) {
      vf_err(v, loc, "node list does not end (a cycle)");
      return;
    }
    if (n->owner != b) vf_err(v, n->loc, "%s is listed in a block it does not belong to", n->kind);
    if (n->prev != prev) vf_err(v, n->loc, "%s has a wrong prev link", n->kind);
    vf_node(v, n, depth);
    if (v->oom) return;
  }
  if (b->last != prev) vf_err(v, loc, "block's last node is not the end of its list");
  for (int i = 0; i < b->nrets; i++) vf_use(v, b->rets[i], loc, owner ? "block return" : "return");
  vf_close(v, mark);
}

/* A graph input's declared strides must be the contiguous ones (dims of extent 1 and empty
 * tensors aside): mc binds every input as a contiguous row-major buffer. */
static void vf_input_strides(Vf *v, const Value *x) {
  const Type *t = x ? x->type : NULL;
  if (!t || t->kind != TY_TENSOR || !t->has_strides || t->ndim <= 0 || t->ndim > IR_MAX_DIMS)
    return;
  int64_t want = 1;
  for (int k = t->ndim - 1; k >= 0; k--) {
    if (t->shape[k] < 0) return;
    if (t->shape[k] == 0) return;
  }
  for (int k = t->ndim - 1; k >= 0; k--) {
    if (t->shape[k] != 1 && t->strides[k] != want) {
      vf_model_err(v, x->loc.line ? x->loc : v->g->loc,
             "graph input '%%%s' declares strides that are not contiguous (stride %lld for dim "
             "%d of extent %lld, expected %lld): mc binds inputs as contiguous row-major "
             "buffers; export the model with contiguous inputs", vf_name(x),
             (long long)t->strides[k], k, (long long)t->shape[k], (long long)want);
      return;
    }
    if (__builtin_mul_overflow(want, t->shape[k], &want)) return;
  }
}

int ir_verify(const Graph *g, Diag *d, const char *when) {
  Vf v;
  memset(&v, 0, sizeof v);
  v.g = g;
  v.d = d;
  v.when = when;
  v.budget = (long)g->next_node_id + 1000000L;
  if (!g->top) {
    SrcLoc loc = {g->path, 0, 0};
    vf_err(&v, loc, "graph has no top block");
    return v.errors;
  }
  if (g->next_value_id > 0) {
    v.nbyid = (size_t)g->next_value_id;
    v.byid = calloc(v.nbyid, sizeof *v.byid);
    if (!v.byid) v.nbyid = 0; /* the hash table alone */
  }
  if (g->top->owner) vf_err(&v, g->loc, "the top block has an owner node");
  if (g->top->nparams > IR_MAX_GRAPH_IO || g->top->nrets > IR_MAX_GRAPH_IO)
    vf_model_err(&v, g->loc, "the graph has more than %d %s (mc's limit)", IR_MAX_GRAPH_IO,
                 g->top->nparams > IR_MAX_GRAPH_IO ? "inputs" : "outputs");
  vf_block(&v, g->top, NULL, 0);
  for (int i = 0; i < g->top->nparams; i++) vf_input_strides(&v, g->top->params[i]);
  if (g->has_self && (g->top->nparams == 0 || !g->top->params[0]->type ||
                      g->top->params[0]->type->kind != TY_CLASS))
    vf_err(&v, g->loc, "has_self is set but the first input is not a module");
  if (v.oom) vf_err(&v, g->loc, "out of memory while verifying");
  if (!v.errors) ir_names_checked(g, g->next_value_id);
  free(v.byid);
  free(v.vals);
  free(v.stack);
  free(v.names);
  free(v.nhash);
  return v.errors;
}
