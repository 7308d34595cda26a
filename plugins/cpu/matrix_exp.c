/*
 * matrix_exp.c - the matrix exponential: scaling and squaring with the [13/13] Padé approximant
 * (Higham, "The scaling and squaring method for the matrix exponential revisited", 2005), in double
 * whatever the dtype (float32 and bfloat16 results are rounded once at the end).
 *
 * exp(A) = exp(A / 2^s)^(2^s), where s makes ||A / 2^s||_1 <= theta_13; the approximant is
 * (V - U)^-1 (V + U) with U odd and V even in A, solved by LU (the provider's getrf/getrs).
 * Products of n x n matrices go to the provider's dgemm, or a loop when there is no provider.
 *
 * Contract (docs/plugin-abi.md): matrix_exp  A[n,n] -> exp(A)[n,n], batch dims first. A matrix
 * with a NaN or an infinity gives NaNs.
 */
#include <math.h>
#include <string.h>

#include "dtype.h"
#include "linalg.h"

static const double pade13[14] = {64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
                                  1187353796428800.0,  129060195264000.0,   10559470521600.0,
                                  670442572800.0,      33522128640.0,       1323241920.0,
                                  40840800.0,          960960.0,            16380.0,
                                  182.0,               1.0};
static const double theta13 = 5.371920351148152;

/* c = a @ b, all n x n column-major. The provider's dgemm is row-major: on column-major data it
 * computes the transposed product, so the operands are swapped. */
static void product(int64_t n, const double *a, const double *b, double *c) {
    const tc_blas_provider *bp = cpu_core->blas_current ? cpu_core->blas_current() : NULL;
    if (bp && bp->dgemm && n >= 16) {
        bp->dgemm(0, 0, n, n, n, 1.0, b, n, a, n, 0.0, c, n);
        return;
    }
    memset(c, 0, sizeof(double) * (size_t)(n * n));
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = 0; p < n; p++) {
            const double x = b[p + j * n];
            for (int64_t i = 0; i < n; i++) c[i + j * n] += a[i + p * n] * x;
        }
}

/* out = sum_i w[i] * m[i] (+ w0 * I when w0 != 0) */
static void combine(int64_t n, double *out, int count, const double *const *m, const double *w, double w0) {
    const int64_t nn = n * n;
    for (int64_t e = 0; e < nn; e++) {
        double v = 0;
        for (int i = 0; i < count; i++) v += w[i] * m[i][e];
        out[e] = v;
    }
    for (int64_t i = 0; i < n; i++) out[i + i * n] += w0;
}

