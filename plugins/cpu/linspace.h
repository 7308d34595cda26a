/*
 * linspace.h - linspace's values as PyTorch 1.13's CPU kernel rounds them on the same CPU.
 *
 * PyTorch steps in the dtype (in double for integer dtypes): step = (end - start) / (n - 1), and
 * element i is start + step * i below n / 2, end - step * (n - 1 - i) from there. Its kernel writes
 * vectors of W elements (32 bytes' worth, 64 with AVX-512) two at a time: the first element of each
 * vector by that formula (for integer dtypes truncated to the dtype), the others as first + k * step,
 * so a vector that starts below n / 2 counts from start to its end. The elements after the last pair
 * of whole vectors, and every element of a strided output, come one at a time by the formula.
 * PyTorch's formula is a fused multiply-add where its kernel is built for AVX2 (the compiler
 * contracts it) while first + k * step is not. Above 32768 elements its threads take contiguous
 * pieces, each starting its own vectors. A plain start + i * step (what this plugin computed before)
 * differs in the last bit of about a third of the float elements and by one in integer ones, so all
 * of this is reproduced: tests compare the values with the reference's bit for bit.
 *
 * Which of PyTorch's CPU capabilities to follow: AVX2 (32-byte vectors, fused multiply-adds), in
 * every ISA variant of this plugin. That is the capability the reference runs its kernels at on the
 * project's machines, AVX-512 ones included, so a user gets the same values on every CPU and every
 * variant (TORCH_CPU_ISA) passes the same recorded tests. fma() is correctly rounded wherever it
 * runs: an instruction at x86-64-v3 and up, glibc's exact routine at v2.
 *
 * arange's kernel is the same walk without the second end: element i is start + step * i in its
 * accumulation type (double for float32 and float64, float for float16 and bfloat16), a vector's
 * first element rounded to the dtype before the others add k * step to it.
 */
#ifndef CPU_LINSPACE_H
#define CPU_LINSPACE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"

#define LINSPACE_VECTOR_BYTES 32 /* PyTorch's AVX2 vectors, in every variant (above) */
#define LINSPACE_GRAIN 32768 /* PyTorch's at::internal::GRAIN_SIZE */

#define LINSPACE_MUL_ADD_F(a, b, c) fmaf((a), (b), (c))
#define LINSPACE_MUL_ADD_D(a, b, c) fma((a), (b), (c))

/* How PyTorch's parallel_for cuts n elements: pieces of this many (the last one shorter). */
static inline int64_t linspace_piece(int64_t n) {
    int64_t threads = cpu_core->get_num_threads();
    if (n <= LINSPACE_GRAIN || threads <= 1) return n;
    const int64_t most = (n + LINSPACE_GRAIN - 1) / LINSPACE_GRAIN;
    if (threads > most) threads = most;
    return (n + threads - 1) / threads;
}

/* Element i by linspace's formula, in the step's type T with the multiply-add MUL_ADD. */
#define LINSPACE_AT(MUL_ADD, T, i)                                                                 \
    ((i) < n / 2 ? MUL_ADD(step, (T)(i), first) : MUL_ADD(-step, (T)(n - 1 - (i)), last))

/* Walks the n elements of a range whose element i is AT(i), calling EMIT(i, value) for those values
 * and VECTOR(i, at, k) for the k-th element of the vector whose first element is element `at`;
 * `width` elements a vector, `vectorised` false for a strided output. PyTorch writes the vectors in
 * pairs: a piece's whole pairs are vectors. */
#define LINSPACE_WALK(width, vectorised, AT, EMIT, VECTOR)                                         \
    do {                                                                                           \
        const int64_t piece = linspace_piece(n);                                                   \
        for (int64_t lo = 0; lo < n; lo += piece) {                                                \
            const int64_t hi = n - lo < piece ? n : lo + piece;                                    \
            const int64_t vectors_end = (vectorised) ? lo + (hi - lo) / (2 * (width)) * (2 * (width)) : lo; \
            int64_t i = lo;                                                                        \
            for (; i < vectors_end; i += (width)) {                                                \
                EMIT(i, AT(i));                                                                    \
                for (int64_t k = 1; k < (width); k++) VECTOR(i + k, i, k);                         \
            }                                                                                      \
            for (; i < hi; i++) EMIT(i, AT(i));                                                    \
        }                                                                                          \
    } while (0)

/* The float and double parts (a real dtype's values, or a complex dtype's real or imaginary parts):
 * out[i * stride] for i in [0, n), n > 1. */
#define LINSPACE_PART(NAME, T)                                                            \
    static inline void NAME(T first, T last, int64_t n, int64_t width, bool vectorised, T *out, int64_t stride) { \
        typedef T part_t;                                                                          \
        const part_t step = (last - first) / (part_t)(n - 1);                                      \
        LINSPACE_WALK(width, vectorised, LINSPACE_PART_AT_##T, LINSPACE_PART_EMIT, LINSPACE_PART_VECTOR); \
    }
#define LINSPACE_PART_AT_float(i) LINSPACE_AT(LINSPACE_MUL_ADD_F, float, i)
#define LINSPACE_PART_AT_double(i) LINSPACE_AT(LINSPACE_MUL_ADD_D, double, i)
#define LINSPACE_PART_EMIT(i, value) (out[(i) * stride] = (value))
#define LINSPACE_PART_VECTOR(i, at, k) (out[(i) * stride] = out[(at) * stride] + (part_t)(k) * step)
LINSPACE_PART(linspace_part_f32, float)
LINSPACE_PART(linspace_part_f64, double)

#endif
