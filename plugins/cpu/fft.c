/*
 * fft.c - the transforms of torch.fft over the current FFT provider (tc_core_api.fft_for, plugins/fft).
 *
 * Contract (docs/plugin-abi.md): input x (any strides), contiguous output y; ints = the transformed
 * dims (wrapped, unique); args = (self, dim, normalization, forward | onesided | last_dim_size).
 *   _fft_c2c  complex T -> complex T, each dim transformed in turn (the first from x into y, the
 *             others in place in y).
 *   _fft_r2c  real -> complex T: r2c along the last dim (two-sided: the other half filled with the
 *             conjugates, X[n-k] = conj X[k]), then c2c forward along the others in place.
 *   _fft_c2r  complex T -> real: the first n/2+1 points along the last dim copied into a contiguous
 *             buffer (providers may overwrite c2r input), c2c backward along the others in it, then
 *             c2r into y.
 * Normalization (0 none, 1 1/sqrt(N), 2 1/N, N the product of the signal sizes) scales y at the end.
 * Each provider call covers every batch dim at once (FFTW plans them as one guru problem).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

static const tc_fft_provider *provider_for(int32_t dtype) {
    const tc_fft_provider *p = TC_CORE_HAS(cpu_core, fft_for) ? cpu_core->fft_for(dtype) : NULL;
    if (!p)
        cpu_core->set_error(TC_ERR_RUNTIME, "no loaded FFT provider transforms %s (torch.backends.fft.available(): "
                                            "install libfftw3-dev or libkissfft-dev and rebuild)",
                            cpu_core->dtype_name(dtype));
    return p;
}

/* One provider call along dim d: src (sizes, strides ss) -> dst (strides ds); batch = every other dim
 * of more than one element. kind: 0 c2c, 1 r2c, 2 c2r. */
static int transform(const tc_fft_provider *p, int kind, int32_t dtype, int32_t ndim, const int64_t *sizes, int32_t d,
                     int64_t n, const void *src, const int64_t *ss, void *dst, const int64_t *ds, int forward) {
    tc_fft_dim dim = {n, ss[d], ds[d]};
    tc_fft_dim *batch = malloc(sizeof(tc_fft_dim) * (size_t)(ndim + 1));
    if (!batch) return cpu_core->set_error(TC_ERR_RUNTIME, "out of memory");
    int32_t rank = 0;
    for (int32_t j = 0; j < ndim; j++)
        if (j != d && sizes[j] > 1) batch[rank++] = (tc_fft_dim){sizes[j], ss[j], ds[j]};
    char err[256] = "";
    int rc = kind == 0   ? p->c2c(dtype, &dim, rank, batch, src, dst, forward, err, sizeof err)
             : kind == 1 ? p->r2c(dtype, &dim, rank, batch, src, dst, err, sizeof err)
                         : p->c2r(dtype, &dim, rank, batch, (void *)src, dst, err, sizeof err);
    free(batch);
    if (rc != TC_OK) {
        err[sizeof err - 1] = 0;
        return cpu_core->set_error(TC_ERR_RUNTIME, "FFT provider '%s': %s", p->name, err);
    }
    return TC_OK;
}

static int64_t numel(int32_t ndim, const int64_t *sizes) {
    int64_t n = 1;
    for (int32_t i = 0; i < ndim; i++) n *= sizes[i];
    return n;
}

/* dst (strides ds) = src (strides ss) over sizes, elements of `elem` bytes. */
static void copy_strided(size_t elem, int32_t ndim, const int64_t *sizes, const char *src, const int64_t *ss, char *dst,
                         const int64_t *ds) {
    int64_t idx[TC_MAX_DIMS] = {0}, total = numel(ndim, sizes), so = 0, dof = 0;
    for (int64_t e = 0; e < total; e++) {
        memcpy(dst + dof * (int64_t)elem, src + so * (int64_t)elem, elem);
        for (int32_t j = ndim - 1; j >= 0; j--) {
            so += ss[j], dof += ds[j];
            if (++idx[j] < sizes[j]) break;
            so -= ss[j] * sizes[j], dof -= ds[j] * sizes[j];
            idx[j] = 0;
        }
    }
}

