/*
 * Meta functions of 2-D pooling (max, average, adaptive) and their backward ops, with PyTorch's
 * checks and messages (Pool.h's pooling_output_shape and pool2d_shape_check).
 *
 * Kernel contract: the input is [planes][H][W] contiguous (planes = N*C, or C unbatched), outputs
 * are allocated contiguous; ints = [kH, kW, sH, sW, pH, pW, dH, dW] for max/avg pooling, plus
 * [count_include_pad, divisor_override (0: none)] for average pooling. Max-pooling indices are int64
 * positions within a plane (h * W + w), as PyTorch's. max_pool_scatter (the backward of max
 * pooling: grad_output, indices -> grad_input) and max_pool_gather (its adjoint: self, indices ->
 * out) take ints[0] = how many trailing dims make a plane.
 */
#include "core_internal.h"

#include <string.h>

typedef struct pool2d {
    int64_t k[2], s[2], p[2], d[2];
    int64_t in[2], out[2];
} pool2d;

/* kernel_size, stride (empty: the kernel size), padding, dilation: one value or two. */
static int pool_params(const char *op, tc_int_list k, tc_int_list s, tc_int_list p, const tc_int_list *d,
                       pool2d *g) {
    if (k.len != 1 && k.len != 2)
        return tc_set_error(TC_ERR_RUNTIME, "%s: kernel_size must either be a single int, or a tuple of two ints", op);
    if (s.len != 0 && s.len != 1 && s.len != 2)
        return tc_set_error(TC_ERR_RUNTIME, "%s: stride must either be omitted, a single int, or a tuple of two ints",
                            op);
    if (p.len != 1 && p.len != 2)
        return tc_set_error(TC_ERR_RUNTIME, "%s: padding must %s a single int, or a tuple of two ints", op,
                            d ? "be either be" : "either be"); /* sic: PyTorch's max_pool2d message */
    if (d && d->len != 1 && d->len != 2)
        return tc_set_error(TC_ERR_RUNTIME, "%s: dilation must be either a single int, or a tuple of two ints", op);
    for (int i = 0; i < 2; i++) {
        g->k[i] = k.items[k.len == 1 ? 0 : i];
        g->s[i] = s.len == 0 ? g->k[i] : s.items[s.len == 1 ? 0 : i];
        g->p[i] = p.items[p.len == 1 ? 0 : i];
        g->d[i] = d ? d->items[d->len == 1 ? 0 : i] : 1;
    }
    return TC_OK;
}

/* pooling_output_shape: floor (or ceil) division, the last window starting inside the input. */
static int output_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil, int64_t *out) {
    if (stride == 0) return tc_set_error(TC_ERR_RUNTIME, "stride should not be zero");
    if (pad < 0) return tc_set_error(TC_ERR_RUNTIME, "pad must be non-negative, but got pad: %lld", (long long)pad);
    if (pad > k / 2)
        return tc_set_error(TC_ERR_RUNTIME, "pad should be at most half of kernel size, but got pad=%lld and "
                                            "kernel_size=%lld", (long long)pad, (long long)k);
    int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
    int64_t q = num / stride;
    if ((num % stride != 0) && ((num < 0) != (stride < 0))) q--; /* rounded towards -infinity */
    int64_t size = q + 1;
    if (ceil && (size - 1) * stride >= in + pad) size--;
    *out = size;
    return TC_OK;
}

/* pool2d_shape_check */
static int shape_check(const tc_tensor *in, const pool2d *g) {
    if (g->k[0] <= 0 || g->k[1] <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "kernel size should be greater than zero, but got kH: %lld kW: %lld",
                            (long long)g->k[0], (long long)g->k[1]);
    if (g->s[0] <= 0 || g->s[1] <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "stride should be greater than zero, but got dH: %lld dW: %lld",
                            (long long)g->s[0], (long long)g->s[1]);
    if (g->d[0] <= 0 || g->d[1] <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "dilation should be greater than zero, but got dilationH: %lld "
                                            "dilationW: %lld", (long long)g->d[0], (long long)g->d[1]);
    int32_t nd = in->ndim;
    bool valid = nd >= 3 && in->sizes[1] != 0 && in->sizes[2] != 0;
    if (!((nd == 3 && in->sizes[0] != 0 && valid) || (nd == 4 && valid && in->sizes[3] != 0))) {
        char s[256];
        tc_shape_format(nd, in->sizes, s, sizeof s);
        return tc_set_error(TC_ERR_RUNTIME, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for "
                                            "input, but got:%s", s);
    }
    if (g->k[1] / 2 < g->p[1] || g->k[0] / 2 < g->p[0])
        return tc_set_error(TC_ERR_RUNTIME, "pad should be smaller than or equal to half of kernel size, but got padW "
                                            "= %lld, padH = %lld, kW = %lld, kH = %lld", (long long)g->p[1],
                            (long long)g->p[0], (long long)g->k[1], (long long)g->k[0]);
    if (g->out[0] < 1 || g->out[1] < 1)
        return tc_set_error(TC_ERR_RUNTIME, "Given input size: (%lldx%lldx%lld). Calculated output size: "
                                            "(%lldx%lldx%lld). Output size is too small", (long long)in->sizes[nd - 3],
                            (long long)g->in[0], (long long)g->in[1], (long long)in->sizes[nd - 3],
                            (long long)g->out[0], (long long)g->out[1]);
    return TC_OK;
}

