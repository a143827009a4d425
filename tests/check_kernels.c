/* check_kernels.c — every kernel against PyTorch, one Check test per case.
 *
 * Reads the case file named by $MC_KERNEL_CASES (written by tests/kernels/gen_kernels.py; the
 * format is in tests/kernels/kcase.py), and for each case: looks the op up with ops_lookup(),
 * runs its kernel in meta mode (dtype, shape and, for views, strides/offset must match
 * PyTorch's), again in meta mode with every scalar input MCK_UNKNOWN (it must not crash), then
 * for real on freshly allocated outputs, and compares values (per-case tolerance, NaN equals
 * NaN, ints and bools exact), the final values of mutated inputs, and that no other input
 * storage was written. A case PyTorch rejects (X) must make the kernel fail.
 *
 * $MC_KERNEL_OP=aten::add runs only the cases of one op (the others pass trivially).
 * CK_FORK stays on: a crashing kernel fails its case only. Under AddressSanitizer (where a fork
 * per case costs ~40 ms and ASan itself reports a crash with its cause) the default is no fork;
 * CK_FORK=yes forces it.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KC_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KC_ASAN 1
#endif

#define KC_MAXARGS 24
#define KC_MAXLIST 64

typedef struct KTen {
  int null;                  /* a None item of a tensor list */
  int sid;                   /* storage (inputs) or expected values (outputs) */
  int64_t off;
  int ndim;
  int64_t shape[MCK_MAX_DIMS], stride[MCK_MAX_DIMS];
  int alias_sid;             /* outputs: input storage PyTorch's result shares, or -1 */
  int64_t alias_off, alias_stride[MCK_MAX_DIMS];
} KTen;

typedef struct KArg {
  int kind; /* MCK_* */
  int n;
  int64_t i;
  double f;
  char *s;
  int64_t *ints;
  double *floats;
  KTen *ts; /* MCK_TENSOR: one; MCK_TENSORS: n */
} KArg;

typedef struct KStore {
  int dtype;
  int64_t n;
  void *bytes; /* n elements of dtype */
} KStore;

typedef struct KCase {
  char *op, *where;
  double tol;
  int expect_error;
  int nstore, nin, nout, nmut;
  KStore *st;
  KArg in[KC_MAXARGS], out[KC_MAXARGS];
  int mut_idx[KC_MAXARGS], mut_sid[KC_MAXARGS];
} KCase;

static KCase *kc_cases;
static int kc_ncases;
static const char *kc_only;

static void *kc_xalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) abort();
  return p;
}

static int kc_dtype(const char *s) {
  for (int d = 0; d < MCK_NDTYPES; d++)
    if (!strcmp(mck_dtype_name(d), s)) return d;
  return -1;
}

/* ---- parsing ----------------------------------------------------------------------------- */
typedef struct KLex {
  char *p;
  const char *file;
  int line;
} KLex;

static void kc_die(const KLex *lx, const char *what) {
  fprintf(stderr, "%s:%d: bad kernel case file: %s\n", lx->file, lx->line, what);
  exit(2);
}

