/*
 * softmax(self, dim, dtype) and log_softmax(self, dim, dtype): the input converted to dtype when
 * one is given, then _softmax / _log_softmax (which compute in the input's dtype on the CPU).
 */
#include "core_internal.h"

static int softmax_like(tc_opcall *c, tc_tensor *(*fn)(tc_tensor *, int64_t, bool)) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dtype = tc_arg_enum(c, 2);
    tc_tensor *x = dtype >= 0 ? tc_to_dtype(self, dtype, false, false, -1) : (tc_tensor_retain(self), self);
    if (!x) return TC_FAIL;
    tc_tensor *r = fn(x, tc_arg_int(c, 1), false);
    tc_tensor_release(x);
    return tc_return(c, r);
}

int tc_impl_softmax_int(tc_opcall *c) { return softmax_like(c, tc__softmax); }
int tc_impl_log_softmax_int(tc_opcall *c) { return softmax_like(c, tc__log_softmax); }

/* The out= forms write through _softmax.out / _log_softmax.out, which compute into out itself (the
 * generic out= of a composite computed a fresh result and copied it: a third more memory traffic). */
static int softmax_like_out(tc_opcall *c, tc_tensor *(*fn)(tc_tensor *, int64_t, bool, tc_tensor *)) {
    tc_tensor *self = tc_arg_tensor(c, 0), *out = tc_arg_tensor(c, 3);
    int32_t dtype = tc_arg_enum(c, 2);
    const int32_t result = dtype >= 0 ? dtype : self->dtype;
    if (out->dtype != result) /* PyTorch's softmax out= takes the result's dtype only */
        return tc_set_error(TC_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                            tc_dtype_cpp_name(result), tc_dtype_cpp_name(out->dtype));
    tc_tensor *x = dtype >= 0 ? tc_to_dtype(self, dtype, false, false, -1) : (tc_tensor_retain(self), self);
    if (!x) return TC_FAIL;
    tc_tensor *r = fn(x, tc_arg_int(c, 1), false, out);
    tc_tensor_release(x);
    return tc_return(c, r);
}

int tc_impl_softmax_int_out(tc_opcall *c) { return softmax_like_out(c, tc__softmax_out); }
int tc_impl_log_softmax_int_out(tc_opcall *c) { return softmax_like_out(c, tc__log_softmax_out); }
