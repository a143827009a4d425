/* emit_cuda_host.c — what the CUDA emitter computes or runs on the host
 * (emit_cuda_int.h): views (meta mode) and constant nodes (reference kernels) at compile time,
 * scalars and host calls of the C kernels at run time, and the host kernel library as C++. */
#include "emit_cuda_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *cu_dtype_macro(DType t);

/* ---- compile-time evaluation: views (meta mode) and constant nodes (reference kernels) ---- */
static mck_tensor cu_mck(const CuDesc *x, void *data) {
  mck_tensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.offset = x->off;
  t.dtype = x->dtype;
  t.ndim = x->ndim;
  memcpy(t.shape, x->shape, sizeof t.shape);
  memcpy(t.stride, x->st, sizeof t.stride);
  return t;
}

/* Kernel arguments for n's inputs; tensors from their descriptors (data: host weights when
 * `host`, else NULL). False when an argument is not known at compile time, except that with
 * `rt` a scalar computed at run time becomes MCK_UNKNOWN (meta mode) and sets *rt. */
static bool cu_args(Cu *e, const Node *n, mck_arg *in, mck_tensor *ts, mck_tensor **lists, bool host, bool *rt) {
  int nt = 0;
  for (int i = 0; i < n->ninputs; i++) {
    const Value *v = n->inputs[i];
    const Attr *a = ir_constant_attr(v);
    mck_arg *x = &in[i];
    memset(x, 0, sizeof *x);
    if (ir_is_constant(v) && (!a || a->kind == ATTR_NONE)) {
      x->kind = MCK_NONE;
      continue;
    }
    if (v->type->kind == TY_TENSOR) {
      const CuDesc *dsc = cu_of(e, v);
      if (!dsc || (host && (dsc->base != CB_WEIGHTS || dsc->dyn))) return false;
      ts[nt] = cu_mck(dsc, host ? e->w + dsc->boff : NULL);
      x->kind = MCK_TENSOR;
      x->u.t = &ts[nt++];
      continue;
    }
    if (a) {
      switch (a->kind) {
      case ATTR_INT: x->kind = MCK_INT; x->u.i = a->i; continue;
      case ATTR_BOOL: x->kind = MCK_BOOL_ARG; x->u.i = a->i; continue;
      case ATTR_FLOAT: x->kind = MCK_FLOAT; x->u.f = a->f; continue;
      case ATTR_STR: x->kind = MCK_STR; x->u.s = a->s; continue;
      case ATTR_DEVICE: x->kind = MCK_DEVICE; x->u.s = a->s; continue;
      case ATTR_INTS: x->kind = MCK_INTS; x->n = a->n; x->u.ints = a->ints; continue;
      case ATTR_BOOLS: x->kind = MCK_BOOLS; x->n = a->n; x->u.ints = a->ints; continue;
      case ATTR_FLOATS: x->kind = MCK_FLOATS; x->n = a->n; x->u.floats = a->floats; continue;
      default: return false;
      }
    }
    if (v->def && ir_node_is(v->def, "prim::ListConstruct")) {
      const Node *ld = v->def;
      const Type *el = v->type->elem;
      if (el && el->kind == TY_TENSOR) {
        mck_tensor **l = lists + i * IR_MAX_DIMS * 8;
        if (ld->ninputs > IR_MAX_DIMS * 8 || nt + ld->ninputs > IR_MAX_DIMS * 8) return false;
        for (int k = 0; k < ld->ninputs; k++) {
          const CuDesc *dsc = cu_of(e, ld->inputs[k]);
          if (!dsc || (host && (dsc->base != CB_WEIGHTS || dsc->dyn))) return false;
          ts[nt] = cu_mck(dsc, host ? e->w + dsc->boff : NULL);
          l[k] = &ts[nt++];
        }
        x->kind = MCK_TENSORS;
        x->n = ld->ninputs;
        x->u.ts = l;
        continue;
      }
      return false; /* lists of scalars arrive as constants after infer */
    }
    if (rt && !ir_is_constant(v) && (v->type->kind == TY_INT || v->type->kind == TY_BOOL || v->type->kind == TY_FLOAT)) {
      x->kind = MCK_UNKNOWN;
      x->n = v->type->kind == TY_INT ? MCK_INT : v->type->kind == TY_BOOL ? MCK_BOOL_ARG : MCK_FLOAT;
      *rt = true;
      continue;
    }
    return false;
  }
  return true;
}

#define CU_MAX_ARGS 16
#define CU_MAX_TS (IR_MAX_DIMS * 8)

/* A view at a run-time index (select / narrow of a loop counter, an item()): its shape and
 * strides are the meta-mode ones (the index taken as 0, which the offset alone depends on), and
 * the run function computes the offset by calling the view's C kernel on the host, which also
 * checks the index's bounds as the C target does (mc_run fails with PyTorch's message):
 * vo<k>_ = (offset at the index) - (offset at 0) + the source's own run-time offset. */
