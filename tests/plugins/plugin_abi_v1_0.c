/*
 * A plugin built against the frozen 1.0 header (tests/abi_v1_0), as a third party who has not
 * rebuilt since 1.0 would have it: it registers a device type "v1dev" backed by host memory, its
 * allocator and copy, and kernels that read their arguments in the 1.0 layout (40-byte views,
 * 16-byte scalars, alpha in scalars[0]). test_op_interface.py runs ops on it through today's core.
 */
#include "torch_core/tc_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(TC_ABI_MINOR == 0 && sizeof(tc_view) == 40 && sizeof(tc_scalar) == 16,
               "this plugin must be built against the frozen 1.0 header");

static const tc_core_api *core;
static tc_allocator_stats stats;

static void *v1_alloc(void *ctx, size_t nbytes, int32_t index, void *stream) {
    stats.n_allocs++;
    stats.allocated_bytes += nbytes;
    return malloc(nbytes ? nbytes : 1);
}

static void v1_free(void *ctx, void *ptr, size_t nbytes, int32_t index, void *stream) {
    stats.allocated_bytes -= nbytes;
    free(ptr);
}

static void v1_stats(void *ctx, tc_allocator_stats *out) { *out = stats; }

static const tc_allocator allocator = {
    .struct_size = sizeof(tc_allocator), .alloc = v1_alloc, .free = v1_free, .stats = v1_stats};

static int32_t v1_count(void) { return 1; }

static int v1_copy(void *dst, tc_device dd, const void *src, tc_device sd, size_t n, void *stream) {
    memcpy(dst, src, n);
    return TC_OK;
}

static int v1_sync(int32_t index) { return TC_OK; }

static const tc_device_type_desc device = {.struct_size = sizeof(tc_device_type_desc), .name = "v1dev",
                                           .device_count = v1_count, .copy = v1_copy, .synchronize = v1_sync};

/* Offset (in elements) of row-major element i of a view. */
static int64_t offset_of(const tc_view *v, int64_t i) {
    int64_t off = 0;
    for (int32_t d = v->ndim - 1; d >= 0; d--) {
        off += (i % v->sizes[d]) * v->strides[d];
        i /= v->sizes[d];
    }
    return off;
}

static int64_t numel(const tc_view *v) {
    int64_t n = 1;
    for (int32_t d = 0; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

/* out = a + alpha * b, float32, inputs already at the output's sizes */
static int v1_add(const tc_kernel_args *args) {
    if (args->struct_size != 64 || args->n_inputs != 2 || args->n_scalars < 1)
        return core->set_error(TC_ERR_RUNTIME, "v1dev add: unexpected arguments (struct_size %u)", args->struct_size);
    const tc_view *a = &args->inputs[0], *b = &args->inputs[1], *o = &args->outputs[0];
    const float alpha = args->scalars[0].is_float ? (float)args->scalars[0].v.f : (float)args->scalars[0].v.i;
    for (int64_t i = 0; i < numel(o); i++)
        ((float *)o->data)[offset_of(o, i)] =
            ((const float *)a->data)[offset_of(a, i)] + alpha * ((const float *)b->data)[offset_of(b, i)];
    return TC_OK;
}

static int v1_copy_kernel(const tc_kernel_args *args) {
    const tc_view *in = &args->inputs[0], *o = &args->outputs[0];
    if (in->dtype != TC_FLOAT32) return core->set_error(TC_ERR_RUNTIME, "v1dev copies float32 only");
    for (int64_t i = 0; i < numel(o); i++)
        ((float *)o->data)[offset_of(o, i)] = ((const float *)in->data)[offset_of(in, i)];
    return TC_OK;
}

static int init(const tc_core_api *table, char *err, size_t len) {
    core = table;
    int32_t type = core->register_device_type(&device);
    if (type < 0 || core->register_allocator(type, &allocator) ||
        core->register_kernel("add", type, TC_STRIDED, TC_FLOAT32, v1_add) ||
        core->register_kernel("copy", type, TC_STRIDED, TC_FLOAT32, v1_copy_kernel)) {
        snprintf(err, len, "registration failed");
        return TC_FAIL;
    }
    return TC_OK;
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-abi-v1-0", .kind = TC_PLUGIN_KIND_DEVICE, .version = "1.0",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
