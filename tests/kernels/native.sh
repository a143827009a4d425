#!/bin/sh
# native.sh — kernel checks that need the explicit-vector paths, which the compiler's own build
# (no -march flags) never takes: tests/kernels/epilogue.c built with gcc and clang for this
# machine (-march=native) and for AVX2+FMA. From tests/run_e2e.sh; BUILD as there.
set -eu
BUILD=${BUILD:-build}
OUT="$BUILD/native"
mkdir -p "$OUT"
for cc in gcc clang; do
  command -v $cc >/dev/null 2>&1 || { echo "skip native: no $cc"; continue; }
  for arch in "-march=native" "-mavx2 -mfma"; do
    # shellcheck disable=SC2086
    $cc -std=c11 -Wall -Wextra -Werror -Wno-unused-function -O2 $arch -D_GNU_SOURCE -Icompiler \
      tests/kernels/epilogue.c -lm -lpthread -o "$OUT/epilogue"
    out=$("$OUT/epilogue") || { echo "$out"; echo "FAIL native: epilogue ($cc $arch)"; exit 1; }
    echo "ok   native: $cc $arch: $out"
  done
done
