/* Registers a kernel with flag bits no core knows and ignores the refusal: the commit fails, naming
 * the flags, and nothing of the plugin stays registered. */
#include "torch_core/tc_abi.h"

static int noop(const tc_kernel_args *args) { return TC_OK; }

static int init(const tc_core_api *core, char *err, size_t len) {
    core->register_kernel_flags("add", TC_DEVICE_CPU, TC_STRIDED, TC_INT16, noop, 0x80u);
    return TC_OK;
}

static const tc_plugin_desc desc = {TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-bad-kernel-flags",
                                    .kind = TC_PLUGIN_KIND_EXTENSION, .version = "1.2", .init = init};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
