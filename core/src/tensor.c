/* Tensors: strided views of a storage, with one allocation for the header, sizes and strides. */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

tc_tensor *tc_tensor_alloc(int32_t ndim) {
    if (ndim < 0 || ndim > TC_MAX_DIMS)
        return tc_set_error(TC_ERR_RUNTIME, "tensors may have at most %d dimensions, got %d", TC_MAX_DIMS,
                            ndim), NULL;
    tc_tensor *t = malloc(sizeof(tc_tensor) + 2 * sizeof(int64_t) * (size_t)ndim);
    if (!t) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory allocating a tensor"), NULL;
    memset(t, 0, sizeof *t);
    t->refcount = 1;
    if (tc_tls_inference_mode) t->flags = TC_TENSOR_INFERENCE;
    t->ndim = ndim;
    t->sizes = (int64_t *)(t + 1);
    t->strides = t->sizes + ndim;
    return t;
}

tc_tensor *tc_tensor_new_view(tc_storage *storage, int64_t offset, int32_t ndim, const int64_t *sizes,
                              const int64_t *strides, int32_t dtype, tc_device device) {
    tc_tensor *t = tc_tensor_alloc(ndim);
    if (!t) return NULL;
    tc_storage_retain(storage);
    t->storage = storage;
    t->offset = offset;
    t->dtype = dtype;
    t->layout = TC_STRIDED;
    t->device = device;
    t->version = &storage->version;
    if (ndim) {
        memcpy(t->sizes, sizes, sizeof(int64_t) * (size_t)ndim);
        memcpy(t->strides, strides, sizeof(int64_t) * (size_t)ndim);
    }
    return t;
}

tc_tensor *tc_empty(int32_t ndim, const int64_t *sizes, int32_t dtype, tc_device device) {
    size_t nbytes;
    if (dtype < 0 || dtype >= TC_NUM_DTYPES) return tc_set_error(TC_ERR_TYPE, "invalid dtype %d", dtype), NULL;
    if (ndim < 0 || ndim > TC_MAX_DIMS)
        return tc_set_error(TC_ERR_RUNTIME, "tensors may have at most %d dimensions, got %d", TC_MAX_DIMS,
                            ndim), NULL;
    if (tc_shape_nbytes(ndim, sizes, dtype, &nbytes)) return NULL;
    tc_storage *s = tc_storage_new(nbytes, device);
    if (!s) return NULL;
    int64_t strides[TC_MAX_DIMS];
    tc_shape_contiguous_strides(ndim, sizes, strides);
    tc_tensor *t = tc_tensor_new_view(s, 0, ndim, sizes, strides, dtype, device);
    tc_storage_release(s);
    return t;
}

void tc_tensor_retain(tc_tensor *t) { __atomic_fetch_add(&t->refcount, 1, __ATOMIC_RELAXED); }

void tc_tensor_release(tc_tensor *t) {
    if (!t || __atomic_fetch_sub(&t->refcount, 1, __ATOMIC_ACQ_REL) != 1) return;
    if (t->autograd) tc_ag_meta_free(t);
    tc_tensor_release(t->base);
    tc_version_counter_release(t->own_version);
    tc_storage_release(t->storage);
    if (t->sizes != (int64_t *)(t + 1)) free(t->sizes); /* moved out by a resize */
    free(t);
}

int64_t tc_tensor_numel(const tc_tensor *t) {
    int64_t n = 1;
    for (int32_t i = 0; i < t->ndim; i++) n *= t->sizes[i];
    return n;
}

bool tc_tensor_is_contiguous(const tc_tensor *t) {
    /* an empty tensor is contiguous whatever its strides, wherever its 0-size dim is */
    for (int32_t i = 0; i < t->ndim; i++)
        if (t->sizes[i] == 0) return true;
    int64_t expected = 1;
    for (int32_t i = t->ndim - 1; i >= 0; i--) {
        if (t->sizes[i] != 1 && t->strides[i] != expected) return false;
        expected *= t->sizes[i];
    }
    return true;
}

void *tc_tensor_data(const tc_tensor *t) {
    return (char *)t->storage->data + t->offset * (int64_t)tc_dtype_size(t->dtype);
}

void tc_tensor_bump_version(tc_tensor *t) { __atomic_fetch_add(t->version, 1, __ATOMIC_RELAXED); }

