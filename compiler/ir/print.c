/* print.c — prints a graph in TorchScript's text syntax, the one PyTorch 1.13 prints for
 * `str(graph)`, so that the frontend (frontend/ts_parse.c) reads it back:
 * print(parse(print(G))) is byte-identical to print(G) for any G the parser built.
 *
 *   graph(%self : __torch__.M,
 *         %x : Float(2, 4, strides=[4, 1], requires_grad=0, device=cpu)):
 *     %4 : int = prim::Constant[value=0]() # t.py:10:0
 *     %y : Tensor = prim::If(%c)
 *       block0():
 *         -> (%x)
 *       block1():
 *          = prim::Print(%x)
 *         -> (%x)
 *     return (%y)
 *
 * Output is deterministic: nodes in list order, attributes in insertion order, floats in a
 * fixed format (PyTorch's: integral values as "1.", else 17 significant digits), no pointers.
 * Constant tensors: one element prints as {x} (shortest text that reads back to the same
 * value); more print as <Tensor> unless PrintOpts.tensor_data, then as PyTorch's flat form
 * " v0 v1 ... [ CPUFloatType{2,3} ]" (row-major, every value exact).
 *
 * A graph input's extent that follows a Dim (Graph.dims, docs/dynamic.md) prints as the Dim:
 * its name, bounds and the example's extent, `Float(batch[1, 16]=2, 8)`; a name that is not an
 * identifier prints with '_' for the other characters. Other values' types state the example's
 * sizes, at which infer types the graph.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static void pr_indent(FILE *f, int n) {
  for (int i = 0; i < n; i++) fputc(' ', f);
}

static void pr_value(FILE *f, const Value *v) {
  if (v->name) fprintf(f, "%%%s", v->name);
  else fprintf(f, "%%%d", v->id);
}

static void pr_typed(FILE *f, const Value *v) {
  pr_value(f, v);
  fputs(" : ", f);
  ir_type_print(f, v->type);
}

static void pr_uses(FILE *f, Value *const *vs, int n) {
  fputc('(', f);
  for (int i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    pr_value(f, vs[i]);
  }
  fputc(')', f);
}

/* c10::printQuotedString: C escapes, other non-printable bytes as \ooo. */
static void pr_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    switch (*p) {
      case '\\': fputs("\\\\", f); break;
      case '\'': fputs("\\'", f); break;
      case '"': fputs("\\\"", f); break;
      case '\a': fputs("\\a", f); break;
      case '\b': fputs("\\b", f); break;
      case '\f': fputs("\\f", f); break;
      case '\n': fputs("\\n", f); break;
      case '\r': fputs("\\r", f); break;
      case '\t': fputs("\\t", f); break;
      case '\v': fputs("\\v", f); break;
      default:
        if (*p >= 0x20 && *p < 0x7f) fputc(*p, f);
        else fprintf(f, "\\%03o", *p);
    }
  }
  fputc('"', f);
}

static bool pr_nonfinite(FILE *f, double d) {
  if (isnan(d)) fputs("nan", f);
  else if (isinf(d)) fputs(d < 0 ? "-inf" : "inf", f);
  else return false;
  return true;
}

/* IValue's double format: "1." for integral values below 1e10, else %.17g. */
static void pr_double(FILE *f, double d) {
  if (pr_nonfinite(f, d)) return;
  if (fabs(d) < 1e10 && d == (double)(int64_t)d) {
    if (d == 0 && signbit(d)) fputs("-0.", f);
    else fprintf(f, "%lld.", (long long)d);
    return;
  }
  fprintf(f, "%.17g", d);
}

/* Shortest %g text that reads back to the same value of the tensor's element type. */
static void pr_shortest(FILE *f, double d, bool single) {
  if (pr_nonfinite(f, d)) return;
  char buf[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, d);
    double back = strtod(buf, NULL);
    if (single ? (float)back == (float)d : back == d) break;
  }
  fputs(buf, f);
}

