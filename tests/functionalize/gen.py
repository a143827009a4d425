"""gen.py — traces the in-place / write-through-view patterns of the functionalize tests and
writes, per case, the graph PyTorch prints and the values PyTorch computes.

Usage: /usr/bin/python3 tests/functionalize/gen.py OUTDIR

For each case NAME it writes OUTDIR/NAME.txt (str(traced.inlined_graph)) and OUTDIR/NAME.data,
one tensor a line:
    in|out|final DTYPE NDIM D0 .. Dn-1 V0 V1 ...
`in` lines are the inputs in graph order, `out` lines the flattened outputs, `final` lines the
inputs' values after the call (PyTorch mutates them in place). Values print exactly (repr of
float64, ints as ints, bools as 0/1). Seeds are fixed: the output is the same on every run.
Cases run with method "trace"; those in SCRIPTED are also scripted (NAME_s; the bare `Tensor`
inputs of a scripted graph get the example inputs' types). ERRORS go to OUTDIR/errors: NAME.txt
and NAME.err (line 1: the pipeline, line 2: a substring of the diagnostic mc must give).
The committed copy lives in tests/functionalize/cases; regenerate with
    /usr/bin/python3 tests/functionalize/gen.py tests/functionalize/cases
"""
import os
import sys

import torch

DT = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64",
      torch.int32: "int32", torch.bool: "bool", torch.uint8: "uint8"}
TS_DT = {torch.float32: "Float", torch.float64: "Double", torch.int64: "Long",
         torch.int32: "Int", torch.bool: "Bool", torch.uint8: "Byte"}


def f(x):
    return torch.randn(*x)


def case_seed(x):
    x[:5, :5] = x[:5, :5] + 1
    return x


def case_step_fill(x):
    x[1:4:2] = 7
    return x


def case_select_neg(x, y):
    x[:, -1] = y
    return x


def case_select_select(x):
    x[0][1] = 3
    return x


def case_view_write(x):
    x.view(4, 6)[1, 2:5] = 9
    return x


def case_t_write(x, c):
    x.t()[0] = c
    return x


def case_unsqueeze_add(x):
    x.unsqueeze(0)[0, 1:] += 1
    return x


def case_diag_fill(x):
    x.diagonal().fill_(0)
    return x


def case_relu_ret(x):
    x.relu_()
    return x


def case_out_alias(x):
    y = x.add_(1)
    return x, y


def case_two_views(x):
    a = x[0]
    b = x[:, 1]
    x[1:3, 1:3] = 5
    return a + 0, b * 2, x[2]


def case_second_input(a, b):
    b[0] = a[0]
    return a + b


def case_bcast_copy(x):
    x[:, 1:3] = torch.ones(3, 1)
    return x


def case_cast_copy(x, y):
    x[1:3] = y
    return x


def case_overlap1(x):
    x[-3:] = x[:3]
    return x


def case_overlap2(x):
    x[4:] = x[:4].flip(0)
    return x


def case_masked_fill(x, m):
    x.masked_fill_(m, -1.0)
    return x


def case_mask_put(x, m, v):
    x[m] = v
    return x


def case_idx_put(x, i, v):
    x[i] = v
    return x


def case_idx_acc(x, i, v):
    x[i] += v
    return x


def case_local_clone(x):
    y = x.clone()
    y[1] = 0
    y.mul_(2)
    return y


def case_reshape_noncontig(x):
    r = x.t().reshape(-1)
    r[0] = 100
    return x, r


def case_reshape_contig(x):
    r = x.reshape(-1)
    r[0] = 100
    return x, r


def case_row_col(x, d):
    x[1:3, 0] = d
    return x


def case_bcast_row(x, d):
    x[1, 1:3] = d
    return x


def case_ellipsis(x, u):
    x[..., 1] = u
    return x


def case_ellipsis2(x, u):
    x[2, ..., 1:3] = u
    return x


def case_step2(x, y):
    x[::2] = y
    return x


def case_iadd_cols(x):
    x[:, 2:4] += 1
    return x


