/*
 * Kernel flags (ABI 1.2): a device type "tflags" backed by host memory whose `add` kernels report the
 * dtypes of the inputs they receive, out[i] = 100 * dtype(a) + dtype(b). The float32 kernel is
 * registered with TC_KERNEL_CONVERTS_INPUTS, so it sees the operands as the caller made them; the
 * float64 one without flags, so the core converts its inputs first (through this device's copy,
 * which converts between dtypes). test_pointwise.py drives it.
 */
#include "torch_core/tc_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tc_core_api *core;

static void *tflags_alloc(void *ctx, size_t nbytes, int32_t index, void *stream) { return calloc(1, nbytes ? nbytes : 1); }
static void tflags_free(void *ctx, void *ptr, size_t nbytes, int32_t index, void *stream) { free(ptr); }

static const tc_allocator allocator = {.struct_size = sizeof(tc_allocator), .alloc = tflags_alloc, .free = tflags_free};

static int32_t tflags_count(void) { return 1; }

static int tflags_copy(void *dst, tc_device dd, const void *src, tc_device sd, size_t n, void *stream) {
    memcpy(dst, src, n);
    return TC_OK;
}

static int tflags_sync(int32_t index) { return TC_OK; }

static const tc_device_type_desc device = {.struct_size = sizeof(tc_device_type_desc), .name = "tflags",
                                           .device_count = tflags_count, .copy = tflags_copy,
                                           .synchronize = tflags_sync};

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

static double load(const tc_view *v, int64_t i) {
    const char *p = (const char *)v->data + offset_of(v, i) * (int64_t)core->dtype_size(v->dtype);
    switch (v->dtype) {
    case TC_INT32: return *(const int32_t *)p;
    case TC_INT64: return (double)*(const int64_t *)p;
    case TC_FLOAT32: return *(const float *)p;
    case TC_FLOAT64: return *(const double *)p;
    default: return 0;
    }
}

static void store(const tc_view *v, int64_t i, double x) {
    char *p = (char *)v->data + offset_of(v, i) * (int64_t)core->dtype_size(v->dtype);
    switch (v->dtype) {
    case TC_INT32: *(int32_t *)p = (int32_t)x; break;
    case TC_INT64: *(int64_t *)p = (int64_t)x; break;
    case TC_FLOAT32: *(float *)p = (float)x; break;
    case TC_FLOAT64: *(double *)p = x; break;
    default: break;
    }
}

/* copy on tflags: any of int32, int64, float32, float64 into any of them */
static int tflags_copy_kernel(const tc_kernel_args *args) {
    const tc_view *in = &args->inputs[0], *o = &args->outputs[0];
    for (int64_t i = 0; i < numel(o); i++) store(o, i, load(in, i));
    return TC_OK;
}

static int report_dtypes(const tc_kernel_args *args) {
    const tc_view *a = &args->inputs[0], *b = &args->inputs[1], *o = &args->outputs[0];
    for (int64_t i = 0; i < numel(o); i++) store(o, i, 100.0 * a->dtype + b->dtype);
    return TC_OK;
}

static int init(const tc_core_api *table, char *err, size_t len) {
    core = table;
    if (!TC_CORE_HAS(core, register_kernel_flags)) {
        snprintf(err, len, "core without register_kernel_flags");
        return TC_FAIL;
    }
    int32_t type = core->register_device_type(&device);
    if (type < 0 || core->register_allocator(type, &allocator) ||
        core->register_kernel("copy", type, TC_STRIDED, TC_ANY_DTYPE, tflags_copy_kernel) ||
        core->register_kernel_flags("add", type, TC_STRIDED, TC_FLOAT32, report_dtypes, TC_KERNEL_CONVERTS_INPUTS) ||
        core->register_kernel_flags("add", type, TC_STRIDED, TC_FLOAT64, report_dtypes, 0)) {
        snprintf(err, len, "registration failed");
        return TC_FAIL;
    }
    return TC_OK;
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-kernel-flags", .kind = TC_PLUGIN_KIND_DEVICE, .version = "1.2",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
