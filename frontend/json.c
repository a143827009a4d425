/* json.c — builds the IR from a graph JSON file (docs/graph-json.md) parsed by cJSON.
 *
 * cJSON keeps no positions, so after parsing, one walk over the cJSON tree in parallel with the
 * text records every item's byte offset and parent (JsonLocs). With it every diagnostic names
 * the JSON path of the offending item ("/graph/nodes/3/inputs/1") and its line:col, and
 * integers are re-read from their text so int64 values beyond 2^53 (slice ends of INT64_MAX)
 * stay exact. The first error stops the parse: every builder returns false after reporting.
 *
 * Scoping follows TorchScript: a value is usable in the block that defines it and in blocks
 * nested in it, after its definition; a node's outputs are defined after its blocks. Names are
 * unique in the whole graph. Types are strings in TorchScript's printed syntax, read by the
 * small parser below (tp_*); recursion is bounded so fuzzed input cannot exhaust the stack.
 */
#include "frontend/json.h"
#include "ir/file.h"

#include <cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define JSON_MAX_TYPE_DEPTH 64
#define JSON_MAX_PATH 1100 /* above cJSON's nesting limit (1000) */

typedef struct JsonLoc {
  const cJSON *item, *parent;
  size_t off;
} JsonLoc;

typedef struct JsonCtx {
  Diag *d;
  Graph *g;
  Arena *a;
  const char *path;
  const char *text; /* NUL-terminated copy in the arena */
  size_t len;
  JsonLoc *locs;    /* open-addressing table keyed by item pointer; malloc'd */
  size_t loc_cap;
  bool locs_ok;
  /* Large documents: the top block's "nodes" array is parsed one element at a time (the text
   * between nodes_lb and nodes_rb is left out of the tree), so the whole document never exists
   * as a cJSON tree. The element being read has its own location table (elocs). */
  size_t nodes_lb, nodes_rb; /* offsets of its '[' and ']'; streamed when nodes_rb > 0 */
  const cJSON *stream_arr;   /* the (empty) "nodes" array item of the tree */
  int stream_idx;            /* index of the element being read */
  JsonLoc *elocs;
  size_t eloc_cap;
  size_t cur_off;   /* line cache for json_offset_loc */
  int cur_line, cur_col;
  const unsigned char *wdata; /* the weights file, NULL when the JSON names none */
  size_t wlen;
  const char *wpath;
} JsonCtx;

/* ---- bounded trees ------------------------------------------------------------------------- */
/* cJSON allocates through these hooks (installed for the process on the first document), which
 * keep what its trees hold alive under JSON_MAX_TREE_BYTES: a parse that would pass it fails at
 * that value, and json_over says why. Without it a 120 MB array of zeros became 8 GB of tree.
 * The documents mc reads hold their bulk in the weights file and in "nodes", which is read one
 * node at a time from 1 MiB on (json_nodes_streamed), so the bound is per node there. */
#define JSON_MAX_TREE_BYTES ((size_t)256 << 20)
typedef union JsonBlock {
  size_t n;
  max_align_t align;
} JsonBlock;
static size_t json_live; /* bytes the hooks have handed out and not taken back */
static bool json_over;   /* a request was refused since json_over was last cleared */

static void *json_malloc(size_t n) {
  if (n > JSON_MAX_TREE_BYTES - json_live) {
    json_over = true;
    return NULL;
  }
  JsonBlock *b = malloc(sizeof *b + n);
  if (!b) return NULL;
  b->n = n;
  json_live += n;
  return b + 1;
}

static void json_free(void *q) {
  if (!q) return;
  JsonBlock *b = (JsonBlock *)q - 1;
  json_live -= b->n;
  free(b);
}

static void json_hooks(void) {
  static bool done;
  if (done) return;
  cJSON_Hooks h = {json_malloc, json_free};
  cJSON_InitHooks(&h);
  done = true;
}

/* ---- item locations ------------------------------------------------------------------------ */
static size_t json_loc_hash(const cJSON *p, size_t cap) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= (uintptr_t)0x9E3779B97F4A7C15ull;
  return (size_t)(x ^ (x >> 29)) & (cap - 1);
}

static void json_loc_put(JsonCtx *c, const cJSON *it, const cJSON *parent, size_t off) {
  size_t i = json_loc_hash(it, c->loc_cap);
  while (c->locs[i].item && c->locs[i].item != it) i = (i + 1) & (c->loc_cap - 1);
  c->locs[i] = (JsonLoc){it, parent, off};
}

static const JsonLoc *json_loc_get(const JsonCtx *c, const cJSON *it) {
  if (!c->locs_ok || !it) return NULL;
  if (c->eloc_cap) {
    size_t i = json_loc_hash(it, c->eloc_cap);
    for (; c->elocs[i].item; i = (i + 1) & (c->eloc_cap - 1))
      if (c->elocs[i].item == it) return &c->elocs[i];
  }
  size_t i = json_loc_hash(it, c->loc_cap);
  while (c->locs[i].item) {
    if (c->locs[i].item == it) return &c->locs[i];
    i = (i + 1) & (c->loc_cap - 1);
  }
  return NULL;
}

static size_t json_count_items(const cJSON *it) {
  size_t n = 1;
  for (const cJSON *ch = it->child; ch; ch = ch->next) n += json_count_items(ch);
  return n;
}

static const char *json_skip_ws(const char *p, const char *e) {
  while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

static const char *json_skip_string(const char *p, const char *e) {
  if (p >= e || *p != '"') return NULL;
  for (p++; p < e && *p != '"'; p++)
    if (*p == '\\') p++;
  return p < e ? p + 1 : NULL;
}

/* Walks the cJSON tree and the text together, recording where each item starts. */
static const char *json_loc_walk(JsonCtx *c, const cJSON *it, const cJSON *parent, const char *p,
                                 const char *e) {
  p = json_skip_ws(p, e);
  if (p >= e) return NULL;
  json_loc_put(c, it, parent, (size_t)(p - c->text));
  if (cJSON_IsObject(it) || cJSON_IsArray(it)) {
    bool obj = cJSON_IsObject(it);
    if (*p != (obj ? '{' : '[')) return NULL;
    p++;
    for (const cJSON *ch = it->child; ch; ch = ch->next) {
      p = json_skip_ws(p, e);
      if (ch != it->child) {
        if (p >= e || *p != ',') return NULL;
        p = json_skip_ws(p + 1, e);
      }
      if (obj) {
        p = json_skip_string(p, e);
        if (!p) return NULL;
        p = json_skip_ws(p, e);
        if (p >= e || *p != ':') return NULL;
        p++;
      }
      p = json_loc_walk(c, ch, it, p, e);
      if (!p) return NULL;
    }
    p = json_skip_ws(p, e);
    if (p >= e || *p != (obj ? '}' : ']')) return NULL;
    return p + 1;
  }
  if (cJSON_IsString(it)) return json_skip_string(p, e);
  const char *q = p;
  while (q < e && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                   *q == '+' || *q == '-' || *q == '.'))
    q++;
  return q > p ? q : NULL;
}

static void json_locs_build(JsonCtx *c, const cJSON *root, const char *start) {
  size_t n = json_count_items(root), cap = 16;
  while (cap < 2 * n) cap *= 2;
  c->locs = calloc(cap, sizeof *c->locs);
  c->loc_cap = cap;
  if (!c->locs) return;
  c->locs_ok = json_loc_walk(c, root, NULL, start, c->text + c->len) != NULL;
}

static SrcLoc json_offset_loc(JsonCtx *c, size_t off) {
  if (off > c->len) off = c->len;
  if (off < c->cur_off || c->cur_line == 0) {
    c->cur_off = 0;
    c->cur_line = 1;
    c->cur_col = 1;
  }
  for (size_t i = c->cur_off; i < off; i++) {
    if (c->text[i] == '\n') {
      c->cur_line++;
      c->cur_col = 1;
    } else {
      c->cur_col++;
    }
  }
  c->cur_off = off;
  return (SrcLoc){c->path, c->cur_line, c->cur_col};
}

static SrcLoc json_item_loc(JsonCtx *c, const cJSON *it) {
  const JsonLoc *l = json_loc_get(c, it);
  if (!l) return (SrcLoc){c->path, 0, 0};
  return json_offset_loc(c, l->off);
}

/* The JSON pointer of an item ("/graph/nodes/3"), into buf. */
static void json_item_path(const JsonCtx *c, const cJSON *it, char *buf, size_t cap) {
  const cJSON *chain[JSON_MAX_PATH];
  int n = 0;
  for (const JsonLoc *l = json_loc_get(c, it); l && l->parent && n < JSON_MAX_PATH;
       l = json_loc_get(c, l->parent))
    chain[n++] = l->item;
  size_t used = 0;
  buf[0] = '\0';
  for (int k = n - 1; k >= 0 && used + 1 < cap; k--) {
    const JsonLoc *l = json_loc_get(c, chain[k]);
    int w;
    if (cJSON_IsObject(l->parent)) {
      w = snprintf(buf + used, cap - used, "/%s", chain[k]->string ? chain[k]->string : "");
    } else {
      int idx = 0;
      if (l->parent == c->stream_arr) idx = c->stream_idx;
      else
        for (const cJSON *s = l->parent->child; s && s != chain[k]; s = s->next) idx++;
      w = snprintf(buf + used, cap - used, "/%d", idx);
    }
    if (w < 0) break;
    used += (size_t)w;
  }
  if (used >= cap) buf[cap - 1] = '\0';
  if (!buf[0]) snprintf(buf, cap, "/");
}

