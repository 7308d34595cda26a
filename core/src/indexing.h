/*
 * indexing.h - what the indexing family's meta functions share (meta_indexing.c, meta_masked.c);
 * core-internal, like core_internal.h, which it needs first.
 */
#ifndef TC_INDEXING_INTERNAL_H
#define TC_INDEXING_INTERNAL_H

#include "core_internal.h"

/* PyTorch's RuntimeError when a Python number does not fit dtype ("value cannot be converted to type
 * float without overflow"). */
TC_INTERNAL int tc_index_check_fits(tc_scalar value, int32_t dtype);
/* A 0-dim tensor of dtype holding value on the call's device, for kernels to read with zero strides. */
TC_INTERNAL tc_tensor *tc_index_value_tensor(const tc_opcall *c, tc_scalar value, int32_t dtype);
/* The value argument `arg` of a fill (a Scalar, or a 0-dim tensor: converted) as such a tensor; `op`
 * names the op in PyTorch's error for a tensor of more dims. New reference in *value. */
TC_INTERNAL int tc_index_fill_value(const tc_opcall *c, int arg, int32_t dtype, const char *op, tc_tensor **value);
/* RuntimeError when an out= result shares memory with a tensor the kernel reads through a view
 * whose geometry matters (PyTorch's assert_no_overlap). */
TC_INTERNAL int tc_index_check_out_overlap(const tc_plan *p, const tc_tensor *read);

/* Adds t as a kernel input restrided to (ndim, sizes, strides), converted to int64 first (in its own
 * shape, so a broadcast view is never materialised) when to_long. */
TC_INTERNAL int tc_index_plan_view(tc_plan *p, tc_tensor *t, bool to_long, int32_t ndim, const int64_t *sizes,
                                   const int64_t *strides);
/* Adds the k indexed dims' (size, stride) pairs to the kernel's ints. */
TC_INTERNAL int tc_index_plan_dims(tc_plan *p, int32_t k, const int64_t *sizes, const int64_t *strides);
/* Adds values as a kernel input at (ndim, sizes): trailing dims aligned, broadcast dims stride 0. */
TC_INTERNAL int tc_index_plan_broadcast(tc_plan *p, tc_tensor *values, int32_t ndim, const int64_t *sizes);
/* Whether a shape expands to another (PyTorch's is_expandable_to). */
TC_INTERNAL bool tc_index_expandable(int32_t nf, const int64_t *from, int32_t nt, const int64_t *to);
/* t's sizes and strides, a 0-dim tensor counting as 1-dim of size 1 (PyTorch's ensure_nonempty_dim);
 * returns the count. */
TC_INTERNAL int32_t tc_index_nonempty(const tc_tensor *t, int64_t *sizes, int64_t *strides);

/* The number of nonzero elements of t, by the nonzero_count kernel of the call's backend, read on
 * the host; NotImplementedError on the meta device, which has no data (meta_masked.c). */
TC_INTERNAL int tc_masked_count(const tc_opcall *c, tc_tensor *t, int64_t *count);

#endif
