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

/* repeat_backward(grad, repeats, self_sizes): repeat's gradient, the sum of grad's blocks: grad seen
 * as [r0, (r1, s1), ...] (each kept dim split into its repeats and its size, the leading repeats
 * alone) and summed over the repeats. */
int tc_impl_repeat_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0);
    const tc_int_list reps = tc_arg_ints(c, 1), sizes = tc_arg_ints(c, 2);
    if (reps.len < sizes.len || reps.len > TC_MAX_DIMS)
        return tc_set_error(TC_ERR_RUNTIME, "repeat_backward: %lld repeats for %lld dims", (long long)reps.len,
                            (long long)sizes.len);
    const int64_t lead = reps.len - sizes.len;
    int64_t split[2 * TC_MAX_DIMS], summed[TC_MAX_DIMS];
    int64_t ns = 0, nsum = 0;
    for (int64_t i = 0; i < reps.len; i++) {
        summed[nsum++] = ns;
        split[ns++] = reps.items[i];
        if (i >= lead) split[ns++] = sizes.items[i - lead];
    }
    tc_tensor *g = tc_reshape(grad, (tc_int_list){split, ns});
    tc_tensor *r = g ? tc_sum_dim_IntList(g, &(tc_int_list){summed, nsum}, false, -1) : NULL;
    tc_tensor_release(g);
    return tc_return(c, r);
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

/* ---- the indexing and joining families' backward helpers -------------------------------------------- */

/* Temporaries of a composite, released together at its end. */
typedef struct temps {
    tc_tensor *t[32];
    int n;
} temps;

/* Keeps t (NULL: the op that made it failed) for release at the end; returns it. */
static tc_tensor *keep(temps *p, tc_tensor *t) {
    if (t && p->n < (int)(sizeof p->t / sizeof p->t[0])) {
        p->t[p->n++] = t;
    } else if (t) {
        tc_tensor_release(t);
        t = NULL;
        tc_set_error(TC_ERR_RUNTIME, "internal error: too many temporaries");
    }
    return t;
}

static void release_temps(temps *p) {
    for (int i = 0; i < p->n; i++) tc_tensor_release(p->t[i]);
    p->n = 0;
}

/* Returns r (a new reference taken from the temporaries' own, or NULL) after releasing them. */
static int return_kept(tc_opcall *c, temps *p, tc_tensor *r) {
    if (r) tc_tensor_retain(r);
    release_temps(p);
    return tc_return(c, r);
}

static tc_tensor *diagonal_of(tc_opcall *c, tc_tensor *z) {
    return tc_diagonal(z, tc_arg_int(c, 2), tc_arg_int(c, 3), tc_arg_int(c, 4));
}

/* diagonal_backward(grad_output, input_sizes, offset, dim1, dim2): zeros with grad on the diagonal. */
int tc_impl_diagonal_backward(tc_opcall *c) {
    return scatter_into_zeros(c, tc_arg_tensor(c, 0), tc_arg_ints(c, 1), diagonal_of);
}

/* unfold_backward(grad_in, input_sizes, dim, size, step): each window's gradient added back where the
 * window was read from (windows overlap when step < size), as one index_add along dim. */
int tc_impl_unfold_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0);
    tc_int_list sizes = tc_arg_ints(c, 1);
    int64_t size = tc_arg_int(c, 3), step = tc_arg_int(c, 4);
    if (sizes.len == 0) return tc_return(c, tc_sum(grad, -1)); /* a 0-dim input: one window of 0 or 1 */
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 2), (int32_t)sizes.len, &dim)) return TC_FAIL;
    if (grad->ndim != sizes.len + 1) return tc_set_error(TC_ERR_RUNTIME, "unfold_backward: grad has the wrong shape");
    int64_t windows = grad->sizes[dim], n = windows * size;
    temps p = {.n = 0};
    tc_tensor *zeros = keep(&p, tc_zeros(sizes, grad->dtype, -1, &grad->device, NULL));
    if (!zeros) goto fail;
    if (n == 0) return return_kept(c, &p, zeros);
    /* the input position of each (window, offset) pair, window-major */
    tc_tensor *index = keep(&p, tc_empty_memory_format(TC_INTS(n), TC_INT64, -1, NULL, NULL, -1));
    if (!index) goto fail;
    int64_t *at = tc_tensor_data(index);
    for (int64_t w = 0; w < windows; w++)
        for (int64_t k = 0; k < size; k++) at[w * size + k] = w * step + k;
    if (grad->device.type != TC_DEVICE_CPU &&
        !(index = keep(&p, tc__to_copy(index, -1, -1, &grad->device, NULL, false, -1))))
        goto fail;
    /* [..., windows, ..., size] -> [..., windows, size, ...] -> [..., windows * size, ...] */
    tc_tensor *moved = keep(&p, tc_movedim_int(grad, -1, dim + 1));
    if (!moved) goto fail;
    int64_t shape[TC_MAX_DIMS];
    memcpy(shape, sizes.items, sizeof(int64_t) * (size_t)sizes.len);
    shape[dim] = n;
    tc_tensor *flat = keep(&p, tc_reshape(moved, (tc_int_list){shape, sizes.len}));
    if (!flat) goto fail;
    return return_kept(c, &p, keep(&p, tc_index_add(zeros, dim, index, flat, TC_SCALAR_OF_INT(1))));
