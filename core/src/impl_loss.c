/*
 * Losses that are compositions of other ops, as PyTorch composes them (l1_loss, nll_loss and its
 * N-d form, cross_entropy_loss, kl_div, margin_ranking_loss, hinge_embedding_loss,
 * cosine_embedding_loss, pairwise_distance, triplet_margin_loss, poisson_nll_loss,
 * binary_cross_entropy_with_logits) and the backward pieces of the binary cross entropies.
 *
 * PyTorch writes several of these with where/masked_fill/clamp_min, which are not ops here yet:
 * a mask multiplies instead (a NaN or infinity the mask should hide then shows), clamp_min(x, 0)
 * is relu(x), and xlogy(t, t) is t * log(t + (t == 0)).
 */
#include "core_internal.h"
#include "nn_temps.h"

#include <math.h>
#include <stdio.h>

#define ONE TC_SCALAR_OF_INT(1)
#define NUM(v) NN_KEEP(&k, nn_number(v))
#define INT(v) NN_KEEP(&k, nn_int_number(v))
#define MUL(a, b) NN_KEEP(&k, tc_mul_Tensor((a), (b)))
#define DIV(a, b) NN_KEEP(&k, tc_div_Tensor((a), (b)))
#define ADD(a, b) NN_KEEP(&k, tc_add_Tensor((a), (b), ONE))
#define SUB(a, b) NN_KEEP(&k, tc_sub_Tensor((a), (b), ONE))

enum { REDUCE_NONE = 0, REDUCE_MEAN = 1, REDUCE_SUM = 2 };

/* PyTorch's apply_loss_reduction: mean or sum of everything, or the unreduced tensor. */
static tc_tensor *reduce(nn_temps *kp, tc_tensor *t, int64_t reduction) {
    nn_temps k = *kp;
    tc_tensor *r = reduction == REDUCE_MEAN ? NN_KEEP(&k, tc_mean(t, -1)) : reduction == REDUCE_SUM ? NN_KEEP(&k, tc_sum(t, -1)) : t;
    *kp = k;
    return r;
}

static tc_tensor *optional_arg(const tc_opcall *c, int i) { return tc_arg_none(c, i) ? NULL : tc_arg_tensor(c, i); }

static void shape_text(const tc_tensor *t, char *buf, size_t len) { tc_shape_format(t->ndim, t->sizes, buf, len); }

/* ---- l1_loss(self, target, reduction) = reduce(|self - target|) ---- */

int tc_impl_l1_loss(tc_opcall *c) {
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *d = NN_KEEP(&k, tc_abs(SUB(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1))));
    return nn_temps_return(&k, c, reduce(&k, d, tc_arg_int(c, 2)));
}

/* ---- nll_loss ---- */

/* nll_loss(self, target, weight, reduction, ignore_index): nll_loss_forward's output */
int tc_impl_nll_loss(tc_opcall *c) {
    tc_tensor *out = NULL, *total = NULL;
    if (tc_nll_loss_forward(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), optional_arg(c, 2), tc_arg_int(c, 3),
                            tc_arg_int(c, 4), &out, &total))
        return TC_FAIL;
    tc_tensor_release(total);
    return tc_return(c, out);
}

int tc_impl_nll_loss2d(tc_opcall *c) {
    tc_tensor *out = NULL, *total = NULL;
    if (tc_nll_loss2d_forward(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), optional_arg(c, 2), tc_arg_int(c, 3),
                              tc_arg_int(c, 4), &out, &total))
        return TC_FAIL;
    tc_tensor_release(total);
    return tc_return(c, out);
}

/* nll_loss_nd(self, target, weight, reduction, ignore_index): 1-D and 2-D inputs go to nll_loss,
 * 4-D ones to nll_loss2d, and any other [N, C, d1, ...] is viewed as [N, C, 1, d1 * ...]. */
