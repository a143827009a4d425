/* k_fracpool.h — fractional max pooling (aten::fractional_max_pool2d / 3d), conv family.
 * Prefix: mckc_.
 *
 * As PyTorch 1.13 on CPU: the pooling regions come from the random_samples tensor ([N, C, 2]
 * for 2-D: the sample for W, then for H; [N, C, 3] for 3-D: T, H, W), one per plane, through
 * PyTorch's interval rule start[i] = int((i + u) * alpha) - int(u * alpha), alpha = (in - k) /
 * (out - 1), the last start in - k, computed in the input's dtype; each output is the maximum of
 * its k-window (a NaN wins, the first maximum otherwise) and its flat index in the plane (int64).
 * A sample outside [0, 1) (PyTorch then reads outside the input) fails the op at run time.
 * The samples are an input: nn.FractionalMaxPool2d(..., _random_samples=...) gives them; without
 * it PyTorch draws them with aten::rand, whose values in mc are its own generator's (see
 * docs/architecture.md on random ops), so such a model pools over other regions than PyTorch's.
 */
#ifndef MCK_FRACPOOL_H
#define MCK_FRACPOOL_H

#include "mck.h"
#include "k_args.h"

/* The start of window i of n over an input of `in` with windows of k, for the sample u. */
static inline int64_t mckc_frac_start(int dt, double u, int64_t in, int64_t n, int64_t k, int64_t i) {
  if (i == n - 1) return in - k;
  if (dt == MCK_F32) {
    float a = (float)(in - k) / (float)(n - 1), uf = (float)u;
    return (int64_t)(((float)i + uf) * a) - (int64_t)(uf * a);
  }
  double a = (double)(in - k) / (double)(n - 1);
  return (int64_t)(((double)i + u) * a) - (int64_t)(u * a);
}

