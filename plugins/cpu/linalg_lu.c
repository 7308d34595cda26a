/*
 * linalg_lu.c - kernels built on LU with partial pivoting (LAPACK getrf): lu_factor, linalg_lu,
 * lu_unpack, lu_solve, linalg_det, linalg_slogdet, linalg_inv_ex, linalg_solve_ex.
 *
 * LAPACK factors A = P L U with row interchanges ipiv (1-based: row i was swapped with row ipiv[i]);
 * PyTorch's pivots are these, as int32. A singular A still factors (a zero on U's diagonal, info > 0):
 * det is then 0, slogdet (0, -inf), and inv and solve give NaNs with the info, as PyTorch's do.
 * Every kernel also takes complex64/complex128, through the provider's complex members
 * (getrf_complex, ..., ABI 1.4): slogdet's sign is then complex (modulus 1) and logabsdet real, and
 * lu_solve's adjoint is the conjugate transpose.
 *
 * Contracts (docs/plugin-abi.md), batch dims first in every view:
 *   lu_factor       A[m,n] -> LU[m,n], pivots[k] int32, info[] int32        args: pivot
 *   linalg_lu       A[m,n] -> P[m,m], L[m,k], U[k,n]                         args: pivot
 *   lu_unpack       LU[m,n], pivots[k] -> P[m,m] or [0], L[m,k] and U[k,n] or [0]
 *   lu_solve        LU[n,n], pivots[n], B -> X (B's shape)                   args: left, adjoint
 *   linalg_det      A[n,n] -> det[], LU[n,n], pivots[n]
 *   linalg_slogdet  A[n,n] -> sign[], logabsdet[], LU[n,n], pivots[n]
 *   linalg_inv_ex   A[n,n] -> inverse[n,n], info[]
 *   linalg_solve_ex A[n,n] (its own batch), B[n,k] or [k,n] (the result's batch) -> X, LU[n,n] and
 *                   pivots[n] and info[] (A's batch)                          args: left
 */
#include <math.h>
#include <string.h>

#include "dtype.h"
#include "linalg.h"

/* ---- helpers ---- */

static int lapack_dtype_ok(int32_t dtype, const char *kernel) {
    return dtype == TC_FLOAT32 || dtype == TC_FLOAT64 ? TC_OK : la_dtype_error(kernel, dtype);
}

/* The provider's LAPACK for a kernel of dtype: NULL with the error raised when the dtype is not
 * float32, float64, complex64 or complex128, or complex and the provider lacks the complex LU routines
 * (ABI 1.4). */
static const tc_lapack *lapack_for(int32_t dtype, const char *kernel, const char *api) {
    if (!la_complex(dtype) && lapack_dtype_ok(dtype, kernel)) return NULL;
    const tc_lapack *l = la_lapack(api);
    if (l && la_complex(dtype) &&
        !(TC_STRUCT_HAS(l, tc_lapack, getri_complex) && l->getrf_complex && l->getrs_complex && l->getri_complex))
        return la_no_complex(api, "getrf_complex"), NULL;
    return l;
}

/* getrf, getrs and getri of the real or complex members, as dtype is. */
static int getrf(la_scratch *s, int32_t dt, int64_t m, int64_t n, void *a, int64_t lda, int64_t *ipiv) {
    return (la_complex(dt) ? s->lapack->getrf_complex : s->lapack->getrf)(dt, m, n, a, lda, ipiv, &s->ws);
}

static int getrs(la_scratch *s, int32_t dt, char trans, int64_t n, int64_t nrhs, const void *a, int64_t lda,
                 const int64_t *ipiv, void *b, int64_t ldb) {
    return (la_complex(dt) ? s->lapack->getrs_complex : s->lapack->getrs)(dt, trans, n, nrhs, a, lda, ipiv, b, ldb,
                                                                          &s->ws);
}

static int getri(la_scratch *s, int32_t dt, int64_t n, void *a, int64_t lda, const int64_t *ipiv) {
    return (la_complex(dt) ? s->lapack->getri_complex : s->lapack->getri)(dt, n, a, lda, ipiv, &s->ws);
}

