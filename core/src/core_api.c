/*
 * The versioned table of core functions handed to every plugin's probe and init, and the staging of
 * what a plugin registers. Registrations made during init are only recorded; tc_api_commit first
 * checks every one of them against the live registries (and against each other) and only then
 * applies them, undoing what it applied if a step still fails, so a plugin either gets everything it
 * asked for or leaves nothing behind that could point into its unloaded code. A registration call
 * that fails poisons the transaction even if the plugin ignores the refusal.
 */
#include "core_internal.h"
#include "torch_core/tc_autograd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct staged_kernel {
    int32_t kernel; /* -1 for a fallback */
    int32_t backend, dtype;
    tc_kernel_fn fn;
    uint32_t flags; /* TC_KERNEL_* */
} staged_kernel;

typedef struct staged_allocator {
    int32_t device_type;
    const tc_allocator *allocator;
} staged_allocator;

typedef struct staged_op {
    char *schema;
    tc_meta_fn meta;
    int32_t predicted_id;
} staged_op;

typedef struct staged_backward {
    int32_t op;
    tc_backward_kernel_fn fn;
    void *ctx;
} staged_backward;

/* A growable array of one staged kind. */
typedef struct stage_list {
    void *items;
    int32_t n, cap;
    size_t item_size;
} stage_list;

static int list_push(stage_list *l, const void *item) {
    if (l->n == l->cap) {
        int32_t cap = l->cap ? l->cap * 2 : 16;
        void *items = realloc(l->items, l->item_size * (size_t)cap);
        if (!items) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory staging a registration");
        l->items = items;
        l->cap = cap;
    }
    memcpy((char *)l->items + l->item_size * (size_t)l->n++, item, l->item_size);
    return TC_OK;
}

#define LIST_AT(l, type, i) (&((type *)(l).items)[i])

static struct {
    const char *plugin; /* non-NULL while a plugin's init runs */
    int32_t abi_minor;  /* the layout its kernels expect their arguments in */
    int32_t first_device_type;
    char failure[512]; /* the first registration call that failed, if any */
    stage_list kernels, devices, allocators, providers, layouts, ops, backwards;
} stage;

/* A BLAS or FFT provider, registered at the commit in its kind's registry. */
typedef struct staged_provider {
    bool fft;
    const void *provider; /* a tc_blas_provider or a tc_fft_provider */
    const char *name;
} staged_provider;

static bool provider_taken(const staged_provider *p) {
    return p->fft ? tc_fft_find(p->name) != NULL : tc_blas_find(p->name) != NULL;
}
static int provider_register(const staged_provider *p) {
    return p->fft ? tc_fft_register(p->provider) : tc_blas_register(p->provider);
}
static void provider_unregister(const staged_provider *p) {
    if (p->fft) tc_fft_unregister(p->provider);
    else tc_blas_unregister(p->provider);
}

/* A refused registration call: remembered, so that the commit fails even if init carries on. */
static int refused(int rc) {
    if (rc < 0 && stage.plugin && !stage.failure[0])
        snprintf(stage.failure, sizeof stage.failure, "%s", tc_last_error_message());
    return rc;
}

void tc_api_begin(const char *plugin, int32_t abi_minor) {
    tc_api_abort();
    stage.plugin = plugin;
    stage.abi_minor = abi_minor;
    stage.first_device_type = tc_device_type_count();
    stage.kernels.item_size = sizeof(staged_kernel);
    stage.devices.item_size = sizeof(tc_device_type_desc);
    stage.allocators.item_size = sizeof(staged_allocator);
    stage.providers.item_size = sizeof(staged_provider);
    stage.layouts.item_size = sizeof(char *);
    stage.ops.item_size = sizeof(staged_op);
    stage.backwards.item_size = sizeof(staged_backward);
}

void tc_api_abort(void) {
    for (int32_t i = 0; i < stage.layouts.n; i++) free(*LIST_AT(stage.layouts, char *, i));
    for (int32_t i = 0; i < stage.ops.n; i++) free(LIST_AT(stage.ops, staged_op, i)->schema);
    stage_list *lists[] = {&stage.kernels, &stage.devices,   &stage.allocators, &stage.providers,
                           &stage.layouts, &stage.ops, &stage.backwards};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        free(lists[i]->items);
        memset(lists[i], 0, sizeof *lists[i]);
    }
    stage.plugin = NULL;
    stage.failure[0] = 0;
}

/* ---- validation: nothing is applied unless everything fits ---- */

