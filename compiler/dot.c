/* dot.c — `mc dump --format dot|json`: the IR as a Graphviz picture or as JSON data.
 *
 * dot: every node is a box filled by its op's effect class (ops.h): pure white, view blue,
 * in-place write red (and the edge into the written tensor drawn bold red), external effect
 * orange, control flow grey; constants are small plain text; graph inputs and outputs are
 * ellipses; each nested block of prim::If / prim::Loop is a cluster holding its parameters, its
 * nodes and a "return" point. Edges carry the value's dtype and shape ("f32[5,10]"). A legend
 * cluster names the colours. Output is deterministic (ids, no pointers).
 *
 * json: one object per graph, values listed once in definition order with their types as
 * TorchScript type strings, nodes referring to values by name, nested blocks recursively.
 */
#include "dot.h"

#include "ops/ops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared ------------------------------------------------------------------------------- */
static const char *short_dtype(DType t) {
  static const char *const nm[DT_COUNT] = {"f32", "f64", "f16", "bf16", "i64", "i32", "i16", "i8", "u8", "bool"};
  return t >= 0 && t < DT_COUNT ? nm[t] : "?";
}

static void put_escaped(FILE *f, const char *s, bool json) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\n') fputs("\\n", f);
    else if (c < 0x20) json ? fprintf(f, "\\u%04x", c) : fputc(' ', f);
    else fputc(c, f);
  }
}

static const OpDef *op_of(const Node *n) { return n->op ? n->op : ops_lookup(n->kind); }

/* ---- dot ---------------------------------------------------------------------------------- */
static void dot_type(FILE *f, const Type *t) {
  if (t->kind == TY_TENSOR && t->dtype == DT_UNDEF && t->ndim < 0) {
    fputs("Tensor", f);
    return;
  }
  if (t->kind == TY_TENSOR) {
    fputs(short_dtype(t->dtype), f);
    if (t->ndim < 0) {
      fputs("[*]", f);
      return;
    }
    fputc('[', f);
    for (int i = 0; i < t->ndim; i++) {
      if (i) fputc(',', f);
      if (t->shape[i] < 0) fputc('?', f);
      else fprintf(f, "%lld", (long long)t->shape[i]);
    }
    fputc(']', f);
    return;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m) return;
  ir_type_print(m, t);
  fclose(m);
  put_escaped(f, buf, false);
  free(buf);
}

static void dot_source(FILE *f, const Value *v) {
  if (v->def) fprintf(f, "n%d", v->def->id);
  else fprintf(f, "v%d", v->id);
}

static const char *dot_fill(const Node *n, const OpDef *op) {
  if (!op) return "white";
  switch (op->effect) {
  case EFF_VIEW: return "#bcd8ff";
  case EFF_WRITE: return "#ff9e9e";
  case EFF_EXTERN: return "#ffc864";
  case EFF_CONTROL: return "#d9d9d9";
  default: return (op->flags & OPF_MAYBE_VIEW) && n ? "#e3efff" : "white";
  }
}

static void dot_constant_label(FILE *f, const Node *n) {
  const Attr *a = ir_node_attr(n, "value");
  if (!a || a->kind == ATTR_NONE) {
    fputs("None", f);
    return;
  }
  switch (a->kind) {
  case ATTR_INT: fprintf(f, "%lld", (long long)a->i); break;
  case ATTR_BOOL: fputs(a->i ? "True" : "False", f); break;
  case ATTR_FLOAT: fprintf(f, "%g", a->f); break;
  case ATTR_STR: case ATTR_DEVICE:
    fputc('\'', f);
    put_escaped(f, a->s ? a->s : "", false);
    fputc('\'', f);
    break;
  case ATTR_INTS: case ATTR_BOOLS:
    fputc('[', f);
    for (int i = 0; i < a->n && i < 8; i++) fprintf(f, "%s%lld", i ? "," : "", (long long)a->ints[i]);
    fputs(a->n > 8 ? ",...]" : "]", f);
    break;
  case ATTR_TENSOR: fputs("tensor", f); break;
  default: fputs("const", f); break;
  }
}

static void dot_block(FILE *f, const Block *b, int depth);

/* Block return points are named by owner id and block index. */
static int block_index(const Block *b) {
  for (int k = 0; k < b->owner->nblocks; k++)
    if (b->owner->blocks[k] == b) return k;
  return 0;
}

