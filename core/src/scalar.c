/* Host-side conversion of scalars into a dtype's bytes. */
#include "core_internal.h"
#include "torch_core/tc_convert.h"

#include <math.h>
#include <string.h>

static bool floating(tc_scalar s) { return s.kind == TC_SCALAR_FLOAT || s.kind == TC_SCALAR_COMPLEX; }

double tc_scalar_to_double(tc_scalar s) { return floating(s) ? s.v.f : (double)s.v.i; }

static uint16_t float_to_bfloat16(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (isnan(f)) return (uint16_t)((bits >> 16) | 0x40);
    bits += 0x7fff + ((bits >> 16) & 1); /* round to nearest even */
    return (uint16_t)(bits >> 16);
}

/* Integers wrap; floats convert as PyTorch's kernels do on x86 (tc_convert.h), so a value stored
 * here equals the same value converted by a copy kernel. */
void tc_scalar_store(tc_scalar s, int32_t dtype, void *dst) {
    const int64_t i = s.v.i;
    const double f = tc_scalar_to_double(s);
    switch (dtype) {
    case TC_BOOL: *(uint8_t *)dst = floating(s) ? f != 0.0 : s.v.i != 0; break;
    case TC_UINT8: *(uint8_t *)dst = floating(s) ? tc_cvtt_u8(f) : (uint8_t)i; break;
    case TC_INT8: *(int8_t *)dst = floating(s) ? tc_cvtt_i8(f) : (int8_t)i; break;
    case TC_INT16: *(int16_t *)dst = floating(s) ? tc_cvtt_i16(f) : (int16_t)i; break;
    case TC_INT32: *(int32_t *)dst = floating(s) ? tc_cvtt_i32(f) : (int32_t)i; break;
    case TC_INT64: *(int64_t *)dst = floating(s) ? tc_cvtt_i64(f) : i; break;
    case TC_FLOAT16: *(_Float16 *)dst = (_Float16)f; break;
    case TC_BFLOAT16: *(uint16_t *)dst = float_to_bfloat16((float)f); break;
    case TC_FLOAT32: *(float *)dst = (float)f; break;
    case TC_FLOAT64: *(double *)dst = f; break;
    default: break;
    }
}

/* PyTorch's checked conversion (c10::checked_convert) of a Python number filled into a tensor:
 * integers must lie in the dtype's range, except that a negative integer may wrap into an unsigned
 * dtype down to -max (uint8 accepts -255..255, as in `a - b` computed as `a + 255 * b`); floats
 * must lie in the range too, where infinities and NaN pass for floating dtypes only. bool takes
 * anything. */
bool tc_scalar_fits(tc_scalar s, int32_t dtype) {
    static const double float_max[TC_NUM_DTYPES] = {
        [TC_FLOAT16] = 65504.0, [TC_BFLOAT16] = 3.3895313892515355e38, [TC_FLOAT32] = 3.4028234663852886e38};
    static const int64_t int_min[TC_NUM_DTYPES] = {
        [TC_UINT8] = 0, [TC_INT8] = INT8_MIN, [TC_INT16] = INT16_MIN, [TC_INT32] = INT32_MIN, [TC_INT64] = INT64_MIN};
    static const int64_t int_max[TC_NUM_DTYPES] = {
        [TC_UINT8] = UINT8_MAX, [TC_INT8] = INT8_MAX, [TC_INT16] = INT16_MAX, [TC_INT32] = INT32_MAX,
        [TC_INT64] = INT64_MAX};
    if (dtype == TC_BOOL || dtype == TC_FLOAT64) return true;
    if (tc_dtype_is_floating(dtype)) {
        double f = tc_scalar_to_double(s);
        return isnan(f) || isinf(f) || fabs(f) <= float_max[dtype];
    }
    if (!tc_dtype_is_integral(dtype)) return true;
    if (floating(s)) {
        double f = s.v.f;
        /* c10 compares with the limits converted to double, and INT64_MAX becomes 2^63: so 2^63
         * passes for int64 (and then converts to INT64_MIN, as in PyTorch) */
        return !isnan(f) && f >= (double)int_min[dtype] && f <= (double)int_max[dtype];
    }
    int64_t i = s.v.i;
    if (dtype == TC_UINT8) return i <= UINT8_MAX && (i >= 0 || 0 - (uint64_t)i <= UINT8_MAX);
    return i >= int_min[dtype] && i <= int_max[dtype];
}

tc_scalar tc_scalar_load(const void *src, int32_t dtype) {
    tc_scalar s = {.kind = tc_dtype_is_floating(dtype) ? TC_SCALAR_FLOAT : dtype == TC_BOOL ? TC_SCALAR_BOOL : TC_SCALAR_INT};
    switch (dtype) {
    case TC_BOOL: s.v.i = *(const uint8_t *)src != 0; break;
    case TC_UINT8: s.v.i = *(const uint8_t *)src; break;
    case TC_INT8: s.v.i = *(const int8_t *)src; break;
    case TC_INT16: s.v.i = *(const int16_t *)src; break;
    case TC_INT32: s.v.i = *(const int32_t *)src; break;
    case TC_INT64: s.v.i = *(const int64_t *)src; break;
    case TC_FLOAT16: s.v.f = (double)*(const _Float16 *)src; break;
    case TC_BFLOAT16: {
        uint32_t bits = (uint32_t)*(const uint16_t *)src << 16;
        float f;
        memcpy(&f, &bits, sizeof f);
        s.v.f = f;
        break;
    }
    case TC_FLOAT32: s.v.f = *(const float *)src; break;
    case TC_FLOAT64: s.v.f = *(const double *)src; break;
    default: break;
    }
    return s;
}

tc_scalar tc_scalar_cast(tc_scalar s, int32_t dtype) {
    union {
        double f;
        int64_t i;
        char bytes[8];
    } buf;
    tc_scalar_store(s, dtype, buf.bytes);
    return tc_scalar_load(buf.bytes, dtype);
}