/* Tokens are read with kc_next into a small buffer so line ends stay intact. */
static int kc_more(const KLex *lx) {
  const char *p = lx->p;
  while (*p == ' ') p++;
  return *p != '\n' && *p != 0;
}
static const char *kc_next(KLex *lx) {
  static char buf[4096];
  while (*lx->p == ' ') lx->p++;
  if (*lx->p == '\n' || *lx->p == 0) kc_die(lx, "line ends early");
  size_t n = 0;
  while (*lx->p != ' ' && *lx->p != '\n' && *lx->p) {
    if (n + 1 >= sizeof buf) kc_die(lx, "token too long");
    buf[n++] = *lx->p++;
  }
  buf[n] = 0;
  return buf;
}
static void kc_eol(KLex *lx) {
  while (*lx->p == ' ') lx->p++;
  if (*lx->p != '\n' && *lx->p != 0) kc_die(lx, "junk at end of line");
  if (*lx->p == '\n') lx->p++;
  lx->line++;
}
static int64_t kc_int(KLex *lx) {
  char *end;
  const char *t = kc_next(lx);
  long long v = strtoll(t, &end, 10);
  if (*end) kc_die(lx, "expected an integer");
  return v;
}
static double kc_float(KLex *lx) {
  char *end;
  const char *t = kc_next(lx);
  double v = strtod(t, &end);
  if (*end) kc_die(lx, "expected a number");
  return v;
}
static char *kc_str(KLex *lx) {
  const char *t = kc_next(lx);
  char *s = kc_xalloc(strlen(t) + 1), *o = s;
  for (const char *p = t; *p; p++) {
    unsigned v;
    if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%2x", &v) == 1) {
      *o++ = (char)v;
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  *o = 0;
  return s;
}

static void kc_shape(KLex *lx, KTen *t, int strides) {
  t->ndim = (int)kc_int(lx);
  if (t->ndim < 0 || t->ndim > MCK_MAX_DIMS) kc_die(lx, "bad rank");
  for (int d = 0; d < t->ndim; d++) t->shape[d] = kc_int(lx);
  if (strides)
    for (int d = 0; d < t->ndim; d++) t->stride[d] = kc_int(lx);
}

static void kc_tensor_in(KLex *lx, KTen *t, const char *first) {
  if (!strcmp(first, "-")) {
    t->null = 1;
    return;
  }
  t->sid = atoi(first);
  t->off = kc_int(lx);
  kc_shape(lx, t, 1);
  t->alias_sid = -1;
}

static void kc_tensor_out(KLex *lx, KTen *t, const char *first, int with_alias) {
  t->sid = atoi(first);
  kc_shape(lx, t, 0);
  t->alias_sid = -1;
  if (!with_alias) return;
  const char *a = kc_next(lx);
  if (!strcmp(a, "A")) {
    t->alias_sid = (int)kc_int(lx);
    t->alias_off = kc_int(lx);
    for (int d = 0; d < t->ndim; d++) t->alias_stride[d] = kc_int(lx);
  } else if (strcmp(a, "-")) {
    kc_die(lx, "expected A or -");
  }
}

static void kc_arg(KLex *lx, KArg *a, int is_out) {
  char tag[8];
  snprintf(tag, sizeof tag, "%s", kc_next(lx));
  if (!strcmp(tag, "T")) {
    a->kind = MCK_TENSOR;
    a->n = 1;
    a->ts = kc_xalloc(sizeof(KTen));
    char first[32];
    snprintf(first, sizeof first, "%s", kc_next(lx));
    if (is_out) kc_tensor_out(lx, a->ts, first, 1);
    else kc_tensor_in(lx, a->ts, first);
  } else if (!strcmp(tag, "TL")) {
    a->kind = MCK_TENSORS;
    a->n = (int)kc_int(lx);
    if (a->n < 0 || a->n > KC_MAXLIST) kc_die(lx, "tensor list too long");
    a->ts = kc_xalloc(sizeof(KTen) * (size_t)(a->n ? a->n : 1));
    for (int k = 0; k < a->n; k++) {
      char first[32];
      snprintf(first, sizeof first, "%s", kc_next(lx));
      if (is_out) kc_tensor_out(lx, &a->ts[k], first, 0);
      else kc_tensor_in(lx, &a->ts[k], first);
    }
  } else if (!strcmp(tag, "i")) {
    a->kind = MCK_INT;
    a->i = kc_int(lx);
  } else if (!strcmp(tag, "f")) {
    a->kind = MCK_FLOAT;
    a->f = kc_float(lx);
  } else if (!strcmp(tag, "b")) {
    a->kind = MCK_BOOL_ARG;
    a->i = kc_int(lx) != 0;
  } else if (!strcmp(tag, "n")) {
    a->kind = MCK_NONE;
  } else if (!strcmp(tag, "s") || !strcmp(tag, "d")) {
    a->kind = tag[0] == 's' ? MCK_STR : MCK_DEVICE;
    a->s = kc_str(lx);
  } else if (!strcmp(tag, "il") || !strcmp(tag, "bl")) {
    a->kind = tag[0] == 'i' ? MCK_INTS : MCK_BOOLS;
    a->n = (int)kc_int(lx);
    a->ints = kc_xalloc(sizeof(int64_t) * (size_t)(a->n + 1));
    for (int k = 0; k < a->n; k++) a->ints[k] = kc_int(lx);
  } else if (!strcmp(tag, "fl")) {
    a->kind = MCK_FLOATS;
    a->n = (int)kc_int(lx);
    a->floats = kc_xalloc(sizeof(double) * (size_t)(a->n + 1));
    for (int k = 0; k < a->n; k++) a->floats[k] = kc_float(lx);
  } else {
    kc_die(lx, "unknown argument tag");
  }
}

static void kc_storage(KLex *lx, KCase *c) {
  int sid = (int)kc_int(lx);
  if (sid != c->nstore || sid >= 64) kc_die(lx, "storages must be numbered in order (64 at most)");
  c->st = realloc(c->st, sizeof(KStore) * (size_t)(c->nstore + 1));
  if (!c->st) abort();
  KStore *s = &c->st[c->nstore++];
  s->dtype = kc_dtype(kc_next(lx));
  if (s->dtype < 0) kc_die(lx, "unknown dtype");
  s->n = kc_int(lx);
  s->bytes = kc_xalloc(mck_dtype_size(s->dtype) * (size_t)(s->n ? s->n : 1));
  mck_tensor t = {.data = s->bytes, .dtype = s->dtype};
  for (int64_t k = 0; k < s->n; k++) {
    if (mck_is_float(s->dtype)) mck_setf(&t, k, kc_float(lx));
    else mck_seti(&t, k, kc_int(lx));
  }
}

static char *kc_text; /* the case file, kept for the whole run (the cases point into it) */

static void kc_load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "check_kernels: cannot open %s (set MC_KERNEL_CASES)\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = kc_text = kc_xalloc((size_t)len + 2);
  if (fread(text, 1, (size_t)len, f) != (size_t)len) abort();
  fclose(f);
  KLex lx = {text, path, 1};
  int cap = 0;
  KCase *c = NULL;
  while (*lx.p) {
    char tag[8];
    snprintf(tag, sizeof tag, "%s", kc_next(&lx));
    if (!strcmp(tag, "case")) {
      if (kc_ncases == cap) {
        cap = cap ? cap * 2 : 256;
        kc_cases = realloc(kc_cases, sizeof(KCase) * (size_t)cap);
        if (!kc_cases) abort();
      }
      c = &kc_cases[kc_ncases++];
      memset(c, 0, sizeof *c);
      c->op = kc_str(&lx);
      c->tol = kc_float(&lx);
      c->where = kc_str(&lx);
    } else if (!c) {
      kc_die(&lx, "record outside a case");
    } else if (!strcmp(tag, "S")) {
      kc_storage(&lx, c);
    } else if (!strcmp(tag, "I") || !strcmp(tag, "O")) {
      int is_out = tag[0] == 'O';
      int *n = is_out ? &c->nout : &c->nin;
      if (*n >= KC_MAXARGS) kc_die(&lx, "too many arguments");
      kc_arg(&lx, is_out ? &c->out[*n] : &c->in[*n], is_out);
      ++*n;
    } else if (!strcmp(tag, "M")) {
      if (c->nmut >= KC_MAXARGS) kc_die(&lx, "too many mutated inputs");
      c->mut_idx[c->nmut] = (int)kc_int(&lx);
      c->mut_sid[c->nmut++] = (int)kc_int(&lx);
    } else if (!strcmp(tag, "X")) {
      c->expect_error = 1;
    } else if (!strcmp(tag, "E")) {
      c = NULL;
    } else {
      kc_die(&lx, "unknown record");
    }
    if (kc_more(&lx)) kc_die(&lx, "junk at end of line");
    kc_eol(&lx);
  }
  free(text);
}

