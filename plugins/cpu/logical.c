/*
 * logical.c - logical_and, logical_or, logical_xor, logical_not: any dtype in (nonzero is true, NaN
 * included), bool out.
 */
#include "cpu.h"
#include "dtype.h"
#include "loops.h"

#define BODY_logical_and(C, U, x, y) (((x) != 0) & ((y) != 0))
#define BODY_logical_or(C, U, x, y) (((x) != 0) | ((y) != 0))
#define BODY_logical_xor(C, U, x, y) (((x) != 0) ^ ((y) != 0))
#define BODY_logical_not(C, U, x) ((x) == 0)
#define TO_BOOL(v) ((uint8_t)(v))

#define STAMP2(OP, S)                                                                              \
    CPU_BINARY_LOOP(loop_##OP##_##S, uint8_t, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S, TO_BOOL, \
                    BODY_##OP)                                                                     \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_binary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                        \
    }
#define STAMP1(OP, S)                                                                              \
    CPU_UNARY_LOOP(loop_##OP##_##S, uint8_t, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S, TO_BOOL,  \
                   BODY_##OP)                                                                      \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_unary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                         \
    }
#define BINARY_OPS(X) X(logical_and) X(logical_or) X(logical_xor)
#define STAMP2_OP(OP) CPU_DTYPES_ALL(STAMP2, OP)
BINARY_OPS(STAMP2_OP)
CPU_DTYPES_ALL(STAMP1, logical_not)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP) CPU_DTYPES_ALL(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {BINARY_OPS(ENTRY_OP) ENTRY_OP(logical_not)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
