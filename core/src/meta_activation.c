/*
 * Meta functions of the activations and their backward ops: checks, result sizes and dtypes, the
 * kernel's operands.
 *
 * Most activations are elementwise over every Tensor argument (broadcast together) and run on
 * bfloat16, float32 and float64 only; PyTorch's CPU kernels refuse other dtypes with
 * RuntimeError("<kernel>_cpu" not implemented for '<type>'), and so do these. threshold and
 * hardtanh also take integers; prelu broadcasts its weight along the channel dim; glu halves a dim.
 */
#include "core_internal.h"

#include <string.h>

/* The dtypes most activations run on. */
static bool activation_dtype(int32_t dtype) {
    return dtype == TC_BFLOAT16 || dtype == TC_FLOAT32 || dtype == TC_FLOAT64;
}

/* PyTorch's message for a dtype the op's CPU kernel was not built for. */
static int refuse_dtype(const tc_opcall *c, int32_t dtype) {
    const char *kernel = c->op->kernel >= 0 ? tc_kernel_name(c->op->kernel) : c->op->schema.name;
    return tc_set_error(TC_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'", kernel, tc_dtype_scalar_name(dtype));
}

/* The op's Tensor arguments in schema order (None skipped); how many. */
static int tensor_args(const tc_opcall *c, tc_tensor **ts, int cap) {
    int n = 0;
    for (int32_t i = 0; i < c->op->schema.n_args && n < cap; i++)
        if (c->args[i].tag == TC_VALUE_TENSOR && !(c->op->schema.args[i].flags & TC_ARG_KWONLY))
            ts[n++] = c->args[i].v.tensor;
    return n;
}

/* Every result has the broadcast shape of the operands and their promoted dtype; the kernel gets
 * the operands in that dtype at that shape. An out= tensor of an out_exact op (PyTorch's
 * build_unary_op: elu, gelu, hardtanh, ...) must have that dtype, with PyTorch's message. */
static int elementwise(tc_plan *p, tc_tensor *const *ts, int n, int32_t dtype) {
    const tc_opcall *c = p->call;
    const tc_tensor *out = tc_written_arg(c, 0);
    if (out && c->op->variant == TC_VARIANT_OUT && (c->op->schema.flags & TC_OPF_OUT_EXACT) && out->dtype != dtype)
        return tc_set_error(TC_ERR_RUNTIME, "Found dtype %s but expected %s", tc_dtype_scalar_name(out->dtype),
                            tc_dtype_scalar_name(dtype));
    int32_t ndim = ts[0]->ndim;
    int64_t shape[TC_MAX_DIMS];
    memcpy(shape, ts[0]->sizes, sizeof(int64_t) * (size_t)ndim);
    for (int i = 1; i < n; i++)
        if (tc_shape_broadcast(ndim, shape, ts[i]->ndim, ts[i]->sizes, &ndim, shape)) return TC_FAIL;
    for (int32_t r = 0; r < p->call->op->schema.n_returns; r++)
        if (tc_plan_output(p, r, ndim, shape, dtype)) return TC_FAIL;
    for (int i = 0; i < n; i++)
        if (tc_plan_input(p, ts[i], dtype)) return TC_FAIL;
    p->dtype = dtype;
    p->flags |= TC_PLAN_BROADCAST;
    return TC_OK;
}

/* Activations and their backward ops over floating dtypes (leaky_relu, elu, gelu_backward, ...). */
int tc_meta_activation(tc_opcall *c, tc_plan *p) {
    tc_tensor *ts[4];
    int n = tensor_args(c, ts, 4);
    int32_t dtype = tc_result_type(ts, n);
    if (!activation_dtype(dtype)) return refuse_dtype(c, dtype);
    return elementwise(p, ts, n, dtype);
}

/* mish: float32 and float64 only. */
int tc_meta_activation_f32(tc_opcall *c, tc_plan *p) {
    tc_tensor *ts[4];
    int n = tensor_args(c, ts, 4);
    int32_t dtype = tc_result_type(ts, n);
    if (dtype != TC_FLOAT32 && dtype != TC_FLOAT64) return refuse_dtype(c, dtype);
    return elementwise(p, ts, n, dtype);
}

/* The op's Scalar arguments must fit the tensor's dtype (PyTorch's checked Scalar::to<scalar_t>),
 * as c10 names the type it failed to convert to. */
static int scalars_fit(const tc_opcall *c, int32_t dtype) {
    static const char *const ctype[TC_NUM_DTYPES] = {"bool", "uint8_t", "int8_t", "int16_t", "int", "int64_t",
                                                     "c10::Half", "c10::BFloat16", "float", "double"};
    for (int32_t i = 1; i < c->op->schema.n_args; i++)
        if (c->args[i].tag == TC_VALUE_SCALAR && !tc_scalar_fits(c->args[i].v.scalar, dtype))
            return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow", ctype[dtype]);
    return TC_OK;
}

/* threshold(self, threshold, value): every numeric dtype but float16. */
int tc_meta_threshold(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (self->dtype == TC_BOOL || self->dtype == TC_FLOAT16) return refuse_dtype(c, self->dtype);
    if (scalars_fit(c, self->dtype)) return TC_FAIL;
    return elementwise(p, &self, 1, self->dtype);
}

/* hardtanh(self, min_val, max_val): clamp, integers included (PyTorch's checks first). */
int tc_meta_hardtanh(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (self->dtype == TC_BOOL) return tc_set_error(TC_ERR_RUNTIME, "Bool inputs not supported for hardtanh");
    const tc_scalar lo = c->args[1].v.scalar;
    bool negative = lo.kind == TC_SCALAR_FLOAT ? lo.v.f < 0 : lo.v.i < 0;
    if (self->dtype == TC_UINT8 && negative)
        return tc_set_error(TC_ERR_RUNTIME, "cannot do hardtanh on an unsigned type with negative lower bound.");
    if (self->dtype == TC_FLOAT16)
        return tc_set_error(TC_ERR_RUNTIME, "\"clamp_scalar_cpu\" not implemented for 'Half'");
    if (scalars_fit(c, self->dtype)) return TC_FAIL;
    return elementwise(p, &self, 1, self->dtype);
}

/* prelu(self, weight): weight holds one slope, or one per channel (dim 1), presented to the kernel
 * at self's sizes with zero strides elsewhere. */
int tc_meta_prelu(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0), *weight = tc_arg_tensor(c, 1);
    int64_t n = tc_tensor_numel(weight);
    /* PyTorch's bfloat16 kernel converts the weight; the others want the input's dtype */
    if (self->dtype != weight->dtype && self->dtype != TC_BFLOAT16)
        return tc_set_error(TC_ERR_RUNTIME, "Found dtype %s but expected %s", tc_dtype_scalar_name(weight->dtype),
                            tc_dtype_scalar_name(self->dtype));
    if (n != 1) {
        if (self->ndim == 0) return tc_set_error(TC_ERR_RUNTIME, "Not allow zero-dim input tensor.");
        int64_t channels = self->ndim > 1 ? self->sizes[1] : 1;
        if (channels != n)
            return tc_set_error(TC_ERR_RUNTIME, "Mismatch of parameter numbers and input channel size. Found parameter "
                                                "numbers = %lld and channel size = %lld.", (long long)n,
                                (long long)channels);
    }
    if (weight->ndim > 1)
        return tc_set_error(TC_ERR_RUNTIME, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = %d",
                            weight->ndim);
    if (!activation_dtype(self->dtype)) return refuse_dtype(c, self->dtype);
    if (tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype) || tc_plan_input(p, self, -1)) return TC_FAIL;
    int64_t strides[TC_MAX_DIMS] = {0};
    if (n != 1) strides[1] = weight->ndim ? weight->strides[0] : 0;
    tc_tensor *w = tc_tensor_restride(weight, self->ndim, self->sizes, strides, weight->offset);
    int rc = w ? tc_plan_input(p, w, self->dtype) : TC_FAIL;
    tc_tensor_release(w);
    p->dtype = self->dtype;
    return rc;
}

