/*
 * The versioned table of core functions handed to every plugin's probe and init, and the staging of
 * what a plugin registers.
 *
 * Registrations are a transaction. During init they are only staged; tc_api_commit first validates
 * every staged item against the live registries and against each other (names and device types
 * taken, capacity), and only then applies them, in an order where applying cannot fail. A failed
 * registration call poisons the transaction even if the plugin ignores it. So a plugin either gets
 * everything it asked for or leaves nothing behind: after a failed commit the loader dlcloses it, and
 * no table may point into its code.
 */
#include "core_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct staged_kernel {
    const char *name; /* the core's own copy of the kernel name */
    int32_t device_type, layout, dtype;
    tc_kernel_fn fn;
} staged_kernel;

typedef struct staged_allocator {
    int32_t device_type;
    const tc_allocator *allocator;
} staged_allocator;

/* A growable array of `size`-byte items. */
typedef struct stage_list {
    void *items;
    int32_t n, cap;
} stage_list;

static struct {
    const char *plugin;  /* non-NULL while a plugin's init runs */
    char failure[512];   /* the first registration call that failed, if any */
    stage_list kernels;  /* staged_kernel */
    stage_list devices;  /* const tc_device_type_desc * */
    stage_list allocators; /* staged_allocator */
    stage_list blas;     /* const tc_blas_provider * */
    int32_t next_device_type;
} stage;

static void *list_push(stage_list *l, size_t size) {
    if (l->n == l->cap) {
        int32_t cap = l->cap ? l->cap * 2 : 16;
        void *p = cap > l->cap ? realloc(l->items, (size_t)cap * size) : NULL;
        if (!p) return NULL;
        l->items = p;
        l->cap = cap;
    }
    return (char *)l->items + (size_t)l->n++ * size;
}

static void list_free(stage_list *l) {
    free(l->items);
    *l = (stage_list){0};
}

#define STAGED(list, type, i) (((type *)stage.list.items)[i])

void tc_api_begin(const char *plugin) {
    tc_api_abort();
    stage.plugin = plugin;
    stage.next_device_type = tc_device_type_count();
}

void tc_api_abort(void) {
    list_free(&stage.kernels);
    list_free(&stage.devices);
    list_free(&stage.allocators);
    list_free(&stage.blas);
    stage.plugin = NULL;
    stage.failure[0] = 0;
}

/* Notes the failure of a registration call (the first one is reported at commit) and passes its
 * TC_FAIL on: the error stays set for the plugin to see. */
static int refused(int rc) {
    if (stage.plugin && !stage.failure[0]) snprintf(stage.failure, sizeof stage.failure, "%s", tc_last_error_message());
    return rc;
}

static bool staged_device_named(const char *name, int32_t before) {
    for (int32_t i = 0; i < before; i++)
        if (strcmp(STAGED(devices, const tc_device_type_desc *, i)->name, name) == 0) return true;
    return false;
}

static bool staged_blas_named(const char *name, int32_t before) {
    for (int32_t i = 0; i < before; i++)
        if (strcmp(STAGED(blas, const tc_blas_provider *, i)->name, name) == 0) return true;
    return false;
}

/* Everything the apply step would refuse, found before anything is applied. */
static int validate(void) {
    if (stage.failure[0])
        return tc_set_error(TC_ERR_RUNTIME, "a registration call failed during init (%s)", stage.failure);
    const int32_t live_types = tc_device_type_count();
    if (live_types != stage.next_device_type)
        return tc_set_error(TC_ERR_RUNTIME, "device types changed while the plugin's init ran");
    if (live_types + stage.devices.n > TC_MAX_DEVICE_TYPES)
        return tc_set_error(TC_ERR_RUNTIME, "too many device types (at most %d)", TC_MAX_DEVICE_TYPES);
    for (int32_t i = 0; i < stage.devices.n; i++) {
        const char *name = STAGED(devices, const tc_device_type_desc *, i)->name;
        if (tc_device_type_id(name) >= 0 || staged_device_named(name, i))
            return tc_set_error(TC_ERR_VALUE, "device type '%s' is already registered", name);
    }
    const int32_t all_types = live_types + stage.devices.n;
    for (int32_t i = 0; i < stage.allocators.n; i++) {
        const int32_t t = STAGED(allocators, staged_allocator, i).device_type;
        if (t < live_types || t >= all_types)
            return tc_set_error(TC_ERR_VALUE, "register_allocator: device type %d is not one this plugin registers; "
                                              "only a device type's own plugin sets its allocator", t);
        for (int32_t j = 0; j < i; j++)
            if (STAGED(allocators, staged_allocator, j).device_type == t)
                return tc_set_error(TC_ERR_VALUE, "register_allocator: two allocators for device type %d", t);
    }
    for (int32_t i = 0; i < stage.kernels.n; i++) {
        const staged_kernel *k = &STAGED(kernels, staged_kernel, i);
        if (k->device_type >= all_types)
            return tc_set_error(TC_ERR_VALUE, "register_kernel(%s): device type %d is not registered", k->name,
                                k->device_type);
    }
    for (int32_t i = 0; i < stage.blas.n; i++) {
        const char *name = STAGED(blas, const tc_blas_provider *, i)->name;
        if (tc_blas_find(name) || staged_blas_named(name, i))
            return tc_set_error(TC_ERR_VALUE, "BLAS provider '%s' is already registered", name);
    }
    return tc_blas_reserve(stage.blas.n);
}

