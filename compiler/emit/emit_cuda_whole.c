/* emit_cuda_whole.c — --target cuda for a graph with run-time shapes (Dims, or results sized by
 * the data; docs/dynamic.md): the CUDA target's device code has every shape fixed at compile
 * time, so such a graph runs whole on the host. The .cu holds the C target's code for it
 * (emit_c with EmitOptions.embed, pasted as host C++ through cu_put_cxx) and a run function that
 * copies the bound inputs to the host staging, runs that code there, copies back the inputs it
 * mutated and packs each output compactly into the device arena. The model is made with
 * mc_cuda_model_new_dyn, so mc_set_input* take any extents within the bounds and mc_run reports
 * each run's output shapes, as the C target's dynamic models do; `mc inspect --target cuda`
 * lists every node as run on the host, with this reason.
 *
 * Memory: the host staging (ctx->host) is the C code's arena, then each input, then each output,
 * at the upper bounds; the device arena holds the outputs at the upper bounds. Prefix: cu_. */
#include "emit_cuda_int.h"

#include <stdlib.h>
#include <string.h>

static const char cu_whole_why[] = "run-time shapes: the whole graph runs on the host (the CUDA target's device code "
                                   "has shapes fixed at compile time)";

/* Tells o->on_host of every node that does work (nested blocks too). */
static void cu_whole_report(const EmitOptions *o, const Block *b, const char *why) {
  for (const Node *n = b->first; n; n = n->next) {
    if (ir_node_is(n, "prim::Constant") || ir_node_is(n, "prim::ListConstruct")) continue;
    if (n->nblocks == 0) o->on_host(o->on_host_ctx, n, why);
    for (int k = 0; k < n->nblocks; k++) cu_whole_report(o, n->blocks[k], why);
  }
}

/* The wrapper around NAME_run_dyn_ (the embedded C code): `arena` is the C code's arena. */
static void cu_whole_run(FILE *c, const char *name, int ni, int no, size_t arena) {
  fprintf(c, "\n/* ---- run: the C code above on the host, between copies ---- */\n"
             "static MCK_UNUSED int %s_cuda_fail_(char *err, const char *what, cudaError_t e) {\n"
             "  snprintf(err, 256, \"%%.80s: CUDA error: %%.120s\", what, cudaGetErrorString(e));\n  return -1;\n}\n", name);
  fprintf(c, "/* compact bytes of a tensor of d's shape, unrounded (a 0-d one: one element) */\n"
             "static size_t %s_io_bytes_(const mc_io_desc *d) {\n  size_t n = mck_dtype_size(d->dtype);\n"
             "  for (int k = 0; k < d->ndim; k++) n *= (size_t)d->shape[k];\n  return n;\n}\n", name);
  fprintf(c, "static int %s_run_(const mc_cuda_ctx *cx, void *const *in, void *arena, const void *weights, void **out, "
             "char *err) {\n  (void)cx;\n  (void)in;\n  (void)arena;\n  (void)weights;\n  (void)out;\n"
             "  snprintf(err, 256, \"this model has run-time shapes: create it with %s_create (mc_cuda_model_new_dyn)\");\n"
             "  return -1;\n}\n", name, name);
  fprintf(c, "static int %s_run_host_(const mc_cuda_ctx *cx, const mc_io_desc *ind, void *const *in, void *arena, "
             "const void *weights,\n                          void **out, mc_io_desc *outd, char *err) {\n", name);
  fprintf(c, "  cudaStream_t s_ = (cudaStream_t)cx->stream;\n  cudaError_t e_;\n  char *H_ = (char *)cx->host, *A_ = (char *)arena;\n"
             "  void *hin_[%d] = {NULL}, *hout_[%d] = {NULL};\n  size_t at_ = %zuu, dat_ = 0;\n  (void)weights;\n", ni ? ni : 1, no ? no : 1,
          (arena + 63) / 64 * 64);
  fprintf(c, "  for (int i = 0; i < %d; i++) { /* the inputs, as bound, to the host */\n"
             "    size_t b = %s_io_bytes_(&ind[i]);\n    hin_[i] = H_ + at_;\n"
             "    if (b && (e_ = cudaMemcpyAsync(hin_[i], in[i], b, cudaMemcpyDeviceToHost, s_)) != cudaSuccess)\n"
             "      return %s_cuda_fail_(err, \"copying the inputs to the host\", e_);\n"
             "    at_ += (%s_io_bytes_(&%s_inputs_[i]) + 63) / 64 * 64;\n  }\n", ni, name, name, name, name);
  fprintf(c, "  if ((e_ = cudaStreamSynchronize(s_)) != cudaSuccess) return %s_cuda_fail_(err, \"copying the inputs to the host\", e_);\n"
             "  int rc = %s_run_dyn_(ind, hin_, H_, hout_, outd, err);\n  if (rc) return rc;\n", name, name);
  fprintf(c, "  for (int i = 0; i < %d; i++) { /* what it wrote of the inputs, back */\n"
             "    size_t b = %s_io_bytes_(&ind[i]);\n"
             "    if (%s_inputs_[i].mutated && b && (e_ = cudaMemcpyAsync(in[i], hin_[i], b, cudaMemcpyHostToDevice, s_)) != cudaSuccess)\n"
             "      return %s_cuda_fail_(err, \"copying the inputs back to the device\", e_);\n  }\n", ni, name, name, name);
  fprintf(c, "  for (int k = 0; k < %d; k++) { /* each output packed compactly, to the device arena */\n"
             "    mc_io_desc *d = &outd[k];\n    size_t es = mck_dtype_size(d->dtype), b = %s_io_bytes_(d);\n"
             "    mck_tensor t;\n    memset(&t, 0, sizeof t);\n    t.data = hout_[k];\n    t.dtype = d->dtype;\n    t.ndim = d->ndim;\n"
             "    for (int j = 0; j < d->ndim; j++) {\n      t.shape[j] = d->shape[j];\n      t.stride[j] = d->strides[j];\n    }\n"
             "    mck_tensor p = t;\n    p.data = H_ + at_;\n    mck_contiguous_strides(&p);\n", no, name);
  fputs("    mck_iter it;\n    const int64_t *st_[2] = {p.stride, t.stride};\n    const int64_t off_[2] = {0, 0};\n"
        "    mck_iter_init(&it, t.ndim, t.shape, 2, st_, off_);\n"
        "    for (int64_t j = 0; j < it.total; j++, mck_iter_next(&it))\n"
        "      memcpy((char *)p.data + it.off[0] * (int64_t)es, (const char *)t.data + it.off[1] * (int64_t)es, es);\n"
        "    for (int j = 0; j < d->ndim; j++) d->strides[j] = p.stride[j];\n", c);
  fprintf(c, "    if (b && (e_ = cudaMemcpyAsync(A_ + dat_, p.data, b, cudaMemcpyHostToDevice, s_)) != cudaSuccess)\n"
             "      return %s_cuda_fail_(err, \"copying the outputs to the device\", e_);\n"
             "    out[k] = A_ + dat_;\n    size_t cap = (%s_io_bytes_(&%s_outputs_[k]) + 63) / 64 * 64;\n"
             "    at_ += cap;\n    dat_ += cap;\n  }\n  return 0;\n}\n\n", name, name, name);
}

