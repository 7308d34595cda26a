/*
 * Memory overlap between a written-to tensor and an input, decided as PyTorch decides it
 * (aten/src/ATen/MemoryOverlap.cpp), so that programs written for PyTorch see the same errors:
 * identical views are fine (x.add_(x)), views that share some bytes are refused
 * (x[1:] = x[:-1], x.add_(x.t())), and views too irregular to judge cheaply are "too hard", which the
 * caller resolves by reading the input through a copy.
 */
#include "core_internal.h"

/* Whether t's elements tile a contiguous range exactly, in some order of its dims (PyTorch's
 * is_non_overlapping_and_dense). Size-0 and size-1 dims sort last and end the check. */
static bool dense(const tc_tensor *t) {
    if (t->ndim == 1) return t->sizes[0] < 2 || t->strides[0] == 1;
    int32_t perm[TC_MAX_DIMS];
    for (int32_t i = 0; i < t->ndim; i++) perm[i] = i;
    for (int32_t i = 1; i < t->ndim; i++) { /* insertion sort: small dims last, else by stride */
        for (int32_t j = i; j > 0; j--) {
            const int32_t a = perm[j - 1], b = perm[j];
            const bool b_first = t->sizes[a] < 2 ? t->sizes[b] >= 2
                                                 : t->sizes[b] >= 2 && t->strides[b] < t->strides[a];
            if (!b_first) break;
            perm[j - 1] = b;
            perm[j] = a;
        }
    }
    int64_t require = 1;
    for (int32_t i = 0; i < t->ndim; i++) {
        const int64_t size = t->sizes[perm[i]];
        if (size < 2) return true;
        if (t->strides[perm[i]] != require) return false;
        require *= size;
    }
    return true;
}

int tc_tensor_overlap(const tc_tensor *a, const tc_tensor *b) {
    if (a == b) return TC_OVERLAP_FULL;
    if (a->storage != b->storage) return TC_OVERLAP_NO; /* the common case costs one compare */
    const int64_t na = tc_tensor_numel(a), nb = tc_tensor_numel(b);
    if (na == 0 || nb == 0) return TC_OVERLAP_NO;
    if (!dense(a) || !dense(b)) return TC_OVERLAP_TOO_HARD;
    const char *a_begin = tc_tensor_data(a), *b_begin = tc_tensor_data(b);
    const char *a_end = a_begin + (size_t)na * tc_dtype_size(a->dtype);
    const char *b_end = b_begin + (size_t)nb * tc_dtype_size(b->dtype);
    if (a_begin == b_begin && a_end == b_end) {
        bool same = a->ndim == b->ndim;
        for (int32_t i = 0; same && i < a->ndim; i++) same = a->strides[i] == b->strides[i];
        return same ? TC_OVERLAP_FULL : TC_OVERLAP_PARTIAL;
    }
    return a_begin < b_end && b_begin < a_end ? TC_OVERLAP_PARTIAL : TC_OVERLAP_NO;
}

int tc_check_partial_overlap(int status) {
    if (status != TC_OVERLAP_PARTIAL) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the "
                                        "written-to tensor refer to a single memory location. Please clone() "
                                        "the tensor before performing the operation.");
}
