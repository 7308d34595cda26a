/*
 * logsumexp.c - log(sum(exp(x))) over any set of dims, without overflow: the largest element m of
 * each output's elements first (an infinite m counts as 0, so that all -inf gives -inf and a +inf
 * gives +inf, as in PyTorch), then log(sum(exp(x - m))) + m, accumulated in double.
 *
 * Contiguous float32 and float64 rows compute x - m and its exp in the dtype, in vectors (vmath.h's
 * exp: SLEEF's u10 of the ISA level, as PyTorch's vectorised exp), the terms still summed in double:
 * one scalar double exp per element had held a 4096-wide float32 row to 0.67 GB/s on one Zen 3
 * thread.
 * Rows added into a kept contiguous dim's columns (the outer plan) exponentiate in vectors too;
 * strided rows keep the scalar exp.
 */
#include "reduce.h"
#include "vmath.h"

#define MAP_X(x, c) (x)
#define FIN_FINITE(a, c) (isinf(a) ? 0 : (a))
#define MAP_EXP(x, c) exp((double)(x) - (c))
#define FIN_LSE(a, c) (log(a) + (c))

#define STAMP(_, S)                                                                                \
    RED_STAMP(lmax_##S, S, CPU_C_##S, CPU_T_##S, -INFINITY, MAP_X, RED_MAX_F, FIN_FINITE, cpu_st_##S) \
    RED_STAMP(lse_##S, S, double, CPU_T_##S, 0, MAP_EXP, RED_ADD, FIN_LSE, cpu_st_##S)
CPU_DTYPES_FLOAT(STAMP, _)

/* Terms are formed a chunk at a time in a buffer and exponentiated there by vmath.h's array exp,
 * then added into double lanes that GCC keeps in vector registers. */
#define LSE_CHUNK 256
#define LSE_LANES 8

#define LSE_VECTOR(S, T)                                                                           \
    static double lse_terms_##S(const T *p, int64_t n, double c) {                                 \
        const T m = (T)c;                                                                          \
        double lanes[LSE_LANES] = {0};                                                             \
        T e[LSE_CHUNK];                                                                            \
        for (int64_t at = 0; at < n; at += LSE_CHUNK) {                                            \
            const int64_t k = n - at < LSE_CHUNK ? n - at : LSE_CHUNK;                             \
            for (int64_t i = 0; i < k; i++) e[i] = p[at + i] - m;                                  \
            vm_exp_##S(e, e, k);                                                                   \
            int64_t i = 0;                                                                         \
            for (; i + LSE_LANES <= k; i += LSE_LANES)                                             \
                _Pragma("GCC unroll 1") for (int j = 0; j < LSE_LANES; j++) lanes[j] += (double)e[i + j]; \
            for (int j = 0; i < k; i++, j++) lanes[j] += (double)e[i];                             \
        }                                                                                          \
        return ((lanes[0] + lanes[4]) + (lanes[1] + lanes[5])) + ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7])); \
    }                                                                                              \
    static void lse_vrow_##S(void *acc, const char *p, int64_t n, int64_t s, const red_call *cx, double c) { \
        if (s != 1) lse_##S##_ops.row(acc, p, n, s, cx, c);                                        \
        else *(double *)acc = lse_terms_##S((const T *)p, n, c);                                   \
    }                                                                                              \
    static void lse_vrows_##S(void *acc, const char *p, int64_t step, int64_t nrows, int64_t n, int64_t s, \
                              const red_call *cx, const double *cs) {                              \
        if (s != 1) lse_##S##_ops.rows(acc, p, step, nrows, n, s, cx, cs);                         \
        else                                                                                       \
            for (int64_t r = 0; r < nrows; r++)                                                    \
                ((double *)acc)[r] = lse_terms_##S((const T *)(p + r * step), n, cs ? cs[r] : RED_NOCENTER); \
    }                                                                                              \
    /* The outer plan (the reduced dims before a kept contiguous one): up to eight rows added into \
     * the columns' accumulators, a chunk of columns at a time with their centres in the dtype. */ \
    static void lse_vaccum_##S(void *acc, const char *const *rows, int nrows, int64_t w, const red_call *cx, \
                               const double *cs) {                                                 \
        double *x = acc;                                                                           \
        T c[LSE_CHUNK], e[LSE_CHUNK];                                                              \
        for (int64_t j0 = 0; j0 < w; j0 += LSE_CHUNK) {                                            \
            const int64_t k = w - j0 < LSE_CHUNK ? w - j0 : LSE_CHUNK;                             \
            for (int64_t j = 0; j < k; j++) c[j] = (T)(cs ? cs[j0 + j] : RED_NOCENTER);            \
            for (int r = 0; r < nrows; r++) {                                                      \
                const T *row = (const T *)rows[r] + j0;                                            \
                for (int64_t j = 0; j < k; j++) e[j] = row[j] - c[j];                              \
                vm_exp_##S(e, e, k);                                                               \
                for (int64_t j = 0; j < k; j++) x[j0 + j] += (double)e[j];                         \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static const red_ops lse_vector_##S##_ops = {lse_##S##_identity, lse_vrow_##S,   lse_##S##_combine, \
                                                 lse_vaccum_##S,     lse_##S##_store, lse_##S##_center, \
                                                 lse_vrows_##S,      sizeof(double)};
LSE_VECTOR(f32, float)
LSE_VECTOR(f64, double)

#define KERNEL(_, S, OPS)                                                                          \
    static int k_logsumexp_##S(const tc_kernel_args *args) {                                      \
        return reduce_run2(args, &lmax_##S##_ops, &OPS, NULL, NULL, "logsumexp");                  \
    }
KERNEL(_, f32, lse_vector_f32_ops)
KERNEL(_, f64, lse_vector_f64_ops)
KERNEL(_, f16, lse_f16_ops)
KERNEL(_, bf16, lse_bf16_ops)

#define ENTRY(_, S) {"logsumexp", CPU_DT_##S, k_logsumexp_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
