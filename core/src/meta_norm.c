/*
 * Meta functions of the normalisations (batch, layer, group) and their backward ops, with PyTorch's
 * checks and messages.
 *
 * Kernel contract: the input (and grad_output) contiguous; the optional tensors that are present
 * follow in schema order, each flagged in ints (1 present, 0 absent), as 1-D views of any stride;
 * parameters and statistics are float32 for a bfloat16 input in PyTorch's "mixed" mode, else of the
 * input's dtype. batch norm writes running_mean/running_var in place (as PyTorch's kernel does).
 *   native_batch_norm:            ints [w, b, rm, rv, training], scalars [momentum, eps]
 *   native_batch_norm_backward:   ints [w, rm, rv, save_mean, save_invstd, train], scalars [eps]
 *   native_layer_norm(_backward): ints [w, b | w, M, D]; rows of D elements
 *   native_group_norm(_backward): ints [w, b | w, N, C, HxW, group]
 * Backward ops' outputs are undefined (ndim -1) where output_mask says so.
 */
#include "core_internal.h"

#include <stdio.h>

static tc_tensor *opt(const tc_opcall *c, int i) { return tc_arg_none(c, i) ? NULL : tc_arg_tensor(c, i); }

/* The dtype of the parameters: the input's, or float32 beside a bfloat16 input (check_mixed_data_type). */
static int param_dtype(const tc_tensor *in, tc_tensor *const *params, int n, int32_t *dtype) {
    int32_t d = -1;
    for (int i = 0; i < n; i++) {
        if (!params[i]) continue;
        if (d >= 0 && params[i]->dtype != d)
            return tc_set_error(TC_ERR_RUNTIME, "mixed dtype (CPU): expect parameter to have scalar type of Float");
        d = params[i]->dtype;
    }
    if (d < 0 || d == in->dtype) {
        *dtype = in->dtype;
        return TC_OK;
    }
    if (d == TC_FLOAT32) {
        if (in->dtype != TC_BFLOAT16)
            return tc_set_error(TC_ERR_RUNTIME, "mixed dtype (CPU): expect input to have scalar type of BFloat16");
        *dtype = TC_FLOAT32;
        return TC_OK;
    }
    return tc_set_error(TC_ERR_RUNTIME, "mixed dtype (CPU): expect parameter to have scalar type of %s",
                        tc_dtype_scalar_name(in->dtype == TC_BFLOAT16 ? TC_FLOAT32 : in->dtype));
}

static int check_dtype(const char *op, int32_t dtype) {
    if (dtype == TC_FLOAT32 || dtype == TC_FLOAT64 || dtype == TC_BFLOAT16) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'", op, tc_dtype_scalar_name(dtype));
}

/* Present optional tensors become inputs (as they are: batch norm writes its running stats). */
static int plan_optional(tc_plan *p, tc_tensor *const *ts, int n) {
    for (int i = 0; i < n; i++)
        if (tc_plan_int(p, ts[i] != NULL) || (ts[i] && tc_plan_input(p, ts[i], -1))) return TC_FAIL;
    return TC_OK;
}

static int numel_is(const char *name, const tc_tensor *t, int64_t n) {
    if (!t || tc_tensor_numel(t) == n) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s should contain %lld elements not %lld", name, (long long)n,
                        (long long)tc_tensor_numel(t));
}

static int channels_of(const tc_tensor *in, int64_t *c) {
    int32_t d;
    if (tc_shape_wrap_dim(1, in->ndim, &d)) return TC_FAIL; /* PyTorch reads input.size(1) */
    *c = in->sizes[1];
    return TC_OK;
}

/* The gradient outputs of a backward op: output_mask picks which are defined. */
static int plan_grads(tc_plan *p, const tc_opcall *c, int mask_arg, const tc_tensor *in, const tc_tensor *param,
                      int32_t nparam, const int64_t *param_sizes, int32_t pdtype) {
    tc_bool_list mask = {c->args[mask_arg].v.bools.items, c->args[mask_arg].v.bools.len};
    if (mask.len != 3) return tc_set_error(TC_ERR_RUNTIME, "output_mask must have 3 values");
    if (mask.items[0] ? tc_plan_output(p, 0, in->ndim, in->sizes, in->dtype) : tc_plan_output_none(p, 0))
        return TC_FAIL;
    if (mask.items[1] && param ? tc_plan_output(p, 1, nparam, param_sizes, pdtype) : tc_plan_output_none(p, 1))
        return TC_FAIL;
    return mask.items[2] ? tc_plan_output(p, 2, nparam, param_sizes, pdtype) : tc_plan_output_none(p, 2);
}

