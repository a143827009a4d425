/* ts_const.c — the TorchScript parser's constant values: attribute values read at character
 * level (numbers, strings, lists, tuples, dicts, annotate(...), tensors in PyTorch's print form),
 * checked against their declared type and turned into attributes or into the prim::Constant
 * (and *Construct) nodes that define them. Shares the parser's state with ts_parse.c (ts.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ts.h"

/* ---- constant values (character level) -------------------------------------------------- */



int ts_c(TsParser *P, size_t off) {
  size_t i = P->lx.pos + off;
  return i < P->lx.len ? (unsigned char)P->lx.src[i] : -1;
}

void ts_cbump(TsParser *P, size_t n) { ts_lex_advance(&P->lx, P->lx.pos + n); }

void ts_cskip(TsParser *P) {
  while (ts_c(P, 0) == ' ' || ts_c(P, 0) == '\t') ts_cbump(P, 1);
}

SrcLoc ts_cloc(TsParser *P) { return ts_loc_at(P, P->lx.line, P->lx.col); }

static bool ts_cword(TsParser *P, const char *w) {
  size_t n = strlen(w);
  for (size_t i = 0; i < n; i++)
    if (ts_c(P, i) != (unsigned char)w[i]) return false;
  int after = ts_c(P, n);
  return !(after >= 0 && (isalnum(after) || after == '_'));
}

__attribute__((noreturn)) void ts_cfail_expected(TsParser *P, const char *what) {
  int c = ts_c(P, 0);
  if (c < 0) ts_fail(P, ts_cloc(P), "expected %s but found end of input", what);
  if (c == '\n') ts_fail(P, ts_cloc(P), "expected %s but found end of line", what);
  ts_fail(P, ts_cloc(P), "expected %s but found '%c'", what, isprint(c) ? c : '?');
}

void ts_cexpect(TsParser *P, char ch) {
  ts_cskip(P);
  if (ts_c(P, 0) != (unsigned char)ch) {
    char what[8] = {'\'', ch, '\'', 0};
    ts_cfail_expected(P, what);
  }
  ts_cbump(P, 1);
}

/* A number at the cursor: [-+]digits[.digits][e[-+]digits] | [-]inf | [-]nan. */
static bool ts_cnumber(TsParser *P, double *f, int64_t *i, bool *is_int, int *sig) {
  size_t k = 0;
  char buf[64];
  if (ts_c(P, 0) == '-' || ts_c(P, 0) == '+') k++;
  int c = ts_c(P, k);
  if (c == 'i' || c == 'n') {
    const char *w = c == 'i' ? "inf" : "nan";
    for (int j = 0; j < 3; j++)
      if (ts_c(P, k + (size_t)j) != w[j]) return false;
    int after = ts_c(P, k + 3);
    if (after >= 0 && (isalnum(after) || after == '_')) return false;
    bool neg = ts_c(P, 0) == '-';
    *f = c == 'i' ? (neg ? -INFINITY : INFINITY) : NAN;
    *is_int = false;
    *sig = 0;
    ts_cbump(P, k + 3);
    return true;
  }
  bool digits = false, isint = true;
  int nsig = 0;
  bool lead = true;
  while (ts_c(P, k) >= 0 && isdigit(ts_c(P, k))) {
    if (ts_c(P, k) != '0') lead = false;
    if (!lead) nsig++;
    k++;
    digits = true;
  }
  if (ts_c(P, k) == '.') {
    isint = false;
    k++;
    while (ts_c(P, k) >= 0 && isdigit(ts_c(P, k))) {
      if (ts_c(P, k) != '0') lead = false;
      if (!lead) nsig++;
      k++;
      digits = true;
    }
  }
  if (!digits) return false;
  if (ts_c(P, k) == 'e' || ts_c(P, k) == 'E') {
    size_t j = k + 1;
    if (ts_c(P, j) == '+' || ts_c(P, j) == '-') j++;
    if (ts_c(P, j) >= 0 && isdigit(ts_c(P, j))) {
      isint = false;
      while (ts_c(P, j) >= 0 && isdigit(ts_c(P, j))) j++;
      k = j;
    }
  }
  if (k >= sizeof buf) ts_fail(P, ts_cloc(P), "number too long");
  for (size_t j = 0; j < k; j++) buf[j] = (char)ts_c(P, j);
  buf[k] = 0;
  SrcLoc loc = ts_cloc(P);
  errno = 0;
  if (isint) {
    *i = strtoll(buf, NULL, 10);
    if (errno) ts_fail(P, loc, "integer %s out of range", buf);
    *f = (double)*i;
  } else {
    *f = strtod(buf, NULL);
    *i = 0;
  }
  *is_int = isint;
  *sig = nsig;
  ts_cbump(P, k);
  return true;
}

