/* kargs.h — kernel arguments (mck_arg, compiler/ops/mck.h) built from IR values at compile time:
 * what infer and dynshape hand a kernel run in meta mode or for real. One builder, so the passes
 * that run kernels read constants, types and results alike.
 * Prefix: kargs_. */
#ifndef MC_KARGS_H
#define MC_KARGS_H

#include "ir/ir.h"
#include "ops/ops.h"

/* A data-less tensor of v's type (its strides, else contiguous ones); a tensor constant's data,
 * dtype and shape when it has them. */
mck_tensor *kargs_tensor(Arena *ar, const Value *v);
/* *t: a data-less tensor of type ty (its strides, else contiguous ones). */
void kargs_tensor_of_type(mck_tensor *t, const Type *ty);
/* The value of constant v (None for a constant without a value); returns whether it is fully
 * known: a scalar or list, or a tensor with data. Kinds mck_arg has no form for: MCK_UNKNOWN. */
bool kargs_constant(Arena *ar, const Value *v, mck_arg *a);
/* The slot a kernel writes result v into, by v's type (int lists get room for 8 * IR_MAX_DIMS). */
void kargs_out(Arena *ar, const Value *v, mck_arg *a);
/* Before running op's kernel for real after a meta-mode run filled the shapes of out[]: gives
 * every tensor result data (a view of an OPF_MAYBE_VIEW row keeps its input's), contiguous.
 * false when a result's size is not known or is over max_numel elements or max_bytes bytes
 * (max_numel < 0: no limit on elements). */
bool kargs_give_data(Arena *ar, const OpDef *op, mck_arg *out, int nout, int64_t max_numel, uint64_t max_bytes);

#endif
