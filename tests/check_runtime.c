/* check_runtime.c — tests of libmcrt.a (runtime/mc_runtime.c) through hand-written model defs.
 *
 * Each def below stands in for what the emitter generates: a static mc_model_def whose run
 * function reads in[], writes the arena (or a mutated input) and sets out[]. Expected values are
 * reasoned out beside each test (the models are one-line arithmetic on small literals, exact in
 * float32). The seeds the tests guard: 000 (a zero-copy input that is also an output must read
 * the currently bound buffer; an in-place update lands in the caller's buffer) and 004 (DLPack
 * deleters run exactly once; an output DLPack owns its memory and outlives the model).
 * tests/runtime/sanitizers.sh (run by `make check`) runs this binary again under AddressSanitizer +
 * UBSan and under valgrind.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mc_runtime.h"

static const DLDataType F32 = {kDLFloat, 32, 1};
static const DLDataType F64 = {kDLFloat, 64, 1};
static const DLDataType U8 = {kDLUInt, 8, 1};
static const DLDataType I64 = {kDLInt, 64, 1};

static DLTensor tt(void *data, DLDataType dt, int ndim, int64_t *shape, int64_t *strides) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype = dt;
  t.shape = shape;
  t.strides = strides;
  return t;
}

/* ---- models -------------------------------------------------------------------------------- */

/* identity: (x: f32[2,3]) -> x */
static int run_identity(void *const *in, void *arena, void **out, char *err) {
  (void)arena, (void)err;
  out[0] = in[0];
  return 0;
}
static const mc_io_desc identity_in[] = {{"x", 0, 2, {2, 3}, {0}, 0}};
static const mc_io_desc identity_out[] = {{"out0", 0, 2, {2, 3}, {3, 1}, 0}};
static const mc_model_def identity_def = {"identity", 1, 1, identity_in, identity_out, 0,
                                          run_identity};

/* seed 000: (x: f32[2,2]) -> (x, x + 1) — output 0 is the input itself */
static int run_pair(void *const *in, void *arena, void **out, char *err) {
  (void)err;
  const float *x = in[0];
  float *y = arena;
  for (int k = 0; k < 4; k++) y[k] = x[k] + 1.0f;
  out[0] = in[0];
  out[1] = y;
  return 0;
}
static const mc_io_desc pair_in[] = {{"x", 0, 2, {2, 2}, {0}, 0}};
static const mc_io_desc pair_out[] = {{"out0", 0, 2, {2, 2}, {2, 1}, 0},
                                      {"out1", 0, 2, {2, 2}, {2, 1}, 0}};
static const mc_model_def pair_def = {"pair", 1, 2, pair_in, pair_out, 4 * sizeof(float), run_pair};

/* The (x, reshape(x), reshape(x) + 1) case of TVM's graph-executor zero-copy tests:
 * (x: f32[2,3]) -> (x, reshape(x, [3,2]), reshape(x, [3,2]) + 1). Outputs 0 and 1 are the
 * input's own storage (the reshape of a compact tensor is a view), output 2 is in the arena. */
static int run_reshape3(void *const *in, void *arena, void **out, char *err) {
  (void)err;
  const float *x = in[0];
  float *y = arena;
  for (int k = 0; k < 6; k++) y[k] = x[k] + 1.0f;
  out[0] = in[0];
  out[1] = in[0];
  out[2] = y;
  return 0;
}
static const mc_io_desc reshape3_out[] = {{"x", 0, 2, {2, 3}, {3, 1}, 0},
                                          {"r", 0, 2, {3, 2}, {2, 1}, 0},
                                          {"r1", 0, 2, {3, 2}, {2, 1}, 0}};
static const mc_model_def reshape3_def = {"reshape3", 1, 3, identity_in, reshape3_out, 6 * sizeof(float),
                                          run_reshape3};

/* optimizer step: (w: f32[4] mutated, g: f32[4]) -> w, with w -= 0.5 * g in place */
static int run_sgd(void *const *in, void *arena, void **out, char *err) {
  (void)arena, (void)err;
  float *w = in[0];
  const float *g = in[1];
  for (int k = 0; k < 4; k++) w[k] -= 0.5f * g[k];
  out[0] = w;
  return 0;
}
static const mc_io_desc sgd_in[] = {{"w", 0, 1, {4}, {0}, 1}, {"g", 0, 1, {4}, {0}, 0}};
static const mc_io_desc sgd_out[] = {{"w_new", 0, 1, {4}, {1}, 0}};
static const mc_model_def sgd_def = {"sgd", 2, 1, sgd_in, sgd_out, 0, run_sgd};

/* view output: (x: f32[2,3]) -> x.t(), a [3,2] view of the input with element strides [1,3] */
static const mc_io_desc trans_out[] = {{"xt", 0, 2, {3, 2}, {1, 3}, 0}};
static const mc_model_def trans_def = {"trans", 1, 1, identity_in, trans_out, 0, run_identity};

/* failing: (x: f32[2,3]) -> error from an op */
static int run_fail(void *const *in, void *arena, void **out, char *err) {
  (void)in, (void)arena, (void)out;
  strcpy(err, "aten::index: index 7 is out of bounds for dimension 0 with size 2");
  return 1;
}
static const mc_model_def fail_def = {"fail", 1, 1, identity_in, identity_out, 0, run_fail};

/* dtypes: (b: bool[3], u: uint8[3], s: int64[] (0-dim), e: f32[0,2]) -> (b) */
static int run_dtypes(void *const *in, void *arena, void **out, char *err) {
  (void)arena, (void)err;
  out[0] = in[0];
  return 0;
}
static const mc_io_desc dtypes_in[] = {{"b", 9, 1, {3}, {0}, 0},
                                       {"u", 8, 1, {3}, {0}, 0},
                                       {"s", 4, 0, {0}, {0}, 0},
                                       {"e", 0, 2, {0, 2}, {0}, 0}};
static const mc_io_desc dtypes_out[] = {{"b", 9, 1, {3}, {1}, 0}};
static const mc_model_def dtypes_def = {"dtypes", 4, 1, dtypes_in, dtypes_out, 0, run_dtypes};

/* ---- counting DLPack tensors --------------------------------------------------------------- */

typedef struct test_dl {
  DLManagedTensor mt;
  int64_t shape[2];
  int *count;
  float *data; /* separately malloc'd so ASan sees any use after the deleter */
} test_dl;

static void test_dl_deleter(DLManagedTensor *self) {
  test_dl *t = self->manager_ctx;
  (*t->count)++;
  free(t->data);
  free(t);
}

