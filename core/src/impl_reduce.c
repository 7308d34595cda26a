/*
 * Reductions composed of others: mean (sum, then divide by the count), nanmean (nansum over the
 * count of non-NaN elements), argmax/argmin (the indices of max/min along a dim, or of the flattened
 * tensor), frobenius_norm (the 2-norm over at most two dims).
 */
#include "core_internal.h"

#include <string.h>

/* The count a mean divides by, as a wrapped number (lowest promotion priority, any device). */
static tc_tensor *count_of(int64_t count) {
    tc_tensor *t = tc_scalar_tensor(TC_SCALAR_OF_FLOAT((double)count), TC_FLOAT64);
    if (t) t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return t;
}

static int mean_dtype(const tc_tensor *self, int32_t requested, int32_t *dtype) {
    *dtype = requested >= 0 ? requested : self->dtype;
    if (tc_dtype_is_floating(*dtype) || tc_dtype_is_complex(*dtype)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "mean(): could not infer output dtype. %s dtype must be either a floating "
                                        "point or complex dtype. Got: %s", requested >= 0 ? "Optional" : "Input",
                        tc_dtype_scalar_name(*dtype));
}

static int divide_into(tc_opcall *c, tc_tensor *sum, int64_t count) {
    if (!sum) return TC_FAIL;
    tc_tensor *n = count_of(count);
    tc_tensor *r = n ? tc_div__Tensor(sum, n) : NULL;
    tc_tensor_release(n);
    tc_tensor_release(r);
    if (!r) {
        tc_tensor_release(sum);
        return TC_FAIL;
    }
    return tc_return(c, sum);
}

/* mean(self, *, dtype) */
int tc_impl_mean(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dtype;
    if (mean_dtype(self, tc_arg_enum(c, 1), &dtype)) return TC_FAIL;
    return divide_into(c, tc_sum(self, dtype), tc_tensor_numel(self));
}

/* mean.dim(self, dim, keepdim, *, dtype) */
int tc_impl_mean_dim(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dtype;
    if (mean_dtype(self, tc_arg_enum(c, 3), &dtype)) return TC_FAIL;
    const tc_int_list *dims = tc_arg_none(c, 1) ? NULL : &(tc_int_list){c->args[1].v.ints.items, c->args[1].v.ints.len};
    tc_tensor *sum = tc_sum_dim_IntList(self, dims, tc_arg_bool(c, 2), dtype);
    if (!sum) return TC_FAIL;
    /* the sum checked the dims: the count is the product of the reduced sizes */
    int64_t count = 1;
    if (!dims || dims->len == 0) {
        count = tc_tensor_numel(self);
    } else {
        for (int64_t i = 0; i < dims->len; i++) {
            int32_t d;
            tc_shape_wrap_dim(dims->items[i], self->ndim, &d);
            count *= self->ndim ? self->sizes[d] : 1;
        }
    }
    return divide_into(c, sum, count);
}

/* out= of mean.dim and nanmean: PyTorch reduces in out='s dtype (a dtype= beside it must be the
 * same), the input converted to it (a complex input's real parts for a real out=: the sum's meta
 * function warns that the imaginary parts are dropped). An integer or bool out= fails in PyTorch's final
 * in-place division of the sum by the count, whose result type is Float. */
