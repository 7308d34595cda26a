/*
 * quantile.c - quantile and nanquantile along one dim, or of every element (float32/float64).
 *
 * Contract: inputs[0] the data; inputs[1], when present, q as a 1-D tensor of the data's dtype
 * (else scalars[0] is the one q); outputs[0] with one more leading dim than the data, indexing q,
 * and the data's other dims in keepdim form (size 1 where reduced). ints: [dim (-1: every element),
 * interpolation (0 linear, 1 lower, 2 higher, 3 midpoint, 4 nearest)]. nanquantile ignores NaN.
 *
 * The arithmetic is PyTorch's, in the data's dtype: each line sorted (NaN last); the rank
 * q * (n - 1), or, for nanquantile, q * (count of non-NaN - 1) (negative ranks are 0); a line with
 * a NaN gives quantile the last rank, so NaN. The rank is floored, ceiled or rounded (half to even)
 * by the interpolation mode; linear and midpoint then lerp between the neighbours as torch.lerp
 * does on x86 (a fused multiply-add on each side of weight 0.5).
 */
#include <math.h>

#include "cpu.h"
#include "dtype.h"
#include "lines.h"
#include "stl_sort.h"

enum { Q_LINEAR, Q_LOWER, Q_HIGHER, Q_MIDPOINT, Q_NEAREST };

typedef struct quantile_ctx {
    const char *q;      /* the q values (NULL: qs) */
    int64_t nq, q_stride, out_q_stride;
    double qs;
    int64_t n;
    int mode, ignore_nan;
    int bad_q; /* a q outside [0, 1] */
} quantile_ctx;

#define QUANTILE_STAMP(S, C, FLOOR, CEIL, RINT, FMA)                                               \
    static int less_##S(C a, C b) { return (a == a && b != b) || a < b; }                          \
    STL_SORT_STAMP(qsort_##S, C, less_##S)                                                         \
    static C lerp_##S(C lo, C hi, C w) {                                                           \
        return w < (C)0.5 ? FMA(w, hi - lo, lo) : FMA(-(hi - lo), (C)1 - w, hi);                   \
    }                                                                                              \
    static C q_at_##S(const quantile_ctx *cx, int64_t j) {                                         \
        return cx->q ? ((const C *)cx->q)[j * cx->q_stride] : (C)cx->qs;                           \
    }                                                                                              \
    /* The quantiles of one sorted line of n values into out (stride between quantiles). */       \
    static void quantiles_##S(quantile_ctx *cx, const C *v, int64_t n, C *out) {                   \
        int64_t valid = n;                                                                         \
        while (valid > 0 && v[valid - 1] != v[valid - 1]) valid--; /* NaN sorted last */          \
        for (int64_t j = 0; j < cx->nq; j++) {                                                     \
            const C q = q_at_##S(cx, j);                                                           \
            if (!(q >= 0 && q <= 1)) __atomic_store_n(&cx->bad_q, 1, __ATOMIC_RELAXED);             \
            C rank;                                                                                \
            if (cx->ignore_nan) {                                                                  \
                rank = q * (C)(valid - 1);                                                         \
                if (rank < 0) rank = 0;                                                            \
            } else {                                                                               \
                rank = valid < n ? (C)(n - 1) : q * (C)(n - 1);                                     \
            }                                                                                      \
            if (cx->mode == Q_LOWER) rank = FLOOR(rank);                                           \
            else if (cx->mode == Q_HIGHER) rank = CEIL(rank);                                      \
            else if (cx->mode == Q_NEAREST) rank = RINT(rank);                                     \
            int64_t below = (int64_t)rank;                                                         \
            if (below < 0) below = 0;                                                              \
            if (below > n - 1) below = n - 1;                                                      \
            C r = v[below];                                                                        \
            if (cx->mode == Q_LINEAR || cx->mode == Q_MIDPOINT) {                                  \
                const C w = cx->mode == Q_MIDPOINT ? (C)0.5 : rank - (C)below;                     \
                int64_t above = (int64_t)CEIL(rank);                                               \
                if (above > n - 1) above = n - 1;                                                  \
                r = lerp_##S(r, v[above], w);                                                      \
            }                                                                                      \
            out[j * cx->out_q_stride] = r;                                                         \
        }                                                                                          \
    }                                                                                              \
    static void quantile_line_##S(void *vctx, char *const *ptr, const int64_t *st, void *scratch) { \
        quantile_ctx *cx = vctx;                                                                   \
        C *v = scratch;                                                                            \
        const C *in = (const C *)ptr[0];                                                           \
        for (int64_t j = 0; j < cx->n; j++) v[j] = in[j * st[0]];                                  \
        qsort_##S##_sort(v, cx->n);                                                                \
        quantiles_##S(cx, v, cx->n, (C *)ptr[1]);                                                  \
    }                                                                                              \
    static int run_##S(const tc_kernel_args *args, int ignore_nan) {                               \
        quantile_ctx cx;                                                                           \
        const tc_view *in = &args->inputs[0], *out = &args->outputs[0];                            \
        if (quantile_setup(args, ignore_nan, &cx) != TC_OK) return TC_FAIL;                        \
        tc_view out_line = *out; /* the output at q = 0, in the data's shape */                   \
        out_line.ndim = out->ndim - 1;                                                             \
        out_line.sizes = out->sizes + 1;                                                           \
        out_line.strides = out->strides + 1;                                                       \
        int rc = TC_OK;                                                                            \
        if (args->ints[0] >= 0) {                                                                  \
            const tc_view views[2] = {*in, out_line};                                              \
            cx.n = in->sizes[args->ints[0]];                                                       \
            if ((uint64_t)cx.n > SIZE_MAX / sizeof(C))                                             \
                return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu quantile: too many elements"); \
            rc = cpu_lines_run(views, 2, (int)args->ints[0], sizeof(C) * (size_t)cx.n, quantile_line_##S, &cx, \
                               "quantile");                                                        \
        } else {                                                                                   \
            cx.n = 1;                                                                              \
            for (int d = 0; d < in->ndim; d++) cx.n *= in->sizes[d];                               \
            if ((uint64_t)cx.n > SIZE_MAX / sizeof(C))                                             \
                return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu quantile: too many elements"); \
            C *v = cpu_core->host_alloc(sizeof(C) * (size_t)cx.n);                                 \
            if (!v) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu quantile: out of memory"); \
            cpu_gather(in, 1, v, sizeof(C), NULL);                                   \
            qsort_##S##_sort(v, cx.n);                                                             \
            quantiles_##S(&cx, v, cx.n, (C *)out->data);                                           \
            cpu_core->host_free(v, sizeof(C) * (size_t)cx.n);                                      \
        }                                                                                          \
        if (rc == TC_OK && cx.bad_q)                                                               \
            return cpu_core->set_error(TC_ERR_RUNTIME, "quantile() q values must be in the range [0, 1]"); \
        return rc;                                                                                 \
    }                                                                                              \
    static int k_quantile_##S(const tc_kernel_args *args) { return run_##S(args, 0); }             \
    static int k_nanquantile_##S(const tc_kernel_args *args) { return run_##S(args, 1); }

