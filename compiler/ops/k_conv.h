/* k_conv.h — the convolution kernels: aten::_convolution, conv{1,2,3}d, conv_transpose{1,2,3}d,
 * mc::conv_act.
 *
 * Every kernel follows mck.h's contract: inputs follow the TorchScript schema positionally
 * (trailing defaulted inputs may be missing), outputs are fresh contiguous tensors prepared by
 * the caller, ctx->meta computes only dtype and shape. Inputs may be arbitrarily strided.
 *
 * Numerics: float32 runs fast paths (convolution = a cache-blocked, register-tiled SGEMM that
 * reads its input through an implicit im2col (kconv_gather) and, when the emitter prepacked it,
 * its weight in the GEMM's own panel layout; or a direct loop for depthwise, k_dw.h); every
 * other float dtype runs the generic path, which computes in double and rounds once on store.
 * Integer inputs are rejected where PyTorch rejects them.
 *
 * Fused activations (mc::conv_act, mc::linear_act, mc::add_act; made by passes/fuse.c): the
 * activation is applied in the GEMM's store epilogue, to each register tile right after its
 * last K block is stored (bias first: acc + b, then act), or per output row of the direct
 * depthwise loop, with the float32 functions of k_act.h (the ones the unfused float32 kernels
 * use, so fusing does not change a bit). Every float32 GEMM convolution adds its bias in the
 * epilogue (acc + b, as PyTorch does) rather than accumulating onto a bias-filled output.
 *
 * The family is split over k_args.h (argument helpers), k_thread.h (scratch and the thread
 * pool), k_act.h (activations), k_gemm.h (the GEMM), k_dw.h (direct depthwise), this file
 * (convolution), k_norm.h (normalisation) and k_pool.h (pooling, resampling, padding,
 * shuffles); none of them includes this one.
 *
 * Prefix: kconv_ for helpers, mckc_ for the kernels named in ops_conv.c.
 */
#ifndef MC_K_CONV_H
#define MC_K_CONV_H

#ifndef MCK_H
#include "mck.h"
#endif
#include "k_gemm.h"
#include "k_dw.h" /* kconv_direct_f32: the direct loop the dispatch below picks */

/* ---- convolution -------------------------------------------------------------------------- */

/* Fills g from the tensors and the already-parsed per-dim lists (nsp entries each; pad_str:
 * NULL, "same" or "valid"). */
