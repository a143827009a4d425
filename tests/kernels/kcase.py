"""kcase.py — the writer of kernel numeric test cases (read by tests/check_kernels.c).

A family's cases file (tests/kernels/cases_<family>.py) defines `cases(w)` and calls

    w.case(op, inputs, outputs, tol=1e-5, mutated=())
    w.error(op, inputs, check=None)

`op` is the TorchScript op name ("aten::add"); `inputs` the positional node inputs: torch
tensors of any supported dtype (views are written with their storage, offset and strides, and
inputs that share a storage share it in the C test too), Python int/float/bool, None, str,
torch.dtype (written as its c10::ScalarType code), torch.device, torch.memory_format /
torch.layout (as their int codes), lists of ints/floats/bools, lists of tensors (None items
allowed). `outputs` are the expected results computed by PyTorch: a tensor or scalar, or a
list/tuple of them (an item that is itself a list/tuple of tensors is one Tensor[] output);
or a callable, called with a private copy of the inputs (same strides and aliasing), whose
return value gives the outputs. `mutated` lists input indices whose final values are compared
too: with a callable they are read after the call; otherwise the writer runs
torch.ops.aten.<name> on a copy of the inputs to get them. `w.error` records a case PyTorch
rejects (verified by calling torch.ops.aten.<name>, or `check`): the kernel must fail (in meta
or real mode).

File format (one record per line, tokens separated by single spaces):
    case <op> <tol> <where>            where = cases file:line of the w.case call
    S <sid> <dtype> <n> v0 v1 ...      a storage of n elements (mck dtype names)
    I <arg> / O <arg>                  an input / an expected output, in order
    M <input index> <sid>              final values of a mutated input (contiguous)
    X                                  the kernel must fail
    E                                  end of case
<arg>: T <sid> <offset> <ndim> sizes... strides...   (input tensor)
       T <sid> <ndim> sizes... A <sid> <offset> strides...  (output aliasing input storage sid)
       T <sid> <ndim> sizes... -                       (fresh output; values in sid, contiguous)
       TL <n> items (input items as T without the tag, or `-` for None;
                     output items as <sid> <ndim> sizes...)
       i <int> | f <float> | b <0|1> | n | s <%-escaped str> | d <device str>
       il <n> ints... | fl <n> floats... | bl <n> 0|1...
Floats are written with repr (nan, inf, -inf), so float32/float64 values round-trip exactly.
"""
import inspect
import math
import os

import torch

DTYPES = {
    torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
    torch.bfloat16: "bfloat16", torch.int64: "int64", torch.int32: "int32",
    torch.int16: "int16", torch.int8: "int8", torch.uint8: "uint8", torch.bool: "bool",
}
SCALAR_TYPE = {
    torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4,
    torch.float16: 5, torch.float32: 6, torch.float64: 7, torch.bool: 11, torch.bfloat16: 15,
}
MEMORY_FORMAT = {torch.contiguous_format: 0, torch.preserve_format: 1,
                 torch.channels_last: 2, torch.channels_last_3d: 3}


def _fnum(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)


def _vals(t):
    """Elements of tensor t (any layout) in row-major order, as text tokens."""
    flat = t.detach().reshape(-1).tolist()
    if t.dtype == torch.bool:
        return ["1" if x else "0" for x in flat]
    if t.dtype.is_floating_point:
        return [_fnum(x) for x in flat]
    return [str(int(x)) for x in flat]


def _esc(s):
    out = []
    for ch in s:
        if ch.isalnum() or ch in "_.,:;<>-+*/()[]{}=!?'\"@#$^&|~`":
            out.append(ch)
        else:
            out.extend("%%%02X" % b for b in ch.encode("utf-8"))
    return "".join(out) if out else "%00"


def _skey(t):
    return (t.storage().data_ptr(), t.dtype)


def _extent(t):
    if t.numel() == 0:
        return 0
    return t.storage_offset() + sum((s - 1) * st for s, st in zip(t.shape, t.stride())) + 1


def _tensors_in(xs):
    for x in xs:
        if isinstance(x, torch.Tensor):
            yield x
        elif isinstance(x, (list, tuple)):
            for y in x:
                if isinstance(y, torch.Tensor):
                    yield y


