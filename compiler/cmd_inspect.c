/* cmd_inspect.c — `mc inspect MODEL`: what a model is and what it will cost, without building
 * it. Runs the default pipeline (or --passes), then prints the inputs and outputs with dtypes
 * and shapes, a histogram of the ops that will run, the constant tensors the binary will hold
 * (count, elements, bytes), an estimate of the FLOPs of one run, and the arena bytes — exactly
 * the scratch memory the generated code asks the runtime for (mc_model_def.arena_bytes): the
 * memory plan's arena plus the 64-byte slots emit_c.c reserves for scalar outputs.
 *
 * FLOP rules are by op name (flops_of below) until the op table carries them, except for
 * convolutions, which their rows' descriptors (OpDef.conv) name: 2*M*N*K for matrix products,
 * 2 * output elements * (weight elements per output channel) for convolutions, one per output
 * element for elementwise ops, one per input element for reductions, zero for views, shape ops
 * and everything else.
 */
#include "driver.h"

#include "emit/emit.h"
#include "ops/ops.h"
#include "passes/pass.h"
#include "passes/dynshape.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fputs("usage: mc inspect MODEL [--passes LIST] [--target c|cuda]\n"
        "\n"
        "Prints MODEL's inputs and outputs (dtypes, shapes), its op histogram after the pass\n"
        "pipeline, its constant tensors (count, elements, bytes), the estimated FLOPs of one run\n"
        "and the arena bytes the compiled model allocates. With --target cuda (the CUDA target's\n"
        "pipeline) it also lists the nodes that would run on the host by their C kernel, and why.\n",
        f);
}

static int64_t dim(const Value *v, int i) {
  const Type *t = v->type;
  if (t->kind != TY_TENSOR || t->ndim <= 0) return 1;
  if (i < 0) i += t->ndim;
  return i >= 0 && i < t->ndim && t->shape[i] >= 0 ? t->shape[i] : 0;
}

static int64_t numel(const Value *v) {
  int64_t n = v->type->kind == TY_TENSOR ? ir_type_numel(v->type) : 0;
  return n < 0 ? 0 : n;
}

/* Weight elements per output element of a convolution-like op: prod(weight.shape[1:]). */
static int64_t per_channel(const Value *w) {
  int64_t p = 1;
  for (int i = 1; i < w->type->ndim; i++) p *= dim(w, i);
  return w->type->kind == TY_TENSOR && w->type->ndim > 1 ? p : 0;
}

static int64_t flops_of(const Node *n) {
  if (!n->noutputs || n->outputs[0]->type->kind != TY_TENSOR) return 0;
  const char *k = n->kind;
  int64_t out = numel(n->outputs[0]);
  int64_t act = !strncmp(k, "mc::", 4) && strstr(k, "_act") ? out : 0; /* the fused activation */
  if (!strcmp(k, "aten::matmul") || !strcmp(k, "aten::mm") || !strcmp(k, "aten::bmm"))
    return 2 * out * dim(n->inputs[0], -1);
  if (!strcmp(k, "aten::linear") || !strcmp(k, "mc::linear_act"))
    return 2 * out * dim(n->inputs[0], -1) + (n->ninputs > 2 && !ir_constant_is_none(n->inputs[2]) ? out : 0) + act;
  if (!strcmp(k, "aten::addmm") || !strcmp(k, "aten::baddbmm")) return 2 * out * dim(n->inputs[1], -1) + out;
  const OpDef *op = n->op ? n->op : ops_lookup(k);
  const OpConv *cd = op ? op->conv : NULL;
  if (cd && n->ninputs > cd->weight) { /* a convolution (its row's descriptor) */
    int64_t t = cd->transposed == 1;
    if (cd->transposed == 2 && n->ninputs > cd->transposed_arg) ir_constant_int(n->inputs[cd->transposed_arg], &t);
    const Value *w = n->inputs[cd->weight];
    return t ? 2 * numel(n->inputs[0]) * per_channel(w) : 2 * out * per_channel(w) + act;
  }
  const OpFamily *fam = op ? ops_family_of(op) : NULL;
  if (!fam || op->effect == EFF_VIEW || (op->flags & OPF_MAYBE_VIEW)) return 0;
  if (!strcmp(fam->name, "elementwise")) return out + act;
  if (!strcmp(fam->name, "reduce")) return n->ninputs ? numel(n->inputs[0]) : 0;
  return 0;
}

typedef struct Hist {
  const char *kind;
  int count;
  const char *why;   /* host fallback: the reason (--target cuda) */
  const char *where; /* ... and the first node's Python location, or NULL */
} Hist;

