/* k_loss.h — kernels of the loss family: regression losses (mse, l1, smooth_l1, huber),
 * classification losses (nll_loss in every rank, cross_entropy_loss with class indices or class
 * probabilities, binary_cross_entropy with and without logits), kl_div and poisson_nll_loss; the
 * embedding and margin losses (soft_margin, margin_ranking, hinge_embedding, cosine_embedding,
 * triplet_margin, multi_margin, multilabel_margin) are in k_loss_margin.h. Prefix: kloss_.
 *
 * Semantics are PyTorch 1.13's on CPU. `reduction` is the int the graph carries (0 none, 1 mean,
 * 2 sum) and must be known when the node is typed (it decides the output's rank). Operands are
 * float32 or float64 (PyTorch's own dtype rule per op: promoted, or self's, or target's); other
 * dtypes are refused. Each element's loss is computed in double in PyTorch's formula and stored
 * in the output dtype; mean and sum accumulate in double (an empty mean is NaN, as 0/0 in
 * PyTorch). Class targets are bounds-checked at run time ("Target 5 is out of bounds.").
 */
#ifndef MC_K_LOSS_H
#define MC_K_LOSS_H

#include "mck.h"

enum { KLOSS_NONE = 0, KLOSS_MEAN = 1, KLOSS_SUM = 2 };

/* The reduction argument (default 1 when absent); -1 with a message when it is not 0, 1 or 2
 * or not known. */
static inline int kloss_reduction(mck_ctx *c, const char *op, const mck_arg *in, int nin, int k) {
  if (k >= nin || in[k].kind == MCK_NONE) return KLOSS_MEAN;
  if (in[k].kind != MCK_INT)
    return mck_fail(c, "%s: the reduction must be a constant (0 none, 1 mean, 2 sum)", op);
  if (in[k].u.i < 0 || in[k].u.i > 2)
    return mck_fail(c, "%s: reduction %lld is not one of 0 (none), 1 (mean), 2 (sum)", op,
                    (long long)in[k].u.i);
  return (int)in[k].u.i;
}

/* A float argument (default dflt when absent or None); an unknown one reads as dflt in meta. */
static inline double kloss_f(const mck_arg *in, int nin, int k, double dflt) {
  if (k >= nin || !mck_arg_is_scalar(&in[k])) return dflt;
  return mck_arg_f(&in[k]);
}
static inline int64_t kloss_i(const mck_arg *in, int nin, int k, int64_t dflt) {
  if (k >= nin || (in[k].kind != MCK_INT && in[k].kind != MCK_BOOL_ARG)) return dflt;
  return in[k].u.i;
}
/* A scalar that is required to be known in a real run (meta accepts an unknown one). */
static inline int kloss_known(mck_ctx *c, const char *op, const mck_arg *in, int nin, int k,
                              const char *what) {
  if (k < nin && in[k].kind == MCK_UNKNOWN && !c->meta)
    return mck_fail(c, "%s: %s is not known", op, what);
  return 0;
}

static inline const mck_tensor *kloss_opt(const mck_arg *in, int nin, int k) {
  return k < nin && in[k].kind == MCK_TENSOR ? in[k].u.t : NULL;
}

static inline int kloss_float_dtype(mck_ctx *c, const char *op, const char *what,
                                    const mck_tensor *t) {
  if (t->dtype != MCK_F32 && t->dtype != MCK_F64)
    return mck_fail(c, "%s: %s of dtype %s is not supported (float32 and float64 are)", op, what,
                    mck_dtype_name(t->dtype));
  return 0;
}

static inline int kloss_promote(int a, int b) {
  return a == MCK_F64 || b == MCK_F64 ? MCK_F64 : MCK_F32;
}

/* The output of a loss whose unreduced shape is (nd, shape): that shape for none, 0-dim else. */
static inline int kloss_out(mck_ctx *c, mck_arg *out, int red, int dtype, int nd,
                            const int64_t *shape) {
  if (!out[0].u.t) return mck_fail(c, "loss: expects one tensor output");
  if (!mck_shape_fits(nd, shape, 8)) /* the unreduced loss is iterated even when reduced */
    return mck_fail(c, "loss: the operands' broadcast shape has a size beyond int64");
  out[0].kind = MCK_TENSOR;
  return mck_out(c, out[0].u.t, dtype, red == KLOSS_NONE ? nd : 0, shape);
}

/* Accumulates the unreduced losses: stores element k (row-major index) of a none reduction, or
 * adds it to the sum. */
typedef struct kloss_acc {
  mck_tensor *o;
  int red;
  double sum;
  int64_t n;
} kloss_acc;
static inline void kloss_put(kloss_acc *a, int64_t k, double v) {
  if (a->red == KLOSS_NONE) mck_setf(a->o, a->o->offset + k, v);
  else a->sum += v;
  a->n++;
}
/* The reduced result: sum, or sum / n (NaN when n == 0), or divided by `den` when den_given. */
static inline void kloss_finish(kloss_acc *a) {
  if (a->red == KLOSS_SUM) mck_setf(a->o, a->o->offset, a->sum);
  else if (a->red == KLOSS_MEAN) mck_setf(a->o, a->o->offset, a->n ? a->sum / (double)a->n : NAN);
}
static inline void kloss_finish_div(kloss_acc *a, double den) {
  if (a->red == KLOSS_NONE) return;
  if (a->red == KLOSS_SUM) mck_setf(a->o, a->o->offset, a->sum);
  else mck_setf(a->o, a->o->offset, den != 0 ? a->sum / den : (a->sum != a->sum ? a->sum : NAN));
}

