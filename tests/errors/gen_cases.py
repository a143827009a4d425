#!/usr/bin/env python3
"""Writes the generated bad-input cases of tests/errors (plain python3, no torch).

Each case is a model file that `mc compile` must reject with exit status 1, a few located
diagnostics, within a second and with no output file (tests/errors/run.sh checks, against the
NAME.err goldens). Hand-written cases live beside these; the generated ones are the cases
that are easier to describe as a program than to type (binary bytes, 1 MB lines, deep
nesting, truncation of a valid file at every interesting point). Rerun after editing:
    python3 tests/errors/gen_cases.py && sh tests/errors/run.sh --update   # then review the diff
"""
import json
import os
import random

DIR = os.path.dirname(os.path.abspath(__file__))
cases = {}


def case(name, data):
    assert name not in cases, name
    cases[name] = data if isinstance(data, bytes) else data.encode()


T23 = "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"


def ts(body, inputs="%x : " + T23):
    return "graph(%s):\n%s" % (inputs, body)


GOOD_TS = ts("  %1 : int = prim::Constant[value=1]()\n"
             "  %y : " + T23 + " = aten::add(%x, %x, %1) # m.py:3:4\n"
             "  %z : " + T23 + " = aten::relu(%y) # m.py:4:4\n"
             "  return (%z)\n")

# ---- TorchScript text: truncation, bytes, size ---------------------------------------------
case("ts_empty.txt", "")
case("ts_blank.txt", "   \n\n\t \n")
case("ts_comment_only.txt", "# just a comment\n")
for cut, tag in [(5, "graph"), (6, "graph_paren"), (9, "in_value"), (20, "in_type"),
                 (GOOD_TS.index("[value=") + 7, "in_attr"), (GOOD_TS.index("aten::add") + 4, "in_kind"),
                 (GOOD_TS.index("return") + 3, "in_return"), (GOOD_TS.index("return") + 9, "return_args")]:
    case("ts_truncated_%s.txt" % tag, GOOD_TS[:cut])
rnd = random.Random(11)
case("ts_binary_garbage.txt", bytes(rnd.randrange(256) for _ in range(4096)))
case("ts_elf_header.txt", b"\x7fELF\x02\x01\x01\x00" + bytes(56))
case("ts_nul_in_name.txt", GOOD_TS.replace("%y :", "%y\x00q :", 1))
case("ts_nul_in_kind.txt", GOOD_TS.replace("aten::relu", "aten::re\x00lu", 1))
case("ts_nul_after_graph.txt", GOOD_TS.encode() + b"\x00garbage")
case("ts_invalid_utf8_name.txt", GOOD_TS.encode().replace(b"%y :", b"%y\xff\xfe :", 1))
case("ts_invalid_utf8_kind.txt", GOOD_TS.encode().replace(b"aten::relu", b"aten::\xc3(relu", 1))
case("ts_invalid_utf8_string.txt",
     ts('  %s : str = prim::Constant[value="ab\xff"]()\n  %t : int = aten::len(%s)\n  return (%t)\n')
     .encode("latin-1"))
case("ts_utf16_bom.txt", b"\xff\xfe" + GOOD_TS.encode("utf-16-le"))
case("ts_1mb_comment_line.txt", GOOD_TS.replace("# m.py:4:4", "# " + "a" * (1 << 20)).replace("%z)", "%q)"))
case("ts_64k_name.txt", GOOD_TS.replace("%z", "%" + "z" * 65536).replace("return (%" + "z" * 65536, "return (%w"))
case("ts_64k_kind.txt", GOOD_TS.replace("aten::relu", "aten::" + "r" * 65536))
case("ts_64k_number.txt", GOOD_TS.replace("value=1]", "value=" + "9" * 65536 + "]"))
case("ts_1mb_string.txt", ts('  %s : str = prim::Constant[value="' + "s" * (1 << 20) + '"]()\n  return (%q)\n'))
case("ts_10k_inputs_dup.txt", ts("  return (%x)\n", ",\n      ".join(["%x : Tensor"] * 10000)))
case("ts_deep_type.txt", ts("  return (%x)\n", "%x : " + "List[" * 10000 + "int" + "]" * 10000))
case("ts_deep_tuple_type.txt", ts("  return (%x)\n", "%x : " + "(" * 10000 + "int" + ")" * 10000))
case("ts_deep_attr_list.txt",
     ts("  %c : int[] = prim::Constant[value=" + "[" * 10000 + "1" + "]" * 10000 + "]()\n  return (%c)\n"))
blk = "  %c : bool = prim::Constant[value=1]()\n"
depth = 5000
for i in range(depth):
    blk += "  %%o%d : Tensor = prim::If(%%c)\n    block0():\n" % i
blk += "      -> (%x)\n"
case("ts_deep_blocks.txt", ts(blk + "  return (%o0)\n"))
case("ts_dims_overflow.txt", ts("  return (%x)\n", "%x : Float(4294967296, 4294967296, 16)"))
case("ts_dim_too_big.txt", ts("  return (%x)\n", "%x : Float(99999999999999999999)"))
case("ts_negative_dim.txt", ts("  return (%x)\n", "%x : Float(-2, 3)"))
case("ts_too_many_dims.txt", ts("  return (%x)\n", "%x : Float(" + ", ".join(["1"] * 40) + ")"))
case("ts_int_overflow_const.txt",
     ts("  %c : int = prim::Constant[value=92233720368547758070]()\n  return (%c)\n"))
case("ts_zeros_overflow.txt",
     ts("  %a : int = prim::Constant[value=4294967296]()\n"
        "  %n : NoneType = prim::Constant()\n"
        "  %s : int[] = prim::ListConstruct(%a, %a, %a)\n"
        "  %y : Tensor = aten::zeros(%s, %n, %n, %n, %n)\n  return (%y)\n", ""))
case("ts_zeros_negative.txt",
     ts("  %a : int = prim::Constant[value=-3]()\n"
        "  %n : NoneType = prim::Constant()\n"
        "  %s : int[] = prim::ListConstruct(%a)\n"
        "  %y : Tensor = aten::zeros(%s, %n, %n, %n, %n)\n  return (%y)\n", ""))
case("ts_zeros_huge_arena.txt",
     ts("  %a : int = prim::Constant[value=1099511627776]()\n"
        "  %n : NoneType = prim::Constant()\n"
        "  %s : int[] = prim::ListConstruct(%a)\n"
        "  %y : Tensor = aten::zeros(%s, %n, %n, %n, %n)\n  return (%y)\n", ""))
case("ts_view_overflow.txt",
     ts("  %a : int = prim::Constant[value=4611686018427387904]()\n"
        "  %s : int[] = prim::ListConstruct(%a, %a)\n"
        "  %y : Tensor = aten::view(%x, %s)\n  return (%y)\n"))
case("ts_expand_huge.txt",
     ts("  %a : int = prim::Constant[value=4611686018427387904]()\n"
        "  %b : int = prim::Constant[value=3]()\n"
        "  %f : bool = prim::Constant[value=0]()\n"
        "  %s : int[] = prim::ListConstruct(%a, %a, %b)\n"
        "  %y : Tensor = aten::expand(%x, %s, %f)\n  %z : Tensor = aten::relu(%y)\n  return (%z)\n",
        "%x : Float(1, 1, 3, strides=[3, 3, 1], requires_grad=0, device=cpu)"))


def scalar_case(name, consts, op, args):
    """%x * op(args) where args are constants: the scalar op folds at compile time."""
    body = "".join("  %%%s : %s = prim::Constant[value=%s]()\n" % c for c in consts)
    body += "  %%i : int = %s(%s)\n  %%y : Tensor = aten::mul(%%x, %%i)\n  return (%%y)\n" % (op, ", ".join("%" + a for a in args))
    case(name, ts(body))


