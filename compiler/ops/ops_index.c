/* ops_index.c — the index family's rows: sorting, searching, scatter/gather-style indexing and counting. Kernels in k_index.h. */
#include "ops.h"

#include "k_index.h"

/* The table is filled row by row; a family with no rows yet keeps one zero entry. */
static const OpDef rows[] = {
    {0},
};

const OpFamily ops_family_index = {"index", rows, 0, "k_index.h"};
