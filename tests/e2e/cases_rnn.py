"""Recurrent layers and losses end to end: nn.LSTM (two layers, bidirectional, batch_first) with
and without (h0, c0), nn.GRU, nn.RNN with relu, an LSTMCell loop over time (traced: the cell's
decomposition into linear, unsafe_chunk and activations), the cell ops in a scripted module,
and models ending in losses (cross_entropy with label smoothing and ignore_index, and with class
probabilities; nll_loss with weights, binary cross entropy with and without logits, kl_div,
triplet margin, hinge embedding, poisson nll, multi-class margins; the regression losses, which
trace aten::broadcast_tensors before the loss). The kernel cases (tests/kernels/cases_rnn.py,
cases_loss.py) carry the numerics of every option."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMNoState(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(3, 5, num_layers=2, bidirectional=True, batch_first=True)

    def forward(self, x):
        y, (h, c) = self.rnn(x)
        return y, h, c


class LSTMState(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(3, 5, num_layers=2, bidirectional=True, batch_first=True)

    def forward(self, x, h0, c0):
        y, (h, c) = self.rnn(x, (h0, c0))
        return y, h, c


class GRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(4, 6, num_layers=2)
        self.head = nn.Linear(6, 2)

    def forward(self, x, h0):
        y, h = self.rnn(x, h0)
        return self.head(y[-1]), h


class RNNRelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(4, 5, nonlinearity="relu", bidirectional=True)

    def forward(self, x):
        y, h = self.rnn(x)
        return y, h


class LSTMCellLoop(nn.Module):
    """h, c = cell(x[t], (h, c)) for each step, the outputs stacked."""

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(3, 4)

    def forward(self, x):
        h = torch.zeros(x.size(1), 4)
        c = torch.zeros(x.size(1), 4)
        ys = []
        for t in range(x.size(0)):
            h, c = self.cell(x[t], (h, c))
            ys.append(h)
        return torch.stack(ys), c


class CellOps(nn.Module):
    """torch.lstm_cell / gru_cell / rnn_tanh_cell in a scripted module (aten::*_cell; a scripted
    nn.LSTMCell also checks its input's rank with ops mc lacks)."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTMCell(3, 4)
        self.gru = nn.GRUCell(3, 4, bias=False)
        self.rnn = nn.RNNCell(3, 4)

    def forward(self, x, h):
        c = h * 0.5
        g = h
        r = h
        for xt in [x[0], x[1], x[2]]:  # a run-time x[t] is not supported: three steps
            h, c = torch.lstm_cell(xt, [h, c], self.lstm.weight_ih, self.lstm.weight_hh,
                                   self.lstm.bias_ih, self.lstm.bias_hh)
            g = torch.gru_cell(xt, g, self.gru.weight_ih, self.gru.weight_hh)
            r = torch.rnn_tanh_cell(xt, r, self.rnn.weight_ih, self.rnn.weight_hh,
                                    self.rnn.bias_ih, self.rnn.bias_hh)
        return h, c, g, r


class CrossEntropy(nn.Module):
    """A classifier ending in F.cross_entropy with label smoothing and ignore_index."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 5)

    def forward(self, x, target):
        logits = self.fc(x)
        return (F.cross_entropy(logits, target, ignore_index=2, label_smoothing=0.1),
                F.cross_entropy(logits, target, reduction="none", label_smoothing=0.2),
                F.cross_entropy(logits, F.softmax(x[:, :5], 1), label_smoothing=0.05))


class Losses(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("w", torch.tensor([0.5, 1.0, 2.0, 1.5]))

    def forward(self, x, y, t, p, labels):
        lp = F.log_softmax(x, 1)
        return (F.nll_loss(lp, t, weight=self.w, reduction="sum"),
                F.binary_cross_entropy_with_logits(x, p, pos_weight=self.w),
                F.kl_div(lp, p, reduction="batchmean"),
                F.binary_cross_entropy(torch.sigmoid(x), p, reduction="none"),
                F.triplet_margin_loss(x, y, p, margin=0.5),
                F.hinge_embedding_loss(x, torch.sign(y), margin=0.5),
                F.poisson_nll_loss(x, p * 3, full=True),
                F.multi_margin_loss(x, t, p=2, margin=0.7, weight=self.w),
                F.multilabel_margin_loss(x, labels))


class Regression(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x, y):
        z = self.fc(x)
        return (F.mse_loss(z, y), F.l1_loss(z, y, reduction="sum"),
                F.smooth_l1_loss(z, y[0], beta=0.5, reduction="none"), F.huber_loss(z, y, delta=0.3))


def seq(*shape):
    return lambda: [torch.randn(*shape)]


CASES = [
    dict(name="rnn_lstm_bidir_batch_first", module=LSTMNoState, format="json", inputs=seq(2, 5, 3), atol=1e-5),
    dict(name="rnn_lstm_bidir_batch_first_state", module=LSTMState, format="json", atol=1e-5,
         inputs=lambda: [torch.randn(2, 5, 3), torch.randn(4, 2, 5), torch.randn(4, 2, 5)]),
    dict(name="rnn_gru_two_layers", module=GRU, format="json", atol=1e-5,
         inputs=lambda: [torch.randn(6, 3, 4), torch.randn(2, 3, 6)]),
    dict(name="rnn_rnn_relu_bidir", module=RNNRelu, format="json", inputs=seq(5, 2, 4), atol=1e-5),
    dict(name="rnn_lstm_cell_loop_trace", module=LSTMCellLoop, format="json", inputs=seq(4, 2, 3), atol=1e-5),
    dict(name="rnn_cell_ops_script", module=CellOps, method="script", format="json",
         inputs=lambda: [torch.randn(3, 2, 3), torch.randn(2, 4)], atol=1e-5),
    dict(name="rnn_loss_cross_entropy", module=CrossEntropy, format="json", atol=1e-5,
         inputs=lambda: [torch.randn(7, 6), torch.tensor([0, 2, 4, 1, 2, 3, 0])]),
    dict(name="rnn_loss_others", module=Losses, format="json", atol=1e-5,
         inputs=lambda: [torch.randn(3, 4), torch.randn(3, 4), torch.tensor([3, 0, 1]), torch.rand(3, 4),
                         torch.tensor([[3, 0, -1, 0], [1, -1, 2, 2], [0, 1, 2, 3]])]),
    dict(name="rnn_loss_regression", module=Regression, format="json", atol=1e-5,
         inputs=lambda: [torch.randn(5, 4), torch.randn(5, 3)]),
]
