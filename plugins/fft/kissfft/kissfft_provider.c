/*
 * kissfft_provider.c - the "kissfft" FFT provider over Debian's KissFFT (BSD-3-Clause), float only:
 * Debian builds libkissfft-float alone, so complex128 is not offered (tc_fft_provider.dtypes) and the
 * core sends it elsewhere or refuses it.
 *
 * KissFFT transforms one contiguous line at a time: each line of the batch is gathered into a buffer,
 * transformed, and scattered to its strides. Real transforms go through the complex one (kiss_fftr
 * takes even lengths only): r2c transforms the line with zero imaginary parts and keeps n/2+1
 * points; c2r rebuilds the Hermitian line (X[n-k] = conj X[k]) and keeps the real parts of its
 * inverse, which ignores the imaginary parts of X[0] and X[n/2] as FFTW's c2r does. A configuration
 * (twiddles) is made per call and shared by its lines; calls share nothing, so they may run at once.
 */
#include <kiss_fft.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "torch_core/tc_abi.h"

enum { KIND_C2C_FORWARD, KIND_C2C_BACKWARD, KIND_R2C, KIND_C2R };

/* One line: `in` (stride is, in elements of its side) -> `out` (stride os). */
static void line(int kind, kiss_fft_cfg cfg, int64_t n, const float *in, int64_t is, float *out, int64_t os,
                 kiss_fft_cpx *a, kiss_fft_cpx *b) {
    const int64_t half = n / 2 + 1;
    switch (kind) {
    case KIND_R2C:
        for (int64_t k = 0; k < n; k++) a[k].r = in[k * is], a[k].i = 0;
        break;
    case KIND_C2R:
        for (int64_t k = 0; k < half; k++) a[k].r = in[2 * k * is], a[k].i = in[2 * k * is + 1];
        for (int64_t k = half; k < n; k++) a[k].r = a[n - k].r, a[k].i = -a[n - k].i;
        break;
    default:
        for (int64_t k = 0; k < n; k++) a[k].r = in[2 * k * is], a[k].i = in[2 * k * is + 1];
    }
    kiss_fft(cfg, a, b);
    switch (kind) {
    case KIND_C2R:
        for (int64_t k = 0; k < n; k++) out[k * os] = b[k].r;
        break;
    case KIND_R2C:
        for (int64_t k = 0; k < half; k++) out[2 * k * os] = b[k].r, out[2 * k * os + 1] = b[k].i;
        break;
    default:
        for (int64_t k = 0; k < n; k++) out[2 * k * os] = b[k].r, out[2 * k * os + 1] = b[k].i;
    }
}

static int run(int kind, int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch,
               const void *in, void *out, char *err, size_t len) {
    if (dtype != TC_COMPLEX64) {
        snprintf(err, len, "kissfft: Debian's KissFFT is float-only (libkissfft-float); no complex128 transforms");
        return TC_FAIL;
    }
    if (dim->n > INT_MAX / 2) {
        snprintf(err, len, "kissfft: a transform of %lld points exceeds KissFFT's int sizes", (long long)dim->n);
        return TC_FAIL;
    }
    const int n = (int)dim->n;
    kiss_fft_cfg cfg = kiss_fft_alloc(n, kind == KIND_C2C_BACKWARD || kind == KIND_C2R, NULL, NULL);
    kiss_fft_cpx *buf = malloc(sizeof(kiss_fft_cpx) * 2 * (size_t)n);
    int64_t *idx = calloc((size_t)batch_rank + 1, sizeof(int64_t));
    if (!cfg || !buf || !idx) {
        kiss_fft_free(cfg);
        free(buf);
        free(idx);
        snprintf(err, len, "kissfft: out of memory for a transform of %d points", n);
        return TC_FAIL;
    }
    int64_t lines = 1;
    for (int32_t j = 0; j < batch_rank; j++) lines *= batch[j].n;
    /* element strides in floats: complex sides count two per element */
    const int64_t in_scale = kind == KIND_R2C ? 1 : 2, out_scale = kind == KIND_C2R ? 1 : 2;
    int64_t ioff = 0, ooff = 0;
    for (int64_t l = 0; l < lines; l++) {
        line(kind, cfg, n, (const float *)in + ioff * in_scale, dim->is, (float *)out + ooff * out_scale, dim->os, buf,
             buf + n);
        for (int32_t j = batch_rank - 1; j >= 0; j--) { /* the next line: an odometer over the batch dims */
            ioff += batch[j].is, ooff += batch[j].os;
            if (++idx[j] < batch[j].n) break;
            ioff -= batch[j].is * batch[j].n, ooff -= batch[j].os * batch[j].n;
            idx[j] = 0;
        }
    }
    kiss_fft_free(cfg);
    free(buf);
    free(idx);
    return TC_OK;
}

static int kiss_c2c(int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, const void *in,
                    void *out, int forward, char *err, size_t len) {
    return run(forward ? KIND_C2C_FORWARD : KIND_C2C_BACKWARD, dtype, dim, batch_rank, batch, in, out, err, len);
}

static int kiss_r2c(int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, const void *in,
                    void *out, char *err, size_t len) {
    return run(KIND_R2C, dtype, dim, batch_rank, batch, in, out, err, len);
}

static int kiss_c2r(int32_t dtype, const tc_fft_dim *dim, int32_t batch_rank, const tc_fft_dim *batch, void *in,
                    void *out, char *err, size_t len) {
    return run(KIND_C2R, dtype, dim, batch_rank, batch, in, out, err, len);
}

static const char *kiss_describe(void) {
    return "KissFFT 131.1.0 (BSD-3-Clause), float only (Debian's libkissfft-float), one line at a time";
}

static const tc_fft_provider provider = {
    .struct_size = sizeof(tc_fft_provider),
    .name = "kissfft",
    .describe = kiss_describe,
    .dtypes = 1ull << TC_COMPLEX64,
    .c2c = kiss_c2c,
    .r2c = kiss_r2c,
    .c2r = kiss_c2r,
};

static int kiss_init(const tc_core_api *core, char *err, size_t len) {
    if (!TC_CORE_HAS(core, register_fft)) {
        snprintf(err, len, "this core has no FFT providers (ABI %d.%d; 1.6 added them)", core->abi_major,
                 core->abi_minor);
        return TC_FAIL;
    }
    return core->register_fft(&provider);
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT,
    .name = "fft-kissfft",
    .kind = TC_PLUGIN_KIND_FFT,
    .version = "1.0",
    .init = kiss_init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
