/*
 * cuda_kernels.h - the C interface of kernels.cu (compiled by nvcc as C++). It knows nothing of the
 * plugin ABI: plugin.c turns tc_views into these plain iterators and dtype codes (the same numbers
 * as tc_dtype) and the kernels only compute. Every function returns a cudaError_t as an int (0: the
 * launch succeeded) and runs on `stream` (NULL: the legacy default stream).
 */
#ifndef TORCH_CUDA_KERNELS_H
#define TORCH_CUDA_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Dimensions left after coalescing (plugin.c merges dense runs and drops size-1 dims). */
#define CK_MAX_DIMS 16
#define CK_MAX_OPERANDS 4

/* An elementwise iteration: operand 0 is the output; strides in elements, may be 0 (broadcast). */
typedef struct ck_iter {
    int32_t ndim;
    int32_t n_operands;
    int64_t numel;
    int64_t sizes[CK_MAX_DIMS];
    int64_t strides[CK_MAX_OPERANDS][CK_MAX_DIMS];
} ck_iter;

/* Binary ops of ck_binary (same dtype out); comparisons of ck_compare (bool out). */
enum { CK_ADD = 0, CK_SUB = 1, CK_MUL = 2, CK_DIV = 3, CK_MAXIMUM = 4, CK_MINIMUM = 5 };
enum { CK_EQ = 0, CK_NE, CK_LT, CK_LE, CK_GT, CK_GE };
/* Unary ops of ck_unary; the first three for every numeric dtype, the rest for the floating ones. */
enum { CK_NEG = 0, CK_ABS, CK_RELU, CK_EXP, CK_LOG, CK_SQRT, CK_SIN, CK_COS, CK_TANH, CK_SIGMOID };
/* Reductions of ck_reduce_full / ck_reduce_partial. */
enum { CK_RSUM = 0, CK_RMAX = 1, CK_RMIN = 2 };

/* Whether the kernels handle this dtype code (tc_dtype numbering, real dtypes only). */
int ck_dtype_supported(int32_t dtype);

/* out (operand 0, dtype dst_dtype) = convert(in (operand 1, src_dtype)). */
int ck_copy(const ck_iter *it, void *dst, int32_t dst_dtype, const void *src, int32_t src_dtype, void *stream);
/* every element of out = value (integral dtypes take ivalue, bool is ivalue != 0 || fvalue != 0). */
int ck_fill(const ck_iter *it, void *dst, int32_t dtype, double fvalue, int64_t ivalue, int is_float, void *stream);
/* c = a op b (add/sub: a op alpha * b), all of `dtype`. */
int ck_binary(int op, const ck_iter *it, void *c, const void *a, const void *b, int32_t dtype, double alpha,
              int64_t ialpha, void *stream);
/* out = op(a) (operands 0, 1), all of `dtype`. */
int ck_unary(int op, const ck_iter *it, void *out, const void *a, int32_t dtype, void *stream);
/* out (bool, operand 0) = a cmp b (operands 1, 2, both of `dtype`). */
int ck_compare(int op, const ck_iter *it, void *out, const void *a, const void *b, int32_t dtype, void *stream);
/* out = cond ? a : b: operands out, cond (bool or uint8), a, b; elements of `elem_size` bytes. */
int ck_where(const ck_iter *it, void *out, const void *cond, const void *a, const void *b, size_t elem_size,
             void *stream);
/* out = min(max(x, lo), hi), NaN propagating as PyTorch's clamp: operands out, x, lo, hi of `dtype`. */
int ck_clamp(const ck_iter *it, void *out, const void *x, const void *lo, const void *hi, int32_t dtype, void *stream);
/* Full reduction: out[0] = sum of the n elements of in (dense, n may be 0). `scratch` holds at least
 * ck_sum_scratch_bytes(n, dtype) bytes of device memory. */
size_t ck_sum_scratch_bytes(int64_t n, int32_t dtype);
int ck_sum_full(void *out, const void *in, int64_t n, int32_t dtype, void *scratch, void *stream);
/* The same for sum, max or min (CK_R*): max and min propagate NaN and need n > 0. */
int ck_reduce_full(int op, void *out, const void *in, int64_t n, int32_t dtype, void *scratch, void *stream);
/* Partial reduction: out (operand 0 of `it`, at the output's iteration) = sum over the reduced dims
 * (sizes/strides of `in` in rsizes/rstrides, rndim of them) of in, one thread per output element. */
int ck_sum_partial(const ck_iter *it, void *out, const void *in, int32_t rndim, const int64_t *rsizes,
                   const int64_t *rstrides, int32_t dtype, void *stream);
int ck_reduce_partial(int op, const ck_iter *it, void *out, const void *in, int32_t rndim, const int64_t *rsizes,
                      const int64_t *rstrides, int32_t dtype, void *stream);

#ifdef __cplusplus
}
#endif

#endif