/* ---- tensors in PyTorch's print form ---------------------------------------------------- */

static uint16_t ts_f32_to_f16(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  uint32_t sign = (u >> 16) & 0x8000u, exp = (u >> 23) & 0xffu, man = u & 0x7fffffu;
  if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return (uint16_t)sign;
    man |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e);
    uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
  return (uint16_t)(sign | h);
}

static uint16_t ts_f32_to_bf16(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}

/* A float written into an integer tensor constant must have an int64 value (C's conversion of
 * anything else is undefined); its fraction is dropped as PyTorch's casts do. */
static void ts_check_value(TsParser *P, SrcLoc loc, DType dt, double f, bool is_int) {
  if (is_int || ir_dtype_is_float(dt)) return;
  if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0))
    ts_fail(P, loc, "value %g does not fit the integer dtype %s of this tensor constant", f, ir_dtype_name(dt));
}

static void ts_store(IrTensor *t, size_t idx, double f, int64_t i, bool is_int) {
  unsigned char *p = t->data;
  switch (t->dtype) {
    case DT_F32: { float v = (float)f; memcpy(p + idx * 4, &v, 4); break; }
    case DT_F64: memcpy(p + idx * 8, &f, 8); break;
    case DT_F16: { uint16_t v = ts_f32_to_f16((float)f); memcpy(p + idx * 2, &v, 2); break; }
    case DT_BF16: { uint16_t v = ts_f32_to_bf16((float)f); memcpy(p + idx * 2, &v, 2); break; }
    default: {
      int64_t v = is_int ? i : (int64_t)f;
      switch (t->dtype) {
        case DT_I64: memcpy(p + idx * 8, &v, 8); break;
        case DT_I32: { int32_t w = (int32_t)v; memcpy(p + idx * 4, &w, 4); break; }
        case DT_I16: { int16_t w = (int16_t)v; memcpy(p + idx * 2, &w, 2); break; }
        case DT_I8: { int8_t w = (int8_t)v; memcpy(p + idx, &w, 1); break; }
        case DT_U8: p[idx] = (unsigned char)v; break;
        case DT_BOOL: p[idx] = v != 0; break;
        default: break;
      }
    }
  }
}

typedef struct TsElem {
  double f;
  int64_t i;
  bool is_int;
  int slice, first, last; /* last < 0: the chunk is the whole row */
  int64_t k;              /* position inside the chunk */
  SrcLoc loc;
} TsElem;

static void ts_alloc_tensor_data(TsParser *P, IrTensor *t, SrcLoc loc) {
  int64_t numel = 1;
  for (int d = 0; d < t->ndim; d++) {
    if (t->shape[d] != 0 && numel > ((int64_t)1 << 31) / t->shape[d])
      ts_fail(P, loc, "tensor constant too large");
    numel *= t->shape[d];
  }
  t->nbytes = (size_t)numel * ir_dtype_size(t->dtype);
  t->data = arena_alloc(P->a, t->nbytes ? t->nbytes : 1);
}

/* Reads `(1,.,.) = ...`, `Columns 1 to 7`, `SCALE *`, numbers, and the closing
 * `[ CPUFloatType{2,3} ]`, as at::print writes a tensor (newlines already turned to blanks). */
