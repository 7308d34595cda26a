/*
 * Normalisations composed of the native ops: batch_norm, layer_norm, group_norm and instance_norm
 * (PyTorch's front doors, with their checks), and the double backward of the native backward ops,
 * written with ops so that it is differentiable again.
 *
 * The double backward of batch norm follows from differentiating its backward by hand (the terms
 * through the batch mean and variance included). Layer and group norm normalise rows of their
 * input; seen as a batch norm of a [1, rows, D] tensor without weight they reuse it: with
 * g' = gO * gamma their input gradient is BN's for g', their weight gradient sum(gO * xhat), so the
 * second derivatives are BN's second derivatives (for ggI), xhat's own derivative (for ggG: the
 * BN input gradient of gO * ggG), and plain products.
 */
#include "core_internal.h"
#include "nn_expr.h"

#include <stdio.h>
#include <string.h>

static tc_tensor *opt(const tc_opcall *c, int i) { return tc_arg_none(c, i) ? NULL : tc_arg_tensor(c, i); }

static int return_three(tc_opcall *c, tc_tensor *a, tc_tensor *b, tc_tensor *d) {
    tc_tensor *r[3] = {a, b, d};
    for (int i = 0; i < 3; i++)
        c->outs[i] = r[i] ? (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = r[i]} : (tc_value){.tag = TC_VALUE_NONE};
    return TC_OK;
}

/* The three results of an expression scope (each may be NULL), then the scope released; TC_FAIL where
 * the scope failed. */
static int return_scope_three(tc_opcall *c, nnx_scope *s, tc_tensor *a, tc_tensor *b, tc_tensor *d) {
    if (s->failed) {
        nnx_release(s);
        return TC_FAIL;
    }
    tc_tensor *out[3] = {nnx_result(s, a), nnx_result(s, b), nnx_result(s, d)};
    nnx_release(s);
    return return_three(c, out[0], out[1], out[2]);
}

/* ---- the front doors ---- */

/* The result of a native norm whose call gave status rc: the output r[0]; r[1] and r[2], the saved
 * statistics, dropped. */
static int return_output(tc_opcall *c, int rc, tc_tensor **r) {
    if (rc) return TC_FAIL;
    tc_tensor_release(r[1]);
    tc_tensor_release(r[2]);
    return tc_return(c, r[0]);
}

/* batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled) */
int tc_impl_batch_norm(tc_opcall *c) {
    tc_tensor *in = tc_arg_tensor(c, 0), *w = opt(c, 1), *b = opt(c, 2);
    int32_t d;
    if (tc_shape_wrap_dim(1, in->ndim, &d)) return TC_FAIL;
    if (tc_tensor_numel(in) == 0) { /* a copy, with the parameters in the graph as PyTorch keeps them */
        nnx_scope s = {0};
        tc_tensor *out = nnx_keep(&s, tc_clone(in, -1));
        if (w) out = nnx_mul(&s, out, nnx_keep(&s, tc_select_int(w, 0, 0)));
        if (b) out = nnx_add(&s, out, nnx_keep(&s, tc_select_int(b, 0, 0)));
        tc_tensor *r = nnx_result(&s, out);
        nnx_release(&s);
        return tc_return(c, r);
    }
    tc_tensor *r[3];
    return return_output(c, tc_native_batch_norm(in, w, b, opt(c, 3), opt(c, 4), tc_arg_bool(c, 5), c->args[6].v.f,
                                                 c->args[7].v.f, &r[0], &r[1], &r[2]), r);
}

/* layer_norm(input, normalized_shape, weight, bias, eps, cudnn_enable) */
int tc_impl_layer_norm(tc_opcall *c) {
    tc_tensor *r[3];
    return return_output(c, tc_native_layer_norm(tc_arg_tensor(c, 0), tc_arg_ints(c, 1), opt(c, 2), opt(c, 3),
                                                 c->args[4].v.f, &r[0], &r[1], &r[2]), r);
}

