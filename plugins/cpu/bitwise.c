/*
 * bitwise.c - bitwise_and, bitwise_or, bitwise_xor, bitwise_not (integers and bool) and the shifts
 * lshift, rshift (integers).
 *
 * Shifts behave as PyTorch's do on x86: the count is taken modulo the width the value is computed in
 * (32 bits for 8- to 32-bit dtypes, after C's integer promotion; 64 for int64), a left shift of a
 * negative value shifts its bits, and a right shift of a signed value fills with its sign.
 */
#include "cpu.h"
#include "dtype.h"
#include "loops.h"

#define BODY_bitwise_and(C, U, x, y) ((C)((x) & (y)))
#define BODY_bitwise_or(C, U, x, y) ((C)((x) | (y)))
#define BODY_bitwise_xor(C, U, x, y) ((C)((x) ^ (y)))

/* U is uint32_t up to int32 and uint64_t for int64: the width the count is reduced by */
#define SHIFT_MASK(U) ((U)(sizeof(U) * 8 - 1))
#define BODY_lshift(C, U, x, y) ((C)((U)(x) << ((U)(y) & SHIFT_MASK(U))))
#define BODY_rshift(C, U, x, y) ((C)((x) >> ((U)(y) & SHIFT_MASK(U))))

#define BODY_not_KB(C, U, x) (!(x))
#define BODY_not_KU(C, U, x) ((C)~(x))
#define BODY_not_KI BODY_not_KU

#define STAMP(OP, S)                                                                               \
    CPU_BINARY_LOOP(loop_##OP##_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,       \
                    cpu_st_##S, BODY_##OP)                                                         \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_binary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                        \
    }
#define LOGIC_OPS(X) X(bitwise_and) X(bitwise_or) X(bitwise_xor)
#define SHIFT_OPS(X) X(lshift) X(rshift)
#define STAMP_LOGIC(OP) CPU_DTYPES_BOOL(STAMP, OP) CPU_DTYPES_INT(STAMP, OP)
#define STAMP_SHIFT(OP) CPU_DTYPES_INT(STAMP, OP)
LOGIC_OPS(STAMP_LOGIC)
SHIFT_OPS(STAMP_SHIFT)

#define STAMP_NOT(_, S)                                                                            \
    CPU_UNARY_LOOP(loop_not_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,           \
                   cpu_st_##S, CPU_CAT(BODY_not_, CPU_K_##S))                                      \
    static int k_bitwise_not_##S(const tc_kernel_args *args) {                                     \
        return cpu_unary_apply_as(args, loop_not_##S, "bitwise_not", CPU_DT_##S);                  \
    }
CPU_DTYPES_BOOL(STAMP_NOT, _)
CPU_DTYPES_INT(STAMP_NOT, _)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_LOGIC(OP) CPU_DTYPES_BOOL(ENTRY, OP) CPU_DTYPES_INT(ENTRY, OP)
#define ENTRY_SHIFT(OP) CPU_DTYPES_INT(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {LOGIC_OPS(ENTRY_LOGIC) SHIFT_OPS(ENTRY_SHIFT) ENTRY_LOGIC(bitwise_not)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