static inline int kconv_geom_init(mck_ctx *c, const char *op, kconv_geom *g, const mck_tensor *x,
                                  const mck_tensor *w, const mck_tensor *b, int transposed,
                                  const int64_t *stride, const int64_t *pad, const char *pad_str,
                                  const int64_t *dil, const int64_t *opad, int64_t groups) {
  int nsp = w->ndim - 2;
  if (nsp < 1 || nsp > 3) return mck_fail(c, "%s: weight must have 3 to 5 dims, got %d", op, w->ndim);
  if (x->ndim != nsp + 2 && x->ndim != nsp + 1) {
    return mck_fail(c, "%s: expected %dD or %dD input for %dD weight, got %dD", op, nsp + 1,
                    nsp + 2, w->ndim, x->ndim);
  }
  if (groups < 1) return mck_fail(c, "%s: groups must be positive, got %lld", op, (long long)groups);
  g->nsp = nsp;
  g->transposed = transposed;
  g->batched = x->ndim == nsp + 2;
  g->N = g->batched ? x->shape[0] : 1;
  g->Cin = x->shape[g->batched ? 1 : 0];
  g->G = groups;
  if (!transposed) {
    g->Cout = w->shape[0];
    if (w->shape[1] * groups != g->Cin || g->Cout % groups) {
      return mck_fail(c, "%s: input has %lld channels, weight %lldx%lld with groups=%lld", op,
                      (long long)g->Cin, (long long)w->shape[0], (long long)w->shape[1],
                      (long long)groups);
    }
  } else {
    if (w->shape[0] != g->Cin || g->Cin % groups) {
      return mck_fail(c, "%s: input has %lld channels, transposed weight has %lld (groups=%lld)",
                      op, (long long)g->Cin, (long long)w->shape[0], (long long)groups);
    }
    g->Cout = w->shape[1] * groups;
  }
  if (b && (b->ndim != 1 || b->shape[0] != g->Cout)) {
    return mck_fail(c, "%s: bias must have shape [%lld]", op, (long long)g->Cout);
  }
  for (int i = 0; i < 3; i++) {
    int j = i - (3 - nsp);
    int real = j >= 0;
    g->in[i] = real ? x->shape[x->ndim - nsp + j] : 1;
    g->k[i] = real ? w->shape[2 + j] : 1;
    g->s[i] = real ? stride[j] : 1;
    g->d[i] = real ? dil[j] : 1;
    g->opad[i] = real && opad ? opad[j] : 0;
    if (g->s[i] < 1 || g->d[i] < 1) return mck_fail(c, "%s: stride and dilation must be positive", op);
    if (g->s[i] >= MCK_MAX_GEOM || g->d[i] >= MCK_MAX_GEOM || g->in[i] >= MCK_MAX_GEOM ||
        g->k[i] >= MCK_MAX_GEOM || (real && !pad_str && pad[j] >= MCK_MAX_GEOM) ||
        g->opad[i] >= MCK_MAX_GEOM || g->opad[i] < 0)
      return mck_fail(c, "%s: stride, padding, dilation, output padding, kernel and input "
                      "extents must be below 2^31", op);
    if (!real) {
      g->plo[i] = g->phi[i] = 0;
    } else if (pad_str && !strcmp(pad_str, "same")) {
      int64_t tot = g->d[i] * (g->k[i] - 1);
      if (g->s[i] != 1) return mck_fail(c, "%s: padding='same' is not supported for strided convolutions", op);
      g->plo[i] = tot / 2;
      g->phi[i] = tot - tot / 2;
    } else if (pad_str && !strcmp(pad_str, "valid")) {
      g->plo[i] = g->phi[i] = 0;
    } else if (pad_str) {
      return mck_fail(c, "%s: invalid padding string '%s'", op, pad_str);
    } else {
      g->plo[i] = g->phi[i] = pad[j];
      if (pad[j] < 0) return mck_fail(c, "%s: negative padding is not supported", op);
    }
    if (transposed) {
      g->out[i] = (g->in[i] - 1) * g->s[i] - g->plo[i] - g->phi[i] + g->d[i] * (g->k[i] - 1) +
                  g->opad[i] + 1;
      if (real && (g->opad[i] >= g->s[i] && g->opad[i] >= g->d[i])) {
        return mck_fail(c, "%s: output padding must be smaller than either stride or dilation", op);
      }
    } else {
      g->out[i] = (g->in[i] + g->plo[i] + g->phi[i] - g->d[i] * (g->k[i] - 1) - 1) / g->s[i] + 1;
      if (g->in[i] + g->plo[i] + g->phi[i] < g->d[i] * (g->k[i] - 1) + 1) g->out[i] = 0;
    }
    if (real && g->out[i] < 1) {
      return mck_fail(c, "%s: input spatial size %lld with kernel %lld, padding %lld, dilation "
                      "%lld gives an empty output", op, (long long)g->in[i], (long long)g->k[i],
                      (long long)g->plo[i], (long long)g->d[i]);
    }
  }
  return 0;
}

/* col2im for transposed convolution: y[m][o] += col[(m, kd, kh, kw)][i] where
 * o = i*s - p + k*d (per dim). col rows are over the input positions. */
static inline void kconv_col2im(const kconv_geom *g, int64_t mg, const float *col, float *y) {
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in);
  for (int64_t m = 0; m < mg; m++) {
    float *ym = y + m * P;
    for (int64_t kd = 0; kd < g->k[0]; kd++)
      for (int64_t kh = 0; kh < g->k[1]; kh++)
        for (int64_t kw = 0; kw < g->k[2]; kw++) {
          const float *src = col;
          col += IP;
          /* input positions iw with 0 <= iw*s - p + kw*d < OW */
          int64_t wlo, whi;
          kconv_range(g->out[2], g->in[2], g->s[2], g->plo[2], kw * g->d[2], &wlo, &whi);
          for (int64_t id = 0; id < g->in[0]; id++) {
            int64_t od = id * g->s[0] - g->plo[0] + kd * g->d[0];
            for (int64_t ih = 0; ih < g->in[1]; ih++, src += g->in[2]) {
              int64_t oh = ih * g->s[1] - g->plo[1] + kh * g->d[1];
              if (od < 0 || od >= g->out[0] || oh < 0 || oh >= g->out[1]) continue;
              float *dst = ym + (od * g->out[1] + oh) * g->out[2] - g->plo[2] + kw * g->d[2];
              for (int64_t iw = wlo; iw < whi; iw++) dst[iw * g->s[2]] += src[iw];
            }
          }
        }
  }
}

