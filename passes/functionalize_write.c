/* functionalize_write.c — one in-place write in functional form (functionalize_int.h): the
 * written value rebuilt from the innermost view outward (slice_scatter, select_scatter,
 * index_put, inverse view / transpose / unsqueeze / expand), the write's candidates through
 * prim::If outputs, and the redirection of later uses of the storage and its views. */
#include "functionalize_int.h"

#include <string.h>

/* ---- writes ------------------------------------------------------------------------------ */
static const char *const SCATTER_LIKE[] = {"aten::slice", "aten::select", "aten::diagonal", "aten::narrow",
                                           NULL};
static const char *const SELF_INVERSE[] = {"aten::transpose", "aten::swapaxes", "aten::swapdims", "aten::t",
                                           "aten::numpy_T", "aten::mT", NULL};
static const char *const RESHAPE_LIKE[] = {"aten::view", "aten::reshape", "aten::flatten", "aten::unflatten",
                                           "aten::unsqueeze", "aten::squeeze", "aten::view_as", "aten::reshape_as",
                                           "aten::contiguous", "aten::alias", "aten::detach", "aten::expand",
                                           "aten::expand_as", "aten::_reshape_alias", NULL};

static bool kind_in(const Node *n, const char *const *kinds) {
  for (int i = 0; kinds[i]; i++)
    if (ir_node_is(n, kinds[i])) return true;
  return false;
}

static int64_t numel_of(const Type *t) {
  int64_t p = 1;
  for (int i = 0; i < t->ndim; i++) p *= t->shape[i];
  return p;
}

static int norm_dim(int64_t d, int ndim) { return (int)(d < 0 ? d + ndim : d); }

/* An int or int-list constant as a list; false when not constant. */
static bool const_ints(const Value *v, int64_t *xs, int *n, int max) {
  const Attr *a = ir_constant_attr(v);
  if (a && a->kind == ATTR_INT) {
    xs[0] = a->i;
    *n = 1;
    return true;
  }
  if (!a || a->kind != ATTR_INTS || a->n > max) return false;
  for (int i = 0; i < a->n; i++) xs[i] = a->ints[i];
  *n = a->n;
  return true;
}

/* The permutation a permute / movedim node applies: output dim i is input dim perm[i]. */
static bool view_permutation(const Node *st, int64_t *perm) {
  int nd = st->inputs[0]->type->ndim, n, m;
  int64_t a[IR_MAX_DIMS], b[IR_MAX_DIMS];
  bool used[IR_MAX_DIMS] = {0}, placed[IR_MAX_DIMS] = {0};
  if (nd < 0 || nd > IR_MAX_DIMS || !const_ints(st->inputs[1], a, &n, IR_MAX_DIMS)) return false;
  if (ir_node_is(st, "aten::permute")) {
    if (n != nd) return false;
    for (int i = 0; i < nd; i++) {
      int p = norm_dim(a[i], nd);
      if (p < 0 || p >= nd || used[p]) return false;
      used[p] = true;
      perm[i] = p;
    }
    return true;
  }
  if (st->ninputs < 3 || !const_ints(st->inputs[2], b, &m, IR_MAX_DIMS) || m != n) return false;
  for (int i = 0; i < n; i++) {
    int s = norm_dim(a[i], nd), d = norm_dim(b[i], nd);
    if (s < 0 || s >= nd || d < 0 || d >= nd || used[s] || placed[d]) return false;
    used[s] = placed[d] = true;
    perm[d] = s;
  }
  for (int d = 0, s = 0; d < nd; d++) {
    if (placed[d]) continue;
    while (used[s]) s++;
    perm[d] = s;
    used[s] = true;
  }
  return true;
}

