#!/usr/bin/env python3
"""mc_export — write a PyTorch module as an mc graph JSON file (docs/graph-json.md).

The exporter traces or scripts the module, puts it in eval mode, freezes it (parameters and
buffers become prim::Constant nodes) and inlines every call, then writes every node of the
forward graph, recursively through prim::If / prim::Loop blocks, with its TorchScript types,
attributes, PyTorch source location and scope. Mutation is kept as it is (no
_jit_pass_remove_mutation): removing it is mc's job. Constants carry their exact bytes: small
tensors inline as base64, large ones in ONE weights file beside the JSON (model.json ->
model.bin, 64-byte aligned). Graph inputs carry the dtype and shape of the example inputs, and
the JSON records the nested structure of the module's output from running the examples.

Invariants: the JSON is strict (no NaN literals: non-finite floats are the strings "nan",
"inf", "-inf"); every value name is defined once; the files are written atomically (temporary
file + rename). torch is imported lazily so `--help` works without it.

Usage as a library (with frontend/python on PYTHONPATH):
    import mc_export
    mc_export.export(model, (torch.randn(1, 3, 224, 224),), "model.json")
"""

import argparse
import base64
import importlib
import importlib.util
import json
import math
import os
import re
import sys
import tempfile

FORMAT = "mc-graph"
VERSION = 1
DEFAULT_INLINE_LIMIT = 64 * 1024
ALIGN = 64


class ExportError(Exception):
    """Raised for every failure the user can fix (missing torch, tracing failed, ...)."""


def _torch():
    try:
        import torch  # noqa: F401
    except ImportError as e:
        raise ExportError(
            "PyTorch is not installed for this Python (%s): %s; use a Python with torch, "
            "e.g. /usr/bin/python3 with Debian's python3-torch" % (sys.executable, e))
    return torch


# ---- dtypes ------------------------------------------------------------------------------
_DTYPE_NAMES = {
    "float32": "float32", "float64": "float64", "float16": "float16", "bfloat16": "bfloat16",
    "int64": "int64", "int32": "int32", "int16": "int16", "int8": "int8", "uint8": "uint8",
    "bool": "bool",
}
_DTYPE_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "long": "int64",
                  "int": "int32", "short": "int16", "byte": "uint8", "f32": "float32",
                  "f64": "float64", "f16": "float16", "i64": "int64", "i32": "int32",
                  "u8": "uint8", "bf16": "bfloat16"}


def _dtype_name(torch, dt):
    name = str(dt).replace("torch.", "")
    if name not in _DTYPE_NAMES:
        raise ExportError("unsupported tensor dtype %s" % dt)
    return name


def _torch_dtype(torch, name):
    name = _DTYPE_ALIASES.get(name, name)
    if name not in _DTYPE_NAMES:
        raise ExportError("unknown dtype '%s' (one of: %s)" % (name, ", ".join(_DTYPE_NAMES)))
    return getattr(torch, name)


def _tensor_bytes(torch, t):
    """Exact little-endian bytes of a tensor, contiguous row-major."""
    if t.is_sparse or t.is_quantized or t.is_complex():
        raise ExportError("unsupported tensor constant (sparse, quantized or complex): %s"
                          % (t.type(),))
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        arr = t.view(torch.int16).numpy()
    else:
        arr = t.numpy()
    return arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()


def _type_str(ty):
    """The type as TorchScript prints it, a NamedTuple (torch.sort's, torch.max's results)
    written as the plain tuple it is in the graph."""
    s = ty.str()
    if "NamedTuple(" not in s:
        return s
    k = ty.kind()
    if k == "TupleType":
        return "(" + ", ".join(_type_str(e) for e in ty.elements()) + ")"
    if k == "ListType":
        return _type_str(ty.getElementType()) + "[]"
    if k == "OptionalType":
        return _type_str(ty.getElementType()) + "?"
    return s


