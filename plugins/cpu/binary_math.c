/*
 * binary_math.c - math of two tensors beyond arithmetic: atan2, hypot, copysign, nextafter, xlogy,
 * heaviside, fmax, fmin, gcd, lcm.
 *
 * Bodies BODY_<op>_<kind>(C, U, x, y) as in binary.c, stamped with loops.h; the 16-bit floats
 * compute in float. nextafter, fmax and fmin have bodies per floating dtype, BODY_<op>_<suffix>:
 * float16's and bfloat16's next value is one of their own format, and PyTorch orders their equal
 * zeros differently.
 */
#include <tgmath.h>

#include "cpu.h"
#include "dtype.h"
#include "loops.h"

/* xlogy: 0 where x is 0 (log(0) notwithstanding), NaN where y is NaN. */
#define DEF_XLOGY(C, SUFFIX)                                                                       \
    static inline C xlogy_##SUFFIX(C x, C y) {                                                     \
        if (y != y) return y;                                                                      \
        if (x == 0) return 0;                                                                      \
        return x * log(y);                                                                         \
    }
DEF_XLOGY(float, f)
DEF_XLOGY(double, d)

/* nextafter in a 16-bit float format held as float: step the storage bits (sign and magnitude). */
static inline float next16(float x, float y, int bf16) {
    if (x != x || y != y) return x + y;
    if (x == y) return y;
    uint16_t bits;
    if (bf16) {
        bits = cpu_f32_to_bf16(x);
    } else {
        _Float16 h = cpu_st_f16(x);
        memcpy(&bits, &h, sizeof bits);
    }
    if (x == 0) bits = (uint16_t)((y < 0 ? 0x8000u : 0) | 1u); /* the smallest subnormal toward y */
    else if ((x < y) == (x > 0)) bits++;
    else bits--;
    if (bf16) return cpu_bf16_to_f32(bits);
    _Float16 h;
    memcpy(&h, &bits, sizeof h);
    return cpu_ld_f16(h);
}

#define FLOAT_FN(name, x) _Generic((x), float: name##_f, double: name##_d)

#define BODY_atan2_KF(C, U, x, y) atan2((x), (y))
#define BODY_hypot_KF(C, U, x, y) hypot((x), (y))
#define BODY_copysign_KF(C, U, x, y) copysign((x), (y))
#define BODY_xlogy_KF(C, U, x, y) FLOAT_FN(xlogy, x)((x), (y))
#define BODY_nextafter_f32(C, U, x, y) nextafter((x), (y))
#define BODY_nextafter_f64 BODY_nextafter_f32
#define BODY_nextafter_f16(C, U, x, y) next16((x), (y), 0)
#define BODY_nextafter_bf16(C, U, x, y) next16((x), (y), 1)

/* heaviside(x, v): v where x is 0, else x > 0 (so NaN gives 0) */
#define BODY_heaviside_KB(C, U, x, y) ((x) == 0 ? (y) : (C)((x) > 0))
#define BODY_heaviside_KU BODY_heaviside_KB
#define BODY_heaviside_KI BODY_heaviside_KB
#define BODY_heaviside_KF BODY_heaviside_KB

/* fmax/fmin ignore a NaN operand; of two equal values (0.0 and -0.0) the first, as glibc's fmax,
 * which PyTorch calls, returns; PyTorch's float16/bfloat16 kernels return the second */
#define BODY_fmax_KB(C, U, x, y) ((x) >= (y) || (y) != (y) ? (x) : (y))
#define BODY_fmax_KU BODY_fmax_KB
#define BODY_fmax_KI BODY_fmax_KB
#define BODY_fmax_f32 BODY_fmax_KB
#define BODY_fmax_f64 BODY_fmax_KB
#define BODY_fmax_f16(C, U, x, y) ((x) > (y) || (y) != (y) ? (x) : (y))
#define BODY_fmax_bf16 BODY_fmax_f16
#define BODY_fmin_KB(C, U, x, y) ((x) <= (y) || (y) != (y) ? (x) : (y))
#define BODY_fmin_KU BODY_fmin_KB
#define BODY_fmin_KI BODY_fmin_KB
#define BODY_fmin_f32 BODY_fmin_KB
#define BODY_fmin_f64 BODY_fmin_KB
#define BODY_fmin_f16(C, U, x, y) ((x) < (y) || (y) != (y) ? (x) : (y))
#define BODY_fmin_bf16 BODY_fmin_f16

/* gcd and lcm of integers as PyTorch computes them in the dtype: |a| and |b| wrapping (the most
 * negative value stays itself), Euclid's remainders, lcm |a / gcd * b| wrapping, 0 for two zeros. A
 * remainder or quotient by -1, reachable only from the most negative value, is taken as its exact
 * result, where C's division would trap. */
