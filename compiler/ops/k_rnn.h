/* k_rnn.h — kernels of the rnn family (recurrent layers and cells). */
#ifndef MC_K_RNN_H
#define MC_K_RNN_H

#include "mck.h"

#endif