static bool cu_view_rt(Cu *e, const Node *n, const OpDef *op, const CuDesc *src, CuDesc *y) {
  FILE *f = e->c;
  for (int i = 0; i < n->ninputs; i++)
    if (i != op->effect_arg && n->inputs[i]->type->kind == TY_TENSOR)
      return cu_unsupported(e, n, "(a view at a run-time index with a tensor argument)");
  int k = ++e->tmp;
  e->host = true;
  fprintf(f, "  int64_t vo%d_; /* %%%s: its offset is computed at run time */\n  {\n", k, emit_text_cm(n->outputs[0]->name));
  fprintf(f, "    mck_tensor hv_ = {NULL, INT64_C(%lld), %s, %d, ", (long long)src->off, cu_dtype_macro(src->dtype), src->ndim);
  cu_dims(f, src->ndim, src->shape);
  fputs(", ", f);
  cu_dims(f, src->ndim, src->st);
  fprintf(f, "};\n    mck_tensor ov_;\n    memset(&ov_, 0, sizeof ov_);\n    mck_arg in_[%d];\n    mck_arg out_[1];\n"
             "    memset(in_, 0, sizeof in_);\n    memset(out_, 0, sizeof out_);\n",
          n->ninputs ? n->ninputs : 1);
  for (int i = 0; i < n->ninputs; i++) {
    char lhs[32];
    snprintf(lhs, sizeof lhs, "in_[%d]", i);
    if (i == op->effect_arg) fprintf(f, "    in_[%d].kind = MCK_TENSOR;\n    in_[%d].u.t = &hv_;\n", i, i);
    else if (!cu_put_scalar(e, n, lhs, n->inputs[i])) return false;
  }
  fprintf(f, "    out_[0].kind = MCK_TENSOR;\n    out_[0].u.t = &ov_;\n    if (%s(&ctx_, out_, 1, in_, %d)) return mcu_host_fail_(err, &ctx_, ",
          op->kernel_name, n->ninputs);
  cu_loc(e, n);
  fprintf(f, ");\n    vo%d_ = ov_.offset - INT64_C(%lld)", k, (long long)y->off);
  if (src->dyn) fprintf(f, " + vo%d_", src->dyn);
  fputs(";\n  }\n", f);
  y->dyn = k;
  return true;
}

/* A view: its descriptor from the op's kernel in meta mode over the input's descriptor. */
bool cu_view(Cu *e, const Node *n, const OpDef *op) {
  mck_arg in[CU_MAX_ARGS], out[1];
  mck_tensor ts[CU_MAX_TS], ot;
  mck_tensor **lists = calloc((size_t)CU_MAX_ARGS * CU_MAX_TS, sizeof *lists);
  memset(&ot, 0, sizeof ot);
  out[0].kind = MCK_TENSOR;
  out[0].n = 0;
  out[0].u.t = &ot;
  mck_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.meta = 1;
  bool rt = false;
  bool ok = lists && n->ninputs <= CU_MAX_ARGS && n->noutputs == 1 && cu_args(e, n, in, ts, lists, false, &rt) &&
            op->kernel(&ctx, out, 1, in, n->ninputs) == 0 && ot.offset >= 0;
  free(lists);
  if (!ok)
    return cu_err(e, n, "'%s': the view's layout is not known at compile time on the CUDA target%s%s", n->kind,
                  ctx.err[0] ? ": " : "", ctx.err);
  const CuDesc *src = cu_of(e, n->inputs[op->effect_arg]);
  CuDesc *y = &e->desc[n->outputs[0]->id];
  *y = *src;
  y->off = ot.offset;
  y->dtype = ot.dtype;
  y->ndim = ot.ndim;
  memcpy(y->shape, ot.shape, sizeof y->shape);
  memcpy(y->st, ot.stride, sizeof y->st);
  return !rt || cu_view_rt(e, n, op, src, y);
}

/* A node whose tensor inputs are all constants: computed now, its results become weights.
 * Returns 1 when folded, 0 when not applicable, -1 on error. */
