/*
 * mv.c - float32/float64 matrix-vector products: the products mm.c receives with one column (mv,
 * addmv, a matrix @ a vector) or one row (a vector @ a matrix), y = alpha * M @ v + beta * y.
 *
 * mm.c's loop keeps one accumulator per output column in memory, so a single column made every
 * multiply-add wait for the previous one's store (a 64x64 mv took 12-17 us; the reference 1.2), and
 * BLIS's sgemm packs for a single column. Here a matrix with contiguous rows is read as dot products
 * in vector lanes, four rows at a time where the vector is contiguous; a matrix with contiguous
 * columns adds x[p] times its columns into a block of accumulators. Both read the matrix once, in
 * memory order, and split its rows over the pool. float32 accumulates in float lanes (as BLAS's sgemv
 * does), float64 in double.
 */
#include <string.h>

#include "cpu.h"
#include "mm.h"
#include "mv.h"

#define MV_LANES 32     /* lanes of a dot product: several vectors, so the adds do not wait on each other */
#define MV_BLOCK 256    /* rows of accumulators per block (column-major matrices) */
#define MV_ROWS 4        /* rows of a block of dot products, two vectors of lanes each */
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
    /* Four rows' dot products at once (v contiguous): each load of v serves four rows, and four \
     * streams of the matrix are in flight (512x512 float32, one Zen 3 thread: 30 -> 22 us). */   \
    static void mv_dot4_##S(const T *m, int64_t ms0, const T *v, int64_t k, T out[MV_ROWS]) {      \
        typedef T vec __attribute__((vector_size(CPU_VEC_BYTES)));                                  \
        enum { W = CPU_VEC_BYTES / sizeof(T) };                                                     \
        vec a[MV_ROWS][2];                                                                         \
        memset(a, 0, sizeof a);                                                                    \
        int64_t p = 0;                                                                             \
        for (; p + 2 * W <= k; p += 2 * W) {                                                       \
            vec x0, x1;                                                                            \
            memcpy(&x0, v + p, sizeof(vec));                                                       \
            memcpy(&x1, v + p + W, sizeof(vec));                                                   \
            _Pragma("GCC unroll 4") for (int r = 0; r < MV_ROWS; r++) {                            \
                vec m0, m1;                                                                        \
                memcpy(&m0, m + r * ms0 + p, sizeof(vec));                                         \
                memcpy(&m1, m + r * ms0 + p + W, sizeof(vec));                                     \
                a[r][0] += m0 * x0;                                                                \
                a[r][1] += m1 * x1;                                                                \
            }                                                                                      \
        }                                                                                          \
        for (int r = 0; r < MV_ROWS; r++) {                                                        \
            T lanes[W], tail = 0;                                                                  \
            const vec t = a[r][0] + a[r][1];                                                       \
            memcpy(lanes, &t, sizeof(vec));                                                        \
            for (int w = W / 2; w >= 1; w /= 2)                                                    \
                for (int l = 0; l < w; l++) lanes[l] += lanes[l + w];                              \
            for (int64_t q = p; q < k; q++) tail += m[r * ms0 + q] * v[q];                         \
            out[r] = lanes[0] + tail;                                                              \
        }                                                                                          \
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
            int64_t i = i0;                                                                        \
            if (g->ms1 == 1 && g->vs == 1)                                                         \
                for (T out[MV_ROWS]; i + MV_ROWS <= i1; i += MV_ROWS) {                            \
                    mv_dot4_##S(m + i * g->ms0, g->ms0, v, g->k, out);                             \
                    for (int r = 0; r < MV_ROWS; r++) mv_store_##S(g, i + r, out[r]);              \
                }                                                                                  \
            for (; i < i1; i++) mv_store_##S(g, i, mv_dot_##S(m + i * g->ms0, v, g->k, g->vs));    \
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