/* --target cuda: the nodes emit_cuda runs on the host, by op and reason. */
typedef struct HostList {
  Hist *h;
  int nh, cap, total;
} HostList;

static void on_host(void *ctx, const Node *n, const char *why) {
  HostList *l = ctx;
  l->total++;
  for (int i = 0; i < l->nh; i++) {
    if (!strcmp(l->h[i].kind, n->kind) && !strcmp(l->h[i].why, why)) {
      l->h[i].count++;
      return;
    }
  }
  if (l->nh == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    Hist *h = realloc(l->h, (size_t)cap * sizeof *h);
    if (!h) return;
    l->h = h;
    l->cap = cap;
  }
  l->h[l->nh++] = (Hist){n->kind, 1, why, n->py_loc};
}

/* Runs the CUDA emitter with its output discarded, collecting its host fallbacks into l. */
static int cuda_placement(Graph *g, HostList *l, Diag *d) {
  FILE *c = fopen("/dev/null", "w"), *h = fopen("/dev/null", "w"), *w = fopen("/dev/null", "w");
  int errs = 1;
  if (c && h && w) {
    EmitOptions eo = {0};
    eo.name = "model";
    eo.header_name = "model.h";
    eo.source_name = "model";
    eo.blob = w;
    eo.blob_name = "model.weights";
    eo.blob_threshold = 65536;
    eo.on_host = on_host;
    eo.on_host_ctx = l;
    errs = emit_cuda(g, &eo, c, h, d);
  } else {
    diag_error(d, g->loc, "cannot open /dev/null");
  }
  if (c) fclose(c);
  if (h) fclose(h);
  if (w) fclose(w);
  return errs;
}

static int hist_cmp(const void *a, const void *b) {
  const Hist *x = a, *y = b;
  if (x->count != y->count) return y->count - x->count;
  return strcmp(x->kind, y->kind);
}

typedef struct Stats {
  Hist *h;
  int nh, cap;
  int nconst;
  int64_t const_elems, flops;
  size_t const_bytes;
  Graph *g;
} Stats;

static bool count_node(Node *n, void *ctx) {
  Stats *s = ctx;
  if (ir_node_is(n, "prim::Constant")) {
    const Attr *a = ir_node_attr(n, "value");
    if (a && a->kind == ATTR_TENSOR && a->t && ir_count_uses(s->g, n->outputs[0]) > 0) {
      int64_t e = 1;
      for (int i = 0; i < a->t->ndim; i++) e *= a->t->shape[i];
      s->nconst++;
      s->const_elems += e;
      s->const_bytes += (size_t)e * ir_dtype_size(a->t->dtype);
    }
    return true;
  }
  s->flops += flops_of(n);
  for (int i = 0; i < s->nh; i++) {
    if (!strcmp(s->h[i].kind, n->kind)) {
      s->h[i].count++;
      return true;
    }
  }
  if (s->nh == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 32;
    s->h = realloc(s->h, (size_t)s->cap * sizeof *s->h);
  }
  s->h[s->nh++] = (Hist){n->kind, 1, NULL, NULL};
  return true;
}

static void put_value(const Value *v, int i) {
  printf("  %d  %%%s : ", i, v->name);
  const Type *t = v->type;
  if (t->kind == TY_TENSOR && t->dtype != DT_UNDEF) {
    printf("%s (", ir_dtype_name(t->dtype));
    for (int k = 0; k < t->ndim; k++) printf("%s%lld", k ? ", " : "", (long long)t->shape[k]);
    printf("%s)\n", t->ndim == 1 ? "," : "");
  } else {
    ir_type_print(stdout, t);
    putchar('\n');
  }
}

static void put_count(const char *what, double x) {
  static const char *const suf[] = {"", " K", " M", " G", " T"};
  int k = 0;
  double y = x;
  while (y >= 1000 && k < 4) {
    y /= 1000;
    k++;
  }
  if (k) printf("%s%.0f (%.2f%s)\n", what, x, y, suf[k]);
  else printf("%s%.0f\n", what, x);
}

