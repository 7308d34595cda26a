/*
 * fill.c - fill (every element of the output gets scalars[0]) and the factories arange (range too),
 * linspace and logspace (a fresh 1-D output from two scalars).
 *
 * arange computes start + i*step in int64 (wrapping) when both scalars are integral, else in
 * double; linspace rounds as PyTorch's kernel does (linspace.h), stepping from start for the first
 * half and back from end for the second, so both ends are exact. Values are cast to the dtype like C
 * casts (dtype.h).
 */
#include "cpu.h"
#include "dtype.h"
#include "iterate.h"
#include "linspace.h"

#include <math.h>
#include <string.h>

static int scalar_is_float(const tc_scalar *s) { return s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX; }
static double scalar_f64(const tc_scalar *s) { return scalar_is_float(s) ? s->v.f : (double)s->v.i; }

static int check_fill_args(const tc_kernel_args *args, const char *op) {
    if (cpu_check_args(args, 0, 1, op) != TC_OK) return TC_FAIL;
    if (args->n_scalars < 2) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: expected 2 scalars", op);
    if (args->outputs[0].ndim != 1)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: expected a 1-D output, got %d dims", op,
                                   args->outputs[0].ndim);
    return TC_OK;
}

/* arange of floating values (linspace.h): in the accumulation type (double, or float for the 16-bit
 * floats), element i is first + step * i, a vector's first element rounded to the dtype before the
 * others add k * step to it (a fused multiply-add in double, as the reference's AVX2 build has it;
 * not in float). Integer dtypes count exactly in int64 (wrapping). */
#define ARANGE_AT_D(i) LINSPACE_MUL_ADD_D(step, (double)(i), first)
#define ARANGE_AT_F(i) LINSPACE_MUL_ADD_F(step, (float)(i), first)
#define ARANGE_EMIT(i, value) (p[(i) * s] = to_dtype(value))
#define ARANGE_VECTOR_D(i, at, k) (p[(i) * s] = to_dtype(LINSPACE_MUL_ADD_D((double)(k), step, (double)from_dtype(p[(at) * s]))))
#define ARANGE_VECTOR_F(i, at, k) (p[(i) * s] = to_dtype(from_dtype(p[(at) * s]) + (float)(k) * step))
#define ARANGE_FLOATING(S, ACC, AT, VECTOR)                                                        \
    static void arange_stepping_##S(CPU_T_##S *p, int64_t n, int64_t s, double first_value, double step_value) { \
        typedef ACC acc;                                                                           \
        const acc first = (acc)first_value, step = (acc)step_value;                                \
        CPU_T_##S (*const to_dtype)(double) = cpu_from_f64_##S;                                    \
        CPU_C_##S (*const from_dtype)(CPU_T_##S) = cpu_ld_##S;                                     \
        LINSPACE_WALK(LINSPACE_VECTOR_BYTES / (int64_t)sizeof(CPU_T_##S), s == 1, AT, ARANGE_EMIT, VECTOR); \
    }
ARANGE_FLOATING(f16, float, ARANGE_AT_F, ARANGE_VECTOR_F)
ARANGE_FLOATING(bf16, float, ARANGE_AT_F, ARANGE_VECTOR_F)
ARANGE_FLOATING(f32, double, ARANGE_AT_D, ARANGE_VECTOR_D)
ARANGE_FLOATING(f64, double, ARANGE_AT_D, ARANGE_VECTOR_D)

/* Integer dtypes given a float bound or step (the meta function converts them to int64 first) */
#define ARANGE_INTEGRAL(S)                                                                         \
    static void arange_stepping_##S(CPU_T_##S *p, int64_t n, int64_t s, double a, double d) {      \
        for (int64_t i = 0; i < n; i++) p[i * s] = cpu_from_f64_##S(a + (double)i * d);            \
    }
#define ARANGE_INTEGRAL_STAMP(_, S) ARANGE_INTEGRAL(S)
CPU_DTYPES_INT(ARANGE_INTEGRAL_STAMP, _)

#define FILL_STAMP(_, S)                                                                           \
    static int k_arange_##S(const tc_kernel_args *args) {                                          \
        if (check_fill_args(args, "arange") != TC_OK) return TC_FAIL;                              \
        const tc_view *o = &args->outputs[0];                                                      \
        CPU_T_##S *p = o->data;                                                                    \
        const int64_t n = o->sizes[0], s = o->strides[0];                                          \
        const tc_scalar *start = &args->scalars[0], *step = &args->scalars[1];                     \
        if (!scalar_is_float(start) && !scalar_is_float(step)) {                                                 \
            const uint64_t a = (uint64_t)start->v.i, d = (uint64_t)step->v.i;                      \
            for (int64_t i = 0; i < n; i++) p[i * s] = cpu_from_i64_##S((int64_t)(a + (uint64_t)i * d)); \
        } else {                                                                                   \
            arange_stepping_##S(p, n, s, scalar_f64(start), scalar_f64(step));                    \
        }                                                                                          \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_NUMERIC(FILL_STAMP, _)

