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
    return TC_OK;
}

int tc_meta_check_supported(const tc_opcall *c, int32_t compute) {
    uint32_t flags = c->op->schema.flags;
    if ((compute == TC_BOOL && (flags & TC_OPF_NO_BOOL)) ||
        (!tc_dtype_is_floating(compute) && !tc_dtype_is_complex(compute) && (flags & TC_OPF_FLOAT_ONLY)) ||
        (tc_dtype_is_floating(compute) && c->op->dtype_rule == TC_RULE_INT_ONLY))
        return tc_meta_refuse_dtype(c, compute);
    return TC_OK;
}

/* PyTorch's words for a dtype an op has no kernel for, naming the kernel as PyTorch does (x & 1.5 is
 * "bitwise_and" not implemented for 'Float', torch.fix is "trunc"). */
int tc_meta_refuse_dtype(const tc_opcall *c, int32_t dtype) {
    const char *name = c->op->kernel >= 0 ? tc_kernel_name(c->op->kernel) : c->op->schema.name;
    int len = (int)strlen(name);
    if (c->op->variant == TC_VARIANT_INPLACE && len > 1 && name[len - 1] == '_') len--; /* a composite's abs_ */
    return tc_set_error(TC_ERR_RUNTIME, "\"%.*s\" not implemented for '%s'", len, name, tc_dtype_scalar_name(dtype));
}

/* Ops of PyTorch's "unary op" kind (dtype=same: abs, floor, bitwise_not, ...) write their result into an
 * out= tensor of exactly the result's dtype, without the usual cast. */
static int check_same_dtype_out(const tc_opcall *c, int32_t result) {
    return c->op->dtype_rule == TC_RULE_SAME ? tc_meta_check_out_dtype(c, result) : TC_OK;
}

int tc_meta_check_out_dtype(const tc_opcall *c, int32_t result) {
    if (c->op->variant != TC_VARIANT_OUT) return TC_OK;
    const tc_op_schema *s = &c->op->schema;
    int32_t arg = s->n_returns > 0 ? s->returns[0].alias_arg : -1;
    tc_tensor *out = arg >= 0 && c->args[arg].tag == TC_VALUE_TENSOR ? c->args[arg].v.tensor : NULL;
    if (out && out->dtype != result)
        return tc_set_error(TC_ERR_RUNTIME, "Found dtype %s but expected %s", tc_dtype_scalar_name(out->dtype),
                            tc_dtype_scalar_name(result));
    return TC_OK;
}

tc_tensor *tc_meta_operand(const tc_opcall *c, int i, tc_tensor **owned) {
    *owned = NULL;
    const tc_value *v = &c->args[i];
    if (v->tag == TC_VALUE_TENSOR) return v->v.tensor;
    if (v->tag != TC_VALUE_SCALAR) {
        tc_set_error(TC_ERR_RUNTIME, "internal error: argument %d of %s is no operand", i, c->op->schema.name);
        return NULL;
    }
    tc_scalar s = v->v.scalar;
    int32_t dtype = s.kind == TC_SCALAR_BOOL      ? TC_BOOL
                    : s.kind == TC_SCALAR_INT     ? TC_INT64
                    : s.kind == TC_SCALAR_COMPLEX ? TC_COMPLEX128
                                                  : TC_FLOAT64;
    if ((*owned = tc_scalar_tensor(s, dtype))) (*owned)->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return *owned;
}

/* Operands (tensors), their broadcast shape, dtypes; then the output and the kernel's inputs. */
int tc_meta_elementwise(tc_opcall *c, tc_plan *p, tc_tensor *const *ts, int n) {
    int32_t compute, result;
    if (tc_elementwise_dtypes(c, ts, n, &compute, &result) || check_same_dtype_out(c, result)) return TC_FAIL;
    /* as in PyTorch, an in-place result that cannot be cast is refused before the dtype itself */
    if (tc_meta_elementwise_as(p, ts, n, compute, result)) return TC_FAIL;
    return tc_meta_check_supported(c, compute);
}

int tc_meta_elementwise_as(tc_plan *p, tc_tensor *const *ts, int n, int32_t compute, int32_t result) {
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
    tc_tensor *owned[2], *ts[2] = {tc_meta_operand(c, 0, &owned[0]), tc_meta_operand(c, 1, &owned[1])};
    int rc = ts[0] && ts[1] ? tc_meta_elementwise(c, p, ts, 2) : TC_FAIL;
    tc_tensor_release(owned[0]);
    tc_tensor_release(owned[1]);
    if (rc) return TC_FAIL;
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
    int bools = 0;
    for (int i = 0; i < 2; i++)
        bools += c->args[i].tag == TC_VALUE_TENSOR ? c->args[i].v.tensor->dtype == TC_BOOL
                                                   : c->args[i].v.scalar.kind == TC_SCALAR_BOOL;
    if (bools == 2)
        return tc_set_error(TC_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. "
                                            "Use the `^` or `logical_xor()` operator instead.");
    if (bools)
        return tc_set_error(TC_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not supported. "
                                            "If you are trying to invert a mask, use the `~` or `logical_not()` "
                                            "operator instead.");
    return tc_meta_binary(c, p);
}