/* native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps) */
int tc_meta_native_batch_norm(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0);
    tc_tensor *params[4] = {opt(c, 1), opt(c, 2), opt(c, 3), opt(c, 4)};
    bool training = tc_arg_bool(c, 5);
    int64_t channels;
    int32_t pd;
    if (channels_of(in, &channels) || param_dtype(in, params, 4, &pd) || check_dtype("batch_norm", in->dtype))
        return TC_FAIL;
    if (numel_is("weight", params[0], channels) || numel_is("bias", params[1], channels) ||
        numel_is("running_mean", params[2], channels) || numel_is("running_var", params[3], channels))
        return TC_FAIL;
    if (!training && !params[2]) return tc_set_error(TC_ERR_RUNTIME, "running_mean must be defined in evaluation mode");
    if (!training && !params[3]) return tc_set_error(TC_ERR_RUNTIME, "running_var must be defined in evaluation mode");
    int64_t stat = training ? channels : 0;
    if (tc_plan_output(p, 0, in->ndim, in->sizes, in->dtype) || tc_plan_output(p, 1, 1, &stat, pd) ||
        tc_plan_output(p, 2, 1, &stat, pd))
        return TC_FAIL;
    p->dtype = in->dtype;
    if (tc_plan_input_contiguous(p, in, -1) || plan_optional(p, params, 4) || tc_plan_int(p, training)) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(c->args[6].v.f)) || tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(c->args[7].v.f));
}

/* native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean,
 * save_invstd, train, eps, output_mask) */
int tc_meta_native_batch_norm_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *go = tc_arg_tensor(c, 0), *in = tc_arg_tensor(c, 1);
    tc_tensor *params[5] = {opt(c, 2), opt(c, 3), opt(c, 4), opt(c, 5), opt(c, 6)};
    bool train = tc_arg_bool(c, 7);
    int64_t channels;
    int32_t pd;
    if (channels_of(in, &channels) || param_dtype(in, params, 5, &pd) || check_dtype("batch_norm_backward", in->dtype))
        return TC_FAIL;
    if (!tc_shape_equal(go->ndim, go->sizes, in->ndim, in->sizes) || go->dtype != in->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "batch_norm_backward: expected grad_out of the input's sizes and dtype");
    if (train && (!params[3] || !params[4]))
        return tc_set_error(TC_ERR_RUNTIME, "batch_norm_backward: save_mean and save_invstd must be defined in training "
                                            "mode");
    if (!train && (!params[1] || !params[2]))
        return tc_set_error(TC_ERR_RUNTIME, "batch_norm_backward: running_mean and running_var must be defined in "
                                            "evaluation mode");
    static const char *const names[5] = {"weight", "running_mean", "running_var", "save_mean", "save_invstd"};
    for (int i = 0; i < 5; i++)
        if ((train ? i != 1 && i != 2 : i < 3) && numel_is(names[i], params[i], channels)) return TC_FAIL;
    if (plan_grads(p, c, 9, in, params[0] ? params[0] : in, 1, &channels, pd)) return TC_FAIL;
    p->dtype = in->dtype;
    if (tc_plan_input_contiguous(p, go, -1) || tc_plan_input_contiguous(p, in, -1) || plan_optional(p, params, 5) ||
        tc_plan_int(p, train))
        return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(c->args[8].v.f));
}

