/*
 * Saved tensors: what a node keeps for its backward. An input is kept as it is (the tensor itself:
 * no cycle can form through it); a result of the node itself is kept as an alias without history,
 * and given the node back as grad_fn when unpacked, so node -> result -> node never exists. Either
 * way the version counter is remembered, and unpacking a tensor written in place since raises
 * PyTorch's error. With saved_tensors_hooks installed the tensor is packed instead.
 */
#include "autograd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local tc_saved_hooks current_hooks;

tc_saved_hooks tc_saved_hooks_current(void) { return current_hooks; }
void tc_set_saved_hooks(tc_saved_hooks hooks) { current_hooks = hooks; }

/* An alias of t (same storage, geometry and version counter) with no autograd state. */
static tc_tensor *plain_alias(tc_tensor *t) {
    tc_tensor *a = tc_tensor_restride(t, t->ndim, t->sizes, t->strides, t->offset);
    if (a) a->flags = t->flags;
    return a;
}

int tc_ag_save(tc_saved_tensor *s, tc_tensor *t, bool is_output) {
    memset(s, 0, sizeof *s);
    if (!t) return TC_OK;
    if (tc_tensor_is_inference(t))
        return tc_set_error(TC_ERR_RUNTIME, "Inference tensors cannot be saved for backward. To work around you can make "
                                            "a clone to get a normal tensor and use it in autograd.");
    s->defined = true;
    s->is_output = is_output;
    s->version = *t->version;
    s->output_nr = tc_tensor_output_nr(t);
    s->requires_grad = tc_requires_grad(t);
    tc_saved_hooks hooks = current_hooks;
    if (hooks.pack) {
        /* the hooks run with themselves switched off, as in PyTorch */
        current_hooks = (tc_saved_hooks){0};
        s->packed = hooks.pack(hooks.ctx, t);
        current_hooks = hooks;
        if (!s->packed) return TC_FAIL;
        s->hooks = hooks;
        return TC_OK;
    }
    if (is_output) {
        if (!(s->data = plain_alias(t))) return TC_FAIL;
    } else {
        tc_tensor_retain(t);
        s->data = t;
    }
    return TC_OK;
}

static const char *legacy_type_name(int32_t dtype) {
    static const char *names[TC_NUM_DTYPES] = {"BoolTensor", "ByteTensor", "CharTensor", "ShortTensor",
                                               "IntTensor", "LongTensor", "HalfTensor", "BFloat16Tensor",
                                               "FloatTensor", "DoubleTensor"};
    return dtype >= 0 && dtype < TC_NUM_DTYPES && names[dtype] ? names[dtype] : "Tensor";
}

static int version_error(tc_saved_tensor *s, tc_node *owner) {
    tc_tensor *t = s->data;
    char shape[256], origin[160] = "";
    tc_shape_format(t->ndim, t->sizes, shape, sizeof shape);
    if (s->is_output) {
        if (owner) snprintf(origin, sizeof origin, ", which is output %u of %s,", s->output_nr, owner->name);
    } else {
        tc_node *fn = tc_tensor_grad_fn(t);
        if (fn) snprintf(origin, sizeof origin, ", which is output %u of %s,", tc_tensor_output_nr(t), fn->name);
        tc_node_release(fn);
        tc_error_clear();
    }
    const char *device = t->device.type == TC_DEVICE_CPU ? "" : tc_device_type_name(t->device.type);
    return tc_set_error(TC_ERR_RUNTIME,
                        "one of the variables needed for gradient computation has been modified by an inplace "
                        "operation: [torch.%s%s%s %s]%s is at version %llu; expected version %llu instead. Hint: enable "
                        "anomaly detection to find the operation that failed to compute its gradient, with "
                        "torch.autograd.set_detect_anomaly(True).",
                        device, device[0] ? "." : "", legacy_type_name(t->dtype), shape, origin,
                        (unsigned long long)*t->version, (unsigned long long)s->version);
}

static int freed_error(void) {
    return tc_set_error(TC_ERR_RUNTIME,
                        "Trying to backward through the graph a second time (or directly access saved tensors after "
                        "they have already been freed). Saved intermediate values of the graph are freed when you call "
                        ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
                        "graph a second time or if you need to access saved tensors after calling backward.");
}

int tc_ag_unpack(tc_saved_tensor *s, tc_node *owner, tc_tensor **out) {
    *out = NULL;
    if (!s->defined) return TC_OK;
    if (owner && atomic_load(&owner->released)) return freed_error();
    tc_tensor *t;
    if (s->packed) {
        if (!(t = s->hooks.unpack(s->hooks.ctx, s->packed))) return TC_FAIL;
    } else {
        if (!s->data) return freed_error();
        if (*s->data->version != s->version) return version_error(s, owner);
        t = s->data;
        tc_tensor_retain(t);
    }
    if (s->is_output && owner && s->requires_grad && tc_grad_enabled()) {
        /* a result of the owner: the owner is its grad_fn again, for as long as this copy lives */
        tc_tensor *a = plain_alias(t);
        tc_tensor_release(t);
        if (!a) return TC_FAIL;
        if (tc_ag_set_history(a, owner, s->output_nr)) {
            tc_tensor_release(a);
            return TC_FAIL;
        }
        t = a;
    }
    *out = t;
    return TC_OK;
}

void tc_ag_saved_release(tc_saved_tensor *s) {
    tc_tensor_release(s->data);
    s->data = NULL;
    if (s->packed && s->hooks.drop) s->hooks.drop(s->packed);
    s->packed = NULL;
}

tc_saved_tensor *tc_saved_tensor_new(tc_tensor *t, bool is_output) {
    tc_saved_tensor *s = malloc(sizeof *s);
    if (!s) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory"), NULL;
    if (tc_ag_save(s, t, is_output)) {
        tc_ag_saved_release(s);
        free(s);
        return NULL;
    }
    return s;
}

int tc_saved_tensor_unpack(tc_saved_tensor *s, tc_node *owner, tc_tensor **out) { return tc_ag_unpack(s, owner, out); }

void tc_saved_tensor_free(tc_saved_tensor *s) {
    if (!s) return;
    tc_ag_saved_release(s);
    free(s);
}
