/* k_loss_margin.h — kernels of the loss family's embedding and margin losses (soft_margin,
 * margin_ranking, hinge_embedding, cosine_embedding, triplet_margin, multi_margin,
 * multilabel_margin). Pasted into generated C after k_loss.h (uses its reduction and operand
 * helpers); semantics as described there. Prefix: kloss_.
 */
#ifndef MC_K_LOSS_MARGIN_H
#define MC_K_LOSS_MARGIN_H

#include "mck.h"
#include "k_loss.h"

/* ---- embedding losses -------------------------------------------------------------------- */
/* aten::cosine_embedding_loss(input1, input2, target, margin=0., reduction=1): inputs [N, D] with
 * target [N], or [D] with a 0-dim target; cos = sum(x1 x2) / sqrt((sum(x1^2) + 1e-12)
 * (sum(x2^2) + 1e-12)); 1 - cos where target == 1, max(0, cos - margin) where target == -1. */
static inline int kloss_cosine_embedding_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                              int nin) {
  (void)nout;
  const char *op = "aten::cosine_embedding_loss";
  int red = kloss_reduction(c, op, in, nin, 4);
  if (red < 0) return -1;
  if (nin < 3 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR || in[2].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects three tensors", op);
  const mck_tensor *a = in[0].u.t, *b = in[1].u.t, *t = in[2].u.t;
  if (kloss_float_dtype(c, op, "input1", a) || kloss_float_dtype(c, op, "input2", b) ||
      kloss_known(c, op, in, nin, 3, "margin"))
    return -1;
  if (t->dtype == MCK_F16 || t->dtype == MCK_BF16)
    return mck_fail(c, "%s: a target of dtype %s is not supported", op, mck_dtype_name(t->dtype));
  if (t->ndim > 1) return mck_fail(c, "%s: 0D or 1D target tensor expected, multi-target not supported", op);
  int want = t->ndim == 1 ? 2 : 1;
  if (a->ndim != want || b->ndim != want)
    return mck_fail(c, "%s: %dD target tensor expects %dD input tensors, but found inputs of ranks %d and %d", op,
                    t->ndim, want, a->ndim, b->ndim);
  int64_t bs[MCK_MAX_DIMS], osh[MCK_MAX_DIMS];
  int nb = 0, no = 0;
  if (mck_broadcast_shape(a->ndim, a->shape, b->ndim, b->shape, &nb, bs))
    return mck_fail(c, "%s: the shapes of input1 and input2 cannot be broadcast together", op);
  /* cos has the broadcast shape without its last dim; the loss broadcasts it with target */
  if (mck_broadcast_shape(nb - 1, bs, t->ndim, t->shape, &no, osh))
    return mck_fail(c, "%s: the target's shape does not match the inputs'", op);
  if (kloss_out(c, out, red, kloss_promote(a->dtype, b->dtype), no, osh)) return -1;
  if (c->meta) return 0;
  double margin = kloss_f(in, nin, 3, 0.0);
  int64_t d = bs[nb - 1], n = no ? osh[0] : 1;
  int64_t sa0 = 0, sb0 = 0, sal = a->shape[a->ndim - 1] == 1 ? 0 : a->stride[a->ndim - 1];
  int64_t sbl = b->shape[b->ndim - 1] == 1 ? 0 : b->stride[b->ndim - 1];
  if (nb == 2) {
    sa0 = a->shape[0] == 1 ? 0 : a->stride[0];
    sb0 = b->shape[0] == 1 ? 0 : b->stride[0];
  }
  int64_t st0 = t->ndim == 1 && t->shape[0] != 1 ? t->stride[0] : 0;
  int64_t ncos = nb == 2 ? bs[0] : 1;
  kloss_acc acc = {out[0].u.t, red, 0, 0};
  for (int64_t i = 0; i < n; i++) {
    int64_t ci = ncos == 1 ? 0 : i;
    double p = 0, m1 = 0, m2 = 0;
    for (int64_t k = 0; k < d; k++) {
      double x1 = mck_getf(a, a->offset + ci * sa0 + k * sal);
      double x2 = mck_getf(b, b->offset + ci * sb0 + k * sbl);
      p += x1 * x2;
      m1 += x1 * x1;
      m2 += x2 * x2;
    }
    double cs = p / sqrt((m1 + 1e-12) * (m2 + 1e-12));
    double tv = mck_getf(t, t->offset + i * st0);
    double l = (tv == 1 ? 1 - cs : 0.0) + (tv == -1 ? kloss_clamp0(cs - margin) : 0.0);
    kloss_put(&acc, i, l);
  }
  kloss_finish(&acc);
  return 0;
}

/* ||v||_p over a row of differences (PyTorch's norm: 0 counts nonzeros, +-inf max/min |v|). */
static inline double kloss_pnorm_add(double acc, double v, double p) {
  double a = fabs(v);
  if (p == 2) return acc + a * a;
  if (p == 1) return acc + a;
  if (p == 0) return acc + (v != 0);
  if (isinf(p)) return p > 0 ? (a > acc || a != a ? a : acc) : (a < acc || a != a ? a : acc);
  return acc + pow(a, p);
}
static inline double kloss_pnorm_init(double p) {
  return isinf(p) && p < 0 ? INFINITY : 0;
}
static inline double kloss_pnorm_end(double acc, double p) {
  if (p == 2) return sqrt(acc);
  if (p == 1 || p == 0 || isinf(p)) return acc;
  return pow(acc, 1.0 / p);
}

/* aten::triplet_margin_loss(anchor, positive, negative, margin=1., p=2., eps=1e-6, swap=False,
 * reduction=1) = max(0, margin + d(a, p) - d(a, n)), d(x, y) = ||x - y + eps||_p over the last
 * dim; with swap, d(a, n) is min(d(a, n), d(p, n)). */
static inline int kloss_triplet_margin_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                            int nin) {
  (void)nout;
  const char *op = "aten::triplet_margin_loss";
  int red = kloss_reduction(c, op, in, nin, 7);
  if (red < 0) return -1;
  if (nin < 3 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR || in[2].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects three tensors", op);
  const mck_tensor *xs[3] = {in[0].u.t, in[1].u.t, in[2].u.t};
  for (int k = 0; k < 3; k++)
    if (kloss_float_dtype(c, op, k == 0 ? "anchor" : k == 1 ? "positive" : "negative", xs[k])) return -1;
  for (int k = 3; k <= 6; k++)
    if (kloss_known(c, op, in, nin, k, "a parameter")) return -1;
  if (xs[0]->ndim != xs[1]->ndim || xs[0]->ndim != xs[2]->ndim)
    return mck_fail(c, "%s: All inputs should have same dimension but got %dD, %dD and %dD", op,
                    xs[0]->ndim, xs[1]->ndim, xs[2]->ndim);
  int nd = xs[0]->ndim;
  if (nd < 1) return mck_fail(c, "%s: inputs of at least 1 dimension expected", op);
  int64_t bs[MCK_MAX_DIMS], tmp[MCK_MAX_DIMS];
  int nb = nd;
  for (int d = 0; d < nd; d++) bs[d] = xs[0]->shape[d];
  for (int k = 1; k < 3; k++) {
    int n2 = 0;
    if (mck_broadcast_shape(nb, bs, nd, xs[k]->shape, &n2, tmp))
      return mck_fail(c, "%s: the shapes of the inputs cannot be broadcast together", op);
    for (int d = 0; d < nb; d++) bs[d] = tmp[d];
  }
  int dt = kloss_promote(kloss_promote(xs[0]->dtype, xs[1]->dtype), xs[2]->dtype);
  if (kloss_out(c, out, red, dt, nd - 1, bs)) return -1;
  if (c->meta) return 0;
  double margin = kloss_f(in, nin, 3, 1.0), p = kloss_f(in, nin, 4, 2.0), eps = kloss_f(in, nin, 5, 1e-6);
  int swap = (int)kloss_i(in, nin, 6, 0);
  int64_t st[3][MCK_MAX_DIMS];
  const int64_t *sts[3];
  int64_t base[3];
  for (int k = 0; k < 3; k++) {
    mck_broadcast_strides(xs[k], nd, bs, st[k]);
    sts[k] = st[k];
    base[k] = xs[k]->offset;
  }
  int64_t dlast = bs[nd - 1];
  mck_iter it; /* over the rows (all dims but the last) */
  mck_iter_init(&it, nd - 1, bs, 3, sts, base);
  kloss_acc acc = {out[0].u.t, red, 0, 0};
  for (int64_t r = 0; r < it.total; r++, mck_iter_next(&it)) {
    double ap = kloss_pnorm_init(p), an = ap, pn = ap;
    for (int64_t k = 0; k < dlast; k++) {
      double va = mck_getf(xs[0], it.off[0] + k * st[0][nd - 1]);
      double vp = mck_getf(xs[1], it.off[1] + k * st[1][nd - 1]);
      double vn = mck_getf(xs[2], it.off[2] + k * st[2][nd - 1]);
      ap = kloss_pnorm_add(ap, va - vp + eps, p);
      an = kloss_pnorm_add(an, va - vn + eps, p);
      if (swap) pn = kloss_pnorm_add(pn, vp - vn + eps, p);
    }
    double dp = kloss_pnorm_end(ap, p), dn = kloss_pnorm_end(an, p);
    if (swap) {
      double ds = kloss_pnorm_end(pn, p);
      if (ds < dn || ds != ds) dn = ds;
    }
    kloss_put(&acc, r, kloss_clamp0(margin + dp - dn));
  }
  kloss_finish(&acc);
  return 0;
}

/* ---- multi-class margin losses ---------------------------------------------------------- */
/* Rows of a [N, C] or [C] (or 0-dim: one class) input: n rows of cls, row r / class j at
 * off + r * sr + j * sc. */
typedef struct kloss_rows {
  int64_t n, cls, sr, sc;
} kloss_rows;
static inline void kloss_rows_of(const mck_tensor *x, kloss_rows *r) {
  r->n = x->ndim == 2 ? x->shape[0] : 1;
  r->cls = x->ndim == 0 ? 1 : x->shape[x->ndim - 1];
  r->sr = x->ndim == 2 ? x->stride[0] : 0;
  r->sc = x->ndim == 0 ? 0 : x->stride[x->ndim - 1];
}

/* aten::multi_margin_loss(self, target, p=1, margin=1, weight=None, reduction=1): per row,
 * sum over j != y of max(0, margin - x[y] + x[j])^p (times weight[y]) / C; p is 1 or 2. */
static inline int kloss_multi_margin_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                          int nin) {
  (void)nout;
  const char *op = "aten::multi_margin_loss";
  int red = kloss_reduction(c, op, in, nin, 5);
  if (red < 0) return -1;
  if (nin < 2 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects self and target tensors", op);
  const mck_tensor *x = in[0].u.t, *t = in[1].u.t, *w = kloss_opt(in, nin, 4);
  if (kloss_float_dtype(c, op, "input", x) || kloss_known(c, op, in, nin, 2, "p") ||
      kloss_known(c, op, in, nin, 3, "margin"))
    return -1;
  double p = kloss_f(in, nin, 2, 1.0), margin = kloss_f(in, nin, 3, 1.0);
  if (p != 1 && p != 2) return mck_fail(c, "%s: only p == 1 and p == 2 supported", op);
  kloss_rows g;
  kloss_rows_of(x, &g);
  if (x->ndim > 2 || (x->ndim >= 1 && g.cls == 0))
    return mck_fail(c, "%s: Expected non-empty vector or matrix with optional 0-dim batch size", op);
  if (t->dtype != MCK_I64) return mck_fail(c, "%s: expected scalar type Long but found %s", op, mck_dtype_name(t->dtype));
  if (t->ndim > 1 || mck_numel(t) != g.n)
    return mck_fail(c, "%s: inconsistent target size, expected %lld", op, (long long)g.n);
  if (w && (w->dtype != x->dtype || mck_numel(w) != g.cls))
    return mck_fail(c, "%s: the weight must have the input's dtype and one value per class", op);
  if (red == KLOSS_MEAN && g.n == 0) return mck_fail(c, "%s: the mean of an empty batch is not supported", op);
  int64_t st = t->ndim ? t->stride[0] : 0;
  if (!c->meta)
    for (int64_t r = 0; r < g.n; r++) {
      int64_t y = mck_geti(t, t->offset + r * st);
      if (y < 0 || y >= g.cls) return mck_fail(c, "%s: target out of range", op);
    }
  int64_t osh[1] = {g.n};
  if (kloss_out(c, out, t->ndim > 0 ? red : KLOSS_SUM, x->dtype, 1, osh)) return -1;
  if (c->meta) return 0;
  kloss_acc a = {out[0].u.t, red, 0, 0};
  for (int64_t r = 0; r < g.n; r++) {
    int64_t y = mck_geti(t, t->offset + r * st), xo = x->offset + r * g.sr;
    double xy = mck_getf(x, xo + y * g.sc), sum = 0, wy = kloss_weight(w, y);
    for (int64_t j = 0; j < g.cls; j++) {
      if (j == y) continue;
      double z = margin - xy + mck_getf(x, xo + j * g.sc);
      if (z > 0) sum += (p == 1 ? z : z * z) * wy;
    }
    kloss_put(&a, r, sum / (double)g.cls);
  }
  kloss_finish(&a);
  return 0;
}

/* aten::multilabel_margin_loss(self, target, reduction=1): target rows of class indices ended
 * by the first -1; per row, sum over those y and the classes j not among them of
 * max(0, 1 - x[y] + x[j]) / C. */
static inline int kloss_multilabel_margin_loss(mck_ctx *c, mck_arg *out, int nout,
                                               const mck_arg *in, int nin) {
  (void)nout;
  const char *op = "aten::multilabel_margin_loss";
  int red = kloss_reduction(c, op, in, nin, 2);
  if (red < 0) return -1;
  if (nin < 2 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects self and target tensors", op);
  const mck_tensor *x = in[0].u.t, *t = in[1].u.t;
  if (kloss_float_dtype(c, op, "input", x)) return -1;
  kloss_rows g, gt;
  kloss_rows_of(x, &g);
  if (x->ndim > 2 || (x->ndim >= 1 && g.cls == 0))
    return mck_fail(c, "%s: Expected non-empty vector or matrix with optional 0-dim batch size", op);
  if (t->dtype != MCK_I64) return mck_fail(c, "%s: expected scalar type Long but found %s", op, mck_dtype_name(t->dtype));
  int same = t->ndim == x->ndim;
  for (int d = 0; same && d < x->ndim; d++) same = t->shape[d] == x->shape[d];
  if (!same) return mck_fail(c, "%s: inconsistent size for argument #2 'target' (the input's shape expected)", op);
  if (red == KLOSS_MEAN && g.n == 0) return mck_fail(c, "%s: the mean of an empty batch is not supported", op);
  kloss_rows_of(t, &gt);
  if (!c->meta)
    for (int64_t r = 0; r < g.n; r++)
      for (int64_t j = 0; j < g.cls; j++) {
        int64_t y = mck_geti(t, t->offset + r * gt.sr + j * gt.sc);
        if (y < -1 || y >= g.cls) return mck_fail(c, "%s: argument #2 'target' is out of range", op);
      }
  int64_t osh[1] = {g.n};
  if (kloss_out(c, out, x->ndim == 2 ? red : KLOSS_SUM, x->dtype, 1, osh)) return -1;
  if (c->meta) return 0;
  unsigned char *is_t = (unsigned char *)malloc((size_t)(g.cls > 0 ? g.cls : 1));
  if (!is_t) return mck_fail(c, "%s: out of memory", op);
  kloss_acc a = {out[0].u.t, red, 0, 0};
  for (int64_t r = 0; r < g.n; r++) {
    int64_t xo = x->offset + r * g.sr, to = t->offset + r * gt.sr;
    memset(is_t, 0, (size_t)(g.cls > 0 ? g.cls : 1));
    for (int64_t k = 0; k < g.cls; k++) {
      int64_t y = mck_geti(t, to + k * gt.sc);
      if (y < 0) break;
      is_t[y] = 1;
    }
    double sum = 0;
    for (int64_t k = 0; k < g.cls; k++) {
      int64_t y = mck_geti(t, to + k * gt.sc);
      if (y < 0) break;
      double xy = mck_getf(x, xo + y * g.sc);
      for (int64_t j = 0; j < g.cls; j++) {
        if (is_t[j]) continue;
        double z = 1 - xy + mck_getf(x, xo + j * g.sc);
        if (z > 0) sum += z;
      }
    }
    kloss_put(&a, r, sum / (double)g.cls);
  }
  free(is_t);
  kloss_finish(&a);
  return 0;
}

#endif
