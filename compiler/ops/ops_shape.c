/* ops_shape.c — the shape family's rows: views, copy-making shape and indexing ops, copy_, and
 * the scalar ops that read a tensor's metadata or value. Kernels in k_shape.h (whose top comment
 * also states the OPF_MAYBE_VIEW and Tensor?[] conventions). aten::__getitem__ and aten::len are
 * structural rows of the prim family. aten::embedding_bag's kernel is in k_bag.h. */
#include "ops.h"

#include "k_shape.h"
#include "k_bag.h"

#define VIEW(name, kern, nmin, nmax, schema, doc)                                                 \
  OPDEF(name, kern, EFF_VIEW, 0, NULL, nmin, nmax, 0, schema, doc)
#define MAYBE_VIEW(name, kern, nmin, nmax, schema, doc)                                           \
  OPDEF(name, kern, EFF_VIEW, 0, NULL, nmin, nmax, OPF_MAYBE_VIEW, schema, doc)
#define SHAPE_ONLY(name, kern, nmin, nmax, schema, doc)                                           \
  OPDEF(name, kern, EFF_PURE, 0, NULL, nmin, nmax, OPF_SHAPE_ONLY, schema, doc)
#define PURE(name, kern, nmin, nmax, schema, doc)                                                 \
  OPDEF(name, kern, EFF_PURE, 0, NULL, nmin, nmax, 0, schema, doc)

