#!/usr/bin/env python3
"""Writes the models of tests/errors/ub.sh: extreme but legal values that `mc compile` accepts,
each with its input files. ub.sh builds every one under -fsanitize=address,undefined and runs
it: the generated code must run without a sanitizer report (the values themselves are not
compared; PyTorch leaves most of them undefined).

Usage: python3 tests/errors/ub_cases.py OUTDIR   (writes OUTDIR/NAME/model.txt, in_K.bin and
a list OUTDIR/cases.txt of "NAME in_0.bin in_1.bin ...")
"""
import math
import os
import struct
import sys

OUT = sys.argv[1]
I64MAX, I64MIN = 9223372036854775807, -9223372036854775808
# floats that break conversions: NaN, infinities, values beyond every integer type
HOSTILE_F = [math.nan, math.inf, -math.inf, 1e30, -1e30, 3.7, -2.5, 0.0, 2.0 ** 63, -2.0 ** 63 - 4096.0, 255.5, -129.0]
HOSTILE_I = [I64MIN, I64MAX, -1, 0, 1, 2 ** 62, -(2 ** 62), 7, -7, 2 ** 32, 3, -3]
N = len(HOSTILE_F)
cases = []


def f32(vals):
    return struct.pack("<%df" % len(vals), *[v if abs(v) < 3.4e38 or math.isinf(v) or math.isnan(v) else math.copysign(math.inf, v) for v in vals])


def i64(vals):
    return struct.pack("<%dq" % len(vals), *vals)


def add(name, graph, inputs):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.txt"), "w") as f:
        f.write(graph)
    names = []
    for k, data in enumerate(inputs):
        p = os.path.join(d, "in_%d.bin" % k)
        with open(p, "wb") as f:
            f.write(data)
        names.append(p)
    cases.append((name, names))


def cst(name, v, ty="int"):
    return "  %%%s : %s = prim::Constant[value=%s]()\n" % (name, ty, v)


NONE = "  %none : NoneType = prim::Constant()\n  %false : bool = prim::Constant[value=0]()\n"
XF = "%%x : Float(%d, strides=[1], requires_grad=0, device=cpu)" % N
XL = "%%x : Long(%d, strides=[1], requires_grad=0, device=cpu)" % N

# float -> integer casts of NaN, infinities and out-of-range values (saturate; NaN -> 0)
for code, tag in [(4, "int64"), (3, "int32"), (2, "int16"), (1, "int8"), (0, "uint8"), (11, "bool")]:
    add("to_%s" % tag, "graph(%s):\n%s%s  %%y : Tensor = aten::to(%%x, %%dt, %%false, %%false, %%none)\n  return (%%y)\n"
        % (XF, NONE, cst("dt", code)), [f32(HOSTILE_F)])
    add("long_to_%s" % tag, "graph(%s):\n%s%s  %%y : Tensor = aten::to(%%x, %%dt, %%false, %%false, %%none)\n  return (%%y)\n"
        % (XL, NONE, cst("dt", code)), [i64(HOSTILE_I)])
add("float_to_long_then_float", "graph(%s):\n%s%s  %%y : Tensor = aten::to(%%x, %%dt, %%false, %%false, %%none)\n"
    "  %%z : Tensor = aten::to(%%y, %%d6, %%false, %%false, %%none)\n  return (%%z)\n" % (XF, NONE, cst("dt", 4) + cst("d6", 6)),
    [f32(HOSTILE_F)])
add("copy_float_into_long", "graph(%s, %%l : Long(%d, strides=[1], requires_grad=0, device=cpu)):\n%s"
    "  %%y : Tensor = aten::copy_(%%l, %%x, %%false)\n  return (%%y)\n" % (XF, N, NONE), [f32(HOSTILE_F), i64([0] * N)])
# integer arithmetic at the edges: wraps like ATen's int64, no signed overflow in C
for op in ["add", "sub", "mul"]:
    extra = ", %one" if op != "mul" else ""
    add("long_%s_edges" % op, "graph(%s, %%w : Long(%d, strides=[1], requires_grad=0, device=cpu)):\n%s"
        "  %%y : Tensor = aten::%s(%%x, %%w%s)\n  return (%%y)\n" % (XL, N, cst("one", 1), op, extra),
        [i64(HOSTILE_I), i64(list(reversed(HOSTILE_I)))])
for op in ["neg", "abs", "sign"]:
    add("long_%s_min" % op, "graph(%s):\n  %%y : Tensor = aten::%s(%%x)\n  return (%%y)\n" % (XL, op), [i64(HOSTILE_I)])
add("long_floor_divide_min_by_minus_one", "graph(%s, %%w : Long(%d, strides=[1], requires_grad=0, device=cpu)):\n"
    "  %%y : Tensor = aten::floor_divide(%%x, %%w)\n  return (%%y)\n" % (XL, N), [i64(HOSTILE_I), i64([-1] * N)])