/* The dim glu halves, checked as PyTorch checks it. */
static int glu_dim(const tc_tensor *self, int64_t dim, const char *what, int32_t *d) {
    if (self->ndim == 0) return tc_set_error(TC_ERR_RUNTIME, "%s", what);
    if (tc_shape_wrap_dim(dim, self->ndim, d)) return TC_FAIL;
    if (self->sizes[*d] % 2)
        return tc_set_error(TC_ERR_RUNTIME, "Halving dimension must be even, but dimension %d is size %lld", *d,
                            (long long)self->sizes[*d]);
    return TC_OK;
}

/* self's first half along dim (the kernel finds the second half one half further on). */
static tc_tensor *first_half(tc_tensor *t, int32_t dim) {
    int64_t sizes[TC_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    sizes[dim] /= 2;
    return tc_tensor_restride(t, t->ndim, sizes, t->strides, t->offset);
}

/* glu(self, dim): the kernel gets self's first half and ints[0] = dim. */
int tc_meta_glu(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dim;
    if (glu_dim(self, tc_arg_int(c, 1), "glu does not support scalars because halving size must be even", &dim))
        return TC_FAIL;
    if (!activation_dtype(self->dtype)) return refuse_dtype(c, self->dtype);
    tc_tensor *half = first_half(self, dim);
    int rc = half ? tc_plan_output(p, 0, half->ndim, half->sizes, self->dtype) : TC_FAIL;
    if (rc == TC_OK) rc = tc_plan_input(p, half, -1);
    tc_tensor_release(half);
    p->dtype = self->dtype;
    return rc ? rc : tc_plan_int(p, dim);
}

/* glu_backward(grad_output, self, dim): grad_input like self; the kernel sees grad_input's and
 * self's first halves (at grad_output's sizes) and ints[0] = dim. */
int tc_meta_glu_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *self = tc_arg_tensor(c, 1);
    int32_t dim;
    if (glu_dim(self, tc_arg_int(c, 2), "glu does not support 0-dimensional tensors", &dim)) return TC_FAIL;
    if (!activation_dtype(self->dtype)) return refuse_dtype(c, self->dtype);
    tc_tensor *half = first_half(self, dim);
    if (!half) return TC_FAIL;
    if (!tc_shape_equal(grad->ndim, grad->sizes, half->ndim, half->sizes)) {
        tc_tensor_release(half);
        return tc_set_error(TC_ERR_RUNTIME, "glu_backward: grad_output must have half the size of self along dim %d",
                            dim);
    }
    int rc = tc_plan_output(p, 0, self->ndim, self->sizes, self->dtype);
    if (rc == TC_OK) rc = tc_plan_input(p, grad, self->dtype);
    if (rc == TC_OK) rc = tc_plan_input(p, half, -1);
    tc_tensor_release(half);
    if (rc) return rc;
    p->dtype = self->dtype;
    tc_tensor *o = p->out[0];
    int64_t sizes[TC_MAX_DIMS];
    memcpy(sizes, o->sizes, sizeof(int64_t) * (size_t)o->ndim);
    sizes[dim] /= 2;
    if (tc_plan_kernel_view(p, 0, o->ndim, sizes, o->strides)) return TC_FAIL;
    return tc_plan_int(p, dim);
}