int tc_api_commit(void) {
    int rc = validate();
    /* Validated: none of these can fail now (device names and capacity, allocator targets, kernel
     * slots, BLAS names and room were all checked), so nothing is ever applied halfway. */
    for (int32_t i = 0; i < stage.devices.n && rc == TC_OK; i++)
        rc = tc_device_register(STAGED(devices, const tc_device_type_desc *, i)) < 0 ? TC_FAIL : TC_OK;
    for (int32_t i = 0; i < stage.allocators.n && rc == TC_OK; i++)
        rc = tc_device_set_allocator(STAGED(allocators, staged_allocator, i).device_type,
                                     STAGED(allocators, staged_allocator, i).allocator);
    for (int32_t i = 0; i < stage.kernels.n && rc == TC_OK; i++) {
        const staged_kernel *k = &STAGED(kernels, staged_kernel, i);
        rc = tc_dispatch_register(k->name, k->device_type, k->layout, k->dtype, k->fn);
    }
    for (int32_t i = 0; i < stage.blas.n && rc == TC_OK; i++)
        rc = tc_blas_register(STAGED(blas, const tc_blas_provider *, i));
    tc_api_abort();
    return rc;
}

static int outside_init(const char *what) {
    return tc_set_error(TC_ERR_RUNTIME, "%s may only be called during a plugin's init", what);
}

static int api_register_kernel(const char *op, int32_t device_type, int32_t layout, int32_t dtype, tc_kernel_fn fn) {
    if (!stage.plugin) return outside_init("register_kernel");
    int32_t known = tc_dispatch_check(op, device_type, layout, dtype, fn);
    if (known < 0) return refused(TC_FAIL);
    staged_kernel *k = list_push(&stage.kernels, sizeof(staged_kernel));
    if (!k) return refused(tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory staging a kernel"));
    *k = (staged_kernel){tc_kernel_names[known], device_type, layout, dtype, fn};
    return TC_OK;
}

/* Names a plugin hands over must be NUL-terminated within a sane length: they are kept and compared
 * for the life of the process. */
static bool sane_name(const char *name) { return name && name[0] && memchr(name, 0, 64); }

static int32_t api_register_device_type(const tc_device_type_desc *desc) {
    if (!stage.plugin) return outside_init("register_device_type");
    if (!desc || desc->struct_size < sizeof(tc_device_type_desc) || !sane_name(desc->name))
        return refused(tc_set_error(TC_ERR_VALUE, "register_device_type: malformed descriptor (a name of 1 "
                                                  "to 63 characters is required)"));
    if (tc_device_type_id(desc->name) >= 0 || staged_device_named(desc->name, stage.devices.n))
        return refused(tc_set_error(TC_ERR_VALUE, "device type '%s' is already registered", desc->name));
    const tc_device_type_desc **slot = list_push(&stage.devices, sizeof desc);
    if (!slot) return refused(tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory staging a device type"));
    *slot = desc;
    return stage.next_device_type + stage.devices.n - 1;
}

static int api_register_allocator(int32_t device_type, const tc_allocator *allocator) {
    if (!stage.plugin) return outside_init("register_allocator");
    if (!allocator || allocator->struct_size < sizeof(tc_allocator) || !allocator->alloc || !allocator->free)
        return refused(tc_set_error(TC_ERR_VALUE, "register_allocator: malformed allocator"));
    staged_allocator *a = list_push(&stage.allocators, sizeof(staged_allocator));
    if (!a) return refused(tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory staging an allocator"));
    *a = (staged_allocator){device_type, allocator};
    return TC_OK;
}

static int api_register_blas(const tc_blas_provider *provider) {
    if (!stage.plugin) return outside_init("register_blas");
    if (!provider || provider->struct_size < sizeof(tc_blas_provider) || !sane_name(provider->name) ||
        !provider->sgemm || !provider->dgemm)
        return refused(tc_set_error(TC_ERR_VALUE, "register_blas: malformed provider"));
    if (tc_blas_find(provider->name) || staged_blas_named(provider->name, stage.blas.n))
        return refused(tc_set_error(TC_ERR_VALUE, "BLAS provider '%s' is already registered", provider->name));
    const tc_blas_provider **slot = list_push(&stage.blas, sizeof provider);
    if (!slot) return refused(tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory staging a BLAS provider"));
    *slot = provider;
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
    .get_num_threads = tc_threads_effective,
    .host_alloc = api_host_alloc,
    .host_free = api_host_free,
    .dtype_size = tc_dtype_size,
    .dtype_name = tc_dtype_name,
    .parallel_for = tc_parallel_for,
};

const tc_core_api *tc_core_api_table(void) { return &api; }