static int item(void *ctx, int64_t b, la_scratch *s) {
    const tc_view *const *v = ctx;
    const tc_view *in = v[0], *out = v[1];
    const int64_t n = la_rows(in), nn = n * n;
    double *buf = la_scratch_get(s, la_bytes(sizeof(double), 10 * nn, n, 0));
    if (!buf) return TC_LAPACK_NOMEM;
    double *A = buf, *A2 = A + nn, *A4 = A2 + nn, *A6 = A4 + nn, *U = A6 + nn, *V = U + nn, *T = V + nn, *W = T + nn;
    int64_t *ipiv = (int64_t *)(void *)(W + 2 * nn);
    /* A in double */
    const int64_t off = la_offset(in, 2, b), s0 = in->strides[in->ndim - 2], s1 = in->strides[in->ndim - 1];
    double norm = 0;
    for (int64_t j = 0; j < n; j++) {
        double col = 0;
        for (int64_t i = 0; i < n; i++) {
            const int64_t o = off + i * s0 + j * s1;
            const double x = in->dtype == TC_FLOAT64 ? ((const double *)in->data)[o]
                             : in->dtype == TC_FLOAT32 ? (double)((const float *)in->data)[o]
                                                       : (double)cpu_bf16_to_f32(((const uint16_t *)in->data)[o]);
            A[i + j * n] = x;
            col += fabs(x);
        }
        norm = col > norm || col != col ? col : norm;
    }
    if (!isfinite(norm)) {
        for (int64_t e = 0; e < nn; e++) T[e] = NAN;
    } else {
        int sq = 0;
        if (norm > theta13) sq = (int)ceil(log2(norm / theta13));
        if (sq > 0) {
            const double scale = ldexp(1.0, -sq);
            for (int64_t e = 0; e < nn; e++) A[e] *= scale;
        }
        product(n, A, A, A2);
        product(n, A2, A2, A4);
        product(n, A4, A2, A6);
        const double *c = pade13;
        /* U = A (A6 (c13 A6 + c11 A4 + c9 A2) + c7 A6 + c5 A4 + c3 A2 + c1 I) */
        combine(n, T, 3, (const double *[]){A6, A4, A2}, (double[]){c[13], c[11], c[9]}, 0);
        product(n, A6, T, W);
        combine(n, T, 4, (const double *[]){W, A6, A4, A2}, (double[]){1, c[7], c[5], c[3]}, c[1]);
        product(n, A, T, U);
        /* V = A6 (c12 A6 + c10 A4 + c8 A2) + c6 A6 + c4 A4 + c2 A2 + c0 I */
        combine(n, T, 3, (const double *[]){A6, A4, A2}, (double[]){c[12], c[10], c[8]}, 0);
        product(n, A6, T, W);
        combine(n, V, 4, (const double *[]){W, A6, A4, A2}, (double[]){1, c[6], c[4], c[2]}, c[0]);
        /* (V - U) X = (V + U) */
        for (int64_t e = 0; e < nn; e++) {
            const double u = U[e], w = V[e];
            W[e] = w - u;
            T[e] = w + u;
        }
        int st = s->lapack->getrf(TC_FLOAT64, n, n, W, n, ipiv, &s->ws);
        if (st < 0) return st;
        if (st > 0) /* V - U singular: only for inputs whose exponential overflows anyway */
            for (int64_t e = 0; e < nn; e++) T[e] = NAN;
        else if ((st = s->lapack->getrs(TC_FLOAT64, 'N', n, n, W, n, ipiv, T, n, &s->ws)) < 0)
            return st;
        for (int i = 0; i < sq; i++) {
            product(n, T, T, W);
            memcpy(T, W, sizeof(double) * (size_t)nn);
        }
    }
    const int64_t oo = la_offset(out, 2, b), t0 = out->strides[out->ndim - 2], t1 = out->strides[out->ndim - 1];
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            const int64_t o = oo + i * t0 + j * t1;
            const double x = T[i + j * n];
            if (out->dtype == TC_FLOAT64)
                ((double *)out->data)[o] = x;
            else if (out->dtype == TC_FLOAT32)
                ((float *)out->data)[o] = (float)x;
            else
                ((uint16_t *)out->data)[o] = cpu_f32_to_bf16((float)x);
        }
    return 0;
}

static int k_matrix_exp(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 1, "matrix_exp")) return TC_FAIL;
    const int32_t dt = args->inputs[0].dtype;
    if (dt != TC_FLOAT32 && dt != TC_FLOAT64 && dt != TC_BFLOAT16) return la_dtype_error("linalg_matrix_exp", dt);
    const tc_lapack *l = la_lapack("linalg.matrix_exp");
    if (!l) return TC_FAIL;
    const tc_view *v[2] = {&args->inputs[0], &args->outputs[0]};
    const int64_t n = la_rows(v[0]);
    int64_t work;
    if (__builtin_mul_overflow(n, n * n * 12, &work)) work = INT64_MAX;
    if (n > 0 && (uint64_t)n > (uint64_t)INT64_MAX / 16 / (uint64_t)n) return la_raise(TC_LAPACK_TOO_LARGE, "linalg.matrix_exp");
    const int st = la_batches(l, la_batch_count(v[0], 2), work, item, (void *)v, NULL);
    return st ? la_raise(st, "linalg.matrix_exp") : TC_OK;
}

static const cpu_kernel_entry kernels[] = {{"matrix_exp", TC_ANY_DTYPE, k_matrix_exp}};
CPU_KERNEL_TABLE(kernels);
