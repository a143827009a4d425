/* mcu_nn.cuh — GEMM through cuBLAS (float32, no TF32: the handle runs CUBLAS_DEFAULT_MATH),
 * im2col and direct convolution, pooling, softmax, layer and batch norm, over compact float32
 * NCHW / row-major tensors (the emitter makes operands compact first). One thread per output
 * element or per reduced row: simple and plainly correct; cuBLAS carries the heavy work. */

/* Row-major C[M,N] = alpha * A[M,K] . B[K,N] + beta * C, `batch` times with element strides
 * sA, sB, sC. ta = 0: A[m,k] = A[m*lda + k]; ta = 1: A[m,k] = A[k*lda + m] (same for B). cuBLAS
 * is column-major, so it computes C^T = B^T A^T. */
static inline cublasStatus_t mcu_gemm(cublasHandle_t h, int M, int N, int K, float alpha, const float *A, int ta,
                                      int lda, long long sA, const float *B, int tb, int ldb, long long sB, float beta,
                                      float *C, int ldc, long long sC, int batch) {
  if (M == 0 || N == 0 || batch == 0) return CUBLAS_STATUS_SUCCESS;
  return cublasSgemmStridedBatched(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K, &alpha,
                                   B, ldb, sB, A, lda, sA, &beta, C, ldc, sC, batch);
}

/* y[n, c, r] = bias[c] over y of shape [outer, C, inner] (compact) */
template <int U = 0> __global__ void mcu_k_fill_bias(float *y, const float *bias, int64_t C, int64_t inner, int64_t n) {
  MCU_FOR(i, n) y[i] = bias[(i / inner) % C];
}
static inline cudaError_t mcu_fill_bias(cudaStream_t s, float *y, const float *bias, int64_t C, int64_t inner, int64_t n) {
  if (n == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_fill_bias<0>, mcu_blocks(n), MCU_THREADS, 0, s, y, bias, C, inner, n);
  return cudaGetLastError();
}

/* Convolution geometry (2-d; 1-d convolutions are 2-d with H = 1). */
struct mcu_conv {
  int64_t N, C, H, W, OC, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw, groups;
};

/* col[n][(c*kh + i)*kw + j][oh*OW + ow] = x[n][c][oh*sh - ph + i*dh][ow*sw - pw + j*dw] (0 outside) */
template <int U = 0> __global__ void mcu_k_im2col(const float *x, float *col, mcu_conv g) {
  int64_t ohw = g.OH * g.OW, K = g.C * g.kh * g.kw, n = g.N * K * ohw;
  MCU_FOR(t, n) {
    int64_t p = t % ohw, r = (t / ohw) % K, b = t / (ohw * K);
    int64_t j = r % g.kw, i = (r / g.kw) % g.kh, c = r / (g.kw * g.kh);
    int64_t ih = (p / g.OW) * g.sh - g.ph + i * g.dh, iw = (p % g.OW) * g.sw - g.pw + j * g.dw;
    col[t] = ih >= 0 && ih < g.H && iw >= 0 && iw < g.W ? x[((b * g.C + c) * g.H + ih) * g.W + iw] : 0.f;
  }
}
static inline cudaError_t mcu_im2col(cudaStream_t s, const float *x, float *col, const mcu_conv &g) {
  int64_t n = g.N * g.C * g.kh * g.kw * g.OH * g.OW;
  if (n == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_im2col<0>, mcu_blocks(n), MCU_THREADS, 0, s, x, col, g);
  return cudaGetLastError();
}

