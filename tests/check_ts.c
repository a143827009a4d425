/* check_ts.c — the TorchScript text frontend (frontend/ts_*.c), the IR printer (print.c) and
 * the verifier (verify.c).
 *
 * Corpus: every .txt file in tests/corpus (real PyTorch 1.13 dumps written by gen_corpus.py; the
 * directory comes from MC_CORPUS_DIR) must parse, verify, print, parse again and print
 * byte-identically; a dump without tensor data (no "Type{" print form) must even print back
 * exactly as PyTorch printed it. Constant forms: each snippet is a line PyTorch printed (see
 * gen_corpus.py and the notes beside each test); the expected numbers are the printed digits
 * times the printed scale factor. Errors: each case names the message substring and the
 * line:col where the offending token starts in the snippet. Run from the repository root.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ts.h"

/* ---- helpers ------------------------------------------------------------------------------ */

typedef struct Run {
  Graph *g;
  char *err;
  int nerrors;
  int nfiles_after;
} Run;

static Run parse_text(const char *text) {
  Run r = {0};
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  Diag d;
  diag_init(&d);
  d.out = out;
  r.g = ts_parse_string("t.txt", text, strlen(text), &d);
  r.nerrors = d.nerrors;
  r.nfiles_after = d.nfiles;
  fclose(out);
  r.err = buf;
  return r;
}

static char *print_graph(const Graph *g, bool data) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  PrintOpts o = {.locations = true, .tensor_data = data};
  ir_print_graph(f, g, &o);
  fclose(f);
  return buf;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  *len = fread(b, 1, (size_t)n, f);
  b[*len] = 0;
  fclose(f);
  return b;
}

static Node *nth_node(const Graph *g, int k) {
  Node *n = g->top->first;
  while (n && k--) n = n->next;
  return n;
}

/* The value attribute of the constant defining graph output 0. */
static const Attr *ret_attr(const Graph *g) {
  ck_assert_int_ge(g->top->nrets, 1);
  const Node *n = g->top->rets[0]->def;
  ck_assert_ptr_nonnull(n);
  ck_assert_str_eq(n->kind, "prim::Constant");
  return ir_node_attr(n, "value");
}

static Graph *parse_ok(const char *text) {
  Run r = parse_text(text);
  if (!r.g) ck_abort_msg("parse failed: %s", r.err);
  free(r.err);
  return r.g;
}

static Graph *one_const(const char *decl) {
  char text[2048];
  snprintf(text, sizeof text, "graph():\n  %s\n  return (%%0)\n", decl);
  return parse_ok(text);
}

static float tf32(const IrTensor *t, int i) { return ((const float *)t->data)[i]; }

/* ---- corpus ------------------------------------------------------------------------------ */

static const char *corpus_dir(void) {
  const char *d = getenv("MC_CORPUS_DIR");
  return d && *d ? d : "tests/corpus";
}

static char **corpus;
static int ncorpus;

static int cmpstr(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_corpus(void) {
  DIR *dir = opendir(corpus_dir());
  if (!dir) return;
  struct dirent *e;
  while ((e = readdir(dir))) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".txt") != 0) continue;
    corpus = realloc(corpus, sizeof *corpus * (size_t)(ncorpus + 1));
    size_t len = strlen(corpus_dir()) + n + 2;
    corpus[ncorpus] = malloc(len);
    snprintf(corpus[ncorpus], len, "%s/%s", corpus_dir(), e->d_name);
    ncorpus++;
  }
  closedir(dir);
  if (ncorpus) qsort(corpus, (size_t)ncorpus, sizeof *corpus, cmpstr);
}

START_TEST(corpus_size) { ck_assert_int_ge(ncorpus, 30); }
END_TEST

