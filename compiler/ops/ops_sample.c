/* ops_sample.c — the sample family's rows: spatial resampling: 3-D pools, upsampling in 1-3
 * dims (nearest, nearest-exact, linear, bicubic, antialiased), grid sampling and affine grids,
 * im2col/col2im, Tensor.unfold, and torchvision's roi_align, roi_pool, deform_conv2d (nms is
 * refused: its output size depends on the data). Kernels in k_sample.h. Overloads of one name
 * (the upsample .vec forms with output_size? and scale_factors?, and the sized forms with one
 * scale per dim) are told apart by the kernel from the kinds of its arguments. */
#include "ops.h"

#include "k_sample.h"
#include "k_sample_grid.h"

#define PURE(name, kern, nmin, nmax, schema, doc) \
  OPDEF(name, kern, EFF_PURE, 0, NULL, nmin, nmax, 0, schema, doc)

static const OpDef rows[] = {
    PURE("aten::max_pool3d", mcks_max_pool3d, 2, 6,
         "(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
         "int[3] dilation=1, bool ceil_mode=False) -> Tensor",
         "max over 3-d windows of (N, C, D, H, W) or (C, D, H, W); NaN propagates"),
    PURE("aten::max_pool3d_with_indices", mcks_max_pool3d_with_indices, 2, 6,
         "(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
         "int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
         "max_pool3d and the flat d*H*W+h*W+w index of each maximum"),
    PURE("aten::avg_pool3d", mcks_avg_pool3d, 2, 7,
         "(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
         "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
         "mean over 3-d windows"),
    PURE("aten::adaptive_avg_pool3d", mcks_adaptive_avg_pool3d, 2, 2,
         "(Tensor self, int[3] output_size) -> Tensor",
         "mean over windows [floor(i*in/out), ceil((i+1)*in/out)) per dim"),
    PURE("aten::adaptive_max_pool3d", mcks_adaptive_max_pool3d, 2, 2,
         "(Tensor self, int[3] output_size) -> (Tensor, Tensor)",
         "max and its flat d*H*W+h*W+w index over adaptive 3-d windows"),
    PURE("aten::upsample_nearest1d", mcks_upsample_nearest1d, 2, 3,
         "(Tensor input, int[]? output_size, float[]? scale_factors) -> Tensor | "
         "(Tensor self, int[1] output_size, float? scales=None) -> Tensor",
         "nearest-neighbour resize of (N, C, L), ATen's legacy index rule"),
    PURE("aten::upsample_nearest3d", mcks_upsample_nearest3d, 2, 5,
         "(Tensor input, int[]? output_size, float[]? scale_factors) -> Tensor | "
         "(Tensor self, int[3] output_size, float? scales_d=None, float? scales_h=None, "
         "float? scales_w=None) -> Tensor",
         "nearest-neighbour resize of (N, C, D, H, W), ATen's legacy index rule"),
    PURE("aten::_upsample_nearest_exact1d", mcks_upsample_nearest_exact1d, 2, 3,
         "(Tensor input, int[]? output_size, float[]? scale_factors) -> Tensor | "
         "(Tensor self, int[1] output_size, float? scales=None) -> Tensor",
         "nearest-exact resize of (N, C, L): source floor((i + 0.5) * scale)"),
    PURE("aten::_upsample_nearest_exact2d", mcks_upsample_nearest_exact2d, 2, 4,
         "(Tensor input, int[]? output_size, float[]? scale_factors) -> Tensor | "
         "(Tensor self, int[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor",
         "nearest-exact resize of (N, C, H, W)"),
    PURE("aten::_upsample_nearest_exact3d", mcks_upsample_nearest_exact3d, 2, 5,
         "(Tensor input, int[]? output_size, float[]? scale_factors) -> Tensor | "
         "(Tensor self, int[3] output_size, float? scales_d=None, float? scales_h=None, "
         "float? scales_w=None) -> Tensor",
         "nearest-exact resize of (N, C, D, H, W)"),
    PURE("aten::upsample_linear1d", mcks_upsample_linear1d, 3, 4,
         "(Tensor input, int[]? output_size, bool align_corners, float[]? scale_factors) -> "
         "Tensor | (Tensor self, int[1] output_size, bool align_corners, float? scales=None) -> Tensor",
         "linear resize of (N, C, L)"),
    PURE("aten::upsample_trilinear3d", mcks_upsample_trilinear3d, 3, 6,
         "(Tensor input, int[]? output_size, bool align_corners, float[]? scale_factors) -> "
         "Tensor | (Tensor self, int[3] output_size, bool align_corners, float? scales_d=None, "
         "float? scales_h=None, float? scales_w=None) -> Tensor",
         "trilinear resize of (N, C, D, H, W)"),
    PURE("aten::upsample_bicubic2d", mcks_upsample_bicubic2d, 3, 5,
         "(Tensor input, int[]? output_size, bool align_corners, float[]? scale_factors) -> "
         "Tensor | (Tensor self, int[2] output_size, bool align_corners, float? scales_h=None, "
         "float? scales_w=None) -> Tensor",
         "bicubic resize of (N, C, H, W): cubic convolution A = -0.75, border taps clamped"),
    PURE("aten::_upsample_bicubic2d_aa", mcks_upsample_bicubic2d_aa, 3, 5,
         "(Tensor input, int[]? output_size, bool align_corners, float[]? scale_factors) -> "
         "Tensor | (Tensor self, int[2] output_size, bool align_corners, float? scales_h=None, "
         "float? scales_w=None) -> Tensor",
         "antialiased bicubic resize (F.interpolate antialias=True): separable, A = -0.5, "
         "support widened by the downscale factor"),
    PURE("aten::_upsample_bilinear2d_aa", mcks_upsample_bilinear2d_aa, 3, 5,
         "(Tensor input, int[]? output_size, bool align_corners, float[]? scale_factors) -> "
         "Tensor | (Tensor self, int[2] output_size, bool align_corners, float? scales_h=None, "
         "float? scales_w=None) -> Tensor",
         "antialiased bilinear resize (triangle filter widened by the downscale factor)"),
    PURE("aten::grid_sampler", mcks_grid_sampler, 5, 5,
         "(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
         "bool align_corners) -> Tensor",
         "F.grid_sample of a 4-D or 5-D input: modes 0 bilinear, 1 nearest, 2 bicubic (4-D); "
         "padding 0 zeros, 1 border, 2 reflection"),
    PURE("aten::grid_sampler_2d", mcks_grid_sampler_2d, 5, 5,
         "(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
         "bool align_corners) -> Tensor",
         "grid_sampler of a 4-D input"),
    PURE("aten::grid_sampler_3d", mcks_grid_sampler_3d, 5, 5,
         "(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
         "bool align_corners) -> Tensor",
         "grid_sampler of a 5-D input (bilinear or nearest)"),
    PURE("aten::affine_grid_generator", mcks_affine_grid_generator, 3, 3,
         "(Tensor theta, int[] size, bool align_corners) -> Tensor",
         "F.affine_grid: the (N, [D,] H, W, 2|3) sampling grid of affine matrices theta"),
    PURE("aten::im2col", mcks_im2col, 5, 5,
         "(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor",
         "F.unfold: sliding blocks of (N, C, H, W) as columns (N, C*kh*kw, L)"),
    PURE("aten::col2im", mcks_col2im, 6, 6,
         "(Tensor self, int[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, "
         "int[2] stride) -> Tensor",
         "F.fold: columns (N, C*kh*kw, L) summed back into (N, C, H, W)"),
    OPDEF("aten::unfold", mcks_unfold, EFF_VIEW, 0, NULL, 4, 4, 0,
          "(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)",
          "view of the windows of `size` every `step` along a dim, as a new last dim"),
    PURE("torchvision::roi_align", mcks_roi_align, 7, 7,
         "(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width, "
         "int sampling_ratio, bool aligned) -> Tensor",
         "average of bilinear samples per bin of each roi (batch, x1, y1, x2, y2)"),
    PURE("torchvision::roi_pool", mcks_roi_pool, 5, 5,
         "(Tensor input, Tensor rois, float spatial_scale, int pooled_height, int pooled_width) "
         "-> (Tensor, Tensor)",
         "max per rounded bin of each roi, and its flat h*W+w index (int32, -1 when empty)"),
    PURE("torchvision::deform_conv2d", mcks_deform_conv2d, 14, 14,
         "(Tensor input, Tensor weight, Tensor offset, Tensor mask, Tensor bias, int stride_h, "
         "int stride_w, int pad_h, int pad_w, int dilation_h, int dilation_w, int groups, "
         "int offset_groups, bool use_mask) -> Tensor",
         "deformable convolution: taps sampled bilinearly at learned offsets, times the mask"),
    OPDEF("torchvision::nms", mcks_nms, EFF_PURE, 0, NULL, 3, 3, OPF_DATA_SIZED,
          "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
          "indices of the boxes kept by non-maximum suppression, by decreasing score (how many: known at run time)"),
};

const OpFamily ops_family_sample = {"sample", rows, (int)(sizeof rows / sizeof rows[0])};
