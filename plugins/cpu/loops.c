/*
 * loops.c - the elementwise drivers declared in loops.h.
 */
#include "loops.h"

#include "cpu.h"

int cpu_binary_apply(const tc_kernel_args *args, cpu_loop_fn loop, const char *op) {
    if (cpu_check_args(args, 2, 1, op) != TC_OK) return TC_FAIL;
    cpu_binary_ctx ctx = {.alpha_f = 1.0, .alpha_i = 1, .error = 0};
    if (args->n_scalars > 0) {
        const tc_scalar *s = &args->scalars[0];
        const int floating = s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX;
        ctx.alpha_f = floating ? s->v.f : (double)s->v.i;
        ctx.alpha_i = floating ? cpu_f2i64(s->v.f) : s->v.i;
    }
    const tc_view *views[3] = {&args->outputs[0], &args->inputs[0], &args->inputs[1]};
    if (cpu_iterate(views, 3, loop, &ctx) != TC_OK) return TC_FAIL;
    if (ctx.error & CPU_ERR_ZERO_DIVISION) return cpu_core->set_error(TC_ERR_RUNTIME, "ZeroDivisionError");
    return TC_OK;
}

int cpu_unary_apply(const tc_kernel_args *args, cpu_loop_fn loop, const char *op) {
    if (cpu_check_args(args, 1, 1, op) != TC_OK) return TC_FAIL;
    const tc_view *views[2] = {&args->outputs[0], &args->inputs[0]};
    return cpu_iterate(views, 2, loop, NULL);
}
