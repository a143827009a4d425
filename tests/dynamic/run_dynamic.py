"""Dynamic shapes end to end (docs/dynamic.md): each model is exported once with Dims, compiled
once to one model.c, built with gcc (and compiled with clang, C99 and C11, -Wall -Wextra
-Werror), then run through the C runtime at several sizes within the bounds — sizes not seen at
export among them — in one process, rebinding the inputs to new sizes; every output is compared
with what PyTorch computes at that size; the same model compiled with --target cuda runs the
same sizes through the CUDA runtime's CPU emulation (where libmcrt_cuda_emu.a is built). Refusals: an extent outside its Dim (MC_ESHAPE at
bind), two inputs that share a Dim bound with different sizes (MC_ESHAPE at mc_run), and traces
that baked a size in (refused at export, naming the Dim).

Run with /usr/bin/python3. Environment: MC, BUILD, CC as tests/e2e/run_e2e.py. Arguments:
name filters. Prints one line per case and 'N passed, N failed'."""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests/e2e"))
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))

import mc_export  # noqa: E402
from mc_export import Dim  # noqa: E402
import run_e2e  # noqa: E402

MC, BUILD, CC, run = run_e2e.MC, run_e2e.BUILD, run_e2e.CC, run_e2e.run
OUT = os.path.join(BUILD, "dynamic")
MC_ESHAPE = -3


# ---- models ------------------------------------------------------------------------------
class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))

    def forward(self, x):
        return self.net(x).softmax(-1)


class ConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.f = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
            torch.nn.MaxPool2d(2), torch.nn.Conv2d(8, 16, 3, stride=2), torch.nn.ReLU(),
            torch.nn.AdaptiveAvgPool2d((2, 2)), torch.nn.Flatten(), torch.nn.Linear(64, 5))
        bn = self.f[1]
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)

    def forward(self, x):
        return self.f(x)


class TextEncoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(50, 32)
        layer = torch.nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True)
        self.enc = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = torch.nn.Linear(32, 3)

    def forward(self, ids, pad):
        h = self.enc(self.emb(ids), src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).to(h.dtype)
        return self.head((h * keep).sum(1) / keep.sum(1).clamp(min=1.0))


class CausalBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = torch.nn.LayerNorm(32), torch.nn.LayerNorm(32)
        self.attn = torch.nn.MultiheadAttention(32, 4, batch_first=True)
        self.ff = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 32))

    def forward(self, x):
        s = x.size(1)
        mask = torch.triu(torch.ones(s, s), diagonal=1).bool()
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.ff(self.ln2(x))


class ScriptedShapes(torch.nn.Module):
    """Scripted: sizes unpacked from x.shape (aten::size(x) then prim::ListUnpack / __getitem__)."""
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(12, 3)

    def forward(self, x):
        b, c, w = x.shape
        return self.l(x.reshape(b, c * w)) * x.shape[0]


class SeqLSTM(torch.nn.Module):
    """Positional embedding sliced to the run's length, arange(seq), an LSTM, sizes in arithmetic."""
    def __init__(self):
        super().__init__()
        self.pos = torch.nn.Parameter(torch.randn(1, 24, 16))
        self.emb = torch.nn.Embedding(50, 16)
        self.lstm = torch.nn.LSTM(16, 8, batch_first=True)

    def forward(self, ids):
        x = self.emb(ids) + self.pos[:, :ids.size(1)]
        x = x + torch.arange(ids.size(1)).float().unsqueeze(-1) * 0.01
        y, _ = self.lstm(x)
        return y.reshape(y.size(0), -1).sum(-1, keepdim=True) / ids.size(1), y[:, -1]


class SizeBranch(torch.nn.Module):
    """Scripted: a branch on a size (batch > 4) and one on the data (the sum's sign); the branches'
    outputs have the run's batch."""
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(8, 6)

    def forward(self, x):
        if x.size(0) > 4:
            y = self.l(x).tanh() * 2.0
        else:
            y = self.l(x) - x.mean(1, keepdim=True)
        if bool(x.sum() > 0):
            y = y + x[:, :6]
        else:
            y = y * y
        return y, x.size(0) * y.sum(0) + y.size(0)  # y.size(0): the If's output, sized at run time


