/*
 * einsum, as PyTorch 1.13 computes it: operands are permuted (diagonals taken for repeated
 * subscripts, size-1 dims added for missing ones) to one common order, output dims first; dims only
 * one operand still holds are summed early; operands are then contracted left to right (or in the
 * order `path` gives), each pair by sumproduct_pair: a bmm over permuted, reshaped operands. So the
 * results, and the graph autograd records, are those of PyTorch's einsum.
 */
#include "linalg.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define EIN_LETTERS 26
#define EIN_LABELS (2 * EIN_LETTERS)
#define EIN_ELLIPSIS EIN_LABELS

/* Uppercase letters first, then lowercase: the order implicit outputs follow. */
static int label_of(unsigned char ch) { return isupper(ch) ? ch - 'A' : ch - 'a' + EIN_LETTERS; }
static char letter_of(int label) { return (char)(label < EIN_LETTERS ? 'A' + label : 'a' + label - EIN_LETTERS); }

/* One operand's labels (EIN_ELLIPSIS for "..."). */
typedef struct ein_op {
    uint8_t labels[TC_MAX_DIMS + 1];
    int32_t n;
} ein_op;

/* t's dims d1 and d2 (d1 < d2) joined into their diagonal at d1: PyTorch's
 * op.diagonal(0, d1, d2).movedim(-1, d1), as one strided view. */
static tc_tensor *diagonal_at(tc_tensor *t, int32_t d1, int32_t d2) {
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
    int32_t n = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        if (d == d2) continue;
        sizes[n] = d == d1 ? (t->sizes[d1] < t->sizes[d2] ? t->sizes[d1] : t->sizes[d2]) : t->sizes[d];
        strides[n++] = d == d1 ? t->strides[d1] + t->strides[d2] : t->strides[d];
    }
    return tc_as_strided(t, (tc_int_list){sizes, n}, (tc_int_list){strides, n}, TC_SOME_INT(t->offset));
}

/* PyTorch's sumproduct_pair: the product of left and right summed over sum_dims, keeping every
 * dim (size 1 where summed). Both have the same number of dims, broadcastable. */