static tc_tensor *nll_nd(nn_temps *kp, tc_tensor *self, tc_tensor *target, tc_tensor *weight, int64_t reduction,
                         int64_t ignore_index) {
    nn_temps k = *kp;
    tc_tensor *r = NULL;
    if (self->ndim < 1) {
        tc_set_error(TC_ERR_VALUE, "Expected 1 or more dimensions (got %d)", self->ndim);
        r = nn_fail(&k);
    } else if (self->ndim != 1 && (target->ndim < 1 || self->sizes[0] != target->sizes[0])) {
        tc_set_error(TC_ERR_VALUE, "Expected input batch_size (%lld) to match target batch_size (%lld).",
                     (long long)self->sizes[0], (long long)(target->ndim ? target->sizes[0] : 1));
        r = nn_fail(&k);
    } else if (self->ndim <= 2) {
        r = NN_KEEP(&k, tc_nll_loss(self, target, weight, reduction, ignore_index));
    } else if (self->ndim == 4) {
        r = NN_KEEP(&k, tc_nll_loss2d(self, target, weight, reduction, ignore_index));
    } else {
        int64_t n = self->sizes[0], cl = self->sizes[1], out_size[TC_MAX_DIMS];
        out_size[0] = n;
        for (int32_t d = 2; d < self->ndim; d++) out_size[d - 1] = self->sizes[d];
        if (!tc_shape_equal(target->ndim - 1, target->sizes + 1, self->ndim - 2, self->sizes + 2)) {
            char want[256], got[256];
            tc_shape_format(self->ndim - 1, out_size, want, sizeof want);
            shape_text(target, got, sizeof got);
            tc_set_error(TC_ERR_RUNTIME, "Expected target size %s, got %s", want, got);
            r = nn_fail(&k);
        } else {
            bool empty_in = tc_tensor_numel(self) == 0, empty_t = tc_tensor_numel(target) == 0;
            tc_tensor *x = NN_KEEP(&k, tc_contiguous(self, 1)), *t = NN_KEEP(&k, tc_contiguous(target, 1));
            x = NN_KEEP(&k, tc_view_default(x, empty_in ? TC_INTS(n, cl, 0, 0) : TC_INTS(n, cl, 1, -1)));
            t = NN_KEEP(&k, tc_view_default(t, empty_t ? TC_INTS(n, 0, 0) : TC_INTS(n, 1, -1)));
            r = NN_KEEP(&k, tc_nll_loss2d(x, t, weight, reduction, ignore_index));
            if (reduction == REDUCE_NONE) r = NN_KEEP(&k, tc_view_default(r, (tc_int_list){out_size, self->ndim - 1}));
        }
    }
    *kp = k;
    return r;
}

int tc_impl_nll_loss_nd(tc_opcall *c) {
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *r = nll_nd(&k, tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), optional_arg(c, 2), tc_arg_int(c, 3),
                          tc_arg_int(c, 4));
    return nn_temps_return(&k, c, r);
}

/* ---- cross_entropy_loss(self, target, weight, reduction, ignore_index, label_smoothing) ---- */

/* weight as [1, C, 1, ...] against an input of ndim dims with classes along dim 1 ([C] for 1-D). */
static tc_tensor *class_weight_view(nn_temps *kp, tc_tensor *weight, int32_t ndim) {
    nn_temps k = *kp;
    int64_t shape[TC_MAX_DIMS];
    for (int32_t d = 0; d < ndim; d++) shape[d] = 1;
    if (ndim > 1) shape[1] = tc_tensor_numel(weight);
    tc_tensor *r = ndim > 1 ? NN_KEEP(&k, tc_view_default(weight, (tc_int_list){shape, ndim})) : weight;
    *kp = k;
    return r;
}

