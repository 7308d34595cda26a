/*
 * The structured runner: the one implementation of every op declared `structured` in ops.table.
 *
 *   1. every tensor argument must be on the call's device (a CPU 0-dim tensor may sit beside any);
 *   2. the op's meta function checks its arguments and describes the work: the outputs' sizes and
 *      dtypes (tc_plan_output), the kernel's inputs (tc_plan_input), its dtype and contract values;
 *   3. outputs are allocated (functional), or the written arguments are checked (in-place: same
 *      sizes, a castable dtype; out=: resized, castable, or of the result's own dtype for the ops
 *      flagged out_exact) with a temporary for the kernel when the
 *      written tensor has another dtype;
 *   4. inputs that overlap a written tensor in part raise PyTorch's error (out= arguments are also
 *      checked as given, before step 3 resizes them); the kernel of the call's
 *      backend and the plan's dtype runs; temporaries are copied into their targets, and written
 *      tensors' versions are bumped.
 *
 * The same runner serves the meta device (whose fallback kernel computes nothing), every plugin
 * backend and runtime ops, so a new device implements kernels and nothing else.
 */
#include "core_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void plan_init(tc_plan *p, tc_opcall *c) {
    p->call = c;
    p->dtype = -1;
    p->kernel = c->op->kernel;
    p->flags = 0;
    p->n_in = 0;
    p->cap_in = TC_PLAN_INLINE_INPUTS;
    p->in = p->in_inline;
    p->in_dtype = p->in_dtype_inline;
    p->n_out = 0;
    p->n_scalars = 0;
    p->n_ints = 0;
    p->deferred = p->allocated = 0;
    p->after = NULL;
}

static void plan_release(tc_plan *p) {
    for (int32_t i = 0; i < p->n_in; i++) tc_tensor_release(p->in[i]);
    if (p->in != p->in_inline) free(p->in);
    if (p->in_dtype != p->in_dtype_inline) free(p->in_dtype);
    for (int32_t i = 0; i < p->n_out; i++) {
        tc_tensor_release(p->kview[i]);
        if (p->out[i] != p->target[i]) tc_tensor_release(p->out[i]);
        tc_tensor_release(p->target[i]);
    }
    p->n_in = p->n_out = 0;
}

tc_tensor *tc_written_arg(const tc_opcall *c, int32_t i) {
    const tc_op_schema *s = &c->op->schema;
    if (c->op->variant == TC_VARIANT_FUNCTIONAL || i >= s->n_returns || s->returns[i].alias_arg < 0) return NULL;
    const tc_value *v = &c->args[s->returns[i].alias_arg];
    return v->tag == TC_VALUE_TENSOR ? v->v.tensor : NULL;
}

int tc_check_out_dtype(const tc_tensor *out, int32_t want) {
    if (!out || out->dtype == want) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
                        tc_dtype_cpp_name(want), tc_dtype_cpp_name(out->dtype));
}

int tc_check_out_scalar_type(const tc_tensor *out, int32_t want) {
    if (!out || out->dtype == want) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "expected scalar_type %s but found %s", tc_dtype_scalar_name(want),
                        tc_dtype_scalar_name(out->dtype));
}

