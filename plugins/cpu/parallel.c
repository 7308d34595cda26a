/*
 * parallel.c - the threading policy shared by all kernels (see cpu.h), and argument checks.
 */
#include "cpu.h"

int cpu_threads_for(int64_t work) {
    if (work < 2 * CPU_GRAIN) return 1;
    int nt = cpu_core->get_num_threads();
    if (nt < 1) nt = 1;
    if ((int64_t)nt > work / CPU_GRAIN) nt = (int)(work / CPU_GRAIN);
    return nt;
}

int cpu_check_args(const tc_kernel_args *args, int n_inputs, int n_outputs, const char *op) {
    if (args->n_inputs < n_inputs || args->n_outputs < n_outputs)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: expected %d inputs and %d outputs, got %d and %d",
                                   op, n_inputs, n_outputs, args->n_inputs, args->n_outputs);
    return TC_OK;
}