/* Element (i, j) of a column-major scratch matrix, as double. */
static double at(int32_t dtype, const void *m, int64_t ld, int64_t i, int64_t j) {
    return dtype == TC_FLOAT64 ? ((const double *)m)[i + j * ld] : (double)((const float *)m)[i + j * ld];
}

/* Writes the real x at element offset off of v (a complex element gets a zero imaginary part). */
static void put(const tc_view *v, int64_t off, double x) {
    if (v->dtype == TC_FLOAT64)
        ((double *)v->data)[off] = x;
    else if (v->dtype == TC_FLOAT32)
        ((float *)v->data)[off] = (float)x;
    else if (v->dtype == TC_COMPLEX128)
        ((double *)v->data)[2 * off] = x, ((double *)v->data)[2 * off + 1] = 0;
    else
        ((float *)v->data)[2 * off] = (float)x, ((float *)v->data)[2 * off + 1] = 0;
}

/* Copies element (i, j) of a column-major scratch matrix of v's dtype to element offset off of v. */
static void put_from(const tc_view *v, int64_t off, const void *m, int64_t ld, int64_t i, int64_t j) {
    const size_t es = la_es(v->dtype);
    memcpy((char *)v->data + (size_t)off * es, (const char *)m + (size_t)(i + j * ld) * es, es);
}

static void put_i32(const tc_view *v, int64_t off, int64_t x) { ((int32_t *)v->data)[off] = (int32_t)x; }

static int64_t read_i32(const tc_view *v, int64_t off) { return ((const int32_t *)v->data)[off]; }

/* The matrix's scratch (ld = max(1, rows)), room for pivots and a permutation (2 rows + 2 int64),
 * and `extra` more elements of the dtype. */
typedef struct lu_buf {
    void *a;
    int64_t *ipiv;
    void *extra;
    int64_t ld;
} lu_buf;

static int lu_scratch(la_scratch *s, int32_t dtype, int64_t rows, int64_t cols, int64_t extra, lu_buf *out) {
    const size_t es = la_es(dtype);
    out->ld = la_max1(rows);
    int64_t elems;
    if (__builtin_mul_overflow(out->ld, cols, &elems)) return TC_LAPACK_TOO_LARGE;
    /* three regions, each padded to 64 bytes by la_bytes: the matrix, the pivots, the extra */
    const size_t a_bytes = la_bytes(es, elems, 0, 0), p_bytes = la_bytes(8, 2 * rows + 2, 0, 0);
    const size_t total = la_bytes(1, (int64_t)a_bytes, (int64_t)p_bytes, (int64_t)la_bytes(es, extra, 0, 0));
    if (a_bytes == SIZE_MAX || p_bytes == SIZE_MAX) return TC_LAPACK_TOO_LARGE;
    char *p = la_scratch_get(s, total);
    if (!p) return total == SIZE_MAX ? TC_LAPACK_TOO_LARGE : TC_LAPACK_NOMEM;
    out->a = p;
    out->ipiv = (int64_t *)(void *)(p + a_bytes);
    out->extra = p + a_bytes + p_bytes;
    return 0;
}

/* Gathers matrix b of A into scratch and factors it: getrf's status. */
static int factor(la_scratch *s, const tc_view *a, int64_t off, lu_buf *buf) {
    const int64_t m = la_rows(a), n = la_cols(a);
    int st = lu_scratch(s, a->dtype, m, n, 0, buf);
    if (st) return st;
    la_gather(a, off, buf->a, buf->ld, false);
    return getrf(s, a->dtype, m, n, buf->a, buf->ld, buf->ipiv);
}

static void write_pivots(const tc_view *piv, int64_t off, const int64_t *ipiv) {
    const int64_t k = piv->sizes[piv->ndim - 1], st = piv->strides[piv->ndim - 1];
    for (int64_t i = 0; i < k; i++) put_i32(piv, off + i * st, ipiv[i]);
}

