/*
 * rounding.c - rounding and sign ops: floor, ceil, round (half to even, and to `decimals` places),
 * trunc, frac, sign, signbit, nan_to_num.
 *
 * Floating dtypes go through the float driver (float_unary.h); integers hold no fraction, NaN or
 * infinity, so floor/ceil/round/trunc/nan_to_num pass them through unchanged. sign and signbit are
 * stamped for every dtype with loops.h.
 */
#include <math.h>

#include "cpu.h"
#include "dtype.h"
#include "float_unary.h"
#include "loops.h"

CPU_FU_MAP(floor, floorf(v), floor(v))
CPU_FU_MAP(ceil, ceilf(v), ceil(v))
CPU_FU_MAP(round, nearbyintf(v), nearbyint(v))
CPU_FU_MAP(trunc, truncf(v), trunc(v))
CPU_FU_MAP(frac, v - truncf(v), v - trunc(v))
/* PyTorch's sign is (0 < x) - (x < 0): NaN and -0.0 give +0.0 */
CPU_FU_MAP(sign, (float)((0 < v) - (v < 0)), (double)((0 < v) - (v < 0)))

/* round(x, decimals): x * 10^d rounded half to even, divided back (x / 10^-d for negative d), as
 * PyTorch computes it: 10^d in the tensor's dtype, and for float16/bfloat16 the scaled value rounded
 * to the 16-bit type before it is rounded to an integer. */
#define DEF_ROUND_DECIMALS(S, C, NEARBYINT)                                                        \
    static void fu_round_decimals_##S(const C *x, C *y, int64_t n, const cpu_fu_params *p) {      \
        const int64_t d = p->i < 0 ? -p->i : p->i;                                                 \
        const C ten = (C)cpu_fu_round16((C)pow(10.0, (double)d), p->dtype);                        \
        const int half = p->dtype == TC_FLOAT16 || p->dtype == TC_BFLOAT16;                        \
        for (int64_t i = 0; i < n; i++) {                                                          \
            C scaled = p->i < 0 ? x[i] / ten : x[i] * ten;                                         \
            if (half) scaled = (C)cpu_fu_round16(scaled, p->dtype);                                \
            y[i] = p->i < 0 ? NEARBYINT(scaled) * ten : NEARBYINT(scaled) / ten;                   \
        }                                                                                          \
    }
DEF_ROUND_DECIMALS(f32, float, nearbyintf)
DEF_ROUND_DECIMALS(f64, double, nearbyint)

/* nan_to_num: scalars f[0..2] replace NaN, +inf and -inf (converted to the dtype when stored). */
#define DEF_NAN_TO_NUM(S, C)                                                                       \
    static void fu_nan_to_num_##S(const C *x, C *y, int64_t n, const cpu_fu_params *p) {          \
        const C nan_v = (C)p->f[0], pos = (C)p->f[1], neg = (C)p->f[2];                            \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const C v = x[i];                                                                      \
            y[i] = v != v ? nan_v : v == (C)INFINITY ? pos : v == -(C)INFINITY ? neg : v;          \
        }                                                                                          \
    }
DEF_NAN_TO_NUM(f32, float)
DEF_NAN_TO_NUM(f64, double)

#define FLOAT_OPS(X) X(floor) X(ceil) X(round) X(trunc) X(frac) X(sign) X(round_decimals) X(nan_to_num)
FLOAT_OPS(CPU_FU_KERNELS)

/* ---- integers and bool: identity, sign, signbit ---- */

#define BODY_same(C, U, x) (x)
#define BODY_sign_KB(C, U, x) (x)
#define BODY_sign_KU(C, U, x) ((x) > 0)
#define BODY_sign_KI(C, U, x) ((0 < (x)) - ((x) < 0))
#define BODY_signbit_KB(C, U, x) ((void)(x), 0)
#define BODY_signbit_KU(C, U, x) ((void)(x), 0)
#define BODY_signbit_KI(C, U, x) ((x) < 0)
/* the sign bit read from the bits (GCC 12 fails to vectorise signbit() over bfloat16 loads) */
static inline int sign_bit_f(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return (int)(u >> 31);
}
static inline int sign_bit_d(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (int)(u >> 63);
}
#define BODY_signbit_KF(C, U, x) _Generic((x), float: sign_bit_f, double: sign_bit_d)(x)
#define TO_BOOL(v) ((uint8_t)(v))

#define STAMP_INT(OP, S)                                                                           \
    CPU_UNARY_LOOP(loop_##OP##_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,        \
                   cpu_st_##S, BODY_same)                                                          \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_unary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                         \
    }
#define INT_IDENTITY_OPS(X) X(floor) X(ceil) X(round) X(trunc) X(nan_to_num)
#define STAMP_INT_OP(OP) CPU_DTYPES_INT(STAMP_INT, OP)
INT_IDENTITY_OPS(STAMP_INT_OP)
CPU_DTYPES_BOOL(STAMP_INT, nan_to_num)

#define STAMP_SIGN(_, S)                                                                           \
    CPU_UNARY_LOOP(loop_sign_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,          \
                   cpu_st_##S, CPU_CAT(BODY_sign_, CPU_K_##S))                                     \
    static int k_sign_##S(const tc_kernel_args *args) {                                            \
        return cpu_unary_apply_as(args, loop_sign_##S, "sign", CPU_DT_##S);                        \
    }
CPU_DTYPES_BOOL(STAMP_SIGN, _)
CPU_DTYPES_INT(STAMP_SIGN, _)

#define STAMP_SIGNBIT(_, S)                                                                        \
    CPU_UNARY_LOOP(loop_signbit_##S, uint8_t, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,         \
                   TO_BOOL, CPU_CAT(BODY_signbit_, CPU_K_##S))                                     \
    static int k_signbit_##S(const tc_kernel_args *args) {                                         \
        return cpu_unary_apply_as(args, loop_signbit_##S, "signbit", CPU_DT_##S);                  \
    }
CPU_DTYPES_ALL(STAMP_SIGNBIT, _)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define INT_ENTRIES(OP) CPU_DTYPES_INT(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {
    FLOAT_OPS(CPU_FU_ENTRIES) INT_IDENTITY_OPS(INT_ENTRIES) CPU_DTYPES_BOOL(ENTRY, nan_to_num)
    CPU_DTYPES_BOOL(ENTRY, sign) CPU_DTYPES_INT(ENTRY, sign) CPU_DTYPES_ALL(ENTRY, signbit)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
