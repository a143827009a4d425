#!/bin/sh
# neon.sh — the Arm NEON kernels bitwise against their scalar reference (tests/cross/neon.c),
# under qemu-user: aarch64 and Armv7 (-mfpu=neon) with gcc, and clang where it can target them
# (-ffp-contract=off: the reference's a * b + c must not be fused), then the portable path of
# both (-DMC_NO_SIMD) and of this machine, whose GEMM / depthwise hash must equal Armv7 NEON's
# (no fused multiply-add on either). A missing cross compiler or qemu is a skip;
# MC_CROSS_REQUIRE=1 makes it a failure. BUILD as in tests/run_e2e.sh.
set -eu
BUILD=${BUILD:-build}
OUT="$BUILD/cross/neon"
mkdir -p "$OUT"
SRC=tests/cross/neon.c
FLAGS="-std=c11 -Wall -Wextra -Werror -Wno-unused-function -O2 -D_GNU_SOURCE -Icompiler"
fail=0
hashes=""
# name, runner, compiler and flags
run1() {
  name=$1 runner=$2
  shift 2
  if ! command -v "$1" >/dev/null 2>&1 || { [ -n "$runner" ] && ! command -v "$runner" >/dev/null 2>&1; }; then
    if [ "${MC_CROSS_REQUIRE:-0}" = 1 ]; then echo "FAIL neon $name: $1 or $runner missing"; fail=1
    else echo "skip neon $name: $1 or $runner missing"; fi
    return 0
  fi
  # shellcheck disable=SC2086
  if ! "$@" $FLAGS $SRC -lm -o "$OUT/$name" 2>"$OUT/$name.log"; then
    if [ "$1" = clang ]; then echo "skip neon $name: clang cannot link for it"; return 0; fi
    cat "$OUT/$name.log"; echo "FAIL neon $name: build"; fail=1; return 0
  fi
  if out=$($runner "$OUT/$name"); then
    echo "ok   neon $name: $out"
    case $name in a64-neon*) ;; *) hashes="$hashes ${out##*hash }" ;; esac
  else
    echo "$out"; echo "FAIL neon $name"; fail=1
  fi
}
run1 a64-neon qemu-aarch64 aarch64-linux-gnu-gcc -static
run1 a64-neon-clang qemu-aarch64 clang --target=aarch64-linux-gnu -ffp-contract=off -static
run1 a32-neon qemu-arm arm-linux-gnueabihf-gcc -mfpu=neon -static
run1 a32-neon-clang qemu-arm clang --target=arm-linux-gnueabihf -march=armv7-a -mfpu=neon -mfloat-abi=hard -ffp-contract=off -static
run1 a64-portable qemu-aarch64 aarch64-linux-gnu-gcc -DMC_NO_SIMD -static
run1 a32-portable qemu-arm arm-linux-gnueabihf-gcc -mfpu=neon -DMC_NO_SIMD -static
run1 host-portable "" cc
n=$(echo "$hashes" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l)
if [ "$n" -gt 1 ]; then echo "FAIL neon: unfused builds differ:$hashes"; fail=1
else echo "ok   neon: unfused builds (Armv7 NEON, portable) give one GEMM / depthwise hash"; fi
exit $fail
