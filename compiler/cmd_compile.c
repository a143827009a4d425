/* cmd_compile.c — `mc compile MODEL -o OUT.c`: the main job, read in one function:
 * load (frontend) -> verify -> pass pipeline -> emit -> write atomically (C file, header,
 * depfile). */
#include "driver.h"

#include "emit/emit.h"
#include "emit/emit_text.h"
#include "ir/file.h"
#include "ops/ops.h"
#include "passes/pass.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fputs("usage: mc compile MODEL -o OUT.c [options]\n"
        "\n"
        "Compiles a graph dump (MODEL: graph JSON from mc_export, or a TorchScript text dump) into\n"
        "one self-contained C source file plus a header OUT.h that links with libmcrt.a.\n"
        "\n"
        "options:\n"
        "  -o FILE            output source ('-' = stdout); the header is FILE with .h\n"
        "  --target c|cuda    c (default): portable C11; cuda: a .cu file for nvcc\n"
        "  --name NAME        C identifier prefix (default: the output file's stem)\n"
        "  --dump-ir[=WHEN]   print the IR to stderr before the pipeline and after every pass;\n"
        "                     WHEN = before | after | PASS (only around that pass)\n"
        "  --passes LIST      comma-separated pipeline instead of the default\n"
        "  --verify-passes    run the interpreter on random inputs before the pipeline and after\n"
        "                     each pass; an error names the first pass that changed an output or\n"
        "                     an input's final value\n"
        "  --weights MODE     auto (default): constant tensors of 64 KiB or more go to OUT.weights,\n"
        "                     pulled in by the assembler (.incbin; cc -c from OUT's folder or pass\n"
        "                     -Wa,-I<folder>); inline: every constant as C data; blob: all to OUT.weights\n"
        "  --max-arena BYTES  refuse a model whose arena, or any one input or intermediate tensor,\n"
        "                     needs more (suffixes K, M, G; default 16G)\n"
        "  --max-input-bytes BYTES  refuse a model whose files (model and weights together) have\n"
        "                     more bytes (suffixes K, M, G; default 2G); a model file itself\n"
        "                     (JSON or TorchScript text, weights apart) may have at most 256M\n"
        "  -MD                write a depfile OUT.d naming every file read\n"
        "  -MF FILE           write the depfile to FILE\n"
        "  -q / -v            quieter / more verbose\n"
        "  -h, --help         this help\n"
        "\npasses (default pipeline: ",
        f);
  fputs(pm_default_pipeline(), f);
  fputs("):\n", f);
  for (int i = 0; i < pm_npasses(); i++) fprintf(f, "  %-16s %s\n", pm_pass(i)->name, pm_pass(i)->summary);
}

static char *replace_ext(const char *path, const char *ext) {
  const char *slash = strrchr(path, '/');
  const char *dot = strrchr(path, '.');
  size_t stem = (dot && (!slash || dot > slash)) ? (size_t)(dot - path) : strlen(path);
  char *s = malloc(stem + strlen(ext) + 1);
  if (!s) return NULL;
  memcpy(s, path, stem);
  strcpy(s + stem, ext);
  return s;
}

