/*
 * plugin.c - the "cuda" device plugin: descriptor and probe, the device type (count, copies,
 * synchronize), the caching allocator's registration, and the kernels of the first cut (copy, fill,
 * add/sub/mul/div, sum, mm, bmm; docs/cuda.md lists what exists and what does not yet).
 *
 * The CUDA runtime is linked statically (it dlopens the driver, libcuda.so.1, when first called), so
 * the plugin loads on any machine: without a driver or a device its probe answers "not supported"
 * with the runtime's reason, and the core never registers the device type.
 *
 * Besides the ABI entry point the plugin exports a few tc_cuda_* functions that torch.cuda calls
 * through ctypes (device names, the current device, peak reset): the device-type descriptor of ABI
 * 1.3 has no slot for them yet.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cuda_kernels.h"
#include "cuda_plugin.h"

const tc_core_api *cuda_core;
int32_t cuda_device_type = -1;
int32_t cuda_num_devices;
static __thread int current_device = -1; /* what this thread last made current, -1: unknown */
static int default_device;               /* torch.cuda.set_device */
#define MAX_STREAM_DEVICES 16
/* torch.cuda.set_stream / torch.cuda.stream(): this thread's current stream per device (NULL: the
 * legacy default stream, PyTorch's default stream too). The core passes no stream (tc_kernel_args
 * .stream is NULL), so every kernel, copy and allocation of this plugin runs on this one. */
static __thread cudaStream_t current_stream[MAX_STREAM_DEVICES];

void *cuda_current_stream(int32_t index) {
    return index >= 0 && index < MAX_STREAM_DEVICES ? (void *)current_stream[index] : NULL;
}

/* The stream a kernel runs on: the core's when it gives one, else the thread's current stream. */
static cudaStream_t stream_of(const tc_kernel_args *a, int32_t device) {
    return a->stream ? (cudaStream_t)a->stream : (cudaStream_t)cuda_current_stream(device);
}

int cuda_fail(cudaError_t err, const char *what) {
    cudaGetLastError(); /* clear a non-sticky error so that the next call starts clean */
    return cuda_core->set_error(err == cudaErrorMemoryAllocation ? TC_ERR_OUT_OF_MEMORY : TC_ERR_RUNTIME,
                                "CUDA error: %s (%s) in %s", cudaGetErrorString(err), cudaGetErrorName(err), what);
}

int cuda_use_device(int32_t index) {
    if (index < 0 || index >= cuda_num_devices)
        return cuda_core->set_error(TC_ERR_RUNTIME, "CUDA error: invalid device ordinal %d (%d devices)", index,
                                    cuda_num_devices);
    if (current_device == index) return TC_OK;
    cudaError_t e = cudaSetDevice(index);
    if (e) return cuda_fail(e, "cudaSetDevice");
    current_device = index;
    return TC_OK;
}

/* ---- the device type -------------------------------------------------------------------------- */

static int32_t device_count(void) { return cuda_num_devices; }

/* Whether host memory is page-locked (torch's pin_memory: cudaHostAlloc). */
static int is_pinned(const void *p) {
    struct cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return at.type == cudaMemoryTypeHost;
}

/* Host<->device copies run on the current stream. From pinned host memory the copy to the device is
 * asynchronous (PyTorch's non_blocking=True: the source must stay unchanged until the stream has
 * passed it); every other host copy waits for the stream, so the host sees the data on return. */
