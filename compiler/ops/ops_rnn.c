/* ops_rnn.c — the rnn family's rows: recurrent layers and cells. Kernels in k_rnn.h. */
#include "ops.h"

#include "k_rnn.h"

/* The table is filled row by row; a family with no rows yet keeps one zero entry. */
static const OpDef rows[] = {
    {0},
};

const OpFamily ops_family_rnn = {"rnn", rows, 0, "k_rnn.h"};