fail:
    release_temps(&p);
    return TC_FAIL;
}

/* cat_tensors_backward(grad, sizes, dims, dim): grad split along dim into each input's part (sizes: each
 * input's size at dim). An input cat skipped (1-D of size 0, beside inputs of more dims) gets an empty
 * gradient of its own shape. */
int tc_impl_cat_tensors_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0);
    tc_int_list sizes = tc_arg_ints(c, 1), dims = tc_arg_ints(c, 2);
    if (sizes.len != dims.len) return tc_set_error(TC_ERR_RUNTIME, "cat_tensors_backward: inconsistent lists");
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 3), grad->ndim, &dim)) return TC_FAIL;
    tc_tensor **items = calloc((size_t)(sizes.len ? sizes.len : 1), sizeof(tc_tensor *));
    if (!items) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    int64_t start = 0;
    for (int64_t k = 0; k < sizes.len; k++) {
        if (dims.items[k] == 1 && grad->ndim != 1) {
            items[k] = tc_zeros(TC_INTS(0), grad->dtype, -1, &grad->device, NULL);
        } else {
            items[k] = tc_narrow(grad, dim, start, sizes.items[k]);
            start += sizes.items[k];
        }
        if (!items[k]) {
            tc_tensor_vec v = {items, k};
            tc_tensor_vec_release(&v);
            return TC_FAIL;
        }
    }
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR_LIST, .v.tensors = {items, sizes.len}};
    return TC_OK;
}

/* masked_scatter_backward(grad_output, mask, sizes): the gradient of masked_scatter's source: the
 * elements of grad where mask is true, in order, then zeros for the source elements not used. */
int tc_impl_masked_scatter_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *mask = tc_arg_tensor(c, 1);
    tc_int_list sizes = tc_arg_ints(c, 2);
    int64_t numel = 1;
    for (int64_t d = 0; d < sizes.len; d++) numel *= sizes.items[d];
    temps p = {.n = 0};
    tc_tensor *selected = keep(&p, tc_masked_select(grad, mask));
    if (!selected) goto fail;
    int64_t missing = numel - tc_tensor_numel(selected);
    if (missing > 0) {
        tc_tensor *zeros = keep(&p, tc_zeros(TC_INTS(missing), grad->dtype, -1, &grad->device, NULL));
        if (!zeros || !(selected = keep(&p, tc_cat((tc_tensor_list){(tc_tensor *[]){selected, zeros}, 2}, 0))))
            goto fail;
    }
    return return_kept(c, &p, keep(&p, tc_view_default(selected, sizes)));
fail:
    release_temps(&p);
    return TC_FAIL;
}

/* a == value and a == b, elementwise, on a and b without their history (comparisons have no
 * derivative: nothing of them is recorded, forward or backward). */
static tc_tensor *equals_value(tc_tensor *a, int64_t value) {
    tc_tensor *plain = tc_detach(a);
    tc_tensor *r = plain ? tc_eq_Scalar(plain, TC_SCALAR_OF_INT(value)) : NULL;
    tc_tensor_release(plain);
    return r;
}

static tc_tensor *equals(tc_tensor *a, tc_tensor *b) {
    tc_tensor *pa = tc_detach(a), *pb = pa ? tc_detach(b) : NULL;
    tc_tensor *r = pb ? tc_eq_Tensor(pa, pb) : NULL;
    tc_tensor_release(pa);
    tc_tensor_release(pb);
    return r;
}

/* scatter_reduce_backward_self / _src (grad, self, dim, index, src, reduce, include_self, result):
 * PyTorch's scatter_reduce_backward, one gradient at a time. `sum` and `mean` spread grad over what
 * was reduced; `prod` divides the product by each factor (a zero factor gets the product of the
 * others); `amax`/`amin` share grad evenly among the elements equal to the result. */
static int scatter_reduce_backward(tc_opcall *c, bool for_src) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *self = tc_arg_tensor(c, 1), *index = tc_arg_tensor(c, 3);
    tc_tensor *src = tc_arg_tensor(c, 4), *result = tc_arg_tensor(c, 7);
    int64_t dim = tc_arg_int(c, 2);
    const char *reduce = c->args[5].v.s;
    bool include_self = tc_arg_bool(c, 6);
    temps p = {.n = 0};
    tc_tensor *r = NULL;
#define K(expr)                                                                                                        \
    do {                                                                                                               \
        if (!keep(&p, (expr))) goto fail;                                                                              \
    } while (0)
