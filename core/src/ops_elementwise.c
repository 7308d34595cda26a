/*
 * Elementwise ops (binary, unary, copy): the device-independent half. Decides the compute and
 * output dtypes, broadcasts, checks in-place legality, casts operands when dtypes differ, allocates
 * the output and hands the kernel same-dtype views.
 */
#include "core_internal.h"

#include <string.h>

static const tc_device cpu_device = {TC_DEVICE_CPU, 0};

static bool can_cast(int32_t from, int32_t to) {
    if (tc_dtype_is_floating(from) && !tc_dtype_is_floating(to)) return false;
    if (from != TC_BOOL && to == TC_BOOL) return false;
    return true;
}

static tc_device output_device(tc_tensor *const *ts, int n) {
    for (int i = 0; i < n; i++)
        if (!(ts[i]->device.type == TC_DEVICE_CPU && ts[i]->ndim == 0)) return ts[i]->device;
    return ts[0]->device;
}

static int reject_bool(int32_t op, tc_tensor *const *ts, int n, int32_t dtype) {
    if (op == TC_OP_sub) {
        /* PyTorch refuses a bool operand of `-` whatever the other one is (2 - mask, x - True): the
         * promoted dtype is not bool then, so look at the operands themselves. */
        int bools = 0;
        for (int i = 0; i < n; i++) bools += ts[i]->dtype == TC_BOOL;
        if (bools == n)
            return tc_set_error(TC_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not "
                                                "supported. Use the `^` or `logical_xor()` operator instead.");
        if (bools)
            return tc_set_error(TC_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not "
                                                "supported. If you are trying to invert a mask, use the `~` or "
                                                "`logical_not()` operator instead.");
        return TC_OK;
    }
    if (dtype != TC_BOOL || !(tc_op_infos[op].flags & TC_OPF_NO_BOOL)) return TC_OK;
    if (op == TC_OP_neg)
        return tc_set_error(TC_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. "
                                            "If you are trying to invert a mask, use the `~` or "
                                            "`logical_not()` operator instead.");
    return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for 'bool'", tc_op_infos[op].name);
}

/* PyTorch refuses an integer tensor raised to a negative integer *scalar* (x ** -1) before computing,
 * but computes with a tensor of exponents (1 for a base of 1, +-1 for -1, 0 otherwise). The kernel
 * cannot tell a wrapped Python number from a tensor, so the scalar case is decided here. */
static int check_pow_exponent(int32_t op, tc_tensor *const *ts, int32_t compute) {
    if (op != TC_OP_pow || tc_dtype_is_floating(compute)) return TC_OK;
    for (int i = 0; i < 2; i++) { /* PyTorch converts a Python number operand of pow with a range check */
        tc_scalar v;
        if (!(ts[i]->flags & TC_TENSOR_WRAPPED_NUMBER)) continue;
        if (tc_tensor_get(ts[i], 0, &v)) return TC_FAIL;
        if (i == 1 && !v.is_float && v.v.i < 0)
            return tc_set_error(TC_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
        if (!tc_scalar_fits(v, compute))
            return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                                tc_dtype_name(compute));
    }
    return TC_OK;
}

/* Result and compute dtypes of an elementwise op. */
static int elementwise_dtypes(int32_t op, tc_tensor *const *ts, int n, int32_t *compute, int32_t *result) {
    int32_t common = tc_result_type(ts, n);
    switch (tc_op_infos[op].rule) {
    case TC_RULE_FLOAT:
        if (!tc_dtype_is_floating(common)) common = tc_default_dtype();
        *compute = *result = common;
        break;
    case TC_RULE_COMPARE:
        *compute = common;
        *result = TC_BOOL;
        break;
    default:
        *compute = *result = common;
    }
    if (reject_bool(op, ts, n, *compute)) return TC_FAIL;
    return n == 2 ? check_pow_exponent(op, ts, *compute) : TC_OK;
}

tc_tensor *tc_to_dtype(tc_tensor *t, int32_t dtype) {
    if (t->dtype == dtype) {
        tc_tensor_retain(t);
        return t;
    }
    tc_tensor *out = tc_empty(t->ndim, t->sizes, dtype, t->device);
    if (!out) return NULL;
    if (tc_dispatch_run(TC_KERNEL_copy, dtype, &t, 1, &out, 1, NULL, 0, NULL, 0, false)) {
        tc_tensor_release(out);
        return NULL;
    }
    out->flags = t->flags & TC_TENSOR_WRAPPED_NUMBER;
    return out;
}

