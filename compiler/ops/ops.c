/* ops.c — gathers the op families into one sorted table, looks ops up by name and resolves
 * every node of a graph to its row and to the overload of that row it calls. */
#include "ops.h"

#include <stdlib.h>
#include <string.h>

static const OpFamily *const families[] = {
    &ops_family_prim, &ops_family_elementwise, &ops_family_reduce,
    &ops_family_linalg, &ops_family_shape, &ops_family_conv,
    &ops_family_math, &ops_family_index, &ops_family_sample,
    &ops_family_loss, &ops_family_rnn,
    &ops_family_spectral,
};
enum { NFAMILIES = sizeof families / sizeof families[0] };

static const OpDef **sorted;
static int nsorted;

static int cmp_row(const void *a, const void *b) {
  return strcmp((*(const OpDef *const *)a)->name, (*(const OpDef *const *)b)->name);
}

static void build(void) {
  if (sorted) return;
  int n = 0;
  for (int f = 0; f < NFAMILIES; f++) n += families[f]->nrows;
  sorted = malloc(sizeof *sorted * (size_t)(n ? n : 1));
  if (!sorted) abort();
  for (int f = 0; f < NFAMILIES; f++)
    for (int i = 0; i < families[f]->nrows; i++) sorted[nsorted++] = &families[f]->rows[i];
  qsort(sorted, (size_t)nsorted, sizeof *sorted, cmp_row);
}

