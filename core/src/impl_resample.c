/*
 * Resampling composed of other ops: the .vec forms of the upsampling ops (an output size, or scale
 * factors the output size is computed from, as F.interpolate passes them) and pixel_shuffle /
 * pixel_unshuffle (a reshape, a permutation and a copy).
 */
#include "core_internal.h"

#include <math.h>

#define UP_MAX_ND 2

typedef struct up_args {
    int64_t size[UP_MAX_ND];
    double scale[UP_MAX_ND];
    bool has_scale;
} up_args;

/* compute_output_size: output_size, or floor(input size * scale factor), exactly one given. */
static int output_size(const tc_opcall *c, int size_arg, int scales_arg, tc_int_list input_size, int32_t nd,
                       up_args *u) {
    bool has_size = !tc_arg_none(c, size_arg), has_scales = !tc_arg_none(c, scales_arg);
    if (has_size == has_scales)
        return tc_set_error(TC_ERR_RUNTIME, "Must specify exactly one of output_size and scale_factors");
    if (input_size.len != nd + 2)
        return tc_set_error(TC_ERR_RUNTIME, "It is expected input_size equals to %d, but got size %lld", nd + 2,
                            (long long)input_size.len);
    u->has_scale = has_scales;
    if (has_size) {
        tc_int_list s = tc_arg_ints(c, size_arg);
        if (s.len != nd)
            return tc_set_error(TC_ERR_RUNTIME, "It is expected output_size equals to %d, but got size %lld", nd,
                                (long long)s.len);
        for (int32_t i = 0; i < nd; i++) u->size[i] = s.items[i];
        return TC_OK;
    }
    tc_float_list f = {c->args[scales_arg].v.floats.items, c->args[scales_arg].v.floats.len};
    if (f.len != nd)
        return tc_set_error(TC_ERR_RUNTIME, "It is expected scale_factors equals to %d, but got size %lld", nd,
                            (long long)f.len);
    for (int32_t i = 0; i < nd; i++) {
        double v = (double)input_size.items[2 + i] * f.items[i];
        if (!(v > -9.2e18 && v < 9.2e18)) return tc_set_error(TC_ERR_RUNTIME, "upsample: the output size overflows");
        u->size[i] = (int64_t)v;
        u->scale[i] = f.items[i];
    }
    return TC_OK;
}

static const double *scale_of(const up_args *u, int i) { return u->has_scale ? &u->scale[i] : NULL; }

/* upsample_*.vec(input, output_size, [align_corners,] scale_factors) */
int tc_impl_upsample_nearest1d_vec(tc_opcall *c) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    up_args u;
    if (output_size(c, 1, 2, (tc_int_list){in->sizes, in->ndim}, 1, &u)) return TC_FAIL;
    return tc_return(c, tc_upsample_nearest1d(in, (tc_int_list){u.size, 1}, scale_of(&u, 0)));
}

int tc_impl_upsample_nearest2d_vec(tc_opcall *c) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    up_args u;
    if (output_size(c, 1, 2, (tc_int_list){in->sizes, in->ndim}, 2, &u)) return TC_FAIL;
    return tc_return(c, tc_upsample_nearest2d(in, (tc_int_list){u.size, 2}, scale_of(&u, 0), scale_of(&u, 1)));
}

int tc_impl_upsample_linear1d_vec(tc_opcall *c) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    up_args u;
    if (output_size(c, 1, 3, (tc_int_list){in->sizes, in->ndim}, 1, &u)) return TC_FAIL;
    return tc_return(c, tc_upsample_linear1d(in, (tc_int_list){u.size, 1}, tc_arg_bool(c, 2), scale_of(&u, 0)));
}

int tc_impl_upsample_bilinear2d_vec(tc_opcall *c) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    up_args u;
    if (output_size(c, 1, 3, (tc_int_list){in->sizes, in->ndim}, 2, &u)) return TC_FAIL;
    return tc_return(c, tc_upsample_bilinear2d(in, (tc_int_list){u.size, 2}, tc_arg_bool(c, 2), scale_of(&u, 0),
                                               scale_of(&u, 1)));
}

/* upsample_*_backward.vec(grad_output, output_size, input_size, [align_corners,] scale_factors) */
int tc_impl_upsample_nearest1d_backward_vec(tc_opcall *c) {
    tc_int_list in = tc_arg_ints(c, 2);
    up_args u;
    if (output_size(c, 1, 3, in, 1, &u)) return TC_FAIL;
    return tc_return(c, tc_upsample_nearest1d_backward(tc_arg_tensor(c, 0), (tc_int_list){u.size, 1}, in,
                                                       scale_of(&u, 0)));
}

int tc_impl_upsample_nearest2d_backward_vec(tc_opcall *c) {
    tc_int_list in = tc_arg_ints(c, 2);
    up_args u;
    if (output_size(c, 1, 3, in, 2, &u)) return TC_FAIL;
    return tc_return(c, tc_upsample_nearest2d_backward(tc_arg_tensor(c, 0), (tc_int_list){u.size, 2}, in,
                                                       scale_of(&u, 0), scale_of(&u, 1)));
}

