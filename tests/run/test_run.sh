#!/bin/sh
# `mc run`, `mc inspect` and `mc dump --format dot|json` against PyTorch: see test_run.py.
# Environment: MC (path to mc, default build/mc), PYTHON (default /usr/bin/python3).
set -e
: "${PYTHON:=/usr/bin/python3}"
cd "$(dirname "$0")/../.."
MC="${MC:-build/mc}" "$PYTHON" tests/run/test_run.py
