/* A plugin whose dependency cannot be found at load time. */
#include "torch_core/tc_abi.h"

int tc_missing_dep_answer(void);

static int init(const tc_core_api *core, char *err, size_t len) { return tc_missing_dep_answer() == 42 ? TC_OK : TC_FAIL; }

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-missing-dep", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "0",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
