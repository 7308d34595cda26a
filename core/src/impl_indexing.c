/*
 * Composites of the indexing family: the functional forms of in-place writes (the in-place op on a
 * clone, as PyTorch computes them), take_along_dim (gather after broadcasting), nonzero_numpy and
 * where(condition) (nonzero's columns), argwhere.
 */
#include "core_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The in-place op `name_.overload` of a functional op, looked up once per op. */
static struct tc_op *inplace_of(const struct tc_op *op) {
    static _Atomic int32_t cache[TC_NUM_BUILTIN_OPS]; /* id + 1, 0 until looked up */
    int32_t id = op->id < TC_NUM_BUILTIN_OPS ? atomic_load(&cache[op->id]) - 1 : -1;
    if (id < 0) {
        char name[256];
        snprintf(name, sizeof name, "%s_%s%s", op->schema.name, op->schema.overload[0] ? "." : "", op->schema.overload);
        id = tc_op_lookup(name);
        if (id >= 0 && op->id < TC_NUM_BUILTIN_OPS) atomic_store(&cache[op->id], id + 1);
    }
    struct tc_op *inplace = id >= 0 ? tc_op_at(id) : NULL;
    if (!inplace) tc_set_error(TC_ERR_RUNTIME, "internal error: %s has no in-place form", op->schema.name);
    return inplace;
}

/* index_put, index_add, scatter, ...: the same arguments, self replaced by a clone of it. */
int tc_impl_functional_from_inplace(tc_opcall *c) {
    struct tc_op *inplace = inplace_of(c->op);
    if (!inplace) return TC_FAIL;
    int32_t n = c->op->schema.n_args;
    tc_value small[16], *args = n <= 16 ? small : malloc(sizeof(tc_value) * (size_t)n);
    if (!args) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    memcpy(args, c->args, sizeof(tc_value) * (size_t)n);
    tc_tensor *copy = tc_clone(tc_arg_tensor(c, 0), -1);
    int rc = TC_FAIL;
    if (copy) {
        args[0].v.tensor = copy;
        tc_value result;
        rc = tc_dispatch(inplace, args, &result);
        if (rc == TC_OK) tc_values_release(&result, 1);
    }
    if (args != small) free(args);
    if (rc) {
        tc_tensor_release(copy);
        return TC_FAIL;
    }
    return tc_return(c, copy);
}

/* take_along_dim(self, indices, dim): gather on self and indices broadcast against each other apart
 * from dim; without a dim, on both flattened. */
int tc_impl_take_along_dim(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0), *indices = tc_arg_tensor(c, 1);
    if (tc_arg_none(c, 2)) {
        tc_tensor *s = tc_view_default(self, TC_INTS(-1)), *i = s ? tc_view_default(indices, TC_INTS(-1)) : NULL;
        tc_tensor *r = i ? tc_gather(s, 0, i, false) : NULL;
        tc_tensor_release(s);
        tc_tensor_release(i);
        return tc_return(c, r);
    }
    if (self->ndim != indices->ndim)
        return tc_set_error(TC_ERR_RUNTIME,
                            "torch.take_along_dim(): input and indices should have the same number of "
                            "dimensions, but got %d dimensions for input, and %d dimensions for indices",
                            self->ndim, indices->ndim);
    if (indices->dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME, "torch.take_along_dim(): dtype of indices should be Long but got %s",
                            tc_dtype_scalar_name(indices->dtype));
    int32_t dim, n;
    if (tc_shape_wrap_dim(tc_arg_int(c, 2), self->ndim, &dim)) return TC_FAIL;
    int64_t a[TC_MAX_DIMS], b[TC_MAX_DIMS], shape[TC_MAX_DIMS];
    memcpy(a, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
    memcpy(b, indices->sizes, sizeof(int64_t) * (size_t)indices->ndim);
    if (self->ndim) {
        a[dim] = indices->sizes[dim];
        b[dim] = self->sizes[dim];
    }
    if (tc_shape_broadcast(self->ndim, a, indices->ndim, indices->sizes, &n, shape)) return TC_FAIL;
    tc_tensor *i = tc_expand(indices, (tc_int_list){shape, n}, false);
    if (!i || tc_shape_broadcast(indices->ndim, b, self->ndim, self->sizes, &n, shape)) {
        tc_tensor_release(i);
        return TC_FAIL;
    }
    tc_tensor *s = tc_expand(self, (tc_int_list){shape, n}, false);
    tc_tensor *r = s ? tc_gather(s, dim, i, false) : NULL;
    tc_tensor_release(s);
    tc_tensor_release(i);
    return tc_return(c, r);
}

/* nonzero_numpy(self) and where(condition): nonzero's columns, a 0-dim tensor counting as 1-dim. */
int tc_impl_nonzero_numpy(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_tensor *t = self->ndim ? (tc_tensor_retain(self), self) : tc_unsqueeze(self, 0);
    tc_tensor *nz = t ? tc_nonzero(t) : NULL;
    tc_tensor_release(t);
    if (!nz) return TC_FAIL;
    tc_tensor_vec cols;
    int rc = tc_unbind_int(nz, 1, &cols);
    tc_tensor_release(nz);
    if (rc) return TC_FAIL;
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR_LIST, .v.tensors = {cols.items, cols.len}};
    return TC_OK;
}

