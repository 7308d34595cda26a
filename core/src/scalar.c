/* Host-side conversion of scalars into a dtype's bytes. */
#include "core_internal.h"

#include <math.h>
#include <string.h>

double tc_scalar_to_double(tc_scalar s) { return s.is_float ? s.v.f : (double)s.v.i; }

/* Float to integer without undefined behaviour: NaN becomes 0 and the rest saturates, and then the
 * value wraps like an int64 conversion would. */
static int64_t float_to_int64(double f) {
    if (isnan(f)) return 0;
    if (f >= 9223372036854775807.0) return INT64_MAX;
    if (f <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)f;
}

static uint16_t float_to_bfloat16(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (isnan(f)) return (uint16_t)((bits >> 16) | 0x40);
    bits += 0x7fff + ((bits >> 16) & 1); /* round to nearest even */
    return (uint16_t)(bits >> 16);
}

void tc_scalar_store(tc_scalar s, int32_t dtype, void *dst) {
    int64_t i = s.is_float ? float_to_int64(s.v.f) : s.v.i;
    double f = tc_scalar_to_double(s);
    switch (dtype) {
    case TC_BOOL: *(uint8_t *)dst = s.is_float ? f != 0.0 : s.v.i != 0; break;
    case TC_UINT8: *(uint8_t *)dst = (uint8_t)i; break;
    case TC_INT8: *(int8_t *)dst = (int8_t)i; break;
    case TC_INT16: *(int16_t *)dst = (int16_t)i; break;
    case TC_INT32: *(int32_t *)dst = (int32_t)i; break;
    case TC_INT64: *(int64_t *)dst = i; break;
    case TC_FLOAT16: *(_Float16 *)dst = (_Float16)f; break;
    case TC_BFLOAT16: *(uint16_t *)dst = float_to_bfloat16((float)f); break;
    case TC_FLOAT32: *(float *)dst = (float)f; break;
    case TC_FLOAT64: *(double *)dst = f; break;
    default: break;
    }
}