class LoopRNN(torch.nn.Module):
    """Scripted: an RNN cell run for range(x.size(1)) steps over x[:, t], its state made with the
    run's batch; a while loop whose condition reads the data; a loop over the batch indexing rows."""
    def __init__(self):
        super().__init__()
        self.wx = torch.nn.Linear(4, 8)
        self.wh = torch.nn.Linear(8, 8)

    def forward(self, x):
        h = torch.zeros(x.size(0), 8)
        for t in range(x.size(1)):
            h = torch.tanh(self.wx(x[:, t]) + self.wh(h) + h.size(0) * 0.01)  # a carried tensor's size
        acc = x.sum(1) * 3.0
        k = 0
        while bool(acc.abs().max() > 1.0) and k < 20:
            acc = acc * 0.5
            k += 1
        rows = torch.zeros(x.size(0), 4)
        for b in range(x.size(0)):
            rows[b] = x[b].max(0)[0] * (b + 1)
        return h, acc * k, rows


class BranchShapes(torch.nn.Module):
    """Scripted: branches whose results differ in shape (every other step of a long sequence, a
    short one doubled); at seq 6 the branch not taken at the max gives the longest result."""
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(4, 3)

    def forward(self, x):
        if x.size(1) > 6:
            y = x[:, ::2] * 2.0
        else:
            y = torch.cat([x, x.flip(1)], 1)
        return self.l(y).sum(1), y.size(1)


class ScriptLSTM(torch.nn.Module):
    """Scripted nn.LSTM (its hidden-size checks compare int lists at run time), then a branch on
    the sequence length keeping the last three steps."""
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(4, 5, batch_first=True)
        self.h = torch.nn.Linear(5, 2)

    def forward(self, x):
        y, (h, c) = self.lstm(x)
        if y.size(1) > 3:
            y = y[:, -3:]
        return self.h(y).mean(1), h


class NestedLoops(torch.nn.Module):
    """Scripted: a while loop on a size around a loop over the batch writing acc[b], then a branch
    on the carried tensor's size."""
    def forward(self, x):
        acc = torch.zeros(x.size(0), 3)
        i = 0
        while i < x.size(1):
            for b in range(x.size(0)):
                acc[b] = acc[b] + x[b, i] * (i + 1)
            i += 1
        if acc.size(0) > 2:
            acc = acc.flip(0)
        return acc.cumsum(0)


class GRUDecode(torch.nn.Module):
    """Scripted nn.GRUCell stepped over x[t] (time first), each step's output written into y[t]."""
    def __init__(self):
        super().__init__()
        self.cell = torch.nn.GRUCell(4, 6)
        self.out = torch.nn.Linear(6, 4)

    def forward(self, x):
        h = torch.zeros(x.size(1), 6)
        y = torch.zeros_like(x)
        for t in range(x.size(0)):
            h = self.cell(x[t], h)
            y[t] = self.out(h)
        return y, h


class MaskRows(torch.nn.Module):
    """Sizes from the data on top of a Dim: the rows whose first element is positive, the indices
    of the elements over 0.5, and the selected rows' column sums."""
    def forward(self, x):
        r = x[x[:, 0] > 0]
        return r * 2 + 1, torch.nonzero(x > 0.5), r.sum(0)


class StridedLinear(torch.nn.Module):
    """A linear of a transposed input: the kernel copies its operand, scratch that grows with the
    batch (at the example's sizes mc's bound is short of it at batch 300: no_malloc's check)."""
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(16, 8)

    def forward(self, x):
        return torch.cumsum(self.l(x.transpose(0, 1)).transpose(0, 1).sin(), 1)


def ids(b, s):
    return torch.randint(1, 50, (b, s))


def pad(b, s):
    """Each row keeps at least its first token; the rest are padding at random."""
    p = torch.rand(b, s) < 0.3
    p[:, 0] = False
    return p