def _copy_inputs(inputs, keymap=None):
    """A private copy of inputs: every storage cloned once, views rebuilt on the clones.
    keymap, if given, receives {clone storage key: original storage key}."""
    clones = {}

    def cp(t):
        k = _skey(t)
        if k not in clones:
            st = t.storage()
            flat = torch.empty(0, dtype=t.dtype).set_(st, 0, (st.size(),), (1,))
            clones[k] = flat.clone()
            if keymap is not None:
                keymap[_skey(clones[k])] = k
        base = clones[k]
        return torch.empty(0, dtype=t.dtype).set_(base.storage(), t.storage_offset(), t.size(),
                                                  t.stride())

    out = []
    for x in inputs:
        if isinstance(x, torch.Tensor):
            out.append(cp(x))
        elif isinstance(x, (list, tuple)) and any(isinstance(y, torch.Tensor) for y in x):
            out.append([cp(y) if isinstance(y, torch.Tensor) else y for y in x])
        else:
            out.append(x)
    return out


def _aten(op):
    ns, name = op.split("::")
    return getattr(getattr(torch.ops, ns), name)


def _check_dtype(t):
    if t.dtype not in DTYPES:
        raise TypeError("kcase: unsupported dtype %s" % t.dtype)


def _nontrivial(t):
    """Whether t's strides say anything about its layout (two or more extents above 1)."""
    return t.numel() > 0 and sum(1 for s in t.shape if s > 1) >= 2


