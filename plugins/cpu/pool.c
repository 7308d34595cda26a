/*
 * pool.c - 2-D pooling: max (with indices), average, adaptive average and adaptive max, their
 * backward ops, and the scatter/gather pair of max pooling's backward and double backward.
 *
 * Every kernel works plane by plane ([planes][H][W] contiguous, the contract in
 * core/src/meta_pool.c), planes split across threads; windows are walked row by row in PyTorch's
 * order, so sums round as PyTorch's do. Max pooling keeps the first largest value, and a NaN wins
 * (the last NaN of the window), as PyTorch's CPU kernels do. Values accumulate in the dtype's
 * compute type (float for bfloat16); backward ops add into their output in its own dtype.
 */
#include <math.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"

typedef struct pool_job {
    const tc_kernel_args *args;
    const void *in, *in2;
    void *out, *out2;
    int64_t ih, iw, oh, ow;
    int64_t k[2], s[2], p[2], d[2];
    bool count_include_pad;
    int64_t divisor;
    int64_t plane_in, plane_out; /* elements per plane (scatter/gather) */
    int bad_index;               /* set by pieces that met an index out of range */
} pool_job;

static int64_t leading(const tc_view *v, int trailing) {
    int64_t n = 1;
    for (int32_t d = 0; d < v->ndim - trailing; d++) n *= v->sizes[d];
    return n;
}

static int64_t trailing(const tc_view *v, int count) {
    int64_t n = 1;
    for (int32_t d = v->ndim - count; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

/* The job of a max/avg pooling kernel: geometry from the big side's view and the ints. */
static void job_init(pool_job *j, const tc_kernel_args *args, const tc_view *big, const tc_view *small) {
    memset(j, 0, sizeof *j);
    j->args = args;
    j->ih = big->sizes[big->ndim - 2];
    j->iw = big->sizes[big->ndim - 1];
    j->oh = small->sizes[small->ndim - 2];
    j->ow = small->sizes[small->ndim - 1];
    if (args->n_ints >= 8) {
        for (int i = 0; i < 2; i++) {
            j->k[i] = args->ints[i];
            j->s[i] = args->ints[2 + i];
            j->p[i] = args->ints[4 + i];
            j->d[i] = args->ints[6 + i];
        }
    }
    if (args->n_ints >= 10) {
        j->count_include_pad = args->ints[8] != 0;
        j->divisor = args->ints[9];
    }
}

static void run_planes(pool_job *j, int64_t planes, cpu_range_fn fn) {
    int64_t work;
    if (__builtin_mul_overflow(planes, (j->ih * j->iw > j->oh * j->ow ? j->ih * j->iw : j->oh * j->ow) + 1, &work))
        work = INT64_MAX;
    cpu_parallel(planes, cpu_threads_for(work), fn, j);
}

/* adaptive windows: [floor(o*in/out), ceil((o+1)*in/out)) */
static int64_t start_index(int64_t o, int64_t out, int64_t in) { return (o * in) / out; }
static int64_t end_index(int64_t o, int64_t out, int64_t in) { return ((o + 1) * in + out - 1) / out; }

/* Max pooling's window along one dim: k taps d apart from o*s - p, those in [0, in) (lo: the first). */
static inline void max_window(int64_t o, int64_t s, int64_t p, int64_t k, int64_t d, int64_t in, int64_t *lo,
                              int64_t *hi) {
    int64_t a = o * s - p, b = a + (k - 1) * d + 1;
    if (b > in) b = in;
    while (a < 0) a += d;
    *lo = a;
    *hi = b;
}

/* The divisor of one average-pooling window (PyTorch's avg_pool2d). hs..he, ws..we: the window
 * clipped to the padded input on entry, to the input on return. */
static int64_t avg_window(const pool_job *j, int64_t oh, int64_t ow, int64_t *hs, int64_t *he, int64_t *ws,
                          int64_t *we) {
    *hs = oh * j->s[0] - j->p[0];
    *ws = ow * j->s[1] - j->p[1];
    *he = *hs + j->k[0] < j->ih + j->p[0] ? *hs + j->k[0] : j->ih + j->p[0];
    *we = *ws + j->k[1] < j->iw + j->p[1] ? *ws + j->k[1] : j->iw + j->p[1];
    int64_t pool_size = (*he - *hs) * (*we - *ws);
    if (*hs < 0) *hs = 0;
    if (*ws < 0) *ws = 0;
    if (*he > j->ih) *he = j->ih;
    if (*we > j->iw) *we = j->iw;
    if (j->divisor) return j->divisor;
    return j->count_include_pad ? pool_size : (*he - *hs) * (*we - *ws);
}

#define WINDOW_STAMP(_, S)                                                                         \
    /* The sum of x over rows h0..h1, columns w0..w1 (a plane of width iw), in PyTorch's order. */ \
    static inline CPU_C_##S window_sum_##S(const CPU_T_##S *x, int64_t iw, int64_t h0, int64_t h1, int64_t w0, \
                                           int64_t w1) {                                           \
        CPU_C_##S sum = 0;                                                                         \
        for (int64_t h = h0; h < h1; h++)                                                          \
            for (int64_t w = w0; w < w1; w++) sum += cpu_ld_##S(x[h * iw + w]);                    \
        return sum;                                                                                \
    }                                                                                              \
    /* Adds g to every element of that window of gx. */                                            \
    static inline void window_add_##S(CPU_T_##S *gx, int64_t iw, int64_t h0, int64_t h1, int64_t w0, int64_t w1, \
                                      CPU_C_##S g) {                                               \
        for (int64_t h = h0; h < h1; h++)                                                          \
            for (int64_t w = w0; w < w1; w++) gx[h * iw + w] = cpu_st_##S(cpu_ld_##S(gx[h * iw + w]) + g); \
    }
