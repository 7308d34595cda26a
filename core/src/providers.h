/* providers.h - the registry shared by every provider kind (BLAS, FFT): plugins register providers
 * while they load, the core keeps one current, chosen by an environment variable (TORCH_BLAS,
 * TORCH_FFT) or at run time. Every provider struct starts with struct_size, reserved, name. */
#ifndef TC_PROVIDERS_H
#define TC_PROVIDERS_H

#include <stdatomic.h>
#include <stdint.h>

#include "torch_core/tc_abi.h"

typedef struct tc_provider_head {
    uint32_t struct_size;
    uint32_t reserved;
    const char *name;
} tc_provider_head;
_Static_assert(offsetof(tc_blas_provider, name) == offsetof(tc_provider_head, name), "providers start alike");
_Static_assert(offsetof(tc_fft_provider, name) == offsetof(tc_provider_head, name), "providers start alike");

typedef struct tc_provider_registry {
    const char *what;              /* "BLAS", "FFT": for messages */
    const char *env;               /* "TORCH_BLAS": names the provider to start with */
    const char *const *preferred;  /* the default, in order of preference, NULL-terminated */
    const tc_provider_head **items; /* grows; written only while plugins load, once */
    int32_t n, cap;
    _Atomic(const tc_provider_head *) current;
} tc_provider_registry;

/* Makes room for `more`, so that registering them cannot fail for lack of memory. */
int tc_providers_reserve(tc_provider_registry *r, int32_t more);
/* ValueError for a name already registered. */
int tc_providers_register(tc_provider_registry *r, const tc_provider_head *p);
void tc_providers_unregister(tc_provider_registry *r, const tc_provider_head *p);
const tc_provider_head *tc_providers_find(const tc_provider_registry *r, const char *name);
/* Env's provider when it names a loaded one (a warning when it names none), else the first preferred
 * one loaded, else the first registered; made current and returned (NULL when none loaded). */
const tc_provider_head *tc_providers_select_default(tc_provider_registry *r);
/* Makes `name` current (ValueError listing the loaded ones when unknown); the provider or NULL. */
const tc_provider_head *tc_providers_use(tc_provider_registry *r, const char *name);
const char *tc_providers_name(const tc_provider_registry *r, int32_t i); /* NULL out of range */

#endif
