/*
 * The kernel registry: a dense table indexed by (kernel, backend, dtype), so a lookup at run time is
 * three array indexes. Slot TC_NUM_DTYPES of each row holds the any-dtype kernel.
 */
#include "core_internal.h"

#include <stdio.h>
#include <string.h>

#define N_BACKENDS (TC_MAX_DEVICE_TYPES * TC_NUM_LAYOUTS)

static tc_kernel_fn kernels[TC_NUM_KERNELS][N_BACKENDS][TC_NUM_DTYPES + 1];

int32_t tc_dispatch_kernel_id(const char *name) {
    for (int32_t k = 0; name && k < TC_NUM_KERNELS; k++)
        if (strcmp(tc_kernel_names[k], name) == 0) return k;
    return -1;
}

int32_t tc_dispatch_check(const char *kernel, int32_t device_type, int32_t layout, int32_t dtype,
                          tc_kernel_fn fn) {
    int32_t k = tc_dispatch_kernel_id(kernel);
    if (k < 0) return tc_set_error(TC_ERR_VALUE, "register_kernel: the core has no op '%s'", kernel ? kernel : "(null)");
    if (device_type < 0 || device_type >= TC_MAX_DEVICE_TYPES || layout < 0 || layout >= TC_NUM_LAYOUTS)
        return tc_set_error(TC_ERR_VALUE, "register_kernel(%s): bad device type %d or layout %d", kernel,
                            device_type, layout);
    if (dtype != TC_ANY_DTYPE && (dtype < 0 || dtype >= TC_NUM_DTYPES))
        return tc_set_error(TC_ERR_VALUE, "register_kernel(%s): bad dtype %d", kernel, dtype);
    if (!fn) return tc_set_error(TC_ERR_VALUE, "register_kernel(%s): NULL kernel", kernel);
    return k;
}

int tc_dispatch_register(const char *kernel, int32_t device_type, int32_t layout, int32_t dtype,
                         tc_kernel_fn fn) {
    int32_t k = tc_dispatch_check(kernel, device_type, layout, dtype, fn);
    if (k < 0) return TC_FAIL;
    kernels[k][device_type * TC_NUM_LAYOUTS + layout][dtype == TC_ANY_DTYPE ? TC_NUM_DTYPES : dtype] = fn;
    return TC_OK;
}

static void list_registered(int32_t kernel, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = 0;
    for (int b = 0; b < N_BACKENDS; b++) {
        for (int d = 0; d <= TC_NUM_DTYPES; d++) {
            if (!kernels[kernel][b][d] || used >= len) continue;
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s/%s", used ? ", " : "",
                                     tc_device_type_name(b / TC_NUM_LAYOUTS),
                                     b % TC_NUM_LAYOUTS ? "(sparse)" : "",
                                     d == TC_NUM_DTYPES ? "any" : tc_dtype_name(d));
        }
    }
    if (!used) snprintf(buf, len, "nothing (is the device plugin loaded? see torch.backends.plugins())");
}

tc_kernel_fn tc_dispatch_find(int32_t kernel, tc_device device, int32_t layout, int32_t dtype) {
    int32_t backend = device.type * TC_NUM_LAYOUTS + layout;
    tc_kernel_fn fn = kernels[kernel][backend][dtype];
    if (fn) return fn;
    fn = kernels[kernel][backend][TC_NUM_DTYPES];
    if (fn) return fn;
    char registered[1024];
    list_registered(kernel, registered, sizeof registered);
    const char *reason = tc_device_unavailable_reason(tc_device_type_name(device.type));
    tc_set_error(TC_ERR_NOT_IMPLEMENTED, "\"%s\" not implemented for '%s' on %s%s%s; registered: %s",
                 tc_kernel_names[kernel], tc_dtype_name(dtype), tc_device_type_name(device.type),
                 reason ? " (" : "", reason ? reason : "", registered);
    return NULL;
}

static void fill_view(tc_view *v, const tc_tensor *t) {
    v->data = tc_tensor_data(t);
    v->sizes = t->sizes;
    v->strides = t->strides;
    v->ndim = t->ndim;
    v->dtype = t->dtype;
    v->device = t->device;
}

/* Strides that present t with the output's shape: 0 along broadcast dims. The core checked that the
 * shapes broadcast. */
static void broadcast_strides(const tc_tensor *t, const tc_tensor *out, int64_t *strides) {
    for (int32_t i = 0; i < out->ndim; i++) {
        int32_t j = t->ndim - out->ndim + i;
        strides[i] = (j >= 0 && t->sizes[j] == out->sizes[i]) ? t->strides[j] : 0;
    }
}

int tc_dispatch_run(int32_t kernel, int32_t dtype, tc_tensor *const *inputs, int n_in,
                    tc_tensor *const *outputs, int n_out, const tc_scalar *scalars, int n_scalars,
                    const int64_t *ints, int n_ints, bool broadcast) {
    const tc_tensor *first = n_out ? outputs[0] : inputs[0];
    tc_kernel_fn fn = tc_dispatch_find(kernel, first->device, first->layout, dtype);
    if (!fn) return TC_FAIL;
    tc_view in_views[TC_CALL_MAX_TENSORS], out_views[TC_CALL_MAX_TENSORS];
    int64_t strides[TC_CALL_MAX_TENSORS][TC_MAX_DIMS];
    for (int i = 0; i < n_in; i++) {
        fill_view(&in_views[i], inputs[i]);
        if (broadcast) {
            broadcast_strides(inputs[i], outputs[0], strides[i]);
            in_views[i].ndim = outputs[0]->ndim;
            in_views[i].sizes = outputs[0]->sizes;
            in_views[i].strides = strides[i];
        }
    }
    for (int i = 0; i < n_out; i++) fill_view(&out_views[i], outputs[i]);
    tc_kernel_args args = {
        .struct_size = sizeof(tc_kernel_args),
        .op = kernel,
        .n_inputs = n_in,
        .n_outputs = n_out,
        .inputs = in_views,
        .outputs = out_views,
        .n_scalars = n_scalars,
        .n_ints = n_ints,
        .scalars = scalars,
        .ints = ints,
        .stream = NULL,
    };
    tc_error_clear();
    if (fn(&args) == TC_OK) return TC_OK;
    if (tc_last_error_kind() == TC_ERR_NONE)
        tc_set_error(TC_ERR_RUNTIME, "kernel \"%s\" failed without saying why", tc_kernel_names[kernel]);
    return TC_FAIL;
}
