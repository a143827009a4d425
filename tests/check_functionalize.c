/* check_functionalize.c — the `functionalize` pass (passes/functionalize.c).
 *
 * Cases: every NAME.txt in tests/functionalize/cases (directory from MC_FZ_DIR) is a graph
 * PyTorch 1.13 printed for a small module that writes in place, and NAME.data holds random
 * inputs, PyTorch's outputs and the inputs' final values (gen.py writes both). For each case:
 *   - after prep,infer,functionalize,dce no node writes memory except mc::write_back, and one
 *     mc::write_back exists exactly when PyTorch changed some input;
 *   - the reference interpreter, run on the functionalized graph, gives PyTorch's outputs and
 *     leaves PyTorch's final values in the inputs;
 *   - differentially, the interpreter run on the graph before functionalize (reference
 *     semantics) agrees with PyTorch too, so a failure points at the pass, not the kernels.
 * Rewrite rules: for the cases in `rules` the functionalized IR must contain the inverse ops
 * named there, and print exactly as tests/functionalize/golden/NAME.ir (golden files; set
 * MC_FZ_UPDATE_GOLDEN=1 to rewrite them and review the diff).
 * Errors: errors/NAME.txt must be refused; NAME.err holds the pipeline and a message substring.
 * Run from the repository root.
 */
#include <check.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ts.h"
#include "interp/interp.h"
#include "ops/ops.h"
#include "passes/pass.h"

static const char *case_dir(void) {
  const char *d = getenv("MC_FZ_DIR");
  return d ? d : "tests/functionalize/cases";
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
  buf[n] = 0;
  fclose(f);
  return buf;
}

/* Loads a graph and runs `pipeline`; returns NULL with the diagnostics in *err. */
static Graph *load(const char *path, const char *pipeline, char **err) {
  size_t len = 0;
  FILE *out = open_memstream(err, &len);
  Diag d;
  diag_init(&d);
  d.out = out;
  Graph *g = ts_parse_file(path, &d);
  if (g && ops_resolve(g, &d) == 0) {
    PmOptions o = {0};
    o.pipeline = pipeline;
    o.verify = true;
    if (pm_run(g, &o, &d) != 0) {
      ir_graph_free(g);
      g = NULL;
    }
  } else if (g) {
    ir_graph_free(g);
    g = NULL;
  }
  fclose(out);
  return g;
}

/* ---- NAME.data ------------------------------------------------------------------------------ */
typedef struct CaseData {
  IrTensor *in[8], *out[8], *fin[8];
  int nin, nout, nfin;
} CaseData;

static IrTensor *parse_tensor(char *line) {
  char *save = NULL;
  strtok_r(line, " \n", &save);
  DType dt = ir_dtype_from_name(strtok_r(NULL, " \n", &save));
  int ndim = atoi(strtok_r(NULL, " \n", &save));
  int64_t shape[IR_MAX_DIMS];
  for (int i = 0; i < ndim; i++) shape[i] = strtoll(strtok_r(NULL, " \n", &save), NULL, 10);
  IrTensor *t = interp_tensor_new(dt, ndim, shape);
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) n *= shape[i];
  for (int64_t k = 0; k < n; k++) {
    const char *tok = strtok_r(NULL, " \n", &save);
    ck_assert_msg(tok != NULL, "data line too short");
    switch (dt) {
    case DT_F32: ((float *)t->data)[k] = strtof(tok, NULL); break;
    case DT_F64: ((double *)t->data)[k] = strtod(tok, NULL); break;
    case DT_I64: ((int64_t *)t->data)[k] = strtoll(tok, NULL, 10); break;
    case DT_I32: ((int32_t *)t->data)[k] = (int32_t)strtol(tok, NULL, 10); break;
    case DT_U8:
    case DT_BOOL: ((uint8_t *)t->data)[k] = (uint8_t)strtol(tok, NULL, 10); break;
    default: ck_abort_msg("dtype %s not handled", ir_dtype_name(dt));
    }
  }
  return t;
}

static void read_data(const char *path, CaseData *cd) {
  memset(cd, 0, sizeof *cd);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0) {
    if (!strncmp(line, "in ", 3)) cd->in[cd->nin++] = parse_tensor(line);
    else if (!strncmp(line, "out ", 4)) cd->out[cd->nout++] = parse_tensor(line);
    else if (!strncmp(line, "final ", 6)) cd->fin[cd->nfin++] = parse_tensor(line);
  }
  free(line);
  fclose(f);
}

