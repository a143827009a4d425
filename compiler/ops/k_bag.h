/* k_bag.h — aten::embedding_bag (both overloads) and aten::_embedding_bag: sums, means or
 * maxima of bags of weight rows, the kernel of nn.EmbeddingBag and F.embedding_bag. Its row is
 * in the shape family, beside aten::embedding. Prefix: kb_.
 *
 * As PyTorch 1.13 on CPU: indices and offsets are 1-D int32 / int64 (promoted to one type, the
 * type of the index outputs); bag b holds indices[offsets[b] : offsets[b + 1]] (the last bag
 * runs to the end; with include_last_offset the last offset ends the last bag and must equal
 * the number of indices); offsets[0] must be 0, offsets must not decrease nor pass the end
 * (checked at run time, as every index is against the weight's rows); indices equal to
 * padding_idx are skipped (an explicit negative padding_idx counts from the end; None and the
 * overload without it: no padding); an empty bag gives zeros; per_sample_weights (mode sum
 * only) scale the rows; max keeps the first maximum (a later NaN is not taken).
 * The three other outputs are PyTorch's too: offset2bag (the bag of each index), bag_size (the
 * non-padding count of each bag for mean and max, zeros of offsets' size for sum) and
 * max_indices (the row of each maximum for max, [bags, D]; bag_size for mean; zeros for sum).
 */
#ifndef K_BAG_H
#define K_BAG_H

#include "mck.h"
#include "k_args.h"

/* The four outputs: [bags, D] rows, offset2bag [n2b], bag_size [bsz], max_indices. */
static inline int kb_outs(mck_ctx *c, mck_arg *out, int wdt, int idt, const int64_t *sh, int64_t n2b,
                          int64_t bsz, int64_t mode) {
  if (mck_out(c, out[0].u.t, wdt, 2, sh) || mck_out(c, out[1].u.t, idt, 1, &n2b) ||
      mck_out(c, out[2].u.t, idt, 1, &bsz))
    return -1;
  return mode == 2 ? mck_out(c, out[3].u.t, idt, 2, sh) : mck_out(c, out[3].u.t, idt, 1, &bsz);
}