class Writer:
    """Writes the cases to f. `layouts` collects, per op, what PyTorch's results showed of
    their layout (tests/ops/kernel_layouts.py checks the op table's rows against it):
    {op: {fact: where}} with the facts
      noncontig_from_contig  a fresh result that is not contiguous although every tensor input is
      noncontig_low          the same with every tensor input of rank >= 3 contiguous
      noncontig_any          a fresh result that is not contiguous
      view                   a result that shares an input's storage"""

    def __init__(self, f):
        self.f = f
        self.ncases = 0
        self.counts = {}
        self.layouts = {}

    def _layout(self, op, where, inputs, outputs):
        ins = list(_tensors_in(inputs))
        keys = {_skey(t) for t in ins}
        all_c = all(t.is_contiguous() for t in ins)
        low_c = all(t.is_contiguous() for t in ins if t.dim() >= 3)
        facts = self.layouts.setdefault(op, {})
        for o in outputs:
            if not isinstance(o, torch.Tensor):
                continue
            if _skey(o) in keys and o.numel() > 0:
                facts.setdefault("view", where)
                continue
            if not _nontrivial(o) or o.is_contiguous():
                continue
            facts.setdefault("noncontig_any", where)
            if low_c:
                facts.setdefault("noncontig_low", where)
            if all_c:
                facts.setdefault("noncontig_from_contig", where)

    def _where(self):
        """file:line of the w.case call, and of its caller in the same file (helpers)."""
        frames = [fr for fr in inspect.stack(0)[2:] if os.path.basename(fr.filename) != "kcase.py"]
        if not frames:
            return "?"
        f0 = os.path.basename(frames[0].filename)
        where = "%s:%d" % (f0, frames[0].lineno)
        if len(frames) > 1 and os.path.basename(frames[1].filename) == f0 and frames[1].function != "cases":
            where += "<%d" % frames[1].lineno
        return where

    def case(self, op, inputs, outputs, tol=1e-5, mutated=()):
        where = self._where()
        inputs = list(inputs)
        mutated = list(mutated)
        finals = {}
        keymap = {}
        if callable(outputs):
            inputs = _copy_inputs(inputs)
            run = _copy_inputs(inputs, keymap)
            outputs = outputs(*run)
            for k in mutated:
                finals[k] = run[k]
        elif mutated:
            run = _copy_inputs(inputs)
            _aten(op)(*run)
            for k in mutated:
                finals[k] = run[k]
        if isinstance(outputs, (list, tuple)):
            outputs = list(outputs)
        else:
            outputs = [outputs]
        self._layout(op, where, run if keymap else inputs, outputs)
        self._emit(op, tol, where, inputs, outputs, finals, False, keymap)

    def error(self, op, inputs, check=None):
        """A case PyTorch rejects: the kernel must fail too. The writer checks that PyTorch
        fails: torch.ops.aten.<name>(*inputs), or check(*inputs) when given."""
        where = self._where()
        snap = _copy_inputs(list(inputs))
        try:
            (check or _aten(op))(*_copy_inputs(snap))
        except Exception:  # noqa: BLE001 - any PyTorch error is the point
            pass
        else:
            raise AssertionError("%s: %s did not fail in PyTorch" % (where, op))
        self._emit(op, 0, where, snap, [], {}, True, {})

    def _emit(self, op, tol, where, inputs, outputs, finals, expect_error, keymap):
        lines = ["case %s %s %s" % (op, _fnum(tol), where)]
        sids = {}
        extents = {}
        for t in _tensors_in(inputs):
            _check_dtype(t)
            k = _skey(t)
            if k not in sids:
                sids[k] = len(sids)
                extents[k] = 0
            extents[k] = max(extents[k], _extent(t))
        storages = []
        for k, sid in sorted(sids.items(), key=lambda kv: kv[1]):
            t = next(x for x in _tensors_in(inputs) if _skey(x) == k)
            n = extents[k]
            flat = torch.empty(0, dtype=t.dtype).set_(t.storage(), 0, (n,), (1,))
            storages.append((sid, flat))
        nsid = [len(sids)]

        def fresh(t):
            _check_dtype(t)
            sid = nsid[0]
            nsid[0] += 1
            storages.append((sid, t.detach().contiguous().reshape(-1)))
            return sid

        def tin(t):
            return "%d %d %d %s" % (sids[_skey(t)], t.storage_offset(), t.dim(),
                                    " ".join([str(s) for s in t.shape] +
                                             [str(s) for s in t.stride()]))

        def arg(x, is_out):
            if isinstance(x, torch.Tensor):
                if not is_out:
                    return "T " + tin(x)
                sid = fresh(x)
                s = "T %d %d" % (sid, x.dim())
                if x.dim():
                    s += " " + " ".join(str(v) for v in x.shape)
                k = _skey(x)
                k = keymap.get(k, k)
                if k in sids and x.numel() > 0:
                    s += " A %d %d" % (sids[k], x.storage_offset())
                    if x.dim():
                        s += " " + " ".join(str(v) for v in x.stride())
                else:
                    s += " -"
                return s
            if isinstance(x, bool):
                return "b %d" % int(x)
            if isinstance(x, int):
                return "i %d" % x
            if isinstance(x, float):
                return "f " + _fnum(x)
            if x is None:
                return "n"
            if isinstance(x, str):
                return "s " + _esc(x)
            if isinstance(x, torch.dtype):
                return "i %d" % SCALAR_TYPE[x]
            if isinstance(x, torch.memory_format):
                return "i %d" % MEMORY_FORMAT[x]
            if isinstance(x, torch.layout):
                return "i 0"
            if isinstance(x, torch.device):
                return "d " + _esc(str(x))
            if isinstance(x, (list, tuple)):
                xs = list(x)
                if any(isinstance(y, torch.Tensor) for y in xs):
                    items = []
                    for y in xs:
                        if y is None:
                            items.append("-")
                        elif is_out:
                            sid = fresh(y)
                            items.append(" ".join(str(v) for v in [sid, y.dim()] + list(y.shape)))
                        else:
                            items.append(tin(y))
                    return "TL %d %s" % (len(xs), " ".join(items))
                if all(isinstance(y, bool) for y in xs) and xs:
                    return "bl %d %s" % (len(xs), " ".join(str(int(y)) for y in xs))
                if any(isinstance(y, float) for y in xs):
                    return "fl %d %s" % (len(xs), " ".join(_fnum(y) for y in xs))
                return ("il %d %s" % (len(xs), " ".join(str(int(y)) for y in xs))).rstrip()
            raise TypeError("kcase: cannot write argument %r" % (x,))

        ins = ["I " + arg(x, False) for x in inputs]
        outs = ["O " + arg(x, True) for x in outputs]
        ms = []
        for k in sorted(finals):
            ms.append("M %d %d" % (k, fresh(finals[k])))
        for sid, flat in storages:
            vals = _vals(flat)
            lines.append(" ".join(["S", str(sid), DTYPES[flat.dtype], str(len(vals))] + vals))
        lines += ins + outs + ms
        if expect_error:
            lines.append("X")
        lines.append("E")
        self.f.write("\n".join(lines) + "\n")
        self.ncases += 1
        self.counts[op] = self.counts.get(op, 0) + 1
