/*
 * matmul, composed as PyTorch 1.13.1 composes it, so that results carry the same grad_fn: dot for
 * two vectors, mv and mm for vectors and matrices, a folded mm (or mv) when one operand is a batch and
 * the other a matrix or vector, bmm over the broadcast batch otherwise; and the small composites
 * beside it (outer, ger, _unsafe_view).
 */
#include "core_internal.h"

#include <string.h>

/* _unsafe_view(self, size): view's geometry, but a result autograd does not treat as a view (no
 * base), with a node of its own: what PyTorch's matmul returns, UnsafeViewBackward0. */
int tc_impl__unsafe_view(tc_opcall *c) {
    tc_tensor *v = tc_view_default(tc_arg_tensor(c, 0), tc_arg_ints(c, 1));
    if (!v) return TC_FAIL;
    tc_tensor *r = tc_tensor_restride(v, v->ndim, v->sizes, v->strides, v->offset);
    tc_tensor_release(v);
    return tc_return(c, r);
}

static int check_1d(const tc_tensor *t, const char *arg, const char *fn) {
    if (t->ndim == 1) return TC_OK;
    return tc_set_error(TC_ERR_RUNTIME, "%s: Expected 1-D argument %s, but got %d-D", fn, arg, t->ndim);
}

/* outer(self, vec2): a column times a row, by broadcasting (so PyTorch's dtype promotion). */
static tc_tensor *outer(tc_tensor *a, tc_tensor *b) {
    if (check_1d(a, "self", "outer") || check_1d(b, "vec2", "outer")) return NULL;
    tc_tensor *col = tc_reshape(a, TC_INTS(a->sizes[0], 1));
    tc_tensor *r = col ? tc_mul_Tensor(col, b) : NULL;
    tc_tensor_release(col);
    return r;
}

int tc_impl_outer(tc_opcall *c) { return tc_return(c, outer(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1))); }

int tc_impl_ger(tc_opcall *c) { return tc_return(c, outer(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1))); }

/* A size list with one more item at its end. */
static tc_int_list sizes_plus(const tc_tensor *t, int32_t keep, int64_t extra, int64_t *buf) {
    memcpy(buf, t->sizes, sizeof(int64_t) * (size_t)keep);
    buf[keep] = extra;
    return (tc_int_list){buf, keep + 1};
}

/* PyTorch 1.13's should_fold: t (3 dims or more) times a matrix or vector becomes one mm or mv, except
 * for a 3-D t whose last two dims are transposed (permute(0, 2, 1)): folding that would copy, while
 * bmm takes each transposed matrix as it is. */
static bool should_fold(const tc_tensor *t, int32_t other_ndim) {
    if (!(t->ndim >= 3 && (other_ndim == 1 || other_ndim == 2))) return false;
    return !(t->ndim == 3 && other_ndim == 2 && t->strides[2] != 1 && t->strides[0] == t->sizes[1] * t->sizes[2]);
}

/* A batch (a, or b's mT) times a matrix or vector, as one mm or mv. */
static tc_tensor *folded(tc_tensor *a, tc_tensor *b) {
    const bool transpose = b->ndim > a->ndim;
    tc_tensor *t1 = transpose ? tc_transpose_int(b, -2, -1) : (tc_tensor_retain(a), a);
    tc_tensor *t2 = !transpose ? (tc_tensor_retain(b), b) : a->ndim == 2 ? tc_t(a) : (tc_tensor_retain(a), a);
    tc_tensor *r = NULL;
    if (t1 && t2) {
        int64_t out[TC_MAX_DIMS + 1], folded_rows = 1;
        const int32_t keep = t1->ndim - 1;
        for (int32_t d = 0; d < keep; d++) folded_rows *= t1->sizes[d];
        tc_int_list out_sizes = t2->ndim == 2 ? sizes_plus(t1, keep, t2->sizes[1], out) : (tc_int_list){t1->sizes, keep};
        tc_tensor *t1f = tc_reshape(t1, TC_INTS(folded_rows, t1->sizes[keep]));
        tc_tensor *prod = !t1f ? NULL : t2->ndim == 2 ? tc_mm(t1f, t2) : tc_mv(t1f, t2);
        tc_tensor *v = prod ? tc__unsafe_view(prod, out_sizes) : NULL;
        if (v && transpose && t2->ndim == 2) {
            tc_tensor *vt = tc_transpose_int(v, -2, -1);
            r = vt ? tc_contiguous(vt, TC_MEMORY_FORMAT_CONTIGUOUS) : NULL;
            tc_tensor_release(vt);
        } else {
            r = v, v = NULL;
        }
        tc_tensor_release(t1f);
        tc_tensor_release(prod);
        tc_tensor_release(v);
    }
    tc_tensor_release(t1);
    tc_tensor_release(t2);
    return r;
}