static IrTensor *ts_tensor_print(TsParser *P) {
  SrcLoc start = ts_cloc(P);
  int cap = 16, n = 0, slice = -1, first = 0, last = -1;
  int64_t k = 0;
  double scale = 1;
  bool lossy = false;
  TsElem *el = arena_alloc(P->a, (size_t)cap * sizeof *el);
  for (;;) {
    ts_cskip(P);
    int c = ts_c(P, 0);
    if (c == '[') break;
    if (c == '(') {
      while (ts_c(P, 0) >= 0 && ts_c(P, 0) != ')' && ts_c(P, 0) != '\n') ts_cbump(P, 1);
      ts_cexpect(P, ')');
      ts_cexpect(P, '=');
      slice++;
      first = 0, last = -1, k = 0, scale = 1;
      continue;
    }
    if (ts_cword(P, "Columns")) {
      ts_cbump(P, 7);
      double f;
      int64_t a, b;
      bool isint;
      int sig;
      ts_cskip(P);
      if (!ts_cnumber(P, &f, &a, &isint, &sig) || !isint) ts_cfail_expected(P, "a column number");
      ts_cskip(P);
      if (!ts_cword(P, "to")) ts_cfail_expected(P, "'to'");
      ts_cbump(P, 2);
      ts_cskip(P);
      if (!ts_cnumber(P, &f, &b, &isint, &sig) || !isint) ts_cfail_expected(P, "a column number");
      if (a < 1 || b < a || b > 1 << 30) ts_fail(P, start, "bad column range in tensor constant");
      first = (int)a - 1, last = (int)b - 1, k = 0, scale = 1;
      if (slice < 0) slice = 0;
      continue;
    }
    double f;
    int64_t iv;
    bool isint;
    int sig;
    SrcLoc nloc = ts_cloc(P);
    if (!ts_cnumber(P, &f, &iv, &isint, &sig))
      ts_cfail_expected(P, "a number or the closing '[ CPU...Type{...} ]' of a tensor constant");
    ts_cskip(P);
    if (ts_c(P, 0) == '*') {
      ts_cbump(P, 1);
      scale = f;
      lossy = true;
      continue;
    }
    if (!isint) lossy = true;
    if (n == cap) {
      if (cap > (1 << 24)) ts_fail(P, start, "tensor constant too large");
      TsElem *ne = arena_alloc(P->a, (size_t)cap * 2 * sizeof *ne);
      memcpy(ne, el, (size_t)n * sizeof *ne);
      el = ne;
      cap *= 2;
    }
    TsElem *e = &el[n++];
    e->is_int = isint && scale == 1;
    e->i = iv;
    e->f = f * scale;
    e->slice = slice < 0 ? 0 : slice;
    e->first = first;
    e->last = last;
    e->k = k++;
    e->loc = nloc;
  }
  /* '[' ' ' DEVICEdtypeType '{' dims '}' ' ' ']' */
  SrcLoc tloc = ts_cloc(P);
  ts_cbump(P, 1);
  ts_cskip(P);
  size_t b = P->lx.pos;
  while (ts_c(P, 0) >= 0 && isalnum(ts_c(P, 0))) ts_cbump(P, 1);
  size_t e = P->lx.pos;
  char name[48];
  if (e - b < 5 || e - b >= sizeof name || memcmp(P->lx.src + e - 4, "Type", 4) != 0)
    ts_fail(P, tloc, "expected a tensor type like 'CPUFloatType' in tensor constant");
  memcpy(name, P->lx.src + b, e - b - 4);
  name[e - b - 4] = 0;
  const char *dn = name;
  static const char *const devs[] = {"CUDA", "CPU", "MPS", "XLA", "HIP", "Meta"};
  for (size_t j = 0; j < sizeof devs / sizeof *devs; j++)
    if (strncmp(dn, devs[j], strlen(devs[j])) == 0) {
      dn += strlen(devs[j]);
      break;
    }
  IrTensor *t = arena_alloc(P->a, sizeof *t);
  t->dtype = ir_dtype_from_torch_name(dn);
  if (t->dtype == DT_UNDEF) ts_fail(P, tloc, "unsupported tensor element type '%s'", dn);
  ts_cexpect(P, '{');
  ts_cskip(P);
  if (ts_c(P, 0) != '}') {
    for (;;) {
      double f;
      int64_t v;
      bool isint;
      int sig;
      ts_cskip(P);
      if (!ts_cnumber(P, &f, &v, &isint, &sig) || !isint || v < 0)
        ts_cfail_expected(P, "a tensor dimension");
      if (t->ndim >= IR_MAX_DIMS)
        ts_fail(P, tloc, "tensors of rank above %d are not supported", IR_MAX_DIMS);
      t->shape[t->ndim++] = v;
      ts_cskip(P);
      if (ts_c(P, 0) != ',') break;
      ts_cbump(P, 1);
    }
  }
  ts_cexpect(P, '}');
  ts_cexpect(P, ']');
  ts_alloc_tensor_data(P, t, tloc);
  t->lossy = lossy && ir_dtype_is_float(t->dtype);
  int64_t numel = (int64_t)(t->nbytes / ir_dtype_size(t->dtype));
  if (n != numel)
    ts_fail(P, start, "tensor constant has %d values but its shape holds %lld", n,
            (long long)numel);
  int64_t R = t->ndim >= 2 ? t->shape[t->ndim - 2] : 1;
  int64_t C = t->ndim >= 1 ? t->shape[t->ndim - 1] : 1;
  for (int j = 0; j < n; j++) {
    TsElem *x = &el[j];
    int64_t w = x->last < 0 ? C : x->last - x->first + 1;
    int64_t row = x->k / w, col = x->first + x->k % w;
    if (t->ndim < 2) row = 0, col = x->k;
    int64_t idx = (int64_t)x->slice * R * C + row * C + col;
    if (row >= R || col >= C || idx >= numel || (x->last >= 0 && x->last >= C))
      ts_fail(P, x->loc, "value out of place in tensor constant of shape {%lld,%lld}",
              (long long)R, (long long)C);
    ts_check_value(P, x->loc, t->dtype, x->f, x->is_int);
    ts_store(t, (size_t)idx, x->f, x->i, x->is_int);
  }
  return t;
}

