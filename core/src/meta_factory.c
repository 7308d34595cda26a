/*
 * Meta functions of creation ops (empty, empty_strided, full, arange, range, linspace, logspace) and
 * of fill_, and the checks every creation op makes of its dtype/layout/device/pin_memory arguments. The device itself
 * was decided by the dispatcher from the Device argument (c->device).
 */
#include "core_internal.h"

#include <math.h>
#include <string.h>

int tc_factory_options(const tc_opcall *c, int first, int32_t default_dtype, int32_t *dtype) {
    int32_t requested = tc_arg_enum(c, first);
    if (requested >= TC_NUM_DTYPES) return tc_set_error(TC_ERR_TYPE, "invalid dtype %d", requested);
    *dtype = requested >= 0 ? requested : default_dtype;
    if (c->op->variant == TC_VARIANT_OUT) { /* the out= form computes in out's dtype, as PyTorch's */
        const tc_tensor *out = c->args[c->op->schema.n_args - 1].v.tensor;
        if (requested >= 0 && requested != out->dtype)
            return tc_set_error(TC_ERR_RUNTIME, "dtype %s does not match dtype of out parameter (%s)",
                                tc_dtype_scalar_name(requested), tc_dtype_scalar_name(out->dtype));
        *dtype = out->dtype;
    }
    int32_t layout = tc_arg_enum(c, first + 1);
    if (layout >= tc_layout_count()) return tc_set_error(TC_ERR_RUNTIME, "unknown layout id %d", layout);
    if (layout > TC_STRIDED)
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "%s: layout torch.%s is not supported here (no plugin provides "
                                                    "it)", c->op->schema.name, tc_layout_name(layout));
    if (!tc_device_valid(c->device)) {
        if (c->device.type > 0 && tc_device_count(c->device.type) == 0)
            return tc_set_error(TC_ERR_RUNTIME, "%s device is not available", tc_device_type_name(c->device.type));
        return tc_set_error(TC_ERR_RUNTIME, "invalid device %s:%d (%d device(s) present)",
                            tc_device_type_name(c->device.type), c->device.index, tc_device_count(c->device.type));
    }
    const tc_value *pin = &c->args[first + 3];
    if (pin->tag == TC_VALUE_BOOL && pin->v.b) {
        int32_t cuda = tc_device_type_id("cuda");
        if (cuda < 0 || tc_device_count(cuda) == 0)
            return tc_set_error(TC_ERR_RUNTIME, "Pinned memory requires CUDA, and no CUDA device is available "
                                                "(see torch.cuda.unavailable_reason())");
        if (c->device.type != TC_DEVICE_CPU)
            return tc_set_error(TC_ERR_RUNTIME, "Only dense CPU tensors can be pinned");
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "pinned host memory needs the CUDA plugin's host allocator");
    }
    return TC_OK;
}

/* empty.memory_format(size, *, dtype, layout, device, pin_memory, memory_format) */
int tc_meta_empty(tc_opcall *c, tc_plan *p) {
    int32_t dtype;
    if (tc_factory_options(c, 1, tc_default_dtype(), &dtype)) return TC_FAIL;
    tc_int_list size = tc_arg_ints(c, 0);
    if (tc_shape_check_ndim(size.len)) return TC_FAIL;
    int32_t ndim = (int32_t)size.len;
    for (int32_t d = 0; d < ndim; d++)
        if (size.items[d] < 0) {
            char shape[256];
            tc_shape_format(ndim, size.items, shape, sizeof shape);
            return tc_set_error(TC_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: %s",
                                (long long)size.items[d], shape);
        }
    p->flags |= TC_PLAN_NO_KERNEL;
    int32_t format = tc_arg_enum(c, 5);
    if (format == TC_MEMORY_FORMAT_PRESERVE) return tc_set_error(TC_ERR_RUNTIME, "unsupported memory format Preserve");
    if (format == TC_MEMORY_FORMAT_CHANNELS_LAST || format == TC_MEMORY_FORMAT_CHANNELS_LAST_3D) {
        int32_t rank = format == TC_MEMORY_FORMAT_CHANNELS_LAST ? 4 : 5;
        if (ndim != rank)
            return tc_set_error(TC_ERR_RUNTIME, "required rank %d tensor to use channels_last%s format", rank,
                                rank == 5 ? "_3d" : "");
        /* channels innermost, then the spatial dims, then the batch */
        int64_t strides[5], acc = 1;
        strides[1] = acc;
        acc *= size.items[1] > 1 ? size.items[1] : 1;
        for (int32_t d = ndim - 1; d >= 2; d--) {
            strides[d] = acc;
            acc *= size.items[d] > 1 ? size.items[d] : 1;
        }
        strides[0] = acc;
        return tc_plan_output_strided(p, 0, ndim, size.items, strides, dtype);
    }
    return tc_plan_output(p, 0, ndim, size.items, dtype);
}

