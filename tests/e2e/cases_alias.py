"""Aliases through control flow and in-place writes through views (issue 16's patterns), each
checked against PyTorch: every output, the final value of every input and every dtype.

run_e2e.py runs these cases through the C path (mc compile, gcc/clang, the runtime with
copying, zero-copy and DLPack input binding). Run this file itself with /usr/bin/python3 to
check the same cases through `mc run` (libtcc) and `mc run --interp`; environment MC (path to
mc), BUILD (build dir); arguments are name-prefix filters. It prints one line per case and mode
and a closing 'N passed, N failed' line, and exits 1 on any failure.

Inputs are torch.randn with fixed seeds; each module's docstring says which pattern it is.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn


# ---- loop-carried aliases of inputs --------------------------------------------------------
class LoopCarriedMul(nn.Module):
    """A loop-carried alias of an input written in the loop: the input and the result change."""

    def forward(self, x0):
        for i in range(1):
            x0 = x0.mul_(1.5)
        return x0


class LoopCarriedMulTwice(nn.Module):
    """The same over three trips, the result read after the loop by a pure op."""

    def forward(self, x0, x1):
        for i in range(3):
            x0 = x0.mul_(1.5).add_(x1)
        return x0 * 2.0


class WhileAliasAdd(nn.Module):
    """`a = x` then a while loop with `a += 1.0`: x is mutated too."""

    def forward(self, x):
        a = x
        k = 0
        while k < 3:
            a += 1.0
            k += 1
        return a


class ForAliasAdd(nn.Module):
    def forward(self, x):
        a = x
        for i in range(2):
            a += 1.0
        return a


class ForAliasIfInside(nn.Module):
    """An if inside the loop decides whether the alias is written."""

    def forward(self, x):
        a = x
        for i in range(4):
            if i % 2 == 0:
                a += 1.0
        return a


class NestedLoopsAlias(nn.Module):
    def forward(self, x):
        a = x
        for i in range(2):
            for j in range(3):
                a += 0.5
        return a


class WhileSliceAlias(nn.Module):
    """A slice alias of an input updated in a while loop: rows 1.. of x change."""

    def forward(self, x):
        a = x[1:]
        k = 0
        while k < 2:
            a += 1.0
            k += 1
        return x


class LoopReassignAlias(nn.Module):
    """The carried value is rebound to a fresh tensor inside the loop, then written: only the
    first trip writes x."""

    def forward(self, x):
        a = x
        for i in range(3):
            a.add_(1.0)
            a = a * 2.0
        return a


class WhileCountedAlias(nn.Module):
    """A while loop with a run-time trip count writing an alias of the input."""

    def forward(self, x):
        a = x
        n = int(x.shape[0]) + 1
        k = 0
        while k < n:
            a.mul_(0.5)
            k += 1
        return a + 1.0, x


class LoopCarriedViewInplace(nn.Module):
    """A view of an input carried by a loop as the result of an in-place op on itself, read
    after the loop through another view (found by tests/gen: the strides of the copy were
    assumed)."""

    def forward(self, x1):
        v5 = x1[:, -1]
        k = 0
        while k < int(x1.shape[0]) - 1:
            v5 = v5.clamp_(-1.0, 0.5)
            k += 1
        return v5[:, None]


# ---- values out of an if, written later --------------------------------------------------
class IfThenWrite(nn.Module):
    """`a = x0; if c1: a = x1` then `if c2: a.add_(1.0)`: whichever a picked is written."""

    def forward(self, x0, x1):
        a = x0
        if bool(x0.sum() > x1.sum()):
            a = x1
        if bool(x0.mean() < 10.0):
            a.add_(1.0)
        return a * 1.0


class IfThenWriteReturn(nn.Module):
    """The same with the selected tensor itself returned."""

    def forward(self, x0, x1):
        a = x0
        if bool(x0.sum() < x1.sum()):
            a = x1
        if bool(x1.mean() < 10.0):
            a.add_(1.0)
        return a


class TernaryAlias(nn.Module):
    """`a = x if cond else y; a.add_(1)`: the tensor the condition picks is written."""

    def forward(self, x, y):
        a = x if bool(x.sum() > y.sum()) else y
        a.add_(1)
        return a


class TernaryAliasThenRead(nn.Module):
    """The same, then both candidates are read."""

    def forward(self, x, y):
        a = x if bool(x.sum() <= y.sum()) else y
        a.mul_(2.0)
        return x + y, a


class TernaryAliasView(nn.Module):
    """A branch-selected view of one of two inputs, written through."""

    def forward(self, x, y):
        if bool(x.sum() > y.sum()):
            a = x[0]
        else:
            a = y[1]
        a.fill_(3.0)
        return x.sum(0), y.sum(0)


# ---- writes through views, then reads of the base --------------------------------------------
class TransposeDivRow(nn.Module):
    def forward(self, x0):
        x0.t().div_(4.0)
        return x0[0]


class TransposeDivView(nn.Module):
    def forward(self, x0):
        x0.t().div_(4.0)
        return x0.view(-1)


class TransposeDivReshape(nn.Module):
    def forward(self, x0):
        x0.t().div_(4.0)
        return x0.reshape(-1)


class TransposeDivContiguous(nn.Module):
    def forward(self, x0):
        x0.t().div_(4.0)
        return x0.contiguous(), x0.t().contiguous()


class PermuteWriteRead(nn.Module):
    def forward(self, x0):
        x0.permute(2, 0, 1)[1].mul_(3.0)
        return x0[:, 1], x0.flatten()


class CopyIntoFullView(nn.Module):
    """copy_ into a full-size view must not make y share x1's buffer."""

    def forward(self, x1):
        y = x1 * 2.0
        y.view(-1).copy_(x1.view(-1))
        x1.add_(1.0)
        return y


