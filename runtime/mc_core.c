/* mc_core.c — binding, validation, introspection and outputs' bookkeeping, shared by the CPU
 * runtime (libmcrt.a) and the CUDA runtime (libmcrt_cuda.a); mc_core.h states the invariants.
 * Plain C99: no allocation here besides calloc/free of the model's tables (the device's
 * buffers go through its mc_device); a model made in the caller's memory (mcc_init_in) takes its
 * tables from there, and with -DMC_NO_MALLOC nothing here calls calloc or free.
 */
#include "mc_core.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char mcc_null_model_msg[] = "mc: NULL model";

/* ---- formatting ---------------------------------------------------------------------------- */
/* A small vsnprintf for messages, so that no C library formatter is linked (newlib-nano's
 * pulls in malloc): flags, width and precision are read; %s and %c honour precision and width,
 * numbers the `-` and `0` flags and width. Conversions: d i u x X o c s p g e f %, lengths hh h l
 * ll z j t. Floating point is printed with up to 6 significant digits (%g-like), not rounded
 * exactly as printf would. Returns the length the whole text has (as vsnprintf). */
typedef struct mcc_out {
  char *buf;
  size_t n, len;
} mcc_out;

static void mcc_putc(mcc_out *o, char ch) {
  if (o->len + 1 < o->n) o->buf[o->len] = ch;
  o->len++;
}

static void mcc_pad(mcc_out *o, const char *s, size_t len, int width, int left, char fill) {
  size_t w = width > 0 ? (size_t)width : 0;
  if (!left && fill == '0' && len && (*s == '-' || *s == '+')) {
    mcc_putc(o, *s++);
    len--;
    w = w ? w - 1 : 0;
  }
  for (size_t k = len; !left && k < w; k++) mcc_putc(o, fill);
  for (size_t k = 0; k < len; k++) mcc_putc(o, s[k]);
  for (size_t k = len; left && k < w; k++) mcc_putc(o, ' ');
}

static size_t mcc_utoa(char *end, unsigned long long v, unsigned base, int upper) {
  const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  size_t len = 0;
  do {
    *--end = dig[v % base];
    len++;
  } while ((v /= base) != 0);
  return len;
}

/* x (finite) with up to 6 significant digits: fixed for 1e-4 <= |x| < 1e6, else d.ddddde+XX */
static size_t mcc_ftoa(char *p, double x) {
  char *s = p;
  if (x != x) return (size_t)(memcpy(p, "nan", 3), 3);
  if (x < 0) *p++ = '-', x = -x;
  if (x > 1.7976931348623157e308) return (size_t)(memcpy(p, "inf", 3), p + 3 - s);
  int e = 0;
  if (x != 0) {
    while (x >= 10) x /= 10, e++;
    while (x < 1) x *= 10, e--;
  }
  unsigned long m = (unsigned long)(x * 100000 + 0.5); /* 6 digits: d.ddddd */
  if (m >= 1000000) m /= 10, e++;
  char dig[6];
  for (int k = 5; k >= 0; k--) dig[k] = (char)('0' + m % 10), m /= 10;
  int nd = 6;
  while (nd > 1 && dig[nd - 1] == '0') nd--;
  if (x != 0 && (e < -4 || e >= 6)) {
    *p++ = dig[0];
    if (nd > 1) *p++ = '.';
    for (int k = 1; k < nd; k++) *p++ = dig[k];
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e >= 100) *p++ = (char)('0' + e / 100);
    *p++ = (char)('0' + e / 10 % 10);
    *p++ = (char)('0' + e % 10);
  } else if (e < 0) {
    *p++ = '0';
    *p++ = '.';
    for (int k = -1; k > e; k--) *p++ = '0';
    for (int k = 0; k < nd; k++) *p++ = dig[k];
  } else {
    for (int k = 0; k <= e; k++) *p++ = k < nd ? dig[k] : '0';
    if (nd > e + 1) *p++ = '.';
    for (int k = e + 1; k < nd; k++) *p++ = dig[k];
  }
  return (size_t)(p - s);
}

