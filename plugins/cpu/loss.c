/*
 * loss.c - the pointwise losses with a reduction (mse_loss, smooth_l1_loss, huber_loss,
 * binary_cross_entropy) and the backward kernels of the first three.
 *
 * A forward kernel gets its inputs at their broadcast shape (meta_loss.c) and the op's `reduction`
 * among its arguments: 0 (none) writes the elementwise loss into the output of that shape; 1
 * (mean) and 2 (sum) write the pointwise losses into scratch memory of the op's dtype (so 16-bit
 * results are rounded per element as PyTorch's unreduced tensor is) and sum them in double
 * (nnp_sum: fixed chunks, independent of the thread count), the mean dividing by the count (NaN
 * for none). Formulas are PyTorch's vectorised ones.
 */
#include <math.h>

#include "cpu.h"
#include "dtype.h"
#include "iterate.h"
#include "nn_pointwise.h"
#include "nn_vmath.h"

#define ABS(T, v) _Generic((T)0, float: fabsf, double: fabs)(v)

enum { REDUCE_NONE = 0, REDUCE_MEAN = 1, REDUCE_SUM = 2 };

/* outputs[0] = reduction over fn(inputs) */
static int loss_apply(const tc_kernel_args *a, nnp_fn fn, const nnp_params *p, int64_t reduction, const char *op) {
    if (cpu_check_args(a, 1, 1, op)) return TC_FAIL;
    const int nin = a->n_inputs;
    if (reduction == REDUCE_NONE) return nnp_run(a, nin, fn, p, op);
    const tc_view *in[NNP_MAX_IN];
    for (int k = 0; k < nin && k < NNP_MAX_IN; k++) in[k] = &a->inputs[k];
    tc_view scratch = a->inputs[0];
    int64_t strides[TC_MAX_DIMS], numel = 1;
    for (int32_t d = scratch.ndim - 1; d >= 0; d--) {
        strides[d] = numel;
        numel *= scratch.sizes[d];
    }
    const int32_t dtype = a->outputs[0].dtype;
    const size_t bytes = (size_t)(numel > 0 ? numel : 1) * cpu_dtype_size(dtype);
    scratch.strides = strides;
    scratch.dtype = dtype;
    if (!(scratch.data = cpu_core->host_alloc(bytes)))
        return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory computing %s", op);
    double sum = 0;
    int rc = nnp_run_views(&scratch, in, nin, fn, p);
    if (rc == TC_OK) rc = nnp_sum(scratch.data, dtype, numel, &sum);
    cpu_core->host_free(scratch.data, bytes);
    if (rc) return rc;
    if (reduction == REDUCE_MEAN) sum /= (double)numel;
    nnp_store(a->outputs[0].data, dtype, sum);
    return TC_OK;
}

/* The scale of a backward's gradient: 1/numel(self) for the mean, else 1 (times `factor`). */
static double mean_norm(const tc_kernel_args *a, int self_arg, int64_t reduction, double factor) {
    if (reduction != REDUCE_MEAN) return factor;
    tc_view v;
    if (cpu_core->tensor_view(a->args[self_arg].v.tensor, &v) != TC_OK) return factor;
    int64_t n = 1;
    for (int32_t d = 0; d < v.ndim; d++) n *= v.sizes[d];
    return factor / (double)n;
}

/* ---- mse_loss(self, target, reduction): (x - y)^2 ---- */

#define BODY_mse(T, p, n, y, x)                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T d = x[0][i] - x[1][i];                                                             \
        y[i] = d * d;                                                                              \
    }
NNP_DEFINE_ANY_LENGTH(mse, BODY_mse)

static int k_mse_loss(const tc_kernel_args *a) { return loss_apply(a, NNP_FN(mse), NULL, a->args[2].v.i, "mse_loss"); }

/* mse_loss_backward(grad_output, self, target, reduction): norm (x - y) g, norm = 2 (/ numel) */
#define BODY_mse_backward(T, p, n, y, x)                                                           \
    const T norm = NNP_P(T, p, 0);                                                                 \
    for (int64_t i = 0; i < n; i++) y[i] = norm * (x[1][i] - x[2][i]) * x[0][i];
