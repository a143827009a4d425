#!/bin/sh
# End-to-end tests against PyTorch (see tests/e2e/run_e2e.py) and the diagnostic goldens.
set -e
: "${PYTHON:=/usr/bin/python3}"
# each step prints its wall time ("e2e-step: SECONDS: COMMAND") so CI logs show where time goes
T0=$(date +%s)
step() { t=$(date +%s); "$@" || { rc=$?; echo "e2e-step: FAILED (exit $rc): $*"; exit $rc; }; echo "e2e-step: $(( $(date +%s) - t ))s (at $(( $(date +%s) - T0 ))s): $*"; }
step "$PYTHON" tests/e2e/run_e2e.py
# models again with the generated C built for this machine's vector units (the small json_
# models, the threaded ones and the run-time shaped ones; `make e2e-native` runs every json_ model)
step env MC_E2E_CFLAGS="-O3 -march=native" "$PYTHON" tests/e2e/run_e2e.py json_mlp json_lenet5 json_smallconv \
  json_gpt_block json_encoder_layer_causal thread ds_
step env MC="${MC:-build/mc}" "$PYTHON" tests/json/test_export.py
step env MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/dynamic/run_dynamic.py
step env MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/json/test_state.py
step sh tests/e2e/raise.sh
step env MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/sweep/sweep.py --quick
step env MC="${MC:-build/mc}" BUILD="${BUILD:-build}" sh tests/types/run.sh
step sh tests/errors/run.sh
step sh tests/errors/limits.sh
# generated code under ASan+UBSan (it builds them with the sanitizers itself: not repeated there)
[ -n "${SAN:-}" ] || step sh tests/errors/ub.sh
step sh tests/hostile/run.sh
step sh tests/run/test_run.sh
step sh tests/dumpir/run.sh
step env MC="${MC:-build/mc}" BUILD="${BUILD:-build}" PYTHON="$PYTHON" sh tests/ops/run.sh
step sh tests/dce/emit.sh
step sh tests/runtime/sanitizers.sh
step env BUILD="${BUILD:-build}" sh tests/runtime/threads.sh
step env BUILD="${BUILD:-build}" sh tests/kernels/native.sh
step sh tests/build/run.sh
# only the kernels a model uses go into its model.c (compiler/emit/kernel_lib.c)
step env MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/shake/run.py
# other targets (cross compilers + qemu-user): not repeated under the sanitizers
[ -n "${SAN:-}" ] || step env MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/cross/run.py
[ -n "${SAN:-}" ] || step env BUILD="${BUILD:-build}" sh tests/cross/neon.sh
[ -n "${SAN:-}" ] || step env MC="${MC:-build/mc}" BUILD="${BUILD:-build}" PYTHON="$PYTHON" sh tests/baremetal/run.sh
# the CUDA target: nvcc builds and the CPU emulation (not repeated under the sanitizers)
[ -n "${SAN:-}" ] || step env MC="${MC:-build/mc}" BUILD="${BUILD:-build}" sh tests/cuda/run.sh

