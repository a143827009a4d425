/* emit_cuda_ops.c — the ops with a device kernel (emit_cuda_int.h): elementwise maps,
 * GEMM, convolution, pooling, normalisation and reductions, and their table (cu_ops[], cu_lookup). */
#include "emit_cuda_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- elementwise --------------------------------------------------------------------------- */
/* y = f(a, b) with b a tensor, a scalar constant, or absent (unary). `functor` is C++ text. */
static bool cu_map_to(Cu *e, const Node *n, const char *functor, int bidx, bool to_bool) {
  const CuDesc *y = cu_out(e, n, 0), *a = cu_tensor(e, n, 0, false), *b = NULL;
  if (!y || !a) return false;
  if (y->dtype != (to_bool ? DT_BOOL : DT_F32))
    return cu_err(e, n, "'%s' has no CUDA implementation for %s (output %%%s)", n->kind, ir_dtype_name(y->dtype), n->outputs[0]->name);
  double bval = 0;
  if (bidx >= 0) {
    const Value *bv = n->inputs[bidx];
    if (!cu_const_f(bv, &bval) || (bv->type->kind == TY_TENSOR && bv->type->ndim > 0)) {
      if (!(b = cu_tensor(e, n, bidx, false))) return false;
    }
  }
  int64_t st[3][IR_MAX_DIMS];
  memcpy(st[0], y->st, sizeof st[0]);
  cu_bcast(a, y->ndim, y->shape, st[1]);
  if (b) cu_bcast(b, y->ndim, y->shape, st[2]);
  fputs("  {\n", e->c);
  cu_nd(e, "d_", y->ndim, y->shape, b ? 3 : 2, st);
  fputs(to_bool ? "    MCU_TRY(mcu_map_bool(s_, " : "    MCU_TRY(mcu_map(s_, ", e->c);
  if (to_bool) cu_ptr(e, y, "unsigned char");
  else cu_fptr(e, y);
  fputs(", ", e->c);
  cu_fptr(e, a);
  fputs(", ", e->c);
  cu_fptr(e, b);
  fputs(", ", e->c);
  cu_float(e->c, bval);
  fprintf(e->c, ", d_, %s), ", functor);
  cu_loc(e, n);
  fputs(");\n  }\n", e->c);
  return true;
}

static bool cu_map(Cu *e, const Node *n, const char *functor, int bidx) { return cu_map_to(e, n, functor, bidx, false); }

static bool cu_unary(Cu *e, const Node *n, const char *functor) { return cu_map(e, n, functor, -1); }

/* gt / lt / ge / le / eq / ne of float32 operands: a bool result */
static bool cu_compare(Cu *e, const Node *n, const char *functor) { return cu_map_to(e, n, functor, 1, true); }

static bool cu_binary(Cu *e, const Node *n, const char *functor) { return cu_map(e, n, functor, 1); }

/* add / sub / rsub with alpha */
static bool cu_binary_alpha(Cu *e, const Node *n, const char *name) {
  double alpha;
  if (!cu_arg_f(e, n, 2, 1.0, &alpha)) return false;
  char f[96], b[48];
  snprintf(f, sizeof f, "%s{%s}", name, cu_flit(b, sizeof b, alpha));
  return cu_map(e, n, f, 1);
}

static bool cu_div(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  if (n->ninputs > 2 && !ir_constant_is_none(n->inputs[2])) return cu_unsupported(e, n, "(with a rounding mode)");
  return cu_map(e, n, "mcu_f_div()", 1);
}

static bool cu_clamp_like(Cu *e, const Node *n, double lo, double hi, bool has_lo, bool has_hi) {
  char f[160], b1[48], b2[48];
  snprintf(f, sizeof f, "mcu_f_clamp{%d, %d, %s, %s}", has_lo, has_hi, cu_flit(b1, sizeof b1, has_lo ? lo : 0.0),
           cu_flit(b2, sizeof b2, has_hi ? hi : 0.0));
  return cu_unary(e, n, f);
}

static bool cu_hardtanh(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  double lo, hi;
  if (!cu_arg_f(e, n, 1, -1.0, &lo) || !cu_arg_f(e, n, 2, 1.0, &hi)) return false;
  return cu_clamp_like(e, n, lo, hi, true, true);
}

static bool cu_relu6(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  return cu_clamp_like(e, n, 0, 6, true, true);
}

static bool cu_clamp(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  bool has_lo = n->ninputs > 1 && !ir_constant_is_none(n->inputs[1]);
  bool has_hi = n->ninputs > 2 && !ir_constant_is_none(n->inputs[2]);
  double lo = 0, hi = 0;
  if ((has_lo && !cu_arg_f(e, n, 1, 0, &lo)) || (has_hi && !cu_arg_f(e, n, 2, 0, &hi))) return false;
  if (isnan(lo) || isnan(hi)) return cu_unsupported(e, n, "(with a NaN bound)");
  return cu_clamp_like(e, n, lo, hi, has_lo, has_hi);
}

static bool cu_leaky_relu(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  double s;
  if (!cu_arg_f(e, n, 1, 0.01, &s)) return false;
  char f[96], b[48];
  snprintf(f, sizeof f, "mcu_f_leaky_relu{%s}", cu_flit(b, sizeof b, s));
  return cu_unary(e, n, f);
}

static bool cu_elu(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  double alpha, scale, iscale;
  if (!cu_arg_f(e, n, 1, 1.0, &alpha) || !cu_arg_f(e, n, 2, 1.0, &scale) || !cu_arg_f(e, n, 3, 1.0, &iscale))
    return false;
  if (scale != 1.0 || iscale != 1.0) return cu_unsupported(e, n, "(with scale or input_scale other than 1)");
  char f[96], b[48];
  snprintf(f, sizeof f, "mcu_f_elu{%s}", cu_flit(b, sizeof b, alpha));
  return cu_unary(e, n, f);
}

