#!/bin/sh
# sanitizers.sh — the runtime under AddressSanitizer + UBSan and under valgrind, from `make check`
# (tests/run_e2e.sh calls it). Everything is built into $BUILD/san (default build/san) from the
# sources, so the result does not depend on how libmcrt.a was built:
#  1. tests/check_runtime.c + the runtime (runtime/mc_runtime.c, mc_core.c) with clang
#     -fsanitize=address,undefined
#     (LeakSanitizer included), run with Check's forks and with CK_FORK=no (one process sees
#     every leak, double deleter call and use after free);
#  2. the same test built without sanitizers, under valgrind --leak-check=full with
#     CK_FORK=no (valgrind does not follow Check's forks);
#  3. compiled models through tests/e2e/harness.c under valgrind, in copy, zerocopy and dlpack
#     modes: seeds/000 `return x, x + 1` (tests/runtime/seed000.txt), the reshape triple
#     (tests/runtime/reshape3.txt) and a momentum optimizer step that updates its inputs in
#     place (tests/dce/momentum_traced.txt); the outputs and final inputs are checked against
#     values worked out here (seed000, reshape3) or by PyTorch (tests/dce/momentum_traced.expect
#     uses the same formula for its inputs).
# Skips a part (saying so) when clang or valgrind is missing; CI installs both.
# Usage: sh tests/runtime/sanitizers.sh   (from the repository root; MC, BUILD as in run_e2e.sh)
set -eu
MC=${MC:-build/mc}
BUILD=${BUILD:-build}
PY=${PYTHON:-/usr/bin/python3}
OUT="$BUILD/san"
mkdir -p "$OUT"
CHECK_CFLAGS=$(pkg-config --cflags check)
CHECK_LIBS=$(pkg-config --libs check)
WARN="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g"
VG="valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect"

if command -v clang >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  clang $WARN -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
    -Iruntime $CHECK_CFLAGS tests/check_runtime.c runtime/mc_runtime.c runtime/mc_core.c $CHECK_LIBS -o "$OUT/check_runtime_asan"
  "$OUT/check_runtime_asan" >"$OUT/asan_fork.log" 2>&1 || { cat "$OUT/asan_fork.log"; exit 1; }
  CK_FORK=no "$OUT/check_runtime_asan" >"$OUT/asan_nofork.log" 2>&1 || { cat "$OUT/asan_nofork.log"; exit 1; }
  echo "ok   sanitizers: check_runtime under ASan+UBSan ($(grep -o 'Checks: [0-9]*' "$OUT/asan_nofork.log"))"
else
  echo "skip sanitizers: no clang"
fi

if ! command -v valgrind >/dev/null 2>&1; then
  echo "skip sanitizers: no valgrind"
  exit 0
fi
# shellcheck disable=SC2086
cc $WARN -O1 -Iruntime $CHECK_CFLAGS tests/check_runtime.c runtime/mc_runtime.c runtime/mc_core.c $CHECK_LIBS -o "$OUT/check_runtime"
CK_FORK=no $VG "$OUT/check_runtime" >"$OUT/valgrind.log" 2>&1 || { cat "$OUT/valgrind.log"; exit 1; }
echo "ok   sanitizers: check_runtime under valgrind ($(grep -o 'Checks: [0-9]*' "$OUT/valgrind.log"))"

# inputs: element k of float input i is ((3k + 5i) mod 11 - 5) / 2, as tests/dce/gen_expect.py
"$PY" - "$OUT" <<'PYEOF'
import struct, sys
out = sys.argv[1]
for i, n in [(i, n) for i in range(3) for n in (4, 6)]:
    vals = [((3 * k + 5 * i) % 11 - 5) * 0.5 for k in range(n)]
    open("%s/in_%d_%d.bin" % (out, i, n), "wb").write(struct.pack("<%df" % n, *vals))
PYEOF
model() { # NAME GRAPH INPUT_FILES...
  name=$1 graph=$2
  shift 2
  d="$OUT/$name"
  mkdir -p "$d"
  "$MC" compile "$graph" -o "$d/model.c" --name model
  cc -std=c11 -Wall -Wextra -Werror -O1 -g -I"$d" -Wa,-I"$d" -Iruntime "$d/model.c" tests/e2e/harness.c \
    runtime/mc_runtime.c runtime/mc_core.c -lm -o "$d/harness"
  for mode in copy zerocopy dlpack; do
    mkdir -p "$d/$mode"
    $VG "$d/harness" "$mode" "$d/$mode" "$@" >"$d/$mode.log" 2>&1 || {
      echo "FAIL sanitizers: $name ($mode) under valgrind"
      cat "$d/$mode.log"
      exit 1
    }
  done
}
model seed000 tests/runtime/seed000.txt "$OUT/in_0_4.bin"
model reshape3 tests/runtime/reshape3.txt "$OUT/in_0_6.bin"
model momentum tests/dce/momentum_traced.txt "$OUT/in_0_4.bin" "$OUT/in_1_4.bin" "$OUT/in_2_4.bin"
"$PY" - "$OUT" <<'PYEOF'
import struct, sys
out = sys.argv[1]
def rd(path):
    b = open(path, "rb").read()
    return list(struct.unpack("<%df" % (len(b) // 4), b))
def expect_file(name):
    want = {}
    for line in open("tests/dce/%s.expect" % name):
        head, vals = line.split(":")
        tag, k = head.split()[:2]
        want["%s_%s" % ("output" if tag == "out" else "input", k)] = [float(v) for v in vals.split()]
    return want
x4 = rd("%s/in_0_4.bin" % out)
x6 = rd("%s/in_0_6.bin" % out)
cases = {
    "seed000": {"output_0": x4, "output_1": [v + 1 for v in x4], "input_0": x4},
    "reshape3": {"output_0": x6, "output_1": x6, "output_2": [v + 1 for v in x6], "input_0": x6},
    "momentum": expect_file("momentum_traced"),
}
bad = 0
for name, want in cases.items():
    for mode in ("copy", "zerocopy", "dlpack"):
        for f, w in want.items():
            got = rd("%s/%s/%s/%s.bin" % (out, name, mode, f))
            if len(got) != len(w) or any(abs(g - e) > 1e-5 * (1 + abs(e)) for g, e in zip(got, w)):
                print("FAIL sanitizers: %s (%s) %s = %s, want %s" % (name, mode, f, got, w))
                bad = 1
sys.exit(bad)
PYEOF
echo "ok   sanitizers: seed000, reshape3, momentum models under valgrind (copy, zerocopy, dlpack): no errors, no leaks, values right"
