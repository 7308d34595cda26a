/*
 * Views and in-place ops, as PyTorch handles them: a view shares its base's history.
 *
 * When an in-place op writes a view, the base's history becomes a CopySlices node: the gradient of
 * the base is the incoming gradient, except in the view's region, where the in-place op's own
 * backward replaces it. The view (and every other view of the base) then gets its grad_fn made
 * again from the base's, as an as_strided of it (AsStridedBackward0), the first time it is used.
 *
 * Both nodes compute with ops (empty_strided, as_strided, copy_), so that a recorded backward
 * (create_graph) goes through them too.
 */
#include "autograd_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct geometry {
    int32_t ndim;
    int64_t offset;
    int64_t *sizes, *strides; /* malloc'ed together */
} geometry;

static int geometry_of(geometry *g, const tc_tensor *t) {
    g->ndim = t->ndim;
    g->offset = t->offset;
    g->sizes = malloc(sizeof(int64_t) * 2 * (size_t)(t->ndim ? t->ndim : 1));
    if (!g->sizes) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    g->strides = g->sizes + t->ndim;
    memcpy(g->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(g->strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    return TC_OK;
}

static void geometry_free(geometry *g) {
    free(g->sizes);
    g->sizes = NULL;
}

static tc_int_list sizes_of(const geometry *g) { return (tc_int_list){g->sizes, g->ndim}; }
static tc_int_list strides_of(const geometry *g) { return (tc_int_list){g->strides, g->ndim}; }

/* ---- checks ---- */

int tc_ag_check_inplace(tc_tensor *t) {
    const tc_autograd_meta *bm = t->base ? t->base->autograd : NULL;
    if (bm && bm->requires_grad && !bm->grad_fn)
        return tc_set_error(TC_ERR_RUNTIME, "a view of a leaf Variable that requires grad is being used in an in-place "
                                            "operation.");
    const tc_autograd_meta *m = t->autograd;
    if (m && m->requires_grad && !m->grad_fn)
        return tc_set_error(TC_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
    return TC_OK;
}

/* ---- CopySlices ---- */

typedef struct copy_slices_state {
    geometry base, view;
    tc_node *fn; /* the in-place op's node (owned) */
} copy_slices_state;

TC_INTERNAL int tc_ag_call_node(tc_node *n, tc_tensor *const *grads, tc_tensor **out);

static int copy_slices_apply(tc_node *n, void *state, tc_tensor *const *grads, tc_tensor **out) {
    copy_slices_state *s = state;
    tc_tensor *grad = grads[0];
    tc_tensor *result = NULL, *slice = NULL, *slice_copy = NULL, *done = NULL;
    int32_t n_fn = s->fn->n_edges;
    tc_tensor **res = calloc((size_t)(n_fn ? n_fn : 1), sizeof(tc_tensor *));
    int rc = TC_FAIL;
    if (!res) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    if (!(result = tc_empty_strided(sizes_of(&s->base), strides_of(&s->base), grad->dtype, -1, &grad->device, NULL)))
        goto fail;
    if (!(done = tc_copy_(result, grad, false))) goto fail;
    tc_tensor_release(done);
    if (!(slice = tc_as_strided(result, sizes_of(&s->view), strides_of(&s->view),
                                TC_SOME_INT(s->view.offset - s->base.offset))))
        goto fail;
    if (!(slice_copy = tc_clone(slice, -1))) goto fail;
    if (tc_ag_call_node(s->fn, &slice_copy, res)) goto fail;
    done = res[0] ? tc_copy_(slice, res[0], false) : tc_zero_(slice);
    if (!done) goto fail;
    tc_tensor_release(done);
    out[0] = result;
    result = NULL;
    for (int32_t i = 1; i < n_fn; i++) {
        out[i] = res[i];
        res[i] = NULL;
    }
    rc = TC_OK;
fail:
    for (int32_t i = 0; i < n_fn; i++) tc_tensor_release(res[i]);
    free(res);
    tc_tensor_release(result);
    tc_tensor_release(slice);
    tc_tensor_release(slice_copy);
    return rc;
}

static void copy_slices_release_saved(tc_node *n, void *state) {
    copy_slices_state *s = state;
    tc_ag_node_release_saved(s->fn);
}

static void copy_slices_destroy(tc_node *n, void *state) {
    copy_slices_state *s = state;
    geometry_free(&s->base);
    geometry_free(&s->view);
    tc_node_release(s->fn);
}

static const tc_node_class copy_slices_class = {
    .name = "CopySlices",
    .apply = copy_slices_apply,
    .release_saved = copy_slices_release_saved,
    .destroy = copy_slices_destroy,
    .flags = TC_NODE_MATERIALIZE_GRADS,
};

int tc_ag_rebase_history(tc_tensor *t, tc_node *fn) {
    if (tc_ag_meta_record(&fn->inputs[0], t)) return TC_FAIL;
    tc_tensor *base = t->base;
    if (!base) return tc_ag_set_history(t, fn, 0);
    int32_t n_edges = fn->n_edges > 0 ? fn->n_edges : 1;
    tc_node *cs = tc_ag_node_alloc(&copy_slices_class, 1, n_edges, sizeof(copy_slices_state));
    if (!cs) return TC_FAIL;
    copy_slices_state *s = cs->state;
    tc_node_retain(fn);
    s->fn = fn;
    cs->seq = fn->seq;
    if (geometry_of(&s->base, base) || geometry_of(&s->view, t) || tc_ag_meta_record(&cs->inputs[0], base) ||
        tc_ag_gradient_edge(base, &cs->edges[0])) {
        tc_node_release(cs);
        return TC_FAIL;
    }
    for (int32_t i = 1; i < fn->n_edges; i++) {
        cs->edges[i] = fn->edges[i];
        tc_node_retain(cs->edges[i].node);
    }
    int rc = tc_ag_set_history(base, cs, 0);
    tc_node_release(cs);
    if (rc) return TC_FAIL;
    /* the view's own grad_fn is stale now: the next use makes it again from the base */
    tc_autograd_meta *m = tc_ag_meta(t);
    if (!m) return TC_FAIL;
    tc_node *old = m->grad_fn;
    m->grad_fn = NULL;
    tc_node_release(old);
    return TC_OK;
}

/* ---- a view's grad_fn made from its base: AsStridedBackward0 ---- */

typedef struct as_strided_state {
    geometry base, view;
} as_strided_state;

static int as_strided_apply(tc_node *n, void *state, tc_tensor *const *grads, tc_tensor **out) {
    as_strided_state *s = state;
    out[0] = tc__as_strided_backward(grads[0], sizes_of(&s->base), strides_of(&s->base), s->base.offset,
                                     sizes_of(&s->view), strides_of(&s->view), s->view.offset);
    return out[0] ? TC_OK : TC_FAIL;
}

static void as_strided_destroy(tc_node *n, void *state) {
    as_strided_state *s = state;
    geometry_free(&s->base);
    geometry_free(&s->view);
}

static const tc_node_class as_strided_class = {
    .name = "AsStridedBackward0",
    .apply = as_strided_apply,
    .destroy = as_strided_destroy,
};

TC_INTERNAL tc_node *tc_ag_view_grad_fn(tc_tensor *view, tc_tensor *base) {
    tc_node *n = tc_ag_node_alloc(&as_strided_class, 1, 1, sizeof(as_strided_state));
    if (!n) return NULL;
    as_strided_state *s = n->state;
    if (geometry_of(&s->base, base) || geometry_of(&s->view, view) || tc_ag_meta_record(&n->inputs[0], view) ||
        tc_ag_gradient_edge(base, &n->edges[0])) {
        tc_node_release(n);
        return NULL;
    }
    return n;
}