static int shape_mismatch(const tc_tensor *t, int32_t ndim, const int64_t *sizes) {
    char want[256], have[256];
    tc_shape_format(t->ndim, t->sizes, have, sizeof have);
    tc_shape_format(ndim, sizes, want, sizeof want);
    return tc_set_error(TC_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s", have, want);
}

int tc_check_can_cast(int32_t from, int32_t to) {
    if (tc_can_cast(from, to)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                        tc_dtype_scalar_name(from), tc_dtype_scalar_name(to));
}

/* out= with the wrong sizes is resized, with PyTorch's deprecation warning when it held data. */
int tc_resize_output(tc_tensor *t, int32_t ndim, const int64_t *sizes) {
    if (tc_shape_equal(t->ndim, t->sizes, ndim, sizes)) return TC_OK;
    if (tc_tensor_numel(t) != 0) {
        char have[256], want[256];
        tc_shape_format(t->ndim, t->sizes, have, sizeof have);
        tc_shape_format(ndim, sizes, want, sizeof want);
        tc_warn("An output with one or more elements was resized since it had shape %s, which does not match the "
                "required output shape %s. This behavior is deprecated, and in a future PyTorch release outputs "
                "will not be resized unless they have zero elements. You can explicitly reuse an out tensor t by "
                "resizing it, inplace, to zero elements with t.resize_(0).", have, want);
    }
    return tc_tensor_resize(t, ndim, sizes);
}

/* An out= argument of the wrong sizes resized: creation ops (arange, linspace, full, ...) resize_ it
 * silently, as PyTorch's do; the others warn as tc_resize_output does. */
static int resize_out(const tc_opcall *c, tc_tensor *t, int32_t ndim, const int64_t *sizes) {
    if (!(c->op->schema.flags & TC_OPF_FACTORY)) return tc_resize_output(t, ndim, sizes);
    return tc_shape_equal(t->ndim, t->sizes, ndim, sizes) ? TC_OK : tc_tensor_resize(t, ndim, sizes);
}

int tc_plan_output(tc_plan *p, int32_t i, int32_t ndim, const int64_t *sizes, int32_t dtype) {
    tc_opcall *c = p->call;
    if (i != p->n_out || i >= TC_MAX_RETURNS)
        return tc_set_error(TC_ERR_RUNTIME, "internal error: %s sets output %d out of order", c->op->schema.name, i);
    if (dtype < 0 || dtype >= TC_NUM_DTYPES) return tc_set_error(TC_ERR_TYPE, "invalid dtype %d", dtype);
    tc_tensor *target = tc_written_arg(c, i);
    tc_tensor *out;
    if (!target) {
        if (!(out = tc_empty(ndim, sizes, dtype, c->device))) return TC_FAIL;
        target = out;
    } else {
        if (c->op->variant == TC_VARIANT_OUT && (c->op->schema.flags & TC_OPF_OUT_EXACT) &&
            tc_check_out_dtype(target, dtype)) /* before resizing, as PyTorch's resize_out checks */
            return TC_FAIL;
        if (c->op->variant == TC_VARIANT_INPLACE && i == 0) {
            if (!tc_shape_equal(target->ndim, target->sizes, ndim, sizes)) return shape_mismatch(target, ndim, sizes);
        } else if (resize_out(c, target, ndim, sizes)) {
            return TC_FAIL;
        }
        if (!(p->flags & TC_PLAN_OUT_ANY_DTYPE) && tc_check_can_cast(dtype, target->dtype)) return TC_FAIL;
        if (tc_check_internal_overlap(target)) return TC_FAIL;
        if (target->dtype == dtype && !(target->flags & TC_TENSOR_MATH_BITS)) {
            out = target;
        } else if (!(out = tc_empty(ndim, sizes, dtype, c->device))) { /* compute, then cast into target */
            return TC_FAIL;
        }
        tc_tensor_retain(target);
    }
    p->out[i] = out;
    p->target[i] = target;
    p->kview[i] = NULL;
    p->n_out++;
    return TC_OK;
}

int tc_plan_output_deferred(tc_plan *p, int32_t i, int32_t dtype) {
    tc_opcall *c = p->call;
    if (i != p->n_out || i >= TC_MAX_RETURNS)
        return tc_set_error(TC_ERR_RUNTIME, "internal error: %s sets output %d out of order", c->op->schema.name, i);
    if (dtype < 0 || dtype >= TC_NUM_DTYPES) return tc_set_error(TC_ERR_TYPE, "invalid dtype %d", dtype);
    tc_tensor *target = tc_written_arg(c, i);
    if (target && (tc_check_can_cast(dtype, target->dtype) || tc_check_internal_overlap(target))) return TC_FAIL;
    if (target) tc_tensor_retain(target);
    p->out[i] = NULL; /* until the kernel asks: always a fresh tensor, so it never overlaps an input */
    p->target[i] = target;
    p->kview[i] = NULL;
    p->deferred |= 1u << i;
    p->deferred_dtype[i] = dtype;
    p->n_out++;
    return TC_OK;
}

/* The plan whose kernel runs on this thread, for kernel_output. */
static _Thread_local tc_plan *running_plan;

int tc_kernel_output(const tc_kernel_args *args, int32_t i, int32_t ndim, const int64_t *sizes, tc_view *view) {
    tc_plan *p = running_plan;
    if (!p || !args || args->schema_op != p->call->op->id)
        return tc_set_error(TC_ERR_RUNTIME, "kernel_output: no kernel of a structured op is running on this thread");
    if (i < 0 || i >= p->n_out || !((p->deferred >> i) & 1u) || ((p->allocated >> i) & 1u))
        return tc_set_error(TC_ERR_RUNTIME, "kernel_output: output %d of %s is not a deferred output waiting to be "
                                            "allocated", i, p->call->op->schema.name);
    if (!view || (ndim > 0 && !sizes)) return tc_set_error(TC_ERR_RUNTIME, "kernel_output: NULL sizes or view");
    if (tc_shape_check_ndim(ndim)) return TC_FAIL;
    for (int32_t d = 0; d < ndim; d++)
        if (sizes[d] < 0) return tc_set_error(TC_ERR_RUNTIME, "kernel_output: negative size %lld", (long long)sizes[d]);
    tc_tensor *t = tc_empty(ndim, sizes, p->deferred_dtype[i], p->call->device);
    if (!t) return TC_FAIL;
    p->out[i] = t;
    if (!p->target[i]) {
        tc_tensor_retain(t);
        p->target[i] = t;
    }
    p->allocated |= 1u << i;
    *view = (tc_view){.data = tc_tensor_data(t), .sizes = t->sizes, .strides = t->strides, .ndim = t->ndim,
                      .dtype = t->dtype, .device = t->device, .struct_size = sizeof(tc_view), .layout = t->layout};
    return TC_OK;
}

/* After the kernel: every deferred output was asked for; the written arguments of out= calls take
 * their sizes. A backend that computes nothing (the meta device) cannot know them. */
static int finish_deferred(tc_plan *p) {
    tc_opcall *c = p->call;
    for (int32_t i = 0; i < p->n_out; i++) {
        if (!((p->deferred >> i) & 1u)) continue;
        if (!((p->allocated >> i) & 1u)) {
            char backend[64];
            tc_backend_format(c->backend, backend, sizeof backend);
            if (backend[0] >= 'a' && backend[0] <= 'z') backend[0] = (char)(backend[0] - 'a' + 'A');
            return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "Could not run 'aten::%s' with arguments from the '%s' "
                                                        "backend: the sizes of its results depend on the data",
                                c->op->schema.name, backend);
        }
        if (p->target[i] != p->out[i] && tc_resize_output(p->target[i], p->out[i]->ndim, p->out[i]->sizes)) return TC_FAIL;
    }
    return TC_OK;
}