static void free_data(CaseData *cd) {
  for (int i = 0; i < cd->nin; i++) interp_tensor_free(cd->in[i]);
  for (int i = 0; i < cd->nout; i++) interp_tensor_free(cd->out[i]);
  for (int i = 0; i < cd->nfin; i++) interp_tensor_free(cd->fin[i]);
}

/* Runs g on copies of the inputs and compares outputs and final inputs with PyTorch's. */
static void run_and_compare(const char *name, const char *when, Graph *g, const CaseData *cd) {
  IrTensor *ins[8];
  for (int i = 0; i < cd->nin; i++) ins[i] = interp_tensor_clone(cd->in[i]);
  IrTensor **outs = NULL;
  int nout = 0;
  char *err = NULL;
  size_t len = 0;
  FILE *ef = open_memstream(&err, &len);
  Diag d;
  diag_init(&d);
  d.out = ef;
  int rc = interp_run(g, ins, cd->nin, &outs, &nout, &d);
  fclose(ef);
  ck_assert_msg(rc == 0, "%s (%s): interpreter failed:\n%s", name, when, err);
  ck_assert_msg(nout == cd->nout, "%s (%s): %d outputs, PyTorch gives %d", name, when, nout, cd->nout);
  char msg[512];
  for (int i = 0; i < nout; i++)
    ck_assert_msg(interp_tensor_compare(outs[i], cd->out[i], 1e-5, 1e-6, msg, sizeof msg) == 0,
                  "%s (%s): output %d: %s", name, when, i, msg);
  for (int i = 0; i < cd->nin; i++)
    ck_assert_msg(interp_tensor_compare(ins[i], cd->fin[i], 1e-5, 1e-6, msg, sizeof msg) == 0,
                  "%s (%s): final value of input %d: %s", name, when, i, msg);
  interp_free_outputs(outs, nout);
  for (int i = 0; i < cd->nin; i++) interp_tensor_free(ins[i]);
  free(err);
}

static bool input_changed(const CaseData *cd) {
  char msg[64];
  for (int i = 0; i < cd->nin; i++)
    if (interp_tensor_compare(cd->fin[i], cd->in[i], 0, 0, msg, sizeof msg) != 0) return true;
  return false;
}

typedef struct Census {
  int writes, write_backs;
  const char *first_write;
  char kinds[4096];
} Census;

static bool census_fn(Node *n, void *ctx) {
  Census *c = ctx;
  const OpDef *op = n->op ? n->op : ops_lookup(n->kind);
  if (ir_node_is(n, "mc::write_back")) c->write_backs++;
  else if (op && op->effect == EFF_WRITE) {
    c->writes++;
    c->first_write = n->kind;
  }
  size_t l = strlen(c->kinds);
  snprintf(c->kinds + l, sizeof c->kinds - l, " %s", n->kind);
  return true;
}

/* ---- the case table ------------------------------------------------------------------------ */
static char *cases[256];
static int ncases;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void find_cases(const char *dir, char **out, int *n, int max) {
  DIR *dh = opendir(dir);
  if (!dh) return;
  struct dirent *e;
  while ((e = readdir(dh)) && *n < max) {
    size_t l = strlen(e->d_name);
    if (l > 4 && !strcmp(e->d_name + l - 4, ".txt")) out[(*n)++] = strndup(e->d_name, l - 4);
  }
  closedir(dh);
  qsort(out, (size_t)*n, sizeof *out, cmp_str);
}