int cu_fold(Cu *e, const Node *n, const OpDef *op) {
  if (!op || !op->kernel || op->effect != EFF_PURE || (op->flags & (OPF_NONDET | OPF_STRUCTURAL)) || n->noutputs != 1 ||
      n->outputs[0]->type->kind != TY_TENSOR || n->ninputs > CU_MAX_ARGS)
    return 0;
  bool any_tensor = false;
  for (int i = 0; i < n->ninputs; i++) {
    const Value *v = n->inputs[i];
    if (v->type->kind == TY_TENSOR && !ir_constant_is_none(v)) {
      const CuDesc *x = cu_of(e, v);
      if (!x || x->base != CB_WEIGHTS || x->dyn) return 0;
      any_tensor = true;
    }
  }
  const Type *t = n->outputs[0]->type;
  int64_t numel = ir_type_numel(t);
  if (!any_tensor || numel < 0 || !ir_type_is_complete_tensor(t)) return 0;
  mck_arg in[CU_MAX_ARGS], out[1];
  mck_tensor ts[CU_MAX_TS], ot;
  mck_tensor **lists = calloc((size_t)CU_MAX_ARGS * CU_MAX_TS, sizeof *lists);
  size_t bytes = (size_t)numel * ir_dtype_size(t->dtype);
  void *buf = calloc(1, bytes ? bytes : 1);
  memset(&ot, 0, sizeof ot);
  ot.data = buf;
  ot.dtype = t->dtype;
  ot.ndim = t->ndim;
  memcpy(ot.shape, t->shape, sizeof ot.shape);
  mck_contiguous_strides(&ot);
  out[0].kind = MCK_TENSOR;
  out[0].n = 0;
  out[0].u.t = &ot;
  mck_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.nthreads = 1;
  int rc = 0;
  if (buf && lists && cu_args(e, n, in, ts, lists, true, NULL)) {
    if (op->kernel(&ctx, out, 1, in, n->ninputs) != 0) {
      cu_err(e, n, "'%s': evaluating it at compile time failed: %s", n->kind, ctx.err);
      rc = -1;
    } else {
      size_t at = cu_weights_add(e, buf, bytes);
      CuDesc *y = &e->desc[n->outputs[0]->id];
      memset(y, 0, sizeof *y);
      y->base = CB_WEIGHTS;
      y->boff = at;
      y->dtype = t->dtype;
      y->ndim = t->ndim;
      memcpy(y->shape, t->shape, sizeof y->shape);
      cu_contig(y);
      y->sbytes = bytes;
      rc = at == SIZE_MAX ? -1 : 1;
    }
  }
  free(lists);
  free(buf);
  return rc;
}

/* ---- host calls: an op without a device kernel runs its C kernel on host copies ------------ */
/* A node that no device kernel takes runs the C target's kernel (compiler/ops/k_*.h, pasted as
 * host C++) on host copies of its operands: every storage it reads comes over once (the union
 * of the byte spans its views read; views of one storage share one copy, so aliasing holds),
 * the stream is synchronised, the kernel runs, and the storage it writes (its outputs, the
 * target of an in-place op) goes back to the device. Weights are read from the host image.
 * Scalars live on the host as mck_arg s_<id>. */

static const char *cu_dtype_macro(DType t) {
  static const char *const nm[DT_COUNT] = {"MCK_F32", "MCK_F64", "MCK_F16", "MCK_BF16", "MCK_I64",
                                           "MCK_I32", "MCK_I16", "MCK_I8",  "MCK_U8",   "MCK_BOOL"};
  return t >= 0 && t < DT_COUNT ? nm[t] : "MCK_F32";
}

static void cu_i64(FILE *f, int64_t x) {
  if (x == INT64_MIN) fputs("INT64_MIN", f);
  else fprintf(f, "INT64_C(%lld)", (long long)x);
}

static void cu_double(FILE *f, double x) {
  if (isnan(x)) fputs("NAN", f);
  else if (isinf(x)) fputs(x > 0 ? "INFINITY" : "-INFINITY", f);
  else fprintf(f, "%a", x);
}

static const char *cu_scalar_kind(const Type *t) {
  return t->kind == TY_FLOAT ? "MCK_FLOAT" : t->kind == TY_BOOL ? "MCK_BOOL_ARG" : t->kind == TY_INT ? "MCK_INT" : "MCK_UNKNOWN";
}

/* mck_arg s_<id> for a scalar (or list, with l_<id>) computed at run time. */
void cu_declare_scalar(Cu *e, const Value *v) {
  FILE *f = e->c;
  e->host = true;
  if (v->type->kind == TY_LIST) {
    fprintf(f, "  int64_t l_%d[64];\n  mck_arg s_%d;\n  memset(&s_%d, 0, sizeof s_%d);\n  s_%d.kind = MCK_INTS;\n"
               "  s_%d.u.ints = l_%d; /* %%%s */\n",
            v->id, v->id, v->id, v->id, v->id, v->id, v->id, emit_text_cm(v->name));
    return;
  }
  fprintf(f, "  mck_arg s_%d;\n  memset(&s_%d, 0, sizeof s_%d);\n  s_%d.kind = %s; /* %%%s */\n", v->id, v->id, v->id,
          v->id, cu_scalar_kind(v->type), emit_text_cm(v->name));
}