static int validate(void) {
    const char *who = stage.plugin;
    if (stage.failure[0]) return tc_set_error(TC_ERR_RUNTIME, "a registration was refused: %s", stage.failure);
    for (int32_t i = 0; i < stage.devices.n; i++) {
        const tc_device_type_desc *d = LIST_AT(stage.devices, tc_device_type_desc, i);
        if (tc_device_type_id(d->name) >= 0)
            return tc_set_error(TC_ERR_VALUE, "device type '%s' is already registered", d->name);
        for (int32_t j = 0; j < i; j++)
            if (strcmp(LIST_AT(stage.devices, tc_device_type_desc, j)->name, d->name) == 0)
                return tc_set_error(TC_ERR_VALUE, "plugin '%s' registers device type '%s' twice", who, d->name);
    }
    if (stage.first_device_type + stage.devices.n > TC_MAX_DEVICE_TYPES)
        return tc_set_error(TC_ERR_RUNTIME, "too many device types (at most %d)", TC_MAX_DEVICE_TYPES);
    for (int32_t i = 0; i < stage.allocators.n; i++) {
        int32_t type = LIST_AT(stage.allocators, staged_allocator, i)->device_type;
        if (type < 0 || type >= stage.first_device_type + stage.devices.n)
            return tc_set_error(TC_ERR_VALUE, "register_allocator: unknown device type %d", type);
    }
    for (int32_t i = 0; i < stage.providers.n; i++) {
        const staged_provider *p = LIST_AT(stage.providers, staged_provider, i);
        const char *what = p->fft ? "FFT" : "BLAS";
        if (provider_taken(p))
            return tc_set_error(TC_ERR_VALUE, "%s provider '%s' is already registered", what, p->name);
        for (int32_t j = 0; j < i; j++) {
            const staged_provider *o = LIST_AT(stage.providers, staged_provider, j);
            if (o->fft == p->fft && strcmp(o->name, p->name) == 0)
                return tc_set_error(TC_ERR_VALUE, "plugin '%s' registers %s provider '%s' twice", who, what, p->name);
        }
    }
    for (int32_t i = 0; i < stage.layouts.n; i++) {
        const char *name = *LIST_AT(stage.layouts, char *, i);
        if (tc_layout_id(name) >= 0) return tc_set_error(TC_ERR_VALUE, "layout '%s' is already registered", name);
    }
    for (int32_t i = 0; i < stage.ops.n; i++) {
        staged_op *o = LIST_AT(stage.ops, staged_op, i);
        struct tc_op *parsed = tc_schema_parse(o->schema);
        if (!parsed) return TC_FAIL;
        char name[256];
        snprintf(name, sizeof name, "%s%s%s", parsed->schema.name, parsed->schema.overload[0] ? "." : "",
                 parsed->schema.overload);
        free(parsed);
        if (tc_op_lookup(name) >= 0) return tc_set_error(TC_ERR_RUNTIME, "op %s is already defined", name);
    }
    for (int32_t i = 0; i < stage.backwards.n; i++) {
        staged_backward *b = LIST_AT(stage.backwards, staged_backward, i);
        bool staged = b->op >= tc_op_count() && b->op < tc_op_count() + stage.ops.n;
        const tc_op_schema *existing = tc_op_schema_of(b->op);
        if (!staged && (!existing || !(existing->flags & TC_OPF_RUNTIME)))
            return tc_set_error(TC_ERR_VALUE, "register_backward: op %d is not an op added at run time", b->op);
        for (int32_t j = 0; j < i; j++)
            if (LIST_AT(stage.backwards, staged_backward, j)->op == b->op)
                return tc_set_error(TC_ERR_RUNTIME, "plugin '%s' registers a backward for op %d twice", who, b->op);
    }
    for (int32_t i = 0; i < stage.kernels.n; i++) {
        staged_kernel *k = LIST_AT(stage.kernels, staged_kernel, i);
        if (tc_kernel_slot_free(k->kernel, k->backend, k->dtype, who)) return TC_FAIL;
        for (int32_t j = 0; j < i; j++) {
            staged_kernel *o = LIST_AT(stage.kernels, staged_kernel, j);
            if (o->kernel == k->kernel && o->backend == k->backend && o->dtype == k->dtype)
                return tc_set_error(TC_ERR_RUNTIME, "plugin '%s' registers kernel '%s' for the same backend and "
                                                    "dtype twice", who, tc_kernel_name(k->kernel));
        }
    }
    return TC_OK;
}

/* ---- apply, with undo ---- */

