/*
 * Meta functions of embeddings and embedding bags: PyTorch's checks and messages; indices (and
 * offsets) arrive at the kernels as contiguous int64, weights and gradients contiguous. Index ranges
 * are checked by the kernels (they depend on the data).
 *
 *   embedding / embedding_dense_double_backward (kernel embedding): weight, indices -> rows;
 *       ints [padding_idx (-1: none) whose rows read as 0, scale by 1/frequency (0/1)]
 *   embedding_dense_backward: grad, indices -> grad_weight; ints [padding_idx, scale_grad_by_freq]
 *   embedding_renorm_: indices -> self written in place; scalars [max_norm, norm_type]
 *   _embedding_bag: weight, indices, offsets[, per_sample_weights] -> output, offset2bag, bag_size,
 *       max_indices; ints [mode, padding_idx, include_last_offset, has_per_sample_weights]
 *   _embedding_bag_dense_backward: grad, indices, offset2bag, bag_size, max_indices[, psw] ->
 *       grad_weight; ints [mode, padding_idx, scale_grad_by_freq, has_psw]
 *   _embedding_bag_dense_double_backward: self (grad_weight-shaped), the same -> [bags, D]
 *   _embedding_bag_per_sample_weights_backward: grad, weight, indices, offset2bag -> [n];
 *       ints [mode, padding_idx]
 */
#include "core_internal.h"

/* checkScalarTypes(op, arg, {Long, Int}) */
static int index_dtype(const char *op, int position, const char *name, const tc_tensor *t) {
    if (t->dtype == TC_INT64 || t->dtype == TC_INT32) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "Expected tensor for argument #%d '%s' to have one of the following scalar "
                                        "types: Long, Int; but got %s instead (while checking arguments for %s)",
                        position, name, tc_dtype_legacy_name(t->dtype), op);
}

/* embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse) */
int tc_meta_embedding(tc_opcall *c, tc_plan *p) {
    tc_tensor *w = tc_arg_tensor(c, 0), *idx = tc_arg_tensor(c, 1);
    if (w->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "'weight' must be 2-D");
    if (index_dtype("embedding", 1, "indices", idx)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS];
    if (tc_shape_check_ndim(idx->ndim + 1)) return TC_FAIL;
    for (int32_t d = 0; d < idx->ndim; d++) sizes[d] = idx->sizes[d];
    sizes[idx->ndim] = w->sizes[1];
    if (tc_plan_output(p, 0, idx->ndim + 1, sizes, w->dtype)) return TC_FAIL;
    p->dtype = w->dtype;
    if (tc_plan_input_contiguous(p, w, -1) || tc_plan_input_contiguous(p, idx, TC_INT64)) return TC_FAIL;
    return tc_plan_int(p, -1) || tc_plan_int(p, 0) ? TC_FAIL : TC_OK;
}

/* embedding_dense_double_backward(self, indices, padding_idx, scale_grad_by_freq): the rows of self
 * the indices name, zero at padding_idx, divided by the frequency of their index when scaled. */
int tc_meta_embedding_dense_double_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *g = tc_arg_tensor(c, 0), *idx = tc_arg_tensor(c, 1);
    if (g->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "'weight' must be 2-D");
    if (index_dtype("embedding_dense_double_backward", 2, "indices", idx)) return TC_FAIL;
    int64_t sizes[TC_MAX_DIMS];
    if (tc_shape_check_ndim(idx->ndim + 1)) return TC_FAIL;
    for (int32_t d = 0; d < idx->ndim; d++) sizes[d] = idx->sizes[d];
    sizes[idx->ndim] = g->sizes[1];
    if (tc_plan_output(p, 0, idx->ndim + 1, sizes, g->dtype)) return TC_FAIL;
    p->dtype = g->dtype;
    if (tc_plan_input_contiguous(p, g, -1) || tc_plan_input_contiguous(p, idx, TC_INT64)) return TC_FAIL;
    return tc_plan_int(p, tc_arg_int(c, 2)) || tc_plan_int(p, tc_arg_bool(c, 3)) ? TC_FAIL : TC_OK;
}

