/* k_index.h — kernels of the index family (sorting, searching, scatter/gather-style indexing and counting). */
#ifndef MC_K_INDEX_H
#define MC_K_INDEX_H

#include "mck.h"

#endif
