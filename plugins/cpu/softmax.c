/*
 * softmax.c - _softmax, _log_softmax and their backward kernels along one dim.
 *
 * The core hands contiguous views (meta_softmax.c) and ints[0] = dim, so a tensor is
 * [outer, D, inner] with the softmax dim in the middle. With inner == 1 (the last dim) each row is
 * contiguous; otherwise a block of up to NNS_W neighbouring columns is processed at once, every
 * step a contiguous run of the block that the compiler vectorises. exp is SLEEF's (nn_vmath.h).
 * float16/bfloat16 lines are widened into float scratch first.
 *
 * The arithmetic is PyTorch's: softmax = exp(x - max) * (1 / sum) along the last dim and
 * exp(x - max) / sum along others; log_softmax = x - (max + log(sum)); their backward
 * (g - sum(g * y)) * y and g - exp(y) * sum(g). Sums accumulate in the compute type, 16 lanes
 * wide, as PyTorch's vectorised reductions do. The max propagates NaN.
 */
#include <math.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"
#include "nn_vmath.h"

#define NNS_INT_f32 int32_t /* the integer as wide as T, for vector masks */
#define NNS_INT_f64 int64_t
#define NNS_W 64  /* columns per block when the dim is not the last */
#define NNS_T 256 /* scratch elements for exp of a chunk of a row */

enum { SOFTMAX, LOG_SOFTMAX, SOFTMAX_BACKWARD, LOG_SOFTMAX_BACKWARD };

/* ---- one line (W == 1, contiguous) or one block of W columns (row stride `st`), type T ---- */

