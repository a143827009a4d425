/* k_math.h — kernels of the math family (unary and binary math beyond the elementwise core (trigonometric, logarithms, activations with parameters, bitwise and shifts, lerp/addcmul/addcdiv, finite tests)). */
#ifndef MC_K_MATH_H
#define MC_K_MATH_H

#include "mck.h"

#endif