NNP_DEFINE_ANY_LENGTH(mse_backward, BODY_mse_backward)

static int k_mse_loss_backward(const tc_kernel_args *a) {
    nnp_params p;
    nnp_param(&p, 0, mean_norm(a, 1, a->args[3].v.i, 2.0), a->outputs[0].dtype);
    return nnp_run(a, 3, NNP_FN(mse_backward), &p, "mse_loss_backward");
}

/* smooth_l1_loss and huber_loss(self, target, reduction, beta or delta), and their backward
 * (grad_output, self, target, reduction, beta or delta): the parameter, and the mean's norm. */
static int loss_with_param(const tc_kernel_args *a, nnp_fn fn, const char *op) {
    nnp_params p;
    nnp_param(&p, 0, a->args[3].v.f, a->outputs[0].dtype);
    return loss_apply(a, fn, &p, a->args[2].v.i, op);
}

static int loss_backward_with_param(const tc_kernel_args *a, nnp_fn fn, const char *op) {
    nnp_params p;
    nnp_param(&p, 0, mean_norm(a, 1, a->args[3].v.i, 1.0), a->outputs[0].dtype);
    nnp_param(&p, 1, a->args[4].v.f, a->outputs[0].dtype);
    return nnp_run(a, 3, fn, &p, op);
}

/* ---- smooth_l1_loss(self, target, reduction, beta) ---- */

#define BODY_smooth_l1(T, p, n, y, x)                                                              \
    const T beta = NNP_P(T, p, 0);                                                                 \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T z = ABS(T, x[0][i] - x[1][i]);                                                       \
        y[i] = z >= beta ? z - (T)0.5 * beta : (T)0.5 * z * z / beta;                              \
    }
NNP_DEFINE_ANY_LENGTH(smooth_l1, BODY_smooth_l1)

static int k_smooth_l1_loss(const tc_kernel_args *a) { return loss_with_param(a, NNP_FN(smooth_l1), "smooth_l1_loss"); }

/* smooth_l1_loss_backward(grad_output, self, target, reduction, beta) */
#define BODY_smooth_l1_backward(T, p, n, y, x)                                                     \
    const T norm = NNP_P(T, p, 0), beta = NNP_P(T, p, 1);                                          \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T d = x[1][i] - x[2][i], g = x[0][i];                                                \
        y[i] = ABS(T, d) >= beta ? (d > 0 ? (T)1 : (T)-1) * norm * g : d * norm * g / beta;          \
    }
NNP_DEFINE_ANY_LENGTH(smooth_l1_backward, BODY_smooth_l1_backward)

static int k_smooth_l1_loss_backward(const tc_kernel_args *a) {
    return loss_backward_with_param(a, NNP_FN(smooth_l1_backward), "smooth_l1_loss_backward");
}

/* ---- huber_loss(self, target, reduction, delta) ---- */

#define BODY_huber(T, p, n, y, x)                                                                  \
    const T delta = NNP_P(T, p, 0);                                                                \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T z = ABS(T, x[0][i] - x[1][i]);                                                       \
        y[i] = z >= delta ? delta * (z - (T)0.5 * delta) : (T)0.5 * z * z;                         \
    }
NNP_DEFINE_ANY_LENGTH(huber, BODY_huber)

static int k_huber_loss(const tc_kernel_args *a) { return loss_with_param(a, NNP_FN(huber), "huber_loss"); }

/* huber_loss_backward(grad_output, self, target, reduction, delta) */
#define BODY_huber_backward(T, p, n, y, x)                                                         \
    const T norm = NNP_P(T, p, 0), delta = NNP_P(T, p, 1);                                         \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T d = x[1][i] - x[2][i], g = x[0][i];                                                \
        y[i] = d <= -delta ? -norm * g * delta : (d >= delta ? norm * g * delta : norm * d * g);   \
    }
