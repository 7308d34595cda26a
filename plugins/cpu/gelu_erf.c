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

#if CPU_ISA_LEVEL >= 3
#define GELU_MUL_ADD(a, b, c) fmaf((a), (b), (c))
#else /* oneDNN's SSE4.1 kernel multiplies, then adds */
#define GELU_MUL_ADD(a, b, c) ((a) * (b) + (c))
#endif

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

/* The elementwise loop: the caller's layout is one contiguous row for both operands. */
static void gelu_loop(int64_t n, char *const *p, const int64_t *s, void *ctx) {
    (void)ctx;
    float *y = (float *)(void *)p[0];
    const float *x = (const float *)(const void *)p[1];
    if (s[0] == 1 && s[1] == 1)
        for (int64_t i = 0; i < n; i++) y[i] = onednn_gelu_erf(x[i]);
    else
        for (int64_t i = 0; i < n; i++) y[i * s[0]] = onednn_gelu_erf(x[i * s[1]]);
}

int nn_gelu_erf_contiguous(const tc_kernel_args *a, int *rc) {
    const tc_view *in = &a->inputs[0], *out = &a->outputs[0];
    if (in->dtype != TC_FLOAT32 || out->dtype != TC_FLOAT32 || !cpu_random_is_contiguous(in) ||
        !cpu_random_is_contiguous(out) || in->ndim != out->ndim)
        return 0;
    for (int d = 0; d < in->ndim; d++)
        if (in->sizes[d] != out->sizes[d]) return 0;
    const tc_view *views[2] = {out, in};
    *rc = cpu_iterate_write_only(views, 2, gelu_loop, NULL);
    return 1;
}
