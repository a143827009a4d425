/* k_sample_grid.h — kernels of the sample family that read an input at computed positions:
 * grid sampling and affine grids, im2col / col2im, Tensor.unfold (a view), and torchvision's
 * roi_align, roi_pool, deform_conv2d and nms. Pasted into generated C after k_sample.h (uses
 * its volume and rounding helpers); numerics as described there.
 *
 * Prefix: ksm_ for helpers, mcks_ for the kernels named in ops_sample.c.
 */
#ifndef MC_K_SAMPLE_GRID_H
#define MC_K_SAMPLE_GRID_H

#include "mck.h"
#include "k_sample.h"

/* ---- grid sampling -------------------------------------------------------------------------- */
enum { KSM_GS_BILINEAR, KSM_GS_NEAREST, KSM_GS_BICUBIC };
enum { KSM_GS_ZEROS, KSM_GS_BORDER, KSM_GS_REFLECTION };

/* The 2-D kernel (ATen's vectorised GridSamplerKernel.cpp, float and double) per dim. */
typedef struct ksm_gs2 {
  int f32, align, pad;
  int64_t size;
  double maxv, sf, twice;
} ksm_gs2;

static inline void ksm_gs2_init(ksm_gs2 *g, int64_t size, int align, int pad, int f32) {
  g->f32 = f32;
  g->align = align;
  g->pad = pad;
  g->size = size;
  g->maxv = (double)(size - 1);
  g->sf = ksm_r((double)(align ? size - 1 : size) / 2.0, f32);
  g->twice = ksm_r((double)(align ? size - 1 : size) * 2.0, f32);
}
static inline double ksm_gs2_unnorm(const ksm_gs2 *g, double v) {
  double r = ksm_r(ksm_r(v + 1.0, g->f32) * g->sf, g->f32);
  return g->align ? r : ksm_r(r - 0.5, g->f32);
}
static inline double ksm_gs2_clip(const ksm_gs2 *g, double v) {
  v = v > 0.0 ? v : 0.0; /* NaN -> 0 */
  return v < g->maxv ? v : g->maxv;
}
static inline double ksm_gs2_reflect(const ksm_gs2 *g, double v) {
  int f = g->f32;
  double low = g->align ? 0.0 : -0.5;
  if (g->align && g->size <= 1) return 0.0;
  double a = fabs(ksm_r(v - low, f));
  double flips = trunc(ksm_r(a / g->twice, f));
  double extra = ksm_r(a - ksm_r(flips * g->twice, f), f);
  double other = ksm_r(g->twice - extra, f);
  double m = extra != extra || other != other ? NAN : extra < other ? extra : other;
  return ksm_r(m + low, f);
}
/* compute_coordinates: padding applied to an unnormalised (or tap) coordinate. */
static inline double ksm_gs2_coord(const ksm_gs2 *g, double v) {
  if (g->pad == KSM_GS_BORDER) return ksm_gs2_clip(g, v);
  if (g->pad == KSM_GS_REFLECTION) return ksm_gs2_clip(g, ksm_gs2_reflect(g, v));
  return v;
}
/* Whether integral coordinate v indexes inside the dim (NaN, huge: no). */
static inline int ksm_gs_in(double v, int64_t size) { return v > -1.0 && v < (double)size; }

/* The 3-D kernel (GridSampler.h's scalar grid_sampler_compute_source_index). */
static inline double ksm_gs3_source(double v, int64_t size, int pad, int align, int f) {
  if (align) v = ksm_r(ksm_r(ksm_r(v + 1.0, f) / 2.0, f) * (double)(size - 1), f);
  else v = ksm_r(ksm_r(ksm_r(ksm_r(v + 1.0, f) * (double)size, f) - 1.0, f) / 2.0, f);
  if (pad == KSM_GS_ZEROS) return v;
  if (pad == KSM_GS_REFLECTION) {
    int64_t tlo = align ? 0 : -1, thi = align ? 2 * (size - 1) : 2 * size - 1;
    if (tlo == thi) {
      v = 0.0;
    } else {
      double mn = ksm_r((double)tlo / 2.0, f), span = ksm_r((double)(thi - tlo) / 2.0, f);
      double a = fabs(ksm_r(v - mn, f));
      double extra = fmod(a, span), q = floor(ksm_r(a / span, f));
      /* flips beyond int (or NaN) are INT_MIN on the targets ATen runs on: even */
      int odd = q == q && fabs(q) < 2147483648.0 && ((int64_t)q % 2 != 0);
      v = odd ? ksm_r(ksm_r(span - extra, f) + mn, f) : ksm_r(extra + mn, f);
    }
  }
  /* clip_coordinates: std::min(size - 1, std::max(v, 0)); NaN gives size - 1 */
  v = v < 0.0 ? 0.0 : v;
  return v < (double)(size - 1) ? v : (double)(size - 1);
}

static inline double ksm_gs_cubic_c(double x, int f) {
  const double A = -0.75;
  return ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(ksm_r(A * x, f) - 5.0 * A, f) * x, f) + 8.0 * A, f) * x, f) - 4.0 * A, f);
}
static inline double ksm_gs_cubic_n(double x, int f) {
  const double A = -0.75;
  return ksm_r(ksm_r(ksm_r(ksm_r(ksm_r((A + 2.0) * x, f) - (A + 3.0), f) * x, f) * x, f) + 1.0, f);
}

