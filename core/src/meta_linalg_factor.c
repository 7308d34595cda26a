/*
 * Meta functions of the factorisations and solvers (kernels in plugins/cpu/linalg_*.c): LU (lu_factor,
 * lu, lu_unpack, lu_solve, det, slogdet, inv, solve), Cholesky (cholesky, cholesky_solve,
 * cholesky_inverse), QR (qr, geqrf, householder_product), svd, eigh, lstsq, triangular solves and
 * matrix_exp.
 *
 * Results are contiguous; operands go to the kernels with their own strides, those broadcast over a
 * batch expanded to it (zero strides). Info tensors and pivots are int32, as PyTorch's. An _ex op with
 * check_errors raises after its kernel (the plan's `after`), as PyTorch's structured impls do.
 */
#include "linalg.h"

#include <string.h>

/* ---- shapes ---------------------------------------------------------------------------------- */

/* The broadcast of a's and b's batch dims (all but their last ma and mb dims). */
static int batch_broadcast(const tc_tensor *a, int32_t ma, const tc_tensor *b, int32_t mb, int32_t *nb,
                           int64_t *batch) {
    return tc_shape_broadcast(a->ndim - ma, a->sizes, b->ndim - mb, b->sizes, nb, batch);
}

/* t expanded to batch (nb dims) followed by its own last `mdims` dims, as a kernel input. */
static int input_batched(tc_plan *p, tc_tensor *t, int32_t mdims, int32_t nb, const int64_t *batch) {
    int64_t sizes[TC_MAX_DIMS];
    memcpy(sizes, batch, sizeof(int64_t) * (size_t)nb);
    memcpy(sizes + nb, t->sizes + t->ndim - mdims, sizeof(int64_t) * (size_t)mdims);
    tc_tensor *e = tc_expand_to(t, nb + mdims, sizes);
    int rc = e ? tc_plan_input(p, e, -1) : TC_FAIL;
    tc_tensor_release(e);
    return rc;
}

/* Output i: batch (nb dims) followed by `ntail` sizes. */
static int output_batched(tc_plan *p, int32_t i, int32_t nb, const int64_t *batch, int32_t ntail, const int64_t *tail,
                          int32_t dtype) {
    int64_t sizes[TC_MAX_DIMS + 2];
    if (tc_shape_check_ndim(nb + ntail)) return TC_FAIL;
    if (nb) memcpy(sizes, batch, sizeof(int64_t) * (size_t)nb);
    if (ntail) memcpy(sizes + nb, tail, sizeof(int64_t) * (size_t)ntail); /* tail may be NULL when empty */
    return tc_linalg_output(p, i, nb + ntail, sizes, dtype);
}

/* Output i shaped as t's batch followed by `ntail` sizes. */
static int output_like(tc_plan *p, int32_t i, const tc_tensor *t, int32_t mdims, int32_t ntail, const int64_t *tail,
                       int32_t dtype) {
    return output_batched(p, i, t->ndim - mdims, t->sizes, ntail, tail, dtype);
}

/* An empty result (PyTorch's [0]) for what an option leaves uncomputed. */
static int output_empty(tc_plan *p, int32_t i, int32_t dtype) {
    const int64_t zero = 0;
    return tc_linalg_output(p, i, 1, &zero, dtype);
}

