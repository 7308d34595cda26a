/* A shared object that is not a plugin: no tc_plugin_entry. */
#include "torch_core/tc_abi.h"

TC_EXPORT int not_a_plugin_entry(void) { return 42; }
