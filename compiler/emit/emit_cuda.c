/* emit_cuda.c — the CUDA emitter ("CUDA as a diff of C"): walks a planned graph and writes one
 * .cu file for nvcc — the CUDA kernel library (pasted from the .cuh files in compiler/ops/cuda/), the weights
 * as one host image that the runtime uploads once at create, a run function that queues one
 * kernel (or cuBLAS call) per node on the model's stream, and the mc_cuda_def that
 * libmcrt_cuda.a reads; plus the header declaring NAME_create().
 *
 * Invariants:
 *  - Memory comes from plan_graph: graph inputs are the caller's (device) buffers, arena values
 *    live in one device arena whose size is fixed here, constants in the device weights. Per-node
 *    scratch (compact copies of strided operands, im2col columns) sits after the planned arena.
 *  - Every tensor value has a descriptor known at compile time (base, element offset, shape,
 *    strides): views are computed here by running the op's own kernel in meta mode, so on the GPU
 *    a view costs nothing. Nodes whose inputs are all constants are computed here too, with the
 *    reference kernels, and their results join the weights.
 *  - Ops with a device implementation are the rows of cu_ops[] below (float32 compute). Each is
 *    tried quietly: a row that declines the node (another dtype, a scalar argument computed at
 *    run time) leaves no trace. Every other node — in-place ops, any dtype, ops without a row —
 *    runs its C kernel (the C target's compiler/ops/k_*.h, pasted as host C++) on host copies of
 *    what it reads, with explicit copies and stream synchronisation at the boundaries (cu_host).
 *  - Scalars computed at run time live on the host (mck_arg s_<id>); prim::If and prim::Loop
 *    run on the host with their conditions and trip counts there, storing block results into
 *    the outputs and loop state that plan_graph gives storage of their own, as emit_c does.
 *  - A view whose layout depends on a run-time value has no descriptor; infer refuses it for
 *    every target. Errors are located: `FILE:L:C: error: ...`, and nothing is written (the
 *    driver removes partial outputs).
 * Output is deterministic: no pointers, paths or times. Prefix: cu_ (emit_cuda_int.h), emit_cuda. */
#include "emit_cuda_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- control flow -------------------------------------------------------------------------- */
static void cu_node(Cu *e, const Node *n);

static void cu_block(Cu *e, const Block *b) {
  for (const Node *n = b->first; n && !e->errs; n = n->next) cu_node(e, n);
}

/* Block result r into the state or output `to` (its own storage, planned). */
static bool cu_store(Cu *e, const Node *at, const Value *to, const Value *r) {
  if (to == r || (r->def && ir_node_is(r->def, "prim::Uninitialized"))) return true;
  if (to->type->kind != TY_TENSOR) {
    char lhs[32];
    snprintf(lhs, sizeof lhs, "s_%d", to->id);
    if (!ir_is_constant(r) && !(r->def && ir_node_is(r->def, "prim::ListConstruct"))) {
      fprintf(e->c, "  %s = s_%d;\n", lhs, r->id);
      return true;
    }
    return cu_put_scalar(e, at, lhs, r);
  }
  const CuDesc *dst = cu_of(e, to), *src = cu_of(e, r);
  if (!dst || !src) return cu_err(e, at, "'%s': %%%s has no device storage", at->kind, (dst ? r : to)->name);
  if (dst->dtype != src->dtype || dst->ndim != src->ndim ||
      memcmp(dst->shape, src->shape, sizeof(int64_t) * (size_t)dst->ndim))
    return cu_unsupported(e, at, "(a block result of another dtype or shape than the construct's)");
  e->scratch_cur = e->scratch_base;
  if (plan_root(&e->plan, to) == plan_root(&e->plan, r)) {
    /* the result is a view of the state itself: through scratch */
    CuDesc tmp = *src;
    tmp.base = CB_ARENA;
    tmp.off = 0;
    tmp.dyn = 0;
    tmp.boff = cu_scratch(e, (size_t)cu_numel(src) * ir_dtype_size(src->dtype));
    cu_contig(&tmp);
    cu_copy_into(e, at, &tmp, tmp.st, src);
    cu_copy_into(e, at, dst, dst->st, &tmp);
  } else {
    cu_copy_into(e, at, dst, dst->st, src);
  }
  return true;
}

