"""torchvision 0.14 classifiers (randomly initialised, eval, batch 1, 3x224x224) and
nn.TransformerEncoderLayer through the exporter, compared with PyTorch.

One case per model. Cases marked heavy=True compile large C files (tens of MB of weights in a
.weights blob, thousands of kernel calls) and run only when MC_E2E_HEAVY=1; the default run
keeps a few models that build and run in seconds.

Tolerance: every output element within 1e-4 x max|PyTorch output| (scale_tol), with no fixed
floor: randomly initialised mobilenet_v3 logits are ~1e-9, so an absolute atol would pass
garbage. Deep random networks sum in a different order from PyTorch's kernels, hence not 1e-6."""
import torch
import torch.nn as nn

# Kept in the default `make check` run: small and fast to compile.
LIGHT = ["squeezenet1_1", "shufflenet_v2_x1_0", "mobilenet_v3_small"]

HEAVY = [
    "resnet50", "mobilenet_v3_large", "squeezenet1_0", "mnasnet1_0", "efficientnet_b0",
    "regnet_x_400mf", "densenet121", "googlenet", "convnext_tiny", "vit_b_16",
    # one of each remaining torchvision 0.14 family
    "alexnet", "vgg11_bn", "inception_v3", "resnext50_32x4d", "wide_resnet50_2", "regnet_y_400mf",
    "efficientnet_v2_s", "shufflenet_v2_x0_5", "mnasnet0_5", "vit_b_32", "swin_t", "swin_v2_t",
    "maxvit_t",
]


def _tv(name):
    """torchvision's constructor, with zero-initialised weight matrices (vit's head and class
    token) made random: an all-zero output would compare equal whatever mc computed."""
    def make():
        import torchvision
        m = getattr(torchvision.models, name)()
        with torch.no_grad():
            for p in m.parameters():
                if p.dim() >= 2 and not p.any():
                    p.normal_(0, 0.02)
        return m
    return make


def _encoder_layer(batch_first):
    def make():
        return nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, dropout=0.1,
                                          batch_first=batch_first)
    return make


class _CausalPreNorm(nn.Module):
    """A pre-norm GELU encoder layer with a causal float mask (-inf above the diagonal)."""

    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                                activation="gelu", norm_first=True, batch_first=True)

    def forward(self, x):
        t = x.shape[1]
        mask = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
        return self.layer(x, src_mask=mask)


def _image():
    return [torch.randn(1, 3, 224, 224)]


CASES = [
    dict(name="tv_" + n, module=_tv(n), inputs=_image, format="json", rtol=0.0, scale_tol=1e-4,
         modes=["zerocopy"], clang=False, heavy=n in HEAVY)
    for n in LIGHT + HEAVY
] + [
    dict(name="json_encoder_layer_batch_first", module=_encoder_layer(True),
         inputs=lambda: [torch.randn(2, 10, 64)], format="json", rtol=1e-4, atol=1e-5),
    dict(name="json_encoder_layer_seq_first", module=_encoder_layer(False),
         inputs=lambda: [torch.randn(10, 2, 64)], format="json", rtol=1e-4, atol=1e-5),
    dict(name="json_encoder_layer_causal_prenorm", module=_CausalPreNorm,
         inputs=lambda: [torch.randn(2, 10, 64)], format="json", rtol=1e-4, atol=1e-5),
]