class CopyIntoFullViewSame(nn.Module):
    def forward(self, x1):
        y = x1 * 2.0
        y.view(-1).copy_(x1.reshape(-1))
        x1.add_(1.0)
        return y, x1


class CopyThroughDetachThenWriteSource(nn.Module):
    """copy_ into a view the size of the base, then the source is written: the base keeps the
    source's old values (found by tests/gen)."""

    def forward(self, x1, x2):
        x1.detach().copy_(x2)
        x2[..., 0] = 3.0
        return x1.masked_fill(x2 * 2.0 > 0, -2.5)


class CastToSameDtype(nn.Module):
    """x.to(its own dtype) and x.float() on a float tensor return x itself: writes through either
    are seen by both (found by tests/gen)."""

    def forward(self, x0, x1):
        v1 = x0.to(torch.float32)
        x0[:, 0] = 1.5
        v2 = x1.float()
        v2.zero_()
        return v1 * 1.0, x1 + 1.0


class BroadcastCopyView(nn.Module):
    """A broadcasting copy_ through a view writes every row."""

    def forward(self, x0, x1):
        x0.unsqueeze(0).copy_(x1[:1] * 0.25)
        return x0[1]


class InplaceResultInLoop(nn.Module):
    """The result of an in-place op written inside a block."""

    def forward(self, x0):
        t = x0[0].mul_(2.0)
        for i in range(1):
            t[1] = 5.0
        return x0


class InplaceResultInIf(nn.Module):
    def forward(self, x0):
        t = x0[1].add_(1.0)
        if bool(x0.sum() > -100.0):
            t[0] = 7.0
        return x0 * 1.0


class DiagonalTransposeCopy(nn.Module):
    def forward(self, x1):
        t2 = x1[0].diagonal(-1)
        x1.transpose(2, 1).copy_(t2 * 0.25)
        return x1.select(0, 0)


class ExpandSliceFill(nn.Module):
    """The written region of an expand does not overlap itself: PyTorch runs it."""

    def forward(self, x):
        x.expand(3, -1, -1, -1)[1:2, 4:, :3].fill_(1.5)
        return x


class ExpandSelectAdd(nn.Module):
    """An expanded size-1 dim cut to one index by select, then written."""

    def forward(self, x):
        y = x * 1.0
        y.expand(2, 3, 4)[1, :, 2].add_(10.0)
        return y, x.expand(2, 3, 4)[0, 1:].sum()


