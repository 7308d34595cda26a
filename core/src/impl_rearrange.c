/*
 * Rearranging, as views and composites: diagonal and unfold (views), narrow, unflatten, movedim,
 * swapaxes and broadcast_to (views through other ops); repeat, tile and repeat_interleave; the flips,
 * roll and rot90 over flip and cat; diag, diag_embed, diagflat and trace over diagonal.
 * PyTorch's checks and messages (TensorShape.cpp, TensorTransformations.cpp).
 */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- views ---------------------------------------------------------------------------------------- */

/* diagonal(self, offset, dim1, dim2): the two dims replaced by one last dim walking their diagonal. */
int tc_impl_diagonal(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int64_t offset = tc_arg_int(c, 1);
    int32_t d1, d2;
    if (tc_shape_wrap_dim(tc_arg_int(c, 2), t->ndim, &d1) || tc_shape_wrap_dim(tc_arg_int(c, 3), t->ndim, &d2))
        return TC_FAIL;
    if (d1 == d2)
        return tc_set_error(TC_ERR_RUNTIME, "diagonal dimensions cannot be identical %lld, %lld",
                            (long long)tc_arg_int(c, 2), (long long)tc_arg_int(c, 3));
    int64_t n1 = t->sizes[d1], n2 = t->sizes[d2], n; /* offsets past the end give 0, without overflowing */
    if (offset >= 0)
        n = offset >= n2 ? 0 : n2 - offset < n1 ? n2 - offset : n1;
    else
        n = offset <= -n1 ? 0 : n1 + offset < n2 ? n1 + offset : n2;
    int64_t start = t->offset;
    if (n > 0) start += offset >= 0 ? offset * t->strides[d2] : -offset * t->strides[d1];
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t k = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (d == d1 || d == d2) continue;
        sizes[k] = t->sizes[d];
        strides[k++] = t->strides[d];
    }
    sizes[k] = n;
    strides[k++] = t->strides[d1] + t->strides[d2];
    return tc_return_view(c, t, tc_tensor_restride(t, k, sizes, strides, start));
}

/* unfold(self, dimension, size, step): a new last dim of windows of `size`, `step` apart. */
int tc_impl_unfold(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int64_t size = tc_arg_int(c, 2), step = tc_arg_int(c, 3);
    int32_t d;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), t->ndim, &d) || tc_shape_check_ndim(t->ndim + 1)) return TC_FAIL;
    int64_t max_size = t->ndim ? t->sizes[d] : 1;
    if (size > max_size)
        return tc_set_error(TC_ERR_RUNTIME, "maximum size for tensor at dimension %d is %lld but size is %lld", d,
                            (long long)max_size, (long long)size);
    if (step <= 0) return tc_set_error(TC_ERR_RUNTIME, "step is %lld but must be > 0", (long long)step);
    if (size < 0) return tc_set_error(TC_ERR_RUNTIME, "size is %lld but must be >= 0", (long long)size);
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    sizes[t->ndim] = size;
    strides[t->ndim] = t->ndim ? t->strides[d] : 1;
    if (t->ndim) {
        sizes[d] = (sizes[d] - size) / step + 1;
        if (__builtin_mul_overflow(strides[d], step, &strides[d])) strides[d] = t->strides[d]; /* one window */
    }
    return tc_return_view(c, t, tc_tensor_restride(t, t->ndim + 1, sizes, strides, t->offset));
}

/* narrow(self, dim, start, length): slice [start, start + length); start may count from the end. */
int tc_impl_narrow(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int64_t start = tc_arg_int(c, 2), length = tc_arg_int(c, 3);
    int32_t dim;
    if (t->ndim == 0) return tc_set_error(TC_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), t->ndim, &dim)) return TC_FAIL;
    int64_t size = t->sizes[dim], range = size > 0 ? size : 1;
    if (start != size) { /* start at the end is valid, though not a valid index (PyTorch wraps it as a dim) */
        if (start < -range || start >= range)
            return tc_set_error(TC_ERR_INDEX,
                                "Dimension out of range (expected to be in range of [%lld, %lld], but "
                                "got %lld)",
                                (long long)-range, (long long)(range - 1), (long long)start);
        if (start < 0) start += range;
    }
    if (length < 0 || start > size - length)
        return tc_set_error(TC_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                            (long long)start, (long long)length, (long long)size);
    int64_t end = start + length;
    return tc_return(c, tc_slice_Tensor(t, dim, &start, &end, 1));
}

