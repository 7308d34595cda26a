/*
 * histogram.c - histc and bincount.
 *
 * histc: input (floating) -> hist [bins] of its dtype; scalars [min, max]. When min == max the
 *   range is the data's (NaN propagating), widened by 1 on both sides when still empty; a range that
 *   is not finite or not increasing is refused. As PyTorch does: the outer edges are those of
 *   torch.linspace(lo, hi, bins + 1) in the input's dtype (its vectorised x86 arithmetic, reproduced
 *   below: the last edge need not be hi exactly), an element's bin is (x - lo) / (hi - lo) * bins in
 *   that dtype, the last bin holds its right edge, elements outside the edges are skipped (NaN
 *   counts in the first bin, as in PyTorch 1.13), and counts add up in the dtype.
 * bincount: a 1-D non-negative integer input, optional weights (float32, else float64) -> counts
 *   (int64) or summed weights, as many bins as max + 1 or ints[0] (minlength); the kernel asks for
 *   its output once it knows the largest value.
 */
#include <math.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"

/* torch.linspace(lo, hi, n) as PyTorch's x86 kernel computes it in float or double: pairs of
 * vectors of V elements each start from a fused multiply-add (from lo in the first half, back from
 * hi in the second) and step by adding step * j; the tail is one fused multiply-add per element. */
#define LINSPACE_STAMP(C, V, FMA)                                                                  \
    static void linspace_##C(C *e, int64_t n, C lo, C hi) {                                        \
        if (n == 1) {                                                                              \
            e[0] = lo;                                                                             \
            return;                                                                                \
        }                                                                                          \
        const C step = (hi - lo) / (C)(n - 1);                                                     \
        const int64_t half = n / 2;                                                                \
        int64_t i = 0;                                                                             \
        for (; n - i >= 2 * V; i += V) {                                                           \
            const C base = i < half ? FMA(step, (C)i, lo) : FMA(-step, (C)(n - i - 1), hi);        \
            for (int64_t j = 0; j < V; j++) e[i + j] = base + step * (C)j;                         \
        }                                                                                          \
        for (; i < n; i++) e[i] = i < half ? FMA(step, (C)i, lo) : FMA(-step, (C)(n - i - 1), hi); \
    }
LINSPACE_STAMP(float, 8, fmaf)
LINSPACE_STAMP(double, 4, fma)

typedef struct histc_range {
    double lo, hi;
} histc_range;

/* The range histc bins over: min and max, or the data's extremes (dmin, dmax) when use_data;
 * errors as PyTorch raises them. */
static int histc_range_of(double smin, double smax, int use_data, double dmin, double dmax, histc_range *r) {
    r->lo = use_data ? dmin : smin;
    r->hi = use_data ? dmax : smax;
    if (r->lo == r->hi) {
        r->lo -= 1;
        r->hi += 1;
    }
    if (isinf(r->lo) || isinf(r->hi) || isnan(r->lo) || isnan(r->hi))
        return cpu_core->set_error(TC_ERR_RUNTIME, "torch.histc: range of [%g, %g] is not finite", r->lo, r->hi);
    if (!(r->lo < r->hi)) return cpu_core->set_error(TC_ERR_RUNTIME, "torch.histc: max must be larger than min");
    return TC_OK;
}