/* The contiguous strides of sizes. */
static void contiguous_strides(int32_t ndim, const int64_t *sizes, int64_t *strides) {
    int64_t s = 1;
    for (int32_t j = ndim - 1; j >= 0; j--) strides[j] = s, s *= sizes[j] > 1 ? sizes[j] : 1;
}

/* y (contiguous, `count` real numbers of dtype's part) *= the normalization's factor over `signal`. */
static void normalize(const tc_view *y, int64_t mode, double signal, int32_t real_dtype, int64_t count) {
    if (mode == 0) return;
    const double f = mode == 1 ? 1.0 / sqrt(signal) : 1.0 / signal;
    if (real_dtype == TC_FLOAT64)
        for (int64_t i = 0; i < count; i++) ((double *)y->data)[i] *= f;
    else
        for (int64_t i = 0; i < count; i++) ((float *)y->data)[i] *= (float)f;
}

static int k_fft_c2c(const tc_kernel_args *a) {
    const tc_view *x = &a->inputs[0], *y = &a->outputs[0];
    const int32_t dtype = y->dtype;
    const int64_t total = numel(y->ndim, y->sizes);
    if (total == 0) return TC_OK;
    const tc_fft_provider *p = a->n_ints ? provider_for(dtype) : NULL;
    if (a->n_ints && !p) return TC_FAIL;
    const int forward = a->args[3].v.b;
    if (!a->n_ints) copy_strided(cpu_core->dtype_size(dtype), x->ndim, x->sizes, x->data, x->strides, y->data, y->strides);
    double signal = 1;
    for (int32_t k = 0; k < a->n_ints; k++) {
        const int32_t d = (int32_t)a->ints[k];
        const bool first = k == 0;
        if (transform(p, 0, dtype, y->ndim, y->sizes, d, y->sizes[d], first ? x->data : y->data,
                      first ? x->strides : y->strides, y->data, y->strides, forward))
            return TC_FAIL;
        signal *= (double)y->sizes[d];
    }
    normalize(y, a->args[2].v.i, signal, (dtype == TC_COMPLEX128 ? TC_FLOAT64 : TC_FLOAT32), 2 * total);
    return TC_OK;
}

/* y[..., k] = conj y[..., n-k] for k in [n/2+1, n) along dim d (y contiguous, complex). */
#define FILL_CONJ(T)                                                                                    \
    static void fill_conj_##T(const tc_view *y, int32_t d) {                                          \
        const int64_t n = y->sizes[d], s = y->strides[d], lines = numel(y->ndim, y->sizes) / n;        \
        int64_t idx[TC_MAX_DIMS] = {0}, off = 0;                                                       \
        T *base = y->data;                                                                             \
        for (int64_t l = 0; l < lines; l++) {                                                          \
            T *line = base + 2 * off;                                                                  \
            for (int64_t k = n / 2 + 1; k < n; k++) {                                                  \
                line[2 * k * s] = line[2 * (n - k) * s];                                               \
                line[2 * k * s + 1] = -line[2 * (n - k) * s + 1];                                      \
            }                                                                                          \
            for (int32_t j = y->ndim - 1; j >= 0; j--) {                                               \
                if (j == d) continue;                                                                  \
                off += y->strides[j];                                                                  \
                if (++idx[j] < y->sizes[j]) break;                                                     \
                off -= y->strides[j] * y->sizes[j];                                                    \
                idx[j] = 0;                                                                            \
            }                                                                                          \
        }                                                                                              \
    }
FILL_CONJ(float)
FILL_CONJ(double)