/* narrow.Tensor(self, dim, start, length): start as a 0-dim integer tensor. */
int tc_impl_narrow_Tensor(tc_opcall *c) {
    tc_tensor *start = tc_arg_tensor(c, 2);
    if (start->ndim != 0 || !tc_dtype_is_integral(start->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "start must be an 0-dim integral Tensor.");
    tc_scalar s;
    if (tc__local_scalar_dense(start, &s)) return TC_FAIL;
    return tc_return(c, tc_narrow(tc_arg_tensor(c, 0), tc_arg_int(c, 1), s.v.i, tc_arg_int(c, 3)));
}

/* narrow_copy(self, dim, start, length) */
int tc_impl_narrow_copy(tc_opcall *c) {
    tc_tensor *v = tc_narrow(tc_arg_tensor(c, 0), tc_arg_int(c, 1), tc_arg_int(c, 2), tc_arg_int(c, 3));
    tc_tensor *r = v ? tc_clone(v, TC_MEMORY_FORMAT_CONTIGUOUS) : NULL;
    tc_tensor_release(v);
    return tc_return(c, r);
}

/* unflatten.int(self, dim, sizes): dim split into sizes (one may be -1). */
int tc_impl_unflatten_int(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_int_list sizes = tc_arg_ints(c, 2);
    int32_t dim;
    if (t->ndim == 0)
        return tc_set_error(TC_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions",
                            (long long)tc_arg_int(c, 1));
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), t->ndim, &dim)) return TC_FAIL;
    if (sizes.len == 0) return tc_set_error(TC_ERR_RUNTIME, "unflatten: sizes must be non-empty");
    if (tc_shape_check_ndim(t->ndim - 1 + sizes.len)) return TC_FAIL;
    int64_t along = t->ndim ? t->sizes[dim] : 1, product = 1;
    bool infer = false;
    for (int64_t i = 0; i < sizes.len; i++) {
        if (sizes.items[i] == -1)
            infer = true;
        else if (__builtin_mul_overflow(product, sizes.items[i], &product))
            product = -1;
    }
    if (!infer && product != along) {
        char s[512];
        tc_shape_format((int32_t)sizes.len, sizes.items, s, sizeof s);
        return tc_set_error(TC_ERR_RUNTIME,
                            "unflatten: Provided sizes %s don't multiply up to the size of dim %d (%lld) "
                            "in the input tensor",
                            s, dim, (long long)along);
    }
    int64_t shape[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (d != dim) {
            shape[n++] = t->sizes[d];
            continue;
        }
        for (int64_t i = 0; i < sizes.len; i++) shape[n++] = sizes.items[i];
    }
    return tc_return(c, tc_view_default(t, (tc_int_list){shape, n}));
}

