/*
 * Dropout, composed of ops as PyTorch 1.13 composes it on the CPU (ATen's _dropout_impl and
 * native_dropout_cpu), so that:
 *   - the mask is drawn by bernoulli_(1 - p) into a tensor of the input's dtype (the feature forms:
 *     one value per (batch, channel), shape [N, C, 1, ...]), and a seed gives PyTorch's mask;
 *   - autograd records the parts (the result's grad_fn is MulBackward0, as in PyTorch), except for
 *     native_dropout, whose formula in ops.table makes a NativeDropoutBackward0 node;
 *   - p == 0, eval mode and empty inputs return the input itself, p == 1 multiplies by a zero.
 */
#include "core_internal.h"

#include <math.h>

/* A Python number as PyTorch's Scalar arguments become: a wrapped 0-dim tensor (lowest priority). */
static tc_tensor *wrapped(double v) {
    tc_tensor *t = tc_scalar_tensor(TC_SCALAR_OF_FLOAT(v), TC_FLOAT64);
    if (t) t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return t;
}

/* op(t, number) for the in-place ops below; releases nothing but its temporary. */
typedef tc_tensor *(*binary_fn)(tc_tensor *a, tc_tensor *b);
static tc_tensor *with_number(binary_fn op, tc_tensor *t, double v) {
    tc_tensor *n = wrapped(v);
    tc_tensor *r = n ? op(t, n) : NULL;
    tc_tensor_release(n);
    return r;
}

/* Keeps an in-place op's result only as a success flag (it is t itself). */
static int done(tc_tensor *r) {
    tc_tensor_release(r);
    return r ? TC_OK : TC_FAIL;
}

static tc_tensor *add_number(tc_tensor *a, tc_tensor *b) { return tc_add_Tensor(a, b, TC_SCALAR_OF_INT(1)); }
static tc_tensor *add_number_(tc_tensor *a, tc_tensor *b) { return tc_add__Tensor(a, b, TC_SCALAR_OF_INT(1)); }

static int check_p(double p) {
    if (p >= 0 && p <= 1) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "dropout probability has to be between 0 and 1, but got %g", p);
}

/* The feature forms' noise: one value per (sample, channel), broadcast over the remaining dims. */
static tc_tensor *feature_noise(tc_tensor *input) {
    if (input->ndim < 2)
        return tc_set_error(TC_ERR_RUNTIME, "Feature dropout requires at least 2 dimensions in the input"), NULL;
    int64_t sizes[TC_MAX_DIMS];
    for (int32_t d = 0; d < input->ndim; d++) sizes[d] = d < 2 ? input->sizes[d] : 1;
    return tc_new_empty(input, (tc_int_list){sizes, input->ndim}, -1, -1, NULL, NULL);
}

/* _dropout_impl<feature, alpha, inplace>(input, p, train). */
static int dropout(tc_opcall *c, bool feature, bool alpha, bool inplace) {
    tc_tensor *input = tc_arg_tensor(c, 0);
    double p = c->args[1].v.f;
    if (check_p(p)) return TC_FAIL;
    if (p == 0 || !c->args[2].v.b || tc_tensor_numel(input) == 0) {
        tc_tensor_retain(input);
        return tc_return(c, input);
    }
    if (p == 1) {
        tc_tensor *zero = tc_zeros(TC_NO_INTS, input->dtype, -1, &input->device, NULL);
        tc_tensor *r = zero ? (inplace ? tc_mul__Tensor(input, zero) : tc_mul_Tensor(input, zero)) : NULL;
        tc_tensor_release(zero);
        return tc_return(c, r);
    }
    tc_tensor *noise = feature ? feature_noise(input)
                               : tc_empty_like(input, -1, -1, NULL, NULL, TC_MEMORY_FORMAT_CONTIGUOUS);
    tc_tensor *shift = NULL, *r = NULL;
    if (!noise || done(tc_bernoulli__float(noise, 1 - p, NULL))) goto out;
    if (alpha) { /* SELU's negative saturation for dropped values, mean and variance kept */
        const double alpha_ = 1.7580993408473766;
        double a = 1. / sqrt((alpha_ * alpha_ * p + 1) * (1 - p));
        if (!(shift = with_number(add_number, noise, -1)) || done(with_number(tc_mul__Tensor, shift, alpha_ * a)) ||
            done(with_number(add_number_, shift, alpha_ * a * p)) || done(with_number(tc_mul__Tensor, noise, a)))
            goto out;
    } else if (done(with_number(tc_div__Tensor, noise, 1 - p))) {
        goto out;
    }
    r = inplace ? tc_mul__Tensor(input, noise) : tc_mul_Tensor(input, noise);
    if (r && shift && done(tc_add__Tensor(r, shift, TC_SCALAR_OF_INT(1)))) {
        tc_tensor_release(r);
        r = NULL;
    }
out:
    tc_tensor_release(noise);
    tc_tensor_release(shift);
    return tc_return(c, r);
}

int tc_impl_dropout(tc_opcall *c) { return dropout(c, false, false, false); }
int tc_impl_dropout_(tc_opcall *c) { return dropout(c, false, false, true); }
int tc_impl_feature_dropout(tc_opcall *c) { return dropout(c, true, false, false); }
int tc_impl_feature_dropout_(tc_opcall *c) { return dropout(c, true, false, true); }
int tc_impl_alpha_dropout(tc_opcall *c) { return dropout(c, false, true, false); }
int tc_impl_alpha_dropout_(tc_opcall *c) { return dropout(c, false, true, true); }
int tc_impl_feature_alpha_dropout(tc_opcall *c) { return dropout(c, true, true, false); }
int tc_impl_feature_alpha_dropout_(tc_opcall *c) { return dropout(c, true, true, true); }

/* native_dropout(input, p, train?) -> (output, mask): a bool mask; train None means training. An empty
 * input gives an empty copy (PyTorch returns the input itself, which its autograd must then special-case). */
int tc_impl_native_dropout(tc_opcall *c) {
    tc_tensor *input = tc_arg_tensor(c, 0), *out = NULL, *mask = NULL;
    double p = c->args[1].v.f;
    bool train = c->args[2].tag == TC_VALUE_NONE || c->args[2].v.b;
    if (tc_tensor_numel(input) == 0) {
        out = tc_clone(input, -1);
        mask = tc_empty_like(input, -1, -1, NULL, NULL, -1);
    } else if (train) {
        double p1m = 1. - p, scale = p1m == 0 ? 0. : 1. / p1m;
        mask = tc_empty_like(input, TC_BOOL, -1, NULL, NULL, TC_MEMORY_FORMAT_CONTIGUOUS);
        if (mask && !done(tc_bernoulli__float(mask, p1m, NULL)) && (out = tc_mul_Tensor(input, mask)) &&
            done(with_number(tc_mul__Tensor, out, scale))) {
            tc_tensor_release(out);
            out = NULL;
        }
    } else {
        mask = tc_ones_like(input, TC_BOOL, -1, NULL, NULL, -1);
        out = tc_clone(input, -1);
    }
    if (!out || !mask) {
        tc_tensor_release(out);
        tc_tensor_release(mask);
        return TC_FAIL;
    }
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = out};
    c->outs[1] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = mask};
    return TC_OK;
}

/* native_dropout_backward(grad_output, mask, scale) = grad_output * mask * scale */
int tc_impl_native_dropout_backward(tc_opcall *c) {
    tc_tensor *masked = tc_mul_Tensor(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1));
    tc_tensor *r = masked ? with_number(tc_mul_Tensor, masked, c->args[2].v.f) : NULL;
    tc_tensor_release(masked);
    return tc_return(c, r);
}
