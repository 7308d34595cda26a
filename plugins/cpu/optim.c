/*
 * optim.c - the driver of the fused optimizer kernels (optim.h): argument checks, then the pass over
 * the elements, split into contiguous ranges for the core's pool above the grain.
 */
#include "optim.h"

#include <stdbool.h>

/* The op's float and bool arguments where the contract says they are. */
static bool args_match(const tc_kernel_args *a, const optim_contract *k) {
    if (a->struct_size < sizeof(tc_kernel_args) || !a->args || a->n_args < k->first_float + k->n_floats + k->n_bools)
        return false;
    for (int32_t i = 0; i < k->n_floats + k->n_bools; i++)
        if (a->args[k->first_float + i].tag != (i < k->n_floats ? TC_VALUE_FLOAT : TC_VALUE_BOOL)) return false;
    return true;
}

int optim_run(const tc_kernel_args *a, const optim_contract *k, cpu_range_fn range) {
    if (a->n_inputs != k->n_inputs || a->n_outputs < k->min_outputs || a->n_outputs > k->max_outputs ||
        !args_match(a, k))
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: expected %d inputs, %d to %d outputs, and %d float and "
                                                   "%d bool arguments from args[%d] on", k->name, k->n_inputs,
                                   k->min_outputs, k->max_outputs, k->n_floats, k->n_bools, k->first_float);
    if (k->check && k->check(a) != TC_OK) return TC_FAIL;
    int64_t n = 1;
    for (int32_t d = 0; d < a->outputs[0].ndim; d++) n *= a->outputs[0].sizes[d];
    cpu_parallel(n, cpu_threads_for(n), range, (void *)a);
    return TC_OK;
}
