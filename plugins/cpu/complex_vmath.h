/*
 * complex_vmath.h - vectorised complex exp over arrays of complex64 and complex128, for the ISA level
 * the including file is built for (as vmath.h).
 *
 * exp(a + bi) = exp(a) (cos b + i sin b), with SLEEF's u10 exp and sincos and one product per part:
 * the functions and rounding of PyTorch 1.13's vectorised kernel, whose results this reproduces.
 * PyTorch's runs exp and sincos on the interleaved (re, im) pairs, so every function runs on both
 * parts and half of each result is thrown away. Here the parts are first split apart (two shuffles
 * per two vectors of pairs), so each function runs once per element, and the results are interleaved
 * again after the products.
 *
 * cpu_cx_exp_array_<f|d>(x, sx, y, sy, n): y[i * sy] = exp(x[i * sx]) for n elements, strides in
 * elements; contiguous arrays are read in place, strided ones a vector's worth at a time through a
 * buffer, so that a strided element gets the same bits as a contiguous one.
 */
#ifndef CPU_COMPLEX_VMATH_H
#define CPU_COMPLEX_VMATH_H

#include <stdint.h>
#include <string.h>

#include "complex.h"
#include "vmath.h"

/* Lane i of the split and interleave shuffles, for N lanes per vector (tables of 16, the widest). */
#define CX_VM_EVEN(i, N) (2 * (i))
#define CX_VM_ODD(i, N) (2 * (i) + 1)
#define CX_VM_LOW(i, N) ((i) / 2 + (i) % 2 * (N))
#define CX_VM_HIGH(i, N) ((N) / 2 + (i) / 2 + (i) % 2 * (N))
#define CX_VM_TABLE(F, N)                                                                          \
    {F(0, N),  F(1, N),  F(2, N),  F(3, N),  F(4, N),  F(5, N),  F(6, N),  F(7, N),                \
     F(8, N),  F(9, N),  F(10, N), F(11, N), F(12, N), F(13, N), F(14, N), F(15, N)}

/* SLEEF's u10 sincos reduces its argument by one of two methods, chosen for the whole vector: a
 * quick one when every lane is below this bound in magnitude, else a wide one (Payne-Hanek) for all
 * lanes, which can round a small lane's result differently by one unit. So that an element's result
 * does not depend on its neighbours (nor on strides and thread splits), lanes below the bound always
 * get the quick method's result. (Measured on Debian's SLEEF: float32 changes method at 125, float64
 * at 1e14; the float64 methods below 1e14 agree.) PyTorch's kernel decides per vector of 4 complex64
 * or 2 complex128 (re and im lanes together), so where such a group holds a larger part, its other
 * elements can differ from PyTorch's by one unit in the last place. */
#define CX_VM_SMALL_f 125.0f
#define CX_VM_SMALL_d 1e14

/* X: the helper suffix (f, d); C, R, I: the complex, part and same-width integer types; N parts per
 * vector; VV the intrinsics' vector type; EXP, SINCOS the SLEEF functions. */
