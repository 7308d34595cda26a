/*
 * mm.h - the matrix-product drivers of mm.c, which kernel files of other dtypes (complex_mm.c) run
 * with their own portable loop: a product goes to the BLAS provider when it has one for the dtype
 * and can take the operands' strides, else `rows` computes it, split by rows over the pool.
 */
#ifndef CPU_MM_H
#define CPU_MM_H

#include <stdint.h>

#include "torch_core/tc_abi.h"

/* alpha and beta in every accumulator type: integers truncated (PyTorch converts float scalars so). */
typedef struct mm_scale {
    double f_alpha, f_beta;
    uint64_t i_alpha, i_beta;
    int plain; /* alpha == 1, beta == 0: c = a @ b (always so for the complex products) */
} mm_scale;

/* One product c[m,n] = alpha * a[m,k] @ b[k,n] + beta * c; strides in elements. */
typedef struct mm_args {
    const char *a, *b;
    char *c;
    int64_t m, n, k;
    int64_t as0, as1, bs0, bs1, cs0, cs1;
    const mm_scale *scale;
} mm_args;

/* Below this many multiply-adds a float32/float64 product stays in mm.c's loop: no packing, no call. */
#define MM_SMALL_WORK ((int64_t)16 * 16 * 16)

/* m * n * max(k, 1), saturated at INT64_MAX: what a product's threading and size rules weigh. */
int64_t cpu_mm_work(int64_t m, int64_t n, int64_t k);

/* Rows [i0, i1) of c; called concurrently on disjoint rows. */
typedef void (*mm_rows_fn)(const mm_args *g, int64_t i0, int64_t i1);

/* The mm and bmm kernels' bodies (contracts in docs/plugin-abi.md). */
int cpu_mm_run(const tc_kernel_args *args, mm_rows_fn rows);
int cpu_bmm_run(const tc_kernel_args *args, mm_rows_fn rows);

#endif
