/*
 * random_sample.c - kernels that sample with algorithms of their own: randperm (Fisher-Yates),
 * poisson (inversion below a rate of 10, Hoermann's transformed rejection above) and multinomial
 * (inverse CDF with replacement, exponential races without). Contracts in docs/plugin-abi.md.
 *
 * Each follows PyTorch 1.13's CPU implementation draw for draw, serially (random.h): the number of
 * draws an element takes depends on the values drawn before it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "random.h"
#include "stl_select.h"

/* ---- randperm: out[i] = i, then swap i with i + (32-bit draw mod (n - i)) for i < n - 1 ---- */


#define RANDPERM_KERNEL(_, S)                                                                      \
    static int k_randperm_##S(const tc_kernel_args *args) {                                        \
        if (cpu_check_args(args, 0, 1, "randperm") != TC_OK) return TC_FAIL;                       \
        const tc_view *o = &args->outputs[0];                                                      \
        if (o->ndim != 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu randperm: expected a 1-D output"); \
        tc_generator *g = cpu_random_generator(args);                                              \
        if (!g) return TC_FAIL;                                                                    \
        CPU_T_##S *x = o->data;                                                                    \
        const int64_t n = o->sizes[0], st = o->strides[0];                                         \
        for (int64_t i = 0; i < n; i++) x[i * st] = RANDOM_FROM_I64_##S(i);                        \
        uint32_t bits[1024];                                                                       \
        cpu_core->generator_lock(g);                                                               \
        for (int64_t i = 0; i < n - 1; i += 1024) {                                                \
            const int64_t m = n - 1 - i < 1024 ? n - 1 - i : 1024;                                 \
            cpu_draw_u32(g, bits, m);                                                              \
            for (int64_t k = 0; k < m; k++) {                                                      \
                const int64_t at = i + k, z = (int64_t)(bits[k] % (uint64_t)(n - at));             \
                const CPU_T_##S t = x[at * st];                                                    \
                x[at * st] = x[(z + at) * st];                                                     \
                x[(z + at) * st] = t;                                                              \
            }                                                                                      \
        }                                                                                          \
        cpu_core->generator_unlock(g);                                                             \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_NUMERIC(RANDPERM_KERNEL, _)

/* ---- poisson ---- */

/* PyTorch's sample_poisson, in plain double arithmetic (its file is compiled without FMA). */
static int64_t sample_poisson(tc_generator *g, double lambda) {
    if (lambda >= 10) {
        const double slam = sqrt(lambda), loglam = log(lambda);
        const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
        const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            const double u = cpu_uniform_f64(g) - 0.5, v = cpu_uniform_f64(g);
            const double us = 0.5 - fabs(u);
            const int64_t k = tc_cvtt_i64(floor((2 * a / us + b) * u + lambda + 0.43));
            if (us >= 0.07 && v <= vr) return k;
            if (k < 0 || (us < 0.013 && v > us)) continue;
            if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lambda + (double)k * loglam - lgamma((double)k + 1))
                return k;
        }
    }
    if (lambda == 0) return 0;
    const double enlam = exp(-lambda);
    double prod = 1.0;
    for (int64_t x = 0;; x++) {
        prod *= cpu_uniform_f64(g);
        if (!(prod > enlam)) return x;
    }
}

typedef struct poisson_ctx {
    tc_generator *g;
    int bad_rate;
} poisson_ctx;

