/*
 * What the derivative formulas of the reductions, scans and sorting family are written with
 * (core/ops.table, internal ops). Two kinds:
 *
 *  - composites without formulas (prod_backward, cumprod_backward, var_backward, std_backward,
 *    norm_backward, quantile_backward, quantile_backward_q): built only of ops that have formulas,
 *    so that a backward recorded with create_graph is differentiated through its parts. Where
 *    PyTorch masks a value out (masked_fill) they divide by a safe denominator and multiply by the
 *    mask, and what only selects (signs, sort orders, ranks) is computed from detached values;
 *  - ops with formulas of their own (cumsum_backward, logcumsumexp_backward, logcumsumexp_jvp,
 *    _select_values_at): linear in their first argument, each the adjoint of another, so that they
 *    run on kernels (flips, wheres) that need no derivative.
 */
#include "core_internal.h"
#include "torch_core/tc_autograd.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ---- temporaries: every tensor made is kept here and released at the end ---- */

#define POOL_MAX 96

typedef struct pool {
    tc_tensor *items[POOL_MAX];
    int n;
} pool;

static tc_tensor *keep(pool *p, tc_tensor *t) {
    if (!t) return NULL;
    if (p->n == POOL_MAX) {
        tc_tensor_release(t);
        tc_set_error(TC_ERR_RUNTIME, "derivative helper: too many temporaries");
        return NULL;
    }
    p->items[p->n++] = t;
    return t;
}

static void pool_release(pool *p) {
    for (int i = 0; i < p->n; i++) tc_tensor_release(p->items[i]);
    p->n = 0;
}

/* Returns r (one of the pool's) as the op's result and releases the rest. */
static int finish(tc_opcall *c, pool *p, tc_tensor *r) {
    if (r) tc_tensor_retain(r);
    pool_release(p);
    return tc_return(c, r);
}

static int fail(pool *p) {
    pool_release(p);
    return TC_FAIL;
}

/* TRY(x, expr): x = expr, kept in the pool `P`; on failure, to `failed`. */
#define TRY(x, expr)                                                                               \
    do {                                                                                           \
        if (!((x) = keep(&P, (expr)))) goto failed;                                                \
    } while (0)

/* A Python number as an operand: a 0-dim wrapped number (lowest promotion priority). */
static tc_tensor *wrapped(tc_scalar v, int32_t dtype) {
    tc_tensor *t = tc_scalar_tensor(v, dtype);
    if (t) t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return t;
}
static tc_tensor *num(double v) { return wrapped(TC_SCALAR_OF_FLOAT(v), TC_FLOAT64); }
static tc_tensor *inum(int64_t v) { return wrapped(TC_SCALAR_OF_INT(v), TC_INT64); }

static tc_tensor *mul_num(tc_tensor *t, double v) {
    tc_tensor *n = num(v);
    tc_tensor *r = n ? tc_mul_Tensor(t, n) : NULL;
    tc_tensor_release(n);
    return r;
}

static tc_tensor *add(tc_tensor *a, tc_tensor *b) { return tc_add_Tensor(a, b, TC_SCALAR_OF_INT(1)); }
static tc_tensor *sub(tc_tensor *a, tc_tensor *b) { return tc_sub_Tensor(a, b, TC_SCALAR_OF_INT(1)); }

/* Comparisons and tests only select: they run on detached values, so that neither a recorded
 * backward nor forward AD sees them. */
static tc_tensor *detached_test(tc_tensor *t, tc_tensor *(*test)(tc_tensor *)) {
    tc_tensor *d = tc_detach(t);
    tc_tensor *r = d ? test(d) : NULL;
    tc_tensor_release(d);
    return r;
}
static tc_tensor *zero_test(tc_tensor *t) { return tc_eq_Scalar(t, TC_SCALAR_OF_INT(0)); }
static tc_tensor *is_zero(tc_tensor *t) { return detached_test(t, zero_test); }
static tc_tensor *is_nan(tc_tensor *t) { return detached_test(t, tc_isnan); }
static tc_tensor *is_finite(tc_tensor *t) { return detached_test(t, tc_isfinite); }
static tc_tensor *equal(tc_tensor *a, tc_tensor *b) {
    tc_tensor *da = tc_detach(a), *db = da ? tc_detach(b) : NULL;
    tc_tensor *r = db ? tc_eq_Tensor(da, db) : NULL;
    tc_tensor_release(da);
    tc_tensor_release(db);
    return r;
}

