/* k_pad.h — the conv family's padding (constant, reflect, replicate, circular; pad and its named
 * variants) and channel permutations (pixel_shuffle, pixel_unshuffle, channel_shuffle): element
 * copies through index maps. Uses k_pool.h's plane helpers.
 */
#ifndef MC_K_PAD_H
#define MC_K_PAD_H

#include "k_pool.h"

/* ---- padding and channel permutations ----------------------------------------------------- */
enum { KCONV_PAD_CONST, KCONV_PAD_REFLECT, KCONV_PAD_REPLICATE, KCONV_PAD_CIRCULAR };

/* Copies element bytes: y[k] (contiguous) from x at the source of each output position; pads
 * the last npairs dims by pad[] (PyTorch order: last dim first, left then right). */
static inline int kconv_pad_run(mck_ctx *c, const char *op, mck_arg *out, int nout,
                                const mck_tensor *x, const mck_arg *pa, int mode,
                                const mck_arg *va) {
  int64_t pads[2 * MCK_MAX_DIMS], lo[MCK_MAX_DIMS], shape[MCK_MAX_DIMS];
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x) return mck_fail(c, "%s: input must be a tensor", op);
  if (pa->kind == MCK_UNKNOWN) return mck_fail(c, "%s: pad must be a compile-time constant", op);
  if (pa->kind != MCK_INTS || pa->n % 2 || pa->n / 2 > x->ndim) {
    return mck_fail(c, "%s: pad must be an even-length int list of at most 2*%d values", op, x->ndim);
  }
  int np = pa->n / 2;
  for (int i = 0; i < 2 * np; i++) pads[i] = pa->u.ints[i];
  for (int d = 0; d < x->ndim; d++) {
    int k = x->ndim - 1 - d; /* pair index */
    lo[d] = k < np ? pads[2 * k] : 0;
    int64_t hi = k < np ? pads[2 * k + 1] : 0;
    shape[d] = x->shape[d] + lo[d] + hi;
    if (k < np && mode == KCONV_PAD_REFLECT && (lo[d] >= x->shape[d] || hi >= x->shape[d])) {
      return mck_fail(c, "%s: padding (%lld, %lld) should be less than the input dim %d of "
                      "size %lld", op, (long long)lo[d], (long long)hi, d, (long long)x->shape[d]);
    }
    if (k < np && mode == KCONV_PAD_CIRCULAR && (lo[d] > x->shape[d] || hi > x->shape[d])) {
      return mck_fail(c, "%s: circular padding larger than dim %d of size %lld", op, d,
                      (long long)x->shape[d]);
    }
    if (k < np && mode != KCONV_PAD_CONST && shape[d] > 0 && x->shape[d] == 0) {
      return mck_fail(c, "%s: cannot pad an empty dim %d in this mode", op, d);
    }
    if (shape[d] < 0) return mck_fail(c, "%s: padding makes dim %d negative", op, d);
  }
  mck_tensor *y = out[0].u.t;
  if (mck_out(c, y, x->dtype, x->ndim, shape)) return -1;
  if (c->meta) return 0;
  double v = 0.0;
  if (va->kind != MCK_NONE && !mck_arg_is_scalar(va)) return mck_fail(c, "%s: bad pad value", op);
  if (va->kind != MCK_NONE) v = mck_arg_f(va);
  size_t es = mck_dtype_size(x->dtype);
  unsigned char fill[8];
  mck_tensor ft = *y;
  ft.data = fill;
  ft.offset = 0;
  if (va->kind == MCK_INT && mck_is_int(x->dtype)) mck_seti(&ft, 0, va->u.i);
  else mck_setf(&ft, 0, v);
  int64_t n = mck_numel(y), idx[MCK_MAX_DIMS] = {0};
  const char *xs = (const char *)x->data;
  char *ys = (char *)y->data + (size_t)y->offset * es;
  for (int64_t k = 0; k < n; k++) {
    int64_t off = x->offset;
    int inside = 1;
    for (int d = 0; d < x->ndim && inside; d++) {
      int64_t i = idx[d] - lo[d], S = x->shape[d];
      if (i < 0 || i >= S) {
        if (mode == KCONV_PAD_CONST) inside = 0;
        else if (mode == KCONV_PAD_REPLICATE) i = i < 0 ? 0 : S - 1;
        else if (mode == KCONV_PAD_REFLECT) i = i < 0 ? -i : 2 * (S - 1) - i;
        else i = ((i % S) + S) % S;
      }
      off += i * x->stride[d];
    }
    memcpy(ys + (size_t)k * es, inside ? xs + (size_t)off * es : (const char *)fill, es);
    for (int d = x->ndim - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return 0;
}

/* aten::pad(self, pad, mode="constant", value?) */
static inline int mckc_pad(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  const char *op = "aten::pad";
  const mck_arg *ma = kconv_arg(in, nin, 2);
  int mode = KCONV_PAD_CONST;
  if (ma->kind == MCK_STR) {
    if (!strcmp(ma->u.s, "constant")) mode = KCONV_PAD_CONST;
    else if (!strcmp(ma->u.s, "reflect")) mode = KCONV_PAD_REFLECT;
    else if (!strcmp(ma->u.s, "replicate")) mode = KCONV_PAD_REPLICATE;
    else if (!strcmp(ma->u.s, "circular")) mode = KCONV_PAD_CIRCULAR;
    else return mck_fail(c, "%s: unknown padding mode '%s'", op, ma->u.s);
  } else if (ma->kind != MCK_NONE) {
    return mck_fail(c, "%s: mode must be a string", op);
  }
  const mck_arg *va = kconv_arg(in, nin, 3);
  if (mode != KCONV_PAD_CONST && va->kind != MCK_NONE && mck_arg_f(va) != 0.0) {
    return mck_fail(c, "%s: padding mode '%s' doesn't take in value argument", op, ma->u.s);
  }
  return kconv_pad_run(c, op, out, nout, kconv_tensor(kconv_arg(in, nin, 0)),
                       kconv_arg(in, nin, 1), mode, va);
}
/* aten::constant_pad_nd(self, pad, value=0) */
static inline int mckc_constant_pad_nd(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  return kconv_pad_run(c, "aten::constant_pad_nd", out, nout, kconv_tensor(kconv_arg(in, nin, 0)),
                       kconv_arg(in, nin, 1), KCONV_PAD_CONST, kconv_arg(in, nin, 2));
}
/* aten::reflection_pad{1,2}d(self, padding) */
static inline int mckc_reflection_pad(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                      int nin) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  return kconv_pad_run(c, "aten::reflection_pad", out, nout, kconv_tensor(kconv_arg(in, nin, 0)),
                       kconv_arg(in, nin, 1), KCONV_PAD_REFLECT, &none);
}
/* aten::replication_pad{1,2}d(self, padding) */
static inline int mckc_replication_pad(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  static const mck_arg none = {MCK_NONE, 0, {0}};
  return kconv_pad_run(c, "aten::replication_pad", out, nout,
                       kconv_tensor(kconv_arg(in, nin, 0)), kconv_arg(in, nin, 1),
                       KCONV_PAD_REPLICATE, &none);
}

