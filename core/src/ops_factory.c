/* Factories whose values follow a formula: arange, linspace, eye. */
#include "core_internal.h"

#include <math.h>

static int fill_formula(int32_t kernel, tc_tensor *out, tc_scalar a, tc_scalar b) {
    if (tc_tensor_numel(out) == 0) return TC_OK;
    tc_scalar scalars[2] = {a, b};
    return tc_dispatch_run(kernel, out->dtype, NULL, 0, &out, 1, scalars, 2, NULL, 0, false);
}

/* The type PyTorch computes arange in (its CPU acc_type): int64 for integer dtypes, float for the
 * 16-bit floats, double otherwise. Bounds and step are converted to it first, so that
 * arange(0, 5, 0.5, dtype=int64) has a step of 0 (an error) rather than a fractional one. */
static int32_t arange_acc_dtype(int32_t dtype) {
    if (!tc_dtype_is_floating(dtype)) return TC_INT64;
    return dtype == TC_FLOAT16 || dtype == TC_BFLOAT16 ? TC_FLOAT32 : TC_FLOAT64;
}

tc_tensor *tc_arange(tc_scalar start, tc_scalar end, tc_scalar step, int32_t dtype, tc_device device) {
    if (dtype < 0)
        dtype = start.is_float || end.is_float || step.is_float ? tc_default_dtype() : TC_INT64;
    int32_t acc = arange_acc_dtype(dtype);
    tc_scalar in[3] = {start, end, step};
    for (int i = 0; i < 3; i++)
        if (!tc_scalar_fits(in[i], acc))
            return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                                tc_dtype_name(acc)), NULL;
    tc_scalar xstart = tc_scalar_cast(start, acc), xend = tc_scalar_cast(end, acc), xstep = tc_scalar_cast(step, acc);
    double s = tc_scalar_to_double(xstart), e = tc_scalar_to_double(xend), st = tc_scalar_to_double(xstep);
    if (!(st > 0 || st < 0)) return tc_set_error(TC_ERR_RUNTIME, "step must be nonzero"), NULL; /* or NaN */
    if (!isfinite(s) || !isfinite(e)) return tc_set_error(TC_ERR_RUNTIME, "unsupported range: %g -> %g", s, e), NULL;
    if ((st > 0 && e < s) || (st < 0 && e > s))
        return tc_set_error(TC_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign"), NULL;
    /* The length comes from the unconverted bounds in double, as in PyTorch, except for int64, which
     * uses the converted bounds' exact difference when it fits (doubles lose integers above 2^53). */
    int64_t diff = 0;
    bool exact = dtype == TC_INT64 && !__builtin_sub_overflow(xend.v.i, xstart.v.i, &diff);
    double count = exact ? ceil((double)diff / st)
                         : ceil((tc_scalar_to_double(end) - tc_scalar_to_double(start)) / tc_scalar_to_double(step));
    if (!(count >= 0 && count < 9.2e18))
        return tc_set_error(TC_ERR_RUNTIME, "invalid size, possible overflow?"), NULL;
    /* diff and step have the same sign here and the quotient fits, so this is a ceiling division */
    int64_t n = exact ? diff / xstep.v.i + (diff % xstep.v.i != 0) : (int64_t)count;
    tc_tensor *out = tc_empty(1, &n, dtype, device);
    if (out && fill_formula(TC_KERNEL_arange, out, xstart, xstep)) {
        tc_tensor_release(out);
        return NULL;
    }
    return out;
}

tc_tensor *tc_linspace(tc_scalar start, tc_scalar end, int64_t steps, int32_t dtype, tc_device device) {
    if (steps < 0) return tc_set_error(TC_ERR_RUNTIME, "number of steps must be non-negative"), NULL;
    if (dtype < 0) dtype = tc_default_dtype();
    /* PyTorch converts the bounds to the output dtype first (checked: linspace(0, 300, 5, dtype=uint8)
     * fails), so that a uint8 range from -1 starts at 255 and a float16 one at a float16 value. */
    if (!tc_scalar_fits(start, dtype) || !tc_scalar_fits(end, dtype))
        return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                            tc_dtype_name(dtype)), NULL;
    start = tc_scalar_cast(start, dtype);
    end = tc_scalar_cast(end, dtype);
    tc_tensor *out = tc_empty(1, &steps, dtype, device);
    if (out && fill_formula(TC_KERNEL_linspace, out, start, end)) {
        tc_tensor_release(out);
        return NULL;
    }
    return out;
}

tc_tensor *tc_eye(int64_t n, int64_t m, int32_t dtype, tc_device device) {
    if (n < 0) return tc_set_error(TC_ERR_RUNTIME, "n must be greater or equal to 0, got %lld", (long long)n), NULL;
    if (m < 0) return tc_set_error(TC_ERR_RUNTIME, "m must be greater or equal to 0, got %lld", (long long)m), NULL;
    int64_t sizes[2] = {n, m};
    tc_tensor *out = tc_empty(2, sizes, dtype < 0 ? tc_default_dtype() : dtype, device);
    if (!out) return NULL;
    if (tc_fill(out, (tc_scalar){.v.i = 0})) goto fail;
    int64_t diag = n < m ? n : m, stride = m + 1;
    if (diag > 0) {
        tc_tensor *d = tc_tensor_restride(out, 1, &diag, &stride, 0);
        int rc = d ? tc_fill(d, (tc_scalar){.v.i = 1}) : TC_FAIL;
        tc_tensor_release(d);
        if (rc) goto fail;
    }
    return out;
fail:
    tc_tensor_release(out);
    return NULL;
}

int tc_ops_factory(int32_t op, const tc_call *call, tc_tensor **outs) {
    tc_tensor *out = call->tensors[0];
    int32_t kernel = tc_op_infos[op].kernel;
    if (out->ndim != 1) return tc_set_error(TC_ERR_RUNTIME, "%s: out must be 1-D", tc_op_infos[op].name);
    if (fill_formula(kernel, out, call->scalars[0], call->scalars[1])) return TC_FAIL;
    tc_tensor_retain(out);
    outs[0] = out;
    return 1;
}
