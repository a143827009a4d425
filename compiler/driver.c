/* driver.c — what every command shares: loading a model by its extension and atomic output
 * files (temporary + rename). */
#include "driver.h"

#include "frontend/json.h"
#include "frontend/ts.h"
#include "ops/ops.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

bool drv_load(const char *path, Diag *d, Loaded *out) {
  memset(out, 0, sizeof *out);
  Graph *g;
  if (ends_with(path, ".json")) {
    g = json_parse_file(path, d, &out->deps, &out->ndeps);
  } else {
    g = ts_parse_file(path, d);
    if (g) {
      out->deps = arena_alloc(g->arena, sizeof(char *));
      out->deps[0] = g->path;
      out->ndeps = 1;
    }
  }
  if (!g) {
    if (d->nerrors == 0) diag_error(d, (SrcLoc){path, 0, 0}, "cannot read the model");
    return false;
  }
  out->g = g;
  if (ops_resolve(g, d) || ir_verify(g, d, "after parsing")) {
    ir_graph_free(g);
    out->g = NULL;
    return false;
  }
  return true;
}

bool drv_out_open(OutFile *o, const char *path, Diag *d) {
  memset(o, 0, sizeof *o);
  if (strcmp(path, "-") == 0) {
    o->f = stdout;
    o->is_stdout = true;
    return true;
  }
  o->path = strdup(path);
  size_t n = strlen(path) + 16;
  o->tmp = malloc(n);
  if (!o->path || !o->tmp) return false;
  snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    diag_error(d, (SrcLoc){path, 0, 0}, "cannot create output file: %s", strerror(errno));
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    return false;
  }
  mode_t mask = umask(0); /* mkstemp made it 0600: give it the mode a plain fopen would */
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
  o->f = fdopen(fd, "w");
  if (!o->f) {
    close(fd);
    unlink(o->tmp);
    return false;
  }
  return true;
}

bool drv_out_commit(OutFile *o, Diag *d) {
  if (o->is_stdout) return fflush(stdout) == 0;
  bool ok = !ferror(o->f);
  ok = (fclose(o->f) == 0) && ok;
  o->f = NULL;
  if (ok && rename(o->tmp, o->path) != 0) {
    diag_error(d, (SrcLoc){o->path, 0, 0}, "cannot write output file: %s", strerror(errno));
    ok = false;
  } else if (!ok) {
    diag_error(d, (SrcLoc){o->path, 0, 0}, "error writing output file");
  }
  if (!ok) unlink(o->tmp);
  free(o->path);
  free(o->tmp);
  o->path = o->tmp = NULL;
  return ok;
}

void drv_out_abort(OutFile *o) {
  if (o->is_stdout || !o->tmp) return;
  if (o->f) fclose(o->f);
  unlink(o->tmp);
  free(o->path);
  free(o->tmp);
  memset(o, 0, sizeof *o);
}
