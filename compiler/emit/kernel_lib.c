/* kernel_lib.c — the kernel library's tree-shaker (see kernel_lib.h). */
#include "emit/kernel_lib.h"

#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <errno.h>
#include <unistd.h>
#endif

#include "ops/ops.h"

/* ---- names: an open-addressing table, string -> id ---- */
typedef struct {
  char **s;
  int *slot; /* hash slot -> id + 1 */
  int n, cap, nslot;
} Names;

static unsigned name_hash(const char *s, size_t n) {
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static int name_find(const Names *t, const char *s, size_t n) {
  if (!t->nslot) return -1;
  for (unsigned i = name_hash(s, n) & (unsigned)(t->nslot - 1);; i = (i + 1) & (unsigned)(t->nslot - 1)) {
    int id = t->slot[i] - 1;
    if (id < 0) return -1;
    if (strlen(t->s[id]) == n && !memcmp(t->s[id], s, n)) return id;
  }
}

static int name_id(Names *t, const char *s, size_t n) {
  int id = name_find(t, s, n);
  if (id >= 0) return id;
  if (2 * (t->n + 1) > t->nslot) {
    int ns = t->nslot ? 2 * t->nslot : 4096;
    int *sl = calloc((size_t)ns, sizeof *sl);
    if (!sl) return -1;
    for (int k = 0; k < t->n; k++)
      for (unsigned i = name_hash(t->s[k], strlen(t->s[k])) & (unsigned)(ns - 1);; i = (i + 1) & (unsigned)(ns - 1))
        if (!sl[i]) {
          sl[i] = k + 1;
          break;
        }
    free(t->slot);
    t->slot = sl;
    t->nslot = ns;
  }
  if (t->n == t->cap) {
    int nc = t->cap ? 2 * t->cap : 1024;
    char **ns = realloc(t->s, (size_t)nc * sizeof *ns);
    if (!ns) return -1;
    t->s = ns;
    t->cap = nc;
  }
  char *c = malloc(n + 1);
  if (!c) return -1;
  memcpy(c, s, n);
  c[n] = 0;
  t->s[t->n] = c;
  for (unsigned i = name_hash(s, n) & (unsigned)(t->nslot - 1);; i = (i + 1) & (unsigned)(t->nslot - 1))
    if (!t->slot[i]) {
      t->slot[i] = t->n + 1;
      break;
    }
  return t->n++;
}

/* ---- int vectors ---- */
typedef struct {
  int *v;
  int n, cap;
} Ints;

static void ints_push(Ints *a, int x) {
  if (a->n == a->cap) {
    int nc = a->cap ? 2 * a->cap : 8;
    int *nv = realloc(a->v, (size_t)nc * sizeof *nv);
    if (!nv) abort();
    a->v = nv;
    a->cap = nc;
  }
  a->v[a->n++] = x;
}

/* ---- tokens ---- */
enum { T_EOF, T_IDENT, T_NUM, T_STR, T_PUNCT };
typedef struct {
  int kind;
  size_t at, len;
} Tok;

static bool is_id0(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_id(char c) { return is_id0(c) || (c >= '0' && c <= '9'); }

/* Skips blanks and comments from *p (not past end); says whether a newline was crossed. A
 * backslash-newline is a blank. */
static bool skip_blank(const char *s, size_t *p, size_t end, bool stop_at_newline) {
  bool nl = false;
  while (*p < end) {
    char c = s[*p];
    if (c == '\n') {
      if (stop_at_newline) return nl;
      nl = true;
      (*p)++;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      (*p)++;
    } else if (c == '\\' && *p + 1 < end && s[*p + 1] == '\n') {
      *p += 2;
    } else if (c == '/' && *p + 1 < end && s[*p + 1] == '*') {
      size_t q = *p + 2;
      while (q + 1 < end && !(s[q] == '*' && s[q + 1] == '/')) {
        if (s[q] == '\n') nl = true;
        q++;
      }
      *p = q + 2 <= end ? q + 2 : end;
    } else if (c == '/' && *p + 1 < end && s[*p + 1] == '/') {
      while (*p < end && s[*p] != '\n') (*p)++;
    } else {
      break;
    }
  }
  return nl;
}

/* The token at *p (after skip_blank); moves *p past it. */
static Tok next_tok(const char *s, size_t *p, size_t end) {
  Tok t = {T_EOF, *p, 0};
  if (*p >= end) return t;
  char c = s[*p];
  size_t q = *p;
  if (is_id0(c)) {
    while (q < end && is_id(s[q])) q++;
    t.kind = T_IDENT;
  } else if ((c >= '0' && c <= '9') || (c == '.' && q + 1 < end && s[q + 1] >= '0' && s[q + 1] <= '9')) {
    while (q < end && (is_id(s[q]) || s[q] == '.' ||
                       ((s[q] == '+' || s[q] == '-') && (s[q - 1] == 'e' || s[q - 1] == 'E' || s[q - 1] == 'p' || s[q - 1] == 'P'))))
      q++;
    t.kind = T_NUM;
  } else if (c == '"' || c == '\'') {
    q++;
    while (q < end && s[q] != c && s[q] != '\n') q += s[q] == '\\' && q + 1 < end ? 2 : 1;
    if (q < end && s[q] == c) q++;
    t.kind = T_STR;
  } else if (c == '#' && q + 1 < end && s[q + 1] == '#') {
    q += 2;
    t.kind = T_PUNCT;
  } else {
    q++;
    t.kind = T_PUNCT;
  }
  t.len = q - *p;
  *p = q;
  return t;
}

static bool tok_is(const char *s, Tok t, const char *w) { return t.len == strlen(w) && !memcmp(s + t.at, w, t.len); }
static bool tok_ch(const char *s, Tok t, char c) { return t.kind == T_PUNCT && t.len == 1 && s[t.at] == c; }

/* ---- the library split into items ---- */
enum { IT_CODE, IT_ALWAYS, IT_DIRECTIVE };
typedef struct {
  int kind;
  size_t start, end;
  int group; /* the innermost enclosing #if group, -1 at top level; a directive's own group */
  Ints defs, refs;
  bool keep;
} Item;

typedef struct {
  int parent;
  bool used;
} Group;

typedef struct { /* a function-like macro of the library */
  int name;
  size_t body, body_end;
  Ints params; /* name ids */
} Macro;

typedef struct {
  char *text;
  size_t len;
  Item *items;
  int nitems, capitems;
  Group *groups;
  int ngroups, capgroups;
  Macro *macros;
  int nmacros, capmacros;
  int nlib_names; /* names of the library itself (ids below it); roots add more */
  Names names;
  Ints *definers; /* name id -> items defining it */
  bool whole;     /* could not be split: paste everything */
} Lib;

static Lib lib_;
static bool lib_ready_;

static int lib_name(Lib *L, const char *s, size_t n) {
  int id = name_id(&L->names, s, n);
  if (id < 0) abort();
  return id;
}

static Item *new_item(Lib *L, int kind, size_t start, size_t end, int group) {
  if (L->nitems == L->capitems) {
    int nc = L->capitems ? 2 * L->capitems : 1024;
    Item *ni = realloc(L->items, (size_t)nc * sizeof *ni);
    if (!ni) abort();
    L->items = ni;
    L->capitems = nc;
  }
  Item *it = &L->items[L->nitems++];
  memset(it, 0, sizeof *it);
  it->kind = kind;
  it->start = start;
  it->end = end;
  it->group = group;
  return it;
}

static const Macro *macro_named(const Lib *L, int name) {
  for (int i = L->nmacros - 1; i >= 0; i--)
    if (L->macros[i].name == name) return &L->macros[i];
  return NULL;
}

/* The names a call of macro m with arguments args[k] = [a, b) makes with `##` (and its parameters
 * replaced by single-identifier arguments) go to out. */
static void macro_names(Lib *L, const Macro *m, const size_t (*args)[2], int nargs, Ints *out) {
  const char *s = L->text;
  size_t p = m->body;
  char buf[512];
  size_t n = 0;
  bool pasting = false, pasted = false;
  for (;;) {
    skip_blank(s, &p, m->body_end, false);
    Tok t = next_tok(s, &p, m->body_end);
    if (t.kind == T_PUNCT && t.len == 2 && s[t.at] == '#') { /* ## */
      pasting = pasted = true;
      continue;
    }
    bool part = t.kind == T_IDENT || t.kind == T_NUM;
    if (!pasting) { /* the previous run ends here */
      if (n && pasted && is_id0(buf[0])) ints_push(out, lib_name(L, buf, n));
      n = 0;
      pasted = false;
    }
    pasting = false;
    if (t.kind == T_EOF) break;
    if (!part) continue;
    const char *w = s + t.at;
    size_t wl = t.len;
    if (t.kind == T_IDENT) {
      int id = name_find(&L->names, w, wl);
      for (int k = 0; id >= 0 && k < m->params.n && k < nargs; k++)
        if (m->params.v[k] == id) {
          size_t a = args[k][0], b = args[k][1];
          while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\n' || s[a] == '\\')) a++;
          while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\n' || s[b - 1] == '\\')) b--;
          w = s + a;
          wl = b - a;
          bool ident = wl > 0 && is_id0(w[0]);
          for (size_t i = 0; i < wl; i++) ident = ident && is_id(w[i]);
          if (ident) pasted = true; /* a parameter replaced by a name may name a definition */
          break;
        }
    }
    if (n + wl < sizeof buf) {
      memcpy(buf + n, w, wl);
      n += wl;
    }
  }
}

/* Identifiers of s[a, b) go to refs; calls of the library's macros add the names they paste. */
static void scan_refs(Lib *L, const char *s, size_t a, size_t b, Ints *refs, Ints *pasted) {
  size_t p = a;
  for (;;) {
    skip_blank(s, &p, b, false);
    Tok t = next_tok(s, &p, b);
    if (t.kind == T_EOF) break;
    if (t.kind != T_IDENT) continue;
    int id = lib_name(L, s + t.at, t.len);
    ints_push(refs, id);
    const Macro *m = macro_named(L, id);
    if (!m) continue;
    size_t q = p;
    skip_blank(s, &q, b, false);
    if (q >= b || s[q] != '(') continue;
    q++;
    size_t args[32][2];
    int nargs = 0, depth = 0;
    size_t as = q;
    while (q < b) {
      size_t r = q;
      skip_blank(s, &r, b, false);
      q = r;
      Tok u = next_tok(s, &q, b);
      if (u.kind == T_EOF) break;
      if (tok_ch(s, u, '(') || tok_ch(s, u, '[') || tok_ch(s, u, '{')) depth++;
      if ((tok_ch(s, u, ')') || tok_ch(s, u, ']') || tok_ch(s, u, '}')) && depth-- == 0) {
        if (nargs < 32) args[nargs][0] = as, args[nargs][1] = u.at, nargs++;
        break;
      }
      if (tok_ch(s, u, ',') && depth == 0) {
        if (nargs < 32) args[nargs][0] = as, args[nargs][1] = u.at, nargs++;
        as = q;
      }
    }
    if (s == L->text) macro_names(L, m, (const size_t(*)[2])args, nargs, pasted ? pasted : refs);
    else { /* the macro's body lives in the library; its arguments in s */
      char *save = L->text; /* expand over a copy of the library with the arguments after it */
      size_t tl = 0;
      for (int k = 0; k < nargs; k++) tl += args[k][1] - args[k][0] + 1;
      char *tmp = malloc(L->len + tl + 1);
      if (!tmp) abort();
      memcpy(tmp, L->text, L->len);
      size_t off = L->len;
      for (int k = 0; k < nargs; k++) {
        size_t al = args[k][1] - args[k][0];
        memcpy(tmp + off, s + args[k][0], al);
        args[k][0] = off;
        args[k][1] = off + al;
        off += al;
        tmp[off++] = ' ';
      }
      tmp[off] = 0;
      L->text = tmp;
      macro_names(L, m, (const size_t(*)[2])args, nargs, refs);
      L->text = save;
      free(tmp);
    }
  }
}

/* Whether s[0, n) is a C keyword: never a definition (a function pointer's return type, a type
 * given to a generator macro), or every chunk that names it would keep the one "defining" it. */
static bool c_keyword(const char *s, size_t n) {
  static const char *const kw[] = {"auto", "break", "case", "char", "const", "continue", "default", "do",
                                   "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline",
                                   "int", "long", "register", "restrict", "return", "short", "signed",
                                   "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned",
                                   "void", "volatile", "while", "_Bool", "_Alignas", "_Alignof", "_Static_assert"};
  for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
    if (strlen(kw[i]) == n && !memcmp(kw[i], s, n)) return true;
  return false;
}

/* The names a C chunk (tokens tk[0..n)) defines. */
static void chunk_defs(Lib *L, const Tok *tk, const int *depth, const int *paren, int n, bool func, Ints *defs) {
  const char *s = L->text;
  bool is_enum = false, seen_eq = false, first_paren = false;
  for (int i = 0; i < n; i++)
    if (depth[i] == 0 && tok_is(s, tk[i], "enum")) is_enum = true;
  for (int i = 0; i < n; i++) {
    Tok t = tk[i];
    if (t.kind == T_IDENT && (tok_is(s, t, "__attribute__") || tok_is(s, t, "__declspec") || tok_is(s, t, "_Alignas"))) {
      int pd = 0; /* skip its parentheses */
      for (i++; i < n; i++) {
        if (tok_ch(s, tk[i], '(')) pd++;
        else if (tok_ch(s, tk[i], ')') && --pd == 0) break;
      }
      continue;
    }
    if (depth[i] == 0 && tok_ch(s, t, '=')) seen_eq = true;
    if (t.kind != T_IDENT) continue;
    Tok nx = i + 1 < n ? tk[i + 1] : (Tok){T_EOF, 0, 0};
    Tok pv = i > 0 ? tk[i - 1] : (Tok){T_EOF, 0, 0};
    int id = lib_name(L, s + t.at, t.len);
    if (depth[i] == 0 && paren[i] == 0) {
      if (tok_ch(s, nx, '(') && !first_paren) {
        first_paren = true;
        if (!seen_eq) ints_push(defs, id);
      } else if (!func && (tok_ch(s, nx, '=') || tok_ch(s, nx, '[') || tok_ch(s, nx, ';') || tok_ch(s, nx, ',') ||
                           (nx.kind == T_IDENT && tok_is(s, nx, "__attribute__")) || nx.kind == T_EOF)) {
        ints_push(defs, id);
      }
      if (pv.kind == T_IDENT && (tok_is(s, pv, "struct") || tok_is(s, pv, "union") || tok_is(s, pv, "enum")))
        ints_push(defs, id);
    } else if (depth[i] == 0 && paren[i] == 1 && tok_ch(s, pv, '*') && tok_ch(s, nx, ')') && !func && i >= 2 &&
               tok_ch(s, tk[i - 2], '(') && i + 2 < n && (tok_ch(s, tk[i + 2], '(') || tok_ch(s, tk[i + 2], '['))) {
      ints_push(defs, id); /* (*name)(...), not a prototype's last parameter `T *name)` */
    } else if (is_enum && depth[i] == 1 && (tok_ch(s, pv, '{') || tok_ch(s, pv, ','))) {
      ints_push(defs, id);
    }
  }
}

/* Splits the library; sets L->whole where it cannot follow it. */
static void lib_split(Lib *L) {
  size_t total = 0;
  for (int i = 0; i < mc_kernel_nsources; i++) total += strlen(mc_kernel_sources[i].text) + 64 + strlen(mc_kernel_sources[i].name);
  L->text = malloc(total + 1);
  if (!L->text) abort();
  size_t n = 0;
  for (int i = 0; i < mc_kernel_nsources; i++) {
    n += (size_t)sprintf(L->text + n, "/* ---- %s ---- */\n", mc_kernel_sources[i].name);
    size_t l = strlen(mc_kernel_sources[i].text);
    memcpy(L->text + n, mc_kernel_sources[i].text, l);
    n += l;
    L->text[n++] = '\n';
  }
  L->text[n] = 0;
  L->len = n;
  const char *s = L->text;
  int group = -1;
  size_t p = 0, cstart = 0;
  Tok *tk = NULL;
  int *dep = NULL, *par = NULL, ntk = 0, captk = 0;
  int depth = 0, paren = 0;
  bool func = false, invocation = false;
  size_t inv_close = 0;
  Ints refs = {0};
  for (;;) {
    {
      size_t q = p;
      skip_blank(s, &q, L->len, false);
      size_t b = q; /* a directive: only blanks before it on its line */
      while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t')) b--;
      bool line_start = b == 0 || s[b - 1] == '\n';
      if (q < L->len && s[q] == '#' && line_start && !(q + 1 < L->len && s[q + 1] == '#')) {
        size_t d = q, e = q;
        while (e < L->len && s[e] != '\n') e += s[e] == '\\' && e + 1 < L->len && s[e + 1] == '\n' ? 2 : 1;
        size_t dend = e < L->len ? e + 1 : e;
        size_t w = d + 1;
        skip_blank(s, &w, e, true);
        Tok kw = next_tok(s, &w, e);
        if (ntk > 0 || depth > 0 || paren > 0) { /* inside a chunk: its names are the chunk's */
          scan_refs(L, s, w, e, &refs, NULL);
          p = dend;
          continue;
        }
        if (tok_is(s, kw, "define")) {
          skip_blank(s, &w, e, true);
          Tok nm = next_tok(s, &w, e);
          Item *it = new_item(L, IT_CODE, cstart, dend, group);
          int id = nm.kind == T_IDENT ? lib_name(L, s + nm.at, nm.len) : -1;
          if (id >= 0) ints_push(&it->defs, id);
          size_t body = w;
          Ints params = {0};
          if (id >= 0 && w < e && s[w] == '(') { /* function-like */
            size_t q2 = w + 1;
            for (;;) {
              skip_blank(s, &q2, e, true);
              Tok u = next_tok(s, &q2, e);
              if (u.kind == T_EOF || tok_ch(s, u, ')')) break;
              if (u.kind == T_IDENT) ints_push(&params, lib_name(L, s + u.at, u.len));
            }
            body = q2;
            if (L->nmacros == L->capmacros) {
              int nc = L->capmacros ? 2 * L->capmacros : 64;
              Macro *nm2 = realloc(L->macros, (size_t)nc * sizeof *nm2);
              if (!nm2) abort();
              L->macros = nm2;
              L->capmacros = nc;
            }
            L->macros[L->nmacros++] = (Macro){id, body, e, params};
          }
          Ints br = {0};
          scan_refs(L, s, body, e, &br, NULL);
          for (int k = 0; k < br.n; k++) {
            bool param = false;
            for (int j = 0; j < params.n; j++) param = param || params.v[j] == br.v[k];
            if (!param) ints_push(&L->items[L->nitems - 1].refs, br.v[k]);
          }
          free(br.v);
        } else if (tok_is(s, kw, "undef")) {
          skip_blank(s, &w, e, true);
          Tok nm = next_tok(s, &w, e);
          Item *it = new_item(L, IT_CODE, cstart, dend, group);
          if (nm.kind == T_IDENT) ints_push(&it->defs, lib_name(L, s + nm.at, nm.len));
          else it->kind = IT_ALWAYS;
        } else if (tok_is(s, kw, "if") || tok_is(s, kw, "ifdef") || tok_is(s, kw, "ifndef")) {
          if (L->ngroups == L->capgroups) {
            int nc = L->capgroups ? 2 * L->capgroups : 64;
            Group *ng = realloc(L->groups, (size_t)nc * sizeof *ng);
            if (!ng) abort();
            L->groups = ng;
            L->capgroups = nc;
          }
          L->groups[L->ngroups] = (Group){group, false};
          group = L->ngroups++;
          Item *it = new_item(L, IT_DIRECTIVE, cstart, dend, group);
          scan_refs(L, s, w, e, &it->refs, NULL);
        } else if (tok_is(s, kw, "elif") || tok_is(s, kw, "else") || tok_is(s, kw, "endif")) {
          if (group < 0) {
            L->whole = true;
            break;
          }
          Item *it = new_item(L, IT_DIRECTIVE, cstart, dend, group);
          scan_refs(L, s, w, e, &it->refs, NULL);
          if (tok_is(s, kw, "endif")) group = L->groups[group].parent;
        } else { /* #include, #pragma, #error, ...: always there */
          new_item(L, IT_ALWAYS, cstart, dend, group);
        }
        p = cstart = dend;
        continue;
      }
    }
    skip_blank(s, &p, L->len, false);
    Tok t = next_tok(s, &p, L->len);
    if (t.kind == T_EOF) break;
    if (ntk == captk) {
      captk = captk ? 2 * captk : 256;
      tk = realloc(tk, (size_t)captk * sizeof *tk);
      dep = realloc(dep, (size_t)captk * sizeof *dep);
      par = realloc(par, (size_t)captk * sizeof *par);
      if (!tk || !dep || !par) abort();
    }
    if (ntk == 0 && t.kind == T_IDENT) {
      const Macro *m = macro_named(L, lib_name(L, s + t.at, t.len));
      invocation = m != NULL;
      inv_close = 0;
    }
    bool end = false;
    if (tok_ch(s, t, '{')) {
      if (depth == 0 && paren == 0 && ntk > 0 && tok_ch(s, tk[ntk - 1], ')')) func = true;
      depth++;
    } else if (tok_ch(s, t, '}')) {
      depth--;
      if (depth < 0) {
        L->whole = true;
        break;
      }
    } else if (tok_ch(s, t, '(') || tok_ch(s, t, '[')) {
      paren++;
    } else if (tok_ch(s, t, ')') || tok_ch(s, t, ']')) {
      paren--;
    }
    int d0 = tok_ch(s, t, '{') ? depth - 1 : depth;
    int p0 = tok_ch(s, t, '(') || tok_ch(s, t, '[') ? paren - 1 : paren;
    tk[ntk] = t;
    dep[ntk] = d0;
    par[ntk] = p0;
    ntk++;
    if (depth == 0 && paren == 0) {
      if (tok_ch(s, t, ';')) end = true;
      else if (tok_ch(s, t, '}') && func) end = true;
      else if (invocation && !func && tok_ch(s, t, ')') && !inv_close) {
        inv_close = p;
        size_t q = p;
        skip_blank(s, &q, L->len, false);
        if (q < L->len && s[q] == ';') {
          /* the ';' ends it */
        } else if (q < L->len && s[q] == '{') {
          invocation = false; /* a definition whose signature is a macro call */
        } else {
          end = true;
        }
      }
    }
    if (!end) continue;
    /* a comment on the same line goes with the chunk */
    size_t q = p;
    while (q < L->len && (s[q] == ' ' || s[q] == '\t')) q++;
    if (q + 1 < L->len && s[q] == '/' && s[q + 1] == '/') {
      while (q < L->len && s[q] != '\n') q++;
    } else if (q + 1 < L->len && s[q] == '/' && s[q + 1] == '*') {
      size_t r = q + 2;
      while (r + 1 < L->len && !(s[r] == '*' && s[r + 1] == '/') && s[r] != '\n') r++;
      if (r + 1 < L->len && s[r] == '*') q = r + 2;
      while (q < L->len && (s[q] == ' ' || s[q] == '\t')) q++;
    }
    if (q < L->len && s[q] == '\n') p = q + 1;
    Item *it = new_item(L, IT_CODE, cstart, p, group);
    Ints pasted = {0};
    scan_refs(L, s, cstart, p, &it->refs, invocation ? &pasted : NULL);
    if (invocation) {
      for (int k = 0; k < pasted.n; k++) {
        ints_push(&it->defs, pasted.v[k]);
        ints_push(&it->refs, pasted.v[k]);
      }
    } else {
      chunk_defs(L, tk, dep, par, ntk, func, &it->defs);
    }
    free(pasted.v);
    for (int k = 0; k < refs.n; k++) ints_push(&it->refs, refs.v[k]);
    refs.n = 0;
    int nd = 0;
    for (int k = 0; k < it->defs.n; k++) {
      const char *dn = L->names.s[it->defs.v[k]];
      if (!c_keyword(dn, strlen(dn))) it->defs.v[nd++] = it->defs.v[k];
    }
    it->defs.n = nd;
    if (!it->defs.n) it->kind = IT_ALWAYS;
    cstart = p;
    ntk = 0;
    func = invocation = false;
  }
  if (ntk > 0 || depth != 0 || group != -1) L->whole = true;
  free(tk);
  free(dep);
  free(par);
  free(refs.v);
  /* text after the last chunk (comments) goes nowhere; who defines what */
  L->definers = calloc((size_t)L->names.n + 1, sizeof *L->definers);
  if (!L->definers) abort();
  for (int i = 0; i < L->nitems; i++)
    for (int k = 0; k < L->items[i].defs.n; k++) ints_push(&L->definers[L->items[i].defs.v[k]], i);
  L->nlib_names = L->names.n;
}

static void mark_group(Lib *L, int g, Ints *work) {
  for (; g >= 0 && !L->groups[g].used; g = L->groups[g].parent) {
    L->groups[g].used = true;
    for (int i = 0; i < L->nitems; i++)
      if (L->items[i].kind == IT_DIRECTIVE && L->items[i].group == g)
        for (int k = 0; k < L->items[i].refs.n; k++) ints_push(work, L->items[i].refs.v[k]);
  }
}

static int *why_from_; /* debugging: name id -> the item whose references first pushed it */
static void mark_item(Lib *L, int i, Ints *work) {
  Item *it = &L->items[i];
  if (it->keep) return;
  it->keep = true;
  for (int k = 0; k < it->refs.n; k++) {
    if (why_from_ && it->refs.v[k] < L->nlib_names && !why_from_[it->refs.v[k]]) why_from_[it->refs.v[k]] = i + 1;
    ints_push(work, it->refs.v[k]);
  }
  mark_group(L, it->group, work);
}

static void lib_prepare(void) {
  if (!lib_ready_) {
    lib_split(&lib_);
    lib_ready_ = true;
  }
}

/* The roots found so far: the library names the text names (each pushed once) and the names its
 * calls of library macros paste. */
typedef struct {
  Ints work;
  bool *rooted;   /* library name id -> already in work */
  char *ismacro;  /* library name id -> 0 not known yet, 1 not a macro, 2 a macro */
} Roots;

static bool roots_init(Roots *r) {
  memset(r, 0, sizeof *r);
  r->rooted = calloc((size_t)lib_.nlib_names + 1, 1);
  r->ismacro = calloc((size_t)lib_.nlib_names + 1, 1);
  return r->rooted && r->ismacro;
}

static void roots_free(Roots *r) {
  free(r->work.v);
  free(r->rooted);
  free(r->ismacro);
  memset(r, 0, sizeof *r);
}

/* Adds the identifiers of s[0, n) to r. Unless final, stops before any blank run, token or
 * macro call that reaches the end of s (it may go on in text not written yet) and returns where
 * it stopped: scanning the rest later from there finds what one scan of the whole text finds. */
static size_t roots_scan(Roots *r, const char *s, size_t n, bool final) {
  Lib *L = &lib_;
  size_t p = 0;
  for (;;) {
    size_t at = p;
    skip_blank(s, &p, n, false);
    if (p >= n && !final) return at;
    Tok t = next_tok(s, &p, n);
    if (t.kind == T_EOF) return p;
    if (p >= n && !final) return at;
    if (t.kind != T_IDENT) continue;
    int id = name_find(&L->names, s + t.at, t.len);
    if (id < 0 || id >= L->nlib_names) continue;
    if (!r->ismacro[id]) r->ismacro[id] = macro_named(L, id) ? 2 : 1;
    if (r->ismacro[id] == 2) { /* a call of a library macro: the names it pastes */
      size_t q = p;
      skip_blank(s, &q, n, false);
      if (q >= n && !final) return at;
      if (q < n && s[q] == '(') {
        size_t e2;
        int depth = 0;
        for (e2 = q; e2 < n; e2++) {
          if (s[e2] == '(') depth++;
          if (s[e2] == ')' && --depth == 0) {
            e2++;
            break;
          }
        }
        if (e2 >= n && !final) return at;
        Ints refs = {0};
        scan_refs(L, s, t.at, e2, &refs, NULL);
        for (int k = 0; k < refs.n; k++) ints_push(&r->work, refs.v[k]);
        free(refs.v);
      }
    }
    if (!r->rooted[id]) {
      r->rooted[id] = true;
      ints_push(&r->work, id);
    }
  }
}

/* The library's text reduced to the chunks reachable from r's roots; malloc'd, NULL when out of
 * memory. Takes r's work list. */
static char *roots_closure(Roots *r) {
  Lib *L = &lib_;
  for (int i = 0; i < L->nitems; i++) L->items[i].keep = false;
  for (int g = 0; g < L->ngroups; g++) L->groups[g].used = false;
  Ints work = r->work;
  r->work = (Ints){0};
  bool *seen = calloc((size_t)L->nlib_names + 1, 1);
  if (!seen) {
    free(work.v);
    return NULL;
  }
  int *by = NULL; /* MC_SHAKE_WHY: item -> the name id that kept it, + 1 */
  if (getenv("MC_SHAKE_WHY")) {
    why_from_ = calloc((size_t)L->nlib_names + 1, sizeof *why_from_);
    by = calloc((size_t)L->nitems + 1, sizeof *by);
    if (!why_from_ || !by) {
      free(why_from_);
      free(by);
      why_from_ = NULL;
      by = NULL;
    }
  }
  for (int i = 0; i < L->nitems; i++)
    if (L->items[i].kind == IT_ALWAYS) mark_item(L, i, &work);
  while (work.n) {
    int id = work.v[--work.n];
    if (id >= L->nlib_names || seen[id]) continue;
    seen[id] = true;
    for (int k = 0; k < L->definers[id].n; k++) {
      if (by && !L->items[L->definers[id].v[k]].keep) by[L->definers[id].v[k]] = id + 1;
      mark_item(L, L->definers[id].v[k], &work);
    }
  }
  if (by) {
    for (int i = 0; i < L->nitems; i++) {
      const Item *it = &L->items[i];
      if (!it->keep || it->kind == IT_DIRECTIVE) continue;
      int id = by[i] - 1, f = id >= 0 ? why_from_[id] - 1 : -1;
      const Item *fi = f >= 0 ? &L->items[f] : NULL;
      fprintf(stderr, "shake: %s (%zu bytes) kept by %s from %s%s\n",
              it->defs.n ? L->names.s[it->defs.v[0]] : "?", it->end - it->start, id >= 0 ? L->names.s[id] : "(always)",
              fi && fi->defs.n ? L->names.s[fi->defs.v[0]] : id >= 0 ? "the generated code" : "", it->kind == IT_ALWAYS ? " [always]" : "");
    }
    free(by);
    free(why_from_);
    why_from_ = NULL;
  }
  free(work.v);
  free(seen);
  size_t n = 0;
  for (int i = 0; i < L->nitems; i++) {
    const Item *it = &L->items[i];
    if (it->kind == IT_DIRECTIVE ? L->groups[it->group].used : it->keep) n += it->end - it->start;
  }
  char *t = malloc(n + 1);
  if (!t) return NULL;
  n = 0;
  for (int i = 0; i < L->nitems; i++) {
    const Item *it = &L->items[i];
    if (it->kind == IT_DIRECTIVE ? L->groups[it->group].used : it->keep) {
      memcpy(t + n, L->text + it->start, it->end - it->start);
      n += it->end - it->start;
    }
  }
  t[n] = 0;
  return t;
}

static bool all_kernels_env(void) {
  const char *env = getenv("MC_ALL_KERNELS");
  return env && *env && strcmp(env, "0");
}

static char *whole_lib(void) {
  char *t = malloc(lib_.len + 1);
  if (t) memcpy(t, lib_.text, lib_.len + 1);
  return t;
}

char *kernel_lib_text(const char *roots, size_t nroots, bool all) {
  lib_prepare();
  if (all || all_kernels_env() || lib_.whole) return whole_lib();
  Roots r;
  if (!roots_init(&r)) {
    roots_free(&r);
    return NULL;
  }
  roots_scan(&r, roots, nroots, true);
  char *t = roots_closure(&r);
  roots_free(&r);
  return t;
}

/* The generated file goes to an unnamed temporary file (a model of a million nodes writes
 * hundreds of megabytes of C: they stay out of memory), read back in slices for its roots. */
#define KL_BUFSIZE ((size_t)1 << 20)

FILE *kernel_lib_begin(KernelLibOut *k, FILE *out) {
  memset(k, 0, sizeof *k);
  k->out = out;
  k->at = -1;
  k->buf = tmpfile();
  if (k->buf) {
    k->vbuf = malloc(KL_BUFSIZE);
    if (k->vbuf) setvbuf(k->buf, k->vbuf, _IOFBF, KL_BUFSIZE);
    return k->buf;
  }
  k->buf = open_memstream(&k->text, &k->len); /* no temporary file: the file in memory */
  k->in_memory = k->buf != NULL;
  return k->buf ? k->buf : out;
}

void kernel_lib_here(KernelLibOut *k) {
  if (!k->buf) {
    char *t = kernel_lib_text("", 0, true);
    if (t) fputs(t, k->out);
    free(t);
    return;
  }
  fflush(k->buf);
  k->at = ftell(k->buf);
}

/* Copies n bytes (all that is left when n is -1) from f to out through buf. */
static bool copy_out(FILE *f, FILE *out, char *buf, long long n) {
  while (n != 0) {
    size_t want = n < 0 || (unsigned long long)n > KL_BUFSIZE ? KL_BUFSIZE : (size_t)n;
    size_t got = fread(buf, 1, want, f);
    if (got == 0) return n < 0 && !ferror(f);
    if (fwrite(buf, 1, got, out) != got) return false;
    if (n > 0) n -= (long long)got;
  }
  return true;
}

/* Copies what is left of f to out; on Linux inside the kernel (copy_file_range: the text is not
 * read into and written out of this process again), else, or where that fails, through buf. */
static bool copy_rest(FILE *f, FILE *out, char *buf) {
#ifdef __linux__
  if (fflush(out) == 0) {
    off_t at = ftello(f);
    int in = fileno(f), to = fileno(out);
    bool moved = false;
    while (at >= 0 && in >= 0 && to >= 0) {
      ssize_t n = copy_file_range(in, &at, to, NULL, (size_t)1 << 30, 0);
      if (n > 0) {
        moved = true;
        continue;
      }
      if (n == 0) return fseeko(f, at, SEEK_SET) == 0 && fseeko(out, 0, SEEK_END) == 0;
      if (moved || (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP &&
                    errno != EBADF))
        return false;
      break; /* not supported between these files: the portable copy */
    }
  }
#endif
  return copy_out(f, out, buf, -1);
}

/* The reachable part of the library for the file in k (read back from the temporary file
 * through win, which may grow), or the whole library; NULL when out of memory. */
static char *lib_for(KernelLibOut *k, FILE *f, char **win, size_t *cap) {
  lib_prepare();
  if (all_kernels_env() || lib_.whole) return whole_lib();
  Roots r;
  if (!roots_init(&r)) {
    roots_free(&r);
    return NULL;
  }
  if (k->in_memory) {
    roots_scan(&r, k->text, k->len, true);
  } else {
    /* the roots: every identifier of the file, a slice at a time; what a slice leaves
     * unscanned at its end moves to the front of the window before the next slice */
    size_t have = 0;
    rewind(f);
    for (;;) {
      size_t got = fread(*win + have, 1, *cap - have, f);
      have += got;
      size_t used = roots_scan(&r, *win, have, got == 0);
      if (got == 0) break;
      if (used == 0 && have == *cap) { /* one token fills the window: widen it */
        char *w = realloc(*win, 2 * *cap);
        if (!w) {
          roots_free(&r);
          return NULL;
        }
        *win = w;
        *cap *= 2;
        continue;
      }
      memmove(*win, *win + used, have - used);
      have -= used;
    }
    if (ferror(f)) {
      roots_free(&r);
      return NULL;
    }
  }
  char *t = roots_closure(&r);
  roots_free(&r);
  return t;
}

int kernel_lib_end(KernelLibOut *k) {
  if (!k->buf) return 0;
  FILE *f = k->buf;
  k->buf = NULL;
  int status = 0;
  if (k->in_memory) {
    if (fclose(f)) {
      free(k->text);
      k->text = NULL;
      return 1;
    }
    f = NULL;
  } else if (fflush(f) || ferror(f)) {
    status = 1;
  }
  size_t cap = 2 * KL_BUFSIZE;
  char *win = k->in_memory ? NULL : malloc(cap);
  if (!k->in_memory && !win) status = 1;
  char *lib = NULL;
  if (!status && k->at >= 0 && !(lib = lib_for(k, f, &win, &cap))) status = 1;
  if (!status && k->in_memory) {
    size_t at = k->at < 0 ? 0 : (size_t)k->at;
    if (at > k->len) at = k->len;
    fwrite(k->text, 1, at, k->out);
    if (lib) fputs(lib, k->out);
    fwrite(k->text + at, 1, k->len - at, k->out);
  } else if (!status) {
    rewind(f);
    if (!copy_out(f, k->out, win, k->at < 0 ? -1 : k->at) || (lib && fputs(lib, k->out) == EOF) ||
        !copy_rest(f, k->out, win))
      status = 1;
  }
  free(lib);
  free(win);
  free(k->text);
  k->text = NULL;
  if (f) fclose(f);
  free(k->vbuf);
  k->vbuf = NULL;
  return status;
}
