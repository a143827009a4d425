#!/bin/sh
# Diagnostic goldens: every tests/errors/NAME.{txt,json} must be rejected by `mc compile` with
# exit status 1, the diagnostics in NAME.err (exactly: the lines starting with the file name),
# at most MAX_LOCATED located lines and MAX_LINES lines of stderr in all, within CPU_LIMIT
# seconds of CPU time (ulimit -t: load-independent; SAN builds get more), and no output file
# left behind. `sh tests/errors/run.sh --update` rewrites the .err files (review the diff).
# Most cases are written by gen_cases.py (binary, huge and deeply nested inputs among them).
MC=${MC:-build/mc}
MAX_LOCATED=${MAX_LOCATED:-4}
MAX_LINES=${MAX_LINES:-14}
if [ -n "$SAN" ]; then CPU_LIMIT=${CPU_LIMIT:-10}; else CPU_LIMIT=${CPU_LIMIT:-1}; fi
dir=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for f in "$dir"/*.txt "$dir"/*.json; do
  [ -e "$f" ] || continue
  base=${f%.*}
  (ulimit -t "$CPU_LIMIT"; exec timeout 20 "$MC" compile "$f" -o "$tmp/out.c") 2>"$tmp/stderr" >/dev/null
  rc=$?
  # the located lines only: "FILE:LINE:COL: error|note: ..." (source excerpts vary less usefully)
  grep -aE '^[^ ].*: (error|note|warning): ' "$tmp/stderr" | sed "s|$dir/||g" >"$tmp/got"
  if [ "$1" = "--update" ]; then
    cp "$tmp/got" "$base.err"
  fi
  why=""
  case $rc in
    1) ;;
    124|137|152) why="over the limit of $CPU_LIMIT s CPU time (exit status $rc)" ;;
    *) why="exit status $rc, expected 1" ;;
  esac
  [ -e "$tmp/out.c" ] || [ -e "$tmp/out.h" ] && why="$why; output file left behind"
  ls "$tmp" | grep -q 'tmp' && why="$why; temporary file left behind"
  [ -s "$tmp/got" ] || why="$why; no located diagnostic"
  located=$(wc -l <"$tmp/got")
  lines=$(wc -l <"$tmp/stderr")
  [ "$located" -le "$MAX_LOCATED" ] || why="$why; $located located diagnostic lines (at most $MAX_LOCATED)"
  [ "$lines" -le "$MAX_LINES" ] || why="$why; $lines lines on stderr (at most $MAX_LINES)"
  [ "$(wc -c <"$tmp/stderr")" -le 8192 ] || why="$why; more than 8 KiB on stderr"
  if [ -f "$base.err" ]; then
    cmp -s "$tmp/got" "$base.err" || why="$why; diagnostics differ: $(diff "$base.err" "$tmp/got" | head -5 | tr '\n' ' ')"
  else
    why="$why; no golden $base.err"
  fi
  rm -f "$tmp/out.c" "$tmp/out.h" "$tmp"/out.c.tmp* "$tmp"/out.weights*
  if [ -n "$why" ]; then
    echo "FAIL $f: $why"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
echo "errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
