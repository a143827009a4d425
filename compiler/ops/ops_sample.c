/* ops_sample.c — the sample family's rows: spatial resampling: 3-D pools, bicubic/trilinear/3-D upsampling, grid sampling, im2col/col2im. Kernels in k_sample.h. */
#include "ops.h"

#include "k_sample.h"

/* The table is filled row by row; a family with no rows yet keeps one zero entry. */
static const OpDef rows[] = {
    {0},
};

const OpFamily ops_family_sample = {"sample", rows, 0, "k_sample.h"};
