/*
 * linear and bilinear, composed of matrix products: linear is input @ weight^T (BLAS through mm or
 * bmm) with the bias added in place to the fresh product; bilinear contracts input1 with the weight
 * by one matrix product and the result with input2 by a batched one.
 */
#include "core_internal.h"

/* linear(input, weight, bias): inputs of 2 or more dims are flattened to one matrix product (then
 * viewed back), as PyTorch's fused path does; the bias is added in place to the fresh product. */
int tc_impl_linear(tc_opcall *c) {
    tc_tensor *in = tc_arg_tensor(c, 0), *w = tc_arg_tensor(c, 1), *bias = tc_arg_none(c, 2) ? NULL : tc_arg_tensor(c, 2);
    bool flat = in->ndim > 2 && w->ndim == 2;
    tc_tensor *wt = tc_t(w);
    tc_tensor *x = wt && flat ? tc_reshape(in, TC_INTS(-1, in->sizes[in->ndim - 1])) : NULL;
    tc_tensor *y = wt && (x || !flat) ? tc_matmul(flat ? x : in, wt) : NULL;
    tc_tensor_release(wt);
    tc_tensor_release(x);
    if (y && bias) {
        tc_tensor *done = y->ndim == 0 || (bias->ndim > y->ndim) ? tc_add_Tensor(y, bias, TC_SCALAR_OF_INT(1))
                                                                 : tc_add__Tensor(y, bias, TC_SCALAR_OF_INT(1));
        if (done != y) tc_tensor_release(y);
        else tc_tensor_release(done);
        y = done;
    }
    if (!y || !flat) return tc_return(c, y);
    int64_t shape[TC_MAX_DIMS];
    for (int32_t d = 0; d + 1 < in->ndim; d++) shape[d] = in->sizes[d];
    shape[in->ndim - 1] = y->sizes[1];
    tc_tensor *v = tc_view_default(y, (tc_int_list){shape, in->ndim});
    tc_tensor_release(y);
    return tc_return(c, v);
}

/* bilinear(input1, input2, weight, bias): y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o] */
int tc_impl_bilinear(tc_opcall *c) {
    tc_tensor *x1 = tc_arg_tensor(c, 0), *x2 = tc_arg_tensor(c, 1), *w = tc_arg_tensor(c, 2);
    tc_tensor *bias = tc_arg_none(c, 3) ? NULL : tc_arg_tensor(c, 3);
    if (x1->ndim != x2->ndim)
        return tc_set_error(TC_ERR_RUNTIME, "bilinear(): input dimensions do not match: got %d and %d", x1->ndim,
                            x2->ndim);
    for (int32_t d = 0; d + 1 < x1->ndim; d++)
        if (x1->sizes[d] != x2->sizes[d])
            return tc_set_error(TC_ERR_RUNTIME, "bilinear(): input batch dimensions do not match: got %lld and %lld",
                                (long long)x1->sizes[d], (long long)x2->sizes[d]);
    if (w->ndim < 2 || x1->ndim < 1) return tc_set_error(TC_ERR_RUNTIME, "bilinear(): weight must be 3-dimensional");
    if (x1->sizes[x1->ndim - 1] != w->sizes[1])
        return tc_set_error(TC_ERR_RUNTIME, "bilinear(): input1 size does not match weight size: got %lld but expected "
                                            "%lld", (long long)x1->sizes[x1->ndim - 1], (long long)w->sizes[1]);
    if (w->ndim != 3) return tc_set_error(TC_ERR_RUNTIME, "bilinear(): weight must be 3-dimensional");
    if (x2->sizes[x2->ndim - 1] != w->sizes[2])
        return tc_set_error(TC_ERR_RUNTIME, "bilinear(): input2 size does not match weight size: got %lld but expected "
                                            "%lld", (long long)x2->sizes[x2->ndim - 1], (long long)w->sizes[2]);
    if (bias && (bias->ndim != 1 || bias->sizes[0] != w->sizes[0]))
        return tc_set_error(TC_ERR_RUNTIME, "bilinear(): bias size does not match weight size: got %lld but expected "
                                            "%lld", (long long)(bias->ndim ? bias->sizes[0] : 1), (long long)w->sizes[0]);
    int64_t O = w->sizes[0], I = w->sizes[1], J = w->sizes[2], B = 1;
    for (int32_t d = 0; d + 1 < x1->ndim; d++) B *= x1->sizes[d];
    tc_tensor *a = tc_reshape(x1, TC_INTS(B, I));
    tc_tensor *wp = a ? tc_permute(w, TC_INTS(1, 0, 2)) : NULL;
    tc_tensor *wm = wp ? tc_reshape(wp, TC_INTS(I, O * J)) : NULL;
    tc_tensor *t = wm ? tc_mm(a, wm) : NULL; /* [B, O * J] */
    tc_tensor *t3 = t ? tc_view_default(t, TC_INTS(B, O, J)) : NULL;
    tc_tensor *b = t3 ? tc_reshape(x2, TC_INTS(B, J, 1)) : NULL;
    tc_tensor *y3 = b ? tc_bmm(t3, b) : NULL; /* [B, O, 1] */
    int64_t shape[TC_MAX_DIMS];
    for (int32_t d = 0; d + 1 < x1->ndim; d++) shape[d] = x1->sizes[d];
    shape[x1->ndim - 1] = O;
    tc_tensor *y = y3 ? tc_view_default(y3, (tc_int_list){shape, x1->ndim}) : NULL;
    tc_tensor *r = y && bias ? tc_add_Tensor(y, bias, TC_SCALAR_OF_INT(1)) : y;
    if (r != y) tc_tensor_release(y);
    tc_tensor *temps[7] = {a, wp, wm, t, t3, b, y3};
    for (int i = 0; i < 7; i++) tc_tensor_release(temps[i]);
    return tc_return(c, r);
}
