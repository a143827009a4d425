/* k_loss.h — kernels of the loss family (loss functions). */
#ifndef MC_K_LOSS_H
#define MC_K_LOSS_H

#include "mck.h"

#endif