static int device_copy(void *dst, tc_device dd, const void *src, tc_device sd, size_t nbytes, void *stream) {
    cudaError_t e;
    if (sd.type == TC_DEVICE_CPU || dd.type == TC_DEVICE_CPU) {
        int to_device = sd.type == TC_DEVICE_CPU;
        int32_t dev = to_device ? dd.index : sd.index;
        if (cuda_use_device(dev)) return TC_FAIL;
        cudaStream_t s = stream ? (cudaStream_t)stream : (cudaStream_t)cuda_current_stream(dev);
        const void *host = to_device ? src : dst;
        if (!is_pinned(host)) { /* pageable: cudaMemcpy orders after the legacy stream; wait for s first */
            if (s && (e = cudaStreamSynchronize(s)) != cudaSuccess) return cuda_fail(e, "cudaStreamSynchronize");
            e = cudaMemcpy(dst, src, nbytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
        } else {
            e = cudaMemcpyAsync(dst, src, nbytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s);
            if (!e && !to_device) e = cudaStreamSynchronize(s);
        }
    } else if (dd.type == cuda_device_type && sd.type == cuda_device_type) {
        if (cuda_use_device(dd.index)) return TC_FAIL;
        cudaStream_t s = stream ? (cudaStream_t)stream : (cudaStream_t)cuda_current_stream(dd.index);
        e = dd.index == sd.index ? cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, s)
                                 : cudaMemcpyPeerAsync(dst, dd.index, src, sd.index, nbytes, s);
    } else {
        return cuda_core->set_error(TC_ERR_NOT_IMPLEMENTED,
                                    "copy between cuda and another device type is not supported");
    }
    return e ? cuda_fail(e, "cudaMemcpy") : TC_OK;
}

static int device_synchronize(int32_t index) {
    if (cuda_use_device(index < 0 ? default_device : index)) return TC_FAIL;
    cudaError_t e = cudaDeviceSynchronize();
    return e ? cuda_fail(e, "cudaDeviceSynchronize") : TC_OK;
}

static const tc_device_type_desc device_desc = {
    .struct_size = sizeof(tc_device_type_desc),
    .name = "cuda",
    .device_count = device_count,
    .copy = device_copy,
    .synchronize = device_synchronize,
};

/* ---- iterators: the kernel views, coalesced -------------------------------------------------------------- */

/* Operands 0..n-1 over `ndim` sizes: size-1 dims dropped, runs that are dense in every operand merged. */
static int coalesce(ck_iter *it, int n, int32_t ndim, const int64_t *sizes, const int64_t *const *strides) {
    memset(it, 0, sizeof *it);
    it->n_operands = n;
    it->numel = 1;
    int32_t out = 0;
    for (int32_t d = 0; d < ndim; d++) {
        it->numel *= sizes[d];
        if (sizes[d] == 1) continue;
        if (out > 0) {
            int mergeable = 1;
            for (int k = 0; k < n; k++)
                if (it->strides[k][out - 1] != strides[k][d] * sizes[d]) mergeable = 0;
            if (mergeable) {
                it->sizes[out - 1] *= sizes[d];
                for (int k = 0; k < n; k++) it->strides[k][out - 1] = strides[k][d];
                continue;
            }
        }
        if (out == CK_MAX_DIMS)
            return cuda_core->set_error(TC_ERR_NOT_IMPLEMENTED,
                                        "CUDA kernels: more than %d non-mergeable dimensions are not supported yet",
                                        CK_MAX_DIMS);
        it->sizes[out] = sizes[d];
        for (int k = 0; k < n; k++) it->strides[k][out] = strides[k][d];
        out++;
    }
    it->ndim = out;
    return TC_OK;
}

/* An elementwise call: the iterator, and each input's data on the device. An input on the CPU may only
 * be a single element (a wrapped Python number, or a 0-dim CPU tensor, which PyTorch accepts beside
 * cuda tensors): it is copied to a device temporary on the call's stream and read broadcast. */
typedef struct {
    ck_iter it;
    const void *in[CK_MAX_OPERANDS];
    void *tmp[CK_MAX_OPERANDS];
    size_t tmp_bytes;
    int32_t dev;
    cudaStream_t stream;
} ew_call;

static int ew_done(ew_call *c, int err, const char *op) {
    for (int i = 0; i < CK_MAX_OPERANDS; i++)
        if (c->tmp[i]) cuda_cache_free(c->tmp[i], c->tmp_bytes, c->dev); /* stream-ordered: safe to reuse */
    return err ? cuda_fail((cudaError_t)err, op) : TC_OK;
}