/* ---- constant values -------------------------------------------------------------------- */

static Iv *ts_iv_new(TsParser *P, IvKind k, SrcLoc loc) {
  if (++P->nivs > TS_MAX_CONST_VALUES)
    ts_fail(P, loc, "the graph's constants hold more than %zu values in all (mc's limit)", TS_MAX_CONST_VALUES);
  Iv *v = arena_alloc(P->a, sizeof *v);
  v->k = k;
  v->loc = loc;
  return v;
}

static void ts_iv_push(TsParser *P, Iv *list, Iv *x, int *cap) {
  if (list->n == *cap) {
    int nc = *cap ? *cap * 2 : 4;
    Iv **ne = arena_alloc(P->a, (size_t)nc * sizeof *ne);
    if (list->n) memcpy(ne, list->el, (size_t)list->n * sizeof *ne);
    list->el = ne;
    *cap = nc;
  }
  list->el[list->n++] = x;
}

/* Is the cursor at a tensor print (a marker, or a number followed by more of the print)? */
static bool ts_at_tensor_print(TsParser *P) {
  int c = ts_c(P, 0);
  if (ts_cword(P, "Columns")) return true;
  if (c == '(') {
    size_t k = 1;
    bool dotcomma = false;
    while (ts_c(P, k) >= 0 && strchr("0123456789,.", ts_c(P, k))) {
      if (ts_c(P, k) == '.' && ts_c(P, k - 1) == ',') dotcomma = true;
      k++;
    }
    return dotcomma && ts_c(P, k) == ')';
  }
  if (c == '[') {
    size_t k = 1;
    while (ts_c(P, k) == ' ') k++;
    size_t b = k;
    while (ts_c(P, k) >= 0 && isalnum(ts_c(P, k))) k++;
    return k - b > 4 && ts_c(P, k) == '{' && ts_c(P, k - 4) == 'T' && ts_c(P, k - 1) == 'e';
  }
  return false;
}

static const char *ts_cstring(TsParser *P) {
  SrcLoc loc = ts_cloc(P);
  size_t k = 1;
  for (;;) {
    int c = ts_c(P, k);
    if (c < 0 || c == '\n') ts_fail(P, loc, "unterminated string");
    if (c == '"') break;
    if (c == '\\' && ts_c(P, k + 1) >= 0 && ts_c(P, k + 1) != '\n') k++;
    k++;
  }
  char *out = arena_alloc(P->a, k);
  ts_unescape(P->lx.src + P->lx.pos + 1, k - 1, out);
  ts_cbump(P, k + 1);
  return out;
}

/* The annotation of annotate(T, v): raw text up to the ',' at depth 0. */
static const char *ts_cannot(TsParser *P) {
  size_t b = P->lx.pos;
  int depth = 0;
  for (;;) {
    int c = ts_c(P, 0);
    if (c < 0 || c == '\n') ts_cfail_expected(P, "',' after the annotation");
    if (c == '[' || c == '(') depth++;
    if (c == ']' || c == ')') {
      if (--depth < 0) ts_cfail_expected(P, "',' after the annotation");
    }
    if (c == ',' && depth == 0) break;
    ts_cbump(P, 1);
  }
  return arena_strndup(P->a, P->lx.src + b, P->lx.pos - b);
}

