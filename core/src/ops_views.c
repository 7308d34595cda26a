/* Strided views: new sizes, strides and offset over the same storage; no kernel runs. */
#include "core_internal.h"

#include <string.h>

tc_tensor *tc_as_strided(tc_tensor *t, int32_t ndim, const int64_t *sizes, const int64_t *strides,
                         int64_t offset) {
    /* The furthest element must lie inside the storage. */
    int64_t last = offset;
    for (int32_t i = 0; i < ndim; i++) {
        if (sizes[i] < 0 || strides[i] < 0)
            return tc_set_error(TC_ERR_RUNTIME, "as_strided: negative size or stride"), NULL;
        if (sizes[i] == 0) {
            last = -1;
            break;
        }
        int64_t span;
        if (__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) || __builtin_add_overflow(last, span, &last))
            return tc_set_error(TC_ERR_RUNTIME, "as_strided: size and stride overflow"), NULL;
    }
    int64_t capacity = (int64_t)(tc_storage_nbytes(t->storage) / tc_dtype_size(t->dtype));
    if (offset < 0 || last >= capacity)
        return tc_set_error(TC_ERR_RUNTIME, "setStorage: sizes and strides reach element %lld but the storage "
                                            "holds %lld", (long long)last, (long long)capacity), NULL;
    return tc_tensor_restride(t, ndim, sizes, strides, offset);
}

tc_tensor *tc_select(tc_tensor *t, int32_t dim, int64_t index) {
    if (t->ndim == 0) return tc_set_error(TC_ERR_INDEX, "invalid index of a 0-dim tensor. Use `tensor.item()` "
                                                        "in Python or `tensor.item<T>()` in C++ to convert a "
                                                        "0-dim tensor to a number"), NULL;
    int64_t size = t->sizes[dim];
    if (index < -size || index >= size)
        return tc_set_error(TC_ERR_INDEX, "index %lld is out of bounds for dimension %d with size %lld",
                            (long long)index, dim, (long long)size), NULL;
    if (index < 0) index += size;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (d == dim) continue;
        sizes[n] = t->sizes[d];
        strides[n++] = t->strides[d];
    }
    return tc_tensor_restride(t, n, sizes, strides, t->offset + index * t->strides[dim]);
}

/* Python slice semantics (start/stop already clamped by the caller are accepted as well). */
tc_tensor *tc_slice(tc_tensor *t, int32_t dim, int64_t start, int64_t stop, int64_t step) {
    if (step <= 0) return tc_set_error(TC_ERR_VALUE, "step must be greater than zero"), NULL;
    int64_t size = t->sizes[dim];
    if (start < 0) start += size;
    if (stop < 0) stop += size;
    start = start < 0 ? 0 : start > size ? size : start;
    stop = stop < start ? start : stop > size ? size : stop;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    sizes[dim] = stop > start ? (stop - start - 1) / step + 1 : 0; /* no `+ step - 1`: step may be huge */
    strides[dim] = t->strides[dim] * step;
    return tc_tensor_restride(t, t->ndim, sizes, strides, t->offset + start * t->strides[dim]);
}

tc_tensor *tc_unsqueeze(tc_tensor *t, int32_t dim) {
    if (t->ndim >= TC_MAX_DIMS) return tc_set_error(TC_ERR_RUNTIME, "too many dimensions"), NULL;
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
    return tc_tensor_restride(t, t->ndim + 1, sizes, strides, t->offset);
}

/* Resolves one -1 in a requested shape and checks the element count. */
static int infer_size(const tc_tensor *t, int32_t ndim, const int64_t *req, int64_t *out) {
    int64_t numel = tc_tensor_numel(t), known = 1;
    int infer = -1;
    for (int32_t i = 0; i < ndim; i++) {
        if (req[i] == -1) {
            if (infer >= 0) return tc_set_error(TC_ERR_RUNTIME, "only one dimension can be inferred");
            infer = i;
        } else if (req[i] < 0) {
            return tc_set_error(TC_ERR_RUNTIME, "invalid shape dimension %lld", (long long)req[i]);
        } else if (__builtin_mul_overflow(known, req[i], &known)) {
            return tc_set_error(TC_ERR_RUNTIME, "shape is too large");
        }
        out[i] = req[i];
    }
    char shape[512];
    if (infer >= 0) {
        if (known == 0 || numel % known != 0) goto bad;
        out[infer] = numel / known;
    } else if (known != numel) {
        goto bad;
    }
    return TC_OK;
bad:
    tc_shape_format(ndim, req, shape, sizeof shape);
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

tc_tensor *tc_view_shape(tc_tensor *t, int32_t ndim, const int64_t *req) {
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    if (ndim > TC_MAX_DIMS) return tc_set_error(TC_ERR_RUNTIME, "too many dimensions"), NULL;
    if (infer_size(t, ndim, req, sizes)) return NULL;
    if (!view_strides(t, ndim, sizes, strides))
        return tc_set_error(TC_ERR_RUNTIME, "view size is not compatible with input tensor's size and stride (at "
                                            "least one dimension spans across two contiguous subspaces). Use "
                                            ".reshape(...) instead."), NULL;
    return tc_tensor_restride(t, ndim, sizes, strides, t->offset);
}

tc_tensor *tc_reshape(tc_tensor *t, int32_t ndim, const int64_t *req) {
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    if (ndim > TC_MAX_DIMS) return tc_set_error(TC_ERR_RUNTIME, "too many dimensions"), NULL;
    if (infer_size(t, ndim, req, sizes)) return NULL;
    if (view_strides(t, ndim, sizes, strides)) return tc_tensor_restride(t, ndim, sizes, strides, t->offset);
    tc_tensor *c = tc_contiguous(t);
    if (!c) return NULL;
    tc_tensor *v = tc_view_shape(c, ndim, sizes);
    tc_tensor_release(c);
    return v;
}

static tc_tensor *permute(tc_tensor *t, const int64_t *dims, int n) {
    if (n != t->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "permute(): number of dimensions in the tensor input does "
                                            "not match the length of the desired ordering of dimensions i.e. "
                                            "input.dim() = %d is not equal to len(dims) = %d", t->ndim, n), NULL;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    bool seen[TC_MAX_DIMS] = {0};
    for (int i = 0; i < n; i++) {
        int32_t d;
        if (tc_shape_wrap_dim(dims[i], t->ndim, &d)) return NULL;
        if (seen[d]) return tc_set_error(TC_ERR_RUNTIME, "permute(): duplicate dims are not allowed."), NULL;
        seen[d] = true;
        sizes[i] = t->sizes[d];
        strides[i] = t->strides[d];
    }
    return tc_tensor_restride(t, t->ndim, sizes, strides, t->offset);
}

static tc_tensor *transpose(tc_tensor *t, int64_t d0, int64_t d1) {
    int32_t a, b;
    if (tc_shape_wrap_dim(d0, t->ndim, &a) || tc_shape_wrap_dim(d1, t->ndim, &b)) return NULL;
    if (t->ndim == 0) {
        tc_tensor_retain(t);
        return t;
    }
    int64_t order[TC_MAX_DIMS];
    for (int32_t i = 0; i < t->ndim; i++) order[i] = i;
    order[a] = b;
    order[b] = a;
    return permute(t, order, t->ndim);
}

static tc_tensor *squeeze(tc_tensor *t, int dim) {
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (t->sizes[d] == 1 && (dim < 0 || d == dim)) continue;
        sizes[n] = t->sizes[d];
        strides[n++] = t->strides[d];
    }
    return tc_tensor_restride(t, n, sizes, strides, t->offset);
}