/* Whether the write can go back through view step `st`; reports at `at` otherwise. */
bool fz_step_invertible(Fz *F, Node *at, const Node *st) {
  if (kind_in(st, SCATTER_LIKE) || kind_in(st, SELF_INVERSE)) {
    int64_t x;
    if (ir_node_is(st, "aten::narrow") && (!ir_constant_int(st->inputs[1], &x) || !ir_constant_int(st->inputs[2], &x) ||
                                           !ir_constant_int(st->inputs[3], &x))) {
      fz_error(F, at, "'%s' writes through aten::narrow with bounds known only at run time; not supported", at->kind);
      return false;
    }
    return true;
  }
  if (ir_node_is(st, "aten::permute") || ir_node_is(st, "aten::movedim")) {
    int64_t perm[IR_MAX_DIMS];
    if (!view_permutation(st, perm)) {
      fz_error(F, at, "'%s' writes through '%s' (line %d) with dims known only at run time or invalid; not "
               "supported", at->kind, st->kind, st->loc.line);
      return false;
    }
    return true;
  }
  if (kind_in(st, RESHAPE_LIKE)) {
    const Type *in = st->inputs[0]->type, *out = st->outputs[0]->type;
    if (numel_of(in) != numel_of(out)) {
      fz_error(F, at, "'%s' writes through a broadcasting '%s' (line %d): more than one element of the "
               "written-to tensor refers to a single memory location", at->kind, st->kind, st->loc.line);
      return false;
    }
    return true;
  }
  if (ir_node_is(st, "aten::as_strided")) {
    fz_error(F, at, "'%s' writes through aten::as_strided (line %d); writes through as_strided views are not "
             "supported", at->kind, st->loc.line);
    return false;
  }
  fz_error(F, at, "'%s' writes through the view '%s' (line %d), which functionalize cannot invert", at->kind,
           st->kind, st->loc.line);
  return false;
}

/* The inverse of view step `st`: scatters `src` (the new value of st's output) into `base`
 * (the current value of st's input). */
static Value *unview(Fz *F, Node *at, const Node *st, Value *base, Value *src) {
  int ni = st->ninputs;
  if (ir_node_is(st, "aten::slice")) {
    Value *ins[6] = {base, src, ni > 1 ? st->inputs[1] : fz_cint(F, at, 0), ni > 2 ? st->inputs[2] : fz_cnone(F, at),
                     ni > 3 ? st->inputs[3] : fz_cnone(F, at), ni > 4 ? st->inputs[4] : fz_cint(F, at, 1)};
    return fz_emit(F, at, "aten::slice_scatter", ins, 6);
  }
  if (ir_node_is(st, "aten::select")) {
    Value *ins[4] = {base, src, st->inputs[1], st->inputs[2]};
    return fz_emit(F, at, "aten::select_scatter", ins, 4);
  }
  if (ir_node_is(st, "aten::diagonal")) {
    Value *ins[5] = {base, src, ni > 1 ? st->inputs[1] : fz_cint(F, at, 0), ni > 2 ? st->inputs[2] : fz_cint(F, at, 0),
                     ni > 3 ? st->inputs[3] : fz_cint(F, at, 1)};
    return fz_emit(F, at, "aten::diagonal_scatter", ins, 5);
  }
  if (ir_node_is(st, "aten::narrow")) {
    int64_t d, start, len;
    ir_constant_int(st->inputs[1], &d);
    ir_constant_int(st->inputs[2], &start);
    ir_constant_int(st->inputs[3], &len);
    const Type *bt = base->type;
    int dd = norm_dim(d, bt->ndim);
    if (start < 0 && dd >= 0 && dd < bt->ndim) start += bt->shape[dd];
    Value *ins[6] = {base, src, st->inputs[1], fz_cint(F, at, start), fz_cint(F, at, start + len), fz_cint(F, at, 1)};
    return fz_emit(F, at, "aten::slice_scatter", ins, 6);
  }
  if (kind_in(st, SELF_INVERSE)) {
    Value **ins = arena_alloc(F->ar, sizeof(Value *) * (size_t)(ni + 1));
    for (int i = 0; i < ni; i++) ins[i] = st->inputs[i];
    ins[0] = src;
    return fz_emit(F, at, st->kind, ins, ni);
  }
  if (ir_node_is(st, "aten::permute") || ir_node_is(st, "aten::movedim")) {
    int64_t perm[IR_MAX_DIMS], inv[IR_MAX_DIMS];
    int nd = base->type->ndim;
    view_permutation(st, perm);
    for (int i = 0; i < nd; i++) inv[perm[i]] = i;
    Value *ins[2] = {src, fz_cints(F, at, inv, nd)};
    return fz_emit(F, at, "aten::permute", ins, 2);
  }
  /* reshape-like: the same elements in the same order */
  if (fz_same_shape(src->type, base->type)) return src;
  Value *ins[2] = {src, fz_cints(F, at, base->type->shape, base->type->ndim)};
  return fz_emit(F, at, "aten::reshape", ins, 2);
}