static Iv *ts_iv_body(TsParser *P) {
  ts_cskip(P);
  SrcLoc loc = ts_cloc(P);
  int c = ts_c(P, 0);
  if (c < 0 || c == '\n') ts_cfail_expected(P, "a constant value");
  if (c == '"') {
    Iv *v = ts_iv_new(P, IV_STR, loc);
    v->s = ts_cstring(P);
    return v;
  }
  if (ts_at_tensor_print(P)) {
    Iv *v = ts_iv_new(P, IV_TENSOR, loc);
    v->t = ts_tensor_print(P);
    return v;
  }
  if (c == '<') {
    if (ts_cword(P, "<Tensor>")) {
      ts_cbump(P, 8);
      Iv *v = ts_iv_new(P, IV_TENSOR, loc);
      v->t = arena_alloc(P->a, sizeof *v->t);
      v->t->dtype = DT_UNDEF;
      return v;
    }
    ts_cfail_expected(P, "a constant value");
  }
  if (c == '[' && ts_c(P, 1) == '<') {
    if (ts_cword(P, "[<Tensors>]")) {
      ts_cbump(P, 11);
      return ts_iv_new(P, IV_TENSORS, loc);
    }
  }
  if (c == '[' || c == '(') {
    Iv *v = ts_iv_new(P, c == '[' ? IV_LIST : IV_TUPLE, loc);
    char close = c == '[' ? ']' : ')';
    int cap = 0;
    ts_cbump(P, 1);
    ts_cskip(P);
    if (ts_c(P, 0) != close) {
      for (;;) {
        ts_iv_push(P, v, ts_iv(P), &cap);
        ts_cskip(P);
        if (ts_c(P, 0) != ',') break;
        ts_cbump(P, 1);
        ts_cskip(P);
        if (close == ')' && ts_c(P, 0) == ')') break; /* (x,) */
      }
    }
    ts_cexpect(P, close);
    return v;
  }
  if (c == '{') {
    ts_cbump(P, 1);
    ts_cskip(P);
    Iv *v = ts_iv_new(P, IV_DICT, loc);
    int cap = 0;
    if (ts_c(P, 0) == '}') {
      ts_cbump(P, 1);
      return v;
    }
    Iv *first = ts_iv(P);
    ts_cskip(P);
    if (ts_c(P, 0) == '}' && (first->k == IV_INT || first->k == IV_FLOAT)) {
      ts_cbump(P, 1);
      Iv *t = ts_iv_new(P, IV_TENSOR, loc);
      t->brace = true;
      t->i = first->i;
      t->f = first->f;
      t->is_int = first->k == IV_INT;
      t->sig_digits = first->sig_digits;
      return t;
    }
    for (;;) {
      ts_iv_push(P, v, first, &cap);
      ts_cexpect(P, ':');
      ts_iv_push(P, v, ts_iv(P), &cap);
      ts_cskip(P);
      if (ts_c(P, 0) != ',') break;
      ts_cbump(P, 1);
      first = ts_iv(P);
    }
    ts_cexpect(P, '}');
    return v;
  }
  if (ts_cword(P, "None")) {
    ts_cbump(P, 4);
    return ts_iv_new(P, IV_NONE, loc);
  }
  if (ts_cword(P, "True") || ts_cword(P, "False")) {
    Iv *v = ts_iv_new(P, IV_BOOL, loc);
    v->i = c == 'T';
    ts_cbump(P, v->i ? 4 : 5);
    return v;
  }
  if (ts_cword(P, "annotate")) {
    ts_cbump(P, 8);
    ts_cexpect(P, '(');
    ts_cskip(P);
    const char *annot = ts_cannot(P);
    ts_cbump(P, 1);
    Iv *v = ts_iv(P);
    v->annot = annot;
    ts_cexpect(P, ')');
    return v;
  }
  size_t save_pos = P->lx.pos;
  int save_line = P->lx.line, save_col = P->lx.col;
  double f;
  int64_t i;
  bool isint;
  int sig;
  if (ts_cnumber(P, &f, &i, &isint, &sig)) {
    ts_cskip(P);
    int d = ts_c(P, 0);
    if (d >= 0 && (isdigit(d) || d == '-' || d == '+' || d == '*' || d == '[' || d == 'n' ||
                   d == 'i')) {
      P->lx.pos = save_pos, P->lx.line = save_line, P->lx.col = save_col;
      Iv *v = ts_iv_new(P, IV_TENSOR, loc);
      v->t = ts_tensor_print(P);
      return v;
    }
    Iv *v = ts_iv_new(P, isint ? IV_INT : IV_FLOAT, loc);
    v->i = i;
    v->f = f;
    v->sig_digits = sig;
    return v;
  }
  ts_cfail_expected(P, "a constant value");
}