/* The outputs (tensors: planned storage; scalars: s_<id>) of prim::If, stored into by each branch. */
static void cu_if(Cu *e, const Node *n) {
  FILE *f = e->c;
  for (int i = 0; i < n->noutputs; i++) {
    const Value *v = n->outputs[i];
    if (v->type->kind != TY_TENSOR) cu_declare_scalar(e, v);
    else if (!cu_of(e, v)) {
      cu_err(e, n, "'%s': output %%%s has no device storage", n->kind, v->name);
      return;
    }
  }
  e->host = true;
  fputs("  if (", f);
  cu_int_expr(e, n->inputs[0]);
  fputs(") {\n", f);
  for (int k = 0; k < 2 && k < n->nblocks && !e->errs; k++) {
    if (k) fputs("  } else {\n", f);
    cu_block(e, n->blocks[k]);
    for (int i = 0; i < n->noutputs && !e->errs; i++) cu_store(e, n, n->outputs[i], n->blocks[k]->rets[i]);
  }
  fputs("  }\n", f);
}

/* prim::Loop(max_trip, cond, init...): carried values in their planned state (the body's
 * parameters), stored into after every iteration; the loop's outputs are the state. The trip
 * count and the condition are host scalars. */
static void cu_loop(Cu *e, const Node *n) {
  FILE *f = e->c;
  const Block *body = n->blocks[0];
  int nc = n->ninputs - 2;
  for (int k = 0; k < nc; k++) {
    const Value *p = body->params[k + 1];
    if (p->type->kind != TY_TENSOR) cu_declare_scalar(e, p);
    else if (!cu_of(e, p)) {
      cu_err(e, n, "'%s': loop-carried %%%s has no device storage", n->kind, p->name);
      return;
    }
  }
  for (int k = 0; k < nc; k++) {
    const Value *r = plan_root(&e->plan, body->rets[k + 1]);
    for (int j = 0; j < nc; j++)
      if (j != k && r == body->params[j + 1]) {
        cu_unsupported(e, n, "(with loop-carried tensors that swap places)");
        return;
      }
  }
  for (int k = 0; k < nc && !e->errs; k++) cu_store(e, n, body->params[k + 1], n->inputs[k + 2]);
  e->host = true;
  fputs("  {\n    int64_t max_trip_ = ", f);
  cu_int_expr(e, n->inputs[0]);
  fputs(";\n    int go_ = (int)(", f);
  cu_int_expr(e, n->inputs[1]);
  fprintf(f, " != 0);\n    for (int64_t it_%d = 0; go_ && it_%d < max_trip_; it_%d++) {\n", n->id, n->id, n->id);
  fprintf(f, "  mck_arg s_%d;\n  memset(&s_%d, 0, sizeof s_%d);\n  s_%d.kind = MCK_INT;\n  s_%d.u.i = it_%d;\n",
          body->params[0]->id, body->params[0]->id, body->params[0]->id, body->params[0]->id, body->params[0]->id, n->id);
  cu_block(e, body);
  /* scalars through temporaries (they may swap); tensors straight into their state */
  for (int k = 0; k < nc; k++)
    if (body->params[k + 1]->type->kind != TY_TENSOR && body->rets[k + 1] != body->params[k + 1]) {
      char lhs[32];
      snprintf(lhs, sizeof lhs, "next%d_%d_", n->id, k);
      fprintf(f, "  mck_arg %s;\n  memset(&%s, 0, sizeof %s);\n", lhs, lhs, lhs);
      if (!ir_is_constant(body->rets[k + 1]) && !(body->rets[k + 1]->def && ir_node_is(body->rets[k + 1]->def, "prim::ListConstruct")))
        fprintf(f, "  %s = s_%d;\n", lhs, body->rets[k + 1]->id);
      else
        cu_put_scalar(e, n, lhs, body->rets[k + 1]);
    }
  fputs("  go_ = (int)(", f);
  cu_int_expr(e, body->rets[0]);
  fputs(" != 0);\n", f);
  for (int k = 0; k < nc && !e->errs; k++) {
    const Value *p = body->params[k + 1];
    if (p->type->kind == TY_TENSOR) cu_store(e, n, p, body->rets[k + 1]);
    else if (body->rets[k + 1] != p) fprintf(f, "  s_%d = next%d_%d_;\n", p->id, n->id, k);
  }
  fputs("    }\n  }\n", f);
  for (int k = 0; k < nc; k++) {
    const Value *o = n->outputs[k], *p = body->params[k + 1];
    if (o->type->kind == TY_TENSOR) e->desc[o->id] = e->desc[p->id];
    else fprintf(f, "  mck_arg s_%d = s_%d; /* %%%s */\n  (void)s_%d;\n", o->id, p->id, emit_text_cm(o->name), o->id);
  }
}

