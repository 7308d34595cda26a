/*
 * binary_math.c - math of two tensors beyond arithmetic: atan2, hypot, copysign, nextafter, xlogy,
 * fmod, heaviside, fmax, fmin.
 *
 * Bodies BODY_<op>_<kind>(C, U, x, y) as in binary.c, stamped with loops.h; the 16-bit floats
 * compute in float, except nextafter, whose next value is one of the 16-bit format.
 */
#include <tgmath.h>

#include "cpu.h"
#include "dtype.h"
#include "loops.h"

/* C's fmod truncates like PyTorch's integer fmod; x % 0 would trap, and INT64_MIN % -1 too. */
static inline uint64_t fmod_u(uint64_t x, uint64_t y, int *err) {
    if (y == 0) {
        *err |= CPU_ERR_ZERO_DIVISION;
        return 0;
    }
    return x % y;
}

static inline int64_t fmod_i(int64_t x, int64_t y, int *err) {
    if (y == 0) {
        *err |= CPU_ERR_ZERO_DIVISION;
        return 0;
    }
    return y == -1 ? 0 : x % y;
}

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
#define BODY_nextafter_KF(C, U, x, y) nextafter((x), (y))
#define BODY_nextafter16(C, U, x, y) next16((x), (y), 0)
#define BODY_nextafterb16(C, U, x, y) next16((x), (y), 1)

#define BODY_fmod_KU(C, U, x, y) fmod_u((x), (y), &err)
#define BODY_fmod_KI(C, U, x, y) fmod_i((x), (y), &err)
#define BODY_fmod_KF(C, U, x, y) fmod((x), (y))

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
#define BODY_fmax_KF BODY_fmax_KB
#define BODY_fmin_KB(C, U, x, y) ((x) <= (y) || (y) != (y) ? (x) : (y))
#define BODY_fmin_KU BODY_fmin_KB
#define BODY_fmin_KI BODY_fmin_KB
#define BODY_fmin_KF BODY_fmin_KB
#define BODY_fmax16(C, U, x, y) ((x) > (y) || (y) != (y) ? (x) : (y))
#define BODY_fmin16(C, U, x, y) ((x) < (y) || (y) != (y) ? (x) : (y))

#define OPS(X)                                                                                     \
    X(atan2, CPU_DTYPES_FLOAT)                                                                     \
    X(hypot, CPU_DTYPES_FLOAT)                                                                     \
    X(copysign, CPU_DTYPES_FLOAT)                                                                  \
    X(xlogy, CPU_DTYPES_FLOAT)                                                                     \
    X(fmod, CPU_DTYPES_NUMERIC)                                                                    \
    X(heaviside, CPU_DTYPES_ALL)                                                                   \
    X(fmax, CPU_DTYPES_BOOL)                                                                       \
    X(fmax, CPU_DTYPES_INT)                                                                        \
    X(fmin, CPU_DTYPES_BOOL)                                                                       \
    X(fmin, CPU_DTYPES_INT)

#define STAMP_BODY(NAME, S, BODY)                                                                  \
    CPU_BINARY_LOOP(loop_##NAME##_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,     \
                    cpu_st_##S, BODY)                                                              \
    static int k_##NAME##_##S(const tc_kernel_args *args) {                                        \
        return cpu_binary_apply_as(args, loop_##NAME##_##S, #NAME, CPU_DT_##S);                    \
    }
#define STAMP(OP, S) STAMP_BODY(OP, S, CPU_CAT(BODY_##OP##_, CPU_K_##S))
#define STAMP_OP(OP, DTYPES) DTYPES(STAMP, OP)
OPS(STAMP_OP)
STAMP_BODY(nextafter, f32, BODY_nextafter_KF)
STAMP_BODY(nextafter, f64, BODY_nextafter_KF)
STAMP_BODY(nextafter, f16, BODY_nextafter16)
STAMP_BODY(nextafter, bf16, BODY_nextafterb16)
STAMP_BODY(fmax, f32, BODY_fmax_KF)
STAMP_BODY(fmax, f64, BODY_fmax_KF)
STAMP_BODY(fmax, f16, BODY_fmax16)
STAMP_BODY(fmax, bf16, BODY_fmax16)
STAMP_BODY(fmin, f32, BODY_fmin_KF)
STAMP_BODY(fmin, f64, BODY_fmin_KF)
STAMP_BODY(fmin, f16, BODY_fmin16)
STAMP_BODY(fmin, bf16, BODY_fmin16)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP, DTYPES) DTYPES(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {OPS(ENTRY_OP) CPU_DTYPES_FLOAT(ENTRY, nextafter)
                                               CPU_DTYPES_FLOAT(ENTRY, fmax) CPU_DTYPES_FLOAT(ENTRY, fmin)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