static const OpDef rows[] = {
    /* views */
    VIEW("aten::view", ks_view, 2, 2, "(Tensor(a) self, int[] size) -> Tensor(a)",
         "self with a new shape (one -1 inferred); fails when the strides do not allow a view"),
    VIEW("aten::view_as", ks_view_as, 2, 2, "(Tensor(a) self, Tensor other) -> Tensor(a)",
         "self.view(other.size())"),
    MAYBE_VIEW("aten::reshape", ks_reshape, 2, 2, "(Tensor(a) self, int[] shape) -> Tensor(a)",
               "self with a new shape: a view when the strides allow, else a contiguous copy"),
    MAYBE_VIEW("aten::reshape_as", ks_reshape_as, 2, 2, "(Tensor(a) self, Tensor other) -> Tensor(a)",
               "self.reshape(other.size())"),
    OPDEF("aten::flatten", ks_flatten, EFF_VIEW, 0, NULL, 1, 3, OPF_MAYBE_VIEW | OPF_SELF_ONE_DIM,
               "(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)",
               "dims start_dim..end_dim merged into one (a reshape)"),
    OPDEF("aten::contiguous", ks_contiguous, EFF_VIEW, 0, NULL, 1, 2, OPF_MAYBE_VIEW | OPF_SELF_CONTIGUOUS,
               "(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)",
               "self when contiguous, else a contiguous copy"),
    VIEW("aten::unflatten", ks_unflatten, 3, 3, "(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)",
         "dim split into sizes (one -1 inferred)"),
    VIEW("aten::slice", ks_slice, 1, 5,
         "(Tensor(a) self, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor(a)",
         "self[..., start:end:step, ...] along dim; Python bounds clamping; step > 0"),
    VIEW("aten::select", ks_select, 3, 3, "(Tensor(a) self, int dim, int index) -> Tensor(a)",
         "self[..., index, ...] along dim (dim removed); negative index wraps"),
    VIEW("aten::narrow", ks_narrow, 4, 4, "(Tensor(a) self, int dim, int start, int length) -> Tensor(a)",
         "self along dim from start for length elements"),
    VIEW("aten::transpose", ks_transpose, 3, 3, "(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
         "dims dim0 and dim1 swapped"),
    VIEW("aten::swapaxes", ks_transpose, 3, 3, "(Tensor(a) self, int axis0, int axis1) -> Tensor(a)",
         "alias of transpose"),
    VIEW("aten::swapdims", ks_transpose, 3, 3, "(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
         "alias of transpose"),
    VIEW("aten::t", ks_t, 1, 1, "(Tensor(a) self) -> Tensor(a)",
         "matrix transpose; 0-D and 1-D unchanged"),
    VIEW("aten::numpy_T", ks_numpy_T, 1, 1, "(Tensor(a) self) -> Tensor(a)", "all dims reversed (x.T)"),
    VIEW("aten::mT", ks_mT, 1, 1, "(Tensor(a) self) -> Tensor(a)", "last two dims swapped (x.mT)"),
    VIEW("aten::permute", ks_permute, 2, 2, "(Tensor(a) self, int[] dims) -> Tensor(a)",
         "dims reordered: out dim i is self dim dims[i]"),
    VIEW("aten::movedim", ks_movedim, 3, 3,
         "(Tensor(a) self, int[]|int source, int[]|int destination) -> Tensor(a)",
         "dims source moved to positions destination, the others keep their order"),
    VIEW("aten::unsqueeze", ks_unsqueeze, 2, 2, "(Tensor(a) self, int dim) -> Tensor(a)",
         "a size-1 dim inserted at dim"),
    VIEW("aten::squeeze", ks_squeeze, 1, 2, "(Tensor(a) self, int|int[] dim?) -> Tensor(a)",
         "size-1 dims removed (all, or only those named)"),
    VIEW("aten::expand", ks_expand, 2, 3, "(Tensor(a) self, int[] size, *, bool implicit=False) -> Tensor(a)",
         "size-1 dims broadcast to size (stride 0); -1 keeps a dim; new leading dims"),
    VIEW("aten::expand_as", ks_expand_as, 2, 2, "(Tensor(a) self, Tensor other) -> Tensor(a)",
         "self.expand(other.size())"),
    VIEW("aten::diagonal", ks_diagonal, 1, 4,
         "(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)",
         "the diagonal of dims dim1, dim2 (removed) as a new last dim"),
    VIEW("aten::as_strided", ks_as_strided, 3, 4,
         "(Tensor(a) self, int[] size, int[] stride, int? storage_offset=None) -> Tensor(a)",
         "self's storage with the given geometry"),
    /* in-place view ops: the tensor object itself takes the view's metadata; prep redirects
     * the later uses of self to the result (functionalize_inplace_views) */
    VIEW("aten::unsqueeze_", ks_unsqueeze, 2, 2, "(Tensor(a!) self, int dim) -> Tensor(a!)",
         "in place: self becomes self.unsqueeze(dim)"),
    VIEW("aten::squeeze_", ks_squeeze, 1, 2, "(Tensor(a!) self, int|int[] dim?) -> Tensor(a!)",
         "in place: self becomes self.squeeze(dim)"),
    VIEW("aten::transpose_", ks_transpose, 3, 3, "(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)",
         "in place: self becomes self.transpose(dim0, dim1)"),
    VIEW("aten::t_", ks_t, 1, 1, "(Tensor(a!) self) -> Tensor(a!)", "in place: self becomes self.t()"),
    VIEW("aten::alias", ks_alias, 1, 1, "(Tensor(a) self) -> Tensor(a)", "self"),
    VIEW("aten::detach", ks_alias, 1, 1, "(Tensor(a) self) -> Tensor(a)", "self (no autograd in mc)"),

    /* copies */
    OPDEF("aten::copy_", ks_copy_, EFF_WRITE, 0, NULL, 2, 3, 0,
          "(Tensor(a!) self, Tensor|Scalar src, bool non_blocking=False) -> Tensor(a!)",
          "src cast and broadcast into self through self's strides (overlap-safe); returns self"),
    OPDEF("aten::cat", ks_cat, EFF_PURE, 0, NULL, 1, 2, OPF_CONTIGUOUS_LOW_RANK, "(Tensor[] tensors, int dim=0) -> Tensor",
         "concatenation along dim, dtypes promoted; 1-D empty tensors skipped"),
    OPDEF("aten::stack", ks_stack, EFF_PURE, 0, NULL, 1, 2, OPF_CONTIGUOUS_LOW_RANK, "(Tensor[] tensors, int dim=0) -> Tensor",
         "equal-shaped tensors stacked along a new dim"),
    PURE("aten::repeat", ks_repeat, 2, 2, "(Tensor self, int[] repeats) -> Tensor",
         "self tiled repeats[i] times along each dim"),
    PURE("aten::tril", ks_tril, 1, 2, "(Tensor self, int diagonal=0) -> Tensor", "self with elements above the diagonal zeroed"),
    PURE("aten::triu", ks_triu, 1, 2, "(Tensor self, int diagonal=0) -> Tensor", "self with elements below the diagonal zeroed"),
    PURE("aten::flip", ks_flip, 2, 2, "(Tensor self, int[] dims) -> Tensor", "self reversed along dims"),
    PURE("aten::roll", ks_roll, 2, 3, "(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor",
         "elements shifted cyclically along dims (flattened when dims is empty)"),
    PURE("aten::index_select", ks_index_select, 3, 3, "(Tensor self, int dim, Tensor index) -> Tensor",
         "rows index of self along dim"),
    PURE("aten::gather", ks_gather, 3, 4,
         "(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
         "out[i][j][k] = self[index[i][j][k]][j][k] (for dim 0)"),
    OPDEF("aten::embedding", ks_embedding, EFF_PURE, 0, NULL, 2, 5, OPF_CONTIGUOUS_OUT,
         "(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor",
         "rows of weight picked by indices: shape indices.shape + [D]"),
    PURE("aten::embedding_bag", kb_embedding_bag, 3, 9,
         "(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False) -> (Tensor, Tensor, Tensor, Tensor) | "
         "(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, bool include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)",
         "sums (mode 0), means (1) or maxima (2) of bags of weight rows; then offset2bag, bag_size, max_indices"),
    PURE("aten::_embedding_bag", kb__embedding_bag, 3, 9,
         "(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)",
         "aten::embedding_bag (padding_idx -1: none)"),
    OPDEF("aten::index", ks_index, EFF_PURE, 0, NULL, 2, 2, OPF_DATA_SIZED, "(Tensor self, Tensor?[] indices) -> Tensor",
          "advanced indexing self[indices] (int and bool tensors, None = full dim; with a bool mask its size is known at run time)"),
    PURE("aten::index_put", ks_index_put, 3, 4,
         "(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor",
         "a copy of self with self[indices] = values (or += when accumulate)"),
    OPDEF("aten::index_put_", ks_index_put_, EFF_WRITE, 0, "aten::index_put", 3, 4, 0,
          "(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)",
          "self[indices] = values (or += when accumulate), in place"),
    PURE("aten::slice_scatter", ks_slice_scatter, 2, 6,
         "(Tensor self, Tensor src, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor",
         "a copy of self with the slice replaced by src"),
    PURE("aten::select_scatter", ks_select_scatter, 4, 4,
         "(Tensor self, Tensor src, int dim, int index) -> Tensor",
         "a copy of self with the selected sub-tensor replaced by src"),
    PURE("aten::diagonal_scatter", ks_diagonal_scatter, 2, 5,
         "(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor",
         "a copy of self with the diagonal replaced by src"),
    PURE("aten::as_strided_scatter", ks_as_strided_scatter, 4, 5,
         "(Tensor self, Tensor src, int[] size, int[] stride, int? storage_offset=None) -> Tensor",
         "a copy of self with the as_strided view replaced by src"),

    /* scalars */
    SHAPE_ONLY("aten::size", ks_size, 1, 2, "(Tensor self, int dim?) -> int|int[]",
         "extent of dim, or the whole shape as an int list"),
    SHAPE_ONLY("aten::dim", ks_dim_op, 1, 1, "(Tensor self) -> int", "rank"),
    SHAPE_ONLY("aten::numel", ks_numel, 1, 1, "(Tensor self) -> int", "number of elements"),
    PURE("aten::Int", ks_Int, 1, 1, "(Tensor|Scalar a) -> int", "one-element tensor or number as an int (truncates)"),
    PURE("aten::Float", ks_Float, 1, 1, "(Tensor|Scalar a) -> float", "one-element tensor or number as a float"),
    PURE("aten::Bool", ks_Bool, 1, 1, "(Tensor|Scalar a) -> bool", "one-element tensor or number as a bool"),
    PURE("aten::item", ks_item_op, 1, 1, "(Tensor a) -> Scalar", "the value of a one-element tensor"),
    PURE("aten::ScalarImplicit", ks_ScalarImplicit, 1, 1, "(Tensor a) -> Scalar",
         "0-dim tensor as a number of its dtype's kind"),
    PURE("prim::NumToTensor", ks_NumToTensor, 1, 1, "(Scalar a) -> Tensor",
         "number as a 0-dim tensor: int -> int64, float -> float64, bool -> bool"),
    OPDEF("prim::min", ks_prim_min, EFF_PURE, 0, NULL, 1, 2, OPF_SCALAR,
          "(int|float a, int|float b) -> int|float, or (int[]|float[] l) -> int|float",
          "smaller of two numbers, or smallest element of a list"),
    OPDEF("prim::max", ks_prim_max, EFF_PURE, 0, NULL, 1, 2, OPF_SCALAR,
          "(int|float a, int|float b) -> int|float, or (int[]|float[] l) -> int|float",
          "larger of two numbers, or largest element of a list"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 61, "shape op table size");

const OpFamily ops_family_shape = {"shape", rows, (int)(sizeof rows / sizeof rows[0])};
