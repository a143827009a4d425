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
    PURE("masked_scatter", ki_masked_scatter, 3, 3, "(Tensor self, Tensor mask, Tensor source) -> Tensor",
         "self (broadcast with mask) with the true positions taking source's elements in order"),
    INPLACE("masked_scatter_", ki_masked_scatter_, "aten::masked_scatter", 3, 3,
            "(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", "masked_scatter in place"),
    PURE("take", ki_take, 2, 2, "(Tensor self, Tensor index) -> Tensor", "self.flatten()[index], shaped as index"),
    PURE("take_along_dim", ki_take_along_dim, 2, 3, "(Tensor self, Tensor indices, int? dim=None) -> Tensor",
         "gather along dim with self and indices broadcast; None: from the flattened self"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 28, "index op table size");

const OpFamily ops_family_index = {"index", rows, (int)(sizeof rows / sizeof rows[0]), "k_index.h"};
