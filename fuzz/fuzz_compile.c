/* fuzz_compile.c — libFuzzer target: the whole `mc compile` pipeline in memory: parse (JSON
 * when the input starts with '{' after blanks, TorchScript text otherwise) -> ops_resolve ->
 * ir_verify -> pm_run (default pipeline, verification after every pass) -> emit_c into memory
 * streams. Weights stay inline (no blob file). */
#include "emit/emit.h"
#include "frontend/json.h"
#include "frontend/ts.h"
#include "fuzz_common.h"
#include "ops/ops.h"
#include "passes/pass.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  Diag d;
  FzSink s;
  fz_diag(&d, &s);
  size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r')) i++;
  Graph *g = i < size && data[i] == '{'
                 ? json_parse_buffer("/nonexistent-mc-fuzz/fuzz.json", (const char *)data, size, &d, NULL, NULL)
                 : ts_parse_string("fuzz.txt", (const char *)data, size, &d);
  if (!g) {
    if (d.nerrors == 0) abort();
    fz_sink_close(&s);
    return 0;
  }
  if (!ops_resolve(g, &d) && !ir_verify(g, &d, "after parsing")) {
    PmOptions pm = {0};
    pm.verify = true;
    pm.verbose = 0;
    pm.dump_out = s.f;
    if (!pm_run(g, &pm, &d)) {
      char *cb = NULL, *hb = NULL;
      size_t cl = 0, hl = 0;
      FILE *c = open_memstream(&cb, &cl), *h = open_memstream(&hb, &hl);
      if (!c || !h) abort();
      EmitOptions eo = {.name = "fz", .header_name = "fz.h", .source_name = "fuzz", .blob_threshold = 65536};
      emit_c(g, &eo, c, h, &d);
      fclose(c);
      fclose(h);
      free(cb);
      free(hb);
    }
  }
  ir_graph_free(g);
  fz_sink_close(&s);
  return 0;
}
