/*
 * Pointwise ops composed of others: square (pow with 2), positive, isreal, and the closeness tests
 * isclose, allclose and equal, written as PyTorch writes them so that their rounding and dtypes
 * follow from the ops they use.
 */
#include "core_internal.h"

#include <string.h>

/* ---- square: pow(self, 2), with pow's own in-place and out= rules ---- */

int tc_impl_square(tc_opcall *c) {
    return tc_return(c, tc_pow_Tensor_Scalar(tc_arg_tensor(c, 0), TC_SCALAR_OF_INT(2)));
}

int tc_impl_square_(tc_opcall *c) { return tc_return(c, tc_pow__Scalar(tc_arg_tensor(c, 0), TC_SCALAR_OF_INT(2))); }

int tc_impl_square_out(tc_opcall *c) {
    return tc_return(c, tc_pow_Tensor_Scalar_out(tc_arg_tensor(c, 0), TC_SCALAR_OF_INT(2), tc_arg_tensor(c, 1)));
}

/* positive(self) is self itself, except that PyTorch refuses `+` on a bool tensor. */
int tc_impl_positive(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (self->dtype == TC_BOOL)
        return tc_set_error(TC_ERR_RUNTIME, "The `+` operator, on a bool tensor is not supported.");
    tc_tensor_retain(self);
    return tc_return(c, self);
}

/* Real dtypes only, for now: every value is real. */
int tc_impl_isreal(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (!tc_dtype_is_complex(t->dtype))
        return tc_return(c, tc_ones_like(t, TC_BOOL, -1, NULL, NULL, TC_MEMORY_FORMAT_PRESERVE));
    tc_tensor *im = tc_imag(t), *zero = tc_scalar_tensor(TC_SCALAR_OF_INT(0), im ? im->dtype : TC_FLOAT32);
    tc_tensor *r = im && zero ? tc_eq_Tensor(im, zero) : NULL; /* a complex value is real when its imaginary part is 0 */
    tc_tensor_release(im);
    tc_tensor_release(zero);
    return tc_return(c, r);
}

/* ---- division with a rounding mode ---- */

/* div.Tensor_mode(self, other, *, rounding_mode): None is div; 'trunc' and 'floor' keep the promoted
 * dtype (integers divide exactly), rounding the quotient toward zero or down. Integer 'trunc' is
 * floor_divide moved up by one where the remainder is not 0 and the signs differ. */
