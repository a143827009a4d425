/* harness.c — drives one generated model with dynamic shapes (compiled with --name model)
 * through a script, so one model.c runs at many sizes. Usage: harness SCRIPT. Lines:
 *   bind I MODE EXPECT FILE D0 D1 ...  binds input I (MODE copy or zerocopy) to the raw
 *                                      little-endian data in FILE with extents D0 D1 ...;
 *                                      the call must return EXPECT (0 or an MC_E* code)
 *   run EXPECT DIR                     mc_run must return EXPECT; on success writes
 *                                      DIR/shapes.txt ("output K code:bits d0 d1 ..."),
 *                                      DIR/output_K.bin and DIR/input_K.bin (as tests/e2e)
 * Prints "bounds I D MIN MAX" for every input extent first, and each refused call's message.
 * Exits 1 when a call returns something other than expected. With MC_DYN_IN=1 in the
 * environment the model lives in memory the harness supplies (model_create_in,
 * model_MEMORY_BYTES). Built with -DMC_NO_MALLOC (and linked with the malloc family poisoned)
 * the harness calls no allocator either: the model lives in a static buffer of
 * model_MEMORY_BYTES and the input and output buffers come from a static pool; the DLPack copy
 * of an output is not checked (the heapless runtime has none). Built with -DMC_CUDA_EMULATE
 * against a --target cuda model.h, it drives that model through the CUDA runtime's emulation. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXIN 16

#ifdef MC_NO_MALLOC
static _Alignas(64) unsigned char heapless_model_[model_MEMORY_BYTES];
static _Alignas(64) unsigned char heapless_pool_[64u << 20];
static size_t heapless_used_;
static void *h_alloc(size_t n) { /* never given back: a script binds a few inputs */
  n = (n + 63) / 64 * 64;
  if (n > sizeof heapless_pool_ - heapless_used_) return NULL;
  heapless_used_ += n;
  return heapless_pool_ + heapless_used_ - n;
}
#define h_free(p) ((void)(p))
#else
#define h_alloc malloc
#define h_free free
#endif

static size_t dtype_bytes(DLDataType t) { return (size_t)(t.bits / 8) * t.lanes; }

static size_t numel(int ndim, const int64_t *shape) {
  size_t n = 1;
  for (int i = 0; i < ndim; i++) n *= (size_t)shape[i];
  return n;
}

static int write_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return 1;
  size_t w = n ? fwrite(p, 1, n, f) : 0;
  fclose(f);
  return w != n;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: harness SCRIPT\n");
    return 2;
  }
  FILE *sf = fopen(argv[1], "r");
  void *mem = NULL;
  mc_model *m = NULL;
#ifdef MC_NO_MALLOC
  m = model_create_in(heapless_model_, sizeof heapless_model_);
#elif defined(model_MEMORY_BYTES) /* the CUDA target's models have no create_in */
  if (getenv("MC_DYN_IN")) {
    size_t bytes = model_MEMORY_BYTES;
    mem = malloc(bytes + 64);
    char *aligned = mem ? (char *)mem + (64 - (uintptr_t)mem % 64) % 64 : NULL;
    m = aligned ? model_create_in(aligned, bytes) : NULL;
  } else {
    m = model_create();
  }
#else
  m = model_create();