START_TEST(corpus_roundtrip) {
  const char *path = corpus[_i];
  Diag d;
  diag_init(&d);
  Graph *g = ts_parse_file(path, &d);
  ck_assert_msg(g != NULL, "%s does not parse", path);
  ck_assert_int_eq(ir_verify(g, &d, "after parse"), 0);
  for (int data = 0; data < 2; data++) {
    char *p1 = print_graph(g, data);
    Graph *g2 = ts_parse_string("<printed>", p1, strlen(p1), &d);
    ck_assert_msg(g2 != NULL, "%s: printout does not parse:\n%s", path, p1);
    ck_assert_int_eq(ir_verify(g2, &d, "after reparse"), 0);
    char *p2 = print_graph(g2, data);
    ck_assert_msg(strcmp(p1, p2) == 0, "%s: print(parse(print)) differs", path);
    free(p1);
    free(p2);
    ir_graph_free(g2);
  }
  size_t len;
  char *text = read_file(path, &len);
  if (!strstr(text, "Type{") && !strstr(text, "[<Tensors>]")) {
    char *p = print_graph(g, false);
    ck_assert_msg(strcmp(p, text) == 0, "%s: does not print back as PyTorch printed it", path);
    free(p);
  }
  free(text);
  ir_graph_free(g);
}
END_TEST

/* ---- constants --------------------------------------------------------------------------- */

START_TEST(const_scalars) {
  Graph *g = one_const("%0 : int = prim::Constant[value=-7]()");
  const Attr *a = ret_attr(g);
  ck_assert_int_eq(a->kind, ATTR_INT);
  ck_assert_int_eq(a->i, -7);
  ir_graph_free(g);

  g = one_const("%0 : int = prim::Constant[value=9223372036854775807]()");
  ck_assert(ret_attr(g)->i == INT64_MAX);
  ir_graph_free(g);

  g = one_const("%0 : float = prim::Constant[value=-1.5]()");
  ck_assert_int_eq(ret_attr(g)->kind, ATTR_FLOAT);
  ck_assert(ret_attr(g)->f == -1.5);
  ir_graph_free(g);

  g = one_const("%0 : float = prim::Constant[value=1.0000000000000001e-05]()");
  ck_assert(ret_attr(g)->f == 1e-5); /* 17 digits name the double nearest 1e-5 exactly */
  ir_graph_free(g);

  g = one_const("%0 : float = prim::Constant[value=inf]()");
  ck_assert(isinf(ret_attr(g)->f) && ret_attr(g)->f > 0);
  ir_graph_free(g);
  g = one_const("%0 : float = prim::Constant[value=-inf]()");
  ck_assert(isinf(ret_attr(g)->f) && ret_attr(g)->f < 0);
  ir_graph_free(g);
  g = one_const("%0 : float = prim::Constant[value=nan]()");
  ck_assert(isnan(ret_attr(g)->f));
  ir_graph_free(g);

  g = one_const("%0 : bool = prim::Constant[value=0]()");
  ck_assert_int_eq(ret_attr(g)->kind, ATTR_BOOL);
  ck_assert_int_eq(ret_attr(g)->i, 0);
  ir_graph_free(g);

  g = one_const("%0 : str = prim::Constant[value=\"str with \\\"escapes\\\" \\n\\\\ \\'\"]()");
  ck_assert_int_eq(ret_attr(g)->kind, ATTR_STR);
  ck_assert_str_eq(ret_attr(g)->s, "str with \"escapes\" \n\\ '");
  ir_graph_free(g);

  g = one_const("%0 : Device = prim::Constant[value=\"cpu\"]()");
  ck_assert_int_eq(ret_attr(g)->kind, ATTR_DEVICE);
  ck_assert_str_eq(ret_attr(g)->s, "cpu");
  ir_graph_free(g);

  g = one_const("%0 : NoneType = prim::Constant()");
  ck_assert_ptr_null(ret_attr(g));
  ck_assert(ir_constant_is_none(g->top->rets[0]));
  ir_graph_free(g);
}
END_TEST