/* ---- linspace: PyTorch's rounding (linspace.h) ---- */

/* The output of a linspace kernel, or NULL with the error set. */
static const tc_view *linspace_output(const tc_kernel_args *args) {
    return check_fill_args(args, "linspace") == TC_OK ? &args->outputs[0] : NULL;
}

/* float32 and float64: the bounds in the dtype, the parts' walk. */
#define LINSPACE_FLOAT(S, T, PART)                                                                 \
    static int k_linspace_##S(const tc_kernel_args *args) {                                        \
        const tc_view *o = linspace_output(args);                                                  \
        if (!o) return TC_FAIL;                                                                    \
        T *p = o->data;                                                                            \
        const int64_t n = o->sizes[0], st = o->strides[0];                                         \
        const T first = (T)scalar_f64(&args->scalars[0]), last = (T)scalar_f64(&args->scalars[1]); \
        if (n == 1) p[0] = first;                                                                  \
        if (n > 1) PART(first, last, n, LINSPACE_VECTOR_BYTES / (int64_t)sizeof(T), st == 1, p, st); \
        return TC_OK;                                                                              \
    }
LINSPACE_FLOAT(f32, float, linspace_part_f32)
LINSPACE_FLOAT(f64, double, linspace_part_f64)

/* float16 and bfloat16: in double, from both ends, then rounded */
#define LINSPACE_HALF(_, S)                                                                        \
    static int k_linspace_##S(const tc_kernel_args *args) {                                        \
        const tc_view *o = linspace_output(args);                                                  \
        if (!o) return TC_FAIL;                                                                    \
        CPU_T_##S *p = o->data;                                                                    \
        const int64_t n = o->sizes[0], s = o->strides[0];                                          \
        const double start = scalar_f64(&args->scalars[0]), end = scalar_f64(&args->scalars[1]);   \
        if (n == 1) p[0] = cpu_from_f64_##S(start);                                                \
        if (n <= 1) return TC_OK;                                                                  \
        const double step = (end - start) / (double)(n - 1);                                       \
        const int64_t half = n / 2;                                                                \
        for (int64_t i = 0; i < n; i++)                                                            \
            p[i * s] = cpu_from_f64_##S(i < half ? start + (double)i * step : end - (double)(n - 1 - i) * step); \
        return TC_OK;                                                                              \
    }
LINSPACE_HALF(_, f16)
LINSPACE_HALF(_, bf16)

/* Integer dtypes: the bounds in the dtype (the meta function converted them), stepping in double; a
 * vector's first element is truncated to the dtype before the others count from it. */