/* The permutation LAPACK's interchanges make: row i of L U is row perm[i] of A. */
static void permutation(const int64_t *ipiv, int64_t k, int64_t m, int64_t *perm) {
    for (int64_t i = 0; i < m; i++) perm[i] = i;
    for (int64_t i = 0; i < k; i++) {
        const int64_t j = ipiv[i] - 1, t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
}

/* Writes P (A = P L U: P[perm[i], i] = 1), L (unit lower, m x k) and U (upper, k x n) from the factors
 * (each skipped when its view is NULL). */
static void unpack(const tc_view *P, const tc_view *L, const tc_view *U, int64_t b, const void *lu, int64_t ld,
                   int64_t m, int64_t n, const int64_t *perm) {
    const int64_t k = la_min(m, n);
    if (P) {
        const int64_t off = la_offset(P, 2, b), s0 = P->strides[P->ndim - 2], s1 = P->strides[P->ndim - 1];
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < m; j++) put(P, off + i * s0 + j * s1, perm[j] == i ? 1.0 : 0.0);
    }
    if (L) {
        const int64_t off = la_offset(L, 2, b), s0 = L->strides[L->ndim - 2], s1 = L->strides[L->ndim - 1];
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < k; j++) {
                if (i > j)
                    put_from(L, off + i * s0 + j * s1, lu, ld, i, j);
                else
                    put(L, off + i * s0 + j * s1, i == j ? 1.0 : 0.0);
            }
    }
    if (U) {
        const int64_t off = la_offset(U, 2, b), s0 = U->strides[U->ndim - 2], s1 = U->strides[U->ndim - 1];
        for (int64_t i = 0; i < k; i++)
            for (int64_t j = 0; j < n; j++) {
                if (i <= j)
                    put_from(U, off + i * s0 + j * s1, lu, ld, i, j);
                else
                    put(U, off + i * s0 + j * s1, 0.0);
            }
    }
}

/* Runs the items and raises what failed; `api` names the op in messages. */
static int run(const tc_lapack *l, int64_t count, int64_t n, la_item_fn fn, void *ctx, const char *api) {
    int64_t work;
    if (__builtin_mul_overflow(n, n * n, &work)) work = INT64_MAX;
    const int st = la_batches(l, count, work, fn, ctx, NULL);
    return st < 0 ? la_raise(st, api) : TC_OK;
}

/* ---- lu_factor ---- */

typedef struct lu_job {
    const tc_view *in[3];
    const tc_view *out[4];
    bool left, adjoint;
} lu_job;

static int lu_factor_item(void *ctx, int64_t b, la_scratch *s) {
    const lu_job *j = ctx;
    lu_buf buf;
    const int st = factor(s, j->in[0], la_offset(j->in[0], 2, b), &buf);
    if (st < 0) return st;
    la_scatter(j->out[0], la_offset(j->out[0], 2, b), buf.a, buf.ld, false);
    write_pivots(j->out[1], la_offset(j->out[1], 1, b), buf.ipiv);
    put_i32(j->out[2], la_offset(j->out[2], 0, b), st);
    return 0;
}

static int pivot_required(const tc_kernel_args *args) {
    if (args->n_args > 1 && args->args[1].tag == TC_VALUE_BOOL && !args->args[1].v.b)
        return cpu_core->set_error(TC_ERR_RUNTIME, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
    return TC_OK;
}

static int k_lu_factor(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 3, "lu_factor") || pivot_required(args)) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "lu_cpu", "linalg.lu_factor");
    if (!l) return TC_FAIL;
    lu_job j = {{&args->inputs[0]}, {&args->outputs[0], &args->outputs[1], &args->outputs[2]}, false, false};
    return run(l, la_batch_count(j.in[0], 2), la_cols(j.in[0]), lu_factor_item, &j, "linalg.lu_factor");
}

/* ---- linalg_lu ---- */