/* ---- elementwise losses ---------------------------------------------------------------- */
/* The loss of one element from the operands' values v[] and the op's parameters p[]. */
typedef double (*kloss_elem_fn)(const double *v, const double *p);

/* Shape rules for the unreduced loss of an elementwise loss. */
enum {
  KLOSS_BCAST = 0, /* the broadcast shape of the operands */
  KLOSS_SELF,      /* the broadcast shape, which must be operand 0's */
  KLOSS_TARGET,    /* the broadcast shape, which must be operand 1's */
};

/* loss = reduce(fn(x0, x1, ...)) over the broadcast operands (nops <= 3); dtype given. */
static inline int kloss_elementwise(mck_ctx *c, const char *op, mck_arg *out, int red,
                                    const mck_tensor *const *xs, int nops, int dtype, int rule,
                                    kloss_elem_fn fn, const double *p) {
  int nd = 0;
  int64_t shape[MCK_MAX_DIMS];
  nd = xs[0]->ndim;
  for (int d = 0; d < nd; d++) shape[d] = xs[0]->shape[d];
  for (int k = 1; k < nops; k++) {
    int64_t s2[MCK_MAX_DIMS];
    int n2 = 0;
    if (mck_broadcast_shape(nd, shape, xs[k]->ndim, xs[k]->shape, &n2, s2))
      return mck_fail(c, "%s: the shapes of the operands cannot be broadcast together", op);
    nd = n2;
    for (int d = 0; d < nd; d++) shape[d] = s2[d];
  }
  if (rule != KLOSS_BCAST) {
    const mck_tensor *r = xs[rule == KLOSS_SELF ? 0 : 1];
    int same = r->ndim == nd;
    for (int d = 0; same && d < nd; d++) same = r->shape[d] == shape[d];
    if (!same)
      return mck_fail(c, "%s: the broadcast shape of the operands must be the %s's shape", op,
                      rule == KLOSS_SELF ? "input" : "target");
  }
  if (kloss_out(c, out, red, dtype, nd, shape)) return -1;
  if (c->meta) return 0;
  int64_t st[3][MCK_MAX_DIMS], base[3];
  const int64_t *sts[3];
  for (int k = 0; k < nops; k++) {
    mck_broadcast_strides(xs[k], nd, shape, st[k]);
    sts[k] = st[k];
    base[k] = xs[k]->offset;
  }
  mck_iter it;
  mck_iter_init(&it, nd, shape, nops, sts, base);
  kloss_acc a = {out[0].u.t, red, 0, 0};
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    double v[3];
    for (int q = 0; q < nops; q++) v[q] = mck_getf(xs[q], it.off[q]);
    kloss_put(&a, k, fn(v, p));
  }
  kloss_finish(&a);
  return 0;
}

