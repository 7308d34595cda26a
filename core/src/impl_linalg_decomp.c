/*
 * The composites over the factorisations: what PyTorch's linalg functions and their older names do
 * around the structured ops (linalg_lu_factor_ex, _linalg_det, _linalg_solve_ex, ...): pick results,
 * raise LAPACK's failures with each function's own words (tc_linalg_check_errors), warn once about
 * deprecated names, and put results into the shapes the older APIs promised.
 */
#include "linalg.h"
#include "torch_core/tc_autograd.h"

#include <math.h>
#include <stdatomic.h>

/* PyTorch's TORCH_WARN_ONCE: the first call in the process warns. */
static void warn_once(atomic_bool *done, const char *message) {
    if (!atomic_exchange(done, true)) tc_warn("%s", message);
}

static int return2(tc_opcall *c, tc_tensor *a, tc_tensor *b) {
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = a};
    c->outs[1] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = b};
    return TC_OK;
}

static void release(tc_tensor *a, tc_tensor *b, tc_tensor *c, tc_tensor *d) {
    tc_tensor_release(a);
    tc_tensor_release(b);
    tc_tensor_release(c);
    tc_tensor_release(d);
}

/* ---- LU ---------------------------------------------------------------------------------------- */

/* linalg_lu_factor(A, *, pivot) -> (LU, pivots), raising for a singular A */
int tc_impl_linalg_lu_factor(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *lu, *piv, *info;
    if (tc_linalg_lu_factor_ex(a, tc_arg_bool(c, 1), false, &lu, &piv, &info)) return TC_FAIL;
    if (tc_linalg_check_errors(info, "torch.linalg.lu_factor", a->ndim == 2)) {
        release(lu, piv, info, NULL);
        return TC_FAIL;
    }
    tc_tensor_release(info);
    return return2(c, lu, piv);
}

/* lu_solve(self: B, LU_data, LU_pivots): the deprecated name of linalg_lu_solve(LU, pivots, B) */
int tc_impl_lu_solve(tc_opcall *c) {
    static atomic_bool warned;
    warn_once(&warned, "torch.lu_solve is deprecated in favor of torch.linalg.lu_solve and will be removed in a future "
                       "PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
                       "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)");
    return tc_return(c, tc_linalg_lu_solve(tc_arg_tensor(c, 1), tc_arg_tensor(c, 2), tc_arg_tensor(c, 0), true, false));
}

/* ---- determinants -------------------------------------------------------------------------------- */

static tc_tensor *det(tc_tensor *a) {
    tc_tensor *r, *lu, *piv;
    if (tc_linalg_check_matrix(a, "linalg.det", "A") || tc__linalg_det(a, &r, &lu, &piv)) return NULL;
    release(lu, piv, NULL, NULL);
    return r;
}

int tc_impl_linalg_det(tc_opcall *c) { return tc_return(c, det(tc_arg_tensor(c, 0))); }
int tc_impl_det(tc_opcall *c) { return tc_return(c, det(tc_arg_tensor(c, 0))); }

static int slogdet(tc_tensor *a, tc_tensor **sign, tc_tensor **logabs) {
    tc_tensor *lu, *piv;
    if (tc_linalg_check_matrix(a, "linalg.slogdet", "A") || tc__linalg_slogdet(a, sign, logabs, &lu, &piv))
        return TC_FAIL;
    release(lu, piv, NULL, NULL);
    return TC_OK;
}

int tc_impl_linalg_slogdet(tc_opcall *c) {
    tc_tensor *s, *l;
    return slogdet(tc_arg_tensor(c, 0), &s, &l) ? TC_FAIL : return2(c, s, l);
}

int tc_impl_slogdet(tc_opcall *c) {
    tc_tensor *s, *l;
    return slogdet(tc_arg_tensor(c, 0), &s, &l) ? TC_FAIL : return2(c, s, l);
}

/* logdet(self): log|det| where det > 0, NaN where it is negative, -inf where it is 0: logabsdet plus
 * log(sign), which is 0, NaN or -inf exactly so. */