static DLManagedTensor *test_dl_new(int ndim, int64_t d0, int64_t d1, float first, int *count) {
  test_dl *t = calloc(1, sizeof *t);
  ck_assert_ptr_nonnull(t);
  t->shape[0] = d0;
  t->shape[1] = d1;
  int64_t n = ndim == 1 ? d0 : d0 * d1;
  t->data = malloc((size_t)n * sizeof(float));
  ck_assert_ptr_nonnull(t->data);
  for (int64_t k = 0; k < n; k++) t->data[k] = first + (float)k;
  t->count = count;
  t->mt.dl_tensor = tt(t->data, F32, ndim, t->shape, NULL);
  t->mt.manager_ctx = t;
  t->mt.deleter = test_dl_deleter;
  return &t->mt;
}

static float *test_dl_data(DLManagedTensor *t) { return ((test_dl *)t->manager_ctx)->data; }

/* ---- mc_set_num_threads: what run() sees through mc_runtime_num_threads ---------------------- */

static int threads_seen;
static int run_threads(void *const *in, void *arena, void **out, char *err) {
  threads_seen = mc_runtime_num_threads();
  return run_identity(in, arena, out, err);
}
static const mc_model_def threads_def = {"threads", 1, 1, identity_in, identity_out, 0, run_threads};

START_TEST(num_threads_reach_run_only_during_mc_run) {
  mc_model *m = mc_model_new(&threads_def), *other = mc_model_new(&threads_def);
  ck_assert_ptr_nonnull(m);
  ck_assert_ptr_nonnull(other);
  float buf[6] = {0};
  int64_t shape[2] = {2, 3};
  DLTensor x = tt(buf, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input(m, 0, &x), MC_OK);
  ck_assert_int_eq(mc_set_input(other, 0, &x), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_int_eq(threads_seen, 1); /* default */
  ck_assert_int_eq(mc_set_num_threads(NULL, 2), MC_EINVAL);
  ck_assert_int_eq(mc_set_num_threads(m, 0), MC_EINVAL);
  ck_assert_str_ne(mc_last_error(m), "");
  ck_assert_int_eq(mc_set_num_threads(m, -3), MC_EINVAL);
  ck_assert_int_eq(mc_set_num_threads(m, 3), MC_OK);
  ck_assert_str_eq(mc_last_error(m), "");
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_int_eq(threads_seen, 3);
  ck_assert_int_eq(mc_runtime_num_threads(), 1); /* restored after the run */
  ck_assert_int_eq(mc_run(other), MC_OK);
  ck_assert_int_eq(threads_seen, 1); /* per model */
  mc_model_destroy(m);
  mc_model_destroy(other);
}
END_TEST

/* ---- seed 000: zero-copy inputs that are also outputs ---------------------------------------- */

START_TEST(identity_zero_copy_reads_caller_buffer) {
  mc_model *m = mc_model_new(&identity_def);
  ck_assert_ptr_nonnull(m);
  float buf[6] = {1, 2, 3, 4, 5, 6};
  int64_t shape[2] = {2, 3};
  DLTensor x = tt(buf, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &x), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  const DLTensor *o = mc_get_output(m, 0);
  ck_assert_ptr_nonnull(o);
  ck_assert_ptr_eq(o->data, buf); /* no copy in between */
  ck_assert_int_eq(o->ndim, 2);
  ck_assert_int_eq(o->shape[0], 2);
  ck_assert_int_eq(o->shape[1], 3);
  ck_assert_int_eq(o->strides[0], 3);
  ck_assert_int_eq(o->byte_offset, 0);
  /* the descriptor x may die; a later run still reads the caller's current values */
  memset(&x, 0xff, sizeof x);
  buf[4] = 50;
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_float_eq(((float *)mc_get_output(m, 0)->data)[4], 50);
  mc_model_destroy(m);
}
END_TEST

START_TEST(pair_zero_copy_output_is_current_input) {
  /* return (x, x + 1): output 0 must read as x, output 1 as x + 1, whatever buffer is bound,
   * and agree with a model bound by copy (the comparison seed 000 makes). */
  mc_model *zc = mc_model_new(&pair_def), *cp = mc_model_new(&pair_def);
  ck_assert_ptr_nonnull(zc);
  ck_assert_ptr_nonnull(cp);
  float a[4] = {1, 1, 1, 1}, b[4] = {5, 6, 7, 8};
  int64_t shape[2] = {2, 2};
  DLTensor ta = tt(a, F32, 2, shape, NULL), tb = tt(b, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(zc, 0, &ta), MC_OK);
  ck_assert_int_eq(mc_set_input(cp, 0, &ta), MC_OK);
  ck_assert_int_eq(mc_run(zc), MC_OK);
  ck_assert_int_eq(mc_run(cp), MC_OK);
  float o0[4], o1[4], c0[4], c1[4];
  DLTensor d0 = tt(o0, F32, 2, shape, NULL), d1 = tt(o1, F32, 2, shape, NULL);
  DLTensor e0 = tt(c0, F32, 2, shape, NULL), e1 = tt(c1, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_copy_output(zc, 0, &d0), MC_OK);
  ck_assert_int_eq(mc_copy_output(zc, 1, &d1), MC_OK);
  ck_assert_int_eq(mc_copy_output(cp, 0, &e0), MC_OK);
  ck_assert_int_eq(mc_copy_output(cp, 1, &e1), MC_OK);
  for (int k = 0; k < 4; k++) {
    ck_assert_float_eq(o0[k], 1);
    ck_assert_float_eq(o1[k], 2);
  }
  ck_assert_mem_eq(o0, c0, sizeof o0);
  ck_assert_mem_eq(o1, c1, sizeof o1);

  /* rebinding invalidates the outputs, which may point into the old buffer */
  ck_assert_int_eq(mc_set_input_zero_copy(zc, 0, &tb), MC_OK);
  ck_assert_ptr_null(mc_get_output(zc, 0));
  ck_assert_ptr_nonnull(strstr(mc_last_error(zc), "mc_run"));
  ck_assert_int_eq(mc_run(zc), MC_OK);
  ck_assert_ptr_eq(mc_get_output(zc, 0)->data, b);
  ck_assert_int_eq(mc_copy_output(zc, 0, &d0), MC_OK);
  ck_assert_int_eq(mc_copy_output(zc, 1, &d1), MC_OK);
  for (int k = 0; k < 4; k++) {
    ck_assert_float_eq(o0[k], b[k]);
    ck_assert_float_eq(o1[k], b[k] + 1);
  }
  for (int k = 0; k < 4; k++) ck_assert_float_eq(a[k], 1); /* old buffer untouched */
  mc_model_destroy(zc);
  mc_model_destroy(cp);
}
END_TEST

START_TEST(reshape_zero_copy_outputs_read_caller_buffer) {
  /* (x, reshape(x), reshape(x) + 1) with x bound zero-copy: outputs 0 and 1 point into the
   * caller's buffer with their own shapes, output 2 is x + 1; after the caller changes its
   * buffer, and after rebinding to another one, a run reads the current values. */
  mc_model *m = mc_model_new(&reshape3_def);
  ck_assert_ptr_nonnull(m);
  float a[6] = {0, 1, 2, 3, 4, 5}, b[6] = {10, 20, 30, 40, 50, 60};
  int64_t shape[2] = {2, 3};
  DLTensor ta = tt(a, F32, 2, shape, NULL), tb = tt(b, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &ta), MC_OK);
  for (int round = 0; round < 3; round++) {
    const float *cur = round < 2 ? a : b;
    if (round == 1) a[3] = -7; /* the caller writes its buffer between runs */
    if (round == 2) ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &tb), MC_OK);
    ck_assert_int_eq(mc_run(m), MC_OK);
    const DLTensor *o0 = mc_get_output(m, 0), *o1 = mc_get_output(m, 1), *o2 = mc_get_output(m, 2);
    ck_assert(o0 && o1 && o2);
    ck_assert_ptr_eq((char *)o0->data + o0->byte_offset, cur);
    ck_assert_ptr_eq((char *)o1->data + o1->byte_offset, cur);
    ck_assert_int_eq(o0->shape[0], 2);
    ck_assert_int_eq(o0->shape[1], 3);
    ck_assert_int_eq(o1->shape[0], 3);
    ck_assert_int_eq(o1->shape[1], 2);
    int64_t rs[2] = {3, 2};
    float c0[6], c1[6], c2[6];
    DLTensor d0 = tt(c0, F32, 2, shape, NULL), d1 = tt(c1, F32, 2, rs, NULL), d2 = tt(c2, F32, 2, rs, NULL);
    ck_assert_int_eq(mc_copy_output(m, 0, &d0), MC_OK);
    ck_assert_int_eq(mc_copy_output(m, 1, &d1), MC_OK);
    ck_assert_int_eq(mc_copy_output(m, 2, &d2), MC_OK);
    for (int k = 0; k < 6; k++) {
      ck_assert_float_eq(c0[k], cur[k]);
      ck_assert_float_eq(c1[k], cur[k]);
      ck_assert_float_eq(c2[k], cur[k] + 1);
    }
  }
  /* the DLPack form of output 1 owns a copy: it outlives the model and the caller's buffer */
  DLManagedTensor *d = mc_get_output_dlpack(m, 1);
  ck_assert_ptr_nonnull(d);
  mc_model_destroy(m);
  memset(b, 0, sizeof b);
  ck_assert_int_eq(d->dl_tensor.shape[0], 3);
  for (int k = 0; k < 6; k++) ck_assert_float_eq(((float *)d->dl_tensor.data)[k], (float)(10 * (k + 1)));
  d->deleter(d);
  for (int k = 0; k < 6; k++) ck_assert_float_eq(a[k], k == 3 ? -7 : (float)k); /* never written */
}
END_TEST

