/*
 * activation_backward.c - the backward kernels of the activations: grad_input from grad_output and
 * the forward's input (or result), one pass each, PyTorch's vectorised formulas.
 *
 * Block functions (nn_pointwise.h) see x[0] = grad_output, x[1] = self (or the result), x[2] = a
 * third tensor where the op has one; parameters come from the op's own arguments (schema order).
 */
#include <math.h>

#include "activation.h"
#include "cpu.h"
#include "dtype.h"
#include "nn_pointwise.h"
#include "nn_vmath.h"

static double arg(const tc_kernel_args *a, int i) { return nnp_scalar(&a->args[i]); }

static int32_t dtype_of(const tc_kernel_args *a) { return a->outputs[0].dtype; }

/* ---- masks: threshold_backward, hardtanh_backward, soft/hardshrink_backward ---- */

#define BODY_threshold_backward(T, p, n, y, x)                                                     \
    const T th = NNP_P(T, p, 0);                                                                   \
    for (int64_t i = 0; i < n; i++) y[i] = x[1][i] <= th ? (T)0 : x[0][i];
NNP_DEFINE_ANY_LENGTH(threshold_backward, BODY_threshold_backward)

static int k_threshold_backward(const tc_kernel_args *a) {
    nnp_params p;
    nnp_param(&p, 0, arg(a, 2), dtype_of(a));
    return nnp_run(a, 2, NNP_FN(threshold_backward), &p, "threshold_backward");
}

#define BODY_hardtanh_backward(T, p, n, y, x)                                                      \
    const T lo = NNP_P(T, p, 0), hi = NNP_P(T, p, 1);                                              \
    for (int64_t i = 0; i < n; i++) y[i] = (x[1][i] <= lo || x[1][i] >= hi) ? (T)0 : x[0][i];
NNP_DEFINE_ANY_LENGTH(hardtanh_backward, BODY_hardtanh_backward)

static int k_hardtanh_backward(const tc_kernel_args *a) {
    nnp_params p;
    nnp_param(&p, 0, arg(a, 2), dtype_of(a));
    nnp_param(&p, 1, arg(a, 3), dtype_of(a));
    return nnp_run(a, 2, NNP_FN(hardtanh_backward), &p, "hardtanh_backward");
}

/* softshrink and hardshrink have the same backward: zero inside [-lambd, lambd] */
#define BODY_shrink_backward(T, p, n, y, x)                                                        \
    const T l = NNP_P(T, p, 0);                                                                    \
    for (int64_t i = 0; i < n; i++) y[i] = (x[1][i] >= -l && x[1][i] <= l) ? (T)0 : x[0][i];
NNP_DEFINE_ANY_LENGTH(shrink_backward, BODY_shrink_backward)

static int k_shrink_backward(const tc_kernel_args *a) {
    nnp_params p;
    nnp_param(&p, 0, arg(a, 2), dtype_of(a));
    return nnp_run(a, 2, NNP_FN(shrink_backward), &p, "shrink_backward");
}

/* ---- leaky_relu_backward(grad_output, self, negative_slope, self_is_result) ---- */

#define BODY_leaky_relu_backward(T, p, n, y, x)                                                    \
    const T s = NNP_P(T, p, 0);                                                                    \
    for (int64_t i = 0; i < n; i++) y[i] = x[1][i] > 0 ? x[0][i] : x[0][i] * s;
NNP_DEFINE_ANY_LENGTH(leaky_relu_backward, BODY_leaky_relu_backward)

static int k_leaky_relu_backward(const tc_kernel_args *a) {
    const double slope = arg(a, 2);
    if (a->args[3].v.b && slope < 0)
        return cpu_core->set_error(TC_ERR_RUNTIME,
                                   "In-place leakyReLu backward calculation is triggered with a negative slope which is "
                                   "not supported. This is caused by calling in-place forward function with a negative "
                                   "slope, please call out-of-place version instead. File an issue at "
                                   "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
                                   "backward calculation with negative slope");
    nnp_params p;
    nnp_param(&p, 0, slope, dtype_of(a));
    return nnp_run(a, 2, NNP_FN(leaky_relu_backward), &p, "leaky_relu_backward");
}

/* ---- elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result) ---- */

