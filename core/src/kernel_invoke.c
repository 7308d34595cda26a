/*
 * Calling a kernel: builds its tc_kernel_args from tensors, in the struct layout of the ABI minor
 * the kernel's plugin was built for (1.0: 40-byte views, 16-byte scalars, 64-byte args; 1.1: the
 * current layouts), with inputs presented at the first output's sizes through zero strides when
 * the op broadcasts. Everything lives on the stack except for calls with many operands.
 */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

#define INLINE_OPS 8

typedef struct tc_view_1_0 {
    void *data;
    const int64_t *sizes;
    const int64_t *strides;
    int32_t ndim;
    int32_t dtype;
    tc_device device;
} tc_view_1_0;
_Static_assert(sizeof(tc_view_1_0) == TC_VIEW_SIZE_1_0, "the 1.0 view layout");

static void fill_view(tc_view *v, const tc_tensor *t) {
    if (!t) { /* an undefined output (tc_plan_output_none) */
        *v = (tc_view){.ndim = -1, .struct_size = sizeof(tc_view)};
        return;
    }
    v->data = tc_tensor_data(t);
    v->sizes = t->sizes;
    v->strides = t->strides;
    v->ndim = t->ndim;
    v->dtype = t->dtype;
    v->device = t->device;
    v->struct_size = sizeof(tc_view);
    v->layout = t->layout;
}

/* Strides that present t at out's sizes: 0 along broadcast dims (the meta function checked that
 * the shapes broadcast). */
static void broadcast_strides(const tc_tensor *t, const tc_tensor *out, int64_t *strides) {
    for (int32_t i = 0; i < out->ndim; i++) {
        int32_t j = t->ndim - out->ndim + i;
        strides[i] = (j >= 0 && t->sizes[j] == out->sizes[i]) ? t->strides[j] : 0;
    }
}

static int call_legacy(const tc_kernel_slot *slot, const tc_kernel_args *args) {
    /* A 1.0 plugin indexes 40-byte views and 16-byte scalars and reads a 64-byte args struct. */
    int32_t n_views = args->n_inputs + args->n_outputs;
    tc_view_1_0 small[2 * INLINE_OPS], *views = n_views <= 2 * INLINE_OPS ? small : malloc(sizeof *views * (size_t)n_views);
    struct {
        int32_t is_float, reserved;
        union {
            double f;
            int64_t i;
        } v;
    } scalars[TC_PLAN_MAX_SCALARS];
    if (!views) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory calling a kernel");
    for (int32_t i = 0; i < n_views; i++) {
        const tc_view *v = i < args->n_inputs ? &args->inputs[i] : &args->outputs[i - args->n_inputs];
        memcpy(&views[i], v, sizeof views[i]);
    }
    int32_t n_scalars = args->n_scalars < TC_PLAN_MAX_SCALARS ? args->n_scalars : TC_PLAN_MAX_SCALARS;
    for (int32_t i = 0; i < n_scalars; i++) {
        bool floating = args->scalars[i].kind == TC_SCALAR_FLOAT || args->scalars[i].kind == TC_SCALAR_COMPLEX;
        scalars[i].is_float = floating;
        scalars[i].reserved = 0;
        if (floating)
            scalars[i].v.f = args->scalars[i].v.f;
        else
            scalars[i].v.i = args->scalars[i].v.i;
    }
    tc_kernel_args legacy = *args;
    legacy.struct_size = TC_KERNEL_ARGS_SIZE_1_0;
    legacy.inputs = (const tc_view *)(void *)views;
    legacy.outputs = (const tc_view *)(void *)(views + args->n_inputs);
    legacy.scalars = (const tc_scalar *)(void *)scalars;
    legacy.n_scalars = n_scalars;
    int rc = slot->fn(&legacy);
    if (views != small) free(views);
    return rc;
}