static void undo(int32_t kernels_done, int32_t providers_done) {
    for (int32_t i = 0; i < kernels_done; i++) {
        staged_kernel *k = LIST_AT(stage.kernels, staged_kernel, i);
        tc_kernel_unset(k->kernel, k->backend, k->dtype);
    }
    for (int32_t i = 0; i < providers_done; i++) provider_unregister(LIST_AT(stage.providers, staged_provider, i));
}

int tc_api_commit(void) {
    if (validate()) {
        tc_api_abort();
        return TC_FAIL;
    }
    /* Device types, layouts, allocators and ops cannot fail once validated (capacity and names
     * were checked); kernels and BLAS providers are undone if they do. Ops come first so that
     * their kernels' names exist, devices before the allocators that name them. */
    int rc = TC_OK;
    for (int32_t i = 0; i < stage.ops.n && rc == TC_OK; i++) {
        staged_op *o = LIST_AT(stage.ops, staged_op, i);
        int32_t id = tc_op_define(o->schema, o->meta);
        if (id < 0) rc = TC_FAIL;
        else if (id != o->predicted_id)
            rc = tc_set_error(TC_ERR_RUNTIME, "op %s got id %d, not the %d its plugin was told", o->schema, id,
                              o->predicted_id);
    }
    for (int32_t i = 0; i < stage.backwards.n && rc == TC_OK; i++) {
        staged_backward *b = LIST_AT(stage.backwards, staged_backward, i);
        rc = tc_op_set_backward(b->op, b->fn, b->ctx);
    }
    for (int32_t i = 0; i < stage.devices.n && rc == TC_OK; i++)
        if (tc_device_register(LIST_AT(stage.devices, tc_device_type_desc, i)) < 0) rc = TC_FAIL;
    for (int32_t i = 0; i < stage.layouts.n && rc == TC_OK; i++)
        if (tc_layout_register(*LIST_AT(stage.layouts, char *, i)) < 0) rc = TC_FAIL;
    for (int32_t i = 0; i < stage.allocators.n && rc == TC_OK; i++) {
        staged_allocator *a = LIST_AT(stage.allocators, staged_allocator, i);
        rc = tc_device_set_allocator(a->device_type, a->allocator);
    }
    int32_t kernels_done = 0, providers_done = 0;
    for (; kernels_done < stage.kernels.n && rc == TC_OK; kernels_done++) {
        staged_kernel *k = LIST_AT(stage.kernels, staged_kernel, kernels_done);
        rc = tc_kernel_set(k->kernel, k->backend, k->dtype, k->fn, stage.abi_minor, k->flags, stage.plugin);
        if (rc) break;
    }
    for (; providers_done < stage.providers.n && rc == TC_OK; providers_done++) {
        rc = provider_register(LIST_AT(stage.providers, staged_provider, providers_done));
        if (rc) break;
    }
    if (rc) undo(kernels_done, providers_done);
    tc_api_abort();
    return rc;
}

/* ---- the table's registration members ---- */

static int outside_init(const char *what) {
    return tc_set_error(TC_ERR_RUNTIME, "%s may only be called during a plugin's init", what);
}

/* Structs a plugin hands over: at least the 1.0 layout; read only as much as it has. */
static bool struct_ok(uint32_t struct_size, size_t size_1_0) { return struct_size >= size_1_0; }

static int api_register_kernel_staged(const char *op, int32_t device_type, int32_t layout, int32_t dtype, tc_kernel_fn fn,
                                      uint32_t flags) {
    if (!stage.plugin) return outside_init("register_kernel");
    int32_t k = tc_kernel_check(op, device_type, layout, dtype, fn);
    if (k < 0) return TC_FAIL;
    if (flags & ~TC_KERNEL_CONVERTS_INPUTS)
        return tc_set_error(TC_ERR_VALUE, "register_kernel_flags(%s): unknown flags 0x%x", op,
                            (unsigned)(flags & ~TC_KERNEL_CONVERTS_INPUTS));
    staged_kernel s = {k, tc_backend_of(device_type, layout), dtype, fn, flags};
    return list_push(&stage.kernels, &s);
}

static int api_register_fallback_staged(int32_t device_type, int32_t layout, tc_kernel_fn fn) {
    if (!stage.plugin) return outside_init("register_fallback");
    if (!fn || device_type < 0 || device_type >= TC_MAX_DEVICE_TYPES || layout < 0 || layout >= TC_MAX_LAYOUTS)
        return tc_set_error(TC_ERR_VALUE, "register_fallback: bad device type %d, layout %d or kernel", device_type,
                            layout);
    staged_kernel s = {-1, tc_backend_of(device_type, layout), TC_ANY_DTYPE, fn, 0};
    return list_push(&stage.kernels, &s);
}

