#!/bin/sh
# asan.sh — builds tests/check_runtime.c and runtime/mc_runtime.c with AddressSanitizer + UBSan
# (and LeakSanitizer) into $OUT (default /tmp/mcrt-asan) and runs the binary twice: with Check's
# forks, and with CK_FORK=no so that one process sees every leak, double free (a DLPack deleter
# called twice) and use after free (an output outliving its model or inputs).
# Usage: sh tests/runtime/asan.sh   (from the repository root)
set -eu
CC=${CC:-clang}
OUT=${OUT:-/tmp/mcrt-asan}
mkdir -p "$OUT"
FLAGS="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g -fno-omit-frame-pointer \
  -fsanitize=address,undefined -fno-sanitize-recover=all -Iruntime"
# shellcheck disable=SC2046,SC2086
$CC $FLAGS $(pkg-config --cflags check) tests/check_runtime.c runtime/mc_runtime.c \
  $(pkg-config --libs check) -o "$OUT/check_runtime"
"$OUT/check_runtime"
CK_FORK=no "$OUT/check_runtime"
echo "asan: check_runtime clean"