START_TEST(const_lists) {
  Graph *g = one_const("%0 : int[] = prim::Constant[value=[1, 2]]()");
  const Attr *a = ret_attr(g);
  ck_assert_int_eq(a->kind, ATTR_INTS);
  ck_assert_int_eq(a->n, 2);
  ck_assert(a->ints[0] == 1 && a->ints[1] == 2);
  ir_graph_free(g);

  g = one_const("%0 : float[] = prim::Constant[value=[1., 2.5]]()");
  a = ret_attr(g);
  ck_assert_int_eq(a->kind, ATTR_FLOATS);
  ck_assert(a->floats[0] == 1.0 && a->floats[1] == 2.5);
  ir_graph_free(g);

  g = one_const("%0 : bool[] = prim::Constant[value=[True, False]]()");
  a = ret_attr(g);
  ck_assert_int_eq(a->kind, ATTR_BOOLS);
  ck_assert(a->ints[0] == 1 && a->ints[1] == 0);
  ir_graph_free(g);

  g = one_const("%0 : str[] = prim::Constant[value=[\"a\", \"b\"]]()");
  a = ret_attr(g);
  ck_assert_int_eq(a->kind, ATTR_STRS);
  ck_assert_str_eq(a->strs[1], "b");
  ir_graph_free(g);

  g = one_const("%0 : int[] = prim::Constant[value=annotate(List[int], [])]()");
  a = ret_attr(g);
  ck_assert_int_eq(a->kind, ATTR_INTS);
  ck_assert_int_eq(a->n, 0);
  char *p = print_graph(g, false);
  ck_assert_ptr_nonnull(strstr(p, "[value=annotate(List[int], [])]()"));
  free(p);
  ir_graph_free(g);

  /* A tuple constant becomes element constants and prim::TupleConstruct. */
  g = one_const("%0 : (int, str) = prim::Constant[value=(1, \"x\")]()");
  Node *n = g->top->rets[0]->def;
  ck_assert_str_eq(n->kind, "prim::TupleConstruct");
  ck_assert_int_eq(n->ninputs, 2);
  int64_t one;
  ck_assert(ir_constant_int(n->inputs[0], &one) && one == 1);
  ck_assert_str_eq(ir_constant_attr(n->inputs[1])->s, "x");
  ck_assert_int_eq(ir_verify(g, &(Diag){.out = stderr, .max_errors = 20}, "test"), 0);
  ir_graph_free(g);

  /* Frozen x[:, idx]: a list holding None and a tensor (printed by gen_corpus.py). */
  g = one_const("%0 : Tensor?[] = prim::Constant[value=annotate(List[Optional[Tensor]], "
                "[None,  2  0  1 [ CPULongType{3} ]])]()");
  n = g->top->rets[0]->def;
  ck_assert_str_eq(n->kind, "prim::ListConstruct");
  ck_assert(ir_constant_is_none(n->inputs[0]));
  const IrTensor *t = ir_constant_attr(n->inputs[1])->t;
  ck_assert_int_eq(t->dtype, DT_I64);
  ck_assert(((int64_t *)t->data)[0] == 2 && ((int64_t *)t->data)[2] == 1);
  ir_graph_free(g);
}
END_TEST