add("long_remainder_min_by_minus_one", "graph(%s, %%w : Long(%d, strides=[1], requires_grad=0, device=cpu)):\n"
    "  %%y : Tensor = aten::remainder(%%x, %%w)\n  return (%%y)\n" % (XL, N), [i64(HOSTILE_I), i64([-1] * N)])
for op in ["sum", "prod"]:
    add("long_%s_overflow" % op, "graph(%s):\n%s  %%y : Tensor = aten::%s(%%x, %%none)\n  return (%%y)\n" % (XL, NONE, op),
        [i64(HOSTILE_I)])
for op in ["cumsum", "cumprod"]:
    add("long_%s_overflow" % op, "graph(%s):\n%s%s  %%y : Tensor = aten::%s(%%x, %%z, %%none)\n  return (%%y)\n"
        % (XL, NONE, cst("z", 0), op), [i64(HOSTILE_I)])
add("long_clamp_float_bounds", "graph(%s):\n%s%s  %%y : Tensor = aten::clamp(%%x, %%lo, %%hi)\n  return (%%y)\n"
    % (XL, cst("lo", -7), cst("hi", 7)), [i64(HOSTILE_I)])
add("float_clamp_huge_bounds", "graph(%s):\n%s%s  %%y : Tensor = aten::clamp(%%x, %%lo, %%hi)\n  return (%%y)\n"
    % (XF, cst("lo", "-1e+30", "float"), cst("hi", "1e+30", "float")), [f32(HOSTILE_F)])
for v, tag in [(math.nan, "nan"), (-1e30, "huge")]:
    add("int_of_%s" % tag, "graph(%x : Float(1, strides=[1], requires_grad=0, device=cpu)):\n"
        "  %i : int = aten::Int(%x)\n  %y : Tensor = aten::mul(%x, %i)\n  return (%y)\n", [f32([v])])
# extreme but legal view and shape arguments
T23 = "%x : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"
X6 = [f32([1, 2, 3, 4, 5, 6])]
add("roll_shift_min", "graph(%s):\n%s%s  %%sl : int[] = prim::ListConstruct(%%s)\n  %%dl : int[] = prim::ListConstruct(%%d)\n"
    "  %%y : Tensor = aten::roll(%%x, %%sl, %%dl)\n  return (%%y)\n" % (T23, cst("s", I64MIN), cst("d", 1)), X6)
add("roll_shift_max_twice", "graph(%s):\n%s%s  %%sl : int[] = prim::ListConstruct(%%s, %%s)\n  %%dl : int[] = prim::ListConstruct(%%d, %%d)\n"
    "  %%y : Tensor = aten::roll(%%x, %%sl, %%dl)\n  return (%%y)\n" % (T23, cst("s", I64MAX), cst("d", 1)), X6)
add("roll_flat_shift_min", "graph(%s):\n%s  %%sl : int[] = prim::ListConstruct(%%s)\n  %%dl : int[] = prim::ListConstruct()\n"
    "  %%y : Tensor = aten::roll(%%x, %%sl, %%dl)\n  return (%%y)\n" % (T23, cst("s", I64MIN)), X6)
for a, b, st, tag in [(I64MIN, I64MAX, 1, "min_max"), (0, I64MAX, I64MAX, "step_max"), (I64MAX, I64MIN, 1, "reversed"),
                      (-1, I64MAX, 2, "neg_start")]:
    add("slice_%s" % tag, "graph(%s):\n%s%s%s%s  %%y : Tensor = aten::slice(%%x, %%d, %%a, %%b, %%st)\n"
        "  %%z : Tensor = aten::relu(%%y)\n  return (%%z)\n" % (T23, cst("d", 1), cst("a", a), cst("b", b), cst("st", st)), X6)
for off, tag in [(I64MIN, "min"), (I64MAX, "max"), (-2, "minus2")]:
    add("diagonal_offset_%s" % tag, "graph(%s):\n%s%s%s  %%y : Tensor = aten::diagonal(%%x, %%o, %%a, %%b)\n"
        "  %%z : Tensor = aten::relu(%%y)\n  return (%%z)\n" % (T23, cst("o", off), cst("a", 0), cst("b", 1)), X6)
    for op in ["tril", "triu"]:
        add("%s_%s" % (op, tag), "graph(%s):\n%s  %%y : Tensor = aten::%s(%%x, %%o)\n  return (%%y)\n" % (T23, cst("o", off), op), X6)
add("as_strided_empty_huge_strides", "graph(%s):\n%s%s%s%s  %%sz : int[] = prim::ListConstruct(%%a, %%b)\n"
    "  %%st : int[] = prim::ListConstruct(%%m, %%m)\n  %%y : Tensor = aten::as_strided(%%x, %%sz, %%st, %%o)\n"
    "  %%z : Tensor = aten::relu(%%y)\n  return (%%z)\n" % (T23, cst("a", 0), cst("b", 2), cst("m", I64MAX), cst("o", 5)), X6)