/* The permutation that moves dims src[i] to dst[i], the others keeping their order (PyTorch's movedim). */
static int moved(tc_opcall *c, tc_int_list src, tc_int_list dst) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (src.len != dst.len) {
        char s[512], d[512];
        tc_shape_format((int32_t)(src.len < TC_MAX_DIMS ? src.len : TC_MAX_DIMS), src.items, s, sizeof s);
        tc_shape_format((int32_t)(dst.len < TC_MAX_DIMS ? dst.len : TC_MAX_DIMS), dst.items, d, sizeof d);
        return tc_set_error(TC_ERR_RUNTIME,
                            "movedim: Invalid source or destination dims: source (%s dims) should "
                            "contain the same number of dims as destination (%s dims)",
                            s, d);
    }
    if (src.len > TC_MAX_DIMS) return tc_shape_check_ndim(src.len);
    int32_t s[TC_MAX_DIMS], d[TC_MAX_DIMS];
    bool seen_s[TC_MAX_DIMS] = {0}, seen_d[TC_MAX_DIMS] = {0};
    for (int64_t i = 0; i < src.len; i++)
        if (tc_shape_wrap_dim(src.items[i], t->ndim, &s[i])) return TC_FAIL;
    for (int64_t i = 0; i < dst.len; i++)
        if (tc_shape_wrap_dim(dst.items[i], t->ndim, &d[i])) return TC_FAIL;
    for (int32_t which = 0; which < 2; which++) {
        const int32_t *v = which ? d : s;
        bool *seen = which ? seen_d : seen_s;
        for (int64_t i = 0; i < src.len; i++) {
            if (seen[v[i]]) {
                char text[512];
                tc_int_list l = which ? dst : src;
                tc_shape_format((int32_t)l.len, l.items, text, sizeof text);
                return tc_set_error(TC_ERR_RUNTIME, "movedim: repeated dim in `%s` (%s)",
                                    which ? "destination" : "source", text);
            }
            seen[v[i]] = true;
        }
    }
    if (t->ndim == 0) return tc_return(c, tc_alias(t));
    int64_t order[TC_MAX_DIMS];
    for (int64_t i = 0; i < src.len; i++) order[d[i]] = s[i];
    for (int32_t next_src = 0, pos = 0; pos < t->ndim; pos++) { /* the rest, in order, into the free slots */
        if (seen_d[pos]) continue;
        while (seen_s[next_src]) next_src++;
        order[pos] = next_src++;
    }
    return tc_return(c, tc_permute(t, (tc_int_list){order, t->ndim}));
}

/* movedim.intlist / moveaxis.intlist (self, source, destination) */
int tc_impl_movedim_intlist(tc_opcall *c) { return moved(c, tc_arg_ints(c, 1), tc_arg_ints(c, 2)); }

/* movedim.int / moveaxis.int (self, source, destination) */
int tc_impl_movedim_int(tc_opcall *c) {
    return moved(c, (tc_int_list){&c->args[1].v.i, 1}, (tc_int_list){&c->args[2].v.i, 1});
}

/* swapaxes / swapdims (self, dim0, dim1): transpose. */
int tc_impl_swapaxes(tc_opcall *c) {
    return tc_return(c, tc_transpose_int(tc_arg_tensor(c, 0), tc_arg_int(c, 1), tc_arg_int(c, 2)));
}

/* swapaxes_ / swapdims_ (self, dim0, dim1): self's own sizes and strides swapped (PyTorch's transpose_). */
int tc_impl_swapaxes_(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int32_t a, b;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), t->ndim, &a) || tc_shape_wrap_dim(tc_arg_int(c, 2), t->ndim, &b))
        return TC_FAIL;
    if (t->ndim) {
        int64_t s = t->sizes[a], st = t->strides[a];
        t->sizes[a] = t->sizes[b];
        t->strides[a] = t->strides[b];
        t->sizes[b] = s;
        t->strides[b] = st;
    }
    tc_tensor_retain(t);
    return tc_return(c, t);
}