int mc_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) {
  mcc_out o = {buf, n, 0};
  char tmp[48];
  while (*fmt) {
    if (*fmt != '%') {
      mcc_putc(&o, *fmt++);
      continue;
    }
    fmt++;
    int left = 0, width = 0, prec = -1, lng = 0;
    char fill = ' ';
    for (;; fmt++) {
      if (*fmt == '-') left = 1;
      else if (*fmt == '0') fill = '0';
      else if (*fmt != '+' && *fmt != ' ' && *fmt != '#') break;
    }
    if (*fmt == '*') width = va_arg(ap, int), fmt++;
    else
      while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
    if (*fmt == '.') {
      prec = 0;
      if (*++fmt == '*') prec = va_arg(ap, int), fmt++;
      else
        while (*fmt >= '0' && *fmt <= '9') prec = prec * 10 + (*fmt++ - '0');
    }
    if (width < 0) left = 1, width = -width;
    for (;; fmt++) {
      if (*fmt == 'l') lng++;
      else if (*fmt == 'z' || *fmt == 'j' || *fmt == 't') lng = 3;
      else if (*fmt != 'h') break;
    }
    char cv = *fmt ? *fmt++ : '\0', *end = tmp + sizeof tmp;
    size_t len = 0;
    unsigned long long u = 0;
    int neg = 0;
    switch (cv) {
    case 'd': case 'i': {
      long long v = lng >= 3 ? (long long)va_arg(ap, ptrdiff_t) : lng == 2 ? va_arg(ap, long long)
                    : lng == 1 ? va_arg(ap, long) : va_arg(ap, int);
      neg = v < 0;
      u = neg ? 0ull - (unsigned long long)v : (unsigned long long)v;
      len = mcc_utoa(end, u, 10, 0);
      if (neg) *(end - ++len) = '-';
      mcc_pad(&o, end - len, len, width, left, left ? ' ' : fill);
      break;
    }
    case 'u': case 'x': case 'X': case 'o': case 'p':
      if (cv == 'p') u = (unsigned long long)(uintptr_t)va_arg(ap, void *);
      else u = lng >= 3 ? (unsigned long long)va_arg(ap, size_t) : lng == 2 ? va_arg(ap, unsigned long long)
               : lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
      len = mcc_utoa(end, u, cv == 'u' ? 10 : cv == 'o' ? 8 : 16, cv == 'X');
      if (cv == 'p') *(end - ++len) = 'x', *(end - ++len) = '0';
      mcc_pad(&o, end - len, len, width, left, left ? ' ' : fill);
      break;
    case 'c':
      tmp[0] = (char)va_arg(ap, int);
      mcc_pad(&o, tmp, 1, width, left, ' ');
      break;
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s) s = "(null)";
      while ((prec < 0 || len < (size_t)prec) && s[len]) len++;
      mcc_pad(&o, s, len, width, left, ' ');
      break;
    }
    case 'g': case 'G': case 'e': case 'E': case 'f': case 'F':
      len = mcc_ftoa(tmp, va_arg(ap, double));
      mcc_pad(&o, tmp, len, width, left, left ? ' ' : fill);
      break;
    case '%':
      mcc_putc(&o, '%');
      break;
    default: /* unknown conversion: written as it is */
      mcc_putc(&o, '%');
      if (cv) mcc_putc(&o, cv);
      break;
    }
  }
  if (n) buf[o.len < n ? o.len : n - 1] = '\0';
  return o.len > (size_t)0x7fffffff ? 0x7fffffff : (int)o.len;
}

int mc_snprintf(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = mc_vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return r;
}

/* ---- dtypes -------------------------------------------------------------------------------- */

const char *const mcc_dtype_names[MC_NUM_DTYPES] = {"float32", "float64", "float16", "bfloat16",
                                                    "int64",   "int32",   "int16",   "int8",
                                                    "uint8",   "bool"};
const size_t mcc_dtype_sizes[MC_NUM_DTYPES] = {4, 8, 2, 2, 8, 4, 2, 1, 1, 1};

DLDataType mcc_dtype_to_dl(int code) {
  static const uint8_t codes[MC_NUM_DTYPES] = {kDLFloat, kDLFloat, kDLFloat, kDLBfloat, kDLInt,
                                               kDLInt,   kDLInt,   kDLInt,   kDLUInt,   kDLUInt};
  DLDataType t;
  t.code = codes[code];
  t.bits = (uint8_t)(mcc_dtype_sizes[code] * 8);
  t.lanes = 1;
#if DLPACK_VERSION >= 80
  if (code == 9) t.code = MC_DL_BOOL_CODE;
#endif
  return t;
}

static int mcc_dtype_matches(int code, DLDataType got) {
  DLDataType want = mcc_dtype_to_dl(code);
  if (got.lanes != 1 || got.bits != want.bits) return 0;
  if (code == 9) return got.code == kDLUInt || got.code == MC_DL_BOOL_CODE;
  return got.code == want.code;
}