int tc_impl_upsample_linear1d_backward_vec(tc_opcall *c) {
    tc_int_list in = tc_arg_ints(c, 2);
    up_args u;
    if (output_size(c, 1, 4, in, 1, &u)) return TC_FAIL;
    return tc_return(c, tc_upsample_linear1d_backward(tc_arg_tensor(c, 0), (tc_int_list){u.size, 1}, in,
                                                      tc_arg_bool(c, 3), scale_of(&u, 0)));
}

int tc_impl_upsample_bilinear2d_backward_vec(tc_opcall *c) {
    tc_int_list in = tc_arg_ints(c, 2);
    up_args u;
    if (output_size(c, 1, 4, in, 2, &u)) return TC_FAIL;
    return tc_return(c, tc_upsample_bilinear2d_backward(tc_arg_tensor(c, 0), (tc_int_list){u.size, 2}, in,
                                                        tc_arg_bool(c, 3), scale_of(&u, 0), scale_of(&u, 1)));
}

/* x viewed as split (a view of `split` sizes), permuted by `perm`, copied into `shape`: a new tensor
 * even when the permutation moves nothing. */
static tc_tensor *rearranged(tc_tensor *x, tc_int_list split, tc_int_list perm, tc_int_list shape) {
    tc_tensor *v = tc_reshape(x, split);
    tc_tensor *p = v ? tc_permute(v, perm) : NULL;
    tc_tensor *copy = p ? tc_clone(p, TC_MEMORY_FORMAT_CONTIGUOUS) : NULL;
    tc_tensor *r = copy ? tc_view_default(copy, shape) : NULL;
    tc_tensor_release(v);
    tc_tensor_release(p);
    tc_tensor_release(copy);
    return r;
}

/* pixel_shuffle(self, r): [*, C r^2, H, W] -> [*, C, H r, W r];
 * pixel_unshuffle(self, r): the inverse. */
static int shuffle(tc_opcall *c, bool up) {
    tc_tensor *x = tc_arg_tensor(c, 0);
    int64_t r = tc_arg_int(c, 1);
    const char *op = up ? "pixel_shuffle" : "pixel_unshuffle";
    if (x->ndim < 3)
        return tc_set_error(TC_ERR_RUNTIME, "%s expects input to have at least 3 dimensions, but got input with %d "
                                            "dimension(s)", op, x->ndim);
    if (r <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "%s expects a positive %s, but got %lld", op,
                            up ? "upscale_factor" : "downscale_factor", (long long)r);
    int32_t lead = x->ndim - 3;
    int64_t C = x->sizes[lead], H = x->sizes[lead + 1], W = x->sizes[lead + 2], rr;
    if (__builtin_mul_overflow(r, r, &rr)) return tc_set_error(TC_ERR_RUNTIME, "%s: the factor is too large", op);
    if (up && C % rr)
        return tc_set_error(TC_ERR_RUNTIME, "pixel_shuffle expects its input's 'channel' dimension to be divisible by "
                                            "the square of upscale_factor, but input.size(-3)=%lld is not divisible by "
                                            "%lld", (long long)C, (long long)rr);
    if (!up && (H % r || W % r))
        return tc_set_error(TC_ERR_RUNTIME, "pixel_unshuffle expects %s to be divisible by downscale_factor, but "
                                            "input.size(%d)=%lld is not divisible by %lld", H % r ? "height" : "width",
                            H % r ? -2 : -1, (long long)(H % r ? H : W), (long long)r);
    if (tc_shape_check_ndim(x->ndim + 3)) return TC_FAIL;
    int64_t split[TC_MAX_DIMS], perm[TC_MAX_DIMS], shape[TC_MAX_DIMS];
    for (int32_t d = 0; d < lead; d++) split[d] = shape[d] = x->sizes[d], perm[d] = d;
    const int64_t *order;
    if (up) { /* [C, r, r, H, W] -> [C, H, r, W, r] */
        const int64_t s[5] = {C / rr, r, r, H, W}, o[5] = {0, 3, 1, 4, 2}, out[3] = {C / rr, H * r, W * r};
        for (int i = 0; i < 5; i++) split[lead + i] = s[i];
        for (int i = 0; i < 3; i++) shape[lead + i] = out[i];
        order = o;
        for (int i = 0; i < 5; i++) perm[lead + i] = lead + order[i];
    } else { /* [C, H, r, W, r] -> [C, r, r, H, W] */
        const int64_t s[5] = {C, H / r, r, W / r, r}, o[5] = {0, 2, 4, 1, 3}, out[3] = {C * rr, H / r, W / r};
        for (int i = 0; i < 5; i++) split[lead + i] = s[i];
        for (int i = 0; i < 3; i++) shape[lead + i] = out[i];
        order = o;
        for (int i = 0; i < 5; i++) perm[lead + i] = lead + order[i];
    }
    return tc_return(c, rearranged(x, (tc_int_list){split, lead + 5}, (tc_int_list){perm, lead + 5},
                                   (tc_int_list){shape, lead + 3}));
}

int tc_impl_pixel_shuffle(tc_opcall *c) { return shuffle(c, true); }
int tc_impl_pixel_unshuffle(tc_opcall *c) { return shuffle(c, false); }
