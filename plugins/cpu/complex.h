/*
 * complex.h - complex elements in the CPU kernels (complex_*.c): storage types, loads and stores,
 * conversions, arithmetic and the loop that binary complex kernels run.
 *
 * The suffixes c32, c64, c128 (dtype.h's CPU_DTYPES_COMPLEX) follow dtype.h's scheme: CPU_T_S is the
 * storage type, CPU_C_S the compute type (complex32 computes in complex float, as PyTorch's
 * ComplexHalf ops do), CPU_CV_S the type conversions go through, and CPU_SFX_S picks the float
 * (_f) or double (_d) version of a helper.
 *
 * Arithmetic follows PyTorch 1.13's vectorised CPU kernels, so results match it to the bit where the
 * formula decides them: products and quotients by the schoolbook formulas, without C99 Annex G's
 * recovery of infinities (which would also stop loops vectorising): (1+0j) * (0+infj) is nan+infj
 * there too. exp is exp(re) * (cos(im), sin(im)) (complex_vmath.h computes it for the exp kernel on
 * vectors, with SLEEF as PyTorch's; the scalar helper here serves sigmoid), sigmoid 1 / (1 + exp(-z)),
 * abs is hypot, and log, sqrt, sin, cos, tan, the hyperbolic functions, asinh, acosh, atanh and
 * pow are libm's complex functions, which std::complex calls; asin, acos, atan, log2, log10,
 * reciprocal, rsqrt and sgn take the formulas of PyTorch's vectorised kernels (at cpu_cx_asin_).
 */
#ifndef CPU_COMPLEX_H
#define CPU_COMPLEX_H

#include <complex.h>
#include <math.h>

/* the macros <complex.h> defines would rewrite names (the complex() kernel, I) */
#undef complex
#undef I

#include "dtype.h"
#include "iterate.h"

typedef struct cpu_ch { _Float16 re, im; } cpu_ch; /* complex32 storage */
typedef struct cpu_cf { float re, im; } cpu_cf;
typedef struct cpu_cd { double re, im; } cpu_cd;
_Static_assert(sizeof(cpu_ch) == 4 && sizeof(cpu_cf) == 8 && sizeof(cpu_cd) == 16, "complex layouts are ABI");

#define CPU_T_c32 cpu_ch
#define CPU_T_c64 cpu_cf
#define CPU_T_c128 cpu_cd

#define CPU_C_c32 cpu_cf
#define CPU_C_c64 cpu_cf
#define CPU_C_c128 cpu_cd

#define CPU_CV_c32 cf
#define CPU_CV_c64 cf
#define CPU_CV_c128 cd

/* The kind (dtype.h's CPU_K_S) of every complex suffix: op bodies picked per kind take a _KC one. */
#define CPU_K_c32 KC
#define CPU_K_c64 KC
#define CPU_K_c128 KC

#define CPU_SFX_c32 f
#define CPU_SFX_c64 f
#define CPU_SFX_c128 d

/* The real type of a compute type's parts, by helper suffix. */
#define CPU_R_f float
#define CPU_R_d double

static inline cpu_cf cpu_ld_c32(cpu_ch x) { return (cpu_cf){cpu_ld_f16(x.re), cpu_ld_f16(x.im)}; }
static inline cpu_ch cpu_st_c32(cpu_cf c) { return (cpu_ch){cpu_st_f16(c.re), cpu_st_f16(c.im)}; }
static inline cpu_cf cpu_ld_c64(cpu_cf x) { return x; }
static inline cpu_cf cpu_st_c64(cpu_cf c) { return c; }
static inline cpu_cd cpu_ld_c128(cpu_cd x) { return x; }
static inline cpu_cd cpu_st_c128(cpu_cd c) { return c; }

/* ---- conversions into complex storage: cpu_cx_from_<i64|f32|f64|cf|cd>_<S> ---- */

