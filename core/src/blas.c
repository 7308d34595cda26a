/* BLAS providers: registered by plugins, one current, chosen by TORCH_BLAS or at run time. */
#include "core_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tc_blas_provider **providers; /* grows; written only while plugins load, once */
static int32_t n_providers, cap_providers;
static _Atomic(const tc_blas_provider *) current;

int tc_blas_reserve(int32_t more) {
    if (n_providers + more <= cap_providers) return TC_OK;
    int32_t cap = n_providers + more + 4;
    const tc_blas_provider **p = realloc(providers, sizeof(*p) * (size_t)cap);
    if (!p) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory registering a BLAS provider");
    providers = p;
    cap_providers = cap;
    return TC_OK;
}

int tc_blas_register(const tc_blas_provider *p) {
    if (!p || p->struct_size < TC_BLAS_PROVIDER_SIZE_1_0 || !p->name || !p->sgemm || !p->dgemm)
        return tc_set_error(TC_ERR_VALUE, "register_blas: malformed provider");
    if (tc_blas_find(p->name))
        return tc_set_error(TC_ERR_VALUE, "BLAS provider '%s' is already registered", p->name);
    if (tc_blas_reserve(1) != TC_OK) return TC_FAIL;
    providers[n_providers++] = p;
    return TC_OK;
}

void tc_blas_unregister(const tc_blas_provider *p) {
    for (int32_t i = 0; i < n_providers; i++) {
        if (providers[i] != p) continue;
        memmove(&providers[i], &providers[i + 1], sizeof(providers[0]) * (size_t)(n_providers - i - 1));
        n_providers--;
        if (atomic_load(&current) == p) atomic_store(&current, NULL);
        return;
    }
}

const tc_blas_provider *tc_blas_find(const char *name) {
    for (int32_t i = 0; i < n_providers; i++)
        if (strcmp(providers[i]->name, name) == 0) return providers[i];
    return NULL;
}

static void list_names(char *names, size_t len) {
    names[0] = 0;
    for (int32_t i = 0; i < n_providers; i++) {
        if (i) strncat(names, ", ", len - strlen(names) - 1);
        strncat(names, providers[i]->name, len - strlen(names) - 1);
    }
    if (!n_providers) snprintf(names, len, "none");
}

/* TORCH_BLAS when it names a loaded provider, else BLIS, else OpenBLAS, else the first. A TORCH_BLAS
 * naming no loaded provider is a mistake worth saying, not a silent fall-back. */
void tc_blas_select_default(void) {
    const char *env = getenv("TORCH_BLAS");
    const tc_blas_provider *p = env && *env ? tc_blas_find(env) : NULL;
    if (env && *env && !p) {
        char names[256];
        list_names(names, sizeof names);
        tc_warn("TORCH_BLAS='%s' names no loaded BLAS provider (loaded: %s); using the default", env, names);
    }
    if (!p) p = tc_blas_find("blis");
    if (!p) p = tc_blas_find("openblas");
    if (!p && n_providers) p = providers[0];
    if (p && p->set_num_threads) p->set_num_threads(tc_threads_effective());
    atomic_store(&current, p);
}

const tc_blas_provider *tc_blas_current(void) { return atomic_load(&current); }

int tc_blas_use(const char *name) {
    tc_plugins_load();
    const tc_blas_provider *p = tc_blas_find(name);
    if (!p) {
        char names[256];
        list_names(names, sizeof names);
        return tc_set_error(TC_ERR_VALUE, "unknown BLAS provider '%s'; loaded providers: %s", name, names);
    }
    if (p->set_num_threads) p->set_num_threads(tc_threads_effective());
    atomic_store(&current, p);
    return TC_OK;
}

const char *tc_blas_current_name(void) {
    const tc_blas_provider *p = tc_blas_current();
    return p ? p->name : NULL;
}

const char *tc_blas_describe(void) {
    const tc_blas_provider *p = tc_blas_current();
    return p ? (p->describe ? p->describe() : p->name) : "none";
}

const char *tc_blas_lapack_describe(void) {
    const tc_blas_provider *p = tc_blas_current();
    const tc_lapack *l = p && TC_STRUCT_HAS(p, tc_blas_provider, lapack) ? p->lapack : NULL;
    return l ? (l->describe ? l->describe : "LAPACK") : "none";
}

int tc_blas_num_threads(void) {
    const tc_blas_provider *p = tc_blas_current();
    return p && p->get_num_threads ? p->get_num_threads() : 0;
}

int32_t tc_blas_count(void) { return n_providers; }

const char *tc_blas_name(int32_t i) { return i >= 0 && i < n_providers ? providers[i]->name : NULL; }