/* Statements setting mck_arg `lhs` to scalar value v (a constant, or s_<id>). */
bool cu_put_scalar(Cu *e, const Node *n, const char *lhs, const Value *v) {
  FILE *f = e->c;
  const Attr *a = ir_constant_attr(v);
  if (!ir_is_constant(v)) {
    if (v->def && ir_node_is(v->def, "prim::ListConstruct")) {
      /* a list of constants and run-time scalars: built here */
      const Node *ld = v->def;
      bool fl = v->type->elem && v->type->elem->kind == TY_FLOAT;
      int t = e->tmp++;
      fprintf(f, "    %s lv%d_[%d];\n", fl ? "double" : "int64_t", t, ld->ninputs ? ld->ninputs : 1);
      for (int k = 0; k < ld->ninputs; k++) {
        const Value *x = ld->inputs[k];
        int64_t iv;
        double dv;
        fprintf(f, "    lv%d_[%d] = ", t, k);
        if (fl && ir_constant_float(x, &dv)) cu_double(f, dv);
        else if (!fl && ir_constant_int(x, &iv)) cu_i64(f, iv);
        else if (!ir_is_constant(x) && x->type->kind != TY_TENSOR) fprintf(f, "%s(s_%d)", fl ? "mck_arg_fv" : "mck_arg_i", x->id);
        else return cu_unsupported(e, n, "(with a list argument it cannot build)");
        fputs(";\n", f);
      }
      fprintf(f, "    %s.kind = %s;\n    %s.n = %d;\n    %s.u.%s = lv%d_;\n", lhs, fl ? "MCK_FLOATS" : "MCK_INTS", lhs,
              ld->ninputs, lhs, fl ? "floats" : "ints", t);
      return true;
    }
    fprintf(f, "    %s = s_%d;\n", lhs, v->id);
    return true;
  }
  if (!a || a->kind == ATTR_NONE) {
    fprintf(f, "    %s.kind = MCK_NONE;\n", lhs);
    return true;
  }
  switch (a->kind) {
  case ATTR_INT: case ATTR_BOOL:
    fprintf(f, "    %s.kind = %s;\n    %s.u.i = ", lhs, a->kind == ATTR_INT ? "MCK_INT" : "MCK_BOOL_ARG", lhs);
    cu_i64(f, a->kind == ATTR_INT ? a->i : a->i != 0);
    fputs(";\n", f);
    return true;
  case ATTR_FLOAT:
    fprintf(f, "    %s.kind = MCK_FLOAT;\n    %s.u.f = ", lhs, lhs);
    cu_double(f, a->f);
    fputs(";\n", f);
    return true;
  case ATTR_STR: case ATTR_DEVICE:
    fprintf(f, "    %s.kind = %s;\n    %s.u.s = ", lhs, a->kind == ATTR_STR ? "MCK_STR" : "MCK_DEVICE", lhs);
    emit_text_string(f, a->s ? a->s : "");
    fputs(";\n", f);
    return true;
  case ATTR_INTS: case ATTR_BOOLS: {
    int t = e->tmp++;
    fprintf(f, "    static int64_t lc%d_[%d] = {", t, a->n ? a->n : 1);
    for (int i = 0; i < a->n; i++) {
      if (i) fputs(", ", f);
      cu_i64(f, a->ints[i]);
    }
    fprintf(f, "%s};\n    %s.kind = %s;\n    %s.n = %d;\n    %s.u.ints = lc%d_;\n", a->n ? "" : "0", lhs,
            a->kind == ATTR_INTS ? "MCK_INTS" : "MCK_BOOLS", lhs, a->n, lhs, t);
    return true;
  }
  case ATTR_FLOATS: {
    int t = e->tmp++;
    fprintf(f, "    static double lc%d_[%d] = {", t, a->n ? a->n : 1);
    for (int i = 0; i < a->n; i++) {
      if (i) fputs(", ", f);
      cu_double(f, a->floats[i]);
    }
    fprintf(f, "%s};\n    %s.kind = MCK_FLOATS;\n    %s.n = %d;\n    %s.u.floats = lc%d_;\n", a->n ? "" : "0", lhs,
            lhs, a->n, lhs, t);
    return true;
  }
  default:
    return cu_unsupported(e, n, "(with a constant argument of this kind)");
  }
}

/* The C expression (int64_t) of an int or bool scalar. */
void cu_int_expr(Cu *e, const Value *v) {
  int64_t x;
  if (ir_constant_int(v, &x)) cu_i64(e->c, x);
  else fprintf(e->c, "mck_arg_i(s_%d)", v->id);
}

/* One tensor operand of a host call. */
typedef struct CuHEnt {
  CuDesc x;
  int64_t lo, hi, at; /* byte span in its base, byte offset of its first element there */
  bool out, wr;       /* written by the call (an output, the target of an in-place op) */
  int grp;
} CuHEnt;