static int64_t rows_of(const tc_tensor *t) { return t->sizes[t->ndim - 2]; }
static int64_t cols_of(const tc_tensor *t) { return t->sizes[t->ndim - 1]; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The dtype every float result takes, and the kernel's: the input's (the kernels refuse others). */
static void compute_like(tc_plan *p, const tc_tensor *t) { p->dtype = t->dtype; }

/* PyTorch's refusal of integral and bool inputs to a LAPACK op ("Expected a floating point or complex
 * tensor"); every float and complex dtype passes, and the kernel refuses those LAPACK has no routine
 * for with PyTorch's message ("geqrf_cpu" not implemented for 'ComplexHalf'). */
static int check_lapack_input(const tc_tensor *t, const char *api) {
    return tc_dtype_is_complex(t->dtype) ? TC_OK : tc_linalg_check_floating(t, api, true);
}

/* The checks cholesky_solve and triangular_solve share once both are matrices: b and A of one dtype, A
 * square with as many rows as b. */
static int check_legacy_solver(const tc_tensor *b, const tc_tensor *a, const char *op) {
    if (b->dtype != a->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "Expected b and A to have the same dtype, but found b of type %s and A of "
                                            "type %s instead.", tc_dtype_scalar_name(b->dtype),
                            tc_dtype_scalar_name(a->dtype));
    if (tc_linalg_check_square(a, NULL, "A")) return TC_FAIL;
    if (rows_of(a) != rows_of(b))
        return tc_set_error(TC_ERR_RUNTIME, "Incompatible matrix sizes for %s: each A matrix is %lld by %lld but each "
                                            "b matrix is %lld by %lld", op, (long long)rows_of(a),
                            (long long)cols_of(a), (long long)rows_of(b), (long long)cols_of(b));
    return TC_OK;
}

/* A solver of A X = B over the broadcast batch (*nb dims in batch) of B and A: output 0 shaped as B's
 * matrices, A and B the kernel's inputs (B first where b_first), computed in B's dtype. */
static int solver_plan(tc_plan *p, tc_tensor *a, tc_tensor *b, bool b_first, int32_t *nb, int64_t *batch) {
    tc_tensor *first = b_first ? b : a, *second = b_first ? a : b;
    if (batch_broadcast(b, 2, a, 2, nb, batch) ||
        output_batched(p, 0, *nb, batch, 2, b->sizes + b->ndim - 2, b->dtype) ||
        input_batched(p, first, 2, *nb, batch) || input_batched(p, second, 2, *nb, batch))
        return TC_FAIL;
    compute_like(p, b);
    return TC_OK;
}

/* ---- after the kernel: check_errors of the _ex ops ------------------------------------------- */

static int check_output(tc_plan *p, int32_t info_out, const char *api) {
    const tc_tensor *a = tc_arg_tensor(p->call, 0);
    return tc_linalg_check_errors(p->target[info_out], api, a->ndim == 2);
}

static int after_lu_factor_ex(tc_plan *p) { return check_output(p, 2, "torch.linalg.lu_factor_ex"); }
static int after_inv_ex(tc_plan *p) { return check_output(p, 1, "linalg.inv_ex"); }
static int after_cholesky_ex(tc_plan *p) { return check_output(p, 1, "linalg.cholesky_ex"); }
static int after_solve_ex(tc_plan *p) {
    /* is_matrix: a single system (info is 0-dim) */
    return tc_linalg_check_errors(p->target[3], "torch.linalg.solve_ex", p->target[3]->ndim == 0);
}

/* ---- LU ------------------------------------------------------------------------------------- */

/* linalg_lu_factor_ex(A, *, pivot, check_errors) -> (LU, pivots, info) */
int tc_meta_lu_factor_ex(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (tc_linalg_check_matrix(a, "torch.lu_factor", "A")) return TC_FAIL;
    const int64_t m = rows_of(a), n = cols_of(a), k = min64(m, n);
    if (output_like(p, 0, a, 2, 2, (int64_t[]){m, n}, a->dtype) || output_like(p, 1, a, 2, 1, &k, TC_INT32) ||
        output_like(p, 2, a, 2, 0, NULL, TC_INT32) || tc_plan_input(p, a, -1))
        return TC_FAIL;
    compute_like(p, a);
    if (tc_arg_bool(c, 2)) p->after = after_lu_factor_ex;
    return TC_OK;
}

/* linalg_lu(A, *, pivot) -> (P, L, U): A = P L U, L m x k unit lower, U k x n upper. */
int tc_meta_linalg_lu(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (tc_linalg_check_matrix(a, "linalg.lu", "A")) return TC_FAIL;
    const int64_t m = rows_of(a), n = cols_of(a), k = min64(m, n);
    if (output_like(p, 0, a, 2, 2, (int64_t[]){m, m}, a->dtype) ||
        output_like(p, 1, a, 2, 2, (int64_t[]){m, k}, a->dtype) ||
        output_like(p, 2, a, 2, 2, (int64_t[]){k, n}, a->dtype) || tc_plan_input(p, a, -1))
        return TC_FAIL;
    compute_like(p, a);
    return TC_OK;
}

/* lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots) -> (P, L, U); what is not unpacked is empty. */
int tc_meta_lu_unpack(tc_opcall *c, tc_plan *p) {
    tc_tensor *lu = tc_arg_tensor(c, 0), *piv = tc_arg_tensor(c, 1);
    if (tc_linalg_check_matrix(lu, "torch.lu_unpack", "LU_data")) return TC_FAIL;
    if (piv->dtype != TC_INT32)
        return tc_set_error(TC_ERR_RUNTIME, "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                                            "torch.int32 dtype.\nNote: this function is intended to be used with the "
                                            "output produced by torch.linalg.lu_factor");
    const int64_t m = rows_of(lu), n = cols_of(lu), k = min64(m, n);
    if (piv->ndim != lu->ndim - 1 || piv->sizes[piv->ndim - 1] != k ||
        !tc_shape_equal(piv->ndim - 1, piv->sizes, lu->ndim - 2, lu->sizes))
        return tc_set_error(TC_ERR_RUNTIME, "torch.lu_unpack: LU_pivots must be of shape LU_data.shape[:-2] + "
                                            "(min(m, n),), the shape of the pivots of LU_data");
    const bool data = tc_arg_bool(c, 2), pivots = tc_arg_bool(c, 3);
    if ((pivots ? output_like(p, 0, lu, 2, 2, (int64_t[]){m, m}, lu->dtype) : output_empty(p, 0, lu->dtype)) ||
        (data ? output_like(p, 1, lu, 2, 2, (int64_t[]){m, k}, lu->dtype) : output_empty(p, 1, lu->dtype)) ||
        (data ? output_like(p, 2, lu, 2, 2, (int64_t[]){k, n}, lu->dtype) : output_empty(p, 2, lu->dtype)) ||
        tc_plan_input(p, lu, -1) || tc_plan_input(p, piv, -1))
        return TC_FAIL;
    compute_like(p, lu);
    return TC_OK;
}

/* PyTorch's checkInputsSolver: A square, B a matrix whose rows (left) or columns match A's. */
static int check_solver(const tc_tensor *a, const tc_tensor *b, bool left, const char *api) {
    if (tc_linalg_check_square(a, api, "A") || tc_linalg_check_matrix(b, api, "B")) return TC_FAIL;
    if (left ? rows_of(a) == rows_of(b) : cols_of(a) == cols_of(b)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s: Incompatible shapes of A and B for the equation %s (%lldx%lld and %lldx%lld)",
                        api, left ? "AX = B" : "XA = B", (long long)rows_of(a), (long long)cols_of(a),
                        (long long)rows_of(b), (long long)cols_of(b));
}

/* linalg_lu_solve(LU, pivots, B, *, left, adjoint) -> X of B's shape over the broadcast batch */
int tc_meta_lu_solve(tc_opcall *c, tc_plan *p) {
    tc_tensor *lu = tc_arg_tensor(c, 0), *piv = tc_arg_tensor(c, 1), *b = tc_arg_tensor(c, 2);
    const bool left = tc_arg_bool(c, 3);
    if (check_solver(lu, b, left, "linalg.lu_solve")) return TC_FAIL;
    if (piv->dtype != TC_INT32)
        return tc_set_error(TC_ERR_RUNTIME, "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32");
    if (piv->ndim < 1 || piv->sizes[piv->ndim - 1] != rows_of(lu))
        return tc_set_error(TC_ERR_RUNTIME, "linalg.lu_solve: Number of pivots per batch should be same as the "
                                            "dimension of the matrix");
    if (piv->ndim != lu->ndim - 1 || !tc_shape_equal(piv->ndim - 1, piv->sizes, lu->ndim - 2, lu->sizes))
        return tc_set_error(TC_ERR_RUNTIME, "linalg.lu_solve: Expected LU.shape[:-2] == pivots.shape[:-1]");
    if (lu->dtype != b->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU "
                                            "of type %s and B of type %s instead", tc_dtype_scalar_name(lu->dtype),
                            tc_dtype_scalar_name(b->dtype));
    int32_t nb;
    int64_t batch[TC_MAX_DIMS];
    if (batch_broadcast(lu, 2, b, 2, &nb, batch)) return TC_FAIL;
    if (output_batched(p, 0, nb, batch, 2, b->sizes + b->ndim - 2, b->dtype) || input_batched(p, lu, 2, nb, batch) ||
        input_batched(p, piv, 1, nb, batch) || input_batched(p, b, 2, nb, batch))
        return TC_FAIL;
    compute_like(p, b);
    return TC_OK;
}

/* _linalg_det(A) -> (result, LU, pivots) and _linalg_slogdet(A) -> (sign, logabsdet, LU, pivots);
 * a complex A has a complex det and sign, and a real logabsdet. */
static int det_like(tc_opcall *c, tc_plan *p, const char *api, int32_t nvalues) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (tc_linalg_check_square(a, api, "A") || tc_linalg_check_inexact(a, api, true)) return TC_FAIL;
    const int64_t n = rows_of(a);
    for (int32_t i = 0; i < nvalues; i++)
        if (output_like(p, i, a, 2, 0, NULL, i == 1 ? tc_dtype_to_real(a->dtype) : a->dtype)) return TC_FAIL;
    if (output_like(p, nvalues, a, 2, 2, (int64_t[]){n, n}, a->dtype) ||
        output_like(p, nvalues + 1, a, 2, 1, &n, TC_INT32) || tc_plan_input(p, a, -1))
        return TC_FAIL;
    compute_like(p, a);
    return TC_OK;
}