/* Class probabilities as targets: -sum(log_softmax(self) * target * weight) over the classes. */
static tc_tensor *ce_probabilities(nn_temps *kp, tc_tensor *self, tc_tensor *target, tc_tensor *weight,
                                   int64_t reduction, double smoothing) {
    nn_temps k = *kp;
    const int64_t dim = self->ndim == 1 ? 0 : 1, classes = self->ndim ? self->sizes[dim] : 1;
    tc_tensor *r = NULL;
    if (weight && (weight->ndim != 1 || tc_tensor_numel(weight) != classes)) {
        char w[256];
        shape_text(weight, w, sizeof w);
        tc_set_error(TC_ERR_RUNTIME, "cross_entropy: weight tensor should be defined either for all %lld classes or no "
                                     "classes but got weight tensor of shape: %s", (long long)classes, w);
        r = nn_fail(&k);
    } else {
        tc_tensor *input = NN_KEEP(&k, tc_log_softmax_int(self, dim, self->dtype));
        tc_tensor *t = target;
        if (smoothing > 0) t = ADD(MUL(target, NUM(1 - smoothing)), NUM(smoothing / (double)classes));
        tc_tensor *prod = MUL(input, t);
        if (weight) prod = MUL(prod, class_weight_view(&k, weight, self->ndim));
        if (reduction == REDUCE_NONE) {
            r = NN_KEEP(&k, tc_neg(NN_KEEP(&k, tc_sum_dim_IntList(prod, &TC_INTS(dim), false, -1))));
        } else {
            r = NN_KEEP(&k, tc_neg(NN_KEEP(&k, tc_sum(prod, -1))));
            if (reduction == REDUCE_MEAN) {
                int64_t n = tc_tensor_numel(input);
                r = n == 0 ? NN_KEEP(&k, tc_fill__Scalar(r, TC_SCALAR_OF_FLOAT(NAN))) : DIV(r, NUM((double)(n / classes)));
            }
        }
    }
    *kp = k;
    return r;
}

/* Class indices with label smoothing: (1 - s) nll + s / C * (the loss against uniform targets). */
static tc_tensor *ce_smoothing(nn_temps *kp, tc_tensor *self, tc_tensor *target, tc_tensor *weight,
                               int64_t reduction, int64_t ignore_index, double smoothing) {
    nn_temps k = *kp;
    const int64_t dim = self->ndim == 1 ? 0 : 1, classes = self->ndim ? self->sizes[dim] : 1;
    tc_tensor *input = NN_KEEP(&k, tc_log_softmax_int(self, dim, self->dtype));
    tc_tensor *nll = k.failed ? NULL : nll_nd(&k, input, target, weight, reduction, ignore_index);
    tc_tensor *x = weight ? MUL(input, class_weight_view(&k, weight, self->ndim)) : input;
    tc_tensor *smooth = NN_KEEP(&k, tc_neg(NN_KEEP(&k, tc_sum_dim_IntList(x, &TC_INTS(dim), false, -1))));
    tc_tensor *kept = NN_KEEP(&k, tc_ne_Tensor(target, INT(ignore_index))); /* the samples not ignored */
    smooth = MUL(smooth, kept);
    tc_tensor *ret = smooth;
    if (reduction == REDUCE_SUM) {
        ret = NN_KEEP(&k, tc_sum(smooth, -1));
    } else if (reduction == REDUCE_MEAN) {
        /* the weights of the samples not ignored, as nll_loss sums them: nll of -1 everywhere */
        tc_tensor *minus_one = NN_KEEP(&k, tc_full_like(input, TC_SCALAR_OF_INT(-1), -1, -1, NULL, NULL, -1));
        tc_tensor *total = k.failed ? NULL : nll_nd(&k, minus_one, target, weight, REDUCE_SUM, ignore_index);
        ret = DIV(NN_KEEP(&k, tc_sum(smooth, -1)), total);
    }
    tc_tensor *r = ADD(MUL(nll, NUM(1 - smoothing)), MUL(ret, NUM(smoothing / (double)classes)));
    *kp = k;
    return r;
}

int tc_impl_cross_entropy_loss(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0), *target = tc_arg_tensor(c, 1), *weight = optional_arg(c, 2);
    int64_t reduction = tc_arg_int(c, 3), ignore_index = tc_arg_int(c, 4);
    double smoothing = c->args[5].v.f;
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *r;
    if (tc_shape_equal(self->ndim, self->sizes, target->ndim, target->sizes)) {
        if (!tc_dtype_is_floating(target->dtype)) {
            tc_set_error(TC_ERR_RUNTIME, "Expected floating point type for target with class probabilities, got %s",
                         tc_dtype_scalar_name(target->dtype));
            r = nn_fail(&k);
        } else if (ignore_index >= 0) {
            tc_set_error(TC_ERR_RUNTIME, "ignore_index is not supported for floating point target");
            r = nn_fail(&k);
        } else if (smoothing > 1.0) {
            tc_set_error(TC_ERR_RUNTIME, "label_smoothing must be between 0.0 and 1.0. Got: %g", smoothing);
            r = nn_fail(&k);
        } else {
            r = ce_probabilities(&k, self, target, weight, reduction, smoothing);
        }
    } else if (smoothing > 0.0) {
        if (smoothing > 1.0) {
            tc_set_error(TC_ERR_RUNTIME, "label_smoothing must be between 0.0 and 1.0. Got: %g", smoothing);
            r = nn_fail(&k);
        } else {
            r = ce_smoothing(&k, self, target, weight, reduction, ignore_index, smoothing);
        }
    } else {
        int64_t dim = self->ndim == 1 ? 0 : 1;
        tc_tensor *input = NN_KEEP(&k, tc_log_softmax_int(self, dim, self->dtype));
        r = k.failed ? NULL : nll_nd(&k, input, target, weight, reduction, ignore_index);
    }
    return nn_temps_return(&k, c, r);
}