static bool json_err(JsonCtx *c, const cJSON *it, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool json_err(JsonCtx *c, const cJSON *it, const char *fmt, ...) {
  char path[512], msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  json_item_path(c, it, path, sizeof path);
  diag_error(c->d, json_item_loc(c, it), "%s: %s", path, msg);
  return false;
}

/* ---- typed access ----------------------------------------------------------------------- */
static const char *json_kind_name(const cJSON *it) {
  if (!it) return "nothing";
  if (cJSON_IsObject(it)) return "an object";
  if (cJSON_IsArray(it)) return "an array";
  if (cJSON_IsString(it)) return "a string";
  if (cJSON_IsNumber(it)) return "a number";
  if (cJSON_IsBool(it)) return "a boolean";
  if (cJSON_IsNull(it)) return "null";
  return "an invalid item";
}

/* Member `key` of object `obj`; reports a missing required member. */
static const cJSON *json_member(JsonCtx *c, const cJSON *obj, const char *key, bool required) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!m && required) json_err(c, obj, "missing member \"%s\"", key);
  return m;
}

static bool json_want(JsonCtx *c, const cJSON *it, bool ok, const char *what) {
  if (ok) return true;
  return json_err(c, it, "expected %s, found %s", what, json_kind_name(it));
}

static const char *json_string(JsonCtx *c, const cJSON *obj, const char *key, bool required) {
  const cJSON *m = json_member(c, obj, key, required);
  if (!m) return NULL;
  if (!json_want(c, m, cJSON_IsString(m) && m->valuestring, "a string")) return NULL;
  return m->valuestring;
}

/* Exact int64 from the number's text; false (reported) if it is not an integer in range. */
static bool json_int(JsonCtx *c, const cJSON *it, int64_t *out) {
  if (!json_want(c, it, cJSON_IsNumber(it), "an integer")) return false;
  const JsonLoc *l = json_loc_get(c, it);
  if (l) {
    const char *p = c->text + l->off, *q = p;
    if (*q == '-') q++;
    while (*q >= '0' && *q <= '9') q++;
    if (*q != '.' && *q != 'e' && *q != 'E') {
      errno = 0;
      long long v = strtoll(p, NULL, 10);
      if (errno == ERANGE) return json_err(c, it, "integer out of the int64 range");
      *out = v;
      return true;
    }
  }
  double x = it->valuedouble;
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0) || x != (double)(int64_t)x)
    return json_err(c, it, "expected an integer, found %g", x);
  *out = (int64_t)x;
  return true;
}

/* A float: a number, or "nan", "inf", "-inf" (JSON has no literal for them). */
static bool json_float(JsonCtx *c, const cJSON *it, double *out) {
  if (cJSON_IsNumber(it)) {
    *out = it->valuedouble;
    return true;
  }
  if (cJSON_IsString(it) && it->valuestring) {
    const char *s = it->valuestring;
    if (strcmp(s, "nan") == 0 || strcmp(s, "-nan") == 0) {
      *out = s[0] == '-' ? -NAN : NAN;
      return true;
    }
    if (strcmp(s, "inf") == 0 || strcmp(s, "+inf") == 0 || strcmp(s, "-inf") == 0) {
      *out = s[0] == '-' ? -INFINITY : INFINITY;
      return true;
    }
  }
  return json_err(c, it, "expected a number or \"nan\"/\"inf\"/\"-inf\", found %s",
                  json_kind_name(it));
}

static bool json_valid_name(const char *s) {
  if (!s || !*s) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_' || *s == '.'))
      return false;
  return true;
}

/* A dtype name and a shape array; fills dtype/ndim/shape. */
static bool json_dtype_shape(JsonCtx *c, const cJSON *obj, DType *dt, int *ndim, int64_t *shape) {
  const char *ds = json_string(c, obj, "dtype", true);
  if (!ds) return false;
  *dt = ir_dtype_from_name(ds);
  if (*dt == DT_UNDEF)
    return json_err(c, cJSON_GetObjectItemCaseSensitive(obj, "dtype"),
                    "unknown dtype \"%s\" (float32, float64, float16, bfloat16, int64, int32, "
                    "int16, int8, uint8, bool)", ds);
  const cJSON *sh = json_member(c, obj, "shape", true);
  if (!sh || !json_want(c, sh, cJSON_IsArray(sh), "an array of extents")) return false;
  int n = cJSON_GetArraySize(sh);
  if (n > IR_MAX_DIMS) return json_err(c, sh, "rank %d exceeds the limit of %d", n, IR_MAX_DIMS);
  int k = 0;
  for (const cJSON *e = sh->child; e; e = e->next, k++) {
    if (!json_int(c, e, &shape[k])) return false;
    if (shape[k] < 0) return json_err(c, e, "negative extent %lld", (long long)shape[k]);
  }
  *ndim = n;
  return true;
}

/* ---- type strings ------------------------------------------------------------------------ */
typedef struct TypeParser {
  Arena *a;
  const char *s, *p;
  const char *err;
} TypeParser;

static void tp_ws(TypeParser *t) {
  while (*t->p == ' ') t->p++;
}

static bool tp_eat(TypeParser *t, char ch) {
  tp_ws(t);
  if (*t->p != ch) return false;
  t->p++;
  return true;
}

static size_t tp_ident(TypeParser *t) {
  tp_ws(t);
  const char *q = t->p;
  while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '_' ||
         (q > t->p && ((*q >= '0' && *q <= '9') || *q == '.')))
    q++;
  return (size_t)(q - t->p);
}

static Type *tp_fail(TypeParser *t, const char *msg) {
  if (!t->err) t->err = msg;
  return NULL;
}

static bool tp_int(TypeParser *t, int64_t *out) {
  tp_ws(t);
  char *end;
  errno = 0;
  long long v = strtoll(t->p, &end, 10);
  if (end == t->p || errno == ERANGE) return false;
  t->p = end;
  *out = v;
  return true;
}

static Type *tp_type(TypeParser *t, int depth);

