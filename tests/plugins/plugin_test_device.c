/*
 * A device plugin written against today's ABI: a device type "tdev" backed by host memory with a
 * counting allocator, a layout of its own, kernels that read the op's own arguments (args, since
 * 1.1), and a runtime op "tdev_ext::scale(Tensor self, float factor) -> Tensor" with kernels for
 * both the CPU and tdev. test_op_interface.py drives it.
 */
#include "torch_core/tc_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tc_core_api *core;
static tc_allocator_stats stats;

static void *tdev_alloc(void *ctx, size_t nbytes, int32_t index, void *stream) {
    stats.n_allocs++;
    stats.allocated_bytes += nbytes;
    return calloc(1, nbytes ? nbytes : 1);
}

static void tdev_free(void *ctx, void *ptr, size_t nbytes, int32_t index, void *stream) {
    stats.allocated_bytes -= nbytes;
    free(ptr);
}

static void tdev_stats(void *ctx, tc_allocator_stats *out) { *out = stats; }

static const tc_allocator allocator = {
    .struct_size = sizeof(tc_allocator), .alloc = tdev_alloc, .free = tdev_free, .stats = tdev_stats};

static int32_t tdev_count(void) { return 1; }

static int tdev_copy(void *dst, tc_device dd, const void *src, tc_device sd, size_t n, void *stream) {
    memcpy(dst, src, n);
    return TC_OK;
}

static int tdev_sync(int32_t index) { return TC_OK; }

static const tc_device_type_desc device = {.struct_size = sizeof(tc_device_type_desc), .name = "tdev",
                                           .device_count = tdev_count, .copy = tdev_copy, .synchronize = tdev_sync};

static int64_t offset_of(const tc_view *v, int64_t i) {
    int64_t off = 0;
    for (int32_t d = v->ndim - 1; d >= 0; d--) {
        off += (i % v->sizes[d]) * v->strides[d];
        i /= v->sizes[d];
    }
    return off;
}

static int64_t numel(const tc_view *v) {
    int64_t n = 1;
    for (int32_t d = 0; d < v->ndim; d++) n *= v->sizes[d];
    return n;
}

/* copy within tdev: same dtype only (the core converts dtypes on the CPU side of a transfer) */
static int tdev_copy_kernel(const tc_kernel_args *args) {
    const tc_view *in = &args->inputs[0], *o = &args->outputs[0];
    if (in->dtype != o->dtype) return core->set_error(TC_ERR_RUNTIME, "tdev copies within a dtype only");
    size_t es = core->dtype_size(o->dtype);
    for (int64_t i = 0; i < numel(o); i++)
        memcpy((char *)o->data + offset_of(o, i) * (int64_t)es, (const char *)in->data + offset_of(in, i) * (int64_t)es, es);
    return TC_OK;
}

/* add on float32, alpha read from the op's own arguments (position 2 of add.Tensor's schema) */
static int tdev_add(const tc_kernel_args *args) {
    if (args->struct_size < sizeof(tc_kernel_args) || args->n_args < 3 || args->args[2].tag != TC_VALUE_SCALAR)
        return core->set_error(TC_ERR_RUNTIME, "tdev add: expected the op's arguments");
    const tc_scalar *s = &args->args[2].v.scalar;
    const float alpha = s->kind == TC_SCALAR_FLOAT ? (float)s->v.f : (float)s->v.i;
    const tc_view *a = &args->inputs[0], *b = &args->inputs[1], *o = &args->outputs[0];
    if (a->struct_size != sizeof(tc_view)) return core->set_error(TC_ERR_RUNTIME, "tdev add: view size %u", a->struct_size);
    for (int64_t i = 0; i < numel(o); i++)
        ((float *)o->data)[offset_of(o, i)] =
            ((const float *)a->data)[offset_of(a, i)] + alpha * ((const float *)b->data)[offset_of(b, i)];
    return TC_OK;
}

/* tdev_ext::scale(Tensor self, float factor): out = self * factor, on the CPU and on tdev alike */
static int scale(const tc_kernel_args *args) {
    const double factor = args->args[1].v.f;
    const tc_view *x = &args->inputs[0], *o = &args->outputs[0];
    for (int64_t i = 0; i < numel(o); i++) {
        if (o->dtype == TC_FLOAT64)
            ((double *)o->data)[offset_of(o, i)] = ((const double *)x->data)[offset_of(x, i)] * factor;
        else
            ((float *)o->data)[offset_of(o, i)] = (float)(((const float *)x->data)[offset_of(x, i)] * factor);
    }
    return TC_OK;
}

/* Its backward: grad_self = scale(grad, factor), through the op itself, so that it is differentiable
 * again. The result is not needed; the argument is kept by the core all the same. */
static int32_t scale_id;
static int scale_backward(void *ctx, int32_t op, const tc_value *args, const tc_value *results,
                          tc_tensor *const *grads, tc_tensor **grad_inputs) {
    if (!grads[0] || !args[0].v.tensor || !results[0].v.tensor)
        return core->set_error(TC_ERR_RUNTIME, "tdev_ext::scale backward: missing saved values");
    tc_value call[2] = {{.tag = TC_VALUE_TENSOR, .v.tensor = grads[0]}, {.tag = TC_VALUE_FLOAT, .v.f = args[1].v.f}};
    tc_value out;
    if (core->call_op(op, call, &out)) return TC_FAIL;
    grad_inputs[0] = out.v.tensor;
    return TC_OK;
}

static int init(const tc_core_api *table, char *err, size_t len) {
    core = table;
    const tc_op_def scale_op = {.struct_size = sizeof(tc_op_def),
                                .schema = "tdev_ext::scale(Tensor self, float factor) -> Tensor"};
    int32_t type = core->register_device_type(&device);
    if (type < 0 || core->register_allocator(type, &allocator) || core->register_layout("tdev_blocked") < 0 ||
        core->register_kernel("copy", type, TC_STRIDED, TC_ANY_DTYPE, tdev_copy_kernel) ||
        core->register_kernel("add", type, TC_STRIDED, TC_FLOAT32, tdev_add) ||
        (scale_id = core->register_op(&scale_op)) < 0 ||
        core->register_kernel("tdev_ext::scale", TC_DEVICE_CPU, TC_STRIDED, TC_FLOAT32, scale) ||
        core->register_kernel("tdev_ext::scale", TC_DEVICE_CPU, TC_STRIDED, TC_FLOAT64, scale) ||
        core->register_backward(scale_id, scale_backward, NULL) ||
        core->register_kernel("tdev_ext::scale", type, TC_STRIDED, TC_FLOAT32, scale)) {
        snprintf(err, len, "registration failed");
        return TC_FAIL;
    }
    return TC_OK;
}

static const tc_plugin_desc desc = {
    TC_PLUGIN_DESCRIPTOR_INIT, .name = "test-device", .kind = TC_PLUGIN_KIND_DEVICE, .version = "1.1",
    .init = init,
};

TC_EXPORT const tc_plugin_desc *tc_plugin_entry(void) { return &desc; }
