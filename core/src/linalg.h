/*
 * linalg.h - what the core's linear algebra files share (meta_linalg*.c, impl_linalg*.c): PyTorch's
 * argument checks with its messages, and its reading of LAPACK's info results.
 */
#ifndef TC_LINALG_H
#define TC_LINALG_H

#include "core_internal.h"

/* "<api>: The input tensor <name> must have at least 2 dimensions." */
TC_INTERNAL int tc_linalg_check_matrix(const tc_tensor *t, const char *api, const char *name);
/* The above, and "<api>: <name> must be batches of square matrices, but they are 2 by 3 matrices"
 * (api NULL: the message without its "<api>: " prefix, as some of PyTorch's older ops print it). */
TC_INTERNAL int tc_linalg_check_square(const tc_tensor *t, const char *api, const char *name);
/* "<api>: Expected a floating point or complex tensor as input. Got Long", and with
 * low_precision false "<api>: Low precision dtypes not supported. Got Half". */
TC_INTERNAL int tc_linalg_check_floating(const tc_tensor *t, const char *api, bool low_precision);
/* The same, also taking complex64 and complex128: for the ops whose kernels take them; complex32 is
 * low precision (with low_precision true it passes, and the kernel refuses it by name, as PyTorch's
 * dispatch does). */
TC_INTERNAL int tc_linalg_check_inexact(const tc_tensor *t, const char *api, bool low_precision);
/* cdist's and _cdist_forward's: x1 and x2 matrices (or batches) with as many columns. */
TC_INTERNAL int tc_linalg_check_cdist(const tc_tensor *x1, const tc_tensor *x2);

/* PyTorch's _linalg_check_errors: the first nonzero info raises the error its routine stands for
 * (picked from words of `api`: inv, solve, cholesky, svd, eig, lstsq, lu_factor), prefixed with the
 * batch element when the input was a batch (is_matrix false). Tensors without data (the meta
 * device) are not read; another device's are read through a CPU copy. */
TC_INTERNAL int tc_linalg_check_errors(tc_tensor *info, const char *api, bool is_matrix);

/* Output i of a linalg op: an out= tensor must have its dtype exactly (PyTorch's structured ops). */
TC_INTERNAL int tc_linalg_output(tc_plan *p, int32_t i, int32_t ndim, const int64_t *sizes, int32_t dtype);

/* Sizes of a batch of matrices: the batch dims of t (all but the last `mdims`) followed by `tail`. */
TC_INTERNAL int32_t tc_linalg_shape(const tc_tensor *t, int32_t mdims, int32_t ntail, const int64_t *tail,
                                    int64_t *out);
#endif
