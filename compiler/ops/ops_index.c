/* ops_index.c — the index family's rows: sorting and selection, searching, scatter/gather-style
 * indexing, shape-level ops built on them, paired reductions, counting and the random ops.
 * Kernels in k_index.h (whose top comment states the tie orders, the run-time index checks, the
 * refusal of data-dependent sizes and the random generator). */
#include "ops.h"

#include "k_index.h"

#define PURE(name, kern, nmin, nmax, schema, doc)                                                 \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, 0, schema, doc)

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
};
_Static_assert(sizeof rows / sizeof rows[0] == 8, "index op table size");

const OpFamily ops_family_index = {"index", rows, (int)(sizeof rows / sizeof rows[0]), "k_index.h"};
