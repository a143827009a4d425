"""gen.py — seeded random PyTorch programs that stress views, aliases and in-place writes.

A program is a Python function `f(x0, x1, ...)` over tensor inputs, held as a small statement
tree so that it can be printed (as TorchScript-compatible Python source) and shrunk by the
minimizer (run_gen.py). The generator executes every candidate statement on concrete tensors as
it goes (in the manner of NNSmith): a statement PyTorch rejects is dropped and another one drawn,
so nearly every program it returns runs in eager PyTorch. Control flow is generated on copies of
the environment (copy.deepcopy keeps storage sharing), the branch not taken included, so both
branches and every loop iteration are valid for the shapes at hand.

Invariants: the same (seed, mode) always gives the same program; inside a block, a variable of
the enclosing scope is only reassigned with a value of the same shape and dtype (so the state
after an if/loop has one shape whatever path ran, as TorchScript and mc's shape inference
need); variables first defined inside a block are not used after it.

Statement tree: ("line", text) | ("if", cond, then, else) | ("for", n, body) |
("while", counter, n, body) | ("ret", [expr, ...]).
"""
import copy
import random
import warnings

import torch

DTYPES = [torch.float32] * 12 + [torch.float64] * 2 + [torch.int64] * 3 + [torch.int32] * 2 + [torch.bool]
DTYPE_SRC = {torch.float32: "torch.float32", torch.float64: "torch.float64", torch.int64: "torch.int64",
             torch.int32: "torch.int32", torch.bool: "torch.bool"}
FLOATS = ["0.5", "1.5", "2.0", "-1.0", "0.25", "3.0", "-2.5"]
INTS = ["1", "2", "-1", "3", "0"]


def make_inputs(prog):
    """The program's input tensors, from its seed."""
    g = torch.Generator().manual_seed(prog["seed"])
    out = []
    for _, dt, shape in prog["inputs"]:
        if dt.is_floating_point:
            t = torch.randn(shape, generator=g, dtype=torch.float64).to(dt)
        elif dt == torch.bool:
            t = torch.randint(0, 2, shape, generator=g) > 0
        else:
            t = torch.randint(-4, 5, shape, generator=g).to(dt)
        out.append(t)
    return out


def render(prog):
    if "src" in prog:  # a hand-written program (known_failures.py)
        return prog["src"]
    names = ", ".join(n for n, _, _ in prog["inputs"])
    lines = ["def f(%s):" % names]
    _render_body(prog["body"], 1, lines)
    return "\n".join(lines) + "\n"


def _render_body(body, ind, lines):
    pad = "    " * ind
    if not body:
        lines.append(pad + "pass")
    for s in body:
        k = s[0]
        if k == "line":
            lines.append(pad + s[1])
        elif k == "if":
            lines.append(pad + "if %s:" % s[1])
            _render_body(s[2], ind + 1, lines)
            if s[3]:
                lines.append(pad + "else:")
                _render_body(s[3], ind + 1, lines)
        elif k == "for":
            lines.append(pad + "for %s in range(%d):" % (s[1], s[2]))
            _render_body(s[3], ind + 1, lines)
        elif k == "while":
            lines.append(pad + "%s = 0" % s[1])
            lines.append(pad + "while %s < %d:" % (s[1], s[2]))
            _render_body(s[3], ind + 1, lines)
            lines.append(pad + "    %s += 1" % s[1])
        elif k == "ret":
            items = s[1]
            lines.append(pad + "return " + (items[0] if len(items) == 1 else "(%s)" % ", ".join(items)))
    return lines


def compile_fn(src):
    ns = {"torch": torch, "__name__": "mc_gen_program"}
    exec(compile(src, "<gen>", "exec"), ns)
    return ns["f"]


class _Reject(Exception):
    pass


def _storage(t):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return t.storage().data_ptr()


def _addrs(t):
    """Storage offsets of t's elements."""
    if t.numel() == 0:
        return set()
    offs = torch.zeros(t.shape, dtype=torch.int64) + t.storage_offset()
    for d in range(t.dim()):
        shp = [1] * t.dim()
        shp[d] = t.shape[d]
        offs = offs + torch.arange(t.shape[d]).view(shp) * t.stride(d)
    return set(offs.flatten().tolist())