START_TEST(sgd_zero_copy_updates_caller_buffer) {
  /* w -= 0.5 * g: w {1,2,3,4}, g {2,2,2,2} -> {0,1,2,3}, then -> {-1,0,1,2} */
  mc_model *m = mc_model_new(&sgd_def);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(mc_input_is_mutated(m, 0), 1);
  ck_assert_int_eq(mc_input_is_mutated(m, 1), 0);
  float w[4] = {1, 2, 3, 4}, g[4] = {2, 2, 2, 2};
  int64_t shape[1] = {4};
  DLTensor tw = tt(w, F32, 1, shape, NULL), tg = tt(g, F32, 1, shape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &tw), MC_OK);
  ck_assert_int_eq(mc_set_input(m, 1, &tg), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(w[k], (float)k);
  ck_assert_ptr_eq(mc_get_output(m, 0)->data, w);
  ck_assert_int_eq(mc_run(m), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(w[k], (float)k - 1);
  mc_model_destroy(m);
}
END_TEST

START_TEST(sgd_copy_updates_model_copy) {
  /* bound by copy the caller's w stays {1,2,3,4}; the model's copy steps to {0,1,2,3} and then,
   * without rebinding, to {-1,0,1,2} */
  mc_model *m = mc_model_new(&sgd_def);
  float w[4] = {1, 2, 3, 4}, g[4] = {2, 2, 2, 2}, got[4];
  int64_t shape[1] = {4};
  DLTensor tw = tt(w, F32, 1, shape, NULL), tg = tt(g, F32, 1, shape, NULL);
  DLTensor dst = tt(got, F32, 1, shape, NULL);
  ck_assert_int_eq(mc_set_input(m, 0, &tw), MC_OK);
  ck_assert_int_eq(mc_set_input(m, 1, &tg), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(w[k], (float)k + 1);
  ck_assert_int_eq(mc_copy_input(m, 0, &dst), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(got[k], (float)k);
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_int_eq(mc_copy_input(m, 0, &dst), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(got[k], (float)k - 1);
  ck_assert_int_eq(mc_copy_output(m, 0, &dst), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(got[k], (float)k - 1);
  /* binding by copy from the model's own output (its current copy) is a no-op copy */
  DLTensor self = *mc_get_output(m, 0);
  ck_assert_int_eq(mc_set_input(m, 0, &self), MC_OK);
  ck_assert_int_eq(mc_copy_input(m, 0, &dst), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(got[k], (float)k - 1);
  mc_model_destroy(m);
}
END_TEST

START_TEST(copy_after_zero_copy_never_writes_old_buffer) {
  /* w bound zero-copy to A, then by copy from B: runs update only the model's copy */
  mc_model *m = mc_model_new(&sgd_def);
  float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, g[4] = {2, 2, 2, 2}, got[4];
  int64_t shape[1] = {4};
  DLTensor ta = tt(a, F32, 1, shape, NULL), tb = tt(b, F32, 1, shape, NULL);
  DLTensor tg = tt(g, F32, 1, shape, NULL), dst = tt(got, F32, 1, shape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &ta), MC_OK);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 1, &tg), MC_OK);
  ck_assert_int_eq(mc_set_input(m, 0, &tb), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  for (int k = 0; k < 4; k++) {
    ck_assert_float_eq(a[k], (float)k + 1);
    ck_assert_float_eq(b[k], 10.0f * (float)(k + 1));
  }
  ck_assert_int_eq(mc_copy_input(m, 0, &dst), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(got[k], 10.0f * (float)(k + 1) - 2);
  /* and back to zero-copy on A: the copy is dropped, A is updated */
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &ta), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(a[k], (float)k);
  mc_model_destroy(m);
}
END_TEST

START_TEST(transposed_view_output) {
  /* x = [[1,2,3],[4,5,6]]; x.t() = [[1,4],[2,5],[3,6]] read through strides [1,3] */
  mc_model *m = mc_model_new(&trans_def);
  float x[6] = {1, 2, 3, 4, 5, 6}, got[6];
  const float want[6] = {1, 4, 2, 5, 3, 6};
  int64_t shape[2] = {2, 3}, oshape[2] = {3, 2};
  DLTensor tx = tt(x, F32, 2, shape, NULL), dst = tt(got, F32, 2, oshape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &tx), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  const DLTensor *o = mc_get_output(m, 0);
  ck_assert_int_eq(o->strides[0], 1);
  ck_assert_int_eq(o->strides[1], 3);
  ck_assert_int_eq(mc_copy_output(m, 0, &dst), MC_OK);
  ck_assert_mem_eq(got, want, sizeof want);
  DLManagedTensor *d = mc_get_output_dlpack(m, 0);
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(d->dl_tensor.strides[0], 2);
  ck_assert_int_eq(d->dl_tensor.strides[1], 1);
  ck_assert_mem_eq(d->dl_tensor.data, want, sizeof want);
  d->deleter(d);
  /* copying the output onto the input buffer it views still gives the transpose */
  DLTensor onto = tt(x, F32, 2, oshape, NULL);
  ck_assert_int_eq(mc_copy_output(m, 0, &onto), MC_OK);
  ck_assert_mem_eq(x, want, sizeof want);
  mc_model_destroy(m);
}
END_TEST

/* ---- seed 004: DLPack ownership ------------------------------------------------------------ */

START_TEST(dlpack_deleter_once_on_replace_and_destroy) {
  int c1 = 0, c2 = 0, c3 = 0, c4 = 0;
  mc_model *m = mc_model_new(&identity_def);
  DLManagedTensor *t1 = test_dl_new(2, 2, 3, 1, &c1), *t2 = test_dl_new(2, 2, 3, 10, &c2);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, t1), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_ptr_eq(mc_get_output(m, 0)->data, test_dl_data(t1));
  ck_assert_int_eq(c1, 0);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, t2), MC_OK); /* replace by DLPack */
  ck_assert_int_eq(c1, 1);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, t2), MC_OK); /* the same tensor again: kept */
  ck_assert_int_eq(c2, 0);
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_float_eq(((float *)mc_get_output(m, 0)->data)[5], 15);

  /* replace by a copy taken from the DLPack memory itself: copied before the deleter frees it */
  int64_t shape[2] = {2, 3};
  DLTensor from_t2 = tt(test_dl_data(t2), F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input(m, 0, &from_t2), MC_OK);
  ck_assert_int_eq(c2, 1);
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_float_eq(((float *)mc_get_output(m, 0)->data)[5], 15);

  /* replace by zero-copy */
  DLManagedTensor *t3 = test_dl_new(2, 2, 3, 0, &c3);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, t3), MC_OK);
  float buf[6] = {0};
  DLTensor tb = tt(buf, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &tb), MC_OK);
  ck_assert_int_eq(c3, 1);

  /* destroy */
  DLManagedTensor *t4 = test_dl_new(2, 2, 3, 0, &c4);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, t4), MC_OK);
  mc_model_destroy(m);
  ck_assert_int_eq(c1, 1);
  ck_assert_int_eq(c2, 1);
  ck_assert_int_eq(c3, 1);
  ck_assert_int_eq(c4, 1);
}
END_TEST