/* Both operands expanded to the broadcast batch, folded into one batch dim, multiplied by bmm. */
static tc_tensor *batched(tc_tensor *a, tc_tensor *b) {
    const int64_t n = a->ndim > 1 ? a->sizes[a->ndim - 2] : 1, m1 = a->sizes[a->ndim - 1];
    const int64_t m2 = b->ndim > 1 ? b->sizes[b->ndim - 2] : b->sizes[0], p = b->ndim > 1 ? b->sizes[b->ndim - 1] : 1;
    const int32_t na = a->ndim > 2 ? a->ndim - 2 : 0, nb = b->ndim > 2 ? b->ndim - 2 : 0;
    int32_t nbatch;
    int64_t batch[TC_MAX_DIMS + 2], sizes[TC_MAX_DIMS + 2], count;
    if (tc_shape_broadcast(na, a->sizes, nb, b->sizes, &nbatch, batch) || tc_shape_numel(nbatch, batch, &count))
        return NULL;
    memcpy(sizes, batch, sizeof(int64_t) * (size_t)nbatch);
    sizes[nbatch] = n, sizes[nbatch + 1] = m1;
    tc_tensor *ea = tc_expand(a, (tc_int_list){sizes, nbatch + 2}, false);
    const bool vector_rhs = b->ndim == 1;
    sizes[nbatch] = m2, sizes[nbatch + 1] = p;
    tc_tensor *eb = ea ? tc_expand(b, (tc_int_list){sizes, nbatch + (vector_rhs ? 1 : 2)}, false) : NULL;
    tc_tensor *a3 = eb ? tc_reshape(ea, TC_INTS(count, n, m1)) : NULL;
    tc_tensor *b3 = NULL;
    if (a3 && vector_rhs) {
        tc_tensor *b2 = tc_reshape(eb, TC_INTS(count, m2));
        b3 = b2 ? tc_unsqueeze(b2, 2) : NULL;
        tc_tensor_release(b2);
    } else if (a3) {
        b3 = tc_reshape(eb, TC_INTS(count, m2, p));
    }
    tc_tensor *r3 = b3 ? tc_bmm(a3, b3) : NULL;
    if (r3 && vector_rhs) {
        tc_tensor *sq = tc_squeeze_dim(r3, -1);
        tc_tensor_release(r3);
        r3 = sq;
    }
    int32_t nout = nbatch;
    if (a->ndim > 1) batch[nout++] = n;
    if (b->ndim > 1) batch[nout++] = p;
    tc_tensor *r = r3 ? tc__unsafe_view(r3, (tc_int_list){batch, nout}) : NULL;
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
    if (a->ndim == 1 && b->ndim == 1) return tc_return(c, tc_dot(a, b));
    if (a->ndim == 2 && b->ndim == 1) return tc_return(c, tc_mv(a, b));
    if (a->ndim == 2 && b->ndim == 2) return tc_return(c, tc_mm(a, b));
    if (a->ndim == 1 && b->ndim == 2) {
        tc_tensor *row = tc_unsqueeze(a, 0), *p = row ? tc_mm(row, b) : NULL;
        tc_tensor *r = p ? tc_squeeze_dim(p, 0) : NULL;
        tc_tensor_release(row);
        tc_tensor_release(p);
        return tc_return(c, r);
    }
    return tc_return(c, should_fold(a, b->ndim) || should_fold(b, a->ndim) ? folded(a, b) : batched(a, b));
}