tc_tensor *tc_tensor_restride(tc_tensor *t, int32_t ndim, const int64_t *sizes, const int64_t *strides,
                              int64_t offset) {
    tc_tensor *v = tc_tensor_new_view(t->storage, offset, ndim, sizes, strides, t->dtype, t->device);
    if (v) {
        v->version = t->version;
        if ((v->own_version = t->own_version)) atomic_fetch_add(&v->own_version->refcount, 1);
        v->flags = (t->flags & (TC_TENSOR_WRAPPED_NUMBER | TC_TENSOR_INFERENCE | TC_TENSOR_MATH_BITS)) |
                   (v->flags & TC_TENSOR_INFERENCE);
        v->layout = t->layout;
    }
    return v;
}

tc_tensor *tc_expand_to(tc_tensor *t, int32_t ndim, const int64_t *sizes) {
    int64_t strides[TC_MAX_DIMS], numel;
    if (ndim < t->ndim) return tc_set_error(TC_ERR_RUNTIME, "cannot expand to fewer dimensions"), NULL;
    if (tc_shape_check_ndim(ndim)) return NULL;
    /* the only view that grows the element count: every tensor's numel must stay an int64 */
    if (tc_shape_numel(ndim, sizes, &numel)) return NULL;
    /* PyTorch's inferExpandGeometry, innermost first: a broadcast dim gets stride 0, a new leading
     * dim of size 1 the stride unsqueeze would give it (overlap checks compare strides); a 0-dim
     * tensor's every dim stride 0 */
    for (int32_t i = ndim - 1; i >= 0 && t->ndim == 0; i--) strides[i] = 0;
    for (int32_t i = ndim - 1; i >= 0 && t->ndim > 0; i--) {
        int32_t j = t->ndim - ndim + i;
        int64_t size = j >= 0 ? t->sizes[j] : 1;
        if (size == sizes[i]) {
            strides[i] = j >= 0 ? t->strides[j] : (i + 1 < ndim ? sizes[i + 1] * strides[i + 1] : 1);
        } else if (size == 1) {
            strides[i] = 0;
        } else {
            char have[256], want[256];
            tc_shape_format(t->ndim, t->sizes, have, sizeof have);
            tc_shape_format(ndim, sizes, want, sizeof want);
            return tc_set_error(TC_ERR_RUNTIME,
                                "The expanded size of the tensor (%lld) must match the existing size "
                                "(%lld) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                                (long long)sizes[i], (long long)size, i, want, have), NULL;
        }
    }
    return tc_tensor_restride(t, ndim, sizes, strides, t->offset);
}

tc_tensor *tc_scalar_tensor(tc_scalar value, int32_t dtype) {
    tc_tensor *t = tc_empty(0, NULL, dtype, (tc_device){TC_DEVICE_CPU, 0});
    if (t) tc_scalar_store(value, dtype, tc_tensor_data(t));
    return t;
}

int tc_tensor_set_geometry(tc_tensor *t, int32_t ndim, const int64_t *sizes, const int64_t *strides) {
    if (ndim < 0 || ndim > TC_MAX_DIMS)
        return tc_set_error(TC_ERR_RUNTIME, "tensors may have at most %d dimensions, got %d", TC_MAX_DIMS, ndim);
    int64_t shape[2 * TC_MAX_DIMS]; /* sizes may alias t's own arrays */
    memcpy(shape, sizes, sizeof(int64_t) * (size_t)ndim);
    memcpy(shape + ndim, strides, sizeof(int64_t) * (size_t)ndim);
    if (ndim > t->ndim) { /* the current arrays have no room: move them out */
        int64_t *room = malloc(2 * sizeof(int64_t) * (size_t)ndim);
        if (!room) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory reshaping a tensor");
        if (t->sizes != (int64_t *)(t + 1)) free(t->sizes);
        t->sizes = room;
    }
    t->ndim = ndim;
    memcpy(t->sizes, shape, sizeof(int64_t) * 2 * (size_t)ndim);
    t->strides = t->sizes + ndim;
    return TC_OK;
}

int tc_tensor_resize(tc_tensor *t, int32_t ndim, const int64_t *sizes) {
    if (ndim < 0 || ndim > TC_MAX_DIMS)
        return tc_set_error(TC_ERR_RUNTIME, "tensors may have at most %d dimensions, got %d", TC_MAX_DIMS, ndim);
    size_t nbytes, offset_bytes, need;
    if (tc_shape_nbytes(ndim, sizes, t->dtype, &nbytes)) return TC_FAIL;
    if (__builtin_mul_overflow((size_t)t->offset, tc_dtype_size(t->dtype), &offset_bytes) ||
        __builtin_add_overflow(nbytes, offset_bytes, &need))
        return tc_set_error(TC_ERR_RUNTIME, "resize_: the storage would be too large");
    if (nbytes && need > tc_storage_nbytes(t->storage) && tc_storage_grow(t->storage, need)) return TC_FAIL;
    if (ndim > t->ndim && ndim > 0) { /* the inline sizes and strides have no room: move them out */
        int64_t *shape = malloc(2 * sizeof(int64_t) * (size_t)ndim);
        if (!shape) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory resizing a tensor");
        if (t->sizes != (int64_t *)(t + 1)) free(t->sizes);
        t->sizes = shape;
    }
    t->ndim = ndim;
    memcpy(t->sizes, sizes, sizeof(int64_t) * (size_t)ndim);
    t->strides = t->sizes + ndim;
    tc_shape_contiguous_strides(ndim, sizes, t->strides);
    return TC_OK;
}

bool tc_tensor_non_overlapping_and_dense(const tc_tensor *t) {
    if (t->ndim == 1) return t->sizes[0] < 2 || t->strides[0] == 1;
    /* sort dims by stride; dense when each stride equals the product of the smaller dims' sizes */
    int32_t order[TC_MAX_DIMS];
    for (int32_t i = 0; i < t->ndim; i++) order[i] = i;
    for (int32_t i = 1; i < t->ndim; i++)
        for (int32_t j = i; j > 0 && (t->strides[order[j - 1]] > t->strides[order[j]] ||
                                      (t->strides[order[j - 1]] == t->strides[order[j]] &&
                                       t->sizes[order[j - 1]] > t->sizes[order[j]]));
             j--) {
            int32_t k = order[j];
            order[j] = order[j - 1];
            order[j - 1] = k;
        }
    int64_t expected = 1;
    for (int32_t i = 0; i < t->ndim; i++) {
        int32_t d = order[i];
        if (t->sizes[d] == 1) continue;
        if (t->strides[d] != expected) return false;
        expected *= t->sizes[d];
    }
    return true;
}

tc_tensor *tc_empty_preserving(const tc_tensor *t, int32_t dtype, tc_device device) {
    if (dtype < 0) dtype = t->dtype;
    if (t->ndim <= 1 || tc_tensor_is_contiguous(t) || !tc_tensor_non_overlapping_and_dense(t))
        return tc_empty(t->ndim, t->sizes, dtype, device);
    /* same memory order as t: lay dims out from the smallest stride up */
    int32_t order[TC_MAX_DIMS];
    for (int32_t i = 0; i < t->ndim; i++) order[i] = i;
    for (int32_t i = 1; i < t->ndim; i++)
        for (int32_t j = i; j > 0 && t->strides[order[j - 1]] < t->strides[order[j]]; j--) {
            int32_t k = order[j];
            order[j] = order[j - 1];
            order[j - 1] = k;
        }
    int64_t strides[TC_MAX_DIMS], acc = 1;
    for (int32_t i = t->ndim - 1; i >= 0; i--) {
        strides[order[i]] = acc;
        acc *= t->sizes[order[i]] > 1 ? t->sizes[order[i]] : 1;
    }
    size_t nbytes;
    if (tc_shape_nbytes(t->ndim, t->sizes, dtype, &nbytes)) return NULL;
    tc_storage *s = tc_storage_new(nbytes, device);
    if (!s) return NULL;
    tc_tensor *r = tc_tensor_new_view(s, 0, t->ndim, t->sizes, strides, dtype, device);
    tc_storage_release(s);
    return r;
}

/* Element access for printing, .item() and .tolist() on CPU tensors. */
int tc_tensor_get(const tc_tensor *t, int64_t flat, tc_scalar *out) {
    if (t->device.type != TC_DEVICE_CPU)
        return tc_set_error(TC_ERR_RUNTIME, "element access needs a CPU tensor");
    int64_t offset = 0;
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
        int64_t size = t->sizes[d];
        offset += (flat % size) * t->strides[d];
        flat /= size;
    }
    if (t->dtype < 0 || t->dtype >= TC_NUM_DTYPES) return tc_set_error(TC_ERR_TYPE, "invalid dtype");
    *out = tc_scalar_load((const char *)tc_tensor_data(t) + offset * (int64_t)tc_dtype_size(t->dtype), t->dtype);
    tc_math_bits_apply_scalar(t->flags, out);
    return TC_OK;
}

void tc_version_counter_release(struct tc_version_counter *c) {
    if (c && atomic_fetch_sub(&c->refcount, 1) == 1) free(c);
}

int tc_tensor_new_version_counter(tc_tensor *t) {
    struct tc_version_counter *c = malloc(sizeof *c);
    if (!c) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    atomic_init(&c->refcount, 1);
    c->value = 0;
    tc_version_counter_release(t->own_version);
    t->own_version = c;
    t->version = &c->value;
    return TC_OK;
}
