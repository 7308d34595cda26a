/*
 * random_gamma.c - samplers of the gamma family and of the binomial: _standard_gamma (Marsaglia and
 * Tsang's rejection method, boosted below a shape of 1), _sample_dirichlet (gamma draws in double,
 * normalized along the last dimension) and binomial (inversion below a mean of 10, Hormann's BTRS
 * above). Contracts in docs/plugin-abi.md.
 *
 * Each follows PyTorch 1.13's CPU kernels draw for draw, serially (random.h): uniforms are
 * uniform_real_distribution<double> draws, normals normal_distribution<double> ones (their cached
 * second value included). The arithmetic is theirs too: parts their templates do in the tensor's
 * type (float for float32) are done in float here, and the float literals of their source stay
 * float constants ((double)(1.0f / 3.0f) is not 1.0 / 3.0).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "dtype.h"
#include "random.h"

/* ---- gamma ---- */

/* A Gamma(alpha, 1) draw; `single` when alpha is a float32 value (PyTorch's scalar_t float): the
 * boost below 1 and d = alpha - 1/3 are then float arithmetic. */
static double sample_gamma(tc_generator *g, double alpha, int single) {
    double scale = 1.0;
    if (alpha < 1.0) {
        if (alpha == 0) return 0;
        const double e = single ? (double)(1.0f / (float)alpha) : 1.0 / alpha;
        scale *= pow(1 - cpu_uniform_f64(g), e);
        alpha = single ? (double)((float)alpha + 1.0f) : alpha + 1.0;
    }
    const double d = single ? (double)((float)alpha - 1.0f / 3.0f) : alpha - (double)(1.0f / 3.0f);
    const double c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, y;
        do {
            x = cpu_normal_f64(g, 0.0, 1.0);
            y = 1.0 + c * x;
        } while (y <= 0);
        const double v = y * y * y;
        const double u = 1 - cpu_uniform_f64(g);
        const double xx = x * x;
        if (u < 1.0 - (double)0.0331f * xx * xx) return scale * d * v;
        if (log(u) < 0.5 * xx + d * (1.0 - v + log(v))) return scale * d * v;
    }
}

typedef struct gamma_ctx {
    tc_generator *g;
} gamma_ctx;

