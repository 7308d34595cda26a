/*
 * Convolutions composed of the convolution op: conv1d/2d/3d and conv_transpose1d/2d/3d (unbatched
 * inputs, padding="same"/"valid"), _convolution (the older entry point), and the double backward of
 * convolution_backward. Which of 1d/2d/3d a call is comes from its schema: the length N of its int[N]
 * stride.
 */
#include "core_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define CONV_MAX_ND 3

/* The number of spatial dims of a convN/conv_transposeN call: the N of its `int[N] stride`. */
static int32_t spatial_dims_of(const tc_opcall *c) { return c->op->schema.args[3].fixed_len; }

/* Batched input as is, or an unbatched one ([C, spatial...]) with a batch dim of 1 added. */
static tc_tensor *batchify(tc_opcall *c, tc_tensor *input, int32_t nd, const char *name, bool *unbatched) {
    if (input->ndim != nd + 1 && input->ndim != nd + 2) {
        char got[256];
        tc_shape_format(input->ndim, input->sizes, got, sizeof got);
        tc_set_error(TC_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: %s",
                     nd + 1, nd + 2, name, got);
        return NULL;
    }
    *unbatched = input->ndim == nd + 1;
    if (*unbatched) return tc_unsqueeze(input, 0);
    tc_tensor_retain(input);
    return input;
}

static int unbatchify(tc_opcall *c, tc_tensor *result, bool unbatched) {
    if (!result || !unbatched) return tc_return(c, result);
    tc_tensor *r = tc_squeeze_dim(result, 0);
    tc_tensor_release(result);
    return tc_return(c, r);
}

/* conv1d/conv2d/conv3d(input, weight, bias, stride, padding, dilation, groups) */
int tc_impl_conv_nd(tc_opcall *c) {
    int32_t nd = spatial_dims_of(c);
    bool unbatched;
    tc_tensor *in = batchify(c, tc_arg_tensor(c, 0), nd, c->op->schema.name, &unbatched);
    if (!in) return TC_FAIL;
    int64_t zeros[CONV_MAX_ND] = {0};
    tc_tensor *r = tc_convolution(in, tc_arg_tensor(c, 1), tc_arg_none(c, 2) ? NULL : tc_arg_tensor(c, 2),
                                  tc_arg_ints(c, 3), tc_arg_ints(c, 4), tc_arg_ints(c, 5), false,
                                  (tc_int_list){zeros, nd}, tc_arg_int(c, 6));
    tc_tensor_release(in);
    return unbatchify(c, r, unbatched);
}

static void warn_same_padding_copy(void) {
    static atomic_bool warned;
    if (!atomic_exchange(&warned, true))
        tc_warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of the "
                "input be created");
}

/* padding="same": the input size kept (stride 1); an odd total padding puts the extra element on the
 * right, through a zero-padded copy of the input. */
static tc_tensor *conv_same(tc_tensor *in, tc_tensor *w, tc_tensor *bias, tc_int_list stride, tc_int_list dilation,
                            int64_t groups, int32_t nd) {
    int64_t left[CONV_MAX_ND], pad_nd[2 * CONV_MAX_ND] = {0}, zeros[CONV_MAX_ND] = {0};
    bool symmetric = true;
    if (w->ndim != nd + 2) /* convolution reports it; the padding needs the kernel's sizes first */
        return tc_convolution(in, w, bias, stride, (tc_int_list){zeros, nd}, dilation, false,
                              (tc_int_list){zeros, nd}, groups);
    for (int32_t i = 0; i < nd; i++) {
        int64_t d = dilation.items[dilation.len == 1 ? 0 : i];
        int64_t total = d * (w->sizes[i + 2] - 1);
        left[i] = total / 2;
        pad_nd[2 * (nd - 1 - i) + 1] = total - 2 * left[i]; /* F.pad's order: the last dim first */
        symmetric = symmetric && total % 2 == 0;
    }
    if (symmetric)
        return tc_convolution(in, w, bias, stride, (tc_int_list){left, nd}, dilation, false,
                              (tc_int_list){zeros, nd}, groups);
    warn_same_padding_copy();
    tc_tensor *padded = tc_constant_pad_nd(in, (tc_int_list){pad_nd, 2 * nd}, TC_SCALAR_OF_INT(0));
    if (!padded) return NULL;
    tc_tensor *r = tc_convolution(padded, w, bias, stride, (tc_int_list){left, nd}, dilation, false,
                                  (tc_int_list){zeros, nd}, groups);
    tc_tensor_release(padded);
    return r;
}

