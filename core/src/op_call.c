/* The one entry point from the front end: routes an op by its category. */
#include "core_internal.h"

#include <string.h>

int32_t tc_op_lookup(const char *name) {
    for (int32_t i = 0; i < TC_NUM_OPS; i++)
        if (strcmp(tc_op_infos[i].name, name) == 0 && !tc_op_infos[i].overload[0]) return i;
    return -1;
}

int tc_op_call(int32_t op, const tc_call *call, tc_tensor **outs, int max_outs) {
    if (op < 0 || op >= TC_NUM_OPS) return tc_set_error(TC_ERR_VALUE, "unknown op id %d", op);
    if (max_outs < 2) return tc_set_error(TC_ERR_VALUE, "tc_op_call needs room for two outputs");
    outs[0] = outs[1] = NULL;
    switch (tc_op_infos[op].category) {
    case TC_CAT_BINARY:
    case TC_CAT_UNARY:
    case TC_CAT_COPY: return tc_ops_elementwise(op, call, outs);
    case TC_CAT_REDUCE:
    case TC_CAT_REDUCE_DIM:
    case TC_CAT_ARG: return tc_ops_reduce(op, call, outs);
    case TC_CAT_MM:
    case TC_CAT_MATMUL: return tc_ops_linalg(op, call, outs);
    case TC_CAT_VIEW: return tc_ops_views(op, call, outs);
    case TC_CAT_FACTORY: return tc_ops_factory(op, call, outs);
    default: return tc_set_error(TC_ERR_RUNTIME, "op %s has no category", tc_op_infos[op].name);
    }
}
