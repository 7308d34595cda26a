/*
 * complex_unary.c - complex elementwise ops of one operand: neg and conj_physical (complex32 too),
 * exp, log, log2, log10, sqrt, rsqrt, reciprocal, sgn, the trigonometric and hyperbolic functions
 * and their inverses, sigmoid; abs and angle, whose results are real (complex32's abs
 * is float16, as in PyTorch); and angle of real tensors (pi for negative values, 0 otherwise, NaN
 * kept).
 *
 * Bodies are BODY(C, X, x) for loops.h's unary loop, whose U argument carries the helper suffix X.
 */
#include "complex.h"
#include "complex_vmath.h"
#include "cpu.h"
#include "loops.h"

#define BODY_neg(C, X, x) cpu_cx_neg_##X(x)
#define BODY_conj_physical(C, X, x) cpu_cx_conj_##X(x)
#define BODY_log(C, X, x) cpu_cx_log_##X(x)
#define BODY_sqrt(C, X, x) cpu_cx_sqrt_##X(x)
#define BODY_sin(C, X, x) cpu_cx_sin_##X(x)
#define BODY_cos(C, X, x) cpu_cx_cos_##X(x)
#define BODY_tanh(C, X, x) cpu_cx_tanh_##X(x)
#define BODY_sigmoid(C, X, x) cpu_cx_sigmoid_##X(x)
#define BODY_tan(C, X, x) cpu_cx_tan_##X(x)
#define BODY_sinh(C, X, x) cpu_cx_sinh_##X(x)
#define BODY_cosh(C, X, x) cpu_cx_cosh_##X(x)
#define BODY_asin(C, X, x) cpu_cx_asin_##X(x)
#define BODY_acos(C, X, x) cpu_cx_acos_##X(x)
#define BODY_atan(C, X, x) cpu_cx_atan_##X(x)
#define BODY_asinh(C, X, x) cpu_cx_asinh_##X(x)
#define BODY_acosh(C, X, x) cpu_cx_acosh_##X(x)
#define BODY_atanh(C, X, x) cpu_cx_atanh_##X(x)
#define BODY_log2(C, X, x) cpu_cx_log2_##X(x)
#define BODY_log10(C, X, x) cpu_cx_log10_##X(x)
#define BODY_reciprocal(C, X, x) cpu_cx_reciprocal_##X(x)
#define BODY_rsqrt(C, X, x) cpu_cx_rsqrt_##X(x)
#define BODY_sign(C, X, x) cpu_cx_sgn_##X(x) /* sgn's kernel; the meta keeps sign itself from complex */
#define BODY_abs(C, X, x) cpu_cx_abs_##X(x)
#define BODY_logical_not(C, X, x) ((uint8_t)((x).re == 0 && (x).im == 0)) /* true: both parts zero */
#define TO_BOOL(v) (v)
#define BODY_angle(C, X, x) cpu_cx_angle_##X(x)

/* The real dtype of each complex suffix's results (abs, angle). */
#define REAL_c32 f16
#define REAL_c64 f32
#define REAL_c128 f64

#define STAMP_TO(OP, S, TO, STORE)                                                                 \
    CPU_UNARY_LOOP(loop_##OP##_##S, TO, CPU_T_##S, CPU_C_##S, CPU_SFX_##S, cpu_ld_##S, STORE, BODY_##OP) \
    static int k_##OP##_##S(const tc_kernel_args *args) { return cpu_unary_apply(args, loop_##OP##_##S, #OP); }
#define STAMP(OP, S) STAMP_TO(OP, S, CPU_T_##S, cpu_st_##S)
/* exp of complex64 and complex128 on complex_vmath.h's vectors, contiguous or not */
#define STAMP_VECTOR(OP, S)                                                                        \
    static void loop_##OP##_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {         \
        (void)vctx;                                                                                \
        CPU_CX(OP##_array, S)((const CPU_T_##S *)p[1], s[1], (CPU_T_##S *)p[0], s[0], n);          \
    }                                                                                              \
    static int k_##OP##_##S(const tc_kernel_args *args) { return cpu_unary_apply(args, loop_##OP##_##S, #OP); }
#define STAMP_REAL(OP, S) STAMP_TO(OP, S, CPU_CAT(CPU_T_, REAL_##S), CPU_CAT(cpu_st_, REAL_##S))
#define STAMP_BOOL(OP, S) STAMP_TO(OP, S, uint8_t, TO_BOOL)

#define COMPLEX_UNARY_OPS(X)                                                                       \
    X(neg, CPU_DTYPES_COMPLEX, STAMP)                                                              \
    X(conj_physical, CPU_DTYPES_COMPLEX, STAMP)                                                    \
    X(exp, CPU_DTYPES_COMPLEX_FULL, STAMP_VECTOR)                                                  \
    X(log, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                         \
    X(sqrt, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                        \
    X(sin, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                         \
    X(cos, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                         \
    X(tanh, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                        \
    X(sigmoid, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                     \
    X(tan, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                         \
    X(sinh, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                        \
    X(cosh, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                        \
    X(asin, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                        \
    X(acos, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                        \
    X(atan, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                        \
    X(asinh, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                       \
    X(acosh, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                       \
    X(atanh, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                       \
    X(log2, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                        \
    X(log10, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                       \
    X(reciprocal, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                  \
    X(rsqrt, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                       \
    X(sign, CPU_DTYPES_COMPLEX_FULL, STAMP)                                                        \
    X(logical_not, CPU_DTYPES_COMPLEX_FULL, STAMP_BOOL)                                            \
    X(abs, CPU_DTYPES_COMPLEX, STAMP_REAL)                                                         \
    X(angle, CPU_DTYPES_COMPLEX_FULL, STAMP_REAL)

#define STAMP_OP(OP, DTYPES, HOW) DTYPES(HOW, OP)
COMPLEX_UNARY_OPS(STAMP_OP)

/* angle of real values, in the compute type of loops.h's floating dtypes */
#define BODY_angle_real(C, U, x) ((x) != (x) ? (x) : (x) < 0 ? (C)3.14159265358979323846 : (C)0)
#define STAMP_ANGLE_REAL(_, S)                                                                     \
    CPU_UNARY_LOOP(loop_angle_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S, cpu_st_##S, \
                   BODY_angle_real)                                                                \
    static int k_angle_##S(const tc_kernel_args *args) { return cpu_unary_apply(args, loop_angle_##S, "angle"); }
CPU_DTYPES_FLOAT(STAMP_ANGLE_REAL, _)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP, DTYPES, HOW) DTYPES(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {COMPLEX_UNARY_OPS(ENTRY_OP) CPU_DTYPES_FLOAT(ENTRY, angle)};
CPU_KERNEL_TABLE(kernels);
