/*
 * mm_kernel.h - mm.c's own float32/float64 product for the AVX-512 variant (mm_kernel.c).
 */
#ifndef CPU_MM_KERNEL_H
#define CPU_MM_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "mm.h"

/* Whether this ISA variant has the kernel. */
bool mm_kernel_available(void);

/* Rows [i0, i1) of g's c (unit column stride, row stride cs0) = alpha * a @ b + beta * c, with b
 * given separately as k rows of n elements, ldb apart (g's own b, or a packed copy of it). Row
 * pieces handed to different threads should start at multiples of mm_kernel_row_unit(). */
void mm_kernel_f32_rows(const mm_args *g, const float *b, int64_t ldb, int64_t i0, int64_t i1);
void mm_kernel_f64_rows(const mm_args *g, const double *b, int64_t ldb, int64_t i0, int64_t i1);
int64_t mm_kernel_row_unit(void);

/* dst[k x n] (rows n apart) = b[k x n] read through strides bs0, bs1: the packed b for the rows
 * functions when b's columns are not contiguous (float32's transposed b in 16 x 16 tiles). */
void mm_kernel_f32_pack(float *dst, const float *b, int64_t k, int64_t n, int64_t bs0, int64_t bs1);
void mm_kernel_f64_pack(double *dst, const double *b, int64_t k, int64_t n, int64_t bs0, int64_t bs1);

/* A row-major float32 GEMM in BLAS's terms (trans_a/trans_b 1: the operand is stored transposed, ld
 * apart), c = op(a) @ op(b) + beta * c, through mm.c's rules for the kernel: 1 when it computed it, 0
 * when the kernel does not take it (the caller's BLAS or loop then runs it), -1 when packing b ran
 * out of memory (nothing computed, nothing raised). For other kernel files' products (conv.c). */
int mm_kernel_f32_gemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                       const float *b, int64_t ldb, float beta, float *c, int64_t ldc);

#endif
