/*
 * linalg_lstsq.c - least squares over LAPACK's drivers: gels (QR, full rank), gelsy (complete
 * orthogonal factorisation), gelsd and gelss (SVD).
 *
 * Contract (docs/plugin-abi.md), batch dims first:
 *   linalg_lstsq  A[m,n], B[m,k] -> solution[n,k], residuals[k] or [0], rank[] int64 or [0],
 *                 singular_values[min(m,n)] or [0]
 *                 ints[0]: the driver (0 gels, 1 gelsy, 2 gelsd, 3 gelss); args: rcond (None:
 *                 the dtype's epsilon times max(m, n), as PyTorch's default)
 * Residuals are the squared norms of the rows of the solution buffer past n (m > n), as LAPACK
 * documents; the core drops them afterwards when a rank-revealing driver found a matrix not of full
 * rank, as PyTorch does. gels on a matrix without full rank raises LinAlgError. Complex64 and
 * complex128 go through the drivers' complex members (ABI 1.5): residuals and singular values are then
 * real, of the dtype of the parts.
 */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "linalg.h"

typedef struct lstsq_job {
    const tc_view *a, *b;
    const tc_view *x, *res, *rank, *sv;
    int driver;
    double rcond;
} lstsq_job;

static int64_t prod(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? -1 : r;
}

/* The drivers by the kernel's ints[0], real and complex: the name of the complex member, for the error
 * when the provider lacks it. */
static const char *const complex_members[] = {"gels_complex", "gelsy_complex", "gelsd_complex", "gelss_complex"};

static bool has_complex_driver(const tc_lapack *l, int driver) {
    switch (driver) {
    case 0: return LA_HAS(l, gels_complex);
    case 1: return LA_HAS(l, gelsy_complex);
    case 2: return LA_HAS(l, gelsd_complex);
    default: return LA_HAS(l, gelss_complex);
    }
}

/* |x|^2 of element i of a column-major scratch of dtype (both parts of a complex one). */
static double abs2(int32_t dt, const void *m, int64_t i) {
    switch (dt) {
    case TC_FLOAT64: return ((const double *)m)[i] * ((const double *)m)[i];
    case TC_FLOAT32: return (double)((const float *)m)[i] * ((const float *)m)[i];
    case TC_COMPLEX128: {
        const double re = ((const double *)m)[2 * i], im = ((const double *)m)[2 * i + 1];
        return re * re + im * im;
    }
    default: {
        const double re = ((const float *)m)[2 * i], im = ((const float *)m)[2 * i + 1];
        return re * re + im * im;
    }
    }
}

