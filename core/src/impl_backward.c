/*
 * Ops that derivative formulas are written with (core/ops.table, last section): each is a few other
 * ops, so that a backward recorded with create_graph can be differentiated again.
 */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

static bool expandable(tc_int_list from, int32_t nto, const int64_t *to) {
    if (from.len > nto) return false;
    for (int64_t i = 0; i < from.len; i++) {
        int64_t a = from.items[from.len - 1 - i], b = to[nto - 1 - i];
        if (a != b && a != 1) return false;
    }
    return true;
}

/* sum_to_size(self, size): the sum of self over the dims that broadcasting size to self's shape
 * would have expanded. */
int tc_impl_sum_to_size(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_int_list size = tc_arg_ints(c, 1);
    if (!expandable(size, t->ndim, t->sizes)) {
        char want[256], have[256];
        tc_shape_format((int32_t)size.len, size.items, want, sizeof want);
        tc_shape_format(t->ndim, t->sizes, have, sizeof have);
        return tc_set_error(TC_ERR_RUNTIME, "size {%s} is not expandable to size {%s}.", want + 1, have + 1);
    }
    int64_t dims[TC_MAX_DIMS];
    int32_t n = 0, lead = t->ndim - (int32_t)size.len;
    for (int32_t d = 0; d < t->ndim; d++)
        if (d < lead || (size.items[d - lead] == 1 && t->sizes[d] != 1)) dims[n++] = d;
    tc_tensor *r;
    if (n == 0) {
        tc_tensor_retain(t);
        r = t;
    } else if (!(r = tc_sum_dim_IntList(t, &(tc_int_list){dims, n}, true, -1))) {
        return TC_FAIL;
    }
    if (lead == 0) return tc_return(c, r);
    tc_tensor *v = tc_view_default(r, size);
    tc_tensor_release(r);
    return tc_return(c, v);
}

/* _sum_backward(grad, sizes, dim, keepdim): grad of a sum over dim, spread back over `sizes`. */
int tc_impl__sum_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0);
    tc_int_list sizes = tc_arg_ints(c, 1);
    bool keepdim = tc_arg_bool(c, 3);
    tc_tensor *g = grad;
    tc_tensor_retain(g);
    if (!keepdim && !tc_arg_none(c, 2) && tc_arg_ints(c, 2).len > 0 && sizes.len > 0) {
        tc_int_list dim = tc_arg_ints(c, 2);
        bool reduced[TC_MAX_DIMS] = {false};
        for (int64_t k = 0; k < dim.len; k++) {
            int32_t d;
            if (tc_shape_wrap_dim(dim.items[k], (int32_t)sizes.len, &d)) {
                tc_tensor_release(g);
                return TC_FAIL;
            }
            reduced[d] = true;
        }
        for (int32_t d = 0; d < (int32_t)sizes.len; d++) { /* ascending: each lands where it was */
            if (!reduced[d]) continue;
            tc_tensor *u = tc_unsqueeze(g, d);
            tc_tensor_release(g);
            if (!(g = u)) return TC_FAIL;
        }
    }
    tc_tensor *r = tc_expand(g, sizes, false);
    tc_tensor_release(g);
    return tc_return(c, r);
}

/* zeros of input_sizes like grad, with grad written through view(zeros). */
static int scatter_into_zeros(tc_opcall *c, tc_tensor *grad, tc_int_list sizes,
                              tc_tensor *(*view)(tc_opcall *c, tc_tensor *zeros)) {
    tc_tensor *z = tc_zeros(sizes, grad->dtype, -1, &grad->device, NULL);
    if (!z) return TC_FAIL;
    tc_tensor *region = view(c, z);
    tc_tensor *done = region ? tc_copy_(region, grad, false) : NULL;
    tc_tensor_release(region);
    tc_tensor_release(done);
    if (!done) {
        tc_tensor_release(z);
        return TC_FAIL;
    }
    return tc_return(c, z);
}

static tc_tensor *selected(tc_opcall *c, tc_tensor *z) { return tc_select_int(z, tc_arg_int(c, 2), tc_arg_int(c, 3)); }

/* select_backward(grad_output, input_sizes, dim, index) */
int tc_impl_select_backward(tc_opcall *c) {
    return scatter_into_zeros(c, tc_arg_tensor(c, 0), tc_arg_ints(c, 1), selected);
}

static tc_tensor *sliced(tc_opcall *c, tc_tensor *z) {
    return tc_slice_Tensor(z, tc_arg_int(c, 2), TC_SOME_INT(tc_arg_int(c, 3)), TC_SOME_INT(tc_arg_int(c, 4)),
                           tc_arg_int(c, 5));
}

