/*
 * Meta functions of elementwise ops: broadcast the operands, apply the op's dtype rule (ops.table's
 * dtype=), refuse the dtypes the op refuses with PyTorch's words, and hand the kernel operands of
 * one compute dtype presented at the output's sizes.
 */
#include "core_internal.h"

#include <string.h>

/* The result and compute dtypes of the op's rule over its operands. */
int tc_elementwise_dtypes(const tc_opcall *c, tc_tensor *const *ts, int n, int32_t *compute, int32_t *result) {
    int32_t common = tc_result_type(ts, n);
    switch (c->op->dtype_rule) {
    case TC_RULE_FLOAT:
        if (!tc_dtype_is_floating(common) && !tc_dtype_is_complex(common)) common = tc_default_dtype();
        *compute = *result = common;
        break;
    case TC_RULE_COMPARE:
        *compute = common;
        *result = TC_BOOL;
        break;
    default:
        *compute = *result = common;
    }
    uint32_t flags = c->op->schema.flags;
    if (*compute == TC_BOOL && (flags & TC_OPF_NO_BOOL))
        return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for 'bool'", c->op->schema.name);
    if (!tc_dtype_is_floating(*compute) && !tc_dtype_is_complex(*compute) && (flags & TC_OPF_FLOAT_ONLY))
        return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'", c->op->schema.name,
                            tc_dtype_name(*compute));
    return TC_OK;
}

/* Operands (tensors), their broadcast shape, dtypes; then the output and the kernel's inputs. */
static int elementwise(tc_opcall *c, tc_plan *p, tc_tensor *const *ts, int n) {
    int32_t compute, result;
    if (tc_elementwise_dtypes(c, ts, n, &compute, &result)) return TC_FAIL;
    int32_t ndim = ts[0]->ndim;
    int64_t shape[TC_MAX_DIMS];
    memcpy(shape, ts[0]->sizes, sizeof(int64_t) * (size_t)ndim);
    for (int i = 1; i < n; i++)
        if (tc_shape_broadcast(ndim, shape, ts[i]->ndim, ts[i]->sizes, &ndim, shape)) return TC_FAIL;
    if (tc_plan_output(p, 0, ndim, shape, result)) return TC_FAIL;
    for (int i = 0; i < n; i++)
        if (tc_plan_input(p, ts[i], compute)) return TC_FAIL;
    p->dtype = compute;
    p->flags |= TC_PLAN_BROADCAST;
    return TC_OK;
}

/* Binary ops: (self, other[, alpha]). An alpha, when the schema has one, is the kernel's scalar. */
int tc_meta_binary(tc_opcall *c, tc_plan *p) {
    tc_tensor *ts[2] = {tc_arg_tensor(c, 0), tc_arg_tensor(c, 1)};
    if (elementwise(c, p, ts, 2)) return TC_FAIL;
    const tc_op_schema *s = &c->op->schema;
    if (s->n_args > 2 && s->args[2].type == TC_VALUE_SCALAR && strcmp(s->args[2].name, "alpha") == 0) {
        tc_scalar alpha = c->args[2].v.scalar;
        bool complex = tc_dtype_is_complex(p->dtype);
        if (!tc_dtype_is_floating(p->dtype) && !complex &&
            (alpha.kind == TC_SCALAR_FLOAT || alpha.kind == TC_SCALAR_COMPLEX))
            return tc_set_error(TC_ERR_RUNTIME, "For integral input tensors, argument alpha must not be a floating "
                                                "point number.");
        if (!complex && alpha.kind == TC_SCALAR_COMPLEX)
            return tc_set_error(TC_ERR_RUNTIME, "For non-complex input tensors, argument alpha must not be a complex "
                                                "number.");
        if (tc_plan_scalar(p, alpha)) return TC_FAIL;
    }
    return TC_OK;
}

/* PyTorch refuses a bool operand of `-` whatever the other one is (2 - mask, x - True): the promoted
 * dtype is not bool then, so the operands themselves are looked at. */
int tc_meta_sub(tc_opcall *c, tc_plan *p) {
    int bools = (tc_arg_tensor(c, 0)->dtype == TC_BOOL) + (tc_arg_tensor(c, 1)->dtype == TC_BOOL);
    if (bools == 2)
        return tc_set_error(TC_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. "
                                            "Use the `^` or `logical_xor()` operator instead.");
    if (bools)
        return tc_set_error(TC_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not supported. "
                                            "If you are trying to invert a mask, use the `~` or `logical_not()` "
                                            "operator instead.");
    return tc_meta_binary(c, p);
}

/* PyTorch refuses an integer tensor raised to a negative integer *scalar* (x ** -1) before computing,
 * but computes with a tensor of exponents (1 for a base of 1, +-1 for -1, 0 otherwise); only the core
 * can tell a wrapped Python number from a tensor. */
int tc_meta_pow(tc_opcall *c, tc_plan *p) {
    if (tc_meta_binary(c, p)) return TC_FAIL;
    if (tc_dtype_is_complex(p->dtype)) return tc_meta_pow_complex(c, p);
    if (tc_dtype_is_floating(p->dtype)) return TC_OK;
    for (int i = 0; i < 2; i++) { /* PyTorch converts a Python number operand of pow with a range check */
        tc_tensor *t = tc_arg_tensor(c, i);
        tc_scalar v;
        if (!(t->flags & TC_TENSOR_WRAPPED_NUMBER)) continue;
        if (tc_tensor_get(t, 0, &v)) return TC_FAIL;
        if (i == 1 && v.kind != TC_SCALAR_FLOAT && v.v.i < 0)
            return tc_set_error(TC_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
        if (!tc_scalar_fits(v, p->dtype))
            return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                                tc_dtype_name(p->dtype));
    }
    return TC_OK;
}

int tc_meta_unary(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    return elementwise(c, p, &self, 1);
}

int tc_meta_neg(tc_opcall *c, tc_plan *p) {
    if (tc_arg_tensor(c, 0)->dtype == TC_BOOL)
        return tc_set_error(TC_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you "
                                            "are trying to invert a mask, use the `~` or `logical_not()` operator "
                                            "instead.");
    return tc_meta_unary(c, p);
}