#define POISSON_KERNEL(_, S)                                                                       \
    static int poisson_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {          \
        poisson_ctx *ctx = vctx;                                                                   \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##S *rate = (const CPU_T_##S *)p[1];                                           \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const double lambda = (double)cpu_ld_##S(rate[i * s[1]]);                              \
            if (!(lambda >= 0)) {                                                                  \
                ctx->bad_rate = 1;                                                                 \
                return 1;                                                                          \
            }                                                                                      \
            o[i * s[0]] = RANDOM_FROM_I64_##S(sample_poisson(ctx->g, lambda));                     \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static int k_poisson_##S(const tc_kernel_args *args) {                                         \
        if (cpu_check_args(args, 1, 1, "poisson") != TC_OK) return TC_FAIL;                        \
        poisson_ctx ctx = {.g = cpu_random_generator(args)};                                       \
        if (!ctx.g) return TC_FAIL;                                                                \
        const tc_view *views[2] = {&args->outputs[0], &args->inputs[0]};                           \
        cpu_core->generator_lock(ctx.g);                                                           \
        const int rc = cpu_random_rows(views, 2, poisson_row_##S, &ctx);                           \
        cpu_core->generator_unlock(ctx.g);                                                         \
        if (rc == TC_FAIL) return TC_FAIL;                                                         \
        if (ctx.bad_rate)                                                                          \
            return cpu_core->set_error(TC_ERR_RUNTIME, "invalid Poisson rate, expected rate to be non-negative"); \
        return TC_OK;                                                                              \
    }
POISSON_KERNEL(_, bf16)
POISSON_KERNEL(_, f32)
POISSON_KERNEL(_, f64)

/* ---- multinomial ----
 * With replacement: per distribution, the running sums in the dtype, each divided by the total,
 * the last set to 1; each sample is the first category whose sum is not below a uniform double
 * (binary search). Without: q = p / e with e ~ Exp(1) drawn for every element in the memory order of
 * a tensor like p (PyTorch's empty_like(p).exponential_()), then the category of the largest q
 * (one sample) or the k largest in descending order. */

typedef struct multinomial_args {
    const tc_view *p, *out;
    int64_t n_dist, n_cat, n_sample;
    int64_t p_stride0, p_stride1, o_stride0, o_stride1;
} multinomial_args;

/* PyTorch's messages for invalid distributions. */
enum { MN_OK, MN_NEGATIVE, MN_NONFINITE, MN_ZERO_SUM, MN_INVALID, MN_NO_MEMORY };

static int mn_raise(int code) {
    switch (code) {
    case MN_NEGATIVE:
        return cpu_core->set_error(TC_ERR_RUNTIME, "invalid multinomial distribution (encountering probability entry < 0)");
    case MN_NONFINITE:
        return cpu_core->set_error(TC_ERR_RUNTIME,
                                   "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
    case MN_ZERO_SUM:
        return cpu_core->set_error(TC_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
    case MN_INVALID:
        return cpu_core->set_error(TC_ERR_RUNTIME, "probability tensor contains either `inf`, `nan` or element < 0");
    case MN_NO_MEMORY: return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    default: return TC_OK;
    }
}

/* T arithmetic as PyTorch's scalar_t: float16/bfloat16 round every result. */
#define MN_ROUND_bf16(v) cpu_bf16_to_f32(cpu_f32_to_bf16(v))
/* with replacement the running sums of bfloat16 are floats (PyTorch's opmath) */
#define MN_SUM_bf16(v) (v)
#define MN_SUM_f32(v) (v)
#define MN_SUM_f64(v) (v)
#define MN_ROUND_f32(v) (v)
#define MN_ROUND_f64(v) (v)

#define MULTINOMIAL_REPLACE(S)                                                                     \
    static int mn_replace_##S(tc_generator *g, const multinomial_args *a, CPU_C_##S *cum) {        \
        const CPU_T_##S *p = a->p->data;                                                           \
        int64_t *out = a->out->data;                                                               \
        for (int64_t i = 0; i < a->n_dist; i++) {                                                  \
            CPU_C_##S sum = 0;                                                                     \
            for (int64_t j = 0; j < a->n_cat; j++) {                                               \
                const CPU_C_##S v = cpu_ld_##S(p[i * a->p_stride0 + j * a->p_stride1]);            \
                if (!(v >= 0)) return MN_NEGATIVE;                                                 \
                if (!isfinite(v)) return MN_NONFINITE;                                             \
                sum = MN_SUM_##S(sum + v);                                                         \
                cum[j] = sum;                                                                      \
            }                                                                                      \
            if (!(sum > 0)) return MN_ZERO_SUM;                                                    \
            for (int64_t j = 0; j < a->n_cat; j++) cum[j] = MN_SUM_##S(cum[j] / sum);              \
            cum[a->n_cat - 1] = 1;                                                                 \
            for (int64_t k = 0; k < a->n_sample; k++) {                                            \
                const double u = cpu_uniform_f64(g);                                               \
                int64_t left = 0, right = a->n_cat;                                                \
                while (right - left > 0) {                                                         \
                    const int64_t mid = left + (right - left) / 2;                                 \
                    if ((double)cum[mid] < u)                                                      \
                        left = mid + 1;                                                            \
                    else                                                                           \
                        right = mid;                                                               \
                }                                                                                  \
                out[i * a->o_stride0 + k * a->o_stride1] = left;                                   \
            }                                                                                      \
        }                                                                                          \
        return MN_OK;                                                                              \
    }
MULTINOMIAL_REPLACE(bf16)
MULTINOMIAL_REPLACE(f32)
MULTINOMIAL_REPLACE(f64)

/* Whether a view is non-overlapping and dense (PyTorch's definition): then empty_like keeps its
 * strides, else it is contiguous. */
static int non_overlapping_and_dense(const tc_view *v) {
    int perm[TC_MAX_DIMS], n = 0;
    for (int d = 0; d < v->ndim; d++)
        if (v->sizes[d] >= 2) perm[n++] = d;
    for (int i = 1; i < n; i++) /* by stride, ascending */
        for (int j = i; j > 0 && v->strides[perm[j - 1]] > v->strides[perm[j]]; j--) {
            const int t = perm[j - 1];
            perm[j - 1] = perm[j];
            perm[j] = t;
        }
    int64_t want = 1;
    for (int i = 0; i < n; i++) {
        if (v->strides[perm[i]] != want) return 0;
        want *= v->sizes[perm[i]];
    }
    return 1;
}

typedef struct race_ctx {
    tc_generator *g;
} race_ctx;

/* Exp(1) draws into q (double storage; each value rounded to T as PyTorch's tensor of T holds it). */
#define MN_EXP_ROW(S)                                                                              \
    static int mn_exp_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {           \
        race_ctx *ctx = vctx;                                                                      \
        double *q = (double *)p[0];                                                                \
        for (int64_t i = 0; i < n; i++)                                                            \
            q[i * s[0]] = (double)cpu_ld_##S(RANDOM_FROM_F64_##S(-1.0 * log(1.0 - cpu_uniform_f64(ctx->g)))); \
        return 0;                                                                                  \
    }
MN_EXP_ROW(bf16)
MN_EXP_ROW(f32)
MN_EXP_ROW(f64)

/* topk's order for the largest values: NaN first, then descending (ties are left where libstdc++'s
 * algorithms leave them, stl_select.h). */
static int mn_before(const cpu_stl_item *x, const cpu_stl_item *y) {
    return (isnan(x->value) && !isnan(y->value)) || x->value > y->value;
}

/* PyTorch's CPU topk(k, largest, sorted) on one row: heap selection when k is small against the
 * row, else nth_element and a sort of the k - 1 before it. */
static void mn_topk(cpu_stl_item *items, int64_t n, int64_t k) {
    if (k * 64 <= n) {
        cpu_stl_partial_sort(items, items + k, items + n, mn_before);
    } else {
        cpu_stl_nth_element(items, items + k - 1, items + n, mn_before);
        cpu_stl_sort(items, items + k - 1, mn_before);
    }
}

#define MULTINOMIAL_RACE(S)                                                                        \
    static int mn_race_##S(tc_generator *g, const multinomial_args *a, double *q, cpu_stl_item *items) { \
        const tc_view *p = a->p;                                                                   \
        const CPU_T_##S *pd = p->data;                                                             \
        int code = MN_OK;                                                                          \
        for (int64_t i = 0; i < a->n_dist && code == MN_OK; i++) { /* checked before any draw */   \
            int any = 0;                                                                           \
            for (int64_t j = 0; j < a->n_cat; j++) {                                               \
                const CPU_C_##S v = cpu_ld_##S(pd[i * a->p_stride0 + j * a->p_stride1]);           \
                if (!(v >= 0 && v < INFINITY)) return MN_INVALID;                                  \
                any |= v != 0;                                                                     \
            }                                                                                      \
            if (!any) code = MN_ZERO_SUM;                                                          \
        }                                                                                          \
        if (code != MN_OK) return code;                                                            \
        int64_t qstrides[TC_MAX_DIMS];                                                             \
        if (non_overlapping_and_dense(p)) {                                                        \
            memcpy(qstrides, p->strides, sizeof(int64_t) * (size_t)p->ndim);                       \
        } else {                                                                                   \
            int64_t acc = 1;                                                                       \
            for (int d = p->ndim - 1; d >= 0; d--) {                                               \
                qstrides[d] = acc;                                                                 \
                acc *= p->sizes[d];                                                                \
            }                                                                                      \
        }                                                                                          \
        const tc_view qv = {.data = q, .sizes = p->sizes, .strides = qstrides, .ndim = p->ndim,    \
                            .dtype = TC_FLOAT64, .device = p->device};                             \
        const tc_view *views[1] = {&qv};                                                           \
        race_ctx ctx = {g};                                                                        \
        if (cpu_random_rows(views, 1, mn_exp_row_##S, &ctx) == TC_FAIL) return MN_NO_MEMORY;       \
        const int64_t q0 = p->ndim > 1 ? qstrides[0] : 0, q1 = qstrides[p->ndim - 1];              \
        int64_t *out = a->out->data;                                                               \
        for (int64_t i = 0; i < a->n_dist; i++) {                                                  \
            for (int64_t j = 0; j < a->n_cat; j++) {                                               \
                const CPU_C_##S pv = cpu_ld_##S(pd[i * a->p_stride0 + j * a->p_stride1]);          \
                items[j].value = (double)MN_ROUND_##S(pv / (CPU_C_##S)q[i * q0 + j * q1]);         \
                items[j].index = j;                                                                \
            }                                                                                      \
            if (a->n_sample == 1) { /* argmax: the first of the largest */                         \
                int64_t best = 0;                                                                  \
                for (int64_t j = 1; j < a->n_cat; j++)                                             \
                    if (mn_before(&items[j], &items[best])) best = j;                              \
                out[i * a->o_stride0] = best;                                                      \
            } else {                                                                               \
                mn_topk(items, a->n_cat, a->n_sample);                                             \
                for (int64_t k = 0; k < a->n_sample; k++) out[i * a->o_stride0 + k * a->o_stride1] = items[k].index; \
            }                                                                                      \
        }                                                                                          \
        return MN_OK;                                                                              \
    }
MULTINOMIAL_RACE(bf16)
MULTINOMIAL_RACE(f32)
MULTINOMIAL_RACE(f64)

#define MULTINOMIAL_KERNEL(_, S)                                                                   \
    static int k_multinomial_##S(const tc_kernel_args *args) {                                     \
        if (cpu_check_args(args, 1, 1, "multinomial") != TC_OK) return TC_FAIL;                    \
        if (args->n_ints < 3) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu multinomial: expected 3 ints"); \
        const tc_view *p = &args->inputs[0], *o = &args->outputs[0];                               \
        const int two = p->ndim > 1;                                                               \
        multinomial_args a = {.p = p, .out = o, .n_dist = two ? p->sizes[0] : 1, .n_cat = p->sizes[p->ndim - 1], \
                              .n_sample = args->ints[1], .p_stride0 = two ? p->strides[0] : 0,     \
                              .p_stride1 = p->strides[p->ndim - 1], .o_stride0 = o->ndim > 1 ? o->strides[0] : 0, \
                              .o_stride1 = o->strides[o->ndim - 1]};                               \
        tc_generator *g = cpu_random_generator(args);                                              \
        if (!g) return TC_FAIL;                                                                    \
        const int replacement = args->ints[2] != 0;                                                \
        const int64_t numel = a.n_dist * a.n_cat;                                                  \
        size_t scratch, q_bytes, item_bytes;                                                       \
        if (__builtin_mul_overflow((size_t)numel, sizeof(double), &q_bytes) ||                     \
            __builtin_mul_overflow((size_t)a.n_cat, sizeof(cpu_stl_item), &item_bytes) ||          \
            __builtin_add_overflow(q_bytes, item_bytes, &scratch))                                 \
            return mn_raise(MN_NO_MEMORY);                                                         \
        if (replacement) scratch = sizeof(CPU_C_##S) * (size_t)a.n_cat;                            \
        void *buf = cpu_core->host_alloc(scratch ? scratch : 1);                                   \
        if (!buf) return mn_raise(MN_NO_MEMORY);                                                   \
        cpu_core->generator_lock(g);                                                               \
        const int code = replacement ? mn_replace_##S(g, &a, buf)                                  \
                                     : mn_race_##S(g, &a, buf, (cpu_stl_item *)((double *)buf + numel)); \
        cpu_core->generator_unlock(g);                                                             \
        cpu_core->host_free(buf, scratch ? scratch : 1);                                           \
        return mn_raise(code);                                                                     \
    }
MULTINOMIAL_KERNEL(_, bf16)
MULTINOMIAL_KERNEL(_, f32)
MULTINOMIAL_KERNEL(_, f64)

#define E_RANDPERM(_, S) {"randperm", CPU_DT_##S, k_randperm_##S},
#define E_FLOAT(S) {"poisson", CPU_DT_##S, k_poisson_##S}, {"multinomial", CPU_DT_##S, k_multinomial_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_NUMERIC(E_RANDPERM, _) E_FLOAT(bf16) E_FLOAT(f32) E_FLOAT(f64)};
CPU_KERNEL_TABLE(kernels);