/* Copies the strided view (ndim, shape, stride, offset) of x's storage into the contiguous
 * output y element by element (bytes, so every dtype is exact). */
static inline void kconv_copy_view(const mck_tensor *x, int ndim, const int64_t *shape,
                                   const int64_t *stride, int64_t offset, mck_tensor *y) {
  size_t es = mck_dtype_size(x->dtype);
  mck_iter it;
  const int64_t *st[1] = {stride};
  int64_t base[1] = {offset};
  mck_iter_init(&it, ndim, shape, 1, st, base);
  const char *xs = (const char *)x->data;
  char *ys = (char *)y->data + (size_t)y->offset * es;
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    memcpy(ys + (size_t)k * es, xs + (size_t)it.off[0] * es, es);
  }
}

/* pixel_shuffle (up = 1): (*, C*r*r, H, W) -> (*, C, H*r, W*r); pixel_unshuffle (up = 0):
 * the inverse. Both are one strided read of the input. */
static inline int kconv_shuffle(mck_ctx *c, const char *op, int up, mck_arg *out, int nout,
                                const mck_arg *in, int nin) {
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  int64_t r = 1, shape[MCK_MAX_DIMS], vs[MCK_MAX_DIMS], vst[MCK_MAX_DIMS];
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || x->ndim < 3) return mck_fail(c, "%s: expected an input of at least 3 dims", op);
  if (kconv_int(c, kconv_arg(in, nin, 1), 1, &r, op, "factor")) return -1;
  int nd = x->ndim, lead = nd - 3;
  if (r < 1) return mck_fail(c, "%s: factor must be positive", op);
  if (lead + 5 > MCK_MAX_DIMS) return mck_fail(c, "%s: too many leading dims", op);
  int64_t C = x->shape[nd - 3], H = x->shape[nd - 2], W = x->shape[nd - 1];
  int64_t sC = x->stride[nd - 3], sH = x->stride[nd - 2], sW = x->stride[nd - 1];
  for (int i = 0; i < lead; i++) {
    shape[i] = vs[i] = x->shape[i];
    vst[i] = x->stride[i];
  }
  int64_t rr, a, b, e;
  if (mck_mul_ovf(r, r, &rr)) return mck_fail(c, "%s: factor %lld too large", op, (long long)r);
  if (up) {
    if (C % rr) return mck_fail(c, "%s: channels %lld not divisible by %lld", op, (long long)C, (long long)rr);
    if (mck_mul_ovf(H, r, &a) || mck_mul_ovf(W, r, &b))
      return mck_fail(c, "%s: output size %lldx%lld times %lld overflows", op, (long long)H, (long long)W, (long long)r);
    shape[lead] = C / rr;
    shape[lead + 1] = a;
    shape[lead + 2] = b;
    /* output (c, h, i, w, j) <- input (c*r*r + i*r + j, h, w); strides saturate (an overflowing
     * one belongs to an extent-1 or empty dim) */
    int64_t v[5] = {C / rr, H, r, W, r},
            s[5] = {mck_mul_sat(sC, rr), sH, mck_mul_sat(sC, r), sW, sC};
    for (int i = 0; i < 5; i++) { vs[lead + i] = v[i]; vst[lead + i] = s[i]; }
  } else {
    if (H % r || W % r) return mck_fail(c, "%s: spatial size %lldx%lld not divisible by %lld", op, (long long)H, (long long)W, (long long)r);
    if (mck_mul_ovf(C, rr, &e)) return mck_fail(c, "%s: %lld channels times %lld overflows", op, (long long)C, (long long)rr);
    shape[lead] = e;
    shape[lead + 1] = H / r;
    shape[lead + 2] = W / r;
    /* output (c, i, j, h, w) <- input (c, h*r + i, w*r + j) */
    int64_t v[5] = {C, r, r, H / r, W / r}, s[5] = {sC, sH, sW, mck_mul_sat(sH, r), mck_mul_sat(sW, r)};
    for (int i = 0; i < 5; i++) { vs[lead + i] = v[i]; vst[lead + i] = s[i]; }
  }
  if (mck_out(c, out[0].u.t, x->dtype, nd, shape)) return -1;
  if (c->meta) return 0;
  kconv_copy_view(x, lead + 5, vs, vst, x->offset, out[0].u.t);
  return 0;
}