int cu_emit_whole_host(Graph *g, const EmitOptions *o, FILE *c, FILE *h, Diag *d, const char *why) {
  const char *name = o->name;
  const Block *top = g->top;
  /* the C target's code for the graph, to paste */
  EmitEmbed emb;
  memset(&emb, 0, sizeof emb);
  EmitOptions co = *o;
  co.embed = &emb;
  co.on_host = NULL;
  char *src = NULL, *hdr = NULL;
  size_t src_len = 0, hdr_len = 0;
  FILE *sf = open_memstream(&src, &src_len), *hf = open_memstream(&hdr, &hdr_len);
  if (!sf || !hf) {
    if (sf) fclose(sf);
    if (hf) fclose(hf);
    free(src);
    free(hdr);
    diag_error(d, g->loc, "out of memory");
    return 1;
  }
  int errs = emit_c(g, &co, sf, hf, d);
  fclose(sf);
  fclose(hf);
  free(hdr);
  if (errs) {
    free(src);
    return errs;
  }
  if (o->on_host) cu_whole_report(o, top, why ? why : cu_whole_why);
  cu_write_header(g, o, h, true);
  fprintf(c, "/* Generated by mc (CUDA target) from %s. Do not edit.\n"
             " * This graph runs on the host (%s): the C target's code, between copies\n"
             " * of its inputs and outputs (docs/cuda.md). Build: nvcc -c %s.cu (from the folder holding the\n"
             " * weights file, if any); link with libmcrt_cuda.a -lcublas -lcudart. Without a GPU:\n"
             " * c++ -std=c++17 -DMC_CUDA_EMULATE -x c++ -c %s.cu, linked with libmcrt_cuda_emu.a -lm -lpthread. */\n",
          emit_text_cm(o->source_name), why ? "the device code refuses it: mc inspect --target cuda says why" : "it has run-time shapes", name, name);
  fputs("#ifdef MC_CUDA_EMULATE\n#include \"mc_cuda_emu.h\"\n#else\n#include <cuda_runtime.h>\n#include <cublas_v2.h>\n#endif\n"
        "#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n\n", c);
  const char *bad_include = emit_text_include_ok(o->header_name);
  if (bad_include) {
    diag_error(d, (SrcLoc){o->header_name, 0, 0}, "this header name cannot be written in #include \"...\": %s", bad_include);
    free(src);
    return 1;
  }
  fprintf(c, "#include \"%s\"\n\n", o->header_name);
  if (o->build_id) cu_build_id_check(c, name, o);
  fputs("/* ---- the C target's code for this graph, as host C++ ---- */\n", c);
  cu_cxx_begin(c);
  cu_put_cxx(c, src, src_len);
  cu_cxx_end(c);
  free(src);
  cu_whole_run(c, name, top->nparams, top->nrets, emb.arena_bytes);
  size_t host = (emb.arena_bytes + 63) / 64 * 64 + emb.in_bytes + emb.out_bytes;
  fprintf(c, "extern \"C\" const mc_cuda_def %s_def = {\n  \"", name);
  for (const char *s = name; *s; s++) fputc(*s, c); /* an identifier (the driver checks --name) */
  fprintf(c, "\", %d, %d, %s_inputs_, %s_outputs_, %zu, NULL, 0, %s_run_, %zu\n};\n", top->nparams, top->nrets, name,
          name, emb.out_bytes, name, host);
  fprintf(c, "extern \"C\" const mc_cuda_dyn %s_dyn = {&%s_def, %d, %s_dims_, %s_run_host_};\n\n", name, name, emb.ndims,
          name, name);
  fprintf(c, "extern \"C\" mc_model *%s_create(void) {\n", name);
  if (emb.weights_file) fprintf(c, "  if (%s_weights_check_()) return NULL;\n", name);
  fprintf(c, "  return mc_cuda_model_new_dyn(&%s_dyn);\n}\n", name);
  return 0;
}
