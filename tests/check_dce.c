/* check_dce.c — alias analysis and the alias-aware `dce` pass.
 *
 * 1. Golden cases (tests/dce/NAME.txt + NAME.dce): each graph runs through its pipeline, then
 *    dce; the NAME.dce lines say which ops must remain ("count KIND N"), which must be gone
 *    ("gone KIND") and how many outputs a node keeps ("outs KIND N", of the first such node). The interpreter runs the
 *    graph before and after dce: outputs and final input values must match each other and what
 *    PyTorch computed (NAME.expect). The cases are the seed's optimizer step (a `sub_` whose
 *    result nobody uses: must stay), a momentum step, writes through views of inputs, a dead
 *    local clone (its writes and the clone go), a write after the last read of a clone (goes),
 *    prim::Print of a dead value (stays), a dead pure chain (goes), a prim::If with an unused
 *    output (the output and its computations go), an If that only writes a dead clone (goes),
 *    and loops where a write is read by the next iteration (stays). Then the same seed scenario
 *    and momentum step as PyTorch scripts and traces them, and translations of PyTorch's and
 *    TVM's own DCE tests (pt_*, tvm_*; each graph's header comment names the original test).
 *    Lines of NAME.dce that are none of the above are comments; a `nointerp` line (a graph
 *    with a module `self`) skips the interpreter and PyTorch comparison; `skip-functionalize`
 *    skips step 2 for a graph functionalize is known to get wrong (the .dce says why).
 * 2. When a `functionalize` pass is in the pass table, the same graphs also run through
 *    functionalize then dce and must still agree with PyTorch.
 * 3. Random graphs: a deterministic generator builds graphs of pure ops, views (select, slice,
 *    transpose, reshape) and in-place ops (add_, mul_, copy_) over three inputs, with prints and
 *    random outputs; interpreter before vs after dce must agree exactly (outputs and inputs).
 *    The count is printed. */
#include <check.h>

#include "dce/harness.h"
#include "passes/alias.h"

static const char *const golden[] = {
    "sgd_step", "momentum", "view_write", "dead_clone", "clone_read", "print_dead", "if_unused", "loop_carried",
    "loop_cond",
    /* the seed's scenario and a momentum step as PyTorch 1.13 scripts and traces them */
    "seed003_scripted", "seed003_traced", "momentum_scripted", "momentum_traced", "print_dead_scripted",
    "dead_pure", "dead_local",
    /* PyTorch's DCE tests: test/cpp/jit/test_dce.cpp, test/test_jit.py test_mutable_dce*,
     * test/jit/test_dce.py */
    "pt_loop_view_write", "pt_mutable_dce", "pt_mutable_dce_block", "pt_mutable_dce_graph_input",
    "pt_mutable_dce_list", "pt_mutable_dce_loop", "pt_mutable_dce_wildcards", "pt_mutable_dce_indirect_wildcards",
    "pt_mutable_dce_indirect_wildcard_write", "pt_setattr_no_aliasdb",
    /* TVM's tests/python/relay/test_pass_dead_code_elimination.py */
    "tvm_dead_let", "tvm_one_live_let", "tvm_nested_let", "tvm_add_with_let", "tvm_tuple_get_item",
    "tvm_live_recursion", "tvm_dead_recursion", "tvm_impure_op", "tvm_impure_func", "tvm_refs"};
enum { NGOLDEN = sizeof golden / sizeof golden[0] };

typedef struct RunResult {
  IrTensor **ins, **outs;
  int nin, nout, nevents;
} RunResult;

static void run(Graph *g, IrTensor *const *inputs, int nin, RunResult *r) {
  Diag d;
  diag_init(&d);
  r->ins = h_clone_all(inputs, nin);
  r->nin = nin;
  FILE *devnull = fopen("/dev/null", "w");
  InterpOptions o = {devnull, 0, 0};
  int rc = interp_run_opts(g, &o, r->ins, nin, &r->outs, &r->nout, &d);
  fclose(devnull);
  if (rc) ir_print_graph(stderr, g, NULL);
  ck_assert_msg(rc == 0, "interpreter failed");
  r->nevents = o.nevents;
}

static void free_result(RunResult *r) {
  interp_free_outputs(r->outs, r->nout);
  h_free_all(r->ins, r->nin);
}