/* Two float operands (self, target) with a dtype check, for the regression losses. */
static inline int kloss_pair(mck_ctx *c, const char *op, const mck_arg *in, int nin,
                             const mck_tensor **x, const mck_tensor **t) {
  if (nin < 2 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects self and target tensors", op);
  *x = in[0].u.t;
  *t = in[1].u.t;
  if (kloss_float_dtype(c, op, "input", *x) || kloss_float_dtype(c, op, "target", *t)) return -1;
  return 0;
}

static inline double kloss_mse_f(const double *v, const double *p) {
  (void)p;
  double d = v[0] - v[1];
  return d * d;
}
static inline double kloss_l1_f(const double *v, const double *p) {
  (void)p;
  return fabs(v[0] - v[1]);
}
static inline double kloss_smooth_l1_f(const double *v, const double *p) {
  double z = fabs(v[0] - v[1]), beta = p[0];
  if (beta == 0) return z;
  return z < beta ? 0.5 * z * z / beta : z - 0.5 * beta;
}
static inline double kloss_huber_f(const double *v, const double *p) {
  double z = fabs(v[0] - v[1]), delta = p[0];
  return z < delta ? 0.5 * z * z : delta * (z - 0.5 * delta);
}
static inline double kloss_soft_margin_f(const double *v, const double *p) {
  (void)p;
  return log1p(exp(-v[0] * v[1]));
}
static inline double kloss_xlogy_self(double t) {
  if (t != t) return t;
  if (t == 0) return 0;
  return t * log(t);
}
static inline double kloss_kl_div_f(const double *v, const double *p) {
  if (p[0] != 0) return exp(v[1]) * (v[1] - v[0]);
  return kloss_xlogy_self(v[1]) - v[1] * v[0];
}
static inline double kloss_clamp0(double v) { return v < 0 ? 0 : v; }
static inline double kloss_margin_ranking_f(const double *v, const double *p) {
  return kloss_clamp0(-v[2] * (v[0] - v[1]) + p[0]);
}
static inline double kloss_hinge_f(const double *v, const double *p) {
  double m = kloss_clamp0(p[0] - v[0]);
  return (v[1] != 1 ? m : 0.0) + (v[1] != -1 ? v[0] : 0.0);
}
static inline double kloss_poisson_f(const double *v, const double *p) {
  double x = v[0], t = v[1], l;
  l = p[0] != 0 ? exp(x) - t * x : x - t * log(x + p[2]);
  if (p[1] != 0 && !(t <= 1)) l += t * log(t) - t + 0.5 * log(2 * 3.14159265358979323846 * t);
  return l;
}

/* aten::mse_loss(self, target, reduction=1) */
static inline int kloss_mse_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const char *op = "aten::mse_loss";
  const mck_tensor *xs[2] = {NULL, NULL};
  int red = kloss_reduction(c, op, in, nin, 2);
  if (red < 0 || kloss_pair(c, op, in, nin, &xs[0], &xs[1])) return -1;
  return kloss_elementwise(c, op, out, red, xs, 2, kloss_promote(xs[0]->dtype, xs[1]->dtype),
                           KLOSS_BCAST, kloss_mse_f, NULL);
}
/* aten::l1_loss(self, target, reduction=1) */
static inline int kloss_l1_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const char *op = "aten::l1_loss";
  const mck_tensor *xs[2] = {NULL, NULL};
  int red = kloss_reduction(c, op, in, nin, 2);
  if (red < 0 || kloss_pair(c, op, in, nin, &xs[0], &xs[1])) return -1;
  return kloss_elementwise(c, op, out, red, xs, 2, kloss_promote(xs[0]->dtype, xs[1]->dtype),
                           KLOSS_BCAST, kloss_l1_f, NULL);
}
/* aten::smooth_l1_loss(self, target, reduction=1, beta=1.) */
static inline int kloss_smooth_l1_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                       int nin) {
  (void)nout;
  const char *op = "aten::smooth_l1_loss";
  const mck_tensor *xs[2] = {NULL, NULL};
  int red = kloss_reduction(c, op, in, nin, 2);
  if (red < 0 || kloss_pair(c, op, in, nin, &xs[0], &xs[1])) return -1;
  if (kloss_known(c, op, in, nin, 3, "beta")) return -1;
  double p[1] = {kloss_f(in, nin, 3, 1.0)};
  if (p[0] < 0) return mck_fail(c, "%s: smooth_l1_loss does not support negative values for beta.", op);
  return kloss_elementwise(c, op, out, red, xs, 2, kloss_promote(xs[0]->dtype, xs[1]->dtype),
                           KLOSS_BCAST, kloss_smooth_l1_f, p);
}
/* aten::huber_loss(self, target, reduction=1, delta=1.): self's dtype */
static inline int kloss_huber_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const char *op = "aten::huber_loss";
  const mck_tensor *xs[2] = {NULL, NULL};
  int red = kloss_reduction(c, op, in, nin, 2);
  if (red < 0 || kloss_pair(c, op, in, nin, &xs[0], &xs[1])) return -1;
  if (kloss_known(c, op, in, nin, 3, "delta")) return -1;
  double p[1] = {kloss_f(in, nin, 3, 1.0)};
  if (!(p[0] > 0)) return mck_fail(c, "%s: huber_loss does not support non-positive values for delta.", op);
  return kloss_elementwise(c, op, out, red, xs, 2, xs[0]->dtype, KLOSS_BCAST, kloss_huber_f, p);
}
/* aten::soft_margin_loss(self, target, reduction=1) = log1p(exp(-self * target)): self's dtype
 * and shape */
static inline int kloss_soft_margin_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                         int nin) {
  (void)nout;
  const char *op = "aten::soft_margin_loss";
  const mck_tensor *xs[2] = {NULL, NULL};
  int red = kloss_reduction(c, op, in, nin, 2);
  if (red < 0 || kloss_pair(c, op, in, nin, &xs[0], &xs[1])) return -1;
  return kloss_elementwise(c, op, out, red, xs, 2, xs[0]->dtype, KLOSS_SELF, kloss_soft_margin_f,
                           NULL);
}
/* aten::kl_div(self, target, reduction=1, *, log_target=False) */
static inline int kloss_kl_div(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  const char *op = "aten::kl_div";
  const mck_tensor *xs[2] = {NULL, NULL};
  int red = kloss_reduction(c, op, in, nin, 2);
  if (red < 0 || kloss_pair(c, op, in, nin, &xs[0], &xs[1])) return -1;
  if (kloss_known(c, op, in, nin, 3, "log_target")) return -1;
  double p[1] = {(double)kloss_i(in, nin, 3, 0)};
  return kloss_elementwise(c, op, out, red, xs, 2, kloss_promote(xs[0]->dtype, xs[1]->dtype),
                           KLOSS_BCAST, kloss_kl_div_f, p);
}
/* aten::margin_ranking_loss(input1, input2, target, margin=0., reduction=1)
 * = max(0, -target * (input1 - input2) + margin) */
static inline int kloss_margin_ranking_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                            int nin) {
  (void)nout;
  const char *op = "aten::margin_ranking_loss";
  int red = kloss_reduction(c, op, in, nin, 4);
  if (red < 0) return -1;
  if (nin < 3 || in[2].kind != MCK_TENSOR) return mck_fail(c, "%s: expects three tensors", op);
  const mck_tensor *xs[3] = {NULL, NULL, NULL};
  if (kloss_pair(c, op, in, nin, &xs[0], &xs[1])) return -1;
  xs[2] = in[2].u.t;
  if (kloss_float_dtype(c, op, "target", xs[2]) || kloss_known(c, op, in, nin, 3, "margin")) return -1;
  double p[1] = {kloss_f(in, nin, 3, 0.0)};
  int dt = kloss_promote(kloss_promote(xs[0]->dtype, xs[1]->dtype), xs[2]->dtype);
  return kloss_elementwise(c, op, out, red, xs, 3, dt, KLOSS_BCAST, kloss_margin_ranking_f, p);
}
/* aten::hinge_embedding_loss(self, target, margin=1., reduction=1): self where target != -1 plus
 * max(0, margin - self) where target != 1; self's dtype; target of any real dtype */
