/* emit_cuda_util.c — the CUDA emitter's helpers (emit_cuda_int.h): diagnostics, tensor
 * descriptors and arguments, the weights image, C expressions, scratch and compact copies. */
#include "emit_cuda_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- diagnostics and small helpers --------------------------------------------------------- */
bool cu_err(Cu *e, const Node *n, const char *fmt, ...) {
  if (e->quiet) {
    e->declined = true;
    return false;
  }
  if (e->err_node == n) return false;
  e->err_node = n;
  va_list ap;
  va_start(ap, fmt);
  diag_verror(e->d, n->loc, fmt, ap);
  va_end(ap);
  if (n->py_loc) diag_note(e->d, n->loc, "from PyTorch code at %s", n->py_loc);
  e->errs++;
  return false;
}

bool cu_unsupported(Cu *e, const Node *n, const char *why) {
  return cu_err(e, n, "'%s' has no CUDA implementation%s%s", n->kind, why && *why ? " " : "", why ? why : "");
}

int64_t cu_numel(const CuDesc *x) {
  int64_t n = 1;
  for (int i = 0; i < x->ndim; i++) n *= x->shape[i];
  return n;
}

bool cu_compact(const CuDesc *x) {
  int64_t s = 1;
  for (int i = x->ndim - 1; i >= 0; i--) {
    if (x->shape[i] != 1 && x->st[i] != s) return false;
    s *= x->shape[i];
  }
  return true;
}

void cu_contig(CuDesc *x) { ir_contiguous_strides(x->ndim, x->shape, x->st); }

const CuDesc *cu_of(Cu *e, const Value *v) {
  const CuDesc *x = &e->desc[v->id];
  return x->base == CB_NONE ? NULL : x;
}

/* The input tensor `i` of n, float32 (or any dtype when any_dtype), or NULL with a diagnostic. */
const CuDesc *cu_tensor(Cu *e, const Node *n, int i, bool any_dtype) {
  if (i >= n->ninputs || n->inputs[i]->type->kind != TY_TENSOR || ir_constant_is_none(n->inputs[i])) {
    cu_unsupported(e, n, "(expected a tensor argument)");
    return NULL;
  }
  const CuDesc *x = cu_of(e, n->inputs[i]);
  if (!x) {
    cu_err(e, n, "'%s': operand %%%s has no device storage", n->kind, n->inputs[i]->name);
    return NULL;
  }
  if (!any_dtype && x->dtype != DT_F32) {
    cu_err(e, n, "'%s' has no CUDA implementation for %s (operand %%%s)", n->kind, ir_dtype_name(x->dtype), n->inputs[i]->name);
    return NULL;
  }
  return x;
}

bool cu_opt_tensor(Cu *e, const Node *n, int i, const CuDesc **out) {
  *out = NULL;
  if (i >= n->ninputs || ir_constant_is_none(n->inputs[i])) return true;
  return (*out = cu_tensor(e, n, i, false)) != NULL;
}

/* Scalar constants: a float, int or bool constant, or a one-element constant tensor. */
bool cu_const_f(const Value *v, double *x) {
  if (ir_constant_float(v, x)) return true;
  const Attr *a = ir_constant_attr(v);
  if (a && a->kind == ATTR_TENSOR && a->t && a->t->data && a->t->nbytes == ir_dtype_size(a->t->dtype)) {
    mck_tensor t = {a->t->data, 0, a->t->dtype, 0, {0}, {0}};
    *x = mck_getf(&t, 0);
    return true;
  }
  return false;
}

bool cu_arg_f(Cu *e, const Node *n, int i, double dflt, double *x) {
  if (i >= n->ninputs || ir_constant_is_none(n->inputs[i])) {
    *x = dflt;
    return true;
  }
  if (cu_const_f(n->inputs[i], x)) return true;
  return cu_err(e, n, "'%s': argument %%%s must be a compile-time constant on the CUDA target", n->kind,
                n->inputs[i]->name);
}

bool cu_arg_i(Cu *e, const Node *n, int i, int64_t dflt, int64_t *x) {
  if (i >= n->ninputs || ir_constant_is_none(n->inputs[i])) {
    *x = dflt;
    return true;
  }
  if (ir_constant_int(n->inputs[i], x)) return true;
  return cu_err(e, n, "'%s': argument %%%s must be a compile-time integer on the CUDA target", n->kind,
                n->inputs[i]->name);
}

