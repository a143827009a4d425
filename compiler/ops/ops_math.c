/* ops_math.c — the math family's rows: unary and binary math beyond the elementwise core (trigonometric, logarithms, activations with parameters, bitwise and shifts, lerp/addcmul/addcdiv, finite tests). Kernels in k_math.h. */
#include "ops.h"

#include "k_math.h"

/* The table is filled row by row; a family with no rows yet keeps one zero entry. */
static const OpDef rows[] = {
    {0},
};

const OpFamily ops_family_math = {"math", rows, 0, "k_math.h"};
