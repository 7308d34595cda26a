/* The registry of providers of one kind (providers.h): BLAS (blas.c) and FFT (fft.c). */
#include "providers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

int tc_providers_reserve(tc_provider_registry *r, int32_t more) {
    if (r->n + more <= r->cap) return TC_OK;
    int32_t cap = r->n + more + 4;
    const tc_provider_head **p = realloc(r->items, sizeof(*p) * (size_t)cap);
    if (!p) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory registering a %s provider", r->what);
    r->items = p;
    r->cap = cap;
    return TC_OK;
}

int tc_providers_register(tc_provider_registry *r, const tc_provider_head *p) {
    if (tc_providers_find(r, p->name))
        return tc_set_error(TC_ERR_VALUE, "%s provider '%s' is already registered", r->what, p->name);
    if (tc_providers_reserve(r, 1) != TC_OK) return TC_FAIL;
    r->items[r->n++] = p;
    return TC_OK;
}

void tc_providers_unregister(tc_provider_registry *r, const tc_provider_head *p) {
    for (int32_t i = 0; i < r->n; i++) {
        if (r->items[i] != p) continue;
        memmove(&r->items[i], &r->items[i + 1], sizeof(r->items[0]) * (size_t)(r->n - i - 1));
        r->n--;
        if (atomic_load(&r->current) == p) atomic_store(&r->current, NULL);
        return;
    }
}

const tc_provider_head *tc_providers_find(const tc_provider_registry *r, const char *name) {
    for (int32_t i = 0; i < r->n; i++)
        if (strcmp(r->items[i]->name, name) == 0) return r->items[i];
    return NULL;
}

static void list_names(const tc_provider_registry *r, char *names, size_t len) {
    names[0] = 0;
    for (int32_t i = 0; i < r->n; i++) {
        if (i) strncat(names, ", ", len - strlen(names) - 1);
        strncat(names, r->items[i]->name, len - strlen(names) - 1);
    }
    if (!r->n) snprintf(names, len, "none");
}

/* An environment variable naming no loaded provider is a mistake worth saying, not a silent fall-back. */
const tc_provider_head *tc_providers_select_default(tc_provider_registry *r) {
    const char *env = getenv(r->env);
    const tc_provider_head *p = env && *env ? tc_providers_find(r, env) : NULL;
    if (env && *env && !p) {
        char names[256];
        list_names(r, names, sizeof names);
        tc_warn("%s='%s' names no loaded %s provider (loaded: %s); using the default", r->env, env, r->what, names);
    }
    for (const char *const *d = r->preferred; !p && *d; d++) p = tc_providers_find(r, *d);
    if (!p && r->n) p = r->items[0];
    atomic_store(&r->current, p);
    return p;
}

const tc_provider_head *tc_providers_use(tc_provider_registry *r, const char *name) {
    const tc_provider_head *p = tc_providers_find(r, name);
    if (!p) {
        char names[256];
        list_names(r, names, sizeof names);
        tc_set_error(TC_ERR_VALUE, "unknown %s provider '%s'; loaded providers: %s", r->what, name, names);
        return NULL;
    }
    atomic_store(&r->current, p);
    return p;
}

const char *tc_providers_name(const tc_provider_registry *r, int32_t i) {
    return i >= 0 && i < r->n ? r->items[i]->name : NULL;
}