void tc_plan_result(tc_plan *p, int32_t i, tc_tensor *result) {
    if (p->out[i] != p->target[i]) tc_tensor_release(p->out[i]);
    p->out[i] = result;
    tc_tensor_release(p->kview[i]);
    p->kview[i] = NULL;
    p->flags |= TC_PLAN_NO_KERNEL;
}

int tc_plan_kernel_view(tc_plan *p, int32_t i, int32_t ndim, const int64_t *sizes, const int64_t *strides) {
    if (i < 0 || i >= p->n_out) return tc_set_error(TC_ERR_RUNTIME, "internal error: view of output %d", i);
    tc_tensor *v = tc_tensor_restride(p->out[i], ndim, sizes, strides, p->out[i]->offset);
    if (!v) return TC_FAIL;
    tc_tensor_release(p->kview[i]);
    p->kview[i] = v;
    return TC_OK;
}

int tc_plan_output_strided(tc_plan *p, int32_t i, int32_t ndim, const int64_t *sizes, const int64_t *strides,
                           int32_t dtype) {
    tc_opcall *c = p->call;
    if (c->op->variant != TC_VARIANT_FUNCTIONAL || i != p->n_out || i >= TC_MAX_RETURNS)
        return tc_set_error(TC_ERR_RUNTIME, "internal error: strided output of %s", c->op->schema.name);
    /* the storage must reach the furthest element */
    int64_t extent = 1;
    for (int32_t d = 0; d < ndim; d++) {
        if (sizes[d] < 0 || strides[d] < 0)
            return tc_set_error(TC_ERR_RUNTIME, "negative sizes or strides are not supported");
        if (sizes[d] == 0) {
            extent = 0;
            break;
        }
        int64_t span;
        if (__builtin_mul_overflow(sizes[d] - 1, strides[d], &span) || __builtin_add_overflow(extent, span, &extent))
            return tc_set_error(TC_ERR_RUNTIME, "size and stride overflow");
    }
    size_t nbytes;
    if (tc_shape_nbytes(1, &extent, dtype, &nbytes)) return TC_FAIL;
    tc_storage *s = tc_storage_new(nbytes, c->device);
    if (!s) return TC_FAIL;
    tc_tensor *t = tc_tensor_new_view(s, 0, ndim, sizes, strides, dtype, c->device);
    tc_storage_release(s);
    if (!t) return TC_FAIL;
    p->out[i] = p->target[i] = t;
    p->kview[i] = NULL;
    p->n_out++;
    return TC_OK;
}

