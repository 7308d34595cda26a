/*
 * mm_kernel.h - mm.c's own float32/float64 product for the AVX-512 variant (mm_kernel.c).
 */
#ifndef CPU_MM_KERNEL_H
#define CPU_MM_KERNEL_H

#include <stdint.h>

#include "mm.h"

/* Computes g when the kernel takes it (float32/float64, the AVX-512 variant, the size and layout
 * rules in mm_kernel.c): 1 when it did, 0 when it leaves g to the caller (BLAS or mm.c's loop), -1
 * when packing b ran out of memory (nothing computed, nothing raised: it may run on a pool worker).
 * `nested`: already on a piece of a batch, stay on this thread. */
int mm_kernel_try(int32_t dtype, const mm_args *g, int nested);

/* The same for a row-major GEMM in BLAS's terms (trans_a/trans_b 1: the operand is stored transposed,
 * ld apart), c = op(a) @ op(b) + beta * c: other kernel files' products (conv.c). */
int mm_kernel_gemm(int32_t dtype, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const void *a,
                   int64_t lda, const void *b, int64_t ldb, double beta, void *c, int64_t ldc);

#endif