static inline int ksm_grid_sampler(mck_ctx *c, const char *op, int want, mck_arg *out, int nout,
                                   const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0)), *g = kconv_tensor(kconv_arg(in, nin, 1));
  int64_t im = 0, pm = 0;
  int align = 0;
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (!x || !g) return mck_fail(c, "%s: input and grid must be tensors", op);
  int nsp = x->ndim - 2;
  if ((want && nsp != want) || (nsp != 2 && nsp != 3))
    return mck_fail(c, "%s: expected a %s input, got %dD", op, want == 2 ? "4D" : want == 3 ? "5D" : "4D or 5D", x->ndim);
  if (ksm_f32_f64(c, op, x->dtype)) return -1;
  if (g->dtype != x->dtype)
    return mck_fail(c, "%s: expected input and grid to have the same dtype, got %s and %s", op,
                    mck_dtype_name(x->dtype), mck_dtype_name(g->dtype));
  if (g->ndim != x->ndim || g->shape[g->ndim - 1] != nsp || g->shape[0] != x->shape[0])
    return mck_fail(c, "%s: grid must have shape (N, %s%d) for an input of %d dims with batch N", op,
                    nsp == 2 ? "H, W, " : "D, H, W, ", nsp, x->ndim);
  for (int i = 2; i < x->ndim; i++)
    if (x->shape[i] <= 0) return mck_fail(c, "%s: expected input to have non-empty spatial dimensions", op);
  if (kconv_int(c, kconv_arg(in, nin, 2), 0, &im, op, "interpolation_mode") ||
      kconv_int(c, kconv_arg(in, nin, 3), 0, &pm, op, "padding_mode") ||
      kconv_bool(c, kconv_arg(in, nin, 4), 0, 1, &align, op, "align_corners"))
    return -1;
  if (im < 0 || im > 2) return mck_fail(c, "%s: interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 (bicubic)", op);
  if (pm < 0 || pm > 2) return mck_fail(c, "%s: padding_mode must be 0 (zeros), 1 (border) or 2 (reflection)", op);
  if (im == KSM_GS_BICUBIC && nsp != 2)
    return mck_fail(c, "%s: bicubic interpolation only supports 4D input", op);
  int64_t shape[5] = {x->shape[0], x->shape[1], 0, 0, 0};
  for (int i = 0; i < nsp; i++) shape[2 + i] = g->shape[1 + i];
  for (int i = 2; i < x->ndim; i++)
    if (x->shape[i] >= MCK_MAX_GEOM) return mck_fail(c, "%s: spatial extents must be below 2^31", op);
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, x->dtype, x->ndim, shape)) return -1;
  if (c->meta || mck_numel(y) == 0) return 0;
  int f = x->dtype == MCK_F32;
  int64_t N = x->shape[0], C = x->shape[1], q = 0;
  if (nsp == 2) {
    int64_t H = x->shape[2], W = x->shape[3], OH = shape[2], OW = shape[3];
    ksm_gs2 gw, gh;
    ksm_gs2_init(&gw, W, align, (int)pm, f);
    ksm_gs2_init(&gh, H, align, (int)pm, f);
    for (int64_t n = 0; n < N; n++)
      for (int64_t ch = 0; ch < C; ch++) {
        int64_t xb = x->offset + n * x->stride[0] + ch * x->stride[1];
        for (int64_t oh = 0; oh < OH; oh++)
          for (int64_t ow = 0; ow < OW; ow++, q++) {
            int64_t go = g->offset + n * g->stride[0] + oh * g->stride[1] + ow * g->stride[2];
            double gx = mck_getf(g, go), gy = mck_getf(g, go + g->stride[3]), r;
#define KSM_AT(yy, xx) (ksm_gs_in((xx), W) && ksm_gs_in((yy), H) ? \
    mck_getf(x, xb + (int64_t)(yy) * x->stride[2] + (int64_t)(xx) * x->stride[3]) : 0.0)
            if (im == KSM_GS_BILINEAR) {
              double sx = ksm_gs2_coord(&gw, ksm_gs2_unnorm(&gw, gx));
              double sy = ksm_gs2_coord(&gh, ksm_gs2_unnorm(&gh, gy));
              double xw = floor(sx), yn = floor(sy);
              double w = ksm_r(sx - xw, f), e = ksm_r(1.0 - w, f), nn = ksm_r(sy - yn, f), s = ksm_r(1.0 - nn, f);
              double nw = ksm_r(s * e, f), ne = ksm_r(s * w, f), sw = ksm_r(nn * e, f), se = ksm_r(nn * w, f);
              r = ksm_r(KSM_AT(yn, xw) * nw, f);
              r = ksm_r(r + ksm_r(KSM_AT(yn, xw + 1.0) * ne, f), f);
              r = ksm_r(r + ksm_r(KSM_AT(yn + 1.0, xw) * sw, f), f);
              r = ksm_r(r + ksm_r(KSM_AT(yn + 1.0, xw + 1.0) * se, f), f);
            } else if (im == KSM_GS_NEAREST) {
              double sx = nearbyint(ksm_gs2_coord(&gw, ksm_gs2_unnorm(&gw, gx)));
              double sy = nearbyint(ksm_gs2_coord(&gh, ksm_gs2_unnorm(&gh, gy)));
              r = KSM_AT(sy, sx);
            } else {
              double sx = ksm_gs2_unnorm(&gw, gx), sy = ksm_gs2_unnorm(&gh, gy);
              double ix = floor(sx), iy = floor(sy), tx = ksm_r(sx - ix, f), ty = ksm_r(sy - iy, f);
              double cx[4], cy[4], row[4];
              cx[0] = ksm_gs_cubic_c(ksm_r(tx + 1.0, f), f);
              cx[1] = ksm_gs_cubic_n(tx, f);
              cx[2] = ksm_gs_cubic_n(ksm_r(1.0 - tx, f), f);
              cx[3] = ksm_gs_cubic_c(ksm_r(2.0 - tx, f), f);
              cy[0] = ksm_gs_cubic_c(ksm_r(ty + 1.0, f), f);
              cy[1] = ksm_gs_cubic_n(ty, f);
              cy[2] = ksm_gs_cubic_n(ksm_r(1.0 - ty, f), f);
              cy[3] = ksm_gs_cubic_c(ksm_r(2.0 - ty, f), f);
              for (int i = 0; i < 4; i++) {
                double yy = ksm_gs2_coord(&gh, iy - 1.0 + i), acc = 0.0;
                for (int j = 0; j < 4; j++) {
                  double xx = ksm_gs2_coord(&gw, ix - 1.0 + j);
                  double p = ksm_r(cx[j] * KSM_AT(yy, xx), f);
                  acc = j ? ksm_r(acc + p, f) : p;
                }
                row[i] = acc;
              }
              r = ksm_r(cy[0] * row[0], f);
              for (int i = 1; i < 4; i++) r = ksm_r(r + ksm_r(cy[i] * row[i], f), f);
            }
#undef KSM_AT
            mck_setf(y, y->offset + q, r);
          }
      }
    return 0;
  }
  int64_t D = x->shape[2], H = x->shape[3], W = x->shape[4];
  for (int64_t n = 0; n < N; n++)
    for (int64_t ch = 0; ch < C; ch++) {
      int64_t xb = x->offset + n * x->stride[0] + ch * x->stride[1];
      for (int64_t od = 0; od < shape[2]; od++)
        for (int64_t oh = 0; oh < shape[3]; oh++)
          for (int64_t ow = 0; ow < shape[4]; ow++, q++) {
            int64_t go = g->offset + n * g->stride[0] + od * g->stride[1] + oh * g->stride[2] + ow * g->stride[3];
            double sx = ksm_gs3_source(mck_getf(g, go), W, (int)pm, align, f);
            double sy = ksm_gs3_source(mck_getf(g, go + g->stride[4]), H, (int)pm, align, f);
            double sz = ksm_gs3_source(mck_getf(g, go + 2 * g->stride[4]), D, (int)pm, align, f);
            double r = 0.0;
            if (im == KSM_GS_NEAREST) {
              double ax = nearbyint(sx), ay = nearbyint(sy), az = nearbyint(sz);
              if (ksm_gs_in(ax, W) && ksm_gs_in(ay, H) && ksm_gs_in(az, D))
                r = mck_getf(x, xb + (int64_t)az * x->stride[2] + (int64_t)ay * x->stride[3] + (int64_t)ax * x->stride[4]);
            } else {
              double fx = floor(sx), fy = floor(sy), fz = floor(sz);
              /* a coordinate with no corner inside (NaN, far outside) adds nothing */
              if (fx > -2.0 && fx < (double)W && fy > -2.0 && fy < (double)H && fz > -2.0 && fz < (double)D) {
                double ex = fx + 1.0, ey = fy + 1.0, ez = fz + 1.0;
                double px[2] = {ksm_r(ex - sx, f), ksm_r(sx - fx, f)};
                double py[2] = {ksm_r(ey - sy, f), ksm_r(sy - fy, f)};
                double pz[2] = {ksm_r(ez - sz, f), ksm_r(sz - fz, f)};
                /* ATen's order: tnw tne tsw tse bnw bne bsw bse */
                for (int k = 0; k < 8; k++) {
                  int bz = k >> 2, by = (k >> 1) & 1, bx = k & 1;
                  double cx = fx + bx, cy = fy + by, cz = fz + bz;
                  double wgt = ksm_r(ksm_r(px[bx] * py[by], f) * pz[bz], f);
                  if (ksm_gs_in(cx, W) && ksm_gs_in(cy, H) && ksm_gs_in(cz, D))
                    r = ksm_r(r + ksm_r(mck_getf(x, xb + (int64_t)cz * x->stride[2] + (int64_t)cy * x->stride[3] +
                                                        (int64_t)cx * x->stride[4]) * wgt, f), f);
                }
              }
            }
            mck_setf(y, y->offset + q, r);
          }
    }
  return 0;
}

