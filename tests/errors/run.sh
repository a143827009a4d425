#!/bin/sh
# Diagnostic goldens: every tests/errors/NAME.{txt,json} must be rejected by `mc compile` with
# exit status 1, the diagnostics in NAME.err (exactly: the lines starting with the file name),
# and no output file left behind. `sh tests/errors/run.sh --update` rewrites the .err files.
MC=${MC:-build/mc}
dir=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for f in "$dir"/*.txt "$dir"/*.json; do
  [ -e "$f" ] || continue
  base=${f%.*}
  timeout 10 "$MC" compile "$f" -o "$tmp/out.c" 2>"$tmp/stderr" >/dev/null
  rc=$?
  # the located lines only: "FILE:LINE:COL: error|note: ..." (source excerpts vary less usefully)
  grep -E '^[^ ].*: (error|note|warning): ' "$tmp/stderr" | sed "s|^$dir/||" >"$tmp/got"
  if [ "$1" = "--update" ]; then
    cp "$tmp/got" "$base.err"
  fi
  why=""
  [ "$rc" -eq 1 ] || why="exit status $rc, expected 1"
  [ -e "$tmp/out.c" ] || [ -e "$tmp/out.h" ] && why="$why; output file left behind"
  ls "$tmp" | grep -q 'tmp' && why="$why; temporary file left behind"
  [ -s "$tmp/got" ] || why="$why; no located diagnostic"
  if [ -f "$base.err" ]; then
    cmp -s "$tmp/got" "$base.err" || why="$why; diagnostics differ: $(diff "$base.err" "$tmp/got" | head -5 | tr '\n' ' ')"
  else
    why="$why; no golden $base.err"
  fi
  rm -f "$tmp/out.c" "$tmp/out.h" "$tmp"/out.c.tmp*
  if [ -n "$why" ]; then
    echo "FAIL $f: $why"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
echo "errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
