/* Loaded twice under two file names: the second copy must be reported as shadowed. */
#include "torch_core/tc_abi.h"

static int probe(const tc_core_api *core, char *reason, size_t len) { return 5; }

static int init(const tc_core_api *core, char *err, size_t len) { return TC_OK; }

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-duplicate", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "0",
    .probe = probe, .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
