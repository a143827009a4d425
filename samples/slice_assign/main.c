/* slice_assign: binds x zero-copy, runs the model once, prints the row sums the model returns
 * and then the caller's own x, which must carry all three writes (expected.txt, from PyTorch). */
#include "model.h"

#include <stdio.h>

enum { R = 4, C = 6 };

int main(void) {
  float x[R][C], y[3] = {-1, -2, -3};
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) x[i][j] = (float)(i * C + j);
  int64_t sx[2] = {R, C}, sy[1] = {3};
  DLTensor tx = {x, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, sx, NULL, 0};
  DLTensor ty = {y, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, sy, NULL, 0};
  mc_model *m = model_create();
  if (!m || mc_set_input_zero_copy(m, 0, &tx) || mc_set_input(m, 1, &ty) || mc_run(m)) {
    fprintf(stderr, "slice_assign: %s\n", m ? mc_last_error(m) : "out of memory");
    mc_model_destroy(m);
    return 1;
  }
  const DLTensor *s = mc_get_output(m, 0);
  printf("sum");
  for (int i = 0; i < R; i++) printf(" %g", ((const float *)s->data)[i]);
  printf("\n");
  for (int i = 0; i < R; i++) {
    printf("x[%d]", i);
    for (int j = 0; j < C; j++) printf(" %g", x[i][j]);
    printf("\n");
  }
  mc_model_destroy(m);
  return 0;
}