/* The iterator of an elementwise kernel: outputs[0], then inputs[0..n_in-1], all at the output's sizes. */
static int elementwise_iter(const tc_kernel_args *a, int n_in, ew_call *c, const char *op) {
    memset(c, 0, sizeof *c);
    if (a->n_outputs < 1 || a->n_inputs < n_in || n_in + 1 > CK_MAX_OPERANDS)
        return cuda_core->set_error(TC_ERR_RUNTIME, "%s: the CUDA kernel got %d inputs and %d outputs", op,
                                    a->n_inputs, a->n_outputs);
    const tc_view *o = &a->outputs[0];
    static const int64_t zeros[TC_MAX_DIMS];
    const int64_t *strides[CK_MAX_OPERANDS] = {o->strides};
    c->dev = o->device.index;
    if (cuda_use_device(c->dev)) return TC_FAIL;
    c->stream = stream_of(a, c->dev);
    c->tmp_bytes = 8;
    for (int i = 0; i < n_in; i++) {
        const tc_view *v = &a->inputs[i];
        if (v->ndim != o->ndim)
            return cuda_core->set_error(TC_ERR_RUNTIME, "%s: input %d has %d dims, the output %d", op, i, v->ndim,
                                        o->ndim);
        strides[i + 1] = v->strides;
        c->in[i] = v->data;
        if (v->device.type == TC_DEVICE_CPU) {
            for (int32_t d = 0; d < v->ndim; d++)
                if (v->strides[d] != 0 && v->sizes[d] != 1)
                    return cuda_core->set_error(TC_ERR_RUNTIME, "Expected all tensors to be on the same device, but "
                                                "found at least two devices, cuda:%d and cpu!", c->dev);
            size_t es = cuda_core->dtype_size(v->dtype);
            if (es > c->tmp_bytes) return cuda_core->set_error(TC_ERR_RUNTIME, "%s: a %zu-byte scalar", op, es);
            if (!(c->tmp[i] = cuda_cache_alloc(c->tmp_bytes, c->dev))) return ew_done(c, 0, op), TC_FAIL;
            cudaError_t e = cudaMemcpyAsync(c->tmp[i], v->data, es, cudaMemcpyHostToDevice, c->stream);
            if (e) return ew_done(c, (int)e, "a CPU scalar's copy");
            c->in[i] = c->tmp[i];
            strides[i + 1] = zeros;
        } else if (v->device.index != c->dev) {
            ew_done(c, 0, op);
            return cuda_core->set_error(TC_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at "
                                        "least two devices, cuda:%d and cuda:%d!", c->dev, v->device.index);
        }
    }
    if (coalesce(&c->it, n_in + 1, o->ndim, o->sizes, strides)) return ew_done(c, 0, op), TC_FAIL;
    return TC_OK;
}

static int launched(int err, const char *op) { return err ? cuda_fail((cudaError_t)err, op) : TC_OK; }

/* ---- kernels ------------------------------------------------------------------------------------------------ */

static int k_copy(const tc_kernel_args *a) {
    ew_call c;
    if (!ck_dtype_supported(a->n_inputs > 0 ? a->inputs[0].dtype : -1))
        return cuda_core->set_error(TC_ERR_NOT_IMPLEMENTED, "\"copy_cuda\" not implemented for '%s'",
                                    a->n_inputs > 0 ? cuda_core->dtype_name(a->inputs[0].dtype) : "?");
    if (elementwise_iter(a, 1, &c, "copy")) return TC_FAIL;
    return ew_done(&c, ck_copy(&c.it, a->outputs[0].data, a->outputs[0].dtype, c.in[0], a->inputs[0].dtype, c.stream),
                   "copy");
}

static int k_fill(const tc_kernel_args *a) {
    ew_call c;
    if (a->n_scalars < 1) return cuda_core->set_error(TC_ERR_RUNTIME, "fill: no value");
    if (elementwise_iter(a, 0, &c, "fill")) return TC_FAIL;
    const tc_scalar *s = &a->scalars[0];
    int is_float = s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX;
    return ew_done(&c, ck_fill(&c.it, a->outputs[0].data, a->outputs[0].dtype, is_float ? s->v.f : 0.0,
                               is_float ? 0 : s->v.i, is_float, c.stream), "fill");
}