/* A broadcasting expand `st` (a step of a chain) that later slice / select / narrow steps cut
 * down to one index along every broadcast dim: the write reaches one copy of each base element,
 * as PyTorch allows. Fills idx[d] with that index for every dim d of the expand's output (-1:
 * not broadcast). False when the later steps are other views or leave a broadcast dim wider,
 * unless any_index (a fill stores one value everywhere, as PyTorch's fill_ and zero_ do on
 * tensors whose elements overlap: any copy will do). */
static bool expand_indices(const Node *st, Node *const *later, int nlater, bool any_index, int64_t *idx) {
  const Type *bt = st->inputs[0]->type, *et = st->outputs[0]->type;
  int ne = et->ndim, lead = ne - bt->ndim;
  if (bt->ndim < 0 || ne < 0 || lead < 0) return false;
  int pos[IR_MAX_DIMS];
  int64_t lo[IR_MAX_DIMS], cnt[IR_MAX_DIMS], stp[IR_MAX_DIMS];
  for (int d = 0; d < ne; d++) {
    pos[d] = d;
    lo[d] = 0;
    cnt[d] = et->shape[d];
    stp[d] = 1;
  }
  int nd = ne;
  for (int k = 0; k < nlater; k++) {
    const Node *v = later[k];
    int64_t dim, a, b, c;
    if (!v->ninputs || !ir_constant_int(v->inputs[1 < v->ninputs ? 1 : 0], &dim)) return false;
    int dd = norm_dim(dim, nd), d = -1;
    for (int j = 0; j < ne; j++)
      if (pos[j] == dd) d = j;
    if (d < 0) return false;
    int64_t size = cnt[d];
    if (ir_node_is(v, "aten::select") && v->ninputs == 3 && ir_constant_int(v->inputs[2], &a)) {
      if (a < 0) a += size;
      lo[d] += a * stp[d];
      cnt[d] = 1;
      pos[d] = -1;
      for (int j = 0; j < ne; j++)
        if (pos[j] > dd) pos[j]--;
      nd--;
    } else if (ir_node_is(v, "aten::slice") && v->ninputs == 5) {
      a = 0;
      b = size;
      c = 1;
      if (!ir_constant_is_none(v->inputs[2]) && !ir_constant_int(v->inputs[2], &a)) return false;
      if (!ir_constant_is_none(v->inputs[3]) && !ir_constant_int(v->inputs[3], &b)) return false;
      if (!ir_constant_int(v->inputs[4], &c) || c <= 0) return false;
      if (a < 0) a += size;
      if (b < 0) b += size;
      a = a < 0 ? 0 : a > size ? size : a;
      b = b < a ? a : b > size ? size : b;
      lo[d] += a * stp[d];
      stp[d] *= c;
      cnt[d] = (b - a + c - 1) / c;
    } else if (ir_node_is(v, "aten::narrow") && v->ninputs == 4 && ir_constant_int(v->inputs[2], &a) &&
               ir_constant_int(v->inputs[3], &b)) {
      if (a < 0) a += size;
      lo[d] += a * stp[d];
      cnt[d] = b;
    } else {
      return false;
    }
  }
  for (int d = 0; d < ne; d++) {
    bool broadcast = d < lead || bt->shape[d - lead] != et->shape[d];
    if (broadcast && cnt[d] > 1 && !any_index) return false;
    idx[d] = broadcast ? (cnt[d] >= 1 ? lo[d] : 0) : -1;
  }
  return true;
}

/* The inverse of a broadcasting expand cut down as expand_indices says: the copy at those
 * indices of the expanded new value. */
static Value *unexpand(Fz *F, Node *at, const Node *st, const int64_t *idx, Value *src) {
  int ne = st->outputs[0]->type->ndim, lead = ne - st->inputs[0]->type->ndim;
  for (int d = lead; d < ne && src; d++)
    if (idx[d] >= 0) {
      Value *ins[4] = {src, fz_cint(F, at, d), fz_cint(F, at, idx[d]), fz_cint(F, at, 1)};
      src = fz_emit(F, at, "aten::narrow", ins, 4);
    }
  for (int d = lead - 1; d >= 0 && src; d--) {
    Value *ins[3] = {src, fz_cint(F, at, d), fz_cint(F, at, idx[d])};
    src = fz_emit(F, at, "aten::select", ins, 3);
  }
  return src;
}