int tc_impl_logdet(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *s, *l;
    if (tc_linalg_check_square(a, "logdet", "A") || tc_linalg_check_inexact(a, "logdet", false)) return TC_FAIL;
    if (slogdet(a, &s, &l)) return TC_FAIL;
    tc_tensor *ls = tc_log(s), *r = ls ? tc_add_Tensor(l, ls, TC_SCALAR_OF_INT(1)) : NULL;
    release(s, l, ls, NULL);
    return tc_return(c, r);
}

/* ---- inverse --------------------------------------------------------------------------------------- */

static tc_tensor *inv(tc_tensor *a) {
    tc_tensor *r, *info;
    if (tc_linalg_check_matrix(a, "linalg.inv", "A") || tc_linalg_inv_ex(a, false, &r, &info)) return NULL;
    const int rc = tc_linalg_check_errors(info, "linalg.inv", a->ndim == 2);
    tc_tensor_release(info);
    if (rc) tc_tensor_release(r);
    return rc ? NULL : r;
}

int tc_impl_linalg_inv(tc_opcall *c) { return tc_return(c, inv(tc_arg_tensor(c, 0))); }
int tc_impl_inverse(tc_opcall *c) { return tc_return(c, inv(tc_arg_tensor(c, 0))); }

/* ---- solve ---------------------------------------------------------------------------------------------- */

/* linalg_solve_ex(A, B, *, left, check_errors) -> (result, info) */
int tc_impl_linalg_solve_ex(tc_opcall *c) {
    tc_tensor *r, *lu, *piv, *info;
    if (tc__linalg_solve_ex(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), tc_arg_bool(c, 2), tc_arg_bool(c, 3), &r, &lu,
                            &piv, &info))
        return TC_FAIL;
    release(lu, piv, NULL, NULL);
    return return2(c, r, info);
}

/* linalg_solve(A, B, *, left), raising for a singular A */
int tc_impl_linalg_solve(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *r, *lu, *piv, *info;
    if (tc__linalg_solve_ex(a, tc_arg_tensor(c, 1), tc_arg_bool(c, 2), false, &r, &lu, &piv, &info)) return TC_FAIL;
    const int rc = tc_linalg_check_errors(info, "torch.linalg.solve", a->ndim == 2);
    release(lu, piv, info, NULL);
    if (rc) tc_tensor_release(r);
    return rc ? TC_FAIL : tc_return(c, r);
}

/* ---- Cholesky --------------------------------------------------------------------------------------- */

static tc_tensor *cholesky(tc_tensor *a, bool upper, const char *api) {
    tc_tensor *l, *info;
    if (tc_linalg_cholesky_ex(a, upper, false, &l, &info)) return NULL;
    const int rc = tc_linalg_check_errors(info, api, a->ndim == 2);
    tc_tensor_release(info);
    if (rc) tc_tensor_release(l);
    return rc ? NULL : l;
}

int tc_impl_linalg_cholesky(tc_opcall *c) {
    return tc_return(c, cholesky(tc_arg_tensor(c, 0), tc_arg_bool(c, 1), "linalg.cholesky"));
}

int tc_impl_cholesky(tc_opcall *c) {
    static atomic_bool warned;
    warn_once(&warned, "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
                       "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\n"
                       "and\nU = torch.cholesky(A, upper=True)\nshould be replaced with\nU = "
                       "torch.linalg.cholesky(A).mH().\nThis transform will produce equivalent results for all valid "
                       "(symmetric positive definite) inputs.");
    return tc_return(c, cholesky(tc_arg_tensor(c, 0), tc_arg_bool(c, 1), "cholesky"));
}

/* ---- QR ------------------------------------------------------------------------------------------------ */

int tc_impl_qr(tc_opcall *c) {
    static atomic_bool warned;
    warn_once(&warned, "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
                       "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = "
                       "torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else "
                       "'complete')");
    tc_tensor *q, *r;
    if (tc_linalg_qr(tc_arg_tensor(c, 0), tc_arg_bool(c, 1) ? "reduced" : "complete", &q, &r)) return TC_FAIL;
    return return2(c, q, r);
}

int tc_impl_orgqr(tc_opcall *c) {
    return tc_return(c, tc_linalg_householder_product(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1)));
}

/* ---- SVD and eigh ------------------------------------------------------------------------------------- */

/* PyTorch's _may_require_fw_or_bw_grad: whether a result may be differentiated, so that the
 * factors its backward reads must be computed too (svdvals, eigvalsh). */
