/* ops_math.c — the math family's rows: unary and binary math beyond the elementwise core
 * (trigonometric, logarithms, activations with parameters, bitwise and shifts,
 * lerp/addcmul/addcdiv, finite tests). Kernels in k_math.h. Every in-place twin (`acos_`,
 * `__ilshift__`) writes input 0 and names its functional op; its kernel returns input 0 itself.
 *
 * Names TorchScript never records are not rows: the aliases arccos, arcsin, arctan, arccosh,
 * arcsinh, arctanh, absolute, fix, negative, special_expit/erfc/exp2/logit/xlogy/sinc/erfinv
 * are recorded under their canonical names (acos, abs, trunc, neg, sigmoid, ...), and
 * F.softsign / F.tanhshrink are recorded as the ops they are made of. */
#include "ops.h"

#include "k_math.h"

#define M_PURE(name, kern, nmin, nmax, schema, doc)                                               \
  OPDEF("aten::" name, kern, EFF_PURE, 0, NULL, nmin, nmax, 0, schema, doc)
#define M_INPLACE(name, kern, nmin, nmax, schema, doc)                                            \
  OPDEF("aten::" name "_", kern##_, EFF_WRITE, 0, "aten::" name, nmin, nmax, 0, schema, doc)
/* a unary op of one Tensor (plus parameters) and its in-place twin */
#define M_BOTH(name, kern, nmin, nmax, params, doc)                                               \
  M_PURE(name, kern, nmin, nmax, "(Tensor self" params ") -> Tensor", doc),                       \
      M_INPLACE(name, kern, nmin, nmax, "(Tensor(a!) self" params ") -> Tensor(a!)", doc ", in place")
/* the same, whose functional op also takes a Python number (acos.float(float a) -> float) */
#define M_BOTH_SC(name, kern, doc)                                                                \
  M_PURE(name, kern, 1, 1, "(Tensor|Scalar self) -> Tensor|float", doc),                          \
      M_INPLACE(name, kern, 1, 1, "(Tensor(a!) self) -> Tensor(a!)", doc ", in place")
/* a binary op and its in-place twin */
#define M_BIN(name, kern, schema, ischema, doc)                                                   \
  M_PURE(name, kern, 2, 2, schema, doc), M_INPLACE(name, kern, 2, 2, ischema, doc ", in place")
#define TT "(Tensor self, Tensor other) -> Tensor"
#define TT_ "(Tensor(a!) self, Tensor other) -> Tensor(a!)"
#define TS_ "(Tensor(a!) self, Tensor|Scalar other) -> Tensor(a!)"

static const OpDef rows[] = {
    /* unary math: integers and bool compute as float32 */
    M_BOTH_SC("acos", km_acos, "arccosine"),
    M_BOTH_SC("asin", km_asin, "arcsine"),
    M_BOTH_SC("atan", km_atan, "arctangent"),
    M_BOTH_SC("cosh", km_cosh, "hyperbolic cosine"),
    M_BOTH_SC("sinh", km_sinh, "hyperbolic sine"),
    M_BOTH_SC("tan", km_tan, "tangent"),
    M_BOTH_SC("acosh", km_acosh, "inverse hyperbolic cosine"),
    M_BOTH_SC("asinh", km_asinh, "inverse hyperbolic sine"),
    M_BOTH_SC("atanh", km_atanh, "inverse hyperbolic tangent"),
    M_BOTH_SC("log10", km_log10, "base-10 logarithm"),
    M_BOTH_SC("erfc", km_erfc, "1 - erf(self)"),
    M_BOTH("log2", km_log2, 1, 1, "", "base-2 logarithm"),
    M_BOTH("exp2", km_exp2, 1, 1, "", "2 ** self (float16 too)"),
    M_BOTH("erfinv", km_erfinv, 1, 1, "", "inverse error function (PyTorch's algorithm: float32 in float)"),
    M_BOTH("sinc", km_sinc, 1, 1, "", "sin(pi x) / (pi x), 1 at 0"),
    M_BOTH("logit", km_logit, 1, 2, ", float? eps=None", "log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps >= 0"),
    M_BOTH("deg2rad", km_deg2rad, 1, 1, "", "self * pi / 180"),
    M_BOTH("rad2deg", km_rad2deg, 1, 1, "", "self * 180 / pi"),
    M_BOTH("frac", km_frac, 1, 1, "", "self - trunc(self) (floating only)"),
    M_BOTH("square", km_square, 1, 1, "", "pow(self, 2): integers keep their dtype, bool gives int64"),
    M_BOTH("sgn", mck_sign, 1, 1, "", "sign of a real tensor (bool too)"),
    M_BOTH("nan_to_num", km_nan_to_num, 1, 4, ", float? nan=None, float? posinf=None, float? neginf=None",
           "NaN, +inf, -inf replaced (0 and the dtype's largest and lowest finite values by default); "
           "integers unchanged"),
    OPDEF("aten::positive", km_positive, EFF_VIEW, 0, NULL, 1, 1, 0, "(Tensor(a) self) -> Tensor(a)",
          "self itself (not for bool)"),
    /* tests: bool results */
    M_PURE("signbit", km_signbit, 1, 1, "(Tensor self) -> Tensor", "sign bit set (-0.0 and -NaN too) -> bool"),
    M_PURE("isfinite", km_isfinite, 1, 1, "(Tensor|float self) -> Tensor|bool", "neither inf nor NaN -> bool"),
    M_PURE("isinf", km_isinf, 1, 1, "(Tensor|float self) -> Tensor|bool", "+-inf -> bool"),
    M_PURE("isposinf", km_isposinf, 1, 1, "(Tensor self) -> Tensor", "+inf -> bool"),
    M_PURE("isneginf", km_isneginf, 1, 1, "(Tensor self) -> Tensor", "-inf -> bool"),
    M_PURE("isreal", km_isreal, 1, 1, "(Tensor self) -> Tensor", "True for every element of a real tensor"),
    OPDEF("aten::is_floating_point", km_is_floating_point, EFF_PURE, 0, NULL, 1, 1, OPF_SHAPE_ONLY,
          "(Tensor self) -> bool", "whether self's dtype is floating (from the dtype: folded)"),
    M_PURE("is_nonzero", km_is_nonzero, 1, 1, "(Tensor self) -> bool",
           "the truth of a one-element tensor (other sizes are an error)"),

    /* activations with parameters: floating only */
    M_BOTH("celu", km_celu, 1, 2, ", Scalar alpha=1.", "max(0, x) + min(0, alpha * (exp(x / alpha) - 1)); alpha != 0"),
    M_BOTH("selu", km_selu, 1, 1, "", "scale * elu(x, alpha) with SELU's constants"),
    M_PURE("glu", km_glu, 1, 2, "(Tensor self, int dim=-1) -> Tensor",
           "a * sigmoid(b), a and b the halves of self along dim (an even size)"),
    M_PURE("log_sigmoid", km_log_sigmoid, 1, 1, "(Tensor self) -> Tensor", "log(sigmoid(x)) = -softplus(-x)"),
    M_BOTH("threshold", km_threshold, 3, 3, ", Scalar threshold, Scalar value",
           "x <= threshold ? value : x (integers too)"),
    M_PURE("prelu", km_prelu, 2, 2, "(Tensor self, Tensor weight) -> Tensor",
           "x > 0 ? x : weight * x, weight one value or one per channel (dim 1)"),
    M_BOTH("rrelu", km_rrelu, 1, 5,
           ", Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, Generator? generator=None",
           "eval mode: leaky_relu with slope (lower + upper) / 2; training=True (random) is refused"),
    M_PURE("hardshrink", km_hardshrink, 1, 2, "(Tensor self, Scalar lambd=0.5) -> Tensor",
           "|x| <= lambd ? 0 : x"),
    M_PURE("softshrink", km_softshrink, 1, 2, "(Tensor self, Scalar lambd=0.5) -> Tensor",
           "x - lambd above lambd, x + lambd below -lambd, else 0 (lambd >= 0)"),

    /* binary math */
    M_BIN("fmod", km_fmod, "(Tensor self, Tensor|Scalar other) -> Tensor | (Scalar a, Scalar b) -> float", TS_,
          "C fmod: the remainder has self's sign; integer division by zero is an error"),
    M_BIN("hypot", km_hypot, TT, TT_, "sqrt(self^2 + other^2) (floating only)"),
    M_BIN("copysign", km_copysign, "(Tensor self, Tensor|Scalar other) -> Tensor | (Scalar a, Scalar b) -> float",
          TS_, "|self| with other's sign; integers -> float32"),
    M_BIN("xlogy", km_xlogy, "(Tensor self, Tensor|Scalar other) -> Tensor | (Scalar self, Tensor other) -> Tensor",
          TS_, "self * log(other), 0 where self == 0 (NaN where other is NaN); integers -> float32"),
    M_PURE("logaddexp", km_logaddexp, 2, 2, TT, "log(exp(self) + exp(other)) (floating only)"),
    M_PURE("logaddexp2", km_logaddexp2, 2, 2, TT, "log2(2**self + 2**other) (floating only)"),
    M_BIN("float_power", km_float_power,
          "(Tensor self, Tensor|Scalar exponent) -> Tensor | (Scalar self, Tensor exponent) -> Tensor",
          "(Tensor(a!) self, Tensor|Scalar exponent) -> Tensor(a!)",
          "pow in float64 (the in-place twin needs a float64 self)"),
    M_BIN("heaviside", km_heaviside, "(Tensor self, Tensor values) -> Tensor",
          "(Tensor(a!) self, Tensor values) -> Tensor(a!)",
          "self == 0 ? values : self > 0 (one dtype for both)"),
    M_BIN("nextafter", km_nextafter, TT, TT_, "the next value of self's dtype after self toward other"),
    M_BIN("ldexp", km_ldexp, "(Tensor self, Tensor other) -> Tensor | (float x, int i) -> float", TT_,
          "self * 2 ** other (the power in float32 unless other is floating)"),
    M_BIN("gcd", km_gcd, "(Tensor self, Tensor other) -> Tensor | (int a, int b) -> int", TT_,
          "greatest common divisor (integers)"),
    M_BIN("lcm", km_lcm, TT, TT_, "least common multiple (integers)"),

    /* shifts: the count modulo the promoted C type's width, as PyTorch 1.13 on x86-64 */
    M_PURE("__lshift__", km_lshift, 2, 2, "(Tensor self, Tensor|Scalar other) -> Tensor | (int a, int b) -> int",
           "self << other (integers; the count taken modulo 32, or 64 for int64)"),
    M_PURE("__rshift__", km_rshift, 2, 2, "(Tensor self, Tensor|Scalar other) -> Tensor | (int a, int b) -> int",
           "self >> other, arithmetic (integers; the count taken modulo 32, or 64 for int64)"),
    OPDEF("aten::__ilshift__", km_lshift_, EFF_WRITE, 0, "aten::__lshift__", 2, 2, 0, TS_, "self <<= other"),
    OPDEF("aten::__irshift__", km_rshift_, EFF_WRITE, 0, "aten::__rshift__", 2, 2, 0, TS_, "self >>= other"),
    M_PURE("bitwise_left_shift", km_lshift, 2, 2,
           "(Tensor self, Tensor|Scalar other) -> Tensor | (Scalar self, Tensor other) -> Tensor", "self << other"),
    OPDEF("aten::bitwise_left_shift_", km_lshift_, EFF_WRITE, 0, "aten::bitwise_left_shift", 2, 2, 0, TS_,
          "self <<= other"),
    M_PURE("bitwise_right_shift", km_rshift, 2, 2,
           "(Tensor self, Tensor|Scalar other) -> Tensor | (Scalar self, Tensor other) -> Tensor", "self >> other"),
    OPDEF("aten::bitwise_right_shift_", km_rshift_, EFF_WRITE, 0, "aten::bitwise_right_shift", 2, 2, 0, TS_,
          "self >>= other"),
    /* x &= y (traced): the in-place bitwise ops of k_elementwise.h */
    OPDEF("aten::__iand__", mck_bitwise_and_, EFF_WRITE, 0, "aten::bitwise_and", 2, 2, 0, TS_, "self &= other"),
    OPDEF("aten::__ior__", mck_bitwise_or_, EFF_WRITE, 0, "aten::bitwise_or", 2, 2, 0, TS_, "self |= other"),
    OPDEF("aten::__ixor__", mck_bitwise_xor_, EFF_WRITE, 0, "aten::bitwise_xor", 2, 2, 0, TS_, "self ^= other"),
    OPDEF("aten::bitwise_xor_", mck_bitwise_xor_, EFF_WRITE, 0, "aten::bitwise_xor", 2, 2, 0, TS_,
          "self ^= other (the elementwise family has bitwise_and_ and bitwise_or_)"),

    /* ternary */
    M_PURE("lerp", km_lerp, 3, 3, "(Tensor self, Tensor end, Scalar|Tensor weight) -> Tensor",
           "self + weight * (end - self) (PyTorch's two-sided formula); one floating dtype"),
    M_INPLACE("lerp", km_lerp, 3, 3, "(Tensor(a!) self, Tensor end, Scalar|Tensor weight) -> Tensor(a!)",
              "self = lerp(self, end, weight)"),
    M_PURE("addcmul", km_addcmul, 3, 4, "(Tensor self, Tensor tensor1, Tensor tensor2, Scalar value=1) -> Tensor",
           "self + value * tensor1 * tensor2, promoted"),
    M_INPLACE("addcmul", km_addcmul, 3, 4,
              "(Tensor(a!) self, Tensor tensor1, Tensor tensor2, Scalar value=1) -> Tensor(a!)", "self += value * t1 * t2"),
    M_PURE("addcdiv", km_addcdiv, 3, 4, "(Tensor self, Tensor tensor1, Tensor tensor2, Scalar value=1) -> Tensor",
           "self + value * tensor1 / tensor2, promoted (not for two integer tensors)"),
    M_INPLACE("addcdiv", km_addcdiv, 3, 4,
              "(Tensor(a!) self, Tensor tensor1, Tensor tensor2, Scalar value=1) -> Tensor(a!)", "self += value * t1 / t2"),
};
_Static_assert(sizeof rows / sizeof rows[0] == 106, "math op table size");

const OpFamily ops_family_math = {"math", rows, (int)(sizeof rows / sizeof rows[0])};