static bool cu_gelu(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  const Attr *a = n->ninputs > 1 ? ir_constant_attr(n->inputs[1]) : NULL;
  const char *mode = a && a->kind == ATTR_STR && a->s ? a->s : "none";
  if (!strcmp(mode, "none")) return cu_unary(e, n, "mcu_f_gelu()");
  if (!strcmp(mode, "tanh")) return cu_unary(e, n, "mcu_f_gelu_tanh()");
  return cu_unsupported(e, n, "(unknown approximation)");
}

static bool cu_masked_fill(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  const CuDesc *y = cu_out(e, n, 0), *a = cu_tensor(e, n, 0, false), *m = cu_tensor(e, n, 1, true);
  double v;
  if (!y || !a || !m || !cu_arg_f(e, n, 2, 0, &v)) return false;
  if (m->dtype != DT_BOOL && m->dtype != DT_U8) return cu_unsupported(e, n, "(with a mask that is not bool)");
  int64_t st[3][IR_MAX_DIMS];
  memcpy(st[0], y->st, sizeof st[0]);
  cu_bcast(a, y->ndim, y->shape, st[1]);
  cu_bcast(m, y->ndim, y->shape, st[2]);
  fputs("  {\n", e->c);
  cu_nd(e, "d_", y->ndim, y->shape, 3, st);
  fputs("    MCU_TRY(mcu_masked_fill(s_, ", e->c);
  cu_fptr(e, y);
  fputs(", ", e->c);
  cu_fptr(e, a);
  fputs(", ", e->c);
  cu_ptr(e, m, "unsigned char");
  fputs(", ", e->c);
  cu_float(e->c, v);
  fputs(", d_), ", e->c);
  cu_loc(e, n);
  fputs(");\n  }\n", e->c);
  return true;
}

/* contiguous / clone / reshape or flatten that copies / dropout in eval: y = x, compact */
static bool cu_copy_op(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  const CuDesc *x = cu_tensor(e, n, 0, true);
  const CuDesc *y = n->noutputs ? cu_of(e, n->outputs[0]) : NULL;
  if (!x || !y) return x ? cu_unsupported(e, n, "") : false;
  if (strstr(n->kind, "dropout")) {
    int64_t train;
    if (!cu_arg_i(e, n, 2, 0, &train)) return false;
    if (train) return cu_unsupported(e, n, "(in training mode)");
  }
  if (y->base != CB_ARENA || !cu_compact(y) || cu_numel(x) != cu_numel(y) || x->dtype != y->dtype)
    return cu_unsupported(e, n, "(as a copy)");
  int64_t cs[IR_MAX_DIMS];
  ir_contiguous_strides(x->ndim, x->shape, cs);
  cu_copy_into(e, n, y, cs, x);
  return true;
}

/* cat(tensors, dim): one strided copy per input into its slice of the output */
static bool cu_cat(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  const CuDesc *y = n->noutputs ? cu_of(e, n->outputs[0]) : NULL;
  const Value *lv = n->inputs[0];
  int64_t dim;
  if (!y || !lv->def || !ir_node_is(lv->def, "prim::ListConstruct")) return cu_unsupported(e, n, "(with a list built at run time)");
  if (!cu_arg_i(e, n, 1, 0, &dim)) return false;
  if (dim < 0) dim += y->ndim;
  if (dim < 0 || dim >= y->ndim) return cu_unsupported(e, n, "(dim out of range)");
  int64_t at = 0;
  for (int k = 0; k < lv->def->ninputs; k++) {
    const CuDesc *x = cu_of(e, lv->def->inputs[k]);
    if (!x) return cu_err(e, n, "'%s': operand %%%s has no device storage", n->kind, lv->def->inputs[k]->name);
    if (x->dtype != y->dtype) return cu_unsupported(e, n, "(with mixed dtypes)");
    if (x->ndim == 1 && x->shape[0] == 0 && y->ndim != 1) continue; /* legacy empty input */
    CuDesc part = *y;
    part.off += at * y->st[dim];
    cu_copy_into(e, n, &part, y->st, x);
    at += x->shape[dim];
  }
  return true;
}

/* slice_scatter(self, src, dim, start, end, step) / select_scatter(self, src, dim, index), the
 * writes through views that functionalize leaves: y = self, then src into y's slice (its extent
 * is src's) or selected sub-tensor; two strided copies, any dtype. */
static bool cu_scatter(Cu *e, const Node *n, const char *arg) {
  bool sel = !strcmp(arg, "select");
  const CuDesc *x = cu_tensor(e, n, 0, true), *src = cu_tensor(e, n, 1, true);
  const CuDesc *y = n->noutputs ? cu_of(e, n->outputs[0]) : NULL;
  if (!x || !src) return false;
  if (!y || y->base != CB_ARENA || !cu_compact(y) || x->dtype != y->dtype || src->dtype != y->dtype || x->ndim != y->ndim ||
      memcmp(x->shape, y->shape, sizeof(int64_t) * (size_t)y->ndim))
    return cu_unsupported(e, n, "(as a copy)");
  int64_t dim, start, step = 1;
  if (!cu_arg_i(e, n, 2, 0, &dim) || !cu_arg_i(e, n, 3, 0, &start) || (!sel && !cu_arg_i(e, n, 5, 1, &step))) return false;
  if (dim < 0) dim += y->ndim;
  if (dim < 0 || dim >= y->ndim || step < 1) return cu_unsupported(e, n, "(arguments out of range)");
  int64_t size = y->shape[dim];
  if (start < 0) start += size;
  if (sel && (start < 0 || start >= size)) return cu_unsupported(e, n, "(index out of range)");
  if (start < 0) start = 0;
  if (start > size) start = size;
  CuDesc part = *y;
  part.off += start * y->st[dim];
  if (sel) {
    for (int i = (int)dim; i + 1 < y->ndim; i++) part.shape[i] = y->shape[i + 1], part.st[i] = y->st[i + 1];
    part.ndim--;
  } else {
    if (src->ndim != y->ndim) return cu_unsupported(e, n, "(source rank)");
    part.shape[dim] = src->shape[dim];
    part.st[dim] *= step;
    if (part.shape[dim] > 0 && start + (part.shape[dim] - 1) * step >= size) return cu_unsupported(e, n, "(source extent)");
  }
  if (part.ndim != src->ndim || memcmp(part.shape, src->shape, sizeof(int64_t) * (size_t)src->ndim))
    return cu_unsupported(e, n, "(source shape)");
  cu_copy_into(e, n, y, y->st, x);
  cu_copy_into(e, n, &part, part.st, src);
  return true;
}

