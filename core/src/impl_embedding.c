/*
 * Embeddings composed of the kernel ops: embedding_backward and _embedding_bag_backward (the dense
 * backward ops; sparse gradients need the sparse layout, which is not built yet), embedding_bag
 * (both overloads: _embedding_bag with a padding index), and one_hot.
 */
#include "core_internal.h"

/* embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse) */
int tc_impl_embedding_backward(tc_opcall *c) {
    if (tc_arg_bool(c, 5))
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "embedding: sparse gradients (sparse=True) are not supported yet");
    return tc_return(c, tc_embedding_dense_backward(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), tc_arg_int(c, 2),
                                                    tc_arg_int(c, 3), tc_arg_bool(c, 4)));
}

/* embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
 * include_last_offset[, padding_idx]) */
int tc_impl_embedding_bag(tc_opcall *c) {
    int64_t padding_idx = c->op->schema.n_args > 8 && !tc_arg_none(c, 8) ? tc_arg_int(c, 8) : -1;
    tc_tensor *r[4];
    if (tc__embedding_bag(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), tc_arg_tensor(c, 2), tc_arg_bool(c, 3),
                          tc_arg_int(c, 4), tc_arg_bool(c, 5), tc_arg_none(c, 6) ? NULL : tc_arg_tensor(c, 6),
                          tc_arg_bool(c, 7), padding_idx, &r[0], &r[1], &r[2], &r[3]))
        return TC_FAIL;
    for (int i = 0; i < 4; i++) c->outs[i] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = r[i]};
    return TC_OK;
}

/* _embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights,
 * scale_grad_by_freq, mode, sparse, per_sample_weights, padding_idx) */
int tc_impl__embedding_bag_backward(tc_opcall *c) {
    if (tc_arg_bool(c, 9))
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "embedding_bag: sparse gradients (sparse=True) are not supported "
                                                    "yet");
    return tc_return(c, tc__embedding_bag_dense_backward(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), tc_arg_tensor(c, 3),
                                                         tc_arg_tensor(c, 4), tc_arg_tensor(c, 5), tc_arg_int(c, 6),
                                                         tc_arg_bool(c, 7), tc_arg_int(c, 8),
                                                         tc_arg_none(c, 10) ? NULL : tc_arg_tensor(c, 10),
                                                         tc_arg_int(c, 11)));
}

/* A 0-dim tensor's value as an int64 (reads the data: not for the meta device). */
static int item(tc_tensor *t, int64_t *v) {
    if (!t) return TC_FAIL;
    tc_scalar s;
    int rc = tc__local_scalar_dense(t, &s);
    tc_tensor_release(t);
    if (rc) return TC_FAIL;
    *v = s.kind == TC_SCALAR_FLOAT ? (int64_t)s.v.f : s.v.i;
    return TC_OK;
}

/* one_hot(self, num_classes): (self[..., None] == arange(num_classes)) as int64, num_classes -1 meaning
 * the largest class + 1. */
int tc_impl_one_hot(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int64_t classes = tc_arg_int(c, 1);
    if (self->dtype != TC_INT64) return tc_set_error(TC_ERR_RUNTIME, "one_hot is only applicable to index tensor.");
    if (tc_tensor_numel(self) == 0) {
        if (classes <= 0)
            return tc_set_error(TC_ERR_RUNTIME, "Can not infer total number of classes from empty tensor.");
    } else {
        int64_t lo, hi;
        if (item(tc_min(self), &lo) || item(tc_max(self), &hi)) return TC_FAIL;
        if (lo < 0) return tc_set_error(TC_ERR_RUNTIME, "Class values must be non-negative.");
        if (classes == -1) classes = hi + 1;
        else if (hi >= classes) return tc_set_error(TC_ERR_RUNTIME, "Class values must be smaller than num_classes.");
    }
    tc_tensor *u = tc_unsqueeze(self, -1);
    tc_tensor *range = u ? tc_arange(TC_SCALAR_OF_INT(classes), TC_INT64, -1, &self->device, NULL) : NULL;
    tc_tensor *eq = range ? tc_eq_Tensor(u, range) : NULL;
    tc_tensor *r = eq ? tc_to_dtype(eq, TC_INT64, false, false, -1) : NULL;
    tc_tensor_release(u);
    tc_tensor_release(range);
    tc_tensor_release(eq);
    return tc_return(c, r);
}
