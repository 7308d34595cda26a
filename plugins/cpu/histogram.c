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
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"
#include "lines.h"

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

/* The counting runs over contiguous elements (a copy of any other input; the order of elements
 * changes no count) cut into one piece per thread. Each piece counts in int64 into HISTC_COPIES
 * interleaved tables, so that runs of one bin do not wait on each other's increments; the pieces'
 * tables add up at the end. A count in the dtype saturates where adding 1 no longer changes it
 * (2^24 in float32), as PyTorch's sequential adds in the dtype do. Bins are computed a chunk at a
 * time into an index array (vectorised; out-of-range elements go to a spare last bin). */
#define HISTC_CHUNK 256
#define HISTC_COPIES_FOR(bins) ((bins) <= 4096 ? 4 : 1)
#define HISTC_SAT_f16 2048.0
#define HISTC_SAT_bf16 256.0
#define HISTC_SAT_f32 16777216.0
#define HISTC_SAT_f64 9007199254740992.0

typedef struct histc_job {
    const char *x;
    int64_t n, bins, copies;
    int parts;
    double lo, hi;    /* the outer edges, exact in the dtype */
    int64_t *counts;  /* per part: copies tables of bins + 1 */
    double *mn, *mx;  /* per part: the data's extremes */
    int *nan;         /* per part: a NaN was seen */
} histc_job;

