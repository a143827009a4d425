/* file.h — reading input files that nobody vouches for (models, weights, .npy inputs).
 *
 * A model file is untrusted input. file_read only reads a regular file, learns its size with
 * fstat before reading a byte, refuses one larger than the input limit or of another size than
 * the caller expects, and never blocks: the file is opened with O_NONBLOCK, so a FIFO, a
 * terminal or a device is refused instead of read forever. The limit is on all the files a
 * command reads together (file_limit_set, `--max-input-bytes`); until it is set, each file on
 * its own may have up to FILE_DEFAULT_MAX_INPUT bytes. A model's text (file_read_text) may have
 * at most FILE_MAX_MODEL_TEXT bytes besides: it is parsed into trees several times its size.
 *
 * file_same(a, b) tells whether two paths name one file (st_dev/st_ino, through symlinks and
 * hard links): the driver never writes an output over an input.
 *
 * Ownership: file_read's data comes from the arena, or from malloc (the caller frees) when the
 * arena is NULL. Prefix: file_.
 */
#ifndef MC_FILE_H
#define MC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

#define FILE_DEFAULT_MAX_INPUT ((uint64_t)2 << 30)
#define FILE_MAX_MODEL_TEXT ((uint64_t)256 << 20) /* a JSON or TorchScript text file (weights apart) */
#define FILE_ANY_SIZE UINT64_MAX

typedef struct FileRead {
  unsigned char *data; /* the bytes and a NUL after them */
  size_t len;
  uint64_t size;       /* the file's size, also when it was refused for its size */
  bool wrong_size;     /* refused: not the size the caller expected */
  char why[200];       /* on failure: what went wrong ("not a regular file (a FIFO)", ...) */
} FileRead;

/* Reads the regular file at path whole. expect: the size it must have, or FILE_ANY_SIZE.
 * Returns false with r->why set (and errno) on any failure; nothing is allocated then. */
bool file_read(Arena *a, const char *path, uint64_t expect, FileRead *r);

/* file_read of a model's text: at most FILE_MAX_MODEL_TEXT bytes, any size below. */
bool file_read_text(Arena *a, const char *path, FileRead *r);

/* Sets the total number of bytes later file_read calls may read together (0: back to the
 * default, FILE_DEFAULT_MAX_INPUT per file), and returns what was left of the previous one. */
void file_limit_set(uint64_t total);
uint64_t file_limit(void); /* the bytes a file_read may still read */

/* Whether a and b exist and are the same file (stat, following symlinks). */
bool file_same(const char *a, const char *b);

/* A 64-bit FNV-style hash (eight bytes a step; chunks must be multiples of 8 but the last) of the file's bytes folded into *h (files already read, so unbounded
 * reading is not a concern: it stops at FILE_DEFAULT_MAX_INPUT). False when it cannot be read. */
bool file_hash(const char *path, uint64_t *h);
void file_hash_bytes(uint64_t *h, const void *p, size_t n);
#define FILE_HASH_INIT 0xcbf29ce484222325ull

#endif