/* Whether a convolution with one input channel per group (cg == 1) and mg output channels per
 * group runs the direct loop (k_dw.h) rather than the GEMM: depthwise convolutions, and small
 * channel multipliers like a first layer on a grey image, where an im2col of K = taps rows
 * costs more than the product. The compiler asks too (it packs weights only for the GEMM). */
static inline int kconv_conv_direct(int64_t cg, int64_t mg) { return cg == 1 && mg <= 8; }

/* Whether a convolution with P output positions and mg output channels per group computes
 * C^T = im2col^T W^T (positions as rows) instead of C = W im2col: with few positions (deep
 * layers) that fills the register tile with channels. A fixed rule, not the target's tile: the
 * compiler packs constant weights for it (kconv_conv_prepack). */
static inline int kconv_conv_ct(int64_t P, int64_t mg) { return P < mg && P < 128; }

/* Size in floats of a convolution weight (G groups of mg x K) prepacked for the GEMM, and the
 * packing itself: per group, canonical A panels of W (mg x K), or with ct canonical B panels of
 * W^T (K x mg). w is (Cout, Cin / G, k...) contiguous. */
static inline int64_t kconv_conv_prepack_size(int ct, int64_t G, int64_t mg, int64_t K) {
  return G * (ct ? kconv_prepack_b_size(K, mg) : kconv_prepack_a_size(mg, K));
}
static inline void kconv_conv_prepack(int ct, int64_t G, int64_t mg, int64_t K, const float *w,
                                      float *dst) {
  int64_t per = kconv_conv_prepack_size(ct, 1, mg, K);
  for (int64_t gi = 0; gi < G; gi++) {
    const float *wg = w + gi * mg * K;
    if (ct) kconv_prepack_b(K, mg, wg, 1, K, dst + gi * per);
    else kconv_prepack_a(mg, K, wg, K, 1, dst + gi * per);
  }
}

/* y = act(conv(x, w) + b) in float32: the bias and the activation (KCONV_ACT_*, hardtanh
 * bounds lo, hi) are applied per tile in the GEMM epilogue, or per output row of the direct
 * loop; transposed convolution applies the activation per image after col2im. The GEMM reads
 * the input through kconv_gather (no im2col buffer) and the weight from c->pack when the
 * emitter prepacked it for this very product. */