START_TEST(const_tensors) {
  /* seeds/002: a 0-dim boxed scalar. */
  Graph *g = one_const("%0 : Long(requires_grad=0, device=cpu) = prim::Constant[value={1}]()");
  const IrTensor *t = ret_attr(g)->t;
  ck_assert_int_eq(ret_attr(g)->kind, ATTR_TENSOR);
  ck_assert_int_eq(t->dtype, DT_I64);
  ck_assert_int_eq(t->ndim, 0);
  ck_assert(*(int64_t *)t->data == 1);
  ck_assert(!t->lossy);
  ir_graph_free(g);

  /* one element with shape [1]: the shape comes from the type */
  g = one_const("%0 : Float(1, strides=[1], requires_grad=0, device=cpu) = "
                "prim::Constant[value={1.5}]()");
  t = ret_attr(g)->t;
  ck_assert_int_eq(t->ndim, 1);
  ck_assert(t->shape[0] == 1 && tf32(t, 0) == 1.5f);
  char *p = print_graph(g, false);
  ck_assert_ptr_nonnull(strstr(p, "[value={1.5}]"));
  free(p);
  ir_graph_free(g);

  g = one_const("%0 : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu) = prim::Constant"
                "[value= 0.1483 -0.2774  0.0188 -0.0029 -0.1891  0.1889 [ CPUFloatType{2,3} ]]()");
  t = ret_attr(g)->t;
  ck_assert_int_eq(t->dtype, DT_F32);
  ck_assert_int_eq(t->ndim, 2);
  ck_assert(t->shape[0] == 2 && t->shape[1] == 3);
  ck_assert(tf32(t, 0) == 0.1483f && tf32(t, 1) == -0.2774f && tf32(t, 5) == 0.1889f);
  ck_assert(t->lossy);
  p = print_graph(g, false);
  ck_assert_ptr_nonnull(strstr(p, "[value=<Tensor>]"));
  free(p);
  ir_graph_free(g);

  g = one_const("%0 : Float(3, strides=[1], requires_grad=0, device=cpu) = prim::Constant"
                "[value=0.01 *  4.5298 -13.6073 -37.6796 [ CPUFloatType{3} ]]()");
  t = ret_attr(g)->t;
  ck_assert(fabsf(tf32(t, 0) - 0.045298f) < 1e-7f);
  ck_assert(fabsf(tf32(t, 2) + 0.376796f) < 1e-7f);
  ck_assert(t->lossy);
  ir_graph_free(g);

  /* at::print splits wide rows: "Columns 1 to 7 ... Columns 8 to 10 ..." (1x10, PyTorch). */
  g = one_const("%0 : Float(1, 10, strides=[10, 1], requires_grad=0, device=cpu) = "
                "prim::Constant[value=Columns 1 to 7 1540.9961  -293.4289 -2178.7893   568.4313 "
                "-1084.5223 -1398.5955   403.3468  Columns 8 to 10  838.0264  -719.2576  "
                "-403.3435 [ CPUFloatType{1,10} ]]()");
  t = ret_attr(g)->t;
  ck_assert(tf32(t, 0) == 1540.9961f && tf32(t, 6) == 403.3468f && tf32(t, 7) == 838.0264f &&
            tf32(t, 9) == -403.3435f);
  ir_graph_free(g);

  /* 3-d: one "(k,.,.) =" slice each, with its own scale factor (PyTorch's print). */
  g = one_const("%0 : Float(2, 1, 5, strides=[5, 5, 1], requires_grad=0, device=cpu) = "
                "prim::Constant[value=(1,.,.) =   1e-05 *   0.3704  1.4565  0.9398  0.7748  "
                "0.1919  (2,.,.) =   1e-05 *   1.2638 -1.2904 -0.7911 -0.0209 -0.7185 "
                "[ CPUFloatType{2,1,5} ]]()");
  t = ret_attr(g)->t;
  ck_assert(fabsf(tf32(t, 0) - 0.3704e-5f) < 1e-11f);
  ck_assert(fabsf(tf32(t, 5) - 1.2638e-5f) < 1e-11f);
  ck_assert(fabsf(tf32(t, 9) + 0.7185e-5f) < 1e-11f);
  ir_graph_free(g);

  /* integers print exactly, so the data is not lossy */
  g = one_const("%0 : Long(3, strides=[1], requires_grad=0, device=cpu) = "
                "prim::Constant[value= 1  2  3 [ CPULongType{3} ]]()");
  t = ret_attr(g)->t;
  ck_assert(!t->lossy);
  ck_assert(((int64_t *)t->data)[2] == 3);
  p = print_graph(g, true);
  ck_assert_ptr_nonnull(strstr(p, "[value= 1 2 3 [ CPULongType{3} ]]"));
  free(p);
  ir_graph_free(g);

  g = one_const("%0 : Float(0, 3, strides=[3, 1], requires_grad=0, device=cpu) = "
                "prim::Constant[value=[ CPUFloatType{0,3} ]]()");
  t = ret_attr(g)->t;
  ck_assert(t->ndim == 2 && t->shape[0] == 0 && t->nbytes == 0);
  ir_graph_free(g);

  g = one_const("%0 : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu) = "
                "prim::Constant[value=<Tensor>]()");
  t = ret_attr(g)->t;
  ck_assert_ptr_null(t->data);
  ck_assert_int_eq(t->dtype, DT_F32);
  ck_assert(t->ndim == 2 && t->shape[1] == 3);
  ir_graph_free(g);
}
END_TEST

