/* mcu_elementwise.cuh — grid-stride elementwise kernels over float32 with broadcasting and
 * arbitrary strides (mcu_nd): y = f(a, b) where b is a tensor or, when NULL, the scalar bval
 * (comparisons: a bool y);
 * masked_fill; and a strided copy of any element size (views made compact, cat, write-backs).
 * A functor is a struct with `__device__ float operator()(float a, float b) const`; unary ones
 * ignore b. NaN behaves as in PyTorch: relu/hardtanh/clamp/maximum/minimum propagate it. */
template <class F> __global__ void mcu_k_map(float *y, const float *a, const float *b, float bval, mcu_nd d, F f) {
  MCU_FOR(i, d.n) {
    int64_t o[3];
    mcu_nd_offsets(d, i, o);
    y[o[0]] = f(a[o[1]], b ? b[o[2]] : bval);
  }
}
template <class F>
static inline cudaError_t mcu_map(cudaStream_t s, float *y, const float *a, const float *b, float bval, const mcu_nd &d, F f) {
  if (d.n == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_map<F>, mcu_blocks(d.n), MCU_THREADS, 0, s, y, a, b, bval, d, f);
  return cudaGetLastError();
}

/* y (bool, one byte) = f(a, b) != 0: the comparisons of float32 operands */
template <class F> __global__ void mcu_k_map_bool(unsigned char *y, const float *a, const float *b, float bval, mcu_nd d, F f) {
  MCU_FOR(i, d.n) {
    int64_t o[3];
    mcu_nd_offsets(d, i, o);
    y[o[0]] = f(a[o[1]], b ? b[o[2]] : bval) != 0.f;
  }
}
template <class F>
static inline cudaError_t mcu_map_bool(cudaStream_t s, unsigned char *y, const float *a, const float *b, float bval, const mcu_nd &d,
                                       F f) {
  if (d.n == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_map_bool<F>, mcu_blocks(d.n), MCU_THREADS, 0, s, y, a, b, bval, d, f);
  return cudaGetLastError();
}
struct mcu_f_gt { __device__ float operator()(float a, float b) const { return a > b ? 1.f : 0.f; } };
struct mcu_f_lt { __device__ float operator()(float a, float b) const { return a < b ? 1.f : 0.f; } };
struct mcu_f_ge { __device__ float operator()(float a, float b) const { return a >= b ? 1.f : 0.f; } };
struct mcu_f_le { __device__ float operator()(float a, float b) const { return a <= b ? 1.f : 0.f; } };
struct mcu_f_eq { __device__ float operator()(float a, float b) const { return a == b ? 1.f : 0.f; } };
struct mcu_f_ne { __device__ float operator()(float a, float b) const { return a != b ? 1.f : 0.f; } };

