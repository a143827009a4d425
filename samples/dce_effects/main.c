/* dce_effects: runs the model once with `state` bound zero-copy and prints the returned z and
 * the caller's state: z's first row must be zeroed and state must have x added, although the
 * graph uses neither write's result (expected.txt, from PyTorch). */
#include "model.h"

#include <stdio.h>

static void print_rows(const char *name, const float *p) {
  for (int i = 0; i < 2; i++) printf("%s[%d] %g %g %g\n", name, i, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
}

int main(void) {
  float x[2][3] = {{1, 2, 3}, {4, 5, 6}}, state[2][3];
  for (int i = 0; i < 6; i++) state[i / 3][i % 3] = 10;
  int64_t shape[2] = {2, 3};
  DLTensor tx = {x, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, NULL, 0};
  DLTensor ts = {state, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, NULL, 0};
  mc_model *m = model_create();
  if (!m || mc_set_input(m, 0, &tx) || mc_set_input_zero_copy(m, 1, &ts) || mc_run(m)) {
    fprintf(stderr, "dce_effects: %s\n", m ? mc_last_error(m) : "out of memory");
    mc_model_destroy(m);
    return 1;
  }
  print_rows("z", (const float *)mc_get_output(m, 0)->data);
  print_rows("state", &state[0][0]);
  mc_model_destroy(m);
  return 0;
}
