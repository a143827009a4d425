/* jit.h — compiles generated C in memory with libtcc and hands back its symbols, for `mc run`.
 *
 * Generated model code includes its header, which includes mc_runtime.h (and DLPack). Neither
 * file needs to exist where mc runs: jit_compile_model replaces the model's `#include` line by a
 * prelude holding the part of mc_runtime.h that generated code uses, followed by a #line
 * directive, so every diagnostic from libtcc names the generated file's own line numbers (those
 * of the file `mc compile` writes). The prelude's struct layouts are checked against mc's own
 * mc_runtime.h after compiling, so the two cannot drift apart silently. The runtime itself is
 * mc's (linked into mc): mc_model_new is handed to tcc as a symbol, so models made by JIT'd code
 * are driven with the ordinary runtime API.
 *
 * Ownership: a Jit owns the compiled code; symbols are valid until jit_free. Prefix: jit_.
 */
#ifndef MC_JIT_H
#define MC_JIT_H

#include "ir/ir.h"

typedef struct Jit Jit;

/* Compiles `src`, whose line `#include "HEADER_NAME"` is replaced by the runtime prelude.
 * `file_name` is the name diagnostics use ("model.c"). On failure prints libtcc's messages to
 * d->out ("model.c:LINE: error: ...", counted in d->nerrors) and returns NULL. */
Jit *jit_compile_model(const char *src, const char *header_name, const char *file_name, Diag *d);
void *jit_symbol(Jit *j, const char *name);
void jit_free(Jit *j);

#endif
