/* k_shape.h — kernels of the shape family: views (view, reshape, slice, select, transpose,
 * permute, expand, squeeze, diagonal, ...), copy-making shape ops (cat, stack, repeat, flip,
 * roll, gather, index_select, embedding, index, index_put, *_scatter), copy_, and the scalar ops
 * that read a tensor's metadata or value (size, dim, numel, Int, Float, Bool, ScalarImplicit,
 * NumToTensor, prim::min/max). Prefix: ks_ (helpers and kernels alike).
 *
 * Invariants and conventions:
 * - A view kernel writes its whole output descriptor (data, offset, dtype, ndim, shape, stride)
 *   from input 0; it never touches memory, so it runs the same in meta and real mode.
 * - OPF_MAYBE_VIEW ops (reshape, flatten, contiguous, reshape_as). In meta mode the output is
 *   the view when the input's strides allow one (offset >= 0, data = the input's data), and
 *   otherwise a contiguous descriptor with the sentinel `offset = -1`: "a fresh tensor is
 *   needed". In real mode the caller prepares the output as a fresh tensor (it may leave
 *   data NULL when meta mode said "view"); the kernel either overwrites the descriptor with the
 *   view — then out->data == in->data — or copies into the prepared buffer (failing when data is
 *   NULL). The view/copy decision is PyTorch's (computeStride for reshape, is_contiguous for
 *   contiguous).
 * - Tensor?[] arguments (index, index_put) arrive as MCK_TENSORS whose NULL entries are None.
 * - EFF_WRITE kernels (copy_, index_put_) write input 0 through its strides and set out[0] to
 *   input 0's descriptor. copy_ is correct when source and destination overlap in memory: it
 *   copies through a temporary then.
 * - Scalar results set out->kind (MCK_INT / MCK_FLOAT / MCK_BOOL_ARG / MCK_INTS) and the value;
 *   MCK_UNKNOWN when the value is not known in meta mode. aten::size(self) writes into the
 *   caller's out->u.ints (room for MCK_MAX_DIMS entries).
 */
#ifndef K_SHAPE_H
#define K_SHAPE_H

/* The family in parts, each including the ones it builds on: helpers, views, copies, advanced
 * indexing, metadata. */
#include "k_shape_util.h"
#include "k_view.h"
#include "k_copy.h"
#include "k_indexing.h"
#include "k_meta.h"

#endif