static bool is_broadcasting_expand(const Node *st) {
  return (ir_node_is(st, "aten::expand") || ir_node_is(st, "aten::expand_as")) &&
         numel_of(st->inputs[0]->type) != numel_of(st->outputs[0]->type);
}

/* The new value of the written view, before being conformed to its type. */
static Value *new_view_value(Fz *F, Node *n, const OpDef *op, Value *v) {
  if (ir_node_is(n, "aten::copy_") && n->ninputs >= 2 && fz_is_tensor(n->inputs[1])) return n->inputs[1];
  const char *twin = op->functional;
  if (ir_node_is(n, "aten::copy_")) {
    /* a Scalar source (copy_.int / copy_.float): fill */
    const OpDef *fill = ops_lookup("aten::fill_");
    twin = fill && fill->functional ? fill->functional : "aten::fill";
    Value *ins[2] = {v, n->inputs[1]};
    return fz_emit(F, n, twin, ins, 2);
  }
  if (!twin) {
    fz_error(F, n, "in-place op '%s' has no functional form in the op table", n->kind);
    return NULL;
  }
  return fz_emit(F, n, twin, n->inputs, n->ninputs);
}

static bool overlapping(const Type *t) {
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] > 1 && t->has_strides && t->strides[i] == 0) return true;
  return false;
}

static bool container_holds(const Node *c, const Value *v) {
  for (int i = 0; i < c->ninputs; i++)
    if (c->inputs[i] == v) return true;
  return false;
}

bool fz_defined_inside(const Value *v, const Node *blocknode) {
  const Block *b = v->def ? v->def->owner : v->param_of;
  while (b) {
    if (b->owner == blocknode) return true;
    b = b->owner ? b->owner->owner : NULL;
  }
  return false;
}


/* The candidates of a write to the output of prim::If `ifn` (storage s, ambiguous): one per
 * branch. Reports at the write n when one cannot be written back. */
bool fz_if_candidates(Fz *F, Node *n, Storage *s, Cand *c) {
  Node *ifn = s->root->def;
  int o = s->root->index;
  for (int k = 0; k < 2; k++) {
    memset(&c[k], 0, sizeof c[k]);
    if (o >= ifn->blocks[k]->nrets) return false;
    Value *r = ifn->blocks[k]->rets[o];
    if (!fz_is_tensor(r) || !fz_same_shape(r->type, s->root->type)) {
      fz_error(F, n, "'%s' writes the result of 'prim::If' (line %d), whose branches return tensors of different "
               "shapes; not supported", n->kind, ifn->loc.line);
      return false;
    }
    Node *rev[64];
    int nrev = 0;
    while (r->def && fz_defined_inside(r, ifn) && r->index == 0 && nrev < 64) {
      const Node *d = r->def;
      if (fz_is_write(d)) {
        r = d->inputs[fz_op_of(d)->effect_arg];
        continue;
      }
      if (!fz_is_view(d)) break;
      for (int i = 0; i < d->ninputs; i++)
        if (i != fz_op_of(d)->effect_arg && fz_defined_inside(d->inputs[i], ifn)) {
          fz_error(F, n, "'%s' writes the result of 'prim::If' (line %d), a view '%s' (line %d) whose arguments are "
                   "computed inside the branch; not supported", n->kind, ifn->loc.line, d->kind, d->loc.line);
          return false;
        }
      if (!fz_step_invertible(F, n, d)) return false;
      rev[nrev++] = (Node *)d;
      r = d->inputs[fz_op_of(d)->effect_arg];
    }
    if (fz_defined_inside(r, ifn)) continue; /* a fresh tensor: nothing outside is written */
    if (nrev == 64 || !fz_is_tensor(r)) {
      fz_error(F, n, "'%s' writes the result of 'prim::If' (line %d), which functionalize cannot trace back; not "
               "supported", n->kind, ifn->loc.line);
      return false;
    }
    Member *m = fz_member_of(F, r);
    if (m->s->ambiguous) {
      fz_error(F, n, "'%s' writes the result of 'prim::If' (line %d), whose branch returns a tensor that may alias "
               "others through control flow or a list; not supported yet", n->kind, ifn->loc.line);
      return false;
    }
    for (int i = 0; i < m->nsteps; i++)
      if (!fz_step_invertible(F, n, m->steps[i])) return false;
    c[k].m = m;
    c[k].nsteps = m->nsteps + nrev;
    c[k].steps = arena_alloc(F->ar, sizeof(Node *) * (size_t)(c[k].nsteps + 1));
    if (m->nsteps) memcpy(c[k].steps, m->steps, sizeof(Node *) * (size_t)m->nsteps);
    for (int i = 0; i < nrev; i++) c[k].steps[m->nsteps + i] = rev[nrev - 1 - i];
  }
  return true;
}

