#!/bin/sh
# mc's size limits on hostile models too large to keep as goldens (tests/errors/run.sh holds the
# small ones): each model is written here, must be refused with exit status 1 and the expected
# diagnostic, within CPU_LIMIT seconds (ulimit -t) and MEM_LIMIT KiB of address space (ulimit -v),
# and leave no output file.
#   - graph inputs / outputs over IR_MAX_GRAPH_IO (65536), in TorchScript text and JSON;
#   - TorchScript constants over TS_MAX_CONST_VALUES (4,194,304): a 9 MB int list (a 40 MB one
#     took 2.6 GB before);
#   - JSON trees over JSON_MAX_TREE_BYTES (256 MiB): a 10 MB array of zeros outside "nodes" (it
#     was an 8 GB tree at 120 MB), and one node with a 10 MB inline list (streamed documents).
MC=${MC:-build/mc}
PY=${PYTHON:-/usr/bin/python3}
if [ -n "$SAN" ]; then CPU_LIMIT=${CPU_LIMIT:-60}; MEM_LIMIT=unlimited; else CPU_LIMIT=${CPU_LIMIT:-10}; MEM_LIMIT=${MEM_LIMIT:-2097152}; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PY" - "$tmp" <<'PYEOF'
import json, sys
d = sys.argv[1]
T = "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"
N = 65537
with open(d + "/ts_inputs.txt", "w") as f:
    f.write("graph(" + ",\n      ".join("%%x%d : %s" % (i, T) for i in range(N)) + "):\n  return (%x0)\n")
with open(d + "/ts_outputs.txt", "w") as f:
    f.write("graph(%x : " + T + "):\n  return (" + ", ".join(["%x"] * N) + ")\n")
with open(d + "/ts_big_list.txt", "w") as f:
    f.write("graph(%x : " + T + "):\n  %l : int[] = prim::Constant[value=[" + ",".join(["1"] * 4200000) +
            "]]()\n  return (%x)\n")
X = {"name": "x", "type": "Tensor", "dtype": "float32", "shape": [2, 3]}
def doc(inputs, nodes, outputs, **extra):
    top = {"format": "mc-graph", "version": 1}
    top.update(extra)
    top["graph"] = {"inputs": inputs, "nodes": nodes, "outputs": outputs}
    return json.dumps(top)
with open(d + "/json_inputs.json", "w") as f:
    f.write(doc([dict(X, name="x%d" % i) for i in range(N)], [], ["x0"]))
with open(d + "/json_outputs.json", "w") as f:
    f.write(doc([X], [], ["x"] * N))
with open(d + "/json_big_array.json", "w") as f:
    f.write(doc([X], [], ["x"], junk=[0] * 5000000))
node = {"kind": "prim::Constant", "inputs": [], "attrs": {"value": [0] * 5000000},
        "outputs": [{"name": "c", "type": "int[]"}]}
with open(d + "/json_big_node.json", "w") as f:
    f.write(doc([X], [node], ["x"]))
PYEOF
pass=0
fail=0
check() { # FILE EXPECTED-TEXT
  (ulimit -t "$CPU_LIMIT"; ulimit -v "$MEM_LIMIT"; exec timeout 60 "$MC" compile "$tmp/$1" -o "$tmp/out.c") \
    2>"$tmp/stderr" >/dev/null
  rc=$?
  why=""
  [ $rc -eq 1 ] || why="exit status $rc, expected 1"
  grep -aq "^$tmp/$1:[0-9]*:[0-9]*: error: .*$2" "$tmp/stderr" || why="$why; no located error saying '$2': $(head -c 300 "$tmp/stderr")"
  [ -e "$tmp/out.c" ] || [ -e "$tmp/out.h" ] && why="$why; output file left behind"
  rm -f "$tmp/out.c" "$tmp/out.h" "$tmp"/out.weights*
  if [ -n "$why" ]; then
    echo "FAIL $1: $why"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
check ts_inputs.txt "the graph has more than 65536 inputs (mc's limit)"
check ts_outputs.txt "the graph has more than 65536 outputs (mc's limit)"
check ts_big_list.txt "the graph's constants hold more than 4194304 values in all (mc's limit)"
check json_inputs.json "the graph has more than 65536 inputs (mc's limit)"
check json_outputs.json "the graph has more than 65536 outputs (mc's limit)"
check json_big_array.json "the JSON document holds more than 256 MiB of values outside \"nodes\""
check json_big_node.json "this node holds more than 256 MiB of JSON values"
echo "limits: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