static void mcc_dtype_str(DLDataType t, char *buf, size_t n) {
  static const char *const kinds[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  if (t.code < sizeof kinds / sizeof kinds[0])
    mc_snprintf(buf, n, "%s%u", kinds[t.code], (unsigned)t.bits);
  else
    mc_snprintf(buf, n, "code %u bits %u", (unsigned)t.code, (unsigned)t.bits);
  if (t.lanes != 1) {
    size_t len = strlen(buf);
    mc_snprintf(buf + len, n - len, "x%u", (unsigned)t.lanes);
  }
}

/* ---- errors -------------------------------------------------------------------------------- */

int mcc_fail(const mc_model *m, int code, const char *fmt, ...) {
  mc_core *c = MCC(m); /* every model is allocated writable by its runtime */
  va_list ap;
  va_start(ap, fmt);
  mc_vsnprintf(c->err, sizeof c->err, fmt, ap);
  va_end(ap);
  return code;
}

void mcc_clear_error(const mc_model *m) { MCC(m)->err[0] = '\0'; }

const char *mcc_io_name(const mc_io_desc *d) { return d->name ? d->name : "?"; }

const char *mcc_model_name(const mc_model *m) { return MCC(m)->name ? MCC(m)->name : "?"; }

/* ---- sizes and layouts --------------------------------------------------------------------- */

int64_t mcc_numel(int ndim, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  return n;
}

int mcc_is_compact(int ndim, const int64_t *shape, const int64_t *st) {
  int64_t want = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    if (shape[d] != 1 && st[d] != want) return 0;
    want *= shape[d];
  }
  return 1;
}

/* The largest byte count any tensor may have: offsets are computed in int64_t and ptrdiff_t. */
#define MCC_MAX_BYTES ((uint64_t)(PTRDIFF_MAX < INT64_MAX ? PTRDIFF_MAX : INT64_MAX))

static int mcc_desc_ok(const mc_io_desc *d, int is_output) {
  if (d->dtype < 0 || d->dtype >= MC_NUM_DTYPES || d->ndim < 0 || d->ndim > MC_MAX_DIMS) return 0;
  uint64_t es = mcc_dtype_sizes[d->dtype], limit = MCC_MAX_BYTES / es, numel = 1;
  int empty = 0;
  for (int j = 0; j < d->ndim; j++) {
    if (d->shape[j] < 0) return 0;
    if (d->shape[j] == 0) empty = 1;
  }
  for (int j = 0; j < d->ndim && !empty; j++) {
    if ((uint64_t)d->shape[j] > limit / numel) return 0; /* numel * es would pass the limit */
    numel *= (uint64_t)d->shape[j];
  }
  if (is_output && !empty) { /* the strides' span, as mc_copy_output walks it */
    uint64_t span = 0;
    for (int j = 0; j < d->ndim; j++) {
      int64_t st = d->strides[j];
      uint64_t mag = st < 0 ? (uint64_t)0 - (uint64_t)st : (uint64_t)st, ext = (uint64_t)d->shape[j] - 1;
      if (st == INT64_MIN || (ext && mag > (limit - span) / ext)) return 0;
      span += ext * mag;
    }
  }
  return 1;
}

int mcc_def_ok(int ni, int no, const mc_io_desc *inputs, const mc_io_desc *outputs) {
  if (ni < 0 || no < 0 || (ni && !inputs) || (no && !outputs)) return 0;
  if ((size_t)ni + 2 * (size_t)no + 1 > SIZE_MAX / (MC_MAX_DIMS * sizeof(int64_t))) return 0;
  for (int k = 0; k < ni; k++)
    if (!mcc_desc_ok(&inputs[k], 0)) return 0;
  for (int k = 0; k < no; k++)
    if (!mcc_desc_ok(&outputs[k], 1)) return 0;
  return 1;
}

/* ---- model lifetime ------------------------------------------------------------------------ */

static void mcc_fill_info(DLTensor *t, const mc_io_desc *d, int64_t *shape, DLDeviceType dev,
                          int device_id) {
  memset(t, 0, sizeof *t);
  t->device.device_type = dev;
  t->device.device_id = device_id;
  t->ndim = d->ndim;
  t->dtype = mcc_dtype_to_dl(d->dtype);
  memcpy(shape, d->shape, sizeof d->shape);
  t->shape = shape;
}

/* One table of n elements of size es: from the caller's memory (*pool, 8-aligned, *left bytes
 * left) when pool is not NULL, else from calloc. NULL when it does not fit. */
static void *mcc_table(char **pool, size_t *left, size_t n, size_t es) {
  size_t bytes = (n * es + 7) & ~(size_t)7;
  if (pool) {
    if (bytes > *left) return NULL;
    void *p = *pool;
    memset(p, 0, bytes);
    *pool += bytes;
    *left -= bytes;
    return p;
  }
#ifdef MC_NO_MALLOC
  return NULL;
#else
  return calloc(n, es);
#endif
}

size_t mcc_tables_bytes(int ni, int no) {
  size_t cnt_i = ni ? (size_t)ni : 1, cnt_o = no ? (size_t)no : 1, total = 0;
  size_t sizes[8];
  sizes[0] = cnt_i * sizeof(mc_slot);
  sizes[1] = cnt_i * sizeof(void *);
  sizes[2] = cnt_i * sizeof(size_t);
  sizes[3] = cnt_i * sizeof(DLTensor);
  sizes[4] = cnt_o * sizeof(void *);
  sizes[5] = cnt_o * sizeof(DLTensor);
  sizes[6] = cnt_o * sizeof(DLTensor);
  sizes[7] = ((size_t)ni + 2 * (size_t)no + 1) * MC_MAX_DIMS * sizeof(int64_t);
  for (int k = 0; k < 8; k++) total += (sizes[k] + 7) & ~(size_t)7;
  return total;
}

