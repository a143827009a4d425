/* harness.c — end-to-end test driver linked with one generated model (compiled with
 * --name model). Usage:
 *   harness MODE OUTDIR IN0.bin IN1.bin ...
 * MODE is "copy" (mc_set_input), "zerocopy" (mc_set_input_zero_copy on the harness's buffers)
 * or "dlpack" (mc_set_input_dlpack). Inputs are raw little-endian data in the shapes the
 * model expects (mc_input_info), swapped to the machine's byte order on a big-endian target. Writes OUTDIR/output_K.bin for each output and
 * OUTDIR/input_K.bin with the final value of each input (to compare in-place updates), and
 * OUTDIR/shapes.txt ("output K dtype d0 d1 ..."). Runs the model twice to check that a second
 * run with rebound inputs gives the same answer. MC_E2E_THREADS=N in the environment runs the
 * model with mc_set_num_threads(m, N). */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t dtype_bytes(DLDataType t) { return (size_t)(t.bits / 8) * t.lanes; }

static size_t numel(const DLTensor *t) {
  size_t n = 1;
  for (int i = 0; i < t->ndim; i++) n *= (size_t)t->shape[i];
  return n;
}

/* The .bin files are little-endian: on a big-endian machine each element of es bytes is swapped
 * after reading and before writing. */
static void swap_le(void *p, size_t n, size_t es) {
  const unsigned short one = 1;
  if (*(const unsigned char *)&one || es < 2) return;
  unsigned char *b = p;
  for (size_t i = 0; i + es <= n; i += es)
    for (size_t k = 0; k < es / 2; k++) {
      unsigned char t = b[i + k];
      b[i + k] = b[i + es - 1 - k];
      b[i + es - 1 - k] = t;
    }
}

static void *read_file(const char *path, size_t want) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "harness: cannot open %s\n", path);
    exit(3);
  }
  void *p = malloc(want ? want : 1);
  if (fread(p, 1, want, f) != want) {
    fprintf(stderr, "harness: %s is shorter than %zu bytes\n", path, want);
    exit(3);
  }
  fclose(f);
  return p;
}

static void write_file(const char *dir, const char *kind, int k, void *p, size_t n, size_t es) {
  char path[4096];
  swap_le(p, n, es);
  snprintf(path, sizeof path, "%s/%s_%d.bin", dir, kind, k);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n) {
    fprintf(stderr, "harness: cannot write %s\n", path);
    exit(3);
  }
  fclose(f);
  swap_le(p, n, es); /* back to the machine's order: the caller may still read p */
}

static int ndeleted;
static void deleter(DLManagedTensor *t) {
  ndeleted++;
  free(t->dl_tensor.data);
  free(t->dl_tensor.shape);
  free(t);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: harness copy|zerocopy|dlpack OUTDIR IN.bin...\n");
    return 2;
  }
  const char *mode = argv[1], *dir = argv[2];
  mc_model *m = model_create();
  if (!m) return 3;
  int nin = mc_num_inputs(m), nout = mc_num_outputs(m);
  const char *nt = getenv("MC_E2E_THREADS");
  if (nt && mc_set_num_threads(m, atoi(nt))) {
    fprintf(stderr, "harness: mc_set_num_threads(%s): %s\n", nt, mc_last_error(m));
    return 4;
  }
  if (argc - 3 != nin) {
    fprintf(stderr, "harness: model has %d inputs, %d files given\n", nin, argc - 3);
    return 2;
  }
  void **bufs = calloc((size_t)nin + 1, sizeof *bufs);
  DLTensor *ts = calloc((size_t)nin + 1, sizeof *ts);
  for (int i = 0; i < nin; i++) {
    const DLTensor *info = mc_input_info(m, i);
    size_t bytes = numel(info) * dtype_bytes(info->dtype);
    bufs[i] = read_file(argv[3 + i], bytes);
    swap_le(bufs[i], bytes, dtype_bytes(info->dtype));
    ts[i] = *info;
    ts[i].data = bufs[i];
    ts[i].strides = NULL;
    ts[i].byte_offset = 0;
    ts[i].device.device_type = kDLCPU;
    int rc;
    if (!strcmp(mode, "copy")) {
      rc = mc_set_input(m, i, &ts[i]);
    } else if (!strcmp(mode, "zerocopy")) {
      rc = mc_set_input_zero_copy(m, i, &ts[i]);
    } else {
      DLManagedTensor *mt = calloc(1, sizeof *mt);
      mt->dl_tensor = ts[i];
      mt->dl_tensor.data = malloc(bytes ? bytes : 1);
      memcpy(mt->dl_tensor.data, bufs[i], bytes);
      mt->dl_tensor.shape = malloc(sizeof(int64_t) * (size_t)(info->ndim + 1));
      memcpy(mt->dl_tensor.shape, info->shape, sizeof(int64_t) * (size_t)info->ndim);
      mt->deleter = deleter;
      free(bufs[i]);
      bufs[i] = mt->dl_tensor.data; /* final values are read from here */
      rc = mc_set_input_dlpack(m, i, mt);
    }
    if (rc) {
      fprintf(stderr, "harness: set_input %d: %s\n", i, mc_last_error(m));
      return 4;
    }
  }
  if (mc_run(m)) {
    fprintf(stderr, "harness: run: %s\n", mc_last_error(m));
    return 5;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/shapes.txt", dir);
  FILE *sf = fopen(path, "w");
  for (int k = 0; k < nout; k++) {
    const DLTensor *o = mc_get_output(m, k);
    if (!o) {
      fprintf(stderr, "harness: get_output %d: %s\n", k, mc_last_error(m));
      return 6;
    }
    size_t bytes = numel(o) * dtype_bytes(o->dtype);
    DLTensor dst = *o;
    dst.data = malloc(bytes ? bytes : 1);
    dst.strides = NULL;
    dst.byte_offset = 0;
    if (mc_copy_output(m, k, &dst)) {
      fprintf(stderr, "harness: copy_output %d: %s\n", k, mc_last_error(m));
      return 6;
    }
    write_file(dir, "output", k, dst.data, bytes, dtype_bytes(o->dtype));
    fprintf(sf, "output %d %d:%d", k, o->dtype.code, o->dtype.bits);
    for (int d = 0; d < o->ndim; d++) fprintf(sf, " %lld", (long long)o->shape[d]);
    fputc('\n', sf);
    free(dst.data);
  }
  fclose(sf);
  for (int i = 0; i < nin; i++) {
    const DLTensor *info = mc_input_info(m, i);
    size_t bytes = numel(info) * dtype_bytes(info->dtype);
    if (!strcmp(mode, "copy")) {
      DLTensor dst = *info;
      dst.data = malloc(bytes ? bytes : 1);
      dst.strides = NULL;
      dst.byte_offset = 0;
      if (mc_copy_input(m, i, &dst)) {
        fprintf(stderr, "harness: copy_input %d: %s\n", i, mc_last_error(m));
        return 7;
      }
      write_file(dir, "input", i, dst.data, bytes, dtype_bytes(info->dtype));
      free(dst.data);
    } else {
      write_file(dir, "input", i, bufs[i], bytes, dtype_bytes(info->dtype));
    }
  }
  mc_model_destroy(m);
  if (!strcmp(mode, "dlpack") && ndeleted != nin) {
    fprintf(stderr, "harness: %d DLPack deleters ran for %d inputs\n", ndeleted, nin);
    return 8;
  }
  for (int i = 0; i < nin; i++)
    if (strcmp(mode, "dlpack")) free(bufs[i]);
  free(bufs);
  free(ts);
  return 0;
}
