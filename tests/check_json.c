/* check_json.c — the graph JSON frontend (frontend/json.c) on the hand-written files in
 * tests/json/ and on files written here at run time (weights files of chosen sizes).
 *
 * Expected values come from the files themselves: valid.json's tensors are base64 of the
 * little-endian float32 values named beside each check (made with Python's struct.pack), its
 * int constants are INT64_MAX and -(2^53 + 1) (not representable as a double, so only an exact
 * reader gets them right), and the line:col of each error is where the offending item starts in
 * the file. Run from the repository root (make unit-check does). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/json.h"

#define DIR "tests/json/"

typedef struct Run {
  Graph *g;
  char *err; /* everything printed through the Diag */
  const char **deps;
  int ndeps;
  int nfiles_after; /* files still registered with the Diag */
} Run;

static char *slurp(FILE *f) {
  long n = ftell(f);
  char *s = calloc(1, (size_t)n + 1);
  rewind(f);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) s[0] = '\0';
  fclose(f);
  return s;
}

static Run run_file(const char *path) {
  Run r = {0};
  Diag d;
  diag_init(&d);
  d.out = tmpfile();
  r.g = json_parse_file(path, &d, &r.deps, &r.ndeps);
  r.nfiles_after = d.nfiles;
  r.err = slurp(d.out);
  return r;
}

static Run run_text(const char *path, const char *text) {
  Run r = {0};
  Diag d;
  diag_init(&d);
  d.out = tmpfile();
  r.g = json_parse_buffer(path, text, strlen(text), &d, &r.deps, &r.ndeps);
  r.nfiles_after = d.nfiles;
  r.err = slurp(d.out);
  return r;
}

static void expect_error(const char *path, const char *msg) {
  Run r = run_file(path);
  ck_assert_msg(r.g == NULL, "%s parsed without error", path);
  ck_assert_ptr_null(r.deps);
  ck_assert_int_eq(r.nfiles_after, 0);
  ck_assert_msg(strstr(r.err, msg) != NULL, "expected \"%s\" in:\n%s", msg, r.err);
  free(r.err);
}

static Node *find_node(Block *b, const char *out_name) {
  for (Node *n = b->first; n; n = n->next)
    for (int i = 0; i < n->noutputs; i++)
      if (strcmp(n->outputs[i]->name, out_name) == 0) return n;
  return NULL;
}

