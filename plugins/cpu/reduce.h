/*
 * reduce.h - the driver of every "many elements to one" kernel (sum, prod, norms, moments, all/any,
 * logsumexp, ...) and the macro that stamps an op's functions for it.
 *
 * A kernel receives its input and its output in keepdim form (same ndim; the reduced dims have
 * output size 1). The driver drops size-1 dims, sorts by input stride, merges contiguous dims and
 * picks one of two plans (reduce.c explains them); an op only supplies small functions per dtype
 * (red_ops), stamped by RED_STAMP from a few expressions:
 *
 *   MAP(x, c)     what one loaded element (compute type) contributes, as the accumulator type A;
 *                 `c` is the output's centre (double) in the second pass of two-pass ops, else 0
 *   COMB(a, v)    two accumulators into one (must be associative: partial results are combined
 *                 pairwise and across threads)
 *   FIN(a, c)     the value stored, from the final accumulator
 *
 * Two-pass ops (var: the mean, then squared deviations; logsumexp: the max, then sums of
 * exponentials) run a first pass whose results become per-output centres (doubles) that the second
 * pass's MAP and FIN read; an optional second output receives the centres (var_mean's mean).
 *
 * Accuracy: accumulators are wide (float32 sums in double, integer sums in 64 bits, wrapping),
 * lanes are combined pairwise and blocks of RED_BLOCK elements too, so the error of a sum grows like
 * that of numpy's pairwise sum.
 */
#ifndef CPU_REDUCE_H
#define CPU_REDUCE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"

/* A contiguous row is reduced in 4 groups of lanes, two vector registers each, which hides the
 * latency of the combining instruction. The vector width is the ISA variant's, so the order in which
 * a float64 sum adds up (not its accuracy) differs between variants. */
#define RED_VEC_BYTES CPU_VEC_BYTES
#define RED_GROUPS 4
#define RED_GROUP_LANES(A) ((int)(2 * RED_VEC_BYTES / sizeof(A)))
/* Elements reduced lane-wise before blocks combine pairwise: 16 per lane of float32 at every ISA
 * level (2048 with AVX-512), which bounds the error float lanes add (at 64 per lane, as 2048 gave
 * the 16-byte variant, 2M float32 0.1s summed 0.12 off). */
#define RED_BLOCK (16 * RED_GROUPS * RED_GROUP_LANES(float))
/* A long contiguous row is read as two streams, RED_STREAM_GAP blocks apart (the vector blocks'
 * NAME##_pair): on this project's machine (Zen 3) one thread then read memory 12-22% faster than
 * from one stream, prefetched or not (a float32 sum 17 -> 20 GB/s, max 16.5 -> 19, a product in double
 * lanes 14 -> 16; two threads 7-15% faster). Blocks 4 KiB apart gained nothing; 64 KiB and more, all
 * of it. Shorter rows of two blocks or more are read two rows at once (NAME##_two_rows), their
 * blocks in pairs. The results are the same either way. */
#define RED_STREAM_GAP 16
#define RED_STREAMS_MIN (2 * RED_STREAM_GAP * RED_BLOCK)
#define RED_TILE 1024     /* columns per tile in the outer plan */
#define RED_LEAF_ROWS 8   /* rows the outer plan adds into its tile per pass */

#include "reduce_vector.h"

/* Parameters of one call that an op's expressions may read (through `cx`). */
typedef struct red_call {
    double p, inv_p; /* norm's order and its inverse */
    double count;    /* elements per output (var's divisor before the correction, mean's) */
    double div;      /* var: max(0, count - correction) */
    int root;        /* var: take the square root (std) */
} red_call;

/* One accumulator, or a tile of them, of any accumulator type. */
typedef union red_acc {
    uint8_t u8;
    int64_t i64;
    uint64_t u64;
    float f32;
    double f64;
} red_acc;

typedef union red_buf {
    uint8_t u8[RED_TILE];
    uint64_t u64[RED_TILE];
    float f32[RED_TILE];
    double f64[RED_TILE];
} red_buf;

