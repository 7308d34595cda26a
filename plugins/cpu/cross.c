/*
 * cross.c - linalg_cross: the cross product of 3-vectors along one dim.
 *
 * Contract (docs/plugin-abi.md): linalg_cross  a, b (at c's sizes, zero strides where broadcast) ->
 * c; ints[0]: the dim, of size 3. Integers wrap, float16/bfloat16 compute in float, complex64 and
 * complex128 with PyTorch's schoolbook products.
 */
#include "complex.h"
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

/* One kernel per dtype: A the type a vector's parts are loaded as (LOAD) and CROSS(x1, y2, x2, y1)
 * the product x1 * y2 - x2 * y1 in it, stored with STORE. */
#define CROSS_STAMP(S, A, LOAD, CROSS, STORE)                                                      \
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
            A x[3], y[3];                                                                          \
            for (int k = 0; k < 3; k++) {                                                          \
                x[k] = LOAD(S, a[off[0] + k * sa]);                                                \
                y[k] = LOAD(S, b[off[1] + k * sb]);                                                \
            }                                                                                      \
            for (int k = 0; k < 3; k++) {                                                          \
                const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;                                      \
                c[off[2] + k * sc] = STORE(S, CROSS(S, x[k1], y[k2], x[k2], y[k1]));               \
            }                                                                                      \
        }                                                                                          \
        return TC_OK;                                                                              \
    }
/* real dtypes in their wrapping type (integers wrap), stored through the compute type */
#define REAL_LOAD(S, e) ((CPU_U_##S)cpu_ld_##S(e))
#define REAL_CROSS(S, x1, y2, x2, y1) ((x1) * (y2) - (x2) * (y1))
#define REAL_STORE(S, r) cpu_st_##S((CPU_C_##S)(r))
#define REAL_STAMP(_, S) CROSS_STAMP(S, CPU_U_##S, REAL_LOAD, REAL_CROSS, REAL_STORE)
CPU_DTYPES_NUMERIC(REAL_STAMP, _)
/* complex64/complex128 with PyTorch's schoolbook products and a difference of the parts */
#define CX_LOAD(S, e) cpu_ld_##S(e)
#define CX_CROSS(S, x1, y2, x2, y1) CPU_CX(add, S)(CPU_CX(mul, S)(x1, y2), CPU_CX(neg, S)(CPU_CX(mul, S)(x2, y1)))
#define CX_STORE(S, r) cpu_st_##S(r)
#define CX_STAMP(_, S) CROSS_STAMP(S, CPU_C_##S, CX_LOAD, CX_CROSS, CX_STORE)
CPU_DTYPES_COMPLEX_FULL(CX_STAMP, _)

/* PyTorch's CPU cross takes neither bool nor float16. */
static int k_cross_refused(const tc_kernel_args *args) {
    return cpu_core->set_error(TC_ERR_RUNTIME, "\"cross\" not implemented for '%s'",
                               args->outputs[0].dtype == TC_BOOL ? "Bool" : "Half");
}

#define ENTRY(_, S) {"linalg_cross", CPU_DT_##S, CPU_DT_##S == TC_FLOAT16 ? k_cross_refused : k_cross_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_NUMERIC(ENTRY, _) CPU_DTYPES_COMPLEX_FULL(ENTRY, _){
    "linalg_cross", TC_BOOL, k_cross_refused}};
CPU_KERNEL_TABLE(kernels);