/* embedding_dense_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq) */
int tc_meta_embedding_dense_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *g = tc_arg_tensor(c, 0), *idx = tc_arg_tensor(c, 1);
    int64_t num = tc_arg_int(c, 2), n = tc_tensor_numel(idx);
    if (index_dtype("embedding_backward", 2, "indices", idx)) return TC_FAIL;
    if (num < 0) return tc_set_error(TC_ERR_RUNTIME, "embedding_dense_backward: num_weights must be non-negative");
    int64_t d = g->ndim ? g->sizes[g->ndim - 1] : 1;
    if (g->ndim != idx->ndim + 1 || tc_tensor_numel(g) != n * d)
        return tc_set_error(TC_ERR_RUNTIME, "embedding_dense_backward: expected grad_output of shape indices.shape + "
                                            "[embedding_dim]");
    int64_t sizes[2] = {num, d};
    if (tc_plan_output(p, 0, 2, sizes, g->dtype)) return TC_FAIL;
    p->dtype = g->dtype;
    if (tc_plan_input_contiguous(p, g, -1) || tc_plan_input_contiguous(p, idx, TC_INT64)) return TC_FAIL;
    return tc_plan_int(p, tc_arg_int(c, 3)) || tc_plan_int(p, tc_arg_bool(c, 4)) ? TC_FAIL : TC_OK;
}

/* embedding_renorm_(self, indices, max_norm, norm_type) */
int tc_meta_embedding_renorm(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *idx = tc_arg_tensor(c, 1);
    if (self->ndim != 2)
        return tc_set_error(TC_ERR_RUNTIME, "Expected 2-dimensional tensor, but got %d-dimensional tensor for argument "
                                            "#1 'self' (while checking arguments for embedding_renorm_)", self->ndim);
    if (index_dtype("embedding_renorm_", 2, "indices", idx)) return TC_FAIL;
    if (!tc_dtype_is_floating(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"embedding_renorm_cpu_\" not implemented for '%s'",
                            tc_dtype_scalar_name(self->dtype));
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input_contiguous(p, idx, TC_INT64)) return TC_FAIL;
    return tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(c->args[2].v.f)) ||
                   tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(c->args[3].v.f)) ? TC_FAIL : TC_OK;
}

enum { MODE_SUM, MODE_MEAN, MODE_MAX };

static int bag_weight_dtype(const tc_tensor *w) {
    if (w->dtype == TC_FLOAT32 || w->dtype == TC_FLOAT64 || w->dtype == TC_FLOAT16) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "Expected tensor for argument #1 'weight' to have one of the following scalar "
                                        "types: Float, Double, Half; but got %s instead (while checking arguments for "
                                        "embedding_bag)", tc_dtype_legacy_name(w->dtype));
}

/* _embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
 * include_last_offset, padding_idx) -> (output, offset2bag, bag_size, max_indices) */