const OpDef *ops_lookup(const char *name) {
  build();
  int lo = 0, hi = nsorted - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2, c = strcmp(sorted[mid]->name, name);
    if (c == 0) return sorted[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

int ops_count(void) {
  build();
  return nsorted;
}

const OpDef *ops_at(int i) {
  build();
  return i >= 0 && i < nsorted ? sorted[i] : NULL;
}

const OpFamily *ops_family_of(const OpDef *op) {
  for (int f = 0; f < NFAMILIES; f++)
    if (op >= families[f]->rows && op < families[f]->rows + families[f]->nrows) return families[f];
  return NULL;
}

/* Whether result text r ends in "..." outside brackets: "T..." is any number of results, while
 * "(Tensor, Tensor)" is two and "Tuple[T...]" one. */
static bool top_level_ellipsis(const char *r) {
  int depth = 0;
  for (; *r; r++) {
    if (*r == '(' || *r == '[') depth++;
    else if (*r == ')' || *r == ']') depth--;
    else if (depth == 0 && strncmp(r, "...", 3) == 0) return true;
  }
  return false;
}

/* Number of results the schema declares ("-> Tensor": 1, "-> (Tensor, Tensor)": 2, "-> ()": 0),
 * or -1 when variadic ("T...") or not stated. */
static int schema_outputs(const char *schema) {
  const char *r = schema ? strstr(schema, "-> ") : NULL;
  if (!r) return -1;
  r += 3;
  if (!*r || top_level_ellipsis(r)) return -1;
  if (*r != '(') return 1;
  if (r[1] == ')') return 0;
  int n = 1, depth = 0;
  for (; *r; r++) {
    if (*r == '(' || *r == '[') depth++;
    else if (*r == ')' || *r == ']') depth--;
    else if (*r == ',' && depth == 1) n++;
  }
  return n;
}

bool ops_param_is_tensor(const OpDef *op, int i) {
  const char *p = op->schema;
  if (!p || *p != '(' || strstr(p, "...")) return false;
  p++;
  for (int k = 0; k < i; k++) { /* skip to parameter i at depth 0 */
    int depth = 0;
    for (; *p && !(depth == 0 && (*p == ',' || *p == ')')); p++) {
      if (*p == '(' || *p == '[') depth++;
      else if (*p == ')' || *p == ']') depth--;
    }
    if (*p != ',') return false;
    p++;
  }
  while (*p == ' ') p++;
  if (strncmp(p, "Tensor", 6) != 0) return false;
  p += 6;
  if (*p == '(') {
    while (*p && *p != ')') p++;
    if (*p) p++;
  }
  return *p == ' '; /* "Tensor x", not "Tensor? x", "Tensor[] x" or "Tensor|Scalar x" */
}

bool ops_result_is_tensor(const OpDef *op, int k) {
  const char *r = op->schema ? strstr(op->schema, "-> ") : NULL;
  if (!r) return k == 0 && op->kernel && op->schema; /* factories ("(int[] size, ...)") make a tensor */
  r += 3;
  if (*r == '(') { /* "(Tensor, Tensor)": element k */
    r++;
    for (int depth = 0; k > 0 && *r; r++) {
      if (*r == '(' || *r == '[') depth++;
      else if (*r == ')' || *r == ']') depth--;
      else if (*r == ',' && depth == 0 && --k == 0) {
        r++;
        while (*r == ' ') r++;
        break;
      }
    }
  } else if (k > 0) {
    return false;
  }
  if (strncmp(r, "Tensor", 6) != 0) return false;
  r += 6;
  if (*r == '(') {
    while (*r && *r != ')') r++;
    if (*r) r++;
  }
  return *r == '\0' || *r == ',' || *r == ')' || *r == ' ';
}

/* ---- overloads --------------------------------------------------------------------------
 * A row's schema may list several overloads of its op: "(P) -> R | (P) -> R", "(P) | (P) -> R"
 * (a shared result), or "(P) -> R, or (P) -> R", split at top level. Inside a parameter list,
 * "[...]" groups optional parameters, "a=1" and "name?" make a parameter optional, "*" starts the
 * keyword-only ones (TorchScript still passes them positionally) and "..." is variadic. */

/* End of the top-level item starting at p: the next ',' or ')' outside brackets (or the end). */
static const char *item_end(const char *p) {
  int depth = 0;
  for (; *p; p++) {
    if (*p == '(' || *p == '[') depth++;
    else if ((*p == ')' || *p == ']') && depth > 0) depth--;
    else if (depth == 0 && (*p == ',' || *p == ')' || *p == ']')) break;
    /* "self[, int dim]": an optional group opens; "int[]", "int[2]": part of a type;
     * "dim=[-2, -1]": a default */
    if (*p == '[' && depth == 1 && p[1] != ']' && p[1] != '-' && !(p[1] >= '0' && p[1] <= '9')) break;
  }
  return p;
}

/* Splits `schema` into its overloads: text spans [beg, end) and the span of the shared result. */
typedef struct Span {
  const char *beg, *end;
} Span;
enum { MAX_OVERLOADS = 8 };

static int split_overloads(const char *s, Span *ov) {
  int n = 0, depth = 0;
  if (!s) return 0;
  ov[0].beg = s;
  for (const char *p = s; *p; p++) {
    if (*p == '(' || *p == '[') depth++;
    else if (*p == ')' || *p == ']') depth--;
    else if (depth == 0 && n + 1 < MAX_OVERLOADS &&
             (strncmp(p, " | (", 4) == 0 || strncmp(p, ", or (", 6) == 0)) {
      ov[n].end = p;
      n++;
      p += *p == ' ' ? 2 : 4;
      ov[n].beg = p + 1;
    }
  }
  ov[n].end = s + strlen(s);
  return n + 1;
}

static const char *span_result(Span sp) {
  for (const char *p = sp.beg; p + 3 <= sp.end; p++)
    if (strncmp(p, "-> ", 3) == 0) return p + 3;
  return NULL;
}

/* Parses overload text (params "(...)" then optionally " -> R") into sig. */
static void parse_sig(const char *text, OpSig *sig) {
  memset(sig, 0, sizeof *sig);
  sig->noutputs = schema_outputs(text);
  const char *p = text;
  if (*p != '(') {
    sig->variadic = true;
    return;
  }
  p++;
  int opt_depth = 0;
  bool optional_from_here = false;
  while (*p && *p != ')') {
    while (*p == ' ' || *p == ',') p++;
    if (*p == '[') {
      opt_depth++;
      sig->groups = true;
      p++;
      continue;
    }
    if (*p == ']') {
      opt_depth--;
      p++;
      continue;
    }
    if (*p == ')' || !*p) break;
    const char *e = item_end(p);
    size_t len = (size_t)(e - p);
    if (len == 1 && *p == '*') {
      p = e;
      continue;
    }
    if (strstr(p, "...") && strstr(p, "...") < e) {
      sig->variadic = true;
      p = e;
      continue;
    }
    /* "Type name=default", "Type name?", "Type" */
    const char *name = NULL;
    int depth = 0;
    for (const char *q = p; q < e; q++) {
      if (*q == '(' || *q == '[') depth++;
      else if (*q == ')' || *q == ']') depth--;
      else if (*q == ' ' && depth == 0 && q + 1 < e && q[1] != '|' && q > p && q[-1] != '|') name = q + 1;
    }
    const char *tend = name ? name - 1 : e;
    bool optional = opt_depth > 0 || optional_from_here || memchr(p, '=', len) != NULL ||
                    (name && e[-1] == '?');
    if (sig->nparams < OPS_MAX_PARAMS) {
      OpParam *pp = &sig->params[sig->nparams];
      size_t tl = (size_t)(tend - p);
      if (tl >= sizeof pp->type) tl = sizeof pp->type - 1;
      memcpy(pp->type, p, tl);
      pp->type[tl] = '\0';
      pp->optional = optional;
      pp->takes_none = ((*p == 'T' || *p == 't') && (p[1] == ' ' || p[1] == '[')) || !strncmp(p, "Any", 3);
      for (const char *q = p; q < e && !pp->takes_none; q++)
        pp->takes_none = *q == '?' || (e - q >= 4 && !strncmp(q, "None", 4));
    }
    sig->nparams++;
    if (!optional) sig->min_inputs = sig->nparams;
    p = e;
  }
  if (sig->nparams > OPS_MAX_PARAMS) sig->variadic = true;
}

int ops_overload_count(const OpDef *op) {
  Span ov[MAX_OVERLOADS];
  int n = split_overloads(op->schema, ov);
  return n ? n : 1;
}

bool ops_overload(const OpDef *op, int k, OpSig *sig) {
  Span ov[MAX_OVERLOADS];
  int n = split_overloads(op->schema, ov);
  if (k < 0 || k >= n) {
    memset(sig, 0, sizeof *sig);
    sig->variadic = true;
    sig->noutputs = -1;
    return false;
  }
  /* the overload's own text, with the next stated result when it has none ("(P) | (P) -> R") */
  char text[sizeof sig->text];
  size_t len = (size_t)(ov[k].end - ov[k].beg);
  if (len >= sizeof text) len = sizeof text - 1;
  memcpy(text, ov[k].beg, len);
  text[len] = '\0';
  if (!span_result(ov[k])) {
    for (int j = k + 1; j < n; j++) {
      const char *r = span_result(ov[j]);
      if (r) {
        snprintf(text + len, sizeof text - len, " -> %.*s", (int)(ov[j].end - r), r);
        break;
      }
    }
  }
  parse_sig(text, sig);
  memcpy(sig->text, text, sizeof text);
  /* a list the parser could not read ("(as var)") constrains nothing */
  if (sig->nparams == 1 && !strchr(sig->params[0].type, ' ') && strncmp(sig->text, "(as ", 4) == 0)
    sig->variadic = true;
  return true;
}

/* Whether a value of type t can be passed for parameter type `pt` (alternatives "A|B"). */
static bool type_fits_one(const Type *t, const char *pt, size_t n) {
  bool opt = n > 0 && pt[n - 1] == '?';
  if (opt) n--;
  if (t->kind == TY_NONE || (t->kind == TY_OPTIONAL && opt)) return opt;
  if (t->kind == TY_OPTIONAL && t->elem) t = t->elem;
  if (t->kind == TY_ANY || t->kind == TY_CLASS) return true;
  bool number = t->kind == TY_NUMBER; /* a Scalar of unknown kind */
  bool list = n > 0 && pt[n - 1] == ']';
  if (list) { /* "int[]", "int[2]", "Tensor?[]", "Tensor(a)[]" */
    size_t b = n;
    while (b > 0 && pt[b - 1] != '[') b--;
    if (b == 0) return true;
    if (t->kind == TY_LIST) return !t->elem || type_fits_one(t->elem, pt, b - 1);
    /* an int for an int[N] (PyTorch repeats it) */
    return b - 1 == 3 && !strncmp(pt, "int", 3) && n > b + 1 && t->kind == TY_INT;
  }
#define IS(s) (n == sizeof s - 1 && !strncmp(pt, s, n))
  if (!strncmp(pt, "Tensor", 6) && (n == 6 || pt[6] == '(')) return t->kind == TY_TENSOR;
  if (IS("Scalar")) return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL || t->kind == TY_NUMBER;
  if (IS("int") || IS("MemoryFormat") || IS("ScalarType") || IS("Layout"))
    return number || t->kind == TY_INT || t->kind == TY_BOOL || t->kind == TY_LAYOUT ||
           t->kind == TY_SCALARTYPE || t->kind == TY_MEMFORMAT;
  if (IS("float")) return number || t->kind == TY_FLOAT || t->kind == TY_INT;
  if (IS("bool")) return number || t->kind == TY_BOOL;
  if (IS("str")) return t->kind == TY_STR;
  if (IS("Device")) return t->kind == TY_DEVICE || t->kind == TY_STR;
#undef IS
  return true; /* T, t, Object, (T...): anything */
}

static bool type_fits(const Type *t, const char *pt) {
  for (;;) {
    const char *bar = pt;
    int depth = 0;
    for (; *bar && !(depth == 0 && *bar == '|'); bar++) {
      if (*bar == '(' || *bar == '[') depth++;
      else if (*bar == ')' || *bar == ']') depth--;
    }
    if (type_fits_one(t, pt, (size_t)(bar - pt))) return true;
    if (!*bar) return false;
    pt = bar + 1;
  }
}

static bool sig_takes(const OpSig *sig, const Node *n) {
  if (sig->noutputs >= 0 && n->noutputs != sig->noutputs) return false;
  if (n->ninputs < sig->min_inputs) return false;
  if (!sig->variadic && n->ninputs > sig->nparams) return false;
  for (int i = 0; i < n->ninputs && i < sig->nparams && i < OPS_MAX_PARAMS; i++)
    if (n->inputs[i]->type && !type_fits(n->inputs[i]->type, sig->params[i].type)) return false;
  return true;
}

int ops_match(const OpDef *op, const Node *n) {
  int k = ops_overload_count(op);
  if (k == 1) return 0;
  for (int i = 0; i < k; i++) {
    OpSig sig;
    ops_overload(op, i, &sig);
    if (sig_takes(&sig, n)) return i;
  }
  return -1;
}

static bool param_is_tensor(const char *pt) {
  if (strncmp(pt, "Tensor", 6) != 0) return false;
  pt += 6;
  if (*pt == '(') {
    while (*pt && *pt != ')') pt++;
    if (*pt) pt++;
  }
  return *pt == '\0'; /* "Tensor x", not "Tensor? x", "Tensor[] x" or "Tensor|Scalar x" */
}

bool ops_node_param_is_tensor(const Node *n, int i) {
  const OpDef *op = n->op;
  if (!op) return false;
  if (ops_overload_count(op) == 1) return ops_param_is_tensor(op, i);
  int k = ops_match(op, n);
  OpSig sig;
  if (k < 0 || !ops_overload(op, k, &sig) || i >= sig.nparams || i >= OPS_MAX_PARAMS) return false;
  return param_is_tensor(sig.params[i].type);
}

bool ops_node_result_is_tensor(const Node *n, int r) {
  const OpDef *op = n->op;
  if (!op) return false;
  if (ops_overload_count(op) == 1) return ops_result_is_tensor(op, r);
  int k = ops_match(op, n);
  OpSig sig;
  if (k < 0 || !ops_overload(op, k, &sig)) return false;
  OpDef one = *op;
  one.schema = sig.text;
  return ops_result_is_tensor(&one, r);
}

/* Whether the overload node n calls lets input i be None: an optional (`int?`, `Tensor?`), a
 * `=None` default, a generic or any parameter, or a list this reader cannot take apart
 * (variadic, or optional "[...]" groups, after which positions are not fixed). */
static bool param_takes_none(const OpDef *op, const Node *n, int i) {
  int k = ops_match(op, n);
  OpSig sig;
  if (k < 0 || !ops_overload(op, k, &sig) || sig.variadic || sig.groups || i >= sig.nparams || i >= OPS_MAX_PARAMS)
    return true;
  return sig.params[i].takes_none;
}

const OpDef ops_unknown_in_branch = OPDEF_STRUCT("mc::unknown", EFF_EXTERN, 0, -1, "(...) -> T...",
                                                 "an op mc does not know, in a branch infer may drop");

static int resolve_block(Block *b, Diag *d, bool in_branch) {
  int errs = 0;
  for (Node *n = b->first; n; n = n->next) {
    const OpDef *op = ops_lookup(n->kind);
    n->op = op;
    if (!op && in_branch) {
      n->op = &ops_unknown_in_branch;
    } else if (!op) {
      diag_error(d, n->loc, "unsupported op '%s'", n->kind);
      if (n->py_loc) diag_note(d, n->loc, "from PyTorch code at %s", n->py_loc);
      errs++;
    } else if (n->ninputs < op->min_inputs || (op->max_inputs >= 0 && n->ninputs > op->max_inputs)) {
      if (op->min_inputs == op->max_inputs)
        diag_error(d, n->loc, "'%s' takes %d inputs, got %d", n->kind, op->min_inputs, n->ninputs);
      else if (op->max_inputs < 0)
        diag_error(d, n->loc, "'%s' takes at least %d inputs, got %d", n->kind, op->min_inputs, n->ninputs);
      else
        diag_error(d, n->loc, "'%s' takes %d to %d inputs, got %d", n->kind, op->min_inputs,
                   op->max_inputs, n->ninputs);
      errs++;
    } else if (ops_overload_count(op) == 1 && schema_outputs(op->schema) >= 0 &&
               n->noutputs != schema_outputs(op->schema)) {
      diag_error(d, n->loc, "'%s' has %d output%s, got %d", n->kind, schema_outputs(op->schema),
                 schema_outputs(op->schema) == 1 ? "" : "s", n->noutputs);
      errs++;
    } else if (ops_overload_count(op) > 1 && ops_match(op, n) < 0) {
      diag_error(d, n->loc, "no overload of '%s' takes these %d inputs and gives %d outputs; its overloads: %s",
                 n->kind, n->ninputs, n->noutputs, op->schema);
      errs++;
    } else if (op->kernel) {
      for (int i = 0; i < n->ninputs; i++) {
        const Type *t = n->inputs[i] ? n->inputs[i]->type : NULL;
        if (!t || t->kind != TY_NONE || param_takes_none(op, n, i)) continue;
        diag_error(d, n->loc, "'%s': input %d (%%%s) is None, but the schema %s does not take "
                   "None there", n->kind, i, n->inputs[i]->name, op->schema);
        errs++;
        break;
      }
    }
    bool branch = in_branch || ir_node_is(n, "prim::If");
    for (int k = 0; k < n->nblocks; k++) errs += resolve_block(n->blocks[k], d, branch);
  }
  return errs;
}

int ops_resolve(Graph *g, Diag *d) {
  int errs = resolve_block(g->top, d, false);
  return errs ? errs : ops_complex_check(g, d);
}
