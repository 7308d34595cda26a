/*
 * Meta functions of convolution and its backward: PyTorch's checks and messages (Convolution.cpp's
 * check_shape_forward), the output sizes, and the kernels' contract:
 *
 *   ints = [nd, transposed, groups, stride[nd], padding[nd], dilation[nd]]  (nd spatial dims, 1..3)
 *   inputs contiguous; float16/bfloat16 operands arrive as float32 and integer ones as int64 (the
 *   kernel of the dtype computes in float, or in wrapping 64-bit integers, and writes its own dtype:
 *   an integer sum taken modulo 2^64 and then truncated equals the same sum in the narrow type).
 *
 * A convolution's weight is [C_out, C_in/groups, k...], a transposed one's [C_in, C_out/groups, k...].
 */
#include "core_internal.h"

#include <stdio.h>
#include <string.h>

#define CONV_MAX_ND 3

typedef struct conv_params {
    int32_t nd;
    bool transposed;
    int64_t groups;
    int64_t stride[CONV_MAX_ND], padding[CONV_MAX_ND], dilation[CONV_MAX_ND], output_padding[CONV_MAX_ND];
} conv_params;

/* A list argument of one value or nd values ("stride=1" means 1 in every spatial dim). */
static int expand_param(const char *name, tc_int_list v, int32_t nd, int64_t *out) {
    if (v.len != 1 && v.len != nd) {
        char got[256];
        tc_shape_format((int32_t)(v.len < TC_MAX_DIMS ? v.len : TC_MAX_DIMS), v.items, got, sizeof got);
        return tc_set_error(TC_ERR_RUNTIME, "expected %s to be a single integer value or a list of %d values to match "
                                            "the convolution dimensions, but got %s=%s", name, nd, name, got);
    }
    for (int32_t i = 0; i < nd; i++) out[i] = v.items[v.len == 1 ? 0 : i];
    return TC_OK;
}

/* stride, padding, dilation, transposed, output_padding, groups at arguments first..first+5. */
static int read_params(const tc_opcall *c, int first, int32_t nd, conv_params *cp) {
    cp->nd = nd;
    cp->transposed = tc_arg_bool(c, first + 3);
    cp->groups = tc_arg_int(c, first + 5);
    if (expand_param("stride", tc_arg_ints(c, first), nd, cp->stride) ||
        expand_param("padding", tc_arg_ints(c, first + 1), nd, cp->padding) ||
        expand_param("dilation", tc_arg_ints(c, first + 2), nd, cp->dilation) ||
        expand_param("output_padding", tc_arg_ints(c, first + 4), nd, cp->output_padding))
        return TC_FAIL;
    for (int32_t i = 0; i < nd; i++) {
        if (cp->stride[i] <= 0) return tc_set_error(TC_ERR_RUNTIME, "non-positive stride is not supported");
        if (cp->padding[i] < 0) return tc_set_error(TC_ERR_RUNTIME, "negative padding is not supported");
        if (cp->dilation[i] <= 0) return tc_set_error(TC_ERR_RUNTIME, "non-positive dilation is not supported");
        if (cp->output_padding[i] < 0)
            return tc_set_error(TC_ERR_RUNTIME, "negative output_padding is not supported");
    }
    if (cp->groups <= 0) return tc_set_error(TC_ERR_RUNTIME, "non-positive groups is not supported");
    return TC_OK;
}

/* "(6 x 6)" */
static void format_spatial(const int64_t *v, int32_t nd, char *buf, size_t len) {
    size_t at = (size_t)snprintf(buf, len, "(");
    for (int32_t i = 0; i < nd && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%lld", i ? " x " : "", (long long)v[i]);
    if (at < len) snprintf(buf + at, len - at, ")");
}

static const char *c_type(int32_t dtype) {
    static const char *names[TC_NUM_DTYPES] = {"bool", "unsigned char", "signed char", "short", "int", "long int",
                                               "c10::Half", "c10::BFloat16", "float", "double"};
    return names[dtype];
}

/* The dtypes PyTorch's CPU convolutions compute in. */
static int check_dtype(int32_t dtype, bool transposed) {
    bool ok = transposed ? (tc_dtype_is_floating(dtype) && dtype != TC_FLOAT16) || dtype == TC_INT64
                         : dtype != TC_FLOAT16 && dtype != TC_BOOL;
    if (ok) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                        transposed ? "slow_conv_transpose2d_out_cpu" : "slow_conv2d_cpu", tc_dtype_scalar_name(dtype));
}

