/*
 * linalg_qr.c - QR kernels over LAPACK geqrf/orgqr: linalg_qr, geqrf, householder_product. Complex64
 * and complex128 go through the provider's geqrf_complex and ungqr_complex (ABI 1.5): R's diagonal is
 * then real, as LAPACK's complex Householder reflectors leave it.
 *
 * Contracts (docs/plugin-abi.md), batch dims first; k = min(m, n):
 *   linalg_qr             A[m,n] -> Q[m,k] R[k,n] ('reduced'), Q[m,m] R[m,n] ('complete'),
 *                         Q[0] R[k,n] ('r')                                    args: mode
 *   geqrf                 A[m,n] -> a[m,n] (R on and above the diagonal, reflectors below), tau[k]
 *   householder_product   V[m,n], tau[t] -> the first n columns of H_1 ... H_t [m,n]
 */
#include <string.h>

#include "linalg.h"

typedef struct qr_job {
    const tc_view *in[2];
    const tc_view *out[2];
    bool complete;
} qr_job;

/* The provider's LAPACK for a QR kernel of dtype: NULL with the error raised for a dtype LAPACK has no
 * routine for (PyTorch's message, naming `kernel`), or a complex one the provider lacks. */
static const tc_lapack *lapack_for(int32_t dtype, const char *kernel, const char *api) {
    if (dtype != TC_FLOAT32 && dtype != TC_FLOAT64 && !la_complex(dtype)) return la_dtype_error(kernel, dtype), NULL;
    const tc_lapack *l = la_lapack(api);
    if (l && la_complex(dtype) && !(LA_HAS(l, geqrf_complex) && LA_HAS(l, ungqr_complex)))
        return la_no_member(api, LA_HAS(l, geqrf_complex) ? "ungqr_complex" : "geqrf_complex"), NULL;
    return l;
}

/* geqrf and orgqr (ungqr for complex dtypes) of the provider in s. */
static int geqrf(la_scratch *s, int32_t dt, int64_t m, int64_t n, void *a, int64_t lda, void *tau) {
    return (la_complex(dt) ? s->lapack->geqrf_complex : s->lapack->geqrf)(dt, m, n, a, lda, tau, &s->ws);
}

static int orgqr(la_scratch *s, int32_t dt, int64_t m, int64_t n, int64_t k, void *a, int64_t lda, const void *tau) {
    return (la_complex(dt) ? s->lapack->ungqr_complex : s->lapack->orgqr)(dt, m, n, k, a, lda, tau, &s->ws);
}

/* An m x cols matrix (ld max(1, m)) and tau of k after it. */
static char *qr_scratch(la_scratch *s, int32_t dtype, int64_t m, int64_t cols, int64_t k, void **tau) {
    int64_t elems;
    if (__builtin_mul_overflow(la_max1(m), la_max1(cols), &elems)) return NULL;
    const size_t a_bytes = la_bytes(la_es(dtype), elems, 0, 0);
    char *p = la_scratch_get(s, la_bytes(1, (int64_t)a_bytes, (int64_t)la_bytes(la_es(dtype), k + 1, 0, 0), 0));
    if (p) *tau = p + a_bytes;
    return p;
}

/* Writes the upper trapezoid of the first `rows` rows of the factored matrix (R) into view v, zeros
 * below it; elements are copied as bytes, so every LAPACK dtype is alike. */
static void scatter_r(const tc_view *v, int64_t off, int32_t dtype, const char *a, int64_t ld, int64_t rows,
                      int64_t n) {
    const int64_t s0 = v->strides[v->ndim - 2], s1 = v->strides[v->ndim - 1];
    const size_t es = la_es(dtype);
    char *dst = v->data;
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < n; j++) {
            char *o = dst + (size_t)(off + i * s0 + j * s1) * es;
            if (i <= j)
                memcpy(o, a + (size_t)(i + j * ld) * es, es);
            else
                memset(o, 0, es);
        }
}

static int run(const tc_lapack *l, const tc_view *a, la_item_fn fn, void *ctx, const char *api) {
    const int64_t m = la_rows(a), n = la_cols(a);
    int64_t work;
    if (__builtin_mul_overflow(m, n * la_max1(la_min(m, n)), &work)) work = INT64_MAX;
    const int st = la_batches(l, la_batch_count(a, 2), work, fn, ctx, NULL);
    return st ? la_raise(st, api) : TC_OK;
}