static tc_tensor *expand(tc_tensor *t, const int64_t *req, int n) {
    if (n < t->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "expand: the number of sizes provided (%d) must be greater or equal "
                                            "to the number of dimensions in the tensor (%d)", n, t->ndim), NULL;
    int64_t sizes[TC_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        int j = t->ndim - n + i;
        if (req[i] == -1) {
            if (j < 0) return tc_set_error(TC_ERR_RUNTIME, "expand: -1 is not allowed in a leading, non-existing "
                                                           "dimension %d", i), NULL;
            sizes[i] = t->sizes[j];
        } else if (req[i] < 0) {
            return tc_set_error(TC_ERR_RUNTIME, "expand: invalid size %lld", (long long)req[i]), NULL;
        } else {
            sizes[i] = req[i];
        }
    }
    return tc_expand_to(t, n, sizes);
}

static tc_tensor *flatten(tc_tensor *t, int64_t start_arg, int64_t end_arg) {
    int32_t start, end;
    if (tc_shape_wrap_dim(start_arg, t->ndim, &start) || tc_shape_wrap_dim(end_arg, t->ndim, &end)) return NULL;
    if (start > end) return tc_set_error(TC_ERR_RUNTIME, "flatten() has invalid args: start_dim cannot come after "
                                                         "end_dim"), NULL;
    if (t->ndim == 0) {
        int64_t one = 1;
        return tc_reshape(t, 1, &one);
    }
    int64_t sizes[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (d > start && d <= end) {
            sizes[n - 1] *= t->sizes[d];
        } else {
            sizes[n++] = t->sizes[d];
        }
    }
    return tc_reshape(t, n, sizes);
}

int tc_ops_views(int32_t op, const tc_call *call, tc_tensor **outs) {
    tc_tensor *t = call->tensors[0];
    const int64_t *ints = call->ints;
    tc_tensor *r = NULL;
    int32_t dim;
    /* the ints each op reads below; a C caller of tc_op_call may have given fewer */
    int needed = op == TC_OP_transpose || op == TC_OP_flatten ? 2
                 : op == TC_OP_squeeze_dim || op == TC_OP_unsqueeze ? 1 : 0;
    if (call->n_ints < needed)
        return tc_set_error(TC_ERR_VALUE, "%s: expected %d int arguments, got %d", tc_op_infos[op].name, needed,
                            call->n_ints);
    switch (op) {
    case TC_OP_view: r = tc_view_shape(t, call->n_ints, ints); break;
    case TC_OP_reshape: r = tc_reshape(t, call->n_ints, ints); break;
    case TC_OP_transpose: r = transpose(t, ints[0], ints[1]); break;
    case TC_OP_t:
        if (t->ndim > 2)
            return tc_set_error(TC_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
        r = t->ndim < 2 ? (tc_tensor_retain(t), t) : transpose(t, 0, 1);
        break;
    case TC_OP_permute: r = permute(t, ints, call->n_ints); break;
    case TC_OP_contiguous: r = tc_contiguous(t); break;
    case TC_OP_squeeze: r = squeeze(t, -1); break;
    case TC_OP_squeeze_dim:
        if (tc_shape_wrap_dim(ints[0], t->ndim, &dim)) return TC_FAIL;
        r = t->ndim ? squeeze(t, dim) : (tc_tensor_retain(t), t);
        break;
    case TC_OP_unsqueeze:
        if (tc_shape_wrap_dim(ints[0], t->ndim + 1, &dim)) return TC_FAIL;
        r = tc_unsqueeze(t, dim);
        break;
    case TC_OP_expand: r = expand(t, ints, call->n_ints); break;
    case TC_OP_flatten: r = flatten(t, ints[0], ints[1]); break;
    default: return tc_set_error(TC_ERR_RUNTIME, "op %s is not a view", tc_op_infos[op].name);
    }
    outs[0] = r;
    return r ? 1 : TC_FAIL;
}
