/* cmd_run.c — `mc run MODEL [IN.npy ...] -o DIR`: try a model in one command. Reads in one
 * function: read the .npy inputs -> load -> pass pipeline -> emit C in memory -> compile with
 * libtcc (jit.c) -> bind inputs through the runtime API -> run -> write DIR/output_K.npy and
 * DIR/input_K.npy (inputs the model mutates in place). With --interp the reference interpreter
 * runs the graph as read instead of generated code.
 *
 * Invariants: nothing is written into DIR unless every step succeeded (files go to temporaries
 * that are renamed only at the end); every bad input names its file and what was expected.
 * Progress (each stage still running after the first second, one line each) goes to stderr
 * only when it is a terminal and -q is not given.
 */
#include "driver.h"

#include "emit/emit.h"
#include "interp/interp.h"
#include "jit.h"
#include "mc_runtime.h"
#include "npy.h"
#include "ops/ops.h"
#include "passes/pass.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

static void usage(FILE *f) {
  fputs("usage: mc run MODEL [IN.npy ...] -o DIR [options]\n"
        "\n"
        "Compiles MODEL in memory (libtcc), runs it on the .npy inputs (graph input order, the\n"
        "module's self excluded) and writes DIR/output_K.npy for every output K, and\n"
        "DIR/input_K.npy for every input K the model mutates in place (its final value).\n"
        "\n"
        "options:\n"
        "  -o DIR          output folder (created if missing)\n"
        "  --interp        run the graph as read with the reference interpreter instead\n"
        "  --passes LIST   comma-separated pipeline instead of the default\n"
        "  --verify-passes check every pass with the interpreter on random inputs (mc compile --help)\n"
        "  -q / -v         no progress / also print the model's inputs, outputs and arena\n"
        "  -h, --help      this help\n",
        f);
}

/* ---- progress: a SIGALRM tick that names each stage still running after the first second --- */
static volatile sig_atomic_t run_ticks;
static const char *volatile run_stage;
static const char *volatile run_shown;

static void run_put(char *buf, size_t *k, const char *s) {
  while (s && *s && *k < 150) buf[(*k)++] = *s++;
}

static void run_put_int(char *buf, size_t *k, int x) {
  char num[16];
  int n = 0;
  do num[n++] = (char)('0' + x % 10);
  while ((x /= 10) > 0 && n < 15);
  while (n && *k < 150) buf[(*k)++] = num[--n];
}

static void run_on_tick(int sig) {
  (void)sig;
  run_ticks++;
  const char *s = run_stage;
  if (s == run_shown) return;
  run_shown = s;
  char buf[160];
  size_t k = 0;
  run_put(buf, &k, "mc run: ");
  run_put(buf, &k, s);
  run_put(buf, &k, " (at ");
  run_put_int(buf, &k, run_ticks);
  run_put(buf, &k, "s)\n");
  ssize_t w = write(2, buf, k);
  (void)w;
}

static void progress_start(bool on) {
  if (!on) return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = run_on_tick;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{1, 0}, {1, 0}};
  setitimer(ITIMER_REAL, &it, NULL);
}

static void progress_stop(void) {
  struct itimerval it;
  memset(&it, 0, sizeof it);
  setitimer(ITIMER_REAL, &it, NULL);
  signal(SIGALRM, SIG_DFL);
  if (run_shown) fprintf(stderr, "mc run: done in about %ds\n", (int)run_ticks + 1);
}

/* ---- dtypes between mc and DLPack --------------------------------------------------------- */
static DLDataType dl_of(DType t) {
  DLDataType d = {kDLFloat, 32, 1};
  switch (t) {
  case DT_F32: break;
  case DT_F64: d.bits = 64; break;
  case DT_F16: d.bits = 16; break;
  case DT_BF16: d.code = kDLBfloat; d.bits = 16; break;
  case DT_I64: d.code = kDLInt; d.bits = 64; break;
  case DT_I32: d.code = kDLInt; break;
  case DT_I16: d.code = kDLInt; d.bits = 16; break;
  case DT_I8: d.code = kDLInt; d.bits = 8; break;
  default: d.code = kDLUInt; d.bits = 8; break; /* uint8, bool */
  }
  return d;
}

