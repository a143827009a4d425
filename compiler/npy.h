/* npy.h — NumPy .npy files in and out, for `mc run`.
 *
 * Supported: dtypes float16/32/64, int8/16/32/64, uint8, bool; C order only; format versions
 * 1.0, 2.0 and 3.0; little-endian ('<', or '|' for one-byte types). Every failure comes back as
 * a message (no file name: the caller prints "FILE: error: MSG"); nothing exits.
 *
 * Ownership: npy_read/npy_parse fill an NpyArray whose `data` the caller frees with npy_free.
 * npy_write only reads the array. Prefix: npy_.
 */
#ifndef MC_NPY_H
#define MC_NPY_H

#include "ir/ir.h"

typedef struct NpyArray {
  DType dtype;
  int ndim;
  int64_t shape[IR_MAX_DIMS];
  void *data;    /* contiguous row-major, little-endian; bools normalised to 0/1 */
  size_t nbytes;
} NpyArray;

/* Parses a whole .npy image held in memory. */
bool npy_parse(const void *buf, size_t len, NpyArray *out, char *err, size_t errlen);
/* Reads and parses the file at path. */
bool npy_read(const char *path, NpyArray *out, char *err, size_t errlen);
/* Writes a .npy image (version 1.0, or 2.0 when the header needs it). False on a write error. */
bool npy_write(FILE *f, DType dtype, int ndim, const int64_t *shape, const void *data);
void npy_free(NpyArray *a);

/* "<f4", "|b1", ... for the supported dtypes; NULL for others (bfloat16). */
const char *npy_descr(DType t);
/* "float32 of shape (2, 3)" into buf. */
void npy_describe(char *buf, size_t n, DType t, int ndim, const int64_t *shape);

#endif
