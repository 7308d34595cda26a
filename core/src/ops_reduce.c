/*
 * Reductions: sum, mean, max/min over all dims, max/min along one dim with indices, argmax/argmin.
 * Kernels always see the output in keepdim form (same ndim as the input, reduced dims of size 1);
 * dropping the reduced dims afterwards is a view.
 */
#include "core_internal.h"

#include <string.h>

/* Parses a dim list into a mask; no dims means all. */
static int dims_to_mask(const tc_tensor *t, const int64_t *dims, int n, bool *mask) {
    memset(mask, 0, sizeof(bool) * TC_MAX_DIMS);
    if (n == 0) {
        for (int32_t d = 0; d < t->ndim; d++) mask[d] = true;
        return TC_OK;
    }
    for (int i = 0; i < n; i++) {
        int32_t d;
        if (tc_shape_wrap_dim(dims[i], t->ndim, &d)) return TC_FAIL;
        if (mask[d]) return tc_set_error(TC_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
        mask[d] = true;
    }
    if (t->ndim == 0) mask[0] = false; /* a 0-dim tensor accepts dim 0 (or -1) once, and has no dims */
    return TC_OK;
}

static tc_tensor *keepdim_output(const tc_tensor *t, const bool *mask, int32_t dtype) {
    int64_t sizes[TC_MAX_DIMS];
    for (int32_t d = 0; d < t->ndim; d++) sizes[d] = mask[d] ? 1 : t->sizes[d];
    return tc_empty(t->ndim, sizes, dtype, t->device);
}

/* Drops the masked dims of a keepdim-form result (new reference; releases `t`). */
static tc_tensor *squeeze_mask(tc_tensor *t, const bool *mask) {
    if (!t) return NULL;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (mask[d]) continue;
        sizes[n] = t->sizes[d];
        strides[n++] = t->strides[d];
    }
    tc_tensor *v = tc_tensor_restride(t, n, sizes, strides, t->offset);
    tc_tensor_release(t);
    return v;
}

static int32_t sum_dtype(int32_t op, const tc_tensor *self, int32_t requested) {
    if (requested >= 0) return requested;
    if (op == TC_OP_sum && !tc_dtype_is_floating(self->dtype)) return TC_INT64;
    return self->dtype;
}

static tc_tensor *sum_or_mean(int32_t op, tc_tensor *self, const int64_t *dims, int n_dims, bool keepdim,
                              int32_t requested) {
    int32_t dtype = sum_dtype(op, self, requested);
    if (op == TC_OP_mean && !tc_dtype_is_floating(dtype)) /* checked before the dims, as in PyTorch */
        return tc_set_error(TC_ERR_RUNTIME, "mean(): could not infer output dtype. %s dtype must be either "
                                            "a floating point or complex dtype. Got: %s",
                            requested >= 0 ? "Optional" : "Input", tc_dtype_name(dtype)), NULL;
    bool mask[TC_MAX_DIMS];
    if (dims_to_mask(self, dims, n_dims, mask)) return NULL;
    /* sum(dtype=torch.bool) adds in bool, i.e. is a logical or: count the nonzeros in int64, and
     * convert the count back to bool below */
    const bool as_bool = dtype == TC_BOOL;
    tc_tensor *in = tc_to_dtype(self, dtype);
    if (in && as_bool) {
        tc_tensor *counted = tc_to_dtype(in, TC_INT64);
        tc_tensor_release(in);
        in = counted;
        dtype = TC_INT64;
    }
    if (!in) return NULL;
    tc_tensor *out = keepdim_output(in, mask, dtype);
    int rc = TC_FAIL;
    if (out) {
        if (tc_tensor_numel(in) == 0)
            rc = tc_fill(out, (tc_scalar){.v.i = 0});
        else
            rc = tc_dispatch_run(TC_KERNEL_sum, dtype, &in, 1, &out, 1, NULL, 0, NULL, 0, false);
    }
    int64_t count = 1;
    for (int32_t d = 0; d < in->ndim; d++)
        if (mask[d]) count *= in->sizes[d];
    tc_tensor_release(in);
    if (rc == TC_OK && op == TC_OP_mean) {
        tc_tensor *divisor = tc_scalar_tensor((tc_scalar){.is_float = 1, .v.f = (double)count}, dtype,
                                              (tc_device){TC_DEVICE_CPU, 0});
        if (!divisor) {
            rc = TC_FAIL;
        } else {
            divisor->flags |= TC_TENSOR_WRAPPED_NUMBER;
            tc_tensor *r = tc_binary(TC_OP_div, out, divisor, (tc_scalar){.v.i = 1}, true);
            tc_tensor_release(divisor);
            if (!r) rc = TC_FAIL;
            tc_tensor_release(r);
        }
    }
    if (rc == TC_OK && as_bool) {
        tc_tensor *any = tc_to_dtype(out, TC_BOOL);
        tc_tensor_release(out);
        if (!(out = any)) return NULL;
    }
    if (rc) {
        tc_tensor_release(out);
        return NULL;
    }
    return keepdim ? out : squeeze_mask(out, mask);
}

static tc_tensor *extreme_all(int32_t op, tc_tensor *self) {
    if (tc_tensor_numel(self) == 0)
        return tc_set_error(TC_ERR_RUNTIME, "%s(): Expected reduction dim to be specified for input.numel() == "
                                            "0. Specify the reduction dim with the 'dim' argument.",
                            tc_op_infos[op].name), NULL;
    bool mask[TC_MAX_DIMS];
    dims_to_mask(self, NULL, 0, mask);
    tc_tensor *out = keepdim_output(self, mask, self->dtype);
    if (out && tc_dispatch_run(tc_op_infos[op].kernel, self->dtype, &self, 1, &out, 1, NULL, 0, NULL, 0, false)) {
        tc_tensor_release(out);
        return NULL;
    }
    return squeeze_mask(out, mask);
}