/* Output sizes of a forward convolution (check_shape_forward), into out (input's ndim). */
static int forward_shape(const tc_tensor *in, const tc_tensor *w, const tc_tensor *bias, const conv_params *cp,
                         int64_t *out) {
    char ws[256], is[256];
    int32_t nd = cp->nd;
    tc_shape_format(w->ndim, w->sizes, ws, sizeof ws);
    tc_shape_format(in->ndim, in->sizes, is, sizeof is);
    if (in->ndim != w->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "Expected %d-dimensional input for %d-dimensional weight %s, but got "
                                            "%d-dimensional input of size %s instead", w->ndim, w->ndim, ws, in->ndim, is);
    if (w->sizes[0] < cp->groups)
        return tc_set_error(TC_ERR_RUNTIME, "Given groups=%lld, expected weight to be at least %lld at dimension 0, "
                                            "but got weight of size %s instead", (long long)cp->groups,
                            (long long)cp->groups, ws);
    if (w->sizes[0] % cp->groups)
        return tc_set_error(TC_ERR_RUNTIME, "Given groups=%lld, expected weight to be divisible by %lld at dimension "
                                            "0, but got weight of size [%s] instead", (long long)cp->groups,
                            (long long)cp->groups, ws);
    int64_t channels = cp->transposed ? w->sizes[0] : w->sizes[1] * cp->groups;
    if (in->sizes[1] != channels) {
        if (cp->transposed)
            return tc_set_error(TC_ERR_RUNTIME, "Given transposed=1, weight of size %s, expected input%s to have %lld "
                                                "channels, but got %lld channels instead", ws, is, (long long)channels,
                                (long long)in->sizes[1]);
        return tc_set_error(TC_ERR_RUNTIME, "Given groups=%lld, weight of size %s, expected input%s to have %lld "
                                            "channels, but got %lld channels instead", (long long)cp->groups, ws, is,
                            (long long)channels, (long long)in->sizes[1]);
    }
    int64_t out_channels = cp->transposed ? w->sizes[1] * cp->groups : w->sizes[0];
    if (bias && (bias->ndim != 1 || bias->sizes[0] != out_channels)) {
        char bs[256];
        tc_shape_format(bias->ndim, bias->sizes, bs, sizeof bs);
        return tc_set_error(TC_ERR_RUNTIME, "Given %s, weight of size %s, expected bias to be 1-dimensional with %lld "
                                            "elements, but got bias of size %s instead",
                            cp->transposed ? "transposed=1" : "weight", ws, (long long)out_channels, bs);
    }
    out[0] = in->sizes[0];
    out[1] = out_channels;
    int64_t padded[CONV_MAX_ND], kernel[CONV_MAX_ND], result[CONV_MAX_ND];
    bool too_small = false;
    for (int32_t i = 0; i < nd; i++) {
        int64_t size = in->sizes[i + 2], k = w->sizes[i + 2];
        kernel[i] = cp->dilation[i] * (k - 1) + 1;
        if (cp->transposed) {
            result[i] = (size - 1) * cp->stride[i] - 2 * cp->padding[i] + kernel[i] + cp->output_padding[i];
            too_small = too_small || result[i] <= 0;
        } else {
            padded[i] = size + 2 * cp->padding[i];
            too_small = too_small || padded[i] < kernel[i];
            result[i] = padded[i] < kernel[i] ? 0 : (padded[i] - kernel[i]) / cp->stride[i] + 1;
        }
        out[i + 2] = result[i];
    }
    if (cp->transposed) {
        for (int32_t i = 0; i < nd; i++)
            if (cp->output_padding[i] >= cp->stride[i] && cp->output_padding[i] >= cp->dilation[i]) {
                static const char *const axis[3][3] = {{"width"}, {"height", "width"}, {"depth", "height", "width"}};
                static const char *const what[3] = {"output_padding", "stride", "dilation"};
                const int64_t *values[3] = {cp->output_padding, cp->stride, cp->dilation};
                char msg[512];
                size_t at = (size_t)snprintf(msg, sizeof msg, "output padding must be smaller than either stride or "
                                                              "dilation, but got");
                for (int32_t k = 0; k < 3; k++)
                    for (int32_t j = 0; j < nd && at < sizeof msg; j++)
                        at += (size_t)snprintf(msg + at, sizeof msg - at, " %s_%s: %lld", what[k], axis[nd - 1][j],
                                               (long long)values[k][j]);
                return tc_set_error(TC_ERR_RUNTIME, "%s", msg);
            }
        if (too_small) {
            char a[128], b[128];
            format_spatial(in->sizes + 2, nd, a, sizeof a);
            format_spatial(result, nd, b, sizeof b);
            return tc_set_error(TC_ERR_RUNTIME, "Given input size per channel: %s. Calculated output size per channel: "
                                                "%s. Output size is too small", a, b);
        }
    } else if (too_small) {
        char a[128], b[128];
        format_spatial(padded, nd, a, sizeof a);
        format_spatial(kernel, nd, b, sizeof b);
        return tc_set_error(TC_ERR_RUNTIME, "Calculated padded input size per channel: %s. Kernel size: %s. Kernel "
                                            "size can't be greater than actual input size", a, b);
    }
    return TC_OK;
}

