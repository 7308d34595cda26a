/*
 * Complex tensors' views and the composites over them, as PyTorch 1.13 builds them:
 * view_as_real / view_as_complex (the same memory as pairs of reals, or the other way round),
 * real / imag (a select of view_as_real, so autograd records SelectBackward0 as PyTorch does),
 * conj (a view with the conj bit, math_bits.c), _neg_view, resolve_conj / resolve_neg (a copy
 * without the bit), conj_physical, and the is_conj / is_neg facts.
 */
#include "core_internal.h"

/* v, made from t by a view op, remembers the root of t's chain of views (see impl_views.c). */
static int view_of(tc_opcall *c, tc_tensor *t, tc_tensor *v) {
    if (!v) return TC_FAIL;
    v->base = t->base ? t->base : t;
    tc_tensor_retain(v->base);
    return tc_return(c, v);
}

static int self_result(tc_opcall *c, tc_tensor *t) {
    tc_tensor_retain(t);
    return tc_return(c, t);
}

/* view_as_real(self) */
int tc_impl_view_as_real(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (!tc_dtype_is_complex(t->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "view_as_real is only supported for complex tensors");
    if (t->flags & TC_TENSOR_CONJ)
        return tc_set_error(TC_ERR_RUNTIME, "view_as_real doesn't work on unresolved conjugated tensors.  To "
                                            "resolve the conjugate tensor so you can view it as real, use "
                                            "self.resolve_conj(); however, be warned that the resulting tensor will "
                                            "NOT alias the original.");
    return view_of(c, t, tc_complex_as_real(t, 1));
}

/* view_as_complex(self): a last dim of two contiguous parts becomes one complex element. */
int tc_impl_view_as_complex(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    int32_t complex = tc_dtype_to_complex(t->dtype);
    if (t->dtype != TC_FLOAT16 && t->dtype != TC_FLOAT32 && t->dtype != TC_FLOAT64)
        return tc_set_error(TC_ERR_RUNTIME, "view_as_complex is only supported for half, float and double tensors, "
                                            "but got a tensor of scalar type: %s", tc_dtype_scalar_name(t->dtype));
    if (t->ndim == 0) return tc_set_error(TC_ERR_RUNTIME, "Input tensor must have one or more dimensions");
    int32_t last = t->ndim - 1;
    if (t->sizes[last] != 2) return tc_set_error(TC_ERR_RUNTIME, "Tensor must have a last dimension of size 2");
    if (t->strides[last] != 1) return tc_set_error(TC_ERR_RUNTIME, "Tensor must have a last dimension with stride 1");
    int64_t strides[TC_MAX_DIMS];
    for (int32_t d = 0; d < last; d++) {
        if (t->strides[d] % 2 != 0)
            return tc_set_error(TC_ERR_RUNTIME, "Tensor must have a stride divisible by 2 for all but last dimension");
        strides[d] = t->strides[d] / 2;
    }
    if (t->offset % 2 != 0) return tc_set_error(TC_ERR_RUNTIME, "Tensor must have a storage_offset divisible by 2");
    tc_tensor *v = tc_tensor_restride(t, last, t->sizes, strides, t->offset / 2);
    if (v) v->dtype = complex;
    return view_of(c, t, v);
}

/* A view with one math bit flipped: _conj (complex tensors only reach it) and _neg_view. */
static int flipped(tc_opcall *c, uint32_t bit) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    tc_tensor *v = tc_tensor_restride(t, t->ndim, t->sizes, t->strides, t->offset);
    if (v && (bit != TC_TENSOR_CONJ || tc_dtype_is_complex(t->dtype))) v->flags ^= bit;
    return view_of(c, t, v);
}

int tc_impl__conj(tc_opcall *c) { return flipped(c, TC_TENSOR_CONJ); }
int tc_impl__neg_view(tc_opcall *c) { return flipped(c, TC_TENSOR_NEG); }

/* conj(self): a conjugate view of a complex tensor; a real tensor is its own conjugate. */
int tc_impl_conj(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    return tc_dtype_is_complex(t->dtype) ? tc_return(c, tc__conj(t)) : self_result(c, t);
}

/* conj_physical(self): the conjugate written out; a real tensor itself. */
int tc_impl_conj_physical(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    return tc_dtype_is_complex(t->dtype) ? tc_return(c, tc__conj_physical(t)) : self_result(c, t);
}

/* view_as_real of t without its conj bit, and whether t had it (its imaginary parts read negated). */
static tc_tensor *parts_of(tc_tensor *t) {
    tc_tensor *plain = t->flags & TC_TENSOR_CONJ ? tc__conj(t) : (tc_tensor_retain(t), t);
    tc_tensor *r = plain ? tc_view_as_real(plain) : NULL;
    tc_tensor_release(plain);
    return r;
}

/* real(self): the real parts, a view; a real tensor itself. */
int tc_impl_real(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (!tc_dtype_is_complex(t->dtype)) return self_result(c, t);
    tc_tensor *r = parts_of(t);
    tc_tensor *v = r ? tc_select_int(r, -1, 0) : NULL;
    tc_tensor_release(r);
    return tc_return(c, v);
}

/* imag(self): the imaginary parts, a view (with the neg bit when self is a conjugate view). */
int tc_impl_imag(tc_opcall *c) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    if (!tc_dtype_is_complex(t->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "imag is not implemented for tensors with non-complex dtypes.");
    tc_tensor *r = parts_of(t);
    if (r && (t->flags & TC_TENSOR_CONJ)) {
        tc_tensor *n = tc__neg_view(r);
        tc_tensor_release(r);
        r = n;
    }
    tc_tensor *v = r ? tc_select_int(r, -1, 1) : NULL;
    tc_tensor_release(r);
    return tc_return(c, v);
}

/* resolve_conj / resolve_neg: self when the bit is clear, else a copy that holds what self reads. */
static int resolved(tc_opcall *c, uint32_t bit) {
    tc_tensor *t = tc_arg_tensor(c, 0);
    return t->flags & bit ? tc_return(c, tc_clone(t, -1)) : self_result(c, t);
}

int tc_impl_resolve_conj(tc_opcall *c) { return resolved(c, TC_TENSOR_CONJ); }
int tc_impl_resolve_neg(tc_opcall *c) { return resolved(c, TC_TENSOR_NEG); }

static int fact(tc_opcall *c, bool value) {
    c->outs[0] = (tc_value){.tag = TC_VALUE_BOOL, .v.b = value};
    return TC_OK;
}

int tc_impl_is_conj(tc_opcall *c) { return fact(c, (tc_arg_tensor(c, 0)->flags & TC_TENSOR_CONJ) != 0); }
int tc_impl_is_neg(tc_opcall *c) { return fact(c, (tc_arg_tensor(c, 0)->flags & TC_TENSOR_NEG) != 0); }
