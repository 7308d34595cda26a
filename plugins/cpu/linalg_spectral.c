/*
 * linalg_spectral.c - singular value and Hermitian eigenvalue decompositions over LAPACK's divide
 * and conquer drivers (gesdd, syevd; cgesdd/zgesdd and cheevd/zheevd for complex): linalg_svd,
 * linalg_eigh.
 *
 * Contracts (docs/plugin-abi.md), batch dims first; k = min(m, n):
 *   linalg_svd   A[m,n] -> U[m,m or k], S[k], Vh[n or k,n]; U and Vh [0] without them
 *                args: full_matrices, compute_uv. A matrix with NaN, or one the algorithm does
 *                not converge on, raises LinAlgError as PyTorch's does (infinities give NaNs).
 *   linalg_eigh  A[n,n] -> eigenvalues[n] ascending, eigenvectors[n,n] (columns) or [0]
 *                args: UPLO (the triangle read), compute_v.
 * A is float32, float64, complex64 or complex128; S and the eigenvalues are real (float32 for
 * complex64, float64 for complex128), U, Vh and the eigenvectors of A's dtype. Complex matrices go
 * through the provider's gesdd_complex and heevd_complex (ABI 1.5); a provider without them raises a
 * RuntimeError naming it. eigh reads only the UPLO triangle, and of the diagonal only the real part
 * (LAPACK's heevd assumes it real, as PyTorch's result does).
 */
#include <math.h>

#include "linalg.h"

typedef struct spectral_job {
    const tc_view *a;
    const tc_view *out[3];
    char job, uplo;
} spectral_job;

/* The real dtype of a LAPACK dtype's parts: S and the eigenvalues are of it. */
static int32_t real_of(int32_t dtype) {
    return dtype == TC_COMPLEX64 ? TC_FLOAT32 : dtype == TC_COMPLEX128 ? TC_FLOAT64 : dtype;
}

/* The provider's LAPACK for a kernel of dtype: NULL with the error raised when the dtype is not
 * float32/64 or complex64/128, or complex and the provider's table lacks `member` (a 1.5 member,
 * read only where TC_STRUCT_HAS says the table has it). */
static const tc_lapack *lapack_for(int32_t dtype, const char *kernel, const char *api, const char *member,
                                   bool (*has_member)(const tc_lapack *)) {
    if (dtype != TC_FLOAT32 && dtype != TC_FLOAT64 && !la_complex(dtype)) return la_dtype_error(kernel, dtype), NULL;
    const tc_lapack *l = la_lapack(api);
    if (l && la_complex(dtype) && !has_member(l)) return la_no_complex(api, member), NULL;
    return l;
}

static bool has_gesdd_complex(const tc_lapack *l) { return TC_STRUCT_HAS(l, tc_lapack, gesdd_complex) && l->gesdd_complex; }
static bool has_heevd_complex(const tc_lapack *l) { return TC_STRUCT_HAS(l, tc_lapack, heevd_complex) && l->heevd_complex; }

/* Scratch regions of the given element sizes and counts, in order. */
static int regions(la_scratch *s, int n, const size_t *es, const int64_t *counts, void **out) {
    size_t sizes[4], total = 0;
    for (int i = 0; i < n; i++) {
        sizes[i] = la_bytes(es[i], counts[i], 0, 0);
        if (sizes[i] == SIZE_MAX || total > SIZE_MAX / 2) return TC_LAPACK_TOO_LARGE;
        total += sizes[i];
    }
    char *p = la_scratch_get(s, total);
    if (!p) return TC_LAPACK_NOMEM;
    for (int i = 0; i < n; i++) out[i] = p, p += sizes[i];
    return 0;
}

static int64_t prod(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? -1 : r;
}

/* An item's multiply-adds for la_batches: a complex one costs about four real ones. */
static int64_t item_work(int32_t dtype, int64_t real_work) {
    const int64_t w = la_complex(dtype) ? prod(real_work, 4) : real_work;
    return w < 0 ? INT64_MAX : w;
}

/* ---- svd ---- */

/* Whether a rows x cols column-major scratch matrix holds a NaN (in either part of a complex element).
 * LAPACK's gesdd rejects NaN as an illegal argument, and PyTorch reports it as non-finite input;
 * infinities go through (gesdd returns NaNs for them, and so does PyTorch). */
static bool has_nan(int32_t dtype, const void *m, int64_t rows, int64_t cols, int64_t ld) {
    const int64_t parts = la_complex(dtype) ? 2 : 1;
    const bool wide = real_of(dtype) == TC_FLOAT64;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows * parts; i++) {
            const int64_t at = i + j * ld * parts;
            if (wide ? isnan(((const double *)m)[at]) : isnan(((const float *)m)[at])) return true;
        }
    return false;
}

/* An n x n identity (leading dimension ld) at m: what U or Vh of an empty matrix's full SVD is, as
 * PyTorch returns it (gesdd returns at once for m = 0 or n = 0 and leaves them unwritten). */
static void identity(int32_t dtype, void *m, int64_t n, int64_t ld) {
    const int64_t parts = la_complex(dtype) ? 2 : 1; /* a complex element: (real, imaginary) */
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            for (int64_t p = 0; p < parts; p++) {
                const int64_t at = (i + j * ld) * parts + p;
                if (real_of(dtype) == TC_FLOAT64)
                    ((double *)m)[at] = i == j && p == 0;
                else
                    ((float *)m)[at] = i == j && p == 0;
            }
}