/* ---- types and structure ------------------------------------------------------------------ */

START_TEST(types) {
  Graph *g = parse_ok(
      "graph(%self.1 : __torch__.foo.___torch_mangle_3.Bar,\n"
      "      %a : Float(*, 3, device=cpu),\n"
      "      %b : Long(requires_grad=0, device=cpu),\n"
      "      %c : Tensor,\n"
      "      %d : int[],\n"
      "      %e : Tensor?[],\n"
      "      %f : (Tensor, (int, float)),\n"
      "      %g : int?,\n"
      "      %h : Dict(str, int),\n"
      "      %i : Float(2, 3, strides=[1, 2], requires_grad=1, device=cuda:0)):\n"
      "  return (%a)\n");
  Value **p = g->top->params;
  ck_assert(g->has_self);
  ck_assert_int_eq(p[0]->type->kind, TY_CLASS);
  ck_assert_str_eq(p[0]->type->name, "__torch__.foo.___torch_mangle_3.Bar");
  ck_assert_str_eq(p[0]->name, "self.1");
  ck_assert(p[1]->type->dtype == DT_F32 && p[1]->type->ndim == 2 && p[1]->type->shape[0] == -1 &&
            p[1]->type->shape[1] == 3);
  ck_assert_str_eq(p[1]->type->device, "cpu");
  ck_assert(p[2]->type->dtype == DT_I64 && p[2]->type->ndim == 0 && p[2]->type->requires_grad == 0);
  ck_assert(p[3]->type->kind == TY_TENSOR && p[3]->type->ndim == -1);
  ck_assert(p[4]->type->kind == TY_LIST && p[4]->type->elem->kind == TY_INT);
  ck_assert(p[5]->type->kind == TY_LIST && p[5]->type->elem->kind == TY_OPTIONAL &&
            p[5]->type->elem->elem->kind == TY_TENSOR);
  ck_assert(p[6]->type->kind == TY_TUPLE && p[6]->type->nelems == 2 &&
            p[6]->type->elems[1]->kind == TY_TUPLE && p[6]->type->elems[1]->elems[1]->kind == TY_FLOAT);
  ck_assert(p[7]->type->kind == TY_OPTIONAL && p[7]->type->elem->kind == TY_INT);
  ck_assert(p[9]->type->has_strides && p[9]->type->strides[0] == 1 && p[9]->type->requires_grad == 1);
  ck_assert_str_eq(p[9]->type->device, "cuda:0");
  char *s = print_graph(g, false);
  ck_assert_ptr_nonnull(strstr(s, "%h : Dict(str, int),\n"));
  ck_assert_ptr_nonnull(strstr(s, "%e : Tensor?[],\n"));
  free(s);
  ir_graph_free(g);
}
END_TEST

