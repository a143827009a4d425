"""One training step of least-squares linear regression, written out by hand so that the traced
graph carries the optimizer's in-place update: pred = x @ w; g = 2/N * x^T (pred - y);
w.sub_(lr * g); return (loss, w). The weights w are a graph input that the model mutates and
also returns (seeds 000 and 003: the update must land in the caller's buffer, and DCE must keep
it although nothing reads its result).

Run with /usr/bin/python3 (PyTorch): writes model.json (mc_export) and expected.txt — what
main.c must print, computed by PyTorch running the same STEPS steps on the same data."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../frontend/python"))
N, D, STEPS, LR = 8, 4, 5, 0.05


class TrainStep(torch.nn.Module):
    def forward(self, w, x, y):
        pred = x @ w
        err = pred - y
        loss = (err * err).mean()
        g = x.t() @ err * (2.0 / x.shape[0])
        w.sub_(LR * g)
        return loss, w


def data():
    """The same numbers main.c builds: x[i][j] = ((i*D+j) % 7 - 3) / 4, y = x @ [1,-2,3,0.5]."""
    x = torch.tensor([[((i * D + j) % 7 - 3) / 4.0 for j in range(D)] for i in range(N)])
    y = x @ torch.tensor([[1.0], [-2.0], [3.0], [0.5]])
    return x, y


if __name__ == "__main__":
    import mc_export
    x, y = data()
    path = os.path.join(HERE, "model.json")
    mc_export.export(TrainStep(), (torch.zeros(D, 1), x, y), path)
    with open(path) as f:  # source locations relative to this folder: the same JSON anywhere
        text = f.read().replace(HERE + "/", "")
    with open(path, "w") as f:
        f.write(text)
    w = torch.zeros(D, 1)
    lines = []
    with torch.no_grad():
        for step in range(STEPS):
            loss, _ = TrainStep()(w, x, y)
            lines.append("step %d loss %.6f" % (step, loss.item()))
    lines.append("w " + " ".join("%.6f" % v for v in w.flatten().tolist()))
    with open(os.path.join(HERE, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