/* group_norm(input, num_groups, weight, bias, eps, cudnn_enabled) */
int tc_impl_group_norm(tc_opcall *c) {
    tc_tensor *in = tc_arg_tensor(c, 0), *w = opt(c, 2), *b = opt(c, 3);
    int64_t groups = tc_arg_int(c, 1);
    int32_t d;
    if (tc_shape_wrap_dim(0, in->ndim, &d) || tc_shape_wrap_dim(1, in->ndim, &d)) return TC_FAIL;
    int64_t N = in->sizes[0], C = in->sizes[1], HxW = 1;
    char is[256], ws[256];
    tc_shape_format(in->ndim, in->sizes, is, sizeof is);
    if (w) tc_shape_format(w->ndim, w->sizes, ws, sizeof ws);
    else snprintf(ws, sizeof ws, "[0]");
    if (groups <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "Expected num groups to be greater than 0, got %lld", (long long)groups);
    if (C % groups)
        return tc_set_error(TC_ERR_RUNTIME, "Expected number of channels in input to be divisible by num_groups, but "
                                            "got input of shape %s and num_groups=%lld", is, (long long)groups);
    if (w && (w->ndim != 1 || w->sizes[0] != C))
        return tc_set_error(TC_ERR_RUNTIME, "Expected weight to be a vector of size equal to the number of channels in "
                                            "input, but got weight of shape %s and input of shape %s", ws, is);
    if (b && (b->ndim != 1 || b->sizes[0] != C)) /* PyTorch prints the weight's shape here */
        return tc_set_error(TC_ERR_RUNTIME, "Expected bias to be a vector of size equal to the number of channels in "
                                            "input, but got bias of shape %s and input of shape %s", ws, is);
    for (int32_t k = 2; k < in->ndim; k++) HxW *= in->sizes[k];
    tc_tensor *r[3];
    return return_output(c, tc_native_group_norm(in, w, b, N, C, HxW, groups, c->args[4].v.f, &r[0], &r[1], &r[2]), r);
}

/* t ([C]) repeated `times` times: [t, t, ...] ([times * C]). */
static tc_tensor *repeated(nnx_scope *s, tc_tensor *t, int64_t times) {
    if (!t) return NULL;
    tc_tensor *u = nnx_keep(s, tc_unsqueeze(t, 0));
    tc_tensor *e = u ? nnx_keep(s, tc_expand(u, TC_INTS(times, tc_tensor_numel(t)), false)) : NULL;
    return nnx_view(s, e, TC_INTS(times * tc_tensor_numel(t)));
}

/* instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
 * cudnn_enabled): a batch norm of the input seen as [1, N * C, ...]; the running statistics of the
 * N copies are averaged back into the caller's. */
int tc_impl_instance_norm(tc_opcall *c) {
    tc_tensor *in = tc_arg_tensor(c, 0), *rm = opt(c, 3), *rv = opt(c, 4);
    bool use_input_stats = tc_arg_bool(c, 5);
    if (!use_input_stats && (!rm || !rv))
        return tc_set_error(TC_ERR_RUNTIME, "Expected running_mean and running_var to be defined when use_input_stats "
                                            "is false");
    int32_t d;
    if (tc_shape_wrap_dim(1, in->ndim, &d)) return TC_FAIL;
    int64_t N = in->sizes[0], C = in->sizes[1], shape[TC_MAX_DIMS];
    memcpy(shape, in->sizes, sizeof(int64_t) * (size_t)in->ndim);
    shape[0] = 1;
    shape[1] = N * C;
    nnx_scope s = {0};
    tc_tensor *rm_ = rm ? nnx_keep(&s, tc_clone(repeated(&s, rm, N), -1)) : NULL;
    tc_tensor *rv_ = rv ? nnx_keep(&s, tc_clone(repeated(&s, rv, N), -1)) : NULL;
    tc_tensor *w_ = repeated(&s, opt(c, 1), N), *b_ = repeated(&s, opt(c, 2), N);
    tc_tensor *x = nnx_keep(&s, tc_contiguous(in, TC_MEMORY_FORMAT_CONTIGUOUS));
    tc_tensor *xr = nnx_view(&s, x, (tc_int_list){shape, in->ndim});
    tc_tensor *out = NULL;
    if (!s.failed)
        out = nnx_keep(&s, tc_batch_norm(xr, w_, b_, rm_, rv_, use_input_stats, c->args[6].v.f, c->args[7].v.f,
                                         tc_arg_bool(c, 8)));
    tc_tensor *stats[2] = {rm, rv}, *copies[2] = {rm_, rv_};
    for (int i = 0; i < 2 && !s.failed; i++) {
        if (!stats[i]) continue;
        tc_tensor *mean = nnx_keep(&s, tc_mean_dim(nnx_view(&s, copies[i], TC_INTS(N, C)), &TC_INTS(0), false, -1));
        if (mean) nnx_keep(&s, tc_copy_(stats[i], mean, false));
    }
    tc_tensor *r = nnx_result(&s, nnx_view(&s, out, (tc_int_list){in->sizes, in->ndim}));
    nnx_release(&s);
    return tc_return(c, r);
}