def _idx(dims, d, s):
    """Indexing text that applies `s` to dimension d."""
    return "[" + ", ".join([":"] * d + [s]) + "]"


class Generator:
    def __init__(self, seed, mode, size=None):
        self.r = random.Random(seed * 2 + (mode == "trace"))
        self.seed = seed
        self.mode = mode
        self.nstmts = size or self.r.randint(4, 14)
        self.counter = 0

    def fresh(self, p="v"):
        self.counter += 1
        return "%s%d" % (p, self.counter)

    # ---- program ------------------------------------------------------------------------
    def program(self):
        r = self.r
        nin = r.choice([1, 2, 2, 2, 3, 3, 4])
        inputs = []
        base = [r.randint(1, 5) for _ in range(4)]
        for k in range(nin):
            rank = r.choice([0, 1, 2, 2, 2, 3, 3, 3, 4])
            if r.random() < 0.5 and k:
                shape = list(inputs[0][2])
            else:
                shape = [r.choice([base[i], r.randint(1, 5)]) for i in range(rank)]
            if len(shape) >= 2 and r.random() < 0.5:
                shape[-1] = shape[-2]  # square trailing dims: diagonal/transpose/t() compose
            inputs.append(("x%d" % k, r.choice(DTYPES), tuple(shape)))
        prog = {"seed": self.seed, "mode": self.mode, "inputs": inputs, "body": []}
        env = dict(zip([n for n, _, _ in inputs], make_inputs(prog)))
        scope = [n for n, _, _ in inputs]
        body, env, scope = self.block(env, scope, self.nstmts, 0, {})
        body.append(self.ret(env, scope))
        prog["body"] = body
        return prog

    def block(self, env, scope, n, depth, frozen):
        """n statements appended to a copy of scope; returns (stmts, env, scope)."""
        stmts = []
        scope = list(scope)
        tries = 0
        while len(stmts) < n and tries < n * 6:
            tries += 1
            got = self.stmt(env, scope, depth, frozen)
            if got is None:
                continue
            s, env, new = got
            stmts.append(s)
            scope.extend(v for v in new if v not in scope)
        return stmts, env, scope

    # ---- helpers ------------------------------------------------------------------------
    def tensors(self, env, scope, pred=None):
        return [v for v in scope if isinstance(env.get(v), torch.Tensor) and (pred is None or pred(env[v]))]

    def pick(self, env, scope, pred=None):
        ts = self.tensors(env, scope, pred)
        if not ts:
            raise _Reject()
        # favour recent values and the inputs
        w = [1.0 + (3.0 if v.startswith("x") else 0.0) + 2.0 * i / len(ts) for i, v in enumerate(ts)]
        return self.r.choices(ts, weights=w)[0]

    def scalar_src(self, t, env, scope):
        """A Python scalar (literal or variable) for an op on tensor t."""
        r = self.r
        sv = [v for v in scope if isinstance(env.get(v), (float, int)) and not isinstance(env.get(v), bool)]
        if sv and r.random() < 0.25:
            return r.choice(sv)
        if t.dtype == torch.bool:
            return r.choice(["True", "False", "1"])
        if t.dtype.is_floating_point or r.random() < 0.2:
            return r.choice(FLOATS)
        return r.choice(INTS)

    def other(self, t, env, scope):
        """A second operand for a binary op on t: tensor (maybe broadcast), 0-dim or scalar."""
        r = self.r
        c = r.random()
        if c < 0.35:
            return self.scalar_src(t, env, scope)
        if c < 0.45:
            v = self.pick(env, scope)
            return "%s.sum()" % v if env[v].dtype != torch.bool else v + ".sum()"
        same = self.tensors(env, scope, lambda u: u.shape == t.shape)
        u = r.choice(same) if same and r.random() < 0.6 else self.pick(env, scope)
        self.srcs.append(u)
        return u

    # ---- statements ---------------------------------------------------------------------
    def stmt(self, env, scope, depth, frozen):
        r = self.r
        kinds = [("view", 6), ("alias", 1), ("compute", 4), ("inplace", 6), ("setitem", 4),
                 ("clone", 1), ("scalar", 1), ("ivop", 0.2), ("inplace_ret", 1.5)]
        if depth < 2:
            kinds += [("if", 1.6 if self.mode == "script" else 0.5),
                      ("for", 1.6 if self.mode == "script" else 0.5),
                      ("while", 0.8 if self.mode == "script" else 0.2)]
        kind = r.choices([k for k, _ in kinds], weights=[w for _, w in kinds])[0]
        self.srcs, self.dst = [], None
        try:
            if kind in ("if", "for", "while"):
                return self.control(kind, env, scope, depth, frozen)
            text, new = getattr(self, "s_" + kind)(env, scope)
        except (_Reject, ValueError, IndexError):  # nothing to pick, an empty range: draw again
            return None
        if self.dst and self.overlaps(env):
            return None
        env2 = self.try_exec(text, env, frozen)
        if env2 is None:
            return None
        return ("line", text), env2, new

    def overlaps(self, env):
        """Whether an operand of the in-place statement partly overlaps the memory it writes:
        PyTorch's result then depends on its loop order (it only refuses some such cases), so
        the program has no single meaning and is not generated."""
        e = copy.deepcopy(env)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                dst = eval(self.dst, {"torch": torch}, e)
                srcs = [eval(x, {"torch": torch}, e) for x in self.srcs]
        except Exception:
            return True
        for src in srcs:
            if not isinstance(src, torch.Tensor) or _storage(src) != _storage(dst):
                continue
            if src.shape == dst.shape and src.stride() == dst.stride() and \
                    src.storage_offset() == dst.storage_offset():
                continue
            if _addrs(src) & _addrs(dst):
                return True
        return False

    def try_exec(self, text, env, frozen):
        env2 = copy.deepcopy(env)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(text, {"torch": torch}, env2)
        except Exception:
            return None
        for v, (shape, dt) in frozen.items():
            x = env2.get(v)
            if not isinstance(x, torch.Tensor) or x.shape != shape or x.dtype != dt:
                return None
        for x in env2.values():
            if isinstance(x, torch.Tensor) and (x.numel() > 4096 or x.dim() > 6):
                return None
            if isinstance(x, torch.Tensor) and x.is_floating_point() and \
                    not bool(torch.isfinite(x).all() and x.abs().max() < 1e6 if x.numel() else True):
                return None
            if isinstance(x, torch.Tensor) and x.dtype in (torch.int64, torch.int32) and x.numel() \
                    and int(x.abs().max()) > 1 << 20:
                return None
            if isinstance(x, float) and not abs(x) < 1e6:
                return None
        return env2

    def view_expr(self, t, tv):
        """A view of tensor variable tv (value t) as source text."""
        r = self.r
        n = t.dim()
        kinds = ["slice", "select", "narrow", "view", "reshape", "flatten", "transpose", "permute",
                 "t", "unsqueeze", "squeeze", "expand", "diagonal", "index_none", "unbind", "split",
                 "chunk", "detach", "movedim", "view_as", "contiguous", "ellipsis"]
        if n == 0:
            kinds = ["view", "reshape", "unsqueeze", "expand", "detach", "flatten", "index_none"]
        k = r.choice(kinds)
        if k == "slice":
            d = r.randrange(n)
            sz = t.shape[d]
            a = r.choice(["", str(r.randint(-sz, sz - 1)), str(r.randint(0, sz))])
            b = r.choice(["", str(r.randint(-sz, sz)), str(r.randint(0, sz + 2))])
            s = r.choice(["", "", ":2", ":3", ":1"])
            return tv + _idx(n, d, "%s:%s%s" % (a, b, s))
        if k == "select":
            d = r.randrange(n)
            i = r.randint(-t.shape[d], t.shape[d] - 1)
            if r.random() < 0.5:
                return "%s.select(%d, %d)" % (tv, d, i)
            return tv + _idx(n, d, str(i))
        if k == "ellipsis":
            i = r.randint(-t.shape[-1], t.shape[-1] - 1)
            return "%s[..., %s]" % (tv, r.choice([str(i), "%d:" % max(i, 0), "::2"]))
        if k == "narrow":
            d = r.randrange(n)
            st = r.randint(0, t.shape[d] - 1) if t.shape[d] else 0
            ln = r.randint(0, t.shape[d] - st)
            return "%s.narrow(%d, %d, %d)" % (tv, d, st, ln)
        if k in ("view", "reshape"):
            shapes = [[-1], [t.numel()], [1] + list(t.shape), list(t.shape) + [1]]
            if n >= 2:
                shapes.append(list(t.shape[:-2]) + [t.shape[-2] * t.shape[-1]])
                shapes.append([t.shape[0], -1])
            if n == 0:
                shapes = [[1], [1, 1], [-1]]
            return "%s.%s(%s)" % (tv, k, ", ".join(map(str, r.choice(shapes))))
        if k == "flatten":
            if n < 2 or r.random() < 0.4:
                return tv + ".flatten()"
            a = r.randrange(n)
            return "%s.flatten(%d, %d)" % (tv, a, r.randrange(a, n))
        if k == "transpose":
            return "%s.transpose(%d, %d)" % (tv, r.randrange(n), r.randrange(-n, n))
        if k == "permute":
            p = list(range(n))
            r.shuffle(p)
            return "%s.permute(%s)" % (tv, ", ".join(map(str, p)))
        if k == "t":
            return tv + ".t()" if n <= 2 else "%s.transpose(0, 1)" % tv
        if k == "unsqueeze":
            return "%s.unsqueeze(%d)" % (tv, r.randint(-n - 1, n))
        if k == "squeeze":
            ones = [i for i in range(n) if t.shape[i] == 1]
            if ones and r.random() < 0.7:
                return "%s.squeeze(%d)" % (tv, r.choice(ones))
            return tv + ".squeeze()"
        if k == "expand":
            sh = [str(s) if s != 1 or r.random() < 0.3 else str(r.randint(1, 4)) for s in t.shape]
            sh = [x if r.random() < 0.7 else "-1" for x in sh]
            if r.random() < 0.4 or n == 0:
                sh = [str(r.randint(1, 3))] + sh
            return "%s.expand(%s)" % (tv, ", ".join(sh))
        if k == "diagonal":
            if n < 2:
                return tv + ".view(-1)"
            d1 = r.randrange(n)
            d2 = r.choice([d for d in range(n) if d != d1])
            return "%s.diagonal(%d, %d, %d)" % (tv, r.randint(-1, 1), d1, d2)
        if k == "index_none":
            return tv + r.choice(["[None]", "[:, None]" if n else "[None]"])
        if k == "unbind":
            d = r.randrange(n)
            return "%s.unbind(%d)[%d]" % (tv, d, r.randrange(t.shape[d]) if t.shape[d] else 0)
        if k in ("split", "chunk"):
            d = r.randrange(n)
            c = r.randint(1, 3)
            return "%s.%s(%d, %d)[%d]" % (tv, k, c, d, r.randint(0, 1))
        if k == "detach":
            return tv + ".detach()"
        if k == "movedim":
            return "%s.movedim(%d, %d)" % (tv, r.randrange(n), r.randrange(n))
        if k == "view_as":
            return "%s.view_as(%s)" % (tv, tv)
        if k == "contiguous":
            return tv + ".contiguous()"
        return tv

    def s_view(self, env, scope):
        tv = self.pick(env, scope)
        e = self.view_expr(env[tv], tv)
        if self.r.random() < 0.3:  # a view of a view
            e = "(%s)" % e if not e[-1] in ")]" else e
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    t2 = eval(e, {"torch": torch}, copy.deepcopy(env))
                e = self.view_expr(t2, e)
            except Exception:
                pass
        v = self.fresh()
        return "%s = %s" % (v, e), [v]

    def s_alias(self, env, scope):
        v = self.fresh("a")
        return "%s = %s" % (v, self.pick(env, scope)), [v]

    def s_clone(self, env, scope):
        v = self.fresh("c")
        tv = self.pick(env, scope)
        e = self.r.choice(["%s.clone()", "%s.clone()", "%s.contiguous().clone()", "torch.clone(%s)"]) % tv
        return "%s = %s" % (v, e), [v]

    def s_compute(self, env, scope):
        r = self.r
        tv = self.pick(env, scope)
        t = env[tv]
        k = r.choice(["bin", "bin", "bin", "rbin", "unary", "cast", "cmp", "where", "reduce", "cat",
                      "maxmin", "matmul", "zeros_like", "masked_fill"])
        if k == "bin":
            op = r.choice(["+", "-", "*", "+", "*"])
            e = "%s %s %s" % (tv, op, self.other(t, env, scope))
        elif k == "rbin":
            e = "%s %s %s" % (self.scalar_src(t, env, scope), r.choice(["+", "*", "-"]), tv)
        elif k == "unary":
            e = r.choice(["torch.relu(%s)", "%s.abs()", "-%s", "%s.neg()", "torch.sigmoid(%s)",
                          "%s.tanh()", "%s.clamp(-1.0, 1.0)", "%s.clamp(min=0)", "%s.sin()",
                          "%s.exp()" if t.is_floating_point() else "%s.abs()"]) % tv
        elif k == "cast":
            e = "%s.to(%s)" % (tv, DTYPE_SRC[r.choice(DTYPES)]) if r.random() < 0.6 else \
                "%s.%s()" % (tv, r.choice(["float", "double", "long", "int"]))
        elif k == "cmp":
            e = "%s %s %s" % (tv, r.choice([">", "<", ">=", "==", "!="]), self.other(t, env, scope))
        elif k == "where":
            e = "torch.where(%s > 0, %s, %s)" % (tv, tv, self.other(t, env, scope))
        elif k == "reduce":
            if t.dim() and r.random() < 0.7:
                e = "%s.%s(%d%s)" % (tv, r.choice(["sum", "sum", "mean", "amax"]), r.randrange(t.dim()),
                                     r.choice(["", ", True"]))
            else:
                e = "%s.sum()" % tv
        elif k == "cat":
            same = self.tensors(env, scope, lambda u: u.shape == t.shape and u.dtype == t.dtype)
            u = r.choice(same)
            e = "torch.%s([%s, %s], %d)" % (r.choice(["cat", "stack"]), tv, u, r.randrange(max(t.dim(), 1)))
        elif k == "maxmin":
            e = "torch.%s(%s, %s)" % (r.choice(["maximum", "minimum"]), tv, self.pick(env, scope))
        elif k == "matmul":
            e = "torch.matmul(%s, %s)" % (tv, self.pick(env, scope))
        elif k == "zeros_like":
            e = r.choice(["torch.zeros_like(%s)", "torch.ones_like(%s)", "torch.full_like(%s, 2)"]) % tv
        else:
            e = "%s.masked_fill(%s > 0, %s)" % (tv, self.pick(env, scope), self.scalar_src(t, env, scope))
        v = self.fresh()
        return "%s = %s" % (v, e), [v]

    def inplace_expr(self, tv, t, env, scope):
        r = self.r
        k = r.choice(["add_", "mul_", "sub_", "div_", "copy_", "copy_", "fill_", "zero_", "clamp_",
                      "relu_", "neg_", "abs_", "masked_fill_", "aug", "aug"])
        if k in ("add_", "sub_", "mul_"):
            if k == "add_" and r.random() < 0.2:
                return "%s.add_(%s, alpha=%s)" % (tv, self.other(t, env, scope), r.choice(["2", "0.5"]))
            return "%s.%s(%s)" % (tv, k, self.other(t, env, scope))
        if k == "div_":
            return "%s.div_(%s)" % (tv, r.choice(["2.0", "4.0", "-0.5"]))
        if k == "copy_":
            u = self.pick(env, scope)
            e = r.choice(["%s", "%s * 0.25", "%s + 1", "%s.sum()", "%s[0]" if env[u].dim() else "%s"]) % u
            self.srcs.append(e)
            return "%s.copy_(%s)" % (tv, e)
        if k == "fill_":
            return "%s.fill_(%s)" % (tv, self.scalar_src(t, env, scope) if r.random() < 0.8 else
                                     self.pick(env, scope, lambda u: u.dim() == 0))
        if k == "zero_":
            return tv + ".zero_()"
        if k == "clamp_":
            return "%s.clamp_(%s)" % (tv, r.choice(["-0.5, 0.5", "min=0", "max=1", "-1, 2"]))
        if k in ("relu_", "neg_", "abs_"):
            return "%s.%s()" % (tv, k)
        if k == "masked_fill_":
            return "%s.masked_fill_(%s > 0, %s)" % (tv, self.pick(env, scope), self.scalar_src(t, env, scope))
        if k == "index_fill_":
            if not t.dim():
                raise _Reject()
            d = r.randrange(t.dim())
            return "%s.index_fill_(%d, torch.tensor([%d]), %s)" % (tv, d, r.randrange(max(t.shape[d], 1)),
                                                                  self.scalar_src(t, env, scope))
        return "%s %s= %s" % (tv, r.choice(["+", "*", "-"]), self.other(t, env, scope))

    def s_inplace(self, env, scope):
        r = self.r
        tv = self.pick(env, scope)
        if r.random() < 0.35:  # through a fresh view expression
            tv = self.view_expr(env[tv], tv)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t = eval(tv, {"torch": torch}, copy.deepcopy(env))
        except Exception:
            raise _Reject()
        e = self.inplace_expr(tv, t, env, scope)
        self.dst = tv
        if " = " in e and not e.split(" = ")[0].isidentifier():
            raise _Reject()
        if "= " in e.split("(")[0] and not tv.isidentifier():  # aug-assign needs a name
            raise _Reject()
        return e, []

    def s_inplace_ret(self, env, scope):
        tv = self.pick(env, scope)
        t = env[tv]
        e = self.inplace_expr(tv, t, env, scope)
        self.dst = tv
        if "=" in e.split("(")[0]:
            raise _Reject()
        if self.r.random() < 0.4:
            return "%s = %s" % (tv, e), []
        v = self.fresh()
        return "%s = %s" % (v, e), [v]

    def s_setitem(self, env, scope):
        r = self.r
        tv = self.pick(env, scope, lambda u: u.dim() > 0)
        t = env[tv]
        n = t.dim()
        k = r.choice(["slice", "slice", "select", "mask", "index", "ellipsis", "all"])
        if k == "slice":
            d = r.randrange(n)
            sz = t.shape[d]
            a, b = r.randint(0, sz), r.choice(["", str(r.randint(0, sz))])
            ix = _idx(n, d, "%d:%s%s" % (a, b, r.choice(["", "", ":2"])))
        elif k == "select":
            d = r.randrange(n)
            ix = _idx(n, d, str(r.randint(-t.shape[d], t.shape[d] - 1)))
        elif k == "mask":
            m = self.tensors(env, scope, lambda u: u.shape == t.shape)
            ix = "[%s > 0]" % r.choice(m)
        elif k == "index":
            rows = r.sample(range(t.shape[0]), min(t.shape[0], r.randint(1, 2)))
            ix = "[torch.tensor([%s])]" % ", ".join(map(str, rows))
        elif k == "ellipsis":
            ix = "[..., %d]" % r.randrange(t.shape[-1])
        else:
            ix = "[:]"
        c = r.random()
        if c < 0.5:
            val = self.scalar_src(t, env, scope)
        else:
            u = self.pick(env, scope)
            val = r.choice(["%s", "%s * 2", "%s[0]" if env[u].dim() else "%s", "%s.sum()"]) % u
            self.srcs.append(val)
        self.dst = tv + ix if k in ("slice", "select", "ellipsis", "all") else tv
        return "%s%s = %s" % (tv, ix, val), []

    def s_scalar(self, env, scope):
        r = self.r
        tv = self.pick(env, scope)
        t = env[tv]
        v = self.fresh("s")
        if t.dtype.is_floating_point:
            e = r.choice(["float(%s.sum())", "float(%s.max())", "%s.sum().item()"]) % tv
        elif t.dtype == torch.bool:
            e = "int(%s.sum())" % tv
        else:
            e = r.choice(["int(%s.sum())", "float(%s.sum())"]) % tv
        if t.dim() and r.random() < 0.3:
            e = "%s.size(%d)" % (tv, r.randrange(t.dim()))
        return "%s = %s" % (v, e), [v]

    def s_ivop(self, env, scope):
        """In-place view ops: change the variable's own shape."""
        r = self.r
        tv = self.pick(env, scope)
        t = env[tv]
        n = t.dim()
        if n >= 2 and r.random() < 0.4:
            return "%s.transpose_(0, %d)" % (tv, r.randrange(1, n)), []
        if n == 2 and r.random() < 0.3:
            return tv + ".t_()", []
        if r.random() < 0.5:
            return "%s.unsqueeze_(%d)" % (tv, r.randint(0, n)), []
        return tv + ".squeeze_()", []

    def cond(self, env, scope):
        r = self.r
        sv = [v for v in scope if isinstance(env.get(v), (float, int)) and not isinstance(env.get(v), bool)]
        if sv and r.random() < 0.3:
            return "%s > %s" % (r.choice(sv), r.choice(["0", "1", "0.5"]))
        tv = self.pick(env, scope)
        return r.choice(["bool(%s.sum() > 0)", "bool(%s.sum() < 1)", "bool(%s.max() > 0.5)"]) % tv

    def control(self, kind, env, scope, depth, frozen):
        r = self.r
        fz = dict(frozen)
        for v in scope:
            if isinstance(env.get(v), torch.Tensor):
                fz[v] = (env[v].shape, env[v].dtype)
        n = r.randint(1, 4)
        if kind == "if":
            c = self.cond(env, scope)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    taken = bool(eval(c, {"torch": torch}, copy.deepcopy(env)))
            except Exception:
                return None
            b1, e1, _ = self.block(copy.deepcopy(env), scope, n, depth + 1, fz)
            b2, e2, _ = self.block(copy.deepcopy(env), scope, r.choice([0, 0, 1, 2]), depth + 1, fz)
            if not b1:
                return None
            env2 = e1 if taken else e2
            for v in list(env2):
                if v not in scope:
                    del env2[v]
            return ("if", c, b1, b2), env2, []
        # loops: the body is generated on iteration one, then checked for the remaining ones
        iters = r.choice([1, 1, 2, 3])
        e1 = copy.deepcopy(env)
        body, e1, _ = self.block(e1, scope, n, depth + 1, fz)
        if not body:
            return None
        lv = self.fresh("i" if kind == "for" else "k")
        if r.random() < 0.07 and kind == "for":  # use the loop variable as an index
            tv = self.pick(env, scope, lambda u: u.dim() > 0 and u.shape[0] >= iters)
            body.append(("line", "%s[%s] = %s" % (tv, lv, self.scalar_src(env[tv], env, scope))))
        st = ("for", lv, iters, body) if kind == "for" else ("while", lv, iters, body)
        src = "\n".join(_render_body([st], 0, []))
        env2 = self.try_exec(src, env, fz)
        if env2 is None:
            return None
        for v in list(env2):
            if v not in scope:
                del env2[v]
        return st, env2, []

    def ret(self, env, scope):
        r = self.r
        ts = self.tensors(env, scope)
        k = r.randint(1, min(4, len(ts)))
        pool = [v for v in ts if v.startswith("x")] + ts[-6:]
        items = []
        for _ in range(k):
            v = r.choice(pool if r.random() < 0.7 else ts)
            if r.random() < 0.2 and env[v].dim() and env[v].numel():
                v = self.view_expr(env[v], v)
            items.append(v)
        if self.mode == "script" and r.random() < 0.1:
            sv = [v for v in scope if isinstance(env.get(v), float)]
            if sv:
                items.append(r.choice(sv))
        return ("ret", items)


def generate(seed, mode):
    return Generator(seed, mode).program()


if __name__ == "__main__":
    import sys
    for s in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
        for m in ("script", "trace"):
            p = generate(s, m)
            print("# seed %d %s inputs %s" % (s, m, [(n, str(d), sh) for n, d, sh in p["inputs"]]))
            print(render(p))