static tc_tensor *sumproduct_pair(tc_tensor *left, tc_tensor *right, const int64_t *sum_dims, int32_t nsum) {
    if (nsum == 0) return tc_mul_Tensor(left, right);
    const int32_t dim = left->ndim;
    bool summed[TC_MAX_DIMS] = {false};
    for (int32_t i = 0; i < nsum; i++) summed[sum_dims[i]] = true;
    int64_t lro[TC_MAX_DIMS], lo[TC_MAX_DIMS], ro[TC_MAX_DIMS];
    int32_t nlro = 0, nlo = 0, nro = 0;
    int64_t lro_size = 1, lo_size = 1, ro_size = 1, sum_size = 1;
    tc_tensor *l = left, *r = right, *tmp;
    tc_tensor_retain(l);
    tc_tensor_retain(r);
    tc_tensor *result = NULL;
    for (int32_t i = 0; i < dim; i++) {
        const bool sl = l->sizes[i] != 1, sr = r->sizes[i] != 1;
        if (summed[i]) {
            if (sl && sr) {
                if (l->sizes[i] != r->sizes[i]) {
                    tc_set_error(TC_ERR_RUNTIME, "non-broadcast dimensions must match");
                    goto done;
                }
                sum_size *= l->sizes[i];
            } else if (sl || sr) { /* in only one of them: sum it there right away */
                tc_tensor **t = sl ? &l : &r;
                if (!(tmp = tc_sum_dim_IntList(*t, &TC_INTS(i), true, -1))) goto done;
                tc_tensor_release(*t);
                *t = tmp;
            }
        } else if (sl && sr) {
            if (l->sizes[i] != r->sizes[i]) {
                tc_set_error(TC_ERR_RUNTIME, "non-broadcast dimensions must match");
                goto done;
            }
            lro[nlro++] = i, lro_size *= l->sizes[i];
        } else if (sl) {
            lo[nlo++] = i, lo_size *= l->sizes[i];
        } else {
            ro[nro++] = i, ro_size *= r->sizes[i];
        }
    }
    /* left: lro, lo, summed (ro dims are size 1); right: lro, summed, ro (lo dims size 1) */
    int64_t lperm[TC_MAX_DIMS], rperm[TC_MAX_DIMS], operm[TC_MAX_DIMS], out_size[TC_MAX_DIMS];
    int32_t k = 0;
#define APPEND(dst, src, n) memcpy(dst + k, src, sizeof(int64_t) * (size_t)(n)), k += (n)
    APPEND(lperm, lro, nlro);
    APPEND(lperm, lo, nlo);
    APPEND(lperm, sum_dims, nsum);
    APPEND(lperm, ro, nro);
    k = 0;
    APPEND(rperm, lro, nlro);
    APPEND(rperm, sum_dims, nsum);
    APPEND(rperm, ro, nro);
    APPEND(rperm, lo, nlo);
#undef APPEND
    int32_t o = 0;
    for (int32_t i = 0; i < nlro; i++) out_size[o] = l->sizes[lro[i]], operm[lro[i]] = o++;
    for (int32_t i = 0; i < nlo; i++) out_size[o] = l->sizes[lo[i]], operm[lo[i]] = o++;
    for (int32_t i = 0; i < nsum; i++) out_size[o] = 1, operm[sum_dims[i]] = o++;
    for (int32_t i = 0; i < nro; i++) out_size[o] = r->sizes[ro[i]], operm[ro[i]] = o++;
    tc_tensor *lp = tc_permute(l, (tc_int_list){lperm, dim});
    tc_tensor *l3 = lp ? tc_reshape(lp, TC_INTS(lro_size, lo_size, sum_size)) : NULL;
    tc_tensor *rp = l3 ? tc_permute(r, (tc_int_list){rperm, dim}) : NULL;
    tc_tensor *r3 = rp ? tc_reshape(rp, TC_INTS(lro_size, sum_size, ro_size)) : NULL;
    tc_tensor *prod = r3 ? tc_bmm(l3, r3) : NULL;
    tc_tensor *v = prod ? tc_view_default(prod, (tc_int_list){out_size, dim}) : NULL;
    result = v ? tc_permute(v, (tc_int_list){operm, dim}) : NULL;
    tc_tensor_release(lp);
    tc_tensor_release(l3);
    tc_tensor_release(rp);
    tc_tensor_release(r3);
    tc_tensor_release(prod);
    tc_tensor_release(v);
done:
    tc_tensor_release(l);
    tc_tensor_release(r);
    return result;
}

/* Parses one side of the equation into per-operand labels. */
static int parse_lhs(const char *lhs, size_t len, int64_t num_ops, ein_op *ops) {
    int64_t cur = 0;
    bool found_ell = false;
    for (size_t i = 0; i < len; i++) {
        const unsigned char ch = (unsigned char)lhs[i];
        if (ch == ' ') continue;
        if (ch == '.') {
            if (found_ell)
                return tc_set_error(TC_ERR_RUNTIME, "einsum(): found '.' for operand %lld for which an ellipsis was "
                                                    "already found", (long long)cur);
            if (!(i + 2 < len && lhs[i + 1] == '.' && lhs[i + 2] == '.'))
                return tc_set_error(TC_ERR_RUNTIME, "einsum(): found '.' for operand %lld that is not part of any "
                                                    "ellipsis", (long long)cur);
            i += 2;
            found_ell = true;
            ops[cur].labels[ops[cur].n++] = EIN_ELLIPSIS;
        } else if (ch == ',') {
            if (++cur >= num_ops)
                return tc_set_error(TC_ERR_RUNTIME, "einsum(): fewer operands were provided than specified in the "
                                                    "equation");
            found_ell = false;
        } else if (isalpha(ch)) {
            if (ops[cur].n > TC_MAX_DIMS) return tc_set_error(TC_ERR_RUNTIME, "einsum(): too many subscripts");
            ops[cur].labels[ops[cur].n++] = (uint8_t)label_of(ch);
        } else {
            return tc_set_error(TC_ERR_RUNTIME, "einsum(): invalid subscript given at index %zu in the equation string, "
                                                "subscripts must be in [a-zA-Z]", i);
        }
    }
    if (cur != num_ops - 1)
        return tc_set_error(TC_ERR_RUNTIME, "einsum(): more operands were provided than specified in the equation");
    return TC_OK;
}

