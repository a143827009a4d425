/* emit_c.c — the C emitter. Walks a planned graph and writes one self-contained C11 file:
 * the kernel library (pasted from the op families' headers), the constants as static data, a
 * run function that calls one kernel per node on descriptors laid out by the memory plan, and
 * the model description the runtime reads; plus the header declaring NAME_create().
 *
 * Every tensor value becomes a `mck_tensor t_<id>` (its comment names the IR value); scalars
 * that are not constants become `mck_arg s_<id>`. Inputs are read from in[i] on every run —
 * one descriptor per storage, never a stale copy — so zero-copy bindings and in-place updates of
 * inputs land in the caller's buffer. Output is deterministic: no pointers, paths or times. */
#include "emit.h"
#include "emit_text.h"
#include "kernel_lib.h"

#include "ops/ops.h"
#include "ops/k_conv.h"   /* kconv_conv_prepack: weights packed here as the kernels read them */
#include "ops/k_linalg.h" /* kl_prepack_linear */
#include "passes/pass.h"
#include "passes/dynshape.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

typedef struct Emitter {
  Graph *g;
  const EmitOptions *o;
  FILE *c;
  Diag *d;
  Plan plan;
  int errs;
  size_t blob_bytes; /* bytes written to o->blob so far */
  size_t *blob_off;  /* by value id: offset in the blob + 1, 0 = inline */
  size_t (*swaps)[3]; /* blob regions of multi-byte elements: offset, bytes, element size */
  int nswaps, capswaps;
  struct Prepack *pk; /* by value id of a convolution's output: its weight, prepacked */
  const DynInfo *dyn; /* a graph with dynamic extents (docs/dynamic.md), else NULL */
} Emitter;

/* A convolution or linear weight packed at compile time into the GEMM's canonical panels (k_conv.h
 * kconv_conv_prepack), handed to the kernel through ctx.pack. The kernel checks kind and sizes
 * against its own plan and falls back to the plain weight on any mismatch. */
typedef struct Prepack {
  int kind;            /* 0: none; conv: 1 A panels of W, 2 B panels of W^T (kconv_conv_ct);
                          linear: 3 B panels of W^T */
  int64_t m, k, g;     /* output channels (features) per group, K per group, groups */
  size_t blob_off;     /* offset in the blob + 1, 0 = inline array pk_<id> */
} Prepack;

static const char *mck_dtype_macro(DType t) {
  static const char *const nm[DT_COUNT] = {"MCK_F32", "MCK_F64", "MCK_F16", "MCK_BF16", "MCK_I64",
                                           "MCK_I32", "MCK_I16", "MCK_I8",  "MCK_U8",   "MCK_BOOL"};
  return t >= 0 && t < DT_COUNT ? nm[t] : "MCK_F32";
}

static void put_cstring(FILE *f, const char *s) { emit_text_string(f, s); }

/* An int64 as a C literal: INT64_MIN has none (INT64_C(-9223372036854775808) is the negation
 * of a literal too large for int64_t). The text lives until the next few calls. */
static const char *i64_lit(int64_t x) {
  static char buf[4][32];
  static int k;
  char *b = buf[k++ & 3];
  if (x == INT64_MIN) snprintf(b, 32, "INT64_MIN");
  else snprintf(b, 32, "INT64_C(%lld)", (long long)x);
  return b;
}

static void put_double(FILE *f, double x) {
  if (isnan(x)) fputs("NAN", f);
  else if (isinf(x)) fputs(x > 0 ? "INFINITY" : "-INFINITY", f);
  else fprintf(f, "%a", x);
}

/* ---- constants --------------------------------------------------------------------------- */
static const char *ctype_of(DType t) {
  switch (t) {
  case DT_F32: return "float";
  case DT_F64: return "double";
  case DT_I64: return "int64_t";
  case DT_I32: return "int32_t";
  case DT_I16: return "int16_t";
  case DT_I8: return "int8_t";
  case DT_U8: case DT_BOOL: return "uint8_t";
  case DT_F16: case DT_BF16: return "uint16_t";
  default: return "uint8_t";
  }
}

/* Writes nbytes of data (elements of elsize bytes, in this machine's byte order) to the blob
 * (64-byte aligned) when it is on and the data is large enough; returns its offset + 1 there, or
 * 0 when the caller must emit it inline. The blob is always little-endian: a big-endian target
 * swaps the regions recorded in e->swaps once, at create (emit_blob_byte_order). */
static size_t emit_blob_data(Emitter *e, const char *what, const void *data, size_t nbytes, size_t elsize) {
  if (!e->o->blob || nbytes < e->o->blob_threshold || nbytes == 0) return 0;
  if (elsize > 1) {
    if (e->nswaps == e->capswaps) {
      int cap = e->capswaps ? 2 * e->capswaps : 16;
      void *p = realloc(e->swaps, (size_t)cap * sizeof *e->swaps);
      if (!p) return 0; /* inline C data is right in any byte order */
      e->swaps = p;
      e->capswaps = cap;
    }
  }
  static const char zeros[64];
  size_t pad = (64 - e->blob_bytes % 64) % 64;
  if (pad) fwrite(zeros, 1, pad, e->o->blob);
  e->blob_bytes += pad;
  if (elsize > 1) {
    size_t *r = e->swaps[e->nswaps++];
    r[0] = e->blob_bytes, r[1] = nbytes, r[2] = elsize;
  }
  const uint16_t one = 1;
  if (elsize > 1 && *(const unsigned char *)&one == 0) { /* a big-endian host writes little-endian */
    const unsigned char *src = data;
    unsigned char el[16];
    for (size_t i = 0; i + elsize <= nbytes; i += elsize) {
      for (size_t b = 0; b < elsize; b++) el[b] = src[i + elsize - 1 - b];
      fwrite(el, 1, elsize, e->o->blob);
    }
  } else {
    fwrite(data, 1, nbytes, e->o->blob);
  }
  fprintf(e->c, "/* %s: %zu bytes at offset %zu of %s */\n", emit_text_cm(what), nbytes, e->blob_bytes,
          emit_text_cm(e->o->blob_name));
  e->blob_bytes += nbytes;
  return e->blob_bytes - nbytes + 1;
}

static void emit_data_array(Emitter *e, const char *sym, const char *what, const IrTensor *t);

/* After the blob's .incbin: NAME_W_, the weights as the kernels read them. On a little-endian
 * target that is the blob itself; a big-endian target copies it once (at create, or at the first
 * run of a model made from NAME_def directly) into a static buffer with every multi-byte element
 * swapped. A compiler that does not state its byte order gets an #error, never wrong numbers. */
static void emit_blob_byte_order(Emitter *e) {
  FILE *c = e->c;
  const char *name = e->o->name;
  fputs("/* The weights file holds little-endian data; a big-endian target swaps it once. */\n", c);
  fputs("#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__\n", c);
  fprintf(c, "#define %s_W_ %s_weights_\nstatic void %s_weights_prepare_(void) {}\n", name, name, name);
  fputs("#elif defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__\n", c);
  fprintf(c, "static const size_t %s_swaps_[][3] = {", name);
  for (int i = 0; i < e->nswaps; i++)
    fprintf(c, "%s{%zu, %zu, %zu}", i ? ", " : "", e->swaps[i][0], e->swaps[i][1], e->swaps[i][2]);
  if (!e->nswaps) fputs("{0, 0, 1}", c);
  fputs("};\n", c);
  fprintf(c, "static unsigned char %s_W_[%zu] __attribute__((aligned(64)));\n", name, e->blob_bytes);
  fprintf(c, "static int %s_W_ready_;\n", name);
  fprintf(c, "static void %s_weights_prepare_(void) {\n"
             "  if (%s_W_ready_) return;\n"
             "  memcpy(%s_W_, %s_weights_, sizeof %s_W_);\n"
             "  for (size_t r = 0; r < sizeof %s_swaps_ / sizeof %s_swaps_[0]; r++) {\n"
             "    size_t es = %s_swaps_[r][2];\n"
             "    unsigned char *p = %s_W_ + %s_swaps_[r][0];\n"
             "    for (size_t i = 0; es > 1 && i + es <= %s_swaps_[r][1]; i += es)\n"
             "      for (size_t b = 0; b < es / 2; b++) {\n"
             "        unsigned char t_ = p[i + b];\n"
             "        p[i + b] = p[i + es - 1 - b];\n"
             "        p[i + es - 1 - b] = t_;\n"
             "      }\n"
             "  }\n"
             "  %s_W_ready_ = 1;\n"
             "}\n",
          name, name, name, name, name, name, name, name, name, name, name, name);
  fputs("#else\n#error \"mc: the weights file is little-endian and this compiler does not state its byte order (__BYTE_ORDER__)\"\n#endif\n", c);
}

static void emit_constant_data(Emitter *e, const Value *v, const IrTensor *t) {
  char what[160], sym[32];
  snprintf(what, sizeof what, "%%%s", v->name);
  snprintf(sym, sizeof sym, "c_%d", v->id);
  e->blob_off[v->id] = emit_blob_data(e, what, t->data, t->nbytes, ir_dtype_size(t->dtype));
  if (!e->blob_off[v->id]) emit_data_array(e, sym, what, t);
}

/* static const <ctype> sym[] = {...}; the elements of t as exact C literals. */
static void emit_data_array(Emitter *e, const char *sym, const char *what, const IrTensor *t) {
  FILE *f = e->c;
  size_t es = ir_dtype_size(t->dtype);
  size_t n = es ? t->nbytes / es : 0;
  fprintf(f, "/* %s */\nstatic _Alignas(64) const %s %s[%zu] = {", emit_text_cm(what), ctype_of(t->dtype), sym, n ? n : 1);
  if (n == 0) fputs("0", f);
  for (size_t i = 0; i < n; i++) {
    if (i % 8 == 0) fputs("\n  ", f);
    const char *p = (const char *)t->data + i * es;
    switch (t->dtype) {
    case DT_F32: {
      float x;
      memcpy(&x, p, 4);
      if (isnan(x) || isinf(x)) put_double(f, x);
      else fprintf(f, "%af", (double)x);
      break;
    }
    case DT_F64: {
      double x;
      memcpy(&x, p, 8);
      put_double(f, x);
      break;
    }
    case DT_I64: {
      int64_t x;
      memcpy(&x, p, 8);
      if (x == INT64_MIN) fputs("INT64_MIN", f);
      else fprintf(f, "INT64_C(%lld)", (long long)x);
      break;
    }
    case DT_I32: { int32_t x; memcpy(&x, p, 4); fprintf(f, "%ld", (long)x); break; }
    case DT_I16: { int16_t x; memcpy(&x, p, 2); fprintf(f, "%d", x); break; }
    case DT_I8: fprintf(f, "%d", (int)*(const int8_t *)p); break;
    case DT_F16: case DT_BF16: { uint16_t x; memcpy(&x, p, 2); fprintf(f, "%u", x); break; }
    default: fprintf(f, "%u", (unsigned)*(const uint8_t *)p); break;
    }
    fputs(i + 1 < n ? "," : "", f);
  }
  fputs("\n};\n", f);
}