static void cu_hent_span(CuHEnt *h) {
  const CuDesc *x = &h->x;
  int64_t es = (int64_t)ir_dtype_size(x->dtype), lo = 0, hi = 0, base = x->base == CB_INPUT ? 0 : (int64_t)x->boff;
  h->at = base + x->off * es;
  if (x->dyn) { /* where it lies is known at run time: the whole storage (cu_hent_add checks sbytes) */
    h->lo = base;
    h->hi = base + (int64_t)x->sbytes;
    return;
  }
  if (cu_numel(x) == 0) {
    h->lo = h->hi = h->at;
    return;
  }
  for (int i = 0; i < x->ndim; i++) {
    int64_t ext = (x->shape[i] - 1) * x->st[i];
    if (ext < 0) lo += ext;
    else hi += ext;
  }
  h->lo = h->at + lo * es;
  h->hi = h->at + (hi + 1) * es;
}

static const char *cu_base_expr(Cu *e, const CuDesc *x, char *buf, size_t cap) {
  (void)e;
  if (x->base == CB_INPUT) snprintf(buf, cap, "((char *)in[%d])", x->input);
  else snprintf(buf, cap, "%s", x->base == CB_WEIGHTS ? "W_" : "A_");
  return buf;
}

static bool cu_hent_add(Cu *e, const Node *n, CuHEnt *hs, int *nh, const Value *v, bool out, bool wr) {
  const CuDesc *x = cu_of(e, v);
  if (!x) return cu_err(e, n, "'%s': operand %%%s has no device storage", n->kind, v->name);
  CuHEnt *h = &hs[(*nh)++];
  memset(h, 0, sizeof *h);
  h->x = *x;
  h->out = out;
  h->wr = wr;
  if (x->dyn && !x->sbytes) return cu_unsupported(e, n, "(a view at a run-time offset of storage of unknown size)");
  cu_hent_span(h);
  return true;
}

static void cu_put_hdesc(Cu *e, const char *nm, const CuHEnt *h, const size_t *goff, const int64_t *glo) {
  FILE *f = e->c;
  const CuDesc *x = &h->x;
  int64_t es = (int64_t)ir_dtype_size(x->dtype);
  fprintf(f, "    mck_tensor %s = {", nm);
  if (x->base == CB_WEIGHTS) fprintf(f, "(void *)%s_weights_, %lld", e->o->name, (long long)(h->at / es));
  else fprintf(f, "(void *)(H_ + %zu), %lld", goff[h->grp], (long long)((h->at - glo[h->grp]) / es));
  if (x->dyn) fprintf(f, " + vo%d_", x->dyn);
  fprintf(f, ", %s, %d, ", cu_dtype_macro(x->dtype), x->ndim);
  cu_dims(f, x->ndim, x->shape);
  fputs(", ", f);
  cu_dims(f, x->ndim, x->st);
  fputs("};\n", f);
}

/* n through its C kernel on the host; hs, goff, glo, ghi, gread, gwrite: room for every tensor
 * operand (entries and their groups). */