static int k_fft_r2c(const tc_kernel_args *a) {
    const tc_view *x = &a->inputs[0], *y = &a->outputs[0];
    const int32_t dtype = y->dtype;
    const int64_t total = numel(y->ndim, y->sizes);
    if (total == 0) return TC_OK;
    const tc_fft_provider *p = provider_for(dtype);
    if (!p) return TC_FAIL;
    const int32_t last = (int32_t)a->ints[a->n_ints - 1];
    const int64_t n = x->sizes[last];
    /* the r2c's batch runs over x's sizes: equal to y's off the last dim */
    if (transform(p, 1, dtype, x->ndim, x->sizes, last, n, x->data, x->strides, y->data, y->strides, 1)) return TC_FAIL;
    if (y->sizes[last] > n / 2 + 1) {
        if (dtype == TC_COMPLEX128) fill_conj_double(y, last);
        else fill_conj_float(y, last);
    }
    double signal = (double)n;
    for (int32_t k = 0; k + 1 < a->n_ints; k++) {
        const int32_t d = (int32_t)a->ints[k];
        if (transform(p, 0, dtype, y->ndim, y->sizes, d, y->sizes[d], y->data, y->strides, y->data, y->strides, 1))
            return TC_FAIL;
        signal *= (double)y->sizes[d];
    }
    normalize(y, a->args[2].v.i, signal, (dtype == TC_COMPLEX128 ? TC_FLOAT64 : TC_FLOAT32), 2 * total);
    return TC_OK;
}

static int k_fft_c2r(const tc_kernel_args *a) {
    const tc_view *x = &a->inputs[0], *y = &a->outputs[0];
    const int32_t dtype = x->dtype;
    const int64_t total = numel(y->ndim, y->sizes);
    if (total == 0) return TC_OK;
    const tc_fft_provider *p = provider_for(dtype);
    if (!p) return TC_FAIL;
    const int32_t last = (int32_t)a->ints[a->n_ints - 1], ndim = x->ndim;
    const int64_t n = y->sizes[last];
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    for (int32_t j = 0; j < ndim; j++) sizes[j] = x->sizes[j];
    sizes[last] = n / 2 + 1;
    contiguous_strides(ndim, sizes, strides);
    const size_t elem = cpu_core->dtype_size(dtype);
    const int64_t count = numel(ndim, sizes);
    if (count > 0 && (uint64_t)count > SIZE_MAX / elem) return cpu_core->set_error(TC_ERR_RUNTIME, "out of memory");
    void *tmp = cpu_core->host_alloc((size_t)count * elem);
    if (!tmp) return cpu_core->set_error(TC_ERR_RUNTIME, "out of memory (%lld bytes for an FFT)", (long long)(count * (int64_t)elem));
    copy_strided(elem, ndim, sizes, x->data, x->strides, tmp, strides);
    int rc = TC_OK;
    double signal = (double)n;
    for (int32_t k = 0; k + 1 < a->n_ints && rc == TC_OK; k++) {
        const int32_t d = (int32_t)a->ints[k];
        rc = transform(p, 0, dtype, ndim, sizes, d, sizes[d], tmp, strides, tmp, strides, 0);
        signal *= (double)sizes[d];
    }
    if (rc == TC_OK) rc = transform(p, 2, dtype, ndim, y->sizes, last, n, tmp, strides, y->data, y->strides, 0);
    cpu_core->host_free(tmp, (size_t)count * elem);
    if (rc == TC_OK) normalize(y, a->args[2].v.i, signal, (dtype == TC_COMPLEX128 ? TC_FLOAT64 : TC_FLOAT32), total);
    return rc;
}

static const cpu_kernel_entry kernels[] = {
    {"_fft_c2c", TC_COMPLEX64, k_fft_c2c},  {"_fft_c2c", TC_COMPLEX128, k_fft_c2c},
    {"_fft_r2c", TC_COMPLEX64, k_fft_r2c},  {"_fft_r2c", TC_COMPLEX128, k_fft_r2c},
    {"_fft_c2r", TC_COMPLEX64, k_fft_c2r},  {"_fft_c2r", TC_COMPLEX128, k_fft_c2r},
};
CPU_KERNEL_TABLE(kernels);
