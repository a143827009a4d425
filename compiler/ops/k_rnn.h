/* k_rnn.h — kernels of the rnn family: the recurrent layers aten::lstm, gru, rnn_tanh and
 * rnn_relu (the `input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
 * batch_first` overload; the packed-sequence `data, batch_sizes, ...` overload is refused) and
 * the cells lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell. Prefix: krnn_.
 *
 * As PyTorch 1.13 on CPU: a layer projects the inputs of all timesteps with one GEMM
 * (x W_ih^T + b_ih, k_linalg.h's kl_sgemm_nt), then for each step adds h W_hh^T + b_hh and
 * applies the gates in float32 in ATen's order of operations:
 *   LSTM  i, f, g, o = chunk(hh + ih, 4); c' = sigmoid(f) c + sigmoid(i) tanh(g);
 *         h' = sigmoid(o) tanh(c') (then h' W_hr^T with proj_size)
 *   GRU   r = sigmoid(hh_r + ih_r); z = sigmoid(hh_z + ih_z); n = tanh(ih_n + hh_n r);
 *         h' = (h - n) z + n
 *   RNN   h' = tanh(hh + ih) or relu(hh + ih)
 * The reverse direction of a bidirectional layer runs over the steps backwards and its outputs
 * are concatenated after the forward ones on the last dim; layer l + 1 reads layer l's output.
 * Params are the Tensor[] list nn.LSTM & co. pass: per layer and direction w_ih, w_hh, then
 * b_ih, b_hh when has_biases, then w_hr when h0's last extent differs from c0's (proj_size).
 * Dropout between layers exists only in training: train with dropout > 0 over several layers is
 * refused. float32 only.
 */
#ifndef MC_K_RNN_H
#define MC_K_RNN_H

#include "mck.h"
#include "k_linalg.h" /* kl_sgemm_nt */

enum { KRNN_LSTM = 0, KRNN_GRU, KRNN_TANH, KRNN_RELU };

static inline const char *krnn_name(int mode) {
  static const char *const nm[4] = {"aten::lstm", "aten::gru", "aten::rnn_tanh", "aten::rnn_relu"};
  return nm[mode];
}
static inline int krnn_ngates(int mode) { return mode == KRNN_LSTM ? 4 : mode == KRNN_GRU ? 3 : 1; }

static inline float krnn_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

/* The gates of one step for b rows: gh = h W_hh^T + b_hh and gi = x W_ih^T + b_ih ([b, G*H],
 * rows at stride ldg and ldi), the previous state hp (rows at ldh) and cp (LSTM, rows at ldc);
 * writes h' and c' ([b, H] contiguous). */
static inline void krnn_gates(int mode, int64_t b, int64_t H, const float *gh, int64_t ldg,
                              const float *gi, int64_t ldi, const float *hp, int64_t ldh,
                              const float *cp, int64_t ldc, float *hn, float *cn) {
  for (int64_t r = 0; r < b; r++) {
    const float *a = gh + r * ldg, *x = gi + r * ldi;
    float *ho = hn + r * H;
    if (mode == KRNN_LSTM) {
      const float *cr = cp + r * ldc;
      float *co = cn + r * H;
      for (int64_t j = 0; j < H; j++) {
        float ig = krnn_sigmoid(a[j] + x[j]);
        float fg = krnn_sigmoid(a[H + j] + x[H + j]);
        float cg = tanhf(a[2 * H + j] + x[2 * H + j]);
        float og = krnn_sigmoid(a[3 * H + j] + x[3 * H + j]);
        float cy = fg * cr[j] + ig * cg;
        co[j] = cy;
        ho[j] = og * tanhf(cy);
      }
    } else if (mode == KRNN_GRU) {
      const float *hr = hp + r * ldh;
      for (int64_t j = 0; j < H; j++) {
        float rg = krnn_sigmoid(a[j] + x[j]);
        float zg = krnn_sigmoid(a[H + j] + x[H + j]);
        float ng = tanhf(x[2 * H + j] + a[2 * H + j] * rg);
        ho[j] = (hr[j] - ng) * zg + ng;
      }
    } else {
      for (int64_t j = 0; j < H; j++) {
        float v = a[j] + x[j];
        ho[j] = mode == KRNN_TANH ? tanhf(v) : (v > 0 || v != v ? v : 0.0f);
      }
    }
  }
}

