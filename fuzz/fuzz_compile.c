/* fuzz_compile.c — libFuzzer target: the whole `mc compile` pipeline in memory: parse (JSON
 * when the input starts with '{' after blanks, TorchScript text otherwise) -> ops_resolve ->
 * ir_verify -> pm_run (default pipeline, verification after every pass) -> emit_c into memory
 * streams. Weights stay inline (no blob file). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  Diag d;
  FzSink s;
  fz_diag(&d, &s);
  bool emitted;
  ir_graph_free(fz_compile(data, size, &d, &s, &emitted));
  fz_sink_close(&s);
  return 0;
}