scalar_case("ts_int_of_nan.txt", [("f", "float", "nan")], "aten::Int", ["f"])
scalar_case("ts_int_of_inf.txt", [("f", "float", "-inf")], "aten::Int", ["f"])
scalar_case("ts_int_of_1e300.txt", [("f", "float", "1e+300")], "aten::Int", ["f"])
scalar_case("ts_floor_of_inf.txt", [("f", "float", "inf")], "aten::floor", ["f"])
scalar_case("ts_remainder_by_zero.txt", [("a", "int", "7"), ("b", "int", "0")], "aten::remainder", ["a", "b"])
scalar_case("ts_floordiv_by_zero.txt", [("a", "int", "7"), ("b", "int", "0")], "aten::floordiv", ["a", "b"])
N = "  %n : NoneType = prim::Constant()\n"
case("ts_arange_nan.txt", ts("  %f : float = prim::Constant[value=nan]()\n" + N +
                             "  %y : Tensor = aten::arange(%f, %n, %n, %n, %n)\n  return (%y)\n"))
case("ts_arange_huge.txt", ts("  %a : int = prim::Constant[value=9223372036854775807]()\n" + N +
                              "  %y : Tensor = aten::arange(%a, %n, %n, %n, %n)\n  return (%y)\n"))
case("ts_full_nan_size.txt", ts("  %f : float = prim::Constant[value=nan]()\n" + N +
                                "  %s : float[] = prim::ListConstruct(%f)\n"
                                "  %y : Tensor = aten::full(%s, %f, %n, %n, %n, %n)\n  return (%y)\n"))
RELU_T = "  %y : " + T23 + " = aten::relu(%x)\n"
case("ts_missing_return.txt", ts(RELU_T))
case("ts_return_twice.txt", ts(RELU_T + "  return (%y)\n  return (%y)\n"))
case("ts_node_after_return.txt", ts("  return (%x)\n" + RELU_T))
case("ts_empty_graph.txt", "graph():\n  return ()\n")
case("ts_no_outputs.txt", ts(RELU_T + "  return ()\n"))
case("ts_duplicate_def.txt", ts(RELU_T + RELU_T + "  return (%y)\n"))
case("ts_redefine_input.txt", ts("  %x : Tensor = aten::relu(%x)\n  return (%x)\n"))
case("ts_duplicate_input.txt", ts("  return (%x)\n", "%x : Tensor, %x : Tensor"))
case("ts_use_before_def.txt", ts("  %z : Tensor = aten::relu(%y)\n" + RELU_T + "  return (%z)\n"))
case("ts_self_cycle.txt", ts("  %y : Tensor = aten::relu(%y)\n  return (%y)\n"))
case("ts_two_node_cycle.txt", ts("  %a : Tensor = aten::relu(%b)\n  %b : Tensor = aten::relu(%a)\n  return (%b)\n"))
case("ts_return_undefined.txt", ts(RELU_T + "  return (%w)\n"))
case("ts_unknown_op.txt", ts("  %y : Tensor = aten::not_an_op(%x)\n  return (%y)\n"))
case("ts_unknown_namespace.txt", ts("  %y : Tensor = foo::relu(%x)\n  return (%y)\n"))
case("ts_wrong_arity_many.txt", ts("  %y : Tensor = aten::relu(%x, %x)\n  return (%y)\n"))
case("ts_wrong_arity_few.txt", ts("  %y : Tensor = aten::add(%x)\n  return (%y)\n"))
case("ts_wrong_arity_outputs.txt", ts("  %y : Tensor, %w : Tensor = aten::relu(%x)\n  return (%y)\n"))
case("ts_type_mismatch_str.txt", ts('  %s : str = prim::Constant[value="a"]()\n  %y : Tensor = aten::relu(%s)\n  return (%y)\n'))
case("ts_type_mismatch_add_str.txt", ts('  %s : str = prim::Constant[value="a"]()\n'
                                        '  %y : Tensor = aten::add(%x, %s, %s)\n  return (%y)\n'))
case("ts_type_mismatch_list.txt", ts("  %c : int = prim::Constant[value=1]()\n"
                                     "  %y : Tensor = aten::view(%x, %c)\n  return (%y)\n"))
case("ts_slice_of_int.txt", ts("  %a : int = prim::Constant[value=1]()\n"
                                "  %y : Tensor = aten::slice(%a, %a, %a, %a, %a)\n  return (%y)\n"))
case("ts_tensor_result_declared_int.txt", ts("  %a : int = prim::Constant[value=1]()\n"
                                              "  %y : int = aten::slice(%x, %a, %a, %a, %a)\n  return (%y)\n"))
case("ts_factory_result_declared_float.txt", ts("  %a : int = prim::Constant[value=2]()\n  %n : NoneType = prim::Constant()\n"
                                                "  %s : int[] = prim::ListConstruct(%a)\n"
                                                "  %y : float = aten::zeros(%s, %n, %n, %n, %n)\n  return (%y)\n"))
case("ts_constant_no_output.txt", ts("  = prim::Constant[value=1]()\n  return (%x)\n"))
case("ts_constant_two_outputs.txt", ts("  %a : int, %b : int = prim::Constant[value=1]()\n  return (%x)\n"))
case("ts_matmul_shapes.txt", ts("  %y : Tensor = aten::matmul(%x, %x)\n  return (%y)\n"))
case("ts_declared_shape_wrong.txt", ts("  %y : Float(3, 2, strides=[2, 1], requires_grad=0, device=cpu) = aten::relu(%x)\n  return (%y)\n"))
case("ts_unterminated_string.txt", ts('  %s : str = prim::Constant[value="abc]()\n  return (%s)\n'))
case("ts_unterminated_string_eof.txt", ts('  %s : str = prim::Constant[value="abc'))
case("ts_unterminated_attr.txt", ts("  %c : int = prim::Constant[value=1\n  return (%c)\n"))
case("ts_unterminated_block.txt", ts("  %c : bool = prim::Constant[value=1]()\n"
                                     "  %z : Tensor = prim::If(%c)\n    block0():\n      -> (%x)\n    block1():\n"))
case("ts_unterminated_type.txt", ts("  return (%x)\n", "%x : Float(2, 3, strides=[3, 1]"))
case("ts_unterminated_inputs.txt", "graph(%x : Tensor,\n")
case("ts_if_one_block.txt", ts("  %c : bool = prim::Constant[value=1]()\n"
                               "  %z : Tensor = prim::If(%c)\n    block0():\n      -> (%x)\n  return (%z)\n"))
case("ts_if_block_arity.txt", ts("  %c : bool = prim::Constant[value=1]()\n"
                                 "  %z : Tensor = prim::If(%c)\n    block0():\n      -> (%x, %x)\n    block1():\n      -> (%x)\n  return (%z)\n"))
case("ts_block_scope.txt", ts("  %c : bool = prim::Constant[value=1]()\n"
                              "  %z : Tensor = prim::If(%c)\n    block0():\n      %r : Tensor = aten::relu(%x)\n      -> (%r)\n"
                              "    block1():\n      -> (%x)\n  %w : Tensor = aten::add(%z, %r, %c)\n  return (%w)\n"))
case("ts_bad_dtype.txt", ts("  return (%x)\n", "%x : Flaot(2, 3)"))
case("ts_garbage_after_graph.txt", GOOD_TS + "  %q : Tensor = aten::relu(%x)\n")
case("ts_tensor_constant_text.txt", ts("  %w : Tensor = prim::Constant[value=<Tensor>]()\n  return (%w)\n", ""))
case("ts_zero_dim_view.txt", ts("  %a : int = prim::Constant[value=0]()\n  %s : int[] = prim::ListConstruct(%a)\n"
                                "  %y : Tensor = aten::view(%x, %s)\n  return (%y)\n"))
