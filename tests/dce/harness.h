/* harness.h — shared by tests/check_interp.c and tests/check_dce.c: loads the graphs of
 * tests/dce/, builds their deterministic inputs and compares results with the NAME.expect files
 * that PyTorch itself wrote (tests/dce/gen_expect.py; the input formula below is the same). */
#ifndef MC_TESTS_DCE_HARNESS_H
#define MC_TESTS_DCE_HARNESS_H

#include "frontend/ts.h"
#include "interp/interp.h"
#include "ops/ops.h"
#include "passes/pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define H_DIR "tests/dce/"

/* Parses tests/dce/NAME.txt, resolves ops and runs `pipeline` ("" = none). NULL on error. */
static Graph *h_load(const char *name, const char *pipeline, Diag *d) {
  char path[256];
  snprintf(path, sizeof path, H_DIR "%s.txt", name);
  Graph *g = ts_parse_file(path, d);
  if (!g) return NULL;
  if (ops_resolve(g, d)) return NULL;
  if (pipeline && *pipeline) {
    PmOptions o;
    memset(&o, 0, sizeof o);
    o.pipeline = pipeline;
    o.verify = true;
    if (pm_run(g, &o, d)) return NULL;
  }
  return g;
}

/* Element k of float input i: ((3k + 5i) mod 11 - 5) / 2. */
static IrTensor *h_input(int i, DType dt, int ndim, const int64_t *shape) {
  IrTensor *t = interp_tensor_new(dt, ndim, shape);
  size_t n = t->nbytes / ir_dtype_size(dt);
  for (size_t k = 0; k < n; k++) {
    double v = ((int64_t)(3 * k + 5 * (size_t)i) % 11 - 5) * 0.5;
    if (dt == DT_F32) ((float *)t->data)[k] = (float)v;
    else if (dt == DT_F64) ((double *)t->data)[k] = v;
  }
  return t;
}

static IrTensor **h_inputs(const Graph *g, int *n) {
  Block *top = g->top;
  *n = top->nparams;
  IrTensor **ins = calloc((size_t)*n + 1, sizeof *ins);
  for (int i = 0; i < *n; i++) {
    const Type *t = top->params[i]->type;
    ins[i] = h_input(i, t->dtype == DT_UNDEF ? DT_F32 : t->dtype, t->ndim < 0 ? 0 : t->ndim, t->shape);
  }
  return ins;
}

static IrTensor **h_clone_all(IrTensor *const *ts, int n) {
  IrTensor **c = calloc((size_t)n + 1, sizeof *c);
  for (int i = 0; i < n; i++) c[i] = interp_tensor_clone(ts[i]);
  return c;
}

static void h_free_all(IrTensor **ts, int n) {
  for (int i = 0; i < n; i++) interp_tensor_free(ts[i]);
  free(ts);
}

/* Compares outputs and final inputs with tests/dce/NAME.expect. 0 = equal; else 1 and msg. */
static int h_check_expect(const char *name, IrTensor *const *outs, int nout, IrTensor *const *ins, int nin, char *msg,
                          size_t msglen) {
  char path[256], line[8192];
  snprintf(path, sizeof path, H_DIR "%s.expect", name);
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msglen, "cannot open %s", path);
    return 1;
  }
  int seen_out = 0, rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    char tag[8], dt[16];
    int k, ndim, pos = 0;
    if (sscanf(line, "%7s %d %15s %d%n", tag, &k, dt, &ndim, &pos) != 4) continue;
    char *p = line + pos;
    int64_t shape[IR_MAX_DIMS];
    for (int i = 0; i < ndim; i++) shape[i] = strtoll(p, &p, 10);
    p = strchr(p, ':');
    if (!p) continue;
    p++;
    IrTensor *want = interp_tensor_new(ir_dtype_from_name(dt), ndim, shape);
    size_t es = ir_dtype_size(want->dtype), n = want->nbytes / es;
    for (size_t i = 0; i < n; i++) {
      double v = strtod(p, &p);
      switch (want->dtype) {
      case DT_F32: ((float *)want->data)[i] = (float)v; break;
      case DT_F64: ((double *)want->data)[i] = v; break;
      case DT_I64: ((int64_t *)want->data)[i] = (int64_t)v; break;
      default: ((uint8_t *)want->data)[i] = v != 0; break;
      }
    }
    bool is_out = strcmp(tag, "out") == 0;
    IrTensor *got = NULL;
    if (is_out) {
      seen_out++;
      if (k < nout) got = outs[k];
    } else if (k < nin) {
      got = ins[k];
    }
    char m[256];
    if (!got) {
      snprintf(msg, msglen, "%s: %s %d missing", name, tag, k);
      rc = 1;
    } else if (interp_tensor_compare(got, want, 1e-5, 1e-6, m, sizeof m)) {
      snprintf(msg, msglen, "%s: %s %d differs from PyTorch: %s", name, tag, k, m);
      rc = 1;
    }
    interp_tensor_free(want);
  }
  fclose(f);
  if (rc == 0 && seen_out != nout) {
    snprintf(msg, msglen, "%s: %d outputs, PyTorch has %d", name, nout, seen_out);
    rc = 1;
  }
  return rc;
}

typedef struct HCount {
  const char *kind;
  int n;
} HCount;

static bool h_count_node(Node *n, void *ctx) {
  HCount *c = ctx;
  if (ir_node_is(n, c->kind)) c->n++;
  return true;
}

static int h_count(Graph *g, const char *kind) {
  HCount c = {kind, 0};
  ir_walk(g->top, h_count_node, &c);
  return c.n;
}

#endif
