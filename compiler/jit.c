/* jit.c — libtcc behind jit.h. See jit.h for the prelude, #line and layout-check scheme. */
#include "jit.h"

#include "mc_runtime.h"

#include <libtcc.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifndef JIT_TCC_LIB_PATH
#define JIT_TCC_LIB_PATH "/usr/lib/x86_64-linux-gnu/tcc" /* Debian's tcc: libtcc1.a, include/ */
#endif

struct Jit {
  TCCState *s;
};

/* The generated-code part of runtime/mc_runtime.h. */
static const char jit_prelude[] =
    "#include <stddef.h>\n"
    "#include <stdint.h>\n"
    "#define MC_MAX_DIMS 8\n"
    "typedef struct mc_model mc_model;\n"
    "typedef struct mc_io_desc {\n"
    "  const char *name; int dtype; int ndim; int64_t shape[MC_MAX_DIMS];\n"
    "  int64_t strides[MC_MAX_DIMS]; int mutated;\n"
    "} mc_io_desc;\n"
    "typedef struct mc_model_def {\n"
    "  const char *name; int num_inputs, num_outputs; const mc_io_desc *inputs;\n"
    "  const mc_io_desc *outputs; size_t arena_bytes;\n"
    "  int (*run)(void *const *in, void *arena, void **out, char *err);\n"
    "} mc_model_def;\n"
    "mc_model *mc_model_new(const mc_model_def *def);\n"
    "typedef struct mc_dim_desc { int input, axis; const char *name; int64_t min, max; } mc_dim_desc;\n"
    "typedef struct mc_model_dyn {\n"
    "  const mc_model_def *def; int num_dims; const mc_dim_desc *dims;\n"
    "  int (*run)(const mc_io_desc *in_desc, void *const *in, void *arena, void **out, mc_io_desc *out_desc,\n"
    "             char *err);\n"
    "} mc_model_dyn;\n"
    "mc_model *mc_model_new_dyn(const mc_model_dyn *dyn);\n";

#define JIT_LAYOUT(X)                                                                              \
  X(sizeof(mc_io_desc)) X(offsetof(mc_io_desc, dtype)) X(offsetof(mc_io_desc, ndim))               \
  X(offsetof(mc_io_desc, shape)) X(offsetof(mc_io_desc, strides)) X(offsetof(mc_io_desc, mutated))  \
  X(sizeof(mc_model_def)) X(offsetof(mc_model_def, num_inputs))                                    \
  X(offsetof(mc_model_def, num_outputs)) X(offsetof(mc_model_def, inputs))                         \
  X(offsetof(mc_model_def, outputs)) X(offsetof(mc_model_def, arena_bytes))                         \
  X(offsetof(mc_model_def, run)) X(MC_MAX_DIMS)                                                     \
  X(sizeof(mc_dim_desc)) X(offsetof(mc_dim_desc, name)) X(offsetof(mc_dim_desc, min))              \
  X(sizeof(mc_model_dyn)) X(offsetof(mc_model_dyn, dims)) X(offsetof(mc_model_dyn, run))
#define JIT_STR(e) #e ", "
#define JIT_VAL(e) (size_t)(e),
static const size_t jit_host_layout[] = {JIT_LAYOUT(JIT_VAL)};
#define JIT_NLAYOUT (sizeof jit_host_layout / sizeof jit_host_layout[0])

/* The kernels' scratch (k_thread.h: one static set under tcc, no thread-local storage) lives in
 * the JIT's memory: its blocks are freed through this before the code goes (jit_free), or they
 * would leak with it. Appended only when the tree-shaken kernels include the scratch. */
static const char jit_scratch_marker[] = "kconv_scratch_set *kconv_scratch_set_get(int make)";
static const char jit_scratch_release[] =
    "void mc_jit_release_(void) {\n"
    "  kconv_scratch_set *s = kconv_scratch_set_get(0);\n"
    "  for (int k = 0; s && k < KCONV_SCRATCH_SLOTS; k++) {\n"
    "    kconv_aligned_free(s->buf[k]);\n"
    "    s->buf[k] = NULL; s->raw[k] = NULL; s->cap[k] = 0;\n"
    "  }\n"
    "}\n";

typedef struct ErrSink {
  Diag *d;
} ErrSink;

static void jit_on_error(void *opaque, const char *msg) {
  ErrSink *e = opaque;
  FILE *out = e->d->out ? e->d->out : stderr;
  fprintf(out, "%s\n", msg);
  if (strstr(msg, "error:")) e->d->nerrors++;
  else if (strstr(msg, "warning:")) e->d->nwarnings++;
}