case("ts_reshape_two_minus_one.txt", ts("  %a : int = prim::Constant[value=-1]()\n  %s : int[] = prim::ListConstruct(%a, %a)\n"
                                        "  %y : Tensor = aten::reshape(%x, %s)\n  return (%y)\n"))
case("ts_select_out_of_range.txt", ts("  %a : int = prim::Constant[value=0]()\n  %b : int = prim::Constant[value=9223372036854775807]()\n"
                                      "  %y : Tensor = aten::select(%x, %a, %b)\n  return (%y)\n"))
case("ts_dim_out_of_range.txt", ts("  %a : int = prim::Constant[value=-9223372036854775808]()\n  %b : int = prim::Constant[value=0]()\n"
                                   "  %y : Tensor = aten::select(%x, %a, %b)\n  return (%y)\n"))
case("ts_slice_huge_step.txt", ts("  %a : int = prim::Constant[value=0]()\n  %b : int = prim::Constant[value=9223372036854775807]()\n"
                                  "  %st : int = prim::Constant[value=-9223372036854775808]()\n"
                                  "  %y : Tensor = aten::slice(%x, %a, %a, %b, %st)\n  return (%y)\n"))

# ---- graph JSON --------------------------------------------------------------------------
def jg(inputs, nodes, outputs, **top):
    d = {"format": "mc-graph", "version": 1}
    d.update(top)
    d["graph"] = {"inputs": inputs, "nodes": nodes, "outputs": outputs}
    return d


def jdump(d):
    return json.dumps(d, indent=1)


X = {"name": "x", "type": "Tensor", "dtype": "float32", "shape": [2, 3]}
RELU = {"kind": "aten::relu", "inputs": ["x"], "outputs": [{"name": "y", "type": "Tensor"}]}


def const(name, value, typ="Tensor"):
    return {"kind": "prim::Constant", "inputs": [], "outputs": [{"name": name, "type": typ}],
            "attrs": {"value": value}}


def tensor(shape, data=None, dtype="float32", **kw):
    t = {"type": "tensor", "dtype": dtype, "shape": shape}
    if data is not None:
        t["data"] = data
    t.update(kw)
    return t


GOOD_JSON = jdump(jg([X], [RELU], ["y"]))
case("json_empty.json", "")
case("json_blank.json", "  \n \t\n")
case("json_null.json", "null")
case("json_number.json", "42")
case("json_string.json", '"mc-graph"')
case("json_array.json", "[1, 2, 3]")
case("json_empty_object.json", "{}")
for frac, tag in [(0.1, "10"), (0.5, "50"), (0.9, "90")]:
    case("json_truncated_%s.json" % tag, GOOD_JSON[: int(len(GOOD_JSON) * frac)])
case("json_truncated_in_string.json", GOOD_JSON[: GOOD_JSON.index("aten::relu") + 4])
case("json_binary_garbage.json", bytes(rnd.randrange(256) for _ in range(4096)))
case("json_nul_byte.json", GOOD_JSON.replace("aten::relu", "aten::re\x00lu", 1))
case("json_invalid_utf8.json", GOOD_JSON.encode().replace(b"aten::relu", b"aten::\xff\xferelu", 1))
case("json_trailing_garbage.json", GOOD_JSON + "\n}}garbage")
case("json_two_documents.json", GOOD_JSON + "\n" + GOOD_JSON)
case("json_deep_array.json", '{"format": "mc-graph", "version": 1, "graph": ' + "[" * 10000 + "]" * 10000 + "}")
case("json_deep_object.json", '{"x": ' * 10000 + "1" + "}" * 10000)
case("json_deep_unclosed.json", "[" * 100000)
case("json_1mb_line_name.json", jdump(jg([X], [dict(RELU, outputs=[{"name": "y" * (1 << 20) + "-", "type": "Tensor"}])], ["y"])))
case("json_64k_kind.json", jdump(jg([X], [dict(RELU, kind="aten::" + "k" * 65536)], ["y"])))
case("json_64k_number.json", '{"format": "mc-graph", "version": ' + "1" * 65536 + ', "graph": {}}')
case("json_bad_format.json", jdump(dict(jg([X], [RELU], ["y"]), format="onnx")))
case("json_format_number.json", jdump(dict(jg([X], [RELU], ["y"]), format=7)))
case("json_missing_format.json", jdump({k: v for k, v in jg([X], [RELU], ["y"]).items() if k != "format"}))
case("json_version_2.json", jdump(dict(jg([X], [RELU], ["y"]), version=2)))
case("json_version_string.json", jdump(dict(jg([X], [RELU], ["y"]), version="1")))
case("json_version_float.json", jdump(dict(jg([X], [RELU], ["y"]), version=1.5)))
case("json_missing_graph.json", jdump({"format": "mc-graph", "version": 1}))
case("json_graph_array.json", jdump({"format": "mc-graph", "version": 1, "graph": []}))
case("json_inputs_object.json", jdump({"format": "mc-graph", "version": 1, "graph": {"inputs": {}, "nodes": [], "outputs": []}}))
case("json_nodes_string.json", jdump({"format": "mc-graph", "version": 1, "graph": {"inputs": [X], "nodes": "aten::relu", "outputs": ["x"]}}))
case("json_outputs_missing.json", jdump({"format": "mc-graph", "version": 1, "graph": {"inputs": [X], "nodes": []}}))
case("json_input_not_object.json", jdump(jg(["x"], [], ["x"])))
case("json_input_name_number.json", jdump(jg([dict(X, name=3)], [], ["x"])))
case("json_input_bad_name.json", jdump(jg([dict(X, name="x y")], [], ["x y"])))
case("json_input_empty_name.json", jdump(jg([dict(X, name="")], [], [""])))
case("json_input_type_number.json", jdump(jg([dict(X, type=1)], [], ["x"])))
case("json_input_bad_type.json", jdump(jg([dict(X, type="Tensor[[")], [], ["x"])))
case("json_input_dtype_unknown.json", jdump(jg([dict(X, dtype="complex64")], [], ["x"])))
case("json_input_shape_string.json", jdump(jg([dict(X, shape="2,3")], [], ["x"])))
case("json_input_shape_negative.json", jdump(jg([dict(X, shape=[2, -3])], [RELU], ["y"])))
case("json_input_shape_float.json", jdump(jg([dict(X, shape=[2, 3.5])], [RELU], ["y"])))
case("json_input_shape_overflow.json", jdump(jg([dict(X, shape=[4294967296, 4294967296, 16])], [RELU], ["y"])))
case("json_input_shape_huge_int.json", jdump(jg([dict(X, shape=[1e30])], [RELU], ["y"])))
case("json_input_shape_9_dims.json", jdump(jg([dict(X, shape=[1] * 9)], [RELU], ["y"])))
case("json_input_shape_disagrees.json", jdump(jg([dict(X, type=T23, shape=[3, 2])], [RELU], ["y"])))
case("json_input_huge_arena.json", jdump(jg([dict(X, shape=[1 << 40])], [RELU], ["y"])))
case("json_node_not_object.json", jdump(jg([X], ["aten::relu"], ["x"])))
case("json_node_kind_missing.json", jdump(jg([X], [{k: v for k, v in RELU.items() if k != "kind"}], ["y"])))
case("json_node_kind_number.json", jdump(jg([X], [dict(RELU, kind=5)], ["y"])))
case("json_node_kind_no_namespace.json", jdump(jg([X], [dict(RELU, kind="relu")], ["y"])))
case("json_node_unknown_op.json", jdump(jg([X], [dict(RELU, kind="aten::frobnicate")], ["y"])))
case("json_node_inputs_string.json", jdump(jg([X], [dict(RELU, inputs="x")], ["y"])))
case("json_node_input_number.json", jdump(jg([X], [dict(RELU, inputs=[0])], ["y"])))
case("json_node_outputs_missing.json", jdump(jg([X], [{k: v for k, v in RELU.items() if k != "outputs"}], ["x"])))
case("json_node_output_string.json", jdump(jg([X], [dict(RELU, outputs=["y"])], ["y"])))
case("json_node_blocks_object.json", jdump(jg([X], [dict(RELU, blocks={})], ["y"])))
case("json_node_attrs_array.json", jdump(jg([X], [dict(RELU, attrs=[])], ["y"])))
case("json_node_source_number.json", jdump(jg([X], [dict(RELU, source=12)], ["y"])))
case("json_wrong_arity.json", jdump(jg([X], [dict(RELU, inputs=["x", "x"])], ["y"])))
case("json_wrong_arity_outputs.json", jdump(jg([X], [dict(RELU, outputs=[{"name": "y", "type": "Tensor"}, {"name": "w", "type": "Tensor"}])], ["y"])))
case("json_use_before_def.json", jdump(jg([X], [dict(RELU, inputs=["z"]), dict(RELU, inputs=["y"], outputs=[{"name": "z", "type": "Tensor"}])], ["z"])))
case("json_self_cycle.json", jdump(jg([X], [dict(RELU, inputs=["y"])], ["y"])))
case("json_duplicate_output.json", jdump(jg([X], [RELU, dict(RELU, inputs=["y"])], ["y"])))
case("json_duplicate_input.json", jdump(jg([X, X], [RELU], ["y"])))
case("json_undefined_output.json", jdump(jg([X], [RELU], ["nope"])))
case("json_no_outputs.json", jdump(jg([X], [RELU], [])))
case("json_empty_graph.json", jdump(jg([], [], [])))
case("json_type_mismatch_int_as_tensor.json",
     jdump(jg([X], [const("one", {"type": "int", "value": 1}, "int"),
                    dict(RELU, inputs=["one"])], ["y"])))
