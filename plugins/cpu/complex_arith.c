/*
 * complex_arith.c - complex elementwise ops of two operands: add, sub, mul, div, pow, eq, ne, and
 * the constructors complex(real, imag) and polar(abs, angle) (real inputs, a complex output).
 *
 * add is a + alpha * b with a complex product even when alpha is 1, and sub adds -alpha, exactly as
 * PyTorch computes them (so 1 + (0+infj) is nan+infj here too). pow with a Python-number exponent
 * (the contract's scalar) takes PyTorch's shortcuts: x ** 2 is x * x, x ** 0.5 is sqrt(x), and so on.
 * complex32 has what PyTorch 1.13 has for it: add, sub, mul, eq, ne and complex().
 */
#include "complex.h"
#include "cpu.h"
#include "loops.h"

int cpu_cx_apply(const tc_kernel_args *args, int nin, cpu_loop_fn loop, const char *op, int negate) {
    if (cpu_check_args(args, nin, 1, op) != TC_OK) return TC_FAIL;
    cpu_cx_ctx ctx = {.alpha = {1.0, 0.0}};
    if (args->n_scalars > 0) {
        const tc_scalar *s = &args->scalars[0];
        ctx.alpha.re = s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX ? s->v.f : (double)s->v.i;
        ctx.alpha.im = s->kind == TC_SCALAR_COMPLEX ? s->imag : 0.0;
    }
    if (negate) ctx.alpha = (cpu_cd){-ctx.alpha.re, -ctx.alpha.im};
    const tc_view *views[4] = {&args->outputs[0], &args->inputs[0], nin > 1 ? &args->inputs[1] : NULL,
                               nin > 2 ? &args->inputs[2] : NULL};
    return cpu_iterate_write_only(views, nin + 1, loop, &ctx);
}

int cpu_cx_binary_apply(const tc_kernel_args *args, cpu_loop_fn loop, const char *op, int negate) {
    return cpu_cx_apply(args, 2, loop, op, negate);
}

/* ---- bodies over compute values x, y; X is the helper suffix (f or d) ---- */

#define BODY_add(X, x, y) cpu_cx_add_##X((x), cpu_cx_mul_##X(alpha, (y)))
#define BODY_mul(X, x, y) cpu_cx_mul_##X((x), (y))
#define BODY_div(X, x, y) cpu_cx_div_##X((x), (y))
#define BODY_pow(X, x, y) cpu_cx_pow_##X((x), (y))
#define BODY_eq(X, x, y) ((x).re == (y).re && (x).im == (y).im)
/* a complex value is true when either part is nonzero */
#define CX_TRUE(x) ((x).re != 0 || (x).im != 0)
#define BODY_logical_and(X, x, y) (CX_TRUE(x) && CX_TRUE(y))
#define BODY_logical_or(X, x, y) (CX_TRUE(x) || CX_TRUE(y))
#define BODY_logical_xor(X, x, y) (CX_TRUE(x) != CX_TRUE(y))
#define BODY_ne(X, x, y) ((x).re != (y).re || (x).im != (y).im)

#define TO_BOOL(v) ((uint8_t)(v))