tc_tensor *tc_contiguous(tc_tensor *t) {
    if (tc_tensor_is_contiguous(t)) {
        tc_tensor_retain(t);
        return t;
    }
    tc_tensor *out = tc_empty(t->ndim, t->sizes, t->dtype, t->device);
    if (out && tc_dispatch_run(TC_KERNEL_copy, t->dtype, &t, 1, &out, 1, NULL, 0, NULL, 0, false)) {
        tc_tensor_release(out);
        return NULL;
    }
    return out;
}

/* A written-to tensor whose elements share memory (a 0 stride over a dim of more than one, as after
 * expand) would be written several times per element, with an order-dependent result. */
static int check_internal_overlap(const tc_tensor *t) {
    for (int32_t d = 0; d < t->ndim; d++)
        if (t->strides[d] == 0 && t->sizes[d] > 1)
            return tc_set_error(TC_ERR_RUNTIME, "unsupported operation: more than one element of the written-to "
                                                "tensor refers to a single memory location. Please clone() the "
                                                "tensor before performing the operation.");
    return TC_OK;
}

/* `t` read through a fresh copy (new reference). For inputs that share memory with the written-to
 * tensor in a way too irregular to judge (TC_OVERLAP_TOO_HARD, e.g. x[:, ::2] against x[:, 1::2]),
 * where PyTorch computes in place and the result can depend on the kernel's walking order: reading
 * first gives the result the expression means, whatever the order. */
static tc_tensor *read_first(tc_tensor *t) {
    tc_tensor *copy = tc_empty(t->ndim, t->sizes, t->dtype, t->device);
    if (copy && tc_dispatch_run(TC_KERNEL_copy, t->dtype, &t, 1, &copy, 1, NULL, 0, NULL, 0, false)) {
        tc_tensor_release(copy);
        return NULL;
    }
    if (copy) copy->flags = t->flags & TC_TENSOR_WRAPPED_NUMBER;
    return copy;
}

/* fill_ and x[i] = number write one value, so elements sharing memory are harmless there (PyTorch
 * allows it too); copy_ and in-place ops check. */
static int copy_into(tc_tensor *dst, tc_tensor *src, bool check_overlap) {
    int32_t n;
    int64_t shape[TC_MAX_DIMS];
    if (tc_shape_broadcast(dst->ndim, dst->sizes, src->ndim, src->sizes, &n, shape)) return TC_FAIL;
    if (n != dst->ndim || memcmp(shape, dst->sizes, sizeof(int64_t) * (size_t)n) != 0) {
        char want[256], have[256];
        tc_shape_format(dst->ndim, dst->sizes, want, sizeof want);
        tc_shape_format(src->ndim, src->sizes, have, sizeof have);
        return tc_set_error(TC_ERR_RUNTIME, "shape mismatch: value tensor of shape %s cannot be broadcast "
                                            "to indexing result of shape %s", have, want);
    }
    if (src->device.type != dst->device.type && !(src->ndim == 0 && src->device.type == TC_DEVICE_CPU))
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "copy between %s and %s is not available",
                            tc_device_type_name(src->device.type), tc_device_type_name(dst->device.type));
    int overlap = check_overlap ? tc_tensor_overlap(dst, src) : TC_OVERLAP_NO;
    if (check_overlap && (check_internal_overlap(dst) || tc_check_partial_overlap(overlap))) return TC_FAIL;
    tc_tensor *source = src;
    if (overlap == TC_OVERLAP_TOO_HARD) {
        if (!(source = read_first(src))) return TC_FAIL;
    } else {
        tc_tensor_retain(source);
    }
    int rc = tc_dispatch_run(TC_KERNEL_copy, dst->dtype, &source, 1, &dst, 1, NULL, 0, NULL, 0, true);
    tc_tensor_release(source);
    if (rc == TC_OK) tc_tensor_bump_version(dst);
    return rc;
}

int tc_copy_into(tc_tensor *dst, tc_tensor *src) { return copy_into(dst, src, true); }

