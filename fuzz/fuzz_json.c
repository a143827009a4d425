/* fuzz_json.c — libFuzzer target: the graph JSON frontend (json_parse_buffer) on any bytes,
 * then ops_resolve and ir_verify on what it accepts. A NULL result must come with a
 * diagnostic and no deps. The path names a directory with no weights files in it, so a
 * "weights" member reaches the missing-file path rather than reading the disk. */
#include "frontend/json.h"
#include "fuzz_common.h"
#include "ops/ops.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  Diag d;
  FzSink s;
  fz_diag(&d, &s);
  const char **deps = NULL;
  int ndeps = 0;
  Graph *g = json_parse_buffer("/nonexistent-mc-fuzz/fuzz.json", (const char *)data, size, &d, &deps, &ndeps);
  if (!g) {
    if (d.nerrors == 0 || deps) abort();
  } else {
    if (!ops_resolve(g, &d)) ir_verify(g, &d, "after parsing");
    ir_graph_free(g);
  }
  fz_sink_close(&s);
  return 0;
}
