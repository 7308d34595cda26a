/*
 * logsumexp.c - log(sum(exp(x))) over any set of dims, without overflow: the largest element m of
 * each output's elements first (an infinite m counts as 0, so that all -inf gives -inf and a +inf
 * gives +inf, as in PyTorch), then log(sum(exp(x - m))) + m, accumulated in double.
 */
#include "reduce.h"

#define MAP_X(x, c) (x)
#define FIN_FINITE(a, c) (isinf(a) ? 0 : (a))
#define MAP_EXP(x, c) exp((double)(x) - (c))
#define FIN_LSE(a, c) (log(a) + (c))

#define STAMP(_, S)                                                                                \
    RED_STAMP(lmax_##S, S, CPU_C_##S, CPU_T_##S, -INFINITY, MAP_X, RED_MAX_F, FIN_FINITE, cpu_st_##S) \
    RED_STAMP(lse_##S, S, double, CPU_T_##S, 0, MAP_EXP, RED_ADD, FIN_LSE, cpu_st_##S)             \
    static int k_logsumexp_##S(const tc_kernel_args *args) {                                      \
        return reduce_run2(args, &lmax_##S##_ops, &lse_##S##_ops, NULL, NULL, "logsumexp");        \
    }
CPU_DTYPES_FLOAT(STAMP, _)

#define ENTRY(_, S) {"logsumexp", CPU_DT_##S, k_logsumexp_##S},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