/* src with `#include "header"` replaced by the prelude and a #line back to the original. */
static char *jit_splice(const char *src, const char *header_name, const char *file_name) {
  char inc[512];
  snprintf(inc, sizeof inc, "#include \"%s\"\n", header_name);
  const char *at = NULL;
  for (const char *p = src; (p = strstr(p, inc)) != NULL; p++) {
    if (p == src || p[-1] == '\n') {
      at = p;
      break;
    }
  }
  int line = 1;
  for (const char *p = src; at && p < at; p++) line += *p == '\n';
  size_t pre = at ? (size_t)(at - src) : 0, skip = at ? strlen(inc) : 0;
  const char *rest = src + pre + skip;
  bool scratch = strstr(src, jit_scratch_marker) != NULL;
  size_t cap = strlen(src) + sizeof jit_prelude + sizeof jit_scratch_release + strlen(file_name) + 64 +
               64 * JIT_NLAYOUT;
  char *out = malloc(cap);
  if (!out) return NULL;
  size_t k = 0;
  k += (size_t)snprintf(out + k, cap - k, "%s#line 1 \"%s\"\n", jit_prelude, file_name);
  memcpy(out + k, src, pre);
  k += pre;
  k += (size_t)snprintf(out + k, cap - k, "#line %d \"%s\"\n", line + (at ? 1 : 0), file_name);
  size_t rl = strlen(rest);
  memcpy(out + k, rest, rl);
  k += rl;
  k += (size_t)snprintf(out + k, cap - k, "\nconst size_t mc_jit_layout_[] = {%s};\n", "" JIT_LAYOUT(JIT_STR));
  if (scratch) snprintf(out + k, cap - k, "%s", jit_scratch_release);
  return out;
}

Jit *jit_compile_model(const char *src, const char *header_name, const char *file_name, Diag *d) {
  char *code = jit_splice(src, header_name, file_name);
  TCCState *s = tcc_new();
  if (!code || !s) {
    diag_error(d, (SrcLoc){file_name, 0, 0}, "out of memory starting libtcc");
    free(code);
    if (s) tcc_delete(s);
    return NULL;
  }
  ErrSink sink = {d};
  int before = d->nerrors;
  tcc_set_error_func(s, &sink, jit_on_error);
  tcc_set_lib_path(s, JIT_TCC_LIB_PATH);
  tcc_set_options(s, "-w");
  tcc_set_output_type(s, TCC_OUTPUT_MEMORY);
  int rc = tcc_compile_string(s, code);
  free(code);
  if (rc == 0) tcc_add_library(s, "m");
  if (rc == 0) tcc_add_symbol(s, "mc_model_new", (const void *)mc_model_new);
  if (rc == 0) tcc_add_symbol(s, "mc_model_new_in", (const void *)mc_model_new_in);
  if (rc == 0) tcc_add_symbol(s, "mc_model_new_dyn", (const void *)mc_model_new_dyn);
  if (rc == 0) tcc_add_symbol(s, "mc_model_new_dyn_in", (const void *)mc_model_new_dyn_in);
  if (rc == 0) tcc_add_symbol(s, "mc_runtime_num_threads", (const void *)mc_runtime_num_threads);
  if (rc == 0) rc = tcc_relocate(s, TCC_RELOCATE_AUTO);
  if (rc != 0 || d->nerrors > before) {
    if (d->nerrors == before) diag_error(d, (SrcLoc){file_name, 0, 0}, "libtcc could not compile or link the generated C");
    tcc_delete(s);
    return NULL;
  }
  const size_t *lay = tcc_get_symbol(s, "mc_jit_layout_");
  if (!lay || memcmp(lay, jit_host_layout, sizeof jit_host_layout) != 0) {
    diag_error(d, (SrcLoc){file_name, 0, 0},
               "internal: the JIT prelude in compiler/jit.c no longer matches runtime/mc_runtime.h");
    tcc_delete(s);
    return NULL;
  }
  Jit *j = malloc(sizeof *j);
  if (!j) {
    tcc_delete(s);
    return NULL;
  }
  j->s = s;
  return j;
}

void *jit_symbol(Jit *j, const char *name) { return tcc_get_symbol(j->s, name); }

void jit_free(Jit *j) {
  if (!j) return;
  void (*release)(void) = (void (*)(void))tcc_get_symbol(j->s, "mc_jit_release_");
  if (release) release();
  tcc_delete(j->s);
  free(j);
}
