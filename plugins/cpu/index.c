/*
 * index.c - `index` (gather through index tensors) and `index_put` (write through them), the two
 * kernels behind advanced indexing, index_select, gather, take, index_put_, index_add_, index_copy_,
 * index_fill_, put_ and the scatter family (contracts in docs/plugin-abi.md, ints in tc_indexing.h).
 *
 * Every operand arrives at one shape with the tensor read or written restrided to stride 0 along the
 * indexed dims, so each element e is the plain loop  out[e] = src[e + off(e)]  (or dst[e + off(e)]
 * op= values[e]) where off(e) = sum_j idx_j[e] * stride_j. With one index the loop reads it directly
 * (bounds checked inline; a row whose index is constant is one memcpy); with several, or a linear
 * index into a non-contiguous tensor, the offsets are computed first over the dims the indices vary
 * along and the loop reads those. Writes run serially, so a repeated index gets the last value (and
 * accumulates in order); reads run on the pool. Bad indices are recorded in the context and raised
 * once the loop is over, never from a worker.
 */
#include "complex.h"
#include "cpu.h"
#include "dtype.h"
#include "iterate.h"
#include "torch_core/tc_indexing.h"

#include <math.h>
#include <string.h>

/* ---- index bounds -------------------------------------------------------------------------------- */

typedef struct index_ctx {
    int64_t mult; /* element stride the index multiplies */
    int64_t size; /* valid indices are [0, size) (and [-size, 0) when wrap) */
    int wrap;
    int failed;      /* set once, by the first bad index seen */
    int64_t bad;     /* that index */
    int64_t bad_dim; /* which index it came from (0-based among the indices) */
    int64_t which;   /* the index the current pass reads */
    /* index_put */
    int mode;
    double alpha_f, alpha_im; /* alpha_im: a complex alpha's imaginary part */
    int64_t alpha_i;
    int scaled; /* index_add gave an alpha: complex values are multiplied by it even when it is 1 */
    int include_self;
    int64_t *counts;   /* mean: values landed per element, by element offset from counts_base */
    void *counts_base;
} index_ctx;

static void record_bad(index_ctx *ctx, int64_t v) {
    int expected = 0;
    if (__atomic_compare_exchange_n(&ctx->failed, &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        ctx->bad = v;
        ctx->bad_dim = ctx->which;
    }
}

/* v in range (wrapped when the style wraps), or false after recording it. */
static inline int index_ok(index_ctx *ctx, int64_t *v) {
    const int64_t x = *v;
    if (x >= 0 && x < ctx->size) return 1;
    if (x < 0 && ctx->wrap && x >= -ctx->size) {
        *v = x + ctx->size;
        return 1;
    }
    record_bad(ctx, x);
    return 0;
}

static int wraps(int64_t style) { return style == TC_INDEX_BOUNDS || style == TC_INDEX_LINEAR; }

/* The op's error for ctx's bad index (PyTorch's type and words, per style). */
static int raise_bad(const index_ctx *ctx, int64_t style, int64_t first_dim, int64_t size) {
    const long long v = (long long)ctx->bad, d = (long long)(first_dim + ctx->bad_dim), s = (long long)size;
    const char *bounds = "index %lld is out of bounds for dimension %lld with size %lld";
    switch (style) {
    case TC_INDEX_BOUNDS_RT: return cpu_core->set_error(TC_ERR_RUNTIME, bounds, v, d, s);
    case TC_INDEX_IN_SELF: return cpu_core->set_error(TC_ERR_INDEX, "index out of range in self");
    case TC_INDEX_LINEAR:
        return cpu_core->set_error(TC_ERR_INDEX, "out of range: tried to access index %lld on a tensor of %lld "
                                                 "elements.", v, s);
    case TC_INDEX_COPY:
        return cpu_core->set_error(TC_ERR_INDEX, "index_copy_(): index %lld is out of bounds for dimension %lld with "
                                                 "size %lld", v, d, s);
    default: return cpu_core->set_error(TC_ERR_INDEX, bounds, v, d, s);
    }
}

/* ---- offsets of several indices ------------------------------------------------------------------ */

/* The indices' combined element offsets, computed once over the dims they vary along and seen at the
 * kernel's shape (stride 0 elsewhere), so the main loop reads one offset per element. */
typedef struct offsets {
    int64_t *data;
    size_t nbytes;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS], rsizes[TC_MAX_DIMS];
    tc_view view; /* at the kernel's shape */
} offsets;

