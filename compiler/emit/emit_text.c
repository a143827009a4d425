/* emit_text.c — escaping of untrusted text written into generated source (see emit_text.h). */
#include "emit/emit_text.h"

#include <stdlib.h>
#include <string.h>

static bool is_print(unsigned char c) { return c >= 0x20 && c < 0x7f; }

/* Whether comment text keeps byte s[i] as it is. */
static bool comment_keeps(const char *s, size_t i) {
  unsigned char c = (unsigned char)s[i];
  if (!is_print(c) || c == '*' || c == '\\' || c == '?' || c == '%') return false;
  return !(c == '/' && s[i + 1] == 0);
}

static const char hexd[] = "0123456789ABCDEF";

void emit_text_comment(FILE *f, const char *s) {
  for (size_t i = 0; s[i]; i++) {
    unsigned char c = (unsigned char)s[i];
    if (comment_keeps(s, i)) {
      fputc(c, f);
    } else {
      fputc('%', f);
      fputc(hexd[c >> 4], f);
      fputc(hexd[c & 15], f);
    }
  }
}

char *emit_text_comment_into(char *dst, size_t cap, const char *s) {
  if (cap < 8) {
    if (cap) dst[0] = 0;
    return dst;
  }
  size_t total = 0;
  for (size_t i = 0; s[i]; i++) total += comment_keeps(s, i) ? 1 : 3;
  size_t room = total < cap ? cap - 1 : cap - 4, j = 0; /* cut: leave room for "..." */
  for (size_t i = 0; s[i]; i++) {
    unsigned char c = (unsigned char)s[i];
    bool keep = comment_keeps(s, i);
    if (j + (keep ? 1 : 3) > room) break;
    if (keep) {
      dst[j++] = (char)c;
    } else {
      dst[j++] = '%';
      dst[j++] = hexd[c >> 4];
      dst[j++] = hexd[c & 15];
    }
  }
  if (total >= cap) {
    memcpy(dst + j, "...", 3);
    j += 3;
  }
  dst[j] = 0;
  return dst;
}

const char *emit_text_cm(const char *s) {
  static char buf[4][256];
  static int k;
  k = (k + 1) % 4;
  return emit_text_comment_into(buf[k], sizeof buf[k], s);
}

void emit_text_comment_type(FILE *f, const Type *t) {
  char *buf = NULL;
  size_t n = 0;
  FILE *m = open_memstream(&buf, &n);
  if (!m) return;
  ir_type_print(m, t);
  fclose(m);
  emit_text_comment(f, buf);
  free(buf);
}

void emit_text_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\' || c == '?') {
      fputc('\\', f);
      fputc(c, f);
    } else if (is_print(c)) {
      fputc(c, f);
    } else {
      fprintf(f, "\\%03o", c);
    }
  }
  fputc('"', f);
}

void emit_text_asm_string(FILE *f, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      fputs("\\\\\\", f); /* the assembler's backslash, escaped for C, then the C escape of c */
      fputc(c, f);
    } else if (c == '?') {
      fputs("\\?", f);
    } else if (is_print(c)) {
      fputc(c, f);
    } else {
      fprintf(f, "\\\\%03o", c); /* the assembler's octal escape, its backslash escaped for C */
    }
  }
}

char *emit_text_ident(char *dst, size_t cap, const char *s) {
  size_t j = 0;
  bool alpha0 = (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_';
  if (s[0] && !alpha0) dst[j++] = '_';
  for (size_t i = 0; s[i] && j + 1 < cap; i++) {
    unsigned char c = (unsigned char)s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    dst[j++] = ok ? (char)c : '_';
  }
  dst[j] = 0;
  if (j == 0) snprintf(dst, cap, "model");
  return dst;
}

const char *emit_text_include_ok(const char *name) {
  if (!*name) return "it is empty";
  for (const char *p = name; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c < 0x20 || c == 0x7f) return "it has a control character (a newline, a tab, ...)";
    if (c == '"' || c == '\\' || c == '\'') return "it has a quote or a backslash";
    if (c == '?' && p[1] == '?') return "it has ?? (a trigraph)";
    if (c == '/' && (p[1] == '/' || p[1] == '*')) return "it has // or /*";
  }
  return NULL;
}
