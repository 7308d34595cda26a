/*
 * AccumulateGrad: the node at every leaf that requires grad (the leaf owns it; it points back weakly). It runs the leaf's hooks, then adds
 * the gradient into .grad: the first one is kept as it is when nothing else holds it and its
 * layout suits the leaf (PyTorch's "steal"), else copied in the leaf's layout; later ones are added
 * in place, or out of place when the backward pass is recorded (create_graph).
 */
#include "autograd_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct accumulate_state {
    tc_tensor *leaf; /* weak: the leaf owns this node; cleared (under tc_ag_lock) when the leaf goes */
} accumulate_state;

/* The leaf as a new reference, or NULL once it is gone. */
static tc_tensor *leaf_of(const accumulate_state *s) {
    tc_ag_lock();
    tc_tensor *leaf = s->leaf;
    if (leaf) { /* a weak reference: take it only while the tensor is alive */
        int64_t c = __atomic_load_n(&leaf->refcount, __ATOMIC_ACQUIRE);
        while (c > 0 && !__atomic_compare_exchange_n(&leaf->refcount, &c, c + 1, true, __ATOMIC_ACQ_REL,
                                                     __ATOMIC_ACQUIRE)) {
        }
        if (c <= 0) leaf = NULL;
    }
    tc_ag_unlock();
    return leaf;
}

void tc_ag_accumulate_grad_orphan(tc_node *n) {
    tc_ag_lock();
    ((accumulate_state *)n->state)->leaf = NULL;
    tc_ag_unlock();
}

static bool layout_suits(const tc_tensor *g, const tc_tensor *leaf) {
    if (!tc_tensor_non_overlapping_and_dense(leaf)) return tc_tensor_is_contiguous(g);
    for (int32_t d = 0; d < g->ndim; d++)
        if (g->sizes[d] > 1 && g->strides[d] != leaf->strides[d]) return false;
    return tc_tensor_non_overlapping_and_dense(g);
}

/* A copy of g in the leaf's layout. */
static tc_tensor *copy_like_leaf(tc_tensor *g, tc_tensor *leaf) {
    if (!tc_tensor_non_overlapping_and_dense(leaf)) return tc_clone(g, 1 /* contiguous_format */);
    tc_tensor *r = tc_empty_strided((tc_int_list){leaf->sizes, leaf->ndim}, (tc_int_list){leaf->strides, leaf->ndim},
                                    g->dtype, -1, &g->device, NULL);
    if (!r) return NULL;
    tc_tensor *done = tc_copy_(r, g, false);
    tc_tensor_release(r);
    return done;
}

static int accumulate(tc_tensor *leaf, tc_tensor *g, int64_t holders) {
    tc_autograd_meta *m = tc_ag_meta(leaf);
    if (!m) return TC_FAIL;
    bool grad_mode = tc_grad_enabled();
    if (!m->grad) {
        tc_tensor *keep;
        if (!grad_mode && __atomic_load_n(&g->refcount, __ATOMIC_ACQUIRE) <= holders && !tc_requires_grad(g) &&
            layout_suits(g, leaf)) {
            tc_tensor_retain(g);
            keep = g;
        } else if (!(keep = copy_like_leaf(g, leaf))) {
            return TC_FAIL;
        }
        m->grad = keep;
        return TC_OK;
    }
    if (!grad_mode) {
        tc_tensor *r = tc_add__Tensor(m->grad, g, TC_SCALAR_OF_INT(1));
        tc_tensor_release(r);
        return r ? TC_OK : TC_FAIL;
    }
    tc_tensor *sum = tc_add_Tensor(m->grad, g, TC_SCALAR_OF_INT(1));
    if (!sum) return TC_FAIL;
    tc_tensor_release(m->grad);
    m->grad = sum;
    return TC_OK;
}

static int accumulate_apply(tc_node *n, void *state, tc_tensor *const *grads, tc_tensor **out) {
    tc_tensor *g = grads[0];
    if (!g) return TC_OK;
    tc_tensor *leaf = leaf_of(state);
    if (!leaf) return TC_OK; /* the leaf is gone: nobody can read its gradient */
    tc_tensor_retain(g);
    tc_autograd_meta *m = tc_ag_meta(leaf);
    int rc = TC_FAIL;
    if (m) {
        tc_tensor *before = g;
        rc = tc_ag_run_tensor_hooks(m->hooks, 0, &g);
        if (rc == TC_OK && g) {
            pthread_mutex_lock(n->lock);
            /* the engine's buffer and our own reference: nothing else holds an unhooked gradient */
            rc = accumulate(leaf, g, g == before ? 2 : 1);
            pthread_mutex_unlock(n->lock);
        }
    }
    tc_tensor_release(g);
    tc_tensor_release(leaf);
    return rc;
}

static const tc_node_class accumulate_class = {
    .name = "AccumulateGrad",
    .apply = accumulate_apply,
};

tc_node *tc_ag_accumulate_grad_new(tc_tensor *leaf) {
    tc_node *n = tc_ag_node_alloc(&accumulate_class, 1, 0, sizeof(accumulate_state));
    if (!n) return NULL;
    if (!(n->lock = malloc(sizeof(pthread_mutex_t))) || tc_ag_meta_record(&n->inputs[0], leaf)) {
        free(n->lock);
        n->lock = NULL;
        tc_node_release(n);
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory"), NULL;
    }
    pthread_mutex_init(n->lock, NULL);
    n->seq = UINT64_MAX; /* leaves take their gradients as soon as they are complete */
    ((accumulate_state *)n->state)->leaf = leaf;
    return n;
}

tc_tensor *tc_node_variable(const tc_node *n) {
    return n->cls == &accumulate_class ? leaf_of(n->state) : NULL;
}