int tc_meta_embedding_bag(tc_opcall *c, tc_plan *p) {
    tc_tensor *w = tc_arg_tensor(c, 0), *idx = tc_arg_tensor(c, 1), *off = tc_arg_tensor(c, 2);
    tc_tensor *psw = tc_arg_none(c, 6) ? NULL : tc_arg_tensor(c, 6);
    int64_t mode = tc_arg_int(c, 4), padding_idx = tc_arg_int(c, 8);
    bool include_last = tc_arg_bool(c, 7);
    if (index_dtype("embedding_bag", 2, "indices", idx) || index_dtype("embedding_bag", 3, "offsets", off) ||
        bag_weight_dtype(w))
        return TC_FAIL;
    if (w->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "weight has to be a 2D Tensor, but got Tensor of dimension %d",
                                          w->ndim);
    if (idx->ndim != 1) return tc_set_error(TC_ERR_RUNTIME, "input has to be a 1D or 2D Tensor, but got Tensor of "
                                                            "dimension %d", idx->ndim);
    if (off->ndim != 1) return tc_set_error(TC_ERR_RUNTIME, "offsets has to be a 1D Tensor, but got Tensor of "
                                                            "dimension %d", off->ndim);
    if (mode < MODE_SUM || mode > MODE_MAX) return tc_set_error(TC_ERR_RUNTIME, "embedding_bag: mode must be 0, 1 or 2");
    if (psw) {
        if (mode != MODE_SUM)
            return tc_set_error(TC_ERR_RUNTIME, "embedding_bag: per_sample_weights only supported with mode='sum'");
        if (psw->dtype != w->dtype)
            return tc_set_error(TC_ERR_RUNTIME, "embedding_bag: Expected per_sample_weights to have the weight's dtype");
        if (!tc_shape_equal(psw->ndim, psw->sizes, idx->ndim, idx->sizes))
            return tc_set_error(TC_ERR_RUNTIME, "embedding_bag: Expected per_sample_weights.numel() == indices.numel()");
    }
    int64_t bags = off->sizes[0] - (include_last ? 1 : 0), n = idx->sizes[0];
    if (bags < 0) bags = 0;
    int64_t out_sizes[2] = {bags, w->sizes[1]}, max_sizes[2] = {bags, mode == MODE_MAX ? w->sizes[1] : 0};
    if (tc_plan_output(p, 0, 2, out_sizes, w->dtype) || tc_plan_output(p, 1, 1, &n, TC_INT64) ||
        tc_plan_output(p, 2, 1, &bags, TC_INT64) ||
        tc_plan_output(p, 3, mode == MODE_MAX ? 2 : 1, max_sizes, TC_INT64))
        return TC_FAIL;
    p->dtype = w->dtype;
    if (tc_plan_input_contiguous(p, w, -1) || tc_plan_input_contiguous(p, idx, TC_INT64) ||
        tc_plan_input_contiguous(p, off, TC_INT64) || (psw && tc_plan_input_contiguous(p, psw, -1)))
        return TC_FAIL;
    const int64_t ints[4] = {mode, padding_idx, include_last, psw != NULL};
    for (int i = 0; i < 4; i++)
        if (tc_plan_int(p, ints[i])) return TC_FAIL;
    return TC_OK;
}

/* The bookkeeping tensors of a bag backward, checked against indices, the gradient's [bags, D]
 * shape (D < 0: not 2-D) and each other. */
static int bag_backward_inputs(tc_plan *p, int64_t bags, int64_t D, tc_tensor *idx, tc_tensor *o2b,
                               tc_tensor *bag_size, tc_tensor *max_idx, tc_tensor *psw, int32_t dtype, int64_t mode) {
    int64_t n = tc_tensor_numel(idx);
    if (D < 0 || tc_tensor_numel(o2b) != n || tc_tensor_numel(bag_size) != bags ||
        (mode == MODE_MAX && tc_tensor_numel(max_idx) != bags * D))
        return tc_set_error(TC_ERR_RUNTIME, "embedding_bag backward: the bookkeeping tensors do not match the "
                                            "gradient and indices");
    if (psw && tc_tensor_numel(psw) != n)
        return tc_set_error(TC_ERR_RUNTIME, "embedding_bag backward: per_sample_weights must match indices");
    if (tc_plan_input_contiguous(p, idx, TC_INT64) || tc_plan_input_contiguous(p, o2b, TC_INT64) ||
        tc_plan_input_contiguous(p, bag_size, TC_INT64) || tc_plan_input_contiguous(p, max_idx, TC_INT64) ||
        (psw && tc_plan_input_contiguous(p, psw, dtype)))
        return TC_FAIL;
    return TC_OK;
}

/* _embedding_bag_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices, num_weights,
 * scale_grad_by_freq, mode, per_sample_weights, padding_idx) */
