#!/bin/sh
# threads.sh — the thread pool under changing thread counts in one process (threads_stress.c),
# built with clang ASan+UBSan for this machine's vector units, on models the e2e run compiled:
# threads_conv (GEMMs split both ways) and json_mobilenet_v2 (depthwise, pools, elementwise and
# GEMM jobs back to back). Then thread_exit.c under valgrind on conv_prepack_2d: threads that
# ran a model and exited leave nothing "definitely lost" (the kernels' per-thread scratch is
# freed at thread exit). From tests/run_e2e.sh after run_e2e.py; BUILD as there.
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

if ! command -v valgrind >/dev/null 2>&1; then
  echo "skip threads: thread exit under valgrind: no valgrind"
  exit 0
fi
d="$BUILD/e2e/conv_prepack_2d"
[ -f "$d/model.c" ] || { echo "threads: $d/model.c missing (run run_e2e.py first)"; exit 1; }
cc -std=c11 -Wall -Wextra -Werror -O1 -g -I"$d" -Wa,-I"$d" -Iruntime "$d/model.c" tests/runtime/thread_exit.c \
  runtime/mc_runtime.c runtime/mc_core.c -lm -lpthread -o "$d/thread_exit"
out=$(timeout 300 valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
  "$d/thread_exit" "$d/in_0.bin" 2>&1) || { echo "$out"; echo "FAIL threads: thread exit under valgrind"; exit 1; }
echo "ok   threads: conv_prepack_2d: $(echo "$out" | grep "threads ran"), nothing definitely lost (valgrind)"
