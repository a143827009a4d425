/* ops_loss.c — the loss family's rows: loss functions. Kernels in k_loss.h. All are pure;
 * `reduction` is 0 none, 1 mean, 2 sum. (F.multilabel_soft_margin_loss and
 * F.gaussian_nll_loss trace as other ops; the batchmean of F.kl_div is a division after it.) */
#include "ops.h"

#include "k_loss.h"
#include "k_loss_margin.h"

#define LOSS(name, kern, nmin, nmax, schema, doc)                                                 \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, 0, schema, doc)

static const OpDef rows[] = {
    LOSS("mse_loss", kloss_mse_loss, 2, 3, "(Tensor self, Tensor target, int reduction=1) -> Tensor",
         "(self - target)^2, broadcast, reduced"),
    LOSS("l1_loss", kloss_l1_loss, 2, 3, "(Tensor self, Tensor target, int reduction=1) -> Tensor",
         "|self - target|, broadcast, reduced"),
    LOSS("smooth_l1_loss", kloss_smooth_l1_loss, 2, 4,
         "(Tensor self, Tensor target, int reduction=1, float beta=1.) -> Tensor",
         "z = |self - target|: 0.5 z^2 / beta below beta, else z - 0.5 beta (beta 0: z)"),
    LOSS("huber_loss", kloss_huber_loss, 2, 4,
         "(Tensor self, Tensor target, int reduction=1, float delta=1.) -> Tensor",
         "z = |self - target|: 0.5 z^2 below delta, else delta (z - 0.5 delta); self's dtype"),
    LOSS("nll_loss", kloss_nll_loss, 2, 5,
         "(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) -> Tensor",
         "-weight[t] self[n, t] for input [C] or [N, C]; mean divides by the weights of the kept targets"),
    LOSS("nll_loss2d", kloss_nll_loss2d, 2, 5,
         "(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) -> Tensor",
         "nll_loss over input [N, C, H, W] and target [N, H, W]"),
    LOSS("nll_loss_nd", kloss_nll_loss_nd, 2, 5,
         "(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100) -> Tensor",
         "nll_loss over input [C] or [N, C, d1, ...] of any rank (F.nll_loss)"),
    LOSS("cross_entropy_loss", kloss_cross_entropy_loss, 2, 6,
         "(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, int ignore_index=-100, float label_smoothing=0.) -> Tensor",
         "nll_loss of log_softmax over dim 1 (class indices) or -sum(w t log_softmax) (class probabilities)"),
    LOSS("binary_cross_entropy", kloss_binary_cross_entropy, 2, 4,
         "(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> Tensor",
         "-w (t log x + (1 - t) log(1 - x)), logs clamped at -100; x outside [0, 1] is an error"),
    LOSS("binary_cross_entropy_with_logits", kloss_binary_cross_entropy_with_logits, 2, 5,
         "(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=1) -> Tensor",
         "binary cross entropy of sigmoid(self), stable, with pos_weight on the positive term"),
    LOSS("kl_div", kloss_kl_div, 2, 4,
         "(Tensor self, Tensor target, int reduction=1, *, bool log_target=False) -> Tensor",
         "target (log target - self), or exp(target) (target - self) with log_target"),
    LOSS("soft_margin_loss", kloss_soft_margin_loss, 2, 3,
         "(Tensor self, Tensor target, int reduction=1) -> Tensor", "log(1 + exp(-self target))"),
    LOSS("margin_ranking_loss", kloss_margin_ranking_loss, 3, 5,
         "(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> Tensor",
         "max(0, -target (input1 - input2) + margin)"),
    LOSS("hinge_embedding_loss", kloss_hinge_embedding_loss, 2, 4,
         "(Tensor self, Tensor target, float margin=1., int reduction=1) -> Tensor",
         "self where target != -1, plus max(0, margin - self) where target != 1"),
    LOSS("cosine_embedding_loss", kloss_cosine_embedding_loss, 3, 5,
         "(Tensor input1, Tensor input2, Tensor target, float margin=0., int reduction=1) -> Tensor",
         "1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1"),
    LOSS("poisson_nll_loss", kloss_poisson_nll_loss, 6, 6,
         "(Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction) -> Tensor",
         "exp(input) - target input (log_input), else input - target log(input + eps); full adds Stirling's term"),
    LOSS("triplet_margin_loss", kloss_triplet_margin_loss, 3, 8,
         "(Tensor anchor, Tensor positive, Tensor negative, float margin=1., float p=2., float eps=9.9999999999999995e-07, bool swap=False, int reduction=1) -> Tensor",
         "max(0, margin + ||a - p + eps||_p - ||a - n + eps||_p) over the last dim (swap: min with ||p - n||)"),
    LOSS("multi_margin_loss", kloss_multi_margin_loss, 2, 6,
         "(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int reduction=1) -> Tensor",
         "per row: sum over j != y of max(0, margin - x[y] + x[j])^p (times weight[y]) / C; p 1 or 2"),
    LOSS("multilabel_margin_loss", kloss_multilabel_margin_loss, 2, 3,
         "(Tensor self, Tensor target, int reduction=1) -> Tensor",
         "per row: sum over the target classes y (up to the first -1) and the others j of max(0, 1 - x[y] + x[j]) / C"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 19, "loss op table size");

const OpFamily ops_family_loss = {"loss", rows, (int)(sizeof rows / sizeof rows[0])};