/* mc::write_back(%input, %final): final value into the input's storage */
bool cu_write_back(Cu *e, const Node *n) {
  const CuDesc *dst = cu_of(e, n->inputs[0]), *src = cu_of(e, n->inputs[1]);
  if (!dst || !src) return cu_err(e, n, "'%s': operands without device storage", n->kind);
  if (dst->dtype != src->dtype) return cu_unsupported(e, n, "(with a dtype cast)");
  int64_t st[IR_MAX_DIMS];
  CuDesc s2 = *src;
  if (src->ndim != dst->ndim || memcmp(src->shape, dst->shape, sizeof(int64_t) * (size_t)dst->ndim)) {
    cu_bcast(src, dst->ndim, dst->shape, st);
    s2.ndim = dst->ndim;
    memcpy(s2.shape, dst->shape, sizeof s2.shape);
    memcpy(s2.st, st, sizeof s2.st);
  }
  /* the source may overlap the destination: go through scratch */
  CuDesc tmp = s2;
  tmp.base = CB_ARENA;
  tmp.off = 0;
  tmp.dyn = 0;
  tmp.boff = cu_scratch(e, (size_t)cu_numel(&s2) * ir_dtype_size(s2.dtype));
  cu_contig(&tmp);
  cu_copy_into(e, n, &tmp, tmp.st, &s2);
  cu_copy_into(e, n, dst, dst->st, &tmp);
  return true;
}

/* ---- GEMM ---------------------------------------------------------------------------------- */
/* Matrix M[r, c] at r*sr + c*sc as a cuBLAS operand: t = 0 row-major (ld = row stride), t = 1
 * column-major (ld = column stride). False when neither (then the caller copies it compact). */
static bool cu_mat(int64_t R, int64_t C, int64_t sr, int64_t sc, int *t, int64_t *ld) {
  if ((C == 1 || sc == 1) && (R == 1 || sr >= C)) {
    *t = 0;
    *ld = R == 1 ? (C > 1 ? C : 1) : sr;
  } else if ((R == 1 || sr == 1) && (C == 1 || sc >= R)) {
    *t = 1;
    *ld = C == 1 ? (R > 1 ? R : 1) : sc;
  } else {
    return false;
  }
  return *ld > 0 && *ld <= INT_MAX;
}

/* A single stride s with offset(b) = b * s for every batch index b (row-major over shape), or
 * false. Broadcast dims (stride 0) only collapse when every batch stride is 0. */
static bool cu_batch_stride(int nb, const int64_t *shape, const int64_t *st, int64_t *s) {
  int64_t inner = 1;
  *s = 0;
  bool set = false;
  for (int i = nb - 1; i >= 0; i--) {
    if (shape[i] == 1) continue;
    if (!set) {
      if (st[i] % inner) return false;
      *s = st[i] / inner;
      set = true;
    } else if (st[i] != *s * inner) {
      return false;
    }
    inner *= shape[i];
  }
  if (set && *s == 0) return true;
  for (int i = 0; i < nb; i++)
    if (shape[i] != 1 && st[i] == 0) return false;
  return true;
}

/* y[batch..., M, N] (compact) = alpha * A[batch..., M, K] . B[batch..., K, N] + beta * y, where A
 * and B are given by descriptors with shapes broadcast over y's batch dims. */
