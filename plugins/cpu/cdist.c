/*
 * cdist.c - _cdist_forward: the p-norm distances between the rows of x1[r1,c] and those of x2[r2,c],
 * per batch (both expanded to the result's batch by the core).
 *
 * As PyTorch 1.13: p = 2 with compute_mode 1, or compute_mode 0 (None) with more than 25 rows on
 * either side, goes through a matrix product of the rows extended with their squared norms
 * ([-2x, |x|^2, 1] . [y, 1, |y|^2]), clamped at 0 before the square root (cancellation may leave
 * a small negative), so nearby rows carry that rounding as they do in PyTorch; every other case sums |x - y|^p directly (p = 0 counts
 * differing coordinates, p = inf takes the largest), accumulating in double.
 *
 * Contract (docs/plugin-abi.md): cdist  x1[r1,c], x2[r2,c] -> d[r1,r2], batch dims first; args:
 * p (float), compute_mode (int?).
 */
#include <math.h>
#include <string.h>

#include "cpu.h"

static int64_t batch_of(const tc_view *v) {
    int64_t n = 1;
    for (int32_t d = 0; d < v->ndim - 2; d++) n *= v->sizes[d];
    return n;
}

static int64_t offset_of(const tc_view *v, int64_t b) {
    int64_t off = 0;
    for (int32_t d = v->ndim - 3; d >= 0; d--) {
        off += (b % v->sizes[d]) * v->strides[d];
        b /= v->sizes[d];
    }
    return off;
}

static double load(const tc_view *v, int64_t o) {
    return v->dtype == TC_FLOAT64 ? ((const double *)v->data)[o] : (double)((const float *)v->data)[o];
}

static void store(const tc_view *v, int64_t o, double x) {
    if (v->dtype == TC_FLOAT64)
        ((double *)v->data)[o] = x;
    else
        ((float *)v->data)[o] = (float)x;
}

static double distance(const tc_view *x1, int64_t o1, const tc_view *x2, int64_t o2, int64_t c, double p) {
    const int64_t s1 = x1->strides[x1->ndim - 1], s2 = x2->strides[x2->ndim - 1];
    double acc = 0;
    for (int64_t k = 0; k < c; k++) {
        const double d = fabs(load(x1, o1 + k * s1) - load(x2, o2 + k * s2));
        if (p == 0)
            acc += d != 0;
        else if (p == 1)
            acc += d;
        else if (p == 2)
            acc += d * d;
        else if (isinf(p))
            acc = d > acc || d != d ? d : acc;
        else
            acc += pow(d, p);
    }
    return p == 0 || p == 1 || isinf(p) ? acc : p == 2 ? sqrt(acc) : pow(acc, 1.0 / p);
}

/* The matrix-product path for one batch: the extended rows into scratch, one GEMM, then clamp and
 * sqrt. Returns 0, or -1 without a provider (the caller then computes directly) or memory. */
static int euclid_mm(const tc_view *x1, int64_t o1, const tc_view *x2, int64_t o2, const tc_view *d, int64_t od) {
    const tc_blas_provider *bp = cpu_core->blas_current ? cpu_core->blas_current() : NULL;
    if (!bp) return -1;
    const int64_t r1 = x1->sizes[x1->ndim - 2], r2 = x2->sizes[x2->ndim - 2], c = x1->sizes[x1->ndim - 1];
    const int64_t w = c + 2;
    const size_t bytes = sizeof(double) * (size_t)(w * (r1 + r2) + r1 * r2);
    double *a = cpu_core->host_alloc(bytes);
    if (!a) return -1;
    double *b = a + w * r1, *m = b + w * r2;
    const int64_t s10 = x1->strides[x1->ndim - 2], s11 = x1->strides[x1->ndim - 1];
    const int64_t s20 = x2->strides[x2->ndim - 2], s21 = x2->strides[x2->ndim - 1];
    for (int64_t i = 0; i < r1; i++) {
        double norm = 0;
        for (int64_t k = 0; k < c; k++) {
            const double x = load(x1, o1 + i * s10 + k * s11);
            a[i * w + k] = -2 * x;
            norm += x * x;
        }
        a[i * w + c] = norm, a[i * w + c + 1] = 1;
    }
    for (int64_t j = 0; j < r2; j++) {
        double norm = 0;
        for (int64_t k = 0; k < c; k++) {
            const double y = load(x2, o2 + j * s20 + k * s21);
            b[j * w + k] = y;
            norm += y * y;
        }
        b[j * w + c] = 1, b[j * w + c + 1] = norm;
    }
    if (x1->dtype == TC_FLOAT64) {
        bp->dgemm(0, 1, r1, r2, w, 1.0, a, w, b, w, 0.0, m, r2);
    } else { /* float32 products in float, as PyTorch's: the rows narrowed in place (each float lands
              * before the double it comes from), the result widened from the top down */
        float *fa = (float *)a, *fm = (float *)m;
        for (int64_t e = 0; e < w * (r1 + r2); e++) fa[e] = (float)a[e];
        bp->sgemm(0, 1, r1, r2, w, 1.0f, fa, w, fa + w * r1, w, 0.0f, fm, r2);
        for (int64_t e = r1 * r2 - 1; e >= 0; e--) m[e] = fm[e];
    }
    const int64_t t0 = d->strides[d->ndim - 2], t1 = d->strides[d->ndim - 1];
    for (int64_t i = 0; i < r1; i++)
        for (int64_t j = 0; j < r2; j++) {
            const double v = m[i * r2 + j]; /* clamp_min keeps a NaN */
            store(d, od + i * t0 + j * t1, x1->dtype == TC_FLOAT64 ? sqrt(v < 0 ? 0 : v)
                                                                   : sqrtf((float)v < 0 ? 0 : (float)v));
        }
    cpu_core->host_free(a, bytes);
    return 0;
}

static int k_cdist(const tc_kernel_args *args) {
    if (cpu_check_args(args, 2, 1, "cdist")) return TC_FAIL;
    const tc_view *x1 = &args->inputs[0], *x2 = &args->inputs[1], *d = &args->outputs[0];
    if (d->dtype != TC_FLOAT32 && d->dtype != TC_FLOAT64)
        return cpu_core->set_error(TC_ERR_RUNTIME, "\"cdist\" not implemented for '%s'",
                                   d->dtype == TC_FLOAT16 ? "Half" : "BFloat16");
    const double p = args->args[2].v.f;
    const int64_t mode = args->args[3].tag == TC_VALUE_INT ? args->args[3].v.i : 0;
    const int64_t r1 = x1->sizes[x1->ndim - 2], r2 = x2->sizes[x2->ndim - 2], c = x1->sizes[x1->ndim - 1];
    const bool mm = p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25))) && c > 0;
    const int64_t t0 = d->strides[d->ndim - 2], t1 = d->strides[d->ndim - 1];
    const int64_t s10 = x1->strides[x1->ndim - 2], s20 = x2->strides[x2->ndim - 2];
    for (int64_t b = 0, n = batch_of(d); b < n; b++) {
        const int64_t o1 = offset_of(x1, b), o2 = offset_of(x2, b), od = offset_of(d, b);
        if (mm && euclid_mm(x1, o1, x2, o2, d, od) == 0) continue;
        for (int64_t i = 0; i < r1; i++)
            for (int64_t j = 0; j < r2; j++)
                store(d, od + i * t0 + j * t1, distance(x1, o1 + i * s10, x2, o2 + j * s20, c, p));
    }
    return TC_OK;
}

static const cpu_kernel_entry kernels[] = {{"cdist", TC_ANY_DTYPE, k_cdist}};
CPU_KERNEL_TABLE(kernels);
