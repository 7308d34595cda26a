/*
 * parallel.c - the threading policy shared by all kernels (see cpu.h): work below a grain stays on
 * the calling thread; above, it is cut into pieces for the core's pool. And argument checks.
 */
#include "cpu.h"

int cpu_threads_for(int64_t work) {
    if (work < 2 * CPU_GRAIN) return 1;
    int nt = cpu_core->get_num_threads();
    if (nt < 1) nt = 1;
    if ((int64_t)nt > work / CPU_GRAIN) nt = (int)(work / CPU_GRAIN);
    return nt;
}

void cpu_parallel(int64_t n, int parts, cpu_range_fn fn, void *ctx) {
    if (n <= 0) return;
    if (parts <= 1 || n < 2 || !TC_CORE_HAS(cpu_core, parallel_for)) {
        fn(ctx, 0, n);
        return;
    }
    if (parts > n) parts = (int)n;
    cpu_core->parallel_for(0, n, n / parts, fn, ctx); /* pieces of at least n/parts: `parts` of them */
}

int cpu_check_args(const tc_kernel_args *args, int n_inputs, int n_outputs, const char *op) {
    if (args->n_inputs < n_inputs || args->n_outputs < n_outputs)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: expected %d inputs and %d outputs, got %d and %d",
                                   op, n_inputs, n_outputs, args->n_inputs, args->n_outputs);
    return TC_OK;
}