/* aten::grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners): 4-D or
 * 5-D input; grid_sampler_2d / grid_sampler_3d only the one. */
static inline int mcks_grid_sampler(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_grid_sampler(c, "aten::grid_sampler", 0, out, nout, in, nin);
}
static inline int mcks_grid_sampler_2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_grid_sampler(c, "aten::grid_sampler_2d", 2, out, nout, in, nin);
}
static inline int mcks_grid_sampler_3d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return ksm_grid_sampler(c, "aten::grid_sampler_3d", 3, out, nout, in, nin);
}

/* ATen's linspace(-1, 1, n) (scaled by (n - 1) / n without align_corners), element i. */
static inline double ksm_lin_neg1(int64_t i, int64_t n, int align, int f) {
  if (n <= 1) return 0.0;
  double step = ksm_r(2.0 / (double)(n - 1), f);
  double v = i < n / 2 ? ksm_r(-1.0 + ksm_r(step * (double)i, f), f)
                       : ksm_r(1.0 - ksm_r(step * (double)(n - i - 1), f), f);
  if (!align) v = ksm_r(ksm_r(v * (double)(n - 1), f) / (double)n, f);
  return v;
}

/* aten::affine_grid_generator(theta, size, align_corners): theta (N, 2, 3) with size
 * [N, C, H, W] -> (N, H, W, 2), or (N, 3, 4) with [N, C, D, H, W] -> (N, D, H, W, 3); the base
 * grid (x, y[, z], 1) times theta^T (summed in double, as a GEMM would, rounded once). */
static inline int mcks_affine_grid_generator(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::affine_grid_generator";
  const mck_tensor *t = kconv_tensor(kconv_arg(in, nin, 0));
  const mck_arg *sa = kconv_arg(in, nin, 1);
  int align = 0;
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (!t) return mck_fail(c, "%s: theta must be a tensor", op);
  if (ksm_f32_f64(c, op, t->dtype)) return -1;
  if (sa->kind == MCK_UNKNOWN) return mck_fail(c, "%s: size must be a compile-time constant", op);
  if (sa->kind != MCK_INTS || (sa->n != 4 && sa->n != 5))
    return mck_fail(c, "%s: affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms", op);
  if (kconv_bool(c, kconv_arg(in, nin, 2), 0, 1, &align, op, "align_corners")) return -1;
  int nsp = sa->n - 2;
  const int64_t *sz = sa->u.ints;
  if (t->ndim != 3 || t->shape[0] != sz[0] || t->shape[1] != nsp || t->shape[2] != nsp + 1)
    return mck_fail(c, "%s: expected a batch of %dD affine matrices of shape Nx%dx%d for size [%lld, ...]", op, nsp,
                    nsp, nsp + 1, (long long)sz[0]);
  int64_t shape[5];
  shape[0] = sz[0];
  for (int i = 0; i < nsp; i++) {
    if (sz[2 + i] < 0 || sz[2 + i] >= MCK_MAX_GEOM) return mck_fail(c, "%s: sizes must be in [0, 2^31)", op);
    shape[1 + i] = sz[2 + i];
  }
  shape[1 + nsp] = nsp;
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, t->dtype, nsp + 2, shape)) return -1;
  if (c->meta || mck_numel(y) == 0) return 0;
  int f = t->dtype == MCK_F32;
  int64_t D = nsp == 3 ? sz[2] : 1, H = sz[nsp], W = sz[nsp + 1], q = 0;
  for (int64_t n = 0; n < sz[0]; n++)
    for (int64_t d = 0; d < D; d++)
      for (int64_t h = 0; h < H; h++)
        for (int64_t w = 0; w < W; w++) {
          double base[4];
          base[0] = ksm_lin_neg1(w, W, align, f);
          base[1] = ksm_lin_neg1(h, H, align, f);
          base[2] = nsp == 3 ? ksm_lin_neg1(d, D, align, f) : 1.0;
          base[3] = 1.0;
          for (int j = 0; j < nsp; j++) {
            double acc = 0.0;
            for (int k = 0; k <= nsp; k++)
              acc += base[k] * mck_getf(t, t->offset + n * t->stride[0] + j * t->stride[1] + k * t->stride[2]);
            mck_setf(y, y->offset + q++, acc);
          }
        }
  return 0;
}

/* ---- im2col / col2im / unfold --------------------------------------------------------------- */
typedef struct ksm_blk {
  int64_t k[2], d[2], p[2], s[2];
} ksm_blk;

static inline int ksm_blk_init(mck_ctx *c, const char *op, const mck_arg *in, int nin, int k0, ksm_blk *b) {
  if (kconv_ints(c, kconv_arg(in, nin, k0), 2, NULL, b->k, op, "kernel_size") ||
      kconv_ints(c, kconv_arg(in, nin, k0 + 1), 2, NULL, b->d, op, "dilation") ||
      kconv_ints(c, kconv_arg(in, nin, k0 + 2), 2, NULL, b->p, op, "padding") ||
      kconv_ints(c, kconv_arg(in, nin, k0 + 3), 2, NULL, b->s, op, "stride"))
    return -1;
  for (int i = 0; i < 2; i++) {
    if (b->k[i] < 1 || b->d[i] < 1 || b->s[i] < 1 || b->p[i] < 0)
      return mck_fail(c, "%s: kernel_size, dilation and stride must be positive and padding non-negative", op);
    if (b->k[i] >= MCK_MAX_GEOM || b->d[i] >= MCK_MAX_GEOM || b->s[i] >= MCK_MAX_GEOM || b->p[i] >= MCK_MAX_GEOM)
      return mck_fail(c, "%s: kernel_size, dilation, padding and stride must be below 2^31", op);
  }
  return 0;
}
/* Number of sliding blocks along a dim of extent n (ATen's div_rtn). */
static inline int64_t ksm_blocks(const ksm_blk *b, int i, int64_t n) {
  return kconv_floordiv(n + 2 * b->p[i] - (b->d[i] * (b->k[i] - 1) + 1), b->s[i]) + 1;
}

/* aten::im2col(self, kernel_size, dilation, padding, stride) (F.unfold): (N, C, H, W) ->
 * (N, C*kh*kw, L); 3-D input without the batch dim. */