def _float(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


# ---- graph walking -----------------------------------------------------------------------
_LOC_RE = re.compile(r" # (.+:\d+:\d+)\s*$")


class _Writer:
    def __init__(self, torch, inline_limit):
        self.torch = torch
        self.inline_limit = inline_limit
        self.blobs = []      # (offset, bytes)
        self.wsize = 0
        self.used = set()    # every value name, for fresh names of expanded constants

    # tensors
    def tensor(self, t):
        torch = self.torch
        raw = _tensor_bytes(torch, t)
        d = {"type": "tensor", "dtype": _dtype_name(torch, t.dtype), "shape": list(t.shape)}
        if len(raw) > self.inline_limit:
            off = (self.wsize + ALIGN - 1) // ALIGN * ALIGN
            self.blobs.append((off, raw))
            self.wsize = off + len(raw)
            d["offset"] = off
            d["nbytes"] = len(raw)
        else:
            d["data"] = base64.b64encode(raw).decode("ascii")
        return d

    def fresh(self, base):
        k = 0
        while True:
            name = "%s.c%d" % (base, k)
            if name not in self.used:
                self.used.add(name)
                return name
            k += 1

    # constants
    def scalar_attr(self, v, ty):
        torch = self.torch
        kind = ty.kind() if ty is not None else ""
        if v is None:
            return None
        if isinstance(v, bool) or kind == "BoolType":
            return {"type": "bool", "value": bool(v)}
        if isinstance(v, int):
            return {"type": "int", "value": int(v)}
        if isinstance(v, float):
            return {"type": "float", "value": _float(v)}
        if isinstance(v, str):
            return {"type": "str", "value": v}
        if isinstance(v, torch.device):
            return {"type": "device", "value": str(v)}
        if isinstance(v, torch.Tensor):
            return self.tensor(v)
        return False

    _LIST_KINDS = {"IntType": ("ints", int), "FloatType": ("floats", _float),
                   "BoolType": ("bools", bool), "StringType": ("strs", str)}

    def constant(self, value, ty, name, source, out):
        """Appends nodes defining `name` as the constant `value`; tuples and lists that no
        attribute kind holds become prim::TupleConstruct / prim::ListConstruct of constants."""
        node = {"kind": "prim::Constant", "inputs": [],
                "outputs": [{"name": name, "type": _type_str(ty)}]}
        a = self.scalar_attr(value, ty)
        if a is False and isinstance(value, list):
            lk = self._LIST_KINDS.get(ty.getElementType().kind())
            if lk is not None:
                a = {"type": lk[0], "value": [lk[1](x) for x in value]}
        if a is not False:
            if a is not None:
                node["attrs"] = {"value": a}
            if source:
                node["source"] = source
            out.append(node)
            return
        if isinstance(value, list):
            elem_tys = [ty.getElementType()] * len(value)
            kind = "prim::ListConstruct"
        elif isinstance(value, tuple):
            elem_tys = list(ty.elements())
            kind = "prim::TupleConstruct"
        else:
            raise ExportError("unsupported constant %r of type %s (value %%%s)"
                              % (value, ty.str(), name))
        names = []
        for x, ety in zip(value, elem_tys):
            n = self.fresh(name)
            opt = x is not None and ety.kind() == "OptionalType"
            self.constant(x, ety.getElementType() if opt else ety, n, source, out)
            names.append(n)
        node = {"kind": kind, "inputs": names, "outputs": [{"name": name, "type": _type_str(ty)}]}
        if source:
            node["source"] = source
        out.append(node)

    def attrs(self, n):
        res = {}
        for a in n.attributeNames():
            k = n.kindOf(a)
            if k == "i":
                res[a] = {"type": "int", "value": n.i(a)}
            elif k == "f":
                res[a] = {"type": "float", "value": _float(n.f(a))}
            elif k == "s":
                res[a] = {"type": "str", "value": n.s(a)}
            elif k == "is":
                res[a] = {"type": "ints", "value": list(getattr(n, "is")(a))}
            elif k == "fs":
                res[a] = {"type": "floats", "value": [_float(x) for x in n.fs(a)]}
            elif k == "ss":
                res[a] = {"type": "strs", "value": list(n.ss(a))}
            elif k == "t":
                res[a] = self.tensor(n.t(a))
            else:
                raise ExportError("node %s: attribute '%s' of kind '%s' is not supported"
                                  % (n.kind(), a, k))
        return res

    @staticmethod
    def source(n, constant):
        lines = [l for l in str(n).split("\n") if l.strip()]
        if not lines:
            return None
        m = _LOC_RE.search(lines[-1] if constant else lines[0])
        return m.group(1) if m else None

    def value(self, v):
        self.used.add(v.debugName())
        return {"name": v.debugName(), "type": _type_str(v.type())}

    def block(self, b):
        return {"inputs": [self.value(v) for v in b.inputs()],
                "nodes": self.nodes(b.nodes()),
                "outputs": [v.debugName() for v in b.outputs()]}

    def nodes(self, nodes):
        out = []
        for n in nodes:
            kind = n.kind()
            if kind == "prim::Constant":
                o = n.output()
                self.used.add(o.debugName())
                v = n.t("value") if n.hasAttribute("value") and n.kindOf("value") == "t" \
                    else o.toIValue()
                self.constant(v, o.type(), o.debugName(), self.source(n, True), out)
                continue
            d = {"kind": kind, "inputs": [v.debugName() for v in n.inputs()],
                 "outputs": [self.value(v) for v in n.outputs()]}
            a = self.attrs(n)
            if a:
                d["attrs"] = a
            blocks = list(n.blocks())
            if blocks:
                d["blocks"] = [self.block(b) for b in blocks]
            src = self.source(n, False)
            if src and os.path.abspath(src).startswith(
                    os.path.dirname(os.path.abspath(self.torch.__file__)) + os.sep):
                src = _user_frame(self.torch, n) or src
            if src:
                d["source"] = src
            scope = n.scopeName()
            if scope:
                d["scope"] = scope
            out.append(d)
        return out


def _structure(torch, x):
    """The nested structure of an output, leaves in depth-first order."""
    if isinstance(x, torch.Tensor):
        return {"kind": "tensor", "dtype": _dtype_name(torch, x.dtype), "shape": list(x.shape)}
    if isinstance(x, tuple):
        return {"kind": "tuple", "elems": [_structure(torch, e) for e in x]}
    if isinstance(x, list):
        return {"kind": "list", "elems": [_structure(torch, e) for e in x]}
    if isinstance(x, dict):
        return {"kind": "dict", "keys": [str(k) for k in x],
                "elems": [_structure(torch, e) for e in x.values()]}
    if isinstance(x, bool):
        return {"kind": "bool"}
    if isinstance(x, int):
        return {"kind": "int"}
    if isinstance(x, float):
        return {"kind": "float"}
    if x is None:
        return {"kind": "none"}
    if isinstance(x, str):
        return {"kind": "str"}
    if isinstance(x, torch.device):
        return {"kind": "device"}
    raise ExportError("unsupported output of type %s (tensors, numbers, tuples, lists and dicts only)"
                      % type(x).__name__)


def _collect_names(values, nodes, names):
    """Collects every value name, first renaming those with characters graph JSON does not
    allow (torchvision's regnet has modules named 'block4-11'); torch keeps names unique."""
    for v in list(values) + [o for n in nodes for o in n.outputs()]:
        if re.search(r"[^A-Za-z0-9_.]", v.debugName()):
            v.setDebugName(re.sub(r"[^A-Za-z0-9_.]", "_", v.debugName()))
    for v in values:
        names.add(v.debugName())
    for n in nodes:
        for v in n.outputs():
            names.add(v.debugName())
        for b in n.blocks():
            _collect_names(b.inputs(), b.nodes(), names)


def _input_entry(torch, v, example):
    d = {"name": v.debugName(), "type": _type_str(v.type())}
    if isinstance(example, torch.Tensor) and isinstance(v.type(), torch._C.TensorType):
        d["dtype"] = _dtype_name(torch, example.dtype)
        d["shape"] = list(example.shape)
    return d


# ---- dynamic shapes (docs/dynamic.md) --------------------------------------------------------
class Dim:
    """A graph input extent that may be any size in [min, max] at run time (as torch.export's
    Dim). Extents that use Dims of one name are one size. min may be 0 or 1 (batch 1 is a size
    like any other: mc does not specialise on 0 or 1 as torch.export does)."""

    def __init__(self, name, min=1, max=None):
        if not isinstance(name, str) or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
            raise ExportError("Dim name must be an identifier, not %r" % (name,))
        if not isinstance(min, int) or isinstance(min, bool) or min < 0:
            raise ExportError("Dim '%s': min must be an int >= 0, not %r" % (name, min))
        if not isinstance(max, int) or isinstance(max, bool) or max < min:
            raise ExportError("Dim '%s': max must be an int >= min (%d), not %r" % (name, min, max))
        self.name, self.min, self.max = name, min, max

    def __repr__(self):
        return "Dim(%r, min=%d, max=%d)" % (self.name, self.min, self.max)


def _dynamic_dims(torch, example_inputs, dynamic_shapes):
    """One list per example input: per extent its Dim or None (all None for a fixed input)."""
    out = [None] * len(example_inputs)
    if dynamic_shapes is None:
        return out
    if isinstance(dynamic_shapes, dict) or not isinstance(dynamic_shapes, (tuple, list)) \
            or len(dynamic_shapes) != len(example_inputs):
        raise ExportError("dynamic_shapes needs one entry per example input (%d): None or "
                          "{dim: Dim}" % len(example_inputs))
    seen = {}
    for i, (ex, spec) in enumerate(zip(example_inputs, dynamic_shapes)):
        if spec is None:
            continue
        if not isinstance(spec, dict) or not isinstance(ex, torch.Tensor):
            raise ExportError("dynamic_shapes[%d]: want None or {dim: Dim} for a tensor input" % i)
        dims = [None] * ex.dim()
        for d, dim in spec.items():
            if not isinstance(d, int) or not -ex.dim() <= d < ex.dim():
                raise ExportError("dynamic_shapes[%d]: dim %r out of range for a %d-dim input"
                                  % (i, d, ex.dim()))
            if not isinstance(dim, Dim):
                raise ExportError("dynamic_shapes[%d][%d]: want a mc_export.Dim, not %r" % (i, d, dim))
            ext = ex.shape[d]
            if not dim.min <= ext <= dim.max:
                raise ExportError("Dim '%s': example input %d has extent %d in dim %d, outside "
                                  "[%d, %d]" % (dim.name, i, ext, d % ex.dim(), dim.min, dim.max))
            other = seen.setdefault(dim.name, dim)
            if (other.min, other.max) != (dim.min, dim.max):
                raise ExportError("two Dims named '%s' with different bounds" % dim.name)
            dims[d % ex.dim()] = dim
        out[i] = dims
    # Dims that share a name must have equal extents in the examples
    ext = {}
    for i, dims in enumerate(out):
        for d, dim in enumerate(dims or []):
            if dim is not None and ext.setdefault(dim.name, example_inputs[i].shape[d]) \
                    != example_inputs[i].shape[d]:
                raise ExportError("Dim '%s' has extent %d in one example input and %d in input %d"
                                  % (dim.name, ext[dim.name], example_inputs[i].shape[d], i))
    return out


def _resized(torch, x, dims, sizes):
    """x with every extent that follows a Dim resized to sizes[name], its elements repeated
    cyclically along those dims (so masks and token ids keep their kind of values)."""
    for d, dim in enumerate(dims or []):
        if dim is None or x.shape[d] == sizes[dim.name]:
            continue
        n = sizes[dim.name]
        if x.shape[d] == 0:
            shape = list(x.shape)
            shape[d] = n
            x = torch.zeros(shape, dtype=x.dtype)
        else:
            x = x.index_select(d, torch.arange(n) % x.shape[d])
    return x.clone()


def _flat(torch, x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for e in x for t in _flat(torch, e)]
    if isinstance(x, dict):
        return [t for k in sorted(x) for t in _flat(torch, x[k])]
    return [x]


def _graph_shape(torch, graph):
    """What a graph does, without its recorded types and source locations: node kinds, their
    inputs by position and the values of non-tensor constants."""
    ids, out = {}, []

    def walk(nodes):
        for n in nodes:
            for v in n.outputs():
                ids[v.unique()] = len(ids)
            ins = tuple(ids.get(v.unique(), -1) for v in n.inputs())
            val = None
            if n.kind() == "prim::Constant" and n.hasAttribute("value") \
                    and n.kindOf("value") in ("i", "f", "s", "is", "fs"):
                k = n.kindOf("value")
                val = repr(getattr(n, "is_" if k == "is" else k)("value"))
            out.append((n.kind(), ins, val))
            for b in n.blocks():
                walk(b.nodes())
    for v in graph.inputs():
        ids[v.unique()] = len(ids)
    walk(graph.nodes())
    return out


def _check_dynamic(torch, module, example_inputs, method, dims, graph):
    """Refuses a trace that baked in the size of a Dim: for each Dim at its other bounds (and
    one past the example), the traced graph must be the same and the traced module must compute
    what the module computes."""
    named = {}
    for i, ds in enumerate(dims):
        for d, dim in enumerate(ds or []):
            if dim is not None:
                named.setdefault(dim.name, (dim, example_inputs[i].shape[d]))
    if not named:
        return
    base = {k: ex for k, (dim, ex) in named.items()}
    shape0, fn = _graph_shape(torch, graph), None
    for name, (dim, ex) in sorted(named.items()):
        for size in sorted({dim.max, dim.min, min(ex + 1, dim.max)} - {ex}):
            sizes = dict(base)
            sizes[name] = size
            ins = tuple(_resized(torch, x, ds, sizes) if ds else _clone(torch, x)
                        for x, ds in zip(example_inputs, dims))
            why = None
            try:
                with torch.no_grad():
                    want = _flat(torch, module(*_clone(torch, ins)))
            except Exception as e:
                raise ExportError("Dim '%s': the module fails at %s=%d: %s" % (name, name, size, e))
            try:
                g2, _ = _script_graph(torch, module, ins, method)
                if _graph_shape(torch, g2) != shape0:
                    why = "the graph traced at %s=%d differs from the one traced at %d" % (name, size, ex)
                else:
                    if fn is None:
                        fn = torch.jit.trace(module, _clone(torch, example_inputs), strict=False,
                                             check_trace=False) if method == "trace" else \
                            (module if isinstance(module, torch.jit.ScriptModule) else torch.jit.script(module))
                    with torch.no_grad():
                        got = _flat(torch, fn(*_clone(torch, ins)))
                    for a, b in zip(want, got):
                        if isinstance(a, torch.Tensor) != isinstance(b, torch.Tensor) or (
                                isinstance(a, torch.Tensor) and (a.shape != b.shape or not torch.allclose(
                                    a.double(), b.double(), rtol=1e-4, atol=1e-5, equal_nan=True))) or (
                                not isinstance(a, torch.Tensor) and a != b):
                            why = "at %s=%d the traced graph computes other results than the module" \
                                  % (name, size)
                            break
                    if len(want) != len(got):
                        why = "at %s=%d the traced graph returns %d values, the module %d" % (
                            name, size, len(got), len(want))
            except ExportError as e:
                why = str(e)
            except Exception as e:
                why = "the traced graph fails at %s=%d: %s" % (name, size, e)
            if why:
                raise ExportError("the %s baked in the size of Dim '%s' (%s); compute sizes from "
                                  "tensors (x.size(d), x.shape[d]) rather than Python ints, or make the "
                                  "extent fixed" % ("trace" if method == "trace" else "script", name, why))


def _clone(torch, x):
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    if isinstance(x, (tuple, list)):
        return type(x)(_clone(torch, e) for e in x)
    return x


def _script_graph(torch, module, example_inputs, method, info=None):
    """Returns (graph, has_module_self) of the frozen, inlined forward. The module keeps its
    mode; info (a dict) gets "preserved": whether freezing kept only mutated attributes."""
    if method == "trace":
        if isinstance(module, torch.jit.ScriptModule):
            sm = module
        else:
            for i, x in enumerate(example_inputs):
                if isinstance(x, (bool, int, float)):
                    raise ExportError("torch.jit.trace takes tensors only (example input %d is "
                                      "%s %r); export with method='script' for int, float and "
                                      "bool inputs" % (i, type(x).__name__, x))
            try:
                sm = torch.jit.trace(module, _clone(torch, example_inputs), strict=False,
                                     check_trace=False)
            except Exception as e:
                raise ExportError("torch.jit.trace failed: %s" % (e,))
    elif method == "script":
        try:
            sm = module if isinstance(module, (torch.jit.ScriptModule, torch.jit.ScriptFunction)) \
                else torch.jit.script(module)
        except Exception as e:
            raise ExportError("torch.jit.script failed: %s" % (e,))
    else:
        raise ExportError("method must be 'trace' or 'script', not %r" % (method,))
    if isinstance(sm, torch.jit.ScriptModule):
        # a trace reads no training flag (it recorded the mode it ran in): freeze it in eval
        # mode; a scripted module that reads one is frozen in the mode it is in
        train = method == "script" and any(m.training for m in sm.modules()) and any(
            n.kind() == "prim::GetAttr" and n.s("name") == "training"
            for n in _all_nodes(sm.inlined_graph.nodes()))
        if info is not None:
            info["preserved"] = not train
        if not train:
            sm.eval()
        try:
            if train:
                from torch.jit._script import RecursiveScriptModule
                frozen = RecursiveScriptModule(torch._C._freeze_module(sm._c, []))
                RecursiveScriptModule._finalize_scriptmodule(frozen)
                torch._C._jit_pass_optimize_frozen_graph(frozen.graph, False)
            else:
                frozen = torch.jit.freeze(sm, optimize_numerics=False)
        except Exception as e:
            raise ExportError("torch.jit.freeze failed: %s" % (e,))
        try:
            graph = frozen.graph.copy()
        except RuntimeError as e:
            # an overloaded forward (nn.RNN/LSTM/GRU: tensor and PackedSequence) is compiled
            # under other names; a scripted module without one forward cannot be exported
            raise ExportError("torch.jit.script gave %s no single forward method (%s); export "
                              "it with method='trace'" % (type(module).__name__, e))
    else:
        graph = sm.graph.copy()
    torch._C._jit_pass_inline(graph)
    if method == "script":
        _bind_defaults(torch, graph, sm, example_inputs)
    return graph, isinstance(sm, torch.jit.ScriptModule)


def _bind_defaults(torch, graph, sm, example_inputs):
    """A scripted forward's parameters past the example inputs that have a default (None, a
    bool, int or float: `offsets=None` of nn.EmbeddingBag) take it as a constant, as the call
    with those examples does, instead of becoming graph inputs of an Optional type; an Optional
    tensor parameter given a tensor becomes a tensor input. The peephole and constant
    propagation passes then fold what depends on them (`if offsets is not None`)."""
    given = len(example_inputs)
    try:
        schema = (sm._c._get_method("forward") if isinstance(sm, torch.jit.ScriptModule) else sm).schema
    except Exception:  # no schema to read: the parameters stay inputs
        return
    args = list(schema.arguments)
    gin = list(graph.inputs())
    if len(args) != len(gin):
        return
    first = next(iter(graph.nodes()), None)
    offset = 1 if isinstance(sm, torch.jit.ScriptModule) else 0
    bound = False
    for j in range(len(gin) - 1, offset + given - 1, -1):
        a = args[j]
        if not a.has_default_value() or not (a.default_value is None or
                                             isinstance(a.default_value, (bool, int, float))):
            continue
        if first is not None:
            with graph.insert_point_guard(first):
                c = graph.insertConstant(a.default_value)
        else:
            c = graph.insertConstant(a.default_value)
        gin[j].replaceAllUsesWith(c)
        graph.eraseInput(j)
        bound = True
    for j in range(offset, min(offset + given, len(gin))):
        t = gin[j].type()
        if isinstance(t, torch._C.OptionalType) and isinstance(t.getElementType(), torch._C.TensorType) and \
                isinstance(example_inputs[j - offset], torch.Tensor):
            gin[j].setType(t.getElementType())
            bound = True
    if bound:
        torch._C._jit_pass_peephole(graph)
        torch._C._jit_pass_constant_propagation(graph)


# ---- the user's module, state, names and outputs -------------------------------------------
# Export never changes the module it is given: _Saved records every submodule's training flag,
# parameters and buffers (the objects and their values) and plain Python attributes, and puts
# them back after the module ran (for the output structure, the trace, the dynamic-shape
# checks). The module is exported in the mode it is in. Tensors that forward updates in place
# (buffers, BatchNorm's running statistics in training mode) become graph inputs after the
# module's inputs, named after the attribute (`bn.running_mean`), which the model mutates: the
# JSON input carries "state" and the value at export, and <stem>.<name>.npy holds it beside it.
class _Saved:
    def __init__(self, torch, module):
        self.torch = torch
        self.mods = []
        self.values = []
        if not isinstance(module, torch.nn.Module):
            return
        for _, m in module.named_modules(remove_duplicate=False):
            rec = {"m": m, "training": m.training}
            if not isinstance(m, torch.jit.ScriptModule):
                rec["params"] = dict(m._parameters)
                rec["buffers"] = dict(m._buffers)
                rec["attrs"] = {k: v for k, v in vars(m).items()
                                if isinstance(v, (bool, int, float, str, type(None)))}
            self.mods.append(rec)
        seen = set()
        for t in list(module.parameters()) + list(module.buffers()):
            if id(t) not in seen:
                seen.add(id(t))
                self.values.append((t, t.detach().clone()))

    def changes(self):
        """(attributes that forward reassigned or whose plain value changed, tensors changed)."""
        torch = self.torch
        moved = []
        for rec in self.mods:
            m = rec["m"]
            for kind in ("params", "buffers"):
                cur = m._parameters if kind == "params" else m._buffers
                for k, t in rec.get(kind, {}).items():
                    if cur.get(k) is not t:
                        moved.append((m, k))
            for k, v in rec.get("attrs", {}).items():
                if vars(m).get(k, v) != v and not (isinstance(v, float) and math.isnan(v)):
                    moved.append((m, k))
        changed = {id(t) for t, c in self.values if not _same(torch, t, c)}
        return moved, changed

    def restore(self):
        torch = self.torch
        for rec in self.mods:
            m = rec["m"]
            if m.training != rec["training"]:
                m.training = rec["training"]
            for kind in ("params", "buffers"):
                if kind not in rec:
                    continue
                cur = m._parameters if kind == "params" else m._buffers
                for k in [k for k in cur if k not in rec[kind]]:
                    del cur[k]
                for k, t in rec[kind].items():
                    if cur.get(k) is not t:
                        cur[k] = t
            for k, v in rec.get("attrs", {}).items():
                if vars(m).get(k) is not v:
                    vars(m)[k] = v
        with torch.no_grad():
            for t, c in self.values:
                if not _same(torch, t, c):
                    t.copy_(c)


def _same(torch, a, b):
    """Whether tensor a still holds b's values (NaN where b has NaN)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    try:
        if torch.equal(a, b):
            return True
        if a.is_floating_point() or a.is_complex():
            return bool(((a == b) | (torch.isnan(a) & torch.isnan(b))).all())
    except RuntimeError:
        pass
    return False


def _all_nodes(block_nodes):
    for n in block_nodes:
        yield n
        for b in n.blocks():
            yield from _all_nodes(b.nodes())


def _is_const(v, value):
    """Whether v is a constant equal to the Python scalar (or None) `value`."""
    if v.node().kind() != "prim::Constant":
        return False
    try:
        x = v.toIValue()
    except RuntimeError:
        return False
    return x is None if value is None else (type(x) is type(value) and x == value)


_VIEW_OPS = {"aten::select", "aten::slice", "aten::view", "aten::reshape", "aten::narrow",
             "aten::transpose", "aten::permute", "aten::unsqueeze", "aten::squeeze",
             "aten::expand", "aten::expand_as", "aten::t", "aten::__getitem__", "aten::as_strided",
             "aten::flatten", "aten::view_as", "aten::reshape_as", "aten::detach", "aten::alias",
             "aten::unflatten", "aten::diagonal", "aten::movedim", "aten::swapaxes",
             "aten::split", "aten::chunk", "aten::unbind", "prim::ListUnpack", "aten::real"}
_DROPOUTS = {"aten::dropout", "aten::dropout_", "aten::feature_dropout", "aten::feature_dropout_",
             "aten::alpha_dropout", "aten::alpha_dropout_", "aten::feature_alpha_dropout",
             "aten::feature_alpha_dropout_"}


def _written(v, depth=0):
    """Whether the graph may write tensor v in place (through views too)."""
    if depth > 64:
        return True
    for u in v.uses():
        n, i = u.user, u.offset
        k = n.kind()
        if i == 0 and k.startswith("aten::") and k.endswith("_") and not k.endswith("__"):
            return True
        if k == "aten::batch_norm" and i in (3, 4) and not _is_const(n.inputsAt(5), False):
            return True
        if k in _VIEW_OPS and i == 0 and any(_written(o, depth + 1) for o in n.outputs()):
            return True
    return False


def _where(torch, n):
    """'scope (file:line)' of a node for messages."""
    src = _Writer.source(n, False) or ""
    scope = n.scopeName().replace("__module.", "").replace("__module", "")
    return ("module '%s'" % scope if scope else "forward") + (" at %s" % src if src else "")


def _module_at(module, path):
    obj = module
    for part in path.split(".") if path else []:
        obj = getattr(obj, part)
    return obj


def _attr_path(v, self_id):
    parts = []
    while True:
        n = v.node()
        if n.kind() != "prim::GetAttr":
            return ".".join(reversed(parts)) if v.unique() == self_id and parts else None
        parts.append(n.s("name"))
        v = n.input()


def _new_node(graph, kind, inputs, ty, before=None, after=None, **attr):
    n = graph.create(kind, inputs, 1)
    for a, val in attr.items():
        getattr(n, a)("value", val)
    n.output().setType(ty)
    if before is not None:
        n.insertBefore(before)
    else:
        n.insertAfter(after)
    return n


def _bn_update(torch, graph, n, ndim, stats):
    """After a training-mode aten::batch_norm n: running_mean/var (state inputs) take the batch
    statistics as PyTorch updates them: r += momentum * (stat - r), var unbiased."""
    T = torch._C.TensorType.get()
    x, mom = n.inputsAt(0), n.inputsAt(6)
    last = n
    consts = []
    for val in ([0] + list(range(2, ndim)), False, True, 1, None):
        c = graph.insertConstant(val)
        c.node().moveAfter(last)
        last = c.node()
        consts.append(c)
    dims, fal, tru, one, none = consts
    for r, kind in stats:
        if kind == "mean":
            s = _new_node(graph, "aten::mean", [x, dims, fal, none], T,
                          after=last)
        else:
            s = _new_node(graph, "aten::var", [x, dims, tru, fal], T,
                          after=last)
        d = _new_node(graph, "aten::sub", [s.output(), r, one], T, after=s)
        e = _new_node(graph, "aten::mul", [d.output(), mom], T, after=d)
        a = _new_node(graph, "aten::add", [r, e.output(), one], T, after=e)
        last = _new_node(graph, "aten::copy_", [r, a.output(), fal], T, after=a)


def _lift_state(torch, graph, module, bn_ndim, changed, method, preserved):
    """Turns what is left of the module in the frozen graph into constants and state inputs.
    Returns [(input value, attribute path, tensor)] for the state inputs, in input order."""
    gin = list(graph.inputs())
    if not isinstance(module, torch.nn.Module):
        return []
    self_id = gin[0].unique() if gin and isinstance(gin[0].type(), torch._C.ClassType) else None
    by_ptr = {}
    for name, t in list(module.named_parameters()) + list(module.named_buffers()):
        if t.numel() > 0:
            by_ptr.setdefault(t.data_ptr(), name)
    changed_names = {name for name, t in list(module.named_parameters()) +
                     list(module.named_buffers()) if id(t) in changed}
    state = {}       # path -> graph input
    order = []

    def state_input(path):
        if path not in state:
            t = _module_at(module, path)
            inp = graph.addInput()
            inp.setType(torch._C.TensorType.create_from_tensor(t))
            inp.setDebugName(re.sub(r"[^A-Za-z0-9_.]", "_", path))
            state[path] = inp
            order.append((inp, path, t))
        return state[path]

    for n in list(_all_nodes(graph.nodes())):
        if n.kind() in _DROPOUTS and n.inputsSize() > 2 and not _is_const(n.inputsAt(2), False) \
                and not _is_const(n.inputsAt(1), 0.0):
            raise ExportError("%s: dropout in training mode is random; call module.eval() before "
                              "exporting (mc_export exports the module in the mode it is in)"
                              % _where(torch, n))
        if n.kind() == "prim::SetAttr" and self_id is not None:
            # `self.n += 1` scripted: add_ on the attribute, then SetAttr of that same tensor
            obj, val = n.inputsAt(0), n.inputsAt(1)
            path = _attr_path(obj, self_id) if obj.unique() != self_id else ""
            src = val.node()
            k = src.kind()
            if path is not None and k.startswith("aten::") and k.endswith("_") \
                    and not k.endswith("__") and src.inputsSize() > 0 and _attr_path(
                        src.inputsAt(0), self_id) == (path + "." if path else "") + n.s("name"):
                n.destroy()
                continue
        if n.kind() == "prim::SetAttr":
            raise ExportError("forward assigns the module attribute '%s' (%s); mc exports "
                              "tensors updated in place as state: register a buffer and update it "
                              "with self.%s.copy_(...) / add_(...)"
                              % (n.s("name"), _where(torch, n), n.s("name")))
    # a message formatted only to be raised (batch norm's checks, scripted) keeps its template
    for n in list(_all_nodes(graph.nodes())):
        if n.kind() == "aten::format" and n.inputsSize() > 0 and n.output().uses() and all(
                u.user.kind() == "prim::RaiseException" for u in n.output().uses()):
            n.output().replaceAllUsesWith(n.inputsAt(0))
            n.destroy()
    # training-mode batch norm: running statistics are state
    for n in list(_all_nodes(graph.nodes())):
        if n.kind() != "aten::batch_norm" or _is_const(n.inputsAt(5), False):
            continue
        stats = []
        for i, kind in ((3, "mean"), (4, "var")):
            v = n.inputsAt(i)
            if v.node().kind() == "prim::Constant" and isinstance(v.type(), torch._C.TensorType):
                path = by_ptr.get(v.node().t("value").data_ptr())
            else:
                path = _attr_path(v, self_id) if self_id is not None else None
            if path is None:
                if isinstance(v.type(), torch._C.NoneType) or _is_const(v, None):
                    continue
                raise ExportError("%s: batch norm in training mode whose running statistics are "
                                  "not module buffers; call module.eval() before exporting"
                                  % _where(torch, n))
            inp = state_input(path)
            n.replaceInput(i, inp)
            stats.append((inp, kind))
        if stats:
            path = [p for inp, p, _ in order if inp.unique() == stats[0][0].unique()][0]
            mod = _module_at(module, path.rpartition(".")[0])
            if method == "script":
                raise ExportError("module '%s' (%s) is in training mode, scripted: its batch-size "
                                  "check is a loop over the input's sizes that mc does not "
                                  "compile; export with method='trace' (training-mode semantics, "
                                  "the running statistics as state) or call module.eval() first"
                                  % (path.rpartition(".")[0],
                                     getattr(mod, "original_name", type(mod).__name__)))
            if method == "trace" and getattr(mod, "momentum", 0.1) is None:
                raise ExportError("%s: BatchNorm with momentum=None in training mode (a cumulative "
                                  "average the trace bakes in); set a momentum or call "
                                  "module.eval() before exporting" % _where(torch, n))
            ndim = bn_ndim.get(id(mod), {"BatchNorm2d": 4, "BatchNorm3d": 5}.get(
                getattr(mod, "original_name", type(mod).__name__)))
            if ndim is None:
                raise ExportError("%s: batch norm in training mode with an input of unknown rank; "
                                  "call module.eval() before exporting" % _where(torch, n))
            _bn_update(torch, graph, n, ndim, stats)
    # tensors (and plain values: a scripted module frozen in training mode) still read from it
    if self_id is not None:
        for n in list(_all_nodes(graph.nodes())):
            if n.kind() != "prim::GetAttr" or isinstance(n.output().type(), torch._C.ClassType):
                continue
            path = _attr_path(n.output(), self_id)
            if path is None:
                continue
            v = n.output()
            val = _module_at(module, path)
            if not isinstance(val, torch.Tensor):
                if v.uses() and (val is None or isinstance(val, (bool, int, float))):
                    c = graph.insertConstant(val)
                    c.node().moveBefore(n)
                    v.replaceAllUsesWith(c)
                continue
            if bool(v.uses()) and (preserved or _written(v) or path in changed_names):
                v.replaceAllUsesWith(state_input(path))
            elif bool(v.uses()):
                c = _new_node(graph, "prim::Constant", [], v.type(), before=n,
                              t_=_module_at(module, path).detach())
                c.output().setDebugName(re.sub(r"[^A-Za-z0-9_.]", "_", "self." + path))
                v.replaceAllUsesWith(c.output())
        changed_nodes = True
        while changed_nodes:
            changed_nodes = False
            for n in reversed(list(_all_nodes(graph.nodes()))):
                if n.kind() == "prim::GetAttr" and not n.output().uses():
                    n.destroy()
                    changed_nodes = True
    lifted = {p for _, p, _ in order}
    missed = sorted(changed_names - lifted)
    if missed:
        raise ExportError("forward changes %s, which the %s does not record as an update; update "
                          "buffers in place (self.x.add_(...), self.x.copy_(...)) or call "
                          "module.eval()" % (", ".join("'%s'" % p for p in missed),
                                             "trace" if method == "trace" else "graph"))
    return order


def _inline_python_ops(torch, graph):
    """prim::PythonOp (a torch.autograd.Function) is replaced by the forward the tracer recorded
    for it (its Subgraph attribute); without one it is refused, naming the Function."""
    for n in list(_all_nodes(graph.nodes())):
        if n.kind() != "prim::PythonOp":
            continue
        name = n.pyname() if hasattr(n, "pyname") else "?"
        sub = n.g("Subgraph") if "Subgraph" in n.attributeNames() else None
        if sub is None or len(list(sub.inputs())) != n.inputsSize() \
                or len(list(sub.outputs())) != n.outputsSize():
            raise ExportError("%s: the torch.autograd.Function '%s' has no graph mc can read (the "
                              "trace records its forward only when it is traced with tensors); "
                              "write its forward with torch operations in the module instead"
                              % (_where(torch, n), name))
        env = {a.unique(): b for a, b in zip(sub.inputs(), n.inputs())}
        for s in sub.nodes():
            c = graph.createClone(s, lambda v: env[v.unique()])
            c.insertBefore(n)
            for a, b in zip(s.outputs(), c.outputs()):
                env[a.unique()] = b
        for a, b in zip(n.outputs(), sub.outputs()):
            a.replaceAllUsesWith(env[b.unique()])
        n.destroy()


def _user_frame(torch, n):
    """The first frame outside torch/ of a traced node's Python stack, as 'file:line:0', when
    the recorded location points into torch's own files; else None."""
    try:
        stack = n.sourceRange()
    except Exception:
        return None
    tdir = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    for line in stack.split("\n"):
        m = re.match(r"^(.*)\((\d+)\): ", line)
        if m and not os.path.abspath(m.group(1)).startswith(tdir) \
                and os.path.abspath(m.group(1)) != os.path.abspath(__file__):
            return "%s:%s:0" % (m.group(1), m.group(2))
    return None


def _name_inputs(torch, module, gin):
    """Graph inputs named after forward()'s parameters."""
    import inspect
    names = None
    try:
        if isinstance(module, (torch.jit.ScriptModule, torch.jit.ScriptFunction)):
            fn = module.forward if isinstance(module, torch.jit.ScriptModule) else module
            args = [a.name for a in fn.schema.arguments]
            names = args[1:] if isinstance(module, torch.jit.ScriptModule) else args
        else:
            fn = module.forward if isinstance(module, torch.nn.Module) else module
            names = [p.name for p in inspect.signature(fn).parameters.values()
                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError, AttributeError, RuntimeError):
        return
    for v, name in zip(gin, names):
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name) and v.debugName() != name:
            v.setDebugName(name)