static bool cu_gemm(Cu *e, const Node *n, const CuDesc *y, CuDesc a, CuDesc b, double alpha, double beta) {
  int nb = y->ndim - 2;
  int64_t M = y->shape[nb], N = y->shape[nb + 1], K = a.shape[a.ndim - 1];
  if (b.shape[b.ndim - 2] != K || a.shape[a.ndim - 2] != M || b.shape[b.ndim - 1] != N)
    return cu_err(e, n, "'%s': internal: GEMM shapes disagree", n->kind);
  if (M > INT_MAX || N > INT_MAX || K > INT_MAX) return cu_unsupported(e, n, "(a matrix extent exceeds INT_MAX)");
  int ta, tb;
  int64_t lda, ldb;
  if (!cu_mat(M, K, a.st[a.ndim - 2], a.st[a.ndim - 1], &ta, &lda)) {
    a = cu_make_compact(e, n, &a);
    cu_mat(M, K, a.st[a.ndim - 2], a.st[a.ndim - 1], &ta, &lda);
  }
  if (!cu_mat(K, N, b.st[b.ndim - 2], b.st[b.ndim - 1], &tb, &ldb)) {
    b = cu_make_compact(e, n, &b);
    cu_mat(K, N, b.st[b.ndim - 2], b.st[b.ndim - 1], &tb, &ldb);
  }
  int64_t bsa[IR_MAX_DIMS] = {0}, bsb[IR_MAX_DIMS] = {0}, batch = 1;
  for (int i = 0; i < nb; i++) {
    int ia = i - (nb - (a.ndim - 2)), ib = i - (nb - (b.ndim - 2));
    bsa[i] = ia >= 0 && a.shape[ia] == y->shape[i] && y->shape[i] != 1 ? a.st[ia] : 0;
    bsb[i] = ib >= 0 && b.shape[ib] == y->shape[i] && y->shape[i] != 1 ? b.st[ib] : 0;
    batch *= y->shape[i];
  }
  if (batch > INT_MAX) return cu_unsupported(e, n, "(batch exceeds INT_MAX)");
  int64_t sa, sb;
  FILE *f = e->c;
  fputs("  {\n", f);
  if (cu_batch_stride(nb, y->shape, bsa, &sa) && cu_batch_stride(nb, y->shape, bsb, &sb)) {
    fprintf(f, "    MCU_BLAS(mcu_gemm(h_, %lld, %lld, %lld, ", (long long)M, (long long)N, (long long)K);
    cu_float(f, alpha);
    fputs(", ", f);
    cu_fptr(e, &a);
    fprintf(f, ", %d, %lld, %lldLL, ", ta, (long long)lda, (long long)sa);
    cu_fptr(e, &b);
    fprintf(f, ", %d, %lld, %lldLL, ", tb, (long long)ldb, (long long)sb);
    cu_float(f, beta);
    fputs(", ", f);
    cu_fptr(e, y);
    fprintf(f, ", %lld, %lldLL, %lld), ", (long long)N, (long long)(M * N), (long long)batch);
  } else {
    /* batch dims that do not collapse: one GEMM per batch, offsets from a table */
    int t = e->tmp++;
    fprintf(f, "    static const long long offs%d_[%lld][2] = {", t, (long long)batch);
    for (int64_t bi = 0; bi < batch; bi++) {
      int64_t r = bi, oa = 0, ob = 0;
      for (int i = nb - 1; i >= 0; i--) {
        int64_t q = r % y->shape[i];
        r /= y->shape[i];
        oa += q * bsa[i];
        ob += q * bsb[i];
      }
      fprintf(f, "%s{%lld, %lld}", bi ? ", " : "", (long long)oa, (long long)ob);
    }
    fprintf(f, "};\n    for (int b_ = 0; b_ < %lld; b_++)\n", (long long)batch);
    fprintf(f, "      MCU_BLAS(mcu_gemm(h_, %lld, %lld, %lld, ", (long long)M, (long long)N, (long long)K);
    cu_float(f, alpha);
    fputs(", ", f);
    cu_fptr(e, &a);
    fprintf(f, " + offs%d_[b_][0], %d, %lld, 0, ", t, ta, (long long)lda);
    cu_fptr(e, &b);
    fprintf(f, " + offs%d_[b_][1], %d, %lld, 0, ", t, tb, (long long)ldb);
    cu_float(f, beta);
    fputs(", ", f);
    cu_fptr(e, y);
    fprintf(f, " + (long long)b_ * %lld, %lld, 0, 1), ", (long long)(M * N), (long long)N);
  }
  cu_loc(e, n);
  fputs(");\n  }\n", f);
  return true;
}

/* Fills y with bias broadcast to y's shape (beta = 1 in the GEMM that follows). */
static void cu_fill_broadcast(Cu *e, const Node *n, const CuDesc *y, const CuDesc *bias) {
  int64_t st[3][IR_MAX_DIMS];
  memcpy(st[0], y->st, sizeof st[0]);
  cu_bcast(bias, y->ndim, y->shape, st[1]);
  fputs("  {\n", e->c);
  cu_nd(e, "d_", y->ndim, y->shape, 2, st);
  fputs("    MCU_TRY(mcu_copy<uint32_t>(s_, ", e->c);
  cu_fptr(e, y);
  fputs(", ", e->c);
  cu_fptr(e, bias);
  fputs(", d_), ", e->c);
  cu_loc(e, n);
  fputs(");\n  }\n", e->c);
}

/* A view of x with dims [..., R, C] swapped to [..., C, R]. */
static CuDesc cu_swap_last(const CuDesc *x) {
  CuDesc t = *x;
  int k = x->ndim;
  t.shape[k - 2] = x->shape[k - 1];
  t.shape[k - 1] = x->shape[k - 2];
  t.st[k - 2] = x->st[k - 1];
  t.st[k - 1] = x->st[k - 2];
  return t;
}

/* x viewed as a matrix [rows, last]: x must be compact (made so) */
static CuDesc cu_as_matrix(Cu *e, const Node *n, const CuDesc *x) {
  CuDesc c = cu_make_compact(e, n, x);
  int64_t last = x->ndim ? x->shape[x->ndim - 1] : 1;
  int64_t rows = last ? cu_numel(x) / last : 0;
  c.ndim = 2;
  c.shape[0] = rows;
  c.shape[1] = last;
  cu_contig(&c);
  return c;
}

static bool cu_linear(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  const CuDesc *y = cu_out(e, n, 0), *x = cu_tensor(e, n, 0, false), *w = cu_tensor(e, n, 1, false), *bias;
  if (!y || !x || !w || !cu_opt_tensor(e, n, 2, &bias)) return false;
  if (w->ndim != 2 || x->ndim < 1) return cu_unsupported(e, n, "(weight must be 2-d)");
  CuDesc a = cu_as_matrix(e, n, x), ym = *y;
  ym.ndim = 2;
  ym.shape[0] = a.shape[0];
  ym.shape[1] = w->shape[0];
  cu_contig(&ym);
  if (bias) cu_fill_broadcast(e, n, &ym, bias);
  return cu_gemm(e, n, &ym, a, cu_swap_last(w), 1.0, bias ? 1.0 : 0.0);
}