static inline int kloss_hinge_embedding_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                             int nin) {
  (void)nout;
  const char *op = "aten::hinge_embedding_loss";
  int red = kloss_reduction(c, op, in, nin, 3);
  if (red < 0) return -1;
  if (nin < 2 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects self and target tensors", op);
  const mck_tensor *xs[2] = {in[0].u.t, in[1].u.t};
  if (kloss_float_dtype(c, op, "input", xs[0]) || kloss_known(c, op, in, nin, 2, "margin")) return -1;
  if (xs[1]->dtype == MCK_F16 || xs[1]->dtype == MCK_BF16)
    return mck_fail(c, "%s: a target of dtype %s is not supported", op, mck_dtype_name(xs[1]->dtype));
  double p[1] = {kloss_f(in, nin, 2, 1.0)};
  return kloss_elementwise(c, op, out, red, xs, 2, xs[0]->dtype, KLOSS_BCAST, kloss_hinge_f, p);
}
/* aten::poisson_nll_loss(input, target, log_input, full, eps, reduction) */
static inline int kloss_poisson_nll_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                         int nin) {
  (void)nout;
  const char *op = "aten::poisson_nll_loss";
  const mck_tensor *xs[2] = {NULL, NULL};
  int red = kloss_reduction(c, op, in, nin, 5);
  if (red < 0 || kloss_pair(c, op, in, nin, &xs[0], &xs[1])) return -1;
  for (int k = 2; k <= 4; k++)
    if (kloss_known(c, op, in, nin, k, k == 2 ? "log_input" : k == 3 ? "full" : "eps")) return -1;
  double p[3] = {(double)kloss_i(in, nin, 2, 1), (double)kloss_i(in, nin, 3, 0), kloss_f(in, nin, 4, 1e-8)};
  return kloss_elementwise(c, op, out, red, xs, 2, kloss_promote(xs[0]->dtype, xs[1]->dtype),
                           KLOSS_BCAST, kloss_poisson_f, p);
}

/* ---- binary cross entropy --------------------------------------------------------------- */
/* aten::binary_cross_entropy(self, target, weight=None, reduction=1):
 * -w (t max(log x, -100) + (1 - t) max(log(1 - x), -100)); input values outside [0, 1] are a
 * run-time error; target of self's dtype and shape, weight broadcast to it. */
static inline int kloss_binary_cross_entropy(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                             int nin) {
  (void)nout;
  const char *op = "aten::binary_cross_entropy";
  const mck_tensor *x = NULL, *t = NULL, *w = kloss_opt(in, nin, 2);
  int red = kloss_reduction(c, op, in, nin, 3);
  if (red < 0 || kloss_pair(c, op, in, nin, &x, &t)) return -1;
  if (t->dtype != x->dtype)
    return mck_fail(c, "%s: Found dtype %s but expected %s", op,
                    t->dtype == MCK_F64 ? "Double" : "Float", x->dtype == MCK_F64 ? "Double" : "Float");
  int same = x->ndim == t->ndim;
  for (int d = 0; same && d < x->ndim; d++) same = x->shape[d] == t->shape[d];
  if (!same) return mck_fail(c, "%s: target and input must have the same shape", op);
  if (w && kloss_float_dtype(c, op, "weight", w)) return -1;
  int64_t ws[MCK_MAX_DIMS];
  int nw = 0;
  if (w && (mck_broadcast_shape(w->ndim, w->shape, x->ndim, x->shape, &nw, ws) || nw != x->ndim))
    return mck_fail(c, "%s: the weight cannot be broadcast to the input's shape", op);
  for (int d = 0; w && d < nw; d++)
    if (ws[d] != x->shape[d]) return mck_fail(c, "%s: the weight cannot be broadcast to the input's shape", op);
  if (!c->meta) { /* the values first: nothing is touched on an error */
    mck_iter ic;
    const int64_t *sx[1] = {x->stride};
    int64_t bx[1] = {x->offset};
    mck_iter_init(&ic, x->ndim, x->shape, 1, sx, bx);
    for (int64_t k = 0; k < ic.total; k++, mck_iter_next(&ic)) {
      double xv = mck_getf(x, ic.off[0]);
      if (!(xv >= 0 && xv <= 1)) return mck_fail(c, "%s: all elements of input should be between 0 and 1", op);
    }
  }
  if (kloss_out(c, out, red, x->dtype, x->ndim, x->shape)) return -1;
  if (c->meta) return 0;
  int64_t sw[MCK_MAX_DIMS], zero[MCK_MAX_DIMS] = {0};
  if (w) mck_broadcast_strides(w, x->ndim, x->shape, sw);
  const int64_t *sts[3] = {x->stride, t->stride, w ? sw : zero};
  int64_t base[3] = {x->offset, t->offset, w ? w->offset : 0};
  mck_iter it;
  mck_iter_init(&it, x->ndim, x->shape, 3, sts, base);
  kloss_acc a = {out[0].u.t, red, 0, 0};
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    double xv = mck_getf(x, it.off[0]), tv = mck_getf(t, it.off[1]);
    double l1 = log1p(-xv), l0 = log(xv);
    if (!(l1 >= -100)) l1 = -100;
    if (!(l0 >= -100)) l0 = -100;
    double l = (tv - 1) * l1 - tv * l0;
    if (x->dtype == MCK_F32) l = (double)(float)l;
    if (w) l *= mck_getf(w, it.off[2]);
    kloss_put(&a, k, l);
  }
  kloss_finish(&a);
  return 0;
}