BATCH = Dim("batch", min=1, max=6)
SEQ = Dim("seq", min=1, max=24)

class WriteBroadcast(torch.nn.Module):
    """Writes that broadcast into views of dynamic extent (copy_ of a scalar and of a row into
    a slice over the batch): functionalize expands the source to the view's run-time shape."""

    def forward(self, x, r):
        y = x.clone()
        y[1:] = 0.5
        y[:, :2] = r
        x[:-1, 1] += 1.0
        return y * 2, x


CASES = [
    {"name": "write_broadcast_batch", "module": WriteBroadcast, "method": "script",
     "example": lambda: (torch.randn(3, 4), torch.randn(2)),
     "dynamic_shapes": ({0: Dim("batch", min=1, max=8)}, None),
     "sizes": [lambda: (torch.randn(1, 4), torch.randn(2)), lambda: (torch.randn(8, 4), torch.randn(2)),
               lambda: (torch.randn(5, 4), torch.randn(2))], "mc_run": True},
    {"name": "mlp_batch", "module": MLP, "example": lambda: (torch.randn(2, 8),),
     "dynamic_shapes": ({0: Dim("batch", min=1, max=16)},),
     "sizes": [lambda: (torch.randn(1, 8),), lambda: (torch.randn(5, 8),),
               lambda: (torch.randn(16, 8),), lambda: (torch.randn(2, 8),)],
     "out_of_bounds": (0, [17, 8]), "mc_run": True},
    {"name": "scripted_shape_unpack", "module": ScriptedShapes, "method": "script",
     "example": lambda: (torch.randn(2, 3, 4),), "dynamic_shapes": ({0: Dim("b", min=1, max=9)},),
     "sizes": [lambda: (torch.randn(1, 3, 4),), lambda: (torch.randn(7, 3, 4),), lambda: (torch.randn(9, 3, 4),)],
     "atol": 1e-5},
    {"name": "convnet_batch_hw", "module": ConvNet, "example": lambda: (torch.randn(2, 3, 24, 24),),
     "dynamic_shapes": ({0: Dim("n", min=1, max=4), 2: Dim("h", min=12, max=40),
                         3: Dim("w", min=12, max=40)},),
     "sizes": [lambda: (torch.randn(1, 3, 17, 33),), lambda: (torch.randn(4, 3, 40, 12),),
               lambda: (torch.randn(3, 3, 29, 29),)],
     "atol": 1e-4, "rtol": 1e-4, "out_of_bounds": (0, [1, 3, 41, 20]), "no_malloc": True},
    {"name": "text_encoder_batch_seq", "module": TextEncoder, "example": lambda: (ids(2, 8), pad(2, 8)),
     "dynamic_shapes": ({0: BATCH, 1: SEQ}, {0: BATCH, 1: SEQ}),
     "sizes": [lambda: (ids(1, 5), pad(1, 5)), lambda: (ids(3, 17), pad(3, 17)),
               lambda: (ids(6, 24), pad(6, 24)), lambda: (ids(2, 1), pad(2, 1))],
     "atol": 1e-4, "rtol": 1e-4, "disagree": ([2, 7], [2, 9]), "create_in": True, "mc_run": True, "no_malloc": True},
    {"name": "lstm_posemb_batch_seq", "module": SeqLSTM, "example": lambda: (ids(2, 6),),
     "dynamic_shapes": ({0: BATCH, 1: SEQ},),
     "sizes": [lambda: (ids(1, 9),), lambda: (ids(5, 24),), lambda: (ids(6, 1),)], "atol": 1e-5},
    {"name": "script_if_size_data", "module": SizeBranch, "method": "script",
     "example": lambda: (torch.randn(3, 8),), "dynamic_shapes": ({0: Dim("batch", min=1, max=10)},),
     "sizes": [lambda: (torch.randn(1, 8) + 1.0,), lambda: (torch.randn(7, 8) - 1.0,),
               lambda: (torch.randn(10, 8) + 1.0,), lambda: (torch.randn(4, 8) - 1.0,)],
     "atol": 1e-5, "out_of_bounds": (0, [11, 8]), "mc_run": True},
    {"name": "script_loop_rnn", "module": LoopRNN, "method": "script",
     "example": lambda: (torch.randn(2, 5, 4),),
     "dynamic_shapes": ({0: Dim("batch", min=1, max=6), 1: Dim("steps", min=1, max=12)},),
     "sizes": [lambda: (torch.randn(1, 1, 4),), lambda: (torch.randn(4, 9, 4),),
               lambda: (torch.randn(6, 12, 4) * 4.0,), lambda: (torch.randn(3, 2, 4),)],
     "atol": 1e-5, "out_of_bounds": (0, [2, 13, 4]), "mc_run": True, "no_malloc": True},
    {"name": "script_if_branch_shapes", "module": BranchShapes, "method": "script",
     "example": lambda: (torch.randn(2, 4, 4),),
     "dynamic_shapes": ({0: Dim("b", min=1, max=3), 1: Dim("t", min=1, max=12)},),
     "sizes": [lambda: (torch.randn(3, 12, 4),), lambda: (torch.randn(1, 1, 4),), lambda: (torch.randn(2, 7, 4),),
               lambda: (torch.randn(2, 6, 4),)],
     "atol": 1e-5, "no_malloc": True},
    {"name": "script_lstm_module", "module": ScriptLSTM, "method": "script",
     "example": lambda: (torch.randn(2, 5, 4),),
     "dynamic_shapes": ({0: Dim("b", min=1, max=4), 1: Dim("t", min=1, max=9)},),
     "sizes": [lambda: (torch.randn(4, 9, 4),), lambda: (torch.randn(1, 1, 4),), lambda: (torch.randn(3, 3, 4),)],
     "atol": 1e-5},
    {"name": "script_nested_loops", "module": NestedLoops, "method": "script",
     "example": lambda: (torch.randn(3, 4, 3),),
     "dynamic_shapes": ({0: Dim("b", min=1, max=5), 1: Dim("t", min=1, max=7)},),
     "sizes": [lambda: (torch.randn(1, 1, 3),), lambda: (torch.randn(5, 7, 3),), lambda: (torch.randn(2, 6, 3),)],
     "atol": 1e-5},
    {"name": "script_gru_decode", "module": GRUDecode, "method": "script",
     "example": lambda: (torch.randn(3, 2, 4),),
     "dynamic_shapes": ({0: Dim("t", min=1, max=9), 1: Dim("b", min=1, max=4)},),
     "sizes": [lambda: (torch.randn(9, 4, 4),), lambda: (torch.randn(1, 1, 4),), lambda: (torch.randn(5, 3, 4),)],
     "atol": 1e-5},
    {"name": "mask_rows_batch", "module": MaskRows, "example": lambda: (torch.randn(4, 3),),
     "dynamic_shapes": ({0: Dim("batch", min=1, max=12)},),
     "sizes": [lambda: (torch.rand(1, 3) + 0.1,), lambda: (torch.randn(12, 3),), lambda: (-torch.rand(5, 3),),
               lambda: (torch.randn(7, 3),)],
     "atol": 1e-6, "out_of_bounds": (0, [13, 3]), "mc_run": True, "no_malloc": True},
    {"name": "strided_linear_no_malloc", "module": StridedLinear, "example": lambda: (torch.randn(16, 2),),
     "dynamic_shapes": ({1: Dim("batch", min=1, max=300)},),
     "sizes": [lambda: (torch.randn(16, 300),), lambda: (torch.randn(16, 1),), lambda: (torch.randn(16, 57),)],
     "atol": 1e-5, "no_malloc": True},
    {"name": "causal_block_seq", "module": CausalBlock, "example": lambda: (torch.randn(2, 6, 32),),
     "dynamic_shapes": ({0: BATCH, 1: SEQ},),
     "sizes": [lambda: (torch.randn(1, 1, 32),), lambda: (torch.randn(3, 11, 32),),
               lambda: (torch.randn(6, 24, 32),)],
     "atol": 1e-4, "rtol": 1e-4},
]


