/* ts_lex.c — on-demand tokenizer for TorchScript graph text.
 *
 * Tokens are produced one at a time from a (pointer, length) buffer that need not be
 * NUL-terminated: every read is bounds-checked against `len`. Blanks and newlines separate
 * tokens and carry no meaning (the parser is driven by tokens, not indentation). '#' starts a
 * comment that runs to the end of the line and is returned as a token, because PyTorch puts
 * the Python source location there. Identifiers include '::' (aten::add), '.' (dotted class
 * names) and ':' followed by a digit (the device cuda:0). A malformed token (an unterminated
 * string, a stray byte) comes back as TS_ERROR with a message, never as a crash.
 */
#include <ctype.h>
#include <string.h>

#include "frontend/ts.h"

void ts_lex_init(TsLexer *lx, const char *src, size_t len) {
  lx->src = src;
  lx->len = len;
  lx->pos = 0;
  lx->line = 1;
  lx->col = 1;
}

static int ts_lex_peek(const TsLexer *lx, size_t off) {
  size_t i = lx->pos + off;
  return i < lx->len ? (unsigned char)lx->src[i] : -1;
}

static void ts_lex_bump(TsLexer *lx) {
  if (lx->pos >= lx->len) return;
  if (lx->src[lx->pos] == '\n') {
    lx->line++;
    lx->col = 1;
  } else {
    lx->col++;
  }
  lx->pos++;
}

void ts_lex_advance(TsLexer *lx, size_t pos) {
  while (lx->pos < pos && lx->pos < lx->len) ts_lex_bump(lx);
}

static bool ts_is_ident_start(int c) { return c >= 0 && (isalpha(c) || c == '_'); }
static bool ts_is_ident_char(int c) { return c >= 0 && (isalnum(c) || c == '_' || c == '.'); }
static bool ts_is_name_char(int c) { return c >= 0 && (isalnum(c) || c == '_' || c == '.'); }

static TsTok ts_tok_start(const TsLexer *lx, TsTokKind k) {
  TsTok t;
  memset(&t, 0, sizeof t);
  t.kind = k;
  t.p = lx->src + lx->pos;
  t.pos = lx->pos;
  t.line = lx->line;
  t.col = lx->col;
  return t;
}

static void ts_tok_end(const TsLexer *lx, TsTok *t) { t->n = lx->pos - t->pos; }

static TsTok ts_lex_number(TsLexer *lx) {
  TsTok t = ts_tok_start(lx, TS_NUM);
  if (ts_lex_peek(lx, 0) == '-' || ts_lex_peek(lx, 0) == '+') ts_lex_bump(lx);
  while (ts_lex_peek(lx, 0) >= 0 && isdigit(ts_lex_peek(lx, 0))) ts_lex_bump(lx);
  if (ts_lex_peek(lx, 0) == '.') {
    ts_lex_bump(lx);
    while (ts_lex_peek(lx, 0) >= 0 && isdigit(ts_lex_peek(lx, 0))) ts_lex_bump(lx);
  }
  int c = ts_lex_peek(lx, 0);
  if (c == 'e' || c == 'E') {
    size_t k = 1;
    if (ts_lex_peek(lx, k) == '+' || ts_lex_peek(lx, k) == '-') k++;
    if (ts_lex_peek(lx, k) >= 0 && isdigit(ts_lex_peek(lx, k))) {
      while (k--) ts_lex_bump(lx);
      while (ts_lex_peek(lx, 0) >= 0 && isdigit(ts_lex_peek(lx, 0))) ts_lex_bump(lx);
    }
  }
  ts_tok_end(lx, &t);
  return t;
}

