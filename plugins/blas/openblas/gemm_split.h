/*
 * gemm_split.h - cut a row-major GEMM with int64_t sizes into sub-GEMMs whose sizes and leading
 * dimensions all fit a narrower BLAS integer (OpenBLAS's blasint is 32-bit in Debian's build).
 *
 * C[m,n] = alpha * op(A)[m,k] @ op(B)[k,n] + beta * C is computed block by block: m and n are cut
 * into independent blocks, k into blocks that accumulate (the first with beta, the rest with 1).
 * A leading dimension that does not fit cannot be shortened, so the dimension it steps over is cut
 * into single rows, whose leading dimension is then irrelevant and passed as the row length.
 * A stored matrix with one row gets the same treatment even when its leading dimension fits: cblas
 * rejects ld < cols although it never reads it, and tensors with a size-1 dimension may carry any
 * stride there.
 *
 * Header-only and dtype-free so that tests/c/test_blas_providers.c can drive it with a small limit.
 */
#ifndef TC_GEMM_SPLIT_H
#define TC_GEMM_SPLIT_H

#include <stdint.h>

/* One sub-GEMM, in elements: op(A) block rows [i, i+m), op(B) block columns [j, j+n), the shared
 * dimension [p, p+k); first_k is 1 for the block that must apply the caller's beta. Every size and
 * leading dimension here is in [1, limit]. */
typedef struct gemm_split_block {
    int64_t i, j, p;
    int64_t m, n, k;
    int64_t lda, ldb, ldc;
    int first_k;
} gemm_split_block;

typedef void (*gemm_split_fn)(void *ctx, const gemm_split_block *blk);

static inline int64_t gemm_split_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* The leading dimension to pass for a stored block of `rows` rows of length `cols` whose original
 * leading dimension is ld: ld itself when it matters and fits, else the row length. */
static inline int64_t gemm_split_ld(int64_t ld, int64_t rows, int64_t cols, int64_t limit) {
    return (rows == 1 || ld > limit) ? cols : ld;
}

/* Calls fn once per block, in an order where each C block's k-blocks follow its first_k block.
 * Requires m, n, k >= 1 and limit >= 1; leading dimensions are those of the whole matrices. */
static inline void gemm_split(int64_t limit, int trans_a, int trans_b, int64_t m, int64_t n,
                              int64_t k, int64_t lda, int64_t ldb, int64_t ldc, gemm_split_fn fn,
                              void *ctx) {
    /* Which dimension each leading dimension steps over: A is m x k (k x m when transposed),
     * B is k x n (n x k when transposed), C is m x n. */
    int64_t mb = gemm_split_min(m, limit), nb = gemm_split_min(n, limit), kb = gemm_split_min(k, limit);
    if (ldc > limit || (!trans_a && lda > limit)) mb = 1;
    if (trans_b && ldb > limit) nb = 1;
    if ((trans_a && lda > limit) || (!trans_b && ldb > limit)) kb = 1;

    gemm_split_block blk;
    for (blk.i = 0; blk.i < m; blk.i += mb) {
        blk.m = gemm_split_min(mb, m - blk.i);
        for (blk.j = 0; blk.j < n; blk.j += nb) {
            blk.n = gemm_split_min(nb, n - blk.j);
            blk.ldc = gemm_split_ld(ldc, blk.m, blk.n, limit);
            for (blk.p = 0; blk.p < k; blk.p += kb) {
                blk.k = gemm_split_min(kb, k - blk.p);
                blk.lda = trans_a ? gemm_split_ld(lda, blk.k, blk.m, limit)
                                  : gemm_split_ld(lda, blk.m, blk.k, limit);
                blk.ldb = trans_b ? gemm_split_ld(ldb, blk.n, blk.k, limit)
                                  : gemm_split_ld(ldb, blk.k, blk.n, limit);
                blk.first_k = blk.p == 0;
                fn(ctx, &blk);
            }
        }
    }
}

/* Element offsets of a block's corners in the whole row-major matrices. */
static inline int64_t gemm_split_a_offset(const gemm_split_block *blk, int trans_a, int64_t lda) {
    return trans_a ? blk->p * lda + blk->i : blk->i * lda + blk->p;
}
static inline int64_t gemm_split_b_offset(const gemm_split_block *blk, int trans_b, int64_t ldb) {
    return trans_b ? blk->j * ldb + blk->p : blk->p * ldb + blk->j;
}
static inline int64_t gemm_split_c_offset(const gemm_split_block *blk, int64_t ldc) {
    return blk->i * ldc + blk->j;
}

#endif
