/*
 * random_normal.c - normal: every element drawn from N(mean, std), as PyTorch 1.13 draws it on CPU.
 *
 * PyTorch has three paths, and which one runs decides the values:
 *   - a contiguous float32 tensor of 16 or more elements: first one uniform float per element
 *     (24-bit draws), then Box-Muller on blocks of 16, element j and j+8 of a block becoming
 *     r*cos(theta) and r*sin(theta) of the pair (u1 = 1 - x[j], u2 = x[j+8]); when the size is not a
 *     multiple of 16, the last 16 elements are drawn anew and transformed again. PyTorch's AVX2
 *     build computes log, sin and cos with Cephes-style polynomials on 8 lanes (avx_mathfun.h),
 *     compiled with fused multiply-adds; box_muller_f32 performs the same operations lane by lane,
 *     fused where PyTorch's binary fuses, so that every ISA level gives PyTorch's bits;
 *   - other contiguous tensors of 16 or more: the same blocks with libm's log/sin/cos, computed in
 *     the dtype's own arithmetic (c10::Half rounds where its operators round, c10::BFloat16 after
 *     every operation, since its math functions return BFloat16);
 *   - everything else (fewer elements, or not contiguous): one sample at a time in double from
 *     normal_distribution<double>, which keeps the second value of each pair in the generator for
 *     the next call (cpu_normal_f64), walked in TensorIterator order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "random.h"

double cpu_normal_f64(tc_generator *g, double mean, double std) {
    double ret;
    if (!cpu_core->generator_take_normal(g, TC_FLOAT64, &ret)) {
        uint64_t bits[2];
        cpu_draw_u64(g, bits, 2);
        const double u1 = cpu_unit_f64(bits[0]), u2 = cpu_unit_f64(bits[1]);
        const double r = sqrt(-2.0 * log(1.0 - u2));
        const double theta = 2.0 * M_PI * u1;
        cpu_core->generator_put_normal(g, TC_FLOAT64, r * sin(theta));
        ret = r * cos(theta);
    }
    return fma(ret, std, mean);
}

/* ---- float32: PyTorch's AVX2 block, lane by lane ---- */

#define f2u cpu_f32_bits
#define u2f cpu_f32_from_bits

/* Cephes' single-precision constants, as the float bits PyTorch's binary holds. */
#define C_MIN_NORM u2f(0x00800000u)
#define C_SQRTHF u2f(0x3f3504f3u)
#define C_LOG_P0 u2f(0x3d9021bbu)
#define C_LOG_P1 u2f(0xbdebd1b8u)
#define C_LOG_P2 u2f(0x3def251au)
#define C_LOG_P3 u2f(0xbdfe5d4fu)
#define C_LOG_P4 u2f(0x3e11e9bfu)
#define C_LOG_P5 u2f(0xbe2aae50u)
#define C_LOG_P6 u2f(0x3e4cceacu)
#define C_LOG_P7 u2f(0xbe7ffffcu)
#define C_LOG_P8 u2f(0x3eaaaaaau)
#define C_LOG_Q1 u2f(0xb95e8083u)
#define C_LOG_Q2 u2f(0x3f318000u)
#define C_FOPI u2f(0x3fa2f983u)
#define C_DP1 u2f(0xbf490000u)
#define C_DP2 u2f(0xb97da000u)
#define C_DP3 u2f(0xb3222169u)
#define C_SIN_P0 u2f(0xb94ca1f9u)
#define C_SIN_P1 u2f(0x3c08839eu)
#define C_SIN_P2 u2f(0xbe2aaaa3u)
#define C_COS_P0 u2f(0x37ccf5ceu)
#define C_COS_P1 u2f(0xbab6061au)
#define C_COS_P2 u2f(0x3d2aaaa5u)
#define C_TWO_PI u2f(0x40c90fdbu)

/* log(u) for u > 0: exponent and mantissa in [sqrt(1/2), sqrt(2)), then a degree-9 polynomial. */
static inline float cephes_log(float u) {
    const uint32_t invalid = u <= 0.0f ? 0xffffffffu : 0u;
    float x = u > C_MIN_NORM ? u : C_MIN_NORM;
    const int32_t exponent = (int32_t)(f2u(x) >> 23) - 127;
    x = u2f((f2u(x) & 0x807fffffu) | 0x3f000000u);
    float e = (float)exponent + 1.0f;
    const int below = x < C_SQRTHF;
    const float tmp = below ? x : 0.0f;
    x = x + -1.0f;
    e = e - (below ? 1.0f : 0.0f);
    x = tmp + x;
    float y = fmaf(x, C_LOG_P0, C_LOG_P1);
    y = fmaf(y, x, C_LOG_P2);
    y = fmaf(y, x, C_LOG_P3);
    y = fmaf(y, x, C_LOG_P4);
    y = fmaf(y, x, C_LOG_P5);
    y = fmaf(y, x, C_LOG_P6);
    y = fmaf(y, x, C_LOG_P7);
    y = fmaf(y, x, C_LOG_P8);
    const float z = x * x;
    y = y * x;
    y = fmaf(y, z, e * C_LOG_Q1);
    y = fmaf(-z, 0.5f, y);
    x = x + y;
    x = fmaf(e, C_LOG_Q2, x);
    return u2f(f2u(x) | invalid);
}

