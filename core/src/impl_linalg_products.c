/*
 * Products composed of others, as PyTorch 1.13 composes them: tensordot (permute, reshape, mm), kron
 * (a broadcast mul between interleaved size-1 dims), linalg_multi_dot and chain_matmul (mm in the
 * cheapest order), cross (linalg_cross over the first dim of size 3), cdist (_cdist_forward), and
 * linalg_vander (the powers of x as running products).
 */
#include "linalg.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static void warn_once(atomic_bool *done, const char *message) {
    if (!atomic_exchange(done, true)) tc_warn("%s", message);
}

/* ---- tensordot --------------------------------------------------------------------------------- */

/* PyTorch's dim_list_to_bitset: wrapped dims, each at most once. */
static int dims_bitset(tc_int_list dims, int32_t ndim, bool *set, int32_t *wrapped) {
    memset(set, 0, sizeof(bool) * (size_t)(ndim > 0 ? ndim : 1));
    for (int64_t i = 0; i < dims.len; i++) {
        if (tc_shape_wrap_dim(dims.items[i], ndim, &wrapped[i])) return TC_FAIL;
        if (set[wrapped[i]])
            return tc_set_error(TC_ERR_RUNTIME, "dim %d appears multiple times in the list of dims", wrapped[i]);
        set[wrapped[i]] = true;
    }
    return TC_OK;
}

/* tensordot(self, other, dims_self, dims_other) */
int tc_impl_tensordot(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    tc_int_list d1 = tc_arg_ints(c, 2), d2 = tc_arg_ints(c, 3);
    if (d1.len != d2.len) return tc_set_error(TC_ERR_RUNTIME, "both dimension lists should have same length");
    if (d1.len > TC_MAX_DIMS) return tc_set_error(TC_ERR_RUNTIME, "too many dims to contract");
    bool c1[TC_MAX_DIMS], c2[TC_MAX_DIMS];
    int32_t w1[TC_MAX_DIMS], w2[TC_MAX_DIMS];
    if (dims_bitset(d1, a->ndim, c1, w1) || dims_bitset(d2, b->ndim, c2, w2)) return TC_FAIL;
    tc_tensor *t1 = a, *t2 = b, *tmp;
    tc_tensor_retain(t1);
    tc_tensor_retain(t2);
    tc_tensor *r = NULL, *p1 = NULL, *p2 = NULL, *m1 = NULL, *m2 = NULL, *prod = NULL;
    int64_t csize = 1;
    for (int64_t i = 0; i < d1.len; i++) {
        const int64_t s1 = a->sizes[w1[i]], s2 = b->sizes[w2[i]];
        if (s2 == 1 || s1 == 1) { /* a broadcast dim: sum the other side's now */
            tc_tensor **t = s2 == 1 ? &t1 : &t2;
            if (!(tmp = tc_sum_dim_IntList(*t, &TC_INTS(s2 == 1 ? w1[i] : w2[i]), true, -1))) goto done;
            tc_tensor_release(*t);
            *t = tmp;
        } else if (s1 != s2) {
            tc_set_error(TC_ERR_RUNTIME, "contracted dimensions need to match, but first has size %lld in dim %d and "
                                         "second has size %lld in dim %d", (long long)s1, w1[i], (long long)s2, w2[i]);
            goto done;
        } else {
            csize *= s1;
        }
    }
    int64_t perm1[TC_MAX_DIMS], perm2[TC_MAX_DIMS], rsizes[2 * TC_MAX_DIMS], size1 = 1, size2 = 1;
    int32_t n1 = 0, n2 = 0, nr = 0;
    for (int32_t i = 0; i < a->ndim; i++)
        if (!c1[i]) perm1[n1++] = i, size1 *= t1->sizes[i], rsizes[nr++] = t1->sizes[i];
    for (int64_t i = 0; i < d1.len; i++) perm1[n1++] = w1[i], perm2[n2++] = w2[i];
    for (int32_t i = 0; i < b->ndim; i++)
        if (!c2[i]) perm2[n2++] = i, size2 *= t2->sizes[i], rsizes[nr++] = t2->sizes[i];
    if (nr > TC_MAX_DIMS) {
        tc_set_error(TC_ERR_RUNTIME, "tensordot: the result would have %d dims", nr);
        goto done;
    }
    if (!(p1 = tc_permute(t1, (tc_int_list){perm1, n1})) || !(m1 = tc_reshape(p1, TC_INTS(size1, csize))) ||
        !(p2 = tc_permute(t2, (tc_int_list){perm2, n2})) || !(m2 = tc_reshape(p2, TC_INTS(csize, size2))) ||
        !(prod = tc_mm(m1, m2)))
        goto done;
    r = tc_reshape(prod, (tc_int_list){rsizes, nr});
done:
    tc_tensor_release(t1);
    tc_tensor_release(t2);
    tc_tensor_release(p1);
    tc_tensor_release(p2);
    tc_tensor_release(m1);
    tc_tensor_release(m2);
    tc_tensor_release(prod);
    return tc_return(c, r);
}

