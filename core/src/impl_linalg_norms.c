/*
 * Norms and what is measured with them, composed as PyTorch 1.13 composes them: matrix_norm (over
 * vector_norm, svdvals and max/min), norm, nuclear_norm, cond, matrix_rank, pinv and pinverse; and
 * matrix_power and vecdot; renorm.
 *
 * Where PyTorch selects with where() or masked_fill(), a product with the 0/1 mask and a denominator
 * kept away from zero does the same without creating NaNs; cond's infinity for singular matrices
 * is pow(x, 1 - mask) * pow(inf, mask), which selects even where x is NaN (NaN^0 is 1).
 */
#include "linalg.h"
#include "nn_expr.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- small helpers over ops ---- */

static void drop(tc_tensor *a, tc_tensor *b, tc_tensor *c) {
    tc_tensor_release(a);
    tc_tensor_release(b);
    tc_tensor_release(c);
}

/* max or min along one dim (PyTorch's amax/amin; ties give their gradient to one element). */
static tc_tensor *extreme(tc_tensor *t, int64_t dim, bool keepdim, bool largest) {
    tc_tensor *v, *i;
    if ((largest ? tc_max_dim : tc_min_dim)(t, dim, keepdim, &v, &i)) return NULL;
    tc_tensor_release(i);
    return v;
}

static tc_tensor *scalar_like(double v, int32_t dtype, const tc_device *dev) {
    return tc_full(TC_NO_INTS, TC_SCALAR_OF_FLOAT(v), dtype, -1, dev, NULL);
}

/* The mask as a 0/1 tensor of dtype. */
static tc_tensor *as_float(tc_tensor *mask, int32_t dtype) {
    return tc_to_dtype(mask, dtype, false, false, -1);
}

/* ---- matrix_norm ---- */

/* The permutation moving dims d0, d1 to the end (PyTorch's create_dim_backshift_permutation). */
static void backshift(int32_t d0, int32_t d1, int32_t ndim, int64_t *perm) {
    int32_t k = 0;
    for (int32_t d = 0; d < ndim; d++)
        if (d != d0 && d != d1) perm[k++] = d;
    perm[k++] = d0, perm[k] = d1;
}

/* PyTorch's check_linalg_norm_dtype: a dtype= must be inexact, complex exactly when A is, and one A
 * converts to without narrowing. */
