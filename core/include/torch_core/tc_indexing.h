/*
 * tc_indexing.h - the values the indexing kernels' contracts pass in tc_kernel_args.ints
 * (docs/plugin-abi.md has the contracts). A device plugin implementing `index` or `index_put`
 * reads them; the core's meta functions (core/src/meta_indexing.c) write them.
 *
 *   index      ints = [style, first_dim, size_1, stride_1, ..., size_k, stride_k]
 *   index_put  ints = [mode, include_self, style, first_dim, size_1, stride_1, ..., size_k, stride_k]
 *
 * size_j and stride_j are the size and stride (in elements) of the j-th indexed dim of the tensor
 * read or written; an index v addresses element offset v * stride_j when 0 <= v < size_j, and
 * v + size_j when the style wraps negative indices. first_dim + j is the dim an error names.
 */
#ifndef TC_INDEXING_H
#define TC_INDEXING_H

/* How a kernel reports an index out of range (PyTorch's type and words differ per op). */
enum tc_index_style {
    TC_INDEX_BOUNDS = 0,    /* wraps; IndexError "index V is out of bounds for dimension D with size S" */
    TC_INDEX_BOUNDS_RT = 1, /* no wrap; RuntimeError, same words (gather, scatter) */
    TC_INDEX_IN_SELF = 2,   /* no wrap; IndexError "index out of range in self" (index_select, index_add) */
    TC_INDEX_LINEAR = 3,    /* wraps; IndexError "out of range: tried to access index V on a tensor of S
                               elements." (take, put) */
    TC_INDEX_COPY = 4       /* no wrap; IndexError "index_copy_(): index V is out of bounds for ..." */
};

/* How index_put combines a value with the element it lands on (later values after earlier ones). */
enum tc_put_mode {
    TC_PUT_ASSIGN = 0,
    TC_PUT_ADD = 1, /* scalars[0], when given, multiplies each value first (index_add's alpha) */
    TC_PUT_MUL = 2,
    TC_PUT_MEAN = 3, /* the mean of the values and, with include_self, the element; integers floor */
    TC_PUT_AMAX = 4, /* NaN wins */
    TC_PUT_AMIN = 5
};

#endif