/* Whether any element of a bool tensor is true (read on the host). */
static int any_true(tc_tensor *t, bool *out) {
    *out = false;
    if (tc_tensor_numel(t) == 0) return TC_OK;
    tc_tensor *a = tc_any(t);
    tc_scalar s;
    int rc = a ? tc__local_scalar_dense(a, &s) : TC_FAIL;
    tc_tensor_release(a);
    if (rc == TC_OK) *out = s.v.i != 0;
    return rc;
}

/* t in dtype, or t itself (a new reference). */
static tc_tensor *as_dtype(tc_tensor *t, int32_t dtype) {
    if (t->dtype == dtype) {
        tc_tensor_retain(t);
        return t;
    }
    return tc_to_dtype(t, dtype, false, false, -1);
}

/* t with a size-1 dim inserted at each of the dims (of an ndim-dim tensor) a reduction without
 * keepdim removed, in ascending order so that each lands where it was. */
static tc_tensor *unsqueeze_reduced(tc_tensor *t, tc_int_list dims, int32_t ndim) {
    bool reduced[TC_MAX_DIMS] = {false};
    for (int64_t k = 0; k < dims.len; k++) {
        int32_t d;
        if (tc_shape_wrap_dim(dims.items[k], ndim, &d)) return NULL;
        reduced[d] = true;
    }
    tc_tensor_retain(t);
    for (int32_t d = 0; d < ndim; d++) {
        if (!reduced[d]) continue;
        tc_tensor *u = tc_unsqueeze(t, d);
        tc_tensor_release(t);
        if (!(t = u)) return NULL;
    }
    return t;
}

/* ---- prod ---- */

/* prod_backward(grad_output, input, output, dim, keepdim): the gradient of prod (over dim, or of
 * every element when dim is None), element i the product of the others. Without zeros that is
 * output / input. With zeros, q the product of a slice's non-zeros: one zero, q there and
 * q * zero / x_i elsewhere; two, q times the other zero at each and zero elsewhere; more, zeros.
 * The zeros stay factors (their value is 0, their derivative is not), so that the second
 * derivative is right too, as PyTorch's cumprod-based formula gives it. */