static bool cu_matmul(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  const CuDesc *y = cu_out(e, n, 0), *a = cu_tensor(e, n, 0, false), *b = cu_tensor(e, n, 1, false);
  if (!y || !a || !b) return false;
  if (a->ndim < 2 || b->ndim < 2) return cu_unsupported(e, n, "(with a 1-d operand)");
  return cu_gemm(e, n, y, *a, *b, 1.0, 0.0);
}

/* addmm(self, mat1, mat2, beta, alpha) = beta * self + alpha * mat1 @ mat2; baddbmm, batched */
static bool cu_addmm(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  const CuDesc *y = cu_out(e, n, 0), *c = cu_tensor(e, n, 0, false), *a = cu_tensor(e, n, 1, false),
               *b = cu_tensor(e, n, 2, false);
  double beta, alpha;
  if (!y || !c || !a || !b || !cu_arg_f(e, n, 3, 1.0, &beta) || !cu_arg_f(e, n, 4, 1.0, &alpha)) return false;
  if (beta != 0) cu_fill_broadcast(e, n, y, c);
  return cu_gemm(e, n, y, *a, *b, alpha, beta);
}

/* ---- convolution, pooling, normalisation --------------------------------------------------- */
/* An int-list argument as (h, w) pair: one value repeats; for 1-d ops (one2d) h = fill. */
static bool cu_pair(Cu *e, const Node *n, int i, int64_t dflt, int64_t fill, bool one2d, int64_t *h, int64_t *w) {
  int64_t xs[IR_MAX_DIMS];
  int len;
  if (!cu_arg_ints(e, n, i, xs, &len)) return false;
  if (len == 0) {
    *h = one2d ? fill : dflt;
    *w = dflt;
  } else if (one2d) {
    *h = fill;
    *w = xs[0];
  } else {
    *h = xs[0];
    *w = len > 1 ? xs[1] : xs[0];
  }
  return true;
}

static void cu_put_conv(Cu *e, const char *name, const int64_t *g) {
  fprintf(e->c, "    mcu_conv %s = {", name);
  for (int i = 0; i < 16; i++) fprintf(e->c, "%s%lld", i ? ", " : "", (long long)g[i]);
  fputs("};\n", e->c);
}

static bool cu_conv(Cu *e, const Node *n, const char *arg) {
  bool full = !strcmp(arg, "_convolution");
  const CuDesc *y = cu_out(e, n, 0), *x = cu_tensor(e, n, 0, false), *w = cu_tensor(e, n, 1, false), *bias;
  if (!y || !x || !w || !cu_opt_tensor(e, n, 2, &bias)) return false;
  int64_t transposed = 0, groups = 1;
  if (full && !cu_arg_i(e, n, 6, 0, &transposed)) return false;
  if (!cu_arg_i(e, n, full ? 8 : 6, 1, &groups)) return false;
  if (transposed) return cu_unsupported(e, n, "(transposed)");
  if (w->ndim != 4 && w->ndim != 3) return cu_unsupported(e, n, "(only 1-d and 2-d convolutions)");
  /* _convolution_mode: padding "valid" or "same" (symmetric only) */
  const Attr *mode = n->ninputs > 4 && n->inputs[4]->type->kind == TY_STR ? ir_constant_attr(n->inputs[4]) : NULL;
  if (n->ninputs > 4 && n->inputs[4]->type->kind == TY_STR &&
      (!mode || mode->kind != ATTR_STR || !mode->s || (strcmp(mode->s, "valid") && strcmp(mode->s, "same"))))
    return cu_unsupported(e, n, "(with this padding mode)");
  bool one = w->ndim == 3;
  if (x->ndim != w->ndim || y->ndim != w->ndim || groups < 1) return cu_unsupported(e, n, "(batched input expected)");
  int64_t sh, sw, ph = 0, pw = 0, dh, dw;
  if (!cu_pair(e, n, 3, 1, 1, one, &sh, &sw) || (!mode && !cu_pair(e, n, 4, 0, 0, one, &ph, &pw)) ||
      !cu_pair(e, n, 5, 1, 1, one, &dh, &dw))
    return false;
  int64_t N = x->shape[0], C = x->shape[1], H = one ? 1 : x->shape[2], W = x->shape[x->ndim - 1];
  int64_t OC = w->shape[0], kh = one ? 1 : w->shape[2], kw = w->shape[w->ndim - 1];
  int64_t OH = one ? 1 : y->shape[2], OW = y->shape[y->ndim - 1];
  if (mode && !strcmp(mode->s, "same")) {
    if ((dh * (kh - 1)) % 2 || (dw * (kw - 1)) % 2) return cu_unsupported(e, n, "(with asymmetric 'same' padding)");
    ph = dh * (kh - 1) / 2;
    pw = dw * (kw - 1) / 2;
  }
  if (sh < 1 || sw < 1 || (H + 2 * ph - dh * (kh - 1) - 1) / sh + 1 != OH || (W + 2 * pw - dw * (kw - 1) - 1) / sw + 1 != OW)
    return cu_unsupported(e, n, "(output extent)");
  int64_t geo[16] = {N, C, H, W, OC, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw, groups};
  CuDesc xc = cu_make_compact(e, n, x), wc = cu_make_compact(e, n, w);
  FILE *f = e->c;
  if (groups != 1) {
    fputs("  {\n", f);
    cu_put_conv(e, "g_", geo);
    fputs("    MCU_TRY(mcu_conv_direct(s_, ", f);
    cu_fptr(e, &xc);
    fputs(", ", f);
    cu_fptr(e, &wc);
    fputs(", ", f);
    cu_fptr(e, bias);
    fputs(", ", f);
    cu_fptr(e, y);
    fputs(", g_), ", f);
    cu_loc(e, n);
    fputs(");\n  }\n", f);
    return true;
  }
  int64_t K = C * kh * kw, OHW = OH * OW;
  if (bias) {
    fputs("  ", f);
    fputs("MCU_TRY(mcu_fill_bias(s_, ", f);
    cu_fptr(e, y);
    fputs(", ", f);
    cu_fptr(e, bias);
    fprintf(f, ", %lld, %lld, %lld), ", (long long)OC, (long long)OHW, (long long)(N * OC * OHW));
    cu_loc(e, n);
    fputs(");\n", f);
  }
  CuDesc col = xc;
  bool direct = kh == 1 && kw == 1 && sh == 1 && sw == 1 && ph == 0 && pw == 0;
  if (!direct) {
    col.base = CB_ARENA;
    col.off = 0;
    col.dyn = 0;
    col.boff = cu_scratch(e, (size_t)(N * K * OHW) * sizeof(float));
    fputs("  {\n", f);
    cu_put_conv(e, "g_", geo);
    fputs("    MCU_TRY(mcu_im2col(s_, ", f);
    cu_fptr(e, &xc);
    fputs(", ", f);
    cu_fptr(e, &col);
    fputs(", g_), ", f);
    cu_loc(e, n);
    fputs(");\n  }\n", f);
  }
  if (OC > INT_MAX || OHW > INT_MAX || K > INT_MAX || N > INT_MAX) return cu_unsupported(e, n, "(extent exceeds INT_MAX)");
  fprintf(f, "  MCU_BLAS(mcu_gemm(h_, %lld, %lld, %lld, 1.0f, ", (long long)OC, (long long)OHW, (long long)K);
  cu_fptr(e, &wc);
  fprintf(f, ", 0, %lld, 0LL, ", (long long)K);
  cu_fptr(e, &col);
  fprintf(f, ", 0, %lld, %lldLL, %s, ", (long long)OHW, (long long)(K * OHW), bias ? "1.0f" : "0.0f");
  cu_fptr(e, y);
  fprintf(f, ", %lld, %lldLL, %lld), ", (long long)OHW, (long long)(OC * OHW), (long long)N);
  cu_loc(e, n);
  fputs(");\n", f);
  return true;
}

