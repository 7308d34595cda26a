/* BLAS providers: registered by plugins, one current, chosen by TORCH_BLAS or at run time (the
 * registry is providers.c's). */
#include "core_internal.h"
#include "providers.h"

static const char *const preferred[] = {"blis", "openblas", NULL};
static tc_provider_registry blas = {.what = "BLAS", .env = "TORCH_BLAS", .preferred = preferred};

int tc_blas_reserve(int32_t more) { return tc_providers_reserve(&blas, more); }

int tc_blas_register(const tc_blas_provider *p) {
    if (!p || p->struct_size < TC_BLAS_PROVIDER_SIZE_1_0 || !p->name || !p->sgemm || !p->dgemm)
        return tc_set_error(TC_ERR_VALUE, "register_blas: malformed provider");
    return tc_providers_register(&blas, (const tc_provider_head *)p);
}

void tc_blas_unregister(const tc_blas_provider *p) { tc_providers_unregister(&blas, (const tc_provider_head *)p); }

const tc_blas_provider *tc_blas_find(const char *name) {
    return (const tc_blas_provider *)tc_providers_find(&blas, name);
}

/* TORCH_BLAS when it names a loaded provider, else BLIS, else OpenBLAS, else the first. */
void tc_blas_select_default(void) {
    const tc_blas_provider *p = (const tc_blas_provider *)tc_providers_select_default(&blas);
    if (p && p->set_num_threads) p->set_num_threads(tc_threads_effective());
}

const tc_blas_provider *tc_blas_current(void) { return (const tc_blas_provider *)atomic_load(&blas.current); }

int tc_blas_use(const char *name) {
    tc_plugins_load();
    const tc_blas_provider *p = tc_blas_find(name);
    if (p && p->set_num_threads) p->set_num_threads(tc_threads_effective());
    return tc_providers_use(&blas, name) ? TC_OK : TC_FAIL;
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

int32_t tc_blas_count(void) { return blas.n; }

const char *tc_blas_name(int32_t i) { return tc_providers_name(&blas, i); }
