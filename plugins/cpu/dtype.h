/*
 * dtype.h - the dtypes the CPU kernels are stamped for, and how values of each are loaded, computed
 * and stored.
 *
 * Kernels are written once, as macros over a dtype suffix S, and stamped out per dtype with the
 * lists below (X-macros that pass an extra argument A through, so an op name can ride along). For
 * each suffix S:
 *   CPU_DT_S  the tc_dtype it is registered for
 *   CPU_T_S   the storage type
 *   CPU_C_S   the compute type (float for the 16-bit floats, which only store)
 *   CPU_U_S   the type integer arithmetic is done in: unsigned and at least 32 bits wide, so an
 *             overflow wraps around as in PyTorch instead of being undefined behaviour in C
 *   CPU_K_S   the kind, for picking an op's body: KB bool, KU unsigned, KI signed, KF floating
 *             (two letters: <tgmath.h> defines a macro I)
 *   CPU_CV_S  the widest type a value of S converts through: i64, f32 or f64
 * and the inline functions
 *   cpu_ld_S(T) -> C, cpu_st_S(C) -> T           load for computing, store a computed value
 *   cpu_from_i64_S, cpu_from_f32_S, cpu_from_f64_S  conversions into S (to bool: != 0; float to
 *                                                   integer: PyTorch's x86 results, tc_convert.h,
 *                                                   never UB)
 */
#ifndef CPU_DTYPE_H
#define CPU_DTYPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "half.h"
#include "torch_core/tc_abi.h"
#include "torch_core/tc_convert.h"

#define CPU_CAT(a, b) CPU_CAT_(a, b)
#define CPU_CAT_(a, b) a##b
#define CPU_CAT4(a, b, c, d) CPU_CAT4_(a, b, c, d)
#define CPU_CAT4_(a, b, c, d) a##b##c##d

#define CPU_DTYPES_BOOL(X, A) X(A, b8)
#define CPU_DTYPES_UINT(X, A) X(A, u8)
#define CPU_DTYPES_SINT(X, A) X(A, i8) X(A, i16) X(A, i32) X(A, i64)
#define CPU_DTYPES_FLOAT(X, A) X(A, f16) X(A, bf16) X(A, f32) X(A, f64)
#define CPU_DTYPES_INT(X, A) CPU_DTYPES_UINT(X, A) CPU_DTYPES_SINT(X, A)
#define CPU_DTYPES_NUMERIC(X, A) CPU_DTYPES_INT(X, A) CPU_DTYPES_FLOAT(X, A)
#define CPU_DTYPES_ALL(X, A) CPU_DTYPES_BOOL(X, A) CPU_DTYPES_NUMERIC(X, A)
/* Kept apart from the lists above, so that stamping over them never meets a complex dtype; the
 * complex kernels (complex.h, complex_*.c) stamp over these. */
#define CPU_DTYPES_COMPLEX(X, A) X(A, c32) X(A, c64) X(A, c128)
#define CPU_DTYPES_COMPLEX_FULL(X, A) X(A, c64) X(A, c128) /* what PyTorch 1.13 computes beyond + - * */

#define CPU_DT_b8 TC_BOOL
#define CPU_DT_u8 TC_UINT8
#define CPU_DT_i8 TC_INT8
#define CPU_DT_i16 TC_INT16
#define CPU_DT_i32 TC_INT32
#define CPU_DT_i64 TC_INT64
#define CPU_DT_f16 TC_FLOAT16
#define CPU_DT_bf16 TC_BFLOAT16
#define CPU_DT_f32 TC_FLOAT32
#define CPU_DT_f64 TC_FLOAT64
#define CPU_DT_c32 TC_COMPLEX32
#define CPU_DT_c64 TC_COMPLEX64
#define CPU_DT_c128 TC_COMPLEX128

#define CPU_T_b8 uint8_t
#define CPU_T_u8 uint8_t
#define CPU_T_i8 int8_t
#define CPU_T_i16 int16_t
#define CPU_T_i32 int32_t
#define CPU_T_i64 int64_t
#define CPU_T_f16 _Float16
#define CPU_T_bf16 uint16_t
#define CPU_T_f32 float
#define CPU_T_f64 double

#define CPU_C_b8 uint8_t
#define CPU_C_u8 uint8_t
#define CPU_C_i8 int8_t
#define CPU_C_i16 int16_t
#define CPU_C_i32 int32_t
#define CPU_C_i64 int64_t
#define CPU_C_f16 float
#define CPU_C_bf16 float
#define CPU_C_f32 float
#define CPU_C_f64 double

#define CPU_U_b8 uint32_t
#define CPU_U_u8 uint32_t
#define CPU_U_i8 uint32_t
#define CPU_U_i16 uint32_t
#define CPU_U_i32 uint32_t
#define CPU_U_i64 uint64_t
#define CPU_U_f16 float
#define CPU_U_bf16 float
#define CPU_U_f32 float
#define CPU_U_f64 double

#define CPU_K_b8 KB
#define CPU_K_u8 KU
#define CPU_K_i8 KI
#define CPU_K_i16 KI
#define CPU_K_i32 KI
#define CPU_K_i64 KI
#define CPU_K_f16 KF
#define CPU_K_bf16 KF
#define CPU_K_f32 KF
#define CPU_K_f64 KF

#define CPU_CV_b8 i64
#define CPU_CV_u8 i64
#define CPU_CV_i8 i64
#define CPU_CV_i16 i64
#define CPU_CV_i32 i64
#define CPU_CV_i64 i64
#define CPU_CV_f16 f32
#define CPU_CV_bf16 f32
#define CPU_CV_f32 f32
#define CPU_CV_f64 f64