static int svd_item(void *ctx, int64_t b, la_scratch *s) {
    const spectral_job *j = ctx;
    const tc_view *a = j->a, *U = j->out[0], *S = j->out[1], *Vh = j->out[2];
    const int64_t m = la_rows(a), n = la_cols(a), k = la_min(m, n), ld = la_max1(m);
    const bool uv = j->job != 'N';
    const int64_t ucols = j->job == 'A' ? m : k, vrows = j->job == 'A' ? n : k, ldvt = la_max1(vrows);
    void *r[4];
    const int64_t counts[4] = {prod(ld, n), k, uv ? prod(ld, ucols) : 1, uv ? prod(ldvt, n) : 1};
    for (int i = 0; i < 4; i++)
        if (counts[i] < 0) return TC_LAPACK_TOO_LARGE;
    const size_t es = la_es(a->dtype), res = la_es(real_of(a->dtype));
    int st = regions(s, 4, (size_t[]){es, res, es, es}, counts, r);
    if (st) return st;
    la_gather(a, la_offset(a, 2, b), r[0], ld, false);
    if (has_nan(a->dtype, r[0], m, n, ld)) return LA_NONFINITE;
    st = (la_complex(a->dtype) ? s->lapack->gesdd_complex : s->lapack->gesdd)(
        a->dtype, j->job, m, n, r[0], ld, r[1], r[2], uv ? ld : 1, r[3], uv ? ldvt : 1, &s->ws);
    if (st) return st;
    la_scatter_vec(S, la_offset(S, 1, b), r[1]);
    if (uv && k == 0) {
        identity(a->dtype, r[2], ucols, ld);
        identity(a->dtype, r[3], vrows, ldvt);
    }
    if (uv) {
        la_scatter(U, la_offset(U, 2, b), r[2], ld, false);
        la_scatter(Vh, la_offset(Vh, 2, b), r[3], ldvt, false);
    }
    return 0;
}

static int k_linalg_svd(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 3, "linalg_svd")) return TC_FAIL;
    const int32_t dt = args->inputs[0].dtype;
    const tc_lapack *l = lapack_for(dt, "linalg_svd_cpu", "linalg.svd", "gesdd_complex", has_gesdd_complex);
    if (!l) return TC_FAIL;
    const bool full = args->args[1].v.b, uv = args->args[2].v.b;
    spectral_job j = {&args->inputs[0], {&args->outputs[0], &args->outputs[1], &args->outputs[2]},
                      uv ? (full ? 'A' : 'S') : 'N', 0};
    const int64_t m = la_rows(j.a), n = la_cols(j.a);
    int64_t failed, work = prod(prod(m, n), la_max1(la_min(m, n)));
    const int st = la_batches(l, la_batch_count(j.a, 2), item_work(dt, prod(work, 8)), svd_item, &j, &failed);
    return st ? la_raise_item(st, failed, j.a, "linalg.svd", "singular values") : TC_OK;
}

/* ---- eigh ---- */

static int eigh_item(void *ctx, int64_t b, la_scratch *s) {
    const spectral_job *j = ctx;
    const tc_view *a = j->a, *w = j->out[0], *V = j->out[1];
    const int64_t n = la_rows(a), ld = la_max1(n);
    void *r[2];
    const int64_t counts[2] = {prod(ld, n), n};
    if (counts[0] < 0) return TC_LAPACK_TOO_LARGE;
    int st = regions(s, 2, (size_t[]){la_es(a->dtype), la_es(real_of(a->dtype))}, counts, r);
    if (st) return st;
    la_gather(a, la_offset(a, 2, b), r[0], ld, false);
    st = (la_complex(a->dtype) ? s->lapack->heevd_complex : s->lapack->syevd)(a->dtype, j->job, j->uplo, n, r[0], ld,
                                                                               r[1], &s->ws);
    if (st) return st;
    la_scatter_vec(w, la_offset(w, 1, b), r[1]);
    if (j->job == 'V') la_scatter(V, la_offset(V, 2, b), r[0], ld, false);
    return 0;
}

static int k_linalg_eigh(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 2, "linalg_eigh")) return TC_FAIL;
    const int32_t dt = args->inputs[0].dtype;
    const tc_lapack *l = lapack_for(dt, "linalg_eigh_cpu", "linalg.eigh", "heevd_complex", has_heevd_complex);
    if (!l) return TC_FAIL;
    const char u = args->args[1].v.s[0];
    spectral_job j = {&args->inputs[0], {&args->outputs[0], &args->outputs[1]}, args->args[2].v.b ? 'V' : 'N',
                      u == 'U' || u == 'u' ? 'U' : 'L'};
    const int64_t n = la_rows(j.a);
    int64_t failed, work = prod(n, prod(n, n));
    const int st = la_batches(l, la_batch_count(j.a, 2), item_work(dt, prod(work, 4)), eigh_item, &j, &failed);
    return st ? la_raise_item(st, failed, j.a, "linalg.eigh", "eigenvalues") : TC_OK;
}

static const cpu_kernel_entry kernels[] = {
    {"linalg_svd", TC_ANY_DTYPE, k_linalg_svd},
    {"linalg_eigh", TC_ANY_DTYPE, k_linalg_eigh},
};
CPU_KERNEL_TABLE(kernels);
