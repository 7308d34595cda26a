/* Claims the name "cpu" with a score lower than any real CPU plugin variant. */
#include "torch_core/tc_abi.h"

static int probe(const tc_core_api *core, char *reason, size_t len) { return 1; }

static int init(const tc_core_api *core, char *err, size_t len) { return TC_OK; }

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "cpu", .kind = TC_PLUGIN_KIND_DEVICE, .version = "test",
    .probe = probe, .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
