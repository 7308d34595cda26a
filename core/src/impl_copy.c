/*
 * Copies and conversions: copy_ (within a device through the copy kernel, between devices through
 * the device plugins' `copy`), _to_copy and the `to` overloads over it, clone, contiguous, zero_,
 * and reading a one-element tensor (_local_scalar_dense, behind .item()).
 */
#include "core_internal.h"

/* PyTorch warns once per process (one TORCH_WARN_ONCE, which any/all of complex input reach too). */
void tc_warn_complex_to_real(void) {
    static atomic_bool warned;
    if (!atomic_exchange(&warned, true)) tc_warn("Casting complex values to real discards the imaginary part");
}

#include <stdlib.h>
#include <string.h>

static bool same_device(tc_device a, tc_device b) { return a.type == b.type && a.index == b.index; }

/* The device plugin whose `copy` moves bytes between a and b: the non-CPU side (dst's when both). */
static const tc_device_type_desc *copier(tc_device dst, tc_device src) {
    int32_t type = dst.type != TC_DEVICE_CPU ? dst.type : src.type;
    const tc_device_type_desc *d = tc_device_desc(type);
    return d && d->copy ? d : NULL;
}

/* src, converted to dst's dtype, broadcast to dst's sizes and dense, on src's device: what crosses. */
static tc_tensor *staged_source(tc_tensor *dst, tc_tensor *src) {
    tc_tensor *expanded = tc_expand_to(src, dst->ndim, dst->sizes);
    if (!expanded) return NULL;
    if (expanded->dtype == dst->dtype && tc_tensor_is_contiguous(expanded) && !(src->flags & TC_TENSOR_MATH_BITS))
        return expanded;
    tc_tensor *dense = tc_empty(dst->ndim, dst->sizes, dst->dtype, src->device);
    if (dense && tc_kernel_copy(dense, expanded)) {
        tc_tensor_release(dense);
        dense = NULL;
    }
    tc_tensor_release(expanded);
    return dense;
}

static int copy_across(tc_tensor *dst, tc_tensor *src) {
    const tc_device_type_desc *d = copier(dst->device, src->device);
    if (!d)
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "copy between %s and %s is not available",
                            tc_device_type_name(src->device.type), tc_device_type_name(dst->device.type));
    tc_tensor *from = staged_source(dst, src);
    if (!from) return TC_FAIL;
    tc_tensor *to = tc_tensor_is_contiguous(dst) && !(dst->flags & TC_TENSOR_MATH_BITS) ? (tc_tensor_retain(dst), dst)
                                                 : tc_empty(dst->ndim, dst->sizes, dst->dtype, dst->device);
    int rc = TC_FAIL;
    if (to) {
        size_t nbytes = (size_t)tc_tensor_numel(to) * tc_dtype_size(to->dtype);
        tc_error_clear();
        rc = nbytes ? d->copy(tc_tensor_data(to), to->device, tc_tensor_data(from), from->device, nbytes, NULL)
                    : TC_OK;
        if (rc != TC_OK && !tc_last_error_kind())
            tc_set_error(TC_ERR_RUNTIME, "copy from %s to %s failed", tc_device_type_name(src->device.type),
                         tc_device_type_name(dst->device.type));
        if (rc == TC_OK && to != dst) rc = tc_kernel_copy(dst, to);
    }
    tc_tensor_release(to);
    tc_tensor_release(from);
    return rc;
}

