#!/bin/sh
# tests/cuda/run.sh — checks of the CUDA target (docs/cuda.md), run by tests/run_e2e.sh.
#  1. Diagnostics, no CUDA needed: an op without a CUDA implementation, control flow and an
#     unsupported dtype are refused at their node (golden first line in errors/NAME.expect),
#     exit 1, no output file left.
#  2. Determinism: the same model compiles to byte-identical .cu twice.
#  3. Where nvcc is (CUDA_HOME, default /usr/local/cuda): build/libmcrt_cuda.a, then every test
#     model (tests/cuda/export.py: MLPs, LeNet-5, a small convnet, a GPT block, resnet18,
#     mobilenet_v2) is compiled with mc --target cuda and nvcc for sm_80 and sm_90 with every
#     warning an error, and linked with the harness (tests/cuda/harness.c), libmcrt_cuda.a and
#     cuBLAS. The harness then runs: on a machine with a GPU it checks the model against
#     PyTorch's CPU results; without one it must report that cleanly (exit 77, no abort).
# Without nvcc (or under sanitizers) part 3 is skipped with a line saying so.
set -e
: "${MC:=build/mc}" "${BUILD:=build}" "${PYTHON:=/usr/bin/python3}" "${CUDA_HOME:=/usr/local/cuda}"
NVCC="${NVCC:-$CUDA_HOME/bin/nvcc}"
ROOT=$(pwd)
MCABS=$(cd "$(dirname "$MC")" && pwd)/$(basename "$MC")
OUT="$ROOT/$BUILD/cuda"
mkdir -p "$OUT"
fail=0

for f in tests/cuda/errors/*.txt; do
  name=$(basename "$f" .txt)
  rm -f "$OUT/err.cu" "$OUT/err.h"
  rc=0
  (cd tests/cuda/errors && "$MCABS" compile "$name.txt" --target cuda -o "$OUT/err.cu") 2>"$OUT/err.log" || rc=$?
  got=$(head -1 "$OUT/err.log")
  if [ "$rc" != 1 ] || [ "$got" != "$(cat "tests/cuda/errors/$name.expect")" ] || [ -e "$OUT/err.cu" ] || [ -e "$OUT/err.h" ]; then
    echo "cuda: errors/$name: FAIL (exit $rc)"; cat "$OUT/err.log"; fail=1
  else
    echo "cuda: errors/$name: ok"
  fi
done

"$PYTHON" tests/cuda/export.py "$OUT/models" --ref >"$OUT/models.list"
mkdir -p "$OUT/det1" "$OUT/det2"
"$MCABS" compile "$OUT/models/json_gpt_block/model.json" --target cuda -o "$OUT/det1/model.cu"
"$MCABS" compile "$OUT/models/json_gpt_block/model.json" --target cuda -o "$OUT/det2/model.cu"
if cmp -s "$OUT/det1/model.cu" "$OUT/det2/model.cu" && cmp -s "$OUT/det1/model.weights" "$OUT/det2/model.weights"; then
  echo "cuda: deterministic output: ok"
else
  echo "cuda: deterministic output: FAIL"; fail=1
fi

if [ ! -x "$NVCC" ]; then
  echo "cuda: $NVCC not found: skipping the nvcc build of the CUDA models"
  exit $fail
fi
if [ -n "$SAN" ]; then
  echo "cuda: sanitizer build: skipping the nvcc build of the CUDA models"
  exit $fail
fi
${MAKE:-make} -s BUILD="$BUILD" "$BUILD/libmcrt_cuda.a"
ARCH="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"
for name in $(cat "$OUT/models.list"); do
  d="$OUT/models/$name"
  if ! "$MCABS" compile "$d/model.json" --target cuda -o "$d/model.cu" 2>"$d/log"; then
    echo "cuda: $name: mc compile --target cuda FAILED"; cat "$d/log"; fail=1; continue
  fi
  if ! (cd "$d" && "$NVCC" $ARCH -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$ROOT/runtime" -c model.cu -o model.o) >"$d/log" 2>&1 ||
     ! gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$d" -I"$ROOT/runtime" -I"$CUDA_HOME/include" \
         -c tests/cuda/harness.c -o "$d/harness.o" >>"$d/log" 2>&1 ||
     ! "$NVCC" $ARCH "$d/model.o" "$d/harness.o" "$ROOT/$BUILD/libmcrt_cuda.a" -lcublas -lm -o "$d/harness" >>"$d/log" 2>&1; then
    echo "cuda: $name: nvcc build FAILED"; cat "$d/log"; fail=1; continue
  fi
  rc=0
  "$d/harness" "$d" >"$d/run.log" 2>&1 || rc=$?
  case $rc in
    0) echo "cuda: $name: built for sm_80+sm_90, matches PyTorch on this GPU" ;;
    77) echo "cuda: $name: built and linked for sm_80+sm_90 (no GPU here: harness reported it cleanly)" ;;
    *) echo "cuda: $name: harness FAILED (exit $rc)"; cat "$d/run.log"; fail=1 ;;
  esac
done
exit $fail
