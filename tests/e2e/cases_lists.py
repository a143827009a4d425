"""Elements of tensor lists: x.unbind(d)[k], x.split(n, d)[k], x.chunk(n, d)[k], torch.split with
sizes, tensor_split and the unsafe_ splits, negative indices, unpacked pieces (a, b = x.chunk(2)) and lists built of tensors. In
TorchScript these ops return Tensor[]; every element is a view of the base with a known shape,
and a write through an element writes the base, as in PyTorch."""
import torch
import torch.nn as nn


class Elements(nn.Module):
    """Constant-index elements of unbind / split / chunk / split_with_sizes lists, negative
    indices included, and arithmetic on them (a strided view for unbind(1) and split(2, 2))."""

    def forward(self, x):
        a = x.unbind(1)[2] * 2.0
        b = x.unbind(0)[-1] + 1.0
        c = x.split(2, 2)[1] - 0.5
        d = x.chunk(2, 0)[-2].sum(0)
        e = torch.split(x, [1, 2], 1)[1].transpose(0, 1)
        f = x.chunk(3, -1)[2]
        return a, b, c, d, e, f


class Unpacked(nn.Module):
    """Pieces unpacked into names (prim::ListUnpack) and a list built of tensors indexed."""

    def forward(self, x, y):
        a, b = x.chunk(2)
        p, q, r = y.unbind(1)
        l = [a, y]
        return a + b, p * q - r, l[-1][0], l[0].flatten()


class WriteThroughElement(nn.Module):
    """An in-place op on a list element writes the base: a, b = x.chunk(2); a.add_(1) changes x
    (an input, written back), and x.unbind(1)[0].mul_(2) too; reads after the writes see them."""

    def forward(self, x, y):
        a, b = x.chunk(2)
        a.add_(1.0)
        y.unbind(1)[0].mul_(2.0)
        y.split(1, 0)[-1].fill_(-3.0)
        return x, b * 1.0, y.sum(), a


class TensorSplit(nn.Module):
    """tensor_split by sections (the first len % sections pieces one longer) and by indices
    (slice bounds: negative, past the end, decreasing give empty or clamped pieces), and the
    unsafe_ splits; a write through a piece reaches the base."""

    def forward(self, x):
        a = x.tensor_split(3, 1)
        l = x.tensor_split([-2, 10, 1], 0)
        p, q, r = x.tensor_split([1, 3], 2)
        q.mul_(2.0)
        u, v = torch.unsafe_split(x, 2, 0)
        w = torch.unsafe_split_with_sizes(x, [1, 4], 2)[1]
        return a[0] + 1.0, a[-1] * 1.0, l[0] * 1.0, l[1] * 1.0, l[2] * 1.0, l[3] * 1.0, p * 1.0, r * 1.0, u - v, w * 1.0, x


class ListArguments(nn.Module):
    """A list of pieces passed whole to cat / stack, after a write through one of its pieces."""

    def forward(self, x):
        l = x.chunk(2)
        l[0].add_(1.0)
        return torch.cat(x.split(2), 1), torch.stack(x.unbind(1), 0) + 1.0, torch.cat(l, 0), x


class WriteThroughElementInBlock(nn.Module):
    """A write through an element inside a loop and an if: the base's final value as PyTorch."""

    def forward(self, x, c):
        for i in range(2):
            x.unbind(0)[1].add_(0.5)
        if bool(c.sum() > 0):
            x.chunk(2, 1)[0].neg_()
        return x.clone()


CASES = [
    dict(name="lists_elements_script", module=Elements, method="script", format="json",
         inputs=lambda: [torch.randn(4, 3, 5)]),
    dict(name="lists_elements_trace", module=Elements, format="json",
         inputs=lambda: [torch.randn(4, 3, 5)]),
    dict(name="lists_unpacked_script", module=Unpacked, method="script", format="json",
         inputs=lambda: [torch.randn(4, 3), torch.randn(2, 3, 3)]),
    dict(name="lists_unpacked_trace", module=Unpacked, format="json",
         inputs=lambda: [torch.randn(4, 3), torch.randn(2, 3, 3)]),
    dict(name="lists_write_through_element_script", module=WriteThroughElement, method="script", format="json",
         inputs=lambda: [torch.randn(4, 3), torch.randn(3, 2, 2)]),
    dict(name="lists_write_through_element_trace", module=WriteThroughElement, format="json",
         inputs=lambda: [torch.randn(4, 3), torch.randn(3, 2, 2)]),
    dict(name="lists_tensor_split_script", module=TensorSplit, method="script", format="json",
         inputs=lambda: [torch.randn(4, 4, 5)]),
    dict(name="lists_tensor_split_trace", module=TensorSplit, format="json",
         inputs=lambda: [torch.randn(4, 4, 5)]),
    dict(name="lists_list_arguments_script", module=ListArguments, method="script", format="json",
         inputs=lambda: [torch.randn(4, 3, 5)]),
    dict(name="lists_list_arguments_trace", module=ListArguments, format="json",
         inputs=lambda: [torch.randn(4, 3, 5)]),
    dict(name="lists_write_through_element_in_block_script", module=WriteThroughElementInBlock, method="script",
         format="json", inputs=lambda: [torch.randn(3, 4), torch.ones(2)]),
]