/* ---- prepacked convolution weights ----------------------------------------------------- */
/* The prepacking plan of node n (kind 0: none) and its weight's data: a non-transposed float32
 * convolution with a constant weight that runs on the GEMM (not the direct depthwise loop),
 * with the product the kernel will choose for its statically known output size. */
static Prepack conv_prepack_plan(const Node *n, const IrTensor **wt) {
  Prepack p = {0};
  int gidx = 6;
  if (ir_node_is(n, "aten::linear") || ir_node_is(n, "mc::linear_act")) {
    /* linear: W^T as canonical B panels, for the GEMM and the one-row products alike */
    if (n->ninputs < 2 || n->noutputs < 1) return p;
    const Attr *wa = ir_constant_attr(n->inputs[1]);
    const Type *xt = n->inputs[0]->type;
    if (!wa || wa->kind != ATTR_TENSOR || !wa->t || !wa->t->data || wa->t->dtype != DT_F32 ||
        wa->t->ndim != 2 || wa->t->shape[0] < 1 || wa->t->shape[1] < 1 ||
        wa->t->nbytes != (size_t)(wa->t->shape[0] * wa->t->shape[1]) * 4 ||
        xt->kind != TY_TENSOR || xt->dtype != DT_F32)
      return p;
    p.kind = 3;
    p.m = wa->t->shape[0];
    p.k = wa->t->shape[1];
    p.g = 1;
    *wt = wa->t;
    return p;
  }
  if (ir_node_is(n, "aten::_convolution")) {
    const Attr *tr = n->ninputs > 6 ? ir_constant_attr(n->inputs[6]) : NULL;
    if (!tr || (tr->kind != ATTR_BOOL && tr->kind != ATTR_INT) || tr->i) return p;
    gidx = 8;
  } else if (!ir_node_is(n, "aten::conv1d") && !ir_node_is(n, "aten::conv2d") &&
             !ir_node_is(n, "aten::conv3d") && !ir_node_is(n, "aten::_convolution_mode") &&
             !ir_node_is(n, "mc::conv_act")) {
    return p;
  }
  if (n->ninputs < 2 || n->noutputs < 1) return p;
  const Type *xt = n->inputs[0]->type, *yt = n->outputs[0]->type;
  const Attr *wa = ir_constant_attr(n->inputs[1]);
  if (!wa || wa->kind != ATTR_TENSOR || !wa->t || !wa->t->data) return p;
  const IrTensor *w = wa->t;
  int nsp = w->ndim - 2;
  int64_t numel = 1;
  for (int i = 0; i < w->ndim; i++) numel *= w->shape[i] > 0 ? w->shape[i] : 0;
  if (w->dtype != DT_F32 || nsp < 1 || nsp > 3 || numel == 0 || w->nbytes != (size_t)numel * 4) return p;
  if (xt->kind != TY_TENSOR || xt->dtype != DT_F32 || yt->kind != TY_TENSOR || yt->ndim < nsp + 1) return p;
  int64_t G = 1;
  if (n->ninputs > gidx) {
    const Attr *ga = ir_constant_attr(n->inputs[gidx]);
    if (!ga || ga->kind != ATTR_INT) return p;
    G = ga->i;
  }
  int64_t Cout = w->shape[0], cg = w->shape[1], K = 1, P = 1;
  if (G < 1 || Cout % G || cg < 1) return p;
  for (int i = 2; i < w->ndim; i++) K *= w->shape[i];
  for (int i = yt->ndim - nsp; i < yt->ndim; i++) {
    if (yt->shape[i] < 1) return p;
    P *= yt->shape[i];
  }
  int64_t mg = Cout / G;
  if (mg < 1 || K < 1 || kconv_conv_direct(cg, mg)) return p; /* the direct loop has no GEMM */
  p.kind = kconv_conv_ct(P, mg) ? 2 : 1;
  p.m = mg;
  p.k = cg * K;
  p.g = G;
  *wt = w;
  return p;
}

/* Packs and emits the weight of every convolution that has a plan (blob or pk_<id>). */
static void emit_prepacked(Emitter *e) {
  for (int k = 0; k < e->plan.nnodes; k++) {
    const Node *n = e->plan.order[k];
    const IrTensor *w = NULL;
    Prepack p = conv_prepack_plan(n, &w);
    if (!p.kind) continue;
    int64_t nf = p.kind == 3 ? kl_prepack_linear_size(p.m, p.k) : kconv_conv_prepack_size(p.kind == 2, p.g, p.m, p.k);
    float *src = malloc(w->nbytes), *dst = malloc((size_t)nf * sizeof(float));
    if (!src || !dst) {
      free(src);
      free(dst);
      continue; /* the kernel packs at run time instead */
    }
    memcpy(src, w->data, w->nbytes);
    if (p.kind == 3) kl_prepack_linear(p.m, p.k, src, dst);
    else kconv_conv_prepack(p.kind == 2, p.g, p.m, p.k, src, dst);
    const Value *v = n->outputs[0];
    char what[160], sym[32];
    snprintf(what, sizeof what, "weight of %%%s, packed for the GEMM", v->name);
    snprintf(sym, sizeof sym, "pk_%d", v->id);
    p.blob_off = emit_blob_data(e, what, dst, (size_t)nf * sizeof(float), sizeof(float));
    if (!p.blob_off) {
      IrTensor t = {.dtype = DT_F32, .ndim = 1, .shape = {nf}, .data = dst, .nbytes = (size_t)nf * sizeof(float)};
      emit_data_array(e, sym, what, &t);
    }
    e->pk[v->id] = p;
    free(src);
    free(dst);
  }
}

/* Elements of a tensor type of static shape; -1 when not static (or absurdly large). */
static int64_t tensor_numel(const Type *t) {
  if (!t || t->kind != TY_TENSOR || t->ndim < 0) return -1;
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++) {
    if (t->shape[i] < 0 || (t->shape[i] && n > INT64_MAX / 16 / t->shape[i])) return -1;
    n *= t->shape[i];
  }
  return n;
}

/* Elements of graph input v with every Dim at its max; -1 when not static. */
static int64_t input_max_numel(const Graph *g, const Value *v) {
  const Type *t = v->type;
  if (!t || t->kind != TY_TENSOR || t->ndim < 0) return -1;
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++) {
    const IrDim *dm = dyn_input_dim(g, v, i);
    int64_t x = dm ? dm->max : t->shape[i];
    if (x < 0 || (x && n > INT64_MAX / 16 / x)) return -1;
    n *= x;
  }
  return n;
}

/* Whether tensor v is compact row-major whenever a kernel reads it: a graph input, a constant
 * or the output of a pure kernel (fresh, laid out as declared), not a view of another tensor. */
static bool value_is_compact(const Value *v) {
  const Node *p = v->def;
  if (!p) return v->param_of && !v->param_of->owner; /* the graph's inputs are bound compact */
  if (ir_node_is(p, "prim::Constant")) return true;
  const OpDef *op = (const OpDef *)p->op;
  if (!op || (op->flags & OPF_STRUCTURAL)) return false;
  /* reshape / flatten / contiguous of a compact tensor: a compact view, or a compact copy */
  if (op->flags & OPF_MAYBE_VIEW) return p->ninputs > 0 && value_is_compact(p->inputs[0]);
  return op->effect == EFF_PURE;
}

/* Whether linear node n (weight prepacked, kind 3) always takes kl_linear_f32's packed path:
 * float32 compact input and bias, few rows or a weight whose panels are all full. Then its
 * plain weight is never read (k_linalg.h fails cleanly if it were). */
static bool linear_packed_only(const Node *n) {
  if (n->ninputs < 2 || n->noutputs < 1) return false;
  const Type *xt = n->inputs[0]->type, *wt = n->inputs[1]->type, *yt = n->outputs[0]->type;
  if (xt->kind != TY_TENSOR || xt->dtype != DT_F32 || xt->ndim < 1 || !value_is_compact(n->inputs[0]) ||
      wt->kind != TY_TENSOR || wt->ndim != 2 || yt->kind != TY_TENSOR || yt->dtype != DT_F32)
    return false;
  int64_t xn = tensor_numel(xt), k = wt->shape[1], rows;
  if (xn <= 0 || k <= 0 || xt->shape[xt->ndim - 1] != k) return false;
  rows = xn / k;
  if (n->ninputs > 2) {
    const Value *b = n->inputs[2];
    if (b->type->kind == TY_TENSOR &&
        (b->type->dtype != DT_F32 || b->type->ndim != 1 || !value_is_compact(b)))
      return false;
    if (b->type->kind != TY_TENSOR && b->type->kind != TY_NONE) return false;
  }
  return rows <= KL_DOT_ROWS || kl_prepack_linear_full(wt->shape[0]);
}

/* Whether linear node n (weight prepacked, kind 3) always takes the packed GEMV: static shapes
 * and at most KL_DOT_ROWS rows besides linear_packed_only. Its call is then to kl_linear_gemv,
 * which has no other path (k_linalg.h), so the GEMM and the generic product are not pasted. */
static bool linear_gemv_only(const Emitter *e, const Node *n) {
  const IrTensor *w;
  if (e->dyn || conv_prepack_plan(n, &w).kind != 3 || !linear_packed_only(n)) return false;
  const Type *xt = n->inputs[0]->type, *wt = n->inputs[1]->type;
  return tensor_numel(xt) / wt->shape[1] <= KL_DOT_ROWS;
}

/* Whether every convolution in block b (and the blocks in it) has a float32 input: then the
 * kernel's other dtypes (and their double-precision activations, libm's) are compiled out
 * (MCK_CONV_F32_ONLY, k_conv.h). */
static bool convs_f32_only(const Block *b) {
  for (const Node *n = b->first; n; n = n->next) {
    for (int i = 0; i < n->nblocks; i++)
      if (!convs_f32_only(n->blocks[i])) return false;
    const OpDef *op = n->op ? (const OpDef *)n->op : ops_lookup(n->kind);
    if (!op || !op->kernel_name || strncmp(op->kernel_name, "mckc_conv", 9)) continue;
    const Type *t = n->ninputs > 0 ? n->inputs[0]->type : NULL;
    if (!t || t->kind != TY_TENSOR || t->dtype != DT_F32) return false;
  }
  return true;
}

/* Whether every use of constant v is the weight of a prepacked convolution, or of a linear that
 * always reads its packed form: then its own data is never read and is not emitted (the tensor
 * keeps its shape, with no data). */
static bool only_prepacked_uses(const Emitter *e, const Value *v) {
  if (!e->pk || e->dyn) return false; /* dynamic shapes: the kernel may take its unpacked path */
  int packed = 0;
  for (int k = 0; k < e->plan.nnodes; k++) {
    const Node *n = e->plan.order[k];
    for (int i = 0; i < n->ninputs; i++) {
      if (n->inputs[i] != v) continue;
      /* a linear's kernel may still read W (strided inputs take its generic path) */
      int kind = n->noutputs > 0 ? e->pk[n->outputs[0]->id].kind : 0;
      if (i != 1 || (kind != 1 && kind != 2 && (kind != 3 || !linear_packed_only(n)))) return false;
      packed++;
    }
  }
  return packed > 0 && packed == ir_count_uses(e->g, v);
}