static int32_t api_register_device_type_staged(const tc_device_type_desc *desc) {
    if (!stage.plugin) return outside_init("register_device_type");
    if (!desc || !struct_ok(desc->struct_size, sizeof(tc_device_type_desc)) || !desc->name || !desc->name[0])
        return tc_set_error(TC_ERR_VALUE, "register_device_type: malformed descriptor");
    if (tc_device_type_id(desc->name) >= 0)
        return tc_set_error(TC_ERR_VALUE, "device type '%s' is already registered", desc->name);
    for (int32_t i = 0; i < stage.devices.n; i++)
        if (strcmp(LIST_AT(stage.devices, tc_device_type_desc, i)->name, desc->name) == 0)
            return tc_set_error(TC_ERR_VALUE, "device type '%s' is already registered", desc->name);
    tc_device_type_desc copy = {0};
    memcpy(&copy, desc, sizeof copy); /* 1.0 and 1.1 descriptors have the same size */
    if (list_push(&stage.devices, &copy)) return TC_FAIL;
    return stage.first_device_type + stage.devices.n - 1;
}

static int api_register_allocator_staged(int32_t device_type, const tc_allocator *allocator) {
    if (!stage.plugin) return outside_init("register_allocator");
    if (!allocator || !struct_ok(allocator->struct_size, sizeof(tc_allocator)) || !allocator->alloc || !allocator->free)
        return tc_set_error(TC_ERR_VALUE, "register_allocator: malformed allocator");
    staged_allocator s = {device_type, allocator};
    return list_push(&stage.allocators, &s);
}

static int api_register_blas_staged(const tc_blas_provider *provider) {
    if (!stage.plugin) return outside_init("register_blas");
    if (!provider || !struct_ok(provider->struct_size, TC_BLAS_PROVIDER_SIZE_1_0) || !provider->name ||
        !provider->sgemm || !provider->dgemm)
        return tc_set_error(TC_ERR_VALUE, "register_blas: malformed provider");
    staged_provider s = {false, provider, provider->name};
    return list_push(&stage.providers, &s);
}

static int api_register_fft_staged(const tc_fft_provider *provider) {
    if (!stage.plugin) return outside_init("register_fft");
    if (tc_fft_check(provider)) return TC_FAIL;
    staged_provider s = {true, provider, provider->name};
    return list_push(&stage.providers, &s);
}

