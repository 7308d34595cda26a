/*
 * cross.c - linalg_cross: the cross product of 3-vectors along one dim.
 *
 * Contract (docs/plugin-abi.md): linalg_cross  a, b (at c's sizes, zero strides where broadcast) ->
 * c; ints[0]: the dim, of size 3. Integers wrap, float16/bfloat16 compute in float.
 */
#include "cpu.h"
#include "dtype.h"

/* The element offsets of the `index`-th vector (row-major over every dim but `dim`) in each view. */
static void offsets(const tc_view *v, int n, int32_t dim, int64_t index, int64_t *off) {
    const tc_view *out = &v[n - 1];
    for (int k = 0; k < n; k++) off[k] = 0;
    for (int32_t d = out->ndim - 1; d >= 0; d--) {
        if (d == dim) continue;
        const int64_t i = index % out->sizes[d];
        index /= out->sizes[d];
        for (int k = 0; k < n; k++) off[k] += i * v[k].strides[d];
    }
}

#define CROSS_STAMP(_, S)                                                                          \
    static int k_cross_##S(const tc_kernel_args *args) {                                           \
        if (cpu_check_args(args, 2, 1, "linalg_cross")) return TC_FAIL;                            \
        const tc_view v[3] = {args->inputs[0], args->inputs[1], args->outputs[0]};                 \
        const int32_t dim = (int32_t)args->ints[0];                                                \
        int64_t count = 1;                                                                         \
        for (int32_t d = 0; d < v[2].ndim; d++)                                                    \
            if (d != dim) count *= v[2].sizes[d];                                                  \
        const CPU_T_##S *a = v[0].data, *b = v[1].data;                                            \
        CPU_T_##S *c = v[2].data;                                                                  \
        const int64_t sa = v[0].strides[dim], sb = v[1].strides[dim], sc = v[2].strides[dim];      \
        for (int64_t i = 0; i < count; i++) {                                                      \
            int64_t off[3];                                                                        \
            offsets(v, 3, dim, i, off);                                                            \
            CPU_U_##S x[3], y[3];                                                                  \
            for (int k = 0; k < 3; k++) {                                                          \
                x[k] = (CPU_U_##S)cpu_ld_##S(a[off[0] + k * sa]);                                  \
                y[k] = (CPU_U_##S)cpu_ld_##S(b[off[1] + k * sb]);                                  \
            }                                                                                      \
            for (int k = 0; k < 3; k++) {                                                          \
                const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;                                      \
                c[off[2] + k * sc] = cpu_st_##S((CPU_C_##S)(x[k1] * y[k2] - x[k2] * y[k1]));       \
            }                                                                                      \
        }                                                                                          \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_NUMERIC(CROSS_STAMP, _)

/* PyTorch's CPU cross takes neither bool nor float16. */
static int k_cross_refused(const tc_kernel_args *args) {
    return cpu_core->set_error(TC_ERR_RUNTIME, "\"cross\" not implemented for '%s'",
                               args->outputs[0].dtype == TC_BOOL ? "Bool" : "Half");
}

#define ENTRY(_, S) {"linalg_cross", CPU_DT_##S, CPU_DT_##S == TC_FLOAT16 ? k_cross_refused : k_cross_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_NUMERIC(ENTRY, _){"linalg_cross", TC_BOOL, k_cross_refused}};
CPU_KERNEL_TABLE(kernels);