/* c[m, n] = a[m, k] W[n, k]^T (+ bias[n]) for float32 W of any strides, a rows at lda and c
 * contiguous rows of n. -1 on OOM. */
static inline int krnn_linear(int nthreads, int64_t m, int64_t n, int64_t k, const float *a,
                              int64_t lda, const mck_tensor *w, const mck_tensor *bias, float *c) {
  if (m == 0 || n == 0) return 0;
  const float *wp = (const float *)w->data + w->offset;
  if (bias) {
    const float *bp = (const float *)bias->data + bias->offset;
    int64_t bs = bias->stride[0];
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) c[i * n + j] = bp[j * bs];
  }
  return kl_sgemm_nt(nthreads, m, n, k, 1.0f, a, lda, 1, wp, w->stride[1], w->stride[0],
                     bias ? 1.0f : 0.0f, c, n, 1);
}

static inline int krnn_check2(mck_ctx *c, const char *op, const char *what, const mck_tensor *t,
                              int64_t d0, int64_t d1) {
  if (!t || t->dtype != MCK_F32 || t->ndim != 2 || t->shape[0] != d0 || t->shape[1] != d1)
    return mck_fail(c, "%s: %s must be a float32 [%lld, %lld] tensor", op, what, (long long)d0,
                    (long long)d1);
  return 0;
}
static inline int krnn_check1(mck_ctx *c, const char *op, const char *what, const mck_tensor *t,
                              int64_t d0) {
  if (!t || t->dtype != MCK_F32 || t->ndim != 1 || t->shape[0] != d0)
    return mck_fail(c, "%s: %s must be a float32 [%lld] tensor", op, what, (long long)d0);
  return 0;
}
static inline int krnn_check3(mck_ctx *c, const char *op, const char *what, const mck_tensor *t,
                              int64_t d0, int64_t d1, int64_t d2) {
  if (!t || t->dtype != MCK_F32 || t->ndim != 3 || t->shape[0] != d0 || t->shape[1] != d1 ||
      t->shape[2] != d2)
    return mck_fail(c, "%s: %s must be a float32 [%lld, %lld, %lld] tensor (got rank %d)", op,
                    what, (long long)d0, (long long)d1, (long long)d2, t ? t->ndim : 0);
  return 0;
}

/* A constant bool/int argument that decides shapes. */
static inline int krnn_const(mck_ctx *c, const char *op, const mck_arg *a, const char *what,
                             int64_t *v) {
  if (a->kind == MCK_INT || a->kind == MCK_BOOL_ARG) {
    *v = a->u.i;
    return 0;
  }
  return mck_fail(c, "%s: %s must be a constant", op, what);
}

/* Copies the [B, W] rows of state tensor t (slice `row` of dim 0) into dst (contiguous). */
static inline void krnn_load_state(const mck_tensor *t, int64_t row, int64_t B, int64_t W,
                                   float *dst) {
  const float *p = (const float *)t->data + t->offset + row * t->stride[0];
  for (int64_t b = 0; b < B; b++)
    for (int64_t j = 0; j < W; j++) dst[b * W + j] = p[b * t->stride[1] + j * t->stride[2]];
}

/* aten::lstm / gru / rnn_tanh / rnn_relu (input overload). in: input, hx (LSTM: [h0, c0]),
 * params, has_biases, num_layers, dropout, train, bidirectional, batch_first. */
