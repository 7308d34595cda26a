/* A plugin whose probe declines this machine. */
#include "torch_core/tc_abi.h"

#include <stdio.h>

static int probe(const tc_core_api *core, char *reason, size_t len) {
    snprintf(reason, len, "needs hardware this machine lacks");
    return 0;
}

static int init(const tc_core_api *core, char *err, size_t len) { return TC_OK; }

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-unsupported", .kind = TC_PLUGIN_KIND_DEVICE, .version = "0",
    .probe = probe, .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