/* aten::binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None, reduction=1):
 * (1 - t) x + lw (log(exp(-m) + exp(-x - m)) + m), m = max(-x, 0), lw = (pos_weight - 1) t + 1
 * (1 without pos_weight), times weight; target's dtype and shape (the others broadcast to it). */
static inline int kloss_binary_cross_entropy_with_logits(mck_ctx *c, mck_arg *out, int nout,
                                                         const mck_arg *in, int nin) {
  (void)nout;
  const char *op = "aten::binary_cross_entropy_with_logits";
  const mck_tensor *x = NULL, *t = NULL, *w = kloss_opt(in, nin, 2), *pw = kloss_opt(in, nin, 3);
  int red = kloss_reduction(c, op, in, nin, 4);
  if (red < 0 || kloss_pair(c, op, in, nin, &x, &t)) return -1;
  const mck_tensor *ops[4] = {x, t, w, pw};
  const char *names[4] = {"input", "target", "weight", "pos_weight"};
  int64_t st[4][MCK_MAX_DIMS];
  for (int k = 0; k < 4; k++) {
    if (!ops[k]) {
      for (int d = 0; d < MCK_MAX_DIMS; d++) st[k][d] = 0;
      continue;
    }
    if (kloss_float_dtype(c, op, names[k], ops[k])) return -1;
    int64_t bs[MCK_MAX_DIMS];
    int nb = 0, ok = !mck_broadcast_shape(ops[k]->ndim, ops[k]->shape, t->ndim, t->shape, &nb, bs) &&
                     nb == t->ndim;
    for (int d = 0; ok && d < nb; d++) ok = bs[d] == t->shape[d];
    if (!ok) return mck_fail(c, "%s: the %s cannot be broadcast to the target's shape", op, names[k]);
    mck_broadcast_strides(ops[k], t->ndim, t->shape, st[k]);
  }
  if (kloss_out(c, out, red, t->dtype, t->ndim, t->shape)) return -1;
  if (c->meta) return 0;
  const int64_t *sts[4] = {st[0], st[1], st[2], st[3]};
  int64_t base[4] = {x->offset, t->offset, w ? w->offset : 0, pw ? pw->offset : 0};
  mck_iter it;
  mck_iter_init(&it, t->ndim, t->shape, 4, sts, base);
  kloss_acc a = {out[0].u.t, red, 0, 0};
  for (int64_t k = 0; k < it.total; k++, mck_iter_next(&it)) {
    double xv = mck_getf(x, it.off[0]), tv = mck_getf(t, it.off[1]);
    double m = -xv < 0 ? 0 : -xv;
    double lg = log(exp(-m) + exp(-xv - m));
    double l = pw ? (1 - tv) * xv + ((mck_getf(pw, it.off[3]) - 1) * tv + 1) * (lg + m)
                  : (1 - tv) * xv + m + lg;
    if (w) l *= mck_getf(w, it.off[2]);
    kloss_put(&a, k, l);
  }
  kloss_finish(&a);
  return 0;
}

/* ---- negative log likelihood and cross entropy --------------------------------------------- */
/* The geometry of a class-score tensor: n batch rows of cls classes over sp positions (element
 * [b, j, s] at b * sb + j * sc + s-th position through the spatial dims), with a target of n * sp
 * class indices. */
typedef struct kloss_cls {
  const mck_tensor *x, *t, *w;
  int64_t n, cls, sp;
  int nsp;                  /* spatial dims of x (2..), also the target's dims after the first */
  int batched;              /* x has a batch dim (x->ndim >= 2) */
  int64_t oshape[MCK_MAX_DIMS];
  int ond;                  /* the unreduced loss shape: the target's */
} kloss_cls;

/* x [b, j, spatial...] element offset, and t [b, spatial...], for spatial position s. */
static inline void kloss_cls_offsets(const kloss_cls *g, int64_t b, int64_t s, int64_t *xo,
                                     int64_t *to) {
  const mck_tensor *x = g->x, *t = g->t;
  int64_t xoff = x->offset, toff = t->offset;
  if (g->batched) {
    xoff += b * x->stride[0];
    if (t->ndim > 0) toff += b * t->stride[0];
  }
  for (int d = g->nsp - 1; d >= 0; d--) {
    int64_t e = x->shape[2 + d], i = s % e;
    s /= e;
    xoff += i * x->stride[2 + d];
    toff += i * t->stride[1 + d];
  }
  *xo = xoff;
  *to = toff;
}
static inline int64_t kloss_cls_stride(const kloss_cls *g) {
  return g->batched ? g->x->stride[1] : g->x->stride[0];
}

