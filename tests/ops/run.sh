#!/bin/sh
# tests/ops — `mc ops` and what depends on the op table: docs/ops.md is current, every
# non-structural row has PyTorch-computed kernel cases or an exemption (kernel_cases.py), the
# rows' layout flags agree with PyTorch's results in them (kernel_layouts.py); and
# `mc compile --verify-passes` (verify_passes.py).
# Usage: MC=build/mc BUILD=build PYTHON=/usr/bin/python3 sh tests/ops/run.sh
set -e
MC="${MC:-build/mc}"
BUILD="${BUILD:-build}"
PYTHON="${PYTHON:-/usr/bin/python3}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# docs/ops.md is `mc ops --format markdown`
"$MC" ops --format markdown > "$tmp/ops.md"
if ! cmp -s "$tmp/ops.md" docs/ops.md; then
  echo "FAIL tests/ops: docs/ops.md is not current (the op table changed): run \`make docs\`" \
       "(make BUILD=$BUILD docs) and commit docs/ops.md; the difference:"
  diff -u docs/ops.md "$tmp/ops.md" | head -20
  fail=1
fi

# the formats agree on the ops listed; options are checked
"$MC" ops > "$tmp/ops.txt"
"$MC" ops --format json > "$tmp/ops.json"
"$MC" ops --target cuda --format json > "$tmp/ops_cuda.json"
"$PYTHON" - "$tmp" <<'PY' || fail=1
import json, sys
d = sys.argv[1]
ops = json.load(open(d + "/ops.json"))["ops"]
names = [o["name"] for o in ops]
assert names == sorted(names), "mc ops: not sorted by name"
assert len(set(names)) == len(names), "mc ops: an op listed twice"
text = [l.split()[0] for l in open(d + "/ops.txt") if l[:1] not in (" ", "")]
assert text == names, "mc ops: text and json list different ops"
md = [l.split("`")[1] for l in open(d + "/ops.md") if l.startswith("| `")]
assert md == names, "mc ops --format markdown: lists different ops"
for o in ops:
    assert o["overloads"], o["name"] + ": no overload"
    assert set(o["targets"]) == {"c", "cuda"}, o["name"]
    assert (o["targets"]["c"] == "kernel") == ("kernel" in o), o["name"]
    assert o["targets"]["cuda"].split(";")[0] in ("device kernel", "host fallback", "structural"), o["name"]
    assert ("the whole graph on the host when sized by the data" in o["targets"]["cuda"]) == ("data_sized" in o.get("flags", [])), o["name"]
cuda = json.load(open(d + "/ops_cuda.json"))["ops"]
assert all(set(o["targets"]) == {"cuda"} for o in cuda), "--target cuda shows other targets"
print("tests/ops: mc ops lists %d ops (%d with a C kernel)" % (len(ops), sum("kernel" in o for o in ops)))
PY
grep -q '^aten::add  \[elementwise; pure\]  c: kernel mck_add  cuda: ' "$tmp/ops.txt" ||
  { echo "FAIL tests/ops: mc ops text line of aten::add"; fail=1; }
if "$MC" ops --format yaml > /dev/null 2>&1; then echo "FAIL tests/ops: unknown format accepted"; fail=1; fi
if "$MC" ops --target tpu > /dev/null 2>&1; then echo "FAIL tests/ops: unknown target accepted"; fail=1; fi
"$MC" --help | grep -q '^  ops ' || { echo "FAIL tests/ops: mc --help does not name ops"; fail=1; }

# every op row with a kernel has PyTorch-computed kernel cases (or a reason not to)
cases="$BUILD/kernel_cases.txt"   # what make unit-check generated, when current
if [ ! -f "$cases" ] || [ ! -f "$cases.layout.json" ] || [ -n "$(find tests/kernels -name '*.py' -newer "$cases")" ]; then
  cases="$tmp/kernel_cases.txt"
  "$PYTHON" tests/kernels/gen_kernels.py "$cases" 2> "$tmp/gen.log" ||
    { cat "$tmp/gen.log"; echo "FAIL tests/ops: tests/kernels/gen_kernels.py"; fail=1; }
fi
[ -f "$cases" ] && { "$PYTHON" tests/ops/kernel_cases.py "$tmp/ops.json" "$cases" || fail=1; }
# the rows' layout and alias flags agree with the layouts of PyTorch's results in those cases
[ -f "$cases" ] && { "$PYTHON" tests/ops/kernel_layouts.py "$tmp/ops.json" "$cases.layout.json" || fail=1; }

# the kernel headers: pasted after what they include (no include cycles), split under 1,000 lines
"$PYTHON" tests/ops/kernel_headers.py $(make -s --no-print-directory BUILD="$BUILD" kernel-headers) || fail=1

# mc compile --verify-passes: green on the e2e alias cases and a few models, catches a broken pass
MC="$MC" "$PYTHON" tests/ops/verify_passes.py "$BUILD/ops-verify" || fail=1

[ "$fail" = 0 ] && echo "tests/ops: ok"
exit "$fail"