static int item(void *ctx, int64_t b, la_scratch *s) {
    const lstsq_job *j = ctx;
    const tc_view *A = j->a, *B = j->b;
    const int32_t dt = A->dtype;
    const size_t es = la_es(dt);
    const int64_t m = la_rows(A), n = la_cols(A), k = la_cols(B), lda = la_max1(m);
    const int64_t ldb = la_max1(m > n ? m : n), mn = la_min(m, n);
    const int64_t ea = prod(lda, n), eb = prod(ldb, k);
    if (ea < 0 || eb < 0) return TC_LAPACK_TOO_LARGE;
    const size_t ba = la_bytes(es, ea, 0, 0), bb = la_bytes(es, eb, 0, 0), bs = la_bytes(es, mn + 1, 0, 0);
    const size_t bj = la_bytes(8, n + 1, 0, 0);
    char *p = la_scratch_get(s, la_bytes(1, (int64_t)ba, (int64_t)bb, (int64_t)la_bytes(1, (int64_t)bs, (int64_t)bj, 0)));
    if (!p || ba == SIZE_MAX || bb == SIZE_MAX) return TC_LAPACK_NOMEM;
    char *abuf = p, *bbuf = p + ba, *sv = p + ba + bb;
    int64_t *jpvt = (int64_t *)(void *)(sv + bs);
    la_gather(A, la_offset(A, 2, b), abuf, lda, false);
    memset(bbuf, 0, (size_t)eb * es);
    la_gather(B, la_offset(B, 2, b), bbuf, ldb, false);
    int64_t rank = 0;
    int st;
    const tc_lapack *l = s->lapack;
    const bool c = la_complex(dt);
    switch (j->driver) {
    case 0: st = (c ? l->gels_complex : l->gels)(dt, 'N', m, n, k, abuf, lda, bbuf, ldb, &s->ws); break;
    case 1:
        memset(jpvt, 0, sizeof(int64_t) * (size_t)n);
        st = (c ? l->gelsy_complex : l->gelsy)(dt, m, n, k, abuf, lda, bbuf, ldb, jpvt, j->rcond, &rank, &s->ws);
        break;
    case 2: st = (c ? l->gelsd_complex : l->gelsd)(dt, m, n, k, abuf, lda, bbuf, ldb, sv, j->rcond, &rank, &s->ws); break;
    default: st = (c ? l->gelss_complex : l->gelss)(dt, m, n, k, abuf, lda, bbuf, ldb, sv, j->rcond, &rank, &s->ws); break;
    }
    if (st) return st;
    /* the solution: the first n rows of bbuf (all of it when n > m: the minimum-norm one) */
    tc_view x = *j->x;
    la_scatter(&x, la_offset(j->x, 2, b), bbuf, ldb, false);
    if (j->res->ndim >= 1 && j->res->sizes[0] != 0 && m > n) {
        const int64_t off = la_offset(j->res, 1, b), st1 = j->res->strides[j->res->ndim - 1];
        for (int64_t col = 0; col < k; col++) {
            double sum = 0;
            for (int64_t r = n; r < m; r++) sum += abs2(dt, bbuf, r + col * ldb);
            if (j->res->dtype == TC_FLOAT64) /* the real dtype of the parts */
                ((double *)j->res->data)[off + col * st1] = sum;
            else
                ((float *)j->res->data)[off + col * st1] = (float)sum;
        }
    }
    if (j->driver != 0) ((int64_t *)j->rank->data)[la_offset(j->rank, 0, b)] = rank;
    if (j->driver >= 2) la_scatter_vec(j->sv, la_offset(j->sv, 1, b), sv);
    return 0;
}

static int k_linalg_lstsq(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 4, "linalg_lstsq")) return TC_FAIL;
    const int32_t dt = args->inputs[0].dtype;
    if (dt != TC_FLOAT32 && dt != TC_FLOAT64 && !la_complex(dt)) return la_dtype_error("linalg_lstsq", dt);
    const tc_lapack *l = la_lapack("torch.linalg.lstsq");
    if (!l) return TC_FAIL;
    lstsq_job j = {&args->inputs[0], &args->inputs[1], &args->outputs[0], &args->outputs[1], &args->outputs[2],
                   &args->outputs[3], (int)args->ints[0], 0};
    if (j.driver < 0 || j.driver > 3) return cpu_core->set_error(TC_ERR_RUNTIME, "linalg_lstsq: unknown driver %d", j.driver);
    if (la_complex(dt) && !has_complex_driver(l, j.driver))
        return la_no_member("torch.linalg.lstsq", complex_members[j.driver]);
    const int64_t m = la_rows(j.a), n = la_cols(j.a);
    j.rcond = args->args[2].tag == TC_VALUE_FLOAT ? args->args[2].v.f
                                                  : (dt == TC_FLOAT64 || dt == TC_COMPLEX128 ? DBL_EPSILON : FLT_EPSILON) *
                                                        (double)(m > n ? m : n);
    int64_t failed, work = prod(prod(m, n), la_max1(la_min(m, n)));
    const int st = la_batches(l, la_batch_count(j.x, 2), work < 0 ? INT64_MAX : 4 * work, item, &j, &failed);
    if (st > 0) {
        char batch[64] = "";
        if (j.x->ndim > 2) snprintf(batch, sizeof batch, ": (Batch element %lld)", (long long)failed);
        return cpu_core->set_error(TC_ERR_LINALG, "torch.linalg.lstsq%s: The least squares solution could not be "
                                                  "computed because the input matrix does not have full rank (error "
                                                  "code: %d).", batch, st);
    }
    return st ? la_raise(st, "torch.linalg.lstsq") : TC_OK;
}

static const cpu_kernel_entry kernels[] = {{"linalg_lstsq", TC_ANY_DTYPE, k_linalg_lstsq}};
CPU_KERNEL_TABLE(kernels);