/* An int list constant (a constant or a ListConstruct of constants), at most IR_MAX_DIMS long. */
bool cu_arg_ints(Cu *e, const Node *n, int i, int64_t *xs, int *len) {
  *len = 0;
  if (i >= n->ninputs || ir_constant_is_none(n->inputs[i])) return true;
  const Value *v = n->inputs[i];
  const Attr *a = ir_constant_attr(v);
  if (a && (a->kind == ATTR_INTS || a->kind == ATTR_BOOLS) && a->n <= IR_MAX_DIMS) {
    for (int k = 0; k < a->n; k++) xs[k] = a->ints[k];
    *len = a->n;
    return true;
  }
  if (a && a->kind == ATTR_INT) {
    xs[0] = a->i;
    *len = 1;
    return true;
  }
  if (v->def && ir_node_is(v->def, "prim::ListConstruct") && v->def->ninputs <= IR_MAX_DIMS) {
    for (int k = 0; k < v->def->ninputs; k++)
      if (!ir_constant_int(v->def->inputs[k], &xs[k])) goto bad;
    *len = v->def->ninputs;
    return true;
  }
bad:
  return cu_err(e, n, "'%s': list argument %%%s must be a compile-time constant on the CUDA target", n->kind,
                v->name);
}

/* ---- the weights image --------------------------------------------------------------------- */
size_t cu_weights_add(Cu *e, const void *data, size_t n) {
  size_t at = (e->wlen + CU_WALIGN - 1) / CU_WALIGN * CU_WALIGN;
  if (at + n > e->wcap) {
    size_t cap = e->wcap ? e->wcap : 4096;
    while (cap < at + n) cap *= 2;
    unsigned char *nw = realloc(e->w, cap);
    if (!nw) return SIZE_MAX;
    e->w = nw;
    e->wcap = cap;
  }
  memset(e->w + e->wlen, 0, at - e->wlen);
  if (n) memcpy(e->w + at, data, n);
  e->wlen = at + n;
  return at;
}

/* ---- C expressions ------------------------------------------------------------------------- */
const char *cu_elem_type(DType t) {
  switch (ir_dtype_size(t)) {
  case 1: return "uint8_t";
  case 2: return "uint16_t";
  case 8: return "uint64_t";
  default: return "uint32_t";
  }
}

/* Writes a typed device pointer to x's first element: ((float *)(A_ + 1024) + 3). */
void cu_ptr(Cu *e, const CuDesc *x, const char *ctype) {
  FILE *f = e->c;
  char dyn[32] = "";
  if (x->dyn) snprintf(dyn, sizeof dyn, " + vo%d_", x->dyn);
  if (x->base == CB_INPUT) fprintf(f, "((%s *)in[%d] + %lld%s)", ctype, x->input, (long long)x->off, dyn);
  else fprintf(f, "((%s *)(%s + %zu) + %lld%s)", ctype, x->base == CB_WEIGHTS ? "W_" : "A_", x->boff, (long long)x->off, dyn);
}
void cu_fptr(Cu *e, const CuDesc *x) {
  if (x) cu_ptr(e, x, "float");
  else fputs("(float *)0", e->c);
}

void cu_loc(Cu *e, const Node *n) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s:%d:%d: %s%s%s", e->o->source_name ? e->o->source_name : "model", n->loc.line,
           n->loc.col, n->kind, n->py_loc ? " at " : "", n->py_loc ? n->py_loc : "");
  emit_text_string(e->c, buf);
}

/* x as a float literal C++ reads back exactly ("1.0f", "-INFINITY", "NAN"). */
const char *cu_flit(char *buf, size_t cap, double x) {
  float fx = (float)x;
  if (isnan(fx)) snprintf(buf, cap, "NAN");
  else if (isinf(fx)) snprintf(buf, cap, fx > 0 ? "INFINITY" : "-INFINITY");
  else {
    snprintf(buf, cap, "%.9g", (double)fx);
    if (!strpbrk(buf, ".e")) strncat(buf, ".0", cap - strlen(buf) - 1);
    strncat(buf, "f", cap - strlen(buf) - 1);
  }
  return buf;
}

void cu_float(FILE *f, double x) {
  char b[48];
  fputs(cu_flit(b, sizeof b, x), f);
}

void cu_dims(FILE *f, int n, const int64_t *xs) {
  fputc('{', f);
  if (n <= 0) fputc('0', f);
  for (int i = 0; i < n; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)xs[i]);
  fputc('}', f);
}

