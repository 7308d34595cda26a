/*
 * Meta functions of the joining and rearranging ops that need a kernel: cat (inputs copied into
 * slices of one result), flip (a copy read backwards along some dims), tril/triu (a copy that zeroes
 * one side of each matrix's diagonal) and tril_indices/triu_indices (the coordinates of that side).
 * The other ops of the family are views and composites (impl_joining.c, impl_rearrange.c).
 */
#include "core_internal.h"
#include "indexing.h"

#include <string.h>

/* PyTorch 1.13 skips 1-D empty tensors in cat whatever their rank, a legacy of size-0 "no data". */
static bool cat_skipped(const tc_tensor *t) { return t->ndim == 1 && t->sizes[0] == 0; }

/* cat(tensors, dim) and cat.out: kernel ints[0] = dim; the inputs are the tensors not skipped, in
 * the result's dtype. */
int tc_meta_cat(tc_opcall *c, tc_plan *p) {
    tc_tensor *const *ts = c->args[0].v.tensors.items;
    int64_t n = c->args[0].v.tensors.len;
    if (n == 0) return tc_set_error(TC_ERR_RUNTIME, "torch.cat(): expected a non-empty list of Tensors");
    const tc_tensor *ref = NULL;
    for (int64_t i = 0; i < n; i++) {
        if (ts[i]->ndim == 0)
            return tc_set_error(TC_ERR_RUNTIME, "zero-dimensional tensor (at position %lld) cannot be concatenated",
                                (long long)i);
        if (!ref && !cat_skipped(ts[i])) ref = ts[i];
    }
    int32_t dtype = tc_result_type(ts, (int)n), dim;
    if (!ref) ref = ts[0]; /* every tensor is empty: the result is too */
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), ref->ndim, &dim)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS];
    memcpy(sizes, ref->sizes, sizeof(int64_t) * (size_t)ref->ndim);
    sizes[dim] = 0;
    for (int64_t i = 0; i < n; i++) {
        const tc_tensor *t = ts[i];
        if (cat_skipped(t) && t != ref) continue;
        if (t->ndim != ref->ndim)
            return tc_set_error(TC_ERR_RUNTIME, "Tensors must have same number of dimensions: got %d and %d", ref->ndim,
                                t->ndim);
        for (int32_t d = 0; d < t->ndim; d++)
            if (d != dim && t->sizes[d] != ref->sizes[d])
                return tc_set_error(TC_ERR_RUNTIME,
                                    "Sizes of tensors must match except in dimension %d. Expected size "
                                    "%lld but got size %lld for tensor number %lld in the list.",
                                    dim, (long long)ref->sizes[d], (long long)t->sizes[d], (long long)i);
        if (__builtin_add_overflow(sizes[dim], t->sizes[dim], &sizes[dim]))
            return tc_set_error(TC_ERR_RUNTIME, "torch.cat(): the result is too large");
    }
    if (tc_plan_output(p, 0, ref->ndim, sizes, dtype)) return TC_FAIL;
    p->dtype = dtype;
    for (int64_t i = 0; i < n; i++)
        if ((!cat_skipped(ts[i]) || ts[i] == ref) && tc_tensor_numel(ts[i]) && tc_plan_input(p, ts[i], dtype))
            return TC_FAIL;
    return tc_plan_int(p, dim);
}

/* Wraps a list of dims into a mask, refusing repeats as PyTorch's dim_list_to_bitset does. */
static int dims_mask(tc_int_list dims, int32_t ndim, bool *mask) {
    memset(mask, 0, sizeof(bool) * TC_MAX_DIMS);
    for (int64_t i = 0; i < dims.len; i++) {
        int32_t d;
        if (tc_shape_wrap_dim(dims.items[i], ndim, &d)) return TC_FAIL;
        if (mask[d]) return tc_set_error(TC_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", d);
        mask[d] = true;
    }
    return TC_OK;
}

/* flip(self, dims): kernel ints = the flipped dims, ascending. */
int tc_meta_flip(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    bool mask[TC_MAX_DIMS];
    if (dims_mask(tc_arg_ints(c, 1), self->ndim, mask)) return TC_FAIL;
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype) || tc_index_check_out_overlap(p, self))
        return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input(p, self, -1)) return TC_FAIL;
    for (int32_t d = 0; d < self->ndim; d++)
        if (mask[d] && self->sizes[d] > 1 && tc_plan_int(p, d)) return TC_FAIL;
    return TC_OK;
}

/* tril / triu (self, diagonal) and their in-place and out= forms: kernel ints[0] = diagonal. */
int tc_meta_triangle(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t unused;
    if (self->ndim < 2 && tc_shape_wrap_dim(-2, self->ndim, &unused)) return TC_FAIL;
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input(p, self, -1)) return TC_FAIL;
    return tc_plan_int(p, tc_arg_int(c, 1));
}

/* The number of elements on the lower (tril) side of a row x col matrix's `offset` diagonal,
 * PyTorch's get_tril_size; triu's side is the rest of the matrix beside tril's of offset - 1. */
static int64_t tril_count(int64_t row, int64_t col, int64_t offset) {
    if (row == 0 || col == 0) return 0;
    int64_t m_first_row = offset > 0 ? (col < offset + 1 ? col : offset + 1) : row + offset > 0;
    int64_t m_last_row = row + offset < col ? row + offset : col;
    if (m_last_row < 0) m_last_row = 0;
    int64_t n_row_all = row + offset < row ? row + offset : row;
    if (n_row_all < 0) n_row_all = 0;
    int64_t n_row_trapezoid = m_last_row - m_first_row + 1;
    int64_t size = (m_first_row + m_last_row) * n_row_trapezoid >> 1;
    int64_t diff_row = n_row_all - n_row_trapezoid;
    if (diff_row > 0) size += diff_row * col;
    return size;
}

/* tril_indices / triu_indices (row, col, offset, *, dtype, layout, device, pin_memory) and their out=
 * forms: a 2 x N result; kernel ints = row, col, offset. */
int tc_meta_triangle_indices(tc_opcall *c, tc_plan *p) {
    int64_t row = tc_arg_int(c, 0), col = tc_arg_int(c, 1), offset = tc_arg_int(c, 2);
    bool lower = strcmp(c->op->schema.name, "tril_indices") == 0;
    int32_t dtype;
    if (c->op->variant == TC_VARIANT_OUT)
        dtype = c->args[3].v.tensor->dtype;
    else if (tc_factory_options(c, 3, TC_INT64, &dtype))
        return TC_FAIL;
    if (dtype != TC_INT32 && dtype != TC_INT64)
        return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'", c->op->schema.name,
                            tc_dtype_scalar_name(dtype));
    if (row < 0) return tc_set_error(TC_ERR_RUNTIME, "row must be non-negative, got%lld", (long long)row);
    if (col < 0) return tc_set_error(TC_ERR_RUNTIME, "col must be non-negative, got%lld", (long long)col);
    if (row > 0 && col > INT64_MAX / 4 / row) /* leaves room for tril_count's sums */
        return tc_set_error(TC_ERR_RUNTIME, "%s: row * col is too large", c->op->schema.name);
    int64_t sizes[2] = {2, lower ? tril_count(row, col, offset) : row * col - tril_count(row, col, offset - 1)};
    if (tc_plan_output(p, 0, 2, sizes, dtype)) return TC_FAIL;
    p->dtype = dtype;
    return tc_plan_int(p, row) || tc_plan_int(p, col) || tc_plan_int(p, offset) ? TC_FAIL : TC_OK;
}