static void dot_node(FILE *f, const Node *n, int depth) {
  const OpDef *op = op_of(n);
  fprintf(f, "%*sn%d [", depth * 2, "", n->id);
  if (ir_node_is(n, "prim::Constant")) {
    fputs("shape=plaintext, fontsize=8, label=\"", f);
    dot_constant_label(f, n);
    fputs("\"];\n", f);
    return;
  }
  fprintf(f, "shape=box, style=\"filled%s\", fillcolor=\"%s\", label=\"", op && (op->flags & OPF_MAYBE_VIEW) ? ",dashed" : "",
          dot_fill(n, op));
  put_escaped(f, n->kind, false);
  for (int i = 0; i < n->noutputs; i++) {
    fputs(i ? ", %" : "\\n%", f);
    put_escaped(f, n->outputs[i]->name, false);
  }
  if (n->py_loc) {
    fputs("\\n", f);
    put_escaped(f, n->py_loc, false);
  }
  fputs("\"];\n", f);
  for (int k = 0; k < n->nblocks; k++) {
    const Block *b = n->blocks[k];
    fprintf(f, "%*ssubgraph cluster_n%d_b%d {\n%*slabel=\"", depth * 2, "", n->id, k, depth * 2 + 2, "");
    put_escaped(f, n->kind, false);
    fprintf(f, " block %d\"; style=rounded; color=\"#808080\";\n", k);
    dot_block(f, b, depth + 1);
    fprintf(f, "%*s}\n", depth * 2, "");
  }
}

static void dot_block(FILE *f, const Block *b, int depth) {
  for (int i = 0; i < b->nparams; i++) {
    fprintf(f, "%*sv%d [shape=ellipse, label=\"%%", depth * 2, "", b->params[i]->id);
    put_escaped(f, b->params[i]->name, false);
    fputs("\"];\n", f);
  }
  for (const Node *n = b->first; n; n = n->next) dot_node(f, n, depth);
  if (b->owner) fprintf(f, "%*sret_n%d_b%d [shape=point];\n", depth * 2, "", b->owner->id, block_index(b));
}

static void dot_edge(FILE *f, const Value *v, const char *dst, bool write) {
  fputs("  ", f);
  dot_source(f, v);
  fprintf(f, " -> %s [label=\"", dst);
  if (!ir_is_constant(v) || v->type->kind == TY_TENSOR) dot_type(f, v->type);
  fputs("\"", f);
  if (ir_is_constant(v)) fputs(", color=\"#a0a0a0\"", f);
  if (write) fputs(", color=\"#d00000\", penwidth=2", f);
  fputs("];\n", f);
}

static void dot_edges(FILE *f, const Block *b) {
  char dst[64];
  for (const Node *n = b->first; n; n = n->next) {
    const OpDef *op = op_of(n);
    snprintf(dst, sizeof dst, "n%d", n->id);
    for (int i = 0; i < n->ninputs; i++)
      dot_edge(f, n->inputs[i], dst, op && op->effect == EFF_WRITE && op->effect_arg == i);
    for (int k = 0; k < n->nblocks; k++) dot_edges(f, n->blocks[k]);
  }
  for (int i = 0; i < b->nrets; i++) {
    if (b->owner) snprintf(dst, sizeof dst, "ret_n%d_b%d", b->owner->id, block_index(b));
    else snprintf(dst, sizeof dst, "out%d", i);
    dot_edge(f, b->rets[i], dst, false);
  }
}

