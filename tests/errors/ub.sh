#!/bin/sh
# ub.sh — extreme but legal values (tests/errors/ub_cases.py) that `mc compile` accepts: each
# model is compiled, built with clang -fsanitize=address,undefined -fno-sanitize-recover=all
# (gcc when clang is missing) together with tests/e2e/harness.c and the runtime, and run once
# in copy mode. Any sanitizer report, crash or run that fails other than with the model's own
# error is a failure: the generated code must be free of undefined behaviour for every model mc
# accepts. (The refused extremes are golden
# files beside this script, checked by run.sh.)
# Usage: sh tests/errors/ub.sh   (from the repository root; MC, BUILD as in run_e2e.sh)
set -u
MC=${MC:-build/mc}
BUILD=${BUILD:-build}
PY=${PYTHON:-/usr/bin/python3}
OUT="$BUILD/ub"
rm -rf "$OUT"
mkdir -p "$OUT"
CC_UB=clang
command -v clang >/dev/null 2>&1 || CC_UB=cc
"$PY" tests/errors/ub_cases.py "$OUT" >/dev/null || exit 1
pass=0
fail=0
while read -r name ins; do
  d="$OUT/$name"
  why=""
  if ! "$MC" compile "$d/model.txt" -o "$d/model.c" --name model 2>"$d/mc.log"; then
    why="mc compile failed: $(head -3 "$d/mc.log" | tr '\n' ' ')"
  elif ! "$CC_UB" -std=c11 -Wall -Wextra -Werror -O1 -g -fno-omit-frame-pointer \
      -fsanitize=address,undefined -fno-sanitize-recover=all -I"$d" -Wa,-I"$d" -Iruntime \
      "$d/model.c" tests/e2e/harness.c runtime/mc_runtime.c runtime/mc_core.c -lm -lpthread \
      -o "$d/harness" 2>"$d/cc.log"; then
    why="build failed: $(head -3 "$d/cc.log" | tr '\n' ' ')"
  else
    mkdir -p "$d/run"
    # shellcheck disable=SC2086
    # A run may also stop cleanly with the model's own error (aten::Int of NaN): that is
    # defined behaviour. Leaks are not checked here (the harness exits early on such an error;
    # tests/runtime/sanitizers.sh checks the runtime's).
    if ! ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 timeout 60 \
        "$d/harness" copy "$d/run" $ins >"$d/run.log" 2>&1; then
      if ! grep -q '^harness: run: mc_run' "$d/run.log" || grep -qE 'runtime error|Sanitizer' "$d/run.log"; then
        why="run failed: $(grep -m2 -E 'runtime error|ERROR|error' "$d/run.log" | tr '\n' ' ')"
      fi
    fi
  fi
  if [ -n "$why" ]; then
    echo "FAIL ub $name: $why"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done <"$OUT/cases.txt"
echo "ub: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
