#!/bin/sh
# emit.sh — dead code is absent from what mc finally prints and emits, not only from the IR
# right after the dce pass: compiles tests/dce/dead_pure.txt (`torch.exp(x) * 3` never used)
# and dead_local.txt (`t = x.clone(); t.add_(1)`, t never read) with the default pipeline and
# checks that neither the final --dump-ir nor the generated run function contains them, while
# the live `x * 2` stays; print_dead_scripted.txt must keep its prim::Print and the exp it
# prints. Each generated file must compile with -std=c11 -Wall -Wextra -Werror.
# Usage: sh tests/dce/emit.sh   (from the repository root; MC, BUILD, CC as in run_e2e.sh)
set -eu
MC=${MC:-build/mc}
BUILD=${BUILD:-build}
CC=${CC:-cc}
OUT="$BUILD/dce-emit"
mkdir -p "$OUT"
fail=0
# the generated run function: the kernels pasted above it name every op of the table
run_fn() { sed -n '/^\/\* ---- run ---- \*\//,$p' "$1"; }
# check NAME ABSENT_IN_IR ABSENT_IN_C PRESENT_IN_IR... (PRESENT_IN_C... after a lone "--")
check() {
  name=$1 no_ir=$2 no_c=$3
  shift 3
  "$MC" compile "tests/dce/$name.txt" -o "$OUT/$name.c" --name "$name" --dump-ir=after 2>"$OUT/$name.ir"
  run_fn "$OUT/$name.c" >"$OUT/$name.run.c"
  if grep -Eq "$no_ir" "$OUT/$name.ir"; then
    echo "FAIL $name: the final IR still has $(grep -Eo "$no_ir" "$OUT/$name.ir" | head -1)"
    fail=1
  fi
  if grep -Eq "$no_c" "$OUT/$name.run.c"; then
    echo "FAIL $name: the emitted C still has $(grep -Eo "$no_c" "$OUT/$name.run.c" | head -1)"
    fail=1
  fi
  where=ir
  for re in "$@"; do
    if [ "$re" = -- ]; then
      where=run.c
      continue
    fi
    if ! grep -Eq "$re" "$OUT/$name.$where"; then
      echo "FAIL $name: $re is missing from $OUT/$name.$where"
      fail=1
    fi
  done
  "$CC" -std=c11 -Wall -Wextra -Werror -Iruntime -I"$OUT" -Wa,-I"$OUT" -c "$OUT/$name.c" -o "$OUT/$name.o"
  [ $fail -ne 0 ] || echo "ok   dce emit $name"
}
check dead_pure 'aten::exp|%three' 'mck_exp\(|INT64_C\(3\)' 'aten::mul\(%x' -- 'mck_mul\('
check dead_local 'aten::clone|aten::add' 'mck_clone\(|mck_add_?\(|mck_copy' 'aten::mul\(%x' -- 'mck_mul\('
check print_dead_scripted 'NONE^' 'NONE^' 'prim::Print' 'aten::exp' -- 'mck_exp\('
exit $fail
