/* kernel_lib.h — only the kernels a model uses go into its generated C.
 *
 * The kernel library (mck.h and every k_*.h, embedded as mc_kernel_sources) is split once into
 * top-level chunks in their original order: a function definition or prototype, a struct, union,
 * enum or typedef, a static table or variable, a #define or #undef, a top-level invocation of one
 * of the library's own generator macros (KACT_GEN(...), MCK_EW_BINARY(...)), each with the comments
 * before it. Each chunk knows the identifiers it defines and the identifiers it references (a small
 * C tokenizer: comments, strings and character literals skipped; names made by `##` in a generator
 * macro's body worked out from its arguments). An #if/#ifdef/#ifndef group at top level is not one
 * chunk: its directives are written around whichever of its inner chunks are kept, and the
 * identifiers in its conditions are referenced as soon as one is.
 *
 * The emitter writes the rest of the file first (into an unnamed temporary file, or memory when
 * none can be made); every identifier in that text is
 * a root, the closure over the chunks is kept, and only those chunks are pasted, in order, at the
 * library's place in the file. Doubt keeps a chunk: an identifier that names a chunk keeps every
 * chunk that may define it, a chunk whose definitions cannot be told (and #include, #pragma,
 * #error) is always kept, and a library the splitter cannot follow (unbalanced #if groups) is
 * pasted whole. C keywords are never definitions (`typedef int (*fn)(...)` defines fn, not int).
 * MC_ALL_KERNELS=1 in the environment pastes the whole library, and MC_SHAKE_WHY=1 prints to
 * stderr each kept chunk (its first name and size), the name that kept it and the chunk that
 * named it (debugging).
 *
 * Prefix: kernel_lib_.
 */
#ifndef MC_KERNEL_LIB_H
#define MC_KERNEL_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The library's text reduced to the chunks reachable from the identifiers in roots[0..nroots)
 * (the whole library when all is true or MC_ALL_KERNELS is set); malloc'd, NUL-terminated, NULL
 * when out of memory. */
char *kernel_lib_text(const char *roots, size_t nroots, bool all);

/* The emitter's side: kernel_lib_begin returns the stream to write the generated file to (an
 * unnamed temporary file, else a buffer; `out` itself when neither can be had), kernel_lib_here
 * marks where the library goes, and kernel_lib_end writes the file to `out` with the reachable chunks pasted at the mark (the whole
 * library at the mark when unbuffered). Returns 0, or 1 when out of memory. */
typedef struct KernelLibOut {
  FILE *out, *buf;
  char *vbuf;      /* buf's stdio buffer */
  bool in_memory;  /* buf is an open_memstream (no temporary file could be made) */
  char *text;      /* in_memory: the file */
  size_t len;
  long at;
} KernelLibOut;
FILE *kernel_lib_begin(KernelLibOut *k, FILE *out);
void kernel_lib_here(KernelLibOut *k);
int kernel_lib_end(KernelLibOut *k);

#endif
