/* emu_harness.c — runs one mc CUDA model (compiled with --name model) through the CUDA runtime
 * API for tests/cuda/emu.py; built with -DMC_CUDA_EMULATE against libmcrt_cuda_emu.a (spec 6),
 * or with nvcc against libmcrt_cuda.a on a GPU. Usage:
 *   emu_harness MODE OUTDIR IN0.bin IN1.bin ...
 * MODE "copy": mc_set_input from host memory (kDLCPU), final inputs through mc_copy_input;
 * "zerocopy": mc_set_input_zero_copy of device buffers (kDLCUDA, cudaMalloc), after checking
 * that host memory is refused (MC_EDEVICE); "dlpack": mc_set_input_dlpack of owned device
 * buffers (deleter cudaFree, which must run exactly once per input). Inputs are raw
 * little-endian data in the shapes of mc_input_info. Writes OUTDIR/output_K.bin (through
 * mc_copy_output into host memory, after checking that mc_get_output reports kDLCUDA),
 * OUTDIR/input_K.bin (final value of each input) and OUTDIR/shapes.txt ("output K code:bits d0
 * d1 ..."), as tests/e2e/harness.c does. Runs the model twice (rebinding between the runs) and
 * requires the same outputs both times. */
#include "model.h"

#ifdef MC_CUDA_EMULATE
#include "mc_cuda_emu.h"
#else
#include <cuda_runtime_api.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t dtype_bytes(DLDataType t) { return (size_t)(t.bits / 8) * t.lanes; }

static size_t numel(const DLTensor *t) {
  size_t n = 1;
  for (int i = 0; i < t->ndim; i++) n *= (size_t)t->shape[i];
  return n;
}

static void *read_file(const char *path, size_t want) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "emu_harness: cannot open %s\n", path);
    exit(3);
  }
  void *p = malloc(want ? want : 1);
  if (fread(p, 1, want, f) != want) {
    fprintf(stderr, "emu_harness: %s is shorter than %zu bytes\n", path, want);
    exit(3);
  }
  fclose(f);
  return p;
}

static void write_file(const char *dir, const char *kind, int k, const void *p, size_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s_%d.bin", dir, kind, k);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n) {
    fprintf(stderr, "emu_harness: cannot write %s\n", path);
    exit(3);
  }
  fclose(f);
}

static int ndeleted;
static void deleter(DLManagedTensor *t) {
  ndeleted++;
  cudaFree(t->dl_tensor.data);
  free(t->dl_tensor.shape);
  free(t);
}

#define FAIL(code, ...)                                                                           \
  do {                                                                                            \
    fprintf(stderr, "emu_harness: ");                                                             \
    fprintf(stderr, __VA_ARGS__);                                                                 \
    fprintf(stderr, ": %s\n", mc_last_error(m));                                                  \
    return code;                                                                                  \
  } while (0)

/* Binds input i from the host data h (bytes long) as `mode` says; dev[i] is the device buffer
 * the model reads in zerocopy and dlpack modes. */
