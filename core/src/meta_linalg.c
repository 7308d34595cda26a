/*
 * Meta functions of matrix products: mm (a[m,k] @ b[k,n]) and bmm (batches of them, batch sizes
 * equal). The kernels take operands of any strides and a contiguous output.
 */
#include "core_internal.h"

static int same_dtype(const tc_tensor *a, const tc_tensor *b, const char *what) {
    if (a->dtype == b->dtype) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "expected %s to have the same dtype, but got: %s != %s", what,
                        tc_dtype_name(a->dtype), tc_dtype_name(b->dtype));
}

static int product(tc_plan *p, tc_tensor *a, tc_tensor *b, int32_t ndim, const int64_t *sizes) {
    if (tc_plan_output(p, 0, ndim, sizes, a->dtype)) return TC_FAIL;
    /* out= may hand a strided tensor: the kernel writes a contiguous one, copied in afterwards */
    if (!tc_tensor_is_contiguous(p->out[0])) {
        tc_tensor *tmp = tc_empty(ndim, sizes, a->dtype, p->call->device);
        if (!tmp) return TC_FAIL;
        if (p->out[0] != p->target[0]) tc_tensor_release(p->out[0]);
        p->out[0] = tmp;
    }
    p->dtype = a->dtype;
    return tc_plan_input(p, a, -1) || tc_plan_input(p, b, -1) ? TC_FAIL : TC_OK;
}

int tc_meta_mm(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    if (a->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "self must be a matrix");
    if (b->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "mat2 must be a matrix");
    if (a->sizes[1] != b->sizes[0])
        return tc_set_error(TC_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                            (long long)a->sizes[0], (long long)a->sizes[1], (long long)b->sizes[0],
                            (long long)b->sizes[1]);
    if (same_dtype(a, b, "mat1 and mat2")) return TC_FAIL;
    int64_t sizes[2] = {a->sizes[0], b->sizes[1]};
    return product(p, a, b, 2, sizes);
}

int tc_meta_bmm(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    if (a->ndim != 3) return tc_set_error(TC_ERR_RUNTIME, "batch1 must be a 3D tensor");
    if (b->ndim != 3) return tc_set_error(TC_ERR_RUNTIME, "batch2 must be a 3D tensor");
    if (b->sizes[0] != a->sizes[0] || b->sizes[1] != a->sizes[2])
        return tc_set_error(TC_ERR_RUNTIME, "Expected size for first two dimensions of batch2 tensor to be: "
                                            "[%lld, %lld] but got: [%lld, %lld].", (long long)a->sizes[0],
                            (long long)a->sizes[2], (long long)b->sizes[0], (long long)b->sizes[1]);
    if (a->dtype != b->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "expected scalar type %s but found %s", tc_dtype_name(a->dtype),
                            tc_dtype_name(b->dtype));
    int64_t sizes[3] = {a->sizes[0], a->sizes[1], b->sizes[2]};
    return product(p, a, b, 3, sizes);
}
