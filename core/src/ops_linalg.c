/* Matrix products: mm checks and allocates, matmul reduces every case to mm on views. */
#include "core_internal.h"

#include <string.h>

static int check_mm(const tc_tensor *a, const tc_tensor *b) {
    if (a->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "self must be a matrix");
    if (b->ndim != 2) return tc_set_error(TC_ERR_RUNTIME, "mat2 must be a matrix");
    if (a->sizes[1] != b->sizes[0])
        return tc_set_error(TC_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                            (long long)a->sizes[0], (long long)a->sizes[1], (long long)b->sizes[0],
                            (long long)b->sizes[1]);
    if (a->dtype != b->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "expected mat1 and mat2 to have the same dtype, but got: %s != %s",
                            tc_dtype_name(a->dtype), tc_dtype_name(b->dtype));
    tc_tensor *pair[2] = {(tc_tensor *)a, (tc_tensor *)b};
    return tc_check_same_device(pair, 2, "mm");
}

/* c = a @ b into an existing contiguous [m, n] output. */
static int mm_into(tc_tensor *a, tc_tensor *b, tc_tensor *c) {
    tc_tensor *in[2] = {a, b};
    if (tc_tensor_numel(c) == 0) return TC_OK;
    return tc_dispatch_run(TC_KERNEL_mm, a->dtype, in, 2, &c, 1, NULL, 0, NULL, 0, false);
}

static tc_tensor *mm(tc_tensor *a, tc_tensor *b) {
    if (check_mm(a, b)) return NULL;
    int64_t sizes[2] = {a->sizes[0], b->sizes[1]};
    tc_tensor *c = tc_empty(2, sizes, a->dtype, a->device);
    if (c && mm_into(a, b, c)) {
        tc_tensor_release(c);
        return NULL;
    }
    return c;
}

/* Batched case: broadcast the batch dims, then one mm per batch on views of a contiguous output. */
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
    if (a->dtype != b->dtype)
        return tc_set_error(TC_ERR_RUNTIME, "expected scalar type %s but found %s", tc_dtype_name(a->dtype),
                            tc_dtype_name(b->dtype)), NULL;
    int32_t nbatch;
    int64_t batch[TC_MAX_DIMS], out_sizes[TC_MAX_DIMS];
    if (tc_shape_broadcast(a->ndim - 2, a->sizes, b->ndim - 2, b->sizes, &nbatch, batch)) return NULL;
    memcpy(out_sizes, batch, sizeof(int64_t) * (size_t)nbatch);
    out_sizes[nbatch] = m;
    out_sizes[nbatch + 1] = n;
    int64_t a_sizes[TC_MAX_DIMS], b_sizes[TC_MAX_DIMS];
    memcpy(a_sizes, batch, sizeof(int64_t) * (size_t)nbatch);
    memcpy(b_sizes, batch, sizeof(int64_t) * (size_t)nbatch);
    a_sizes[nbatch] = m, a_sizes[nbatch + 1] = k;
    b_sizes[nbatch] = k, b_sizes[nbatch + 1] = n;
    tc_tensor *ea = tc_expand_to(a, nbatch + 2, a_sizes), *eb = tc_expand_to(b, nbatch + 2, b_sizes);
    tc_tensor *out = tc_empty(nbatch + 2, out_sizes, a->dtype, a->device);
    if (!ea || !eb || !out) goto fail;
    int64_t count = 1;
    for (int32_t i = 0; i < nbatch; i++) count *= batch[i];
    for (int64_t idx = 0; idx < count; idx++) {
        int64_t rem = idx, oa = ea->offset, ob = eb->offset, oc = 0;
        for (int32_t d = nbatch - 1; d >= 0; d--) {
            int64_t i = rem % batch[d];
            rem /= batch[d];
            oa += i * ea->strides[d];
            ob += i * eb->strides[d];
            oc += i * out->strides[d];
        }
        tc_tensor *va = tc_tensor_restride(ea, 2, ea->sizes + nbatch, ea->strides + nbatch, oa);
        tc_tensor *vb = tc_tensor_restride(eb, 2, eb->sizes + nbatch, eb->strides + nbatch, ob);
        tc_tensor *vc = tc_tensor_restride(out, 2, out->sizes + nbatch, out->strides + nbatch, oc);
        int rc = va && vb && vc ? mm_into(va, vb, vc) : TC_FAIL;
        tc_tensor_release(va);
        tc_tensor_release(vb);
        tc_tensor_release(vc);
        if (rc) goto fail;
    }
    tc_tensor_release(ea);
    tc_tensor_release(eb);
    return out;
fail:
    tc_tensor_release(ea);
    tc_tensor_release(eb);
    tc_tensor_release(out);
    return NULL;
}

static tc_tensor *matmul(tc_tensor *a, tc_tensor *b) {
    if (a->ndim == 0 || b->ndim == 0)
        return tc_set_error(TC_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are %dD "
                                            "and %dD", a->ndim, b->ndim), NULL;
    if (a->ndim == 2 && b->ndim == 2) return mm(a, b);
    /* Lift vectors to matrices, multiply, then drop the lifted dims. */
    tc_tensor *la = a->ndim == 1 ? tc_unsqueeze(a, 0) : (tc_tensor_retain(a), a);
    tc_tensor *lb = b->ndim == 1 ? tc_unsqueeze(b, 1) : (tc_tensor_retain(b), b);
    tc_tensor *r = NULL;
    if (la && lb) {
        if (a->ndim == 1 && b->ndim == 1 && a->sizes[0] != b->sizes[0])
            tc_set_error(TC_ERR_RUNTIME, "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have "
                                         "the same number of elements, but got %lld and %lld elements "
                                         "respectively", (long long)a->sizes[0], (long long)b->sizes[0],
                         (long long)a->sizes[0], (long long)b->sizes[0]);
        else if (la->ndim == 2 && lb->ndim == 2)
            r = mm(la, lb);
        else
            r = batched(la, lb);
    }
    tc_tensor_release(la);
    tc_tensor_release(lb);
    if (!r || (a->ndim > 1 && b->ndim > 1)) return r;
    int64_t sizes[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < r->ndim; d++) {
        if (a->ndim == 1 && d == r->ndim - 2) continue;
        if (b->ndim == 1 && d == r->ndim - 1) continue;
        sizes[n++] = r->sizes[d];
    }
    tc_tensor *v = tc_view_shape(r, n, sizes);
    tc_tensor_release(r);
    return v;
}

int tc_ops_linalg(int32_t op, const tc_call *call, tc_tensor **outs) {
    outs[0] = op == TC_OP_mm ? mm(call->tensors[0], call->tensors[1]) : matmul(call->tensors[0], call->tensors[1]);
    return outs[0] ? 1 : TC_FAIL;
}