/* ---- the walk ------------------------------------------------------------------------------ */
/* Whether v is (or lists) a scalar computed at run time: no device row takes such a node. */
static bool cu_host_scalar(const Value *v) {
  if (ir_is_constant(v) || v->type->kind == TY_TENSOR) return false;
  if (v->def && ir_node_is(v->def, "prim::ListConstruct")) {
    for (int k = 0; k < v->def->ninputs; k++)
      if (cu_host_scalar(v->def->inputs[k])) return true;
    return false;
  }
  return true;
}

static void cu_node(Cu *e, const Node *n) {
  FILE *f = e->c;
  if (ir_node_is(n, "prim::Constant")) return;
  if (ir_node_is(n, "prim::ListConstruct")) return; /* built where it is used */
  if (ir_node_is(n, "prim::Print") || ir_node_is(n, "aten::warn")) return;
  fprintf(f, "  /* %s", emit_text_cm(n->kind));
  for (int i = 0; i < n->noutputs; i++) fprintf(f, "%s%%%s", i ? ", " : " -> ", emit_text_cm(n->outputs[i]->name));
  if (n->py_loc) fprintf(f, "  (%s)", emit_text_cm(n->py_loc));
  fputs(" */\n", f);
  e->scratch_cur = e->scratch_base;
  if (ir_node_is(n, "prim::If")) {
    cu_if(e, n);
    return;
  }
  if (ir_node_is(n, "prim::Loop")) {
    cu_loop(e, n);
    return;
  }
  if (n->nblocks > 0) {
    cu_unsupported(e, n, "(a construct with blocks)");
    return;
  }
  if (ir_node_is(n, "prim::Uninitialized")) {
    /* only ever returned by a branch that raises: a placeholder nobody reads */
    if (n->outputs[0]->type->kind != TY_TENSOR) cu_declare_scalar(e, n->outputs[0]);
    return;
  }
  if (ir_node_is(n, "mc::write_back")) {
    cu_write_back(e, n);
    return;
  }
  if (ir_node_is(n, "prim::RaiseException")) {
    fputs("  return mcu_fail(err, ", f);
    cu_loc(e, n);
    fputs(", \"exception raised by the model\");\n", f);
    return;
  }
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (op && op->kernel && n->noutputs == 1 && e->plan.st[n->outputs[0]->id].kind == ST_VIEW &&
      (op->effect == EFF_VIEW || (op->flags & OPF_MAYBE_VIEW))) {
    if (!cu_of(e, n->inputs[op->effect_arg])) {
      cu_err(e, n, "'%s': operand %%%s has no device storage", n->kind, n->inputs[op->effect_arg]->name);
      return;
    }
    if (!cu_view(e, n, op)) return;
    fputs("  /* a view: no work */\n", f);
    return;
  }
  int folded = cu_fold(e, n, op);
  if (folded) {
    if (folded > 0) fputs("  /* computed at compile time: part of the weights */\n", f);
    return;
  }
  /* a device kernel when one takes this node (tried quietly: it may decline), else the host */
  const CuOp *co = cu_lookup(n->kind);
  const char *why = !co ? "no device kernel" : op && op->effect == EFF_WRITE ? "writes its operand in place" : NULL;
  for (int i = 0; i < n->noutputs && !why; i++)
    if (n->outputs[i]->type->kind != TY_TENSOR) why = "a scalar result (read on the host)";
  for (int i = 0; i < n->ninputs && !why; i++)
    if (cu_host_scalar(n->inputs[i])) why = "a scalar argument computed at run time";
  if (!why) {
    char *buf = NULL;
    size_t len = 0;
    FILE *tf = open_memstream(&buf, &len);
    if (tf) {
      e->c = tf;
      e->quiet = true;
      e->declined = false;
      int tmp = e->tmp;
      bool ok = co->fn(e, n, co->arg) && !e->declined;
      e->quiet = false;
      e->c = f;
      fclose(tf);
      if (ok) fwrite(buf, 1, len, f);
      free(buf);
      if (ok) return;
      e->tmp = tmp;
      e->scratch_cur = e->scratch_base;
    }
    why = "its device kernel does not take this case (dtype, mode or argument)";
  }
  if (e->o->on_host) e->o->on_host(e->o->on_host_ctx, n, why);
  cu_host(e, n, op);
}