int tc_plan_output_none(tc_plan *p, int32_t i) {
    tc_opcall *c = p->call;
    if (c->op->variant != TC_VARIANT_FUNCTIONAL || i != p->n_out || i >= TC_MAX_RETURNS)
        return tc_set_error(TC_ERR_RUNTIME, "internal error: undefined output of %s", c->op->schema.name);
    p->out[i] = p->target[i] = p->kview[i] = NULL;
    p->n_out++;
    return TC_OK;
}

int tc_plan_input(tc_plan *p, tc_tensor *t, int32_t dtype) {
    if (p->n_in == p->cap_in) {
        if (p->cap_in > INT32_MAX / 2) return tc_set_error(TC_ERR_RUNTIME, "too many kernel inputs");
        int32_t cap = p->cap_in * 2;
        tc_tensor **in = malloc(sizeof(tc_tensor *) * (size_t)cap);
        int32_t *in_dtype = malloc(sizeof(int32_t) * (size_t)cap);
        if (!in || !in_dtype) {
            free(in);
            free(in_dtype);
            return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        }
        memcpy(in, p->in, sizeof(tc_tensor *) * (size_t)p->n_in);
        memcpy(in_dtype, p->in_dtype, sizeof(int32_t) * (size_t)p->n_in);
        if (p->in != p->in_inline) free(p->in);
        if (p->in_dtype != p->in_dtype_inline) free(p->in_dtype);
        p->in = in;
        p->in_dtype = in_dtype;
        p->cap_in = cap;
    }
    if (t->flags & TC_TENSOR_MATH_BITS) { /* a lazy conj/neg is resolved now, in the compute dtype */
        tc_tensor *x = tc_kernel_cast(t, dtype >= 0 ? dtype : t->dtype);
        if (!x) return TC_FAIL;
        p->in_dtype[p->n_in] = -1;
        p->in[p->n_in++] = x;
        return TC_OK;
    }
    /* the conversion waits for the kernel call: a kernel that converts while loading needs none */
    tc_tensor_retain(t);
    p->in_dtype[p->n_in] = dtype >= 0 && dtype != t->dtype ? dtype : -1;
    p->in[p->n_in++] = t;
    return TC_OK;
}

