"""Coverage sweep: every inference-relevant torch.nn module class and ~150 common torch / F.*
calls, each exported traced and scripted with frontend/python/mc_export.py, run with `mc run`
and compared (outputs and dtypes) with PyTorch eager.

Each result is one of
  pass      mc's outputs match PyTorch's
  refused   mc rejected the model (its first error line is kept)
  wrong     mc ran but an output differs (value, shape, dtype or count)
  crash     mc died on a signal, exited with an unexpected status or timed out
  torch     PyTorch itself cannot export the case (trace/script/freeze failed)
A summary by cause (the op or feature named by mc's first error) follows the per-case lines.

Usage (/usr/bin/python3, torch 1.13):
  sweep.py [--jobs N] [--out FILE] [--quick] [NAME-FILTER ...]
Environment: MC (path to mc), BUILD (scratch directory root).
--quick runs only the fixed regression subset (QUICK below), exits 1 unless all pass; it is
what tests/run_e2e.sh runs. The full run (`make sweep`) writes tests/sweep/results.txt.
"""
import collections
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import traceback

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MC = os.path.abspath(os.environ.get("MC", os.path.join(ROOT, "build/mc")))
BUILD = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
sys.path.insert(0, os.path.join(ROOT, "frontend/python"))
sys.path.insert(0, os.path.join(ROOT, "tests/e2e"))
import mc_export  # noqa: E402
from run_e2e import close, flatten, to_numpy  # noqa: E402


def f(*s):
    return lambda: torch.randn(*s)


def pos(*s):
    return lambda: torch.rand(*s) + 0.1


def ints(lo, hi, *s):
    return lambda: torch.randint(lo, hi, s)


def const(t):
    return lambda: t.clone()