#define BODY_elu_backward_result(T, p, n, y, x)                                                    \
    const T neg = NNP_P(T, p, 0), pos = NNP_P(T, p, 1), nis = NNP_P(T, p, 2);                      \
    for (int64_t i = 0; i < n; i++)                                                                \
        y[i] = x[1][i] <= 0 ? x[0][i] * nis * (x[1][i] + neg) : x[0][i] * pos;
NNP_DEFINE_ANY_LENGTH(elu_backward_result, BODY_elu_backward_result)

#define BODY_elu_backward(T, p, n, y, x)                                                           \
    const T neg = NNP_P(T, p, 0), pos = NNP_P(T, p, 1), nis = NNP_P(T, p, 2);                      \
    T t[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) t[i] = x[1][i] * nis;                                          \
    NNV(T, exp)(t, t, n);                                                                          \
    for (int64_t i = 0; i < n; i++) y[i] = x[1][i] <= 0 ? x[0][i] * nis * neg * t[i] : x[0][i] * pos;
NNP_DEFINE(elu_backward, BODY_elu_backward)

static int k_elu_backward(const tc_kernel_args *a) {
    const double alpha = arg(a, 1);
    const bool is_result = a->args[4].v.b;
    if (is_result && alpha < 0)
        return cpu_core->set_error(TC_ERR_RUNTIME,
                                   "In-place elu backward calculation is triggered with a negative slope which is not "
                                   "supported. This is caused by calling in-place forward function with a negative "
                                   "slope, please call out-of-place version instead.");
    nnp_params p;
    nn_elu_params(&p, alpha, arg(a, 2), arg(a, 3), dtype_of(a));
    return nnp_run(a, 2, is_result ? NNP_FN(elu_backward_result) : NNP_FN(elu_backward), &p, "elu_backward");
}

/* ---- gelu_backward(grad_output, self, *, approximate) ---- */

#define GELU_PDF_SCALE (M_2_SQRTPI * M_SQRT1_2 * 0.5) /* 1 / sqrt(2 pi) */
#define BODY_gelu_backward(T, p, n, y, x)                                                          \
    T c[NNP_BLOCK], d[NNP_BLOCK];                                                                  \
    for (int64_t i = 0; i < n; i++) {                                                              \
        c[i] = x[1][i] * (T)M_SQRT1_2;                                                             \
        d[i] = x[1][i] * x[1][i] * (T)-0.5;                                                        \
    }                                                                                              \
    NNV(T, erf)(c, c, n);                                                                          \
    NNV(T, exp)(d, d, n);                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T cdf = (T)0.5 * ((T)1 + c[i]), pdf = (T)GELU_PDF_SCALE * d[i];                      \
        y[i] = x[0][i] * (cdf + x[1][i] * pdf);                                                    \
    }
NNP_DEFINE(gelu_backward, BODY_gelu_backward)

#define BODY_gelu_tanh_backward(T, p, n, y, x)                                                     \
    T t[NNP_BLOCK];                                                                                \
    NN_GELU_TANH_INNER(T, t, x[1], n);                                                             \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T v = x[1][i], left = (T)0.5 * v, right = (T)1 + t[i];                               \
        const T left_d = (T)0.5 * right, tanh_d = (T)1 - t[i] * t[i];                              \
        const T inner_d = (T)NN_GELU_BETA * ((T)1 + (T)3 * (T)NN_GELU_KAPPA * (v * v));            \
        y[i] = x[0][i] * (left_d + left * tanh_d * inner_d);                                       \
    }
NNP_DEFINE(gelu_tanh_backward, BODY_gelu_tanh_backward)

static int k_gelu_backward(const tc_kernel_args *a) {
    const int approximate = nn_gelu_approximate(a->args[2].v.s);
    if (approximate < 0) return TC_FAIL;
    return nnp_run(a, 2, approximate ? NNP_FN(gelu_tanh_backward) : NNP_FN(gelu_backward), NULL, "gelu_backward");
}

/* ---- silu_backward, mish_backward ---- */

#define BODY_silu_backward(T, p, n, y, x)                                                          \
    T t[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) t[i] = -x[1][i];                                               \
    NNV(T, exp)(t, t, n);                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T s = (T)1 / ((T)1 + t[i]);                                                          \
        y[i] = x[0][i] * s * ((T)1 + x[1][i] * ((T)1 - s));                                        \
    }