/* conv1d/conv2d/conv3d.padding(input, weight, bias, stride, str padding, dilation, groups) */
int tc_impl_conv_nd_padding(tc_opcall *c) {
    int32_t nd = spatial_dims_of(c);
    const char *mode = c->args[4].v.s;
    tc_int_list stride = tc_arg_ints(c, 3), dilation = tc_arg_ints(c, 5);
    bool same = strcmp(mode, "same") == 0;
    if (!same && strcmp(mode, "valid") != 0) return tc_set_error(TC_ERR_RUNTIME, "Invalid padding string: '%s'", mode);
    if (same)
        for (int64_t i = 0; i < stride.len; i++)
            if (stride.items[i] != 1)
                return tc_set_error(TC_ERR_RUNTIME, "padding='same' is not supported for strided convolutions");
    bool unbatched;
    tc_tensor *in = batchify(c, tc_arg_tensor(c, 0), nd, c->op->schema.name, &unbatched);
    if (!in) return TC_FAIL;
    tc_tensor *w = tc_arg_tensor(c, 1), *bias = tc_arg_none(c, 2) ? NULL : tc_arg_tensor(c, 2), *r;
    int64_t zeros[CONV_MAX_ND] = {0};
    if (same)
        r = conv_same(in, w, bias, stride, dilation, tc_arg_int(c, 6), nd);
    else
        r = tc_convolution(in, w, bias, stride, (tc_int_list){zeros, nd}, dilation, false, (tc_int_list){zeros, nd},
                           tc_arg_int(c, 6));
    tc_tensor_release(in);
    return unbatchify(c, r, unbatched);
}

/* conv_transpose1d/2d/3d(input, weight, bias, stride, padding, output_padding, groups, dilation) */
int tc_impl_conv_transpose_nd(tc_opcall *c) {
    int32_t nd = spatial_dims_of(c);
    char name[32];
    snprintf(name, sizeof name, "conv_transpose%dd", nd);
    bool unbatched;
    tc_tensor *in = batchify(c, tc_arg_tensor(c, 0), nd, name, &unbatched);
    if (!in) return TC_FAIL;
    tc_tensor *r = tc_convolution(in, tc_arg_tensor(c, 1), tc_arg_none(c, 2) ? NULL : tc_arg_tensor(c, 2),
                                  tc_arg_ints(c, 3), tc_arg_ints(c, 4), tc_arg_ints(c, 7), true, tc_arg_ints(c, 5),
                                  tc_arg_int(c, 6));
    tc_tensor_release(in);
    return unbatchify(c, r, unbatched);
}

/* _convolution(..., benchmark, deterministic, cudnn_enabled, allow_tf32): the backend flags mean
 * nothing on the CPU. */
int tc_impl__convolution(tc_opcall *c) {
    return tc_return(c, tc_convolution(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1),
                                       tc_arg_none(c, 2) ? NULL : tc_arg_tensor(c, 2), tc_arg_ints(c, 3),
                                       tc_arg_ints(c, 4), tc_arg_ints(c, 5), tc_arg_bool(c, 6), tc_arg_ints(c, 7),
                                       tc_arg_int(c, 8)));
}

static tc_tensor *opt_tensor(const tc_opcall *c, int i) { return tc_arg_none(c, i) ? NULL : tc_arg_tensor(c, i); }