static DLTensor dl_tensor(void *data, DType t, int ndim, int64_t *shape) {
  DLTensor x;
  memset(&x, 0, sizeof x);
  x.data = data;
  x.device.device_type = kDLCPU;
  x.ndim = ndim;
  x.dtype = dl_of(t);
  x.shape = shape;
  return x;
}

/* ---- results ------------------------------------------------------------------------------ */
typedef struct Result {
  char name[32];     /* "output_0.npy" */
  DType dtype;
  int ndim;
  int64_t shape[IR_MAX_DIMS];
  void *data;
} Result;

typedef struct Run {
  const char *model, *dir;
  int nin;
  const char **in_paths;
  NpyArray *in;
  Result *res;
  int nres;
  Diag *d;
  int verbose;
} Run;

static Result *add_result(Run *r, const char *kind, int k, DType dt, int ndim, const int64_t *shape) {
  Result *x = &r->res[r->nres++];
  memset(x, 0, sizeof *x);
  snprintf(x->name, sizeof x->name, "%s_%d.npy", kind, k);
  x->dtype = dt;
  x->ndim = ndim;
  size_t n = ir_dtype_size(dt);
  for (int i = 0; i < ndim; i++) {
    x->shape[i] = shape[i];
    n *= (size_t)shape[i];
  }
  x->data = malloc(n ? n : 1);
  if (!x->data) diag_error(r->d, (SrcLoc){r->model, 0, 0}, "out of memory (%zu bytes for %s)", n, x->name);
  return x->data ? x : NULL;
}

/* Checks .npy input i against what the model expects; reports "FILE: error: ..." */
static bool check_input(Run *r, int i, const char *name, DType dt, int ndim, const int64_t *shape) {
  const NpyArray *a = &r->in[i];
  bool ok = a->dtype == dt && a->ndim == ndim;
  for (int k = 0; ok && k < ndim; k++) ok = shape[k] < 0 || a->shape[k] == shape[k];
  if (ok) return true;
  char want[256], got[256];
  npy_describe(want, sizeof want, dt, ndim, shape);
  npy_describe(got, sizeof got, a->dtype, a->ndim, a->shape);
  diag_error(r->d, (SrcLoc){r->in_paths[i], 0, 0}, "input %d (%%%s) of %s expects %s; the file holds %s", i, name,
             r->model, want, got);
  return false;
}

static bool check_count(Run *r, int want) {
  if (r->nin == want) return true;
  diag_error(r->d, (SrcLoc){r->model, 0, 0}, "the model takes %d input%s (.npy files in graph input order), %d given",
             want, want == 1 ? "" : "s", r->nin);
  return false;
}

static bool write_results(Run *r) {
  if (mkdir(r->dir, 0777) != 0 && errno != EEXIST) {
    diag_error(r->d, (SrcLoc){r->dir, 0, 0}, "cannot create the output folder: %s", strerror(errno));
    return false;
  }
  OutFile *o = calloc((size_t)r->nres + 1, sizeof *o);
  bool ok = o != NULL;
  int opened = 0;
  for (int i = 0; ok && i < r->nres; i++) {
    const Result *x = &r->res[i];
    if (!npy_descr(x->dtype)) {
      diag_error(r->d, (SrcLoc){r->model, 0, 0}, "%s would be %s, which .npy cannot hold", x->name,
                 ir_dtype_name(x->dtype));
      ok = false;
      break;
    }
    size_t n = strlen(r->dir) + strlen(x->name) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s/%s", r->dir, x->name);
    ok = drv_out_open(&o[i], path, r->d);
    free(path);
    if (!ok) break;
    opened++;
    if (!npy_write(o[i].f, x->dtype, x->ndim, x->shape, x->data)) {
      diag_error(r->d, (SrcLoc){r->dir, 0, 0}, "error writing %s", x->name);
      ok = false;
    }
  }
  for (int i = 0; i < opened; i++) {
    if (ok) ok = drv_out_commit(&o[i], r->d);
    else drv_out_abort(&o[i]);
  }
  free(o);
  return ok;
}

/* ---- the compiled path -------------------------------------------------------------------- */
static char *stem_c(const char *model) {
  const char *b = strrchr(model, '/');
  b = b ? b + 1 : model;
  size_t n = strcspn(b, ".");
  char *s = malloc(n + 3);
  memcpy(s, b, n);
  strcpy(s + n, ".c");
  return s;
}

