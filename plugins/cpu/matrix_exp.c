/*
 * matrix_exp.c - the matrix exponential: scaling and squaring with the [13/13] Padé approximant
 * (Higham, "The scaling and squaring method for the matrix exponential revisited", 2005), in double
 * whatever the dtype: complex double for complex64 and complex128 (float32, bfloat16 and complex64
 * results are rounded once at the end).
 *
 * exp(A) = exp(A / 2^s)^(2^s), where s makes ||A / 2^s||_1 <= theta_13 (the 1-norm of a complex
 * matrix sums the elements' absolute values); the approximant is (V - U)^-1 (V + U) with U odd and V
 * even in A, solved by LU (the provider's getrf/getrs, or getrf_complex/getrs_complex of ABI 1.4).
 * Products of n x n matrices go to the provider's dgemm or zgemm, or a loop when the provider has
 * none or the matrix is small.
 *
 * A complex matrix is held as interleaved (real, imaginary) pairs, column-major, as LAPACK takes it.
 * The Padé coefficients, the scaling and the identity are real, so every step but the products, the
 * norm and the solve runs over a complex matrix as over a real one of twice the elements.
 *
 * Contract (docs/plugin-abi.md): matrix_exp  A[n,n] -> exp(A)[n,n], batch dims first. A matrix
 * with a NaN or an infinity gives NaNs (both parts of complex elements).
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

/* c = a @ b, all n x n column-major, real (w 1) or complex pairs (w 2). The provider's GEMMs are
 * row-major: on column-major data they compute the transposed product, so the operands are swapped
 * (plain transposes: no conjugation is involved). */
static void product(int64_t n, int w, const double *a, const double *b, double *c) {
    const tc_blas_provider *bp = cpu_core->blas_current ? cpu_core->blas_current() : NULL;
    if (bp && n >= 16) {
        if (w == 1 && bp->dgemm) {
            bp->dgemm(0, 0, n, n, n, 1.0, b, n, a, n, 0.0, c, n);
            return;
        }
        if (w == 2 && TC_BLAS_HAS(bp, zgemm)) {
            static const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
            bp->zgemm(0, 0, n, n, n, one, b, n, a, n, zero, c, n);
            return;
        }
    }
    memset(c, 0, sizeof(double) * (size_t)(w * n * n));
    if (w == 1) {
        for (int64_t j = 0; j < n; j++)
            for (int64_t p = 0; p < n; p++) {
                const double x = b[p + j * n];
                for (int64_t i = 0; i < n; i++) c[i + j * n] += a[i + p * n] * x;
            }
        return;
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = 0; p < n; p++) {
            const double xr = b[2 * (p + j * n)], xi = b[2 * (p + j * n) + 1];
            const double *ap = a + 2 * p * n;
            double *cj = c + 2 * j * n;
            for (int64_t i = 0; i < n; i++) {
                const double ar = ap[2 * i], ai = ap[2 * i + 1];
                cj[2 * i] += ar * xr - ai * xi;
                cj[2 * i + 1] += ar * xi + ai * xr;
            }
        }
}

/* out = sum_i wt[i] * m[i] (+ w0 * I when w0 != 0), n x n matrices of w doubles an element: real
 * weights act on both parts alike, the identity on the real parts of the diagonal. */
static void combine(int64_t n, int w, double *out, int count, const double *const *m, const double *wt, double w0) {
    const int64_t len = w * n * n;
    for (int64_t e = 0; e < len; e++) {
        double v = 0;
        for (int i = 0; i < count; i++) v += wt[i] * m[i][e];
        out[e] = v;
    }
    for (int64_t i = 0; i < n; i++) out[w * (i + i * n)] += w0;
}