static inline int kconv_conv_f32(mck_ctx *c, const char *op, const kconv_geom *g,
                                 const mck_tensor *xt, const mck_tensor *wt, const mck_tensor *bt,
                                 mck_tensor *yt, int act, double lo, double hi) {
  float *xo = NULL, *wo = NULL, *bo = NULL, *col = NULL;
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in), K = kconv_prod3(g->k);
  int64_t cg = g->Cin / g->G, mg = g->Cout / g->G, Kc = cg * K;
  int direct = !g->transposed && kconv_conv_direct(cg, mg);
  int ct = !g->transposed && !direct && kconv_conv_ct(P, mg);
  const float *pk = NULL;
  if (c->pack && !direct && !g->transposed && c->pack_kind == (ct ? 2 : 1) && c->pack_m == mg &&
      c->pack_k == Kc && c->pack_g == g->G)
    pk = c->pack;
  c->pack = NULL;
  if (!pk && !wt->data) return mck_fail(c, "%s: internal: the prepacked weight does not fit this convolution", op);
  const float *x = kconv_as_f32(xt, &xo), *w = pk ? NULL : kconv_as_f32(wt, &wo), *b = NULL;
  float *y = (float *)yt->data + yt->offset;
  kconv_gemm_ws ws = {NULL, NULL, 1};
  int rc = 0;
  if (bt) b = kconv_as_f32(bt, &bo);
  int one = !g->transposed && K == 1 && g->s[0] * g->s[1] * g->s[2] == 1 &&
            g->plo[0] + g->plo[1] + g->plo[2] + g->phi[0] + g->phi[1] + g->phi[2] == 0;
  if (!x || (!pk && !w) || (bt && !b)) goto oom;
  if (!direct) {
    int64_t mn = kconv_max(mg, P);
    if (g->transposed ? kconv_gemm_ws_init_for(&ws, mg * K, IP, cg)
                      : kconv_gemm_ws_init_for(&ws, mn, mn, Kc))
      goto oom;
    ws.nthreads = c->nthreads;
    if (g->transposed) {
      col = kconv_scratch(2, mg * K * IP);
      if (!col) goto oom;
    }
  }
  for (int64_t n = 0; n < g->N; n++) {
    const float *xn = x + n * g->Cin * IP;
    float *yn = y + n * g->Cout * P;
    if (direct) {
      kconv_direct_f32(g, xn, w, b, yn, act, lo, hi, c->nthreads);
      continue;
    }
    if (g->transposed) {
      for (int64_t oc = 0; oc < g->Cout; oc++) {
        float bv = b ? b[oc] : 0.0f;
        for (int64_t i = 0; i < P; i++) yn[oc * P + i] = bv;
      }
    }
    for (int64_t gi = 0; gi < g->G; gi++) {
      const float *xg = xn + gi * cg * IP;
      float *yg = yn + gi * mg * P;
      if (g->transposed) {
        /* col[(m,k)][i] = sum_c W[c][(m,k)] x[c][i];  W is (Cin, mg*K) per group */
        int64_t rows = mg * K;
        for (int64_t i = 0; i < rows * IP; i++) col[i] = 0.0f;
        kconv_sgemm(&ws, rows, IP, cg, w + gi * cg * rows, 1, rows, xg, IP, 1, col, IP, 1);
        kconv_col2im(g, mg, col, yg);
        continue;
      }
      /* X: the im2col matrix (Kc x P) of this group, or x itself for a 1x1 convolution */
      kconv_opnd xm = {NULL, 0, 0, NULL, 0, g, xg}, wm = {NULL, 0, 0, NULL, 0, NULL, NULL};
      if (one) {
        xm.g = NULL;
        xm.p = xg;
        xm.rs = ct ? 1 : P;
        xm.cs = ct ? P : 1;
      }
      if (pk) {
        wm.pk = pk + gi * kconv_conv_prepack_size(ct, 1, mg, Kc);
        wm.pk_k = Kc;
      } else {
        wm.p = w + gi * mg * Kc;
        wm.rs = ct ? 1 : Kc;
        wm.cs = ct ? Kc : 1;
      }
      kconv_epi e = {b ? b + gi * mg : NULL, !ct, act, lo, hi};
      if (ct) kconv_gemm_op(&ws, P, mg, Kc, &xm, &wm, yg, 1, P, 1.0f, 1, &e);
      else kconv_gemm_op(&ws, mg, P, Kc, &wm, &xm, yg, P, 1, 1.0f, 1, &e);
    }
    if (g->transposed) kconv_act_run(act, lo, hi, yn, g->Cout * P, 1);
  }
  goto done;
oom:
  rc = mck_fail(c, "%s: out of memory", op);
done:
  kconv_gemm_ws_free(&ws);
  free(xo);
  free(wo);
  free(bo);
  return rc;
}