typedef struct unravel_ctx {
    index_ctx *ix;
    int32_t k;
    const int64_t *dims; /* k (size, stride) pairs, outermost first */
} unravel_ctx;

/* offs[i] += wrap(idx[i]) * stride (one index of several) */
static void loop_add_offset(int64_t n, char *const *p, const int64_t *s, void *vctx) {
    index_ctx *ctx = vctx;
    int64_t *o = (int64_t *)p[0];
    const int64_t *ix = (const int64_t *)p[1];
    for (int64_t i = 0; i < n; i++) {
        int64_t v = ix[i * s[1]];
        if (!index_ok(ctx, &v)) return;
        o[i * s[0]] += v * ctx->mult;
    }
}

/* offs[i] = the offset of row-major element idx[i] of k strided dims (take/put on a non-contiguous tensor) */
static void loop_unravel(int64_t n, char *const *p, const int64_t *s, void *vctx) {
    unravel_ctx *u = vctx;
    int64_t *o = (int64_t *)p[0];
    const int64_t *ix = (const int64_t *)p[1];
    for (int64_t i = 0; i < n; i++) {
        int64_t v = ix[i * s[1]], off = 0;
        if (!index_ok(u->ix, &v)) return;
        for (int32_t j = u->k - 1; j >= 0; j--) {
            off += (v % u->dims[2 * j]) * u->dims[2 * j + 1];
            v /= u->dims[2 * j];
        }
        o[i * s[0]] = off;
    }
}

static void offsets_free(offsets *o) {
    if (o->data) cpu_core->host_free(o->data, o->nbytes);
    o->data = NULL;
}

/* Fills o from the k indices (views at `shape`), with the dims in `dims` (k pairs; for a linear
 * index, the pairs of the dims it walks). */
static int offsets_compute(offsets *o, const tc_view *shape, const tc_view *idx, int32_t k, const int64_t *dims,
                           int linear, index_ctx *ctx) {
    int32_t nd = shape->ndim;
    int64_t m = 1;
    for (int32_t d = nd - 1; d >= 0; d--) { /* keep the dims some index varies along */
        int varies = 0;
        for (int32_t j = 0; j < k && !varies && !linear; j++) varies = idx[j].strides[d] != 0;
        if (linear) varies = idx[0].strides[d] != 0;
        o->rsizes[d] = varies ? shape->sizes[d] : 1;
        o->strides[d] = varies ? m : 0;
        m *= o->rsizes[d];
    }
    if ((uint64_t)m > SIZE_MAX / sizeof(int64_t))
        return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory computing index offsets");
    o->nbytes = (size_t)(m ? m : 1) * sizeof(int64_t);
    if (!(o->data = cpu_core->host_alloc(o->nbytes)))
        return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory computing index offsets");
    memset(o->data, 0, o->nbytes);
    tc_view red = {.data = o->data, .sizes = o->rsizes, .strides = o->strides, .ndim = nd, .dtype = TC_INT64};
    for (int32_t j = 0; j < (linear ? 1 : k) && !ctx->failed; j++) {
        tc_view in = idx[j];
        in.sizes = o->rsizes;
        const tc_view *views[2] = {&red, &in};
        ctx->which = j;
        ctx->size = dims[2 * j];
        ctx->mult = dims[2 * j + 1];
        if (linear) {
            int64_t numel = 1;
            for (int32_t i = 0; i < k; i++) numel *= dims[2 * i];
            ctx->size = numel;
            unravel_ctx u = {ctx, k, dims};
            if (cpu_iterate(views, 2, loop_unravel, &u)) return TC_FAIL;
        } else if (cpu_iterate(views, 2, loop_add_offset, ctx)) {
            return TC_FAIL;
        }
    }
    o->view = red;
    o->view.sizes = shape->sizes;
    ctx->mult = 1;
    ctx->size = INT64_MAX; /* offsets are in range and never negative */
    ctx->wrap = 0;
    return TC_OK;
}

