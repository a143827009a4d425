/* ops_elementwise.c — the elementwise family's rows: binary arithmetic/comparison/logic with
 * broadcasting and type promotion (also the int/float arithmetic of scripted graphs), unary
 * math and activations, clamp/where/masked_fill, casts, copies, fills and creation ops.
 * Kernels are in k_elementwise.h. Every in-place twin (`add_`) writes input 0 and names its
 * functional op (`aten::add`); its kernel returns input 0 itself. */
#include "ops.h"

#include "k_elementwise.h"

#define EW_PURE(name, kern, nmin, nmax, schema, doc)                                              \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, 0, schema, doc)
#define EW_INPLACE(name, kern, nmin, nmax, schema, doc)                                           \
  OPDEF("aten::" name "_", kern##_, EFF_WRITE, 0, "aten::" name, nmin, nmax, 0, schema, doc)
#define EW_BOTH(name, kern, nmin, nmax, schema, doc)                                              \
  EW_PURE(name, kern, nmin, nmax, "(" schema, doc),                                               \
      EW_INPLACE(name, kern, nmin, nmax, "(Tensor(a!) self" schema, doc ", in place")
#define EW_NEW(name, kern, nmin, nmax, schema, doc)                                               \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, OPF_ALLOC_LIKE, schema, doc)

static const OpDef rows[] = {
    /* binary: Tensor-Tensor, Tensor-Scalar, Scalar-Tensor and Scalar-Scalar */
    EW_PURE("add", mck_add, 2, 3, "(Tensor|Scalar self, Tensor|Scalar other, Scalar alpha=1) -> Tensor|Scalar",
            "self + alpha * other, broadcast, promoted; int + int -> int, with a float -> float"),
    EW_INPLACE("add", mck_add, 2, 3, "(Tensor(a!) self, Tensor|Scalar other, Scalar alpha=1) -> Tensor(a!)",
               "self += alpha * other"),
    EW_PURE("sub", mck_sub, 2, 3, "(Tensor|Scalar self, Tensor|Scalar other, Scalar alpha=1) -> Tensor|Scalar",
            "self - alpha * other (not for two bools)"),
    EW_INPLACE("sub", mck_sub, 2, 3, "(Tensor(a!) self, Tensor|Scalar other, Scalar alpha=1) -> Tensor(a!)",
               "self -= alpha * other"),
    EW_PURE("rsub", mck_rsub, 2, 3, "(Tensor self, Tensor|Scalar other, Scalar alpha=1) -> Tensor",
            "other - alpha * self"),
    EW_PURE("mul", mck_mul, 2, 2, "(Tensor|Scalar self, Tensor|Scalar other) -> Tensor|Scalar", "self * other"),
    EW_INPLACE("mul", mck_mul, 2, 2, "(Tensor(a!) self, Tensor|Scalar other) -> Tensor(a!)", "self *= other"),
    EW_PURE("div", mck_div, 2, 3, "(Tensor|Scalar self, Tensor|Scalar other, str? rounding_mode=None) -> Tensor|float",
            "self / other; integers give float32 (int/int scalars: float); rounding 'trunc'/'floor' keep the dtype"),
    EW_INPLACE("div", mck_div, 2, 3, "(Tensor(a!) self, Tensor|Scalar other, str? rounding_mode=None) -> Tensor(a!)",
               "self /= other"),
    EW_PURE("true_divide", mck_div, 2, 2, "(Tensor self, Tensor|Scalar other) -> Tensor", "self / other (as div)"),
    OPDEF("aten::floordiv", mck_floordiv, EFF_PURE, 0, NULL, 2, 2, OPF_SCALAR,
          "(int|float a, int|float b) -> int|float", "Python a // b on scalars"),
    EW_PURE("floor_divide", mck_floor_divide, 2, 2, "(Tensor self, Tensor|Scalar other) -> Tensor",
            "floor(self / other) in the promoted dtype; integer division by zero is an error"),
    EW_INPLACE("floor_divide", mck_floor_divide, 2, 2, "(Tensor(a!) self, Tensor|Scalar other) -> Tensor(a!)",
               "self //= other"),
    EW_PURE("remainder", mck_remainder, 2, 2, "(Tensor|Scalar self, Tensor|Scalar other) -> Tensor|Scalar",
            "Python-style modulus (sign of other)"),
    EW_INPLACE("remainder", mck_remainder, 2, 2, "(Tensor(a!) self, Tensor|Scalar other) -> Tensor(a!)",
               "self %= other"),
    EW_PURE("pow", mck_pow, 2, 2, "(Tensor|Scalar self, Tensor|Scalar exponent) -> Tensor|float",
            "self ** exponent; int ** int scalars give float"),
    EW_INPLACE("pow", mck_pow, 2, 2, "(Tensor(a!) self, Tensor|Scalar exponent) -> Tensor(a!)", "self **= exponent"),
    EW_PURE("maximum", mck_maximum, 2, 2, "(Tensor self, Tensor other) -> Tensor", "elementwise max, NaN propagates"),
    EW_PURE("minimum", mck_minimum, 2, 2, "(Tensor self, Tensor other) -> Tensor", "elementwise min, NaN propagates"),
    EW_PURE("atan2", mck_atan2, 2, 2, "(Tensor self, Tensor other) -> Tensor", "atan2(self, other); integers -> float32"),
    EW_INPLACE("atan2", mck_atan2, 2, 2, "(Tensor(a!) self, Tensor other) -> Tensor(a!)", "self = atan2(self, other)"),
    EW_PURE("eq", mck_eq, 2, 2, "(Tensor|Scalar|str self, Tensor|Scalar|str other) -> Tensor|bool", "self == other -> bool"),
    EW_PURE("ne", mck_ne, 2, 2, "(Tensor|Scalar|str self, Tensor|Scalar|str other) -> Tensor|bool", "self != other -> bool"),
    EW_PURE("lt", mck_lt, 2, 2, "(Tensor|Scalar self, Tensor|Scalar other) -> Tensor|bool", "self < other -> bool"),
    EW_PURE("le", mck_le, 2, 2, "(Tensor|Scalar self, Tensor|Scalar other) -> Tensor|bool", "self <= other -> bool"),
    EW_PURE("gt", mck_gt, 2, 2, "(Tensor|Scalar self, Tensor|Scalar other) -> Tensor|bool", "self > other -> bool"),
    EW_PURE("ge", mck_ge, 2, 2, "(Tensor|Scalar self, Tensor|Scalar other) -> Tensor|bool", "self >= other -> bool"),
    EW_PURE("logical_and", mck_logical_and, 2, 2, "(Tensor self, Tensor other) -> Tensor", "self && other -> bool"),
    EW_PURE("logical_or", mck_logical_or, 2, 2, "(Tensor self, Tensor other) -> Tensor", "self || other -> bool"),
    EW_PURE("logical_xor", mck_logical_xor, 2, 2, "(Tensor self, Tensor other) -> Tensor", "self != other as truth values -> bool"),
    EW_PURE("bitwise_and", mck_bitwise_and, 2, 2, "(Tensor self, Tensor|Scalar other) -> Tensor", "self & other (integers, bool)"),
    EW_INPLACE("bitwise_and", mck_bitwise_and, 2, 2, "(Tensor(a!) self, Tensor|Scalar other) -> Tensor(a!)", "self &= other"),
    EW_PURE("bitwise_or", mck_bitwise_or, 2, 2, "(Tensor self, Tensor|Scalar other) -> Tensor", "self | other (integers, bool)"),
    EW_INPLACE("bitwise_or", mck_bitwise_or, 2, 2, "(Tensor(a!) self, Tensor|Scalar other) -> Tensor(a!)", "self |= other"),
    EW_PURE("bitwise_xor", mck_bitwise_xor, 2, 2, "(Tensor self, Tensor|Scalar other) -> Tensor", "self ^ other (integers, bool)"),
    EW_PURE("__and__", mck_bitwise_and, 2, 2, "(Tensor|bool self, Tensor|bool other) -> Tensor|bool", "self & other"),
    EW_PURE("__or__", mck_bitwise_or, 2, 2, "(Tensor|bool self, Tensor|bool other) -> Tensor|bool", "self | other"),
    EW_PURE("__xor__", mck_bitwise_xor, 2, 2, "(Tensor|bool self, Tensor|bool other) -> Tensor|bool", "self ^ other"),

    /* unary */
    EW_BOTH("neg", mck_neg, 1, 1, "Tensor|Scalar self) -> Tensor|Scalar", "-self (not for bool)"),
    EW_BOTH("abs", mck_abs, 1, 1, "Tensor self) -> Tensor", "|self| (not for bool)"),
    EW_BOTH("relu", mck_relu, 1, 1, "Tensor self) -> Tensor", "max(self, 0)"),
    EW_BOTH("sign", mck_sign, 1, 1, "Tensor self) -> Tensor", "-1, 0 or 1 (NaN -> 0)"),
    EW_BOTH("floor", mck_floor, 1, 1, "Tensor|float self) -> Tensor|int", "round down; integers unchanged; float -> int on scalars"),
    EW_BOTH("ceil", mck_ceil, 1, 1, "Tensor|float self) -> Tensor|int", "round up; integers unchanged"),
    EW_BOTH("round", mck_round, 1, 2, "Tensor|float self, int decimals=0) -> Tensor|float", "round half to even (at `decimals`)"),
    EW_BOTH("trunc", mck_trunc, 1, 1, "Tensor self) -> Tensor", "round toward zero"),
    EW_BOTH("bitwise_not", mck_bitwise_not, 1, 1, "Tensor self) -> Tensor", "~self (integers; bool: not)"),
    EW_BOTH("logical_not", mck_logical_not, 1, 1, "Tensor self) -> Tensor", "self == 0 -> bool"),
    EW_PURE("isnan", mck_isnan, 1, 1, "(Tensor self) -> Tensor", "self != self -> bool"),
    EW_BOTH("sigmoid", mck_sigmoid, 1, 1, "Tensor self) -> Tensor", "1 / (1 + exp(-self)); integers -> float32"),
    EW_BOTH("tanh", mck_tanh, 1, 1, "Tensor|Scalar self) -> Tensor|float", "tanh; integers -> float32"),
    EW_BOTH("exp", mck_exp, 1, 1, "Tensor|Scalar self) -> Tensor|float", "e ** self"),
    EW_BOTH("log", mck_log, 1, 1, "Tensor|Scalar self) -> Tensor|float", "natural logarithm"),
    EW_BOTH("log1p", mck_log1p, 1, 1, "Tensor|Scalar self) -> Tensor|float", "log(1 + self)"),
    EW_BOTH("expm1", mck_expm1, 1, 1, "Tensor|Scalar self) -> Tensor|float", "exp(self) - 1"),
    EW_BOTH("sqrt", mck_sqrt, 1, 1, "Tensor|Scalar self) -> Tensor|float", "square root"),
    EW_BOTH("rsqrt", mck_rsqrt, 1, 1, "Tensor self) -> Tensor", "1 / sqrt(self)"),
    EW_BOTH("sin", mck_sin, 1, 1, "Tensor|Scalar self) -> Tensor|float", "sine"),
    EW_BOTH("cos", mck_cos, 1, 1, "Tensor|Scalar self) -> Tensor|float", "cosine"),
    EW_BOTH("erf", mck_erf, 1, 1, "Tensor|Scalar self) -> Tensor|float", "error function"),
    EW_BOTH("reciprocal", mck_reciprocal, 1, 1, "Tensor self) -> Tensor", "1 / self; integers -> float32"),
    EW_BOTH("gelu", mck_gelu, 1, 2, "Tensor self, str approximate='none') -> Tensor",
            "x * Phi(x) (erf), or the 'tanh' approximation; floating only"),
    EW_BOTH("silu", mck_silu, 1, 1, "Tensor self) -> Tensor", "x * sigmoid(x)"),
    EW_BOTH("mish", mck_mish, 1, 1, "Tensor self) -> Tensor", "x * tanh(softplus(x))"),
    EW_BOTH("hardtanh", mck_hardtanh, 1, 3, "Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
            "clamp(self, min_val, max_val)"),
    EW_BOTH("relu6", mck_relu6, 1, 1, "Tensor self) -> Tensor", "clamp(self, 0, 6)"),
    EW_BOTH("leaky_relu", mck_leaky_relu, 1, 2, "Tensor self, Scalar negative_slope=0.01) -> Tensor",
            "x > 0 ? x : slope * x"),
    EW_BOTH("elu", mck_elu, 1, 4, "Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor",
            "x > 0 ? scale * x : scale * alpha * (exp(input_scale * x) - 1)"),
    EW_PURE("softplus", mck_softplus, 1, 3, "(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor",
            "log(1 + exp(beta x)) / beta, linear above threshold"),
    EW_BOTH("hardsigmoid", mck_hardsigmoid, 1, 1, "Tensor self) -> Tensor", "clamp(x / 6 + 1/2, 0, 1)"),
    EW_BOTH("hardswish", mck_hardswish, 1, 1, "Tensor self) -> Tensor", "x * hardsigmoid(x)"),
    EW_BOTH("clamp", mck_clamp, 2, 3, "Tensor self, Scalar|Tensor? min=None, Scalar|Tensor? max=None) -> Tensor",
            "min(max(self, min), max), promoted with the bounds; NaN propagates"),
    EW_BOTH("clamp_min", mck_clamp_min, 2, 2, "Tensor self, Scalar|Tensor min) -> Tensor", "max(self, min)"),
    EW_BOTH("clamp_max", mck_clamp_max, 2, 2, "Tensor self, Scalar|Tensor max) -> Tensor", "min(self, max)"),
    EW_BOTH("clip", mck_clamp, 2, 3, "Tensor self, Scalar|Tensor? min=None, Scalar|Tensor? max=None) -> Tensor", "clamp"),

    /* selection */
    EW_PURE("where", mck_where, 1, 3,
            "(Tensor condition) -> Tensor[] | (Tensor condition, Tensor|Scalar self, Tensor|Scalar other) -> Tensor",
            "condition ? self : other, broadcast, promoted; where(condition) is nonzero(condition).unbind(1) "
            "(one int64 index tensor per dim, sized by the data)"),
    EW_BOTH("masked_fill", mck_masked_fill, 3, 3, "Tensor self, Tensor mask, Scalar|Tensor value) -> Tensor",
            "value where mask else self (value cast to self's dtype; a 0-dim tensor value allowed)"),

    /* casts, copies, fills */
    OPDEF("aten::to", mck_to, EFF_PURE, 0, NULL, 1, 8, OPF_SELF_CAST,
          "(Tensor self, [Device?], int? dtype | Tensor other, bool non_blocking=False, bool copy=False, int? memory_format)",
          "self cast to dtype (c10::ScalarType code) or other's dtype; self itself when that is its dtype "
          "(no copy=True, no memory format)"),
    OPDEF("aten::type_as", mck_type_as, EFF_PURE, 0, NULL, 2, 2, OPF_SELF_CAST, "(Tensor self, Tensor other) -> Tensor",
          "self cast to other's dtype; self itself when that is its dtype"),
    EW_PURE("clone", mck_clone, 1, 2, "(Tensor self, int? memory_format=None) -> Tensor", "a contiguous copy"),
    EW_BOTH("dropout", mck_dropout, 3, 3, "Tensor input, float p, bool train) -> Tensor",
            "identity (inference); train=True with p > 0 is rejected"),
    EW_BOTH("feature_dropout", mck_dropout, 3, 3, "Tensor input, float p, bool train) -> Tensor", "identity (inference)"),
    EW_BOTH("alpha_dropout", mck_dropout, 3, 3, "Tensor input, float p, bool train) -> Tensor", "identity (inference)"),
    EW_BOTH("feature_alpha_dropout", mck_dropout, 3, 3, "Tensor input, float p, bool train) -> Tensor", "identity (inference)"),
    EW_BOTH("fill", mck_fill, 2, 2, "Tensor self, Scalar|Tensor value) -> Tensor", "every element = value (cast to self's dtype)"),
    EW_BOTH("zero", mck_zero, 1, 1, "Tensor self) -> Tensor", "every element = 0"),

    /* creation */
    EW_NEW("zeros", mck_zeros, 1, 6, "(int[] size, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "zeros of shape size (float32 unless dtype)"),
    EW_NEW("ones", mck_ones, 1, 6, "(int[] size, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "ones of shape size"),
    EW_NEW("empty", mck_empty, 1, 6, "(int[] size, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None, int? memory_format=None)",
           "uninitialised in PyTorch; zeros here"),
    EW_NEW("full", mck_full, 2, 6, "(int[] size, Scalar fill_value, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "fill_value everywhere; dtype None: bool/int64/float32 from the value"),
    EW_NEW("zeros_like", mck_zeros_like, 1, 6, "(Tensor self, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None, int? memory_format=None)",
           "zeros of self's shape (and dtype unless given)"),
    EW_NEW("ones_like", mck_ones_like, 1, 6, "(Tensor self, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None, int? memory_format=None)",
           "ones of self's shape"),
    EW_NEW("empty_like", mck_empty_like, 1, 6, "(Tensor self, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None, int? memory_format=None)",
           "zeros of self's shape"),
    EW_NEW("full_like", mck_full_like, 2, 7, "(Tensor self, Scalar fill_value, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None, int? memory_format=None)",
           "fill_value in self's shape and dtype (unless given)"),
    EW_NEW("new_zeros", mck_new_zeros, 2, 6, "(Tensor self, int[] size, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "zeros of shape size, self's dtype unless given"),
    EW_NEW("new_ones", mck_new_ones, 2, 6, "(Tensor self, int[] size, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "ones of shape size"),
    EW_NEW("new_empty", mck_new_empty, 2, 6, "(Tensor self, int[] size, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "zeros of shape size"),
    EW_NEW("new_full", mck_new_full, 3, 7, "(Tensor self, int[] size, Scalar fill_value, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "fill_value in shape size"),
    EW_NEW("scalar_tensor", mck_scalar_tensor, 1, 5, "(Scalar s, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "a 0-dim tensor (float32 unless dtype)"),
    EW_NEW("arange", mck_arange, 1, 7, "([Scalar start,] Scalar end, [Scalar step,] int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "start, start+step, ... < end; int64 if all bounds are ints, else float32"),
    EW_NEW("linspace", mck_linspace, 3, 7, "(Scalar start, Scalar end, int steps, int? dtype=None, int? layout=None, Device? device=None, bool? pin_memory=None)",
           "steps evenly spaced values from start to end"),
    EW_NEW("tensor", mck_tensor_from_data, 1, 4, "(t[]|t data, int? dtype=None, Device? device=None, bool requires_grad=False)",
           "a tensor from a flat list (or a number)"),
    /* made by the fuse pass (passes/fuse.c) */
    OPDEF("mc::add_act", mck_add_act, EFF_PURE, 0, NULL, 6, 6, 0,
          "(Tensor self, Tensor other, Scalar alpha, str act, float a, float b) -> Tensor",
          "act(self + alpha * other): a residual add fused with its activation (relu, hardtanh "
          "with bounds a, b, sigmoid, tanh, silu, hardswish, gelu, gelu_tanh)"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 145, "elementwise op table size");

const OpFamily ops_family_elementwise = {"elementwise", rows, (int)(sizeof rows / sizeof rows[0])};
