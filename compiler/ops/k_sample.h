/* k_sample.h — kernels of the sample family (spatial resampling: 3-D pools, bicubic/trilinear/3-D upsampling, grid sampling, im2col/col2im). */
#ifndef MC_K_SAMPLE_H
#define MC_K_SAMPLE_H

#include "mck.h"

#endif
