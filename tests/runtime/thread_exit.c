/* thread_exit.c — threads that run a compiled model and then exit leave no memory behind: the
 * kernels' per-thread scratch (kconv_scratch in compiler/ops/k_conv.h) is freed by its thread's
 * exit, so valgrind finds nothing "definitely lost". Each of THREADS threads in turn creates a
 * model, binds IN0.bin by copy, runs it twice and destroys it; one more thread runs with 2
 * threads, so the pool starts a worker (which lives on, its scratch still reachable). The
 * outputs must match the main thread's run bitwise. Built by tests/runtime/threads.sh with the
 * model of an e2e case. Usage: thread_exit IN0.bin */
#include "model.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4

static float *x, *ref;
static size_t xn, on;

static size_t numel(const DLTensor *t) {
  size_t n = 1;
  for (int i = 0; i < t->ndim; i++) n *= (size_t)t->shape[i];
  return n;
}

/* Runs a fresh model twice with nt threads; 0 when its outputs equal ref (ref NULL: sets it). */
static int run_once(int nt) {
  mc_model *m = model_create();
  if (!m) return 2;
  DLTensor t = *mc_input_info(m, 0);
  t.data = x;
  int rc = 0;
  for (int k = 0; k < 2 && !rc; k++) {
    if (mc_set_input(m, 0, &t) || mc_set_num_threads(m, nt) || mc_run(m)) {
      printf("thread run: %s\n", mc_last_error(m));
      rc = 3;
      break;
    }
    const DLTensor *y = mc_get_output(m, 0);
    if (!ref) {
      on = numel(y);
      ref = malloc(on * sizeof *ref);
      if (!ref) rc = 2;
      else memcpy(ref, y->data, on * sizeof *ref);
    } else if (numel(y) != on || memcmp(ref, y->data, on * sizeof *ref)) {
      printf("a run at %d threads differs from the main thread's\n", nt);
      rc = 4;
    }
  }
  mc_model_destroy(m);
  return rc;
}

static void *thread_main(void *arg) { return (void *)(intptr_t)run_once((int)(intptr_t)arg); }

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  mc_model *probe = model_create();
  if (!probe) return 2;
  xn = numel(mc_input_info(probe, 0));
  mc_model_destroy(probe);
  x = malloc(xn * sizeof *x);
  FILE *f = fopen(argv[1], "rb");
  if (!x || !f || fread(x, sizeof *x, xn, f) != xn) return 2;
  fclose(f);
  int rc = run_once(1);
  for (int k = 0; k <= THREADS && !rc; k++) {
    pthread_t th;
    void *res;
    if (pthread_create(&th, NULL, thread_main, (void *)(intptr_t)(k == THREADS ? 2 : 1))) return 2;
    pthread_join(th, &res);
    rc = (int)(intptr_t)res;
  }
  if (!rc) printf("%d threads ran the model and exited: outputs bitwise equal\n", THREADS + 1);
  free(ref);
  free(x);
  return rc;
}