#define HISTC_STAMP(S, C)                                                                          \
    static int k_histc_##S(const tc_kernel_args *args) {                                           \
        if (cpu_check_args(args, 1, 1, "histc") != TC_OK) return TC_FAIL;                          \
        if (args->n_scalars < 2 || args->outputs[0].ndim != 1)                                     \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu histc: bad arguments");                \
        const tc_view *in = &args->inputs[0], *out = &args->outputs[0];                            \
        const int64_t bins = out->sizes[0];                                                        \
        int64_t n = 1;                                                                             \
        for (int d = 0; d < in->ndim; d++) n *= in->sizes[d];                                      \
        /* row-major walk of the input */                                                         \
        int64_t at[TC_MAX_DIMS] = {0};                                                             \
        const CPU_T_##S *x = in->data;                                                             \
        _Bool use_data = 0;                                                                        \
        C dmin = 0, dmax = 0;                                                                      \
        const tc_scalar *a = &args->scalars[0], *b = &args->scalars[1];                            \
        const double smin = a->kind == TC_SCALAR_FLOAT ? a->v.f : (double)a->v.i;                  \
        const double smax = b->kind == TC_SCALAR_FLOAT ? b->v.f : (double)b->v.i;                  \
        if (smin == smax && n > 0) { /* aminmax of the data, NaN propagating */                   \
            use_data = 1;                                                                          \
            for (int64_t k = 0; k < n; k++) {                                                      \
                int64_t off = 0;                                                                   \
                for (int d = 0; d < in->ndim; d++) off += at[d] * in->strides[d];                  \
                const C v = (C)cpu_ld_##S(x[off]);                                                 \
                if (k == 0 || v != v) dmin = dmax = v;                                             \
                if (dmin == dmin) {                                                                \
                    dmin = v < dmin ? v : dmin;                                                    \
                    dmax = v > dmax ? v : dmax;                                                    \
                } else {                                                                           \
                    break;                                                                         \
                }                                                                                  \
                for (int d = in->ndim - 1; d >= 0; d--) {                                          \
                    if (++at[d] < in->sizes[d]) break;                                             \
                    at[d] = 0;                                                                     \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        histc_range r;                                                                             \
        if (histc_range_of(smin, smax, use_data, (double)dmin, (double)dmax, &r) != TC_OK) return TC_FAIL; \
        if (bins < 1 || (uint64_t)bins > SIZE_MAX / sizeof(C) - 1)                                 \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu histc: bad bin count");                \
        C *edges = cpu_core->host_alloc(sizeof(C) * (size_t)(bins + 1));                           \
        if (!edges) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu histc: out of memory");  \
        linspace_##C(edges, bins + 1, (C)r.lo, (C)r.hi);                                           \
        const C lo = edges[0], hi = edges[bins];                                                   \
        CPU_T_##S *h = out->data;                                                                  \
        for (int64_t j = 0; j < bins; j++) h[j * out->strides[0]] = cpu_st_##S(0);                 \
        for (int d = 0; d < in->ndim; d++) at[d] = 0;                                              \
        for (int64_t k = 0; k < n; k++) {                                                          \
            int64_t off = 0;                                                                       \
            for (int d = 0; d < in->ndim; d++) off += at[d] * in->strides[d];                      \
            const C v = (C)cpu_ld_##S(x[off]);                                                     \
            if (v != v || (v >= lo && v <= hi)) { /* PyTorch 1.13 counts NaN in the first bin */   \
                int64_t pos = v != v ? 0 : (int64_t)((v - lo) / (hi - lo) * (C)bins);              \
                if (pos == bins) pos -= 1;                                                         \
                if (pos >= 0 && pos < bins) {                                                      \
                    CPU_T_##S *cell = &h[pos * out->strides[0]];                                   \
                    *cell = cpu_st_##S((CPU_C_##S)(cpu_ld_##S(*cell) + 1));                         \
                }                                                                                  \
            }                                                                                      \
            for (int d = in->ndim - 1; d >= 0; d--) {                                              \
                if (++at[d] < in->sizes[d]) break;                                                 \
                at[d] = 0;                                                                         \
            }                                                                                      \
        }                                                                                          \
        cpu_core->host_free(edges, sizeof(C) * (size_t)(bins + 1));                                \
        return TC_OK;                                                                              \
    }
HISTC_STAMP(f16, float)
HISTC_STAMP(bf16, float)
HISTC_STAMP(f32, float)
HISTC_STAMP(f64, double)

/* ---- bincount ---- */

#define BINCOUNT_STAMP(_, S)                                                                       \
    static int k_bincount_##S(const tc_kernel_args *args) {                                        \
        if (cpu_check_args(args, 1, 1, "bincount") != TC_OK) return TC_FAIL;                       \
        if (args->n_ints < 1 || args->inputs[0].ndim != 1)                                         \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu bincount: bad arguments");             \
        const tc_view *in = &args->inputs[0], *w = args->n_inputs > 1 ? &args->inputs[1] : NULL;   \
        const CPU_T_##S *x = in->data;                                                             \
        const int64_t n = in->sizes[0], s = in->strides[0];                                        \
        int64_t top = -1;                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const int64_t v = (int64_t)x[i * s];                                                   \
            if (v < 0)                                                                             \
                return cpu_core->set_error(TC_ERR_RUNTIME, "bincount only supports 1-d non-negative integral inputs."); \
            top = v > top ? v : top;                                                               \
        }                                                                                          \
        const int64_t nbins = top + 1 > args->ints[0] ? top + 1 : args->ints[0];                   \
        tc_view o;                                                                                 \
        if (cpu_core->kernel_output(args, 0, 1, &nbins, &o) != TC_OK) return TC_FAIL;              \
        if (!w || n == 0) {                                                                        \
            int64_t *c = o.data;                                                                   \
            memset(c, 0, sizeof(int64_t) * (size_t)nbins);                                         \
            for (int64_t i = 0; i < n; i++) c[(int64_t)x[i * s]]++;                                \
        } else if (o.dtype == TC_FLOAT32) {                                                        \
            float *c = o.data;                                                                     \
            const float *wp = w->data;                                                             \
            for (int64_t b = 0; b < nbins; b++) c[b] = 0;                                          \
            for (int64_t i = 0; i < n; i++) c[(int64_t)x[i * s]] += wp[i * w->strides[0]];         \
        } else {                                                                                   \
            double *c = o.data;                                                                    \
            const double *wp = w->data;                                                            \
            for (int64_t b = 0; b < nbins; b++) c[b] = 0;                                          \
            for (int64_t i = 0; i < n; i++) c[(int64_t)x[i * s]] += wp[i * w->strides[0]];         \
        }                                                                                          \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_INT(BINCOUNT_STAMP, _)

#define ENTRY(_, S) {"bincount", CPU_DT_##S, k_bincount_##S},
static const cpu_kernel_entry kernels[] = {
    {"histc", TC_FLOAT16, k_histc_f16}, {"histc", TC_BFLOAT16, k_histc_bf16}, {"histc", TC_FLOAT32, k_histc_f32},
    {"histc", TC_FLOAT64, k_histc_f64}, CPU_DTYPES_INT(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