/* ---- running one case -------------------------------------------------------------------- */
/* Everything a run allocates, freed at the end of the case (LeakSanitizer runs in the child). */
typedef struct KRun {
  void *allocs[512];
  int nallocs;
  mck_tensor tin[KC_MAXARGS][KC_MAXLIST], tout[KC_MAXARGS][KC_MAXLIST];
  mck_tensor *pin[KC_MAXARGS][KC_MAXLIST], *pout[KC_MAXARGS][KC_MAXLIST];
  mck_arg in[KC_MAXARGS], out[KC_MAXARGS];
  void *mem[64];   /* input storages, real mode */
} KRun;

static void *kr_alloc(KRun *r, size_t n) {
  if (r->nallocs == (int)(sizeof r->allocs / sizeof r->allocs[0])) abort();
  return r->allocs[r->nallocs++] = kc_xalloc(n);
}
static void kr_free(KRun *r) {
  for (int k = 0; k < r->nallocs; k++) free(r->allocs[k]);
  r->nallocs = 0;
}

static void kc_fill_tensor(mck_tensor *t, const KTen *k, void *mem) {
  memset(t, 0, sizeof *t);
  t->data = mem;
  t->offset = k->off;
  t->ndim = k->ndim;
  for (int d = 0; d < k->ndim; d++) {
    t->shape[d] = k->shape[d];
    t->stride[d] = k->stride[d];
  }
}

