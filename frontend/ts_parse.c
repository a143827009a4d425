/* ts_parse.c — recursive-descent parser for TorchScript graph text (PyTorch 1.13's
 * `str(graph)` and mc's own ir_print_graph output) into the IR.
 *
 *   graph   := 'graph' '(' [param {',' param}] ')' ':' nodes 'return' '(' [uses] ')'
 *   param   := VALUE ':' type
 *   nodes   := { node }
 *   node    := [VALUE ':' type {',' VALUE ':' type}] '=' KIND ['[' attr {',' attr} ']']
 *              '(' [uses] ')' [',' 'scope' ':' SCOPE] ['#' PYLOC] { block }
 *   block   := 'blockN' '(' [param {',' param}] ')' ':' nodes '->' '(' [uses] ')'
 *   attr    := IDENT '=' ivalue           (read at character level, see ts_iv_parse)
 *   type    := primary { '?' | '[' ']' }
 *   primary := '(' [type {',' type}] ')' | DTYPE ['(' dims-and-keywords ')'] | int | float
 *              | bool | str | NoneType | Device | Scalar | ... | Dict '(' type ',' type ')'
 *              | qualified.class.Name
 *
 * Invariants: names are unique per graph (a redefinition is an error); a value is usable
 * from its definition to the end of the block that defines it, including nested blocks of
 * later nodes; a node's outputs become visible after its blocks. The first error stops the
 * parse through a longjmp back to ts_parse_string, which frees the partial graph: every
 * allocation lives in the graph's arena. Recursion (blocks, types, constant values) is bounded
 * by TS_MAX_DEPTH so hostile input cannot exhaust the stack.
 *
 * prim::Constant values that the IR has no attribute for (tuples, dicts, lists holding None
 * or tensors) are desugared into constants plus prim::TupleConstruct / ListConstruct /
 * DictConstruct; the element values get the names `<name>_<k>`, which no PyTorch dump uses.
 *
 * A graph input's extent may be a Dim (docs/dynamic.md), as ir_print_graph prints it:
 * NAME '[' MIN ',' MAX ']' '=' EXAMPLE, e.g. `Float(batch[1, 16]=2, 8)`; the parser checks it as
 * frontend/json.c checks "dims" (bounds, example within them, one set of bounds per name).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ts.h"
#include "ir/file.h"



/* ---- errors ------------------------------------------------------------------------------ */

SrcLoc ts_loc_at(TsParser *P, int line, int col) {
  SrcLoc l = {P->path, line, col};
  return l;
}

static SrcLoc ts_tok_loc(TsParser *P, const TsTok *t) { return ts_loc_at(P, t->line, t->col); }

__attribute__((format(printf, 3, 4), noreturn)) void ts_fail(TsParser *P, SrcLoc loc,
                                                                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(P->d, loc, fmt, ap);
  va_end(ap);
  longjmp(P->jb, 1);
}

static const char *ts_tok_desc(TsParser *P, const TsTok *t) {
  switch (t->kind) {
    case TS_EOF: return "end of input";
    case TS_STR: return "a string";
    case TS_COMMENT: return "a comment";
    default: break;
  }
  size_t n = t->n > 40 ? 40 : t->n;
  if (t->n && t->p[0] == '\0') return "a NUL byte";
  for (size_t i = 0; i < n; i++)
    if (t->p[i] == '\n' || t->p[i] == '\0') n = i;
  return arena_printf(P->a, "'%.*s%s'", (int)n, t->p, n < t->n ? "..." : "");
}

__attribute__((noreturn)) static void ts_expected(TsParser *P, const char *what) {
  ts_fail(P, ts_tok_loc(P, &P->tok), "expected %s but found %s", what, ts_tok_desc(P, &P->tok));
}

/* ---- tokens ------------------------------------------------------------------------------ */

static void ts_advance(TsParser *P) {
  P->comment_seen = false;
  for (;;) {
    TsTok t = ts_lex_next(&P->lx);
    if (t.kind == TS_ERROR) ts_fail(P, ts_tok_loc(P, &t), "%s", t.msg);
    if (t.kind == TS_COMMENT) {
      P->comment = t;
      P->comment_seen = true;
      continue;
    }
    P->tok = t;
    return;
  }
}

