#!/bin/sh
# tests/build/run.sh — mc as a step in other people's builds (docs/build.md). Run from the
# repository root after `make`; `make check` runs it through tests/run_e2e.sh.
#  1. determinism: every corpus model that compiles, and the samples' exported JSON models, are
#     compiled twice — different folders, working directories, path spellings, TZ and locale —
#     and model.c / model.h / model.weights must match byte for byte;
#  2. depfiles and outputs: the depfile names the C file and every file read (JSON, weights),
#     escapes spaces; a rejected model leaves no file at all; `-o -` writes to stdout only;
#  3. samples (copied out of the tree): each builds and prints what PyTorch computed; a second
#     `make` has nothing to do; touching model.json (or model.bin) rebuilds;
#     resnet18 (PyTorch export, 46 MB of weights) too, unless MC_SKIP_SLOW=1 or under SAN;
#     alone: `make sample-resnet18`;
#  4. `make install PREFIX=tmp`: a program builds against the installed tree with pkg-config
#     only, a CMake project with find_package(mc) + mc_add_model configures, builds, passes its
#     test and is up to date on the second build; a program builds with -std=c99 from the
#     installed share/mc/runtime-dist alone; `make uninstall` leaves no file behind;
#  5. tests/build/dist.sh: models built from $BUILD/runtime-dist alone (spec 5's command line),
#     gcc and clang, C99 and C11, with and without -DMC_NO_THREADS.
# Under `make asan` (SAN set) every program is built with $SAN, as libmcrt.a was.
set -u
ROOT=$(pwd)
: "${MC:=build/mc}" "${BUILD:=build}" "${CC:=cc}"
case $MC in /*) ;; *) MC=$ROOT/$MC ;; esac
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
T=$BUILD/buildtest
rm -rf "$T"
mkdir -p "$T/bin"
# a private copy of mc: the samples depend on the compiler's file, which a concurrent `make` may relink
cp "$MC" "$T/bin/mc"
MC=$T/bin/mc
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
SAMPLES="train_step slice_assign dce_effects dlpack_handoff mnist"
SAN=${SAN:-}
SCFLAGS="-std=c11 -O1 -Wall -Wextra -Werror $SAN"
export CFLAGS="$SCFLAGS" # the samples' Makefiles take it

# ---- 1. determinism -------------------------------------------------------------------------
# det MODEL [WEIGHTS] [MC OPTIONS...]: compile MODEL (copied with its weights file) in two places.
det() {
  model=$1
  shift
  wfile=
  if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then wfile=$1; shift; fi
  n=$((n + 1))
  a=$T/det/$n/a
  b=$T/det/$n/elsewhere/deeper
  mkdir -p "$a/out" "$b/o"
  ext=${model##*.}
  cp "$model" "$a/m.$ext"
  cp "$model" "$b/m.$ext"
  if [ -n "$wfile" ]; then cp "$wfile" "$a/"; cp "$wfile" "$b/"; fi
  (cd "$a" && TZ=UTC LC_ALL=C "$MC" compile "m.$ext" -o out/model.c -q "$@") >/dev/null 2>&1 || return 0
  if ! (cd "$T" && TZ=Asia/Tokyo LC_ALL=C.UTF-8 "$MC" compile "$b/./m.$ext" -o "$b/o/model.c" -q "$@") >/dev/null 2>&1; then
    bad "determinism: $model compiles in one folder but not in another"
    return 0
  fi
  compiled=$((compiled + 1))
  for f in model.c model.h model.weights; do
    if [ -e "$a/out/$f" ] || [ -e "$b/o/$f" ]; then
      if cmp -s "$a/out/$f" "$b/o/$f"; then ok; else bad "determinism: $model: $f differs ($(cmp "$a/out/$f" "$b/o/$f" 2>&1 | head -1))"; fi
      [ "$f" = model.weights ] && weights=$((weights + 1))
    fi
  done
}
n=0
compiled=0
weights=0
for f in tests/corpus/*.txt; do det "$f"; done
corpus=$compiled
for s in train_step slice_assign dce_effects mnist; do det "samples/$s/model.json" $([ -e "samples/$s/model.bin" ] && echo "samples/$s/model.bin"); done
det samples/dlpack_handoff/encoder.json
det samples/dlpack_handoff/head.json
det samples/train_step/model.json --weights blob
det samples/mnist/model.json samples/mnist/model.bin --weights inline
[ "$compiled" -ge $((corpus + 8)) ] || bad "determinism: a sample's JSON model did not compile"
[ "$weights" -ge 2 ] || bad "determinism: no model.weights was compared"
echo "determinism: $compiled models compiled twice ($corpus from tests/corpus), $weights weights files"

# ---- 2. depfiles and outputs ----------------------------------------------------------------
D="$T/dep/in dir"
mkdir -p "$D" "$T/dep/out"
cp samples/mnist/model.json samples/mnist/model.bin "$D/"
if "$MC" compile "$D/model.json" -o "$T/dep/out/model.c" -MD -q; then
  want="$T/dep/out/model.c: $(echo "$D" | sed 's/ /\\ /g')/model.json $(echo "$D" | sed 's/ /\\ /g')/model.bin"
  if [ "$(cat "$T/dep/out/model.d")" = "$want" ]; then ok; else bad "depfile: got '$(cat "$T/dep/out/model.d")', want '$want'"; fi
  [ -s "$T/dep/out/model.weights" ] && ok || bad "depfile: mnist wrote no model.weights"
else
  bad "depfile: mnist model did not compile"
fi
(cd "$D" && "$MC" compile model.json -o ../out/m2.c -MF ../custom.dep -q) &&
  [ "$(cat "$T/dep/custom.dep")" = "../out/m2.c: model.json model.bin" ] && [ ! -e "$T/dep/out/m2.d" ] && ok ||
  bad "depfile: -MF FILE: got '$(cat "$T/dep/custom.dep" 2>/dev/null)'"
(cd samples/seed_slice && "$MC" compile model.txt -o "$T/dep/out/s.c" -MD -q) &&
  [ "$(cat "$T/dep/out/s.d")" = "$T/dep/out/s.c: model.txt" ] && ok || bad "depfile: text dump: '$(cat "$T/dep/out/s.d" 2>/dev/null)'"
mkdir -p "$T/dep/rej"
if "$MC" compile tests/json/syntax.json -o "$T/dep/rej/model.c" -MD 2>/dev/null; then
  bad "a rejected model exited 0"
elif [ -n "$(ls -A "$T/dep/rej")" ]; then
  bad "a rejected model left files behind: $(ls -A "$T/dep/rej")"
else ok; fi
mkdir -p "$T/dep/stdout"
(cd "$T/dep/stdout" && "$MC" compile "$ROOT/samples/seed_slice/model.txt" -o - -q >../stdout1.c &&
  "$MC" compile ../../../../samples/seed_slice/model.txt -o - -q -MF ../stdout.d >../stdout2.c) &&
  [ -z "$(ls -A "$T/dep/stdout")" ] && grep -q '^/\* Generated by mc from model.txt' "$T/dep/stdout1.c" &&
  cmp -s "$T/dep/stdout1.c" "$T/dep/stdout2.c" && ok ||
  bad "-o -: stdout output is wrong, not deterministic, or files were written"

# ---- 3. samples -----------------------------------------------------------------------------
mkdir -p "$T/samples"
cp -r samples/common "$T/samples/"
for s in $SAMPLES; do
  cp -r "samples/$s" "$T/samples/$s"
  rm -rf "$T/samples/$s/build"
  m="make -s -C $T/samples/$s MC=$MC CC=$CC"
  if ! $m MCRT_CFLAGS="-I$ROOT/runtime" MCRT_LIBS="$BUILD/libmcrt.a -lm" test >"$T/samples/$s.log" 2>&1; then
    bad "sample $s: make test failed:"; tail -5 "$T/samples/$s.log"; continue
  fi
  ok
  $m MCRT_CFLAGS="-I$ROOT/runtime" MCRT_LIBS="$BUILD/libmcrt.a -lm" -q build/$s && ok || bad "sample $s: a second make would rebuild"
  for f in model.json model.bin encoder.json; do
    [ -e "$T/samples/$s/$f" ] || continue
    sleep 1 # mtime granularity of some file systems
    touch "$T/samples/$s/$f"
    if $m MCRT_CFLAGS="-I$ROOT/runtime" MCRT_LIBS="$BUILD/libmcrt.a -lm" -q build/$s; then bad "sample $s: touching $f does not rebuild"; continue; fi
    $m MCRT_CFLAGS="-I$ROOT/runtime" MCRT_LIBS="$BUILD/libmcrt.a -lm" -n build/$s | grep -q " compile " && ok || bad "sample $s: touching $f does not rerun mc"
    $m MCRT_CFLAGS="-I$ROOT/runtime" MCRT_LIBS="$BUILD/libmcrt.a -lm" all >/dev/null 2>&1 &&
      $m MCRT_CFLAGS="-I$ROOT/runtime" MCRT_LIBS="$BUILD/libmcrt.a -lm" -q build/$s && ok || bad "sample $s: not up to date after the rebuild"
  done
done
# resnet18 (about 10 s: PyTorch export, 46 MB of weights): built in place with OUT in $T, then
# its big files go. MC_SKIP_SLOW=1 skips it.
if [ -z "${MC_SKIP_SLOW:-}" ] && [ -z "$SAN" ]; then
  R=$T/samples/resnet18-out
  if make -s -C samples/resnet18 OUT="$R" MC="$MC" PYTHON="${PYTHON:-/usr/bin/python3}" MCRT_CFLAGS="-I$ROOT/runtime" \
       MCRT_LIBS="$BUILD/libmcrt.a -lm" test >"$T/samples/resnet18.log" 2>&1; then
    ok
    SAMPLES="$SAMPLES resnet18($(head -1 "$R/out.txt"))"
  else
    bad "sample resnet18:"; tail -5 "$T/samples/resnet18.log"
  fi
  rm -f "$R/model.bin" "$R/model.weights" "$R/model.c" "$R/resnet18"
fi
echo "samples: $SAMPLES"

# ---- 4. install, pkg-config, CMake, uninstall -----------------------------------------------
P=$T/prefix
if ! make -s BUILD="$BUILD" CC="$CC" SAN="$SAN" PREFIX="$P" install >"$T/install.log" 2>&1; then
  bad "make install failed:"; tail -5 "$T/install.log"
else
  for f in bin/mc lib/libmcrt.a include/mc/mc_runtime.h include/mc/dlpack/dlpack.h lib/pkgconfig/mcrt.pc \
           lib/cmake/mc/mcConfig.cmake lib/cmake/mc/mcConfigVersion.cmake share/mc/python/mc_export.py \
           share/man/man1/mc.1 share/mc/runtime-dist/mc_runtime.h share/mc/runtime-dist/mc_runtime.c \
           share/mc/runtime-dist/mc_core.c share/mc/runtime-dist/dlpack/dlpack.h; do
    [ -f "$P/$f" ] && ok || bad "install: $f missing"
  done
  # a program from the installed runtime sources only (the cross-build recipe of docs/targets.md)
  mkdir -p "$T/rd"
  cp samples/slice_assign/model.json samples/slice_assign/main.c samples/slice_assign/expected.txt "$T/rd/"
  R=$P/share/mc/runtime-dist
  if (cd "$T/rd" && "$P/bin/mc" compile model.json -o model.c &&
      $CC -std=c99 -O1 -Wall -Wextra -Werror $SAN -I"$R" model.c "$R"/*.c main.c -lm -o prog &&
      ./prog >out.txt && awk -f "$ROOT/samples/common/compare.awk" expected.txt out.txt) >"$T/rd.log" 2>&1; then
    ok
  else
    bad "build from the installed share/mc/runtime-dist:"; tail -5 "$T/rd.log"
  fi
  # a program against the installed tree only: pkg-config, the installed mc, no repository path
  mkdir -p "$T/pc"
  cp samples/slice_assign/model.json samples/slice_assign/main.c samples/slice_assign/expected.txt "$T/pc/"
  if (cd "$T/pc" && export PKG_CONFIG_PATH="$P/lib/pkgconfig" &&
      "$(pkg-config --variable=mc mcrt)" compile model.json -o model.c &&
      $CC $SCFLAGS $(pkg-config --cflags mcrt) main.c model.c $(pkg-config --libs mcrt) -o prog &&
      ./prog >out.txt && awk -f "$ROOT/samples/common/compare.awk" expected.txt out.txt) >"$T/pc.log" 2>&1; then
    ok
  else
    bad "pkg-config build against the installed tree:"; tail -5 "$T/pc.log"
  fi
  # CMake: the mnist sample (its weights go through model.weights and -Wa,-I) with find_package(mc)
  if command -v cmake >/dev/null 2>&1; then
    gen=
    command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
    C=$T/cmake
    cp -r "$T/samples/mnist" "$C.src" && rm -rf "$C.src/build"
    cp -r samples/common "$T/"
    if cmake -S "$C.src" -B "$C" $gen -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN" >"$T/cmake.log" 2>&1 &&
       cmake --build "$C" >>"$T/cmake.log" 2>&1 && ctest --test-dir "$C" >>"$T/cmake.log" 2>&1; then
      ok
      cmake --build "$C" >"$T/cmake2.log" 2>&1
      grep -q "mc: compiling\|Building C" "$T/cmake2.log" && bad "cmake: a second build rebuilds" || ok
      sleep 1
      touch "$C.src/model.bin"
      cmake --build "$C" >"$T/cmake3.log" 2>&1 && grep -q "mc: compiling" "$T/cmake3.log" && ok ||
        bad "cmake: touching model.bin did not rerun mc"
      ctest --test-dir "$C" >/dev/null 2>&1 && ok || bad "cmake: ctest after the rebuild"
    else
      bad "cmake project with find_package(mc):"; tail -8 "$T/cmake.log"
    fi
    # the same project cross-compiled with a toolchain file: mc::mcrt is built from the installed
    # runtime-dist by the cross compiler, the program runs under qemu-user
    if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && command -v qemu-aarch64 >/dev/null 2>&1 && [ -z "$SAN" ]; then
      X=$T/cmake-aarch64
      printf 'set(CMAKE_SYSTEM_NAME Linux)\nset(CMAKE_SYSTEM_PROCESSOR aarch64)\nset(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)\nset(CMAKE_EXE_LINKER_FLAGS_INIT -static)\nset(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)\n' >"$T/aarch64.cmake"
      if cmake -S "$C.src" -B "$X" $gen -DCMAKE_TOOLCHAIN_FILE="$T/aarch64.cmake" -DCMAKE_PREFIX_PATH="$P" >"$T/cmx.log" 2>&1 &&
         cmake --build "$X" >>"$T/cmx.log" 2>&1 &&
         (cd "$X" && qemu-aarch64 ./mnist >out.txt && awk -f "$ROOT/samples/common/compare.awk" "$C.src/expected.txt" out.txt) >>"$T/cmx.log" 2>&1; then
        ok
      else
        bad "cmake with an aarch64 toolchain file:"; tail -8 "$T/cmx.log"
      fi
    fi
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(v C)\nfind_package(mc 9.0 REQUIRED)\n' >"$T/cmv.txt"
    mkdir -p "$T/cmv" && mv "$T/cmv.txt" "$T/cmv/CMakeLists.txt"
    cmake -S "$T/cmv" -B "$T/cmv/b" -DCMAKE_PREFIX_PATH="$P" >/dev/null 2>&1 && bad "cmake: find_package(mc 9.0) accepted 0.x" || ok
  else
    echo "cmake not found: CMake checks skipped"
  fi
  make -s BUILD="$BUILD" PREFIX="$P" uninstall >/dev/null 2>&1 || bad "make uninstall failed"
  left=$(find "$P" -type f -o -type l)
  [ -z "$left" ] && ok || bad "make uninstall left: $left"
fi

# ---- 5. runtime-dist ------------------------------------------------------------------------
if MC="$MC" BUILD="$BUILD" SAN="$SAN" sh tests/build/dist.sh; then ok; else bad "tests/build/dist.sh"; fi

echo "build tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
