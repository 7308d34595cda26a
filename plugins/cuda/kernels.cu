/*
 * kernels.cu - the CUDA kernels of the first cut: strided copy with dtype conversion, fill,
 * add/sub/mul/div with broadcasting, and sum. Every dtype's element type is a template argument;
 * float16 and bfloat16 compute in float, as PyTorch's kernels do.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include <type_traits>

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

// ---- the ops of one template: unary, comparisons, maximum/minimum, where, clamp ---------------------------------

// One thread per element, grid-stride: f(o) gets the element's offset in each of the N operands. Three
// kernels, so that the common layouts carry no index arithmetic: every operand dense (flat), one dim
// after coalescing (a broadcast scalar has stride 0 there), and the general strided walk.
template <int N, typename F> __global__ void for_each_flat(int64_t n, F f) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t o[N];
        for (int k = 0; k < N; k++) o[k] = i;
        f(o);
    }
}

template <int N, typename F> __global__ void for_each_1d(int64_t n, ck_iter it, F f) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t o[N];
        for (int k = 0; k < N; k++) o[k] = i * it.strides[k][0];
        f(o);
    }
}

template <int N, typename F> __global__ void for_each_strided(ck_iter it, F f) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < it.numel; i += (int64_t)gridDim.x * blockDim.x) {
        offsets<N> off(it, i);
        f(off.o);
    }
}

template <int N, typename F> int launch_each(const ck_iter *it, F f, cudaStream_t s) {
    if (it->numel == 0) return 0;
    if (dense(*it)) for_each_flat<N, F><<<grid_for(it->numel), THREADS, 0, s>>>(it->numel, f);
    else if (it->ndim == 1) for_each_1d<N, F><<<grid_for(it->numel), THREADS, 0, s>>>(it->numel, *it, f);
    else for_each_strided<N, F><<<grid_for(it->numel), THREADS, 0, s>>>(*it, f);
    return (int)cudaGetLastError();
}

template <typename A> __device__ __forceinline__ bool is_nan(A x) {
    if constexpr (std::is_floating_point<A>::value) return isnan(x);
    else return false;
}

#define MATH1(name)                                                                                                    \
    __device__ __forceinline__ float m_##name(float x) { return name##f(x); }                                         \
    __device__ __forceinline__ double m_##name(double x) { return name(x); }
MATH1(exp) MATH1(log) MATH1(sqrt) MATH1(sin) MATH1(cos) MATH1(tanh) MATH1(fabs)
#undef MATH1

template <int OP, typename A> __device__ __forceinline__ A unary_op(A x) {
    if constexpr (OP == CK_NEG) return static_cast<A>(-x);
    else if constexpr (OP == CK_ABS) {
        if constexpr (std::is_floating_point<A>::value) return m_fabs(x);
        else if constexpr (std::is_unsigned<A>::value) return x;
        else return static_cast<A>(x < 0 ? -x : x);
    } else if constexpr (OP == CK_RELU) return is_nan(x) || x > A(0) ? x : A(0);
    else if constexpr (std::is_floating_point<A>::value) {
        if constexpr (OP == CK_EXP) return m_exp(x);
        else if constexpr (OP == CK_LOG) return m_log(x);
        else if constexpr (OP == CK_SQRT) return m_sqrt(x);
        else if constexpr (OP == CK_SIN) return m_sin(x);
        else if constexpr (OP == CK_COS) return m_cos(x);
        else if constexpr (OP == CK_TANH) return m_tanh(x);
        else return A(1) / (A(1) + m_exp(-x)); // CK_SIGMOID
    } else return x; // not registered: integers take the floating ops after the core's conversion
}

template <typename T, int OP> struct unary_f {
    T *o;
    const T *a;
    __device__ __forceinline__ void operator()(const int64_t *off) const {
        typedef typename acc<T>::type A;
        o[off[0]] = convert<T, A>(unary_op<OP, A>(convert<A, T>(a[off[1]])));
    }
};

template <typename A> __device__ __forceinline__ A max_p(A x, A y) { return is_nan(x) ? x : is_nan(y) ? y : x > y ? x : y; }
template <typename A> __device__ __forceinline__ A min_p(A x, A y) { return is_nan(x) ? x : is_nan(y) ? y : x < y ? x : y; }

template <typename T, int OP> struct extreme_f {
    T *o;
    const T *a, *b;
    __device__ __forceinline__ void operator()(const int64_t *off) const {
        typedef typename acc<T>::type A;
        A x = convert<A, T>(a[off[1]]), y = convert<A, T>(b[off[2]]);
        o[off[0]] = convert<T, A>(OP == CK_MAXIMUM ? max_p(x, y) : min_p(x, y));
    }
};

template <typename T> int launch_extreme(int op, const ck_iter *it, void *o, const void *a, const void *b, cudaStream_t s) {
    if (op == CK_MAXIMUM) return launch_each<3>(it, extreme_f<T, CK_MAXIMUM>{(T *)o, (const T *)a, (const T *)b}, s);
    return launch_each<3>(it, extreme_f<T, CK_MINIMUM>{(T *)o, (const T *)a, (const T *)b}, s);
}

template <typename T, int OP> struct compare_f {
    bool *o;
    const T *a, *b;
    __device__ __forceinline__ void operator()(const int64_t *off) const {
        typedef typename acc<T>::type A;
        A x = convert<A, T>(a[off[1]]), y = convert<A, T>(b[off[2]]);
        bool r;
        if constexpr (OP == CK_EQ) r = x == y;
        else if constexpr (OP == CK_NE) r = x != y;
        else if constexpr (OP == CK_LT) r = x < y;
        else if constexpr (OP == CK_LE) r = x <= y;
        else if constexpr (OP == CK_GT) r = x > y;
        else r = x >= y;
        o[off[0]] = r;
    }
};

template <typename E> struct where_f {
    E *o;
    const uint8_t *c;
    const E *a, *b;
    __device__ __forceinline__ void operator()(const int64_t *off) const { o[off[0]] = c[off[1]] ? a[off[2]] : b[off[3]]; }
};

template <typename T> struct clamp_f {
    T *o;
    const T *x, *lo, *hi;
    __device__ __forceinline__ void operator()(const int64_t *off) const {
        typedef typename acc<T>::type A;
        A v = convert<A, T>(x[off[1]]);
        o[off[0]] = convert<T, A>(min_p(max_p(v, convert<A, T>(lo[off[2]])), convert<A, T>(hi[off[3]])));
    }
};

template <typename T> int launch_unary(int op, const ck_iter *it, void *o, const void *a, cudaStream_t s) {
#define U(OP) return launch_each<2>(it, unary_f<T, OP>{(T *)o, (const T *)a}, s)
    switch (op) {
    case CK_NEG: U(CK_NEG); case CK_ABS: U(CK_ABS); case CK_RELU: U(CK_RELU); case CK_EXP: U(CK_EXP);
    case CK_LOG: U(CK_LOG); case CK_SQRT: U(CK_SQRT); case CK_SIN: U(CK_SIN); case CK_COS: U(CK_COS);
    case CK_TANH: U(CK_TANH); case CK_SIGMOID: U(CK_SIGMOID);
    }
#undef U
    return (int)cudaErrorInvalidValue;
}

template <typename T> int launch_compare(int op, const ck_iter *it, void *o, const void *a, const void *b, cudaStream_t s) {
#define C(OP) return launch_each<3>(it, compare_f<T, OP>{(bool *)o, (const T *)a, (const T *)b}, s)
    switch (op) {
    case CK_EQ: C(CK_EQ); case CK_NE: C(CK_NE); case CK_LT: C(CK_LT); case CK_LE: C(CK_LE); case CK_GT: C(CK_GT);
    case CK_GE: C(CK_GE);
    }
#undef C
    return (int)cudaErrorInvalidValue;
}

// ---- reductions: sum, max, min -----------------------------------------------------------------------------------

// The identity of each reduction in the accumulator type A.
template <typename A> __device__ __forceinline__ A lowest();
template <typename A> __device__ __forceinline__ A highest();
#define LIMITS(A, LO, HI)                                                                                              \
    template <> __device__ __forceinline__ A lowest<A>() { return LO; }                                               \
    template <> __device__ __forceinline__ A highest<A>() { return HI; }
LIMITS(bool, false, true) LIMITS(uint8_t, 0, UINT8_MAX) LIMITS(int8_t, INT8_MIN, INT8_MAX)
LIMITS(int16_t, INT16_MIN, INT16_MAX) LIMITS(int32_t, INT32_MIN, INT32_MAX) LIMITS(int64_t, INT64_MIN, INT64_MAX)
LIMITS(float, -INFINITY, INFINITY) LIMITS(double, -(double)INFINITY, (double)INFINITY)
#undef LIMITS

template <typename A, int OP> struct reducer {
    static __device__ __forceinline__ A identity() {
        return OP == CK_RSUM ? A(0) : OP == CK_RMAX ? lowest<A>() : highest<A>();
    }
    static __device__ __forceinline__ A combine(A x, A y) {
        if constexpr (OP == CK_RSUM) return static_cast<A>(x + y);
        else if constexpr (OP == CK_RMAX) return max_p(x, y);
        else return min_p(x, y);
    }
};

// The accumulator of a reduction: float for the 16-bit floats and float32 (as PyTorch), the type itself otherwise.
template <typename A, int OP> __device__ __forceinline__ A warp_reduce(A v) {
    for (int o = 16; o > 0; o >>= 1) v = reducer<A, OP>::combine(v, static_cast<A>(__shfl_down_sync(0xffffffffu, v, o)));
    return v;
}

// One pass: each block reduces its grid-stride share of in into partial[blockIdx.x] (as accumulator type A).
template <typename T, int OP, typename In> __global__ void reduce_pass(const In *in, int64_t n, typename acc<T>::type *partial) {
    typedef typename acc<T>::type A;
    typedef reducer<A, OP> R;
    __shared__ A lanes[THREADS / 32];
    A v = R::identity();
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        v = R::combine(v, convert<A, In>(in[i]));
    v = warp_reduce<A, OP>(v);
    if ((threadIdx.x & 31) == 0) lanes[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < THREADS / 32 ? lanes[threadIdx.x] : R::identity();
        v = warp_reduce<A, OP>(v);
        if (threadIdx.x == 0) partial[blockIdx.x] = v;
    }
}

template <typename T> __global__ void store_total(T *out, const typename acc<T>::type *v) {
    *out = convert<T, typename acc<T>::type>(*v);
}

const int SUM_BLOCKS = 1024;

template <typename T, int OP> int launch_reduce_full(void *out, const void *in, int64_t n, void *scratch, cudaStream_t s) {
    typedef typename acc<T>::type A;
    A *partial = (A *)scratch, *total = partial + SUM_BLOCKS;
    int64_t blocks = (n + THREADS - 1) / THREADS;
    if (blocks > SUM_BLOCKS) blocks = SUM_BLOCKS;
    if (blocks < 1) blocks = 1;
    reduce_pass<T, OP, T><<<(unsigned)blocks, THREADS, 0, s>>>((const T *)in, n, partial);
    reduce_pass<T, OP, A><<<1, THREADS, 0, s>>>(partial, blocks, total);
    store_total<T><<<1, 1, 0, s>>>((T *)out, total);
    return (int)cudaGetLastError();
}

template <typename T, int OP> __global__ void reduce_partial(ck_iter it, T *out, const T *in, ck_iter r) {
    typedef typename acc<T>::type A;
    typedef reducer<A, OP> R;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < it.numel; i += (int64_t)gridDim.x * blockDim.x) {
        offsets<2> off(it, i);
        A v = R::identity();
        for (int64_t j = 0; j < r.numel; j++) {
            offsets<1> ro(r, j);
            v = R::combine(v, convert<A, T>(in[off.o[1] + ro.o[0]]));
        }
        out[off.o[0]] = convert<T, A>(v);
    }
}

template <typename T> int reduce_full_as(int op, void *out, const void *in, int64_t n, void *scratch, cudaStream_t s) {
    switch (op) {
    case CK_RSUM: return launch_reduce_full<T, CK_RSUM>(out, in, n, scratch, s);
    case CK_RMAX: return launch_reduce_full<T, CK_RMAX>(out, in, n, scratch, s);
    case CK_RMIN: return launch_reduce_full<T, CK_RMIN>(out, in, n, scratch, s);
    }
    return (int)cudaErrorInvalidValue;
}

template <typename T> int reduce_partial_as(int op, const ck_iter *it, void *out, const void *in, const ck_iter &r,
                                            cudaStream_t s) {
    switch (op) {
    case CK_RSUM: reduce_partial<T, CK_RSUM><<<grid_for(it->numel), THREADS, 0, s>>>(*it, (T *)out, (const T *)in, r); break;
    case CK_RMAX: reduce_partial<T, CK_RMAX><<<grid_for(it->numel), THREADS, 0, s>>>(*it, (T *)out, (const T *)in, r); break;
    case CK_RMIN: reduce_partial<T, CK_RMIN><<<grid_for(it->numel), THREADS, 0, s>>>(*it, (T *)out, (const T *)in, r); break;
    default: return (int)cudaErrorInvalidValue;
    }
    return (int)cudaGetLastError();
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
    if (op == CK_MAXIMUM || op == CK_MINIMUM) {
#define EXTREME(T) return launch_extreme<T>(op, it, c, a, b, s)
        DISPATCH(dtype, EXTREME)
#undef EXTREME
        return (int)cudaErrorInvalidValue;
    }
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
    (void)dtype;
    return (SUM_BLOCKS + 1) * 8 + 256; // the widest accumulator is 8 bytes
}

extern "C" int ck_reduce_full(int op, void *out, const void *in, int64_t n, int32_t dtype, void *scratch, void *stream) {
    cudaStream_t s = (cudaStream_t)stream;
#define FULL(T) return reduce_full_as<T>(op, out, in, n, scratch, s)
    DISPATCH(dtype, FULL)
#undef FULL
    return (int)cudaErrorInvalidValue;
}

extern "C" int ck_sum_full(void *out, const void *in, int64_t n, int32_t dtype, void *scratch, void *stream) {
    return ck_reduce_full(CK_RSUM, out, in, n, dtype, scratch, stream);
}

extern "C" int ck_reduce_partial(int op, const ck_iter *it, void *out, const void *in, int32_t rndim,
                                 const int64_t *rsizes, const int64_t *rstrides, int32_t dtype, void *stream) {
    if (it->numel == 0) return 0;
    if (rndim < 0 || rndim > CK_MAX_DIMS) return (int)cudaErrorInvalidValue;
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
#define PARTIAL(T) return reduce_partial_as<T>(op, it, out, in, r, s)
    DISPATCH(dtype, PARTIAL)
#undef PARTIAL
    return (int)cudaErrorInvalidValue;
}

extern "C" int ck_sum_partial(const ck_iter *it, void *out, const void *in, int32_t rndim, const int64_t *rsizes,
                              const int64_t *rstrides, int32_t dtype, void *stream) {
    return ck_reduce_partial(CK_RSUM, it, out, in, rndim, rsizes, rstrides, dtype, stream);
}

extern "C" int ck_unary(int op, const ck_iter *it, void *out, const void *a, int32_t dtype, void *stream) {
    cudaStream_t s = (cudaStream_t)stream;
#define UNARY(T) return launch_unary<T>(op, it, out, a, s)
    switch (dtype) {
    case DT_U8: UNARY(uint8_t); case DT_I8: UNARY(int8_t); case DT_I16: UNARY(int16_t); case DT_I32: UNARY(int32_t);
    case DT_I64: UNARY(int64_t); case DT_F16: UNARY(__half); case DT_BF16: UNARY(__nv_bfloat16);
    case DT_F32: UNARY(float); case DT_F64: UNARY(double);
    }
#undef UNARY
    return (int)cudaErrorInvalidValue;
}

extern "C" int ck_compare(int op, const ck_iter *it, void *out, const void *a, const void *b, int32_t dtype,
                          void *stream) {
    cudaStream_t s = (cudaStream_t)stream;
#define CMP(T) return launch_compare<T>(op, it, out, a, b, s)
    DISPATCH(dtype, CMP)
#undef CMP
    return (int)cudaErrorInvalidValue;
}

extern "C" int ck_where(const ck_iter *it, void *out, const void *cond, const void *a, const void *b, size_t elem_size,
                        void *stream) {
    cudaStream_t s = (cudaStream_t)stream;
    const uint8_t *c = (const uint8_t *)cond;
    switch (elem_size) {
    case 1: return launch_each<4>(it, where_f<uint8_t>{(uint8_t *)out, c, (const uint8_t *)a, (const uint8_t *)b}, s);
    case 2: return launch_each<4>(it, where_f<uint16_t>{(uint16_t *)out, c, (const uint16_t *)a, (const uint16_t *)b}, s);
    case 4: return launch_each<4>(it, where_f<uint32_t>{(uint32_t *)out, c, (const uint32_t *)a, (const uint32_t *)b}, s);
    case 8: return launch_each<4>(it, where_f<uint64_t>{(uint64_t *)out, c, (const uint64_t *)a, (const uint64_t *)b}, s);
    }
    return (int)cudaErrorInvalidValue;
}

extern "C" int ck_clamp(const ck_iter *it, void *out, const void *x, const void *lo, const void *hi, int32_t dtype,
                        void *stream) {
    cudaStream_t s = (cudaStream_t)stream;
#define CLAMP(T) return launch_each<4>(it, clamp_f<T>{(T *)out, (const T *)x, (const T *)lo, (const T *)hi}, s)
    DISPATCH(dtype, CLAMP)
#undef CLAMP
    return (int)cudaErrorInvalidValue;
}