/* Element o of v as a (real, imaginary) pair in double (imaginary 0 for real dtypes). */
static void load(const tc_view *v, int64_t o, double *re, double *im) {
    switch (v->dtype) {
    case TC_FLOAT64: *re = ((const double *)v->data)[o], *im = 0; break;
    case TC_FLOAT32: *re = (double)((const float *)v->data)[o], *im = 0; break;
    case TC_BFLOAT16: *re = (double)cpu_bf16_to_f32(((const uint16_t *)v->data)[o]), *im = 0; break;
    case TC_COMPLEX128: *re = ((const double *)v->data)[2 * o], *im = ((const double *)v->data)[2 * o + 1]; break;
    default: *re = (double)((const float *)v->data)[2 * o], *im = (double)((const float *)v->data)[2 * o + 1]; break;
    }
}

/* Writes x (w doubles: real, or a complex pair) at element o of v, rounded once to v's dtype. */
static void store(const tc_view *v, int64_t o, const double *x) {
    switch (v->dtype) {
    case TC_FLOAT64: ((double *)v->data)[o] = x[0]; break;
    case TC_FLOAT32: ((float *)v->data)[o] = (float)x[0]; break;
    case TC_BFLOAT16: ((uint16_t *)v->data)[o] = cpu_f32_to_bf16((float)x[0]); break;
    case TC_COMPLEX128: ((double *)v->data)[2 * o] = x[0], ((double *)v->data)[2 * o + 1] = x[1]; break;
    default: ((float *)v->data)[2 * o] = (float)x[0], ((float *)v->data)[2 * o + 1] = (float)x[1]; break;
    }
}

/* Doubles of one item's scratch: 8 matrices of w n^2 doubles, then n pivots (8 bytes each). The
 * kernel has checked that this fits. */
static int64_t scratch_doubles(int64_t n, int w) { return 8 * w * n * n + n; }

static int item(void *ctx, int64_t b, la_scratch *s) {
    const tc_view *const *v = ctx;
    const tc_view *in = v[0], *out = v[1];
    const int w = la_complex(in->dtype) ? 2 : 1;
    const int64_t n = la_rows(in), m = w * n * n; /* m: doubles of a matrix */
    double *buf = la_scratch_get(s, la_bytes(sizeof(double), scratch_doubles(n, w), 0, 0));
    if (!buf) return TC_LAPACK_NOMEM;
    double *A = buf, *A2 = A + m, *A4 = A2 + m, *A6 = A4 + m, *U = A6 + m, *V = U + m, *T = V + m, *W = T + m;
    int64_t *ipiv = (int64_t *)(void *)(W + m);
    /* A in double; the 1-norm, NaN when an element is NaN */
    const int64_t off = la_offset(in, 2, b), s0 = in->strides[in->ndim - 2], s1 = in->strides[in->ndim - 1];
    double norm = 0;
    for (int64_t j = 0; j < n; j++) {
        double col = 0;
        for (int64_t i = 0; i < n; i++) {
            double re, im;
            load(in, off + i * s0 + j * s1, &re, &im);
            A[w * (i + j * n)] = re;
            if (w == 2) A[2 * (i + j * n) + 1] = im;
            col += w == 2 ? hypot(re, im) : fabs(re);
        }
        norm = col > norm || col != col ? col : norm;
    }
    if (!isfinite(norm)) {
        for (int64_t e = 0; e < m; e++) T[e] = NAN;
    } else {
        int sq = 0;
        if (norm > theta13) sq = (int)ceil(log2(norm / theta13));
        if (sq > 0) {
            const double scale = ldexp(1.0, -sq);
            for (int64_t e = 0; e < m; e++) A[e] *= scale;
        }
        product(n, w, A, A, A2);
        product(n, w, A2, A2, A4);
        product(n, w, A4, A2, A6);
        const double *c = pade13;
        /* U = A (A6 (c13 A6 + c11 A4 + c9 A2) + c7 A6 + c5 A4 + c3 A2 + c1 I) */
        combine(n, w, T, 3, (const double *[]){A6, A4, A2}, (double[]){c[13], c[11], c[9]}, 0);
        product(n, w, A6, T, W);
        combine(n, w, T, 4, (const double *[]){W, A6, A4, A2}, (double[]){1, c[7], c[5], c[3]}, c[1]);
        product(n, w, A, T, U);
        /* V = A6 (c12 A6 + c10 A4 + c8 A2) + c6 A6 + c4 A4 + c2 A2 + c0 I */
        combine(n, w, T, 3, (const double *[]){A6, A4, A2}, (double[]){c[12], c[10], c[8]}, 0);
        product(n, w, A6, T, W);
        combine(n, w, V, 4, (const double *[]){W, A6, A4, A2}, (double[]){1, c[6], c[4], c[2]}, c[0]);
        /* (V - U) X = (V + U) */
        for (int64_t e = 0; e < m; e++) {
            const double u = U[e], y = V[e];
            W[e] = y - u;
            T[e] = y + u;
        }
        const tc_lapack *l = s->lapack;
        int st = w == 2 ? l->getrf_complex(TC_COMPLEX128, n, n, W, n, ipiv, &s->ws)
                        : l->getrf(TC_FLOAT64, n, n, W, n, ipiv, &s->ws);
        if (st < 0) return st;
        if (st > 0) /* V - U singular: only for inputs whose exponential overflows anyway */
            for (int64_t e = 0; e < m; e++) T[e] = NAN;
        else if ((st = w == 2 ? l->getrs_complex(TC_COMPLEX128, 'N', n, n, W, n, ipiv, T, n, &s->ws)
                              : l->getrs(TC_FLOAT64, 'N', n, n, W, n, ipiv, T, n, &s->ws)) < 0)
            return st;
        for (int i = 0; i < sq; i++) {
            product(n, w, T, T, W);
            memcpy(T, W, sizeof(double) * (size_t)m);
        }
    }
    const int64_t oo = la_offset(out, 2, b), t0 = out->strides[out->ndim - 2], t1 = out->strides[out->ndim - 1];
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) store(out, oo + i * t0 + j * t1, T + w * (i + j * n));
    return 0;
}