Iv *ts_iv(TsParser *P) {
  ts_enter(P, ts_cloc(P));
  Iv *v = ts_iv_body(P);
  P->depth--;
  return v;
}

/* ---- building constants ----------------------------------------------------------------- */

static TypeKind ts_kind(const Type *t) { return t ? t->kind : TY_ANY; }

static const Type *ts_strip_optional(const Type *t) {
  while (t && t->kind == TY_OPTIONAL) t = t->elem;
  return t;
}

static void ts_tensor_from_type(IrTensor *x, const Type *t) {
  t = ts_strip_optional(t);
  if (!t || t->kind != TY_TENSOR) return;
  if (x->dtype == DT_UNDEF) x->dtype = t->dtype;
  if (t->ndim >= 0) {
    x->ndim = t->ndim;
    memcpy(x->shape, t->shape, sizeof x->shape);
  }
}

/* The IrTensor for {x}: dtype and shape from the type when it has them. */
static IrTensor *ts_brace_tensor(TsParser *P, const Iv *v, const Type *ty) {
  IrTensor *x = arena_alloc(P->a, sizeof *x);
  const Type *t = ts_strip_optional(ty);
  bool is_int = v->is_int;
  x->dtype = DT_UNDEF;
  if (t && t->kind == TY_TENSOR) {
    x->dtype = t->dtype;
    if (t->ndim > 0 && ir_type_numel(t) == 1) {
      x->ndim = t->ndim;
      memcpy(x->shape, t->shape, sizeof x->shape);
    }
  }
  if (x->dtype == DT_UNDEF) x->dtype = is_int ? DT_I64 : DT_F32;
  ts_alloc_tensor_data(P, x, v->loc);
  ts_check_value(P, v->loc, x->dtype, v->f, is_int);
  ts_store(x, 0, v->f, v->i, is_int);
  x->lossy = ir_dtype_is_float(x->dtype) && !is_int && v->sig_digits >= 6;
  return x;
}

static Type *ts_iv_type(TsParser *P, const Iv *v);

static Type *ts_tensor_type_of(TsParser *P, const IrTensor *x) {
  if (!x->data) return ts_type_unknown_tensor(P->a);
  return ir_type_tensor(P->a, x->dtype, x->ndim, x->shape);
}

static Type *ts_iv_type(TsParser *P, const Iv *v) {
  switch (v->k) {
    case IV_NONE: return ir_type_new(P->a, TY_NONE);
    case IV_INT: return ir_type_new(P->a, TY_INT);
    case IV_FLOAT: return ir_type_new(P->a, TY_FLOAT);
    case IV_BOOL: return ir_type_new(P->a, TY_BOOL);
    case IV_STR: return ir_type_new(P->a, TY_STR);
    case IV_TENSOR:
      return v->brace ? ts_tensor_type_of(P, ts_brace_tensor(P, v, NULL))
                      : ts_tensor_type_of(P, v->t);
    case IV_LIST: {
      Type *t = ir_type_new(P->a, TY_LIST);
      bool none = false;
      for (int i = 0; i < v->n; i++) {
        if (v->el[i]->k == IV_NONE) none = true;
        else if (!t->elem) t->elem = ts_iv_type(P, v->el[i]);
      }
      if (!t->elem) t->elem = none ? ir_type_new(P->a, TY_NONE) : ts_type_unknown_tensor(P->a);
      else if (t->elem->kind == TY_TENSOR) t->elem = ts_type_unknown_tensor(P->a);
      if (none && t->elem->kind != TY_NONE) {
        Type *o = ir_type_new(P->a, TY_OPTIONAL);
        o->elem = t->elem;
        t->elem = o;
      }
      return t;
    }
    case IV_TUPLE: {
      Type *t = ir_type_new(P->a, TY_TUPLE);
      t->elems = arena_alloc(P->a, (size_t)(v->n ? v->n : 1) * sizeof *t->elems);
      t->nelems = v->n;
      for (int i = 0; i < v->n; i++) t->elems[i] = ts_iv_type(P, v->el[i]);
      return t;
    }
    case IV_DICT: {
      Type *t = ir_type_new(P->a, TY_CLASS);
      t->name = v->n ? arena_printf(P->a, "Dict(%s, %s)", ir_type_str(P->a, ts_iv_type(P, v->el[0])),
                                    ir_type_str(P->a, ts_iv_type(P, v->el[1])))
                     : "Dict(str, Tensor)";
      return t;
    }
    case IV_TENSORS: break;
  }
  return ir_type_new(P->a, TY_ANY);
}

