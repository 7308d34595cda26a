/*
 * kernels.cu - the CUDA kernels of the first cut: strided copy with dtype conversion, fill,
 * add/sub/mul/div with broadcasting, and sum. Every dtype's element type is a template argument;
 * float16 and bfloat16 compute in float, as PyTorch's kernels do.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda_kernels.h"

namespace {

// tc_dtype numbering (tc_abi.h)
enum { DT_BOOL = 0, DT_U8, DT_I8, DT_I16, DT_I32, DT_I64, DT_F16, DT_BF16, DT_F32, DT_F64 };

// Loading any element as its computing type, and storing back.
template <typename T> struct acc { typedef T type; };
template <> struct acc<__half> { typedef float type; };
template <> struct acc<__nv_bfloat16> { typedef float type; };

template <typename D, typename S> __device__ __forceinline__ D convert(S v) { return static_cast<D>(v); }
// floating -> the narrow integers goes through int64 (wrapping, as PyTorch's static_cast_with_inter_type
// does: -2.0 -> uint8 is 254, where a direct conversion saturates on the GPU)
#define VIA_INT64(D, S) template <> __device__ __forceinline__ D convert<D, S>(S v) { return static_cast<D>(static_cast<int64_t>(v)); }
VIA_INT64(uint8_t, float) VIA_INT64(uint8_t, double) VIA_INT64(int8_t, float) VIA_INT64(int8_t, double)
VIA_INT64(int16_t, float) VIA_INT64(int16_t, double)
#undef VIA_INT64
// through float for the two 16-bit floating types, both ways
#define VIA_FLOAT(D, S) template <> __device__ __forceinline__ D convert<D, S>(S v) { return static_cast<D>(static_cast<float>(v)); }
#define TO_HALFS(S)                                                                                                    \
    template <> __device__ __forceinline__ __half convert<__half, S>(S v) { return __float2half(static_cast<float>(v)); } \
    template <> __device__ __forceinline__ __nv_bfloat16 convert<__nv_bfloat16, S>(S v) {                             \
        return __float2bfloat16(static_cast<float>(v));                                                               \
    }
TO_HALFS(bool) TO_HALFS(uint8_t) TO_HALFS(int8_t) TO_HALFS(int16_t) TO_HALFS(int32_t) TO_HALFS(int64_t)
TO_HALFS(float) TO_HALFS(double)
template <> __device__ __forceinline__ __half convert<__half, __half>(__half v) { return v; }
template <> __device__ __forceinline__ __nv_bfloat16 convert<__nv_bfloat16, __nv_bfloat16>(__nv_bfloat16 v) { return v; }
template <> __device__ __forceinline__ __half convert<__half, __nv_bfloat16>(__nv_bfloat16 v) { return __float2half(__bfloat162float(v)); }
template <> __device__ __forceinline__ __nv_bfloat16 convert<__nv_bfloat16, __half>(__half v) { return __float2bfloat16(__half2float(v)); }
#define FROM_HALFS(D)                                                                                                  \
    template <> __device__ __forceinline__ D convert<D, __half>(__half v) { return static_cast<D>(__half2float(v)); }   \
    template <> __device__ __forceinline__ D convert<D, __nv_bfloat16>(__nv_bfloat16 v) {                             \
        return static_cast<D>(__bfloat162float(v));                                                                   \
    }
#define FROM_HALFS_VIA_INT64(D)                                                                                        \
    template <> __device__ __forceinline__ D convert<D, __half>(__half v) { return static_cast<D>(static_cast<int64_t>(__half2float(v))); } \
    template <> __device__ __forceinline__ D convert<D, __nv_bfloat16>(__nv_bfloat16 v) {                             \
        return static_cast<D>(static_cast<int64_t>(__bfloat162float(v)));                                           \
    }
FROM_HALFS_VIA_INT64(uint8_t) FROM_HALFS_VIA_INT64(int8_t) FROM_HALFS_VIA_INT64(int16_t) FROM_HALFS(int32_t)
FROM_HALFS(int64_t) FROM_HALFS(float) FROM_HALFS(double)
template <> __device__ __forceinline__ bool convert<bool, __half>(__half v) { return __half2float(v) != 0.0f; }
template <> __device__ __forceinline__ bool convert<bool, __nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v) != 0.0f; }
template <> __device__ __forceinline__ bool convert<bool, float>(float v) { return v != 0.0f; }
template <> __device__ __forceinline__ bool convert<bool, double>(double v) { return v != 0.0; }
#undef VIA_FLOAT

// The offsets of element i in each of N operands (it.sizes/strides, innermost dim last).
template <int N> struct offsets {
    int64_t o[N];
    __device__ __forceinline__ offsets(const ck_iter &it, int64_t i) {
        for (int k = 0; k < N; k++) o[k] = 0;
        for (int d = it.ndim - 1; d >= 0; d--) {
            int64_t size = it.sizes[d];
            int64_t q = i / size, r = i - q * size;
            for (int k = 0; k < N; k++) o[k] += r * it.strides[k][d];
            i = q;
        }
    }
};

const int THREADS = 256;

static unsigned grid_for(int64_t n) {
    int64_t blocks = (n + THREADS - 1) / THREADS;
    if (blocks > 65535LL * 8) blocks = 65535LL * 8; // grid-stride loops cover the rest
    return (unsigned)(blocks < 1 ? 1 : blocks);
}

static bool dense(const ck_iter &it) {
    if (it.ndim > 1) return false;
    for (int k = 0; k < it.n_operands; k++)
        if (it.ndim == 1 && it.strides[k][0] != 1) return false;
    return true;
}

// ---- copy ----------------------------------------------------------------------------------------------------

template <typename D, typename S> __global__ void copy_dense(D *dst, const S *src, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = convert<D, S>(src[i]);
}

template <typename D, typename S> __global__ void copy_strided(ck_iter it, D *dst, const S *src) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < it.numel; i += (int64_t)gridDim.x * blockDim.x) {
        offsets<2> off(it, i);
        dst[off.o[0]] = convert<D, S>(src[off.o[1]]);
    }
}

template <typename D, typename S> int launch_copy(const ck_iter *it, void *dst, const void *src, cudaStream_t s) {
    if (dense(*it))
        copy_dense<D, S><<<grid_for(it->numel), THREADS, 0, s>>>((D *)dst, (const S *)src, it->numel);
    else
        copy_strided<D, S><<<grid_for(it->numel), THREADS, 0, s>>>(*it, (D *)dst, (const S *)src);
    return (int)cudaGetLastError();
}

template <typename D> int copy_from(int32_t src_dtype, const ck_iter *it, void *dst, const void *src, cudaStream_t s) {
    switch (src_dtype) {
    case DT_BOOL: return launch_copy<D, bool>(it, dst, src, s);
    case DT_U8: return launch_copy<D, uint8_t>(it, dst, src, s);
    case DT_I8: return launch_copy<D, int8_t>(it, dst, src, s);
    case DT_I16: return launch_copy<D, int16_t>(it, dst, src, s);
    case DT_I32: return launch_copy<D, int32_t>(it, dst, src, s);
    case DT_I64: return launch_copy<D, int64_t>(it, dst, src, s);
    case DT_F16: return launch_copy<D, __half>(it, dst, src, s);
    case DT_BF16: return launch_copy<D, __nv_bfloat16>(it, dst, src, s);
    case DT_F32: return launch_copy<D, float>(it, dst, src, s);
    case DT_F64: return launch_copy<D, double>(it, dst, src, s);
    }
    return (int)cudaErrorInvalidValue;
}

// ---- fill ----------------------------------------------------------------------------------------------------

template <typename T> __global__ void fill_strided(ck_iter it, T *dst, T v) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < it.numel; i += (int64_t)gridDim.x * blockDim.x) {
        offsets<1> off(it, i);
        dst[off.o[0]] = v;
    }
}

template <typename T> int launch_fill(const ck_iter *it, void *dst, T v, cudaStream_t s) {
    fill_strided<T><<<grid_for(it->numel), THREADS, 0, s>>>(*it, (T *)dst, v);
    return (int)cudaGetLastError();
}

// ---- binary ops ----------------------------------------------------------------------------------------------

template <typename T, int OP> __device__ __forceinline__ T apply(T a, T b, T alpha) {
    typedef typename acc<T>::type A;
    A x = convert<A, T>(a), y = convert<A, T>(b);
    A r;
    if (OP == CK_ADD) r = x + convert<A, T>(alpha) * y;
    else if (OP == CK_SUB) r = x - convert<A, T>(alpha) * y;
    else if (OP == CK_MUL) r = x * y;
    else r = x / y;
    return convert<T, A>(r);
}

template <typename T, int OP> __global__ void binary_dense(T *c, const T *a, const T *b, T alpha, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        c[i] = apply<T, OP>(a[i], b[i], alpha);
}

template <typename T, int OP> __global__ void binary_strided(ck_iter it, T *c, const T *a, const T *b, T alpha) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < it.numel; i += (int64_t)gridDim.x * blockDim.x) {
        offsets<3> off(it, i);
        c[off.o[0]] = apply<T, OP>(a[off.o[1]], b[off.o[2]], alpha);
    }
}

template <typename T, int OP> int launch_binary_op(const ck_iter *it, void *c, const void *a, const void *b, T alpha,
                                                   cudaStream_t s) {
    if (dense(*it))
        binary_dense<T, OP><<<grid_for(it->numel), THREADS, 0, s>>>((T *)c, (const T *)a, (const T *)b, alpha, it->numel);
    else
        binary_strided<T, OP><<<grid_for(it->numel), THREADS, 0, s>>>(*it, (T *)c, (const T *)a, (const T *)b, alpha);
    return (int)cudaGetLastError();
}

template <typename T> int launch_binary(int op, const ck_iter *it, void *c, const void *a, const void *b, T alpha,
                                        cudaStream_t s) {
    switch (op) {
    case CK_ADD: return launch_binary_op<T, CK_ADD>(it, c, a, b, alpha, s);
    case CK_SUB: return launch_binary_op<T, CK_SUB>(it, c, a, b, alpha, s);
    case CK_MUL: return launch_binary_op<T, CK_MUL>(it, c, a, b, alpha, s);
    case CK_DIV: return launch_binary_op<T, CK_DIV>(it, c, a, b, alpha, s);
    }
    return (int)cudaErrorInvalidValue;
}

// ---- sum -----------------------------------------------------------------------------------------------------

// The accumulator of a sum: float for the 16-bit floats and float32 (as PyTorch), the type itself otherwise.
template <typename T> __device__ __forceinline__ typename acc<T>::type warp_sum(typename acc<T>::type v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// One pass: each block sums its grid-stride share of in into partial[blockIdx.x] (as accumulator type A).
template <typename T, typename In> __global__ void sum_pass(const In *in, int64_t n, typename acc<T>::type *partial) {
    typedef typename acc<T>::type A;
    __shared__ A lanes[THREADS / 32];
    A v = A(0);
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        v += convert<A, In>(in[i]);
    v = warp_sum<T>(v);
    if ((threadIdx.x & 31) == 0) lanes[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < THREADS / 32 ? lanes[threadIdx.x] : A(0);
        v = warp_sum<T>(v);
        if (threadIdx.x == 0) partial[blockIdx.x] = v;
    }
}

template <typename T> __global__ void store_sum(T *out, const typename acc<T>::type *v) {
    *out = convert<T, typename acc<T>::type>(*v);
}

const int SUM_BLOCKS = 1024;

template <typename T> int launch_sum_full(void *out, const void *in, int64_t n, void *scratch, cudaStream_t s) {
    typedef typename acc<T>::type A;
    A *partial = (A *)scratch, *total = partial + SUM_BLOCKS;
    int64_t blocks = (n + THREADS - 1) / THREADS;
    if (blocks > SUM_BLOCKS) blocks = SUM_BLOCKS;
    if (blocks < 1) blocks = 1;
    sum_pass<T, T><<<(unsigned)blocks, THREADS, 0, s>>>((const T *)in, n, partial);
    sum_pass<T, A><<<1, THREADS, 0, s>>>(partial, blocks, total);
    store_sum<T><<<1, 1, 0, s>>>((T *)out, total);
    return (int)cudaGetLastError();
}

template <typename T> __global__ void sum_partial(ck_iter it, T *out, const T *in, int32_t rndim, ck_iter r) {
    typedef typename acc<T>::type A;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < it.numel; i += (int64_t)gridDim.x * blockDim.x) {
        offsets<2> off(it, i);
        A v = A(0);
        for (int64_t j = 0; j < r.numel; j++) {
            offsets<1> ro(r, j);
            v += convert<A, T>(in[off.o[1] + ro.o[0]]);
        }
        out[off.o[0]] = convert<T, A>(v);
    }
}

} // namespace

#define DISPATCH(dtype, MACRO)                                                                                         \
    switch (dtype) {                                                                                                   \
    case DT_BOOL: MACRO(bool); case DT_U8: MACRO(uint8_t); case DT_I8: MACRO(int8_t); case DT_I16: MACRO(int16_t);     \
    case DT_I32: MACRO(int32_t); case DT_I64: MACRO(int64_t); case DT_F16: MACRO(__half);                             \
    case DT_BF16: MACRO(__nv_bfloat16); case DT_F32: MACRO(float); case DT_F64: MACRO(double);                        \
    }

extern "C" int ck_dtype_supported(int32_t dtype) { return dtype >= DT_BOOL && dtype <= DT_F64; }

extern "C" int ck_copy(const ck_iter *it, void *dst, int32_t dst_dtype, const void *src, int32_t src_dtype, void *stream) {
    if (it->numel == 0) return 0;
#define COPY(T) return copy_from<T>(src_dtype, it, dst, src, (cudaStream_t)stream)
    DISPATCH(dst_dtype, COPY)
#undef COPY
    return (int)cudaErrorInvalidValue;
}

extern "C" int ck_fill(const ck_iter *it, void *dst, int32_t dtype, double f, int64_t iv, int is_float, void *stream) {
    if (it->numel == 0) return 0;
    cudaStream_t s = (cudaStream_t)stream;
    switch (dtype) {
    case DT_BOOL: return launch_fill<bool>(it, dst, is_float ? f != 0.0 : iv != 0, s);
    case DT_U8: return launch_fill<uint8_t>(it, dst, (uint8_t)(is_float ? (int64_t)f : iv), s);
    case DT_I8: return launch_fill<int8_t>(it, dst, (int8_t)(is_float ? (int64_t)f : iv), s);
    case DT_I16: return launch_fill<int16_t>(it, dst, (int16_t)(is_float ? (int64_t)f : iv), s);
    case DT_I32: return launch_fill<int32_t>(it, dst, (int32_t)(is_float ? (int64_t)f : iv), s);
    case DT_I64: return launch_fill<int64_t>(it, dst, is_float ? (int64_t)f : iv, s);
    case DT_F16: return launch_fill<__half>(it, dst, __double2half(is_float ? f : (double)iv), s);
    case DT_BF16: return launch_fill<__nv_bfloat16>(it, dst, __double2bfloat16(is_float ? f : (double)iv), s);
    case DT_F32: return launch_fill<float>(it, dst, (float)(is_float ? f : (double)iv), s);
    case DT_F64: return launch_fill<double>(it, dst, is_float ? f : (double)iv, s);
    }
    return (int)cudaErrorInvalidValue;
}

extern "C" int ck_binary(int op, const ck_iter *it, void *c, const void *a, const void *b, int32_t dtype, double alpha,
                         int64_t ialpha, void *stream) {
    if (it->numel == 0) return 0;
    cudaStream_t s = (cudaStream_t)stream;
    switch (dtype) {
    case DT_U8: return launch_binary<uint8_t>(op, it, c, a, b, (uint8_t)ialpha, s);
    case DT_I8: return launch_binary<int8_t>(op, it, c, a, b, (int8_t)ialpha, s);
    case DT_I16: return launch_binary<int16_t>(op, it, c, a, b, (int16_t)ialpha, s);
    case DT_I32: return launch_binary<int32_t>(op, it, c, a, b, (int32_t)ialpha, s);
    case DT_I64: return launch_binary<int64_t>(op, it, c, a, b, ialpha, s);
    case DT_F16: return launch_binary<__half>(op, it, c, a, b, __double2half(alpha), s);
    case DT_BF16: return launch_binary<__nv_bfloat16>(op, it, c, a, b, __double2bfloat16(alpha), s);
    case DT_F32: return launch_binary<float>(op, it, c, a, b, (float)alpha, s);
    case DT_F64: return launch_binary<double>(op, it, c, a, b, alpha, s);
    }
    return (int)cudaErrorInvalidValue;
}

extern "C" size_t ck_sum_scratch_bytes(int64_t n, int32_t dtype) {
    (void)n;
    return (SUM_BLOCKS + 1) * (dtype == DT_F64 || dtype == DT_I64 ? 8 : dtype == DT_I32 ? 4 : 4) + 256;
}

extern "C" int ck_sum_full(void *out, const void *in, int64_t n, int32_t dtype, void *scratch, void *stream) {
    cudaStream_t s = (cudaStream_t)stream;
    switch (dtype) {
    case DT_I32: return launch_sum_full<int32_t>(out, in, n, scratch, s);
    case DT_I64: return launch_sum_full<int64_t>(out, in, n, scratch, s);
    case DT_F16: return launch_sum_full<__half>(out, in, n, scratch, s);
    case DT_BF16: return launch_sum_full<__nv_bfloat16>(out, in, n, scratch, s);
    case DT_F32: return launch_sum_full<float>(out, in, n, scratch, s);
    case DT_F64: return launch_sum_full<double>(out, in, n, scratch, s);
    }
    return (int)cudaErrorInvalidValue;
}

extern "C" int ck_sum_partial(const ck_iter *it, void *out, const void *in, int32_t rndim, const int64_t *rsizes,
                              const int64_t *rstrides, int32_t dtype, void *stream) {
    if (it->numel == 0) return 0;
    if (rndim > CK_MAX_DIMS) return (int)cudaErrorInvalidValue;
    ck_iter r = {};
    r.ndim = rndim;
    r.n_operands = 1;
    r.numel = 1;
    for (int d = 0; d < rndim; d++) {
        r.sizes[d] = rsizes[d];
        r.strides[0][d] = rstrides[d];
        r.numel *= rsizes[d];
    }
    cudaStream_t s = (cudaStream_t)stream;
#define PARTIAL(T)                                                                                                     \
    sum_partial<T><<<grid_for(it->numel), THREADS, 0, s>>>(*it, (T *)out, (const T *)in, rndim, r);                   \
    return (int)cudaGetLastError()
    switch (dtype) {
    case DT_I32: PARTIAL(int32_t);
    case DT_I64: PARTIAL(int64_t);
    case DT_F16: PARTIAL(__half);
    case DT_BF16: PARTIAL(__nv_bfloat16);
    case DT_F32: PARTIAL(float);
    case DT_F64: PARTIAL(double);
    }
#undef PARTIAL
    return (int)cudaErrorInvalidValue;
}
