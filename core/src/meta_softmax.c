/*
 * Meta functions of the softmax family: _softmax/_log_softmax(self, dim, half_to_float) and
 * _softmax_backward_data/_log_softmax_backward_data(grad_output, output, dim, input_dtype).
 *
 * The kernels see contiguous operands (a copy is made of one that is not; an out= tensor that is
 * not contiguous gets a contiguous temporary the runner copies back) and ints[0] = the wrapped dim;
 * a 0-dim tensor is one element along dim 0.
 */
#include "core_internal.h"
#include "nn_meta.h"

#include <string.h>

/* PyTorch's CPU softmax kernels: floating dtypes but float16, named after the dim they run along. */
static int check_dtype(const tc_opcall *c, const tc_tensor *t, int32_t dim) {
    if (t->dtype == TC_BFLOAT16 || t->dtype == TC_FLOAT32 || t->dtype == TC_FLOAT64) return TC_OK;
    const char *name = c->op->schema.name;
    bool log = strstr(name, "log_softmax") != NULL, backward = strstr(name, "backward") != NULL;
    bool last = t->ndim == 0 || dim == t->ndim - 1;
    return tc_set_error(TC_ERR_RUNTIME, "\"%s%s%s_kernel_impl\" not implemented for '%s'", log ? "log_softmax" : "softmax",
                        backward ? "_backward" : "", last ? "_lastdim" : "", tc_dtype_scalar_name(t->dtype));
}

int tc_nn_contiguous_output(tc_plan *p) {
    tc_tensor *o = p->out[0];
    if (tc_tensor_is_contiguous(o)) return TC_OK;
    tc_tensor *tmp = tc_empty(o->ndim, o->sizes, o->dtype, p->call->device);
    if (!tmp) return TC_FAIL;
    if (p->out[0] != p->target[0]) tc_tensor_release(p->out[0]);
    p->out[0] = tmp;
    return TC_OK;
}

int tc_nn_contiguous_input(tc_plan *p, tc_tensor *t, int32_t dtype) {
    if (tc_tensor_is_contiguous(t) && (dtype < 0 || t->dtype == dtype)) return tc_plan_input(p, t, -1);
    tc_tensor *cast = dtype >= 0 && t->dtype != dtype ? tc_kernel_cast(t, dtype) : (tc_tensor_retain(t), t);
    if (!cast) return TC_FAIL;
    tc_tensor *contig = tc_contiguous(cast, 1);
    tc_tensor_release(cast);
    if (!contig) return TC_FAIL;
    int rc = tc_plan_input(p, contig, -1);
    tc_tensor_release(contig);
    return rc;
}

static int wrap_dim(const tc_tensor *t, int64_t dim, int32_t *d) {
    int32_t range = t->ndim > 0 ? t->ndim : 1;
    if (tc_shape_wrap_dim(dim, t->ndim, d)) return TC_FAIL;
    if (*d < 0 || *d >= range)
        return tc_set_error(TC_ERR_RUNTIME, "dim must be non-negative and less than input dimensions");
    return TC_OK;
}

/* _softmax / _log_softmax(self, dim, half_to_float) */
int tc_meta_softmax(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dim;
    if (wrap_dim(self, tc_arg_int(c, 1), &dim)) return TC_FAIL;
    bool half_to_float = tc_arg_bool(c, 2);
    if (half_to_float && c->device.type == TC_DEVICE_CPU)
        return tc_set_error(TC_ERR_RUNTIME, "softmax with half to float conversion is not supported on CPU");
    if (check_dtype(c, self, dim)) return TC_FAIL;
    int32_t dtype = half_to_float ? TC_FLOAT32 : self->dtype;
    if (tc_plan_output(p, 0, self->ndim, self->sizes, dtype) || tc_nn_contiguous_output(p)) return TC_FAIL;
    if (tc_nn_contiguous_input(p, self, -1)) return TC_FAIL;
    p->dtype = self->dtype;
    return tc_plan_int(p, self->ndim ? dim : 0);
}

/* _softmax_backward_data / _log_softmax_backward_data(grad_output, output, dim, input_dtype) */
int tc_meta_softmax_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *grad = tc_arg_tensor(c, 0), *output = tc_arg_tensor(c, 1);
    if (!tc_shape_equal(grad->ndim, grad->sizes, output->ndim, output->sizes)) {
        char g[256], o[256];
        tc_shape_format(grad->ndim, grad->sizes, g, sizeof g);
        tc_shape_format(output->ndim, output->sizes, o, sizeof o);
        return tc_set_error(TC_ERR_RUNTIME, "Expected tensor for argument #1 'grad_output' to have the same size as "
                                            "tensor for argument #2 'output'; but %s does not equal %s (while checking "
                                            "arguments for softmax_backward)", g, o);
    }
    int32_t dim;
    if (wrap_dim(grad, tc_arg_int(c, 2), &dim)) return TC_FAIL;
    if (check_dtype(c, grad, dim)) return TC_FAIL;
    if (tc_plan_output(p, 0, grad->ndim, grad->sizes, grad->dtype) || tc_nn_contiguous_output(p)) return TC_FAIL;
    if (tc_nn_contiguous_input(p, grad, -1) || tc_nn_contiguous_input(p, output, grad->dtype)) return TC_FAIL;
    p->dtype = grad->dtype;
    return tc_plan_int(p, grad->ndim ? dim : 0);
}
