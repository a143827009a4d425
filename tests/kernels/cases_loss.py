"""cases_loss.py — kernel cases of the loss family (k_loss.h): every loss in each reduction (0
none, 1 mean, 2 sum), float32 and float64, broadcast and non-contiguous operands; nll_loss in
every rank with weights, ignore_index (all targets ignored: NaN mean) and uint8 targets;
cross_entropy_loss with class indices and class probabilities, weights, ignore_index and label
smoothing; binary cross entropy with weight and pos_weight; and the inputs PyTorch refuses
(out-of-range targets, inputs outside [0, 1], bad reductions, bad shapes). Expected values come
from PyTorch (torch.ops.aten). Also multi_margin_loss (p 1 and 2, weights) and
multilabel_margin_loss (targets ended by -1, repeated labels)."""
import torch

A = torch.ops.aten
F32, F64 = torch.float32, torch.float64

# check_kernels.c gives error cases (w.error) no output descriptors, so a kernel whose error is
# data-dependent (a target out of range, an input outside [0, 1]: meta mode must succeed) meets
# a NULL output in meta mode and fails there, not on the data. Those cases are written only
# when the harness gives them outputs. (k_loss.h checks the data before it writes the output,
# and `mc run` reports such an error at the node: "aten::nll_loss_nd: Target 7 is out of bounds.")
HARNESS_DATA_ERRORS = False


def tol(dt):
    """float64 cases are all-float64; cases mixing float32 in take float32's tolerance (PyTorch
    rounds some of their intermediates to float32)."""
    return 1e-10 if dt == F64 else 2e-6


def noncontig(t):
    """The same values with a doubled last stride and an offset."""
    if t.dim() == 0:
        return t
    big = torch.zeros(*t.shape[:-1], t.shape[-1] * 2 + 1, dtype=t.dtype)
    v = big[..., 1::2]
    v.copy_(t)
    return v


def case(w, name, args, dt=F32):
    if name == "kl_div" and len(args) == 4:  # log_target is keyword-only
        want = A.kl_div(*args[:3], log_target=args[3])
    else:
        want = getattr(A, name)(*args)
    w.case("aten::" + name, args, want, tol=tol(dt))