static int32_t api_register_layout_staged(const char *name) {
    if (!stage.plugin) return outside_init("register_layout");
    if (!name || !name[0]) return tc_set_error(TC_ERR_VALUE, "register_layout: no name");
    if (tc_layout_id(name) >= 0) return tc_set_error(TC_ERR_VALUE, "layout '%s' is already registered", name);
    char *copy = strdup(name);
    if (!copy || list_push(&stage.layouts, &copy)) {
        free(copy);
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    int32_t id = tc_layout_count() + stage.layouts.n - 1;
    if (id >= TC_MAX_LAYOUTS) return tc_set_error(TC_ERR_RUNTIME, "too many layouts (at most %d)", TC_MAX_LAYOUTS);
    return id;
}

/* An op: added at once outside init (a running program), staged during it. Its kernel name exists
 * from the start so that the plugin's kernels for it can be staged too. */
static int32_t api_register_op_staged(const tc_op_def *def) {
    if (!def || !struct_ok(def->struct_size, sizeof(tc_op_def)) || !def->schema)
        return tc_set_error(TC_ERR_VALUE, "register_op: malformed definition");
    if (!stage.plugin) return tc_op_define(def->schema, def->meta);
    struct tc_op *parsed = tc_schema_parse(def->schema);
    if (!parsed) return TC_FAIL;
    char name[256];
    snprintf(name, sizeof name, "%s%s%s", parsed->schema.name, parsed->schema.overload[0] ? "." : "",
             parsed->schema.overload);
    bool namespaced = strstr(parsed->schema.name, "::") != NULL;
    free(parsed);
    if (!namespaced) return tc_set_error(TC_ERR_VALUE, "register_op: %s needs a namespace (\"myns::name\")", name);
    if (tc_op_lookup(name) >= 0) return tc_set_error(TC_ERR_RUNTIME, "op %s is already defined", name);
    if (tc_kernel_add_name(name) < 0) return TC_FAIL;
    staged_op s = {strdup(def->schema), def->meta, tc_op_count() + stage.ops.n};
    if (!s.schema || list_push(&stage.ops, &s)) {
        free(s.schema);
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    return s.predicted_id;
}

/* A runtime op's backward: set at once outside init, staged during it (the op may be staged too). */
static int api_register_backward_staged(int32_t op, tc_backward_kernel_fn fn, void *ctx) {
    if (!fn) return tc_set_error(TC_ERR_VALUE, "register_backward: no function");
    if (!stage.plugin) return tc_op_set_backward(op, fn, ctx);
    staged_backward b = {op, fn, ctx};
    if (list_push(&stage.backwards, &b)) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    return TC_OK;
}

/* Every registration member goes through refused(), so a refusal is remembered. */
static int api_register_kernel(const char *op, int32_t device_type, int32_t layout, int32_t dtype, tc_kernel_fn fn) {
    return refused(api_register_kernel_staged(op, device_type, layout, dtype, fn, 0));
}
static int api_register_kernel_flags(const char *op, int32_t device_type, int32_t layout, int32_t dtype,
                                     tc_kernel_fn fn, uint32_t flags) {
    return refused(api_register_kernel_staged(op, device_type, layout, dtype, fn, flags));
}
static int api_register_fallback(int32_t device_type, int32_t layout, tc_kernel_fn fn) {
    return refused(api_register_fallback_staged(device_type, layout, fn));
}
static int32_t api_register_device_type(const tc_device_type_desc *desc) {
    return refused(api_register_device_type_staged(desc));
}
static int api_register_allocator(int32_t device_type, const tc_allocator *allocator) {
    return refused(api_register_allocator_staged(device_type, allocator));
}
static int api_register_blas(const tc_blas_provider *provider) { return refused(api_register_blas_staged(provider)); }
static int api_register_fft(const tc_fft_provider *provider) { return refused(api_register_fft_staged(provider)); }
static int32_t api_register_layout(const char *name) { return refused(api_register_layout_staged(name)); }
static int32_t api_register_op(const tc_op_def *def) { return refused(api_register_op_staged(def)); }
static int api_register_backward(int32_t op, tc_backward_kernel_fn fn, void *ctx) {
    return refused(api_register_backward_staged(op, fn, ctx));
}

/* ---- the rest of the table ---- */

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

static int api_tensor_view(const tc_tensor *t, tc_view *out) {
    if (!t || !out) return tc_set_error(TC_ERR_VALUE, "tensor_view: NULL argument");
    *out = (tc_view){.data = tc_tensor_data(t), .sizes = t->sizes, .strides = t->strides, .ndim = t->ndim,
                     .dtype = t->dtype, .device = t->device, .struct_size = sizeof(tc_view), .layout = t->layout};
    return TC_OK;
}

/* NULL without an error for device types that have no generator: the plugin decides what to say. */
static tc_generator *api_generator_default(int32_t device_type) {
    if (device_type != TC_DEVICE_CPU) return NULL;
    return tc_generator_default(device_type);
}

static const tc_core_api api = {
    .struct_size = sizeof(tc_core_api),
    .abi_major = TC_ABI_MAJOR,
    .abi_minor = TC_ABI_MINOR,
    .set_error = api_set_error,
    .op_id = tc_kernel_id,
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
    .register_op = api_register_op,
    .register_layout = api_register_layout,
    .register_fallback = api_register_fallback,
    .op_lookup = tc_op_lookup,
    .register_backward = api_register_backward,
    .call_op = tc_call_op,
    .tensor_retain = tc_tensor_retain,
    .tensor_release = tc_tensor_release,
    .tensor_view = api_tensor_view,
    .device_type_id = tc_device_type_id,
    .values_release = tc_values_release,
    .parallel_for = tc_parallel_for,
    .generator_default = api_generator_default,
    .generator_lock = tc_generator_lock,
    .generator_unlock = tc_generator_unlock,
    .generator_fill_u32 = tc_generator_fill_u32,
    .generator_fill_u64 = tc_generator_fill_u64,
    .generator_take_normal = tc_generator_take_normal,
    .generator_put_normal = tc_generator_put_normal,
    .register_kernel_flags = api_register_kernel_flags,
    .kernel_output = tc_kernel_output,
    .register_fft = api_register_fft,
    .fft_for = tc_fft_for,
};

const tc_core_api *tc_core_api_table(void) { return &api; }