/* After "Float": "(2, *, strides=[3, 1], requires_grad=0, device=cpu)" or nothing. */
static Type *tp_tensor_dims(TypeParser *t, DType dt) {
  Type *ty = ir_type_new(t->a, TY_TENSOR);
  ty->dtype = dt;
  if (!tp_eat(t, '(')) return ty;
  ty->ndim = 0;
  bool strides_known = false;
  int nstrides = 0;
  if (tp_eat(t, ')')) return ty;
  for (;;) {
    tp_ws(t);
    size_t n = tp_ident(t);
    if (n && t->p[n] == '=' ) {
      const char *key = t->p;
      t->p += n + 1;
      if (n == 7 && strncmp(key, "strides", 7) == 0) {
        if (!tp_eat(t, '[')) return tp_fail(t, "expected '[' after strides=");
        strides_known = true;
        if (!tp_eat(t, ']')) {
          do {
            int64_t s = -1;
            if (tp_eat(t, '*')) strides_known = false;
            else if (!tp_int(t, &s)) return tp_fail(t, "bad stride");
            if (nstrides >= IR_MAX_DIMS) return tp_fail(t, "too many strides");
            ty->strides[nstrides++] = s;
          } while (tp_eat(t, ','));
          if (!tp_eat(t, ']')) return tp_fail(t, "expected ']' after strides");
        }
      } else if (n == 13 && strncmp(key, "requires_grad", 13) == 0) {
        int64_t rg;
        if (!tp_int(t, &rg) || (rg != 0 && rg != 1)) return tp_fail(t, "bad requires_grad");
        ty->requires_grad = (int)rg;
      } else if (n == 6 && strncmp(key, "device", 6) == 0) {
        tp_ws(t);
        const char *q = t->p;
        while ((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == ':' || *q == '_') q++;
        if (q == t->p) return tp_fail(t, "bad device");
        ty->device = arena_strndup(t->a, t->p, (size_t)(q - t->p));
        t->p = q;
      } else {
        return tp_fail(t, "unknown tensor type property");
      }
    } else {
      int64_t e = -1;
      if (n == 2 && strncmp(t->p, "SS", 2) == 0) {
        t->p += 2;
        int64_t sym;
        if (!tp_eat(t, '(') || !tp_int(t, &sym) || !tp_eat(t, ')'))
          return tp_fail(t, "bad symbolic extent");
      } else if (!tp_eat(t, '*')) {
        if (!tp_int(t, &e) || e < 0) return tp_fail(t, "bad extent");
      }
      if (ty->ndim >= IR_MAX_DIMS) return tp_fail(t, "rank exceeds the limit");
      ty->shape[ty->ndim++] = e;
    }
    if (tp_eat(t, ')')) break;
    if (!tp_eat(t, ',')) return tp_fail(t, "expected ',' or ')' in tensor type");
  }
  if (strides_known) {
    if (nstrides != ty->ndim) return tp_fail(t, "strides do not match the rank");
    ty->has_strides = true;
  } else {
    memset(ty->strides, 0, sizeof ty->strides);
  }
  return ty;
}

/* Comma-separated types up to `close`; the opening bracket is eaten already. */
static Type *tp_list_of(TypeParser *t, Type *tuple, char close, int depth) {
  if (tp_eat(t, close)) return tuple;
  Type *elems[64];
  int n = 0;
  do {
    Type *e = tp_type(t, depth + 1);
    if (!e) return NULL;
    if (n >= 64) return tp_fail(t, "too many tuple elements");
    elems[n++] = e;
  } while (tp_eat(t, ','));
  if (!tp_eat(t, close)) return tp_fail(t, close == ')' ? "expected ')'" : "expected ']'");
  tuple->nelems = n;
  tuple->elems = arena_memdup(t->a, elems, sizeof(Type *) * (size_t)n);
  return tuple;
}

static Type *tp_wrap(TypeParser *t, TypeKind k, Type *elem) {
  Type *w = ir_type_new(t->a, k);
  w->elem = elem;
  return w;
}

static Type *tp_base(TypeParser *t, int depth) {
  static const struct {
    const char *name;
    TypeKind kind;
  } simple[] = {
      {"int", TY_INT},           {"float", TY_FLOAT},         {"bool", TY_BOOL},
      {"NoneType", TY_NONE},     {"None", TY_NONE},           {"str", TY_STR},
      {"Device", TY_DEVICE},     {"Scalar", TY_NUMBER},       {"number", TY_NUMBER},
      {"Layout", TY_LAYOUT},     {"ScalarType", TY_SCALARTYPE}, {"MemoryFormat", TY_MEMFORMAT},
      {"Any", TY_ANY},           {"Generator", TY_ANY},       {"Storage", TY_ANY},
  };
  if (depth > JSON_MAX_TYPE_DEPTH) return tp_fail(t, "type nested too deeply");
  if (tp_eat(t, '(')) return tp_list_of(t, ir_type_new(t->a, TY_TUPLE), ')', depth);
  size_t n = tp_ident(t);
  if (!n) return tp_fail(t, "expected a type");
  char name[128];
  if (n >= sizeof name) return tp_fail(t, "type name too long");
  memcpy(name, t->p, n);
  name[n] = '\0';
  t->p += n;
  if (strcmp(name, "Tensor") == 0) return ir_type_new(t->a, TY_TENSOR);
  DType dt = ir_dtype_from_torch_name(name);
  if (dt != DT_UNDEF) return tp_tensor_dims(t, dt);
  for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
    if (strcmp(name, simple[i].name) == 0) return ir_type_new(t->a, simple[i].kind);
  if (strcmp(name, "List") == 0 || strcmp(name, "Optional") == 0) {
    if (!tp_eat(t, '[')) return tp_fail(t, "expected '['");
    Type *e = tp_type(t, depth + 1);
    if (!e) return NULL;
    if (!tp_eat(t, ']')) return tp_fail(t, "expected ']'");
    return tp_wrap(t, name[0] == 'L' ? TY_LIST : TY_OPTIONAL, e);
  }
  if (strcmp(name, "Tuple") == 0) {
    if (!tp_eat(t, '[')) return tp_fail(t, "expected '['");
    return tp_list_of(t, ir_type_new(t->a, TY_TUPLE), ']', depth);
  }
  if (strcmp(name, "Union") == 0 || strcmp(name, "Dict") == 0) {
    char close = tp_eat(t, '[') ? ']' : tp_eat(t, '(') ? ')' : 0;
    if (!close) return tp_fail(t, "expected '[' or '('");
    if (!tp_list_of(t, ir_type_new(t->a, TY_TUPLE), close, depth)) return NULL;
    return ir_type_new(t->a, TY_ANY);
  }
  if (strchr(name, '.') || strncmp(name, "__torch__", 9) == 0) {
    Type *ty = ir_type_new(t->a, TY_CLASS);
    ty->name = arena_strdup(t->a, name);
    return ty;
  }
  t->p -= n;
  return tp_fail(t, "unknown type name");
}

static Type *tp_type(TypeParser *t, int depth) {
  Type *ty = tp_base(t, depth);
  while (ty) {
    tp_ws(t);
    if (t->p[0] == '[' && t->p[1] == ']') {
      t->p += 2;
      ty = tp_wrap(t, TY_LIST, ty);
    } else if (t->p[0] == '?') {
      t->p++;
      ty = tp_wrap(t, TY_OPTIONAL, ty);
    } else {
      break;
    }
  }
  return ty;
}

static Type *json_type(JsonCtx *c, const cJSON *obj, const char *key) {
  const char *s = json_string(c, obj, key, true);
  if (!s) return NULL;
  TypeParser t = {c->a, s, s, NULL};
  Type *ty = tp_type(&t, 0);
  if (ty) {
    tp_ws(&t);
    if (*t.p) ty = tp_fail(&t, "unexpected text after the type");
  }
  if (!ty) {
    json_err(c, cJSON_GetObjectItemCaseSensitive(obj, key), "bad type \"%s\": %s at column %d", s,
             t.err ? t.err : "syntax error", (int)(t.p - s) + 1);
    return NULL;
  }
  return ty;
}

/* ---- tensors and attributes ------------------------------------------------------------- */
static int json_b64_digit(unsigned char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
  if (ch >= '0' && ch <= '9') return ch - '0' + 52;
  if (ch == '+') return 62;
  if (ch == '/') return 63;
  return -1;
}

/* Strict base64 (padded). Returns the decoded length, or (size_t)-1. */
static size_t json_b64_decode(const char *s, size_t n, unsigned char *out) {
  if (n % 4) return (size_t)-1;
  size_t o = 0;
  for (size_t i = 0; i < n; i += 4) {
    int v[4], pad = 0;
    for (int k = 0; k < 4; k++) {
      unsigned char ch = (unsigned char)s[i + k];
      if (ch == '=' && i + 4 == n && k >= 2) {
        v[k] = 0;
        pad++;
      } else if (pad || (v[k] = json_b64_digit(ch)) < 0) {
        return (size_t)-1;
      }
    }
    uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
    out[o++] = (unsigned char)(w >> 16);
    if (pad < 2) out[o++] = (unsigned char)(w >> 8);
    if (pad < 1) out[o++] = (unsigned char)w;
  }
  return o;
}

static void json_shape_str(char *buf, size_t cap, int ndim, const int64_t *shape) {
  size_t u = (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < ndim && u < cap; i++)
    u += (size_t)snprintf(buf + u, cap - u, "%s%lld", i ? ", " : "", (long long)shape[i]);
  if (u < cap) snprintf(buf + u, cap - u, "]");
}

/* A bool tensor's bytes are 0 or 1 (kernels and the C code rely on it). */
static bool json_bool_data_ok(JsonCtx *c, const cJSON *it, const IrTensor *t) {
  if (t->dtype != DT_BOOL) return true;
  const unsigned char *b = t->data;
  for (size_t i = 0; i < t->nbytes; i++)
    if (b[i] > 1) return json_err(c, it, "bool tensor element %zu is %u, not 0 or 1", i, b[i]), false;
  return true;
}

static IrTensor *json_tensor(JsonCtx *c, const cJSON *obj) {
  IrTensor *t = arena_alloc(c->a, sizeof *t);
  if (!json_dtype_shape(c, obj, &t->dtype, &t->ndim, t->shape)) return NULL;
  size_t nbytes = ir_dtype_size(t->dtype);
  for (int i = 0; i < t->ndim; i++) {
    if (t->shape[i] && nbytes > SIZE_MAX / 2 / (size_t)t->shape[i])
      return json_err(c, obj, "tensor too large"), NULL;
    nbytes *= (size_t)t->shape[i];
  }
  t->nbytes = nbytes;
  char shs[160];
  json_shape_str(shs, sizeof shs, t->ndim, t->shape);
  const cJSON *data = cJSON_GetObjectItemCaseSensitive(obj, "data");
  const cJSON *off = cJSON_GetObjectItemCaseSensitive(obj, "offset");
  if (data && off) return json_err(c, obj, "a tensor has either \"data\" or \"offset\", not both"), NULL;
  if (data) {
    if (!json_want(c, data, cJSON_IsString(data) && data->valuestring, "a base64 string")) return NULL;
    size_t n = strlen(data->valuestring);
    unsigned char *buf = arena_alloc(c->a, n / 4 * 3 + 1);
    size_t got = json_b64_decode(data->valuestring, n, buf);
    if (got == (size_t)-1) return json_err(c, data, "invalid base64 data"), NULL;
    if (got != nbytes)
      return json_err(c, data, "tensor data has %zu bytes, but shape %s of %s needs %zu", got, shs,
                      ir_dtype_name(t->dtype), nbytes),
             NULL;
    t->data = buf;
    return json_bool_data_ok(c, data, t) ? t : NULL;
  }
  if (!off) return json_err(c, obj, "a tensor needs \"data\" (base64) or \"offset\"/\"nbytes\" "
                                    "(in the weights file)"), NULL;
  int64_t o, nb;
  const cJSON *nbi = json_member(c, obj, "nbytes", true);
  if (!nbi || !json_int(c, off, &o) || !json_int(c, nbi, &nb)) return NULL;
  if (!c->wdata)
    return json_err(c, off, "tensor data in a weights file, but the JSON names none "
                            "(top-level \"weights\")"), NULL;
  if (nb < 0 || (uint64_t)nb != (uint64_t)nbytes)
    return json_err(c, nbi, "nbytes is %lld, but shape %s of %s needs %zu", (long long)nb, shs,
                    ir_dtype_name(t->dtype), nbytes),
           NULL;
  if (o < 0) return json_err(c, off, "negative offset %lld", (long long)o), NULL;
  if ((uint64_t)o > c->wlen || (uint64_t)nb > c->wlen - (uint64_t)o)
    return json_err(c, off, "%lld bytes at offset %lld lie beyond the end of weights file '%s' (%zu bytes)",
                    (long long)nb, (long long)o, c->wpath, c->wlen),
           NULL;
  const unsigned char *p = c->wdata + o;
  t->data = (o % 16) ? arena_memdup(c->a, p, nbytes ? nbytes : 1) : (void *)p;
  return json_bool_data_ok(c, off, t) ? t : NULL;
}

static bool json_attr(JsonCtx *c, Node *n, const cJSON *a) {
  if (!json_want(c, a, cJSON_IsObject(a), "an attribute object {\"type\", \"value\"}")) return false;
  const char *ty = json_string(c, a, "type", true);
  if (!ty) return false;
  const char *name = a->string;
  bool constant_value = ir_node_is(n, "prim::Constant") && strcmp(name, "value") == 0;
  if (strcmp(ty, "tensor") == 0) {
    IrTensor *t = json_tensor(c, a);
    if (!t) return false;
    ir_node_add_attr(n, name, ATTR_TENSOR)->t = t;
    return true;
  }
  if (strcmp(ty, "none") == 0) {
    if (!constant_value) ir_node_add_attr(n, name, ATTR_NONE);
    return true;
  }
  static const struct {
    const char *name;
    AttrKind kind;
  } kinds[] = {{"int", ATTR_INT},       {"float", ATTR_FLOAT},   {"bool", ATTR_BOOL},
               {"str", ATTR_STR},       {"device", ATTR_DEVICE}, {"ints", ATTR_INTS},
               {"floats", ATTR_FLOATS}, {"bools", ATTR_BOOLS},   {"strs", ATTR_STRS}};
  int k = -1;
  for (int i = 0; i < (int)(sizeof kinds / sizeof kinds[0]); i++)
    if (strcmp(ty, kinds[i].name) == 0) k = i;
  if (k < 0)
    return json_err(c, cJSON_GetObjectItemCaseSensitive(a, "type"),
                    "unknown attribute type \"%s\" (int, float, bool, str, device, none, tensor, "
                    "ints, floats, bools, strs)", ty);
  const cJSON *v = json_member(c, a, "value", true);
  if (!v) return false;
  AttrKind kind = kinds[k].kind;
  Attr tmp = {0};
  switch (kind) {
  case ATTR_INT:
    if (!json_int(c, v, &tmp.i)) return false;
    break;
  case ATTR_FLOAT:
    if (!json_float(c, v, &tmp.f)) return false;
    break;
  case ATTR_BOOL:
    if (!json_want(c, v, cJSON_IsBool(v), "true or false")) return false;
    tmp.i = cJSON_IsTrue(v);
    break;
  case ATTR_STR:
  case ATTR_DEVICE:
    if (!json_want(c, v, cJSON_IsString(v) && v->valuestring, "a string")) return false;
    tmp.s = arena_strdup(c->a, v->valuestring);
    break;
  default: {
    if (!json_want(c, v, cJSON_IsArray(v), "an array")) return false;
    int cnt = cJSON_GetArraySize(v), i = 0;
    size_t cap = (size_t)(cnt ? cnt : 1);
    if (kind == ATTR_INTS || kind == ATTR_BOOLS) tmp.ints = arena_alloc(c->a, cap * sizeof(int64_t));
    if (kind == ATTR_FLOATS) tmp.floats = arena_alloc(c->a, cap * sizeof(double));
    if (kind == ATTR_STRS) tmp.strs = arena_alloc(c->a, cap * sizeof(char *));
    for (const cJSON *e = v->child; e; e = e->next, i++) {
      if (kind == ATTR_INTS) {
        if (!json_int(c, e, &tmp.ints[i])) return false;
      } else if (kind == ATTR_BOOLS) {
        if (!json_want(c, e, cJSON_IsBool(e), "true or false")) return false;
        tmp.ints[i] = cJSON_IsTrue(e);
      } else if (kind == ATTR_FLOATS) {
        if (!json_float(c, e, &tmp.floats[i])) return false;
      } else {
        if (!json_want(c, e, cJSON_IsString(e) && e->valuestring, "a string")) return false;
        tmp.strs[i] = arena_strdup(c->a, e->valuestring);
      }
    }
    tmp.n = cnt;
  }
  }
  Attr *at = ir_node_add_attr(n, name, kind);
  tmp.name = at->name;
  tmp.kind = kind;
  *at = tmp;
  return true;
}

/* ---- values and scopes ------------------------------------------------------------------ */
static Block *json_value_block(const Value *v) { return v->def ? v->def->owner : v->param_of; }

static Value *json_use(JsonCtx *c, Block *b, const cJSON *it) {
  if (!json_want(c, it, cJSON_IsString(it) && it->valuestring, "a value name")) return NULL;
  const char *name = it->valuestring;
  Value *v = ir_find_value(c->g, name);
  if (!v) return json_err(c, it, "undefined value '%%%s'", name), NULL;
  Block *vb = json_value_block(v);
  for (Block *x = b; x; x = x->owner ? x->owner->owner : NULL)
    if (x == vb) return v;
  return json_err(c, it, "value '%%%s' is used outside the block that defines it", name), NULL;
}

/* {"name", "type"} of a fresh value; checks the name. */
static bool json_def(JsonCtx *c, const cJSON *it, const char **name, Type **ty) {
  if (!json_want(c, it, cJSON_IsObject(it), "an object {\"name\", \"type\"}")) return false;
  *name = json_string(c, it, "name", true);
  if (!*name) return false;
  const cJSON *ni = cJSON_GetObjectItemCaseSensitive(it, "name");
  if (!json_valid_name(*name))
    return json_err(c, ni, "bad value name \"%s\" (letters, digits, '_' and '.')", *name);
  if (ir_name_taken(c->g, *name)) return json_err(c, ni, "value '%%%s' is defined twice", *name);
  *ty = json_type(c, it, "type");
  return *ty != NULL;
}

static bool json_nodes(JsonCtx *c, Block *b, const cJSON *arr);

static bool json_block(JsonCtx *c, Block *b, const cJSON *obj) {
  if (!json_want(c, obj, cJSON_IsObject(obj), "a block {\"inputs\", \"nodes\", \"outputs\"}"))
    return false;
  const cJSON *ins = json_member(c, obj, "inputs", true);
  if (!ins || !json_want(c, ins, cJSON_IsArray(ins), "an array")) return false;
  for (const cJSON *e = ins->child; e; e = e->next) {
    const char *name;
    Type *ty;
    if (!json_def(c, e, &name, &ty)) return false;
    ir_block_add_param(b, ty, name)->loc = json_item_loc(c, e);
  }
  const cJSON *nodes = json_member(c, obj, "nodes", true);
  if (!nodes || !json_nodes(c, b, nodes)) return false;
  const cJSON *outs = json_member(c, obj, "outputs", true);
  if (!outs || !json_want(c, outs, cJSON_IsArray(outs), "an array of value names")) return false;
  for (const cJSON *e = outs->child; e; e = e->next) {
    Value *v = json_use(c, b, e);
    if (!v) return false;
    ir_block_add_ret(b, v);
  }
  return true;
}

/* A tensor constant's output type takes the tensor's dtype and shape. */
static bool json_constant_type(JsonCtx *c, const cJSON *it, Node *n, Type **ty) {
  const Attr *a = ir_node_attr(n, "value");
  Type *old = *ty;
  if (a && a->kind != ATTR_TENSOR && a->kind != ATTR_NONE && old->kind == TY_TENSOR)
    return json_err(c, it, "constant of type %s holds a non-tensor value", ir_type_str(c->a, old));
  if (!a || a->kind != ATTR_TENSOR) return true;
  const IrTensor *t = a->t;
  if (old->kind != TY_TENSOR)
    return json_err(c, it, "constant of type %s holds a tensor", ir_type_str(c->a, old));
  bool shape_ok = old->ndim < 0 || old->ndim == t->ndim;
  for (int i = 0; shape_ok && old->ndim >= 0 && i < t->ndim; i++)
    shape_ok = old->shape[i] < 0 || old->shape[i] == t->shape[i];
  if ((old->dtype != DT_UNDEF && old->dtype != t->dtype) || !shape_ok) {
    char shs[160];
    json_shape_str(shs, sizeof shs, t->ndim, t->shape);
    return json_err(c, it, "constant of type %s holds a %s tensor of shape %s",
                    ir_type_str(c->a, old), ir_dtype_name(t->dtype), shs);
  }
  Type *nt = ir_type_tensor(c->a, t->dtype, t->ndim, t->shape);
  nt->requires_grad = 0;
  nt->device = old->device ? old->device : "cpu";
  *ty = nt;
  return true;
}

/* A node output's tensor type t, parsed since mark tm, as the graph's shared copy (one Type
 * per distinct tensor type); the parsed one is taken back. Node output types are never
 * changed in place (passes give a value a new type). */
static Type *json_output_type(JsonCtx *c, Type *t, ArenaMark tm) {
  char dev[32];
  if (t->kind != TY_TENSOR || t->elem || t->elems || t->nelems || t->name ||
      (t->device && strlen(t->device) >= sizeof dev))
    return t;
  Type cp = *t;
  if (cp.device) strcpy(dev, cp.device);
  arena_release(c->a, tm);
  cp.device = !cp.device ? NULL : strcmp(dev, "cpu") == 0 ? "cpu" : arena_strdup(c->a, dev);
  return ir_type_shared(c->g, &cp);
}

static bool json_node(JsonCtx *c, Block *b, const cJSON *obj) {
  if (!json_want(c, obj, cJSON_IsObject(obj), "a node object")) return false;
  const char *kind = json_string(c, obj, "kind", true);
  if (!kind) return false;
  if (!strstr(kind, "::") || strstr(kind, "::") == kind)
    return json_err(c, cJSON_GetObjectItemCaseSensitive(obj, "kind"),
                    "bad node kind \"%s\" (want namespace::name)", kind);
  const cJSON *ins = json_member(c, obj, "inputs", true);
  if (!ins || !json_want(c, ins, cJSON_IsArray(ins), "an array of value names")) return false;
  const cJSON *outs = json_member(c, obj, "outputs", true);
  if (!outs || !json_want(c, outs, cJSON_IsArray(outs), "an array of {\"name\", \"type\"}"))
    return false;
  Node *n = ir_node_new(c->g, arena_strdup(c->a, kind), NULL, 0, 0, NULL);
  n->loc = json_item_loc(c, obj);
  for (const cJSON *e = ins->child; e; e = e->next) {
    Value *v = json_use(c, b, e);
    if (!v) return false;
    ir_node_add_input(n, v);
  }
  const char *src = json_string(c, obj, "source", false);
  if (cJSON_GetObjectItemCaseSensitive(obj, "source") && !src) return false;
  if (src && *src) n->py_loc = arena_strdup(c->a, src);
  const char *scope = json_string(c, obj, "scope", false);
  if (cJSON_GetObjectItemCaseSensitive(obj, "scope") && !scope) return false;
  if (scope && *scope) n->scope = arena_strdup(c->a, scope);
  const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(obj, "attrs");
  if (attrs) {
    if (!json_want(c, attrs, cJSON_IsObject(attrs), "an object of attributes")) return false;
    for (const cJSON *a = attrs->child; a; a = a->next) {
      if (!a->string || !*a->string) return json_err(c, a, "empty attribute name");
      if (ir_node_attr(n, a->string)) return json_err(c, a, "attribute \"%s\" given twice", a->string);
      if (!json_attr(c, n, a)) return false;
    }
  }
  bool is_const = strcmp(kind, "prim::Constant") == 0;
  if (is_const && (n->ninputs != 0 || cJSON_GetArraySize(outs) != 1))
    return json_err(c, obj, "prim::Constant takes no inputs and has one output");
  ir_append(b, n);
  const cJSON *blocks = cJSON_GetObjectItemCaseSensitive(obj, "blocks");
  if (blocks) {
    if (!json_want(c, blocks, cJSON_IsArray(blocks), "an array of blocks")) return false;
    for (const cJSON *e = blocks->child; e; e = e->next)
      if (!json_block(c, ir_node_add_block(n), e)) return false;
  }
  for (const cJSON *e = outs->child; e; e = e->next) {
    const char *name;
    Type *ty;
    ArenaMark tm = arena_mark(c->a);
    if (!json_def(c, e, &name, &ty)) return false;
    if (is_const && !json_constant_type(c, e, n, &ty)) return false;
    if (!is_const) ty = json_output_type(c, ty, tm);
    ir_node_add_output(n, ty, name)->loc = json_item_loc(c, e);
  }
  return true;
}

static bool json_nodes(JsonCtx *c, Block *b, const cJSON *arr) {
  if (!json_want(c, arr, cJSON_IsArray(arr), "an array of nodes")) return false;
  for (const cJSON *e = arr->child; e; e = e->next)
    if (!json_node(c, b, e)) return false;
  return true;
}

/* ---- dynamic extents (docs/graph-json.md, "Dynamic shapes") ----------------------------------
 * "dims": [null | {"name": "batch", "min": 1, "max": 8}, ...], one per extent of the input's
 * example shape: min >= 0, min <= example <= max, and Dims that share a name share bounds. */
static bool json_input_dims(JsonCtx *c, const cJSON *e, Value *param, int ndim, const int64_t *shape) {
  const cJSON *dims = cJSON_GetObjectItemCaseSensitive(e, "dims");
  if (!dims || cJSON_IsNull(dims)) return true;
  if (!json_want(c, dims, cJSON_IsArray(dims), "an array of Dims (null or {\"name\", \"min\", \"max\"})"))
    return false;
  if (cJSON_GetArraySize(dims) != ndim)
    return json_err(c, dims, "dims has %d entries, but the example shape has %d extents", cJSON_GetArraySize(dims), ndim);
  int axis = 0;
  for (const cJSON *d = dims->child; d; d = d->next, axis++) {
    if (cJSON_IsNull(d)) continue;
    if (!json_want(c, d, cJSON_IsObject(d), "null or a Dim {\"name\", \"min\", \"max\"}")) return false;
    const char *name = json_string(c, d, "name", true);
    const cJSON *mn = json_member(c, d, "min", true), *mx = json_member(c, d, "max", true);
    int64_t lo, hi;
    if (!name || !mn || !mx || !json_int(c, mn, &lo) || !json_int(c, mx, &hi)) return false;
    if (!name[0]) return json_err(c, d, "a Dim needs a name");
    if (lo < 0) return json_err(c, mn, "Dim '%s': min %lld is negative", name, (long long)lo);
    if (lo > shape[axis] || shape[axis] > hi)
      return json_err(c, d, "Dim '%s': the example's extent %lld in dim %d is not within [%lld, %lld]", name,
                      (long long)shape[axis], axis, (long long)lo, (long long)hi);
    Graph *g = c->g;
    for (int k = 0; k < g->ndims; k++)
      if (strcmp(g->dims[k].name, name) == 0 && (g->dims[k].min != lo || g->dims[k].max != hi))
        return json_err(c, d, "Dim '%s' has bounds [%lld, %lld] here but [%lld, %lld] on another input", name,
                        (long long)lo, (long long)hi, (long long)g->dims[k].min, (long long)g->dims[k].max);
    IrDim *nd = arena_alloc(c->a, sizeof *nd * (size_t)(g->ndims + 1));
    if (g->ndims) memcpy(nd, g->dims, sizeof *nd * (size_t)g->ndims);
    nd[g->ndims] = (IrDim){arena_strdup(c->a, name), lo, hi, param, axis};
    g->dims = nd;
    g->ndims++;
  }
  return true;
}

/* ---- top level ---------------------------------------------------------------------------- */
static bool json_graph_input(JsonCtx *c, const cJSON *e) {
  const char *name;
  Type *ty;
  if (!json_def(c, e, &name, &ty)) return false;
  if (cJSON_GetObjectItemCaseSensitive(e, "dtype") || cJSON_GetObjectItemCaseSensitive(e, "shape")) {
    DType dt;
    int ndim;
    int64_t shape[IR_MAX_DIMS];
    if (!json_dtype_shape(c, e, &dt, &ndim, shape)) return false;
    if (ty->kind != TY_TENSOR)
      return json_err(c, e, "dtype/shape given for input '%%%s' of type %s", name,
                      ir_type_str(c->a, ty));
    bool ok = (ty->dtype == DT_UNDEF || ty->dtype == dt) && (ty->ndim < 0 || ty->ndim == ndim);
    for (int i = 0; ok && ty->ndim >= 0 && i < ndim; i++) ok = ty->shape[i] < 0 || ty->shape[i] == shape[i];
    if (!ok) {
      char shs[160];
      json_shape_str(shs, sizeof shs, ndim, shape);
      return json_err(c, e, "input '%%%s' of type %s does not match its example (%s, shape %s)", name,
                      ir_type_str(c->a, ty), ir_dtype_name(dt), shs);
    }
    Type *nt = ir_type_tensor(c->a, dt, ndim, shape);
    nt->requires_grad = ty->requires_grad >= 0 ? ty->requires_grad : 0;
    nt->device = ty->device ? ty->device : "cpu";
    if (ty->has_strides && ty->ndim == ndim) /* ir_verify checks them */
      memcpy(nt->strides, ty->strides, sizeof nt->strides);
    ty = nt;
  }
  Value *p = ir_block_add_param(c->g->top, ty, name);
  p->loc = json_item_loc(c, e);
  if (ty->kind == TY_TENSOR && !json_input_dims(c, e, p, ty->ndim, ty->shape)) return false;
  return true;
}

static bool json_structure(JsonCtx *c, const cJSON *it, int depth) {
  if (!json_want(c, it, cJSON_IsObject(it), "an output structure object {\"kind\", ...}")) return false;
  if (depth > 200) return json_err(c, it, "output structure nested too deeply");
  const char *k = json_string(c, it, "kind", true);
  if (!k) return false;
  if (strcmp(k, "tuple") == 0 || strcmp(k, "list") == 0 || strcmp(k, "dict") == 0) {
    const cJSON *el = json_member(c, it, "elems", true);
    if (!el || !json_want(c, el, cJSON_IsArray(el), "an array")) return false;
    for (const cJSON *e = el->child; e; e = e->next)
      if (!json_structure(c, e, depth + 1)) return false;
    return true;
  }
  if (strcmp(k, "tensor") == 0) {
    DType dt;
    int ndim;
    int64_t shape[IR_MAX_DIMS];
    return json_dtype_shape(c, it, &dt, &ndim, shape);
  }
  static const char *leaves[] = {"int", "float", "bool", "none", "str", "device"};
  for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++)
    if (strcmp(k, leaves[i]) == 0) return true;
  return json_err(c, cJSON_GetObjectItemCaseSensitive(it, "kind"), "unknown output kind \"%s\"", k);
}

