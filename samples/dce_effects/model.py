"""Dead code elimination that keeps effects (seed 003). Nothing reads the results of the two
writes that matter, yet both are observable:

    tmp = x.clone(); tmp.add_(100)    # writes a local nobody reads again: dead, mc removes it
    junk = (x * 3).sum()              # pure and unused: removed
    state.add_(x)                     # writes a graph input: the caller sees it, kept
    z = x * 2
    z[0].zero_()                      # writes through a view of the returned value: kept
    return z

A purity-assuming DCE drops state.add_ and z[0].zero_() too. `make ir` shows the graph after
mc's dce pass. Run with /usr/bin/python3: writes model.json and expected.txt."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../frontend/python"))


class Effects(torch.nn.Module):
    def forward(self, x, state):
        tmp = x.clone()
        tmp.add_(100)
        junk = (x * 3).sum()
        state.add_(x)
        z = x * 2
        z[0].zero_()
        return z


def inputs():
    """The same numbers main.c builds: x = [[1, 2, 3], [4, 5, 6]], state = 10s."""
    return torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), torch.full((2, 3), 10.0)


if __name__ == "__main__":
    import mc_export
    path = os.path.join(HERE, "model.json")
    x, state = inputs()
    mc_export.export(Effects(), (x, state.clone()), path)
    with open(path) as f:  # source locations relative to this folder: the same JSON anywhere
        text = f.read().replace(HERE + "/", "")
    with open(path, "w") as f:
        f.write(text)
    with torch.no_grad():
        z = Effects()(x, state)
    lines = ["z[%d] " % i + " ".join("%g" % v for v in r) for i, r in enumerate(z.tolist())]
    lines += ["state[%d] " % i + " ".join("%g" % v for v in r) for i, r in enumerate(state.tolist())]
    with open(os.path.join(HERE, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
