/*
 * nn_pointwise.h - the driver of the nn family's elementwise kernels: activations and their
 * backward, pointwise losses and theirs.
 *
 * An op is written once per compute type as a *block function*: y[0..n) = f(x0[i], x1[i], ...) over
 * contiguous arrays of at most NNP_BLOCK elements of float or double, with the op's parameters in
 * an nnp_params. A block function is plain loops the compiler vectorises plus the array functions
 * of nn_vmath.h, so an op makes one pass over memory and its transcendental functions are SIMD.
 *
 * The driver walks any strided, broadcast layout through cpu_iterate (threads above the grain),
 * hands contiguous rows of float32/float64 to the block function directly and gathers everything
 * else (strided rows, zero strides, float16/bfloat16, which compute in float) into blocks on the
 * stack first. Elements are read before they are written, so in-place ops are correct.
 */
#ifndef CPU_NN_POINTWISE_H
#define CPU_NN_POINTWISE_H

#include <stdint.h>

#include "torch_core/tc_abi.h"

#define NNP_BLOCK 256 /* elements per block: a few blocks of both types stay in L1 */
#define NNP_MAX_IN 3  /* inputs of one block function */
#define NNP_MAX_PARAMS 8

/* An op's parameters in both compute types (f[k] is d[k] rounded as the op's dtype rounds it). */
typedef struct nnp_params {
    double d[NNP_MAX_PARAMS];
    float f[NNP_MAX_PARAMS];
    int64_t i[4];
} nnp_params;

typedef void (*nnp_block_f32)(const nnp_params *p, int64_t n, float *y, const float *const *x);
typedef void (*nnp_block_f64)(const nnp_params *p, int64_t n, double *y, const double *const *x);

typedef struct nnp_fn {
    nnp_block_f32 f32;
    nnp_block_f64 f64;
    int64_t block; /* the most elements one call takes: NNP_BLOCK, or NNP_ANY_LENGTH */
} nnp_fn;

/* The block of a function without block-sized temporaries: contiguous operands reach it a thread's
 * whole run at a time. Ending the vector loop every NNP_BLOCK elements cost such streaming ops
 * (leaky_relu) 10-15% of their speed from memory at two threads. */
#define NNP_ANY_LENGTH (1 << 30)

/* The parameter P(k) of a block function of element type T (float or double). */
#define NNP_P(T, p, k) _Generic((T)0, float: (p)->f[k], double: (p)->d[k])

/* Defines NAME_f32 and NAME_f64 from BODY(T, p, n, y, x), a block of statements over element type
 * T, parameters p, n elements (at most NNP_BLOCK), output y and inputs x[0..]. */
#define NNP_DEFINE(NAME, BODY) NNP_DEFINE_BLOCK(NAME, BODY, NNP_BLOCK)
/* The same for a BODY that keeps no arrays of NNP_BLOCK elements: n is any length. */
#define NNP_DEFINE_ANY_LENGTH(NAME, BODY) NNP_DEFINE_BLOCK(NAME, BODY, NNP_ANY_LENGTH)
#define NNP_DEFINE_BLOCK(NAME, BODY, BLOCK)                                                        \
    enum { NAME##_block = BLOCK };                                                                 \
    static void NAME##_f32(const nnp_params *p, int64_t n, float *y, const float *const *x) {      \
        BODY(float, p, n, y, x)                                                                    \
    }                                                                                              \
    static void NAME##_f64(const nnp_params *p, int64_t n, double *y, const double *const *x) {    \
        BODY(double, p, n, y, x)                                                                   \
    }
#define NNP_FN(NAME) ((nnp_fn){NAME##_f32, NAME##_f64, NAME##_block})

/* Sets parameter k to v as the kernel's dtype holds a Scalar: 16-bit floats round it to their own
 * precision first (PyTorch converts Scalars to scalar_t), float32 to float. */
void nnp_param(nnp_params *p, int k, double v, int32_t dtype);
/* A Scalar argument of the op as a double. */
double nnp_scalar(const tc_value *v);

/* outputs[0] = fn(inputs[0..nin)) elementwise; the views all have one floating dtype and the
 * inputs the output's sizes (zero strides where broadcast). */
int nnp_run(const tc_kernel_args *args, int nin, nnp_fn fn, const nnp_params *p, const char *op);
/* The same over explicit views (out first, then the inputs). */
int nnp_run_views(const tc_view *out, const tc_view *const *in, int nin, nnp_fn fn, const nnp_params *p);

/* The sum of n contiguous elements of a floating dtype, accumulated in double, in fixed chunks on
 * the thread pool and combined in order, so the result does not depend on the thread count. */
int nnp_sum(const void *data, int32_t dtype, int64_t n, double *sum);

/* Stores v into one element of a floating dtype. */
void nnp_store(void *dst, int32_t dtype, double v);

#endif