static bool may_require_grad(const tc_tensor *t) {
    const tc_keyset keys = t->keys | (t->base ? t->base->keys : 0); /* a view brings its base's keys */
    return (tc_grad_enabled() && tc_requires_grad(t)) || (keys & TC_KEYBIT(TC_KEY_FORWARD_AD));
}

static int return3(tc_opcall *c, tc_tensor *a, tc_tensor *b, tc_tensor *d) {
    c->outs[2] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = d};
    return return2(c, a, b);
}

int tc_impl_linalg_svd(tc_opcall *c) {
    tc_tensor *u, *s, *vh;
    const char *driver = tc_arg_none(c, 2) ? NULL : c->args[2].v.s;
    if (tc__linalg_svd(tc_arg_tensor(c, 0), tc_arg_bool(c, 1), true, driver, &u, &s, &vh)) return TC_FAIL;
    return return3(c, u, s, vh);
}

int tc_impl_linalg_svdvals(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *u, *s, *vh;
    const char *driver = tc_arg_none(c, 1) ? NULL : c->args[1].v.s;
    if (tc__linalg_svd(a, false, may_require_grad(a), driver, &u, &s, &vh)) return TC_FAIL;
    release(u, vh, NULL, NULL);
    return tc_return(c, s);
}

/* svd(self, some, compute_uv) -> (U, S, V): V = Vh^H (a view: the transpose, with the conj bit for
 * complex matrices, as PyTorch's Vh.mH()); without uv, U and V are zero matrices of the full shapes,
 * V again a conjugate transposed view, as PyTorch returns them. */
int tc_impl_svd(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *u, *s, *vh;
    const bool some = tc_arg_bool(c, 1), uv = tc_arg_bool(c, 2);
    if (tc_linalg_check_matrix(a, "linalg.svd", "A")) return TC_FAIL;
    if (tc__linalg_svd(a, !some, uv || may_require_grad(a), NULL, &u, &s, &vh)) return TC_FAIL;
    if (uv) {
        tc_tensor *vt = tc_transpose_int(vh, -2, -1), *v = vt ? tc_conj(vt) : NULL;
        tc_tensor_release(vh);
        tc_tensor_release(vt);
        if (!v) {
            release(u, s, NULL, NULL);
            return TC_FAIL;
        }
        return return3(c, u, s, v);
    }
    release(u, vh, NULL, NULL);
    int64_t sizes[TC_MAX_DIMS];
    const int64_t m = a->sizes[a->ndim - 2], n = a->sizes[a->ndim - 1];
    const int32_t nu = tc_linalg_shape(a, 2, 2, (int64_t[]){m, m}, sizes);
    tc_tensor *zu = tc_zeros((tc_int_list){sizes, nu}, a->dtype, -1, &a->device, NULL);
    tc_linalg_shape(a, 2, 2, (int64_t[]){n, n}, sizes);
    /* V as PyTorch's: Vh^H of a zero Vh (a transposed view; conjugate, so its zeros read -0.0i) */
    tc_tensor *zvh = zu ? tc_zeros((tc_int_list){sizes, nu}, a->dtype, -1, &a->device, NULL) : NULL;
    tc_tensor *zvt = zvh ? tc_transpose_int(zvh, -2, -1) : NULL, *zv = zvt ? tc_conj(zvt) : NULL;
    release(zvh, zvt, NULL, NULL);
    if (!zv) {
        release(zu, s, NULL, NULL);
        return TC_FAIL;
    }
    return return3(c, zu, s, zv);
}

int tc_impl_linalg_eigh(tc_opcall *c) {
    tc_tensor *w, *v;
    if (tc__linalg_eigh(tc_arg_tensor(c, 0), c->args[1].v.s, true, &w, &v)) return TC_FAIL;
    return return2(c, w, v);
}

int tc_impl_linalg_eigvalsh(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *w, *v;
    if (tc__linalg_eigh(a, c->args[1].v.s, may_require_grad(a), &w, &v)) return TC_FAIL;
    tc_tensor_release(v);
    return tc_return(c, w);
}

/* ---- eig ---------------------------------------------------------------------------------------- */

