/*
 * tc_convert.h - float to integer conversion as PyTorch 1.13 performs it on x86-64, without C's
 * undefined behaviour. Header-only, shared by the core and by plugins (part of the SDK, not of the
 * ABI: nothing here crosses the plugin boundary).
 *
 * PyTorch converts with a C++ static_cast, which on x86-64 compiles to the truncating conversion
 * instructions (cvttss2si/cvttsd2si and their vector forms). For a NaN, an infinity or a value whose
 * truncation does not fit the instruction's width, they give the "integer indefinite" value, the
 * most negative integer of that width. Which width is used depends on the target dtype:
 *   int64          64-bit conversion
 *   int32          32-bit conversion
 *   int16, int8    32-bit conversion, then the low bits (so 1e10 -> 0 and 300.5 -> 44 in int8)
 *   uint8          64-bit conversion, then the low 8 bits (c10 casts to uint8 through int64)
 *   bool           x != 0 (NaN is true)
 * float16 and bfloat16 values are widened to float first, which is exact. The range checks below
 * produce the same bits as the instructions and compile to them or to branch-free selects.
 */
#ifndef TC_CONVERT_H
#define TC_CONVERT_H

#include <stdint.h>

/* Truncation to int64, INT64_MIN when NaN or outside [-2^63, 2^63). */
static inline int64_t tc_cvtt_i64(double x) {
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}

/* Truncation to int32, INT32_MIN when NaN or when the truncated value does not fit. */
static inline int32_t tc_cvtt_i32(double x) {
    return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}

/* The narrower targets keep the low bits of the wider conversion (GCC defines the narrowing of an
 * out-of-range value to a signed type as reduction modulo 2^N). */
static inline int16_t tc_cvtt_i16(double x) { return (int16_t)(uint16_t)(uint32_t)tc_cvtt_i32(x); }
static inline int8_t tc_cvtt_i8(double x) { return (int8_t)(uint8_t)(uint32_t)tc_cvtt_i32(x); }
static inline uint8_t tc_cvtt_u8(double x) { return (uint8_t)(uint64_t)tc_cvtt_i64(x); }

#endif /* TC_CONVERT_H */
