/*
 * Meta functions of searching and binning: searchsorted and bucketize (kernel "searchsorted"),
 * histc, bincount (whose output size is the data's: deferred). Checks in PyTorch's order and words.
 */
#include "core_internal.h"

#include <string.h>

/* searchsorted / bucketize on tensors: sequence and values converted to their common dtype, the
 * optional sorter as it is; ints = [right]. */
static int plan_search(tc_opcall *c, tc_plan *p, tc_tensor *seq, tc_tensor *values, bool out_int32, bool right,
                       const char *side, tc_tensor *sorter) {
    if (side) {
        if (strcmp(side, "left") != 0 && strcmp(side, "right") != 0)
            return tc_set_error(TC_ERR_RUNTIME, "torch.searchsorted(): side can only be 'left' or 'right' but got %s",
                                side);
        if (right && strcmp(side, "right") != 0)
            return tc_set_error(TC_ERR_RUNTIME, "torch.searchsorted(): side and right can't be set to opposites, got "
                                                "side of %s while right was True", side);
        right = strcmp(side, "right") == 0;
    }
    char a[256], b[256];
    if (sorter) {
        if (!tc_shape_equal(sorter->ndim, sorter->sizes, seq->ndim, seq->sizes)) {
            tc_shape_format(seq->ndim, seq->sizes, a, sizeof a);
            tc_shape_format(sorter->ndim, sorter->sizes, b, sizeof b);
            return tc_set_error(TC_ERR_RUNTIME, "torch.searchsorted(): boundary and sorter must have the same size, "
                                                "but got boundary tensor %sand got sorter tensor %s", a, b);
        }
        if (sorter->dtype != TC_INT64)
            return tc_set_error(TC_ERR_RUNTIME, "torch.searchsorted(): sorter must be a tensor of long dtype but got "
                                                "dtype %s", tc_dtype_scalar_name(sorter->dtype));
    }
    if (values->ndim == 0 && seq->ndim != 1 && seq->ndim != 0)
        return tc_set_error(TC_ERR_RUNTIME, "torch.searchsorted(): input value can be a scalar only when boundaries "
                                            "tensor dimension is 1, but we got boundaries tensor dim(%d) and input "
                                            "value's dim(%d) numel(%lld)", seq->ndim, values->ndim,
                            (long long)tc_tensor_numel(values));
    if (seq->ndim == 0)
        return tc_set_error(TC_ERR_RUNTIME, "torch.searchsorted(): boundaries tensor should have positive dimension, "
                                            "but got 0 dimension");
    bool matched = seq->ndim == values->ndim;
    for (int32_t d = 0; matched && d + 1 < seq->ndim; d++) matched = seq->sizes[d] == values->sizes[d];
    if (seq->ndim != 1 && !matched) {
        tc_shape_format(seq->ndim, seq->sizes, a, sizeof a);
        tc_shape_format(values->ndim, values->sizes, b, sizeof b);
        return tc_set_error(TC_ERR_RUNTIME, "torch.searchsorted(): boundaries tensor should be 1 dimension or the "
                                            "first N-1 dimensions of boundaries tensor and input value tensor must "
                                            "match, but we got boundaries tensor %s and input value tensor %s", a, b);
    }
    tc_tensor *both[2] = {seq, values};
    int32_t dtype = tc_result_type(both, 2);
    if (dtype == TC_BOOL)
        return tc_set_error(TC_ERR_RUNTIME, "\"searchsorted_out_cpu\" not implemented for 'Bool'");
    const int32_t out_dtype = out_int32 ? TC_INT32 : TC_INT64;
    if (c->op->variant == TC_VARIANT_OUT) {
        const tc_tensor *o = c->args[c->op->schema.n_args - 1].v.tensor;
        if (o->dtype != out_dtype)
            return tc_set_error(TC_ERR_RUNTIME, "torch.searchsorted(): output tensor's dtype is wrong, it can only be "
                                                "Int(int32) or Long(int64) depending on whether out_int32 flag is True, "
                                                "but we got output tensor's dtype %s and out_int32 flag is %s",
                                tc_dtype_scalar_name(o->dtype), out_int32 ? "True" : "False");
    }
    if (tc_plan_output(p, 0, values->ndim, values->sizes, out_dtype)) return TC_FAIL;
    p->dtype = dtype;
    if (tc_plan_input(p, seq, dtype) || tc_plan_input(p, values, dtype)) return TC_FAIL;
    if (sorter && tc_plan_input(p, sorter, -1)) return TC_FAIL;
    return tc_plan_int(p, right);
}

/* A Scalar argument as a 0-dim tensor (not a wrapped number: PyTorch's scalar_to_tensor). */
static tc_tensor *scalar_arg(const tc_value *v) {
    tc_scalar s = v->v.scalar;
    int32_t dtype = s.kind == TC_SCALAR_FLOAT ? TC_FLOAT64 : s.kind == TC_SCALAR_BOOL ? TC_BOOL : TC_INT64;
    return tc_scalar_tensor(s, dtype);
}