static inline int mcks_im2col(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::im2col";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  ksm_blk b;
  memset(&b, 0, sizeof b);
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (!x || (x->ndim != 3 && x->ndim != 4))
    return mck_fail(c, "%s: expected a 3D or 4D (batch mode) input", op);
  if (x->dtype != MCK_F32 && x->dtype != MCK_F64 && x->dtype != MCK_F16 && x->dtype != MCK_BF16)
    return mck_fail(c, "%s: not implemented for %s", op, mck_dtype_name(x->dtype));
  if (ksm_blk_init(c, op, in, nin, 1, &b)) return -1;
  int lead = x->ndim - 3;
  int64_t N = lead ? x->shape[0] : 1, C = x->shape[lead], H = x->shape[lead + 1], W = x->shape[lead + 2];
  if (C == 0 || H == 0 || W == 0)
    return mck_fail(c, "%s: expected non-zero channel and spatial dims (only the batch may be empty)", op);
  if (H >= MCK_MAX_GEOM || W >= MCK_MAX_GEOM) return mck_fail(c, "%s: spatial extents must be below 2^31", op);
  int64_t OH = ksm_blocks(&b, 0, H), OW = ksm_blocks(&b, 1, W);
  if (OH < 1 || OW < 1)
    return mck_fail(c, "%s: input %lldx%lld gives a %lldx%lld array of sliding blocks; its components must be at least one",
                    op, (long long)H, (long long)W, (long long)OH, (long long)OW);
  int64_t kk = b.k[0] * b.k[1], ck, L, shape[3];
  if (mck_mul_ovf(C, kk, &ck) || mck_mul_ovf(OH, OW, &L)) return mck_fail(c, "%s: output size overflows", op);
  int r = 0;
  if (lead) shape[r++] = N;
  shape[r++] = ck;
  shape[r++] = L;
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, x->dtype, r, shape)) return -1;
  if (c->meta || mck_numel(y) == 0) return 0;
  size_t es = mck_dtype_size(x->dtype);
  int64_t q = 0;
  int64_t sN = lead ? x->stride[0] : 0, sC = x->stride[lead], sH = x->stride[lead + 1], sW = x->stride[lead + 2];
  for (int64_t n = 0; n < N; n++)
    for (int64_t ch = 0; ch < C; ch++)
      for (int64_t i = 0; i < b.k[0]; i++)
        for (int64_t j = 0; j < b.k[1]; j++)
          for (int64_t oh = 0; oh < OH; oh++) {
            int64_t ih = oh * b.s[0] - b.p[0] + i * b.d[0];
            for (int64_t ow = 0; ow < OW; ow++, q++) {
              int64_t iw = ow * b.s[1] - b.p[1] + j * b.d[1];
              if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                memcpy((char *)y->data + (size_t)(y->offset + q) * es,
                       (const char *)x->data + (size_t)(x->offset + n * sN + ch * sC + ih * sH + iw * sW) * es, es);
              else
                mck_setf(y, y->offset + q, 0.0);
            }
          }
  return 0;
}

/* aten::col2im(self, output_size, kernel_size, dilation, padding, stride) (F.fold): sums the
 * blocks back, in ATen's order, in the input's type. */
static inline int mcks_col2im(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::col2im";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  ksm_blk b;
  memset(&b, 0, sizeof b);
  int64_t os[2] = {0, 0};
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (!x || (x->ndim != 2 && x->ndim != 3))
    return mck_fail(c, "%s: expected a 2D or 3D (batch mode) input", op);
  if (ksm_f32_f64(c, op, x->dtype)) return -1;
  if (kconv_ints(c, kconv_arg(in, nin, 1), 2, NULL, os, op, "output_size")) return -1;
  if (ksm_blk_init(c, op, in, nin, 2, &b)) return -1;
  if (os[0] < 1 || os[1] < 1 || os[0] >= MCK_MAX_GEOM || os[1] >= MCK_MAX_GEOM)
    return mck_fail(c, "%s: output_size must be positive and below 2^31", op);
  int lead = x->ndim - 2;
  int64_t N = lead ? x->shape[0] : 1, CK = x->shape[lead], L = x->shape[lead + 1], kk = b.k[0] * b.k[1];
  if (CK == 0 || L == 0) return mck_fail(c, "%s: expected non-empty non-batch dims", op);
  if (CK % kk)
    return mck_fail(c, "%s: expected size of input's dimension %d (%lld) to be divisible by the product of kernel_size (%lld)",
                    op, lead, (long long)CK, (long long)kk);
  int64_t OH = ksm_blocks(&b, 0, os[0]), OW = ksm_blocks(&b, 1, os[1]);
  if (OH < 1 || OW < 1)
    return mck_fail(c, "%s: output_size %lldx%lld gives a %lldx%lld array of sliding blocks, which is too small", op,
                    (long long)os[0], (long long)os[1], (long long)OH, (long long)OW);
  if (mck_mul_sat(OH, OW) != L)
    return mck_fail(c, "%s: expected size of input's dimension %d (%lld) to match the number of sliding blocks %lld * %lld = %lld",
                    op, lead + 1, (long long)L, (long long)OH, (long long)OW, (long long)(OH * OW));
  int64_t C = CK / kk, shape[4];
  int r = 0;
  if (lead) shape[r++] = N;
  shape[r++] = C;
  shape[r++] = os[0];
  shape[r++] = os[1];
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, x->dtype, r, shape)) return -1;
  if (c->meta || mck_numel(y) == 0) return 0;
  int64_t total = mck_numel(y);
  for (int64_t k = 0; k < total; k++) mck_setf(y, y->offset + k, 0.0);
  int64_t sN = lead ? x->stride[0] : 0, sC = x->stride[lead], sL = x->stride[lead + 1];
  for (int64_t n = 0; n < N; n++)
    for (int64_t cc = 0; cc < CK; cc++) {
      int64_t j = cc % b.k[1], i = (cc / b.k[1]) % b.k[0], ch = cc / kk;
      int64_t yb = y->offset + (n * C + ch) * os[0] * os[1];
      for (int64_t oh = 0; oh < OH; oh++) {
        int64_t ih = oh * b.s[0] - b.p[0] + i * b.d[0];
        for (int64_t ow = 0; ow < OW; ow++) {
          int64_t iw = ow * b.s[1] - b.p[1] + j * b.d[1];
          if (ih < 0 || ih >= os[0] || iw < 0 || iw >= os[1]) continue;
          int64_t o = yb + ih * os[1] + iw;
          mck_setf(y, o, mck_getf(y, o) + mck_getf(x, x->offset + n * sN + cc * sC + (oh * OW + ow) * sL));
        }
      }
    }
  return 0;
}

/* aten::unfold(self, dimension, size, step) (Tensor.unfold): a view; dim `dimension` becomes
 * (extent - size) / step + 1 windows (stride times step) and a new last dim of `size`. */
