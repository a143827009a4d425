/* host.c — main.c's output on a hosted build (the heapless host check in run.sh): bm_puts to
 * stdout, and the C library's malloc family poisoned (-Wl,--wrap=...): the model's code and the
 * runtime must not call them. */
#include <stdio.h>
#include <stdlib.h>

void bm_puts(const char *s) { fputs(s, stdout); }

static void poisoned(const char *fn) {
  fprintf(stderr, "FAIL: %s called in a build without a heap\n", fn);
  abort();
}
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t s);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
void *__wrap_malloc(size_t n) { (void)n; poisoned("malloc"); return NULL; }
void *__wrap_calloc(size_t n, size_t s) { (void)n, (void)s; poisoned("calloc"); return NULL; }
void *__wrap_realloc(void *p, size_t n) { (void)p, (void)n; poisoned("realloc"); return NULL; }
void __wrap_free(void *p) { (void)p; poisoned("free"); }