/* ---- descriptors ------------------------------------------------------------------------- */
static void put_dims(FILE *f, int ndim, const int64_t *xs) {
  fputc('{', f);
  if (ndim <= 0) fputc('0', f);
  for (int i = 0; i < ndim; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)xs[i]);
  fputc('}', f);
}

/* mck_tensor t_<id> = {data, 0, dtype, ndim, {shape}, {strides}}; */
static void declare_tensor(Emitter *e, const Value *v, const char *data) {
  const Type *t = v->type;
  int64_t st[IR_MAX_DIMS];
  ir_contiguous_strides(t->ndim, t->shape, st);
  fprintf(e->c, "  mck_tensor t_%d = {%s, 0, %s, %d, ", v->id, data, mck_dtype_macro(t->dtype), t->ndim);
  put_dims(e->c, t->ndim, t->shape);
  fputs(", ", e->c);
  put_dims(e->c, t->ndim, st);
  fprintf(e->c, "}; /* %%%s */\n", emit_text_cm(v->name));
}

/* The C expression of input value v as an mck_arg initializer. */
static void put_arg(Emitter *e, const Value *v) {
  FILE *f = e->c;
  const Attr *a = ir_constant_attr(v);
  const Storage *s = &e->plan.st[v->id];
  bool scalar_input = s->kind == ST_INPUT && (v->type->kind == TY_INT || v->type->kind == TY_FLOAT ||
                                              v->type->kind == TY_BOOL);
  if (v->type->kind == TY_TENSOR || (s->kind != ST_NONE && !scalar_input)) {
    fprintf(f, "{MCK_TENSOR, 0, {.t = &t_%d}}", v->id);
    return;
  }
  if (ir_is_constant(v)) {
    if (!a || a->kind == ATTR_NONE) {
      fputs("{MCK_NONE, 0, {.i = 0}}", f);
      return;
    }
    switch (a->kind) {
    case ATTR_INT: fprintf(f, "{MCK_INT, 0, {.i = %s}}", i64_lit(a->i)); return;
    case ATTR_BOOL: fprintf(f, "{MCK_BOOL_ARG, 0, {.i = %d}}", a->i != 0); return;
    case ATTR_FLOAT:
      fputs("{MCK_FLOAT, 0, {.f = ", f);
      put_double(f, a->f);
      fputs("}}", f);
      return;
    case ATTR_STR: case ATTR_DEVICE:
      fprintf(f, "{%s, 0, {.s = ", a->kind == ATTR_STR ? "MCK_STR" : "MCK_DEVICE");
      put_cstring(f, a->s ? a->s : "");
      fputs("}}", f);
      return;
    /* a constant list: a compound literal, which lives to the end of the block; pasted as C++
     * (EmitOptions.embed) a lambda's static array, as C++ has no such literal */
    case ATTR_INTS: case ATTR_BOOLS:
      fprintf(f, "{%s, %d, {.ints = %s{", a->kind == ATTR_INTS ? "MCK_INTS" : "MCK_BOOLS", a->n,
              e->o->embed ? "[]() -> int64_t * { static int64_t a_[] = " : "(int64_t[])");
      for (int i = 0; i < a->n; i++) fprintf(f, "%s%s", i ? ", " : "", i64_lit(a->ints[i]));
      fprintf(f, "%s}%s}}", a->n ? "" : "0", e->o->embed ? "; return a_; }()" : "");
      return;
    case ATTR_FLOATS:
      fprintf(f, "{MCK_FLOATS, %d, {.floats = %s{", a->n, e->o->embed ? "[]() -> double * { static double a_[] = " : "(double[])");
      for (int i = 0; i < a->n; i++) {
        if (i) fputs(", ", f);
        put_double(f, a->floats[i]);
      }
      fprintf(f, "%s}%s}}", a->n ? "" : "0", e->o->embed ? "; return a_; }()" : "");
      return;
    default: break;
    }
  }
  fprintf(f, "s_%d", v->id);
}

static bool is_scalar_type(const Type *t) {
  return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_BOOL || t->kind == TY_NUMBER;
}

/* prim::ListConstruct that is not a constant: a runtime list (tensors, or scalars). */
static void emit_list(Emitter *e, const Node *n) {
  FILE *f = e->c;
  const Value *v = n->outputs[0];
  const Type *el = v->type->elem;
  int k = n->ninputs;
  if (el && (el->kind == TY_TENSOR || el->kind == TY_OPTIONAL)) {
    fprintf(f, "  mck_tensor *l_%d[%d] = {", v->id, k ? k : 1);
    for (int i = 0; i < k; i++) {
      if (ir_constant_is_none(n->inputs[i])) fprintf(f, "%sNULL", i ? ", " : "");
      else fprintf(f, "%s&t_%d", i ? ", " : "", n->inputs[i]->id);
    }
    fprintf(f, "%s};\n  mck_arg s_%d = {MCK_TENSORS, %d, {.ts = l_%d}};\n", k ? "" : "NULL", v->id, k, v->id);
    return;
  }
  bool fl = el && el->kind == TY_FLOAT;
  fprintf(f, "  %s l_%d[%d] = {", fl ? "double" : "int64_t", v->id, k ? k : 1);
  for (int i = 0; i < k; i++) {
    const Value *x = n->inputs[i];
    int64_t iv;
    double dv;
    if (fl && ir_constant_float(x, &dv)) {
      if (i) fputs(", ", f);
      put_double(f, dv);
    } else if (!fl && ir_constant_int(x, &iv)) {
      fprintf(f, "%s%s", i ? ", " : "", i64_lit(iv));
    } else {
      fprintf(f, "%s%s(s_%d)", i ? ", " : "", fl ? "mck_arg_f" : "mck_arg_i", x->id);
    }
  }
  fprintf(f, "%s};\n  mck_arg s_%d = {%s, %d, {.%s = l_%d}};\n", k ? "" : "0", v->id, fl ? "MCK_FLOATS" : "MCK_INTS",
          k, fl ? "floats" : "ints", v->id);
}

static void put_loc_string(Emitter *e, const Node *n) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s:%d:%d: %s%s%s", e->o->source_name ? e->o->source_name : "model", n->loc.line,
           n->loc.col, n->kind, n->py_loc ? " at " : "", n->py_loc ? n->py_loc : "");
  put_cstring(e->c, buf);
}

/* ---- dynamic shapes ---------------------------------------------------------------------
 * In a graph with dynamic extents, a node whose fresh outputs' shapes vary first runs its
 * kernel in meta mode (the kernel is its own shape rule), then each such output is placed in
 * its arena slot, planned for the largest size within the Dims' bounds; a shape that would not
 * fit (which the plan rules out) fails the run with MC_ESHAPE instead of writing past it. */
static const char dyn_helpers[] =
  "static MCK_UNUSED int mc_dyn_place_(mck_tensor *t, char *data, int64_t cap, char *err, const char *where) {\n"
  "  int64_t n = mck_numel(t), es = (int64_t)mck_dtype_size(t->dtype);\n"
  "  if (n < 0 || (n > 0 && n > cap / es)) {\n"
  "    snprintf(err, 256, \"%.120s: output of %lld elements does not fit its %lld planned bytes\", where, (long long)n,\n"
  "             (long long)cap);\n"
  "    return 1;\n"
  "  }\n"
  "  t->data = data;\n"
  "  t->offset = 0;\n"
  "  mck_contiguous_strides(t);\n"
  "  return 0;\n"
  "}\n"
  "/* A reshape that turned out a view at this size: copied into its own slot. */\n"
  "static MCK_UNUSED void mc_dyn_own_(mck_tensor *t, char *slot) {\n"
  "  if ((char *)t->data == slot && t->offset == 0) return;\n"
  "  mck_tensor d = *t;\n"
  "  size_t es = mck_dtype_size(t->dtype);\n"
  "  mck_iter it;\n"
  "  d.data = slot;\n"
  "  d.offset = 0;\n"
  "  mck_contiguous_strides(&d);\n"
  "  mck_iter_init(&it, t->ndim, t->shape, 2, (const int64_t *const[]){d.stride, t->stride}, (const int64_t[]){0, t->offset});\n"
  "  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it))\n"
  "    memcpy(slot + it.off[0] * (int64_t)es, (const char *)t->data + it.off[1] * (int64_t)es, es);\n"
  "  *t = d;\n"
  "}\n"
  "/* A control-flow state (a prim::If output, a loop-carried tensor) takes src's shape in its slot. */\n"
  "static MCK_UNUSED int mc_dyn_take_(mck_tensor *t, const mck_tensor *src, char *slot, int64_t cap, char *err,\n"
  "                                   const char *where) {\n"
  "  t->ndim = src->ndim;\n"
  "  for (int i = 0; i < src->ndim; i++) t->shape[i] = src->shape[i];\n"
  "  return mc_dyn_place_(t, slot, cap, err, where);\n"
  "}\n"
  "static MCK_UNUSED void mc_dyn_out_(mc_io_desc *d, const mck_tensor *t) {\n"
  "  for (int i = 0; i < t->ndim && i < MC_MAX_DIMS; i++) {\n"
  "    d->shape[i] = t->shape[i];\n"
  "    d->strides[i] = t->stride[i];\n"
  "  }\n"
  "}\n\n";

static void emit_dyn_meta(Emitter *e, const Node *n, const OpDef *op, int nin) {
  FILE *f = e->c;
  fprintf(f, "    ctx.meta = 1;\n    if (%s(&ctx, out_, %d, in_, %d)) return mc_fail_(err, &ctx, ", op->kernel_name,
          n->noutputs, nin);
  put_loc_string(e, n);
  fputs(");\n    ctx.meta = 0;\n", f);
  for (int i = 0; i < n->noutputs; i++) {
    const Value *v = n->outputs[i];
    const Storage *s = &e->plan.st[v->id];
    if (v->type->kind != TY_TENSOR) {
      fprintf(f, "    out_[%d] = s_%d;\n", i, v->id);
    } else if (s->kind == ST_ARENA) {
      fprintf(f, "    if (mc_dyn_place_(&t_%d, arena + %zu, %s, err, ", v->id, s->offset, i64_lit((int64_t)s->bytes));
      put_loc_string(e, n);
      fputs(")) return -3; /* MC_ESHAPE */\n", f);
    }
  }
}

/* The model description states a dynamic graph at the Dims' upper bounds: while it is written,
 * the types of the graph inputs and of the outputs whose shapes vary are their shapes at the
 * max (compact strides); dyn_types_restore puts the types back. */
