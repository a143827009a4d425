/* dynshape.h — shapes of a graph with dynamic extents (Graph.dims) at chosen sizes.
 *
 * A graph whose inputs have Dims is typed by `infer` at the example's sizes. dyn_eval runs the
 * graph's kernels in meta mode (each op's kernel is its shape rule, docs/architecture.md) at
 * another assignment of the Dims — every Dim at its example size, at its max or at its min —
 * computing scalars derived from sizes for real, so that every tensor value's shape at those
 * sizes is known. The memory plan takes, per value, the largest byte size over the three
 * assignments; a value whose shape differs between them has a run-time shape.
 * Prefix: dyn_. */
#ifndef MC_DYNSHAPE_H
#define MC_DYNSHAPE_H

#include "ir/ir.h"

enum { DYN_EXAMPLE, DYN_MAX, DYN_MIN, DYN_NCFG };

/* What dyn_analyse found, by value id (nvalues of them). */
typedef struct DynInfo {
  int nvalues;
  size_t *bytes; /* a tensor value's largest byte size over the assignments (0: not a tensor) */
  char *varies;  /* 1: the value (a tensor's shape, or a scalar) may differ between runs */
  int64_t (*max_shape)[IR_MAX_DIMS]; /* a tensor's shape with every Dim at its max */
  int64_t (*hi_shape)[IR_MAX_DIMS];  /* per extent, the largest over the assignments (0: not seen) */
} DynInfo;

/* Evaluates the whole graph at each assignment; errors (a kernel that refuses some size, control
 * flow) are reported at their node. Returns the error count; free info with dyn_info_free. */
int dyn_analyse(Graph *g, DynInfo *info, Diag *d);
void dyn_info_free(DynInfo *info);

/* For bounds computed from types (the kernels' scratch for -DMC_NO_MALLOC): gives every tensor
 * value whose shape varies a type at its largest extents (hi_shape, compact strides) and returns
 * the types it replaced, by value id, for dyn_types_put_back; NULL when out of memory. */
Type **dyn_types_at_hi(Graph *g, const DynInfo *info);
void dyn_types_put_back(Graph *g, Type **saved);

/* Whether extent `axis` of tensor value v, defined before node `stop` in the top block, is the
 * same at every assignment of the Dims (evaluating the nodes before `stop`). */
bool dyn_extent_fixed(Graph *g, const Value *v, int axis, const Node *stop);

/* The Dim the extent `axis` of graph input v follows, or NULL. */
const IrDim *dyn_input_dim(const Graph *g, const Value *v, int axis);

#endif
