/*
 * linalg_triangular.c - triangular solves over BLAS trsm (the provider's tc_lapack.trsm):
 * triangular_solve and linalg_solve_triangular. A zero on the diagonal gives infinities and NaNs,
 * never an error, as PyTorch's do. Complex64 and complex128 go through trsm_complex (ABI 1.5);
 * triangular_solve's transpose is then the plain transpose ('T'), as PyTorch's is.
 *
 * Contracts (docs/plugin-abi.md), batch dims first:
 *   triangular_solve         A[n,n], B[n,k] -> X[n,k], A's copy[n,n]     args: upper, transpose, unitriangular
 *   linalg_solve_triangular  A[n,n], B[n,k] (left) or [k,n] -> X         args: upper, left, unitriangular
 */
#include "linalg.h"

typedef struct tri_job {
    const tc_view *a, *b, *x, *copy;
    char side, uplo, trans, diag;
} tri_job;

static int item(void *ctx, int64_t bi, la_scratch *s) {
    const tri_job *j = ctx;
    const int64_t n = la_rows(j->a), r = la_rows(j->b), c = la_cols(j->b), lda = la_max1(n), ldb = la_max1(r);
    int64_t ea, eb;
    if (__builtin_mul_overflow(lda, n, &ea) || __builtin_mul_overflow(ldb, c, &eb)) return TC_LAPACK_TOO_LARGE;
    const size_t es = la_es(j->a->dtype), ba = la_bytes(es, ea, 0, 0);
    char *p = la_scratch_get(s, la_bytes(1, (int64_t)ba, (int64_t)la_bytes(es, eb, 0, 0), 0));
    if (!p) return TC_LAPACK_NOMEM;
    la_gather(j->a, la_offset(j->a, 2, bi), p, lda, false);
    la_gather(j->b, la_offset(j->b, 2, bi), p + ba, ldb, false);
    const int st = (la_complex(j->a->dtype) ? s->lapack->trsm_complex : s->lapack->trsm)(
        j->a->dtype, j->side, j->uplo, j->trans, j->diag, r, c, 1.0, p, lda, p + ba, ldb, &s->ws);
    if (st) return st;
    la_scatter(j->x, la_offset(j->x, 2, bi), p + ba, ldb, false);
    if (j->copy) la_scatter(j->copy, la_offset(j->copy, 2, bi), p, lda, false);
    return 0;
}

static int run(const tc_kernel_args *args, tri_job *j, const char *api) {
    const int32_t dt = j->a->dtype;
    if (dt != TC_FLOAT32 && dt != TC_FLOAT64 && !la_complex(dt)) return la_dtype_error("triangular_solve_cpu", dt);
    const tc_lapack *l = la_lapack(api);
    if (!l) return TC_FAIL;
    if (la_complex(dt) && !LA_HAS(l, trsm_complex)) return la_no_member(api, "trsm_complex");
    const int64_t n = la_rows(j->a), k = j->side == 'L' ? la_cols(j->b) : la_rows(j->b);
    int64_t work;
    if (__builtin_mul_overflow(n * n, la_max1(k), &work)) work = INT64_MAX;
    const int st = la_batches(l, la_batch_count(j->x, 2), work, item, j, NULL);
    (void)args;
    return st ? la_raise(st, api) : TC_OK;
}

static int k_triangular_solve(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 2, "triangular_solve")) return TC_FAIL;
    tri_job j = {&args->inputs[0], &args->inputs[1], &args->outputs[0], &args->outputs[1], 'L',
                 args->args[2].v.b ? 'U' : 'L', args->args[3].v.b ? 'T' : 'N', args->args[4].v.b ? 'U' : 'N'};
    return run(args, &j, "triangular_solve");
}

static int k_solve_triangular(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 1, "linalg_solve_triangular")) return TC_FAIL;
    tri_job j = {&args->inputs[0], &args->inputs[1], &args->outputs[0], NULL, args->args[3].v.b ? 'L' : 'R',
                 args->args[2].v.b ? 'U' : 'L', 'N', args->args[4].v.b ? 'U' : 'N'};
    return run(args, &j, "linalg.solve_triangular");
}

static const cpu_kernel_entry kernels[] = {
    {"triangular_solve", TC_ANY_DTYPE, k_triangular_solve},
    {"solve_triangular", TC_ANY_DTYPE, k_solve_triangular},
};
CPU_KERNEL_TABLE(kernels);