static int k_matrix_exp(const tc_kernel_args *args) {
    static const char *const api = "linalg.matrix_exp";
    if (cpu_check_args(args, 1, 1, "matrix_exp")) return TC_FAIL;
    const int32_t dt = args->inputs[0].dtype;
    /* PyTorch's float16 and complex32 fail in the log2 of the norm's scaling, a real Half */
    if (dt == TC_FLOAT16 || dt == TC_COMPLEX32) return la_dtype_error("log2_vml_cpu", TC_FLOAT16);
    if (dt != TC_FLOAT32 && dt != TC_FLOAT64 && dt != TC_BFLOAT16 && !la_complex(dt))
        return la_dtype_error("linalg_matrix_exp", dt);
    const tc_lapack *l = la_lapack(api);
    if (!l) return TC_FAIL;
    if (la_complex(dt) && !(LA_HAS(l, getrf_complex) && LA_HAS(l, getrs_complex)))
        return la_no_complex(api, LA_HAS(l, getrf_complex) ? "getrs_complex" : "getrf_complex");
    const tc_view *v[2] = {&args->inputs[0], &args->outputs[0]};
    const int64_t n = la_rows(v[0]);
    const int w = la_complex(dt) ? 2 : 1;
    /* the scratch (scratch_doubles) and every index into it must fit; work: one item's multiply-adds,
     * about 12 n^3 real ones, 4 real ones per complex one */
    int64_t nn, doubles, work;
    if (__builtin_mul_overflow(n, n, &nn) || __builtin_mul_overflow(nn, 8 * w, &doubles) ||
        __builtin_add_overflow(doubles, n, &doubles) || (uint64_t)doubles > SIZE_MAX / sizeof(double))
        return la_raise(TC_LAPACK_TOO_LARGE, api);
    if (__builtin_mul_overflow(nn, 12 * w * w * n, &work)) work = INT64_MAX;
    const int st = la_batches(l, la_batch_count(v[0], 2), work, item, (void *)v, NULL);
    return st ? la_raise(st, api) : TC_OK;
}

static const cpu_kernel_entry kernels[] = {{"matrix_exp", TC_ANY_DTYPE, k_matrix_exp}};
CPU_KERNEL_TABLE(kernels);