static Type **dyn_types_at_max(Emitter *e) {
  Block *top = e->g->top;
  int n = top->nparams + top->nrets;
  Type **saved = calloc((size_t)n + 1, sizeof *saved);
  if (!saved) return NULL;
  for (int k = 0; k < n; k++) {
    Value *v = k < top->nparams ? top->params[k] : top->rets[k - top->nparams];
    saved[k] = v->type;
    if (v->type->kind != TY_TENSOR || (k >= top->nparams && !e->dyn->varies[v->id])) continue;
    Type *t = ir_type_copy(e->g->arena, v->type);
    for (int i = 0; i < t->ndim; i++) {
      const IrDim *dm = k < top->nparams ? dyn_input_dim(e->g, v, i) : NULL;
      if (k >= top->nparams) t->shape[i] = e->dyn->max_shape[v->id][i];
      else if (dm) t->shape[i] = dm->max;
    }
    t->has_strides = false;
    v->type = t;
  }
  return saved;
}

static void dyn_types_restore(Emitter *e, Type **saved) {
  Block *top = e->g->top;
  for (int k = top->nparams + top->nrets - 1; k >= 0; k--) /* backwards: a value may be both */
    (k < top->nparams ? top->params[k] : top->rets[k - top->nparams])->type = saved[k];
  free(saved);
}

static void emit_call(Emitter *e, const Node *n, const OpDef *op, const Value *const *ins, int nin) {
  FILE *f = e->c;
  /* declare outputs */
  for (int i = 0; i < n->noutputs; i++) {
    const Value *v = n->outputs[i];
    const Storage *s = &e->plan.st[v->id];
    if (v->type->kind == TY_TENSOR) {
      if (s->kind == ST_ARENA) {
        char data[64];
        snprintf(data, sizeof data, "arena + %zu", s->offset);
        declare_tensor(e, v, data);
      } else {
        fprintf(f, "  mck_tensor t_%d; /* %%%s: view */\n", v->id, emit_text_cm(v->name));
        fprintf(f, "  memset(&t_%d, 0, sizeof t_%d);\n", v->id, v->id);
      }
    } else if (v->type->kind == TY_LIST) {
      fprintf(f, "  int64_t l_%d[64];\n  mck_arg s_%d = {MCK_INTS, 0, {.ints = l_%d}};\n", v->id, v->id, v->id);
    } else {
      const char *k = v->type->kind == TY_FLOAT ? "MCK_FLOAT" : v->type->kind == TY_BOOL ? "MCK_BOOL_ARG"
                      : v->type->kind == TY_INT ? "MCK_INT" : "MCK_UNKNOWN";
      fprintf(f, "  mck_arg s_%d = {%s, 0, {.i = 0}}; /* %%%s */\n", v->id, k, emit_text_cm(v->name));
    }
  }
  fputs("  {\n", f);
  fprintf(f, "    mck_arg in_[%d] = {", nin ? nin : 1);
  for (int i = 0; i < nin; i++) {
    if (i) fputs(", ", f);
    put_arg(e, ins[i]);
  }
  if (!nin) fputs("{MCK_NONE, 0, {.i = 0}}", f);
  fprintf(f, "};\n    mck_arg out_[%d] = {", n->noutputs ? n->noutputs : 1);
  for (int i = 0; i < n->noutputs; i++) {
    const Value *v = n->outputs[i];
    if (i) fputs(", ", f);
    if (v->type->kind == TY_TENSOR) fprintf(f, "{MCK_TENSOR, 0, {.t = &t_%d}}", v->id);
    else fprintf(f, "s_%d", v->id);
  }
  if (!n->noutputs) fputs("{MCK_NONE, 0, {.i = 0}}", f);
  fputs("};\n", f);
  const Prepack *pk = n->noutputs > 0 && e->pk ? &e->pk[n->outputs[0]->id] : NULL;
  bool meta = false; /* a fresh output whose shape is known at run time only */
  for (int i = 0; e->dyn && i < n->noutputs; i++) {
    const Value *v = n->outputs[i];
    meta |= v->type->kind == TY_TENSOR && e->plan.st[v->id].kind == ST_ARENA && e->dyn->varies[v->id];
  }
  /* the meta call first: a kernel takes ctx.pack (and clears it) in either mode */
  if (meta) emit_dyn_meta(e, n, op, nin);
  if (pk && pk->kind) {
    if (pk->blob_off) fprintf(f, "    ctx.pack = (const float *)(void *)(%s_W_ + %zu);\n", e->o->name, pk->blob_off - 1);
    else fprintf(f, "    ctx.pack = pk_%d;\n", n->outputs[0]->id);
    fprintf(f, "    ctx.pack_kind = %d;\n    ctx.pack_m = %lld;\n    ctx.pack_k = %lld;\n    ctx.pack_g = %lld;\n", pk->kind,
            (long long)pk->m, (long long)pk->k, (long long)pk->g);
  }
  const char *kernel = pk && pk->kind == 3 && linear_gemv_only(e, n) ? "kl_linear_gemv" : op->kernel_name;
  fprintf(f, "    if (%s(&ctx, out_, %d, in_, %d)) return mc_fail_(err, &ctx, ", kernel, n->noutputs, nin);
  put_loc_string(e, n);
  fputs(");\n", f);
  for (int i = 0; i < n->noutputs; i++)
    if (n->outputs[i]->type->kind != TY_TENSOR) fprintf(f, "    s_%d = out_[%d];\n", n->outputs[i]->id, i);
  if (e->dyn && (op->flags & OPF_MAYBE_VIEW) && n->noutputs > 0 && e->plan.st[n->outputs[0]->id].kind == ST_ARENA)
    fprintf(f, "    mc_dyn_own_(&t_%d, arena + %zu);\n", n->outputs[0]->id, e->plan.st[n->outputs[0]->id].offset);
  fputs("  }\n", f);
}

/* Copies tensor value src into the tensor descriptor named dst (cast and broadcast as copy_
 * does; correct when they overlap). */
static void emit_copy(Emitter *e, const char *dst, const Value *src, const Node *at) {
  FILE *f = e->c;
  const OpDef *cp = ops_lookup("aten::copy_");
  if (!cp || !cp->kernel) {
    diag_error(e->d, at->loc, "internal: no aten::copy_ kernel");
    e->errs++;
    return;
  }
  fprintf(f, "  {\n    mck_tensor dummy_;\n    memset(&dummy_, 0, sizeof dummy_);\n");
  fprintf(f, "    mck_arg in_[3] = {{MCK_TENSOR, 0, {.t = &%s}}, ", dst);
  put_arg(e, src);
  fprintf(f, ", {MCK_BOOL_ARG, 0, {.i = 0}}};\n    mck_arg out_[1] = {{MCK_TENSOR, 0, {.t = &dummy_}}};\n");
  fprintf(f, "    if (%s(&ctx, out_, 1, in_, 3)) return mc_fail_(err, &ctx, ", cp->kernel_name);
  put_loc_string(e, at);
  fputs(");\n  }\n", f);
}

/* The C expression (an mck_arg rvalue) of a scalar value. */
static void put_arg_expr(Emitter *e, const Value *v) {
  if (ir_is_constant(v)) {
    fputs("(mck_arg)", e->c);
    put_arg(e, v);
  } else {
    fprintf(e->c, "s_%d", v->id);
  }
}

/* The C expression (an int64_t) of an int or bool scalar value. */
static void put_int_expr(Emitter *e, const Value *v) {
  int64_t x;
  if (ir_constant_int(v, &x)) fprintf(e->c, "%s", i64_lit(x));
  else fprintf(e->c, "mck_arg_i(s_%d)", v->id);
}

static void emit_block(Emitter *e, const Block *b);

static void declare_scalar(Emitter *e, const Value *v) {
  const char *k = v->type->kind == TY_FLOAT ? "MCK_FLOAT" : v->type->kind == TY_BOOL ? "MCK_BOOL_ARG"
                  : v->type->kind == TY_INT ? "MCK_INT" : "MCK_UNKNOWN";
  fprintf(e->c, "  mck_arg s_%d = {%s, 0, {.i = 0}}; /* %%%s */\n", v->id, k, emit_text_cm(v->name));
}

static bool declare_state(Emitter *e, const Value *v, const Node *at) {
  const Storage *s = &e->plan.st[v->id];
  if (v->type->kind == TY_TENSOR) {
    if (s->kind != ST_ARENA) {
      diag_error(e->d, at->loc, "internal: %%%s has no storage", v->name);
      e->errs++;
      return false;
    }
    char data[64];
    snprintf(data, sizeof data, "arena + %zu", s->offset);
    declare_tensor(e, v, data);
  } else if (v->type->kind == TY_INT || v->type->kind == TY_FLOAT || v->type->kind == TY_BOOL ||
             v->type->kind == TY_NUMBER) {
    declare_scalar(e, v);
  } else {
    diag_error(e->d, at->loc, "'%s' carries %%%s of a type the C backend cannot hold yet", at->kind, v->name);
    e->errs++;
    return false;
  }
  return true;
}

/* Stores block result r into the state or output variable of value `to`. */
static void emit_store(Emitter *e, const Value *to, const Value *r, const Node *at) {
  if (to == r || (r->def && ir_node_is(r->def, "prim::Uninitialized"))) return;
  if (to->type->kind == TY_TENSOR) {
    char dst[32];
    snprintf(dst, sizeof dst, "t_%d", to->id);
    if (e->dyn && r->type->kind == TY_TENSOR && !ir_is_constant(r)) { /* the state takes r's shape of this run */
      const Storage *s = &e->plan.st[to->id];
      fprintf(e->c, "  if (mc_dyn_take_(&t_%d, &t_%d, arena + %zu, %s, err, ", to->id, r->id, s->offset,
              i64_lit((int64_t)s->bytes));
      put_loc_string(e, at);
      fputs(")) return -3; /* MC_ESHAPE */\n", e->c);
    }
    emit_copy(e, dst, r, at);
  } else {
    fprintf(e->c, "  s_%d = ", to->id);
    put_arg_expr(e, r);
    fputs(";\n", e->c);
  }
}

/* prim::If: outputs live outside both branches; each branch stores its results into them. */
static void emit_if(Emitter *e, const Node *n) {
  FILE *f = e->c;
  for (int i = 0; i < n->noutputs; i++)
    if (!declare_state(e, n->outputs[i], n)) return;
  fputs("  if (", f);
  put_int_expr(e, n->inputs[0]);
  fputs(") {\n", f);
  for (int k = 0; k < 2 && k < n->nblocks; k++) {
    if (k) fputs("  } else {\n", f);
    emit_block(e, n->blocks[k]);
    for (int i = 0; i < n->noutputs; i++) emit_store(e, n->outputs[i], n->blocks[k]->rets[i], n);
  }
  fputs("  }\n", f);
}

/* prim::Loop(max_trip, cond, init...): the carried values live in state variables (the block's
 * parameters) that each iteration's results are stored into; the loop's outputs are the state. */
