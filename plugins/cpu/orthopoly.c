/*
 * orthopoly.c - the orthogonal polynomials of torch.special, binary in (x, n): chebyshev_polynomial_t/u/v/w,
 * shifted_chebyshev_polynomial_t/u/v/w, hermite_polynomial_h/he, laguerre_polynomial_l,
 * legendre_polynomial_p. Both operands arrive in the result's dtype (float32 or float64; PyTorch has
 * no 16-bit kernels for them); the degree n is truncated to an integer as PyTorch's cast does on x86
 * (NaN and out-of-range values become INT64_MIN, a negative degree).
 */
#include <tgmath.h>

#include "cpu.h"
#include "dtype.h"
#include "loops.h"

#include "orthopoly_generic.h"
#define CPU_STAMP_DOUBLE
#include "orthopoly_generic.h"
#undef CPU_STAMP_DOUBLE

#define OPS(X)                                                                                     \
    X(chebyshev_polynomial_t) X(chebyshev_polynomial_u) X(chebyshev_polynomial_v)                  \
    X(chebyshev_polynomial_w) X(shifted_chebyshev_polynomial_t) X(shifted_chebyshev_polynomial_u)  \
    X(shifted_chebyshev_polynomial_v) X(shifted_chebyshev_polynomial_w) X(hermite_polynomial_h)    \
    X(hermite_polynomial_he) X(laguerre_polynomial_l) X(legendre_polynomial_p)

/* Strided rows (element strides), the degree converted per element. */
#define STAMP_S(OP, S, T)                                                                          \
    static void loop_##OP##_##S(int64_t n, char *const *p, const int64_t *s, void *ctx) {          \
        (void)ctx;                                                                                 \
        T *o = (T *)p[0];                                                                          \
        const T *x = (const T *)p[1], *deg = (const T *)p[2];                                      \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i * s[0]] = OP##_##S(x[i * s[1]], tc_cvtt_i64((double)deg[i * s[2]]));               \
    }                                                                                              \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_binary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                        \
    }
#define STAMP(OP) STAMP_S(OP, f32, float) STAMP_S(OP, f64, double)
OPS(STAMP)

#define ENTRIES(OP) {#OP, TC_FLOAT32, k_##OP##_f32}, {#OP, TC_FLOAT64, k_##OP##_f64},
static const cpu_kernel_entry kernels[] = {OPS(ENTRIES)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