case("json_type_mismatch_declared.json",
     jdump(jg([X], [const("one", {"type": "int", "value": 1}, "Tensor")], ["one"])))
case("json_add_str.json",
     jdump(jg([X], [const("s", {"type": "str", "value": "a"}, "str"),
                    {"kind": "aten::add", "inputs": ["x", "s", "s"], "outputs": [{"name": "y", "type": "Tensor"}]}], ["y"])))
case("json_attr_value_missing.json", jdump(jg([X], [const("c", {"type": "int"}, "int")], ["c"])))
case("json_attr_type_unknown.json", jdump(jg([X], [const("c", {"type": "complex", "value": 1}, "int")], ["c"])))
case("json_attr_int_float.json", jdump(jg([X], [const("c", {"type": "int", "value": 1.5}, "int")], ["c"])))
case("json_attr_int_overflow.json", '{"format": "mc-graph", "version": 1, "graph": {"inputs": [], "nodes": [\n'
     '{"kind": "prim::Constant", "inputs": [], "outputs": [{"name": "c", "type": "int"}], '
     '"attrs": {"value": {"type": "int", "value": 92233720368547758070}}}], "outputs": ["c"]}}')
case("json_attr_float_string.json", jdump(jg([X], [const("c", {"type": "float", "value": "1.5"}, "float")], ["c"])))
case("json_attr_ints_mixed.json", jdump(jg([X], [const("c", {"type": "ints", "value": [1, "2"]}, "int[]")], ["c"])))
case("json_attr_bool_int.json", jdump(jg([X], [const("c", {"type": "bool", "value": 1}, "bool")], ["c"])))
case("json_tensor_bad_dtype.json", jdump(jg([], [const("w", tensor([1], "AAAAAA==", dtype="float128"))], ["w"])))
case("json_tensor_negative_dim.json", jdump(jg([], [const("w", tensor([-1], ""))], ["w"])))
case("json_tensor_dims_overflow.json", jdump(jg([], [const("w", tensor([4294967296, 4294967296, 16], ""))], ["w"])))
case("json_tensor_shape_not_list.json", jdump(jg([], [const("w", tensor(4, "AAAAAA=="))], ["w"])))
case("json_tensor_data_short.json", jdump(jg([], [const("w", tensor([2, 2], "AACAPwAAAEA="))], ["w"])))
case("json_tensor_data_long.json", jdump(jg([], [const("w", tensor([1], "AACAPwAAAEA="))], ["w"])))
case("json_tensor_bad_base64.json", jdump(jg([], [const("w", tensor([1], "!!!!"))], ["w"])))
case("json_tensor_base64_unpadded.json", jdump(jg([], [const("w", tensor([1], "AACAPw"))], ["w"])))
case("json_tensor_no_data.json", jdump(jg([], [const("w", tensor([1]))], ["w"])))
case("json_tensor_data_number.json", jdump(jg([], [const("w", tensor([1], 12))], ["w"])))
case("json_tensor_bool_not_01.json", jdump(jg([], [const("w", tensor([2], "AAI=", dtype="bool"))], ["w"])))
case("json_tensor_type_disagrees.json", jdump(jg([], [const("w", tensor([1], "AACAPw=="), "Float(2, strides=[1], requires_grad=0, device=cpu)")], ["w"])))
case("json_weights_missing_file.json",
     jdump(jg([], [const("w", tensor([1], None, offset=0, nbytes=4))], ["w"], weights={"file": "nope.bin", "nbytes": 4, "alignment": 64})))
case("json_weights_no_toplevel.json", jdump(jg([], [const("w", tensor([1], None, offset=0, nbytes=4))], ["w"])))
case("json_weights_file_number.json",
     jdump(jg([], [const("w", tensor([1], None, offset=0, nbytes=4))], ["w"], weights={"file": 3, "nbytes": 4})))
case("json_weights_size_disagrees.json",
     jdump(jg([], [const("w", tensor([1], None, offset=0, nbytes=4))], ["w"], weights={"file": "weights_16.bin", "nbytes": 8})))
case("json_weights_range_past_end.json",
     jdump(jg([], [const("w", tensor([2], None, offset=12, nbytes=8))], ["w"], weights={"file": "weights_16.bin", "nbytes": 16})))
case("json_weights_offset_negative.json",
     jdump(jg([], [const("w", tensor([1], None, offset=-4, nbytes=4))], ["w"], weights={"file": "weights_16.bin", "nbytes": 16})))
case("json_weights_offset_overflow.json",
     jdump(jg([], [const("w", tensor([1], None, offset=9223372036854775804, nbytes=4))], ["w"], weights={"file": "weights_16.bin", "nbytes": 16})))
case("json_weights_nbytes_vs_shape.json",
     jdump(jg([], [const("w", tensor([3], None, offset=0, nbytes=8))], ["w"], weights={"file": "weights_16.bin", "nbytes": 16})))
case("json_block_scope.json",
     jdump(jg([X, {"name": "c", "type": "bool"}],
              [{"kind": "prim::If", "inputs": ["c"], "outputs": [{"name": "z", "type": "Tensor"}], "blocks": [
                  {"inputs": [], "nodes": [RELU], "outputs": ["y"]}, {"inputs": [], "nodes": [], "outputs": ["x"]}]},
               dict(RELU, inputs=["y"], outputs=[{"name": "w", "type": "Tensor"}])], ["w"])))
case("json_if_one_block.json",
     jdump(jg([X, {"name": "c", "type": "bool"}],
              [{"kind": "prim::If", "inputs": ["c"], "outputs": [{"name": "z", "type": "Tensor"}], "blocks": [
                  {"inputs": [], "nodes": [], "outputs": ["x"]}]}], ["z"])))