static inline int mcks_unfold(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::unfold";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  int64_t dim = 0, size = 0, step = 0;
  if (nout < 1) return mck_fail(c, "%s: expects one output", op);
  if (!x) return mck_fail(c, "%s: self must be a tensor", op);
  if (kconv_int(c, kconv_arg(in, nin, 1), 0, &dim, op, "dimension") ||
      kconv_int(c, kconv_arg(in, nin, 2), 0, &size, op, "size") ||
      kconv_int(c, kconv_arg(in, nin, 3), 0, &step, op, "step"))
    return -1;
  int d = mck_wrap_dim(dim, x->ndim);
  if (d < 0) return mck_fail(c, "%s: dimension %lld out of range for a %dD tensor", op, (long long)dim, x->ndim);
  if (x->ndim + 1 > MCK_MAX_DIMS) return mck_fail(c, "%s: at most %d dims", op, MCK_MAX_DIMS);
  int64_t ext = x->ndim ? x->shape[d] : 1, st = x->ndim ? x->stride[d] : 1;
  if (size < 0) return mck_fail(c, "%s: size is %lld but must be >= 0", op, (long long)size);
  if (size > ext)
    return mck_fail(c, "%s: maximum size for tensor at dimension %d is %lld but size is %lld", op, d, (long long)ext,
                    (long long)size);
  if (step <= 0) return mck_fail(c, "%s: step is %lld but must be > 0", op, (long long)step);
  mck_tensor v = *x;
  if (x->ndim) {
    v.shape[d] = (ext - size) / step + 1;
    v.stride[d] = mck_mul_sat(st, step);
  }
  v.shape[x->ndim] = size;
  v.stride[x->ndim] = st;
  v.ndim = x->ndim + 1;
  out[0].kind = MCK_TENSOR;
  *out[0].u.t = v;
  return 0;
}

/* ---- torchvision ---------------------------------------------------------------------------- */
static inline int ksm_rois(mck_ctx *c, const char *op, const mck_tensor *x, const mck_tensor *r) {
  if (!x || !r) return mck_fail(c, "%s: input and rois must be tensors", op);
  if (x->ndim != 4) return mck_fail(c, "%s: expected a 4D input, got %dD", op, x->ndim);
  if (ksm_f32_f64(c, op, x->dtype)) return -1;
  if (r->dtype != x->dtype)
    return mck_fail(c, "%s: input and rois must have the same dtype, got %s and %s", op, mck_dtype_name(x->dtype),
                    mck_dtype_name(r->dtype));
  if (r->ndim != 2 || r->shape[1] != 5) return mck_fail(c, "%s: rois must have shape (K, 5)", op);
  if (x->shape[2] >= MCK_MAX_GEOM || x->shape[3] >= MCK_MAX_GEOM)
    return mck_fail(c, "%s: spatial extents must be below 2^31", op);
  return 0;
}
static inline double ksm_roi(const mck_tensor *r, int64_t k, int j) {
  return mck_getf(r, r->offset + k * r->stride[0] + j * r->stride[1]);
}
/* The roi's batch index (a float truncated, as torchvision's `int roi_batch_ind = rois[0]`),
 * checked against the batch. */
static inline int ksm_roi_batch(mck_ctx *c, const char *op, const mck_tensor *r, int64_t k, int64_t N, int64_t *b) {
  double v = ksm_roi(r, k, 0);
  if (!(v > -1.0 && v < (double)N))
    return mck_fail(c, "%s: roi %lld has batch index %g outside [0, %lld)", op, (long long)k, v, (long long)N);
  *b = (int64_t)v;
  return 0;
}

/* torchvision::roi_align(input, rois, spatial_scale, pooled_height, pooled_width,
 * sampling_ratio, aligned): torchvision 0.14's CPU kernel (pre-computed bilinear taps, bins
 * averaged over roi_bin_grid samples; sampling_ratio <= 0: ceil(roi extent / pooled)). */
static inline int mcks_roi_align(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "torchvision::roi_align";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0)), *ro = kconv_tensor(kconv_arg(in, nin, 1));
  double ss = 1.0;
  int64_t PH = 1, PW = 1, sr = -1;
  int aligned = 0;
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (ksm_rois(c, op, x, ro)) return -1;
  if (kconv_float(c, kconv_arg(in, nin, 2), 1.0, &ss, op, "spatial_scale") ||
      kconv_int(c, kconv_arg(in, nin, 3), 1, &PH, op, "pooled_height") ||
      kconv_int(c, kconv_arg(in, nin, 4), 1, &PW, op, "pooled_width") ||
      kconv_int(c, kconv_arg(in, nin, 5), -1, &sr, op, "sampling_ratio") ||
      kconv_bool(c, kconv_arg(in, nin, 6), 0, 1, &aligned, op, "aligned"))
    return -1;
  if (PH < 1 || PW < 1 || PH >= MCK_MAX_GEOM || PW >= MCK_MAX_GEOM)
    return mck_fail(c, "%s: pooled_height and pooled_width must be in [1, 2^31)", op);
  if (sr >= MCK_MAX_GEOM) return mck_fail(c, "%s: sampling_ratio must be below 2^31", op);
  int64_t K = ro->shape[0], N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
  int64_t shape[4] = {K, C, PH, PW};
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, x->dtype, 4, shape)) return -1;
  if (c->meta || mck_numel(y) == 0) return 0;
  int f = x->dtype == MCK_F32;
  double scale = ksm_r(ss, f), off = aligned ? 0.5 : 0.0;
  for (int64_t k = 0; k < K; k++) {
    int64_t bi = 0;
    if (ksm_roi_batch(c, op, ro, k, N, &bi)) return -1;
    double sw = ksm_r(ksm_r(ksm_roi(ro, k, 1) * scale, f) - off, f);
    double sh = ksm_r(ksm_r(ksm_roi(ro, k, 2) * scale, f) - off, f);
    double ew = ksm_r(ksm_r(ksm_roi(ro, k, 3) * scale, f) - off, f);
    double eh = ksm_r(ksm_r(ksm_roi(ro, k, 4) * scale, f) - off, f);
    if (!(fabs(sw) < 1e15 && fabs(sh) < 1e15 && fabs(ew) < 1e15 && fabs(eh) < 1e15))
      return mck_fail(c, "%s: roi %lld times spatial_scale is not finite or beyond 1e15", op, (long long)k);
    double rw = ksm_r(ew - sw, f), rh = ksm_r(eh - sh, f);
    if (!aligned) {
      rw = rw > 1.0 ? rw : 1.0;
      rh = rh > 1.0 ? rh : 1.0;
    }
    double bh = ksm_r(rh / (double)PH, f), bw = ksm_r(rw / (double)PW, f);
    double gh_ = sr > 0 ? (double)sr : ceil(ksm_r(rh / (double)PH, f));
    double gw_ = sr > 0 ? (double)sr : ceil(ksm_r(rw / (double)PW, f));
    if (!(fabs(gh_) < 65536.0 && fabs(gw_) < 65536.0))
      return mck_fail(c, "%s: roi %lld needs more than 2^16 samples per bin side", op, (long long)k);
    int64_t gh = (int64_t)gh_, gw = (int64_t)gw_;
    double count = (double)(gh * gw > 1 ? gh * gw : 1);
    for (int64_t ch = 0; ch < C; ch++) {
      int64_t xb = x->offset + bi * x->stride[0] + ch * x->stride[1];
      for (int64_t ph = 0; ph < PH; ph++)
        for (int64_t pw = 0; pw < PW; pw++) {
          double acc = 0.0;
          for (int64_t iy = 0; iy < gh; iy++) {
            double yy = ksm_r(ksm_r(sh + ksm_r((double)ph * bh, f), f) +
                              ksm_r(ksm_r(((double)iy + 0.5) * bh, f) / (double)gh, f), f);
            for (int64_t ix = 0; ix < gw; ix++) {
              double xx = ksm_r(ksm_r(sw + ksm_r((double)pw * bw, f), f) +
                                ksm_r(ksm_r(((double)ix + 0.5) * bw, f) / (double)gw, f), f);
              double w4[4] = {0, 0, 0, 0};
              int64_t p4[4] = {0, 0, 0, 0};
              double yv = yy, xv = xx;
              if (!(yv < -1.0 || yv > (double)H || xv < -1.0 || xv > (double)W)) {
                if (yv <= 0) yv = 0;
                if (xv <= 0) xv = 0;
                int64_t yl = (int64_t)yv, xl = (int64_t)xv, yh, xh;
                if (yl >= H - 1) { yh = yl = H - 1; yv = (double)yl; } else { yh = yl + 1; }
                if (xl >= W - 1) { xh = xl = W - 1; xv = (double)xl; } else { xh = xl + 1; }
                double ly = ksm_r(yv - (double)yl, f), lx = ksm_r(xv - (double)xl, f);
                double hy = ksm_r(1.0 - ly, f), hx = ksm_r(1.0 - lx, f);
                w4[0] = ksm_r(hy * hx, f); w4[1] = ksm_r(hy * lx, f);
                w4[2] = ksm_r(ly * hx, f); w4[3] = ksm_r(ly * lx, f);
                p4[0] = yl * x->stride[2] + xl * x->stride[3]; p4[1] = yl * x->stride[2] + xh * x->stride[3];
                p4[2] = yh * x->stride[2] + xl * x->stride[3]; p4[3] = yh * x->stride[2] + xh * x->stride[3];
              }
              double s = ksm_r(w4[0] * mck_getf(x, xb + p4[0]), f);
              for (int t = 1; t < 4; t++) s = ksm_r(s + ksm_r(w4[t] * mck_getf(x, xb + p4[t]), f), f);
              acc = ksm_r(acc + s, f);
            }
          }
          mck_setf(y, y->offset + ((k * C + ch) * PH + ph) * PW + pw, ksm_r(acc / count, f));
        }
    }
  }
  return 0;
}