/* copy_(self, src, non_blocking): src broadcast to self's sizes, converted to its dtype. */
int tc_impl_copy_(tc_opcall *c) {
    tc_tensor *dst = tc_arg_tensor(c, 0), *src = tc_arg_tensor(c, 1);
    int32_t n;
    int64_t shape[TC_MAX_DIMS];
    if (tc_shape_broadcast(dst->ndim, dst->sizes, src->ndim, src->sizes, &n, shape)) return TC_FAIL;
    if (!tc_shape_equal(n, shape, dst->ndim, dst->sizes)) {
        tc_tensor *e = tc_expand_to(src, dst->ndim, dst->sizes); /* raises PyTorch's message */
        tc_tensor_release(e);
        if (e) return tc_set_error(TC_ERR_RUNTIME, "copy_: cannot broadcast the source to the destination");
        return TC_FAIL;
    }
    if (tc_check_internal_overlap(dst)) return TC_FAIL;
    if (tc_dtype_is_complex(src->dtype) && !tc_dtype_is_complex(dst->dtype)) tc_warn_complex_to_real();
    int rc;
    if (same_device(dst->device, src->device) || (src->ndim == 0 && src->device.type == TC_DEVICE_CPU &&
                                                    dst->device.type == TC_DEVICE_CPU)) {
        int overlap = tc_overlap(dst, src);
        if (overlap == TC_OVERLAP_FULL && dst->dtype == src->dtype &&
            !((dst->flags ^ src->flags) & TC_TENSOR_MATH_BITS))
            return tc_return(c, (tc_tensor_retain(dst), dst));
        if (overlap == TC_OVERLAP_PARTIAL) return tc_check_partial_overlap(dst, src);
        tc_tensor *from = src;
        if (overlap == TC_OVERLAP_TOO_HARD) { /* read everything before writing */
            if (!(from = tc_empty(src->ndim, src->sizes, src->dtype, src->device))) return TC_FAIL;
            if (tc_kernel_copy(from, src)) {
                tc_tensor_release(from);
                return TC_FAIL;
            }
        }
        rc = tc_kernel_copy(dst, from);
        if (from != src) tc_tensor_release(from);
    } else {
        rc = copy_across(dst, src);
    }
    if (rc) return TC_FAIL;
    tc_tensor_bump_version(dst);
    tc_tensor_retain(dst);
    return tc_return(c, dst);
}

/* A fresh tensor like self for a conversion: preserving self's memory order unless a format is asked. */
static tc_tensor *conversion_target(tc_tensor *self, int32_t dtype, tc_device device, int32_t format) {
    if (format == TC_MEMORY_FORMAT_CONTIGUOUS) return tc_empty(self->ndim, self->sizes, dtype, device);
    if (format == TC_MEMORY_FORMAT_CHANNELS_LAST || format == TC_MEMORY_FORMAT_CHANNELS_LAST_3D) {
        tc_tensor *t = tc_empty_memory_format((tc_int_list){self->sizes, self->ndim}, dtype, TC_STRIDED, &device,
                                              NULL, format);
        return t;
    }
    return tc_empty_preserving(self, dtype, device);
}

/* _to_copy(self, *, dtype, layout, device, pin_memory, non_blocking, memory_format) */
int tc_impl__to_copy(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dtype = tc_arg_enum(c, 1), layout = tc_arg_enum(c, 2);
    if (dtype >= TC_NUM_DTYPES) return tc_set_error(TC_ERR_TYPE, "invalid dtype %d", dtype);
    if (layout > TC_STRIDED)
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "conversion to layout torch.%s is not supported here",
                            tc_layout_name(layout));
    tc_device device = tc_arg_none(c, 3) ? self->device : c->args[3].v.device;
    const tc_value *pin = &c->args[4];
    if (pin->tag == TC_VALUE_BOOL && pin->v.b)
        return tc_set_error(TC_ERR_RUNTIME, "Pinned memory requires CUDA, and no CUDA device is available");
    if (!tc_device_valid(device))
        return tc_set_error(TC_ERR_RUNTIME, "%s device is not available%s%s", tc_device_type_name(device.type),
                            tc_device_unavailable_reason(tc_device_type_name(device.type)) ? ": " : "",
                            tc_device_unavailable_reason(tc_device_type_name(device.type))
                                ? tc_device_unavailable_reason(tc_device_type_name(device.type)) : "");
    tc_tensor *out = conversion_target(self, dtype < 0 ? self->dtype : dtype, device, tc_arg_enum(c, 6));
    if (!out) return TC_FAIL;
    out->flags = self->flags & TC_TENSOR_WRAPPED_NUMBER;
    tc_tensor *r = tc_copy_(out, self, tc_arg_bool(c, 5));
    tc_tensor_release(r);
    if (!r) {
        tc_tensor_release(out);
        return TC_FAIL;
    }
    return tc_return(c, out);
}

/* The `to` overloads: self itself when nothing changes and no copy is asked for. */
static int to_common(tc_opcall *c, int32_t dtype, const tc_device *device, bool copy, bool non_blocking,
                     int32_t format) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    bool same_dtype = dtype < 0 || dtype == self->dtype;
    bool same_dev = !device || same_device(*device, self->device) ||
                    (device->type == TC_DEVICE_CPU && self->device.type == TC_DEVICE_CPU);
    bool same_format = format < 0 || format == TC_MEMORY_FORMAT_PRESERVE ||
                       (format == TC_MEMORY_FORMAT_CONTIGUOUS && tc_tensor_is_contiguous(self));
    if (same_dtype && same_dev && same_format && !copy) return tc_return(c, (tc_tensor_retain(self), self));
    tc_device target = same_dev ? self->device : *device;
    return tc_return(c, tc__to_copy(self, dtype, -1, &target, NULL, non_blocking, format));
}