/* The index operand of the main loop: idx itself with one index, else computed offsets. */
static int index_operand(const tc_kernel_args *a, int first_input, int32_t first_int, index_ctx *ctx, offsets *o,
                         const tc_view **operand) {
    const int64_t style = a->ints[first_int], *dims = a->ints + first_int + 2;
    int32_t k = (a->n_ints - first_int - 2) / 2;
    int linear = style == TC_INDEX_LINEAR;
    if (k < 1 || a->n_inputs < first_input + (linear ? 1 : k))
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu index: expected %d indices", k);
    ctx->wrap = wraps(style);
    o->data = NULL;
    if (k == 1) {
        ctx->size = dims[0];
        ctx->mult = dims[1];
        ctx->which = 0;
        *operand = &a->inputs[first_input];
        return TC_OK;
    }
    if (offsets_compute(o, &a->outputs[0], &a->inputs[first_input], k, dims, linear, ctx)) {
        offsets_free(o);
        return TC_FAIL;
    }
    *operand = &o->view;
    return TC_OK;
}

/* Raises the recorded bad index, if any. */
static int finish(const tc_kernel_args *a, int32_t first_int, const index_ctx *ctx) {
    if (!ctx->failed) return TC_OK;
    const int64_t style = a->ints[first_int], *dims = a->ints + first_int + 2;
    int64_t size = dims[2 * ctx->bad_dim];
    if (style == TC_INDEX_LINEAR)
        for (int32_t j = 1; j < (a->n_ints - first_int - 2) / 2; j++) size *= dims[2 * j];
    return raise_bad(ctx, style, a->ints[first_int + 1], size);
}

/* ---- index: out[e] = src[e + off(e)] ---------------------------------------------------------------- */

/* Whether any of the four indices at ix lies outside [0, size): one compare of a vector of them
 * where the ISA level has one for 64-bit lanes. Checking four at a time with one branch, and moving
 * the elements through float registers (below), ran a gather along a row of 1024 at 22 GB/s in a
 * standalone loop where the loop of one check per element ran at 16. */
#if defined(__AVX512VL__)
#include <immintrin.h>
static inline int any_of_4_outside(const int64_t *ix, uint64_t size) {
    return _mm256_cmpge_epu64_mask(_mm256_loadu_si256((const __m256i *)ix), _mm256_set1_epi64x((long long)size)) != 0;
}
#elif defined(__AVX2__)
#include <immintrin.h>
static inline int any_of_4_outside(const int64_t *ix, uint64_t size) { /* size < 2^63: signed compares */
    const __m256i v = _mm256_loadu_si256((const __m256i *)ix);
    const __m256i out = _mm256_or_si256(_mm256_cmpgt_epi64(_mm256_setzero_si256(), v),
                                        _mm256_cmpgt_epi64(v, _mm256_set1_epi64x((long long)size - 1)));
    return _mm256_movemask_pd(_mm256_castsi256_pd(out)) != 0;
}
#else
static inline int any_of_4_outside(const int64_t *ix, uint64_t size) {
    return ((uint64_t)ix[0] >= size) | ((uint64_t)ix[1] >= size) | ((uint64_t)ix[2] >= size) | ((uint64_t)ix[3] >= size);
}
#endif

/* T: how an element moves. 4- and 8-byte elements go through float and double registers: loads and
 * stores of them copy bits exactly (NaN payloads included), and on AMD Zen 4 the gather's dependent
 * load and store ran faster there than through integer registers. */
