/* The three transforms of torch.fft: _fft_c2c, _fft_r2c, _fft_c2r (PyTorch's schemas). The kernels
 * (plugins/cpu/fft.c) receive the input as it is (any strides) and a contiguous output; args carry dim,
 * normalization and forward/onesided/last_dim_size. */
#include "core_internal.h"

/* dim wrapped and unique, into the kernel's ints (the wrapped dims, in order); sizes of the output. */
static int plan_dims(tc_plan *p, const tc_tensor *x, tc_int_list dims, const char *what) {
    if (dims.len == 0 && x->ndim > 0) return TC_OK;
    uint64_t seen = 0;
    for (int64_t i = 0; i < dims.len; i++) {
        int32_t d;
        if (tc_shape_wrap_dim(dims.items[i], x->ndim, &d)) return TC_FAIL;
        if (seen >> d & 1) return tc_set_error(TC_ERR_RUNTIME, "%s: dims must be unique", what);
        seen |= 1ull << d;
        if (tc_plan_int(p, d)) return TC_FAIL;
    }
    return TC_OK;
}

static int check_mode(int64_t mode) {
    return mode >= 0 && mode <= 2 ? TC_OK : tc_set_error(TC_ERR_RUNTIME, "Invalid normalization mode: %lld", (long long)mode);
}

int tc_meta_fft_c2c(tc_opcall *c, tc_plan *p) {
    tc_tensor *x = tc_arg_tensor(c, 0);
    if (x->dtype != TC_COMPLEX64 && x->dtype != TC_COMPLEX128)
        return tc_set_error(TC_ERR_RUNTIME, "Unsupported dtype %s", tc_dtype_scalar_name(x->dtype));
    if (check_mode(tc_arg_int(c, 2)) || plan_dims(p, x, tc_arg_ints(c, 1), "_fft_c2c")) return TC_FAIL;
    p->dtype = x->dtype;
    return tc_plan_output(p, 0, x->ndim, x->sizes, x->dtype) || tc_plan_input(p, x, -1) ? TC_FAIL : TC_OK;
}

int tc_meta_fft_r2c(tc_opcall *c, tc_plan *p) {
    tc_tensor *x = tc_arg_tensor(c, 0);
    const tc_int_list dims = tc_arg_ints(c, 1);
    if (x->dtype != TC_FLOAT32 && x->dtype != TC_FLOAT64)
        return tc_set_error(TC_ERR_RUNTIME, "Unsupported dtype %s", tc_dtype_scalar_name(x->dtype));
    if (dims.len == 0) return tc_set_error(TC_ERR_RUNTIME, "_fft_r2c: at least one dim is needed");
    if (check_mode(tc_arg_int(c, 2)) || plan_dims(p, x, dims, "_fft_r2c")) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS];
    for (int32_t i = 0; i < x->ndim; i++) sizes[i] = x->sizes[i];
    const int32_t last = (int32_t)p->ints[p->n_ints - 1];
    if (tc_arg_bool(c, 3)) sizes[last] = x->sizes[last] / 2 + 1;
    p->dtype = tc_dtype_to_complex(x->dtype);
    return tc_plan_output(p, 0, x->ndim, sizes, p->dtype) || tc_plan_input(p, x, -1) ? TC_FAIL : TC_OK;
}

int tc_meta_fft_c2r(tc_opcall *c, tc_plan *p) {
    tc_tensor *x = tc_arg_tensor(c, 0);
    const tc_int_list dims = tc_arg_ints(c, 1);
    const int64_t n = tc_arg_int(c, 3);
    if (x->dtype != TC_COMPLEX64 && x->dtype != TC_COMPLEX128)
        return tc_set_error(TC_ERR_RUNTIME, "Unsupported dtype %s", tc_dtype_scalar_name(x->dtype));
    if (dims.len == 0) return tc_set_error(TC_ERR_RUNTIME, "_fft_c2r: at least one dim is needed");
    if (check_mode(tc_arg_int(c, 2)) || plan_dims(p, x, dims, "_fft_c2r")) return TC_FAIL;
    const int32_t last = (int32_t)p->ints[p->n_ints - 1];
    if (n < 1) return tc_set_error(TC_ERR_RUNTIME, "Invalid number of data points (%lld) specified", (long long)n);
    if (x->sizes[last] < n / 2 + 1)
        return tc_set_error(TC_ERR_RUNTIME, "_fft_c2r: the input holds %lld points along dim %d; last_dim_size %lld "
                                            "needs %lld", (long long)x->sizes[last], (int)last, (long long)n,
                            (long long)(n / 2 + 1));
    int64_t sizes[TC_MAX_DIMS];
    for (int32_t i = 0; i < x->ndim; i++) sizes[i] = x->sizes[i];
    sizes[last] = n;
    p->dtype = x->dtype;
    return tc_plan_output(p, 0, x->ndim, sizes, tc_dtype_to_real(x->dtype)) || tc_plan_input(p, x, -1) ? TC_FAIL
                                                                                                         : TC_OK;
}
