/*
 * reduce.c - full and partial reductions: sum, max, min over the dims whose output size is 1.
 *
 * The driver is dtype-agnostic and calls a small table of stamped functions (red_ops) per
 * (op, dtype). After dropping size-1 dims, sorting by input stride and merging contiguous dims,
 * one of two plans runs:
 *
 *   inner: the innermost dim is reduced (sum of each contiguous row, or of everything). Each output
 *          element reduces its rows with `row`: 32 independent lanes over blocks of 2048 elements,
 *          blocks combined pairwise. Rows are themselves combined pairwise. With few outputs, the
 *          rows (or the columns of one long row) are split across threads and the partial results
 *          combined in order.
 *   outer: the innermost dim is kept and contiguous (sum(dim=0) of a matrix). Whole input rows are
 *          added into a tile of accumulators (`accum`, a vectorised loop over 8 rows at a time)
 *          instead of walking each column with a stride; groups of 8 rows are combined pairwise.
 *          Tiles of columns are spread across threads.
 *
 * Accuracy: float32 sums accumulate in double, float16/bfloat16 in float, float64 in double; with
 * the pairwise combination the error grows like numpy's pairwise sum, not linearly. Integer sums
 * wrap in uint64. max/min propagate NaN.
 */
#include <math.h>

#include "cpu.h"
#include "dtype.h"
#include "iterate.h"

#define RED_LANES 32
#define RED_BLOCK 2048
#define RED_TILE 1024 /* columns per tile in the outer plan */
#define RED_LEAF_ROWS 8
#define RED_MAX_PARTS 64

/* One accumulator, or a tile of them, of any accumulator type; unions so each stamped function can
 * use its own member type without aliasing trouble. */
typedef union red_acc {
    uint8_t u8;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint64_t u64;
    float f32;
    double f64;
} red_acc;

typedef union red_buf {
    uint8_t u8[RED_TILE];
    int8_t i8[RED_TILE];
    int16_t i16[RED_TILE];
    int32_t i32[RED_TILE];
    int64_t i64[RED_TILE];
    uint64_t u64[RED_TILE];
    float f32[RED_TILE];
    double f64[RED_TILE];
} red_buf;

typedef struct red_ops {
    void (*identity)(void *acc, int64_t w);                            /* acc[0..w) = identity */
    void (*row)(void *acc, const char *p, int64_t n, int64_t stride);  /* acc[0] = reduce(n elements) */
    void (*combine)(void *acc, const void *other, int64_t w);          /* acc[j] op= other[j] */
    /* acc[j] op= rows[r][j] for nrows <= RED_LEAF_ROWS contiguous rows */
    void (*accum)(void *acc, const char *const *rows, int nrows, int64_t w);
    void (*store)(char *out, int64_t stride, const void *acc, int64_t w);
} red_ops;

/* ---- stamped per (op, dtype) ---- */

/* Accumulator types and identities. */
#define SUM_A_u8 uint64_t
#define SUM_A_i8 uint64_t
#define SUM_A_i16 uint64_t
#define SUM_A_i32 uint64_t
#define SUM_A_i64 uint64_t
#define SUM_A_f16 float
#define SUM_A_bf16 float
#define SUM_A_f32 double
#define SUM_A_f64 double

#define MAX_ID_b8 0
#define MAX_ID_u8 0
#define MAX_ID_i8 INT8_MIN
#define MAX_ID_i16 INT16_MIN
#define MAX_ID_i32 INT32_MIN
#define MAX_ID_i64 INT64_MIN
#define MAX_ID_f16 (-INFINITY)
#define MAX_ID_bf16 (-INFINITY)
#define MAX_ID_f32 (-INFINITY)
#define MAX_ID_f64 (-INFINITY)

#define MIN_ID_b8 1
#define MIN_ID_u8 UINT8_MAX
#define MIN_ID_i8 INT8_MAX
#define MIN_ID_i16 INT16_MAX
#define MIN_ID_i32 INT32_MAX
#define MIN_ID_i64 INT64_MAX
#define MIN_ID_f16 INFINITY
#define MIN_ID_bf16 INFINITY
#define MIN_ID_f32 INFINITY
#define MIN_ID_f64 INFINITY

