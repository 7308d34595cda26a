/*
 * complex_ternary.c - complex elementwise ops of three tensors: addcmul and addcdiv (self, tensor1,
 * tensor2, with scalars[0] = value, which may be complex) and lerp (self, end, weight).
 *
 * The formulas are PyTorch 1.13's: self + (value * t1) * t2 and self + (value * t1) / t2 with
 * complex.h's products and quotients; lerp's two-sided formula, its side chosen by |weight| < 0.5.
 * The meta functions give all three inputs one dtype (the core converts them for these kernels).
 */
#include "complex.h"
#include "cpu.h"

#define BODY_addcmul(X, x, y, z) cpu_cx_add_##X((x), cpu_cx_mul_##X(cpu_cx_mul_##X(value, (y)), (z)))
#define BODY_addcdiv(X, x, y, z) cpu_cx_add_##X((x), cpu_cx_div_##X(cpu_cx_mul_##X(value, (y)), (z)))
#define BODY_lerp(X, x, y, w) cpu_cx_lerp_##X((x), (y), (w))

#define CX_LERP(C, R, X)                                                                           \
    static inline C cpu_cx_lerp_##X(C self, C end, C w) {                                          \
        const C diff = {end.re - self.re, end.im - self.im};                                       \
        if (cpu_cx_abs_##X(w) < (R)0.5) return cpu_cx_add_##X(self, cpu_cx_mul_##X(w, diff));      \
        const C rest = cpu_cx_mul_##X(diff, (C){(R)1 - w.re, (R)0 - w.im});                       \
        return (C){end.re - rest.re, end.im - rest.im};                                            \
    }
CX_LERP(cpu_cf, float, f)
CX_LERP(cpu_cd, double, d)

#define CX_BODY(BODY, X, x, y, z) BODY(X, x, y, z)

#define STAMP(OP, S)                                                                               \
    static void loop_##OP##_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {         \
        typedef CPU_C_##S cx_t;                                                                    \
        typedef CPU_CAT(CPU_R_, CPU_SFX_##S) part_t;                                               \
        const cpu_cx_ctx *ctx = vctx;                                                              \
        const cx_t value = {(part_t)ctx->alpha.re, (part_t)ctx->alpha.im};                         \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##S *a = (const CPU_T_##S *)p[1], *b = (const CPU_T_##S *)p[2], *c = (const CPU_T_##S *)p[3]; \
        (void)value;                                                                               \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i * s[0]] = cpu_st_##S(CX_BODY(BODY_##OP, CPU_SFX_##S, cpu_ld_##S(a[i * s[1]]),       \
                                             cpu_ld_##S(b[i * s[2]]), cpu_ld_##S(c[i * s[3]])));    \
    }                                                                                              \
    static int k_##OP##_##S(const tc_kernel_args *args) { return cpu_cx_apply(args, 3, loop_##OP##_##S, #OP, 0); }

#define OPS(X) X(addcmul) X(addcdiv) X(lerp)
#define STAMP_OP(OP) CPU_DTYPES_COMPLEX_FULL(STAMP, OP)
OPS(STAMP_OP)

#define ENTRY(OP, S) {#OP, CPU_DT_##S, k_##OP##_##S},
#define ENTRY_OP(OP) CPU_DTYPES_COMPLEX_FULL(ENTRY, OP)
static const cpu_kernel_entry kernels[] = {OPS(ENTRY_OP)};
CPU_KERNEL_TABLE(kernels);
