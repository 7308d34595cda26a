/*
 * linalg_spectral.c - singular value and symmetric eigenvalue decompositions over LAPACK's divide
 * and conquer drivers (gesdd, syevd): linalg_svd, linalg_eigh.
 *
 * Contracts (docs/plugin-abi.md), batch dims first; k = min(m, n):
 *   linalg_svd   A[m,n] -> U[m,m or k], S[k], Vh[n or k,n]; U and Vh [0] without them
 *                args: full_matrices, compute_uv. A matrix with NaN or infinity, or one the
 *                algorithm does not converge on, raises LinAlgError as PyTorch's does.
 *   linalg_eigh  A[n,n] -> eigenvalues[n] ascending, eigenvectors[n,n] (columns) or [0]
 *                args: UPLO (the triangle read), compute_v.
 */
#include "linalg.h"

typedef struct spectral_job {
    const tc_view *a;
    const tc_view *out[3];
    char job, uplo;
} spectral_job;

static int lapack_dtype_ok(int32_t dtype, const char *kernel) {
    return dtype == TC_FLOAT32 || dtype == TC_FLOAT64 ? TC_OK : la_dtype_error(kernel, dtype);
}

/* Scratch regions of the given element counts, in order. */
static int regions(la_scratch *s, int32_t dtype, int n, const int64_t *counts, void **out) {
    size_t sizes[4], total = 0;
    for (int i = 0; i < n; i++) {
        sizes[i] = la_bytes(la_es(dtype), counts[i], 0, 0);
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

/* ---- svd ---- */

/* An n x n identity (leading dimension ld) at m: what U or Vh of an empty matrix's full SVD is, as
 * PyTorch returns it (gesdd returns at once for m = 0 or n = 0 and leaves them unwritten). */
static void identity(int32_t dtype, void *m, int64_t n, int64_t ld) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            if (dtype == TC_FLOAT64)
                ((double *)m)[i + j * ld] = i == j;
            else
                ((float *)m)[i + j * ld] = i == j;
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
    int st = regions(s, a->dtype, 4, counts, r);
    if (st) return st;
    la_gather(a, la_offset(a, 2, b), r[0], ld, false);
    if (!la_finite(a->dtype, r[0], m, n, ld)) return LA_NONFINITE;
    if ((st = s->lapack->gesdd(a->dtype, j->job, m, n, r[0], ld, r[1], r[2], uv ? ld : 1, r[3], uv ? ldvt : 1, &s->ws)))
        return st;
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
    if (cpu_check_args(args, 1, 3, "linalg_svd") || lapack_dtype_ok(args->inputs[0].dtype, "linalg_svd_cpu"))
        return TC_FAIL;
    const tc_lapack *l = la_lapack("linalg.svd");
    if (!l) return TC_FAIL;
    const bool full = args->args[1].v.b, uv = args->args[2].v.b;
    spectral_job j = {&args->inputs[0], {&args->outputs[0], &args->outputs[1], &args->outputs[2]},
                      uv ? (full ? 'A' : 'S') : 'N', 0};
    const int64_t m = la_rows(j.a), n = la_cols(j.a);
    int64_t failed, work = prod(prod(m, n), la_max1(la_min(m, n)));
    const int st = la_batches(l, la_batch_count(j.a, 2), work < 0 ? INT64_MAX : 8 * work, svd_item, &j, &failed);
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
    int st = regions(s, a->dtype, 2, counts, r);
    if (st) return st;
    la_gather(a, la_offset(a, 2, b), r[0], ld, false);
    if ((st = s->lapack->syevd(a->dtype, j->job, j->uplo, n, r[0], ld, r[1], &s->ws))) return st;
    la_scatter_vec(w, la_offset(w, 1, b), r[1]);
    if (j->job == 'V') la_scatter(V, la_offset(V, 2, b), r[0], ld, false);
    return 0;
}

static int k_linalg_eigh(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 2, "linalg_eigh") || lapack_dtype_ok(args->inputs[0].dtype, "linalg_eigh_cpu"))
        return TC_FAIL;
    const tc_lapack *l = la_lapack("linalg.eigh");
    if (!l) return TC_FAIL;
    const char u = args->args[1].v.s[0];
    spectral_job j = {&args->inputs[0], {&args->outputs[0], &args->outputs[1]}, args->args[2].v.b ? 'V' : 'N',
                      u == 'U' || u == 'u' ? 'U' : 'L'};
    const int64_t n = la_rows(j.a);
    int64_t failed, work = prod(n, prod(n, n));
    const int st = la_batches(l, la_batch_count(j.a, 2), work < 0 ? INT64_MAX : 4 * work, eigh_item, &j, &failed);
    return st ? la_raise_item(st, failed, j.a, "linalg.eigh", "eigenvalues") : TC_OK;
}

static const cpu_kernel_entry kernels[] = {
    {"linalg_svd", TC_ANY_DTYPE, k_linalg_svd},
    {"linalg_eigh", TC_ANY_DTYPE, k_linalg_eigh},
};
CPU_KERNEL_TABLE(kernels);
