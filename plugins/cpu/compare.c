/*
 * compare.c - elementwise comparisons eq, ne, lt, le, gt, ge: inputs of one dtype, a bool output.
 *
 * The 16-bit floats compare as floats; NaN compares unequal to everything, as in IEEE 754.
 */
#include "cpu.h"
#include "dtype.h"
#include "loops.h"

#define BODY_eq(C, U, x, y) ((x) == (y))
#define BODY_ne(C, U, x, y) ((x) != (y))
#define BODY_lt(C, U, x, y) ((x) < (y))
#define BODY_le(C, U, x, y) ((x) <= (y))
#define BODY_gt(C, U, x, y) ((x) > (y))
#define BODY_ge(C, U, x, y) ((x) >= (y))

#define TO_BOOL(v) ((uint8_t)(v))

#define COMPARE_OPS(X) X(eq) X(ne) X(lt) X(le) X(gt) X(ge)

#define STAMP(OP, S)                                                                               \
    CPU_BINARY_LOOP(loop_##OP##_##S, uint8_t, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,         \
                    TO_BOOL, BODY_##OP)                                                            \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_binary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                        \
    }
#define STAMP_OP(OP) CPU_DTYPES_ALL(STAMP, OP)
COMPARE_OPS(STAMP_OP)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP) CPU_DTYPES_ALL(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {COMPARE_OPS(ENTRY_OP)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