static bool cu_host_call(Cu *e, const Node *n, const OpDef *op, CuHEnt *hs, size_t *goff, int64_t *glo, int64_t *ghi,
                         bool *gread, bool *gwrite, int *in_ent, int *out_ent) {
  FILE *f = e->c;
  int wr_arg = op->effect == EFF_WRITE ? op->effect_arg : -1;
  int nh = 0;
  /* operands: tensors, and lists of tensors */
  for (int i = 0; i < n->ninputs; i++) {
    const Value *v = n->inputs[i];
    in_ent[i] = -1;
    if (ir_constant_is_none(v)) continue;
    if (v->type->kind == TY_TENSOR) {
      in_ent[i] = nh;
      if (!cu_hent_add(e, n, hs, &nh, v, false, i == wr_arg)) return false;
    } else if (v->type->kind == TY_LIST && v->type->elem &&
               (v->type->elem->kind == TY_TENSOR || v->type->elem->kind == TY_OPTIONAL)) {
      if (!v->def || !ir_node_is(v->def, "prim::ListConstruct"))
        return cu_unsupported(e, n, "(with a list of tensors built at run time)");
      in_ent[i] = nh;
      for (int k = 0; k < v->def->ninputs; k++)
        if (!ir_constant_is_none(v->def->inputs[k]) && !cu_hent_add(e, n, hs, &nh, v->def->inputs[k], false, false))
          return false;
    }
  }
  int nin_ents = nh;
  for (int i = 0; i < n->noutputs; i++) {
    const Value *v = n->outputs[i];
    out_ent[i] = -1;
    if (v->type->kind != TY_TENSOR) continue;
    const Storage *s = &e->plan.st[v->id];
    if (s->kind == ST_VIEW) {
      if (i == 0 && wr_arg >= 0 && in_ent[wr_arg] >= 0) {
        e->desc[v->id] = hs[in_ent[wr_arg]].x; /* the in-place op's result is its target */
        continue;
      }
      return cu_err(e, n, "'%s': the layout of its view %%%s is not known at compile time on the CUDA target", n->kind,
                    v->name);
    }
    out_ent[i] = nh;
    if (!cu_hent_add(e, n, hs, &nh, v, true, true)) return false;
  }
  /* groups: overlapping spans of one base share a copy */
  int ng = 0;
  for (int k = 0; k < nh; k++) hs[k].grp = -1;
  for (int k = 0; k < nh; k++) {
    if (hs[k].grp >= 0) continue;
    hs[k].grp = ng;
    int64_t lo = hs[k].lo, hi = hs[k].hi;
    for (bool grew = true; grew;) {
      grew = false;
      for (int j = 0; j < nh; j++) {
        if (hs[j].grp >= 0 || hs[j].x.base != hs[k].x.base || (hs[k].x.base == CB_INPUT && hs[j].x.input != hs[k].x.input))
          continue;
        if (hs[j].lo < hi && lo < hs[j].hi) {
          hs[j].grp = ng;
          lo = hs[j].lo < lo ? hs[j].lo : lo;
          hi = hs[j].hi > hi ? hs[j].hi : hi;
          grew = true;
        }
      }
    }
    ng++;
  }
  size_t total = 0;
  for (int g = 0; g < ng; g++) {
    glo[g] = INT64_MAX, ghi[g] = INT64_MIN, gread[g] = gwrite[g] = false;
    for (int k = 0; k < nh; k++) {
      if (hs[k].grp != g) continue;
      glo[g] = hs[k].lo < glo[g] ? hs[k].lo : glo[g];
      ghi[g] = hs[k].hi > ghi[g] ? hs[k].hi : ghi[g];
      gread[g] |= !hs[k].out;
      gwrite[g] |= hs[k].wr;
      if (hs[k].x.base == CB_WEIGHTS && hs[k].wr) return cu_unsupported(e, n, "(it writes a constant)");
    }
    for (int k = 0; k < nh; k++)
      if (hs[k].grp == g && (hs[k].at - glo[g]) % (int64_t)ir_dtype_size(hs[k].x.dtype))
        return cu_unsupported(e, n, "(with views of one storage as dtypes of other sizes)");
  }
  for (int g = 0; g < ng; g++) {
    int first = 0;
    while (hs[first].grp != g) first++;
    if (hs[first].x.base == CB_WEIGHTS) {
      goff[g] = 0;
      continue;
    }
    goff[g] = total;
    total += (size_t)((ghi[g] - glo[g] + 63) / 64 * 64);
  }
  e->host = true;
  e->host_calls++;
  if (total > e->host_max) e->host_max = total;
  /* scalar outputs live outside the call's block */
  for (int i = 0; i < n->noutputs; i++)
    if (n->outputs[i]->type->kind != TY_TENSOR) cu_declare_scalar(e, n->outputs[i]);
  fputs("  { /* on the host: its C kernel */\n", f);
  char b[64];
  bool any_read = false;
  for (int g = 0; g < ng; g++) {
    int first = 0;
    while (hs[first].grp != g) first++;
    if (hs[first].x.base == CB_WEIGHTS || !gread[g] || ghi[g] <= glo[g]) continue;
    fprintf(f, "    MCU_TRY(cudaMemcpyAsync(H_ + %zu, %s + %lld, %lld, cudaMemcpyDeviceToHost, s_), ", goff[g],
            cu_base_expr(e, &hs[first].x, b, sizeof b), (long long)glo[g], (long long)(ghi[g] - glo[g]));
    cu_loc(e, n);
    fputs(");\n", f);
    any_read = true;
  }
  if (any_read) {
    fputs("    MCU_TRY(cudaStreamSynchronize(s_), ", f);
    cu_loc(e, n);
    fputs(");\n", f);
  }
  for (int k = 0; k < nh; k++) {
    char nm[32];
    snprintf(nm, sizeof nm, "h%d_", k);
    cu_put_hdesc(e, nm, &hs[k], goff, glo);
  }
  fprintf(f, "    mck_arg in_[%d];\n    mck_arg out_[%d];\n    memset(in_, 0, sizeof in_);\n    memset(out_, 0, sizeof out_);\n",
          n->ninputs ? n->ninputs : 1, n->noutputs ? n->noutputs : 1);
  for (int i = 0; i < n->ninputs; i++) {
    const Value *v = n->inputs[i];
    char lhs[32];
    snprintf(lhs, sizeof lhs, "in_[%d]", i);
    if (in_ent[i] >= 0 && v->type->kind == TY_TENSOR) {
      fprintf(f, "    in_[%d].kind = MCK_TENSOR;\n    in_[%d].u.t = &h%d_;\n", i, i, in_ent[i]);
    } else if (in_ent[i] >= 0) {
      const Node *ld = v->def;
      int t = e->tmp++, k2 = in_ent[i];
      fprintf(f, "    mck_tensor *lt%d_[%d] = {", t, ld->ninputs ? ld->ninputs : 1);
      for (int k = 0; k < ld->ninputs; k++) {
        if (ir_constant_is_none(ld->inputs[k])) fprintf(f, "%sNULL", k ? ", " : "");
        else fprintf(f, "%s&h%d_", k ? ", " : "", k2++);
      }
      fprintf(f, "%s};\n    in_[%d].kind = MCK_TENSORS;\n    in_[%d].n = %d;\n    in_[%d].u.ts = lt%d_;\n",
              ld->ninputs ? "" : "NULL", i, i, ld->ninputs, i, t);
    } else if (v->type->kind == TY_TENSOR || ir_constant_is_none(v)) {
      fprintf(f, "    in_[%d].kind = MCK_NONE;\n", i);
    } else if (!cu_put_scalar(e, n, lhs, v)) {
      return false;
    }
  }
  for (int i = 0; i < n->noutputs; i++) {
    const Value *v = n->outputs[i];
    if (v->type->kind == TY_TENSOR) {
      if (out_ent[i] >= 0) {
        fprintf(f, "    out_[%d].kind = MCK_TENSOR;\n    out_[%d].u.t = &h%d_;\n", i, i, out_ent[i]);
      } else {
        int t = e->tmp++;
        fprintf(f, "    mck_tensor ov%d_;\n    memset(&ov%d_, 0, sizeof ov%d_);\n    out_[%d].kind = MCK_TENSOR;\n"
                   "    out_[%d].u.t = &ov%d_;\n", t, t, t, i, i, t);
      }
    } else {
      fprintf(f, "    out_[%d] = s_%d;\n", i, v->id);
    }
  }
  fprintf(f, "    if (%s(&ctx_, out_, %d, in_, %d)) return mcu_host_fail_(err, &ctx_, ", op->kernel_name, n->noutputs,
          n->ninputs);
  cu_loc(e, n);
  fputs(");\n", f);
  for (int i = 0; i < n->noutputs; i++)
    if (n->outputs[i]->type->kind != TY_TENSOR) fprintf(f, "    s_%d = out_[%d];\n", n->outputs[i]->id, i);
  bool any_write = false;
  for (int g = 0; g < ng; g++) {
    int first = 0;
    while (hs[first].grp != g) first++;
    if (!gwrite[g] || ghi[g] <= glo[g]) continue;
    fprintf(f, "    MCU_TRY(cudaMemcpyAsync(%s + %lld, H_ + %zu, %lld, cudaMemcpyHostToDevice, s_), ",
            cu_base_expr(e, &hs[first].x, b, sizeof b), (long long)glo[g], goff[g], (long long)(ghi[g] - glo[g]));
    cu_loc(e, n);
    fputs(");\n", f);
    any_write = true;
  }
  if (any_write) {
    /* the staging is reused by the next host call */
    fputs("    MCU_TRY(cudaStreamSynchronize(s_), ", f);
    cu_loc(e, n);
    fputs(");\n", f);
  }
  (void)nin_ents;
  fputs("  }\n", f);
  return true;
}