/* Leaves of an output structure already checked by json_structure. */
static long json_structure_leaves(const cJSON *it, int depth) {
  const cJSON *k = cJSON_GetObjectItemCaseSensitive(it, "kind");
  if (depth > 200 || !cJSON_IsString(k) || (strcmp(k->valuestring, "tuple") != 0 &&
                                            strcmp(k->valuestring, "list") != 0 &&
                                            strcmp(k->valuestring, "dict") != 0))
    return 1;
  long n = 0;
  for (const cJSON *e = cJSON_GetObjectItemCaseSensitive(it, "elems")->child; e; e = e->next)
    n += json_structure_leaves(e, depth + 1);
  return n;
}

/* Leaves a value of type t flattens to, or -1 when the type does not tell (lists, Optional). */
static long json_type_leaves(const Type *t, int depth) {
  if (!t || depth > JSON_MAX_TYPE_DEPTH || t->kind == TY_LIST || t->kind == TY_OPTIONAL ||
      t->kind == TY_ANY)
    return -1;
  if (t->kind != TY_TUPLE) return 1;
  long n = 0;
  for (int i = 0; i < t->nelems; i++) {
    long k = json_type_leaves(t->elems[i], depth + 1);
    if (k < 0) return -1;
    n += k;
  }
  return n;
}

