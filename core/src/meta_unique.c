/*
 * Meta functions of ops whose result sizes depend on the data (unique, unique_consecutive,
 * unique_dim): every output is deferred (tc_plan_output_deferred) and the kernel asks for it once it
 * knows its size; on a backend that cannot (the meta device) they raise NotImplementedError, as in
 * PyTorch. Kernel ints are the flags each kernel's contract names (docs/plugin-abi.md).
 */
#include "core_internal.h"

/* values (the input's dtype), inverse and counts (int64), as many as the op returns */
static int defer_outputs(const tc_opcall *c, tc_plan *p, int32_t dtype) {
    for (int32_t i = 0; i < c->op->schema.n_returns; i++)
        if (tc_plan_output_deferred(p, i, i == 0 ? dtype : TC_INT64)) return TC_FAIL;
    return TC_OK;
}

/* _unique(self, sorted, return_inverse), _unique2(self, sorted, return_inverse, return_counts):
 * ints = [sorted, return_inverse, return_counts]. */
int tc_meta_unique(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (self->dtype == TC_FLOAT16) return tc_set_error(TC_ERR_RUNTIME, "\"unique\" not implemented for 'Half'");
    if (defer_outputs(c, p, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    bool counts = c->op->schema.n_args > 3 && c->args[3].tag == TC_VALUE_BOOL && c->args[3].v.b;
    if (tc_plan_input(p, self, -1) || tc_plan_int(p, tc_arg_bool(c, 1)) || tc_plan_int(p, tc_arg_bool(c, 2)))
        return TC_FAIL;
    return tc_plan_int(p, counts);
}

/* The dim of unique_dim / unique_consecutive, checked as PyTorch does; ints[0] = dim. */
static int unique_dim_arg(tc_tensor *self, int64_t dim_arg, int32_t *dim) {
    if (self->ndim == 0)
        return tc_set_error(TC_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim_arg);
    if (tc_shape_wrap_dim(dim_arg, self->ndim, dim)) return TC_FAIL;
    int32_t zeros = 0;
    for (int32_t d = 0; d < self->ndim; d++) zeros += self->sizes[d] == 0;
    if (self->sizes[*dim] == 0 && zeros > 1)
        return tc_set_error(TC_ERR_RUNTIME, "Number of zero sized dimensions is more than one, so unique cannot be "
                                            "applied ");
    if (self->sizes[*dim] != 0 && zeros > 0)
        return tc_set_error(TC_ERR_RUNTIME, "There are 0 sized dimensions, and they aren't selected, so unique "
                                            "cannot be applied");
    return TC_OK;
}

/* unique_dim(self, dim, sorted, return_inverse, return_counts): ints = [dim, return_inverse,
 * return_counts] (slices always come out sorted; inverse and counts always computed). */
int tc_meta_unique_dim(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dim;
    if (unique_dim_arg(self, tc_arg_int(c, 1), &dim) || defer_outputs(c, p, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input(p, self, -1) || tc_plan_int(p, dim) || tc_plan_int(p, tc_arg_bool(c, 3))) return TC_FAIL;
    return tc_plan_int(p, tc_arg_bool(c, 4));
}

/* unique_consecutive(self, return_inverse, return_counts, dim): ints = [dim, or -1 for the
 * flattened input (also PyTorch's choice for dim 0 of a vector), return_inverse, return_counts]. */
int tc_meta_unique_consecutive(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dim = -1;
    if (!tc_arg_none(c, 3) && !(tc_arg_int(c, 3) == 0 && self->ndim == 1) &&
        unique_dim_arg(self, tc_arg_int(c, 3), &dim))
        return TC_FAIL;
    if (defer_outputs(c, p, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input(p, self, -1) || tc_plan_int(p, dim) || tc_plan_int(p, tc_arg_bool(c, 1))) return TC_FAIL;
    return tc_plan_int(p, tc_arg_bool(c, 2));
}
