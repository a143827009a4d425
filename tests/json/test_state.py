#!/usr/bin/python3
"""The exporter with module state and real interfaces, end to end through mc and the C runtime,
compared with PyTorch (outputs, final values of the mutated state, dtypes):
  - a counter buffer (`self.n += 1`) and a buffer updated with add_: explicit state inputs named
    after the buffer, their values at export in <stem>.<name>.npy, fed back for a second step;
  - BatchNorm in training mode: batch statistics, and running_mean / running_var /
    num_batches_tracked after two steps equal PyTorch's after the same two steps;
  - dict (and nested tuple) outputs, named `out.0.logits`..., checked through mc_output_name /
    mc_find_output in a C program linked with libmcrt.a;
  - a scripted module with int, float and bool arguments (0-dim int64 / float64 / bool .npy);
  - an autograd.Function (prim::PythonOp) inlined from the forward the tracer records;
  - dropout in training mode and attribute reassignment refused with a message that says how;
  - the module's state_dict and every submodule's .training unchanged by export.
Every expected value is PyTorch's, computed here.

    MC=build/mc BUILD=build /usr/bin/python3 tests/json/test_state.py [-v]
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "frontend", "python"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import mc_export  # noqa: E402

MC = os.environ.get("MC", os.path.join(ROOT, "build", "mc"))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
# the compiler and flags libmcrt.a was built with (make asan: clang, the sanitizers)
CC = os.environ.get("CC", "cc")
SAN = os.environ.get("SAN", "").split()


class Counter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)
        self.register_buffer("n", torch.tensor(5))
        self.register_buffer("acc", torch.zeros(3))

    def forward(self, x):
        self.n += 1
        y = self.fc(x)
        self.acc.add_(y.sum(0))
        return y * self.n, self.acc * 2


class BNTrain(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 3, 1)
        self.bn = torch.nn.BatchNorm2d(3, momentum=0.3)
        self.bn1 = torch.nn.BatchNorm1d(3)

    def forward(self, x):
        y = self.bn(self.conv(x))
        return self.bn1(y.mean([2, 3])), y


class DictOut(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, tokens, mask):
        h = self.fc(tokens)
        return {"logits": h * mask, "hidden": h.relu()}, (h.sum(),)


class Scalars(torch.nn.Module):
    def forward(self, x, k: int, s: float, flag: bool):
        y = x * k + s
        if flag:
            y = y - 1.0
        return y, k * 2


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x + 1

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


class UsesFunction(torch.nn.Module):
    def forward(self, x):
        return Square.apply(x).relu() - x


def state_of(m):
    return ({k: v.clone() for k, v in m.state_dict().items()},
            {name: sub.training for name, sub in m.named_modules()})


class StateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        torch.manual_seed(0)

    def tearDown(self):
        self.tmp.cleanup()

    def export(self, m, ex, name, **kw):
        """Exports, checking that the module's state and modes are exactly as before."""
        sd, modes = state_of(m)
        path = os.path.join(self.d, name + ".json")
        mc_export.export(m, ex, path, **kw)
        sd2, modes2 = state_of(m)
        self.assertEqual(modes, modes2, "export changed a training flag")
        self.assertEqual(sd.keys(), sd2.keys())
        for k in sd:
            self.assertTrue(torch.equal(sd[k], sd2[k]), "export changed %s" % k)
        with open(path) as f:
            return path, json.load(f)

    def mc_run(self, path, arrays, tag):
        files = []
        for i, a in enumerate(arrays):
            f = os.path.join(self.d, "%s_in%d.npy" % (tag, i))
            np.save(f, a)
            files.append(f)
        out = os.path.join(self.d, tag)
        r = subprocess.run([MC, "run", path] + files + ["-o", out], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return lambda kind, k: np.load(os.path.join(out, "%s_%d.npy" % (kind, k)))

    def close(self, got, want, what, tol=1e-5):
        want = want.detach().numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
        self.assertEqual(got.dtype, want.dtype, what)
        self.assertEqual(got.shape, want.shape, what)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=what)

    def state_inputs(self, doc):
        return [(k, i) for k, i in enumerate(doc["graph"]["inputs"]) if "state" in i]

    def two_steps(self, m, xs, name):
        """Exports m (its state at export is step 0), runs two steps through mc feeding the
        state back, and compares outputs and state with PyTorch's two steps."""
        path, doc = self.export(m, (xs[0],), name)
        st = self.state_inputs(doc)
        state = [np.load(mc_export.state_path(path, i["name"])) for _, i in st]
        for (k, i), v in zip(st, state):
            self.assertEqual(list(v.shape), i["shape"], i["name"])
        for step, x in enumerate(xs):
            res = self.mc_run(path, [x.numpy()] + state, "%s%d" % (name, step))
            with torch.no_grad():
                want = m(x.clone())
            for o, w in enumerate(want):
                self.close(res("output", o), w, "%s step %d output %d" % (name, step, o))
            sd = m.state_dict()
            for j, (k, i) in enumerate(st):
                got = res("input", k)
                self.close(got, sd[i["state"]], "%s step %d state %s" % (name, step, i["state"]))
                state[j] = got
        return doc

    def test_counter_buffer(self):
        m = Counter()
        doc = self.two_steps(m, [torch.randn(2, 4), torch.randn(2, 4)], "counter")
        names = [i["name"] for i in doc["graph"]["inputs"]]
        self.assertEqual(names[0], "x", "inputs are named after forward()'s parameters")
        self.assertEqual(sorted(i["state"] for _, i in self.state_inputs(doc)), ["acc", "n"])
        self.assertEqual(int(m.n), 7)

    def test_counter_buffer_scripted(self):
        m = Counter()
        path, doc = self.export(m, (torch.randn(2, 4),), "counter_script", method="script")
        st = self.state_inputs(doc)
        self.assertEqual(sorted(i["state"] for _, i in st), ["acc", "n"])
        x = torch.randn(2, 4)
        res = self.mc_run(path, [x.numpy()] + [np.load(mc_export.state_path(path, i["name"]))
                                               for _, i in st], "counter_script")
        with torch.no_grad():
            want = m(x)
        self.close(res("output", 0), want[0], "y * n")
        for k, i in st:
            self.close(res("input", k), m.state_dict()[i["state"]], i["state"])

    def test_batchnorm_train(self):
        m = BNTrain()
        self.assertTrue(m.training)
        doc = self.two_steps(m, [torch.randn(4, 2, 5, 5), torch.randn(4, 2, 5, 5) * 2 + 1], "bn")
        self.assertEqual(sorted(i["state"] for _, i in self.state_inputs(doc)),
                         ["bn.num_batches_tracked", "bn.running_mean", "bn.running_var",
                          "bn1.num_batches_tracked", "bn1.running_mean", "bn1.running_var"])
        self.assertEqual(int(m.bn.num_batches_tracked), 2)
        # eval mode: the running statistics are constants, no state
        m.eval()
        path, doc = self.export(m, (torch.randn(4, 2, 5, 5),), "bn_eval")
        self.assertEqual(self.state_inputs(doc), [])

    def test_dict_outputs_named(self):
        m = DictOut().eval()
        tokens, mask = torch.randn(3, 4), torch.ones(3, 2)
        path, doc = self.export(m, (tokens, mask), "dict")
        names = ["out.0.logits", "out.0.hidden", "out.1.0"]
        self.assertEqual(doc["graph"]["output_names"], names)
        res = self.mc_run(path, [tokens.numpy(), mask.numpy()], "dict")
        with torch.no_grad():
            want = m(tokens, mask)
        for k, w in enumerate([want[0]["logits"], want[0]["hidden"], want[1][0]]):
            self.close(res("output", k), w, names[k])
        # the names in the generated model, through the runtime API
        src = os.path.join(self.d, "dict.c")
        r = subprocess.run([MC, "compile", path, "-o", src], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        drv = os.path.join(self.d, "drv.c")
        with open(drv, "w") as f:
            f.write('#include <stdio.h>\n#include "dict.h"\nint main(void) {\n'
                    '  mc_model *m = dict_create();\n  if (!m) return 1;\n'
                    '  for (int i = 0; i < mc_num_inputs(m); i++) printf("in %s\\n", mc_input_name(m, i));\n'
                    '  for (int i = 0; i < mc_num_outputs(m); i++) printf("out %s\\n", mc_output_name(m, i));\n'
                    '  printf("find %d %d %d %d\\n", mc_find_output(m, "out.0.hidden"), mc_find_input(m, "mask"),'
                    ' mc_find_output(m, "nope"), mc_find_input(m, "out.1.0"));\n'
                    '  mc_model_destroy(m);\n  return 0;\n}\n')
        exe = os.path.join(self.d, "drv")
        r = subprocess.run([CC, "-std=c11", "-Wall", "-Wextra", "-Werror"] + SAN + ["-I" + self.d,
                            "-Wa,-I" + self.d, "-I" + os.path.join(ROOT, "runtime"), drv, src,
                            os.path.join(BUILD, "libmcrt.a"), "-lm", "-o", exe],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = subprocess.run([exe], capture_output=True, text=True).stdout.split("\n")
        self.assertEqual(out[:5], ["in tokens", "in mask"] + ["out " + n for n in names])
        self.assertEqual(out[5], "find 1 1 -1 -1")

    def test_script_scalars(self):
        m = Scalars()
        x = torch.randn(2, 3)
        path, doc = self.export(m, (x, 3, 0.25, True), "scalars", method="script")
        self.assertEqual([i["name"] for i in doc["graph"]["inputs"]], ["x", "k", "s", "flag"])
        for flag in (True, False):
            res = self.mc_run(path, [x.numpy(), np.array(3, np.int64), np.array(0.25),
                                     np.array(flag)], "scalars%d" % flag)
            want = m(x, 3, 0.25, flag)
            self.close(res("output", 0), want[0], "y")
            self.close(res("output", 1), np.array(6, np.int64), "k * 2")
        with self.assertRaises(mc_export.ExportError) as e:
            mc_export.export(m, (x, 3, 0.25, True), os.path.join(self.d, "t.json"))
        self.assertIn("method='script'", str(e.exception))

    def test_python_op_inlined(self):
        m = UsesFunction()
        x = torch.randn(5)
        path, doc = self.export(m, (x,), "pyop")
        kinds = {n["kind"] for n in doc["graph"]["nodes"]}
        self.assertNotIn("prim::PythonOp", kinds)
        self.assertIn("aten::mul", kinds)
        res = self.mc_run(path, [x.numpy()], "pyop")
        self.close(res("output", 0), m(x), "Square.apply")

    def test_refusals(self):
        m = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Dropout(0.5))
        with self.assertRaises(mc_export.ExportError) as e:
            self.export(m, (torch.randn(2, 3),), "drop")
        self.assertIn("module.eval()", str(e.exception))
        self.assertIn("'1'", str(e.exception), "names the module")

        class Reassign(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("t", torch.zeros(2))

            def forward(self, x):
                self.t = self.t + x
                return self.t

        with self.assertRaises(mc_export.ExportError) as e:
            self.export(Reassign(), (torch.ones(2),), "reassign")
        self.assertIn("copy_", str(e.exception))
        with self.assertRaises(mc_export.ExportError) as e:
            self.export(BNTrain(), (torch.randn(4, 2, 5, 5),), "bn_script", method="script")
        self.assertIn("module 'bn' (BatchNorm2d) is in training mode", str(e.exception))
        self.assertIn("module.eval()", str(e.exception))

    def test_error_note_points_at_user_line(self):
        m = torch.nn.Sequential(torch.nn.Linear(3, 3)).eval()
        path, doc = self.export(m, (torch.randn(2, 3),), "loc")
        lin = [n for n in doc["graph"]["nodes"] if n["kind"] == "aten::linear"][0]
        self.assertIn("test_state.py:", lin["source"], "first frame outside torch/")


if __name__ == "__main__":
    unittest.main()