static char *json_sibling_path(Arena *a, const char *json_path, const char *file) {
  if (file[0] == '/') return arena_strdup(a, file);
  const char *slash = strrchr(json_path, '/');
  if (!slash) return arena_strdup(a, file);
  return arena_printf(a, "%.*s/%s", (int)(slash - json_path), json_path, file);
}

static bool json_weights(JsonCtx *c, const cJSON *root) {
  const cJSON *w = cJSON_GetObjectItemCaseSensitive(root, "weights");
  if (!w) return true;
  if (!json_want(c, w, cJSON_IsObject(w), "an object {\"file\", \"nbytes\"}")) return false;
  const char *file = json_string(c, w, "file", true);
  const cJSON *nbi = json_member(c, w, "nbytes", true);
  int64_t nb;
  if (!file || !nbi || !json_int(c, nbi, &nb)) return false;
  if (!*file) return json_err(c, cJSON_GetObjectItemCaseSensitive(w, "file"), "empty file name");
  c->wpath = json_sibling_path(c->a, c->path, file);
  /* the declared size is checked before a byte is read: a huge or endless file costs nothing */
  FileRead r;
  if (nb < 0) return json_err(c, nbi, "weights file '%s': negative size %lld", c->wpath, (long long)nb);
  if (!file_read(c->a, c->wpath, (uint64_t)nb, &r)) {
    if (r.wrong_size)
      return json_err(c, nbi, "weights file '%s' has %llu bytes, but the JSON says %lld%s", c->wpath,
                      (unsigned long long)r.size, (long long)nb,
                      (uint64_t)nb > r.size ? " (truncated file?)" : "");
    return json_err(c, cJSON_GetObjectItemCaseSensitive(w, "file"), "cannot read weights file '%s': %s",
                    c->wpath, r.why);
  }
  c->wdata = r.data;
  c->wlen = r.len;
  return true;
}

