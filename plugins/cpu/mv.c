/*
 * mv.c - float32/float64 matrix-vector products: the products mm.c receives with one column (mv,
 * addmv, a matrix @ a vector) or one row (a vector @ a matrix), y = alpha * M @ v + beta * y.
 *
 * mm.c's loop keeps one accumulator per output column in memory, so a single column made every
 * multiply-add wait for the previous one's store (a 64x64 mv took 12-17 us; the reference 1.2), and
 * BLIS's sgemm packs for a single column. Here a matrix with contiguous rows is read row by row as
 * dot products in vector lanes; a matrix with contiguous columns adds x[p] times its columns into a
 * block of accumulators. Both read the matrix once, in memory order, and split its rows over the pool.
 * float32 accumulates in float lanes (as BLAS's sgemv does), float64 in double.
 */
#include <string.h>

#include "cpu.h"
#include "mm.h"
#include "mv.h"

#define MV_LANES 32     /* lanes of a dot product: several vectors, so the adds do not wait on each other */
#define MV_BLOCK 256    /* rows of accumulators per block (column-major matrices) */
#define MV_GRAIN_RATIO 4 /* a piece of a product: 4 times CPU_GRAIN multiply-adds at least */

#define MV_STAMP(S, T)                                                                             \
    static T mv_dot_##S(const T *m, const T *v, int64_t k, int64_t vs) {                           \
        T lanes[MV_LANES] = {0};                                                                   \
        int64_t p = 0;                                                                             \
        for (; p + MV_LANES <= k; p += MV_LANES)                                                   \
            for (int l = 0; l < MV_LANES; l++) lanes[l] += m[p + l] * v[(p + l) * vs];             \
        T tail = 0;                                                                                \
        for (; p < k; p++) tail += m[p] * v[p * vs];                                               \
        for (int w = MV_LANES / 2; w >= 1; w /= 2)                                                 \
            for (int l = 0; l < w; l++) lanes[l] += lanes[l + w];                                  \
        return lanes[0] + tail;                                                                    \
    }                                                                                              \
    static void mv_store_##S(const mv_args *g, int64_t i, T sum) {                                \
        T *y = (T *)g->y + i * g->ys;                                                              \
        const T r = (T)g->alpha * sum;                                                             \
        *y = g->beta != 0 ? r + (T)g->beta * *y : r;                                               \
    }                                                                                              \
    /* Rows [i0, i1) of y: dot products along contiguous rows, or column blocks added up. */      \
    static void mv_rows_##S(void *vg, int64_t i0, int64_t i1) {                                    \
        const mv_args *g = vg;                                                                     \
        const T *m = g->m, *v = g->v;                                                              \
        if (g->ms1 == 1 || g->k == 1) {                                                            \
            for (int64_t i = i0; i < i1; i++) mv_store_##S(g, i, mv_dot_##S(m + i * g->ms0, v, g->k, g->vs)); \
            return;                                                                                \
        }                                                                                          \
        T acc[MV_BLOCK];                                                                           \
        for (int64_t b0 = i0; b0 < i1; b0 += MV_BLOCK) {                                           \
            const int64_t bn = i1 - b0 < MV_BLOCK ? i1 - b0 : MV_BLOCK;                            \
            memset(acc, 0, sizeof acc);                                                            \
            for (int64_t p = 0; p < g->k; p++) {                                                   \
                const T x = v[p * g->vs], *col = m + b0 * g->ms0 + p * g->ms1;                     \
                if (g->ms0 == 1)                                                                   \
                    for (int64_t i = 0; i < bn; i++) acc[i] += col[i] * x;                         \
                else                                                                               \
                    for (int64_t i = 0; i < bn; i++) acc[i] += col[i * g->ms0] * x;                \
            }                                                                                      \
            for (int64_t i = 0; i < bn; i++) mv_store_##S(g, b0 + i, acc[i]);                      \
        }                                                                                          \
    }
MV_STAMP(f32, float)
MV_STAMP(f64, double)

int cpu_mv_run(int32_t dtype, const mv_args *g, int nested) {
    if (dtype != TC_FLOAT32 && dtype != TC_FLOAT64) return 0;
    if (g->len <= 0) return 1;
    const int nt = nested ? 1 : cpu_threads_for(cpu_mm_work(g->len, 1, g->k) / MV_GRAIN_RATIO);
    cpu_parallel(g->len, nt, dtype == TC_FLOAT32 ? mv_rows_f32 : mv_rows_f64, (void *)g);
    return 1;
}