/* searchsorted(sorted_sequence, self (Tensor or Scalar), *, out_int32, right, side, sorter) */
int tc_meta_searchsorted(tc_opcall *c, tc_plan *p) {
    tc_tensor *seq = tc_arg_tensor(c, 0), *values = NULL;
    bool scalar = c->args[1].tag == TC_VALUE_SCALAR;
    if (!(values = scalar ? scalar_arg(&c->args[1]) : tc_arg_tensor(c, 1))) return TC_FAIL;
    const char *side = c->args[4].tag == TC_VALUE_STR ? c->args[4].v.s : NULL;
    tc_tensor *sorter = c->args[5].tag == TC_VALUE_TENSOR ? c->args[5].v.tensor : NULL;
    int rc = plan_search(c, p, seq, values, tc_arg_bool(c, 2), tc_arg_bool(c, 3), side, sorter);
    if (scalar) tc_tensor_release(values);
    return rc;
}

/* bucketize(self (Tensor or Scalar), boundaries, *, out_int32, right): searchsorted of a 1-D
 * boundaries tensor. */
int tc_meta_bucketize(tc_opcall *c, tc_plan *p) {
    tc_tensor *boundaries = tc_arg_tensor(c, 1), *values;
    if (boundaries->ndim != 1)
        return tc_set_error(TC_ERR_RUNTIME, "boundaries tensor must be 1 dimension, but got dim(%d)", boundaries->ndim);
    bool scalar = c->args[0].tag == TC_VALUE_SCALAR;
    if (!(values = scalar ? scalar_arg(&c->args[0]) : tc_arg_tensor(c, 0))) return TC_FAIL;
    int rc = plan_search(c, p, boundaries, values, tc_arg_bool(c, 2), tc_arg_bool(c, 3), NULL, NULL);
    if (scalar) tc_tensor_release(values);
    return rc;
}

/* histc(self, bins, min, max): hist [bins] of self's (floating) dtype; scalars = [min, max]. */
int tc_meta_histc(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *out = tc_written_arg(c, 0);
    if (out && out->dtype != self->dtype) /* out= is never cast into, checked first as PyTorch does */
        return tc_set_error(TC_ERR_RUNTIME, "torch.histogram: input tensor and hist tensor should have the same "
                                            "dtype, but got input %s and hist %s", tc_dtype_cpp_name(self->dtype),
                            tc_dtype_cpp_name(out->dtype));
    int64_t bins = tc_arg_int(c, 1);
    if (bins <= 0)
        return tc_set_error(TC_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got %lld for dimension 0",
                            (long long)bins);
    if (!tc_dtype_is_floating(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"histogram_cpu\" not implemented for '%s'",
                            tc_dtype_scalar_name(self->dtype));
    if (tc_plan_output(p, 0, 1, &bins, self->dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input(p, self, -1)) return TC_FAIL;
    return tc_plan_scalar(p, c->args[2].v.scalar) || tc_plan_scalar(p, c->args[3].v.scalar) ? TC_FAIL : TC_OK;
}

/* bincount(self, weights, minlength): counts (int64), or summed weights (float32 weights stay
 * float32, others become float64); the size is the data's, so the output is deferred.
 * ints = [minlength]. */
int tc_meta_bincount(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *weights = tc_arg_none(c, 1) ? NULL : tc_arg_tensor(c, 1);
    int64_t minlength = tc_arg_int(c, 2);
    if (!tc_dtype_is_integral(self->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"bincount_cpu\" not implemented for '%s'", tc_dtype_scalar_name(self->dtype));
    if (minlength < 0) return tc_set_error(TC_ERR_RUNTIME, "minlength should be >= 0");
    bool empty = self->ndim == 1 && self->sizes[0] == 0;
    if (!empty && self->ndim != 1)
        return tc_set_error(TC_ERR_RUNTIME, "bincount only supports 1-d non-negative integral inputs.");
    if (!empty && weights && (weights->ndim != 1 || weights->sizes[0] != self->sizes[0]))
        return tc_set_error(TC_ERR_RUNTIME, "weights should be 1-d and have the same length as input");
    int32_t dtype = empty || !weights ? TC_INT64 : weights->dtype == TC_FLOAT32 ? TC_FLOAT32 : TC_FLOAT64;
    if (tc_plan_output_deferred(p, 0, dtype)) return TC_FAIL;
    p->dtype = self->dtype;
    if (tc_plan_input(p, self, -1)) return TC_FAIL;
    if (!empty && weights && tc_plan_input(p, weights, dtype)) return TC_FAIL;
    return tc_plan_int(p, minlength);
}