typedef struct red_ops {
    void (*identity)(void *acc, int64_t w); /* acc[0..w) = identity */
    /* acc[0] = the reduction of n elements at p (element stride s), all with centre c */
    void (*row)(void *acc, const char *p, int64_t n, int64_t s, const red_call *cx, double c);
    void (*combine)(void *acc, const void *other, int64_t w); /* acc[j] = COMB(acc[j], other[j]) */
    /* acc[j] = COMB(acc[j], MAP(rows[r][j], c[j])) for nrows <= RED_LEAF_ROWS contiguous rows; c may be NULL */
    void (*accum)(void *acc, const char *const *rows, int nrows, int64_t w, const red_call *cx, const double *c);
    /* out[j * stride] = FIN(acc[j], c[j]) for an output of the op's dtype; c may be NULL */
    void (*store)(char *out, int64_t stride, const void *acc, int64_t w, const red_call *cx, const double *c);
    /* c[j] = FIN(acc[j], 0) as a double: the first pass of a two-pass op writes centres */
    void (*center)(double *c, const void *acc, int64_t w, const red_call *cx);
    /* acc[r] = `row` of the n elements at p + r * step (bytes), centre c[r], for r < nrows; c may be
     * NULL. Many short rows cost less through one call than through `row` each. */
    void (*rows)(void *acc, const char *p, int64_t step, int64_t nrows, int64_t n, int64_t s, const red_call *cx,
                 const double *c);
    size_t acc_size; /* bytes of one accumulator (the tiles' element) */
} red_ops;

/* Runs a one-pass reduction: outputs[0] from inputs[0]. */
int reduce_run(const tc_kernel_args *args, const red_ops *ops, const red_call *cx, const char *name);

/* Runs a two-pass reduction: `first` computes each output's centre (its `center` function), then
 * `second` reduces again with the centre and stores outputs[0]; when the kernel has a second output,
 * `centre_out` writes the centres into it (stride in elements). */
typedef void (*red_center_store)(char *out, int64_t stride, const double *c, int64_t w);
int reduce_run2(const tc_kernel_args *args, const red_ops *first, const red_ops *second, red_center_store centre_out,
                const red_call *cx, const char *name);

/* outputs[0] = first, outputs[1] = second over inputs[0], reading the input once where its layout
 * allows; for ops whose partial results combine exactly in any order (min and max). */
/* Both results of a contiguous span at once: acc[0] = first's, acc[1] = second's (aminmax). */
typedef void (*red_pair_row)(red_acc acc[2], const char *p, int64_t n);

int reduce_run_pair(const tc_kernel_args *args, const red_ops *first, const red_ops *second, red_pair_row fused,
                    const char *name);

/* The number of elements each output reduces (what means and variances divide by). */
double reduce_count(const tc_kernel_args *args);

/* ---- stamping ---- */

#define RED_NOCENTER 0.0

/* Each group of lanes is a loop kept rolled ("unroll 1") on purpose: GCC turns a loop over two
 * vectors' worth of lanes into two vector operations (NaN-aware selects included, and float to
 * double conversions at the full width) and keeps the group in registers; a loop over more lanes
 * would keep them in memory, over fewer convert at half width. Rows shorter than the
 * lanes take a plain loop, so many short rows do not pay for initialising and folding the lanes. */
#define RED_GROUP(S, L, MAP, COMB, G, PTR, IDX)                                                    \
    _Pragma("GCC unroll 1") for (int j = 0; j < V; j++) {                                          \
        const CPU_C_##S x = cpu_ld_##S(PTR[IDX]);                                                  \
        const L v = (L)MAP(x, c);                                                                  \
        l##G[j] = COMB(l##G[j], v);                                                                \
    }
/* The lanes' final tree, one constant width per step so that each step is a vector operation. */
#define RED_HALVE(W, COMB)                                                                            \
    if (V >= 2 * (W)) {                                                                            \
        _Pragma("GCC unroll 1") for (int j = 0; j < (W); j++) l0[j] = COMB(l0[j], l0[j + (W)]);   \
    }
/* One step of the eight-row tree over V columns (k), kept rolled like a group of lanes. */
#define RED_ACCUM_STEP(STMT) _Pragma("GCC unroll 1") for (int k = 0; k < V; k++) STMT;
/* One function per stride kind, each with its own lanes: sharing them between a contiguous and a
 * strided loop makes GCC keep them in memory. */
