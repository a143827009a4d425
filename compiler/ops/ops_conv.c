/* ops_conv.c — op table of the convolution / pooling / normalisation / resampling family.
 * Every op here is pure (fresh outputs); the kernels live in k_conv.h (convolution), k_dw.h
 * (depthwise), k_norm.h and k_pool.h. Rows that share a kernel (conv1d/2d/3d, the pad
 * variants) differ only in name and schema; overloads of one name (conv2d with int[] or str
 * padding, upsample_*.vec) are told apart by the kernel from the kinds of its arguments.
 */
#include "ops.h"

#include "k_conv.h"
#include "k_norm.h"
#include "k_pool.h"
#include "k_fracpool.h"
#include "k_pad.h"

/* The convolution descriptors (ops.h OpConv): fold_bn, fuse, mc inspect and the emitter ask
 * these, not the op names. */
static const OpConv conv_flagged = {1, 2, 8, 2, 6, true, true, {0, 1, 2, 3, 4, 5, 8}, 9}; /* _convolution */
static const OpConv conv_nd = {1, 2, 6, 0, 0, true, true, {0, 1, 2, 3, 4, 5, 6}, 2};
static const OpConv conv_transposed = {1, 2, 6, 1, 0, false, false, {0}, 0};
static const OpConv conv_fused = {1, 2, 6, 0, 0, false, true, {0}, 0}; /* mc::conv_act */