/* t_(self): a matrix's two dims swapped in place (a vector or 0-dim tensor unchanged). */
int tc_impl_t_(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (t->ndim > 2)
        return tc_set_error(TC_ERR_RUNTIME, "t_() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
    if (t->ndim == 2) {
        const int64_t sizes[2] = {t->sizes[1], t->sizes[0]}, strides[2] = {t->strides[1], t->strides[0]};
        if (tc_tensor_set_geometry(t, 2, sizes, strides)) return TC_FAIL;
    }
    tc_tensor_retain(t);
    return tc_return(c, t);
}

/* Gives self the geometry of `view` (a view of it), for the in-place forms of view ops. */
static int take_geometry(tc_opcall *c, tc_tensor *t, tc_tensor *view) {
    if (!view) return TC_FAIL;
    const int rc = tc_tensor_set_geometry(t, view->ndim, view->sizes, view->strides);
    tc_tensor_release(view);
    if (rc) return TC_FAIL;
    tc_tensor_retain(t);
    return tc_return(c, t);
}

/* squeeze_(self), squeeze_.dim(self, dim), unsqueeze_(self, dim): the view ops' geometry, in place. */
int tc_impl_squeeze_(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    return take_geometry(c, t, tc_squeeze(t));
}

int tc_impl_squeeze__dim(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    return take_geometry(c, t, tc_squeeze_dim(t, tc_arg_int(c, 1)));
}

int tc_impl_unsqueeze_(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    return take_geometry(c, t, tc_unsqueeze(t, tc_arg_int(c, 1)));
}

/* broadcast_to(self, size): expand. */
int tc_impl_broadcast_to(tc_opcall *c) {
    return tc_return(c, tc_expand(tc_arg_tensor(c, 0), tc_arg_ints(c, 1), false));
}

/* ---- repeating ------------------------------------------------------------------------------------ */

/* Returns `result` after copying src into `view` (a view of it), releasing src and view; on failure
 * releases result too. */
static int return_filled(tc_opcall *c, tc_tensor *result, tc_tensor *view, tc_tensor *src) {
    tc_tensor *done = view && src ? tc_copy_(view, src, false) : NULL;
    tc_tensor_release(done);
    tc_tensor_release(src);
    tc_tensor_release(view);
    if (!done) {
        tc_tensor_release(result);
        return TC_FAIL;
    }
    return tc_return(c, result);
}

/* repeat(self, repeats): a result of size size*repeats per dim, seen as windows (unfold) that each
 * get self through one broadcasting copy. */
int tc_impl_repeat(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list reps = tc_arg_ints(c, 1);
    if (reps.len < self->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "Number of dimensions of repeat dims can not be smaller than number of "
                                            "dimensions of tensor");
    if (tc_shape_check_ndim(reps.len)) return TC_FAIL;
    int32_t n = (int32_t)reps.len, lead = n - self->ndim;
    int64_t padded[TC_MAX_DIMS], target[TC_MAX_DIMS];
    bool zero = false;
    for (int32_t i = 0; i < n; i++) {
        padded[i] = i < lead ? 1 : self->sizes[i - lead];
        if (reps.items[i] == 0) zero = true;
        if (__builtin_mul_overflow(padded[i], reps.items[i], &target[i]))
            return tc_set_error(TC_ERR_RUNTIME, "repeat: the result is too large");
    }
    tc_tensor *result = tc_empty_memory_format((tc_int_list){target, n}, self->dtype, -1, &self->device, NULL, -1);
    if (!result || zero) return tc_return(c, result);
    tc_tensor *windows = tc_alias(result), *x = windows ? tc_expand(self, (tc_int_list){padded, n}, false) : NULL;
    for (int32_t i = 0; x && windows && i < n; i++) {
        tc_tensor *next = tc_unfold(windows, i, padded[i], padded[i] > 1 ? padded[i] : 1);
        tc_tensor_release(windows);
        windows = next;
    }
    tc_tensor *src = windows ? tc_expand_as(x, windows) : NULL;
    tc_tensor_release(x);
    return return_filled(c, result, windows, src);
}

/* tile(self, dims): repeat, with dims padded by leading ones to self's rank. */
int tc_impl_tile(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list reps = tc_arg_ints(c, 1);
    if (reps.len >= self->ndim) return tc_return(c, tc_repeat(self, reps));
    int64_t padded[TC_MAX_DIMS];
    int32_t lead = self->ndim - (int32_t)reps.len;
    for (int32_t i = 0; i < self->ndim; i++) padded[i] = i < lead ? 1 : reps.items[i - lead];
    return tc_return(c, tc_repeat(self, (tc_int_list){padded, self->ndim}));
}

/* repeat_interleave.Tensor(repeats, *, output_size): i repeated repeats[i] times, computed on the
 * host (the result's size is the data's sum), in repeats' dtype and on its device. */
int tc_impl_repeat_interleave_Tensor(tc_opcall *c) {
    tc_tensor *repeats = tc_arg_tensor(c, 0);
    if (repeats->ndim != 1) return tc_set_error(TC_ERR_RUNTIME, "repeat_interleave only accept 1D vector as repeat");
    if (repeats->dtype != TC_INT64 && repeats->dtype != TC_INT32)
        return tc_set_error(TC_ERR_RUNTIME, "repeats has to be Long or Int tensor");
    tc_device cpu = {TC_DEVICE_CPU, 0};
    tc_tensor *host = tc__to_copy(repeats, TC_INT64, -1, &cpu, NULL, false, TC_MEMORY_FORMAT_CONTIGUOUS);
    if (!host) return TC_FAIL;
    const int64_t *r = tc_tensor_data(host);
    int64_t n = repeats->sizes[0], total = 0;
    int rc = TC_OK;
    for (int64_t i = 0; i < n && rc == TC_OK; i++) {
        if (r[i] < 0)
            rc = tc_set_error(TC_ERR_RUNTIME, "repeats can not be negative");
        else if (__builtin_add_overflow(total, r[i], &total))
            rc = tc_set_error(TC_ERR_RUNTIME, "repeats sum overflows");
    }
    if (rc == TC_OK && !tc_arg_none(c, 1) && tc_arg_int(c, 1) != total)
        rc = tc_set_error(TC_ERR_RUNTIME, "allocated size does not match required size");
    tc_tensor *out = rc ? NULL : tc_empty(1, &total, TC_INT64, cpu);
    if (out) {
        int64_t *o = tc_tensor_data(out);
        for (int64_t i = 0, at = 0; i < n; i++)
            for (int64_t j = 0; j < r[i]; j++) o[at++] = i;
    }
    tc_tensor_release(host);
    if (!out) return TC_FAIL;
    tc_tensor *moved = tc__to_copy(out, repeats->dtype, -1, &repeats->device, NULL, false, -1);
    tc_tensor_release(out);
    return tc_return(c, moved);
}

/* repeat_interleave.self_Tensor(self, repeats, dim, *, output_size): index_select with the indices
 * the repeats make; without a dim, of self flattened. */
int tc_impl_repeat_interleave_self_Tensor(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0), *repeats = tc_arg_tensor(c, 1);
    tc_tensor *input = tc_arg_none(c, 2) ? tc_flatten_using_ints(self, 0, -1) : (tc_tensor_retain(self), self);
    int32_t dim;
    if (!input || tc_shape_wrap_dim(tc_arg_none(c, 2) ? 0 : tc_arg_int(c, 2), input->ndim, &dim)) {
        tc_tensor_release(input);
        return TC_FAIL;
    }
    int64_t along = input->ndim ? input->sizes[dim] : 1;
    tc_tensor *reps = NULL;
    if (repeats->ndim == 0 || (repeats->ndim == 1 && repeats->sizes[0] == 1)) {
        tc_tensor *one = tc_reshape(repeats, TC_INTS(1));
        reps = one ? tc_expand(one, (tc_int_list){&along, 1}, false) : NULL;
        tc_tensor_release(one);
    } else if (repeats->ndim == 1) {
        if (repeats->sizes[0] != along)
            tc_set_error(TC_ERR_RUNTIME, "repeats must have the same size as input along dim");
        else
            reps = tc_alias(repeats);
    } else {
        tc_set_error(TC_ERR_RUNTIME, "repeats must be 0-dim or 1-dim tensor");
    }
    const int64_t *size = tc_arg_none(c, 3) ? NULL : &c->args[3].v.i;
    tc_tensor *idx = reps ? tc_repeat_interleave_Tensor(reps, size) : NULL;
    tc_tensor *r = idx ? tc_index_select(input, dim, idx) : NULL;
    tc_tensor_release(idx);
    tc_tensor_release(reps);
    tc_tensor_release(input);
    return tc_return(c, r);
}

