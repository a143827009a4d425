/* k_elementwise.h — kernels of the elementwise family: binary arithmetic, comparison and logic
 * with broadcasting and PyTorch type promotion (Tensor-Tensor, Tensor-Scalar and the int/float
 * arithmetic of scripted graphs), unary math and activations, clamp, where, masked_fill,
 * dtype casts, copies, fills and the creation ops (zeros, full, arange, linspace, ...).
 *
 * Invariants, as in PyTorch 1.13:
 *   - the common dtype is torch.result_type of the operands (mck_promo_*); every operand is
 *     cast to it (integers wrap, floats round to float32/float16/bfloat16) before the op;
 *     integer division and comparison results follow the op's own rule (true division of
 *     integers gives float32, comparisons give bool);
 *   - an in-place twin (add_, relu_, ...) computes like its functional op, checks that the
 *     result can be cast to self's dtype and that the broadcast shape is self's shape, writes
 *     through self's strides, and returns self (out[0] aliases in[0]);
 *   - floats compute in double and round once on store, except float32 exp, erf, sigmoid,
 *     tanh, silu, gelu and hardswish: k_act.h's float32 math (vectorised, a few ULP, as
 *     PyTorch's own float kernels), shared with the fused activations; integers compute in
 *     int64 with wrap-around (no signed overflow in C);
 *   - a Scalar operand may be MCK_INT, MCK_FLOAT or MCK_BOOL_ARG; in meta mode an MCK_UNKNOWN
 *     whose `n` holds the kind it will have (MCK_INT/MCK_FLOAT/MCK_BOOL_ARG, or 0 if not known).
 *
 * Kernel names: mck_<op> and mck_<op>_ for in-place twins. Helpers: mck_ew_*. mck.h comes first
 * wherever this is pasted or included; mc::add_act (the fuse pass's residual add + activation)
 * uses k_act.h's activation helpers (pasted before this header).
 */
#ifndef MCK_ELEMENTWISE_H
#define MCK_ELEMENTWISE_H

/* The family in parts, each including the one it builds on: helpers and binary ops, unary
 * and ternary ops and casts, creation ops. */
#include "k_binary.h"
#include "k_unary.h"
#include "k_create.h"

#endif
