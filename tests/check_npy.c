/* check_npy.c — tests of compiler/npy.c: the .npy reader and writer behind `mc run`.
 *
 * Expected bytes come from numpy itself: the NUMPY_* images below are what numpy 1.24's
 * np.save wrote for the arrays named beside them (copied from `python3 -c "np.save(...)"`), so
 * the writer must reproduce them byte for byte and the reader must decode them. Every
 * supported dtype round-trips write -> read unchanged. Versions 2.0 and 3.0 differ from 1.0 only
 * in a 4-byte header length (numpy's format.py), built by hand below. Malformed and truncated
 * images must be refused with a message saying what is wrong.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

#define PAD60 "                                                            "

/* np.save(f, np.array([1, 2, 3], dtype='<i4')) */
static const char NUMPY_I4[] = "\x93NUMPY\x01\x00v\x00{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }" PAD60
                               "\n\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00";
/* np.save(f, np.array([[1.5, -2.0]], dtype='<f2')): 1.5 = 0x3e00, -2.0 = 0xc000 in binary16 */
static const char NUMPY_F2[] = "\x93NUMPY\x01\x00v\x00{'descr': '<f2', 'fortran_order': False, 'shape': (1, 2), }"
                               "                                                          \n\x00>\x00\xc0";
/* np.save(f, np.array(True)) */
static const char NUMPY_B1[] = "\x93NUMPY\x01\x00v\x00{'descr': '|b1', 'fortran_order': False, 'shape': (), }" PAD60
                               "  \n\x01";

static char *write_mem(DType dt, int ndim, const int64_t *shape, const void *data, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  ck_assert_ptr_nonnull(f);
  ck_assert(npy_write(f, dt, ndim, shape, data));
  fclose(f);
  return buf;
}

START_TEST(numpy_images_decode) {
  NpyArray a;
  char err[256];
  ck_assert_int_eq(sizeof NUMPY_I4 - 1, 140);
  ck_assert_msg(npy_parse(NUMPY_I4, sizeof NUMPY_I4 - 1, &a, err, sizeof err), "%s", err);
  ck_assert_int_eq(a.dtype, DT_I32);
  ck_assert_int_eq(a.ndim, 1);
  ck_assert_int_eq(a.shape[0], 3);
  int32_t want[3] = {1, 2, 3};
  ck_assert(!memcmp(a.data, want, sizeof want));
  npy_free(&a);

  ck_assert_msg(npy_parse(NUMPY_F2, sizeof NUMPY_F2 - 1, &a, err, sizeof err), "%s", err);
  ck_assert_int_eq(a.dtype, DT_F16);
  ck_assert_int_eq(a.ndim, 2);
  ck_assert_int_eq(a.shape[0], 1);
  ck_assert_int_eq(a.shape[1], 2);
  uint16_t h[2];
  memcpy(h, a.data, 4);
  ck_assert_uint_eq(h[0], 0x3e00);
  ck_assert_uint_eq(h[1], 0xc000);
  npy_free(&a);

  ck_assert_msg(npy_parse(NUMPY_B1, sizeof NUMPY_B1 - 1, &a, err, sizeof err), "%s", err);
  ck_assert_int_eq(a.dtype, DT_BOOL);
  ck_assert_int_eq(a.ndim, 0);
  ck_assert_uint_eq(((unsigned char *)a.data)[0], 1);
  npy_free(&a);
}
END_TEST

START_TEST(writer_matches_numpy) {
  size_t len;
  int32_t i4[3] = {1, 2, 3};
  int64_t s3[1] = {3};
  char *b = write_mem(DT_I32, 1, s3, i4, &len);
  ck_assert_uint_eq(len, sizeof NUMPY_I4 - 1);
  ck_assert(!memcmp(b, NUMPY_I4, len));
  free(b);
  uint16_t f2[2] = {0x3e00, 0xc000};
  int64_t s12[2] = {1, 2};
  b = write_mem(DT_F16, 2, s12, f2, &len);
  ck_assert_uint_eq(len, sizeof NUMPY_F2 - 1);
  ck_assert(!memcmp(b, NUMPY_F2, len));
  free(b);
  uint8_t t = 1;
  b = write_mem(DT_BOOL, 0, NULL, &t, &len);
  ck_assert_uint_eq(len, sizeof NUMPY_B1 - 1);
  ck_assert(!memcmp(b, NUMPY_B1, len));
  free(b);
}
END_TEST

static const DType all_types[] = {DT_F16, DT_F32, DT_F64, DT_I8, DT_I16, DT_I32, DT_I64, DT_U8, DT_BOOL};

START_TEST(round_trip_every_dtype) {
  DType dt = all_types[_i];
  int64_t shape[3] = {2, 3, 5};
  size_t es = ir_dtype_size(dt), n = 30 * es;
  unsigned char data[30 * 8];
  for (size_t i = 0; i < n; i++) data[i] = dt == DT_BOOL ? (unsigned char)(i % 3 == 0) : (unsigned char)(i * 37 + 11);
  size_t len;
  char *b = write_mem(dt, 3, shape, data, &len);
  ck_assert_uint_eq((len - n) % 64, 0); /* the data starts 64-aligned, as numpy writes it */
  NpyArray a;
  char err[256];
  ck_assert_msg(npy_parse(b, len, &a, err, sizeof err), "%s", err);
  ck_assert_int_eq(a.dtype, dt);
  ck_assert_int_eq(a.ndim, 3);
  ck_assert_int_eq(a.shape[0], 2);
  ck_assert_int_eq(a.shape[1], 3);
  ck_assert_int_eq(a.shape[2], 5);
  ck_assert_uint_eq(a.nbytes, n);
  ck_assert(!memcmp(a.data, data, n));
  npy_free(&a);
  free(b);
}
END_TEST

