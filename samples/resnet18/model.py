"""A resnet18 image classifier (torchvision's architecture, 1000 ImageNet classes). torchvision's
trained weights cannot be downloaded here, so the weights are RANDOM (torch.manual_seed(0)):
the class indices mean nothing, but PyTorch and the compiled model must agree on them.

    python3 model.py OUT_DIR      # writes OUT_DIR/model.json + model.bin (46 MB) and
                                  # OUT_DIR/expected.txt (PyTorch's top-5 for image.ppm)
    python3 model.py --image      # rewrites image.ppm, the small test picture

Preprocessing, done the same way in main.c: nearest-neighbour resize to 224x224 (source pixel
floor(y*H/224), floor(x*W/224)), scale to [0, 1], normalise with ImageNet's mean and std,
NCHW float32."""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../frontend/python"))
MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)


def write_image(path, w=40, h=30):
    """A deterministic picture: colour gradients and a dark disc."""
    img = np.zeros((h, w, 3), dtype=np.uint8)
    for y in range(h):
        for x in range(w):
            disc = (x - 26) ** 2 + (y - 12) ** 2 < 64
            img[y, x] = (0, 0, 40) if disc else ((x * 255) // (w - 1), (y * 255) // (h - 1), 128)
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h))
        f.write(img.tobytes())


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P6" and int(fields[3]) == 255
    w, h = int(fields[1]), int(fields[2])
    return np.frombuffer(fields[4][: w * h * 3], dtype=np.uint8).reshape(h, w, 3)


def preprocess(img):
    h, w, _ = img.shape
    ys = (np.arange(224) * h) // 224
    xs = (np.arange(224) * w) // 224
    x = img[ys][:, xs].astype(np.float32) / np.float32(255.0)
    x = (x - MEAN) / STD
    return torch.from_numpy(np.ascontiguousarray(x.transpose(2, 0, 1)[None]))


if __name__ == "__main__":
    if sys.argv[1:] == ["--image"]:
        write_image(os.path.join(HERE, "image.ppm"))
        sys.exit(0)
    import torchvision
    import mc_export
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "build")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    net = torchvision.models.resnet18().eval()
    x = preprocess(read_ppm(os.path.join(HERE, "image.ppm")))
    mc_export.export(net, (x,), os.path.join(out, "model.json"))
    with torch.no_grad():
        logits = net(x)[0]
    top = torch.topk(logits, 5)
    with open(os.path.join(out, "expected.txt"), "w") as f:
        f.write("top5 " + " ".join(str(int(i)) for i in top.indices) + "\n")
    print("PyTorch top-5:", top.indices.tolist(), "logits", ["%.4f" % v for v in top.values.tolist()],
          "6th %.4f" % torch.topk(logits, 6).values[5])