/* sin and cos of t in [0, 2 pi): reduction to [-pi/4, pi/4] in three parts, then both polynomials,
 * each result picked (and the other subtracted away) by the octant. */
static inline void cephes_sincos(float t, float *s, float *c) {
    uint32_t sign_sin = f2u(t) & 0x80000000u;
    const float xa = u2f(f2u(t) & 0x7fffffffu);
    const float scaled = xa * C_FOPI;
    int32_t j = (scaled > -2147483649.0f && scaled < 2147483648.0f) ? (int32_t)scaled : INT32_MIN;
    j = (int32_t)(((uint32_t)j + 1u) & ~1u);
    const float yf = (float)j;
    const uint32_t swap_sin = ((uint32_t)j & 4u) << 29;
    const int use_sin_poly = ((uint32_t)j & 2u) == 0;
    const uint32_t sign_cos = (~((uint32_t)j - 2u) & 4u) << 29;
    sign_sin ^= swap_sin;
    float x = fmaf(yf, C_DP1, xa);
    x = fmaf(yf, C_DP2, x);
    x = fmaf(yf, C_DP3, x);
    const float z = x * x;
    float yc = fmaf(z, C_COS_P0, C_COS_P1);
    yc = fmaf(yc, z, C_COS_P2);
    const float half_z = z * 0.5f;
    yc = yc * z;
    yc = fmaf(yc, z, -half_z);
    float ys = fmaf(z, C_SIN_P0, C_SIN_P1);
    ys = fmaf(ys, z, C_SIN_P2);
    yc = yc + 1.0f;
    ys = z * ys;
    ys = fmaf(ys, x, x);
    const float sin_part = use_sin_poly ? ys : 0.0f, cos_part = use_sin_poly ? 0.0f : yc;
    const float ys_rest = ys - sin_part, yc_rest = yc - cos_part;
    *s = u2f(f2u(sin_part + cos_part) ^ sign_sin);
    *c = u2f(f2u(ys_rest + yc_rest) ^ sign_cos);
}

/* One block of 16: elements j and j + 8 from the pair (1 - x[j], x[j + 8]). Written as a loop over 8
 * lanes so the compiler can vectorise it; each lane reads both of its inputs before writing. */
static void box_muller_f32(float *x, float mean, float std) {
    for (int j = 0; j < 8; j++) {
        const float u1 = 1.0f - x[j], theta = C_TWO_PI * x[j + 8];
        const float r = sqrtf(cephes_log(u1) * -2.0f);
        float s, c;
        cephes_sincos(theta, &s, &c);
        x[j] = fmaf(r * c, std, mean);
        x[j + 8] = fmaf(r * s, std, mean);
    }
}

/* ---- the other dtypes' blocks, in their own arithmetic ---- */

static void box_muller_f64(double *x, double mean, double std) {
    for (int j = 0; j < 8; j++) {
        const double u1 = 1.0 - x[j], u2 = x[j + 8];
        const double r = sqrt(-2.0 * log(u1)), theta = 2.0 * M_PI * u2;
        x[j] = fma(r * cos(theta), std, mean);
        x[j + 8] = fma(r * sin(theta), std, mean);
    }
}

/* c10::Half: its operators compute in float and its results are stored as Half where PyTorch's code
 * keeps a Half; log/sqrt/sin/cos are float's (std::log of a Half is std::log of a float). */
static void box_muller_f16(_Float16 *x, float mean, float std) {
    for (int j = 0; j < 8; j++) {
        const float u1 = cpu_ld_f16(cpu_st_f16(1.0f - cpu_ld_f16(x[j])));
        const float u2 = cpu_ld_f16(x[j + 8]);
        const float r = cpu_ld_f16(cpu_st_f16(sqrtf(-2.0f * logf(u1))));
        const float theta = cpu_ld_f16(cpu_random_f16(2.0 * M_PI * (double)u2));
        x[j] = cpu_st_f16(fmaf(r * cosf(theta), std, mean));
        x[j + 8] = cpu_st_f16(fmaf(r * sinf(theta), std, mean));
    }
}

