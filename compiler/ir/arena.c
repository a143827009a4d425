/* arena.c — bump allocation for everything a compile creates. Chunks are malloc'd and freed
 * all at once by arena_free(); no individual frees. Allocation failure is the one place mc
 * aborts: there is nothing sensible left to report with. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

typedef struct Chunk {
  struct Chunk *next;
  size_t cap, used;
  _Alignas(16) unsigned char mem[];
} Chunk;

struct Arena {
  Chunk *head;
  size_t total;
};

Arena *arena_new(void) {
  Arena *a = calloc(1, sizeof *a);
  if (!a) {
    fputs("mc: out of memory\n", stderr);
    abort();
  }
  return a;
}

void arena_free(Arena *a) {
  if (!a) return;
  for (Chunk *c = a->head, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(a);
}

void *arena_alloc(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (n == 0) n = 16;
  Chunk *c = a->head;
  if (!c || c->cap - c->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    c = malloc(sizeof *c + cap);
    if (!c) {
      fputs("mc: out of memory\n", stderr);
      abort();
    }
    c->cap = cap;
    c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  void *p = c->mem + c->used;
  c->used += n;
  a->total += n;
  memset(p, 0, n);
  return p;
}

void *arena_memdup(Arena *a, const void *p, size_t n) {
  void *q = arena_alloc(a, n);
  if (n) memcpy(q, p, n);
  return q;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *q = arena_alloc(a, n + 1);
  memcpy(q, s, n);
  q[n] = 0;
  return q;
}

char *arena_strdup(Arena *a, const char *s) { return s ? arena_strndup(a, s, strlen(s)) : NULL; }

char *arena_printf(Arena *a, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = arena_alloc(a, (size_t)(n < 0 ? 0 : n) + 1);
  if (n > 0) vsnprintf(s, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return s;
}

size_t arena_bytes(const Arena *a) { return a->total; }

ArenaMark arena_mark(const Arena *a) {
  ArenaMark m = {a->head, a->head ? a->head->used : 0, a->total};
  return m;
}

void arena_release(Arena *a, ArenaMark m) {
  while (a->head && a->head != (Chunk *)m.chunk) {
    Chunk *c = a->head;
    a->head = c->next;
    free(c);
  }
  if (a->head) a->head->used = m.used;
  a->total = m.total;
}