static int lu_item(void *ctx, int64_t b, la_scratch *s) {
    const lu_job *j = ctx;
    const tc_view *a = j->in[0];
    const int64_t m = la_rows(a), n = la_cols(a);
    lu_buf buf;
    const int st = factor(s, a, la_offset(a, 2, b), &buf);
    if (st < 0) return st;
    int64_t *perm = buf.ipiv + la_min(m, n);
    permutation(buf.ipiv, la_min(m, n), m, perm);
    unpack(j->out[0], j->out[1], j->out[2], b, buf.a, buf.ld, m, n, perm);
    return 0;
}

static int k_linalg_lu(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 3, "linalg_lu") || pivot_required(args)) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "lu_cpu", "linalg.lu");
    if (!l) return TC_FAIL;
    lu_job j = {{&args->inputs[0]}, {&args->outputs[0], &args->outputs[1], &args->outputs[2]}, false, false};
    return run(l, la_batch_count(j.in[0], 2), la_cols(j.in[0]), lu_item, &j, "linalg.lu");
}

/* ---- lu_unpack: no LAPACK, the factors are read from the view ---- */

static int k_lu_unpack(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 3, "lu_unpack")) return TC_FAIL;
    if (!la_complex(args->inputs[0].dtype) && lapack_dtype_ok(args->inputs[0].dtype, "lu_unpack")) return TC_FAIL;
    const tc_view *lu = &args->inputs[0], *piv = &args->inputs[1];
    const tc_view *P = args->outputs[0].ndim >= 2 ? &args->outputs[0] : NULL;
    const tc_view *L = args->outputs[1].ndim >= 2 ? &args->outputs[1] : NULL;
    const tc_view *U = args->outputs[2].ndim >= 2 ? &args->outputs[2] : NULL;
    const int64_t m = la_rows(lu), n = la_cols(lu), k = la_min(m, n), count = la_batch_count(lu, 2);
    la_scratch s = {0};
    lu_buf buf;
    int rc = TC_OK;
    if (lu_scratch(&s, lu->dtype, m, n, 0, &buf)) {
        rc = la_raise(TC_LAPACK_NOMEM, "torch.lu_unpack");
        goto done;
    }
    int64_t *perm = buf.ipiv + k;
    for (int64_t b = 0; b < count; b++) {
        la_gather(lu, la_offset(lu, 2, b), buf.a, buf.ld, false);
        if (P) {
            const int64_t off = la_offset(piv, 1, b), st = piv->strides[piv->ndim - 1];
            for (int64_t i = 0; i < k; i++) {
                buf.ipiv[i] = read_i32(piv, off + i * st);
                if (buf.ipiv[i] < 1 || buf.ipiv[i] > m) {
                    rc = cpu_core->set_error(TC_ERR_RUNTIME, "pivots passed to lu_unpack must be between 1 and "
                                                             "LU.size(-2) inclusive.Did you properly pass the result of "
                                                             "lu_factor?");
                    goto done;
                }
            }
            permutation(buf.ipiv, k, m, perm);
        }
        unpack(P, L, U, b, buf.a, buf.ld, m, n, perm);
    }
done:
    if (s.buf) cpu_core->host_free(s.buf, s.bytes);
    return rc;
}

/* ---- solves ---- */

/* The transpose getrs solves with: A X = B is 'N', the adjoint's A^T X = B 'T' (A^H X = B: 'C' for
 * complex matrices); X A = B is solved transposed (A^T X^T = B^T: 'T'), and so is X A^H = B (A X^T =
 * B^T for real matrices: 'N'; for complex ones A X^H = B^H, 'N' between conjugations of the right-hand
 * side: solve_with's conj_rhs). */
static char solve_trans(bool left, bool adjoint, bool complex) {
    if (left != adjoint) return 'N';
    return left && complex ? 'C' : 'T';
}

/* Solves with the factors in buf for right-hand side view B at offb into X at offx. */
static int solve_with(la_scratch *s, const lu_buf *buf, int64_t n, const int64_t *ipiv, const tc_view *B, int64_t offb,
                      const tc_view *X, int64_t offx, bool left, bool adjoint, void *rhs) {
    const int64_t nrhs = left ? la_cols(B) : la_rows(B), ld = la_max1(n);
    const bool complex = la_complex(B->dtype), conj_rhs = complex && !left && adjoint;
    la_gather(B, offb, rhs, ld, !left);
    if (conj_rhs) la_conj(B->dtype, rhs, n, nrhs, ld);
    const int st = getrs(s, B->dtype, solve_trans(left, adjoint, complex), n, nrhs, buf->a, buf->ld, ipiv, rhs, ld);
    if (st) return st;
    if (conj_rhs) la_conj(B->dtype, rhs, n, nrhs, ld);
    la_scatter(X, offx, rhs, ld, !left);
    return 0;
}