int tc_plan_input_contiguous(tc_plan *p, tc_tensor *t, int32_t dtype) {
    if (dtype < 0) dtype = t->dtype;
    if (t->dtype != dtype || tc_tensor_is_contiguous(t)) return tc_plan_input(p, t, dtype); /* a cast is contiguous */
    tc_tensor *copy = tc_empty(t->ndim, t->sizes, dtype, t->device);
    if (!copy || tc_kernel_copy(copy, t)) {
        tc_tensor_release(copy);
        return TC_FAIL;
    }
    int rc = tc_plan_input(p, copy, -1);
    tc_tensor_release(copy);
    return rc;
}

int tc_plan_scalar(tc_plan *p, tc_scalar s) {
    if (p->n_scalars == TC_PLAN_MAX_SCALARS) return tc_set_error(TC_ERR_RUNTIME, "internal error: too many scalars");
    p->scalars[p->n_scalars++] = s;
    return TC_OK;
}

int tc_plan_int(tc_plan *p, int64_t v) {
    if (p->n_ints == TC_PLAN_MAX_INTS) return tc_set_error(TC_ERR_RUNTIME, "internal error: too many ints");
    p->ints[p->n_ints++] = v;
    return TC_OK;
}

/* The tensors of an argument: one for a Tensor, each item (NULL for a None) of a Tensor[]. */
static int64_t n_tensors(const tc_value *v) {
    return v->tag == TC_VALUE_TENSOR ? 1 : v->tag == TC_VALUE_TENSOR_LIST ? v->v.tensors.len : 0;
}
static const tc_tensor *tensor_at(const tc_value *v, int64_t j) {
    return v->tag == TC_VALUE_TENSOR ? v->v.tensor : v->v.tensors.items[j];
}

/* Every tensor argument on the call's device, except CPU 0-dim tensors (Python numbers). */
static int check_devices(const tc_opcall *c) {
    const tc_op_schema *s = &c->op->schema;
    for (int32_t i = 0; i < s->n_args; i++) {
        const tc_value *v = &c->args[i];
        for (int64_t j = 0; j < n_tensors(v); j++) {
            const tc_tensor *t = tensor_at(v, j);
            if (!t || (t->device.type == c->device.type && t->device.index == c->device.index)) continue;
            if (t->ndim == 0 && t->device.type == TC_DEVICE_CPU && !(s->args[i].flags & TC_ARG_WRITE)) continue;
            return tc_set_error(TC_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least "
                                                "two devices, %s:%d and %s:%d! (when checking argument for argument "
                                                "%s in method %s)", tc_device_type_name(c->device.type),
                                c->device.index, tc_device_type_name(t->device.type), t->device.index,
                                s->args[i].name, s->name);
        }
    }
    return TC_OK;
}

/* out= arguments against the inputs as the caller gave them, before anything is resized, as PyTorch
 * checks overlap before it resizes outputs: out=a[0] for an input a overlaps a in part, although
 * a[0] resized to a's shape would alias all of a and the kernel would overwrite it. */
static int check_out_overlap(const tc_opcall *c) {
    const tc_op_schema *s = &c->op->schema;
    if (c->op->variant != TC_VARIANT_OUT) return TC_OK;
    for (int32_t o = 0; o < s->n_returns; o++) {
        const tc_tensor *w = tc_written_arg(c, o);
        for (int32_t i = 0; w && i < s->n_args; i++) {
            const tc_value *v = &c->args[i];
            if (s->args[i].flags & TC_ARG_WRITE) continue;
            for (int64_t j = 0; j < n_tensors(v); j++) {
                const tc_tensor *t = tensor_at(v, j);
                if (t && tc_check_partial_overlap(w, t)) return TC_FAIL;
            }
        }
    }
    return TC_OK;
}

/* Inputs read while the kernel writes: a partial overlap raises; an overlap that cannot be ruled
 * out cheaply is read from a copy, so the result never depends on the kernel's walking order. */
