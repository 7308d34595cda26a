/* result_type: PyTorch's promotion over a set of operands (dimensioned tensors outrank 0-dim tensors,
 * which outrank Python numbers, unless the lower group is of a higher category). */
#include "core_internal.h"

static int32_t promote_opt(int32_t a, int32_t b) { return a < 0 ? b : b < 0 ? a : tc_promote_types(a, b); }

/* Categories rank bool < integer < floating < complex; a lower-priority group of a higher category
 * lifts the result into it (a complex one keeps the higher group's floating precision). */
static int32_t combine(int32_t higher, int32_t lower) {
    if (higher < 0) return lower;
    if (lower < 0) return higher;
    if (tc_dtype_is_complex(higher)) return higher;
    if (tc_dtype_is_complex(lower)) return tc_dtype_is_floating(higher) ? tc_dtype_to_complex(higher) : lower;
    if (tc_dtype_is_floating(higher)) return higher;
    if (higher == TC_BOOL || tc_dtype_is_floating(lower)) return tc_promote_types(higher, lower);
    return higher;
}

/* A Python number's dtype as PyTorch promotes it: floats as the default dtype, complex numbers as
 * the default complex dtype. */
static int32_t wrapped_dtype(int32_t d) {
    return tc_dtype_is_complex(d) ? tc_default_complex_dtype() : tc_dtype_is_floating(d) ? tc_default_dtype() : d;
}

int32_t tc_result_type(tc_tensor *const *ts, int n) {
    int32_t dim = -1, zero = -1, wrapped = -1;
    for (int i = 0; i < n; i++) {
        int32_t d = ts[i]->dtype;
        if (ts[i]->flags & TC_TENSOR_WRAPPED_NUMBER)
            wrapped = promote_opt(wrapped, wrapped_dtype(d));
        else if (ts[i]->ndim == 0)
            zero = promote_opt(zero, d);
        else
            dim = promote_opt(dim, d);
    }
    return combine(dim, combine(zero, wrapped));
}