/* ---- file parts ---------------------------------------------------------------------------- */
static void cu_io_desc(FILE *f, const char *name, DType dt, int ndim, const int64_t *shape, const int64_t *st, int mutated) {
  fputs("  {", f);
  emit_text_string(f, name);
  fprintf(f, ", %d, %d, ", (int)dt, ndim);
  cu_dims(f, ndim, shape);
  fputs(", ", f);
  cu_dims(f, ndim, st);
  fprintf(f, ", %d},\n", mutated);
}

static bool cu_input_mutated(Cu *e, int input) {
  for (int k = 0; k < e->plan.nnodes; k++) {
    const Node *n = e->plan.order[k];
    const Value *target = NULL;
    const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
    if (ir_node_is(n, "mc::write_back")) target = n->inputs[0];
    else if (op && op->effect == EFF_WRITE && op->effect_arg < n->ninputs) target = n->inputs[op->effect_arg];
    const Value *r = target ? plan_root(&e->plan, target) : NULL;
    if (r && e->plan.st[r->id].kind == ST_INPUT && e->plan.st[r->id].input == input) return true;
  }
  return false;
}

/* The header: the inputs, NAME_create and the description(s) the runtime reads; `dyn`: a model
 * with run-time shapes (NAME_dyn, emit_cuda_whole.c). */
void cu_write_header(const Graph *g, const EmitOptions *o, FILE *h, bool dyn) {
  const Block *top = g->top;
  const char *name = o->name;
  char guard[256];
  emit_text_ident(guard, sizeof guard, name);
  for (char *p = guard; *p; p++) *p = (char)toupper((unsigned char)*p);
  fprintf(h, "/* Generated by mc (CUDA target) from %s. Do not edit. */\n#ifndef %s_H_\n#define %s_H_\n\n",
          emit_text_cm(o->source_name), guard, guard);
  if (o->build_id) fprintf(h, "#define %s_MC_BUILD_ID 0x%sull /* the mc compile that wrote this file */\n\n", guard, o->build_id);
  fputs("#include \"mc_runtime_cuda.h\"\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n/* Inputs (device tensors):\n", h);
  for (int i = 0; i < top->nparams; i++) {
    fprintf(h, " *   %d %%%s : ", i, emit_text_cm(top->params[i]->name));
    emit_text_comment_type(h, top->params[i]->type);
    fputs("\n", h);
  }
  fprintf(h, " * Outputs: %d\n */\n", top->nrets);
  fprintf(h, "mc_model *%s_create(void); /* NULL on failure (mc_cuda_create_error()); free with mc_model_destroy */\n", name);
  fprintf(h, "extern const mc_cuda_def %s_def;\n", name);
  if (dyn) {
    fprintf(h, "/* Run-time shapes (docs/dynamic.md): %s_def describes the model at the upper bounds; %s_create\n"
               " * builds it from %s_dyn; mc_input_dim_bounds gives each extent's bounds", name, name, name);
    fputs(g->ndims ? ":\n" : "; output shapes are set by every mc_run.\n", h);
    for (int k = 0; k < g->ndims; k++)
      fprintf(h, " *   Dim '%s' in [%lld, %lld]: %%%s dim %d\n", emit_text_cm(g->dims[k].name), (long long)g->dims[k].min,
              (long long)g->dims[k].max, emit_text_cm(g->dims[k].value->name), g->dims[k].axis);
    fprintf(h, " */\nextern const mc_cuda_dyn %s_dyn;\n", name);
  }
  fputs("\n#ifdef __cplusplus\n}\n#endif\n#endif\n", h);
}

/* The build id checks (EmitOptions.build_id), as emit_c writes them. */
void cu_build_id_check(FILE *c, const char *name, const EmitOptions *o) {
  char guard[256];
  emit_text_ident(guard, sizeof guard, name);
  for (char *p = guard; *p; p++) *p = (char)toupper((unsigned char)*p);
  fprintf(c, "#if !defined(%s_MC_BUILD_ID) || %s_MC_BUILD_ID != 0x%sull\n#error ", guard, guard, o->build_id);
  char msg[512];
  snprintf(msg, sizeof msg, "%s is not the header mc wrote with this file: run mc compile again", o->header_name);
  emit_text_string(c, msg);
  fputs("\n#endif\n\n", c);
}

