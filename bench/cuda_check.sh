#!/bin/sh
# bench/cuda_check.sh — the CUDA target on a real GPU (prepared for a machine with an NVIDIA GPU,
# the CUDA toolkit at CUDA_HOME and PyTorch at PYTHON; see docs/cuda.md).
#  1. Builds mc and libmcrt_cuda.a and runs tests/cuda/run.sh: every test model is compiled with
#     --target cuda and nvcc (sm_80 + sm_90) and its harness checks it on this GPU against
#     PyTorch's CPU results, float32 without TF32: max |err| <= 1e-4 * max |ref| per output, for
#     copying, zero-copy and DLPack bindings.
#  2. Times resnet18 at batch 1 and 32 (mc: harness --time, one stream, mc_run waits for it) and
#     PyTorch on the same GPU (eval, no_grad, TF32 off, synchronised), ms per forward.
# Prints one line per figure; exit status 1 when any model mismatches.
set -e
cd "$(dirname "$0")/.."
: "${PYTHON:=/usr/bin/python3}" "${CUDA_HOME:=/usr/local/cuda}" "${ITERS:=50}"
NVCC="$CUDA_HOME/bin/nvcc"
ROOT=$(pwd)
nvidia-smi -L 2>/dev/null || echo "cuda_check: nvidia-smi not available"
make -j4 all
make -s build/libmcrt_cuda.a
rc=0
sh tests/cuda/run.sh || rc=1

OUT=build/cuda/bench
mkdir -p "$OUT"
ARCH="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"
for b in 1 32; do
  d="$OUT/resnet18_b$b"
  mkdir -p "$d"
  "$PYTHON" - "$d" "$b" <<'PY'
import os, sys
import numpy as np, torch, torchvision
sys.path.insert(0, "frontend/python")
import mc_export
d, b = sys.argv[1], int(sys.argv[2])
torch.manual_seed(0)
m = torchvision.models.resnet18().eval()
x = torch.randn(b, 3, 224, 224)
mc_export.export(m, (x.clone(),), os.path.join(d, "model.json"))
with torch.no_grad():
    y = m(x.clone())
np.save(os.path.join(d, "input_0.npy"), x.numpy())
np.save(os.path.join(d, "expect_0.npy"), y.numpy())
PY
  build/mc compile "$d/model.json" --target cuda -o "$d/model.cu"
  (cd "$d" && "$NVCC" $ARCH -O2 -I"$ROOT/runtime" -c model.cu -o model.o)
  gcc -std=c11 -O2 -I"$d" -Iruntime -I"$CUDA_HOME/include" -c tests/cuda/harness.c -o "$d/harness.o"
  "$NVCC" $ARCH "$d/model.o" "$d/harness.o" build/libmcrt_cuda.a -lcublas -lm -o "$d/harness"
  echo "== mc resnet18 batch $b"
  "$d/harness" "$d" --time "$ITERS" || rc=1
done

echo "== PyTorch resnet18 on the same GPU (TF32 off)"
"$PYTHON" - "$ITERS" <<'PY' || echo "cuda_check: PyTorch with CUDA is not available here"
import sys, time, torch, torchvision
assert torch.cuda.is_available(), "torch.cuda.is_available() is False"
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
iters = int(sys.argv[1])
print("  device:", torch.cuda.get_device_name(0), "torch", torch.__version__)
m = torchvision.models.resnet18().eval().cuda()
for b in (1, 32):
    x = torch.randn(b, 3, 224, 224, device="cuda")
    with torch.no_grad():
        for _ in range(5):
            m(x)
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(iters):
            m(x)
        torch.cuda.synchronize()
    print("  PyTorch resnet18 batch %d: %.3f ms per run (%d runs)" % (b, (time.perf_counter() - t) * 1e3 / iters, iters))
PY
exit $rc