/* Some live block output may alias s. */
bool fz_ambiguous_alias(Fz *F, Storage *s, Node *at, const Storage *skip) {
  for (Storage *a = F->stores; a; a = a->next) {
    if (!a->ambiguous || a == skip) continue;
    bool may = a->nmaybe < 0;
    for (int i = 0; i < a->nmaybe && !may; i++) may = a->maybe[i] == s;
    if (!may) continue;
    for (int i = 0; i < a->nmembers; i++) {
      if (fz_used_after(a->members[i]->v, at) || container_holds(at, a->members[i]->v)) {
        Node *def = a->root->def;
        fz_error(F, at, "'%s' writes memory that the result of '%s' (line %d) may alias; aliasing through "
                 "control flow or lists is not supported yet", at->kind, def ? def->kind : "?", def ? def->loc.line : 0);
        return true;
      }
    }
  }
  return false;
}

/* Whether nv is a value this rewrite computed into fresh memory (not a source it was given,
 * nor a view of one): only such a value may stand for the storage's new contents, since a
 * later write to the source's storage redirects the source's uses. */
static bool fresh_value(const Node *n, const Value *nv) {
  for (int i = 0; i < n->ninputs; i++)
    if (n->inputs[i] == nv) return false;
  const OpDef *op = nv->def ? fz_op_of(nv->def) : NULL;
  return op && op->effect == EFF_PURE && !(op->flags & OPF_MAYBE_VIEW);
}

/* Storage s now holds w (computed before node n): every member read after n is re-derived from
 * w by replaying its view chain and its later uses redirected; so are the lists and tuples
 * read later that hold members (they hold references). */
static bool rederive(Fz *F, Storage *s, Value *w, Node *n) {
  s->cur = w;
  s->written = true;

  /* lists and tuples read later hold references to the members they contain */
  Node **live = arena_alloc(F->ar, sizeof(Node *) * (size_t)(s->ncontainers + 1));
  int nlive = 0;
  for (int i = 0; i < s->ncontainers; i++)
    if (fz_used_after(s->containers[i]->outputs[0], n)) live[nlive++] = s->containers[i];
  s->containers = NULL;
  s->ncontainers = s->capcontainers = 0;

  /* re-derive the members read later from the new root; their later uses read the new values */
  Member **old = s->members;
  int nold = s->nmembers;
  s->members = NULL;
  s->nmembers = s->capmembers = 0;
  Value **from = arena_alloc(F->ar, sizeof(Value *) * (size_t)(nold + 1));
  Value **to = arena_alloc(F->ar, sizeof(Value *) * (size_t)(nold + 1));
  int nren = 0;
  for (int i = 0; i < nold; i++) {
    Member *u = old[i];
    u->v->aux = NULL;
    bool needed = fz_used_after(u->v, n);
    for (int j = 0; j < nlive && !needed; j++) needed = container_holds(live[j], u->v);
    if (!needed) continue;
    Value *x = w;
    for (int j = 0; j < u->nsteps && x; j++) x = fz_replay(F, n, u->steps[j], x);
    if (!x) return false;
    ir_replace_uses(F->g, u->v, x, n->prev);
    fz_member_add(F, s, x, u->steps, u->nsteps);
    from[nren] = u->v;
    to[nren++] = x;
  }
  for (int i = 0; i < nlive; i++) {
    Node *c = live[i];
    Node *cl = ir_node_new(F->g, c->kind, c->inputs, c->ninputs, 1, &c->outputs[0]->type);
    cl->op = c->op;
    cl->loc = c->loc;
    cl->py_loc = c->py_loc;
    for (int j = 0; j < cl->ninputs; j++)
      for (int r = 0; r < nren; r++)
        if (cl->inputs[j] == from[r]) ir_node_set_input(cl, j, to[r]);
    ir_insert_before(n, cl);
    ir_replace_uses(F->g, c->outputs[0], cl->outputs[0], n->prev);
    fz_container_add(F, s, cl);
  }
  return true;
}

