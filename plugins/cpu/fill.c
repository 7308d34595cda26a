/*
 * fill.c - the factories arange and linspace: fill a fresh 1-D output from two scalars.
 *
 * arange computes start + i*step in int64 (wrapping) when both scalars are integral, else in
 * double; linspace always in double, stepping from start for the first half and back from end for
 * the second, so both ends are exact. Values are then cast to the dtype like C casts (dtype.h).
 */
#include "cpu.h"
#include "dtype.h"

static double scalar_f64(const tc_scalar *s) { return s->is_float ? s->v.f : (double)s->v.i; }

static int check_fill_args(const tc_kernel_args *args, const char *op) {
    if (cpu_check_args(args, 0, 1, op) != TC_OK) return TC_FAIL;
    if (args->n_scalars < 2) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: expected 2 scalars", op);
    if (args->outputs[0].ndim != 1)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: expected a 1-D output, got %d dims", op,
                                   args->outputs[0].ndim);
    return TC_OK;
}

#define FILL_STAMP(_, S)                                                                           \
    static int k_arange_##S(const tc_kernel_args *args) {                                          \
        if (check_fill_args(args, "arange") != TC_OK) return TC_FAIL;                              \
        const tc_view *o = &args->outputs[0];                                                      \
        CPU_T_##S *p = o->data;                                                                    \
        const int64_t n = o->sizes[0], s = o->strides[0];                                          \
        const tc_scalar *start = &args->scalars[0], *step = &args->scalars[1];                     \
        if (!start->is_float && !step->is_float) {                                                 \
            const uint64_t a = (uint64_t)start->v.i, d = (uint64_t)step->v.i;                      \
            for (int64_t i = 0; i < n; i++) p[i * s] = cpu_from_i64_##S((int64_t)(a + (uint64_t)i * d)); \
        } else {                                                                                   \
            const double a = scalar_f64(start), d = scalar_f64(step);                              \
            for (int64_t i = 0; i < n; i++) p[i * s] = cpu_from_f64_##S(a + (double)i * d);        \
        }                                                                                          \
        return TC_OK;                                                                              \
    }                                                                                              \
    static int k_linspace_##S(const tc_kernel_args *args) {                                        \
        if (check_fill_args(args, "linspace") != TC_OK) return TC_FAIL;                            \
        const tc_view *o = &args->outputs[0];                                                      \
        CPU_T_##S *p = o->data;                                                                    \
        const int64_t n = o->sizes[0], s = o->strides[0];                                          \
        const double start = scalar_f64(&args->scalars[0]), end = scalar_f64(&args->scalars[1]);   \
        if (n == 1) p[0] = cpu_from_f64_##S(start);                                                \
        if (n <= 1) return TC_OK;                                                                  \
        const double step = (end - start) / (double)(n - 1);                                       \
        const int64_t half = n / 2;                                                                \
        for (int64_t i = 0; i < n; i++)                                                            \
            p[i * s] = cpu_from_f64_##S(i < half ? start + (double)i * step                         \
                                                 : end - (double)(n - 1 - i) * step);              \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_NUMERIC(FILL_STAMP, _)

#define ENTRY(_, S) {"arange", CPU_DT_##S, k_arange_##S}, {"linspace", CPU_DT_##S, k_linspace_##S},
const cpu_kernel_entry cpu_fill_kernels[] = {CPU_DTYPES_NUMERIC(ENTRY, _)};
CPU_TABLE_COUNT(cpu_fill_kernels);
