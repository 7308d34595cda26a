/*
 * Meta functions of ops along one dim that keep the input's shape (scans: cumsum, cumprod,
 * logcumsumexp, cummax, cummin; sort) or its shape but for that dim (topk). Kernel ints[0] is the
 * dim; a 0-dim input is presented to the kernel as a one-element vector.
 *
 * cumsum/cumprod compute in their result dtype: dtype=, else an out= tensor's own dtype, else the
 * input's floating dtype or int64; in place, the input's dtype (PyTorch refuses another).
 */
#include "core_internal.h"

#include <string.h>

/* Outputs 0..n-1 (dtypes[i]) of the input's sizes; the input converted to `compute` (< 0: as it
 * is); the kernel's dtype and dim. */
int tc_plan_along_dim(tc_plan *p, tc_tensor *self, int64_t dim_arg, int32_t n, const int32_t *dtypes,
                      int32_t compute, int32_t kernel_dtype) {
    int32_t dim;
    if (tc_shape_wrap_dim(dim_arg, self->ndim, &dim)) return TC_FAIL;
    for (int32_t i = 0; i < n; i++)
        if (tc_plan_output(p, i, self->ndim, self->sizes, dtypes[i])) return TC_FAIL;
    p->dtype = kernel_dtype;
    if (self->ndim > 0) return tc_plan_input(p, self, compute) || tc_plan_int(p, dim) ? TC_FAIL : TC_OK;
    int64_t one = 1, zero = 0;
    tc_tensor *as1d = tc_tensor_restride(self, 1, &one, &zero, self->offset);
    if (!as1d) return TC_FAIL;
    int rc = tc_plan_input(p, as1d, compute);
    tc_tensor_release(as1d);
    for (int32_t i = 0; rc == TC_OK && i < n; i++) rc = tc_plan_kernel_view(p, i, 1, &one, &zero);
    return rc ? rc : tc_plan_int(p, 0);
}

/* cumsum / cumprod (self, dim, *, dtype) and their in-place and out= variants. */
int tc_meta_cumsum(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *target = tc_written_arg(c, 0);
    int32_t dtype = tc_arg_enum(c, 2);
    if (c->op->variant == TC_VARIANT_INPLACE && dtype >= 0 && dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "Bad in-place call: input tensor dtype %s and output tensor dtype %s "
                                            "should match", tc_dtype_cpp_name(self->dtype), tc_dtype_cpp_name(dtype));
    if (dtype < 0)
        dtype = target ? target->dtype
                       : tc_dtype_is_floating(self->dtype) || tc_dtype_is_complex(self->dtype) ? self->dtype : TC_INT64;
    if (dtype == TC_BOOL)
        return tc_set_error(TC_ERR_RUNTIME, "\"%s_out_cpu\" not implemented for 'Bool'", c->op->schema.name);
    return tc_plan_along_dim(p, self, tc_arg_int(c, 1), 1, &dtype, dtype, dtype);
}

/* logcumsumexp(self, dim): floating dtypes only. */
int tc_meta_logcumsumexp(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *target = tc_written_arg(c, 0);
    if (tc_check_out_scalar_type(target, self->dtype)) return TC_FAIL; /* PyTorch checks out='s dtype first */
    if (!tc_dtype_is_floating(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"logcumsumexp_out_cpu\" not implemented for '%s'",
                            tc_dtype_scalar_name(self->dtype));
    return tc_plan_along_dim(p, self, tc_arg_int(c, 1), 1, &self->dtype, -1, self->dtype);
}

/* Results (values of the input's dtype, int64 indices) that out= tensors must match exactly, as
 * PyTorch's index-returning ops require. */
static int check_values_indices(const tc_opcall *c, int32_t dtype) {
    return tc_check_out_scalar_type(tc_written_arg(c, 0), dtype) || tc_check_out_scalar_type(tc_written_arg(c, 1), TC_INT64)
               ? TC_FAIL : TC_OK;
}

/* sort's and topk's words for the same check. */
static int check_out_dtypes(const tc_opcall *c, int32_t dtype) {
    return tc_check_out_dtype(tc_written_arg(c, 0), dtype) || tc_check_out_dtype(tc_written_arg(c, 1), TC_INT64)
               ? TC_FAIL : TC_OK;
}

/* cummax / cummin (self, dim): running extremes and their indices. */
int tc_meta_cumextreme(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (check_values_indices(c, self->dtype)) return TC_FAIL;
    const int32_t dtypes[2] = {self->dtype, TC_INT64};
    return tc_plan_along_dim(p, self, tc_arg_int(c, 1), 2, dtypes, -1, self->dtype);
}

/* sort(self, dim, descending) and sort.stable(self, *, stable, dim, descending): values and int64
 * indices; ints = [dim, descending, stable]. */
int tc_meta_sort(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    bool is_stable = strcmp(c->op->schema.args[1].name, "stable") == 0;
    int32_t first = is_stable ? 2 : 1; /* dim, then descending */
    if (is_stable && c->args[1].tag != TC_VALUE_BOOL) /* PyTorch 1.13 asserts here */
        return tc_set_error(TC_ERR_RUNTIME, "sort(): c10::optional<bool> for stable has to have value.");
    bool stable = is_stable && c->args[1].v.b;
    if (check_out_dtypes(c, self->dtype)) return TC_FAIL;
    const int32_t dtypes[2] = {self->dtype, TC_INT64};
    if (tc_plan_along_dim(p, self, tc_arg_int(c, first), 2, dtypes, -1, self->dtype)) return TC_FAIL;
    return tc_plan_int(p, tc_arg_bool(c, first + 1)) || tc_plan_int(p, stable) ? TC_FAIL : TC_OK;
}

/* topk(self, k, dim, largest, sorted): values and indices with k along dim; ints = [dim, k,
 * largest, sorted]. */
int tc_meta_topk(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int64_t k = tc_arg_int(c, 1);
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 2), self->ndim, &dim)) return TC_FAIL;
    int64_t size = self->ndim > 0 ? self->sizes[dim] : 1;
    if (k < 0 || k > size) return tc_set_error(TC_ERR_RUNTIME, "selected index k out of range");
    if (check_out_dtypes(c, self->dtype)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS];
    for (int32_t d = 0; d < self->ndim; d++) sizes[d] = d == dim ? k : self->sizes[d];
    if (tc_plan_output(p, 0, self->ndim, sizes, self->dtype) || tc_plan_output(p, 1, self->ndim, sizes, TC_INT64))
        return TC_FAIL;
    p->dtype = self->dtype;
    if (self->ndim == 0) { /* one element: PyTorch returns it and index 0 for k 0 or 1 alike */
        int64_t one = 1, zero = 0;
        tc_tensor *as1d = tc_tensor_restride(self, 1, &one, &zero, self->offset);
        int rc = as1d ? tc_plan_input(p, as1d, -1) : TC_FAIL;
        tc_tensor_release(as1d);
        for (int32_t i = 0; rc == TC_OK && i < 2; i++) rc = tc_plan_kernel_view(p, i, 1, &one, &zero);
        if (rc) return TC_FAIL;
        k = 1;
    } else if (tc_plan_input(p, self, -1)) {
        return TC_FAIL;
    }
    if (tc_plan_int(p, self->ndim ? dim : 0) || tc_plan_int(p, k)) return TC_FAIL;
    return tc_plan_int(p, tc_arg_bool(c, 3)) || tc_plan_int(p, tc_arg_bool(c, 4)) ? TC_FAIL : TC_OK;
}