/* Checks and fills the geometry shared by nll_loss* and cross_entropy_loss (class indices):
 * x [C] with t [] or x [N, C, d1...] with t [N, d1...]; t int64 (or uint8); weight [C]. */
static inline int kloss_cls_init(mck_ctx *c, const char *op, kloss_cls *g, const mck_tensor *x,
                                 const mck_tensor *t, const mck_tensor *w) {
  g->x = x;
  g->t = t;
  g->w = w;
  if (kloss_float_dtype(c, op, "input", x)) return -1;
  if (t->dtype != MCK_I64 && t->dtype != MCK_U8)
    return mck_fail(c, "%s: expected scalar type Long but found %s", op, mck_dtype_name(t->dtype));
  if (x->ndim < 1) return mck_fail(c, "%s: Expected 1 or more dimensions (got 0)", op);
  g->batched = x->ndim >= 2;
  g->n = g->batched ? x->shape[0] : 1;
  g->cls = g->batched ? x->shape[1] : x->shape[0];
  g->nsp = g->batched ? x->ndim - 2 : 0;
  g->sp = 1;
  for (int d = 0; d < g->nsp; d++) g->sp = mck_mul_sat(g->sp, x->shape[2 + d]);
  if (g->batched && (t->ndim < 1 || t->shape[0] != x->shape[0]))
    return mck_fail(c, "%s: Expected input batch_size (%lld) to match target batch_size (%lld).", op,
                    (long long)x->shape[0], (long long)(t->ndim ? t->shape[0] : 1));
  int ok = g->batched ? t->ndim == x->ndim - 1 : t->ndim == 0;
  for (int d = 0; ok && d < g->nsp; d++) ok = t->shape[1 + d] == x->shape[2 + d];
  if (!ok) {
    char want[160];
    int k = snprintf(want, sizeof want, "[");
    if (g->batched) k += snprintf(want + k, sizeof want - (size_t)k, "%lld", (long long)x->shape[0]);
    for (int d = 0; d < g->nsp && k < 120; d++)
      k += snprintf(want + k, sizeof want - (size_t)k, ", %lld", (long long)x->shape[2 + d]);
    snprintf(want + k, sizeof want - (size_t)k, "]");
    return mck_fail(c, "%s: Expected target size %s, got a target of rank %d", op, want, t->ndim);
  }
  if (w) {
    if (w->dtype != x->dtype)
      return mck_fail(c, "%s: expected scalar type %s but found %s", op, mck_dtype_name(x->dtype),
                      mck_dtype_name(w->dtype));
    if (mck_numel(w) != g->cls)
      return mck_fail(c, "%s: weight tensor should be defined either for all %lld classes or no classes but got a weight of %lld elements",
                      op, (long long)g->cls, (long long)mck_numel(w));
  }
  g->ond = t->ndim;
  for (int d = 0; d < t->ndim; d++) g->oshape[d] = t->shape[d];
  return 0;
}

/* Weight of class j (1 without weights); w may be any layout of numel C (flat index j). */
static inline double kloss_weight(const mck_tensor *w, int64_t j) {
  if (!w) return 1.0;
  int64_t off = w->offset;
  for (int d = w->ndim - 1; d >= 0; d--) {
    off += (j % w->shape[d]) * w->stride[d];
    j /= w->shape[d];
  }
  return mck_getf(w, off);
}

/* log_softmax of x over the classes at (b, s) into lp[0..cls), as PyTorch: x - max -
 * log(sum(exp(x - max))). */
static inline void kloss_log_softmax(const kloss_cls *g, int64_t xo, double *lp) {
  int64_t sc = kloss_cls_stride(g);
  double mx = -INFINITY;
  for (int64_t j = 0; j < g->cls; j++) {
    double v = mck_getf(g->x, xo + j * sc);
    lp[j] = v;
    if (v > mx || v != v) mx = v;
  }
  if (mx != mx) {
    for (int64_t j = 0; j < g->cls; j++) lp[j] = NAN;
    return;
  }
  if (mx == -INFINITY) mx = 0; /* all -inf: PyTorch's result is NaN from (-inf) - (-inf) */
  double s = 0;
  for (int64_t j = 0; j < g->cls; j++) s += exp(lp[j] - mx);
  double ls = log(s);
  int f32 = g->x->dtype == MCK_F32;
  for (int64_t j = 0; j < g->cls; j++) {
    double v = lp[j] - mx - ls;
    lp[j] = f32 ? (double)(float)v : v;
  }
}

/* The nll / cross-entropy core. ls: label smoothing (0: none); logits: x are raw scores whose
 * log_softmax is taken over the classes (cross_entropy), else x are log-probabilities. */
/* Every target a class index or ignore_index (checked before the output is touched). */
static inline int kloss_check_targets(mck_ctx *c, const char *op, const kloss_cls *g,
                                      int64_t ignore) {
  if (c->meta) return 0;
  for (int64_t b = 0; b < g->n; b++)
    for (int64_t s = 0; s < g->sp; s++) {
      int64_t xo, to;
      kloss_cls_offsets(g, b, s, &xo, &to);
      int64_t tj = mck_geti(g->t, to);
      if (tj != ignore && (tj < 0 || tj >= g->cls))
        return mck_fail(c, "%s: Target %lld is out of bounds.", op, (long long)tj);
    }
  return 0;
}