/* The geometry of a pooling of `in` with the parameters, checked as PyTorch does. */
static int pool_geometry(const char *op, const tc_tensor *in, tc_int_list k, tc_int_list s, tc_int_list p,
                         const tc_int_list *d, bool ceil, pool2d *g) {
    if (pool_params(op, k, s, p, d, g)) return TC_FAIL;
    if (in->ndim < 3) return tc_shape_wrap_dim(-3, in->ndim, &(int32_t){0}); /* PyTorch reads size(-3) first */
    g->in[0] = in->sizes[in->ndim - 2];
    g->in[1] = in->sizes[in->ndim - 1];
    for (int i = 0; i < 2; i++)
        if (output_size(g->in[i], g->k[i], g->p[i], g->s[i], g->d[i], ceil, &g->out[i])) return TC_FAIL;
    return shape_check(in, g);
}

static int plan_pool_ints(tc_plan *p, const pool2d *g) {
    const int64_t *groups[4] = {g->k, g->s, g->p, g->d};
    for (int i = 0; i < 4; i++)
        if (tc_plan_int(p, groups[i][0]) || tc_plan_int(p, groups[i][1])) return TC_FAIL;
    return TC_OK;
}

/* The sizes of `in` with its last two dims replaced. */
static void with_spatial(const tc_tensor *in, const int64_t *hw, int64_t *sizes) {
    memcpy(sizes, in->sizes, sizeof(int64_t) * (size_t)in->ndim);
    sizes[in->ndim - 2] = hw[0];
    sizes[in->ndim - 1] = hw[1];
}

static int check_dtype(const char *op, int32_t dtype, bool integers) {
    if (tc_dtype_is_floating(dtype) ? dtype != TC_FLOAT16 : integers && dtype == TC_INT64) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'", op, tc_dtype_scalar_name(dtype));
}

/* grad_output must have the sizes the forward op gives (a backward op's check). */
static int check_grad_output(const tc_tensor *go, const tc_tensor *in, const int64_t *hw) {
    int64_t sizes[TC_MAX_DIMS];
    with_spatial(in, hw, sizes);
    if (go->ndim != in->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "Expected a tensor of dimension %d but got: dimension %d", in->ndim,
                            go->ndim);
    for (int32_t d = 0; d < in->ndim; d++)
        if (go->sizes[d] != sizes[d])
            return tc_set_error(TC_ERR_RUNTIME, "Expected a tensor of dimension %d and tensor.size[%d] == %lld but got: "
                                                "dimension %d and tensor.size[%d] = %lld", in->ndim, d,
                                (long long)sizes[d], go->ndim, d, (long long)go->sizes[d]);
    return TC_OK;
}

/* A forward op's plan: output 0 of in's sizes with the spatial ones `hw` (and output 1, the int64
 * indices, where `indices`), computed in in's dtype from in made contiguous. */
static int plan_forward(tc_plan *p, tc_tensor *in, const int64_t *hw, bool indices) {
    int64_t sizes[4];
    with_spatial(in, hw, sizes);
    if (tc_plan_output(p, 0, in->ndim, sizes, in->dtype) ||
        (indices && tc_plan_output(p, 1, in->ndim, sizes, TC_INT64)))
        return TC_FAIL;
    p->dtype = in->dtype;
    return tc_plan_input_contiguous(p, in, -1);
}

/* A backward op's plan: grad_input of in's sizes and dtype, from grad_output (of in's dtype) made
 * contiguous. */
static int plan_backward(tc_plan *p, tc_tensor *go, tc_tensor *in) {
    if (go->dtype != in->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "expected grad_output to have dtype %s, but got %s",
                            tc_dtype_name(in->dtype), tc_dtype_name(go->dtype));
    if (tc_plan_output(p, 0, in->ndim, in->sizes, in->dtype)) return TC_FAIL;
    p->dtype = in->dtype;
    return tc_plan_input_contiguous(p, go, -1);
}

