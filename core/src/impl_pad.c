/*
 * Padding composed of other ops: constant_pad_nd (a tensor filled with the value, the input copied
 * into its middle; negative pads crop) and its backward (the same with the pads negated: a crop),
 * and pad, F.pad's front door choosing the op of a mode.
 */
#include "core_internal.h"

#include <stdlib.h>
#include <string.h>

/* The padded sizes; pad pairs (left, right) run from the last dim backwards, as F.pad's do. */
static int padded_sizes(const tc_tensor *t, tc_int_list pad, int64_t *sizes) {
    if (pad.len % 2)
        return tc_set_error(TC_ERR_RUNTIME, "Length of pad must be even but instead it equals %lld", (long long)pad.len);
    if (pad.len / 2 > t->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "Length of pad should be no more than twice the number of dimensions of "
                                            "the input. Pad length is %lld while the input has %d dimensions.",
                            (long long)pad.len, t->ndim);
    for (int32_t d = 0; d < t->ndim; d++) sizes[d] = t->sizes[d];
    for (int64_t i = 0; i < pad.len / 2; i++) {
        int32_t d = t->ndim - 1 - (int32_t)i;
        int64_t l = pad.items[2 * i], r = pad.items[2 * i + 1], size;
        if (__builtin_add_overflow(t->sizes[d], l, &size) || __builtin_add_overflow(size, r, &size))
            return tc_set_error(TC_ERR_RUNTIME, "padding is too large");
        if (size < 0)
            return tc_set_error(TC_ERR_RUNTIME, "The input size %lld, plus negative padding %lld and %lld resulted in "
                                                "a negative output size, which is invalid. Check dimension %d of your "
                                                "input.", (long long)t->sizes[d], (long long)l, (long long)r, d);
        sizes[d] = size;
    }
    return TC_OK;
}

/* t narrowed along the padded dims: by the negative pads (`crop`) or by the positive ones. */
static tc_tensor *narrowed(tc_tensor *t, tc_int_list pad, bool crop) {
    tc_tensor_retain(t);
    for (int64_t i = 0; i < pad.len / 2 && t; i++) {
        int32_t d = t->ndim - 1 - (int32_t)i;
        int64_t l = pad.items[2 * i], r = pad.items[2 * i + 1];
        int64_t start = crop ? (l < 0 ? -l : 0) : (l > 0 ? l : 0);
        int64_t cut = crop ? (r < 0 ? -r : 0) : (r > 0 ? r : 0);
        if (start == 0 && cut == 0) continue;
        int64_t end = t->sizes[d] - cut;
        if (end < start) end = start;
        tc_tensor *s = tc_slice_Tensor(t, d, &start, &end, 1);
        tc_tensor_release(t);
        t = s;
    }
    return t;
}

/* constant_pad_nd(self, pad, value) */
int tc_impl_constant_pad_nd(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list pad = tc_arg_ints(c, 1);
    int64_t sizes[TC_MAX_DIMS];
    if (padded_sizes(self, pad, sizes)) return TC_FAIL;
    tc_tensor *out = tc_full((tc_int_list){sizes, self->ndim}, c->args[2].v.scalar, self->dtype, -1, &self->device,
                             NULL);
    if (!out) return TC_FAIL;
    tc_tensor *src = narrowed(self, pad, true), *dst = src ? narrowed(out, pad, false) : NULL;
    tc_tensor *done = NULL;
    if (dst && (tc_tensor_numel(dst) == 0 || (done = tc_copy_(dst, src, false)))) {
        tc_tensor_release(done);
        tc_tensor_release(src);
        tc_tensor_release(dst);
        return tc_return(c, out);
    }
    tc_tensor_release(src);
    tc_tensor_release(dst);
    tc_tensor_release(out);
    return TC_FAIL;
}

/* constant_pad_nd_backward(grad, pad): the padded region dropped again. */
int tc_impl_constant_pad_nd_backward(tc_opcall *c) {
    tc_int_list pad = tc_arg_ints(c, 1);
    int64_t *neg = malloc(sizeof(int64_t) * (size_t)(pad.len ? pad.len : 1));
    if (!neg) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    for (int64_t i = 0; i < pad.len; i++) neg[i] = pad.items[i] == INT64_MIN ? INT64_MAX : -pad.items[i];
    tc_tensor *r = tc_constant_pad_nd(tc_arg_tensor(c, 0), (tc_int_list){neg, pad.len}, TC_SCALAR_OF_INT(0));
    free(neg);
    return tc_return(c, r);
}

/* pad(self, pad, mode, value): constant_pad_nd, or the reflection / replication / circular op of the
 * padded dims (PyTorch's _pad_enum). */
int tc_impl_pad(tc_opcall *c) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_int_list pad = tc_arg_ints(c, 1);
    const char *mode = c->args[2].v.s;
    bool has_value = !tc_arg_none(c, 3);
    double value = has_value ? c->args[3].v.f : 0.0;
    static const char *const modes[4] = {"constant", "reflect", "replicate", "circular"};
    int m = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(mode, modes[i]) == 0) m = i;
    if (m < 0) return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "Unrecognised padding mode %s", mode);
    if (pad.len % 2) return tc_set_error(TC_ERR_RUNTIME, "Padding length must be divisible by 2");
    if (pad.len > 2 * (int64_t)self->ndim) return tc_set_error(TC_ERR_RUNTIME, "Padding length too large");
    if (m == 0) return tc_return(c, tc_constant_pad_nd(self, pad, TC_SCALAR_OF_FLOAT(value)));
    if (has_value && value != 0)
        return tc_set_error(TC_ERR_RUNTIME, "Padding mode \"%s\" doesn't take in value argument", mode);
    int32_t nd = self->ndim;
    if (pad.len == 2 && (nd == 2 || nd == 3))
        return tc_return(c, m == 1 ? tc_reflection_pad1d(self, pad) : m == 2 ? tc_replication_pad1d(self, pad)
                                                                             : tc__pad_circular(self, pad));
    if (pad.len == 4 && (nd == 3 || nd == 4))
        return tc_return(c, m == 1 ? tc_reflection_pad2d(self, pad) : m == 2 ? tc_replication_pad2d(self, pad)
                                                                             : tc__pad_circular(self, pad));
    if (pad.len == 6 && (nd == 4 || nd == 5))
        return tc_return(c, m == 1 ? tc_reflection_pad3d(self, pad) : m == 2 ? tc_replication_pad3d(self, pad)
                                                                             : tc__pad_circular(self, pad));
    return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported "
                                                "for now");
}