/* COMB_<op>_<kind>(acc, v): the new accumulator. Floating max/min let a NaN win either way. */
#define COMB_sum_KU(a, v) ((a) + (v))
#define COMB_sum_KI COMB_sum_KU
#define COMB_sum_KF COMB_sum_KU
#define COMB_max_KU(a, v) ((v) > (a) ? (v) : (a))
#define COMB_max_KB COMB_max_KU
#define COMB_max_KI COMB_max_KU
#define COMB_max_KF(a, v) ((((v) > (a)) | ((v) != (v))) ? (v) : (a))
#define COMB_min_KU(a, v) ((v) < (a) ? (v) : (a))
#define COMB_min_KB COMB_min_KU
#define COMB_min_KI COMB_min_KU
#define COMB_min_KF(a, v) ((((v) < (a)) | ((v) != (v))) ? (v) : (a))

/* The lane loops are kept rolled ("unroll 1") on purpose: as a loop over the RED_LANES lanes GCC
 * vectorises them, including the NaN-aware selects of max/min; fully unrolled it does not. */
#define RED_STAMP(OP, S, A, ID, COMB)                                                              \
    static void OP##_##S##_identity(void *acc, int64_t w) {                                        \
        A *x = acc;                                                                                \
        for (int64_t j = 0; j < w; j++) x[j] = (A)(ID);                                            \
    }                                                                                              \
    static A OP##_##S##_block(const CPU_T_##S *p, int64_t n, int64_t s) {                          \
        A lane[RED_LANES];                                                                         \
        for (int j = 0; j < RED_LANES; j++) lane[j] = (A)(ID);                                     \
        int64_t i = 0;                                                                             \
        if (s == 1) {                                                                              \
            for (; i + RED_LANES <= n; i += RED_LANES) {                                           \
                _Pragma("GCC unroll 1") for (int j = 0; j < RED_LANES; j++) {                      \
                    const A v = (A)cpu_ld_##S(p[i + j]);                                           \
                    lane[j] = COMB(lane[j], v);                                                    \
                }                                                                                  \
            }                                                                                      \
        } else {                                                                                   \
            for (; i + RED_LANES <= n; i += RED_LANES) {                                           \
                _Pragma("GCC unroll 1") for (int j = 0; j < RED_LANES; j++) {                      \
                    const A v = (A)cpu_ld_##S(p[(i + j) * s]);                                     \
                    lane[j] = COMB(lane[j], v);                                                    \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        for (; i < n; i++) {                                                                       \
            const A v = (A)cpu_ld_##S(p[i * s]);                                                   \
            lane[0] = COMB(lane[0], v);                                                            \
        }                                                                                          \
        for (int w = RED_LANES / 2; w > 0; w /= 2)                                                 \
            for (int j = 0; j < w; j++) lane[j] = COMB(lane[j], lane[j + w]);                      \
        return lane[0];                                                                            \
    }                                                                                              \
    static A OP##_##S##_pairwise(const CPU_T_##S *p, int64_t n, int64_t s) {                       \
        if (n <= RED_BLOCK) return OP##_##S##_block(p, n, s);                                      \
        const int64_t h = (n / 2 + RED_LANES - 1) / RED_LANES * RED_LANES;                         \
        const A x = OP##_##S##_pairwise(p, h, s), y = OP##_##S##_pairwise(p + h * s, n - h, s);    \
        return COMB(x, y);                                                                         \
    }                                                                                              \
    static void OP##_##S##_row(void *acc, const char *p, int64_t n, int64_t s) {                   \
        *(A *)acc = OP##_##S##_pairwise((const CPU_T_##S *)p, n, s);                               \
    }                                                                                              \
    static void OP##_##S##_combine(void *acc, const void *other, int64_t w) {                      \
        A *restrict x = acc;                                                                       \
        const A *restrict y = other;                                                               \
        for (int64_t j = 0; j < w; j++) x[j] = COMB(x[j], y[j]);                                   \
    }                                                                                              \
    /* Eight rows are added pairwise among themselves first: one pass over the accumulators per   \
     * eight rows instead of per row. */                                                           \
    static void OP##_##S##_accum(void *acc, const char *const *rows, int nrows, int64_t w) {       \
        A *restrict x = acc;                                                                       \
        if (nrows == RED_LEAF_ROWS) {                                                              \
            const CPU_T_##S *r0 = (const CPU_T_##S *)rows[0], *r1 = (const CPU_T_##S *)rows[1];    \
            const CPU_T_##S *r2 = (const CPU_T_##S *)rows[2], *r3 = (const CPU_T_##S *)rows[3];    \
            const CPU_T_##S *r4 = (const CPU_T_##S *)rows[4], *r5 = (const CPU_T_##S *)rows[5];    \
            const CPU_T_##S *r6 = (const CPU_T_##S *)rows[6], *r7 = (const CPU_T_##S *)rows[7];    \
            for (int64_t j = 0; j < w; j++) {                                                      \
                const A v0 = (A)cpu_ld_##S(r0[j]), v1 = (A)cpu_ld_##S(r1[j]);                      \
                const A v2 = (A)cpu_ld_##S(r2[j]), v3 = (A)cpu_ld_##S(r3[j]);                      \
                const A v4 = (A)cpu_ld_##S(r4[j]), v5 = (A)cpu_ld_##S(r5[j]);                      \
                const A v6 = (A)cpu_ld_##S(r6[j]), v7 = (A)cpu_ld_##S(r7[j]);                      \
                const A s01 = COMB(v0, v1), s23 = COMB(v2, v3), s45 = COMB(v4, v5), s67 = COMB(v6, v7); \
                const A s03 = COMB(s01, s23), s47 = COMB(s45, s67);                                \
                const A s07 = COMB(s03, s47);                                                      \
                x[j] = COMB(x[j], s07);                                                            \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int r = 0; r < nrows; r++) {                                                          \
            const CPU_T_##S *row = (const CPU_T_##S *)rows[r];                                     \
            for (int64_t j = 0; j < w; j++) {                                                      \
                const A v = (A)cpu_ld_##S(row[j]);                                                 \
                x[j] = COMB(x[j], v);                                                              \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void OP##_##S##_store(char *out, int64_t s, const void *acc, int64_t w) {               \
        CPU_T_##S *o = (CPU_T_##S *)out;                                                           \
        const A *x = acc;                                                                          \
        for (int64_t j = 0; j < w; j++) o[j * s] = cpu_st_##S((CPU_C_##S)x[j]);                    \
    }                                                                                              \
    static const red_ops OP##_##S##_ops = {OP##_##S##_identity, OP##_##S##_row,                    \
                                           OP##_##S##_combine, OP##_##S##_accum,                   \
                                           OP##_##S##_store};                                      \
    static int k_##OP##_##S(const tc_kernel_args *args) { return reduce_run(args, &OP##_##S##_ops, #OP); }

#define STAMP_sum(_, S) RED_STAMP(sum, S, SUM_A_##S, 0, CPU_CAT(COMB_sum_, CPU_K_##S))
#define STAMP_max(_, S) RED_STAMP(max, S, CPU_C_##S, MAX_ID_##S, CPU_CAT(COMB_max_, CPU_K_##S))
#define STAMP_min(_, S) RED_STAMP(min, S, CPU_C_##S, MIN_ID_##S, CPU_CAT(COMB_min_, CPU_K_##S))

/* ---- the driver ---- */

typedef struct red_plan {
    const red_ops *ops;
    const char *in;
    char *out;
    size_t in_es, out_es;
    cpu_layout kept; /* operands (in, out): dims each output element is indexed by */
    cpu_layout rows; /* operand (in): reduced dims other than the row / column dim */
    int64_t w;       /* the innermost dim: reduced (inner plan) or kept columns (outer plan) */
    int64_t w_in_stride, w_out_stride;
} red_plan;

static const char *row_ptr(const red_plan *pl, const char *base, int64_t r) {
    return base + (size_t)cpu_layout_offset(&pl->rows, 0, r) * pl->in_es;
}

/* Inner plan: acc = reduction of rows [lo, hi), each over its elements [w0, w1). */
static void reduce_rows(const red_plan *pl, const char *base, int64_t lo, int64_t hi, int64_t w0,
                        int64_t w1, red_acc *acc) {
    if (hi - lo == 1) {
        const char *p = row_ptr(pl, base, lo) + (size_t)(w0 * pl->w_in_stride) * pl->in_es;
        pl->ops->row(acc, p, w1 - w0, pl->w_in_stride);
        return;
    }
    const int64_t mid = lo + (hi - lo) / 2;
    red_acc other;
    reduce_rows(pl, base, lo, mid, w0, w1, acc);
    reduce_rows(pl, base, mid, hi, w0, w1, &other);
    pl->ops->combine(acc, &other, 1);
}

/* Outer plan: buf[0..wn) = reduction of rows [lo, hi) of the wn contiguous columns at base. */
static void reduce_cols(const red_plan *pl, const char *base, int64_t lo, int64_t hi, int64_t wn,
                        red_buf *buf) {
    if (hi - lo <= RED_LEAF_ROWS) {
        const char *rows[RED_LEAF_ROWS];
        for (int64_t r = lo; r < hi; r++) rows[r - lo] = row_ptr(pl, base, r);
        pl->ops->identity(buf, wn);
        pl->ops->accum(buf, rows, (int)(hi - lo), wn);
        return;
    }
    const int64_t mid = lo + (hi - lo) / 2;
    red_buf other;
    reduce_cols(pl, base, lo, mid, wn, buf);
    reduce_cols(pl, base, mid, hi, wn, &other);
    pl->ops->combine(buf, &other, wn);
}

/* The pieces each plan hands the pool: a range of output elements (or column tiles), or a range of
 * the parts one output's work was cut into. */
typedef struct red_job {
    const red_plan *pl;
    int64_t nr, ntiles;
    const char *base; /* parts: the input of the output being reduced */
    int64_t wn;       /* parts of the outer plan: the tile's width */
    int parts;
    red_acc *partial; /* parts of the inner plan */
    red_buf *bufs;    /* parts of the outer plan */
} red_job;

static void inner_outputs(void *vjob, int64_t k0, int64_t k1) {
    const red_job *j = vjob;
    const red_plan *pl = j->pl;
    for (int64_t k = k0; k < k1; k++) {
        red_acc acc;
        const char *base = pl->in + (size_t)cpu_layout_offset(&pl->kept, 0, k) * pl->in_es;
        reduce_rows(pl, base, 0, j->nr, 0, pl->w, &acc);
        pl->ops->store(pl->out + (size_t)cpu_layout_offset(&pl->kept, 1, k) * pl->out_es, 1, &acc, 1);
    }
}

static void inner_parts(void *vjob, int64_t p0, int64_t p1) {
    const red_job *j = vjob;
    const int64_t nr = j->nr, parts = j->parts, w = j->pl->w;
    for (int64_t p = p0; p < p1; p++) {
        if (nr >= parts)
            reduce_rows(j->pl, j->base, nr * p / parts, nr * (p + 1) / parts, 0, w, &j->partial[p]);
        else
            reduce_rows(j->pl, j->base, 0, nr, w * p / parts, w * (p + 1) / parts, &j->partial[p]);
    }
}

static int run_inner(const red_plan *pl, int nt) {
    const int64_t nk = cpu_layout_numel(&pl->kept), nr = cpu_layout_numel(&pl->rows);
    red_job job = {.pl = pl, .nr = nr};
    if (nt <= 1 || nk >= nt) {
        cpu_parallel(nk, nt, inner_outputs, &job);
        return TC_OK;
    }
    /* Few outputs, much work each: split each output's rows (or, with fewer rows than parts, its
     * columns) into parts, one per thread, and combine the parts in order. */
    const int parts = nt < RED_MAX_PARTS ? nt : RED_MAX_PARTS;
    red_acc partial[RED_MAX_PARTS];
    job.parts = parts;
    job.partial = partial;
    for (int64_t k = 0; k < nk; k++) {
        job.base = pl->in + (size_t)cpu_layout_offset(&pl->kept, 0, k) * pl->in_es;
        cpu_parallel(parts, parts, inner_parts, &job);
        for (int p = 1; p < parts; p++) pl->ops->combine(&partial[0], &partial[p], 1);
        pl->ops->store(pl->out + (size_t)cpu_layout_offset(&pl->kept, 1, k) * pl->out_es, 1, &partial[0], 1);
    }
    return TC_OK;
}

static void outer_tiles(void *vjob, int64_t t0, int64_t t1) {
    const red_job *j = vjob;
    const red_plan *pl = j->pl;
    for (int64_t t = t0; t < t1; t++) {
        const int64_t k = t / j->ntiles, w0 = (t % j->ntiles) * RED_TILE;
        const int64_t wn = pl->w - w0 < RED_TILE ? pl->w - w0 : RED_TILE;
        red_buf buf;
        const char *base = pl->in + (size_t)(cpu_layout_offset(&pl->kept, 0, k) + w0) * pl->in_es;
        reduce_cols(pl, base, 0, j->nr, wn, &buf);
        pl->ops->store(pl->out + (size_t)(cpu_layout_offset(&pl->kept, 1, k) + w0 * pl->w_out_stride) * pl->out_es,
                       pl->w_out_stride, &buf, wn);
    }
}

static void outer_parts(void *vjob, int64_t p0, int64_t p1) {
    const red_job *j = vjob;
    for (int64_t p = p0; p < p1; p++)
        reduce_cols(j->pl, j->base, j->nr * p / j->parts, j->nr * (p + 1) / j->parts, j->wn, &j->bufs[p]);
}

static int run_outer(const red_plan *pl, int nt) {
    const int64_t nk = cpu_layout_numel(&pl->kept), nr = cpu_layout_numel(&pl->rows);
    const int64_t ntiles = (pl->w + RED_TILE - 1) / RED_TILE, tasks = nk * ntiles;
    red_job job = {.pl = pl, .nr = nr, .ntiles = ntiles};
    if (nt <= 1 || tasks >= nt) {
        cpu_parallel(tasks, nt, outer_tiles, &job);
        return TC_OK;
    }
    /* Fewer tiles than threads: split each tile's rows across threads, one accumulator tile each. */
    int parts = nt < RED_MAX_PARTS ? nt : RED_MAX_PARTS;
    if (parts > nr) parts = (int)nr;
    red_buf *bufs = cpu_core->host_alloc(sizeof(red_buf) * (size_t)parts);
    if (!bufs) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "cpu reduction: out of memory for %d partial tiles", parts);
    job.parts = parts;
    job.bufs = bufs;
    for (int64_t t = 0; t < tasks; t++) {
        const int64_t k = t / ntiles, w0 = (t % ntiles) * RED_TILE;
        job.wn = pl->w - w0 < RED_TILE ? pl->w - w0 : RED_TILE;
        job.base = pl->in + (size_t)(cpu_layout_offset(&pl->kept, 0, k) + w0) * pl->in_es;
        cpu_parallel(parts, parts, outer_parts, &job);
        for (int p = 1; p < parts; p++) pl->ops->combine(&bufs[0], &bufs[p], job.wn);
        pl->ops->store(pl->out + (size_t)(cpu_layout_offset(&pl->kept, 1, k) + w0 * pl->w_out_stride) * pl->out_es,
                       pl->w_out_stride, &bufs[0], job.wn);
    }
    cpu_core->host_free(bufs, sizeof(red_buf) * (size_t)parts);
    return TC_OK;
}

/* Reducing nothing (an empty input) gives the identity in every output element. */
static void fill_identity(const red_plan *pl, const tc_view *out) {
    red_acc id;
    pl->ops->identity(&id, 1);
    int64_t numel = 1;
    for (int d = 0; d < out->ndim; d++) numel *= out->sizes[d];
    for (int64_t i = 0; i < numel; i++) {
        int64_t off = 0, rem = i;
        for (int d = out->ndim - 1; d >= 0; d--) {
            off += (rem % out->sizes[d]) * out->strides[d];
            rem /= out->sizes[d];
        }
        pl->ops->store(pl->out + (size_t)off * pl->out_es, 1, &id, 1);
    }
}

static int reduce_run(const tc_kernel_args *args, const red_ops *ops, const char *name) {
    if (cpu_check_args(args, 1, 1, name) != TC_OK) return TC_FAIL;
    const tc_view *in = &args->inputs[0], *out = &args->outputs[0];
    if (in->ndim != out->ndim)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: output has %d dims, input %d", name, out->ndim, in->ndim);
    red_plan pl = {.ops = ops, .in = in->data, .out = out->data, .in_es = cpu_dtype_size(in->dtype),
                   .out_es = cpu_dtype_size(out->dtype)};
    int64_t in_numel = 1, out_numel = 1;
    for (int d = 0; d < in->ndim; d++) {
        in_numel *= in->sizes[d];
        out_numel *= out->sizes[d];
    }
    if (out_numel == 0) return TC_OK;
    if (in_numel == 0) {
        fill_identity(&pl, out);
        return TC_OK;
    }

    /* Operands (in, out); a reduced dim has output stride 0, which also makes reduced neighbours
     * merge with each other but never with kept dims. */
    cpu_layout l = {.ndim = 0, .nops = 2};
    int any_reduced = 0;
    for (int d = 0; d < in->ndim; d++) {
        if (in->sizes[d] == 1) continue;
        const int reduced = out->sizes[d] == 1;
        const int64_t strides[2] = {in->strides[d], reduced ? 0 : out->strides[d]};
        any_reduced |= reduced;
        if (cpu_layout_push(&l, in->sizes[d], strides) != TC_OK) return TC_FAIL;
    }
    cpu_layout_sort(&l, 0);
    cpu_layout_coalesce(&l);

    pl.kept = (cpu_layout){.ndim = 0, .nops = 2};
    pl.rows = (cpu_layout){.ndim = 0, .nops = 1};
    const int last = l.ndim - 1;
    const int outer = any_reduced && last >= 0 && l.stride[1][last] != 0 && l.stride[0][last] == 1 &&
                      l.size[last] >= 16;
    int row_dim = -1; /* inner plan: the innermost reduced dim */
    if (outer) {
        pl.w = l.size[last];
        pl.w_in_stride = 1;
        pl.w_out_stride = l.stride[1][last];
    } else {
        for (int d = last; d >= 0 && row_dim < 0; d--)
            if (l.stride[1][d] == 0) row_dim = d;
        pl.w = row_dim >= 0 ? l.size[row_dim] : 1;
        pl.w_in_stride = row_dim >= 0 ? l.stride[0][row_dim] : 1;
        pl.w_out_stride = 0;
    }
    for (int d = 0; d < l.ndim; d++) {
        if (outer && d == last) continue;
        if (d == row_dim) continue;
        const int64_t strides[2] = {l.stride[0][d], l.stride[1][d]};
        cpu_layout_push(l.stride[1][d] == 0 ? &pl.rows : &pl.kept, l.size[d], strides);
    }
    const int nt = cpu_threads_for(in_numel);
    return outer ? run_outer(&pl, nt) : run_inner(&pl, nt);
}

CPU_DTYPES_NUMERIC(STAMP_sum, _)
CPU_DTYPES_ALL(STAMP_max, _)
CPU_DTYPES_ALL(STAMP_min, _)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
static const cpu_kernel_entry kernels[] = {
    CPU_DTYPES_NUMERIC(ENTRY, sum) CPU_DTYPES_ALL(ENTRY, max) CPU_DTYPES_ALL(ENTRY, min)};
CPU_KERNEL_TABLE(kernels);