int tc_impl_prod_backward(tc_opcall *c) {
    pool P = {.n = 0};
    tc_tensor *g = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *r = tc_arg_tensor(c, 2);
    bool has_dim = !tc_arg_none(c, 3), keepdim = tc_arg_bool(c, 4);
    tc_tensor *m, *notm, *x2, *xm, *z, *cnt, *q, *s0, *s1, *s2, *t0, *t1, *t2, *t3, *res;
    if (x->ndim == 0) return tc_return(c, tc_clone(g, -1));
    TRY(x, as_dtype(x, g->dtype));
    if (tc_dtype_is_complex(x->dtype)) { /* grad * conj(the real formula): the formula of the conjugates */
        TRY(x, tc_conj_physical(x));
        TRY(r, tc_conj_physical(r));
    }
    int32_t dim = 0;
    if (has_dim) {
        if (tc_shape_wrap_dim(tc_arg_int(c, 3), x->ndim, &dim)) goto failed;
        if (!keepdim) {
            TRY(g, tc_unsqueeze(g, dim));
            TRY(r, tc_unsqueeze(r, dim));
        }
    }
    TRY(m, is_zero(x));
    bool zeros;
    if (any_true(m, &zeros)) goto failed;
    if (!zeros) {
        TRY(t0, tc_div_Tensor(r, x));
        TRY(res, tc_mul_Tensor(g, t0));
        return finish(c, &P, res);
    }
    tc_int_list dims = has_dim ? TC_INTS(dim) : TC_NO_INTS;
    TRY(notm, tc_logical_not(m));
    TRY(t0, tc_mul_Tensor(x, notm));
    TRY(x2, add(t0, m)); /* the zeros become ones (factors of nothing) */
    TRY(xm, tc_mul_Tensor(x, m));
    TRY(z, tc_sum_dim_IntList(xm, &dims, true, -1)); /* the zero of a one-zero slice, as a factor */
    TRY(cnt, tc_sum_dim_IntList(m, &dims, true, -1));
    TRY(q, has_dim ? tc_prod_dim_int(x2, dim, true, -1) : tc_prod(x2, -1)); /* of the non-zeros */
    TRY(s0, tc_eq_Scalar(cnt, TC_SCALAR_OF_INT(0)));
    TRY(s1, tc_eq_Scalar(cnt, TC_SCALAR_OF_INT(1)));
    TRY(s2, tc_eq_Scalar(cnt, TC_SCALAR_OF_INT(2)));
    /* q * (s0 / x2 + s1 * (m + notm * z / x2) + s2 * m * (z - x)) */
    TRY(t0, tc_div_Tensor(s0, x2));
    TRY(t1, tc_mul_Tensor(notm, z));
    TRY(t1, tc_div_Tensor(t1, x2));
    TRY(t1, add(m, t1));
    TRY(t1, tc_mul_Tensor(s1, t1));
    TRY(t2, add(t0, t1));
    TRY(t0, sub(z, x)); /* at either zero of a two-zero slice, the other one */
    TRY(t0, tc_mul_Tensor(t0, m));
    TRY(t0, tc_mul_Tensor(t0, s2));
    TRY(t2, add(t2, t0));
    TRY(t3, tc_mul_Tensor(g, q));
    TRY(res, tc_mul_Tensor(t3, t2));
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* ---- var, std ---- */

/* var_backward(grad_output, input, dim, correction, keepdim): 2 / (n - correction) * grad *
 * (input - mean), n the count of the reduced elements (the number is infinite or negative when
 * n <= correction, as in PyTorch 1.13). */
int tc_impl_var_backward(tc_opcall *c) {
    pool P = {.n = 0};
    tc_tensor *x = tc_arg_tensor(c, 1), *g, *mean, *dev, *res;
    const tc_int_list *dims = tc_arg_none(c, 2) ? NULL : &(tc_int_list){c->args[2].v.ints.items,
                                                                        c->args[2].v.ints.len};
    int64_t correction = tc_arg_none(c, 3) ? 1 : tc_arg_int(c, 3);
    bool keepdim = tc_arg_bool(c, 4);
    int64_t n = 1;
    if (!dims || dims->len == 0 || x->ndim == 0) {
        n = tc_tensor_numel(x);
    } else {
        bool seen[TC_MAX_DIMS] = {false};
        for (int64_t k = 0; k < dims->len; k++) {
            int32_t d;
            if (tc_shape_wrap_dim(dims->items[k], x->ndim, &d)) return TC_FAIL;
            if (!seen[d]) n *= x->sizes[d];
            seen[d] = true;
        }
    }
    TRY(g, tc__sum_backward(tc_arg_tensor(c, 0), (tc_int_list){x->sizes, x->ndim}, dims, keepdim));
    TRY(mean, tc_mean_dim(x, dims, true, -1));
    TRY(dev, sub(x, mean));
    TRY(g, mul_num(g, 2.0 / (double)(n - correction))); /* PyTorch 1.13's, also for n <= correction */
    TRY(res, tc_mul_Tensor(g, dev));
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* std_backward(output, grad_output, input, dim, correction, keepdim): var_backward of
 * grad / (2 std), zero where std is zero. */
int tc_impl_std_backward(tc_opcall *c) {
    pool P = {.n = 0};
    tc_tensor *s = tc_arg_tensor(c, 0), *t0, *z, *nz, *gv, *res;
    TRY(t0, mul_num(s, 2.0));
    TRY(z, is_zero(s));
    TRY(nz, tc_logical_not(z));
    TRY(t0, add(t0, z));
    TRY(gv, tc_div_Tensor(tc_arg_tensor(c, 1), t0));
    TRY(gv, tc_mul_Tensor(gv, nz));
    TRY(res, tc_var_backward(gv, tc_arg_tensor(c, 2), tc_arg_none(c, 3) ? NULL : &(tc_int_list){
                                 c->args[3].v.ints.items, c->args[3].v.ints.len},
                             tc_arg_none(c, 4) ? NULL : &c->args[4].v.i, tc_arg_bool(c, 5)));
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* ---- norm ---- */

/* norm_backward(grad_output, input, p, output, dim, keepdim): PyTorch's cases of p (0, 1, 2,
 * +-inf, below 1, below 2, the rest); the sign (sgn for complex input) is a constant (its derivative
 * is zero). */
int tc_impl_norm_backward(tc_opcall *c) {
    pool P = {.n = 0};
    tc_tensor *g = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *nrm = tc_arg_tensor(c, 3);
    tc_tensor *det, *sgn, *a, *mask, *t0, *t1, *m, *nm, *res, *scale;
    double p = tc_arg_none(c, 2) ? 2.0 : tc_scalar_to_double(c->args[2].v.scalar);
    tc_int_list dims = tc_arg_ints(c, 4);
    bool keepdim = tc_arg_bool(c, 5);
    if (!tc_dtype_is_complex(x->dtype)) TRY(x, as_dtype(x, g->dtype)); /* complex x keeps its parts (real grad) */
    if (!keepdim && x->ndim != 0 && dims.len > 0) {
        TRY(g, unsqueeze_reduced(g, dims, x->ndim));
        TRY(nrm, unsqueeze_reduced(nrm, dims, x->ndim));
    }
    if (p == 0.0) {
        TRY(res, tc_zeros_like(x, -1, -1, NULL, NULL, -1));
        return finish(c, &P, res);
    }
    TRY(det, tc_detach(x));
    TRY(sgn, tc_sgn(det)); /* sign for real x, x / |x| for complex */
    if (p == 1.0) {
        TRY(res, tc_mul_Tensor(sgn, g));
        return finish(c, &P, res);
    }
    /* the norm's zeros: grad / norm ** (p - 1) is zero there */
    TRY(nm, is_zero(nrm));
    if (p == 2.0) { /* grad * input / norm */
        TRY(t0, add(nrm, nm));
        TRY(t0, tc_div_Tensor(x, t0));
        TRY(t1, tc_logical_not(nm));
        TRY(t0, tc_mul_Tensor(t0, t1));
        TRY(res, tc_mul_Tensor(g, t0));
        return finish(c, &P, res);
    }
    TRY(a, tc_abs(x));
    if (isinf(p)) { /* the elements whose size is the norm (or NaN) share grad */
        TRY(t0, equal(a, nrm));
        TRY(t1, is_nan(a));
        TRY(mask, tc_logical_or(t0, t1));
        TRY(t0, tc_sum_dim_IntList(mask, &dims, true, -1));
        TRY(t0, tc_div_Tensor(g, t0));
        TRY(t0, tc_mul_Tensor(t0, mask));
        TRY(res, tc_mul_Tensor(sgn, t0));
        return finish(c, &P, res);
    }
    tc_tensor *e;
    if (p < 1.0) { /* sgn * |x| ** (p - 1) (zero at zero) * grad * norm ** (1 - p) */
        TRY(m, is_zero(x));
        TRY(t0, add(a, m));
        TRY(e, num(p - 1.0));
        TRY(t0, tc_pow_Tensor_Tensor(t0, e));
        TRY(t1, tc_logical_not(m));
        TRY(t0, tc_mul_Tensor(t0, t1));
        TRY(t0, tc_mul_Tensor(sgn, t0));
        TRY(t0, tc_mul_Tensor(t0, g));
        TRY(e, num(1.0 - p));
        TRY(t1, tc_pow_Tensor_Tensor(nrm, e));
        TRY(res, tc_mul_Tensor(t0, t1));
        return finish(c, &P, res);
    }
    if (p < 2.0) { /* sgn * |x| ** (p - 1) */
        TRY(e, num(p - 1.0));
        TRY(t0, tc_pow_Tensor_Tensor(a, e));
        TRY(t0, tc_mul_Tensor(sgn, t0));
    } else { /* x * |x| ** (p - 2) */
        TRY(e, num(p - 2.0));
        TRY(t0, tc_pow_Tensor_Tensor(a, e));
        TRY(t0, tc_mul_Tensor(x, t0));
    }
    /* grad / norm ** (p - 1), zero where the norm is */
    TRY(t1, add(nrm, nm));
    TRY(e, num(p - 1.0));
    TRY(t1, tc_pow_Tensor_Tensor(t1, e));
    TRY(scale, tc_div_Tensor(g, t1));
    TRY(t1, tc_logical_not(nm));
    TRY(scale, tc_mul_Tensor(scale, t1));
    TRY(res, tc_mul_Tensor(t0, scale));
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* ---- cumulative sums and products ---- */

/* x flipped along dim. */
static tc_tensor *flipped(tc_tensor *x, int64_t dim) { return tc_flip(x, TC_INTS(dim)); }

/* cumsum_backward(grad_output, dim): the reversed cumulative sum (the sum of what follows, itself
 * included). Its formula is cumsum. */
int tc_impl_cumsum_backward(tc_opcall *c) {
    pool P = {.n = 0};
    tc_tensor *g = tc_arg_tensor(c, 0), *t, *res;
    int64_t dim = tc_arg_int(c, 1);
    int32_t d;
    if (tc_shape_wrap_dim(dim, g->ndim, &d)) return TC_FAIL;
    if (g->ndim == 0 || g->sizes[d] <= 1) return tc_return(c, tc_clone(g, -1));
    TRY(t, flipped(g, d));
    TRY(t, tc_cumsum(t, d, -1));
    TRY(res, flipped(t, d));
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* cumprod_backward(grad_output, input, dim, output): the gradient of y = cumprod(x), grad_k =
 * sum over j >= k of g_j * prod over i <= j, i != k of x_i. Without zeros that is the reversed
 * cumsum of g * y over x. Along a line with zeros, with z1 its first zero: before z1 the same;
 * at z1 the reversed cumsum of g * cumprod(x with z1 made 1); after z1 zero, but as the zero times
 * the gradient of cumprod with z1 made 1 (a recursion that only a recorded backward needs, so that
 * its derivative reaching x_z1 is right). */
int tc_impl_cumprod_backward(tc_opcall *c) {
    pool P = {.n = 0};
    tc_tensor *g = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *y = tc_arg_tensor(c, 3);
    tc_tensor *w, *m, *cs, *before, *nbefore, *fzm, *nfzm, *xs, *A, *x2, *y2, *B, *t0, *res;
    int32_t d;
    if (tc_shape_wrap_dim(tc_arg_int(c, 2), x->ndim, &d)) return TC_FAIL;
    if (tc_tensor_numel(x) <= 1 || x->ndim == 0 || x->sizes[d] == 1) return tc_return(c, tc_clone(g, -1));
    TRY(x, as_dtype(x, g->dtype));
    if (tc_dtype_is_complex(x->dtype)) { /* grad times conjugates, as prod_backward */
        TRY(x, tc_conj_physical(x));
        TRY(y, tc_conj_physical(y));
    }
    TRY(w, tc_mul_Tensor(y, g));
    TRY(m, is_zero(x));
    bool zeros;
    if (any_true(m, &zeros)) goto failed;
    if (!zeros) {
        TRY(t0, tc_cumsum_backward(w, d));
        TRY(res, tc_div_Tensor(t0, x));
        return finish(c, &P, res);
    }
    TRY(cs, tc_cumsum(m, d, -1)); /* zeros so far */
    TRY(before, tc_eq_Scalar(cs, TC_SCALAR_OF_INT(0)));
    TRY(nbefore, tc_logical_not(before));
    TRY(t0, tc_eq_Scalar(cs, TC_SCALAR_OF_INT(1)));
    TRY(fzm, tc_logical_and(m, t0)); /* the first zero */
    TRY(nfzm, tc_logical_not(fzm));
    /* before the first zero: reversed cumsum of g * y over x (x is not zero there) */
    TRY(xs, tc_mul_Tensor(x, before));
    TRY(xs, add(xs, nbefore));
    TRY(t0, tc_cumsum_backward(w, d));
    TRY(t0, tc_div_Tensor(t0, xs));
    TRY(A, tc_mul_Tensor(t0, before));
    /* at the first zero: reversed cumsum of g * cumprod(x2), x2 = x with that zero made 1 */
    TRY(x2, tc_mul_Tensor(x, nfzm));
    TRY(x2, add(x2, fzm));
    TRY(y2, tc_cumprod(x2, d, -1));
    TRY(t0, tc_mul_Tensor(g, y2));
    TRY(t0, tc_cumsum_backward(t0, d));
    TRY(B, tc_mul_Tensor(t0, fzm));
    TRY(res, add(A, B));
    if (tc_grad_enabled()) { /* after the first zero: x_z1 * the gradient of cumprod(x2) */
        tc_tensor *after, *z, *R;
        TRY(after, tc_logical_and(nbefore, nfzm));
        TRY(t0, tc_mul_Tensor(x, fzm));
        TRY(z, tc_sum_dim_IntList(t0, &TC_INTS(d), true, -1));
        TRY(R, tc_cumprod_backward(g, x2, d, y2));
        TRY(t0, tc_mul_Tensor(R, z));
        TRY(t0, tc_mul_Tensor(t0, after));
        TRY(res, add(res, t0));
    }
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* The most negative finite value of a floating dtype (log of zero, kept finite as PyTorch does so
 * that logcumsumexp never subtracts infinities). */
static double lowest(int32_t dtype) {
    switch (dtype) {
    case TC_FLOAT16: return -65504.0;
    case TC_BFLOAT16: return -3.3895313892515355e38;
    case TC_FLOAT32: return -FLT_MAX;
    default: return -DBL_MAX;
    }
}

/* log|t| where t is positive (sign 1) or negative (sign -1), the lowest value elsewhere. */
static tc_tensor *log_part(pool *pp, tc_tensor *t, int sign) {
    pool P = *pp; /* temporaries go to the caller's pool; the result is the caller's to keep */
    tc_tensor *a, *la, *cond;
    TRY(a, tc_abs(t));
    TRY(la, tc_log(a));
    TRY(cond, sign > 0 ? tc_gt_Scalar(t, TC_SCALAR_OF_INT(0)) : tc_lt_Scalar(t, TC_SCALAR_OF_INT(0)));
    *pp = P;
    return tc_where_ScalarOther(cond, la, TC_SCALAR_OF_FLOAT(lowest(t->dtype)));
failed:
    *pp = P;
    return NULL;
}

/* logcumsumexp_backward(grad_output, input, output, dim): grad_k = sum over j >= k of
 * g_j * exp(x_k - r_j), computed in log space for the positive and negative parts of g (PyTorch's
 * way) with reversed logcumsumexps. Formulas: logcumsumexp_jvp is its adjoint in g. */
int tc_impl_logcumsumexp_backward(tc_opcall *c) {
    pool P = {.n = 0};
    tc_tensor *g = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *r = tc_arg_tensor(c, 2);
    tc_tensor *parts[2], *t, *res;
    int32_t d;
    if (tc_shape_wrap_dim(tc_arg_int(c, 3), g->ndim, &d)) return TC_FAIL;
    if (g->ndim == 0 || tc_tensor_numel(g) == 0) return tc_return(c, tc_clone(g, -1));
    for (int k = 0; k < 2; k++) {
        TRY(t, log_part(&P, g, k == 0 ? 1 : -1));
        TRY(t, sub(t, r));
        TRY(t, flipped(t, d));
        TRY(t, tc_logcumsumexp(t, d));
        TRY(t, flipped(t, d));
        TRY(t, add(t, x));
        TRY(parts[k], tc_exp(t));
    }
    TRY(res, sub(parts[0], parts[1]));
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* logcumsumexp_jvp(tangent, input, output, dim): the derivative of r = logcumsumexp(x) along t,
 * dr_j = sum over k <= j of t_k * exp(x_k - r_j), in log space as above. Its formulas make it and
 * logcumsumexp_backward each other's adjoints. */
int tc_impl_logcumsumexp_jvp(tc_opcall *c) {
    pool P = {.n = 0};
    tc_tensor *t = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *r = tc_arg_tensor(c, 2);
    tc_tensor *parts[2], *u, *res;
    int32_t d;
    if (tc_shape_wrap_dim(tc_arg_int(c, 3), t->ndim, &d)) return TC_FAIL;
    if (t->ndim == 0 || tc_tensor_numel(t) == 0) return tc_return(c, tc_clone(t, -1));
    for (int k = 0; k < 2; k++) {
        TRY(u, log_part(&P, t, k == 0 ? 1 : -1));
        TRY(u, add(u, x));
        TRY(u, tc_logcumsumexp(u, d));
        TRY(u, sub(u, r));
        TRY(parts[k], tc_exp(u));
    }
    TRY(res, sub(parts[0], parts[1]));
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* ---- selections ---- */

/* _select_values_at(self, dim, indices, keepdim): self's values at indices along dim (indices
 * without that dim unless keepdim), the adjoint of value_selecting_reduction_backward. */
int tc_impl__select_values_at(tc_opcall *c) {
    pool P = {.n = 0};
    tc_tensor *self = tc_arg_tensor(c, 0), *idx = tc_arg_tensor(c, 2), *res;
    bool keepdim = tc_arg_bool(c, 3);
    int32_t d;
    if (tc_shape_wrap_dim(tc_arg_int(c, 1), self->ndim, &d)) return TC_FAIL;
    if (self->ndim == 0) return tc_return(c, tc_clone(self, -1));
    if (!keepdim) TRY(idx, tc_unsqueeze(idx, d));
    TRY(res, tc_gather(self, d, idx, false));
    if (!keepdim) TRY(res, tc_squeeze_dim(res, d));
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* ---- quantile ---- */

enum { Q_LINEAR, Q_LOWER, Q_HIGHER, Q_MIDPOINT, Q_NEAREST };

/* What both quantile gradients need, in the layout where the reduced elements are the last dim
 * (self moved, or flattened) and the quantiles a last dim of their own: s [O..., n] and its sort,
 * the ranks below and above [O..., nq] (positions in the sorted line), the lerp weight w
 * [O..., nq] (NULL: all to below), coef (d rank / d q, broadcasting to [O..., nq]; zero where
 * the rank is pinned) and grad as G [O..., nq]. */
typedef struct qstate {
    tc_tensor *s, *sorted, *order, *rb, *ra, *w, *coef, *G;
    int mode;
    int32_t dim; /* -1: every element */
} qstate;

static int quantile_mode(const char *s) {
    static const char *const modes[] = {"linear", "lower", "higher", "midpoint", "nearest"};
    for (int m = 0; m < 5; m++)
        if (strcmp(s, modes[m]) == 0) return m;
    return -1;
}

/* Args: grad_output, input, q, dim, keepdim, interpolation, ignore_nan. */
static int quantile_state(tc_opcall *c, pool *pp, qstate *st) {
    pool P = *pp;
    tc_tensor *x = tc_arg_tensor(c, 1), *q = tc_arg_tensor(c, 2), *go = tc_arg_tensor(c, 0);
    bool ignore_nan = tc_arg_bool(c, 6);
    tc_tensor *qd, *qb, *rank, *t0, *t1, *valid, *cnt, *nan_line, *rv, *rbf;
    memset(st, 0, sizeof *st);
    st->mode = quantile_mode(c->args[5].v.s);
    if (st->mode < 0) {
        tc_set_error(TC_ERR_RUNTIME, "quantile() interpolation must be one of linear, lower, higher, midpoint or "
                                     "nearest, but got %s", c->args[5].v.s);
        goto failed;
    }
    st->dim = -1;
    if (!tc_arg_none(c, 3) && x->ndim > 0 && tc_shape_wrap_dim(tc_arg_int(c, 3), x->ndim, &st->dim)) goto failed;
    TRY(st->s, st->dim < 0 ? tc_reshape(x, TC_INTS(-1)) : tc_movedim_int(x, st->dim, -1));
    tc_tensor *s = st->s;
    int32_t lo = s->ndim - 1; /* the line's dim; O = s's sizes before it */
    int64_t n = s->sizes[lo], nq = q->ndim == 0 ? 1 : q->sizes[0];
    bool stable = true;
    tc_tensor *sv = NULL, *iv = NULL;
    if (tc_sort_stable(s, &stable, -1, false, &sv, &iv)) goto failed;
    if (!(st->sorted = keep(&P, sv))) {
        tc_tensor_release(iv);
        goto failed;
    }
    TRY(st->order, iv);
    /* q as [1..., nq], and detached for the ranks */
    int64_t shape[TC_MAX_DIMS];
    for (int32_t k = 0; k < lo; k++) shape[k] = 1;
    shape[lo] = nq;
    TRY(qb, tc_reshape(q, (tc_int_list){shape, s->ndim}));
    TRY(qd, tc_detach(qb));
    /* the rank, as the kernel computes it, and d rank / d q */
    if (ignore_nan) {
        TRY(t0, is_nan(st->sorted));
        TRY(t0, tc_logical_not(t0));
        TRY(valid, tc_sum_dim_IntList(t0, &TC_INTS(-1), true, -1));
        TRY(t1, inum(1));
        TRY(cnt, sub(valid, t1));
        TRY(rank, tc_mul_Tensor(qd, cnt));
        TRY(t0, tc_ge_Scalar(rank, TC_SCALAR_OF_INT(0)));
        TRY(st->coef, tc_mul_Tensor(cnt, t0));
        TRY(rank, tc_clamp_min(rank, TC_SCALAR_OF_INT(0)));
    } else {
        TRY(t0, tc_slice_Tensor(st->sorted, lo, TC_SOME_INT(n - 1), TC_SOME_INT(n), 1));
        TRY(nan_line, is_nan(t0)); /* NaN sorts last */
        TRY(rank, mul_num(qd, (double)(n - 1)));
        TRY(rank, tc_where_ScalarSelf(nan_line, TC_SCALAR_OF_FLOAT((double)(n - 1)), rank));
        TRY(t0, tc_logical_not(nan_line));
        TRY(t1, inum(n - 1));
        TRY(st->coef, tc_mul_Tensor(t0, t1));
    }
    switch (st->mode) {
    case Q_LOWER: TRY(rv, tc_floor(rank)); break;
    case Q_HIGHER: TRY(rv, tc_ceil(rank)); break;
    case Q_NEAREST: TRY(rv, tc_round(rank)); break;
    default: rv = rank; break;
    }
    TRY(t0, tc_to_dtype(rv, TC_INT64, false, false, -1));
    TRY(st->rb, tc_clamp(t0, &TC_SCALAR_OF_INT(0), &TC_SCALAR_OF_INT(n - 1)));
    if (st->mode == Q_LINEAR || st->mode == Q_MIDPOINT) {
        TRY(t0, tc_ceil(rv));
        TRY(t0, tc_to_dtype(t0, TC_INT64, false, false, -1));
        TRY(st->ra, tc_clamp(t0, &TC_SCALAR_OF_INT(0), &TC_SCALAR_OF_INT(n - 1)));
        if (st->mode == Q_MIDPOINT) {
            TRY(st->w, tc_full_like(rv, TC_SCALAR_OF_FLOAT(0.5), -1, -1, NULL, NULL, -1));
        } else { /* rank - below, with q's derivative: (q - q.detach()) * coef is a zero that has it */
            TRY(rbf, tc_to_dtype(st->rb, rv->dtype, false, false, -1));
            TRY(t0, sub(rv, rbf));
            TRY(t1, sub(qb, qd));
            TRY(t1, tc_mul_Tensor(t1, st->coef));
            TRY(st->w, add(t0, t1));
        }
    }
    /* grad as [O..., nq]: a 1-D q leads the result's dims */
    int64_t gshape[TC_MAX_DIMS + 1];
    for (int32_t k = 0; k < lo; k++) gshape[k + (q->ndim == 1)] = s->sizes[k];
    if (q->ndim == 1) {
        gshape[0] = nq;
        TRY(t0, tc_reshape(go, (tc_int_list){gshape, lo + 1}));
        TRY(st->G, tc_movedim_int(t0, 0, -1));
    } else {
        gshape[lo] = 1;
        TRY(st->G, tc_reshape(go, (tc_int_list){gshape, lo + 1}));
    }
    *pp = P;
    return TC_OK;
failed:
    *pp = P;
    return TC_FAIL;
}

/* quantile_backward(grad_output, input, q, dim, keepdim, interpolation, ignore_nan): the gradient
 * of (nan)quantile for input: grad * (1 - w) to the element below each quantile, grad * w to the one
 * above (grad to the one selected for lower, higher and nearest). */
int tc_impl_quantile_backward(tc_opcall *c) {
    pool P = {.n = 0};
    qstate st;
    tc_tensor *x = tc_arg_tensor(c, 1), *ib, *ia, *gb, *ga, *t0, *gs, *res;
    if (quantile_state(c, &P, &st)) goto failed;
    tc_int_list ssizes = {st.s->sizes, st.s->ndim};
    TRY(ib, tc_gather(st.order, -1, st.rb, false));
    if (st.w) {
        TRY(ia, tc_gather(st.order, -1, st.ra, false));
        TRY(t0, num(1.0));
        TRY(t0, sub(t0, st.w));
        TRY(gb, tc_mul_Tensor(st.G, t0));
        TRY(ga, tc_mul_Tensor(st.G, st.w));
        TRY(gs, tc_value_selecting_reduction_backward(gb, -1, ib, ssizes, true));
        TRY(t0, tc_value_selecting_reduction_backward(ga, -1, ia, ssizes, true));
        TRY(gs, add(gs, t0));
    } else {
        TRY(gs, tc_value_selecting_reduction_backward(st.G, -1, ib, ssizes, true));
    }
    TRY(res, st.dim < 0 ? tc_reshape(gs, (tc_int_list){x->sizes, x->ndim}) : tc_movedim_int(gs, -1, st.dim));
    return finish(c, &P, res);
failed:
    return fail(&P);
}

/* quantile_backward_q(...): the gradient of (nan)quantile for q: grad * (above - below) * d rank /
 * d q, summed over the lines (linear interpolation only: the other modes are flat in q). Lines
 * whose rank does not move with q give zero, also when their values are NaN. */
int tc_impl_quantile_backward_q(tc_opcall *c) {
    pool P = {.n = 0};
    qstate st;
    tc_tensor *q = tc_arg_tensor(c, 2), *vb, *va, *dv, *t0, *t1, *res;
    int mode = quantile_mode(c->args[5].v.s);
    if (mode >= 0 && mode != Q_LINEAR) return tc_return(c, tc_zeros_like(q, -1, -1, NULL, NULL, -1));
    if (quantile_state(c, &P, &st)) goto failed;
    TRY(vb, tc__select_values_at(st.sorted, -1, st.rb, true));
    TRY(va, tc__select_values_at(st.sorted, -1, st.ra, true));
    TRY(dv, sub(va, vb));
    TRY(t0, tc_eq_Scalar(st.coef, TC_SCALAR_OF_INT(0)));
    TRY(t1, is_finite(dv));
    TRY(t1, tc_logical_not(t1));
    TRY(t0, tc_logical_and(t0, t1));
    bool bad;
    if (any_true(t0, &bad)) goto failed;
    if (bad) TRY(dv, tc_masked_fill_Scalar(dv, t0, TC_SCALAR_OF_INT(0)));
    TRY(t0, tc_mul_Tensor(st.G, dv));
    TRY(t0, tc_mul_Tensor(t0, st.coef));
    int32_t lines = st.s->ndim - 1;
    if (lines > 0) {
        int64_t dims[TC_MAX_DIMS];
        for (int32_t k = 0; k < lines; k++) dims[k] = k;
        TRY(t0, tc_sum_dim_IntList(t0, &(tc_int_list){dims, lines}, false, -1));
    }
    TRY(res, tc_reshape(t0, (tc_int_list){q->sizes, q->ndim}));
    return finish(c, &P, res);
failed:
    return fail(&P);
}
