/*
 * The fused optimizer updates of ops.table's "nn: optimizer updates": one kernel pass per parameter
 * tensor reads its gradient and writes the parameter and its state in place. Every update op has the
 * same shape (written tensors, read tensors, float and bool arguments), so one function checks and
 * runs them all; the arithmetic, PyTorch 1.13's formulas step for step, is the kernels'
 * (plugins/cpu/optim_*.c).
 *
 * Kernel contract: outputs = the written tensors in schema order (None ones left out), inputs = the
 * read ones; every view is contiguous, of the parameter's sizes and dtype. The kernel reads the float
 * and bool arguments from the op's own arguments (args), which follow the tensors in every schema.
 */
#include "core_internal.h"

#include "torch_core/tc_autograd.h"

#include <stdlib.h>

static int shape_error(const tc_opcall *c, const char *name, const tc_tensor *t, const tc_tensor *param) {
    char have[256], want[256];
    tc_shape_format(t->ndim, t->sizes, have, sizeof have);
    tc_shape_format(param->ndim, param->sizes, want, sizeof want);
    return tc_set_error(TC_ERR_RUNTIME, "%s: %s has shape %s, but the parameter has shape %s", c->op->schema.name,
                        name, have, want);
}

/* A written tensor that autograd tracks may only change under no_grad (PyTorch's optimizers step
 * there); the same errors as an in-place op on it. */
static int check_writable(const tc_tensor *t) {
    if (!tc_grad_enabled() || !tc_requires_grad(t)) return TC_OK;
    if (tc_is_leaf(t))
        return tc_set_error(TC_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place "
                                            "operation.");
    return tc_set_error(TC_ERR_RUNTIME, "optimizer updates do not record history: run them under torch.no_grad()");
}

/* A contiguous copy of t (a new reference), or t itself retained when it already is one. */
static tc_tensor *dense(tc_tensor *t, bool force_copy) {
    if (!force_copy && tc_tensor_is_contiguous(t)) {
        tc_tensor_retain(t);
        return t;
    }
    tc_tensor *d = tc_empty(t->ndim, t->sizes, t->dtype, t->device);
    if (d && tc_kernel_copy(d, t)) {
        tc_tensor_release(d);
        return NULL;
    }
    return d;
}

static int optim_update(tc_opcall *c, int32_t kernel) {
    const tc_op_schema *s = &c->op->schema;
    const int32_t n = s->n_args;
    tc_tensor *param = tc_arg_tensor(c, 0);
    if (!tc_dtype_is_floating(param->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"%s\" not implemented for '%s'", s->name,
                            tc_dtype_scalar_name(param->dtype));
    /* targets: the tensors as given (written first); views: what the kernel sees */
    tc_tensor *targets[n], *views[n];
    int32_t n_written = 0, n_read = 0, n_views = 0;
    for (int32_t i = 0; i < n; i++) {
        const tc_value *v = &c->args[i];
        if (v->tag == TC_VALUE_TENSOR && (s->args[i].flags & TC_ARG_WRITE)) targets[n_written++] = v->v.tensor;
    }
    for (int32_t i = 0; i < n; i++) {
        const tc_value *v = &c->args[i];
        if (v->tag == TC_VALUE_TENSOR && !(s->args[i].flags & TC_ARG_WRITE))
            targets[n_written + n_read++] = v->v.tensor;
    }
    /* the checks, before anything is written */
    for (int32_t i = 0, k = 0; i < n; i++) {
        if (c->args[i].tag != TC_VALUE_TENSOR) continue;
        tc_tensor *t = c->args[i].v.tensor;
        bool written = (s->args[i].flags & TC_ARG_WRITE) != 0;
        if (t->device.type != param->device.type || t->device.index != param->device.index)
            return tc_set_error(TC_ERR_RUNTIME, "%s: expected %s on the parameter's device %s:%d, but it is on %s:%d",
                                s->name, s->args[i].name, tc_device_type_name(param->device.type),
                                param->device.index, tc_device_type_name(t->device.type), t->device.index);
        if (!tc_shape_equal(t->ndim, t->sizes, param->ndim, param->sizes))
            return shape_error(c, s->args[i].name, t, param);
        if (written && t->dtype != param->dtype)
            return tc_set_error(TC_ERR_RUNTIME, "%s: expected %s of the parameter's dtype %s, but got %s", s->name,
                                s->args[i].name, tc_dtype_scalar_name(param->dtype), tc_dtype_scalar_name(t->dtype));
        if (written && (check_writable(t) || tc_check_internal_overlap(t))) return TC_FAIL;
        for (int32_t j = 0; written && j < k; j++)
            if (tc_tensor_overlap(t, targets[j]) != TC_OVERLAP_NONE)
                return tc_set_error(TC_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and "
                                                    "the written-to tensor refer to a single memory location. Please "
                                                    "clone() the tensor before performing the operation.");
        k += written;
    }
    int rc = TC_FAIL;
    /* the kernel walks flat arrays: non-contiguous tensors go through contiguous copies, and a read
     * tensor sharing memory with a written one is read from a copy made before the writes */
    for (int32_t i = 0; i < n_written + n_read; i++) {
        tc_tensor *t = targets[i], *d;
        if (i < n_written) {
            d = dense(t, false);
        } else {
            bool shared = false;
            for (int32_t j = 0; j < n_written; j++) shared |= tc_tensor_overlap(t, targets[j]) != TC_OVERLAP_NONE;
            d = t->dtype == param->dtype ? dense(t, shared) : tc_kernel_cast(t, param->dtype);
            if (d && !tc_tensor_is_contiguous(d)) {
                tc_tensor *copy = dense(d, true);
                tc_tensor_release(d);
                d = copy;
            }
        }
        if (!d) goto out;
        views[n_views++] = d;
    }
    if (tc_tensor_numel(param) > 0) {
        tc_kernel_run run = {.kernel = kernel, .backend = c->backend, .dtype = param->dtype,
                             .inputs = views + n_written, .n_inputs = n_read, .outputs = views,
                             .n_outputs = n_written, .broadcast = false, .schema_op = c->op->id,
                             .args = c->args, .n_args = n};
        if (tc_kernel_invoke(&run)) goto out;
    }
    for (int32_t i = 0; i < n_written; i++) {
        if (views[i] != targets[i] && tc_kernel_copy(targets[i], views[i])) goto out;
        tc_tensor_bump_version(targets[i]);
    }
    rc = TC_OK;
out:
    for (int32_t i = 0; i < n_views; i++) tc_tensor_release(views[i]);
    return rc;
}

int tc_impl__sgd_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_sgd_update); }
int tc_impl__adam_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_adam_update); }
int tc_impl__rmsprop_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_rmsprop_update); }
int tc_impl__adagrad_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_adagrad_update); }
int tc_impl__adadelta_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_adadelta_update); }
int tc_impl__adamax_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_adamax_update); }
int tc_impl__asgd_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_asgd_update); }
int tc_impl__rprop_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_rprop_update); }
int tc_impl__nadam_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_nadam_update); }
int tc_impl__radam_update_(tc_opcall *c) { return optim_update(c, TC_KERNEL_radam_update); }