START_TEST(test_valid) {
  Run r = run_file(DIR "valid.json");
  ck_assert_msg(r.g != NULL, "%s", r.err);
  ck_assert_str_eq(r.err, "");
  ck_assert_int_eq(r.ndeps, 1);
  ck_assert_str_eq(r.deps[0], DIR "valid.json");
  ck_assert_int_eq(r.nfiles_after, 1); /* the graph keeps its text registered */
  Graph *g = r.g;
  Block *top = g->top;
  ck_assert(!g->has_self);
  ck_assert_int_eq(top->nparams, 2);
  /* input metadata completes the bare `Tensor` type */
  Type *xt = top->params[0]->type;
  ck_assert_int_eq(xt->kind, TY_TENSOR);
  ck_assert_int_eq(xt->dtype, DT_F32);
  ck_assert_int_eq(xt->ndim, 2);
  ck_assert_int_eq(xt->shape[0], 3);
  ck_assert_int_eq(xt->shape[1], 2);
  ck_assert(ir_type_is_complete_tensor(xt));
  ck_assert_int_eq(top->params[1]->type->kind, TY_BOOL);

  /* w = float32 [1, 2, -0.5, 3] as a 2x2 tensor; its bare Tensor type becomes complete */
  Node *w = find_node(top, "w");
  const Attr *a = ir_node_attr(w, "value");
  ck_assert_int_eq(a->kind, ATTR_TENSOR);
  ck_assert_int_eq(a->t->dtype, DT_F32);
  ck_assert_int_eq(a->t->ndim, 2);
  ck_assert_uint_eq(a->t->nbytes, 16);
  const float wv[4] = {1.0f, 2.0f, -0.5f, 3.0f};
  ck_assert(memcmp(a->t->data, wv, 16) == 0);
  ck_assert_int_eq(w->outputs[0]->type->dtype, DT_F32);
  ck_assert_int_eq(w->outputs[0]->type->ndim, 2);
  /* b = float32 [0.25, -1] */
  const float bv[2] = {0.25f, -1.0f};
  ck_assert(memcmp(ir_node_attr(find_node(top, "b"), "value")->t->data, bv, 8) == 0);

  int64_t iv;
  ck_assert(ir_constant_int(find_node(top, "big")->outputs[0], &iv));
  ck_assert(iv == INT64_MAX);
  ck_assert(ir_constant_int(find_node(top, "odd")->outputs[0], &iv));
  ck_assert(iv == -9007199254740993LL);
  ck_assert(isnan(ir_node_attr(find_node(top, "nan"), "value")->f));
  ck_assert(ir_node_attr(find_node(top, "tenth"), "value")->f == 0.1);
  ck_assert_ptr_null(ir_node_attr(find_node(top, "none"), "value"));
  ck_assert_int_eq(find_node(top, "none")->outputs[0]->type->kind, TY_NONE);
  const Attr *dims = ir_node_attr(find_node(top, "dims"), "value");
  ck_assert_int_eq(dims->kind, ATTR_INTS);
  ck_assert_int_eq(dims->n, 1);
  ck_assert(dims->ints[0] == -1);

  Node *lin = find_node(top, "y");
  ck_assert_str_eq(lin->kind, "aten::linear");
  ck_assert_int_eq(lin->ninputs, 3);
  ck_assert_ptr_eq(lin->inputs[0], top->params[0]);
  ck_assert_str_eq(lin->py_loc, "model.py:12:8");
  ck_assert_str_eq(lin->scope, "__module.fc");
  ck_assert_str_eq(lin->loc.file, DIR "valid.json");
  ck_assert_int_eq(lin->loc.line, 16);
  ck_assert_int_eq(lin->loc.col, 4);

  Node *iff = find_node(top, "z");
  ck_assert_int_eq(iff->nblocks, 2);
  ck_assert_int_eq(iff->blocks[0]->nrets, 1);
  ck_assert_str_eq(iff->blocks[0]->rets[0]->name, "r");
  ck_assert_str_eq(iff->blocks[0]->first->kind, "aten::relu");
  ck_assert_ptr_eq(iff->blocks[1]->rets[0], lin->outputs[0]);
  ck_assert_ptr_eq(iff->next, find_node(top, "v"));

  ck_assert_int_eq(top->nrets, 1);
  Type *ot = top->rets[0]->type;
  ck_assert_int_eq(ot->kind, TY_TUPLE);
  ck_assert_int_eq(ot->nelems, 2);
  ck_assert_int_eq(ot->elems[1]->dtype, DT_F32);
  ck_assert_int_eq(ot->elems[1]->shape[1], 2);
  ir_graph_free(g);
  free(r.err);
}
END_TEST

START_TEST(test_truncated) { expect_error(DIR "truncated.json", DIR "truncated.json:7:1: error: invalid JSON"); }
END_TEST

START_TEST(test_syntax) {
  expect_error(DIR "syntax.json", DIR "syntax.json:5:46: error: invalid JSON: unexpected ']'");
}
END_TEST

START_TEST(test_undefined) {
  expect_error(DIR "undefined.json",
               DIR "undefined.json:8:42: error: /graph/nodes/1/inputs/1: undefined value '%12'");
}
END_TEST

START_TEST(test_duplicate) {
  expect_error(DIR "duplicate.json", ":7:65: error: /graph/nodes/0/outputs/0/name: value '%x' is defined twice");
}
END_TEST

START_TEST(test_scope) {
  expect_error(DIR "scope.json", ":10:42: error: /graph/nodes/1/inputs/1: value '%r' is used outside the block");
}
END_TEST

START_TEST(test_wrong_json_type) {
  expect_error(DIR "wrongtype.json",
               ":7:37: error: /graph/nodes/0/inputs: expected an array of value names, found a string");
}
END_TEST

START_TEST(test_bad_type_string) {
  expect_error(DIR "badtype.json", ":5:36: error: /graph/inputs/0/type: bad type \"Flaot(2, 3)\"");
}
END_TEST

