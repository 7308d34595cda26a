/*
 * Meta functions of the ops driven by a condition: where and masked_fill (the `where` kernel picks
 * between two operands), masked_scatter, and the two whose result size depends on the data,
 * nonzero and masked_select. Those count first, with the core's own kernel nonzero_count on the
 * call's backend, read the count on the host, allocate, and leave the filling to their kernel.
 */
#include "core_internal.h"
#include "indexing.h"

#include <string.h>

/* The number of nonzero elements of t: the nonzero_count kernel of t's backend, read on the host.
 * The meta device has no data to count, and says so as PyTorch does. */
int tc_masked_count(const tc_opcall *c, tc_tensor *t, int64_t *count) {
    int32_t meta = tc_device_type_id("meta");
    if (meta >= 0 && t->device.type == meta)
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED,
                            "Could not run 'aten::%s' with arguments from the 'Meta' backend: "
                            "its result size depends on the data",
                            c->op->schema.name);
    if (tc_tensor_numel(t) == 0) return *count = 0, TC_OK;
    tc_tensor *n = tc_empty(0, NULL, TC_INT64, t->device);
    if (!n) return TC_FAIL;
    tc_kernel_run run = {.kernel = TC_KERNEL_nonzero_count,
                         .backend = c->backend,
                         .dtype = t->dtype,
                         .inputs = &t,
                         .n_inputs = 1,
                         .outputs = &n,
                         .n_outputs = 1,
                         .schema_op = -1};
    tc_scalar s;
    int rc = tc_kernel_invoke(&run);
    if (rc == TC_OK) rc = tc__local_scalar_dense(n, &s);
    tc_tensor_release(n);
    if (rc == TC_OK) *count = s.v.i;
    return rc;
}

/* nonzero(self): the coordinates of the nonzero elements, one row each, in row-major order. */
int tc_meta_nonzero(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *out = tc_written_arg(c, 0);
    if (out && out->dtype != TC_INT64) /* PyTorch's message, its missing space included */
        return tc_set_error(TC_ERR_RUNTIME, "nonzero: Expected out tensor to have scalar type Long but got scalar type%s",
                            tc_dtype_scalar_name(out->dtype));
    int64_t count, sizes[2];
    if (tc_masked_count(c, self, &count)) return TC_FAIL;
    sizes[0] = count;
    sizes[1] = self->ndim;
    if (tc_plan_output(p, 0, 2, sizes, TC_INT64)) return TC_FAIL;
    p->dtype = self->dtype;
    return tc_plan_input(p, self, -1);
}

/* Masks are bool (or uint8, deprecated, with PyTorch's warning naming the op). */
static int check_mask(const tc_tensor *mask, const char *op, const char *error) {
    if (mask->dtype == TC_BOOL) return TC_OK;
    if (mask->dtype == TC_UINT8) {
        tc_warn("%s received a mask with dtype torch.uint8, this behavior is now deprecated,please use a mask with "
                "dtype torch.bool instead.",
                op);
        return TC_OK;
    }
    return tc_set_error(TC_ERR_RUNTIME, "%s%s", error, tc_dtype_name(mask->dtype));
}

/* masked_select(self, mask): the elements of self (broadcast with mask) where mask is true, as 1-D. */
int tc_meta_masked_select(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *mask = tc_arg_tensor(c, 1), *out = tc_written_arg(c, 0);
    if (out && out->dtype != self->dtype) /* out= is never cast into, checked first as PyTorch does */
        return tc_set_error(TC_ERR_RUNTIME, "masked_select(): self and result must have the same scalar type");
    if (mask->dtype != TC_BOOL && mask->dtype != TC_UINT8)
        return tc_set_error(TC_ERR_RUNTIME, "masked_select: expected BoolTensor or ByteTensor for mask");
    if (check_mask(mask, "masked_select", "")) return TC_FAIL;
    int32_t ndim;
    int64_t shape[TC_MAX_DIMS], count;
    if (tc_shape_broadcast(self->ndim, self->sizes, mask->ndim, mask->sizes, &ndim, shape)) return TC_FAIL;
    tc_tensor *s = tc_expand_to(self, ndim, shape), *m = s ? tc_expand_to(mask, ndim, shape) : NULL;
    int rc = m ? tc_masked_count(c, m, &count) : TC_FAIL;
    if (rc == TC_OK) rc = tc_plan_output(p, 0, 1, &count, self->dtype);
    if (rc == TC_OK) rc = tc_index_check_out_overlap(p, self);
    p->dtype = self->dtype;
    if (rc == TC_OK) rc = tc_plan_input(p, s, -1);
    if (rc == TC_OK) rc = tc_plan_input(p, m, -1);
    tc_tensor_release(s);
    tc_tensor_release(m);
    return rc;
}

/* where.self / .ScalarSelf / .ScalarOther / .Scalar (condition, self, other): a Scalar operand is a
 * wrapped number, promoted as one. */
