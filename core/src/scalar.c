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

/* A complex element from a scalar: each part converted once, from the integer itself for integers. */
static void store_complex(tc_scalar s, int32_t dtype, void *dst) {
    const bool integral = !floating(s);
    const double re = s.v.f, im = s.kind == TC_SCALAR_COMPLEX ? s.imag : 0.0;
    if (dtype == TC_COMPLEX32) {
        _Float16 parts[2] = {integral ? (_Float16)s.v.i : (_Float16)re, (_Float16)im};
        memcpy(dst, parts, sizeof parts);
    } else if (dtype == TC_COMPLEX64) {
        float parts[2] = {integral ? (float)s.v.i : (float)re, (float)im};
        memcpy(dst, parts, sizeof parts);
    } else {
        double parts[2] = {integral ? (double)s.v.i : re, im};
        memcpy(dst, parts, sizeof parts);
    }
}

/* Integers wrap; floats convert as PyTorch's kernels do on x86 (tc_convert.h), so a value stored
 * here equals the same value converted by a copy kernel. A complex value stored into a real dtype
 * keeps its real part (bool included: 1j stores false, as in PyTorch). */
void tc_scalar_store(tc_scalar s, int32_t dtype, void *dst) {
    const int64_t i = s.v.i;
    const double f = tc_scalar_to_double(s);
    if (tc_dtype_is_complex(dtype)) {
        store_complex(s, dtype, dst);
        return;
    }
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
    if (dtype == TC_BOOL) return true;
    if (dtype == TC_COMPLEX32) return true; /* PyTorch 1.13 checks no complex32 value (1e5j becomes infj) */
    if (tc_dtype_is_complex(dtype)) { /* each part within the part's range */
        tc_scalar re = s, im = TC_SCALAR_OF_FLOAT(s.kind == TC_SCALAR_COMPLEX ? s.imag : 0.0);
        if (re.kind == TC_SCALAR_COMPLEX) re.kind = TC_SCALAR_FLOAT;
        return tc_scalar_fits(re, tc_dtype_to_real(dtype)) && tc_scalar_fits(im, tc_dtype_to_real(dtype));
    }
    if (s.kind == TC_SCALAR_COMPLEX && s.imag != 0.0) return false; /* c10 refuses to drop an imaginary part */
    if (dtype == TC_FLOAT64) return true;
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
    if (tc_dtype_is_complex(dtype)) { /* the parts, loaded as their real dtype */
        size_t half = tc_dtype_size(dtype) / 2;
        tc_scalar re = tc_scalar_load(src, tc_dtype_to_real(dtype));
        tc_scalar im = tc_scalar_load((const char *)src + half, tc_dtype_to_real(dtype));
        return TC_SCALAR_OF_COMPLEX(re.v.f, im.v.f);
    }
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
        double f[2];
        int64_t i;
        char bytes[16];
    } buf;
    tc_scalar_store(s, dtype, buf.bytes);
    return tc_scalar_load(buf.bytes, dtype);
}