_CONSTRUCTS = ("prim::TupleConstruct", "prim::ListConstruct", "prim::DictConstruct")


def _output_names(torch, graph):
    """The names of the flattened outputs ('out', 'out.0', 'out.logits', 'out.hidden.1'),
    depth first as mc flattens them. A dict built by prim::DictConstruct is flattened here (the
    graph then returns its leaves); any other dict-typed output is refused."""
    leaves, has_dict = [], [False]

    def walk(v, name):
        n, ty = v.node(), v.type()
        k = n.kind()
        if k == "prim::TupleConstruct" or (k == "prim::ListConstruct" and isinstance(
                ty.getElementType(), torch._C.TensorType)):
            for i, x in enumerate(n.inputs()):
                walk(x, "%s.%d" % (name, i))
            return
        if k == "prim::DictConstruct":
            has_dict[0] = True
            ins = list(n.inputs())
            for kv, x in zip(ins[0::2], ins[1::2]):
                if kv.node().kind() != "prim::Constant":
                    raise ExportError("a dict output needs constant keys (output %s)" % name)
                walk(x, "%s.%s" % (name, kv.toIValue()))
            return
        if isinstance(ty, torch._C.DictType):
            raise ExportError("output %s is a dict that the graph does not build from its "
                              "values (prim::DictConstruct); return a dict literal or a tuple" % name)
        leaves.append((v, name))

    outs = list(graph.outputs())
    for i, o in enumerate(outs):
        walk(o, "out" if len(outs) == 1 else "out.%d" % i)
    if has_dict[0]:
        for i in reversed(range(len(outs))):
            graph.eraseOutput(i)
        for v, _ in leaves:
            graph.registerOutput(v)
        again = True
        while again:
            again = False
            for n in reversed(list(_all_nodes(graph.nodes()))):
                if n.kind() in _CONSTRUCTS and not n.output().uses():
                    n.destroy()
                    again = True
    return [name for _, name in leaves]