int mcc_init(mc_core *c, const mc_device *dev, const char *name, int ni, int no,
             const mc_io_desc *inputs, const mc_io_desc *outputs, int device_id) {
  return mcc_init_in(c, dev, name, ni, no, inputs, outputs, device_id, NULL, NULL);
}

int mcc_init_in(mc_core *c, const mc_device *dev, const char *name, int ni, int no,
                const mc_io_desc *inputs, const mc_io_desc *outputs, int device_id, char **pool,
                size_t *left) {
  size_t cnt_i = ni ? (size_t)ni : 1, cnt_o = no ? (size_t)no : 1;
  c->dev = dev;
  c->name = name;
  c->num_inputs = ni;
  c->num_outputs = no;
  c->inputs = inputs;
  c->outputs = outputs;
  c->pooled = pool != NULL;
  c->slots = mcc_table(pool, left, cnt_i, sizeof *c->slots);
  c->in = mcc_table(pool, left, cnt_i, sizeof *c->in);
  c->in_bytes = mcc_table(pool, left, cnt_i, sizeof *c->in_bytes);
  c->in_info = mcc_table(pool, left, cnt_i, sizeof *c->in_info);
  c->out = mcc_table(pool, left, cnt_o, sizeof *c->out);
  c->out_info = mcc_table(pool, left, cnt_o, sizeof *c->out_info);
  c->results = mcc_table(pool, left, cnt_o, sizeof *c->results);
  c->dims = mcc_table(pool, left, (size_t)ni + 2 * (size_t)no + 1, MC_MAX_DIMS * sizeof *c->dims);
  if (!c->slots || !c->in || !c->in_bytes || !c->in_info || !c->out || !c->out_info ||
      !c->results || !c->dims)
    return MC_ENOMEM;
  int64_t *dims = c->dims;
  for (int i = 0; i < ni; i++, dims += MC_MAX_DIMS) {
    const mc_io_desc *d = &inputs[i];
    mcc_fill_info(&c->in_info[i], d, dims, dev->info_device, device_id);
    c->in_bytes[i] = (size_t)mcc_numel(d->ndim, d->shape) * mcc_dtype_sizes[d->dtype];
  }
  for (int k = 0; k < no; k++, dims += 2 * MC_MAX_DIMS) {
    const mc_io_desc *d = &outputs[k];
    mcc_fill_info(&c->out_info[k], d, dims, dev->info_device, device_id);
    c->results[k] = c->out_info[k];
    memcpy(dims + MC_MAX_DIMS, d->strides, sizeof d->strides);
    c->results[k].strides = dims + MC_MAX_DIMS;
  }
  return MC_OK;
}

int mcc_make_dynamic(mc_core *c, int num_dims, const mc_dim_desc *dims, char **pool, size_t *left) {
  size_t ni = c->num_inputs ? (size_t)c->num_inputs : 1, no = c->num_outputs ? (size_t)c->num_outputs : 1;
  c->cur_in = mcc_table(pool, left, ni, sizeof *c->cur_in);
  c->cur_out = mcc_table(pool, left, no, sizeof *c->cur_out);
  c->dyn_owned = pool == NULL;
  if (!c->cur_in || !c->cur_out) return MC_ENOMEM;
  for (int i = 0; i < c->num_inputs; i++) c->cur_in[i] = c->inputs[i];
  for (int k = 0; k < c->num_outputs; k++) {
    c->cur_out[k] = c->outputs[k];
    c->results[k].shape = c->cur_out[k].shape;
    c->results[k].strides = c->cur_out[k].strides;
  }
  c->outputs = c->cur_out;
  c->num_dims = num_dims;
  c->dim_descs = dims;
  return MC_OK;
}

/* The Dim that extent d of input i follows, or NULL. */
int mcc_dims_ok(int ni, const mc_io_desc *inputs, int num_dims, const mc_dim_desc *dims) {
  if (num_dims < 0 || (num_dims && !dims)) return 0;
  for (int k = 0; k < num_dims; k++) {
    const mc_dim_desc *dm = &dims[k];
    if (dm->input < 0 || dm->input >= ni || dm->axis < 0 || dm->axis >= inputs[dm->input].ndim || dm->min < 0 ||
        dm->min > dm->max || dm->max != inputs[dm->input].shape[dm->axis])
      return 0;
  }
  return 1;
}

static const mc_dim_desc *mcc_dim_of(const mc_core *c, int i, int d) {
  for (int k = 0; k < c->num_dims; k++)
    if (c->dim_descs[k].input == i && c->dim_descs[k].axis == d) return &c->dim_descs[k];
  return NULL;
}

