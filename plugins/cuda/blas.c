/*
 * blas.c - mm and bmm through cuBLAS (float16, bfloat16, float32, float64).
 *
 * The ABI's matrices are row-major with any strides; cuBLAS is column-major, so C = A B is computed
 * as C^T = B^T A^T: a row-major operand with unit column stride is its transpose in column-major
 * order ("N" with ld = row stride), one with unit row stride is itself ("T" with ld = column
 * stride). Any other layout (broadcast rows, both strides > 1) is first copied dense. float32
 * products are full fp32 (PyTorch's default: allow_tf32 False); the 16-bit types accumulate in fp32.
 */
#include <limits.h>
#include <pthread.h>
#include <string.h>

#include <cublas_v2.h>

#include "cuda_kernels.h"
#include "cuda_plugin.h"

#define MAX_DEVICES 16

static pthread_mutex_t blas_lock = PTHREAD_MUTEX_INITIALIZER;
static cublasHandle_t handles[MAX_DEVICES];

static int blas_fail(cublasStatus_t st, const char *what) {
    return cuda_core->set_error(TC_ERR_RUNTIME, "CUDA error: %s (%s) when calling `%s`", cublasGetStatusString(st),
                                cublasGetStatusName(st), what);
}

void cuda_blas_shutdown(void) {
    for (int i = 0; i < MAX_DEVICES; i++)
        if (handles[i]) {
            cublasDestroy(handles[i]);
            handles[i] = NULL;
        }
}

/* How one row-major operand of rows x cols with strides (s0, s1) reads in column-major terms. */
static int pick(int64_t rows, int64_t cols, int64_t s0, int64_t s1, cublasOperation_t *op, int64_t *ld) {
    int64_t mc = cols > 1 ? cols : 1, mr = rows > 1 ? rows : 1;
    if ((cols == 1 || s1 == 1) && (rows == 1 || s0 >= mc)) {
        *op = CUBLAS_OP_N;
        *ld = rows == 1 ? mc : s0;
        return 1;
    }
    if ((rows == 1 || s0 == 1) && (cols == 1 || s1 >= mr)) {
        *op = CUBLAS_OP_T;
        *ld = cols == 1 ? mr : s1;
        return 1;
    }
    return 0;
}

/* A dense copy of a [batch,] rows x cols operand, from the cache; *out NULL when none was needed. */
static int densify(const tc_view *v, int batched, void **out, size_t *out_bytes) {
    *out = NULL;
    size_t es = cuda_core->dtype_size(v->dtype);
    ck_iter it;
    memset(&it, 0, sizeof it);
    it.n_operands = 2;
    it.ndim = v->ndim;
    it.numel = 1;
    for (int d = v->ndim - 1; d >= 0; d--) {
        it.sizes[d] = v->sizes[d];
        it.strides[0][d] = it.numel;
        it.strides[1][d] = v->strides[d];
        it.numel *= v->sizes[d];
    }
    (void)batched;
    *out_bytes = (size_t)it.numel * es;
    if (!(*out = cuda_cache_alloc(*out_bytes, v->device.index)))
        return cuda_core->set_error(TC_ERR_OUT_OF_MEMORY, "CUDA out of memory (a %zu-byte matmul temporary)", *out_bytes);
    int err = ck_copy(&it, *out, v->dtype, v->data, v->dtype, cuda_current_stream(v->device.index));
    if (err) return cuda_fail((cudaError_t)err, "densify");
    return TC_OK;
}

