#!/usr/bin/env python3
"""Models for the file-system cases of tests/hostile/run.sh (plain python3).

    gen_models.py weights DIR NAME SEED [N]  NAME.json + NAME.bin (its weights): y = x + w, x and w
                                            float32 [N, 128] (N = 128 by default: w is 64 KiB,
                                            large enough for the weights file); w[i] = SEED + i,
                                            so y[0] = SEED for x = 0
    gen_models.py declared DIR NAME FILE NBYTES  NAME.json naming weights FILE of NBYTES bytes
                                            (the file itself is whatever the test puts there)
"""
import json
import os
import struct
import sys


def model(wfile, nbytes, n):
    return {"format": "mc-graph", "version": 1, "weights": {"file": wfile, "nbytes": nbytes},
            "graph": {"inputs": [{"name": "x", "type": "Tensor", "dtype": "float32", "shape": [n, 128]}],
                      "nodes": [
                          {"kind": "prim::Constant", "inputs": [], "outputs": [{"name": "w", "type": "Tensor"}],
                           "attrs": {"value": {"type": "tensor", "dtype": "float32", "shape": [n, 128],
                                               "offset": 0, "nbytes": n * 128 * 4}}},
                          {"kind": "prim::Constant", "inputs": [], "outputs": [{"name": "one", "type": "int"}],
                           "attrs": {"value": {"type": "int", "value": 1}}},
                          {"kind": "aten::add", "inputs": ["x", "w", "one"], "outputs": [{"name": "y", "type": "Tensor"}]}],
                      "outputs": ["y"]}}


def main():
    what, d, name = sys.argv[1:4]
    if what == "weights":
        seed = int(sys.argv[4])
        n = int(sys.argv[5]) if len(sys.argv) > 5 else 128
        with open(os.path.join(d, name + ".bin"), "wb") as f:
            f.write(struct.pack("<%df" % (n * 128), *[float(seed + i % 1000) for i in range(n * 128)]))
        m = model(name + ".bin", n * 128 * 4, n)
    else:
        wfile, nbytes = sys.argv[4], int(sys.argv[5])
        m = model(wfile, nbytes, 128)
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump(m, f)


main()