int tc_meta_embedding_bag_dense_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *g = tc_arg_tensor(c, 0), *psw = tc_arg_none(c, 8) ? NULL : tc_arg_tensor(c, 8);
    int64_t num = tc_arg_int(c, 5), mode = tc_arg_int(c, 7);
    if (index_dtype("embedding_bag_backward", 2, "indices", tc_arg_tensor(c, 1))) return TC_FAIL;
    if (mode < MODE_SUM || mode > MODE_MAX) return tc_set_error(TC_ERR_RUNTIME, "embedding_bag: mode must be 0, 1 or 2");
    if (num < 0) return tc_set_error(TC_ERR_RUNTIME, "embedding_bag backward: num_weights must be non-negative");
    int64_t sizes[2] = {num, g->ndim == 2 ? g->sizes[1] : 0};
    if (tc_plan_output(p, 0, 2, sizes, g->dtype)) return TC_FAIL;
    p->dtype = g->dtype;
    if (tc_plan_input_contiguous(p, g, -1) ||
        bag_backward_inputs(p, g->ndim == 2 ? g->sizes[0] : 0, g->ndim == 2 ? g->sizes[1] : -1, tc_arg_tensor(c, 1),
                            tc_arg_tensor(c, 2), tc_arg_tensor(c, 3), tc_arg_tensor(c, 4), psw, g->dtype, mode))
        return TC_FAIL;
    const int64_t ints[4] = {mode, tc_arg_int(c, 9), tc_arg_bool(c, 6), psw != NULL};
    for (int i = 0; i < 4; i++)
        if (tc_plan_int(p, ints[i])) return TC_FAIL;
    return TC_OK;
}

/* _embedding_bag_dense_double_backward(self, indices, offset2bag, bag_size, maximum_indices,
 * scale_grad_by_freq, mode, per_sample_weights, padding_idx): the adjoint of the dense backward in
 * its gradient, of the bags' shape (bag_size's length x self's columns). */
int tc_meta_embedding_bag_dense_double_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *bag_size = tc_arg_tensor(c, 3);
    tc_tensor *psw = tc_arg_none(c, 7) ? NULL : tc_arg_tensor(c, 7);
    int64_t mode = tc_arg_int(c, 6);
    if (self->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "'weight' must be 2-D");
    if (mode < MODE_SUM || mode > MODE_MAX) return tc_set_error(TC_ERR_RUNTIME, "embedding_bag: mode must be 0, 1 or 2");
    int64_t sizes[2] = {tc_tensor_numel(bag_size), self->sizes[1]};
    if (tc_plan_output(p, 0, 2, sizes, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input_contiguous(p, self, -1) ||
        bag_backward_inputs(p, sizes[0], sizes[1], tc_arg_tensor(c, 1), tc_arg_tensor(c, 2), bag_size,
                            tc_arg_tensor(c, 4), psw, self->dtype, mode))
        return TC_FAIL;
    const int64_t ints[4] = {mode, tc_arg_int(c, 8), tc_arg_bool(c, 5), psw != NULL};
    for (int i = 0; i < 4; i++)
        if (tc_plan_int(p, ints[i])) return TC_FAIL;
    return TC_OK;
}

/* _embedding_bag_per_sample_weights_backward(grad, weight, indices, offsets, offset2bag, mode,
 * padding_idx) */
int tc_meta_embedding_bag_per_sample_weights_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *g = tc_arg_tensor(c, 0), *w = tc_arg_tensor(c, 1), *idx = tc_arg_tensor(c, 2), *o2b = tc_arg_tensor(c, 4);
    if (tc_arg_int(c, 5) != MODE_SUM)
        return tc_set_error(TC_ERR_RUNTIME, "embedding_bag_backward: per_sample_weights only supported for mode='sum'");
    if (g->ndim != 2 || w->ndim != 2 || g->sizes[1] != w->sizes[1] || tc_tensor_numel(o2b) != tc_tensor_numel(idx))
        return tc_set_error(TC_ERR_RUNTIME, "embedding_bag_backward: grad and weight must be 2-D with the same columns");
    if (g->dtype != w->dtype) return tc_set_error(TC_ERR_RUNTIME, "embedding_bag_backward: grad and weight dtypes differ");
    int64_t n = tc_tensor_numel(idx);
    if (tc_plan_output(p, 0, 1, &n, w->dtype)) return TC_FAIL;
    p->dtype = w->dtype;
    if (tc_plan_input_contiguous(p, g, -1) || tc_plan_input_contiguous(p, w, -1) ||
        tc_plan_input_contiguous(p, idx, TC_INT64) || tc_plan_input_contiguous(p, o2b, TC_INT64))
        return TC_FAIL;
    return tc_plan_int(p, tc_arg_int(c, 5)) || tc_plan_int(p, tc_arg_int(c, 6)) ? TC_FAIL : TC_OK;
}
