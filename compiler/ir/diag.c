/* diag.c — GCC-style diagnostics: "file:line:col: error: message", then the offending source
 * line and a caret under the column, when the file's text is registered. Counts errors so the
 * driver can choose the exit status; never exits. */
#include "ir.h"

#include <stdio.h>
#include <string.h>

void diag_init(Diag *d) {
  memset(d, 0, sizeof *d);
  d->max_errors = 20;
  d->out = stderr;
}

void diag_add_file(Diag *d, const SrcFile *f) {
  if (d->nfiles < (int)(sizeof d->files / sizeof d->files[0])) d->files[d->nfiles++] = f;
}

static void print_loc(FILE *o, SrcLoc loc) {
  if (loc.file && loc.line > 0) fprintf(o, "%s:%d:%d: ", loc.file, loc.line, loc.col > 0 ? loc.col : 1);
  else if (loc.file) fprintf(o, "%s: ", loc.file);
  else fputs("mc: ", o);
}

static void print_source_line(Diag *d, SrcLoc loc) {
  if (!loc.file || loc.line <= 0) return;
  const SrcFile *f = NULL;
  for (int i = 0; i < d->nfiles; i++)
    if (d->files[i]->path && strcmp(d->files[i]->path, loc.file) == 0) f = d->files[i];
  if (!f || !f->text) return;
  const char *p = f->text, *end = f->text + f->len;
  for (int line = 1; line < loc.line && p < end; p++)
    if (*p == '\n') line++;
  if (p >= end && loc.line > 1) return;
  const char *q = p;
  while (q < end && *q != '\n') q++;
  size_t n = (size_t)(q - p);
  int col = loc.col > 0 ? loc.col : 1;
  /* Long lines (1 MB of JSON on one line) are shown as a window around the column. */
  size_t start = 0;
  if (n > 160) {
    start = (size_t)col > 80 ? (size_t)col - 80 : 0;
    if (start > n) start = n;
    n = n - start > 160 ? 160 : n - start;
    col -= (int)start;
  }
  fputs("  ", d->out);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[start + i];
    fputc(c == '\t' ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : c, d->out);
  }
  fputs("\n  ", d->out);
  for (int i = 1; i < col && i <= (int)n; i++) fputc(' ', d->out);
  fputs("^\n", d->out);
}

/* The message, at most 1000 bytes (a 1 MB name from the input is cut, "..." marks it) and on
 * one line (control characters from the input print as '?'). */
static void print_msg(FILE *o, const char *fmt, va_list ap) {
  char buf[1004];
  int n = vsnprintf(buf, 1001, fmt, ap);
  if (n < 0) n = 0;
  if (n > 1000) memcpy(buf + 1000, "...", 4);
  for (char *p = buf; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
  fputs(buf, o);
}

void diag_verror(Diag *d, SrcLoc loc, const char *fmt, va_list ap) {
  d->nerrors++;
  if (d->nerrors > d->max_errors) return;
  print_loc(d->out, loc);
  fputs("error: ", d->out);
  print_msg(d->out, fmt, ap);
  fputc('\n', d->out);
  print_source_line(d, loc);
  if (d->nerrors == d->max_errors) fputs("mc: too many errors; stopping\n", d->out);
}

void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(d, loc, fmt, ap);
  va_end(ap);
}

void diag_warning(Diag *d, SrcLoc loc, const char *fmt, ...) {
  d->nwarnings++;
  print_loc(d->out, loc);
  fputs("warning: ", d->out);
  va_list ap;
  va_start(ap, fmt);
  print_msg(d->out, fmt, ap);
  va_end(ap);
  fputc('\n', d->out);
  print_source_line(d, loc);
}

void diag_note(Diag *d, SrcLoc loc, const char *fmt, ...) {
  if (d->nerrors > d->max_errors) return;
  print_loc(d->out, loc);
  fputs("note: ", d->out);
  va_list ap;
  va_start(ap, fmt);
  print_msg(d->out, fmt, ap);
  va_end(ap);
  fputc('\n', d->out);
}