/* values and indices along one dim (outs[0], outs[1]); keepdim form unless !keepdim. */
static int extreme_dim(int32_t op, tc_tensor *self, int64_t dim_arg, bool keepdim, tc_tensor **outs) {
    int32_t dim;
    if (tc_shape_wrap_dim(dim_arg, self->ndim, &dim)) return TC_FAIL;
    const char *name = tc_op_infos[op].name;
    if (self->ndim > 0 && self->sizes[dim] == 0)
        return tc_set_error(TC_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.", name, dim);
    bool mask[TC_MAX_DIMS] = {0};
    if (self->ndim > 0) mask[dim] = true;
    tc_tensor *res[2] = {keepdim_output(self, mask, self->dtype), keepdim_output(self, mask, TC_INT64)};
    int64_t kernel_dim = self->ndim > 0 ? dim : 0;
    tc_tensor *in = self;
    int64_t one = 1, zero_stride = 0;
    tc_tensor *as1d = NULL, *outs1d[2] = {NULL, NULL};
    if (!res[0] || !res[1]) goto fail;
    if (self->ndim == 0) { /* a 0-dim input reduces as a 1-element vector */
        as1d = tc_tensor_restride(self, 1, &one, &zero_stride, self->offset);
        outs1d[0] = tc_tensor_restride(res[0], 1, &one, &zero_stride, 0);
        outs1d[1] = tc_tensor_restride(res[1], 1, &one, &zero_stride, 0);
        if (!as1d || !outs1d[0] || !outs1d[1]) goto fail;
        in = as1d;
    }
    if (tc_dispatch_run(tc_op_infos[op].kernel, self->dtype, &in, 1, self->ndim ? res : outs1d, 2, NULL, 0,
                        &kernel_dim, 1, false))
        goto fail;
    tc_tensor_release(as1d);
    tc_tensor_release(outs1d[0]);
    tc_tensor_release(outs1d[1]);
    outs[0] = keepdim ? res[0] : squeeze_mask(res[0], mask);
    outs[1] = keepdim ? res[1] : squeeze_mask(res[1], mask);
    if (!outs[0] || !outs[1]) {
        tc_tensor_release(outs[0]);
        tc_tensor_release(outs[1]);
        return TC_FAIL;
    }
    return 2;
fail:
    tc_tensor_release(as1d);
    tc_tensor_release(outs1d[0]);
    tc_tensor_release(outs1d[1]);
    tc_tensor_release(res[0]);
    tc_tensor_release(res[1]);
    return TC_FAIL;
}

static int arg_extreme(int32_t op, tc_tensor *self, const tc_call *call, tc_tensor **outs) {
    int32_t dim_op = op == TC_OP_argmax ? TC_OP_max_dim : TC_OP_min_dim;
    bool keepdim = call->n_bools && call->bools[0];
    tc_tensor *pair[2];
    if (call->ints_given && call->n_ints) {
        if (extreme_dim(dim_op, self, call->ints[0], keepdim, pair) < 0) return TC_FAIL;
        tc_tensor_release(pair[0]);
        outs[0] = pair[1];
        return 1;
    }
    if (tc_tensor_numel(self) == 0) /* IndexError here, unlike max()'s RuntimeError: PyTorch's types */
        return tc_set_error(TC_ERR_INDEX, "%s(): Expected reduction dim to be specified for input.numel() == 0.",
                            tc_op_infos[op].name);
    int64_t n = tc_tensor_numel(self);
    tc_tensor *flat = tc_reshape(self, 1, &n);
    if (!flat) return TC_FAIL;
    int rc = extreme_dim(dim_op, flat, 0, false, pair);
    tc_tensor_release(flat);
    if (rc < 0) return TC_FAIL;
    tc_tensor_release(pair[0]);
    outs[0] = pair[1];
    if (keepdim) {
        int64_t ones[TC_MAX_DIMS];
        for (int32_t d = 0; d < self->ndim; d++) ones[d] = 1;
        tc_tensor *r = tc_reshape(pair[1], self->ndim, ones);
        tc_tensor_release(pair[1]);
        if (!(outs[0] = r)) return TC_FAIL;
    }
    return 1;
}

int tc_ops_reduce(int32_t op, const tc_call *call, tc_tensor **outs) {
    tc_tensor *self = call->tensors[0];
    switch (tc_op_infos[op].category) {
    case TC_CAT_REDUCE:
        if (op == TC_OP_sum || op == TC_OP_mean) {
            int n = call->ints_given ? call->n_ints : 0;
            outs[0] = sum_or_mean(op, self, call->ints, n, call->n_bools && call->bools[0], call->dtype);
        } else {
            outs[0] = extreme_all(op, self);
        }
        return outs[0] ? 1 : TC_FAIL;
    case TC_CAT_REDUCE_DIM:
        if (call->n_ints < 1) return tc_set_error(TC_ERR_VALUE, "%s: expected a dim", tc_op_infos[op].name);
        return extreme_dim(op, self, call->ints[0], call->n_bools && call->bools[0], outs);
    case TC_CAT_ARG:
        return arg_extreme(op, self, call, outs);
    default:
        return tc_set_error(TC_ERR_RUNTIME, "op %s is not a reduction", tc_op_infos[op].name);
    }
}