static const char *control_text =
    "graph(%self : __torch__.M,\n"
    "      %x.1 : Tensor,\n"
    "      %n.1 : int):\n"
    "  %7 : bool = prim::Constant[value=1]() # /tmp/m.py:8:8\n"
    "  %fc : __torch__.Linear = prim::GetAttr[name=\"fc\"](%self)\n"
    "  %y : Tensor = prim::Loop(%n.1, %7, %x.1) # /tmp/m.py:8:8\n"
    "    block0(%i : int, %y.13 : Tensor):\n"
    "      %y.3 : Tensor = aten::relu(%y.13), scope: __module.fc # /tmp/m.py:9:16\n"
    "      -> (%7, %y.3)\n"
    "  %z : Tensor = prim::If(%7) # /tmp/m.py:10:8\n"
    "    block0():\n"
    "       = prim::Print(%y) # /tmp/m.py:11:12\n"
    "      -> (%y)\n"
    "    block1():\n"
    "      -> (%x.1)\n"
    "  %l : int[] = prim::ListConstruct(%n.1, %n.1)\n"
    "  %a.1 : int, %b.1 : int = prim::ListUnpack(%l)\n"
    "  return (%z)\n";

START_TEST(structure) {
  Graph *g = parse_ok(control_text);
  Diag d;
  diag_init(&d);
  ck_assert_int_eq(ir_verify(g, &d, "test"), 0);
  Node *get = nth_node(g, 1), *loop = nth_node(g, 2), *ifn = nth_node(g, 3), *unpack = nth_node(g, 5);
  ck_assert_str_eq(ir_node_attr(get, "name")->s, "fc");
  ck_assert_int_eq(loop->nblocks, 1);
  ck_assert_int_eq(loop->blocks[0]->nparams, 2);
  ck_assert_str_eq(loop->blocks[0]->params[1]->name, "y.13");
  Node *relu = loop->blocks[0]->first;
  ck_assert_str_eq(relu->scope, "__module.fc");
  ck_assert_str_eq(relu->py_loc, "/tmp/m.py:9:16");
  ck_assert_int_eq(relu->loc.line, 8);
  ck_assert_int_eq(relu->loc.col, 23);
  ck_assert_int_eq(ifn->nblocks, 2);
  Node *print = ifn->blocks[0]->first;
  ck_assert_str_eq(print->kind, "prim::Print");
  ck_assert_int_eq(print->noutputs, 0);
  ck_assert_int_eq(unpack->noutputs, 2);
  ck_assert_str_eq(unpack->outputs[1]->name, "b.1");
  ck_assert_int_eq(unpack->outputs[1]->loc.line, 17);
  ck_assert_int_eq(unpack->outputs[1]->loc.col, 15);
  char *p = print_graph(g, false);
  ck_assert_str_eq(p, control_text); /* already in the printer's exact layout */
  free(p);
  ir_graph_free(g);
}
END_TEST

START_TEST(print_formats) {
  Graph *g = parse_ok(
      "graph(%x : Tensor):\n"
      "  %0 : float = prim::Constant[value=1.]()\n"
      "  %1 : float = prim::Constant[value=-0.]()\n"
      "  %2 : float = prim::Constant[value=0.10000000000000001]()\n"
      "  %3 : float = prim::Constant[value=1e+20]()\n"
      "  %4 : str = prim::Constant[value=\"a\\tb\\'c\\\\\\001\"]()\n"
      "  %5 : Float(requires_grad=0, device=cpu) = prim::Constant[value={-0.0284591}]()\n"
      "  %6 : Double(requires_grad=0, device=cpu) = prim::Constant[value={inf}]()\n"
      "   = prim::Print(%x, %0, %1, %2, %3, %4, %5, %6)\n"
      "  return ()\n");
  char *p = print_graph(g, false);
  ck_assert_ptr_nonnull(strstr(p, "[value=1.]"));
  ck_assert_ptr_nonnull(strstr(p, "[value=-0.]"));
  ck_assert_ptr_nonnull(strstr(p, "[value=0.10000000000000001]"));
  ck_assert_ptr_nonnull(strstr(p, "[value=1e+20]"));
  ck_assert_ptr_nonnull(strstr(p, "[value=\"a\\tb\\'c\\\\\\001\"]"));
  ck_assert_ptr_nonnull(strstr(p, "[value={-0.0284591}]"));
  ck_assert_ptr_nonnull(strstr(p, "[value={inf}]"));
  ck_assert_ptr_nonnull(strstr(p, "\n   = prim::Print(%x, %0, %1, %2, %3, %4, %5, %6)\n"));
  ck_assert_ptr_nonnull(strstr(p, "\n  return ()\n"));
  free(p);
  ir_graph_free(g);
}
END_TEST

