/*
 * Activations that are other ops (relu6, selu, rrelu, log_sigmoid), and the pieces of their
 * backward that are compositions: prelu_backward, rrelu_with_noise_backward and the second
 * derivatives double backward needs. Being compositions of differentiable ops, these are
 * differentiable to any order through their parts.
 */
#include "core_internal.h"
#include "nn_temps.h"

#include <math.h>
#include <string.h>

#define ONE TC_SCALAR_OF_INT(1)
/* arithmetic on temporaries of a chain `k` (nn_temps.h) */
#define NUM(v) NN_KEEP(&k, nn_number(v))
#define MUL(a, b) NN_KEEP(&k, tc_mul_Tensor((a), (b)))
#define ADD(a, b) NN_KEEP(&k, tc_add_Tensor((a), (b), ONE))
#define SUB(a, b) NN_KEEP(&k, tc_sub_Tensor((a), (b), ONE))

/* relu6(self) = hardtanh(self, 0, 6) */
int tc_impl_relu6(tc_opcall *c) {
    return tc_return(c, tc_hardtanh(tc_arg_tensor(c, 0), TC_SCALAR_OF_INT(0), TC_SCALAR_OF_INT(6)));
}

/* In-place forms run the in-place op they stand for, so autograd records that op's own in-place
 * step (a functional result copied back would have saved the input it overwrites). */
int tc_impl_relu6_(tc_opcall *c) {
    return tc_return(c, tc_hardtanh_(tc_arg_tensor(c, 0), TC_SCALAR_OF_INT(0), TC_SCALAR_OF_INT(6)));
}

/* selu(self) = elu(self, alpha, scale) with SELU's constants */
#define SELU_ALPHA TC_SCALAR_OF_FLOAT(1.6732632423543772848170429916717)
#define SELU_SCALE TC_SCALAR_OF_FLOAT(1.0507009873554804934193349852946)
int tc_impl_selu(tc_opcall *c) { return tc_return(c, tc_elu(tc_arg_tensor(c, 0), SELU_ALPHA, SELU_SCALE, ONE)); }
int tc_impl_selu_(tc_opcall *c) { return tc_return(c, tc_elu_(tc_arg_tensor(c, 0), SELU_ALPHA, SELU_SCALE, ONE)); }

/* log_sigmoid(self): the output of log_sigmoid_forward (which also returns the buffer backward
 * reads). */
int tc_impl_log_sigmoid(tc_opcall *c) {
    tc_tensor *out = NULL, *buffer = NULL;
    if (tc_log_sigmoid_forward(tc_arg_tensor(c, 0), &out, &buffer)) return TC_FAIL;
    tc_tensor_release(buffer);
    return tc_return(c, out);
}

static double scalar_value(tc_scalar s) { return s.kind == TC_SCALAR_FLOAT ? s.v.f : (double)s.v.i; }

/* rrelu(self, lower, upper, training, generator) = rrelu_with_noise(self, empty_like(self), ...) */
int tc_impl_rrelu(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_tensor *noise = tc_empty_like(self, -1, -1, NULL, NULL, -1);
    if (!noise) return TC_FAIL;
    tc_tensor *r = tc_rrelu_with_noise(self, noise, c->args[1].v.scalar, c->args[2].v.scalar, tc_arg_bool(c, 3),
                                       tc_arg_none(c, 4) ? NULL : c->args[4].v.generator);
    tc_tensor_release(noise);
    return tc_return(c, r);
}

int tc_impl_rrelu_(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_tensor *noise = tc_empty_like(self, -1, -1, NULL, NULL, -1);
    if (!noise) return TC_FAIL;
    tc_tensor *r = tc_rrelu_with_noise_(self, noise, c->args[1].v.scalar, c->args[2].v.scalar, tc_arg_bool(c, 3),
                                        tc_arg_none(c, 4) ? NULL : c->args[4].v.generator);
    tc_tensor_release(noise);
    return tc_return(c, r);
}