class ExpandFillOverlapping(nn.Module):
    """fill_ and zero_ store one value, so PyTorch runs them on an expanded tensor whose elements
    overlap (add_ and copy_ it refuses)."""

    def forward(self, x, y):
        x.expand(3, -1, -1)[:, 1:].fill_(2.5)
        y.unsqueeze(1).expand(-1, 4)[1:].zero_()
        return x.sum(0), y * 1.0


class UnsqueezeInplace(nn.Module):
    def forward(self, x):
        y = x * 2.0
        y.unsqueeze_(0)
        y.add_(1.0)
        return y


class SqueezeInplace(nn.Module):
    def forward(self, x):
        y = x + 1.0
        y.squeeze_(1)
        y[0] = 3.0
        return y


class TransposeInplace(nn.Module):
    def forward(self, x):
        y = x * 1.0
        y.transpose_(0, 1)
        y[0] = 2.0
        return y, y.sum(1)


class TInplace(nn.Module):
    def forward(self, x):
        y = x - 1.0
        y.t_()
        return y.contiguous(), y[1]


class InputTransposeInplace(nn.Module):
    """In-place view ops on an input change its metadata only (a C caller sees the memory); a
    write through it changes the caller's values. The second transpose_ gives x its shape back,
    so PyTorch's final x is the memory a C caller sees."""

    def forward(self, x):
        x.transpose_(0, 1)
        x[0] = 1.0
        y = x.sum(1)
        x.t_()
        return y, x[1]


class CastAliasTransposeInplace(nn.Module):
    """x.to(x.dtype) is x itself: an in-place view op through the cast changes x's shape too
    (found by tests/gen). The t_ gives x its shape back for the final-input comparison."""

    def forward(self, x):
        v = x.to(torch.float32)
        v.transpose_(0, 1)
        y = x + 1
        x.t_()
        return y, v.sum(0), x[1]


class ContiguousAliasInplaceView(nn.Module):
    """x.contiguous() of a contiguous x is x itself: in-place view ops through it change x's shape
    too (found by tests/gen). The last ones give x its shape back for the final-input comparison."""

    def forward(self, x):
        v = x.contiguous()
        v.unsqueeze_(1)
        y = x * 2.0
        v.transpose_(0, 2)
        z = x + 1.0
        v.transpose_(0, 2)
        v.squeeze_(1)
        return y, z, v.sum(0)


class ContiguousCopyInplaceView(nn.Module):
    """contiguous() of a transposed view is a copy, a tensor of its own: x keeps its shape."""

    def forward(self, x):
        v = x.t().contiguous()
        v.unsqueeze_(0)
        return v * 2.0, x + 1.0


class FlattenOneDimInplaceView(nn.Module):
    """flatten(1, 1), and flatten() of a 1-d tensor, return the tensor itself (found by tests/gen);
    flatten() of a 2-d tensor is a view, another tensor object."""

    def forward(self, x, w, g):
        v = x.flatten(1, 1)
        v.unsqueeze_(1)
        y = x.sum(2)
        u = w.flatten()
        w.unsqueeze_(0)
        r = u * 2.0
        w.squeeze_(0)
        v.squeeze_(1)
        f = g.flatten()
        f.unsqueeze_(0)
        return y, r, f * 1.0, g + 0.0


class LoopCarriedInplaceView(nn.Module):
    """A loop that returns the input written in place (`x = x.add_(a)`) gives back the input
    tensor object: an in-place view op on the loop's result transposes the input's other names
    too (found by tests/gen). The second transpose_ gives x its shape back."""

    def forward(self, x):
        a = x
        for i in range(2):
            x = x.add_(a)
        x.transpose_(0, 1)
        y = a.sum(0)
        x.transpose_(0, 1)
        return y


class IfOutputInplaceView(nn.Module):
    """The same through a prim::If that returns the written input on its branch."""

    def forward(self, x):
        v = x.flatten(1, 1)
        if bool(v.sum() > 0):
            x = x.sub_(1.0)
        v.t_()
        y = x * 1.0
        v.t_()
        return y


class TransposeWriteReturnBase(nn.Module):
    """Outputs are compact row-major: x written through a transposed view, x returned."""

    def forward(self, x):
        x.transpose(0, 1)[0] = 1.5
        return x


