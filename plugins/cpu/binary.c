/*
 * binary.c - arithmetic elementwise ops of two tensors: add, sub, mul, div, floor_divide, remainder,
 * fmod, pow (integers and the 16-bit floats; pow.c has float32 and float64), maximum, minimum.
 *
 * Each op is a BODY_<op>_<kind> macro per dtype kind it supports (KB bool, KU unsigned, KI signed,
 * KF floating; see dtype.h), stamped into one loop and one kernel per dtype by loops.h. Integer
 * arithmetic happens in the wrapping type U, so overflow wraps as in PyTorch; the 16-bit floats
 * compute in float.
 */
#include <tgmath.h>

#include "cpu.h"
#include "dtype.h"
#include "loops.h"

/* ---- integer helpers (Python semantics; division by zero is an error, not a trap) ---- */

static inline uint64_t floordiv_u(uint64_t x, uint64_t y, int *err) {
    if (y == 0) {
        *err |= CPU_ERR_ZERO_DIVISION;
        return 0;
    }
    return x / y;
}

static inline int64_t floordiv_i(int64_t x, int64_t y, int *err) {
    if (y == 0) {
        *err |= CPU_ERR_ZERO_DIVISION;
        return 0;
    }
    if (y == -1) return (int64_t)(0 - (uint64_t)x); /* INT64_MIN / -1 wraps instead of trapping */
    int64_t q = x / y;
    if (x % y != 0 && ((x < 0) != (y < 0))) q--;
    return q;
}

static inline uint64_t remainder_u(uint64_t x, uint64_t y, int *err) {
    if (y == 0) {
        *err |= CPU_ERR_ZERO_DIVISION;
        return 0;
    }
    return x % y;
}

/* C's truncating remainder (the sign of x): PyTorch's integer fmod */
static inline int64_t fmod_i(int64_t x, int64_t y, int *err) {
    if (y == 0) {
        *err |= CPU_ERR_ZERO_DIVISION;
        return 0;
    }
    return y == -1 ? 0 : x % y; /* INT64_MIN % -1 traps on x86 */
}

/* Python's remainder (the sign of y) */
static inline int64_t remainder_i(int64_t x, int64_t y, int *err) {
    int64_t r = fmod_i(x, y, err);
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return r;
}

/* Exponentiation by squaring modulo 2^64; narrower dtypes keep the low bits, which is the same
 * result as wrapping at their own width. */
static inline uint64_t pow_u(uint64_t base, uint64_t exp) {
    uint64_t result = 1;
    while (exp) {
        if (exp & 1) result *= base;
        base *= base;
        exp >>= 1;
    }
    return result;
}

/* A negative exponent gives the integer part of the true power, as PyTorch does: 1 for base 1,
 * +-1 for base -1, 0 otherwise. (The core rejects a negative Python-number exponent first.) */
static inline int64_t pow_i(int64_t base, int64_t exp) {
    if (exp < 0) return base == 1 ? 1 : base == -1 ? ((exp & 1) ? -1 : 1) : 0;
    return (int64_t)pow_u((uint64_t)base, (uint64_t)exp);
}

/* ---- floating helpers (PyTorch's div_floor and remainder for floats) ---- */

#define DEF_FLOAT_HELPERS(C, SUFFIX)                                                               \
    static inline C floordiv_##SUFFIX(C a, C b) {                                                  \
        if (b == 0) return a / b;                                                                  \
        C mod = fmod(a, b);                                                                        \
        C div = (a - mod) / b;                                                                     \
        if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;                                          \
        if (div == 0) return copysign((C)0, a / b);                                                \
        C floordiv = floor(div);                                                                   \
        if (div - floordiv > (C)0.5) floordiv += 1;                                                \
        return floordiv;                                                                           \
    }                                                                                              \
    static inline C remainder_##SUFFIX(C a, C b) {                                                 \
        C mod = fmod(a, b);                                                                        \
        if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;                                          \
        return mod;                                                                                \
    }
DEF_FLOAT_HELPERS(float, f)
DEF_FLOAT_HELPERS(double, d)
#undef DEF_FLOAT_HELPERS

#define FLOAT_FN(name, x) _Generic((x), float: name##_f, double: name##_d)

/* ---- op bodies: BODY_<op>_<kind>(C, U, x, y) ---- */

