/* npy.c — reads and writes NumPy's .npy format (see npy.h for what is supported).
 *
 * A file is: the magic "\x93NUMPY", a major and minor version byte, the header length (uint16
 * little-endian for 1.x, uint32 for 2.x and 3.x), the header — a Python dict literal
 * {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with spaces and ending in
 * '\n' — then the raw elements. The reader accepts exactly one dict with exactly those keys, in
 * any order, and exactly as many data bytes as the shape says: anything else is a malformed
 * file, reported with what was expected. The writer produces what numpy.save writes (header
 * padded so the data starts at a multiple of 64).
 */
#include "npy.h"
#include "ir/file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

typedef struct NpyType {
  char kind;  /* 'f', 'i', 'u', 'b' */
  int size;
  DType dtype;
} NpyType;

static const NpyType npy_types[] = {
    {'f', 2, DT_F16}, {'f', 4, DT_F32}, {'f', 8, DT_F64}, {'i', 1, DT_I8}, {'i', 2, DT_I16},
    {'i', 4, DT_I32}, {'i', 8, DT_I64}, {'u', 1, DT_U8},  {'b', 1, DT_BOOL},
};
#define NPY_NTYPES ((int)(sizeof npy_types / sizeof npy_types[0]))

const char *npy_descr(DType t) {
  switch (t) {
  case DT_F16: return "<f2";
  case DT_F32: return "<f4";
  case DT_F64: return "<f8";
  case DT_I8: return "|i1";
  case DT_I16: return "<i2";
  case DT_I32: return "<i4";
  case DT_I64: return "<i8";
  case DT_U8: return "|u1";
  case DT_BOOL: return "|b1";
  default: return NULL;
  }
}

void npy_describe(char *buf, size_t n, DType t, int ndim, const int64_t *shape) {
  size_t k = (size_t)snprintf(buf, n, "%s of shape (", ir_dtype_name(t));
  for (int i = 0; i < ndim && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)shape[i]);
  if (k < n) snprintf(buf + k, n - k, "%s)", ndim == 1 ? "," : "");
}

static bool fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return false;
}

/* ---- the header dict ------------------------------------------------------------------- */
typedef struct Hdr {
  const char *p, *end;
  char *err;
  size_t errlen;
} Hdr;

static void hdr_ws(Hdr *h) {
  while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r')) h->p++;
}

static bool hdr_char(Hdr *h, char c, const char *what) {
  hdr_ws(h);
  if (h->p < h->end && *h->p == c) {
    h->p++;
    return true;
  }
  return fail(h->err, h->errlen, "malformed .npy header: expected %s", what);
}

/* A Python string literal in ' or " quotes, without escapes (numpy never writes any). */
static bool hdr_string(Hdr *h, char *out, size_t cap, const char *what) {
  hdr_ws(h);
  if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
    return fail(h->err, h->errlen, "malformed .npy header: expected a string for %s", what);
  char q = *h->p++;
  size_t n = 0;
  while (h->p < h->end && *h->p != q) {
    if (*h->p == '\\' || *h->p == '\n' || n + 1 >= cap)
      return fail(h->err, h->errlen, "malformed .npy header: bad string for %s", what);
    out[n++] = *h->p++;
  }
  if (h->p >= h->end) return fail(h->err, h->errlen, "malformed .npy header: unterminated string");
  h->p++;
  out[n] = 0;
  return true;
}

static bool hdr_word(Hdr *h, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(h->end - h->p) >= n && !memcmp(h->p, w, n)) {
    h->p += n;
    return true;
  }
  return false;
}

static bool hdr_shape(Hdr *h, NpyArray *a) {
  if (!hdr_char(h, '(', "'(' starting the shape tuple")) return false;
  a->ndim = 0;
  for (;;) {
    hdr_ws(h);
    if (h->p < h->end && *h->p == ')') {
      h->p++;
      return true;
    }
    if (h->p >= h->end || *h->p < '0' || *h->p > '9')
      return fail(h->err, h->errlen, "malformed .npy header: expected a non-negative integer in the shape");
    int64_t x = 0;
    while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
      if (x > (INT64_MAX - 9) / 10) return fail(h->err, h->errlen, "malformed .npy header: extent too large");
      x = x * 10 + (*h->p++ - '0');
    }
    if (h->p < h->end && *h->p == 'L') h->p++; /* Python 2 long */
    if (a->ndim >= IR_MAX_DIMS)
      return fail(h->err, h->errlen, "array has more than %d dimensions (not supported)", IR_MAX_DIMS);
    a->shape[a->ndim++] = x;
    hdr_ws(h);
    if (h->p < h->end && *h->p == ',') {
      h->p++;
    } else if (!(h->p < h->end && *h->p == ')')) {
      return fail(h->err, h->errlen, "malformed .npy header: expected ',' or ')' in the shape");
    }
  }
}