void dot_print_graph(FILE *f, const Graph *g) {
  fputs("digraph mc {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n"
        "  edge [fontname=\"Helvetica\", fontsize=8];\n",
        f);
  if (g->path) {
    fputs("  label=\"", f);
    put_escaped(f, g->path, false);
    fputs("\"; labelloc=t;\n", f);
  }
  fputs("  subgraph cluster_legend {\n    label=\"legend\"; fontsize=9; style=dashed;\n"
        "    legend_pure [shape=box, style=filled, fillcolor=\"white\", label=\"pure\"];\n"
        "    legend_view [shape=box, style=filled, fillcolor=\"#bcd8ff\", label=\"view\"];\n"
        "    legend_write [shape=box, style=filled, fillcolor=\"#ff9e9e\", label=\"in-place write\"];\n"
        "    legend_extern [shape=box, style=filled, fillcolor=\"#ffc864\", label=\"external effect\"];\n"
        "    legend_control [shape=box, style=filled, fillcolor=\"#d9d9d9\", label=\"control flow\"];\n"
        "  }\n",
        f);
  const Block *top = g->top;
  for (int i = 0; i < top->nparams; i++) {
    fprintf(f, "  v%d [shape=ellipse, style=filled, fillcolor=\"#e8f5e9\", label=\"input %%", top->params[i]->id);
    put_escaped(f, top->params[i]->name, false);
    fputs("\"];\n", f);
  }
  for (const Node *n = top->first; n; n = n->next) dot_node(f, n, 1);
  for (int i = 0; i < top->nrets; i++)
    fprintf(f, "  out%d [shape=ellipse, style=filled, fillcolor=\"#e8f5e9\", label=\"output %d\"];\n", i, i);
  dot_edges(f, top);
  fputs("}\n", f);
}

/* ---- json --------------------------------------------------------------------------------- */
static void js_str(FILE *f, const char *s) {
  fputc('"', f);
  put_escaped(f, s ? s : "", true);
  fputc('"', f);
}

static void js_num(FILE *f, double x) {
  if (isnan(x)) fputs("\"nan\"", f);
  else if (isinf(x)) fputs(x > 0 ? "\"inf\"" : "\"-inf\"", f);
  else fprintf(f, "%.17g", x);
}

static void js_type(FILE *f, const Graph *g, const Type *t) { js_str(f, ir_type_str(g->arena, t)); }

static void js_values(FILE *f, const Value *const *vs, int n) {
  fputc('[', f);
  for (int i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    js_str(f, vs[i]->name);
  }
  fputc(']', f);
}

static void js_tensor(FILE *f, const IrTensor *t) {
  fprintf(f, "{\"dtype\": \"%s\", \"shape\": [", ir_dtype_name(t->dtype));
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++) {
    fprintf(f, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
    n *= t->shape[i];
  }
  fputc(']', f);
  if (t->data && n <= 16) {
    fputs(", \"data\": [", f);
    size_t es = ir_dtype_size(t->dtype);
    for (int64_t i = 0; i < n; i++) {
      const char *p = (const char *)t->data + (size_t)i * es;
      double x = 0;
      switch (t->dtype) {
      case DT_F32: { float v; memcpy(&v, p, 4); x = v; break; }
      case DT_F64: memcpy(&x, p, 8); break;
      case DT_I64: { int64_t v; memcpy(&v, p, 8); x = (double)v; break; }
      case DT_I32: { int32_t v; memcpy(&v, p, 4); x = v; break; }
      case DT_I16: { int16_t v; memcpy(&v, p, 2); x = v; break; }
      case DT_I8: x = *(const int8_t *)p; break;
      case DT_U8: case DT_BOOL: x = *(const uint8_t *)p; break;
      default: { uint16_t v; memcpy(&v, p, 2); x = v; break; } /* f16/bf16: raw bits */
      }
      if (i) fputs(", ", f);
      js_num(f, x);
    }
    fputc(']', f);
  }
  fputc('}', f);
}

static void js_attr(FILE *f, const Attr *a) {
  switch (a->kind) {
  case ATTR_INT: fprintf(f, "%lld", (long long)a->i); return;
  case ATTR_BOOL: fputs(a->i ? "true" : "false", f); return;
  case ATTR_FLOAT: js_num(f, a->f); return;
  case ATTR_STR: case ATTR_DEVICE: js_str(f, a->s); return;
  case ATTR_NONE: fputs("null", f); return;
  case ATTR_TENSOR:
    if (a->t) js_tensor(f, a->t);
    else fputs("null", f);
    return;
  default: break;
  }
  fputc('[', f);
  for (int i = 0; i < a->n; i++) {
    if (i) fputs(", ", f);
    if (a->kind == ATTR_INTS) fprintf(f, "%lld", (long long)a->ints[i]);
    else if (a->kind == ATTR_BOOLS) fputs(a->ints[i] ? "true" : "false", f);
    else if (a->kind == ATTR_FLOATS) js_num(f, a->floats[i]);
    else js_str(f, a->strs[i]);
  }
  fputc(']', f);
}

