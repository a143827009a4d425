/* driver.h — the command-line driver: one file per command, plus what they share (loading a
 * model, atomic output files). Only main() exits. Prefix: drv_. */
#ifndef MC_DRIVER_H
#define MC_DRIVER_H

#include "ir/ir.h"

#define MC_VERSION "0.1.0"

/* Exit statuses. */
enum { EXIT_OK = 0, EXIT_REJECTED = 1, EXIT_USAGE = 2 };

typedef struct Loaded {
  Graph *g;
  const char **deps; /* files read (model, weights) */
  int ndeps;
} Loaded;

/* Reads MODEL (*.json: graph JSON; anything else: TorchScript text), resolves ops and verifies.
 * Returns false with diagnostics printed. */
bool drv_load(const char *path, Diag *d, Loaded *out);

/* Records an input file (by st_dev/st_ino) that no output may replace; drv_load records the
 * model and its weights itself. */
void drv_note_input(const char *path);
/* False, with a diagnostic, when path exists and is an input or not a regular file. */
bool drv_out_allowed(const char *path, Diag *d);

/* An output file written to a temporary beside it and renamed into place on commit, so an
 * error never leaves a half-written file, and a SIGINT/SIGTERM/SIGHUP/SIGQUIT removes the
 * temporary (on Linux it has no name until the commit: not even SIGKILL leaves it behind). Refused (drv_out_allowed) when the path is an input or not a regular file.
 * "-" writes to stdout. */
typedef struct OutFile {
  FILE *f;
  char *path, *tmp;
  bool is_stdout;
  bool unnamed; /* an O_TMPFILE temporary: named tmp only at commit */
} OutFile;
bool drv_out_open(OutFile *o, const char *path, Diag *d);
bool drv_out_commit(OutFile *o, Diag *d); /* closes; false on a write error */
void drv_out_abort(OutFile *o);           /* closes and removes the temporary */

int cmd_compile(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_ops(int argc, char **argv);

#endif
