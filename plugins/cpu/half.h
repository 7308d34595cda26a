/*
 * half.h - the two 16-bit float formats, converted to and from float.
 *
 * float16 is GCC's _Float16: on x86-64 it is a storage type whose conversions compile to F16C
 * instructions at x86-64-v3 and above (vectorised in loops). Below that GCC calls libgcc once per
 * element, so the baseline build converts float16 <-> float with the branch-free bit arithmetic
 * below instead, which vectorises. bfloat16 has no C type; it travels as its uint16_t bits. All
 * arithmetic on either happens in float.
 */
#ifndef CPU_HALF_H
#define CPU_HALF_H

#include <stdint.h>
#include <string.h>

/* bfloat16 is the top half of a float, so widening is exact. */
static inline float cpu_bf16_to_f32(uint16_t bits) {
    uint32_t u = (uint32_t)bits << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Round to nearest even, as PyTorch's c10::BFloat16 does. A NaN is kept a (quiet) NaN: rounding its
 * bits could carry into the exponent and turn it into infinity. */
static inline uint16_t cpu_f32_to_bf16(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* A float's bits and back. */
static inline uint32_t cpu_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float cpu_f32_from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

#if !defined(__F16C__)
/* float16 <-> float without F16C, exact and round-to-nearest-even, NaN kept NaN; the technique of
 * Marat Dukhan's FP16 library (MIT licence): let the FPU do the rounding by scaling. */

static inline float cpu_f16_bits_to_f32(uint16_t h) {
    const uint32_t w = (uint32_t)h << 16, sign = w & 0x80000000u, two_w = w + w;
    /* normal numbers: re-bias the exponent by a multiplication (also maps inf/NaN to inf/NaN) */
    const float normalized = cpu_f32_from_bits((two_w >> 4) + (0xE0u << 23)) * 0x1.0p-112f;
    /* subnormals: the mantissa as the low bits of a float in [0.5, 1), minus 0.5 */
    const float denormalized = cpu_f32_from_bits((two_w >> 17) | (126u << 23)) - 0.5f;
    const uint32_t magnitude = two_w < (1u << 27) ? cpu_f32_bits(denormalized) : cpu_f32_bits(normalized);
    return cpu_f32_from_bits(sign | magnitude);
}

static inline uint16_t cpu_f32_to_f16_bits(float f) {
    const uint32_t w = cpu_f32_bits(f), shl1_w = w + w, sign = w & 0x80000000u;
    /* overflow to infinity, then bring back into range so the addition below rounds at float16's
     * precision */
    float base = (cpu_f32_from_bits(w & 0x7fffffffu) * 0x1.0p+112f) * 0x1.0p-110f;
    uint32_t bias = shl1_w & 0xFF000000u;
    if (bias < 0x71000000u) bias = 0x71000000u;
    base = cpu_f32_from_bits((bias >> 1) + 0x07800000u) + base;
    const uint32_t bits = cpu_f32_bits(base);
    const uint32_t nonsign = ((bits >> 13) & 0x00007C00u) + (bits & 0x00000FFFu);
    return (uint16_t)((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}
#endif

#endif