/* After a successful bind of input i to t: the shape it was bound with. */
static void mcc_note_shape(mc_core *c, int i, const DLTensor *t) {
  if (!c->cur_in) return;
  for (int d = 0; d < t->ndim && d < MC_MAX_DIMS; d++) c->cur_in[i].shape[d] = t->shape[d];
}

/* The compact byte size of input i as bound now. */
static size_t mcc_bound_bytes(const mc_core *c, int i) {
  if (!c->cur_in) return c->in_bytes[i];
  const mc_io_desc *d = &c->cur_in[i];
  return (size_t)mcc_numel(d->ndim, d->shape) * mcc_dtype_sizes[d->dtype];
}

int mc_input_dim_bounds(const mc_model *m, int i, int d, int64_t *min, int64_t *max) {
  if (!m) return MC_EINVAL;
  const mc_core *c = MCC(m);
  int rc = mcc_check_index(m, "mc_input_dim_bounds", "input", i, c->num_inputs);
  if (rc) return rc;
  if (d < 0 || d >= c->inputs[i].ndim)
    return mcc_fail(m, MC_EINVAL, "mc_input_dim_bounds: input %d '%s': dim %d out of range (ndim %d)", i,
                    mcc_io_name(&c->inputs[i]), d, c->inputs[i].ndim);
  const mc_dim_desc *dm = mcc_dim_of(c, i, d);
  if (min) *min = dm ? dm->min : c->inputs[i].shape[d];
  if (max) *max = dm ? dm->max : c->inputs[i].shape[d];
  mcc_clear_error(m);
  return MC_OK;
}

/* Forgets the binding of s; a DLPack tensor is forgotten before its deleter runs, so it runs
 * once even if the deleter reenters the runtime. */
static void mcc_release_binding(mc_slot *s) {
  DLManagedTensor *t = s->kind == MC_SLOT_DLPACK ? s->managed : NULL;
  s->kind = MC_SLOT_UNBOUND;
  s->data = NULL;
  s->managed = NULL;
  if (t && t->deleter) t->deleter(t);
}

void mcc_fini(mc_core *c) {
  if (c->slots) {
    for (int i = 0; i < c->num_inputs; i++) {
      mcc_release_binding(&c->slots[i]);
      if (c->slots[i].copy) c->dev->free(c->slots[i].copy);
      c->slots[i].copy = NULL;
    }
  }
#ifndef MC_NO_MALLOC
  if (!c->pooled) {
    free(c->slots);
    free(c->in);
    free(c->in_bytes);
    free(c->in_info);
    free(c->out);
    free(c->out_info);
    free(c->results);
    free(c->dims);
  }
  if (c->dyn_owned) {
    free(c->cur_in);
    free(c->cur_out);
  }
#endif
  c->slots = NULL;
}

/* ---- validation of caller tensors ---------------------------------------------------------- */

int mcc_check_index(const mc_model *m, const char *what, const char *kind, int i, int n) {
  if (i < 0 || i >= n)
    return mcc_fail(m, MC_EINVAL, "%s: %s index %d out of range (model '%s' has %d)", what, kind,
                    i, mcc_model_name(m), n);
  return MC_OK;
}