static int quantile_setup(const tc_kernel_args *args, int ignore_nan, quantile_ctx *cx);

QUANTILE_STAMP(f32, float, floorf, ceilf, rintf, fmaf)
QUANTILE_STAMP(f64, double, floor, ceil, rint, fma)

/* The contract's arguments; the data is not empty (the meta function refused that). */
static int quantile_setup(const tc_kernel_args *args, int ignore_nan, quantile_ctx *cx) {
    if (cpu_check_args(args, 1, 1, "quantile") != TC_OK) return TC_FAIL;
    if (args->n_ints < 2 || (args->n_inputs < 2 && args->n_scalars < 1))
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu quantile: missing arguments");
    const tc_view *in = &args->inputs[0], *out = &args->outputs[0];
    if (out->ndim != in->ndim + 1 || args->ints[0] >= in->ndim)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu quantile: the output does not fit the input");
    *cx = (quantile_ctx){.mode = (int)args->ints[1], .ignore_nan = ignore_nan, .nq = out->sizes[0],
                         .out_q_stride = out->strides[0]};
    if (args->n_inputs >= 2) {
        cx->q = args->inputs[1].data;
        cx->q_stride = args->inputs[1].ndim ? args->inputs[1].strides[0] : 0;
    } else {
        const tc_scalar q = args->scalars[0];
        cx->qs = q.kind == TC_SCALAR_FLOAT ? q.v.f : (double)q.v.i;
    }
    return TC_OK;
}


static const cpu_kernel_entry kernels[] = {
    {"quantile", TC_FLOAT32, k_quantile_f32}, {"quantile", TC_FLOAT64, k_quantile_f64},
    {"nanquantile", TC_FLOAT32, k_nanquantile_f32}, {"nanquantile", TC_FLOAT64, k_nanquantile_f64}};
CPU_KERNEL_TABLE(kernels);
