/*
 * activation.c - the activations of torch.nn: leaky_relu, elu (celu and selu run it), gelu (exact
 * and tanh), silu, mish, hardswish, hardsigmoid, softplus, softshrink, hardshrink, log_sigmoid,
 * glu, prelu; float dtypes (bfloat16 computes in float). threshold and hardtanh, which also take
 * integers, are in activation_int.c; the backward kernels in activation_backward.c.
 *
 * Each op is a block function over float and double (nn_pointwise.h) reading its parameters from
 * the op's own arguments (`args->args`, in schema order). The formulas are PyTorch's vectorised
 * ones, operation for operation, so results agree to the rounding of the transcendental functions
 * (SLEEF u10 on both sides). A block function writes y only in its last loop, reading each x[i] in
 * the same iteration, so y may alias an input (in-place ops).
 */
#include <math.h>
#include <string.h>

#include "activation.h"
#include "cpu.h"
#include "dtype.h"
#include "nn_pointwise.h"
#include "nn_vmath.h"

/* ---- leaky_relu(self, negative_slope) ---- */

#define BODY_leaky_relu(T, p, n, y, x)                                                             \
    const T s = NNP_P(T, p, 0);                                                                    \
    for (int64_t i = 0; i < n; i++) y[i] = x[0][i] > 0 ? x[0][i] : x[0][i] * s;
NNP_DEFINE_ANY_LENGTH(leaky_relu, BODY_leaky_relu)

static int k_leaky_relu(const tc_kernel_args *a) {
    nnp_params p;
    nnp_param(&p, 0, nnp_scalar(&a->args[1]), a->outputs[0].dtype);
    return nnp_run(a, 1, NNP_FN(leaky_relu), &p, "leaky_relu");
}

/* ---- elu(self, alpha, scale, input_scale); celu and selu are elu with other arguments ---- */

/* p: 0 negcoef (alpha * scale), 1 poscoef (scale), 2 negiptcoef (input_scale). The coefficients
 * are formed in the op's dtype, as PyTorch forms them in scalar_t. */
void nn_elu_params(nnp_params *p, double alpha, double scale, double input_scale, int32_t dtype) {
    nnp_param(p, 0, alpha, dtype);
    nnp_param(p, 1, scale, dtype);
    nnp_param(p, 2, input_scale, dtype);
    nnp_param(p, 0, dtype == TC_FLOAT64 ? p->d[0] * p->d[1] : (double)(p->f[0] * p->f[1]), dtype);
}

/* (exp(x nis) - 1) neg, not expm1: PyTorch's vectorised kernel, whose exp(-0) - 1 is +0 */
#define BODY_elu(T, p, n, y, x)                                                                    \
    const T neg = NNP_P(T, p, 0), pos = NNP_P(T, p, 1), nis = NNP_P(T, p, 2);                      \
    T t[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) t[i] = x[0][i] * nis;                                          \
    NNV(T, exp)(t, t, n);                                                                          \
    for (int64_t i = 0; i < n; i++) y[i] = x[0][i] > 0 ? x[0][i] * pos : (t[i] - (T)1) * neg;
NNP_DEFINE(elu, BODY_elu)

static int k_elu(const tc_kernel_args *a) {
    nnp_params p;
    nn_elu_params(&p, nnp_scalar(&a->args[1]), nnp_scalar(&a->args[2]), nnp_scalar(&a->args[3]),
                  a->outputs[0].dtype);
    return nnp_run(a, 1, NNP_FN(elu), &p, "elu");
}

/* celu(self, alpha) = elu(self, alpha, 1, 1 / alpha) */
static int k_celu(const tc_kernel_args *a) {
    nnp_params p;
    const double alpha = nnp_scalar(&a->args[1]);
    nn_elu_params(&p, alpha, 1.0, 1.0 / alpha, a->outputs[0].dtype);
    return nnp_run(a, 1, NNP_FN(elu), &p, "celu");
}

/* ---- gelu(self, *, approximate) ---- */

/* 0 for "none", 1 for "tanh", -1 (error set) otherwise. */
int nn_gelu_approximate(const char *s) {
    if (strcmp(s, "none") == 0) return 0;
    if (strcmp(s, "tanh") == 0) return 1;
    cpu_core->set_error(TC_ERR_RUNTIME, "approximate argument must be either none or tanh.");
    return -1;
}

/* float32 (and bfloat16): x/2 erf(x/sqrt 2) + x/2, which is +0 where erf reaches -1, as PyTorch's
 * oneDNN kernel gives; float64: x/2 (1 + erf(x/sqrt 2)), PyTorch's own vectorised kernel. Contiguous
 * float32 tensors take gelu_erf.c's copy of oneDNN's arithmetic instead. */
#define BODY_gelu(T, p, n, y, x)                                                                   \
    T t[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) t[i] = x[0][i] * (T)M_SQRT1_2;                                 \
    NNV(T, erf)(t, t, n);                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T h = x[0][i] * (T)0.5;                                                              \
        y[i] = sizeof(T) == sizeof(float) ? h * t[i] + h : h * ((T)1 + t[i]);                      \
    }