/* empty_strided(size, stride, *, dtype, layout, device, pin_memory) */
int tc_meta_empty_strided(tc_opcall *c, tc_plan *p) {
    int32_t dtype;
    if (tc_factory_options(c, 2, tc_default_dtype(), &dtype)) return TC_FAIL;
    tc_int_list size = tc_arg_ints(c, 0), stride = tc_arg_ints(c, 1);
    if (size.len != stride.len)
        return tc_set_error(TC_ERR_RUNTIME, "mismatch in length of strides and shape");
    if (tc_shape_check_ndim(size.len)) return TC_FAIL;
    p->flags |= TC_PLAN_NO_KERNEL;
    return tc_plan_output_strided(p, 0, (int32_t)size.len, size.items, stride.items, dtype);
}

/* A Python number written into a tensor must fit its dtype (PyTorch's checked conversion). */
static int check_fits(tc_scalar v, int32_t dtype) {
    if (tc_scalar_fits(v, dtype)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow", tc_dtype_name(dtype));
}

/* full(size, fill_value, *, dtype, layout, device, pin_memory): dtype None infers bool / int64 /
 * the default float from the value, as PyTorch does; a complex value complex128 under a float64
 * default, else complex64 (PyTorch 1.13's full, unlike its promotion, has no complex32 case). */
int tc_meta_full(tc_opcall *c, tc_plan *p) {
    tc_scalar v = c->args[1].v.scalar;
    int32_t inferred = v.kind == TC_SCALAR_BOOL ? TC_BOOL : v.kind == TC_SCALAR_INT ? TC_INT64 : tc_default_dtype();
    if (v.kind == TC_SCALAR_COMPLEX) inferred = tc_default_dtype() == TC_FLOAT64 ? TC_COMPLEX128 : TC_COMPLEX64;
    int32_t dtype;
    if (tc_factory_options(c, 2, inferred, &dtype) || check_fits(v, dtype)) return TC_FAIL;
    tc_int_list size = tc_arg_ints(c, 0);
    if (tc_shape_check_ndim(size.len)) return TC_FAIL;
    for (int64_t d = 0; d < size.len; d++)
        if (size.items[d] < 0)
            return tc_set_error(TC_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld",
                                (long long)size.items[d]);
    if (tc_plan_output(p, 0, (int32_t)size.len, size.items, dtype)) return TC_FAIL;
    p->dtype = dtype;
    return tc_plan_scalar(p, v);
}

/* fill_.Scalar(self, value): every element, elements that share memory included (one value). */
int tc_meta_fill(tc_opcall *c, tc_plan *p) {
    tc_tensor *self = tc_arg_tensor(c, 0);
    tc_scalar v = c->args[1].v.scalar;
    if (check_fits(v, self->dtype)) return TC_FAIL;
    tc_math_bits_apply_scalar(self->flags, &v); /* the memory of a conjugate view holds the conjugate */
    /* the written tensor may be expanded: fill stores the same value into every alias */
    p->out[0] = p->target[0] = self;
    p->kview[0] = NULL;
    tc_tensor_retain(self);
    p->n_out = 1;
    p->dtype = self->dtype;
    return tc_plan_scalar(p, v);
}

/* The type PyTorch computes arange in (its CPU acc_type): int64 for integer dtypes, float for the
 * 16-bit floats, double otherwise. Bounds and step are converted to it first, so that
 * arange(0, 5, 0.5, dtype=int64) has a step of 0 (an error) rather than a fractional one. */
static int32_t arange_acc_dtype(int32_t dtype) {
    if (!tc_dtype_is_floating(dtype)) return TC_INT64;
    return dtype == TC_FLOAT16 || dtype == TC_BFLOAT16 ? TC_FLOAT32 : TC_FLOAT64;
}

/* arange's and range's checks of their bounds, converted to `acc` (x*): each fits it, the step is
 * neither 0 nor NaN, the bounds are finite and lie in the step's direction. PyTorch words the last
 * error differently for the two ("larger" and "lower" bound). */
static int range_bounds(tc_scalar start, tc_scalar end, tc_scalar step, int32_t acc, const char *which,
                        tc_scalar *xstart, tc_scalar *xend, tc_scalar *xstep) {
    const tc_scalar in[3] = {start, end, step};
    for (int i = 0; i < 3; i++)
        if (!tc_scalar_fits(in[i], acc))
            return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                                tc_dtype_name(acc));
    *xstart = tc_scalar_cast(start, acc), *xend = tc_scalar_cast(end, acc), *xstep = tc_scalar_cast(step, acc);
    const double s = tc_scalar_to_double(*xstart), e = tc_scalar_to_double(*xend), st = tc_scalar_to_double(*xstep);
    if (!(st > 0 || st < 0)) return tc_set_error(TC_ERR_RUNTIME, "step must be nonzero");
    if (!isfinite(s) || !isfinite(e)) return tc_set_error(TC_ERR_RUNTIME, "unsupported range: %g -> %g", s, e);
    if ((st > 0 && e < s) || (st < 0 && e > s))
        return tc_set_error(TC_ERR_RUNTIME, "upper bound and %s bound inconsistent with step sign", which);
    return TC_OK;
}