static void emit_loop(Emitter *e, const Node *n) {
  FILE *f = e->c;
  const Block *body = n->blocks[0];
  int nc = n->ninputs - 2;
  for (int k = 0; k < nc; k++)
    if (!declare_state(e, body->params[k + 1], n)) return;
  for (int k = 0; k < nc; k++) emit_store(e, body->params[k + 1], n->inputs[k + 2], n);
  /* A result that reads another carried value's state must not see it already overwritten. */
  for (int k = 0; k < nc; k++) {
    const Value *r = plan_root(&e->plan, body->rets[k + 1]);
    for (int j = 0; j < nc; j++)
      if (j != k && r == body->params[j + 1]) {
        diag_error(e->d, n->loc, "loop-carried tensors that swap places are not supported by the C backend yet");
        e->errs++;
        return;
      }
  }
  fputs("  {\n    int64_t max_trip_ = ", f);
  put_int_expr(e, n->inputs[0]);
  fputs(";\n    int go_ = (int)", f);
  put_int_expr(e, n->inputs[1]);
  fprintf(f, ";\n    for (int64_t it_%d = 0; go_ && it_%d < max_trip_; it_%d++) {\n", n->id, n->id, n->id);
  fprintf(f, "  mck_arg s_%d = {MCK_INT, 0, {.i = it_%d}};\n  (void)s_%d;\n", body->params[0]->id, n->id,
          body->params[0]->id);
  emit_block(e, body);
  /* scalars through temporaries (they may swap); tensors straight into their state */
  for (int k = 0; k < nc; k++)
    if (body->params[k + 1]->type->kind != TY_TENSOR && body->rets[k + 1] != body->params[k + 1]) {
      fprintf(f, "  mck_arg next_%d_ = ", k);
      put_arg_expr(e, body->rets[k + 1]);
      fputs(";\n", f);
    }
  fputs("  go_ = (int)", f);
  put_int_expr(e, body->rets[0]);
  fputs(";\n", f);
  for (int k = 0; k < nc; k++) {
    const Value *p = body->params[k + 1];
    if (p->type->kind == TY_TENSOR) emit_store(e, p, body->rets[k + 1], n);
    else if (body->rets[k + 1] != p) fprintf(f, "  s_%d = next_%d_;\n", p->id, k);
  }
  fputs("    }\n  }\n", f);
  for (int k = 0; k < nc; k++) {
    const Value *o = n->outputs[k], *p = body->params[k + 1];
    if (o->type->kind == TY_TENSOR) fprintf(f, "  mck_tensor t_%d = t_%d; /* %%%s */\n", o->id, p->id, emit_text_cm(o->name));
    else fprintf(f, "  mck_arg s_%d = s_%d; /* %%%s */\n", o->id, p->id, emit_text_cm(o->name));
    fprintf(f, "  (void)%c_%d;\n", o->type->kind == TY_TENSOR ? 't' : 's', o->id); /* an output may go unread */
  }
}

static void emit_node(Emitter *e, const Node *n) {
  FILE *f = e->c;
  fprintf(f, "  /* %s", emit_text_cm(n->kind));
  for (int i = 0; i < n->noutputs; i++) fprintf(f, "%s%%%s", i ? ", " : " -> ", emit_text_cm(n->outputs[i]->name));
  if (n->py_loc) fprintf(f, "  (%s)", emit_text_cm(n->py_loc));
  fputs(" */\n", f);
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (ir_node_is(n, "prim::Constant")) return; /* declared up front */
  if (ir_node_is(n, "prim::ListConstruct")) {
    emit_list(e, n);
    return;
  }
  if (ir_node_is(n, "mc::write_back")) {
    char dst[32];
    snprintf(dst, sizeof dst, "t_%d", n->inputs[0]->id);
    emit_copy(e, dst, n->inputs[1], n);
    return;
  }
  if (ir_node_is(n, "prim::If")) {
    emit_if(e, n);
    return;
  }
  if (ir_node_is(n, "prim::Loop")) {
    emit_loop(e, n);
    return;
  }
  if (ir_node_is(n, "prim::Uninitialized")) {
    /* only ever returned by a branch that raises: a placeholder nobody reads */
    const Value *v = n->outputs[0];
    if (v->type->kind == TY_TENSOR) fprintf(f, "  mck_tensor t_%d;\n  memset(&t_%d, 0, sizeof t_%d);\n", v->id, v->id, v->id);
    else declare_scalar(e, v);
    return;
  }
  if (ir_node_is(n, "prim::Print") || ir_node_is(n, "aten::warn")) {
    return; /* effects kept in the IR; printing from generated code is not done */
  }
  if (ir_node_is(n, "prim::RaiseException")) {
    const Attr *msg = n->ninputs > 0 ? ir_constant_attr(n->inputs[0]) : NULL;
    const Attr *cls = n->ninputs > 1 ? ir_constant_attr(n->inputs[1]) : NULL;
    fputs("  snprintf(err, 256, \"%.120s: %s: %.100s\", ", f);
    put_loc_string(e, n);
    fputs(", ", f);
    put_cstring(f, cls && cls->kind == ATTR_STR && cls->s ? cls->s : "exception");
    fputs(", ", f);
    put_cstring(f, msg && msg->kind == ATTR_STR && msg->s ? msg->s : "raised");
    fputs(");\n  return -1;\n", f);
    return;
  }
  if (!op || !op->kernel) {
    diag_error(e->d, n->loc, "'%s' cannot be emitted as C (no kernel)", n->kind);
    if (n->py_loc) diag_note(e->d, n->loc, "from PyTorch code at %s", n->py_loc);
    e->errs++;
    return;
  }
  emit_call(e, n, op, (const Value *const *)n->inputs, n->ninputs);
}

static void emit_block(Emitter *e, const Block *b) {
  for (const Node *n = b->first; n && !e->errs; n = n->next) emit_node(e, n);
}

/* By graph input: whether a node writes it (one pass over the nodes for all inputs). */
static bool *inputs_mutated(Emitter *e, int ninputs) {
  bool *m = calloc((size_t)ninputs + 1, sizeof *m);
  if (!m) return NULL;
  for (int k = 0; k < e->plan.nnodes; k++) {
    const Node *n = e->plan.order[k];
    const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
    if (!op || op->effect != EFF_WRITE || op->effect_arg >= n->ninputs) continue;
    const Value *r = plan_root(&e->plan, n->inputs[op->effect_arg]);
    if (r && e->plan.st[r->id].kind == ST_INPUT && e->plan.st[r->id].input >= 0 && e->plan.st[r->id].input < ninputs)
      m[e->plan.st[r->id].input] = true;
  }
  return m;
}

static void put_io_desc(FILE *f, const char *name, DType dt, int ndim, const int64_t *shape, const int64_t *strides,
                        int mutated) {
  fputs("  {", f);
  put_cstring(f, name);
  fprintf(f, ", %d, %d, ", (int)dt, ndim);
  put_dims(f, ndim, shape);
  fputs(", ", f);
  put_dims(f, ndim, strides);
  fprintf(f, ", %d},\n", mutated);
}

/* The weights file's trailer (EmitOptions.build_id): written after the data; returns its size. */
/* A graph input's or output's compact size (a scalar: 8 bytes), rounded up to 64 (EmitEmbed). */
static size_t embed_bytes(const Type *t) {
  int64_t ne = t->kind == TY_TENSOR ? tensor_numel(t) : 1;
  size_t es = t->kind == TY_TENSOR ? ir_dtype_size(t->dtype) : 8;
  return ((ne > 0 ? (size_t)ne : 0) * es + 63) / 64 * 64;
}

static size_t emit_blob_trailer(Emitter *e) {
  if (!e->o->build_id) return 0;
  char t[64] = {0};
  snprintf(t, sizeof t, "mc-weights %s\n", e->o->build_id);
  fwrite(t, 1, sizeof t, e->o->blob);
  return sizeof t;
}

/* NAME_weights_check_(): whether the weights linked in end in this compile's trailer. */
static void emit_blob_check(Emitter *e, size_t trailer) {
  const char *name = e->o->name;
  FILE *c = e->c;
  if (!trailer) {
    fprintf(c, "static int %s_weights_check_(void) { return 0; }\n", name);
    return;
  }
  fprintf(c, "static int %s_weights_check_(void) {\n  static const char id_[%zu] = \"mc-weights %s\\n\";\n", name, trailer,
          e->o->build_id);
  /* no stream output in a build without a heap or stdio (bare metal): NULL says it */
  fprintf(c, "  if (memcmp(%s_weights_ + %zu, id_, sizeof id_) == 0) return 0;\n"
             "#if !defined(MC_NO_MALLOC) && !defined(MC_NO_STDIO)\n  fputs(", name, e->blob_bytes);
  char msg[512];
  snprintf(msg, sizeof msg, "%s_create: %s is not the weights file mc wrote with this model's C file: run mc compile again\n",
           name, e->o->blob_name);
  emit_text_string(c, msg);
  fputs(", stderr);\n#endif\n  return -1;\n}\n", c);
}

/* ---- memory without a heap (-DMC_NO_MALLOC) --------------------------------------------- */
/* Upper bounds of the kernels' temporaries, in bytes, for a build without malloc: what one
 * kernel call takes and gives back (copies of operands in a wider or compact form, work rows:
 * at most 8 bytes per element of every tensor it reads or writes, plus the blocks' rounding) and
 * what k_conv.h keeps between calls (kconv_scratch: GEMM panels, transposed convolutions'
 * columns, the depthwise padded plane), bounded from the operands' extents and the blocking
 * constants' largest values on any target (KCONV_MR <= 12, KCONV_NR <= 32, KCONV_MC <= 192,
 * KCONV_NC <= 1024, KCONV_KC <= 512). 0 when a shape is not static. */
