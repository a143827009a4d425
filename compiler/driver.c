/* driver.c — what every command shares: loading a model by its extension and atomic output
 * files (temporary + rename).
 *
 * Invariants of output files: an output never replaces an input (the files drv_load and
 * drv_note_input saw, compared by st_dev/st_ino) nor anything but a regular file; until it is
 * committed it is a temporary in its target's folder: unnamed where the system has O_TMPFILE
 * (nothing is left behind, even by SIGKILL), else a name registered so that SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT remove it (the handler only calls unlink, raise and sigaction:
 * async-signal-safe). An unnamed temporary gets its name just before the rename. */
#include "driver.h"

#include "frontend/json.h"
#include "frontend/ts.h"
#include "ops/ops.h"

#include "ir/file.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

/* ---- inputs: what no output may replace ---- */
#define DRV_MAX_INPUTS 256
static struct {
  dev_t dev;
  ino_t ino;
  const char *path; /* as given; owned by the caller (argv or the graph's arena) */
} drv_inputs[DRV_MAX_INPUTS];
static int drv_ninputs;

void drv_note_input(const char *path) {
  struct stat st;
  if (drv_ninputs >= DRV_MAX_INPUTS || stat(path, &st) != 0) return;
  drv_inputs[drv_ninputs].dev = st.st_dev;
  drv_inputs[drv_ninputs].ino = st.st_ino;
  drv_inputs[drv_ninputs].path = path;
  drv_ninputs++;
}

/* Whether path may be replaced by an output: it does not exist, or it is a regular file that
 * is none of the inputs. */
bool drv_out_allowed(const char *path, Diag *d) {
  struct stat st;
  if (stat(path, &st) != 0) return true;
  if (!S_ISREG(st.st_mode)) {
    diag_error(d, (SrcLoc){path, 0, 0}, "refusing to write this output: it exists and is not a regular file");
    return false;
  }
  for (int i = 0; i < drv_ninputs; i++)
    if (drv_inputs[i].dev == st.st_dev && drv_inputs[i].ino == st.st_ino) {
      diag_error(d, (SrcLoc){path, 0, 0}, "refusing to write this output: it is the input file '%s'",
                 drv_inputs[i].path);
      return false;
    }
  return true;
}

/* ---- temporaries removed on a signal ---- */
#define DRV_MAX_TMPS 64
static char *volatile drv_tmps[DRV_MAX_TMPS];
static const int drv_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define DRV_NSIGNALS ((int)(sizeof drv_signals / sizeof drv_signals[0]))

static void drv_on_signal(int sig) {
  for (int i = 0; i < DRV_MAX_TMPS; i++)
    if (drv_tmps[i]) unlink(drv_tmps[i]);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
  raise(sig); /* delivered when the handler returns: the status says which signal ended us */
}

static void drv_block(sigset_t *old) {
  sigset_t set;
  sigemptyset(&set);
  for (int i = 0; i < DRV_NSIGNALS; i++) sigaddset(&set, drv_signals[i]);
  sigprocmask(SIG_BLOCK, &set, old);
}

static void drv_tmp_register(char *tmp, bool on) {
  static bool installed;
  sigset_t old;
  drv_block(&old);
  if (!installed) {
    installed = true;
    for (int i = 0; i < DRV_NSIGNALS; i++) {
      struct sigaction sa, cur;
      if (sigaction(drv_signals[i], NULL, &cur) == 0 && cur.sa_handler == SIG_IGN) continue; /* nohup */
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = drv_on_signal;
      sigemptyset(&sa.sa_mask);
      for (int k = 0; k < DRV_NSIGNALS; k++) sigaddset(&sa.sa_mask, drv_signals[k]);
      sigaction(drv_signals[i], &sa, NULL);
    }
  }
  for (int i = 0; i < DRV_MAX_TMPS; i++) {
    if (on && !drv_tmps[i]) {
      drv_tmps[i] = tmp;
      break;
    }
    if (!on && drv_tmps[i] == tmp) {
      drv_tmps[i] = NULL;
      break;
    }
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- loading ---- */
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
  for (int i = 0; i < out->ndeps; i++) drv_note_input(out->deps[i]);
  if (ops_resolve(g, d) || ir_verify(g, d, "after parsing")) {
    ir_graph_free(g);
    out->g = NULL;
    return false;
  }
  return true;
}

/* An unnamed temporary in path's folder (Linux O_TMPFILE): a SIGKILL cannot leave it behind.
 * It gets a name only at commit, through /proc/self/fd. -1 where either is missing. */
static int drv_open_unnamed(const char *path) {
#ifdef O_TMPFILE
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  if (!dir) return -1;
  int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666); /* the mode a plain fopen gives */
  free(dir);
  if (fd >= 0 && access("/proc/self/fd", X_OK) != 0) {
    close(fd);
    fd = -1;
  }
  return fd;
#else
  (void)path;
  return -1;
#endif
}

