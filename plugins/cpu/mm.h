/*
 * mm.h - the matrix-product drivers of mm.c, which kernel files of other dtypes (complex_mm.c) run
 * with their own portable loop: a product goes to the BLAS provider when it has one for the dtype
 * and can take the operands' strides, else `rows` computes it, split by rows over the pool.
 */
#ifndef CPU_MM_H
#define CPU_MM_H

#include <stdint.h>

#include "torch_core/tc_abi.h"

/* One product c[m,n] = a[m,k] @ b[k,n]; strides in elements. */
typedef struct mm_args {
    const char *a, *b;
    char *c;
    int64_t m, n, k;
    int64_t as0, as1, bs0, bs1, cs0, cs1;
} mm_args;

/* Rows [i0, i1) of c; called concurrently on disjoint rows. */
typedef void (*mm_rows_fn)(const mm_args *g, int64_t i0, int64_t i1);

/* The mm and bmm kernels' bodies (contracts in docs/plugin-abi.md). */
int cpu_mm_run(const tc_kernel_args *args, mm_rows_fn rows);
int cpu_bmm_run(const tc_kernel_args *args, mm_rows_fn rows);

#endif