/* The rows a layer norm normalises: M rows of D elements (_check_layer_norm_inputs). */
static int layer_norm_rows(const tc_tensor *in, tc_int_list shape, const tc_tensor *w, const tc_tensor *b, int64_t *M,
                           int64_t *D) {
    char ns[256], s[256];
    tc_shape_format((int32_t)(shape.len < TC_MAX_DIMS ? shape.len : TC_MAX_DIMS), shape.items, ns, sizeof ns);
    if (shape.len < 1)
        return tc_set_error(TC_ERR_RUNTIME, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                                            "least one element, but got normalized_shape = %s", ns);
    const tc_tensor *params[2] = {w, b};
    for (int i = 0; i < 2; i++)
        if (params[i] && !tc_shape_equal(params[i]->ndim, params[i]->sizes, (int32_t)shape.len, shape.items)) {
            tc_shape_format(params[i]->ndim, params[i]->sizes, s, sizeof s);
            return tc_set_error(TC_ERR_RUNTIME, "Expected %s to be of same shape as normalized_shape, but got %s of "
                                                "shape %s and normalized_shape = %s", i ? "bias" : "weight",
                                i ? "bias" : "weight", s, ns);
        }
    int32_t axis = in->ndim - (int32_t)shape.len;
    bool ok = axis >= 0;
    for (int64_t i = 0; ok && i < shape.len; i++) ok = in->sizes[axis + i] == shape.items[i];
    if (!ok) {
        char want[300];
        snprintf(want, sizeof want, "[*, %s", ns + 1);
        tc_shape_format(in->ndim, in->sizes, s, sizeof s);
        return tc_set_error(TC_ERR_RUNTIME, "Given normalized_shape=%s, expected input with shape %s, but got input of "
                                            "size%s", ns, want, s);
    }
    *M = 1;
    *D = 1;
    for (int32_t d = 0; d < in->ndim; d++) *(d < axis ? M : D) *= in->sizes[d];
    return TC_OK;
}

/* mean and rstd of a layer norm: the input's leading sizes, 1s for the normalised dims. */
static int32_t stat_sizes(const tc_tensor *in, int64_t n_norm, int64_t *sizes) {
    for (int32_t d = 0; d < in->ndim; d++) sizes[d] = d < in->ndim - n_norm ? in->sizes[d] : 1;
    return in->ndim;
}

/* native_layer_norm(input, normalized_shape, weight, bias, eps) -> (out, mean, rstd) */
int tc_meta_native_layer_norm(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0), *params[2] = {opt(c, 2), opt(c, 3)};
    tc_int_list shape = tc_arg_ints(c, 1);
    int64_t M, D, sizes[TC_MAX_DIMS];
    int32_t pd;
    if (layer_norm_rows(in, shape, params[0], params[1], &M, &D) || param_dtype(in, params, 2, &pd) ||
        check_dtype("LayerNormKernelImpl", in->dtype))
        return TC_FAIL;
    int32_t n = stat_sizes(in, shape.len, sizes);
    if (tc_plan_output(p, 0, in->ndim, in->sizes, in->dtype) || tc_plan_output(p, 1, n, sizes, pd) ||
        tc_plan_output(p, 2, n, sizes, pd))
        return TC_FAIL;
    p->dtype = in->dtype;
    if (tc_plan_input_contiguous(p, in, -1) || plan_optional(p, params, 2) || tc_plan_int(p, M) || tc_plan_int(p, D))
        return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(c->args[4].v.f));
}

/* native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask) */
int tc_meta_native_layer_norm_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *go = tc_arg_tensor(c, 0), *in = tc_arg_tensor(c, 1), *mean = tc_arg_tensor(c, 3);
    tc_tensor *rstd = tc_arg_tensor(c, 4), *params[2] = {opt(c, 5), opt(c, 6)};
    tc_int_list shape = tc_arg_ints(c, 2);
    int64_t M, D;
    int32_t pd;
    if (layer_norm_rows(in, shape, params[0], params[1], &M, &D) || param_dtype(in, params, 2, &pd) ||
        check_dtype("LayerNormBackwardKernelImpl", in->dtype))
        return TC_FAIL;
    if (!tc_shape_equal(go->ndim, go->sizes, in->ndim, in->sizes) || go->dtype != in->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "layer_norm_backward: expected grad_out of the input's sizes and dtype");
    if (tc_tensor_numel(mean) != M || tc_tensor_numel(rstd) != M)
        return tc_set_error(TC_ERR_RUNTIME, "layer_norm_backward: expected mean and rstd of %lld elements", (long long)M);
    if (plan_grads(p, c, 7, in, params[0], (int32_t)shape.len, shape.items, pd)) return TC_FAIL;
    p->dtype = in->dtype;
    if (tc_plan_input_contiguous(p, go, -1) || tc_plan_input_contiguous(p, in, -1) ||
        tc_plan_input_contiguous(p, mean, pd) || tc_plan_input_contiguous(p, rstd, pd) ||
        plan_optional(p, params, 1))
        return TC_FAIL;
    return tc_plan_int(p, M) || tc_plan_int(p, D) ? TC_FAIL : TC_OK;
}

