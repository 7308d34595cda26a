/*
 * Views: new sizes, strides and offset over the same storage; no kernel runs, so they work on every
 * strided backend (the meta device included). reshape, flatten and the *_as forms are composites:
 * a view when the memory allows one, else a copy made through other ops.
 */
#include "core_internal.h"

#include <string.h>

/* A view remembers the tensor it views (the root of a chain of views): autograd rebases that
 * tensor's history when the view is written in place, and Tensor._base reads it. */
int tc_return_view(tc_opcall *c, tc_tensor *t, tc_tensor *v) {
    if (!v) return TC_FAIL;
    v->base = t->base ? t->base : t;
    tc_tensor_retain(v->base);
    return tc_return(c, v);
}

static int view_result(tc_opcall *c, tc_tensor *t, int32_t ndim, const int64_t *sizes, const int64_t *strides,
                       int64_t offset) {
    return tc_return_view(c, t, tc_tensor_restride(t, ndim, sizes, strides, offset));
}

/* as_strided(self, size, stride, storage_offset): any geometry inside the storage. */
int tc_impl_as_strided(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_int_list size = tc_arg_ints(c, 1), stride = tc_arg_ints(c, 2);
    int64_t offset = tc_arg_none(c, 3) ? t->offset : tc_arg_int(c, 3);
    if (size.len != stride.len)
        return tc_set_error(TC_ERR_RUNTIME, "mismatch in length of strides and shape");
    if (tc_shape_check_ndim(size.len)) return TC_FAIL;
    if (offset < 0) return tc_set_error(TC_ERR_RUNTIME, "Tensor: invalid storage offset %lld", (long long)offset);
    /* The furthest element must lie inside the storage. */
    int64_t last = offset;
    for (int64_t i = 0; i < size.len; i++) {
        if (size.items[i] < 0 || stride.items[i] < 0)
            return tc_set_error(TC_ERR_RUNTIME, "as_strided: Negative strides or sizes are not supported");
        if (size.items[i] == 0) {
            last = -1;
            break;
        }
        int64_t span;
        if (__builtin_mul_overflow(size.items[i] - 1, stride.items[i], &span) || __builtin_add_overflow(last, span, &last))
            return tc_set_error(TC_ERR_RUNTIME, "as_strided: size and stride overflow");
    }
    int64_t capacity = (int64_t)(tc_storage_nbytes(t->storage) / tc_dtype_size(t->dtype));
    if (last >= capacity)
        return tc_set_error(TC_ERR_RUNTIME, "setStorage: sizes and strides reach element %lld but the storage holds "
                                            "%lld", (long long)last, (long long)capacity);
    return view_result(c, t, (int32_t)size.len, size.items, stride.items, offset);
}

/* select.int(self, dim, index) */
int tc_impl_select_int(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (t->ndim == 0)
        return tc_set_error(TC_ERR_INDEX, "select() cannot be applied to a 0-dim tensor.");
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), t->ndim, &dim)) return TC_FAIL;
    int64_t index = tc_arg_int(c, 2), size = t->sizes[dim];
    if (index < -size || index >= size) {
        char shape[256];
        tc_shape_format(t->ndim, t->sizes, shape, sizeof shape);
        return tc_set_error(TC_ERR_INDEX, "select(): index %lld out of range for tensor of size %s at dimension %d",
                            (long long)index, shape, dim);
    }
    if (index < 0) index += size;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (d == dim) continue;
        sizes[n] = t->sizes[d];
        strides[n++] = t->strides[d];
    }
    return view_result(c, t, n, sizes, strides, t->offset + index * t->strides[dim]);
}

/* slice.Tensor(self, dim, start, end, step): Python's slice rules, positive steps only. */
int tc_impl_slice_Tensor(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (t->ndim == 0) return tc_set_error(TC_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), t->ndim, &dim)) return TC_FAIL;
    int64_t step = tc_arg_int(c, 4), size = t->sizes[dim];
    if (step <= 0) return tc_set_error(TC_ERR_VALUE, "step must be greater than zero");
    int64_t start = tc_arg_none(c, 2) ? 0 : tc_arg_int(c, 2);
    int64_t stop = tc_arg_none(c, 3) ? size : tc_arg_int(c, 3);
    if (start < 0) start = start < -size ? 0 : start + size;
    if (stop < 0) stop = stop < -size ? 0 : stop + size;
    start = start > size ? size : start;
    stop = stop < start ? start : stop > size ? size : stop;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    sizes[dim] = stop > start ? (stop - start - 1) / step + 1 : 0; /* no `+ step - 1`: step may be huge */
    /* a step so large that the stride overflows leaves at most one element: its stride is moot */
    if (__builtin_mul_overflow(t->strides[dim], step, &strides[dim])) strides[dim] = t->strides[dim];
    return view_result(c, t, t->ndim, sizes, strides, t->offset + start * t->strides[dim]);
}