class ReturnTransposedView(nn.Module):
    def forward(self, x):
        y = x * 2.0
        return y.t(), x.t()[1:]


def randn(*shapes):
    return lambda: [torch.randn(*s) for s in shapes]


_S = "script"
_T = "trace"
_SPECS = [
    ("loop_carried_mul", LoopCarriedMul, randn((3, 4)), (_S,)),
    ("loop_carried_mul_twice", LoopCarriedMulTwice, randn((3, 4), (3, 4)), (_S,)),
    ("while_alias_add", WhileAliasAdd, randn((2, 3)), (_S,)),
    ("for_alias_add", ForAliasAdd, randn((2, 3)), (_S, _T)),
    ("for_alias_if_inside", ForAliasIfInside, randn((2, 3)), (_S, _T)),
    ("nested_loops_alias", NestedLoopsAlias, randn((2, 3)), (_S, _T)),
    ("while_slice_alias", WhileSliceAlias, randn((3, 2)), (_S,)),
    ("loop_reassign_alias", LoopReassignAlias, randn((2, 3)), (_S, _T)),
    ("while_counted_alias", WhileCountedAlias, randn((2, 3)), (_S,)),
    ("loop_carried_view_inplace", LoopCarriedViewInplace, randn((3, 4)), (_S,)),
    ("if_then_write", IfThenWrite, randn((3, 4), (3, 4)), (_S,)),
    ("if_then_write_return", IfThenWriteReturn, randn((3, 4), (3, 4)), (_S,)),
    ("ternary_alias", TernaryAlias, randn((2, 3), (2, 3)), (_S,)),
    ("ternary_alias_then_read", TernaryAliasThenRead, randn((2, 3), (2, 3)), (_S,)),
    ("ternary_alias_view", TernaryAliasView, randn((2, 3), (2, 3)), (_S,)),
    ("transpose_div_row", TransposeDivRow, randn((3, 4)), (_S, _T)),
    ("transpose_div_view", TransposeDivView, randn((3, 4)), (_S, _T)),
    ("transpose_div_reshape", TransposeDivReshape, randn((3, 4)), (_S, _T)),
    ("transpose_div_contiguous", TransposeDivContiguous, randn((3, 4)), (_S, _T)),
    ("permute_write_read", PermuteWriteRead, randn((2, 3, 4)), (_S, _T)),
    ("copy_into_full_view", CopyIntoFullView, randn((3, 4)), (_S, _T)),
    ("copy_into_full_view_same", CopyIntoFullViewSame, randn((3, 4)), (_S, _T)),
    ("copy_detach_then_write_source", CopyThroughDetachThenWriteSource, randn((2, 3), (2, 3)), (_S, _T)),
    ("cast_to_same_dtype", CastToSameDtype, randn((2, 3), (3,)), (_S, _T)),
    ("broadcast_copy_view", BroadcastCopyView, randn((3, 4), (3, 4)), (_S, _T)),
    ("inplace_result_in_loop", InplaceResultInLoop, randn((3, 4)), (_S,)),
    ("inplace_result_in_if", InplaceResultInIf, randn((3, 4)), (_S,)),
    ("diagonal_transpose_copy", DiagonalTransposeCopy, randn((3, 2, 4)), (_S, _T)),
    ("expand_slice_fill", ExpandSliceFill, randn((6, 4, 4)), (_S, _T)),
    ("expand_select_add", ExpandSelectAdd, randn((3, 1)), (_S, _T)),
    ("expand_fill_overlapping", ExpandFillOverlapping, randn((3, 4), (3,)), (_S, _T)),
    ("unsqueeze_inplace", UnsqueezeInplace, randn((2, 3)), (_S, _T)),
    ("squeeze_inplace", SqueezeInplace, randn((3, 1, 2)), (_S, _T)),
    ("transpose_inplace", TransposeInplace, randn((2, 3)), (_S, _T)),
    ("t_inplace", TInplace, randn((2, 3)), (_S, _T)),
    ("input_transpose_inplace", InputTransposeInplace, randn((2, 3)), (_S, _T)),
    ("cast_alias_transpose_inplace", CastAliasTransposeInplace, randn((2, 3)), (_S, _T)),
    ("contiguous_alias_inplace_view", ContiguousAliasInplaceView, randn((2, 3)), (_S, _T)),
    ("contiguous_copy_inplace_view", ContiguousCopyInplaceView, randn((2, 3)), (_S, _T)),
    ("flatten_one_dim_inplace_view", FlattenOneDimInplaceView, randn((2, 3), (4,), (2, 2)), (_S, _T)),
    ("loop_carried_inplace_view", LoopCarriedInplaceView, randn((3, 4)), (_S,)),
    ("if_output_inplace_view", IfOutputInplaceView, randn((3, 4)), (_S,)),
    ("transpose_write_return_base", TransposeWriteReturnBase, randn((3, 4)), (_S, _T)),
    ("return_transposed_view", ReturnTransposedView, randn((3, 4)), (_S, _T)),
]

