/*
 * Meta functions of reductions: sum (all dims or a dim list), max/min of everything, max/min along
 * one dim with indices. The op's results drop the reduced dims unless keepdim; kernels always see
 * their outputs in keepdim form (same ndim as the input, reduced dims of size 1), a view of the
 * results the plan allocated.
 */
#include "core_internal.h"

#include <string.h>

/* Parses a dim list into a mask; an empty or absent list means every dim. */
static int dims_to_mask(const tc_tensor *t, const tc_value *dims, bool *mask) {
    memset(mask, 0, sizeof(bool) * TC_MAX_DIMS);
    int64_t n = dims && dims->tag == TC_VALUE_INT_LIST ? dims->v.ints.len : 0;
    if (n == 0) {
        for (int32_t d = 0; d < t->ndim; d++) mask[d] = true;
        return TC_OK;
    }
    bool seen[TC_MAX_DIMS + 1] = {0};
    for (int64_t i = 0; i < n; i++) {
        int32_t d;
        if (tc_shape_wrap_dim(dims->v.ints.items[i], t->ndim, &d)) return TC_FAIL;
        if (seen[d]) return tc_set_error(TC_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
        seen[d] = true;
        if (t->ndim) mask[d] = true;
    }
    return TC_OK;
}

/* The result's sizes: reduced dims dropped, or kept as 1. */
static int32_t reduced_sizes(const tc_tensor *t, const bool *mask, bool keepdim, int64_t *sizes) {
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (!mask[d]) sizes[n++] = t->sizes[d];
        else if (keepdim) sizes[n++] = 1;
    }
    return n;
}

/* Presents output i to the kernel in keepdim form. */
static int keepdim_view(tc_plan *p, int32_t i, const tc_tensor *in, const bool *mask) {
    tc_tensor *o = p->out[i];
    if (o->ndim == in->ndim) return TC_OK;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    for (int32_t d = 0, j = 0; d < in->ndim; d++) {
        if (mask[d]) {
            sizes[d] = 1;
            strides[d] = 0;
        } else {
            sizes[d] = o->sizes[j];
            strides[d] = o->strides[j++];
        }
    }
    return tc_plan_kernel_view(p, i, in->ndim, sizes, strides);
}

/* sum(self, *, dtype) and sum.dim_IntList(self, dim, keepdim, *, dtype). */
int tc_meta_sum(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    bool with_dims = c->op->schema.n_args == 4;
    const tc_value *dims = with_dims ? &c->args[1] : NULL;
    bool keepdim = with_dims && tc_arg_bool(c, 2);
    int32_t dtype = tc_arg_enum(c, with_dims ? 3 : 1);
    if (dtype < 0)
        dtype = tc_dtype_is_floating(self->dtype) || tc_dtype_is_complex(self->dtype) ? self->dtype : TC_INT64;
    bool mask[TC_MAX_DIMS];
    int64_t sizes[TC_MAX_DIMS];
    if (dims_to_mask(self, dims, mask)) return TC_FAIL;
    if (tc_plan_output(p, 0, reduced_sizes(self, mask, keepdim, sizes), sizes, dtype)) return TC_FAIL;
    if (keepdim_view(p, 0, self, mask)) return TC_FAIL;
    p->dtype = dtype;
    if (tc_tensor_numel(self) == 0) { /* the sum of nothing is 0 */
        p->kernel = TC_KERNEL_fill;
        return tc_plan_scalar(p, TC_SCALAR_OF_INT(0));
    }
    /* a bool sum is "any element true": the largest of the values as bools */
    if (dtype == TC_BOOL) p->kernel = TC_KERNEL_max;
    if (tc_dtype_is_complex(dtype)) return tc_meta_sum_complex(p, self, dtype);
    return tc_plan_input(p, self, dtype);
}

/* max(self) and min(self): every element, no indices. */
int tc_meta_extreme_all(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (tc_tensor_numel(self) == 0)
        return tc_set_error(TC_ERR_RUNTIME, "%s(): Expected reduction dim to be specified for input.numel() == 0. "
                                            "Specify the reduction dim with the 'dim' argument.", c->op->schema.name);
    bool mask[TC_MAX_DIMS];
    dims_to_mask(self, NULL, mask);
    if (tc_plan_output(p, 0, 0, NULL, self->dtype)) return TC_FAIL;
    if (keepdim_view(p, 0, self, mask)) return TC_FAIL;
    p->dtype = self->dtype;
    return tc_plan_input(p, self, -1);
}

/* max.dim / min.dim: values and int64 indices along one dim (kernel ints[0] = dim). A 0-dim input
 * reduces as a one-element vector. */
int tc_meta_extreme_dim(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    bool keepdim = tc_arg_bool(c, 2);
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &dim)) return TC_FAIL;
    if (self->ndim > 0 && self->sizes[dim] == 0)
        return tc_set_error(TC_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.",
                            c->op->schema.name, dim);
    bool mask[TC_MAX_DIMS] = {0};
    if (self->ndim > 0) mask[dim] = true;
    int64_t sizes[TC_MAX_DIMS];
    int32_t n = reduced_sizes(self, mask, keepdim, sizes);
    if (tc_plan_output(p, 0, n, sizes, self->dtype) || tc_plan_output(p, 1, n, sizes, TC_INT64)) return TC_FAIL;
    p->dtype = self->dtype;
    if (self->ndim > 0) {
        if (keepdim_view(p, 0, self, mask) || keepdim_view(p, 1, self, mask)) return TC_FAIL;
        if (tc_plan_input(p, self, -1)) return TC_FAIL;
        return tc_plan_int(p, dim);
    }
    int64_t one = 1, zero = 0;
    tc_tensor *as1d = tc_tensor_restride(self, 1, &one, &zero, self->offset);
    if (!as1d) return TC_FAIL;
    int rc = tc_plan_input(p, as1d, -1);
    tc_tensor_release(as1d);
    for (int32_t i = 0; rc == TC_OK && i < 2; i++) rc = tc_plan_kernel_view(p, i, 1, &one, &zero);
    return rc ? rc : tc_plan_int(p, 0);
}