/* The tensors the prim::If `ifn` may have returned, after its result was written with the new
 * value w (computed before node n): a second If on the same condition gives each candidate's
 * storage its new value, w scattered through the candidate's view chain in the branch that
 * returned it and the old value in the other. */
static bool write_candidates(Fz *F, Node *n, Storage *written, const Cand *cands, Value *w) {
  Node *ifn = written->root->def;
  Storage *ss[2];
  int ns = 0;
  for (int k = 0; k < 2; k++)
    if (cands[k].m && (ns == 0 || ss[0] != cands[k].m->s)) ss[ns++] = cands[k].m->s;
  if (ns == 0) return true;
  for (int j = 0; j < ns; j++)
    if (fz_ambiguous_alias(F, ss[j], n, written)) return false;
  Type *types[2];
  for (int j = 0; j < ns; j++) types[j] = ss[j]->cur->type;
  Value *cond = ifn->inputs[0];
  Node *ifn2 = ir_node_new(F->g, "prim::If", &cond, 1, ns, types);
  ifn2->op = ops_lookup("prim::If");
  ifn2->loc = n->loc;
  ifn2->py_loc = n->py_loc;
  ir_insert_before(n, ifn2);
  for (int k = 0; k < 2; k++) {
    Block *b = ir_node_add_block(ifn2);
    Node *at = ir_make_constant_none(F->g, n->loc);
    at->py_loc = n->py_loc;
    ir_append(b, at);
    for (int j = 0; j < ns; j++) {
      Value *x = ss[j]->cur;
      const Cand *c = &cands[k];
      if (c->m && c->m->s == ss[j]) {
        Value **bases = arena_alloc(F->ar, sizeof(Value *) * (size_t)(c->nsteps + 1));
        bases[0] = ss[j]->cur;
        for (int i = 1; i < c->nsteps; i++)
          if (!(bases[i] = fz_replay(F, at, c->steps[i - 1], bases[i - 1]))) return false;
        x = w;
        for (int i = c->nsteps - 1; i >= 0; i--)
          if (!(x = unview(F, at, c->steps[i], bases[i], x))) return false;
        if (fz_compact(ss[j]->root->type) && !fz_compact(x->type)) {
          Value *ins[1] = {x};
          if (!(x = fz_emit(F, at, "aten::contiguous", ins, 1))) return false;
        }
      }
      ir_block_add_ret(b, x);
    }
    ir_remove(at);
  }
  for (int j = 0; j < ns; j++)
    if (!rederive(F, ss[j], ifn2->outputs[j], n)) return false;
  return true;
}

/* Whether w is v or a view of it (through view ops). */
static bool views_of(const Value *w, const Value *v) {
  for (int guard = 0; guard < 100000 && w != v && w->def && w->index == 0; guard++) {
    const OpDef *op = fz_op_of(w->def);
    if (!op || op->effect != EFF_VIEW || op->effect_arg >= w->def->ninputs) break;
    w = w->def->inputs[op->effect_arg];
  }
  return w == v;
}