/* arange(end), arange.start(start, end), arange.start_step(start, end, step), each then *, dtype,
 * layout, device, pin_memory. */
int tc_meta_arange(tc_opcall *c, tc_plan *p) {
    int n_scalars = c->op->schema.n_args - 4 - (c->op->variant == TC_VARIANT_OUT);
    tc_scalar start = TC_SCALAR_OF_INT(0), end, step = TC_SCALAR_OF_INT(1);
    if (n_scalars == 1) {
        end = c->args[0].v.scalar;
    } else {
        start = c->args[0].v.scalar;
        end = c->args[1].v.scalar;
        if (n_scalars == 3) step = c->args[2].v.scalar;
    }
    int32_t inferred = start.kind == TC_SCALAR_FLOAT || end.kind == TC_SCALAR_FLOAT || step.kind == TC_SCALAR_FLOAT ||
                               start.kind == TC_SCALAR_COMPLEX || end.kind == TC_SCALAR_COMPLEX ||
                               step.kind == TC_SCALAR_COMPLEX
                           ? tc_default_dtype() : TC_INT64;
    int32_t dtype;
    if (tc_factory_options(c, n_scalars, inferred, &dtype)) return TC_FAIL;
    if (dtype == TC_BOOL || tc_dtype_is_complex(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"arange_cpu\" not implemented for '%s'", tc_dtype_scalar_name(dtype));
    int32_t acc = arange_acc_dtype(dtype);
    tc_scalar xstart, xend, xstep;
    if (range_bounds(start, end, step, acc, "larger", &xstart, &xend, &xstep)) return TC_FAIL;
    const double st = tc_scalar_to_double(xstep);
    /* The length comes from the unconverted bounds in double, as in PyTorch, except for int64, which
     * uses the converted bounds' exact difference when it fits (doubles lose integers above 2^53). */
    int64_t diff = 0;
    bool exact = dtype == TC_INT64 && !__builtin_sub_overflow(xend.v.i, xstart.v.i, &diff);
    double count = exact ? ceil((double)diff / st)
                         : ceil((tc_scalar_to_double(end) - tc_scalar_to_double(start)) / tc_scalar_to_double(step));
    if (!(count >= 0 && count < 9.2e18)) return tc_set_error(TC_ERR_RUNTIME, "invalid size, possible overflow?");
    /* diff and step have the same sign here and the quotient fits, so this is a ceiling division */
    int64_t n = exact ? diff / xstep.v.i + (diff % xstep.v.i != 0) : (int64_t)count;
    if (tc_plan_output(p, 0, 1, &n, dtype)) return TC_FAIL;
    p->dtype = dtype;
    return tc_plan_scalar(p, xstart) || tc_plan_scalar(p, xstep) ? TC_FAIL : TC_OK;
}

/* range(start, end, step=1, *, dtype, layout, device, pin_memory), deprecated in PyTorch: arange's
 * values with end included. The length is ((end - start) / step) + 1 in arange's type, truncated
 * (an integer division for integer dtypes); the default dtype is the floating one even for integer
 * bounds. The kernel is arange's. */
int tc_meta_range(tc_opcall *c, tc_plan *p) {
    tc_warn("torch.range is deprecated and will be removed in a future release because its behavior is "
            "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
            "[start, end).");
    tc_scalar start = c->args[0].v.scalar, end = c->args[1].v.scalar, step = c->args[2].v.scalar;
    int32_t dtype;
    if (tc_factory_options(c, 3, tc_default_dtype(), &dtype)) return TC_FAIL;
    if (dtype == TC_BOOL || dtype == TC_FLOAT16 || tc_dtype_is_complex(dtype))
        return tc_set_error(TC_ERR_RUNTIME, "\"range_cpu\" not implemented for '%s'", tc_dtype_scalar_name(dtype));
    int32_t acc = arange_acc_dtype(dtype);
    tc_scalar xstart, xend, xstep;
    if (range_bounds(start, end, step, acc, "lower", &xstart, &xend, &xstep)) return TC_FAIL;
    const double s = tc_scalar_to_double(xstart), e = tc_scalar_to_double(xend), st = tc_scalar_to_double(xstep);
    int64_t n;
    if (acc == TC_INT64) {
        int64_t diff;
        if (__builtin_sub_overflow(xend.v.i, xstart.v.i, &diff))
            return tc_set_error(TC_ERR_RUNTIME, "invalid size, possible overflow?");
        n = diff / xstep.v.i + 1; /* same signs: diff / step >= 0, and below INT64_MAX */
    } else {
        /* in the accumulation type: float for the 16-bit floats, double otherwise */
        double count = acc == TC_FLOAT32 ? (double)(float)((float)(e - s) / (float)st) : (e - s) / st;
        if (!(count >= 0 && count < 9.2e18)) return tc_set_error(TC_ERR_RUNTIME, "invalid size, possible overflow?");
        n = (int64_t)count + 1;
    }
    if (tc_plan_output(p, 0, 1, &n, dtype)) return TC_FAIL;
    p->dtype = dtype;
    return tc_plan_scalar(p, xstart) || tc_plan_scalar(p, xstep) ? TC_FAIL : TC_OK;
}

/* linspace's and logspace's refusal of complex bounds for a real dtype, in PyTorch's words */
static int complex_bounds_error(const char *op, int32_t dtype) {
    return tc_set_error(TC_ERR_RUNTIME, "torch.%s(): inferred dtype %s can't be safely cast to passed dtype %s", op,
                        tc_dtype_cpp_name(tc_default_complex_dtype()), tc_dtype_scalar_name(dtype));
}

/* logspace(start, end, steps, base=10.0, *, dtype, layout, device, pin_memory): the kernel gets the
 * bounds as given (it converts them to the dtype itself: a single step is base ** start with start
 * unconverted, as in PyTorch) and the base. */
int tc_meta_logspace(tc_opcall *c, tc_plan *p) {
    tc_scalar start = c->args[0].v.scalar, end = c->args[1].v.scalar;
    int64_t steps = tc_arg_int(c, 2);
    double base = c->args[3].v.f;
    if (steps < 0) return tc_set_error(TC_ERR_RUNTIME, "number of steps must be non-negative");
    int32_t dtype;
    bool complex = start.kind == TC_SCALAR_COMPLEX || end.kind == TC_SCALAR_COMPLEX;
    if (tc_factory_options(c, 4, complex ? tc_default_complex_dtype() : tc_default_dtype(), &dtype)) return TC_FAIL;
    if (complex && !tc_dtype_is_complex(dtype)) return complex_bounds_error("logspace", dtype);
    /* PyTorch 1.13's CPU logspace has no float16, bool or complex32 kernel (its words) */
    if (dtype == TC_BOOL || dtype == TC_FLOAT16 || dtype == TC_COMPLEX32)
        return tc_set_error(TC_ERR_RUNTIME, "\"logspace_cpu\" not implemented for '%s'", tc_dtype_scalar_name(dtype));
    if (!tc_scalar_fits(start, dtype) || !tc_scalar_fits(end, dtype))
        return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                            tc_dtype_name(dtype));
    if (tc_plan_output(p, 0, 1, &steps, dtype)) return TC_FAIL;
    p->dtype = dtype;
    return tc_plan_scalar(p, start) || tc_plan_scalar(p, end) || tc_plan_scalar(p, TC_SCALAR_OF_FLOAT(base))
               ? TC_FAIL : TC_OK;
}