# ---- module cases: (name, factory, [input factories]) ---------------------------------------
MODULES = [
    ("Conv1d", lambda: nn.Conv1d(3, 4, 3, padding=1), [f(2, 3, 8)]),
    ("Conv2d", lambda: nn.Conv2d(3, 4, 3, stride=2, padding=1), [f(1, 3, 8, 8)]),
    ("Conv2d_groups_dil", lambda: nn.Conv2d(4, 4, 3, groups=2, dilation=2), [f(1, 4, 9, 9)]),
    ("Conv2d_pad_same", lambda: nn.Conv2d(3, 2, 3, padding="same"), [f(1, 3, 6, 6)]),
    ("Conv2d_reflect", lambda: nn.Conv2d(3, 2, 3, padding=1, padding_mode="reflect"), [f(1, 3, 6, 6)]),
    ("Conv2d_circular", lambda: nn.Conv2d(3, 2, 3, padding=1, padding_mode="circular"), [f(1, 3, 6, 6)]),
    ("Conv3d", lambda: nn.Conv3d(2, 3, 3, padding=1), [f(1, 2, 4, 5, 5)]),
    ("ConvTranspose1d", lambda: nn.ConvTranspose1d(3, 2, 3, stride=2), [f(1, 3, 5)]),
    ("ConvTranspose2d", lambda: nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1), [f(1, 3, 4, 4)]),
    ("ConvTranspose3d", lambda: nn.ConvTranspose3d(2, 2, 2, stride=2), [f(1, 2, 3, 3, 3)]),
    ("MaxPool1d", lambda: nn.MaxPool1d(2), [f(1, 3, 8)]),
    ("MaxPool2d", lambda: nn.MaxPool2d(3, stride=2, padding=1), [f(1, 3, 8, 8)]),
    ("MaxPool2d_ceil", lambda: nn.MaxPool2d(2, ceil_mode=True), [f(1, 2, 7, 7)]),
    ("MaxPool2d_indices", lambda: nn.MaxPool2d(2, return_indices=True), [f(1, 2, 6, 6)]),
    ("MaxPool3d", lambda: nn.MaxPool3d(2), [f(1, 2, 4, 4, 4)]),
    ("AvgPool1d", lambda: nn.AvgPool1d(3, stride=2), [f(1, 3, 9)]),
    ("AvgPool2d", lambda: nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), [f(1, 3, 8, 8)]),
    ("AvgPool3d", lambda: nn.AvgPool3d(2), [f(1, 2, 4, 4, 4)]),
    ("AdaptiveAvgPool1d", lambda: nn.AdaptiveAvgPool1d(3), [f(1, 3, 7)]),
    ("AdaptiveAvgPool2d", lambda: nn.AdaptiveAvgPool2d((2, 3)), [f(1, 3, 7, 8)]),
    ("AdaptiveAvgPool3d", lambda: nn.AdaptiveAvgPool3d(2), [f(1, 2, 5, 5, 5)]),
    ("AdaptiveMaxPool1d", lambda: nn.AdaptiveMaxPool1d(3), [f(1, 3, 7)]),
    ("AdaptiveMaxPool2d", lambda: nn.AdaptiveMaxPool2d((2, 3)), [f(1, 3, 7, 8)]),
    ("AdaptiveMaxPool3d", lambda: nn.AdaptiveMaxPool3d(2), [f(1, 2, 5, 5, 5)]),
    ("LPPool1d", lambda: nn.LPPool1d(2, 3, stride=2), [pos(1, 3, 9)]),
    ("LPPool2d", lambda: nn.LPPool2d(2, 2), [pos(1, 3, 6, 6)]),
    ("FractionalMaxPool2d", lambda: nn.FractionalMaxPool2d(2, output_size=(3, 3), _random_samples=torch.rand(1, 2, 2)), [f(1, 2, 7, 7)]),
    ("FractionalMaxPool3d", lambda: nn.FractionalMaxPool3d(2, output_size=(2, 2, 2), _random_samples=torch.rand(1, 2, 3)), [f(1, 2, 5, 5, 5)]),
    ("BatchNorm1d", lambda: nn.BatchNorm1d(3), [f(4, 3)]),
    ("BatchNorm2d", lambda: nn.BatchNorm2d(3), [f(2, 3, 4, 4)]),
    ("BatchNorm3d", lambda: nn.BatchNorm3d(2), [f(1, 2, 3, 3, 3)]),
    ("LayerNorm", lambda: nn.LayerNorm(6), [f(2, 3, 6)]),
    ("GroupNorm", lambda: nn.GroupNorm(2, 4), [f(2, 4, 3, 3)]),
    ("InstanceNorm1d", lambda: nn.InstanceNorm1d(3), [f(2, 3, 6)]),
    ("InstanceNorm2d_affine", lambda: nn.InstanceNorm2d(3, affine=True), [f(2, 3, 4, 4)]),
    ("InstanceNorm2d_stats", lambda: nn.InstanceNorm2d(3, track_running_stats=True), [f(2, 3, 4, 4)]),
    ("InstanceNorm3d", lambda: nn.InstanceNorm3d(2), [f(1, 2, 3, 3, 3)]),
    ("LocalResponseNorm", lambda: nn.LocalResponseNorm(3), [f(1, 5, 4, 4)]),
    ("CrossMapLRN2d", lambda: nn.CrossMapLRN2d(3), [f(1, 5, 4, 4)]),
    ("ELU", lambda: nn.ELU(0.5), [f(3, 4)]),
    ("Hardshrink", lambda: nn.Hardshrink(), [f(3, 4)]),
    ("Hardsigmoid", lambda: nn.Hardsigmoid(), [f(3, 4)]),
    ("Hardtanh", lambda: nn.Hardtanh(-0.5, 0.5), [f(3, 4)]),
    ("Hardswish", lambda: nn.Hardswish(), [f(3, 4)]),
    ("LeakyReLU", lambda: nn.LeakyReLU(0.1), [f(3, 4)]),
    ("LogSigmoid", lambda: nn.LogSigmoid(), [f(3, 4)]),
    ("PReLU", lambda: nn.PReLU(3), [f(2, 3, 4)]),
    ("ReLU", lambda: nn.ReLU(), [f(3, 4)]),
    ("ReLU6", lambda: nn.ReLU6(), [f(3, 4)]),
    ("RReLU", lambda: nn.RReLU(), [f(3, 4)]),
    ("SELU", lambda: nn.SELU(), [f(3, 4)]),
    ("CELU", lambda: nn.CELU(0.7), [f(3, 4)]),
    ("GELU", lambda: nn.GELU(), [f(3, 4)]),
    ("GELU_tanh", lambda: nn.GELU(approximate="tanh"), [f(3, 4)]),
    ("Sigmoid", lambda: nn.Sigmoid(), [f(3, 4)]),
    ("SiLU", lambda: nn.SiLU(), [f(3, 4)]),
    ("Mish", lambda: nn.Mish(), [f(3, 4)]),
    ("Softplus", lambda: nn.Softplus(2.0, 3.0), [f(3, 4)]),
    ("Softshrink", lambda: nn.Softshrink(), [f(3, 4)]),
    ("Softsign", lambda: nn.Softsign(), [f(3, 4)]),
    ("Tanh", lambda: nn.Tanh(), [f(3, 4)]),
    ("Tanhshrink", lambda: nn.Tanhshrink(), [f(3, 4)]),
    ("Threshold", lambda: nn.Threshold(0.1, 20.0), [f(3, 4)]),
    ("GLU", lambda: nn.GLU(), [f(3, 4)]),
    ("Softmin", lambda: nn.Softmin(1), [f(3, 4)]),
    ("Softmax", lambda: nn.Softmax(-1), [f(3, 4)]),
    ("Softmax2d", lambda: nn.Softmax2d(), [f(1, 3, 2, 2)]),
    ("LogSoftmax", lambda: nn.LogSoftmax(1), [f(3, 4)]),
    ("Identity", lambda: nn.Identity(), [f(3, 4)]),
    ("Linear", lambda: nn.Linear(4, 3), [f(2, 4)]),
    ("Linear_3d", lambda: nn.Linear(4, 3, bias=False), [f(2, 5, 4)]),
    ("Bilinear", lambda: nn.Bilinear(3, 4, 2), [f(5, 3), f(5, 4)]),
    ("Embedding", lambda: nn.Embedding(10, 3), [ints(0, 10, 2, 4)]),
    ("Embedding_padding", lambda: nn.Embedding(10, 3, padding_idx=0), [ints(0, 10, 2, 4)]),
    ("EmbeddingBag_mean", lambda: nn.EmbeddingBag(10, 3), [ints(0, 10, 2, 4)]),
    ("EmbeddingBag_sum_offsets", lambda: nn.EmbeddingBag(10, 3, mode="sum"), [ints(0, 10, 8), const(torch.tensor([0, 3, 5]))]),
    ("EmbeddingBag_max", lambda: nn.EmbeddingBag(10, 3, mode="max"), [ints(0, 10, 2, 4)]),
    ("EmbeddingBag_psw_last_offset", lambda: nn.EmbeddingBag(10, 3, mode="sum", include_last_offset=True),
     [ints(0, 10, 8), const(torch.tensor([0, 3, 3, 8])), lambda: torch.rand(8)]),
    ("EmbeddingBag_padding", lambda: nn.EmbeddingBag(10, 3, mode="mean", padding_idx=2), [const(torch.tensor([[2, 1, 2], [2, 2, 2]]))]),
    ("TransformerEncoderLayer", lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), [f(5, 2, 8)]),
    ("TransformerEncoderLayer_bf_gelu", lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu", batch_first=True, norm_first=True), [f(2, 5, 8)]),
    ("TransformerDecoderLayer", lambda: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), [f(4, 2, 8), f(5, 2, 8)]),
    ("TransformerEncoder", lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2), [f(5, 2, 8)]),
    ("Transformer", lambda: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0), [f(5, 2, 8), f(4, 2, 8)]),
    ("MultiheadAttention", lambda: nn.MultiheadAttention(8, 2), [f(4, 2, 8), f(5, 2, 8), f(5, 2, 8)]),
    ("MultiheadAttention_bf_kv", lambda: nn.MultiheadAttention(8, 2, batch_first=True, kdim=6, vdim=5), [f(2, 4, 8), f(2, 5, 6), f(2, 5, 5)]),
    ("RNN", lambda: nn.RNN(4, 5), [f(3, 2, 4)]),
    ("RNN_relu_bi", lambda: nn.RNN(4, 5, 2, nonlinearity="relu", bidirectional=True), [f(3, 2, 4)]),
    ("LSTM", lambda: nn.LSTM(4, 5), [f(3, 2, 4)]),
    ("LSTM_bf_2layer", lambda: nn.LSTM(4, 5, 2, batch_first=True), [f(2, 3, 4)]),
    ("LSTM_proj", lambda: nn.LSTM(4, 5, proj_size=3), [f(3, 2, 4)]),
    ("GRU", lambda: nn.GRU(4, 5), [f(3, 2, 4)]),
    ("GRU_bi", lambda: nn.GRU(4, 5, bidirectional=True), [f(3, 2, 4)]),
    ("RNNCell", lambda: nn.RNNCell(4, 5), [f(2, 4)]),
    ("LSTMCell", lambda: nn.LSTMCell(4, 5), [f(2, 4)]),
    ("GRUCell", lambda: nn.GRUCell(4, 5), [f(2, 4)]),
    ("Upsample_nearest", lambda: nn.Upsample(scale_factor=2), [f(1, 2, 3, 3)]),
    ("Upsample_bilinear", lambda: nn.Upsample(size=(5, 7), mode="bilinear"), [f(1, 2, 3, 3)]),
    ("Upsample_bilinear_ac", lambda: nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True), [f(1, 2, 3, 3)]),
    ("Upsample_bicubic", lambda: nn.Upsample(scale_factor=2, mode="bicubic"), [f(1, 2, 3, 3)]),
    ("Upsample_linear", lambda: nn.Upsample(scale_factor=2, mode="linear"), [f(1, 2, 5)]),
    ("Upsample_trilinear", lambda: nn.Upsample(scale_factor=2, mode="trilinear"), [f(1, 2, 2, 3, 3)]),
    ("Upsample_nearest3d", lambda: nn.Upsample(scale_factor=2, mode="nearest"), [f(1, 2, 2, 3, 3)]),
    ("UpsamplingNearest2d", lambda: nn.UpsamplingNearest2d(scale_factor=2), [f(1, 2, 3, 3)]),
    ("UpsamplingBilinear2d", lambda: nn.UpsamplingBilinear2d(scale_factor=2), [f(1, 2, 3, 3)]),
    ("PixelShuffle", lambda: nn.PixelShuffle(2), [f(1, 8, 3, 3)]),
    ("PixelUnshuffle", lambda: nn.PixelUnshuffle(2), [f(1, 2, 4, 4)]),
    ("Flatten", lambda: nn.Flatten(), [f(2, 3, 4)]),
    ("Unflatten", lambda: nn.Unflatten(1, (2, 6)), [f(2, 12)]),
    ("Fold", lambda: nn.Fold((4, 5), 2), [f(1, 12, 12)]),
    ("Unfold", lambda: nn.Unfold(2, stride=1, padding=1), [f(1, 3, 4, 4)]),
    ("ReflectionPad1d", lambda: nn.ReflectionPad1d(2), [f(1, 2, 5)]),
    ("ReflectionPad2d", lambda: nn.ReflectionPad2d((1, 2, 0, 1)), [f(1, 2, 4, 4)]),
    ("ReflectionPad3d", lambda: nn.ReflectionPad3d(1), [f(1, 2, 3, 3, 3)]),
    ("ReplicationPad1d", lambda: nn.ReplicationPad1d(2), [f(1, 2, 5)]),
    ("ReplicationPad2d", lambda: nn.ReplicationPad2d((1, 2, 0, 1)), [f(1, 2, 4, 4)]),
    ("ReplicationPad3d", lambda: nn.ReplicationPad3d(1), [f(1, 2, 3, 3, 3)]),
    ("ZeroPad2d", lambda: nn.ZeroPad2d((1, 0, 2, 1)), [f(1, 2, 3, 3)]),
    ("ConstantPad1d", lambda: nn.ConstantPad1d(2, 0.5), [f(1, 2, 5)]),
    ("ConstantPad2d", lambda: nn.ConstantPad2d((1, 0, 2, 1), -1.0), [f(1, 2, 3, 3)]),
    ("ConstantPad3d", lambda: nn.ConstantPad3d(1, 2.0), [f(1, 2, 2, 2, 2)]),
    ("Dropout", lambda: nn.Dropout(0.3), [f(3, 4)]),
    ("Dropout1d", lambda: nn.Dropout1d(0.3), [f(2, 3, 4)]),
    ("Dropout2d", lambda: nn.Dropout2d(0.3), [f(1, 3, 4, 4)]),
    ("Dropout3d", lambda: nn.Dropout3d(0.3), [f(1, 2, 2, 2, 2)]),
    ("AlphaDropout", lambda: nn.AlphaDropout(0.3), [f(3, 4)]),
    ("FeatureAlphaDropout", lambda: nn.FeatureAlphaDropout(0.3), [f(1, 3, 4, 4)]),
    ("CosineSimilarity", lambda: nn.CosineSimilarity(1), [f(3, 5), f(3, 5)]),
    ("PairwiseDistance", lambda: nn.PairwiseDistance(), [f(3, 5), f(3, 5)]),
    ("ChannelShuffle", lambda: nn.ChannelShuffle(2), [f(1, 4, 2, 2)]),
    # losses
    ("L1Loss", lambda: nn.L1Loss(), [f(3, 4), f(3, 4)]),
    ("MSELoss_sum", lambda: nn.MSELoss(reduction="sum"), [f(3, 4), f(3, 4)]),
    ("CrossEntropyLoss", lambda: nn.CrossEntropyLoss(), [f(4, 5), ints(0, 5, 4)]),
    ("CrossEntropyLoss_probs_ls", lambda: nn.CrossEntropyLoss(label_smoothing=0.1), [f(4, 5), lambda: torch.softmax(torch.randn(4, 5), 1)]),
    ("CrossEntropyLoss_2d_w", lambda: nn.CrossEntropyLoss(weight=torch.rand(3), ignore_index=1), [f(2, 3, 4, 4), ints(0, 3, 2, 4, 4)]),
    ("CTCLoss", lambda: nn.CTCLoss(), [lambda: torch.randn(6, 2, 5).log_softmax(2), ints(1, 5, 2, 3), const(torch.tensor([6, 5])), const(torch.tensor([3, 2]))]),
    ("NLLLoss", lambda: nn.NLLLoss(), [lambda: torch.randn(4, 5).log_softmax(1), ints(0, 5, 4)]),
    ("NLLLoss_none", lambda: nn.NLLLoss(reduction="none"), [lambda: torch.randn(4, 5).log_softmax(1), ints(0, 5, 4)]),
    ("PoissonNLLLoss", lambda: nn.PoissonNLLLoss(), [f(3, 4), pos(3, 4)]),
    ("GaussianNLLLoss", lambda: nn.GaussianNLLLoss(), [f(3, 4), f(3, 4), pos(3, 4)]),
    ("KLDivLoss", lambda: nn.KLDivLoss(reduction="batchmean"), [lambda: torch.randn(3, 4).log_softmax(1), lambda: torch.softmax(torch.randn(3, 4), 1)]),
    ("BCELoss", lambda: nn.BCELoss(), [lambda: torch.rand(3, 4) * 0.9 + 0.05, lambda: torch.rand(3, 4)]),
    ("BCEWithLogitsLoss", lambda: nn.BCEWithLogitsLoss(pos_weight=torch.rand(4)), [f(3, 4), lambda: torch.rand(3, 4)]),
    ("MarginRankingLoss", lambda: nn.MarginRankingLoss(0.1), [f(5), f(5), lambda: torch.randint(0, 2, (5,)).float() * 2 - 1]),
    ("HingeEmbeddingLoss", lambda: nn.HingeEmbeddingLoss(), [f(3, 4), lambda: torch.randint(0, 2, (3, 4)).float() * 2 - 1]),
    ("MultiLabelMarginLoss", lambda: nn.MultiLabelMarginLoss(), [f(2, 4), const(torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1]]))]),
    ("HuberLoss", lambda: nn.HuberLoss(delta=0.5), [f(3, 4), f(3, 4)]),
    ("SmoothL1Loss", lambda: nn.SmoothL1Loss(beta=0.5), [f(3, 4), f(3, 4)]),
    ("SoftMarginLoss", lambda: nn.SoftMarginLoss(), [f(3, 4), lambda: torch.randint(0, 2, (3, 4)).float() * 2 - 1]),
    ("MultiLabelSoftMarginLoss", lambda: nn.MultiLabelSoftMarginLoss(), [f(3, 4), lambda: torch.randint(0, 2, (3, 4)).float()]),
    ("CosineEmbeddingLoss", lambda: nn.CosineEmbeddingLoss(0.1), [f(3, 4), f(3, 4), const(torch.tensor([1.0, -1.0, 1.0]))]),
    ("MultiMarginLoss", lambda: nn.MultiMarginLoss(), [f(3, 4), ints(0, 4, 3)]),
    ("TripletMarginLoss", lambda: nn.TripletMarginLoss(), [f(3, 4), f(3, 4), f(3, 4)]),
    ("TripletMarginWithDistanceLoss", lambda: nn.TripletMarginWithDistanceLoss(), [f(3, 4), f(3, 4), f(3, 4)]),
]


