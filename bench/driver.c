/* driver.c — timing driver linked with one generated model (compiled with --name model).
 * Usage: driver IN0.bin[:D0xD1x...] [IN1.bin ...]   then commands on stdin, one a line
 * (`:D0xD1...`: bind the input at those extents, a model with dynamic shapes; else at
 * mc_input_info's):
 *   run N    runs the model N times, prints "times t1 ... tN" (microseconds, one line)
 *   rss      prints "rss KB" (peak resident set size so far: VmHWM, which unlike getrusage
 *            does not carry over the parent's peak across exec)
 *   out      prints "out x0 x1 ..." (up to 8 leading elements of output 0, for a sanity check)
 *   quit
 * A long-lived process, so that bench.py can interleave it with PyTorch in one run without
 * paying process start-up or cold caches on every batch. Inputs are bound by copy once.
 * MC_BENCH_THREADS=N in the environment: mc_set_num_threads(m, N). */
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double drv_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e6 * (double)ts.tv_sec + 1e-3 * (double)ts.tv_nsec;
}

static size_t drv_bytes(const DLTensor *t) {
  size_t n = (size_t)(t->dtype.bits / 8) * t->dtype.lanes;
  for (int i = 0; i < t->ndim; i++) n *= (size_t)t->shape[i];
  return n;
}

int main(int argc, char **argv) {
  mc_model *m = model_create();
  if (!m) return 3;
  const char *nt = getenv("MC_BENCH_THREADS");
  if (nt && mc_set_num_threads(m, atoi(nt))) {
    fprintf(stderr, "driver: %s\n", mc_last_error(m));
    return 2;
  }
  int nin = mc_num_inputs(m);
  if (argc - 1 != nin) {
    fprintf(stderr, "driver: model has %d inputs, %d files given\n", nin, argc - 1);
    return 2;
  }
  for (int i = 0; i < nin; i++) {
    DLTensor t = *mc_input_info(m, i);
    int64_t shape[16];
    char *colon = strrchr(argv[1 + i], ':');
    if (colon) { /* the extents to bind at */
      *colon = '\0';
      int nd = 0;
      for (char *s = colon + 1; *s && nd < 16; s += *s == 'x') shape[nd++] = strtoll(s, &s, 10);
      if (nd != t.ndim) {
        fprintf(stderr, "driver: input %d takes %d extents, %d given\n", i, t.ndim, nd);
        return 2;
      }
      t.shape = shape;
    }
    size_t n = drv_bytes(&t);
    void *p = malloc(n ? n : 1);
    FILE *f = fopen(argv[1 + i], "rb");
    if (!f || fread(p, 1, n, f) != n) {
      fprintf(stderr, "driver: cannot read %zu bytes from %s\n", n, argv[1 + i]);
      return 3;
    }
    fclose(f);
    t.data = p;
    t.strides = NULL;
    t.byte_offset = 0;
    if (mc_set_input(m, i, &t)) {
      fprintf(stderr, "driver: set_input %d: %s\n", i, mc_last_error(m));
      return 4;
    }
    free(p);
  }
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    long n = 0;
    if (sscanf(line, "run %ld", &n) == 1) {
      fputs("times", stdout);
      for (long k = 0; k < n; k++) {
        double t0 = drv_now_us();
        if (mc_run(m)) {
          fprintf(stderr, "driver: run: %s\n", mc_last_error(m));
          return 5;
        }
        printf(" %.3f", drv_now_us() - t0);
      }
      putchar('\n');
    } else if (!strncmp(line, "rss", 3)) {
      long kb = -1;
      FILE *f = fopen("/proc/self/status", "r");
      while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld", &kb) == 1) break;
      if (f) fclose(f);
      printf("rss %ld\n", kb);
    } else if (!strncmp(line, "out", 3)) {
      const DLTensor *o = mc_get_output(m, 0);
      fputs("out", stdout);
      if (o && o->dtype.code == kDLFloat && o->dtype.bits == 32) {
        size_t k = drv_bytes(o) / 4;
        const float *f = (const float *)((const char *)o->data + o->byte_offset);
        for (size_t i = 0; i < k && i < 8; i++) printf(" %.6g", f[i]);
      }
      putchar('\n');
    } else if (!strncmp(line, "quit", 4)) {
      break;
    }
    fflush(stdout);
  }
  mc_model_destroy(m);
  return 0;
}
