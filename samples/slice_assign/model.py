"""In-place slice assignment (seed 002, beyond samples/seed_slice): writes through a strided
slice, through a select of a row, and through a column view, then reads the mutated input again:

    x[1:3, ::2] = y          # a strided 2-D slice, y broadcast from one row
    x[0].mul_(2)             # an in-place op through a select
    x[:, -1] += 10           # augmented assignment into a column
    return x.sum(dim=1)      # must see all three writes

Traced, each write is an aten::copy_/mul_/add_ whose result nobody uses. mc turns them into
slice_scatter/select_scatter, redirects the later read, and writes the final x back into the
caller's buffer. Run with /usr/bin/python3: writes model.json and expected.txt (PyTorch's
answer for main.c's inputs)."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../frontend/python"))
R, C = 4, 6


class SliceAssign(torch.nn.Module):
    def forward(self, x, y):
        x[1:3, ::2] = y
        x[0].mul_(2)
        x[:, -1] += 10
        return x.sum(dim=1)


def inputs():
    """The same numbers main.c builds: x[i][j] = i*C + j, y = [-1, -2, -3]."""
    x = torch.arange(R * C, dtype=torch.float32).reshape(R, C)
    y = torch.tensor([-1.0, -2.0, -3.0])
    return x, y


if __name__ == "__main__":
    import mc_export
    path = os.path.join(HERE, "model.json")
    x, y = inputs()
    mc_export.export(SliceAssign(), (x.clone(), y), path)
    with open(path) as f:  # source locations relative to this folder: the same JSON anywhere
        text = f.read().replace(HERE + "/", "")
    with open(path, "w") as f:
        f.write(text)
    with torch.no_grad():
        s = SliceAssign()(x, y)
    lines = ["sum " + " ".join("%g" % v for v in s.tolist())]
    lines += ["x[%d] " % i + " ".join("%g" % v for v in row) for i, row in enumerate(x.tolist())]
    with open(os.path.join(HERE, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