int tc_kernel_invoke(const tc_kernel_run *run) {
    const tc_kernel_slot *slot = tc_kernel_find(run->kernel, run->backend, run->dtype);
    if (!slot) return TC_FAIL;
    int32_t n_in = run->n_inputs, n_out = run->n_outputs;
    tc_view small_views[2 * INLINE_OPS];
    int64_t small_strides[INLINE_OPS][TC_MAX_DIMS];
    tc_view *views = small_views;
    int64_t(*strides)[TC_MAX_DIMS] = small_strides;
    if (n_in + n_out > 2 * INLINE_OPS || (run->broadcast && n_in > INLINE_OPS)) {
        views = malloc(sizeof(tc_view) * (size_t)(n_in + n_out));
        strides = run->broadcast ? malloc(sizeof(*strides) * (size_t)n_in) : NULL;
        if (!views || (run->broadcast && !strides)) {
            free(views);
            free(strides);
            return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory calling a kernel");
        }
    }
    for (int32_t i = 0; i < n_in; i++) {
        fill_view(&views[i], run->inputs[i]);
        if (run->broadcast && n_out) {
            const tc_tensor *o = run->outputs[0];
            broadcast_strides(run->inputs[i], o, strides[i]);
            views[i].ndim = o->ndim;
            views[i].sizes = o->sizes;
            views[i].strides = strides[i];
        }
    }
    for (int32_t i = 0; i < n_out; i++) fill_view(&views[n_in + i], run->outputs[i]);
    tc_scalar scalars[TC_PLAN_MAX_SCALARS];
    int32_t n_scalars = run->n_scalars < TC_PLAN_MAX_SCALARS ? run->n_scalars : TC_PLAN_MAX_SCALARS;
    for (int32_t i = 0; i < n_scalars; i++) {
        scalars[i] = run->scalars[i];
        scalars[i].struct_size = sizeof(tc_scalar);
    }
    tc_kernel_args args = {
        .struct_size = sizeof(tc_kernel_args),
        .op = run->kernel,
        .n_inputs = n_in,
        .n_outputs = n_out,
        .inputs = views,
        .outputs = views + n_in,
        .n_scalars = n_scalars,
        .n_ints = run->n_ints,
        .scalars = scalars,
        .ints = run->ints,
        .stream = NULL,
        .schema_op = run->schema_op,
        .n_args = run->n_args,
        .args = run->args,
    };
    tc_error_clear();
    int rc = slot->abi_minor >= 1 ? slot->fn(&args) : call_legacy(slot, &args);
    if (views != small_views) {
        free(views);
        if (strides != small_strides) free(strides);
    }
    if (rc == TC_OK) return TC_OK;
    if (tc_last_error_kind() == TC_ERR_NONE)
        tc_set_error(TC_ERR_RUNTIME, "kernel \"%s\" failed without saying why", tc_kernel_name(run->kernel));
    return TC_FAIL;
}

int tc_kernel_copy(tc_tensor *dst, tc_tensor *src) {
    if (tc_tensor_numel(dst) == 0) return TC_OK;
    tc_kernel_run run = {.kernel = TC_KERNEL_copy, .backend = tc_backend_of(dst->device.type, dst->layout),
                         .dtype = dst->dtype, .inputs = &src, .n_inputs = 1, .outputs = &dst, .n_outputs = 1,
                         .broadcast = src->ndim != dst->ndim || !tc_shape_equal(src->ndim, src->sizes, dst->ndim,
                                                                                  dst->sizes),
                         .schema_op = -1};
    return tc_kernel_invoke(&run);
}

tc_tensor *tc_kernel_cast(tc_tensor *t, int32_t dtype) {
    if (t->dtype == dtype) {
        tc_tensor_retain(t);
        return t;
    }
    tc_tensor *out = tc_empty(t->ndim, t->sizes, dtype, t->device);
    if (out && tc_kernel_copy(out, t)) {
        tc_tensor_release(out);
        return NULL;
    }
    if (out) out->flags = t->flags & TC_TENSOR_WRAPPED_NUMBER;
    return out;
}
