/*
 * ternary.c - elementwise ops of three tensors: clamp (self, min, max), lerp (self, end, weight),
 * addcmul and addcdiv (self, tensor1, tensor2, with scalars[0] = value).
 *
 * The meta functions hand every op all three inputs in one dtype (a missing clamp bound is the
 * dtype's extreme, lerp's Scalar weight a 0-dim tensor), so each is one stamped loop per dtype.
 */
#include <math.h>

#include "cpu.h"
#include "dtype.h"
#include "loops.h"

/* clamp: NaN in any input gives NaN (the x < lo / r > hi selects keep a NaN x; a NaN bound is
 * taken explicitly); with lo > hi the result is hi, as PyTorch's min(max(x, lo), hi). */
#define BODY_clamp_KB(C, U, x, lo, hi) ((x) < (lo) ? (lo) : (x) > (hi) ? (hi) : (x))
#define BODY_clamp_KU(C, U, x, lo, hi) (((x) < (lo) ? (lo) : (x)) > (hi) ? (hi) : ((x) < (lo) ? (lo) : (x)))
#define BODY_clamp_KI BODY_clamp_KU
#define BODY_clamp_KF(C, U, x, lo, hi)                                                             \
    ((lo) != (lo) ? (lo) : (hi) != (hi) ? (hi) : BODY_clamp_KU(C, U, x, lo, hi))

/* lerp: PyTorch's two-sided formula, exact at both ends */
#define BODY_lerp_KF(C, U, x, y, w)                                                                \
    (fabs((double)(w)) < 0.5 ? (x) + (w) * ((y) - (x)) : (y) - ((y) - (x)) * ((C)1 - (w)))

/* addcmul / addcdiv: self + value * t1 * t2 (or / t2), evaluated left to right as PyTorch does;
 * integers wrap */
#define BODY_addcmul_KU(C, U, x, y, z) ((U)(x) + alpha * (U)(y) * (U)(z))
#define BODY_addcmul_KI BODY_addcmul_KU
#define BODY_addcmul_KF(C, U, x, y, z) ((x) + alpha * (y) * (z))
#define BODY_addcdiv_KF(C, U, x, y, z) ((x) + alpha * (y) / (z))

#define OPS(X)                                                                                     \
    X(clamp, CPU_DTYPES_ALL)                                                                       \
    X(lerp, CPU_DTYPES_FLOAT)                                                                      \
    X(addcmul, CPU_DTYPES_NUMERIC)                                                                 \
    X(addcdiv, CPU_DTYPES_FLOAT)

#define STAMP(OP, S)                                                                               \
    CPU_TERNARY_LOOP(loop_##OP##_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,      \
                     cpu_st_##S, CPU_CAT(BODY_##OP##_, CPU_K_##S))                                 \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_ternary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                       \
    }
#define STAMP_OP(OP, DTYPES) DTYPES(STAMP, OP)
OPS(STAMP_OP)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP, DTYPES) DTYPES(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {OPS(ENTRY_OP)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
