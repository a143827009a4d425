/* harness.c — runs one mc CUDA model (model.cu compiled with --name model) on the GPU and checks
 * it against PyTorch's CPU results: DIR/input_K.npy in, DIR/expect_K.npy expected (written by
 * tests/cuda/export.py --ref). Every output must satisfy max|got - ref| <= 1e-4 * max|ref|
 * (float32, no TF32). Runs each input binding the runtime offers: copying from host memory,
 * zero-copy from device memory, DLPack ownership; reads outputs through mc_copy_output and
 * mc_get_output_dlpack. `--time N` then times N runs after warm-up (ms per run, on the model's
 * own stream, input bound zero-copy).
 *
 * usage: harness DIR [--time N]. Exit 0 pass, 1 mismatch or API failure, 77 no usable GPU. */
#include "model.h"

#ifdef MC_CUDA_EMULATE
#include "mc_cuda_emu.h"
#else
#include <cuda_runtime_api.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXT 8

typedef struct Npy {
  int ndim;
  int64_t shape[MC_MAX_DIMS];
  float *data;
  int64_t n;
} Npy;

/* float32 little-endian C-order .npy only */
static int npy_read(const char *path, Npy *t) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  unsigned char pre[10];
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6)) {
    fclose(f);
    return -1;
  }
  size_t hl = pre[8] | (size_t)pre[9] << 8;
  if (pre[6] >= 2) {
    unsigned char x[2];
    if (fread(x, 1, 2, f) != 2) { fclose(f); return -1; }
    hl = (hl | (size_t)x[0] << 16 | (size_t)x[1] << 24);
  }
  char *h = calloc(1, hl + 1);
  if (!h || fread(h, 1, hl, f) != hl || !strstr(h, "'<f4'") || strstr(h, "'fortran_order': True")) {
    free(h);
    fclose(f);
    return -1;
  }
  char *p = strchr(strstr(h, "'shape'"), '(') + 1;
  t->ndim = 0;
  t->n = 1;
  while (*p && *p != ')') {
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p) { p++; continue; }
    t->shape[t->ndim++] = v;
    t->n *= v;
    p = end;
  }
  free(h);
  t->data = malloc((size_t)(t->n ? t->n : 1) * sizeof(float));
  size_t got = fread(t->data, sizeof(float), (size_t)t->n, f);
  fclose(f);
  return got == (size_t)t->n ? 0 : -1;
}

static DLTensor host_tensor(Npy *t) {
  DLTensor d;
  memset(&d, 0, sizeof d);
  d.data = t->data;
  d.device.device_type = kDLCPU;
  d.ndim = t->ndim;
  d.dtype.code = kDLFloat;
  d.dtype.bits = 32;
  d.dtype.lanes = 1;
  d.shape = t->shape;
  return d;
}

