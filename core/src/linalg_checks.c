/*
 * PyTorch's checks of linear algebra arguments, with its messages, and its reading of the info
 * results LAPACK leaves (_linalg_check_errors): shared by the meta functions and the composites.
 */
#include "linalg.h"

#include <stdio.h>
#include <string.h>

int tc_linalg_check_matrix(const tc_tensor *t, const char *api, const char *name) {
    if (t->ndim >= 2) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s: The input tensor %s must have at least 2 dimensions.", api, name);
}

int tc_linalg_check_cdist(const tc_tensor *x1, const tc_tensor *x2) {
    if (x1->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "cdist only supports at least 2D tensors, X1 got: %dD", x1->ndim);
    if (x2->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "cdist only supports at least 2D tensors, X2 got: %dD", x2->ndim);
    if (x1->sizes[x1->ndim - 1] != x2->sizes[x2->ndim - 1])
        return tc_set_error(TC_ERR_RUNTIME, "X1 and X2 must have the same number of columns. X1: %lld X2: %lld",
                            (long long)x1->sizes[x1->ndim - 1], (long long)x2->sizes[x2->ndim - 1]);
    return TC_OK;
}

int tc_linalg_check_square(const tc_tensor *t, const char *api, const char *name) {
    if (api && tc_linalg_check_matrix(t, api, name)) return TC_FAIL;
    const int64_t r = t->sizes[t->ndim - 2], c = t->sizes[t->ndim - 1];
    if (r == c) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s%s%s must be batches of square matrices, but they are %lld by %lld matrices",
                        api ? api : "", api ? ": " : "", name, (long long)r, (long long)c);
}

int tc_linalg_check_floating(const tc_tensor *t, const char *api, bool low_precision) {
    /* complex inputs are the callers' (tc_linalg_check_inexact): every linalg kernel takes them */
    if (!tc_dtype_is_floating(t->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "%s: Expected a floating point or complex tensor as input. Got %s", api,
                            tc_dtype_scalar_name(t->dtype));
    if (!low_precision && (t->dtype == TC_FLOAT16 || t->dtype == TC_BFLOAT16))
        return tc_set_error(TC_ERR_RUNTIME, "%s: Low precision dtypes not supported. Got %s", api,
                            tc_dtype_scalar_name(t->dtype));
    return TC_OK;
}

int tc_linalg_check_inexact(const tc_tensor *t, const char *api, bool low_precision) {
    if (t->dtype == TC_COMPLEX64 || t->dtype == TC_COMPLEX128) return TC_OK;
    if (t->dtype == TC_COMPLEX32 && low_precision) return TC_OK; /* the kernel names it ("lu_cpu" not ...) */
    if (t->dtype == TC_COMPLEX32)
        return tc_set_error(TC_ERR_RUNTIME, "%s: Low precision dtypes not supported. Got %s", api,
                            tc_dtype_scalar_name(t->dtype));
    return tc_linalg_check_floating(t, api, low_precision);
}

int tc_linalg_output(tc_plan *p, int32_t i, int32_t ndim, const int64_t *sizes, int32_t dtype) {
    const tc_opcall *c = p->call;
    if (c->op->variant == TC_VARIANT_OUT) {
        const tc_op_schema *s = &c->op->schema;
        const tc_tensor *out = c->args[s->returns[i].alias_arg].v.tensor;
        if (out->dtype != dtype)
            return tc_set_error(TC_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                                tc_dtype_cpp_name(dtype), tc_dtype_cpp_name(out->dtype));
    }
    return tc_plan_output(p, i, ndim, sizes, dtype);
}

int32_t tc_linalg_shape(const tc_tensor *t, int32_t mdims, int32_t ntail, const int64_t *tail, int64_t *out) {
    const int32_t nb = t->ndim - mdims;
    memcpy(out, t->sizes, sizeof(int64_t) * (size_t)nb);
    memcpy(out + nb, tail, sizeof(int64_t) * (size_t)ntail);
    return nb + ntail;
}

/* The info values as int32 on the CPU: the tensor itself, or a copy of it. */
static tc_tensor *info_on_cpu(tc_tensor *info) {
    if (info->device.type == TC_DEVICE_CPU && info->dtype == TC_INT32 && tc_tensor_is_contiguous(info)) {
        tc_tensor_retain(info);
        return info;
    }
    const tc_device cpu = {TC_DEVICE_CPU, 0};
    return tc__to_copy(info, TC_INT32, -1, &cpu, NULL, false, TC_MEMORY_FORMAT_CONTIGUOUS);
}

int tc_linalg_check_errors(tc_tensor *info, const char *api, bool is_matrix) {
    const int32_t meta = tc_device_type_id("meta");
    if (meta >= 0 && info->device.type == meta) return TC_OK;
    tc_tensor *host = info_on_cpu(info);
    if (!host) return TC_FAIL;
    const int32_t *v = tc_tensor_data(host);
    const int64_t n = tc_tensor_numel(host);
    int64_t i = 0;
    while (i < n && v[i] == 0) i++;
    const int32_t code = i < n ? v[i] : 0;
    tc_tensor_release(host);
    if (!code) return TC_OK;
    char batch[64] = "";
    if (!is_matrix) snprintf(batch, sizeof batch, ": (Batch element %lld)", (long long)i);
    if (code < 0)
        return tc_set_error(TC_ERR_RUNTIME, "%s%s: Argument %d has illegal value. Most certainly there is a bug in the "
                                            "implementation calling the backend library.", api, batch, -code);
    if (strstr(api, "inv"))
        return tc_set_error(TC_ERR_LINALG, "%s%s: The diagonal element %d is zero, the inversion could not be "
                                           "completed because the input matrix is singular.", api, batch, code);
    if (strstr(api, "solve"))
        return tc_set_error(TC_ERR_LINALG, "%s%s: The solver failed because the input matrix is singular.", api, batch);
    if (strstr(api, "cholesky"))
        return tc_set_error(TC_ERR_LINALG, "%s%s: The factorization could not be completed because the input is not "
                                           "positive-definite (the leading minor of order %d is not positive-definite).",
                            api, batch, code);
    if (strstr(api, "svd"))
        return tc_set_error(TC_ERR_LINALG, "%s%s: The algorithm failed to converge because the input matrix is "
                                           "ill-conditioned or has too many repeated singular values (error code: %d).",
                            api, batch, code);
    if (strstr(api, "eig") || strstr(api, "syevd"))
        return tc_set_error(TC_ERR_LINALG, "%s%s: The algorithm failed to converge because the input matrix is "
                                           "ill-conditioned or has too many repeated eigenvalues (error code: %d).",
                            api, batch, code);
    if (strstr(api, "lstsq"))
        return tc_set_error(TC_ERR_LINALG, "%s%s: The least squares solution could not be computed because the input "
                                           "matrix does not have full rank (error code: %d).", api, batch, code);
    if (strstr(api, "lu_factor"))
        return tc_set_error(TC_ERR_RUNTIME, "%s%s: U[%d,%d] is zero and using it on lu_solve would result in a division "
                                            "by zero. If you still want to perform the factorization, consider calling "
                                            "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)", api, batch, code,
                            code);
    return tc_set_error(TC_ERR_RUNTIME, "%s: Unknown error code: %d.", api, code);
}
