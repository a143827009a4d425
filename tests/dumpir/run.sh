#!/bin/sh
# --dump-ir round trip: for each model, `mc compile --dump-ir` must print a section before the
# pipeline and one after every pass, each under its fixed header line, and every section must
# parse back and print identically (`mc dump SECTION` == SECTION).
MC=${MC:-build/mc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for m in samples/seed_slice/model.txt tests/corpus/mlp_traced_inlined.txt tests/corpus/slice_assign_traced_inlined.txt \
         tests/corpus/inplace_traced.txt tests/dumpir/fuse.txt tests/dumpir/dynamic.txt tests/functionalize/cases/*.txt; do
  [ -e "$m" ] || continue
  if ! "$MC" compile "$m" -o "$tmp/out.c" --dump-ir 2>"$tmp/dump" >/dev/null; then
    continue # models the pipeline rejects are covered elsewhere
  fi
  headers=$(grep -c '^// ----- IR ' "$tmp/dump")
  pipeline=$("$MC" compile --help | sed -n 's/.*default pipeline: \([a-z_,]*\).*/\1/p')
  want=$(( $(echo "$pipeline" | tr ',' '\n' | wc -l) + 1 ))
  why=""
  [ "$headers" -eq "$want" ] || why="$headers sections, expected $want"
  rm -f "$tmp"/sec.*
  awk -v dir="$tmp" '/^\/\/ ----- IR /{n++; next} {print > (dir "/sec." n)}' "$tmp/dump"
  for s in "$tmp"/sec.*; do
    cp "$s" "$s.txt"
    if ! "$MC" dump "$s.txt" >"$s.back" 2>"$s.err"; then
      why="$why; a section does not parse back: $(head -1 "$s.err")"
    elif ! cmp -s "$s.txt" "$s.back"; then
      why="$why; a section prints differently after parsing: $(diff "$s.txt" "$s.back" | head -3 | tr '\n' ' ')"
    fi
  done
  if [ -n "$why" ]; then
    echo "FAIL $m: $why"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
# Dims (docs/dynamic.md): graph inputs print their Dim extents as name[min, max]=example through
# every pass; the section after the last pass is the golden tests/dumpir/dynamic.after.txt.
if ! "$MC" compile tests/dumpir/dynamic.txt -o "$tmp/out.c" --dump-ir 2>"$tmp/dump" >/dev/null; then
  echo "FAIL tests/dumpir/dynamic.txt: mc compile failed: $(head -3 "$tmp/dump")"
  fail=$((fail + 1))
elif ! awk '/^\/\/ ----- IR /{n++; delete s; k=0; next} {s[k++]=$0} END{for(i=0;i<k;i++) print s[i]}' "$tmp/dump" |
       diff tests/dumpir/dynamic.after.txt - >"$tmp/diff"; then
  echo "FAIL tests/dumpir/dynamic.after.txt: the last section differs: $(head -5 "$tmp/diff" | tr '\n' ' ')"
  fail=$((fail + 1))
else
  pass=$((pass + 1))
fi
echo "dump-ir: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
