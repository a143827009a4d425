#!/bin/sh
# tests/cuda/run.sh — checks of the CUDA target (docs/cuda.md), run by tests/run_e2e.sh.
#  1. Diagnostics, no CUDA needed: a model --target cuda cannot compile is refused at its node
#     (golden first line in errors/NAME.expect), exit 1, no output file left; the models of
#     host/ (an op without a device kernel, control flow, int64) compile, their nodes on the host.
#  2. Determinism: the same model compiles to byte-identical .cu twice.
#  3. Where nvcc is (CUDA_HOME, default /usr/local/cuda): build/libmcrt_cuda.a, then every test
#     model (tests/cuda/export.py: MLPs, LeNet-5, a small convnet, a GPT block, resnet18,
#     mobilenet_v2) is compiled with mc --target cuda and nvcc for sm_80 and sm_90 with every
#     warning an error, and linked with the harness (tests/cuda/harness.c), libmcrt_cuda.a and
#     cuBLAS. The harness then runs: on a machine with a GPU it checks the model against
#     PyTorch's CPU results; without one it must report that cleanly (exit 77, no abort).
#  4. The CPU emulation (spec 6, no GPU or CUDA needed): tests/cuda/emu_kernels.cu (barriers,
#     shared memory, shuffles, atomics, cuBLAS, launch errors) built with c++ -DMC_CUDA_EMULATE;
#     the error paths of the runtime under injected cudaMalloc and launch failures; the GPU
#     harness (tests/cuda/harness.c) on the small test models;
#     tests/cuda/emu.py: every tests/e2e case that --target cuda accepts, built the spec-6 way,
#     run in each binding mode and compared with PyTorch (refused cases are counted, not failed;
#     every case but the heavy ones, which MC_E2E_HEAVY=1 adds; resnet18, mobilenet_v2 and the
#     transformer models must have no node on the host, by mc inspect --target cuda).
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