static inline int krnn_layers(mck_ctx *c, int mode, mck_arg *out, int nout, const mck_arg *in,
                              int nin) {
  const char *op = krnn_name(mode);
  int lstm = mode == KRNN_LSTM, G = krnn_ngates(mode);
  if (nin < 9) return mck_fail(c, "%s: expects 9 inputs", op);
  if ((lstm && in[1].kind == MCK_TENSOR) || (!lstm && in[2].kind == MCK_TENSOR))
    return mck_fail(c, "%s: packed sequences (the data, batch_sizes overload) are not supported; pass a padded tensor", op);
  if (in[0].kind != MCK_TENSOR || in[2].kind != MCK_TENSORS ||
      (lstm ? in[1].kind != MCK_TENSORS : in[1].kind != MCK_TENSOR))
    return mck_fail(c, "%s: expects input, %s and a list of parameters", op, lstm ? "a list [h0, c0]" : "hx");
  if (nout != (lstm ? 3 : 2)) return mck_fail(c, "%s: expects %d results", op, lstm ? 3 : 2);
  int64_t has_b = 0, L = 0, train = 0, bidir = 0, bf = 0;
  if (krnn_const(c, op, &in[3], "has_biases", &has_b) || krnn_const(c, op, &in[4], "num_layers", &L) ||
      krnn_const(c, op, &in[6], "train", &train) || krnn_const(c, op, &in[7], "bidirectional", &bidir) ||
      krnn_const(c, op, &in[8], "batch_first", &bf))
    return -1;
  double dropout = in[5].kind == MCK_FLOAT || in[5].kind == MCK_INT ? mck_arg_f(&in[5]) : 0.0;
  if (in[5].kind == MCK_UNKNOWN && train) return mck_fail(c, "%s: dropout must be a constant", op);
  if (train && dropout > 0 && L > 1)
    return mck_fail(c, "%s: dropout between layers in training mode is not supported (export the model in eval mode)", op);
  if (L < 1 || L > 1024) return mck_fail(c, "%s: num_layers %lld is out of range", op, (long long)L);
  const mck_tensor *x = in[0].u.t;
  const mck_tensor *h0 = NULL, *c0 = NULL;
  if (lstm) {
    if (in[1].n != 2 || !in[1].u.ts[0] || !in[1].u.ts[1])
      return mck_fail(c, "%s: lstm expects two hidden states", op);
    h0 = in[1].u.ts[0];
    c0 = in[1].u.ts[1];
  } else {
    h0 = in[1].u.t;
  }
  if (x->dtype != MCK_F32) return mck_fail(c, "%s: input of dtype %s is not supported (float32 is)", op, mck_dtype_name(x->dtype));
  if (x->ndim != 3) return mck_fail(c, "%s: input must have 3 dimensions, got %d", op, x->ndim);
  if (h0->ndim != 3 || (c0 && c0->ndim != 3)) return mck_fail(c, "%s: hidden states must have 3 dimensions", op);
  int D = bidir ? 2 : 1;
  int proj = lstm && h0->shape[2] != c0->shape[2];
  int64_t per = 2 + 2 * (has_b != 0) + proj;
  int64_t T = bf ? x->shape[1] : x->shape[0], B = bf ? x->shape[0] : x->shape[1], I = x->shape[2];
  int64_t np = in[2].n;
  if (np != L * D * per)
    return mck_fail(c, "%s: expected %lld parameter tensors for %lld layers, got %lld", op,
                    (long long)(L * D * per), (long long)L, (long long)np);
  mck_tensor *const *pp = in[2].u.ts;
  for (int64_t k = 0; k < np; k++)
    if (!pp[k]) return mck_fail(c, "%s: a parameter is None", op);
  if (pp[0]->ndim != 2 || pp[0]->shape[0] % G)
    return mck_fail(c, "%s: weight_ih_l0 must be [%d * hidden_size, input_size]", op, G);
  int64_t H = pp[0]->shape[0] / G, P = proj ? h0->shape[2] : H;
  if (H > MCK_MAX_GEOM || P > MCK_MAX_GEOM || I > MCK_MAX_GEOM)
    return mck_fail(c, "%s: sizes beyond 2^31 are not supported", op);
  if (T == 0) return mck_fail(c, "%s: Expected sequence length to be larger than 0 in RNN", op);
  if (krnn_check3(c, op, "h0", h0, L * D, B, P) || (c0 && krnn_check3(c, op, "c0", c0, L * D, B, H)))
    return -1;
  for (int64_t l = 0; l < L; l++)
    for (int d = 0; d < D; d++) {
      mck_tensor *const *q = pp + (l * D + d) * per;
      int64_t il = l == 0 ? I : D * P;
      if (krnn_check2(c, op, "weight_ih", q[0], G * H, il) || krnn_check2(c, op, "weight_hh", q[1], G * H, P))
        return -1;
      if (has_b && (krnn_check1(c, op, "bias_ih", q[2], G * H) || krnn_check1(c, op, "bias_hh", q[3], G * H)))
        return -1;
      if (proj && krnn_check2(c, op, "weight_hr", q[has_b ? 4 : 2], P, H)) return -1;
    }
  int64_t wmax = I > D * P ? I : D * P, sz[6], tb;
  if (mck_mul_ovf(T, B, &tb) || mck_mul_ovf(tb, wmax, &sz[0]) || mck_mul_ovf(tb, G * H, &sz[2]) ||
      mck_mul_ovf(B, G * H, &sz[3]) || mck_mul_ovf(B, P, &sz[4]) || mck_mul_ovf(2 * B, H, &sz[5]))
    return mck_fail(c, "%s: the sizes do not fit", op);
  sz[1] = sz[0];
  int64_t osh[3] = {bf ? B : T, bf ? T : B, D * P}, hsh[3] = {L * D, B, P}, csh[3] = {L * D, B, H};
  for (int k = 0; k < nout; k++) out[k].kind = MCK_TENSOR;
  if (mck_out(c, out[0].u.t, MCK_F32, 3, osh) || mck_out(c, out[1].u.t, MCK_F32, 3, hsh) ||
      (lstm && mck_out(c, out[2].u.t, MCK_F32, 3, csh)))
    return -1;
  if (c->meta) return 0;
  /* scratch: two layer buffers [T, B, max(I, D P)], the input projections [T, B, G H], the
   * hidden gates [B, G H], the state h [B, P], c [B, H], h before projection [B, H] */
  float *buf[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
  int oom = 0;
  for (int k = 0; k < 6; k++) {
    int64_t n = sz[k] > 0 ? sz[k] : 1;
    buf[k] = (uint64_t)n <= (uint64_t)SIZE_MAX / sizeof(float) ? (float *)malloc(sizeof(float) * (size_t)n) : NULL;
    oom |= !buf[k];
  }
  if (oom) {
    for (int k = 0; k < 6; k++) free(buf[k]);
    return mck_fail(c, "%s: out of memory", op);
  }
  float *cur = buf[0], *nxt = buf[1], *xw = buf[2], *gh = buf[3], *h = buf[4], *cs = buf[5], *hf = buf[5] + B * H;
  /* layer 0's input, [T, B, I] contiguous */
  {
    const float *xp = (const float *)x->data + x->offset;
    int64_t st = bf ? x->stride[1] : x->stride[0], sb = bf ? x->stride[0] : x->stride[1];
    for (int64_t t = 0; t < T; t++)
      for (int64_t b = 0; b < B; b++)
        for (int64_t k = 0; k < I; k++) cur[(t * B + b) * I + k] = xp[t * st + b * sb + k * x->stride[2]];
  }
  mck_tensor *ho = out[1].u.t, *co = lstm ? out[2].u.t : NULL;
  float *hop = (float *)ho->data + ho->offset, *cop = co ? (float *)co->data + co->offset : NULL;
  int rc = 0;
  for (int64_t l = 0; l < L && !rc; l++) {
    int64_t il = l == 0 ? I : D * P, ow = D * P;
    for (int d = 0; d < D && !rc; d++) {
      mck_tensor *const *q = pp + (l * D + d) * per;
      const mck_tensor *bih = has_b ? q[2] : NULL, *bhh = has_b ? q[3] : NULL, *whr = proj ? q[has_b ? 4 : 2] : NULL;
      if (krnn_linear(c->nthreads, T * B, G * H, il, cur, il, q[0], bih, xw)) { rc = -1; break; }
      krnn_load_state(h0, l * D + d, B, P, h);
      if (lstm) krnn_load_state(c0, l * D + d, B, H, cs);
      for (int64_t s = 0; s < T; s++) {
        int64_t t = d ? T - 1 - s : s;
        if (krnn_linear(c->nthreads, B, G * H, P, h, P, q[1], bhh, gh)) { rc = -1; break; }
        float *hn = proj ? hf : h;
        krnn_gates(mode, B, H, gh, G * H, xw + t * B * G * H, G * H, h, P, cs, H, hn, cs);
        if (proj && krnn_linear(c->nthreads, B, P, H, hf, H, whr, NULL, h)) { rc = -1; break; }
        for (int64_t b = 0; b < B; b++)
          for (int64_t j = 0; j < P; j++) nxt[(t * B + b) * ow + d * P + j] = h[b * P + j];
      }
      int64_t row = l * D + d;
      for (int64_t k = 0; k < B * P; k++) hop[row * B * P + k] = h[k];
      if (lstm)
        for (int64_t k = 0; k < B * H; k++) cop[row * B * H + k] = cs[k];
    }
    float *tmp = cur;
    cur = nxt;
    nxt = tmp;
  }
  if (!rc) {
    mck_tensor *o = out[0].u.t;
    float *op_ = (float *)o->data + o->offset;
    int64_t ow = D * P;
    for (int64_t t = 0; t < T; t++)
      for (int64_t b = 0; b < B; b++) {
        float *dst = op_ + (bf ? (b * T + t) : (t * B + b)) * ow;
        const float *src = cur + (t * B + b) * ow;
        for (int64_t j = 0; j < ow; j++) dst[j] = src[j];
      }
  }
  for (int k = 0; k < 6; k++) free(buf[k]);
  return rc ? mck_fail(c, "%s: out of memory", op) : 0;
}

static inline int krnn_lstm(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return krnn_layers(c, KRNN_LSTM, out, nout, in, nin);
}
static inline int krnn_gru(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return krnn_layers(c, KRNN_GRU, out, nout, in, nin);
}
static inline int krnn_rnn_tanh(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return krnn_layers(c, KRNN_TANH, out, nout, in, nin);
}
static inline int krnn_rnn_relu(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return krnn_layers(c, KRNN_RELU, out, nout, in, nin);
}

/* The cells: input [B, I], hx ([h, c] for LSTM, else h) [B, H], w_ih [G H, I], w_hh [G H, H],
 * b_ih?, b_hh?; gates = (h W_hh^T + b_hh) + (x W_ih^T + b_ih) as in the layers. */
static inline int krnn_cell(mck_ctx *c, int mode, const char *op, mck_arg *out, int nout,
                            const mck_arg *in, int nin) {
  int lstm = mode == KRNN_LSTM, G = krnn_ngates(mode);
  if (nin < 4 || in[0].kind != MCK_TENSOR || in[2].kind != MCK_TENSOR || in[3].kind != MCK_TENSOR ||
      (lstm ? in[1].kind != MCK_TENSORS : in[1].kind != MCK_TENSOR))
    return mck_fail(c, "%s: expects input, %s, w_ih and w_hh", op, lstm ? "[hx, cx]" : "hx");
  if (nout != (lstm ? 2 : 1)) return mck_fail(c, "%s: expects %d results", op, lstm ? 2 : 1);
  const mck_tensor *x = in[0].u.t, *wi = in[2].u.t, *wh = in[3].u.t, *h, *cx = NULL;
  const mck_tensor *bi = nin > 4 && in[4].kind == MCK_TENSOR ? in[4].u.t : NULL;
  const mck_tensor *bh = nin > 5 && in[5].kind == MCK_TENSOR ? in[5].u.t : NULL;
  if (lstm) {
    if (in[1].n != 2 || !in[1].u.ts[0] || !in[1].u.ts[1])
      return mck_fail(c, "%s: lstm_cell expects two hidden states", op);
    h = in[1].u.ts[0];
    cx = in[1].u.ts[1];
  } else {
    h = in[1].u.t;
  }
  if (x->dtype != MCK_F32) return mck_fail(c, "%s: input of dtype %s is not supported (float32 is)", op, mck_dtype_name(x->dtype));
  if (x->ndim != 2) return mck_fail(c, "%s: input must be 2-D [batch, input_size], got %d-D", op, x->ndim);
  if (wh->ndim != 2 || wh->shape[0] % G) return mck_fail(c, "%s: w_hh must be [%d * hidden_size, hidden_size]", op, G);
  int64_t B = x->shape[0], I = x->shape[1], H = wh->shape[1], n1, n2;
  if (H > MCK_MAX_GEOM || I > MCK_MAX_GEOM || mck_mul_ovf(B, G * H, &n1) || mck_mul_ovf(B, H, &n2) ||
      n1 > (INT64_MAX - 1) / 4 - n2)
    return mck_fail(c, "%s: the sizes do not fit", op);
  if (krnn_check2(c, op, "w_ih", wi, G * H, I) || krnn_check2(c, op, "w_hh", wh, G * H, H) ||
      krnn_check2(c, op, "hx", h, B, H) || (cx && krnn_check2(c, op, "cx", cx, B, H)) ||
      (bi && krnn_check1(c, op, "b_ih", bi, G * H)) || (bh && krnn_check1(c, op, "b_hh", bh, G * H)))
    return -1;
  int64_t sh[2] = {B, H};
  for (int k = 0; k < nout; k++) {
    out[k].kind = MCK_TENSOR;
    if (mck_out(c, out[k].u.t, MCK_F32, 2, sh)) return -1;
  }
  if (c->meta) return 0;
  float *gi = (uint64_t)(2 * n1 + 2 * n2 + 1) <= (uint64_t)SIZE_MAX / sizeof(float)
                  ? (float *)malloc(sizeof(float) * (size_t)(2 * n1 + 2 * n2 + 1))
                  : NULL;
  if (!gi) return mck_fail(c, "%s: out of memory", op);
  float *gh = gi + n1, *hp = gh + n1, *cp = hp + n2;
  int64_t xs0 = x->stride[0], xs1 = x->stride[1];
  float *xc = NULL;
  const float *xp = (const float *)x->data + x->offset;
  if (I > 1 && xs1 != 1) { /* rows of x contiguous for the GEMM */
    xc = (float *)malloc(sizeof(float) * (size_t)(B * I + 1));
    if (!xc) {
      free(gi);
      return mck_fail(c, "%s: out of memory", op);
    }
    for (int64_t b = 0; b < B; b++)
      for (int64_t k = 0; k < I; k++) xc[b * I + k] = xp[b * xs0 + k * xs1];
    xp = xc;
    xs0 = I;
  }
  mck_tensor h3 = *h, c3;
  h3.ndim = 3;
  h3.shape[0] = 1, h3.shape[1] = B, h3.shape[2] = H;
  h3.stride[0] = 0, h3.stride[1] = h->stride[0], h3.stride[2] = h->stride[1];
  krnn_load_state(&h3, 0, B, H, hp);
  if (cx) {
    c3 = *cx;
    c3.ndim = 3;
    c3.shape[0] = 1, c3.shape[1] = B, c3.shape[2] = H;
    c3.stride[0] = 0, c3.stride[1] = cx->stride[0], c3.stride[2] = cx->stride[1];
    krnn_load_state(&c3, 0, B, H, cp);
  }
  int rc = krnn_linear(c->nthreads, B, G * H, I, xp, xs0, wi, bi, gi) ||
           krnn_linear(c->nthreads, B, G * H, H, hp, H, wh, bh, gh);
  if (!rc) {
    mck_tensor *ho = out[0].u.t;
    float *hn = (float *)ho->data + ho->offset;
    float *cn = lstm ? (float *)out[1].u.t->data + out[1].u.t->offset : NULL;
    krnn_gates(mode, B, H, gh, G * H, gi, G * H, hp, H, cp, H, hn, cn);
  }
  free(xc);
  free(gi);
  return rc ? mck_fail(c, "%s: out of memory", op) : 0;
}

static inline int krnn_lstm_cell(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return krnn_cell(c, KRNN_LSTM, "aten::lstm_cell", out, nout, in, nin);
}
static inline int krnn_gru_cell(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return krnn_cell(c, KRNN_GRU, "aten::gru_cell", out, nout, in, nin);
}
static inline int krnn_rnn_tanh_cell(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return krnn_cell(c, KRNN_TANH, "aten::rnn_tanh_cell", out, nout, in, nin);
}
static inline int krnn_rnn_relu_cell(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return krnn_cell(c, KRNN_RELU, "aten::rnn_relu_cell", out, nout, in, nin);
}

#endif