/* ---- errors -------------------------------------------------------------------------------- */

typedef struct ErrCase {
  const char *text, *msg, *where;
} ErrCase;

static const ErrCase err_cases[] = {
    {"graph(%x : Tensor):\n  %y : Tensor = aten::relu(%z)\n  return (%y)\n",
     "use of undefined value '%z'", "t.txt:2:28: error:"},
    {"graph(%x : Tensor):\n  %x : Tensor = aten::relu(%x)\n  return (%x)\n",
     "redefinition of value '%x'", "t.txt:2:3: error:"},
    {"graph(%x : Tensor):\n  %s : str = prim::Constant[value=\"abc]()\n  return (%s)\n",
     "unterminated string", "t.txt:2:35: error:"},
    {"graph(%x : Tensr):\n  return (%x)\n", "unknown type 'Tensr'", "t.txt:1:12: error:"},
    {"graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x", "end of input", "t.txt:2:30: error:"},
    {"graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n", "expected a node or 'return'",
     "t.txt:3:1: error:"},
    {"graph(%c : bool):\n  %y : int = prim::If(%c)\n    block0():\n      %t : int = "
     "prim::Constant[value=1]()\n      -> (%t)\n    block1():\n      -> (%t)\n  return (%y)\n",
     "'%t' is used outside the block", "t.txt:7:11: error:"},
    {"graph(%x : Float(2, 3, strides=[3])):\n  return (%x)\n", "1 strides for 2 dimensions",
     "t.txt:1:24: error:"},
    {"graph():\n  %0 : Float(3, strides=[1], requires_grad=0, device=cpu) = prim::Constant[value= "
     "1.0 2.0 [ CPUFloatType{3} ]]()\n  return (%0)\n",
     "tensor constant has 2 values but its shape holds 3", "t.txt:2:83: error:"},
    {"graph(%x : Tensor):\n  %y : Tensor = relu(%x)\n  return (%y)\n",
     "expected an operator name like 'aten::add'", "t.txt:2:17: error:"},
};

START_TEST(errors) {
  const ErrCase *c = &err_cases[_i];
  Run r = parse_text(c->text);
  ck_assert_msg(r.g == NULL, "case %d parsed", _i);
  ck_assert_int_eq(r.nerrors, 1);
  ck_assert_int_eq(r.nfiles_after, 0);
  ck_assert_msg(strstr(r.err, c->msg), "case %d: '%s' not in:\n%s", _i, c->msg, r.err);
  ck_assert_msg(strncmp(r.err, c->where, strlen(c->where)) == 0, "case %d: want %s, got:\n%s",
                _i, c->where, r.err);
  free(r.err);
}
END_TEST

/* Every prefix of a real dump either parses or fails with exactly one diagnostic. */
START_TEST(truncated_prefixes) {
  size_t len;
  char path[512];
  snprintf(path, sizeof path, "%s/control_scripted.txt", corpus_dir());
  char *text = read_file(path, &len);
  ck_assert_ptr_nonnull(text);
  for (size_t n = 0; n < len; n += 1 + n / 64) {
    char *copy = malloc(n ? n : 1); /* exact size: ASan catches a read past the end */
    memcpy(copy, text, n);
    FILE *out = fopen("/dev/null", "w");
    Diag d;
    diag_init(&d);
    d.out = out;
    Graph *g = ts_parse_string("cut.txt", copy, n, &d);
    ck_assert_msg(g || d.nerrors == 1, "prefix %zu: %d errors", n, d.nerrors);
    if (g) ir_graph_free(g);
    fclose(out);
    free(copy);
  }
  free(text);
}
END_TEST