/* Inverse ops each rewrite rule must produce (op kinds after functionalize, dce). */
static const struct {
  const char *name;
  const char *must[4];
} rules[] = {
    {"seed", {"aten::slice_scatter"}},
    {"step_fill", {"aten::slice_scatter", "aten::fill"}},
    {"select_neg", {"aten::select_scatter"}},
    {"select_select", {"aten::select_scatter"}},
    {"view_write", {"aten::reshape", "aten::select_scatter", "aten::slice_scatter"}},
    {"t_write", {"aten::t", "aten::select_scatter"}},
    {"diag_fill", {"aten::diagonal_scatter"}},
    {"permute_write", {"aten::permute", "aten::select_scatter"}},
    {"movedim_write", {"aten::permute", "aten::select_scatter"}},
    {"cast_copy", {"aten::to", "aten::slice_scatter"}},
    {"bcast_copy", {"aten::expand", "aten::slice_scatter"}},
    {"relu_ret", {"aten::relu", "mc::write_back"}},
    {"mask_put", {"aten::index_put", "mc::write_back"}},
    {"narrow_write", {"aten::slice_scatter"}},
    {"out_alias", {"aten::add", "mc::write_back"}},
    {"second_input", {"aten::select_scatter", "mc::write_back"}},
    {"squeeze_write", {"aten::reshape", "aten::select_scatter"}},
    {"idx_acc", {"aten::index", "aten::index_put"}},
    {"two_views", {"aten::slice_scatter", "aten::select"}},
    {"copy_then_src_write", {"aten::clone", "aten::add"}},
    {"expand_write", {"aten::select_scatter", "aten::narrow"}},
};

/* The IR after functionalize,dce, without source locations, for the cases in `rules`: compared
 * with tests/functionalize/golden/NAME.ir, or written there when MC_FZ_UPDATE_GOLDEN is set. */
static void check_golden(const char *name, const Graph *g) {
  bool listed = false;
  for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) listed |= strcmp(rules[r].name, name) == 0;
  if (!listed) return;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  PrintOpts o = {.locations = false, .tensor_data = true};
  ir_print_graph(f, g, &o);
  fclose(f);
  char path[1024];
  const char *dir = getenv("MC_FZ_GOLDEN_DIR");
  snprintf(path, sizeof path, "%s/%s.ir", dir ? dir : "tests/functionalize/golden", name);
  if (getenv("MC_FZ_UPDATE_GOLDEN")) {
    FILE *w = fopen(path, "w");
    ck_assert_msg(w != NULL, "cannot write %s", path);
    fputs(text, w);
    fclose(w);
  } else {
    char *want = read_file(path);
    ck_assert_msg(want != NULL, "%s: no golden %s (MC_FZ_UPDATE_GOLDEN=1 writes it)", name, path);
    ck_assert_msg(strcmp(want, text) == 0, "%s: IR differs from %s:\n%s", name, path, text);
    free(want);
  }
  free(text);
}

START_TEST(test_case) {
  const char *name = cases[_i];
  char path[1024];
  CaseData cd;
  snprintf(path, sizeof path, "%s/%s.data", case_dir(), name);
  read_data(path, &cd);
  snprintf(path, sizeof path, "%s/%s.txt", case_dir(), name);

  char *err = NULL;
  Graph *ref = load(path, "prep,infer", &err);
  ck_assert_msg(ref != NULL, "%s: prep,infer failed:\n%s", name, err);
  free(err);
  run_and_compare(name, "reference semantics, before functionalize", ref, &cd);
  ir_graph_free(ref);

  Graph *g = load(path, "prep,infer,functionalize,dce", &err);
  ck_assert_msg(g != NULL, "%s: functionalize failed:\n%s", name, err);
  free(err);
  Census c = {0};
  ir_walk(g->top, census_fn, &c);
  ck_assert_msg(c.writes == 0, "%s: '%s' still writes after functionalize", name, c.first_write);
  ck_assert_msg((c.write_backs > 0) == input_changed(&cd), "%s: %d write-backs, but PyTorch %s an input", name,
                c.write_backs, input_changed(&cd) ? "changes" : "changes no");
  for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
    if (strcmp(rules[r].name, name) != 0) continue;
    for (int k = 0; k < 4 && rules[r].must[k]; k++) {
      char want[128];
      snprintf(want, sizeof want, " %s ", rules[r].must[k]);
      size_t l = strlen(c.kinds);
      c.kinds[l] = ' ', c.kinds[l + 1] = 0;
      ck_assert_msg(strstr(c.kinds, want) != NULL, "%s: no %s after functionalize:%s", name, rules[r].must[k], c.kinds);
      c.kinds[l] = 0;
    }
  }
  check_golden(name, g);
  run_and_compare(name, "after functionalize", g, &cd);
  ir_graph_free(g);
  free_data(&cd);
}
END_TEST

static char *errcases[64];
static int nerrcases;

