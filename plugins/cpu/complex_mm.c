/*
 * complex_mm.c - mm and bmm of complex64 and complex128: the provider's cgemm/zgemm (mm.c decides,
 * as for float32/float64), else this loop, which accumulates each output element in complex double
 * along k. complex32 has no products, as in PyTorch 1.13.
 */
#include "complex.h"
#include "cpu.h"
#include "mm.h"

#define CMM_STAMP(_, S)                                                                            \
    static void cmm_rows_##S(const mm_args *g, int64_t i0, int64_t i1) {                           \
        const CPU_T_##S *a = (const CPU_T_##S *)g->a, *b = (const CPU_T_##S *)g->b;               \
        CPU_T_##S *c = (CPU_T_##S *)g->c;                                                          \
        for (int64_t i = i0; i < i1; i++)                                                          \
            for (int64_t j = 0; j < g->n; j++) {                                                   \
                cpu_cd acc = {0.0, 0.0};                                                           \
                for (int64_t p = 0; p < g->k; p++) {                                               \
                    const CPU_T_##S x = a[i * g->as0 + p * g->as1], y = b[p * g->bs0 + j * g->bs1]; \
                    acc = cpu_cx_add_d(acc, cpu_cx_mul_d((cpu_cd){x.re, x.im}, (cpu_cd){y.re, y.im})); \
                }                                                                                  \
                c[i * g->cs0 + j * g->cs1] = cpu_cx_from_cd_##S(acc);                              \
            }                                                                                      \
    }                                                                                              \
    static int k_mm_##S(const tc_kernel_args *args) { return cpu_mm_run(args, cmm_rows_##S); }     \
    static int k_bmm_##S(const tc_kernel_args *args) { return cpu_bmm_run(args, cmm_rows_##S); }
CPU_DTYPES_COMPLEX_FULL(CMM_STAMP, _)

#define ENTRY(_, S) {"mm", CPU_DT_##S, k_mm_##S}, {"bmm", CPU_DT_##S, k_bmm_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_COMPLEX_FULL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