/* ---- double backward ---- */

/* t[C] as [1, C, 1, ...] beside x */
static tc_tensor *per_channel(nnx_scope *s, tc_tensor *t, const tc_tensor *x) {
    int64_t shape[TC_MAX_DIMS];
    for (int32_t d = 0; d < x->ndim; d++) shape[d] = d == 1 ? x->sizes[1] : 1;
    return nnx_view(s, t, (tc_int_list){shape, x->ndim});
}

/* The sum over every dim but 1, kept as 1s (keepdim) or not. */
static tc_tensor *sum_but_channels(nnx_scope *s, tc_tensor *t, bool keepdim) {
    int64_t dims[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++)
        if (d != 1) dims[n++] = d;
    return nnx_sum(s, t, (tc_int_list){dims, n}, keepdim);
}

/* PyTorch's first backward of batch norm for gradient g, with gamma (NULL: 1): the BN input
 * gradient gamma * r / M * (M g - sum g - (x - mu) r^2 sum(g (x - mu))). */
static tc_tensor *bn_input_grad(nnx_scope *s, tc_tensor *g, tc_tensor *gamma, tc_tensor *xmu, tc_tensor *r,
                                tc_tensor *r2, double M) {
    tc_tensor *h = nnx_sub(s, nnx_sub(s, nnx_scale(s, g, M), sum_but_channels(s, g, true)),
                           nnx_mul(s, nnx_mul(s, xmu, r2), sum_but_channels(s, nnx_mul(s, g, xmu), true)));
    tc_tensor *f = nnx_scale(s, r, 1.0 / M);
    return nnx_mul(s, gamma ? nnx_mul(s, f, gamma) : f, h);
}

/* batchnorm_double_backward(input, gamma, ggI, ggG, ggB, gO, running_mean, running_var, training,
 * eps, save_mean, save_invstd, output_mask) -> (gI, gG, ggO) */