/* ---- binary cross entropy: backward pieces ---- */

/* binary_cross_entropy_backward(grad_output, self, target, weight, reduction):
 * grad (x - y) / max((1 - x) x, 1e-12), times the weight, over numel for the mean. */
int tc_impl_binary_cross_entropy_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *y = tc_arg_tensor(c, 2), *w = optional_arg(c, 3);
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *denom = NN_KEEP(&k, tc_maximum(MUL(SUB(INT(1), x), x), NUM(1e-12)));
    tc_tensor *r = DIV(MUL(g, SUB(x, y)), denom);
    if (w) r = MUL(r, w);
    if (tc_arg_int(c, 4) == REDUCE_MEAN) r = DIV(r, NUM((double)tc_tensor_numel(x)));
    return nn_temps_return(&k, c, r);
}

/* The derivative with respect to the target: grad (log(1 - x) - log(x)) w (/ numel). */
int tc_impl__binary_cross_entropy_target_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *y = tc_arg_tensor(c, 2), *w = optional_arg(c, 3);
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *r = SUB(NN_KEEP(&k, tc_log(SUB(INT(1), x))), NN_KEEP(&k, tc_log(x)));
    r = MUL(r, g);
    if (w) r = MUL(r, w);
    if (tc_arg_int(c, 4) == REDUCE_MEAN) r = DIV(r, NUM((double)tc_tensor_numel(y)));
    return nn_temps_return(&k, c, r);
}

/* binary_cross_entropy_with_logits(self, target, weight, pos_weight, reduction), in the
 * overflow-free form PyTorch uses: with m = max(-x, 0),
 *   (1 - y) x + lw (log(exp(-m) + exp(-x - m)) + m),  lw = 1 + (pos_weight - 1) y (1 without). */
int tc_impl_binary_cross_entropy_with_logits(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0), *y = tc_arg_tensor(c, 1), *w = optional_arg(c, 2), *pw = optional_arg(c, 3);
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *negx = NN_KEEP(&k, tc_neg(x));
    /* PyTorch computes in place into (1 - y) and into m: an integer target or input refuses the
     * floating result, with the in-place op's error */
    if (negx && ((tc_dtype_is_integral(y->dtype) && tc_check_can_cast(tc_promote_types(y->dtype, x->dtype), y->dtype)) ||
                 (tc_dtype_is_integral(x->dtype) && tc_check_can_cast(tc_default_dtype(), x->dtype))))
        return nn_temps_return(&k, c, NULL);
    tc_tensor *m = NN_KEEP(&k, tc_relu(negx));
    tc_tensor *negm = NN_KEEP(&k, tc_neg(m));
    tc_tensor *lse = NN_KEEP(&k, tc_log(ADD(NN_KEEP(&k, tc_exp(negm)), NN_KEEP(&k, tc_exp(SUB(negx, m))))));
    tc_tensor *first = MUL(SUB(INT(1), y), x), *loss;
    if (pw) {
        tc_tensor *lw = ADD(MUL(SUB(pw, INT(1)), y), INT(1));
        loss = ADD(first, MUL(lw, ADD(lse, m)));
    } else {
        loss = ADD(ADD(first, m), lse);
    }
    if (w) loss = MUL(loss, w);
    return nn_temps_return(&k, c, reduce(&k, loss, tc_arg_int(c, 4)));
}

/* d/dself: (sigmoid(x) - y) g, or with pos_weight ((pw y + 1 - y) sigmoid(x) - pw y) g; times the
 * weight, over numel for the mean. */