/* ---- kron ------------------------------------------------------------------------------------------ */

/* kron(self, other): self's dims interleaved with size-1 dims, other's the other way, multiplied
 * with broadcasting and read back as one tensor. */
int tc_impl_kron(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0), *b = tc_arg_tensor(c, 1);
    const int32_t maxdim = a->ndim > b->ndim ? a->ndim : b->ndim;
    if (2 * maxdim > TC_MAX_DIMS) return tc_set_error(TC_ERR_RUNTIME, "kron: too many dimensions");
    const int32_t pad_a = maxdim - a->ndim, pad_b = maxdim - b->ndim;
    int64_t as[TC_MAX_DIMS], bs[TC_MAX_DIMS], rs[TC_MAX_DIMS];
    for (int32_t i = 0; i < maxdim; i++) {
        as[2 * i] = i >= pad_a ? a->sizes[i - pad_a] : 1, as[2 * i + 1] = 1;
        bs[2 * i] = 1, bs[2 * i + 1] = i >= pad_b ? b->sizes[i - pad_b] : 1;
        rs[i] = as[2 * i] * bs[2 * i + 1];
    }
    tc_tensor *av = tc__unsafe_view(a, (tc_int_list){as, 2 * maxdim});
    tc_tensor *bv = av ? tc__unsafe_view(b, (tc_int_list){bs, 2 * maxdim}) : NULL;
    tc_tensor *m = bv ? tc_mul_Tensor(av, bv) : NULL;
    tc_tensor *r = m ? tc__unsafe_view(m, (tc_int_list){rs, maxdim}) : NULL;
    tc_tensor_release(av);
    tc_tensor_release(bv);
    tc_tensor_release(m);
    return tc_return(c, r);
}

/* ---- multi_dot, chain_matmul ------------------------------------------------------------------------- */

/* The product of ts[i..j] in the order split[][] says (split[i][j]: the last matrix of the left part). */
static tc_tensor *chain(tc_tensor *const *ts, const int64_t *split, int64_t n, int64_t i, int64_t j) {
    if (i == j) {
        tc_tensor_retain(ts[i]);
        return ts[i];
    }
    const int64_t k = split[i * n + j];
    tc_tensor *l = chain(ts, split, n, i, k), *r = l ? chain(ts, split, n, k + 1, j) : NULL;
    tc_tensor *p = r ? tc_mm(l, r) : NULL;
    tc_tensor_release(l);
    tc_tensor_release(r);
    return p;
}

/* The cheapest parenthesisation (classic dynamic programming over the chain, as PyTorch's
 * matrix_chain_order), then the products. */
static tc_tensor *chain_product(tc_tensor *const *ts, int64_t n) {
    if (n == 2) return tc_mm(ts[0], ts[1]);
    if (n == 3) {
        const int64_t a = ts[0]->sizes[0], b = ts[1]->sizes[0], c = ts[2]->sizes[0], d = ts[2]->sizes[1];
        const int64_t cost1 = (a * c) * (b + d), cost2 = (b * d) * (a + c);
        tc_tensor *inner = cost1 > cost2 ? tc_mm(ts[1], ts[2]) : tc_mm(ts[0], ts[1]);
        tc_tensor *r = !inner ? NULL : cost1 > cost2 ? tc_mm(ts[0], inner) : tc_mm(inner, ts[2]);
        tc_tensor_release(inner);
        return r;
    }
    int64_t *p = malloc(sizeof(int64_t) * (size_t)(n + 1)), *m = calloc((size_t)(n * n), sizeof(int64_t));
    int64_t *split = calloc((size_t)(n * n), sizeof(int64_t));
    tc_tensor *r = NULL;
    if (!p || !m || !split) {
        tc_set_error(TC_ERR_OUT_OF_MEMORY, "multi_dot(): out of memory");
        goto done;
    }
    for (int64_t i = 0; i < n; i++) p[i] = ts[i]->sizes[0];
    p[n] = ts[n - 1]->sizes[1];
    for (int64_t l = 1; l < n; l++)
        for (int64_t i = 0; i + l < n; i++) {
            const int64_t j = i + l;
            m[i * n + j] = INT64_MAX;
            for (int64_t k = i; k < j; k++) {
                const int64_t q = m[i * n + k] + m[(k + 1) * n + j] + p[i] * p[k + 1] * p[j + 1];
                if (q < m[i * n + j]) m[i * n + j] = q, split[i * n + j] = k;
            }
        }
    r = chain(ts, split, n, 0, n - 1);
done:
    free(p);
    free(m);
    free(split);
    return r;
}