/* max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode) -> (values, indices) */
int tc_meta_max_pool2d_with_indices(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    pool2d g;
    tc_int_list d = tc_arg_ints(c, 4);
    if (pool_params("max_pool2d", tc_arg_ints(c, 1), tc_arg_ints(c, 2), tc_arg_ints(c, 3), &d, &g)) return TC_FAIL;
    if (in->ndim != 3 && in->ndim != 4)
        return tc_set_error(TC_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input");
    if (pool_geometry("max_pool2d", in, tc_arg_ints(c, 1), tc_arg_ints(c, 2), tc_arg_ints(c, 3), &d, tc_arg_bool(c, 5),
                      &g) ||
        check_dtype("max_pool2d", in->dtype, false))
        return TC_FAIL;
    return plan_forward(p, in, g.out, true) || plan_pool_ints(p, &g) ? TC_FAIL : TC_OK;
}

/* The scatter of max pooling's backward: gradients added at the positions indices name. */
static int plan_scatter(tc_plan *p, tc_tensor *go, tc_tensor *in, tc_tensor *indices) {
    if (indices->dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME, "expected indices to have dtype int64, but got %s",
                            tc_dtype_name(indices->dtype));
    if (!tc_shape_equal(indices->ndim, indices->sizes, go->ndim, go->sizes))
        return tc_set_error(TC_ERR_RUNTIME, "expected indices to have the shape of grad_output");
    if (plan_backward(p, go, in) || tc_plan_input_contiguous(p, indices, -1)) return TC_FAIL;
    return tc_plan_int(p, 2);
}

/* max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation,
 * ceil_mode, indices): kernel max_pool_scatter. */
int tc_meta_max_pool2d_with_indices_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *go = tc_arg_tensor(c, 0), *in = tc_arg_tensor(c, 1);
    pool2d g;
    tc_int_list d = tc_arg_ints(c, 5);
    if (in->ndim != 3 && in->ndim != 4)
        return tc_set_error(TC_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor expected for input");
    if (pool_geometry("max_pool2d_with_indices_backward", in, tc_arg_ints(c, 2), tc_arg_ints(c, 3), tc_arg_ints(c, 4),
                      &d, tc_arg_bool(c, 6), &g) ||
        check_dtype("max_pool2d_with_indices_backward", in->dtype, false) || check_grad_output(go, in, g.out))
        return TC_FAIL;
    return plan_scatter(p, go, in, tc_arg_tensor(c, 7));
}

/* avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override) */
static int avg_geometry(tc_opcall *c, tc_plan *p, tc_tensor *in, int first, pool2d *g) {
    bool has_divisor = !tc_arg_none(c, first + 5);
    if (pool_params("avg_pool2d", tc_arg_ints(c, first), tc_arg_ints(c, first + 1), tc_arg_ints(c, first + 2), NULL,
                    g))
        return TC_FAIL;
    if (has_divisor && tc_arg_int(c, first + 5) == 0) return tc_set_error(TC_ERR_RUNTIME, "divisor must be not zero");
    if (pool_geometry("avg_pool2d", in, tc_arg_ints(c, first), tc_arg_ints(c, first + 1), tc_arg_ints(c, first + 2),
                      NULL, tc_arg_bool(c, first + 3), g) ||
        check_dtype("avg_pool2d", in->dtype, true))
        return TC_FAIL;
    if (plan_pool_ints(p, g) || tc_plan_int(p, tc_arg_bool(c, first + 4))) return TC_FAIL;
    return tc_plan_int(p, has_divisor ? tc_arg_int(c, first + 5) : 0);
}

int tc_meta_avg_pool2d(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    pool2d g;
    if (avg_geometry(c, p, in, 1, &g)) return TC_FAIL;
    return plan_forward(p, in, g.out, false);
}

/* avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
 * divisor_override): kernel input grad_output -> grad_input of self's sizes. */
int tc_meta_avg_pool2d_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *go = tc_arg_tensor(c, 0), *in = tc_arg_tensor(c, 1);
    pool2d g;
    if (avg_geometry(c, p, in, 2, &g) || check_grad_output(go, in, g.out)) return TC_FAIL;
    return plan_backward(p, go, in);
}

/* Adaptive pooling: output_size of two values >= 0, a 3-D or 4-D input with no empty non-batch dim. */
static int adaptive_check(const char *op, const tc_tensor *in, tc_int_list size, bool max) {
    if (size.len != 2)
        return tc_set_error(TC_ERR_RUNTIME, max ? "%s(): internal error: output_size.size() must be 2"
                                                : "%s: output_size must be 2", op);
    if (!max && (size.items[0] < 0 || size.items[1] < 0))
        return tc_set_error(TC_ERR_RUNTIME, "%s: elements of output_size must be greater than or equal to 0 but "
                                            "received {%lld, %lld}", op, (long long)size.items[0],
                            (long long)size.items[1]);
    char s[256];
    tc_shape_format(in->ndim, in->sizes, s, sizeof s);
    if (in->ndim != 3 && in->ndim != 4)
        return tc_set_error(TC_ERR_RUNTIME, "%s(): Expected 3D or 4D tensor, but got%s %s", op, max ? ":" : "", s);
    for (int32_t d = 1; d < in->ndim; d++)
        if (in->sizes[d] == 0)
            return tc_set_error(TC_ERR_RUNTIME, "%s(): Expected input to have non-zero size for non-batch dimensions, "
                                                "but input has sizes %s with dimension %d being empty", op, s, d);
    if (max && (size.items[0] < 0 || size.items[1] < 0)) {
        int64_t sizes[4];
        with_spatial(in, size.items, sizes);
        tc_shape_format(in->ndim, sizes, s, sizeof s);
        return tc_set_error(TC_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: %s",
                            (long long)(size.items[0] < 0 ? size.items[0] : size.items[1]), s);
    }
    return TC_OK;
}

