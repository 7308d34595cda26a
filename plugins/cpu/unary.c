/*
 * unary.c - elementwise ops of one tensor: neg, abs, relu (all but bool) and the float-only
 * exp, log, sqrt, sin, cos, tanh, sigmoid.
 *
 * Bodies BODY_<op>_<kind>(C, U, x) as in binary.c; the 16-bit floats compute in float, and
 * <tgmath.h> picks the float or double libm function from the compute type.
 */
#include <tgmath.h>

#include "cpu.h"
#include "dtype.h"
#include "loops.h"

/* 1/(1+e^-x) overflows e^-x for very negative x; the mirrored form never exponentiates a positive
 * number, so neither branch overflows. */
#define DEF_SIGMOID(C, SUFFIX)                                                                     \
    static inline C sigmoid_##SUFFIX(C x) {                                                        \
        if (x >= 0) return (C)1 / ((C)1 + exp(-x));                                                \
        C e = exp(x);                                                                              \
        return e / ((C)1 + e);                                                                     \
    }
DEF_SIGMOID(float, f)
DEF_SIGMOID(double, d)
#undef DEF_SIGMOID

#define BODY_neg_KU(C, U, x) ((U)0 - (U)(x))
#define BODY_neg_KI BODY_neg_KU
#define BODY_neg_KF(C, U, x) (-(x))

#define BODY_abs_KU(C, U, x) (x)
#define BODY_abs_KI(C, U, x) ((x) < 0 ? (U)0 - (U)(x) : (U)(x))
#define BODY_abs_KF(C, U, x) fabs(x)

#define BODY_relu_KU(C, U, x) (x)
#define BODY_relu_KI(C, U, x) ((x) > 0 ? (x) : 0)
#define BODY_relu_KF(C, U, x) ((((x) >= 0) | ((x) != (x))) ? (x) : (C)0) /* NaN and -0 stay, as clamp_min's */

#define BODY_exp_KF(C, U, x) exp(x)
#define BODY_log_KF(C, U, x) log(x)
#define BODY_sqrt_KF(C, U, x) sqrt(x)
#define BODY_sin_KF(C, U, x) sin(x)
#define BODY_cos_KF(C, U, x) cos(x)
#define BODY_tanh_KF(C, U, x) tanh(x)
#define BODY_sigmoid_KF(C, U, x) _Generic((x), float: sigmoid_f, double: sigmoid_d)(x)

#define UNARY_OPS(X)                                                                               \
    X(neg, CPU_DTYPES_NUMERIC)                                                                     \
    X(abs, CPU_DTYPES_NUMERIC)                                                                     \
    X(relu, CPU_DTYPES_NUMERIC)                                                                    \
    X(exp, CPU_DTYPES_FLOAT)                                                                       \
    X(log, CPU_DTYPES_FLOAT)                                                                       \
    X(sqrt, CPU_DTYPES_FLOAT)                                                                      \
    X(sin, CPU_DTYPES_FLOAT)                                                                       \
    X(cos, CPU_DTYPES_FLOAT)                                                                       \
    X(tanh, CPU_DTYPES_FLOAT)                                                                      \
    X(sigmoid, CPU_DTYPES_FLOAT)

#define STAMP(OP, S)                                                                               \
    CPU_UNARY_LOOP(loop_##OP##_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,        \
                   cpu_st_##S, CPU_CAT(BODY_##OP##_, CPU_K_##S))                                   \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_unary_apply(args, loop_##OP##_##S, #OP);                                        \
    }
#define STAMP_OP(OP, DTYPES) DTYPES(STAMP, OP)
UNARY_OPS(STAMP_OP)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP, DTYPES) DTYPES(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {UNARY_OPS(ENTRY_OP)};
CPU_KERNEL_TABLE(kernels);
