/*
 * Meta functions of the losses with kernels: the pointwise ones with a reduction (mse_loss,
 * smooth_l1_loss, huber_loss, binary_cross_entropy) and nll_loss_forward/nll_loss2d_forward and
 * their backward ops, with PyTorch's checks and messages.
 */
#include "core_internal.h"
#include "nn_meta.h"

#include <string.h>

/* The op's `reduction` argument, checked: 0 none, 1 mean, 2 sum. */
static int reduction_of(const tc_opcall *c, int64_t *reduction) {
    const tc_op_schema *s = &c->op->schema;
    for (int32_t i = 0; i < s->n_args; i++) {
        if (strcmp(s->args[i].name, "reduction") != 0) continue;
        *reduction = c->args[i].v.i;
        if (*reduction < 0 || *reduction > 2)
            return tc_set_error(TC_ERR_RUNTIME, "%s: reduction must be 0 (none), 1 (mean) or 2 (sum), got %lld",
                                s->name, (long long)*reduction);
        return TC_OK;
    }
    return tc_set_error(TC_ERR_RUNTIME, "internal error: %s has no reduction argument", s->name);
}

/* Pointwise losses (self, target[, weight], reduction, ...): every tensor argument broadcast to one
 * shape and promoted; the result has that shape (reduction none) or none (mean, sum). Inputs reach
 * the kernel already expanded to the shape. */
int tc_meta_loss(tc_opcall *c, tc_plan *p) {
    tc_tensor *ts[3];
    int n = 0;
    for (int32_t i = 0; i < c->op->schema.n_args && n < 3; i++)
        if (c->args[i].tag == TC_VALUE_TENSOR && !(c->op->schema.args[i].flags & TC_ARG_KWONLY))
            ts[n++] = c->args[i].v.tensor;
    int64_t reduction;
    if (reduction_of(c, &reduction)) return TC_FAIL;
    int32_t dtype = tc_result_type(ts, n);
    if (!tc_dtype_is_floating(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'", tc_kernel_name(c->op->kernel),
                            tc_dtype_scalar_name(dtype));
    int32_t ndim = ts[0]->ndim;
    int64_t shape[TC_MAX_DIMS];
    memcpy(shape, ts[0]->sizes, sizeof(int64_t) * (size_t)ndim);
    for (int i = 1; i < n; i++)
        if (tc_shape_broadcast(ndim, shape, ts[i]->ndim, ts[i]->sizes, &ndim, shape)) return TC_FAIL;
    if (tc_plan_output(p, 0, reduction == 0 ? ndim : 0, shape, dtype)) return TC_FAIL;
    for (int i = 0; i < n; i++) {
        tc_tensor *e = tc_expand_to(ts[i], ndim, shape);
        int rc = e ? tc_plan_input(p, e, dtype) : TC_FAIL;
        tc_tensor_release(e);
        if (rc) return TC_FAIL;
    }
    p->dtype = dtype;
    return TC_OK;
}

/* ---- nll_loss ---- */

static int shape_text(const tc_tensor *t, char *buf, size_t len) {
    tc_shape_format(t->ndim, t->sizes, buf, len);
    return TC_OK;
}

/* The dtypes the nll kernels take: floating input (not float16), int64 or uint8 targets, a weight of
 * the input's dtype. */
static int nll_dtypes(const tc_opcall *c, const tc_tensor *self, const tc_tensor *target, const tc_tensor *weight) {
    if (!(self->dtype == TC_BFLOAT16 || self->dtype == TC_FLOAT32 || self->dtype == TC_FLOAT64))
        return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                            strstr(c->op->schema.name, "backward") ? "nll_loss_backward_out_frame" : "nll_loss_out_frame",
                            tc_dtype_scalar_name(self->dtype));
    if (target->dtype != TC_INT64 && target->dtype != TC_UINT8)
        return tc_set_error(TC_ERR_RUNTIME, "expected scalar type Long but found %s", tc_dtype_scalar_name(target->dtype));
    if (weight && weight->dtype != self->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "expected scalar type %s but found %s", tc_dtype_scalar_name(self->dtype),
                            tc_dtype_scalar_name(weight->dtype));
    return TC_OK;
}

static tc_tensor *optional_tensor(const tc_opcall *c, int i) { return tc_arg_none(c, i) ? NULL : tc_arg_tensor(c, i); }

/* PyTorch's checks of nll_loss_forward and nll_loss_backward (1-D or 2-D input). */
static int check_nll(const tc_tensor *self, const tc_tensor *target, const tc_tensor *weight) {
    if (self->ndim < 1 || self->ndim > 2) return tc_set_error(TC_ERR_RUNTIME, "input tensor should be 1D or 2D");
    if (target->ndim > 1)
        return tc_set_error(TC_ERR_RUNTIME, "0D or 1D target tensor expected, multi-target not supported");
    bool no_batch_dim = self->ndim == 1 && target->ndim == 0;
    if (!no_batch_dim && (target->ndim == 0 || self->sizes[0] != target->sizes[0])) {
        char a[256], b[256];
        shape_text(self, a, sizeof a);
        shape_text(target, b, sizeof b);
        return tc_set_error(TC_ERR_RUNTIME, "size mismatch (got input: %s, target: %s)", a, b);
    }
    int64_t classes = self->sizes[self->ndim - 1];
    if (weight && (weight->ndim != 1 || tc_tensor_numel(weight) != classes)) {
        char w[256];
        shape_text(weight, w, sizeof w);
        return tc_set_error(TC_ERR_RUNTIME, "weight tensor should be defined either for all %lld classes or no classes "
                                            "but got weight tensor of shape: %s", (long long)classes, w);
    }
    return TC_OK;
}