/* _adaptive_avg_pool2d(self, output_size) */
int tc_meta_adaptive_avg_pool2d(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    tc_int_list size = tc_arg_ints(c, 1);
    if (adaptive_check("adaptive_avg_pool2d", in, size, false) || check_dtype("adaptive_avg_pool2d", in->dtype, false))
        return TC_FAIL;
    return plan_forward(p, in, size.items, false);
}

/* _adaptive_avg_pool2d_backward(grad_output, self): grad_output's spatial sizes are the output size. */
int tc_meta_adaptive_avg_pool2d_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *go = tc_arg_tensor(c, 0), *in = tc_arg_tensor(c, 1);
    if (go->ndim != in->ndim || (in->ndim != 3 && in->ndim != 4))
        return tc_set_error(TC_ERR_RUNTIME, "adaptive_avg_pool2d_backward(): Expected 3D or 4D grad_output of the "
                                            "input's dimensions, but got %d and %d dimensions", go->ndim, in->ndim);
    for (int32_t d = 0; d < in->ndim - 2; d++)
        if (go->sizes[d] != in->sizes[d])
            return tc_set_error(TC_ERR_RUNTIME, "adaptive_avg_pool2d_backward(): grad_output and input differ at "
                                                "dimension %d", d);
    if (check_dtype("adaptive_avg_pool2d_backward", in->dtype, false)) return TC_FAIL;
    return plan_backward(p, go, in);
}

/* adaptive_max_pool2d(self, output_size) -> (values, indices) */
int tc_meta_adaptive_max_pool2d(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    tc_int_list size = tc_arg_ints(c, 1);
    if (adaptive_check("adaptive_max_pool2d", in, size, true) || check_dtype("adaptive_max_pool2d", in->dtype, false))
        return TC_FAIL;
    return plan_forward(p, in, size.items, true);
}

/* adaptive_max_pool2d_backward(grad_output, self, indices): kernel max_pool_scatter. */
int tc_meta_adaptive_max_pool2d_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *go = tc_arg_tensor(c, 0), *in = tc_arg_tensor(c, 1);
    if (in->ndim != 3 && in->ndim != 4) {
        char s[256];
        tc_shape_format(in->ndim, in->sizes, s, sizeof s);
        return tc_set_error(TC_ERR_RUNTIME, "adaptive_max_pool2d_backward(): Expected 3D or 4D tensor, but got: %s", s);
    }
    if (go->ndim != in->ndim) return tc_set_error(TC_ERR_RUNTIME, "expected grad_output to have %d dims", in->ndim);
    for (int32_t d = 0; d < in->ndim - 2; d++)
        if (go->sizes[d] != in->sizes[d])
            return tc_set_error(TC_ERR_RUNTIME, "expected grad_output and input to agree at dimension %d", d);
    if (check_dtype("adaptive_max_pool2d_backward", in->dtype, false)) return TC_FAIL;
    return plan_scatter(p, go, in, tc_arg_tensor(c, 2));
}

/* max_pool_double_backward(self, indices, dim): self's values at indices (positions within the
 * planes of the last `dim` dims), the adjoint of the scatter. Kernel max_pool_gather. */
int tc_meta_max_pool_double_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *indices = tc_arg_tensor(c, 1);
    int64_t dim = tc_arg_int(c, 2);
    if (dim < 1 || dim > self->ndim || indices->ndim != self->ndim || indices->dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME, "max_pool_double_backward: expected int64 indices of the input's "
                                            "dimensions");
    for (int32_t d = 0; d < self->ndim - dim; d++)
        if (indices->sizes[d] != self->sizes[d])
            return tc_set_error(TC_ERR_RUNTIME, "max_pool_double_backward: indices and input differ at dimension %d", d);
    if (tc_plan_output(p, 0, indices->ndim, indices->sizes, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input_contiguous(p, self, -1) || tc_plan_input_contiguous(p, indices, -1)) return TC_FAIL;
    return tc_plan_int(p, dim);
}