/* torchvision::roi_pool(input, rois, spatial_scale, pooled_height, pooled_width) -> (output,
 * argmax int32): max over rounded bins; an empty bin gives 0 and index -1. */
static inline int mcks_roi_pool(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "torchvision::roi_pool";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0)), *ro = kconv_tensor(kconv_arg(in, nin, 1));
  double ss = 1.0;
  int64_t PH = 1, PW = 1;
  if (ksm_one_out(c, op, out, nout, 2)) return -1;
  if (ksm_rois(c, op, x, ro)) return -1;
  if (kconv_float(c, kconv_arg(in, nin, 2), 1.0, &ss, op, "spatial_scale") ||
      kconv_int(c, kconv_arg(in, nin, 3), 1, &PH, op, "pooled_height") ||
      kconv_int(c, kconv_arg(in, nin, 4), 1, &PW, op, "pooled_width"))
    return -1;
  if (PH < 1 || PW < 1 || PH >= MCK_MAX_GEOM || PW >= MCK_MAX_GEOM)
    return mck_fail(c, "%s: pooled_height and pooled_width must be in [1, 2^31)", op);
  int64_t K = ro->shape[0], N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
  int64_t shape[4] = {K, C, PH, PW};
  mck_tensor *y = out[0].u.t, *am = out[1].u.t;
  if (mck_out(c, y, x->dtype, 4, shape) || mck_out(c, am, MCK_I32, 4, shape)) return -1;
  if (c->meta || mck_numel(y) == 0) return 0;
  int f = x->dtype == MCK_F32;
  double scale = ksm_r(ss, f);
  for (int64_t k = 0; k < K; k++) {
    int64_t bi = 0, rs[4] = {0, 0, 0, 0};
    if (ksm_roi_batch(c, op, ro, k, N, &bi)) return -1;
    for (int j = 0; j < 4; j++) {
      double v = round(ksm_r(ksm_roi(ro, k, 1 + j) * scale, f));
      if (!(fabs(v) < 1073741824.0))
        return mck_fail(c, "%s: roi %lld is not finite or beyond 2^30", op, (long long)k);
      rs[j] = (int64_t)v;
    }
    int64_t rw = kconv_max(rs[2] - rs[0] + 1, 1), rh = kconv_max(rs[3] - rs[1] + 1, 1);
    double bh = ksm_r((double)rh / (double)PH, f), bw = ksm_r((double)rw / (double)PW, f);
    for (int64_t ph = 0; ph < PH; ph++)
      for (int64_t pw = 0; pw < PW; pw++) {
        int64_t h0 = (int64_t)floor(ksm_r((double)ph * bh, f)), h1 = (int64_t)ceil(ksm_r((double)(ph + 1) * bh, f));
        int64_t w0 = (int64_t)floor(ksm_r((double)pw * bw, f)), w1 = (int64_t)ceil(ksm_r((double)(pw + 1) * bw, f));
        h0 = kconv_min(kconv_max(h0 + rs[1], 0), H);
        h1 = kconv_min(kconv_max(h1 + rs[1], 0), H);
        w0 = kconv_min(kconv_max(w0 + rs[0], 0), W);
        w1 = kconv_min(kconv_max(w1 + rs[0], 0), W);
        int empty = h1 <= h0 || w1 <= w0;
        for (int64_t ch = 0; ch < C; ch++) {
          int64_t xb = x->offset + bi * x->stride[0] + ch * x->stride[1];
          double mv = empty ? 0.0 : -3.40282346638528859812e+38; /* -FLT_MAX */
          int64_t mi = -1;
          for (int64_t h = h0; h < h1; h++)
            for (int64_t w = w0; w < w1; w++) {
              double v = mck_getf(x, xb + h * x->stride[2] + w * x->stride[3]);
              if (v > mv) {
                mv = v;
                mi = h * W + w;
              }
            }
          int64_t o = ((k * C + ch) * PH + ph) * PW + pw;
          mck_setf(y, y->offset + o, mv);
          mck_seti(am, am->offset + o, mi);
        }
      }
  }
  return 0;
}

