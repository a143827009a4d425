"""Exports the CUDA test models (tests/e2e/cases_models.py, as tests/e2e does) with mc_export
and, for the GPU check (bench/cuda_check.sh), PyTorch's CPU results on fixed inputs.

usage: export.py OUTDIR [NAME_SUBSTRING ...]
Writes OUTDIR/NAME/model.json (+ weights), input_K.npy and, with --ref, expect_K.npy; prints the
case names it wrote, one a line. Inputs come from torch.manual_seed(0) as in tests/e2e."""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
sys.path.insert(0, os.path.join(ROOT, "tests/e2e"))

import cases_models  # noqa: E402
import mc_export  # noqa: E402

NAMES = ["json_mlp", "json_mlp_script", "json_lenet5", "json_smallconv", "json_gpt_block", "json_resnet18",
         "json_mobilenet_v2"]


def flatten(x):
    if isinstance(x, (tuple, list)):
        return [y for e in x for y in flatten(e)]
    return [x]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    ref = "--ref" in sys.argv
    out, subs = args[0], args[1:]
    torch.set_num_threads(1)
    for case in cases_models.CASES:
        name = case["name"]
        if name not in NAMES or (subs and not any(s in name for s in subs)):
            continue
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        torch.manual_seed(0)
        mod = case["module"]()
        mod.eval()
        inputs = case["inputs"]()
        mc_export.export(mod, tuple(x.clone() for x in inputs), os.path.join(d, "model.json"),
                         method=case.get("method", "trace"))
        if ref:
            with torch.no_grad():
                outs = flatten(mod(*[x.clone() for x in inputs]))
            for k, x in enumerate(inputs):
                np.save(os.path.join(d, "input_%d.npy" % k), x.contiguous().numpy())
            for k, y in enumerate(outs):
                np.save(os.path.join(d, "expect_%d.npy" % k), y.detach().contiguous().numpy())
        print(name)


if __name__ == "__main__":
    main()