NNP_DEFINE(gelu, BODY_gelu)

#define BODY_gelu_tanh(T, p, n, y, x)                                                              \
    T t[NNP_BLOCK];                                                                                \
    NN_GELU_TANH_INNER(T, t, x[0], n);                                                             \
    for (int64_t i = 0; i < n; i++) y[i] = (T)0.5 * x[0][i] * ((T)1 + t[i]);
NNP_DEFINE(gelu_tanh, BODY_gelu_tanh)

static int k_gelu(const tc_kernel_args *a) {
    const int approximate = nn_gelu_approximate(a->args[1].v.s);
    if (approximate < 0) return TC_FAIL;
    int rc;
    if (!approximate && cpu_check_args(a, 1, 1, "gelu") == TC_OK && nn_gelu_erf_contiguous(a, &rc)) return rc;
    return nnp_run(a, 1, approximate ? NNP_FN(gelu_tanh) : NNP_FN(gelu), NULL, "gelu");
}

/* ---- silu, mish ---- */

#define BODY_silu(T, p, n, y, x)                                                                   \
    T t[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) t[i] = -x[0][i];                                               \
    NNV(T, exp)(t, t, n);                                                                          \
    for (int64_t i = 0; i < n; i++) y[i] = x[0][i] / ((T)1 + t[i]);
NNP_DEFINE(silu, BODY_silu)

/* x * tanh(log1p(exp(x))) */
#define BODY_mish(T, p, n, y, x)                                                                   \
    T t[NNP_BLOCK];                                                                                \
    NN_MISH_TANH(T, t, x[0], n);                                                                   \
    for (int64_t i = 0; i < n; i++) y[i] = x[0][i] * t[i];
NNP_DEFINE(mish, BODY_mish)

static int k_silu(const tc_kernel_args *a) { return nnp_run(a, 1, NNP_FN(silu), NULL, "silu"); }
static int k_mish(const tc_kernel_args *a) { return nnp_run(a, 1, NNP_FN(mish), NULL, "mish"); }

/* ---- hardswish, hardsigmoid: x * relu6(x + 3) / 6 and relu6(x + 3) / 6; NaN stays NaN ---- */

#define BODY_hardswish(T, p, n, y, x)                                                              \
    T r[NNP_BLOCK];                                                                                \
    NNV(T, clamp_shifted)(r, x[0], n, 3, 0, 6);                                                    \
    for (int64_t i = 0; i < n; i++) y[i] = x[0][i] * r[i] / (T)6;
NNP_DEFINE(hardswish, BODY_hardswish)

#define BODY_hardsigmoid(T, p, n, y, x)                                                            \
    NNV(T, clamp_shifted)(y, x[0], n, 3, 0, 6);                                                    \
    for (int64_t i = 0; i < n; i++) y[i] = y[i] / (T)6;
NNP_DEFINE_ANY_LENGTH(hardsigmoid, BODY_hardsigmoid)

static int k_hardswish(const tc_kernel_args *a) { return nnp_run(a, 1, NNP_FN(hardswish), NULL, "hardswish"); }
static int k_hardsigmoid(const tc_kernel_args *a) {
    return nnp_run(a, 1, NNP_FN(hardsigmoid), NULL, "hardsigmoid");
}

/* ---- softplus(self, beta, threshold): x where x * beta > threshold, else log1p(exp(x beta)) / beta ---- */

#define BODY_softplus(T, p, n, y, x)                                                               \
    const T beta = NNP_P(T, p, 0), th = NNP_P(T, p, 1);                                            \
    T t[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) t[i] = x[0][i] * beta;                                         \
    NNV(T, exp)(t, t, n);                                                                          \
    NNV(T, log1p)(t, t, n);                                                                        \
    for (int64_t i = 0; i < n; i++) y[i] = x[0][i] * beta > th ? x[0][i] : t[i] / beta;
NNP_DEFINE(softplus, BODY_softplus)

static int k_softplus(const tc_kernel_args *a) {
    nnp_params p;
    nnp_param(&p, 0, nnp_scalar(&a->args[1]), a->outputs[0].dtype);
    nnp_param(&p, 1, nnp_scalar(&a->args[2]), a->outputs[0].dtype);
    return nnp_run(a, 1, NNP_FN(softplus), &p, "softplus");
}

/* ---- softshrink, hardshrink (lambd) ---- */

#define BODY_softshrink(T, p, n, y, x)                                                             \
    const T l = NNP_P(T, p, 0);                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T v = x[0][i];                                                                       \
        y[i] = v > l ? v - l : (v < -l ? v + l : (T)0); /* NaN too: PyTorch's kernel */          \
    }
NNP_DEFINE_ANY_LENGTH(softshrink, BODY_softshrink)