class ViewBaked(torch.nn.Module):
    def forward(self, x):
        return x.view(int(x.size(0)), -1) * 2  # int() makes the trace record the example's batch


class OnesBaked(torch.nn.Module):
    def forward(self, x):
        return x + torch.ones(4)  # 4 is the example's extent of a dim that varies


class LoopReshape(torch.nn.Module):
    """A loop-carried tensor that keeps its shape at the example (2 x 2) but not where the Dims
    differ: mc compile refuses it at the loop."""
    def forward(self, x):
        h = x
        for _ in range(x.size(0)):
            h = h.reshape(h.size(1), h.size(0)) * 2.0
        return h


COMPILE_REFUSALS = [
    ("loop_carried_shape_changes", LoopReshape, (torch.randn(2, 2),),
     ({0: Dim("rows", min=1, max=5), 1: Dim("cols", min=1, max=6)},),
     "a loop-carried tensor comes out of an iteration with another shape than it went in with"),
]


REFUSALS = [
    ("baked_view", ViewBaked, (torch.randn(2, 3, 4),), ({0: Dim("batch", min=1, max=8)},), "batch"),
    ("baked_ones", OnesBaked, (torch.randn(2, 4),), ({1: Dim("feat", min=1, max=9)},), "feat"),
]


def build(case, d):
    torch.manual_seed(0)
    mod = case["module"]()
    mod.eval()
    path = os.path.join(d, "model.json")
    mc_export.export(mod, case["example"](), path, dynamic_shapes=case["dynamic_shapes"],
                     method=case.get("method", "trace"))
    src = os.path.join(d, "model.c")
    r = run([MC, "compile", path, "-o", src, "--name", "model"])
    if r.returncode != 0:
        return mod, None, ["compile: mc exited %d:\n%s" % (r.returncode, r.stdout[-3000:])]
    exe = os.path.join(d, "harness")
    inc = ["-I" + d, "-Wa,-I" + d, "-I" + os.path.join(ROOT, "runtime")]
    r = run([CC, "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1"] + run_e2e.SAN + inc +
            [src, os.path.join(HERE, "harness.c"), os.path.join(BUILD, "libmcrt.a"), "-lm", "-lpthread", "-o", exe])
    if r.returncode != 0:
        return mod, None, ["cc: %s" % r.stdout[-3000:]]
    for cc, std in (("gcc", "c99"), ("clang", "c99"), ("clang", "c11")):
        r = run([cc, "-std=" + std, "-Wall", "-Wextra", "-Werror", "-O0"] + inc +
                ["-c", src, "-o", os.path.join(d, "model_%s.o" % cc)])
        if r.returncode != 0:
            return mod, None, ["%s -std=%s: %s" % (cc, std, r.stdout[-3000:])]
    return mod, exe, []