#define STAMP(OP, NEG, S, TO, STORE)                                                               \
    CPU_CX_BINARY_LOOP(loop_##OP##_##S, S, TO, STORE, BODY_##OP)                                   \
    static int k_##OP##_##S(const tc_kernel_args *args) {                                          \
        return cpu_cx_binary_apply(args, loop_##OP##_##S, #OP, NEG);                              \
    }
#define STAMP_ARITH(OP, S) STAMP(OP, 0, S, CPU_T_##S, cpu_st_##S)
#define STAMP_COMPARE(OP, S) STAMP(OP, 0, S, uint8_t, TO_BOOL)
/* sub runs add's loop with alpha negated */
#define STAMP_SUB(_, S)                                                                            \
    static int k_sub_##S(const tc_kernel_args *args) { return cpu_cx_binary_apply(args, loop_add_##S, "sub", 1); }

CPU_DTYPES_COMPLEX(STAMP_ARITH, add)
CPU_DTYPES_COMPLEX(STAMP_SUB, _)
CPU_DTYPES_COMPLEX(STAMP_ARITH, mul)
CPU_DTYPES_COMPLEX_FULL(STAMP_ARITH, div)
CPU_DTYPES_COMPLEX(STAMP_COMPARE, eq)
CPU_DTYPES_COMPLEX(STAMP_COMPARE, ne)
CPU_DTYPES_COMPLEX_FULL(STAMP_COMPARE, logical_and)
CPU_DTYPES_COMPLEX_FULL(STAMP_COMPARE, logical_or)
CPU_DTYPES_COMPLEX_FULL(STAMP_COMPARE, logical_xor)

/* ---- pow ---- */

#define STAMP_POW_LOOP(_, S) CPU_CX_BINARY_LOOP(loop_pow_##S, S, CPU_T_##S, cpu_st_##S, BODY_pow)
CPU_DTYPES_COMPLEX_FULL(STAMP_POW_LOOP, _)

/* PyTorch's pow with a scalar exponent: 0 gives ones, 1 a copy, 2, 3 and -2 products, 0.5, -0.5
 * and -1 sqrt, its reciprocal and the reciprocal; other exponents the general pow. */
enum { POW_ONE, POW_COPY, POW_SQUARE, POW_CUBE, POW_INV_SQUARE, POW_SQRT, POW_RSQRT, POW_RECIPROCAL, POW_GENERAL };

static int pow_shortcut(const tc_scalar *e) {
    const double re = e->kind == TC_SCALAR_INT || e->kind == TC_SCALAR_BOOL ? (double)e->v.i : e->v.f;
    if (e->kind == TC_SCALAR_COMPLEX && e->imag != 0.0) return POW_GENERAL;
    return re == 0 ? POW_ONE : re == 1 ? POW_COPY : re == 2 ? POW_SQUARE : re == 3 ? POW_CUBE
         : re == -2 ? POW_INV_SQUARE : re == 0.5 ? POW_SQRT : re == -0.5 ? POW_RSQRT : re == -1 ? POW_RECIPROCAL
         : POW_GENERAL;
}

#define POW_SCALAR(_, S)                                                                           \
    static void loop_pow_shortcut_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {   \
        typedef CPU_C_##S cx_t;                                                                    \
        const int mode = *(const int *)vctx;                                                       \
        const cx_t one = {1, 0};                                                                   \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##S *a = (const CPU_T_##S *)p[1];                                              \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const cx_t x = cpu_ld_##S(a[i * s[1]]);                                                \
            cx_t y;                                                                                \
            switch (mode) {                                                                        \
            case POW_ONE: y = one; break;                                                          \
            case POW_COPY: y = x; break;                                                           \
            case POW_SQUARE: y = CPU_CX(mul, S)(x, x); break;                                      \
            case POW_CUBE: y = CPU_CX(mul, S)(CPU_CX(mul, S)(x, x), x); break;                     \
            case POW_INV_SQUARE: y = CPU_CX(div, S)(one, CPU_CX(mul, S)(x, x)); break;             \
            case POW_SQRT: y = CPU_CX(sqrt, S)(x); break;                                          \
            case POW_RSQRT: y = CPU_CX(div, S)(one, CPU_CX(sqrt, S)(x)); break;                    \
            default: y = CPU_CX(div, S)(one, x); break;                                            \
            }                                                                                      \
            o[i * s[0]] = cpu_st_##S(y);                                                           \
        }                                                                                          \
    }                                                                                              \
    static int k_pow_scalar_or_tensor_##S(const tc_kernel_args *args) {                            \
        if (cpu_check_args(args, 2, 1, "pow") != TC_OK) return TC_FAIL;                            \
        int mode = args->n_scalars > 0 ? pow_shortcut(&args->scalars[0]) : POW_GENERAL;            \
        if (mode == POW_GENERAL) return cpu_cx_binary_apply(args, loop_pow_##S, "pow", 0);         \
        const tc_view *views[2] = {&args->outputs[0], &args->inputs[0]};                           \
        return cpu_iterate(views, 2, loop_pow_shortcut_##S, &mode);                                \
    }
CPU_DTYPES_COMPLEX_FULL(POW_SCALAR, _)

/* ---- complex(real, imag) and polar(abs, angle): loops.h's binary loop, real in, complex out ---- */

#define BODY_complex_f(C, U, x, y) ((cpu_cf){(x), (y)})
#define BODY_complex_d(C, U, x, y) ((cpu_cd){(x), (y)})
#define BODY_polar_f(C, U, x, y) ((cpu_cf){(x) * cosf(y), (x) * sinf(y)})
#define BODY_polar_d(C, U, x, y) ((cpu_cd){(x) * cos(y), (x) * sin(y)})
#define KEEP(x) (x)

/* (op, complex suffix, its real suffix, helper suffix, store) */
#define CONSTRUCT(OP, S, R, X, STORE)                                                              \
    CPU_BINARY_LOOP(loop_##OP##_##S, CPU_T_##S, CPU_T_##R, CPU_C_##R, CPU_U_##R, cpu_ld_##R, STORE,   \
                    BODY_##OP##_##X)                                                               \
    static int k_##OP##_##S(const tc_kernel_args *args) { return cpu_binary_apply(args, loop_##OP##_##S, #OP); }
CONSTRUCT(complex, c32, f16, f, cpu_st_c32)
CONSTRUCT(complex, c64, f32, f, KEEP)
CONSTRUCT(complex, c128, f64, d, KEEP)
CONSTRUCT(polar, c64, f32, f, KEEP)
CONSTRUCT(polar, c128, f64, d, KEEP)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define POW_ENTRY(_, S) {"pow", CPU_DT_##S, k_pow_scalar_or_tensor_##S},
static const cpu_kernel_entry kernels[] = {
    CPU_DTYPES_COMPLEX(ENTRY, add) CPU_DTYPES_COMPLEX(ENTRY, sub) CPU_DTYPES_COMPLEX(ENTRY, mul)
    CPU_DTYPES_COMPLEX_FULL(ENTRY, div) CPU_DTYPES_COMPLEX(ENTRY, eq) CPU_DTYPES_COMPLEX(ENTRY, ne)
    CPU_DTYPES_COMPLEX_FULL(ENTRY, logical_and) CPU_DTYPES_COMPLEX_FULL(ENTRY, logical_or)
    CPU_DTYPES_COMPLEX_FULL(ENTRY, logical_xor)
    CPU_DTYPES_COMPLEX_FULL(POW_ENTRY, _) CPU_DTYPES_COMPLEX(ENTRY, complex) CPU_DTYPES_COMPLEX_FULL(ENTRY, polar)};
CPU_KERNEL_TABLE(kernels);