int mcc_check_tensor(const mc_model *m, const char *what, const char *kind, int idx,
                     const mc_io_desc *desc, const DLTensor *t, int external, char **data) {
  const char *nm = mcc_io_name(desc);
  char got[48];
  if (!t) return mcc_fail(m, MC_EINVAL, "%s: %s %d '%s': NULL tensor", what, kind, idx, nm);
  int rc = MCC(m)->dev->check_device(m, what, kind, idx, nm, t, external);
  if (rc) return rc;
  if (!mcc_dtype_matches(desc->dtype, t->dtype)) {
    mcc_dtype_str(t->dtype, got, sizeof got);
    return mcc_fail(m, MC_EDTYPE, "%s: %s %d '%s': dtype %s, expected %s", what, kind, idx, nm,
                    got, mcc_dtype_names[desc->dtype]);
  }
  if (t->ndim != desc->ndim)
    return mcc_fail(m, MC_ESHAPE, "%s: %s %d '%s': ndim %d, expected %d", what, kind, idx, nm,
                    t->ndim, desc->ndim);
  if (t->ndim > 0 && !t->shape)
    return mcc_fail(m, MC_EINVAL, "%s: %s %d '%s': NULL shape", what, kind, idx, nm);
  /* a dynamic extent of an input checked against its bounds (desc: the model's own inputs) */
  const mc_core *cc = MCC(m);
  int bounded = cc->num_dims > 0 && kind[0] == 'i' && desc == &cc->inputs[idx];
  for (int d = 0; d < t->ndim; d++) {
    const mc_dim_desc *dm = bounded ? mcc_dim_of(cc, idx, d) : NULL;
    if (dm && (t->shape[d] < dm->min || t->shape[d] > dm->max))
      return mcc_fail(m, MC_ESHAPE, "%s: %s %d '%s': extent %lld in dim %d is outside Dim '%s' [%lld, %lld]",
                      what, kind, idx, nm, (long long)t->shape[d], d, dm->name ? dm->name : "?",
                      (long long)dm->min, (long long)dm->max);
    if (!dm && t->shape[d] != desc->shape[d])
      return mcc_fail(m, MC_ESHAPE, "%s: %s %d '%s': extent %lld in dim %d, expected %lld", what,
                      kind, idx, nm, (long long)t->shape[d], d, (long long)desc->shape[d]);
  }
  int64_t numel = mcc_numel(t->ndim, t->shape);
  if (t->strides && numel > 0) {
    int64_t want_st = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
      if (t->shape[d] != 1 && t->strides[d] != want_st)
        return mcc_fail(m, MC_ESTRIDE,
                        "%s: %s %d '%s': stride %lld in dim %d is not compact row-major "
                        "(expected %lld)",
                        what, kind, idx, nm, (long long)t->strides[d], d, (long long)want_st);
      want_st *= t->shape[d];
    }
  }
  if (numel > 0 && !t->data)
    return mcc_fail(m, MC_EINVAL, "%s: %s %d '%s': NULL data", what, kind, idx, nm);
  uintptr_t base = (uintptr_t)t->data;
  if (t->byte_offset > UINTPTR_MAX - base)
    return mcc_fail(m, MC_EINVAL, "%s: %s %d '%s': byte_offset %llu overflows the address space",
                    what, kind, idx, nm, (unsigned long long)t->byte_offset);
  size_t es = mcc_dtype_sizes[desc->dtype];
  if ((external || MCC(m)->dev->align_always) && numel > 0 &&
      (base + (uintptr_t)t->byte_offset) % es != 0)
    return mcc_fail(m, MC_EINVAL,
                    "%s: %s %d '%s': data + byte_offset is not aligned to the element size %u",
                    what, kind, idx, nm, (unsigned)es);
  *data = t->data ? (char *)t->data + t->byte_offset : NULL;
  return MC_OK;
}

static int mcc_check_input(mc_model *m, const char *what, int i, const DLTensor *t, int external,
                           char **data) {
  int rc = mcc_check_index(m, what, "input", i, MCC(m)->num_inputs);
  if (rc) return rc;
  return mcc_check_tensor(m, what, "input", i, &MCC(m)->inputs[i], t, external, data);
}

/* ---- introspection ------------------------------------------------------------------------- */

int mc_num_inputs(const mc_model *m) { return m ? MCC(m)->num_inputs : MC_EINVAL; }
int mc_num_outputs(const mc_model *m) { return m ? MCC(m)->num_outputs : MC_EINVAL; }

const DLTensor *mc_input_info(const mc_model *m, int i) {
  if (!m || mcc_check_index(m, "mc_input_info", "input", i, MCC(m)->num_inputs)) return NULL;
  mcc_clear_error(m);
  return &MCC(m)->in_info[i];
}

const DLTensor *mc_output_info(const mc_model *m, int i) {
  if (!m || mcc_check_index(m, "mc_output_info", "output", i, MCC(m)->num_outputs)) return NULL;
  mcc_clear_error(m);
  return &MCC(m)->out_info[i];
}

const char *mc_input_name(const mc_model *m, int i) {
  if (!m || mcc_check_index(m, "mc_input_name", "input", i, MCC(m)->num_inputs)) return NULL;
  mcc_clear_error(m);
  return MCC(m)->inputs[i].name;
}

const char *mc_output_name(const mc_model *m, int i) {
  if (!m || mcc_check_index(m, "mc_output_name", "output", i, MCC(m)->num_outputs)) return NULL;
  mcc_clear_error(m);
  return MCC(m)->outputs[i].name;
}

static int mcc_find(const mc_model *m, const char *what, const char *kind, const mc_io_desc *d, int n,
                    const char *name) {
  if (!m) return MC_EINVAL;
  if (!name) return mcc_fail(m, MC_EINVAL, "%s: name is NULL", what);
  for (int i = 0; i < n; i++)
    if (d[i].name && strcmp(d[i].name, name) == 0) {
      mcc_clear_error(m);
      return i;
    }
  return mcc_fail(m, MC_EINVAL, "%s: model '%s' has no %s named '%s'", what, mcc_model_name(m), kind,
                  name);
}

int mc_find_input(const mc_model *m, const char *name) {
  return mcc_find(m, "mc_find_input", "input", m ? MCC(m)->inputs : NULL, m ? MCC(m)->num_inputs : 0, name);
}