START_TEST(test_data_size) {
  expect_error(DIR "datasize.json",
               "/graph/nodes/0/attrs/value/data: tensor data has 12 bytes, but shape [2, 2] of float32 needs 16");
}
END_TEST

START_TEST(test_missing_weights) {
  expect_error(DIR "noweights.json", "/weights/file: cannot read weights file 'tests/json/does_not_exist.bin'");
}
END_TEST

START_TEST(test_missing_json) { expect_error(DIR "nope.json", "cannot read '" DIR "nope.json'"); }
END_TEST

/* ---- weights files of chosen sizes, written to a fresh directory ---------------------------- */
static char tmpdir[64];

static void write_file(const char *name, const void *data, size_t n) {
  char p[128];
  snprintf(p, sizeof p, "%s/%s", tmpdir, name);
  FILE *f = fopen(p, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(data, 1, n, f), n);
  fclose(f);
}

/* model.json with one tensor float32 [4] at `off` / `nb` in a weights file declared `decl` bytes */
static Run run_weights(size_t file_bytes, long decl, long off, long nb) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/mc_check_json.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(tmpdir));
  unsigned char bin[256] = {0};
  const float v[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  memcpy(bin + 64, v, sizeof v);
  write_file("model.bin", bin, file_bytes);
  char json[1024];
  snprintf(json, sizeof json,
           "{\"format\": \"mc-graph\", \"version\": 1,\n"
           " \"weights\": {\"file\": \"model.bin\", \"nbytes\": %ld},\n"
           " \"graph\": {\"inputs\": [], \"nodes\": [\n"
           "  {\"kind\": \"prim::Constant\", \"inputs\": [], \"outputs\": [{\"name\": \"w\", \"type\": \"Tensor\"}],"
           " \"attrs\": {\"value\": {\"type\": \"tensor\", \"dtype\": \"float32\", \"shape\": [4], \"offset\": %ld,"
           " \"nbytes\": %ld}}}],\n"
           " \"outputs\": [\"w\"]}}\n",
           decl, off, nb);
  write_file("model.json", json, strlen(json));
  char p[128];
  snprintf(p, sizeof p, "%s/model.json", tmpdir);
  Run r = run_file(p);
  unlink(p);
  snprintf(p, sizeof p, "%s/model.bin", tmpdir);
  unlink(p);
  rmdir(tmpdir);
  return r;
}

