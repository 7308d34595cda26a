/*
 * activation.h - what the activation kernel files share (activation.c defines it).
 */
#ifndef CPU_ACTIVATION_H
#define CPU_ACTIVATION_H

#include "nn_pointwise.h"

/* elu's coefficients in parameters 0 (negcoef = alpha * scale), 1 (poscoef = scale) and 2
 * (negiptcoef = input_scale), formed in the op's dtype as PyTorch forms them in scalar_t. */
void nn_elu_params(nnp_params *p, double alpha, double scale, double input_scale, int32_t dtype);

/* gelu's `approximate`: 0 for "none", 1 for "tanh", -1 (RuntimeError set) for anything else. */
int nn_gelu_approximate(const char *s);

/* Exact gelu of a contiguous float32 input into a contiguous output of its sizes, rounded as
 * PyTorch's oneDNN kernel rounds it (gelu_erf.c): 1 when it ran (its status in *rc), 0 when the
 * views are not such. */
int nn_gelu_erf_contiguous(const tc_kernel_args *a, int *rc);

/* gelu's tanh approximation, forward and backward: over a block of n values v = xs[i], t[i] =
 * tanh(beta (v + kappa v^3)) with beta = sqrt(2/pi). Needs nn_vmath.h. */
#define NN_GELU_BETA (M_SQRT2 * M_2_SQRTPI * 0.5)
#define NN_GELU_KAPPA 0.044715
#define NN_GELU_TANH_INNER(T, t, xs, n)                                                            \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T v = xs[i];                                                                         \
        t[i] = (T)NN_GELU_BETA * (v + (T)NN_GELU_KAPPA * (v * v * v));                             \
    }                                                                                              \
    NNV(T, tanh)(t, t, n)

/* mish's tanh(softplus(x)) = tanh(log1p(exp(x))) over a block of n values xs into t. Needs nn_vmath.h. */
#define NN_MISH_TANH(T, t, xs, n)                                                                  \
    NNV(T, exp)(t, xs, n);                                                                         \
    NNV(T, log1p)(t, t, n);                                                                        \
    NNV(T, tanh)(t, t, n)

#endif