#define GATHER_LOOP(NAME, T)                                                                       \
    static void loop_gather_##NAME(int64_t n, char *const *p, const int64_t *s, void *vctx) {       \
        index_ctx *ctx = vctx;                                                                     \
        T *o = (T *)p[0];                                                                          \
        const T *src = (const T *)p[1];                                                            \
        const int64_t *ix = (const int64_t *)p[2], mult = ctx->mult;                                \
        if (s[2] == 0) { /* one index for the whole row */                                         \
            int64_t v = ix[0];                                                                     \
            if (!index_ok(ctx, &v)) return;                                                        \
            const T *b = src + v * mult;                                                           \
            if (s[0] == 1 && s[1] == 1) {                                                          \
                memcpy(o, b, (size_t)n * sizeof(T));                                               \
            } else {                                                                               \
                for (int64_t i = 0; i < n; i++) o[i * s[0]] = b[i * s[1]];                          \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        if (s[0] == 1 && s[1] == 0) {                                                              \
            /* plain loads until an index out of [0, size), which leaves for the checked loop       \
             * below (the row done again there raises it). The exit is a branch never taken; a     \
             * select of a safe index instead, which GCC compiled into a branch taken on every    \
             * element, ran at two thirds of this speed, and as a mask slower still. */            \
            const uint64_t size = (uint64_t)ctx->size;                                             \
            int bad = 0;                                                                           \
            if (mult == 1 && s[2] == 1) { /* the common case, along a contiguous last dim */       \
                int64_t i = 0;                                                                     \
                for (; i + 4 <= n; i += 4) {                                                       \
                    if (__builtin_expect(any_of_4_outside(ix + i, size), 0)) {                     \
                        bad = 1;                                                                   \
                        break;                                                                     \
                    }                                                                              \
                    o[i] = src[ix[i]];                                                             \
                    o[i + 1] = src[ix[i + 1]];                                                     \
                    o[i + 2] = src[ix[i + 2]];                                                     \
                    o[i + 3] = src[ix[i + 3]];                                                     \
                }                                                                                  \
                for (; i < n && !bad; i++) {                                                       \
                    const uint64_t v = (uint64_t)ix[i];                                            \
                    if (__builtin_expect(v >= size, 0)) {                                          \
                        bad = 1;                                                                   \
                        break;                                                                     \
                    }                                                                              \
                    o[i] = src[v];                                                                 \
                }                                                                                  \
            } else {                                                                               \
                for (int64_t i = 0; i < n; i++) {                                                  \
                    const uint64_t v = (uint64_t)ix[i * s[2]];                                     \
                    if (__builtin_expect(v >= size, 0)) {                                          \
                        bad = 1;                                                                   \
                        break;                                                                     \
                    }                                                                              \
                    o[i] = src[(int64_t)v * mult];                                                 \
                }                                                                                  \
            }                                                                                      \
            if (!bad) return;                                                                      \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            int64_t v = ix[i * s[2]];                                                              \
            if (!index_ok(ctx, &v)) return;                                                        \
            o[i * s[0]] = src[i * s[1] + v * mult];                                                \
        }                                                                                          \
    }
GATHER_LOOP(1, uint8_t)
GATHER_LOOP(2, uint16_t)
GATHER_LOOP(4, float)
GATHER_LOOP(8, double)
GATHER_LOOP(16, cpu_bits16)

/* Rows of `row_bytes` copied from src rows the index picks: embedding lookups, x[idx] and
 * index_select of dim 0. Upcoming rows are prefetched, since each is a random place in memory. */
typedef struct rows_job {
    char *out;
    const char *src;
    const int64_t *ix;
    int64_t out_stride, ix_stride, src_stride; /* bytes per output row; elements per index; bytes per index unit */
    size_t row_bytes;
    index_ctx *ctx;
} rows_job;

#define ROWS_AHEAD 8

static void gather_rows(void *vjob, int64_t begin, int64_t end) {
    const rows_job *j = vjob;
    const int64_t size = j->ctx->size;
    for (int64_t r = begin; r < end; r++) {
        if (r + ROWS_AHEAD < end) {
            const int64_t ahead = j->ix[(r + ROWS_AHEAD) * j->ix_stride];
            if (ahead >= 0 && ahead < size)
                for (size_t b = 0; b < j->row_bytes; b += 64) __builtin_prefetch(j->src + ahead * j->src_stride + b);
        }
        int64_t v = j->ix[r * j->ix_stride];
        if (!index_ok(j->ctx, &v)) return;
        memcpy(j->out + r * j->out_stride, j->src + v * j->src_stride, j->row_bytes);
    }
}

/* The rows fast path when out, src and the index walk as [rows, contiguous row] with the index
 * constant along a row and src moving only through it; else 0. */
static int try_gather_rows(const tc_view *out, const tc_view *src, const tc_view *idx, index_ctx *ctx, size_t es) {
    cpu_layout l = {.ndim = 0, .nops = 3};
    for (int32_t d = 0; d < out->ndim; d++) {
        if (out->sizes[d] == 0) return 1; /* nothing to copy */
        if (out->sizes[d] == 1) continue;
        int64_t strides[3] = {out->strides[d], src->strides[d], idx->strides[d]};
        if (cpu_layout_push(&l, out->sizes[d], strides) != TC_OK) return 0;
    }
    cpu_layout_sort(&l, 0);
    cpu_layout_coalesce(&l);
    if (l.ndim != 2 || l.stride[0][1] != 1 || l.stride[1][1] != 1 || l.stride[2][1] != 0 || l.stride[1][0] != 0)
        return 0;
    rows_job j = {out->data, src->data, idx->data, l.stride[0][0] * (int64_t)es, l.stride[2][0],
                  ctx->mult * (int64_t)es, (size_t)l.size[1] * es, ctx};
    cpu_parallel(l.size[0], cpu_threads_for(l.size[0] * l.size[1]), gather_rows, &j);
    return 1;
}

static int k_index(const tc_kernel_args *a) {
    if (cpu_check_args(a, 2, 1, "index") != TC_OK) return TC_FAIL;
    if (a->n_ints < 4) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu index: expected ints");
    index_ctx ctx = {0};
    offsets o;
    const tc_view *idx;
    if (index_operand(a, 1, 0, &ctx, &o, &idx)) return TC_FAIL;
    int rc = TC_OK;
    const size_t es = cpu_dtype_size(a->outputs[0].dtype);
    if (!ctx.failed && !try_gather_rows(&a->outputs[0], &a->inputs[0], idx, &ctx, es)) {
        cpu_loop_fn loop = es == 1 ? loop_gather_1 : es == 2 ? loop_gather_2 : es == 4 ? loop_gather_4
                         : es == 8 ? loop_gather_8 : loop_gather_16;
        const tc_view *views[3] = {&a->outputs[0], &a->inputs[0], idx};
        rc = cpu_iterate(views, 3, loop, &ctx);
    }
    offsets_free(&o);
    return rc ? rc : finish(a, 0, &ctx);
}

/* ---- index_put: dst[e + off(e)] op= values[e] ----------------------------------------------------- */

/* What a value does to the element it lands on, per dtype kind (C the compute type, U the wrapping one). */
#define PUT_ADD_KB(C, U, d, x) ((d) | (x))
#define PUT_ADD_KU(C, U, d, x) (C)((U)(d) + (U)(x) * (U)alpha_i)
#define PUT_ADD_KI PUT_ADD_KU
#define PUT_ADD_KF(C, U, d, x) ((d) + (x) * (C)alpha_f)
#define PUT_MUL_KB(C, U, d, x) ((d) & (x))
#define PUT_MUL_KU(C, U, d, x) (C)((U)(d) * (U)(x))
#define PUT_MUL_KI PUT_MUL_KU
#define PUT_MUL_KF(C, U, d, x) ((d) * (x))
#define PUT_MAX_KB(C, U, d, x) ((d) | (x))
#define PUT_MAX_KU(C, U, d, x) ((x) > (d) ? (x) : (d))
#define PUT_MAX_KI PUT_MAX_KU
#define PUT_MAX_KF(C, U, d, x) (isnan(x) || (x) > (d) ? (x) : (d))
#define PUT_MIN_KB(C, U, d, x) ((d) & (x))
#define PUT_MIN_KU(C, U, d, x) ((x) < (d) ? (x) : (d))
#define PUT_MIN_KI PUT_MIN_KU
#define PUT_MIN_KF(C, U, d, x) (isnan(x) || (x) < (d) ? (x) : (d))
/* the element that no value has reached yet, for include_self=False */
#define PUT_LOW_KB(S) 0
#define PUT_LOW_KU(S) 0
#define PUT_LOW_KI(S) ((CPU_T_##S)((CPU_U_##S)1 << (8 * sizeof(CPU_T_##S) - 1)))
#define PUT_LOW_KF(S) (-INFINITY)
#define PUT_HIGH_KB(S) 1
#define PUT_HIGH_KU(S) ((CPU_T_##S) ~(CPU_T_##S)0)
#define PUT_HIGH_KI(S) ((CPU_T_##S)(((CPU_U_##S)1 << (8 * sizeof(CPU_T_##S) - 1)) - 1))
#define PUT_HIGH_KF(S) INFINITY
/* mean's final division by n (> 0): integers floor, as PyTorch's div_(count, "floor") */
#define PUT_DIV_KB(C, d, n) (d)
#define PUT_DIV_KU(C, d, n) (C)((int64_t)(d) / (n))
#define PUT_DIV_KI(C, d, n) (C)((int64_t)(d) / (n) - ((int64_t)(d) % (n) < 0))
#define PUT_DIV_KF(C, d, n) ((d) / (C)(n))

#define PUT_OP(S, OP) CPU_CAT4(PUT_, OP, _, CPU_K_##S)

/* One loop per (dtype, what it does): walks dst (the view at the kernel's shape), values and the
 * index operand; `at` is the element written, `x` the value and `cur` the element's current value. */
#define PUT_LOOP(S, NAME, EXPR)                                                                    \
    static void loop_put_##NAME##_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {   \
        index_ctx *ctx = vctx;                                                                     \
        CPU_T_##S *d = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##S *val = (const CPU_T_##S *)p[1];                                            \
        const int64_t *ix = (const int64_t *)p[2], mult = ctx->mult, alpha_i = ctx->alpha_i;       \
        const double alpha_f = ctx->alpha_f;                                                       \
        (void)alpha_i;                                                                             \
        (void)alpha_f;                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                          \
            int64_t v = ix[i * s[2]];                                                              \
            if (!index_ok(ctx, &v)) return;                                                        \
            CPU_T_##S *at = d + i * s[0] + v * mult;                                               \
            const CPU_C_##S x = cpu_ld_##S(val[i * s[1]]), cur = cpu_ld_##S(*at);                   \
            (void)x;                                                                               \
            (void)cur;                                                                             \
            EXPR;                                                                                  \
        }                                                                                          \
    }

