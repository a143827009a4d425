/* The seed_slice sample: runs the compiled model on a 10x10 matrix of zeros bound zero-copy,
 * and prints it: the top-left 5x5 block must read 1 — in the caller's own buffer. */
#include "model.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  float x[10][10] = {{0}};
  int64_t shape[2] = {10, 10};
  DLTensor t = {x, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, NULL, 0};
  mc_model *m = model_create();
  if (!m || mc_set_input_zero_copy(m, 0, &t) || mc_run(m)) {
    fprintf(stderr, "seed_slice: %s\n", m ? mc_last_error(m) : "out of memory");
    return 1;
  }
  const DLTensor *y = mc_get_output(m, 0);
  int same = y && memcmp(y->data, x, sizeof x) == 0;
  printf("the caller's buffer after mc_run (output 0 %s it):\n", same ? "equals" : "DIFFERS FROM");
  for (int i = 0; i < 10; i++) {
    for (int j = 0; j < 10; j++) printf(" %g", x[i][j]);
    printf("\n");
  }
  mc_model_destroy(m);
  return 0;
}