static bool ts_is_punct(const TsParser *P, char c) {
  return P->tok.kind == TS_PUNCT && P->tok.p[0] == c;
}

static bool ts_accept(TsParser *P, char c) {
  if (!ts_is_punct(P, c)) return false;
  ts_advance(P);
  return true;
}

static void ts_expect(TsParser *P, char c) {
  if (!ts_is_punct(P, c)) {
    char what[8] = {'\'', c, '\'', 0};
    ts_expected(P, what);
  }
  ts_advance(P);
}

static bool ts_is_ident(const TsParser *P, const char *s) {
  return P->tok.kind == TS_IDENT && ts_tok_is(&P->tok, s);
}

static char *ts_tok_str(TsParser *P, const TsTok *t) { return arena_strndup(P->a, t->p, t->n); }

void ts_enter(TsParser *P, SrcLoc loc) {
  if (++P->depth > TS_MAX_DEPTH) ts_fail(P, loc, "nesting deeper than %d levels", TS_MAX_DEPTH);
}

/* ---- names ------------------------------------------------------------------------------- */

static uint64_t ts_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static TsName *ts_name_slot(TsParser *P, const char *name) {
  size_t i = ts_hash(name) & (P->cap - 1);
  while (P->tab[i].name && strcmp(P->tab[i].name, name) != 0) i = (i + 1) & (P->cap - 1);
  return &P->tab[i];
}

static TsName *ts_name_find(TsParser *P, const char *name) {
  TsName *e = ts_name_slot(P, name);
  return e->name ? e : NULL;
}

static void ts_name_grow(TsParser *P) {
  TsName *old = P->tab;
  size_t oldcap = P->cap;
  P->cap = oldcap ? oldcap * 2 : 256;
  P->tab = calloc(P->cap, sizeof *P->tab); /* freed when the parse ends, not kept in the arena */
  if (!P->tab) {
    fputs("mc: out of memory\n", stderr);
    abort();
  }
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].name) *ts_name_slot(P, old[i].name) = old[i];
  free(old);
}

/* Fails unless `name` is still free (ir_value_new would silently rename it). */
static void ts_claim(TsParser *P, const char *name, SrcLoc loc) {
  Value *old = ir_find_value(P->g, name);
  if (old)
    ts_fail(P, loc, "redefinition of value '%%%s' (first defined at line %d, column %d)", name,
            old->loc.line, old->loc.col);
}

void ts_define(TsParser *P, Value *v) {
  if ((P->cnt + 1) * 2 > P->cap) ts_name_grow(P);
  TsName *e = ts_name_slot(P, v->name);
  e->name = v->name;
  e->v = v;
  e->live = true;
  P->cnt++;
  if (P->ndefs == P->capdefs) {
    int nc = P->capdefs ? P->capdefs * 2 : 256;
    Value **nd = arena_alloc(P->a, (size_t)nc * sizeof *nd);
    if (P->ndefs) memcpy(nd, P->defs, (size_t)P->ndefs * sizeof *nd);
    P->defs = nd;
    P->capdefs = nc;
  }
  P->defs[P->ndefs++] = v;
}

/* Values defined after `mark` go out of scope (their block has ended). */
static void ts_close_scope(TsParser *P, int mark) {
  for (int i = mark; i < P->ndefs; i++) ts_name_find(P, P->defs[i]->name)->live = false;
  P->ndefs = mark;
}

static Value *ts_use(TsParser *P) {
  if (P->tok.kind != TS_VALUE) ts_expected(P, "a value like '%x'");
  ArenaMark m = arena_mark(P->tmp);
  char *name = arena_strndup(P->tmp, P->tok.p, P->tok.n);
  TsName *e = P->cnt ? ts_name_find(P, name) : NULL;
  if (!e) ts_fail(P, ts_tok_loc(P, &P->tok), "use of undefined value '%%%s'", name);
  if (!e->live)
    ts_fail(P, ts_tok_loc(P, &P->tok),
            "value '%%%s' is used outside the block that defines it (line %d)", name,
            e->v->loc.line);
  arena_release(P->tmp, m);
  ts_advance(P);
  return e->v;
}