class MaxUnpool2d(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2)

    def forward(self, x):
        y, i = self.pool(x)
        return self.unpool(y, i)


MODULES.append(("MaxUnpool2d", MaxUnpool2d, [f(1, 2, 4, 4)]))

# ---- functional cases: (name, forward parameters, return expression, [input factories]) ----
X = [f(3, 4)]
XY = [f(3, 4), f(3, 4)]
IMG = [f(1, 2, 5, 5)]
FNS = [
    ("abs", "x", "torch.abs(x)", X), ("neg", "x", "-x", X), ("exp", "x", "torch.exp(x)", X),
    ("expm1", "x", "torch.expm1(x)", X), ("log", "x", "torch.log(x)", [pos(3, 4)]),
    ("log1p", "x", "torch.log1p(x)", [pos(3, 4)]), ("log2", "x", "torch.log2(x)", [pos(3, 4)]),
    ("log10", "x", "torch.log10(x)", [pos(3, 4)]), ("sqrt", "x", "torch.sqrt(x)", [pos(3, 4)]),
    ("rsqrt", "x", "torch.rsqrt(x)", [pos(3, 4)]), ("sin", "x", "torch.sin(x)", X),
    ("cos", "x", "torch.cos(x)", X), ("tan", "x", "torch.tan(x)", X),
    ("asin", "x", "torch.asin(x * 0.5)", X), ("acos", "x", "torch.acos(x * 0.5)", X),
    ("atan", "x", "torch.atan(x)", X), ("atan2", "x, y", "torch.atan2(x, y)", XY),
    ("sinh", "x", "torch.sinh(x)", X), ("cosh", "x", "torch.cosh(x)", X),
    ("tanh", "x", "torch.tanh(x)", X), ("asinh", "x", "torch.asinh(x)", X),
    ("erf", "x", "torch.erf(x)", X), ("erfinv", "x", "torch.erfinv(x * 0.3)", X),
    ("sigmoid", "x", "torch.sigmoid(x)", X), ("reciprocal", "x", "torch.reciprocal(x)", [pos(3, 4)]),
    ("floor", "x", "torch.floor(x * 3)", X), ("ceil", "x", "torch.ceil(x * 3)", X),
    ("round", "x", "torch.round(x * 3)", X), ("round_dec", "x", "torch.round(x, decimals=1)", X),
    ("trunc", "x", "torch.trunc(x * 3)", X), ("frac", "x", "torch.frac(x * 3)", X),
    ("sign", "x", "torch.sign(x)", X), ("square", "x", "torch.square(x)", X),
    ("pow_scalar", "x", "torch.pow(x, 3)", X), ("pow_tensor", "x, y", "torch.pow(x.abs(), y)", XY),
    ("rpow", "x", "2 ** x", X), ("clamp", "x", "torch.clamp(x, -0.5, 0.5)", X),
    ("clamp_min", "x", "x.clamp(min=0.1)", X), ("clamp_tensor", "x, y", "torch.clamp(x, min=y)", XY),
    ("fmod", "x", "torch.fmod(x * 5, 1.5)", X), ("remainder", "x", "torch.remainder(x * 5, 1.5)", X),
    ("floor_divide", "x", "torch.floor_divide(x * 5, 2)", X),
    ("div_trunc", "x, y", "torch.div(x, y, rounding_mode='trunc')", XY),
    ("div_floor_int", "x, y", "torch.div(x, y, rounding_mode='floor')", [ints(-9, 9, 3, 4), ints(1, 4, 3, 4)]),
    ("int_add_float", "x", "x + 1.5", [ints(0, 9, 3, 4)]), ("int_truediv", "x", "x / 2", [ints(0, 9, 3, 4)]),
    ("lerp", "x, y", "torch.lerp(x, y, 0.3)", XY), ("addcmul", "x, y", "torch.addcmul(x, x, y, value=0.5)", XY),
    ("addcdiv", "x, y", "torch.addcdiv(x, x, y.abs() + 1, value=0.5)", XY),
    ("maximum", "x, y", "torch.maximum(x, y)", XY), ("minimum", "x, y", "torch.minimum(x, y)", XY),
    ("hypot", "x, y", "torch.hypot(x, y)", XY), ("logaddexp", "x, y", "torch.logaddexp(x, y)", XY),
    ("isnan", "x", "torch.isnan(x / x.round())", X), ("isinf", "x", "torch.isinf(1 / x.round())", X),
    ("isfinite", "x", "torch.isfinite(1 / x.round())", X), ("nan_to_num", "x", "torch.nan_to_num(x / x.round())", X),
    ("logical_ops", "x, y", "torch.logical_and(x > 0, y > 0) | torch.logical_not(x > y) ^ (y < 0.5)", XY),
    ("bitwise_int", "x, y", "(x & y) | (x ^ 3) << 1", [ints(0, 9, 3, 4), ints(0, 9, 3, 4)]),
    ("eq_ne", "x, y", "(x == y.round()) | (x != 0)", [lambda: torch.randint(0, 3, (3, 4)).float(), f(3, 4)]),
    ("sum", "x", "torch.sum(x)", X), ("sum_dim", "x", "x.sum(dim=(0, 2), keepdim=True)", [f(2, 3, 4)]),
    ("sum_int", "x", "x.sum(1)", [ints(0, 9, 3, 4)]), ("mean", "x", "x.mean(-1)", X),
    ("prod", "x", "torch.prod(x, 1)", X), ("max_all", "x", "torch.max(x)", X),
    ("max_dim", "x", "torch.max(x, 1)", X), ("min_dim", "x", "torch.min(x, 0, keepdim=True)", X),
    ("amax", "x", "torch.amax(x, (0, 1))", [f(2, 3, 4)]), ("argmax", "x", "torch.argmax(x, 1)", X),
    ("argmin", "x", "torch.argmin(x)", X), ("std", "x", "torch.std(x, 1)", X),
    ("var_unbiased", "x", "torch.var(x, 0, unbiased=False)", X), ("var_mean", "x", "torch.var_mean(x, 1)", X),
    ("std_mean", "x", "torch.std_mean(x)", X), ("norm", "x", "torch.norm(x)", X),
    ("norm_p1_dim", "x", "torch.norm(x, p=1, dim=1)", X), ("linalg_norm", "x", "torch.linalg.norm(x, dim=1)", X),
    ("logsumexp", "x", "torch.logsumexp(x, 1)", X), ("all_any", "x", "torch.all(x > -3), torch.any(x > 1, 1)", X),
    ("cumsum", "x", "torch.cumsum(x, 1)", X), ("cumprod", "x", "torch.cumprod(x, 0)", X),
    ("cummax", "x", "torch.cummax(x, 1)", X), ("logcumsumexp", "x", "torch.logcumsumexp(x, 1)", X),
    ("median", "x", "torch.median(x, 1)", X), ("mode", "x", "torch.mode(x.round(), 1)", X),
    ("sort", "x", "torch.sort(x, 1)", X), ("sort_desc_stable", "x", "torch.sort(x.round(), dim=0, descending=True, stable=True)", X),
    ("argsort", "x", "torch.argsort(x, 1)", X), ("topk", "x", "torch.topk(x, 2)", X),
    ("topk_smallest", "x", "torch.topk(x, 2, dim=0, largest=False)", X), ("kthvalue", "x", "torch.kthvalue(x, 2, 1)", X),
    ("cat", "x, y", "torch.cat([x, y], 1)", XY), ("stack", "x, y", "torch.stack([x, y], 0)", XY),
    ("hstack", "x, y", "torch.hstack([x, y])", XY), ("split", "x", "torch.split(x, 2, 1)", X),
    ("chunk", "x", "torch.chunk(x, 2, 0)", [f(4, 3)]), ("unbind", "x", "torch.unbind(x, 1)", X),
    ("tensor_split", "x", "torch.tensor_split(x, 3, 1)", X), ("view", "x", "x.view(2, 6)", X),
    ("reshape_neg", "x", "x.reshape(-1, 2)", X), ("permute", "x", "x.permute(2, 0, 1)", [f(2, 3, 4)]),
    ("transpose_t", "x", "x.t() + x.transpose(0, 1)", X), ("squeeze_unsqueeze", "x", "x.unsqueeze(1).squeeze()", X),
    ("flatten", "x", "torch.flatten(x, 1)", [f(2, 3, 4)]), ("expand", "x", "x.expand(3, 3, 4)", [f(1, 3, 4)]),
    ("expand_as", "x, y", "x[:1].expand_as(y)", XY), ("repeat", "x", "x.repeat(2, 1, 3)", X),
    ("tile", "x", "torch.tile(x, (2,))", X), ("repeat_interleave", "x", "torch.repeat_interleave(x, 2, dim=1)", X),
    ("flip", "x", "torch.flip(x, [0, 1])", X), ("roll", "x", "torch.roll(x, 2, 1)", X),
    ("rot90", "x", "torch.rot90(x, 1, [0, 1])", X), ("tril_triu", "x", "torch.tril(x) + torch.triu(x, 1)", X),
    ("diag", "x", "torch.diag(x)", [f(4, 4)]), ("diagonal", "x", "torch.diagonal(x, 1)", X),
    ("narrow", "x", "torch.narrow(x, 1, 1, 2)", X), ("select_slice", "x", "x[1:, ::2]", X),
    ("index_neg_step", "x", "x[-1, 1:3]", X), ("index_none_ellipsis", "x", "x[None, ..., 1]", X),
    ("index_tensor", "x, i", "x[i]", [f(5, 3), ints(0, 5, 4)]), ("index_2tensor", "x, i, j", "x[i, j]", [f(5, 3), ints(0, 5, 4), ints(0, 3, 4)]),
    ("index_bool", "x", "x[x > 0]", X), ("index_put", "x, i", "x.index_put((i,), torch.ones(4, 3))", [f(5, 3), ints(0, 5, 4)]),
    ("setitem_slice", "x", "torch.cat([x[:, :2] * 2, x[:, 2:]], 1)", X),
    ("index_select", "x, i", "torch.index_select(x, 0, i)", [f(5, 3), ints(0, 5, 4)]),
    ("gather", "x, i", "torch.gather(x, 1, i)", [f(3, 4), ints(0, 4, 3, 2)]),
    ("scatter", "x, i", "torch.zeros(3, 5).scatter(1, i, x)", [f(3, 2), const(torch.tensor([[0, 3], [1, 4], [2, 0]]))]),
    ("scatter_add", "x, i", "torch.zeros(3, 5).scatter_add(1, i, x)", [f(3, 4), ints(0, 5, 3, 4)]),
    ("scatter_reduce", "x, i", "torch.ones(3, 5).scatter_reduce(1, i, x, 'amax', include_self=False)", [f(3, 4), ints(0, 5, 3, 4)]),
    ("index_add", "x, i", "torch.zeros(5, 3).index_add(0, i, x)", [f(4, 3), ints(0, 5, 4)]),
    ("masked_fill", "x", "x.masked_fill(x > 0.5, -1.0)", X), ("masked_select", "x", "torch.masked_select(x, x > 0)", X),
    ("where", "x, y", "torch.where(x > y, x, y)", XY), ("where_scalar", "x", "torch.where(x > 0, x, 0.0)", X),
    ("nonzero", "x", "torch.nonzero(x > 0)", X), ("take", "x, i", "torch.take(x, i)", [f(3, 4), ints(0, 12, 5)]),
    ("one_hot", "i", "F.one_hot(i, 6)", [ints(0, 6, 4)]), ("searchsorted", "s, x", "torch.searchsorted(s, x)", [lambda: torch.sort(torch.randn(6))[0], f(4)]),
    ("bucketize", "x, b", "torch.bucketize(x, b)", [f(5), lambda: torch.sort(torch.randn(4))[0]]),
    ("unique", "x", "torch.unique(x)", [ints(0, 5, 8)]), ("bincount", "x", "torch.bincount(x)", [ints(0, 5, 8)]),
    ("arange_like", "x", "x + torch.arange(4)", X), ("zeros_like_full", "x", "torch.zeros_like(x) + torch.full_like(x, 2.0) + torch.ones(3, 4)", X),
    ("linspace", "x", "x + torch.linspace(0, 1, 4)", X), ("eye", "x", "x + torch.eye(3, 4)", X),
    ("to_dtype", "x", "(x * 3).to(torch.int32), x.double(), x.half().float()", X),
    ("type_as", "x, i", "i.type_as(x) + x", [f(3, 4), ints(0, 5, 3, 4)]),
    ("broadcast_tensors", "x, y", "torch.broadcast_tensors(x, y)", [f(3, 1), f(1, 4)]),
    ("broadcast_to", "x", "torch.broadcast_to(x, (2, 3, 4))", [f(3, 1)]),
    ("matmul", "x, y", "torch.matmul(x, y)", [f(2, 3, 4), f(4, 5)]), ("mm", "x, y", "torch.mm(x, y.t())", XY),
    ("bmm", "x, y", "torch.bmm(x, y)", [f(2, 3, 4), f(2, 4, 2)]), ("addmm", "x, y", "torch.addmm(x[0], x, y.t())", [f(3, 3), f(3, 3)]),
    ("baddbmm", "x, y", "torch.baddbmm(x, x, y, alpha=0.5)", [f(2, 3, 3), f(2, 3, 3)]),
    ("mv_dot", "x, y", "torch.mv(x, y[0]) + torch.dot(y[0], y[1])", XY), ("outer", "x, y", "torch.outer(x, y)", [f(3), f(4)]),
    ("einsum", "x, y", "torch.einsum('bij,bjk->bik', x, y)", [f(2, 3, 4), f(2, 4, 2)]),
    ("einsum_trace", "x", "torch.einsum('ii->', x)", [f(4, 4)]), ("cross", "x, y", "torch.cross(x, y, dim=1)", [f(2, 3), f(2, 3)]),
    ("cdist", "x, y", "torch.cdist(x, y)", [f(3, 4), f(5, 4)]), ("linalg_inv", "x", "torch.linalg.inv(x + 4 * torch.eye(3))", [f(3, 3)]),
    ("det", "x", "torch.det(x)", [f(3, 3)]), ("tensordot", "x, y", "torch.tensordot(x, y, dims=1)", [f(3, 4), f(4, 2)]),
    ("F_relu", "x", "F.relu(x)", X), ("F_gelu", "x", "F.gelu(x)", X), ("F_silu", "x", "F.silu(x)", X),
    ("F_softmax", "x", "F.softmax(x, dim=1)", X), ("F_log_softmax", "x", "F.log_softmax(x, dim=0)", X),
    ("F_softmax_dtype", "x", "F.softmax(x, 1, dtype=torch.float64)", X),
    ("F_normalize", "x", "F.normalize(x, dim=1)", X), ("F_normalize_p1", "x", "F.normalize(x, p=1.0, dim=0)", X),
    ("F_linear", "x, y", "F.linear(x, y)", XY), ("F_dropout_eval", "x", "F.dropout(x, 0.5, training=False)", X),
    ("F_layer_norm", "x", "F.layer_norm(x, (4,))", X), ("F_group_norm", "x", "F.group_norm(x, 2)", [f(2, 4, 3)]),
    ("F_batch_norm", "x", "F.batch_norm(x, torch.zeros(4), torch.ones(4))", X),
    ("F_instance_norm", "x", "F.instance_norm(x)", [f(2, 3, 5)]),
    ("F_embedding", "i, w", "F.embedding(i, w)", [ints(0, 5, 3), f(5, 2)]),
    ("F_conv2d", "x, w", "F.conv2d(x, w, padding=1)", [f(1, 2, 5, 5), f(3, 2, 3, 3)]),
    ("F_conv1d_stride", "x, w", "F.conv1d(x, w, stride=2)", [f(1, 2, 9), f(3, 2, 3)]),
    ("F_max_pool2d", "x", "F.max_pool2d(x, 2)", IMG), ("F_avg_pool2d", "x", "F.avg_pool2d(x, 3, 1, 1)", IMG),
    ("F_adaptive_avg_pool2d", "x", "F.adaptive_avg_pool2d(x, 1)", IMG),
    ("F_interpolate_nearest", "x", "F.interpolate(x, scale_factor=2.0)", IMG),
    ("F_interpolate_bilinear", "x", "F.interpolate(x, size=(7, 8), mode='bilinear', align_corners=False)", IMG),
    ("F_interpolate_bicubic_ac", "x", "F.interpolate(x, scale_factor=1.5, mode='bicubic', align_corners=True)", IMG),
    ("F_interpolate_bilinear_aa", "x", "F.interpolate(x, size=(3, 3), mode='bilinear', antialias=True)", IMG),
    ("F_interpolate_area", "x", "F.interpolate(x, size=(2, 3), mode='area')", IMG),
    ("F_interpolate_nearest_exact", "x", "F.interpolate(x, size=(7, 3), mode='nearest-exact')", IMG),
    ("F_interpolate_linear", "x", "F.interpolate(x, scale_factor=2.0, mode='linear')", [f(1, 2, 5)]),
    ("F_grid_sample", "x, g", "F.grid_sample(x, g, align_corners=False)", [f(1, 2, 4, 4), lambda: torch.rand(1, 3, 3, 2) * 2.2 - 1.1]),
    ("F_grid_sample_nearest_border", "x, g", "F.grid_sample(x, g, mode='nearest', padding_mode='border', align_corners=True)", [f(1, 2, 4, 4), lambda: torch.rand(1, 3, 3, 2) * 2.2 - 1.1]),
    ("F_grid_sample_reflection", "x, g", "F.grid_sample(x, g, mode='bilinear', padding_mode='reflection', align_corners=False)", [f(1, 2, 4, 4), lambda: torch.rand(1, 3, 3, 2) * 2.2 - 1.1]),
    ("F_affine_grid", "t", "F.affine_grid(t, [1, 2, 3, 4], align_corners=False)", [f(1, 2, 3)]),
    ("F_pad_constant", "x", "F.pad(x, (1, 2), value=0.5)", X), ("F_pad_reflect", "x", "F.pad(x, (1, 1, 2, 0), mode='reflect')", IMG),
    ("F_pad_replicate", "x", "F.pad(x, (1, 1, 2, 0), mode='replicate')", IMG),
    ("F_pad_circular", "x", "F.pad(x, (1, 1, 2, 0), mode='circular')", IMG),
    ("F_pad_negative", "x", "F.pad(x, (-1, 1))", X),
    ("F_pixel_shuffle", "x", "F.pixel_shuffle(x, 2)", [f(1, 4, 2, 2)]),
    ("F_unfold", "x", "F.unfold(x, 3, padding=1)", IMG), ("F_fold", "x", "F.fold(x, (3, 3), 2)", [f(1, 8, 4)]),
    ("F_cosine_similarity", "x, y", "F.cosine_similarity(x, y)", XY),
    ("F_pairwise_distance", "x, y", "F.pairwise_distance(x, y, p=1.0)", XY),
    ("F_mse_loss", "x, y", "F.mse_loss(x, y)", XY), ("F_l1_loss_none", "x, y", "F.l1_loss(x, y, reduction='none')", XY),
    ("F_cross_entropy", "x, t", "F.cross_entropy(x, t)", [f(4, 5), ints(0, 5, 4)]),
    ("F_binary_cross_entropy_with_logits", "x, y", "F.binary_cross_entropy_with_logits(x, y.sigmoid())", XY),
    ("F_smooth_l1", "x, y", "F.smooth_l1_loss(x, y)", XY),
    ("F_scaled_dot_product_like", "q, k, v", "torch.softmax(q @ k.transpose(-2, -1) / 2.0, -1) @ v", [f(2, 3, 4), f(2, 5, 4), f(2, 5, 4)]),
    ("F_hardtanh", "x", "F.hardtanh(x, -0.3, 0.3)", X), ("F_leaky_relu", "x", "F.leaky_relu(x, 0.2)", X),
    ("F_elu", "x", "F.elu(x)", X), ("F_softplus", "x", "F.softplus(x)", X), ("F_glu", "x", "F.glu(x, 0)", [f(4, 3)]),
    ("F_prelu", "x, w", "F.prelu(x, w)", [f(2, 3, 4), f(3)]), ("F_threshold", "x", "F.threshold(x, 0.5, -2.0)", X),
    ("F_mish", "x", "F.mish(x)", X), ("F_hardswish", "x", "F.hardswish(x)", X),
    ("F_logsigmoid", "x", "F.logsigmoid(x)", X), ("F_softsign", "x", "F.softsign(x)", X),
    ("F_gumbel_like_noise_free", "x", "F.softmin(x, 1)", X),
    ("F_local_response_norm", "x", "F.local_response_norm(x, 2)", [f(1, 4, 3, 3)]),
    ("F_channel_shuffle", "x", "F.channel_shuffle(x, 2)", [f(1, 4, 2, 2)]),
    ("F_max_pool1d_idx", "x", "F.max_pool1d(x, 2, return_indices=True)", [f(1, 2, 8)]),
    ("size_arith", "x", "x.view(x.size(0) * x.size(1))", X),
    ("shape_loop", "x", "x.reshape(x.shape[0], -1).mean(1)", [f(2, 3, 4)]),
    ("numel_dim", "x", "x * x.numel() + x.dim()", X),
    ("clone_contig", "x", "x.t().contiguous().clone()", X),
    ("inplace_ops", "x", "x.clone().add_(1).mul_(2).clamp_(max=2.5)", X),
    ("new_zeros_ones", "x", "x.new_zeros(2, 3).sum() + x.new_ones(4) + x.new_full((4,), 2.0)", X),
    ("masked_fill_tensor", "x, m", "x.masked_fill(m, torch.tensor(2.0))", [f(3, 4), lambda: torch.rand(3, 4) > 0.5]),
    ("bool_ops_reduce", "m", "m.sum(), m.float().mean(), m.any()", [lambda: torch.rand(3, 4) > 0.5]),
    ("complex_index_assign", "x", "x.index_fill(1, torch.tensor([0, 2]), -1.0)", X),
    ("diff", "x", "torch.diff(x, dim=1)", X), ("trace", "x", "torch.trace(x)", [f(3, 3)]),
    ("amin_aminmax", "x", "torch.aminmax(x, dim=1)", X), ("count_nonzero", "x", "torch.count_nonzero(x > 0, 1)", X),
    ("stacks", "x, y", "torch.vstack([x, y]), torch.dstack([x, y]), torch.column_stack([x[:, 0], y]), torch.row_stack([x, y[0]])", XY),
    ("diag_embed_flat", "x", "torch.diag_embed(x, 1), torch.diagflat(x[0], -1), torch.diag(x[0], 2)", X),
    ("slogdet_logdet", "x", "torch.linalg.slogdet(x), torch.logdet(x @ x.mT + torch.eye(3))", [f(2, 3, 3)]),
    ("matrix_norms", "x", "torch.linalg.matrix_norm(x, 1), torch.linalg.matrix_norm(x, 'nuc'), torch.linalg.norm(x, 2)", X),
    ("cdist_mm", "x, y", "torch.cdist(x, y), torch.cdist(x, y, compute_mode='donot_use_mm_for_euclid_dist')", [f(30, 4), f(5, 4)]),
    ("chunk_cat_loop", "x", "torch.cat([c * 2 for c in torch.chunk(x, 2, 1)], 0)", X),
    ("sum_list_comp", "x", "torch.stack([x[i] * float(i) for i in range(3)]).sum(0)", X),
]

