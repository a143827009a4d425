"""Miscompiles tests/gen found (tests/gen/README.md), each reduced to a case against PyTorch:
the Python number of .item() keeps its kind, a float written into a bool tensor by fill_ or
masked_fill_ is True when nonzero (NaN too), and x[mask] = v with a one-element v of any shape
is PyTorch's masked_fill_ with v's number; a no-op cast of a strided view is read through the
view's strides; an in-place view op changes the shape every name of the tensor sees."""
import torch
import torch.nn as nn


class ItemKinds(nn.Module):
    """x.sum().item() is a Python float for a float tensor (was returned as int64), an int for
    an integer one, a bool for a bool one."""

    def forward(self, x, n, b):
        s = x.sum().item()
        k = n.sum().item()
        t = b.all().item()
        return s, k, t, x * s


class BoolFillFloat(nn.Module):
    """bool.fill_(0.5) and masked_fill_(m, 0.5) give True (value != 0, as a bool cast); a 0-dim
    float tensor as the value too, NaN included (PyTorch: True)."""

    def forward(self, a, b, c, d, z, nan):
        a.fill_(0.5)
        b.masked_fill_(b.logical_not(), 0.25)
        c.expand(2).fill_(z)
        d.fill_(nan)
        return a.to(torch.float32), b.int()


class MaskAssignOneElement(nn.Module):
    """x[mask] = v with v of shape [1, 1] (one element, more dims than the 2 selected elements):
    PyTorch's index_put_ takes masked_fill_ with v's number (the rank of v would not broadcast);
    the int32 target truncates the float64 value, the bool one takes 0.5 as True."""

    def forward(self, x, y, i, b):
        x[y > 0] = y[0]
        i[i > 0] = torch.full([1, 1], 2.75, dtype=torch.float64)
        b[b.logical_not()] = torch.full([1, 1, 1], 0.5)
        w = x.clone()
        w[None, x > 0] = x[0, 0] * 2
        return x, w


class NoopCastViewChain(nn.Module):
    """A cast to the dtype a strided view already has is the view itself (PyTorch returns its
    input): the views and copies after it read through the view's strides (were given the
    contiguous strides of a copy), also with an in-place op on the result written back."""

    def forward(self, x, y):
        v = x[..., ::2][:, :, -3].permute(0, 1).float()
        w = y.exp()[..., 1:].to(torch.float32).narrow(1, 0, 5)
        a = w.abs_()
        return v.detach(), a[1:], w + 1


class InplaceViewOnAlias(nn.Module):
    """v = x.relu_() is x: an in-place view op (transpose_, unsqueeze_, t_) on either name
    changes the shape both names see (mc changed only the name it was called on)."""

    def forward(self, x, y, z):
        v = torch.zeros_like(x)
        w = v.relu_()
        v.transpose_(0, 1)
        a = y.masked_fill_(y > 0, 3.0)
        a.unsqueeze_(1)
        u = z.clone()
        b = u.mul_(2)
        c = b.add_(1)
        u.t_()
        return w[0], y, a + 1, b, c.sum(0)


CASES = [
    dict(name="gen_regress_item_kinds_script", module=ItemKinds, method="script", format="json",
         inputs=lambda: [torch.tensor([[0.5, 1.25], [2.0, -0.5]]), torch.tensor([3, 4], dtype=torch.int32),
                         torch.tensor([True, True])]),
    dict(name="gen_regress_bool_fill_float_script", module=BoolFillFloat, method="script", format="json",
         inputs=lambda: [torch.tensor([False, False, True]), torch.tensor([False, True, False]),
                         torch.tensor(False), torch.tensor([False, False]), torch.tensor(0.5),
                         torch.tensor(float("nan"))]),
    dict(name="gen_regress_mask_assign_one_element_script", module=MaskAssignOneElement, method="script",
         format="json",
         inputs=lambda: [torch.tensor([1.5, -2.0, 3.0]).reshape(3, 1, 1),
                         torch.tensor([0.75, -1.0, 2.0]).reshape(3, 1, 1),
                         torch.tensor([1, -1, 0, 5], dtype=torch.int32), torch.tensor([True, False, False])]),
    dict(name="gen_regress_noop_cast_view_chain_script", module=NoopCastViewChain, method="script", format="json",
         inputs=lambda: [torch.randn(1, 5, 5), torch.randn(2, 5, 5)], atol=1e-5),
    dict(name="gen_regress_noop_cast_view_chain_trace", module=NoopCastViewChain, format="json",
         inputs=lambda: [torch.randn(1, 5, 5), torch.randn(2, 5, 5)], atol=1e-5),
    dict(name="gen_regress_inplace_view_on_alias_script", module=InplaceViewOnAlias, method="script", format="json",
         inputs=lambda: [torch.ones(1, 4, 3, dtype=torch.int32), torch.tensor([0.5, -1.0], dtype=torch.float64),
                         torch.arange(6.0).reshape(2, 3)]),
]
