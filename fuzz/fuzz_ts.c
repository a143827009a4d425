/* fuzz_ts.c — libFuzzer target: the TorchScript text frontend (ts_parse_string) on any bytes,
 * then ops_resolve and ir_verify on what it accepts. Also checks the frontend's promise that a
 * NULL result comes with at least one diagnostic. */
#include "frontend/ts.h"
#include "fuzz_common.h"
#include "ops/ops.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  Diag d;
  FzSink s;
  fz_diag(&d, &s);
  Graph *g = ts_parse_string("fuzz.txt", (const char *)data, size, &d);
  if (!g) {
    if (d.nerrors == 0) abort();
  } else {
    if (!ops_resolve(g, &d)) ir_verify(g, &d, "after parsing");
    ir_graph_free(g);
  }
  fz_sink_close(&s);
  return 0;
}
