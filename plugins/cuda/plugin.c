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

static int device_copy(void *dst, tc_device dd, const void *src, tc_device sd, size_t nbytes, void *stream) {
    cudaError_t e;
    if (sd.type == TC_DEVICE_CPU) {
        if (cuda_use_device(dd.index)) return TC_FAIL;
        e = cudaMemcpy(dst, src, nbytes, cudaMemcpyHostToDevice);
    } else if (dd.type == TC_DEVICE_CPU) {
        if (cuda_use_device(sd.index)) return TC_FAIL;
        e = cudaMemcpy(dst, src, nbytes, cudaMemcpyDeviceToHost);
    } else if (dd.type == cuda_device_type && sd.type == cuda_device_type) {
        if (cuda_use_device(dd.index)) return TC_FAIL;
        e = dd.index == sd.index ? cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, (cudaStream_t)stream)
                                 : cudaMemcpyPeer(dst, dd.index, src, sd.index, nbytes);
    } else {
        return cuda_core->set_error(TC_ERR_NOT_IMPLEMENTED, "copy between cuda and %s is not supported",
                                    dd.type == cuda_device_type ? "another device type" : "another device type");
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

/* The iterator of an elementwise kernel: outputs[0], then inputs[0..n_in-1], all at the output's sizes. */
static int elementwise_iter(const tc_kernel_args *a, int n_in, ck_iter *it, const char *op) {
    if (a->n_outputs < 1 || a->n_inputs < n_in)
        return cuda_core->set_error(TC_ERR_RUNTIME, "%s: the CUDA kernel got %d inputs and %d outputs", op,
                                    a->n_inputs, a->n_outputs);
    const tc_view *o = &a->outputs[0];
    const int64_t *strides[CK_MAX_OPERANDS] = {o->strides};
    for (int i = 0; i < n_in; i++) {
        if (a->inputs[i].ndim != o->ndim)
            return cuda_core->set_error(TC_ERR_RUNTIME, "%s: input %d has %d dims, the output %d", op, i,
                                        a->inputs[i].ndim, o->ndim);
        if (a->inputs[i].device.index != o->device.index)
            return cuda_core->set_error(TC_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at "
                                        "least two devices, cuda:%d and cuda:%d!", o->device.index,
                                        a->inputs[i].device.index);
        strides[i + 1] = a->inputs[i].strides;
    }
    if (coalesce(it, n_in + 1, o->ndim, o->sizes, strides)) return TC_FAIL;
    return cuda_use_device(o->device.index);
}

static int launched(int err, const char *op) { return err ? cuda_fail((cudaError_t)err, op) : TC_OK; }

/* ---- kernels ------------------------------------------------------------------------------------------------ */

static int k_copy(const tc_kernel_args *a) {
    ck_iter it;
    if (elementwise_iter(a, 1, &it, "copy")) return TC_FAIL;
    if (!ck_dtype_supported(a->inputs[0].dtype))
        return cuda_core->set_error(TC_ERR_NOT_IMPLEMENTED, "\"copy_cuda\" not implemented for '%s'",
                                    cuda_core->dtype_name(a->inputs[0].dtype));
    return launched(ck_copy(&it, a->outputs[0].data, a->outputs[0].dtype, a->inputs[0].data, a->inputs[0].dtype,
                            a->stream), "copy");
}

static int k_fill(const tc_kernel_args *a) {
    ck_iter it;
    if (elementwise_iter(a, 0, &it, "fill")) return TC_FAIL;
    if (a->n_scalars < 1) return cuda_core->set_error(TC_ERR_RUNTIME, "fill: no value");
    const tc_scalar *s = &a->scalars[0];
    int is_float = s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX;
    return launched(ck_fill(&it, a->outputs[0].data, a->outputs[0].dtype, is_float ? s->v.f : 0.0,
                            is_float ? 0 : s->v.i, is_float, a->stream), "fill");
}

static int binary(const tc_kernel_args *a, int op, const char *name) {
    ck_iter it;
    if (elementwise_iter(a, 2, &it, name)) return TC_FAIL;
    double alpha = 1.0;
    int64_t ialpha = 1;
    if ((op == CK_ADD || op == CK_SUB) && a->n_scalars > 0) {
        const tc_scalar *s = &a->scalars[0];
        if (s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX) alpha = s->v.f, ialpha = (int64_t)s->v.f;
        else alpha = (double)s->v.i, ialpha = s->v.i;
    }
    return launched(ck_binary(op, &it, a->outputs[0].data, a->inputs[0].data, a->inputs[1].data, a->outputs[0].dtype,
                              alpha, ialpha, a->stream), name);
}

static int k_add(const tc_kernel_args *a) { return binary(a, CK_ADD, "add"); }
static int k_sub(const tc_kernel_args *a) { return binary(a, CK_SUB, "sub"); }
static int k_mul(const tc_kernel_args *a) { return binary(a, CK_MUL, "mul"); }
static int k_div(const tc_kernel_args *a) { return binary(a, CK_DIV, "div"); }

/* sum: the dims where the output has size 1 and the input not are reduced. */
static int k_sum(const tc_kernel_args *a) {
    if (a->n_inputs < 1 || a->n_outputs < 1) return cuda_core->set_error(TC_ERR_RUNTIME, "sum: bad kernel arguments");
    const tc_view *in = &a->inputs[0], *out = &a->outputs[0];
    if (in->ndim != out->ndim) return cuda_core->set_error(TC_ERR_RUNTIME, "sum: input and output ndim differ");
    int32_t dev = out->device.index;
    if (cuda_use_device(dev)) return TC_FAIL;
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
        size_t dense_bytes = (size_t)it.numel * es;
        int is_dense = it.ndim == 0 || (it.ndim == 1 && it.strides[0][0] == 1);
        if (!is_dense) {
            ck_iter cp;
            int64_t contiguous[TC_MAX_DIMS], acc = 1;
            for (int32_t d = in->ndim - 1; d >= 0; d--) contiguous[d] = acc, acc *= in->sizes[d];
            const int64_t *st2[2] = {contiguous, in->strides};
            if (coalesce(&cp, 2, in->ndim, in->sizes, st2)) return TC_FAIL;
            if (!(dense = cuda_cache_alloc(dense_bytes, dev)))
                return cuda_core->set_error(TC_ERR_OUT_OF_MEMORY, "CUDA out of memory (a sum temporary)");
            int err = ck_copy(&cp, dense, in->dtype, in->data, in->dtype, a->stream);
            if (err) {
                cuda_cache_free(dense, dense_bytes, dev);
                return launched(err, "sum");
            }
            src = dense;
        }
        size_t scratch_bytes = ck_sum_scratch_bytes(it.numel, in->dtype);
        void *scratch = cuda_cache_alloc(scratch_bytes, dev);
        int err = scratch ? ck_sum_full(out->data, src, it.numel, in->dtype, scratch, a->stream) : -1;
        if (scratch) cuda_cache_free(scratch, scratch_bytes, dev);
        if (dense) cuda_cache_free(dense, dense_bytes, dev);
        if (err == -1) return cuda_core->set_error(TC_ERR_OUT_OF_MEMORY, "CUDA out of memory (sum scratch)");
        return launched(err, "sum");
    }
    ck_iter it;
    const int64_t *st[2] = {keep_out, keep_in};
    if (coalesce(&it, 2, nk, keep_sizes, st)) return TC_FAIL;
    if (nr > CK_MAX_DIMS)
        return cuda_core->set_error(TC_ERR_NOT_IMPLEMENTED, "CUDA sum: more than %d reduced dims", CK_MAX_DIMS);
    return launched(ck_sum_partial(&it, out->data, in->data, nr, red_sizes, red_strides, in->dtype, a->stream), "sum");
}

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