int tc_impl_div_Tensor_mode(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    const char *mode = tc_arg_none(c, 2) ? NULL : c->args[2].v.s;
    if (!mode) return tc_return(c, tc_div_Tensor(a, b));
    const bool trunc = strcmp(mode, "trunc") == 0, floor = strcmp(mode, "floor") == 0;
    if (!trunc && !floor)
        return tc_set_error(TC_ERR_RUNTIME, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                                            "found '%s'", mode);
    tc_tensor *ops[2] = {a, b};
    const int32_t dtype = tc_result_type(ops, 2);
    if (dtype == TC_BOOL || tc_dtype_is_complex(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"div_%s_cpu\" not implemented for '%s'", mode, tc_dtype_scalar_name(dtype));
    if (floor) return tc_return(c, tc_floor_divide(a, b));
    if (tc_dtype_is_floating(dtype)) {
        tc_tensor *q = tc_div_Tensor(a, b), *r = q ? tc_trunc(q) : NULL;
        tc_tensor_release(q);
        return tc_return(c, r);
    }
    tc_tensor *q = tc_floor_divide(a, b), *rem = q ? tc_remainder_Tensor(a, b) : NULL;
    tc_tensor *inexact = rem ? tc_ne_Scalar(rem, TC_SCALAR_OF_INT(0)) : NULL;
    tc_tensor *na = inexact ? tc_lt_Scalar(a, TC_SCALAR_OF_INT(0)) : NULL, *nb = na ? tc_lt_Scalar(b, TC_SCALAR_OF_INT(0)) : NULL;
    tc_tensor *differ = nb ? tc_logical_xor(na, nb) : NULL, *up = differ ? tc_logical_and(inexact, differ) : NULL;
    tc_tensor *r = up ? tc_add_Tensor(q, up, TC_SCALAR_OF_INT(1)) : NULL;
    tc_tensor *ts[7] = {q, rem, inexact, na, nb, differ, up};
    for (int i = 0; i < 7; i++) tc_tensor_release(ts[i]);
    return tc_return(c, r);
}

/* ---- closeness ---- */

/* A Python number as an operand (lowest promotion priority). */
static tc_tensor *wrapped(double v) {
    tc_tensor *t = tc_scalar_tensor(TC_SCALAR_OF_FLOAT(v), TC_FLOAT64);
    if (t) t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return t;
}

/* Releases every tensor of the list (NULLs allowed). */
static void release_n(tc_tensor **ts, int n) {
    for (int i = 0; i < n; i++) tc_tensor_release(ts[i]);
}

/* close = self == other, or both NaN when equal_nan; then, unless the difference is infinite or NaN,
 * |self - other| <= atol + |rtol * other|, computed in the default float dtype for integer inputs. */
static tc_tensor *isclose(tc_tensor *self, tc_tensor *other, double rtol, double atol, bool equal_nan) {
    if (self->dtype != other->dtype) {
        tc_set_error(TC_ERR_RUNTIME, "%s did not match %s", tc_dtype_scalar_name(self->dtype),
                     tc_dtype_scalar_name(other->dtype));
        return NULL;
    }
    if (!(rtol >= 0)) {
        tc_set_error(TC_ERR_RUNTIME, "rtol must be greater than or equal to zero, but got %g", rtol);
        return NULL;
    }
    if (!(atol >= 0)) {
        tc_set_error(TC_ERR_RUNTIME, "atol must be greater than or equal to zero, but got %g", atol);
        return NULL;
    }
    enum { CLOSE, A, B, C, D, E, F, G, H, N };
    tc_tensor *t[N] = {NULL};
    bool ok = (t[CLOSE] = tc_eq_Tensor(self, other)) != NULL;
    const bool inexact = tc_dtype_is_floating(self->dtype) || tc_dtype_is_complex(self->dtype);
    if (ok && equal_nan && inexact) { /* a complex value is NaN when a part is: z != z then */
        ok = (t[A] = tc_ne_Tensor(self, self)) && (t[B] = tc_ne_Tensor(other, other)) &&
             (t[C] = tc_bitwise_and__Tensor(t[A], t[B])) && (t[D] = tc_bitwise_or__Tensor(t[CLOSE], t[C]));
        release_n(&t[A], 4);
        memset(&t[A], 0, sizeof(tc_tensor *) * 4);
    }
    /* integers: both operands in the default float dtype, so that uint8 differences do not wrap */
    tc_tensor *x = self, *y = other;
    if (ok && !inexact) {
        ok = (t[A] = tc_to_dtype(self, tc_default_dtype(), false, false, -1)) &&
             (t[B] = tc_to_dtype(other, tc_default_dtype(), false, false, -1));
        x = t[A];
        y = t[B];
    }
    tc_tensor *r = NULL, *a = NULL;
    if (ok) {
        r = wrapped(rtol);
        a = wrapped(atol);
        ok = r && a;
    }
    /* allowed = atol + |rtol * other|; actual = |self - other| */
    ok = ok && (t[C] = tc_mul_Tensor(y, r)) && (t[D] = tc_abs(t[C])) &&
         (t[E] = tc_add_Tensor(t[D], a, TC_SCALAR_OF_INT(1))) && (t[F] = tc_sub_Tensor(x, y, TC_SCALAR_OF_INT(1))) &&
         (t[G] = tc_abs(t[F])) && (t[H] = tc_isfinite(t[G]));
    tc_tensor *within = ok ? tc_le_Tensor(t[G], t[E]) : NULL;
    tc_tensor *both = within ? tc_bitwise_and__Tensor(t[H], within) : NULL;
    tc_tensor *done = both ? tc_bitwise_or__Tensor(t[CLOSE], t[H]) : NULL;
    tc_tensor_release(within);
    tc_tensor_release(both);
    tc_tensor_release(done);
    tc_tensor_release(r);
    tc_tensor_release(a);
    tc_tensor *result = done ? t[CLOSE] : NULL;
    if (!done) tc_tensor_release(t[CLOSE]);
    release_n(&t[A], N - 1);
    return result;
}

int tc_impl_isclose(tc_opcall *c) {
    return tc_return(c, isclose(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), c->args[2].v.f, c->args[3].v.f,
                                tc_arg_bool(c, 4)));
}

/* Whether every element of a bool tensor is true: its sum is its element count. */
static int all_true(tc_tensor *t, bool *out) {
    int64_t n = tc_tensor_numel(t);
    if (n == 0) {
        *out = true;
        return TC_OK;
    }
    tc_tensor *count = tc_sum(t, TC_INT64);
    tc_scalar s;
    int rc = count ? tc__local_scalar_dense(count, &s) : TC_FAIL;
    tc_tensor_release(count);
    if (rc == TC_OK) *out = s.v.i == n;
    return rc;
}

static int return_bool(tc_opcall *c, bool v) {
    c->outs[0] = (tc_value){.tag = TC_VALUE_BOOL, .v.b = v};
    return TC_OK;
}

int tc_impl_allclose(tc_opcall *c) {
    tc_tensor *close = isclose(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), c->args[2].v.f, c->args[3].v.f,
                               tc_arg_bool(c, 4));
    bool all;
    int rc = close ? all_true(close, &all) : TC_FAIL;
    tc_tensor_release(close);
    return rc ? TC_FAIL : return_bool(c, all);
}

/* equal: same sizes (no broadcasting) and equal values, compared after promotion; NaN is unequal. */
int tc_impl_equal(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0), *other = tc_arg_tensor(c, 1);
    if (!tc_shape_equal(self->ndim, self->sizes, other->ndim, other->sizes)) return return_bool(c, false);
    tc_tensor *eq = tc_eq_Tensor(self, other);
    bool all;
    int rc = eq ? all_true(eq, &all) : TC_FAIL;
    tc_tensor_release(eq);
    return rc ? TC_FAIL : return_bool(c, all);
}