CPU_DTYPES_FLOAT(WINDOW_STAMP, _)
WINDOW_STAMP(_, i64)

#define POOL_STAMP(_, S)                                                                           \
    /* The largest value of a window (rows h0..h1 by dh, columns w0..w1 by dw) into *y and its index in \
     * the plane into *ind: the first largest, or the last NaN. */                                 \
    static inline void window_max_##S(const CPU_T_##S *x, int64_t iw, int64_t h0, int64_t h1, int64_t dh, \
                                      int64_t w0, int64_t w1, int64_t dw, CPU_T_##S *y, int64_t *ind) { \
        int64_t best = h0 * iw + w0;                                                               \
        CPU_C_##S m = -(CPU_C_##S)INFINITY;                                                        \
        for (int64_t h = h0; h < h1; h += dh)                                                      \
            for (int64_t w = w0; w < w1; w += dw) {                                                \
                const CPU_C_##S v = cpu_ld_##S(x[h * iw + w]);                                     \
                if (v > m || isnan(v)) {                                                           \
                    m = v;                                                                         \
                    best = h * iw + w;                                                             \
                }                                                                                  \
            }                                                                                      \
        *y = cpu_st_##S(m);                                                                        \
        *ind = best;                                                                               \
    }                                                                                              \
    static void max_pool_planes_##S(void *vj, int64_t p0, int64_t p1) {                            \
        const pool_job *j = vj;                                                                    \
        for (int64_t pl = p0; pl < p1; pl++) {                                                     \
            const CPU_T_##S *x = (const CPU_T_##S *)j->in + pl * j->ih * j->iw;                    \
            CPU_T_##S *y = (CPU_T_##S *)j->out + pl * j->oh * j->ow;                               \
            int64_t *ind = (int64_t *)j->out2 + pl * j->oh * j->ow;                                \
            for (int64_t oh = 0; oh < j->oh; oh++) {                                               \
                int64_t h0, h1, w0, w1;                                                            \
                max_window(oh, j->s[0], j->p[0], j->k[0], j->d[0], j->ih, &h0, &h1);               \
                for (int64_t ow = 0; ow < j->ow; ow++) {                                           \
                    max_window(ow, j->s[1], j->p[1], j->k[1], j->d[1], j->iw, &w0, &w1);           \
                    window_max_##S(x, j->iw, h0, h1, j->d[0], w0, w1, j->d[1], &y[oh * j->ow + ow], \
                                   &ind[oh * j->ow + ow]);                                         \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void adaptive_max_planes_##S(void *vj, int64_t p0, int64_t p1) {                        \
        const pool_job *j = vj;                                                                    \
        for (int64_t pl = p0; pl < p1; pl++) {                                                     \
            const CPU_T_##S *x = (const CPU_T_##S *)j->in + pl * j->ih * j->iw;                    \
            CPU_T_##S *y = (CPU_T_##S *)j->out + pl * j->oh * j->ow;                               \
            int64_t *ind = (int64_t *)j->out2 + pl * j->oh * j->ow;                                \
            for (int64_t oh = 0; oh < j->oh; oh++) {                                               \
                const int64_t h0 = start_index(oh, j->oh, j->ih), h1 = end_index(oh, j->oh, j->ih); \
                for (int64_t ow = 0; ow < j->ow; ow++) {                                           \
                    const int64_t w0 = start_index(ow, j->ow, j->iw), w1 = end_index(ow, j->ow, j->iw); \
                    window_max_##S(x, j->iw, h0, h1, 1, w0, w1, 1, &y[oh * j->ow + ow], &ind[oh * j->ow + ow]); \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void adaptive_avg_planes_##S(void *vj, int64_t p0, int64_t p1) {                        \
        const pool_job *j = vj;                                                                    \
        for (int64_t pl = p0; pl < p1; pl++) {                                                     \
            const CPU_T_##S *x = (const CPU_T_##S *)j->in + pl * j->ih * j->iw;                    \
            CPU_T_##S *y = (CPU_T_##S *)j->out + pl * j->oh * j->ow;                               \
            for (int64_t oh = 0; oh < j->oh; oh++) {                                               \
                const int64_t h0 = start_index(oh, j->oh, j->ih), h1 = end_index(oh, j->oh, j->ih); \
                for (int64_t ow = 0; ow < j->ow; ow++) {                                           \
                    const int64_t w0 = start_index(ow, j->ow, j->iw), w1 = end_index(ow, j->ow, j->iw); \
                    const CPU_C_##S sum = window_sum_##S(x, j->iw, h0, h1, w0, w1);                \
                    y[oh * j->ow + ow] = cpu_st_##S(sum / (CPU_C_##S)(h1 - h0) / (CPU_C_##S)(w1 - w0)); \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void adaptive_avg_back_planes_##S(void *vj, int64_t p0, int64_t p1) {                   \
        const pool_job *j = vj;                                                                    \
        for (int64_t pl = p0; pl < p1; pl++) {                                                     \
            const CPU_T_##S *gy = (const CPU_T_##S *)j->in + pl * j->oh * j->ow;                   \
            CPU_T_##S *gx = (CPU_T_##S *)j->out + pl * j->ih * j->iw;                              \
            memset(gx, 0, sizeof(CPU_T_##S) * (size_t)(j->ih * j->iw));                            \
            for (int64_t oh = 0; oh < j->oh; oh++) {                                               \
                const int64_t h0 = start_index(oh, j->oh, j->ih), h1 = end_index(oh, j->oh, j->ih); \
                for (int64_t ow = 0; ow < j->ow; ow++) {                                           \
                    const int64_t w0 = start_index(ow, j->ow, j->iw), w1 = end_index(ow, j->ow, j->iw); \
                    const CPU_C_##S g = cpu_ld_##S(gy[oh * j->ow + ow]) / (CPU_C_##S)(h1 - h0) / (CPU_C_##S)(w1 - w0); \
                    window_add_##S(gx, j->iw, h0, h1, w0, w1, g);                                  \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void scatter_planes_##S(void *vj, int64_t p0, int64_t p1) {                             \
        pool_job *j = vj;                                                                          \
        for (int64_t pl = p0; pl < p1; pl++) {                                                     \
            const CPU_T_##S *gy = (const CPU_T_##S *)j->in + pl * j->plane_out;                     \
            const int64_t *ind = (const int64_t *)j->in2 + pl * j->plane_out;                      \
            CPU_T_##S *gx = (CPU_T_##S *)j->out + pl * j->plane_in;                                 \
            memset(gx, 0, sizeof(CPU_T_##S) * (size_t)j->plane_in);                                \
            for (int64_t i = 0; i < j->plane_out; i++) {                                           \
                const int64_t at = ind[i];                                                         \
                if (at < 0 || at >= j->plane_in) {                                                 \
                    __atomic_store_n(&j->bad_index, 1, __ATOMIC_RELAXED);                          \
                    continue;                                                                      \
                }                                                                                  \
                gx[at] = cpu_st_##S(cpu_ld_##S(gx[at]) + cpu_ld_##S(gy[i]));                       \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void gather_planes_##S(void *vj, int64_t p0, int64_t p1) {                              \
        pool_job *j = vj;                                                                          \
        for (int64_t pl = p0; pl < p1; pl++) {                                                     \
            const CPU_T_##S *x = (const CPU_T_##S *)j->in + pl * j->plane_in;                       \
            const int64_t *ind = (const int64_t *)j->in2 + pl * j->plane_out;                      \
            CPU_T_##S *y = (CPU_T_##S *)j->out + pl * j->plane_out;                                 \
            for (int64_t i = 0; i < j->plane_out; i++) {                                           \
                const int64_t at = ind[i];                                                         \
                if (at < 0 || at >= j->plane_in) {                                                 \
                    __atomic_store_n(&j->bad_index, 1, __ATOMIC_RELAXED);                          \
                    y[i] = 0;                                                                      \
                    continue;                                                                      \
                }                                                                                  \
                y[i] = x[at];                                                                      \
            }                                                                                      \
        }                                                                                          \
    }
CPU_DTYPES_FLOAT(POOL_STAMP, _)

/* Average pooling also takes int64 (integer division truncates, as C++'s does in PyTorch). */
#define AVG_STAMP(_, S)                                                                            \
    static void avg_pool_planes_##S(void *vj, int64_t p0, int64_t p1) {                            \
        const pool_job *j = vj;                                                                    \
        for (int64_t pl = p0; pl < p1; pl++) {                                                     \
            const CPU_T_##S *x = (const CPU_T_##S *)j->in + pl * j->ih * j->iw;                     \
            CPU_T_##S *y = (CPU_T_##S *)j->out + pl * j->oh * j->ow;                                \
            for (int64_t oh = 0; oh < j->oh; oh++)                                                 \
                for (int64_t ow = 0; ow < j->ow; ow++) {                                           \
                    int64_t hs, he, ws, we;                                                        \
                    const int64_t div = avg_window(j, oh, ow, &hs, &he, &ws, &we);                 \
                    if (hs >= he || ws >= we) {                                                    \
                        y[oh * j->ow + ow] = 0;                                                    \
                        continue;                                                                  \
                    }                                                                              \
                    const CPU_C_##S sum = window_sum_##S(x, j->iw, hs, he, ws, we);                \
                    y[oh * j->ow + ow] = cpu_st_##S(sum / (CPU_C_##S)div);                         \
                }                                                                                  \
        }                                                                                          \
    }                                                                                              \
    static void avg_pool_back_planes_##S(void *vj, int64_t p0, int64_t p1) {                       \
        const pool_job *j = vj;                                                                    \
        for (int64_t pl = p0; pl < p1; pl++) {                                                     \
            const CPU_T_##S *gy = (const CPU_T_##S *)j->in + pl * j->oh * j->ow;                    \
            CPU_T_##S *gx = (CPU_T_##S *)j->out + pl * j->ih * j->iw;                               \
            memset(gx, 0, sizeof(CPU_T_##S) * (size_t)(j->ih * j->iw));                            \
            for (int64_t oh = 0; oh < j->oh; oh++)                                                 \
                for (int64_t ow = 0; ow < j->ow; ow++) {                                           \
                    int64_t hs, he, ws, we;                                                        \
                    const int64_t div = avg_window(j, oh, ow, &hs, &he, &ws, &we);                 \
                    const CPU_C_##S g = cpu_ld_##S(gy[oh * j->ow + ow]) / (CPU_C_##S)div;          \
                    window_add_##S(gx, j->iw, hs, he, ws, we, g);                                  \
                }                                                                                  \
        }                                                                                          \
    }
CPU_DTYPES_FLOAT(AVG_STAMP, _)
AVG_STAMP(_, i64)

/* ---- kernels ---- */

/* One pooling kernel over input 0 into `n_out` outputs (max pooling's also writes the indices): the
 * geometry from the input's view, or for a backward op (small grad_output to big grad_input) from the
 * output's. */
static int pool_run(const tc_kernel_args *a, cpu_range_fn planes, const char *name, int n_out, bool backward) {
    if (cpu_check_args(a, 1, n_out, name)) return TC_FAIL;
    const tc_view *big = backward ? &a->outputs[0] : &a->inputs[0];
    const tc_view *small = backward ? &a->inputs[0] : &a->outputs[0];
    pool_job j;
    job_init(&j, a, big, small);
    j.in = a->inputs[0].data;
    j.out = a->outputs[0].data;
    if (n_out > 1) j.out2 = a->outputs[1].data;
    run_planes(&j, leading(big, 2), planes);
    return TC_OK;
}

/* max_pool_scatter: grad_output, indices -> grad_input; max_pool_gather: self, indices -> out. */
static int scatter_gather(const tc_kernel_args *a, cpu_range_fn planes, bool scatter) {
    if (cpu_check_args(a, 2, 1, scatter ? "max_pool_scatter" : "max_pool_gather")) return TC_FAIL;
    int dims = a->n_ints > 0 ? (int)a->ints[0] : 2;
    const tc_view *big = scatter ? &a->outputs[0] : &a->inputs[0], *small = &a->inputs[1];
    pool_job j;
    memset(&j, 0, sizeof j);
    j.in = a->inputs[0].data;
    j.in2 = a->inputs[1].data;
    j.out = a->outputs[0].data;
    j.plane_in = trailing(big, dims);
    j.plane_out = trailing(small, dims);
    j.ih = j.plane_in;
    j.iw = 1;
    j.oh = j.plane_out;
    j.ow = 1;
    run_planes(&j, leading(big, dims), planes);
    if (j.bad_index)
        return cpu_core->set_error(TC_ERR_RUNTIME, "max pooling: an index is out of range for a plane of %lld elements",
                                   (long long)j.plane_in);
    return TC_OK;
}

#define KERNELS(_, S)                                                                              \
    static int k_max_pool_##S(const tc_kernel_args *a) {                                           \
        return pool_run(a, max_pool_planes_##S, "max_pool2d_with_indices", 2, false);              \
    }                                                                                              \
    static int k_adaptive_max_##S(const tc_kernel_args *a) {                                       \
        return pool_run(a, adaptive_max_planes_##S, "adaptive_max_pool2d", 2, false);              \
    }                                                                                              \
    static int k_adaptive_avg_##S(const tc_kernel_args *a) {                                       \
        return pool_run(a, adaptive_avg_planes_##S, "adaptive_avg_pool2d", 1, false);              \
    }                                                                                              \
    static int k_adaptive_avg_back_##S(const tc_kernel_args *a) {                                  \
        return pool_run(a, adaptive_avg_back_planes_##S, "adaptive_avg_pool2d_backward", 1, true); \
    }                                                                                              \
    static int k_scatter_##S(const tc_kernel_args *a) { return scatter_gather(a, scatter_planes_##S, true); } \
    static int k_gather_##S(const tc_kernel_args *a) { return scatter_gather(a, gather_planes_##S, false); }
CPU_DTYPES_FLOAT(KERNELS, _)

#define AVG_KERNELS(_, S)                                                                          \
    static int k_avg_##S(const tc_kernel_args *a) { return pool_run(a, avg_pool_planes_##S, "avg_pool2d", 1, false); } \
    static int k_avg_back_##S(const tc_kernel_args *a) {                                           \
        return pool_run(a, avg_pool_back_planes_##S, "avg_pool2d_backward", 1, true);              \
    }
CPU_DTYPES_FLOAT(AVG_KERNELS, _)
AVG_KERNELS(_, i64)

#define ENTRY(_, S)                                                                                \
    {"max_pool2d_with_indices", CPU_DT_##S, k_max_pool_##S},                                       \
    {"adaptive_max_pool2d", CPU_DT_##S, k_adaptive_max_##S},                                       \
    {"adaptive_avg_pool2d", CPU_DT_##S, k_adaptive_avg_##S},                                       \
    {"adaptive_avg_pool2d_backward", CPU_DT_##S, k_adaptive_avg_back_##S},                         \
    {"max_pool_scatter", CPU_DT_##S, k_scatter_##S},                                               \
    {"max_pool_gather", CPU_DT_##S, k_gather_##S},                                                 \
    {"avg_pool2d", CPU_DT_##S, k_avg_##S},                                                         \
    {"avg_pool2d_backward", CPU_DT_##S, k_avg_back_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRY, _){"avg_pool2d", TC_INT64, k_avg_i64},
                                           {"avg_pool2d_backward", TC_INT64, k_avg_back_i64}};
CPU_KERNEL_TABLE(kernels);