#endif
  if (!sf || !m) {
    fprintf(stderr, "cannot open the script or create the model\n");
    return 1;
  }
  int ni = mc_num_inputs(m), no = mc_num_outputs(m);
  for (int i = 0; i < ni; i++)
    for (int d = 0; d < mc_input_info(m, i)->ndim; d++) {
      int64_t lo, hi;
      if (mc_input_dim_bounds(m, i, d, &lo, &hi)) return 1;
      printf("bounds %d %d %lld %lld\n", i, d, (long long)lo, (long long)hi);
    }
  void *bufs[MAXIN] = {0};
  int64_t shapes[MAXIN][MC_MAX_DIMS];
  char line[4096];
  while (fgets(line, sizeof line, sf)) {
    char *tok = strtok(line, " \n");
    if (!tok) continue;
    if (strcmp(tok, "bind") == 0) {
      int i = atoi(strtok(NULL, " \n"));
      const char *mode = strtok(NULL, " \n");
      int expect = atoi(strtok(NULL, " \n"));
      const char *path = strtok(NULL, " \n");
      if (i < 0 || i >= ni || i >= MAXIN) return 1;
      const DLTensor *info = mc_input_info(m, i);
      DLTensor t = *info;
      int64_t shape[MC_MAX_DIMS];
      int nd = 0;
      for (char *x; (x = strtok(NULL, " \n")) && nd < MC_MAX_DIMS;) shape[nd++] = atoll(x);
      t.ndim = nd;
      t.shape = shape;
      t.strides = NULL;
      t.byte_offset = 0;
      size_t bytes = numel(nd, shape) * dtype_bytes(t.dtype);
      void *buf = h_alloc(bytes ? bytes : 1);
      FILE *f = fopen(path, "rb");
      if (!buf || !f || (bytes && fread(buf, 1, bytes, f) != bytes)) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
      }
      fclose(f);
      t.data = buf;
      int rc = strcmp(mode, "zerocopy") == 0 ? mc_set_input_zero_copy(m, i, &t) : mc_set_input(m, i, &t);
      if (rc) printf("bind %d: %d %s\n", i, rc, mc_last_error(m));
      if (rc != expect) {
        fprintf(stderr, "bind %d returned %d, expected %d\n", i, rc, expect);
        return 1;
      }
      if (rc == 0) {
        h_free(bufs[i]); /* the previous binding is forgotten */
        bufs[i] = buf;
        memcpy(shapes[i], shape, sizeof shape);
      } else {
        h_free(buf);
      }
    } else if (strcmp(tok, "run") == 0) {
      int expect = atoi(strtok(NULL, " \n"));
      const char *dir = strtok(NULL, " \n");
      int rc = mc_run(m);
      if (rc) printf("run: %d %s\n", rc, mc_last_error(m));
      if (rc != expect) {
        fprintf(stderr, "mc_run returned %d, expected %d: %s\n", rc, expect, mc_last_error(m));
        return 1;
      }
      if (rc) continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/shapes.txt", dir);
      FILE *sh = fopen(path, "w");
      if (!sh) return 1;
      for (int k = 0; k < no; k++) {
        const DLTensor *y = mc_get_output(m, k);
        if (!y) return 1;
        fprintf(sh, "output %d %d:%d", k, y->dtype.code, y->dtype.bits);
        for (int d = 0; d < y->ndim; d++) fprintf(sh, " %lld", (long long)y->shape[d]);
        fputc('\n', sh);
        /* a compact copy through mc_copy_output, in this run's shape */
        size_t bytes = numel(y->ndim, y->shape) * dtype_bytes(y->dtype);
        void *buf = h_alloc(bytes ? bytes : 1);
        DLTensor dst = *y;
        dst.data = buf;
        dst.strides = NULL;
        dst.byte_offset = 0;
        if (!buf || mc_copy_output(m, k, &dst)) {
          fprintf(stderr, "mc_copy_output %d: %s\n", k, mc_last_error(m));
          return 1;
        }
#ifndef MC_NO_MALLOC
        /* the DLPack copy has this run's shape and the same bytes */
        DLManagedTensor *dl = mc_get_output_dlpack(m, k);
        if (!dl || dl->dl_tensor.ndim != y->ndim ||
            memcmp(dl->dl_tensor.shape, y->shape, sizeof(int64_t) * (size_t)y->ndim) != 0 ||
            (bytes && memcmp(dl->dl_tensor.data, buf, bytes) != 0)) {
          fprintf(stderr, "mc_get_output_dlpack %d differs from mc_copy_output\n", k);
          return 1;
        }
        dl->deleter(dl);
#endif
        snprintf(path, sizeof path, "%s/output_%d.bin", dir, k);
        if (write_file(path, buf, bytes)) return 1;
        h_free(buf);
      }
      fclose(sh);
      for (int i = 0; i < ni && i < MAXIN; i++) {
        DLTensor dst = *mc_input_info(m, i);
        size_t bytes = numel(dst.ndim, shapes[i]) * dtype_bytes(dst.dtype);
        void *buf = h_alloc(bytes ? bytes : 1);
        dst.shape = shapes[i];
        dst.data = buf;
        if (!buf || mc_copy_input(m, i, &dst)) {
          fprintf(stderr, "mc_copy_input %d: %s\n", i, mc_last_error(m));
          return 1;
        }
        snprintf(path, sizeof path, "%s/input_%d.bin", dir, i);
        if (write_file(path, buf, bytes)) return 1;
        h_free(buf);
      }
    }
  }
  fclose(sf);
  mc_model_destroy(m);
  h_free(mem);
  for (int i = 0; i < MAXIN; i++) h_free(bufs[i]);
  return 0;
}
