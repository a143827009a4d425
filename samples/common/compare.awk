# compare.awk — `awk -f compare.awk EXPECTED GOT`: the samples' test. Line by line, field by
# field: two numbers agree within 1e-4 relative (plus 1e-5 absolute), anything else exactly.
# Prints the first difference and exits 1; prints "ok: N lines" and exits 0 when all agree.
function isnum(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function abs(v) { return v < 0 ? -v : v }
NR == FNR { want[FNR] = $0; n = FNR; next }
{
  got = FNR
  if (FNR > n) { printf "%s:%d: unexpected line: %s\n", FILENAME, FNR, $0; bad = 1; exit 1 }
  nw = split(want[FNR], w, " ")
  if (nw != NF) { printf "%s:%d: got '%s', expected '%s'\n", FILENAME, FNR, $0, want[FNR]; bad = 1; exit 1 }
  for (i = 1; i <= NF; i++) {
    if (isnum(w[i]) && isnum($i)) {
      if (abs($i - w[i]) <= 1e-5 + 1e-4 * abs(w[i])) continue
    } else if ($i == w[i]) continue
    printf "%s:%d: field %d is %s, expected %s\n", FILENAME, FNR, i, $i, w[i]; bad = 1; exit 1
  }
}
END {
  if (bad) exit 1
  if (got != n) { printf "%s: %d lines, expected %d\n", FILENAME, got, n; exit 1 }
  printf "ok: %d lines agree with the expected output\n", n
}