/* In evaluation rrelu is leaky_relu with the mean of the bounds as its slope. Training samples a
 * slope per negative element, which needs the random numbers family's uniform_. */
static int rrelu_eval(tc_opcall *c, tc_tensor *(*leaky)(tc_tensor *, tc_scalar)) {
    double lower = scalar_value(c->args[2].v.scalar), upper = scalar_value(c->args[3].v.scalar);
    if (tc_arg_bool(c, 4))
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "rrelu in training mode samples random slopes, which needs "
                                                    "the random numbers ops (uniform_); use training=False");
    return tc_return(c, leaky(tc_arg_tensor(c, 0), TC_SCALAR_OF_FLOAT((lower + upper) / 2)));
}

int tc_impl_rrelu_with_noise(tc_opcall *c) { return rrelu_eval(c, tc_leaky_relu); }
int tc_impl_rrelu_with_noise_(tc_opcall *c) { return rrelu_eval(c, tc_leaky_relu_); }

/* rrelu_with_noise_backward(grad_output, self, noise, lower, upper, training, self_is_result) */
int tc_impl_rrelu_with_noise_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *self = tc_arg_tensor(c, 1), *noise = tc_arg_tensor(c, 2);
    double lower = scalar_value(c->args[3].v.scalar), upper = scalar_value(c->args[4].v.scalar);
    if (tc_arg_bool(c, 5) && upper - lower > 1e-6) return tc_return(c, tc_mul_Tensor(grad, noise));
    return tc_return(c, tc_leaky_relu_backward(grad, self, TC_SCALAR_OF_FLOAT((lower + upper) / 2), tc_arg_bool(c, 6)));
}

/* prelu_backward(grad_output, self, weight) -> (grad_self, grad_weight):
 *   grad_self = self > 0 ? grad : weight * grad,
 *   grad_weight = the sum of (self > 0 ? 0 : self * grad) over every dim but the channel dim. */
int tc_impl_prelu_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *self = tc_arg_tensor(c, 1), *weight = tc_arg_tensor(c, 2);
    nn_temps k = NN_TEMPS_INIT;
    bool per_channel = tc_tensor_numel(weight) != 1 && self->ndim > 1;
    int64_t shape[TC_MAX_DIMS];
    for (int32_t d = 0; d < self->ndim; d++) shape[d] = d == 1 && per_channel ? self->sizes[1] : 1;
    tc_int_list wshape = per_channel ? (tc_int_list){shape, self->ndim} : TC_NO_INTS;
    tc_tensor *w = NN_KEEP(&k, tc_reshape(weight, wshape));
    tc_tensor *pos = NN_KEEP(&k, tc_gt_Tensor(self, NN_KEEP(&k, nn_int_number(0))));
    tc_tensor *posf = NN_KEEP(&k, tc__to_copy(pos, grad->dtype, -1, NULL, NULL, false, -1));
    tc_tensor *negf = NN_KEEP(&k, tc_sub_Tensor(NN_KEEP(&k, nn_int_number(1)), posf, ONE));
    /* grad * (pos + neg * w) */
    tc_tensor *slope = NN_KEEP(&k, tc_add_Tensor(posf, NN_KEEP(&k, tc_mul_Tensor(negf, w)), ONE));
    tc_tensor *gself = NN_KEEP(&k, tc_mul_Tensor(grad, slope));
    tc_tensor *gw_full = NN_KEEP(&k, tc_mul_Tensor(NN_KEEP(&k, tc_mul_Tensor(grad, self)), negf));
    tc_tensor *gw = NN_KEEP(&k, per_channel ? tc_sum_to_size(gw_full, wshape) : tc_sum(gw_full, -1));
    tc_tensor *gweight = NN_KEEP(&k, tc_reshape(gw, (tc_int_list){weight->sizes, weight->ndim}));
    if (k.failed) {
        nn_temps_free(&k);
        return TC_FAIL;
    }
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = nn_take(&k, gself)};
    c->outs[1] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = nn_take(&k, gweight)};
    nn_temps_free(&k);
    return TC_OK;
}