TsTok ts_lex_next(TsLexer *lx) {
  for (;;) {
    int c = ts_lex_peek(lx, 0);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
      ts_lex_bump(lx);
    else
      break;
  }
  int c = ts_lex_peek(lx, 0);
  if (c < 0) return ts_tok_start(lx, TS_EOF);
  if (c == '#') {
    ts_lex_bump(lx);
    while (ts_lex_peek(lx, 0) == ' ' || ts_lex_peek(lx, 0) == '\t') ts_lex_bump(lx);
    TsTok t = ts_tok_start(lx, TS_COMMENT);
    while (ts_lex_peek(lx, 0) >= 0 && ts_lex_peek(lx, 0) != '\n') ts_lex_bump(lx);
    ts_tok_end(lx, &t);
    while (t.n > 0 && isspace((unsigned char)t.p[t.n - 1])) t.n--;
    return t;
  }
  if (c == '%') {
    TsTok t = ts_tok_start(lx, TS_VALUE);
    ts_lex_bump(lx);
    t.p++;
    t.pos++;
    while (ts_is_name_char(ts_lex_peek(lx, 0))) ts_lex_bump(lx);
    ts_tok_end(lx, &t);
    if (t.n == 0) {
      t.kind = TS_ERROR;
      t.msg = "expected a value name after '%'";
    }
    return t;
  }
  if (c == '"') {
    TsTok t = ts_tok_start(lx, TS_STR);
    ts_lex_bump(lx);
    t.p++;
    t.pos++;
    for (;;) {
      int d = ts_lex_peek(lx, 0);
      if (d < 0 || d == '\n') {
        t.kind = TS_ERROR;
        t.msg = "unterminated string";
        t.p--;
        t.pos--;
        ts_tok_end(lx, &t);
        return t;
      }
      if (d == '"') break;
      if (d == '\\' && ts_lex_peek(lx, 1) >= 0 && ts_lex_peek(lx, 1) != '\n') ts_lex_bump(lx);
      ts_lex_bump(lx);
    }
    ts_tok_end(lx, &t);
    ts_lex_bump(lx);
    return t;
  }
  if (isdigit(c) || ((c == '-' || c == '+') && ts_lex_peek(lx, 1) >= 0 &&
                     (isdigit(ts_lex_peek(lx, 1)) || ts_lex_peek(lx, 1) == '.')))
    return ts_lex_number(lx);
  if (c == '-' && ts_lex_peek(lx, 1) == '>') {
    TsTok t = ts_tok_start(lx, TS_ARROW);
    ts_lex_bump(lx);
    ts_lex_bump(lx);
    ts_tok_end(lx, &t);
    return t;
  }
  if (c == '-' && ts_is_ident_start(ts_lex_peek(lx, 1))) { /* -inf, -nan */
    TsTok t = ts_tok_start(lx, TS_IDENT);
    ts_lex_bump(lx);
    while (ts_is_ident_char(ts_lex_peek(lx, 0))) ts_lex_bump(lx);
    ts_tok_end(lx, &t);
    return t;
  }
  if (ts_is_ident_start(c)) {
    TsTok t = ts_tok_start(lx, TS_IDENT);
    for (;;) {
      int d = ts_lex_peek(lx, 0);
      if (ts_is_ident_char(d)) {
        ts_lex_bump(lx);
      } else if (d == ':' && ts_lex_peek(lx, 1) == ':' && ts_is_ident_start(ts_lex_peek(lx, 2))) {
        ts_lex_bump(lx);
        ts_lex_bump(lx);
      } else if (d == ':' && ts_lex_peek(lx, 1) >= 0 && isdigit(ts_lex_peek(lx, 1))) {
        ts_lex_bump(lx);
      } else {
        break;
      }
    }
    ts_tok_end(lx, &t);
    return t;
  }
  if (strchr("()[]{},:=?*<>", c)) {
    TsTok t = ts_tok_start(lx, TS_PUNCT);
    ts_lex_bump(lx);
    ts_tok_end(lx, &t);
    return t;
  }
  TsTok t = ts_tok_start(lx, TS_ERROR);
  ts_lex_bump(lx);
  ts_tok_end(lx, &t);
  t.msg = "unexpected character";
  return t;
}

bool ts_tok_is(const TsTok *t, const char *s) {
  size_t n = strlen(s);
  return t->n == n && memcmp(t->p, s, n) == 0;
}

static int ts_hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

size_t ts_unescape(const char *p, size_t n, char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (c != '\\' || i + 1 >= n) {
      out[o++] = c;
      continue;
    }
    c = p[++i];
    switch (c) {
      case 'n': out[o++] = '\n'; break;
      case 't': out[o++] = '\t'; break;
      case 'r': out[o++] = '\r'; break;
      case 'a': out[o++] = '\a'; break;
      case 'b': out[o++] = '\b'; break;
      case 'f': out[o++] = '\f'; break;
      case 'v': out[o++] = '\v'; break;
      case 'x': {
        int v = 0, k = 0;
        while (k < 2 && i + 1 < n && ts_hexval((unsigned char)p[i + 1]) >= 0) {
          v = v * 16 + ts_hexval((unsigned char)p[++i]);
          k++;
        }
        out[o++] = k ? (char)v : 'x';
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0', k = 1;
          while (k < 3 && i + 1 < n && p[i + 1] >= '0' && p[i + 1] <= '7') {
            v = v * 8 + (p[++i] - '0');
            k++;
          }
          out[o++] = (char)v;
        } else {
          out[o++] = c; /* \" \\ \' and anything else stand for themselves */
        }
    }
  }
  out[o] = 0;
  return o;
}