/* 0 when a and b agree exactly; else 1 and a message. */
static int same_results(const RunResult *a, const RunResult *b, char *msg, size_t len) {
  char m[256];
  if (a->nout != b->nout) {
    snprintf(msg, len, "%d outputs vs %d", a->nout, b->nout);
    return 1;
  }
  for (int i = 0; i < a->nout; i++) {
    if (interp_tensor_compare(b->outs[i], a->outs[i], 0, 0, m, sizeof m)) {
      snprintf(msg, len, "output %d: %s", i, m);
      return 1;
    }
  }
  for (int i = 0; i < a->nin; i++) {
    if (interp_tensor_compare(b->ins[i], a->ins[i], 0, 0, m, sizeof m)) {
      snprintf(msg, len, "final value of input %d: %s", i, m);
      return 1;
    }
  }
  if (a->nevents != b->nevents) {
    snprintf(msg, len, "%d prints vs %d", a->nevents, b->nevents);
    return 1;
  }
  return 0;
}

static char *read_spec(const char *name, char *pipeline, size_t plen) {
  char path[256];
  snprintf(path, sizeof path, H_DIR "%s.dce", name);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  static char text[4096];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  snprintf(pipeline, plen, "prep,infer");
  char *p = strstr(text, "pipeline ");
  if (p) sscanf(p + 9, "%63s", pipeline);
  return text;
}

static void check_spec(Graph *g, const char *name, const char *spec) {
  char line[256];
  for (const char *p = spec; *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len >= sizeof line) len = sizeof line - 1;
    memcpy(line, p, len);
    line[len] = 0;
    p += len + (e ? 1 : 0);
    char kind[64];
    int want;
    if (sscanf(line, "count %63s %d", kind, &want) == 2) {
      int got = h_count(g, kind);
      if (got != want) ir_print_graph(stderr, g, NULL);
      ck_assert_msg(got == want, "%s: %d %s after dce, want %d", name, got, kind, want);
    } else if (sscanf(line, "gone %63s", kind) == 1) {
      if (h_count(g, kind)) ir_print_graph(stderr, g, NULL);
      ck_assert_msg(h_count(g, kind) == 0, "%s: %s still there after dce", name, kind);
    } else if (sscanf(line, "outs %63s %d", kind, &want) == 2) { /* the first such node */
      Node *n = g->top->first;
      while (n && !ir_node_is(n, kind)) n = n->next;
      ck_assert_msg(n != NULL, "%s: no %s", name, kind);
      ck_assert_msg(n->noutputs == want && n->blocks[0]->nrets == want, "%s: %s has %d outputs, want %d", name,
                        kind, n->noutputs, want);
    }
  }
}

static void golden_case(const char *name, bool functionalize) {
  char pipeline[80], msg[512];
  const char *spec = read_spec(name, pipeline, sizeof pipeline);
  Diag d;
  diag_init(&d);
  Graph *g = h_load(name, pipeline, &d);
  ck_assert_msg(g != NULL, "%s: load failed", name);
  if (strstr(spec, "\nnointerp") || !strncmp(spec, "nointerp", 8)) { /* structure only: see gen_expect.py */
    PmOptions o;
    memset(&o, 0, sizeof o);
    o.pipeline = functionalize ? "functionalize,dce" : "dce";
    o.verify = true;
    ck_assert_msg(pm_run(g, &o, &d) == 0, "%s: %s failed", name, o.pipeline);
    if (!functionalize) check_spec(g, name, spec);
    ir_graph_free(g);
    return;
  }
  int nin;
  IrTensor **inputs = h_inputs(g, &nin);
  RunResult before, after;
  run(g, inputs, nin, &before);
  ck_assert_msg(h_check_expect(name, before.outs, before.nout, before.ins, nin, msg, sizeof msg) == 0, "%s", msg);
  PmOptions o;
  memset(&o, 0, sizeof o);
  o.pipeline = functionalize ? "functionalize,dce" : "dce";
  o.verify = true;
  ck_assert_msg(pm_run(g, &o, &d) == 0, "%s: %s failed", name, o.pipeline);
  if (!functionalize) check_spec(g, name, spec);
  run(g, inputs, nin, &after);
  ck_assert_msg(h_check_expect(name, after.outs, after.nout, after.ins, nin, msg, sizeof msg) == 0, "after %s: %s",
                o.pipeline, msg);
  ck_assert_msg(same_results(&before, &after, msg, sizeof msg) == 0, "%s: before vs after %s: %s", name, o.pipeline,
                msg);
  free_result(&before);
  free_result(&after);
  h_free_all(inputs, nin);
  ir_graph_free(g);
}

START_TEST(test_golden) { golden_case(golden[_i], false); }
END_TEST

