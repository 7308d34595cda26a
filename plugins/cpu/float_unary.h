/*
 * float_unary.h - the driver of elementwise float functions of one tensor (exp, erfinv, logit, ...).
 *
 * An op is written once per compute type as an array function, y[i] = f(x[i]) for n elements
 * (vmath.h's vectorised SLEEF calls, or a plain loop the compiler vectorises); the driver feeds it
 * contiguous rows: a contiguous float32/float64 tensor directly, anything else (strided operands,
 * float16/bfloat16 storage, inputs of another dtype) in blocks converted into a buffer on the stack
 * and back. float16 and bfloat16 compute in float.
 */
#ifndef CPU_FLOAT_UNARY_H
#define CPU_FLOAT_UNARY_H

#include <stdint.h>

#include "dtype.h"
#include "torch_core/tc_abi.h"

/* What an op's contract passes besides the tensors: scalars[k] as f[k], ints[0] as i. */
typedef struct cpu_fu_params {
    double f[3];
    int64_t i;
    int32_t dtype; /* the kernel's dtype, for ops that round intermediate values to their storage */
} cpu_fu_params;

typedef void (*cpu_fu_f32)(const float *x, float *y, int64_t n, const cpu_fu_params *p);
typedef void (*cpu_fu_f64)(const double *x, double *y, int64_t n, const cpu_fu_params *p);

/* outputs[0] (of `dtype`, a floating dtype) = f(inputs[0]); the input may have any dtype, converted
 * to `dtype` while loading (register with TC_KERNEL_CONVERTS_INPUTS). f32 serves float16, bfloat16
 * and float32, f64 float64. */
int cpu_float_unary(const tc_kernel_args *args, int32_t dtype, cpu_fu_f32 f32, cpu_fu_f64 f64, const char *op);
/* The same for ops that compute so much per element (exp, sin, lgamma, ...) that memory does not
 * limit them: their large results skip the streaming stores (iterate.c), whose extra copy would cost
 * 5-8% there (exp of 16M float32: 9.5-10.3 against 10.4-10.6 GB/s on one thread). */
int cpu_float_unary_as(const tc_kernel_args *args, int32_t dtype, cpu_fu_f32 f32, cpu_fu_f64 f64, const char *op,
                       bool compute_bound);

/* v rounded to the storage of `dtype` when that is float16 or bfloat16 (else v): for ops whose
 * PyTorch kernels hold intermediate values in the 16-bit type. */
static inline double cpu_fu_round16(double v, int32_t dtype) {
    if (dtype == TC_FLOAT16) return cpu_ld_f16(cpu_st_f16((float)v));
    if (dtype == TC_BFLOAT16) return cpu_ld_bf16(cpu_st_bf16((float)v));
    return v;
}

/* Kernels for the four floating dtypes from fu_<op>_f32 and fu_<op>_f64, and their table entries. */
#define CPU_FU_KERNELS(OP) CPU_FU_KERNELS_BOUND(OP, false)
#define CPU_FU_COMPUTE_KERNELS(OP) CPU_FU_KERNELS_BOUND(OP, true)
#define CPU_FU_KERNELS_BOUND(OP, COMPUTE)                                                          \
    static int k_##OP##_f16(const tc_kernel_args *a) {                                             \
        return cpu_float_unary_as(a, TC_FLOAT16, fu_##OP##_f32, fu_##OP##_f64, #OP, COMPUTE);      \
    }                                                                                              \
    static int k_##OP##_bf16(const tc_kernel_args *a) {                                            \
        return cpu_float_unary_as(a, TC_BFLOAT16, fu_##OP##_f32, fu_##OP##_f64, #OP, COMPUTE);     \
    }                                                                                              \
    static int k_##OP##_f32(const tc_kernel_args *a) {                                             \
        return cpu_float_unary_as(a, TC_FLOAT32, fu_##OP##_f32, fu_##OP##_f64, #OP, COMPUTE);      \
    }                                                                                              \
    static int k_##OP##_f64(const tc_kernel_args *a) {                                             \
        return cpu_float_unary_as(a, TC_FLOAT64, fu_##OP##_f32, fu_##OP##_f64, #OP, COMPUTE);      \
    }
#define CPU_FU_ENTRIES(OP)                                                                         \
    {#OP, TC_FLOAT16, k_##OP##_f16}, {#OP, TC_BFLOAT16, k_##OP##_bf16}, CPU_FU_WIDE_ENTRIES(OP)

/* float32 and float64 only, for ops PyTorch has no 16-bit kernels of (its message for those comes
 * from the dispatcher, which finds none). */
#define CPU_FU_WIDE_KERNELS(OP)                                                                    \
    static int k_##OP##_f32(const tc_kernel_args *a) {                                             \
        return cpu_float_unary_as(a, TC_FLOAT32, fu_##OP##_f32, fu_##OP##_f64, #OP, true);         \
    }                                                                                              \
    static int k_##OP##_f64(const tc_kernel_args *a) {                                             \
        return cpu_float_unary_as(a, TC_FLOAT64, fu_##OP##_f32, fu_##OP##_f64, #OP, true);         \
    }
#define CPU_FU_WIDE_ENTRIES(OP) {#OP, TC_FLOAT32, k_##OP##_f32}, {#OP, TC_FLOAT64, k_##OP##_f64},

/* Array functions from a scalar expression EXPR in `v` (a float for _f32, a double for _f64). */
#define CPU_FU_MAP(OP, EXPR_F, EXPR_D)                                                             \
    static void fu_##OP##_f32(const float *x, float *y, int64_t n, const cpu_fu_params *p) {      \
        (void)p;                                                                                   \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const float v = x[i];                                                                  \
            y[i] = (EXPR_F);                                                                       \
        }                                                                                          \
    }                                                                                              \
    static void fu_##OP##_f64(const double *x, double *y, int64_t n, const cpu_fu_params *p) {    \
        (void)p;                                                                                   \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const double v = x[i];                                                                 \
            y[i] = (EXPR_D);                                                                       \
        }                                                                                          \
    }

#endif