int tc_meta_where(tc_opcall *c, tc_plan *p) {
    tc_tensor *cond = tc_arg_tensor(c, 0), *ts[3] = {cond, NULL, NULL}, *owned[2] = {NULL, NULL};
    if (cond->dtype != TC_BOOL && cond->dtype != TC_UINT8)
        return tc_set_error(TC_ERR_RUNTIME,
                            "where expected condition to be a boolean tensor, but got a tensor with "
                            "dtype %s",
                            tc_dtype_scalar_name(cond->dtype));
    if (cond->dtype == TC_UINT8)
        tc_warn("where received a uint8 condition tensor. This behavior is deprecated and will be removed in a future "
                "version of PyTorch. Use a boolean condition instead.");
    int rc = TC_OK;
    for (int i = 0; i < 2 && rc == TC_OK; i++) {
        const tc_value *v = &c->args[1 + i];
        if (v->tag == TC_VALUE_TENSOR) {
            ts[1 + i] = v->v.tensor;
            continue;
        }
        tc_scalar s = v->v.scalar;
        int32_t dtype = s.kind == TC_SCALAR_FLOAT     ? TC_FLOAT64
                        : s.kind == TC_SCALAR_COMPLEX ? TC_COMPLEX128
                        : s.kind == TC_SCALAR_BOOL    ? TC_BOOL
                                                      : TC_INT64;
        if (!(owned[i] = ts[1 + i] = tc_index_value_tensor(c, s, dtype)))
            rc = TC_FAIL;
        else
            owned[i]->flags |= TC_TENSOR_WRAPPED_NUMBER;
    }
    int32_t ndim = cond->ndim;
    int64_t shape[TC_MAX_DIMS];
    memcpy(shape, cond->sizes, sizeof(int64_t) * (size_t)ndim);
    for (int i = 1; i < 3 && rc == TC_OK; i++)
        rc = tc_shape_broadcast(ndim, shape, ts[i]->ndim, ts[i]->sizes, &ndim, shape);
    int32_t dtype = rc == TC_OK ? tc_result_type(ts + 1, 2) : -1;
    if (rc == TC_OK) rc = tc_plan_output(p, 0, ndim, shape, dtype);
    if (rc == TC_OK) rc = tc_plan_input(p, cond, -1);
    for (int i = 1; i < 3 && rc == TC_OK; i++) rc = tc_plan_input(p, ts[i], dtype);
    p->dtype = dtype;
    p->flags |= TC_PLAN_BROADCAST;
    tc_tensor_release(owned[0]);
    tc_tensor_release(owned[1]);
    return rc;
}

/* masked_fill.Scalar / .Tensor (self, mask, value) and their in-place and out= forms: where(mask,
 * value, self) in self's dtype. The functional form broadcasts self with mask; in place, the mask
 * must broadcast to self (the runner's shape check says so in PyTorch's words). */
int tc_meta_masked_fill(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *mask = tc_arg_tensor(c, 1), *value;
    if (check_mask(mask, "masked_fill_", "masked_fill_ only supports boolean masks, but got mask with dtype "))
        return TC_FAIL;
    if (tc_index_fill_value(c, 2, self->dtype, "masked_fill_", &value)) return TC_FAIL;
    int32_t ndim;
    int64_t shape[TC_MAX_DIMS];
    int rc = tc_shape_broadcast(self->ndim, self->sizes, mask->ndim, mask->sizes, &ndim, shape);
    if (rc == TC_OK) rc = tc_plan_output(p, 0, ndim, shape, self->dtype);
    if (rc == TC_OK) rc = tc_plan_input(p, mask, -1);
    if (rc == TC_OK) rc = tc_plan_input(p, value, -1);
    if (rc == TC_OK) rc = tc_plan_input(p, self, -1);
    p->dtype = self->dtype;
    p->flags |= TC_PLAN_BROADCAST;
    tc_tensor_release(value);
    return rc;
}

/* masked_scatter_(self, mask, source): self's elements where mask is true, in row-major order, get
 * source's first elements in its row-major order (the kernel raises when source runs out). */
int tc_meta_masked_scatter(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *mask = tc_arg_tensor(c, 1), *source = tc_arg_tensor(c, 2);
    if (check_mask(mask, "masked_scatter_", "masked_scatter_ only supports boolean masks, but got mask with dtype "))
        return TC_FAIL;
    if (source->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME,
                            "masked_scatter: expected self and source to have same dtypes but got%s and "
                            "%s",
                            tc_dtype_scalar_name(self->dtype), tc_dtype_scalar_name(source->dtype));
    tc_tensor *m = tc_expand_to(mask, self->ndim, self->sizes);
    tc_tensor *flat = m ? tc_reshape(source, TC_INTS(-1)) : NULL;
    int rc = flat ? tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype) : TC_FAIL;
    if (rc == TC_OK) rc = tc_plan_input(p, m, -1);
    if (rc == TC_OK) rc = tc_plan_input(p, flat, -1);
    p->dtype = self->dtype;
    tc_tensor_release(m);
    tc_tensor_release(flat);
    return rc;
}