int tc_meta__linalg_det(tc_opcall *c, tc_plan *p) { return det_like(c, p, "linalg.det", 1); }
int tc_meta__linalg_slogdet(tc_opcall *c, tc_plan *p) { return det_like(c, p, "linalg.slogdet", 2); }

/* An _ex op of one square matrix (or batch) A: (result of A's shape, int32 info per matrix); with
 * check_errors (argument `check_arg`), `after` raises after the kernel. */
static int square_ex(tc_opcall *c, tc_plan *p, const char *api, bool low_precision, int check_arg,
                     int (*after)(tc_plan *)) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (tc_linalg_check_square(a, api, "A") || tc_linalg_check_inexact(a, api, low_precision)) return TC_FAIL;
    const int64_t n = rows_of(a);
    if (output_like(p, 0, a, 2, 2, (int64_t[]){n, n}, a->dtype) || output_like(p, 1, a, 2, 0, NULL, TC_INT32) ||
        tc_plan_input(p, a, -1))
        return TC_FAIL;
    compute_like(p, a);
    if (tc_arg_bool(c, check_arg)) p->after = after;
    return TC_OK;
}

/* linalg_inv_ex(A, *, check_errors) -> (inverse, info); a singular A gives NaNs, as PyTorch's. */
int tc_meta_inv_ex(tc_opcall *c, tc_plan *p) { return square_ex(c, p, "linalg.inv", false, 1, after_inv_ex); }

