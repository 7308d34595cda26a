/*
 * normalization.c - batch, layer and group normalisation and their backward ops (contract in
 * core/src/meta_norm.c).
 *
 * Statistics and the reductions of the backward ops accumulate in double (PyTorch's CPU accumulate
 * type for float); the elementwise passes apply per-channel (or per-row) scale and shift in the
 * compute type, as PyTorch's kernels do: y = x * alpha + beta. Parameters and statistics may be
 * float32 beside a bfloat16 input, so they are read and written through their own dtype. Work is
 * split by channels (batch norm), rows (layer norm), or (sample, group) pairs (group norm).
 */
#include <math.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"

/* ---- parameters and statistics: 1-D views of any stride, or contiguous ones (the statistics of
 * layer and group norm), of their own dtype; read and written by flat index ---- */

static int64_t step_of(const tc_view *v) { return v->ndim == 1 ? v->strides[0] : 1; }

static double pget(const tc_view *v, int64_t i) {
    const char *p = (const char *)v->data + (size_t)(i * step_of(v)) * cpu_dtype_size(v->dtype);
    switch (v->dtype) {
    case TC_FLOAT32: return *(const float *)p;
    case TC_FLOAT64: return *(const double *)p;
    case TC_BFLOAT16: return cpu_bf16_to_f32(*(const uint16_t *)p);
    default: return 0;
    }
}

static void pset(const tc_view *v, int64_t i, double x) {
    char *p = (char *)v->data + (size_t)(i * step_of(v)) * cpu_dtype_size(v->dtype);
    switch (v->dtype) {
    case TC_FLOAT32: *(float *)p = (float)x; break;
    case TC_FLOAT64: *(double *)p = x; break;
    case TC_BFLOAT16: *(uint16_t *)p = cpu_f32_to_bf16((float)x); break;
    default: break;
    }
}

/* The optional inputs after the first `fixed` ones: flags in ints[first..first+n), views in order. */
static void optional_inputs(const tc_kernel_args *a, int fixed, int first, int n, const tc_view **out) {
    int next = fixed;
    for (int i = 0; i < n; i++) out[i] = a->ints[first + i] && next < a->n_inputs ? &a->inputs[next++] : NULL;
}

static const tc_view *defined(const tc_view *v) { return v->ndim >= 0 ? v : NULL; }

typedef struct norm_job {
    const tc_kernel_args *a;
    const tc_view *x, *go, *y, *gi, *w, *b, *rm, *rv, *mean, *rstd, *gw, *gb;
    int64_t n, c, s; /* batch norm: [n][c][s]; layer norm: n rows of s; group norm: n, c, s = HxW */
    int64_t groups;
    bool training;
    double momentum, eps;
} norm_job;