int tc_impl_mean_out(tc_opcall *c) {
    struct tc_op *base = tc_op_at(c->op->base);
    const int32_t n = base->schema.n_args; /* self, dim, keepdim, dtype; then out */
    tc_tensor *out = c->args[n].v.tensor, *self = tc_arg_tensor(c, 0);
    const bool nan = strcmp(base->schema.name, "nanmean") == 0;
    const int32_t dtype = tc_arg_enum(c, 3);
    int32_t inferred;
    if (!nan && mean_dtype(self, dtype, &inferred)) return TC_FAIL; /* from the input, out= or not */
    if (dtype >= 0 && dtype != out->dtype)
        return nan ? tc_set_error(TC_ERR_RUNTIME, "nansum: provided dtype must match dtype of result. Got %s and %s.",
                                  tc_dtype_scalar_name(out->dtype), tc_dtype_scalar_name(dtype))
                   : tc_check_out_dtype(out, dtype);
    if (nan && !tc_dtype_is_floating(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "nanmean(): expected input to have floating point dtype but got %s",
                            tc_dtype_scalar_name(self->dtype));
    if (nan && !tc_dtype_is_floating(out->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"nansum_cpu\" not implemented for '%s'", tc_dtype_scalar_name(out->dtype));
    if (!tc_dtype_is_floating(out->dtype) && !tc_dtype_is_complex(out->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "result type Float can't be cast to the desired output type %s",
                            tc_dtype_scalar_name(out->dtype));
    tc_value args[4];
    memcpy(args, c->args, sizeof args);
    args[3] = (tc_value){.tag = TC_VALUE_DTYPE, .v.i = out->dtype};
    tc_value result;
    if (tc_dispatch(base, args, &result)) return TC_FAIL;
    int rc;
    tc_tensor *value = result.v.tensor;
    rc = tc_resize_output(out, value->ndim, value->sizes);
    tc_tensor *copied = rc ? NULL : tc_copy_(out, value, false);
    tc_values_release(&result, 1);
    tc_tensor_release(copied);
    if (!copied) return TC_FAIL;
    tc_tensor_retain(out);
    return tc_return(c, out);
}

/* out= of argmax / argmin: an int64 tensor, checked before the input (PyTorch's order). */
int tc_impl_argmax_out(tc_opcall *c) {
    const tc_tensor *out = c->args[tc_op_at(c->op->base)->schema.n_args].v.tensor;
    return tc_check_out_dtype(out, TC_INT64) ? TC_FAIL : tc_impl_out_from_functional(c);
}

/* argmax / argmin (self, dim, keepdim): the indices half of max.dim / min.dim. */
static int arg_extreme(tc_opcall *c, bool is_max) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    /* complex input: PyTorch's refusal (it answers without its kernels along a dim of size 1 and for
     * an empty input). Bool input, which PyTorch's CPU build has no argmax kernel for, is answered. */
    int32_t d = 0;
    if (!tc_arg_none(c, 1) && tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &d)) return TC_FAIL;
    const bool trivial = !tc_arg_none(c, 1) && (tc_tensor_numel(self) == 0 || self->ndim == 0 || self->sizes[d] == 1);
    if (tc_dtype_is_complex(self->dtype) && !trivial)
        return tc_set_error(TC_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'", c->op->schema.name,
                            tc_dtype_scalar_name(self->dtype));
    bool keepdim = tc_arg_bool(c, 2);
    tc_tensor *values = NULL, *indices = NULL;
    int rc;
    if (!tc_arg_none(c, 1)) {
        rc = (is_max ? tc_max_dim : tc_min_dim)(self, tc_arg_int(c, 1), keepdim, &values, &indices);
        tc_tensor_release(values);
        return rc ? TC_FAIL : tc_return(c, indices);
    }
    if (tc_tensor_numel(self) == 0) /* IndexError here, unlike max()'s RuntimeError: PyTorch's types */
        return tc_set_error(TC_ERR_INDEX, "%s(): Expected reduction dim to be specified for input.numel() == 0.",
                            c->op->schema.name);
    tc_tensor *flat = tc_reshape(self, TC_INTS(-1));
    if (!flat) return TC_FAIL;
    rc = (is_max ? tc_max_dim : tc_min_dim)(flat, 0, false, &values, &indices);
    tc_tensor_release(flat);
    tc_tensor_release(values);
    if (rc) return TC_FAIL;
    if (!keepdim) return tc_return(c, indices);
    int64_t ones[TC_MAX_DIMS];
    for (int32_t d = 0; d < self->ndim; d++) ones[d] = 1;
    tc_tensor *r = tc_reshape(indices, (tc_int_list){ones, self->ndim});
    tc_tensor_release(indices);
    return tc_return(c, r);
}

int tc_impl_argmax(tc_opcall *c) { return arg_extreme(c, true); }
int tc_impl_argmin(tc_opcall *c) { return arg_extreme(c, false); }

/* The `dim` argument i of a call: NULL for None (every dim). */
static const tc_int_list *dims_arg(const tc_opcall *c, int i, tc_int_list *store) {
    if (tc_arg_none(c, i)) return NULL;
    *store = tc_arg_ints(c, i);
    return store;
}

/* nanmean(self, dim, keepdim, *, dtype) */
int tc_impl_nanmean(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (!tc_dtype_is_floating(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "nanmean(): expected input to have floating point dtype but got %s",
                            tc_dtype_scalar_name(self->dtype));
    tc_int_list store;
    const tc_int_list *dims = dims_arg(c, 1, &store);
    bool keepdim = tc_arg_bool(c, 2);
    tc_tensor *sum = tc_nansum(self, dims, keepdim, tc_arg_enum(c, 3));
    tc_tensor *present = sum ? tc_eq_Tensor(self, self) : NULL; /* NaN is the one value unequal to itself */
    tc_tensor *count = present ? tc_sum_dim_IntList(present, dims, keepdim, -1) : NULL;
    tc_tensor *mean = count ? tc_div_Tensor(sum, count) : NULL;
    tc_tensor_release(sum);
    tc_tensor_release(present);
    tc_tensor_release(count);
    return tc_return(c, mean);
}

/* frobenius_norm(self, dim, keepdim): the 2-norm over at most two distinct dims (none: all). */
static int frobenius(tc_opcall *c, tc_int_list dims, bool keepdim) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (dims.len > 2)
        return tc_set_error(TC_ERR_RUNTIME, "Expected at most 2 dimensions, but got %lld dimensions instead.",
                            (long long)dims.len);
    if (dims.len == 2) {
        int32_t d0, d1;
        if (tc_shape_wrap_dim(dims.items[0], self->ndim, &d0) || tc_shape_wrap_dim(dims.items[1], self->ndim, &d1))
            return TC_FAIL;
        if (d0 == d1)
            return tc_set_error(TC_ERR_RUNTIME, "Expected dims to be different, got [%lld, %lld] instead",
                                (long long)dims.items[0], (long long)dims.items[1]);
    }
    tc_scalar two = TC_SCALAR_OF_INT(2);
    return tc_return(c, tc_norm_ScalarOpt_dim(self, &two, dims, keepdim));
}

int tc_impl_frobenius_norm(tc_opcall *c) { return frobenius(c, TC_NO_INTS, false); }
int tc_impl_frobenius_norm_dim(tc_opcall *c) { return frobenius(c, tc_arg_ints(c, 1), tc_arg_bool(c, 2)); }
