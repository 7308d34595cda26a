/*
 * The composites over the factorisations: what PyTorch's linalg functions and their older names do
 * around the structured ops (linalg_lu_factor_ex, _linalg_det, _linalg_solve_ex, ...): pick results,
 * raise LAPACK's failures with each function's own words (tc_linalg_check_errors), warn once about
 * deprecated names, and put results into the shapes the older APIs promised.
 */
#include "linalg.h"

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
    if (tc_linalg_check_square(a, "logdet", "A") || tc_linalg_check_floating(a, "logdet", false)) return TC_FAIL;
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