/* '(' [use {',' use}] ')' into an array of the scratch arena (the caller copies it). */
static Value **ts_uses(TsParser *P, int *n) {
  ts_expect(P, '(');
  int cap = 8, k = 0;
  Value **vs = arena_alloc(P->tmp, (size_t)cap * sizeof *vs);
  if (!ts_is_punct(P, ')')) {
    for (;;) {
      if (k == cap) {
        Value **nv = arena_alloc(P->tmp, (size_t)cap * 2 * sizeof *nv);
        memcpy(nv, vs, (size_t)k * sizeof *nv);
        vs = nv;
        cap *= 2;
      }
      vs[k++] = ts_use(P);
      if (!ts_accept(P, ',')) break;
    }
  }
  ts_expect(P, ')');
  *n = k;
  return vs;
}

/* ---- types ------------------------------------------------------------------------------- */

Type *ts_type_unknown_tensor(Arena *a) {
  Type *t = ir_type_new(a, TY_TENSOR);
  t->dtype = DT_UNDEF;
  t->ndim = -1;
  t->requires_grad = -1;
  t->device = NULL;
  t->has_strides = false;
  return t;
}

static int64_t ts_tok_int(TsParser *P, const TsTok *t) {
  char buf[32];
  if (t->kind != TS_NUM || t->n >= sizeof buf || memchr(t->p, '.', t->n) ||
      memchr(t->p, 'e', t->n) || memchr(t->p, 'E', t->n))
    ts_fail(P, ts_tok_loc(P, t), "expected an integer but found %s", ts_tok_desc(P, t));
  memcpy(buf, t->p, t->n);
  buf[t->n] = 0;
  errno = 0;
  long long v = strtoll(buf, NULL, 10);
  if (errno) ts_fail(P, ts_tok_loc(P, t), "integer %s out of range", buf);
  return v;
}

static Type *ts_type(TsParser *P);

