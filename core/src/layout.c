/* The layout registry: "strided" and "sparse_coo" are built in, plugins register more by name. */
#include "core_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *names[TC_MAX_LAYOUTS] = {"strided", "sparse_coo"};
static atomic_int count = 2;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int32_t tc_layout_id(const char *name) {
    int32_t n = atomic_load(&count);
    for (int32_t i = 0; name && i < n; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

const char *tc_layout_name(int32_t layout) {
    return layout >= 0 && layout < atomic_load(&count) ? names[layout] : "unknown";
}

int32_t tc_layout_count(void) { return atomic_load(&count); }

int32_t tc_layout_register(const char *name) {
    if (!name || !name[0]) return tc_set_error(TC_ERR_VALUE, "register_layout: no name");
    pthread_mutex_lock(&lock);
    int32_t id;
    if (tc_layout_id(name) >= 0) {
        id = tc_set_error(TC_ERR_VALUE, "layout '%s' is already registered", name);
    } else if (atomic_load(&count) == TC_MAX_LAYOUTS) {
        id = tc_set_error(TC_ERR_RUNTIME, "too many layouts (at most %d)", TC_MAX_LAYOUTS);
    } else if (!(names[atomic_load(&count)] = strdup(name))) {
        id = tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    } else {
        id = atomic_fetch_add(&count, 1);
    }
    pthread_mutex_unlock(&lock);
    return id;
}

void tc_backend_format(int32_t backend, char *buf, size_t len) {
    int32_t layout = backend % TC_MAX_LAYOUTS;
    const char *device = tc_device_type_name(backend / TC_MAX_LAYOUTS);
    if (layout == TC_STRIDED)
        snprintf(buf, len, "%s", device);
    else
        snprintf(buf, len, "%s(%s)", device, tc_layout_name(layout));
}
