/* train_step: runs the compiled training step STEPS times on weights bound zero-copy. The
 * optimizer's `w.sub_(lr * g)` must land in the caller's own array `w` (no copy back), and
 * output 1 (the graph returns w itself) must read that same buffer. Prints the loss of each
 * step and the final weights, in the format of expected.txt (computed by PyTorch). */
#include "model.h"

#include <stdio.h>

enum { N = 8, D = 4, STEPS = 5 };

static int fail(mc_model *m) {
  fprintf(stderr, "train_step: %s\n", m ? mc_last_error(m) : "out of memory");
  mc_model_destroy(m);
  return 1;
}

int main(void) {
  static const float truth[D] = {1, -2, 3, 0.5f};
  float w[D][1] = {{0}}, x[N][D], y[N][1];
  for (int i = 0; i < N; i++) {
    y[i][0] = 0;
    for (int j = 0; j < D; j++) {
      x[i][j] = (float)((i * D + j) % 7 - 3) / 4.0f;
      y[i][0] += x[i][j] * truth[j];
    }
  }
  int64_t sw[2] = {D, 1}, sx[2] = {N, D}, sy[2] = {N, 1};
  DLTensor tw = {w, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, sw, NULL, 0};
  DLTensor tx = {x, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, sx, NULL, 0};
  DLTensor ty = {y, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, sy, NULL, 0};
  mc_model *m = model_create();
  if (!m || mc_set_input_zero_copy(m, 0, &tw) || mc_set_input_zero_copy(m, 1, &tx) ||
      mc_set_input_zero_copy(m, 2, &ty))
    return fail(m);
  for (int step = 0; step < STEPS; step++) {
    if (mc_run(m)) return fail(m);
    const DLTensor *loss = mc_get_output(m, 0), *wout = mc_get_output(m, 1);
    if (!loss || !wout) return fail(m);
    if (((const float *)wout->data)[D - 1] != w[D - 1][0]) {
      fprintf(stderr, "train_step: output 1 does not read the caller's weights\n");
      return 1;
    }
    printf("step %d loss %.6f\n", step, *(const float *)loss->data);
  }
  printf("w");
  for (int j = 0; j < D; j++) printf(" %.6f", w[j][0]);
  printf("\n");
  mc_model_destroy(m);
  return 0;
}
