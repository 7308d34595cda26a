/* Shape arithmetic shared by every op: sizes, strides, broadcasting, dim wrapping. */
#include "core_internal.h"

#include <stdio.h>
#include <string.h>

int tc_shape_numel(int32_t ndim, const int64_t *sizes, int64_t *numel) {
    int64_t n = 1;
    for (int32_t i = 0; i < ndim; i++) {
        if (sizes[i] < 0)
            return tc_set_error(TC_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld",
                                (long long)sizes[i]);
        if (__builtin_mul_overflow(n, sizes[i], &n))
            return tc_set_error(TC_ERR_RUNTIME, "the number of elements overflows int64");
    }
    *numel = n;
    return TC_OK;
}

int tc_shape_nbytes(int32_t ndim, const int64_t *sizes, int32_t dtype, size_t *nbytes) {
    int64_t numel, bytes;
    if (tc_shape_numel(ndim, sizes, &numel)) return TC_FAIL;
    if (__builtin_mul_overflow(numel, (int64_t)tc_dtype_size(dtype), &bytes) || bytes > (INT64_MAX >> 1))
        return tc_set_error(TC_ERR_RUNTIME,
                            "tensor of %lld elements of %s is too large to allocate",
                            (long long)numel, tc_dtype_name(dtype));
    *nbytes = (size_t)bytes;
    return TC_OK;
}

void tc_shape_contiguous_strides(int32_t ndim, const int64_t *sizes, int64_t *strides) {
    int64_t s = 1;
    for (int32_t i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= sizes[i] > 1 ? sizes[i] : 1;
    }
}

void tc_shape_format(int32_t ndim, const int64_t *sizes, char *buf, size_t len) {
    size_t used = (size_t)snprintf(buf, len, "[");
    for (int32_t i = 0; i < ndim && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, i ? ", %lld" : "%lld", (long long)sizes[i]);
    if (used < len) snprintf(buf + used, len - used, "]");
}

/* `out` may be `a` or `b` (callers fold a list of shapes into one buffer): the result is built in a
 * local array, because writing out[i] in place would clobber a[i] before a later, right-aligned
 * position reads it when the ranks differ. */
int tc_shape_broadcast(int32_t na, const int64_t *a, int32_t nb, const int64_t *b, int32_t *nout,
                       int64_t *out) {
    int32_t n = na > nb ? na : nb;
    int64_t result[TC_MAX_DIMS];
    if (n > TC_MAX_DIMS)
        return tc_set_error(TC_ERR_RUNTIME, "tensors may have at most %d dimensions, got %d", TC_MAX_DIMS, n);
    for (int32_t i = 0; i < n; i++) {
        int32_t ia = na - n + i, ib = nb - n + i;
        int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            char fa[256], fb[256];
            tc_shape_format(na, a, fa, sizeof fa);
            tc_shape_format(nb, b, fb, sizeof fb);
            return tc_set_error(TC_ERR_RUNTIME,
                                "The size of tensor a (%lld) must match the size of tensor b (%lld) at "
                                "non-singleton dimension %d (shapes %s and %s)",
                                (long long)sa, (long long)sb, i, fa, fb);
        }
        result[i] = sa == 1 ? sb : sa;
    }
    memcpy(out, result, sizeof(int64_t) * (size_t)n);
    *nout = n;
    return TC_OK;
}

int tc_shape_wrap_dim(int64_t dim, int32_t ndim, int32_t *out) {
    int32_t range = ndim > 0 ? ndim : 1; /* a 0-dim tensor accepts dims -1 and 0 */
    if (dim < -range || dim >= range)
        return tc_set_error(TC_ERR_INDEX,
                            "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                            -range, range - 1, (long long)dim);
    *out = (int32_t)(dim < 0 ? dim + range : dim);
    return TC_OK;
}

bool tc_shape_equal(int32_t na, const int64_t *a, int32_t nb, const int64_t *b) {
    if (na != nb) return false;
    for (int32_t i = 0; i < na; i++)
        if (a[i] != b[i]) return false;
    return true;
}

int tc_shape_check_ndim(int64_t ndim) {
    if (ndim >= 0 && ndim <= TC_MAX_DIMS) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "tensors may have at most %d dimensions, got %lld", TC_MAX_DIMS, (long long)ndim);
}