int tc_impl_batchnorm_double_backward(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0), *gamma0 = opt(c, 1), *ggI = opt(c, 2), *ggG0 = opt(c, 3), *ggB0 = opt(c, 4);
    tc_tensor *gO = tc_arg_tensor(c, 5);
    bool training = tc_arg_bool(c, 8);
    double eps = c->args[9].v.f;
    const bool *mask = c->args[12].v.bools.items;
    if (c->args[12].v.bools.len != 3) return tc_set_error(TC_ERR_RUNTIME, "output_mask must have 3 values");
    tc_tensor *mean0 = training ? opt(c, 10) : opt(c, 6), *var0 = training ? opt(c, 11) : opt(c, 7);
    if (!mean0 || !var0 || x->ndim < 2)
        return tc_set_error(TC_ERR_RUNTIME, "batchnorm_double_backward: the statistics of the forward pass are missing");
    double M = x->sizes[1] ? (double)tc_tensor_numel(x) / (double)x->sizes[1] : 0;
    nnx_scope s = {0};
    tc_tensor *gamma = gamma0 ? per_channel(&s, gamma0, x) : NULL;
    tc_tensor *ggG = ggG0 && gamma0 ? per_channel(&s, ggG0, x) : NULL;
    tc_tensor *ggB = ggB0 && gamma0 ? per_channel(&s, ggB0, x) : NULL;
    tc_tensor *mu = per_channel(&s, mean0, x);
    tc_tensor *r = training ? per_channel(&s, var0, x)
                            : nnx_keep(&s, tc_pow_Tensor_Tensor(nnx_add(&s, per_channel(&s, var0, x), nnx_number(&s, eps)),
                                                                nnx_number(&s, -0.5)));
    tc_tensor *xmu = nnx_sub(&s, x, mu), *r2 = nnx_mul(&s, r, r), *r3 = nnx_mul(&s, r2, r);
    tc_tensor *gO_sum = sum_but_channels(&s, gO, true), *gOxmu_sum = sum_but_channels(&s, nnx_mul(&s, gO, xmu), true);
    tc_tensor *gI = NULL, *gG = NULL, *ggO = NULL;
    if (mask[0] && ggI && training) {
        tc_tensor *ggI_sum = sum_but_channels(&s, ggI, true);
        tc_tensor *ggIxmu_sum = sum_but_channels(&s, nnx_mul(&s, ggI, xmu), true);
        tc_tensor *all = nnx_add(&s, nnx_sub(&s, nnx_scale(&s, nnx_mul(&s, ggI_sum, gO_sum), 1.0 / M),
                                             sum_but_channels(&s, nnx_mul(&s, gO, ggI), true)),
                                 nnx_scale(&s, nnx_mul(&s, nnx_mul(&s, r2, gOxmu_sum), ggIxmu_sum), 3.0 / M));
        tc_tensor *t0 = nnx_scale(&s, nnx_mul(&s, nnx_mul(&s, xmu, r3), all), 1.0 / M);
        tc_tensor *t1 = nnx_mul(&s, nnx_scale(&s, nnx_mul(&s, ggIxmu_sum, r3), 1.0 / M),
                                nnx_sub(&s, nnx_scale(&s, gO_sum, 1.0 / M), gO));
        tc_tensor *t2 = nnx_mul(&s, nnx_scale(&s, nnx_mul(&s, gOxmu_sum, r3), 1.0 / M),
                                nnx_sub(&s, nnx_scale(&s, ggI_sum, 1.0 / M), ggI));
        tc_tensor *sum = nnx_add(&s, nnx_add(&s, t0, t1), t2);
        gI = gamma ? nnx_mul(&s, gamma, sum) : sum;
    }
    if (mask[0] && ggG) {
        tc_tensor *t;
        if (training) {
            t = nnx_sub(&s, nnx_sub(&s, nnx_mul(&s, gO, r), nnx_scale(&s, nnx_mul(&s, r, gO_sum), 1.0 / M)),
                        nnx_scale(&s, nnx_mul(&s, nnx_mul(&s, xmu, r3), gOxmu_sum), 1.0 / M));
        } else {
            t = nnx_mul(&s, r, gO);
        }
        gI = nnx_add_opt(&s, gI, nnx_mul(&s, ggG, t));
    }
    if (mask[1] && gamma && ggI) {
        tc_tensor *t = training ? nnx_mul(&s, ggI, bn_input_grad(&s, gO, NULL, xmu, r, r2, M))
                                : nnx_mul(&s, nnx_mul(&s, ggI, gO), r);
        gG = sum_but_channels(&s, t, false);
    }
    if (mask[2]) {
        if (ggI) ggO = training ? bn_input_grad(&s, ggI, gamma, xmu, r, r2, M)
                                : nnx_mul(&s, nnx_mul(&s, ggI, r), gamma ? gamma : nnx_number(&s, 1.0));
        if (ggG) ggO = nnx_add_opt(&s, ggO, nnx_mul(&s, nnx_mul(&s, ggG, xmu), r));
        if (ggB) ggO = nnx_add_opt(&s, ggO, nnx_expand(&s, ggB, gO));
    }
    return return_scope_three(c, &s, gI, gG, ggO);
}