#define RED_BLOCK_FN(NAME, S, A, L, ID, MAP, COMB, STRIDE)                                        \
    static A NAME(const CPU_T_##S *p, int64_t n, int64_t s, const red_call *cx, double c) {        \
        (void)cx;                                                                                  \
        (void)c;                                                                                   \
        (void)s;                                                                                   \
        enum { V = RED_GROUP_LANES(L), PERIOD = RED_GROUPS * V };                                  \
        L l0[V], l1[V], l2[V], l3[V];                                                              \
        for (int j = 0; j < V; j++) l0[j] = l1[j] = l2[j] = l3[j] = (L)(ID);                       \
        int64_t i = 0;                                                                             \
        for (; i + PERIOD <= n; i += PERIOD) {                                                     \
            RED_GROUP(S, L, MAP, COMB, 0, p, (i + 0 * V + j) * (STRIDE))                           \
            RED_GROUP(S, L, MAP, COMB, 1, p, (i + 1 * V + j) * (STRIDE))                           \
            RED_GROUP(S, L, MAP, COMB, 2, p, (i + 2 * V + j) * (STRIDE))                           \
            RED_GROUP(S, L, MAP, COMB, 3, p, (i + 3 * V + j) * (STRIDE))                           \
        }                                                                                          \
        /* folded lane-wise (vector selects, not a branch per lane: max's would mispredict) */    \
        _Pragma("GCC unroll 1") for (int j = 0; j < V; j++) l0[j] = COMB(l0[j], l1[j]);           \
        _Pragma("GCC unroll 1") for (int j = 0; j < V; j++) l2[j] = COMB(l2[j], l3[j]);           \
        _Pragma("GCC unroll 1") for (int j = 0; j < V; j++) l0[j] = COMB(l0[j], l2[j]);           \
        for (int j = 0; i < n; i++, j = j + 1 < V ? j + 1 : 0) {                                   \
            const CPU_C_##S x = cpu_ld_##S(p[i * (STRIDE)]);                                       \
            const L v = (L)MAP(x, c);                                                              \
            l0[j] = COMB(l0[j], v);                                                                \
        }                                                                                          \
        RED_HALVE(64, COMB) RED_HALVE(32, COMB) RED_HALVE(16, COMB) RED_HALVE(8, COMB)            \
        RED_HALVE(4, COMB) RED_HALVE(2, COMB) RED_HALVE(1, COMB)                                   \
        return (A)l0[0];                                                                           \
    }
#define RED_STAMP(NAME, S, A, OUT_T, ID, MAP, COMB, FIN, STORE)                                    \
    RED_STAMP_IMPL(NAME, S, A, A, OUT_T, ID, MAP, COMB, FIN, STORE, RED_LANES1_ARRAYS, _)
/* The same with the lanes of a block (RED_BLOCK elements at most) kept in L, narrower than A: the
 * blocks' results still combine in A. float32 sums add up in float lanes within a block (16 elements
 * per lane, as PyTorch's own float cascade does), and in double above: converting every element to
 * double made the sum compute-bound below memory speed. */
#define RED_STAMP_LANES(NAME, S, A, L, OUT_T, ID, MAP, COMB, FIN, STORE)                           \
    RED_STAMP_IMPL(NAME, S, A, L, OUT_T, ID, MAP, COMB, FIN, STORE, RED_LANES1_ARRAYS, _)
/* A sum, product, max or min whose lanes are as wide as its elements or wider (LI: the integer type
 * as wide as L), VCOMB and VMAP the vector forms of COMB and MAP, LOAD how lanes are read
 * (reduce_vector.h): the lanes and results of RED_STAMP_LANES, contiguous blocks computed on vector
 * variables. */
#define RED_STAMP_VECTOR(NAME, S, A, L, LI, ID, MAP, COMB, VCOMB, VMAP, LOAD, STORE)               \
    RED_STAMP_IMPL(NAME, S, A, L, CPU_T_##S, ID, MAP, COMB, RED_FIN_SELF, STORE, RED_LANES1_VECTORS, \
                   (LI, VCOMB, VMAP, LOAD))
/* How a contiguous block is reduced: lanes in arrays, or reduce_vector.h's vector variables; each
 * also says from how many elements on it is used. */
