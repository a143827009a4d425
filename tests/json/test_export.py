#!/usr/bin/python3
"""Smoke test of frontend/python/mc_export.py (run with /usr/bin/python3, which has torch 1.13):
exports an MLP (trace), a scripted module with an `if`, and a small conv net, and checks the
JSON with its own reader: the format header, the inputs' dtypes and shapes, that every node
input is defined before use, that constants' bytes equal the module's parameters exactly
(inline base64 and the weights file, 64-byte aligned), INT64_MAX survives exactly, the output
structure, and the command line. Expected values come from the PyTorch modules themselves.

    /usr/bin/python3 tests/json/test_export.py [-v]
    MC=build/mc /usr/bin/python3 tests/json/test_export.py   # also `mc dump` every export
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXPORTER = os.path.join(ROOT, "frontend", "python", "mc_export.py")
sys.path.insert(0, os.path.dirname(EXPORTER))

import torch  # noqa: E402
import mc_export  # noqa: E402


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.fc2 = torch.nn.Linear(16, 4)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        return self.fc2(h), h[:, 1:]


class Branchy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)
        self.scale = 2.5

    def forward(self, x, flag: bool):
        y = self.lin(x)
        if flag:
            y = y * self.scale
        else:
            y[0, :2] = 1.0
        return y


class ConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 64, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(64)
        self.conv2 = torch.nn.Conv2d(64, 8, 3, stride=2)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-1, 1)
            self.bn.running_var.uniform_(0.5, 2)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        y = self.conv2(y)
        return y.flatten(1)


NP_DTYPES = {"float32": "<f4", "float64": "<f8", "float16": "<f2", "bfloat16": "<u2", "int64": "<i8",
             "int32": "<i4", "int16": "<i2", "int8": "i1", "uint8": "u1", "bool": "u1"}


class Reader:
    """An independent reader of the JSON format (docs/graph-json.md)."""

    def __init__(self, path):
        with open(path) as f:
            self.doc = json.load(f)
        self.path = path
        self.bin = None
        w = self.doc.get("weights")
        if w:
            with open(os.path.join(os.path.dirname(path), w["file"]), "rb") as f:
                self.bin = f.read()
            assert len(self.bin) == w["nbytes"], "weights file size"
        self.consts = {}   # value name -> (dtype, shape, bytes)
        self.nodes = []
        self.check_block(self.doc["graph"], set(), top=True)

    def tensor_bytes(self, a):
        if "data" in a:
            raw = base64.b64decode(a["data"], validate=True)
        else:
            assert a["offset"] % 64 == 0, "weights offset not 64-byte aligned"
            raw = self.bin[a["offset"]:a["offset"] + a["nbytes"]]
            assert len(raw) == a["nbytes"]
        n = 1
        for s in a["shape"]:
            n *= s
        assert len(raw) == n * int(NP_DTYPES[a["dtype"]][-1]), "tensor size"
        return raw

    def check_block(self, b, visible, top=False):
        scope = set(visible)
        for v in b["inputs"]:
            scope.add(v["name"])
        for n in b["nodes"]:
            self.nodes.append(n)
            for i in n["inputs"]:
                assert i in scope, "%s uses undefined %s" % (n["kind"], i)
            for blk in n.get("blocks", []):
                self.check_block(blk, scope)
            for o in n["outputs"]:
                assert o["name"] not in scope, "redefined %s" % o["name"]
                scope.add(o["name"])
            a = n.get("attrs", {}).get("value")
            if n["kind"] == "prim::Constant" and a and a["type"] == "tensor":
                self.consts[n["outputs"][0]["name"]] = (a["dtype"], a["shape"],
                                                        self.tensor_bytes(a))
        for o in b["outputs"]:
            assert o in scope, "block returns undefined %s" % o

    def kinds(self):
        return [n["kind"] for n in self.nodes]


class ExportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        torch.manual_seed(0)

    def tearDown(self):
        self.tmp.cleanup()

    def export(self, m, ex, name, **kw):
        path = os.path.join(self.tmp.name, name + ".json")
        mc_export.export(m, ex, path, **kw)
        mc = os.environ.get("MC")
        if mc:
            r = subprocess.run([mc, "dump", path], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, "mc dump %s failed:\n%s" % (path, r.stderr))
        return Reader(path)

    def check_params(self, r, m):
        """Every parameter and buffer the graph uses is a constant with exactly its bytes."""
        for k, p in m.state_dict().items():
            name = "self." + k
            if name not in r.consts:
                continue
            dtype, shape, raw = r.consts[name]
            self.assertEqual(shape, list(p.shape), name)
            self.assertEqual(dtype, str(p.dtype).replace("torch.", ""), name)
            p = p.detach().contiguous()
            if p.dtype == torch.bfloat16:
                p = p.view(torch.int16)
            self.assertEqual(raw, p.numpy().tobytes(), name)

    def test_mlp_trace(self):
        m = MLP()
        r = self.export(m, (torch.randn(2, 8),), "mlp")
        d = r.doc
        self.assertEqual((d["format"], d["version"]), ("mc-graph", 1))
        ins = d["graph"]["inputs"]
        self.assertEqual(len(ins), 1, "%self is dropped after freezing")
        self.assertEqual((ins[0]["dtype"], ins[0]["shape"]), ("float32", [2, 8]))
        self.assertIn("aten::linear", r.kinds())
        self.assertNotIn("prim::GetAttr", r.kinds())
        for k in ("fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"):
            self.assertIn("self." + k, r.consts)
        self.check_params(r, m)
        self.assertIsNone(d.get("weights"), "all constants are small: no weights file")
        st = d["output_structure"]
        self.assertEqual(st["kind"], "tuple")
        self.assertEqual([e["shape"] for e in st["elems"]], [[2, 4], [2, 15]])
        # h[:, 1:] slices to INT64_MAX, which must survive exactly
        ints = [n["attrs"]["value"]["value"] for n in r.nodes
                if n["kind"] == "prim::Constant" and n.get("attrs", {}).get("value", {})
                .get("type") == "int"]
        self.assertIn(9223372036854775807, ints)
        self.assertTrue(any("test_export.py:" in n.get("source", "") for n in r.nodes))
        self.assertTrue(any(n.get("scope") == "__module.fc1" for n in r.nodes))

    def test_script_if_keeps_mutation(self):
        m = Branchy()
        r = self.export(m, (torch.randn(2, 3), True), "branchy", method="script")
        ins = r.doc["graph"]["inputs"]
        self.assertEqual([i["type"] for i in ins], ["Tensor", "bool"])
        self.assertEqual(ins[0]["shape"], [2, 3], "bare Tensor gets the example's shape")
        self.assertNotIn("shape", ins[1])
        self.assertIn("prim::If", r.kinds())
        ifs = [n for n in r.nodes if n["kind"] == "prim::If"]
        self.assertEqual(len(ifs[0]["blocks"]), 2)
        self.assertIn("aten::copy_", r.kinds(), "mutation must not be removed by the exporter")
        self.check_params(r, m)
        self.assertIn("self.lin.weight", r.consts)
        floats = [n["attrs"]["value"]["value"] for n in r.nodes
                  if n.get("attrs", {}).get("value", {}).get("type") == "float"]
        self.assertIn(2.5, floats)

    def test_convnet_weights_file(self):
        m = ConvNet().eval()  # in training mode the running statistics would be state inputs
        r = self.export(m, (torch.randn(1, 3, 10, 10),), "conv", inline_limit=1024)
        w = r.doc["weights"]
        self.assertEqual(w["file"], "conv.bin")
        self.assertEqual(w["alignment"], 64)
        self.assertTrue({"aten::conv2d", "aten::_convolution"} & set(r.kinds()))
        self.assertIn("aten::batch_norm", r.kinds(), "freeze must not fold batch norm")
        self.check_params(r, m)
        big = [n for n in r.nodes if "offset" in n.get("attrs", {}).get("value", {})]
        self.assertTrue(big, "conv2 weight (64*8*9*4 bytes) goes to the weights file")
        self.assertEqual(len(r.consts), 8)  # 2 conv weights + biases, 4 batch norm tensors
        self.assertEqual(r.doc["output_structure"]["shape"], [1, 8 * 4 * 4])

    def test_exact_special_values(self):
        class Special(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("t", torch.tensor(
                    [float("nan"), float("inf"), -0.0, 1e-45, 3.4028234663852886e38]))
                self.register_buffer("i", torch.tensor([-2**63, 2**63 - 1]))
                self.register_buffer("h", torch.tensor([1.5, -2.25], dtype=torch.float16))
                self.register_buffer("bf", torch.tensor([1.5, 3.0], dtype=torch.bfloat16))
                self.register_buffer("b", torch.tensor([True, False, True]))

            def forward(self, x):
                # every buffer meets the input, so freezing cannot fold it away
                return (x + self.t, x[:2].long() + self.i, x[:2].half() * self.h,
                        x[:2].bfloat16() * self.bf, torch.logical_or(x[:3] > 0, self.b))

        m = Special()
        r = self.export(m, (torch.zeros(5),), "special")
        self.check_params(r, m)
        self.assertEqual(len(r.consts), 5)
        self.assertEqual(r.consts["self.bf"][2], m.bf.view(torch.int16).numpy().tobytes())
        self.assertEqual(r.consts["self.b"][0], "bool")
        self.assertEqual(r.consts["self.h"][0], "float16")

    def test_cli(self):
        out = subprocess.run([sys.executable, EXPORTER, "--help"], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0)
        self.assertIn("--example", out.stdout)
        src = os.path.join(self.tmp.name, "netmod.py")
        with open(src, "w") as f:
            f.write("import torch\nclass Net(torch.nn.Module):\n"
                    "    def __init__(self, n):\n        super().__init__()\n"
                    "        self.fc = torch.nn.Linear(n, 2)\n"
                    "    def forward(self, x, k: int):\n        return self.fc(x) * k\n")
        path = os.path.join(self.tmp.name, "cli.json")
        out = subprocess.run([sys.executable, EXPORTER, "--module", src + ":Net", "--args", "[5]",
                              "--method", "script", "--example", "3,5:float32", "--example", "=2",
                              "-o", path], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        r = Reader(path)
        self.assertEqual(r.doc["graph"]["inputs"][0]["shape"], [3, 5])
        self.assertEqual(r.doc["graph"]["inputs"][1]["type"], "int")
        bad = subprocess.run([sys.executable, EXPORTER, "--module", src + ":Net", "--args", "[5]",
                              "--example", "3,4", "-o", path], capture_output=True, text=True)
        self.assertEqual(bad.returncode, 1)
        self.assertIn("mc_export: error:", bad.stderr)

    def test_trace_failure_is_clear(self):
        class Bad(torch.nn.Module):
            def forward(self, x):
                return {"a": x}.items()

        with self.assertRaises(mc_export.ExportError):
            mc_export.export(Bad(), (torch.zeros(1),), os.path.join(self.tmp.name, "b.json"))
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "b.json")))

    def test_no_torch_message(self):
        for py in ("python3", "/usr/local/bin/python3"):
            try:
                if subprocess.run([py, "-c", "import torch"], capture_output=True).returncode:
                    break
            except OSError:
                pass
        else:
            self.skipTest("no Python without torch here")
        out = subprocess.run([py, EXPORTER, "-m", "x:Y", "-o", os.path.join(self.tmp.name, "n.json")],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 1)
        self.assertIn("PyTorch is not installed", out.stderr)


if __name__ == "__main__":
    unittest.main()