static int check_types(const tc_tensor *in, const tc_tensor *w, const tc_tensor *bias) {
    if (in->dtype != w->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "Input type (%s) and weight type (%s) should be the same or input should be "
                                            "a MKLDNN tensor and weight is a dense tensor",
                            tc_dtype_legacy_name(in->dtype), tc_dtype_legacy_name(w->dtype));
    if (bias && bias->dtype != in->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "Input type (%s) and bias type (%s) should be the same",
                            c_type(in->dtype), c_type(bias->dtype));
    return TC_OK;
}

static int spatial_dims(const tc_tensor *w, int32_t *nd) {
    if (w->ndim < 3 || w->ndim > 2 + CONV_MAX_ND) {
        char ws[256];
        tc_shape_format(w->ndim, w->sizes, ws, sizeof ws);
        return tc_set_error(TC_ERR_RUNTIME, "Expected a weight of 3, 4 or 5 dimensions (1, 2 or 3 spatial), but got "
                                            "weight of size %s", ws);
    }
    *nd = w->ndim - 2;
    return TC_OK;
}

/* The contract's ints and the compute dtype of the operands (float for the 16-bit floats). */
static int plan_params(tc_plan *p, const conv_params *cp, int32_t dtype, int32_t *operand_dtype) {
    *operand_dtype = dtype == TC_FLOAT16 || dtype == TC_BFLOAT16 ? TC_FLOAT32
                     : tc_dtype_is_floating(dtype)                ? dtype
                                                                  : TC_INT64;
    p->dtype = dtype;
    if (tc_plan_int(p, cp->nd) || tc_plan_int(p, cp->transposed) || tc_plan_int(p, cp->groups)) return TC_FAIL;
    for (int32_t i = 0; i < cp->nd; i++)
        if (tc_plan_int(p, cp->stride[i])) return TC_FAIL;
    for (int32_t i = 0; i < cp->nd; i++)
        if (tc_plan_int(p, cp->padding[i])) return TC_FAIL;
    for (int32_t i = 0; i < cp->nd; i++)
        if (tc_plan_int(p, cp->dilation[i])) return TC_FAIL;
    return TC_OK;
}

