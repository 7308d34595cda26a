/*
 * float_unary.c - the driver declared in float_unary.h: rows of the iterator go to the op's array
 * function directly when they are contiguous float32/float64, else through a stack buffer.
 */
#include "float_unary.h"

#include "cpu.h"
#include "dtype.h"
#include "iterate.h"

#define BLOCK 512
/* Contiguous rows go to the array function in pieces that stay in the L1/L2 cache, so that ops made
 * of several passes (sigmoid: negate, exp, reciprocal) read memory once. */
#define PIECE 4096

typedef struct fu_ctx {
    cpu_fu_f32 f32;
    cpu_fu_f64 f64;
    cpu_fu_params params;
} fu_ctx;

/* float32 and float64: contiguous rows need no copy, in place included (y may be x). */
#define DEF_WIDE_LOOP(S, C, FN)                                                                    \
    static void loop_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {               \
        const fu_ctx *c = vctx;                                                                    \
        C *o = (C *)p[0];                                                                          \
        const C *a = (const C *)p[1];                                                              \
        if (s[0] == 1 && s[1] == 1) {                                                              \
            for (int64_t i = 0; i < n; i += PIECE)                                                 \
                c->FN(a + i, o + i, n - i < PIECE ? n - i : PIECE, &c->params);                   \
            return;                                                                                \
        }                                                                                          \
        C buf[BLOCK];                                                                              \
        for (int64_t i = 0; i < n; i += BLOCK) {                                                   \
            const int64_t m = n - i < BLOCK ? n - i : BLOCK;                                       \
            for (int64_t j = 0; j < m; j++) buf[j] = a[(i + j) * s[1]];                            \
            c->FN(buf, buf, m, &c->params);                                                        \
            for (int64_t j = 0; j < m; j++) o[(i + j) * s[0]] = buf[j];                            \
        }                                                                                          \
    }
DEF_WIDE_LOOP(f32, float, f32)
DEF_WIDE_LOOP(f64, double, f64)

/* float16 and bfloat16: always through a float buffer. */
#define DEF_HALF_LOOP(S)                                                                           \
    static void loop_##S(int64_t n, char *const *p, const int64_t *s, void *vctx) {               \
        const fu_ctx *c = vctx;                                                                    \
        CPU_T_##S *o = (CPU_T_##S *)p[0];                                                          \
        const CPU_T_##S *a = (const CPU_T_##S *)p[1];                                              \
        float buf[BLOCK];                                                                          \
        for (int64_t i = 0; i < n; i += BLOCK) {                                                   \
            const int64_t m = n - i < BLOCK ? n - i : BLOCK;                                       \
            for (int64_t j = 0; j < m; j++) buf[j] = cpu_ld_##S(a[(i + j) * s[1]]);                \
            c->f32(buf, buf, m, &c->params);                                                       \
            for (int64_t j = 0; j < m; j++) o[(i + j) * s[0]] = cpu_st_##S(buf[j]);                \
        }                                                                                          \
    }
DEF_HALF_LOOP(f16)
DEF_HALF_LOOP(bf16)

int cpu_float_unary_as(const tc_kernel_args *args, int32_t dtype, cpu_fu_f32 f32, cpu_fu_f64 f64, const char *op,
                       bool compute_bound) {
    if (cpu_check_args(args, 1, 1, op) != TC_OK) return TC_FAIL;
    fu_ctx ctx = {.f32 = f32, .f64 = f64, .params = {.dtype = dtype}};
    for (int32_t k = 0; k < args->n_scalars && k < 3; k++) {
        const tc_scalar *v = &args->scalars[k];
        ctx.params.f[k] = v->kind == TC_SCALAR_FLOAT || v->kind == TC_SCALAR_COMPLEX ? v->v.f : (double)v->v.i;
    }
    if (args->n_ints > 0) ctx.params.i = args->ints[0];
    cpu_loop_fn loop;
    switch (dtype) {
    case TC_FLOAT16: loop = loop_f16; break;
    case TC_BFLOAT16: loop = loop_bf16; break;
    case TC_FLOAT32: loop = loop_f32; break;
    case TC_FLOAT64: loop = loop_f64; break;
    default: return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: not a floating dtype (%d)", op, dtype);
    }
    if (args->outputs[0].dtype != dtype)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: output dtype %d, kernel dtype %d", op,
                                   args->outputs[0].dtype, dtype);
    const tc_view *views[2] = {&args->outputs[0], &args->inputs[0]};
    const int32_t want[2] = {-1, dtype};
    return compute_bound ? cpu_iterate_as_cached(views, 2, want, loop, &ctx) : cpu_iterate_as(views, 2, want, loop, &ctx);
}

int cpu_float_unary(const tc_kernel_args *args, int32_t dtype, cpu_fu_f32 f32, cpu_fu_f64 f64, const char *op) {
    return cpu_float_unary_as(args, dtype, f32, f64, op, false);
}