int cmd_inspect(int argc, char **argv) {
  const char *model = NULL, *passes = NULL, *target = "c";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return EXIT_OK;
    } else if (!strcmp(a, "--passes") && i + 1 < argc) {
      passes = argv[++i];
    } else if (!strcmp(a, "--target") && i + 1 < argc) {
      target = argv[++i];
      if (strcmp(target, "c") && strcmp(target, "cuda")) {
        fprintf(stderr, "mc inspect: --target must be c or cuda, not '%s'\n", target);
        return EXIT_USAGE;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "mc inspect: unknown or incomplete option '%s'\n", a);
      return EXIT_USAGE;
    } else if (!model) {
      model = a;
    } else {
      fprintf(stderr, "mc inspect: more than one MODEL given\n");
      return EXIT_USAGE;
    }
  }
  if (!model) {
    usage(stderr);
    return EXIT_USAGE;
  }
  char perr[256];
  if (passes && !pm_check_pipeline(passes, perr, sizeof perr)) {
    fprintf(stderr, "mc inspect: --passes: %s\n", perr);
    return EXIT_USAGE;
  }
  Diag d;
  diag_init(&d);
  Loaded m;
  if (!drv_load(model, &d, &m)) return EXIT_REJECTED;
  Graph *g = m.g;
  PmOptions pm = {0};
  bool cuda = !strcmp(target, "cuda");
  pm.pipeline = passes ? passes : cuda ? pm_cuda_pipeline() : NULL;
  pm.verify = true;
  Plan plan;
  memset(&plan, 0, sizeof plan);
  DynInfo dyn = {0}; /* dynamic shapes: the arena holds every size within the Dims' bounds */
  if (pm_run(g, &pm, &d) || (ir_graph_is_dynamic(g) ? dyn_analyse(g, &dyn, &d) || plan_graph_sized(g, &plan, 0, dyn.bytes, dyn.nvalues, &d)
                                       : plan_graph(g, &plan, &d))) {
    dyn_info_free(&dyn);
    plan_free(&plan);
    ir_graph_free(g);
    return EXIT_REJECTED;
  }
  dyn_info_free(&dyn);
  HostList hl = {0};
  if (cuda && cuda_placement(g, &hl, &d)) {
    free(hl.h);
    plan_free(&plan);
    ir_graph_free(g);
    return EXIT_REJECTED;
  }
  Stats s;
  memset(&s, 0, sizeof s);
  s.g = g;
  ir_walk(g->top, count_node, &s);
  qsort(s.h, (size_t)s.nh, sizeof *s.h, hist_cmp);

  printf("model: %s\n", model);
  printf("inputs: %d\n", g->top->nparams);
  for (int i = 0; i < g->top->nparams; i++) put_value(g->top->params[i], i);
  if (g->ndims) printf("dims: %d (shapes above are the example's)\n", g->ndims);
  for (int k = 0; k < g->ndims; k++)
    printf("  %s in [%lld, %lld]: %%%s dim %d\n", g->dims[k].name, (long long)g->dims[k].min, (long long)g->dims[k].max,
           g->dims[k].value->name, g->dims[k].axis);
  if (g->sized_by_data)
    printf("sized by the data: results of %s and what is computed from them have run-time shapes; "
           "the shapes shown are their bounds\n", g->sized_kind);
  printf("outputs: %d\n", g->top->nrets);
  size_t arena = plan.arena_bytes;
  for (int i = 0; i < g->top->nrets; i++) {
    put_value(g->top->rets[i], i);
    if (g->top->rets[i]->type->kind != TY_TENSOR) arena += 64; /* emit_c.c's scalar output slot */
  }
  int total = 0;
  for (int i = 0; i < s.nh; i++) total += s.h[i].count;
  printf("ops: %d (constants not counted)\n", total);
  for (int i = 0; i < s.nh; i++) printf("  %-28s %d\n", s.h[i].kind, s.h[i].count);
  printf("parameters: %d constant tensors, %lld elements, %zu bytes\n", s.nconst, (long long)s.const_elems,
         s.const_bytes);
  put_count("flops: ", (double)s.flops);
  printf("arena bytes: %zu (live-set lower bound %zu)%s\n", arena, plan.lower_bound,
         ir_graph_is_dynamic(g) ? " at the bounds" : "");
  if (cuda) {
    if (!hl.total) printf("cuda: every node has device code (no host fallback)\n");
    else printf("cuda: %d node%s on the host (its C kernel, with copies each way):\n", hl.total, hl.total == 1 ? "" : "s");
    for (int i = 0; i < hl.nh; i++)
      printf("  %-28s %d  %s%s%s%s\n", hl.h[i].kind, hl.h[i].count, hl.h[i].why, hl.h[i].where ? " (first at " : "",
             hl.h[i].where ? hl.h[i].where : "", hl.h[i].where ? ")" : "");
  }
  free(hl.h);
  free(s.h);
  plan_free(&plan);
  ir_graph_free(g);
  return EXIT_OK;
}