static int binary(const tc_kernel_args *a, int op, const char *name) {
    ew_call c;
    if (elementwise_iter(a, 2, &c, name)) return TC_FAIL;
    double alpha = 1.0;
    int64_t ialpha = 1;
    if ((op == CK_ADD || op == CK_SUB) && a->n_scalars > 0) {
        const tc_scalar *s = &a->scalars[0];
        if (s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX) alpha = s->v.f, ialpha = (int64_t)s->v.f;
        else alpha = (double)s->v.i, ialpha = s->v.i;
    }
    return ew_done(&c, ck_binary(op, &c.it, a->outputs[0].data, c.in[0], c.in[1], a->outputs[0].dtype, alpha, ialpha,
                                 c.stream), name);
}

static int k_add(const tc_kernel_args *a) { return binary(a, CK_ADD, "add"); }
static int k_sub(const tc_kernel_args *a) { return binary(a, CK_SUB, "sub"); }
static int k_mul(const tc_kernel_args *a) { return binary(a, CK_MUL, "mul"); }
static int k_div(const tc_kernel_args *a) { return binary(a, CK_DIV, "div"); }
static int k_maximum(const tc_kernel_args *a) { return binary(a, CK_MAXIMUM, "maximum"); }
static int k_minimum(const tc_kernel_args *a) { return binary(a, CK_MINIMUM, "minimum"); }

static int unary(const tc_kernel_args *a, int op, const char *name) {
    ew_call c;
    if (elementwise_iter(a, 1, &c, name)) return TC_FAIL;
    return ew_done(&c, ck_unary(op, &c.it, a->outputs[0].data, c.in[0], a->outputs[0].dtype, c.stream), name);
}
#define UNARY_KERNEL(name, OP) \
    static int k_##name(const tc_kernel_args *a) { return unary(a, OP, #name); }
UNARY_KERNEL(neg, CK_NEG)
UNARY_KERNEL(abs, CK_ABS)
UNARY_KERNEL(relu, CK_RELU)
UNARY_KERNEL(exp, CK_EXP)
UNARY_KERNEL(log, CK_LOG)
UNARY_KERNEL(sqrt, CK_SQRT)
UNARY_KERNEL(sin, CK_SIN)
UNARY_KERNEL(cos, CK_COS)
UNARY_KERNEL(tanh, CK_TANH)
UNARY_KERNEL(sigmoid, CK_SIGMOID)

/* Comparisons: inputs of the kernel's dtype (the core converts them), a bool output. */
static int compare(const tc_kernel_args *a, int op, const char *name) {
    ew_call c;
    if (elementwise_iter(a, 2, &c, name)) return TC_FAIL;
    return ew_done(&c, ck_compare(op, &c.it, a->outputs[0].data, c.in[0], c.in[1], a->inputs[0].dtype, c.stream),
                   name);
}
#define COMPARE_KERNEL(name, OP) \
    static int k_##name(const tc_kernel_args *a) { return compare(a, OP, #name); }
COMPARE_KERNEL(eq, CK_EQ)
COMPARE_KERNEL(ne, CK_NE)
COMPARE_KERNEL(lt, CK_LT)
COMPARE_KERNEL(le, CK_LE)
COMPARE_KERNEL(gt, CK_GT)
COMPARE_KERNEL(ge, CK_GE)

/* where(cond, a, b): cond bool or uint8, a and b of the output's dtype, all at the output's sizes. */
static int k_where(const tc_kernel_args *a) {
    ew_call c;
    if (a->n_inputs < 3 || cuda_core->dtype_size(a->inputs[0].dtype) != 1)
        return cuda_core->set_error(TC_ERR_RUNTIME, "where: the condition must be bool or uint8");
    if (elementwise_iter(a, 3, &c, "where")) return TC_FAIL;
    return ew_done(&c, ck_where(&c.it, a->outputs[0].data, c.in[0], c.in[1], c.in[2],
                                cuda_core->dtype_size(a->outputs[0].dtype), c.stream), "where");
}

/* clamp(self, min, max): the core makes both bounds tensors (an absent one open: +-inf or the limits). */
static int k_clamp(const tc_kernel_args *a) {
    ew_call c;
    if (elementwise_iter(a, 3, &c, "clamp")) return TC_FAIL;
    return ew_done(&c, ck_clamp(&c.it, a->outputs[0].data, c.in[0], c.in[1], c.in[2], a->outputs[0].dtype, c.stream),
                   "clamp");
}

