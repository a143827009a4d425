#!/usr/bin/python3
"""Writes the TorchScript text corpus: real graph dumps printed by PyTorch 1.13.

Run with /usr/bin/python3 (the interpreter with torch): `make corpus`, or
`/usr/bin/python3 tests/corpus/gen_corpus.py tests/corpus`. Every dump is `str(graph)` of a
traced, scripted, frozen or inlined module, exactly as PyTorch prints it; the parser test
(tests/check_ts.c) reads each one, verifies it and checks the print/parse round trip.
Deterministic: weights come from torch.manual_seed, and the source paths in `# file:line:col`
comments are made relative to the repository so the files do not depend on the checkout.
"""
import os
import sys
import warnings
from typing import List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore")
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
written = []


def save(name, graph):
    text = str(graph)
    text = text.replace(ROOT + "/", "")
    with open(os.path.join(OUT, name + ".txt"), "w") as f:
        f.write(text)
    written.append(name)


def seeded(ctor):
    torch.manual_seed(0)
    return ctor().eval()


def trace(m, *args):
    with torch.no_grad():
        return torch.jit.trace(m, args, check_trace=False)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return F.softmax(self.fc2(torch.relu(self.fc1(x))), dim=1)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class SmallConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
            nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=2), nn.BatchNorm2d(8), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(8, 5)

    def forward(self, x):
        return self.head(self.body(x).flatten(1))


class DepthwiseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.dw = nn.Conv2d(4, 4, 3, padding=1, groups=4, bias=False)
        self.pw = nn.Conv2d(4, 6, 1)
        self.pool = nn.AvgPool2d(2)

    def forward(self, x):
        return self.pool(F.hardtanh(self.pw(F.silu(self.dw(x)))))


class Block(nn.Module):
    def __init__(self, d=16, h=2):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.ln1 = nn.LayerNorm(d)
        self.ln2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))

    def forward(self, x):
        a, _ = self.attn(x, x, x, need_weights=False)
        x = self.ln1(x + a)
        return self.ln2(x + self.ff(x))


class SliceAssign(nn.Module):  # seeds/002: the write through a view must survive
    def forward(self, x: torch.Tensor):
        x[:5, :5] = x[:5, :5] + 1
        return x


class InPlace(nn.Module):
    def forward(self, x, y):
        x.add_(y)
        z = y.clone()
        z.relu_()
        z.mul_(2.0)
        x[0].fill_(3)
        return x, z


class Control(nn.Module):
    def forward(self, x: torch.Tensor, n: int):
        y = x
        for i in range(n):
            y = y * 2 + i
        if bool(y.sum() > 0):
            y = y - 1
        else:
            y = -y
        k = 0
        while k < 3:
            k += 1
        return y + k


class Outputs(nn.Module):
    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, List[torch.Tensor], Tuple[int, float]]:
        parts = [x + 1, x * 2]
        return x.sum(dim=0), parts, (x.dim(), 2.5)


class OutputsT(nn.Module):
    def forward(self, x):
        return x.sum(dim=0), [x + 1, x * 2], (x, (x.relu(),))


class Printer(nn.Module):
    def forward(self, x: torch.Tensor):
        print("value is", x, 1.5)
        if x.numel() == 0:
            raise RuntimeError("empty \"input\"")
        return x.mean()


class Consts(nn.Module):
    def forward(self, x: torch.Tensor):
        eps = 1e-5
        a = x * float("inf") + float("nan") - 0.1
        b = torch.clamp(x, min=-1.5, max=eps)
        c = x.to(torch.device("cpu"), dtype=torch.float64)
        d = x.view([2, -1])
        return a, b, c.float(), d, x.new_zeros([3]) + torch.tensor([1.5, 2.0, -0.25])


class TupleIn(nn.Module):
    def forward(self, xs: Tuple[torch.Tensor, torch.Tensor], m: List[int], o: Optional[int] = None):
        a, b = xs
        if o is not None:
            a = a + o
        return torch.cat([a, b], dim=m[0])


class Chunky(nn.Module):
    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        s = x.shape
        return a * b.sigmoid(), s[0] + s[1], x.transpose(0, 1).contiguous()


class WithBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.tensor([0.5, -2.0, 3.25]))
        self.register_buffer("small", torch.randn(2, 3) * 0.01)
        self.register_buffer("idx", torch.tensor([2, 0, 1]))
        self.register_buffer("cube", torch.arange(8.0).reshape(2, 2, 2))
        self.register_buffer("wide", torch.randn(1, 10) * 1000)

    def forward(self, x):
        y = x[:, self.idx] * self.scale + self.small.sum() + self.cube.mean() + self.wide.max()
        return y


def main():
    torch.manual_seed(0)
    x4 = torch.randn(2, 4)
    img1 = torch.randn(1, 1, 28, 28)
    img3 = torch.randn(1, 3, 16, 16)
    img4 = torch.randn(1, 4, 8, 8)
    seq = torch.randn(2, 5, 16)

    for name, ctor, args in [("mlp", MLP, (x4,)), ("lenet", LeNet, (img1,)),
                             ("smallconv", SmallConv, (img3,)),
                             ("depthwise", DepthwiseNet, (img4,)),
                             ("transformer", Block, (seq,)),
                             ("buffers", WithBuffer, (torch.randn(2, 3),))]:
        m = seeded(ctor)
        t = trace(m, *args)
        save(name + "_traced", t.graph)
        save(name + "_traced_inlined", t.inlined_graph)
        save(name + "_traced_frozen", torch.jit.freeze(t).graph)
        if name not in ("transformer",):
            s = torch.jit.script(seeded(ctor))
            save(name + "_scripted", s.graph)
            save(name + "_scripted_inlined", s.inlined_graph)
            save(name + "_scripted_frozen", torch.jit.freeze(s).graph)

    import torchvision
    r = seeded(lambda: torchvision.models.resnet18())
    t = trace(r, torch.randn(1, 3, 64, 64))
    save("resnet18_traced", t.graph)
    save("resnet18_traced_inlined", t.inlined_graph)
    save("resnet18_frozen", torch.jit.freeze(t).graph)

    t = trace(SliceAssign(), torch.randn(10, 10))
    save("slice_assign_traced", t.graph)
    save("slice_assign_traced_inlined", t.inlined_graph)
    save("slice_assign_scripted", torch.jit.script(SliceAssign()).graph)

    t = trace(InPlace(), torch.randn(3, 4), torch.randn(3, 4))
    save("inplace_traced", t.graph)
    save("inplace_scripted", torch.jit.script(InPlace()).graph)

    s = torch.jit.script(Control())
    save("control_scripted", s.graph)
    save("control_frozen", torch.jit.freeze(s.eval()).graph)
    s = torch.jit.script(Outputs())
    save("outputs_scripted", s.graph)
    save("outputs_traced", trace(OutputsT(), torch.randn(3, 2)).graph)
    save("print_scripted", torch.jit.script(Printer()).graph)
    save("consts_scripted", torch.jit.script(Consts()).graph)
    save("consts_traced", trace(Consts(), torch.randn(2, 4)).graph)
    save("tuple_in_scripted", torch.jit.script(TupleIn()).graph)
    save("chunky_traced", trace(Chunky(), torch.randn(4, 6)).graph)
    save("chunky_scripted", torch.jit.script(Chunky()).graph)

    print("wrote %d dumps to %s" % (len(written), OUT))


if __name__ == "__main__":
    main()
