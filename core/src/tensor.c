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
    tc_storage_release(t->storage);
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
        v->flags = t->flags & TC_TENSOR_WRAPPED_NUMBER;
    }
    return v;
}

tc_tensor *tc_expand_to(tc_tensor *t, int32_t ndim, const int64_t *sizes) {
    int64_t strides[TC_MAX_DIMS], numel;
    if (ndim < t->ndim) return tc_set_error(TC_ERR_RUNTIME, "cannot expand to fewer dimensions"), NULL;
    if (ndim > TC_MAX_DIMS)
        return tc_set_error(TC_ERR_RUNTIME, "tensors may have at most %d dimensions, got %d", TC_MAX_DIMS, ndim), NULL;
    /* the only view that grows the element count: every tensor's numel must stay an int64 */
    if (tc_shape_numel(ndim, sizes, &numel)) return NULL;
    for (int32_t i = 0; i < ndim; i++) {
        int32_t j = t->ndim - ndim + i;
        int64_t size = j >= 0 ? t->sizes[j] : 1;
        if (size == sizes[i]) {
            strides[i] = j >= 0 ? t->strides[j] : 0;
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

tc_tensor *tc_scalar_tensor(tc_scalar value, int32_t dtype, tc_device device) {
    tc_device cpu = {TC_DEVICE_CPU, 0};
    tc_tensor *t = tc_empty(0, NULL, dtype, cpu);
    if (!t) return NULL;
    tc_scalar_store(value, dtype, tc_tensor_data(t));
    if (device.type == TC_DEVICE_CPU) return t;
    tc_tensor *moved = tc_empty(0, NULL, dtype, device);
    if (moved && tc_copy_into(moved, t)) {
        tc_tensor_release(moved);
        moved = NULL;
    }
    tc_tensor_release(t);
    return moved;
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
    return TC_OK;
}