int mc_find_output(const mc_model *m, const char *name) {
  return mcc_find(m, "mc_find_output", "output", m ? MCC(m)->outputs : NULL, m ? MCC(m)->num_outputs : 0, name);
}

int mc_input_is_mutated(const mc_model *m, int i) {
  if (!m) return MC_EINVAL;
  int rc = mcc_check_index(m, "mc_input_is_mutated", "input", i, MCC(m)->num_inputs);
  if (rc) return rc;
  mcc_clear_error(m);
  return MCC(m)->inputs[i].mutated ? 1 : 0;
}

const char *mc_last_error(const mc_model *m) { return m ? MCC(m)->err : mcc_null_model_msg; }

/* ---- binding inputs ------------------------------------------------------------------------ */

int mc_set_input(mc_model *m, int i, const DLTensor *src) {
  if (!m) return MC_EINVAL;
  mc_core *c = MCC(m);
  char *data;
  int rc = mcc_check_input(m, "mc_set_input", i, src, 0, &data);
  if (rc) return rc;
  mc_slot *s = &c->slots[i];
  if (!s->copy && (rc = c->dev->alloc(m, "mc_set_input", i, c->in_bytes[i], &s->copy))) {
    s->copy = NULL;
    return rc;
  }
  /* src may be the current binding (our copy, or a DLPack tensor's memory): copied first */
  size_t n = c->cur_in ? (size_t)mcc_numel(src->ndim, src->shape) * mcc_dtype_sizes[c->inputs[i].dtype]
                       : c->in_bytes[i];
  if (n && (rc = c->dev->copy(m, "mc_set_input", s->copy, data, n)))
    return rc;
  if (s->kind != MC_SLOT_COPY) mcc_release_binding(s);
  s->kind = MC_SLOT_COPY;
  s->data = s->copy;
  mcc_note_shape(c, i, src);
  c->outputs_valid = 0;
  mcc_clear_error(m);
  return MC_OK;
}

static void mcc_bind_external(mc_model *m, int i, mc_slot_kind kind, char *data,
                              DLManagedTensor *managed) {
  mc_core *c = MCC(m);
  mc_slot *s = &c->slots[i];
  mcc_release_binding(s);
  if (s->copy) c->dev->free(s->copy);
  s->copy = NULL;
  s->kind = kind;
  s->data = data;
  s->managed = managed;
  c->outputs_valid = 0;
  mcc_clear_error(m);
}

/* The input whose DLPack binding owns t, or -1. */
static int mcc_owner(const mc_core *c, const DLManagedTensor *t) {
  for (int j = 0; j < c->num_inputs; j++)
    if (c->slots[j].kind == MC_SLOT_DLPACK && c->slots[j].managed == t) return j;
  return -1;
}

int mc_set_input_zero_copy(mc_model *m, int i, DLTensor *ext) {
  if (!m) return MC_EINVAL;
  char *data;
  int rc = mcc_check_input(m, "mc_set_input_zero_copy", i, ext, 1, &data);
  if (rc) return rc;
  mc_slot *s = &MCC(m)->slots[i];
  /* borrowing the tensor input i owns would release it and keep its freed memory */
  if (s->kind == MC_SLOT_DLPACK && s->managed && ext == &s->managed->dl_tensor)
    return mcc_fail(m, MC_EINVAL,
                    "mc_set_input_zero_copy: input %d: the tensor is the DLPack tensor this "
                    "input owns (replacing the binding would free it)",
                    i);
  mcc_bind_external(m, i, MC_SLOT_BORROW, data, NULL);
  mcc_note_shape(MCC(m), i, ext);
  return MC_OK;
}

/* Ownership (mc_runtime.h): a tensor the model does not own yet is taken on every path — bound,
 * or deleted once at once when the call is refused; a tensor the model already owns stays with
 * the input that owns it, whatever this call is, and is never deleted by it. */
int mc_set_input_dlpack(mc_model *m, int i, DLManagedTensor *t) {
  if (!t) return m ? mcc_fail(m, MC_EINVAL, "mc_set_input_dlpack: input %d: NULL tensor", i)
                   : MC_EINVAL;
  if (!m) {
    if (t->deleter) t->deleter(t);
    return MC_EINVAL;
  }
  mc_core *c = MCC(m);
  char *data = NULL;
  int owner = mcc_owner(c, t);
  if (owner >= 0 && owner != i) {
    int rc = mcc_check_index(m, "mc_set_input_dlpack", "input", i, c->num_inputs);
    if (rc) return rc;
    return mcc_fail(m, MC_EINVAL,
                    "mc_set_input_dlpack: input %d: the tensor is already bound to input %d and "
                    "owned by the model",
                    i, owner);
  }
  int rc = mcc_check_input(m, "mc_set_input_dlpack", i, &t->dl_tensor, 1, &data);
  if (owner >= 0) { /* owner == i: rebinding the tensor input i owns: kept, refreshed if it still fits */
    if (rc) return rc;
    c->slots[i].data = data;
    c->outputs_valid = 0;
    mcc_note_shape(c, i, &t->dl_tensor);
    mcc_clear_error(m);
    return MC_OK;
  }
  if (rc) {
    if (t->deleter) t->deleter(t);
    return rc;
  }
  mcc_bind_external(m, i, MC_SLOT_DLPACK, data, t);
  mcc_note_shape(c, i, &t->dl_tensor);
  return MC_OK;
}