for f in tests/cuda/host/*.txt; do
  name=$(basename "$f" .txt)
  rm -f "$OUT/host.cu"
  if (cd tests/cuda/host && "$MCABS" compile "$name.txt" --target cuda -o "$OUT/host.cu") >"$OUT/host.log" 2>&1 &&
     grep -q "on the host: its C kernel" "$OUT/host.cu"; then
    if "$MCABS" inspect "$f" --target cuda >"$OUT/host.inspect" 2>&1 && grep -q "^cuda: 1 node on the host" "$OUT/host.inspect"; then
      echo "cuda: host/$name: compiles, through the C kernels on the host, as mc inspect --target cuda lists: ok"
    else
      echo "cuda: host/$name: mc inspect --target cuda does not list its host node: FAIL"; cat "$OUT/host.inspect"; fail=1
    fi
  else
    echo "cuda: host/$name: FAIL"; cat "$OUT/host.log"; fail=1
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

# 4. the CPU emulation
${MAKE:-make} -s BUILD="$BUILD" cuda-emu
CXX_EMU="${CXX:-c++}"
case "$CC" in *clang*) CXX_EMU="${CXX:-clang++}" ;; esac
EMU_INC="-I$ROOT/$BUILD/runtime-dist"
[ -f "$BUILD/runtime-dist/mc_runtime.h" ] || EMU_INC="$EMU_INC -I$ROOT/runtime"
if "$CXX_EMU" -std=c++17 -O1 -Wall -Wextra -Werror $SAN -DMC_CUDA_EMULATE $EMU_INC -x c++ -c tests/cuda/emu_kernels.cu \
     -o "$OUT/emu_kernels.o" >"$OUT/emu_kernels.log" 2>&1 &&
   "$CXX_EMU" $SAN "$OUT/emu_kernels.o" "$BUILD/libmcrt_cuda_emu.a" -lm -lpthread -o "$OUT/emu_kernels" >>"$OUT/emu_kernels.log" 2>&1 &&
   "$OUT/emu_kernels" >>"$OUT/emu_kernels.log" 2>&1; then
  echo "cuda: emulation kernels (barriers, shared memory, shuffles, atomics, cuBLAS, launch errors): ok"
else
  echo "cuda: emulation kernels: FAIL"; cat "$OUT/emu_kernels.log"; fail=1
fi
# error paths: a failing cudaMalloc at create, a failing launch in mc_run (json_mlp: cuBLAS and a kernel)
d="$OUT/emu_err"
mkdir -p "$d"
if "$MCABS" compile "$OUT/models/json_mlp/model.json" --target cuda -o "$d/model.cu" --name model 2>"$d/log" &&
   (cd "$d" && "$CXX_EMU" -std=c++17 -O1 $SAN -DMC_CUDA_EMULATE $EMU_INC -x c++ -c model.cu -o model.o) >>"$d/log" 2>&1 &&
   ${CC:-cc} -std=c11 -O1 $SAN -DMC_CUDA_EMULATE -I"$d" $EMU_INC -c tests/cuda/emu_harness.c -o "$d/emu_harness.o" >>"$d/log" 2>&1 &&
   "$CXX_EMU" $SAN "$d/emu_harness.o" "$d/model.o" "$BUILD/libmcrt_cuda_emu.a" -lm -lpthread -o "$d/emu_harness" >>"$d/log" 2>&1; then
  "$PYTHON" -c "import numpy as np; np.load('$OUT/models/json_mlp/input_0.npy').tofile('$d/in.bin')"
  rc=0; "$d/emu_harness" copy "$d" "$d/in.bin" 2>"$d/ok.log" || rc=$?
  [ "$rc" = 0 ] || { echo "cuda: emulated json_mlp without injected failures: FAIL (exit $rc)"; cat "$d/ok.log"; fail=1; }
  rc=0; MC_CUDA_EMU_FAIL_MALLOC=1 "$d/emu_harness" copy "$d" "$d/in.bin" 2>"$d/malloc.log" || rc=$?
  if [ "$rc" = 3 ] && grep -q "model_create: cudaMalloc (arena): out of memory" "$d/malloc.log"; then
    echo "cuda: emulated cudaMalloc failure at create: NULL with the reason: ok"
  else
    echo "cuda: emulated cudaMalloc failure at create: FAIL (exit $rc)"; cat "$d/malloc.log"; fail=1
  fi
  rc=0; MC_CUDA_EMU_FAIL_LAUNCH=1 "$d/emu_harness" copy "$d" "$d/in.bin" 2>"$d/launch.log" || rc=$?
  if [ "$rc" = 5 ] && grep -q "mc_run: model 'model': .*unspecified launch failure" "$d/launch.log"; then
    echo "cuda: emulated launch failure: mc_run returns MC_ERUN naming the node: ok"
  else
    echo "cuda: emulated launch failure: FAIL (exit $rc)"; cat "$d/launch.log"; fail=1
  fi
else
  echo "cuda: emulation error-path build: FAIL"; cat "$d/log"; fail=1
fi
# the GPU harness itself (tests/cuda/harness.c, as bench/cuda_check.sh runs it) on the small models
for name in json_mlp json_mlp_script json_lenet5 json_smallconv json_gpt_block; do
  d="$OUT/models/$name"
  rc=0
  mkdir -p "$d/emu"
  if "$MCABS" compile "$d/model.json" --target cuda -o "$d/emu/model.cu" --name model >"$d/emu.log" 2>&1 &&
     (cd "$d/emu" && "$CXX_EMU" -std=c++17 -O1 $SAN -DMC_CUDA_EMULATE $EMU_INC -x c++ -c model.cu -o model.o) >>"$d/emu.log" 2>&1 &&
     ${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $SAN -DMC_CUDA_EMULATE -I"$d/emu" $EMU_INC \
       -c tests/cuda/harness.c -o "$d/emu/harness.o" >>"$d/emu.log" 2>&1 &&
     "$CXX_EMU" $SAN "$d/emu/harness.o" "$d/emu/model.o" "$BUILD/libmcrt_cuda_emu.a" -lm -lpthread -o "$d/emu/harness" >>"$d/emu.log" 2>&1; then
    "$d/emu/harness" "$d" --time 1 >>"$d/emu.log" 2>&1 || rc=$?
  else
    rc=build
  fi
  if [ "$rc" = 0 ]; then
    echo "cuda: $name: tests/cuda/harness.c under the emulation matches PyTorch (copy, zero-copy, DLPack, own stream)"
  else
    echo "cuda: $name: tests/cuda/harness.c under the emulation FAILED ($rc)"; cat "$d/emu.log"; fail=1
  fi
done
if CXX="$CXX_EMU" "$PYTHON" tests/cuda/emu.py >"$OUT/emu.log" 2>&1; then
  tail -n +1 "$OUT/emu.log" | grep -v '^ok ' || true
else
  cat "$OUT/emu.log"; fail=1
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
# models of tests/cuda/emu.py without GEMMs or weights, with the block reduction; with control
# flow and the C kernels on the host (types_promote_script: int32 and float64); views at a
# run-time index (rtint_write_rows); results sized by the data, so the C target's code on the
# host (ds_unique_trace, ds_write_into_selection_script)
for name in elementwise dce_sgd_traced ctl_nested_if_in_loop types_promote_script rtint_write_rows \
    ds_unique_trace ds_write_into_selection_script; do
  d="$ROOT/$BUILD/cuda-emu/$name"
  [ -f "$d/model.cu" ] || continue
  if (cd "$d" && "$NVCC" $ARCH -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$ROOT/runtime" -c model.cu -o model_nvcc.o) >"$d/nvcc.log" 2>&1; then
    echo "cuda: $name (emulated above) also builds with nvcc for sm_80+sm_90: ok"
  else
    echo "cuda: $name under nvcc: FAIL"; cat "$d/nvcc.log"; fail=1
  fi
done
if "$NVCC" $ARCH -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -c tests/cuda/emu_kernels.cu \
     -o "$OUT/emu_kernels_nvcc.o" >"$OUT/emu_kernels_nvcc.log" 2>&1; then
  echo "cuda: emu_kernels.cu is valid CUDA (nvcc, sm_80+sm_90): ok"
else
  echo "cuda: emu_kernels.cu under nvcc: FAIL"; cat "$OUT/emu_kernels_nvcc.log"; fail=1
fi
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
