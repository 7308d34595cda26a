/*
 * linalg_cholesky.c - Cholesky kernels over LAPACK potrf/potrs/potri: cholesky_ex, cholesky_solve,
 * cholesky_inverse.
 *
 * Contracts (docs/plugin-abi.md), batch dims first:
 *   cholesky_ex       A[n,n] -> L[n,n] (the other triangle zero), info[] int32    args: upper
 *   cholesky_solve    B[n,k], L[n,n] -> X[n,k]                                     args: upper
 *   cholesky_inverse  L[n,n] -> (L L^T)^-1 or (U^T U)^-1 [n,n]; raises LinAlgError for a zero
 *                     diagonal element, as PyTorch's                              args: upper
 * upper: the factor is U (A = U^T U) rather than L (A = L L^T).
 * Complex64/complex128 go through the provider's potrf_complex, potrs_complex and potri_complex (ABI
 * 1.4): A is Hermitian, A = L L^H or U^H U, and cholesky_inverse's other triangle the conjugate.
 */
#include <stdio.h>
#include <string.h>

#include "linalg.h"

typedef struct chol_job {
    const tc_view *in[2];
    const tc_view *out[2];
    char uplo;
} chol_job;

/* The provider's LAPACK for dtype (float32/64, or complex64/128 when it has the 1.4 complex members),
 * NULL with the error raised. */
static const tc_lapack *lapack_for(int32_t dtype, const char *kernel, const char *api) {
    if (dtype != TC_FLOAT32 && dtype != TC_FLOAT64 && !la_complex(dtype)) return la_dtype_error(kernel, dtype), NULL;
    const tc_lapack *l = la_lapack(api);
    if (l && la_complex(dtype) &&
        !(TC_STRUCT_HAS(l, tc_lapack, potri_complex) && l->potrf_complex && l->potrs_complex && l->potri_complex))
        return la_no_complex(api, "potrf_complex"), NULL;
    return l;
}

static int potrf(la_scratch *s, int32_t dt, char uplo, int64_t n, void *a, int64_t lda) {
    return (la_complex(dt) ? s->lapack->potrf_complex : s->lapack->potrf)(dt, uplo, n, a, lda, &s->ws);
}

static int potrs(la_scratch *s, int32_t dt, char uplo, int64_t n, int64_t k, const void *a, int64_t lda, void *b,
                 int64_t ldb) {
    return (la_complex(dt) ? s->lapack->potrs_complex : s->lapack->potrs)(dt, uplo, n, k, a, lda, b, ldb, &s->ws);
}

static int potri(la_scratch *s, int32_t dt, char uplo, int64_t n, void *a, int64_t lda) {
    return (la_complex(dt) ? s->lapack->potri_complex : s->lapack->potri)(dt, uplo, n, a, lda, &s->ws);
}

static char uplo_of(const tc_kernel_args *args, int arg) { return args->args[arg].v.b ? 'U' : 'L'; }

/* n x n scratch (ld max(1, n)) and `extra` more elements. */
static void *square_scratch(la_scratch *s, int32_t dtype, int64_t n, int64_t extra, void **more) {
    int64_t elems;
    if (__builtin_mul_overflow(la_max1(n), n, &elems)) return NULL;
    const size_t a_bytes = la_bytes(la_es(dtype), elems, 0, 0);
    char *p = la_scratch_get(s, la_bytes(1, (int64_t)a_bytes, (int64_t)la_bytes(la_es(dtype), extra, 0, 0), 0));
    if (p && more) *more = p + a_bytes;
    return p;
}

/* Zeros the triangle LAPACK did not use (strictly above the diagonal for 'L', below for 'U'). */
static void zero_other(int32_t dtype, void *m, int64_t n, int64_t ld, char uplo) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            if (uplo == 'L' ? i >= j : i <= j) continue;
            memset((char *)m + (size_t)(i + j * ld) * la_es(dtype), 0, la_es(dtype));
        }
}

/* Copies the uplo triangle over the other one (potri leaves only one), conjugated for complex. */
static void symmetrize(int32_t dtype, void *m, int64_t n, int64_t ld, char uplo) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j + 1; i < n; i++) {
            const int64_t from = uplo == 'L' ? i + j * ld : j + i * ld, to = uplo == 'L' ? j + i * ld : i + j * ld;
            if (dtype == TC_FLOAT64)
                ((double *)m)[to] = ((double *)m)[from];
            else if (dtype == TC_FLOAT32)
                ((float *)m)[to] = ((float *)m)[from];
            else if (dtype == TC_COMPLEX128)
                ((double *)m)[2 * to] = ((double *)m)[2 * from], ((double *)m)[2 * to + 1] = -((double *)m)[2 * from + 1];
            else
                ((float *)m)[2 * to] = ((float *)m)[2 * from], ((float *)m)[2 * to + 1] = -((float *)m)[2 * from + 1];
        }
}

static int run(const tc_lapack *l, int64_t count, int64_t n, la_item_fn fn, void *ctx, const char *api,
               int64_t *failed) {
    int64_t work;
    if (__builtin_mul_overflow(n, n * n, &work)) work = INT64_MAX;
    return la_batches(l, count, work, fn, ctx, failed);
}