NNP_DEFINE(silu_backward, BODY_silu_backward)

#define BODY_mish_backward(T, p, n, y, x)                                                          \
    T s[NNP_BLOCK], t[NNP_BLOCK];                                                                  \
    for (int64_t i = 0; i < n; i++) s[i] = -x[1][i];                                               \
    NNV(T, exp)(s, s, n);                                                                          \
    NN_MISH_TANH(T, t, x[1], n);                                                                   \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T sig = (T)1 / ((T)1 + s[i]);                                                        \
        y[i] = x[0][i] * (t[i] + x[1][i] * sig * ((T)1 - t[i] * t[i]));                            \
    }
NNP_DEFINE(mish_backward, BODY_mish_backward)

static int k_silu_backward(const tc_kernel_args *a) {
    return nnp_run(a, 2, NNP_FN(silu_backward), NULL, "silu_backward");
}
static int k_mish_backward(const tc_kernel_args *a) {
    return nnp_run(a, 2, NNP_FN(mish_backward), NULL, "mish_backward");
}

/* ---- hardswish_backward, hardsigmoid_backward ----
 * At exactly 3 PyTorch's CPU kernel answers g in its vector loop and 1.5 g in its scalar tail (x < 3
 * against x <= 3); this follows the vector loop, which serves all but a tensor's last few elements. */

#define BODY_hardswish_backward(T, p, n, y, x)                                                     \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T v = x[1][i], g = x[0][i];                                                          \
        y[i] = v < (T)-3 ? (T)0 : (v >= (T)3 ? g : g * ((v / (T)3) + (T)0.5)); /* g at 3: see below */ \
    }
NNP_DEFINE_ANY_LENGTH(hardswish_backward, BODY_hardswish_backward)

#define BODY_hardsigmoid_backward(T, p, n, y, x)                                                   \
    for (int64_t i = 0; i < n; i++)                                                                \
        y[i] = (x[1][i] > (T)-3 && x[1][i] < (T)3) ? x[0][i] * (T)(1.0f / 6.0f) : (T)0; /* float's 1/6, as PyTorch */
NNP_DEFINE_ANY_LENGTH(hardsigmoid_backward, BODY_hardsigmoid_backward)

static int k_hardswish_backward(const tc_kernel_args *a) {
    return nnp_run(a, 2, NNP_FN(hardswish_backward), NULL, "hardswish_backward");
}
static int k_hardsigmoid_backward(const tc_kernel_args *a) {
    return nnp_run(a, 2, NNP_FN(hardsigmoid_backward), NULL, "hardsigmoid_backward");
}

/* ---- softplus_backward(grad_output, self, beta, threshold) ---- */

#define BODY_softplus_backward(T, p, n, y, x)                                                      \
    const T beta = NNP_P(T, p, 0), th = NNP_P(T, p, 1);                                            \
    T z[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) z[i] = x[1][i] * beta;                                         \
    NNV(T, exp)(z, z, n);                                                                          \
    for (int64_t i = 0; i < n; i++) y[i] = x[1][i] * beta > th ? x[0][i] : x[0][i] * z[i] / (z[i] + (T)1);
NNP_DEFINE(softplus_backward, BODY_softplus_backward)

static int k_softplus_backward(const tc_kernel_args *a) {
    nnp_params p;
    nnp_param(&p, 0, arg(a, 2), dtype_of(a));
    nnp_param(&p, 1, arg(a, 3), dtype_of(a));
    return nnp_run(a, 2, NNP_FN(softplus_backward), &p, "softplus_backward");
}

/* ---- log_sigmoid_backward(grad_output, self, buffer) ----
 * PyTorch's (max_deriv - sign * z / (1 + z)) * g with z = exp(-|x|), z recomputed from self rather
 * than read from `buffer` (which log_sigmoid_forward computes the same way): the op is then a
 * function of grad_output and self alone, which its derivative formulas assume. */

#define BODY_log_sigmoid_backward(T, p, n, y, x)                                                   \
    T z[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) z[i] = x[1][i] < 0 ? x[1][i] : -x[1][i];                       \
    NNV(T, exp)(z, z, n);                                                                          \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const int neg = x[1][i] < 0;                                                               \
        const T max_deriv = neg ? (T)1 : (T)0, sign = neg ? (T)1 : (T)-1;                          \
        y[i] = (max_deriv - sign * (z[i] / ((T)1 + z[i]))) * x[0][i];                              \
    }