int tc_impl_binary_cross_entropy_with_logits_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *y = tc_arg_tensor(c, 2);
    tc_tensor *w = optional_arg(c, 3), *pw = optional_arg(c, 4);
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *s = NN_KEEP(&k, tc_sigmoid(x)), *r;
    if (pw) {
        tc_tensor *t = MUL(pw, y);
        r = MUL(SUB(MUL(SUB(ADD(t, INT(1)), y), s), t), g);
    } else {
        r = MUL(SUB(s, y), g);
    }
    if (w) r = MUL(r, w);
    if (tc_arg_int(c, 5) == REDUCE_MEAN) r = DIV(r, NUM((double)tc_tensor_numel(x)));
    return nn_temps_return(&k, c, r);
}

/* d/dtarget: -x g, or with pos_weight (log_sigmoid(-x) - log_sigmoid(x) pw) g; weight, mean. */
int tc_impl__binary_cross_entropy_with_logits_target_backward(tc_opcall *c) {
    tc_tensor *g = tc_arg_tensor(c, 0), *x = tc_arg_tensor(c, 1), *y = tc_arg_tensor(c, 2);
    tc_tensor *w = optional_arg(c, 3), *pw = optional_arg(c, 4);
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *r;
    if (pw) {
        tc_tensor *a = NN_KEEP(&k, tc_log_sigmoid(NN_KEEP(&k, tc_neg(x))));
        tc_tensor *b = NN_KEEP(&k, tc_log_sigmoid(x));
        r = MUL(SUB(a, MUL(b, pw)), g);
    } else {
        r = MUL(NN_KEEP(&k, tc_neg(x)), g);
    }
    if (w) r = MUL(r, w);
    if (tc_arg_int(c, 5) == REDUCE_MEAN) r = DIV(r, NUM((double)tc_tensor_numel(y)));
    return nn_temps_return(&k, c, r);
}

/* ---- kl_div(self, target, reduction, *, log_target) ---- */

int tc_impl_kl_div(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0), *t = tc_arg_tensor(c, 1);
    if (!tc_dtype_is_floating(x->dtype) || !tc_dtype_is_floating(t->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "kl_div: Integral inputs not supported.");
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *out;
    if (tc_arg_bool(c, 3)) {
        out = MUL(NN_KEEP(&k, tc_exp(t)), SUB(t, x));
    } else { /* xlogy(t, t): 0 where t is 0 */
        tc_tensor *zero = NN_KEEP(&k, tc_eq_Tensor(t, INT(0)));
        tc_tensor *xlogy = MUL(t, NN_KEEP(&k, tc_log(ADD(t, zero))));
        out = SUB(xlogy, MUL(t, x));
    }
    return nn_temps_return(&k, c, reduce(&k, out, tc_arg_int(c, 2)));
}

/* ---- margin and embedding losses ---- */

/* margin_ranking_loss(input1, input2, target, margin, reduction) = reduce(max(0, -y (x1 - x2) + margin)) */
int tc_impl_margin_ranking_loss(tc_opcall *c) {
    tc_tensor *x1 = tc_arg_tensor(c, 0), *x2 = tc_arg_tensor(c, 1), *y = tc_arg_tensor(c, 2);
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *u = ADD(MUL(NN_KEEP(&k, tc_neg(y)), SUB(x1, x2)), NUM(c->args[3].v.f));
    return nn_temps_return(&k, c, reduce(&k, NN_KEEP(&k, tc_relu(u)), tc_arg_int(c, 4)));
}

/* hinge_embedding_loss(self, target, margin, reduction):
 * max(0, margin - x) where target != 1, plus x where target != -1. */
int tc_impl_hinge_embedding_loss(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0), *y = tc_arg_tensor(c, 1);
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *margin = NN_KEEP(&k, tc_relu(SUB(NUM(c->args[2].v.f), x)));
    tc_tensor *out = ADD(MUL(margin, NN_KEEP(&k, tc_ne_Tensor(y, INT(1)))),
                         MUL(x, NN_KEEP(&k, tc_ne_Tensor(y, INT(-1)))));
    return nn_temps_return(&k, c, reduce(&k, out, tc_arg_int(c, 3)));
}

/* cosine_embedding_loss(input1, input2, target, margin, reduction): with cos the cosine of the
 * rows, 1 - cos where target == 1 and max(0, cos - margin) where target == -1. */