/* Scratch for a factored n x n matrix followed by an n x nrhs right-hand side. */
static int solve_scratch(la_scratch *s, int32_t dtype, int64_t n, int64_t nrhs, lu_buf *buf, void **rhs) {
    int64_t rhs_elems;
    if (__builtin_mul_overflow(la_max1(n), nrhs, &rhs_elems)) return TC_LAPACK_TOO_LARGE;
    int st = lu_scratch(s, dtype, n, n, rhs_elems, buf);
    if (st) return st;
    *rhs = buf->extra;
    return 0;
}

static int lu_solve_item(void *ctx, int64_t b, la_scratch *s) {
    const lu_job *j = ctx;
    const tc_view *lu = j->in[0], *piv = j->in[1], *B = j->in[2], *X = j->out[0];
    const int64_t n = la_rows(lu), nrhs = j->left ? la_cols(B) : la_rows(B);
    lu_buf buf;
    void *rhs;
    int st = solve_scratch(s, lu->dtype, n, nrhs, &buf, &rhs);
    if (st) return st;
    la_gather(lu, la_offset(lu, 2, b), buf.a, buf.ld, false);
    const int64_t off = la_offset(piv, 1, b), stride = piv->strides[piv->ndim - 1];
    for (int64_t i = 0; i < n; i++) {
        buf.ipiv[i] = read_i32(piv, off + i * stride);
        if (buf.ipiv[i] < 1 || buf.ipiv[i] > n) return LA_BAD_PIVOTS;
    }
    return solve_with(s, &buf, n, buf.ipiv, B, la_offset(B, 2, b), X, la_offset(X, 2, b), j->left, j->adjoint, rhs);
}

static int k_lu_solve(const tc_kernel_args *args) {
    if (cpu_check_args(args, 3, 1, "lu_solve")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "lu_solve", "linalg.lu_solve");
    if (!l) return TC_FAIL;
    lu_job j = {{&args->inputs[0], &args->inputs[1], &args->inputs[2]}, {&args->outputs[0]},
                args->args[3].v.b, args->args[4].v.b};
    return run(l, la_batch_count(j.out[0], 2), la_rows(j.in[0]), lu_solve_item, &j, "linalg.lu_solve");
}

/* ---- det, slogdet ---- */

/* The determinant's sign and log magnitude from the factors: a zero pivot gives (0, -inf). */
static void det_parts(int32_t dtype, const lu_buf *buf, int64_t n, double *sign, double *logabs, double *det) {
    double sg = 1, la = 0, d = 1;
    for (int64_t i = 0; i < n; i++) {
        const double u = at(dtype, buf->a, buf->ld, i, i);
        if (buf->ipiv[i] != i + 1) sg = -sg, d = -d;
        if (u < 0) sg = -sg;
        if (u == 0) sg = 0;
        la += log(fabs(u));
        d *= u;
    }
    *sign = sg, *logabs = la, *det = d;
}

/* The same for complex factors, in PyTorch's order of operations (so that signed zeros agree): the
 * products of U's diagonal and of its sgn (u / |u|, 0 for 0) from 1, each then times the interchanges'
 * sign as a complex number; the sign has modulus 1 (0 for a zero pivot). */
static void cmul(double z[2], double re, double im) {
    const double t = z[0] * re - z[1] * im;
    z[1] = z[0] * im + z[1] * re, z[0] = t;
}

