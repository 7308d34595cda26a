/*
 * optim.c - the driver of the fused optimizer kernels (optim.h): argument checks, then the pass over
 * the elements, split into contiguous ranges for the core's pool above the grain.
 */
#include "optim.h"

int optim_run(const tc_kernel_args *a, const optim_contract *k, cpu_range_fn range) {
    if (a->n_inputs != k->n_inputs || a->n_outputs < k->min_outputs || a->n_outputs > k->max_outputs ||
        a->n_scalars != k->n_scalars || a->n_ints != k->n_ints)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu %s: expected %d inputs, %d to %d outputs, %d scalars and %d "
                                                   "ints, got %d, %d, %d and %d", k->name, k->n_inputs,
                                   k->min_outputs, k->max_outputs, k->n_scalars, k->n_ints, a->n_inputs,
                                   a->n_outputs, a->n_scalars, a->n_ints);
    if (k->check && k->check(a) != TC_OK) return TC_FAIL;
    int64_t n = 1;
    for (int32_t d = 0; d < a->outputs[0].ndim; d++) n *= a->outputs[0].sizes[d];
    cpu_parallel(n, cpu_threads_for(n), range, (void *)a);
    return TC_OK;
}