/* After DTYPE '(' : dims ('*' or N), then strides=[..], requires_grad=N, device=D. */
static void ts_tensor_args(TsParser *P, Type *t) {
  t->ndim = 0;
  bool kw = false;
  if (ts_accept(P, ')')) return;
  for (;;) {
    TsTok at = P->tok;
    if (P->tok.kind == TS_IDENT && (ts_is_ident(P, "strides") || ts_is_ident(P, "requires_grad") ||
                                    ts_is_ident(P, "device"))) {
      kw = true;
      ts_advance(P);
      ts_expect(P, '=');
      if (ts_tok_is(&at, "strides")) {
        ts_expect(P, '[');
        int k = 0;
        if (!ts_is_punct(P, ']')) {
          for (;;) {
            if (k >= t->ndim) ts_fail(P, ts_tok_loc(P, &P->tok), "more strides than dimensions");
            t->strides[k++] = ts_tok_int(P, &P->tok);
            ts_advance(P);
            if (!ts_accept(P, ',')) break;
          }
        }
        ts_expect(P, ']');
        if (k != t->ndim) ts_fail(P, ts_tok_loc(P, &at), "%d strides for %d dimensions", k, t->ndim);
        t->has_strides = true;
      } else if (ts_tok_is(&at, "requires_grad")) {
        int64_t v = ts_tok_int(P, &P->tok);
        if (v != 0 && v != 1) ts_fail(P, ts_tok_loc(P, &P->tok), "requires_grad must be 0 or 1");
        t->requires_grad = (int)v;
        ts_advance(P);
      } else {
        if (P->tok.kind != TS_IDENT) ts_expected(P, "a device like 'cpu'");
        t->device = ts_tok_str(P, &P->tok);
        ts_advance(P);
      }
    } else if (P->tok.kind == TS_IDENT) { /* a Dim: NAME '[' MIN ',' MAX ']' '=' EXAMPLE */
      if (kw) ts_fail(P, ts_tok_loc(P, &P->tok), "tensor dimension after a keyword argument");
      if (!P->dims_ok) ts_fail(P, ts_tok_loc(P, &at), "a Dim extent is only allowed in a graph input's type");
      if (t->ndim >= IR_MAX_DIMS)
        ts_fail(P, ts_tok_loc(P, &P->tok), "tensors of rank above %d are not supported", IR_MAX_DIMS);
      char *name = ts_tok_str(P, &at);
      ts_advance(P);
      ts_expect(P, '[');
      int64_t lo = ts_tok_int(P, &P->tok);
      ts_advance(P);
      ts_expect(P, ',');
      int64_t hi = ts_tok_int(P, &P->tok);
      ts_advance(P);
      ts_expect(P, ']');
      ts_expect(P, '=');
      TsTok et = P->tok;
      int64_t ex = ts_tok_int(P, &et);
      ts_advance(P);
      if (lo < 0) ts_fail(P, ts_tok_loc(P, &at), "Dim '%s': min %lld is negative", name, (long long)lo);
      if (lo > ex || ex > hi)
        ts_fail(P, ts_tok_loc(P, &et), "Dim '%s': the example's extent %lld is not within [%lld, %lld]", name,
                (long long)ex, (long long)lo, (long long)hi);
      for (int k = 0; k < P->g->ndims + P->npend; k++) {
        const IrDim *o = k < P->g->ndims ? &P->g->dims[k] : &P->pend[k - P->g->ndims];
        if (strcmp(o->name, name) == 0 && (o->min != lo || o->max != hi))
          ts_fail(P, ts_tok_loc(P, &at), "Dim '%s' has bounds [%lld, %lld] here but [%lld, %lld] on another extent", name,
                  (long long)lo, (long long)hi, (long long)o->min, (long long)o->max);
      }
      P->pend[P->npend++] = (IrDim){name, lo, hi, NULL, t->ndim};
      t->shape[t->ndim++] = ex;
    } else if (ts_is_punct(P, '*') || P->tok.kind == TS_NUM) {
      if (kw) ts_fail(P, ts_tok_loc(P, &P->tok), "tensor dimension after a keyword argument");
      if (t->ndim >= IR_MAX_DIMS)
        ts_fail(P, ts_tok_loc(P, &P->tok), "tensors of rank above %d are not supported",
                IR_MAX_DIMS);
      int64_t v = -1;
      if (P->tok.kind == TS_NUM) {
        v = ts_tok_int(P, &P->tok);
        if (v < 0) ts_fail(P, ts_tok_loc(P, &P->tok), "negative tensor dimension");
      }
      t->shape[t->ndim++] = v;
      ts_advance(P);
    } else {
      ts_expected(P, "a dimension, 'strides=', 'requires_grad=' or 'device='");
    }
    if (ts_accept(P, ')')) return;
    ts_expect(P, ',');
  }
}

static bool ts_known_dtype_word(const TsTok *t) {
  static const char *const others[] = {"ComplexFloat", "ComplexDouble", "ComplexHalf", "QInt8",
                                       "QUInt8", "QInt32", "QUInt4x2", "QUInt2x4"};
  for (size_t i = 0; i < sizeof others / sizeof *others; i++)
    if (ts_tok_is(t, others[i])) return true;
  return false;
}

