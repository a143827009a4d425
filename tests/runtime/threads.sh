#!/bin/sh
# threads.sh — the thread pool under changing thread counts in one process (threads_stress.c),
# built with clang ASan+UBSan for this machine's vector units, on models the e2e run compiled:
# threads_conv (GEMMs split both ways) and json_mobilenet_v2 (depthwise, pools, elementwise and
# GEMM jobs back to back). From tests/run_e2e.sh after run_e2e.py; BUILD as there.
set -eu
BUILD=${BUILD:-build}
CC_SAN="clang -std=c11 -Wall -Wextra -Werror -O1 -g -march=native -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
command -v clang >/dev/null 2>&1 || { echo "skip threads: no clang"; exit 0; }
for c in threads_conv:40 json_mobilenet_v2:12; do
  name=${c%%:*} runs=${c##*:}
  d="$BUILD/e2e/$name"
  [ -f "$d/model.c" ] || { echo "threads: $d/model.c missing (run run_e2e.py first)"; exit 1; }
  # shellcheck disable=SC2086
  $CC_SAN -I"$d" -Wa,-I"$d" -Iruntime "$d/model.c" tests/runtime/threads_stress.c runtime/mc_runtime.c runtime/mc_core.c \
    -lm -lpthread -o "$d/threads_stress"
  out=$(timeout 300 "$d/threads_stress" "$d/in_0.bin" "$runs" 2>&1) || { echo "$out"; echo "FAIL threads: $name"; exit 1; }
  echo "ok   threads: $name: $out"
done
