/* Declines in probe with a reason that fills the whole buffer and has no NUL: the core must read it
 * within the buffer. */
#include "torch_core/tc_abi.h"

#include <string.h>

static int probe(const tc_core_api *core, char *reason, size_t len) {
    memset(reason, 'R', len);
    return 0;
}

static int init(const tc_core_api *core, char *err, size_t len) { return TC_OK; }

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-unterminated-probe", .kind = TC_PLUGIN_KIND_EXTENSION,
    .version = "0", .probe = probe, .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