/* aten::pixel_shuffle(self, upscale_factor) */
static inline int mckc_pixel_shuffle(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kconv_shuffle(c, "aten::pixel_shuffle", 1, out, nout, in, nin);
}
/* aten::pixel_unshuffle(self, downscale_factor) */
static inline int mckc_pixel_unshuffle(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  return kconv_shuffle(c, "aten::pixel_unshuffle", 0, out, nout, in, nin);
}

/* aten::channel_shuffle(self, groups): channel a*g + b of the output is channel b*(C/g) + a. */
static inline int mckc_channel_shuffle(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  const char *op = "aten::channel_shuffle";
  const mck_tensor *x = kconv_tensor(kconv_arg(in, nin, 0));
  int64_t g = 1, vs[MCK_MAX_DIMS], vst[MCK_MAX_DIMS];
  if (nout < 1 || out[0].kind != MCK_TENSOR) return mck_fail(c, "%s: expects one tensor output", op);
  if (!x || x->ndim < 3) return mck_fail(c, "%s: expected an input of at least 3 dims", op);
  if (x->ndim + 1 > MCK_MAX_DIMS) return mck_fail(c, "%s: too many dims", op);
  if (kconv_int(c, kconv_arg(in, nin, 1), 1, &g, op, "groups")) return -1;
  int64_t C = x->shape[1];
  if (g < 1 || C % g) return mck_fail(c, "%s: %lld channels not divisible into %lld groups", op, (long long)C, (long long)g);
  if (mck_out(c, out[0].u.t, x->dtype, x->ndim, x->shape)) return -1;
  if (c->meta) return 0;
  vs[0] = x->shape[0];
  vst[0] = x->stride[0];
  vs[1] = C / g;
  vst[1] = x->stride[1];
  vs[2] = g;
  vst[2] = x->stride[1] * (C / g);
  for (int d = 2; d < x->ndim; d++) {
    vs[d + 1] = x->shape[d];
    vst[d + 1] = x->stride[d];
  }
  kconv_copy_view(x, x->ndim + 1, vs, vst, x->offset, out[0].u.t);
  return 0;
}

#endif