/* Each part converts once, from the source's own widest type (an int64 straight to float). */
#define CPU_CX_FROM(S, R, CVT)                                                                      \
    static inline CPU_T_##S cpu_cx_from_i64_##S(int64_t v) { return (CPU_T_##S){(R)v, (R)0}; }     \
    static inline CPU_T_##S cpu_cx_from_f32_##S(float v) { return (CPU_T_##S){CVT(v), (R)0}; }     \
    static inline CPU_T_##S cpu_cx_from_f64_##S(double v) { return (CPU_T_##S){(R)v, (R)0}; }      \
    static inline CPU_T_##S cpu_cx_from_cf_##S(cpu_cf v) { return (CPU_T_##S){CVT(v.re), CVT(v.im)}; } \
    static inline CPU_T_##S cpu_cx_from_cd_##S(cpu_cd v) { return (CPU_T_##S){(R)v.re, (R)v.im}; }
#define CPU_CX_KEEP(x) (x)
CPU_CX_FROM(c32, _Float16, cpu_st_f16)
CPU_CX_FROM(c64, float, CPU_CX_KEEP)
CPU_CX_FROM(c128, double, (double))
#undef CPU_CX_FROM

/* ---- arithmetic, one set per part type: cpu_cx_<op>_f and cpu_cx_<op>_d ---- */

