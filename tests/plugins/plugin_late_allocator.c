/*
 * Loaded after start-up (torch.ops.load_library) beside plugin_test_device: replaces tdev's
 * allocator with one that counts in its own statistics. Storages made before it loaded must still
 * be freed by the allocator that made them.
 */
#include "torch_core/tc_abi.h"

#include <stdio.h>
#include <stdlib.h>

static tc_allocator_stats stats;

static void *late_alloc(void *ctx, size_t nbytes, int32_t index, void *stream) {
    stats.n_allocs++;
    stats.allocated_bytes += nbytes;
    return calloc(1, nbytes ? nbytes : 1);
}

static void late_free(void *ctx, void *ptr, size_t nbytes, int32_t index, void *stream) {
    stats.allocated_bytes -= nbytes;
    free(ptr);
}

static void late_stats(void *ctx, tc_allocator_stats *out) { *out = stats; }

static const tc_allocator allocator = {
    .struct_size = sizeof(tc_allocator), .alloc = late_alloc, .free = late_free, .stats = late_stats};

static int init(const tc_core_api *core, char *err, size_t len) {
    int32_t type = core->device_type_id("tdev");
    if (type < 0 || core->register_allocator(type, &allocator)) {
        snprintf(err, len, "no tdev device to give an allocator to");
        return TC_FAIL;
    }
    return TC_OK;
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-late-allocator", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "1.1",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
