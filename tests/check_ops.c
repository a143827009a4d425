/* check_ops.c — the op table's schemas and overload resolution.
 *
 * For every row of the op table and every overload its schema lists, a node is built whose
 * inputs have the parameter types of that overload (the first alternative of "A|B", every
 * optional parameter passed, as TorchScript graphs pass them) and whose output count is the
 * overload's; ops_match must resolve it to that overload (or to an earlier one that declares
 * the same parameter types and results), and ops_resolve must accept it. Then the overloads
 * users reach through PyTorch's own spellings: max/min with a dim give (values, indices), with a
 * tensor the elementwise form, alone the full reduction; and a node no overload takes is
 * refused with a located message. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"

/* The type a value needs to be passed for parameter type `pt` (its first alternative). */
static Type *type_for(Arena *a, const char *pt) {
  char one[48];
  size_t n = strcspn(pt, "|");
  if (n >= sizeof one) n = sizeof one - 1;
  memcpy(one, pt, n);
  one[n] = '\0';
  while (n > 0 && one[n - 1] == ' ') one[--n] = '\0';
  if (n > 0 && one[n - 1] == '?') one[--n] = '\0';
  if (n > 0 && one[n - 1] == ']') { /* "int[]", "int[2]", "Tensor?[]": a list */
    char *b = strrchr(one, '[');
    *b = '\0';
    Type *l = ir_type_new(a, TY_LIST);
    l->elem = type_for(a, one);
    return l;
  }
  if (!strncmp(one, "Tensor", 6)) {
    int64_t shape[2] = {2, 3};
    return ir_type_tensor(a, DT_F32, 2, shape);
  }
  if (!strcmp(one, "Scalar") || !strcmp(one, "int") || !strcmp(one, "MemoryFormat") || !strcmp(one, "ScalarType") ||
      !strcmp(one, "Layout"))
    return ir_type_new(a, TY_INT);
  if (!strcmp(one, "float")) return ir_type_new(a, TY_FLOAT);
  if (!strcmp(one, "bool")) return ir_type_new(a, TY_BOOL);
  if (!strcmp(one, "str")) return ir_type_new(a, TY_STR);
  if (!strcmp(one, "Device")) return ir_type_new(a, TY_DEVICE);
  return ir_type_new(a, TY_ANY);
}

static Node *node_for(Graph *g, const OpDef *op, const OpSig *sig) {
  Value *ins[OPS_MAX_PARAMS];
  for (int i = 0; i < sig->nparams && i < OPS_MAX_PARAMS; i++)
    ins[i] = ir_block_add_param(g->top, type_for(g->arena, sig->params[i].type), NULL);
  int nout = sig->noutputs >= 0 ? sig->noutputs : 1;
  Type *outs[8];
  for (int k = 0; k < nout && k < 8; k++) outs[k] = ir_type_new(g->arena, TY_ANY);
  Node *n = ir_node_new(g, op->name, ins, sig->nparams, nout, outs);
  ir_append(g->top, n);
  return n;
}

/* Whether overloads j and k of op declare the same parameter types and result count. */
static bool same_sig(const OpSig *a, const OpSig *b) {
  if (a->nparams != b->nparams || a->noutputs != b->noutputs) return false;
  for (int i = 0; i < a->nparams && i < OPS_MAX_PARAMS; i++)
    if (strcmp(a->params[i].type, b->params[i].type)) return false;
  return true;
}