#define RED_LANES1_ARRAYS(NAME, S, A, L, ID, MAP, COMB, UNUSED)                                    \
    enum { NAME##_min = RED_GROUPS * RED_GROUP_LANES(L) }; /* shorter blocks: one accumulator */   \
    RED_BLOCK_FN(NAME, S, A, L, ID, MAP, COMB, 1)                                                  \
    /* rows are reduced one by one (the vector blocks reduce batches of short rows at once) */      \
    static inline int64_t NAME##_batches(A *out, const char *p, int64_t step, int64_t nrows, int64_t n) { \
        (void)out, (void)p, (void)step, (void)nrows, (void)n;                                      \
        return 0;                                                                                  \
    }                                                                                              \
    /* and blocks one by one (the vector blocks reduce two at once, NAME##_pair) */                 \
    enum { NAME##_pairs = 0 };                                                                     \
    static inline void NAME##_pair(A *x, A *y, const CPU_T_##S *p, const CPU_T_##S *q, const red_call *cx, double cp, \
                                   double cq) {                                                    \
        *x = NAME(p, RED_BLOCK, 1, cx, cp);                                                        \
        *y = NAME(q, RED_BLOCK, 1, cx, cq);                                                        \
    }
#define RED_LANES1_VECTORS(NAME, S, A, L, ID, MAP, COMB, LI_VCOMB_VMAP_LOAD)                       \
    RED_CALL(RED_LANES1_VECTORS_, (NAME, S, A, L, ID, COMB, RED_UNPAREN LI_VCOMB_VMAP_LOAD))
#define RED_LANES1_VECTORS_(NAME, S, A, L, ID, COMB, LI, VCOMB, VMAP, LOAD)                        \
    RED_VECTOR_BLOCK_FN(NAME, S, A, L, LI, ID, COMB, VCOMB, VMAP, LOAD)