/* sum, max, min: the dims where the output has size 1 and the input not are reduced. */
static int reduce(const tc_kernel_args *a, int op);
static int reduce(const tc_kernel_args *a, int op) {
    if (a->n_inputs < 1 || a->n_outputs < 1) return cuda_core->set_error(TC_ERR_RUNTIME, "sum: bad kernel arguments");
    const tc_view *in = &a->inputs[0], *out = &a->outputs[0];
    if (in->ndim != out->ndim) return cuda_core->set_error(TC_ERR_RUNTIME, "sum: input and output ndim differ");
    int32_t dev = out->device.index;
    if (cuda_use_device(dev)) return TC_FAIL;
    cudaStream_t stream = stream_of(a, dev);
    if (in->dtype != out->dtype) { /* sum's int64 kernel gets narrower integers and bool as they are: widen first */
        tc_view conv = *in;
        int64_t n = 1, dense_strides[TC_MAX_DIMS];
        if (in->ndim > TC_MAX_DIMS) return cuda_core->set_error(TC_ERR_RUNTIME, "sum: too many dims");
        for (int32_t d = in->ndim - 1; d >= 0; d--) {
            dense_strides[d] = n;
            if (__builtin_mul_overflow(n, in->sizes[d], &n))
                return cuda_core->set_error(TC_ERR_RUNTIME, "sum: the input's size overflows");
        }
        size_t bytes;
        if (__builtin_mul_overflow((size_t)n, cuda_core->dtype_size(out->dtype), &bytes))
            return cuda_core->set_error(TC_ERR_RUNTIME, "sum: the input's size overflows");
        ck_iter cp;
        conv.strides = dense_strides;
        const int64_t *st2[2] = {dense_strides, in->strides};
        if (coalesce(&cp, 2, in->ndim, in->sizes, st2)) return TC_FAIL;
        if (!(conv.data = cuda_cache_alloc(bytes, dev))) return TC_FAIL;
        conv.dtype = out->dtype;
        int err = ck_copy(&cp, conv.data, out->dtype, in->data, in->dtype, stream);
        tc_kernel_args b = *a;
        b.inputs = &conv;
        b.stream = stream;
        int rc = err ? launched(err, "sum") : reduce(&b, op);
        cuda_cache_free(conv.data, bytes, dev);
        return rc;
    }
    int64_t keep_sizes[TC_MAX_DIMS], keep_in[TC_MAX_DIMS], keep_out[TC_MAX_DIMS];
    int64_t red_sizes[TC_MAX_DIMS], red_strides[TC_MAX_DIMS], n_out = 1;
    int32_t nk = 0, nr = 0;
    for (int32_t d = 0; d < in->ndim; d++) {
        if (out->sizes[d] == 1 && in->sizes[d] != 1) {
            red_sizes[nr] = in->sizes[d];
            red_strides[nr++] = in->strides[d];
        } else {
            keep_sizes[nk] = out->sizes[d];
            keep_in[nk] = in->strides[d];
            keep_out[nk++] = out->strides[d];
            n_out *= out->sizes[d];
        }
    }
    if (n_out == 0) return TC_OK;
    if (n_out == 1) {
        /* a full reduction: the input dense (copied when it is not), then two block passes */
        ck_iter it;
        const int64_t *st[1] = {in->strides};
        if (coalesce(&it, 1, in->ndim, in->sizes, st)) return TC_FAIL;
        size_t es = cuda_core->dtype_size(in->dtype);
        const void *src = in->data;
        void *dense = NULL;
        size_t dense_bytes;
        if (__builtin_mul_overflow((size_t)it.numel, es, &dense_bytes))
            return cuda_core->set_error(TC_ERR_RUNTIME, "sum: the input's size overflows");
        int is_dense = it.ndim == 0 || (it.ndim == 1 && it.strides[0][0] == 1);
        if (!is_dense) {
            ck_iter cp;
            int64_t contiguous[TC_MAX_DIMS], acc = 1;
            for (int32_t d = in->ndim - 1; d >= 0; d--) contiguous[d] = acc, acc *= in->sizes[d];
            const int64_t *st2[2] = {contiguous, in->strides};
            if (coalesce(&cp, 2, in->ndim, in->sizes, st2)) return TC_FAIL;
            if (!(dense = cuda_cache_alloc(dense_bytes, dev))) return TC_FAIL; /* the allocator's OOM error */
            int err = ck_copy(&cp, dense, in->dtype, in->data, in->dtype, stream);
            if (err) {
                cuda_cache_free(dense, dense_bytes, dev);
                return launched(err, "sum");
            }
            src = dense;
        }
        size_t scratch_bytes = ck_sum_scratch_bytes(it.numel, in->dtype);
        void *scratch = cuda_cache_alloc(scratch_bytes, dev);
        int err = scratch ? ck_reduce_full(op, out->data, src, it.numel, in->dtype, scratch, stream) : -1;
        if (scratch) cuda_cache_free(scratch, scratch_bytes, dev);
        if (dense) cuda_cache_free(dense, dense_bytes, dev);
        if (err == -1) return TC_FAIL; /* the allocator's OOM error */
        return launched(err, "sum");
    }
    ck_iter it;
    const int64_t *st[2] = {keep_out, keep_in};
    if (coalesce(&it, 2, nk, keep_sizes, st)) return TC_FAIL;
    if (nr > CK_MAX_DIMS)
        return cuda_core->set_error(TC_ERR_NOT_IMPLEMENTED, "CUDA sum: more than %d reduced dims", CK_MAX_DIMS);
    return launched(ck_reduce_partial(op, &it, out->data, in->data, nr, red_sizes, red_strides, in->dtype, stream),
                    "sum");
}