add("as_strided_last_element", "graph(%s):\n%s%s%s  %%sz : int[] = prim::ListConstruct(%%a)\n"
    "  %%st : int[] = prim::ListConstruct(%%m)\n  %%y : Tensor = aten::as_strided(%%x, %%sz, %%st, %%o)\n"
    "  %%z : Tensor = aten::relu(%%y)\n  return (%%z)\n" % (T23, cst("a", 1), cst("m", I64MAX), cst("o", 5)), X6)
add("narrow_zero_length_at_end", "graph(%s):\n%s%s%s  %%y : Tensor = aten::narrow(%%x, %%d, %%s, %%l)\n"
    "  %%z : Tensor = aten::relu(%%y)\n  return (%%z)\n" % (T23, cst("d", 1), cst("s", 3), cst("l", 0)), X6)
X4 = "%x : Float(1, 1, 2, 2, strides=[4, 4, 2, 1], requires_grad=0, device=cpu)"
X4D = [f32([1, 2, 3, 4])]
add("upsample_nearest_tiny_scale", "graph(%s):\n%s%s  %%s : int[] = prim::ListConstruct(%%a, %%a)\n"
    "  %%y : Tensor = aten::upsample_nearest2d(%%x, %%s, %%f, %%f)\n  return (%%y)\n" % (X4, cst("a", 5), cst("f", "1e-300", "float")), X4D)
add("upsample_nearest_huge_scale", "graph(%s):\n%s%s  %%s : int[] = prim::ListConstruct(%%a, %%a)\n"
    "  %%y : Tensor = aten::upsample_nearest2d(%%x, %%s, %%f, %%f)\n  return (%%y)\n" % (X4, cst("a", 5), cst("f", "1e+300", "float")), X4D)
for align in (0, 1):
    add("upsample_bilinear_tiny_scale_%d" % align, "graph(%s):\n%s%s%s  %%s : int[] = prim::ListConstruct(%%a, %%a)\n"
        "  %%y : Tensor = aten::upsample_bilinear2d(%%x, %%s, %%al, %%f, %%f)\n  return (%%y)\n"
        % (X4, cst("a", 5), cst("al", align, "bool"), cst("f", "1e-300", "float")), X4D)
add("conv_stride_2p31_minus_1", "graph(%s, %%w : Float(1, 1, 1, 1, strides=[1, 1, 1, 1], requires_grad=0, device=cpu)):\n%s%s%s%s"
    "  %%st : int[] = prim::ListConstruct(%%s, %%s)\n  %%pd : int[] = prim::ListConstruct(%%p, %%p)\n"
    "  %%dl : int[] = prim::ListConstruct(%%d, %%d)\n  %%y : Tensor = aten::conv2d(%%x, %%w, %%none, %%st, %%pd, %%dl, %%one)\n"
    "  return (%%y)\n" % (X4, NONE, cst("s", 2 ** 31 - 1), cst("p", 0) + cst("d", 1), cst("one", 1)), X4D + [f32([2])])
add("maxpool_stride_2p31_minus_1", "graph(%s):\n%s%s%s%s  %%kl : int[] = prim::ListConstruct(%%k, %%k)\n"
    "  %%sl : int[] = prim::ListConstruct(%%s, %%s)\n  %%pl : int[] = prim::ListConstruct(%%p, %%p)\n"
    "  %%dl : int[] = prim::ListConstruct(%%d, %%d)\n  %%y : Tensor = aten::max_pool2d(%%x, %%kl, %%sl, %%pl, %%dl, %%t)\n"
    "  return (%%y)\n" % (X4, cst("k", 2), cst("s", 2 ** 31 - 1), cst("p", 1) + cst("d", 1), cst("t", 1, "bool")), X4D)
add("avg_pool_long_huge", "graph(%%x : Long(1, 1, 2, 2, strides=[4, 4, 2, 1], requires_grad=0, device=cpu)):\n%s%s%s"
    "  %%kl : int[] = prim::ListConstruct(%%k, %%k)\n  %%y : Tensor = aten::avg_pool2d(%%x, %%kl, %%kl, %%p, %%f, %%t, %%n)\n"
    "  return (%%y)\n" % (cst("k", 2), cst("f", 0, "bool") + cst("t", 1, "bool"), "  %p : int[] = prim::ListConstruct()\n  %n : NoneType = prim::Constant()\n"),
    [i64([I64MAX, I64MAX, I64MAX, I64MAX])])
with open(os.path.join(OUT, "cases.txt"), "w") as f:
    for name, ins in cases:
        f.write(" ".join([name] + ins) + "\n")
print("%d models written to %s" % (len(cases), OUT))