/* convolution(input, weight, bias?, stride, padding, dilation, transposed, output_padding, groups):
 * kernel inputs x, w[, bias] -> y. */
int tc_meta_convolution(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0), *w = tc_arg_tensor(c, 1);
    tc_tensor *bias = tc_arg_none(c, 2) ? NULL : tc_arg_tensor(c, 2);
    conv_params cp;
    int32_t nd = 0, od;
    int64_t sizes[2 + CONV_MAX_ND];
    if (spatial_dims(w, &nd) || read_params(c, 3, nd, &cp) || check_types(in, w, bias) ||
        forward_shape(in, w, bias, &cp, sizes) || check_dtype(in->dtype, cp.transposed))
        return TC_FAIL;
    if (tc_plan_output(p, 0, in->ndim, sizes, in->dtype) || plan_params(p, &cp, in->dtype, &od)) return TC_FAIL;
    if (tc_plan_input_contiguous(p, in, od) || tc_plan_input_contiguous(p, w, od)) return TC_FAIL;
    return bias ? tc_plan_input_contiguous(p, bias, od) : TC_OK;
}

/* convolution_backward(grad_output, input, weight, bias_sizes?, stride, padding, dilation, transposed,
 * output_padding, groups, output_mask): kernel inputs gO, x, w -> grad_input, grad_weight, grad_bias,
 * each undefined (ndim -1) where output_mask says so. */
int tc_meta_convolution_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *go = tc_arg_tensor(c, 0), *in = tc_arg_tensor(c, 1), *w = tc_arg_tensor(c, 2);
    conv_params cp;
    int32_t nd = 0, od;
    int64_t sizes[2 + CONV_MAX_ND];
    if (spatial_dims(w, &nd) || read_params(c, 4, nd, &cp) || check_types(in, w, NULL) ||
        forward_shape(in, w, NULL, &cp, sizes) || check_dtype(in->dtype, cp.transposed))
        return TC_FAIL;
    if (go->dtype != in->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "expected grad_output to have dtype %s, but got %s",
                            tc_dtype_name(in->dtype), tc_dtype_name(go->dtype));
    if (!tc_shape_equal(go->ndim, go->sizes, in->ndim, sizes)) {
        char a[256], b[256];
        tc_shape_format(go->ndim, go->sizes, a, sizeof a);
        tc_shape_format(in->ndim, sizes, b, sizeof b);
        return tc_set_error(TC_ERR_RUNTIME, "Expected grad_output of size %s, but got %s", b, a);
    }
    tc_bool_list mask = {c->args[10].v.bools.items, c->args[10].v.bools.len};
    int64_t bias_size = cp.transposed ? w->sizes[1] * cp.groups : w->sizes[0];
    tc_int_list bias_sizes = tc_arg_none(c, 3) ? (tc_int_list){&bias_size, 1} : tc_arg_ints(c, 3);
    if (mask.len != 3) return tc_set_error(TC_ERR_RUNTIME, "output_mask must have 3 values");
    if (mask.items[2] && (bias_sizes.len != 1 || bias_sizes.items[0] != bias_size))
        return tc_set_error(TC_ERR_RUNTIME, "convolution_backward: bias_sizes must be [%lld]", (long long)bias_size);
    if ((mask.items[0] ? tc_plan_output(p, 0, in->ndim, in->sizes, in->dtype) : tc_plan_output_none(p, 0)) ||
        (mask.items[1] ? tc_plan_output(p, 1, w->ndim, w->sizes, w->dtype) : tc_plan_output_none(p, 1)) ||
        (mask.items[2] ? tc_plan_output(p, 2, 1, &bias_size, in->dtype) : tc_plan_output_none(p, 2)))
        return TC_FAIL;
    if (plan_params(p, &cp, in->dtype, &od)) return TC_FAIL;
    return tc_plan_input_contiguous(p, go, od) || tc_plan_input_contiguous(p, in, od) ||
                   tc_plan_input_contiguous(p, w, od) ? TC_FAIL : TC_OK;
}
