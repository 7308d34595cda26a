/*
 * PyTorch's lazy conjugation ("math bits"): a tensor may read as the complex conjugate
 * (TC_TENSOR_CONJ) or the negation (TC_TENSOR_NEG) of what its memory holds. x.conj() is then a
 * view that costs nothing until it is read, and the imaginary part of such a view is a view too.
 *
 * Kernels never see the bits. The core presents a flagged input to a kernel as a plain copy
 * (tc_kernel_cast), and a kernel writing into a flagged tensor writes a plain temporary that is
 * then copied in (tc_plan_output). Every copy between tensors whose bits differ applies the
 * difference to the written memory afterwards; both operations are involutions that commute, so
 * applying a bit and undoing it are the same operation.
 */
#include "core_internal.h"

/* t's memory, with the conjugation and/or negation in `bits` applied in place (t's own bits are not
 * looked at: the kernels see memory). */
static int apply_bits(tc_tensor *t, uint32_t bits) {
    if (!tc_dtype_is_complex(t->dtype)) bits &= ~TC_TENSOR_CONJ; /* the conjugate of a real value is itself */
    int32_t kernels[2], n = 0;
    if (bits & TC_TENSOR_CONJ) kernels[n++] = TC_KERNEL_conj_physical;
    if (bits & TC_TENSOR_NEG) kernels[n++] = TC_KERNEL_neg;
    for (int32_t i = 0; i < n; i++) {
        tc_kernel_run run = {.kernel = kernels[i], .backend = tc_backend_of(t->device.type, t->layout),
                             .dtype = t->dtype, .inputs = &t, .n_inputs = 1, .outputs = &t, .n_outputs = 1,
                             .schema_op = -1};
        if (tc_kernel_invoke(&run)) return TC_FAIL;
    }
    return TC_OK;
}

int tc_math_bits_copied(tc_tensor *dst, const tc_tensor *src) {
    uint32_t diff = (dst->flags ^ src->flags) & TC_TENSOR_MATH_BITS;
    return diff ? apply_bits(dst, diff) : TC_OK;
}

void tc_math_bits_apply_scalar(uint32_t bits, tc_scalar *s) {
    if ((bits & TC_TENSOR_CONJ) && s->kind == TC_SCALAR_COMPLEX) s->imag = -s->imag;
    if (!(bits & TC_TENSOR_NEG)) return;
    if (s->kind == TC_SCALAR_COMPLEX) s->imag = -s->imag;
    if (s->kind == TC_SCALAR_FLOAT || s->kind == TC_SCALAR_COMPLEX)
        s->v.f = -s->v.f;
    else
        s->v.i = (int64_t)(0 - (uint64_t)s->v.i);
}

tc_tensor *tc_complex_as_real(tc_tensor *t, int32_t extra_dim) {
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS], offset;
    if (tc_shape_check_ndim(t->ndim + (extra_dim ? 1 : 0))) return NULL;
    if (__builtin_mul_overflow(t->offset, 2, &offset))
        return tc_set_error(TC_ERR_RUNTIME, "storage offset overflow"), NULL;
    for (int32_t d = 0; d < t->ndim; d++) {
        sizes[d] = t->sizes[d];
        if (__builtin_mul_overflow(t->strides[d], 2, &strides[d]))
            return tc_set_error(TC_ERR_RUNTIME, "stride overflow"), NULL;
    }
    int32_t ndim = t->ndim;
    if (extra_dim) {
        sizes[ndim] = 2;
        strides[ndim++] = 1;
    }
    tc_tensor *v = tc_tensor_restride(t, ndim, sizes, strides, offset);
    if (!v) return NULL;
    v->dtype = tc_dtype_to_real(t->dtype);
    v->flags &= ~TC_TENSOR_CONJ; /* a real tensor has nothing to conjugate; NEG still holds per part */
    return v;
}
