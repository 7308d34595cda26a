/*
 * Meta functions of the pointwise ops whose checks or contract go beyond meta_elementwise.c's unary
 * and binary shapes: parameters the kernel needs (round's decimals, logit's eps, polygamma's n),
 * PyTorch's op-specific dtype rules (float_power always in float64, lerp and heaviside without
 * promotion) and three-operand ops (clamp, lerp, addcmul, addcdiv). Every check raises PyTorch's
 * exception type with its words.
 */
#include "core_internal.h"

#include <math.h>
#include <string.h>

/* Index of the argument called `name`, -1 when the schema has none. */
static int arg_index(const tc_opcall *c, const char *name) {
    const tc_op_schema *s = &c->op->schema;
    for (int32_t i = 0; i < s->n_args; i++)
        if (strcmp(s->args[i].name, name) == 0) return i;
    return -1;
}

/* The C++ type names PyTorch's dtype checks print ("expected dtype float for `end`"). */
static const char *cpp_type_name(int32_t dtype) {
    static const char *names[TC_NUM_DTYPES] = {"bool",      "unsigned char", "signed char",    "short int", "int",
                                               "long int",  "c10::Half",     "c10::BFloat16",  "float",     "double"};
    return dtype >= 0 && dtype < TC_NUM_DTYPES ? names[dtype] : "unknown";
}

/* A 0-dim tensor of `dtype` holding v (converted as a store converts). */
static tc_tensor *constant(tc_scalar v, int32_t dtype) { return tc_scalar_tensor(v, dtype); }

/* Releases the operands a meta function made for Scalar arguments. */
static void release_all(tc_tensor **ts, int n) {
    for (int i = 0; i < n; i++) tc_tensor_release(ts[i]);
}

/* ---- one operand and a parameter ---- */

/* round.decimals(self, *, decimals): float dtypes only, even with decimals 0 (which is round's
 * kernel); kernel ints[0] = decimals. */
int tc_meta_round_decimals(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int64_t decimals = tc_arg_int(c, 1);
    if (!tc_dtype_is_floating(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"round\" not implemented for '%s'", tc_dtype_scalar_name(self->dtype));
    if (decimals == 0) p->kernel = TC_KERNEL_round;
    if (tc_meta_unary(c, p)) return TC_FAIL;
    return tc_plan_int(p, decimals);
}

/* logit(self, eps=None): kernel scalars[0] = eps, negative for None (no clamping). */
int tc_meta_logit(tc_opcall *c, tc_plan *p) {
    double eps = tc_arg_none(c, 1) ? -1.0 : c->args[1].v.f;
    if (tc_meta_unary(c, p)) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(eps));
}

/* polygamma(n, self) and polygamma_(self, n): kernel ints[0] = n. */
int tc_meta_polygamma(tc_opcall *c, tc_plan *p) {
    int self_at = arg_index(c, "self"), n_at = arg_index(c, "n");
    int64_t n = tc_arg_int(c, n_at);
    if (n < 0) return tc_set_error(TC_ERR_RUNTIME, "polygamma(n, x) does not support negative n.");
    tc_tensor *self = tc_arg_tensor(c, self_at);
    if (tc_meta_elementwise(c, p, &self, 1)) return TC_FAIL;
    return tc_plan_int(p, n);
}

/* mvlgamma(self, p): kernel ints[0] = p. */
int tc_meta_mvlgamma(tc_opcall *c, tc_plan *p) {
    int64_t dims = tc_arg_int(c, 1);
    if (dims < 1) return tc_set_error(TC_ERR_RUNTIME, "p has to be greater than or equal to 1");
    if (tc_arg_tensor(c, 0)->dtype == TC_BOOL)
        return tc_set_error(TC_ERR_RUNTIME, "The input tensor may not be a boolean tensor.");
    if (tc_meta_unary(c, p)) return TC_FAIL;
    return tc_plan_int(p, dims);
}

/* The largest finite value of a floating dtype. */
static double float_max(int32_t dtype) {
    switch (dtype) {
    case TC_FLOAT16: return 65504.0;
    case TC_BFLOAT16: return 3.3895313892515355e38;
    case TC_FLOAT32: return 3.4028234663852886e38;
    default: return 1.7976931348623157e308;
    }
}

