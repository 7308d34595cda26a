/*
 * pow.c - pow of float32 and float64 tensors, computed as PyTorch 1.13's CPU kernels compute it.
 *
 * A Python number as the exponent (pow.Tensor_Scalar: x ** 2, square, float_power with a number, the
 * derivative formulas' self.pow(e - 1)): PyTorch takes 2 as x * x, 3 as x * x * x, -2 as 1 / (x * x),
 * 0.5 as sqrt, -0.5 as 1 / sqrt and -1 as 1 / x; any other exponent goes to SLEEF's 1-ulp pow on its
 * vectors for contiguous runs, and to libm's pow in double (the exponent as given, the base widened)
 * elsewhere. Its scalar lambda for -2 divides in double too. A tensor of exponents (pow.Tensor_Tensor,
 * pow.Scalar) gets SLEEF's pow on contiguous or broadcast runs and std::pow in the dtype elsewhere.
 * The meta function tells the two apart: it hands a Python exponent to the kernel as its scalar.
 * PyTorch's vector loop takes two vectors at a time (AVX2's, the capability every variant here
 * follows, as linspace.h) and leaves the rest of a contiguous run to the scalar lambda; so does this.
 * Which elements are a run's rest must not depend on where the output lies in memory, so the loop
 * never goes through the streaming stores' aligned pieces (cpu_iterate_as_cached): the runs are
 * then rows, or threads' pieces of whole 64-element blocks, and the rest is the same on every run.
 * Until these existed, every element went through libm's pow, 15-50 times slower than PyTorch for
 * x ** 2. float16 and bfloat16 keep binary.c's loop (powf in float for every exponent).
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "cpu.h"
#include "dtype.h"
#include "iterate.h"
#include "vmath.h"

typedef struct pow_ctx {
    bool python_exponent; /* the exponent is a Python number (pow.Tensor_Scalar) */
    double exponent;      /* its value, as given */
} pow_ctx;

/* o[i] = SLEEF pow(x[i * sx], y[i * sy]) for n elements, sx and sy 0 (broadcast) or 1; the tail goes
 * through one zero-padded vector. */
#define POW_SLEEF_RUN(NAME, T, N, V, LD, ST, OP, POW)                                              \
    static void NAME(int64_t n, const T *x, int64_t sx, const T *y, int64_t sy, T *o) {            \
        const V bx = OP(set1)(x[0]), by = OP(set1)(y[0]);                                          \
        int64_t i = 0;                                                                             \
        for (; i + N <= n; i += N) ST(o + i, POW(sx ? LD(x + i) : bx, sy ? LD(y + i) : by));       \
        if (i < n) {                                                                               \
            T tx[N] = {0}, ty[N] = {0}, to[N];                                                     \
            for (int64_t k = 0; k < n - i; k++) tx[k] = x[(i + k) * sx], ty[k] = y[(i + k) * sy];  \
            ST(to, POW(LD(tx), LD(ty)));                                                           \
            memcpy(o + i, to, sizeof(T) * (size_t)(n - i));                                        \
        }                                                                                          \
    }
POW_SLEEF_RUN(pow_sleef_f32, float, VM_NF, VM_VF, VM_LDF, VM_STF, VM_OPF, VM_SLEEF_F(pow, u10))
POW_SLEEF_RUN(pow_sleef_f64, double, VM_ND, VM_VD, VM_LDD, VM_STD, VM_OPD, VM_SLEEF_D(pow, u10))

/* Where PyTorch's vector loop ends in a contiguous run of n elements of `size` bytes: two AVX2
 * vectors at a time, the rest for its scalar loop. */
static inline int64_t vector_part(int64_t n, size_t size) { return n - n % (int64_t)(64 / size); }

/* The exponents PyTorch specialises, as a small code (0: none). */
enum { POW_GENERAL, POW_SQUARE, POW_CUBE, POW_INV_SQUARE, POW_SQRT, POW_RSQRT, POW_RECIPROCAL };
static int special_exponent(double e) {
    return e == 2.0 ? POW_SQUARE : e == 3.0 ? POW_CUBE : e == -2.0 ? POW_INV_SQUARE : e == 0.5 ? POW_SQRT
         : e == -0.5 ? POW_RSQRT : e == -1.0 ? POW_RECIPROCAL : POW_GENERAL;
}

