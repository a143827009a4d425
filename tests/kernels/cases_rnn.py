"""cases_rnn.py — kernel cases of the rnn family (k_rnn.h): aten::lstm, gru, rnn_tanh and rnn_relu
over one and two layers, unidirectional and bidirectional, batch_first or not, with and without
biases, LSTM with proj_size, non-contiguous inputs and states, train=True without dropout; the
cells lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell with and without biases; and what
PyTorch refuses (wrong parameter counts, sequence length 0, bad state shapes). Parameters are
the lists nn.LSTM & co. pass (module._flat_weights). Expected values come from PyTorch."""
import torch

A = torch.ops.aten
TOL = 2e-5

MODULES = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU, "rnn_tanh": torch.nn.RNN, "rnn_relu": torch.nn.RNN}


def module(kind, I, H, L, bidir, bias, bf, proj=0):
    kw = dict(num_layers=L, bidirectional=bidir, bias=bias, batch_first=bf)
    if kind.startswith("rnn"):
        kw["nonlinearity"] = kind[4:]
    if proj:
        kw["proj_size"] = proj
    return MODULES[kind](I, H, **kw)


def layer_case(w, kind, T=4, B=2, I=3, H=5, L=1, bidir=False, bias=True, bf=False, proj=0,
               zero_state=False, strided=False, train=False):
    m = module(kind, I, H, L, bidir, bias, bf, proj)
    params = [p.detach() for p in m._flat_weights]
    D = 2 if bidir else 1
    x = torch.randn(B, T, I) if bf else torch.randn(T, B, I)
    if strided:
        x = torch.randn(x.shape[0], x.shape[1], 2 * I)[..., ::2]
    P = proj or H
    h0 = torch.zeros(L * D, B, P) if zero_state else torch.randn(L * D, B, P)
    if strided:
        h0 = torch.randn(B, L * D, P).transpose(0, 1)
    rest = [bias, L, 0.0, train, bidir, bf]
    if kind == "lstm":
        c0 = torch.zeros(L * D, B, H) if zero_state else torch.randn(L * D, B, H)
        args = [x, [h0, c0], params] + rest
    else:
        args = [x, h0, params] + rest
    w.case("aten::" + kind, args, getattr(A, kind)(*args), tol=TOL)


def cell_case(w, kind, B=3, I=4, H=5, bias=True, strided=False):
    G = {"lstm": 4, "gru": 3}.get(kind, 1)
    wi, wh = torch.randn(G * H, I) * 0.5, torch.randn(G * H, H) * 0.5
    bi, bh = (torch.randn(G * H), torch.randn(G * H)) if bias else (None, None)
    x, h = torch.randn(B, I), torch.randn(B, H)
    if strided:
        x, h = torch.randn(I, B).t(), torch.randn(B, 2 * H)[:, 1::2]
    hx = [h, torch.randn(B, H)] if kind == "lstm" else h
    args = [x, hx, wi, wh, bi, bh]
    op = "aten::%s_cell" % kind
    w.case(op, args, getattr(A, "%s_cell" % kind)(*args), tol=TOL)


def cases(w):
    for kind in ("lstm", "gru", "rnn_tanh", "rnn_relu"):
        layer_case(w, kind)
        layer_case(w, kind, L=2)
        layer_case(w, kind, bidir=True)
        layer_case(w, kind, L=2, bidir=True, bf=True)
        layer_case(w, kind, bias=False, bf=True)
        layer_case(w, kind, zero_state=True, T=1, B=1)
        layer_case(w, kind, strided=True, L=2)
        layer_case(w, kind, train=True)  # no dropout: the same as eval
        layer_case(w, kind, T=7, B=5, I=24, H=17, L=2, bidir=True)  # the packed GEMM (35 x 68 x 24)
        layer_case(w, kind, B=0)
        cell_case(w, kind)
        cell_case(w, kind, bias=False)
        cell_case(w, kind, strided=True, B=1)
    layer_case(w, "lstm", proj=3)
    layer_case(w, "lstm", proj=2, L=2, bidir=True, bf=True)
    layer_case(w, "lstm", proj=2, bias=False)

    # refused
    m = module("gru", 3, 4, 1, False, True, False)
    p = [t.detach() for t in m._flat_weights]
    x, h = torch.randn(5, 2, 3), torch.randn(1, 2, 4)
    w.error("aten::gru", [x, h, p[:3], True, 1, 0.0, False, False, False])
    w.error("aten::gru", [x, h, p, True, 2, 0.0, False, False, False])
    w.error("aten::gru", [torch.randn(0, 2, 3), h, p, True, 1, 0.0, False, False, False])
    w.error("aten::gru", [x, torch.randn(1, 3, 4), p, True, 1, 0.0, False, False, False])
    w.error("aten::gru", [torch.randn(5, 2, 4), h, p, True, 1, 0.0, False, False, False])
    m = module("lstm", 3, 4, 1, False, True, False)
    p = [t.detach() for t in m._flat_weights]
    w.error("aten::lstm", [x, [h], p, True, 1, 0.0, False, False, False])
    w.error("aten::lstm_cell", [x[0], [h[0]], p[0], p[1], p[2], p[3]])
    w.error("aten::lstm_cell", [torch.randn(2, 5), [h[0], h[0]], p[0], p[1], p[2], p[3]])
    w.error("aten::rnn_tanh_cell", [x[0], torch.randn(2, 5), torch.randn(4, 3), torch.randn(4, 4)])