START_TEST(test_error) {
  const char *name = errcases[_i];
  char path[1024], spec_path[1024];
  snprintf(spec_path, sizeof spec_path, "%s/errors/%s.err", case_dir(), name);
  snprintf(path, sizeof path, "%s/errors/%s.txt", case_dir(), name);
  char *spec = read_file(spec_path);
  ck_assert_msg(spec != NULL, "cannot read %s", spec_path);
  char *nl = strchr(spec, '\n');
  ck_assert(nl != NULL);
  *nl = 0;
  char *msg = nl + 1;
  char *end = strchr(msg, '\n');
  if (end) *end = 0;
  char *err = NULL;
  Graph *g = load(path, spec, &err);
  ck_assert_msg(g == NULL, "%s: accepted, but must be refused", name);
  ck_assert_msg(strstr(err, msg) != NULL, "%s: expected '%s' in:\n%s", name, msg, err);
  /* located: FILE:LINE:COL: error: */
  char loc[1100];
  snprintf(loc, sizeof loc, "%s:", path);
  ck_assert_msg(strncmp(err, loc, strlen(loc)) == 0 && strstr(err, ": error: "), "%s: not located:\n%s", name, err);
  free(err);
  free(spec);
}
END_TEST

/* A write into storage that a list holds, read through the list after the write: the list holds
 * a reference, so cat must see the new value (PyTorch: cat([x, y]) after x.add_(1) reads x + 1).
 * Expected values by hand: x = [1, 2], y = [5]; x.add_(1) -> x = [2, 3]; cat = [2, 3, 5]. */
static const char list_ref_graph[] =
    "graph(%x : Float(2, strides=[1], requires_grad=0, device=cpu),\n"
    "      %y : Float(1, strides=[1], requires_grad=0, device=cpu)):\n"
    "  %l : Tensor[] = prim::ListConstruct(%x, %y)\n"
    "  %one : int = prim::Constant[value=1]()\n"
    "  %z : int = prim::Constant[value=0]()\n"
    "  %a : Float(2, strides=[1], requires_grad=0, device=cpu) = aten::add_(%x, %one, %one)\n"
    "  %c : Float(3, strides=[1], requires_grad=0, device=cpu) = aten::cat(%l, %z)\n"
    "  return (%c)\n";

START_TEST(test_list_reference) {
  char path[] = "/tmp/mc_fz_listXXXXXX";
  int fd = mkstemp(path);
  ck_assert(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(list_ref_graph, f);
  fclose(f);
  char *err = NULL;
  Graph *g = load(path, "prep,infer,functionalize,dce", &err);
  ck_assert_msg(g != NULL, "%s", err);
  free(err);
  int64_t s2[1] = {2}, s1[1] = {1};
  IrTensor *x = interp_tensor_new(DT_F32, 1, s2), *y = interp_tensor_new(DT_F32, 1, s1);
  ((float *)x->data)[0] = 1, ((float *)x->data)[1] = 2, ((float *)y->data)[0] = 5;
  IrTensor *ins[2] = {x, y}, **outs = NULL;
  int nout = 0;
  Diag d;
  diag_init(&d);
  ck_assert_int_eq(interp_run(g, ins, 2, &outs, &nout, &d), 0);
  ck_assert_int_eq(nout, 1);
  const float *o = outs[0]->data;
  ck_assert_msg(o[0] == 2 && o[1] == 3 && o[2] == 5, "cat after the write gives %g %g %g", o[0], o[1], o[2]);
  ck_assert(((float *)x->data)[0] == 2 && ((float *)x->data)[1] == 3);
  interp_free_outputs(outs, nout);
  interp_tensor_free(x);
  interp_tensor_free(y);
  ir_graph_free(g);
  remove(path);
}
END_TEST

static Suite *functionalize_suite(void) {
  Suite *s = suite_create("functionalize");
  find_cases(case_dir(), cases, &ncases, 256);
  char errdir[1024];
  snprintf(errdir, sizeof errdir, "%s/errors", case_dir());
  find_cases(errdir, errcases, &nerrcases, 64);
  TCase *tc = tcase_create("pytorch");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_case, 0, ncases);
  tcase_add_loop_test(tc, test_error, 0, nerrcases);
  tcase_add_test(tc, test_list_reference);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  Suite *s = functionalize_suite();
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  if (ncases < 40) {
    fprintf(stderr, "check_functionalize: only %d cases found in %s (run from the repository root)\n", ncases,
            case_dir());
    return 1;
  }
  return failed ? 1 : 0;
}