static const char no_malloc_pool[] =
  "#ifdef MC_NO_MALLOC\n"
  "/* No heap (-DMC_NO_MALLOC): the kernels' temporaries come from the scratch that follows the\n"
  " * plan in the model's arena (mck_pool_begin_ at every run; its size is mc's bound of what this\n"
  " * model's kernels take). The blocks k_conv.h keeps between calls (kconv_scratch's slots) are\n"
  " * fixed at the top, each as large as the most any call of this model asks for; a kernel call's\n"
  " * other blocks come from the bottom and all go back when the last of them is freed. The\n"
  " * kernels' malloc, calloc and free are these (realloc is not used). One mc_run of this model's\n"
  " * code runs at a time: this state is the file's own. */\n"
  "#include <stdlib.h>\n"
  "typedef struct mck_pool_t_ {\n"
  "  char *base;\n"
  "  size_t lo, hi;         /* bottom blocks end at lo, kept blocks start at hi */\n"
  "  int live;              /* bottom blocks not freed yet */\n"
  "  size_t off[4], cap[4]; /* kept blocks */\n"
  "} mck_pool_t_;\n"
  "static mck_pool_t_ mck_pool_;\n"
  "static MCK_UNUSED void mck_pool_begin_(void *base, size_t size, const size_t keep[4]) {\n"
  "  memset(&mck_pool_, 0, sizeof mck_pool_);\n"
  "  mck_pool_.base = (char *)base;\n"
  "  mck_pool_.hi = size;\n"
  "  for (int k = 0; k < 4; k++) {\n"
  "    mck_pool_.hi -= keep[k];\n"
  "    mck_pool_.off[k] = mck_pool_.hi;\n"
  "    mck_pool_.cap[k] = keep[k];\n"
  "  }\n"
  "}\n"
  "static MCK_UNUSED void *mck_pool_malloc_(size_t n) {\n"
  "  mck_pool_t_ *p = &mck_pool_;\n"
  "  size_t r = n ? (n + 63) / 64 * 64 : 64;\n"
  "  if (r < n || r > p->hi - p->lo) return NULL;\n"
  "  void *q = p->base + p->lo;\n"
  "  p->lo += r;\n"
  "  p->live++;\n"
  "  return q;\n"
  "}\n"
  "static MCK_UNUSED void *mck_pool_calloc_(size_t n, size_t s) {\n"
  "  if (s && n > (size_t)-1 / s) return NULL;\n"
  "  void *q = mck_pool_malloc_(n * s);\n"
  "  if (q) memset(q, 0, n * s);\n"
  "  return q;\n"
  "}\n"
  "static MCK_UNUSED void mck_pool_free_(void *q) {\n"
  "  if (q && mck_pool_.live > 0 && --mck_pool_.live == 0) mck_pool_.lo = 0;\n"
  "}\n"
  "/* Kept block `slot` (0..3) of n bytes, 64-byte aligned; NULL if larger than its bound. */\n"
  "static MCK_UNUSED void *mck_pool_keep_(int slot, size_t n) {\n"
  "  return n <= mck_pool_.cap[slot] && mck_pool_.cap[slot] ? mck_pool_.base + mck_pool_.off[slot] : NULL;\n"
  "}\n"
  "/* messages without the C library's formatter (mc_runtime.h) */\n"
  "#define snprintf mc_snprintf\n"
  "#define vsnprintf mc_vsnprintf\n"
  "#define malloc(n) mck_pool_malloc_(n)\n"
  "#define calloc(n, s) mck_pool_calloc_(n, s)\n"
  "#define free(q) mck_pool_free_(q)\n"
  "#endif\n"
  "\n";
#define SCRATCH_BLOCK 128 /* a block's rounding to 64 bytes and kconv_aligned's header */
static int64_t ints_max(const Value *v) {
  const Attr *a = ir_constant_attr(v);
  int64_t m = 0;
  if (a && (a->kind == ATTR_INT || a->kind == ATTR_BOOL)) m = a->i;
  if (a && a->kind == ATTR_INTS)
    for (int i = 0; i < a->n; i++) m = a->ints[i] > m ? a->ints[i] : m;
  return m;
}
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* GEMM panels for products of at most M x N x K (kconv_gemm_ws_init_for), in bytes. */
static int64_t panel_a(int64_t m, int64_t k) { return 4 * max64(min64(192, m + 11), 12) * min64(512, max64(k, 1)) + 64; }
static int64_t panel_b(int64_t n, int64_t k) { return 4 * max64(min64(1024, n + 31), 32) * min64(512, max64(k, 1)) + 64; }
/* Whether node n's kernel allocates nothing for one call (only kconv_scratch's slots, if any):
 * a float32 convolution (its GEMM panels and columns are slots), a max pooling, a view or a
 * reshape (a view, or a copy straight into its output). */
static bool takes_no_call_scratch(const Node *n) {
  const OpDef *op = n->op ? (const OpDef *)n->op : ops_lookup(n->kind);
  const char *k = op ? op->kernel_name : NULL;
  if (!k) return false;
  if (!strcmp(k, "mckc_conv") || !strcmp(k, "mckc_conv_act") || !strcmp(k, "mckc_convolution"))
    return n->ninputs > 0 && n->inputs[0]->type->kind == TY_TENSOR && n->inputs[0]->type->dtype == DT_F32;
  return !strcmp(k, "mckc_max_pool1d") || !strcmp(k, "mckc_max_pool2d") ||
         !strcmp(k, "mckc_max_pool2d_with_indices") || !strcmp(k, "ks_flatten") || !strcmp(k, "ks_reshape") ||
         !strcmp(k, "ks_view");
}
/* What node n takes for one call (*call) and for each of kconv_scratch's slots (keep[4]), in
 * bytes; false when an operand's shape is not static. */
static bool node_scratch(const Node *n, int64_t *call, int64_t keep[4]) {
  int64_t d = 1, klast = 1, sum = 512;
  *call = keep[0] = keep[1] = keep[2] = keep[3] = 0;
  for (int side = 0; side < 2; side++) {
    int cnt = side ? n->noutputs : n->ninputs;
    for (int i = 0; i < cnt; i++) {
      const Type *t = (side ? n->outputs : n->inputs)[i]->type;
      if (t->kind != TY_TENSOR) continue;
      int64_t ne = tensor_numel(t);
      if (ne < 0) return false;
      sum += 8 * ne + SCRATCH_BLOCK;
      if (t->ndim >= 1 && t->shape[0] > 0) d = max64(d, max64(t->shape[0], ne / t->shape[0]));
      if (!side && t->ndim >= 1) klast = max64(klast, t->shape[t->ndim - 1]);
      if (!side && t->ndim >= 2) klast = max64(klast, t->shape[t->ndim - 2]);
    }
  }
  *call = takes_no_call_scratch(n) ? 0 : sum;
  const char *op = n->kind;
  bool conv = strstr(op, "conv") != NULL, linear = strstr(op, "linear") != NULL;
  if (!conv && !linear && !strstr(op, "mm") && !strstr(op, "matmul") && !strstr(op, "einsum") &&
      !strstr(op, "tensordot"))
    return true;
  const Type *xt = n->ninputs > 0 ? n->inputs[0]->type : NULL, *wt = n->ninputs > 1 ? n->inputs[1]->type : NULL;
  const Type *yt = n->noutputs > 0 ? n->outputs[0]->type : NULL;
  bool shaped = xt && wt && yt && xt->kind == TY_TENSOR && wt->kind == TY_TENSOR && yt->kind == TY_TENSOR;
  int64_t xn = shaped ? tensor_numel(xt) : -1, wn = shaped ? tensor_numel(wt) : -1, yn = shaped ? tensor_numel(yt) : -1;
  shaped = shaped && xn > 0 && wn > 0 && yn >= 0;
  if (linear && !strstr(op, "bilinear") && shaped && wt->ndim == 2 && wt->shape[1] > 0) {
    int64_t k = wt->shape[1];
    keep[0] = panel_a(xn / k, k);
    keep[1] = panel_b(wt->shape[0], k);
    return true;
  }
  if (conv && shaped && wt->ndim >= 3 && xt->ndim >= 2 && xt->shape[0] > 0) {
    bool transposed = strstr(op, "transpose") != NULL;
    if (ir_node_is(n, "aten::_convolution") && n->ninputs > 6) transposed = ints_max(n->inputs[6]) != 0;
    int64_t wk = wn / wt->shape[0], xk = xn / xt->shape[0];
    if (transposed) {
      keep[0] = panel_a(wk, wt->shape[0]);
      keep[1] = panel_b(xk, wt->shape[0]);
      keep[2] = 4 * wk * xk + 64;
    } else {
      int64_t mn = max64(wt->shape[0], yn / wt->shape[0]);
      keep[0] = panel_a(mn, wk);
      keep[1] = panel_b(mn, wk);
      if (wt->shape[1] == 1) { /* depthwise: the padded plane */
        int64_t pm = max64(wt->shape[wt->ndim - 1], wt->shape[wt->ndim - 2]);
        for (int i = 3; i < n->ninputs && i < 6; i++) pm = max64(pm, ints_max(n->inputs[i]));
        keep[3] = 4 * (xt->shape[xt->ndim - 2] + 2 * pm) * (xt->shape[xt->ndim - 1] + 2 * pm) + 64;
      }
    }
    return true;
  }
  keep[0] = panel_a(d, klast);
  keep[1] = panel_b(d, klast);
  if (conv) keep[2] = keep[3] = 4 * d * d + 64; /* shapes not as expected: generous */
  return true;
}
/* The scratch of the whole run (0 if unknown): the largest call, then a fixed block per slot
 * (each the largest any call asks for; keep[] their sizes, rounded to 64). */
static uint64_t scratch_bound(const Emitter *e, uint64_t keep[4]) {
  uint64_t call = 0, total = 0;
  keep[0] = keep[1] = keep[2] = keep[3] = 0;
  for (int k = 0; k < e->plan.nnodes; k++) {
    const Node *n = e->plan.order[k];
    int64_t c1, k1[4];
    if (ir_node_is(n, "prim::Constant") || linear_gemv_only(e, n)) continue; /* the GEMV takes none */
    if (!node_scratch(n, &c1, k1)) return 0;
    call = (uint64_t)c1 > call ? (uint64_t)c1 : call;
    for (int s = 0; s < 4; s++) keep[s] = (uint64_t)k1[s] > keep[s] ? ((uint64_t)k1[s] + 63) / 64 * 64 : keep[s];
  }
  total = (call + 63) / 64 * 64;
  for (int s = 0; s < 4; s++) total += keep[s];
  return total ? total : 64;
}