#define GCD_ABS_KU(U, x) (x)
#define GCD_ABS_KI(U, x) ((x) < 0 ? (__typeof__(x))((U)0 - (U)(x)) : (x))
#define GCD_BY_MINUS_ONE_KU(a) 0
#define GCD_BY_MINUS_ONE_KI(a) ((a) == -1)
#define GCD_STAMP(_, S)                                                                            \
    static inline CPU_C_##S gcd_##S(CPU_C_##S x, CPU_C_##S y) {                                    \
        CPU_C_##S a = CPU_CAT(GCD_ABS_, CPU_K_##S)(CPU_U_##S, x), b = CPU_CAT(GCD_ABS_, CPU_K_##S)(CPU_U_##S, y); \
        while (a != 0) {                                                                           \
            const CPU_C_##S c = a;                                                                 \
            a = CPU_CAT(GCD_BY_MINUS_ONE_, CPU_K_##S)(a) ? 0 : (CPU_C_##S)(b % a);                 \
            b = c;                                                                                 \
        }                                                                                          \
        return b;                                                                                  \
    }                                                                                              \
    /* a / g * b and its magnitude in C's promoted width (int for the narrow types), then narrowed */ \
    static inline CPU_C_##S lcm_##S(CPU_C_##S x, CPU_C_##S y) {                                    \
        const CPU_C_##S g = gcd_##S(x, y);                                                         \
        if (g == 0) return 0;                                                                      \
        const CPU_U_##S q = CPU_CAT(GCD_BY_MINUS_ONE_, CPU_K_##S)(g) ? (CPU_U_##S)0 - (CPU_U_##S)x   \
                                                                    : (CPU_U_##S)(x / g);          \
        const CPU_U_##S r = q * (CPU_U_##S)y;                                                      \
        return (CPU_C_##S)(r >> (sizeof r * 8 - 1) ? (CPU_U_##S)0 - r : r);                        \
    }
CPU_DTYPES_INT(GCD_STAMP, _)

#define OPS(X)                                                                                     \
    X(atan2, CPU_DTYPES_FLOAT)                                                                     \
    X(hypot, CPU_DTYPES_FLOAT)                                                                     \
    X(copysign, CPU_DTYPES_FLOAT)                                                                  \
    X(xlogy, CPU_DTYPES_FLOAT)                                                                     \
    X(heaviside, CPU_DTYPES_ALL)                                                                   \
    X(fmax, CPU_DTYPES_BOOL)                                                                       \
    X(fmax, CPU_DTYPES_INT)                                                                        \
    X(fmin, CPU_DTYPES_BOOL)                                                                       \
    X(fmin, CPU_DTYPES_INT)
#define PER_DTYPE_OPS(X) X(nextafter) X(fmax) X(fmin) /* floating dtypes, a body each */
#define INT_FN_OPS(X) X(gcd) X(lcm)                     /* integer dtypes, gcd_S / lcm_S above */

#define STAMP_BODY(NAME, S, BODY)                                                                  \
    CPU_BINARY_LOOP(loop_##NAME##_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,     \
                    cpu_st_##S, BODY)                                                              \
    static int k_##NAME##_##S(const tc_kernel_args *args) {                                        \
        return cpu_binary_apply_as(args, loop_##NAME##_##S, #NAME, CPU_DT_##S);                    \
    }
#define STAMP(OP, S) STAMP_BODY(OP, S, CPU_CAT(BODY_##OP##_, CPU_K_##S))
#define STAMP_OP(OP, DTYPES) DTYPES(STAMP, OP)
#define STAMP_PER_DTYPE(OP, S) STAMP_BODY(OP, S, BODY_##OP##_##S)
#define STAMP_PER_DTYPE_OP(OP) CPU_DTYPES_FLOAT(STAMP_PER_DTYPE, OP)
OPS(STAMP_OP)
PER_DTYPE_OPS(STAMP_PER_DTYPE_OP)
/* the integer dtypes' compute types are distinct C types, so the value picks its function */
#define BODY_gcd(C, U, x, y) _Generic((x), uint8_t: gcd_u8, int8_t: gcd_i8, int16_t: gcd_i16, int32_t: gcd_i32, \
                                      int64_t: gcd_i64)(x, y)
#define BODY_lcm(C, U, x, y) _Generic((x), uint8_t: lcm_u8, int8_t: lcm_i8, int16_t: lcm_i16, int32_t: lcm_i32, \
                                      int64_t: lcm_i64)(x, y)
#define STAMP_INT_FN(OP, S) STAMP_BODY(OP, S, BODY_##OP)
#define STAMP_INT_FN_OP(OP) CPU_DTYPES_INT(STAMP_INT_FN, OP)
INT_FN_OPS(STAMP_INT_FN_OP)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP, DTYPES) DTYPES(ENTRY, OP)
#define ENTRY_PER_DTYPE_OP(OP) CPU_DTYPES_FLOAT(ENTRY, OP)
#define ENTRY_INT_FN_OP(OP) CPU_DTYPES_INT(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {OPS(ENTRY_OP) PER_DTYPE_OPS(ENTRY_PER_DTYPE_OP) INT_FN_OPS(ENTRY_INT_FN_OP)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