/* linalg_multi_dot(tensors): a chain of matrices, the first and last may be vectors. */
static tc_tensor *multi_dot(tc_tensor_list in) {
    const int64_t n = in.len;
    if (n < 2) return tc_set_error(TC_ERR_RUNTIME, "multi_dot(): expected at least 2 tensors but got %lld", (long long)n), NULL;
    tc_tensor **ts = calloc((size_t)n, sizeof(tc_tensor *));
    if (!ts) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "multi_dot(): out of memory"), NULL;
    int64_t out_shape[2];
    int32_t nout = 0;
    tc_tensor *r = NULL;
    if (in.items[0]->ndim == 1) {
        ts[0] = tc_unsqueeze(in.items[0], 0);
    } else if (in.items[0]->ndim == 2) {
        ts[0] = in.items[0], tc_tensor_retain(ts[0]);
        out_shape[nout++] = in.items[0]->sizes[0];
    } else {
        tc_set_error(TC_ERR_RUNTIME, "multi_dot(): the first tensor must be 1D or 2D but got %dD", in.items[0]->ndim);
        goto done;
    }
    if (!ts[0]) goto done;
    if (in.items[n - 1]->ndim == 1) {
        ts[n - 1] = tc_unsqueeze(in.items[n - 1], -1);
    } else if (in.items[n - 1]->ndim == 2) {
        ts[n - 1] = in.items[n - 1], tc_tensor_retain(ts[n - 1]);
        out_shape[nout++] = in.items[n - 1]->sizes[1];
    } else {
        tc_set_error(TC_ERR_RUNTIME, "multi_dot(): the last tensor must be 1D or 2D but got %dD", in.items[n - 1]->ndim);
        goto done;
    }
    if (!ts[n - 1]) goto done;
    for (int64_t i = 1; i < n - 1; i++) {
        if (in.items[i]->ndim != 2) {
            tc_set_error(TC_ERR_RUNTIME, "multi_dot(): tensor %lld must be 2D but got %dD", (long long)i, in.items[i]->ndim);
            goto done;
        }
        ts[i] = in.items[i], tc_tensor_retain(ts[i]);
    }
    for (int64_t i = 1; i < n; i++) {
        if (ts[i]->dtype != ts[0]->dtype) {
            tc_set_error(TC_ERR_RUNTIME, "multi_dot(): all tensors must have be the same dtype but tensor 0 is %s and "
                                         "tensor %lld %s", tc_dtype_cpp_name(ts[0]->dtype), (long long)i,
                         tc_dtype_cpp_name(ts[i]->dtype));
            goto done;
        }
        if (ts[i - 1]->sizes[1] != ts[i]->sizes[0]) {
            char s1[256], s2[256];
            tc_shape_format(in.items[i - 1]->ndim, in.items[i - 1]->sizes, s1, sizeof s1);
            tc_shape_format(in.items[i]->ndim, in.items[i]->sizes, s2, sizeof s2);
            tc_set_error(TC_ERR_RUNTIME, "multi_dot(): tensors %lld and %lld with shapes %s and %s cannot be multiplied",
                         (long long)(i - 1), (long long)i, s1, s2);
            goto done;
        }
    }
    tc_tensor *p = chain_product(ts, n);
    r = p ? tc_view_default(p, (tc_int_list){out_shape, nout}) : NULL;
    tc_tensor_release(p);
