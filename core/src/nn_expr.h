/*
 * nn_expr.h - arithmetic on tensors for composites that are long formulas (the double backward of
 * the normalisations): every intermediate result is kept in a scope and released with it, and an
 * operation on a failed operand (NULL) fails without running, so a formula is written straight
 * through and checked once at its end. Everything goes through the ops' typed entries, so the
 * results stay differentiable.
 */
#ifndef TC_NN_EXPR_H
#define TC_NN_EXPR_H

#include "core_internal.h"

#include <stdlib.h>

typedef struct nnx_scope {
    tc_tensor **items;
    int32_t n, cap;
    bool failed;
} nnx_scope;

/* Takes over t's reference (NULL marks the scope failed). */
static inline tc_tensor *nnx_keep(nnx_scope *s, tc_tensor *t) {
    if (!t) {
        s->failed = true;
        return NULL;
    }
    if (s->n == s->cap) {
        int32_t cap = s->cap ? 2 * s->cap : 32;
        tc_tensor **items = realloc(s->items, sizeof(tc_tensor *) * (size_t)cap);
        if (!items) {
            tc_tensor_release(t);
            s->failed = true;
            tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
            return NULL;
        }
        s->items = items;
        s->cap = cap;
    }
    s->items[s->n++] = t;
    return t;
}

static inline void nnx_release(nnx_scope *s) {
    for (int32_t i = 0; i < s->n; i++) tc_tensor_release(s->items[i]);
    free(s->items);
    *s = (nnx_scope){0};
}

/* A new reference to t (a result that outlives the scope), NULL when the scope failed. */
static inline tc_tensor *nnx_result(nnx_scope *s, tc_tensor *t) {
    if (s->failed || !t) return NULL;
    tc_tensor_retain(t);
    return t;
}

/* A Python number beside tensors: lowest promotion priority, any device. */
static inline tc_tensor *nnx_number(nnx_scope *s, double v) {
    tc_tensor *t = tc_scalar_tensor(TC_SCALAR_OF_FLOAT(v), TC_FLOAT64);
    if (t) t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return nnx_keep(s, t);
}

static inline tc_tensor *nnx_add(nnx_scope *s, tc_tensor *a, tc_tensor *b) {
    return a && b ? nnx_keep(s, tc_add_Tensor(a, b, TC_SCALAR_OF_INT(1))) : (s->failed = true, NULL);
}
static inline tc_tensor *nnx_sub(nnx_scope *s, tc_tensor *a, tc_tensor *b) {
    return a && b ? nnx_keep(s, tc_sub_Tensor(a, b, TC_SCALAR_OF_INT(1))) : (s->failed = true, NULL);
}
static inline tc_tensor *nnx_mul(nnx_scope *s, tc_tensor *a, tc_tensor *b) {
    return a && b ? nnx_keep(s, tc_mul_Tensor(a, b)) : (s->failed = true, NULL);
}
static inline tc_tensor *nnx_scale(nnx_scope *s, tc_tensor *a, double v) { return nnx_mul(s, a, nnx_number(s, v)); }
/* a + b where either may be undefined (NULL): the defined one, or NULL. */
static inline tc_tensor *nnx_add_opt(nnx_scope *s, tc_tensor *a, tc_tensor *b) {
    return !a ? b : !b ? a : nnx_add(s, a, b);
}
static inline tc_tensor *nnx_view(nnx_scope *s, tc_tensor *a, tc_int_list sizes) {
    return a ? nnx_keep(s, tc_reshape(a, sizes)) : (s->failed = true, NULL);
}
/* The sum over dims (kept as 1s when keepdim). */
static inline tc_tensor *nnx_sum(nnx_scope *s, tc_tensor *a, tc_int_list dims, bool keepdim) {
    return a ? nnx_keep(s, tc_sum_dim_IntList(a, &dims, keepdim, -1)) : (s->failed = true, NULL);
}
static inline tc_tensor *nnx_expand(nnx_scope *s, tc_tensor *a, const tc_tensor *like) {
    return a ? nnx_keep(s, tc_expand(a, (tc_int_list){like->sizes, like->ndim}, false)) : (s->failed = true, NULL);
}

#endif