static Type *ts_type_primary(TsParser *P) {
  TsTok at = P->tok;
  SrcLoc loc = ts_tok_loc(P, &at);
  if (ts_accept(P, '(')) {
    Type *t = ir_type_new(P->a, TY_TUPLE);
    int cap = 4;
    t->elems = arena_alloc(P->a, (size_t)cap * sizeof *t->elems);
    if (!ts_is_punct(P, ')')) {
      for (;;) {
        if (t->nelems == cap) {
          Type **ne = arena_alloc(P->a, (size_t)cap * 2 * sizeof *ne);
          memcpy(ne, t->elems, (size_t)cap * sizeof *ne);
          t->elems = ne;
          cap *= 2;
        }
        t->elems[t->nelems++] = ts_type(P);
        if (!ts_accept(P, ',')) break;
      }
    }
    ts_expect(P, ')');
    return t;
  }
  if (at.kind != TS_IDENT) ts_expected(P, "a type");
  char *name = ts_tok_str(P, &at);
  ts_advance(P);
  static const struct { const char *name; TypeKind kind; } simple[] = {
      {"int", TY_INT},       {"float", TY_FLOAT},         {"bool", TY_BOOL},
      {"str", TY_STR},       {"NoneType", TY_NONE},       {"Device", TY_DEVICE},
      {"Scalar", TY_NUMBER}, {"number", TY_NUMBER},       {"Layout", TY_LAYOUT},
      {"ScalarType", TY_SCALARTYPE}, {"MemoryFormat", TY_MEMFORMAT}, {"Any", TY_ANY}};
  for (size_t i = 0; i < sizeof simple / sizeof *simple; i++)
    if (strcmp(name, simple[i].name) == 0) return ir_type_new(P->a, simple[i].kind);
  DType dt = ir_dtype_from_torch_name(name);
  if (dt != DT_UNDEF || strcmp(name, "Tensor") == 0) {
    Type *t = ts_type_unknown_tensor(P->a);
    t->dtype = dt;
    if (ts_accept(P, '(')) ts_tensor_args(P, t);
    return t;
  }
  if (ts_known_dtype_word(&at)) ts_fail(P, loc, "unsupported tensor element type '%s'", name);
  if (strcmp(name, "Dict") == 0) {
    ts_expect(P, '(');
    Type *k = ts_type(P);
    ts_expect(P, ',');
    Type *v = ts_type(P);
    ts_expect(P, ')');
    Type *t = ir_type_new(P->a, TY_CLASS);
    t->name = arena_printf(P->a, "Dict(%s, %s)", ir_type_str(P->a, k), ir_type_str(P->a, v));
    return t;
  }
  if (strcmp(name, "List") == 0 || strcmp(name, "Optional") == 0) {
    ts_expect(P, '[');
    Type *t = ir_type_new(P->a, name[0] == 'L' ? TY_LIST : TY_OPTIONAL);
    t->elem = ts_type(P);
    ts_expect(P, ']');
    return t;
  }
  static const char *const opaque[] = {"Function", "Generator", "Storage", "Stream", "Capsule",
                                       "Object", "Quantizer", "AnyClassType", "AnyEnumType"};
  bool is_opaque = false;
  for (size_t i = 0; i < sizeof opaque / sizeof *opaque; i++)
    is_opaque |= strcmp(name, opaque[i]) == 0;
  if (is_opaque || (strchr(name, '.') && !strstr(name, "..") && name[strlen(name) - 1] != '.')) {
    Type *t = ir_type_new(P->a, TY_CLASS);
    t->name = name;
    return t;
  }
  ts_fail(P, loc, "unknown type '%s'", name);
}

static Type *ts_type(TsParser *P) {
  ts_enter(P, ts_tok_loc(P, &P->tok));
  Type *t = ts_type_primary(P);
  for (;;) {
    if (ts_accept(P, '?')) {
      Type *o = ir_type_new(P->a, TY_OPTIONAL);
      o->elem = t;
      t = o;
    } else if (ts_is_punct(P, '[')) {
      ts_advance(P);
      ts_expect(P, ']');
      Type *l = ir_type_new(P->a, TY_LIST);
      l->elem = t;
      t = l;
    } else {
      break;
    }
  }
  P->depth--;
  return t;
}

/* ---- nodes and blocks ------------------------------------------------------------------- */

/* A node output's tensor type t, parsed since mark tm, as the graph's shared copy (one Type
 * per distinct tensor type: a long graph repeats a few); the parsed one is taken back. Node
 * output types are never changed in place (passes give a value a new type). */
static Type *ts_output_type(TsParser *P, Type *t, ArenaMark tm) {
  char dev[32];
  if (t->kind != TY_TENSOR || t->elem || t->elems || t->nelems || t->name ||
      (t->device && strlen(t->device) >= sizeof dev))
    return t;
  Type c = *t;
  if (t->device) strcpy(dev, t->device);
  arena_release(P->a, tm);
  c.device = !c.device ? NULL : strcmp(dev, "cpu") == 0 ? "cpu" : arena_strdup(P->a, dev);
  return ir_type_shared(P->g, &c);
}

typedef struct TsAttrSrc {
  const char *name;
  Iv *v;
  SrcLoc loc;
} TsAttrSrc;