#define CPU_CX_ARITH(C, R, X, CX, MAKE, FN)                                                         \
    static inline C cpu_cx_add_##X(C a, C b) { return (C){a.re + b.re, a.im + b.im}; }            \
    static inline C cpu_cx_mul_##X(C a, C b) { return (C){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; } \
    static inline C cpu_cx_div_##X(C a, C b) {                                                    \
        const R d = b.re * b.re + b.im * b.im;                                                    \
        return (C){(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};             \
    }                                                                                             \
    static inline C cpu_cx_neg_##X(C a) { return (C){-a.re, -a.im}; }                             \
    static inline C cpu_cx_conj_##X(C a) { return (C){a.re, -a.im}; }                             \
    static inline C cpu_cx_exp_##X(C a) {                                                         \
        const R e = exp##FN(a.re);                                                                \
        return (C){e * cos##FN(a.im), e * sin##FN(a.im)};                                         \
    }                                                                                             \
    /* PyTorch's reciprocal: (re, -im) / |z|^2 */                                                 \
    static inline C cpu_cx_sigmoid_##X(C a) {                                                     \
        const C e = cpu_cx_exp_##X(cpu_cx_neg_##X(a)), s = {(R)1 + e.re, e.im};                  \
        const R d = s.re * s.re + s.im * s.im;                                                    \
        return (C){s.re / d, -s.im / d};                                                          \
    }                                                                                             \
    static inline R cpu_cx_abs_##X(C a) { return hypot##FN(a.re, a.im); }                        \
    static inline R cpu_cx_angle_##X(C a) { return atan2##FN(a.im, a.re); }                       \
    static inline CX cpu_cx_lib_##X(C a) { return MAKE(a.re, a.im); }                             \
    static inline C cpu_cx_of_##X(CX z) { return (C){creal##FN(z), cimag##FN(z)}; }               \
    static inline C cpu_cx_log_##X(C a) { return cpu_cx_of_##X(clog##FN(cpu_cx_lib_##X(a))); }   \
    static inline C cpu_cx_sqrt_##X(C a) { return cpu_cx_of_##X(csqrt##FN(cpu_cx_lib_##X(a))); } \
    static inline C cpu_cx_sin_##X(C a) { return cpu_cx_of_##X(csin##FN(cpu_cx_lib_##X(a))); }   \
    static inline C cpu_cx_cos_##X(C a) { return cpu_cx_of_##X(ccos##FN(cpu_cx_lib_##X(a))); }   \
    static inline C cpu_cx_tanh_##X(C a) { return cpu_cx_of_##X(ctanh##FN(cpu_cx_lib_##X(a))); } \
    static inline C cpu_cx_pow_##X(C a, C b) {                                                    \
        return cpu_cx_of_##X(cpow##FN(cpu_cx_lib_##X(a), cpu_cx_lib_##X(b)));                    \
    }                                                                                             \
    static inline C cpu_cx_tan_##X(C a) { return cpu_cx_of_##X(ctan##FN(cpu_cx_lib_##X(a))); }   \
    static inline C cpu_cx_sinh_##X(C a) { return cpu_cx_of_##X(csinh##FN(cpu_cx_lib_##X(a))); } \
    static inline C cpu_cx_cosh_##X(C a) { return cpu_cx_of_##X(ccosh##FN(cpu_cx_lib_##X(a))); } \
    static inline C cpu_cx_asinh_##X(C a) { return cpu_cx_of_##X(casinh##FN(cpu_cx_lib_##X(a))); } \
    static inline C cpu_cx_acosh_##X(C a) { return cpu_cx_of_##X(cacosh##FN(cpu_cx_lib_##X(a))); } \
    static inline C cpu_cx_atanh_##X(C a) { return cpu_cx_of_##X(catanh##FN(cpu_cx_lib_##X(a))); } \
    /* PyTorch's vectorised forms: acos is pi/2 - asin, atan i/2 * log((i + z) / (i - z)), log2    \
     * and log10 divide log's parts by ln 2 and ln 10, reciprocal is (re, -im) / |z|^2 with |z|^2  \
     * as re*re + im*im, rsqrt the reciprocal of sqrt, sgn z / sqrt(|z|^2) (0 for 0), asin         \
     * -i log(iz + sqrt(1 - z^2)) with z^2's parts a*a - b*b and -(a*b) - (a*b) */                 \
    static inline C cpu_cx_asin_##X(C a) {                                                        \
        const R ab = a.re * -a.im;                                                                \
        const C root = cpu_cx_sqrt_##X((C){(R)1 - (a.re * a.re - a.im * a.im), ab + ab});         \
        const C l = cpu_cx_log_##X((C){-a.im + root.re, a.re + root.im});                         \
        return (C){l.im, -l.re};                                                                  \
    }                                                                                             \
    static inline C cpu_cx_acos_##X(C a) { /* complex64's is libm's (cacosf), as PyTorch's */      \
        if (sizeof(R) == sizeof(float)) return cpu_cx_of_##X(cacos##FN(cpu_cx_lib_##X(a)));        \
        const C s = cpu_cx_asin_##X(a);                                                           \
        return (C){(R)(3.14159265358979323846 / 2) - s.re, (R)0 - s.im};                          \
    }                                                                                             \
    static inline C cpu_cx_atan_##X(C a) {                                                        \
        const C sum = {(R)0 + a.re, (R)1 + a.im}, sub = {(R)0 - a.re, (R)1 - a.im};               \
        return cpu_cx_mul_##X((C){0, (R)0.5}, cpu_cx_log_##X(cpu_cx_div_##X(sum, sub)));          \
    }                                                                                             \
    static inline C cpu_cx_log2_##X(C a) {                                                        \
        const C l = cpu_cx_log_##X(a);                                                            \
        const R ln2 = (R)log(2.0);                                                                \
        return (C){l.re / ln2, l.im / ln2};                                                       \
    }                                                                                             \
    static inline C cpu_cx_log10_##X(C a) {                                                       \
        const C l = cpu_cx_log_##X(a);                                                            \
        const R ln10 = (R)log(10.0);                                                              \
        return (C){l.re / ln10, l.im / ln10};                                                     \
    }                                                                                             \
    static inline C cpu_cx_reciprocal_##X(C a) {                                                  \
        const R d = a.re * a.re + a.im * a.im;                                                    \
        return (C){a.re / d, -a.im / d};                                                          \
    }                                                                                             \
    static inline C cpu_cx_rsqrt_##X(C a) { return cpu_cx_reciprocal_##X(cpu_cx_sqrt_##X(a)); }  \
    static inline C cpu_cx_sgn_##X(C a) {                                                         \
        const R m = sqrt##FN(a.re * a.re + a.im * a.im);                                          \
        return m == 0 ? (C){0, 0} : (C){a.re / m, a.im / m};                                      \
    }