START_TEST(dlpack_refused_calls_deleter_once) {
  int c_good = 0, c_bad = 0, c_idx = 0, c_null = 0, c_dup = 0;
  mc_model *m = mc_model_new(&sgd_def);
  DLManagedTensor *good = test_dl_new(1, 4, 0, 1, &c_good);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, good), MC_OK);
  DLManagedTensor *bad = test_dl_new(2, 2, 2, 0, &c_bad); /* [2,2] for a [4] input */
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, bad), MC_ESHAPE);
  ck_assert_int_eq(c_bad, 1);
  ck_assert_int_eq(c_good, 0); /* the previous binding stands */
  DLManagedTensor *idx = test_dl_new(1, 4, 0, 0, &c_idx);
  ck_assert_int_eq(mc_set_input_dlpack(m, 2, idx), MC_EINVAL);
  ck_assert_int_eq(c_idx, 1);
  DLManagedTensor *nm = test_dl_new(1, 4, 0, 0, &c_null);
  ck_assert_int_eq(mc_set_input_dlpack(NULL, 0, nm), MC_EINVAL);
  ck_assert_int_eq(c_null, 1);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, NULL), MC_EINVAL);
  /* a tensor the model owns for input 0 is refused for input 1 and not deleted */
  ck_assert_int_eq(mc_set_input_dlpack(m, 1, good), MC_EINVAL);
  ck_assert_int_eq(c_good, 0);
  /* mutated DLPack input: w {1,2,3,4} -= 0.5 * {2,2,2,2} lands in the tensor's memory */
  DLManagedTensor *g = test_dl_new(1, 4, 0, 2, &c_dup);
  for (int k = 0; k < 4; k++) test_dl_data(g)[k] = 2;
  ck_assert_int_eq(mc_set_input_dlpack(m, 1, g), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  for (int k = 0; k < 4; k++) ck_assert_float_eq(test_dl_data(good)[k], (float)k);
  mc_model_destroy(m);
  ck_assert_int_eq(c_good, 1);
  ck_assert_int_eq(c_dup, 1);
}
END_TEST

/* mixed: (a: f32[2,3], b: f32[4]) -> a; two inputs of different shapes */
static const mc_io_desc mixed_in[] = {{"a", 0, 2, {2, 3}, {0}, 0}, {"b", 0, 1, {4}, {0}, 0}};
static const mc_model_def mixed_def = {"mixed", 2, 1, mixed_in, identity_out, 0, run_identity};

/* seeds/004: a tensor the model owns is deleted exactly once, by the binding that owns it,
 * whatever else it is passed to: another index (wrong shape, same shape, out of range), its own
 * index again (still fitting or not), a zero-copy bind of itself. */