START_TEST(deep_nesting) {
  size_t n = 20000;
  char *text = malloc(n * 2 + 64);
  strcpy(text, "graph(%x : ");
  size_t k = strlen(text);
  for (size_t i = 0; i < n; i++) text[k++] = '(';
  text[k] = 0;
  Run r = parse_text(text);
  ck_assert_ptr_null(r.g);
  ck_assert_ptr_nonnull(strstr(r.err, "nesting deeper than"));
  free(r.err);
  free(text);
}
END_TEST

/* ---- verifier ------------------------------------------------------------------------------ */

START_TEST(verify_catches) {
  Graph *g = parse_ok(control_text);
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  Diag d;
  diag_init(&d);
  d.out = out;
  /* move the ListUnpack before the ListConstruct that defines its input */
  Node *lc = nth_node(g, 4), *unpack = nth_node(g, 5);
  ir_remove(unpack);
  ir_insert_before(lc, unpack);
  ck_assert_int_ge(ir_verify(g, &d, "after pass test"), 1);
  fflush(out);
  ck_assert_ptr_nonnull(strstr(buf, "after pass test"));
  ck_assert_ptr_nonnull(strstr(buf, "'%l' before its definition"));
  ck_assert_ptr_nonnull(strstr(buf, "t.txt:17:"));
  ir_remove(unpack);
  ir_insert_after(lc, unpack);
  d.nerrors = 0;
  ck_assert_int_eq(ir_verify(g, &d, "after pass test"), 0);
  /* an If without its second block */
  Node *ifn = nth_node(g, 3);
  ifn->nblocks = 1;
  ck_assert_int_ge(ir_verify(g, &d, "after pass test"), 1);
  fflush(out);
  ck_assert_ptr_nonnull(strstr(buf, "prim::If has 1 blocks, expected 2"));
  ifn->nblocks = 2;
  /* a value used outside its block */
  ir_node_set_input(nth_node(g, 4), 0, ifn->blocks[0]->first->inputs[0] == NULL
                                           ? NULL
                                           : nth_node(g, 2)->blocks[0]->first->outputs[0]);
  ck_assert_int_ge(ir_verify(g, &d, NULL), 1);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(buf, "'%y.3' outside the block that defines it"));
  free(buf);
  ir_graph_free(g);
}
END_TEST

static Suite *ts_suite(void) {
  Suite *s = suite_create("ts");
  TCase *tc = tcase_create("corpus");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, corpus_size);
  tcase_add_loop_test(tc, corpus_roundtrip, 0, ncorpus);
  suite_add_tcase(s, tc);
  tc = tcase_create("forms");
  tcase_add_test(tc, const_scalars);
  tcase_add_test(tc, const_lists);
  tcase_add_test(tc, const_tensors);
  tcase_add_test(tc, types);
  tcase_add_test(tc, structure);
  tcase_add_test(tc, print_formats);
  suite_add_tcase(s, tc);
  tc = tcase_create("errors");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, errors, 0, (int)(sizeof err_cases / sizeof *err_cases));
  tcase_add_test(tc, truncated_prefixes);
  tcase_add_test(tc, deep_nesting);
  tcase_add_test(tc, verify_catches);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  load_corpus();
  SRunner *sr = srunner_create(ts_suite());
  srunner_set_fork_status(sr, CK_FORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  for (int i = 0; i < ncorpus; i++) free(corpus[i]);
  free(corpus);
  return failed ? 1 : 0;
}
