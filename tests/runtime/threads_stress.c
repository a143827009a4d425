/* threads_stress.c — one process runs a compiled model many times while its thread count
 * changes between runs (1..5, so the pool grows while jobs of every size come and go) and
 * requires every output to be bitwise equal to the first run's. Built by tests/runtime/threads.sh
 * with the model of an e2e case. Usage: threads_stress IN0.bin RUNS */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t numel(const DLTensor *t) {
  size_t n = 1;
  for (int i = 0; i < t->ndim; i++) n *= (size_t)t->shape[i];
  return n;
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  mc_model *m = model_create();
  if (!m) return 2;
  DLTensor t = *mc_input_info(m, 0);
  size_t n = numel(&t);
  float *x = malloc(n * sizeof *x);
  FILE *f = fopen(argv[1], "rb");
  if (!x || !f || fread(x, sizeof *x, n, f) != n) return 2;
  fclose(f);
  t.data = x;
  t.strides = NULL;
  t.byte_offset = 0;
  if (mc_set_input(m, 0, &t)) return 3;
  int runs = atoi(argv[2]), rc = 0;
  float *ref = NULL;
  size_t on = 0;
  for (int it = 0; it < runs && !rc; it++) {
    int nt = 1 + (it * 7) % 5;
    if (mc_set_num_threads(m, nt) || mc_run(m)) {
      printf("run %d: %s\n", it, mc_last_error(m));
      rc = 4;
      break;
    }
    const DLTensor *y = mc_get_output(m, 0);
    if (!ref) {
      on = numel(y);
      ref = malloc(on * sizeof *ref);
      if (!ref) return 2;
      memcpy(ref, y->data, on * sizeof *ref);
    } else if (memcmp(ref, y->data, on * sizeof *ref)) {
      printf("run %d (%d threads) differs from run 0\n", it, nt);
      rc = 5;
    }
  }
  if (!rc) printf("%d runs at 1..5 threads: bitwise equal\n", runs);
  free(ref);
  free(x);
  mc_model_destroy(m);
  return rc;
}
