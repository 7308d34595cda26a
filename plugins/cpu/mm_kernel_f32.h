/*
 * mm_kernel_f32.h - mm.c's own float32 product for the AVX-512 variant (mm_kernel_f32.c).
 */
#ifndef CPU_MM_KERNEL_F32_H
#define CPU_MM_KERNEL_F32_H

#include <stdbool.h>
#include <stdint.h>

#include "mm.h"

/* Whether this ISA variant has the kernel. */
bool mm_kernel_f32_available(void);

/* Rows [i0, i1) of g's c (unit column stride, row stride cs0) = alpha * a @ b + beta * c, with b
 * given separately as k rows of n floats, ldb apart (g's own b, or a packed copy of it). Rows
 * pieces handed to different threads should start at multiples of mm_kernel_f32_row_unit(). */
void mm_kernel_f32_rows(const mm_args *g, const float *b, int64_t ldb, int64_t i0, int64_t i1);
int64_t mm_kernel_f32_row_unit(void);

#endif
