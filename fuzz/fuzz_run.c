/* fuzz_run.c — libFuzzer target: compile an accepted model and run it. Parse (JSON when the
 * input starts with '{' after blanks, TorchScript text otherwise) -> ops_resolve -> ir_verify ->
 * pm_run (default pipeline, verification after every pass) -> emit_c into memory streams -> the
 * reference interpreter runs the graph the pipeline produced (the graph model.c is generated
 * from) on deterministic inputs.
 *
 * Why the interpreter and not the generated C: code compiled at run time (libtcc, cc) is not
 * ASan-instrumented, so an out-of-bounds access in it goes unseen or crashes without a report.
 * The interpreter calls the same kernels (runtime/kernels/k_*.h) that model.c pastes in, and here
 * they are built with ASan and UBSan, so a kernel that reads or writes out of bounds, or hits UB
 * (overflow, a bad float-to-int conversion, a bad shift) for any model mc accepts, is a finding.
 *
 * Bounds per input: graphs whose tensors (any value in the final graph) exceed FZ_MAX_BYTES, or
 * whose inputs have unknown dtype/shape, are compiled but not run; the interpreter stops after
 * FZ_MAX_STEPS nodes (loops). A kernel or model error (prim::RaiseException, an index out of
 * range checked at run time) is a normal outcome; only sanitizer reports, crashes, leaks and
 * timeouts are findings. */
#include "emit/emit.h"
#include "frontend/json.h"
#include "frontend/ts.h"
#include "fuzz_common.h"
#include "interp/interp.h"
#include "ops/ops.h"
#include "passes/pass.h"

#include <string.h>

#define FZ_MAX_BYTES ((int64_t)1 << 20) /* per tensor value */
#define FZ_MAX_TOTAL ((int64_t)1 << 24) /* all tensor values of the graph together */
#define FZ_MAX_STEPS 20000

static uint64_t fz_rng(uint64_t *s) {
  uint64_t x = *s += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Bytes of a complete tensor type, or -1 when unknown or beyond the cap. */
static int64_t fz_type_bytes(const Type *t) {
  if (!t || t->kind != TY_TENSOR || !ir_type_is_complete_tensor(t)) return -1;
  int64_t n = (int64_t)ir_dtype_size(t->dtype);
  for (int i = 0; i < t->ndim; i++) {
    if (t->shape[i] < 0) return -1;
    if (t->shape[i] == 0) return 0;
    if (n > FZ_MAX_BYTES / t->shape[i]) return -1;
    n *= t->shape[i];
  }
  return n;
}

/* Every tensor value in b (recursively) within the caps; *total accumulates. */
static bool fz_small_block(const Block *b, int64_t *total) {
  for (const Node *n = b->first; n; n = n->next) {
    for (int k = 0; k < n->noutputs; k++) {
      const Type *t = n->outputs[k]->type;
      if (t && t->kind == TY_TENSOR) {
        int64_t nb = fz_type_bytes(t);
        if (nb < 0) return false;
        *total += nb;
        if (*total > FZ_MAX_TOTAL) return false;
      }
    }
    for (int k = 0; k < n->nblocks; k++)
      if (!fz_small_block(n->blocks[k], total)) return false;
  }
  return true;
}

static void fz_fill(IrTensor *x, uint64_t *seed) {
  int64_t n = 1;
  for (int i = 0; i < x->ndim; i++) n *= x->shape[i];
  size_t es = ir_dtype_size(x->dtype);
  unsigned char *p = x->data;
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = fz_rng(seed);
    switch (x->dtype) {
    case DT_F32: { float v = (float)((double)(r >> 11) * (4.0 / 9007199254740992.0) - 2.0); memcpy(p + i * es, &v, 4); break; }
    case DT_F64: { double v = (double)(r >> 11) * (4.0 / 9007199254740992.0) - 2.0; memcpy(p + i * es, &v, 8); break; }
    case DT_BOOL: p[i] = (unsigned char)(r & 1); break;
    case DT_I64: { int64_t v = (int64_t)(r % 4); memcpy(p + i * es, &v, 8); break; }
    case DT_I32: { int32_t v = (int32_t)(r % 4); memcpy(p + i * es, &v, 4); break; }
    case DT_U8: case DT_I8: p[i * es] = (unsigned char)(r % 4); break;
    default: break; /* f16, bf16, i16, complex...: zeros */
    }
  }
}

static void fz_interp(Graph *g, FILE *out) {
  int64_t total = 0;
  if (!fz_small_block(g->top, &total)) return;
  int first = g->has_self ? 1 : 0, n = g->top->nparams - first;
  if (n < 0 || n > 64) return;
  IrTensor *in[65] = {0};
  uint64_t seed = 0x6d632d66757a7a21ull;
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    const Type *t = g->top->params[first + i]->type;
    TypeKind tk = t ? t->kind : TY_ANY;
    if (tk == TY_INT || tk == TY_FLOAT || tk == TY_BOOL) {
      in[i] = interp_tensor_new(tk == TY_FLOAT ? DT_F64 : tk == TY_BOOL ? DT_BOOL : DT_I64, 0, NULL);
      int64_t v = 1 + (int64_t)(fz_rng(&seed) % 4);
      if (tk == TY_FLOAT) { double f = (double)v; memcpy(in[i]->data, &f, 8); }
      else if (tk == TY_BOOL) *(unsigned char *)in[i]->data = (unsigned char)(v & 1);
      else memcpy(in[i]->data, &v, 8);
      continue;
    }
    int64_t nb = fz_type_bytes(t);
    if (nb < 0 || (total += nb) > FZ_MAX_TOTAL) { ok = false; break; }
    in[i] = interp_tensor_new(t->dtype, t->ndim, t->shape);
    fz_fill(in[i], &seed);
  }
  if (ok) {
    Diag d;
    diag_init(&d);
    d.out = out;
    InterpOptions o = {0};
    o.print_out = out;
    o.max_steps = FZ_MAX_STEPS;
    IrTensor **outs = NULL;
    int nouts = 0;
    if (interp_run_opts(g, &o, in, n, &outs, &nouts, &d) == 0 && outs) interp_free_outputs(outs, nouts);
  }
  for (int i = 0; i < n; i++)
    if (in[i]) interp_tensor_free(in[i]);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size > 16384) return 0; /* small models only: bounded time per input */
  Diag d;
  FzSink s;
  fz_diag(&d, &s);
  bool emitted;
  Graph *g = fz_compile(data, size, &d, &s, &emitted);
  if (g && emitted) fz_interp(g, s.f);
  ir_graph_free(g);
  fz_sink_close(&s);
  return 0;
}
