/*
 * nn_meta.h - what the nn family's meta functions share (defined in meta_softmax.c).
 */
#ifndef TC_NN_META_H
#define TC_NN_META_H

#include "core_internal.h"

/* Makes the kernel's view of output 0 contiguous: the output itself when it is, else a contiguous
 * temporary that the runner copies into it afterwards (out= with a strided tensor). */
TC_INTERNAL int tc_nn_contiguous_output(tc_plan *p);
/* Adds t as a kernel input, converted to dtype (unless < 0) and contiguous. */
TC_INTERNAL int tc_nn_contiguous_input(tc_plan *p, tc_tensor *t, int32_t dtype);

#endif