static inline int kb_embedding_bag_as(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                      int nin, const char *op, int pad_overload) {
  const mck_tensor *w = in[0].u.t, *ix = in[1].u.t, *of = kconv_tensor(kconv_arg(in, nin, 2));
  int64_t mode = 0, pad = -1;
  int ilo = 0;
  const mck_tensor *psw = kconv_tensor(kconv_arg(in, nin, 6));
  if (kconv_int(c, kconv_arg(in, nin, 4), 0, &mode, op, "mode") ||
      kconv_bool(c, kconv_arg(in, nin, 7), 0, 1, &ilo, op, "include_last_offset"))
    return -1;
  if (nout < 4) return mck_fail(c, "%s: expects four outputs", op);
  if (w->ndim != 2) return mck_fail(c, "%s: weight has to be a 2D Tensor, but got Tensor of dimension %d", op, w->ndim);
  if (!of) return mck_fail(c, "%s: offsets has to be a 1D Tensor but got null", op);
  if (ix->ndim != 1)
    return mck_fail(c, "%s: mc supports 1-D indices with offsets (F.embedding_bag and nn.EmbeddingBag flatten 2-D input), got %d-D",
                    op, ix->ndim);
  if (of->ndim != 1) return mck_fail(c, "%s: offsets has to be a 1D Tensor, but got Tensor of dimension %d", op, of->ndim);
  if ((ix->dtype != MCK_I32 && ix->dtype != MCK_I64) || (of->dtype != MCK_I32 && of->dtype != MCK_I64))
    return mck_fail(c, "%s: expected indices and offsets to be int32 or int64, got %s and %s", op,
                    mck_dtype_name(ix->dtype), mck_dtype_name(of->dtype));
  if (w->dtype != MCK_F32 && w->dtype != MCK_F64 && w->dtype != MCK_F16)
    return mck_fail(c, "%s: Expected tensor for argument #1 'weight' to have one of the following scalar types: Float, Double, Half; but got %s instead",
                    op, mck_dtype_name(w->dtype));
  if (mode < 0 || mode > 2) return mck_fail(c, "%s: unknown mode %lld (0 sum, 1 mean, 2 max)", op, (long long)mode);
  int64_t nw = w->shape[0], dd = w->shape[1], ni = ix->shape[0], no = of->shape[0];
  const mck_arg *pa = kconv_arg(in, nin, 8);
  if (pa->kind == MCK_UNKNOWN) return mck_fail(c, "%s: padding_idx must be a compile-time constant", op);
  if (pa->kind == MCK_INT) {
    pad = pa->u.i;
    if (pad_overload) { /* embedding_bag.padding_idx wraps a negative index; _embedding_bag takes -1 as none */
      if (pad < -nw || pad >= nw)
        return mck_fail(c, "%s: padding_idx must be within the number of embeddings, -%lld through %lld, but got %lld",
                        op, (long long)nw, (long long)(nw - 1), (long long)pad);
      if (pad < 0) pad += nw;
    }
  }
  if (psw) {
    if (mode != 0)
      return mck_fail(c, "%s: embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' (got mode='%s').",
                      op, mode == 1 ? "mean" : "max");
    if (psw->dtype != w->dtype)
      return mck_fail(c, "%s: per_sample_weights must have the weight's dtype %s, got %s", op, mck_dtype_name(w->dtype), mck_dtype_name(psw->dtype));
    if (psw->ndim != 1 || psw->shape[0] != ni)
      return mck_fail(c, "%s: per_sample_weights must be 1-D with as many elements as the indices", op);
  }
  if (ilo && no < 1) return mck_fail(c, "%s: include_last_offset: number of offsets should be at least 1", op);
  int64_t nbags = ilo ? no - 1 : no;
  int idt = mck_promote_types(ix->dtype, of->dtype);
  int64_t sh[2] = {nbags, dd};
  int64_t bsz = mode == 0 ? no : nbags;
  /* PyTorch's sum fast path (float32 / float16 rows of unit stride, no padding) leaves
   * offset2bag empty */
  int fast = mode == 0 && pad < 0 && (w->dtype == MCK_F32 || w->dtype == MCK_F16) &&
             (w->stride[1] == 1 || dd <= 1) && (!psw || psw->stride[0] == 1 || ni <= 1);
  int64_t n2b = fast ? 0 : ni;
  if (c->meta) return kb_outs(c, out, w->dtype, idt, sh, n2b, bsz, mode);
  /* offsets and indices are checked before any output is written */
  int64_t prev = 0;
  for (int64_t b = 0; b < no; b++) {
    int64_t v = mck_geti(of, of->offset + b * of->stride[0]);
    if (b == 0 && v != 0)
      return mck_fail(c, "%s: offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got %lld", op, (long long)v);
    if (v < prev || v > ni)
      return mck_fail(c, "%s: offsets[%lld] = %lld: offsets must not decrease and must lie within [0, %lld]", op,
                      (long long)b, (long long)v, (long long)ni);
    prev = v;
  }
  if (ilo && no > 0 && prev != ni)
    return mck_fail(c, "%s: include_last_offset: the last offset (%lld) must equal the number of indices (%lld)", op, (long long)prev, (long long)ni);
  for (int64_t i = 0; i < ni; i++) {
    int64_t v = mck_geti(ix, ix->offset + i * ix->stride[0]);
    if (v < 0 || v >= nw)
      return mck_fail(c, "%s: index %lld is out of range for a weight of %lld rows", op, (long long)v, (long long)nw);
  }
  if (kb_outs(c, out, w->dtype, idt, sh, n2b, bsz, mode)) return -1;
  mck_tensor *o = out[0].u.t, *o2b = out[1].u.t, *bs = out[2].u.t, *mi = out[3].u.t;
  for (int64_t i = 0, b = 0; i < n2b; i++) { /* the bag of index i: offsets[1..] <= i */
    while (b + 1 < no && mck_geti(of, of->offset + (b + 1) * of->stride[0]) <= i) b++;
    mck_seti(o2b, o2b->offset + i, b);
  }
  for (int64_t b = 0; b < bsz; b++) mck_seti(bs, bs->offset + b, 0);
  if (mode != 2)
    for (int64_t b = 0; b < bsz; b++) mck_seti(mi, mi->offset + b, 0);
  for (int64_t b = 0; b < nbags; b++) {
    int64_t lo = mck_geti(of, of->offset + b * of->stride[0]);
    int64_t hi = b + 1 < no ? mck_geti(of, of->offset + (b + 1) * of->stride[0]) : ni;
    int64_t cnt = 0;
    for (int64_t j = 0; j < dd; j++) {
      double acc = 0;
      int64_t arg = 0;
      int first = 1;
      cnt = 0;
      for (int64_t i = lo; i < hi; i++) {
        int64_t r = mck_geti(ix, ix->offset + i * ix->stride[0]);
        if (r == pad) continue;
        double v = mck_getf(w, w->offset + r * w->stride[0] + j * w->stride[1]);
        cnt++;
        if (mode == 2) {
          if (first || v > acc) acc = v, arg = r;
          first = 0;
        } else {
          if (psw) v = (double)(w->dtype == MCK_F32 ? (float)(v * mck_getf(psw, psw->offset + i * psw->stride[0]))
                                                    : v * mck_getf(psw, psw->offset + i * psw->stride[0]));
          acc += v;
        }
      }
      if (mode == 1 && cnt) acc /= (double)cnt;
      mck_setf(o, o->offset + b * dd + j, acc);
      if (mode == 2) mck_seti(mi, mi->offset + b * dd + j, arg);
    }
    if (dd == 0)
      for (int64_t i = lo; i < hi; i++) cnt += mck_geti(ix, ix->offset + i * ix->stride[0]) != pad;
    if (mode != 0) mck_seti(bs, bs->offset + b, cnt);
    if (mode == 1) mck_seti(mi, mi->offset + b, cnt);
  }
  return 0;
}

/* embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
 * per_sample_weights=None, include_last_offset=False) | .padding_idx(..., int? padding_idx) */
static inline int kb_embedding_bag(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kb_embedding_bag_as(c, out, nout, in, nin, "aten::embedding_bag", 1);
}
/* _embedding_bag(..., int padding_idx=-1): -1 is no padding */
static inline int kb__embedding_bag(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  return kb_embedding_bag_as(c, out, nout, in, nin, "aten::_embedding_bag", 0);
}

#endif
