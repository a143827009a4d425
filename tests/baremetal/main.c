/* main.c — the bare-metal test program: one model (case.h, written by gen.py: the model's
 * header, its input and PyTorch's output) made with NAME_create_in in a static buffer of
 * NAME_MEMORY_BYTES, run, and compared with PyTorch; then the heapless runtime's error paths.
 * Output through semihosting (startup.c); no stdio, no heap. */
#include "case.h"

#include <stdint.h>
#include <string.h>

void bm_puts(const char *s);

static void put_uint(unsigned long v) {
  char b[24], *p = b + sizeof b - 1;
  *p = 0;
  do *--p = (char)('0' + v % 10); while ((v /= 10) && p > b);
  bm_puts(p);
}

static _Alignas(64) unsigned char mem[BM_MEMORY_BYTES];

static int fail(const char *what, const char *msg) {
  bm_puts("FAIL: ");
  bm_puts(what);
  bm_puts(": ");
  bm_puts(msg ? msg : "");
  bm_puts("\n");
  return 1;
}

int main(void) {
  bm_puts(BM_NAME ": ");
  put_uint((unsigned long)sizeof mem);
  bm_puts(" bytes of model memory\n");
  if (BM_CREATE_IN(mem + 1, sizeof mem - 1)) return fail("create_in", "accepted misaligned memory");
  if (BM_CREATE_IN(mem, mc_model_memory_bytes(&BM_DEF) - 1)) return fail("create_in", "accepted too little");
  mc_model *m = BM_CREATE_IN(mem, sizeof mem);
  if (!m) return fail("create_in", "NULL");
  if (mc_run(m) != MC_EUNBOUND) return fail("mc_run unbound", "not refused");
  bm_puts("error message kept: ");
  bm_puts(mc_last_error(m));
  bm_puts("\n");
  int64_t shape[] = BM_IN_SHAPE;
  DLTensor x;
  memset(&x, 0, sizeof x);
  x.data = (void *)bm_input;
  x.device.device_type = kDLCPU;
  x.ndim = (int)(sizeof shape / sizeof shape[0]);
  x.dtype.code = kDLFloat;
  x.dtype.bits = 32;
  x.dtype.lanes = 1;
  x.shape = shape;
  for (int rep = 0; rep < 2; rep++) { /* the second run reuses the scratch */
    if (mc_set_input(m, 0, &x)) return fail("mc_set_input", mc_last_error(m));
    if (mc_run(m)) return fail("mc_run", mc_last_error(m));
  }
  const DLTensor *y = mc_get_output(m, 0);
  if (!y) return fail("mc_get_output", mc_last_error(m));
  const float *got = (const float *)y->data;
  int64_t n = 1;
  for (int i = 0; i < y->ndim; i++) n *= y->shape[i];
  if (n != (int64_t)(sizeof bm_expect / sizeof bm_expect[0])) return fail("output", "wrong size");
  float worst = 0.0f;
  for (int64_t i = 0; i < n; i++) {
    float d = got[i] - bm_expect[i], tol = 1e-4f + 1e-4f * (bm_expect[i] < 0 ? -bm_expect[i] : bm_expect[i]);
    if (d < 0) d = -d;
    if (!(d <= tol)) return fail("output", "differs from PyTorch");
    if (d > worst) worst = d;
  }
  bm_puts("outputs match PyTorch: ");
  put_uint((unsigned long)n);
  bm_puts(" values, largest difference ");
  put_uint((unsigned long)(worst * 1e9f));
  bm_puts("e-9\n");
#ifdef MC_NO_MALLOC
  if (mc_get_output_dlpack(m, 0)) return fail("mc_get_output_dlpack", "returned a tensor without a heap");
  bm_puts("mc_get_output_dlpack: ");
  bm_puts(mc_last_error(m));
  bm_puts("\n");
#else
  DLManagedTensor *t = mc_get_output_dlpack(m, 0);
  if (!t) return fail("mc_get_output_dlpack", mc_last_error(m));
  t->deleter(t);
#endif
  mc_model_destroy(m);
  bm_puts("PASS " BM_NAME "\n");
  return 0;
}
