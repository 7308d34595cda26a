/* The versioned table of core functions handed to every plugin's probe and init. */
#include "core_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STAGED_KERNELS 4096
#define MAX_STAGED_OTHER 8

typedef struct staged_kernel {
    const char *name;
    int32_t device_type, layout, dtype;
    tc_kernel_fn fn;
} staged_kernel;

static struct {
    const char *plugin; /* non-NULL while a plugin's init runs */
    staged_kernel *kernels;
    int n_kernels;
    const tc_device_type_desc *devices[MAX_STAGED_OTHER];
    int n_devices;
    struct {
        int32_t device_type;
        const tc_allocator *allocator;
    } allocators[MAX_STAGED_OTHER];
    int n_allocators;
    const tc_blas_provider *blas[MAX_STAGED_OTHER];
    int n_blas;
    int32_t next_device_type;
} stage;

void tc_api_begin(const char *plugin) {
    memset(&stage, 0, sizeof stage);
    stage.plugin = plugin;
    stage.next_device_type = tc_device_type_count();
}

void tc_api_abort(void) {
    free(stage.kernels);
    memset(&stage, 0, sizeof stage);
}

int tc_api_commit(void) {
    int rc = TC_OK;
    for (int i = 0; i < stage.n_devices && rc == TC_OK; i++)
        rc = tc_device_register(stage.devices[i]) < 0 ? TC_FAIL : TC_OK;
    for (int i = 0; i < stage.n_allocators && rc == TC_OK; i++)
        rc = tc_device_set_allocator(stage.allocators[i].device_type, stage.allocators[i].allocator);
    for (int i = 0; i < stage.n_kernels && rc == TC_OK; i++) {
        staged_kernel *k = &stage.kernels[i];
        rc = tc_dispatch_register(k->name, k->device_type, k->layout, k->dtype, k->fn);
    }
    for (int i = 0; i < stage.n_blas && rc == TC_OK; i++) rc = tc_blas_register(stage.blas[i]);
    tc_api_abort();
    return rc;
}

static int outside_init(const char *what) {
    return tc_set_error(TC_ERR_RUNTIME, "%s may only be called during a plugin's init", what);
}

static int api_register_kernel(const char *op, int32_t device_type, int32_t layout, int32_t dtype, tc_kernel_fn fn) {
    if (!stage.plugin) return outside_init("register_kernel");
    int32_t known = tc_dispatch_check(op, device_type, layout, dtype, fn);
    if (known < 0) return TC_FAIL;
    if (stage.n_kernels == MAX_STAGED_KERNELS) return tc_set_error(TC_ERR_RUNTIME, "too many kernels in one plugin");
    if (!stage.kernels && !(stage.kernels = malloc(sizeof(staged_kernel) * MAX_STAGED_KERNELS)))
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    stage.kernels[stage.n_kernels++] = (staged_kernel){tc_kernel_names[known], device_type, layout, dtype, fn};
    return TC_OK;
}

static int32_t api_register_device_type(const tc_device_type_desc *desc) {
    if (!stage.plugin) return outside_init("register_device_type");
    if (!desc || desc->struct_size < sizeof(tc_device_type_desc) || !desc->name)
        return tc_set_error(TC_ERR_VALUE, "register_device_type: malformed descriptor");
    if (stage.n_devices == MAX_STAGED_OTHER) return tc_set_error(TC_ERR_RUNTIME, "too many device types");
    if (tc_device_type_id(desc->name) >= 0)
        return tc_set_error(TC_ERR_VALUE, "device type '%s' is already registered", desc->name);
    stage.devices[stage.n_devices++] = desc;
    return stage.next_device_type + stage.n_devices - 1;
}

static int api_register_allocator(int32_t device_type, const tc_allocator *allocator) {
    if (!stage.plugin) return outside_init("register_allocator");
    if (!allocator || allocator->struct_size < sizeof(tc_allocator) || !allocator->alloc || !allocator->free)
        return tc_set_error(TC_ERR_VALUE, "register_allocator: malformed allocator");
    if (stage.n_allocators == MAX_STAGED_OTHER) return tc_set_error(TC_ERR_RUNTIME, "too many allocators");
    stage.allocators[stage.n_allocators].device_type = device_type;
    stage.allocators[stage.n_allocators++].allocator = allocator;
    return TC_OK;
}

static int api_register_blas(const tc_blas_provider *provider) {
    if (!stage.plugin) return outside_init("register_blas");
    if (!provider || provider->struct_size < sizeof(tc_blas_provider) || !provider->name || !provider->sgemm ||
        !provider->dgemm)
        return tc_set_error(TC_ERR_VALUE, "register_blas: malformed provider");
    if (stage.n_blas == MAX_STAGED_OTHER) return tc_set_error(TC_ERR_RUNTIME, "too many BLAS providers");
    stage.blas[stage.n_blas++] = provider;
    return TC_OK;
}

static void *api_host_alloc(size_t n) {
    const tc_allocator *a = tc_alloc_cpu();
    return a->alloc(a->ctx, n, 0, NULL);
}

static void api_host_free(void *p, size_t n) {
    const tc_allocator *a = tc_alloc_cpu();
    a->free(a->ctx, p, n, 0, NULL);
}

static int api_set_error(int kind, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return tc_set_error(kind, "%s", buf);
}

static const tc_core_api api = {
    .struct_size = sizeof(tc_core_api),
    .abi_major = TC_ABI_MAJOR,
    .abi_minor = TC_ABI_MINOR,
    .set_error = api_set_error,
    .op_id = tc_dispatch_kernel_id,
    .register_kernel = api_register_kernel,
    .register_device_type = api_register_device_type,
    .register_allocator = api_register_allocator,
    .register_blas = api_register_blas,
    .blas_current = tc_blas_current,
    .get_num_threads = tc_get_num_threads,
    .host_alloc = api_host_alloc,
    .host_free = api_host_free,
    .dtype_size = tc_dtype_size,
    .dtype_name = tc_dtype_name,
};

const tc_core_api *tc_core_api_table(void) { return &api; }