NNP_DEFINE(log_sigmoid_backward, BODY_log_sigmoid_backward)

static int k_log_sigmoid_backward(const tc_kernel_args *a) {
    return nnp_run(a, 2, NNP_FN(log_sigmoid_backward), NULL, "log_sigmoid_backward");
}

/* ---- glu_backward(grad_output, self, dim): the output's first half is grad * s, its second
 * half (1 - s) * s * a * grad, with a, b the halves of self and s = sigmoid(b) ---- */

#define BODY_sigmoid(T, p, n, y, x)                                                                \
    T t[NNP_BLOCK];                                                                                \
    for (int64_t i = 0; i < n; i++) t[i] = -x[0][i];                                               \
    NNV(T, exp)(t, t, n);                                                                          \
    for (int64_t i = 0; i < n; i++) y[i] = (T)1 / ((T)1 + t[i]);
NNP_DEFINE(sigmoid, BODY_sigmoid)

#define BODY_glu_second(T, p, n, y, x)                                                             \
    for (int64_t i = 0; i < n; i++) y[i] = ((T)1 - x[0][i]) * x[0][i] * x[1][i] * x[2][i];
NNP_DEFINE_ANY_LENGTH(glu_second, BODY_glu_second)

#define BODY_mul(T, p, n, y, x)                                                                    \
    for (int64_t i = 0; i < n; i++) y[i] = x[0][i] * x[1][i];
NNP_DEFINE_ANY_LENGTH(mul, BODY_mul)

/* The view of v's second half along dim, when `first` is v's first half. */
static tc_view second_half(const tc_view *first, int64_t dim) {
    tc_view v = *first;
    v.data = (char *)first->data +
             (ptrdiff_t)(first->sizes[dim] * first->strides[dim]) * (ptrdiff_t)cpu_dtype_size(first->dtype);
    return v;
}

static int k_glu_backward(const tc_kernel_args *a) {
    /* the core presents self and grad_input at grad_output's sizes (their first halves) */
    if (cpu_check_args(a, 2, 1, "glu_backward")) return TC_FAIL;
    const int64_t dim = a->ints[0];
    const tc_view *g = &a->inputs[0], *x_a = &a->inputs[1], *gi_a = &a->outputs[0];
    const tc_view x_b = second_half(x_a, dim), gi_b = second_half(gi_a, dim);
    const tc_view *s_in[1] = {&x_b}, *second_in[3] = {gi_a, x_a, g}, *first_in[2] = {gi_a, g};
    if (nnp_run_views(gi_a, s_in, 1, NNP_FN(sigmoid), NULL)) return TC_FAIL;
    if (nnp_run_views(&gi_b, second_in, 3, NNP_FN(glu_second), NULL)) return TC_FAIL;
    return nnp_run_views(gi_a, first_in, 2, NNP_FN(mul), NULL);
}

#define FLOATS(OP, FN) {OP, TC_BFLOAT16, FN}, {OP, TC_FLOAT32, FN}, {OP, TC_FLOAT64, FN}
static const cpu_kernel_entry kernels[] = {
    FLOATS("threshold_backward", k_threshold_backward),
    FLOATS("hardtanh_backward", k_hardtanh_backward),
    FLOATS("softshrink_backward", k_shrink_backward),
    FLOATS("hardshrink_backward", k_shrink_backward),
    FLOATS("leaky_relu_backward", k_leaky_relu_backward),
    FLOATS("elu_backward", k_elu_backward),
    FLOATS("gelu_backward", k_gelu_backward),
    FLOATS("silu_backward", k_silu_backward),
    {"mish_backward", TC_FLOAT32, k_mish_backward},
    {"mish_backward", TC_FLOAT64, k_mish_backward},
    FLOATS("hardswish_backward", k_hardswish_backward),
    FLOATS("hardsigmoid_backward", k_hardsigmoid_backward),
    FLOATS("softplus_backward", k_softplus_backward),
    FLOATS("log_sigmoid_backward", k_log_sigmoid_backward),
    FLOATS("glu_backward", k_glu_backward),
};
CPU_KERNEL_TABLE(kernels);
