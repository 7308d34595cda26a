/* The library plugin_missing_dep links against; it is not installed where the loader looks. */
#include "torch_core/tc_abi.h"

TC_EXPORT int tc_missing_dep_answer(void) { return 42; }