def _bn_ranks(torch, module):
    """Forward pre-hooks recording the input rank of every training-mode batch norm:
    (dict id(module) -> ndim, handles)."""
    ranks, handles = {}, []
    if not isinstance(module, torch.nn.Module) or isinstance(module, torch.jit.ScriptModule):
        return ranks, handles
    for m in module.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm) and m.training:
            def hook(mod, args, ranks=ranks):
                if args and isinstance(args[0], torch.Tensor):
                    ranks[id(mod)] = args[0].dim()
            handles.append(m.register_forward_pre_hook(hook))
    return ranks, handles


def _atomic_write(path, data):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".mc_export.", dir=d)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as f:
            if isinstance(data, list):
                for chunk in data:
                    f.write(chunk)
            else:
                f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _dump(obj, ind=0):
    """JSON with one node per line: dicts and lists that hold nodes are expanded."""
    def holds_nodes(x):
        if isinstance(x, dict):
            return "nodes" in x or "blocks" in x or "graph" in x
        if isinstance(x, list):
            return any(isinstance(e, dict) and ("kind" in e and "outputs" in e or "nodes" in e)
                       for e in x)
        return False

    if not holds_nodes(obj) and ind > 0:
        return json.dumps(obj, allow_nan=False, ensure_ascii=True)
    pad = " " * (ind + 1)
    if isinstance(obj, dict):
        items = ["%s%s: %s" % (pad, json.dumps(k), _dump(v, ind + 1)) for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * ind + "}"
    items = [pad + _dump(v, ind + 1) for v in obj]
    return "[\n" + ",\n".join(items) + "\n" + " " * ind + "]"


def weights_path(path):
    """model.json -> model.bin (the weights file beside the JSON)."""
    root, ext = os.path.splitext(path)
    return (root if ext == ".json" else path) + ".bin"


def export(module, example_inputs, path, *, method="trace", inline_limit=DEFAULT_INLINE_LIMIT,
           **kw):
    """Writes the graph JSON of `module` at `path` (see _export). The module is left exactly as
    it was: training flags, parameters, buffers and plain attributes."""
    torch = _torch()
    saved = _Saved(torch, module)
    try:
        _export(module, example_inputs, path, method=method, inline_limit=inline_limit,
                _saved=saved, **kw)
    finally:
        saved.restore()


def _export(module, example_inputs, path, *, method="trace", inline_limit=DEFAULT_INLINE_LIMIT,
            dynamic_shapes=None, _saved=None):
    """Writes the graph JSON of `module` (an nn.Module, ScriptModule or function) at `path`,
    and the weights file beside it when a constant is larger than `inline_limit` bytes.
    dynamic_shapes: one entry per example input, None or {dim: Dim} (docs/dynamic.md)."""
    torch = _torch()
    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    dims = _dynamic_dims(torch, example_inputs, dynamic_shapes)
    saved = _saved or _Saved(torch, module)
    bn_ndim, hooks = _bn_ranks(torch, module)
    try:
        with torch.no_grad():
            result = module(*_clone(torch, example_inputs))
    except Exception as e:
        raise ExportError("running the module on the example inputs failed: %s" % (e,))
    finally:
        for h in hooks:
            h.remove()
    moved, changed = saved.changes()
    saved.restore()
    if moved:
        m, k = moved[0]
        raise ExportError("forward reassigns the attribute '%s' of %s (%s); mc exports tensors "
                          "updated in place as state: register a buffer and update it with "
                          "self.%s.copy_(...) / add_(...)" % (k, type(m).__name__, "self.%s = ..." % k, k))
    structure = _structure(torch, result)
    info = {}
    graph, has_module = _script_graph(torch, module, example_inputs, method, info)
    _check_dynamic(torch, module, example_inputs, method, dims, graph)
    saved.restore()
    _inline_python_ops(torch, graph)
    state = _lift_state(torch, graph, module, bn_ndim, changed, method, info.get("preserved"))
    out_names = _output_names(torch, graph)
    user = [v for v in graph.inputs() if not isinstance(v.type(), torch._C.ClassType)]
    _name_inputs(torch, module, user[:len(user) - len(state)])

    w = _Writer(torch, inline_limit)
    _collect_names(graph.inputs(), graph.nodes(), w.used)
    state_of = {v.debugName(): (p, t) for v, p, t in state}
    gin = list(graph.inputs())
    if has_module and gin and isinstance(gin[0].type(), torch._C.ClassType) \
            and not gin[0].uses():
        gin = gin[1:]
    offset = 1 if gin and isinstance(gin[0].type(), torch._C.ClassType) else 0
    inputs = []
    for i, v in enumerate(gin):
        k = i - offset
        ex = example_inputs[k] if 0 <= k < len(example_inputs) else None
        st = state_of.get(v.debugName())
        w.used.add(v.debugName())
        inputs.append(_input_entry(torch, v, st[1] if st else ex))
        if st:
            inputs[-1]["state"] = st[0]
            inputs[-1]["value"] = w.tensor(st[1])
        if 0 <= k < len(dims) and dims[k] and "shape" in inputs[-1]:
            inputs[-1]["dims"] = [None if dm is None else {"name": dm.name, "min": dm.min, "max": dm.max}
                                  for dm in dims[k]]
    nodes = w.nodes(graph.nodes())
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "producer": {"name": "mc_export", "torch": torch.__version__, "method": method},
    }
    wpath = weights_path(path)
    if w.blobs:
        doc["weights"] = {"file": os.path.basename(wpath), "nbytes": w.wsize,
                          "alignment": ALIGN}
    doc["graph"] = {"inputs": inputs, "nodes": nodes,
                    "outputs": [v.debugName() for v in graph.outputs()],
                    "output_names": out_names}
    doc["output_structure"] = structure
    if w.blobs:
        chunks, pos = [], 0
        for off, raw in w.blobs:
            chunks.append(b"\0" * (off - pos))
            chunks.append(raw)
            pos = off + len(raw)
        _atomic_write(wpath, chunks)
    for v, p, t in state:
        _write_state_npy(torch, state_path(path, v.debugName()), t)
    _atomic_write(path, (_dump(doc) + "\n").encode("ascii"))