/* Reference convolution in double: direct loops, any float dtype. */
static inline int kconv_conv_generic(mck_ctx *c, const char *op, const kconv_geom *g,
                                     const mck_tensor *xt, const mck_tensor *wt,
                                     const mck_tensor *bt, mck_tensor *yt) {
  double *xo, *wo, *bo = NULL;
  const double *x = kconv_as_f64(xt, &xo), *w = kconv_as_f64(wt, &wo), *b = NULL;
  if (bt) b = kconv_as_f64(bt, &bo);
  int64_t P = kconv_prod3(g->out), IP = kconv_prod3(g->in), K = kconv_prod3(g->k);
  int64_t cg = g->Cin / g->G, mg = g->Cout / g->G, total = g->N * g->Cout * P;
  double *y = (double *)kconv_alloc(total, sizeof(double));
  if (!x || !w || (bt && !b) || !y) {
    free(xo); free(wo); free(bo); free(y);
    return mck_fail(c, "%s: out of memory", op);
  }
  for (int64_t i = 0; i < total; i++) y[i] = b ? b[(i / P) % g->Cout] : 0.0;
  for (int64_t n = 0; n < g->N; n++)
    for (int64_t ci = 0; ci < g->Cin; ci++) {
      int64_t gi = ci / cg, cl = ci % cg;
      const double *xc = x + (n * g->Cin + ci) * IP;
      for (int64_t m = 0; m < mg; m++) {
        int64_t oc = gi * mg + m;
        double *yc = y + (n * g->Cout + oc) * P;
        const double *wk = g->transposed ? w + (ci * mg + m) * K : w + (oc * cg + cl) * K;
        for (int64_t kd = 0; kd < g->k[0]; kd++)
          for (int64_t kh = 0; kh < g->k[1]; kh++)
            for (int64_t kw = 0; kw < g->k[2]; kw++) {
              double wv = wk[(kd * g->k[1] + kh) * g->k[2] + kw];
              int64_t off[3] = {kd * g->d[0], kh * g->d[1], kw * g->d[2]};
              if (!g->transposed) {
                for (int64_t od = 0; od < g->out[0]; od++)
                  for (int64_t oh = 0; oh < g->out[1]; oh++)
                    for (int64_t ow = 0; ow < g->out[2]; ow++) {
                      int64_t id = od * g->s[0] - g->plo[0] + off[0];
                      int64_t ih = oh * g->s[1] - g->plo[1] + off[1];
                      int64_t iw = ow * g->s[2] - g->plo[2] + off[2];
                      if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1] || iw < 0 ||
                          iw >= g->in[2])
                        continue;
                      yc[(od * g->out[1] + oh) * g->out[2] + ow] +=
                          wv * xc[(id * g->in[1] + ih) * g->in[2] + iw];
                    }
              } else {
                for (int64_t id = 0; id < g->in[0]; id++)
                  for (int64_t ih = 0; ih < g->in[1]; ih++)
                    for (int64_t iw = 0; iw < g->in[2]; iw++) {
                      int64_t od = id * g->s[0] - g->plo[0] + off[0];
                      int64_t oh = ih * g->s[1] - g->plo[1] + off[1];
                      int64_t ow = iw * g->s[2] - g->plo[2] + off[2];
                      if (od < 0 || od >= g->out[0] || oh < 0 || oh >= g->out[1] || ow < 0 ||
                          ow >= g->out[2])
                        continue;
                      yc[(od * g->out[1] + oh) * g->out[2] + ow] +=
                          wv * xc[(id * g->in[1] + ih) * g->in[2] + iw];
                    }
              }
            }
      }
    }
  kconv_store(yt, y, total);
  free(xo); free(wo); free(bo); free(y);
  return 0;
}

/* Shared driver: parsed arguments -> output shape (meta) or values. */
static inline int kconv_conv_run(mck_ctx *c, const char *op, mck_arg *out, int nout,
                                 const mck_arg *xa, const mck_arg *wa, const mck_arg *ba,
                                 int transposed, const mck_arg *sa, const mck_arg *pa,
                                 const mck_arg *da, const mck_arg *opa, const mck_arg *ga,
                                 int act, double lo, double hi) {
  static const int64_t ones[3] = {1, 1, 1}, zeros[3] = {0, 0, 0};
  const mck_tensor *x = kconv_tensor(xa), *w = kconv_tensor(wa), *b = kconv_tensor(ba);
  int64_t stride[3] = {1, 1, 1}, pad[3] = {0, 0, 0}, dil[3] = {1, 1, 1}, opad[3] = {0, 0, 0},
          groups = 1;
  const char *pad_str = NULL;
  kconv_geom g;
  memset(&g, 0, sizeof g);
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || !w) return mck_fail(c, "%s: input and weight must be tensors", op);
  if (ba->kind != MCK_NONE && !b) return mck_fail(c, "%s: bias must be a tensor or None", op);
  int nsp = w->ndim - 2;
  if (nsp < 1 || nsp > 3) return mck_fail(c, "%s: weight must have 3 to 5 dims, got %d", op, w->ndim);
  if (kconv_ints(c, sa, nsp, ones, stride, op, "stride")) return -1;
  if (pa->kind == MCK_STR) {
    pad_str = pa->u.s;
  } else if (kconv_ints(c, pa, nsp, zeros, pad, op, "padding")) {
    return -1;
  }
  if (kconv_ints(c, da, nsp, ones, dil, op, "dilation")) return -1;
  if (kconv_ints(c, opa, nsp, zeros, opad, op, "output_padding")) return -1;
  if (kconv_int(c, ga, 1, &groups, op, "groups")) return -1;
  if (!kconv_is_floatish(x->dtype) || x->dtype != w->dtype || (b && b->dtype != x->dtype)) {
    return mck_fail(c, "%s: input %s, weight %s%s%s: expected the same floating dtype", op,
                    mck_dtype_name(x->dtype), mck_dtype_name(w->dtype), b ? ", bias " : "",
                    b ? mck_dtype_name(b->dtype) : "");
  }
  if (kconv_geom_init(c, op, &g, x, w, b, transposed, stride, pad, pad_str, dil, opad, groups)) {
    return -1;
  }
  int64_t shape[5];
  int r = 0;
  if (g.batched) shape[r++] = g.N;
  shape[r++] = g.Cout;
  for (int i = 3 - nsp; i < 3; i++) shape[r++] = g.out[i];
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, x->dtype, r, shape)) return -1;
  if (c->meta || mck_numel(y) == 0) return 0;
  if (x->dtype == MCK_F32) return kconv_conv_f32(c, op, &g, x, w, b, y, act, lo, hi);
