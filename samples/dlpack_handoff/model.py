"""A DLPack hand-off between two compiled models (seed 004): an encoder h = relu(x W1^T + b1)
and a head y = softmax(h W2^T + b2). main.c passes the encoder's output to the head as a
DLManagedTensor (ownership moves with it), destroys the encoder before the head runs, and
counts deleter calls: each tensor's deleter must run exactly once. Weights are random with a
fixed seed. Run with /usr/bin/python3: writes encoder.json, head.json and expected.txt."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../frontend/python"))
B, D, H, K = 2, 8, 16, 4


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(D, H)

    def forward(self, x):
        return torch.relu(self.fc(x))


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(H, K)

    def forward(self, h):
        return torch.softmax(self.fc(h), dim=-1)


def inputs():
    """The same numbers main.c builds: x[i][j] = (i*D + j) / 8 - 1."""
    return torch.tensor([[(i * D + j) / 8.0 - 1.0 for j in range(D)] for i in range(B)])


def export(mc_export, module, example, name):
    path = os.path.join(HERE, name)
    mc_export.export(module, (example,), path)
    with open(path) as f:  # source locations relative to this folder: the same JSON anywhere
        text = f.read().replace(HERE + "/", "")
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    import mc_export
    torch.manual_seed(0)
    enc, head = Encoder().eval(), Head().eval()
    x = inputs()
    with torch.no_grad():
        h = enc(x)
        y = head(h)
    export(mc_export, enc, x, "encoder.json")
    export(mc_export, head, h, "head.json")
    lines = ["y[%d] " % i + " ".join("%.6f" % v for v in r) for i, r in enumerate(y.tolist())]
    lines += ["x deleter calls 1", "h deleter calls 1"]
    with open(os.path.join(HERE, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