bool cu_host(Cu *e, const Node *n, const OpDef *op) {
  if (!op || !op->kernel) return cu_unsupported(e, n, "(it has no kernel)");
  int cap = n->noutputs + 1;
  for (int i = 0; i < n->ninputs; i++) {
    const Value *v = n->inputs[i];
    cap += 1 + (v->type->kind == TY_LIST && v->def && ir_node_is(v->def, "prim::ListConstruct") ? v->def->ninputs : 0);
  }
  CuHEnt *hs = calloc((size_t)cap, sizeof *hs);
  size_t *goff = calloc((size_t)cap, sizeof *goff);
  int64_t *glo = calloc((size_t)cap, sizeof *glo), *ghi = calloc((size_t)cap, sizeof *ghi);
  bool *gread = calloc((size_t)cap, sizeof *gread), *gwrite = calloc((size_t)cap, sizeof *gwrite);
  int *in_ent = calloc((size_t)n->ninputs + 1, sizeof *in_ent), *out_ent = calloc((size_t)n->noutputs + 1, sizeof *out_ent);
  bool ok = hs && goff && glo && ghi && gread && gwrite && in_ent && out_ent
                ? cu_host_call(e, n, op, hs, goff, glo, ghi, gread, gwrite, in_ent, out_ent)
                : cu_err(e, n, "out of memory");
  free(hs);
  free(goff);
  free(glo);
  free(ghi);
  free(gread);
  free(gwrite);
  free(in_ent);
  free(out_ent);
  return ok;
}

/* ---- the host kernel library ---------------------------------------------------------------- */
/* Writes s with C's compound literals that C++ rejects rewritten: &(T){...} (the address of a
 * temporary) becomes mck_cxx_tmp_((T){...}), and an array literal (T[]){...} passed as a
 * pointer becomes ((T *)std::initializer_list<T>{...}.begin()) (read, never written); both live to the end of the full
 * expression, as the C literal lives to the end of its block, which is all the kernels need.
 * Comments and string and character literals are copied as they are. */