/* '[' IDENT '=' ivalue {',' ...} ']' with the lookahead token at '['. */
static TsAttrSrc *ts_attrs(TsParser *P, int *n) {
  P->lx.pos = P->tok.pos, P->lx.line = P->tok.line, P->lx.col = P->tok.col;
  ts_cbump(P, 1);
  int cap = 2, k = 0;
  TsAttrSrc *as = arena_alloc(P->a, (size_t)cap * sizeof *as);
  for (;;) {
    ts_cskip(P);
    size_t b = P->lx.pos;
    SrcLoc loc = ts_cloc(P);
    while (ts_c(P, 0) >= 0 && (isalnum(ts_c(P, 0)) || ts_c(P, 0) == '_')) ts_cbump(P, 1);
    if (P->lx.pos == b) ts_cfail_expected(P, "an attribute name");
    if (k == cap) {
      TsAttrSrc *na = arena_alloc(P->a, (size_t)cap * 2 * sizeof *na);
      memcpy(na, as, (size_t)k * sizeof *na);
      as = na;
      cap *= 2;
    }
    as[k].name = arena_strndup(P->a, P->lx.src + b, P->lx.pos - b);
    as[k].loc = loc;
    ts_cexpect(P, '=');
    as[k].v = ts_iv(P);
    k++;
    ts_cskip(P);
    if (ts_c(P, 0) != ',') break;
    ts_cbump(P, 1);
  }
  ts_cexpect(P, ']');
  ts_advance(P);
  *n = k;
  return as;
}

typedef struct TsOut {
  const char *name;
  Type *type;
  SrcLoc loc;
} TsOut;

static void ts_nodes(TsParser *P, Block *b);

/* 'blockN' '(' params ')' ':' nodes '->' '(' uses ')' */
static void ts_block(TsParser *P, Node *owner) {
  SrcLoc loc = ts_tok_loc(P, &P->tok);
  ts_enter(P, loc);
  Block *b = ir_node_add_block(owner);
  b->loc = loc;
  ts_advance(P);
  int mark = P->ndefs;
  ts_expect(P, '(');
  if (!ts_is_punct(P, ')')) {
    for (;;) {
      if (P->tok.kind != TS_VALUE) ts_expected(P, "a block parameter like '%x'");
      TsTok nt = P->tok;
      ts_advance(P);
      ts_expect(P, ':');
      Type *t = ts_type(P);
      ts_claim(P, ts_tok_str(P, &nt), ts_tok_loc(P, &nt));
      Value *v = ir_block_add_param(b, t, ts_tok_str(P, &nt));
      v->loc = ts_tok_loc(P, &nt);
      ts_define(P, v);
      if (!ts_accept(P, ',')) break;
    }
  }
  ts_expect(P, ')');
  ts_expect(P, ':');
  ts_nodes(P, b);
  if (P->tok.kind != TS_ARROW) ts_expected(P, "a node or '-> (...)' ending the block");
  ts_advance(P);
  int n;
  Value **rets = ts_uses(P, &n);
  for (int i = 0; i < n; i++) ir_block_add_ret(b, rets[i]);
  ts_close_scope(P, mark);
  P->depth--;
}

static bool ts_is_block_start(const TsParser *P) {
  if (P->tok.kind != TS_IDENT || P->tok.n < 6 || memcmp(P->tok.p, "block", 5) != 0) return false;
  for (size_t i = 5; i < P->tok.n; i++)
    if (!isdigit((unsigned char)P->tok.p[i])) return false;
  return true;
}