def state_path(path, name):
    """model.json, 'bn.running_mean' -> model.bn.running_mean.npy: the value at export of a
    state input (the first step's input; later steps feed back mc run's input_K.npy)."""
    root, ext = os.path.splitext(path)
    return "%s.%s.npy" % (root if ext == ".json" else path, name)


def _write_state_npy(torch, path, t):
    import io
    import numpy
    t = t.detach().cpu().contiguous()
    arr = t.view(torch.int16).numpy() if t.dtype == torch.bfloat16 else t.numpy()
    buf = io.BytesIO()
    numpy.save(buf, arr)
    _atomic_write(path, buf.getvalue())


# ---- command line ------------------------------------------------------------------------
def _load_object(spec):
    """'pkg.mod:Name' or 'path/to/file.py:Name' -> the object."""
    if ":" not in spec:
        raise ExportError("--module wants MODULE:NAME, e.g. torchvision.models:resnet18")
    mod, _, name = spec.rpartition(":")
    try:
        if mod.endswith(".py") or os.sep in mod:
            s = importlib.util.spec_from_file_location(
                os.path.splitext(os.path.basename(mod))[0], mod)
            if s is None:
                raise ImportError("cannot load %s" % mod)
            m = importlib.util.module_from_spec(s)
            sys.path.insert(0, os.path.dirname(os.path.abspath(mod)))
            s.loader.exec_module(m)
        else:
            sys.path.insert(0, os.getcwd())
            m = importlib.import_module(mod)
    except Exception as e:
        raise ExportError("cannot import '%s': %s" % (mod, e))
    obj = m
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ExportError("'%s' has no attribute '%s'" % (mod, name))
        obj = getattr(obj, part)
    return obj