static const OpDef rows[] = {
    OPDEF_CONV("aten::_convolution", mckc_convolution, 12, 13, conv_flagged,
          "(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, "
          "int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, "
          "bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor",
          "N-d (1..3) convolution or transposed convolution with groups"),
    OPDEF_CONV("aten::_convolution_mode", mckc_conv, 7, 7, conv_nd,
          "(Tensor input, Tensor weight, Tensor? bias, int[] stride, str padding, "
          "int[] dilation, int groups) -> Tensor",
          "convolution with padding 'same' or 'valid'"),
    OPDEF_CONV("aten::conv1d", mckc_conv, 2, 7, conv_nd,
          "(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, "
          "int[1]|str padding=0, int[1] dilation=1, int groups=1) -> Tensor",
          "1-d convolution over (N, C, L) or (C, L)"),
    OPDEF_CONV("aten::conv2d", mckc_conv, 2, 7, conv_nd,
          "(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
          "int[2]|str padding=0, int[2] dilation=1, int groups=1) -> Tensor",
          "2-d convolution over (N, C, H, W) or (C, H, W)"),
    OPDEF_CONV("aten::conv3d", mckc_conv, 2, 7, conv_nd,
          "(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, "
          "int[3]|str padding=0, int[3] dilation=1, int groups=1) -> Tensor",
          "3-d convolution over (N, C, D, H, W) or (C, D, H, W)"),
    OPDEF_CONV("aten::conv_transpose1d", mckc_conv_transpose, 2, 8, conv_transposed,
          "(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, "
          "int[1] output_padding=0, int groups=1, int[1] dilation=1) -> Tensor",
          "1-d transposed convolution"),
    OPDEF_CONV("aten::conv_transpose2d", mckc_conv_transpose, 2, 8, conv_transposed,
          "(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, "
          "int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor",
          "2-d transposed convolution"),
    OPDEF_CONV("aten::conv_transpose3d", mckc_conv_transpose, 2, 8, conv_transposed,
          "(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, "
          "int[3] output_padding=0, int groups=1, int[3] dilation=1) -> Tensor",
          "3-d transposed convolution"),
    OPDEF("aten::batch_norm", mckc_batch_norm, EFF_PURE, 0, NULL, 8, 9, 0,
          "(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
          "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) "
          "-> Tensor",
          "(x - mean[c]) / sqrt(var[c] + eps) * w[c] + b[c]; running stats, or batch stats "
          "when training (running stats are not updated)"),
    OPDEF("aten::instance_norm", mckc_instance_norm, EFF_PURE, 0, NULL, 8, 9, 0,
          "(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
          "Tensor? running_var, bool use_input_stats, float momentum, float eps, "
          "bool cudnn_enabled) -> Tensor",
          "normalise each (n, c) plane by its own statistics, then per-channel affine"),
    OPDEF("aten::layer_norm", mckc_layer_norm, EFF_PURE, 0, NULL, 2, 6, 0,
          "(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
          "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
          "normalise over the trailing dims normalized_shape, then elementwise affine"),
    OPDEF("aten::group_norm", mckc_group_norm, EFF_PURE, 0, NULL, 2, 6, 0,
          "(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, "
          "float eps=1e-05, bool cudnn_enabled=True) -> Tensor",
          "normalise each (n, group of channels), then per-channel affine"),
    OPDEF("aten::max_pool1d", mckc_max_pool1d, EFF_PURE, 0, NULL, 2, 6, 0,
          "(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
          "int[1] dilation=1, bool ceil_mode=False) -> Tensor",
          "max over windows of the last dim (stride [] = kernel)"),
    OPDEF("aten::max_pool1d_with_indices", mckc_max_pool1d_with_indices, EFF_PURE, 0, NULL, 2, 6, 0,
          "(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
          "int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
          "max_pool1d and the index in the last dim of each maximum"),
    OPDEF("aten::max_pool2d", mckc_max_pool2d, EFF_PURE, 0, NULL, 2, 6, 0,
          "(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
          "int[2] dilation=1, bool ceil_mode=False) -> Tensor",
          "max over 2-d windows; NaN propagates"),
    OPDEF("aten::max_pool2d_with_indices", mckc_max_pool2d_with_indices, EFF_PURE, 0, NULL, 2, 6,
          0,
          "(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
          "int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
          "max_pool2d and the flat h*W+w index of each maximum"),
    OPDEF("aten::avg_pool1d", mckc_avg_pool1d, EFF_PURE, 0, NULL, 2, 6, 0,
          "(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
          "bool ceil_mode=False, bool count_include_pad=True) -> Tensor",
          "mean over windows of the last dim"),
    OPDEF("aten::avg_pool2d", mckc_avg_pool2d, EFF_PURE, 0, NULL, 2, 7, 0,
          "(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
          "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) "
          "-> Tensor",
          "mean over 2-d windows"),
    OPDEF("aten::adaptive_avg_pool1d", mckc_adaptive_avg_pool1d, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int[1] output_size) -> Tensor",
          "mean over windows [floor(i*L/O), ceil((i+1)*L/O))"),
    OPDEF("aten::adaptive_avg_pool2d", mckc_adaptive_avg_pool2d, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int[2] output_size) -> Tensor",
          "mean over windows [floor(i*in/out), ceil((i+1)*in/out)) per dim"),
    OPDEF("aten::adaptive_max_pool1d", mckc_adaptive_max_pool1d, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int[1] output_size) -> (Tensor, Tensor)",
          "max and its index over adaptive windows"),
    OPDEF("aten::fractional_max_pool2d", mckc_fractional_max_pool2d, EFF_PURE, 0, NULL, 4, 4, 0,
          "(Tensor self, int[2] kernel_size, int[2] output_size, Tensor random_samples) -> (Tensor, Tensor)",
          "max over windows placed by random_samples [N, C, 2] (W, H), with flat indices (k_fracpool.h)"),
    OPDEF("aten::fractional_max_pool3d", mckc_fractional_max_pool3d, EFF_PURE, 0, NULL, 4, 4, 0,
          "(Tensor self, int[3] kernel_size, int[3] output_size, Tensor random_samples) -> (Tensor, Tensor)",
          "max over windows placed by random_samples [N, C, 3] (T, H, W), with flat indices"),
    OPDEF("aten::adaptive_max_pool2d", mckc_adaptive_max_pool2d, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int[2] output_size) -> (Tensor, Tensor)",
          "max and its flat h*W+w index over adaptive windows"),
    OPDEF("aten::upsample_nearest2d", mckc_upsample_nearest2d, EFF_PURE, 0, NULL, 2, 4, 0,
          "(Tensor input, int[]? output_size, float[]? scale_factors) -> Tensor | "
          "(Tensor self, int[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor",
          "nearest-neighbour resize of (N, C, H, W), ATen's legacy index rule"),
    OPDEF("aten::upsample_bilinear2d", mckc_upsample_bilinear2d, EFF_PURE, 0, NULL, 3, 5, 0,
          "(Tensor input, int[]? output_size, bool align_corners, float[]? scale_factors) -> "
          "Tensor | (Tensor self, int[2] output_size, bool align_corners, float? scales_h=None, "
          "float? scales_w=None) -> Tensor",
          "bilinear resize of (N, C, H, W)"),
    OPDEF("aten::pad", mckc_pad, EFF_PURE, 0, NULL, 2, 4, 0,
          "(Tensor self, int[] pad, str mode=\"constant\", float? value=None) -> Tensor",
          "pad trailing dims (last dim first); constant, reflect, replicate or circular"),
    OPDEF("aten::constant_pad_nd", mckc_constant_pad_nd, EFF_PURE, 0, NULL, 2, 3, 0,
          "(Tensor self, int[] pad, Scalar value=0) -> Tensor",
          "pad (or crop, for negative pads) trailing dims with a constant"),
    OPDEF("aten::reflection_pad1d", mckc_reflection_pad, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int[2] padding) -> Tensor", "reflect-pad the last dim"),
    OPDEF("aten::reflection_pad2d", mckc_reflection_pad, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int[4] padding) -> Tensor", "reflect-pad the last two dims"),
    OPDEF("aten::replication_pad1d", mckc_replication_pad, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int[2] padding) -> Tensor", "edge-pad the last dim"),
    OPDEF("aten::replication_pad2d", mckc_replication_pad, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int[4] padding) -> Tensor", "edge-pad the last two dims"),
    OPDEF("aten::pixel_shuffle", mckc_pixel_shuffle, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int upscale_factor) -> Tensor",
          "(*, C*r*r, H, W) -> (*, C, H*r, W*r)"),
    OPDEF("aten::pixel_unshuffle", mckc_pixel_unshuffle, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int downscale_factor) -> Tensor",
          "(*, C, H*r, W*r) -> (*, C*r*r, H, W)"),
    OPDEF("aten::channel_shuffle", mckc_channel_shuffle, EFF_PURE, 0, NULL, 2, 2, 0,
          "(Tensor self, int groups) -> Tensor",
          "output channel a*g+b = input channel b*(C/g)+a"),
    OPDEF_CONV("mc::conv_act", mckc_conv_act, 10, 10, conv_fused,
          "(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[]|str padding, "
          "int[] dilation, int groups, str act, float a, float b) -> Tensor",
          "act(conv(input, weight, bias)), made by the fuse pass: bias and activation (relu, "
          "hardtanh with bounds a, b, sigmoid, tanh, silu, hardswish, gelu, gelu_tanh, none) "
          "applied in the GEMM's store epilogue"),
};

_Static_assert(sizeof rows / sizeof rows[0] == 36, "update the row count of ops_family_conv");

const OpFamily ops_family_conv = {"conv", rows, (int)(sizeof rows / sizeof rows[0])};
