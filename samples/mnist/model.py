"""An MNIST-size classifier (LeNet-5 shape: 1x28x28 -> 10 logits). The weights are RANDOM
(torch.manual_seed(0)); this sample shows the build, not accuracy — load a trained state_dict
before exporting to get a real digit classifier. fc1's weights (120x256 floats, 120 KiB) pass
the 64 KiB limit, so mc writes them to model.weights and the assembler pulls them in (.incbin).

Run with /usr/bin/python3: writes model.json + model.bin and expected.txt (PyTorch's logits and
argmax for main.c's input image)."""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../frontend/python"))


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def image():
    """The same image main.c builds: a bright ring on a dark background, pixel values in [0, 1]."""
    img = torch.zeros(1, 1, 28, 28)
    for i in range(28):
        for j in range(28):
            r2 = (i - 13.5) ** 2 + (j - 13.5) ** 2
            img[0, 0, i, j] = 1.0 if 36 <= r2 <= 100 else 0.0
    return img


if __name__ == "__main__":
    import mc_export
    torch.manual_seed(0)
    net = LeNet().eval()
    path = os.path.join(HERE, "model.json")
    mc_export.export(net, (image(),), path)
    with open(path) as f:  # source locations relative to this folder: the same JSON anywhere
        text = f.read().replace(HERE + "/", "")
    with open(path, "w") as f:
        f.write(text)
    with torch.no_grad():
        logits = net(image())[0]
    lines = ["logits " + " ".join("%.6f" % v for v in logits.tolist()), "class %d" % int(logits.argmax())]
    with open(os.path.join(HERE, "expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