/* torchvision's bilinear_interpolate of deform_conv2d (a point outside (-1, extent) gives 0). */
static inline double ksm_deform_bilinear(const mck_tensor *x, int64_t xb, int64_t H, int64_t W, double h, double w,
                                         int f) {
  if (h <= -1.0 || (double)H <= h || w <= -1.0 || (double)W <= w) return 0.0;
  if (h != h || w != w) return NAN;
  int64_t hl = (int64_t)floor(h), wl = (int64_t)floor(w), hh_ = hl + 1, wh = wl + 1;
  double lh = ksm_r(h - (double)hl, f), lw = ksm_r(w - (double)wl, f);
  double hh = ksm_r(1.0 - lh, f), hw = ksm_r(1.0 - lw, f);
  double v1 = 0, v2 = 0, v3 = 0, v4 = 0;
  if (hl >= 0 && wl >= 0) v1 = mck_getf(x, xb + hl * x->stride[2] + wl * x->stride[3]);
  if (hl >= 0 && wh <= W - 1) v2 = mck_getf(x, xb + hl * x->stride[2] + wh * x->stride[3]);
  if (hh_ <= H - 1 && wl >= 0) v3 = mck_getf(x, xb + hh_ * x->stride[2] + wl * x->stride[3]);
  if (hh_ <= H - 1 && wh <= W - 1) v4 = mck_getf(x, xb + hh_ * x->stride[2] + wh * x->stride[3]);
  double w1 = ksm_r(hh * hw, f), w2 = ksm_r(hh * lw, f), w3 = ksm_r(lh * hw, f), w4 = ksm_r(lh * lw, f);
  double r = ksm_r(ksm_r(w1 * v1, f) + ksm_r(w2 * v2, f), f);
  r = ksm_r(r + ksm_r(w3 * v3, f), f);
  return ksm_r(r + ksm_r(w4 * v4, f), f);
}

static inline double ksm_at4(const mck_tensor *t, int64_t a, int64_t b, int64_t c2, int64_t d) {
  return mck_getf(t, t->offset + a * t->stride[0] + b * t->stride[1] + c2 * t->stride[2] + d * t->stride[3]);
}

/* torchvision::deform_conv2d(input, weight, offset, mask, bias, stride_h, stride_w, pad_h,
 * pad_w, dilation_h, dilation_w, groups, offset_groups, use_mask): deformable im2col (each
 * tap sampled bilinearly at its offset position, times the mask) then the grouped product
 * with the weight (summed in double, rounded once), then + bias. */
static inline int mcks_deform_conv2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "torchvision::deform_conv2d";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0)), *wt = kconv_tensor(kconv_arg(in, nin, 1));
  const mck_tensor *of = kconv_tensor(kconv_arg(in, nin, 2)), *mk = kconv_tensor(kconv_arg(in, nin, 3));
  const mck_tensor *bs = kconv_tensor(kconv_arg(in, nin, 4));
  int64_t g[8];
  int use_mask = 0;
  if (ksm_one_out(c, op, out, nout, 1)) return -1;
  if (!x || !wt || !of || !mk || !bs) return mck_fail(c, "%s: input, weight, offset, mask and bias must be tensors", op);
  if (ksm_f32_f64(c, op, x->dtype)) return -1;
  if (wt->dtype != x->dtype || of->dtype != x->dtype || mk->dtype != x->dtype || bs->dtype != x->dtype)
    return mck_fail(c, "%s: all tensors must have the input's dtype", op);
  for (int i = 0; i < 8; i++)
    if (kconv_int(c, kconv_arg(in, nin, 5 + i), 0, &g[i], op, "geometry argument")) return -1;
  if (kconv_bool(c, kconv_arg(in, nin, 13), 0, 1, &use_mask, op, "use_mask")) return -1;
  int64_t sh = g[0], sw = g[1], ph = g[2], pw = g[3], dh = g[4], dw = g[5], G = g[6], OG = g[7];
  if (x->ndim != 4 || wt->ndim != 4 || of->ndim != 4 || (use_mask && mk->ndim != 4) || bs->ndim != 1)
    return mck_fail(c, "%s: expected 4D input, weight, offset (and mask) and a 1D bias", op);
  for (int i = 0; i < 6; i++)
    if (g[i] < (i == 2 || i == 3 ? 0 : 1) || g[i] >= MCK_MAX_GEOM)
      return mck_fail(c, "%s: stride and dilation must be positive, padding non-negative, all below 2^31", op);
  int64_t B = x->shape[0], Cin = x->shape[1], H = x->shape[2], W = x->shape[3];
  int64_t Co = wt->shape[0], Cg = wt->shape[1], KH = wt->shape[2], KW = wt->shape[3];
  if (G < 1 || OG < 1 || G >= MCK_MAX_GEOM || OG >= MCK_MAX_GEOM || mck_mul_sat(Cg, G) != Cin || Co % G ||
      Cin % OG)
    return mck_fail(c, "%s: weight's input channels times groups must be the input's channels, groups and offset groups must divide the channels", op);
  if (KH < 1 || KW < 1 || KH >= MCK_MAX_GEOM || KW >= MCK_MAX_GEOM || H >= MCK_MAX_GEOM || W >= MCK_MAX_GEOM)
    return mck_fail(c, "%s: kernel and input extents must be in [1, 2^31)", op);
  int64_t OH = (H + 2 * ph - (dh * (KH - 1) + 1)) / sh + 1, OW = (W + 2 * pw - (dw * (KW - 1) + 1)) / sw + 1;
  if (H + 2 * ph - (dh * (KH - 1) + 1) < 0 || W + 2 * pw - (dw * (KW - 1) + 1) < 0 || OH < 1 || OW < 1)
    return mck_fail(c, "%s: calculated output size %lldx%lld is too small", op, (long long)OH, (long long)OW);
  if (of->shape[0] != B || of->shape[1] != mck_mul_sat(OG * 2, KH * KW) || of->shape[2] != OH || of->shape[3] != OW)
    return mck_fail(c, "%s: offset must have shape (%lld, %lld, %lld, %lld)", op, (long long)B,
                    (long long)mck_mul_sat(OG * 2, KH * KW), (long long)OH, (long long)OW);
  if (use_mask && (mk->shape[0] != B || mk->shape[1] != mck_mul_sat(OG, KH * KW) || mk->shape[2] != OH || mk->shape[3] != OW))
    return mck_fail(c, "%s: mask must have shape (%lld, %lld, %lld, %lld)", op, (long long)B, (long long)mck_mul_sat(OG, KH * KW),
                    (long long)OH, (long long)OW);
  if (bs->shape[0] != Co) return mck_fail(c, "%s: bias must have %lld elements", op, (long long)Co);
  int64_t shape[4] = {B, Co, OH, OW};
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, x->dtype, 4, shape)) return -1;
  if (c->meta || mck_numel(y) == 0) return 0;
  int f = x->dtype == MCK_F32;
  int64_t KK = KH * KW, cpo = Cin / OG, cog = Co / G, CK = mck_mul_sat(Cg, KK);
  /* one column (a group's Cg * KK samples of one output position) at a time */
  double *col = (double *)kconv_alloc(CK, sizeof(double)), *wown = NULL;
  const double *wd = col ? kconv_as_f64(wt, &wown) : NULL; /* (Co, Cg * KK), row-major */
  if (!col || !wd) {
    free(col);
    free(wown);
    return mck_fail(c, "%s: out of memory", op);
  }
  for (int64_t b = 0; b < B; b++)
    for (int64_t gi = 0; gi < G; gi++)
      for (int64_t oy = 0; oy < OH; oy++)
        for (int64_t ox = 0; ox < OW; ox++) {
          for (int64_t cl = 0; cl < Cg; cl++) {
            int64_t ci = gi * Cg + cl, grp = ci / cpo, xb = x->offset + b * x->stride[0] + ci * x->stride[1];
            for (int64_t m = 0; m < KK; m++) {
              int64_t i = m / KW, j = m % KW;
              double mv = use_mask ? ksm_at4(mk, b, grp * KK + m, oy, ox) : 1.0;
              double oh_ = ksm_at4(of, b, grp * 2 * KK + 2 * m, oy, ox);
              double ow_ = ksm_at4(of, b, grp * 2 * KK + 2 * m + 1, oy, ox);
              double yy = ksm_r((double)(oy * sh - ph + i * dh) + oh_, f);
              double xx = ksm_r((double)(ox * sw - pw + j * dw) + ow_, f);
              col[cl * KK + m] = ksm_r(mv * ksm_deform_bilinear(x, xb, H, W, yy, xx, f), f);
            }
          }
          for (int64_t o = gi * cog; o < (gi + 1) * cog; o++) {
            double acc = 0.0;
            const double *wr = wd + o * CK;
            for (int64_t k = 0; k < CK; k++) acc += wr[k] * col[k];
            double bv = mck_getf(bs, bs->offset + o * bs->stride[0]);
            mck_setf(y, y->offset + ((b * Co + o) * OH + oy) * OW + ox, ksm_r(ksm_r(acc, f) + bv, f));
          }
        }
  free(col);
  free(wown);
  return 0;
}

