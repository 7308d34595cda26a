/* Registers a float32 add kernel for the CPU, which the cpu plugin already holds: refused, naming
 * both plugins, and nothing of this plugin stays registered. */
#include "torch_core/tc_abi.h"

static int never_runs(const tc_kernel_args *args) { return TC_FAIL; }

static int init(const tc_core_api *core, char *err, size_t len) {
    return core->register_kernel("add", TC_DEVICE_CPU, TC_STRIDED, TC_FLOAT32, never_runs);
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-duplicate-kernel", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "0",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