/* nan_to_num(self, nan, posinf, neginf): the result has self's dtype, out= too; kernel scalars =
 * the replacements for NaN, +inf and -inf (defaults 0 and the dtype's extremes). Integer tensors
 * hold no NaN or infinity: their kernel copies. */
int tc_meta_nan_to_num(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int out_at = c->op->variant == TC_VARIANT_OUT ? c->op->schema.returns[0].alias_arg : -1;
    if (out_at >= 0 && c->args[out_at].v.tensor->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "nan_to_num: dtype of out: %s should be same as input: %s",
                            tc_dtype_scalar_name(c->args[out_at].v.tensor->dtype), tc_dtype_scalar_name(self->dtype));
    if (tc_meta_unary(c, p)) return TC_FAIL;
    double top = tc_dtype_is_floating(self->dtype) ? float_max(self->dtype) : 0.0;
    double values[3] = {tc_arg_none(c, 1) ? 0.0 : c->args[1].v.f, tc_arg_none(c, 2) ? top : c->args[2].v.f,
                        tc_arg_none(c, 3) ? -top : c->args[3].v.f};
    for (int i = 0; i < 3; i++)
        if (tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(values[i]))) return TC_FAIL;
    return TC_OK;
}

/* signbit, isposinf, isneginf: a bool result, and out= must be bool too. */
int tc_meta_bool_test(tc_opcall *c, tc_plan *p) {
    const tc_op_schema *s = &c->op->schema;
    if (tc_dtype_is_complex(tc_arg_tensor(c, 0)->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "%s does not support complex inputs.", s->name);
    if (c->op->variant == TC_VARIANT_OUT && c->args[s->returns[0].alias_arg].v.tensor->dtype != TC_BOOL)
        return tc_set_error(TC_ERR_RUNTIME, "%s does not support non-boolean outputs.", s->name);
    return tc_meta_unary(c, p);
}

/* ---- two operands ---- */

/* heaviside(self, values): no promotion; the operands and any out= share one dtype. */
int tc_meta_heaviside(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *values = tc_arg_tensor(c, 1);
    if (values->flags & TC_TENSOR_WRAPPED_NUMBER)
        return tc_set_error(TC_ERR_TYPE, "heaviside(): argument 'values' (position 2) must be Tensor, not %s",
                            tc_dtype_is_floating(values->dtype) ? "float" : values->dtype == TC_BOOL ? "bool" : "int");
    int out_at = c->op->variant == TC_VARIANT_OUT ? c->op->schema.returns[0].alias_arg : -1;
    if (self->dtype != values->dtype || (out_at >= 0 && c->args[out_at].v.tensor->dtype != self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "heaviside is not yet implemented for tensors with different dtypes.");
    tc_tensor *ts[2] = {self, values};
    return tc_meta_elementwise_as(p, ts, 2, self->dtype, self->dtype);
}

/* float_power(self, exponent) in each Tensor/Scalar combination: computed in float64, and an
 * in-place or out= result must be float64 already. */
int tc_meta_float_power(tc_opcall *c, tc_plan *p) {
    if (c->op->variant == TC_VARIANT_INPLACE && tc_arg_tensor(c, 0)->dtype != TC_FLOAT64)
        return tc_set_error(TC_ERR_RUNTIME, "the base given to float_power_ has dtype %s but the operation's result "
                                            "requires dtype Double", tc_dtype_scalar_name(tc_arg_tensor(c, 0)->dtype));
    if (c->op->variant == TC_VARIANT_OUT) {
        tc_tensor *out = c->args[c->op->schema.returns[0].alias_arg].v.tensor;
        if (out->dtype != TC_FLOAT64)
            return tc_set_error(TC_ERR_RUNTIME, "the output given to float_power has dtype %s but the operation's "
                                                "result requires dtype Double", tc_dtype_scalar_name(out->dtype));
    }
    tc_tensor *owned[2] = {NULL, NULL}, *ts[2];
    int rc = TC_FAIL;
    if ((ts[0] = tc_meta_operand(c, 0, &owned[0])) && (ts[1] = tc_meta_operand(c, 1, &owned[1])))
        rc = tc_meta_elementwise_as(p, ts, 2, TC_FLOAT64, TC_FLOAT64);
    release_all(owned, 2);
    return rc ? rc : tc_meta_pow_plan_exponent(c, p); /* PyTorch: pow(self.double(), exponent) */
}

/* ---- three operands ---- */

/* A Scalar argument, or a Python number that bound to a Tensor argument (the Tensor overloads come
 * first in the table, so x.lerp(y, 0.5) arrives as lerp.Tensor with a wrapped number): *value is its
 * value and the result true; false for a real tensor or None. */
static int scalar_arg(const tc_value *v, tc_scalar *value, bool *is_scalar) {
    *is_scalar = false;
    if (v->tag == TC_VALUE_SCALAR) {
        *value = v->v.scalar;
        *is_scalar = true;
    } else if (v->tag == TC_VALUE_TENSOR && (v->v.tensor->flags & TC_TENSOR_WRAPPED_NUMBER)) {
        if (tc_tensor_get(v->v.tensor, 0, value)) return TC_FAIL;
        *is_scalar = true;
    }
    return TC_OK;
}

/* lerp(self, end, weight) with a Scalar or Tensor weight: self's floating dtype throughout (no
 * promotion: end and a tensor weight must match it); a Scalar weight becomes a 0-dim input. */
int tc_meta_lerp(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *end = tc_arg_tensor(c, 1);
    int32_t dtype = self->dtype;
    if (end->dtype != dtype)
        return tc_set_error(TC_ERR_RUNTIME, "expected dtype %s for `end` but got dtype %s", cpp_type_name(dtype),
                            cpp_type_name(end->dtype));
    tc_tensor *weight, *owned = NULL;
    tc_scalar w;
    bool is_scalar;
    if (scalar_arg(&c->args[2], &w, &is_scalar)) return TC_FAIL;
    if (!is_scalar) {
        weight = c->args[2].v.tensor;
        if (weight->dtype != dtype)
            return tc_set_error(TC_ERR_RUNTIME, "expected dtype %s for `weight` but got dtype %s", cpp_type_name(dtype),
                                cpp_type_name(weight->dtype));
    } else {
        if ((w.kind == TC_SCALAR_COMPLEX && !tc_dtype_is_complex(dtype)) || !tc_scalar_fits(w, dtype))
            return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                                cpp_type_name(dtype));
        if (!(weight = owned = constant(w, dtype))) return TC_FAIL;
    }
    int rc = TC_OK;
    if (!tc_dtype_is_floating(dtype) && !tc_dtype_is_complex(dtype)) rc = tc_meta_refuse_dtype(c, dtype);
    tc_tensor *ts[3] = {self, end, weight};
    if (rc == TC_OK) rc = tc_meta_elementwise_as(p, ts, 3, dtype, dtype);
    tc_tensor_release(owned);
    return rc;
}

static bool is_integral(int32_t dtype) { return !tc_dtype_is_floating(dtype) && !tc_dtype_is_complex(dtype); }

/* addcmul / addcdiv(self, tensor1, tensor2, *, value): promoted over the three tensors; kernel
 * scalars[0] = value. PyTorch refuses addcdiv of two integer tensors, whatever self is. */
int tc_meta_addc(tc_opcall *c, tc_plan *p) {
    tc_tensor *ts[3] = {tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), tc_arg_tensor(c, 2)};
    bool divides = strncmp(c->op->schema.name, "addcdiv", 7) == 0;
    if (divides && is_integral(ts[1]->dtype) && is_integral(ts[2]->dtype))
        return tc_set_error(TC_ERR_RUNTIME,
                            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
                            "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
                            "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
                            "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
                            "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
                            "for all dtypes.");
    if (tc_meta_elementwise(c, p, ts, 3)) return TC_FAIL;
    return tc_plan_scalar(p, c->args[3].v.scalar);
}

