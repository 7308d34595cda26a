/*
 * nn_temps.h - temporaries of the nn composites (impl_activation.c, impl_loss.c, impl_rnn.c,
 * impl_attention.c): a composite is a chain of op calls whose intermediate results all go at the
 * end, and whose first failure skips the rest.
 *
 *     nn_temps k = NN_TEMPS_INIT;
 *     tc_tensor *d = NN_KEEP(&k, tc_sub_Tensor(a, b, one));
 *     tc_tensor *r = NN_KEEP(&k, tc_mul_Tensor(d, d));     // not run when the sub failed
 *     return nn_temps_return(&k, c, r);                    // r retained for the caller, the rest freed
 *
 * NN_KEEP evaluates its expression only while nothing has failed, so no op ever receives a NULL
 * left by an earlier failure.
 */
#ifndef TC_NN_TEMPS_H
#define TC_NN_TEMPS_H

#include "core_internal.h"

#include <stdlib.h>

typedef struct nn_temps {
    tc_tensor **items;
    int64_t n, cap;
    bool failed;
} nn_temps;

#define NN_TEMPS_INIT {NULL, 0, 0, false}

static inline tc_tensor *nn_keep(nn_temps *k, tc_tensor *t) {
    if (!t) {
        k->failed = true;
        return NULL;
    }
    if (k->n == k->cap) {
        int64_t cap = k->cap ? k->cap * 2 : 16;
        tc_tensor **items = realloc(k->items, sizeof(tc_tensor *) * (size_t)cap);
        if (!items) {
            tc_tensor_release(t);
            k->failed = true;
            tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
            return NULL;
        }
        k->items = items;
        k->cap = cap;
    }
    k->items[k->n++] = t;
    return t;
}

#define NN_KEEP(k, expr) ((k)->failed ? NULL : nn_keep((k), (expr)))

/* Marks the chain failed (an error the composite raises itself); returns NULL. */
static inline tc_tensor *nn_fail(nn_temps *k) {
    k->failed = true;
    return NULL;
}

static inline void nn_temps_free(nn_temps *k) {
    for (int64_t i = 0; i < k->n; i++) tc_tensor_release(k->items[i]);
    free(k->items);
    k->items = NULL;
    k->n = k->cap = 0;
}

/* A new reference to t, or NULL once the chain failed. */
static inline tc_tensor *nn_take(nn_temps *k, tc_tensor *t) {
    if (k->failed || !t) return NULL;
    tc_tensor_retain(t);
    return t;
}

/* Frees the temporaries and returns r (one of them, or NULL after a failure) as the op's result. */
static inline int nn_temps_return(nn_temps *k, tc_opcall *c, tc_tensor *r) {
    tc_tensor *out = nn_take(k, r);
    nn_temps_free(k);
    return tc_return(c, out);
}

/* A Python number beside tensors: a 0-dim wrapped-number tensor (lowest promotion priority). */
static inline tc_tensor *nn_number(double v) {
    tc_tensor *t = tc_scalar_tensor(TC_SCALAR_OF_FLOAT(v), TC_FLOAT64);
    if (t) t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return t;
}

static inline tc_tensor *nn_int_number(int64_t v) {
    tc_tensor *t = tc_scalar_tensor(TC_SCALAR_OF_INT(v), TC_INT64);
    if (t) t->flags |= TC_TENSOR_WRAPPED_NUMBER;
    return t;
}

#endif
