/* FFT providers: registered by plugins (plugins/fft), one current, chosen by TORCH_FFT or at run time.
 * FFTW is preferred (fastest, both precisions); KissFFT (BSD) when FFTW's plugin is absent. A
 * precision the current provider lacks (KissFFT has float only) goes to the first loaded provider
 * that has it; tc_fft_describe says so. */
#include <stdio.h>
#include <string.h>

#include "core_internal.h"
#include "providers.h"

static const char *const preferred[] = {"fftw", "kissfft", NULL};
static tc_provider_registry fft = {.what = "FFT", .env = "TORCH_FFT", .preferred = preferred};

int tc_fft_reserve(int32_t more) { return tc_providers_reserve(&fft, more); }

int tc_fft_check(const tc_fft_provider *p) {
    if (!p || p->struct_size < TC_FFT_PROVIDER_SIZE_1_6 || !p->name || !p->c2c || !p->r2c || !p->c2r ||
        !(p->dtypes & ((1ull << TC_COMPLEX64) | (1ull << TC_COMPLEX128))))
        return tc_set_error(TC_ERR_VALUE, "register_fft: malformed provider");
    return TC_OK;
}

int tc_fft_register(const tc_fft_provider *p) {
    if (tc_fft_check(p)) return TC_FAIL;
    return tc_providers_register(&fft, (const tc_provider_head *)p);
}

void tc_fft_unregister(const tc_fft_provider *p) { tc_providers_unregister(&fft, (const tc_provider_head *)p); }

const tc_fft_provider *tc_fft_find(const char *name) { return (const tc_fft_provider *)tc_providers_find(&fft, name); }

void tc_fft_select_default(void) { tc_providers_select_default(&fft); }

static const tc_fft_provider *current(void) { return (const tc_fft_provider *)atomic_load(&fft.current); }

const tc_fft_provider *tc_fft_for(int32_t dtype) {
    const tc_fft_provider *p = current();
    if (p && dtype >= 0 && dtype < 64 && (p->dtypes >> dtype & 1)) return p;
    for (int32_t i = 0; i < fft.n; i++) {
        const tc_fft_provider *q = (const tc_fft_provider *)fft.items[i];
        if (dtype >= 0 && dtype < 64 && (q->dtypes >> dtype & 1)) return q;
    }
    return NULL;
}

int tc_fft_use(const char *name) {
    tc_plugins_load();
    return tc_providers_use(&fft, name) ? TC_OK : TC_FAIL;
}

const char *tc_fft_current_name(void) {
    tc_plugins_load();
    const tc_fft_provider *p = current();
    return p ? p->name : NULL;
}

/* The current provider's description, and where each precision it lacks goes. */
const char *tc_fft_describe(void) {
    static _Thread_local char text[512];
    tc_plugins_load();
    const tc_fft_provider *p = current();
    if (!p) return "none";
    snprintf(text, sizeof text, "%s", p->describe ? p->describe() : p->name);
    const int32_t dtypes[] = {TC_COMPLEX64, TC_COMPLEX128};
    const char *names[] = {"float32/complex64", "float64/complex128"};
    for (int i = 0; i < 2; i++) {
        if (p->dtypes >> dtypes[i] & 1) continue;
        const tc_fft_provider *q = tc_fft_for(dtypes[i]);
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "; %s: %s", names[i],
                 q ? q->name : "no loaded provider (transforms raise)");
    }
    return text;
}

int32_t tc_fft_count(void) {
    tc_plugins_load();
    return fft.n;
}

const char *tc_fft_name(int32_t i) { return tc_providers_name(&fft, i); }