#define BODY_hardshrink(T, p, n, y, x)                                                             \
    const T l = NNP_P(T, p, 0);                                                                    \
    for (int64_t i = 0; i < n; i++) y[i] = (x[0][i] >= -l && x[0][i] <= l) ? (T)0 : x[0][i];
NNP_DEFINE_ANY_LENGTH(hardshrink, BODY_hardshrink)

static int k_softshrink(const tc_kernel_args *a) {
    nnp_params p;
    nnp_param(&p, 0, nnp_scalar(&a->args[1]), a->outputs[0].dtype);
    return nnp_run(a, 1, NNP_FN(softshrink), &p, "softshrink");
}

static int k_hardshrink(const tc_kernel_args *a) {
    nnp_params p;
    nnp_param(&p, 0, nnp_scalar(&a->args[1]), a->outputs[0].dtype);
    return nnp_run(a, 1, NNP_FN(hardshrink), &p, "hardshrink");
}

/* ---- log_sigmoid_forward(self) -> (output, buffer): buffer = exp(-|x|), output = min(0, x) -
 * log1p(buffer) ---- */

#define BODY_log_sigmoid_buffer(T, p, n, y, x)                                                     \
    T t[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) t[i] = x[0][i] < 0 ? x[0][i] : -x[0][i];                       \
    NNV(T, exp)(y, t, n);
NNP_DEFINE(log_sigmoid_buffer, BODY_log_sigmoid_buffer)

#define BODY_log_sigmoid(T, p, n, y, x)                                                            \
    T t[NNP_BLOCK];                                                                                \
    NNV(T, log1p)(t, x[1], n);                                                                     \
    for (int64_t i = 0; i < n; i++) y[i] = (x[0][i] < 0 ? x[0][i] : (T)0) - t[i];
NNP_DEFINE(log_sigmoid, BODY_log_sigmoid)

static int k_log_sigmoid_forward(const tc_kernel_args *a) {
    if (cpu_check_args(a, 1, 2, "log_sigmoid_forward")) return TC_FAIL;
    const tc_view *x = &a->inputs[0], *in[2] = {x, &a->outputs[1]};
    if (nnp_run_views(&a->outputs[1], &x, 1, NNP_FN(log_sigmoid_buffer), NULL)) return TC_FAIL;
    return nnp_run_views(&a->outputs[0], in, 2, NNP_FN(log_sigmoid), NULL);
}

/* ---- glu(self, dim): first half * sigmoid(second half) ---- */

#define BODY_glu(T, p, n, y, x)                                                                    \
    T t[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) t[i] = -x[1][i];                                               \
    NNV(T, exp)(t, t, n);                                                                          \
    for (int64_t i = 0; i < n; i++) y[i] = x[0][i] * ((T)1 / ((T)1 + t[i]));
NNP_DEFINE(glu, BODY_glu)

static int k_glu(const tc_kernel_args *a) {
    if (cpu_check_args(a, 1, 1, "glu")) return TC_FAIL;
    /* the input is presented at the output's sizes (the first half) with its own strides; the
     * second half starts half the dim further on (ints[0] = dim) */
    const tc_view *x = &a->inputs[0];
    tc_view second = *x;
    const int64_t dim = a->ints[0];
    second.data = (char *)x->data + (ptrdiff_t)(x->sizes[dim] * x->strides[dim]) * (ptrdiff_t)cpu_dtype_size(x->dtype);
    const tc_view *in[2] = {x, &second};
    return nnp_run_views(&a->outputs[0], in, 2, NNP_FN(glu), NULL);
}

/* ---- prelu(self, weight): the weight arrives broadcast to self's sizes along the channel dim ---- */

#define BODY_prelu(T, p, n, y, x)                                                                  \
    for (int64_t i = 0; i < n; i++) y[i] = x[0][i] > 0 ? x[0][i] : x[1][i] * x[0][i];
NNP_DEFINE_ANY_LENGTH(prelu, BODY_prelu)

static int k_prelu(const tc_kernel_args *a) { return nnp_run(a, 2, NNP_FN(prelu), NULL, "prelu"); }

#define FLOATS(OP, FN) {OP, TC_BFLOAT16, FN}, {OP, TC_FLOAT32, FN}, {OP, TC_FLOAT64, FN}
static const cpu_kernel_entry kernels[] = {
    FLOATS("leaky_relu", k_leaky_relu),
    FLOATS("elu", k_elu),
    FLOATS("celu", k_celu),
    FLOATS("gelu", k_gelu),
    FLOATS("silu", k_silu),
    {"mish", TC_FLOAT32, k_mish},
    {"mish", TC_FLOAT64, k_mish},
    FLOATS("hardswish", k_hardswish),
    FLOATS("hardsigmoid", k_hardsigmoid),
    FLOATS("softplus", k_softplus),
    FLOATS("softshrink", k_softshrink),
    FLOATS("hardshrink", k_hardshrink),
    FLOATS("log_sigmoid_forward", k_log_sigmoid_forward),
    FLOATS("glu", k_glu),
    FLOATS("prelu", k_prelu),
};
CPU_KERNEL_TABLE(kernels);