/* A batch of vectors as a batch of one-column matrices (a view). */
static tc_tensor *as_columns(tc_tensor *b) {
    int64_t sizes[TC_MAX_DIMS + 1], strides[TC_MAX_DIMS + 1];
    if (tc_shape_check_ndim(b->ndim + 1)) return NULL;
    memcpy(sizes, b->sizes, sizeof(int64_t) * (size_t)b->ndim);
    memcpy(strides, b->strides, sizeof(int64_t) * (size_t)b->ndim);
    sizes[b->ndim] = 1, strides[b->ndim] = 1;
    return tc_tensor_restride(b, b->ndim + 1, sizes, strides, b->offset);
}

/* The kernel's view of a result of batch x (n[, k]) as batch x n x 1 columns. */
static int columns_output(tc_plan *p, int32_t i, int32_t nb, const int64_t *batch, int64_t n) {
    int64_t sizes[TC_MAX_DIMS + 2], strides[TC_MAX_DIMS + 2];
    memcpy(sizes, batch, sizeof(int64_t) * (size_t)nb);
    sizes[nb] = n, sizes[nb + 1] = 1;
    tc_shape_contiguous_strides(nb + 2, sizes, strides);
    return tc_plan_kernel_view(p, i, nb + 2, sizes, strides);
}

/* Whether B is a (batch of) vector(s) for A: 1-D, or A's shape without its last dim (NumPy's rule). */
static bool vector_rhs(const tc_tensor *a, const tc_tensor *b) {
    return b->ndim == 1 || (a->ndim - 1 == b->ndim && tc_shape_equal(b->ndim, b->sizes, a->ndim - 1, a->sizes));
}

/* _linalg_solve_ex(A, B, *, left, check_errors) -> (result, LU, pivots, info): LU of A's own shape,
 * the result over the broadcast batch (a vector B gives vectors). */
int tc_meta__linalg_solve_ex(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    const bool left = tc_arg_bool(c, 2);
    if (tc_linalg_check_inexact(a, "linalg.solve", false)) return TC_FAIL;
    if (a->dtype != b->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "linalg.solve: Expected A and B to have the same dtype, but found A of "
                                            "type %s and B of type %s instead", tc_dtype_scalar_name(a->dtype),
                            tc_dtype_scalar_name(b->dtype));
    if (tc_linalg_check_matrix(a, "linalg.solve", "A")) return TC_FAIL;
    const bool vec = vector_rhs(a, b);
    tc_tensor *bm = vec ? as_columns(b) : NULL;
    if (vec && !bm) return TC_FAIL;
    tc_tensor *B = vec ? bm : b;
    int rc = TC_FAIL;
    int32_t nb;
    int64_t batch[TC_MAX_DIMS];
    if (check_solver(a, B, left, "linalg.solve") || batch_broadcast(B, 2, a, 2, &nb, batch)) goto done;
    if (!left && vec) {
        tc_set_error(TC_ERR_RUNTIME, "linalg.solve: Vector broadcasting of the left hand side is not supported for "
                                     "left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)");
        goto done;
    }
    const int64_t n = rows_of(a), k = cols_of(B), rb = rows_of(B);
    if ((vec ? output_batched(p, 0, nb, batch, 1, &n, a->dtype)
             : output_batched(p, 0, nb, batch, 2, (int64_t[]){rb, k}, a->dtype)) ||
        output_like(p, 1, a, 2, 2, (int64_t[]){n, n}, a->dtype) || output_like(p, 2, a, 2, 1, &n, TC_INT32) ||
        output_like(p, 3, a, 2, 0, NULL, TC_INT32) || tc_plan_input(p, a, -1) || input_batched(p, B, 2, nb, batch))
        goto done;
    if (vec && columns_output(p, 0, nb, batch, n)) goto done; /* the kernel writes columns */
    compute_like(p, a);
    if (tc_arg_bool(c, 3)) p->after = after_solve_ex;
    rc = TC_OK;
done:
    tc_tensor_release(bm);
    return rc;
}

