/*
 * meta.c - the "meta" device: tensors with sizes, strides and dtypes but no data.
 *
 * Built as a plugin through exactly the ABI a CUDA plugin uses (a device type, an allocator, a copy,
 * kernels), it is the proof that a device needs nothing private from the core: every op with a
 * meta function runs on it, because the core's structured runner does the shape and dtype work and
 * the kernel this plugin registers for every op (its fallback) computes nothing.
 */
#include <stdio.h>

#include "torch_core/tc_abi.h"

static const tc_core_api *core;
static int32_t meta_type;

/* Storage of any size is this one byte: nothing ever reads or writes a meta tensor's elements. */
static _Alignas(64) unsigned char nothing[64];

static void *meta_alloc(void *ctx, size_t nbytes, int32_t device_index, void *stream) { return nothing; }

static void meta_free(void *ctx, void *ptr, size_t nbytes, int32_t device_index, void *stream) {}

static const tc_allocator allocator = {
    .struct_size = sizeof(tc_allocator),
    .alloc = meta_alloc,
    .free = meta_free,
};

static int32_t meta_count(void) { return 1; }

/* Into a meta tensor: nothing to do. Out of one: there is no data to give. */
static int meta_copy(void *dst, tc_device dst_device, const void *src, tc_device src_device, size_t nbytes,
                     void *stream) {
    if (src_device.type == meta_type && dst_device.type != meta_type)
        return core->set_error(TC_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return TC_OK;
}

static int meta_sync(int32_t device_index) { return TC_OK; }

static const tc_device_type_desc device = {
    .struct_size = sizeof(tc_device_type_desc),
    .name = "meta",
    .device_count = meta_count,
    .copy = meta_copy,
    .synchronize = meta_sync,
};

static int compute_nothing(const tc_kernel_args *args) { return TC_OK; }

static int meta_init(const tc_core_api *table, char *err, size_t err_len) {
    if (table->abi_major != TC_ABI_MAJOR || table->struct_size < sizeof(tc_core_api)) {
        snprintf(err, err_len, "needs a core with plugin ABI %d.%d or later", TC_ABI_MAJOR, TC_ABI_MINOR);
        return TC_FAIL;
    }
    core = table;
    meta_type = core->register_device_type(&device);
    if (meta_type < 0 || core->register_allocator(meta_type, &allocator) != TC_OK ||
        core->register_fallback(meta_type, TC_STRIDED, compute_nothing) != TC_OK) {
        snprintf(err, err_len, "registering the meta device failed");
        return TC_FAIL;
    }
    return TC_OK;
}

static const tc_plugin_desc descriptor = {
    TC_PLUGIN_DESCRIPTOR_INIT,
    .name = "meta",
    .kind = TC_PLUGIN_KIND_DEVICE,
    .version = "1.0.0",
    .init = meta_init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &descriptor; }
