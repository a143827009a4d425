/* ops_loss.c — the loss family's rows: loss functions. Kernels in k_loss.h. */
#include "ops.h"

#include "k_loss.h"

/* The table is filled row by row; a family with no rows yet keeps one zero entry. */
static const OpDef rows[] = {
    {0},
};

const OpFamily ops_family_loss = {"loss", rows, 0, "k_loss.h"};
