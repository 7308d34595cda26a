/*
 * gemm_complex.h - a provider's tc_blas_provider.cgemm/zgemm over its typed complex GEMM. The ABI
 * passes alpha and beta as pointers to one (real, imaginary) pair and matrices as interleaved pairs,
 * which is the layout of BLIS's scomplex/dcomplex and of the structs cblas's complex calls read.
 */
#ifndef TC_GEMM_COMPLEX_H
#define TC_GEMM_COMPLEX_H

#include <stdint.h>

/* NAME(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) with R parts calls
 * TYPED(..., T alpha, const T *a, ..., T beta, T *c, ...) for the complex type T. */
#define GEMM_COMPLEX_ENTRY(NAME, R, T, TYPED)                                                       \
    static void NAME(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const R *alpha, const R *a, \
                     int64_t lda, const R *b, int64_t ldb, const R *beta, R *c, int64_t ldc) {      \
        TYPED(trans_a, trans_b, m, n, k, (T){alpha[0], alpha[1]}, (const T *)a, lda, (const T *)b, ldb, \
              (T){beta[0], beta[1]}, (T *)c, ldc);                                                  \
    }

#endif