/* Strides of x read with the broadcast shape (ndim, shape): 0 on broadcast dims. */
void cu_bcast(const CuDesc *x, int ndim, const int64_t *shape, int64_t *st) {
  for (int i = 0; i < ndim; i++) {
    int ix = i - (ndim - x->ndim);
    st[i] = ix >= 0 && x->shape[ix] == shape[i] && shape[i] != 1 ? x->st[ix] : 0;
  }
}

/* Emits `mcu_nd NAME = {...}` over (ndim, shape) with up to 3 operand stride rows. */
void cu_nd(Cu *e, const char *name, int ndim, const int64_t *shape, int nops, int64_t st[3][IR_MAX_DIMS]) {
  int64_t n = 1, cs[IR_MAX_DIMS];
  for (int i = 0; i < ndim; i++) n *= shape[i];
  ir_contiguous_strides(ndim, shape, cs);
  bool contig = true;
  for (int k = 0; k < nops; k++)
    for (int i = 0; i < ndim; i++)
      if (shape[i] != 1 && st[k][i] != cs[i]) contig = false;
  fprintf(e->c, "    mcu_nd %s = {%d, %d, %lld, ", name, ndim, contig, (long long)n);
  cu_dims(e->c, ndim, shape);
  fputs(", {", e->c);
  for (int k = 0; k < 3; k++) {
    if (k) fputs(", ", e->c);
    if (k < nops) cu_dims(e->c, ndim, st[k]);
    else fputs("{0}", e->c);
  }
  fputs("}};\n", e->c);
}

/* Per-node scratch after the planned arena. */
size_t cu_scratch(Cu *e, size_t bytes) {
  size_t at = e->scratch_cur;
  e->scratch_cur += (bytes + CU_WALIGN - 1) / CU_WALIGN * CU_WALIGN;
  if (e->scratch_cur - e->scratch_base > e->scratch_max) e->scratch_max = e->scratch_cur - e->scratch_base;
  return at;
}

/* Emits a strided copy of `src` (read with shape src->shape) into dst, element by element in
 * src's row-major order; dst_st are dst's strides over src->shape (compact dst of another shape
 * but equal numel: its contiguous strides over src->shape). */
void cu_copy_into(Cu *e, const Node *n, const CuDesc *dst, const int64_t *dst_st, const CuDesc *src) {
  int64_t st[3][IR_MAX_DIMS];
  memcpy(st[0], dst_st, sizeof st[0]);
  memcpy(st[1], src->st, sizeof st[1]);
  fputs("  {\n", e->c);
  cu_nd(e, "d_", src->ndim, src->shape, 2, st);
  fprintf(e->c, "    MCU_TRY(mcu_copy<%s>(s_, ", cu_elem_type(src->dtype));
  cu_ptr(e, dst, cu_elem_type(dst->dtype));
  fputs(", ", e->c);
  cu_ptr(e, src, cu_elem_type(src->dtype));
  fputs(", d_), ", e->c);
  cu_loc(e, n);
  fputs(");\n  }\n", e->c);
}

/* x itself when compact, else a compact copy in scratch. */
CuDesc cu_make_compact(Cu *e, const Node *n, const CuDesc *x) {
  if (cu_compact(x)) return *x;
  CuDesc y = *x;
  y.base = CB_ARENA;
  y.off = 0;
  y.dyn = 0;
  y.boff = cu_scratch(e, (size_t)cu_numel(x) * ir_dtype_size(x->dtype));
  cu_contig(&y);
  cu_copy_into(e, n, &y, y.st, x);
  return y;
}

/* The output tensor of n (index i): compact arena storage from the plan. */
const CuDesc *cu_out(Cu *e, const Node *n, int i) {
  const CuDesc *y = i < n->noutputs ? cu_of(e, n->outputs[i]) : NULL;
  if (!y || y->base != CB_ARENA || !cu_compact(y)) {
    cu_err(e, n, "'%s': internal: output %s has no compact arena storage", n->kind, i < n->noutputs ? n->outputs[i]->name : "?");
    return NULL;
  }
  if (y->dtype != DT_F32 && y->dtype != DT_BOOL) {
    cu_err(e, n, "'%s' has no CUDA implementation for %s (output %%%s)", n->kind, ir_dtype_name(y->dtype), n->outputs[i]->name);
    return NULL;
  }
  return y;
}