int tc_fill(tc_tensor *dst, tc_scalar value) {
    /* full(), fill_(), x[i] = v: PyTorch refuses a value the dtype cannot hold instead of wrapping */
    if (!tc_scalar_fits(value, dst->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                            tc_dtype_name(dst->dtype));
    tc_tensor *s = tc_scalar_tensor(value, dst->dtype, cpu_device);
    if (!s) return TC_FAIL;
    int rc = copy_into(dst, s, false);
    tc_tensor_release(s);
    return rc;
}

/* Runs op over operands (already checked) into a fresh or in-place output. */
static tc_tensor *run_elementwise(int32_t op, tc_tensor **operands, int n, const tc_scalar *scalars,
                                  int n_scalars, bool inplace) {
    if (tc_check_same_device(operands, n, tc_op_infos[op].name)) return NULL;
    int32_t compute, result;
    if (elementwise_dtypes(op, operands, n, &compute, &result)) return NULL;
    int32_t ndim = operands[0]->ndim;
    int64_t shape[TC_MAX_DIMS];
    memcpy(shape, operands[0]->sizes, sizeof(int64_t) * (size_t)ndim);
    for (int i = 1; i < n; i++)
        if (tc_shape_broadcast(ndim, shape, operands[i]->ndim, operands[i]->sizes, &ndim, shape)) return NULL;
    if (n_scalars && !tc_dtype_is_floating(compute) && scalars[0].is_float)
        return tc_set_error(TC_ERR_RUNTIME, "For integral input tensors, argument alpha must not be a "
                                            "floating point number."), NULL;

    tc_tensor *self = operands[0], *out = NULL;
    if (inplace) {
        if (ndim != self->ndim || memcmp(shape, self->sizes, sizeof(int64_t) * (size_t)ndim) != 0) {
            char want[256], have[256];
            tc_shape_format(self->ndim, self->sizes, have, sizeof have);
            tc_shape_format(ndim, shape, want, sizeof want);
            return tc_set_error(TC_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s",
                                have, want), NULL;
        }
        if (!can_cast(result, self->dtype))
            return tc_set_error(TC_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                                tc_dtype_name(result), tc_dtype_name(self->dtype)), NULL;
        if (check_internal_overlap(self)) return NULL;
    }
    int overlap[TC_CALL_MAX_TENSORS] = {0};
    for (int i = 0; inplace && i < n; i++) /* x[1:].add_(x[:-1]) and x.add_(x.t()) are refused */
        if (tc_check_partial_overlap(overlap[i] = tc_tensor_overlap(self, operands[i]))) return NULL;
    tc_tensor *cast[TC_CALL_MAX_TENSORS] = {0};
    for (int i = 0; i < n; i++) {
        if (!(cast[i] = tc_to_dtype(operands[i], compute))) goto fail;
        if (overlap[i] == TC_OVERLAP_TOO_HARD && cast[i] == operands[i]) {
            tc_tensor *safe = read_first(cast[i]);
            tc_tensor_release(cast[i]);
            if (!(cast[i] = safe)) goto fail;
        }
    }
    if (inplace && result == self->dtype) {
        out = self;
        tc_tensor_retain(out);
    } else if (!(out = tc_empty(ndim, shape, result, output_device(operands, n)))) {
        goto fail;
    }
    if (tc_dispatch_run(tc_op_infos[op].kernel, compute, cast, n, &out, 1, scalars, n_scalars, NULL, 0, true))
        goto fail;
    for (int i = 0; i < n; i++) tc_tensor_release(cast[i]);
    if (inplace) {
        if (out != self) { /* computed in a wider dtype: cast back into self */
            int rc = tc_copy_into(self, out);
            tc_tensor_release(out);
            if (rc) return NULL;
            tc_tensor_retain(self);
            return self;
        }
        tc_tensor_bump_version(self);
    }
    return out;
fail:
    for (int i = 0; i < n; i++) tc_tensor_release(cast[i]);
    tc_tensor_release(out);
    return NULL;
}

tc_tensor *tc_binary(int32_t op, tc_tensor *a, tc_tensor *b, tc_scalar alpha, bool inplace) {
    tc_tensor *operands[2] = {a, b};
    bool has_alpha = op == TC_OP_add || op == TC_OP_sub;
    return run_elementwise(op, operands, 2, &alpha, has_alpha ? 1 : 0, inplace);
}

int tc_ops_elementwise(int32_t op, const tc_call *call, tc_tensor **outs) {
    const tc_op_info *info = &tc_op_infos[op];
    tc_tensor *operands[2] = {call->tensors[0], call->tensors[1]};
    switch (info->category) {
    case TC_CAT_BINARY: {
        tc_scalar alpha = call->n_scalars ? call->scalars[0] : (tc_scalar){.v.i = 1};
        outs[0] = tc_binary(op, operands[0], operands[1], alpha, call->inplace);
        break;
    }
    case TC_CAT_UNARY:
        outs[0] = run_elementwise(op, operands, 1, NULL, 0, call->inplace);
        break;
    case TC_CAT_COPY:
        if (call->dtype < 0 || call->dtype >= TC_NUM_DTYPES) return tc_set_error(TC_ERR_TYPE, "invalid dtype");
        outs[0] = tc_to_dtype(operands[0], call->dtype);
        break;
    default:
        return tc_set_error(TC_ERR_RUNTIME, "op %s is not elementwise", info->name);
    }
    return outs[0] ? 1 : TC_FAIL;
}
