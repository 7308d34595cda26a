/*
 * special.c - special functions: erfinv, digamma, polygamma(n, x), mvlgamma(x, p), ndtri, log_ndtr,
 * erfcx (erfcx.h) of one tensor, and the Hurwitz zeta function zeta(x, q) of two.
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

#include <stdbool.h>

#include "cpu.h"
#include "erfcx.h"
#include "float_unary.h"
#include "loops.h"
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

/* ---- ndtri: the inverse of the standard normal CDF (Cephes' ndtri.c), in the tensor's precision ---- */

#define NDTRI_P0 -5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1, \
    1.39312609387279679503E1, -1.23916583867381258016E0
#define NDTRI_Q0 1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1, \
    -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1, 1.59056225126211695515E1, \
    -1.18331621121330003142E0
#define NDTRI_P1 4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1, \
    4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0, -1.40256079171354495875E-1, \
    -3.50424626827848203418E-2, -8.57456785154685413611E-4
#define NDTRI_Q1 1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1, \
    1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1, -3.80806407691578277194E-2, \
    -9.33259480895457427372E-4
#define NDTRI_P2 3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0, \
    1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2, 3.01581553508235416007E-4, \
    2.65806974686737550832E-6, 6.23974539184983293730E-9
#define NDTRI_Q2 1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0, \
    2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4, 2.89247864745380683936E-6, \
    6.79019408009981274425E-9

/* Near the middle x = w + w^3 R(w^2) sqrt(2 pi) with w = y - 1/2; in the tails an expansion in
 * 1/sqrt(-2 log y), with two rational functions (y above and below exp(-32)). */
#define DEF_NDTRI(S, C, SQRT, LOG)                                                                 \
    static C ndtri_##S(C y0) {                                                                     \
        static const C p0[] = {NDTRI_P0}, q0[] = {NDTRI_Q0}, p1[] = {NDTRI_P1}, q1[] = {NDTRI_Q1};  \
        static const C p2[] = {NDTRI_P2}, q2[] = {NDTRI_Q2};                                       \
        const C exp_m2 = (C)0.13533528323661269189;                                                \
        if (y0 == 0) return -(C)INFINITY;                                                          \
        if (y0 == 1) return (C)INFINITY;                                                           \
        if (y0 < 0 || y0 > 1) return (C)NAN;                                                       \
        bool negate = true;                                                                        \
        C y = y0;                                                                                  \
        if (y > (C)1 - exp_m2) {                                                                   \
            y = (C)1 - y;                                                                          \
            negate = false;                                                                        \
        }                                                                                          \
        if (y > exp_m2) {                                                                          \
            y = y - (C)0.5;                                                                        \
            const C y2 = y * y;                                                                    \
            const C x = fma(y, y2 * polevl_##S(y2, p0, 4) / polevl_##S(y2, q0, 8), y);             \
            return x * (C)2.50662827463100050242E0;                                                \
        }                                                                                          \
        const C x = SQRT((C)-2 * LOG(y));                                                          \
        const C x0 = x - LOG(x) / x;                                                               \
        const C z = (C)1 / x;                                                                      \
        const C x1 = x < (C)8 ? z * polevl_##S(z, p1, 8) / polevl_##S(z, q1, 8)                    \
                              : z * polevl_##S(z, p2, 8) / polevl_##S(z, q2, 8);                   \
        return negate ? x1 - x0 : x0 - x1;                                                         \
    }
DEF_NDTRI(f32, float, sqrtf, logf)
DEF_NDTRI(f64, double, sqrt, log)
CPU_FU_MAP(ndtri, ndtri_f32(v), ndtri_f64(v))

/* ---- log_ndtr: log of the standard normal CDF; erfcx keeps the lower tail finite ---- */

/* t = x / sqrt(2) is rounded from double, as PyTorch's (its constant is a double). */
#define DEF_LOG_NDTR(S, C, LOG, LOG1P, ERFC)                                                       \
    static C log_ndtr_##S(C x) {                                                                   \
        const C t = (C)((double)x * 0.707106781186547524400844362104849039);                       \
        if (x < (C)-1) return LOG(erfcx_##S(-t) / (C)2) - t * t;                                   \
        return LOG1P(-ERFC(t) / (C)2);                                                             \
    }
DEF_LOG_NDTR(f32, float, logf, log1pf, erfcf)
DEF_LOG_NDTR(f64, double, log, log1p, erfc)
CPU_FU_MAP(log_ndtr, log_ndtr_f32(v), log_ndtr_f64(v))
CPU_FU_MAP(erfcx, erfcx_f32(v), erfcx_f64(v))

#define OPS(X) X(erfinv) X(digamma) X(polygamma) X(mvlgamma)
#define WIDE_OPS(X) X(ndtri) X(log_ndtr) X(erfcx)
OPS(CPU_FU_COMPUTE_KERNELS)
WIDE_OPS(CPU_FU_WIDE_KERNELS)

/* ---- zeta(x, q), binary: float32 through the double function above, as PyTorch's (its accumulate
 * type on CPU is double) ---- */

#define DEF_ZETA_LOOP(S, T)                                                                        \
    static void loop_zeta_##S(int64_t n, char *const *p, const int64_t *s, void *ctx) {            \
        (void)ctx;                                                                                 \
        T *o = (T *)p[0];                                                                          \
        const T *x = (const T *)p[1], *q = (const T *)p[2];                                        \
        for (int64_t i = 0; i < n; i++) o[i * s[0]] = (T)zeta((double)x[i * s[1]], (double)q[i * s[2]]); \
    }                                                                                              \
    static int k_zeta_##S(const tc_kernel_args *args) {                                            \
        return cpu_binary_apply_as(args, loop_zeta_##S, "zeta", CPU_DT_##S);                       \
    }
DEF_ZETA_LOOP(f32, float)
DEF_ZETA_LOOP(f64, double)

static const cpu_kernel_entry kernels[] = {OPS(CPU_FU_ENTRIES) WIDE_OPS(CPU_FU_WIDE_ENTRIES){"zeta", TC_FLOAT32, k_zeta_f32},
                                           {"zeta", TC_FLOAT64, k_zeta_f64}};
CPU_CONVERTING_KERNEL_TABLE(kernels);
