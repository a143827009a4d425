#!/usr/bin/env python3
"""Injection attempts through every field of a model that reaches generated C (plain python3).

`inject.py gen DIR` writes model files whose node sources (TorchScript `# ...` comments, JSON
"source"), value names and string constants (the message and class of prim::RaiseException)
(value names are refused unless they are letters, digits, '_' and '.') carry text meant to end a comment or a string literal and run code: `*/ puts("PWNED"); /*`,
quotes, backslashes, a backslash at the end of a line, the trigraph ??/, newlines, control and
non-UTF-8 bytes. `inject.py check FILE.c` tokenizes generated C (comments already removed by
`cc -fpreprocessed -E`, read from stdin) and fails when a token of the payload (PWNED, puts,
pwned_marker) appears outside a string literal, or a string literal holds "PWNED" split from
what mc wrote (a literal that ended early).
"""
import json
import os
import re
import sys

PAYLOADS = [
    '*/ puts("PWNED"); /*',
    '*/ int pwned_marker = 1; /*',
    '"); puts("PWNED"); ("',
    '\\"); puts(\\"PWNED\\"); (\\"',
    '??/\n puts("PWNED");',
    'end of line \\\n puts("PWNED");',
    '\\',
    '??/',
    '?\?=define puts PWNED ??)',
    '*/\n#define pwned_marker 1\n/*',
    'tab\there\rcr\x01\x1f\x7f',
    'utf8 \u00e9\u2028\u2029 */ puts("PWNED"); /*',
    '%s%n%x',
    'nul\x00 */ puts("PWNED"); /*',
]


def json_model(payload):
    p = payload
    nodes = [
        {"kind": "prim::Constant", "inputs": [], "outputs": [{"name": "zero", "type": "int"}],
         "attrs": {"value": {"type": "int", "value": 0}}},
        {"kind": "prim::Constant", "inputs": [], "outputs": [{"name": "msg", "type": "str"}],
         "attrs": {"value": {"type": "str", "value": "msg " + p}}},
        {"kind": "prim::Constant", "inputs": [], "outputs": [{"name": "cls", "type": "str"}],
         "attrs": {"value": {"type": "str", "value": "builtins.ValueError" + p}}},
        {"kind": "aten::sum", "inputs": ["x"], "outputs": [{"name": "s", "type": "Tensor"}],
         "source": p},
        {"kind": "aten::lt", "inputs": ["s", "zero"], "outputs": [{"name": "neg", "type": "Tensor"}],
         "source": "model.py:3:4 " + p},
        {"kind": "aten::Bool", "inputs": ["neg"], "outputs": [{"name": "c", "type": "bool"}], "source": p},
        {"kind": "prim::If", "inputs": ["c"], "outputs": [], "source": p, "blocks": [
            {"inputs": [], "nodes": [{"kind": "prim::RaiseException", "inputs": ["msg", "cls"], "outputs": [],
                                      "source": p}], "outputs": []},
            {"inputs": [], "nodes": [], "outputs": []}]},
        {"kind": "aten::relu", "inputs": ["x"], "outputs": [{"name": "y", "type": "Tensor"}],
         "source": p},
    ]
    return {"format": "mc-graph", "version": 1,
            "graph": {"inputs": [{"name": "x", "type": "Tensor", "dtype": "float32", "shape": [2, 3]}],
                      "nodes": nodes, "outputs": ["y"]}}


def ts_comment(payload):
    """A TorchScript dump whose `# ...` source comments carry the payload (one line: the
    comment ends at the newline, so newlines are shown as spaces)."""
    p = payload.replace("\n", " ").replace("\r", " ")
    t = "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"
    return ("graph(%%x : %s):\n"
            "  %%1 : int = prim::Constant[value=1]() # %s\n"
            "  %%y : %s = aten::add(%%x, %%x, %%1) # m.py:3:4 %s\n"
            "  %%z : %s = aten::relu(%%y) # %s\n"
            "  return (%%z)\n") % (t, p, t, p, t, p)


def gen(d):
    os.makedirs(d, exist_ok=True)
    names = []
    for i, p in enumerate(PAYLOADS):
        fn = os.path.join(d, "inj_json_%02d.json" % i)
        with open(fn, "w", encoding="utf-8") as f:
            json.dump(json_model(p), f)
        names.append(fn)
        fn = os.path.join(d, "inj_ts_%02d.txt" % i)
        with open(fn, "wb") as f:
            f.write(ts_comment(p).encode("utf-8"))
        names.append(fn)
    # bytes JSON cannot hold as text: a raw 0xff in a TorchScript comment
    fn = os.path.join(d, "inj_ts_bytes.txt")
    with open(fn, "wb") as f:
        f.write(ts_comment("x").encode().replace(b"# x", b"# \xff\xfe */ puts(\"PWNED\"); /* \xc3(", 1))
    names.append(fn)
    print("\n".join(names))


TOKEN = re.compile(r'''
    (?P<str>L?"(?:[^"\\\n]|\\.)*")
  | (?P<chr>L?'(?:[^'\\\n]|\\.)*')
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<ws>\s+)
  | (?P<other>.)
''', re.X | re.S)

BAD_IDS = {"PWNED", "puts", "pwned_marker"}


def check(src):
    bad = []
    for m in TOKEN.finditer(src):
        if m.lastgroup == "id" and m.group() in BAD_IDS:
            line = src.count("\n", 0, m.start()) + 1
            bad.append("line %d: token %s outside a string literal" % (line, m.group()))
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    else:
        errs = check(sys.stdin.read())
        for e in errs[:10]:
            print(sys.argv[2] + ": " + e)
        sys.exit(1 if errs else 0)
