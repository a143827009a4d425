/* ops_linalg.c — the linalg family's rows: matrix products. Kernels in k_linalg.h. (aten::t is
 * a view and lives in the shape family.) */
#include "ops.h"

#include "k_linalg.h"

static const OpDef rows[] = {
    OPDEF("aten::linear", kl_linear, EFF_PURE, 0, NULL, 2, 3, 0,
          "(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor",
          "input @ weight.T + bias; input of any rank >= 1"),
    OPDEF("aten::matmul", kl_matmul, EFF_PURE, 0, NULL, 2, 2, 0, "(Tensor self, Tensor other) -> Tensor",
          "torch.matmul: dot, mv, mm, batched with broadcast batch dims"),
    OPDEF("aten::mm", kl_mm, EFF_PURE, 0, NULL, 2, 2, 0, "(Tensor self, Tensor mat2) -> Tensor",
          "matrix product of two 2-D tensors"),
    OPDEF("aten::bmm", kl_bmm, EFF_PURE, 0, NULL, 2, 2, 0, "(Tensor self, Tensor mat2) -> Tensor",
          "batched matrix product of two 3-D tensors"),
    OPDEF("aten::mv", kl_mv, EFF_PURE, 0, NULL, 2, 2, 0, "(Tensor self, Tensor vec) -> Tensor",
          "matrix-vector product"),
    OPDEF("aten::dot", kl_dot, EFF_PURE, 0, NULL, 2, 2, 0, "(Tensor self, Tensor tensor) -> Tensor",
          "inner product of two 1-D tensors (0-dim result)"),
    OPDEF("aten::addmm", kl_addmm, EFF_PURE, 0, NULL, 3, 5, 0,
          "(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
          "beta * self + alpha * mat1 @ mat2 (self broadcast; ignored when beta == 0)"),
    OPDEF("aten::baddbmm", kl_baddbmm, EFF_PURE, 0, NULL, 3, 5, 0,
          "(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
          "beta * self + alpha * batch1 @ batch2 per batch"),
    OPDEF("aten::einsum", kl_einsum, EFF_PURE, 0, NULL, 2, 3, 0,
          "(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor",
          "Einstein summation over letter subscripts (explicit or implicit output; no ellipsis)"),
    OPDEF("mc::linear_act", kl_linear_act, EFF_PURE, 0, NULL, 6, 6, 0,
          "(Tensor input, Tensor weight, Tensor? bias, str act, float a, float b) -> Tensor",
          "act(input @ weight.T + bias), made by the fuse pass (act as mc::conv_act's)"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 10, "linalg op table size");

const OpFamily ops_family_linalg = {"linalg", rows, (int)(sizeof rows / sizeof rows[0])};
