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
                "outputs": [{"name": name, "type": ty.str()}]}
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
        node = {"kind": kind, "inputs": names, "outputs": [{"name": name, "type": ty.str()}]}
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
        return {"name": v.debugName(), "type": v.type().str()}

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
    raise ExportError("unsupported output of type %s (tensors, numbers, tuples and lists only)"
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
    d = {"name": v.debugName(), "type": v.type().str()}
    if isinstance(example, torch.Tensor) and isinstance(v.type(), torch._C.TensorType):
        d["dtype"] = _dtype_name(torch, example.dtype)
        d["shape"] = list(example.shape)
    return d


def _clone(torch, x):
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    if isinstance(x, (tuple, list)):
        return type(x)(_clone(torch, e) for e in x)
    return x


def _script_graph(torch, module, example_inputs, method):
    """Returns (graph, has_module_self) of the frozen, inlined forward."""
    is_module = isinstance(module, torch.nn.Module)
    if is_module:
        module.eval()
    if method == "trace":
        if isinstance(module, torch.jit.ScriptModule):
            sm = module
        else:
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
        sm.eval()
        try:
            frozen = torch.jit.freeze(sm, optimize_numerics=False)
        except Exception as e:
            raise ExportError("torch.jit.freeze failed: %s" % (e,))
        graph = frozen.graph.copy()
    else:
        graph = sm.graph.copy()
    torch._C._jit_pass_inline(graph)
    return graph, isinstance(sm, torch.jit.ScriptModule)


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


def export(module, example_inputs, path, *, method="trace", inline_limit=DEFAULT_INLINE_LIMIT):
    """Writes the graph JSON of `module` (an nn.Module, ScriptModule or function) at `path`,
    and the weights file beside it when a constant is larger than `inline_limit` bytes."""
    torch = _torch()
    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    if isinstance(module, torch.nn.Module):
        module.eval()
    try:
        with torch.no_grad():
            result = module(*_clone(torch, example_inputs))
    except Exception as e:
        raise ExportError("running the module on the example inputs failed: %s" % (e,))
    structure = _structure(torch, result)
    graph, has_module = _script_graph(torch, module, example_inputs, method)

    w = _Writer(torch, inline_limit)
    _collect_names(graph.inputs(), graph.nodes(), w.used)
    gin = list(graph.inputs())
    if has_module and gin and isinstance(gin[0].type(), torch._C.ClassType) \
            and not gin[0].uses():
        gin = gin[1:]
    offset = 1 if gin and isinstance(gin[0].type(), torch._C.ClassType) else 0
    inputs = []
    for i, v in enumerate(gin):
        k = i - offset
        ex = example_inputs[k] if 0 <= k < len(example_inputs) else None
        w.used.add(v.debugName())
        inputs.append(_input_entry(torch, v, ex))
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
                    "outputs": [v.debugName() for v in graph.outputs()]}
    doc["output_structure"] = structure
    if w.blobs:
        chunks, pos = [], 0
        for off, raw in w.blobs:
            chunks.append(b"\0" * (off - pos))
            chunks.append(raw)
            pos = off + len(raw)
        _atomic_write(wpath, chunks)
    _atomic_write(path, (_dump(doc) + "\n").encode("ascii"))


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