def case_state(state, a, b):
    state[1] += a
    state[1] /= b
    return state


def case_alias_name(x, v):
    y = x
    y[1] = v
    return x, y


def case_view_write_ret(x):
    v = x[2:8]
    v[1:3] = 0
    return x, v


def case_transpose_write(x, c):
    x.transpose(0, 1)[0] = c
    return x


def case_view_flat(x):
    x.view(-1)[3] = 5
    return x


def case_zero_ret(x):
    return x.zero_(), x


def case_int_from_float(x, y):
    x.copy_(y)
    return x


def case_chain_writes(x):
    x.add_(1)
    x[0].mul_(3)
    x.sub_(x[1] * 1)
    return x


def case_view_after_write(x):
    a = x[1]
    x.mul_(2)
    a.add_(1)
    return x, a


def case_neg_oob_slice(x):
    x[-100:2] = 1
    x[3:100] = 2
    return x


def case_permute_write(x):
    x.permute(2, 0, 1)[1, 0] = 4
    return x


def case_squeeze_write(x):
    x.squeeze(1)[2] = 8
    return x


def case_narrow_write(x):
    x.narrow(0, 1, 2).fill_(3)
    return x


def case_clamp_sigmoid(x):
    x[0].clamp_(-0.5, 0.5)
    x[1].sigmoid_()
    return x


def case_flatten_write(x):
    x.flatten()[5] = -2
    return x


def case_expand_read(x):
    e = x.expand(3, 4)
    x.add_(1)
    return e * 1


def case_write_out_again(x):
    y = x[1:3].add_(1)
    y[0].mul_(2)
    return x, y


def case_fresh_const(x):
    t = torch.zeros(3, 4)
    t[1] = x[0]
    t[:, 0] += 5
    return t


def case_copy_then_src_write(x, y):
    x.copy_(y)
    y.add_(1)
    return x, y


def case_view_chain_after_write(x):
    a = x[0]
    x.add_(1)
    b = a[1:3]
    b.fill_(0)
    return x, a


def case_two_inputs_cross(a, b):
    a[0] = b[1]
    b[1] = a[0] * 2
    return a, b


def case_idx_put_view(x, i, v):
    x[1:][i] = v
    return x


def case_movedim_write(x):
    x.movedim(0, 2)[1] = 3
    x.movedim((0, 1), (1, 0))[0, 1:] += 1
    return x


def case_expand_write(x):
    # the write reaches one copy of x (PyTorch runs it): the inverse picks that copy
    x.expand(3, 4)[1].fill_(1)
    return x