/* max_pool2d / avg_pool2d / adaptive_avg_pool2d (and their 1-d forms) */
static bool cu_pool(Cu *e, const Node *n, const char *arg) {
  int kind = !strcmp(arg, "max") ? 0 : !strcmp(arg, "avg") ? 1 : 2;
  bool one = strstr(n->kind, "1d") != NULL;
  const CuDesc *y = cu_out(e, n, 0), *x = cu_tensor(e, n, 0, false);
  if (!y || !x) return false;
  int sp = one ? 1 : 2;
  if (x->ndim != sp + 1 && x->ndim != sp + 2) return cu_unsupported(e, n, "(input rank)");
  int64_t H = one ? 1 : x->shape[x->ndim - 2], W = x->shape[x->ndim - 1];
  int64_t OH = one ? 1 : y->shape[y->ndim - 2], OW = y->shape[y->ndim - 1];
  int64_t P = H * W > 0 ? cu_numel(x) / (H * W) : 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1, cip = 1, div = 0;
  if (kind != 2) {
    if (!cu_pair(e, n, 1, 1, 1, one, &kh, &kw) || !cu_pair(e, n, 2, 0, 1, one, &sh, &sw) ||
        !cu_pair(e, n, 3, 0, 0, one, &ph, &pw))
      return false;
    if (sw == 0) sh = kh, sw = kw; /* stride [] = kernel size */
    if (kind == 0 && !cu_pair(e, n, 4, 1, 1, one, &dh, &dw)) return false;
    if (kind == 1 && (!cu_arg_i(e, n, 5, 1, &cip) || !cu_arg_i(e, n, 6, 0, &div))) return false;
  }
  CuDesc xc = cu_make_compact(e, n, x);
  FILE *f = e->c;
  fprintf(f, "  {\n    mcu_pool g_ = {%lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %lld, %d, %d, %lld};\n",
          (long long)P, (long long)H, (long long)W, (long long)OH, (long long)OW, (long long)kh, (long long)kw,
          (long long)sh, (long long)sw, (long long)ph, (long long)pw, (long long)dh, (long long)dw, kind, (int)(cip != 0),
          (long long)div);
  fputs("    MCU_TRY(mcu_pool2d(s_, ", f);
  cu_fptr(e, &xc);
  fputs(", ", f);
  cu_fptr(e, y);
  fputs(", g_), ", f);
  cu_loc(e, n);
  fputs(");\n  }\n", f);
  return true;
}

static bool cu_softmax(Cu *e, const Node *n, const char *arg) {
  const CuDesc *y = cu_out(e, n, 0), *x = cu_tensor(e, n, 0, false);
  int64_t dim;
  if (!y || !x || !cu_arg_i(e, n, 1, -1, &dim)) return false;
  if (n->ninputs > 2 && !ir_constant_is_none(n->inputs[2])) {
    int64_t dt;
    if (!ir_constant_int(n->inputs[2], &dt) || dt != 6) return cu_unsupported(e, n, "(with a dtype other than float32)");
  }
  int nd = x->ndim ? x->ndim : 1;
  if (dim < 0) dim += nd;
  if (dim < 0 || dim >= nd) return cu_unsupported(e, n, "(dim out of range)");
  int64_t outer = 1, D = x->ndim ? x->shape[dim] : 1, inner = 1;
  for (int i = 0; i < dim; i++) outer *= x->shape[i];
  for (int i = (int)dim + 1; i < x->ndim; i++) inner *= x->shape[i];
  CuDesc xc = cu_make_compact(e, n, x);
  fputs("  MCU_TRY(mcu_softmax(s_, ", e->c);
  cu_fptr(e, &xc);
  fputs(", ", e->c);
  cu_fptr(e, y);
  fprintf(e->c, ", %lld, %lld, %lld, %d), ", (long long)outer, (long long)D, (long long)inner, !strcmp(arg, "log"));
  cu_loc(e, n);
  fputs(");\n", e->c);
  return true;
}