/* ---- linalg_qr ---- */

static int qr_item(void *ctx, int64_t b, la_scratch *s) {
    const qr_job *j = ctx;
    const tc_view *a = j->in[0], *Q = j->out[0], *R = j->out[1];
    const int64_t m = la_rows(a), n = la_cols(a), k = la_min(m, n), ld = la_max1(m);
    const int64_t qcols = j->complete ? m : k, rrows = la_rows(R);
    void *tau;
    char *buf = qr_scratch(s, a->dtype, m, n > qcols ? n : qcols, k, &tau);
    if (!buf) return TC_LAPACK_NOMEM;
    la_gather(a, la_offset(a, 2, b), buf, ld, false);
    int st = geqrf(s, a->dtype, m, n, buf, ld, tau);
    if (st) return st;
    scatter_r(R, la_offset(R, 2, b), a->dtype, buf, ld, rrows, n);
    if (Q->ndim < 2) return 0; /* mode 'r' */
    if ((st = orgqr(s, a->dtype, m, qcols, k, buf, ld, tau))) return st;
    la_scatter(Q, la_offset(Q, 2, b), buf, ld, false); /* Q: buf's first qcols columns */
    return 0;
}

static int k_linalg_qr(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 2, "linalg_qr")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "linalg_qr_cpu", "linalg.qr");
    if (!l) return TC_FAIL;
    qr_job j = {{&args->inputs[0]}, {&args->outputs[0], &args->outputs[1]},
                strcmp(args->args[1].v.s, "complete") == 0};
    return run(l, j.in[0], qr_item, &j, "linalg.qr");
}

/* ---- geqrf ---- */

static int geqrf_item(void *ctx, int64_t b, la_scratch *s) {
    const qr_job *j = ctx;
    const tc_view *a = j->in[0], *out = j->out[0], *tau_v = j->out[1];
    const int64_t m = la_rows(a), n = la_cols(a), k = la_min(m, n), ld = la_max1(m);
    void *tau;
    char *buf = qr_scratch(s, a->dtype, m, n, k, &tau);
    if (!buf) return TC_LAPACK_NOMEM;
    la_gather(a, la_offset(a, 2, b), buf, ld, false);
    const int st = geqrf(s, a->dtype, m, n, buf, ld, tau);
    if (st) return st;
    la_scatter(out, la_offset(out, 2, b), buf, ld, false);
    la_scatter_vec(tau_v, la_offset(tau_v, 1, b), tau);
    return 0;
}

static int k_geqrf(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 2, "geqrf")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "geqrf_cpu", "torch.geqrf");
    if (!l) return TC_FAIL;
    qr_job j = {{&args->inputs[0]}, {&args->outputs[0], &args->outputs[1]}, false};
    return run(l, j.in[0], geqrf_item, &j, "torch.geqrf");
}

/* ---- householder_product ---- */

static int householder_item(void *ctx, int64_t b, la_scratch *s) {
    const qr_job *j = ctx;
    const tc_view *v = j->in[0], *tau_v = j->in[1], *out = j->out[0];
    const int64_t m = la_rows(v), n = la_cols(v), t = tau_v->sizes[tau_v->ndim - 1], ld = la_max1(m);
    void *tau;
    char *buf = qr_scratch(s, v->dtype, m, n, t, &tau);
    if (!buf) return TC_LAPACK_NOMEM;
    la_gather(v, la_offset(v, 2, b), buf, ld, false);
    la_gather_vec(tau_v, la_offset(tau_v, 1, b), tau);
    const int st = orgqr(s, v->dtype, m, n, t, buf, ld, tau);
    if (st) return st;
    la_scatter(out, la_offset(out, 2, b), buf, ld, false);
    return 0;
}

static int k_householder_product(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 1, "householder_product")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "orgqr_cpu", "torch.linalg.householder_product");
    if (!l) return TC_FAIL;
    qr_job j = {{&args->inputs[0], &args->inputs[1]}, {&args->outputs[0]}, false};
    return run(l, j.in[0], householder_item, &j, "torch.linalg.householder_product");
}

static const cpu_kernel_entry kernels[] = {
    {"linalg_qr", TC_ANY_DTYPE, k_linalg_qr},
    {"geqrf", TC_ANY_DTYPE, k_geqrf},
    {"householder_product", TC_ANY_DTYPE, k_householder_product},
};
CPU_KERNEL_TABLE(kernels);