static void ts_node(TsParser *P, Block *b) {
  ArenaMark scratch = arena_mark(P->tmp); /* everything below on P->tmp is this node's */
  int nout = 0, capout = 4;
  TsOut *outs = arena_alloc(P->tmp, (size_t)capout * sizeof *outs);
  if (P->tok.kind == TS_VALUE) {
    for (;;) {
      if (P->tok.kind != TS_VALUE) ts_expected(P, "an output value like '%x'");
      if (nout == capout) {
        TsOut *no = arena_alloc(P->tmp, (size_t)capout * 2 * sizeof *no);
        memcpy(no, outs, (size_t)nout * sizeof *no);
        outs = no;
        capout *= 2;
      }
      outs[nout].name = arena_strndup(P->tmp, P->tok.p, P->tok.n);
      outs[nout].loc = ts_tok_loc(P, &P->tok);
      ts_advance(P);
      ts_expect(P, ':');
      ArenaMark tm = arena_mark(P->a);
      outs[nout].type = ts_output_type(P, ts_type(P), tm);
      nout++;
      if (!ts_accept(P, ',')) break;
    }
  }
  ts_expect(P, '=');
  if (P->tok.kind != TS_IDENT || !memmem(P->tok.p, P->tok.n, "::", 2))
    ts_expected(P, "an operator name like 'aten::add'");
  TsTok kt = P->tok;
  const char *kind = arena_strndup(P->tmp, kt.p, kt.n); /* the graph interns its own copy */
  SrcLoc kloc = ts_tok_loc(P, &kt);
  ts_advance(P);
  int nattr = 0;
  TsAttrSrc *attrs = ts_is_punct(P, '[') ? ts_attrs(P, &nattr) : NULL;
  int nin;
  Value **ins = ts_uses(P, &nin);
  Node *n = NULL;
  if (strcmp(kind, "prim::Constant") == 0 && nout == 1 && nin == 0 && nattr == 1 &&
      strcmp(attrs[0].name, "value") == 0) {
    n = ts_const_node(P, b, attrs[0].v, outs[0].type, outs[0].name, kloc);
  } else {
    n = ir_node_new(P->g, kind, ins, nin, 0, NULL);
    for (int i = 0; i < nattr; i++) {
      const Type *hint = strcmp(attrs[i].name, "value") == 0 && nout == 1 ? outs[0].type : NULL;
      if (attrs[i].v->k == IV_TENSORS)
        ts_fail(P, attrs[i].loc, "constant lists of tensors ([<Tensors>]) are not supported");
      if (!ts_iv_to_attr(P, n, attrs[i].name, attrs[i].v, hint))
        ts_fail(P, attrs[i].loc, "attribute '%s' has a value of a kind mc cannot hold",
                attrs[i].name);
    }
  }
  n->loc = kloc;
  if (ts_is_punct(P, ',')) {
    ts_advance(P);
    if (!ts_is_ident(P, "scope")) ts_expected(P, "'scope' or the end of the node");
    ts_advance(P);
    if (!ts_is_punct(P, ':')) ts_expected(P, "':' after 'scope'");
    P->lx.pos = P->tok.pos, P->lx.line = P->tok.line, P->lx.col = P->tok.col;
    ts_cbump(P, 1);
    ts_cskip(P);
    size_t s = P->lx.pos;
    while (ts_c(P, 0) >= 0 && !isspace(ts_c(P, 0))) ts_cbump(P, 1);
    if (P->lx.pos == s) ts_cfail_expected(P, "a scope name");
    n->scope = arena_strndup(P->a, P->lx.src + s, P->lx.pos - s);
    ts_advance(P);
  }
  if (P->comment_seen) n->py_loc = ts_tok_str(P, &P->comment);
  ir_append(b, n);
  while (ts_is_block_start(P)) ts_block(P, n);
  for (int i = 0; i < nout; i++) {
    ts_claim(P, outs[i].name, outs[i].loc);
    Value *v = ir_node_add_output(n, outs[i].type, outs[i].name);
    v->loc = outs[i].loc;
    ts_define(P, v);
  }
  arena_release(P->tmp, scratch);
}

static void ts_nodes(TsParser *P, Block *b) {
  while (P->tok.kind == TS_VALUE || ts_is_punct(P, '=')) ts_node(P, b);
}