#define NNS_DEFINE(T, SUF)                                                                         \
    /* 16 lanes (lane k takes elements k mod 16), in 32-byte vectors: a select of v where it is    \
     * greater or NaN, written on the vectors' bits (GCC turned the scalar form into branches) */  \
    static T max_##SUF(const T *x, int64_t n) {                                                    \
        typedef T vec __attribute__((vector_size(32)));                                            \
        typedef NNS_INT_##SUF ivec __attribute__((vector_size(32)));                               \
        enum { L = 32 / sizeof(T), NV = 16 / L };                                                  \
        T acc[16];                                                                                 \
        for (int k = 0; k < 16; k++) acc[k] = x[0];                                                \
        int64_t i = 0;                                                                             \
        if (n >= 16) {                                                                             \
            vec a[NV];                                                                             \
            memcpy(a, acc, sizeof a);                                                              \
            for (; i + 16 <= n; i += 16)                                                           \
                for (int k = 0; k < NV; k++) {                                                     \
                    vec v;                                                                         \
                    memcpy(&v, x + i + k * L, sizeof v);                                           \
                    const ivec take = (v > a[k]) | (v != v);                                       \
                    a[k] = (vec)(((ivec)v & take) | ((ivec)a[k] & ~take));                         \
                }                                                                                  \
            memcpy(acc, a, sizeof a);                                                              \
        }                                                                                          \
        T m = acc[0];                                                                              \
        for (int k = 1; k < 16; k++) m = (acc[k] > m || acc[k] != acc[k]) ? acc[k] : m;            \
        for (; i < n; i++) m = (x[i] > m || x[i] != x[i]) ? x[i] : m;                              \
        return m;                                                                                  \
    }                                                                                              \
    static T sum_##SUF(const T *x, int64_t n) {                                                    \
        T acc[16] = {0};                                                                           \
        int64_t i = 0;                                                                             \
        for (; i + 16 <= n; i += 16)                                                               \
            for (int k = 0; k < 16; k++) acc[k] += x[i + k];                                       \
        T s = 0;                                                                                   \
        for (int k = 0; k < 16; k++) s += acc[k];                                                  \
        for (; i < n; i++) s += x[i];                                                              \
        return s;                                                                                  \
    }                                                                                              \
    static T dot_##SUF(const T *x, const T *y, int64_t n) {                                        \
        T acc[16] = {0};                                                                           \
        int64_t i = 0;                                                                             \
        for (; i + 16 <= n; i += 16)                                                               \
            for (int k = 0; k < 16; k++) acc[k] += x[i + k] * y[i + k];                            \
        T s = 0;                                                                                   \
        for (int k = 0; k < 16; k++) s += acc[k];                                                  \
        for (; i < n; i++) s += x[i] * y[i];                                                       \
        return s;                                                                                  \
    }                                                                                              \
    /* sum(exp(x - m)) without writing x's memory */                                               \
    static T sum_exp_##SUF(const T *x, T m, int64_t n) {                                           \
        T t[NNS_T], s = 0;                                                                         \
        for (int64_t b = 0; b < n; b += NNS_T) {                                                   \
            const int64_t c = n - b < NNS_T ? n - b : NNS_T;                                       \
            for (int64_t i = 0; i < c; i++) t[i] = x[b + i] - m;                                   \
            nnv_exp_##SUF(t, t, c);                                                                \
            s += sum_##SUF(t, c);                                                                  \
        }                                                                                          \
        return s;                                                                                  \
    }                                                                                              \
    static void line_##SUF(int kind, T *y, const T *a, const T *b, int64_t n) {                    \
        if (kind == SOFTMAX) {                                                                     \
            const T m = max_##SUF(a, n);                                                           \
            for (int64_t i = 0; i < n; i++) y[i] = a[i] - m;                                       \
            nnv_exp_##SUF(y, y, n);                                                                \
            const T r = (T)1 / sum_##SUF(y, n);                                                    \
            for (int64_t i = 0; i < n; i++) y[i] *= r;                                             \
        } else if (kind == LOG_SOFTMAX) {                                                          \
            const T m = max_##SUF(a, n);                                                           \
            const T lse = m + _Generic((T)0, float: logf, double: log)(sum_exp_##SUF(a, m, n));                                         \
            for (int64_t i = 0; i < n; i++) y[i] = a[i] - lse;                                     \
        } else if (kind == SOFTMAX_BACKWARD) { /* a = grad, b = output */                          \
            const T s = dot_##SUF(a, b, n);                                                        \
            for (int64_t i = 0; i < n; i++) y[i] = (a[i] - s) * b[i];                              \
        } else {                                                                                   \
            const T s = sum_##SUF(a, n);                                                           \
            T t[NNS_T];                                                                            \
            for (int64_t c0 = 0; c0 < n; c0 += NNS_T) {                                            \
                const int64_t c = n - c0 < NNS_T ? n - c0 : NNS_T;                                 \
                nnv_exp_##SUF(t, b + c0, c);                                                       \
                for (int64_t i = 0; i < c; i++) y[c0 + i] = a[c0 + i] - t[i] * s;                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* W columns, D rows st apart */                                                               \
    static void block_##SUF(int kind, T *y, const T *a, const T *b, int64_t D, int64_t W, int64_t st) { \
        T acc[NNS_W], t[NNS_W];                                                                    \
        if (kind == SOFTMAX || kind == LOG_SOFTMAX) {                                              \
            for (int64_t j = 0; j < W; j++) acc[j] = a[j];                                         \
            for (int64_t d = 1; d < D; d++)                                                        \
                for (int64_t j = 0; j < W; j++) {                                                  \
                    const T v = a[d * st + j];                                                     \
                    acc[j] = (v > acc[j] || v != v) ? v : acc[j];                                  \
                }                                                                                  \
            T s[NNS_W] = {0};                                                                      \
            for (int64_t d = 0; d < D; d++) {                                                      \
                for (int64_t j = 0; j < W; j++) t[j] = a[d * st + j] - acc[j];                     \
                nnv_exp_##SUF(t, t, W);                                                            \
                for (int64_t j = 0; j < W; j++) s[j] += t[j];                                      \
                if (kind == SOFTMAX)                                                               \
                    for (int64_t j = 0; j < W; j++) y[d * st + j] = t[j];                          \
            }                                                                                      \
            if (kind == SOFTMAX) {                                                                 \
                for (int64_t d = 0; d < D; d++)                                                    \
                    for (int64_t j = 0; j < W; j++) y[d * st + j] /= s[j];                         \
            } else {                                                                               \
                nnv_log_##SUF(s, s, W);                                                            \
                for (int64_t j = 0; j < W; j++) acc[j] += s[j];                                    \
                for (int64_t d = 0; d < D; d++)                                                    \
                    for (int64_t j = 0; j < W; j++) y[d * st + j] = a[d * st + j] - acc[j];        \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t j = 0; j < W; j++) acc[j] = 0;                                            \
            for (int64_t d = 0; d < D; d++)                                                        \
                for (int64_t j = 0; j < W; j++)                                                    \
                    acc[j] += kind == SOFTMAX_BACKWARD ? a[d * st + j] * b[d * st + j] : a[d * st + j]; \
            for (int64_t d = 0; d < D; d++) {                                                      \
                if (kind == SOFTMAX_BACKWARD) {                                                    \
                    for (int64_t j = 0; j < W; j++) y[d * st + j] = (a[d * st + j] - acc[j]) * b[d * st + j]; \
                } else {                                                                           \
                    nnv_exp_##SUF(t, b + d * st, W);                                               \
                    for (int64_t j = 0; j < W; j++) y[d * st + j] = a[d * st + j] - t[j] * acc[j];  \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
NNS_DEFINE(float, f32)
NNS_DEFINE(double, f64)

/* ---- the job: tasks are (outer index, column block); 16-bit lines go through float scratch ---- */

typedef struct sm_job {
    int kind;
    int32_t dtype;
    char *y;
    const char *a, *b; /* b: NULL for the forward kinds */
    int64_t outer, D, inner, blocks;
    int failed; /* set by a piece that could not get scratch memory (raised after the pool) */
} sm_job;

static void widen(float *dst, const void *src, int32_t dtype, int64_t n) {
    if (dtype == TC_BFLOAT16)
        for (int64_t i = 0; i < n; i++) dst[i] = cpu_ld_bf16(((const uint16_t *)src)[i]);
    else
        for (int64_t i = 0; i < n; i++) dst[i] = cpu_ld_f16(((const _Float16 *)src)[i]);
}

static void narrow(void *dst, const float *src, int32_t dtype, int64_t n) {
    if (dtype == TC_BFLOAT16)
        for (int64_t i = 0; i < n; i++) ((uint16_t *)dst)[i] = cpu_st_bf16(src[i]);
    else
        for (int64_t i = 0; i < n; i++) ((_Float16 *)dst)[i] = cpu_st_f16(src[i]);
}

static void run_task(const sm_job *j, int64_t task, float *scratch) {
    const int64_t o = task / j->blocks, j0 = (task % j->blocks) * NNS_W;
    const int64_t W = j->inner - j0 < NNS_W ? j->inner - j0 : NNS_W;
    const size_t es = cpu_dtype_size(j->dtype);
    const int64_t off = o * j->D * j->inner + j0; /* element offset of the block's first element */
    char *y = j->y + (size_t)off * es;
    const char *a = j->a + (size_t)off * es, *b = j->b ? j->b + (size_t)off * es : NULL;
    if (j->dtype == TC_FLOAT32 || j->dtype == TC_FLOAT64) {
        if (j->inner == 1) {
            if (j->dtype == TC_FLOAT32) line_f32(j->kind, (float *)y, (const float *)a, (const float *)b, j->D);
            else line_f64(j->kind, (double *)y, (const double *)a, (const double *)b, j->D);
        } else if (j->dtype == TC_FLOAT32) {
            block_f32(j->kind, (float *)y, (const float *)a, (const float *)b, j->D, W, j->inner);
        } else {
            block_f64(j->kind, (double *)y, (const double *)a, (const double *)b, j->D, W, j->inner);
        }
        return;
    }
    /* 16-bit: the D x W block widened into scratch (rows W apart), computed, narrowed back */
    float *sa = scratch, *sb = scratch + j->D * W, *sy = scratch + 2 * j->D * W;
    for (int64_t d = 0; d < j->D; d++) {
        widen(sa + d * W, a + (size_t)(d * j->inner) * es, j->dtype, W);
        if (b) widen(sb + d * W, b + (size_t)(d * j->inner) * es, j->dtype, W);
    }
    if (W == 1) line_f32(j->kind, sy, sa, b ? sb : NULL, j->D);
    else block_f32(j->kind, sy, sa, b ? sb : NULL, j->D, W, W);
    for (int64_t d = 0; d < j->D; d++) narrow(y + (size_t)(d * j->inner) * es, sy + d * W, j->dtype, W);
}

static void run_tasks(void *ctx, int64_t t0, int64_t t1) {
    sm_job *j = ctx;
    float *scratch = NULL;
    size_t bytes = 0;
    if (j->dtype == TC_FLOAT16 || j->dtype == TC_BFLOAT16) {
        const int64_t w = j->inner < NNS_W ? j->inner : NNS_W;
        bytes = sizeof(float) * 3 * (size_t)(j->D * w);
        if (!(scratch = cpu_core->host_alloc(bytes))) {
            __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
            return;
        }
    }
    for (int64_t t = t0; t < t1; t++) run_task(j, t, scratch);
    if (scratch) cpu_core->host_free(scratch, bytes);
}

/* outputs[0] = kind(inputs[0][, inputs[1]]) along ints[0]; views contiguous, one dtype. */
static int softmax_apply(const tc_kernel_args *args, int kind, int nin) {
    if (cpu_check_args(args, nin, 1, "softmax") != TC_OK) return TC_FAIL;
    const tc_view *out = &args->outputs[0];
    const int64_t dim = args->n_ints > 0 ? args->ints[0] : 0;
    sm_job j = {.kind = kind, .dtype = out->dtype, .y = out->data, .a = args->inputs[0].data,
                .b = nin > 1 ? args->inputs[1].data : NULL, .outer = 1, .D = 1, .inner = 1};
    for (int32_t d = 0; d < out->ndim; d++) {
        if (d < dim) j.outer *= out->sizes[d];
        else if (d == dim) j.D = out->sizes[d];
        else j.inner *= out->sizes[d];
    }
    if (j.outer == 0 || j.D == 0 || j.inner == 0) return TC_OK;
    j.blocks = (j.inner + NNS_W - 1) / NNS_W;
    const int64_t tasks = j.outer * j.blocks;
    int64_t work = j.outer * j.D * j.inner;
    cpu_parallel(tasks, cpu_threads_for(work), run_tasks, &j);
    if (j.failed) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory in softmax");
    return TC_OK;
}

static int k_softmax(const tc_kernel_args *a) { return softmax_apply(a, SOFTMAX, 1); }
static int k_log_softmax(const tc_kernel_args *a) { return softmax_apply(a, LOG_SOFTMAX, 1); }
static int k_softmax_backward(const tc_kernel_args *a) { return softmax_apply(a, SOFTMAX_BACKWARD, 2); }
static int k_log_softmax_backward(const tc_kernel_args *a) { return softmax_apply(a, LOG_SOFTMAX_BACKWARD, 2); }

#define FLOATS(OP, FN) {OP, TC_FLOAT16, FN}, {OP, TC_BFLOAT16, FN}, {OP, TC_FLOAT32, FN}, {OP, TC_FLOAT64, FN}
static const cpu_kernel_entry kernels[] = {
    FLOATS("_softmax", k_softmax),
    FLOATS("_log_softmax", k_log_softmax),
    FLOATS("_softmax_backward_data", k_softmax_backward),
    FLOATS("_log_softmax_backward_data", k_log_softmax_backward),
};
CPU_KERNEL_TABLE(kernels);