bool drv_out_open(OutFile *o, const char *path, Diag *d) {
  memset(o, 0, sizeof *o);
  if (strcmp(path, "-") == 0) {
    o->f = stdout;
    o->is_stdout = true;
    return true;
  }
  if (!drv_out_allowed(path, d)) return false;
  o->path = strdup(path);
  size_t n = strlen(path) + 16;
  o->tmp = malloc(n);
  if (!o->path || !o->tmp) {
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    diag_error(d, (SrcLoc){path, 0, 0}, "out of memory");
    return false;
  }
  snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
  int fd = drv_open_unnamed(path);
  o->unnamed = fd >= 0;
  if (fd < 0) {
    fd = mkstemp(o->tmp);
    if (fd < 0) {
      diag_error(d, (SrcLoc){path, 0, 0}, "cannot create output file: %s", strerror(errno));
      free(o->path);
      free(o->tmp);
      o->path = o->tmp = NULL;
      return false;
    }
    drv_tmp_register(o->tmp, true);
    mode_t mask = umask(0); /* mkstemp made it 0600: give it the mode a plain fopen would */
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
  }
  o->f = fdopen(fd, "w");
  if (!o->f) {
    close(fd);
    if (!o->unnamed) {
      unlink(o->tmp);
      drv_tmp_register(o->tmp, false);
    }
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    return false;
  }
  return true;
}

/* Copies an unnamed temporary into a named one (mkstemp), where linking it is refused. */
static bool drv_copy_unnamed(OutFile *o) {
  int in = fileno(o->f), out = mkstemp(o->tmp);
  if (out < 0) return false;
  drv_tmp_register(o->tmp, true);
  mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(out, 0666 & ~mask);
  char buf[1 << 16];
  off_t at = 0;
  for (;;) {
    ssize_t k = pread(in, buf, sizeof buf, at);
    if (k < 0 && errno == EINTR) continue;
    if (k == 0) break;
    if (k < 0 || write(out, buf, (size_t)k) != k) {
      int e = errno;
      close(out);
      unlink(o->tmp);
      drv_tmp_register(o->tmp, false);
      errno = e;
      return false;
    }
    at += k;
  }
  if (close(out) != 0) {
    unlink(o->tmp);
    drv_tmp_register(o->tmp, false);
    return false;
  }
  return true;
}

/* Gives an unnamed temporary the name o->tmp (a fresh one beside the target); false with
 * errno on failure. Registered first: a signal between this and the rename removes it. */
static bool drv_name_unnamed(OutFile *o) {
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(o->f));
  size_t n = strlen(o->tmp);
  for (unsigned k = 0; k < 1000; k++) {
    snprintf(o->tmp + n - 6, 7, "%06u", ((unsigned)getpid() * 7919u + k) % 1000000u);
    drv_tmp_register(o->tmp, true);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0) return true;
    int e = errno;
    drv_tmp_register(o->tmp, false);
    if (e != EEXIST) break;
  }
  memcpy(o->tmp + n - 6, "XXXXXX", 6);
  return drv_copy_unnamed(o);
}

bool drv_out_commit(OutFile *o, Diag *d) {
  if (o->is_stdout) return fflush(stdout) == 0;
  bool ok = fflush(o->f) == 0 && !ferror(o->f);
  bool named = !o->unnamed;
  if (ok && o->unnamed) {
    named = drv_name_unnamed(o);
    if (!named) {
      diag_error(d, (SrcLoc){o->path, 0, 0}, "cannot write output file: %s", strerror(errno));
      ok = false;
    }
  }
  bool closed = fclose(o->f) == 0;
  o->f = NULL;
  if (ok && !closed) {
    diag_error(d, (SrcLoc){o->path, 0, 0}, "error writing output file");
    ok = false;
  } else if (ok && !drv_out_allowed(o->path, d)) { /* became an input or a device meanwhile */
    ok = false;
  } else if (ok && rename(o->tmp, o->path) != 0) {
    diag_error(d, (SrcLoc){o->path, 0, 0}, "cannot write output file: %s", strerror(errno));
    ok = false;
  } else if (!ok && named) {
    diag_error(d, (SrcLoc){o->path, 0, 0}, "error writing output file");
  }
  if (!ok && named) unlink(o->tmp);
  if (named) drv_tmp_register(o->tmp, false);
  free(o->path);
  free(o->tmp);
  o->path = o->tmp = NULL;
  return ok;
}

void drv_out_abort(OutFile *o) {
  if (o->is_stdout || !o->tmp) return;
  if (o->f) fclose(o->f); /* an unnamed temporary vanishes with its descriptor */
  if (!o->unnamed) {
    unlink(o->tmp);
    drv_tmp_register(o->tmp, false);
  }
  free(o->path);
  free(o->tmp);
  memset(o, 0, sizeof *o);
}