static inline int kloss_nll_run(mck_ctx *c, const char *op, kloss_cls *g, mck_tensor *o, int red,
                                int64_t ignore, int logits, double ls) {
  double *lp = NULL;
  if (logits) {
    lp = (double *)malloc(sizeof(double) * (size_t)(g->cls > 0 ? g->cls : 1));
    if (!lp) return mck_fail(c, "%s: out of memory", op);
  }
  kloss_acc a = {o, red, 0, 0};
  double total_w = 0, smooth_sum = 0;
  int64_t sc = kloss_cls_stride(g), k = 0;
  for (int64_t b = 0; b < g->n; b++)
    for (int64_t s = 0; s < g->sp; s++, k++) {
      int64_t xo, to;
      kloss_cls_offsets(g, b, s, &xo, &to);
      int64_t tj = mck_geti(g->t, to);
      if (tj == ignore) {
        if (red == KLOSS_NONE) mck_setf(o, o->offset + k, 0.0);
        continue;
      }
      double wt = kloss_weight(g->w, tj);
      double xv;
      if (logits) {
        kloss_log_softmax(g, xo, lp);
        xv = lp[tj];
      } else {
        xv = mck_getf(g->x, xo + tj * sc);
      }
      double l = -wt * xv;
      total_w += wt;
      if (ls > 0) {
        double sm = 0;
        for (int64_t j = 0; j < g->cls; j++) sm += lp[j] * kloss_weight(g->w, j);
        sm = -sm;
        if (red == KLOSS_NONE)
          mck_setf(o, o->offset + k, (1 - ls) * l + sm * (ls / (double)g->cls));
        else {
          a.sum += l;
          smooth_sum += sm;
        }
      } else if (red == KLOSS_NONE) {
        mck_setf(o, o->offset + k, l);
      } else {
        a.sum += l;
      }
    }
  free(lp);
  if (red == KLOSS_NONE) return 0;
  double r;
  if (red == KLOSS_SUM) {
    r = ls > 0 ? (1 - ls) * a.sum + smooth_sum * (ls / (double)g->cls) : a.sum;
  } else {
    double nll = a.sum / total_w, sm = smooth_sum / total_w;
    if (total_w == 0) nll = sm = NAN; /* 0 / 0 */
    r = ls > 0 ? (1 - ls) * nll + sm * (ls / (double)g->cls) : nll;
  }
  mck_setf(o, o->offset, r);
  return 0;
}

/* rank rules: 1 nll_loss (input 1-D or 2-D), 2 nll_loss2d (4-D input, 3-D target), 0 any */
static inline int kloss_nll_common(mck_ctx *c, const char *op, int rule, mck_arg *out,
                                   const mck_arg *in, int nin) {
  int red = kloss_reduction(c, op, in, nin, 3);
  if (red < 0) return -1;
  if (nin < 2 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects self and target tensors", op);
  const mck_tensor *x = in[0].u.t, *t = in[1].u.t;
  if (rule == 1 && x->ndim != 1 && x->ndim != 2)
    return mck_fail(c, "%s: input tensor should be 1D or 2D", op);
  if (rule == 1 && t->ndim > 1)
    return mck_fail(c, "%s: 0D or 1D target tensor expected, multi-target not supported", op);
  if (rule == 2 && t->ndim != 3)
    return mck_fail(c, "%s: only batches of spatial targets supported (3D tensors) but got targets of dimension: %d",
                    op, t->ndim);
  if (rule == 2 && x->ndim != 4)
    return mck_fail(c, "%s: only batches of spatial inputs supported (4D tensors), but got input of dimension: %d",
                    op, x->ndim);
  if (kloss_known(c, op, in, nin, 4, "ignore_index")) return -1;
  kloss_cls g;
  if (kloss_cls_init(c, op, &g, x, t, kloss_opt(in, nin, 2))) return -1;
  int64_t ignore = kloss_i(in, nin, 4, -100);
  if (kloss_check_targets(c, op, &g, ignore)) return -1;
  if (kloss_out(c, out, red, x->dtype, g.ond, g.oshape)) return -1;
  if (c->meta) return 0;
  return kloss_nll_run(c, op, &g, out[0].u.t, red, ignore, 0, 0);
}
/* aten::nll_loss(self, target, weight=None, reduction=1, ignore_index=-100): input [C] or [N, C] */
static inline int kloss_nll_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  return kloss_nll_common(c, "aten::nll_loss", 1, out, in, nin);
}
/* aten::nll_loss2d: input [N, C, H, W], target [N, H, W] */
static inline int kloss_nll_loss2d(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  return kloss_nll_common(c, "aten::nll_loss2d", 2, out, in, nin);
}
/* aten::nll_loss_nd: input [C] or [N, C, d1...] of any rank */
static inline int kloss_nll_loss_nd(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in, int nin) {
  (void)nout;
  return kloss_nll_common(c, "aten::nll_loss_nd", 0, out, in, nin);
}

/* Cross entropy with class probabilities: -sum_j w_j t_j log_softmax(x)_j per position, the
 * targets smoothed to t (1 - ls) + ls / C; mean divides by N * spatial. */