def check_case(case):
    d = os.path.join(OUT, case["name"])
    os.makedirs(d, exist_ok=True)
    mod, exe, errors = build(case, d)
    if errors:
        return errors
    torch.manual_seed(1)
    script, wants, given = [], [], []
    for k, make in enumerate(case["sizes"]):
        inputs = make()
        after = [x.clone() for x in inputs]  # PyTorch's final values of the inputs (written in place)
        with torch.no_grad():
            want = [run_e2e.to_numpy(w) for w in run_e2e.flatten(mod(*after))]
        od = os.path.join(d, "run%d" % k)
        os.makedirs(od, exist_ok=True)
        for i, x in enumerate(inputs):
            p = os.path.join(od, "in_%d.bin" % i)
            x.contiguous().numpy().tofile(p)
            mode = "zerocopy" if (k + i) % 2 else "copy"
            script.append("bind %d %s 0 %s %s" % (i, mode, p, " ".join(str(s) for s in x.shape)))
        script.append("run 0 %s" % od)
        wants.append((od, want, [x.numpy() for x in after], " x ".join(str(tuple(x.shape)) for x in inputs)))
        given.append([x.numpy() for x in inputs])
    expect_msgs = []
    if "out_of_bounds" in case:  # refused at bind, naming the Dim; the model still runs after
        i, shape = case["out_of_bounds"]
        p = os.path.join(d, "oob.bin")
        np.zeros(int(np.prod(shape)), dtype=np.float32).tofile(p)
        script.append("bind %d copy %d %s %s" % (i, MC_ESHAPE, p, " ".join(map(str, shape))))
        script.append("run 0 %s" % wants[-1][0])
        expect_msgs.append("outside Dim")
    if "disagree" in case:  # two inputs of one Dim bound with different sizes
        a, b = case["disagree"]
        pa, pb = os.path.join(d, "dis_a.bin"), os.path.join(d, "dis_b.bin")
        np.zeros(int(np.prod(a)), dtype=np.int64).tofile(pa)
        np.zeros(int(np.prod(b)), dtype=np.uint8).tofile(pb)
        script.append("bind 0 copy 0 %s %s" % (pa, " ".join(map(str, a))))
        script.append("bind 1 copy 0 %s %s" % (pb, " ".join(map(str, b))))
        script.append("run %d %s" % (MC_ESHAPE, d))
        expect_msgs.append("mc_run: Dim 'seq' is")
    sp = os.path.join(d, "script.txt")
    with open(sp, "w") as f:
        f.write("\n".join(script) + "\n")
    env = dict(os.environ)
    if case.get("create_in"):
        env["MC_DYN_IN"] = "1"  # the model in memory the harness supplies
    r = run([exe, sp], env=env)
    if r.returncode != 0:
        return ["harness exited %d: %s" % (r.returncode, r.stdout[-3000:])]
    for m in expect_msgs:
        if m not in r.stdout:
            errors.append("expected a message with %r, harness said: %s" % (m, r.stdout[-1000:]))
    for od, want, want_inputs, label in wants:
        errors.extend(run_e2e.compare_outputs(od, want, want_inputs, case, label))
    if case.get("no_malloc"):
        errors.extend(check_no_malloc(case, d, sp, wants, expect_msgs))
    if os.path.exists(os.path.join(BUILD, "libmcrt_cuda_emu.a")):
        errors.extend(check_cuda_emu(case, d, sp, wants, expect_msgs))
    # `mc run` (libtcc) and `mc run --interp` take .npy inputs of a size within the bounds
    for j in [1, -1] if case.get("mc_run") else []:
        od, want, _, label = wants[j]
        files = []
        for i, x in enumerate(given[j]):
            files.append(os.path.join(od, "in_%d.npy" % i))
            np.save(files[-1], x)
        for mode in ([], ["--interp"]):
            rd = os.path.join(od, "mc_run" + "".join(mode).replace("-", "_"))
            r = run([MC, "run", os.path.join(d, "model.json")] + files + ["-o", rd] + mode)
            if r.returncode != 0:
                errors.append("mc run %s %s: %s" % (" ".join(mode), label, r.stdout[-2000:]))
                continue
            for k, w in enumerate(want):
                msg = run_e2e.close(np.load(os.path.join(rd, "output_%d.npy" % k)), w, case.get("rtol", 1e-5),
                                    case.get("atol", 1e-6))
                if msg:
                    errors.append("mc run %s %s: output %d %s" % (" ".join(mode), label, k, msg))
    if case.get("mc_run") and "disagree" in case:  # inputs of one Dim at two sizes: both refuse them
        files = []
        for k, (shape, x) in enumerate(zip(case["disagree"], wants[0][2])):
            files.append(os.path.join(d, "dis_%d.npy" % k))
            np.save(files[-1], np.zeros(shape, dtype=x.dtype))
        for mode in ([], ["--interp"]):
            r = run([MC, "run", os.path.join(d, "model.json")] + files + ["-o", os.path.join(d, "dis_run")] + mode)
            if r.returncode != 1 or "Dim 'seq' is" not in r.stdout:
                errors.append("mc run %s disagreeing Dims: exit %d: %s" % (" ".join(mode), r.returncode, r.stdout[-1000:]))
    if case.get("mc_run") and "out_of_bounds" in case:  # out of bounds: both refuse it, naming the Dim
        i, shape = case["out_of_bounds"]
        files = []
        for k, x in enumerate(wants[0][2]):
            files.append(os.path.join(d, "oob_%d.npy" % k))
            np.save(files[-1], np.zeros(shape, dtype=x.dtype) if k == i else x)
        for mode in ([], ["--interp"]):
            r = run([MC, "run", os.path.join(d, "model.json")] + files + ["-o", os.path.join(d, "oob_run")] + mode)
            if r.returncode != 1 or "outside Dim" not in r.stdout:
                errors.append("mc run %s out of bounds: exit %d: %s" % (" ".join(mode), r.returncode, r.stdout[-1000:]))
    return errors