CASES = [
    ("seed", case_seed, lambda: (f((10, 10)),)),
    ("step_fill", case_step_fill, lambda: (f((6, 3)),)),
    ("select_neg", case_select_neg, lambda: (f((4, 5)), f((4,)))),
    ("select_select", case_select_select, lambda: (f((3, 4)),)),
    ("view_write", case_view_write, lambda: (f((2, 3, 4)),)),
    ("t_write", case_t_write, lambda: (f((3, 4)), f((3,)))),
    ("unsqueeze_add", case_unsqueeze_add, lambda: (f((5, 2)),)),
    ("diag_fill", case_diag_fill, lambda: (f((4, 5)),)),
    ("relu_ret", case_relu_ret, lambda: (f((3, 4)),)),
    ("out_alias", case_out_alias, lambda: (f((3, 4)),)),
    ("two_views", case_two_views, lambda: (f((4, 4)),)),
    ("second_input", case_second_input, lambda: (f((3, 4)), f((3, 4)))),
    ("bcast_copy", case_bcast_copy, lambda: (f((3, 5)),)),
    ("cast_copy", case_cast_copy, lambda: (torch.randint(-5, 5, (4, 3)), f((2, 3)) * 4)),
    ("overlap1", case_overlap1, lambda: (f((8,)),)),
    ("overlap2", case_overlap2, lambda: (f((8, 2)),)),
    ("masked_fill", case_masked_fill, lambda: (f((4, 4)), torch.rand(4, 4) > 0.5)),
    ("mask_put", case_mask_put, lambda: (f((4, 4)), torch.rand(4, 4) > 0.5, torch.tensor(2.5))),
    ("idx_put", case_idx_put, lambda: (f((5, 3)), torch.tensor([0, 3, -1]), f((3, 3)))),
    ("idx_acc", case_idx_acc, lambda: (f((5, 3)), torch.tensor([0, 3, 0]), f((3, 3)))),
    ("local_clone", case_local_clone, lambda: (f((3, 4)),)),
    ("reshape_noncontig", case_reshape_noncontig, lambda: (f((3, 4)),)),
    ("reshape_contig", case_reshape_contig, lambda: (f((3, 4)),)),
    ("row_col", case_row_col, lambda: (f((4, 3)), f((2,)))),
    ("bcast_row", case_bcast_row, lambda: (f((3, 4)), f((1,)))),
    ("ellipsis", case_ellipsis, lambda: (f((2, 3, 4)), f((2, 3)))),
    ("ellipsis2", case_ellipsis2, lambda: (f((4, 3, 5)), f((3, 2)))),
    ("step2", case_step2, lambda: (f((7, 2)), f((4, 2)))),
    ("iadd_cols", case_iadd_cols, lambda: (f((3, 6)),)),
    ("state", case_state, lambda: (f((3, 4)), f((4,)), f((4,)).abs() + 1)),
    ("alias_name", case_alias_name, lambda: (f((3, 4)), f((4,)))),
    ("view_write_ret", case_view_write_ret, lambda: (f((10, 2)),)),
    ("transpose_write", case_transpose_write, lambda: (f((3, 4)), f((3,)))),
    ("view_flat", case_view_flat, lambda: (f((2, 3)),)),
    ("zero_ret", case_zero_ret, lambda: (f((2, 3)),)),
    ("int_from_float", case_int_from_float, lambda: (torch.randint(-5, 5, (2, 3)), f((2, 3)) * 3)),
    ("chain_writes", case_chain_writes, lambda: (f((3, 4)),)),
    ("view_after_write", case_view_after_write, lambda: (f((3, 4)),)),
    ("neg_oob_slice", case_neg_oob_slice, lambda: (f((6,)),)),
    ("permute_write", case_permute_write, lambda: (f((2, 3, 4)),)),
    ("squeeze_write", case_squeeze_write, lambda: (f((4, 1, 3)),)),
    ("narrow_write", case_narrow_write, lambda: (f((4, 3)),)),
    ("clamp_sigmoid", case_clamp_sigmoid, lambda: (f((2, 5)),)),
    ("flatten_write", case_flatten_write, lambda: (f((2, 2, 3)),)),
    ("expand_read", case_expand_read, lambda: (f((1, 4)),)),
    ("write_out_again", case_write_out_again, lambda: (f((4, 3)),)),
    ("fresh_const", case_fresh_const, lambda: (f((2, 4)),)),
    ("copy_then_src_write", case_copy_then_src_write, lambda: (f((2, 3)), f((2, 3)))),
    ("view_chain_after_write", case_view_chain_after_write, lambda: (f((3, 4)),)),
    ("two_inputs_cross", case_two_inputs_cross, lambda: (f((3, 2)), f((3, 2)))),
    ("movedim_write", case_movedim_write, lambda: (f((2, 3, 4)),)),
    ("idx_put_view", case_idx_put_view, lambda: (f((5, 3)), torch.tensor([0, 2]), f((2, 3)))),
    ("expand_write", case_expand_write, lambda: (f((1, 4)),)),
]

SCRIPTED = {"seed", "step_fill", "select_neg", "relu_ret", "out_alias", "second_input",
            "overlap1", "overlap2", "masked_fill", "local_clone", "iadd_cols", "state",
            "view_write_ret", "transpose_write", "view_flat", "zero_ret", "chain_writes",
            "view_after_write", "narrow_write", "copy_then_src_write",
            "view_chain_after_write", "two_inputs_cross", "write_out_again"}


