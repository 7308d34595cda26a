/*
 * In-place and out= variants of ops that are implemented as C functions (composites): run the
 * functional op, then write its results into the written arguments under the rules the structured
 * runner applies to its own variants (in-place: same sizes; out=: resized; both: castable dtype, or
 * for out_exact_from_functional the result's own dtype).
 */
#include "core_internal.h"
#include "torch_core/tc_autograd.h"

#include <stdlib.h>
#include <string.h>

static int run_base(tc_opcall *c, tc_value *results) {
    struct tc_op *base = tc_op_at(c->op->base);
    return tc_dispatch(base, c->args, results); /* the base's arguments are the variant's first ones */
}

static int write_into(tc_tensor *target, tc_tensor *value, bool resize) {
    if (!tc_shape_equal(target->ndim, target->sizes, value->ndim, value->sizes)) {
        char have[256], want[256];
        tc_shape_format(target->ndim, target->sizes, have, sizeof have);
        tc_shape_format(value->ndim, value->sizes, want, sizeof want);
        if (!resize)
            return tc_set_error(TC_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s", have, want);
        if (tc_resize_output(target, value->ndim, value->sizes)) return TC_FAIL;
    }
    if (tc_check_can_cast(value->dtype, target->dtype)) return TC_FAIL;
    tc_tensor *r = tc_copy_(target, value, false);
    tc_tensor_release(r);
    return r ? TC_OK : TC_FAIL;
}

static int out_from_functional(tc_opcall *c, bool exact_dtype) {
    struct tc_op *base = tc_op_at(c->op->base);
    tc_value results[TC_MAX_RETURNS];
    if (run_base(c, results)) return TC_FAIL;
    int32_t n = base->schema.n_returns, first_out = base->schema.n_args;
    for (int32_t i = 0; i < n; i++) {
        if ((exact_dtype && tc_check_out_dtype(c->args[first_out + i].v.tensor, results[i].v.tensor->dtype)) ||
            write_into(c->args[first_out + i].v.tensor, results[i].v.tensor, true)) {
            tc_values_release(results, n);
            return TC_FAIL;
        }
    }
    tc_values_release(results, n);
    for (int32_t i = 0; i < n; i++) {
        tc_tensor *t = c->args[first_out + i].v.tensor;
        tc_tensor_retain(t);
        c->outs[i] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = t};
    }
    return TC_OK;
}

int tc_impl_out_from_functional(tc_opcall *c) { return out_from_functional(c, false); }

/* out= of a composite over a structured op of PyTorch's (linalg.svd over _linalg_svd): each out tensor
 * must have its result's dtype, as PyTorch's set_output requires; the results are computed first, so
 * that errors about the input come before those about out=, as PyTorch's meta functions order them. */
int tc_impl_out_exact_from_functional(tc_opcall *c) { return out_from_functional(c, true); }

/* self_ = op(self): while autograd records, the functional op reads a clone of self, so that what
 * its backward saved of self is not the tensor this call then overwrites (PyTorch saves the input of
 * an in-place op's formula the same way). */
int tc_impl_inplace_from_functional(tc_opcall *c) {
    tc_value result;
    tc_tensor *self = tc_arg_tensor(c, 0);
    if (tc_grad_enabled() && tc_requires_grad(self)) {
        tc_tensor *original = tc_clone(self, -1);
        if (!original) return TC_FAIL;
        struct tc_op *base = tc_op_at(c->op->base);
        const size_t n = (size_t)base->schema.n_args;
        tc_value *args = malloc(sizeof(tc_value) * n);
        if (!args) {
            tc_tensor_release(original);
            return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        }
        memcpy(args, c->args, sizeof(tc_value) * n);
        args[0].v.tensor = original;
        int rc = tc_dispatch(base, args, &result);
        free(args);
        tc_tensor_release(original);
        if (rc) return TC_FAIL;
    } else if (run_base(c, &result)) {
        return TC_FAIL;
    }
    int rc = write_into(self, result.v.tensor, false);
    tc_values_release(&result, 1);
    if (rc) return TC_FAIL;
    tc_tensor_retain(self);
    return tc_return(c, self);
}

/* The index of the base schema's argument `name`, or -1. */
static int32_t arg_index(const tc_op_schema *s, const char *name) {
    for (int32_t i = 0; i < s->n_args; i++)
        if (strcmp(s->args[i].name, name) == 0) return i;
    return -1;
}

/* The out= form of a creation op composed of others (zeros, ones, eye, empty): the functional op run
 * in out's dtype and on its device (a dtype given beside out must be out's, PyTorch's check), its
 * result written into out, which is resized first as PyTorch's resize_ does, without a warning. */
int tc_impl_factory_out(tc_opcall *c) {
    struct tc_op *base = tc_op_at(c->op->base);
    const int32_t n = base->schema.n_args;
    tc_tensor *out = c->args[n].v.tensor;
    tc_value args[16]; /* the base's arguments with out's dtype and device filled in */
    if (n > 16) return tc_set_error(TC_ERR_RUNTIME, "%s: too many arguments", c->op->schema.name);
    memcpy(args, c->args, sizeof(tc_value) * (size_t)n);
    const int32_t dtype_at = arg_index(&base->schema, "dtype"), device_at = arg_index(&base->schema, "device");
    if (dtype_at >= 0) {
        if (args[dtype_at].tag != TC_VALUE_NONE && (int32_t)args[dtype_at].v.i != out->dtype)
            return tc_set_error(TC_ERR_RUNTIME, "dtype %s does not match dtype of out parameter (%s)",
                                tc_dtype_scalar_name((int32_t)args[dtype_at].v.i), tc_dtype_scalar_name(out->dtype));
        args[dtype_at] = (tc_value){.tag = TC_VALUE_DTYPE, .v.i = out->dtype};
    }
    if (device_at >= 0 && args[device_at].tag == TC_VALUE_NONE)
        args[device_at] = (tc_value){.tag = TC_VALUE_DEVICE, .v.device = out->device};
    tc_value result;
    if (tc_dispatch(base, args, &result)) return TC_FAIL;
    tc_tensor *value = result.v.tensor;
    int rc = tc_shape_equal(out->ndim, out->sizes, value->ndim, value->sizes)
                 ? TC_OK : tc_tensor_resize(out, value->ndim, value->sizes);
    if (!rc) rc = write_into(out, value, false);
    tc_values_release(&result, 1);
    if (rc) return TC_FAIL;
    tc_tensor_retain(out);
    return tc_return(c, out);
}