static float pr_f16(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, u;
  if (exp == 0) {
    if (man == 0) {
      u = sign;
    } else {
      int e = -1;
      do {
        man <<= 1;
        e++;
      } while (!(man & 0x400u));
      u = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    u = sign | 0x7f800000u | (man << 13);
  } else {
    u = sign | ((exp + 127 - 15) << 23) | (man << 13);
  }
  float x;
  memcpy(&x, &u, 4);
  return x;
}

static void pr_elem(FILE *f, const IrTensor *t, size_t i) {
  const unsigned char *p = t->data;
  switch (t->dtype) {
    case DT_F32: { float v; memcpy(&v, p + i * 4, 4); pr_shortest(f, v, true); return; }
    case DT_F64: { double v; memcpy(&v, p + i * 8, 8); pr_shortest(f, v, false); return; }
    case DT_F16: { uint16_t h; memcpy(&h, p + i * 2, 2); pr_shortest(f, pr_f16(h), true); return; }
    case DT_BF16: {
      uint16_t h;
      memcpy(&h, p + i * 2, 2);
      uint32_t u = (uint32_t)h << 16;
      float v;
      memcpy(&v, &u, 4);
      pr_shortest(f, v, true);
      return;
    }
    case DT_I64: { int64_t v; memcpy(&v, p + i * 8, 8); fprintf(f, "%lld", (long long)v); return; }
    case DT_I32: { int32_t v; memcpy(&v, p + i * 4, 4); fprintf(f, "%d", v); return; }
    case DT_I16: { int16_t v; memcpy(&v, p + i * 2, 2); fprintf(f, "%d", v); return; }
    case DT_I8: fprintf(f, "%d", (int)(int8_t)p[i]); return;
    case DT_U8: fprintf(f, "%d", p[i]); return;
    case DT_BOOL: fprintf(f, "%d", p[i] != 0); return;
    default: fputs("0", f); return;
  }
}

static size_t pr_numel(const IrTensor *t) {
  size_t n = 1;
  for (int d = 0; d < t->ndim; d++) n *= t->shape[d] > 0 ? (size_t)t->shape[d] : 0;
  return n;
}

/* `out` is the constant's output type: PyTorch prints any one-element tensor as {x}, and the
 * parser takes its shape from that type, so {x} is used whenever the type carries the shape. */
static void pr_tensor(FILE *f, const IrTensor *t, const Type *out, const PrintOpts *o) {
  if (!t || !t->data || !ir_dtype_size(t->dtype) ||
      t->nbytes < pr_numel(t) * ir_dtype_size(t->dtype)) {
    fputs("<Tensor>", f);
    return;
  }
  size_t n = pr_numel(t);
  bool shape_in_type = out && out->kind == TY_TENSOR && out->ndim == t->ndim &&
                       ir_type_numel(out) == 1;
  if (n == 1 && (t->ndim == 0 || shape_in_type)) {
    fputc('{', f);
    pr_elem(f, t, 0);
    fputc('}', f);
    return;
  }
  if (!o->tensor_data) {
    fputs("<Tensor>", f);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    fputc(' ', f);
    pr_elem(f, t, i);
  }
  fprintf(f, " [ CPU%sType{", ir_dtype_torch_name(t->dtype));
  for (int d = 0; d < t->ndim; d++) fprintf(f, "%s%lld", d ? "," : "", (long long)t->shape[d]);
  fputs("} ]", f);
}

static void pr_list_annot(FILE *f, const char *elem) { fprintf(f, "annotate(List[%s], [])", elem); }

static void pr_attr(FILE *f, const Attr *a, const Type *out, const PrintOpts *o) {
  switch (a->kind) {
    case ATTR_INT: fprintf(f, "%lld", (long long)a->i); return;
    case ATTR_BOOL: fprintf(f, "%d", a->i != 0); return;
    case ATTR_FLOAT: pr_double(f, a->f); return;
    case ATTR_STR:
    case ATTR_DEVICE: pr_string(f, a->s); return;
    case ATTR_NONE: fputs("None", f); return;
    case ATTR_TENSOR: pr_tensor(f, a->t, out, o); return;
    case ATTR_INTS:
    case ATTR_BOOLS:
    case ATTR_FLOATS:
    case ATTR_STRS:
      if (a->n == 0) {
        pr_list_annot(f, a->kind == ATTR_INTS ? "int" : a->kind == ATTR_BOOLS ? "bool"
                         : a->kind == ATTR_FLOATS ? "float" : "str");
        return;
      }
      fputc('[', f);
      for (int i = 0; i < a->n; i++) {
        if (i) fputs(", ", f);
        if (a->kind == ATTR_INTS) fprintf(f, "%lld", (long long)a->ints[i]);
        else if (a->kind == ATTR_BOOLS) fputs(a->ints[i] ? "True" : "False", f);
        else if (a->kind == ATTR_FLOATS) pr_double(f, a->floats[i]);
        else pr_string(f, a->strs[i]);
      }
      fputc(']', f);
      return;
  }
}

static void pr_block(FILE *f, const Block *b, int indent, const PrintOpts *o);

static void pr_node(FILE *f, const Node *n, int indent, const PrintOpts *o) {
  pr_indent(f, indent);
  for (int i = 0; i < n->noutputs; i++) {
    if (i) fputs(", ", f);
    pr_typed(f, n->outputs[i]);
  }
  fprintf(f, " = %s", n->kind);
  bool constant = strcmp(n->kind, "prim::Constant") == 0;
  int shown = 0;
  for (int i = 0; i < n->nattrs; i++) {
    const Attr *a = &n->attrs[i];
    if (constant && a->kind == ATTR_NONE && strcmp(a->name, "value") == 0) continue;
    fputs(shown++ ? ", " : "[", f);
    fprintf(f, "%s=", a->name);
    pr_attr(f, a, n->noutputs == 1 ? n->outputs[0]->type : NULL, o);
  }
  if (shown) fputc(']', f);
  pr_uses(f, n->inputs, n->ninputs);
  if (n->scope) fprintf(f, ", scope: %s", n->scope);
  if (o->locations && n->py_loc) fprintf(f, " # %s", n->py_loc);
  fputc('\n', f);
  for (int i = 0; i < n->nblocks; i++) {
    const Block *b = n->blocks[i];
    pr_indent(f, indent + 2);
    fprintf(f, "block%d(", i);
    for (int j = 0; j < b->nparams; j++) {
      if (j) fputs(", ", f);
      pr_typed(f, b->params[j]);
    }
    fputs("):\n", f);
    pr_block(f, b, indent + 4, o);
    pr_indent(f, indent + 4);
    fputs("-> ", f);
    pr_uses(f, b->rets, b->nrets);
    fputc('\n', f);
  }
}

static void pr_block(FILE *f, const Block *b, int indent, const PrintOpts *o) {
  for (const Node *n = b->first; n; n = n->next) pr_node(f, n, indent, o);
}

static const IrDim *pr_dim(const Graph *g, const Value *v, int axis) {
  for (int k = 0; k < g->ndims; k++)
    if (g->dims[k].value == v && g->dims[k].axis == axis) return &g->dims[k];
  return NULL;
}

static void pr_dim_name(FILE *f, const char *s) {
  if (!*s || (*s >= '0' && *s <= '9')) fputc('_', f);
  for (const char *p = s; *p; p++) {
    unsigned char c = (unsigned char)*p;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    fputc(ok ? c : '_', f);
  }
  if (!strcmp(s, "strides") || !strcmp(s, "requires_grad") || !strcmp(s, "device")) fputc('_', f);
}

/* A graph input's type, its Dim extents as `name[min, max]=example`. */
static void pr_param(FILE *f, const Graph *g, const Value *v) {
  const Type *t = v->type;
  bool dyn = false;
  for (int i = 0; t && t->kind == TY_TENSOR && i < t->ndim; i++) dyn |= pr_dim(g, v, i) != NULL;
  if (!dyn || t->dtype == DT_UNDEF) {
    pr_typed(f, v);
    return;
  }
  pr_value(f, v);
  fprintf(f, " : %s(", ir_dtype_torch_name(t->dtype));
  const char *sep = "";
  for (int i = 0; i < t->ndim; i++, sep = ", ") {
    const IrDim *dm = pr_dim(g, v, i);
    fputs(sep, f);
    if (dm) {
      pr_dim_name(f, dm->name);
      fprintf(f, "[%lld, %lld]=", (long long)dm->min, (long long)dm->max);
    }
    if (t->shape[i] < 0) fputc('*', f);
    else fprintf(f, "%lld", (long long)t->shape[i]);
  }
  if (t->has_strides && t->ndim > 0) {
    fprintf(f, "%sstrides=[", sep);
    for (int i = 0; i < t->ndim; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)t->strides[i]);
    fputc(']', f);
    sep = ", ";
  }
  if (t->requires_grad >= 0) {
    fprintf(f, "%srequires_grad=%d", sep, t->requires_grad);
    sep = ", ";
  }
  if (t->device) fprintf(f, "%sdevice=%s", sep, t->device);
  fputc(')', f);
}

void ir_print_graph(FILE *f, const Graph *g, const PrintOpts *o) {
  PrintOpts def = {.locations = true, .tensor_data = false};
  if (!o) o = &def;
  const Block *top = g->top;
  fputs("graph(", f);
  for (int i = 0; i < top->nparams; i++) {
    if (i) fputs(",\n      ", f);
    pr_param(f, g, top->params[i]);
  }
  fputs("):\n", f);
  pr_block(f, top, 2, o);
  fputs("  return ", f);
  pr_uses(f, top->rets, top->nrets);
  fputc('\n', f);
}