static bool cu_layer_norm(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  const CuDesc *y = cu_out(e, n, 0), *x = cu_tensor(e, n, 0, false), *w, *b;
  int64_t ns[IR_MAX_DIMS];
  int len;
  double eps;
  if (!y || !x || !cu_arg_ints(e, n, 1, ns, &len) || !cu_opt_tensor(e, n, 2, &w) || !cu_opt_tensor(e, n, 3, &b) ||
      !cu_arg_f(e, n, 4, 1e-5, &eps))
    return false;
  int64_t D = 1;
  for (int i = 0; i < len; i++) D *= ns[i];
  if ((w && (!cu_compact(w) || cu_numel(w) != D)) || (b && (!cu_compact(b) || cu_numel(b) != D)) || D <= 0)
    return cu_unsupported(e, n, "(weight and bias must be compact)");
  CuDesc xc = cu_make_compact(e, n, x);
  fputs("  MCU_TRY(mcu_layer_norm(s_, ", e->c);
  cu_fptr(e, &xc);
  fputs(", ", e->c);
  cu_fptr(e, y);
  fputs(", ", e->c);
  cu_fptr(e, w);
  fputs(", ", e->c);
  cu_fptr(e, b);
  fprintf(e->c, ", %lld, %lld, ", (long long)(cu_numel(x) / D), (long long)D);
  cu_float(e->c, eps);
  fputs("), ", e->c);
  cu_loc(e, n);
  fputs(");\n", e->c);
  return true;
}

static bool cu_batch_norm(Cu *e, const Node *n, const char *arg) {
  (void)arg;
  const CuDesc *y = cu_out(e, n, 0), *x = cu_tensor(e, n, 0, false), *w, *b, *mean, *var;
  int64_t training;
  double eps;
  if (!y || !x || !cu_opt_tensor(e, n, 1, &w) || !cu_opt_tensor(e, n, 2, &b) || !cu_opt_tensor(e, n, 3, &mean) ||
      !cu_opt_tensor(e, n, 4, &var) || !cu_arg_i(e, n, 5, 0, &training) || !cu_arg_f(e, n, 7, 1e-5, &eps))
    return false;
  if (training || !mean || !var) return cu_unsupported(e, n, "(in training mode)");
  if (x->ndim < 2) return cu_unsupported(e, n, "(input rank)");
  int64_t C = x->shape[1], inner = 1;
  for (int i = 2; i < x->ndim; i++) inner *= x->shape[i];
  const CuDesc *ps[4] = {w, b, mean, var};
  for (int i = 0; i < 4; i++)
    if (ps[i] && (!cu_compact(ps[i]) || cu_numel(ps[i]) != C)) return cu_unsupported(e, n, "(parameters must be compact)");
  CuDesc xc = cu_make_compact(e, n, x);
  fputs("  MCU_TRY(mcu_batch_norm(s_, ", e->c);
  cu_fptr(e, &xc);
  for (int i = -1; i < 4; i++) {
    fputs(", ", e->c);
    cu_fptr(e, i < 0 ? y : ps[i]);
  }
  fprintf(e->c, ", %lld, %lld, %lld, ", (long long)C, (long long)inner, (long long)cu_numel(x));
  cu_float(e->c, eps);
  fputs("), ", e->c);
  cu_loc(e, n);
  fputs(");\n", e->c);
  return true;
}

/* sum / mean (arg "sum" / "mean"): over the dims listed (none or [] = all), keepdim only
 * changes the shape; x is read in place with its strides. sum(self, dtype) and
 * sum(self, dim, keepdim, dtype); a dtype other than float32 is refused. */
static bool cu_reduce(Cu *e, const Node *n, const char *arg) {
  const CuDesc *y = cu_out(e, n, 0), *x = cu_tensor(e, n, 0, false);
  if (!y || !x) return false;
  int64_t dims[IR_MAX_DIMS], keep = 0;
  int nd = 0, dt_at = 1;
  if (n->ninputs > 2) {
    if (!cu_arg_ints(e, n, 1, dims, &nd) || !cu_arg_i(e, n, 2, 0, &keep)) return false;
    dt_at = 3;
  }
  if (n->ninputs > dt_at && !ir_constant_is_none(n->inputs[dt_at])) {
    int64_t dt;
    if (!ir_constant_int(n->inputs[dt_at], &dt) || dt != 6) return cu_unsupported(e, n, "(with a dtype other than float32)");
  }
  bool red[IR_MAX_DIMS] = {false};
  for (int i = 0; i < nd; i++) {
    int64_t d = dims[i] < 0 ? dims[i] + (x->ndim ? x->ndim : 1) : dims[i];
    if (d < 0 || d >= (x->ndim ? x->ndim : 1)) return cu_unsupported(e, n, "(dim out of range)");
    if (x->ndim) red[d] = true;
  }
  int nk = 0, nr = 0;
  int64_t ks[IR_MAX_DIMS], kt[IR_MAX_DIMS], rs[IR_MAX_DIMS], rt[IR_MAX_DIMS], nout = 1, nred = 1;
  for (int i = 0; i < x->ndim; i++) {
    if (nd == 0 || red[i]) {
      rs[nr] = x->shape[i], rt[nr++] = x->st[i];
      nred *= x->shape[i];
    } else {
      ks[nk] = x->shape[i], kt[nk++] = x->st[i];
      nout *= x->shape[i];
    }
  }
  if (cu_numel(y) != nout) return cu_unsupported(e, n, "(output shape)");
  fputs("  {\n", e->c);
  fprintf(e->c, "    mcu_red g_ = {%d, %d, ", nk, nr);
  cu_dims(e->c, nk, ks);
  fputs(", ", e->c);
  cu_dims(e->c, nk, kt);
  fputs(", ", e->c);
  cu_dims(e->c, nr, rs);
  fputs(", ", e->c);
  cu_dims(e->c, nr, rt);
  fprintf(e->c, ", %lld, %lld, ", (long long)nout, (long long)nred);
  cu_float(e->c, !strcmp(arg, "mean") ? (double)nred : 1.0);
  fputs("};\n    MCU_TRY(mcu_reduce(s_, ", e->c);
  cu_fptr(e, x);
  fputs(", ", e->c);
  cu_fptr(e, y);
  fputs(", g_), ", e->c);
  cu_loc(e, n);
  fputs(");\n  }\n", e->c);
  return true;
}