static int compare(const char *what, int k, const float *got, const Npy *ref) {
  double maxref = 0, maxerr = 0;
  for (int64_t i = 0; i < ref->n; i++) {
    double r = ref->data[i], g = got[i];
    if (r == r && fabs(r) > maxref && !isinf(r)) maxref = fabs(r);
    double e = r == g ? 0 : fabs(g - r);
    if (!(e <= maxerr)) maxerr = e; /* NaN counts as an error */
  }
  int ok = maxerr <= 1e-4 * maxref;
  printf("  %s output %d: max |err| %.3g, max |ref| %.3g, bound %.3g: %s\n", what, k, maxerr, maxref, 1e-4 * maxref,
         ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}

typedef struct Owned {
  DLManagedTensor t;
  int64_t shape[MC_MAX_DIMS];
  int *deleted;
} Owned;
static void owned_delete(DLManagedTensor *t) {
  Owned *o = (Owned *)t;
  (*o->deleted)++;
  cudaFree(t->dl_tensor.data);
  free(o);
}

#define CHECK(c, ...) do { if (!(c)) { printf(__VA_ARGS__); printf(" (%s)\n", mc_last_error(m)); return 1; } } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: harness DIR [--time N]\n");
    return 2;
  }
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    mc_model *m0 = model_create();
    printf("harness: no usable CUDA device; model_create() %s: %s\n", m0 ? "succeeded?" : "returned NULL",
           mc_cuda_create_error());
    if (m0) mc_model_destroy(m0);
    return 77;
  }
  mc_model *m = model_create();
  if (!m) {
    printf("harness: model_create failed: %s\n", mc_cuda_create_error());
    return 1;
  }
  int ni = mc_num_inputs(m), no = mc_num_outputs(m), bad = 0;
  Npy in[MAXT], ref[MAXT];
  char path[4096];
  for (int i = 0; i < ni && i < MAXT; i++) {
    snprintf(path, sizeof path, "%s/input_%d.npy", argv[1], i);
    CHECK(npy_read(path, &in[i]) == 0, "harness: cannot read %s", path);
  }
  for (int k = 0; k < no && k < MAXT; k++) {
    snprintf(path, sizeof path, "%s/expect_%d.npy", argv[1], k);
    CHECK(npy_read(path, &ref[k]) == 0, "harness: cannot read %s", path);
  }
  /* 1. copying path from host memory; outputs through mc_copy_output into host memory */
  for (int i = 0; i < ni; i++) {
    DLTensor d = host_tensor(&in[i]);
    CHECK(mc_set_input(m, i, &d) == 0, "mc_set_input %d", i);
  }
  CHECK(mc_run(m) == 0, "mc_run");
  for (int k = 0; k < no; k++) {
    float *got = malloc((size_t)(ref[k].n ? ref[k].n : 1) * sizeof(float));
    DLTensor d = host_tensor(&ref[k]);
    d.data = got;
    CHECK(mc_copy_output(m, k, &d) == 0, "mc_copy_output %d", k);
    bad |= compare("copy", k, got, &ref[k]);
    free(got);
  }
  /* 2. zero-copy from device memory; 3. DLPack input; outputs through mc_get_output_dlpack */
  void *dev[MAXT];
  int deleted = 0;
  for (int i = 0; i < ni; i++) {
    size_t bytes = (size_t)in[i].n * sizeof(float);
    CHECK(cudaMalloc(&dev[i], bytes ? bytes : 4) == cudaSuccess, "cudaMalloc");
    CHECK(cudaMemcpy(dev[i], in[i].data, bytes, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpy");
  }
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < ni; i++) {
      DLTensor d = host_tensor(&in[i]);
      d.device.device_type = kDLCUDA;
      cudaGetDevice(&d.device.device_id);
      d.data = dev[i];
      if (pass == 0) {
        CHECK(mc_set_input_zero_copy(m, i, &d) == 0, "mc_set_input_zero_copy %d", i);
      } else {
        Owned *o = calloc(1, sizeof *o);
        size_t bytes = (size_t)in[i].n * sizeof(float);
        o->t.dl_tensor = d;
        memcpy(o->shape, in[i].shape, sizeof o->shape);
        o->t.dl_tensor.shape = o->shape;
        o->deleted = &deleted;
        o->t.deleter = owned_delete;
        CHECK(cudaMalloc(&o->t.dl_tensor.data, bytes ? bytes : 4) == cudaSuccess, "cudaMalloc");
        cudaMemcpy(o->t.dl_tensor.data, dev[i], bytes, cudaMemcpyDeviceToDevice);
        CHECK(mc_set_input_dlpack(m, i, &o->t) == 0, "mc_set_input_dlpack %d", i);
      }
    }
    CHECK(mc_run(m) == 0, "mc_run");
    for (int k = 0; k < no; k++) {
      DLManagedTensor *t = mc_get_output_dlpack(m, k);
      CHECK(t && t->dl_tensor.device.device_type == kDLCUDA, "mc_get_output_dlpack %d", k);
      float *got = malloc((size_t)(ref[k].n ? ref[k].n : 1) * sizeof(float));
      cudaMemcpy(got, t->dl_tensor.data, (size_t)ref[k].n * sizeof(float), cudaMemcpyDeviceToHost);
      t->deleter(t);
      bad |= compare(pass ? "dlpack" : "zero-copy", k, got, &ref[k]);
      free(got);
    }
  }
  /* a wrong device is refused: host memory for zero-copy */
  if (ni > 0) {
    DLTensor d = host_tensor(&in[0]);
    CHECK(mc_set_input_zero_copy(m, 0, &d) == MC_EDEVICE, "zero-copy of host memory must be refused");
  }
  if (argc >= 4 && !strcmp(argv[2], "--time")) {
    int iters = atoi(argv[3]);
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s) == cudaSuccess, "cudaStreamCreate");
    CHECK(mc_set_stream(m, s) == 0, "mc_set_stream");
    for (int i = 0; i < ni; i++) {
      DLTensor d = host_tensor(&in[i]);
      d.device.device_type = kDLCUDA;
      cudaGetDevice(&d.device.device_id);
      d.data = dev[i];
      CHECK(mc_set_input_zero_copy(m, i, &d) == 0, "mc_set_input_zero_copy");
    }
    for (int w = 0; w < 5; w++) CHECK(mc_run(m) == 0, "mc_run (warm-up)");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int it = 0; it < iters; it++) CHECK(mc_run(m) == 0, "mc_run");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = ((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6) / iters;
    printf("  time: %.3f ms per run (%d runs)\n", ms, iters);
    mc_set_stream(m, NULL);
    cudaStreamDestroy(s);
  }
  mc_model_destroy(m);
  for (int i = 0; i < ni; i++) cudaFree(dev[i]);
  if (deleted != ni) {
    printf("  DLPack deleters ran %d times, expected %d\n", deleted, ni);
    bad = 1;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
