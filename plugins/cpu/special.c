/*
 * special.c - special functions of one tensor: erfinv, digamma, polygamma(n, x), mvlgamma(x, p).
 *
 * The reference computes these in the tensor's own precision with its own algorithms (float
 * arithmetic for float32), which near their zeros and poles differ from the true value by far more
 * than one unit in the last place; so does any other algorithm, differently. To agree with PyTorch
 * to the last place these follow the same published algorithms in the same precision: a rational
 * approximation polished by two Newton steps for erfinv (G. L. Pavlis), and Cephes' asymptotic
 * series for digamma, trigamma and the Hurwitz zeta function (S. L. Moshier, Cephes Math Library,
 * 3-clause BSD), written here afresh.
 */
#include <math.h>
#include <string.h>

#include "cpu.h"
#include "float_unary.h"
#include "vmath.h"

/* ---- erfinv ---- */

/* PyTorch's kernels are built with contracted multiply-adds (FMA at x86-64-v3 and up); erfinv's
 * polynomials and Newton steps round differently without them, by up to 3 units in the last place,
 * so this one function lets the compiler contract too. */

#define DEF_ERFINV(S, C, ERF, EXP, SQRT, LOG, COPYSIGN, FABS)                                      \
    __attribute__((optimize("fp-contract=fast"))) static C erfinv_##S(C y) {                       \
        static const C a[4] = {(C)0.886226899, (C)-1.645349621, (C)0.914624893, (C)-0.140543331};   \
        static const C b[4] = {(C)-2.118377725, (C)1.442710462, (C)-0.329097515, (C)0.012229801};   \
        static const C c[4] = {(C)-1.970840454, (C)-1.624906493, (C)3.429567803, (C)1.641345311};   \
        static const C d[2] = {(C)3.543889200, (C)1.637067800};                                    \
        const C ay = FABS(y);                                                                      \
        if (!(ay <= (C)1)) return (C)NAN;                                                          \
        if (ay == (C)1) return COPYSIGN((C)INFINITY, y);                                           \
        C x;                                                                                       \
        if (ay <= (C)0.7) {                                                                        \
            const C z = y * y;                                                                     \
            const C num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];                               \
            const C den = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + (C)1;                 \
            x = y * num / den;                                                                     \
        } else {                                                                                   \
            const C z = SQRT(-LOG(((C)1 - ay) / (C)2));                                            \
            const C num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];                               \
            const C den = (d[1] * z + d[0]) * z + (C)1;                                            \
            x = COPYSIGN(num, y) / den;                                                            \
        }                                                                                          \
        const C two_over_sqrt_pi = (C)2 * (C)0.564189583547756286948079451560772586;              \
        x = x - (ERF(x) - y) / (two_over_sqrt_pi * EXP(-x * x));                                   \
        x = x - (ERF(x) - y) / (two_over_sqrt_pi * EXP(-x * x));                                   \
        return x;                                                                                  \
    }
DEF_ERFINV(f32, float, erff, expf, sqrtf, logf, copysignf, fabsf)
DEF_ERFINV(f64, double, erf, exp, sqrt, log, copysign, fabs)
CPU_FU_MAP(erfinv, erfinv_f32(v), erfinv_f64(v))

/* ---- digamma ---- */

/* Cephes' polynomial evaluation, highest coefficient first. */
#define DEF_POLEVL(S, C)                                                                           \
    static C polevl_##S(C x, const C *coef, int degree) {                                          \
        C r = 0;                                                                                   \
        for (int i = 0; i <= degree; i++) r = r * x + coef[i];                                     \
        return r;                                                                                  \
    }
DEF_POLEVL(f32, float)
DEF_POLEVL(f64, double)

/* psi(x): reflection for negative x (pi / tan(pi r) from the fraction r of x, in double), the
 * recurrence up to 10, then the asymptotic series in 1/x^2. */
#define DEF_DIGAMMA(S, C, TRUNC, LOG)                                                              \
    static C digamma_##S(C x) {                                                                    \
        static const C coef[7] = {(C)8.33333333333333333333E-2, (C)-2.10927960927960927961E-2,    \
                                  (C)7.57575757575757575758E-3, (C)-4.16666666666666666667E-3,    \
                                  (C)3.96825396825396825397E-3, (C)-8.33333333333333333333E-3,    \
                                  (C)8.33333333333333333333E-2};                                   \
        if (x == 0) return copysign((C)INFINITY, -x);                                              \
        if (x < 0) {                                                                               \
            if (x == TRUNC(x)) return (C)NAN;                                                      \
            double whole;                                                                          \
            const double r = modf((double)x, &whole);                                              \
            const C pi_over_tan = (C)(M_PI / tan(M_PI * r));                                       \
            return digamma_##S((C)1 - x) - pi_over_tan;                                            \
        }                                                                                          \
        C result = 0;                                                                              \
        while (x < 10) {                                                                           \
            result -= (C)1 / x;                                                                    \
            x += 1;                                                                                \
        }                                                                                          \
        if (x == 10) return result + (C)2.25175258906672110764;                                    \
        C y = 0;                                                                                   \
        if (x < (C)1.0e17) {                                                                       \
            const C z = (C)1 / (x * x);                                                            \
            y = z * polevl_##S(z, coef, 6);                                                        \
        }                                                                                          \
        return result + LOG(x) - ((C)0.5 / x) - y;                                                 \
    }
DEF_DIGAMMA(f32, float, truncf, logf)
DEF_DIGAMMA(f64, double, trunc, log)

/* ---- trigamma and the Hurwitz zeta function (polygamma's n = 1 and n >= 2) ---- */