static const char *effect_name(const OpDef *op) {
  if (!op) return "unknown";
  static const char *const nm[] = {"pure", "view", "write", "extern", "control"};
  return op->effect >= EFF_PURE && op->effect <= EFF_CONTROL ? nm[op->effect] : "unknown";
}

static void js_block(FILE *f, const Block *b, int ind);

static void js_node(FILE *f, const Node *n, int ind) {
  fprintf(f, "%*s{\"id\": %d, \"kind\": ", ind, "", n->id);
  js_str(f, n->kind);
  fprintf(f, ", \"effect\": \"%s\", \"inputs\": ", effect_name(op_of(n)));
  js_values(f, (const Value *const *)n->inputs, n->ninputs);
  fputs(", \"outputs\": ", f);
  js_values(f, (const Value *const *)n->outputs, n->noutputs);
  if (n->nattrs) {
    fputs(", \"attrs\": {", f);
    for (int i = 0; i < n->nattrs; i++) {
      if (i) fputs(", ", f);
      js_str(f, n->attrs[i].name);
      fputs(": ", f);
      js_attr(f, &n->attrs[i]);
    }
    fputc('}', f);
  }
  if (n->loc.line > 0) {
    fputs(", \"loc\": ", f);
    fputs("\"", f);
    put_escaped(f, n->loc.file ? n->loc.file : "", true);
    fprintf(f, ":%d:%d\"", n->loc.line, n->loc.col);
  }
  if (n->py_loc) {
    fputs(", \"py_loc\": ", f);
    js_str(f, n->py_loc);
  }
  if (n->nblocks) {
    fputs(", \"blocks\": [\n", f);
    for (int k = 0; k < n->nblocks; k++) {
      js_block(f, n->blocks[k], ind + 2);
      fputs(k + 1 < n->nblocks ? ",\n" : "\n", f);
    }
    fprintf(f, "%*s]", ind, "");
  }
  fputc('}', f);
}

static void js_nodes(FILE *f, const Block *b, int ind) {
  fputs("[\n", f);
  for (const Node *n = b->first; n; n = n->next) {
    js_node(f, n, ind + 2);
    fputs(n->next ? ",\n" : "\n", f);
  }
  fprintf(f, "%*s]", ind, "");
}

static void js_block(FILE *f, const Block *b, int ind) {
  fprintf(f, "%*s{\"params\": ", ind, "");
  js_values(f, (const Value *const *)b->params, b->nparams);
  fputs(", \"returns\": ", f);
  js_values(f, (const Value *const *)b->rets, b->nrets);
  fputs(", \"nodes\": ", f);
  js_nodes(f, b, ind);
  fputc('}', f);
}

typedef struct JsVals {
  FILE *f;
  const Graph *g;
  bool first;
} JsVals;

static void js_value(JsVals *j, const Value *v) {
  fprintf(j->f, "%s    {\"id\": %d, \"name\": ", j->first ? "" : ",\n", v->id);
  js_str(j->f, v->name);
  fputs(", \"type\": ", j->f);
  js_type(j->f, j->g, v->type);
  fputc('}', j->f);
  j->first = false;
}

static bool js_node_values(Node *n, void *ctx) {
  JsVals *j = ctx;
  for (int k = 0; k < n->nblocks; k++)
    for (int i = 0; i < n->blocks[k]->nparams; i++) js_value(j, n->blocks[k]->params[i]);
  for (int i = 0; i < n->noutputs; i++) js_value(j, n->outputs[i]);
  return true;
}

void irjson_print_graph(FILE *f, const Graph *g) {
  fputs("{\n  \"file\": ", f);
  js_str(f, g->path);
  fprintf(f, ",\n  \"has_self\": %s,\n  \"inputs\": ", g->has_self ? "true" : "false");
  js_values(f, (const Value *const *)g->top->params, g->top->nparams);
  fputs(",\n  \"outputs\": ", f);
  js_values(f, (const Value *const *)g->top->rets, g->top->nrets);
  fputs(",\n  \"values\": [\n", f);
  JsVals j = {f, g, true};
  for (int i = 0; i < g->top->nparams; i++) js_value(&j, g->top->params[i]);
  ir_walk(g->top, js_node_values, &j);
  fputs("\n  ],\n  \"nodes\": ", f);
  js_nodes(f, g->top, 2);
  fputs("\n}\n", f);
}
