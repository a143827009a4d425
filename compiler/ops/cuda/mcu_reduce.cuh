/* mcu_reduce.cuh — sum and mean of float32 over any set of dims, read with arbitrary strides:
 * one block per output element (grid-stride over outputs), each thread sums a strided share of
 * the reduced elements, then the block adds the partial sums as a tree in shared memory. The
 * output is compact, in the row-major order of the kept dims. mean divides the sum by the
 * number of reduced elements (0/0 = NaN for an empty reduction, as PyTorch). */
#define MCU_RED_THREADS 128

struct mcu_red {
  int nk, nr; /* kept and reduced dims */
  int64_t kshape[MCU_MAX_DIMS], kst[MCU_MAX_DIMS], rshape[MCU_MAX_DIMS], rst[MCU_MAX_DIMS];
  int64_t nout, nred;
  float div; /* 1 for sum, nred for mean */
};

template <int U = 0> __global__ void mcu_k_reduce(const float *x, float *y, mcu_red g) {
  __shared__ float buf[MCU_RED_THREADS];
  for (int64_t o = blockIdx.x; o < g.nout; o += gridDim.x) {
    int64_t base = 0, q = o;
    for (int k = g.nk - 1; k >= 0; k--) {
      base += q % g.kshape[k] * g.kst[k];
      q /= g.kshape[k];
    }
    float acc = 0.f;
    for (int64_t r = threadIdx.x; r < g.nred; r += blockDim.x) {
      int64_t off = base, t = r;
      for (int k = g.nr - 1; k >= 0; k--) {
        off += t % g.rshape[k] * g.rst[k];
        t /= g.rshape[k];
      }
      acc += x[off];
    }
    buf[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
      __syncthreads();
    }
    if (threadIdx.x == 0) y[o] = buf[0] / g.div;
    __syncthreads(); /* buf is reused by the block's next output */
  }
}
static inline cudaError_t mcu_reduce(cudaStream_t s, const float *x, float *y, const mcu_red &g) {
  if (g.nout == 0) return cudaSuccess;
  unsigned blocks = (unsigned)(g.nout < 65535 * 8 ? g.nout : 65535 * 8);
  MC_LAUNCH(mcu_k_reduce<0>, blocks, MCU_RED_THREADS, 0, s, x, y, g);
  return cudaGetLastError();
}