/* Direct convolution, one thread per output element, any groups; bias may be NULL. */
template <int U = 0> __global__ void mcu_k_conv_direct(const float *x, const float *w, const float *bias, float *y, mcu_conv g) {
  int64_t n = g.N * g.OC * g.OH * g.OW, cg = g.C / g.groups, ocg = g.OC / g.groups;
  MCU_FOR(t, n) {
    int64_t ow = t % g.OW, oh = (t / g.OW) % g.OH, oc = (t / (g.OW * g.OH)) % g.OC, b = t / (g.OW * g.OH * g.OC);
    int64_t c0 = (oc / ocg) * cg;
    float acc = bias ? bias[oc] : 0.f;
    for (int64_t c = 0; c < cg; c++)
      for (int64_t i = 0; i < g.kh; i++) {
        int64_t ih = oh * g.sh - g.ph + i * g.dh;
        if (ih < 0 || ih >= g.H) continue;
        for (int64_t j = 0; j < g.kw; j++) {
          int64_t iw = ow * g.sw - g.pw + j * g.dw;
          if (iw < 0 || iw >= g.W) continue;
          acc += x[((b * g.C + c0 + c) * g.H + ih) * g.W + iw] * w[((oc * cg + c) * g.kh + i) * g.kw + j];
        }
      }
    y[t] = acc;
  }
}
static inline cudaError_t mcu_conv_direct(cudaStream_t s, const float *x, const float *w, const float *bias, float *y, const mcu_conv &g) {
  int64_t n = g.N * g.OC * g.OH * g.OW;
  if (n == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_conv_direct<0>, mcu_blocks(n), MCU_THREADS, 0, s, x, w, bias, y, g);
  return cudaGetLastError();
}

/* Pooling over [P = N*C planes][H][W] -> [P][OH][OW]. kind 0: max; 1: avg (count_include_pad,
 * divisor_override > 0 replaces the divisor); 2: adaptive avg (PyTorch's floor/ceil bins). */
struct mcu_pool {
  int64_t P, H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw;
  int kind, count_include_pad;
  int64_t divisor;
};
template <int U = 0> __global__ void mcu_k_pool(const float *x, float *y, mcu_pool g) {
  int64_t n = g.P * g.OH * g.OW;
  MCU_FOR(t, n) {
    int64_t ow = t % g.OW, oh = (t / g.OW) % g.OH, p = t / (g.OW * g.OH);
    const float *xp = x + p * g.H * g.W;
    if (g.kind == 0) {
      float m = -INFINITY;
      for (int64_t i = 0; i < g.kh; i++) {
        int64_t ih = oh * g.sh - g.ph + i * g.dh;
        if (ih < 0 || ih >= g.H) continue;
        for (int64_t j = 0; j < g.kw; j++) {
          int64_t iw = ow * g.sw - g.pw + j * g.dw;
          if (iw < 0 || iw >= g.W) continue;
          float v = xp[ih * g.W + iw];
          if (v > m || v != v) m = v;
          if (m != m) break;
        }
      }
      y[t] = m;
      continue;
    }
    int64_t h0, h1, w0, w1, div;
    if (g.kind == 2) {
      h0 = oh * g.H / g.OH, h1 = ((oh + 1) * g.H + g.OH - 1) / g.OH;
      w0 = ow * g.W / g.OW, w1 = ((ow + 1) * g.W + g.OW - 1) / g.OW;
      div = (h1 - h0) * (w1 - w0);
    } else {
      h0 = oh * g.sh - g.ph, w0 = ow * g.sw - g.pw;
      h1 = h0 + g.kh < g.H + g.ph ? h0 + g.kh : g.H + g.ph;
      w1 = w0 + g.kw < g.W + g.pw ? w0 + g.kw : g.W + g.pw;
      int64_t full = (h1 - h0) * (w1 - w0);
      h0 = h0 < 0 ? 0 : h0, w0 = w0 < 0 ? 0 : w0;
      h1 = h1 < g.H ? h1 : g.H, w1 = w1 < g.W ? w1 : g.W;
      div = g.divisor > 0 ? g.divisor : g.count_include_pad ? full : (h1 - h0) * (w1 - w0);
    }
    float acc = 0.f;
    for (int64_t i = h0; i < h1; i++)
      for (int64_t j = w0; j < w1; j++) acc += xp[i * g.W + j];
    y[t] = acc / (float)div;
  }
}
static inline cudaError_t mcu_pool2d(cudaStream_t s, const float *x, float *y, const mcu_pool &g) {
  int64_t n = g.P * g.OH * g.OW;
  if (n == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_pool<0>, mcu_blocks(n), MCU_THREADS, 0, s, x, y, g);
  return cudaGetLastError();
}

