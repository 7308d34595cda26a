/*
 * The dispatcher: every op call, from a typed entry, the boxed form, Python or a plugin, comes
 * here. A call's key set is the union of its tensor arguments' keys (TC_KEY_BACKEND always, plus
 * what a tensor brings, such as TC_KEY_AUTOGRAD), with the thread's included keys added and its
 * excluded ones removed; the highest key runs. Its backend is the device and layout of the tensor
 * arguments (a CPU 0-dim tensor, such as a Python number, never decides it) or, for creation ops,
 * the Device argument.
 *
 * At TC_KEY_FORWARD_AD (dual tensors) and TC_KEY_AUTOGRAD (tensors that require grad) an op runs
 * its forward-AD or autograd step if it has one; a composite op runs its composite (whose parts
 * handle themselves); anything else falls through. At TC_KEY_BACKEND an op
 * runs the impl a plugin or torch.library registered for the backend, else its own impl
 * (the structured runner, a composite or a view), which works on every backend.
 */
#include "core_internal.h"

#include <stdatomic.h>
#include <string.h>

static _Thread_local tc_keyset tls_included, tls_excluded;

tc_keyset tc_dispatch_included(void) { return tls_included; }
tc_keyset tc_dispatch_excluded(void) { return tls_excluded; }
void tc_dispatch_set_included(tc_keyset keys) { tls_included = keys; }
void tc_dispatch_set_excluded(tc_keyset keys) { tls_excluded = keys & ~TC_KEYBIT(TC_KEY_BACKEND); }

/* What the arguments bring: keys, and the device/layout that decide the backend. */
typedef struct call_origin {
    tc_keyset keys;
    tc_device device;
    int32_t layout;
    int rank; /* 0 none yet, 1 a CPU 0-dim tensor or a Device argument, 2 any other tensor */
} call_origin;

static void note_tensor(call_origin *o, const tc_tensor *t) {
    if (!t) return;
    o->keys |= t->keys;
    if (t->base) o->keys |= t->base->keys; /* a view shares its base's history */
    int rank = (t->ndim == 0 && t->device.type == TC_DEVICE_CPU) ? 1 : 2;
    /* the first tensor of the highest rank decides; a later one of a higher layout id (sparse
     * beside dense) takes the layout, as sparse kernels handle mixed operands */
    if (rank > o->rank) {
        o->rank = rank;
        o->device = t->device;
        o->layout = t->layout;
    } else if (rank == o->rank && t->device.type == o->device.type && t->layout > o->layout) {
        o->layout = t->layout;
    }
}

static int resolve(const struct tc_op *op, const tc_value *args, tc_opcall *call) {
    call_origin o = {.keys = TC_KEYBIT(TC_KEY_BACKEND), .device = {TC_DEVICE_CPU, 0}, .layout = TC_STRIDED};
    int32_t n = op->schema.n_args;
    for (int32_t i = 0; i < n; i++) {
        const tc_value *v = &args[i];
        if (v->tag == TC_VALUE_TENSOR) {
            if (!v->v.tensor) /* a typed entry given NULL for a Tensor that may not be None */
                return tc_set_error(TC_ERR_TYPE, "%s(): argument '%s' (position %d) must be Tensor, not None",
                                    op->schema.name, op->schema.args[i].name, i + 1);
            if ((v->v.tensor->flags & TC_TENSOR_INFERENCE) && !tc_tls_inference_mode &&
                (op->schema.args[i].flags & TC_ARG_WRITE))
                return tc_set_error(TC_ERR_RUNTIME,
                                    "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
                                    "make a clone to get a normal tensor before doing inplace update.See "
                                    "https://github.com/pytorch/rfcs/pull/17 for more details.");
            note_tensor(&o, v->v.tensor);
        } else if (v->tag == TC_VALUE_TENSOR_LIST) {
            for (int64_t j = 0; j < v->v.tensors.len; j++) note_tensor(&o, v->v.tensors.items[j]);
        } else if (v->tag == TC_VALUE_DEVICE && o.rank == 0) {
            o.rank = 1;
            o.device = v->v.device;
        }
    }
    if (o.device.type < 0 || o.device.type >= TC_MAX_DEVICE_TYPES)
        return tc_set_error(TC_ERR_RUNTIME, "invalid device type %d", o.device.type);
    call->op = (struct tc_op *)op;
    call->keys = (o.keys | tls_included) & ~tls_excluded;
    call->device = o.device;
    call->backend = tc_backend_of(o.device.type, o.layout);
    call->args = args;
    return TC_OK;
}

static int highest_key(tc_keyset keys) { return keys ? 63 - __builtin_clzll(keys) : -1; }