static int norm_dtype_check(const tc_tensor *a, int32_t dtype) {
    if (dtype < 0) return TC_OK;
    if (!tc_dtype_is_floating(dtype) && !tc_dtype_is_complex(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "linalg.matrix_norm: dtype should be floating point or complex, but got %s",
                            tc_dtype_scalar_name(dtype));
    const bool cplx = tc_dtype_is_complex(a->dtype);
    if (cplx != tc_dtype_is_complex(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "linalg.matrix_norm: dtype should be %s for %s inputs, but got %s",
                            cplx ? "complex" : "real", cplx ? "complex" : "real", tc_dtype_scalar_name(dtype));
    if (tc_promote_types(a->dtype, dtype) != dtype)
        return tc_set_error(TC_ERR_RUNTIME, "linalg.matrix_norm: the dtype of the input (%s) should be convertible "
                                            "without narrowing to the specified dtype (%s)",
                            tc_dtype_scalar_name(a->dtype), tc_dtype_scalar_name(dtype));
    return TC_OK;
}

/* PyTorch's _linalg_matrix_norm_checks; wraps dim. */
static int matrix_norm_checks(const tc_tensor *a, tc_int_list dim, int32_t *d, int32_t dtype, bool low_precision) {
    if (tc_linalg_check_matrix(a, "linalg.matrix_norm", "A") ||
        tc_linalg_check_inexact(a, "linalg.matrix_norm", low_precision))
        return TC_FAIL;
    if (dim.len != 2) {
        char s[256];
        tc_shape_format((int32_t)dim.len, dim.items, s, sizeof s);
        return tc_set_error(TC_ERR_RUNTIME, "linalg.matrix_norm: dim must be a 2-tuple. Got %s", s);
    }
    if (tc_shape_wrap_dim(dim.items[0], a->ndim, &d[0]) || tc_shape_wrap_dim(dim.items[1], a->ndim, &d[1]))
        return TC_FAIL;
    if (d[0] == d[1])
        return tc_set_error(TC_ERR_RUNTIME, "linalg.matrix_norm: dims must be different. Got (%d, %d)", d[0], d[1]);
    return norm_dtype_check(a, dtype);
}

/* svdvals over dims d (moved to the end), reduced by `reduce` (0 sum, 1 max, -1 min), keepdim put back. */
static tc_tensor *svdvals_norm(tc_tensor *a, const int32_t *d, bool keepdim, int32_t dtype, int reduce) {
    int64_t perm[TC_MAX_DIMS];
    backshift(d[0], d[1], a->ndim, perm);
    tc_tensor *ac = dtype >= 0 ? tc_to_dtype(a, dtype, false, false, -1) : (tc_tensor_retain(a), a);
    tc_tensor *ap = ac ? tc_permute(ac, (tc_int_list){perm, a->ndim}) : NULL;
    tc_tensor *s = ap ? tc_linalg_svdvals(ap, NULL) : NULL;
    tc_tensor *r = !s ? NULL : reduce ? extreme(s, -1, keepdim, reduce > 0) : tc_sum_dim_IntList(s, &TC_INTS(-1), keepdim, -1);
    drop(ac, ap, s);
    if (r && keepdim) { /* the kept dims back where they were */
        int64_t inv[TC_MAX_DIMS];
        for (int32_t i = 0; i < a->ndim; i++) inv[perm[i]] = i;
        tc_tensor *u = tc_unsqueeze(r, -1), *p = u ? tc_permute(u, (tc_int_list){inv, a->ndim}) : NULL;
        tc_tensor_release(u);
        tc_tensor_release(r);
        r = p;
    }
    return r;
}

static tc_tensor *matrix_norm_scalar(tc_tensor *a, double ord, tc_int_list dim, bool keepdim, int32_t dtype) {
    const double abs_ord = fabs(ord);
    if (!(abs_ord == 2 || abs_ord == 1 || abs_ord == INFINITY))
        return tc_set_error(TC_ERR_RUNTIME, "linalg.matrix_norm: Order %g not supported.", ord), NULL;
    int32_t d[2];
    if (matrix_norm_checks(a, dim, d, dtype, abs_ord != 2)) return NULL;
    if (abs_ord == 2) return svdvals_norm(a, d, keepdim, dtype, ord > 0 ? 1 : -1);
    if (abs_ord == INFINITY) { /* the inf norm is the 1 norm of the transpose */
        const int32_t t = d[0];
        d[0] = d[1], d[1] = t;
    }
    if (!keepdim && d[0] < d[1]) d[1]--;
    tc_tensor *s = tc_linalg_vector_norm(a, TC_SCALAR_OF_FLOAT(1.0), &TC_INTS(d[0]), keepdim, dtype);
    tc_tensor *r = s ? extreme(s, d[1], keepdim, ord > 0) : NULL;
    tc_tensor_release(s);
    return r;
}

static tc_tensor *matrix_norm_str(tc_tensor *a, const char *ord, tc_int_list dim, bool keepdim, int32_t dtype) {
    const bool fro = strcmp(ord, "fro") == 0, nuc = strcmp(ord, "nuc") == 0;
    if (!fro && !nuc) return tc_set_error(TC_ERR_RUNTIME, "linalg.matrix_norm: Order %s not supported.", ord), NULL;
    int32_t d[2];
    if (matrix_norm_checks(a, dim, d, dtype, !nuc)) return NULL;
    if (fro) return tc_linalg_vector_norm(a, TC_SCALAR_OF_INT(2), &dim, keepdim, dtype);
    return svdvals_norm(a, d, keepdim, dtype, 0);
}

static double scalar_value(tc_scalar s) { return s.kind == TC_SCALAR_FLOAT ? s.v.f : (double)s.v.i; }

/* linalg_matrix_norm(self, Scalar ord, dim, keepdim, *, dtype) */
int tc_impl_linalg_matrix_norm(tc_opcall *c) {
    return tc_return(c, matrix_norm_scalar(tc_arg_tensor(c, 0), scalar_value(c->args[1].v.scalar), tc_arg_ints(c, 2),
                                           tc_arg_bool(c, 3), tc_arg_enum(c, 4)));
}

/* linalg_matrix_norm.str_ord(self, str ord, dim, keepdim, *, dtype) */
int tc_impl_linalg_matrix_norm_str_ord(tc_opcall *c) {
    return tc_return(c, matrix_norm_str(tc_arg_tensor(c, 0), c->args[1].v.s, tc_arg_ints(c, 2), tc_arg_bool(c, 3),
                                        tc_arg_enum(c, 4)));
}

/* ---- norm ---- */

static int norm_dim_check(const tc_tensor *a, const tc_opcall *c, bool ord_given) {
    if (!tc_arg_none(c, 2)) {
        const int64_t n = c->args[2].v.ints.len;
        if (n != 1 && n != 2)
            return tc_set_error(TC_ERR_RUNTIME, "linalg.norm: If dim is specified, it must be of length 1 or 2. Got "
                                                "%lld items", (long long)n);
    } else if (ord_given && a->ndim != 1 && a->ndim != 2) {
        return tc_set_error(TC_ERR_RUNTIME, "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                                            "Got %dD.", a->ndim);
    }
    return TC_OK;
}

/* linalg_norm(self, Scalar? ord, dim, keepdim, *, dtype): a matrix norm for 2 dims and an ord, else
 * a vector norm (ord None: the 2-norm, which is Frobenius' for matrices). */
int tc_impl_linalg_norm(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    const bool ord_given = !tc_arg_none(c, 1);
    if (norm_dim_check(a, c, ord_given)) return TC_FAIL;
    const bool has_dim = !tc_arg_none(c, 2);
    tc_int_list dim = has_dim ? tc_arg_ints(c, 2) : TC_INTS(0, 1);
    if (ord_given && ((has_dim && dim.len == 2) || (!has_dim && a->ndim == 2)))
        return tc_return(c, matrix_norm_scalar(a, scalar_value(c->args[1].v.scalar), dim, tc_arg_bool(c, 3),
                                               tc_arg_enum(c, 4)));
    const tc_scalar ord = ord_given ? c->args[1].v.scalar : TC_SCALAR_OF_FLOAT(2.0);
    return tc_return(c, tc_linalg_vector_norm(a, ord, has_dim ? &dim : NULL, tc_arg_bool(c, 3), tc_arg_enum(c, 4)));
}

/* linalg_norm.ord_str(self, str ord, dim, keepdim, *, dtype): 'fro' or 'nuc' */
int tc_impl_linalg_norm_ord_str(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (norm_dim_check(a, c, true)) return TC_FAIL;
    tc_int_list dim = tc_arg_none(c, 2) ? TC_INTS(0, 1) : tc_arg_ints(c, 2);
    return tc_return(c, matrix_norm_str(a, c->args[1].v.s, dim, tc_arg_bool(c, 3), tc_arg_enum(c, 4)));
}

/* nuclear_norm(self, keepdim) and nuclear_norm.dim(self, dim, keepdim) */
int tc_impl_nuclear_norm(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (a->ndim != 2)
        return tc_set_error(TC_ERR_RUNTIME, "Expected a tensor with 2 dimensions, but got a tensor with %d dimension%s "
                                            "instead.", a->ndim, a->ndim == 1 ? "" : "s");
    return tc_return(c, matrix_norm_str(a, "nuc", TC_INTS(0, 1), tc_arg_bool(c, 1), -1));
}

int tc_impl_nuclear_norm_dim(tc_opcall *c) {
    return tc_return(c, matrix_norm_str(tc_arg_tensor(c, 0), "nuc", tc_arg_ints(c, 1), tc_arg_bool(c, 2), -1));
}

/* linalg_vecdot(x, y, *, dim) */
int tc_impl_linalg_vecdot(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0), *y = tc_arg_tensor(c, 1);
    if (!tc_dtype_is_complex(x->dtype) && tc_linalg_check_floating(x, "linalg.vecdot", true)) return TC_FAIL;
    if (x->dtype != y->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                                            "%s and y of type %s instead", tc_dtype_scalar_name(x->dtype),
                            tc_dtype_scalar_name(y->dtype));
    /* sum(conj(x) * y) along dim: x's conjugate is a lazy view, which mul reads as such */
    tc_tensor *cx = tc_dtype_is_complex(x->dtype) ? tc_conj(x) : (tc_tensor_retain(x), x);
    tc_tensor *m = cx ? tc_mul_Tensor(cx, y) : NULL;
    tc_tensor *r = m ? tc_sum_dim_IntList(m, &TC_INTS(tc_arg_int(c, 2)), false, -1) : NULL;
    tc_tensor_release(cx);
    tc_tensor_release(m);
    return tc_return(c, r);
}

/* ---- cond ---- */

static bool cond_ord_ok(double ord) {
    const double a = fabs(ord);
    return a == 2 || a == 1 || a == INFINITY;
}

/* For a 0x0 matrix the condition number is 0 (real for a complex matrix), as PyTorch returns it. */
static tc_tensor *cond_empty(tc_tensor *a) {
    return tc_zeros((tc_int_list){a->sizes, a->ndim - 2}, tc_dtype_to_real(a->dtype), -1, &a->device, NULL);
}

/* norm(A) * norm(A^-1), infinity for a singular A (PyTorch fills its inverse with infinities). */
static tc_tensor *cond_helper(tc_tensor *a, const double *ord, const char *str_ord) {
    tc_tensor *inv, *info;
    if (tc_linalg_inv_ex(a, false, &inv, &info)) return NULL;
    tc_tensor *na = str_ord ? matrix_norm_str(a, str_ord, TC_INTS(-2, -1), false, -1)
                            : matrix_norm_scalar(a, *ord, TC_INTS(-2, -1), false, -1);
    tc_tensor *ni = na ? (str_ord ? matrix_norm_str(inv, str_ord, TC_INTS(-2, -1), false, -1)
                                  : matrix_norm_scalar(inv, *ord, TC_INTS(-2, -1), false, -1))
                       : NULL;
    tc_tensor *r = ni ? tc_mul_Tensor(na, ni) : NULL;
    drop(inv, na, ni);
    /* r^(1 - s) * inf^s with s = (info > 0) */
    tc_tensor *zero = r ? tc_scalar_tensor(TC_SCALAR_OF_INT(0), TC_INT32) : NULL;
    tc_tensor *sb = zero ? tc_gt_Tensor(info, zero) : NULL, *s = sb ? as_float(sb, r->dtype) : NULL;
    tc_tensor *one = s ? scalar_like(1.0, r->dtype, &r->device) : NULL;
    tc_tensor *keep = one ? tc_sub_Tensor(one, s, TC_SCALAR_OF_INT(1)) : NULL;
    tc_tensor *rk = keep ? tc_pow_Tensor_Tensor(r, keep) : NULL;
    tc_tensor *inf = rk ? scalar_like(INFINITY, r->dtype, &r->device) : NULL;
    tc_tensor *is = inf ? tc_pow_Tensor_Tensor(inf, s) : NULL;
    tc_tensor *out = is ? tc_mul_Tensor(rk, is) : NULL;
    drop(info, r, zero);
    drop(sb, s, one);
    drop(keep, rk, inf);
    tc_tensor_release(is);
    return out;
}

/* The ratio of the largest and smallest singular values (or its inverse for ord -2). */
static tc_tensor *cond_2(tc_tensor *a, bool inverse) {
    tc_tensor *s = tc_linalg_svdvals(a, NULL);
    const int64_t k = s ? s->sizes[s->ndim - 1] : 0;
    tc_tensor *mx = s ? tc_select_int(s, -1, 0) : NULL, *mn = mx ? tc_select_int(s, -1, k - 1) : NULL;
    tc_tensor *r = mn ? (inverse ? tc_div_Tensor(mn, mx) : tc_div_Tensor(mx, mn)) : NULL;
    drop(s, mx, mn);
    return r;
}

/* linalg_cond(self, Scalar? p) */
int tc_impl_linalg_cond(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (a->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "linalg.cond: The input tensor must have at least 2 dimensions.");
    const tc_scalar ps = tc_arg_none(c, 1) ? TC_SCALAR_OF_INT(2) : c->args[1].v.scalar;
    const double ord = scalar_value(ps);
    if (!cond_ord_ok(ord)) return tc_set_error(TC_ERR_RUNTIME, "linalg.cond got an invalid norm type: %g", ord);
    if (tc_tensor_numel(a) == 0) return tc_return(c, cond_empty(a));
    if (fabs(ord) == 2) return tc_return(c, cond_2(a, ord < 0));
    char api[96];
    if (ps.kind == TC_SCALAR_FLOAT)
        snprintf(api, sizeof api, "linalg.cond(ord=%f)", ord);
    else
        snprintf(api, sizeof api, "linalg.cond(ord=%lld)", (long long)ps.v.i);
    if (tc_linalg_check_square(a, api, "A")) return TC_FAIL;
    return tc_return(c, cond_helper(a, &ord, NULL));
}

/* linalg_cond.p_str(self, str p): 'fro' or 'nuc' */
int tc_impl_linalg_cond_p_str(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    const char *p = c->args[1].v.s;
    if (strcmp(p, "fro") != 0 && strcmp(p, "nuc") != 0)
        return tc_set_error(TC_ERR_RUNTIME, "linalg.cond got an invalid norm type: %s", p);
    if (a->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "linalg.cond: The input tensor must have at least 2 dimensions.");
    if (tc_tensor_numel(a) == 0) return tc_return(c, cond_empty(a));
    char api[64];
    snprintf(api, sizeof api, "linalg.cond(ord=%s)", p);
    if (tc_linalg_check_square(a, api, "A")) return TC_FAIL;
    if (strcmp(p, "nuc") == 0) { /* sum(s) * sum(1/s), as PyTorch: matrix_norm would refuse infinities */
        tc_tensor *s = tc_linalg_svdvals(a, NULL), *one = s ? scalar_like(1.0, s->dtype, &s->device) : NULL;
        tc_tensor *r = one ? tc_div_Tensor(one, s) : NULL;
        tc_tensor *s1 = r ? tc_sum_dim_IntList(s, &TC_INTS(-1), false, -1) : NULL;
        tc_tensor *s2 = s1 ? tc_sum_dim_IntList(r, &TC_INTS(-1), false, -1) : NULL;
        tc_tensor *out = s2 ? tc_mul_Tensor(s1, s2) : NULL;
        drop(s, r, s1);
        drop(s2, one, NULL);
        return tc_return(c, out);
    }
    return tc_return(c, cond_helper(a, NULL, p));
}

/* ---- tolerances: matrix_rank, pinv ---- */

/* PyTorch's checkNotComplexTolerance: atol and rtol tensors are real. */
static int real_tolerance(const tc_tensor *t, const char *api, const char *name) {
    if (!t || !tc_dtype_is_complex(t->dtype)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s: %s tensor of complex type is not supported. Got %s", api, name,
                        tc_dtype_scalar_name(t->dtype));
}

/* PyTorch's get_atol_rtol: atol (default 0) and rtol (default eps * max(m, n), or 0 when an atol > 0
 * is given), as float64 tensors; api names the caller in errors. The default rtol needs the epsilon of
 * A's parts, which PyTorch has for float and double only. */
static int atol_rtol(tc_tensor *a, tc_tensor *atol_t, tc_tensor *rtol_t, const double *atol_f, const double *rtol_f,
                     const char *api, tc_tensor **atol, tc_tensor **rtol) {
    const tc_device dev = a->device;
    const int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
    const int32_t part = tc_dtype_to_real(a->dtype); /* a complex dtype's epsilon is its parts' */
    const double eps = (part == TC_FLOAT64 ? DBL_EPSILON : FLT_EPSILON) * (double)(m > n ? m : n);
    if (real_tolerance(atol_t, api, "atol") || real_tolerance(rtol_t, api, "rtol")) return TC_FAIL;
    if (!rtol_t && !rtol_f && part != TC_FLOAT32 && part != TC_FLOAT64)
        return tc_set_error(TC_ERR_RUNTIME, "This function doesn't handle types other than float and double");
    *atol = atol_t ? (tc_tensor_retain(atol_t), atol_t) : tc_full(TC_NO_INTS, TC_SCALAR_OF_FLOAT(atol_f ? *atol_f : 0.0),
                                                                  TC_FLOAT64, -1, &dev, NULL);
    if (!*atol) return TC_FAIL;
    if (rtol_t) {
        tc_tensor_retain(rtol_t);
        *rtol = rtol_t;
    } else if (rtol_f) {
        *rtol = tc_full(TC_NO_INTS, TC_SCALAR_OF_FLOAT(*rtol_f), TC_FLOAT64, -1, &dev, NULL);
    } else if (atol_t) { /* eps * max(m, n) where atol <= 0, else 0 */
        tc_tensor *zero = tc_scalar_tensor(TC_SCALAR_OF_INT(0), TC_FLOAT64);
        tc_tensor *le = zero ? tc_le_Tensor(atol_t, zero) : NULL, *lf = le ? as_float(le, TC_FLOAT64) : NULL;
        tc_tensor *e = lf ? tc_scalar_tensor(TC_SCALAR_OF_FLOAT(eps), TC_FLOAT64) : NULL;
        *rtol = e ? tc_mul_Tensor(lf, e) : NULL;
        drop(zero, le, lf);
        tc_tensor_release(e);
    } else {
        *rtol = tc_full(TC_NO_INTS, TC_SCALAR_OF_FLOAT(atol_f && *atol_f > 0 ? 0.0 : eps), TC_FLOAT64, -1, &dev, NULL);
    }
    if (!*rtol) {
        tc_tensor_release(*atol);
        return TC_FAIL;
    }
    return TC_OK;
}

/* max(atol, rtol * largest), per matrix, as [*, 1] to compare with the [*, k] singular values. */
static tc_tensor *tolerance(tc_tensor *atol, tc_tensor *rtol, tc_tensor *largest) {
    tc_tensor *au = tc_unsqueeze(atol, -1), *ru = au ? tc_unsqueeze(rtol, -1) : NULL;
    tc_tensor *rs = ru ? tc_mul_Tensor(ru, largest) : NULL, *tol = rs ? tc_maximum(au, rs) : NULL;
    drop(au, ru, rs);
    return tol;
}

/* Singular values (or absolute eigenvalues) and the largest of them per matrix, as [*, 1]. */
static int spectrum(tc_tensor *a, bool hermitian, tc_tensor **s, tc_tensor **largest, tc_tensor **vectors,
                    tc_tensor **u_out) {
    if (!hermitian && !vectors) {
        if (!(*s = tc_linalg_svdvals(a, NULL))) return TC_FAIL;
    } else if (!hermitian) { /* V = Vh^H */
        tc_tensor *vh;
        if (tc_linalg_svd(a, false, NULL, u_out, s, &vh)) return TC_FAIL;
        tc_tensor *vt = tc_transpose_int(vh, -2, -1);
        *vectors = vt ? tc_conj(vt) : NULL;
        tc_tensor_release(vh);
        tc_tensor_release(vt);
        if (!*vectors) {
            tc_tensor_release(*s);
            tc_tensor_release(*u_out);
            return TC_FAIL;
        }
    } else {
        tc_tensor *w, *v;
        if (tc_linalg_eigh(a, "L", &w, &v)) return TC_FAIL;
        if (vectors) *vectors = v; else tc_tensor_release(v);
        if (u_out) *u_out = NULL;
        *s = w;
    }
    if (hermitian) {
        tc_tensor *abs = tc_abs(*s);
        *largest = abs ? extreme(abs, -1, true, true) : NULL;
        tc_tensor_release(abs);
    } else {
        *largest = tc_slice_Tensor(*s, -1, TC_SOME_INT(0), TC_SOME_INT(1), 1);
    }
    return *largest ? TC_OK : TC_FAIL;
}

/* The input's dtype is checked by svdvals or eigh, as PyTorch's is. */
static tc_tensor *matrix_rank(tc_tensor *a, tc_tensor *atol, tc_tensor *rtol, bool hermitian) {
    if (tc_tensor_numel(a) == 0) return tc_zeros((tc_int_list){a->sizes, a->ndim - 2}, TC_INT64, -1, &a->device, NULL);
    tc_tensor *s, *largest;
    if (spectrum(a, hermitian, &s, &largest, NULL, NULL)) return NULL;
    tc_tensor *abs = hermitian ? tc_abs(s) : (tc_tensor_retain(s), s);
    tc_tensor *tol = abs ? tolerance(atol, rtol, largest) : NULL, *above = tol ? tc_gt_Tensor(abs, tol) : NULL;
    tc_tensor *r = above ? tc_sum_dim_IntList(above, &TC_INTS(-1), false, -1) : NULL;
    drop(s, largest, abs);
    drop(tol, above, NULL);
    return r;
}

static tc_tensor *rank_with(tc_opcall *c, tc_tensor *atol_t, tc_tensor *rtol_t, const double *atol_f,
                            const double *rtol_f, bool hermitian) {
    tc_tensor *a = tc_arg_tensor(c, 0), *atol, *rtol;
    if (a->ndim < 2)
        return tc_set_error(TC_ERR_RUNTIME, "torch.linalg.matrix_rank: The input tensor input must have at least 2 "
                                            "dimensions."),
               NULL;
    if (atol_rtol(a, atol_t, rtol_t, atol_f, rtol_f, "torch.linalg.matrix_rank", &atol, &rtol)) return NULL;
    tc_tensor *r = matrix_rank(a, atol, rtol, hermitian);
    tc_tensor_release(atol);
    tc_tensor_release(rtol);
    return r;
}

/* linalg_matrix_rank(self, float tol, hermitian): tol absolute (NumPy's meaning) */
int tc_impl_linalg_matrix_rank(tc_opcall *c) {
    const double tol = c->args[1].v.f, zero = 0;
    return tc_return(c, rank_with(c, NULL, NULL, &tol, &zero, tc_arg_bool(c, 2)));
}

int tc_impl_linalg_matrix_rank_tol_tensor(tc_opcall *c) {
    const double zero = 0;
    return tc_return(c, rank_with(c, tc_arg_tensor(c, 1), NULL, NULL, &zero, tc_arg_bool(c, 2)));
}

int tc_impl_linalg_matrix_rank_atol_rtol_tensor(tc_opcall *c) {
    return tc_return(c, rank_with(c, tc_arg_none(c, 1) ? NULL : tc_arg_tensor(c, 1),
                                  tc_arg_none(c, 2) ? NULL : tc_arg_tensor(c, 2), NULL, NULL, tc_arg_bool(c, 3)));
}

int tc_impl_linalg_matrix_rank_atol_rtol_float(tc_opcall *c) {
    return tc_return(c, rank_with(c, NULL, NULL, tc_arg_none(c, 1) ? NULL : &c->args[1].v.f,
                                  tc_arg_none(c, 2) ? NULL : &c->args[2].v.f, tc_arg_bool(c, 3)));
}

/* pinv: V diag(1/s where s > tol, else 0) U^H, by svd, or by eigh for Hermitian matrices (by svd
 * when A is empty, as PyTorch's: the largest absolute eigenvalue of none has no value). */
static tc_tensor *pinv(tc_tensor *a, tc_tensor *atol, tc_tensor *rtol, bool hermitian) {
    tc_tensor *s, *largest, *v, *u = NULL;
    if (tc_tensor_numel(a) == 0) hermitian = false;
    if (spectrum(a, hermitian, &s, &largest, &v, &u)) return NULL;
    if (hermitian) u = (tc_tensor_retain(v), v);
    tc_tensor *abs = hermitian ? tc_abs(s) : (tc_tensor_retain(s), s);
    tc_tensor *tol = abs ? tolerance(atol, rtol, largest) : NULL, *above = tol ? tc_gt_Tensor(abs, tol) : NULL;
    /* m / (s m + 1 - m): 1/s where kept, 0 elsewhere, never a division by zero */
    tc_tensor *m = above ? as_float(above, s->dtype) : NULL, *sm = m ? tc_mul_Tensor(s, m) : NULL;
    tc_tensor *one = sm ? scalar_like(1.0, s->dtype, &s->device) : NULL;
    tc_tensor *om = one ? tc_sub_Tensor(one, m, TC_SCALAR_OF_INT(1)) : NULL;
    tc_tensor *den = om ? tc_add_Tensor(sm, om, TC_SCALAR_OF_INT(1)) : NULL;
    tc_tensor *sinv = den ? tc_div_Tensor(m, den) : NULL, *row = sinv ? tc_unsqueeze(sinv, -2) : NULL;
    tc_tensor *vs = row ? tc_mul_Tensor(v, row) : NULL, *ut = vs ? tc_transpose_int(u, -2, -1) : NULL;
    tc_tensor *uh = ut ? tc_conj(ut) : NULL, *r = uh ? tc_matmul(vs, uh) : NULL;
    tc_tensor_release(uh);
    drop(s, largest, v);
    drop(u, abs, tol);
    drop(above, m, sm);
    drop(one, om, den);
    drop(sinv, row, vs);
    tc_tensor_release(ut);
    return r;
}

static tc_tensor *pinv_with(tc_tensor *a, tc_tensor *atol_t, tc_tensor *rtol_t, const double *atol_f,
                            const double *rtol_f, bool hermitian) {
    tc_tensor *atol = NULL, *rtol = NULL;
    if (!(a->dtype == TC_FLOAT32 || a->dtype == TC_FLOAT64 || a->dtype == TC_COMPLEX64 || a->dtype == TC_COMPLEX128) ||
        a->ndim < 2) {
        char s[256];
        tc_shape_format(a->ndim, a->sizes, s, sizeof s);
        return tc_set_error(TC_ERR_RUNTIME, "linalg.pinv(%s{%s}): expected a tensor with 2 or more dimensions of float, "
                                            "double, cfloat or cdouble types", tc_dtype_scalar_name(a->dtype), s),
               NULL;
    }
    if (atol_rtol(a, atol_t, rtol_t, atol_f, rtol_f, "torch.linalg.pinv", &atol, &rtol)) return NULL;
    tc_tensor *r = pinv(a, atol, rtol, hermitian);
    tc_tensor_release(atol);
    tc_tensor_release(rtol);
    return r;
}

/* linalg_pinv(self, float rcond, hermitian): rcond relative (NumPy's meaning) */
int tc_impl_linalg_pinv(tc_opcall *c) {
    const double zero = 0;
    return tc_return(c, pinv_with(tc_arg_tensor(c, 0), NULL, NULL, &zero, &c->args[1].v.f, tc_arg_bool(c, 2)));
}

int tc_impl_linalg_pinv_atol_rtol_float(tc_opcall *c) {
    return tc_return(c, pinv_with(tc_arg_tensor(c, 0), NULL, NULL, tc_arg_none(c, 1) ? NULL : &c->args[1].v.f,
                                  tc_arg_none(c, 2) ? NULL : &c->args[2].v.f, tc_arg_bool(c, 3)));
}

int tc_impl_linalg_pinv_atol_rtol_tensor(tc_opcall *c) {
    return tc_return(c, pinv_with(tc_arg_tensor(c, 0), tc_arg_none(c, 1) ? NULL : tc_arg_tensor(c, 1),
                                  tc_arg_none(c, 2) ? NULL : tc_arg_tensor(c, 2), NULL, NULL, tc_arg_bool(c, 3)));
}

int tc_impl_linalg_pinv_rcond_tensor(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    const double zero = 0;
    tc_tensor *atol = tc_full(TC_NO_INTS, TC_SCALAR_OF_FLOAT(zero), TC_FLOAT64, -1, &a->device, NULL);
    tc_tensor *r = atol ? pinv_with(a, atol, tc_arg_tensor(c, 1), NULL, NULL, tc_arg_bool(c, 2)) : NULL;
    tc_tensor_release(atol);
    return tc_return(c, r);
}

/* pinverse(self, rcond) */
int tc_impl_pinverse(tc_opcall *c) {
    const double zero = 0;
    return tc_return(c, pinv_with(tc_arg_tensor(c, 0), NULL, NULL, &zero, &c->args[1].v.f, false));
}

/* ---- matrix_power ---- */

/* A^n by repeated squaring, A^-1's powers for n < 0; n = 0 gives the identity (a copy of A
 * overwritten, so the result stays in the graph), n = 1 a copy. */
static tc_tensor *matrix_power(tc_tensor *a, int64_t n) {
    if (tc_linalg_check_square(a, "linalg.matrix_power", "A")) return NULL;
    if (n == 0) {
        tc_tensor *r = tc_clone(a, TC_MEMORY_FORMAT_CONTIGUOUS);
        const int64_t m = a->sizes[a->ndim - 1];
        tc_tensor *eye = r ? tc_eye_m(m, m, a->dtype, -1, &a->device, NULL) : NULL;
        tc_tensor *done = eye ? tc_copy_(r, eye, false) : NULL;
        tc_tensor_release(eye);
        tc_tensor_release(done);
        if (!done) tc_tensor_release(r);
        return done ? r : NULL;
    }
    if (n == 1) return tc_clone(a, TC_MEMORY_FORMAT_CONTIGUOUS);
    if (n == -1) return tc_linalg_inv(a);
    tc_tensor *base = n < 0 ? tc_linalg_inv(a) : (tc_tensor_retain(a), a);
    if (!base) return NULL;
    uint64_t k = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
    tc_tensor *r = NULL;
    if (k == 2 || k == 3) {
        tc_tensor *sq = tc_matmul(base, base);
        r = k == 2 || !sq ? sq : tc_matmul(sq, base);
        if (k == 3) tc_tensor_release(sq);
        tc_tensor_release(base);
        return r;
    }
    tc_tensor *z = NULL;
    while (k > 0) {
        const bool bit = k & 1;
        k >>= 1;
        tc_tensor *nz = z ? tc_matmul(z, z) : (tc_tensor_retain(base), base);
        tc_tensor_release(z);
        if (!(z = nz)) break;
        if (bit) {
            tc_tensor *nr = r ? tc_matmul(r, z) : (tc_tensor_retain(z), z);
            tc_tensor_release(r);
            if (!(r = nr)) break;
        }
    }
    tc_tensor_release(z);
    tc_tensor_release(base);
    return r;
}

int tc_impl_linalg_matrix_power(tc_opcall *c) { return tc_return(c, matrix_power(tc_arg_tensor(c, 0), tc_arg_int(c, 1))); }
int tc_impl_matrix_power(tc_opcall *c) { return tc_return(c, matrix_power(tc_arg_tensor(c, 0), tc_arg_int(c, 1))); }

/* renorm(self, p, dim, maxnorm): each slice along dim whose p-norm exceeds maxnorm scaled to it,
 * by maxnorm / (norm + 1e-7) as PyTorch scales (the norms over every other dim). */
int tc_impl_renorm(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    const tc_scalar p = c->args[1].v.scalar, maxnorm = c->args[3].v.scalar;
    const double pv = tc_scalar_to_double(p), maxv = tc_scalar_to_double(maxnorm);
    if (!(pv > 0)) return tc_set_error(TC_ERR_RUNTIME, "renorm: non-positive-norm not supported");
    if (!(maxv >= 0)) return tc_set_error(TC_ERR_RUNTIME, "renorm: expected maxnorm to be >= 0 but got %g", maxv);
    if (self->ndim < 2)
        return tc_set_error(TC_ERR_RUNTIME, "renorm: input needs at least 2 dimensions, got %d dimensions", self->ndim);
    int32_t dim;
    if (tc_shape_wrap_dim(tc_arg_int(c, 2), self->ndim, &dim)) return TC_FAIL;
    int64_t others[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < self->ndim; d++)
        if (d != dim) others[n++] = d;
    const tc_int_list reduce_dims = {others, n};
    nnx_scope k = {0};
    tc_tensor *norm = nnx_keep(&k, tc_linalg_vector_norm(self, p, &reduce_dims, true, -1));
    tc_tensor *over = norm ? nnx_keep(&k, tc_gt_Scalar(norm, maxnorm)) : NULL;
    tc_tensor *padded = nnx_add(&k, norm, nnx_number(&k, 1e-7)), *limit = nnx_number(&k, maxv);
    tc_tensor *scaled = padded && limit ? nnx_keep(&k, tc_div_Tensor(limit, padded)) : NULL;
    tc_tensor *factor = scaled && over ? nnx_keep(&k, tc_where_self(over, scaled, nnx_number(&k, 1.0))) : NULL;
    tc_tensor *r = nnx_result(&k, factor ? nnx_mul(&k, self, factor) : NULL);
    nnx_release(&k);
    return tc_return(c, r);
}