START_TEST(test_weights_ok) {
  Run r = run_weights(80, 80, 64, 16);
  ck_assert_msg(r.g != NULL, "%s", r.err);
  ck_assert_int_eq(r.ndeps, 2);
  char p[128];
  snprintf(p, sizeof p, "%s/model.bin", tmpdir);
  ck_assert_str_eq(r.deps[1], p);
  const Attr *a = ir_node_attr(r.g->top->first, "value");
  const float v[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  ck_assert_uint_eq(a->t->nbytes, 16);
  ck_assert(memcmp(a->t->data, v, 16) == 0);
  ck_assert_int_eq(r.g->top->rets[0]->type->shape[0], 4);
  ir_graph_free(r.g);
  free(r.err);
}
END_TEST

START_TEST(test_weights_short) {
  Run r = run_weights(70, 80, 64, 16);
  ck_assert_ptr_null(r.g);
  ck_assert_msg(strstr(r.err, ":2:"), "%s", r.err);
  ck_assert_msg(strstr(r.err, "/weights/nbytes: weights file") &&
                strstr(r.err, "has 70 bytes, but the JSON says 80 (truncated file?)"), "%s", r.err);
  free(r.err);
}
END_TEST

START_TEST(test_weights_nbytes_mismatch) {
  Run r = run_weights(80, 80, 64, 12);
  ck_assert_ptr_null(r.g);
  ck_assert_msg(strstr(r.err, "nbytes is 12, but shape [4] of float32 needs 16"), "%s", r.err);
  free(r.err);
}
END_TEST

START_TEST(test_weights_beyond_end) {
  Run r = run_weights(80, 80, 72, 16);
  ck_assert_ptr_null(r.g);
  ck_assert_msg(strstr(r.err, "beyond the end of weights file"), "%s", r.err);
  free(r.err);
}
END_TEST

START_TEST(test_weights_not_declared) {
  Run r = run_text("x.json",
                   "{\"format\": \"mc-graph\", \"version\": 1, \"graph\": {\"inputs\": [], \"nodes\": ["
                   "{\"kind\": \"prim::Constant\", \"inputs\": [], \"outputs\": [{\"name\": \"w\", \"type\": \"Tensor\"}],"
                   " \"attrs\": {\"value\": {\"type\": \"tensor\", \"dtype\": \"float32\", \"shape\": [4], "
                   "\"offset\": 0, \"nbytes\": 16}}}], \"outputs\": [\"w\"]}}");
  ck_assert_ptr_null(r.g);
  ck_assert_msg(strstr(r.err, "the JSON names none"), "%s", r.err);
  free(r.err);
}
END_TEST

/* ---- type strings and other semantic checks, on inline text ------------------------------- */
#define HEAD "{\"format\": \"mc-graph\", \"version\": 1, \"graph\": {\"inputs\": ["

START_TEST(test_types) {
  Run r = run_text("t.json", HEAD
                   "{\"name\": \"self\", \"type\": \"__torch__.___torch_mangle_0.M\"},"
                   "{\"name\": \"a\", \"type\": \"int[]\"},"
                   "{\"name\": \"b\", \"type\": \"Tensor?\"},"
                   "{\"name\": \"c\", \"type\": \"(int, Tensor)\"},"
                   "{\"name\": \"d\", \"type\": \"List[Optional[Tensor]]\"},"
                   "{\"name\": \"e\", \"type\": \"Union(Tensor, int)[]\"},"
                   "{\"name\": \"f\", \"type\": \"Long(requires_grad=0, device=cpu)\"},"
                   "{\"name\": \"g\", \"type\": \"Float(*, 3)\"},"
                   "{\"name\": \"h\", \"type\": \"Double(2, 3, strides=[1, 2], requires_grad=1, device=cuda:0)\"},"
                   "{\"name\": \"i\", \"type\": \"Tuple[float, bool, str, Device, Scalar, NoneType]\"}"
                   "], \"nodes\": [], \"outputs\": []}}");
  ck_assert_msg(r.g != NULL, "%s", r.err);
  Value **p = r.g->top->params;
  ck_assert(r.g->has_self);
  ck_assert_int_eq(p[0]->type->kind, TY_CLASS);
  ck_assert_str_eq(p[0]->type->name, "__torch__.___torch_mangle_0.M");
  ck_assert_int_eq(p[1]->type->kind, TY_LIST);
  ck_assert_int_eq(p[1]->type->elem->kind, TY_INT);
  ck_assert_int_eq(p[2]->type->kind, TY_OPTIONAL);
  ck_assert_int_eq(p[2]->type->elem->kind, TY_TENSOR);
  ck_assert_int_eq(p[3]->type->kind, TY_TUPLE);
  ck_assert_int_eq(p[3]->type->nelems, 2);
  ck_assert_int_eq(p[4]->type->elem->kind, TY_OPTIONAL);
  ck_assert_int_eq(p[5]->type->kind, TY_LIST);
  ck_assert_int_eq(p[5]->type->elem->kind, TY_ANY);
  ck_assert_int_eq(p[6]->type->dtype, DT_I64);
  ck_assert_int_eq(p[6]->type->ndim, 0);
  ck_assert_int_eq(p[7]->type->ndim, 2);
  ck_assert(p[7]->type->shape[0] == -1 && p[7]->type->shape[1] == 3);
  Type *h = p[8]->type;
  ck_assert(h->has_strides && h->strides[0] == 1 && h->strides[1] == 2);
  ck_assert_int_eq(h->requires_grad, 1);
  ck_assert_str_eq(h->device, "cuda:0");
  ck_assert_int_eq(p[9]->type->nelems, 6);
  ck_assert_int_eq(p[9]->type->elems[4]->kind, TY_NUMBER);
  ir_graph_free(r.g);
  free(r.err);
}
END_TEST

static void expect_text_error(const char *text, const char *msg) {
  Run r = run_text("t.json", text);
  ck_assert_msg(r.g == NULL, "parsed without error: %s", text);
  ck_assert_int_eq(r.nfiles_after, 0);
  ck_assert_msg(strstr(r.err, msg) != NULL, "expected \"%s\" in:\n%s", msg, r.err);
  free(r.err);
}

START_TEST(test_semantic_errors) {
  expect_text_error("{\"format\": \"mc-graph\", \"version\": 2, \"graph\": {}}", "/version: unsupported version 2");
  expect_text_error("{\"format\": \"onnx\", \"version\": 1}", "/format: format is \"onnx\"");
  expect_text_error("[1, 2]", "t.json:1:1: error: /: expected a top-level object, found an array");
  expect_text_error("{\"format\": \"mc-graph\", \"version\": 1}", "/: missing member \"graph\"");
  expect_text_error(HEAD "{\"name\": \"x\", \"type\": \"int\", \"dtype\": \"float32\", \"shape\": [1]}"
                    "], \"nodes\": [], \"outputs\": []}}", "dtype/shape given for input '%x' of type int");
  expect_text_error(HEAD "{\"name\": \"x\", \"type\": \"Float(2)\", \"dtype\": \"float32\", \"shape\": [3]}"
                    "], \"nodes\": [], \"outputs\": []}}", "does not match its example");
  expect_text_error(HEAD "{\"name\": \"x\", \"type\": \"Tensor\", \"dtype\": \"float33\", \"shape\": [3]}"
                    "], \"nodes\": [], \"outputs\": []}}", "/graph/inputs/0/dtype: unknown dtype \"float33\"");
  expect_text_error(HEAD "{\"name\": \"x\", \"type\": \"Tensor\", \"dtype\": \"float32\", \"shape\": [1,1,1,1,1,1,1,1,1]}"
                    "], \"nodes\": [], \"outputs\": []}}", "rank 9 exceeds the limit");
  expect_text_error(HEAD "{\"name\": \"x y\", \"type\": \"int\"}], \"nodes\": [], \"outputs\": []}}",
                    "bad value name \"x y\"");
  expect_text_error(HEAD "], \"nodes\": [{\"kind\": \"relu\", \"inputs\": [], \"outputs\": []}], \"outputs\": []}}",
                    "/graph/nodes/0/kind: bad node kind \"relu\"");
  expect_text_error(HEAD "], \"nodes\": [{\"kind\": \"prim::Constant\", \"inputs\": [], \"outputs\": "
                    "[{\"name\": \"c\", \"type\": \"int\"}], \"attrs\": {\"value\": {\"type\": \"int\", \"value\": 1.5}}}],"
                    " \"outputs\": []}}", "/graph/nodes/0/attrs/value/value: expected an integer, found 1.5");
  expect_text_error(HEAD "], \"nodes\": [{\"kind\": \"prim::Constant\", \"inputs\": [], \"outputs\": "
                    "[{\"name\": \"c\", \"type\": \"int\"}], \"attrs\": {\"value\": {\"type\": \"int\", "
                    "\"value\": 9223372036854775808}}}], \"outputs\": []}}", "integer out of the int64 range");
  expect_text_error(HEAD "], \"nodes\": [{\"kind\": \"prim::Constant\", \"inputs\": [], \"outputs\": "
                    "[{\"name\": \"c\", \"type\": \"int\"}], \"attrs\": {\"value\": {\"type\": \"tensor\", "
                    "\"dtype\": \"float32\", \"shape\": [1], \"data\": \"AACAPw==\"}}}], \"outputs\": []}}",
                    "constant of type int holds a tensor");
  expect_text_error(HEAD "], \"nodes\": [{\"kind\": \"prim::Constant\", \"inputs\": [], \"outputs\": "
                    "[{\"name\": \"c\", \"type\": \"Tensor\"}], \"attrs\": {\"value\": {\"type\": \"tensor\", "
                    "\"dtype\": \"float32\", \"shape\": [1], \"data\": \"AAC!Pw==\"}}}], \"outputs\": []}}",
                    "invalid base64 data");
  expect_text_error(HEAD "], \"nodes\": [{\"kind\": \"prim::Constant\", \"inputs\": [], \"outputs\": "
                    "[{\"name\": \"c\", \"type\": \"Double(1)\"}], \"attrs\": {\"value\": {\"type\": \"tensor\", "
                    "\"dtype\": \"float32\", \"shape\": [1], \"data\": \"AACAPw==\"}}}], \"outputs\": []}}",
                    "constant of type Double(1");
  expect_text_error(HEAD "], \"nodes\": [], \"outputs\": [\"nowhere\"]}}", "/graph/outputs/0: undefined value '%nowhere'");
  expect_text_error(HEAD "], \"nodes\": [], \"outputs\": []}, \"output_structure\": {\"kind\": \"set\"}}",
                    "/output_structure/kind: unknown output kind \"set\"");
  expect_text_error("{\"format\": \"mc-graph\"} x", "t.json:1:24: error: invalid JSON: unexpected 'x'");
  expect_text_error(HEAD "{\"name\": \"x\", \"type\": \"List[List[List[List[List[List[List[List[List[List[List[List["
                    "List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List["
                    "List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List[List["
                    "List[List[List[List[List[List[List[List[List[List[List[List[List[List[int" "\"}], \"nodes\": [], "
                    "\"outputs\": []}}", "nested too deeply");
}
END_TEST

/* A Diag refers to the text of a graph it parsed until the graph is freed (json.h), so a Diag
 * reused after ir_graph_free must forget it; after a failed parse nothing is registered. */
static Graph *parse_reusing(Diag *d, const char *text, size_t n) {
  Graph *g = json_parse_buffer("v.json", text, n, d, NULL, NULL);
  if (g) d->nfiles = 0;
  else ck_assert_int_eq(d->nfiles, 0);
  return g;
}

/* Every prefix and a few byte substitutions at every position of valid.json: never a crash, a
 * located error for every proper prefix (a prefix lacks the closing brace). */
START_TEST(test_mutations_never_crash) {
  FILE *f = fopen(DIR "valid.json", "rb");
  ck_assert_ptr_nonnull(f);
  fseek(f, 0, SEEK_END);
  char *text = slurp(f);
  size_t len = strlen(text);
  const char *close = strrchr(text, '}');
  Diag d;
  diag_init(&d);
  d.out = fopen("/dev/null", "w");
  d.max_errors = 1 << 30;
  for (size_t n = 0; n < len; n++) {
    Graph *g = parse_reusing(&d, text, n);
    if (n <= (size_t)(close - text)) ck_assert_msg(g == NULL, "prefix of %zu bytes parsed", n);
    ir_graph_free(g);
  }
  const char subst[] = {'"', '}', ']', '1', 'x', '\0', '-', ','};
  char *m = malloc(len);
  for (size_t i = 0; i < len; i++) {
    for (size_t k = 0; k < sizeof subst; k++) {
      memcpy(m, text, len);
      m[i] = subst[k];
      ir_graph_free(parse_reusing(&d, m, len));
    }
  }
  free(m);
  fclose(d.out);
  free(text);
}
END_TEST

static Suite *json_suite(void) {
  Suite *s = suite_create("json");
  TCase *tc = tcase_create("frontend");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_valid);
  tcase_add_test(tc, test_truncated);
  tcase_add_test(tc, test_syntax);
  tcase_add_test(tc, test_undefined);
  tcase_add_test(tc, test_duplicate);
  tcase_add_test(tc, test_scope);
  tcase_add_test(tc, test_wrong_json_type);
  tcase_add_test(tc, test_bad_type_string);
  tcase_add_test(tc, test_data_size);
  tcase_add_test(tc, test_missing_weights);
  tcase_add_test(tc, test_missing_json);
  tcase_add_test(tc, test_weights_ok);
  tcase_add_test(tc, test_weights_short);
  tcase_add_test(tc, test_weights_nbytes_mismatch);
  tcase_add_test(tc, test_weights_beyond_end);
  tcase_add_test(tc, test_weights_not_declared);
  tcase_add_test(tc, test_types);
  tcase_add_test(tc, test_semantic_errors);
  tcase_add_test(tc, test_mutations_never_crash);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(json_suite());
  srunner_set_fork_status(sr, CK_FORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