/* Builds the kernel's inputs; real: storages copied into fresh memory (kept in r->mem). */
static void kc_build_inputs(KRun *r, const KCase *c, int real, int unknown_scalars) {
  for (int s = 0; s < c->nstore && real; s++) {
    size_t sz = mck_dtype_size(c->st[s].dtype) * (size_t)c->st[s].n;
    r->mem[s] = kr_alloc(r, sz);
    memcpy(r->mem[s], c->st[s].bytes, sz);
  }
  for (int a = 0; a < c->nin; a++) {
    const KArg *k = &c->in[a];
    mck_arg *m = &r->in[a];
    memset(m, 0, sizeof *m);
    m->kind = k->kind;
    m->n = k->n;
    switch (k->kind) {
    case MCK_TENSOR:
    case MCK_TENSORS:
      for (int j = 0; j < k->n; j++) {
        const KTen *kt = &k->ts[j];
        if (kt->null) {
          r->pin[a][j] = NULL;
          continue;
        }
        kc_fill_tensor(&r->tin[a][j], kt, real ? r->mem[kt->sid] : NULL);
        r->tin[a][j].dtype = c->st[kt->sid].dtype;
        r->pin[a][j] = &r->tin[a][j];
      }
      if (k->kind == MCK_TENSOR) m->u.t = r->pin[a][0];
      else m->u.ts = r->pin[a];
      break;
    case MCK_INT:
    case MCK_BOOL_ARG: m->u.i = k->i; break;
    case MCK_FLOAT: m->u.f = k->f; break;
    case MCK_STR:
    case MCK_DEVICE: m->u.s = k->s; break;
    case MCK_INTS:
    case MCK_BOOLS: m->u.ints = k->ints; break;
    case MCK_FLOATS: m->u.floats = k->floats; break;
    default: break;
    }
    if (unknown_scalars && mck_arg_is_scalar(m)) {
      m->n = m->kind; /* the kind it will have, as the compiler knows from the static type */
      m->kind = MCK_UNKNOWN;
      m->u.i = INT64_MIN / 3; /* poison: a kernel must not use an unknown value */
    }
  }
}

/* Outputs as the caller prepares them: meta: empty descriptors; real: fresh contiguous memory
 * for the dtype/shape `like` (the meta results), filled with a pattern. */
static void kc_build_outputs(KRun *r, const KCase *c, const mck_arg *like) {
  for (int a = 0; a < c->nout; a++) {
    const KArg *k = &c->out[a];
    mck_arg *m = &r->out[a];
    memset(m, 0, sizeof *m);
    if (k->kind != MCK_TENSOR && k->kind != MCK_TENSORS) continue;
    m->kind = k->kind;
    m->n = k->n;
    for (int j = 0; j < k->n; j++) {
      mck_tensor *t = &r->tout[a][j];
      memset(t, 0, sizeof *t);
      r->pout[a][j] = t;
      if (like) {
        const mck_tensor *l = like[a].kind == MCK_TENSOR ? like[a].u.t : like[a].u.ts[j];
        mck_out_shape(t, l->dtype, l->ndim, l->shape);
        size_t sz = mck_dtype_size(t->dtype) * (size_t)mck_numel(t);
        t->data = kr_alloc(r, sz);
        memset(t->data, 0xa5, sz);
      }
    }
    if (k->kind == MCK_TENSOR) m->u.t = r->pout[a][0];
    else m->u.ts = r->pout[a];
  }
}

#define KC_FAIL(c, ...)                                                                          \
  do {                                                                                           \
    char kc_msg_[900];                                                                           \
    snprintf(kc_msg_, sizeof kc_msg_, __VA_ARGS__);                                              \
    ck_abort_msg("%s (%s): %s", (c)->op, (c)->where, kc_msg_);                                   \
  } while (0)

static void kc_shape_str(char *buf, size_t n, int ndim, const int64_t *shape) {
  size_t o = (size_t)snprintf(buf, n, "[");
  for (int d = 0; d < ndim && o < n; d++)
    o += (size_t)snprintf(buf + o, n - o, d ? ",%lld" : "%lld", (long long)shape[d]);
  if (o < n) snprintf(buf + o, n - o, "]");
}

