/* Registers a wrong add kernel for int8 and then fails: the core must drop the registration. */
#include "torch_core/tc_abi.h"

#include <stdio.h>

static int wrong_add(const tc_kernel_args *args) {
    int8_t *out = args->outputs[0].data;
    out[0] = 99;
    return TC_OK;
}

static int init(const tc_core_api *core, char *err, size_t len) {
    if (core->register_kernel("add", 0, TC_STRIDED, TC_INT8, wrong_add) != TC_OK) return TC_FAIL;
    snprintf(err, len, "the test plugin refuses to start");
    return TC_FAIL;
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-init-fails", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "0",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