/* Runs the highest key of call->keys, falling through keys that have nothing for this op. */
static int run_keys(tc_opcall *call) {
    struct tc_op *op = call->op;
    for (;;) {
        int key = highest_key(call->keys);
        if (key == TC_KEY_AUTOGRAD) {
            if (op->impl_autograd) return op->impl_autograd(call);
            if (op->schema.flags & TC_OPF_COMPOSITE) return op->impl(call);
        } else if (key == TC_KEY_FORWARD_AD) {
            if (op->impl_forward_ad) return op->impl_forward_ad(call);
            if (op->schema.flags & TC_OPF_COMPOSITE) return op->impl(call);
        } else if (key == TC_KEY_BACKEND) {
            _Atomic(tc_backend_impl *) *overrides = atomic_load(&op->overrides);
            tc_backend_impl *o = overrides ? atomic_load(&overrides[call->backend]) : NULL;
            if (o) return o->fn(o->ctx, op->id, call->args, call->outs);
            if (op->impl) return op->impl(call);
            char where[64];
            tc_backend_format(call->backend, where, sizeof where);
            return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "%s%s%s has no implementation for %s", op->schema.name,
                                op->schema.overload[0] ? "." : "", op->schema.overload, where);
        } else if (key < 0) {
            return tc_set_error(TC_ERR_RUNTIME, "internal error: no dispatch key left for %s", op->schema.name);
        }
        call->keys &= ~TC_KEYBIT(key); /* nothing at this key: fall through */
    }
}

static _Atomic(const tc_op_observer *) op_observer;

void tc_set_op_observer(const tc_op_observer *observer) { atomic_store(&op_observer, observer); }

int tc_dispatch(struct tc_op *op, const tc_value *args, tc_value *outs) {
    tc_opcall call;
    const tc_op_observer *observer = atomic_load_explicit(&op_observer, memory_order_acquire);
    void *token = observer ? observer->begin(observer->ctx, op->schema.name, args, op->schema.n_args) : NULL;
    int rc = resolve(op, args, &call);
    if (!rc) {
        call.outs = outs;
        rc = run_keys(&call);
    }
    if (observer) observer->end(observer->ctx, token);
    return rc;
}

int tc_redispatch(tc_opcall *call, tc_keyset below) {
    tc_opcall next = *call;
    next.keys = call->keys & below;
    return run_keys(&next);
}

/* The boxed form checks what a typed entry's compiler checks: the count and tags of arguments. */
static int check_args(const struct tc_op *op, const tc_value *args) {
    for (int32_t i = 0; i < op->schema.n_args; i++) {
        const tc_arg_schema *a = &op->schema.args[i];
        int32_t tag = args[i].tag;
        if (tag == a->type) continue;
        if (tag == TC_VALUE_NONE && (a->flags & TC_ARG_OPTIONAL)) continue;
        /* a Scalar may arrive as a plain int or float, an int as a bool */
        if (a->type == TC_VALUE_SCALAR && (tag == TC_VALUE_INT || tag == TC_VALUE_FLOAT)) continue;
        return tc_set_error(TC_ERR_TYPE, "%s: argument '%s' (position %d) must be of value type %d, got %d",
                            op->schema.text, a->name, i, a->type, tag);
    }
    return TC_OK;
}

int tc_call_op(int32_t id, const tc_value *args, tc_value *outs) {
    struct tc_op *op = tc_op_at(id);
    if (!op) return tc_set_error(TC_ERR_VALUE, "unknown op id %d", id);
    if (check_args(op, args)) return TC_FAIL;
    /* normalise Scalars given as plain numbers, so implementations see one tag per type */
    tc_value small[16], *fixed = NULL;
    for (int32_t i = 0; i < op->schema.n_args; i++) {
        if (op->schema.args[i].type != TC_VALUE_SCALAR || (args[i].tag != TC_VALUE_INT && args[i].tag != TC_VALUE_FLOAT))
            continue;
        if (!fixed) {
            if (op->schema.n_args > 16) return tc_set_error(TC_ERR_VALUE, "pass Scalars as TC_VALUE_SCALAR");
            memcpy(small, args, sizeof(tc_value) * (size_t)op->schema.n_args);
            fixed = small;
        }
        tc_scalar s = args[i].tag == TC_VALUE_INT ? TC_SCALAR_OF_INT(args[i].v.i) : TC_SCALAR_OF_FLOAT(args[i].v.f);
        fixed[i] = (tc_value){.tag = TC_VALUE_SCALAR, .v.scalar = s};
    }
    return tc_dispatch(op, fixed ? fixed : args, outs);
}
