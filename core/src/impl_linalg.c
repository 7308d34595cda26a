/*
 * matmul, composed of mm and bmm: vectors are lifted to matrices and the lifted dims dropped again;
 * batch dims broadcast and are folded into one batch dim for bmm.
 */
#include "core_internal.h"

#include <string.h>

static tc_tensor *batched(tc_tensor *a, tc_tensor *b) {
    int64_t m = a->sizes[a->ndim - 2], k = a->sizes[a->ndim - 1], n = b->sizes[b->ndim - 1];
    if (b->sizes[b->ndim - 2] != k) {
        /* PyTorch's words for bmm: [batch, k] wanted, [batch, rows of b] found */
        int64_t batch_a = 1, batch_b = 1;
        for (int32_t d = 0; d < a->ndim - 2; d++) batch_a *= a->sizes[d];
        for (int32_t d = 0; d < b->ndim - 2; d++) batch_b *= b->sizes[d];
        return tc_set_error(TC_ERR_RUNTIME, "Expected size for first two dimensions of batch2 tensor to be: "
                                            "[%lld, %lld] but got: [%lld, %lld].", (long long)batch_a, (long long)k,
                            (long long)batch_b, (long long)b->sizes[b->ndim - 2]), NULL;
    }
    int32_t nbatch;
    int64_t batch[TC_MAX_DIMS], sizes[TC_MAX_DIMS];
    if (tc_shape_broadcast(a->ndim - 2, a->sizes, b->ndim - 2, b->sizes, &nbatch, batch)) return NULL;
    int64_t count;
    if (tc_shape_numel(nbatch, batch, &count)) return NULL;
    memcpy(sizes, batch, sizeof(int64_t) * (size_t)nbatch);
    sizes[nbatch] = m, sizes[nbatch + 1] = k;
    tc_tensor *ea = tc_expand(a, (tc_int_list){sizes, nbatch + 2}, false);
    sizes[nbatch] = k, sizes[nbatch + 1] = n;
    tc_tensor *eb = ea ? tc_expand(b, (tc_int_list){sizes, nbatch + 2}, false) : NULL;
    tc_tensor *a3 = eb ? tc_reshape(ea, TC_INTS(count, m, k)) : NULL;
    tc_tensor *b3 = a3 ? tc_reshape(eb, TC_INTS(count, k, n)) : NULL;
    tc_tensor *r3 = b3 ? tc_bmm(a3, b3) : NULL;
    sizes[nbatch] = m, sizes[nbatch + 1] = n;
    tc_tensor *r = r3 ? tc_view_default(r3, (tc_int_list){sizes, nbatch + 2}) : NULL;
    tc_tensor_release(ea);
    tc_tensor_release(eb);
    tc_tensor_release(a3);
    tc_tensor_release(b3);
    tc_tensor_release(r3);
    return r;
}

/* matmul(self, other) */
int tc_impl_matmul(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    if (a->ndim == 0 || b->ndim == 0)
        return tc_set_error(TC_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are %dD and %dD",
                            a->ndim, b->ndim);
    if (a->ndim == 2 && b->ndim == 2) return tc_return(c, tc_mm(a, b));
    if (a->ndim == 1 && b->ndim == 1 && a->sizes[0] != b->sizes[0])
        return tc_set_error(TC_ERR_RUNTIME, "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have "
                                            "the same number of elements, but got %lld and %lld elements respectively",
                            (long long)a->sizes[0], (long long)b->sizes[0], (long long)a->sizes[0],
                            (long long)b->sizes[0]);
    tc_tensor *la = a->ndim == 1 ? tc_unsqueeze(a, 0) : (tc_tensor_retain(a), a);
    tc_tensor *lb = b->ndim == 1 ? tc_unsqueeze(b, 1) : (tc_tensor_retain(b), b);
    tc_tensor *r = NULL;
    if (la && lb) r = la->ndim == 2 && lb->ndim == 2 ? tc_mm(la, lb) : batched(la, lb);
    tc_tensor_release(la);
    tc_tensor_release(lb);
    if (!r || (a->ndim > 1 && b->ndim > 1)) return tc_return(c, r);
    int64_t sizes[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < r->ndim; d++) {
        if (a->ndim == 1 && d == r->ndim - 2) continue;
        if (b->ndim == 1 && d == r->ndim - 1) continue;
        sizes[n++] = r->sizes[d];
    }
    tc_tensor *v = tc_view_default(r, (tc_int_list){sizes, n});
    tc_tensor_release(r);
    return tc_return(c, v);
}