START_TEST(dlpack_owned_tensor_deleted_once_on_every_path) {
  int ca = 0, cb = 0;
  mc_model *m = mc_model_new(&mixed_def);
  ck_assert_ptr_nonnull(m);
  DLManagedTensor *a = test_dl_new(2, 2, 3, 1, &ca), *b = test_dl_new(1, 4, 0, 0, &cb);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, a), MC_OK);
  ck_assert_int_eq(mc_set_input_dlpack(m, 1, b), MC_OK);
  /* a for input 1: wrong shape there, and owned by input 0 */
  ck_assert_int_eq(mc_set_input_dlpack(m, 1, a), MC_EINVAL);
  ck_assert_ptr_nonnull(strstr(mc_last_error(m), "already bound to input 0"));
  ck_assert_int_eq(ca, 0);
  /* b for input 0: wrong shape, owned by input 1 */
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, b), MC_EINVAL);
  ck_assert_int_eq(cb, 0);
  /* out of range, either side */
  ck_assert_int_eq(mc_set_input_dlpack(m, 2, a), MC_EINVAL);
  ck_assert_ptr_nonnull(strstr(mc_last_error(m), "out of range"));
  ck_assert_int_eq(mc_set_input_dlpack(m, -1, a), MC_EINVAL);
  ck_assert_int_eq(mc_set_input_dlpack(m, 1000, b), MC_EINVAL);
  ck_assert_int_eq(ca, 0);
  ck_assert_int_eq(cb, 0);
  /* its own index again: kept */
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, a), MC_OK);
  ck_assert_int_eq(ca, 0);
  /* its own index, no longer fitting: refused, the binding stands, nothing deleted */
  a->dl_tensor.shape[0] = 7;
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, a), MC_ESHAPE);
  a->dl_tensor.shape[0] = 2;
  ck_assert_int_eq(ca, 0);
  /* borrowing the tensor input 0 owns for input 0 would free it under the borrow */
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &a->dl_tensor), MC_EINVAL);
  ck_assert_int_eq(ca, 0);
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_ptr_eq(mc_get_output(m, 0)->data, test_dl_data(a));
  ck_assert_float_eq(((float *)mc_get_output(m, 0)->data)[5], 6); /* a = {1..6} */
  mc_model_destroy(m);
  ck_assert_int_eq(ca, 1);
  ck_assert_int_eq(cb, 1);
}
END_TEST

/* Replacing an owned tensor by each kind of binding runs its deleter once, at the replacement;
 * refused replacements (by copy, zero-copy or DLPack) run none. */
START_TEST(dlpack_replaced_by_refused_call_keeps_binding) {
  int ca = 0, cr = 0;
  mc_model *m = mc_model_new(&mixed_def);
  DLManagedTensor *a = test_dl_new(2, 2, 3, 1, &ca);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, a), MC_OK);
  float wrong[4] = {0};
  int64_t s4[1] = {4};
  DLTensor w = tt(wrong, F32, 1, s4, NULL);
  ck_assert_int_eq(mc_set_input(m, 0, &w), MC_ESHAPE);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &w), MC_ESHAPE);
  DLManagedTensor *r = test_dl_new(1, 4, 0, 0, &cr);
  ck_assert_int_eq(mc_set_input_dlpack(m, 0, r), MC_ESHAPE); /* refused: r deleted, a kept */
  ck_assert_int_eq(cr, 1);
  ck_assert_int_eq(ca, 0);
  float b[4] = {0};
  DLTensor tb = tt(b, F32, 1, s4, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 1, &tb), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_ptr_eq(mc_get_output(m, 0)->data, test_dl_data(a));
  mc_model_destroy(m);
  ck_assert_int_eq(ca, 1);
  ck_assert_int_eq(cr, 1);
}
END_TEST

/* A deleter that reenters the runtime (here: rebinding the same input by copy) finds the
 * tensor already forgotten, so it is not deleted twice. */
static mc_model *reenter_model;
static int reenter_count;
static void reenter_deleter(DLManagedTensor *self) {
  test_dl *t = self->manager_ctx;
  reenter_count++;
  float z[6] = {0};
  int64_t shape[2] = {2, 3};
  DLTensor x = tt(z, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input(reenter_model, 0, &x), MC_OK);
  free(t->data);
  free(t);
}

START_TEST(dlpack_deleter_reentering_runs_once) {
  int unused = 0;
  reenter_model = mc_model_new(&identity_def);
  reenter_count = 0;
  DLManagedTensor *a = test_dl_new(2, 2, 3, 1, &unused);
  a->deleter = reenter_deleter;
  ck_assert_int_eq(mc_set_input_dlpack(reenter_model, 0, a), MC_OK);
  float buf[6] = {0};
  int64_t shape[2] = {2, 3};
  DLTensor x = tt(buf, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(reenter_model, 0, &x), MC_OK);
  ck_assert_int_eq(reenter_count, 1);
  mc_model_destroy(reenter_model);
  ck_assert_int_eq(reenter_count, 1);
}
END_TEST

/* ---- sizes: a description whose sizes do not fit the address space is refused ------------- */

static int arena_aligned;
static int run_arena(void *const *in, void *arena, void **out, char *err) {
  arena_aligned = (uintptr_t)arena % 64 == 0;
  return run_identity(in, arena, out, err);
}

START_TEST(sizes_overflow_refused_at_create) {
  mc_model_def d = identity_def;
  d.run = run_arena;
  /* arenas near SIZE_MAX must not wrap to a small block when rounded to 64 bytes */
  size_t huge[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 63, SIZE_MAX - 64, SIZE_MAX / 2 + 1};
  for (size_t k = 0; k < sizeof huge / sizeof huge[0]; k++) {
    d.arena_bytes = huge[k];
    ck_assert_ptr_null(mc_model_new(&d));
  }
  /* an ordinary arena is allocated and 64-byte aligned */
  d.arena_bytes = 1000;
  mc_model *m = mc_model_new(&d);
  ck_assert_ptr_nonnull(m);
  float buf[6] = {0};
  int64_t shape[2] = {2, 3};
  DLTensor x = tt(buf, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input(m, 0, &x), MC_OK);
  arena_aligned = 0;
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_int_eq(arena_aligned, 1);
  mc_model_destroy(m);

  /* element counts whose byte size overflows int64 / size_t, or exceeds PTRDIFF_MAX */
  static const mc_io_desc big_in[][1] = {
      {{"x", 0, 2, {(int64_t)1 << 40, (int64_t)1 << 40}, {0}, 0}}, /* 2^80 elements */
      {{"x", 0, 2, {INT64_MAX, 2}, {0}, 0}},
      {{"x", 0, 1, {INT64_MAX}, {0}, 0}},            /* * 4 bytes overflows */
      {{"x", 1, 1, {(int64_t)1 << 61}, {0}, 0}},      /* 2^64 bytes of float64 */
      {{"x", 0, 3, {3, (int64_t)1 << 31, (int64_t)1 << 31}, {0}, 0}},
  };
  for (size_t k = 0; k < sizeof big_in / sizeof big_in[0]; k++) {
    mc_model_def b = identity_def;
    b.inputs = big_in[k];
    ck_assert_msg(mc_model_new(&b) == NULL, "big input %d accepted", (int)k);
    b.inputs = identity_in;
    b.outputs = big_in[k];
    ck_assert_msg(mc_model_new(&b) == NULL, "big output %d accepted", (int)k);
  }
  /* an empty tensor may have huge extents elsewhere: 0 x 2^62 has no element */
  static const mc_io_desc empty_in[] = {{"x", 0, 2, {0, (int64_t)1 << 62}, {0}, 0}};
  mc_model_def e = identity_def;
  e.inputs = empty_in;
  e.outputs = empty_in;
  m = mc_model_new(&e);
  ck_assert_ptr_nonnull(m);
  mc_model_destroy(m);
  /* an output whose strides reach past the address space */
  static const mc_io_desc wild_out[] = {{"y", 0, 2, {2, 3}, {INT64_MAX / 2, 1}, 0}};
  mc_model_def w = identity_def;
  w.outputs = wild_out;
  ck_assert_ptr_null(mc_model_new(&w));
  static const mc_io_desc min_out[] = {{"y", 0, 2, {2, 3}, {INT64_MIN, 1}, 0}};
  w.outputs = min_out;
  ck_assert_ptr_null(mc_model_new(&w));
}
END_TEST