# the regression subset wired into tests/run_e2e.sh (< 60 s; all pass)
QUICK = [
    "mod:Conv2d:trace", "mod:ConvTranspose2d:trace", "mod:MaxPool2d_ceil:script",
    "mod:GroupNorm:trace", "mod:Dropout2d:script", "mod:L1Loss:script", "mod:LayerNorm:script", "mod:GELU_tanh:script",
    "mod:Embedding:script", "mod:Upsample_bilinear:trace", "mod:PixelShuffle:script",
    "mod:ReflectionPad2d:trace", "mod:CrossEntropyLoss:trace", "mod:Softmax2d:script",
    "fn:F_interpolate_bilinear:script", "fn:F_interpolate_nearest:script",
    "fn:F_grid_sample:script", "fn:F_pad_reflect:script", "fn:F_normalize:script",
    "fn:einsum:script", "fn:cumsum:trace", "fn:masked_fill:script", "fn:topk:script",
    "fn:gather:trace", "fn:where:script", "fn:div_floor_int:trace",
    # scripted: a size list indexed in a loop, lists and tuples returned, unpassed defaults
    "mod:GroupNorm:script", "mod:InstanceNorm1d:script", "fn:split:script", "fn:unbind:script",
    "fn:broadcast_tensors:script", "mod:EmbeddingBag_sum_offsets:script", "mod:EmbeddingBag_mean:script",
    "mod:ConvTranspose2d:script", "mod:LSTMCell:script", "fn:F_max_pool1d_idx:trace",
    # scripted attention: the fast-path checks fold (`query is key`, len of a str), the fast-path
    # ops sit in dropped branches, list + list of tensors
    "mod:MultiheadAttention:script", "mod:TransformerEncoderLayer:script", "mod:TransformerDecoderLayer:script",
]