int emit_c(Graph *g, const EmitOptions *o, FILE *c, FILE *h, Diag *d) {
  Emitter e = {0};
  e.g = g;
  e.o = o;
  e.c = c;
  e.d = d;
  DynInfo dyn = {0};
  if (ir_graph_is_dynamic(g)) { /* dynamic extents: shapes at the Dims' bounds, a plan that holds them all */
    if (dyn_analyse(g, &dyn, d) ||
        plan_graph_sized(g, &e.plan, o->max_arena_bytes, dyn.bytes, dyn.nvalues, d)) {
      dyn_info_free(&dyn);
      plan_free(&e.plan);
      return 1;
    }
    e.dyn = &dyn;
  } else if (plan_graph_bounded(g, &e.plan, o->max_arena_bytes, d)) {
    plan_free(&e.plan);
    return 1;
  }
  const char *name = o->name;
  Block *top = g->top;
  e.blob_off = calloc((size_t)g->next_value_id + 1, sizeof *e.blob_off);
  /* ---- header ---- */
  char guard[256];
  emit_text_ident(guard, sizeof guard, name);
  for (char *p = guard; *p; p++) *p = (char)toupper((unsigned char)*p);
  fprintf(h, "/* Generated by mc from %s. Do not edit. */\n#ifndef %s_H_\n#define %s_H_\n\n", emit_text_cm(o->source_name),
          guard, guard);
  if (o->build_id) fprintf(h, "#define %s_MC_BUILD_ID 0x%sull /* the mc compile that wrote this file */\n\n", guard, o->build_id);
  fprintf(h, "#include \"mc_runtime.h\"\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  fprintf(h, "/* Inputs:\n");
  for (int i = 0; i < top->nparams; i++) {
    fprintf(h, " *   %d %%%s : ", i, emit_text_cm(top->params[i]->name));
    emit_text_comment_type(h, top->params[i]->type);
    fputs("\n", h);
  }
  fprintf(h, " * Outputs: %d\n */\n", top->nrets);
  fprintf(h, "mc_model *%s_create(void); /* NULL on allocation failure; free with mc_model_destroy */\n", name);
  /* the arena as the def states it (the plan, then one slot per scalar output) */
  size_t arena = e.plan.arena_bytes;
  for (int i = 0; i < top->nrets; i++)
    if (top->rets[i]->type->kind != TY_TENSOR) arena += 64;
  uint64_t keep[4], scratch, in_copies = 0;
  if (e.dyn) { /* the kernels' scratch at the largest extents each value takes within the bounds */
    Type **hi = dyn_types_at_hi(g, e.dyn);
    scratch = hi ? scratch_bound(&e, keep) : 0;
    dyn_types_put_back(g, hi);
  } else {
    scratch = scratch_bound(&e, keep);
  }
  for (int i = 0; i < top->nparams; i++) {
    int64_t ne = e.dyn ? input_max_numel(g, top->params[i]) : tensor_numel(top->params[i]->type);
    uint64_t bytes = ne >= 0 ? (uint64_t)ne * ir_dtype_size(top->params[i]->type->dtype) : 8;
    in_copies += (bytes + 63) / 64 * 64;
  }
  fprintf(h, "/* The same in memory the caller supplies: `mem` 64-byte aligned, at least %s_MEMORY_BYTES\n"
             " * long (the model, its arena, the kernels' scratch with -DMC_NO_MALLOC, a copy of each input);\n"
             " * NULL if misaligned or too small. mc_model_destroy frees nothing of it. */\n", name);
  fprintf(h, "#ifdef MC_NO_MALLOC\n");
  if (scratch && e.dyn)
    fprintf(h, "#define %s_MEMORY_BYTES (MC_MEMORY_BYTES(%d, %d, %zuu + %" PRIu64 "u, %" PRIu64 "u) + MC_DYN_MEMORY_BYTES(%d, %d))\n",
            name, top->nparams, top->nrets, (arena + 63) / 64 * 64, scratch, in_copies, top->nparams, top->nrets);
  else if (scratch)
    fprintf(h, "#define %s_MEMORY_BYTES MC_MEMORY_BYTES(%d, %d, %zuu + %" PRIu64 "u, %" PRIu64 "u)\n", name,
            top->nparams, top->nrets, (arena + 63) / 64 * 64, scratch, in_copies);
  else
    fprintf(h, "#error \"mc: this model's shapes are not all static, so its kernels' scratch has no bound for -DMC_NO_MALLOC\"\n");
  if (e.dyn) /* and the tables of current shapes */
    fprintf(h, "#else\n#define %s_MEMORY_BYTES (MC_MEMORY_BYTES(%d, %d, %zuu, %" PRIu64 "u) + MC_DYN_MEMORY_BYTES(%d, %d))\n#endif\n",
            name, top->nparams, top->nrets, arena, in_copies, top->nparams, top->nrets);
  else
    fprintf(h, "#else\n#define %s_MEMORY_BYTES MC_MEMORY_BYTES(%d, %d, %zuu, %" PRIu64 "u)\n#endif\n", name,
            top->nparams, top->nrets, arena, in_copies);
  fprintf(h, "mc_model *%s_create_in(void *mem, size_t bytes);\n", name);
  fprintf(h, "extern const mc_model_def %s_def;\n", name);
  if (e.dyn) {
    fprintf(h, "/* Dynamic shapes (docs/dynamic.md): %s_def describes the model at the Dims' upper bounds;\n"
               " * %s_create builds it from %s_dyn; mc_input_dim_bounds gives each extent's bounds:\n", name, name, name);
    for (int k = 0; k < g->ndims; k++)
      fprintf(h, " *   Dim '%s' in [%lld, %lld]: %%%s dim %d\n", emit_text_cm(g->dims[k].name), (long long)g->dims[k].min,
              (long long)g->dims[k].max, emit_text_cm(g->dims[k].value->name), g->dims[k].axis);
    fprintf(h, " */\nextern const mc_model_dyn %s_dyn;\n", name);
  }
  fputs("\n#ifdef __cplusplus\n}\n#endif\n#endif\n", h);

  /* ---- source ---- (buffered: only the kernels the rest of it names are pasted, kernel_lib.h) */
  KernelLibOut klib;
  c = e.c = kernel_lib_begin(&klib, c);
  fprintf(c, "/* Generated by mc from %s. Do not edit. */\n", emit_text_cm(o->source_name));
  fprintf(c, "#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n\n");
  const char *bad_include = emit_text_include_ok(o->header_name);
  if (bad_include) {
    diag_error(d, (SrcLoc){o->header_name, 0, 0}, "this header name cannot be written in #include \"...\": %s", bad_include);
    e.errs++;
  } else if (!o->embed) {
    fprintf(c, "#include \"%s\"\n\n", o->header_name);
  }
  if (o->build_id && !bad_include && !o->embed) {
    fprintf(c, "#if !defined(%s_MC_BUILD_ID) || %s_MC_BUILD_ID != 0x%sull\n#error ", guard, guard, o->build_id);
    char msg[512];
    snprintf(msg, sizeof msg, "%s is not the header mc wrote with this file: run mc compile again", o->header_name);
    emit_text_string(c, msg);
    fputs("\n#endif\n\n", c);
  }
  fputs("#if defined(__GNUC__)\n#define MCK_UNUSED __attribute__((unused))\n#else\n#define MCK_UNUSED\n#endif\n\n", c);
  fputs(no_malloc_pool, c);
  if (convs_f32_only(top)) fputs("#define MCK_CONV_F32_ONLY 1 /* every convolution here is float32 */\n\n", c);
  kernel_lib_here(&klib);
  fputs("static inline MCK_UNUSED int64_t mck_arg_i(mck_arg a) { return a.kind == MCK_FLOAT ? (int64_t)a.u.f : a.u.i; }\n", c);
  fputs("static inline MCK_UNUSED double mck_arg_fv(mck_arg a) { return a.kind == MCK_FLOAT ? a.u.f : (double)a.u.i; }\n", c);
  fputs("#define mck_arg_f(a) mck_arg_fv(a)\n", c);
  fputs("static MCK_UNUSED int mc_fail_(char *err, const mck_ctx *ctx, const char *where) {\n"
        "  snprintf(err, 256, \"%.120s: %.120s\", where, ctx->err[0] ? ctx->err : \"kernel failed\");\n"
        "  return -1;\n}\n\n",
        c);
  /* constants */
  fputs("/* ---- constants ---- */\n", c);
  e.pk = calloc((size_t)g->next_value_id + 1, sizeof *e.pk);
  if (e.pk) emit_prepacked(&e);
  for (int k = 0; k < e.plan.nnodes; k++) {
    const Node *n = e.plan.order[k];
    if (!ir_node_is(n, "prim::Constant")) continue;
    const Attr *a = ir_node_attr(n, "value");
    if (a && a->kind == ATTR_TENSOR && ir_count_uses(g, n->outputs[0]) > 0 && !only_prepacked_uses(&e, n->outputs[0])) {
      if (!a->t || !a->t->data) {
        diag_error(d, n->loc, "constant %%%s has no data", n->outputs[0]->name);
        e.errs++;
        continue;
      }
      emit_constant_data(&e, n->outputs[0], a->t);
    }
  }
  if (e.blob_bytes > 0) {
    size_t trailer = emit_blob_trailer(&e);
    fprintf(c, "__asm__(\".section .rodata\\n.balign 64\\n.globl %s_weights_\\n.hidden %s_weights_\\n%s_weights_:\\n"
               ".incbin \\\"", name, name, name);
    emit_text_asm_string(c, o->blob_name);
    fprintf(c, "\\\", 0, %zu\\n.previous\");\n", e.blob_bytes + trailer);
    fprintf(c, "extern const unsigned char %s_weights_[%zu];\n", name, e.blob_bytes + trailer);
    emit_blob_check(&e, trailer);
    emit_blob_byte_order(&e);
  }
  /* scalar outputs need arena slots: reserve them after the plan */
  arena = e.plan.arena_bytes;
  size_t *scalar_slot = calloc((size_t)top->nrets + 1, sizeof *scalar_slot);
  for (int i = 0; i < top->nrets; i++) {
    if (top->rets[i]->type->kind != TY_TENSOR) {
      scalar_slot[i] = arena;
      arena += 64;
    }
  }
  /* A target whose size_t cannot hold the arena, the weights or an input stops at build time. */
  uint64_t biggest = arena > e.blob_bytes ? arena : e.blob_bytes;
  for (int i = 0; i < top->nparams; i++) {
    const Type *t = top->params[i]->type;
    uint64_t bytes = t->kind == TY_TENSOR ? ir_dtype_size(t->dtype) : 0;
    for (int k = 0; k < (t->kind == TY_TENSOR ? t->ndim : 0); k++)
      bytes = t->shape[k] > 0 && bytes > UINT64_MAX / (uint64_t)t->shape[k] ? UINT64_MAX : bytes * (uint64_t)t->shape[k];
    if (bytes > biggest) biggest = bytes;
  }
  fprintf(c, "#if SIZE_MAX < %" PRIu64 "u\n#error \"mc: this model needs %" PRIu64
             " bytes in one block (the arena, the weights or an input), more than this target's size_t holds\"\n#endif\n",
          biggest, biggest);
  /* without a heap the kernels' scratch follows the plan in the arena (64-aligned) */
  fprintf(c, "#ifdef MC_NO_MALLOC\n#define MCK_ARENA_BYTES_ (%zuu + %" PRIu64 "u)\n", (arena + 63) / 64 * 64, scratch);
  fprintf(c, "#if SIZE_MAX < %" PRIu64 "u\n#error \"mc: the arena and the kernels' scratch (%" PRIu64
             " bytes) do not fit this target's size_t\"\n#endif\n", (uint64_t)(arena + 63) / 64 * 64 + scratch,
          (uint64_t)(arena + 63) / 64 * 64 + scratch);
  fputs("#endif\n", c);
  /* run function */
  if (e.dyn || o->embed) { /* embedded: mc_cuda_dyn's run takes the shapes' tables also for fixed shapes */
    fputs(dyn_helpers, c);
    /* the static entry point of a model with dynamic extents refuses to run */
    if (!o->embed)
      fprintf(c, "static int %s_run(void *const *in, void *arena_, void **out, char *err) {\n"
                 "  (void)in;\n  (void)arena_;\n  (void)out;\n"
                 "  snprintf(err, 256, \"this model has dynamic shapes: create it with %s_create (mc_model_new_dyn)\");\n"
                 "  return -1;\n}\n", name, name);
    fprintf(c, "\n/* ---- run ---- */\nstatic int %s_run_dyn_(const mc_io_desc *ind, void *const *in, void *arena_, void **out,\n"
               "                          mc_io_desc *outd, char *err) {\n  (void)ind;\n  (void)outd;\n", name);
  } else {
    fprintf(c, "\n/* ---- run ---- */\nstatic int %s_run(void *const *in, void *arena_, void **out, char *err) {\n", name);
  }
  fprintf(c, "  char *arena = (char *)arena_;\n  mck_ctx ctx;\n  memset(&ctx, 0, sizeof ctx);\n  ctx.nthreads = %s;\n",
          o->embed ? "1" : "mc_runtime_num_threads()");
  fprintf(c, "#ifdef MC_NO_MALLOC\n  static const size_t keep_[4] = {%" PRIu64 "u, %" PRIu64 "u, %" PRIu64 "u, %" PRIu64
             "u};\n  mck_pool_begin_(arena + %zuu, %" PRIu64 "u, keep_);\n#endif\n",
          keep[0], keep[1], keep[2], keep[3], (arena + 63) / 64 * 64, scratch);
  fputs("  (void)arena;\n  (void)in;\n  (void)err;\n", c);
  if (e.blob_bytes > 0) fprintf(c, "  %s_weights_prepare_();\n", name);
  for (int i = 0; i < top->nparams; i++) {
    const Value *v = top->params[i];
    if (v->type->kind == TY_INT || v->type->kind == TY_FLOAT || v->type->kind == TY_BOOL) {
      /* a scalar input: a 0-dim int64 / float64 / uint8 tensor at the runtime API */
      if (v->type->kind == TY_FLOAT)
        fprintf(c, "  mck_arg s_%d; s_%d.kind = MCK_FLOAT; s_%d.n = 0; memcpy(&s_%d.u.f, in[%d], sizeof(double));\n",
                v->id, v->id, v->id, v->id, i);
      else if (v->type->kind == TY_INT)
        fprintf(c, "  mck_arg s_%d; s_%d.kind = MCK_INT; s_%d.n = 0; memcpy(&s_%d.u.i, in[%d], sizeof(int64_t));\n",
                v->id, v->id, v->id, v->id, i);
      else
        fprintf(c, "  mck_arg s_%d; s_%d.kind = MCK_BOOL_ARG; s_%d.n = 0; s_%d.u.i = *(const uint8_t *)in[%d] != 0;\n",
                v->id, v->id, v->id, v->id, i);
      fprintf(c, "  (void)s_%d; /* %%%s */\n", v->id, emit_text_cm(v->name));
      continue;
    }
    if (v->type->kind != TY_TENSOR) {
      diag_error(d, v->loc, "graph input %%%s is not a tensor; only tensor inputs are supported", v->name);
      e.errs++;
      continue;
    }
    char data[32];
    snprintf(data, sizeof data, "in[%d]", i);
    declare_tensor(&e, v, data);
    fprintf(c, "  (void)t_%d; /* an input may go unread */\n", v->id);
    bool shaped = false;
    for (int k = 0; e.dyn && k < v->type->ndim; k++)
      if (dyn_input_dim(g, v, k)) {
        fprintf(c, "  t_%d.shape[%d] = ind[%d].shape[%d]; /* Dim '%s' */\n", v->id, k, i, k,
                emit_text_cm(dyn_input_dim(g, v, k)->name));
        shaped = true;
      }
    if (shaped) fprintf(c, "  mck_contiguous_strides(&t_%d);\n", v->id);
  }
  for (int k = 0; k < e.plan.nnodes; k++) {
    const Node *n = e.plan.order[k];
    if (!ir_node_is(n, "prim::Constant") || n->outputs[0]->type->kind != TY_TENSOR) continue;
    if (ir_count_uses(g, n->outputs[0]) == 0) continue;
    char data[128];
    if (only_prepacked_uses(&e, n->outputs[0]))
      snprintf(data, sizeof data, "NULL");
    else if (e.blob_off[n->outputs[0]->id])
      snprintf(data, sizeof data, "(void *)(%s_W_ + %zu)", name, e.blob_off[n->outputs[0]->id] - 1);
    else
      snprintf(data, sizeof data, "(void *)c_%d", n->outputs[0]->id);
    declare_tensor(&e, n->outputs[0], data);
  }
  emit_block(&e, top);
  /* outputs */
  for (int i = 0; i < top->nrets; i++) {
    const Value *v = top->rets[i];
    if (v->type->kind == TY_TENSOR) {
      fprintf(c, "  out[%d] = (char *)t_%d.data + t_%d.offset * (int64_t)mck_dtype_size(t_%d.dtype);\n", i, v->id,
              v->id, v->id);
      if (e.dyn) fprintf(c, "  mc_dyn_out_(&outd[%d], &t_%d);\n", i, v->id);
    } else if (is_scalar_type(v->type) || ir_is_constant(v)) {
      const char *ct = v->type->kind == TY_FLOAT ? "double" : v->type->kind == TY_BOOL ? "uint8_t" : "int64_t";
      fputs("  { mck_arg a_ = ", c);
      put_arg(&e, v);
      fprintf(c, "; %s x_ = (%s)(a_.kind == MCK_FLOAT ? a_.u.f : (double)a_.u.i);", ct, ct);
      fprintf(c, " memcpy(arena + %zu, &x_, sizeof x_); out[%d] = arena + %zu; }\n", scalar_slot[i], i, scalar_slot[i]);
    } else {
      diag_error(d, g->loc, "graph output %d (%%%s) has a type the runtime cannot return", i, v->name);
      e.errs++;
    }
  }
  fputs("  return 0;\n}\n\n", c);
  /* model description */
  Type **saved = e.dyn ? dyn_types_at_max(&e) : NULL;
  fprintf(c, "static const mc_io_desc %s_inputs_[%d] = {\n", name, top->nparams ? top->nparams : 1);
  bool *mutated = inputs_mutated(&e, top->nparams);
  if (!mutated) abort();
  for (int i = 0; i < top->nparams; i++) {
    const Value *v = top->params[i];
    int64_t st[IR_MAX_DIMS];
    ir_contiguous_strides(v->type->ndim, v->type->shape, st);
    if (v->type->kind == TY_INT || v->type->kind == TY_FLOAT || v->type->kind == TY_BOOL)
      put_io_desc(c, v->name, v->type->kind == TY_FLOAT ? DT_F64 : v->type->kind == TY_BOOL ? DT_BOOL : DT_I64, 0,
                  NULL, NULL, 0);
    else
      put_io_desc(c, v->name, v->type->dtype, v->type->ndim, v->type->shape, st, mutated[i]);
    if (o->embed) o->embed->in_bytes += embed_bytes(v->type);
  }
  free(mutated);
  if (!top->nparams) fputs("  {\"\", 0, 0, {0}, {0}, 0},\n", c);
  fprintf(c, "};\nstatic const mc_io_desc %s_outputs_[%d] = {\n", name, top->nrets ? top->nrets : 1);
  for (int i = 0; i < top->nrets; i++) {
    const Value *v = top->rets[i];
    char nm[32];
    snprintf(nm, sizeof nm, "output_%d", i);
    const char *oname = g->ret_names && g->nret_names == top->nrets && g->ret_names[i] ? g->ret_names[i] : nm;
    if (v->type->kind == TY_TENSOR) {
      int64_t st[IR_MAX_DIMS];
      const Storage *s = &e.plan.st[v->id];
      if (v->type->has_strides && s->kind == ST_VIEW) memcpy(st, v->type->strides, sizeof st);
      else ir_contiguous_strides(v->type->ndim, v->type->shape, st);
      put_io_desc(c, oname, v->type->dtype, v->type->ndim, v->type->shape, st, 0);
    } else {
      DType dt = v->type->kind == TY_FLOAT ? DT_F64 : v->type->kind == TY_BOOL ? DT_BOOL : DT_I64;
      put_io_desc(c, oname, dt, 0, NULL, NULL, 0);
    }
    if (o->embed) o->embed->out_bytes += embed_bytes(v->type);
  }
  if (!top->nrets) fputs("  {\"\", 0, 0, {0}, {0}, 0},\n", c);
  fputs("};\n\n", c);
  if (saved) dyn_types_restore(&e, saved);
  /* the arena as the plan made it; without a heap, the kernels' scratch after it */
  for (int k = 0; k < 2 && !o->embed; k++) {
    fprintf(c, k ? "#else\nconst mc_model_def %s_def = {\n  " : "#ifndef MC_NO_MALLOC\nconst mc_model_def %s_def = {\n  ", name);
    put_cstring(c, name);
    fprintf(c, ", %d, %d, %s_inputs_, %s_outputs_, ", top->nparams, top->nrets, name, name);
    if (k) fprintf(c, "MCK_ARENA_BYTES_");
    else fprintf(c, "%zu", arena);
    fprintf(c, ", %s_run\n};\n", name);
  }
  if (!o->embed) fputs("#endif\n\n", c);
  if (e.dyn) { /* the Dims, and the description the runtime's dynamic entry points read */
    int nd = g->ndims;
    fprintf(c, "static const mc_dim_desc %s_dims_[%d] = {\n", name, nd ? nd : 1);
    for (int k = 0; k < nd; k++) {
      const IrDim *dm = &g->dims[k];
      int idx = -1;
      for (int i = 0; i < top->nparams; i++)
        if (top->params[i] == dm->value) idx = i;
      if (idx < 0) {
        diag_error(d, g->loc, "internal: Dim '%s' names no graph input", dm->name);
        e.errs++;
      }
      fprintf(c, "  {%d, %d, ", idx, dm->axis);
      put_cstring(c, dm->name);
      fprintf(c, ", %s, %s},\n", i64_lit(dm->min), i64_lit(dm->max));
    }
    if (!nd) fputs("  {0, 0, \"\", 0, 0},\n", c);
    if (o->embed) fputs("};\n\n", c);
    else fprintf(c, "};\nconst mc_model_dyn %s_dyn = {&%s_def, %d, %s_dims_, %s_run_dyn_};\n\n", name, name, nd, name, name);
  }
  if (o->embed) {
    o->embed->arena_bytes = arena;
    o->embed->ndims = g->ndims;
    o->embed->weights_file = e.blob_bytes > 0;
    if (!e.dyn) fprintf(c, "static const mc_dim_desc %s_dims_[1] = {\n  {0, 0, \"\", 0, 0},\n};\n\n", name);
  }
  const char *newfn[2] = {"mc_model_new(&%s_def)", "mc_model_new_in(&%s_def, mem, bytes)"};
  if (e.dyn) {
    newfn[0] = "mc_model_new_dyn(&%s_dyn)";
    newfn[1] = "mc_model_new_dyn_in(&%s_dyn, mem, bytes)";
  }
  for (int k = 0; k < 2 && !o->embed; k++) {
    fprintf(c, k ? "mc_model *%s_create_in(void *mem, size_t bytes) {\n" : "mc_model *%s_create(void) {\n", name);
    if (e.blob_bytes > 0) fprintf(c, "  if (%s_weights_check_()) return NULL;\n  %s_weights_prepare_();\n", name, name);
    fputs("  return ", c);
    fprintf(c, newfn[k], name);
    fputs(";\n}\n", c);
  }
  if (kernel_lib_end(&klib)) {
    diag_error(d, g->loc, "out of memory writing the generated C");
    e.errs++;
  }
  free(scalar_slot);
  free(e.blob_off);
  free(e.swaps);
  free(e.pk);
  plan_free(&e.plan);
  dyn_info_free(&dyn);
  return e.errs;
}
