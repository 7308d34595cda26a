/*
 * vmath.h - vectorised float math over arrays, for the ISA level the including file is built for.
 *
 * Transcendental functions come from SLEEF (Debian's libsleef), whose u10 variants are within one
 * unit in the last place, the accuracy PyTorch's own vectorised kernels use; the variant is picked
 * at compile time from the kernel file's -march (AVX-512F at x86-64-v4, AVX2 at v3, SSE4 at v2),
 * so no run-time dispatch sits between a loop and the library.
 *
 * Everything here works on arrays: vm_<f>_f32(x, y, n) writes y[i] = f(x[i]) for n elements (y may
 * be x: elements are read before they are written); f is a SLEEF function, or sigmoid composed of
 * SLEEF's exp and vector arithmetic. Full vectors are computed in place and the
 * tail goes through one zero-padded vector, so no element is read or written outside the arrays.
 */
#ifndef CPU_VMATH_H
#define CPU_VMATH_H

#include <stdint.h>
#include <string.h>

#include <immintrin.h>
#include <sleef.h>

#if defined(__AVX512F__)
#define VM_NF 16
#define VM_ND 8
#define VM_LDF _mm512_loadu_ps
#define VM_STF _mm512_storeu_ps
#define VM_LDD _mm512_loadu_pd
#define VM_STD _mm512_storeu_pd
#define VM_SLEEF_F(F, U) Sleef_##F##f16_##U##avx512f
#define VM_SLEEF_D(F, U) Sleef_##F##d8_##U##avx512f
#define VM_VF __m512
#define VM_VD __m512d
#define VM_OPF(OP) _mm512_##OP##_ps
#define VM_OPD(OP) _mm512_##OP##_pd
#elif defined(__AVX2__)
#define VM_NF 8
#define VM_ND 4
#define VM_LDF _mm256_loadu_ps
#define VM_STF _mm256_storeu_ps
#define VM_LDD _mm256_loadu_pd
#define VM_STD _mm256_storeu_pd
#define VM_SLEEF_F(F, U) Sleef_##F##f8_##U##avx2
#define VM_SLEEF_D(F, U) Sleef_##F##d4_##U##avx2
#define VM_VF __m256
#define VM_VD __m256d
#define VM_OPF(OP) _mm256_##OP##_ps
#define VM_OPD(OP) _mm256_##OP##_pd
#elif defined(__SSE4_1__)
#define VM_NF 4
#define VM_ND 2
#define VM_LDF _mm_loadu_ps
#define VM_STF _mm_storeu_ps
#define VM_LDD _mm_loadu_pd
#define VM_STD _mm_storeu_pd
#define VM_SLEEF_F(F, U) Sleef_##F##f4_##U##sse4
#define VM_SLEEF_D(F, U) Sleef_##F##d2_##U##sse4
#define VM_VF __m128
#define VM_VD __m128d
#define VM_OPF(OP) _mm_##OP##_ps
#define VM_OPD(OP) _mm_##OP##_pd
#else
#error "vmath.h needs SSE4.1 or later (x86-64-v2)"
#endif

/* VM_EXPF(v): exp of a float32 vector, SLEEF's expf_u10 of the ISA level. At the AVX2 level it is
 * SLEEF 3.5's algorithm written out here, step for step, so that it inlines into the loops: Cody and
 * Waite's reduction by ln 2 in two parts (q = rint(x / ln 2)), a degree-6 polynomial, 2^q applied in
 * two halves (so that q up to 128 and down to -150 need no special case), 0 below -104 and infinity
 * above 100. The library's call took 0.67 ns an element in cache on one Zen 3 thread, this 0.50;
 * tests/c/test_cpu_kernels.c checks every variant's exp against its SLEEF function bit for bit (all
 * 2^32 inputs agreed when this was written). */
