/*
 * transcendental.c - float functions of one tensor: trigonometric, hyperbolic and their inverses,
 * exponentials and logarithms, erf/erfc, lgamma, roots, reciprocal, sigmoid, logit, deg2rad and
 * rad2deg. Integer inputs arrive as the default float dtype (the meta function's rule) and are
 * converted while loading.
 *
 * Each op follows the function PyTorch 1.13's CPU kernels use, so results agree to the last place:
 * SLEEF's vectorised u10 functions (vmath.h) where PyTorch's vectorised path uses SLEEF, libm where it
 * calls std:: (exp2, asinh, acosh, atanh), and the same formulas for the composed ones (sigmoid is
 * 1 / (1 + exp(-x)), rsqrt is 1 / sqrt(x), logit is log(x / (1 - x)) after clamping to [eps, 1 - eps]).
 */
#include <math.h>

#include "cpu.h"
#include "float_unary.h"
#include "vmath.h"

/* ---- straight SLEEF calls ---- */

#define SLEEF_OP(OP)                                                                               \
    static void fu_##OP##_f32(const float *x, float *y, int64_t n, const cpu_fu_params *p) {      \
        (void)p;                                                                                   \
        vm_##OP##_f32(x, y, n);                                                                    \
    }                                                                                              \
    static void fu_##OP##_f64(const double *x, double *y, int64_t n, const cpu_fu_params *p) {    \
        (void)p;                                                                                   \
        vm_##OP##_f64(x, y, n);                                                                    \
    }

#define SLEEF_OPS(X)                                                                               \
    X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(exp) X(expm1) X(log) \
        X(log2) X(log10) X(log1p) X(erf) X(erfc) X(lgamma)
SLEEF_OPS(SLEEF_OP)

/* ---- libm and plain arithmetic (the loops vectorise where the function inlines) ---- */

CPU_FU_MAP(exp2, exp2f(v), exp2(v))
CPU_FU_MAP(asinh, asinhf(v), asinh(v))
CPU_FU_MAP(acosh, acoshf(v), acosh(v))
CPU_FU_MAP(atanh, atanhf(v), atanh(v))
CPU_FU_MAP(sqrt, sqrtf(v), sqrt(v))
CPU_FU_MAP(rsqrt, 1.0f / sqrtf(v), 1.0 / sqrt(v))
CPU_FU_MAP(reciprocal, 1.0f / v, 1.0 / v)
/* PyTorch multiplies by the constant rounded to the compute type */
CPU_FU_MAP(deg2rad, v * (float)(M_PI / 180.0), v * (M_PI / 180.0))
CPU_FU_MAP(rad2deg, v * (float)(180.0 / M_PI), v * (180.0 / M_PI))

/* ---- composed ---- */

/* sigmoid: vmath.h's one-pass 1 / (1 + exp(-x)) */
SLEEF_OP(sigmoid)

/* logit(x, eps): with eps >= 0, x is first clamped to [eps, 1 - eps] (both bounds held in the
 * tensor's dtype, as PyTorch does); NaN stays NaN. */
#define DEF_LOGIT(S, C)                                                                            \
    static void fu_logit_##S(const C *x, C *y, int64_t n, const cpu_fu_params *p) {               \
        const double eps = p->f[0];                                                                \
        if (eps >= 0) {                                                                            \
            const C lo = (C)cpu_fu_round16((C)eps, p->dtype);                                      \
            const C hi = (C)cpu_fu_round16((C)1 - lo, p->dtype);                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const C v = x[i] < lo ? lo : x[i] > hi ? hi : x[i];                                \
                y[i] = v / ((C)1 - v);                                                             \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) y[i] = x[i] / ((C)1 - x[i]);                           \
        }                                                                                          \
        vm_log_##S(y, y, n);                                                                       \
    }
DEF_LOGIT(f32, float)
DEF_LOGIT(f64, double)

/* The functions whose cost per element outruns memory (their large results skip the streaming
 * stores, float_unary.h), and the cheap ones that memory limits. */
#define COMPUTE_OPS(X) SLEEF_OPS(X) X(exp2) X(asinh) X(acosh) X(atanh) X(sigmoid) X(logit)
#define CHEAP_OPS(X) X(sqrt) X(rsqrt) X(reciprocal) X(deg2rad) X(rad2deg)
#define OPS(X) COMPUTE_OPS(X) CHEAP_OPS(X)

COMPUTE_OPS(CPU_FU_COMPUTE_KERNELS)
CHEAP_OPS(CPU_FU_KERNELS)
static const cpu_kernel_entry kernels[] = {OPS(CPU_FU_ENTRIES)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