static int k_sum(const tc_kernel_args *a) { return reduce(a, CK_RSUM); }
static int k_max(const tc_kernel_args *a) { return reduce(a, CK_RMAX); }
static int k_min(const tc_kernel_args *a) { return reduce(a, CK_RMIN); }

/* ---- registration ---------------------------------------------------------------------------------------- */

typedef struct {
    const char *op;
    tc_kernel_fn fn;
    uint32_t dtypes; /* bit per tc_dtype */
} kernel_entry;

#define BIT(d) (1u << (d))
#define ALL_REAL (BIT(TC_BOOL) | BIT(TC_UINT8) | BIT(TC_INT8) | BIT(TC_INT16) | BIT(TC_INT32) | BIT(TC_INT64) | \
                  BIT(TC_FLOAT16) | BIT(TC_BFLOAT16) | BIT(TC_FLOAT32) | BIT(TC_FLOAT64))
#define FLOATS (BIT(TC_FLOAT16) | BIT(TC_BFLOAT16) | BIT(TC_FLOAT32) | BIT(TC_FLOAT64))
#define NUMBERS (ALL_REAL & ~BIT(TC_BOOL))

static const kernel_entry kernels[] = {
    {"copy", k_copy, ALL_REAL}, {"fill", k_fill, ALL_REAL},
    {"add", k_add, NUMBERS},    {"sub", k_sub, NUMBERS},
    {"mul", k_mul, NUMBERS},    {"div", k_div, FLOATS},
    {"sum", k_sum, BIT(TC_INT32) | BIT(TC_INT64) | FLOATS},
    {"mm", cuda_mm, FLOATS},    {"bmm", cuda_bmm, FLOATS},
    {"maximum", k_maximum, NUMBERS}, {"minimum", k_minimum, NUMBERS},
    {"neg", k_neg, NUMBERS}, {"abs", k_abs, NUMBERS}, {"relu", k_relu, NUMBERS},
    {"exp", k_exp, FLOATS}, {"log", k_log, FLOATS}, {"sqrt", k_sqrt, FLOATS}, {"sin", k_sin, FLOATS},
    {"cos", k_cos, FLOATS}, {"tanh", k_tanh, FLOATS}, {"sigmoid", k_sigmoid, FLOATS},
    {"eq", k_eq, ALL_REAL}, {"ne", k_ne, ALL_REAL}, {"lt", k_lt, ALL_REAL}, {"le", k_le, ALL_REAL},
    {"gt", k_gt, ALL_REAL}, {"ge", k_ge, ALL_REAL},
    {"where", k_where, ALL_REAL}, {"clamp", k_clamp, NUMBERS},
    {"max", k_max, ALL_REAL}, {"min", k_min, ALL_REAL},
};

