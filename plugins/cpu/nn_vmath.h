/*
 * nn_vmath.h - vectorised transcendental functions over short arrays, for the nn kernels
 * (activations, softmax, losses, recurrent cells).
 *
 * The functions come from SLEEF (Debian's libsleef), whose u10 variants are within one unit in the
 * last place, as the vectorised paths of PyTorch's own CPU kernels are. The variant is chosen at
 * compile time from the kernel file's -march (AVX-512F for x86-64-v4, AVX2 for v3, SSE4 for v2), so
 * nothing is dispatched at run time between a loop and the library.
 *
 * nnv_<f>_f32(y, x, n) / nnv_<f>_f64(y, x, n) write y[i] = f(x[i]) for n elements; y may be x.
 * Whole vectors are computed in place and the tail goes through one zero-padded vector, so nothing
 * outside the arrays is read or written. The nn kernels call them on blocks of a few hundred
 * elements that stay in L1, between plain loops the compiler vectorises.
 */
#ifndef CPU_NN_VMATH_H
#define CPU_NN_VMATH_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include <sleef.h>

#include "vmath.h" /* the ISA level's vector type names and operations (VM_*) */

#if defined(__AVX512F__)
#define NNV_NF 16
#define NNV_ND 8
#define NNV_LDF _mm512_loadu_ps
#define NNV_STF _mm512_storeu_ps
#define NNV_LDD _mm512_loadu_pd
#define NNV_STD _mm512_storeu_pd
#define NNV_F(F) Sleef_##F##f16_u10avx512f
#define NNV_D(F) Sleef_##F##d8_u10avx512f
#elif defined(__AVX2__)
#define NNV_NF 8
#define NNV_ND 4
#define NNV_LDF _mm256_loadu_ps
#define NNV_STF _mm256_storeu_ps
#define NNV_LDD _mm256_loadu_pd
#define NNV_STD _mm256_storeu_pd
#define NNV_F(F) Sleef_##F##f8_u10avx2
#define NNV_D(F) Sleef_##F##d4_u10avx2
#elif defined(__SSE4_1__)
#define NNV_NF 4
#define NNV_ND 2
#define NNV_LDF _mm_loadu_ps
#define NNV_STF _mm_storeu_ps
#define NNV_LDD _mm_loadu_pd
#define NNV_STD _mm_storeu_pd
#define NNV_F(F) Sleef_##F##f4_u10sse4
#define NNV_D(F) Sleef_##F##d2_u10sse4
#else
#error "nn_vmath.h needs SSE4.1 or later (x86-64-v2)"
#endif

/* nnv_F_f32 and nnv_F_f64 from the vector functions FF and FD. Always inlined: with an inline FF
 * (VM_EXPF) a call left standing at -O1 made GCC warn that the caller's scratch, filled by a loop
 * just before, might be uninitialised. */
#define NNV_ARRAY_OF(F, FF, FD)                                                                    \
    static inline __attribute__((always_inline)) void nnv_##F##_f32(float *y, const float *x, int64_t n) { \
        int64_t i = 0;                                                                             \
        for (; i + NNV_NF <= n; i += NNV_NF) NNV_STF(y + i, FF(NNV_LDF(x + i)));                   \
        if (i < n) {                                                                               \
            float t[NNV_NF] = {0};                                                                 \
            memcpy(t, x + i, sizeof(float) * (size_t)(n - i));                                    \
            NNV_STF(t, FF(NNV_LDF(t)));                                                            \
            memcpy(y + i, t, sizeof(float) * (size_t)(n - i));                                    \
        }                                                                                          \
    }                                                                                              \
    static inline __attribute__((always_inline)) void nnv_##F##_f64(double *y, const double *x, int64_t n) { \
        int64_t i = 0;                                                                             \
        for (; i + NNV_ND <= n; i += NNV_ND) NNV_STD(y + i, FD(NNV_LDD(x + i)));                   \
        if (i < n) {                                                                               \
            double t[NNV_ND] = {0};                                                                \
            memcpy(t, x + i, sizeof(double) * (size_t)(n - i));                                    \
            NNV_STD(t, FD(NNV_LDD(t)));                                                            \
            memcpy(y + i, t, sizeof(double) * (size_t)(n - i));                                    \
        }                                                                                          \
    }

#define NNV_ARRAY(F) NNV_ARRAY_OF(F, NNV_F(F), NNV_D(F))

NNV_ARRAY_OF(exp, VM_EXPF, NNV_D(exp))
NNV_ARRAY(log)
NNV_ARRAY(log1p)
NNV_ARRAY(tanh)
NNV_ARRAY(erf)

/* nnv_clamp_shifted_<f32|f64>(y, x, n, shift, lo, hi): y[i] = min(hi, max(lo, x[i] + shift)), a NaN
 * kept (relu6(x + 3) of hardswish and hardsigmoid). The instructions' max(lo, v) and min(hi, v)
 * return v when it is NaN: two instructions, where GCC turns the same selects written in C into four
 * compares and a blend, which bounded hardswish below memory speed. */
#define NNV_CLAMP_SHIFTED(SFX, T, N, LD, ST, OP)                                                   \
    static inline void nnv_clamp_shifted_##SFX(T *y, const T *x, int64_t n, T shift, T lo, T hi) { \
        const __typeof__(LD(x)) s = OP(set1)(shift), l = OP(set1)(lo), h = OP(set1)(hi);           \
        int64_t i = 0;                                                                             \
        for (; i + N <= n; i += N) ST(y + i, OP(min)(h, OP(max)(l, OP(add)(LD(x + i), s))));       \
        if (i < n) {                                                                               \
            T t[N] = {0};                                                                          \
            memcpy(t, x + i, sizeof(T) * (size_t)(n - i));                                        \
            ST(t, OP(min)(h, OP(max)(l, OP(add)(LD(t), s))));                                      \
            memcpy(y + i, t, sizeof(T) * (size_t)(n - i));                                        \
        }                                                                                          \
    }
NNV_CLAMP_SHIFTED(f32, float, VM_NF, VM_LDF, VM_STF, VM_OPF)
NNV_CLAMP_SHIFTED(f64, double, VM_ND, VM_LDD, VM_STD, VM_OPD)

/* nnv_F(T, f) picks the float or double array function from the element type T. */
#define NNV(T, F) _Generic((T)0, float: nnv_##F##_f32, double: nnv_##F##_f64)

#endif
