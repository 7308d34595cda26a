/*
 * loops.c - the elementwise drivers declared in loops.h.
 */
#include "loops.h"

#include "cpu.h"

/* The loop context from scalars[0] (the alpha of add, the value of addcmul; default 1). */
static cpu_binary_ctx make_ctx(const tc_kernel_args *args) {
    cpu_binary_ctx ctx = {.alpha_f = 1.0, .alpha_i = 1, .error = 0};
    if (args->n_scalars > 0) {
        const tc_scalar *s = &args->scalars[0];
        const int floating = s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX;
        ctx.alpha_f = floating ? s->v.f : (double)s->v.i;
        ctx.alpha_i = floating ? cpu_f2i64(s->v.f) : s->v.i;
    }
    return ctx;
}

/* Runs `loop` over outputs[0] and inputs[0..nin), inputs read as `dtype` (-1: as they are); the
 * loop's error bits become the op's error. */
static int apply(const tc_kernel_args *args, int nin, cpu_loop_fn loop, const char *op, int32_t dtype) {
    if (cpu_check_args(args, nin, 1, op) != TC_OK) return TC_FAIL;
    cpu_binary_ctx ctx = make_ctx(args);
    const tc_view *views[CPU_MAX_OPS] = {&args->outputs[0]};
    int32_t want[CPU_MAX_OPS] = {-1};
    for (int i = 0; i < nin; i++) {
        views[i + 1] = &args->inputs[i];
        want[i + 1] = dtype;
    }
    if (cpu_iterate_as(views, nin + 1, want, loop, &ctx) != TC_OK) return TC_FAIL;
    if (ctx.error & CPU_ERR_ZERO_DIVISION) return cpu_core->set_error(TC_ERR_RUNTIME, "ZeroDivisionError");
    return TC_OK;
}

int cpu_binary_apply(const tc_kernel_args *args, cpu_loop_fn loop, const char *op) {
    return apply(args, 2, loop, op, -1);
}

int cpu_unary_apply(const tc_kernel_args *args, cpu_loop_fn loop, const char *op) {
    return apply(args, 1, loop, op, -1);
}

int cpu_binary_apply_as(const tc_kernel_args *args, cpu_loop_fn loop, const char *op, int32_t dtype) {
    return apply(args, 2, loop, op, dtype);
}

int cpu_unary_apply_as(const tc_kernel_args *args, cpu_loop_fn loop, const char *op, int32_t dtype) {
    return apply(args, 1, loop, op, dtype);
}

int cpu_ternary_apply_as(const tc_kernel_args *args, cpu_loop_fn loop, const char *op, int32_t dtype) {
    return apply(args, 3, loop, op, dtype);
}