static size_t cu_blob_trailer(const EmitOptions *o) {
  if (!o->build_id) return 0;
  char t[64] = {0};
  snprintf(t, sizeof t, "mc-weights %s\n", o->build_id);
  fwrite(t, 1, sizeof t, o->blob);
  return sizeof t;
}

static void cu_blob_check(FILE *c, const char *name, const EmitOptions *o, size_t wlen, size_t trailer) {
  if (!trailer) {
    fprintf(c, "static int %s_weights_check_(void) { return 0; }\n", name);
    return;
  }
  fprintf(c, "static int %s_weights_check_(void) {\n  static const char id_[%zu] = \"mc-weights %s\\n\";\n", name, trailer,
          o->build_id);
  fprintf(c, "  int same = 1;\n  for (size_t i = 0; i < sizeof id_; i++) same &= %s_weights_[%zu + i] == (unsigned char)id_[i];\n"
             "  if (same) return 0;\n  fputs(", name, wlen);
  char msg[512];
  snprintf(msg, sizeof msg, "%s_create: %s is not the weights file mc wrote with this model's source: run mc compile again\n",
           name, o->blob_name);
  emit_text_string(c, msg);
  fputs(", stderr);\n  return -1;\n}\n", c);
}

/* The device code for g (every shape fixed at compile time). */
static int cu_emit_device(Graph *g, const EmitOptions *o, FILE *c, FILE *h, Diag *d) {
  Cu e;
  memset(&e, 0, sizeof e);
  e.g = g;
  e.o = o;
  e.c = c;
  e.d = d;
  if (plan_graph_bounded(g, &e.plan, o->max_arena_bytes, d)) {
    plan_free(&e.plan);
    return 1;
  }
  const char *name = o->name;
  Block *top = g->top;
  e.desc = calloc((size_t)g->next_value_id + 1, sizeof *e.desc);
  e.scratch_base = e.scratch_cur = (e.plan.arena_bytes + CU_WALIGN - 1) / CU_WALIGN * CU_WALIGN;
  if (!e.desc) {
    diag_error(d, g->loc, "out of memory");
    plan_free(&e.plan);
    return 1;
  }
  /* descriptors of inputs, constants and arena values */
  for (int i = 0; i < top->nparams; i++) {
    const Value *v = top->params[i];
    if (v->type->kind != TY_TENSOR || !ir_type_is_complete_tensor(v->type)) {
      diag_error(d, v->loc, "graph input %%%s is not a tensor of known shape; the CUDA target needs one", v->name);
      e.errs++;
      continue;
    }
    CuDesc *x = &e.desc[v->id];
    x->base = CB_INPUT;
    x->input = i;
    x->dtype = v->type->dtype;
    x->ndim = v->type->ndim;
    memcpy(x->shape, v->type->shape, sizeof x->shape);
    cu_contig(x);
    x->sbytes = (size_t)cu_numel(x) * ir_dtype_size(x->dtype);
  }
  for (int k = 0; k < e.plan.nnodes && !e.errs; k++) {
    const Node *n = e.plan.order[k];
    if (ir_node_is(n, "prim::Loop")) /* loop-carried state: arena storage of its own */
      for (int i = 1; i < n->blocks[0]->nparams; i++) {
        const Value *v = n->blocks[0]->params[i];
        const Storage *s = &e.plan.st[v->id];
        if (v->type->kind != TY_TENSOR || s->kind != ST_ARENA) continue;
        CuDesc *x = &e.desc[v->id];
        x->base = CB_ARENA;
        x->boff = s->offset;
        x->dtype = v->type->dtype;
        x->ndim = v->type->ndim;
        memcpy(x->shape, v->type->shape, sizeof x->shape);
        cu_contig(x);
        x->sbytes = (size_t)cu_numel(x) * ir_dtype_size(x->dtype);
      }
    for (int i = 0; i < n->noutputs; i++) {
      const Value *v = n->outputs[i];
      const Storage *s = &e.plan.st[v->id];
      if (v->type->kind != TY_TENSOR || (s->kind != ST_ARENA && s->kind != ST_CONST)) continue;
      CuDesc *x = &e.desc[v->id];
      x->dtype = v->type->dtype;
      x->ndim = v->type->ndim;
      memcpy(x->shape, v->type->shape, sizeof x->shape);
      cu_contig(x);
      x->sbytes = (size_t)cu_numel(x) * ir_dtype_size(x->dtype);
      if (s->kind == ST_ARENA) {
        x->base = CB_ARENA;
        x->boff = s->offset;
        continue;
      }
      const Attr *a = ir_node_attr(n, "value");
      if (ir_count_uses(g, v) == 0) continue;
      if (!a || a->kind != ATTR_TENSOR || !a->t || !a->t->data) {
        diag_error(d, n->loc, "constant %%%s has no data", v->name);
        e.errs++;
        continue;
      }
      x->base = CB_WEIGHTS;
      x->boff = cu_weights_add(&e, a->t->data, a->t->nbytes);
    }
  }
  cu_write_header(g, o, h, false);
  /* ---- source ---- */
  fprintf(c, "/* Generated by mc (CUDA target) from %s. Do not edit.\n"
             " * Build: nvcc -c %s.cu (from the folder holding the weights file, if any); link with\n"
             " * libmcrt_cuda.a -lcublas -lcudart. Without a GPU: c++ -std=c++17 -DMC_CUDA_EMULATE -x c++ -c %s.cu,\n"
             " * linked with libmcrt_cuda_emu.a -lm -lpthread (docs/cuda.md). */\n",
          emit_text_cm(o->source_name), name, name);
  fputs("#ifdef MC_CUDA_EMULATE\n#include \"mc_cuda_emu.h\"\n#else\n#include <cuda_runtime.h>\n#include <cublas_v2.h>\n#endif\n"
        "#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n\n", c);
  const char *bad_include = emit_text_include_ok(o->header_name);
  if (bad_include) {
    diag_error(d, (SrcLoc){o->header_name, 0, 0}, "this header name cannot be written in #include \"...\": %s", bad_include);
    e.errs++;
  }
  fprintf(c, "#include \"%s\"\n\n#define MCK_UNUSED __attribute__((unused))\n\n", bad_include ? "mc_runtime_cuda.h" : o->header_name);
  if (o->build_id && !bad_include) cu_build_id_check(c, name, o);
  for (int i = 0; i < mc_cuda_kernel_nsources; i++) {
    fprintf(c, "/* ---- %s ---- */\n", mc_cuda_kernel_sources[i].name);
    fputs(mc_cuda_kernel_sources[i].text, c);
    fputs("\n", c);
  }
  /* run: one call per node; buffered so that the weights (which folding grows) come first */
  char *body = NULL;
  size_t body_len = 0;
  FILE *bf = open_memstream(&body, &body_len);
  if (!bf) {
    diag_error(d, g->loc, "out of memory");
    e.errs++;
  }
  if (!e.errs) {
    e.c = bf;
    for (const Node *n = top->first; n && !e.errs; n = n->next) cu_node(&e, n);
    for (int i = 0; i < top->nrets && !e.errs; i++) {
      const Value *v = top->rets[i];
      const CuDesc *x = cu_of(&e, v);
      double sv;
      int64_t iv;
      if (v->type->kind == TY_TENSOR && x) {
        fprintf(bf, "  out[%d] = (void *)", i);
        cu_ptr(&e, x, cu_elem_type(x->dtype));
        fputs(";\n", bf);
      } else if (v->type->kind == TY_FLOAT && ir_constant_float(v, &sv)) {
        fprintf(bf, "  out[%d] = (void *)(W_ + %zu);\n", i, cu_weights_add(&e, &sv, sizeof sv));
      } else if ((v->type->kind == TY_INT || v->type->kind == TY_BOOL) && ir_constant_int(v, &iv)) {
        unsigned char b = iv != 0;
        size_t at = v->type->kind == TY_BOOL ? cu_weights_add(&e, &b, 1) : cu_weights_add(&e, &iv, sizeof iv);
        fprintf(bf, "  out[%d] = (void *)(W_ + %zu);\n", i, at);
      } else if ((v->type->kind == TY_INT || v->type->kind == TY_BOOL || v->type->kind == TY_FLOAT) && !ir_is_constant(v)) {
        /* a scalar computed on the host: to a device slot after the scratch */
        const char *ct = v->type->kind == TY_FLOAT ? "double" : v->type->kind == TY_BOOL ? "uint8_t" : "int64_t";
        e.scratch_cur = e.scratch_base;
        for (int j = 0; j < i; j++) cu_scratch(&e, 64);
        size_t at = cu_scratch(&e, 64);
        if (e.host_max < 64 * (size_t)(i + 1)) e.host_max = 64 * (size_t)(i + 1);
        fprintf(bf, "  {\n    %s x_ = (%s)(s_%d.kind == MCK_FLOAT ? s_%d.u.f : (double)s_%d.u.i);\n", ct, ct, v->id, v->id, v->id);
        fprintf(bf, "    memcpy(H_ + %d, &x_, sizeof x_);\n    MCU_TRY(cudaMemcpyAsync(A_ + %zu, H_ + %d, sizeof x_, "
                    "cudaMemcpyHostToDevice, s_), \"output\");\n    out[%d] = (void *)(A_ + %zu);\n  }\n",
                64 * i, at, 64 * i, i, at);
        e.host = true;
      } else {
        diag_error(d, g->loc, "graph output %d (%%%s) is not a tensor or constant the CUDA target can return", i, v->name);
        e.errs++;
      }
    }
    fclose(bf);
    e.c = c;
  } else if (bf) {
    fclose(bf);
  }
  if (!e.errs && e.host) cu_host_library(c, body, body_len);
  if (e.errs) {
    free(body);
    free(e.desc);
    free(e.w);
    plan_free(&e.plan);
    return e.errs;
  }
  /* weights */
  fputs("/* ---- weights (uploaded to the device once, at create) ---- */\n", c);
  if (e.wlen && o->blob && e.wlen >= o->blob_threshold) {
    fwrite(e.w, 1, e.wlen, o->blob);
    size_t trailer = cu_blob_trailer(o);
    fprintf(c, "__asm__(\".section .rodata\\n.balign 64\\n.globl %s_weights_\\n.hidden %s_weights_\\n%s_weights_:\\n"
               ".incbin \\\"", name, name, name);
    emit_text_asm_string(c, o->blob_name);
    fprintf(c, "\\\", 0, %zu\\n.previous\");\n", e.wlen + trailer);
    fprintf(c, "extern \"C\" const unsigned char %s_weights_[%zu];\n", name, e.wlen + trailer);
    cu_blob_check(c, name, o, e.wlen, trailer);
  } else {
    fprintf(c, "static const unsigned char %s_weights_[%zu] = {", name, e.wlen ? e.wlen : 1);
    for (size_t i = 0; i < e.wlen; i++) fprintf(c, "%s%u,", i % 24 ? "" : "\n  ", e.w[i]);
    fputs(e.wlen ? "\n};\n" : "0};\n", c);
    cu_blob_check(c, name, o, e.wlen, 0);
  }
  size_t arena = e.scratch_base + e.scratch_max;
  fprintf(c, "\n/* ---- run: arena %zu bytes (%zu planned + %zu scratch) ---- */\n", arena, e.plan.arena_bytes,
          e.scratch_max);
  fprintf(c, "static int %s_run(const mc_cuda_ctx *cx, void *const *in, void *arena, const void *weights, void **out, char *err) {\n", name);
  fputs("  cudaStream_t s_ MCK_UNUSED = (cudaStream_t)cx->stream;\n  cublasHandle_t h_ MCK_UNUSED = (cublasHandle_t)cx->blas;\n"
        "  char *A_ MCK_UNUSED = (char *)arena;\n  char *W_ MCK_UNUSED = (char *)weights;\n"
        "  (void)s_;\n  (void)h_;\n  (void)A_;\n  (void)W_;\n  (void)in;\n  (void)err;\n", c);
  if (e.host)
    fputs("  char *H_ MCK_UNUSED = (char *)cx->host;\n  mck_ctx ctx_;\n  memset(&ctx_, 0, sizeof ctx_);\n  ctx_.nthreads = 1;\n"
          "  (void)H_;\n", c);
  fwrite(body, 1, body_len, c);
  free(body);
  fputs("  return 0;\n}\n\n", c);
  fprintf(c, "static const mc_io_desc %s_inputs_[%d] = {\n", name, top->nparams ? top->nparams : 1);
  for (int i = 0; i < top->nparams; i++) {
    const CuDesc *x = &e.desc[top->params[i]->id];
    cu_io_desc(c, top->params[i]->name, x->dtype, x->ndim, x->shape, x->st, cu_input_mutated(&e, i));
  }
  if (!top->nparams) fputs("  {\"\", 0, 0, {0}, {0}, 0},\n", c);
  fprintf(c, "};\nstatic const mc_io_desc %s_outputs_[%d] = {\n", name, top->nrets ? top->nrets : 1);
  for (int i = 0; i < top->nrets; i++) {
    const Value *v = top->rets[i];
    const CuDesc *x = cu_of(&e, v);
    char nm[32];
    snprintf(nm, sizeof nm, "output_%d", i);
    if (v->type->kind == TY_TENSOR && x) {
      cu_io_desc(c, nm, x->dtype, x->ndim, x->shape, x->st, 0);
    } else {
      DType dt = v->type->kind == TY_FLOAT ? DT_F64 : v->type->kind == TY_BOOL ? DT_BOOL : DT_I64;
      cu_io_desc(c, nm, dt, 0, NULL, NULL, 0);
    }
  }
  if (!top->nrets) fputs("  {\"\", 0, 0, {0}, {0}, 0},\n", c);
  fprintf(c, "};\n\nextern \"C\" const mc_cuda_def %s_def = {\n  \"", name);
  for (const char *s = name; *s; s++) fputc(*s, c);
  fprintf(c, "\", %d, %d, %s_inputs_, %s_outputs_, %zu, %s_weights_, %zu, %s_run, %zu\n};\n\n", top->nparams, top->nrets,
          name, name, arena, name, e.wlen, name, e.host ? (e.host_max + 63) / 64 * 64 + 64 : (size_t)0);
  fprintf(c, "extern \"C\" mc_model *%s_create(void) {\n  if (%s_weights_check_()) return NULL;\n  return mc_cuda_model_new(&%s_def);\n}\n",
          name, name, name);
  free(e.desc);
  free(e.w);
  plan_free(&e.plan);
  return e.errs;
}