/* The double backward of a normalisation of `rows` rows of x with per-row mean and rstd, with
 * gamma, ggG, ggB given beside x (broadcasting to its shape; NULL when absent); `param_grad` sums a
 * tensor of x's shape down to the weight's. Results: (gI, gG, ggO) per mask. */
typedef tc_tensor *(*to_param_fn)(nnx_scope *s, tc_tensor *t, const tc_opcall *c);

static int rows_double_backward(tc_opcall *c, tc_tensor *x, tc_tensor *gamma, tc_tensor *ggI, tc_tensor *ggG,
                                tc_tensor *ggB, tc_tensor *gO, tc_tensor *mean, tc_tensor *rstd, int64_t rows,
                                const bool *mask, to_param_fn param_grad) {
    nnx_scope s = {0};
    int64_t D = rows ? tc_tensor_numel(x) / rows : 0;
    tc_int_list frame = TC_INTS(1, rows, D), shape = {x->sizes, x->ndim};
    tc_tensor *xr = nnx_view(&s, x, frame), *m = nnx_view(&s, mean, TC_INTS(rows)), *r = nnx_view(&s, rstd, TC_INTS(rows));
    tc_tensor *gx = gamma ? nnx_mul(&s, gO, gamma) : gO;
    tc_tensor *a[3] = {NULL, NULL, NULL};
    if (ggI && !s.failed) {
        bool inner[3] = {mask[0], false, mask[1] || mask[2]};
        if (tc_batchnorm_double_backward(xr, NULL, nnx_view(&s, ggI, frame), NULL, NULL, nnx_view(&s, gx, frame), NULL,
                                         NULL, true, 0.0, m, r, (tc_bool_list){inner, 3}, &a[0], &a[1], &a[2]))
            s.failed = true;
        for (int i = 0; i < 3; i++)
            if (a[i]) a[i] = nnx_keep(&s, a[i]);
    }
    tc_tensor *xhat = nnx_view(&s, nnx_mul(&s, nnx_sub(&s, xr, nnx_view(&s, m, TC_INTS(1, rows, 1))),
                                           nnx_view(&s, r, TC_INTS(1, rows, 1))), shape);
    tc_tensor *gI = NULL, *gG = NULL, *ggO = NULL;
    if (mask[0]) {
        if (a[0]) gI = nnx_view(&s, a[0], shape);
        if (ggG && !s.failed) { /* the derivative of xhat, through the row statistics, applied to gO * ggG */
            bool only[3] = {true, false, false};
            tc_tensor *b[3] = {NULL, NULL, NULL};
            if (tc_native_batch_norm_backward(nnx_view(&s, nnx_mul(&s, gO, ggG), frame), xr, NULL, NULL, NULL, m, r,
                                              true, 0.0, (tc_bool_list){only, 3}, &b[0], &b[1], &b[2]))
                s.failed = true;
            gI = nnx_add_opt(&s, gI, nnx_view(&s, nnx_keep(&s, b[0]), shape));
        }
    }
    tc_tensor *a_ggO = a[2] ? nnx_view(&s, a[2], shape) : NULL;
    if (mask[1] && gamma && a_ggO) gG = param_grad(&s, nnx_mul(&s, a_ggO, gO), c);
    if (mask[2]) {
        if (a_ggO) ggO = gamma ? nnx_mul(&s, a_ggO, gamma) : a_ggO;
        if (ggG) ggO = nnx_add_opt(&s, ggO, nnx_mul(&s, ggG, xhat));
        if (ggB) ggO = nnx_add_opt(&s, ggO, nnx_expand(&s, ggB, gO));
    }
    return return_scope_three(c, &s, gI, gG, ggO);
}