/* The complex dtype of the eigenvalues and vectors of `a` (toComplexType: integers have none). */
static int32_t eig_dtype(const tc_tensor *a) {
    const int32_t d = tc_dtype_to_complex(a->dtype);
    if (d < 0) tc_set_error(TC_ERR_RUNTIME, "Unknown Complex ScalarType for %s", tc_dtype_scalar_name(a->dtype));
    return d;
}

/* linalg.eig refuses NaN and infinity up front (read on the host; not on the meta device). */
static int eig_check_finite(tc_tensor *a) {
    const int32_t meta = tc_device_type_id("meta");
    if ((meta >= 0 && a->device.type == meta) || tc_tensor_numel(a) == 0) return TC_OK;
    tc_tensor *parts = tc_dtype_is_complex(a->dtype) ? tc_complex_as_real(a, 1) : NULL;
    if (tc_dtype_is_complex(a->dtype) && !parts) return TC_FAIL;
    tc_tensor *fin = tc_isfinite(parts ? parts : a), *all = fin ? tc_all(fin) : NULL;
    tc_scalar s = {0};
    const int rc = all ? tc__local_scalar_dense(all, &s) : TC_FAIL;
    release(parts, fin, all, NULL);
    if (rc) return TC_FAIL;
    return s.v.i ? TC_OK
                 : tc_set_error(TC_ERR_RUNTIME, "torch.linalg.eig: input tensor should not contain infs or NaNs.");
}

/* checkLinalgCompatibleDtype: an out= tensor takes the results when they cast to it safely. */
static int eig_check_out(const char *api, int32_t dtype, const tc_tensor *out, const char *name) {
    if (tc_can_cast(dtype, out->dtype)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s: Expected %s to be safely castable from %s dtype, but got %s with dtype %s",
                        api, name, tc_dtype_scalar_name(dtype), name, tc_dtype_scalar_name(out->dtype));
}

static int eig_run(tc_tensor *a, tc_tensor **w, tc_tensor **v) {
    if (eig_dtype(a) < 0 || eig_check_finite(a) || tc_linalg_check_square(a, "linalg.eig", "A")) return TC_FAIL;
    return tc__linalg_eig(a, true, w, v);
}

int tc_impl_linalg_eig(tc_opcall *c) {
    tc_tensor *w, *v;
    if (eig_run(tc_arg_tensor(c, 0), &w, &v)) return TC_FAIL;
    return return2(c, w, v);
}

/* linalg_eig.out checks in PyTorch's order (finiteness first) before anything runs. */
int tc_impl_linalg_eig_out(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (eig_check_finite(a) || tc_linalg_check_square(a, "linalg.eig", "A")) return TC_FAIL;
    const int32_t d = eig_dtype(a);
    if (d < 0 || eig_check_out("torch.linalg.eig", d, tc_arg_tensor(c, 1), "eigenvalues") ||
        eig_check_out("torch.linalg.eig", d, tc_arg_tensor(c, 2), "eigenvectors"))
        return TC_FAIL;
    return tc_impl_out_from_functional(c);
}

/* Without a gradient to come only the eigenvalues are computed, and NaN is not refused (PyTorch's
 * eigvals skips linalg.eig's check); with one, linalg.eig runs, for its backward needs the vectors. */
int tc_impl_linalg_eigvals(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *w, *v;
    if (eig_dtype(a) < 0) return TC_FAIL;
    if (may_require_grad(a)) {
        if (eig_run(a, &w, &v)) return TC_FAIL;
    } else if (tc_linalg_check_square(a, "linalg.eigvals", "A") || tc__linalg_eig(a, false, &w, &v)) {
        return TC_FAIL;
    }
    tc_tensor_release(v);
    return tc_return(c, w);
}

int tc_impl_linalg_eigvals_out(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (tc_linalg_check_square(a, "linalg.eigvals", "A")) return TC_FAIL;
    const int32_t d = eig_dtype(a);
    if (d < 0 || eig_check_out("torch.linalg.eigvals", d, tc_arg_tensor(c, 1), "eigenvalues")) return TC_FAIL;
    return tc_impl_out_from_functional(c);
}

int tc_impl_matrix_exp(tc_opcall *c) { return tc_return(c, tc_linalg_matrix_exp(tc_arg_tensor(c, 0))); }
