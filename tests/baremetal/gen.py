"""Writes the bare-metal test's models and data: for the MLP (Linear(64,128), ReLU,
Linear(128,10)) and LeNet-5, graph JSON (mc_export), and case.h: the model header's name, its
input and what PyTorch computes from it, as C arrays.

Usage: /usr/bin/python3 tests/baremetal/gen.py OUTDIR"""
import os
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "frontend", "python"))
import mc_export  # noqa: E402


class LeNet5(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 6, 5, padding=2)
        self.c2 = nn.Conv2d(6, 16, 5)
        self.f1 = nn.Linear(400, 120)
        self.f2 = nn.Linear(120, 84)
        self.f3 = nn.Linear(84, 10)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.c1(x)), 2)
        x = torch.max_pool2d(torch.relu(self.c2(x)), 2)
        x = torch.relu(self.f1(x.flatten(1)))
        return self.f3(torch.relu(self.f2(x)))


def floats(xs):
    return ",\n".join(", ".join(float(v).hex() + "f" for v in xs[i:i + 8]) for i in range(0, len(xs), 8))


def main(out):
    torch.manual_seed(19)
    cases = {
        "mlp": (nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)), (1, 64)),
        "lenet": (LeNet5(), (1, 1, 28, 28)),
    }
    for name, (model, shape) in cases.items():
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        model = model.eval()
        x = torch.randn(*shape)
        with torch.no_grad():
            y = model(x)
        mc_export.export(model, (x,), os.path.join(d, "model.json"))
        with open(os.path.join(d, "case.h"), "w") as f:
            f.write("/* Written by tests/baremetal/gen.py: input and PyTorch's output. */\n")
            f.write('#include "%s.h"\n#define BM_NAME "%s"\n' % (name, name))
            f.write("#define BM_CREATE_IN %s_create_in\n#define BM_MEMORY_BYTES %s_MEMORY_BYTES\n" % (name, name))
            f.write("#define BM_DEF %s_def\n" % name)
            f.write("#define BM_IN_SHAPE {%s}\n" % ", ".join(str(s) for s in shape))
            f.write("static const float bm_input[] = {\n%s};\n" % floats(x.flatten().tolist()))
            f.write("static const float bm_expect[] = {\n%s};\n" % floats(y.flatten().tolist()))


if __name__ == "__main__":
    main(sys.argv[1])