static bool ts_annot_is(const Iv *v, const char *elem) {
  char want[32];
  snprintf(want, sizeof want, "List[%s]", elem);
  return v->annot && strcmp(v->annot, want) == 0;
}

/* Converts v into attribute `name` of n when the IR has an attribute kind for it. `ty` is
 * the declared type of the value (prim::Constant) or NULL. */
bool ts_iv_to_attr(TsParser *P, Node *n, const char *name, const Iv *v, const Type *ty) {
  TypeKind tk = ts_kind(ts_strip_optional(ty));
  Attr *a;
  switch (v->k) {
    case IV_NONE:
      if (strcmp(name, "value") == 0 && ir_node_is(n, "prim::Constant")) return true;
      ir_node_add_attr(n, name, ATTR_NONE);
      return true;
    case IV_INT:
      if (tk == TY_BOOL && v->i != 0 && v->i != 1) return false; /* bools print as 0 or 1 */
      if (tk == TY_FLOAT) {
        ir_node_add_attr(n, name, ATTR_FLOAT)->f = (double)v->i;
      } else {
        a = ir_node_add_attr(n, name, tk == TY_BOOL ? ATTR_BOOL : ATTR_INT);
        a->i = tk == TY_BOOL ? v->i != 0 : v->i;
      }
      return true;
    case IV_BOOL:
      ir_node_add_attr(n, name, ATTR_BOOL)->i = v->i;
      return true;
    case IV_FLOAT:
      ir_node_add_attr(n, name, ATTR_FLOAT)->f = v->f;
      return true;
    case IV_STR:
      ir_node_add_attr(n, name, tk == TY_DEVICE ? ATTR_DEVICE : ATTR_STR)->s = v->s;
      return true;
    case IV_TENSOR: {
      if (tk != TY_TENSOR && tk != TY_ANY && tk != TY_NUMBER) return false;
      IrTensor *x = v->brace ? ts_brace_tensor(P, v, ty) : v->t;
      if (!x->data) {
        IrTensor *c = arena_memdup(P->a, x, sizeof *x);
        ts_tensor_from_type(c, ty);
        x = c;
      }
      ir_node_add_attr(n, name, ATTR_TENSOR)->t = x;
      return true;
    }
    case IV_LIST: {
      const Type *et = tk == TY_LIST ? ts_strip_optional(ty)->elem : NULL;
      TypeKind ek = et ? et->kind : TY_ANY;
      bool all_int = true, all_bool = true, all_num = true, all_str = true;
      for (int i = 0; i < v->n; i++) {
        IvKind k = v->el[i]->k;
        all_int &= k == IV_INT;
        all_bool &= k == IV_BOOL || (k == IV_INT && ek == TY_BOOL);
        all_num &= k == IV_INT || k == IV_FLOAT;
        all_str &= k == IV_STR;
      }
      AttrKind ak;
      if (v->n == 0) {
        if (ek == TY_INT || (ek == TY_ANY && ts_annot_is(v, "int"))) ak = ATTR_INTS;
        else if (ek == TY_FLOAT || (ek == TY_ANY && ts_annot_is(v, "float"))) ak = ATTR_FLOATS;
        else if (ek == TY_BOOL || (ek == TY_ANY && ts_annot_is(v, "bool"))) ak = ATTR_BOOLS;
        else if (ek == TY_STR || (ek == TY_ANY && ts_annot_is(v, "str"))) ak = ATTR_STRS;
        else return false;
      } else if (all_bool && (ek == TY_BOOL || ek == TY_ANY)) {
        ak = ATTR_BOOLS;
      } else if (all_int && (ek == TY_INT || ek == TY_ANY)) {
        ak = ATTR_INTS;
      } else if (all_num && (ek == TY_FLOAT || ek == TY_ANY)) {
        ak = ATTR_FLOATS;
      } else if (all_str && (ek == TY_STR || ek == TY_ANY)) {
        ak = ATTR_STRS;
      } else {
        return false;
      }
      a = ir_node_add_attr(n, name, ak);
      a->n = v->n;
      size_t cnt = (size_t)(v->n ? v->n : 1);
      if (ak == ATTR_INTS || ak == ATTR_BOOLS) {
        a->ints = arena_alloc(P->a, cnt * sizeof *a->ints);
        for (int i = 0; i < v->n; i++)
          a->ints[i] = ak == ATTR_BOOLS ? v->el[i]->i != 0 : v->el[i]->i;
      } else if (ak == ATTR_FLOATS) {
        a->floats = arena_alloc(P->a, cnt * sizeof *a->floats);
        for (int i = 0; i < v->n; i++) a->floats[i] = v->el[i]->f;
      } else {
        a->strs = arena_alloc(P->a, cnt * sizeof *a->strs);
        for (int i = 0; i < v->n; i++) a->strs[i] = v->el[i]->s;
      }
      return true;
    }
    default:
      return false;
  }
}

