/*
 * cat.c - cat: each input copied into its slice of the result along ints[0] (the inputs already in
 * the result's dtype; the core drops empty ones). Each slice is a view of the output, so the copy is
 * the elementwise driver's: contiguous runs become plain vector copies, large ones use the pool.
 */
#include "cpu.h"
#include "dtype.h"
#include "iterate.h"
#include "loops.h"

#include <string.h>

/* A dense run is one memcpy (the library's, tuned for long copies); anything else the copy loop. */
static void loop_cat_bytes(int64_t n, char *const *p, const int64_t *s, void *ctx) {
    const size_t es = *(const size_t *)ctx;
    if (s[0] == 1 && s[1] == 1) {
        memcpy(p[0], p[1], (size_t)n * es);
        return;
    }
    cpu_bits_loop(es)(n, p, s, NULL);
}

static int k_cat(const tc_kernel_args *args) {
    if (cpu_check_args(args, 0, 1, "cat") != TC_OK) return TC_FAIL;
    const tc_view *out = &args->outputs[0];
    if (args->n_ints < 1 || args->ints[0] < 0 || args->ints[0] >= out->ndim)
        return cpu_core->set_error(TC_ERR_RUNTIME, "cpu cat: expected the dim in ints[0]");
    const int32_t dim = (int32_t)args->ints[0];
    size_t es = cpu_dtype_size(out->dtype);
    int64_t at = 0;
    for (int32_t i = 0; i < args->n_inputs; i++) {
        const tc_view *in = &args->inputs[i];
        if (in->ndim != out->ndim || at + in->sizes[dim] > out->sizes[dim])
            return cpu_core->set_error(TC_ERR_RUNTIME, "cpu cat: input %d does not fit the output", i);
        tc_view slice = *out;
        slice.sizes = in->sizes;
        slice.data = (char *)out->data + (ptrdiff_t)at * out->strides[dim] * (ptrdiff_t)es;
        const tc_view *views[2] = {&slice, in};
        if (cpu_iterate(views, 2, loop_cat_bytes, &es)) return TC_FAIL;
        at += in->sizes[dim];
    }
    return TC_OK;
}

#define ENTRY(_, S) {"cat", CPU_DT_##S, k_cat},
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