/* repeat_interleave.self_int(self, repeats, dim, *, output_size) */
int tc_impl_repeat_interleave_self_int(tc_opcall *c) {
    tc_tensor *reps = tc_scalar_tensor(TC_SCALAR_OF_INT(tc_arg_int(c, 1)), TC_INT64);
    if (!reps) return TC_FAIL;
    tc_tensor *moved = tc__to_copy(reps, -1, -1, &tc_arg_tensor(c, 0)->device, NULL, false, -1);
    tc_tensor_release(reps);
    const int64_t *dim = tc_arg_none(c, 2) ? NULL : &c->args[2].v.i, *size = tc_arg_none(c, 3) ? NULL : &c->args[3].v.i;
    tc_tensor *r = moved ? tc_repeat_interleave_self_Tensor(tc_arg_tensor(c, 0), moved, dim, size) : NULL;
    tc_tensor_release(moved);
    return tc_return(c, r);
}

/* ---- flips and rotations -------------------------------------------------------------------------- */

/* fliplr(self): flip dim 1. */
int tc_impl_fliplr(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (t->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "Input must be >= 2-d.");
    return tc_return(c, tc_flip(t, TC_INTS(1)));
}

/* flipud(self): flip dim 0. */
int tc_impl_flipud(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (t->ndim < 1) return tc_set_error(TC_ERR_RUNTIME, "Input must be >= 1-d.");
    return tc_return(c, tc_flip(t, TC_INTS(0)));
}