/* PyTorch's checks of nll_loss2d (4-D input, 3-D target). */
static int check_nll2d(const tc_tensor *self, const tc_tensor *target, const tc_tensor *weight) {
    if (target->ndim != 3)
        return tc_set_error(TC_ERR_RUNTIME, "only batches of spatial targets supported (3D tensors) but got targets of "
                                            "dimension: %d", target->ndim);
    if (self->ndim != 4)
        return tc_set_error(TC_ERR_RUNTIME, "only batches of spatial inputs supported (4D tensors), but got input of "
                                            "dimension: %d", self->ndim);
    if (weight && tc_tensor_numel(weight) != self->sizes[1])
        return tc_set_error(TC_ERR_RUNTIME, "weight tensor should be defined either for all or no classes");
    if (self->sizes[0] != target->sizes[0] || self->sizes[2] != target->sizes[1] || self->sizes[3] != target->sizes[2]) {
        char a[256], b[256];
        shape_text(self, a, sizeof a);
        shape_text(target, b, sizeof b);
        return tc_set_error(TC_ERR_RUNTIME, "size mismatch (got input: %s , target: %s", a, b);
    }
    return TC_OK;
}

/* nll_loss_forward / nll_loss2d_forward(self, target, weight, reduction, ignore_index) ->
 * (output, total_weight). The kernel gets self, target (and the weight) contiguous. */
static int nll_forward(tc_opcall *c, tc_plan *p, bool spatial) {
    tc_tensor *self = tc_arg_tensor(c, 0), *target = tc_arg_tensor(c, 1), *weight = optional_tensor(c, 2);
    int64_t reduction;
    if ((spatial ? check_nll2d : check_nll)(self, target, weight) || reduction_of(c, &reduction)) return TC_FAIL;
    if (nll_dtypes(c, self, target, weight)) return TC_FAIL;
    bool per_item = reduction == 0 && (spatial || self->ndim == 2);
    int rc = tc_plan_output(p, 0, per_item ? target->ndim : 0, target->sizes, self->dtype);
    if (rc == TC_OK) rc = tc_nn_contiguous_output(p);
    if (rc == TC_OK) rc = tc_plan_output(p, 1, 0, NULL, self->dtype);
    if (rc == TC_OK) rc = tc_nn_contiguous_input(p, self, -1);
    if (rc == TC_OK) rc = tc_nn_contiguous_input(p, target, -1);
    if (rc == TC_OK && weight) rc = tc_nn_contiguous_input(p, weight, -1);
    p->dtype = self->dtype;
    return rc;
}

int tc_meta_nll_loss(tc_opcall *c, tc_plan *p) { return nll_forward(c, p, false); }
int tc_meta_nll_loss2d(tc_opcall *c, tc_plan *p) { return nll_forward(c, p, true); }

/* nll_loss_backward / nll_loss2d_backward(grad_output, self, target, weight, reduction,
 * ignore_index, total_weight) -> grad_input like self. Kernel inputs: grad_output, target,
 * total_weight[, weight], contiguous. */
static int nll_backward(tc_opcall *c, tc_plan *p, bool spatial) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *self = tc_arg_tensor(c, 1), *target = tc_arg_tensor(c, 2);
    tc_tensor *weight = optional_tensor(c, 3), *total = tc_arg_tensor(c, 6);
    int64_t reduction;
    if ((spatial ? check_nll2d : check_nll)(self, target, weight) || reduction_of(c, &reduction)) return TC_FAIL;
    if (nll_dtypes(c, self, target, weight)) return TC_FAIL;
    if (tc_tensor_numel(total) != 1) {
        char t[256];
        shape_text(total, t, sizeof t);
        return tc_set_error(TC_ERR_RUNTIME, "expected total_weight to be a  single element tensor, got: %s (%lld "
                                            "elements)", t, (long long)tc_tensor_numel(total));
    }
    bool per_item = reduction == 0 && (spatial || self->ndim == 2);
    if (per_item ? !tc_shape_equal(grad->ndim, grad->sizes, target->ndim, target->sizes) : tc_tensor_numel(grad) != 1) {
        char g[256];
        shape_text(grad, g, sizeof g);
        return tc_set_error(TC_ERR_RUNTIME, "%s", per_item ? "grad_output must have the shape of target" :
                                                "grad_output must be a single element tensor");
    }
    int rc = tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype);
    if (rc == TC_OK) rc = tc_nn_contiguous_output(p);
    if (rc == TC_OK) rc = tc_nn_contiguous_input(p, grad, self->dtype);
    if (rc == TC_OK) rc = tc_nn_contiguous_input(p, target, -1);
    if (rc == TC_OK) rc = tc_nn_contiguous_input(p, total, self->dtype);
    if (rc == TC_OK && weight) rc = tc_nn_contiguous_input(p, weight, -1);
    p->dtype = self->dtype;
    return rc;
}

int tc_meta_nll_loss_backward(tc_opcall *c, tc_plan *p) { return nll_backward(c, p, false); }
int tc_meta_nll_loss2d_backward(tc_opcall *c, tc_plan *p) { return nll_backward(c, p, true); }