static int probe(const tc_core_api *core, char *reason, size_t len) {
    void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver) {
        snprintf(reason, len, "no CUDA driver: %s", dlerror());
        return 0;
    }
    dlclose(driver);
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        snprintf(reason, len, "no usable CUDA driver or device: %s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
        cudaGetLastError();
        return 0;
    }
    if (n <= 0) {
        snprintf(reason, len, "no CUDA device found");
        return 0;
    }
    cuda_num_devices = n;
    return 10;
}

static int init(const tc_core_api *table, char *err, size_t err_len) {
    if (table->abi_major != TC_ABI_MAJOR || table->struct_size < sizeof(tc_core_api)) {
        snprintf(err, err_len, "needs a core with plugin ABI %d.%d or later", TC_ABI_MAJOR, TC_ABI_MINOR);
        return TC_FAIL;
    }
    cuda_core = table;
    if (cuda_num_devices <= 0) { /* init without probe (a test harness): count now */
        int n = 0;
        if (cudaGetDeviceCount(&n) != cudaSuccess || n <= 0) {
            cudaGetLastError();
            snprintf(err, err_len, "no CUDA device found");
            return TC_FAIL;
        }
        cuda_num_devices = n;
    }
    cuda_device_type = table->register_device_type(&device_desc);
    if (cuda_device_type < 0 || table->register_allocator(cuda_device_type, &cuda_allocator) != TC_OK) {
        snprintf(err, err_len, "registering the cuda device type failed");
        return TC_FAIL;
    }
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        for (int32_t d = 0; d < 32; d++)
            if (kernels[i].dtypes & BIT(d))
                if (table->register_kernel(kernels[i].op, cuda_device_type, TC_STRIDED, d, kernels[i].fn) != TC_OK) {
                    snprintf(err, err_len, "registering kernel %s for dtype %d failed", kernels[i].op, (int)d);
                    return TC_FAIL;
                }
    return TC_OK;
}

static void shutdown(void) { cuda_blas_shutdown(); }

static const tc_plugin_desc descriptor = {
    TC_PLUGIN_DESCRIPTOR_INIT,
    .name = "cuda",
    .kind = TC_PLUGIN_KIND_DEVICE,
    .version = "0.1.0",
    .probe = probe,
    .init = init,
    .shutdown = shutdown,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &descriptor; }

/* ---- what torch.cuda reaches through ctypes ---------------------------------------------------------------- */

TC_EXPORT int tc_cuda_device_count(void) { return cuda_num_devices; }

TC_EXPORT int tc_cuda_current_device(void) { return default_device; }

TC_EXPORT int tc_cuda_set_device(int index) {
    if (index < 0 || index >= cuda_num_devices) return -1;
    default_device = index;
    if (cudaSetDevice(index) != cudaSuccess) return -1;
    current_device = index; /* keep cuda_use_device's per-thread cache true */
    return 0;
}

TC_EXPORT int tc_cuda_synchronize(int index) {
    int e = cudaSetDevice(index < 0 ? default_device : index);
    if (e) return e;
    current_device = index < 0 ? default_device : index;
    return (int)cudaDeviceSynchronize();
}

/* Name, compute capability and memory of a device into buf ("NAME|major|minor|total_bytes|sms"). */
TC_EXPORT int tc_cuda_device_properties(int index, char *buf, size_t len) {
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, index);
    if (e) {
        snprintf(buf, len, "%s", cudaGetErrorString(e));
        return (int)e;
    }
    snprintf(buf, len, "%s|%d|%d|%zu|%d", p.name, p.major, p.minor, p.totalGlobalMem, p.multiProcessorCount);
    return 0;
}

TC_EXPORT void tc_cuda_reset_peak_memory_stats(void) { cuda_cache_reset_peak(); }

/* ---- streams, events and pinned host memory (torch.cuda.Stream, Event, pin_memory) ----------------- */

