/*
 * Memory overlap between a tensor an op writes and the tensors it reads, decided as PyTorch decides
 * it (get_overlap_status / assert_no_internal_overlap), so programs written for PyTorch see the
 * same errors: `x[1:] = x[:-1]` and `x.add_(x.t())` raise, `x.add_(x)` does not.
 */
#include "core_internal.h"

int tc_overlap(const tc_tensor *a, const tc_tensor *b) {
    if (a == b) return TC_OVERLAP_FULL;
    if (a->storage != b->storage) return TC_OVERLAP_NONE;
    if (tc_tensor_numel(a) == 0 || tc_tensor_numel(b) == 0) return TC_OVERLAP_NONE;
    if (!tc_tensor_non_overlapping_and_dense(a) || !tc_tensor_non_overlapping_and_dense(b))
        return TC_OVERLAP_TOO_HARD;
    int64_t a_start = a->offset * (int64_t)tc_dtype_size(a->dtype);
    int64_t b_start = b->offset * (int64_t)tc_dtype_size(b->dtype);
    int64_t a_end = a_start + tc_tensor_numel(a) * (int64_t)tc_dtype_size(a->dtype);
    int64_t b_end = b_start + tc_tensor_numel(b) * (int64_t)tc_dtype_size(b->dtype);
    if (a_start == b_start && a_end == b_end && a->ndim == b->ndim &&
        tc_shape_equal(a->ndim, a->strides, b->ndim, b->strides))
        return TC_OVERLAP_FULL;
    if (a_start < b_end && b_start < a_end) return TC_OVERLAP_PARTIAL;
    return TC_OVERLAP_NONE;
}

int tc_tensor_overlap(const tc_tensor *a, const tc_tensor *b) { return tc_overlap(a, b); }

static int overlap_error(void) {
    return tc_set_error(TC_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the "
                                        "written-to tensor refer to a single memory location. Please clone() the "
                                        "tensor before performing the operation.");
}

int tc_check_partial_overlap(const tc_tensor *written, const tc_tensor *read) {
    return tc_overlap(written, read) == TC_OVERLAP_PARTIAL ? overlap_error() : TC_OK;
}

int tc_check_no_overlap(const tc_tensor *written, const tc_tensor *read) {
    const int lap = tc_overlap(written, read);
    return lap == TC_OVERLAP_PARTIAL || lap == TC_OVERLAP_FULL ? overlap_error() : TC_OK;
}

/* A zero stride over a dim of more than one element (expand) means several elements share memory,
 * and a write would store each of them in turn. */
int tc_check_internal_overlap(const tc_tensor *t) {
    for (int32_t d = 0; d < t->ndim; d++)
        if (t->strides[d] == 0 && t->sizes[d] > 1)
            return tc_set_error(TC_ERR_RUNTIME, "unsupported operation: more than one element of the written-to "
                                                "tensor refers to a single memory location. Please clone() the "
                                                "tensor before performing the operation.");
    return TC_OK;
}
