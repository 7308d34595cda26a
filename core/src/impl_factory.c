/*
 * Creation ops composed of others: zeros and ones (full), the *_like forms (a tensor like self:
 * same sizes, memory order, dtype and device unless given), the new_* methods (self's dtype and
 * device), and eye (zeros with a diagonal view filled).
 */
#include "core_internal.h"

static const tc_device *opt_device(const tc_opcall *c, int i) {
    return tc_arg_none(c, i) ? NULL : &c->args[i].v.device;
}

static const bool *opt_bool(const tc_opcall *c, int i) { return tc_arg_none(c, i) ? NULL : &c->args[i].v.b; }

/* zeros/ones(size, *, dtype, layout, device, pin_memory) */
static int filled(tc_opcall *c, int64_t value) {
    int32_t dtype = tc_arg_enum(c, 1);
    return tc_return(c, tc_full(tc_arg_ints(c, 0), TC_SCALAR_OF_INT(value), dtype < 0 ? tc_default_dtype() : dtype,
                                tc_arg_enum(c, 2), opt_device(c, 3), opt_bool(c, 4)));
}

int tc_impl_zeros(tc_opcall *c) { return filled(c, 0); }
int tc_impl_ones(tc_opcall *c) { return filled(c, 1); }

/* empty_like(self, *, dtype, layout, device, pin_memory, memory_format), and the others over it;
 * `first` is the index of the dtype argument. */
static tc_tensor *like(tc_opcall *c, int first) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dtype = tc_arg_enum(c, first), layout = tc_arg_enum(c, first + 1), format = tc_arg_enum(c, first + 4);
    if (layout > TC_STRIDED)
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "%s: layout torch.%s is not supported here", c->op->schema.name,
                            tc_layout_name(layout)), NULL;
    const bool *pin = opt_bool(c, first + 3);
    if (pin && *pin) return tc_set_error(TC_ERR_RUNTIME, "Pinned memory requires CUDA, and no CUDA device is available"), NULL;
    tc_device device = tc_arg_none(c, first + 2) ? self->device : c->args[first + 2].v.device;
    if (!tc_device_valid(device))
        return tc_set_error(TC_ERR_RUNTIME, "%s device is not available", tc_device_type_name(device.type)), NULL;
    if (dtype < 0) dtype = self->dtype;
    if (format < 0 || format == TC_MEMORY_FORMAT_PRESERVE) return tc_empty_preserving(self, dtype, device);
    return tc_empty_memory_format((tc_int_list){self->sizes, self->ndim}, dtype, TC_STRIDED, &device, NULL, format);
}

static int filled_like(tc_opcall *c, tc_scalar value, int first) {
    tc_tensor *t = like(c, first);
    tc_tensor *r = t ? tc_fill__Scalar(t, value) : NULL;
    tc_tensor_release(r);
    if (!r) {
        tc_tensor_release(t);
        return TC_FAIL;
    }
    return tc_return(c, t);
}

int tc_impl_empty_like(tc_opcall *c) { return tc_return(c, like(c, 1)); }
int tc_impl_full_like(tc_opcall *c) { return filled_like(c, c->args[1].v.scalar, 2); }
int tc_impl_zeros_like(tc_opcall *c) { return filled_like(c, TC_SCALAR_OF_INT(0), 1); }
int tc_impl_ones_like(tc_opcall *c) { return filled_like(c, TC_SCALAR_OF_INT(1), 1); }

/* new_*(self, size[, fill_value], *, dtype, layout, device, pin_memory): self's dtype and device. */
static int newly(tc_opcall *c, const tc_scalar *value, int first) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    int32_t dtype = tc_arg_enum(c, first);
    const tc_device *device = opt_device(c, first + 2);
    if (dtype < 0) dtype = self->dtype;
    if (!device) device = &self->device;
    if (!value)
        return tc_return(c, tc_empty_memory_format(tc_arg_ints(c, 1), dtype, tc_arg_enum(c, first + 1), device,
                                                   opt_bool(c, first + 3), -1));
    return tc_return(c, tc_full(tc_arg_ints(c, 1), *value, dtype, tc_arg_enum(c, first + 1), device,
                                opt_bool(c, first + 3)));
}

/* `first`: where the dtype argument is (after fill_value for new_full) */
int tc_impl_new_empty(tc_opcall *c) { return newly(c, NULL, 2); }
int tc_impl_new_full(tc_opcall *c) { return newly(c, &c->args[2].v.scalar, 3); }
int tc_impl_new_zeros(tc_opcall *c) { return newly(c, &TC_SCALAR_OF_INT(0), 2); }
int tc_impl_new_ones(tc_opcall *c) { return newly(c, &TC_SCALAR_OF_INT(1), 2); }

/* eye(n[, m], *, dtype, layout, device, pin_memory): zeros with the diagonal (stride m + 1) set. */
static int identity(tc_opcall *c, int64_t n, int64_t m, int first) {
    if (n < 0) return tc_set_error(TC_ERR_RUNTIME, "n must be greater or equal to 0, got %lld", (long long)n);
    if (m < 0) return tc_set_error(TC_ERR_RUNTIME, "m must be greater or equal to 0, got %lld", (long long)m);
    int32_t dtype = tc_arg_enum(c, first);
    tc_tensor *out = tc_full(TC_INTS(n, m), TC_SCALAR_OF_INT(0), dtype < 0 ? tc_default_dtype() : dtype,
                             tc_arg_enum(c, first + 1), opt_device(c, first + 2), opt_bool(c, first + 3));
    if (!out) return TC_FAIL;
    int64_t diag = n < m ? n : m;
    if (diag > 0) {
        tc_tensor *d = tc_as_strided(out, TC_INTS(diag), TC_INTS(m + 1), TC_SOME_INT(0));
        tc_tensor *r = d ? tc_fill__Scalar(d, TC_SCALAR_OF_INT(1)) : NULL;
        tc_tensor_release(d);
        tc_tensor_release(r);
        if (!r) {
            tc_tensor_release(out);
            return TC_FAIL;
        }
    }
    return tc_return(c, out);
}

int tc_impl_eye(tc_opcall *c) { return identity(c, tc_arg_int(c, 0), tc_arg_int(c, 0), 1); }
int tc_impl_eye_m(tc_opcall *c) { return identity(c, tc_arg_int(c, 0), tc_arg_int(c, 1), 2); }