CPU_CX_ARITH(cpu_cf, float, f, float _Complex, CMPLXF, f)
CPU_CX_ARITH(cpu_cd, double, d, double _Complex, CMPLX, )
#undef CPU_CX_ARITH

/* The helper of compute type S's suffix: CPU_CX(mul, c64) is cpu_cx_mul_f. */
#define CPU_CX(OP, S) CPU_CAT4(cpu_cx_, OP, _, CPU_SFX_##S)

/* ---- binary loops ---- */

/* The scalar a binary complex kernel multiplies its second operand by (add's and sub's alpha, 1
 * otherwise), in double; each loop converts it to its compute type. */
typedef struct cpu_cx_ctx {
    cpu_cd alpha;
} cpu_cx_ctx;

/* BODY(X, x, y) of the helper suffix X (f or d), through a call that expands X first. */
#define CPU_CX_BODY(BODY, X, x, y) BODY(X, x, y)

/* As loops.h's binary loops, for inputs of complex suffix S: all-contiguous and broadcast-scalar
 * branches that vectorise, a strided one for the rest. BODY(X, x, y) computes on S's compute type
 * and may read `alpha`; STORE turns its value into a TO. Inputs are read before the output is
 * written, so in-place ops are correct. */
#define CPU_CX_BINARY_LOOP(NAME, S, TO, STORE, BODY)                                                \
    static void NAME(int64_t n, char *const *p, const int64_t *s, void *vctx) {                    \
        typedef CPU_C_##S cx_t;                                                                    \
        typedef CPU_CAT(CPU_R_, CPU_SFX_##S) part_t;                                               \
        const cpu_cx_ctx *ctx = vctx;                                                              \
        const cx_t alpha = {(part_t)ctx->alpha.re, (part_t)ctx->alpha.im};                         \
        TO *o = (TO *)p[0];                                                                        \
        const CPU_T_##S *a = (const CPU_T_##S *)p[1], *b = (const CPU_T_##S *)p[2];                \
        (void)alpha;                                                                               \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1) {                                                 \
            for (int64_t i = 0; i < n; i++)                                                        \
                o[i] = STORE(CPU_CX_BODY(BODY, CPU_SFX_##S, cpu_ld_##S(a[i]), cpu_ld_##S(b[i])));  \
        } else if (s[0] == 1 && s[1] == 1 && s[2] == 0) {                                          \
            const cx_t y = cpu_ld_##S(b[0]);                                                       \
            for (int64_t i = 0; i < n; i++) o[i] = STORE(CPU_CX_BODY(BODY, CPU_SFX_##S, cpu_ld_##S(a[i]), y)); \
        } else if (s[0] == 1 && s[1] == 0 && s[2] == 1) {                                          \
            const cx_t x = cpu_ld_##S(a[0]);                                                       \
            for (int64_t i = 0; i < n; i++) o[i] = STORE(CPU_CX_BODY(BODY, CPU_SFX_##S, x, cpu_ld_##S(b[i]))); \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++)                                                        \
                o[i * s[0]] = STORE(CPU_CX_BODY(BODY, CPU_SFX_##S, cpu_ld_##S(a[i * s[1]]),         \
                                                cpu_ld_##S(b[i * s[2]])));                        \
        }                                                                                          \
    }

/* Runs a binary complex loop: outputs[0] = f(inputs[0], inputs[1]); alpha from scalars[0] (any
 * kind; default 1), negated when `negate` (sub is add of -alpha, as in PyTorch). */
int cpu_cx_binary_apply(const tc_kernel_args *args, cpu_loop_fn loop, const char *op, int negate);
/* The same for nin (1 to 3) inputs: outputs[0] = f(inputs[0..nin)), the loop's context a cpu_cx_ctx. */
int cpu_cx_apply(const tc_kernel_args *args, int nin, cpu_loop_fn loop, const char *op, int negate);

#endif
