/*
 * torch.use_deterministic_algorithms: one process-wide switch, as PyTorch's global context holds it
 * (not per thread). Every CPU kernel of this project gives the same bits from run to run at a fixed
 * thread count (docs/determinism.md), so the switch only matters to the ops PyTorch 1.13 itself
 * refuses on CPU: an op with no deterministic implementation calls tc_deterministic_alert first
 * thing, before any of its argument checks, as PyTorch's alertNotDeterministic is called.
 */
#include "core_internal.h"

#include <stdatomic.h>

static atomic_bool enabled, warn_only;

void tc_deterministic_set(bool mode, bool warn) {
    atomic_store(&warn_only, warn);
    atomic_store(&enabled, mode);
}

bool tc_deterministic_enabled(void) { return atomic_load(&enabled); }
bool tc_deterministic_warn_only(void) { return atomic_load(&warn_only); }

int tc_deterministic_alert(const char *op) {
    if (!atomic_load(&enabled)) return TC_OK;
    if (atomic_load(&warn_only)) {
        tc_warn("%s does not have a deterministic implementation, but you set "
                "'torch.use_deterministic_algorithms(True, warn_only=True)'. You can file an issue at "
                "https://github.com/pytorch/pytorch/issues to help us prioritize adding deterministic "
                "support for this operation.", op);
        return TC_OK;
    }
    return tc_set_error(TC_ERR_RUNTIME,
                        "%s does not have a deterministic implementation, but you set "
                        "'torch.use_deterministic_algorithms(True)'. You can turn off determinism just for this "
                        "operation, or you can use the 'warn_only=True' option, if that's acceptable for your "
                        "application. You can also file an issue at https://github.com/pytorch/pytorch/issues to "
                        "help us prioritize adding deterministic support for this operation.", op);
}