/* The count of values a mean has added into element `at`. */
#define PUT_COUNT(S) ctx->counts[at - (CPU_T_##S *)ctx->counts_base]

#define PUT_STAMP(_, S)                                                                            \
    PUT_LOOP(S, assign, *at = val[i * s[1]])                                                       \
    PUT_LOOP(S, add, *at = cpu_st_##S(PUT_OP(S, ADD)(CPU_C_##S, CPU_U_##S, cur, x)))                \
    PUT_LOOP(S, mul, *at = cpu_st_##S(PUT_OP(S, MUL)(CPU_C_##S, CPU_U_##S, cur, x)))                \
    PUT_LOOP(S, amax, *at = cpu_st_##S(PUT_OP(S, MAX)(CPU_C_##S, CPU_U_##S, cur, x)))               \
    PUT_LOOP(S, amin, *at = cpu_st_##S(PUT_OP(S, MIN)(CPU_C_##S, CPU_U_##S, cur, x)))               \
    PUT_LOOP(S, mean, *at = cpu_st_##S(PUT_OP(S, ADD)(CPU_C_##S, CPU_U_##S, cur, x)); PUT_COUNT(S)++) \
    PUT_LOOP(S, low, *at = cpu_st_##S((CPU_C_##S)CPU_CAT(PUT_LOW_, CPU_K_##S)(S)))                 \
    PUT_LOOP(S, high, *at = cpu_st_##S((CPU_C_##S)CPU_CAT(PUT_HIGH_, CPU_K_##S)(S)))               \
    PUT_LOOP(S, zero, *at = cpu_st_##S((CPU_C_##S)0))                                              \
    PUT_LOOP(S, one, *at = cpu_st_##S((CPU_C_##S)1))                                               \
    PUT_LOOP(S, divide, if (PUT_COUNT(S) > 0) {                                                    \
        *at = cpu_st_##S(CPU_CAT(PUT_DIV_, CPU_K_##S)(CPU_C_##S, cur, PUT_COUNT(S) + ctx->include_self)); \
        PUT_COUNT(S) = 0;                                                                          \
    })                                                                                             \
    static const put_loops put_##S = {                                                             \
        .apply = {[TC_PUT_ASSIGN] = loop_put_assign_##S, [TC_PUT_ADD] = loop_put_add_##S,          \
                  [TC_PUT_MUL] = loop_put_mul_##S, [TC_PUT_MEAN] = loop_put_mean_##S,              \
                  [TC_PUT_AMAX] = loop_put_amax_##S, [TC_PUT_AMIN] = loop_put_amin_##S},           \
        .init = {[TC_PUT_ADD] = loop_put_zero_##S, [TC_PUT_MUL] = loop_put_one_##S,                \
                 [TC_PUT_MEAN] = loop_put_zero_##S, [TC_PUT_AMAX] = loop_put_low_##S,              \
                 [TC_PUT_AMIN] = loop_put_high_##S},                                               \
        .divide = loop_put_divide_##S};                                                            \
    static int k_index_put_##S(const tc_kernel_args *a) { return index_put_run(a, &put_##S); }

/* complex64/complex128: add is cur + x, or cur + x * alpha with PyTorch's schoolbook product when
 * index_add gave an alpha (its add_ multiplies even by 1, which turns inf + 0j into a NaN imaginary
 * part there too); prod is the schoolbook product; mean the sum divided by the count as a complex
 * quotient (PyTorch divides by a complex count tensor). PyTorch has no amax or amin of complex values:
 * those loops stay NULL, and index_put_run raises its error. */
#define PUT_CX_PART(S) CPU_CAT(CPU_R_, CPU_SFX_##S)
#define PUT_CX_REAL(S, v) ((CPU_C_##S){(PUT_CX_PART(S))(v), 0}) /* a real value */
#define PUT_CX_ALPHA(S) ((CPU_C_##S){(PUT_CX_PART(S))alpha_f, (PUT_CX_PART(S))ctx->alpha_im})
#define PUT_CX_ADD(S) CPU_CX(add, S)(cur, ctx->scaled ? CPU_CX(mul, S)(x, PUT_CX_ALPHA(S)) : x)
#define PUT_CX_STAMP(_, S)                                                                         \
    PUT_LOOP(S, assign, *at = val[i * s[1]])                                                       \
    PUT_LOOP(S, add, *at = cpu_st_##S(PUT_CX_ADD(S)))                                              \
    PUT_LOOP(S, mul, *at = cpu_st_##S(CPU_CX(mul, S)(cur, x)))                                     \
    PUT_LOOP(S, mean, *at = cpu_st_##S(PUT_CX_ADD(S)); PUT_COUNT(S)++)                             \
    PUT_LOOP(S, zero, *at = cpu_st_##S(PUT_CX_REAL(S, 0)))                                         \
    PUT_LOOP(S, one, *at = cpu_st_##S(PUT_CX_REAL(S, 1)))                                          \
    PUT_LOOP(S, divide, if (PUT_COUNT(S) > 0) {                                                    \
        *at = cpu_st_##S(CPU_CX(div, S)(cur, PUT_CX_REAL(S, PUT_COUNT(S) + ctx->include_self))); \
        PUT_COUNT(S) = 0;                                                                          \
    })                                                                                             \
    static const put_loops put_##S = {                                                             \
        .apply = {[TC_PUT_ASSIGN] = loop_put_assign_##S, [TC_PUT_ADD] = loop_put_add_##S,          \
                  [TC_PUT_MUL] = loop_put_mul_##S, [TC_PUT_MEAN] = loop_put_mean_##S},             \
        .init = {[TC_PUT_ADD] = loop_put_zero_##S, [TC_PUT_MUL] = loop_put_one_##S,                \
                 [TC_PUT_MEAN] = loop_put_zero_##S},                                               \
        .divide = loop_put_divide_##S};                                                            \
    static int k_index_put_##S(const tc_kernel_args *args) { return index_put_run(args, &put_##S); }

typedef struct put_loops {
    cpu_loop_fn apply[TC_PUT_AMIN + 1]; /* per mode */
    cpu_loop_fn init[TC_PUT_AMIN + 1];  /* include_self=False: what an element starts from */
    cpu_loop_fn divide;                 /* mean: the sum divided by the count */
} put_loops;

/* The furthest element (in elements from its data pointer) the index_put kernel can write: the
 * view's own span plus each indexed dim's. */
static int64_t put_span(const tc_view *dst, const int64_t *dims, int32_t k) {
    int64_t span = 1;
    for (int32_t d = 0; d < dst->ndim; d++) span += (dst->sizes[d] - 1) * dst->strides[d];
    for (int32_t j = 0; j < k; j++) span += (dims[2 * j] - 1) * dims[2 * j + 1];
    return span;
}

static int index_put_run(const tc_kernel_args *a, const put_loops *loops) {
    if (cpu_check_args(a, 2, 1, "index_put") != TC_OK) return TC_FAIL;
    if (a->n_ints < 6) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu index_put: expected ints");
    const int64_t mode = a->ints[0];
    if (mode < 0 || mode > TC_PUT_AMIN)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu index_put: bad mode %lld", (long long)mode);
    for (int32_t d = 0; d < a->outputs[0].ndim; d++)
        if (a->outputs[0].sizes[d] == 0) return TC_OK;
    if (!loops->apply[mode]) /* amax and amin of complex values; only scatter_reduce asks for them */
        return cpu_core->set_error(TC_ERR_RUNTIME, "\"scatter_gather_tensor_cpu_reduce_%s\" not implemented for '%s'",
                                   mode == TC_PUT_AMAX ? "amax" : "amin",
                                   a->outputs[0].dtype == TC_COMPLEX64 ? "ComplexFloat" : "ComplexDouble");
    index_ctx ctx = {.mode = (int)mode, .include_self = a->ints[1] != 0, .alpha_f = 1, .alpha_i = 1};
    if (mode == TC_PUT_ADD && a->n_scalars > 0) {
        const tc_scalar *al = &a->scalars[0];
        const int floating = al->kind == TC_SCALAR_FLOAT || al->kind == TC_SCALAR_COMPLEX;
        ctx.alpha_f = floating ? al->v.f : (double)al->v.i;
        ctx.alpha_im = al->kind == TC_SCALAR_COMPLEX ? al->imag : 0.0;
        ctx.alpha_i = floating ? cpu_f2i64(al->v.f) : al->v.i;
        ctx.scaled = 1;
    }
    offsets o;
    const tc_view *idx;
    if (index_operand(a, 1, 2, &ctx, &o, &idx)) return TC_FAIL;
    const tc_view *views[3] = {&a->outputs[0], &a->inputs[0], idx};
    int rc = TC_OK;
    size_t counts_bytes = 0;
    if (mode == TC_PUT_MEAN && !ctx.failed) {
        int64_t span = put_span(&a->outputs[0], a->ints + 4, (a->n_ints - 4) / 2);
        counts_bytes = (size_t)span * sizeof(int64_t);
        if ((uint64_t)span > SIZE_MAX / sizeof(int64_t) || !(ctx.counts = cpu_core->host_alloc(counts_bytes))) {
            offsets_free(&o);
            return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory counting a mean");
        }
        memset(ctx.counts, 0, counts_bytes);
        ctx.counts_base = a->outputs[0].data;
    }
    if (!ctx.include_self && mode != TC_PUT_ASSIGN && !ctx.failed)
        rc = cpu_iterate_serial(views, 3, loops->init[mode], &ctx);
    if (rc == TC_OK && !ctx.failed) rc = cpu_iterate_serial(views, 3, loops->apply[mode], &ctx);
    if (rc == TC_OK && !ctx.failed && mode == TC_PUT_MEAN) rc = cpu_iterate_serial(views, 3, loops->divide, &ctx);
    if (ctx.counts) cpu_core->host_free(ctx.counts, counts_bytes);
    offsets_free(&o);
    return rc ? rc : finish(a, 2, &ctx);
}

CPU_DTYPES_ALL(PUT_STAMP, _)
CPU_DTYPES_COMPLEX_FULL(PUT_CX_STAMP, _)

#define ENTRY(_, S) {"index", CPU_DT_##S, k_index}, {"index_put", CPU_DT_##S, k_index_put_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _) CPU_DTYPES_COMPLEX_FULL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