START_TEST(output_dlpack_outlives_model_and_inputs) {
  mc_model *m = mc_model_new(&pair_def);
  float *x = malloc(4 * sizeof *x);
  ck_assert_ptr_nonnull(x);
  for (int k = 0; k < 4; k++) x[k] = (float)k;
  int64_t shape[2] = {2, 2};
  DLTensor tx = tt(x, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &tx), MC_OK);
  ck_assert_ptr_null(mc_get_output_dlpack(m, 0)); /* before any run */
  ck_assert_int_eq(mc_run(m), MC_OK);
  DLManagedTensor *o0 = mc_get_output_dlpack(m, 0), *o1 = mc_get_output_dlpack(m, 1);
  ck_assert_ptr_nonnull(o0);
  ck_assert_ptr_nonnull(o1);
  mc_model_destroy(m);
  memset(x, 0, 4 * sizeof *x);
  free(x);
  ck_assert_int_eq(o0->dl_tensor.device.device_type, kDLCPU);
  ck_assert_int_eq(o0->dl_tensor.dtype.code, kDLFloat);
  ck_assert_int_eq(o0->dl_tensor.dtype.bits, 32);
  ck_assert_int_eq(o0->dl_tensor.ndim, 2);
  ck_assert_int_eq(o0->dl_tensor.shape[0], 2);
  ck_assert_int_eq(o0->dl_tensor.shape[1], 2);
  ck_assert_int_eq(o0->dl_tensor.byte_offset, 0);
  ck_assert_int_eq((uintptr_t)o0->dl_tensor.data % 64, 0);
  for (int k = 0; k < 4; k++) {
    ck_assert_float_eq(((float *)o0->dl_tensor.data)[k], (float)k);
    ck_assert_float_eq(((float *)o1->dl_tensor.data)[k], (float)k + 1);
  }
  o0->deleter(o0);
  o1->deleter(o1);
}
END_TEST

/* ---- validation: every refused call returns its code and changes nothing -------------------- */

enum { VIA_COPY, VIA_ZERO_COPY, VIA_DLPACK, VIA_COUNT };

typedef struct bad_case {
  const char *what;
  int code;
  int via_mask; /* which entry points refuse it (others accept) */
} bad_case;

static const bad_case bad_cases[] = {
    {"dtype f64", MC_EDTYPE, 7},
    {"lanes 2", MC_EDTYPE, 7},
    {"ndim 1", MC_ESHAPE, 7},
    {"extent", MC_ESHAPE, 7},
    {"transposed strides", MC_ESTRIDE, 7},
    {"padded rows", MC_ESTRIDE, 7},
    {"device CUDA", MC_EDEVICE, 7},
    {"NULL data", MC_EINVAL, 7},
    {"NULL shape", MC_EINVAL, 7},
    {"NULL tensor", MC_EINVAL, 7},
    {"index -1", MC_EINVAL, 7},
    {"index 1", MC_EINVAL, 7},
    {"NULL model", MC_EINVAL, 7},
    {"misaligned", MC_EINVAL, 6},
    {"size-1 dim any stride", MC_OK, 0},
    {"byte_offset", MC_OK, 0},
};
#define NUM_BAD_CASES ((int)(sizeof bad_cases / sizeof bad_cases[0]))

/* validation model: (x: f32[2,1,3]) -> x. The good binding is x = {1..6}; the refused one is
 * built from {90..97}. */
static const mc_io_desc valid_in[] = {{"x", 0, 3, {2, 1, 3}, {0}, 0}};
static const mc_io_desc valid_out[] = {{"out0", 0, 3, {2, 1, 3}, {3, 3, 1}, 0}};
static const mc_model_def valid_def = {"valid", 1, 1, valid_in, valid_out, 0, run_identity};