/* to.dtype_layout(self, *, dtype, layout, device, pin_memory, non_blocking, copy, memory_format) */
int tc_impl_to_dtype_layout(tc_opcall *c) {
    int32_t layout = tc_arg_enum(c, 2);
    if (layout > TC_STRIDED)
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "conversion to layout torch.%s is not supported here",
                            tc_layout_name(layout));
    const tc_value *pin = &c->args[4];
    if (pin->tag == TC_VALUE_BOOL && pin->v.b)
        return tc_set_error(TC_ERR_RUNTIME, "Pinned memory requires CUDA, and no CUDA device is available");
    return to_common(c, tc_arg_enum(c, 1), tc_arg_none(c, 3) ? NULL : &c->args[3].v.device, tc_arg_bool(c, 6),
                     tc_arg_bool(c, 5), tc_arg_enum(c, 7));
}

/* to.device(self, device, dtype, non_blocking, copy, memory_format) */
int tc_impl_to_device(tc_opcall *c) {
    return to_common(c, tc_arg_enum(c, 2), &c->args[1].v.device, tc_arg_bool(c, 4), tc_arg_bool(c, 3),
                     tc_arg_enum(c, 5));
}

/* to.dtype(self, dtype, non_blocking, copy, memory_format) */
int tc_impl_to_dtype(tc_opcall *c) {
    return to_common(c, tc_arg_enum(c, 1), NULL, tc_arg_bool(c, 3), tc_arg_bool(c, 2), tc_arg_enum(c, 4));
}

/* to.other(self, other, non_blocking, copy, memory_format) */
int tc_impl_to_other(tc_opcall *c) {
    tc_tensor *other = tc_arg_tensor(c, 1);
    return to_common(c, other->dtype, &other->device, tc_arg_bool(c, 3), tc_arg_bool(c, 2), tc_arg_enum(c, 4));
}

/* clone(self, *, memory_format) */
int tc_impl_clone(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_tensor *out = conversion_target(self, self->dtype, self->device, tc_arg_enum(c, 1));
    if (!out) return TC_FAIL;
    tc_tensor *r = tc_copy_(out, self, false);
    tc_tensor_release(r);
    if (!r) {
        tc_tensor_release(out);
        return TC_FAIL;
    }
    return tc_return(c, out);
}

/* contiguous(self, *, memory_format) */
int tc_impl_contiguous(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t format = tc_arg_enum(c, 1);
    if (format == TC_MEMORY_FORMAT_PRESERVE)
        return tc_set_error(TC_ERR_RUNTIME, "preserve memory format is unsupported by the contiguous operator");
    if (format == TC_MEMORY_FORMAT_CONTIGUOUS && tc_tensor_is_contiguous(self))
        return tc_return(c, (tc_tensor_retain(self), self));
    return tc_return(c, tc_clone(self, format));
}

/* zero_(self) */
int tc_impl_zero_(tc_opcall *c) { return tc_return(c, tc_fill__Scalar(tc_arg_tensor(c, 0), TC_SCALAR_OF_INT(0))); }

/* _local_scalar_dense(self) -> Scalar: the one element, read on the host. */
int tc_impl__local_scalar_dense(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int64_t n = tc_tensor_numel(self);
    if (n != 1)
        return tc_set_error(TC_ERR_VALUE, "only one element tensors can be converted to Python scalars (this one has "
                                          "%lld)", (long long)n);
    tc_tensor *host = self;
    if (self->device.type != TC_DEVICE_CPU) {
        if (self->device.type == tc_device_type_id("meta"))
            return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "Tensor.item() cannot be called on meta tensors");
        if (!(host = tc__to_copy(self, -1, -1, &(tc_device){TC_DEVICE_CPU, 0}, NULL, false, -1))) return TC_FAIL;
    }
    tc_scalar s;
    int rc = tc_tensor_get(host, 0, &s);
    if (host != self) tc_tensor_release(host);
    if (rc) return TC_FAIL;
    c->outs[0] = (tc_value){.tag = TC_VALUE_SCALAR, .v.scalar = s};
    return TC_OK;
}