/* unsqueeze(self, dim) */
int tc_impl_unsqueeze(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), t->ndim + 1, &dim)) return TC_FAIL;
    if (tc_shape_check_ndim(t->ndim + 1)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    for (int32_t d = 0, s = 0; d <= t->ndim; d++) {
        if (d == dim) {
            sizes[d] = 1;
            strides[d] = d < t->ndim ? t->sizes[d] * t->strides[d] : 1;
        } else {
            sizes[d] = t->sizes[s];
            strides[d] = t->strides[s++];
        }
    }
    return view_result(c, t, t->ndim + 1, sizes, strides, t->offset);
}

/* Resolves one -1 in a requested shape and checks the element count. */
static int infer_size(const tc_tensor *t, tc_int_list req, int64_t *out) {
    int64_t numel = tc_tensor_numel(t), known = 1;
    int64_t infer = -1;
    if (tc_shape_check_ndim(req.len)) return TC_FAIL;
    for (int64_t i = 0; i < req.len; i++) {
        if (req.items[i] == -1) {
            if (infer >= 0) return tc_set_error(TC_ERR_RUNTIME, "only one dimension can be inferred");
            infer = i;
        } else if (req.items[i] < 0) {
            return tc_set_error(TC_ERR_RUNTIME, "invalid shape dimension %lld", (long long)req.items[i]);
        } else if (__builtin_mul_overflow(known, req.items[i], &known)) {
            return tc_set_error(TC_ERR_RUNTIME, "shape is too large");
        }
        out[i] = req.items[i];
    }
    if (infer >= 0) {
        if (known != 0 && numel % known == 0) {
            out[infer] = numel / known;
            return TC_OK;
        }
    } else if (known == numel) {
        return TC_OK;
    }
    char shape[512];
    tc_shape_format((int32_t)req.len, req.items, shape, sizeof shape);
    return tc_set_error(TC_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld", shape, (long long)numel);
}

/* Strides for viewing t with new sizes without copying, or false when the memory layout does not
 * allow it (PyTorch's computeStride: each run of merged old dims must be contiguous). */
static bool view_strides(const tc_tensor *t, int32_t ndim, const int64_t *sizes, int64_t *strides) {
    if (tc_tensor_numel(t) == 0 || t->ndim == 0) {
        tc_shape_contiguous_strides(ndim, sizes, strides);
        return true;
    }
    int32_t view_d = ndim - 1;
    int64_t chunk_base_stride = t->strides[t->ndim - 1], tensor_numel = 1, view_numel = 1;
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
        tensor_numel *= t->sizes[d];
        if (d == 0 || (t->sizes[d - 1] != 1 && t->strides[d - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
                strides[view_d] = view_numel * chunk_base_stride;
                view_numel *= sizes[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) return false;
            if (d > 0) {
                chunk_base_stride = t->strides[d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

/* view(self, size) */
int tc_impl_view(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_int_list req = tc_arg_ints(c, 1);
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    if (infer_size(t, req, sizes)) return TC_FAIL;
    if (!view_strides(t, (int32_t)req.len, sizes, strides))
        return tc_set_error(TC_ERR_RUNTIME, "view size is not compatible with input tensor's size and stride (at "
                                            "least one dimension spans across two contiguous subspaces). Use "
                                            ".reshape(...) instead.");
    return view_result(c, t, (int32_t)req.len, sizes, strides, t->offset);
}

/* view.dtype(self, dtype): the same bytes read as another dtype, with PyTorch's rules and messages: an
 * element size as large changes nothing else; a smaller one splits the last dim (stride 1) into
 * more elements; a larger one joins them, the last size, the offset and the other strides divisible. */
int tc_impl_view_dtype(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    const int32_t dtype = tc_arg_enum(c, 1);
    if (dtype < 0 || dtype >= TC_NUM_DTYPES) return tc_set_error(TC_ERR_TYPE, "invalid dtype %d", dtype);
    if (dtype != t->dtype && (t->flags & TC_TENSOR_CONJ))
        return tc_set_error(TC_ERR_RUNTIME, "torch.Tensor.view is not supported for conjugate view tensors when "
                                            "converting to a different dtype.");
    if (dtype != t->dtype && (t->flags & TC_TENSOR_NEG))
        return tc_set_error(TC_ERR_RUNTIME, "torch.Tensor.view is not supported for tensors with negative bit set "
                                            "when converting to a different dtype.");
    const int64_t have = (int64_t)tc_dtype_size(t->dtype), want = (int64_t)tc_dtype_size(dtype);
    const char *from = tc_dtype_scalar_name(t->dtype), *to = tc_dtype_scalar_name(dtype);
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS], offset = t->offset;
    const int32_t last = t->ndim - 1;
    for (int32_t d = 0; d < t->ndim; d++) sizes[d] = t->sizes[d], strides[d] = t->strides[d];
    if (have != want) {
        if (t->ndim == 0)
            return tc_set_error(TC_ERR_RUNTIME, "self.dim() cannot be 0 to view %s as %s (different element sizes)",
                                from, to);
        if (t->strides[last] != 1)
            return tc_set_error(TC_ERR_RUNTIME, "self.stride(-1) must be 1 to view %s as %s (different element "
                                                "sizes), but got %lld", from, to, (long long)t->strides[last]);
        if (have > want) { /* each element becomes `ratio` */
            const int64_t ratio = have / want;
            for (int32_t d = 0; d < last; d++)
                if (__builtin_mul_overflow(strides[d], ratio, &strides[d]))
                    return tc_set_error(TC_ERR_RUNTIME, "view: stride overflow");
            if (__builtin_mul_overflow(sizes[last], ratio, &sizes[last]) ||
                __builtin_mul_overflow(offset, ratio, &offset))
                return tc_set_error(TC_ERR_RUNTIME, "view: size overflow");
        } else { /* `ratio` elements become one */
            const int64_t ratio = want / have;
            if (sizes[last] % ratio != 0)
                return tc_set_error(TC_ERR_RUNTIME, "self.size(-1) must be divisible by %lld to view %s as %s "
                                                    "(different element sizes), but got %lld",
                                    (long long)ratio, from, to, (long long)sizes[last]);
            if (offset % ratio != 0)
                return tc_set_error(TC_ERR_RUNTIME, "self.storage_offset() must be divisible by %lld to view %s as "
                                                    "%s (different element sizes), but got %lld",
                                    (long long)ratio, from, to, (long long)offset);
            for (int32_t d = 0; d < last; d++) {
                if (strides[d] % ratio != 0)
                    return tc_set_error(TC_ERR_RUNTIME, "self.stride(%d) must be divisible by %lld to view %s as %s "
                                                        "(different element sizes), but got %lld",
                                        d, (long long)ratio, from, to, (long long)strides[d]);
                strides[d] /= ratio;
            }
            sizes[last] /= ratio;
            offset /= ratio;
        }
    }
    tc_tensor *v = tc_tensor_restride(t, t->ndim, sizes, strides, offset);
    if (!v) return TC_FAIL;
    v->dtype = dtype; /* sharing t's memory and version counter; not differentiable, so no base to track */
    return tc_return(c, v);
}

/* reshape(self, shape): a view when the memory allows, else a contiguous copy viewed. */
int tc_impl_reshape(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_int_list req = tc_arg_ints(c, 1);
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    if (infer_size(t, req, sizes)) return TC_FAIL;
    if (view_strides(t, (int32_t)req.len, sizes, strides)) return tc_return(c, tc_view_default(t, req));
    tc_tensor *copy = tc_clone(t, TC_MEMORY_FORMAT_CONTIGUOUS);
    if (!copy) return TC_FAIL;
    tc_tensor *v = tc_view_default(copy, req);
    tc_tensor_release(copy);
    return tc_return(c, v);
}

static int permuted(tc_opcall *c, tc_tensor *t, const int64_t *dims, int64_t n) {
    if (n != t->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "permute(): number of dimensions in the tensor input does not "
                                            "match the length of the desired ordering of dimensions i.e. "
                                            "input.dim() = %d is not equal to len(dims) = %lld", t->ndim,
                            (long long)n);
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    bool seen[TC_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++) {
        int32_t d;
        if (tc_shape_wrap_dim(dims[i], t->ndim, &d)) return TC_FAIL;
        if (seen[d]) return tc_set_error(TC_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
        seen[d] = true;
        sizes[i] = t->sizes[d];
        strides[i] = t->strides[d];
    }
    return view_result(c, t, t->ndim, sizes, strides, t->offset);
}

/* permute(self, dims) */
int tc_impl_permute(tc_opcall *c) {
    tc_int_list dims = tc_arg_ints(c, 1);
    return permuted(c, tc_arg_tensor(c, 0), dims.items, dims.len);
}

static int transposed(tc_opcall *c, tc_tensor *t, int64_t d0, int64_t d1) {
    int32_t a, b;
    if (tc_shape_wrap_dim(d0, t->ndim, &a) || tc_shape_wrap_dim(d1, t->ndim, &b)) return TC_FAIL;
    if (t->ndim == 0) return view_result(c, t, 0, NULL, NULL, t->offset);
    int64_t order[TC_MAX_DIMS];
    for (int32_t i = 0; i < t->ndim; i++) order[i] = i;
    order[a] = b;
    order[b] = a;
    return permuted(c, t, order, t->ndim);
}

/* transpose.int(self, dim0, dim1) */
int tc_impl_transpose_int(tc_opcall *c) {
    return transposed(c, tc_arg_tensor(c, 0), tc_arg_int(c, 1), tc_arg_int(c, 2));
}

/* t(self): a matrix transposed; vectors and scalars unchanged. */
int tc_impl_t(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (t->ndim > 2)
        return tc_set_error(TC_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
    if (t->ndim < 2) return view_result(c, t, t->ndim, t->sizes, t->strides, t->offset);
    return transposed(c, t, 0, 1);
}

static int squeezed(tc_opcall *c, tc_tensor *t, int32_t dim) {
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (t->sizes[d] == 1 && (dim < 0 || d == dim)) continue;
        sizes[n] = t->sizes[d];
        strides[n++] = t->strides[d];
    }
    return view_result(c, t, n, sizes, strides, t->offset);
}

/* squeeze(self): every size-1 dim dropped. */
int tc_impl_squeeze(tc_opcall *c) { return squeezed(c, tc_arg_tensor(c, 0), -1); }

/* squeeze.dim(self, dim) */
int tc_impl_squeeze_dim(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), t->ndim, &dim)) return TC_FAIL;
    return squeezed(c, t, t->ndim ? dim : -1);
}

/* expand(self, size, *, implicit) */
int tc_impl_expand(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_int_list req = tc_arg_ints(c, 1);
    if (req.len < t->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "expand: the number of sizes provided (%lld) must be greater or equal to "
                                            "the number of dimensions in the tensor (%d)", (long long)req.len, t->ndim);
    if (tc_shape_check_ndim(req.len)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS];
    for (int64_t i = 0; i < req.len; i++) {
        int64_t j = t->ndim - req.len + i;
        if (req.items[i] == -1) {
            if (j < 0)
                return tc_set_error(TC_ERR_RUNTIME, "expand: -1 is not allowed in a leading, non-existing dimension "
                                                    "%lld", (long long)i);
            sizes[i] = t->sizes[j];
        } else if (req.items[i] < 0) {
            return tc_set_error(TC_ERR_RUNTIME, "expand: invalid size %lld", (long long)req.items[i]);
        } else {
            sizes[i] = req.items[i];
        }
    }
    return tc_return_view(c, t, tc_expand_to(t, (int32_t)req.len, sizes)); /* a view: writes through it are tracked */
}

/* flatten.using_ints(self, start_dim, end_dim) */
int tc_impl_flatten_using_ints(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int32_t start, end;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), t->ndim, &start) || tc_shape_wrap_dim(tc_arg_int(c, 2), t->ndim, &end))
        return TC_FAIL;
    if (start > end)
        return tc_set_error(TC_ERR_RUNTIME, "flatten() has invalid args: start_dim cannot come after end_dim");
    if (t->ndim > 0 && start == end) { /* nothing to merge: PyTorch returns self itself, not a view */
        tc_tensor_retain(t);
        return tc_return(c, t);
    }
    int64_t sizes[TC_MAX_DIMS];
    int32_t n = 0;
    if (t->ndim == 0) sizes[n++] = 1;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (d > start && d <= end)
            sizes[n - 1] *= t->sizes[d];
        else
            sizes[n++] = t->sizes[d];
    }
    return tc_return(c, tc_reshape(t, (tc_int_list){sizes, n}));
}

/* alias(self): the same elements, a new tensor object. */
int tc_impl_alias(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    return view_result(c, t, t->ndim, t->sizes, t->strides, t->offset);
}

int tc_impl_view_as(tc_opcall *c) {
    tc_tensor *o = tc_arg_tensor(c, 1);
    return tc_return(c, tc_view_default(tc_arg_tensor(c, 0), (tc_int_list){o->sizes, o->ndim}));
}

int tc_impl_expand_as(tc_opcall *c) {
    tc_tensor *o = tc_arg_tensor(c, 1);
    return tc_return(c, tc_expand(tc_arg_tensor(c, 0), (tc_int_list){o->sizes, o->ndim}, false));
}

int tc_impl_reshape_as(tc_opcall *c) {
    tc_tensor *o = tc_arg_tensor(c, 1);
    return tc_return(c, tc_reshape(tc_arg_tensor(c, 0), (tc_int_list){o->sizes, o->ndim}));
}

/* detach(self): the same elements without history; not a view autograd follows (no base). */
int tc_impl_detach(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_tensor *d = tc_tensor_restride(t, t->ndim, t->sizes, t->strides, t->offset);
    if (d) d->flags = t->flags;
    return tc_return(c, d);
}