static char *default_name(const char *out) {
  const char *base = strrchr(out, '/');
  base = base ? base + 1 : out;
  char *s = malloc(strlen(base) + 2);
  if (!s) return NULL;
  size_t j = 0;
  if (!isalpha((unsigned char)base[0]) && base[0] != '_') s[j++] = '_';
  for (size_t i = 0; base[i] && base[i] != '.'; i++) s[j++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
  s[j] = 0;
  if (strcmp(s, "_") == 0 || !*s) strcpy(s, "model");
  return s;
}

/* "4096", "64K", "16G" -> bytes; 0 on a malformed or zero size. */
static size_t parse_size(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  int shift = 0;
  if (*end == 'K' || *end == 'k') shift = 10;
  else if (*end == 'M' || *end == 'm') shift = 20;
  else if (*end == 'G' || *end == 'g') shift = 30;
  if (shift) end++;
  if (end == s || *end || !isdigit((unsigned char)*s) || v > (SIZE_MAX >> shift)) return 0;
  return (size_t)v << shift;
}

/* Whether the model computes anything observable: an output, or a write into an input. */
static bool drv_has_effect(const Graph *g) {
  if (g->top->nrets > 0) return true;
  for (const Node *n = g->top->first; n; n = n->next)
    if (!ir_node_is(n, "prim::Constant") && !ir_node_is(n, "prim::ListConstruct")) return true;
  return false;
}

static bool valid_ident(const char *s) {
  if (!*s || (!isalpha((unsigned char)*s) && *s != '_')) return false;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_') return false;
  return true;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static void put_dep_path(FILE *f, const char *p) {
  for (; *p; p++) {
    if (*p == ' ' || *p == '#') fputc('\\', f);
    if (*p == '$') fputc('$', f);
    fputc(*p, f);
  }
}

/* Whether two output paths name one file: the same text, the same existing file, or the same
 * name in the same folder (spelt differently). */
static bool same_output(const char *a, const char *b) {
  if (!strcmp(a, b) || file_same(a, b)) return true;
  if (strcmp(base_name(a), base_name(b))) return false;
  char da[PATH_MAX], db[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];
  snprintf(da, sizeof da, "%.*s", (int)(base_name(a) - a), a);
  snprintf(db, sizeof db, "%.*s", (int)(base_name(b) - b), b);
  return realpath(*da ? da : ".", ra) && realpath(*db ? db : ".", rb) && !strcmp(ra, rb);
}

/* Usage errors of the output names: two outputs on one file, or a header name that cannot be
 * written in #include "..." (emit_text.h). */
static bool outputs_usable(const char *const outs[4], const char *hpath) {
  static const char *const what[4] = {"the C file", "the header", "the weights file", "the depfile"};
  for (int i = 0; i < 4; i++)
    for (int k = i + 1; k < 4; k++)
      if (outs[i] && outs[k] && same_output(outs[i], outs[k])) {
        fprintf(stderr, "mc compile: %s and %s would both be '%s'\n", what[i], what[k], outs[k]);
        return false;
      }
  const char *bad = hpath ? emit_text_include_ok(base_name(hpath)) : NULL;
  if (bad) {
    fprintf(stderr, "mc compile: -o: the header's name cannot be written in #include \"...\": %s\n", bad);
    return false;
  }
  return true;
}

/* A depfile is make syntax: a newline in a path cannot be written there. */
static bool deps_writable(const Loaded *m, const char *out, Diag *d) {
  for (int i = -1; i < m->ndeps; i++) {
    const char *p = i < 0 ? out : m->deps[i];
    if (strchr(p, '\n')) {
      diag_error(d, (SrcLoc){p, 0, 0}, "a path with a newline cannot be written in a depfile (-MD, -MF)");
      return false;
    }
  }
  return true;
}

/* The build id (EmitOptions.build_id): a hash of everything the outputs are made of, the bytes
 * of every file read, the options and this mc (its version and the kernels it pastes in, which
 * also lay out prepacked weights), so it is deterministic and changes with any of them. */
static void make_build_id(char id[17], const Loaded *m, const char *target, const char *name, const char *passes,
                          const char *weights, size_t max_arena, const char *model, const char *hpath,
                          const char *wpath) {
  uint64_t h = FILE_HASH_INIT;
  const char *parts[] = {MC_VERSION, target, name, passes ? passes : "", weights, base_name(model),
                         hpath ? base_name(hpath) : "", wpath ? base_name(wpath) : ""};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) file_hash_bytes(&h, parts[i], strlen(parts[i]) + 1);
  file_hash_bytes(&h, &max_arena, sizeof max_arena);
  for (int i = 0; i < mc_kernel_nsources; i++) {
    uint64_t kh = FILE_HASH_INIT;
    file_hash_bytes(&kh, mc_kernel_sources[i].text, strlen(mc_kernel_sources[i].text));
    file_hash_bytes(&h, &kh, sizeof kh);
  }
  for (int i = 0; i < m->ndeps; i++) {
    uint64_t fh = FILE_HASH_INIT;
    if (!file_hash(m->deps[i], &fh)) fh = 0;
    file_hash_bytes(&h, &fh, sizeof fh);
  }
  snprintf(id, 17, "%016llx", (unsigned long long)h);
}

int cmd_compile(int argc, char **argv) {
  const char *model = NULL, *out = NULL, *target = "c", *name = NULL, *passes = NULL, *mf = NULL;
  bool md = false;
  const char *weights = "auto";
  size_t max_arena = 0;
  int verbose = 1;
  PmOptions pm = {0};
  pm.verify = true;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return EXIT_OK;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      out = argv[++i];
    } else if (!strcmp(a, "--target") && i + 1 < argc) {
      target = argv[++i];
    } else if (!strncmp(a, "--target=", 9)) {
      target = a + 9;
    } else if (!strcmp(a, "--name") && i + 1 < argc) {
      name = argv[++i];
    } else if (!strncmp(a, "--name=", 7)) {
      name = a + 7;
    } else if (!strcmp(a, "--passes") && i + 1 < argc) {
      passes = argv[++i];
    } else if (!strncmp(a, "--passes=", 9)) {
      passes = a + 9;
    } else if (!strcmp(a, "--verify-passes")) {
      pm.verify_passes = true;
    } else if (!strcmp(a, "--dump-ir")) {
      pm.dump = DUMP_ALL;
    } else if (!strncmp(a, "--dump-ir=", 10)) {
      const char *w = a + 10;
      if (!strcmp(w, "before")) pm.dump = DUMP_BEFORE;
      else if (!strcmp(w, "after")) pm.dump = DUMP_AFTER;
      else if (pm_find(w)) {
        pm.dump = DUMP_PASS;
        pm.dump_pass = w;
      } else {
        fprintf(stderr, "mc compile: --dump-ir=%s: expected before, after or a pass name\n", w);
        return EXIT_USAGE;
      }
    } else if (!strcmp(a, "--weights") && i + 1 < argc) {
      weights = argv[++i];
    } else if (!strncmp(a, "--weights=", 10)) {
      weights = a + 10;
    } else if ((!strcmp(a, "--max-arena") && i + 1 < argc) || !strncmp(a, "--max-arena=", 12)) {
      const char *v = a[11] == '=' ? a + 12 : argv[++i];
      if (!(max_arena = parse_size(v))) {
        fprintf(stderr, "mc compile: --max-arena: '%s' is not a size (BYTES, or with K, M, G)\n", v);
        return EXIT_USAGE;
      }
    } else if ((!strcmp(a, "--max-input-bytes") && i + 1 < argc) || !strncmp(a, "--max-input-bytes=", 18)) {
      const char *v = a[17] == '=' ? a + 18 : argv[++i];
      size_t lim = parse_size(v);
      if (!lim) {
        fprintf(stderr, "mc compile: --max-input-bytes: '%s' is not a size (BYTES, or with K, M, G)\n", v);
        return EXIT_USAGE;
      }
      file_limit_set(lim);
    } else if (!strcmp(a, "-MD")) {
      md = true;
    } else if (!strcmp(a, "-MF") && i + 1 < argc) {
      mf = argv[++i];
    } else if (!strcmp(a, "-q")) {
      verbose = 0;
    } else if (!strcmp(a, "-v")) {
      verbose = 2;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "mc compile: unknown or incomplete option '%s' (see mc compile --help)\n", a);
      return EXIT_USAGE;
    } else if (!model) {
      model = a;
    } else {
      fprintf(stderr, "mc compile: more than one MODEL given ('%s' and '%s')\n", model, a);
      return EXIT_USAGE;
    }
  }
  if (!model || !out) {
    fprintf(stderr, "mc compile: %s\n", !model ? "no MODEL given" : "no output given (-o OUT.c)");
    usage(stderr);
    return EXIT_USAGE;
  }
  if (strcmp(target, "c") != 0 && strcmp(target, "cuda") != 0) {
    fprintf(stderr, "mc compile: --target must be c or cuda, not '%s'\n", target);
    return EXIT_USAGE;
  }
  if (name && !valid_ident(name)) {
    fprintf(stderr, "mc compile: --name '%s' is not a C identifier\n", name);
    return EXIT_USAGE;
  }
  if (strcmp(weights, "auto") && strcmp(weights, "inline") && strcmp(weights, "blob")) {
    fprintf(stderr, "mc compile: --weights must be auto, inline or blob, not '%s'\n", weights);
    return EXIT_USAGE;
  }
  char perr[256];
  if (passes && !pm_check_pipeline(passes, perr, sizeof perr)) {
    fprintf(stderr, "mc compile: --passes: %s\n", perr);
    return EXIT_USAGE;
  }
  pm.pipeline = passes ? passes : !strcmp(target, "cuda") ? pm_cuda_pipeline() : NULL;
  pm.verbose = verbose;

  char *own_name = name ? NULL : default_name(strcmp(out, "-") ? out : "model");
  char *hpath = strcmp(out, "-") ? replace_ext(out, ".h") : NULL;
  char *dpath = mf ? strdup(mf) : md && strcmp(out, "-") ? replace_ext(out, ".d") : NULL;
  char *wpath = strcmp(out, "-") && strcmp(weights, "inline") ? replace_ext(out, ".weights") : NULL;
  const char *outs[4] = {strcmp(out, "-") ? out : NULL, hpath, wpath, dpath};
  if (!outputs_usable(outs, hpath)) {
    free(own_name);
    free(hpath);
    free(dpath);
    free(wpath);
    return EXIT_USAGE;
  }
  Diag d;
  diag_init(&d);
  Loaded m;
  int status = EXIT_REJECTED;
  OutFile oc = {0}, oh = {0}, od = {0}, ow = {0};
  FILE *hnull = NULL;
  Graph *g = NULL;
  bool h_committed = false;
  if (!drv_load(model, &d, &m)) goto done;
  g = m.g;
  /* refused now rather than after the pipeline: an output that is an input or not a file */
  for (int i = 0; i < 4; i++)
    if (outs[i] && !drv_out_allowed(outs[i], &d)) goto done;
  if (dpath && !deps_writable(&m, out, &d)) goto done;
  char build_id[17];
  make_build_id(build_id, &m, target, name ? name : own_name, passes, weights, max_arena, model, hpath, wpath);
  if (pm_run(g, &pm, &d)) goto done;
  if (!drv_has_effect(g)) {
    diag_error(&d, g->top->loc.line ? g->top->loc : g->loc.line ? g->loc : (SrcLoc){g->path, 1, 1},
               "the graph returns nothing and writes no input: there is nothing to compile");
    goto done;
  }
  if (!drv_out_open(&oc, out, &d)) goto done;
  if (hpath) {
    if (!drv_out_open(&oh, hpath, &d)) goto fail;
  } else {
    hnull = fopen("/dev/null", "w");
  }
  if (wpath && !drv_out_open(&ow, wpath, &d)) goto fail;
  EmitOptions eo = {name ? name : own_name, hpath ? base_name(hpath) : "mc_runtime.h", base_name(model),
                    wpath ? ow.f : NULL, wpath ? base_name(wpath) : NULL, strcmp(weights, "blob") ? 65536 : 1, max_arena,
                    hpath ? build_id : NULL, NULL, NULL, NULL};
  if ((strcmp(target, "cuda") ? emit_c : emit_cuda)(g, &eo, oc.f, hpath ? oh.f : hnull, &d)) goto fail;
  bool blob_used = wpath && ftell(ow.f) > 0;
  if (dpath) {
    if (!drv_out_open(&od, dpath, &d)) goto fail;
    put_dep_path(od.f, out); /* the one target, as gcc does: ninja rejects outputs a rule does not declare */
    fputs(":", od.f);
    for (int i = 0; i < m.ndeps; i++) {
      fputc(' ', od.f);
      put_dep_path(od.f, m.deps[i]);
    }
    fputc('\n', od.f);
  }
  if (blob_used && !drv_out_commit(&ow, &d)) goto fail;
  if (wpath && !blob_used) {
    drv_out_abort(&ow);
    remove(wpath); /* a stale blob from an earlier compile would mislead */
  }
  if (hpath && !drv_out_commit(&oh, &d)) goto fail;
  h_committed = hpath != NULL;
  if (dpath && !drv_out_commit(&od, &d)) goto fail;
  if (!drv_out_commit(&oc, &d)) goto fail;
  status = EXIT_OK;
  goto done;
fail:
  drv_out_abort(&oc);
  drv_out_abort(&oh);
  drv_out_abort(&od);
  drv_out_abort(&ow);
  if (h_committed) remove(hpath); /* the .c was not replaced: no new header beside it */
done:
  if (hnull) fclose(hnull);
  free(own_name);
  free(hpath);
  free(dpath);
  free(wpath);
  if (g) ir_graph_free(g);
  return status;
}
