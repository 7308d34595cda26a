/*
 * What the indexing family's meta functions share (meta_index.c, meta_gather.c, meta_masked.c,
 * meta_joining.c): PyTorch's conversion error for values written into a tensor, 0-dim value tensors,
 * the out= overlap check, and planning kernel inputs as views at the kernel's shape. The family's
 * kernels and their geometry are described in meta_index.c and meta_gather.c.
 */
#include "core_internal.h"
#include "indexing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PyTorch names C++ types in conversion errors ("value cannot be converted to type float"). */
static const char *cpp_type_name(int32_t dtype) {
    static const char *names[TC_NUM_DTYPES] = {
        "bool",  "uint8_t", "int8_t", "int16_t", "int", "int64_t", "c10::Half", "c10::BFloat16",
        "float", "double",  "c10::complex<c10::Half>", "c10::complex<float>", "c10::complex<double>"};
    return dtype >= 0 && dtype < TC_NUM_DTYPES ? names[dtype] : "?";
}

int tc_index_check_fits(tc_scalar value, int32_t dtype) {
    if (tc_scalar_fits(value, dtype)) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "value cannot be converted to type %s without overflow", cpp_type_name(dtype));
}

int tc_index_fill_value(const tc_opcall *c, int arg, int32_t dtype, const char *op, tc_tensor **value) {
    if (c->args[arg].tag == TC_VALUE_TENSOR) {
        tc_tensor *v = c->args[arg].v.tensor;
        if (v->ndim != 0)
            return tc_set_error(TC_ERR_RUNTIME,
                                "%s only supports a 0-dimensional value tensor, but got tensor with %d "
                                "dimension(s).",
                                op, v->ndim);
        *value = tc_kernel_cast(v, dtype);
    } else {
        if (tc_index_check_fits(c->args[arg].v.scalar, dtype)) return TC_FAIL;
        *value = tc_index_value_tensor(c, c->args[arg].v.scalar, dtype);
    }
    return *value ? TC_OK : TC_FAIL;
}

/* A 0-dim tensor of `dtype` holding value, on the call's device; the kernels read it through zero strides. */
tc_tensor *tc_index_value_tensor(const tc_opcall *c, tc_scalar value, int32_t dtype) {
    tc_tensor *host = tc_scalar_tensor(value, dtype);
    if (!host || (c->device.type == TC_DEVICE_CPU && c->device.index == 0)) return host;
    tc_tensor *moved = tc__to_copy(host, -1, -1, &c->device, NULL, false, -1);
    tc_tensor_release(host);
    return moved;
}

int tc_index_check_out_overlap(const tc_plan *p, const tc_tensor *read) {
    const tc_tensor *out = p->out[0];
    if (p->call->op->variant == TC_VARIANT_FUNCTIONAL || out->storage != read->storage || tc_tensor_numel(out) == 0 ||
        tc_tensor_numel(read) == 0)
        return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the written-to "
                                        "tensor refer to a single memory location. Please clone() the tensor before "
                                        "performing the operation.");
}

/* Adds t as a kernel input, restrided to (ndim, sizes, strides) after converting it to int64 (when
 * `to_long`) in its own shape, so that a broadcast view is never materialised. */
int tc_index_plan_view(tc_plan *p, tc_tensor *t, bool to_long, int32_t ndim, const int64_t *sizes,
                       const int64_t *strides) {
    tc_tensor *base = to_long ? tc_kernel_cast(t, TC_INT64) : (tc_tensor_retain(t), t);
    if (!base) return TC_FAIL;
    tc_tensor *v = tc_tensor_restride(base, ndim, sizes, strides, base->offset);
    tc_tensor_release(base);
    if (!v) return TC_FAIL;
    int rc = tc_plan_input(p, v, -1);
    tc_tensor_release(v);
    return rc;
}

/* Ints of both kernels end with the indexed dims' sizes and strides. */
int tc_index_plan_dims(tc_plan *p, int32_t k, const int64_t *sizes, const int64_t *strides) {
    for (int32_t j = 0; j < k; j++)
        if (tc_plan_int(p, sizes[j]) || tc_plan_int(p, strides[j])) return TC_FAIL;
    return TC_OK;
}

/* A 0-dim tensor acts as a 1-dim one of size 1 (PyTorch's ensure_nonempty_dim): its sizes and strides. */
int32_t tc_index_nonempty(const tc_tensor *t, int64_t *sizes, int64_t *strides) {
    if (t->ndim == 0) {
        sizes[0] = 1;
        strides[0] = 0;
        return 1;
    }
    memcpy(sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    return t->ndim;
}

/* Whether `from` expands to `to` (PyTorch's is_expandable_to). */
bool tc_index_expandable(int32_t nf, const int64_t *from, int32_t nt, const int64_t *to) {
    if (nf > nt) return false;
    for (int32_t i = 0; i < nf; i++) {
        int64_t f = from[nf - 1 - i], t = to[nt - 1 - i];
        if (f != t && f != 1) return false;
    }
    return true;
}

/* Presents `values` at the kernel's shape: trailing dims aligned, broadcast dims with stride 0. */
int tc_index_plan_broadcast(tc_plan *p, tc_tensor *values, int32_t ndim, const int64_t *sizes) {
    int64_t strides[TC_MAX_DIMS];
    for (int32_t d = 0; d < ndim; d++) {
        int32_t j = values->ndim - ndim + d;
        strides[d] = j >= 0 && values->sizes[j] == sizes[d] ? values->strides[j] : 0;
    }
    return tc_index_plan_view(p, values, false, ndim, sizes, strides);
}
