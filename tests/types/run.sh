#!/bin/sh
# PyTorch's type promotion as a generated matrix (op x dtype pair x tensor / 0-dim / Python
# scalar, in and out of place, scripted and traced) through `mc run`, against PyTorch eager and
# torch.result_type; and combinations PyTorch refuses, which mc must refuse too. See gen.py.
# Environment: MC (path to mc, default build/mc), BUILD (default build), PYTHON.
set -e
: "${PYTHON:=/usr/bin/python3}"
cd "$(dirname "$0")/../.."
MC="${MC:-build/mc}" "$PYTHON" tests/types/gen.py "${BUILD:-build}/types"