/* ---- Cholesky ---------------------------------------------------------------------------------- */

/* linalg_cholesky_ex(A, *, upper, check_errors) -> (L, info) */
int tc_meta_cholesky_ex(tc_opcall *c, tc_plan *p) {
    return square_ex(c, p, "linalg.cholesky", true, 2, after_cholesky_ex);
}

/* cholesky_solve(self: B, input2: L, upper) -> X over the broadcast batch */
int tc_meta_cholesky_solve(tc_opcall *c, tc_plan *p) {
    tc_tensor *b = tc_arg_tensor(c, 0), *l = tc_arg_tensor(c, 1);
    if (b->ndim < 2)
        return tc_set_error(TC_ERR_RUNTIME, "b should have at least 2 dimensions, but has %d dimensions instead", b->ndim);
    if (l->ndim < 2)
        return tc_set_error(TC_ERR_RUNTIME, "u should have at least 2 dimensions, but has %d dimensions instead", l->ndim);
    int32_t nb;
    int64_t batch[TC_MAX_DIMS];
    if (check_legacy_solver(b, l, "cholesky_solve") || solver_plan(p, l, b, true, &nb, batch)) return TC_FAIL;
    return TC_OK;
}

/* cholesky_inverse(self: L, upper) -> the inverse of L L^T (U^T U) */
int tc_meta_cholesky_inverse(tc_opcall *c, tc_plan *p) {
    tc_tensor *l = tc_arg_tensor(c, 0);
    if (tc_linalg_check_square(l, "cholesky_inverse", "A") || tc_linalg_check_inexact(l, "cholesky_inverse", true))
        return TC_FAIL;
    const int64_t n = rows_of(l);
    if (output_like(p, 0, l, 2, 2, (int64_t[]){n, n}, l->dtype) || tc_plan_input(p, l, -1)) return TC_FAIL;
    compute_like(p, l);
    return TC_OK;
}

/* ---- QR ------------------------------------------------------------------------------------- */

/* linalg_qr(A, mode) -> (Q, R): reduced Q m x k, R k x n; complete Q m x m, R m x n; r: Q empty. */
int tc_meta_linalg_qr(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    const char *mode = c->args[1].v.s;
    if (tc_linalg_check_matrix(a, "linalg.qr", "A") || check_lapack_input(a, "linalg.qr")) return TC_FAIL;
    const bool complete = strcmp(mode, "complete") == 0, r_only = strcmp(mode, "r") == 0;
    if (!complete && !r_only && strcmp(mode, "reduced") != 0)
        return tc_set_error(TC_ERR_RUNTIME, "qr received unrecognized mode '%s' but expected one of 'reduced' (default), "
                                            "'r', or 'complete'", mode);
    const int64_t m = rows_of(a), n = cols_of(a), k = complete ? m : min64(m, n);
    if ((r_only ? output_empty(p, 0, a->dtype) : output_like(p, 0, a, 2, 2, (int64_t[]){m, k}, a->dtype)) ||
        output_like(p, 1, a, 2, 2, (int64_t[]){k, n}, a->dtype) || tc_plan_input(p, a, -1))
        return TC_FAIL;
    compute_like(p, a);
    return TC_OK;
}

/* geqrf(self) -> (a, tau): LAPACK's compact QR */
int tc_meta_geqrf(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (a->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "torch.geqrf: input must have at least 2 dimensions.");
    if (check_lapack_input(a, "torch.geqrf")) return TC_FAIL;
    const int64_t m = rows_of(a), n = cols_of(a), k = min64(m, n);
    if (output_like(p, 0, a, 2, 2, (int64_t[]){m, n}, a->dtype) || output_like(p, 1, a, 2, 1, &k, a->dtype) ||
        tc_plan_input(p, a, -1))
        return TC_FAIL;
    compute_like(p, a);
    return TC_OK;
}