#define RED_CALL(M, ARGS) M ARGS
#define RED_UNPAREN(...) __VA_ARGS__
/* LANES1 and X: the contiguous block's stamp and its last argument. */
#define RED_STAMP_IMPL(NAME, S, A, L, OUT_T, ID, MAP, COMB, FIN, STORE, LANES1, X)                 \
    static void NAME##_identity(void *acc, int64_t w) {                                            \
        A *x = acc;                                                                                \
        for (int64_t j = 0; j < w; j++) x[j] = (A)(ID);                                            \
    }                                                                                              \
    LANES1(NAME##_lanes1, S, A, L, ID, MAP, COMB, X)                                               \
    RED_BLOCK_FN(NAME##_lanes, S, A, L, ID, MAP, COMB, s)                                          \
    static A NAME##_block(const CPU_T_##S *p, int64_t n, int64_t s, const red_call *cx, double c) { \
        (void)cx;                                                                                  \
        (void)c;                                                                                   \
        if (n < (s == 1 ? (int64_t)NAME##_lanes1_min : RED_GROUPS * RED_GROUP_LANES(L))) {         \
            A a = (A)(ID);                                                                         \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const CPU_C_##S x = cpu_ld_##S(p[i * s]);                                          \
                const A v = MAP(x, c);                                                             \
                a = COMB(a, v);                                                                    \
            }                                                                                      \
            return a;                                                                              \
        }                                                                                          \
        return s == 1 ? NAME##_lanes1(p, n, 1, cx, c) : NAME##_lanes(p, n, s, cx, c);              \
    }                                                                                              \
    /* The blocks of a long contiguous row, computed ahead in pairs RED_STREAM_GAP blocks apart  \
     * (NAME##_lanes1_pair) and handed out in order: the same results as NAME##_block of each. */   \
    typedef struct NAME##_blocks {                                                                 \
        const CPU_T_##S *p;                                                                        \
        int64_t n, first, count; /* the row; the blocks in `done`, from block `first` on */        \
        const red_call *cx;                                                                        \
        double c;                                                                                  \
        A done[2 * RED_STREAM_GAP];                                                                \
    } NAME##_blocks;                                                                               \
    static A NAME##_next_block(NAME##_blocks *b, int64_t k) {                                      \
        if (k < b->first || k >= b->first + b->count) {                                           \
            const int64_t whole = b->n / RED_BLOCK - k;                                            \
            const int64_t gap = whole / 2 < RED_STREAM_GAP ? whole / 2 : RED_STREAM_GAP;           \
            b->first = k;                                                                          \
            b->count = gap ? 2 * gap : 1;                                                          \
            if (!gap) {                                                                            \
                const int64_t at = k * RED_BLOCK, len = b->n - at < RED_BLOCK ? b->n - at : RED_BLOCK; \
                b->done[0] = NAME##_block(b->p + at, len, 1, b->cx, b->c);                         \
            }                                                                                      \
            for (int64_t j = 0; j < gap; j++)                                                      \
                NAME##_lanes1_pair(&b->done[j], &b->done[gap + j], b->p + (k + j) * RED_BLOCK,      \
                                   b->p + (k + gap + j) * RED_BLOCK, b->cx, b->c, b->c);           \
        }                                                                                          \
        return b->done[k - b->first];                                                              \
    }                                                                                              \
    /* NAME##_pairwise's tree over the n elements from block k on */                               \
    static A NAME##_pairwise_blocks(NAME##_blocks *b, int64_t k, int64_t n) {                      \
        if (n <= RED_BLOCK) return NAME##_next_block(b, k);                                        \
        const int64_t h = (n / 2 + RED_BLOCK - 1) / RED_BLOCK * RED_BLOCK;                         \
        const A x = NAME##_pairwise_blocks(b, k, h);                                               \
        const A y = NAME##_pairwise_blocks(b, k + h / RED_BLOCK, n - h);                           \
        return COMB(x, y);                                                                         \
    }                                                                                              \
    /* NAME##_pairwise of two rows of n elements (2 blocks to RED_STREAMS_MIN), into *x and *y,  \
     * their blocks computed in pairs: rows along a dim as two streams. */                        \
    static void NAME##_two_rows(A *x, A *y, const CPU_T_##S *p, const CPU_T_##S *q, int64_t n, const red_call *cx, \
                                double cp, double cq) {                                            \
        NAME##_blocks a = {.p = p, .n = n, .first = 0, .count = (n + RED_BLOCK - 1) / RED_BLOCK, .cx = cx, .c = cp}; \
        NAME##_blocks b = {.p = q, .n = n, .first = 0, .count = a.count, .cx = cx, .c = cq};      \
        _Static_assert(RED_STREAMS_MIN <= 2 * RED_STREAM_GAP * RED_BLOCK, "a row's blocks fit in done"); \
        const int64_t whole = n / RED_BLOCK;                                                       \
        for (int64_t j = 0; j < whole; j++)                                                        \
            NAME##_lanes1_pair(&a.done[j], &b.done[j], p + j * RED_BLOCK, q + j * RED_BLOCK, cx, cp, cq); \
        if (whole < a.count) {                                                                     \
            a.done[whole] = NAME##_block(p + whole * RED_BLOCK, n - whole * RED_BLOCK, 1, cx, cp);  \
            b.done[whole] = NAME##_block(q + whole * RED_BLOCK, n - whole * RED_BLOCK, 1, cx, cq);  \
        }                                                                                          \
        *x = NAME##_pairwise_blocks(&a, 0, n);                                                     \
        *y = NAME##_pairwise_blocks(&b, 0, n);                                                     \
    }                                                                                              \
    static A NAME##_pairwise(const CPU_T_##S *p, int64_t n, int64_t s, const red_call *cx, double c) { \
        if (n <= RED_BLOCK) return NAME##_block(p, n, s, cx, c);                                   \
        if (NAME##_lanes1_pairs && s == 1 && n >= RED_STREAMS_MIN) {                               \
            NAME##_blocks b = {.p = p, .n = n, .first = 0, .count = 0, .cx = cx, .c = c};          \
            return NAME##_pairwise_blocks(&b, 0, n);                                               \
        }                                                                                          \
        const int64_t h = (n / 2 + RED_BLOCK - 1) / RED_BLOCK * RED_BLOCK;                         \
        const A x = NAME##_pairwise(p, h, s, cx, c), y = NAME##_pairwise(p + h * s, n - h, s, cx, c); \
        return COMB(x, y);                                                                         \
    }                                                                                              \
    static void NAME##_row(void *acc, const char *p, int64_t n, int64_t s, const red_call *cx, double c) { \
        *(A *)acc = NAME##_pairwise((const CPU_T_##S *)p, n, s, cx, c);                            \
    }                                                                                              \
    static void NAME##_rows(void *acc, const char *p, int64_t step, int64_t nrows, int64_t n, int64_t s, \
                            const red_call *cx, const double *cs) {                                \
        A *restrict x = acc;                                                                       \
        /* batches of contiguous rows first (only stamps whose MAP ignores the centre batch) */    \
        int64_t r = s == 1 ? NAME##_lanes1_batches(x, p, step, nrows, n) : 0;                      \
        if (NAME##_lanes1_pairs && s == 1 && n >= 2 * RED_BLOCK && n < RED_STREAMS_MIN) {          \
            /* row r with row r + k, at least RED_STREAM_GAP blocks further on, then neighbours */    \
            for (int64_t k = (RED_STREAM_GAP * RED_BLOCK + n - 1) / n; k >= 1; k = k > 1 ? 1 : 0)  \
                for (; r + 2 * k <= nrows; r += 2 * k)                                             \
                    for (int64_t j = r; j < r + k; j++)                                            \
                        NAME##_two_rows(x + j, x + j + k, (const CPU_T_##S *)(p + j * step),        \
                                        (const CPU_T_##S *)(p + (j + k) * step), n, cx,            \
                                        cs ? cs[j] : RED_NOCENTER, cs ? cs[j + k] : RED_NOCENTER);  \
        }                                                                                          \
        for (; r < nrows; r++)                                                                     \
            x[r] = NAME##_pairwise((const CPU_T_##S *)(p + r * step), n, s, cx, cs ? cs[r] : RED_NOCENTER); \
    }                                                                                              \
    static void NAME##_combine(void *acc, const void *other, int64_t w) {                          \
        A *restrict x = acc;                                                                       \
        const A *restrict y = other;                                                               \
        for (int64_t j = 0; j < w; j++) x[j] = COMB(x[j], y[j]);                                   \
    }                                                                                              \
    /* Eight rows are combined pairwise among themselves first: one pass over the accumulators    \
     * per eight rows instead of per row. */                                                       \
    static void NAME##_accum(void *acc, const char *const *rows, int nrows, int64_t w, const red_call *cx, \
                             const double *cs) {                                                   \
        A *restrict x = acc;                                                                       \
        (void)cx;                                                                                  \
        if (nrows == RED_LEAF_ROWS) {                                                              \
            const CPU_T_##S *r0 = (const CPU_T_##S *)rows[0], *r1 = (const CPU_T_##S *)rows[1];    \
            const CPU_T_##S *r2 = (const CPU_T_##S *)rows[2], *r3 = (const CPU_T_##S *)rows[3];    \
            const CPU_T_##S *r4 = (const CPU_T_##S *)rows[4], *r5 = (const CPU_T_##S *)rows[5];    \
            const CPU_T_##S *r6 = (const CPU_T_##S *)rows[6], *r7 = (const CPU_T_##S *)rows[7];    \
            enum { V = RED_GROUP_LANES(A) };                                                       \
            int64_t j = 0;                                                                         \
            if (!cs) /* the same tree a lane-wise step at a time: each step vectorises (selects) */ \
                for (; j + V <= w; j += V) {                                                       \
                    A t0[V], t1[V], t2[V], t3[V];                                                  \
                    RED_ACCUM_STEP(t0[k] = COMB(MAP(cpu_ld_##S(r0[j + k]), 0.0), MAP(cpu_ld_##S(r1[j + k]), 0.0))) \
                    RED_ACCUM_STEP(t1[k] = COMB(MAP(cpu_ld_##S(r2[j + k]), 0.0), MAP(cpu_ld_##S(r3[j + k]), 0.0))) \
                    RED_ACCUM_STEP(t2[k] = COMB(MAP(cpu_ld_##S(r4[j + k]), 0.0), MAP(cpu_ld_##S(r5[j + k]), 0.0))) \
                    RED_ACCUM_STEP(t3[k] = COMB(MAP(cpu_ld_##S(r6[j + k]), 0.0), MAP(cpu_ld_##S(r7[j + k]), 0.0))) \
                    RED_ACCUM_STEP(t0[k] = COMB(t0[k], t1[k]))                                     \
                    RED_ACCUM_STEP(t2[k] = COMB(t2[k], t3[k]))                                     \
                    RED_ACCUM_STEP(t0[k] = COMB(t0[k], t2[k]))                                     \
                    RED_ACCUM_STEP(x[j + k] = COMB(x[j + k], t0[k]))                               \
                }                                                                                  \
            for (; j < w; j++) {                                                                   \
                const double c = cs ? cs[j] : RED_NOCENTER;                                        \
                (void)c;                                                                           \
                const A v0 = MAP(cpu_ld_##S(r0[j]), c), v1 = MAP(cpu_ld_##S(r1[j]), c);            \
                const A v2 = MAP(cpu_ld_##S(r2[j]), c), v3 = MAP(cpu_ld_##S(r3[j]), c);            \
                const A v4 = MAP(cpu_ld_##S(r4[j]), c), v5 = MAP(cpu_ld_##S(r5[j]), c);            \
                const A v6 = MAP(cpu_ld_##S(r6[j]), c), v7 = MAP(cpu_ld_##S(r7[j]), c);            \
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
                const double c = cs ? cs[j] : RED_NOCENTER;                                        \
                (void)c;                                                                           \
                const A v = MAP(cpu_ld_##S(row[j]), c);                                            \
                x[j] = COMB(x[j], v);                                                              \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void NAME##_store(char *out, int64_t s, const void *acc, int64_t w, const red_call *cx, \
                             const double *cs) {                                                   \
        OUT_T *o = (OUT_T *)out;                                                                   \
        const A *x = acc;                                                                          \
        (void)cx;                                                                                  \
        for (int64_t j = 0; j < w; j++) {                                                          \
            const double c = cs ? cs[j] : RED_NOCENTER;                                            \
            (void)c;                                                                               \
            o[j * s] = STORE(FIN(x[j], c));                                                        \
        }                                                                                          \
    }                                                                                              \
    static void NAME##_center(double *cs, const void *acc, int64_t w, const red_call *cx) {        \
        const A *x = acc;                                                                          \
        (void)cx;                                                                                  \
        for (int64_t j = 0; j < w; j++) cs[j] = (double)FIN(x[j], RED_NOCENTER);                   \
    }                                                                                              \
    static const red_ops NAME##_ops = {NAME##_identity, NAME##_row,   NAME##_combine,              \
                                       NAME##_accum,    NAME##_store, NAME##_center,               \
                                       NAME##_rows,     sizeof(A)};

/* The identities of max and min per dtype (NaN-free: the lowest and highest values). */
#define RED_MAX_ID_b8 0
#define RED_MAX_ID_u8 0
#define RED_MAX_ID_i8 INT8_MIN
#define RED_MAX_ID_i16 INT16_MIN
#define RED_MAX_ID_i32 INT32_MIN
#define RED_MAX_ID_i64 INT64_MIN
#define RED_MAX_ID_f16 (-INFINITY)
#define RED_MAX_ID_bf16 (-INFINITY)
#define RED_MAX_ID_f32 (-INFINITY)
#define RED_MAX_ID_f64 (-INFINITY)

#define RED_MIN_ID_b8 1
#define RED_MIN_ID_u8 UINT8_MAX
#define RED_MIN_ID_i8 INT8_MAX
#define RED_MIN_ID_i16 INT16_MAX
#define RED_MIN_ID_i32 INT32_MAX
#define RED_MIN_ID_i64 INT64_MAX
#define RED_MIN_ID_f16 INFINITY
#define RED_MIN_ID_bf16 INFINITY
#define RED_MIN_ID_f32 INFINITY
#define RED_MIN_ID_f64 INFINITY

/* Common expressions. */
#define RED_ADD(a, v) ((a) + (v))
#define RED_FIN_SELF(a, c) (a)
/* Floating max/min let a NaN win either way. */
#define RED_MAX_F(a, v) ((((v) > (a)) | ((v) != (v))) ? (v) : (a))
#define RED_MIN_F(a, v) ((((v) < (a)) | ((v) != (v))) ? (v) : (a))
#define RED_MAX_I(a, v) ((v) > (a) ? (v) : (a))
#define RED_MIN_I(a, v) ((v) < (a) ? (v) : (a))

#endif