def fn_module_source():
    lines = ["import torch", "import torch.nn as nn", "import torch.nn.functional as F", ""]
    for name, params, expr, _ in FNS:
        lines += ["class Fn_%s(nn.Module):" % name,
                  "    def forward(self, %s):" % params,
                  "        return %s" % expr, ""]
    return "\n".join(lines)


def all_cases(scratch):
    """[(id, kind, name, factory, inputs)] for every case; writes the functional cases' module
    source (torch.jit.script reads a class's source from its file)."""
    path = os.path.join(scratch, "sweep_fns.py")
    src = fn_module_source()
    if not os.path.exists(path) or open(path).read() != src:
        with open(path + ".tmp", "w") as fh:
            fh.write(src)
        os.replace(path + ".tmp", path)
    spec = importlib.util.spec_from_file_location("sweep_fns", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    cases = [("mod", n, fac, ins) for n, fac, ins in MODULES]
    cases += [("fn", n, getattr(m, "Fn_" + n), ins) for n, _, _, ins in FNS]
    return cases



if os.environ.get("SAN"):  # mc built with sanitizers (make asan): libtcc's scratch is not a leak of ours
    os.environ["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0"

def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else "(no message)"


def cause_of(msg):
    """A short cause for the summary: the op mc says it lacks, else the message with its
    numbers and value names blanked."""
    m = re.search(r"unsupported op '([^']+)'", msg)
    if m:
        return "op " + m.group(1)
    msg = re.sub(r"%[A-Za-z0-9_.]+", "%v", msg)
    msg = re.sub(r"\(\d+(, \d+)*,?\)", "(..)", msg)
    return re.sub(r"-?[0-9]+", "N", msg)[:110]


def run_case(kind, name, factory, input_fns, method, scratch, timeout=120):
    """Returns (status, detail)."""
    d = os.path.join(scratch, "%s_%s_%s" % (kind, name, method))
    os.makedirs(d, exist_ok=True)
    torch.manual_seed(0)
    try:
        mod = factory()
        mod.eval()
        inputs = [g() for g in input_fns]
        with torch.no_grad():
            want = flatten(mod(*[x.clone() for x in inputs]))
        want = [to_numpy(w) for w in want]
    except Exception as e:
        return "torch", "eager: %s" % str(e).splitlines()[0][:120]
    if not all(isinstance(w, np.ndarray) for w in want):
        return "torch", "eager: output is not tensors"
    path = os.path.join(d, "model.json")
    try:
        mc_export.export(mod, tuple(x.clone() for x in inputs), path, method=method)
    except mc_export.ExportError as e:
        msg = str(e).splitlines()[0]
        if msg.startswith("torch.jit") or msg.startswith("running the module"):
            return "torch", msg[:160]
        return "refused", "mc_export: " + msg[:200]
    except Exception as e:
        return "crash", "mc_export raised %s: %s" % (type(e).__name__, str(e).splitlines()[0][:160] if str(e) else "")
    files = []
    for i, x in enumerate(inputs):
        p = os.path.join(d, "in_%d.npy" % i)
        np.save(p, x.contiguous().numpy())
        files.append(p)
    import json
    for e in json.load(open(path))["graph"]["inputs"]:  # module state: the exporter's values
        if "state" in e:
            files.append(mc_export.state_path(path, e["name"]))
    od = os.path.join(d, "out")
    for fn in os.listdir(od) if os.path.isdir(od) else []:
        os.unlink(os.path.join(od, fn))
    try:
        r = subprocess.run([MC, "run", "-q", path] + files + ["-o", od], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "crash", "mc run timed out after %d s" % timeout
    if r.returncode == 1:
        return "refused", first_error(r.stdout)
    if r.returncode != 0:
        return "crash", "mc run exited %d: %s" % (r.returncode, first_error(r.stdout))
    errors = []
    n = len([x for x in os.listdir(od) if x.startswith("output_")])
    if n != len(want):
        return "wrong", "%d outputs, PyTorch %d" % (n, len(want))
    for k, w in enumerate(want):
        got = np.load(os.path.join(od, "output_%d.npy" % k))
        scale = float(np.abs(w).max()) if w.size and np.issubdtype(w.dtype, np.floating) and np.isfinite(w).all() else 1.0
        msg = close(got, w, 1e-4, 1e-5 * max(1.0, scale))
        if msg:
            errors.append("output %d %s" % (k, msg))
    if errors:
        return "wrong", "; ".join(errors)[:300]
    return "pass", ""


def worker(args):
    kind, name, method, scratch = args
    torch.set_num_threads(1)
    for k, n, fac, ins in all_cases(scratch):
        if k == kind and n == name:
            try:
                st, detail = run_case(kind, name, fac, ins, method, scratch)
            except Exception:
                st, detail = "crash", "sweep: " + traceback.format_exc().splitlines()[-1]
            return "%s:%s:%s" % (kind, name, method), st, detail
    raise KeyError(name)


def main():
    argv = sys.argv[1:]
    jobs, out, quick = 1, None, False
    only = []
    while argv:
        a = argv.pop(0)
        if a == "--jobs":
            jobs = int(argv.pop(0))
        elif a == "--out":
            out = argv.pop(0)
        elif a == "--quick":
            quick = True
        else:
            only.append(a)
    scratch = os.path.join(BUILD, "sweep")
    os.makedirs(scratch, exist_ok=True)
    work = []
    for kind, name, _, _ in all_cases(scratch):
        for method in ("trace", "script"):
            cid = "%s:%s:%s" % (kind, name, method)
            if quick and cid not in QUICK:
                continue
            if only and not any(o in cid for o in only):
                continue
            work.append((kind, name, method, scratch))
    if jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = list(pool.imap(worker, work))
    else:
        results = []
        for w in work:
            results.append(worker(w))
            if quick:
                print("%-8s %s %s" % (results[-1][1], results[-1][0], results[-1][2]), flush=True)
    lines = []
    counts = collections.OrderedDict()
    causes = collections.Counter()
    for cid, st, detail in results:
        lines.append("%-8s %-48s %s" % (st, cid, detail))
        method = cid.rsplit(":", 1)[1]
        counts.setdefault(method, collections.Counter())[st] += 1
        if st in ("refused", "crash", "wrong"):
            causes[(st, cause_of(detail) if st == "refused" else detail[:90])] += 1
    lines.append("")
    lines.append("%-8s %6s %8s %6s %6s %6s %6s" % ("mode", "pass", "refused", "wrong", "crash", "torch", "total"))
    for method, c in counts.items():
        lines.append("%-8s %6d %8d %6d %6d %6d %6d" % (method, c["pass"], c["refused"], c["wrong"], c["crash"],
                                                     c["torch"], sum(c.values())))
    lines.append("")
    lines.append("causes (count, status, cause):")
    for (st, cause), n in causes.most_common():
        lines.append("%4d  %-8s %s" % (n, st, cause))
    text = "\n".join(lines) + "\n"
    if not quick:
        sys.stdout.write(text)
    if out:
        with open(out, "w") as fh:
            fh.write(text)
    if quick:
        bad = [r for r in results if r[1] != "pass"]
        print("sweep quick: %d passed, %d failed" % (len(results) - len(bad), len(bad)))
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