def cases(w):
    # regression losses: each reduction, both dtypes, broadcasting, strides
    for dt in (F32, F64):
        x, y = torch.randn(3, 4, dtype=dt), torch.randn(3, 4, dtype=dt)
        for red in (0, 1, 2):
            case(w, "mse_loss", [x, y, red], dt)
            case(w, "l1_loss", [x, y, red], dt)
            case(w, "smooth_l1_loss", [x, y, red, 0.5], dt)
            case(w, "huber_loss", [x, y, red, 0.7], dt)
            case(w, "soft_margin_loss", [x, torch.randn(3, 4, dtype=dt).sign(), red], dt)
            case(w, "kl_div", [x, torch.rand(3, 4, dtype=dt), red], dt)
            case(w, "kl_div", [x, y, red, True], dt)
    x, y = torch.randn(2, 3, 4), torch.randn(3, 1)
    for name in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div"):
        case(w, name, [x, y, 0])
        case(w, name, [y, x, 1])
        case(w, name, [noncontig(x), noncontig(y.expand(3, 4)), 2])
    case(w, "mse_loss", [x, y])  # default reduction
    case(w, "smooth_l1_loss", [x, y, 1, 0.0])  # beta 0: l1
    case(w, "smooth_l1_loss", [x, y])
    case(w, "huber_loss", [x, y, 2, 2.5])
    case(w, "mse_loss", [x, y.double(), 1])  # promoted
    case(w, "huber_loss", [x, y.double(), 0])  # self's dtype
    case(w, "huber_loss", [x.double(), y, 0])
    case(w, "soft_margin_loss", [x, y, 1])
    case(w, "soft_margin_loss", [x.double(), y, 0])
    case(w, "kl_div", [x, torch.tensor([[0.0], [0.5], [float("nan")]]), 0])
    case(w, "mse_loss", [torch.zeros(0), torch.zeros(0), 1])  # empty mean: NaN
    case(w, "mse_loss", [torch.zeros(0, 3), torch.zeros(0, 3), 2])
    case(w, "l1_loss", [torch.zeros(0), torch.zeros(0), 0])
    case(w, "mse_loss", [torch.tensor(2.0), torch.tensor(0.5), 0])
    case(w, "l1_loss", [torch.tensor([1.0, float("inf"), float("nan")]), torch.zeros(3), 0])
    w.error("aten::mse_loss", [x, x, 3])
    w.error("aten::mse_loss", [x, x, -1])
    w.error("aten::mse_loss", [x.long(), x.long(), 1])
    w.error("aten::mse_loss", [torch.randn(2, 3), torch.randn(4), 1])
    w.error("aten::smooth_l1_loss", [x, x, 1, -1.0])
    w.error("aten::huber_loss", [x, x, 1, 0.0])
    w.error("aten::soft_margin_loss", [y, x, 0])  # the broadcast shape is not self's

    # margin losses
    for dt in (F32, F64):
        a, b = torch.randn(5, dtype=dt), torch.randn(5, dtype=dt)
        s = torch.tensor([1.0, -1, 1, -1, 1], dtype=dt)
        for red in (0, 1, 2):
            case(w, "margin_ranking_loss", [a, b, s, 0.3, red], dt)
            case(w, "hinge_embedding_loss", [torch.randn(3, 5, dtype=dt), s, 0.8, red], dt)
            case(w, "poisson_nll_loss", [a, torch.rand(5, dtype=dt) * 3, True, False, 1e-8, red], dt)
            case(w, "poisson_nll_loss", [torch.rand(5, dtype=dt) + 0.1, torch.rand(5, dtype=dt) * 3, False, True, 1e-8, red], dt)
    case(w, "margin_ranking_loss", [torch.randn(3, 2), torch.randn(2), torch.ones(1)])
    case(w, "margin_ranking_loss", [torch.randn(4), torch.randn(4).double(), -torch.ones(4), 0.0, 0])
    case(w, "hinge_embedding_loss", [torch.randn(3, 2), torch.tensor([[1, -1], [-1, 1], [0, 1]])])
    case(w, "hinge_embedding_loss", [torch.randn(3, 2), torch.ones(2).double(), 1.0, 0])  # self's dtype
    case(w, "poisson_nll_loss", [torch.randn(2, 3), torch.tensor([[0.0, 1.0, 2.0], [5.0, 0.5, 10.0]]), True, True, 1e-8, 0])
    case(w, "poisson_nll_loss", [torch.randn(2, 3), torch.rand(3).double(), True, False, 1e-8, 1])

    # binary cross entropy
    for dt in (F32, F64):
        p, t = torch.rand(4, 3, dtype=dt), torch.rand(4, 3, dtype=dt)
        wt = torch.rand(3, dtype=dt)
        for red in (0, 1, 2):
            case(w, "binary_cross_entropy", [p, t, None, red], dt)
            case(w, "binary_cross_entropy", [p, t, wt, red], dt)
            case(w, "binary_cross_entropy_with_logits", [torch.randn(4, 3, dtype=dt), t, None, None, red], dt)
            case(w, "binary_cross_entropy_with_logits", [torch.randn(4, 3, dtype=dt) * 10, t, wt, torch.rand(3, dtype=dt) * 3, red], dt)
    case(w, "binary_cross_entropy", [torch.tensor([0.0, 1.0, 1.0, 0.0, 0.5]), torch.tensor([0.0, 1.0, 0.0, 1.0, 0.5])])
    case(w, "binary_cross_entropy", [noncontig(torch.rand(2, 3)), torch.rand(2, 3), torch.rand(2, 1), 0])
    case(w, "binary_cross_entropy_with_logits", [torch.randn(3), torch.rand(2, 3)])
    case(w, "binary_cross_entropy_with_logits", [torch.randn(3), torch.rand(3).double(), None, torch.rand(3), 0])
    case(w, "binary_cross_entropy_with_logits", [torch.tensor([-200.0, 200.0, 0.0]), torch.tensor([1.0, 0.0, 0.5]), None, None, 0])
    if HARNESS_DATA_ERRORS:
        w.error("aten::binary_cross_entropy", [torch.tensor([1.5, 0.5]), torch.rand(2)])
        w.error("aten::binary_cross_entropy", [torch.tensor([float("nan")]), torch.rand(1)])
    w.error("aten::binary_cross_entropy", [torch.rand(2), torch.rand(2).double()])
    w.error("aten::binary_cross_entropy_with_logits", [torch.randn(2, 3), torch.rand(3)])

    # nll_loss, nll_loss2d, nll_loss_nd
    for dt in (F32, F64):
        x = torch.randn(5, 4, dtype=dt)
        t = torch.tensor([0, 3, 1, 3, 2])
        wt = torch.rand(4, dtype=dt) + 0.1
        for red in (0, 1, 2):
            for name in ("nll_loss", "nll_loss_nd"):
                case(w, name, [x, t, None, red, -100], dt)
                case(w, name, [x, t, wt, red, -100], dt)
                case(w, name, [x, t, wt, red, 3], dt)
            case(w, "nll_loss_nd", [x[0], torch.tensor(2), wt, red, -100], dt)
            case(w, "nll_loss", [x[1], torch.tensor(1), None, red, 1], dt)
            x4, t3 = torch.randn(2, 4, 3, 2, dtype=dt), torch.randint(0, 4, (2, 3, 2))
            case(w, "nll_loss2d", [x4, t3, wt, red, 1], dt)
            case(w, "nll_loss_nd", [x4, t3, None, red, 2], dt)
            case(w, "nll_loss_nd", [torch.randn(2, 4, 3, dtype=dt), torch.randint(0, 4, (2, 3)), wt, red, 0], dt)
            case(w, "nll_loss_nd", [torch.randn(2, 4, 2, 1, 3, dtype=dt), torch.randint(0, 4, (2, 2, 1, 3)), wt, red, -100], dt)
    x = torch.randn(3, 4)
    case(w, "nll_loss_nd", [x, torch.tensor([-100, -100, -100]), None, 1, -100])  # all ignored: NaN
    case(w, "nll_loss_nd", [x, torch.tensor([-100, -100, -100]), None, 2, -100])
    case(w, "nll_loss_nd", [torch.zeros(0, 4), torch.zeros(0, dtype=torch.long), None, 1, -100])
    case(w, "nll_loss_nd", [x, torch.tensor([0, 2, 1], dtype=torch.uint8), None, 1, -100])
    case(w, "nll_loss_nd", [noncontig(x), torch.tensor([[3, 0, 1, 2]])[0, 1:], None, 0, -100])
    case(w, "nll_loss_nd", [x.t(), torch.tensor([0, 1, 2, 0]), torch.rand(3)[[2, 0, 1]], 1, -100])
    case(w, "nll_loss", [x, torch.tensor([1, 2, 3])])
    case(w, "nll_loss_nd", [torch.randn(2, 3, 0), torch.zeros(2, 0, dtype=torch.long), None, 0, -100])
    if HARNESS_DATA_ERRORS:
        w.error("aten::nll_loss_nd", [x, torch.tensor([0, 4, 1]), None, 1, -100])
        w.error("aten::nll_loss_nd", [x, torch.tensor([0, -1, 1]), None, 0, -100])
    w.error("aten::nll_loss_nd", [x, torch.tensor([0, 1, 1], dtype=torch.int32), None, 1, -100])
    w.error("aten::nll_loss_nd", [x, torch.tensor([0, 1]), None, 1, -100])
    w.error("aten::nll_loss_nd", [x, torch.tensor([0, 1, 1]), torch.ones(3), 1, -100])
    w.error("aten::nll_loss_nd", [x, torch.tensor([0, 1, 1]), torch.ones(4).double(), 1, -100])
    w.error("aten::nll_loss_nd", [torch.randn(2, 3, 4), torch.zeros(2, 5, dtype=torch.long), None, 0, -100])
    w.error("aten::nll_loss", [torch.randn(2, 3, 4), torch.zeros(2, 4, dtype=torch.long), None, 0, -100])
    w.error("aten::nll_loss2d", [torch.randn(2, 3, 4), torch.zeros(2, 4, dtype=torch.long), None, 0, -100])

    # cross_entropy_loss: class indices
    for dt in (F32, F64):
        x = torch.randn(6, 5, dtype=dt) * 3
        t = torch.tensor([0, 4, 2, 2, 1, 3])
        wt = torch.rand(5, dtype=dt) + 0.1
        for red in (0, 1, 2):
            for ls in (0.0, 0.2):
                case(w, "cross_entropy_loss", [x, t, None, red, -100, ls], dt)
                case(w, "cross_entropy_loss", [x, t, wt, red, 2, ls], dt)
            case(w, "cross_entropy_loss", [torch.randn(2, 5, 3, 2, dtype=dt), torch.randint(0, 5, (2, 3, 2)), wt, red, 1, 0.1], dt)
            case(w, "cross_entropy_loss", [x[0], torch.tensor(3), None, red, -100, 0.3], dt)
    x = torch.randn(3, 4)
    case(w, "cross_entropy_loss", [x, torch.tensor([1, 0, 3])])
    case(w, "cross_entropy_loss", [x, torch.tensor([-100, -100, -100]), None, 1, -100, 0.2])
    case(w, "cross_entropy_loss", [x, torch.tensor([1, 0, 3]), None, 1, -100, -0.5])  # < 0: no smoothing
    case(w, "cross_entropy_loss", [noncontig(x), torch.tensor([1, 0, 3]), None, 0, -100, 1.0])
    case(w, "cross_entropy_loss", [torch.tensor([[1000.0, -1000.0, 0.0], [float("-inf"), 0.0, 1.0]]), torch.tensor([1, 2])])
    if HARNESS_DATA_ERRORS:
        w.error("aten::cross_entropy_loss", [x, torch.tensor([1, 7, 2]), None, 0, -100, 0.2])
    w.error("aten::cross_entropy_loss", [x, torch.tensor([1, 2, 2]), None, 1, -100, 1.5])
    w.error("aten::cross_entropy_loss", [x.long(), torch.tensor([1, 2, 2]), None, 1, -100, 0.0])
    # cross_entropy_loss: class probabilities
    for dt in (F32, F64):
        x = torch.randn(4, 5, dtype=dt)
        p = torch.softmax(torch.randn(4, 5, dtype=dt), 1)
        wt = torch.rand(5, dtype=dt)
        for red in (0, 1, 2):
            for ls in (0.0, 0.25):
                case(w, "cross_entropy_loss", [x, p, None, red, -100, ls], dt)
                case(w, "cross_entropy_loss", [x, p, wt, red, -100, ls], dt)
            case(w, "cross_entropy_loss", [torch.randn(2, 5, 3, dtype=dt), torch.rand(2, 5, 3, dtype=dt), wt, red, -100, 0.0], dt)
            case(w, "cross_entropy_loss", [x[0], p[0], None, red, -100, 0.1], dt)
    case(w, "cross_entropy_loss", [torch.randn(3, 4), torch.rand(3, 4).double(), None, 1, -100, 0.0])
    case(w, "cross_entropy_loss", [torch.zeros(0, 4), torch.zeros(0, 4), None, 1, -100, 0.0])
    w.error("aten::cross_entropy_loss", [torch.randn(3, 4), torch.rand(3, 4), None, 1, 1, 0.0])
    w.error("aten::cross_entropy_loss", [torch.randn(3, 4), torch.ones(3, 4).long(), None, 1, -100, 0.0])

    # cosine_embedding_loss, triplet_margin_loss
    for dt in (F32, F64):
        a, b = torch.randn(4, 3, dtype=dt), torch.randn(4, 3, dtype=dt)
        s = torch.tensor([1.0, -1, -1, 1], dtype=dt)
        for red in (0, 1, 2):
            case(w, "cosine_embedding_loss", [a, b, s, 0.2, red], dt)
            case(w, "cosine_embedding_loss", [a[0], b[1], torch.tensor(-1.0, dtype=dt), -0.5, red], dt)
            n = torch.randn(4, 3, dtype=dt)
            case(w, "triplet_margin_loss", [a, b, n, 1.0, 2.0, 1e-6, False, red], dt)
            case(w, "triplet_margin_loss", [a, b, n, 0.5, 1.0, 1e-6, True, red], dt)
    a, b, n = torch.randn(2, 3, 4), torch.randn(2, 3, 4), torch.randn(1, 3, 4)
    case(w, "cosine_embedding_loss", [torch.randn(4, 3), torch.randn(4, 3).double(), torch.tensor([1, -1, 0, 1])])
    case(w, "cosine_embedding_loss", [noncontig(torch.randn(4, 3)), torch.randn(1, 3), torch.tensor([1.0, -1, 1, -1])])
    case(w, "triplet_margin_loss", [a, b, n])
    case(w, "triplet_margin_loss", [noncontig(a), b, n, 1.0, 3.0, 0.0, True, 0])
    case(w, "triplet_margin_loss", [a, b, n, 1.0, float("inf"), 1e-6, False, 0])
    case(w, "triplet_margin_loss", [a[0, 0], b[0, 0], n[0, 0], 2.0, 2.0, 1e-6, False, 0])
    w.error("aten::cosine_embedding_loss", [torch.randn(4, 3), torch.randn(4, 3), torch.ones(4, 1)])
    w.error("aten::cosine_embedding_loss", [torch.randn(4), torch.randn(4), torch.ones(4)])
    w.error("aten::triplet_margin_loss", [a, b, n[0]])

    # multi_margin_loss, multilabel_margin_loss
    for dt in (F32, F64):
        x = torch.randn(4, 5, dtype=dt)
        t = torch.tensor([0, 4, 2, 2])
        wt = torch.rand(5, dtype=dt)
        lab = torch.tensor([[1, 3, -1, 0, 0], [4, -1, 2, 2, 2], [0, 1, 2, 3, 4], [-1, 0, 1, 1, 1]])
        for red in (0, 1, 2):
            case(w, "multi_margin_loss", [x, t, 1, 1.0, None, red], dt)
            case(w, "multi_margin_loss", [x, t, 2, 0.5, wt, red], dt)
            case(w, "multi_margin_loss", [x[1], torch.tensor(3), 1, 2.0, None, red], dt)
            case(w, "multilabel_margin_loss", [x, lab, red], dt)
            case(w, "multilabel_margin_loss", [x[0], lab[0], red], dt)
    x = torch.randn(3, 4)
    case(w, "multi_margin_loss", [x, torch.tensor([1, 0, 3])])
    case(w, "multi_margin_loss", [x[0], torch.tensor([2]), 1, 1.0, None, 0])
    case(w, "multi_margin_loss", [noncontig(x), torch.tensor([1, 0, 3]), 2, 1.0, torch.rand(2, 2), 0])
    case(w, "multilabel_margin_loss", [x, torch.tensor([[1, 1, -1, 0], [3, 2, 1, 0], [-1, 3, 3, 3]])])
    case(w, "multilabel_margin_loss", [x.t(), torch.tensor([[1, 0, -1]] * 4), 0])
    w.error("aten::multi_margin_loss", [x, torch.tensor([1, 0, 3]), 3, 1.0, None, 0])
    w.error("aten::multi_margin_loss", [x, torch.tensor([1, 0, 3]).int(), 1, 1.0, None, 0])
    w.error("aten::multi_margin_loss", [x, torch.tensor([[1], [0], [3]]), 1, 1.0, None, 0])
    w.error("aten::multi_margin_loss", [x, torch.tensor([1, 0, 3]), 1, 1.0, torch.ones(4).double(), 0])
    w.error("aten::multilabel_margin_loss", [x, torch.tensor([[1, -1, 0]] * 3), 0])
    w.error("aten::multilabel_margin_loss", [x, torch.tensor([[1, -1, 0, 0]] * 3).int(), 0])
    if HARNESS_DATA_ERRORS:
        w.error("aten::multi_margin_loss", [x, torch.tensor([1, 0, 4]), 1, 1.0, None, 0])
        w.error("aten::multilabel_margin_loss", [x, torch.tensor([[1, -2, 0, 0]] * 3), 0])
