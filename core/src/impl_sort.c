/*
 * Sorting composed of other ops: argsort (sort's indices) and msort (sort along the first dim).
 */
#include "core_internal.h"

/* The indices half of a sort. */
static int sort_indices(tc_opcall *c, const bool *stable, int64_t dim, bool descending) {
    tc_tensor *values = NULL, *indices = NULL;
    int rc = stable ? tc_sort_stable(tc_arg_tensor(c, 0), stable, dim, descending, &values, &indices)
                    : tc_sort(tc_arg_tensor(c, 0), dim, descending, &values, &indices);
    tc_tensor_release(values);
    return rc ? TC_FAIL : tc_return(c, indices);
}

/* argsort(self, dim, descending) */
int tc_impl_argsort(tc_opcall *c) { return sort_indices(c, NULL, tc_arg_int(c, 1), tc_arg_bool(c, 2)); }

/* argsort.stable(self, *, stable, dim, descending) */
int tc_impl_argsort_stable(tc_opcall *c) {
    bool stable = tc_arg_bool(c, 1);
    return sort_indices(c, &stable, tc_arg_int(c, 2), tc_arg_bool(c, 3));
}

/* msort(self): the values of a sort along dim 0. */
int tc_impl_msort(tc_opcall *c) {
    tc_tensor *values = NULL, *indices = NULL;
    int rc = tc_sort(tc_arg_tensor(c, 0), 0, false, &values, &indices);
    tc_tensor_release(indices);
    return rc ? TC_FAIL : tc_return(c, values);
}