/* linalg_householder_product(input, tau) -> the first n columns of the product of the reflectors */
int tc_meta_householder_product(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *tau = tc_arg_tensor(c, 1);
    const char *api = "torch.linalg.householder_product";
    if (a->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "%s: input must have at least 2 dimensions.", api);
    if (rows_of(a) < cols_of(a))
        return tc_set_error(TC_ERR_RUNTIME, "%s: input.shape[-2] must be greater than or equal to input.shape[-1]", api);
    if (tau->ndim != a->ndim - 1)
        return tc_set_error(TC_ERR_RUNTIME, "%s: Expected tau to have one dimension less than input, but got tau.ndim "
                                            "equal to %d and input.ndim is equal to %d", api, tau->ndim, a->ndim);
    if (cols_of(a) < tau->sizes[tau->ndim - 1])
        return tc_set_error(TC_ERR_RUNTIME, "%s: input.shape[-1] must be greater than or equal to tau.shape[-1]", api);
    if (!tc_shape_equal(tau->ndim - 1, tau->sizes, a->ndim - 2, a->sizes))
        return tc_set_error(TC_ERR_RUNTIME, "%s: Expected batch dimensions of tau to be equal to input.shape[:-2]", api);
    if (a->dtype != tau->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "%s: tau dtype %s does not match input dtype %s", api,
                            tc_dtype_scalar_name(tau->dtype), tc_dtype_scalar_name(a->dtype));
    if (check_lapack_input(a, api)) return TC_FAIL;
    if (output_like(p, 0, a, 2, 2, a->sizes + a->ndim - 2, a->dtype) || tc_plan_input(p, a, -1) ||
        tc_plan_input(p, tau, -1))
        return TC_FAIL;
    compute_like(p, a);
    return TC_OK;
}

/* ---- SVD and eigh ---------------------------------------------------------------------------- */

/* _linalg_svd(A, full_matrices, compute_uv, *, driver) -> (U, S, Vh); U and Vh empty without uv; S
 * real (float for complex64, double for complex128) */
int tc_meta__linalg_svd(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    const bool full = tc_arg_bool(c, 1), uv = tc_arg_bool(c, 2);
    if (tc_linalg_check_matrix(a, "linalg.svd", "A") || tc_linalg_check_inexact(a, "linalg.svd", true))
        return TC_FAIL;
    if (!tc_arg_none(c, 3) && a->device.type == TC_DEVICE_CPU)
        return tc_set_error(TC_ERR_RUNTIME, "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA "
                                            "inputs with cuSOLVER backend.");
    const int64_t m = rows_of(a), n = cols_of(a), k = min64(m, n);
    if ((uv ? output_like(p, 0, a, 2, 2, (int64_t[]){m, full ? m : k}, a->dtype) : output_empty(p, 0, a->dtype)) ||
        output_like(p, 1, a, 2, 1, &k, tc_dtype_to_real(a->dtype)) ||
        (uv ? output_like(p, 2, a, 2, 2, (int64_t[]){full ? n : k, n}, a->dtype) : output_empty(p, 2, a->dtype)) ||
        tc_plan_input(p, a, -1))
        return TC_FAIL;
    compute_like(p, a);
    return TC_OK;
}

/* _linalg_eigh(A, UPLO, compute_v) -> (eigenvalues, eigenvectors); eigenvectors empty without v; the
 * eigenvalues of a Hermitian A real. Other dtypes are refused by the kernel, as PyTorch's dispatch
 * refuses them ("linalg_eigh_cpu" not implemented for 'Long'). */
int tc_meta__linalg_eigh(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    const char *uplo = c->args[1].v.s;
    if (tc_linalg_check_square(a, "linalg.eigh", "A")) return TC_FAIL;
    if (!((uplo[0] == 'L' || uplo[0] == 'U' || uplo[0] == 'l' || uplo[0] == 'u') && uplo[1] == 0))
        return tc_set_error(TC_ERR_RUNTIME, "Expected UPLO argument to be 'L' or 'U', but got %s", uplo);
    const int64_t n = rows_of(a);
    const bool v = tc_arg_bool(c, 2);
    if (output_like(p, 0, a, 2, 1, &n, tc_dtype_to_real(a->dtype)) ||
        (v ? output_like(p, 1, a, 2, 2, (int64_t[]){n, n}, a->dtype) : output_empty(p, 1, a->dtype)) ||
        tc_plan_input(p, a, -1))
        return TC_FAIL;
    compute_like(p, a);
    return TC_OK;
}