/* softmax (log = 0) or log_softmax (log = 1) over D of a compact [outer][D][inner] tensor */
template <int U = 0> __global__ void mcu_k_softmax(const float *x, float *y, int64_t outer, int64_t D, int64_t inner, int log) {
  MCU_FOR(t, outer * inner) {
    int64_t base = (t / inner) * D * inner + t % inner;
    float m = -INFINITY;
    for (int64_t k = 0; k < D; k++) m = fmaxf(m, x[base + k * inner]);
    float sum = 0.f;
    for (int64_t k = 0; k < D; k++) sum += expf(x[base + k * inner] - m);
    for (int64_t k = 0; k < D; k++) {
      float v = x[base + k * inner] - m;
      y[base + k * inner] = log ? v - logf(sum) : expf(v) / sum;
    }
  }
}
static inline cudaError_t mcu_softmax(cudaStream_t s, const float *x, float *y, int64_t outer, int64_t D, int64_t inner, int log) {
  if (outer * inner == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_softmax<0>, mcu_blocks(outer * inner), MCU_THREADS, 0, s, x, y, outer, D, inner, log);
  return cudaGetLastError();
}

/* layer_norm over the last D elements of each of `rows` compact rows; w, b may be NULL */
template <int U = 0> __global__ void mcu_k_layer_norm(const float *x, float *y, const float *w, const float *b, int64_t rows, int64_t D, float eps) {
  MCU_FOR(r, rows) {
    const float *xr = x + r * D;
    float *yr = y + r * D;
    float mean = 0.f, var = 0.f;
    for (int64_t k = 0; k < D; k++) mean += xr[k];
    mean /= (float)D;
    for (int64_t k = 0; k < D; k++) var += (xr[k] - mean) * (xr[k] - mean);
    float inv = rsqrtf(var / (float)D + eps);
    for (int64_t k = 0; k < D; k++) yr[k] = (xr[k] - mean) * inv * (w ? w[k] : 1.f) + (b ? b[k] : 0.f);
  }
}
static inline cudaError_t mcu_layer_norm(cudaStream_t s, const float *x, float *y, const float *w, const float *b, int64_t rows, int64_t D, float eps) {
  if (rows == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_layer_norm<0>, mcu_blocks(rows), MCU_THREADS, 0, s, x, y, w, b, rows, D, eps);
  return cudaGetLastError();
}

/* inference batch_norm over compact [outer][C][inner]: (x - mean) / sqrt(var + eps) * w + b */
template <int U = 0> __global__ void mcu_k_batch_norm(const float *x, float *y, const float *w, const float *b, const float *mean,
                                                      const float *var, int64_t C, int64_t inner, int64_t n, float eps) {
  MCU_FOR(i, n) {
    int64_t c = (i / inner) % C;
    y[i] = (x[i] - mean[c]) / sqrtf(var[c] + eps) * (w ? w[c] : 1.f) + (b ? b[c] : 0.f);
  }
}
static inline cudaError_t mcu_batch_norm(cudaStream_t s, const float *x, float *y, const float *w, const float *b, const float *mean,
                                         const float *var, int64_t C, int64_t inner, int64_t n, float eps) {
  if (n == 0) return cudaSuccess;
  MC_LAUNCH(mcu_k_batch_norm<0>, mcu_blocks(n), MCU_THREADS, 0, s, x, y, w, b, mean, var, C, inner, n, eps);
  return cudaGetLastError();
}
