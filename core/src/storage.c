/* Reference-counted byte buffers on one device; foreign memory is just another deleter. */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

static tc_storage *storage_init(tc_storage *s, void *data, size_t nbytes, tc_device device,
                                const tc_allocator *allocator, tc_deleter_fn deleter, void *ctx) {
    atomic_init(&s->refcount, 1);
    s->data = data;
    s->nbytes = nbytes;
    s->device = device;
    s->allocator = allocator;
    s->deleter = deleter;
    s->deleter_ctx = ctx;
    s->version = 0;
    return s;
}

tc_storage *tc_storage_new(size_t nbytes, tc_device device) {
    if (!tc_device_valid(device))
        return tc_set_error(TC_ERR_RUNTIME, "invalid device %s:%d", tc_device_type_name(device.type),
                            device.index), NULL;
    const tc_allocator *a = tc_alloc_for(device.type);
    if (!a)
        return tc_set_error(TC_ERR_RUNTIME, "no allocator for device type '%s'",
                            tc_device_type_name(device.type)), NULL;
    tc_storage *s = malloc(sizeof *s);
    if (!s) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory allocating a storage"), NULL;
    tc_error_clear();
    void *data = a->alloc(a->ctx, nbytes, device.index, NULL);
    if (!data) {
        free(s);
        if (tc_last_error_kind() == TC_ERR_OUT_OF_MEMORY) return NULL; /* the allocator said it, with its figures */
        return tc_set_error(TC_ERR_OUT_OF_MEMORY,
                            "out of memory: tried to allocate %zu bytes on %s", nbytes,
                            tc_device_type_name(device.type)), NULL;
    }
    return storage_init(s, data, nbytes, device, a, NULL, NULL);
}

tc_storage *tc_storage_wrap(void *data, size_t nbytes, tc_device device, tc_deleter_fn deleter,
                            void *ctx) {
    tc_storage *s = malloc(sizeof *s);
    if (!s) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory allocating a storage"), NULL;
    return storage_init(s, data, nbytes, device, NULL, deleter, ctx);
}

void tc_storage_retain(tc_storage *s) { atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed); }

void tc_storage_release(tc_storage *s) {
    if (!s || atomic_fetch_sub_explicit(&s->refcount, 1, memory_order_acq_rel) != 1) return;
    if (s->deleter) {
        s->deleter(s->deleter_ctx, s->data, s->nbytes);
    } else if (s->allocator) { /* the allocator that made it, whatever is registered now */
        s->allocator->free(s->allocator->ctx, s->data, s->nbytes, s->device.index, NULL);
    }
    free(s);
}

void *tc_storage_data(const tc_storage *s) { return s->data; }

size_t tc_storage_nbytes(const tc_storage *s) { return s->nbytes; }

/* Grows s to nbytes keeping its contents: a new buffer from s's device, the old bytes copied in, and
 * the two buffers swapped between s and a temporary storage that then frees the old one. */
int tc_storage_grow(tc_storage *s, size_t nbytes) {
    if (s->deleter) return tc_set_error(TC_ERR_RUNTIME, "Trying to resize storage that is not resizable");
    tc_storage *fresh = tc_storage_new(nbytes, s->device);
    if (!fresh) return TC_FAIL;
    if (s->nbytes) {
        if (s->device.type == TC_DEVICE_CPU) {
            memcpy(fresh->data, s->data, s->nbytes);
        } else {
            const tc_device_type_desc *d = tc_device_desc(s->device.type);
            if (d && d->copy && d->copy(fresh->data, s->device, s->data, s->device, s->nbytes, NULL) != TC_OK) {
                tc_storage_release(fresh);
                return tc_last_error_kind() ? TC_FAIL : tc_set_error(TC_ERR_RUNTIME, "resize_: copying failed");
            }
        }
    }
    tc_storage tmp = *fresh;
    fresh->data = s->data;
    fresh->nbytes = s->nbytes;
    fresh->allocator = s->allocator;
    s->data = tmp.data;
    s->nbytes = tmp.nbytes;
    s->allocator = tmp.allocator;
    tc_storage_release(fresh);
    return TC_OK;
}