#ifdef MCK_CONV_F32_ONLY /* emit_c.c: every convolution of this model is float32 */
  return mck_fail(c, "%s: internal: a %s convolution in a model of float32 ones", op, mck_dtype_name(x->dtype));
#endif
  if (kconv_conv_generic(c, op, &g, x, w, b, y)) return -1;
  if (act != KCONV_ACT_NONE) {
    int64_t n = mck_numel(y);
    for (int64_t i = 0; i < n; i++)
      mck_setf(y, y->offset + i, kconv_act_f(act, mck_getf(y, y->offset + i), lo, hi));
  }
  return 0;
}

/* aten::_convolution(input, weight, bias?, stride, padding, dilation, transposed,
 *                    output_padding, groups, benchmark, deterministic, cudnn_enabled[, allow_tf32]) */
static inline int mckc_convolution(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  int tr = 0;
  if (kconv_bool(c, kconv_arg(in, nin, 6), 0, 1, &tr, "aten::_convolution", "transposed")) return -1;
  return kconv_conv_run(c, "aten::_convolution", out, nout, kconv_arg(in, nin, 0),
                        kconv_arg(in, nin, 1), kconv_arg(in, nin, 2), tr, kconv_arg(in, nin, 3),
                        kconv_arg(in, nin, 4), kconv_arg(in, nin, 5), kconv_arg(in, nin, 7),
                        kconv_arg(in, nin, 8), KCONV_ACT_NONE, 0, 0);
}

/* aten::conv{1,2,3}d(input, weight, bias?, stride, padding (int[] or str), dilation, groups)
 * and aten::_convolution_mode (same arguments, str padding). */
static inline int mckc_conv(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  return kconv_conv_run(c, "aten::conv", out, nout, kconv_arg(in, nin, 0), kconv_arg(in, nin, 1),
                        kconv_arg(in, nin, 2), 0, kconv_arg(in, nin, 3), kconv_arg(in, nin, 4),
                        kconv_arg(in, nin, 5), &none, kconv_arg(in, nin, 6), KCONV_ACT_NONE, 0, 0);
}

/* mc::conv_act(input, weight, bias?, stride, padding (int[] or str), dilation, groups, act, a, b)
 * = act(conv(input, weight, bias)), made by the fuse pass; act names a KCONV_ACT_* ("relu",
 * "hardtanh" with bounds a, b, "sigmoid", "tanh", "silu", "hardswish", "gelu", "gelu_tanh",
 * "none"). */
static inline int mckc_conv_act(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  int act;
  double lo, hi;
  if (kconv_act_args(c, "mc::conv_act", kconv_arg(in, nin, 7), kconv_arg(in, nin, 8),
                     kconv_arg(in, nin, 9), &act, &lo, &hi))
    return -1;
  return kconv_conv_run(c, "mc::conv_act", out, nout, kconv_arg(in, nin, 0), kconv_arg(in, nin, 1),
                        kconv_arg(in, nin, 2), 0, kconv_arg(in, nin, 3), kconv_arg(in, nin, 4),
                        kconv_arg(in, nin, 5), &none, kconv_arg(in, nin, 6), act, lo, hi);
}

/* aten::conv_transpose{1,2,3}d(input, weight, bias?, stride, padding, output_padding, groups,
 *                              dilation) */
static inline int mckc_conv_transpose(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                      int nin) {
  return kconv_conv_run(c, "aten::conv_transpose", out, nout, kconv_arg(in, nin, 0),
                        kconv_arg(in, nin, 1), kconv_arg(in, nin, 2), 1, kconv_arg(in, nin, 3),
                        kconv_arg(in, nin, 4), kconv_arg(in, nin, 7), kconv_arg(in, nin, 5),
                        kconv_arg(in, nin, 6), KCONV_ACT_NONE, 0, 0);
}

#endif
