/* fuzz_npy.c — libFuzzer target: the .npy reader (npy_parse) on any bytes. What it accepts
 * must be self-consistent (nbytes = numel * element size, every byte readable), and writing it
 * back and parsing that again must give the same array. */
#include "compiler/npy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t fz_elem(DType t) {
  switch (t) {
  case DT_F64: case DT_I64: return 8;
  case DT_F32: case DT_I32: return 4;
  case DT_F16: case DT_BF16: case DT_I16: return 2;
  default: return 1;
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  NpyArray a;
  char err[256];
  if (!npy_parse(data, size, &a, err, sizeof err)) {
    if (!err[0]) abort();
    return 0;
  }
  size_t n = 1;
  for (int i = 0; i < a.ndim; i++) {
    if (a.shape[i] < 0) abort();
    n *= (size_t)a.shape[i];
  }
  if (a.nbytes != n * fz_elem(a.dtype)) abort();
  unsigned char *copy = malloc(a.nbytes ? a.nbytes : 1);
  if (!copy) abort();
  memcpy(copy, a.data, a.nbytes);
  free(copy);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) abort();
  if (!npy_write(f, a.dtype, a.ndim, a.shape, a.data)) abort();
  fclose(f);
  NpyArray b;
  if (!npy_parse(buf, len, &b, err, sizeof err)) abort();
  if (b.dtype != a.dtype || b.ndim != a.ndim || b.nbytes != a.nbytes ||
      memcmp(b.shape, a.shape, sizeof(int64_t) * (size_t)a.ndim) ||
      (a.nbytes && memcmp(a.data, b.data, a.nbytes)))
    abort();
  npy_free(&b);
  free(buf);
  npy_free(&a);
  return 0;
}