#define LAST p.t[p.n - 1]
    if (!strcmp(reduce, "sum")) {
        if (for_src) {
            K(tc_gather(grad, dim, index, false));
            r = LAST;
        } else {
            r = grad;
        }
    } else if (!strcmp(reduce, "mean")) {
        tc_tensor *count, *zero;
        K(include_self ? tc_ones_like(grad, -1, -1, NULL, NULL, -1) : tc_zeros_like(grad, -1, -1, NULL, NULL, -1));
        count = LAST;
        K(tc_ones_like(src, -1, -1, NULL, NULL, -1));
        K(tc_scatter_add(count, dim, index, LAST));
        count = LAST;
        K(equals_value(count, 0));
        zero = LAST;
        K(tc_masked_fill_Scalar(count, zero, TC_SCALAR_OF_INT(1)));
        count = LAST;
        if (for_src) {
            tc_tensor *g;
            K(tc_gather(grad, dim, index, false));
            g = LAST;
            K(tc_gather(count, dim, index, false));
            K(tc_div_Tensor(g, LAST));
        } else {
            K(tc_div_Tensor(grad, count));
        }
        r = LAST;
    } else if (!strcmp(reduce, "prod")) {
        if (!for_src) {
            /* self's zeros replaced by 1 give the product of the others at those places */
            tc_tensor *masked_self, *product;
            K(equals_value(self, 0));
            K(tc_masked_fill_Scalar(self, LAST, TC_SCALAR_OF_INT(1)));
            masked_self = LAST;
            K(tc_scatter_reduce_two(masked_self, dim, index, src, "prod", include_self));
            product = LAST;
            K(tc_mul_Tensor(grad, product));
            K(tc_div_Tensor(LAST, masked_self));
        } else {
            /* a zero of src alone in its place gets the product of the others; more than one zero in a
             * place leaves each of them a zero gradient */
            tc_tensor *src_zero, *zeros_in_place, *single_zero, *masked_src, *others, *a, *b;
            K(equals_value(src, 0));
            src_zero = LAST;
            K(tc_to_dtype(src_zero, self->dtype, false, false, -1));
            tc_tensor *as_float = LAST;
            K(tc_zeros_like(self, -1, -1, NULL, NULL, -1));
            K(tc_scatter_add(LAST, dim, index, as_float));
            K(tc_gather(LAST, dim, index, false));
            zeros_in_place = LAST;
            K(equals_value(zeros_in_place, 1));
            K(tc_logical_and(src_zero, LAST));
            single_zero = LAST;
            K(tc_masked_fill_Scalar(src, single_zero, TC_SCALAR_OF_INT(1)));
            masked_src = LAST;
            K(tc_scatter_reduce_two(self, dim, index, masked_src, "prod", include_self));
            others = LAST;
            K(tc_mul_Tensor(grad, others));
            K(tc_gather(LAST, dim, index, false));
            a = LAST;
            K(tc_mul_Tensor(grad, result));
            K(tc_gather(LAST, dim, index, false));
            tc_tensor *g = LAST;
            K(tc_masked_fill_Scalar(src, src_zero, TC_SCALAR_OF_INT(1)));
            K(tc_div_Tensor(g, LAST));
            b = LAST;
            K(tc_where_self(single_zero, a, b));
        }
        r = LAST;
    } else if (!strcmp(reduce, "amax") || !strcmp(reduce, "amin")) {
        tc_tensor *value, *self_is, *src_is, *share;
        K(tc_gather(result, dim, index, false));
        value = LAST;
        K(equals(self, result));
        self_is = LAST;
        K(equals(src, value));
        src_is = LAST;
        K(tc_to_dtype(self_is, self->dtype, false, false, -1));
        tc_tensor *count = LAST;
        K(tc_to_dtype(src_is, self->dtype, false, false, -1));
        K(tc_scatter_add(count, dim, index, LAST));
        K(tc_div_Tensor(grad, LAST));
        share = LAST;
        if (for_src) {
            K(tc_gather(share, dim, index, false));
            K(tc_mul_Tensor(src_is, LAST));
        } else {
            K(tc_mul_Tensor(self_is, share));
        }
        r = LAST;
    } else {
        tc_set_error(TC_ERR_RUNTIME, "reduce argument must be either sum, prod, mean, amax or amin, got %s", reduce);
        goto fail;
    }
    if (!for_src && !include_self) { /* self's values where src was scattered did not take part */
        K(tc_scatter_value(r, dim, index, TC_SCALAR_OF_INT(0)));
        r = LAST;
    }
#undef K
#undef LAST
    return return_kept(c, &p, r);
fail:
    release_temps(&p);
    return TC_FAIL;
}

int tc_impl_scatter_reduce_backward_self(tc_opcall *c) { return scatter_reduce_backward(c, false); }
int tc_impl_scatter_reduce_backward_src(tc_opcall *c) { return scatter_reduce_backward(c, true); }
