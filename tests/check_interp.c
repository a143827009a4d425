/* check_interp.c — the reference interpreter against PyTorch: every graph of tests/dce/ runs on
 * deterministic inputs, raw (as parsed) and after prep,infer where the graph has no run-time
 * control flow, and its outputs AND the final values of its inputs must equal what PyTorch
 * computed (tests/dce/NAME.expect, written by tests/dce/gen_expect.py). The graphs cover
 * writes through slice/select/transpose views of inputs (the storage must really be shared),
 * in-place optimizer steps, clones, prim::If, prim::Loop with a max trip count and a condition,
 * int loop-carried values, prim::Print. Also: prim::RaiseException is an error, a wrong input
 * count is an error, and prim::Print output goes to the chosen stream. */
#include <check.h>

#include "dce/harness.h"

typedef struct Case {
  const char *name;
  bool has_control; /* run-time prim::If / prim::Loop: infer does not take it yet */
} Case;

static const Case cases[] = {
    {"sgd_step", false},   {"momentum", false},  {"view_write", false}, {"dead_clone", false},
    {"clone_read", false}, {"print_dead", false}, {"if_unused", true},  {"loop_carried", true},
    {"loop_cond", true},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static void run_against_pytorch(const char *name, const char *pipeline) {
  Diag d;
  diag_init(&d);
  Graph *g = h_load(name, pipeline, &d);
  ck_assert_msg(g != NULL, "%s: load failed", name);
  int nin, nout;
  IrTensor **ins = h_inputs(g, &nin), **outs;
  char *buf = NULL;
  size_t len = 0;
  FILE *pf = open_memstream(&buf, &len);
  InterpOptions o = {pf, 0, 0};
  int rc = interp_run_opts(g, &o, ins, nin, &outs, &nout, &d);
  fclose(pf);
  ck_assert_msg(rc == 0, "%s: interpreter failed", name);
  char msg[512];
  ck_assert_msg(h_check_expect(name, outs, nout, ins, nin, msg, sizeof msg) == 0, "%s (pipeline '%s')", msg,
                pipeline);
  if (strcmp(name, "print_dead") == 0) {
    ck_assert_int_eq(o.nevents, 1);
    ck_assert_msg(strncmp(buf, "tensor([", 8) == 0, "printed '%s'", buf);
  }
  free(buf);
  interp_free_outputs(outs, nout);
  h_free_all(ins, nin);
  ir_graph_free(g);
}

START_TEST(test_raw_graphs) { run_against_pytorch(cases[_i].name, ""); }
END_TEST

START_TEST(test_after_infer) {
  if (cases[_i].has_control) return;
  run_against_pytorch(cases[_i].name, "prep,infer");
}
END_TEST

static Graph *parse(const char *text, Diag *d) {
  Graph *g = ts_parse_string("t.txt", text, strlen(text), d);
  ck_assert_ptr_nonnull(g);
  ck_assert_int_eq(ops_resolve(g, d), 0);
  return g;
}

START_TEST(test_raise) {
  Diag d;
  diag_init(&d);
  d.out = fopen("/dev/null", "w");
  Graph *g = parse("graph(%x : Float(2, strides=[1], requires_grad=0, device=cpu)):\n"
                   "  %m : str = prim::Constant[value=\"boom\"]()\n"
                   "   = prim::RaiseException(%m)\n"
                   "  return (%x)\n",
                   &d);
  int64_t two = 2;
  IrTensor *x = interp_tensor_new(DT_F32, 1, &two), **outs;
  int nout;
  ck_assert_int_ne(interp_run(g, &x, 1, &outs, &nout, &d), 0);
  ck_assert_ptr_null(outs);
  ck_assert_int_ne(interp_run(g, NULL, 0, &outs, &nout, &d), 0); /* wrong input count */
  interp_tensor_free(x);
  ir_graph_free(g);
  fclose(d.out);
}
END_TEST

/* x.t() viewed, written through, then read through a second view: the storage is shared, so
 * y = x^T[0] after x^T[0] += 1 reads the updated values, and the output is a contiguous copy
 * (reasoning: x = [[a, b], [c, d]] -> x^T[0] = [a, c] -> [a+1, c+1]; returned x has them). */
START_TEST(test_views_share_storage) {
  Diag d;
  diag_init(&d);
  Graph *g = parse("graph(%x : Float(2, 2, strides=[2, 1], requires_grad=0, device=cpu)):\n"
                   "  %zero : int = prim::Constant[value=0]()\n"
                   "  %one : int = prim::Constant[value=1]()\n"
                   "  %t : Tensor = aten::t(%x)\n"
                   "  %r : Tensor = aten::select(%t, %zero, %zero)\n"
                   "  %w : Tensor = aten::add_(%r, %one, %one)\n"
                   "  %t2 : Tensor = aten::transpose(%x, %zero, %one)\n"
                   "  return (%t2, %w)\n",
                   &d);
  int64_t shape[2] = {2, 2};
  IrTensor *x = interp_tensor_new(DT_F32, 2, shape), **outs;
  float *xf = x->data;
  for (int i = 0; i < 4; i++) xf[i] = (float)(i + 1); /* a=1 b=2 c=3 d=4 */
  int nout;
  ck_assert_int_eq(interp_run(g, &x, 1, &outs, &nout, &d), 0);
  ck_assert_int_eq(nout, 2);
  const float want_x[4] = {2, 2, 4, 4}, want_t2[4] = {2, 4, 2, 4}, want_w[2] = {2, 4};
  for (int i = 0; i < 4; i++) ck_assert_float_eq(xf[i], want_x[i]);
  for (int i = 0; i < 4; i++) ck_assert_float_eq(((float *)outs[0]->data)[i], want_t2[i]);
  for (int i = 0; i < 2; i++) ck_assert_float_eq(((float *)outs[1]->data)[i], want_w[i]);
  interp_free_outputs(outs, nout);
  interp_tensor_free(x);
  ir_graph_free(g);
}
END_TEST

static Suite *interp_suite(void) {
  Suite *s = suite_create("interp");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_raw_graphs, 0, NCASES);
  tcase_add_loop_test(tc, test_after_infer, 0, NCASES);
  tcase_add_test(tc, test_raise);
  tcase_add_test(tc, test_views_share_storage);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(interp_suite());
  srunner_set_fork_status(sr, CK_FORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
