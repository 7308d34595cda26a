/* Factories whose values follow a formula: arange, linspace, eye. */
#include "core_internal.h"

#include <math.h>

static int fill_formula(int32_t kernel, tc_tensor *out, tc_scalar a, tc_scalar b) {
    if (tc_tensor_numel(out) == 0) return TC_OK;
    tc_scalar scalars[2] = {a, b};
    return tc_dispatch_run(kernel, out->dtype, NULL, 0, &out, 1, scalars, 2, NULL, 0, false);
}

tc_tensor *tc_arange(tc_scalar start, tc_scalar end, tc_scalar step, int32_t dtype, tc_device device) {
    double s = tc_scalar_to_double(start), e = tc_scalar_to_double(end), st = tc_scalar_to_double(step);
    if (dtype < 0)
        dtype = start.is_float || end.is_float || step.is_float ? tc_default_dtype() : TC_INT64;
    if (!isfinite(s) || !isfinite(e)) return tc_set_error(TC_ERR_RUNTIME, "unsupported range: %g -> %g", s, e), NULL;
    if (st == 0) return tc_set_error(TC_ERR_RUNTIME, "step must be nonzero"), NULL;
    if ((st > 0 && e < s) || (st < 0 && e > s))
        return tc_set_error(TC_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign"), NULL;
    double count = ceil((e - s) / st);
    if (!(count < 9.0e18)) return tc_set_error(TC_ERR_RUNTIME, "arange: too many elements"), NULL;
    int64_t n = (int64_t)count;
    if (!start.is_float && !end.is_float && !step.is_float) /* exact integer count */
        n = (end.v.i - start.v.i + step.v.i + (step.v.i > 0 ? -1 : 1)) / step.v.i;
    tc_tensor *out = tc_empty(1, &n, dtype, device);
    if (out && fill_formula(TC_KERNEL_arange, out, start, step)) {
        tc_tensor_release(out);
        return NULL;
    }
    return out;
}

tc_tensor *tc_linspace(tc_scalar start, tc_scalar end, int64_t steps, int32_t dtype, tc_device device) {
    if (steps < 0) return tc_set_error(TC_ERR_RUNTIME, "number of steps must be non-negative"), NULL;
    if (dtype < 0) dtype = tc_default_dtype();
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