static bool hdr_descr(Hdr *h, NpyArray *a) {
  hdr_ws(h);
  if (h->p < h->end && *h->p == '[')
    return fail(h->err, h->errlen, "structured dtypes are not supported (expected a plain numeric dtype)");
  char d[32];
  if (!hdr_string(h, d, sizeof d, "'descr'")) return false;
  char order = d[0];
  const char *rest = d + 1;
  if (order != '<' && order != '>' && order != '|' && order != '=') {
    order = '=';
    rest = d;
  }
  int size = atoi(rest + (rest[0] ? 1 : 0));
  for (int i = 0; i < NPY_NTYPES; i++) {
    if (rest[0] != npy_types[i].kind || size != npy_types[i].size) continue;
    char num[8];
    snprintf(num, sizeof num, "%d", size);
    if (strcmp(rest + 1, num) != 0) break;
    if (order == '>' && size > 1)
      return fail(h->err, h->errlen, "big-endian data ('%s') is not supported; save it little-endian ('<%s')", d, rest);
    a->dtype = npy_types[i].dtype;
    return true;
  }
  return fail(h->err, h->errlen,
              "dtype '%s' is not supported (expected float16/32/64, int8/16/32/64, uint8 or bool)", d);
}

static bool parse_header(Hdr *h, NpyArray *a) {
  bool seen_descr = false, seen_order = false, seen_shape = false;
  if (!hdr_char(h, '{', "'{' starting the header dict")) return false;
  for (;;) {
    hdr_ws(h);
    if (h->p < h->end && *h->p == '}') {
      h->p++;
      break;
    }
    char key[32];
    if (!hdr_string(h, key, sizeof key, "a key")) return false;
    if (!hdr_char(h, ':', "':' after a key")) return false;
    hdr_ws(h);
    if (!strcmp(key, "descr") && !seen_descr) {
      if (!hdr_descr(h, a)) return false;
      seen_descr = true;
    } else if (!strcmp(key, "fortran_order") && !seen_order) {
      if (hdr_word(h, "True"))
        return fail(h->err, h->errlen, "Fortran-order arrays are not supported (save a C-contiguous array)");
      if (!hdr_word(h, "False"))
        return fail(h->err, h->errlen, "malformed .npy header: 'fortran_order' must be True or False");
      seen_order = true;
    } else if (!strcmp(key, "shape") && !seen_shape) {
      if (!hdr_shape(h, a)) return false;
      seen_shape = true;
    } else {
      return fail(h->err, h->errlen, "malformed .npy header: unexpected or repeated key '%s'", key);
    }
    hdr_ws(h);
    if (h->p < h->end && *h->p == ',') h->p++;
    else if (!(h->p < h->end && *h->p == '}'))
      return fail(h->err, h->errlen, "malformed .npy header: expected ',' or '}' after the value of '%s'", key);
  }
  hdr_ws(h);
  if (h->p != h->end) return fail(h->err, h->errlen, "malformed .npy header: text after the dict");
  if (!seen_descr || !seen_order || !seen_shape)
    return fail(h->err, h->errlen, "malformed .npy header: missing key '%s'",
                !seen_descr ? "descr" : !seen_order ? "fortran_order" : "shape");
  return true;
}

