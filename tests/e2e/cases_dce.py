"""End-to-end DCE cases (issue [dce]): in-place updates whose results nobody uses must survive
mc's dead code elimination into the compiled C, in every input-binding mode (copy, zero-copy,
DLPack); run_e2e.py compares outputs and final input values with PyTorch. The graph-level
goldens of the same scenarios are tests/dce/seed003_*, momentum_*; the emitted-C absence of dead
code is checked by tests/dce/emit.sh."""
import torch
import torch.nn as nn


class SgdStep(nn.Module):
    """seeds/003: the sub_ result is unused; its write to w is the point."""

    def forward(self, w, g):
        w.sub_(0.1 * g)
        return (w * 2).sum()


class MomentumStep(nn.Module):
    """SGD with momentum: buf and w are updated in place, no in-place result is used."""

    def forward(self, w, buf, g):
        buf.mul_(0.9).add_(g)
        w.add_(buf, alpha=-0.1)
        return w * 1.0


class MomentumStepNoOutputUse(nn.Module):
    """The updates are the only thing the step does; the output does not read w or buf."""

    def forward(self, w, buf, g):
        buf.mul_(0.9).add_(g)
        w.add_(buf, alpha=-0.1)
        return g.sum()


class DeadCodeAround(nn.Module):
    """Dead pure code and a dead local mutation next to a live update of an input."""

    def forward(self, x, w):
        d = torch.exp(x) * 3
        t = x.clone()
        t.add_(1)
        w.sub_(x)
        return x * 2


def ins(*shapes):
    return lambda: [torch.randn(*s) for s in shapes]


CASES = [
    dict(name="dce_sgd_scripted", module=SgdStep, inputs=ins((4, 3), (4, 3)), method="script", format="json"),
    dict(name="dce_sgd_traced", module=SgdStep, inputs=ins((4, 3), (4, 3)), method="trace"),
    dict(name="dce_momentum_scripted", module=MomentumStep, inputs=ins((5,), (5,), (5,)), method="script",
         format="json"),
    dict(name="dce_momentum_traced", module=MomentumStep, inputs=ins((5,), (5,), (5,)), method="trace"),
    dict(name="dce_momentum_unread_scripted", module=MomentumStepNoOutputUse, inputs=ins((5,), (5,), (5,)),
         method="script", format="json"),
    dict(name="dce_momentum_unread_json", module=MomentumStepNoOutputUse, inputs=ins((5,), (5,), (5,)),
         method="trace", format="json"),
    dict(name="dce_dead_code_around_update", module=DeadCodeAround, inputs=ins((2, 3), (2, 3)), method="script",
         format="json"),
]