/* d^2/dx^2 gelu(x): exact, phi(x) (2 - x^2); with the tanh approximation f = x/2, t = tanh(inner),
 * g = 1 - t^2, h = inner' = beta (1 + 3 kappa x^2): g h - 2 f g t h^2 + f g h', h' = 6 kappa beta x. */
int tc_impl__gelu_second_derivative(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0);
    const char *approximate = c->args[1].v.s;
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *x2 = MUL(x, x), *r;
    if (strcmp(approximate, "tanh") == 0) {
        const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
        tc_tensor *inner = MUL(NUM(beta), ADD(x, MUL(NUM(kappa), MUL(x2, x))));
        tc_tensor *t = NN_KEEP(&k, tc_tanh(inner));
        tc_tensor *g = SUB(NUM(1), MUL(t, t));
        tc_tensor *h = MUL(NUM(beta), ADD(NUM(1), MUL(NUM(3 * kappa), x2)));
        tc_tensor *f = MUL(NUM(0.5), x);
        tc_tensor *gh = MUL(g, h);
        tc_tensor *term2 = MUL(MUL(NUM(2), MUL(f, gh)), MUL(t, h));
        tc_tensor *term3 = MUL(MUL(f, g), MUL(NUM(6 * kappa * beta), x));
        r = ADD(SUB(gh, term2), term3);
    } else if (strcmp(approximate, "none") == 0) {
        tc_tensor *pdf = MUL(NUM(M_2_SQRTPI * M_SQRT1_2 * 0.5), NN_KEEP(&k, tc_exp(MUL(NUM(-0.5), x2))));
        r = MUL(pdf, SUB(NUM(2), x2));
    } else {
        r = nn_fail(&k);
        tc_set_error(TC_ERR_RUNTIME, "approximate argument must be either none or tanh.");
    }
    return nn_temps_return(&k, c, r);
}

/* The derivative of glu_backward(grad_output, self, dim) with respect to self, given grad (shaped
 * like self): with a, b the halves of self, s = sigmoid(b), g = grad_output, G = (Ga, Gb):
 *   d/da = Gb g s (1 - s),   d/db = s (1 - s) g (Ga + Gb a (1 - 2 s)). */
int tc_impl__glu_double_backward(tc_opcall *c) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *g = tc_arg_tensor(c, 1), *self = tc_arg_tensor(c, 2);
    int32_t dim;
    if (self->ndim == 0) return tc_set_error(TC_ERR_RUNTIME, "glu does not support 0-dimensional tensors");
    if (tc_shape_wrap_dim(tc_arg_int(c, 3), self->ndim, &dim)) return TC_FAIL;
    const int64_t h = self->sizes[dim] / 2;
    tc_int_list sizes = {self->sizes, self->ndim};
    nn_temps k = NN_TEMPS_INIT;
#define HALF(t, first) NN_KEEP(&k, tc_slice_Tensor((t), dim, TC_SOME_INT((first) ? 0 : h), TC_SOME_INT((first) ? h : 2 * h), 1))
    tc_tensor *a = HALF(self, true), *b = HALF(self, false), *ga = HALF(grad, true), *gb = HALF(grad, false);
    tc_tensor *s = NN_KEEP(&k, tc_sigmoid(b));
    tc_tensor *sp = MUL(s, SUB(NUM(1), s));
    tc_tensor *da = MUL(MUL(gb, g), sp);
    tc_tensor *db = MUL(MUL(sp, g), ADD(ga, MUL(MUL(gb, a), SUB(NUM(1), MUL(NUM(2), s)))));
    tc_tensor *r = ADD(NN_KEEP(&k, tc_slice_backward(da, sizes, dim, 0, h, 1)),
                       NN_KEEP(&k, tc_slice_backward(db, sizes, dim, h, 2 * h, 1)));
    return nn_temps_return(&k, c, r);
#undef HALF
}