def parse_example(torch, spec, gen):
    """'1,3,224,224:float32' -> random tensor; ':int64' -> 0-dim; '=3' / '=0.5' / '=True' ->
    Python scalar; '@x.npy' -> the array in x.npy; '@x.pt' -> torch.load."""
    if spec.startswith("="):
        try:
            v = json.loads(spec[1:].lower())
        except ValueError:
            raise ExportError("bad scalar example '%s'" % spec)
        return v
    if spec.startswith("@"):
        f = spec[1:]
        try:
            if f.endswith(".npy"):
                import numpy
                return torch.from_numpy(numpy.load(f))
            return torch.load(f)
        except Exception as e:
            raise ExportError("cannot load example '%s': %s" % (f, e))
    shape_s, _, dt = spec.partition(":")
    dtype = _torch_dtype(torch, dt or "float32")
    try:
        shape = [int(s) for s in shape_s.replace("x", ",").split(",") if s.strip()]
    except ValueError:
        raise ExportError("bad example shape '%s' (want e.g. 1,3,224,224:float32)" % spec)
    if any(s < 0 for s in shape):
        raise ExportError("negative extent in example '%s'" % spec)
    if dtype.is_floating_point:
        return torch.randn(shape, generator=gen).to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=gen).bool()
    return torch.randint(0, 10, shape, generator=gen).to(dtype)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="mc_export",
        description="Export a PyTorch module as an mc graph JSON (compile it with "
                    "`mc compile model.json -o model.c`).",
        epilog="examples:\n"
               "  mc_export.py --module torchvision.models:resnet18 "
               "--example 1,3,224,224:float32 -o resnet18.json\n"
               "  mc_export.py --module mynet.py:Net --args '[10]' --method script "
               "--example 4,10 --example =3 -o net.json\n"
               "example specs: SHAPE[:DTYPE] (random; ':int64' is 0-dim), =SCALAR, "
               "@FILE.npy, @FILE.pt",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--module", "-m", required=True, metavar="MOD:NAME",
                    help="module class or factory: python.module:Name or path/file.py:Name")
    ap.add_argument("--args", default="[]", metavar="JSON",
                    help="constructor positional arguments as a JSON list")
    ap.add_argument("--kwargs", default="{}", metavar="JSON",
                    help="constructor keyword arguments as a JSON object")
    ap.add_argument("--state-dict", metavar="FILE", help="load these weights (torch.save)")
    ap.add_argument("--example", "-e", action="append", default=[], metavar="SPEC",
                    help="one example input, in order (repeat)")
    ap.add_argument("--method", choices=("trace", "script"), default="trace")
    ap.add_argument("--inline-limit", type=int, default=DEFAULT_INLINE_LIMIT, metavar="BYTES",
                    help="constants larger than this go to the weights file (default 65536)")
    ap.add_argument("--seed", type=int, default=0, help="seed of random example inputs")
    ap.add_argument("-o", "--output", required=True, metavar="FILE.json")
    a = ap.parse_args(argv)
    try:
        torch = _torch()
        gen = torch.Generator().manual_seed(a.seed)
        torch.manual_seed(a.seed)
        try:
            cargs, ckw = json.loads(a.args), json.loads(a.kwargs)
        except ValueError as e:
            raise ExportError("--args/--kwargs: bad JSON: %s" % e)
        obj = _load_object(a.module)
        try:
            module = obj(*cargs, **ckw) if isinstance(obj, type) or (
                callable(obj) and not isinstance(obj, torch.nn.Module)
                and (cargs or ckw or not _looks_like_forward(obj))) else obj
        except Exception as e:
            raise ExportError("constructing %s failed: %s" % (a.module, e))
        if a.state_dict:
            try:
                module.load_state_dict(torch.load(a.state_dict, map_location="cpu"))
            except Exception as e:
                raise ExportError("loading %s failed: %s" % (a.state_dict, e))
        examples = tuple(parse_example(torch, s, gen) for s in a.example)
        export(module, examples, a.output, method=a.method, inline_limit=a.inline_limit)
    except ExportError as e:
        print("mc_export: error: %s" % e, file=sys.stderr)
        return 1
    return 0


def _looks_like_forward(fn):
    """A plain function taking tensors (exported itself) vs a factory taking no arguments."""
    import inspect
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return any(p.default is inspect.Parameter.empty for p in params.values())


if __name__ == "__main__":
    sys.exit(main())