START_TEST(test_golden_functionalize) {
  if (!pm_find("functionalize")) return; /* not in the pass table yet */
  char pipeline[80];
  read_spec(golden[_i], pipeline, sizeof pipeline);
  if (strcmp(pipeline, "prep,infer") != 0) return; /* control flow: functionalize needs infer */
  if (strstr(read_spec(golden[_i], pipeline, sizeof pipeline), "\nskip-functionalize")) return;
  golden_case(golden[_i], true);
}
END_TEST

/* view_write: %c = x[1:3, 2] and %d = x^T[0] alias the input x, %r = y + 1 is fresh. */
START_TEST(test_alias_sets) {
  Diag d;
  diag_init(&d);
  Graph *g = h_load("view_write", "prep,infer", &d);
  ck_assert_ptr_nonnull(g);
  AliasDb *a = alias_analyze(g);
  Value *x = ir_find_value(g, "x"), *y = ir_find_value(g, "y"), *c = ir_find_value(g, "c");
  Value *dd = ir_find_value(g, "d"), *r = ir_find_value(g, "r"), *m = ir_find_value(g, "m");
  ck_assert(x && y && c && dd && r && m);
  ck_assert(alias_may_alias(a, c, x));
  ck_assert(alias_may_alias(a, dd, x));
  ck_assert(alias_may_alias(a, m, c));
  ck_assert(!alias_may_alias(a, c, y));
  ck_assert(!alias_may_alias(a, r, x));
  ck_assert(!alias_may_alias(a, r, y));
  ck_assert(alias_may_alias_io(a, r));
  Value *d1 = ir_find_value(g, "d1");
  ck_assert_ptr_nonnull(d1);
  ck_assert(alias_nodes_conflict(a, m->def, d1->def));         /* both write x */
  ck_assert(alias_nodes_conflict(a, m->def, r->def) == false); /* disjoint storage */
  alias_free(a);
  ir_graph_free(g);
}
END_TEST

/* ---- random graphs ------------------------------------------------------------------------ */
typedef struct Gen {
  Graph *g;
  uint64_t s;
  Value *pool[96];
  int ndim[96];
  int64_t shape[96][2];
  int root[96]; /* the pool entry whose storage this value uses (maybe-views included) */
  int n;
} Gen;

static uint32_t rnd(Gen *G, uint32_t n) {
  G->s = G->s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(G->s >> 33) % n;
}

static Value *cint(Gen *G, int64_t x) {
  Node *n = ir_make_constant_int(G->g, x, (SrcLoc){0});
  ir_append(G->g->top, n);
  return n->outputs[0];
}

static Value *cfloat(Gen *G, double x) {
  Node *n = ir_make_constant_float(G->g, x, (SrcLoc){0});
  ir_append(G->g->top, n);
  return n->outputs[0];
}

static Value *emit(Gen *G, const char *kind, Value **ins, int nin, int nout) {
  Node *n = ir_node_new(G->g, kind, ins, nin, nout, NULL);
  ir_append(G->g->top, n);
  return nout ? n->outputs[0] : NULL;
}

static void push_root(Gen *G, Value *v, int ndim, const int64_t *shape, int root) {
  if (G->n == 96) return;
  G->root[G->n] = root < 0 ? G->n : root;
  G->pool[G->n] = v;
  G->ndim[G->n] = ndim;
  for (int i = 0; i < ndim; i++) G->shape[G->n][i] = shape[i];
  G->n++;
}

static void push(Gen *G, Value *v, int ndim, const int64_t *shape) { push_root(G, v, ndim, shape, -1); }

/* A pool value with the same shape as entry k (k itself allowed), or -1. For the source of an
 * in-place op (`distinct`), only k itself or values not sharing k's storage: PyTorch rejects
 * `x.add_(x.t())` ("some elements of the input tensor and the written-to tensor refer to a
 * single memory location"), so such graphs have no reference result. */
static int same_shape(Gen *G, int k, bool distinct) {
  int cand[96], nc = 0;
  for (int j = 0; j < G->n; j++) {
    if (distinct && j != k && G->root[j] == G->root[k]) continue;
    bool eq = G->ndim[j] == G->ndim[k];
    for (int i = 0; eq && i < G->ndim[k]; i++) eq = G->shape[j][i] == G->shape[k][i];
    if (eq) cand[nc++] = j;
  }
  return nc ? cand[rnd(G, (uint32_t)nc)] : -1;
}

