/* fuzz_common.h — what every libFuzzer target shares: a Diag that prints into a memory stream
 * (diagnostics are exercised, formatted and thrown away), so a run prints nothing per input;
 * and the compile step of fuzz_compile and fuzz_run (fz_compile). Prefix: fz_. */
#ifndef MC_FUZZ_COMMON_H
#define MC_FUZZ_COMMON_H

#include "emit/emit.h"
#include "frontend/json.h"
#include "frontend/ts.h"
#include "ir/ir.h"
#include "ops/ops.h"
#include "passes/pass.h"

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

/* The whole `mc compile` pipeline in memory: parse (JSON when the input starts with '{' after
 * blanks, TorchScript text otherwise) -> ops_resolve -> ir_verify -> pm_run (default pipeline,
 * verification after every pass) -> emit_c into memory streams (weights inline, no blob file).
 * Returns the graph (NULL when the frontend refused the input, which must come with a
 * diagnostic); *emitted says whether emit_c ran and reported no error. */
static Graph *fz_compile(const unsigned char *data, size_t size, Diag *d, FzSink *s, bool *emitted) {
  *emitted = false;
  size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r')) i++;
  Graph *g = i < size && data[i] == '{'
                 ? json_parse_buffer("/nonexistent-mc-fuzz/fuzz.json", (const char *)data, size, d, NULL, NULL)
                 : ts_parse_string("fuzz.txt", (const char *)data, size, d);
  if (!g) {
    if (d->nerrors == 0) abort();
    return NULL;
  }
  if (!ops_resolve(g, d) && !ir_verify(g, d, "after parsing")) {
    PmOptions pm = {0};
    pm.verify = true;
    pm.verbose = 0;
    pm.dump_out = s->f;
    if (!pm_run(g, &pm, d)) {
      char *cb = NULL, *hb = NULL;
      size_t cl = 0, hl = 0;
      FILE *c = open_memstream(&cb, &cl), *h = open_memstream(&hb, &hl);
      if (!c || !h) abort();
      EmitOptions eo = {.name = "fz", .header_name = "fz.h", .source_name = "fuzz", .blob_threshold = 65536};
      int errs = emit_c(g, &eo, c, h, d);
      fclose(c);
      fclose(h);
      free(cb);
      free(hb);
      *emitted = !errs;
    }
  }
  return g;
}

#endif
