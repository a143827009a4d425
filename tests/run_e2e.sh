#!/bin/sh
# End-to-end tests against PyTorch (see tests/e2e/run_e2e.py) and the diagnostic goldens.
set -e
: "${PYTHON:=/usr/bin/python3}"
"$PYTHON" tests/e2e/run_e2e.py
# the models again with the generated C built for this machine's vector units
MC_E2E_CFLAGS="-O3 -march=native" "$PYTHON" tests/e2e/run_e2e.py json_ thread ds_
MC="${MC:-build/mc}" "$PYTHON" tests/json/test_export.py
MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/dynamic/run_dynamic.py
MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/json/test_state.py
sh tests/e2e/raise.sh
MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/sweep/sweep.py --quick
MC="${MC:-build/mc}" BUILD="${BUILD:-build}" sh tests/types/run.sh
sh tests/errors/run.sh
sh tests/errors/limits.sh
# generated code under ASan+UBSan (it builds them with the sanitizers itself: not repeated there)
[ -n "${SAN:-}" ] || sh tests/errors/ub.sh
sh tests/hostile/run.sh
sh tests/run/test_run.sh
sh tests/dumpir/run.sh
MC="${MC:-build/mc}" BUILD="${BUILD:-build}" PYTHON="$PYTHON" sh tests/ops/run.sh
sh tests/dce/emit.sh
sh tests/runtime/sanitizers.sh
BUILD="${BUILD:-build}" sh tests/runtime/threads.sh
BUILD="${BUILD:-build}" sh tests/kernels/native.sh
sh tests/build/run.sh
# only the kernels a model uses go into its model.c (compiler/emit/kernel_lib.c)
MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/shake/run.py
# other targets (cross compilers + qemu-user): not repeated under the sanitizers
[ -n "${SAN:-}" ] || MC="${MC:-build/mc}" BUILD="${BUILD:-build}" "$PYTHON" tests/cross/run.py
[ -n "${SAN:-}" ] || BUILD="${BUILD:-build}" sh tests/cross/neon.sh
[ -n "${SAN:-}" ] || MC="${MC:-build/mc}" BUILD="${BUILD:-build}" PYTHON="$PYTHON" sh tests/baremetal/run.sh
# the CUDA target: nvcc builds and the CPU emulation (not repeated under the sanitizers)
[ -n "${SAN:-}" ] || MC="${MC:-build/mc}" BUILD="${BUILD:-build}" sh tests/cuda/run.sh