/* self rolled by shift along one dim: the two pieces, swapped, by cat. */
static tc_tensor *roll_one(tc_tensor *t, int64_t shift, int64_t dim_arg) {
    int32_t dim;
    if (tc_shape_wrap_dim(dim_arg, t->ndim, &dim)) return NULL;
    if (t->ndim == 0)
        return tc_set_error(TC_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions",
                            (long long)dim_arg),
               NULL;
    if (tc_tensor_numel(t) == 0) return tc_clone(t, -1);
    int64_t size = t->sizes[dim], start = (size - shift % size) % size;
    if (start < 0) start += size;
    tc_tensor *a = tc_narrow(t, dim, start, size - start), *b = a ? tc_narrow(t, dim, 0, start) : NULL;
    tc_tensor *parts[2] = {a, b};
    tc_tensor *r = b ? tc_cat((tc_tensor_list){parts, 2}, dim) : NULL;
    tc_tensor_release(a);
    tc_tensor_release(b);
    return r;
}

/* roll(self, shifts, dims): each dim rolled in turn; without dims, the flattened tensor. */
int tc_impl_roll(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_int_list shifts = tc_arg_ints(c, 1), dims = tc_arg_ints(c, 2);
    if (shifts.len == 0) return tc_set_error(TC_ERR_RUNTIME, "`shifts` required");
    if (dims.len == 0 && shifts.len == 1) {
        int64_t n = tc_tensor_numel(t);
        tc_tensor *contig = tc_contiguous(t, TC_MEMORY_FORMAT_CONTIGUOUS);
        tc_tensor *flat = contig ? tc_view_default(contig, (tc_int_list){&n, 1}) : NULL;
        tc_tensor *rolled = flat ? roll_one(flat, shifts.items[0], 0) : NULL;
        tc_tensor *r = rolled ? tc_view_default(rolled, (tc_int_list){t->sizes, t->ndim}) : NULL;
        tc_tensor_release(contig);
        tc_tensor_release(flat);
        tc_tensor_release(rolled);
        return tc_return(c, r);
    }
    if (shifts.len != dims.len)
        return tc_set_error(TC_ERR_RUNTIME, "shifts and dimensions must align. shifts: %lld, dims:%lld",
                            (long long)shifts.len, (long long)dims.len);
    tc_tensor *cur = tc_alias(t);
    for (int64_t i = 0; cur && i < dims.len; i++) {
        tc_tensor *next = roll_one(cur, shifts.items[i], dims.items[i]);
        tc_tensor_release(cur);
        cur = next;
    }
    return tc_return(c, cur);
}