NO_HEAP_BAD = ("malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign")


def check_no_malloc(case, d, script_path, wants, expect_msgs):
    """-DMC_NO_MALLOC: the same model.c, with the runtime built from runtime-dist, in a static
    buffer of model_MEMORY_BYTES (the arena and the kernels' scratch bounded for the largest
    sizes within the Dims); no object refers to the malloc family, which is poisoned at link
    (tests/baremetal/host.c); the same script at the same sizes matches PyTorch."""
    o = os.path.join(d, "no_malloc")
    os.makedirs(o, exist_ok=True)
    dist = os.path.join(BUILD, "runtime-dist")
    inc = ["-I" + d, "-Wa,-I" + d, "-I" + dist]
    flags = ["-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-DMC_NO_MALLOC", "-DMC_NO_THREADS"]
    objs = []
    for src in (os.path.join(d, "model.c"), os.path.join(dist, "mc_runtime.c"), os.path.join(dist, "mc_core.c"),
                os.path.join(HERE, "harness.c")):
        obj = os.path.join(o, os.path.basename(src)[:-2] + ".o")
        r = run([CC] + flags + inc + ["-c", src, "-o", obj])
        if r.returncode != 0:
            return ["no_malloc: %s: %s" % (os.path.basename(src), r.stdout[-3000:])]
        objs.append(obj)
    r = run(["nm", "-u"] + objs[:3])
    bad = sorted({l.split()[-1] for l in r.stdout.splitlines() if l.split() and l.split()[-1] in NO_HEAP_BAD})
    if bad:
        return ["no_malloc: the model or runtime objects refer to %s" % ", ".join(bad)]
    host = os.path.join(o, "host.o")
    r = run([CC, "-std=c11", "-O1", "-c", os.path.join(ROOT, "tests/baremetal/host.c"), "-o", host])
    exe = os.path.join(o, "harness")
    if r.returncode == 0:
        r = run([CC] + objs + [host, "-o", exe, "-lm"] + ["-Wl,--wrap=" + f for f in ("malloc", "calloc", "realloc", "free")])
    if r.returncode != 0:
        return ["no_malloc: link: %s" % r.stdout[-3000:]]
    sp = rerun_script(o, script_path, wants)
    r = run([exe, sp])
    if r.returncode != 0:
        return ["no_malloc: harness exited %d: %s" % (r.returncode, r.stdout[-3000:])]
    errors = ["no_malloc: expected a message with %r: %s" % (m, r.stdout[-1000:]) for m in expect_msgs if m not in r.stdout]
    for od, want, want_inputs, label in wants:
        errors.extend(run_e2e.compare_outputs(os.path.join(o, os.path.basename(od)), want, want_inputs, case,
                                              "no_malloc " + label))
    return errors


