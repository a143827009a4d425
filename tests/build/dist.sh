#!/bin/sh
# tests/build/dist.sh — a model built the way spec 5 says a foreign build does it, from
# $BUILD/runtime-dist/ alone (docs/targets.md):
#   $CC -std=c99|c11 -O2 -I$BUILD/runtime-dist model.c $BUILD/runtime-dist/*.c main.c -lm
# for the mnist (weights >= 64 KiB through model.weights) and train_step (inputs updated in
# place, bound zero-copy) samples, with gcc and clang, -std=c99 and -std=c11, -Wall -Wextra
# -Werror, with and without -DMC_NO_THREADS; each program runs and must print what PyTorch
# computed (the sample's expected.txt). Built with -DMC_NO_THREADS, no object may refer to a
# pthread_* function or hold thread-local storage (.tbss / .tdata). Also checks that
# runtime-dist has what a model includes and no file of the CUDA runtime's C code.
# Usage (from the repository root, after `make`): MC=build/mc BUILD=build sh tests/build/dist.sh
# Called by tests/build/run.sh. SAN (as under `make asan`) is added to every compile.
set -u
ROOT=$(pwd)
: "${MC:=build/mc}" "${BUILD:=build}"
case $MC in /*) ;; *) MC=$ROOT/$MC ;; esac
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SAN=${SAN:-}
DIST=$BUILD/runtime-dist
T=$BUILD/disttest
rm -rf "$T"
mkdir -p "$T"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: dist: $*"; }

for f in mc_runtime.h mc_runtime.c dlpack/dlpack.h; do
  [ -f "$DIST/$f" ] && ok || bad "$DIST/$f missing"
done
[ -e "$DIST/mc_runtime_cuda.c" ] && bad "runtime-dist holds mc_runtime_cuda.c (its *.c must build on any target)" || ok

compilers=
for c in gcc clang; do command -v $c >/dev/null 2>&1 && compilers="$compilers $c"; done
[ -n "$compilers" ] || { echo "dist: no gcc or clang"; exit 1; }
builds=0
for s in mnist train_step; do
  d=$T/$s
  mkdir -p "$d"
  cp samples/$s/main.c samples/$s/expected.txt samples/$s/model.json "$d/"
  [ -f samples/$s/model.bin ] && cp samples/$s/model.bin "$d/"
  if ! (cd "$d" && "$MC" compile model.json -o model.c -q) >"$d/mc.log" 2>&1; then
    bad "$s: mc compile failed"; cat "$d/mc.log"; continue
  fi
  for cc in $compilers; do
    for std in c99 c11; do
      for nt in "" -DMC_NO_THREADS; do
        tag="$s $cc -std=$std${nt:+ $nt}"
        o=$d/obj-$cc-$std${nt:+-nt}
        mkdir -p "$o"
        # gcc -std=c99: the one command line of spec 5; the others compile each file to an
        # object (the same flags), so the objects can be inspected
        # shellcheck disable=SC2086
        if [ "$cc$std$nt" = gccc99 ]; then
          (cd "$d" && $cc -std=$std -O2 -Wall -Wextra -Werror $nt $SAN -I"$DIST" model.c "$DIST"/*.c main.c -lm \
            -o prog) >"$d/build.log" 2>&1
        else
          (cd "$d" && for f in model.c "$DIST"/*.c main.c; do
             $cc -std=$std -O2 -Wall -Wextra -Werror $nt $SAN -I"$DIST" -c "$f" -o "$o/$(basename "$f" .c).o" || exit 1
           done && $cc $SAN "$o"/*.o -lm -o prog) >"$d/build.log" 2>&1
        fi
        if [ $? -ne 0 ]; then
          bad "$tag: build failed:"; head -20 "$d/build.log"; continue
        fi
        builds=$((builds + 1))
        if (cd "$d" && ./prog >out.txt 2>err.txt && awk -f "$ROOT/samples/common/compare.awk" expected.txt out.txt >cmp.txt); then
          ok
        else
          bad "$tag: wrong output: $(cat "$d/cmp.txt" "$d/err.txt" 2>/dev/null | head -3)"
        fi
        [ -n "$nt" ] && [ -n "$(ls "$o")" ] || continue
        # no threads, no thread-local storage
        pt=$(nm -u "$o"/*.o | grep -E 'pthread_|__tls_get_addr|__aeabi_read_tp' | sort -u | tr '\n' ' ')
        tls=$(for f in "$o"/*.o; do readelf -SW "$f" | grep -qE '\.tbss|\.tdata' && basename "$f"; done | tr '\n' ' ')
        [ -z "$pt$tls" ] && ok || bad "$tag: threads or TLS left: ${pt}${tls}"
      done
    done
  done
done
echo "dist: $builds programs built from $DIST alone ($(echo $compilers), c99/c11, with/without -DMC_NO_THREADS); $pass passed, $fail failed"
[ "$fail" -eq 0 ]
