/* file.c — bounded reading of regular files (see file.h). Invariant: no byte is read before
 * the file is known to be a regular file of an acceptable size, and nothing blocks. */
#include "ir/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool limit_on;      /* file_limit_set was called with a total */
static uint64_t limit_left; /* what later reads may still read together */

void file_limit_set(uint64_t total) {
  limit_on = total != 0;
  limit_left = total;
}

uint64_t file_limit(void) { return limit_on ? limit_left : FILE_DEFAULT_MAX_INPUT; }

static const char *file_kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a plain file";
}

/* Opens path for reading without blocking and checks it is a regular file; -1 with r->why. */
static int file_open(const char *path, struct stat *st, FileRead *r) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    snprintf(r->why, sizeof r->why, "%s", strerror(e));
    errno = e;
    return -1;
  }
  if (fstat(fd, st) != 0) {
    int e = errno;
    snprintf(r->why, sizeof r->why, "%s", strerror(e));
    close(fd);
    errno = e;
    return -1;
  }
  if (!S_ISREG(st->st_mode)) {
    snprintf(r->why, sizeof r->why, "not a regular file (%s)", file_kind(st->st_mode));
    close(fd);
    errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
    return -1;
  }
  /* back to blocking reads: a regular file never blocks, and some kernels return EAGAIN on
   * O_NONBLOCK regular files of network file systems */
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

static bool file_read_max(Arena *a, const char *path, uint64_t expect, uint64_t max, FileRead *r);

bool file_read(Arena *a, const char *path, uint64_t expect, FileRead *r) {
  return file_read_max(a, path, expect, UINT64_MAX, r);
}

bool file_read_text(Arena *a, const char *path, FileRead *r) {
  return file_read_max(a, path, FILE_ANY_SIZE, FILE_MAX_MODEL_TEXT, r);
}

static bool file_read_max(Arena *a, const char *path, uint64_t expect, uint64_t max, FileRead *r) {
  memset(r, 0, sizeof *r);
  struct stat st;
  int fd = file_open(path, &st, r);
  if (fd < 0) return false;
  uint64_t size = st.st_size < 0 ? 0 : (uint64_t)st.st_size;
  r->size = size;
  uint64_t limit = file_limit();
  if (expect != FILE_ANY_SIZE && size != expect) {
    snprintf(r->why, sizeof r->why, "the file has %llu bytes, %llu were expected", (unsigned long long)size,
             (unsigned long long)expect);
    r->wrong_size = true;
    close(fd);
    errno = EINVAL;
    return false;
  }
  if (size > max) {
    snprintf(r->why, sizeof r->why, "the file has %llu bytes, more than a model file may have (%llu MiB)",
             (unsigned long long)size, (unsigned long long)(max >> 20));
    close(fd);
    errno = EFBIG;
    return false;
  }
  if (size > limit || size >= SIZE_MAX) {
    snprintf(r->why, sizeof r->why,
             "the file has %llu bytes, more than the input limit allows (%llu bytes left; --max-input-bytes)",
             (unsigned long long)size, (unsigned long long)limit);
    close(fd);
    errno = EFBIG;
    return false;
  }
  size_t n = (size_t)size;
  unsigned char *buf = a ? arena_alloc(a, n + 1) : malloc(n + 1);
  if (!buf) {
    snprintf(r->why, sizeof r->why, "out of memory (%zu bytes)", n + 1);
    close(fd);
    errno = ENOMEM;
    return false;
  }
  size_t got = 0;
  while (got < n) {
    ssize_t k = read(fd, buf + got, n - got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += (size_t)k;
  }
  unsigned char extra;
  ssize_t more = got == n ? read(fd, &extra, 1) : 0;
  int e = errno;
  close(fd);
  if (got != n || more != 0) {
    snprintf(r->why, sizeof r->why, "%s", got != n && more < 0 ? strerror(e) : "the file changed while being read");
    if (!a) free(buf);
    errno = EIO;
    return false;
  }
  buf[n] = 0;
  if (limit_on) limit_left -= size;
  r->data = buf;
  r->len = n;
  return true;
}

bool file_same(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void file_hash_bytes(uint64_t *h, const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t x = *h;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) { /* eight bytes a step: weights of 100 MB hash in tens of ms */
    uint64_t w;
    memcpy(&w, s + i, 8);
    x = (x ^ w) * 0x100000001b3ull;
    x ^= x >> 29;
  }
  for (; i < n; i++) x = (x ^ s[i]) * 0x100000001b3ull;
  *h = x;
}

bool file_hash(const char *path, uint64_t *h) {
  FileRead r;
  struct stat st;
  int fd = file_open(path, &st, &r);
  if (fd < 0) return false;
  unsigned char buf[1 << 16];
  uint64_t total = 0;
  for (;;) {
    ssize_t k = read(fd, buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      close(fd);
      return false;
    }
    if (k == 0 || total >= FILE_DEFAULT_MAX_INPUT) break;
    file_hash_bytes(h, buf, (size_t)k);
    total += (uint64_t)k;
  }
  close(fd);
  return true;
}
