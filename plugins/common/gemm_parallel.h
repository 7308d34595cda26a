/*
 * gemm_parallel.h - a large row-major GEMM cut into independent panels of C, run on the core's
 * thread pool (tc_core_api.parallel_for), so that BLAS providers can use their libraries' serial
 * builds: no second thread pool in the process, nothing that hangs after fork().
 *
 * C[m,n] = alpha * op(A)[m,k] @ op(B)[k,n] + beta * C splits into row panels (op(A)'s rows with C's)
 * or column panels (op(B)'s columns with C's), whichever dimension is longer, each computed by the
 * serial library on its own. A panel is a multiple of GEMM_PARALLEL_ALIGN rows or columns (a multiple
 * of every kernel set's register tile), and no thread gets less than GEMM_PARALLEL_GRAIN
 * multiply-adds, so a product below twice that stays on the calling thread.
 *
 * Header-only and dtype-free: the provider supplies `run`, which computes one panel.
 */
#ifndef TC_GEMM_PARALLEL_H
#define TC_GEMM_PARALLEL_H

#include <stdint.h>

#include "torch_core/tc_abi.h"

#define GEMM_PARALLEL_GRAIN ((int64_t)1 << 21) /* multiply-adds, about a 128^3 product */
#define GEMM_PARALLEL_ALIGN 64

/* One panel: rows [i, i+m) and columns [j, j+n) of C (one of the two ranges is the whole of C's). */
typedef void (*gemm_panel_fn)(void *ctx, int64_t i, int64_t m, int64_t j, int64_t n);

typedef struct gemm_parallel_job {
    gemm_panel_fn run;
    void *ctx;
    int64_t m, n;
    int by_rows;
} gemm_parallel_job;

static inline void gemm_parallel_piece(void *vjob, int64_t u0, int64_t u1) {
    const gemm_parallel_job *j = (const gemm_parallel_job *)vjob;
    const int64_t len = j->by_rows ? j->m : j->n;
    const int64_t a = u0 * GEMM_PARALLEL_ALIGN, b = u1 * GEMM_PARALLEL_ALIGN < len ? u1 * GEMM_PARALLEL_ALIGN : len;
    if (a >= b) return;
    if (j->by_rows)
        j->run(j->ctx, a, b - a, 0, j->n);
    else
        j->run(j->ctx, 0, j->m, a, b - a);
}

/* Computes the whole product through `run`, on up to `threads` threads of the core's pool (a core
 * without one, or a small product, runs it as one panel on the calling thread). */
static inline void gemm_parallel(const tc_core_api *core, int threads, int64_t m, int64_t n, int64_t k,
                                 gemm_panel_fn run, void *ctx) {
    int64_t work, parts;
    if (__builtin_mul_overflow(m, n, &work) || __builtin_mul_overflow(work, k, &work)) work = INT64_MAX;
    parts = work / GEMM_PARALLEL_GRAIN;
    if (parts > threads) parts = threads;
    gemm_parallel_job job = {run, ctx, m, n, m >= n};
    const int64_t units = ((job.by_rows ? m : n) + GEMM_PARALLEL_ALIGN - 1) / GEMM_PARALLEL_ALIGN;
    if (parts > units) parts = units;
    if (parts < 2 || !core || !TC_CORE_HAS(core, parallel_for) || !core->parallel_for) {
        run(ctx, 0, m, 0, n);
        return;
    }
    core->parallel_for(0, units, units / parts, gemm_parallel_piece, &job);
}

/* Element offsets of a panel's corner in op(A), op(B) and C, stored row-major with the given leading
 * dimensions: a panel of rows moves down op(A) and C, a panel of columns along op(B) and C. */
static inline int64_t gemm_parallel_a_offset(int trans_a, int64_t lda, int64_t i) { return trans_a ? i : i * lda; }
static inline int64_t gemm_parallel_b_offset(int trans_b, int64_t ldb, int64_t j) { return trans_b ? j * ldb : j; }
static inline int64_t gemm_parallel_c_offset(int64_t ldc, int64_t i, int64_t j) { return i * ldc + j; }

#endif