/* Bytes per element, indexed by tc_dtype (kernels need it for byte offsets without a core call). */
static inline size_t cpu_dtype_size(int32_t dtype) {
    static const unsigned char sizes[TC_NUM_DTYPES] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 4, 8, 16};
    return (dtype >= 0 && dtype < TC_NUM_DTYPES) ? sizes[dtype] : 0;
}

/* How a 16-byte element (complex128) moves when only its bits matter (gathers, where, cat, flip):
 * as two doubles, whose loads and stores copy bits exactly; a struct assignment is one move of
 * both. Kernels that move elements by their size pick it for size 16, as uint64_t for size 8
 * (complex64 moves as 8 bytes). */
typedef struct cpu_bits16 {
    double part[2];
} cpu_bits16;
_Static_assert(sizeof(cpu_bits16) == 16, "a complex128 element");

/* Float to int64 as PyTorch on x86 (tc_convert.h): NaN and out-of-range values give INT64_MIN. */
static inline int64_t cpu_f2i64(double x) { return tc_cvtt_i64(x); }

/* ---- loads and stores ---- */

#define CPU_DEF_PLAIN(S)                                                                           \
    static inline CPU_C_##S cpu_ld_##S(CPU_T_##S x) { return (CPU_C_##S)x; }                       \
    static inline CPU_T_##S cpu_st_##S(CPU_C_##S c) { return (CPU_T_##S)c; }
CPU_DEF_PLAIN(u8)
CPU_DEF_PLAIN(i8)
CPU_DEF_PLAIN(i16)
CPU_DEF_PLAIN(i32)
CPU_DEF_PLAIN(i64)
CPU_DEF_PLAIN(f32)
CPU_DEF_PLAIN(f64)
#undef CPU_DEF_PLAIN

/* A bool result may arrive as any nonzero integer (or of two flags, say); storage is 0/1. */
static inline uint8_t cpu_ld_b8(uint8_t x) { return x; }
static inline uint8_t cpu_st_b8(uint32_t c) { return (uint8_t)(c != 0); }
static inline float cpu_ld_bf16(uint16_t x) { return cpu_bf16_to_f32(x); }
#if defined(__F16C__)
static inline float cpu_ld_f16(_Float16 x) { return (float)x; }
static inline _Float16 cpu_st_f16(float c) { return (_Float16)c; }
#else
static inline float cpu_ld_f16(_Float16 x) {
    uint16_t bits;
    memcpy(&bits, &x, sizeof bits);
    return cpu_f16_bits_to_f32(bits);
}
static inline _Float16 cpu_st_f16(float c) {
    const uint16_t bits = cpu_f32_to_f16_bits(c);
    _Float16 h;
    memcpy(&h, &bits, sizeof h);
    return h;
}
#endif
static inline uint16_t cpu_st_bf16(float c) { return cpu_f32_to_bf16(c); }

/* ---- conversions (copy, factories, scalars) ---- */

/* Floats convert to integers as PyTorch does on x86 (tc_convert.h): the width of the truncating
 * conversion depends on the target, NaN and out-of-range values give that width's minimum. */
#define CPU_DEF_FROM_INT(S)                                                                        \
    static inline CPU_T_##S cpu_from_i64_##S(int64_t v) { return (CPU_T_##S)v; }                  \
    static inline CPU_T_##S cpu_from_f32_##S(float v) { return tc_cvtt_##S((double)v); }          \
    static inline CPU_T_##S cpu_from_f64_##S(double v) { return tc_cvtt_##S(v); }
CPU_DEF_FROM_INT(u8)
CPU_DEF_FROM_INT(i8)
CPU_DEF_FROM_INT(i16)
CPU_DEF_FROM_INT(i32)
CPU_DEF_FROM_INT(i64)
#undef CPU_DEF_FROM_INT

/* float16 converts straight from int64 and double (one rounding); through float would round twice. */
#define CPU_DEF_FROM_FLOAT(S)                                                                      \
    static inline CPU_T_##S cpu_from_i64_##S(int64_t v) { return (CPU_T_##S)v; }                  \
    static inline CPU_T_##S cpu_from_f32_##S(float v) { return (CPU_T_##S)v; }                    \
    static inline CPU_T_##S cpu_from_f64_##S(double v) { return (CPU_T_##S)v; }
CPU_DEF_FROM_FLOAT(f32)
CPU_DEF_FROM_FLOAT(f64)
#undef CPU_DEF_FROM_FLOAT

static inline _Float16 cpu_from_i64_f16(int64_t v) { return (_Float16)v; }
static inline _Float16 cpu_from_f32_f16(float v) { return cpu_st_f16(v); }
static inline _Float16 cpu_from_f64_f16(double v) { return (_Float16)v; }

static inline uint8_t cpu_from_i64_b8(int64_t v) { return (uint8_t)(v != 0); }
static inline uint8_t cpu_from_f32_b8(float v) { return (uint8_t)(v != 0); }
static inline uint8_t cpu_from_f64_b8(double v) { return (uint8_t)(v != 0); }

/* bfloat16 from double goes through float, as c10::BFloat16 does. */
static inline uint16_t cpu_from_i64_bf16(int64_t v) { return cpu_f32_to_bf16((float)v); }
static inline uint16_t cpu_from_f32_bf16(float v) { return cpu_f32_to_bf16(v); }
static inline uint16_t cpu_from_f64_bf16(double v) { return cpu_f32_to_bf16((float)v); }

#endif
