/*
 * complex_copy.c - the kernels that write complex values from elsewhere: copy into a complex dtype
 * (from any dtype: a real value gets a zero imaginary part; complex to real never reaches a kernel,
 * the core copies the real parts as a real view), fill with a scalar of any kind, and linspace.
 */
#include "complex.h"
#include "cpu.h"
#include "linspace.h"
#include "loops.h"

#define BODY_IDENTITY(C, U, x) (x)
#define KEEP(x) (x)

/* Every dtype a copy reads, spelled out: stamping nests this list inside CPU_DTYPES_COMPLEX, and a
 * macro cannot expand inside its own expansion. */
#define SRC_DTYPES(X, A)                                                                           \
    X(A, b8) X(A, u8) X(A, i8) X(A, i16) X(A, i32) X(A, i64) X(A, f16) X(A, bf16) X(A, f32) X(A, f64) \
    X(A, c32) X(A, c64) X(A, c128)

/* loop_cx_D_S converts S to complex D: S loaded into its compute type, then into D through S's
 * widest type. A copy within one dtype moves the elements as they are. */
#define STAMP_PAIR(D, S)                                                                           \
    CPU_UNARY_LOOP(loop_cx_##D##_##S, CPU_T_##D, CPU_T_##S, CPU_C_##S, CPU_C_##S, cpu_ld_##S,      \
                   CPU_CAT4(cpu_cx_from_, CPU_CV_##S, _, D), BODY_IDENTITY)
#define LOOP_ENTRY(D, S) [CPU_DT_##S] = loop_cx_##D##_##S,

/* The loop of table[input dtype], or `same` for a copy within the dtype. */
static int copy_with(const tc_kernel_args *args, const cpu_loop_fn *table, cpu_loop_fn same) {
    if (cpu_check_args(args, 1, 1, "copy") != TC_OK) return TC_FAIL;
    const int32_t src = args->inputs[0].dtype;
    if (src < 0 || src >= TC_NUM_DTYPES || !table[src])
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu copy: unknown input dtype %d", src);
    return cpu_unary_apply(args, src == args->outputs[0].dtype ? same : table[src], "copy");
}

#define STAMP_DST(_, D)                                                                            \
    SRC_DTYPES(STAMP_PAIR, D)                                                                      \
    CPU_UNARY_LOOP(loop_same_##D, CPU_T_##D, CPU_T_##D, CPU_T_##D, CPU_T_##D, KEEP, KEEP, BODY_IDENTITY) \
    static const cpu_loop_fn copy_to_##D[TC_NUM_DTYPES] = {SRC_DTYPES(LOOP_ENTRY, D)};             \
    static int k_copy_##D(const tc_kernel_args *args) { return copy_with(args, copy_to_##D, loop_same_##D); }
CPU_DTYPES_COMPLEX(STAMP_DST, _)

/* ---- fill ---- */

/* A scalar of any kind as a complex value in double. */
static cpu_cd scalar_cd(const tc_scalar *s) {
    if (s->kind == TC_SCALAR_COMPLEX) return (cpu_cd){s->v.f, s->imag};
    return (cpu_cd){s->kind == TC_SCALAR_FLOAT ? s->v.f : (double)s->v.i, 0.0};
}

/* The value goes in through the same conversion a copy from an int64 or a complex128 makes. */
#define FILL_STAMP(_, S)                                                                           \
    static void loop_fill_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {           \
        const CPU_T_##S v = *(const CPU_T_##S *)vctx;                                              \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        for (int64_t i = 0; i < n; i++) o[i * s[0]] = v;                                           \
    }                                                                                              \
    static int k_fill_##S(const tc_kernel_args *args) {                                            \
        if (cpu_check_args(args, 0, 1, "fill") != TC_OK) return TC_FAIL;                           \
        if (args->n_scalars < 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu fill: expected a scalar"); \
        const tc_scalar *sc = &args->scalars[0];                                                   \
        const int integral = sc->kind == TC_SCALAR_INT || sc->kind == TC_SCALAR_BOOL;              \
        CPU_T_##S v = integral ? cpu_cx_from_i64_##S(sc->v.i) : cpu_cx_from_cd_##S(scalar_cd(sc)); \
        const tc_view *views[1] = {&args->outputs[0]};                                             \
        return cpu_iterate_write_only(views, 1, loop_fill_##S, &v);                                \
    }
CPU_DTYPES_COMPLEX(FILL_STAMP, _)

/* ---- linspace: PyTorch computes it in the complex dtype itself, each part as a real linspace's
 * (linspace.h), a vector being W complex elements ---- */

#define LINSPACE_PART_f linspace_part_f32
#define LINSPACE_PART_d linspace_part_f64
#define LINSPACE_STAMP(_, S)                                                                       \
    static int k_linspace_##S(const tc_kernel_args *args) {                                        \
        typedef CPU_CAT(CPU_R_, CPU_SFX_##S) part;                                                 \
        if (cpu_check_args(args, 0, 1, "linspace") != TC_OK) return TC_FAIL;                       \
        const tc_view *o = &args->outputs[0];                                                      \
        if (args->n_scalars < 2 || o->ndim != 1)                                                   \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu linspace: expected 2 scalars and a 1-D output"); \
        const CPU_T_##S start = cpu_cx_from_cd_##S(scalar_cd(&args->scalars[0]));                  \
        const CPU_T_##S end = cpu_cx_from_cd_##S(scalar_cd(&args->scalars[1]));                    \
        CPU_T_##S *p = o->data;                                                                    \
        const int64_t n = o->sizes[0], st = o->strides[0];                                         \
        if (n == 1) p[0] = start;                                                                  \
        if (n <= 1) return TC_OK;                                                                  \
        const int64_t width = LINSPACE_VECTOR_BYTES / (int64_t)sizeof(CPU_T_##S);                  \
        part *parts = (part *)(void *)p;                                                           \
        CPU_CAT(LINSPACE_PART_, CPU_SFX_##S)(start.re, end.re, n, width, st == 1, parts, 2 * st);   \
        CPU_CAT(LINSPACE_PART_, CPU_SFX_##S)(start.im, end.im, n, width, st == 1, parts + 1, 2 * st); \
        return TC_OK;                                                                              \
    }
CPU_DTYPES_COMPLEX_FULL(LINSPACE_STAMP, _)

/* ---- logspace: base ** v for v stepping as linspace's, as PyTorch 1.13 computes it for complex
 * dtypes (RangeFactories.cpp, built without FMA): in the dtype, step = (end - start) / (n - 1) by
 * the c10 complex division of its day ((a c + b d) / (c^2 + d^2)), the exponent start + step * is
 * below n / 2 and end - step * (n - 1 - i) from there (is: a counter of the dtype, counting from each
 * thread's first element), then libm's cpow of the base as a complex number. One step is base **
 * start in double: libstdc++'s pow of a real base, polar(base ** re, im * log(base)) for base > 0.
 * Checked bit for bit against the reference (tests/python/test_rounding_reference.py). ---- */

#define LOGSPACE_POW_f cpowf
#define LOGSPACE_POW_d cpow
#define LOGSPACE_REAL_f crealf
#define LOGSPACE_REAL_d creal
#define LOGSPACE_IMAG_f cimagf
#define LOGSPACE_IMAG_d cimag
#define LOGSPACE_CX_f float _Complex
#define LOGSPACE_CX_d double _Complex
#define LOGSPACE_STAMP(_, S)                                                                       \
    static int k_logspace_##S(const tc_kernel_args *args) {                                        \
        typedef CPU_CAT(CPU_R_, CPU_SFX_##S) part;                                                 \
        typedef CPU_CAT(LOGSPACE_CX_, CPU_SFX_##S) cx;                                             \
        if (cpu_check_args(args, 0, 1, "logspace") != TC_OK) return TC_FAIL;                       \
        const tc_view *o = &args->outputs[0];                                                      \
        if (args->n_scalars < 3 || o->ndim != 1)                                                   \
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu logspace: expected 3 scalars and a 1-D output"); \
        const cpu_cd first = scalar_cd(&args->scalars[0]), last = scalar_cd(&args->scalars[1]);    \
        const double base = scalar_cd(&args->scalars[2]).re;                                       \
        CPU_T_##S *p = o->data;                                                                    \
        const int64_t n = o->sizes[0], st = o->strides[0];                                         \
        if (n == 1) {                                                                              \
            cpu_cd v;                                                                              \
            if (base > 0) {                                                                        \
                const double rho = pow(base, first.re), theta = first.im * log(base);              \
                v = (cpu_cd){rho * cos(theta), rho * sin(theta)};                                  \
            } else {                                                                               \
                const double _Complex z = cpow(CMPLX(base, 0), CMPLX(first.re, first.im));          \
                v = (cpu_cd){creal(z), cimag(z)};                                                  \
            }                                                                                      \
            p[0] = cpu_cx_from_cd_##S(v);                                                          \
        }                                                                                          \
        if (n <= 1) return TC_OK;                                                                  \
        const CPU_T_##S start = cpu_cx_from_cd_##S(first), end = cpu_cx_from_cd_##S(last);        \
        const part a = end.re - start.re, b = end.im - start.im, c = (part)(n - 1), d = 0;         \
        const part den = c * c + d * d;                                                            \
        const part sr = (a * c + b * d) / den, si = (b * c - a * d) / den;                         \
        const cx pbase = CMPLX_PART_##S((part)base, 0);                                            \
        const int64_t half = n / 2, piece = linspace_piece(n);                                     \
        for (int64_t lo = 0; lo < n; lo += piece) {                                                \
            const int64_t hi = n - lo < piece ? n : lo + piece;                                    \
            part is = (part)lo;                                                                    \
            for (int64_t i = lo; i < hi; i++, is += 1) {                                           \
                part zr, zi;                                                                       \
                if (i < half) {                                                                    \
                    zr = start.re + (sr * is - si * 0), zi = start.im + (sr * 0 + si * is);        \
                } else {                                                                           \
                    const part k = (part)(n - i - 1);                                              \
                    zr = end.re - (sr * k - si * 0), zi = end.im - (sr * 0 + si * k);              \
                }                                                                                  \
                const cx v = CPU_CAT(LOGSPACE_POW_, CPU_SFX_##S)(pbase, CMPLX_PART_##S(zr, zi));    \
                p[i * st] = (CPU_T_##S){CPU_CAT(LOGSPACE_REAL_, CPU_SFX_##S)(v), CPU_CAT(LOGSPACE_IMAG_, CPU_SFX_##S)(v)}; \
            }                                                                                      \
        }                                                                                          \
        return TC_OK;                                                                              \
    }
#define CMPLX_PART_c64 CMPLXF
#define CMPLX_PART_c128 CMPLX
CPU_DTYPES_COMPLEX_FULL(LOGSPACE_STAMP, _)

#define ENTRY(_, S) {"copy", CPU_DT_##S, k_copy_##S}, {"fill", CPU_DT_##S, k_fill_##S},
#define LINSPACE_ENTRY(_, S) {"linspace", CPU_DT_##S, k_linspace_##S}, {"logspace", CPU_DT_##S, k_logspace_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_COMPLEX(ENTRY, _) CPU_DTYPES_COMPLEX_FULL(LINSPACE_ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