static Graph *gen_graph(uint64_t seed) {
  Gen G;
  memset(&G, 0, sizeof G);
  G.s = seed * 2654435761u + 1;
  G.g = ir_graph_new("random");
  int64_t sh[2] = {4, 4};
  for (int i = 0; i < 3; i++) {
    char name[16];
    snprintf(name, sizeof name, "x%d", i);
    Value *p = ir_block_add_param(G.g->top, ir_type_tensor(G.g->arena, DT_F32, 2, sh), name);
    push(&G, p, 2, sh);
  }
  int nops = 6 + (int)rnd(&G, 12);
  for (int k = 0; k < nops; k++) {
    int a = (int)rnd(&G, (uint32_t)G.n);
    Value *av = G.pool[a];
    int nd = G.ndim[a];
    int64_t *s = G.shape[a], ns[2];
    switch (rnd(&G, 12)) {
    case 0: { /* pure binary */
      int b = same_shape(&G, a, false);
      Value *ins[3] = {av, rnd(&G, 2) ? G.pool[b] : cfloat(&G, 0.5), cint(&G, 1)};
      Value *r = emit(&G, rnd(&G, 2) ? "aten::add" : "aten::sub", ins, 3, 1);
      if (k % 2 == 0) { /* relu of it, which fuse may merge into an add of two tensors */
        Value *ri[1] = {r};
        r = emit(&G, "aten::relu", ri, 1, 1);
      }
      push(&G, r, nd, s);
      break;
    }
    case 1: {
      Value *ins[2] = {av, cfloat(&G, rnd(&G, 2) ? 0.5 : -2.0)};
      push(&G, emit(&G, "aten::mul", ins, 2, 1), nd, s);
      break;
    }
    case 2: {
      Node *none = ir_make_constant_none(G.g, (SrcLoc){0});
      ir_append(G.g->top, none);
      Value *ins[2] = {av, none->outputs[0]};
      bool clone = rnd(&G, 3) != 0;
      push(&G, emit(&G, clone ? "aten::clone" : "aten::neg", ins, clone ? 2 : 1, 1), nd, s);
      break;
    }
    case 3: { /* select: rank 2 -> 1 */
      if (nd != 2) break;
      int dim = (int)rnd(&G, 2);
      Value *ins[3] = {av, cint(&G, dim), cint(&G, (int64_t)rnd(&G, (uint32_t)s[dim]))};
      ns[0] = s[1 - dim];
      push_root(&G, emit(&G, "aten::select", ins, 3, 1), 1, ns, G.root[a]);
      break;
    }
    case 4: { /* slice */
      int dim = (int)rnd(&G, (uint32_t)nd);
      int64_t start = rnd(&G, (uint32_t)s[dim]), step = 1 + rnd(&G, 2);
      int64_t end = start + 1 + rnd(&G, (uint32_t)(s[dim] - start));
      Value *ins[5] = {av, cint(&G, dim), cint(&G, start), cint(&G, end), cint(&G, step)};
      for (int i = 0; i < nd; i++) ns[i] = s[i];
      ns[dim] = (end - start + step - 1) / step;
      push_root(&G, emit(&G, "aten::slice", ins, 5, 1), nd, ns, G.root[a]);
      break;
    }
    case 5: {
      if (nd != 2) break;
      Value *ins[3] = {av, cint(&G, 0), cint(&G, 1)};
      ns[0] = s[1];
      ns[1] = s[0];
      push_root(&G, emit(&G, "aten::transpose", ins, 3, 1), 2, ns, G.root[a]);
      break;
    }
    case 6: { /* reshape to 1-D: a view or a copy depending on strides */
      ns[0] = nd == 2 ? s[0] * s[1] : s[0];
      Node *c = ir_make_constant_ints(G.g, ns, 1, (SrcLoc){0});
      ir_append(G.g->top, c);
      Value *ins[2] = {av, c->outputs[0]};
      push_root(&G, emit(&G, "aten::reshape", ins, 2, 1), 1, ns, G.root[a]);
      break;
    }
    case 7: case 8: { /* in-place add_/sub_ */
      int b = same_shape(&G, a, true);
      Value *ins[3] = {av, rnd(&G, 2) ? G.pool[b] : cfloat(&G, 1.5), cint(&G, 1)};
      push_root(&G, emit(&G, rnd(&G, 2) ? "aten::add_" : "aten::sub_", ins, 3, 1), nd, s, G.root[a]);
      break;
    }
    case 9: {
      Value *ins[2] = {av, cfloat(&G, -0.5)};
      push_root(&G, emit(&G, "aten::mul_", ins, 2, 1), nd, s, G.root[a]);
      break;
    }
    case 10: {
      int b = same_shape(&G, a, true);
      Value *ins[2] = {av, G.pool[b]};
      push_root(&G, emit(&G, "aten::copy_", ins, 2, 1), nd, s, G.root[a]);
      break;
    }
    case 11: {
      if (rnd(&G, 3) == 0) {
        Value *ins[1] = {av};
        emit(&G, "prim::Print", ins, 1, 0);
      }
      break;
    }
    }
  }
  int nret = 1 + (int)rnd(&G, 2);
  for (int i = 0; i < nret; i++) ir_block_add_ret(G.g->top, G.pool[rnd(&G, (uint32_t)G.n)]);
  return G.g;
}