/* _linalg_eig(A, compute_v) -> (eigenvalues, eigenvectors), both of A's complex dtype; eigenvectors
 * empty without v. float16 and bfloat16 pass here and are refused by the kernel, as PyTorch's
 * dispatch refuses them ("linalg_eig_out_cpu" not implemented for 'Half'). */
int tc_meta__linalg_eig(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    const int32_t cdt = tc_dtype_to_complex(a->dtype);
    if (cdt < 0)
        return tc_set_error(TC_ERR_RUNTIME, "Unknown Complex ScalarType for %s", tc_dtype_scalar_name(a->dtype));
    if (tc_linalg_check_square(a, "linalg.eig", "A")) return TC_FAIL;
    const int64_t n = rows_of(a);
    const bool v = tc_arg_bool(c, 1);
    if (output_like(p, 0, a, 2, 1, &n, cdt) ||
        (v ? output_like(p, 1, a, 2, 2, (int64_t[]){n, n}, cdt) : output_empty(p, 1, cdt)) || tc_plan_input(p, a, -1))
        return TC_FAIL;
    compute_like(p, a);
    return TC_OK;
}

/* ---- least squares ----------------------------------------------------------------------------- */

/* The lstsq drivers, in the order of the kernel's ints[0]. */
static const char *const lstsq_drivers[] = {"gels", "gelsy", "gelsd", "gelss"};

/* linalg_lstsq(self: A, b, rcond, *, driver) -> (solution, residuals, rank, singular_values).
 * solution [*, n, k] (a vector b gives vectors); residuals [*, k] (k = 1 for a vector b, as
 * PyTorch's, of the real dtype of the parts as the singular values are) when m > n, the driver is not
 * gelsy, and (for the rank-revealing ones) every matrix has full rank, else [0]; rank [*] int64
 * except for gels; singular values [*, min(m, n)] for gelsd and gelss. The kernel decides the
 * residuals after solving, so they are output 1 at full size and trimmed by `after`. */
static int after_lstsq(tc_plan *p);

int tc_meta_linalg_lstsq(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    const char *api = "torch.linalg.lstsq";
    if (a->dtype != b->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "%s: Expected input and other to have the same dtype, but got input's dtype "
                                            "%s and other's dtype %s", api, tc_dtype_scalar_name(a->dtype),
                            tc_dtype_scalar_name(b->dtype));
    if (a->ndim < 2) return tc_set_error(TC_ERR_RUNTIME, "%s: input must have at least 2 dimensions.", api);
    if (b->ndim < 1) return tc_set_error(TC_ERR_RUNTIME, "%s: other must have at least 1 dimension.", api);
    if (a->dtype != TC_FLOAT32 && a->dtype != TC_FLOAT64 && a->dtype != TC_COMPLEX64 && a->dtype != TC_COMPLEX128)
        return tc_set_error(TC_ERR_RUNTIME, "This function doesn't handle types other than float and double");
    if (a->ndim < b->ndim || a->ndim - b->ndim > 1)
        return tc_set_error(TC_ERR_RUNTIME, "%s: input.dim() must be greater or equal to other.dim() and (input.dim() - "
                                            "other.dim()) <= 1", api);
    const bool vec = b->ndim == a->ndim - 1;
    if (vec ? b->sizes[b->ndim - 1] != rows_of(a) : b->ndim >= 2 && rows_of(b) != rows_of(a))
        return tc_set_error(TC_ERR_RUNTIME, vec ? "%s: input.size(-2) should match other.size(-1) when other is a "
                                                  "vector" : "%s: input.size(-2) should match other.size(-2)", api);
    int driver = 1; /* gelsy, PyTorch's default on the CPU */
    if (!tc_arg_none(c, 3)) {
        const char *d = c->args[3].v.s;
        for (driver = 0; driver < 4 && strcmp(d, lstsq_drivers[driver]) != 0; driver++) {
        }
        if (driver == 4)
            return tc_set_error(TC_ERR_RUNTIME, "%s: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)", api);
    }
    tc_tensor *bm = vec ? as_columns(b) : NULL;
    if (vec && !bm) return TC_FAIL;
    tc_tensor *B = vec ? bm : b;
    int32_t nb;
    int64_t batch[TC_MAX_DIMS];
    int rc = TC_FAIL;
    if (batch_broadcast(a, 2, B, 2, &nb, batch)) goto done;
    const int64_t m = rows_of(a), n = cols_of(a), k = cols_of(B), mn = min64(m, n);
    const bool residuals = m > n && driver != 1, rank = driver != 0, sv = driver >= 2;
    const int32_t real = tc_dtype_to_real(a->dtype); /* of residuals and singular values */
    if ((vec ? output_batched(p, 0, nb, batch, 1, &n, a->dtype)
             : output_batched(p, 0, nb, batch, 2, (int64_t[]){n, k}, a->dtype)) ||
        (residuals ? output_batched(p, 1, nb, batch, 1, &k, real) : output_empty(p, 1, real)) ||
        (rank ? output_batched(p, 2, nb, batch, 0, NULL, TC_INT64) : output_empty(p, 2, TC_INT64)) ||
        (sv ? output_batched(p, 3, nb, batch, 1, &mn, real) : output_empty(p, 3, real)) ||
        input_batched(p, a, 2, nb, batch) || input_batched(p, B, 2, nb, batch) || tc_plan_int(p, driver))
        goto done;
    if (vec && columns_output(p, 0, nb, batch, n)) goto done; /* residuals stay [*, 1], as PyTorch's */
    if (residuals && rank) p->after = after_lstsq;
    compute_like(p, a);
    rc = TC_OK;
done:
    tc_tensor_release(bm);
    return rc;
}

