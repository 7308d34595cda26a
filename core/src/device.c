/* The device type registry: "cpu" is built in; plugins register the rest with their allocators. */
#include "core_internal.h"

#include <string.h>

static struct {
    tc_device_type_desc desc;
    const tc_allocator *allocator;
} types[TC_MAX_DEVICE_TYPES];
static int32_t n_types;

static int32_t cpu_count(void) { return 1; }

static void ensure_cpu(void) {
    if (n_types) return;
    types[0].desc = (tc_device_type_desc){.struct_size = sizeof(tc_device_type_desc), .name = "cpu",
                                          .device_count = cpu_count};
    types[0].allocator = tc_alloc_cpu();
    n_types = 1;
}

int32_t tc_device_register(const tc_device_type_desc *desc) {
    ensure_cpu();
    if (!desc || desc->struct_size < sizeof(tc_device_type_desc) || !desc->name)
        return tc_set_error(TC_ERR_VALUE, "register_device_type: malformed descriptor");
    if (tc_device_type_id(desc->name) >= 0)
        return tc_set_error(TC_ERR_VALUE, "device type '%s' is already registered", desc->name);
    if (n_types == TC_MAX_DEVICE_TYPES)
        return tc_set_error(TC_ERR_RUNTIME, "too many device types (at most %d)", TC_MAX_DEVICE_TYPES);
    types[n_types].desc = *desc;
    return n_types++;
}

int tc_device_set_allocator(int32_t type, const tc_allocator *allocator) {
    ensure_cpu();
    if (type < 0 || type >= n_types)
        return tc_set_error(TC_ERR_VALUE, "register_allocator: unknown device type %d", type);
    if (!allocator || allocator->struct_size < sizeof(tc_allocator) || !allocator->alloc || !allocator->free)
        return tc_set_error(TC_ERR_VALUE, "register_allocator: malformed allocator");
    types[type].allocator = allocator;
    return TC_OK;
}

const tc_allocator *tc_alloc_for(int32_t type) {
    ensure_cpu();
    return type >= 0 && type < n_types ? types[type].allocator : NULL;
}

int32_t tc_device_type_id(const char *name) {
    ensure_cpu();
    for (int32_t i = 0; i < n_types; i++)
        if (strcmp(types[i].desc.name, name) == 0) return i;
    return -1;
}

const char *tc_device_type_name(int32_t type) {
    ensure_cpu();
    return type >= 0 && type < n_types ? types[type].desc.name : "unknown";
}

int32_t tc_device_count(int32_t type) {
    ensure_cpu();
    if (type < 0 || type >= n_types || !types[type].desc.device_count) return 0;
    return types[type].desc.device_count();
}

const tc_device_type_desc *tc_device_desc(int32_t type) {
    ensure_cpu();
    return type >= 0 && type < n_types ? &types[type].desc : NULL;
}

int32_t tc_device_type_count(void) {
    ensure_cpu();
    return n_types;
}

bool tc_device_valid(tc_device d) {
    return d.type >= 0 && d.type < n_types && d.index >= 0 && d.index < tc_device_count(d.type);
}

int tc_device_allocator_stats(int32_t type, tc_allocator_stats *out) {
    const tc_allocator *a = tc_alloc_for(type);
    if (!a) return tc_set_error(TC_ERR_VALUE, "unknown device type %d", type);
    memset(out, 0, sizeof *out);
    if (a->stats) a->stats(a->ctx, out);
    return TC_OK;
}

void tc_empty_cache(int32_t type) {
    const tc_allocator *a = tc_alloc_for(type);
    if (a && a->empty_cache) a->empty_cache(a->ctx);
}
