/*
 * gelu_erf.c - exact gelu of contiguous float32 tensors, as PyTorch 1.13 computes it: through
 * oneDNN's eltwise gelu_erf, rounding for rounding.
 *
 * For a contiguous float32 input PyTorch hands gelu to oneDNN, whose JIT kernel approximates erf by
 * Abramowitz and Stegun's 7.1.26 (t = 1 / (1 + p |x|), erf = 1 - t (a1 + ... + a5 t^4) exp(-x^2),
 * absolute error below 1.5e-7) with exp from its own polynomial, then returns S + S erf with S = s / 2.
 * Each step below is one of its instructions (multiply-adds fused where it fuses them), so the
 * results are the reference's bit for bit (tests/python/test_rounding_reference.py compares them
 * exactly); GCC vectorises the loop. It costs a few instructions per element where SLEEF's
 * correctly rounded erf cost some sixty, and ran at a fifth of the reference's speed. Strided
 * inputs keep the general kernel (activation.c), as PyTorch keeps its own for them.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "activation.h"
#include "cpu.h"
#include "half.h"
#include "iterate.h"
#include "random.h"
#include "vmath.h"

/* Fused, as oneDNN's AVX2 and AVX-512 kernels fuse them (its SSE4.1 kernel multiplies, then adds):
 * the reference's results on the project's machines, in every ISA variant of this plugin. At
 * x86-64-v2, fmaf is glibc's exact routine, so that variant takes the scalar loop only. */
#define GELU_MUL_ADD(a, b, c) fmaf((a), (b), (c))

#define from_bits cpu_f32_from_bits
#define to_bits cpu_f32_bits

/* oneDNN's exp: x = n ln2 + r, 2^(n-1) from the exponent bits, a degree-5 polynomial in r, doubled;
 * zero below log(FLT_MIN). min and max as the instructions take them (a NaN gives the bound). */
static inline float onednn_exp(float x) {
    const float ln_max = from_bits(0x42b17218), ln_min = from_bits(0xc2aeac50);
    const int below = x < ln_min;
    x = x < ln_max ? x : ln_max;
    x = x > ln_min ? x : ln_min;
    const float n = floorf(x * from_bits(0x3fb8aa3b) + 0.5f);
    const float r = GELU_MUL_ADD(-n, from_bits(0x3f317218), x);
    const float scale = below ? 0.0f : from_bits((uint32_t)((int32_t)(n - 1.0f) + 127) << 23);
    float y = from_bits(0x3c07cfce);
    y = GELU_MUL_ADD(y, r, from_bits(0x3d2b9d0d));
    y = GELU_MUL_ADD(y, r, from_bits(0x3e2aad40));
    y = GELU_MUL_ADD(y, r, from_bits(0x3efffee3));
    y = GELU_MUL_ADD(y, r, from_bits(0x3f7ffffb));
    y = GELU_MUL_ADD(y, r, 1.0f);
    return y * scale * 2.0f;
}

static inline float onednn_gelu_erf(float s) {
    const float x = s * from_bits(0x3f3504f3); /* s / sqrt(2) */
    const float neg_exp = -onednn_exp(-(x * x));
    const float t = 1.0f / GELU_MUL_ADD(0.3275911f, fabsf(x), 1.0f);
    float r = 1.061405429f;
    r = GELU_MUL_ADD(r, t, -1.453152027f);
    r = GELU_MUL_ADD(r, t, 1.421413741f);
    r = GELU_MUL_ADD(r, t, -0.284496736f);
    r = GELU_MUL_ADD(r, t, 0.254829592f);
    const float erf = from_bits(to_bits(GELU_MUL_ADD(neg_exp * t, r, 1.0f)) ^ (to_bits(x) & 0x80000000u));
    const float half = s * 0.5f;
    return GELU_MUL_ADD(erf, half, half);
}

