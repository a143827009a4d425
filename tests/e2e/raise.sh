#!/bin/sh
# A model whose prim::If raises on a run-time condition: `mc run` on an input that takes the
# raising branch must fail with the exception's class and message, exit 1, and write nothing.
# Uses the model tests/e2e/run_e2e.py exported for ctl_raise_not_taken.
MC=${MC:-build/mc}
PYTHON=${PYTHON:-/usr/bin/python3}
BUILD=${BUILD:-build}
model=$BUILD/e2e/ctl_raise_not_taken/model.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f "$model" ] || { echo "raise: $model missing (run tests/e2e/run_e2e.py first)"; exit 1; }
"$PYTHON" -c "import numpy as np; np.save('$tmp/neg.npy', -np.ones((2, 3), np.float32))"
"$MC" run "$model" "$tmp/neg.npy" -o "$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "builtins.ValueError: negative sum" "$tmp/err" && [ ! -e "$tmp/out" ]; then
  echo "raise: 1 passed, 0 failed"
else
  echo "FAIL raise: exit $rc, stderr: $(cat "$tmp/err")"
  echo "raise: 0 passed, 1 failed"
  exit 1
fi