static inline int mckc_frac_pool(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nd,
                                 const char *op) {
  const mck_tensor *x = in[0].u.t, *rs = kconv_tensor(&in[3]);
  int64_t ks[3], os[3];
  if (kconv_ints(c, &in[1], nd, NULL, ks, op, "kernel_size") ||
      kconv_ints(c, &in[2], nd, NULL, os, op, "output_size"))
    return -1;
  if (nout < 2) return mck_fail(c, "%s: expects two outputs", op);
  if (x->ndim != nd + 1 && x->ndim != nd + 2)
    return mck_fail(c, "%s: Expected %dD or %dD tensor, but got: %d-D", op, nd + 1, nd + 2, x->ndim);
  if (x->dtype != MCK_F32 && x->dtype != MCK_F64)
    return mck_fail(c, "%s: \"%s\" not implemented for %s", op, op + 6, mck_dtype_name(x->dtype));
  int batched = x->ndim == nd + 2;
  int64_t nb = batched ? x->shape[0] : 1, ch = x->shape[batched];
  const int64_t *isz = x->shape + x->ndim - nd;
  for (int d = 0; d < nd; d++) {
    if (ks[d] <= 0 || os[d] < 0 || ks[d] > MCK_MAX_GEOM || os[d] > MCK_MAX_GEOM)
      return mck_fail(c, "%s: kernel_size and output_size must be positive", op);
    if (os[d] + ks[d] - 1 > isz[d])
      return mck_fail(c, "%s: pool size %lld too large relative to input size %lld (output size %lld)", op,
                      (long long)ks[d], (long long)isz[d], (long long)os[d]);
  }
  if (!rs || rs->ndim != 3 || rs->shape[0] < nb || rs->shape[1] < ch || rs->shape[2] != nd)
    return mck_fail(c, "%s: random_samples must be [N, C, %d] for an input of N batches and C channels", op, nd);
  if (rs->dtype != x->dtype)
    return mck_fail(c, "%s: expected random_samples of dtype %s, got %s", op, mck_dtype_name(x->dtype), mck_dtype_name(rs->dtype));
  int64_t sh[MCK_MAX_DIMS];
  for (int d = 0; d < x->ndim; d++) sh[d] = d < x->ndim - nd ? x->shape[d] : os[d - (x->ndim - nd)];
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, sh) || mck_out(c, out[1].u.t, MCK_I64, x->ndim, sh)) return -1;
  if (c->meta) return 0;
  mck_tensor *o = out[0].u.t, *ix = out[1].u.t;
  int64_t ost = 1;
  for (int d = 0; d < nd; d++) ost *= os[d];
  /* window starts per plane; dims ordered T, H, W (2-D: H, W), samples W, H (2-D) or T, H, W */
  int64_t *st[3] = {NULL, NULL, NULL};
  for (int d = 0; d < nd; d++) {
    st[d] = (int64_t *)kconv_alloc(os[d], sizeof(int64_t));
    if (!st[d]) {
      for (int e = 0; e < nd; e++) free(st[e]);
      return mck_fail(c, "%s: out of memory", op);
    }
  }
  /* every sample must lie in [0, 1) (what PyTorch draws), so every window lies inside the
   * input: checked for all planes before an output is written */
  for (int64_t b = 0; b < nb; b++)
    for (int64_t p = 0; p < ch; p++)
      for (int d = 0; d < nd; d++) {
        double u = mck_getf(rs, rs->offset + b * rs->stride[0] + p * rs->stride[1] + d * rs->stride[2]);
        int ok = u >= 0 && u < 1, dm = nd == 2 ? 1 - d : d; /* sample d places dim dm */
        for (int64_t i = 0; ok && i < os[dm]; i++) {
          int64_t s0 = mckc_frac_start(x->dtype, u, isz[dm], os[dm], ks[dm], i);
          ok = s0 >= 0 && s0 <= isz[dm] - ks[dm];
        }
        if (!ok) {
          for (int e = 0; e < nd; e++) free(st[e]);
          return mck_fail(c, "%s: random_samples[%lld][%lld][%d] = %g: samples must lie in [0, 1)", op,
                          (long long)b, (long long)p, d, u);
        }
      }
  const int64_t *xs = x->stride + x->ndim - nd;
  for (int64_t b = 0; b < nb; b++)
    for (int64_t p = 0; p < ch; p++) {
      int64_t ro = rs->offset + b * rs->stride[0] + p * rs->stride[1];
      for (int d = 0; d < nd; d++) {
        int si = nd == 2 ? 1 - d : d;
        double u = mck_getf(rs, ro + si * rs->stride[2]);
        for (int64_t i = 0; i < os[d]; i++) st[d][i] = mckc_frac_start(x->dtype, u, isz[d], os[d], ks[d], i);
      }
      int64_t xo = x->offset + (batched ? b * x->stride[0] : 0) + p * x->stride[batched];
      int64_t oo = (b * ch + p) * ost;
      int64_t n0 = nd == 3 ? os[0] : 1, n1 = os[nd - 2], n2 = os[nd - 1];
      for (int64_t t = 0; t < n0; t++)
        for (int64_t h = 0; h < n1; h++)
          for (int64_t w = 0; w < n2; w++) {
            int64_t t0 = nd == 3 ? st[0][t] : 0, h0 = st[nd - 2][h], w0 = st[nd - 1][w];
            int64_t kt = nd == 3 ? ks[0] : 1, ih = isz[nd - 2], iw = isz[nd - 1];
            double best = -INFINITY;
            int64_t arg = (t0 * ih + h0) * iw + w0;
            for (int64_t a = t0; a < t0 + kt; a++)
              for (int64_t q = h0; q < h0 + ks[nd - 2]; q++)
                for (int64_t r = w0; r < w0 + ks[nd - 1]; r++) {
                  int64_t off = xo + (nd == 3 ? a * xs[0] : 0) + q * xs[nd - 2] + r * xs[nd - 1];
                  double v = mck_getf(x, off);
                  if (v > best || v != v) best = v, arg = (a * ih + q) * iw + r;
                }
            int64_t k = oo + (t * n1 + h) * n2 + w;
            mck_setf(o, o->offset + k, best);
            mck_seti(ix, ix->offset + k, arg);
          }
    }
  for (int d = 0; d < nd; d++) free(st[d]);
  return 0;
}

/* fractional_max_pool2d(self, int[2] kernel_size, int[2] output_size, Tensor random_samples)
 * -> (Tensor, Tensor indices) */
static inline int mckc_fractional_max_pool2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return mckc_frac_pool(c, out, nout, in, 2, "aten::fractional_max_pool2d");
}
/* fractional_max_pool3d(self, int[3] kernel_size, int[3] output_size, Tensor random_samples) */
static inline int mckc_fractional_max_pool3d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nin;
  return mckc_frac_pool(c, out, nout, in, 3, "aten::fractional_max_pool3d");
}

#endif