done:
    for (int64_t i = 0; i < n; i++) tc_tensor_release(ts[i]);
    free(ts);
    return r;
}

int tc_impl_linalg_multi_dot(tc_opcall *c) {
    return tc_return(c, multi_dot((tc_tensor_list){c->args[0].v.tensors.items, c->args[0].v.tensors.len}));
}

int tc_impl_chain_matmul(tc_opcall *c) {
    static atomic_bool warned;
    warn_once(&warned, "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                       "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than multiple "
                       "parameters.");
    const tc_tensor_list in = {c->args[0].v.tensors.items, c->args[0].v.tensors.len};
    for (int64_t i = 0; i < in.len; i++)
        if (in.items[i]->ndim != 2)
            return tc_set_error(TC_ERR_RUNTIME, "Tensor dimension is %d, expected 2 instead.", in.items[i]->ndim);
    if (in.len == 0) return tc_set_error(TC_ERR_RUNTIME, "chain_matmul(): Expected one or more matrices");
    if (in.len == 1) return tc_return(c, tc_clone(in.items[0], TC_MEMORY_FORMAT_CONTIGUOUS));
    return tc_return(c, multi_dot(in));
}

/* ---- cross --------------------------------------------------------------------------------------------- */

/* cross(self, other, dim=None): linalg_cross over `dim`, or (deprecated) the first dim of size 3 */
int tc_impl_cross(tc_opcall *c) {
    tc_tensor *a = tc_arg_tensor(c, 0);
    int64_t dim;
    if (tc_arg_none(c, 2)) {
        static atomic_bool warned;
        warn_once(&warned, "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                           "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                           "with that of linalg.cross in a future release.");
        for (dim = 0; dim < a->ndim && a->sizes[dim] != 3; dim++) {
        }
        if (dim == a->ndim) return tc_set_error(TC_ERR_RUNTIME, "no dimension of size 3 in input");
    } else {
        dim = tc_arg_int(c, 2);
    }
    return tc_return(c, tc_linalg_cross(a, tc_arg_tensor(c, 1), dim));
}

/* ---- cdist ---------------------------------------------------------------------------------------------- */

/* cdist(x1, x2, p, compute_mode): _cdist_forward, which picks the mm-based Euclidean path itself */
int tc_impl_cdist(tc_opcall *c) {
    tc_tensor *x1 = tc_arg_tensor(c, 0), *x2 = tc_arg_tensor(c, 1);
    if (tc_linalg_check_cdist(x1, x2)) return TC_FAIL;
    const int64_t *mode = tc_arg_none(c, 3) ? NULL : &c->args[3].v.i;
    return tc_return(c, tc__cdist_forward(x1, x2, c->args[2].v.f, mode));
}

/* linalg_vander(x, N): [1, x, x^2, ..., x^(N-1)] along a new last dim, the powers as PyTorch forms
 * them (a running product of x; integers in int64). */
int tc_impl_linalg_vander(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0);
    if (x->dtype == TC_BOOL)
        return tc_set_error(TC_ERR_RUNTIME, "linalg.vander supports floating point, complex, and integer tensors, but "
                                            "got Bool");
    const int64_t n = !tc_arg_none(c, 1) ? tc_arg_int(c, 1) : x->ndim ? x->sizes[x->ndim - 1] : 1;
    if (n <= 1 || x->ndim == 0) return tc_set_error(TC_ERR_RUNTIME, "N must be greater than 1.");
    int64_t sizes[TC_MAX_DIMS];
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->ndim);
    sizes[x->ndim] = n - 1;
    tc_tensor *column = tc_unsqueeze(x, -1);
    tc_tensor *repeated = column ? tc_expand(column, (tc_int_list){sizes, x->ndim + 1}, false) : NULL;
    tc_tensor *powers = repeated ? tc_cumprod(repeated, -1, -1) : NULL; /* integers in int64, as cumprod's */
    sizes[x->ndim] = 1;
    tc_tensor *ones = powers ? tc_ones((tc_int_list){sizes, x->ndim + 1}, powers->dtype, -1, &x->device, NULL) : NULL;
    tc_tensor *both[2] = {ones, powers};
    tc_tensor *r = ones ? tc_cat((tc_tensor_list){both, 2}, -1) : NULL;
    tc_tensor *parts[] = {column, repeated, powers, ones};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) tc_tensor_release(parts[i]);
    return tc_return(c, r);
}
