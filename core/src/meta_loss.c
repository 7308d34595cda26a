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
 * the kernel already expanded to the shape. `dtypes`: a bit per dtype PyTorch's kernel takes. */
static int loss(tc_opcall *c, tc_plan *p, unsigned dtypes) {
    tc_tensor *ts[3];
    int n = 0;
    for (int32_t i = 0; i < c->op->schema.n_args && n < 3; i++)
        if (c->args[i].tag == TC_VALUE_TENSOR && !(c->op->schema.args[i].flags & TC_ARG_KWONLY))
            ts[n++] = c->args[i].v.tensor;
    int64_t reduction;
    if (reduction_of(c, &reduction)) return TC_FAIL;
    int32_t dtype = tc_result_type(ts, n);
    if (!(dtypes >> dtype & 1))
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

#define BIT(d) (1u << (d))
/* smooth_l1_loss, huber_loss: every floating dtype */
int tc_meta_loss(tc_opcall *c, tc_plan *p) {
    return loss(c, p, BIT(TC_FLOAT16) | BIT(TC_BFLOAT16) | BIT(TC_FLOAT32) | BIT(TC_FLOAT64));
}
/* mse_loss: not bfloat16 */
int tc_meta_loss_no_bf16(tc_opcall *c, tc_plan *p) {
    return loss(c, p, BIT(TC_FLOAT16) | BIT(TC_FLOAT32) | BIT(TC_FLOAT64));
}
/* binary_cross_entropy: float32 and float64 */
int tc_meta_loss_f32(tc_opcall *c, tc_plan *p) { return loss(c, p, BIT(TC_FLOAT32) | BIT(TC_FLOAT64)); }

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

/* ---- CTC ---- */

/* PyTorch's checks of ctc_loss_cpu; the longest target through *max_target. */
static int check_ctc(const tc_tensor *lp, const tc_tensor *targets, tc_int_list in_len, tc_int_list tg_len,
                     int64_t blank, int64_t *max_target) {
    if (lp->ndim != 3)
        return tc_set_error(TC_ERR_RUNTIME, "Expected 3-dimensional tensor, but got %d-dimensional tensor for argument "
                                            "#1 'log_probs' (while checking arguments for ctc_loss_cpu)", lp->ndim);
    if (targets->dtype != TC_INT64 && targets->dtype != TC_INT32)
        return tc_set_error(TC_ERR_RUNTIME, "Expected tensor for argument #2 'targets' to have scalar type Int; but got "
                                            "%s instead (while checking arguments for ctc_loss_cpu)",
                            tc_dtype_scalar_name(targets->dtype));
    if (targets->ndim < 1 || targets->ndim > 2)
        return tc_set_error(TC_ERR_RUNTIME, "Expected 1 to 2 dimensions, but got %d-dimensional tensor for argument #2 "
                                            "'targets' (while checking arguments for ctc_loss_cpu)", targets->ndim);
    const int64_t n = lp->sizes[1], classes = lp->sizes[2];
    if (blank < 0 || blank >= classes) return tc_set_error(TC_ERR_RUNTIME, "blank must be in label range");
    if (in_len.len != n) return tc_set_error(TC_ERR_RUNTIME, "input_lengths must be of size batch_size");
    if (tg_len.len != n) return tc_set_error(TC_ERR_RUNTIME, "target_lengths must be of size batch_size");
    int64_t total = 0;
    *max_target = 0;
    for (int64_t b = 0; b < n; b++) {
        if (in_len.items[b] < 0 || tg_len.items[b] < 0)
            return tc_set_error(TC_ERR_RUNTIME, "ctc_loss: input_lengths and target_lengths must be non-negative");
        if (__builtin_add_overflow(total, tg_len.items[b], &total))
            return tc_set_error(TC_ERR_RUNTIME, "ctc_loss: target lengths overflow");
        if (tg_len.items[b] > *max_target) *max_target = tg_len.items[b];
    }
    const int64_t want = targets->ndim == 1 ? total : n;
    if (targets->sizes[0] != want)
        return tc_set_error(TC_ERR_RUNTIME, "Expected tensor to have size %lld at dimension 0, but got size %lld for "
                                            "argument #2 'targets' (while checking arguments for ctc_loss_cpu)",
                            (long long)want, (long long)targets->sizes[0]);
    if (targets->ndim == 2 && targets->sizes[1] < *max_target)
        return tc_set_error(TC_ERR_RUNTIME, "Expected tensor to have size at least %lld at dimension 1, but got size "
                                            "%lld for argument #2 'targets' (while checking arguments for ctc_loss_cpu)",
                            (long long)*max_target, (long long)targets->sizes[1]);
    for (int64_t b = 0; b < n; b++)
        if (in_len.items[b] > lp->sizes[0])
            return tc_set_error(TC_ERR_RUNTIME, "Expected input_lengths to have value at most %lld, but got value %lld "
                                                "(while checking arguments for ctc_loss_cpu)", (long long)lp->sizes[0],
                                (long long)in_len.items[b]);
    if (!(lp->dtype == TC_FLOAT32 || lp->dtype == TC_FLOAT64))
        return tc_set_error(TC_ERR_RUNTIME, "\"ctc_loss_cpu\" not implemented for '%s'", tc_dtype_scalar_name(lp->dtype));
    return TC_OK;
}

/* _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity) ->
 * (neg_log_likelihood [N], log_alpha [N, T, 2 S + 1]) */
int tc_meta_ctc_loss(tc_opcall *c, tc_plan *p) {
    tc_tensor *lp = tc_arg_tensor(c, 0), *targets = tc_arg_tensor(c, 1);
    int64_t max_target;
    if (check_ctc(lp, targets, tc_arg_ints(c, 2), tc_arg_ints(c, 3), tc_arg_int(c, 4), &max_target)) return TC_FAIL;
    int64_t width;
    if (__builtin_mul_overflow(max_target, 2, &width) || __builtin_add_overflow(width, 1, &width))
        return tc_set_error(TC_ERR_RUNTIME, "ctc_loss: target too long");
    int64_t alpha[3] = {lp->sizes[1], lp->sizes[0], width};
    int rc = tc_plan_output(p, 0, 1, &lp->sizes[1], lp->dtype);
    if (rc == TC_OK) rc = tc_nn_contiguous_output(p);
    if (rc == TC_OK) rc = tc_plan_output(p, 1, 3, alpha, lp->dtype);
    if (rc == TC_OK && !tc_tensor_is_contiguous(p->out[1]))
        rc = tc_set_error(TC_ERR_RUNTIME, "_ctc_loss: log_alpha must be contiguous");
    if (rc == TC_OK) rc = tc_nn_contiguous_input(p, lp, -1);
    if (rc == TC_OK) rc = tc_nn_contiguous_input(p, targets, -1);
    p->dtype = lp->dtype;
    return rc;
}

/* _ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood,
 * log_alpha, blank, zero_infinity) -> the gradient of log_probs. */
int tc_meta_ctc_loss_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *lp = tc_arg_tensor(c, 1), *targets = tc_arg_tensor(c, 2);
    tc_tensor *nll = tc_arg_tensor(c, 5), *alpha = tc_arg_tensor(c, 6);
    int64_t max_target;
    if (check_ctc(lp, targets, tc_arg_ints(c, 3), tc_arg_ints(c, 4), tc_arg_int(c, 7), &max_target)) return TC_FAIL;
    const int64_t n = lp->sizes[1];
    if (tc_tensor_numel(grad) != n || tc_tensor_numel(nll) != n || alpha->ndim != 3 || alpha->sizes[0] != n ||
        alpha->sizes[1] != lp->sizes[0] || alpha->sizes[2] != 2 * max_target + 1)
        return tc_set_error(TC_ERR_RUNTIME, "_ctc_loss_backward: grad, neg_log_likelihood and log_alpha do not match "
                                            "log_probs and the target lengths");
    int rc = tc_plan_output(p, 0, lp->ndim, lp->sizes, lp->dtype);
    if (rc == TC_OK) rc = tc_nn_contiguous_output(p);
    tc_tensor *in[5] = {grad, lp, targets, nll, alpha};
    for (int i = 0; i < 5 && rc == TC_OK; i++) rc = tc_nn_contiguous_input(p, in[i], i == 2 ? -1 : lp->dtype);
    p->dtype = lp->dtype;
    return rc;
}