static void det_parts_complex(int32_t dtype, const lu_buf *buf, int64_t n, double sign[2], double *logabs,
                              double det[2]) {
    double flip = 1, la = 0;
    sign[0] = det[0] = 1, sign[1] = det[1] = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t k = 2 * (i + i * buf->ld);
        const double ur = dtype == TC_COMPLEX128 ? ((const double *)buf->a)[k] : ((const float *)buf->a)[k];
        const double ui = dtype == TC_COMPLEX128 ? ((const double *)buf->a)[k + 1] : ((const float *)buf->a)[k + 1];
        const double m = hypot(ur, ui);
        if (buf->ipiv[i] != i + 1) flip = -flip;
        cmul(det, ur, ui);
        cmul(sign, m == 0 ? 0 : ur / m, m == 0 ? 0 : ui / m);
        la += log(m);
    }
    cmul(det, flip, 0), cmul(sign, flip, 0);
    *logabs = la;
}

static void put_complex(const tc_view *v, int64_t off, const double z[2]) {
    if (v->dtype == TC_COMPLEX128) {
        ((double *)v->data)[2 * off] = z[0], ((double *)v->data)[2 * off + 1] = z[1];
    } else {
        ((float *)v->data)[2 * off] = (float)z[0], ((float *)v->data)[2 * off + 1] = (float)z[1];
    }
}

static int det_item(void *ctx, int64_t b, la_scratch *s) {
    const lu_job *j = ctx;
    const tc_view *a = j->in[0];
    const int64_t n = la_rows(a);
    const bool slog = j->out[3] != NULL;
    const tc_view *lu = j->out[slog ? 2 : 1], *piv = j->out[slog ? 3 : 2];
    lu_buf buf;
    const int st = factor(s, a, la_offset(a, 2, b), &buf);
    if (st < 0) return st;
    double sign, logabs, det;
    if (la_complex(a->dtype)) {
        double csign[2], cdet[2];
        det_parts_complex(a->dtype, &buf, n, csign, &logabs, cdet);
        if (slog) put(j->out[1], la_offset(j->out[1], 0, b), csign[0] == 0 && csign[1] == 0 ? -INFINITY : logabs);
        put_complex(j->out[0], la_offset(j->out[0], 0, b), slog ? csign : cdet);
    } else if (det_parts(a->dtype, &buf, n, &sign, &logabs, &det), slog) {
        put(j->out[0], la_offset(j->out[0], 0, b), sign);
        put(j->out[1], la_offset(j->out[1], 0, b), sign == 0 ? -INFINITY : logabs);
    } else {
        put(j->out[0], la_offset(j->out[0], 0, b), det);
    }
    la_scatter(lu, la_offset(lu, 2, b), buf.a, buf.ld, false);
    write_pivots(piv, la_offset(piv, 1, b), buf.ipiv);
    return 0;
}

static int det_kernel(const tc_kernel_args *args, bool slog) {
    if (cpu_check_args(args, 1, slog ? 4 : 3, "det")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "lu_cpu", slog ? "linalg.slogdet" : "linalg.det");
    if (!l) return TC_FAIL;
    lu_job j = {{&args->inputs[0]}, {&args->outputs[0], &args->outputs[1], &args->outputs[2],
                                     slog ? &args->outputs[3] : NULL}, false, false};
    return run(l, la_batch_count(j.in[0], 2), la_rows(j.in[0]), det_item, &j, slog ? "linalg.slogdet" : "linalg.det");
}

static int k_linalg_det(const tc_kernel_args *args) { return det_kernel(args, false); }
static int k_linalg_slogdet(const tc_kernel_args *args) { return det_kernel(args, true); }

/* ---- inv ---- */

static int inv_item(void *ctx, int64_t b, la_scratch *s) {
    const lu_job *j = ctx;
    const tc_view *a = j->in[0], *inv = j->out[0];
    const int64_t n = la_rows(a);
    lu_buf buf;
    int st = factor(s, a, la_offset(a, 2, b), &buf);
    if (st < 0) return st;
    put_i32(j->out[1], la_offset(j->out[1], 0, b), st);
    if (st > 0) {
        la_fill(inv, la_offset(inv, 2, b), NAN);
        return 0;
    }
    if ((st = getri(s, a->dtype, n, buf.a, buf.ld, buf.ipiv)) < 0) return st;
    la_scatter(inv, la_offset(inv, 2, b), buf.a, buf.ld, false);
    return 0;
}