/* The elements of the top block's "nodes" array, read from the text one at a time (arr is the
 * tree's empty stand-in for the array). The text is valid JSON (checked before). */
static bool json_nodes_streamed(JsonCtx *c, Block *b, const cJSON *arr) {
  if (!json_want(c, arr, cJSON_IsArray(arr), "an array of nodes")) return false;
  const char *p = c->text + c->nodes_lb + 1, *e = c->text + c->nodes_rb;
  c->stream_arr = arr;
  bool ok = true;
  for (c->stream_idx = 0; ok; c->stream_idx++) {
    p = json_skip_ws(p, e);
    if (p < e && *p == ',') p = json_skip_ws(p + 1, e);
    if (p >= e) break;
    const char *end = NULL;
    json_over = false;
    cJSON *it = cJSON_ParseWithLengthOpts(p, (size_t)(e - p), &end, 0);
    if (!it || !end || end <= p) { /* the text was checked: only the bound can stop it */
      cJSON_Delete(it);
      if (json_over)
        diag_error(c->d, json_offset_loc(c, (size_t)(p - c->text)), "this node holds more than %zu MiB of JSON "
                   "values (mc's limit; put large tensors in the weights file)", JSON_MAX_TREE_BYTES >> 20);
      else
        diag_error(c->d, json_offset_loc(c, (size_t)(p - c->text)), "invalid JSON: cannot read this node");
      ok = false;
      break;
    }
    size_t n = json_count_items(it), cap = 16;
    while (cap < 2 * n) cap *= 2;
    if (cap > c->eloc_cap) {
      free(c->elocs);
      c->elocs = malloc(cap * sizeof *c->elocs);
      if (!c->elocs) {
        fputs("mc: out of memory\n", stderr);
        abort();
      }
    }
    c->eloc_cap = cap;
    memset(c->elocs, 0, cap * sizeof *c->elocs);
    /* json_loc_put writes into the element's table while it is swapped in */
    JsonLoc *tl = c->locs;
    size_t tc = c->loc_cap;
    c->locs = c->elocs;
    c->loc_cap = cap;
    bool walked = json_loc_walk(c, it, arr, p, end) != NULL;
    c->locs = tl;
    c->loc_cap = tc;
    if (!walked) memset(c->elocs, 0, cap * sizeof *c->elocs);
    ok = json_node(c, b, it);
    cJSON_Delete(it);
    p = end;
  }
  free(c->elocs);
  c->elocs = NULL;
  c->eloc_cap = 0;
  c->stream_arr = NULL;
  return ok;
}

