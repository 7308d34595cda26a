/*
 * unary.c - elementwise ops of one tensor that keep its dtype: neg, abs, relu (all but bool). The
 * float functions (exp, log, sin, ...) are in transcendental.c.
 *
 * Bodies BODY_<op>_<kind>(C, U, x) as in binary.c; the 16-bit floats compute in float, and
 * <tgmath.h> picks the float or double libm function from the compute type.
 */
#include <tgmath.h>

#include "cpu.h"
#include "dtype.h"
#include "loops.h"

#define BODY_neg_KU(C, U, x) ((U)0 - (U)(x))
#define BODY_neg_KI BODY_neg_KU
#define BODY_neg_KF(C, U, x) (-(x))

#define BODY_abs_KU(C, U, x) (x)
#define BODY_abs_KI(C, U, x) ((x) < 0 ? (U)0 - (U)(x) : (U)(x))
#define BODY_abs_KF(C, U, x) fabs(x)

#define BODY_relu_KU(C, U, x) (x)
#define BODY_relu_KI(C, U, x) ((x) > 0 ? (x) : 0)
#define BODY_relu_KF(C, U, x) ((((x) >= 0) | ((x) != (x))) ? (x) : (C)0) /* NaN and -0 stay, as clamp_min's */

#define UNARY_OPS(X)                                                                               \
    X(neg, CPU_DTYPES_NUMERIC)                                                                     \
    X(abs, CPU_DTYPES_NUMERIC)                                                                     \
    X(relu, CPU_DTYPES_NUMERIC)

#define STAMP(OP, S)                                                                               \
    CPU_UNARY_LOOP(loop_##OP##_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,        \
                   cpu_st_##S, CPU_CAT(BODY_##OP##_, CPU_K_##S))                                   \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_unary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                         \
    }
#define STAMP_OP(OP, DTYPES) DTYPES(STAMP, OP)
UNARY_OPS(STAMP_OP)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP, DTYPES) DTYPES(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {UNARY_OPS(ENTRY_OP)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