static int k_linalg_inv_ex(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 2, "linalg_inv_ex")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "linalg_inv_out_cpu", "linalg.inv");
    if (!l) return TC_FAIL;
    lu_job j = {{&args->inputs[0]}, {&args->outputs[0], &args->outputs[1]}, false, false};
    return run(l, la_batch_count(j.in[0], 2), la_rows(j.in[0]), inv_item, &j, "linalg.inv");
}

/* ---- solve: factor each A, then solve each right-hand side with its A's factors ---- */

static int solve_factor_item(void *ctx, int64_t b, la_scratch *s) {
    const lu_job *j = ctx;
    lu_buf buf;
    const int st = factor(s, j->in[0], la_offset(j->in[0], 2, b), &buf);
    if (st < 0) return st;
    la_scatter(j->out[1], la_offset(j->out[1], 2, b), buf.a, buf.ld, false);
    write_pivots(j->out[2], la_offset(j->out[2], 1, b), buf.ipiv);
    put_i32(j->out[3], la_offset(j->out[3], 0, b), st);
    return 0;
}

static int solve_rhs_item(void *ctx, int64_t b, la_scratch *s) {
    const lu_job *j = ctx;
    const tc_view *B = j->in[1], *X = j->out[0], *lu = j->out[1], *piv = j->out[2], *info = j->out[3];
    const int64_t n = la_rows(lu), nrhs = j->left ? la_cols(B) : la_rows(B);
    if (read_i32(info, la_offset_bcast(info, 0, X, 2, b)) != 0) {
        la_fill(X, la_offset(X, 2, b), NAN);
        return 0;
    }
    lu_buf buf;
    void *rhs;
    const int st = solve_scratch(s, lu->dtype, n, nrhs, &buf, &rhs);
    if (st) return st;
    la_gather(lu, la_offset_bcast(lu, 2, X, 2, b), buf.a, buf.ld, false);
    const int64_t off = la_offset_bcast(piv, 1, X, 2, b), stride = piv->strides[piv->ndim - 1];
    for (int64_t i = 0; i < n; i++) buf.ipiv[i] = read_i32(piv, off + i * stride);
    return solve_with(s, &buf, n, buf.ipiv, B, la_offset(B, 2, b), X, la_offset(X, 2, b), j->left, false, rhs);
}

static int k_linalg_solve_ex(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 4, "linalg_solve_ex")) return TC_FAIL;
    const tc_lapack *l = lapack_for(args->inputs[0].dtype, "linalg_solve", "linalg.solve");
    if (!l) return TC_FAIL;
    lu_job j = {{&args->inputs[0], &args->inputs[1]},
                {&args->outputs[0], &args->outputs[1], &args->outputs[2], &args->outputs[3]}, args->args[2].v.b, false};
    const int64_t n = la_rows(j.in[0]);
    if (run(l, la_batch_count(j.in[0], 2), n, solve_factor_item, &j, "linalg.solve")) return TC_FAIL;
    return run(l, la_batch_count(j.out[0], 2), n, solve_rhs_item, &j, "linalg.solve");
}

static const cpu_kernel_entry kernels[] = {
    {"lu_factor", TC_ANY_DTYPE, k_lu_factor},         {"linalg_lu", TC_ANY_DTYPE, k_linalg_lu},
    {"lu_unpack", TC_ANY_DTYPE, k_lu_unpack},         {"lu_solve", TC_ANY_DTYPE, k_lu_solve},
    {"linalg_det", TC_ANY_DTYPE, k_linalg_det},       {"linalg_slogdet", TC_ANY_DTYPE, k_linalg_slogdet},
    {"linalg_inv_ex", TC_ANY_DTYPE, k_linalg_inv_ex}, {"linalg_solve_ex", TC_ANY_DTYPE, k_linalg_solve_ex},
};
CPU_KERNEL_TABLE(kernels);