#define CX_VM_EXP(X, C, R, I, N, VV, EXP, SINCOS)                                                 \
    typedef R cx_vm_part_##X __attribute__((vector_size(N * sizeof(R))));                          \
    typedef I cx_vm_index_##X __attribute__((vector_size(N * sizeof(R))));                         \
    /* sin and cos of the N lanes of v, each lane as SLEEF computes it alone (see CX_VM_SMALL_f) */ \
    static inline void cx_vm_sincos_##X(cx_vm_part_##X v, cx_vm_part_##X *sin_v, cx_vm_part_##X *cos_v) { \
        typedef cx_vm_part_##X part;                                                               \
        typedef cx_vm_index_##X index;                                                             \
        const index small = (v < (R)CX_VM_SMALL_##X) & (v > -(R)CX_VM_SMALL_##X); /* NaN: not small */ \
        int all_small = 1;                                                                         \
        for (int k = 0; k < N; k++) all_small &= small[k] != 0;                                    \
        VV vv;                                                                                     \
        memcpy(&vv, &v, sizeof(part));                                                             \
        const __typeof__(SINCOS(vv)) sc = SINCOS(vv); /* .x the sines, .y the cosines */           \
        memcpy(sin_v, &sc.x, sizeof(part));                                                        \
        memcpy(cos_v, &sc.y, sizeof(part));                                                        \
        if (all_small) return;                                                                     \
        /* the call above took the wide reduction for every lane: the small ones again, alone */   \
        index bits;                                                                                \
        memcpy(&bits, &v, sizeof(part));                                                           \
        bits &= small;                                                                             \
        memcpy(&vv, &bits, sizeof(part));                                                          \
        const __typeof__(SINCOS(vv)) narrow = SINCOS(vv);                                          \
        index s_wide, c_wide, s_narrow, c_narrow;                                                  \
        memcpy(&s_wide, sin_v, sizeof(part));                                                      \
        memcpy(&c_wide, cos_v, sizeof(part));                                                      \
        memcpy(&s_narrow, &narrow.x, sizeof(part));                                                \
        memcpy(&c_narrow, &narrow.y, sizeof(part));                                                \
        s_wide = (s_narrow & small) | (s_wide & ~small);                                           \
        c_wide = (c_narrow & small) | (c_wide & ~small);                                           \
        memcpy(sin_v, &s_wide, sizeof(part));                                                      \
        memcpy(cos_v, &c_wide, sizeof(part));                                                      \
    }                                                                                              \
    /* the N elements at x into y (y may be x) */                                                  \
    static inline void cpu_cx_exp_vector_##X(const C *x, C *y) {                                   \
        typedef cx_vm_part_##X part;                                                               \
        typedef cx_vm_index_##X index;                                                             \
        static const I tables[4][16] = {CX_VM_TABLE(CX_VM_EVEN, N), CX_VM_TABLE(CX_VM_ODD, N),     \
                                        CX_VM_TABLE(CX_VM_LOW, N), CX_VM_TABLE(CX_VM_HIGH, N)};    \
        index even, odd, low, high;                                                                \
        memcpy(&even, tables[0], sizeof(index));                                                   \
        memcpy(&odd, tables[1], sizeof(index));                                                    \
        memcpy(&low, tables[2], sizeof(index));                                                    \
        memcpy(&high, tables[3], sizeof(index));                                                   \
        part lo, hi;                                                                               \
        memcpy(&lo, x, sizeof(part));                                                              \
        memcpy(&hi, (const R *)x + N, sizeof(part));                                               \
        const part re = __builtin_shuffle(lo, hi, even), im = __builtin_shuffle(lo, hi, odd);      \
        VV vre, vim;                                                                               \
        memcpy(&vre, &re, sizeof(part));                                                           \
        memcpy(&vim, &im, sizeof(part));                                                           \
        const VV e = EXP(vre);                                                                     \
        part ev, sin_v, cos_v;                                                                     \
        memcpy(&ev, &e, sizeof(part));                                                             \
        cx_vm_sincos_##X(im, &sin_v, &cos_v);                                                      \
        const part out_re = ev * cos_v, out_im = ev * sin_v;                                       \
        lo = __builtin_shuffle(out_re, out_im, low);                                               \
        hi = __builtin_shuffle(out_re, out_im, high);                                              \
        memcpy(y, &lo, sizeof(part));                                                              \
        memcpy((R *)y + N, &hi, sizeof(part));                                                     \
    }                                                                                              \
    static inline void cpu_cx_exp_array_##X(const C *x, int64_t sx, C *y, int64_t sy, int64_t n) { \
        int64_t i = 0;                                                                             \
        if (sx == 1 && sy == 1)                                                                    \
            for (; i + N <= n; i += N) cpu_cx_exp_vector_##X(x + i, y + i);                        \
        while (i < n) { /* strided, and the tail: through a buffer, zero-padded */                 \
            C t[N];                                                                                \
            memset(t, 0, sizeof(t));                                                               \
            const int64_t m = n - i < N ? n - i : N;                                               \
            for (int64_t j = 0; j < m; j++) t[j] = x[(i + j) * sx];                                \
            cpu_cx_exp_vector_##X(t, t);                                                           \
            for (int64_t j = 0; j < m; j++) y[(i + j) * sy] = t[j];                                \
            i += m;                                                                                \
        }                                                                                          \
    }

CX_VM_EXP(f, cpu_cf, float, int32_t, VM_NF, VM_VF, VM_EXPF, VM_SLEEF_F(sincos, u10))
CX_VM_EXP(d, cpu_cd, double, int64_t, VM_ND, VM_VD, VM_SLEEF_D(exp, u10), VM_SLEEF_D(sincos, u10))

#endif