/* T: the dtype; SQRT its sqrt, POW_T std::pow in it. `vectorised`: PyTorch's vector lambdas (a contiguous run), else its
 * scalar ones, which differ for -2 (the division in double) and the general case (libm in double). */
#define POW_STAMP(S, T, SQRT, POW_T)                                                                      \
    static void pow_python_##S(int64_t n, const T *x, int64_t sx, T *o, int64_t so, const pow_ctx *c, \
                               bool vectorised) {                                                 \
        const double e = c->exponent;                                                              \
        switch (special_exponent(e)) {                                                             \
        case POW_SQUARE: for (int64_t i = 0; i < n; i++) o[i * so] = x[i * sx] * x[i * sx]; return; \
        case POW_CUBE: for (int64_t i = 0; i < n; i++) o[i * so] = x[i * sx] * x[i * sx] * x[i * sx]; return; \
        case POW_SQRT: for (int64_t i = 0; i < n; i++) o[i * so] = SQRT(x[i * sx]); return;        \
        case POW_RSQRT: for (int64_t i = 0; i < n; i++) o[i * so] = (T)1 / SQRT(x[i * sx]); return; \
        case POW_RECIPROCAL: for (int64_t i = 0; i < n; i++) o[i * so] = (T)1 / x[i * sx]; return; \
        case POW_INV_SQUARE:                                                                       \
            if (vectorised)                                                                        \
                for (int64_t i = 0; i < n; i++) o[i * so] = (T)1 / (x[i * sx] * x[i * sx]);        \
            else                                                                                   \
                for (int64_t i = 0; i < n; i++) o[i * so] = (T)(1.0 / (double)(x[i * sx] * x[i * sx])); \
            return;                                                                                \
        default:                                                                                   \
            if (vectorised) {                                                                      \
                const T y = (T)e;                                                                  \
                pow_sleef_##S(n, x, sx, &y, 0, o);                                                 \
            } else {                                                                               \
                for (int64_t i = 0; i < n; i++) o[i * so] = (T)pow((double)x[i * sx], e);          \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void loop_pow_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {            \
        const pow_ctx *c = vctx;                                                                   \
        T *o = (T *)(void *)p[0];                                                                  \
        const T *x = (const T *)(const void *)p[1], *y = (const T *)(const void *)p[2];            \
        int64_t v = 0; /* elements done by the vector lambdas */                                   \
        if (c->python_exponent) {                                                                  \
            if (s[0] == 1 && s[1] == 1) pow_python_##S(v = vector_part(n, sizeof(T)), x, 1, o, 1, c, true);\
            pow_python_##S(n - v, x + v * s[1], s[1], o + v * s[0], s[0], c, false);               \
            return;                                                                                \
        }                                                                                          \
        if (s[0] == 1 && (s[1] == 0 || s[1] == 1) && (s[2] == 0 || s[2] == 1))                     \
            pow_sleef_##S(v = vector_part(n, sizeof(T)), x, s[1], y, s[2], o);                     \
        for (int64_t i = v; i < n; i++) o[i * s[0]] = POW_T(x[i * s[1]], y[i * s[2]]);             \
    }                                                                                              \
    static int k_pow_##S(const tc_kernel_args *args) {                                             \
        if (cpu_check_args(args, 2, 1, "pow") != TC_OK) return TC_FAIL;                            \
        const tc_scalar *e = args->n_scalars > 0 ? &args->scalars[0] : NULL;                       \
        pow_ctx c = {.python_exponent = e != NULL,                                                 \
                     .exponent = !e ? 0.0 : e->kind == TC_SCALAR_FLOAT || e->kind == TC_SCALAR_COMPLEX ? e->v.f \
                                                                                                   : (double)e->v.i}; \
        const tc_view *views[3] = {&args->outputs[0], &args->inputs[0], &args->inputs[1]};         \
        const int32_t want[3] = {-1, CPU_DT_##S, CPU_DT_##S};                                       \
        return cpu_iterate_as_cached(views, 3, want, loop_pow_##S, &c);                            \
    }
POW_STAMP(f32, float, sqrtf, powf)
POW_STAMP(f64, double, sqrt, pow)

static const cpu_kernel_entry kernels[] = {{"pow", CPU_DT_f32, k_pow_f32}, {"pow", CPU_DT_f64, k_pow_f64}};
CPU_CONVERTING_KERNEL_TABLE(kernels);