static int separate_inputs(tc_plan *p) {
    for (int32_t o = 0; o < p->n_out; o++) {
        if (!p->out[o]) continue; /* deferred: fresh when allocated */
        for (int32_t i = 0; i < p->n_in; i++) {
            tc_tensor *in = p->in[i];
            int status = tc_overlap(p->out[o], in);
            if (status == TC_OVERLAP_PARTIAL) return tc_check_partial_overlap(p->out[o], in);
            if (status != TC_OVERLAP_TOO_HARD) continue;
            tc_tensor *copy = tc_empty(in->ndim, in->sizes, in->dtype, in->device);
            if (!copy || tc_kernel_copy(copy, in)) {
                tc_tensor_release(copy);
                return TC_FAIL;
            }
            copy->flags = in->flags & TC_TENSOR_WRAPPED_NUMBER;
            tc_tensor_release(in);
            p->in[i] = copy;
        }
    }
    return TC_OK;
}

static bool all_outputs_empty(const tc_plan *p) {
    for (int32_t i = 0; i < p->n_out; i++)
        /* a deferred output (sized by the kernel) needs the kernel; an undefined one (None) does not */
        if (p->out[i] ? tc_tensor_numel(p->out[i]) != 0 : (p->deferred >> i) & 1u) return false;
    return p->n_out > 0;
}

int tc_structured_run(tc_opcall *c) {
    struct tc_op *op = c->op;
    tc_plan p;
    plan_init(&p, c);
    if (check_devices(c) || check_out_overlap(c) || op->meta(c, &p)) goto fail;
    if (p.n_out != op->schema.n_returns) {
        tc_set_error(TC_ERR_RUNTIME, "internal error: meta of %s set %d of %d outputs", op->schema.name, p.n_out,
                     op->schema.n_returns);
        goto fail;
    }
    if (p.kernel >= 0 && !(p.flags & TC_PLAN_NO_KERNEL) && !all_outputs_empty(&p)) {
        if (op->variant != TC_VARIANT_FUNCTIONAL && separate_inputs(&p)) goto fail;
        tc_tensor *kout[TC_MAX_RETURNS];
        for (int32_t i = 0; i < p.n_out; i++) kout[i] = p.kview[i] ? p.kview[i] : p.out[i];
        tc_kernel_run run = {.kernel = p.kernel, .backend = c->backend, .dtype = p.dtype >= 0 ? p.dtype : p.out[0]->dtype,
                             .inputs = p.in, .n_inputs = p.n_in, .outputs = kout, .n_outputs = p.n_out,
                             .scalars = p.scalars, .n_scalars = p.n_scalars, .ints = p.ints, .n_ints = p.n_ints,
                             .broadcast = (p.flags & TC_PLAN_BROADCAST) != 0, .schema_op = op->id,
                             .args = c->args, .n_args = op->schema.n_args, .in_dtypes = p.in_dtype,
                             .plan = &p};
        tc_plan *outer = running_plan; /* a kernel may run ops of its own */
        running_plan = &p;
        int rc = tc_kernel_invoke(&run);
        running_plan = outer;
        if (rc || (p.deferred && finish_deferred(&p))) goto fail;
    } else if (p.deferred) { /* nothing runs, so nothing can say how large the results are */
        tc_set_error(TC_ERR_RUNTIME, "internal error: %s defers an output but runs no kernel", op->schema.name);
        goto fail;
    }
    for (int32_t i = 0; i < p.n_out; i++) {
        if (p.out[i] != p.target[i] && tc_kernel_copy(p.target[i], p.out[i])) goto fail;
        if (op->variant != TC_VARIANT_FUNCTIONAL) tc_tensor_bump_version(p.target[i]);
    }
    if (p.after && p.after(&p)) goto fail;
    for (int32_t i = 0; i < p.n_out; i++) {
        c->outs[i] = p.target[i] ? (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = p.target[i]}
                                 : (tc_value){.tag = TC_VALUE_NONE, .v.tensor = NULL};
        tc_tensor_release(p.kview[i]);
        if (p.out[i] != p.target[i]) tc_tensor_release(p.out[i]);
    }
    p.n_out = 0; /* the targets now belong to the caller */
    plan_release(&p);
    return TC_OK;
fail:
    plan_release(&p);
    return TC_FAIL;
}
