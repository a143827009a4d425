/* fuzz_common.h — what every libFuzzer target shares: a Diag that prints into a memory stream
 * (diagnostics are exercised, formatted and thrown away), so a run prints nothing per input.
 * Prefix: fz_. */
#ifndef MC_FUZZ_COMMON_H
#define MC_FUZZ_COMMON_H

#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct FzSink {
  char *buf;
  size_t len;
  FILE *f;
} FzSink;

static void fz_diag(Diag *d, FzSink *s) {
  diag_init(d);
  s->buf = NULL;
  s->len = 0;
  s->f = open_memstream(&s->buf, &s->len);
  if (!s->f) abort();
  d->out = s->f;
}

static void fz_sink_close(FzSink *s) {
  fclose(s->f);
  free(s->buf);
}

#endif