case("json_if_block_arity.json",
     jdump(jg([X, {"name": "c", "type": "bool"}],
              [{"kind": "prim::If", "inputs": ["c"], "outputs": [{"name": "z", "type": "Tensor"}], "blocks": [
                  {"inputs": [], "nodes": [], "outputs": ["x", "x"]}, {"inputs": [], "nodes": [], "outputs": ["x"]}]}], ["z"])))
case("json_output_structure_bad.json", jdump(dict(jg([X], [RELU], ["y"]), output_structure={"kind": "set"})))
case("json_output_structure_count.json",
     jdump(dict(jg([X], [RELU], ["y"]), output_structure={"kind": "tuple", "elems": [{"kind": "tensor"}, {"kind": "tensor"}]})))

# ---- hostile weights files: only regular files are read, their size checked before a byte is
# (tests/hostile/run.sh has what cannot be committed: FIFOs, a 3 GiB sparse file)
def weights_at(path, nbytes):
    return jdump(jg([], [const("w", tensor([1], None, offset=0, nbytes=4))], ["w"], weights={"file": path, "nbytes": nbytes}))


case("json_weights_dev_zero.json", weights_at("/dev/zero", 4))
case("json_weights_dev_urandom.json", weights_at("/dev/urandom", 4))
case("json_weights_dev_null.json", weights_at("/dev/null", 4))
case("json_weights_directory.json", weights_at(".", 4))
case("json_weights_root_dir.json", weights_at("/", 4096))
case("json_weights_proc_file.json", weights_at("/proc/self/status", 4))
case("json_weights_self.json", weights_at("json_weights_self.json", 4))
case("json_weights_negative_size.json", weights_at("weights_16.bin", -1))
case("json_weights_huge_declared.json", weights_at("weights_16.bin", 1 << 62))

# ---- hostile models: control-flow types ----------------------------------------------------
C1 = "  %t : bool = prim::Constant[value=1]()\n  %n : int = prim::Constant[value=3]()\n  %z : int = prim::Constant[value=0]()\n"


def if_case(name, cond_def, cond="%c", out_t="Tensor", r0="%x", r1="%x", inputs="%x : " + T23):
    case(name, ts(cond_def + "  %%y : %s = prim::If(%s)\n    block0():\n      -> (%s)\n    block1():\n      -> (%s)\n"
                  "  return (%%y)\n" % (out_t, cond, r0, r1), inputs))


if_case("ts_if_cond_tensor.txt", "", cond="%x")
if_case("ts_if_cond_float.txt", "  %c : float = prim::Constant[value=1.5]()\n")
if_case("ts_if_cond_str.txt", '  %c : str = prim::Constant[value="yes"]()\n')
if_case("ts_if_cond_none.txt", "  %c : NoneType = prim::Constant()\n")
if_case("ts_if_cond_list.txt", "  %a : int = prim::Constant[value=1]()\n  %c : int[] = prim::ListConstruct(%a)\n")
if_case("ts_if_cond_input_tensor.txt", "", cond="%b", inputs="%x : " + T23 + ", %b : Tensor")
if_case("ts_if_cond_input_float.txt", "", cond="%b", inputs="%x : " + T23 + ", %b : float")
if_case("ts_if_returns_tensor_for_int.txt", C1.replace("%t : bool", "%c : bool"), out_t="int", r0="%x", r1="%n")
if_case("ts_if_returns_int_for_tensor.txt", C1.replace("%t : bool", "%c : bool"), out_t="Tensor", r0="%x", r1="%n")
if_case("ts_if_returns_float_for_int.txt", C1.replace("%t : bool", "%c : bool") + "  %f : float = prim::Constant[value=2.5]()\n",
        out_t="int", r0="%n", r1="%f")
if_case("ts_if_returns_str_for_bool.txt", C1.replace("%t : bool", "%c : bool") + '  %s : str = prim::Constant[value="a"]()\n',
        out_t="bool", r0="%c", r1="%s")


def loop_case(name, consts, trip, cond, init, par_t, body_cond, body_ret, out_t="int", body="", inputs="%x : " + T23):
    case(name, ts(consts + "  %%o : %s = prim::Loop(%s, %s, %s)\n    block0(%%i : %s, %%c : %s):\n%s"
                  "      -> (%s, %s)\n  return (%%o)\n" % (out_t, trip, cond, init, "int", par_t, body, body_cond, body_ret), inputs))


loop_case("ts_loop_trip_tensor.txt", C1, "%x", "%t", "%z", "int", "%t", "%c")
loop_case("ts_loop_trip_float.txt", C1 + "  %f : float = prim::Constant[value=3.5]()\n", "%f", "%t", "%z", "int", "%t", "%c")
loop_case("ts_loop_trip_bool.txt", C1, "%t", "%t", "%z", "int", "%t", "%c")
loop_case("ts_loop_cond_tensor.txt", C1, "%n", "%x", "%z", "int", "%t", "%c")
loop_case("ts_loop_cond_float.txt", C1 + "  %f : float = prim::Constant[value=1.]()\n", "%n", "%f", "%z", "int", "%t", "%c")
loop_case("ts_loop_cond_none.txt", C1 + "  %f : NoneType = prim::Constant()\n", "%n", "%f", "%z", "int", "%t", "%c")
loop_case("ts_loop_body_cond_tensor.txt", C1, "%n", "%t", "%z", "int", "%x", "%c")
loop_case("ts_loop_body_cond_str.txt", C1 + '  %s : str = prim::Constant[value="go"]()\n', "%n", "%t", "%z", "int", "%s", "%c")
loop_case("ts_loop_carried_int_to_tensor.txt", C1, "%n", "%t", "%z", "int", "%t", "%x")
loop_case("ts_loop_carried_tensor_to_int.txt", C1, "%n", "%t", "%x", "Tensor", "%t", "%z", out_t="Tensor")
loop_case("ts_loop_carried_input_tensor.txt", C1, "%n", "%t", "%x", "int", "%t", "%c")
loop_case("ts_loop_carried_param_float.txt", C1, "%n", "%t", "%z", "float", "%t", "%c")
loop_case("ts_loop_carried_output_tensor.txt", C1, "%n", "%t", "%z", "int", "%t", "%c", out_t="Tensor")
loop_case("ts_loop_carried_bool_to_int.txt", C1, "%n", "%t", "%t", "bool", "%t", "%n", out_t="bool")
case("ts_loop_iter_param_float.txt", ts(C1 + "  %o : int = prim::Loop(%n, %t, %z)\n    block0(%i : float, %c : int):\n"
                                          "      -> (%t, %c)\n  return (%o)\n"))
case("ts_loop_iter_param_tensor.txt", ts(C1 + "  %o : int = prim::Loop(%n, %t, %z)\n    block0(%i : Tensor, %c : int):\n"
                                           "      -> (%t, %c)\n  return (%o)\n"))
case("ts_loop_body_arity.txt", ts(C1 + "  %o : int = prim::Loop(%n, %t, %z)\n    block0(%i : int, %c : int):\n"
                                    "      -> (%t)\n  return (%o)\n"))
case("ts_loop_param_arity.txt", ts(C1 + "  %o : int = prim::Loop(%n, %t, %z)\n    block0(%i : int):\n"
                                     "      -> (%t, %z)\n  return (%o)\n"))
case("ts_loop_output_arity.txt", ts(C1 + "  %o : int, %p : int = prim::Loop(%n, %t, %z)\n    block0(%i : int, %c : int):\n"
                                      "      -> (%t, %c)\n  return (%o)\n"))