struct mcu_f_add { float alpha; __device__ float operator()(float a, float b) const { return a + alpha * b; } };
struct mcu_f_sub { float alpha; __device__ float operator()(float a, float b) const { return a - alpha * b; } };
struct mcu_f_rsub { float alpha; __device__ float operator()(float a, float b) const { return b - alpha * a; } };
struct mcu_f_mul { __device__ float operator()(float a, float b) const { return a * b; } };
struct mcu_f_div { __device__ float operator()(float a, float b) const { return a / b; } };
struct mcu_f_pow { __device__ float operator()(float a, float b) const { return powf(a, b); } };
struct mcu_f_maximum { __device__ float operator()(float a, float b) const { return a != a || b != b ? a + b : a > b ? a : b; } };
struct mcu_f_minimum { __device__ float operator()(float a, float b) const { return a != a || b != b ? a + b : a < b ? a : b; } };
struct mcu_f_id { __device__ float operator()(float a, float) const { return a; } };
struct mcu_f_neg { __device__ float operator()(float a, float) const { return -a; } };
struct mcu_f_abs { __device__ float operator()(float a, float) const { return fabsf(a); } };
struct mcu_f_relu { __device__ float operator()(float a, float) const { return a != a ? a : a > 0.f ? a : 0.f; } };
struct mcu_f_sigmoid { __device__ float operator()(float a, float) const { return 1.f / (1.f + expf(-a)); } };
struct mcu_f_tanh { __device__ float operator()(float a, float) const { return tanhf(a); } };
struct mcu_f_exp { __device__ float operator()(float a, float) const { return expf(a); } };
struct mcu_f_log { __device__ float operator()(float a, float) const { return logf(a); } };
struct mcu_f_sqrt { __device__ float operator()(float a, float) const { return sqrtf(a); } };
struct mcu_f_rsqrt { __device__ float operator()(float a, float) const { return 1.f / sqrtf(a); } };
struct mcu_f_reciprocal { __device__ float operator()(float a, float) const { return 1.f / a; } };
struct mcu_f_erf { __device__ float operator()(float a, float) const { return erff(a); } };
struct mcu_f_sin { __device__ float operator()(float a, float) const { return sinf(a); } };
struct mcu_f_cos { __device__ float operator()(float a, float) const { return cosf(a); } };
struct mcu_f_silu { __device__ float operator()(float a, float) const { return a / (1.f + expf(-a)); } };
struct mcu_f_gelu { __device__ float operator()(float a, float) const { return 0.5f * a * (1.f + erff(a * 0.70710678118654752f)); } };
struct mcu_f_gelu_tanh {
  __device__ float operator()(float a, float) const {
    return 0.5f * a * (1.f + tanhf(0.79788456080286536f * (a + 0.044715f * a * a * a)));
  }
};
struct mcu_f_hardswish { __device__ float operator()(float a, float) const { return a * fminf(fmaxf(a + 3.f, 0.f), 6.f) / 6.f; } };
struct mcu_f_hardsigmoid { __device__ float operator()(float a, float) const { return fminf(fmaxf(a + 3.f, 0.f), 6.f) / 6.f; } };
/* clamp / hardtanh / relu6: a bound that is NaN-free and has_* set applies; NaN inputs pass */
struct mcu_f_clamp {
  int has_lo, has_hi;
  float lo, hi;
  __device__ float operator()(float a, float) const {
    if (has_lo && a < lo) a = lo;
    if (has_hi && a > hi) a = hi;
    return a;
  }
};
struct mcu_f_leaky_relu { float slope; __device__ float operator()(float a, float) const { return a > 0.f ? a : a * slope; } };
struct mcu_f_elu { float alpha; __device__ float operator()(float a, float) const { return a > 0.f ? a : alpha * expm1f(a); } };

/* y = mask ? v : a; the mask (bool, one byte) is operand 2 of d */
template <int U = 0> __global__ void mcu_k_masked_fill(float *y, const float *a, const unsigned char *m, float v, mcu_nd d) {
  MCU_FOR(i, d.n) {
    int64_t o[3];
    mcu_nd_offsets(d, i, o);
    y[o[0]] = m[o[2]] ? v : a[o[1]];
  }
}
static inline cudaError_t mcu_masked_fill(cudaStream_t s, float *y, const float *a, const unsigned char *m, float v, const mcu_nd &d) {
  if (d.n == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_masked_fill<0>, mcu_blocks(d.n), MCU_THREADS, 0, s, y, a, m, v, d);
  return cudaGetLastError();
}

/* y[o0] = a[o1] for elements of T (any dtype of that size) */
template <class T> __global__ void mcu_k_copy(T *y, const T *a, mcu_nd d) {
  MCU_FOR(i, d.n) {
    int64_t o[3];
    mcu_nd_offsets(d, i, o);
    y[o[0]] = a[o[1]];
  }
}
template <class T> static inline cudaError_t mcu_copy(cudaStream_t s, void *y, const void *a, const mcu_nd &d) {
  if (d.n == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_copy<T>, mcu_blocks(d.n), MCU_THREADS, 0, s, (T *)y, (const T *)a, d);
  return cudaGetLastError();
}