static bool json_build(JsonCtx *c, const cJSON *root) {
  if (!json_want(c, root, cJSON_IsObject(root), "a top-level object")) return false;
  const char *fmt = json_string(c, root, "format", true);
  if (!fmt) return false;
  if (strcmp(fmt, "mc-graph") != 0)
    return json_err(c, cJSON_GetObjectItemCaseSensitive(root, "format"),
                    "format is \"%s\", expected \"mc-graph\"", fmt);
  const cJSON *ver = json_member(c, root, "version", true);
  int64_t v;
  if (!ver || !json_int(c, ver, &v)) return false;
  if (v != 1)
    return json_err(c, ver, "unsupported version %lld (this mc reads version 1)", (long long)v);
  if (!json_weights(c, root)) return false;
  const cJSON *g = json_member(c, root, "graph", true);
  if (!g || !json_want(c, g, cJSON_IsObject(g), "an object")) return false;
  const cJSON *ins = json_member(c, g, "inputs", true);
  if (!ins || !json_want(c, ins, cJSON_IsArray(ins), "an array of inputs")) return false;
  if (cJSON_GetArraySize(ins) > IR_MAX_GRAPH_IO)
    return json_err(c, ins, "the graph has more than %d inputs (mc's limit)", IR_MAX_GRAPH_IO);
  for (const cJSON *e = ins->child; e; e = e->next)
    if (!json_graph_input(c, e)) return false;
  Block *top = c->g->top;
  c->g->has_self = top->nparams > 0 && top->params[0]->type->kind == TY_CLASS;
  const cJSON *nodes = json_member(c, g, "nodes", true);
  if (!nodes || !(c->nodes_rb ? json_nodes_streamed(c, top, nodes) : json_nodes(c, top, nodes))) return false;
  const cJSON *outs = json_member(c, g, "outputs", true);
  if (!outs || !json_want(c, outs, cJSON_IsArray(outs), "an array of value names")) return false;
  if (cJSON_GetArraySize(outs) > IR_MAX_GRAPH_IO)
    return json_err(c, outs, "the graph has more than %d outputs (mc's limit)", IR_MAX_GRAPH_IO);
  for (const cJSON *e = outs->child; e; e = e->next) {
    Value *val = json_use(c, top, e);
    if (!val) return false;
    ir_block_add_ret(top, val);
  }
  /* "output_names": one string per flattened output (the runtime's mc_output_name) */
  const cJSON *on = cJSON_GetObjectItemCaseSensitive(g, "output_names");
  if (on) {
    if (!json_want(c, on, cJSON_IsArray(on), "an array of output names")) return false;
    int n = cJSON_GetArraySize(on), k = 0;
    const char **names = arena_alloc(c->a, sizeof *names * (size_t)(n ? n : 1));
    for (const cJSON *e = on->child; e; e = e->next, k++) {
      if (!json_want(c, e, cJSON_IsString(e), "a string")) return false;
      names[k] = arena_strdup(c->a, e->valuestring);
    }
    c->g->ret_names = names;
    c->g->nret_names = n;
  }
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "output_structure");
  if (st && !json_structure(c, st, 0)) return false;
  if (st) { /* its leaves are the outputs, flattened */
    long want = 0;
    for (int i = 0; i < top->nrets && want >= 0; i++) {
      long n = json_type_leaves(top->rets[i]->type, 0);
      want = n < 0 ? -1 : want + n;
    }
    long have = json_structure_leaves(st, 0);
    if (want >= 0 && have != want)
      return json_err(c, st, "output structure has %ld leaves, but the graph's outputs flatten to %ld",
                      have, want);
  }
  return true;
}

static void json_unregister(Diag *d, const SrcFile *f) {
  for (int i = 0; i < d->nfiles; i++) {
    if (d->files[i] != f) continue;
    memmove(&d->files[i], &d->files[i + 1], sizeof d->files[0] * (size_t)(d->nfiles - i - 1));
    d->nfiles--;
    i--;
  }
}

/* Offset of the first NUL byte or byte that is not well-formed UTF-8, or len. */
static size_t json_bad_byte(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; i < len;) {
    unsigned char b = s[i];
    if (b == 0) return i;
    if (b < 0x80) {
      i++;
      continue;
    }
    size_t n = b >= 0xC2 && b <= 0xDF ? 1 : b >= 0xE0 && b <= 0xEF ? 2 : b >= 0xF0 && b <= 0xF4 ? 3 : 0;
    if (!n || i + n >= len) return i;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b == 0xE0) lo = 0xA0;
    else if (b == 0xED) hi = 0x9F;
    else if (b == 0xF0) lo = 0x90;
    else if (b == 0xF4) hi = 0x8F;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (size_t k = 2; k <= n; k++)
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    i += n + 1;
  }
  return len;
}

/* RFC 8259's grammar, checked over text that cJSON has accepted: cJSON also takes numbers with
 * leading zeros or a bare '.', control characters inside strings and "\u0000", which would
 * cut a name short. Returns the offset of the first offence (and what it is), or len. Nesting
 * is cJSON's (at most 1000 deep), so the explicit stack below is bounded. */
static size_t json_strict(const char *s, size_t len, const char **why) {
  char stack[JSON_MAX_PATH]; /* '[', '{' (a member name next) or 'v' (in a member value) */
  int depth = 0;
  size_t i = 0;
  bool want_value = true; /* a value is next (else ',' or a closer) */
#define JS_WS() while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++
#define JS_FAIL(msg) do { *why = (msg); return i; } while (0)
  for (;;) {
    JS_WS();
    if (want_value) {
      if (i >= len) JS_FAIL("unexpected end of file");
      char ch = s[i];
      if (ch == '{' || ch == '[') {
        if (depth >= (int)sizeof stack) JS_FAIL("nested too deeply");
        stack[depth++] = ch;
        i++;
        JS_WS();
        if (i < len && s[i] == (ch == '{' ? '}' : ']')) {
          depth--;
          i++;
          want_value = false;
          if (!depth) break;
          continue;
        }
        if (ch == '{' && (i >= len || s[i] != '"')) JS_FAIL("expected a member name");
        continue; /* an object's first member name is read as a value, then ':' below */
      }
      if (ch == '"') {
        for (i++; i < len && s[i] != '"'; i++) {
          unsigned char u = (unsigned char)s[i];
          if (u < 0x20) JS_FAIL("control character inside a string (escape it)");
          if (u != '\\') continue;
          i++;
          if (i >= len) JS_FAIL("unexpected end of file");
          if (strchr("\"\\/bfnrt", s[i]) && s[i]) continue;
          if (s[i] != 'u') JS_FAIL("bad escape in a string");
          unsigned cp = 0;
          for (int k = 1; k <= 4; k++) {
            char h = i + (size_t)k < len ? s[i + (size_t)k] : 0;
            int dv = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                   : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
            if (dv < 0) JS_FAIL("bad \\u escape in a string");
            cp = cp * 16 + (unsigned)dv;
          }
          if (cp == 0) JS_FAIL("\\u0000 inside a string (NUL characters are not allowed)");
          bool high = cp >= 0xD800 && cp <= 0xDBFF;
          if (cp >= 0xDC00 && cp <= 0xDFFF) JS_FAIL("unpaired surrogate in a \\u escape");
          i += 4;
          if (high) {
            if (i + 6 >= len || s[i + 1] != '\\' || s[i + 2] != 'u')
              JS_FAIL("unpaired surrogate in a \\u escape");
            unsigned lo = (unsigned)strtoul((char[5]){s[i + 3], s[i + 4], s[i + 5], s[i + 6], 0},
                                            NULL, 16);
            if (lo < 0xDC00 || lo > 0xDFFF) JS_FAIL("unpaired surrogate in a \\u escape");
            i += 6;
          }
        }
        if (i >= len) JS_FAIL("unexpected end of file");
        i++;
        if (depth && stack[depth - 1] == '{') {
          /* a member name: ':' and the member's value follow */
          JS_WS();
          if (i >= len || s[i] != ':') JS_FAIL("expected ':' after a member name");
          i++;
          stack[depth - 1] = 'v'; /* in a member value */
          continue;
        }
      } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        if (ch == '-') i++;
        if (i < len && s[i] == '0') {
          i++;
          if (i < len && s[i] >= '0' && s[i] <= '9') JS_FAIL("number with a leading zero");
        } else if (i < len && s[i] >= '1' && s[i] <= '9') {
          while (i < len && s[i] >= '0' && s[i] <= '9') i++;
        } else {
          JS_FAIL("bad number");
        }
        if (i < len && s[i] == '.') {
          i++;
          if (i >= len || s[i] < '0' || s[i] > '9') JS_FAIL("bad number: a digit must follow '.'");
          while (i < len && s[i] >= '0' && s[i] <= '9') i++;
        }
        if (i < len && (s[i] == 'e' || s[i] == 'E')) {
          i++;
          if (i < len && (s[i] == '+' || s[i] == '-')) i++;
          if (i >= len || s[i] < '0' || s[i] > '9') JS_FAIL("bad number: bad exponent");
          while (i < len && s[i] >= '0' && s[i] <= '9') i++;
        }
      } else if (len - i >= 4 && memcmp(s + i, "true", 4) == 0) {
        i += 4;
      } else if (len - i >= 5 && memcmp(s + i, "false", 5) == 0) {
        i += 5;
      } else if (len - i >= 4 && memcmp(s + i, "null", 4) == 0) {
        i += 4;
      } else {
        JS_FAIL("expected a value");
      }
      if (!depth) break;
      want_value = false;
      continue;
    }
    /* after a value inside a container */
    if (i >= len) JS_FAIL("unexpected end of file");
    char top = stack[depth - 1] == '[' ? '[' : '{';
    if (s[i] == ',') {
      i++;
      JS_WS();
      if (i < len && (s[i] == ']' || s[i] == '}')) JS_FAIL("trailing comma");
      if (top == '{') {
        if (i >= len || s[i] != '"') JS_FAIL("expected a member name");
        stack[depth - 1] = '{'; /* a member name next */
      }
      want_value = true;
      continue;
    }
    if (s[i] != (top == '{' ? '}' : ']')) JS_FAIL("expected ',' or the end of the container");
    i++;
    if (--depth == 0) break;
  }
  JS_WS();
  if (i < len) JS_FAIL("text after the top-level value");
  return len;
