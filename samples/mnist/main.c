/* mnist: classifies one 28x28 image (a ring, built here exactly as model.py builds it) and
 * prints the 10 logits and the arg-max class (expected.txt, from PyTorch; random weights). */
#include "model.h"

#include <stdio.h>

int main(void) {
  static float img[28][28];
  for (int i = 0; i < 28; i++)
    for (int j = 0; j < 28; j++) {
      double r2 = (i - 13.5) * (i - 13.5) + (j - 13.5) * (j - 13.5);
      img[i][j] = r2 >= 36 && r2 <= 100 ? 1.0f : 0.0f;
    }
  int64_t shape[4] = {1, 1, 28, 28};
  DLTensor t = {img, {kDLCPU, 0}, 4, {kDLFloat, 32, 1}, shape, NULL, 0};
  mc_model *m = model_create();
  if (!m || mc_set_input_zero_copy(m, 0, &t) || mc_run(m)) {
    fprintf(stderr, "mnist: %s\n", m ? mc_last_error(m) : "out of memory");
    mc_model_destroy(m);
    return 1;
  }
  const float *logits = mc_get_output(m, 0)->data;
  int best = 0;
  printf("logits");
  for (int k = 0; k < 10; k++) {
    printf(" %.6f", logits[k]);
    if (logits[k] > logits[best]) best = k;
  }
  printf("\nclass %d\n", best);
  mc_model_destroy(m);
  return 0;
}