case("ts_loop_two_blocks.txt", ts(C1 + "  %o : int = prim::Loop(%n, %t, %z)\n    block0(%i : int, %c : int):\n"
                                    "      -> (%t, %c)\n    block1(%j : int, %d : int):\n      -> (%t, %d)\n  return (%o)\n"))
case("ts_loop_nested_if_tensor_cond.txt",
     ts(C1 + "  %o : int = prim::Loop(%n, %t, %z)\n    block0(%i : int, %c : int):\n"
        "      %q : int = prim::If(%x)\n        block0():\n          -> (%c)\n        block1():\n          -> (%i)\n"
        "      -> (%t, %q)\n  return (%o)\n"))
JC = {"name": "c", "type": "bool"}


def jif(cond_type, out_type="Tensor", r0="x", r1="x", extra=()):
    return jg([X, {"name": "c", "type": cond_type}] + list(extra),
              [{"kind": "prim::If", "inputs": ["c"], "outputs": [{"name": "z", "type": out_type}], "blocks": [
                  {"inputs": [], "nodes": [], "outputs": [r0]}, {"inputs": [], "nodes": [], "outputs": [r1]}]}], ["z"])


case("json_if_cond_tensor.json", jdump(jif("Tensor")))
case("json_if_cond_float.json", jdump(jif("float")))
case("json_if_cond_str.json", jdump(jif("str")))
case("json_if_returns_int_for_tensor.json", jdump(jif("bool", r1="k", extra=[{"name": "k", "type": "int"}])))


def jloop(trip_t="int", cond_t="bool", init="z", par_t="int", body_cond="t", body_ret="p", out_t="int"):
    return jg([X, {"name": "n", "type": trip_t}, {"name": "t", "type": cond_t}, {"name": "z", "type": "int"}],
              [{"kind": "prim::Loop", "inputs": ["n", "t", init], "outputs": [{"name": "o", "type": out_t}], "blocks": [
                  {"inputs": [{"name": "i", "type": "int"}, {"name": "p", "type": par_t}], "nodes": [],
                   "outputs": [body_cond, body_ret]}]}], ["o"])


case("json_loop_trip_tensor.json", jdump(jloop(trip_t="Tensor")))
case("json_loop_trip_float.json", jdump(jloop(trip_t="float")))
case("json_loop_cond_tensor.json", jdump(jloop(cond_t="Tensor")))
case("json_loop_cond_str.json", jdump(jloop(cond_t="str")))
case("json_loop_carried_int_to_tensor.json", jdump(jloop(body_ret="x")))
case("json_loop_carried_input_tensor.json", jdump(jloop(init="x")))
case("json_loop_body_cond_tensor.json", jdump(jloop(body_cond="x")))

# ---- hostile models: lenient forms -----------------------------------------------------------
for decl, val, tag in [("int", "True", "bool_as_int"), ("int", "2.5", "float_as_int"), ("int", '"7"', "str_as_int"),
                       ("bool", "2", "int_2_as_bool"), ("bool", "-1", "int_neg_as_bool"), ("bool", "0.5", "float_as_bool"),
                       ("float", '"1.5"', "str_as_float"), ("float", "True", "bool_as_float"), ("str", "3", "int_as_str"),
                       ("int[]", "1", "int_as_list"), ("int", "[1, 2]", "list_as_int"), ("Tensor", "3", "int_as_tensor"),
                       ("NoneType", "3", "int_as_none"), ("int", "None", "none_as_int"), ("Device", '"tpu"', "device_tpu"),
                       ("Device", '"cuda:x"', "device_cuda_x"), ("float[]", '["a"]', "strs_as_floats")]:
    case("ts_const_%s.txt" % tag, ts("  %%c : %s = prim::Constant[value=%s]()\n  %%y : Tensor = aten::mul(%%x, %%c)\n  return (%%y)\n"
                                     % (decl, val)))
for op, args in [("aten::add", "%x, %x, %c"), ("aten::softmax", "%x, %c, %c"), ("aten::sum", "%x, %c, %c, %c"),
                 ("aten::transpose", "%x, %c, %c"), ("aten::flatten", "%x, %c, %c"), ("aten::mul", "%x, %c"),
                 ("aten::pow", "%x, %c"), ("aten::clamp_min", "%x, %c"), ("aten::unsqueeze", "%x, %c"),
                 ("aten::select", "%x, %c, %c"), ("aten::narrow", "%x, %c, %c, %c"), ("aten::leaky_relu", "%x, %c")]:
    case("ts_none_arg_%s.txt" % op.split("::")[1],
         ts("  %%c : NoneType = prim::Constant()\n  %%y : Tensor = %s(%s)\n  return (%%y)\n" % (op, args)))
for kind in ["aten::relu", "aten::add", "prim::Constant", "prim::ListConstruct", "aten::conv2d"]:
    args = {"aten::relu": "%x", "aten::add": "%x, %x, %one", "prim::Constant": "", "prim::ListConstruct": "%x",
            "aten::conv2d": "%x, %x"}[kind]
    case("ts_blocks_on_%s.txt" % kind.split("::")[1],
         ts("  %%one : int = prim::Constant[value=1]()\n  %%y : Tensor = %s(%s)\n    block0():\n      -> ()\n  return (%%y)\n"
            % (kind, args)))
case("ts_blocks_two_on_relu.txt", ts("  %y : Tensor = aten::relu(%x)\n    block0():\n      -> ()\n    block1():\n      -> ()\n  return (%y)\n"))
for dev in ["tpu", "cuda:x", "mps", "cpu0", "cuda:1234567890"]:
    case("ts_device_%s.txt" % dev.replace(":", "_"),
         ts("  %y : Tensor = aten::relu(%x)\n  return (%y)\n", "%%x : Float(2, 3, strides=[3, 1], requires_grad=0, device=%s)" % dev))
for st, tag in [("[1, 2]", "transposed"), ("[6, 1]", "gap"), ("[3, 2]", "overlap"), ("[-3, 1]", "negative"), ("[0, 1]", "broadcast"),
                ("[9223372036854775807, 1]", "huge")]:
    case("ts_input_strides_%s.txt" % tag,
         ts("  %y : Tensor = aten::relu(%x)\n  return (%y)\n", "%%x : Float(2, 3, strides=%s, requires_grad=0, device=cpu)" % st))
case("json_input_strides_transposed.json", jdump(jg([dict(X, type="Float(2, 3, strides=[1, 2], requires_grad=0, device=cpu)")], [RELU], ["y"])))
case("json_input_strides_gap.json", jdump(jg([dict(X, type="Float(2, 3, strides=[4, 1], requires_grad=0, device=cpu)")], [RELU], ["y"])))
case("json_input_device_tpu.json", jdump(jg([dict(X, type="Float(2, 3, strides=[3, 1], requires_grad=0, device=tpu)")], [RELU], ["y"])))
case("json_node_output_device_tpu.json", jdump(jg([X], [dict(RELU, outputs=[{"name": "y", "type": "Float(2, 3, strides=[3, 1], requires_grad=0, device=tpu)"}])], ["y"])))
case("json_const_bool_declared_int.json", jdump(jg([X], [const("c", {"type": "bool", "value": True}, "int"),
                                                         {"kind": "aten::add", "inputs": ["x", "x", "c"], "outputs": [{"name": "y", "type": "Tensor"}]}], ["y"])))