NNP_DEFINE_ANY_LENGTH(huber_backward, BODY_huber_backward)

static int k_huber_loss_backward(const tc_kernel_args *a) {
    return loss_backward_with_param(a, NNP_FN(huber_backward), "huber_loss_backward");
}

/* ---- binary_cross_entropy(self, target, weight, reduction):
 * (y - 1) max(log1p(-x), -100) - y max(log(x), -100), times the weight ---- */

#define BODY_bce(T, p, n, y, x)                                                                    \
    T l1p[NNP_BLOCK], lg[NNP_BLOCK];                                                               \
    for (int64_t i = 0; i < n; i++) l1p[i] = -x[0][i];                                             \
    NNV(T, log1p)(l1p, l1p, n);                                                                    \
    NNV(T, log)(lg, x[0], n);                                                                      \
    for (int64_t i = 0; i < n; i++) {                                                              \
        const T a = l1p[i] < (T)-100 ? (T)-100 : l1p[i], b = lg[i] < (T)-100 ? (T)-100 : lg[i];     \
        T l = (x[1][i] - (T)1) * a - x[1][i] * b;                                                  \
        if (p->i[0]) l *= x[2][i];                                                                 \
        y[i] = l;                                                                                  \
    }
NNP_DEFINE(bce, BODY_bce)

/* The range check runs first, over the input alone; its loop may run on pool workers, so it only
 * records what it found. */
typedef struct range_ctx {
    int bad;
} range_ctx;

#define RANGE_LOOP(S)                                                                              \
    static void range_##S(int64_t n, char *const *ptr, const int64_t *s, void *vctx) {             \
        const CPU_T_##S *x = (const CPU_T_##S *)ptr[0];                                            \
        int bad = 0;                                                                               \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const CPU_C_##S v = cpu_ld_##S(x[i * s[0]]);                                           \
            bad |= !(v >= 0 && v <= 1);                                                            \
        }                                                                                          \
        if (bad) __atomic_store_n(&((range_ctx *)vctx)->bad, 1, __ATOMIC_RELAXED);                 \
    }
RANGE_LOOP(f16)
RANGE_LOOP(bf16)
RANGE_LOOP(f32)
RANGE_LOOP(f64)

static int k_binary_cross_entropy(const tc_kernel_args *a) {
    if (cpu_check_args(a, 2, 1, "binary_cross_entropy")) return TC_FAIL;
    const tc_view *views[1] = {&a->inputs[0]};
    range_ctx ctx = {0};
    cpu_loop_fn range = a->inputs[0].dtype == TC_FLOAT16 ? range_f16 : a->inputs[0].dtype == TC_BFLOAT16 ? range_bf16
                        : a->inputs[0].dtype == TC_FLOAT32 ? range_f32 : range_f64;
    if (cpu_iterate(views, 1, range, &ctx)) return TC_FAIL;
    if (ctx.bad) return cpu_core->set_error(TC_ERR_RUNTIME, "all elements of input should be between 0 and 1");
    nnp_params p = {.i = {a->n_inputs > 2}};
    return loss_apply(a, NNP_FN(bce), &p, a->args[3].v.i, "binary_cross_entropy");
}

#define FLOATS(OP, FN) {OP, TC_FLOAT16, FN}, {OP, TC_BFLOAT16, FN}, {OP, TC_FLOAT32, FN}, {OP, TC_FLOAT64, FN}
static const cpu_kernel_entry kernels[] = {
    FLOATS("mse_loss", k_mse_loss),
    FLOATS("mse_loss_backward", k_mse_loss_backward),
    FLOATS("smooth_l1_loss", k_smooth_l1_loss),
    FLOATS("smooth_l1_loss_backward", k_smooth_l1_loss_backward),
    FLOATS("huber_loss", k_huber_loss),
    FLOATS("huber_loss_backward", k_huber_loss_backward),
    FLOATS("binary_cross_entropy", k_binary_cross_entropy),
};
CPU_KERNEL_TABLE(kernels);