int tc_impl_cosine_embedding_loss(tc_opcall *c) {
    tc_tensor *x1 = tc_arg_tensor(c, 0), *x2 = tc_arg_tensor(c, 1), *y = tc_arg_tensor(c, 2);
    const int32_t dim = y->ndim;
    if (dim > 1) return tc_set_error(TC_ERR_RUNTIME, "0D or 1D target tensor expected, multi-target not supported");
    if (x1->ndim != dim + 1 || x2->ndim != dim + 1) {
        char a[256], b[256];
        shape_text(x1, a, sizeof a);
        shape_text(x2, b, sizeof b);
        return tc_set_error(TC_ERR_RUNTIME, "%s target tensor expects %s input tensors, but found inputs with sizes %s "
                                            "and %s.", dim ? "1D" : "0D", dim ? "2D" : "1D", a, b);
    }
    nn_temps k = NN_TEMPS_INIT;
    const tc_int_list along = TC_INTS(dim);
    tc_tensor *prod = NN_KEEP(&k, tc_sum_dim_IntList(MUL(x1, x2), &along, false, -1));
    tc_tensor *m1 = ADD(NN_KEEP(&k, tc_sum_dim_IntList(MUL(x1, x1), &along, false, -1)), NUM(1e-12));
    tc_tensor *m2 = ADD(NN_KEEP(&k, tc_sum_dim_IntList(MUL(x2, x2), &along, false, -1)), NUM(1e-12));
    tc_tensor *cos = DIV(prod, NN_KEEP(&k, tc_sqrt(MUL(m1, m2))));
    tc_tensor *pos = SUB(INT(1), cos);
    tc_tensor *neg = NN_KEEP(&k, tc_relu(SUB(cos, NUM(c->args[3].v.f))));
    tc_tensor *out = ADD(MUL(pos, NN_KEEP(&k, tc_eq_Tensor(y, INT(1)))), MUL(neg, NN_KEEP(&k, tc_eq_Tensor(y, INT(-1)))));
    return nn_temps_return(&k, c, reduce(&k, out, tc_arg_int(c, 4)));
}

/* The p-norm of t along dim: sum(|t|^p)^(1/p), with the max (p = inf), min (-inf), count of
 * nonzeros (0), sum of |t| (1) and sqrt of the sum of squares (2) as PyTorch's norm computes them. */
static tc_tensor *norm_along(nn_temps *kp, tc_tensor *t, double p, int64_t dim, bool keepdim) {
    nn_temps k = *kp;
    const tc_int_list along = TC_INTS(dim);
    tc_tensor *a = NN_KEEP(&k, tc_abs(t)), *r = NULL;
    if (isinf(p)) {
        tc_tensor *values = NULL, *indices = NULL;
        if (!k.failed && (p > 0 ? tc_max_dim : tc_min_dim)(a, dim, keepdim, &values, &indices) == TC_OK) {
            tc_tensor_release(indices);
            r = NN_KEEP(&k, values);
        } else {
            r = nn_fail(&k);
        }
    } else if (p == 0) {
        tc_tensor *nz = NN_KEEP(&k, tc_ne_Tensor(a, INT(0)));
        r = NN_KEEP(&k, tc_sum_dim_IntList(nz, &along, keepdim, t->dtype));
    } else if (p == 1) {
        r = NN_KEEP(&k, tc_sum_dim_IntList(a, &along, keepdim, -1));
    } else if (p == 2) {
        r = NN_KEEP(&k, tc_sqrt(NN_KEEP(&k, tc_sum_dim_IntList(MUL(a, a), &along, keepdim, -1))));
    } else {
        tc_tensor *s = NN_KEEP(&k, tc_sum_dim_IntList(NN_KEEP(&k, tc_pow_Tensor_Tensor(a, NUM(p))), &along, keepdim, -1));
        r = NN_KEEP(&k, tc_pow_Tensor_Tensor(s, NUM(1.0 / p)));
    }
    *kp = k;
    return r;
}

/* pairwise_distance(x1, x2, p, eps, keepdim) = norm(x1 - x2 + eps, p) along the last dim */
static tc_tensor *pairwise(nn_temps *kp, tc_tensor *x1, tc_tensor *x2, double p, double eps, bool keepdim) {
    nn_temps k = *kp;
    int32_t ndim = x1->ndim > x2->ndim ? x1->ndim : x2->ndim;
    tc_tensor *d = ADD(SUB(x1, x2), NUM(eps));
    tc_tensor *r = k.failed ? NULL : norm_along(&k, d, p, ndim - 1, keepdim);
    *kp = k;
    return r;
}

