/* ops.c — gathers the op families into one sorted table, looks ops up by name and resolves
 * every node of a graph to its row. */
#include "ops.h"

#include <stdlib.h>
#include <string.h>

static const OpFamily *const families[] = {
    &ops_family_prim, &ops_family_elementwise, &ops_family_reduce,
    &ops_family_linalg, &ops_family_shape, &ops_family_conv,
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

/* Number of results the schema declares ("-> Tensor": 1, "-> (Tensor, Tensor)": 2, "-> ()": 0),
 * or -1 when variadic ("T...") or not stated. */
static int schema_outputs(const char *schema) {
  const char *r = schema ? strstr(schema, "-> ") : NULL;
  if (!r) return -1;
  r += 3;
  if (strstr(r, "...") || !*r) return -1;
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

static int resolve_block(Block *b, Diag *d) {
  int errs = 0;
  for (Node *n = b->first; n; n = n->next) {
    const OpDef *op = ops_lookup(n->kind);
    n->op = op;
    if (!op) {
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
    } else if (schema_outputs(op->schema) >= 0 &&
               n->noutputs != schema_outputs(op->schema)) {
      diag_error(d, n->loc, "'%s' has %d outputs, got %d", n->kind, schema_outputs(op->schema), n->noutputs);
      errs++;
    }
    for (int k = 0; k < n->nblocks; k++) errs += resolve_block(n->blocks[k], d);
  }
  return errs;
}

int ops_resolve(Graph *g, Diag *d) { return resolve_block(g->top, d); }
