/*
 * flip.c - flip: a copy of the input read backwards along the dims in ints (ascending). The input is
 * seen through a view that starts at its last element along those dims with their strides negated,
 * so the copy is the elementwise driver's (which walks such views; see iterate.h).
 */
#include "cpu.h"
#include "dtype.h"
#include "iterate.h"
#include "loops.h"

static int k_flip(const tc_kernel_args *args) {
    if (cpu_check_args(args, 1, 1, "flip") != TC_OK) return TC_FAIL;
    const tc_view *in = &args->inputs[0], *out = &args->outputs[0];
    if (in->ndim != out->ndim) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu flip: input and output differ in rank");
    const size_t es = cpu_dtype_size(in->dtype);
    int64_t strides[TC_MAX_DIMS];
    char *data = in->data;
    for (int32_t d = 0; d < in->ndim; d++) {
        if (in->sizes[d] == 0) return TC_OK;
        strides[d] = in->strides[d];
    }
    for (int32_t i = 0; i < args->n_ints; i++) {
        const int64_t d = args->ints[i];
        if (d < 0 || d >= in->ndim) return cpu_core->set_error(TC_ERR_RUNTIME, "cpu flip: bad dim %lld", (long long)d);
        data += (ptrdiff_t)(in->sizes[d] - 1) * strides[d] * (ptrdiff_t)es;
        strides[d] = -strides[d];
    }
    tc_view backwards = *in;
    backwards.data = data;
    backwards.strides = strides;
    const tc_view *views[2] = {out, &backwards};
    return cpu_iterate(views, 2, cpu_bits_loop(es), NULL);
}

#define ENTRY(_, S) {"flip", CPU_DT_##S, k_flip},
/* complex64/complex128 move as 8- and 16-byte elements */
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_ALL(ENTRY, _) CPU_DTYPES_COMPLEX_FULL(ENTRY, _)};
CPU_KERNEL_TABLE(kernels);
