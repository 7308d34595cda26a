/* Registers one device type twice (ignoring the refusal of the second) plus a kernel for it: the
 * plugin must fail as a whole, with no device type left whose name or functions point into it. */
#include "torch_core/tc_abi.h"

static int32_t count(void) { return 1; }

static int copy(void *dst, tc_device dd, const void *src, tc_device sd, size_t n, void *stream) { return TC_OK; }

static int sync(int32_t index) { return TC_OK; }

static int fill(const tc_kernel_args *args) { return TC_OK; }

static const tc_device_type_desc dev = {
    .struct_size = sizeof(tc_device_type_desc), .name = "testdev", .device_count = count, .copy = copy,
    .synchronize = sync,
};

static int init(const tc_core_api *core, char *err, size_t len) {
    int32_t id = core->register_device_type(&dev);
    if (id < 0) return TC_FAIL;
    (void)core->register_device_type(&dev); /* refused; a careless plugin carries on */
    return core->register_kernel("copy", id, TC_STRIDED, TC_ANY_DTYPE, fill);
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "testdev", .kind = TC_PLUGIN_KIND_DEVICE, .version = "0", .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
