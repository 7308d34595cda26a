/*
 * Meta functions of the complex family: complex and polar (two real tensors of one floating dtype,
 * broadcast, to the matching complex dtype), the ops whose complex results are real (abs, angle),
 * and the complex parts of pow (Python-number exponents) and sum (a reduction of the parts).
 */
#include "core_internal.h"

#include <string.h>

/* complex(real, imag) and polar(abs, angle): PyTorch's checks, in its order and words. */
int tc_meta_complex(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    bool fa = a->dtype == TC_FLOAT16 || a->dtype == TC_FLOAT32 || a->dtype == TC_FLOAT64;
    bool fb = b->dtype == TC_FLOAT16 || b->dtype == TC_FLOAT32 || b->dtype == TC_FLOAT64;
    if (!fa || !fb)
        return tc_set_error(TC_ERR_RUNTIME, "Expected both inputs to be Half, Float or Double tensors but got %s "
                                            "and %s", tc_dtype_scalar_name(a->dtype), tc_dtype_scalar_name(b->dtype));
    if (a->dtype != b->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "Expected object of scalar type %s but got scalar type %s for second "
                                            "argument", tc_dtype_scalar_name(a->dtype), tc_dtype_scalar_name(b->dtype));
    int32_t complex = tc_dtype_to_complex(a->dtype);
    if (c->op->variant == TC_VARIANT_OUT) {
        tc_tensor *out = c->args[2].v.tensor;
        if (out->dtype != complex)
            return tc_set_error(TC_ERR_RUNTIME, "Expected object of scalar type %s but got scalar type %s for "
                                                "argument 'out'", tc_dtype_scalar_name(complex),
                                tc_dtype_scalar_name(out->dtype));
    }
    int32_t ndim;
    int64_t shape[TC_MAX_DIMS];
    if (tc_shape_broadcast(a->ndim, a->sizes, b->ndim, b->sizes, &ndim, shape)) return TC_FAIL;
    if (tc_plan_output(p, 0, ndim, shape, complex) || tc_plan_input(p, a, -1) || tc_plan_input(p, b, -1))
        return TC_FAIL;
    p->dtype = complex;
    p->flags |= TC_PLAN_BROADCAST;
    return TC_OK;
}

/* abs and angle: the op's dtype rule for the input, a real result (complex64 -> float32). PyTorch
 * has no in-place form of them for complex tensors. */
int tc_meta_to_real(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t compute, result;
    if (tc_elementwise_dtypes(c, &self, 1, &compute, &result)) return TC_FAIL;
    /* abs of a real tensor is of PyTorch's unary kind: its out= keeps the dtype exactly (a complex abs casts) */
    if (c->op->dtype_rule == TC_RULE_SAME && !tc_dtype_is_complex(result) && tc_meta_check_out_dtype(c, result))
        return TC_FAIL;
    if (tc_meta_check_supported(c, compute)) return TC_FAIL;
    if (tc_dtype_is_complex(compute) && c->op->variant == TC_VARIANT_INPLACE) {
        const char *name = c->op->schema.name;
        return tc_set_error(TC_ERR_RUNTIME, "In-place %.*s is not supported for complex tensors.",
                            (int)strlen(name) - 1, name);
    }
    if (tc_plan_output(p, 0, self->ndim, self->sizes, tc_dtype_to_real(result)) || tc_plan_input(p, self, compute))
        return TC_FAIL;
    p->dtype = compute;
    return TC_OK;
}

int tc_meta_pow_complex(tc_opcall *c, tc_plan *p) {
    if (c->args[1].tag == TC_VALUE_SCALAR) return tc_plan_scalar(p, c->args[1].v.scalar); /* pow.Tensor_Scalar */
    if (c->args[1].tag != TC_VALUE_TENSOR) return TC_OK; /* pow.Scalar: a number raised to a tensor */
    tc_tensor *exponent = tc_arg_tensor(c, 1);
    if (!(exponent->flags & TC_TENSOR_WRAPPED_NUMBER)) return TC_OK;
    tc_scalar e;
    if (tc_tensor_get(exponent, 0, &e)) return TC_FAIL;
    return tc_plan_scalar(p, e);
}

int tc_plan_complex_parts(tc_plan *p) {
    tc_tensor *out = p->kview[0] ? p->kview[0] : p->out[0];
    tc_tensor *view = tc_complex_as_real(out, 1);
    if (!view) return TC_FAIL;
    p->dtype = tc_dtype_to_real(out->dtype); /* before the release: out may be the kernel view */
    tc_tensor_release(p->kview[0]);
    p->kview[0] = view;
    return TC_OK;
}

int tc_meta_sum_complex(tc_plan *p, tc_tensor *self, int32_t dtype) {
    if (dtype == TC_COMPLEX32) /* PyTorch 1.13 sums no complex32 */
        return tc_set_error(TC_ERR_RUNTIME, "\"sum_cpu\" not implemented for 'ComplexHalf'");
    tc_tensor *x = tc_kernel_cast(self, dtype);
    tc_tensor *parts = x ? tc_complex_as_real(x, 1) : NULL;
    tc_tensor_release(x);
    if (!parts) return TC_FAIL;
    int rc = tc_plan_input(p, parts, -1);
    tc_tensor_release(parts);
    return rc ? TC_FAIL : tc_plan_complex_parts(p);
}