/* emit_cuda: device code, tried into buffers with its diagnostics and host reports held back;
 * a graph with run-time shapes, or one the device code refuses (a construct or argument it
 * lacks), runs whole on the host instead (emit_cuda_whole.c), so --target cuda takes every graph
 * the C target takes. */
typedef struct CuHeld {
  const EmitOptions *o;
  const Node **n;
  const char **why;
  int len, cap;
} CuHeld;

static void cu_hold(void *ctx, const Node *n, const char *why) {
  CuHeld *hd = ctx;
  if (hd->len == hd->cap) {
    int cap = hd->cap ? 2 * hd->cap : 64;
    const Node **nn = realloc(hd->n, (size_t)cap * sizeof *nn);
    if (nn) hd->n = nn;
    const char **ww = nn ? realloc(hd->why, (size_t)cap * sizeof *ww) : NULL;
    if (ww) hd->why = ww;
    if (!nn || !ww) return;
    hd->cap = cap;
  }
  hd->n[hd->len] = n;
  hd->why[hd->len++] = why;
}

int emit_cuda(Graph *g, const EmitOptions *o, FILE *c, FILE *h, Diag *d) {
  if (ir_graph_is_dynamic(g)) return cu_emit_whole_host(g, o, c, h, d, NULL);
  char *cb = NULL, *hb = NULL, *db = NULL;
  size_t cl = 0, hl = 0, dl = 0;
  FILE *cf = open_memstream(&cb, &cl), *hf = open_memstream(&hb, &hl), *df = open_memstream(&db, &dl);
  CuHeld held = {o, NULL, NULL, 0, 0};
  int errs = 1;
  Diag dd = *d;
  if (cf && hf && df) {
    EmitOptions eo = *o;
    eo.on_host = o->on_host ? cu_hold : NULL;
    eo.on_host_ctx = &held;
    dd.out = df;
    dd.nerrors = dd.nwarnings = 0;
    errs = cu_emit_device(g, &eo, cf, hf, &dd);
  }
  if (cf) fclose(cf);
  if (hf) fclose(hf);
  if (df) fclose(df);
  if (!cf || !hf || !df) {
    diag_error(d, g->loc, "out of memory");
  } else if (!errs) {
    fwrite(cb, 1, cl, c);
    fwrite(hb, 1, hl, h);
    fwrite(db, 1, dl, d->out);
    d->nwarnings += dd.nwarnings;
    for (int i = 0; i < held.len; i++) o->on_host(o->on_host_ctx, held.n[i], held.why[i]);
  } else {
    /* the first refusal names why the graph runs on the host */
    const char *msg = db ? strstr(db, "error: ") : NULL;
    static char why[400];
    size_t len = msg ? strcspn(msg + 7, "\n") : 0;
    snprintf(why, sizeof why, "the device code refuses this graph (%.*s): the whole graph runs on the host",
             (int)(len < 300 ? len : 300), msg ? msg + 7 : "");
    errs = cu_emit_whole_host(g, o, c, h, d, why);
  }
  free(cb);
  free(hb);
  free(db);
  free(held.n);
  free(held.why);
  return errs;
}