/* The same steps on whole vectors, written with the ISA level's intrinsics: GCC's vectorisation of
 * the scalar function above turned each clamp into two compares and blends and spilled its
 * constants, 55 instructions for 8 elements where these take 34. min and max are the instructions
 * the clamps describe (their second operand on NaN, as the ternaries above). Two steps differ and
 * give the same results: the argument -(x*x) is at most 0, so n lies in [-126, 0] and the scale is
 * 2^n from the exponent bits directly, where the scalar code forms 2^(n-1), doubles the product, and
 * zeroes arguments below log(FLT_MIN). The two differ only where n < -124, by less than 1e-37 in
 * exp, which 1 - exp t q then rounds away (NaN arguments give NaN either way): all 2^32 floats
 * agreed bit for bit at the AVX2 level (a C sweep; a sample is in
 * tests/python/test_rounding_reference.py). The x86-64-v2 variant, without fused multiply-add
 * instructions, computes every element by the scalar steps. */
#if CPU_ISA_LEVEL >= 3 /* the vector steps need fused multiply-add instructions */
#define GELU_V VM_VF
#define GELU_OP VM_OPF
#if defined(__AVX512F__)
#define GELU_VI __m512i
#define GELU_OPI(OP) _mm512_##OP##_epi32
#define GELU_AS_FLOAT _mm512_castsi512_ps
#define GELU_TRUNCATE _mm512_cvttps_epi32
#else
#define GELU_VI __m256i
#define GELU_OPI(OP) _mm256_##OP##_epi32
#define GELU_AS_FLOAT _mm256_castsi256_ps
#define GELU_TRUNCATE _mm256_cvttps_epi32
#endif
#define GELU_V_MUL_ADD(a, b, c) GELU_OP(fmadd)((a), (b), (c))
#define GELU_C(bits) GELU_OP(set1)(from_bits(bits))
#define GELU_F(value) GELU_OP(set1)(value)

/* y[0 .. K vectors) = gelu(x[...]) for K vectors at once, each step taken for all K before the next:
 * a vector's steps form a chain of some 75 cycles, and in program order the processor's scheduler
 * filled with waiting steps before it reached the next vector's first ones. Four vectors in lockstep
 * took 0.58 ns an element (in cache, one Zen 3 thread), one at a time 0.69-0.75. */