/* dtype and shape of a kernel's tensor output against the expected one. */
/* bound: a meta result whose size depends on the data (ctx.sized_by_data): its shape is a bound,
 * each extent at least PyTorch's. */
static void kc_check_meta_tensor(const KCase *c, const char *what, const mck_tensor *t,
                                 const KTen *e, int bound) {
  int edt = c->st[e->sid].dtype;
  char got[128], want[128];
  kc_shape_str(got, sizeof got, t->ndim, t->shape);
  kc_shape_str(want, sizeof want, e->ndim, e->shape);
  int shape_ok = t->ndim == e->ndim;
  for (int d = 0; shape_ok && d < e->ndim; d++) shape_ok = bound ? t->shape[d] >= e->shape[d] : t->shape[d] == e->shape[d];
  if (t->dtype != edt || !shape_ok)
    KC_FAIL(c, "%s: kernel gives %s%s, PyTorch %s%s", what, mck_dtype_name(t->dtype), got,
            mck_dtype_name(edt), want);
}

/* A view's strides and offset against PyTorch's (dims of size 1 may differ). */
static void kc_check_view(const KCase *c, const char *what, const mck_tensor *t, const KTen *e) {
  if (e->alias_sid < 0) return;
  if (t->offset != e->alias_off)
    KC_FAIL(c, "%s: view offset %lld, PyTorch %lld", what, (long long)t->offset,
            (long long)e->alias_off);
  for (int d = 0; d < e->ndim; d++)
    if (e->shape[d] > 1 && t->stride[d] != e->alias_stride[d])
      KC_FAIL(c, "%s: view stride[%d] = %lld, PyTorch %lld", what, d, (long long)t->stride[d],
              (long long)e->alias_stride[d]);
}

static int kc_close(double a, double e, double tol) {
  if (e != e) return a != a;
  if (isinf(e)) return a == e;
  return fabs(a - e) <= tol + tol * fabs(e);
}

/* Values of t (any strides) against the contiguous expected storage sid. */
static void kc_check_values(const KCase *c, const char *what, const mck_tensor *t, int sid) {
  const KStore *s = &c->st[sid];
  mck_tensor e = {.data = s->bytes, .dtype = s->dtype};
  int64_t n = mck_numel(t);
  if (n != s->n) KC_FAIL(c, "%s: %lld elements, expected %lld", what, (long long)n, (long long)s->n);
  int exact = !mck_is_float(s->dtype) && !mck_is_float(t->dtype);
  int64_t idx[MCK_MAX_DIMS] = {0}, bad = 0, first = -1;
  double fg = 0, fe = 0;
  for (int64_t k = 0; k < n; k++) {
    int64_t off = t->offset;
    for (int d = 0; d < t->ndim; d++) off += idx[d] * t->stride[d];
    int ok;
    double g, w;
    if (exact) {
      int64_t gi = mck_geti(t, off), wi = mck_geti(&e, k);
      ok = gi == wi;
      g = (double)gi;
      w = (double)wi;
    } else {
      g = mck_getf(t, off);
      w = mck_getf(&e, k);
      ok = kc_close(g, w, c->tol);
    }
    if (!ok && bad++ == 0) {
      first = k;
      fg = g;
      fe = w;
    }
    for (int d = t->ndim - 1; d >= 0; d--) {
      if (++idx[d] < t->shape[d]) break;
      idx[d] = 0;
    }
  }
  if (bad)
    KC_FAIL(c, "%s: %lld of %lld elements differ; first at flat index %lld: got %.9g, expected %.9g (tol %g)",
            what, (long long)bad, (long long)n, (long long)first, fg, fe, c->tol);
}