START_TEST(round_trip_file_and_empty) {
  char path[] = "/tmp/check_npy_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "wb");
  int64_t shape[2] = {4, 0};
  ck_assert(npy_write(f, DT_F32, 2, shape, NULL));
  fclose(f);
  NpyArray a;
  char err[256];
  ck_assert_msg(npy_read(path, &a, err, sizeof err), "%s", err);
  ck_assert_int_eq(a.ndim, 2);
  ck_assert_int_eq(a.shape[1], 0);
  ck_assert_uint_eq(a.nbytes, 0);
  npy_free(&a);
  remove(path);
  ck_assert(!npy_read(path, &a, err, sizeof err));
  ck_assert_ptr_nonnull(strstr(err, "cannot open"));
}
END_TEST

/* A version-2/3 image: magic, major, 0, uint32 header length, header, data. */
static size_t versioned(char *out, int major, const char *dict, const void *data, size_t n) {
  size_t k = strlen(dict), hl = (12 + k + 1 + 63) / 64 * 64 - 12;
  memcpy(out, "\x93NUMPY", 6);
  out[6] = (char)major;
  out[7] = 0;
  for (int i = 0; i < 4; i++) out[8 + i] = (char)(hl >> (8 * i));
  memcpy(out + 12, dict, k);
  memset(out + 12 + k, ' ', hl - k - 1);
  out[12 + hl - 1] = '\n';
  memcpy(out + 12 + hl, data, n);
  return 12 + hl + n;
}

START_TEST(versions_2_and_3) {
  char buf[512];
  double d[2] = {0.25, -8};
  for (int major = 2; major <= 3; major++) {
    size_t len = versioned(buf, major, "{\"shape\": (2,), 'fortran_order': False, 'descr': '<f8'}", d, sizeof d);
    NpyArray a;
    char err[256];
    ck_assert_msg(npy_parse(buf, len, &a, err, sizeof err), "v%d: %s", major, err);
    ck_assert_int_eq(a.dtype, DT_F64);
    ck_assert_int_eq(a.shape[0], 2);
    ck_assert(!memcmp(a.data, d, sizeof d));
    npy_free(&a);
  }
}
END_TEST

typedef struct Bad {
  const char *dict; /* NULL: use `raw` as the whole image */
  const char *raw;
  size_t rawlen, ndata;
  const char *expect; /* substring of the message */
} Bad;

static const Bad bad_cases[] = {
    {"{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", NULL, 0, 8, "Fortran-order"},
    {"{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", NULL, 0, 8, "big-endian"},
    {"{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", NULL, 0, 16, "dtype '<c8' is not supported"},
    {"{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", NULL, 0, 24, "not supported"},
    {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", NULL, 0, 8, "structured"},
    {"{'descr': '<f4', 'shape': (2,), }", NULL, 0, 8, "missing key 'fortran_order'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", NULL, 0, 8, "unexpected or repeated key 'x'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", NULL, 0, 8, "non-negative integer"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,) }x", NULL, 0, 8, "text after the dict"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", NULL, 0, 7, "truncated .npy file: float32 of shape (2,) needs 8 data bytes, the file has 7"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", NULL, 0, 9, "1 bytes after the data"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,2,3,4,5,6,7,8,9), }", NULL, 0, 4, "more than 8 dimensions"},
    {"{'descr': '<f4' 'fortran_order': False, 'shape': (2,), }", NULL, 0, 8, "expected ',' or '}'"},
    {NULL, "PK\x03\x04 zip file", 14, 0, "not a .npy file"},
    {NULL, "\x93NUMPY\x04\x00\x10\x00\x00\x00", 12, 0, "version 4.0 is not supported"},
    {NULL, "\x93NUMPY\x01\x00\x76", 9, 0, "header length is cut off"},
    {NULL, "\x93NUMPY\x01\x00\x76\x00{'descr'", 18, 0, "the header needs 118 bytes"},
    {NULL, "", 0, 0, "not a .npy file"},
};

START_TEST(malformed_rejected) {
  const Bad *c = &bad_cases[_i];
  char buf[512];
  size_t len;
  if (c->dict) {
    char zeros[64] = {0};
    len = versioned(buf, 2, c->dict, zeros, c->ndata);
  } else {
    memcpy(buf, c->raw, c->rawlen);
    len = c->rawlen;
  }
  NpyArray a;
  char err[256] = "";
  ck_assert_msg(!npy_parse(buf, len, &a, err, sizeof err), "case %d accepted", _i);
  ck_assert_msg(strstr(err, c->expect) != NULL, "case %d: message '%s' lacks '%s'", _i, err, c->expect);
  ck_assert_ptr_null(a.data);
}
END_TEST

static Suite *npy_suite(void) {
  Suite *s = suite_create("npy");
  TCase *tc = tcase_create("npy");
  tcase_add_test(tc, numpy_images_decode);
  tcase_add_test(tc, writer_matches_numpy);
  tcase_add_loop_test(tc, round_trip_every_dtype, 0, (int)(sizeof all_types / sizeof all_types[0]));
  tcase_add_test(tc, round_trip_file_and_empty);
  tcase_add_test(tc, versions_2_and_3);
  tcase_add_loop_test(tc, malformed_rejected, 0, (int)(sizeof bad_cases / sizeof bad_cases[0]));
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(npy_suite());
  srunner_run_all(sr, CK_NORMAL);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
