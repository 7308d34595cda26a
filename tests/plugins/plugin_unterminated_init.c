/* Fails in init with a message that fills the whole buffer and has no NUL: the core must read it
 * within the buffer. */
#include "torch_core/tc_abi.h"

#include <string.h>

static int init(const tc_core_api *core, char *err, size_t len) {
    memset(err, 'E', len);
    return TC_FAIL;
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-unterminated-init", .kind = TC_PLUGIN_KIND_EXTENSION,
    .version = "0", .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