static int bind(mc_model *m, const char *mode, int i, const void *h, size_t bytes, void **dev) {
  DLTensor t = *mc_input_info(m, i);
  t.strides = NULL;
  t.byte_offset = 0;
  if (!strcmp(mode, "copy")) {
    t.device.device_type = kDLCPU;
    t.device.device_id = 0;
    t.data = (void *)h;
    if (mc_set_input(m, i, &t)) FAIL(4, "mc_set_input %d", i);
    return 0;
  }
  void *d = NULL;
  if (cudaMalloc(&d, bytes ? bytes : 1) != cudaSuccess || cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
    FAIL(4, "cudaMalloc/cudaMemcpy for input %d", i);
  if (!strcmp(mode, "zerocopy")) {
    DLTensor host = t;
    host.device.device_type = kDLCPU;
    host.data = (void *)h;
    if (mc_set_input_zero_copy(m, i, &host) != MC_EDEVICE) FAIL(4, "zero-copy of host memory must be refused");
    t.data = d;
    if (mc_set_input_zero_copy(m, i, &t)) FAIL(4, "mc_set_input_zero_copy %d", i);
    if (dev[i]) cudaFree(dev[i]);
    dev[i] = d;
    return 0;
  }
  DLManagedTensor *mt = calloc(1, sizeof *mt);
  mt->dl_tensor = t;
  mt->dl_tensor.data = d;
  mt->dl_tensor.shape = malloc(sizeof(int64_t) * (size_t)(t.ndim + 1));
  memcpy(mt->dl_tensor.shape, t.shape, sizeof(int64_t) * (size_t)t.ndim);
  mt->deleter = deleter;
  dev[i] = d;
  if (mc_set_input_dlpack(m, i, mt)) FAIL(4, "mc_set_input_dlpack %d", i);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: emu_harness copy|zerocopy|dlpack OUTDIR IN.bin...\n");
    return 2;
  }
  const char *mode = argv[1], *dir = argv[2];
  mc_model *m = model_create();
  if (!m) {
    fprintf(stderr, "emu_harness: model_create: %s\n", mc_cuda_create_error());
    return 3;
  }
  int nin = mc_num_inputs(m), nout = mc_num_outputs(m);
  if (argc - 3 != nin) {
    fprintf(stderr, "emu_harness: model has %d inputs, %d files given\n", nin, argc - 3);
    return 2;
  }
  void **host = calloc((size_t)nin + 1, sizeof *host), **dev = calloc((size_t)nin + 1, sizeof *dev);
  void **first = calloc((size_t)nout + 1, sizeof *first);
  size_t *ibytes = calloc((size_t)nin + 1, sizeof *ibytes);
  for (int i = 0; i < nin; i++) {
    const DLTensor *info = mc_input_info(m, i);
    ibytes[i] = numel(info) * dtype_bytes(info->dtype);
    host[i] = read_file(argv[3 + i], ibytes[i]);
  }
  char path[4096];
  for (int pass = 0; pass < 2; pass++) {
    /* the second pass rebinds from the original data: mutated inputs start over */
    for (int i = 0; i < nin; i++) {
      int rc = bind(m, mode, i, host[i], ibytes[i], dev);
      if (rc) return rc;
    }
    if (mc_run(m)) FAIL(5, "mc_run");
    FILE *sf = NULL;
    if (pass == 1) {
      snprintf(path, sizeof path, "%s/shapes.txt", dir);
      sf = fopen(path, "w");
    }
    for (int k = 0; k < nout; k++) {
      const DLTensor *o = mc_get_output(m, k);
      if (!o) FAIL(6, "mc_get_output %d", k);
      if (o->device.device_type != kDLCUDA) FAIL(6, "output %d: device type %d, expected kDLCUDA", k, (int)o->device.device_type);
      size_t bytes = numel(o) * dtype_bytes(o->dtype);
      DLTensor dst = *o;
      dst.data = malloc(bytes ? bytes : 1);
      dst.strides = NULL;
      dst.byte_offset = 0;
      dst.device.device_type = kDLCPU;
      if (mc_copy_output(m, k, &dst)) FAIL(6, "mc_copy_output %d", k);
      if (pass == 0) {
        first[k] = dst.data;
        continue;
      }
      if (memcmp(first[k], dst.data, bytes)) FAIL(6, "output %d differs between two runs", k);
      write_file(dir, "output", k, dst.data, bytes);
      fprintf(sf, "output %d %d:%d", k, o->dtype.code, o->dtype.bits);
      for (int d = 0; d < o->ndim; d++) fprintf(sf, " %lld", (long long)o->shape[d]);
      fputc('\n', sf);
      free(dst.data);
      free(first[k]);
    }
    if (sf) fclose(sf);
  }
  for (int i = 0; i < nin; i++) {
    void *fin = malloc(ibytes[i] ? ibytes[i] : 1);
    if (!strcmp(mode, "copy")) {
      DLTensor dst = *mc_input_info(m, i);
      dst.data = fin;
      dst.strides = NULL;
      dst.byte_offset = 0;
      dst.device.device_type = kDLCPU;
      if (mc_copy_input(m, i, &dst)) FAIL(7, "mc_copy_input %d", i);
    } else if (cudaMemcpy(fin, dev[i], ibytes[i], cudaMemcpyDeviceToHost) != cudaSuccess) {
      FAIL(7, "cudaMemcpy of input %d", i);
    }
    write_file(dir, "input", i, fin, ibytes[i]);
    free(fin);
  }
  mc_model_destroy(m);
  int rc = 0;
  if (!strcmp(mode, "dlpack") && ndeleted != 2 * nin) {
    fprintf(stderr, "emu_harness: %d DLPack deleters ran for %d inputs bound twice\n", ndeleted, nin);
    rc = 8;
  }
  for (int i = 0; i < nin; i++) {
    free(host[i]);
    if (!strcmp(mode, "zerocopy")) cudaFree(dev[i]);
  }
  free(host);
  free(dev);
  free(first);
  free(ibytes);
  return rc;
}
