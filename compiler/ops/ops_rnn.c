/* ops_rnn.c — the rnn family's rows: recurrent layers and cells. Kernels in k_rnn.h. All are
 * pure. (nn.LSTMCell & co. under torch.jit.trace record their decomposition into linear,
 * unsafe_chunk and activations; the cell ops come from scripted modules.) */
#include "ops.h"

#include "k_rnn.h"

#define RNN(name, kern, nmin, nmax, schema, doc)                                                  \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, 0, schema, doc)
/* batch_first layers: PyTorch's output is a transposed view of its [T, B, H] result */
#define RNN_LAYER(name, kern, nmin, nmax, schema, doc)                                            \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, OPF_STRIDED_OUT, schema, doc)

#define LAYER_SCHEMA(HX, R)                                                                       \
  "(Tensor input, " HX " hx, Tensor[] params, bool has_biases, int num_layers, float dropout, "   \
  "bool train, bool bidirectional, bool batch_first) -> " R " | (Tensor data, Tensor batch_sizes, " \
  HX " hx, Tensor[] params, bool has_biases, int num_layers, float dropout, bool train, "         \
  "bool bidirectional) -> " R
#define CELL_SCHEMA(HX, R)                                                                        \
  "(Tensor input, " HX " hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, Tensor? b_hh=None) -> " R

static const OpDef rows[] = {
    RNN_LAYER("lstm", krnn_lstm, 9, 9, LAYER_SCHEMA("Tensor[]", "(Tensor, Tensor, Tensor)"),
        "LSTM layers over [T, B, I] (batch_first: [B, T, I]), hx = [h0, c0]: (output, h_n, c_n); "
        "bidirectional, proj_size; packed sequences refused"),
    RNN_LAYER("gru", krnn_gru, 9, 9, LAYER_SCHEMA("Tensor", "(Tensor, Tensor)"),
        "GRU layers: (output, h_n); packed sequences refused"),
    RNN_LAYER("rnn_tanh", krnn_rnn_tanh, 9, 9, LAYER_SCHEMA("Tensor", "(Tensor, Tensor)"),
        "Elman RNN layers with tanh: (output, h_n); packed sequences refused"),
    RNN_LAYER("rnn_relu", krnn_rnn_relu, 9, 9, LAYER_SCHEMA("Tensor", "(Tensor, Tensor)"),
        "Elman RNN layers with relu: (output, h_n); packed sequences refused"),
    RNN("lstm_cell", krnn_lstm_cell, 4, 6, CELL_SCHEMA("Tensor[]", "(Tensor, Tensor)"),
        "one LSTM step of input [B, I] from hx = [h, c]: (h', c')"),
    RNN("gru_cell", krnn_gru_cell, 4, 6, CELL_SCHEMA("Tensor", "Tensor"), "one GRU step: h'"),
    RNN("rnn_tanh_cell", krnn_rnn_tanh_cell, 4, 6, CELL_SCHEMA("Tensor", "Tensor"),
        "one Elman step: tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)"),
    RNN("rnn_relu_cell", krnn_rnn_relu_cell, 4, 6, CELL_SCHEMA("Tensor", "Tensor"),
        "one Elman step with relu"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 8, "rnn op table size");

const OpFamily ops_family_rnn = {"rnn", rows, (int)(sizeof rows / sizeof rows[0])};