#undef JS_WS
#undef JS_FAIL
}

/* Documents from this size on have their top "nodes" array streamed (JsonCtx.nodes_rb); the
 * tests build mc with -DJSON_STREAM_MIN=0 too, to run every document through it. */
#ifndef JSON_STREAM_MIN
#define JSON_STREAM_MIN ((size_t)1 << 20)
#endif

/* Past the JSON value at p (valid JSON), or NULL; *depth is set to its deepest nesting. */
static const char *json_skip_value(const char *p, const char *e, int *depth) {
  int d = 0, maxd = 0;
  do {
    p = json_skip_ws(p, e);
    if (p >= e) return NULL;
    if (*p == '"') {
      p = json_skip_string(p, e);
      if (!p) return NULL;
    } else if (*p == '{' || *p == '[') {
      if (++d > maxd) maxd = d;
      p++;
    } else if (*p == '}' || *p == ']') {
      if (--d < 0) return NULL;
      p++;
    } else if (*p == ',' || *p == ':') {
      p++;
    } else { /* a number or a literal */
      while (p < e && !strchr(",:]} \t\n\r", *p)) p++;
    }
  } while (d > 0);
  *depth = maxd;
  return p;
}

/* Offset of the member `key`'s value in the object at p (valid JSON), or NULL. */
static const char *json_find_member(const char *p, const char *e, const char *key) {
  p = json_skip_ws(p, e);
  if (p >= e || *p != '{') return NULL;
  size_t kl = strlen(key);
  for (p++;;) {
    p = json_skip_ws(p, e);
    if (p < e && *p == ',') p = json_skip_ws(p + 1, e);
    if (p >= e || *p != '"') return NULL;
    const char *k = p + 1, *q = json_skip_string(p, e);
    if (!q) return NULL;
    bool hit = (size_t)(q - 1 - k) == kl && memcmp(k, key, kl) == 0;
    p = json_skip_ws(q, e);
    if (p >= e || *p != ':') return NULL;
    p = json_skip_ws(p + 1, e);
    if (hit) return p;
    int depth;
    p = json_skip_value(p, e, &depth);
    if (!p) return NULL;
  }
}

/* The tree of a large document without the elements of graph.nodes (they are read one by one
 * by json_nodes_streamed), its item locations recorded; NULL when the document is not valid
 * JSON or has no such array: then it is read whole, as smaller ones are. */
static cJSON *json_stream_root(JsonCtx *c, size_t start) {
  const char *text = c->text, *e = text + c->len, *why = NULL;
  size_t len = c->len;
  if (start + json_strict(text + start, len - start, &why) < len || why) return NULL;
  int depth = 0;
  if (!json_skip_value(text + start, e, &depth) || depth > 900) return NULL; /* cJSON's limit: 1000 */
  const char *gv = json_find_member(text + start, e, "graph");
  const char *nv = gv ? json_find_member(gv, e, "nodes") : NULL;
  if (!nv || *nv != '[') return NULL;
  const char *ne = json_skip_value(nv, e, &depth);
  if (!ne) return NULL;
  size_t lb = (size_t)(nv - text), rb = (size_t)(ne - 1 - text), sl = lb + 1 + (len - rb);
  char *skel = malloc(sl + 1);
  if (!skel) return NULL;
  memcpy(skel, text, lb + 1);
  memcpy(skel + lb + 1, text + rb, len - rb);
  skel[sl] = '\0';
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(skel + start, sl - start + 1, &end, 1);
  if (root) {
    c->text = skel;
    c->len = sl;
    json_locs_build(c, root, skel + start);
    c->text = text;
    c->len = len;
    for (size_t i = 0; c->locs && i < c->loc_cap; i++)
      if (c->locs[i].item && c->locs[i].off > lb) c->locs[i].off += rb - lb - 1;
    c->nodes_lb = lb;
    c->nodes_rb = rb;
  }
  free(skel);
  return root;
}

static Graph *json_parse_owned(Graph *g, const char *text, size_t len, Diag *d,
                               const char ***deps_out, int *ndeps_out) {
  JsonCtx c = {.d = d, .g = g, .a = g->arena, .path = g->path, .text = text, .len = len};
  json_hooks();
  SrcFile *sf = arena_alloc(c.a, sizeof *sf);
  *sf = (SrcFile){g->path, text, len};
  diag_add_file(d, sf);
  bool ok = false;
  size_t start = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  const char *end = NULL;
  /* The length includes the terminating NUL: cJSON then requires it right after the value. */
  /* cJSON takes a NUL inside a string for its end and accepts any bytes in strings: JSON text
   * is UTF-8 without NUL bytes, so check that first. */
  size_t bad = json_bad_byte(text, len);
  cJSON *root = bad < len || len + 1 <= JSON_STREAM_MIN ? NULL : json_stream_root(&c, start);
  if (root) {
    ok = json_build(&c, root);
  } else if (bad >= len) {
    free(c.locs);
    c.locs = NULL;
    c.locs_ok = false;
    json_over = false;
    root = cJSON_ParseWithLengthOpts(text + start, len - start + 1, &end, 1);
  }
  if (c.nodes_rb) {
    /* streamed: read above */
  } else if (bad < len) {
    diag_error(d, json_offset_loc(&c, bad), text[bad] ? "invalid JSON: invalid UTF-8 byte 0x%02x" : "invalid JSON: NUL byte",
               (unsigned char)text[bad]);
  } else if (!root) {
    size_t off = end && end >= text ? (size_t)(end - text) : len;
    if (off > len) off = len;
    SrcLoc loc = json_offset_loc(&c, off);
    if (json_over)
      diag_error(d, loc, "the JSON document holds more than %zu MiB of values outside \"nodes\" (mc's limit; put "
                 "large tensors in the weights file)", JSON_MAX_TREE_BYTES >> 20);
    else if (off >= len)
      diag_error(d, loc, "invalid JSON: unexpected end of file (truncated?)");
    else if (text[off] == '\0')
      diag_error(d, loc, "invalid JSON: NUL byte");
    else if ((unsigned char)text[off] >= 0x20 && (unsigned char)text[off] < 0x7f)
      diag_error(d, loc, "invalid JSON: unexpected '%c'", text[off]);
    else
      diag_error(d, loc, "invalid JSON: unexpected byte 0x%02x", (unsigned char)text[off]);
  } else if (end && end < text + len) {
    diag_error(d, json_offset_loc(&c, (size_t)(end - text)), "invalid JSON: %s after the top-level value",
               *end ? "text" : "NUL byte");
  } else {
    const char *why = NULL;
    size_t off = start + json_strict(text + start, len - start, &why);
    if (off < len || why) {
      diag_error(d, json_offset_loc(&c, off < len ? off : len), "invalid JSON: %s", why);
    } else {
      json_locs_build(&c, root, text + start);
      ok = json_build(&c, root);
    }
  }
  cJSON_Delete(root);
  free(c.locs);
  if (!ok) {
    json_unregister(d, sf);
    ir_graph_free(g);
    return NULL;
  }
  if (deps_out) {
    const char **deps = arena_alloc(g->arena, 2 * sizeof *deps);
    int n = 0;
    deps[n++] = g->path;
    if (c.wpath) deps[n++] = c.wpath;
    *deps_out = deps;
    if (ndeps_out) *ndeps_out = n;
  } else if (ndeps_out) {
    *ndeps_out = c.wpath ? 2 : 1;
  }
  return g;
}

Graph *json_parse_buffer(const char *path, const char *text, size_t len, Diag *d,
                         const char ***deps_out, int *ndeps_out) {
  if (deps_out) *deps_out = NULL;
  if (ndeps_out) *ndeps_out = 0;
  Graph *g = ir_graph_new(path ? path : "<json>");
  char *copy = arena_alloc(g->arena, len + 1);
  memcpy(copy, text, len);
  return json_parse_owned(g, copy, len, d, deps_out, ndeps_out);
}

Graph *json_parse_file(const char *path, Diag *d, const char ***deps_out, int *ndeps_out) {
  if (deps_out) *deps_out = NULL;
  if (ndeps_out) *ndeps_out = 0;
  Graph *g = ir_graph_new(path);
  FileRead r;
  if (!file_read_text(g->arena, path, &r)) {
    diag_error(d, (SrcLoc){path, 0, 0}, "cannot read '%s': %s", path, r.why);
    ir_graph_free(g);
    return NULL;
  }
  return json_parse_owned(g, (const char *)r.data, r.len, d, deps_out, ndeps_out);
}