/* ---- reading ----------------------------------------------------------------------------- */
bool npy_parse(const void *buf, size_t len, NpyArray *a, char *err, size_t errlen) {
  const unsigned char *b = buf;
  memset(a, 0, sizeof *a);
  a->dtype = DT_UNDEF;
  if (len < 8 || memcmp(b, npy_magic, sizeof npy_magic) != 0)
    return fail(err, errlen, "not a .npy file (no \\x93NUMPY magic at the start)");
  unsigned major = b[6], minor = b[7];
  size_t hlen, hstart;
  if (major == 1) {
    if (len < 10) return fail(err, errlen, "truncated .npy file: the header length is cut off");
    hlen = (size_t)b[8] | (size_t)b[9] << 8;
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (len < 12) return fail(err, errlen, "truncated .npy file: the header length is cut off");
    hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
    hstart = 12;
  } else {
    return fail(err, errlen, ".npy format version %u.%u is not supported (expected 1.0, 2.0 or 3.0)", major, minor);
  }
  if (hlen > len - hstart)
    return fail(err, errlen, "truncated .npy file: the header needs %zu bytes, the file has %zu", hlen, len - hstart);
  Hdr h = {(const char *)b + hstart, (const char *)b + hstart + hlen, err, errlen};
  if (!parse_header(&h, a)) return false;
  size_t es = ir_dtype_size(a->dtype);
  size_t n = es;
  for (int i = 0; i < a->ndim; i++) {
    if (a->shape[i] != 0 && n > SIZE_MAX / (size_t)a->shape[i])
      return fail(err, errlen, "array size overflows");
    n *= (size_t)a->shape[i];
  }
  size_t have = len - hstart - hlen;
  char what[128];
  npy_describe(what, sizeof what, a->dtype, a->ndim, a->shape);
  if (have < n) return fail(err, errlen, "truncated .npy file: %s needs %zu data bytes, the file has %zu", what, n, have);
  if (have > n)
    return fail(err, errlen, "malformed .npy file: %zu bytes after the data of %s (%zu bytes)", have - n, what, n);
  a->data = malloc(n ? n : 1);
  if (!a->data) return fail(err, errlen, "out of memory (%zu bytes)", n);
  memcpy(a->data, b + hstart + hlen, n);
  a->nbytes = n;
  if (a->dtype == DT_BOOL)
    for (size_t i = 0; i < n; i++) ((unsigned char *)a->data)[i] = ((unsigned char *)a->data)[i] != 0;
  return true;
}

bool npy_read(const char *path, NpyArray *a, char *err, size_t errlen) {
  memset(a, 0, sizeof *a);
  FileRead r;
  if (!file_read(NULL, path, FILE_ANY_SIZE, &r)) return fail(err, errlen, "cannot open: %s", r.why);
  bool ok = npy_parse(r.data, r.len, a, err, errlen);
  free(r.data);
  return ok;
}

void npy_free(NpyArray *a) {
  free(a->data);
  a->data = NULL;
}

/* ---- writing ----------------------------------------------------------------------------- */
bool npy_write(FILE *f, DType dtype, int ndim, const int64_t *shape, const void *data) {
  const char *descr = npy_descr(dtype);
  if (!descr || ndim < 0 || ndim > IR_MAX_DIMS) return false;
  char dict[512];
  size_t k = (size_t)snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  size_t n = ir_dtype_size(dtype);
  for (int i = 0; i < ndim; i++) {
    k += (size_t)snprintf(dict + k, sizeof dict - k, "%s%lld", i ? ", " : "", (long long)shape[i]);
    n *= (size_t)shape[i];
  }
  k += (size_t)snprintf(dict + k, sizeof dict - k, "%s), }", ndim == 1 ? "," : "");
  /* dict + padding + '\n', so that the data starts at a multiple of 64 */
  size_t pre = 10, total = (pre + k + 1 + 63) / 64 * 64;
  if (total - pre > 0xffff) {
    pre = 12;
    total = (pre + k + 1 + 63) / 64 * 64;
  }
  size_t hlen = total - pre;
  unsigned char head[12];
  memcpy(head, npy_magic, 6);
  head[6] = pre == 10 ? 1 : 2;
  head[7] = 0;
  for (size_t i = 0; i < pre - 8; i++) head[8 + i] = (unsigned char)(hlen >> (8 * i));
  if (fwrite(head, 1, pre, f) != pre || fwrite(dict, 1, k, f) != k) return false;
  for (size_t i = k; i + 1 < hlen; i++)
    if (fputc(' ', f) == EOF) return false;
  if (fputc('\n', f) == EOF) return false;
  if (n && fwrite(data, 1, n, f) != n) return false;
  return !ferror(f);
}