CASES = []
for _name, _mod, _inputs, _methods in _SPECS:
    for _m in _methods:
        CASES.append(dict(name="alias_%s_%s" % (_name, _m), module=_mod, inputs=_inputs, format="json", method=_m))


# ---- `mc run` and `mc run --interp` ----------------------------------------------------------
def _check_mc_run(case, d):
    import mc_export
    torch.manual_seed(0)
    mod = case["module"]()
    mod.eval()
    inputs = case["inputs"]()
    path = os.path.join(d, "model.json")
    mc_export.export(mod, tuple(x.clone() for x in inputs), path, method=case["method"])
    ins = [x.clone() for x in inputs]
    with torch.no_grad():
        want = mod(*ins)
    want = list(want) if isinstance(want, (tuple, list)) else [want]
    files = []
    for i, x in enumerate(inputs):
        p = os.path.join(d, "in_%d.npy" % i)
        np.save(p, x.numpy())
        files.append(p)
    errors = []
    for extra in ([], ["--interp"]):
        label = "mc run" + (" --interp" if extra else "")
        od = os.path.join(d, "interp" if extra else "jit")
        r = subprocess.run([MC, "run", path] + files + ["-o", od, "-q"] + extra, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            errors.append("%s: exited %d: %s" % (label, r.returncode, r.stdout[-2000:]))
            continue
        for k, w in enumerate(want):
            got = np.load(os.path.join(od, "output_%d.npy" % k))
            w = w.contiguous().numpy()
            if got.dtype != w.dtype or got.shape != w.shape:
                errors.append("%s: output %d is %s %s, PyTorch %s %s" % (label, k, got.dtype, got.shape, w.dtype, w.shape))
            elif not np.allclose(got, w, rtol=1e-5, atol=1e-6):
                errors.append("%s: output %d differs (max abs err %g)" % (label, k, np.abs(got - w).max()))
        for i, (x0, x) in enumerate(zip(inputs, ins)):
            p = os.path.join(od, "input_%d.npy" % i)
            mutated = not torch.equal(x0, x)
            if not os.path.exists(p):
                if mutated:
                    errors.append("%s: input %d is mutated by PyTorch, no input_%d.npy" % (label, i, i))
                continue
            got = np.load(p)
            w = x.contiguous().numpy()
            if got.shape != w.shape or not np.allclose(got, w, rtol=1e-5, atol=1e-6):
                errors.append("%s: final value of input %d differs" % (label, i))
    return errors


def main():
    only = sys.argv[1:]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            if only and not any(case["name"].startswith(o) for o in only):
                continue
            d = os.path.join(tmp, case["name"])
            os.makedirs(d)
            try:
                errs = _check_mc_run(case, d)
            except Exception as e:  # noqa: BLE001 - reported as a failure
                errs = ["exception: %r" % (e,)]
            if errs:
                failed += 1
                print("FAIL %s" % case["name"])
                for e in errs:
                    print("    " + e.replace("\n", "\n    "))
            else:
                passed += 1
                print("ok   %s" % case["name"])
            sys.stdout.flush()
    print("alias mc run: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    HERE = os.path.dirname(os.path.abspath(__file__))
    ROOT = os.path.dirname(os.path.dirname(HERE))
    MC = os.path.abspath(os.environ.get("MC", os.path.join(ROOT, "build/mc")))
    sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
    torch.set_num_threads(1)
    sys.exit(main())
