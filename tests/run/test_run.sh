#!/bin/sh
# `mc run`, `mc inspect` and `mc dump --format dot|json` against PyTorch: see test_run.py.
# Environment: MC (path to mc, default build/mc), PYTHON (default /usr/bin/python3).
set -e
: "${PYTHON:=/usr/bin/python3}"
cd "$(dirname "$0")/../.."
# Under LeakSanitizer (make asan), mc run's JIT'd kernels keep their per-thread GEMM scratch in
# memory libtcc allocated, which LSan does not scan, so the retained buffers read as leaks; the
# compiled-C paths (e2e, runtime under valgrind) check leaks instead.
if [ -n "${SAN:-}" ]; then export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"; fi
MC="${MC:-build/mc}" "$PYTHON" tests/run/test_run.py