/* The bound an absent clamp limit stands for: the dtype's extreme, so the kernel always has both. */
static tc_tensor *open_bound(int32_t dtype, bool upper) {
    tc_scalar v;
    switch (dtype) {
    case TC_BOOL: v = TC_SCALAR_OF_INT(upper); break;
    case TC_UINT8: v = TC_SCALAR_OF_INT(upper ? UINT8_MAX : 0); break;
    case TC_INT8: v = TC_SCALAR_OF_INT(upper ? INT8_MAX : INT8_MIN); break;
    case TC_INT16: v = TC_SCALAR_OF_INT(upper ? INT16_MAX : INT16_MIN); break;
    case TC_INT32: v = TC_SCALAR_OF_INT(upper ? INT32_MAX : INT32_MIN); break;
    case TC_INT64: v = TC_SCALAR_OF_INT(upper ? INT64_MAX : INT64_MIN); break;
    default: v = TC_SCALAR_OF_FLOAT(upper ? INFINITY : -INFINITY);
    }
    return constant(v, dtype);
}

/* clamp / clip (Scalar or Tensor bounds), clamp_min, clamp_max. The kernel `clamp` always gets
 * (self, min, max) in the promoted dtype, an absent bound being the dtype's extreme; NaN propagates
 * from every input. PyTorch's rules on top of that:
 *   - at least one bound; bounds promote with self (Python numbers as wrapped numbers);
 *   - Scalar bounds (Python numbers): an out= result keeps the dtype exactly, a bound must fit the
 *     dtype, and a NaN bound fills the result with NaN for clamp_min/clamp_max or when both bounds
 *     are given, while clamp's single NaN bound is ignored;
 *   - bool only with a single Tensor bound (a maximum/minimum). */
