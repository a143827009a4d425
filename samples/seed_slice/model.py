"""The in-place slice assignment from seeds/002: x[:5, :5] = x[:5, :5] + 1; return x.
Traced, its graph is a slice chain and an aten::copy_ whose result nobody uses. Writes model.txt
(the TorchScript text dump mc compiles). Run with /usr/bin/python3."""
import os
import torch


class SliceAdd(torch.nn.Module):
    def forward(self, x):
        x[:5, :5] = x[:5, :5] + 1
        return x


if __name__ == "__main__":
    traced = torch.jit.trace(SliceAdd(), (torch.zeros(10, 10),))
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "model.txt"), "w") as f:
        f.write(str(traced.inlined_graph))