START_TEST(validation_refuses_and_changes_nothing) {
  const bad_case *bc = &bad_cases[_i / VIA_COUNT];
  int via = _i % VIA_COUNT;
  int refused = (bc->via_mask >> via) & 1;
  mc_model *m = mc_model_new(&valid_def);
  float good[6] = {1, 2, 3, 4, 5, 6}, bad[8] = {90, 91, 92, 93, 94, 95, 96, 97}, bad0[8];
  memcpy(bad0, bad, sizeof bad);
  int64_t shape[3] = {2, 1, 3};
  DLTensor tg = tt(good, F32, 3, shape, NULL);
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &tg), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);

  int64_t bshape[3] = {2, 1, 3}, bstrides[3] = {3, 3, 1};
  DLTensor tb = tt(bad, F32, 3, bshape, NULL);
  const DLTensor *arg = &tb;
  mc_model *target = m;
  int idx = 0;
  const char *expect = (const char *)bad;
  switch (_i / VIA_COUNT) {
  case 0: tb.dtype = F64; break;
  case 1: tb.dtype.lanes = 2; break;
  case 2: tb.ndim = 2; bshape[1] = 3; break;
  case 3: bshape[2] = 4; break;
  case 4: tb.strides = bstrides; bstrides[0] = 1; bstrides[2] = 2; break;
  case 5: tb.strides = bstrides; bstrides[0] = 4; break;
  case 6: tb.device.device_type = kDLCUDA; break;
  case 7: tb.data = NULL; break;
  case 8: tb.shape = NULL; break;
  case 9: arg = NULL; break;
  case 10: idx = -1; break;
  case 11: idx = 1; break;
  case 12: target = NULL; break;
  case 13: tb.data = (char *)bad + 1; expect = (const char *)bad + 1; break;
  case 14: tb.strides = bstrides; bstrides[1] = 12345; break;
  case 15: tb.byte_offset = 2 * sizeof(float); expect = (const char *)(bad + 2); break;
  }

  int count = 0, rc;
  if (via == VIA_COPY) {
    rc = mc_set_input(target, idx, arg);
  } else if (via == VIA_ZERO_COPY) {
    rc = mc_set_input_zero_copy(target, idx, (DLTensor *)arg);
  } else {
    DLManagedTensor *t = NULL;
    if (arg) {
      t = test_dl_new(1, 1, 0, 0, &count);
      t->dl_tensor = *arg; /* the tensor's own buffer stays owned by the test_dl */
    }
    rc = mc_set_input_dlpack(target, idx, t);
    if (arg && refused) ck_assert_int_eq(count, 1);
    if (arg && !refused) ck_assert_int_eq(count, 0);
  }
  ck_assert_msg(rc == (refused ? bc->code : MC_OK), "%s via %d: rc %d (%s)", bc->what, via, rc,
                mc_last_error(target));
  ck_assert_mem_eq(bad, bad0, sizeof bad);
  if (refused) {
    ck_assert_str_ne(mc_last_error(target), "");
    if (target && idx == 0 && bc->code != MC_EINVAL)
      ck_assert_ptr_nonnull(strstr(mc_last_error(m), "input 0 'x'"));
    /* nothing changed: the outputs of the last run stand and the good binding is still read */
    ck_assert_ptr_nonnull(mc_get_output(m, 0));
    good[0] = 7;
    ck_assert_int_eq(mc_run(m), MC_OK);
    ck_assert_ptr_eq(mc_get_output(m, 0)->data, good);
  } else {
    ck_assert_str_eq(mc_last_error(m), "");
    ck_assert_ptr_null(mc_get_output(m, 0));
    ck_assert_int_eq(mc_run(m), MC_OK);
    float got[6];
    DLTensor dst = tt(got, F32, 3, shape, NULL);
    ck_assert_int_eq(mc_copy_output(m, 0, &dst), MC_OK);
    ck_assert_mem_eq(got, expect, sizeof got);
  }
  mc_model_destroy(m);
  if (via == VIA_DLPACK && arg && !refused) ck_assert_int_eq(count, 1);
}
END_TEST