/* c10::BFloat16: every operation and math function returns a BFloat16, so every step rounds. */
static inline float bf(float f) { return cpu_bf16_to_f32(cpu_f32_to_bf16(f)); }
static void box_muller_bf16(uint16_t *x, float mean, float std) {
    for (int j = 0; j < 8; j++) {
        const float u1 = bf(1.0f - cpu_bf16_to_f32(x[j]));
        const float u2 = cpu_bf16_to_f32(x[j + 8]);
        const float r = bf(sqrtf(bf(-2.0f * bf(logf(u1)))));
        const float theta = cpu_bf16_to_f32(cpu_random_bf16(2.0 * M_PI * (double)u2));
        x[j] = cpu_f32_to_bf16(bf(bf(r * bf(cosf(theta))) * std) + mean);
        x[j + 8] = cpu_f32_to_bf16(bf(bf(r * bf(sinf(theta))) * std) + mean);
    }
}

/* ---- the blocked path ---- */

/* Uniforms of PyTorch's uniform_real_distribution<T>(0, 1) for n contiguous elements. */
#define UNIFORMS(S, WORD, DRAW, UNIT)                                                              \
    static void uniforms_##S(tc_generator *g, CPU_T_##S *x, int64_t n) {                           \
        WORD bits[1024];                                                                           \
        for (int64_t i = 0; i < n; i += 1024) {                                                    \
            const int64_t m = n - i < 1024 ? n - i : 1024;                                         \
            DRAW(g, bits, m);                                                                      \
            for (int64_t k = 0; k < m; k++) x[i + k] = UNIT;                                       \
        }                                                                                          \
    }
UNIFORMS(f16, uint32_t, cpu_draw_u32, cpu_st_f16(cpu_unit_f32(bits[k], 11)))
UNIFORMS(bf16, uint32_t, cpu_draw_u32, cpu_st_bf16(cpu_unit_f32(bits[k], 8)))
UNIFORMS(f32, uint32_t, cpu_draw_u32, cpu_unit_f32(bits[k], 24))
UNIFORMS(f64, uint64_t, cpu_draw_u64, cpu_unit_f64(bits[k]))

/* mean and std as the blocks receive them: static_cast<T>, then read back in the compute type. */
#define PARAM_f16(v) cpu_ld_f16(cpu_random_f16(v))
#define PARAM_bf16(v) cpu_bf16_to_f32(cpu_random_bf16(v))
#define PARAM_f32(v) ((float)(v))
#define PARAM_f64(v) (v)

#define BLOCKED(_, S)                                                                              \
    static void blocked_##S(tc_generator *g, CPU_T_##S *x, int64_t n, double mean_d, double std_d) { \
        const CPU_C_##S mean = PARAM_##S(mean_d), std = PARAM_##S(std_d);                          \
        uniforms_##S(g, x, n);                                                                     \
        for (int64_t i = 0; i + 16 <= n; i += 16) box_muller_##S(x + i, mean, std);                \
        if (n % 16 != 0) {                                                                         \
            uniforms_##S(g, x + n - 16, 16);                                                       \
            box_muller_##S(x + n - 16, mean, std);                                                 \
        }                                                                                          \
    }
CPU_DTYPES_FLOAT(BLOCKED, _)

/* ---- the kernel ---- */

typedef struct normal_ctx {
    tc_generator *g;
    double mean, std;
} normal_ctx;


#define NORMAL_KERNEL(_, S)                                                                        \
    static int normal_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {           \
        normal_ctx *ctx = vctx;                                                                    \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        for (int64_t i = 0; i < n; i++) o[i * s[0]] = RANDOM_FROM_F64_##S(cpu_normal_f64(ctx->g, ctx->mean, ctx->std)); \
        return 0;                                                                                  \
    }                                                                                              \
    static int k_normal_##S(const tc_kernel_args *args) {                                          \
        if (cpu_check_args(args, 0, 1, "normal") != TC_OK || args->n_scalars < 2) return TC_FAIL;  \
        normal_ctx ctx = {.mean = args->scalars[0].v.f, .std = args->scalars[1].v.f};              \
        if (!(ctx.g = cpu_random_generator(args))) return TC_FAIL;                                 \
        const tc_view *out = &args->outputs[0];                                                    \
        int64_t numel = 1;                                                                         \
        for (int d = 0; d < out->ndim; d++) numel *= out->sizes[d];                                \
        cpu_core->generator_lock(ctx.g);                                                           \
        int rc = TC_OK;                                                                            \
        if (numel >= 16 && cpu_random_is_contiguous(out))                                          \
            blocked_##S(ctx.g, out->data, numel, ctx.mean, ctx.std);                               \
        else                                                                                       \
            rc = cpu_random_rows(&out, 1, normal_row_##S, &ctx);                                   \
        cpu_core->generator_unlock(ctx.g);                                                         \
        return rc == TC_FAIL ? TC_FAIL : TC_OK;                                                    \
    }
CPU_DTYPES_FLOAT(NORMAL_KERNEL, _)

#define ENTRY(_, S) {"normal", CPU_DT_##S, k_normal_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