/* slice_backward(grad_output, input_sizes, dim, start, end, step) */
int tc_impl_slice_backward(tc_opcall *c) {
    return scatter_into_zeros(c, tc_arg_tensor(c, 0), tc_arg_ints(c, 1), sliced);
}

/* value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim): grad added into zeros of
 * `sizes` at the positions indices name along dim (max.dim, sort, topk, cummax and the like; a
 * position named twice gets both). Its formula is _select_values_at, its adjoint. */
int tc_impl_value_selecting_reduction_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *indices = tc_arg_tensor(c, 2);
    tc_int_list sizes = tc_arg_ints(c, 3);
    bool keepdim = tc_arg_bool(c, 4);
    if (sizes.len == 0) return tc_return(c, tc_clone(grad, -1)); /* a 0-dim input: its only element */
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), (int32_t)sizes.len, &dim)) return TC_FAIL;
    tc_tensor *g = NULL, *idx = NULL, *r = NULL, *done = NULL;
    if (keepdim) {
        tc_tensor_retain(grad);
        tc_tensor_retain(indices);
        g = grad;
        idx = indices;
    } else if (!(g = tc_unsqueeze(grad, dim)) || !(idx = tc_unsqueeze(indices, dim))) {
        goto fail;
    }
    if (!(r = tc_zeros(sizes, grad->dtype, -1, &grad->device, NULL))) goto fail;
    done = tc_scatter_add_(r, dim, idx, g);
fail:
    tc_tensor_release(done);
    tc_tensor_release(g);
    tc_tensor_release(idx);
    if (!done) {
        tc_tensor_release(r);
        return TC_FAIL;
    }
    return tc_return(c, r);
}

/* Storage positions geometry (sizes, strides, offset) reaches: [lo, hi] (hi < lo when empty). */
static void extent(tc_int_list sizes, tc_int_list strides, int64_t offset, int64_t *lo, int64_t *hi) {
    *lo = *hi = offset;
    for (int64_t d = 0; d < sizes.len; d++) {
        if (sizes.items[d] == 0) {
            *hi = *lo - 1;
            return;
        }
        *hi += (sizes.items[d] - 1) * strides.items[d];
    }
}

/* _as_strided_backward(grad, base geometry, view geometry): the gradient of a base for the gradient of
 * an as_strided view of it. A broadcast dim of the view (stride 0) sums its gradient first; the rest
 * is written into zeros over the storage both reach, then read back in the base's geometry. */
int tc_impl__as_strided_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0);
    tc_int_list base_sizes = tc_arg_ints(c, 1), base_strides = tc_arg_ints(c, 2);
    tc_int_list sizes = tc_arg_ints(c, 4), strides = tc_arg_ints(c, 5);
    int64_t base_offset = tc_arg_int(c, 3), offset = tc_arg_int(c, 6);
    if (base_sizes.len != base_strides.len || sizes.len != strides.len || sizes.len != grad->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "_as_strided_backward: inconsistent geometry");
    int64_t blo, bhi, vlo, vhi;
    extent(base_sizes, base_strides, base_offset, &blo, &bhi);
    extent(sizes, strides, offset, &vlo, &vhi);
    int64_t lo = blo < vlo ? blo : vlo, hi = bhi > vhi ? bhi : vhi;
    int64_t count = hi >= lo ? hi - lo + 1 : 0;
    tc_tensor *g = grad, *flat = NULL, *region = NULL, *done = NULL, *r = NULL;
    tc_tensor_retain(g);
    int64_t kept[TC_MAX_DIMS];
    for (int64_t d = 0; d < sizes.len; d++) {
        kept[d] = sizes.items[d];
        if (strides.items[d] != 0 || kept[d] <= 1) continue;
        tc_tensor *summed = tc_sum_dim_IntList(g, &(tc_int_list){(int64_t[]){d}, 1}, true, -1);
        tc_tensor_release(g);
        if (!(g = summed)) goto fail;
        kept[d] = 1;
    }
    if (!(flat = tc_zeros(TC_INTS(count), g->dtype, -1, &g->device, NULL))) goto fail;
    if (!(region = tc_as_strided(flat, (tc_int_list){kept, sizes.len}, strides, TC_SOME_INT(offset - lo)))) goto fail;
    if (!(done = tc_copy_(region, g, false))) goto fail;
    r = tc_as_strided(flat, base_sizes, base_strides, TC_SOME_INT(base_offset - lo));
fail:
    tc_tensor_release(done);
    tc_tensor_release(g);
    tc_tensor_release(flat);
    tc_tensor_release(region);
    return tc_return(c, r);
}