/* The rank-revealing drivers give residuals only when every matrix had full rank: else [0]. */
static int after_lstsq(tc_plan *p) {
    const int32_t meta = tc_device_type_id("meta");
    tc_tensor *rank = p->target[2];
    if ((meta >= 0 && rank->device.type == meta) || rank->device.type != TC_DEVICE_CPU) return TC_OK;
    const tc_tensor *a = tc_arg_tensor(p->call, 0);
    const int64_t n = cols_of(a), *r = tc_tensor_data(rank), count = tc_tensor_numel(rank);
    for (int64_t i = 0; i < count; i++)
        if (r[i] != n) {
            const int64_t zero = 0;
            return tc_tensor_resize(p->target[1], 1, &zero);
        }
    return TC_OK;
}

/* ---- triangular solves ------------------------------------------------------------------------- */

/* triangular_solve(self: B, A, upper, transpose, unitriangular) -> (solution, cloned_coefficient) */
int tc_meta_triangular_solve(tc_opcall *c, tc_plan *p) {
    tc_tensor *b = tc_arg_tensor(c, 0), *a = tc_arg_tensor(c, 1);
    if (b->ndim < 2)
        return tc_set_error(TC_ERR_RUNTIME, "torch.triangular_solve: Expected b to have at least 2 dimensions, but it "
                                            "has %d dimensions instead", b->ndim);
    if (a->ndim < 2)
        return tc_set_error(TC_ERR_RUNTIME, "torch.triangular_solve: Expected A to have at least 2 dimensions, but it "
                                            "has %d dimensions instead", a->ndim);
    int32_t nb;
    int64_t batch[TC_MAX_DIMS];
    if (check_legacy_solver(b, a, "triangular_solve") || solver_plan(p, a, b, false, &nb, batch) ||
        output_batched(p, 1, nb, batch, 2, a->sizes + a->ndim - 2, a->dtype))
        return TC_FAIL;
    return TC_OK;
}

/* linalg_solve_triangular(self: A, B, *, upper, left, unitriangular) -> X over the broadcast batch */
int tc_meta_solve_triangular(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    const bool left = tc_arg_bool(c, 3);
    const char *api = "linalg.solve_triangular";
    if (check_lapack_input(a, api)) return TC_FAIL;
    if (a->dtype != b->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "%s: Expected A and B to have the same dtype, but found A of type %s and B "
                                            "of type %s instead", api, tc_dtype_scalar_name(a->dtype),
                            tc_dtype_scalar_name(b->dtype));
    int32_t nb;
    int64_t batch[TC_MAX_DIMS];
    if (check_solver(a, b, left, api) || solver_plan(p, a, b, false, &nb, batch)) return TC_FAIL;
    return TC_OK;
}

/* ---- matrix exponential ------------------------------------------------------------------------ */

/* linalg_matrix_exp(self) -> exp(A), square matrices, real or complex (the kernel refuses float16 and
 * complex32 as PyTorch's does). PyTorch 1.13's out= variant is a generated one (torch.ops.aten only):
 * it computes the result and copies it into out of any dtype, resized, as copy_ casts. */
int tc_meta_matrix_exp(tc_opcall *c, tc_plan *p) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    if (tc_linalg_check_square(a, "linalg.matrix_exp", "A") || tc_linalg_check_inexact(a, "matrix_exp", true))
        return TC_FAIL;
    p->flags |= TC_PLAN_OUT_ANY_DTYPE;
    if (tc_plan_output(p, 0, a->ndim, a->sizes, a->dtype) || tc_plan_input(p, a, -1)) return TC_FAIL;
    compute_like(p, a);
    return TC_OK;
}
