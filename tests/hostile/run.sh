#!/bin/sh
# Hostile inputs beyond tests/errors: what a model file or an odd command line must never do.
#  - injection: text from the model (sources, strings) and odd file names never become code in
#    the generated C: its tokens hold no payload identifier outside a string literal, it builds
#    with -Wall -Wextra -Werror (gcc and clang, C99 and C11, trigraphs on) and runs;
#  - reading: FIFOs, devices, directories, huge sparse files and files beyond
#    --max-input-bytes are refused quickly with exit status 1;
#  - writing: an output that is an input (also through a symlink or a hard link) or not a
#    regular file is refused, and the input is intact; output names that cannot be written in
#    #include "..." are usage errors;
#  - interrupted compiles: SIGTERM/SIGINT (and on Linux SIGKILL) leave no temporary, and a
#    mixed set of outputs fails to build or to create with a clear message.
# Env: MC (mc binary), BUILD (for libmcrt.a), CC, CLANG (optional second compiler), SAN (the
# sanitizer flags libmcrt.a was built with, as in `make asan`).
MC=${MC:-build/mc}
BUILD=${BUILD:-build}
CC=${CC:-cc}
CLANG=${CLANG:-$(command -v clang)}
PY=${PYTHON3:-python3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
case $MC in /*) ;; *) MC=$root/$MC ;; esac
case $BUILD in /*) ;; *) BUILD=$root/$BUILD ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# expect STATUS TEXT CMD...: runs CMD (10 s at most), wants exit STATUS and TEXT on stderr
expect() {
  want=$1 text=$2
  shift 2
  timeout 10 "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  rc=$?
  if [ "$rc" != "$want" ]; then
    bad "$*: exit status $rc, expected $want: $(head -c 300 "$tmp/err.txt")"
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/err.txt"; then
    bad "$*: stderr lacks '$text': $(head -c 300 "$tmp/err.txt")"
  else
    ok
  fi
}
build() { # build C_FILE NAME NX NY OUT: links the model with tests/hostile/main.c
  (cd "$(dirname "$1")" && ${BUILDCC:-$CC} ${SAN:-} -std=c11 -O0 -Wall -Wextra -Werror -I"$root/runtime" -I. -DMC_CREATE="$2"_create \
    -DNX="$3" -DNY="$4" "$(basename "$1")" "$here/main.c" "$BUILD/libmcrt.a" -lm -lpthread -o "$5") 2>"$tmp/cc.txt"
}

# ---- injection -----------------------------------------------------------------------------
mkdir -p "$tmp/inj"
$PY "$here/inject.py" gen "$tmp/inj" >"$tmp/models.txt"
while read -r f; do
  c=${f%.*}.c
  "$MC" compile "$f" -o "$c" 2>"$tmp/err.txt"
  rc=$?
  if [ $rc = 1 ] && [ ! -e "$c" ] && grep -q ': error: ' "$tmp/err.txt"; then
    ok # refused cleanly (a NUL in a JSON string)
    continue
  elif [ $rc != 0 ]; then
    bad "$f: mc compile: exit status $rc: $(head -c 300 "$tmp/err.txt")"
    continue
  fi
  for src in "$c" "${f%.*}.h"; do
    if ! gcc -fpreprocessed -E -P "$src" -o "$tmp/tokens.i" 2>"$tmp/cc.txt" ||
      ! $PY "$here/inject.py" check "$src" <"$tmp/tokens.i"; then
      bad "$src: payload outside a literal $(head -c 300 "$tmp/cc.txt")"
    else
      ok
    fi
  done
  if $CC -std=c99 -trigraphs -Wall -Wextra -Werror -fsyntax-only -I"$root/runtime" -I"$tmp/inj" "$c" 2>"$tmp/cc.txt"; then ok
  else bad "$c: $CC -std=c99: $(head -c 400 "$tmp/cc.txt")"; fi
  if [ -n "$CLANG" ]; then
    if $CLANG -std=c11 -trigraphs -Wall -Wextra -Werror -fsyntax-only -I"$root/runtime" -I"$tmp/inj" "$c" 2>"$tmp/cc.txt"; then ok
    else bad "$c: clang: $(head -c 400 "$tmp/cc.txt")"; fi
  fi
done <"$tmp/models.txt"
# the CUDA target writes the same text the same way: every model the C target took (device
# code, or the C target's code pasted as host C++ for the ones it runs whole on the host)
while read -r f; do
  [ -e "${f%.*}.c" ] || continue
  n=$(basename "${f%.*}")
  cu=$tmp/inj/cu_$n.cu
  if ! "$MC" compile "$f" --target cuda -o "$cu" 2>"$tmp/err.txt"; then
    bad "$n: mc compile --target cuda: $(head -c 300 "$tmp/err.txt")"
    continue
  fi
  if gcc -x c -fpreprocessed -E -P "$cu" -o "$tmp/tokens.i" 2>"$tmp/cc.txt" && $PY "$here/inject.py" check "$cu" <"$tmp/tokens.i"; then ok
  else bad "$cu: payload outside a literal"; fi
  if [ -f "$root/runtime/mc_cuda_emu.h" ] && command -v c++ >/dev/null; then
    if c++ -std=c++17 -DMC_CUDA_EMULATE -Wall -Wextra -Werror -x c++ -fsyntax-only -I"$root/runtime" -I"$tmp/inj" "$cu" 2>"$tmp/cc.txt"; then ok
    else bad "$cu: c++ (CUDA emulation): $(head -c 400 "$tmp/cc.txt")"; fi
  fi
done <"$tmp/models.txt"
# run three of them: the payload never runs, and a raised message keeps its bytes
for n in inj_json_00 inj_json_08 inj_ts_bytes; do
  if ! build "$tmp/inj/$n.c" "$n" 2 3 "$tmp/inj/$n.run"; then
    bad "$n: build: $(head -c 400 "$tmp/cc.txt")"
    continue
  fi
  "$tmp/inj/$n.run" 0 >"$tmp/out.txt" 2>&1
  if grep -q PWNED "$tmp/out.txt" || ! grep -q '^ok' "$tmp/out.txt"; then bad "$n run: $(cat "$tmp/out.txt")"; else ok; fi
done
"$tmp/inj/inj_json_00.run" -1 >"$tmp/out.txt" 2>&1
if grep -qF 'msg */ puts("PWNED"); /*' "$tmp/out.txt"; then ok; else bad "raised message changed: $(cat "$tmp/out.txt")"; fi

# odd file names: the model's name reaches comments and strings; output names the header
mkdir -p "$tmp/odd"
odd=$(printf 'm \\ ??= ??) \342\200\250 \377 * \042 %%s\nx.txt')
sed -n '1,99p' "$tmp/inj/inj_ts_00.txt" >"$tmp/odd/$odd"
if (cd "$tmp/odd" && "$MC" compile "$odd" -o model.c 2>"$tmp/err.txt") &&
  gcc -fpreprocessed -E -P "$tmp/odd/model.c" -o "$tmp/tokens.i" 2>/dev/null && $PY "$here/inject.py" check odd <"$tmp/tokens.i" &&
  build "$tmp/odd/model.c" model 2 3 "$tmp/odd/run" && "$tmp/odd/run" >/dev/null; then ok
else bad "odd model name: $(head -c 300 "$tmp/err.txt") $(head -c 300 "$tmp/cc.txt")"; fi
cp "$tmp/inj/inj_ts_00.txt" "$tmp/odd/m.txt"
for o in 'a"b.c' "$(printf 'a\nb.c')" 'a\b.c' "q'.c" 'a??=b.c' "$(printf 'tab\there.c')"; do
  expect 2 "cannot be written in #include" "$MC" compile "$tmp/odd/m.txt" -o "$tmp/odd/$o"
done
for o in 'sp ace.c' 'caf\303\251.c' 'a?b.c' 'x%s.c'; do
  o=$(printf "$o")
  stem=${o%.c}
  if "$MC" compile "$tmp/odd/m.txt" -o "$tmp/odd/$o" 2>"$tmp/err.txt" &&
    name=$(echo "$stem" | LC_ALL=C sed 's/[^A-Za-z0-9_]/_/g') && build "$tmp/odd/$o" "$name" 2 3 "$tmp/odd/run" &&
    "$tmp/odd/run" >/dev/null; then ok
  else bad "output '$o': $(head -c 300 "$tmp/err.txt") $(head -c 300 "$tmp/cc.txt")"; fi
done
for n in 'a*/b' 'x"y' "$(printf 'n\nl')" '9lives' ''; do
  expect 2 "is not a C identifier" "$MC" compile "$tmp/odd/m.txt" -o "$tmp/odd/n.c" --name "$n"
done
# -o - stays allowed: the source on stdout, no file at all
mkdir -p "$tmp/stdout"
if (cd "$tmp/stdout" && "$MC" compile "$tmp/odd/m.txt" -o - >"$tmp/stdout.c" 2>"$tmp/err.txt") &&
  [ -z "$(ls "$tmp/stdout")" ] && grep -q '_create' "$tmp/stdout.c"; then ok
else bad "-o -: $(head -c 300 "$tmp/err.txt")"; fi
# an odd name in the assembler's .incbin string (a weights file): gcc and clang
$PY "$here/gen_models.py" weights "$tmp/odd" wodd 7
for BUILDCC in "$CC" $CLANG; do
  if "$MC" compile "$tmp/odd/wodd.json" -o "$tmp/odd/w?x y%s.c" 2>"$tmp/err.txt" && [ -s "$tmp/odd/w?x y%s.weights" ] &&
    build "$tmp/odd/w?x y%s.c" w_x_y_s 128 128 "$tmp/odd/wrun" && [ "$("$tmp/odd/wrun")" = "ok 7" ]; then ok
  else bad "weights file with an odd name ($BUILDCC): $(head -c 300 "$tmp/err.txt") $(head -c 300 "$tmp/cc.txt")"; fi
done
BUILDCC=
ls "$tmp/odd" | grep -q 'tmp' && bad "odd names: temporary left behind"

# ---- reading -------------------------------------------------------------------------------
mkdir -p "$tmp/rd"
cp "$tmp/inj/inj_ts_00.txt" "$tmp/rd/m.txt"
mkfifo "$tmp/rd/fifo.txt"
expect 1 "not a regular file (a character device)" "$MC" compile /dev/zero -o "$tmp/rd/o.c"
expect 1 "not a regular file (a FIFO)" "$MC" compile "$tmp/rd/fifo.txt" -o "$tmp/rd/o.c"
expect 1 "not a regular file (a directory)" "$MC" compile "$tmp/rd" -o "$tmp/rd/o.c"
expect 1 "not a regular file (a FIFO)" "$MC" run "$tmp/rd/m.txt" "$tmp/rd/fifo.txt" -o "$tmp/rd/out"
for w in /dev/zero /dev/urandom "$tmp/rd/fifo.txt"; do
  $PY "$here/gen_models.py" declared "$tmp/rd" dev "$w" 65536
  expect 1 "cannot read weights file" "$MC" compile "$tmp/rd/dev.json" -o "$tmp/rd/o.c"
done
truncate -s 3G "$tmp/rd/sparse.txt"
expect 1 "more than a model file may have" "$MC" compile "$tmp/rd/sparse.txt" -o "$tmp/rd/o.c"
expect 1 "more than a model file may have" "$MC" compile "$tmp/rd/sparse.txt" -o "$tmp/rd/o.c" --max-input-bytes 8G
truncate -s 3G "$tmp/rd/sparse.bin"
$PY "$here/gen_models.py" declared "$tmp/rd" sparse sparse.bin 16
expect 1 "has 3221225472 bytes, but the JSON says 16" "$MC" compile "$tmp/rd/sparse.json" -o "$tmp/rd/o.c"
$PY "$here/gen_models.py" weights "$tmp/rd" w 1
expect 1 "--max-input-bytes" "$MC" compile "$tmp/rd/w.json" -o "$tmp/rd/o.c" --max-input-bytes 64K
expect 0 "" "$MC" compile "$tmp/rd/w.json" -o "$tmp/rd/o.c" --max-input-bytes=1M
expect 2 "--max-input-bytes" "$MC" compile "$tmp/rd/w.json" -o "$tmp/rd/o.c" --max-input-bytes=lots
ls "$tmp/rd" | grep -q 'tmp' && bad "reading: temporary left behind"

# ---- writing -------------------------------------------------------------------------------
mkdir -p "$tmp/wr"
cd "$tmp/wr" || exit 1
cp "$tmp/inj/inj_ts_00.txt" m.txt
cp m.txt m.h
cp m.txt keep
ln -s m.txt link.c
ln m.txt hard.c
expect 1 "it is the input file" "$MC" compile m.txt -o m.txt
expect 1 "it is the input file" "$MC" compile m.h -o m.c
expect 1 "it is the input file" "$MC" compile m.txt -o link.c
expect 1 "it is the input file" "$MC" compile m.txt -o hard.c
expect 1 "it is the input file" "$MC" compile m.txt -o o.c -MF m.txt
expect 1 "it is the input file" "$MC" compile m.txt -o ./m.txt
expect 1 "not a regular file" "$MC" compile m.txt -o /dev/null
mkdir dir.c
expect 1 "not a regular file" "$MC" compile m.txt -o dir.c
expect 2 "would both be" "$MC" compile m.txt -o x.h
expect 2 "would both be" "$MC" compile m.txt -o o.c -MF o.h
expect 2 "would both be" "$MC" compile m.txt -o o.c -MF ./o.c
for f in m.txt m.h link.c hard.c; do cmp -s "$f" keep || bad "input $f changed"; done
[ -c /dev/null ] || bad "/dev/null is no longer a character device"
[ -e m.c ] && bad "m.c written although its header would replace the model"
# a weights file that is the output's .weights: refused, intact; inline weights leave it alone
$PY "$here/gen_models.py" weights . clash 3
mv clash.bin clash.weights
sed 's/clash.bin/clash.weights/' clash.json >c2 && mv c2 clash.json
cp clash.weights clash.keep
expect 1 "it is the input file 'clash.weights'" "$MC" compile clash.json -o clash.c
expect 0 "" "$MC" compile clash.json -o clash.c --weights=inline
cmp -s clash.weights clash.keep && ok || bad "clash.weights changed"
ls | grep -q 'tmp' && bad "writing: temporary left behind"
# mc run never writes its results over an input
mkdir -p runout
$PY -c 'import struct,sys; h=b"{'"'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), "'}"; h+=b" "*(63-10-len(h))+b"\n"; sys.stdout.buffer.write(b"\x93NUMPY\x01\x00"+struct.pack("<H",len(h))+h+bytes(24))' >in.npy
ln in.npy runout/output_0.npy
cp in.npy in.keep
expect 1 "it is the input file 'in.npy'" "$MC" run m.txt in.npy -o runout --interp
cmp -s runout/output_0.npy in.keep && ok || bad "mc run replaced its input"

# ---- interrupted compiles ------------------------------------------------------------------
mkdir -p "$tmp/sig"
cd "$tmp/sig" || exit 1
$PY "$here/gen_models.py" weights . big 1 16384 # 8 MiB of weights, written inline: seconds of output
for s in TERM INT KILL; do
  # mc is watched from one process (no fork per poll: the write may take only a fraction of a
  # second) and signalled as soon as it is seen writing: a named temporary in the folder, or
  # (Linux, O_TMPFILE) an unnamed one open in /proc/PID/fd. SIGINT is reset to its default (a
  # background job of a script starts with it ignored, and mc then keeps it so).
  set -- $($PY - "$MC" "$s" <<'PYEOF'
import os, signal, subprocess, sys, time
mc, sig = sys.argv[1], getattr(signal, "SIG" + sys.argv[2])
p = subprocess.Popen([mc, "compile", "big.json", "-o", "big.c", "--weights=inline"],
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
seen, named, t0 = 0, 0, time.monotonic()
while time.monotonic() - t0 < 20 and p.poll() is None:
    named = sum("tmp" in f for f in os.listdir("."))
    try:
        fds = [os.readlink("/proc/%d/fd/%s" % (p.pid, f)) for f in os.listdir("/proc/%d/fd" % p.pid)]
    except OSError:
        fds = []
    if named or any(f.endswith("(deleted)") for f in fds):
        seen = 1
        break
    time.sleep(0.001)
if seen:
    p.send_signal(sig)
rc = p.wait()
print(seen, named, 128 - rc if rc < 0 else rc)
PYEOF
)
  seen=$1 named=$2 rc=$3
  i=$((seen ? 0 : 400))
  if [ $i -ge 400 ]; then bad "SIG$s: the compile was never seen writing"
  elif [ $rc -lt 128 ]; then bad "SIG$s: exit status $rc"
  elif [ $s = KILL ] && [ "$named" -gt 0 ]; then ok # no O_TMPFILE here: SIGKILL cannot be cleaned up after
  elif ls | grep -q 'tmp'; then bad "SIG$s: temporaries left: $(ls | grep tmp)"
  elif [ -e big.c ] || [ -e big.h ]; then bad "SIG$s: outputs written"
  else ok; fi
done
# a mixed set of outputs: an old header, an old C file or an old weights file beside new ones
$PY "$here/gen_models.py" weights . mix 5
"$MC" compile mix.json -o mix.c || bad "mix: compile 1"
cp mix.c old.c
cp mix.h old.h
cp mix.weights old.weights
$PY "$here/gen_models.py" weights . mix 6
"$MC" compile mix.json -o mix.c || bad "mix: compile 2"
if build mix.c mix 128 128 run && [ "$(./run)" = "ok 6" ]; then ok; else bad "mix: consistent set: $(head -c 300 "$tmp/cc.txt")"; fi
cp old.c mix.c
if build mix.c mix 128 128 run; then bad "mix: old .c with new .h built"
elif grep -q "mix.h is not the header mc wrote with this file" "$tmp/cc.txt"; then ok
else bad "mix: old .c, new .h: $(head -c 300 "$tmp/cc.txt")"; fi
cp old.h mix.h
if build mix.c mix 128 128 run && [ "$(./run 2>"$tmp/err.txt")" = "create failed" ] &&
  grep -q "mix.weights is not the weights file mc wrote with this model's C file" "$tmp/err.txt"; then ok
else bad "mix: old .c/.h, new .weights: $(head -c 300 "$tmp/cc.txt") $(head -c 300 "$tmp/err.txt")"; fi
head -c 1000 old.weights >mix.weights
if build mix.c mix 128 128 run && [ "$(./run 2>/dev/null)" != "create failed" ]; then bad "mix: truncated weights ran"; else ok; fi

echo "hostile: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