/* torchvision::nms(dets [N, 4] (x1, y1, x2, y2), scores [N], iou_threshold): the indices of the
 * boxes kept, by decreasing score (a stable sort: ties in index order), each box suppressing the
 * later ones it overlaps by IoU > threshold; arithmetic in the boxes' dtype (float32 or
 * float64), step for step as torchvision's CPU kernel. How many are kept depends on the data:
 * in meta mode the bound N (ctx->sized_by_data). */
#define MCKS_NMS_LOOP(T)                                                                                     \
  for (int64_t a = 0; a < n; a++) {                                                                          \
    int64_t i = order[a];                                                                                    \
    if (sup[i]) continue;                                                                                    \
    keep[nk++] = i;                                                                                          \
    T ix1 = (T)bx[4 * i], iy1 = (T)bx[4 * i + 1], ix2 = (T)bx[4 * i + 2], iy2 = (T)bx[4 * i + 3];            \
    T iarea = (ix2 - ix1) * (iy2 - iy1);                                                                     \
    for (int64_t b = a + 1; b < n; b++) {                                                                    \
      int64_t j = order[b];                                                                                  \
      if (sup[j]) continue;                                                                                  \
      T jx1 = (T)bx[4 * j], jy1 = (T)bx[4 * j + 1], jx2 = (T)bx[4 * j + 2], jy2 = (T)bx[4 * j + 3];          \
      T xx1 = ix1 > jx1 ? ix1 : jx1, yy1 = iy1 > jy1 ? iy1 : jy1;                                            \
      T xx2 = ix2 < jx2 ? ix2 : jx2, yy2 = iy2 < jy2 ? iy2 : jy2;                                            \
      T w = xx2 - xx1 > (T)0 ? xx2 - xx1 : (T)0, h = yy2 - yy1 > (T)0 ? yy2 - yy1 : (T)0;                    \
      T inter = w * h, jarea = (jx2 - jx1) * (jy2 - jy1);                                                    \
      T ovr = inter / (iarea + jarea - inter);                                                               \
      if (ovr > (T)thr) sup[j] = 1;                                                                          \
    }                                                                                                        \
  }
static inline int mcks_nms(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const char *op = "torchvision::nms";
  if (nin < 3 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR) return mck_fail(c, "%s: expects dets, scores, iou_threshold", op);
  const mck_tensor *d = in[0].u.t, *sc = in[1].u.t;
  if (d->ndim != 2) return mck_fail(c, "%s: boxes should be a 2d tensor, got %dD", op, d->ndim);
  if (d->shape[1] != 4) return mck_fail(c, "%s: boxes should have 4 elements in dimension 1, got %lld", op, (long long)d->shape[1]);
  if (sc->ndim != 1) return mck_fail(c, "%s: scores should be a 1d tensor, got %dD", op, sc->ndim);
  if (d->shape[0] != sc->shape[0])
    return mck_fail(c, "%s: boxes and scores should have same number of elements in dimension 0, got %lld and %lld", op,
                    (long long)d->shape[0], (long long)sc->shape[0]);
  if (d->dtype != sc->dtype) return mck_fail(c, "%s: dets should have the same type as scores", op);
  if (d->dtype != MCK_F32 && d->dtype != MCK_F64)
    return mck_fail(c, "%s: \"nms_kernel\" not implemented for '%s'", op,
                    d->dtype == MCK_F16 ? "Half" : d->dtype == MCK_BF16 ? "BFloat16" : mck_dtype_name(d->dtype));
  double thr;
  if (in[2].kind == MCK_FLOAT || in[2].kind == MCK_INT) thr = in[2].kind == MCK_FLOAT ? in[2].u.f : (double)in[2].u.i;
  else if (c->meta && in[2].kind == MCK_UNKNOWN) thr = 0;
  else return mck_fail(c, "%s: iou_threshold must be a number", op);
  int64_t n = d->shape[0];
  if (c->meta) return mck_out_sized(c, out[0].u.t, MCK_I64, 1, &n);
  double *bx = (double *)malloc(sizeof(double) * (size_t)(4 * n + 1));
  int64_t *order = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * n + 1)), *keep = order ? order + n : NULL;
  char *sup = (char *)calloc((size_t)n + 1, 1);
  double *key = (double *)malloc(sizeof(double) * (size_t)(n + 1));
  int64_t *tmp = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1)), nk = 0;
  int rc = 0;
  if (!bx || !order || !sup || !key || !tmp) {
    rc = mck_fail(c, "%s: out of memory", op);
  } else {
    for (int64_t i = 0; i < n; i++) {
      for (int k = 0; k < 4; k++) bx[4 * i + k] = mck_getf(d, d->offset + i * d->stride[0] + k * d->stride[1]);
      key[i] = mck_getf(sc, sc->offset + i * sc->stride[0]);
      order[i] = i;
    }
    /* stable merge sort by descending score (NaN first, as ATen's descending comparator) */
    for (int64_t w = 1; w < n; w *= 2) {
      for (int64_t lo = 0; lo < n; lo += 2 * w) {
        int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, x = lo, y = mid, o = lo;
        while (x < mid && y < hi) {
          double kx = key[order[x]], ky = key[order[y]];
          int y_first = (ky != ky && kx == kx) || ky > kx;
          tmp[o++] = y_first ? order[y++] : order[x++];
        }
        while (x < mid) tmp[o++] = order[x++];
        while (y < hi) tmp[o++] = order[y++];
      }
      memcpy(order, tmp, sizeof(int64_t) * (size_t)n);
    }
    if (d->dtype == MCK_F32) {
      MCKS_NMS_LOOP(float)
    } else {
      MCKS_NMS_LOOP(double)
    }
    rc = mck_out_sized(c, out[0].u.t, MCK_I64, 1, &nk);
    mck_tensor *o = out[0].u.t;
    for (int64_t k = 0; rc == 0 && k < nk; k++) mck_seti(o, o->offset + k, keep[k]);
  }
  free(bx);
  free(order);
  free(sup);
  free(key);
  free(tmp);
  return rc;
}
#undef MCKS_NMS_LOOP

#endif