/* rot90(self, k, dims): k quarter turns from dims[0] towards dims[1], as flips and a transpose. */
int tc_impl_rot90(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_int_list dims = tc_arg_ints(c, 2);
    int64_t k = tc_arg_int(c, 1), n = t->ndim;
    if (dims.len != 2)
        return tc_set_error(TC_ERR_RUNTIME, "expected total rotation dims == 2, but got dims = %lld",
                            (long long)dims.len);
    if (n < 2) return tc_set_error(TC_ERR_RUNTIME, "expected total dims >= 2, but got total dims = %lld", (long long)n);
    int64_t d0 = dims.items[0], d1 = dims.items[1];
    if (d0 == d1 || d0 - d1 == n || d1 - d0 == n)
        return tc_set_error(TC_ERR_RUNTIME,
                            "expected rotation dims to be different, but got dim0 = %lld and dim1 = %lld",
                            (long long)d0, (long long)d1);
    if (d0 >= n || d0 < -n)
        return tc_set_error(TC_ERR_RUNTIME, "Rotation dim0 out of range, dim0 = %lld", (long long)d0);
    if (d1 >= n || d1 < -n)
        return tc_set_error(TC_ERR_RUNTIME, "Rotation dim1 out of range, dim1 = %lld", (long long)d1);
    k = (4 + k % 4) % 4;
    if (k == 0) return tc_return(c, tc_clone(t, TC_MEMORY_FORMAT_CONTIGUOUS));
    if (k == 2) return tc_return(c, tc_flip(t, dims));
    tc_tensor *f = tc_flip(t, (tc_int_list){k == 1 ? &dims.items[1] : &dims.items[0], 1});
    tc_tensor *r = f ? tc_transpose_int(f, d0, d1) : NULL;
    tc_tensor_release(f);
    return tc_return(c, r);
}

/* ---- diagonals ------------------------------------------------------------------------------------ */

/* diag_embed(self, offset, dim1, dim2): zeros with self's last dim written on the diagonal of dim1
 * and dim2. */
int tc_impl_diag_embed(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int64_t offset = tc_arg_int(c, 1);
    int32_t d1, d2, last;
    if (tc_shape_wrap_dim(tc_arg_int(c, 2), t->ndim + 1, &d1) || tc_shape_wrap_dim(tc_arg_int(c, 3), t->ndim + 1, &d2))
        return TC_FAIL;
    if (d1 == d2)
        return tc_set_error(TC_ERR_RUNTIME, "diagonal dimensions cannot be identical %lld, %lld",
                            (long long)tc_arg_int(c, 2), (long long)tc_arg_int(c, 3));
    if (tc_shape_wrap_dim(-1, t->ndim, &last) || tc_shape_check_ndim(t->ndim + 1)) return TC_FAIL;
    int64_t along = t->ndim ? t->sizes[last] : 1, sizes[TC_MAX_DIMS];
    if (offset < -(INT64_MAX - along) || offset > INT64_MAX - along)
        return tc_set_error(TC_ERR_RUNTIME, "diag_embed: offset %lld is too large", (long long)offset);
    int64_t len = (offset < 0 ? -offset : offset) + along;
    int32_t lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;
    for (int32_t d = 0, s = 0; d <= t->ndim; d++) sizes[d] = d == lo || d == hi ? len : t->sizes[s++];
    tc_tensor *r = tc_zeros((tc_int_list){sizes, t->ndim + 1}, t->dtype, -1, &t->device, NULL);
    if (!r) return TC_FAIL;
    tc_tensor_retain(t);
    return return_filled(c, r, tc_diagonal(r, offset, d1, d2), t);
}

/* The *_scatter ops (slice, select, diagonal): a copy of self with src written into that view of it,
 * src of the view's exact size (cast to self's dtype). `view` is NULL with the error set. */
static int scatter_into(tc_opcall *c, tc_tensor *result, tc_tensor *view) {
    tc_tensor *src = tc_arg_tensor(c, 1);
    if (view && (view->ndim != src->ndim || memcmp(view->sizes, src->sizes, sizeof(int64_t) * (size_t)src->ndim))) {
        char have[256], want[256];
        tc_shape_format(src->ndim, src->sizes, have, sizeof have);
        tc_shape_format(view->ndim, view->sizes, want, sizeof want);
        tc_tensor_release(view);
        view = NULL;
        tc_set_error(TC_ERR_RUNTIME, "expected src to have a size equal to the slice of self. src size = %s, slice "
                                     "size = %s", have, want);
    }
    if (!view) {
        tc_tensor_release(result);
        return TC_FAIL;
    }
    tc_tensor_retain(src);
    return return_filled(c, result, view, src);
}