/* N, C, HxW, group of a group norm, checked against the input and the parameters. */
static int group_norm_shape(const tc_tensor *in, const tc_tensor *w, const tc_tensor *b, int64_t N, int64_t C,
                            int64_t HxW, int64_t group) {
    int64_t total;
    if (N < 0 || C < 0 || HxW < 0 || __builtin_mul_overflow(N, C, &total) ||
        __builtin_mul_overflow(total, HxW, &total) || total != tc_tensor_numel(in))
        return tc_set_error(TC_ERR_RUNTIME, "Expected X.numel() == N * C * HxW to be true, but got false.  (Could this "
                                            "error message be improved?  If so, please report an enhancement request "
                                            "to PyTorch.)");
    if (group <= 0 || C % group)
        return tc_set_error(TC_ERR_RUNTIME, "Expected number of channels in input to be divisible by num_groups, but "
                                            "got input of shape [%lld, %lld, %lld] and num_groups=%lld", (long long)N,
                            (long long)C, (long long)HxW, (long long)group);
    if ((w && tc_tensor_numel(w) != C) || (b && tc_tensor_numel(b) != C))
        return tc_set_error(TC_ERR_RUNTIME, "Expected weight and bias to be vectors of %lld elements", (long long)C);
    return TC_OK;
}

/* native_group_norm(input, weight, bias, N, C, HxW, group, eps) -> (out, mean [N, group], rstd) */
int tc_meta_native_group_norm(tc_opcall *c, tc_plan *p) {
    tc_tensor *in = tc_arg_tensor(c, 0), *params[2] = {opt(c, 1), opt(c, 2)};
    int64_t N = tc_arg_int(c, 3), C = tc_arg_int(c, 4), HxW = tc_arg_int(c, 5), group = tc_arg_int(c, 6);
    int32_t pd;
    if (group_norm_shape(in, params[0], params[1], N, C, HxW, group) || param_dtype(in, params, 2, &pd) ||
        check_dtype("GroupNormKernelImpl", in->dtype))
        return TC_FAIL;
    int64_t stat[2] = {N, group};
    if (tc_plan_output(p, 0, in->ndim, in->sizes, in->dtype) || tc_plan_output(p, 1, 2, stat, pd) ||
        tc_plan_output(p, 2, 2, stat, pd))
        return TC_FAIL;
    p->dtype = in->dtype;
    if (tc_plan_input_contiguous(p, in, -1) || plan_optional(p, params, 2)) return TC_FAIL;
    const int64_t ints[4] = {N, C, HxW, group};
    for (int i = 0; i < 4; i++)
        if (tc_plan_int(p, ints[i])) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(c->args[7].v.f));
}

/* native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask) */
int tc_meta_native_group_norm_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *go = tc_arg_tensor(c, 0), *in = tc_arg_tensor(c, 1), *mean = tc_arg_tensor(c, 2);
    tc_tensor *rstd = tc_arg_tensor(c, 3), *params[1] = {opt(c, 4)};
    int64_t N = tc_arg_int(c, 5), C = tc_arg_int(c, 6), HxW = tc_arg_int(c, 7), group = tc_arg_int(c, 8);
    int32_t pd;
    if (group_norm_shape(in, params[0], NULL, N, C, HxW, group) || param_dtype(in, params, 1, &pd) ||
        check_dtype("GroupNormBackwardKernelImpl", in->dtype))
        return TC_FAIL;
    if (!tc_shape_equal(go->ndim, go->sizes, in->ndim, in->sizes) || go->dtype != in->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "group_norm_backward: expected grad_out of the input's sizes and dtype");
    if (tc_tensor_numel(mean) != N * group || tc_tensor_numel(rstd) != N * group)
        return tc_set_error(TC_ERR_RUNTIME, "group_norm_backward: expected mean and rstd of %lld elements",
                            (long long)(N * group));
    if (plan_grads(p, c, 9, in, params[0] ? params[0] : in, 1, &C, pd)) return TC_FAIL;
    p->dtype = in->dtype;
    if (tc_plan_input_contiguous(p, go, -1) || tc_plan_input_contiguous(p, in, -1) ||
        tc_plan_input_contiguous(p, mean, pd) || tc_plan_input_contiguous(p, rstd, pd) || plan_optional(p, params, 1))
        return TC_FAIL;
    const int64_t ints[4] = {N, C, HxW, group};
    for (int i = 0; i < 4; i++)
        if (tc_plan_int(p, ints[i])) return TC_FAIL;
    return TC_OK;
}