static void kc_check_scalar(const KCase *c, const char *what, const mck_arg *g, const KArg *e,
                            int meta) {
  if (meta && (g->kind == MCK_UNKNOWN || g->kind == MCK_NONE)) return;
  if (g->kind != e->kind)
    KC_FAIL(c, "%s: kernel gives an argument of kind %d, PyTorch kind %d", what, g->kind, e->kind);
  switch (e->kind) {
  case MCK_INT:
  case MCK_BOOL_ARG:
    if (g->u.i != e->i)
      KC_FAIL(c, "%s: got %lld, expected %lld", what, (long long)g->u.i, (long long)e->i);
    break;
  case MCK_FLOAT:
    if (!kc_close(g->u.f, e->f, c->tol)) KC_FAIL(c, "%s: got %.9g, expected %.9g", what, g->u.f, e->f);
    break;
  case MCK_INTS:
  case MCK_BOOLS:
    if (g->n != e->n) KC_FAIL(c, "%s: list of %d, expected %d", what, g->n, e->n);
    for (int k = 0; k < e->n; k++)
      if (g->u.ints[k] != e->ints[k])
        KC_FAIL(c, "%s[%d]: got %lld, expected %lld", what, k, (long long)g->u.ints[k],
                (long long)e->ints[k]);
    break;
  case MCK_FLOATS:
    if (g->n != e->n) KC_FAIL(c, "%s: list of %d, expected %d", what, g->n, e->n);
    for (int k = 0; k < e->n; k++)
      if (!kc_close(g->u.floats[k], e->floats[k], c->tol))
        KC_FAIL(c, "%s[%d]: got %.9g, expected %.9g", what, k, g->u.floats[k], e->floats[k]);
    break;
  default: break;
  }
}

static void kc_check_outputs(const KCase *c, const OpDef *op, KRun *r, int meta) {
  for (int a = 0; a < c->nout; a++) {
    const KArg *e = &c->out[a];
    const mck_arg *g = &r->out[a];
    char what[64];
    snprintf(what, sizeof what, "%s output %d", meta ? "meta" : "real", a);
    if (e->kind == MCK_TENSOR || e->kind == MCK_TENSORS) {
      if (g->kind != e->kind) KC_FAIL(c, "%s: kernel changed its kind to %d", what, g->kind);
      if (g->n != e->n) KC_FAIL(c, "%s: %d tensors, PyTorch %d", what, g->n, e->n);
      for (int j = 0; j < e->n; j++) {
        const mck_tensor *t = e->kind == MCK_TENSOR ? g->u.t : g->u.ts[j];
        if (!t) KC_FAIL(c, "%s: item %d is NULL", what, j);
        kc_check_meta_tensor(c, what, t, &e->ts[j], meta == 2);
        int view = op->effect == EFF_VIEW || op->effect == EFF_WRITE;
        if (view && e->kind == MCK_TENSOR) {
          kc_check_view(c, what, t, &e->ts[j]);
          if (!meta && e->ts[j].alias_sid >= 0 && t->data != r->mem[e->ts[j].alias_sid])
            KC_FAIL(c, "%s: should share storage with an input (a %s op)", what,
                    op->effect == EFF_VIEW ? "view" : "in-place");
        }
        if (!meta) kc_check_values(c, what, t, e->ts[j].sid);
      }
    } else {
      kc_check_scalar(c, what, g, e, meta);
    }
  }
}