/* linspace(start, end, steps, *, dtype, layout, device, pin_memory) */
int tc_meta_linspace(tc_opcall *c, tc_plan *p) {
    tc_scalar start = c->args[0].v.scalar, end = c->args[1].v.scalar;
    int64_t steps = tc_arg_int(c, 2);
    int32_t dtype;
    if (steps < 0) return tc_set_error(TC_ERR_RUNTIME, "number of steps must be non-negative");
    bool complex = start.kind == TC_SCALAR_COMPLEX || end.kind == TC_SCALAR_COMPLEX;
    if (tc_factory_options(c, 3, complex ? tc_default_complex_dtype() : tc_default_dtype(), &dtype)) return TC_FAIL;
    if (complex && !tc_dtype_is_complex(dtype))
        return complex_bounds_error("linspace", dtype);
    /* PyTorch converts the bounds to the output dtype first (checked: linspace(0, 300, 5, dtype=uint8)
     * fails), so that a uint8 range from -1 starts at 255 and a float16 one at a float16 value. */
    if (!tc_scalar_fits(start, dtype) || !tc_scalar_fits(end, dtype))
        return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
                            tc_dtype_name(dtype));
    if (tc_plan_output(p, 0, 1, &steps, dtype)) return TC_FAIL;
    p->dtype = dtype;
    return tc_plan_scalar(p, tc_scalar_cast(start, dtype)) || tc_plan_scalar(p, tc_scalar_cast(end, dtype))
               ? TC_FAIL : TC_OK;
}