/* A new stream on `index`, not synchronising with the legacy default stream (as PyTorch's pool
 * streams); NULL on failure. */
TC_EXPORT void *tc_cuda_stream_create(int index, int priority) {
    if (index < 0 || index >= cuda_num_devices || cudaSetDevice(index) != cudaSuccess) return NULL;
    current_device = index;
    cudaStream_t s = NULL;
    if (cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return s;
}

TC_EXPORT int tc_cuda_stream_destroy(void *s) { return s ? (int)cudaStreamDestroy((cudaStream_t)s) : 0; }
TC_EXPORT int tc_cuda_stream_synchronize(void *s) { return (int)cudaStreamSynchronize((cudaStream_t)s); }

/* 1 when all the stream's work is done, 0 when some is pending, -1 on an error. */
TC_EXPORT int tc_cuda_stream_query(void *s) {
    cudaError_t e = cudaStreamQuery((cudaStream_t)s);
    if (e == cudaSuccess) return 1;
    if (e == cudaErrorNotReady) {
        cudaGetLastError();
        return 0;
    }
    cudaGetLastError();
    return -1;
}

TC_EXPORT void *tc_cuda_current_stream(int index) { return cuda_current_stream(index); }

/* Makes `s` (NULL: the default stream) the calling thread's current stream on device `index`. */
TC_EXPORT int tc_cuda_set_stream(int index, void *s) {
    if (index < 0 || index >= cuda_num_devices || index >= MAX_STREAM_DEVICES) return -1;
    current_stream[index] = (cudaStream_t)s;
    return 0;
}

/* An event: flags bit 0 timing, bit 1 blocking sync, bit 2 interprocess (refused). NULL on failure. */
TC_EXPORT void *tc_cuda_event_create(int flags) {
    unsigned f = (flags & 1) ? cudaEventDefault : cudaEventDisableTiming;
    if (flags & 2) f |= cudaEventBlockingSync;
    if (flags & 4) return NULL;
    cudaEvent_t e = NULL;
    if (cudaEventCreateWithFlags(&e, f) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return e;
}

TC_EXPORT int tc_cuda_event_destroy(void *e) { return e ? (int)cudaEventDestroy((cudaEvent_t)e) : 0; }
TC_EXPORT int tc_cuda_event_record(void *e, void *s) { return (int)cudaEventRecord((cudaEvent_t)e, (cudaStream_t)s); }
TC_EXPORT int tc_cuda_event_synchronize(void *e) { return (int)cudaEventSynchronize((cudaEvent_t)e); }
TC_EXPORT int tc_cuda_stream_wait_event(void *s, void *e) {
    return (int)cudaStreamWaitEvent((cudaStream_t)s, (cudaEvent_t)e, 0);
}

/* 1 when the work before the event's record is done, 0 when not, -1 on an error. */
TC_EXPORT int tc_cuda_event_query(void *e) {
    cudaError_t r = cudaEventQuery((cudaEvent_t)e);
    if (r == cudaSuccess) return 1;
    cudaGetLastError();
    return r == cudaErrorNotReady ? 0 : -1;
}

/* Milliseconds between two recorded timing events into *ms; a CUDA error code (0: done). */
TC_EXPORT int tc_cuda_event_elapsed_time(void *start, void *end, float *ms) {
    cudaError_t r = cudaEventElapsedTime(ms, (cudaEvent_t)start, (cudaEvent_t)end);
    if (r) cudaGetLastError();
    return (int)r;
}

/* Page-locked host memory (pin_memory): NULL on failure; freed by tc_cuda_host_free. */
TC_EXPORT void *tc_cuda_host_alloc(size_t nbytes) {
    void *p = NULL;
    if (cudaHostAlloc(&p, nbytes ? nbytes : 1, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return p;
}

TC_EXPORT void tc_cuda_host_free(void *p) {
    if (p) cudaFreeHost(p);
}

TC_EXPORT int tc_cuda_is_pinned(const void *p) { return p && is_pinned(p); }

/* The error text of a code these functions returned. */
TC_EXPORT const char *tc_cuda_error_string(int code) { return cudaGetErrorString((cudaError_t)code); }
