/*
 * classify.c - tests of values, bool out: isnan, isinf, isfinite, isposinf, isneginf. Integers and
 * bool are always finite. A complex64/complex128 value is NaN (inf) when either part is, finite when
 * both are, as in PyTorch; isposinf/isneginf refuse complex tensors in the core.
 */
#include <math.h>

#include "complex.h"
#include "cpu.h"
#include "dtype.h"
#include "loops.h"

#define BODY_isnan_KF(C, U, x) ((x) != (x))
#define BODY_isinf_KF(C, U, x) (fabs((double)(x)) == INFINITY)
#define BODY_isfinite_KF(C, U, x) (fabs((double)(x)) < INFINITY) /* false for NaN */
#define BODY_isposinf_KF(C, U, x) ((x) == (C)INFINITY)
#define BODY_isneginf_KF(C, U, x) ((x) == -(C)INFINITY)
#define BODY_isnan_KI(C, U, x) ((void)(x), 0)
#define BODY_isinf_KI(C, U, x) ((void)(x), 0)
#define BODY_isfinite_KI(C, U, x) ((void)(x), 1)
#define BODY_isposinf_KI(C, U, x) ((void)(x), 0)
#define BODY_isneginf_KI(C, U, x) ((void)(x), 0)
#define BODY_isnan_KC(C, U, x) ((x).re != (x).re || (x).im != (x).im)
#define BODY_isinf_KC(C, U, x) (fabs((double)(x).re) == INFINITY || fabs((double)(x).im) == INFINITY)
#define BODY_isfinite_KC(C, U, x) (fabs((double)(x).re) < INFINITY && fabs((double)(x).im) < INFINITY)
#define TO_BOOL(v) ((uint8_t)(v))

/* integers and bool share the integer bodies */
#define KIND(S) CPU_CAT(KIND_, CPU_K_##S)
#define KIND_KB KI
#define KIND_KU KI
#define KIND_KI KI
#define KIND_KF KF
#define KIND_KC KC

#define STAMP(OP, S)                                                                               \
    CPU_UNARY_LOOP(loop_##OP##_##S, uint8_t, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S, TO_BOOL,  \
                   CPU_CAT4(BODY_, OP, _, KIND(S)))                                                \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_unary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                         \
    }
#define OPS(X) X(isnan) X(isinf) X(isfinite) X(isposinf) X(isneginf)
#define CX_OPS(X) X(isnan) X(isinf) X(isfinite)
#define STAMP_OP(OP) CPU_DTYPES_ALL(STAMP, OP)
#define STAMP_CX_OP(OP) CPU_DTYPES_COMPLEX_FULL(STAMP, OP)
OPS(STAMP_OP)
CX_OPS(STAMP_CX_OP)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP) CPU_DTYPES_ALL(ENTRY, OP)
#define ENTRY_CX_OP(OP) CPU_DTYPES_COMPLEX_FULL(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {OPS(ENTRY_OP) CX_OPS(ENTRY_CX_OP)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