static inline int kloss_ce_prob(mck_ctx *c, const char *op, mck_arg *out, int red,
                                const mck_tensor *x, const mck_tensor *t, const mck_tensor *w,
                                double ls) {
  if (kloss_float_dtype(c, op, "input", x)) return -1;
  if (!mck_is_float(t->dtype))
    return mck_fail(c, "%s: Expected floating point type for target with class probabilities, got %s", op,
                    mck_dtype_name(t->dtype));
  if (kloss_float_dtype(c, op, "target", t) || (w && kloss_float_dtype(c, op, "weight", w))) return -1;
  kloss_cls g;
  g.x = x;
  g.t = t;
  g.w = w;
  g.batched = x->ndim >= 2;
  g.n = g.batched ? x->shape[0] : 1;
  g.cls = g.batched ? x->shape[1] : x->shape[0];
  g.nsp = g.batched ? x->ndim - 2 : 0;
  g.sp = 1;
  for (int d = 0; d < g.nsp; d++) g.sp = mck_mul_sat(g.sp, x->shape[2 + d]);
  if (w && mck_numel(w) != g.cls)
    return mck_fail(c, "%s: weight tensor should be defined either for all %lld classes or no classes", op,
                    (long long)g.cls);
  int dt = kloss_promote(x->dtype, t->dtype);
  if (w) dt = kloss_promote(dt, w->dtype);
  int64_t osh[MCK_MAX_DIMS];
  int ond = 0;
  if (g.batched) osh[ond++] = x->shape[0];
  for (int d = 0; d < g.nsp; d++) osh[ond++] = x->shape[2 + d];
  if (kloss_out(c, out, red, dt, ond, osh)) return -1;
  if (c->meta) return 0;
  double *lp = (double *)malloc(sizeof(double) * (size_t)(g.cls > 0 ? g.cls : 1));
  if (!lp) return mck_fail(c, "%s: out of memory", op);
  kloss_acc a = {out[0].u.t, red, 0, 0};
  int64_t k = 0, tsc = g.batched ? t->stride[1] : t->stride[0];
  for (int64_t b = 0; b < g.n; b++)
    for (int64_t s = 0; s < g.sp; s++, k++) {
      int64_t xo, to;
      /* t has x's shape: its offsets follow x's dims with t's strides */
      kloss_cls tg = g;
      mck_tensor tv = *t;
      tv.ndim = t->ndim > 0 ? t->ndim - 1 : 0; /* [b, spatial...] as a "target" */
      if (g.batched) {
        tv.stride[0] = t->stride[0];
        for (int d = 0; d < g.nsp; d++) tv.stride[1 + d] = t->stride[2 + d];
      }
      tg.t = &tv;
      kloss_cls_offsets(&tg, b, s, &xo, &to);
      kloss_log_softmax(&g, xo, lp);
      double l = 0;
      for (int64_t j = 0; j < g.cls; j++) {
        double tj = mck_getf(t, to + j * tsc);
        if (ls > 0) tj = tj * (1 - ls) + ls / (double)g.cls;
        l += lp[j] * tj * kloss_weight(w, j);
      }
      kloss_put(&a, k, -l);
    }
  free(lp);
  if (red == KLOSS_MEAN) kloss_finish_div(&a, g.n * g.sp > 0 ? (double)(g.n * g.sp) : 0);
  else kloss_finish(&a);
  return 0;
}

/* aten::cross_entropy_loss(self, target, weight=None, reduction=1, ignore_index=-100,
 * label_smoothing=0.): class dim 1 (0 for a 1-D input); class indices (int64 target of the
 * batch and spatial shape) or class probabilities (a float target of self's shape). */
static inline int kloss_cross_entropy_loss(mck_ctx *c, mck_arg *out, int nout, const mck_arg *in,
                                           int nin) {
  (void)nout;
  const char *op = "aten::cross_entropy_loss";
  int red = kloss_reduction(c, op, in, nin, 3);
  if (red < 0) return -1;
  if (nin < 2 || in[0].kind != MCK_TENSOR || in[1].kind != MCK_TENSOR)
    return mck_fail(c, "%s: expects self and target tensors", op);
  if (kloss_known(c, op, in, nin, 4, "ignore_index") || kloss_known(c, op, in, nin, 5, "label_smoothing"))
    return -1;
  const mck_tensor *x = in[0].u.t, *t = in[1].u.t, *w = kloss_opt(in, nin, 2);
  int64_t ignore = kloss_i(in, nin, 4, -100);
  double ls = kloss_f(in, nin, 5, 0.0);
  int same = x->ndim == t->ndim;
  for (int d = 0; same && d < x->ndim; d++) same = x->shape[d] == t->shape[d];
  if (x->ndim < 1) return mck_fail(c, "%s: Expected 1 or more dimensions (got 0)", op);
  if (ls > 1) return mck_fail(c, "%s: label_smoothing must be between 0.0 and 1.0. Got: %g", op, ls);
  if (same) {
    if (ignore >= 0 && nin > 4 && in[4].kind != MCK_UNKNOWN)
      return mck_fail(c, "%s: ignore_index is not supported for floating point target", op);
    return kloss_ce_prob(c, op, out, red, x, t, w, ls);
  }
  kloss_cls g;
  if (kloss_cls_init(c, op, &g, x, t, w)) return -1;
  if (kloss_check_targets(c, op, &g, ignore)) return -1;
  if (kloss_out(c, out, red, x->dtype, g.ond, g.oshape)) return -1;
  if (c->meta) return 0;
  return kloss_nll_run(c, op, &g, out[0].u.t, red, ignore, 1, ls > 0 ? ls : 0);
}

#endif
