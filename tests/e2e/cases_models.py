"""Real models through the exporter (graph JSON with weights): MLPs, LeNet-5, a small convnet
with batch norm and pooling, a transformer block, and torchvision classifiers."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)


class LeNet5(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 6, 5, padding=2)
        self.c2 = nn.Conv2d(6, 16, 5)
        self.f1 = nn.Linear(16 * 5 * 5, 120)
        self.f2 = nn.Linear(120, 84)
        self.f3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(torch.tanh(self.c1(x)), 2)
        x = F.avg_pool2d(torch.tanh(self.c2(x)), 2)
        x = torch.flatten(x, 1)
        return self.f3(torch.tanh(self.f2(torch.tanh(self.f1(x)))))


class SmallConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = F.relu6(self.bn(self.conv(x)))
        y = F.hardswish(self.dw(y)) + y
        y = F.max_pool2d(y, 3, stride=2, padding=1, ceil_mode=True)
        return self.fc(torch.flatten(self.pool(y), 1))


class Block(nn.Module):
    """A GPT-style block: layer norm, causal self-attention, MLP with GELU, residuals."""

    def __init__(self, d=64, h=4):
        super().__init__()
        self.h = h
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.out = nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q = q.view(b, t, self.h, d // self.h).transpose(1, 2)
        k = k.view(b, t, self.h, d // self.h).transpose(1, 2)
        v = v.view(b, t, self.h, d // self.h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / (d // self.h) ** 0.5)
        mask = torch.tril(torch.ones(t, t)).view(1, 1, t, t)
        att = att.masked_fill(mask == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, d)
        x = x + self.proj(y)
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


def resnet18():
    import torchvision
    return torchvision.models.resnet18()


def mobilenet_v2():
    import torchvision
    return torchvision.models.mobilenet_v2()


CASES = [
    dict(name="json_mlp", module=MLP, inputs=lambda: [torch.randn(1, 64)], format="json"),
    dict(name="json_mlp_script", module=MLP, inputs=lambda: [torch.randn(3, 64)], format="json", method="script"),
    dict(name="json_lenet5", module=LeNet5, inputs=lambda: [torch.randn(1, 1, 28, 28)], format="json", rtol=1e-4, atol=1e-5),
    dict(name="json_smallconv", module=SmallConv, inputs=lambda: [torch.randn(2, 3, 17, 17)], format="json", rtol=1e-4, atol=1e-5),
    dict(name="json_gpt_block", module=Block, inputs=lambda: [torch.randn(2, 16, 64)], format="json", rtol=1e-4, atol=1e-5),
    dict(name="json_resnet18", module=resnet18, inputs=lambda: [torch.randn(1, 3, 224, 224)], format="json",
         rtol=1e-3, atol=1e-4, modes=["zerocopy"], clang=False),
    dict(name="json_mobilenet_v2", module=mobilenet_v2, inputs=lambda: [torch.randn(1, 3, 224, 224)], format="json",
         rtol=1e-3, atol=1e-4, modes=["zerocopy"], clang=False),
]