int mc_copy_input(const mc_model *m, int i, DLTensor *dst) {
  if (!m) return MC_EINVAL;
  const mc_core *c = MCC(m);
  char *data;
  int rc = mcc_check_index(m, "mc_copy_input", "input", i, c->num_inputs);
  if (rc) return rc;
  if (c->slots[i].kind == MC_SLOT_UNBOUND)
    return mcc_fail(m, MC_EUNBOUND, "mc_copy_input: input %d '%s' was never set", i,
                    mcc_io_name(&c->inputs[i]));
  /* a dynamic model's input is copied out with the shape it is bound with */
  rc = mcc_check_tensor(m, "mc_copy_input", "input", i, c->cur_in ? &c->cur_in[i] : &c->inputs[i], dst, 0,
                        &data);
  if (rc) return rc;
  size_t n = mcc_bound_bytes(c, i);
  if (n && (rc = c->dev->copy(m, "mc_copy_input", data, c->slots[i].data, n)))
    return rc;
  mcc_clear_error(m);
  return MC_OK;
}

/* ---- running ------------------------------------------------------------------------------- */

int mcc_run_begin(mc_model *m) {
  mc_core *c = MCC(m);
  c->outputs_valid = 0;
  for (int i = 0; i < c->num_inputs; i++) {
    if (c->slots[i].kind == MC_SLOT_UNBOUND)
      return mcc_fail(m, MC_EUNBOUND, "mc_run: input %d '%s' was never set", i,
                      mcc_io_name(&c->inputs[i]));
    c->in[i] = c->slots[i].data;
  }
  /* inputs that share a Dim must agree (each was checked against the bounds when bound) */
  for (int j = 0; j < c->num_dims; j++) {
    const mc_dim_desc *a = &c->dim_descs[j];
    for (int k = 0; k < j; k++) {
      const mc_dim_desc *b = &c->dim_descs[k];
      if (!a->name || !b->name || strcmp(a->name, b->name) != 0) continue;
      int64_t x = c->cur_in[a->input].shape[a->axis], y = c->cur_in[b->input].shape[b->axis];
      if (x != y)
        return mcc_fail(m, MC_ESHAPE,
                        "mc_run: Dim '%s' is %lld in input %d '%s' (dim %d) but %lld in input %d '%s' (dim %d)",
                        a->name, (long long)y, b->input, mcc_io_name(&c->inputs[b->input]), b->axis, (long long)x,
                        a->input, mcc_io_name(&c->inputs[a->input]), a->axis);
      break;
    }
  }
  for (int k = 0; k < c->num_outputs; k++) c->out[k] = NULL;
  return MC_OK;
}

int mcc_run_end(mc_model *m, int rc, char *err) {
  mc_core *c = MCC(m);
  if (rc != 0) {
    err[255] = '\0';
    /* a dynamic model's shape that does not fit its plan returns MC_ESHAPE (-3) */
    return mcc_fail(m, rc == MC_ESHAPE ? MC_ESHAPE : MC_ERUN, "mc_run: model '%s': %s", mcc_model_name(m),
                    err[0] ? err : "run failed without a message");
  }
  for (int k = 0; k < c->num_outputs; k++) {
    const mc_io_desc *d = &c->outputs[k];
    if (!c->out[k] && mcc_numel(d->ndim, d->shape) > 0)
      return mcc_fail(m, MC_ERUN, "mc_run: model '%s': output %d '%s' was not produced",
                      mcc_model_name(m), k, mcc_io_name(d));
    c->results[k].data = c->out[k];
  }
  c->outputs_valid = 1;
  mcc_clear_error(m);
  return MC_OK;
}

/* ---- outputs ------------------------------------------------------------------------------- */

int mcc_check_output(const mc_model *m, const char *what, int i) {
  int rc = mcc_check_index(m, what, "output", i, MCC(m)->num_outputs);
  if (rc) return rc;
  if (!MCC(m)->outputs_valid)
    return mcc_fail(m, MC_EINVAL,
                    "%s: output %d: no outputs (no successful mc_run since the last "
                    "mc_set_input*)",
                    what, i);
  return MC_OK;
}

const DLTensor *mc_get_output(const mc_model *m, int i) {
  if (!m || mcc_check_output(m, "mc_get_output", i)) return NULL;
  mcc_clear_error(m);
  return &MCC(m)->results[i];
}