int tc_impl_pairwise_distance(tc_opcall *c) {
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *r = pairwise(&k, tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), c->args[2].v.f, c->args[3].v.f,
                            tc_arg_bool(c, 4));
    return nn_temps_return(&k, c, r);
}

/* triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction) */
int tc_impl_triplet_margin_loss(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *pos = tc_arg_tensor(c, 1), *neg = tc_arg_tensor(c, 2);
    if (a->ndim != pos->ndim || pos->ndim != neg->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "All inputs should have same dimension but got %dD, %dD and %dD inputs.",
                            a->ndim, pos->ndim, neg->ndim);
    double p = c->args[4].v.f, eps = c->args[5].v.f;
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *dp = pairwise(&k, a, pos, p, eps, false);
    tc_tensor *dn = k.failed ? NULL : pairwise(&k, a, neg, p, eps, false);
    if (tc_arg_bool(c, 6)) {
        tc_tensor *ds = k.failed ? NULL : pairwise(&k, pos, neg, p, eps, false);
        dn = NN_KEEP(&k, tc_minimum(dn, ds));
    }
    tc_tensor *out = NN_KEEP(&k, tc_relu(SUB(ADD(dp, NUM(c->args[3].v.f)), dn)));
    return nn_temps_return(&k, c, reduce(&k, out, tc_arg_int(c, 7)));
}

/* poisson_nll_loss(input, target, log_input, full, eps, reduction): exp(x) - y x, or
 * x - y log(x + eps); with `full` the Stirling term y log y - y + log(2 pi y) / 2 where y > 1
 * (computed on max(y, 1), which is y there, so that y <= 1 contributes an exact 0). */
int tc_impl_poisson_nll_loss(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0), *y = tc_arg_tensor(c, 1);
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *loss;
    if (tc_arg_bool(c, 2)) loss = SUB(NN_KEEP(&k, tc_exp(x)), MUL(y, x));
    else loss = SUB(x, MUL(y, NN_KEEP(&k, tc_log(ADD(x, NUM(c->args[4].v.f))))));
    if (tc_arg_bool(c, 3)) {
        tc_tensor *ys = NN_KEEP(&k, tc_maximum(y, NUM(1)));
        tc_tensor *st = ADD(SUB(MUL(ys, NN_KEEP(&k, tc_log(ys))), ys),
                            MUL(NUM(0.5), NN_KEEP(&k, tc_log(MUL(NUM(2 * M_PI), ys)))));
        loss = ADD(loss, MUL(st, NN_KEEP(&k, tc_gt_Tensor(y, INT(1)))));
    }
    return nn_temps_return(&k, c, reduce(&k, loss, tc_arg_int(c, 5)));
}

/* ---- CTC ---- */

/* ctc_loss.IntList(log_probs, targets, input_lengths, target_lengths, blank, reduction,
 * zero_infinity): _ctc_loss's negative log likelihoods (targets as int64; an unbatched [T, C]
 * input as a batch of one), infinite ones zeroed with zero_infinity, then the mean of the losses
 * over the target lengths (at least 1), their sum, or themselves. */