#define BODY_add_KB(C, U, x, y) ((x) | (y))
#define BODY_add_KU(C, U, x, y) ((U)(x) + alpha * (U)(y))
#define BODY_add_KI BODY_add_KU
#define BODY_add_KF(C, U, x, y) ((x) + alpha * (y))

#define BODY_sub_KU(C, U, x, y) ((U)(x) - alpha * (U)(y))
#define BODY_sub_KI BODY_sub_KU
#define BODY_sub_KF(C, U, x, y) ((x) - alpha * (y))

#define BODY_mul_KB(C, U, x, y) ((x) & (y))
#define BODY_mul_KU(C, U, x, y) ((U)(x) * (U)(y))
#define BODY_mul_KI BODY_mul_KU
#define BODY_mul_KF(C, U, x, y) ((x) * (y))

#define BODY_div_KF(C, U, x, y) ((x) / (y))

#define BODY_floor_divide_KU(C, U, x, y) floordiv_u((x), (y), &err)
#define BODY_floor_divide_KI(C, U, x, y) floordiv_i((x), (y), &err)
#define BODY_floor_divide_KF(C, U, x, y) FLOAT_FN(floordiv, x)((x), (y))

#define BODY_remainder_KU(C, U, x, y) remainder_u((x), (y), &err)
#define BODY_remainder_KI(C, U, x, y) remainder_i((x), (y), &err)
#define BODY_remainder_KF(C, U, x, y) FLOAT_FN(remainder, x)((x), (y))

#define BODY_fmod_KU BODY_remainder_KU /* unsigned: both are x % y */
#define BODY_fmod_KI(C, U, x, y) fmod_i((x), (y), &err)
#define BODY_fmod_KF(C, U, x, y) fmod((x), (y))

#define BODY_pow_KU(C, U, x, y) pow_u((x), (y))
#define BODY_pow_KI(C, U, x, y) pow_i((x), (y))
#define BODY_pow_KF(C, U, x, y) pow((x), (y))

/* NaN propagates from either side; `|` rather than `||` keeps the select branch-free. */
#define BODY_maximum_KU(C, U, x, y) ((x) > (y) ? (x) : (y))
#define BODY_maximum_KB BODY_maximum_KU
#define BODY_maximum_KI BODY_maximum_KU
#define BODY_maximum_KF(C, U, x, y) ((((x) > (y)) | ((x) != (x))) ? (x) : (y))

#define BODY_minimum_KU(C, U, x, y) ((x) < (y) ? (x) : (y))
#define BODY_minimum_KB BODY_minimum_KU
#define BODY_minimum_KI BODY_minimum_KU
#define BODY_minimum_KF(C, U, x, y) ((((x) < (y)) | ((x) != (x))) ? (x) : (y))

/* ---- stamping ---- */

/* float32 and float64 pow: pow.c (PyTorch's special exponents, SLEEF's vectors) */
#define POW_DTYPES(X, A) CPU_DTYPES_INT(X, A) X(A, f16) X(A, bf16)

#define BINARY_OPS(X)                                                                              \
    X(add, CPU_DTYPES_ALL)                                                                         \
    X(sub, CPU_DTYPES_NUMERIC)                                                                     \
    X(mul, CPU_DTYPES_ALL)                                                                         \
    X(div, CPU_DTYPES_FLOAT)                                                                       \
    X(floor_divide, CPU_DTYPES_NUMERIC)                                                            \
    X(remainder, CPU_DTYPES_NUMERIC)                                                               \
    X(fmod, CPU_DTYPES_NUMERIC)                                                                    \
    X(pow, POW_DTYPES)                                                                             \
    X(maximum, CPU_DTYPES_ALL)                                                                     \
    X(minimum, CPU_DTYPES_ALL)

#define STAMP(OP, S)                                                                               \
    CPU_BINARY_LOOP(loop_##OP##_##S, CPU_T_##S, CPU_T_##S, CPU_C_##S, CPU_U_##S, cpu_ld_##S,       \
                    cpu_st_##S, CPU_CAT(BODY_##OP##_, CPU_K_##S))                                  \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_binary_apply_as(args, loop_##OP##_##S, #OP, CPU_DT_##S);                        \
    }
#define STAMP_OP(OP, DTYPES) DTYPES(STAMP, OP)
BINARY_OPS(STAMP_OP)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP, DTYPES) DTYPES(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {BINARY_OPS(ENTRY_OP)};
CPU_CONVERTING_KERNEL_TABLE(kernels);