static int count_nodes(Graph *g) {
  int n = 0;
  for (Node *m = g->top->first; m; m = m->next) n++;
  return n;
}

START_TEST(test_random_graphs) {
  enum { NGRAPHS = 1000 };
  int removed = 0, with_removal = 0, kept_writes = 0, functionalized = 0, fused = 0;
  char msg[512];
  for (int k = 0; k < NGRAPHS; k++) {
    Diag d;
    diag_init(&d);
    Graph *g = gen_graph((uint64_t)k);
    ck_assert_int_eq(ops_resolve(g, &d), 0);
    PmOptions o;
    memset(&o, 0, sizeof o);
    o.pipeline = "infer";
    o.verify = true;
    if (pm_run(g, &o, &d)) ir_print_graph(stderr, g, NULL);
    ck_assert_msg(d.nerrors == 0, "random graph %d: infer failed", k);
    int nin;
    IrTensor **inputs = h_inputs(g, &nin);
    RunResult before, after;
    run(g, inputs, nin, &before);
    int n0 = count_nodes(g);
    PassCtx c = {&d, 0};
    ck_assert_int_eq(dce_run(g, &c), 0);
    ck_assert_int_eq(ir_verify(g, &d, "after dce"), 0);
    int n1 = count_nodes(g);
    removed += n0 - n1;
    with_removal += n1 < n0;
    for (Node *m = g->top->first; m; m = m->next) kept_writes += ir_node_is(m, "aten::add_") || ir_node_is(m, "aten::mul_");
    run(g, inputs, nin, &after);
    if (same_results(&before, &after, msg, sizeof msg)) {
      Graph *orig = gen_graph((uint64_t)k);
      fprintf(stderr, "random graph %d before dce:\n", k);
      ir_print_graph(stderr, orig, NULL);
      fprintf(stderr, "after dce:\n");
      ir_print_graph(stderr, g, NULL);
      ck_abort_msg("random graph %d: %s", k, msg);
    }
    if (pm_find("functionalize")) {
      /* the same graph through functionalize,dce */
      Graph *f = gen_graph((uint64_t)k);
      ck_assert_int_eq(ops_resolve(f, &d), 0);
      o.pipeline = pm_find("fuse") ? "infer,functionalize,fuse,dce" : "infer,functionalize,dce";
      if (pm_run(f, &o, &d)) ir_print_graph(stderr, f, NULL);
      ck_assert_msg(d.nerrors == 0, "random graph %d: functionalize failed", k);
      RunResult fz;
      run(f, inputs, nin, &fz);
      if (same_results(&before, &fz, msg, sizeof msg)) {
        Graph *orig = gen_graph((uint64_t)k);
        fprintf(stderr, "random graph %d:\n", k);
        ir_print_graph(stderr, orig, NULL);
        fprintf(stderr, "after %s:\n", o.pipeline);
        ir_print_graph(stderr, f, NULL);
        ck_abort_msg("random graph %d after functionalize,dce: %s", k, msg);
      }
      for (Node *m = f->top->first; m; m = m->next) fused += ir_node_is(m, "mc::add_act");
      free_result(&fz);
      ir_graph_free(f);
      functionalized++;
    }
    free_result(&before);
    free_result(&after);
    h_free_all(inputs, nin);
    ir_graph_free(g);
  }
  printf("check_dce: %d random graphs, 0 mismatches; dce removed %d nodes in %d of them, kept %d in-place writes; "
         "%d also through functionalize,(fuse,)dce, %d add + relu fused\n",
         NGRAPHS, removed, with_removal, kept_writes, functionalized, fused);
  if (pm_find("fuse")) ck_assert_int_gt(fused, 0);
  ck_assert_int_gt(with_removal, NGRAPHS / 4);
  ck_assert_int_gt(kept_writes, 0);
}
END_TEST

static Suite *dce_suite(void) {
  Suite *s = suite_create("dce");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_golden, 0, NGOLDEN);
  tcase_add_loop_test(tc, test_golden_functionalize, 0, NGOLDEN);
  tcase_add_test(tc, test_alias_sets);
  tcase_add_test(tc, test_random_graphs);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(dce_suite());
  srunner_set_fork_status(sr, CK_FORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