#define DEF_TRIGAMMA(S, C, SIN)                                                                    \
    static C trigamma_##S(C x) {                                                                   \
        const C pi = (C)M_PI;                                                                      \
        C sign = 1, result = 0;                                                                    \
        if (x < (C)0.5) {                                                                          \
            sign = -1;                                                                             \
            const C s = SIN(pi * x);                                                               \
            result -= (pi * pi) / (s * s);                                                         \
            x = 1 - x;                                                                             \
        }                                                                                          \
        for (int i = 0; i < 6; i++) {                                                              \
            result += (C)1 / (x * x);                                                              \
            x += 1;                                                                                \
        }                                                                                          \
        const C ixx = (C)1 / (x * x);                                                              \
        result += ((C)1 + (C)1 / ((C)2 * x) +                                                      \
                   ixx * ((C)1 / (C)6 - ixx * ((C)1 / (C)30 - ixx * ((C)1 / (C)42))))             \
                  / x;                                                                             \
        return sign * result;                                                                      \
    }
DEF_TRIGAMMA(f32, float, sinf)
DEF_TRIGAMMA(f64, double, sin)

/* zeta(x, q) = sum over k >= 0 of (k + q)^-x, by Euler-Maclaurin summation, always in double. */
static double zeta(double x, double q) {
    static const double A[] = {12.0,
                               -720.0,
                               30240.0,
                               -1209600.0,
                               47900160.0,
                               -1.8924375803183791606e9,
                               7.47242496e10,
                               -2.950130727918164224e12,
                               1.1646782814350067249e14,
                               -4.5979787224074726105e15,
                               1.8152105401943546773e17,
                               -7.1661652561756670113e18};
    const double machep = 1.11022302462515654042E-16;
    if (x == 1) return INFINITY;
    if (x < 1) return NAN;
    if (q <= 0) {
        if (q == floor(q)) return INFINITY;
        if (x != floor(x)) return NAN;
    }
    double s = pow(q, -x), a = q, b = 0;
    int i = 0;
    while (i < 9 || a <= 9.0) {
        i++;
        a += 1;
        b = pow(a, -x);
        s += b;
        if (-machep * s < b && b < machep * s) return s;
    }
    const double w = a;
    s += b * w / (x - 1);
    s -= 0.5 * b;
    a = 1;
    double k = 0;
    for (i = 0; i < 12; i++) {
        a *= x + k;
        b /= w;
        const double t = a * b / A[i];
        s = s + t;
        if (fabs(t / s) < machep) return s;
        k += 1;
        a *= x + k;
        b /= w;
        k += 1;
    }
    return s;
}

/* polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x); the factor in the tensor's precision. */
#define DEF_POLYGAMMA(S, C, EXP, LGAMMA)                                                           \
    static C polygamma_##S(C x, int64_t n) {                                                       \
        if (n == 0) return digamma_##S(x);                                                         \
        if (n == 1) return trigamma_##S(x);                                                        \
        const C sign = (n % 2) ? (C)1 : (C)-1;                                                     \
        return sign * EXP(LGAMMA((C)n + (C)1)) * (C)zeta((double)((C)(n + 1)), (double)x);         \
    }
DEF_POLYGAMMA(f32, float, expf, lgammaf)
DEF_POLYGAMMA(f64, double, exp, lgamma)

CPU_FU_MAP(digamma, digamma_f32(v), digamma_f64(v))

#define DEF_POLYGAMMA_ARRAY(S, C)                                                                  \
    static void fu_polygamma_##S(const C *x, C *y, int64_t n, const cpu_fu_params *p) {           \
        for (int64_t i = 0; i < n; i++) y[i] = polygamma_##S(x[i], p->i);                          \
    }
DEF_POLYGAMMA_ARRAY(f32, float)
DEF_POLYGAMMA_ARRAY(f64, double)

/* ---- mvlgamma(x, p) = sum over j < p of lgamma(x - j/2) + p(p-1)/4 log(pi) ---- */

/* PyTorch adds the terms in the order of arange(-(p-1)/2, 1/2, 1/2), lgamma by SLEEF, then the
 * constant rounded to the tensor's precision. */
#define DEF_MVLGAMMA(S, C)                                                                         \
    static void fu_mvlgamma_##S(const C *x, C *y, int64_t n, const cpu_fu_params *p) {            \
        C term[512], acc[512];                                                                     \
        const int64_t dims = p->i;                                                                 \
        const C constant = (C)((double)(dims * (dims - 1)) * log(M_PI) * 0.25);                     \
        for (int64_t i0 = 0; i0 < n; i0 += 512) {                                                  \
            const int64_t m = n - i0 < 512 ? n - i0 : 512;                                         \
            memset(acc, 0, sizeof acc);                                                            \
            for (int64_t j = 0; j < dims; j++) {                                                   \
                const C shift = (C)(-(double)(dims - 1) * 0.5 + 0.5 * (double)j);                  \
                for (int64_t i = 0; i < m; i++) term[i] = shift + x[i0 + i];                       \
                vm_lgamma_##S(term, term, m);                                                      \
                for (int64_t i = 0; i < m; i++) acc[i] += term[i];                                 \
            }                                                                                      \
            for (int64_t i = 0; i < m; i++) y[i0 + i] = acc[i] + constant;                         \
        }                                                                                          \
    }
DEF_MVLGAMMA(f32, float)
DEF_MVLGAMMA(f64, double)

#define OPS(X) X(erfinv) X(digamma) X(polygamma) X(mvlgamma)
OPS(CPU_FU_COMPUTE_KERNELS)
static const cpu_kernel_entry kernels[] = {OPS(CPU_FU_ENTRIES)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