void fz_rewrite_write(Fz *F, Node *n) {
  const OpDef *op = fz_op_of(n);
  int k = op->effect_arg;
  if (k >= n->ninputs || !fz_is_tensor(n->inputs[k])) {
    fz_error(F, n, "in-place op '%s' does not write a tensor", n->kind);
    return;
  }
  if (op->functional) {
    const OpDef *twin = ops_lookup(op->functional);
    if (twin && twin->effect != EFF_PURE) {
      fz_error(F, n, "in-place view op '%s' changes the tensor's shape or strides; not supported", n->kind);
      return;
    }
  }
  Value *v = n->inputs[k];
  Member *m = fz_member_of(F, v);
  Storage *s = m->s;
  Cand cands[2];
  if (s->ambiguous) {
    Node *def = s->root->def;
    if (!def || !ir_node_is(def, "prim::If") || def->nblocks != 2 || def->owner != F->g->top || s->nmaybe < 0) {
      fz_error(F, n, "'%s' writes the result of '%s' (line %d), which may alias other tensors through a loop or "
               "a list; not supported yet", n->kind, def ? def->kind : "?", def ? def->loc.line : 0);
      return;
    }
    if (!fz_if_candidates(F, n, s, cands)) return;
  }
  if (fz_ambiguous_alias(F, s, n, NULL)) return;
  /* fill_ and zero_ store one value: PyTorch runs them on tensors whose elements overlap */
  bool fill = ir_node_is(n, "aten::fill_") || ir_node_is(n, "aten::zero_");
  if (overlapping(v->type) && !fill) {
    /* PyTorch raises here, except for index_put_ and masked_fill_, which it runs with a deprecation
     * warning: each memory element then takes the value of whichever of its aliases is written
     * (last), which functionalize's one-copy inverse does not model */
    bool deprecated = ir_node_is(n, "aten::index_put_") || ir_node_is(n, "aten::masked_fill_");
    fz_error(F, n, "'%s': more than one element of the written-to tensor refers to a single memory location "
             "(%s; clone() the tensor first)", n->kind,
             deprecated ? "PyTorch deprecates this and warns; not supported" : "PyTorch refuses this too");
    return;
  }
  int64_t(*eidx)[IR_MAX_DIMS] = arena_alloc(F->ar, sizeof *eidx * (size_t)(m->nsteps + 1));
  for (int i = 0; i < m->nsteps; i++) {
    if (is_broadcasting_expand(m->steps[i]) && (fill || !overlapping(v->type)) &&
        expand_indices(m->steps[i], m->steps + i + 1, m->nsteps - i - 1, fill, eidx[i]))
      continue;
    if (!fz_step_invertible(F, n, m->steps[i])) return;
  }

  /* the new value of the view, then of the root */
  Value *nv = fz_conform(F, n, new_view_value(F, n, op, v), v);
  if (!nv) return;
  bool fresh = fresh_value(n, nv);
  Value **bases = arena_alloc(F->ar, sizeof(Value *) * (size_t)(m->nsteps + 1));
  bases[0] = s->cur;
  for (int i = 1; i < m->nsteps; i++)
    if (!(bases[i] = fz_replay(F, n, m->steps[i - 1], bases[i - 1]))) return;
  Value *w = nv;
  for (int i = m->nsteps - 1; i >= 0; i--) {
    if (is_broadcasting_expand(m->steps[i])) w = unexpand(F, n, m->steps[i], eidx[i], w);
    else w = unview(F, n, m->steps[i], bases[i], w);
    if (!w) return;
  }
  if (!fresh && views_of(w, nv)) {
    /* the storage's new value would share a source's memory (`x.detach().copy_(y)`): copy it,
     * so a later write to the source leaves this storage as it is */
    Value *ins[2] = {w, fz_cnone(F, n)};
    if (!(w = fz_emit(F, n, "aten::clone", ins, 2))) return;
  }
  /* the new root keeps the layout the tensor had (PyTorch writes in place): a base written
   * through a transposed view stays row-major */
  if (fz_compact(s->root->type) && !fz_compact(w->type)) {
    Value *ins[1] = {w};
    if (!(w = fz_emit(F, n, "aten::contiguous", ins, 1))) return;
  }
  /* The view's new value as a member of s: a view of the new root (unless it is the root), so
   * that a later write through it inside a block reaches the root's memory. */
  Value *nvm = nv;
  if (!fresh || m->nsteps > 0 || w != nv) {
    nvm = w;
    for (int j = 0; j < m->nsteps && nvm; j++) nvm = fz_replay(F, n, m->steps[j], nvm);
    if (!nvm) return;
  }
  if (!rederive(F, s, w, n)) return;
  if (s->ambiguous && !write_candidates(F, n, s, cands, w)) return;
  if (n->noutputs > 0) ir_replace_uses(F->g, n->outputs[0], nvm, NULL);
  if (!nvm->aux) fz_member_add(F, s, nvm, m->steps, m->nsteps);
  ir_remove(n);
}