void cu_put_cxx(FILE *f, const char *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    if (s[i] == '/' && i + 1 < len && (s[i + 1] == '*' || s[i + 1] == '/')) { /* a comment, as it is */
      const char *end = s[i + 1] == '*' ? strstr(s + i + 2, "*/") : strchr(s + i + 2, '\n');
      size_t j = end && (size_t)(end - s) < len ? (size_t)(end - s) + (s[i + 1] == '*' ? 2 : 0) : len;
      fwrite(s + i, 1, j - i, f);
      i = j;
      continue;
    }
    if (s[i] == '"' || s[i] == '\'') { /* a literal: up to its closing quote */
      char q = s[i];
      size_t j = i + 1;
      while (j < len && s[j] != q && s[j] != '\n') j += s[j] == '\\' && j + 1 < len ? 2 : 1;
      if (j < len && s[j] == q) j++;
      fwrite(s + i, 1, j - i, f);
      i = j;
      continue;
    }
    bool amp = s[i] == '&' && i + 1 < len && s[i + 1] == '(';
    size_t p = amp ? i + 1 : i;
    if (s[p] == '(' && p + 1 < len && (isalpha((unsigned char)s[p + 1]) || s[p + 1] == '_')) {
      size_t j = p + 1;
      while (j < len && j < p + 80 && (isalnum((unsigned char)s[j]) || strchr("_ *[]", s[j]))) j++;
      bool array = j >= p + 3 && s[j - 1] == ']' && s[j - 2] == '[';
      if (j < len && s[j] == ')' && j + 1 < len && s[j + 1] == '{' && (amp || array)) {
        size_t k = j + 1;
        int depth = 0;
        for (; k < len; k++) {
          if (s[k] == '{') depth++;
          else if (s[k] == '}' && --depth == 0) break;
        }
        if (k < len) {
          if (array) { /* ((T *)std::initializer_list<T>{...}.begin()): C's literal is not const */
            fputs("((", f);
            fwrite(s + p + 1, 1, j - 2 - (p + 1), f);
            fputs(" *)std::initializer_list<", f);
            fwrite(s + p + 1, 1, j - 2 - (p + 1), f);
            fputs(">", f);
          } else {
            fputs("mck_cxx_tmp_((", f);
            fwrite(s + p + 1, 1, j - (p + 1), f);
            fputs(")", f);
          }
          cu_put_cxx(f, s + j + 1, k + 1 - (j + 1));
          fputs(array ? ".begin())" : ")", f);
          i = k + 1;
          continue;
        }
      }
    }
    fputc(s[i], f);
    i++;
  }
}

/* What C code pasted as host C++ needs around it (cu_put_cxx): one thread, no thread pool. */
void cu_cxx_begin(FILE *c) {
  fputs("#ifdef __NVCC__\n#pragma nv_diag_suppress 550\n#endif\n"
        "#include <initializer_list>\n#include <stdlib.h>\n#include <string.h>\n"
        "#ifndef MC_NO_THREADS\n#define MC_NO_THREADS 1\n#endif\n#define restrict __restrict__\n"
        "#define _Alignas(x) __attribute__((aligned(x)))\n"
        "template <class T> static inline const T *mck_cxx_tmp_(const T &x) { return &x; }\n", c);
}

void cu_cxx_end(FILE *c) { fputs("#undef restrict\n#undef _Alignas\n", c); }

/* The C target's kernel library as host C++ (only when some node runs on the host): the part the
 * run body (roots) names, kernel_lib.h. */
void cu_host_library(FILE *c, const char *roots, size_t nroots) {
  fputs("/* ---- host: the C target's kernel library (compiler/ops/k_*.h), for the ops without a device\n"
        " * kernel; compiled as C++ host code, one thread, no thread pool ---- */\n", c);
  cu_cxx_begin(c);
  char *lib = kernel_lib_text(roots, nroots, false);
  if (lib) cu_put_cxx(c, lib, strlen(lib));
  free(lib);
  cu_cxx_end(c);
  fputs("static inline MCK_UNUSED int64_t mck_arg_i(mck_arg a) { return a.kind == MCK_FLOAT ? (int64_t)a.u.f : a.u.i; }\n"
        "static inline MCK_UNUSED double mck_arg_fv(mck_arg a) { return a.kind == MCK_FLOAT ? a.u.f : (double)a.u.i; }\n"
        "static MCK_UNUSED int mcu_host_fail_(char *err, const mck_ctx *ctx, const char *where) {\n"
        "  snprintf(err, 256, \"%.120s: %.120s\", where, ctx->err[0] ? ctx->err : \"kernel failed\");\n"
        "  return -1;\n}\n\n", c);
}