#define LINSPACE_INT_AT(i) LINSPACE_AT(LINSPACE_MUL_ADD_D, double, i)
#define LINSPACE_INT_EMIT(i, value) (p[(i) * st] = to_dtype(value))
#define LINSPACE_INT_VECTOR(i, at, k) (p[(i) * st] = to_dtype((double)p[(at) * st] + (double)(k) * step))
#define LINSPACE_INT(_, S)                                                                         \
    static int k_linspace_##S(const tc_kernel_args *args) {                                        \
        const tc_view *o = linspace_output(args);                                                  \
        if (!o) return TC_FAIL;                                                                    \
        CPU_T_##S *p = o->data;                                                                    \
        CPU_T_##S (*const to_dtype)(double) = cpu_from_f64_##S;                                    \
        const int64_t n = o->sizes[0], st = o->strides[0];                                         \
        const double first = scalar_f64(&args->scalars[0]), last = scalar_f64(&args->scalars[1]);  \
        if (n == 1) p[0] = to_dtype(first);                                                        \
        if (n <= 1) return TC_OK;                                                                  \
        const double step = (last - first) / (double)(n - 1);                                      \
        LINSPACE_WALK(LINSPACE_VECTOR_BYTES / (int64_t)sizeof(CPU_T_##S), st == 1, LINSPACE_INT_AT, \
                      LINSPACE_INT_EMIT, LINSPACE_INT_VECTOR);                                     \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_INT(LINSPACE_INT, _)

/* logspace: base ** v for v stepping as linspace's, as PyTorch 1.13 computes it: the bounds
 * converted to the dtype and their difference taken there (in float for float32, in int64 for
 * integers), the step and exponent in double, pow in double, then the cast. One step is base **
 * start, start unconverted. */
#define LOGSPACE_DIFF_KF(S, a, b) ((double)cpu_ld_##S(cpu_from_f64_##S((b) - (a))))
#define LOGSPACE_DIFF_KU(S, a, b) ((b) - (a)) /* integer bounds: exact in double below 2^53 */
#define LOGSPACE_DIFF_KI(S, a, b) ((b) - (a))
#define LOGSPACE_STAMP(_, S)                                                                       \
    static int k_logspace_##S(const tc_kernel_args *args) {                                        \
        if (cpu_check_args(args, 0, 1, "logspace") != TC_OK) return TC_FAIL;                       \
        if (args->n_scalars < 3 || args->outputs[0].ndim != 1)                                     \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu logspace: expected 3 scalars and a 1-D output"); \
        const tc_view *o = &args->outputs[0];                                                      \
        CPU_T_##S *p = o->data;                                                                    \
        const int64_t n = o->sizes[0], s = o->strides[0];                                          \
        const double base = scalar_f64(&args->scalars[2]);                                         \
        const tc_scalar *first = &args->scalars[0], *last = &args->scalars[1];                     \
        if (n == 1) p[0] = cpu_from_f64_##S(pow(base, scalar_f64(first)));                         \
        if (n <= 1) return TC_OK;                                                                  \
        /* the bounds in the dtype, read back */                                                   \
        const CPU_T_##S a_ = scalar_is_float(first) ? cpu_from_f64_##S(first->v.f) : cpu_from_i64_##S(first->v.i); \
        const CPU_T_##S b_ = scalar_is_float(last) ? cpu_from_f64_##S(last->v.f) : cpu_from_i64_##S(last->v.i); \
        const double a = (double)cpu_ld_##S(a_), b = (double)cpu_ld_##S(b_);                      \
        const double step = CPU_CAT(LOGSPACE_DIFF_, CPU_K_##S)(S, a, b) / (double)(n - 1);        \
        const int64_t half = n / 2;                                                                \
        for (int64_t i = 0; i < n; i++)                                                            \
            p[i * s] = cpu_from_f64_##S(pow(base, i < half ? a + step * (double)i : b - step * (double)(n - i - 1))); \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_NUMERIC(LOGSPACE_STAMP, _)

/* fill: the value converted once, then stored along the output's rows (loops.h's unary driver with
 * the output only). */
typedef struct fill_ctx {
    union {
        uint8_t b1;
        uint16_t b2;
        uint32_t b4;
        uint64_t b8;
    } bits;
} fill_ctx;

#define FILL_BITS(T, M)                                                                            \
    static void loop_fill_##T(int64_t n, char *const *p, const int64_t *s, void *vctx) {           \
        const T v = ((const fill_ctx *)vctx)->bits.M;                                              \
        T *o = (T *)p[0];                                                                          \
        if (s[0] == 1)                                                                             \
            for (int64_t i = 0; i < n; i++) o[i] = v;                                              \
        else                                                                                       \
            for (int64_t i = 0; i < n; i++) o[i * s[0]] = v;                                       \
    }
FILL_BITS(uint8_t, b1)
FILL_BITS(uint16_t, b2)
FILL_BITS(uint32_t, b4)
FILL_BITS(uint64_t, b8)

#define FILL_VALUE(_, S)                                                                           \
    static void fill_value_##S(const tc_scalar *s, void *dst) {                                    \
        const CPU_T_##S v = scalar_is_float(s) ? cpu_from_f64_##S(s->v.f) : cpu_from_i64_##S(s->v.i); \
        memcpy(dst, &v, sizeof v);                                                                 \
    }
CPU_DTYPES_ALL(FILL_VALUE, _)

static int fill_run(const tc_kernel_args *args, void (*convert)(const tc_scalar *, void *)) {
    if (cpu_check_args(args, 0, 1, "fill") != TC_OK) return TC_FAIL;
    if (args->n_scalars < 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu fill: expected a scalar");
    fill_ctx ctx = {.bits.b8 = 0};
    convert(&args->scalars[0], &ctx.bits);
    const size_t es = cpu_dtype_size(args->outputs[0].dtype);
    cpu_loop_fn loop = es == 1 ? loop_fill_uint8_t : es == 2 ? loop_fill_uint16_t : es == 4 ? loop_fill_uint32_t
                                                                                      : loop_fill_uint64_t;
    const tc_view *views[1] = {&args->outputs[0]};
    return cpu_iterate_write_only(views, 1, loop, &ctx);
}

#define FILL_KERNEL(_, S)                                                                          \
    static int k_fill_##S(const tc_kernel_args *args) { return fill_run(args, fill_value_##S); }
CPU_DTYPES_ALL(FILL_KERNEL, _)

#define ENTRY(_, S)                                                                                \
    {"arange", CPU_DT_##S, k_arange_##S}, {"linspace", CPU_DT_##S, k_linspace_##S},                \
        {"logspace", CPU_DT_##S, k_logspace_##S},
#define FILL_ENTRY(_, S) {"fill", CPU_DT_##S, k_fill_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_NUMERIC(ENTRY, _) CPU_DTYPES_ALL(FILL_ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