def err_as_strided(x):
    x.as_strided((2, 2), (4, 1)).fill_(0)
    return x


def err_expand(x):
    # a documented limit: the views after the expand are not slice / select / narrow
    x.expand(3, 4).t()[1].fill_(1)
    return x


# Patterns functionalize must refuse with a located error (PASSES: the pipeline to run; the
# expected message substring goes to NAME.err).
ERRORS = [
    ("as_strided", err_as_strided, lambda: (f((4, 4)),), "trace", "prep,infer,functionalize",
     "writes through aten::as_strided"),
    ("expand", err_expand, lambda: (f((1, 4)),), "trace", "prep,infer,functionalize",
     "writes through a broadcasting 'aten::expand'"),
]


class Wrap(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def fmt(kind, t):
    t = t.detach().contiguous()
    vals = t.reshape(-1).tolist()
    if t.dtype == torch.bool:
        vs = " ".join("1" if v else "0" for v in vals)
    elif t.dtype.is_floating_point:
        vs = " ".join(repr(float(v)) for v in vals)
    else:
        vs = " ".join(str(int(v)) for v in vals)
    return "%s %s %d %s %s\n" % (kind, DT[t.dtype], t.dim(), " ".join(str(s) for s in t.shape), vs)


def flatten(o):
    if isinstance(o, (tuple, list)):
        r = []
        for e in o:
            r += flatten(e)
        return r
    return [o]


def typed_graph(module, inputs):
    """The graph text, with scripted graphs' bare `Tensor` inputs given the example's types."""
    g = module.inlined_graph
    text = str(g)
    head, sep, rest = text.partition("):\n")
    tensors = [v for v in g.inputs() if v.type().kind() != "ClassType"]
    for v, t in zip(tensors, inputs):
        ty = "%s(%s, strides=[%s], requires_grad=0, device=cpu)" % (
            TS_DT[t.dtype], ", ".join(str(s) for s in t.shape), ", ".join(str(s) for s in t.stride()))
        if t.dim() == 0:
            ty = "%s(requires_grad=0, device=cpu)" % TS_DT[t.dtype]
        head = head.replace("%%%s : Tensor" % v.debugName(), "%%%s : %s" % (v.debugName(), ty), 1)
    return head + sep + rest


def write_case(outdir, name, module, fn, inputs):
    g = typed_graph(module, inputs)
    ins = [t.clone() for t in inputs]
    outs = flatten(fn(*ins))
    with open(os.path.join(outdir, name + ".txt"), "w") as fh:
        fh.write(g)
    with open(os.path.join(outdir, name + ".data"), "w") as fh:
        for t in inputs:
            fh.write(fmt("in", t))
        for t in outs:
            fh.write(fmt("out", t))
        for t in ins:
            fh.write(fmt("final", t))


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: gen.py OUTDIR\n")
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    torch.manual_seed(0)
    for name, fn, mk in CASES:
        inputs = mk()
        traced = torch.jit.trace(Wrap(fn), tuple(t.clone() for t in inputs), check_trace=False)
        write_case(outdir, name, traced, fn, inputs)
        if name in SCRIPTED:
            scripted = torch.jit.script(fn)
            write_case(outdir, name + "_s", scripted, fn, inputs)
    errdir = os.path.join(outdir, "errors")
    os.makedirs(errdir, exist_ok=True)
    for name, fn, mk, method, passes, msg in ERRORS:
        inputs = mk()
        if method == "trace":
            m = torch.jit.trace(Wrap(fn), inputs, check_trace=False)
        else:
            m = torch.jit.script(fn)
        with open(os.path.join(errdir, name + ".txt"), "w") as fh:
            fh.write(typed_graph(m, [t for t in inputs if isinstance(t, torch.Tensor)]))
        with open(os.path.join(errdir, name + ".err"), "w") as fh:
            fh.write("%s\n%s\n" % (passes, msg))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
