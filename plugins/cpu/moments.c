/*
 * moments.c - variance and standard deviation over any set of dims, optionally with the mean (the
 * "var" kernel: var, std, var_mean, std_mean).
 *
 * Two passes on the reduction driver: the mean of each output's elements, then the sum of squared
 * deviations from it, both accumulated in double whatever the dtype (as PyTorch's Welford
 * accumulators are), divided by max(0, count - correction); `std` takes the square root.
 * ints[0] = correction; a second output, when the op has one, receives the mean.
 */
#include "reduce.h"

#define MAP_X(x, c) ((double)(x))
#define FIN_MEAN(a, c) ((a) / cx->count)
#define MAP_DEV2(x, c) (((double)(x) - (c)) * ((double)(x) - (c)))
#define FIN_VAR(a, c) (cx->root ? sqrt((a) / cx->div) : (a) / cx->div)

static int moments(const tc_kernel_args *args, const red_ops *mean, const red_ops *dev2, red_center_store mean_out,
                   int root, const char *name) {
    if (cpu_check_args(args, 1, 1, name) != TC_OK) return TC_FAIL;
    if (args->n_ints < 1) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: missing the correction", name);
    red_call cx = {.count = reduce_count(args), .root = root};
    const double dof = cx.count - (double)args->ints[0];
    cx.div = dof > 0 ? dof : 0;
    return reduce_run2(args, mean, dev2, mean_out, &cx, name);
}

#define STAMP(_, S)                                                                                \
    RED_STAMP(mean_##S, S, double, CPU_T_##S, 0, MAP_X, RED_ADD, FIN_MEAN, cpu_st_##S)            \
    RED_STAMP(dev2_##S, S, double, CPU_T_##S, 0, MAP_DEV2, RED_ADD, FIN_VAR, cpu_st_##S)          \
    static void mean_out_##S(char *out, int64_t s, const double *c, int64_t w) {                   \
        CPU_T_##S *o = (CPU_T_##S *)out;                                                           \
        for (int64_t j = 0; j < w; j++) o[j * s] = cpu_st_##S((CPU_C_##S)c[j]);                    \
    }                                                                                              \
    static int k_var_##S(const tc_kernel_args *args) {                                            \
        return moments(args, &mean_##S##_ops, &dev2_##S##_ops, mean_out_##S, 0, "var");            \
    }                                                                                              \
    static int k_std_##S(const tc_kernel_args *args) {                                            \
        return moments(args, &mean_##S##_ops, &dev2_##S##_ops, mean_out_##S, 1, "std");            \
    }
CPU_DTYPES_FLOAT(STAMP, _)

#define ENTRY(_, S) {"var", CPU_DT_##S, k_var_##S}, {"std", CPU_DT_##S, k_std_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