static int64_t numel_of(const tc_view *v) {
    int64_t n = 1;
    for (int32_t d = 0; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

#define NORM_STAMP(_, S)                                                                           \
    /* batch norm: statistics of channel c, then y = x * alpha + beta */                           \
    static void bn_channels_##S(void *vj, int64_t c0, int64_t c1) {                                \
        const norm_job *j = vj;                                                                    \
        const CPU_T_##S *x = j->x->data;                                                           \
        CPU_T_##S *y = j->y->data;                                                                 \
        const int64_t m = j->n * j->s;                                                             \
        for (int64_t c = c0; c < c1; c++) {                                                        \
            double mean, invstd;                                                                   \
            if (j->training) {                                                                     \
                double sum = 0, var = 0;                                                           \
                for (int64_t n = 0; n < j->n; n++)                                                 \
                    for (int64_t i = 0; i < j->s; i++) sum += cpu_ld_##S(x[(n * j->c + c) * j->s + i]); \
                mean = m ? sum / (double)m : 0;                                                    \
                for (int64_t n = 0; n < j->n; n++)                                                 \
                    for (int64_t i = 0; i < j->s; i++) {                                           \
                        const double d = cpu_ld_##S(x[(n * j->c + c) * j->s + i]) - mean;           \
                        var += d * d;                                                              \
                    }                                                                              \
                invstd = 1 / sqrt((m ? var / (double)m : 0) + j->eps);                             \
                pset(&j->a->outputs[1], c, mean);                                                  \
                pset(&j->a->outputs[2], c, invstd);                                                \
                if (j->rm) pset(j->rm, c, j->momentum * mean + (1 - j->momentum) * pget(j->rm, c)); \
                if (j->rv)                                                                         \
                    pset(j->rv, c, j->momentum * var / (double)(m - 1) + (1 - j->momentum) * pget(j->rv, c)); \
            } else {                                                                               \
                mean = pget(j->rm, c);                                                             \
                invstd = 1 / sqrt(pget(j->rv, c) + j->eps);                                        \
            }                                                                                      \
            const double a = invstd * (j->w ? pget(j->w, c) : 1.0);                                \
            const CPU_C_##S alpha = (CPU_C_##S)a, beta = (CPU_C_##S)((j->b ? pget(j->b, c) : 0.0) - mean * a); \
            for (int64_t n = 0; n < j->n; n++) {                                                   \
                const CPU_T_##S *xr = x + (n * j->c + c) * j->s;                                    \
                CPU_T_##S *yr = y + (n * j->c + c) * j->s;                                          \
                for (int64_t i = 0; i < j->s; i++) yr[i] = cpu_st_##S(cpu_ld_##S(xr[i]) * alpha + beta); \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void bn_backward_channels_##S(void *vj, int64_t c0, int64_t c1) {                       \
        const norm_job *j = vj;                                                                    \
        const CPU_T_##S *x = j->x->data, *go = j->go->data;                                        \
        const int64_t m = j->n * j->s;                                                             \
        for (int64_t c = c0; c < c1; c++) {                                                        \
            const double mean = pget(j->training ? j->mean : j->rm, c);                            \
            const double invstd = j->training ? pget(j->rstd, c) : 1 / sqrt(pget(j->rv, c) + j->eps); \
            double sum = 0, dot = 0;                                                               \
            for (int64_t n = 0; n < j->n; n++)                                                     \
                for (int64_t i = 0; i < j->s; i++) {                                               \
                    const int64_t at = (n * j->c + c) * j->s + i;                                  \
                    const double g = cpu_ld_##S(go[at]);                                           \
                    sum += g;                                                                      \
                    dot += (cpu_ld_##S(x[at]) - mean) * g;                                         \
                }                                                                                  \
            if (j->gw) pset(j->gw, c, dot * invstd);                                               \
            if (j->gb) pset(j->gb, c, sum);                                                        \
            if (!j->gi) continue;                                                                  \
            const double w = j->w ? pget(j->w, c) : 1.0;                                           \
            CPU_T_##S *gi = j->gi->data;                                                           \
            if (j->training) {                                                                     \
                const CPU_C_##S gmean = (CPU_C_##S)(m ? sum / (double)m : 0);                      \
                const CPU_C_##S k = (CPU_C_##S)(m ? dot * invstd * invstd / (double)m : 0);        \
                const CPU_C_##S mu = (CPU_C_##S)mean, scale = (CPU_C_##S)(invstd * w);            \
                for (int64_t n = 0; n < j->n; n++)                                                 \
                    for (int64_t i = 0; i < j->s; i++) {                                           \
                        const int64_t at = (n * j->c + c) * j->s + i;                              \
                        const CPU_C_##S dx = (cpu_ld_##S(x[at]) - mu) * k;                         \
                        gi[at] = cpu_st_##S((cpu_ld_##S(go[at]) - gmean - dx) * scale);            \
                    }                                                                              \
            } else {                                                                               \
                const CPU_C_##S scale = (CPU_C_##S)(invstd * w);                                   \
                for (int64_t n = 0; n < j->n; n++)                                                 \
                    for (int64_t i = 0; i < j->s; i++) {                                           \
                        const int64_t at = (n * j->c + c) * j->s + i;                              \
                        gi[at] = cpu_st_##S(cpu_ld_##S(go[at]) * scale);                           \
                    }                                                                              \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* mean and 1/std of `count` contiguous elements */                                            \
    static void moments_##S(const CPU_T_##S *x, int64_t count, double eps, double *mean, double *rstd) { \
        double sum = 0, var = 0;                                                                   \
        for (int64_t i = 0; i < count; i++) sum += cpu_ld_##S(x[i]);                               \
        *mean = count ? sum / (double)count : 0;                                                   \
        for (int64_t i = 0; i < count; i++) {                                                      \
            const double d = cpu_ld_##S(x[i]) - *mean;                                             \
            var += d * d;                                                                          \
        }                                                                                          \
        *rstd = 1 / sqrt((count ? var / (double)count : 0) + eps);                                 \
    }                                                                                              \
    static void ln_rows_##S(void *vj, int64_t r0, int64_t r1) {                                    \
        const norm_job *j = vj;                                                                    \
        for (int64_t r = r0; r < r1; r++) {                                                        \
            const CPU_T_##S *x = (const CPU_T_##S *)j->x->data + r * j->s;                          \
            CPU_T_##S *y = (CPU_T_##S *)j->y->data + r * j->s;                                      \
            double mean, rstd;                                                                     \
            moments_##S(x, j->s, j->eps, &mean, &rstd);                                            \
            pset(&j->a->outputs[1], r, mean);                                                      \
            pset(&j->a->outputs[2], r, rstd);                                                      \
            const CPU_C_##S scale = (CPU_C_##S)rstd, shift = (CPU_C_##S)(-rstd * mean);            \
            for (int64_t i = 0; i < j->s; i++) {                                                   \
                CPU_C_##S v = cpu_ld_##S(x[i]) * scale + shift;                                    \
                if (j->w) v *= (CPU_C_##S)pget(j->w, i);                                           \
                if (j->b) v += (CPU_C_##S)pget(j->b, i);                                           \
                y[i] = cpu_st_##S(v);                                                              \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void ln_backward_rows_##S(void *vj, int64_t r0, int64_t r1) {                           \
        const norm_job *j = vj;                                                                    \
        const double inv_d = j->s ? 1.0 / (double)j->s : 0;                                        \
        for (int64_t r = r0; r < r1; r++) {                                                        \
            const CPU_T_##S *x = (const CPU_T_##S *)j->x->data + r * j->s;                          \
            const CPU_T_##S *go = (const CPU_T_##S *)j->go->data + r * j->s;                        \
            CPU_T_##S *gi = (CPU_T_##S *)j->gi->data + r * j->s;                                    \
            const double mean = pget(j->mean, r), rstd = pget(j->rstd, r);                         \
            double ds = 0, db = 0;                                                                 \
            for (int64_t i = 0; i < j->s; i++) {                                                   \
                const double g = cpu_ld_##S(go[i]) * (j->w ? pget(j->w, i) : 1.0);                 \
                ds += g * cpu_ld_##S(x[i]);                                                        \
                db += g;                                                                           \
            }                                                                                      \
            const double b = (db * mean - ds) * rstd * rstd * rstd * inv_d;                        \
            const double cc = -b * mean - db * rstd * inv_d;                                       \
            for (int64_t i = 0; i < j->s; i++) {                                                   \
                const double g = cpu_ld_##S(go[i]) * (j->w ? pget(j->w, i) : 1.0);                 \
                gi[i] = cpu_st_##S((CPU_C_##S)(rstd * g + b * cpu_ld_##S(x[i]) + cc));              \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* the weight and bias gradients of a layer norm: per column, over every row */                \
    static void ln_backward_columns_##S(void *vj, int64_t d0, int64_t d1) {                        \
        const norm_job *j = vj;                                                                    \
        for (int64_t d = d0; d < d1; d++) {                                                        \
            double gw = 0, gb = 0;                                                                 \
            for (int64_t r = 0; r < j->n; r++) {                                                   \
                const double g = cpu_ld_##S(((const CPU_T_##S *)j->go->data)[r * j->s + d]);        \
                const double x = cpu_ld_##S(((const CPU_T_##S *)j->x->data)[r * j->s + d]);         \
                gw += g * (x - pget(j->mean, r)) * pget(j->rstd, r);                               \
                gb += g;                                                                           \
            }                                                                                      \
            if (j->gw) pset(j->gw, d, gw);                                                         \
            if (j->gb) pset(j->gb, d, gb);                                                         \
        }                                                                                          \
    }                                                                                              \
    /* group norm: one (sample, group) pair per index */                                           \
    static void gn_groups_##S(void *vj, int64_t p0, int64_t p1) {                                  \
        const norm_job *j = vj;                                                                    \
        const int64_t cg = j->c / j->groups;                                                       \
        for (int64_t pg = p0; pg < p1; pg++) {                                                     \
            const int64_t base = pg * cg * j->s, c0 = (pg % j->groups) * cg;                        \
            const CPU_T_##S *x = (const CPU_T_##S *)j->x->data + base;                              \
            CPU_T_##S *y = (CPU_T_##S *)j->y->data + base;                                          \
            double mean, rstd;                                                                     \
            moments_##S(x, cg * j->s, j->eps, &mean, &rstd);                                       \
            pset(&j->a->outputs[1], pg, mean);                                                     \
            pset(&j->a->outputs[2], pg, rstd);                                                     \
            for (int64_t c = 0; c < cg; c++) {                                                     \
                const double a = rstd * (j->w ? pget(j->w, c0 + c) : 1.0);                         \
                const CPU_C_##S alpha = (CPU_C_##S)a;                                              \
                const CPU_C_##S beta = (CPU_C_##S)((j->b ? pget(j->b, c0 + c) : 0.0) - mean * a);  \
                for (int64_t i = 0; i < j->s; i++)                                                 \
                    y[c * j->s + i] = cpu_st_##S(cpu_ld_##S(x[c * j->s + i]) * alpha + beta);      \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void gn_backward_groups_##S(void *vj, int64_t p0, int64_t p1) {                         \
        const norm_job *j = vj;                                                                    \
        const int64_t cg = j->c / j->groups;                                                       \
        const double inv = cg * j->s != 0 ? 1.0 / (double)(cg * j->s) : 0;                         \
        for (int64_t pg = p0; pg < p1; pg++) {                                                     \
            const int64_t base = pg * cg * j->s, c0 = (pg % j->groups) * cg;                        \
            const CPU_T_##S *x = (const CPU_T_##S *)j->x->data + base;                              \
            const CPU_T_##S *go = (const CPU_T_##S *)j->go->data + base;                            \
            CPU_T_##S *gi = (CPU_T_##S *)j->gi->data + base;                                        \
            const double mean = pget(j->mean, pg), rstd = pget(j->rstd, pg);                       \
            double ds = 0, db = 0;                                                                 \
            for (int64_t c = 0; c < cg; c++) {                                                     \
                const double w = j->w ? pget(j->w, c0 + c) : 1.0;                                  \
                for (int64_t i = 0; i < j->s; i++) {                                               \
                    const double g = cpu_ld_##S(go[c * j->s + i]) * w;                             \
                    ds += g * cpu_ld_##S(x[c * j->s + i]);                                         \
                    db += g;                                                                       \
                }                                                                                  \
            }                                                                                      \
            const double b = (db * mean - ds) * rstd * rstd * rstd * inv;                          \
            const double cc = -b * mean - db * rstd * inv;                                         \
            for (int64_t c = 0; c < cg; c++) {                                                     \
                const double a = rstd * (j->w ? pget(j->w, c0 + c) : 1.0);                         \
                for (int64_t i = 0; i < j->s; i++)                                                 \
                    gi[c * j->s + i] = cpu_st_##S(                                                 \
                        (CPU_C_##S)(a * cpu_ld_##S(go[c * j->s + i]) + b * cpu_ld_##S(x[c * j->s + i]) + cc)); \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* the weight and bias gradients of a group norm: per channel, over the batch */               \
    static void gn_backward_channels_##S(void *vj, int64_t c0, int64_t c1) {                       \
        const norm_job *j = vj;                                                                    \
        const int64_t cg = j->c / j->groups;                                                       \
        for (int64_t c = c0; c < c1; c++) {                                                        \
            double gw = 0, gb = 0;                                                                 \
            for (int64_t n = 0; n < j->n; n++) {                                                   \
                const int64_t g = n * j->groups + c / cg, base = (n * j->c + c) * j->s;             \
                const double mean = pget(j->mean, g), rstd = pget(j->rstd, g);                     \
                double ds = 0, db = 0;                                                             \
                for (int64_t i = 0; i < j->s; i++) {                                               \
                    const double gy = cpu_ld_##S(((const CPU_T_##S *)j->go->data)[base + i]);       \
                    ds += gy * cpu_ld_##S(((const CPU_T_##S *)j->x->data)[base + i]);               \
                    db += gy;                                                                      \
                }                                                                                  \
                gw += (ds - db * mean) * rstd;                                                     \
                gb += db;                                                                          \
            }                                                                                      \
            if (j->gw) pset(j->gw, c, gw);                                                         \
            if (j->gb) pset(j->gb, c, gb);                                                         \
        }                                                                                          \
    }
NORM_STAMP(_, f32)
NORM_STAMP(_, f64)
NORM_STAMP(_, bf16)

static void run(norm_job *j, int64_t count, int64_t per_item, cpu_range_fn fn) {
    int64_t work;
    if (__builtin_mul_overflow(count, per_item > 0 ? per_item : 1, &work)) work = INT64_MAX;
    cpu_parallel(count, cpu_threads_for(work), fn, j);
}

typedef struct norm_fns {
    cpu_range_fn bn, bn_back, ln, ln_back, ln_cols, gn, gn_back, gn_cols;
} norm_fns;

static int batch_norm(const tc_kernel_args *a, const norm_fns *f) {
    if (cpu_check_args(a, 1, 3, "native_batch_norm")) return TC_FAIL;
    norm_job j = {.a = a, .x = &a->inputs[0], .y = &a->outputs[0], .training = a->ints[4] != 0,
                  .momentum = a->scalars[0].v.f, .eps = a->scalars[1].v.f};
    const tc_view *opt[4];
    optional_inputs(a, 1, 0, 4, opt);
    j.w = opt[0], j.b = opt[1], j.rm = opt[2], j.rv = opt[3];
    j.n = j.x->sizes[0];
    j.c = j.x->sizes[1];
    j.s = j.c && j.n ? numel_of(j.x) / (j.n * j.c) : 0;
    if (j.n == 0 || j.c == 0) { /* statistics of nothing */
        for (int64_t c = 0; c < j.c && j.training; c++) {
            pset(&a->outputs[1], c, NAN);
            pset(&a->outputs[2], c, NAN);
        }
        return TC_OK;
    }
    run(&j, j.c, j.n * j.s * 3, f->bn);
    return TC_OK;
}

static int batch_norm_backward(const tc_kernel_args *a, const norm_fns *f) {
    if (cpu_check_args(a, 2, 3, "native_batch_norm_backward")) return TC_FAIL;
    norm_job j = {.a = a, .go = &a->inputs[0], .x = &a->inputs[1], .training = a->ints[5] != 0,
                  .eps = a->scalars[0].v.f, .gi = defined(&a->outputs[0]), .gw = defined(&a->outputs[1]),
                  .gb = defined(&a->outputs[2])};
    const tc_view *opt[5];
    optional_inputs(a, 2, 0, 5, opt);
    j.w = opt[0], j.rm = opt[1], j.rv = opt[2], j.mean = opt[3], j.rstd = opt[4];
    j.n = j.x->sizes[0];
    j.c = j.x->sizes[1];
    j.s = j.c && j.n ? numel_of(j.x) / (j.n * j.c) : 0;
    run(&j, j.c, j.n * j.s * 3, f->bn_back);
    return TC_OK;
}

static int layer_norm(const tc_kernel_args *a, const norm_fns *f) {
    if (cpu_check_args(a, 1, 3, "native_layer_norm")) return TC_FAIL;
    norm_job j = {.a = a, .x = &a->inputs[0], .y = &a->outputs[0], .n = a->ints[2], .s = a->ints[3],
                  .eps = a->scalars[0].v.f};
    const tc_view *opt[2];
    optional_inputs(a, 1, 0, 2, opt);
    j.w = opt[0], j.b = opt[1];
    run(&j, j.n, j.s * 3, f->ln);
    return TC_OK;
}

static int layer_norm_backward(const tc_kernel_args *a, const norm_fns *f) {
    if (cpu_check_args(a, 4, 3, "native_layer_norm_backward")) return TC_FAIL;
    norm_job j = {.a = a, .go = &a->inputs[0], .x = &a->inputs[1], .mean = &a->inputs[2], .rstd = &a->inputs[3],
                  .n = a->ints[1], .s = a->ints[2], .gi = defined(&a->outputs[0]), .gw = defined(&a->outputs[1]),
                  .gb = defined(&a->outputs[2])};
    const tc_view *opt[1];
    optional_inputs(a, 4, 0, 1, opt);
    j.w = opt[0];
    if (j.gi) run(&j, j.n, j.s * 3, f->ln_back);
    if (j.gw || j.gb) run(&j, j.s, j.n * 2, f->ln_cols);
    return TC_OK;
}

static int group_norm(const tc_kernel_args *a, const norm_fns *f) {
    if (cpu_check_args(a, 1, 3, "native_group_norm")) return TC_FAIL;
    norm_job j = {.a = a, .x = &a->inputs[0], .y = &a->outputs[0], .n = a->ints[2], .c = a->ints[3],
                  .s = a->ints[4], .groups = a->ints[5], .eps = a->scalars[0].v.f};
    const tc_view *opt[2];
    optional_inputs(a, 1, 0, 2, opt);
    j.w = opt[0], j.b = opt[1];
    run(&j, j.n * j.groups, j.c / j.groups * j.s * 3, f->gn);
    return TC_OK;
}

static int group_norm_backward(const tc_kernel_args *a, const norm_fns *f) {
    if (cpu_check_args(a, 4, 3, "native_group_norm_backward")) return TC_FAIL;
    norm_job j = {.a = a, .go = &a->inputs[0], .x = &a->inputs[1], .mean = &a->inputs[2], .rstd = &a->inputs[3],
                  .n = a->ints[1], .c = a->ints[2], .s = a->ints[3], .groups = a->ints[4],
                  .gi = defined(&a->outputs[0]), .gw = defined(&a->outputs[1]), .gb = defined(&a->outputs[2])};
    const tc_view *opt[1];
    optional_inputs(a, 4, 0, 1, opt);
    j.w = opt[0];
    if (j.gi) run(&j, j.n * j.groups, j.c / j.groups * j.s * 3, f->gn_back);
    if (j.gw || j.gb) run(&j, j.c, j.n * j.s * 2, f->gn_cols);
    return TC_OK;
}

#define FNS(S)                                                                                     \
    static const norm_fns fns_##S = {bn_channels_##S, bn_backward_channels_##S, ln_rows_##S,        \
                                     ln_backward_rows_##S, ln_backward_columns_##S, gn_groups_##S,  \
                                     gn_backward_groups_##S, gn_backward_channels_##S};             \
    static int k_bn_##S(const tc_kernel_args *a) { return batch_norm(a, &fns_##S); }               \
    static int k_bn_back_##S(const tc_kernel_args *a) { return batch_norm_backward(a, &fns_##S); } \
    static int k_ln_##S(const tc_kernel_args *a) { return layer_norm(a, &fns_##S); }               \
    static int k_ln_back_##S(const tc_kernel_args *a) { return layer_norm_backward(a, &fns_##S); } \
    static int k_gn_##S(const tc_kernel_args *a) { return group_norm(a, &fns_##S); }               \
    static int k_gn_back_##S(const tc_kernel_args *a) { return group_norm_backward(a, &fns_##S); }
FNS(f32)
FNS(f64)
FNS(bf16)

#define ENTRY(S)                                                                                   \
    {"native_batch_norm", CPU_DT_##S, k_bn_##S}, {"native_batch_norm_backward", CPU_DT_##S, k_bn_back_##S}, \
    {"native_layer_norm", CPU_DT_##S, k_ln_##S}, {"native_layer_norm_backward", CPU_DT_##S, k_ln_back_##S}, \
    {"native_group_norm", CPU_DT_##S, k_gn_##S}, {"native_group_norm_backward", CPU_DT_##S, k_gn_back_##S},
static const cpu_kernel_entry kernels[] = {ENTRY(f32) ENTRY(f64) ENTRY(bf16)};
CPU_KERNEL_TABLE(kernels);