static const char *ts_fresh_name(TsParser *P, const char *base, int k) {
  char *name = arena_printf(P->a, "%s_%d", base, k);
  while (ir_name_taken(P->g, name)) name = arena_printf(P->a, "%s_", name);
  return name;
}

/* Builds the node that defines a constant of value v (a prim::Constant, or a *Construct of
 * element constants appended to b first). The caller adds the output and appends the node. */
Node *ts_const_node(TsParser *P, Block *b, const Iv *v, const Type *ty, const char *base,
                           SrcLoc loc) {
  Node *n = ir_node_new(P->g, "prim::Constant", NULL, 0, 0, NULL);
  if (v->k == IV_TENSORS)
    ts_fail(P, v->loc, "constant lists of tensors ([<Tensors>]) are not supported");
  if (ts_iv_to_attr(P, n, "value", v, ty)) return n;
  if (v->k != IV_LIST && v->k != IV_TUPLE && v->k != IV_DICT)
    ts_fail(P, v->loc, "constant does not match its type '%s'",
            ty ? ir_type_str(P->a, ty) : "?");
  ts_enter(P, v->loc);
  const Type *t = ts_strip_optional(ty);
  n = ir_node_new(P->g,
                  v->k == IV_LIST ? "prim::ListConstruct"
                  : v->k == IV_TUPLE ? "prim::TupleConstruct" : "prim::DictConstruct",
                  NULL, 0, 0, NULL);
  for (int i = 0; i < v->n; i++) {
    const Iv *e = v->el[i];
    Type *et = NULL;
    if (v->k == IV_LIST && t && t->kind == TY_LIST) et = t->elem;
    if (v->k == IV_TUPLE && t && t->kind == TY_TUPLE && t->nelems == v->n) et = t->elems[i];
    if (e->k == IV_NONE) et = ir_type_new(P->a, TY_NONE);
    if (et && e->k == IV_TENSOR && ts_strip_optional(et)->kind == TY_TENSOR) {
      IrTensor *x = e->brace ? ts_brace_tensor(P, e, et) : e->t;
      et = ts_tensor_type_of(P, x);
    } else if (!et || et->kind == TY_OPTIONAL || et->kind == TY_ANY || et->kind == TY_NUMBER) {
      et = ts_iv_type(P, e);
    }
    const char *name = ts_fresh_name(P, base, i);
    Node *en = ts_const_node(P, b, e, et, name, loc);
    Value *ev = ir_node_add_output(en, et, name);
    ev->loc = loc;
    en->loc = loc;
    ir_append(b, en);
    ts_define(P, ev);
    ir_node_add_input(n, ev);
  }
  P->depth--;
  return n;
}
