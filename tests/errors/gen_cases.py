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
case("json_output_structure_bad.json", jdump(dict(jg([X], [RELU], ["y"]), output_structure={"kind": "dict"})))
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

# The weights file the weights cases point at: 16 bytes.
with open(os.path.join(DIR, "weights_16.bin"), "wb") as f:
    f.write(bytes(range(16)))
for name, data in sorted(cases.items()):
    with open(os.path.join(DIR, name), "wb") as f:
        f.write(data)
print("%d cases written to %s" % (len(cases), DIR))