START_TEST(test_case) {
  const KCase *c = &kc_cases[_i];
  if (kc_only && strcmp(kc_only, c->op)) return;
  const OpDef *op = ops_lookup(c->op);
  if (!op) KC_FAIL(c, "op not in the op table (ops_lookup returned NULL)");
  if (!op->kernel) KC_FAIL(c, "op has no kernel");
  if (c->nin < op->min_inputs || (op->max_inputs >= 0 && c->nin > op->max_inputs))
    KC_FAIL(c, "%d inputs, the row allows %d..%d", c->nin, op->min_inputs, op->max_inputs);
  KRun *r = kc_xalloc(sizeof *r);
  mck_ctx ctx;

  /* meta, with every scalar unknown: must not crash, and must explain a failure */
  memset(&ctx, 0, sizeof ctx);
  ctx.meta = 1;
  kc_build_inputs(r, c, 0, 1);
  kc_build_outputs(r, c, NULL);
  if (op->kernel(&ctx, r->out, c->nout, r->in, c->nin) != 0 && !ctx.err[0])
    KC_FAIL(c, "meta with unknown scalars failed without a message");

  /* meta */
  memset(&ctx, 0, sizeof ctx);
  ctx.meta = 1;
  kc_build_inputs(r, c, 0, 0);
  kc_build_outputs(r, c, NULL);
  int rc = op->kernel(&ctx, r->out, c->nout, r->in, c->nin);
  if (c->expect_error && rc != 0) {
    if (!ctx.err[0]) KC_FAIL(c, "meta failed without a message");
    free(r);
    return;
  }
  if (rc != 0) KC_FAIL(c, "meta failed: %s", ctx.err);
  if (ctx.sized_by_data && !(op->flags & OPF_DATA_SIZED))
    KC_FAIL(c, "meta says the result's size depends on the data, but the row lacks OPF_DATA_SIZED");
  if (!c->expect_error) kc_check_outputs(c, op, r, ctx.sized_by_data ? 2 : 1);
  mck_arg meta_out[KC_MAXARGS];
  mck_tensor meta_t[KC_MAXARGS][KC_MAXLIST];
  mck_tensor *meta_p[KC_MAXARGS][KC_MAXLIST];
  for (int a = 0; a < c->nout; a++) {
    meta_out[a] = r->out[a];
    if (r->out[a].kind == MCK_TENSOR) {
      meta_t[a][0] = *r->out[a].u.t;
      meta_out[a].u.t = &meta_t[a][0];
    } else if (r->out[a].kind == MCK_TENSORS) {
      for (int j = 0; j < r->out[a].n && j < KC_MAXLIST; j++) {
        meta_t[a][j] = *r->out[a].u.ts[j];
        meta_p[a][j] = &meta_t[a][j];
      }
      meta_out[a].u.ts = meta_p[a];
    }
  }

  /* real */
  memset(&ctx, 0, sizeof ctx);
  kc_build_inputs(r, c, 1, 0);
  kc_build_outputs(r, c, c->expect_error ? NULL : meta_out);
  if (c->expect_error) {
    for (int a = 0; a < c->nout; a++) r->out[a].kind = MCK_NONE;
  }
  void *snap[64];
  for (int s = 0; s < c->nstore; s++) {
    size_t sz = mck_dtype_size(c->st[s].dtype) * (size_t)c->st[s].n;
    snap[s] = r->mem[s] ? kr_alloc(r, sz) : NULL;
    if (snap[s]) memcpy(snap[s], r->mem[s], sz);
  }
  rc = op->kernel(&ctx, r->out, c->nout, r->in, c->nin);
  if (c->expect_error) {
    if (rc == 0) KC_FAIL(c, "kernel accepted a case PyTorch rejects");
    if (!ctx.err[0]) KC_FAIL(c, "kernel failed without a message");
    kr_free(r);
    free(r);
    return;
  }
  if (rc != 0) KC_FAIL(c, "real run failed: %s", ctx.err);
  kc_check_outputs(c, op, r, 0);
  for (int m = 0; m < c->nmut; m++) {
    int k = c->mut_idx[m];
    char what[64];
    snprintf(what, sizeof what, "final value of input %d", k);
    if (k < 0 || k >= c->nin || r->in[k].kind != MCK_TENSOR) KC_FAIL(c, "%s: not a tensor", what);
    kc_check_values(c, what, r->in[k].u.t, c->mut_sid[m]);
  }
  for (int s = 0; s < c->nstore; s++) {
    if (!snap[s]) continue;
    int written = 0;
    for (int m = 0; m < c->nmut; m++) {
      const KArg *k = &c->in[c->mut_idx[m]];
      if (k->kind == MCK_TENSOR && k->ts[0].sid == s) written = 1;
    }
    if (!written && memcmp(snap[s], r->mem[s], mck_dtype_size(c->st[s].dtype) * (size_t)c->st[s].n))
      KC_FAIL(c, "the kernel wrote into input storage %d, which it must only read", s);
  }
  kr_free(r);
  free(r);
}
END_TEST

static Suite *kernels_suite(void) {
  Suite *s = suite_create("kernels");
  TCase *tc = tcase_create("cases");
  tcase_add_loop_test(tc, test_case, 0, kc_ncases);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  const char *path = getenv("MC_KERNEL_CASES");
  if (!path || !*path) {
    fprintf(stderr, "check_kernels: set MC_KERNEL_CASES to the file gen_kernels.py writes\n");
    return 2;
  }
  kc_only = getenv("MC_KERNEL_OP");
  if (kc_only && !*kc_only) kc_only = NULL;
  kc_load(path);
  int per_op = 0;
  for (int k = 0; k < kc_ncases; k++) per_op += !kc_only || !strcmp(kc_only, kc_cases[k].op);
  fprintf(stderr, "check_kernels: %d cases from %s (%d selected)\n", kc_ncases, path, per_op);
  SRunner *sr = srunner_create(kernels_suite());
#ifdef KC_ASAN
  if (!getenv("CK_FORK")) srunner_set_fork_status(sr, CK_NOFORK);
#endif
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