#if defined(__AVX2__) && !defined(__AVX512F__)
static inline __m256 vm_expf_avx2(__m256 d) {
    const __m256 qf = _mm256_round_ps(_mm256_mul_ps(d, _mm256_set1_ps(1.442695040888963407359924681001892137f)),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256i q = _mm256_cvtps_epi32(qf);
    __m256 s = _mm256_fmadd_ps(qf, _mm256_set1_ps(-0.693145751953125f), d);
    s = _mm256_fmadd_ps(qf, _mm256_set1_ps(-1.428606765330187045e-06f), s);
    __m256 u = _mm256_set1_ps(0.000198527617612853646278381f);
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00139304355252534151077271f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00833336077630519866943359f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.0416664853692054748535156f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.166666671633720397949219f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.5f));
    u = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(_mm256_mul_ps(s, s), u, s));
    const __m256i half = _mm256_srai_epi32(q, 1), bias = _mm256_set1_epi32(127);
    const __m256 p1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(half, bias), 23));
    const __m256 p2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(q, half), bias), 23));
    u = _mm256_mul_ps(_mm256_mul_ps(u, p1), p2);
    u = _mm256_andnot_ps(_mm256_cmp_ps(d, _mm256_set1_ps(-104.0f), _CMP_LT_OQ), u);
    return _mm256_blendv_ps(u, _mm256_set1_ps(__builtin_inff()), _mm256_cmp_ps(_mm256_set1_ps(100.0f), d, _CMP_LT_OQ));
}
#define VM_EXPF vm_expf_avx2
#else
#define VM_EXPF VM_SLEEF_F(exp, u10)
#endif

/* Defines vm_NAME_SUFFIX(x, y, n) from a vector expression BODY(v) over a vector v of T (N lanes,
 * loaded with LD, stored with ST); the tail goes through one zero-padded vector. */
#define VM_ARRAY(NAME, SUFFIX, T, N, LD, ST, BODY)                                                 \
    static inline void vm_##NAME##_##SUFFIX(const T *x, T *y, int64_t n) {                        \
        int64_t i = 0;                                                                             \
        for (; i + N <= n; i += N) ST(y + i, BODY(LD(x + i)));                                     \
        if (i < n) {                                                                               \
            T t[N] = {0};                                                                          \
            memcpy(t, x + i, sizeof(T) * (size_t)(n - i));                                        \
            ST(t, BODY(LD(t)));                                                                    \
            memcpy(y + i, t, sizeof(T) * (size_t)(n - i));                                        \
        }                                                                                          \
    }

/* vm_F_f32 and vm_F_f64 from SLEEF's F with accuracy U (u10: 1.0 ulp). */
#define VM_SLEEF_ARRAY(F, U)                                                                       \
    VM_ARRAY(F, f32, float, VM_NF, VM_LDF, VM_STF, VM_SLEEF_F(F, U))                               \
    VM_ARRAY(F, f64, double, VM_ND, VM_LDD, VM_STD, VM_SLEEF_D(F, U))

VM_SLEEF_ARRAY(sin, u10)
VM_SLEEF_ARRAY(cos, u10)
VM_SLEEF_ARRAY(tan, u10)
VM_SLEEF_ARRAY(asin, u10)
VM_SLEEF_ARRAY(acos, u10)
VM_SLEEF_ARRAY(atan, u10)
VM_SLEEF_ARRAY(sinh, u10)
VM_SLEEF_ARRAY(cosh, u10)
VM_SLEEF_ARRAY(tanh, u10)
VM_ARRAY(exp, f32, float, VM_NF, VM_LDF, VM_STF, VM_EXPF)
VM_ARRAY(exp, f64, double, VM_ND, VM_LDD, VM_STD, VM_SLEEF_D(exp, u10))
VM_SLEEF_ARRAY(exp2, u10)
VM_SLEEF_ARRAY(expm1, u10)
VM_SLEEF_ARRAY(log, u10)
VM_SLEEF_ARRAY(log2, u10)
VM_SLEEF_ARRAY(log10, u10)
VM_SLEEF_ARRAY(log1p, u10)
VM_SLEEF_ARRAY(erf, u10)
VM_SLEEF_ARRAY(erfc, u15)
VM_SLEEF_ARRAY(lgamma, u10)

/* sigmoid(x) = 1 / (1 + exp(-x)) in one pass, rounding each step as PyTorch's vectorised kernel does
 * (exp overflowing to inf gives 0). */
#define VM_SIGMOID(SUFFIX, V, S, T, EXP)                                                           \
    static inline V vm_sigmoid_v##SUFFIX(V v) {                                                    \
        const V one = VM_OP##S(set1)((T)1);                                                        \
        const V e = EXP(VM_OP##S(sub)(VM_OP##S(setzero)(), v));                                     \
        return VM_OP##S(div)(one, VM_OP##S(add)(one, e));                                          \
    }
VM_SIGMOID(f32, VM_VF, F, float, VM_EXPF)
VM_SIGMOID(f64, VM_VD, D, double, VM_SLEEF_D(exp, u10))
VM_ARRAY(sigmoid, f32, float, VM_NF, VM_LDF, VM_STF, vm_sigmoid_vf32)
VM_ARRAY(sigmoid, f64, double, VM_ND, VM_LDD, VM_STD, vm_sigmoid_vf64)

#endif