/* ---- cholesky_ex ---- */

static int factor_item(void *ctx, int64_t b, la_scratch *s) {
    const chol_job *j = ctx;
    const tc_view *a = j->in[0], *L = j->out[0];
    const int64_t n = la_rows(a), ld = la_max1(n);
    void *m = square_scratch(s, a->dtype, n, 0, NULL);
    if (!m) return TC_LAPACK_NOMEM;
    la_gather(a, la_offset(a, 2, b), m, ld, false);
    const int st = potrf(s, a->dtype, j->uplo, n, m, ld);
    if (st < 0) return st;
    zero_other(a->dtype, m, n, ld, j->uplo);
    la_scatter(L, la_offset(L, 2, b), m, ld, false);
    ((int32_t *)j->out[1]->data)[la_offset(j->out[1], 0, b)] = st;
    return 0;
}

static int k_cholesky_ex(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 2, "cholesky_ex")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "cholesky_cpu", "linalg.cholesky");
    if (!l) return TC_FAIL;
    chol_job j = {{&args->inputs[0]}, {&args->outputs[0], &args->outputs[1]}, uplo_of(args, 1)};
    const int st = run(l, la_batch_count(j.in[0], 2), la_rows(j.in[0]), factor_item, &j, "linalg.cholesky", NULL);
    return st ? la_raise(st, "linalg.cholesky") : TC_OK;
}

/* ---- cholesky_solve ---- */

static int solve_item(void *ctx, int64_t b, la_scratch *s) {
    const chol_job *j = ctx;
    const tc_view *B = j->in[0], *L = j->in[1], *X = j->out[0];
    const int64_t n = la_rows(L), k = la_cols(B), ld = la_max1(n);
    int64_t rhs_elems;
    if (__builtin_mul_overflow(ld, k, &rhs_elems)) return TC_LAPACK_TOO_LARGE;
    void *rhs, *m = square_scratch(s, L->dtype, n, rhs_elems, &rhs);
    if (!m) return TC_LAPACK_NOMEM;
    la_gather(L, la_offset(L, 2, b), m, ld, false);
    la_gather(B, la_offset(B, 2, b), rhs, ld, false);
    const int st = potrs(s, L->dtype, j->uplo, n, k, m, ld, rhs, ld);
    if (st) return st;
    la_scatter(X, la_offset(X, 2, b), rhs, ld, false);
    return 0;
}

static int k_cholesky_solve(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 1, "cholesky_solve")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "cholesky_solve_cpu", "cholesky_solve");
    if (!l) return TC_FAIL;
    chol_job j = {{&args->inputs[0], &args->inputs[1]}, {&args->outputs[0]}, uplo_of(args, 2)};
    const int st = run(l, la_batch_count(j.out[0], 2), la_rows(j.in[1]), solve_item, &j, "cholesky_solve", NULL);
    return st ? la_raise(st, "cholesky_solve") : TC_OK;
}

/* ---- cholesky_inverse ---- */

static int inverse_item(void *ctx, int64_t b, la_scratch *s) {
    const chol_job *j = ctx;
    const tc_view *L = j->in[0], *out = j->out[0];
    const int64_t n = la_rows(L), ld = la_max1(n);
    void *m = square_scratch(s, L->dtype, n, 0, NULL);
    if (!m) return TC_LAPACK_NOMEM;
    la_gather(L, la_offset(L, 2, b), m, ld, false);
    const int st = potri(s, L->dtype, j->uplo, n, m, ld);
    if (st) return st;
    symmetrize(L->dtype, m, n, ld, j->uplo);
    la_scatter(out, la_offset(out, 2, b), m, ld, false);
    return 0;
}

static int k_cholesky_inverse(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 1, "cholesky_inverse")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "cholesky_inverse_out_cpu", "cholesky_inverse");
    if (!l) return TC_FAIL;
    chol_job j = {{&args->inputs[0]}, {&args->outputs[0]}, uplo_of(args, 1)};
    int64_t failed;
    const int st = run(l, la_batch_count(j.in[0], 2), la_rows(j.in[0]), inverse_item, &j, "cholesky_inverse", &failed);
    if (st > 0) {
        char batch[64] = "";
        if (j.in[0]->ndim > 2) snprintf(batch, sizeof batch, ": (Batch element %lld)", (long long)failed);
        return cpu_core->set_error(TC_ERR_LINALG, "cholesky_inverse%s: The diagonal element %d is zero, the inversion "
                                                  "could not be completed because the input matrix is singular.",
                                   batch, st);
    }
    return st ? la_raise(st, "cholesky_inverse") : TC_OK;
}

static const cpu_kernel_entry kernels[] = {
    {"cholesky_ex", TC_ANY_DTYPE, k_cholesky_ex},
    {"cholesky_solve", TC_ANY_DTYPE, k_cholesky_solve},
    {"cholesky_inverse", TC_ANY_DTYPE, k_cholesky_inverse},
};
CPU_KERNEL_TABLE(kernels);
