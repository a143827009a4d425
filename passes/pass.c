/* pass.c — the pass manager: the table of passes, pipeline parsing, --dump-ir instrumentation
 * and verification after every pass (MLIR's print-ir-before/after and enableVerifier). Each
 * dump section opens with a fixed header line: "// ----- IR before <pass> -----" or
 * "// ----- IR after <pass> -----"; "// ----- IR before pipeline -----" comes first. */
#include "pass.h"

#include "ops/ops.h"

#include <stdlib.h>
#include <string.h>

static const Pass passes[] = {
    {"prep", "check the graph is inlined and frozen, drop the unused module input, flatten tuple outputs", prep_run},
    {"infer", "infer dtypes and shapes by running kernels in meta mode; fold constants", infer_run},
    {"functionalize", "rewrite in-place ops and writes through views into value semantics", functionalize_run},
    {"fold_bn", "fold inference batch_norm into the preceding convolution's constant weights", fold_bn_run},
    {"fuse", "fuse float32 conv / linear / add with the activation that is their only use (mc::conv_act, mc::linear_act, mc::add_act)", fuse_run},
    {"dce", "remove nodes whose results and writes nobody can observe (alias-aware)", dce_run},
};

static const char default_pipeline[] = "prep,infer,functionalize,fold_bn,fuse,dce";
/* emit_cuda has no kernels for the fused ops */
static const char cuda_pipeline[] = "prep,infer,functionalize,fold_bn,dce";

/* A broken pass for the tests of --verify-passes (tests/ops/verify_passes.sh): the first
 * aten::add / aten::add_ becomes aten::sub / aten::sub_. Reachable only with MC_TEST_PASSES=1
 * in the environment, and never listed. */
static bool corrupt_node(Node *n, void *ctx) {
  bool *done = ctx;
  const char *to = ir_node_is(n, "aten::add") ? "aten::sub" : ir_node_is(n, "aten::add_") ? "aten::sub_" : NULL;
  if (!to) return true;
  n->kind = to;
  n->op = ops_lookup(to);
  *done = true;
  return false;
}

static int test_corrupt_run(Graph *g, PassCtx *c) {
  bool done = false;
  ir_walk(g->top, corrupt_node, &done);
  if (!done) diag_warning(c->diag, g->loc, "test-corrupt: no aten::add to corrupt");
  return 0;
}

static const Pass test_passes[] = {
    {"test-corrupt", "for tests only: turns the first add into a sub", test_corrupt_run},
};

const Pass *pm_find(const char *name) {
  for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++)
    if (strcmp(passes[i].name, name) == 0) return &passes[i];
  const char *t = getenv("MC_TEST_PASSES");
  if (t && !strcmp(t, "1"))
    for (size_t i = 0; i < sizeof test_passes / sizeof test_passes[0]; i++)
      if (strcmp(test_passes[i].name, name) == 0) return &test_passes[i];
  return NULL;
}

int pm_npasses(void) { return (int)(sizeof passes / sizeof passes[0]); }
const Pass *pm_pass(int i) { return i >= 0 && i < pm_npasses() ? &passes[i] : NULL; }
const char *pm_default_pipeline(void) { return default_pipeline; }
const char *pm_cuda_pipeline(void) { return cuda_pipeline; }

/* Splits "a,b,c" into names; returns count, or -1 when a name is too long or there are too many. */
static int split(const char *s, char names[][64], int max) {
  int n = 0;
  while (*s) {
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (len > 0) {
      if (len >= 64 || n >= max) return -1;
      memcpy(names[n], s, len);
      names[n][len] = 0;
      n++;
    }
    s += len + (e ? 1 : 0);
  }
  return n;
}

bool pm_check_pipeline(const char *pipeline, char *err, size_t errlen) {
  char names[64][64];
  int n = split(pipeline, names, 64);
  if (n < 0) {
    snprintf(err, errlen, "pipeline '%s' is too long", pipeline);
    return false;
  }
  for (int i = 0; i < n; i++) {
    if (!pm_find(names[i])) {
      snprintf(err, errlen, "unknown pass '%s' (see `mc compile --help`)", names[i]);
      return false;
    }
  }
  return true;
}

static void dump(const PmOptions *o, const Graph *g, const char *when, const char *name) {
  FILE *f = o->dump_out ? o->dump_out : stderr;
  fprintf(f, "// ----- IR %s %s -----\n", when, name);
  ir_print_graph(f, g, NULL);
}

int pm_run(Graph *g, const PmOptions *o, Diag *d) {
  const char *pipeline = o->pipeline ? o->pipeline : default_pipeline;
  char names[64][64];
  int n = split(pipeline, names, 64);
  if (n < 0) {
    diag_error(d, (SrcLoc){0}, "pipeline '%s' is too long", pipeline);
    return 1;
  }
  if (o->dump == DUMP_ALL || o->dump == DUMP_BEFORE) dump(o, g, "before", "pipeline");
  PvState *pv = NULL;
  if (o->verify_passes && !(pv = pv_begin(g, d))) return d->nerrors ? d->nerrors : 1;
  PassCtx c = {d, o->verbose};
  int status = 0;
  for (int i = 0; i < n && !status; i++) {
    const Pass *p = pm_find(names[i]);
    if (!p) {
      diag_error(d, (SrcLoc){0}, "unknown pass '%s'", names[i]);
      status = 1;
      break;
    }
    bool around = o->dump == DUMP_PASS && o->dump_pass && strcmp(o->dump_pass, p->name) == 0;
    if (around) dump(o, g, "before", p->name);
    int errs = p->run(g, &c);
    if (errs || d->nerrors) {
      status = errs ? errs : d->nerrors;
      break;
    }
    if (o->verify) {
      char when[96];
      snprintf(when, sizeof when, "after pass %s", p->name);
      int verrs = ir_verify(g, d, when);
      if (verrs) {
        status = verrs;
        break;
      }
      if (!ir_uses_check(g)) {
        diag_error(d, g->loc, "internal error: use counts out of date %s", when);
        status = 1;
        break;
      }
    }
    if (o->dump == DUMP_ALL || around) dump(o, g, "after", p->name);
    if (pv) status = pv_check(pv, g, p->name, d);
  }
  pv_end(pv);
  if (!status && o->dump == DUMP_AFTER) dump(o, g, "after", "pipeline");
  return status;
}
