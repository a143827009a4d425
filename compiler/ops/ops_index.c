/* ops_index.c — the index family's rows: sorting and selection, searching, scatter/gather-style
 * indexing, shape-level ops built on them, paired reductions, counting and the random ops.
 * Kernels in k_index.h (whose top comment states the tie orders, the run-time index checks, the
 * refusal of data-dependent sizes and the random generator). */
#include "ops.h"

#include "k_index.h"

#define PURE(name, kern, nmin, nmax, schema, doc)                                                 \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, 0, schema, doc)

#define INPLACE(name, kern, func, nmin, nmax, schema, doc)                                        \
  OPDEF("aten::" name, kern, EFF_WRITE, 0, func, nmin, nmax, 0, schema, doc)

#define RANDOM(name, kern, nmin, nmax, schema, doc)                                               \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, OPF_NONDET, schema, doc)

static const OpDef rows[] = {
    /* sorting and selection */
    PURE("sort", ki_sort, 1, 4,
         "(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices) | "
         "(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
         "values sorted along dim and their int64 indices; NaN largest; ties as PyTorch's std::sort, or in index order when stable"),
    PURE("argsort", ki_argsort, 1, 4,
         "(Tensor self, int dim=-1, bool descending=False) -> Tensor | "
         "(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor",
         "the indices of sort"),
    PURE("msort", ki_msort, 1, 1, "(Tensor self) -> Tensor", "values of sort along dim 0"),
    PURE("topk", ki_topk, 2, 5,
         "(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)",
         "the k largest (smallest) along dim and their indices; ties as PyTorch's partial_sort / nth_element"),
    PURE("kthvalue", ki_kthvalue, 2, 4,
         "(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
         "the k-th smallest along dim and its index (ATen's quick select)"),
    PURE("median", ki_median, 1, 3,
         "(Tensor self) -> Tensor | (Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         "lower median (NaN if any); with dim also its index"),
    PURE("nanmedian", ki_nanmedian, 1, 3,
         "(Tensor self) -> Tensor | (Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         "lower median of the non-NaN values; with dim also its index"),
    OPDEF("aten::_unique2", ki_unique2, EFF_PURE, 0, NULL, 1, 4, OPF_DATA_SIZED,
          "(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)",
          "torch.unique: the distinct elements ascending, the inverse (self's shape, or [0]) and counts ([n], or [0]); n known at run time; NaNs distinct, sorted=False refused"),
    OPDEF("aten::unique_dim", ki_unique_dim, EFF_PURE, 0, NULL, 2, 5, OPF_DATA_SIZED | OPF_STRIDED_OUT,
          "(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> "
          "(Tensor, Tensor, Tensor)",
          "the distinct slices along dim, sorted (whatever sorted says, as PyTorch), the inverse and counts "
          "(always computed, as PyTorch)"),
    OPDEF("aten::unique_consecutive", ki_unique_consecutive, EFF_PURE, 0, NULL, 1, 4, OPF_DATA_SIZED,
          "(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)",
          "runs of equal elements in row-major order (dim=None), their inverse and counts as _unique2"),
    PURE("mode", ki_mode, 1, 3,
         "(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
         "most frequent value along dim (smallest of equals) and an index of it"),
    /* searching */
    PURE("searchsorted", ki_searchsorted, 2, 6,
         "(Tensor sorted_sequence, Tensor|Scalar self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor",
         "insertion points of self in the innermost dim of sorted_sequence (through sorter); int64 or int32"),
    PURE("bucketize", ki_bucketize, 2, 4,
         "(Tensor|Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
         "searchsorted(boundaries, self) for 1-D boundaries"),

    /* scatter-style writes: the functional op writes a fresh copy of self, the in-place twin self */
    PURE("scatter", ki_scatter, 4, 5,
         "(Tensor self, int dim, Tensor index, Tensor|Scalar src) -> Tensor | "
         "(Tensor self, int dim, Tensor index, Tensor|Scalar src, *, str reduce) -> Tensor",
         "copy of self with out[..index[i]..] = src[i] (or value); reduce 'add'/'multiply'; int64 index checked"),
    INPLACE("scatter_", ki_scatter_, "aten::scatter", 4, 5,
            "(Tensor(a!) self, int dim, Tensor index, Tensor|Scalar src) -> Tensor(a!) | "
            "(Tensor(a!) self, int dim, Tensor index, Tensor|Scalar src, *, str reduce) -> Tensor(a!)",
            "scatter in place"),
    PURE("scatter_add", ki_scatter_add, 4, 4, "(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
         "copy of self with out[..index[i]..] += src[i]"),
    INPLACE("scatter_add_", ki_scatter_add_, "aten::scatter_add", 4, 4,
            "(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", "scatter_add in place"),
    PURE("scatter_reduce", ki_scatter_reduce, 5, 6,
         "(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor",
         "copy of self reduced with src at index: sum, prod, mean (floor for integers), amax, amin (NaN propagates)"),
    INPLACE("scatter_reduce_", ki_scatter_reduce_, "aten::scatter_reduce", 5, 6,
            "(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor(a!)",
            "scatter_reduce in place"),
    PURE("index_add", ki_index_add, 4, 5,
         "(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
         "copy of self with rows index[j] along dim += alpha * source's row j"),
    INPLACE("index_add_", ki_index_add_, "aten::index_add", 4, 5,
            "(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)", "index_add in place"),
    PURE("index_copy", ki_index_copy, 4, 4, "(Tensor self, int dim, Tensor index, Tensor source) -> Tensor",
         "copy of self with rows index[j] along dim = source's row j"),
    INPLACE("index_copy_", ki_index_copy_, "aten::index_copy", 4, 4,
            "(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)", "index_copy in place"),
    PURE("index_fill", ki_index_fill, 4, 4, "(Tensor self, int dim, Tensor index, Tensor|Scalar value) -> Tensor",
         "copy of self with rows index along dim = value (negative indices wrap)"),
    INPLACE("index_fill_", ki_index_fill_, "aten::index_fill", 4, 4,
            "(Tensor(a!) self, int dim, Tensor index, Tensor|Scalar value) -> Tensor(a!)", "index_fill in place"),
    PURE("put", ki_put, 3, 4, "(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor",
         "copy of self with self.flatten()[index] = source (+= when accumulate)"),
    INPLACE("put_", ki_put_, "aten::put", 3, 4,
            "(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)", "put in place"),
    OPDEF("aten::nonzero", ki_nonzero, EFF_PURE, 0, NULL, 1, 1, OPF_DATA_SIZED | OPF_STRIDED_OUT, "(Tensor self) -> Tensor",
          "int64 [n, self.dim()]: the indices of the nonzero elements, row-major (n known at run time)"),
    OPDEF_STRUCT("aten::nonzero_numpy", EFF_PURE, 1, 1, "(Tensor self) -> Tensor[]",
                 "nonzero(as_tuple=True) under trace: nonzero(self).unbind(1), a 0-d self as 1-d (sized by the data)"),
    OPDEF("aten::argwhere", ki_argwhere, EFF_PURE, 0, NULL, 1, 1, OPF_DATA_SIZED | OPF_STRIDED_OUT, "(Tensor self) -> Tensor",
          "nonzero"),
    OPDEF("aten::masked_select", ki_masked_select, EFF_PURE, 0, NULL, 2, 2, OPF_DATA_SIZED,
          "(Tensor self, Tensor mask) -> Tensor",
          "1-d: the elements of self where the bool mask (broadcast with self) is true, row-major (size known at run time)"),
    PURE("masked_scatter", ki_masked_scatter, 3, 3, "(Tensor self, Tensor mask, Tensor source) -> Tensor",
         "self (broadcast with mask) with the true positions taking source's elements in order"),
    INPLACE("masked_scatter_", ki_masked_scatter_, "aten::masked_scatter", 3, 3,
            "(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", "masked_scatter in place"),
    PURE("take", ki_take, 2, 2, "(Tensor self, Tensor index) -> Tensor", "self.flatten()[index], shaped as index"),
    PURE("take_along_dim", ki_take_along_dim, 2, 3, "(Tensor self, Tensor indices, int? dim=None) -> Tensor",
         "gather along dim with self and indices broadcast; None: from the flattened self"),
    /* shape-level ops */
    PURE("tile", ki_tile, 2, 2, "(Tensor self, int[] dims) -> Tensor", "repeat with dims padded by leading ones"),
    OPDEF("aten::broadcast_to", ki_broadcast_to, EFF_VIEW, 0, NULL, 2, 2, 0, "(Tensor(a) self, int[] size) -> Tensor(a)",
          "self.expand(size): a view"),
    /* a list of views: infer takes it apart (prim::ListUnpack, constant-index __getitem__) into
     * one aten::broadcast_to per tensor */
    OPDEF_STRUCT("aten::broadcast_tensors", EFF_VIEW, 1, 1, "(Tensor[] tensors) -> Tensor[]",
                 "every tensor expanded to the broadcast shape of all (views)"),
    PURE("repeat_interleave", ki_repeat_interleave, 1, 4,
         "(Tensor repeats, *, int? output_size=None) -> Tensor | "
         "(Tensor self, Tensor|int repeats, int? dim=None, *, int? output_size=None) -> Tensor",
         "each element (row along dim; flattened without dim) repeated; a repeats tensor must be a constant or output_size given"),
    PURE("one_hot", ki_one_hot, 1, 2, "(Tensor self, int num_classes=-1) -> Tensor",
         "int64 one-hot encoding, new last dim; num_classes=-1 only for a constant self"),
    OPDEF("aten::eye", ki_eye, EFF_PURE, 0, NULL, 1, 6, OPF_ALLOC_LIKE,
          "(int n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor | "
          "(int n, int m, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
          "n x m identity (float32 unless dtype)"),
    PURE("concat", ks_cat, 1, 2, "(Tensor[] tensors, int dim=0) -> Tensor", "alias of cat"),
    PURE("concatenate", ks_cat, 1, 2, "(Tensor[] tensors, int dim=0) -> Tensor", "alias of cat"),
    OPDEF("aten::tril_indices", ki_tril_indices, EFF_PURE, 0, NULL, 2, 7, OPF_ALLOC_LIKE,
          "(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
          "2 x N coordinates of the lower triangle (j <= i + offset), row by row"),
    OPDEF("aten::triu_indices", ki_triu_indices, EFF_PURE, 0, NULL, 2, 7, OPF_ALLOC_LIKE,
          "(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
          "2 x N coordinates of the upper triangle (j >= i + offset), row by row"),

    /* paired reductions, scans, differences */
    PURE("var_mean", ki_var_mean, 1, 4,
         "(Tensor self, bool unbiased=True) -> (Tensor, Tensor) | "
         "(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor) | "
         "(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> (Tensor, Tensor)",
         "(var, mean) over dims, as var and mean"),
    PURE("std_mean", ki_std_mean, 1, 4,
         "(Tensor self, bool unbiased=True) -> (Tensor, Tensor) | "
         "(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor) | "
         "(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> (Tensor, Tensor)",
         "(std, mean) over dims"),
    PURE("aminmax", ki_aminmax, 1, 3, "(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)",
         "(amin, amax) over dim or all, NaN propagates"),
    PURE("cummax", ki_cummax, 2, 2, "(Tensor self, int dim) -> (Tensor values, Tensor indices)",
         "running max along dim and its index (ties: the later; NaN sticks)"),
    PURE("cummin", ki_cummin, 2, 2, "(Tensor self, int dim) -> (Tensor values, Tensor indices)",
         "running min along dim and its index"),
    PURE("logcumsumexp", ki_logcumsumexp, 2, 2, "(Tensor self, int dim) -> Tensor", "running log(sum(exp)) along dim"),
    OPDEF("aten::diff", ki_diff, EFF_PURE, 0, NULL, 1, 5, OPF_MAY_ALIAS,
         "(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor",
         "n-th forward difference along dim of cat([prepend, self, append]); bools: !="),
    PURE("cross", ki_cross, 2, 3, "(Tensor self, Tensor other, int? dim=None) -> Tensor",
         "cross product along dim (None: the first dim of size 3)"),
    PURE("linalg_cross", ki_linalg_cross, 2, 3, "(Tensor self, Tensor other, *, int dim=-1) -> Tensor",
         "cross product of 3-vectors along dim, others broadcast"),
    PURE("bincount", ki_bincount, 1, 3, "(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor",
         "counts (or weight sums) of non-negative ints; length from a constant self, else minlength checked at run time"),
    /* random ops: values from ki_rng (k_index.h: one splitmix64 stream per program, not
     * PyTorch's generator); never folded */
    RANDOM("rand", ki_rand, 1, 5,
           "(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
           "uniform [0, 1) from ki_rng (splitmix64), float32 unless dtype"),
    RANDOM("randn", ki_randn, 1, 5,
           "(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
           "standard normal from ki_rng (Box-Muller over splitmix64)"),
    RANDOM("randint", ki_randint_op, 2, 7,
           "(int high, int[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor | "
           "(int low, int high, int[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
           "uniform integers in [low, high) from ki_rng (rejection sampling), int64 unless dtype"),
    RANDOM("rand_like", ki_rand_like, 1, 6,
           "(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
           "rand of self's shape and dtype (ki_rng)"),
    RANDOM("randn_like", ki_randn_like, 1, 6,
           "(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
           "randn of self's shape and dtype (ki_rng)"),
    RANDOM("randint_like", ki_randint_like, 2, 8,
           "(Tensor self, int high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor | "
           "(Tensor self, int low, int high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
           "randint of self's shape and dtype (ki_rng)"),
    RANDOM("normal", ki_normal_op, 1, 8,
           "(Tensor|float mean, Tensor|float std=1., *, Generator? generator=None) -> Tensor | "
           "(float mean, float std, int[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
           "mean + std * N(0, 1) from ki_rng, mean and std broadcast; generator must be None"),
    RANDOM("bernoulli", ki_bernoulli, 1, 3,
           "(Tensor self, *, Generator? generator=None) -> Tensor | (Tensor self, float p, *, Generator? generator=None) -> Tensor",
           "1 with probability self (or p) else 0, self's dtype, from ki_rng"),
    RANDOM("multinomial", ki_multinomial, 2, 4,
           "(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor",
           "int64 category draws with weights self (rows of a 2-D self), from ki_rng"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 64, "index op table size");

const OpFamily ops_family_index = {"index", rows, (int)(sizeof rows / sizeof rows[0])};