static void keep_source(Run *r, const char *src) {
  char path[] = "/tmp/mc-run-XXXXXX.c";
  int fd = mkstemps(path, 2);
  if (fd < 0) return;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    return;
  }
  fputs(src, f);
  fclose(f);
  diag_note(r->d, (SrcLoc){r->model, 0, 0}, "the generated C is kept in %s", path);
}

static bool run_verify_passes; /* --verify-passes */

static bool run_compiled(Run *r, Graph *g, const char *passes) {
  PmOptions pm = {0};
  pm.pipeline = passes;
  pm.verify_passes = run_verify_passes;
  pm.verify = true;
  pm.verbose = r->verbose > 1;
  run_stage = "running passes";
  if (pm_run(g, &pm, r->d)) return false;
  if (!check_count(r, g->top->nparams)) return false;

  run_stage = "generating C";
  char *src = NULL, *hdr = NULL;
  size_t srclen = 0, hdrlen = 0;
  FILE *cf = open_memstream(&src, &srclen), *hf = open_memstream(&hdr, &hdrlen);
  if (!cf || !hf) {
    if (cf) fclose(cf);
    if (hf) fclose(hf);
    diag_error(r->d, (SrcLoc){r->model, 0, 0}, "out of memory");
    return false;
  }
  const char *slash = strrchr(r->model, '/');
  EmitOptions eo;
  memset(&eo, 0, sizeof eo);
  eo.name = "model";
  eo.header_name = "model.h";
  eo.source_name = slash ? slash + 1 : r->model;
  int errs = emit_c(g, &eo, cf, hf, r->d);
  fclose(cf);
  fclose(hf);
  free(hdr);
  if (errs) {
    free(src);
    return false;
  }

  run_stage = "compiling C with libtcc";
  char *cname = stem_c(r->model);
  Jit *j = jit_compile_model(src, eo.header_name, cname, r->d);
  free(cname);
  if (!j) {
    keep_source(r, src);
    free(src);
    return false;
  }
  free(src);
  const mc_model_def *def = jit_symbol(j, "model_def");
  const mc_model_dyn *dyn = jit_symbol(j, "model_dyn"); /* dynamic shapes: sizes within the Dims' bounds */
  if (dyn) def = dyn->def;
  mc_model *m = dyn ? mc_model_new_dyn(dyn) : def ? mc_model_new(def) : NULL;
  bool ok = m != NULL;
  if (ok) {
    r->res = calloc((size_t)(def->num_outputs + def->num_inputs) + 1, sizeof *r->res);
    ok = r->res != NULL;
  }
  if (!ok) diag_error(r->d, (SrcLoc){r->model, 0, 0}, "internal: cannot instantiate the compiled model");
  if (ok && r->verbose > 1) {
    fprintf(stderr, "%s: %d inputs, %d outputs, arena %zu bytes\n", r->model, def->num_inputs, def->num_outputs,
            def->arena_bytes);
  }
  for (int i = 0; ok && i < r->nin; i++) {
    const mc_io_desc *in = &def->inputs[i];
    int64_t want[MC_MAX_DIMS]; /* a dynamic extent: any size, mc_set_input checks its bounds */
    for (int k = 0; k < in->ndim && k < MC_MAX_DIMS; k++) {
      int64_t lo = in->shape[k], hi = in->shape[k];
      mc_input_dim_bounds(m, i, k, &lo, &hi);
      want[k] = lo == hi ? in->shape[k] : -1;
    }
    ok = check_input(r, i, in->name, (DType)in->dtype, in->ndim, want);
    if (!ok) break;
    DLTensor t = dl_tensor(r->in[i].data, r->in[i].dtype, r->in[i].ndim, r->in[i].shape);
    if (mc_set_input(m, i, &t) != 0) {
      diag_error(r->d, (SrcLoc){r->in_paths[i], 0, 0}, "%s", mc_last_error(m));
      ok = false;
    }
  }
  run_stage = "running the model";
  if (ok && mc_run(m) != 0) {
    diag_error(r->d, (SrcLoc){r->model, 0, 0}, "the model failed: %s", mc_last_error(m));
    ok = false;
  }
  for (int k = 0; ok && k < def->num_outputs; k++) {
    const mc_io_desc *o = &def->outputs[k];
    const DLTensor *y = mc_get_output(m, k); /* this run's shape */
    Result *x = add_result(r, "output", k, (DType)o->dtype, o->ndim, y ? y->shape : o->shape);
    DLTensor t = dl_tensor(x ? x->data : NULL, (DType)o->dtype, o->ndim, x ? x->shape : NULL);
    if (!x || mc_copy_output(m, k, &t) != 0) {
      if (x) diag_error(r->d, (SrcLoc){r->model, 0, 0}, "output %d: %s", k, mc_last_error(m));
      ok = false;
    }
  }
  for (int i = 0; ok && i < def->num_inputs; i++) {
    if (mc_input_is_mutated(m, i) != 1) continue;
    const mc_io_desc *in = &def->inputs[i];
    Result *x = add_result(r, "input", i, (DType)in->dtype, in->ndim, i < r->nin ? r->in[i].shape : in->shape);
    DLTensor t = dl_tensor(x ? x->data : NULL, (DType)in->dtype, in->ndim, x ? x->shape : NULL);
    if (!x || mc_copy_input(m, i, &t) != 0) {
      if (x) diag_error(r->d, (SrcLoc){r->model, 0, 0}, "input %d: %s", i, mc_last_error(m));
      ok = false;
    }
  }
  if (m) mc_model_destroy(m);
  jit_free(j);
  return ok;
}

