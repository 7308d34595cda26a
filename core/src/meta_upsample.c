/*
 * Meta functions of upsampling (nearest and linear, 1-D and 2-D) and their backward ops, with
 * PyTorch's checks (UpSample.h's upsample_1d/2d_common_check).
 *
 * Kernel contract (upsample, upsample_backward): the input (grad_output) is [planes][IH][IW]
 * contiguous, a 1-D upsampling having IH = OH = 1; ints [mode (0 nearest, 1 linear),
 * align_corners]; scalars [scale_h, scale_w]: the user's scale factors, 0 when absent (the kernel
 * then uses input/output sizes, as PyTorch's compute_scales_value does).
 */
#include "core_internal.h"

enum { UP_NEAREST, UP_LINEAR };

/* The sizes of a `nd`-spatial-dim upsampling of `input_size` to `output_size`. */
static int check_sizes(int32_t nd, tc_int_list output_size, tc_int_list input_size) {
    if (output_size.len != nd)
        return tc_set_error(TC_ERR_RUNTIME, "It is expected output_size equals to %d, but got size %lld", nd,
                            (long long)output_size.len);
    if (input_size.len != nd + 2)
        return tc_set_error(TC_ERR_RUNTIME, "It is expected input_size equals to %d, but got size %lld", nd + 2,
                            (long long)input_size.len);
    bool bad = false;
    for (int32_t i = 0; i < nd; i++) bad = bad || input_size.items[2 + i] <= 0 || output_size.items[i] <= 0;
    if (bad && nd == 1)
        return tc_set_error(TC_ERR_RUNTIME, "Input and output sizes should be greater than 0, but got input (W: %lld) "
                                            "and output (W: %lld)", (long long)input_size.items[2],
                            (long long)output_size.items[0]);
    if (bad)
        return tc_set_error(TC_ERR_RUNTIME, "Input and output sizes should be greater than 0, but got input (H: %lld, "
                                            "W: %lld) output (H: %lld, W: %lld)", (long long)input_size.items[2],
                            (long long)input_size.items[3], (long long)output_size.items[0],
                            (long long)output_size.items[1]);
    return TC_OK;
}

static int check_dtype(int mode, int32_t dtype) {
    if (dtype == TC_FLOAT32 || dtype == TC_FLOAT64 || dtype == TC_BFLOAT16 || (mode == UP_NEAREST && dtype == TC_UINT8))
        return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                        mode == UP_NEAREST ? "compute_indices_weights_nearest" : "compute_indices_weights_linear",
                        tc_dtype_scalar_name(dtype));
}

static double scale_arg(const tc_opcall *c, int i) { return i < 0 || tc_arg_none(c, i) ? 0.0 : c->args[i].v.f; }

/* The kernel's geometry: [planes][H][W] sizes of the input side (`in`) and output side. */
static int plan_upsample(tc_plan *p, int mode, bool align, double sh, double sw) {
    if (tc_plan_int(p, mode) || tc_plan_int(p, align)) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(sh)) || tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(sw)) ? TC_FAIL : TC_OK;
}

/* upsample_*(self, output_size[, align_corners], scales...) */
static int upsample(tc_opcall *c, tc_plan *p, int32_t nd, int mode, int align_arg, int scale_arg0) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    tc_int_list out = tc_arg_ints(c, 1);
    if (check_sizes(nd, out, (tc_int_list){in->sizes, in->ndim}) || check_dtype(mode, in->dtype)) return TC_FAIL;
    int64_t rest = 1;
    for (int32_t d = 1; d < in->ndim; d++) rest *= in->sizes[d];
    if (rest == 0) {
        char s[256];
        tc_shape_format(in->ndim, in->sizes, s, sizeof s);
        return tc_set_error(TC_ERR_RUNTIME, "Non-empty %dD data tensor expected but got a tensor with sizes %s", nd + 2, s);
    }
    int64_t sizes[4] = {in->sizes[0], in->sizes[1], out.items[0], nd == 2 ? out.items[1] : 0};
    if (tc_plan_output(p, 0, nd + 2, sizes, in->dtype)) return TC_FAIL;
    p->dtype = in->dtype;
    if (tc_plan_input_contiguous(p, in, -1)) return TC_FAIL;
    double sh = nd == 2 ? scale_arg(c, scale_arg0) : 0, sw = scale_arg(c, scale_arg0 + (nd == 2));
    return plan_upsample(p, mode, align_arg >= 0 && tc_arg_bool(c, align_arg), sh, sw);
}

/* upsample_*_backward(grad_output, output_size, input_size[, align_corners], scales...) */
static int upsample_backward(tc_opcall *c, tc_plan *p, int32_t nd, int mode, int align_arg, int scale_arg0) {
    tc_tensor *go = tc_arg_tensor(c, 0);
    tc_int_list out = tc_arg_ints(c, 1), in = tc_arg_ints(c, 2);
    if (check_sizes(nd, out, in) || check_dtype(mode, go->dtype)) return TC_FAIL;
    if (go->ndim != nd + 2)
        return tc_set_error(TC_ERR_RUNTIME, "Expected grad_output to be a tensor of dimension %d but got: dimension %d",
                            nd + 2, go->ndim);
    for (int32_t d = 0; d < nd + 2; d++) {
        int64_t want = d < 2 ? in.items[d] : out.items[d - 2];
        if (go->sizes[d] != want)
            return tc_set_error(TC_ERR_RUNTIME, "Expected grad_output to have the same shape as output; output.size(%d) = "
                                                "%lld but got grad_output.size(%d) = %lld", d, (long long)want, d,
                                (long long)go->sizes[d]);
    }
    if (tc_plan_output(p, 0, (int32_t)in.len, in.items, go->dtype)) return TC_FAIL;
    p->dtype = go->dtype;
    if (tc_plan_input_contiguous(p, go, -1)) return TC_FAIL;
    double sh = nd == 2 ? scale_arg(c, scale_arg0) : 0, sw = scale_arg(c, scale_arg0 + (nd == 2));
    return plan_upsample(p, mode, align_arg >= 0 && tc_arg_bool(c, align_arg), sh, sw);
}

int tc_meta_upsample_nearest1d(tc_opcall *c, tc_plan *p) { return upsample(c, p, 1, UP_NEAREST, -1, 2); }
int tc_meta_upsample_nearest2d(tc_opcall *c, tc_plan *p) { return upsample(c, p, 2, UP_NEAREST, -1, 2); }
int tc_meta_upsample_linear1d(tc_opcall *c, tc_plan *p) { return upsample(c, p, 1, UP_LINEAR, 2, 3); }
int tc_meta_upsample_bilinear2d(tc_opcall *c, tc_plan *p) { return upsample(c, p, 2, UP_LINEAR, 2, 3); }
int tc_meta_upsample_nearest1d_backward(tc_opcall *c, tc_plan *p) {
    return upsample_backward(c, p, 1, UP_NEAREST, -1, 3);
}
int tc_meta_upsample_nearest2d_backward(tc_opcall *c, tc_plan *p) {
    return upsample_backward(c, p, 2, UP_NEAREST, -1, 3);
}
int tc_meta_upsample_linear1d_backward(tc_opcall *c, tc_plan *p) { return upsample_backward(c, p, 1, UP_LINEAR, 3, 4); }
int tc_meta_upsample_bilinear2d_backward(tc_opcall *c, tc_plan *p) {
    return upsample_backward(c, p, 2, UP_LINEAR, 3, 4);
}