START_TEST(every_overload_resolves) {
  int rows = 0, overloads = 0, multi = 0;
  for (int r = 0; r < ops_count(); r++) {
    const OpDef *op = ops_at(r);
    if (op->flags & OPF_STRUCTURAL) continue;
    rows++;
    int k = ops_overload_count(op);
    multi += k > 1;
    for (int i = 0; i < k; i++) {
      OpSig sig;
      ck_assert_msg(ops_overload(op, i, &sig), "%s: overload %d missing", op->name, i);
      if (sig.variadic) continue;
      overloads++;
      ck_assert_msg(sig.nparams <= OPS_MAX_PARAMS, "%s: %d parameters", op->name, sig.nparams);
      ck_assert_msg(sig.min_inputs <= sig.nparams, "%s #%d", op->name, i);
      Graph *g = ir_graph_new("check_ops");
      Node *n = node_for(g, op, &sig);
      bool in_row = n->ninputs >= op->min_inputs && (op->max_inputs < 0 || n->ninputs <= op->max_inputs);
      ck_assert_msg(in_row, "%s overload %d '%s' has %d parameters, the row allows %d to %d", op->name, i, sig.text,
                    n->ninputs, op->min_inputs, op->max_inputs);
      int got = ops_match(op, n);
      ck_assert_msg(got >= 0, "%s: overload %d '%s' does not resolve", op->name, i, sig.text);
      if (got != i) {
        OpSig other;
        ops_overload(op, got, &other);
        ck_assert_msg(got < i && same_sig(&other, &sig), "%s: overload %d '%s' resolves to %d '%s'", op->name, i,
                      sig.text, got, other.text);
      }
      Diag d;
      diag_init(&d);
      /* an OPF_COMPLEX_IN row (irfft, view_as_real) takes only a complex value made in the graph
       * (ops_complex_check): a parameter there is refused by design */
      bool needs_complex = (op->flags & OPF_COMPLEX_IN) != 0;
      ck_assert_msg(ops_resolve(g, &d) == (needs_complex ? 1 : 0), "%s: ops_resolve refuses overload %d '%s'",
                    op->name, i, sig.text);
      /* the tensor parameters of the matched overload are the tensor inputs */
      n->op = op;
      for (int p = 0; p < sig.nparams; p++)
        if (!strcmp(sig.params[p].type, "Tensor") || !strncmp(sig.params[p].type, "Tensor(", 7))
          ck_assert_msg(got != i || ops_node_param_is_tensor(n, p), "%s #%d: input %d", op->name, i, p);
      ir_graph_free(g);
    }
  }
  ck_assert_int_gt(rows, 200);
  ck_assert_int_gt(overloads, rows);
  ck_assert_int_ge(multi, 5);
}
END_TEST

/* node `kind` with inputs of the given kinds ('T' tensor, 'i' int, 'b' bool) and nout outputs */
static Node *build(Graph *g, const char *kind, const char *ins, int nout) {
  Value *vs[8];
  int n = (int)strlen(ins);
  for (int i = 0; i < n; i++) {
    int64_t shape[2] = {2, 3};
    Type *t = ins[i] == 'T' ? ir_type_tensor(g->arena, DT_F32, 2, shape)
                            : ir_type_new(g->arena, ins[i] == 'i' ? TY_INT : TY_BOOL);
    vs[i] = ir_block_add_param(g->top, t, NULL);
  }
  Type *outs[4];
  for (int k = 0; k < nout; k++) outs[k] = ir_type_new(g->arena, TY_ANY);
  Node *nd = ir_node_new(g, kind, vs, n, nout, outs);
  ir_append(g->top, nd);
  return nd;
}

START_TEST(max_min_overloads) {
  static const struct {
    const char *kind, *ins;
    int nout, want;
  } cases[] = {
      {"aten::max", "T", 1, 0},   {"aten::max", "TT", 1, 1},  {"aten::max", "Tib", 2, 2},
      {"aten::min", "T", 1, 0},   {"aten::min", "TT", 1, 1},  {"aten::min", "Tib", 2, 2},
      {"aten::var", "Tb", 1, 0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    Graph *g = ir_graph_new("check_ops");
    Node *n = build(g, cases[c].kind, cases[c].ins, cases[c].nout);
    const OpDef *op = ops_lookup(cases[c].kind);
    ck_assert_ptr_nonnull(op);
    ck_assert_int_eq(ops_match(op, n), cases[c].want);
    Diag d;
    diag_init(&d);
    ck_assert_int_eq(ops_resolve(g, &d), 0);
    ck_assert(ops_node_result_is_tensor(n, cases[c].nout - 1));
    ck_assert(ops_node_param_is_tensor(n, 0));
    ck_assert(ops_node_param_is_tensor(n, 1) == (cases[c].ins[1] == 'T'));
    ir_graph_free(g);
  }
}
END_TEST

START_TEST(no_overload_refused) {
  Graph *g = ir_graph_new("check_ops");
  build(g, "aten::max", "TT", 2); /* max(x, y) gives one tensor */
  Diag d;
  diag_init(&d);
  ck_assert_int_eq(ops_resolve(g, &d), 1);
  ir_graph_free(g);
}
END_TEST

static Suite *ops_suite(void) {
  Suite *s = suite_create("ops");
  TCase *tc = tcase_create("ops");
  tcase_add_test(tc, every_overload_resolves);
  tcase_add_test(tc, max_min_overloads);
  tcase_add_test(tc, no_overload_refused);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(ops_suite());
  srunner_run_all(sr, CK_NORMAL);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