static void ts_graph(TsParser *P) {
  Graph *g = P->g;
  if (!ts_is_ident(P, "graph")) ts_expected(P, "'graph('");
  g->loc = ts_tok_loc(P, &P->tok);
  g->top->loc = g->loc;
  ts_advance(P);
  ts_expect(P, '(');
  if (!ts_is_punct(P, ')')) {
    for (;;) {
      if (P->tok.kind != TS_VALUE) ts_expected(P, "a graph input like '%x'");
      if (g->top->nparams >= IR_MAX_GRAPH_IO)
        ts_fail(P, ts_tok_loc(P, &P->tok), "the graph has more than %d inputs (mc's limit)", IR_MAX_GRAPH_IO);
      TsTok nt = P->tok;
      ts_advance(P);
      ts_expect(P, ':');
      P->dims_ok = true;
      P->npend = 0;
      Type *t = ts_type(P);
      P->dims_ok = false;
      ts_claim(P, ts_tok_str(P, &nt), ts_tok_loc(P, &nt));
      Value *v = ir_block_add_param(g->top, t, ts_tok_str(P, &nt));
      v->loc = ts_tok_loc(P, &nt);
      ts_define(P, v);
      if (P->npend) { /* Dim extents: on a tensor input only */
        if (t->kind != TY_TENSOR) ts_fail(P, v->loc, "Dim extents inside a type that is not a tensor");
        IrDim *nd = arena_alloc(P->a, sizeof *nd * (size_t)(g->ndims + P->npend));
        if (g->ndims) memcpy(nd, g->dims, sizeof *nd * (size_t)g->ndims);
        for (int k = 0; k < P->npend; k++) {
          nd[g->ndims + k] = P->pend[k];
          nd[g->ndims + k].value = v;
        }
        g->dims = nd;
        g->ndims += P->npend;
        P->npend = 0;
      }
      if (!ts_accept(P, ',')) break;
    }
  }
  ts_expect(P, ')');
  ts_expect(P, ':');
  ts_nodes(P, g->top);
  if (!ts_is_ident(P, "return")) ts_expected(P, "a node or 'return'");
  SrcLoc rloc = ts_tok_loc(P, &P->tok);
  ts_advance(P);
  int n;
  Value **rets = ts_uses(P, &n);
  if (n > IR_MAX_GRAPH_IO) ts_fail(P, rloc, "the graph has more than %d outputs (mc's limit)", IR_MAX_GRAPH_IO);
  for (int i = 0; i < n; i++) ir_block_add_ret(g->top, rets[i]);
  if (P->tok.kind != TS_EOF) ts_expected(P, "the end of the graph");
  g->has_self = g->top->nparams > 0 && g->top->params[0]->type &&
                g->top->params[0]->type->kind == TY_CLASS;
}

/* Parses text (len bytes and a NUL, in g's arena) into g; frees g on error. */
static Graph *ts_parse_owned(Graph *g, const char *path, const char *copy, size_t len, Diag *d) {
  SrcFile *sf = arena_alloc(g->arena, sizeof *sf);
  sf->path = arena_strdup(g->arena, path);
  sf->text = copy;
  sf->len = len;
  g->path = sf->path;
  diag_add_file(d, sf);
  TsParser *P = arena_alloc(g->arena, sizeof *P);
  P->g = g;
  P->a = g->arena;
  P->tmp = arena_new();
  P->d = d;
  P->path = sf->path;
  ts_lex_init(&P->lx, copy, len);
  if (setjmp(P->jb) == 0) {
    ts_advance(P);
    ts_graph(P);
    free(P->tab);
    arena_free(P->tmp);
    return g;
  }
  free(P->tab);
  arena_free(P->tmp);
  for (int i = 0; i < d->nfiles; i++)
    if (d->files[i] == sf) {
      memmove(&d->files[i], &d->files[i + 1], (size_t)(d->nfiles - i - 1) * sizeof d->files[0]);
      d->nfiles--;
      break;
    }
  ir_graph_free(g);
  return NULL;
}

Graph *ts_parse_string(const char *path, const char *text, size_t len, Diag *d) {
  if (!path) path = "<string>";
  Graph *g = ir_graph_new(path);
  char *copy = arena_alloc(g->arena, len + 1);
  if (len) memcpy(copy, text, len);
  return ts_parse_owned(g, path, copy, len, d);
}

Graph *ts_parse_file(const char *path, Diag *d) {
  Graph *g = ir_graph_new(path);
  FileRead r;
  if (!file_read_text(g->arena, path, &r)) { /* read into the arena: the text is kept for diagnostics */
    diag_error(d, (SrcLoc){path, 0, 0}, "cannot read '%s': %s", path, r.why);
    ir_graph_free(g);
    return NULL;
  }
  return ts_parse_owned(g, path, (const char *)r.data, r.len, d);
}
