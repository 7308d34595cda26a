/* Declares plugin ABI 1.0, as a plugin built before 1.1 does: it must keep loading, and it may use
 * a later table member only after checking that the core has it. */
#include "torch_core/tc_abi.h"

#include <stdio.h>

static void touch(void *ctx, int64_t begin, int64_t end) { *(int64_t *)ctx += end - begin; }

static int init(const tc_core_api *core, char *err, size_t len) {
    if (core->abi_major != 1 || core->struct_size < offsetof(tc_core_api, parallel_for)) {
        snprintf(err, len, "unexpected core table");
        return TC_FAIL;
    }
    if (TC_CORE_HAS(core, parallel_for)) {
        int64_t covered = 0;
        if (core->parallel_for(0, 10, 100, touch, &covered) != TC_OK || covered != 10) {
            snprintf(err, len, "parallel_for covered %lld of 10", (long long)covered);
            return TC_FAIL;
        }
    }
    return core->op_id("add") >= 0 ? TC_OK : TC_FAIL;
}

static const tc_plugin_desc desc = {
    .struct_size = sizeof(tc_plugin_desc), .abi_major = 1, .abi_minor = 0,
    .name = "test-abi10", .kind = TC_PLUGIN_KIND_EXTENSION, .version = "1.0.0", .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
