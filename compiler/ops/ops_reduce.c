/* ops_reduce.c — the reduction family's rows: sums, means, products, extrema with indices,
 * softmax, variance, norms, all/any, cumulative sums. Kernels are in k_reduce.h. All are pure:
 * each writes only its fresh outputs. */
#include "ops.h"

#include "k_reduce.h"

#define RED(name, kern, nmin, nmax, schema, doc)                                                  \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, 0, schema, doc)

static const OpDef rows[] = {
    RED("sum", mck_sum, 1, 4, "(Tensor self, int[]? dim=None, bool keepdim=False, *, int? dtype=None) -> Tensor",
        "sum over dims (None/[]: all); ints and bools give int64"),
    RED("mean", mck_mean, 1, 4, "(Tensor self, int[]? dim=None, bool keepdim=False, *, int? dtype=None) -> Tensor",
        "mean over dims; floating only (or with dtype)"),
    RED("prod", mck_prod, 1, 4, "(Tensor self, [int dim, bool keepdim=False,] *, int? dtype=None) -> Tensor",
        "product over one dim or all; ints and bools give int64"),
    RED("amax", mck_amax, 1, 3, "(Tensor self, int[] dim=[], bool keepdim=False) -> Tensor", "max over dims, NaN propagates"),
    RED("amin", mck_amin, 1, 3, "(Tensor self, int[] dim=[], bool keepdim=False) -> Tensor", "min over dims, NaN propagates"),
    RED("max", mck_max, 1, 3, "(Tensor self) -> Tensor | (Tensor self, Tensor other) -> Tensor | (Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        "max of all elements; elementwise max; or per dim with the first index of the max"),
    RED("min", mck_min, 1, 3, "(Tensor self) -> Tensor | (Tensor self, Tensor other) -> Tensor | (Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
        "min of all elements; elementwise min; or per dim with the first index of the min"),
    RED("argmax", mck_argmax, 1, 3, "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
        "int64 index of the first max (None: in the flattened tensor)"),
    RED("argmin", mck_argmin, 1, 3, "(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", "int64 index of the first min"),
    RED("softmax", mck_softmax, 2, 3, "(Tensor self, int dim, int? dtype=None) -> Tensor", "exp(x - max) / sum along dim"),
    RED("_softmax", mck_softmax, 3, 3, "(Tensor self, int dim, bool half_to_float) -> Tensor", "softmax"),
    RED("log_softmax", mck_log_softmax, 2, 3, "(Tensor self, int dim, int? dtype=None) -> Tensor", "x - logsumexp along dim"),
    RED("_log_softmax", mck_log_softmax, 3, 3, "(Tensor self, int dim, bool half_to_float) -> Tensor", "log_softmax"),
    RED("var", mck_var, 1, 4, "(Tensor self, bool unbiased=True) | (Tensor self, int[]? dim, bool unbiased=True, bool keepdim=False) | (Tensor self, int[]? dim, *, int? correction, bool keepdim=False) -> Tensor",
        "sum((x - mean)^2) / (N - correction); correction 1 unless unbiased=False"),
    RED("std", mck_std, 1, 4, "(as var) -> Tensor", "sqrt(var)"),
    RED("norm", mck_norm, 1, 5, "(Tensor self, Scalar? p=2[, int[] dim, bool keepdim=False][, *, int dtype]) -> Tensor",
        "p-norm over dims (None/[]: all); p = inf, -inf, 0 supported"),
    RED("linalg_vector_norm", mck_linalg_vector_norm, 1, 5,
        "(Tensor self, Scalar ord=2, int[]? dim=None, bool keepdim=False, *, int? dtype=None) -> Tensor", "p-norm over dims"),
    RED("frobenius_norm", mck_frobenius_norm, 1, 3, "(Tensor self, int[] dim, bool keepdim=False) -> Tensor", "2-norm over dims"),
    RED("all", mck_all, 1, 3, "(Tensor self[, int dim, bool keepdim=False]) -> Tensor", "every element nonzero (bool; uint8 for uint8)"),
    RED("any", mck_any, 1, 3, "(Tensor self[, int dim, bool keepdim=False]) -> Tensor", "some element nonzero (bool; uint8 for uint8)"),
    RED("cumsum", mck_cumsum, 2, 3, "(Tensor self, int dim, *, int? dtype=None) -> Tensor", "running sum along dim; ints give int64"),
    RED("cumprod", mck_cumprod, 2, 3, "(Tensor self, int dim, *, int? dtype=None) -> Tensor", "running product along dim"),
    RED("logsumexp", mck_logsumexp, 2, 3, "(Tensor self, int[] dim, bool keepdim=False) -> Tensor",
        "log(sum(exp(x))) over dims, stable; ints give float32"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 23, "reduce op table size");

const OpFamily ops_family_reduce = {"reduce", rows, (int)(sizeof rows / sizeof rows[0])};
