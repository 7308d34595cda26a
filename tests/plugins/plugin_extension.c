/* A well-formed extension plugin: checks the table it is handed and loads. */
#include "torch_core/tc_abi.h"

#include <stdio.h>

static int init(const tc_core_api *core, char *err, size_t len) {
    if (core->struct_size < sizeof(tc_core_api) || core->abi_major != TC_ABI_MAJOR) {
        snprintf(err, len, "unexpected core table");
        return TC_FAIL;
    }
    return core->op_id("add") >= 0 ? TC_OK : TC_FAIL;
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-extension", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "1.2.3",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
