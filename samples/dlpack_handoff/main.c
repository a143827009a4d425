/* dlpack_handoff: memory crosses model boundaries only through DLPack (seed 004).
 *  1. x lives in a malloc'ed DLManagedTensor handed to the encoder: the runtime owns it now.
 *  2. The encoder's output comes back as a DLManagedTensor the caller owns; the encoder is
 *     destroyed (x's deleter must run then, once) and the tensor stays valid.
 *  3. That tensor goes to the head by mc_set_input_dlpack, wrapped so that its deleter call is
 *     counted; destroying the head releases it, once.
 * Prints the head's output and both deleter counts (expected.txt, from PyTorch). */
#include "encoder.h"
#include "head.h"

#include <stdio.h>
#include <stdlib.h>

enum { B = 2, D = 8, K = 4 };

static int x_deleted, h_deleted;

static void delete_x(DLManagedTensor *t) {
  x_deleted++;
  free(t->dl_tensor.data);
  free(t->dl_tensor.shape);
  free(t);
}

/* Counts, then hands the wrapped tensor back to its own deleter. */
static void delete_h(DLManagedTensor *t) {
  DLManagedTensor *inner = t->manager_ctx;
  h_deleted++;
  if (inner->deleter) inner->deleter(inner);
  free(t);
}

static int fail(const char *what, mc_model *m) {
  fprintf(stderr, "dlpack_handoff: %s: %s\n", what, m ? mc_last_error(m) : "out of memory");
  return 1;
}

int main(void) {
  DLManagedTensor *x = calloc(1, sizeof *x);
  float *xd = malloc(B * D * sizeof *xd);
  int64_t *shape = malloc(2 * sizeof *shape);
  if (!x || !xd || !shape) return fail("x", NULL);
  for (int i = 0; i < B * D; i++) xd[i] = (float)i / 8.0f - 1.0f;
  shape[0] = B;
  shape[1] = D;
  x->dl_tensor = (DLTensor){xd, {kDLCPU, 0}, 2, {kDLFloat, 32, 1}, shape, NULL, 0};
  x->deleter = delete_x;

  mc_model *enc = encoder_create();
  if (!enc) return fail("encoder", NULL);
  if (mc_set_input_dlpack(enc, 0, x) || mc_run(enc)) return fail("encoder", enc);
  DLManagedTensor *h = mc_get_output_dlpack(enc, 0);
  if (!h) return fail("encoder output", enc);
  mc_model_destroy(enc);
  if (x_deleted != 1) return fail("x's deleter did not run when the encoder was destroyed", NULL);

  DLManagedTensor *wrap = malloc(sizeof *wrap);
  if (!wrap) return fail("wrap", NULL);
  *wrap = (DLManagedTensor){h->dl_tensor, h, delete_h};
  mc_model *hd = head_create();
  if (!hd) return fail("head", NULL);
  if (mc_set_input_dlpack(hd, 0, wrap) || mc_run(hd)) return fail("head", hd);
  const DLTensor *y = mc_get_output(hd, 0);
  for (int i = 0; i < B; i++) {
    printf("y[%d]", i);
    for (int k = 0; k < K; k++) printf(" %.6f", ((const float *)y->data)[i * K + k]);
    printf("\n");
  }
  int before = h_deleted;
  mc_model_destroy(hd);
  if (before != 0) printf("h deleted while the head still used it\n");
  printf("x deleter calls %d\nh deleter calls %d\n", x_deleted, h_deleted);
  return 0;
}