/* slice_scatter(self, src, dim, start, end, step) */
int tc_impl_slice_scatter(tc_opcall *c) {
    tc_tensor *r = tc_clone(tc_arg_tensor(c, 0), -1);
    int64_t start = tc_arg_none(c, 3) ? 0 : tc_arg_int(c, 3), end = tc_arg_none(c, 4) ? 0 : tc_arg_int(c, 4);
    return scatter_into(c, r, r ? tc_slice_Tensor(r, tc_arg_int(c, 2), tc_arg_none(c, 3) ? NULL : &start,
                                                  tc_arg_none(c, 4) ? NULL : &end, tc_arg_int(c, 5)) : NULL);
}

/* select_scatter(self, src, dim, index) */
int tc_impl_select_scatter(tc_opcall *c) {
    tc_tensor *r = tc_clone(tc_arg_tensor(c, 0), -1);
    return scatter_into(c, r, r ? tc_select_int(r, tc_arg_int(c, 2), tc_arg_int(c, 3)) : NULL);
}

/* diagonal_scatter(self, src, offset, dim1, dim2) */
int tc_impl_diagonal_scatter(tc_opcall *c) {
    tc_tensor *r = tc_clone(tc_arg_tensor(c, 0), -1);
    return scatter_into(c, r, r ? tc_diagonal(r, tc_arg_int(c, 2), tc_arg_int(c, 3), tc_arg_int(c, 4)) : NULL);
}

/* diag(self, diagonal): a vector to a matrix with it on a diagonal, a matrix to a copy of one. */
int tc_impl_diag(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int64_t offset = tc_arg_int(c, 1);
    if (t->dtype == TC_FLOAT16) return tc_set_error(TC_ERR_RUNTIME, "\"diag\" not implemented for 'Half'");
    if (t->ndim == 1) return tc_return(c, tc_diag_embed(t, offset, 0, 1));
    if (t->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "matrix or a vector expected");
    int64_t n = offset >= 0 ? t->sizes[1] - offset : t->sizes[0] + offset;
    if (n < 0)
        return tc_set_error(TC_ERR_RUNTIME, "diag: the diagonal %lld lies outside the matrix", (long long)offset);
    tc_tensor *d = tc_diagonal(t, offset, 0, 1);
    tc_tensor *r = d ? tc_clone(d, TC_MEMORY_FORMAT_CONTIGUOUS) : NULL;
    tc_tensor_release(d);
    return tc_return(c, r);
}

/* diagflat(self, offset): self flattened, on a diagonal. */
int tc_impl_diagflat(tc_opcall *c) {
    tc_tensor *flat = tc_reshape(tc_arg_tensor(c, 0), TC_INTS(-1));
    tc_tensor *r = flat ? tc_diag(flat, tc_arg_int(c, 1)) : NULL;
    tc_tensor_release(flat);
    return tc_return(c, r);
}

/* trace(self): the sum of a matrix's diagonal, integers summed as int64. */
int tc_impl_trace(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (t->dtype == TC_BOOL || t->dtype == TC_FLOAT16 || t->dtype == TC_BFLOAT16)
        return tc_set_error(TC_ERR_RUNTIME, "\"trace\" not implemented for '%s'", tc_dtype_scalar_name(t->dtype));
    if (t->ndim != 2)
        return tc_set_error(TC_ERR_RUNTIME, "trace: expected a matrix, but got tensor with dim %d", t->ndim);
    tc_tensor *d = tc_diagonal(t, 0, 0, 1);
    tc_tensor *r = d ? tc_sum(d, tc_dtype_is_floating(t->dtype) || tc_dtype_is_complex(t->dtype) ? t->dtype : TC_INT64)
                     : NULL;
    tc_tensor_release(d);
    return tc_return(c, r);
}
