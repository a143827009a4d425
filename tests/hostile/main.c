/* A caller for the models of tests/hostile/run.sh: MC_CREATE (the model's NAME_create, -D) with
 * one float32 input of NX x NY elements, all equal to argv[1] (default 0). Prints "ok" and the
 * first output element, or the error mc_run or NAME_create reported; exit 0 / 1. */
#include "mc_runtime.h"

#include <stdio.h>
#include <stdlib.h>

mc_model *MC_CREATE(void);

int main(int argc, char **argv) {
  static float x[NX * NY];
  float v = argc > 1 ? (float)atof(argv[1]) : 0.0f;
  for (int i = 0; i < NX * NY; i++) x[i] = v;
  int64_t shape[2] = {NX, NY};
  DLTensor t = {x, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, NULL, 0};
  mc_model *m = MC_CREATE();
  if (!m) {
    printf("create failed\n");
    return 1;
  }
  if (mc_set_input_zero_copy(m, 0, &t) || mc_run(m)) {
    printf("error: %s\n", mc_last_error(m));
    mc_model_destroy(m);
    return 1;
  }
  const DLTensor *y = mc_get_output(m, 0);
  printf("ok %g\n", y ? (double)((const float *)y->data)[0] : -1.0);
  mc_model_destroy(m);
  return 0;
}