/* layer norm: the weight has normalized_shape (argument 8): sum over the leading dims */
static tc_tensor *layer_norm_param_grad(nnx_scope *s, tc_tensor *t, const tc_opcall *c) {
    int64_t lead = t->ndim - tc_arg_ints(c, 8).len, dims[TC_MAX_DIMS];
    for (int64_t d = 0; d < lead; d++) dims[d] = d;
    return lead > 0 ? nnx_sum(s, t, (tc_int_list){dims, lead}, false) : t;
}

/* layer_norm_double_backward(input, gamma, ggI, ggG, ggB, gO, save_mean, save_invstd,
 * normalized_shape, output_mask) -> (gI, gG, ggO) */
int tc_impl_layer_norm_double_backward(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0), *mean = tc_arg_tensor(c, 6);
    if (c->args[9].v.bools.len != 3) return tc_set_error(TC_ERR_RUNTIME, "output_mask must have 3 values");
    tc_tensor *gamma = opt(c, 1);
    return rows_double_backward(c, x, gamma, opt(c, 2), gamma ? opt(c, 3) : NULL, gamma ? opt(c, 4) : NULL,
                                tc_arg_tensor(c, 5), mean, tc_arg_tensor(c, 7), tc_tensor_numel(mean),
                                c->args[9].v.bools.items, layer_norm_param_grad);
}

static tc_tensor *group_norm_param_grad(nnx_scope *s, tc_tensor *t, const tc_opcall *c) {
    (void)c;
    return sum_but_channels(s, t, false);
}

/* group_norm_double_backward(input, gamma, ggI, ggG, ggB, gO, mean, rstd, N, C, HxW, group,
 * output_mask) -> (gI, gG, ggO) */
int tc_impl_group_norm_double_backward(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0), *gamma = opt(c, 1), *ggG = opt(c, 3), *ggB = opt(c, 4);
    int64_t N = tc_arg_int(c, 8), C = tc_arg_int(c, 9), HxW = tc_arg_int(c, 10), group = tc_arg_int(c, 11);
    if (c->args[12].v.bools.len != 3) return tc_set_error(TC_ERR_RUNTIME, "output_mask must have 3 values");
    nnx_scope s = {0};
    tc_tensor *x3 = nnx_view(&s, x, TC_INTS(N, C, HxW)), *gO3 = nnx_view(&s, tc_arg_tensor(c, 5), TC_INTS(N, C, HxW));
    tc_tensor *ggI = opt(c, 2) ? nnx_view(&s, opt(c, 2), TC_INTS(N, C, HxW)) : NULL;
    tc_tensor *g = gamma ? per_channel(&s, gamma, x3) : NULL;
    tc_tensor *gg = gamma && ggG ? per_channel(&s, ggG, x3) : NULL, *gb = gamma && ggB ? per_channel(&s, ggB, x3) : NULL;
    if (s.failed) {
        nnx_release(&s);
        return TC_FAIL;
    }
    int rc = rows_double_backward(c, x3, g, ggI, gg, gb, gO3, tc_arg_tensor(c, 6), tc_arg_tensor(c, 7), N * group,
                                  c->args[12].v.bools.items, group_norm_param_grad);
    nnx_release(&s);
    if (rc) return TC_FAIL;
    for (int i = 0; i < 3; i += 2) { /* gI and ggO back in the input's shape */
        if (c->outs[i].tag != TC_VALUE_TENSOR) continue;
        tc_tensor *v = tc_reshape(c->outs[i].v.tensor, (tc_int_list){x->sizes, x->ndim});
        tc_tensor_release(c->outs[i].v.tensor);
        c->outs[i].v.tensor = v;
        if (!v) {
            tc_values_release(c->outs, 3);
            return TC_FAIL;
        }
    }
    return TC_OK;
}