/* argwhere(self): nonzero. */
int tc_impl_argwhere(tc_opcall *c) { return tc_return(c, tc_nonzero(tc_arg_tensor(c, 0))); }

/* masked_scatter(self, mask, source): masked_scatter_ on a copy of self broadcast against mask. */
int tc_impl_masked_scatter(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0), *mask = tc_arg_tensor(c, 1);
    int64_t shape[TC_MAX_DIMS];
    int32_t n;
    if (tc_shape_broadcast(self->ndim, self->sizes, mask->ndim, mask->sizes, &n, shape)) return TC_FAIL;
    tc_tensor *wide = tc_expand(self, (tc_int_list){shape, n}, false);
    tc_tensor *copy = wide ? tc_clone(wide, TC_MEMORY_FORMAT_CONTIGUOUS) : NULL;
    tc_tensor_release(wide);
    tc_tensor *done = copy ? tc_masked_scatter_(copy, mask, tc_arg_tensor(c, 2)) : NULL;
    if (!done) {
        tc_tensor_release(copy);
        return TC_FAIL;
    }
    tc_tensor_release(done);
    return tc_return(c, copy);
}

/* index_reduce_(self, dim, index, source, reduce, include_self): source's slices along dim reduced
 * (prod, mean, amax, amin) into self's slices at index, as scatter_reduce_ with the index repeated
 * over source's other dims; PyTorch's checks and messages, and its beta warning, once. */
int tc_impl_index_reduce_(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0), *index = tc_arg_tensor(c, 2), *source = tc_arg_tensor(c, 3);
    const char *reduce = c->args[4].v.s;
    static const char *const reductions[] = {"prod", "mean", "amax", "amin"};
    bool known = false;
    for (size_t i = 0; i < 4; i++) known |= strcmp(reduce, reductions[i]) == 0;
    if (!known)
        return tc_set_error(TC_ERR_RUNTIME, "index_reduce(): Expected reduce to be one of prod, mean, amax or amin "
                                            "but got %s.", reduce);
    static atomic_bool warned;
    if (!atomic_exchange(&warned, true)) tc_warn("index_reduce() is in beta and the API may change at any time.");
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim ? self->ndim : 1, &dim)) return TC_FAIL;
    if (index->ndim > 1) {
        char shape[256];
        tc_shape_format(index->ndim, index->sizes, shape, sizeof shape);
        return tc_set_error(TC_ERR_INDEX, "index_reduce_(): Index is supposed to be a vector, but got dim: %d with "
                                          "type: %s and size: %s", index->ndim, tc_dtype_scalar_name(index->dtype), shape);
    }
    if (index->dtype != TC_INT64 && index->dtype != TC_INT32)
        return tc_set_error(TC_ERR_RUNTIME, "index_reduce_(): Expected dtype int32/int64 for index but got: %s",
                            tc_dtype_scalar_name(index->dtype));
    if (self->dtype != source->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "index_reduce_(): self (%s) and source (%s) must have the same scalar type",
                            tc_dtype_scalar_name(self->dtype), tc_dtype_scalar_name(source->dtype));
    const int64_t count = index->ndim ? index->sizes[0] : 1, along = source->ndim ? source->sizes[dim] : 1;
    if (count != along)
        return tc_set_error(TC_ERR_RUNTIME, "index_reduce_(): Number of indices (%lld) should be equal to "
                                            "source.size(dim): (%lld), for dim: %d", (long long)count,
                            (long long)along, dim);
    const int64_t size = self->ndim ? self->sizes[dim] : 1;
    tc_tensor *low = tc_lt_Scalar(index, TC_SCALAR_OF_INT(0)), *high = tc_ge_Scalar(index, TC_SCALAR_OF_INT(size));
    tc_tensor *bad = low && high ? tc_logical_or(low, high) : NULL, *any = bad ? tc_any(bad) : NULL;
    tc_scalar outside = {0};
    const int rc = any ? tc_tensor_get(any, 0, &outside) : TC_FAIL;
    tc_tensor *parts[] = {low, high, bad, any};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) tc_tensor_release(parts[i]);
    if (rc) return TC_FAIL;
    if (outside.v.i) return tc_set_error(TC_ERR_INDEX, "index out of range in self"); /* a bool: 0 or 1 */
    /* the index laid along dim and repeated over source's other dims */
    int64_t shape[TC_MAX_DIMS];
    for (int32_t d = 0; d < source->ndim; d++) shape[d] = d == dim ? count : 1;
    tc_tensor *line = tc_reshape(index, (tc_int_list){shape, source->ndim});
    tc_tensor *wide = line ? tc_to_dtype(line, TC_INT64, false, false, -1) : NULL;
    tc_tensor *spread = wide ? tc_expand(wide, (tc_int_list){source->sizes, source->ndim}, false) : NULL;
    tc_tensor *r = spread ? tc_scatter_reduce__two(self, dim, spread, source, reduce, tc_arg_bool(c, 5)) : NULL;
    tc_tensor_release(line);
    tc_tensor_release(wide);
    tc_tensor_release(spread);
    return tc_return(c, r);
}