case("json_const_float_declared_int.json", jdump(jg([X], [const("c", {"type": "float", "value": 2.5}, "int")], ["c"])))
case("json_const_int_declared_bool.json", jdump(jg([X], [const("c", {"type": "int", "value": 1}, "bool")], ["c"])))
case("json_const_str_declared_float.json", jdump(jg([X], [const("c", {"type": "str", "value": "a"}, "float")], ["c"])))
case("json_const_none_declared_int.json", jdump(jg([X], [const("c", {"type": "none"}, "int")], ["c"])))
case("json_const_ints_declared_int.json", jdump(jg([X], [const("c", {"type": "ints", "value": [1]}, "int")], ["c"])))
case("json_const_device_tpu.json", jdump(jg([X], [const("c", {"type": "device", "value": "tpu"}, "Device")], ["c"])))
case("json_none_as_alpha.json", jdump(jg([X], [const("n", {"type": "none"}, "NoneType"),
                                               {"kind": "aten::add", "inputs": ["x", "x", "n"], "outputs": [{"name": "y", "type": "Tensor"}]}], ["y"])))
case("json_none_as_dim.json", jdump(jg([X], [const("n", {"type": "none"}, "NoneType"),
                                             {"kind": "aten::softmax", "inputs": ["x", "n", "n"], "outputs": [{"name": "y", "type": "Tensor"}]}], ["y"])))
case("json_blocks_on_relu.json", jdump(jg([X], [dict(RELU, blocks=[{"inputs": [], "nodes": [], "outputs": []}])], ["y"])))
case("json_blocks_on_constant.json", jdump(jg([X], [dict(const("c", {"type": "int", "value": 1}, "int"),
                                                          blocks=[{"inputs": [], "nodes": [], "outputs": []}])], ["c"])))
TS_ = {"kind": "tensor", "dtype": "float32", "shape": [2, 3]}
case("json_output_structure_too_few.json", jdump(dict(jg([X], [RELU], ["y", "x"]), output_structure={"kind": "tuple", "elems": [TS_]})))
case("json_output_structure_too_many.json", jdump(dict(jg([X], [RELU], ["y"]), output_structure={"kind": "tuple", "elems": [TS_, TS_]})))
case("json_output_structure_none_extra.json", jdump(dict(jg([X], [RELU], ["y"]), output_structure={"kind": "list", "elems": [TS_, {"kind": "none"}]})))
case("json_output_structure_empty.json", jdump(dict(jg([X], [RELU], ["y"]), output_structure={"kind": "tuple", "elems": []})))
# NUL characters and malformed JSON that cJSON alone would take
for tag, old, new in [("kind", '"aten::relu"', '"aten::relu\\u0000evil"'), ("output_name", '"name": "y"', '"name": "y\\u0000z"'),
                      ("input_name", '"name": "x"', '"name": "x\\u0000"'), ("type", '"type": "Tensor"', '"type": "Tensor\\u0000[]"'),
                      ("dtype", '"float32"', '"float32\\u0000"'), ("format", '"mc-graph"', '"mc-graph\\u0000"')]:
    case("json_nul_escape_%s.json" % tag, GOOD_JSON.replace(old, new, 1))
case("json_nul_escape_attr_str.json", jdump(jg([X], [const("s", {"type": "str", "value": "a\u0000b"}, "str")], ["s"])))
case("json_nul_escape_member_name.json", GOOD_JSON.replace('"kind"', '"ki\\u0000nd"', 1))
case("json_lone_surrogate.json", GOOD_JSON.replace('"aten::relu"', '"aten::relu\\ud800"', 1))
case("json_lone_low_surrogate.json", GOOD_JSON.replace('"aten::relu"', '"aten::relu\\udc00"', 1))
case("json_leading_zero.json", GOOD_JSON.replace('"version": 1', '"version": 01', 1))
case("json_leading_zero_shape.json", GOOD_JSON.replace("2,", "02,", 1))
case("json_bare_dot.json", GOOD_JSON.replace('"version": 1', '"version": 1.', 1))
case("json_tab_in_string.json", GOOD_JSON.replace('"aten::relu"', '"aten::\trelu"', 1))
case("json_newline_in_string.json", GOOD_JSON.replace('"aten::relu"', '"aten::\nrelu"', 1))
case("json_trailing_comma_array.json", GOOD_JSON.replace('"y"\n  ]', '"y",\n  ]', 1))
case("json_trailing_comma_object.json", GOOD_JSON[:GOOD_JSON.rindex("}")].rstrip() + ",\n}")
case("json_trailing_comma_top.json", GOOD_JSON + ",")
case("json_comment.json", "// model\n" + GOOD_JSON)
case("json_single_quotes.json", GOOD_JSON.replace('"format"', "'format'", 1))

# ---- hostile models: extreme shapes and views ---------------------------------------------------
X4T = "Float(1, 4, 4, 4, strides=[64, 16, 4, 1], requires_grad=0, device=cpu)"
W4T = "Float(1, 4, 1, 1, strides=[4, 1, 1, 1], requires_grad=0, device=cpu)"
I64MAX, I64MIN = 9223372036854775807, -9223372036854775808


def cst(name, v, ty="int"):
    return "  %%%s : %s = prim::Constant[value=%s]()\n" % (name, ty, v)


def conv_case(name, stride, pad, dil, op="aten::conv2d"):
    case(name, ts(cst("s", stride) + cst("p", pad) + cst("d", dil) + cst("one", 1) + N +
                  "  %st : int[] = prim::ListConstruct(%s, %s)\n  %pd : int[] = prim::ListConstruct(%p, %p)\n"
                  "  %dl : int[] = prim::ListConstruct(%d, %d)\n"
                  "  %y : Tensor = " + op + "(%x, %w, %n, %st, %pd, %dl, %one)\n  return (%y)\n",
                  "%x : " + X4T + ", %w : " + W4T))


conv_case("ts_conv_stride_max.txt", I64MAX, 0, 1)
conv_case("ts_conv_stride_2p31.txt", 2 ** 31, 0, 1)
conv_case("ts_conv_dilation_2p62.txt", 1, 0, 2 ** 62)
conv_case("ts_conv_dilation_max.txt", 1, 0, I64MAX)
conv_case("ts_conv_padding_max.txt", 1, I64MAX, 1)
conv_case("ts_conv_padding_2p62.txt", 1, 2 ** 62, 1)
conv_case("ts_conv_stride_zero.txt", 0, 0, 1)
conv_case("ts_conv_dilation_negative.txt", 1, 0, -1)
conv_case("ts_conv_stride_min.txt", I64MIN, 0, 1)


def pool_case(name, k, s, p, d, ceil=0, op="aten::max_pool2d"):
    case(name, ts(cst("k", k) + cst("s", s) + cst("p", p) + cst("d", d) + cst("f", ceil, "bool") +
                  "  %kl : int[] = prim::ListConstruct(%k, %k)\n  %sl : int[] = prim::ListConstruct(%s, %s)\n"
                  "  %pl : int[] = prim::ListConstruct(%p, %p)\n  %dl : int[] = prim::ListConstruct(%d, %d)\n"
                  "  %y : Tensor = " + op + "(%x, %kl, %sl, %pl, %dl, %f)\n  return (%y)\n", "%x : " + X4T))


pool_case("ts_pool_dilation_2p62.txt", 2, 1, 0, 2 ** 62)
pool_case("ts_pool_kernel_max.txt", I64MAX, 1, 0, 1, 1)
pool_case("ts_pool_stride_max_ceil.txt", 2, I64MAX, 1, 1, 1)
pool_case("ts_pool_padding_max.txt", 2, 1, I64MAX, 1)
pool_case("ts_pool_kernel_zero.txt", 0, 1, 0, 1)
for f, tag in [(2 ** 32, "2p32"), (2 ** 62, "2p62"), (I64MAX, "max"), (0, "zero"), (-2, "negative")]:
    for op in ["pixel_shuffle", "pixel_unshuffle"]:
        case("ts_%s_%s.txt" % (op, tag), ts(cst("r", f) + "  %%y : Tensor = aten::%s(%%x, %%r)\n  return (%%y)\n" % op, "%x : " + X4T))