/* c[batch][m][n] = a[batch][m][k] . b[batch][k][n]; batch strides may be 0. */
static int gemm(const tc_view *a, const tc_view *b, const tc_view *c, int batched) {
    int o = batched ? 1 : 0;
    int64_t batch = batched ? c->sizes[0] : 1;
    int64_t m = a->sizes[o], k = a->sizes[o + 1], n = b->sizes[o + 1];
    int32_t dev = c->device.index;
    if (cuda_use_device(dev)) return TC_FAIL;
    if (batch == 0 || m == 0 || n == 0) return TC_OK;
    size_t es = cuda_core->dtype_size(c->dtype);
    cudaStream_t stream = (cudaStream_t)cuda_current_stream(dev);
    if (k == 0) {
        size_t bytes;
        if (__builtin_mul_overflow((size_t)batch, (size_t)m, &bytes) || __builtin_mul_overflow(bytes, (size_t)n, &bytes) ||
            __builtin_mul_overflow(bytes, es, &bytes))
            return cuda_core->set_error(TC_ERR_RUNTIME, "CUDA mm: the output's size overflows");
        cudaError_t e = cudaMemsetAsync(c->data, 0, bytes, stream);
        return e ? cuda_fail(e, "mm") : TC_OK;
    }
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX || batch > INT_MAX)
        return cuda_core->set_error(TC_ERR_NOT_IMPLEMENTED, "CUDA mm: sizes beyond 2^31-1 are not supported yet");
    cudaDataType_t type;
    cublasComputeType_t compute;
    float f1 = 1.0f, f0 = 0.0f;
    double d1 = 1.0, d0 = 0.0;
    const void *one = &f1, *zero = &f0;
    switch (c->dtype) {
    case TC_FLOAT32: type = CUDA_R_32F, compute = CUBLAS_COMPUTE_32F; break;
    case TC_FLOAT16: type = CUDA_R_16F, compute = CUBLAS_COMPUTE_32F; break;
    case TC_BFLOAT16: type = CUDA_R_16BF, compute = CUBLAS_COMPUTE_32F; break;
    case TC_FLOAT64: type = CUDA_R_64F, compute = CUBLAS_COMPUTE_64F, one = &d1, zero = &d0; break;
    default: return cuda_core->set_error(TC_ERR_NOT_IMPLEMENTED, "CUDA mm: dtype %s", cuda_core->dtype_name(c->dtype));
    }
    cublasOperation_t opa, opb;
    int64_t lda, ldb;
    const void *pa = a->data, *pb = b->data;
    void *ta = NULL, *tb = NULL;
    size_t ta_bytes = 0, tb_bytes = 0;
    int64_t sab = batched ? a->strides[0] : 0, sbb = batched ? b->strides[0] : 0;
    int rc = TC_OK;
    if (!pick(m, k, a->strides[o], a->strides[o + 1], &opa, &lda)) {
        if ((rc = densify(a, batched, &ta, &ta_bytes))) goto done;
        pa = ta, opa = CUBLAS_OP_N, lda = k, sab = m * k;
    }
    if (!pick(k, n, b->strides[o], b->strides[o + 1], &opb, &ldb)) {
        if ((rc = densify(b, batched, &tb, &tb_bytes))) goto done;
        pb = tb, opb = CUBLAS_OP_N, ldb = n, sbb = k * n;
    }
    pthread_mutex_lock(&blas_lock);
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (!handles[dev]) st = cublasCreate(&handles[dev]);
    if (st == CUBLAS_STATUS_SUCCESS) st = cublasSetStream(handles[dev], stream);
    if (st == CUBLAS_STATUS_SUCCESS)
        /* column-major: C^T (n x m, ld n) = op(B^T) (n x k) . op(A^T) (k x m) */
        st = cublasGemmStridedBatchedEx(handles[dev], opb, opa, (int)n, (int)m, (int)k, one, pb, type, (int)ldb, sbb, pa,
                                        type, (int)lda, sab, zero, c->data, type, (int)n, m * n, (int)batch, compute,
                                        CUBLAS_GEMM_DEFAULT);
    pthread_mutex_unlock(&blas_lock);
    if (st != CUBLAS_STATUS_SUCCESS) rc = blas_fail(st, batched ? "cublasGemmStridedBatchedEx (bmm)" : "cublasGemmStridedBatchedEx (mm)");
done:
    /* the current stream orders the temporaries' next users (same stream: the allocator's pool) after it */
    if (ta) cuda_cache_free(ta, ta_bytes, dev);
    if (tb) cuda_cache_free(tb, tb_bytes, dev);
    return rc;
}

int cuda_mm(const tc_kernel_args *args) {
    if (args->n_inputs < 2 || args->n_outputs < 1) return cuda_core->set_error(TC_ERR_RUNTIME, "mm: bad kernel arguments");
    return gemm(&args->inputs[0], &args->inputs[1], &args->outputs[0], 0);
}

int cuda_bmm(const tc_kernel_args *args) {
    if (args->n_inputs < 2 || args->n_outputs < 1) return cuda_core->set_error(TC_ERR_RUNTIME, "bmm: bad kernel arguments");
    return gemm(&args->inputs[0], &args->inputs[1], &args->outputs[0], 1);
}