#define HISTC_STAMP(S, C)                                                                          \
    static void histc_extremes_##S(void *vjob, int64_t p0, int64_t p1) {                           \
        const histc_job *j = vjob;                                                                 \
        for (int64_t p = p0; p < p1; p++) {                                                        \
            const CPU_T_##S *x = (const CPU_T_##S *)j->x + j->n * p / j->parts;                    \
            const int64_t n = j->n * (p + 1) / j->parts - j->n * p / j->parts;                     \
            enum { L = 16 };                                                                       \
            C lmin[L], lmax[L];                                                                    \
            int nan = 0;                                                                           \
            for (int k = 0; k < L; k++) lmin[k] = INFINITY, lmax[k] = -INFINITY;                   \
            int64_t i = 0;                                                                         \
            for (; i + L <= n; i += L) {                                                           \
                _Pragma("GCC unroll 1") for (int k = 0; k < L; k++) {                              \
                    const C v = (C)cpu_ld_##S(x[i + k]);                                           \
                    lmin[k] = v < lmin[k] ? v : lmin[k];                                           \
                    lmax[k] = v > lmax[k] ? v : lmax[k];                                           \
                    nan |= v != v;                                                                 \
                }                                                                                  \
            }                                                                                      \
            for (int k = 0; i < n; i++, k++) {                                                    \
                const C v = (C)cpu_ld_##S(x[i]);                                                   \
                lmin[k] = v < lmin[k] ? v : lmin[k];                                               \
                lmax[k] = v > lmax[k] ? v : lmax[k];                                               \
                nan |= v != v;                                                                     \
            }                                                                                      \
            for (int k = 1; k < L; k++) {                                                          \
                lmin[0] = lmin[k] < lmin[0] ? lmin[k] : lmin[0];                                   \
                lmax[0] = lmax[k] > lmax[0] ? lmax[k] : lmax[0];                                   \
            }                                                                                      \
            j->mn[p] = lmin[0];                                                                    \
            j->mx[p] = lmax[0];                                                                    \
            j->nan[p] = nan;                                                                       \
        }                                                                                          \
    }                                                                                              \
    static void histc_count_##S(void *vjob, int64_t p0, int64_t p1) {                              \
        const histc_job *j = vjob;                                                                 \
        const C lo = (C)j->lo, hi = (C)j->hi, nb = (C)j->bins;                                     \
        const int32_t bins = (int32_t)j->bins;                                                     \
        for (int64_t p = p0; p < p1; p++) {                                                        \
            const CPU_T_##S *x = (const CPU_T_##S *)j->x + j->n * p / j->parts;                    \
            const int64_t n = j->n * (p + 1) / j->parts - j->n * p / j->parts;                     \
            int64_t *cnt = j->counts + p * j->copies * (j->bins + 1);                              \
            int32_t idx[HISTC_CHUNK];                                                              \
            for (int64_t c = 0; c < n; c += HISTC_CHUNK) {                                         \
                const int m = (int)(n - c < HISTC_CHUNK ? n - c : HISTC_CHUNK);                    \
                for (int i = 0; i < m; i++) {                                                      \
                    const C v = (C)cpu_ld_##S(x[c + i]);                                           \
                    const int in = v >= lo && v <= hi;                                             \
                    const C t = in ? (v - lo) / (hi - lo) * nb : (C)0;                             \
                    int32_t pos = (int32_t)t;                                                      \
                    pos = pos == bins ? bins - 1 : pos;                                            \
                    /* PyTorch 1.13 counts NaN in the first bin */                                 \
                    idx[i] = v != v ? 0 : in && pos >= 0 && pos < bins ? pos : bins;               \
                }                                                                                  \
                if (j->copies == 4) {                                                              \
                    int64_t *c0 = cnt, *c1 = c0 + j->bins + 1, *c2 = c1 + j->bins + 1, *c3 = c2 + j->bins + 1; \
                    int i = 0;                                                                     \
                    for (; i + 4 <= m; i += 4) {                                                   \
                        c0[idx[i]]++;                                                              \
                        c1[idx[i + 1]]++;                                                          \
                        c2[idx[i + 2]]++;                                                          \
                        c3[idx[i + 3]]++;                                                          \
                    }                                                                              \
                    for (; i < m; i++) c0[idx[i]]++;                                               \
                } else {                                                                           \
                    for (int i = 0; i < m; i++) cnt[idx[i]]++;                                     \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static int k_histc_##S(const tc_kernel_args *args) {                                           \
        if (cpu_check_args(args, 1, 1, "histc") != TC_OK) return TC_FAIL;                          \
        if (args->n_scalars < 2 || args->outputs[0].ndim != 1)                                     \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu histc: bad arguments");                \
        const tc_view *in = &args->inputs[0], *out = &args->outputs[0];                            \
        histc_job j = {.bins = out->sizes[0], .n = 1};                                             \
        for (int d = 0; d < in->ndim; d++) j.n *= in->sizes[d];                                    \
        if (j.bins < 1 || j.bins >= INT32_MAX)                                                     \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu histc: bad bin count");                \
        const tc_scalar *a = &args->scalars[0], *b = &args->scalars[1];                            \
        const double smin = a->kind == TC_SCALAR_FLOAT ? a->v.f : (double)a->v.i;                  \
        const double smax = b->kind == TC_SCALAR_FLOAT ? b->v.f : (double)b->v.i;                  \
        j.copies = HISTC_COPIES_FOR(j.bins);                                                       \
        j.parts = cpu_threads_for(j.n);                                                            \
        const size_t table = (size_t)j.copies * (size_t)(j.bins + 1);                              \
        const size_t xbytes = histc_is_contiguous(in) ? 0 : sizeof(CPU_T_##S) * (size_t)j.n;       \
        const size_t pbytes = (sizeof(int64_t) * table + 2 * sizeof(double) + sizeof(int)) * (size_t)j.parts; \
        char *mem = cpu_core->host_alloc(xbytes + pbytes);                                         \
        if (!mem) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu histc: out of memory");    \
        j.counts = (int64_t *)mem;                                                                 \
        j.mn = (double *)(j.counts + table * (size_t)j.parts);                                     \
        j.mx = j.mn + j.parts;                                                                     \
        j.nan = (int *)(j.mx + j.parts);                                                           \
        j.x = in->data;                                                                            \
        if (xbytes) {                                                                              \
            cpu_gather(in, 1, mem + pbytes, sizeof(CPU_T_##S), NULL);                              \
            j.x = mem + pbytes;                                                                    \
        }                                                                                          \
        int use_data = 0, nan = 0;                                                                 \
        double dmin = INFINITY, dmax = -INFINITY;                                                  \
        if (smin == smax && j.n > 0) { /* aminmax of the data, NaN propagating */                 \
            use_data = 1;                                                                          \
            cpu_parallel(j.parts, j.parts, histc_extremes_##S, &j);                                \
            for (int p = 0; p < j.parts; p++) {                                                    \
                nan |= j.nan[p];                                                                   \
                dmin = j.mn[p] < dmin ? j.mn[p] : dmin;                                            \
                dmax = j.mx[p] > dmax ? j.mx[p] : dmax;                                            \
            }                                                                                      \
            if (nan) dmin = dmax = NAN;                                                            \
        }                                                                                          \
        histc_range r;                                                                             \
        C *edges = NULL;                                                                           \
        int rc = histc_range_of(smin, smax, use_data, dmin, dmax, &r);                             \
        if (rc == TC_OK && (uint64_t)j.bins > SIZE_MAX / sizeof(C) - 1) rc = cpu_core->set_error(TC_ERR_RUNTIME, "cpu histc: bad bin count"); \
        if (rc == TC_OK && !(edges = cpu_core->host_alloc(sizeof(C) * (size_t)(j.bins + 1))))       \
            rc = cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu histc: out of memory");            \
        if (rc == TC_OK) {                                                                         \
            linspace_##C(edges, j.bins + 1, (C)r.lo, (C)r.hi);                                     \
            j.lo = edges[0];                                                                       \
            j.hi = edges[j.bins];                                                                  \
            cpu_core->host_free(edges, sizeof(C) * (size_t)(j.bins + 1));                          \
            memset(j.counts, 0, sizeof(int64_t) * table * (size_t)j.parts);                        \
            if (j.n > 0) cpu_parallel(j.parts, j.parts, histc_count_##S, &j);                      \
            CPU_T_##S *h = out->data;                                                              \
            for (int64_t k = 0; k < j.bins; k++) {                                                 \
                int64_t total = 0;                                                                 \
                for (size_t t = 0; t < (size_t)j.parts * (size_t)j.copies; t++)                    \
                    total += j.counts[t * (size_t)(j.bins + 1) + (size_t)k];                       \
                const double v = (double)total < HISTC_SAT_##S ? (double)total : HISTC_SAT_##S;    \
                h[k * out->strides[0]] = cpu_st_##S((CPU_C_##S)v);                                 \
            }                                                                                      \
        }                                                                                          \
        cpu_core->host_free(mem, xbytes + pbytes);                                                 \
        return rc;                                                                                 \
    }

static int histc_is_contiguous(const tc_view *v) {
    int64_t expect = 1;
    for (int d = v->ndim - 1; d >= 0; d--) {
        if (v->sizes[d] != 1 && v->strides[d] != expect) return 0;
        expect *= v->sizes[d];
    }
    return 1;
}

HISTC_STAMP(f16, float)
HISTC_STAMP(bf16, float)
HISTC_STAMP(f32, float)
HISTC_STAMP(f64, double)

/* ---- bincount ---- */

/* Counting runs in pieces, one histogram each, added up at the end (counts are exact, so the order
 * does not matter; summed weights keep PyTorch's one serial order). Each piece's histogram has
 * BINCOUNT_LANES copies taking turns, so a run of equal values (labels of a few classes) does not
 * make every increment wait for the one before it. A histogram has `width` bins and one more for
 * every value outside [0, width). Unweighted counts first try a width guessed without looking at
 * the data: when nothing lands outside it, the one pass over the input was all the work; otherwise
 * a pass for the smallest and largest values comes first (PyTorch's order), then the counting. */
#define BINCOUNT_LANES 4
#define BINCOUNT_MAX_PARTS 64
#define BINCOUNT_GUESSED_BINS ((int64_t)1024)
#define BINCOUNT_MAX_LANED_BINS ((int64_t)1 << 14)

typedef struct bincount_job {
    const char *x;
    int64_t n, s, parts;
    int64_t lo[BINCOUNT_MAX_PARTS], hi[BINCOUNT_MAX_PARTS]; /* each piece's smallest and largest value */
    int64_t width;                                          /* bins counted by the laned histograms */
    int64_t *hist;                                          /* parts x LANES x (width + 1) counts */
} bincount_job;

static void piece_of(const bincount_job *j, int64_t p, int64_t *begin, int64_t *end) {
    *begin = j->n / j->parts * p + (p < j->n % j->parts ? p : j->n % j->parts);
    *end = *begin + j->n / j->parts + (p < j->n % j->parts);
}

/* Whether laned histograms of `width` bins pay for their zeroing and adding up. */
static int bincount_laned_fits(const bincount_job *j, int64_t width) {
    return width <= BINCOUNT_MAX_LANED_BINS && j->n >= 2 * width;
}

#define BINCOUNT_STAMP(_, S)                                                                       \
    static void bincount_range_##S(void *vj, int64_t first, int64_t last) {                        \
        bincount_job *j = vj;                                                                      \
        for (int64_t p = first; p < last; p++) {                                                   \
            int64_t b, e, lo = INT64_MAX, hi = -1;                                                 \
            piece_of(j, p, &b, &e);                                                                \
            const CPU_T_##S *x = (const CPU_T_##S *)j->x;                                          \
            if (j->s == 1) { /* no early exit, so the loop vectorises */                          \
                for (int64_t i = b; i < e; i++) {                                                  \
                    const int64_t v = (int64_t)x[i];                                               \
                    lo = v < lo ? v : lo;                                                          \
                    hi = v > hi ? v : hi;                                                          \
                }                                                                                  \
            } else {                                                                               \
                for (int64_t i = b; i < e; i++) {                                                  \
                    const int64_t v = (int64_t)x[i * j->s];                                        \
                    lo = v < lo ? v : lo;                                                          \
                    hi = v > hi ? v : hi;                                                          \
                }                                                                                  \
            }                                                                                      \
            j->lo[p] = lo;                                                                         \
            j->hi[p] = hi;                                                                         \
        }                                                                                          \
    }                                                                                              \
    static void bincount_count_##S(void *vj, int64_t first, int64_t last) {                        \
        bincount_job *j = vj;                                                                      \
        const CPU_T_##S *x = (const CPU_T_##S *)j->x;                                              \
        const int64_t s = j->s, width = j->width, stride = width + 1;                              \
        for (int64_t p = first; p < last; p++) {                                                   \
            int64_t b, e;                                                                          \
            piece_of(j, p, &b, &e);                                                                \
            int64_t *h = j->hist + p * BINCOUNT_LANES * stride;                                    \
            int64_t *h1 = h + stride, *h2 = h1 + stride, *h3 = h2 + stride;                        \
            memset(h, 0, sizeof(int64_t) * BINCOUNT_LANES * (size_t)stride);                      \
            int64_t i = b;                                                                         \
            for (; i + BINCOUNT_LANES <= e; i += BINCOUNT_LANES) {                                 \
                const uint64_t v0 = (uint64_t)(int64_t)x[i * s], v1 = (uint64_t)(int64_t)x[(i + 1) * s]; \
                const uint64_t v2 = (uint64_t)(int64_t)x[(i + 2) * s], v3 = (uint64_t)(int64_t)x[(i + 3) * s]; \
                h[v0 < (uint64_t)width ? (int64_t)v0 : width]++;                                   \
                h1[v1 < (uint64_t)width ? (int64_t)v1 : width]++;                                  \
                h2[v2 < (uint64_t)width ? (int64_t)v2 : width]++;                                  \
                h3[v3 < (uint64_t)width ? (int64_t)v3 : width]++;                                  \
            }                                                                                      \
            for (; i < e; i++) {                                                                   \
                const uint64_t v = (uint64_t)(int64_t)x[i * s];                                   \
                h[v < (uint64_t)width ? (int64_t)v : width]++;                                     \
            }                                                                                      \
            for (int64_t k = 0; k < stride; k++) h[k] += h1[k] + h2[k] + h3[k];                    \
        }                                                                                          \
    }                                                                                              \
    /* Counts into laned histograms of `width` bins, added up into j->hist[0 .. width]; the     \
     * caller frees j->hist (bincount_hist_bytes). */                                              \
    static int bincount_laned_##S(bincount_job *j, int64_t width) {                                \
        j->width = width;                                                                          \
        if (!(j->hist = cpu_core->host_alloc(bincount_hist_bytes(j))))                             \
            return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "bincount: out of memory for %zu bytes", \
                                       bincount_hist_bytes(j));                                    \
        cpu_parallel(j->parts, (int)j->parts, bincount_count_##S, j);                              \
        for (int64_t p = 1; p < j->parts; p++)                                                     \
            for (int64_t k = 0; k <= width; k++) j->hist[k] += j->hist[p * BINCOUNT_LANES * (width + 1) + k]; \
        return TC_OK;                                                                              \
    }                                                                                              \
    static int k_bincount_##S(const tc_kernel_args *args) {                                        \
        if (cpu_check_args(args, 1, 1, "bincount") != TC_OK) return TC_FAIL;                       \
        if (args->n_ints < 1 || args->inputs[0].ndim != 1)                                         \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu bincount: bad arguments");             \
        const tc_view *in = &args->inputs[0], *w = args->n_inputs > 1 ? &args->inputs[1] : NULL;   \
        const int64_t minlength = args->ints[0];                                                   \
        bincount_job j = {.x = in->data, .n = in->sizes[0], .s = in->strides[0]};                  \
        const int threads = cpu_threads_for(j.n);                                                  \
        j.parts = j.n == 0 ? 1 : threads < BINCOUNT_MAX_PARTS ? threads : BINCOUNT_MAX_PARTS;      \
        tc_view o;                                                                                 \
        const int64_t guess = minlength > BINCOUNT_GUESSED_BINS ? minlength : BINCOUNT_GUESSED_BINS; \
        if (!w && bincount_laned_fits(&j, guess)) {                                                \
            if (bincount_laned_##S(&j, guess) != TC_OK) return TC_FAIL;                            \
            if (j.hist[guess] == 0) { /* every value was in [0, guess) */                          \
                int64_t nbins = guess;                                                             \
                while (nbins > minlength && j.hist[nbins - 1] == 0) nbins--;                       \
                const int rc = cpu_core->kernel_output(args, 0, 1, &nbins, &o);                    \
                if (rc == TC_OK) memcpy(o.data, j.hist, sizeof(int64_t) * (size_t)nbins);          \
                cpu_core->host_free(j.hist, bincount_hist_bytes(&j));                              \
                return rc;                                                                         \
            }                                                                                      \
            cpu_core->host_free(j.hist, bincount_hist_bytes(&j));                                  \
        }                                                                                          \
        cpu_parallel(j.parts, (int)j.parts, bincount_range_##S, &j);                               \
        int64_t lo = INT64_MAX, top = -1;                                                          \
        for (int64_t p = 0; p < j.parts; p++) {                                                    \
            lo = j.lo[p] < lo ? j.lo[p] : lo;                                                      \
            top = j.hi[p] > top ? j.hi[p] : top;                                                   \
        }                                                                                          \
        if (lo < 0)                                                                                \
            return cpu_core->set_error(TC_ERR_RUNTIME, "bincount only supports 1-d non-negative integral inputs."); \
        if (top == INT64_MAX)                                                                      \
            return cpu_core->set_error(TC_ERR_RUNTIME, "bincount: a value of %" PRId64 " is too large", top); \
        int64_t nbins = top + 1 > minlength ? top + 1 : minlength;                                 \
        if (cpu_core->kernel_output(args, 0, 1, &nbins, &o) != TC_OK) return TC_FAIL;              \
        const CPU_T_##S *x = in->data;                                                             \
        if (!w && bincount_laned_fits(&j, nbins)) {                                                \
            if (bincount_laned_##S(&j, nbins) != TC_OK) return TC_FAIL;                            \
            memcpy(o.data, j.hist, sizeof(int64_t) * (size_t)nbins);                               \
            cpu_core->host_free(j.hist, bincount_hist_bytes(&j));                                  \
        } else if (!w) {                                                                           \
            int64_t *c = o.data;                                                                   \
            memset(c, 0, sizeof(int64_t) * (size_t)nbins);                                         \
            for (int64_t i = 0; i < j.n; i++) c[(int64_t)x[i * j.s]]++;                            \
        } else if (o.dtype == TC_FLOAT32) {                                                        \
            float *c = o.data;                                                                     \
            const float *wp = w->data;                                                             \
            for (int64_t b = 0; b < nbins; b++) c[b] = 0;                                          \
            for (int64_t i = 0; i < j.n; i++) c[(int64_t)x[i * j.s]] += wp[i * w->strides[0]];     \
        } else {                                                                                   \
            double *c = o.data;                                                                    \
            const double *wp = w->data;                                                            \
            for (int64_t b = 0; b < nbins; b++) c[b] = 0;                                          \
            for (int64_t i = 0; i < j.n; i++) c[(int64_t)x[i * j.s]] += wp[i * w->strides[0]];     \
        }                                                                                          \
        return TC_OK;                                                                              \
    }

/* The laned histograms' size: at most BINCOUNT_MAX_PARTS x LANES x (MAX_LANED_BINS + 1) counts. */
static size_t bincount_hist_bytes(const bincount_job *j) {
    return sizeof(int64_t) * BINCOUNT_LANES * (size_t)(j->width + 1) * (size_t)j->parts;
}

CPU_DTYPES_INT(BINCOUNT_STAMP, _)

#define ENTRY(_, S) {"bincount", CPU_DT_##S, k_bincount_##S},
static const cpu_kernel_entry kernels[] = {
    {"histc", TC_FLOAT16, k_histc_f16}, {"histc", TC_BFLOAT16, k_histc_bf16}, {"histc", TC_FLOAT32, k_histc_f32},
    {"histc", TC_FLOAT64, k_histc_f64}, CPU_DTYPES_INT(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