case("ts_channel_shuffle_zero.txt", ts(cst("g", 0) + "  %y : Tensor = aten::channel_shuffle(%x, %g)\n  return (%y)\n", "%x : " + X4T))
case("ts_channel_shuffle_min.txt", ts(cst("g", I64MIN) + "  %y : Tensor = aten::channel_shuffle(%x, %g)\n  return (%y)\n", "%x : " + X4T))


def strided_case(name, size, stride, off):
    body = "".join(cst("a%d" % i, v) for i, v in enumerate(size)) + "".join(cst("b%d" % i, v) for i, v in enumerate(stride))
    body += cst("o", off) + "  %%sz : int[] = prim::ListConstruct(%s)\n" % ", ".join("%%a%d" % i for i in range(len(size)))
    body += "  %%st : int[] = prim::ListConstruct(%s)\n" % ", ".join("%%b%d" % i for i in range(len(stride)))
    body += "  %y : Tensor = aten::as_strided(%x, %sz, %st, %o)\n  %z : Tensor = aten::relu(%y)\n  return (%z)\n"
    case(name, ts(body))


strided_case("ts_as_strided_negative_stride.txt", [3], [-1], 0)
strided_case("ts_as_strided_negative_offset.txt", [3], [1], -1)
strided_case("ts_as_strided_min_offset.txt", [3], [1], I64MIN)
strided_case("ts_as_strided_past_end.txt", [7], [1], 0)
strided_case("ts_as_strided_offset_at_end.txt", [1], [1], 6)
strided_case("ts_as_strided_offset_max.txt", [1], [1], I64MAX)
strided_case("ts_as_strided_huge_stride.txt", [2], [2 ** 62], 0)
strided_case("ts_as_strided_overflow.txt", [3, 3], [I64MAX, I64MAX], 0)
strided_case("ts_as_strided_2d_past_end.txt", [2, 3], [3, 2], 0)
strided_case("ts_as_strided_huge_size.txt", [2 ** 62], [0], 0)
case("ts_as_strided_of_slice_past_end.txt",
     ts(cst("d", 0) + cst("a", 0) + cst("b", 1) + cst("one", 1) + cst("k", 4) + cst("o", 0) +
        "  %s : Tensor = aten::slice(%x, %d, %a, %b, %one)\n  %sz : int[] = prim::ListConstruct(%k)\n"
        "  %st : int[] = prim::ListConstruct(%one)\n  %y : Tensor = aten::as_strided(%s, %sz, %st, %o)\n"
        "  %z : Tensor = aten::relu(%y)\n  return (%z)\n"))
for tag, d, st, ln, inp in [("length_max", 1, 1, I64MAX, T23), ("start_max", 1, I64MAX, 2, T23),
                            ("start_min", 1, I64MIN, 1, T23), ("length_negative", 1, 0, -1, T23),
                            ("shape_2_max", 1, 1, 2, "Float(2, 9223372036854775807)")]:
    case("ts_narrow_%s.txt" % tag, ts(cst("d", d) + cst("s", st) + cst("l", ln) +
                                       "  %y : Tensor = aten::narrow(%x, %d, %s, %l)\n  %z : Tensor = aten::relu(%y)\n  return (%z)\n",
                                       "%x : " + inp))
for tag, shape in [("2p62_x_2p62_x_0", "0, 4611686018427387904, 4611686018427387904"), ("2_x_max", "2, 9223372036854775807"),
                   ("2p31_cubed", "2147483648, 2147483648, 2147483648"), ("max_x_0", "9223372036854775807, 0, 2")]:
    case("ts_shape_%s.txt" % tag, ts("  %y : Tensor = aten::relu(%x)\n  return (%y)\n", "%%x : Float(%s)" % shape))
case("json_input_shape_2p62_empty.json", jdump(jg([dict(X, shape=[0, 2 ** 62, 2 ** 62])], [RELU], ["y"])))
case("ts_expand_2p40_squared.txt", ts(cst("a", 2 ** 40) + cst("m", -1) + cst("f", 0, "bool") +
                                      "  %s : int[] = prim::ListConstruct(%a, %a, %m, %m)\n  %y : Tensor = aten::expand(%x, %s, %f)\n"
                                      "  %z : Tensor = aten::sum(%y)\n  return (%z)\n"))
case("ts_repeat_2p40_squared.txt", ts(cst("a", 2 ** 40) + "  %s : int[] = prim::ListConstruct(%a, %a)\n"
                                      "  %y : Tensor = aten::repeat(%x, %s)\n  return (%y)\n"))
case("ts_repeat_min.txt", ts(cst("a", I64MIN) + cst("b", 1) + "  %s : int[] = prim::ListConstruct(%a, %b)\n"
                             "  %y : Tensor = aten::repeat(%x, %s)\n  return (%y)\n"))
case("ts_cat_overflow.txt", ts(cst("d", 1) + "  %l : Tensor[] = prim::ListConstruct(%x, %x, %x)\n  %y : Tensor = aten::cat(%l, %d)\n  return (%y)\n",
                               "%x : Float(1, 4611686018427387904)"))
case("ts_zeros_2p62_squared.txt", ts(cst("a", 2 ** 62) + cst("z", 0) + N + "  %s : int[] = prim::ListConstruct(%a, %a, %z)\n"
                                     "  %y : Tensor = aten::zeros(%s, %n, %n, %n, %n)\n  return (%y)\n"))
case("ts_view_2p62_overflow.txt", ts(cst("a", 2 ** 62) + cst("b", 0) + cst("m", -1) + "  %s : int[] = prim::ListConstruct(%a, %m, %b)\n"
                                "  %y : Tensor = aten::view(%x, %s)\n  return (%y)\n"))
case("ts_layer_norm_2p62.txt", ts(cst("a", 2 ** 62) + cst("e", 1e-5, "float") + cst("t", 1, "bool") + N +
                                  "  %s : int[] = prim::ListConstruct(%a)\n  %y : Tensor = aten::layer_norm(%x, %s, %n, %n, %e, %t)\n  return (%y)\n",
                                  "%x : Float(0, 4611686018427387904)"))
for tag, sc in [("1e30", "1e+30"), ("nan", "nan"), ("inf", "inf"), ("negative", "-2."), ("zero", "0.")]:
    case("ts_upsample_scale_%s.txt" % tag, ts(cst("a", sc, "float") + N + "  %s : float[] = prim::ListConstruct(%a, %a)\n"
                                              "  %y : Tensor = aten::upsample_nearest2d(%x, %n, %s)\n  return (%y)\n", "%x : " + X4T))
case("ts_arange_long_beyond_int64.txt", ts(cst("a", "-1e+19", "float") + cst("b", "-9.9999999999999e+18", "float") + cst("s", "1000.", "float") +
                                           cst("dt", 4) + N + "  %y : Tensor = aten::arange(%a, %b, %s, %dt, %n, %n, %n)\n  return (%y)\n", ""))
case("ts_full_long_1e30.txt", ts(cst("a", 3) + cst("v", "1e+30", "float") + cst("dt", 4) + N + "  %s : int[] = prim::ListConstruct(%a)\n"
                                 "  %y : Tensor = aten::full(%s, %v, %dt, %n, %n, %n)\n  return (%y)\n", ""))

# The weights file the weights cases point at: 16 bytes.
with open(os.path.join(DIR, "weights_16.bin"), "wb") as f:
    f.write(bytes(range(16)))
for name, data in sorted(cases.items()):
    with open(os.path.join(DIR, name), "wb") as f:
        f.write(data)
print("%d cases written to %s" % (len(cases), DIR))
