/* A plugin built for an ABI major the core does not provide. */
#include "torch_core/tc_abi.h"

static int init(const tc_core_api *core, char *err, size_t len) { return TC_OK; }

static const tc_plugin_desc desc = {
    .struct_size = sizeof(tc_plugin_desc), .abi_major = 99, .abi_minor = 0,
    .name = "test-bad-abi", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "0", .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