/* ---- the interpreted path ----------------------------------------------------------------- */
/* Graph input index (self excluded) that v is, or a view/in-place result of; -1 if none. */
static int input_root(const Graph *g, const Value *v) {
  for (int guard = 0; v && guard < 100000; guard++) {
    if (!v->def) {
      if (v->param_of != g->top) return -1;
      return v->index - (g->has_self ? 1 : 0);
    }
    v = infer_alias_source(v);
  }
  return -1;
}

static void mark_written_inputs(const Graph *g, const Block *b, bool *mut, int n) {
  for (const Node *nd = b->first; nd; nd = nd->next) {
    for (int j = 0; j < nd->nblocks; j++) mark_written_inputs(g, nd->blocks[j], mut, n);
    const OpDef *op = nd->op ? nd->op : ops_lookup(nd->kind);
    if (!op || op->effect != EFF_WRITE || op->effect_arg >= nd->ninputs) continue;
    int k = input_root(g, nd->inputs[op->effect_arg]);
    if (k >= 0 && k < n) mut[k] = true;
  }
}

/* Which inputs the compiled model would mutate: the pipeline's writes into inputs (the
 * write-backs, and writes inside blocks, which keep reference semantics). */
static bool mutated_inputs(Run *r, const char *passes, bool *mut, int n) {
  Loaded m;
  if (!drv_load(r->model, r->d, &m)) return false;
  PmOptions pm = {0};
  pm.pipeline = passes;
  pm.verify = true;
  pm.verify_passes = run_verify_passes;
  bool ok = pm_run(m.g, &pm, r->d) == 0;
  if (ok) mark_written_inputs(m.g, m.g->top, mut, n);
  ir_graph_free(m.g);
  return ok;
}