/* ---- the table: ops with a CUDA implementation --------------------------------------------- */

static bool cu_add(Cu *e, const Node *n, const char *arg) { return cu_binary_alpha(e, n, arg); }

static const CuOp cu_ops[] = {
    {"aten::add", cu_add, "mcu_f_add"},
    {"aten::sub", cu_add, "mcu_f_sub"},
    {"aten::rsub", cu_add, "mcu_f_rsub"},
    {"aten::mul", cu_binary, "mcu_f_mul()"},
    {"aten::div", cu_div, NULL},
    {"aten::true_divide", cu_div, NULL},
    {"aten::pow", cu_binary, "mcu_f_pow()"},
    {"aten::maximum", cu_binary, "mcu_f_maximum()"},
    {"aten::minimum", cu_binary, "mcu_f_minimum()"},
    {"aten::gt", cu_compare, "mcu_f_gt()"},
    {"aten::lt", cu_compare, "mcu_f_lt()"},
    {"aten::ge", cu_compare, "mcu_f_ge()"},
    {"aten::le", cu_compare, "mcu_f_le()"},
    {"aten::eq", cu_compare, "mcu_f_eq()"},
    {"aten::ne", cu_compare, "mcu_f_ne()"},
    {"aten::neg", cu_unary, "mcu_f_neg()"},
    {"aten::abs", cu_unary, "mcu_f_abs()"},
    {"aten::relu", cu_unary, "mcu_f_relu()"},
    {"aten::sigmoid", cu_unary, "mcu_f_sigmoid()"},
    {"aten::tanh", cu_unary, "mcu_f_tanh()"},
    {"aten::exp", cu_unary, "mcu_f_exp()"},
    {"aten::log", cu_unary, "mcu_f_log()"},
    {"aten::sqrt", cu_unary, "mcu_f_sqrt()"},
    {"aten::rsqrt", cu_unary, "mcu_f_rsqrt()"},
    {"aten::reciprocal", cu_unary, "mcu_f_reciprocal()"},
    {"aten::erf", cu_unary, "mcu_f_erf()"},
    {"aten::sin", cu_unary, "mcu_f_sin()"},
    {"aten::cos", cu_unary, "mcu_f_cos()"},
    {"aten::silu", cu_unary, "mcu_f_silu()"},
    {"aten::hardswish", cu_unary, "mcu_f_hardswish()"},
    {"aten::hardsigmoid", cu_unary, "mcu_f_hardsigmoid()"},
    {"aten::gelu", cu_gelu, NULL},
    {"aten::hardtanh", cu_hardtanh, NULL},
    {"aten::relu6", cu_relu6, NULL},
    {"aten::clamp", cu_clamp, NULL},
    {"aten::leaky_relu", cu_leaky_relu, NULL},
    {"aten::elu", cu_elu, NULL},
    {"aten::masked_fill", cu_masked_fill, NULL},
    {"aten::contiguous", cu_copy_op, NULL},
    {"aten::clone", cu_copy_op, NULL},
    {"aten::reshape", cu_copy_op, NULL},
    {"aten::flatten", cu_copy_op, NULL},
    {"aten::dropout", cu_copy_op, NULL},
    {"aten::feature_dropout", cu_copy_op, NULL},
    {"aten::cat", cu_cat, NULL},
    {"aten::slice_scatter", cu_scatter, "slice"},
    {"aten::select_scatter", cu_scatter, "select"},
    {"aten::linear", cu_linear, NULL},
    {"aten::matmul", cu_matmul, NULL},
    {"aten::bmm", cu_matmul, NULL},
    {"aten::mm", cu_matmul, NULL},
    {"aten::addmm", cu_addmm, NULL},
    {"aten::baddbmm", cu_addmm, NULL},
    {"aten::_convolution", cu_conv, "_convolution"},
    {"aten::conv2d", cu_conv, "conv"},
    {"aten::conv1d", cu_conv, "conv"},
    {"aten::_convolution_mode", cu_conv, "conv"},
    {"aten::max_pool2d", cu_pool, "max"},
    {"aten::max_pool1d", cu_pool, "max"},
    {"aten::avg_pool2d", cu_pool, "avg"},
    {"aten::avg_pool1d", cu_pool, "avg"},
    {"aten::adaptive_avg_pool2d", cu_pool, "adaptive"},
    {"aten::adaptive_avg_pool1d", cu_pool, "adaptive"},
    {"aten::sum", cu_reduce, "sum"},
    {"aten::mean", cu_reduce, "mean"},
    {"aten::softmax", cu_softmax, "soft"},
    {"aten::log_softmax", cu_softmax, "log"},
    {"aten::layer_norm", cu_layer_norm, NULL},
    {"aten::batch_norm", cu_batch_norm, NULL},
};

const CuOp *cu_lookup(const char *name) {
  for (size_t i = 0; i < sizeof cu_ops / sizeof cu_ops[0]; i++)
    if (!strcmp(cu_ops[i].name, name)) return &cu_ops[i];
  return NULL;
}

bool emit_cuda_has_device_kernel(const char *kind) { return kind && cu_lookup(kind) != NULL; }