/* One of convolution_backward's results (the others not computed). */
static tc_tensor *conv_backward_one(const tc_opcall *c, tc_tensor *go, tc_tensor *in, tc_tensor *w, int which) {
    bool mask[3] = {which == 0, which == 1, which == 2};
    tc_tensor *r[3] = {NULL, NULL, NULL};
    if (tc_convolution_backward(go, in, w, NULL, tc_arg_ints(c, 6), tc_arg_ints(c, 7), tc_arg_ints(c, 8),
                                tc_arg_bool(c, 9), tc_arg_ints(c, 10), tc_arg_int(c, 11), (tc_bool_list){mask, 3},
                                &r[0], &r[1], &r[2]))
        return NULL;
    return r[which];
}

static tc_tensor *conv_forward(const tc_opcall *c, tc_tensor *in, tc_tensor *w, tc_tensor *bias) {
    return tc_convolution(in, w, bias, tc_arg_ints(c, 6), tc_arg_ints(c, 7), tc_arg_ints(c, 8), tc_arg_bool(c, 9),
                          tc_arg_ints(c, 10), tc_arg_int(c, 11));
}

/* ggb ([C]) as a tensor of gO's shape, broadcast along every dim but the channels. */
static tc_tensor *bias_like(tc_tensor *ggb, tc_tensor *go) {
    int64_t shape[TC_MAX_DIMS];
    for (int32_t d = 0; d < go->ndim; d++) shape[d] = d == 1 ? go->sizes[1] : 1;
    tc_tensor *v = tc_view_default(ggb, (tc_int_list){shape, go->ndim});
    tc_tensor *r = v ? tc_expand(v, (tc_int_list){go->sizes, go->ndim}, false) : NULL;
    tc_tensor_release(v);
    return r;
}

/* _convolution_double_backward(ggI?, ggW?, ggb?, gO, weight, self, stride, padding, dilation,
 * transposed, output_padding, groups, output_mask) -> (ggO, gI, gW).
 *
 * convolution_backward's results are linear in gO: gI = F_x*(gO; W), gW = F_W*(gO; x), gb = sum gO,
 * where F(x, W) is the forward convolution. So <ggI, gI> + <ggW, gW> + <ggb, gb> =
 * <gO, F(ggI, W) + F(x, ggW) + ggb>, whose gradients are ggO = F(ggI, W) + F(x, ggW) + ggb,
 * gI = F_x*(gO; ggW) and gW = F_W*(gO; ggI). */
int tc_impl__convolution_double_backward(tc_opcall *c) {
    tc_tensor *ggi = opt_tensor(c, 0), *ggw = opt_tensor(c, 1), *ggb = opt_tensor(c, 2);
    tc_tensor *go = tc_arg_tensor(c, 3), *w = tc_arg_tensor(c, 4), *x = tc_arg_tensor(c, 5);
    const bool *mask = c->args[12].v.bools.items;
    tc_tensor *out[3] = {NULL, NULL, NULL};
    if (c->args[12].v.bools.len != 3) return tc_set_error(TC_ERR_RUNTIME, "output_mask must have 3 values");
    if (mask[0] && (ggi || ggw || ggb)) {
        tc_tensor *a = ggi ? conv_forward(c, ggi, w, ggb) : NULL;
        tc_tensor *b = ggw ? conv_forward(c, x, ggw, ggi ? NULL : ggb) : NULL;
        if ((ggi && !a) || (ggw && !b)) {
            tc_tensor_release(a);
            return TC_FAIL;
        }
        if (a && b) {
            out[0] = tc_add_Tensor(a, b, TC_SCALAR_OF_INT(1));
            tc_tensor_release(a);
            tc_tensor_release(b);
        } else {
            out[0] = a ? a : b ? b : bias_like(ggb, go);
        }
        if (!out[0]) return TC_FAIL;
    }
    if (mask[1] && ggw && !(out[1] = conv_backward_one(c, go, x, ggw, 0))) goto fail;
    if (mask[2] && ggi && !(out[2] = conv_backward_one(c, go, ggi, w, 1))) goto fail;
    for (int i = 0; i < 3; i++)
        c->outs[i] = out[i] ? (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = out[i]} : (tc_value){.tag = TC_VALUE_NONE};
    return TC_OK;
fail:
    for (int i = 0; i < 3; i++) tc_tensor_release(out[i]);
    return TC_FAIL;
}
