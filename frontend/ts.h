/* ts.h — the TorchScript text frontend: reads what PyTorch 1.13 prints for `str(graph)`
 * (scripted, traced, frozen and inlined graphs) and what ir_print_graph prints, into the IR.
 *
 * ts_lex.c turns the text into tokens on demand (the parser switches to character level for
 * attribute values and scopes); ts_parse.c builds the graph with the ir.h API.
 *
 * Ownership: the returned Graph owns everything, including the SrcFile registered with `d`
 * (so diagnostics issued later by passes can still show the source line); free it with
 * ir_graph_free(). On error the result is NULL, exactly one located diagnostic
 * ("FILE:LINE:COL: error: ...") has been printed through `d`, and nothing stays registered.
 * The input may be any bytes: the parser never reads past `len` and bounds its recursion.
 */
#ifndef MC_TS_H
#define MC_TS_H

#include <stddef.h>

#include "ir/ir.h"

Graph *ts_parse_file(const char *path, Diag *d);
/* `text` need not be NUL-terminated; it is copied. `path` names the text in diagnostics. */
Graph *ts_parse_string(const char *path, const char *text, size_t len, Diag *d);

/* ---- ts_lex.c: tokens (internal to the frontend) ---------------------------------------- */
typedef enum TsTokKind {
  TS_EOF,
  TS_IDENT,   /* int, Float, aten::add, __torch__.M, block0, cuda:0, inf */
  TS_VALUE,   /* %x.1 (text without the '%') */
  TS_NUM,     /* -1, 2.5, 1e-05 */
  TS_STR,     /* "..." (text between the quotes, still escaped) */
  TS_PUNCT,   /* ( ) [ ] { } , : = ? * < > */
  TS_ARROW,   /* -> */
  TS_COMMENT, /* # rest of the line (text after '#', trimmed) */
  TS_ERROR    /* a malformed token; `msg` says why */
} TsTokKind;

typedef struct TsTok {
  TsTokKind kind;
  const char *p; /* points into the source */
  size_t n;
  size_t pos;    /* byte offset of p */
  int line, col;
  const char *msg;
} TsTok;

typedef struct TsLexer {
  const char *src;
  size_t len, pos;
  int line, col; /* of src[pos], 1-based */
} TsLexer;

void ts_lex_init(TsLexer *lx, const char *src, size_t len);
TsTok ts_lex_next(TsLexer *lx);                  /* skips blanks and newlines */
void ts_lex_advance(TsLexer *lx, size_t pos);    /* moves forward to offset pos, counting lines */
bool ts_tok_is(const TsTok *t, const char *s);  /* exact text match */
/* Decodes a TS_STR token's escapes (\" \\ \' \n \t \a \b \f \r \v \ooo \xHH) into `out`
 * (capacity t->n + 1, NUL-terminated); returns the decoded length. */
size_t ts_unescape(const char *p, size_t n, char *out);

#endif
