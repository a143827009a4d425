/* emit_text.h — the one rule for text that reaches generated C or CUDA source.
 *
 * Names, op kinds, source locations (`# model.py:3:4`, JSON "source"), string constants, error
 * messages and file names all come from the model file or the command line: untrusted text.
 * Every byte of it that mc writes into a .c, .cu or .h file goes through one of these, so that
 * it can never end a comment or a literal, splice lines (a backslash or the trigraph ??/ before
 * a newline), or start a token of its own:
 *
 *   comment text    printable ASCII as is, except * \ ? % and a final /; those, control
 *                   bytes and every byte >= 0x7f (UTF-8 or not) become %XX (hex). No newline
 *                   ever. Safe inside a block comment and a line comment.
 *   string literal  "..." with \" \\ \? and three-digit octal escapes for every byte outside
 *                   printable ASCII: valid C99/C11/C++, the same bytes at run time.
 *   asm string      the inside of a gas/LLVM-as string ("...") that itself sits inside a C
 *                   string literal of an __asm__ statement (the .incbin file name).
 *   identifier      [A-Za-z0-9_], a leading _ before a digit, "model" for nothing left.
 *   include name    cannot be escaped at all: emit_text_include_ok says whether a file name
 *                   can be written between the quotes of #include "..." (the driver refuses
 *                   an output name that cannot).
 *
 * Prefix: emit_text_.
 */
#ifndef MC_EMIT_TEXT_H
#define MC_EMIT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ir/ir.h"

/* Writes s as comment text (no delimiters). */
void emit_text_comment(FILE *f, const char *s);
/* The same into dst (at most cap bytes with the NUL; longer text ends in "..."); returns dst. */
char *emit_text_comment_into(char *dst, size_t cap, const char *s);
/* emit_text_comment_into one of four static buffers, used in turn (one fprintf may take up
 * to four): comment text of at most 255 bytes. Not reentrant (emitters run on one thread). */
const char *emit_text_cm(const char *s);
/* Writes the IR type as comment text (ir_type_print's text: a device string is the model's). */
void emit_text_comment_type(FILE *f, const Type *t);
/* Writes s as a C string literal, quotes included. */
void emit_text_string(FILE *f, const char *s);
/* Writes s as the inside of an assembler string inside a C string literal (no quotes). */
void emit_text_asm_string(FILE *f, const char *s);
/* Writes an identifier made of s into dst (cap >= 8); returns dst. */
char *emit_text_ident(char *dst, size_t cap, const char *s);
/* NULL when name can be written as #include "name", else what is wrong with it. */
const char *emit_text_include_ok(const char *name);

#endif