/* A Python number as a floating pow's exponent becomes the kernel's scalar: PyTorch computes x ** 2,
 * x ** 0.5, ... by their own formulas for a number, but not for a tensor of exponents. */
int tc_meta_pow_plan_exponent(tc_opcall *c, tc_plan *p) {
    if (!tc_dtype_is_floating(p->dtype)) return TC_OK;
    if (c->args[1].tag == TC_VALUE_SCALAR) return tc_plan_scalar(p, c->args[1].v.scalar);
    tc_tensor *e = tc_arg_tensor(c, 1);
    tc_scalar v;
    if (c->args[0].tag != TC_VALUE_TENSOR || !(e->flags & TC_TENSOR_WRAPPED_NUMBER)) return TC_OK;
    return tc_tensor_get(e, 0, &v) || tc_plan_scalar(p, v) ? TC_FAIL : TC_OK;
}

/* A Python number operand of pow converted to the computation's dtype, range-checked as PyTorch
 * converts it: integers take either operand checked; float16 and bfloat16 check the exponent
 * (torch.pow(half, 1e10) raises); float and double take any number. */
static int pow_number_fits(tc_scalar v, int32_t dtype, bool exponent) {
    const bool reduced = dtype == TC_FLOAT16 || dtype == TC_BFLOAT16;
    if (tc_dtype_is_floating(dtype) && !(reduced && exponent)) return TC_OK;
    if (tc_scalar_fits(v, dtype)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                        dtype == TC_FLOAT16 ? "at::Half" : dtype == TC_BFLOAT16 ? "at::BFloat16" : tc_dtype_name(dtype));
}

/* PyTorch refuses an integer tensor raised to a negative integer *scalar* (x ** -1) before computing,
 * but computes with a tensor of exponents (1 for a base of 1, +-1 for -1, 0 otherwise); only the core
 * can tell a wrapped Python number from a tensor. */
int tc_meta_pow(tc_opcall *c, tc_plan *p) {
    if (tc_meta_binary(c, p)) return TC_FAIL;
    if (tc_dtype_is_complex(p->dtype)) return tc_meta_pow_complex(c, p);
    if (tc_meta_pow_plan_exponent(c, p)) return TC_FAIL;
    if (c->args[1].tag == TC_VALUE_SCALAR) { /* pow.Tensor_Scalar: the exponent is a Python number */
        tc_scalar v = c->args[1].v.scalar;
        if (!tc_dtype_is_floating(p->dtype) && v.kind != TC_SCALAR_FLOAT && v.v.i < 0)
            return tc_set_error(TC_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
        return pow_number_fits(v, p->dtype, true);
    }
    tc_tensor *e = tc_arg_tensor(c, 1);
    /* a Python number bound to the Tensor overload: pow.Tensor_Scalar's out= keeps the dtype exactly */
    if ((e->flags & TC_TENSOR_WRAPPED_NUMBER) && c->args[0].tag == TC_VALUE_TENSOR && tc_meta_check_out_dtype(c, p->dtype))
        return TC_FAIL;
    for (int i = 0; i < 2; i++) { /* PyTorch converts a Python number operand of pow with a range check */
        if (c->args[i].tag != TC_VALUE_TENSOR) continue;
        tc_tensor *t = tc_arg_tensor(c, i);
        tc_scalar v;
        if (!(t->flags & TC_TENSOR_WRAPPED_NUMBER)) continue;
        if (tc_tensor_get(t, 0, &v)) return TC_FAIL;
        if (!tc_dtype_is_floating(p->dtype) && i == 1 && v.kind != TC_SCALAR_FLOAT && v.v.i < 0)
            return tc_set_error(TC_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
        if (pow_number_fits(v, p->dtype, i == 1)) return TC_FAIL;
    }
    return TC_OK;
}

int tc_meta_unary(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    /* bitwise_not is one of PyTorch's unary ops too: its out= keeps the dtype exactly */
    if (c->op->dtype_rule == TC_RULE_INT_ONLY && tc_meta_check_out_dtype(c, self->dtype)) return TC_FAIL;
    return tc_meta_elementwise(c, p, &self, 1);
}

/* sign of a complex tensor is refused (sgn is its complex form; both run the "sign" kernel) */
int tc_meta_sign(tc_opcall *c, tc_plan *p) {
    if (tc_dtype_is_complex(tc_arg_tensor(c, 0)->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "Unlike NumPy, torch.sign is not intended to support complex numbers. "
                                            "Please use torch.sgn instead.");
    return tc_meta_unary(c, p);
}

int tc_meta_neg(tc_opcall *c, tc_plan *p) {
    if (tc_arg_tensor(c, 0)->dtype == TC_BOOL)
        return tc_set_error(TC_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you "
                                            "are trying to invert a mask, use the `~` or `logical_not()` operator "
                                            "instead.");
    return tc_meta_unary(c, p);
}