static bool run_interp(Run *r, Graph *g, const char *passes) {
  int first = g->has_self ? 1 : 0, n = g->top->nparams - first;
  if (!check_count(r, n)) return false;
  bool *mut = calloc((size_t)n + 1, sizeof *mut);
  IrTensor *ts = calloc((size_t)n + 1, sizeof *ts);
  IrTensor **tp = calloc((size_t)n + 1, sizeof *tp);
  bool ok = mut && ts && tp;
  for (int i = 0; ok && i < n; i++) {
    const Value *v = g->top->params[first + i];
    const Type *t = v->type;
    if (t->kind == TY_TENSOR && t->dtype != DT_UNDEF && t->ndim >= 0 && t->ndim <= IR_MAX_DIMS) {
      int64_t want[IR_MAX_DIMS]; /* an extent that follows a Dim: any size (the interpreter checks its bounds) */
      for (int k = 0; k < t->ndim; k++) {
        want[k] = t->shape[k];
        for (int j = 0; j < g->ndims; j++)
          if (g->dims[j].value == v && g->dims[j].axis == k) want[k] = -1;
      }
      ok = check_input(r, i, v->name, t->dtype, t->ndim, want);
    }
    ts[i].dtype = r->in[i].dtype;
    ts[i].ndim = r->in[i].ndim;
    memcpy(ts[i].shape, r->in[i].shape, sizeof ts[i].shape);
    ts[i].data = r->in[i].data;
    ts[i].nbytes = r->in[i].nbytes;
    tp[i] = &ts[i];
  }
  run_stage = "running passes (to find mutated inputs)";
  if (ok) ok = mutated_inputs(r, passes, mut, n);
  IrTensor **outs = NULL;
  int nouts = 0;
  run_stage = "interpreting";
  if (ok) ok = interp_run(g, tp, n, &outs, &nouts, r->d) == 0;
  if (ok) {
    Result *res = realloc(r->res, ((size_t)nouts + (size_t)n + 1) * sizeof *res);
    ok = res != NULL;
    if (ok) r->res = res;
  }
  for (int k = 0; ok && k < nouts; k++) {
    Result *x = add_result(r, "output", k, outs[k]->dtype, outs[k]->ndim, outs[k]->shape);
    if (x) memcpy(x->data, outs[k]->data, outs[k]->nbytes);
    ok = x != NULL;
  }
  for (int i = 0; ok && i < n; i++) {
    if (!mut[i]) continue;
    Result *x = add_result(r, "input", i, ts[i].dtype, ts[i].ndim, ts[i].shape);
    if (x) memcpy(x->data, ts[i].data, ts[i].nbytes);
    ok = x != NULL;
  }
  if (outs) interp_free_outputs(outs, nouts);
  free(mut);
  free(ts);
  free(tp);
  return ok;
}

int cmd_run(int argc, char **argv) {
  const char *model = NULL, *dir = NULL, *passes = NULL;
  bool interp = false;
  int verbose = 1;
  const char **ins = calloc((size_t)argc + 1, sizeof *ins);
  int nin = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      free(ins);
      return EXIT_OK;
    } else if (!strcmp(a, "-o") && i + 1 < argc) {
      dir = argv[++i];
    } else if (!strcmp(a, "--passes") && i + 1 < argc) {
      passes = argv[++i];
    } else if (!strncmp(a, "--passes=", 9)) {
      passes = a + 9;
    } else if (!strcmp(a, "--interp")) {
      interp = true;
    } else if (!strcmp(a, "--verify-passes")) {
      run_verify_passes = true;
    } else if (!strcmp(a, "-q")) {
      verbose = 0;
    } else if (!strcmp(a, "-v")) {
      verbose = 2;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "mc run: unknown or incomplete option '%s' (see mc run --help)\n", a);
      free(ins);
      return EXIT_USAGE;
    } else if (!model) {
      model = a;
    } else {
      ins[nin++] = a;
    }
  }
  if (!model || !dir) {
    fprintf(stderr, "mc run: %s\n", !model ? "no MODEL given" : "no output folder given (-o DIR)");
    usage(stderr);
    free(ins);
    return EXIT_USAGE;
  }
  char perr[256];
  if (passes && !pm_check_pipeline(passes, perr, sizeof perr)) {
    fprintf(stderr, "mc run: --passes: %s\n", perr);
    free(ins);
    return EXIT_USAGE;
  }
  Diag d;
  diag_init(&d);
  Run r = {model, dir, nin, ins, calloc((size_t)nin + 1, sizeof(NpyArray)), NULL, 0, &d, verbose};
  bool ok = r.in != NULL;
  for (int i = 0; ok && i < nin; i++) {
    char err[512];
    if (!npy_read(ins[i], &r.in[i], err, sizeof err)) {
      diag_error(&d, (SrcLoc){ins[i], 0, 0}, "%s", err);
      ok = false;
    }
    drv_note_input(ins[i]); /* no result may be written over it */
  }
  progress_start(ok && verbose > 0 && isatty(2));
  Loaded m = {0};
  run_stage = "loading the model";
  if (ok) ok = drv_load(model, &d, &m);
  if (ok) ok = interp ? run_interp(&r, m.g, passes) : run_compiled(&r, m.g, passes);
  run_stage = "writing results";
  if (ok) ok = write_results(&r);
  progress_stop();
  if (m.g) ir_graph_free(m.g);
  for (int i = 0; r.in && i < nin; i++) npy_free(&r.in[i]);
  for (int i = 0; i < r.nres; i++) free(r.res[i].data);
  free(r.res);
  free(r.in);
  free(ins);
  return ok ? EXIT_OK : EXIT_REJECTED;
}