START_TEST(copy_output_and_input_validate_dst) {
  mc_model *m = mc_model_new(&sgd_def);
  float w[4] = {1, 2, 3, 4}, g[4] = {2, 2, 2, 2};
  double dd[4] = {-1, -1, -1, -1};
  float small[3] = {-1, -1, -1};
  int64_t shape[1] = {4}, shape3[1] = {3};
  DLTensor tw = tt(w, F32, 1, shape, NULL), tg = tt(g, F32, 1, shape, NULL);
  DLTensor d64 = tt(dd, F64, 1, shape, NULL), d3 = tt(small, F32, 1, shape3, NULL);
  ck_assert_int_eq(mc_copy_input(m, 0, &d64), MC_EUNBOUND);
  ck_assert_int_eq(mc_copy_output(m, 0, &d64), MC_EINVAL); /* no run yet */
  ck_assert_int_eq(mc_set_input(m, 0, &tw), MC_OK);
  ck_assert_int_eq(mc_set_input(m, 1, &tg), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_int_eq(mc_copy_output(m, 0, &d64), MC_EDTYPE);
  ck_assert_int_eq(mc_copy_output(m, 0, &d3), MC_ESHAPE);
  ck_assert_int_eq(mc_copy_output(m, 1, &d3), MC_EINVAL);
  ck_assert_int_eq(mc_copy_output(m, 0, NULL), MC_EINVAL);
  ck_assert_int_eq(mc_copy_input(m, 0, &d64), MC_EDTYPE);
  ck_assert_int_eq(mc_copy_input(m, 0, &d3), MC_ESHAPE);
  ck_assert_int_eq(mc_copy_input(m, 5, &d3), MC_EINVAL);
  for (int k = 0; k < 4; k++) ck_assert_double_eq(dd[k], -1);
  for (int k = 0; k < 3; k++) ck_assert_float_eq(small[k], -1);
  ck_assert_ptr_null(mc_get_output(m, 1));
  ck_assert_ptr_null(mc_get_output(m, -1));
  ck_assert_ptr_null(mc_get_output_dlpack(m, 1));
  mc_model_destroy(m);
}
END_TEST

START_TEST(run_before_binding_is_unbound) {
  mc_model *m = mc_model_new(&sgd_def);
  ck_assert_int_eq(mc_run(m), MC_EUNBOUND);
  ck_assert_ptr_nonnull(strstr(mc_last_error(m), "input 0 'w'"));
  float g[4] = {0};
  int64_t shape[1] = {4};
  DLTensor tg = tt(g, F32, 1, shape, NULL);
  ck_assert_int_eq(mc_set_input(m, 1, &tg), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_EUNBOUND);
  ck_assert_ptr_nonnull(strstr(mc_last_error(m), "input 0 'w'"));
  ck_assert_ptr_null(mc_get_output(m, 0));
  mc_model_destroy(m);
}
END_TEST

START_TEST(run_error_is_reported) {
  mc_model *m = mc_model_new(&fail_def);
  float x[6] = {0};
  int64_t shape[2] = {2, 3};
  DLTensor tx = tt(x, F32, 2, shape, NULL);
  ck_assert_int_eq(mc_set_input(m, 0, &tx), MC_OK);
  ck_assert_int_eq(mc_run(m), MC_ERUN);
  ck_assert_ptr_nonnull(strstr(mc_last_error(m), "aten::index: index 7 is out of bounds"));
  ck_assert_ptr_nonnull(strstr(mc_last_error(m), "'fail'"));
  ck_assert_ptr_null(mc_get_output(m, 0));
  mc_model_destroy(m);
}
END_TEST

/* ---- introspection, dtypes, odd shapes ----------------------------------------------------- */

START_TEST(info_and_null_model) {
  mc_model *m = mc_model_new(&sgd_def);
  ck_assert_int_eq(mc_num_inputs(m), 2);
  ck_assert_int_eq(mc_num_outputs(m), 1);
  ck_assert_str_eq(mc_input_name(m, 1), "g");
  ck_assert_ptr_null(mc_input_name(m, 2));
  /* names: lookup both ways */
  ck_assert_str_eq(mc_output_name(m, 0), "w_new");
  ck_assert_ptr_null(mc_output_name(m, 1));
  ck_assert_ptr_nonnull(strstr(mc_last_error(m), "output index 1 out of range"));
  ck_assert_ptr_null(mc_output_name(NULL, 0));
  ck_assert_int_eq(mc_find_input(m, "g"), 1);
  ck_assert_str_eq(mc_last_error(m), "");
  ck_assert_int_eq(mc_find_input(m, "w"), 0);
  ck_assert_int_eq(mc_find_output(m, "w_new"), 0);
  ck_assert_int_eq(mc_find_input(m, "w_new"), MC_EINVAL);
  ck_assert_ptr_nonnull(strstr(mc_last_error(m), "no input named 'w_new'"));
  ck_assert_int_eq(mc_find_output(m, "g"), MC_EINVAL);
  ck_assert_int_eq(mc_find_output(m, NULL), MC_EINVAL);
  ck_assert_int_eq(mc_find_input(NULL, "g"), MC_EINVAL);
  ck_assert_str_ne(mc_last_error(m), "");
  const DLTensor *i0 = mc_input_info(m, 0);
  ck_assert_str_eq(mc_last_error(m), "");
  ck_assert_ptr_null(i0->data);
  ck_assert_ptr_null(i0->strides);
  ck_assert_int_eq(i0->ndim, 1);
  ck_assert_int_eq(i0->shape[0], 4);
  ck_assert_int_eq(i0->dtype.code, kDLFloat);
  ck_assert_int_eq(i0->dtype.bits, 32);
  ck_assert_int_eq(i0->dtype.lanes, 1);
  ck_assert_int_eq(i0->device.device_type, kDLCPU);
  const DLTensor *o0 = mc_output_info(m, 0);
  ck_assert_ptr_null(o0->data);
  ck_assert_ptr_null(o0->strides);
  ck_assert_int_eq(o0->shape[0], 4);
  ck_assert_ptr_null(mc_input_info(m, 2));
  ck_assert_ptr_null(mc_output_info(m, 1));
  ck_assert_int_eq(mc_input_is_mutated(m, 9), MC_EINVAL);
  mc_model_destroy(m);

  mc_model_destroy(NULL);
  ck_assert_ptr_nonnull(mc_last_error(NULL));
  ck_assert_str_ne(mc_last_error(NULL), "");
  ck_assert_int_lt(mc_num_inputs(NULL), 0);
  ck_assert_int_eq(mc_run(NULL), MC_EINVAL);
  ck_assert_ptr_null(mc_get_output(NULL, 0));
  ck_assert_ptr_null(mc_get_output_dlpack(NULL, 0));
  ck_assert_ptr_null(mc_input_info(NULL, 0));
  ck_assert_ptr_null(mc_model_new(NULL));
}
END_TEST

START_TEST(dtypes_bool_scalar_empty) {
  mc_model *m = mc_model_new(&dtypes_def);
  uint8_t b[3] = {1, 0, 1}, u[3] = {4, 5, 6};
  int64_t s = 42, n3[1] = {3}, empty_shape[2] = {0, 2}, odd[2] = {77, 1};
  DLTensor tb = tt(b, U8, 1, n3, NULL), tu = tt(u, U8, 1, n3, NULL);
  DLTensor ts = tt(&s, I64, 0, NULL, NULL), te = tt(NULL, F32, 2, empty_shape, odd);
  /* bool accepts uint8 (PyTorch 1.13's export) and kDLBool (code 6, DLPack >= 0.8) */
  ck_assert_int_eq(mc_set_input_zero_copy(m, 0, &tb), MC_OK);
  tb.dtype.code = 6;
  ck_assert_int_eq(mc_set_input(m, 0, &tb), MC_OK);
  tb.dtype.bits = 1;
  ck_assert_int_eq(mc_set_input(m, 0, &tb), MC_EDTYPE);
  /* uint8 does not accept kDLBool */
  tu.dtype.code = 6;
  ck_assert_int_eq(mc_set_input(m, 1, &tu), MC_EDTYPE);
  tu.dtype = U8;
  ck_assert_int_eq(mc_set_input(m, 1, &tu), MC_OK);
  ck_assert_int_eq(mc_set_input(m, 2, &ts), MC_OK);        /* 0-dim, NULL shape */
  ck_assert_int_eq(mc_set_input_zero_copy(m, 3, &te), MC_OK); /* no element: NULL data */
  ck_assert_int_eq(mc_run(m), MC_OK);
  ck_assert_int_eq(mc_output_info(m, 0)->dtype.bits, 8);
  uint8_t got[3] = {9, 9, 9};
  DLTensor dst = tt(got, U8, 1, n3, NULL);
  ck_assert_int_eq(mc_copy_output(m, 0, &dst), MC_OK);
  ck_assert_mem_eq(got, b, 3);
  int64_t s2 = 0;
  DLTensor ds = tt(&s2, I64, 0, NULL, NULL);
  ck_assert_int_eq(mc_copy_input(m, 2, &ds), MC_OK);
  ck_assert_int_eq(s2, 42);
  mc_model_destroy(m);
}
END_TEST

static Suite *runtime_suite(void) {
  Suite *s = suite_create("runtime");
  TCase *tc = tcase_create("seed000");
  tcase_add_test(tc, identity_zero_copy_reads_caller_buffer);
  tcase_add_test(tc, num_threads_reach_run_only_during_mc_run);
  tcase_add_test(tc, pair_zero_copy_output_is_current_input);
  tcase_add_test(tc, reshape_zero_copy_outputs_read_caller_buffer);
  tcase_add_test(tc, sgd_zero_copy_updates_caller_buffer);
  tcase_add_test(tc, sgd_copy_updates_model_copy);
  tcase_add_test(tc, copy_after_zero_copy_never_writes_old_buffer);
  tcase_add_test(tc, transposed_view_output);
  suite_add_tcase(s, tc);
  tc = tcase_create("seed004");
  tcase_add_test(tc, dlpack_deleter_once_on_replace_and_destroy);
  tcase_add_test(tc, dlpack_refused_calls_deleter_once);
  tcase_add_test(tc, output_dlpack_outlives_model_and_inputs);
  tcase_add_test(tc, dlpack_owned_tensor_deleted_once_on_every_path);
  tcase_add_test(tc, dlpack_replaced_by_refused_call_keeps_binding);
  tcase_add_test(tc, dlpack_deleter_reentering_runs_once);
  tcase_add_test(tc, sizes_overflow_refused_at_create);
  suite_add_tcase(s, tc);
  tc = tcase_create("validation");
  tcase_add_loop_test(tc, validation_refuses_and_changes_nothing, 0, NUM_BAD_CASES * VIA_COUNT);
  tcase_add_test(tc, copy_output_and_input_validate_dst);
  tcase_add_test(tc, run_before_binding_is_unbound);
  tcase_add_test(tc, run_error_is_reported);
  tcase_add_test(tc, info_and_null_model);
  tcase_add_test(tc, dtypes_bool_scalar_empty);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(runtime_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