def rerun_script(o, script_path, wants):
    """The script with each run's output folder moved under o; returns its path."""
    script = open(script_path).read()
    for od, _, _, _ in wants:
        nd = os.path.join(o, os.path.basename(od))
        os.makedirs(nd, exist_ok=True)
        script = script.replace("run 0 %s\n" % od, "run 0 %s\n" % nd)
    sp = os.path.join(o, "script.txt")
    with open(sp, "w") as f:
        f.write(script)
    return sp


def check_cuda_emu(case, d, script_path, wants, expect_msgs):
    """--target cuda, built the spec-6 way (the CPU emulation): the same script at the same sizes
    through the CUDA runtime (a graph with run-time shapes runs on the host there, docs/cuda.md)."""
    o = os.path.join(d, "cuda")
    os.makedirs(o, exist_ok=True)
    r = run([MC, "compile", os.path.join(d, "model.json"), "--target", "cuda", "-o", os.path.join(o, "model.cu"),
             "--name", "model"])
    if r.returncode != 0:
        return ["cuda: mc compile --target cuda exited %d:\n%s" % (r.returncode, r.stdout[-3000:])]
    dist = os.path.join(BUILD, "runtime-dist")
    inc = ["-I" + o, "-I" + dist]
    cxx = "clang++" if "clang" in CC else "c++"
    r = run([cxx, "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-DMC_CUDA_EMULATE"] + run_e2e.SAN + inc +
            ["-x", "c++", "-c", "model.cu", "-o", "model.o"], cwd=o)
    if r.returncode == 0:
        r = run([CC, "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-DMC_CUDA_EMULATE"] + run_e2e.SAN + inc +
                ["-c", os.path.join(HERE, "harness.c"), "-o", os.path.join(o, "harness.o")])
    exe = os.path.join(o, "harness")
    if r.returncode == 0:
        r = run([cxx] + run_e2e.SAN + [os.path.join(o, "harness.o"), os.path.join(o, "model.o"),
                                      os.path.join(BUILD, "libmcrt_cuda_emu.a"), "-lm", "-lpthread", "-o", exe])
    if r.returncode != 0:
        return ["cuda: build: %s" % r.stdout[-3000:]]
    r = run([exe, rerun_script(o, script_path, wants)])
    if r.returncode != 0:
        return ["cuda: harness exited %d: %s" % (r.returncode, r.stdout[-3000:])]
    errors = ["cuda: expected a message with %r: %s" % (m, r.stdout[-1000:]) for m in expect_msgs if m not in r.stdout]
    for od, want, want_inputs, label in wants:
        errors.extend(run_e2e.compare_outputs(os.path.join(o, os.path.basename(od)), want, want_inputs, case,
                                              "cuda " + label))
    return errors


