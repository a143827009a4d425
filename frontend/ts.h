/* ts.h — the TorchScript text frontend: reads what PyTorch 1.13 prints for `str(graph)`
 * (scripted, traced, frozen and inlined graphs) and what ir_print_graph prints, into the IR.
 *
 * ts_lex.c turns the text into tokens on demand (the parser switches to character level for
 * attribute values and scopes); ts_parse.c builds the graph with the ir.h API, and ts_const.c
 * reads constant values (attributes, tensors in PyTorch's print form) and builds their nodes.
 *
 * Ownership: the returned Graph owns everything, including the SrcFile registered with `d`
 * (so diagnostics issued later by passes can still show the source line); free it with
 * ir_graph_free(). On error the result is NULL, exactly one located diagnostic
 * ("FILE:LINE:COL: error: ...") has been printed through `d`, and nothing stays registered.
 * The input may be any bytes: the parser never reads past `len` and bounds its recursion.
 */
#ifndef MC_TS_H
#define MC_TS_H

#include <setjmp.h>
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

/* ---- ts_parse.c and ts_const.c: the parser's state and what they share (internal) ------- */
#define TS_MAX_DEPTH 64

typedef struct TsName {
  const char *name;
  Value *v;
  bool live;
} TsName;

typedef struct TsParser {
  TsLexer lx;
  TsTok tok;
  bool comment_seen; /* a '#' comment came right before `tok` */
  TsTok comment;
  Graph *g;
  Arena *a;
  Arena *tmp; /* scratch of one node (names looked up, operand lists): taken back after it */
  Diag *d;
  const char *path;
  jmp_buf jb;
  TsName *tab;
  size_t cap, cnt;
  Value **defs; /* values defined so far, innermost block last (for scope closing) */
  int ndefs, capdefs;
  int depth;
  IrDim pend[IR_MAX_DIMS]; /* Dim extents of the type being read (value set by ts_graph) */
  int npend;
  bool dims_ok; /* reading a graph input's type: Dim extents allowed */
  size_t nivs;  /* constant values read so far (bounded by TS_MAX_CONST_VALUES) */
} TsParser;

/* Constant values (list elements included) of one graph, in all: each is a parsed value of about
 * a hundred bytes, so a 40 MB list of ones would otherwise take 2.6 GB. Tensors' data is in the
 * weights, never in the text, so real graphs hold a few thousand. */
#define TS_MAX_CONST_VALUES ((size_t)1 << 22)

typedef enum IvKind {
  IV_NONE, IV_INT, IV_FLOAT, IV_BOOL, IV_STR, IV_LIST, IV_TUPLE, IV_DICT, IV_TENSOR, IV_TENSORS
} IvKind;

typedef struct Iv {
  IvKind k;
  int64_t i;
  double f;
  const char *s;
  struct Iv **el;
  int n;
  IrTensor *t;
  bool brace;        /* IV_TENSOR written {x}: shape comes from the value's type */
  bool is_int;       /* IV_TENSOR {x}: x was written as an integer */
  int sig_digits;    /* IV_TENSOR {x}: significant digits printed */
  const char *annot; /* annotate(ANNOT, [...]) */
  SrcLoc loc;
} Iv;

/* ts_parse.c: locations, errors (ts_fail longjmps out of the parse), nesting, names, types */
SrcLoc ts_loc_at(TsParser *P, int line, int col);
__attribute__((format(printf, 3, 4), noreturn)) void ts_fail(TsParser *P, SrcLoc loc,
                                                             const char *fmt, ...);
void ts_enter(TsParser *P, SrcLoc loc);
void ts_define(TsParser *P, Value *v);
Type *ts_type_unknown_tensor(Arena *a);
/* ts_const.c: the character-level reader, constant values, the nodes that define them */
int ts_c(TsParser *P, size_t off);
void ts_cbump(TsParser *P, size_t n);
void ts_cskip(TsParser *P);
SrcLoc ts_cloc(TsParser *P);
__attribute__((noreturn)) void ts_cfail_expected(TsParser *P, const char *what);
void ts_cexpect(TsParser *P, char ch);
Iv *ts_iv(TsParser *P);
bool ts_iv_to_attr(TsParser *P, Node *n, const char *name, const Iv *v, const Type *ty);
Node *ts_const_node(TsParser *P, Block *b, const Iv *v, const Type *ty, const char *base,
                    SrcLoc loc);

#endif