int tc_impl_ctc_loss_IntList(tc_opcall *c) {
    tc_tensor *lp = tc_arg_tensor(c, 0), *targets = tc_arg_tensor(c, 1);
    tc_int_list in_len = tc_arg_ints(c, 2), tg_len = tc_arg_ints(c, 3);
    int64_t blank = tc_arg_int(c, 4), reduction = tc_arg_int(c, 5);
    bool zero_infinity = tc_arg_bool(c, 6), batched = lp->ndim == 3;
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *x = batched ? lp : NN_KEEP(&k, tc_unsqueeze(lp, 1));
    tc_tensor *t = NN_KEEP(&k, tc_to_dtype(targets, TC_INT64, false, false, -1));
    tc_tensor *res = NULL, *alpha = NULL;
    if (!k.failed && tc__ctc_loss(x, t, in_len, tg_len, blank, zero_infinity, &res, &alpha) == TC_OK) {
        NN_KEEP(&k, res);
        NN_KEEP(&k, alpha);
    } else {
        res = nn_fail(&k);
    }
    if (zero_infinity) { /* where(res == inf, 0, res): the finite losses kept, the infinite ones 0 */
        tc_tensor *finite = NN_KEEP(&k, tc_ne_Tensor(res, NUM(INFINITY)));
        res = MUL(NN_KEEP(&k, tc_minimum(res, NUM(3.0e38))), finite);
    }
    tc_tensor *r = res;
    if (reduction == REDUCE_MEAN) {
        tc_tensor *lengths = NN_KEEP(&k, tc_empty(1, &tg_len.len, k.failed ? TC_FLOAT32 : res->dtype,
                                                  (tc_device){TC_DEVICE_CPU, 0}));
        for (int64_t b = 0; lengths && b < tg_len.len; b++) {
            double v = (double)(tg_len.items[b] > 1 ? tg_len.items[b] : 1);
            tc_scalar_store(TC_SCALAR_OF_FLOAT(v), lengths->dtype, (char *)tc_tensor_data(lengths) + (size_t)b * tc_dtype_size(lengths->dtype));
        }
        if (!k.failed && res->device.type != TC_DEVICE_CPU)
            lengths = NN_KEEP(&k, tc_to_device(lengths, res->device, -1, false, false, -1));
        r = NN_KEEP(&k, tc_mean(DIV(res, lengths), -1));
    } else if (reduction == REDUCE_SUM) {
        r = NN_KEEP(&k, tc_sum(res, -1));
    } else if (!batched) {
        r = NN_KEEP(&k, tc_squeeze_dim(res, 0));
    }
    return nn_temps_return(&k, c, r);
}

/* The values of an integral 1-D tensor of lengths, malloc'ed (NULL with the error set). */
static int64_t *lengths_of(const tc_tensor *t, const char *what) {
    if (!tc_dtype_is_integral(t->dtype)) {
        tc_set_error(TC_ERR_RUNTIME, "%s must be integral", what);
        return NULL;
    }
    int64_t n = tc_tensor_numel(t);
    int64_t *v = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (!v) {
        tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    for (int64_t i = 0; i < n; i++) {
        tc_scalar s;
        if (tc_tensor_get(t, i, &s)) {
            free(v);
            return NULL;
        }
        v[i] = s.v.i;
    }
    return v;
}

/* The .Tensor overloads read the lengths out of tensors and run the int[] ones. */
static int ctc_lengths(tc_opcall *c, int64_t **in_len, int64_t **tg_len) {
    *in_len = lengths_of(tc_arg_tensor(c, 2), "input_lengths");
    *tg_len = *in_len ? lengths_of(tc_arg_tensor(c, 3), "target_lengths") : NULL;
    if (*tg_len) return TC_OK;
    free(*in_len);
    return TC_FAIL;
}

int tc_impl_ctc_loss_Tensor(tc_opcall *c) {
    int64_t *il, *tl;
    if (ctc_lengths(c, &il, &tl)) return TC_FAIL;
    tc_tensor *r = tc_ctc_loss_IntList(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1),
                                       (tc_int_list){il, tc_tensor_numel(tc_arg_tensor(c, 2))},
                                       (tc_int_list){tl, tc_tensor_numel(tc_arg_tensor(c, 3))}, tc_arg_int(c, 4),
                                       tc_arg_int(c, 5), tc_arg_bool(c, 6));
    free(il);
    free(tl);
    return tc_return(c, r);
}

int tc_impl__ctc_loss_Tensor(tc_opcall *c) {
    int64_t *il, *tl;
    if (ctc_lengths(c, &il, &tl)) return TC_FAIL;
    tc_tensor *nll = NULL, *alpha = NULL;
    int rc = tc__ctc_loss(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), (tc_int_list){il, tc_tensor_numel(tc_arg_tensor(c, 2))},
                          (tc_int_list){tl, tc_tensor_numel(tc_arg_tensor(c, 3))}, tc_arg_int(c, 4), tc_arg_bool(c, 5),
                          &nll, &alpha);
    free(il);
    free(tl);
    if (rc) return TC_FAIL;
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = nll};
    c->outs[1] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = alpha};
    return TC_OK;
}