def check_refusal(name, module, example, dyn, dim):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    try:
        mc_export.export(module(), example, os.path.join(d, "model.json"), dynamic_shapes=dyn)
    except mc_export.ExportError as e:
        return [] if "Dim '%s'" % dim in str(e) else ["refused without naming Dim '%s': %s" % (dim, e)]
    return ["exported a trace that baked in the size of Dim '%s'" % dim]


def check_compile_refusal(name, module, example, dyn, message):
    """Exports (scripted) with Dims; mc compile must exit 1 with the message, located."""
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "model.json")
    mc_export.export(module(), example, path, dynamic_shapes=dyn, method="script")
    r = run([MC, "compile", path, "-o", os.path.join(d, "model.c")])
    if r.returncode != 1 or message not in r.stdout or "model.json:" not in r.stdout:
        return ["mc compile exited %d without %r: %s" % (r.returncode, message, r.stdout[-1500:])]
    return []


def main():
    import warnings
    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)
    only = sys.argv[1:]
    passed = failed = 0
    jobs = [(c["name"], lambda c=c: check_case(c)) for c in CASES]
    jobs += [(r[0], lambda r=r: check_refusal(*r)) for r in REFUSALS]
    jobs += [(r[0], lambda r=r: check_compile_refusal(*r)) for r in COMPILE_REFUSALS]
    for name, job in jobs:
        if only and not any(o in name for o in only):
            continue
        try:
            errors = job()
        except Exception as e:  # a crash is a failed case
            import traceback
            errors = ["exception: %s\n%s" % (e, traceback.format_exc())]
        if errors:
            failed += 1
            print("FAIL %s\n  %s" % (name, "\n  ".join(errors)))
        else:
            passed += 1
            print("ok   %s" % name)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