/* einsum(equation, tensors, *, path) */
int tc_impl_einsum(tc_opcall *c) {
    const char *eq = c->args[0].v.s;
    const tc_tensor_list in = {c->args[1].v.tensors.items, c->args[1].v.tensors.len};
    const int64_t num_ops = in.len;
    if (num_ops == 0) return tc_set_error(TC_ERR_RUNTIME, "einsum(): must provide at least one operand");
    const bool has_path = !tc_arg_none(c, 2);
    tc_int_list path = has_path ? tc_arg_ints(c, 2) : TC_NO_INTS;
    if (has_path && path.len != (num_ops == 1 ? 1 : (num_ops - 1) * 2))
        return tc_set_error(TC_ERR_RUNTIME, "einsum(): expected contraction path given in path parameter to have size "
                                            "%lld but got %lld", (long long)(num_ops == 1 ? 1 : (num_ops - 1) * 2),
                            (long long)path.len);
    for (int64_t i = 0; i < num_ops; i++)
        if (in.items[i]->dtype != in.items[0]->dtype)
            return tc_set_error(TC_ERR_RUNTIME, "expected scalar type %s but found %s",
                                tc_dtype_scalar_name(in.items[0]->dtype), tc_dtype_scalar_name(in.items[i]->dtype));
    const char *arrow = strstr(eq, "->");
    const size_t lhs_len = arrow ? (size_t)(arrow - eq) : strlen(eq);
    ein_op *op_labels = calloc((size_t)num_ops, sizeof(ein_op));
    tc_tensor **ops = calloc((size_t)num_ops, sizeof(tc_tensor *));
    int rc = TC_FAIL;
    if (!op_labels || !ops) {
        tc_set_error(TC_ERR_OUT_OF_MEMORY, "einsum(): out of memory");
        goto done;
    }
    if (parse_lhs(eq, lhs_len, num_ops, op_labels)) goto done;

    int64_t label_count[EIN_LABELS] = {0}, ell_num_dim = 0;
    for (int64_t i = 0; i < num_ops; i++) {
        const int64_t ndims = in.items[i]->ndim;
        int64_t nlabels = op_labels[i].n;
        bool has_ell = false;
        for (int32_t j = 0; j < op_labels[i].n; j++) {
            const uint8_t l = op_labels[i].labels[j];
            if (l == EIN_ELLIPSIS) {
                --nlabels;
                has_ell = true;
            } else {
                label_count[l]++;
            }
        }
        if (has_ell ? nlabels > ndims : nlabels != ndims) {
            tc_set_error(TC_ERR_RUNTIME, "einsum(): the number of subscripts in the equation (%lld) %s the number of "
                                         "dimensions (%lld) for operand %lld%s", (long long)nlabels,
                         has_ell ? "is more than" : "does not match", (long long)ndims, (long long)i,
                         has_ell ? "" : " and no ellipsis was given");
            goto done;
        }
        if (has_ell && ndims - nlabels > ell_num_dim) ell_num_dim = ndims - nlabels;
    }

    /* Each label's index in the common order: output dims first, then the contracted ones. */
    int64_t perm_index_of[EIN_LABELS], perm_index = 0, ell_index = 0;
    for (int i = 0; i < EIN_LABELS; i++) perm_index_of[i] = -1;
    bool found_ell = false;
    if (!arrow) { /* implicit output: the ellipsis, then labels seen once, in order */
        perm_index = ell_num_dim;
        found_ell = true;
        for (int l = 0; l < EIN_LABELS; l++)
            if (label_count[l] == 1) perm_index_of[l] = perm_index++;
    } else {
        const char *rhs = arrow + 2;
        const size_t rlen = strlen(rhs);
        for (size_t i = 0; i < rlen; i++) {
            const unsigned char ch = (unsigned char)rhs[i];
            if (ch == ' ') continue;
            if (ch == '.') {
                if (found_ell) {
                    tc_set_error(TC_ERR_RUNTIME, "einsum(): found '.' for output but an ellipsis (...) was already found");
                    goto done;
                }
                if (!(i + 2 < rlen && rhs[i + 1] == '.' && rhs[i + 2] == '.')) {
                    tc_set_error(TC_ERR_RUNTIME, "einsum(): found '.' for output that is not part of any ellipsis (...)");
                    goto done;
                }
                i += 2;
                ell_index = perm_index;
                perm_index += ell_num_dim;
                found_ell = true;
            } else if (isalpha(ch)) {
                const int l = label_of(ch);
                if (!(label_count[l] > 0 && perm_index_of[l] == -1)) {
                    tc_set_error(TC_ERR_RUNTIME, "einsum(): output subscript %c%s", ch,
                                 perm_index_of[l] > -1 ? " appears more than once in the output"
                                                       : " does not appear in the equation for any input operand");
                    goto done;
                }
                perm_index_of[l] = perm_index++;
            } else {
                tc_set_error(TC_ERR_RUNTIME, "einsum(): invalid subscript given at index %zu in the equation string, "
                                             "subscripts must be in [a-zA-Z]", lhs_len + 2 + i);
                goto done;
            }
        }
    }
    const int64_t out_size = perm_index;
    if (!found_ell) { /* an ellipsis not in the output is summed */
        ell_index = perm_index;
        perm_index += ell_num_dim;
    }
    for (int l = 0; l < EIN_LABELS; l++)
        if (label_count[l] > 0 && perm_index_of[l] == -1) perm_index_of[l] = perm_index++;
    if (perm_index > TC_MAX_DIMS) {
        tc_set_error(TC_ERR_RUNTIME, "einsum(): too many dimensions");
        goto done;
    }

    /* Align every operand to the common order; count the operands with a size != 1 for each dim. */
    int64_t label_size[EIN_LABELS], ell_sizes[TC_MAX_DIMS], dim_counts[TC_MAX_DIMS] = {0};
    for (int l = 0; l < EIN_LABELS; l++) label_size[l] = 1;
    for (int64_t j = 0; j < ell_num_dim; j++) ell_sizes[j] = 1;
    for (int64_t i = 0; i < num_ops; i++) {
        tc_tensor *op = in.items[i], *t;
        tc_tensor_retain(op);
        int64_t permutation[TC_MAX_DIMS];
        for (int64_t p = 0; p < perm_index; p++) permutation[p] = -1;
        int32_t dim = 0;
        for (int32_t li = 0; li < op_labels[i].n; li++) {
            const uint8_t s = op_labels[i].labels[li];
            if (s == EIN_ELLIPSIS) {
                const int64_t ndim = in.items[i]->ndim - (op_labels[i].n - 1);
                for (int64_t j = ell_num_dim - ndim; j < ell_num_dim; j++) {
                    if (op->sizes[dim] != 1) {
                        if (!(ell_sizes[j] == 1 || ell_sizes[j] == op->sizes[dim])) {
                            tc_set_error(TC_ERR_RUNTIME, "einsum(): dimension %d covered by ellipsis in operand %lldhas "
                                                         "size %lld which does not broadcast with previously seen "
                                                         "ellipsis with size %lld for the respective dimension", dim,
                                         (long long)i, (long long)op->sizes[dim], (long long)ell_sizes[j]);
                            tc_tensor_release(op);
                            goto done;
                        }
                        ell_sizes[j] = op->sizes[dim];
                        dim_counts[ell_index + j]++;
                    }
                    permutation[ell_index + j] = dim++;
                }
            } else if (permutation[perm_index_of[s]] == -1) {
                if (op->sizes[dim] != 1) {
                    if (!(label_size[s] == 1 || label_size[s] == op->sizes[dim])) {
                        tc_set_error(TC_ERR_RUNTIME, "einsum(): subscript %c has size %lld for operand %lld which does "
                                                     "not broadcast with previously seen size %lld", letter_of(s),
                                     (long long)op->sizes[dim], (long long)i, (long long)label_size[s]);
                        tc_tensor_release(op);
                        goto done;
                    }
                    label_size[s] = op->sizes[dim];
                    dim_counts[perm_index_of[s]]++;
                }
                permutation[perm_index_of[s]] = dim++;
            } else { /* a repeated label: its diagonal */
                const int64_t prev = permutation[perm_index_of[s]];
                if (op->sizes[dim] != op->sizes[prev]) {
                    tc_set_error(TC_ERR_RUNTIME, "einsum(): subscript %c is repeated for operand %lld but the sizes "
                                                 "don't match, %lld != %lld", letter_of(s), (long long)i,
                                 (long long)op->sizes[dim], (long long)op->sizes[prev]);
                    tc_tensor_release(op);
                    goto done;
                }
                t = diagonal_at(op, (int32_t)prev, dim);
                tc_tensor_release(op);
                if (!(op = t)) goto done;
            }
        }
        for (int64_t p = 0; p < perm_index; p++) { /* missing labels: size-1 dims */
            if (permutation[p] != -1) continue;
            t = tc_unsqueeze(op, dim);
            tc_tensor_release(op);
            if (!(op = t)) goto done;
            permutation[p] = dim++;
        }
        ops[i] = tc_permute(op, (tc_int_list){permutation, perm_index});
        tc_tensor_release(op);
        if (!ops[i]) goto done;
    }

    /* Contract, a pair at a time: left to right, or as `path` says. */
    int64_t live = num_ops, step = 0;
    while (live > 1) {
        int64_t i = 0, j = 1;
        if (has_path) {
            i = path.items[step++], j = path.items[step++];
            if (j < i) {
                const int64_t t = i;
                i = j, j = t;
            }
            if (!(i != j && i >= 0 && j < live)) {
                tc_set_error(TC_ERR_RUNTIME, "einsum(): invalid contraction (%lld, %lld) %s", (long long)i,
                             (long long)j, i == j ? "cannot contract an operand with itself"
                                                  : "operand index is out of bounds");
                goto done;
            }
        }
        tc_tensor *a = ops[i], *b = ops[j];
        memmove(ops + j, ops + j + 1, sizeof(tc_tensor *) * (size_t)(live - j - 1));
        memmove(ops + i, ops + i + 1, sizeof(tc_tensor *) * (size_t)(live - i - 2));
        live -= 2;
        ops[live] = ops[live + 1] = NULL;
        int64_t sum_dims[TC_MAX_DIMS], a_sum[TC_MAX_DIMS], b_sum[TC_MAX_DIMS];
        int32_t nsum = 0, na = 0, nb = 0;
        for (int64_t d = out_size; d < perm_index; d++) {
            if (a->sizes[d] != 1 && b->sizes[d] != 1) {
                if (--dim_counts[d] == 1) {
                    sum_dims[nsum++] = d;
                    dim_counts[d] = 0;
                }
            } else if (dim_counts[d] == 1) {
                if (a->sizes[d] != 1) {
                    a_sum[na++] = d;
                    dim_counts[d] = 0;
                } else if (b->sizes[d] != 1) {
                    b_sum[nb++] = d;
                    dim_counts[d] = 0;
                }
            }
        }
        tc_tensor *as = na ? tc_sum_dim_IntList(a, &(tc_int_list){a_sum, na}, true, -1) : (tc_tensor_retain(a), a);
        tc_tensor *bs = as && nb ? tc_sum_dim_IntList(b, &(tc_int_list){b_sum, nb}, true, -1)
                                 : as ? (tc_tensor_retain(b), b) : NULL;
        tc_tensor *r = bs ? sumproduct_pair(as, bs, sum_dims, nsum) : NULL;
        tc_tensor_release(a);
        tc_tensor_release(b);
        tc_tensor_release(as);
        tc_tensor_release(bs);
        if (!r) goto done;
        if (has_path) {
            ops[live++] = r;
        } else {
            memmove(ops + 1, ops, sizeof(tc_tensor *) * (size_t)live);
            ops[0] = r;
            live++;
        }
    }

    tc_tensor *result;
    if (perm_index - out_size > 0) {
        if (num_ops > 1) { /* the contracted dims are size 1 by now */
            result = tc_view_default(ops[0], (tc_int_list){ops[0]->sizes, out_size});
        } else {
            int64_t dims[TC_MAX_DIMS];
            for (int64_t d = out_size; d < perm_index; d++) dims[d - out_size] = d;
            result = tc_sum_dim_IntList(ops[0], &(tc_int_list){dims, perm_index - out_size}, false, -1);
        }
    } else {
        result = ops[0];
        ops[0] = NULL;
    }
    rc = tc_return(c, result);
done:
    if (ops)
        for (int64_t i = 0; i < num_ops; i++) tc_tensor_release(ops[i]);
    free(ops);
    free(op_labels);
    return rc;
}