#define GAMMA_SINGLE_f32 1
#define GAMMA_SINGLE_f64 0
#define GAMMA_KERNEL(_, S)                                                                         \
    static int gamma_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {            \
        gamma_ctx *ctx = vctx;                                                                     \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##S *alpha = (const CPU_T_##S *)p[1];                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const CPU_T_##S v = (CPU_T_##S)sample_gamma(ctx->g, alpha[i * s[1]], GAMMA_SINGLE_##S); \
            o[i * s[0]] = v > CPU_MIN_##S ? v : CPU_MIN_##S; /* std::max(min, v): NaN gives min */ \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static int k_standard_gamma_##S(const tc_kernel_args *args) {                                  \
        if (cpu_check_args(args, 1, 1, "_standard_gamma") != TC_OK) return TC_FAIL;               \
        gamma_ctx ctx = {cpu_random_generator(args)};                                              \
        if (!ctx.g) return TC_FAIL;                                                                \
        const tc_view *views[2] = {&args->outputs[0], &args->inputs[0]};                           \
        cpu_core->generator_lock(ctx.g);                                                           \
        const int rc = cpu_random_rows(views, 2, gamma_row_##S, &ctx);                             \
        cpu_core->generator_unlock(ctx.g);                                                         \
        return rc == TC_FAIL ? TC_FAIL : TC_OK;                                                    \
    }
#define CPU_MIN_f32 FLT_MIN
#define CPU_MIN_f64 DBL_MIN
GAMMA_KERNEL(_, f32)
GAMMA_KERNEL(_, f64)

/* ---- dirichlet: gamma draws (in double, at least DBL_MIN) into a contiguous buffer in the order of
 * PyTorch's iterator over (buffer, alpha), then each divided by its row's sum, in the dtype and
 * clamped to [the smallest normal, the largest value below 1] ---- */

#define DIRICHLET_KERNEL(_, S)                                                                     \
    static int dirichlet_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {        \
        gamma_ctx *ctx = vctx;                                                                     \
        double *o = (double *)p[0];                                                                \
        const CPU_T_##S *alpha = (const CPU_T_##S *)p[1];                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const double v = sample_gamma(ctx->g, (double)alpha[i * s[1]], 0);                     \
            o[i * s[0]] = v > DBL_MIN ? v : DBL_MIN;                                               \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static int k_sample_dirichlet_##S(const tc_kernel_args *args) {                                \
        if (cpu_check_args(args, 1, 1, "_sample_dirichlet") != TC_OK) return TC_FAIL;             \
        const tc_view *o = &args->outputs[0], *a = &args->inputs[0];                               \
        gamma_ctx ctx = {cpu_random_generator(args)};                                              \
        if (!ctx.g) return TC_FAIL;                                                                \
        int64_t numel = 1, strides[TC_MAX_DIMS];                                                   \
        for (int d = o->ndim - 1; d >= 0; d--) {                                                   \
            strides[d] = numel;                                                                    \
            numel *= o->sizes[d];                                                                  \
        }                                                                                          \
        if (numel == 0) return TC_OK;                                                              \
        double *gam = cpu_core->host_alloc(sizeof(double) * (size_t)numel);                        \
        if (!gam) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");               \
        const tc_view gv = {.data = gam, .sizes = o->sizes, .strides = strides, .ndim = o->ndim,   \
                            .dtype = TC_FLOAT64, .device = o->device};                             \
        const tc_view *views[2] = {&gv, a};                                                        \
        cpu_core->generator_lock(ctx.g);                                                           \
        const int rc = cpu_random_rows(views, 2, dirichlet_row_##S, &ctx);                         \
        cpu_core->generator_unlock(ctx.g);                                                         \
        if (rc == TC_FAIL) {                                                                       \
            cpu_core->host_free(gam, sizeof(double) * (size_t)numel);                              \
            return TC_FAIL;                                                                        \
        }                                                                                          \
        const int64_t k = o->ndim ? o->sizes[o->ndim - 1] : 1;                                     \
        const int64_t ks = o->ndim ? o->strides[o->ndim - 1] : 0;                                  \
        const CPU_T_##S top = BELOW_ONE_##S;                            \
        for (int64_t r = 0; r < numel / k; r++) {                                                  \
            const double *row = gam + r * k;                                                       \
            double sum = 0;                                                                        \
            for (int64_t j = 0; j < k; j++) sum += row[j];                                         \
            int64_t off = 0, rest = r; /* the output offset of row r */                            \
            for (int d = o->ndim - 2; d >= 0; d--) {                                               \
                off += (rest % o->sizes[d]) * o->strides[d];                                       \
                rest /= o->sizes[d];                                                               \
            }                                                                                      \
            CPU_T_##S *out = (CPU_T_##S *)o->data + off;                                           \
            for (int64_t j = 0; j < k; j++) {                                                      \
                CPU_T_##S v = (CPU_T_##S)(row[j] / sum);                                           \
                v = v > CPU_MIN_##S ? v : CPU_MIN_##S;                                             \
                out[j * ks] = top < v ? top : v;                                                   \
            }                                                                                      \
        }                                                                                          \
        cpu_core->host_free(gam, sizeof(double) * (size_t)numel);                                  \
        return TC_OK;                                                                              \
    }
#define BELOW_ONE_f32 nextafterf(1.0f, 0.0f)
#define BELOW_ONE_f64 nextafter(1.0, 0.0)
DIRICHLET_KERNEL(_, f32)
DIRICHLET_KERNEL(_, f64)

/* ---- binomial ----
 * PyTorch's sample_binomial<scalar_t, double>: count and prob in the tensor's type T (float for
 * float32), the rejection arithmetic in double. BINOMIAL_SAMPLER stamps it per T with T's sqrt,
 * floor and log1p (std::sqrt of a float is sqrtf). */

/* log k! - (k + 1/2) log(k + 1) + (k + 1) - log(2 pi) / 2: the tail of Stirling's series */
static double stirling_approx_tail(double k) {
    static const double tail[] = {0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                                  0.00833056343336287};
    if (k <= 9) return tail[(size_t)k];
    const double kp1sq = (k + 1) * (k + 1);
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

#define BINOMIAL_SAMPLER(T, SQRT, FLOOR, LOG1P)                                                    \
    /* inversion: count the geometric waiting times that fit in count trials */                   \
    static T binomial_inversion_##T(tc_generator *g, T count, T prob) {                            \
        double geom_sum = 0;                                                                       \
        T num_geom = 0;                                                                            \
        const double logprob = LOG1P(-prob);                                                       \
        for (;;) {                                                                                 \
            geom_sum += ceil(log(cpu_uniform_f64(g)) / logprob);                                   \
            if (geom_sum > count) return num_geom;                                                 \
            num_geom = num_geom + 1;                                                               \
        }                                                                                          \
    }                                                                                              \
    /* Hormann's transformed rejection with squeeze (BTRS), prob <= 1/2 */                         \
    static T btrs_##T(tc_generator *g, T count, T prob) {                                          \
        const double stddev = SQRT(count * prob * (1 - prob));                                     \
        const double b = 1.15 + 2.53 * stddev;                                                     \
        const double a = -0.0873 + 0.0248 * b + 0.01 * prob;                                       \
        const double c = count * prob + 0.5;                                                       \
        const double v_r = 0.92 - 4.2 / b;                                                         \
        const double r = prob / (1 - prob);                                                        \
        const double alpha = (2.83 + 5.1 / b) * stddev;                                            \
        const double m = FLOOR((count + 1) * prob);                                                \
        for (;;) {                                                                                 \
            const double U = cpu_uniform_f64(g) - 0.5;                                             \
            double V = cpu_uniform_f64(g);                                                         \
            const double us = 0.5 - fabs(U);                                                       \
            const T k = (T)floor((2 * a / us + b) * U + c);                                        \
            if (k < 0 || k > count) continue;                                                      \
            if (us >= 0.07 && V <= v_r) return k;                                                  \
            V = log(V * alpha / (a / (us * us) + b));                                              \
            const double upperbound = (m + 0.5) * log((m + 1) / (r * (count - m + 1)))             \
                                      + (count + 1) * log((count - m + 1) / (count - k + 1))       \
                                      + (k + 0.5) * log(r * (count - k + 1) / (k + 1))             \
                                      + stirling_approx_tail(m) + stirling_approx_tail(count - m)  \
                                      - stirling_approx_tail(k) - stirling_approx_tail(count - k); \
            if (V <= upperbound) return k;                                                         \
        }                                                                                          \
    }                                                                                              \
    static T sample_binomial_##T(tc_generator *g, T count, T prob) {                               \
        if (count != count) return count; /* NaN: PyTorch's inversion would never end */           \
        if (count <= 0.0 || prob <= 0.0) return 0;                                                 \
        if (prob >= 1.0) return count;                                                             \
        if (prob <= 0.5)                                                                           \
            return count * prob >= 10.0 ? btrs_##T(g, count, prob) : binomial_inversion_##T(g, count, prob); \
        if (prob > 0.5) {                                                                          \
            const T q = (T)(1.0 - prob);                                                           \
            return count - (count * q >= 10.0 ? btrs_##T(g, count, q) : binomial_inversion_##T(g, count, q)); \
        }                                                                                          \
        return (T)NAN; /* prob is NaN */                                                           \
    }
BINOMIAL_SAMPLER(float, sqrtf, floorf, log1pf)
BINOMIAL_SAMPLER(double, sqrt, floor, log1p)
#define SAMPLE_BINOMIAL_f32 sample_binomial_float
#define SAMPLE_BINOMIAL_f64 sample_binomial_double

#define BINOMIAL_KERNEL(_, S)                                                                      \
    static int binomial_row_##S(void *vctx, int64_t n, char *const *p, const int64_t *s) {         \
        gamma_ctx *ctx = vctx;                                                                     \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##S *count = (const CPU_T_##S *)p[1], *prob = (const CPU_T_##S *)p[2];         \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i * s[0]] = SAMPLE_BINOMIAL_##S(ctx->g, count[i * s[1]], prob[i * s[2]]);    \
        return 0;                                                                                  \
    }                                                                                              \
    static int k_binomial_##S(const tc_kernel_args *args) {                                        \
        if (cpu_check_args(args, 2, 1, "binomial") != TC_OK) return TC_FAIL;                       \
        gamma_ctx ctx = {cpu_random_generator(args)};                                              \
        if (!ctx.g) return TC_FAIL;                                                                \
        const tc_view *views[3] = {&args->outputs[0], &args->inputs[0], &args->inputs[1]};         \
        cpu_core->generator_lock(ctx.g);                                                           \
        const int rc = cpu_random_rows(views, 3, binomial_row_##S, &ctx);                          \
        cpu_core->generator_unlock(ctx.g);                                                         \
        return rc == TC_FAIL ? TC_FAIL : TC_OK;                                                    \
    }
BINOMIAL_KERNEL(_, f32)
BINOMIAL_KERNEL(_, f64)

#define E_GAMMA(S) {"standard_gamma", CPU_DT_##S, k_standard_gamma_##S},                           \
                   {"sample_dirichlet", CPU_DT_##S, k_sample_dirichlet_##S}, {"binomial", CPU_DT_##S, k_binomial_##S},
static const cpu_kernel_entry kernels[] = {E_GAMMA(f32) E_GAMMA(f64)};
CPU_KERNEL_TABLE(kernels);