#define GELU_EACH(K, expr) _Pragma("GCC unroll 4") for (int k = 0; k < K; k++) expr;
#define GELU_ERF_VECTORS(K)                                                                        \
    static inline void onednn_gelu_erf_v##K(const float *xp, float *yp) {                          \
        const GELU_V sign_bit = GELU_C(0x80000000u);                                               \
        GELU_V s[K], x[K], z[K], n[K], r[K], scale[K], y[K], t[K], q[K], e[K];                      \
        GELU_EACH(K, s[k] = VM_LDF(xp + k * VM_NF))                                                   \
        GELU_EACH(K, x[k] = GELU_OP(mul)(s[k], GELU_C(0x3f3504f3))) /* s / sqrt(2) */                 \
        /* exp(-(x*x)) */                                                                          \
        GELU_EACH(K, z[k] = GELU_OP(xor)(GELU_OP(mul)(x[k], x[k]), sign_bit))                         \
        GELU_EACH(K, z[k] = GELU_OP(max)(GELU_OP(min)(z[k], GELU_C(0x42b17218)), GELU_C(0xc2aeac50)))  \
        GELU_EACH(K, t[k] = GELU_OP(div)(GELU_F(1.0f), GELU_V_MUL_ADD(GELU_F(0.3275911f),             \
                                                                   GELU_OP(andnot)(sign_bit, x[k]), GELU_F(1.0f)))) \
        GELU_EACH(K, n[k] = GELU_OP(floor)(GELU_OP(add)(GELU_OP(mul)(z[k], GELU_C(0x3fb8aa3b)), GELU_F(0.5f)))) \
        GELU_EACH(K, r[k] = GELU_V_MUL_ADD(GELU_OP(sub)(GELU_OP(setzero)(), n[k]), GELU_C(0x3f317218), z[k])) \
        GELU_EACH(K, scale[k] = GELU_AS_FLOAT(GELU_OPI(slli)(GELU_OPI(add)(GELU_TRUNCATE(n[k]), GELU_OPI(set1)(127)), 23))) \
        /* the exp polynomial in r and the erf one in t, interleaved */                           \
        GELU_EACH(K, y[k] = GELU_V_MUL_ADD(GELU_C(0x3c07cfce), r[k], GELU_C(0x3d2b9d0d)))             \
        GELU_EACH(K, q[k] = GELU_V_MUL_ADD(GELU_F(1.061405429f), t[k], GELU_F(-1.453152027f)))         \
        GELU_EACH(K, y[k] = GELU_V_MUL_ADD(y[k], r[k], GELU_C(0x3e2aad40)))                           \
        GELU_EACH(K, q[k] = GELU_V_MUL_ADD(q[k], t[k], GELU_F(1.421413741f)))                         \
        GELU_EACH(K, y[k] = GELU_V_MUL_ADD(y[k], r[k], GELU_C(0x3efffee3)))                           \
        GELU_EACH(K, q[k] = GELU_V_MUL_ADD(q[k], t[k], GELU_F(-0.284496736f)))                        \
        GELU_EACH(K, y[k] = GELU_V_MUL_ADD(y[k], r[k], GELU_C(0x3f7ffffb)))                           \
        GELU_EACH(K, q[k] = GELU_V_MUL_ADD(q[k], t[k], GELU_F(0.254829592f)))                         \
        GELU_EACH(K, y[k] = GELU_V_MUL_ADD(y[k], r[k], GELU_F(1.0f)))                                 \
        /* erf = (1 - exp * t * q) with x's sign; S + S erf */                                     \
        GELU_EACH(K, e[k] = GELU_OP(xor)(GELU_OP(mul)(y[k], scale[k]), sign_bit))                     \
        GELU_EACH(K, e[k] = GELU_OP(xor)(GELU_V_MUL_ADD(GELU_OP(mul)(e[k], t[k]), q[k], GELU_F(1.0f)), \
                                      GELU_OP(and)(x[k], sign_bit)))                               \
        GELU_EACH(K, s[k] = GELU_OP(mul)(s[k], GELU_F(0.5f)))                                         \
        GELU_EACH(K, VM_STF(yp + k * VM_NF, GELU_V_MUL_ADD(e[k], s[k], s[k])))                        \
    }
GELU_ERF_VECTORS(4)
GELU_ERF_VECTORS(1)
#endif

/* The elementwise loop: the caller's layout is one contiguous row for both operands. */
static void gelu_loop(int64_t n, char *const *p, const int64_t *s, void *ctx) {
    (void)ctx;
    float *y = (float *)(void *)p[0];
    const float *x = (const float *)(const void *)p[1];
    if (s[0] == 1 && s[1] == 1) {
        int64_t i = 0;
#if CPU_ISA_LEVEL >= 3
        for (; i + 4 * VM_NF <= n; i += 4 * VM_NF) onednn_gelu_erf_v4(x + i, y + i);
        for (; i + VM_NF <= n; i += VM_NF) onednn_gelu_erf_v1(x + i, y + i);
#endif
        for (; i < n; i++) y[i] = onednn_gelu_erf(x[i]);
    } else {
        for (int64_t i = 0; i < n; i++) y[i * s[0]] = onednn_gelu_erf(x[i * s[1]]);
    }
}

int nn_gelu_erf_contiguous(const tc_kernel_args *a, int *rc) {
    const tc_view *in = &a->inputs[0], *out = &a->outputs[0];
    if (in->dtype != TC_FLOAT32 || out->dtype != TC_FLOAT32 || !cpu_random_is_contiguous(in) ||
        !cpu_random_is_contiguous(out) || in->ndim != out->ndim)
        return 0;
    for (int d = 0; d < in->ndim; d++)
        if (in->sizes[d] != out->sizes[d]) return 0;
    const tc_view *views[2] = {out, in};
    /* computed in place rather than streamed: a loop this busy per element gains nothing from the
     * streaming stores and would pay their copy (cpu_iterate_as_cached) */
    const int32_t as_is[2] = {-1, -1};
    *rc = cpu_iterate_as_cached(views, 2, as_is, gelu_loop, NULL);
    return 1;
}