int tc_meta_clamp(tc_opcall *c, tc_plan *p) {
    int at[2] = {arg_index(c, "min"), arg_index(c, "max")};
    bool given[2], scalar[2];
    tc_scalar value[2];
    for (int b = 0; b < 2; b++) {
        given[b] = at[b] >= 0 && c->args[at[b]].tag != TC_VALUE_NONE;
        if (scalar_arg(given[b] ? &c->args[at[b]] : &(tc_value){.tag = TC_VALUE_NONE}, &value[b], &scalar[b]))
            return TC_FAIL;
    }
    if (!given[0] && !given[1])
        return tc_set_error(TC_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None");
    bool any_scalar = scalar[0] || scalar[1], both = given[0] && given[1];
    bool one_sided = at[0] < 0 || at[1] < 0; /* clamp_min, clamp_max */

    tc_tensor *owned[4] = {NULL, NULL, NULL, NULL}, *bound[2] = {NULL, NULL};
    tc_tensor *ts[3] = {tc_arg_tensor(c, 0), NULL, NULL};
    int n = 1, rc = TC_FAIL;
    for (int b = 0; b < 2; b++)
        if (given[b] && !(ts[n++] = bound[b] = tc_meta_operand(c, at[b], &owned[b]))) goto done;
    int32_t dtype = tc_result_type(ts, n);
    if (dtype == TC_BOOL && (any_scalar || both)) {
        rc = tc_meta_refuse_dtype(c, dtype);
        goto done;
    }
    bool nan[2] = {false, false};
    if (any_scalar) {
        if (tc_meta_check_out_dtype(c, dtype)) goto done;
        for (int b = 0; b < 2; b++) {
            if (!scalar[b]) continue;
            if (value[b].kind == TC_SCALAR_COMPLEX || !tc_scalar_fits(value[b], dtype)) {
                rc = tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                                  tc_dtype_name(dtype));
                goto done;
            }
            nan[b] = value[b].kind == TC_SCALAR_FLOAT && isnan(value[b].v.f);
        }
        if ((one_sided || both) && (nan[0] || nan[1])) { /* the whole result is NaN */
            if (tc_plan_output(p, 0, ts[0]->ndim, ts[0]->sizes, dtype)) goto done;
            p->kernel = TC_KERNEL_fill;
            p->dtype = dtype;
            rc = tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(NAN));
            goto done;
        }
    }
    /* the kernel's (self, min, max): an absent bound, or clamp's ignored NaN bound, is open */
    tc_tensor *in[3] = {ts[0], NULL, NULL};
    for (int b = 0; b < 2; b++) {
        in[b + 1] = given[b] && !nan[b] ? bound[b] : (owned[2 + b] = open_bound(dtype, b == 1));
        if (!in[b + 1]) goto done;
    }
    rc = tc_meta_elementwise_as(p, in, 3, dtype, dtype);
done:
    release_all(owned, 4);
    return rc;
}
