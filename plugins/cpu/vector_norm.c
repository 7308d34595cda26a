/*
 * vector_norm.c - linalg_vector_norm: the ord-norm of each line of the reduced dims.
 *
 * Contract (docs/plugin-abi.md): vector_norm  x (kept dims first, then the reduced ones; T) -> y (the
 * kept dims, T); ints[0]: the number of kept dims, scalars[0]: ord. ord 0 counts nonzeros, inf and
 * -inf take the largest and smallest magnitude (NaN wins), others are (sum |x|^ord)^(1/ord), 2 as
 * sqrt(sum x^2). Sums accumulate in double; float16 and bfloat16 load through float.
 */
#include <math.h>

#include "cpu.h"
#include "dtype.h"

static double load(const tc_view *v, int64_t o) {
    switch (v->dtype) {
    case TC_FLOAT64: return ((const double *)v->data)[o];
    case TC_FLOAT32: return ((const float *)v->data)[o];
    case TC_FLOAT16: return cpu_ld_f16(((const _Float16 *)v->data)[o]);
    default: return cpu_ld_bf16(((const uint16_t *)v->data)[o]);
    }
}

static void store(const tc_view *v, int64_t o, double x) {
    switch (v->dtype) {
    case TC_FLOAT64: ((double *)v->data)[o] = x; break;
    case TC_FLOAT32: ((float *)v->data)[o] = (float)x; break;
    case TC_FLOAT16: ((_Float16 *)v->data)[o] = cpu_st_f16((float)x); break;
    default: ((uint16_t *)v->data)[o] = cpu_st_bf16((float)x); break;
    }
}

/* The norm of the line at offset `base` over dims [first, ndim) of x. */
static double line_norm(const tc_view *x, int32_t first, int64_t base, double ord) {
    int64_t idx[TC_MAX_DIMS] = {0}, count = 1;
    for (int32_t d = first; d < x->ndim; d++) count *= x->sizes[d];
    const bool inf = isinf(ord);
    double acc = inf && ord < 0 ? INFINITY : 0;
    int64_t off = base;
    for (int64_t i = 0; i < count; i++) {
        const double a = fabs(load(x, off));
        if (ord == 0) acc += a != 0;
        else if (inf) acc = a != a || acc != acc ? NAN : ord > 0 ? (a > acc ? a : acc) : (a < acc ? a : acc);
        else if (ord == 1) acc += a;
        else if (ord == 2) acc += a * a;
        else acc += pow(a, ord);
        for (int32_t d = x->ndim - 1; d >= first; d--) { /* the next element, odometer order */
            off += x->strides[d];
            if (++idx[d] < x->sizes[d]) break;
            off -= x->strides[d] * x->sizes[d];
            idx[d] = 0;
        }
    }
    if (ord == 0 || ord == 1 || inf) return acc;
    return ord == 2 ? sqrt(acc) : pow(acc, 1.0 / ord);
}

static int k_vector_norm(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 1, "vector_norm")) return TC_FAIL;
    const tc_view *x = &args->inputs[0], *y = &args->outputs[0];
    const int32_t kept = (int32_t)args->ints[0];
    const double ord = args->scalars[0].kind == TC_SCALAR_FLOAT ? args->scalars[0].v.f : (double)args->scalars[0].v.i;
    int64_t count = 1;
    for (int32_t d = 0; d < kept; d++) count *= y->sizes[d];
    for (int64_t i = 0; i < count; i++) {
        int64_t xo = 0, yo = 0, r = i;
        for (int32_t d = kept - 1; d >= 0; d--) {
            const int64_t k = r % y->sizes[d];
            r /= y->sizes[d];
            xo += k * x->strides[d], yo += k * y->strides[d];
        }
        store(y, yo, line_norm(x, kept, xo, ord));
    }
    return TC_OK;
}

static const cpu_kernel_entry kernels[] = {{"vector_norm", TC_ANY_DTYPE, k_vector_norm}};
CPU_KERNEL_TABLE(kernels);
