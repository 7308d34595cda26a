/* BLAS providers: registered by plugins, one current, chosen by TORCH_BLAS or at run time. */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PROVIDERS 8

static const tc_blas_provider *providers[MAX_PROVIDERS];
static int32_t n_providers;
static _Atomic(const tc_blas_provider *) current;

int tc_blas_register(const tc_blas_provider *p) {
    if (!p || p->struct_size < sizeof(tc_blas_provider) || !p->name || !p->sgemm || !p->dgemm)
        return tc_set_error(TC_ERR_VALUE, "register_blas: malformed provider");
    for (int32_t i = 0; i < n_providers; i++)
        if (strcmp(providers[i]->name, p->name) == 0)
            return tc_set_error(TC_ERR_VALUE, "BLAS provider '%s' is already registered", p->name);
    if (n_providers == MAX_PROVIDERS) return tc_set_error(TC_ERR_RUNTIME, "too many BLAS providers");
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

static const tc_blas_provider *find(const char *name) {
    for (int32_t i = 0; i < n_providers; i++)
        if (strcmp(providers[i]->name, name) == 0) return providers[i];
    return NULL;
}

/* TORCH_BLAS when it names a loaded provider, else BLIS, else OpenBLAS, else the first. */
void tc_blas_select_default(void) {
    const char *env = getenv("TORCH_BLAS");
    const tc_blas_provider *p = env && *env ? find(env) : NULL;
    if (!p) p = find("blis");
    if (!p) p = find("openblas");
    if (!p && n_providers) p = providers[0];
    if (p && p->set_num_threads) p->set_num_threads(tc_get_num_threads());
    atomic_store(&current, p);
}

const tc_blas_provider *tc_blas_current(void) { return atomic_load(&current); }

int tc_blas_use(const char *name) {
    tc_plugins_load();
    const tc_blas_provider *p = find(name);
    if (!p) {
        char names[256] = "";
        for (int32_t i = 0; i < n_providers; i++) {
            if (i) strncat(names, ", ", sizeof names - strlen(names) - 1);
            strncat(names, providers[i]->name, sizeof names - strlen(names) - 1);
        }
        return tc_set_error(TC_ERR_VALUE, "unknown BLAS provider '%s'; loaded providers: %s", name,
                            n_providers ? names : "none");
    }
    if (p->set_num_threads) p->set_num_threads(tc_get_num_threads());
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

int tc_blas_num_threads(void) {
    const tc_blas_provider *p = tc_blas_current();
    return p && p->get_num_threads ? p->get_num_threads() : 0;
}

int32_t tc_blas_count(void) { return n_providers; }

const char *tc_blas_name(int32_t i) { return i >= 0 && i < n_providers ? providers[i]->name : NULL; }
