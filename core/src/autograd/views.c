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
 *
 * A view may have another dtype than its base: the real view of a complex tensor (view_as_real,
 * real, imag) or the complex view of a real one (view_as_complex). Both nodes then work in real
 * units, where a complex tensor's geometry is its view_as_real's (a last dim of 2), and convert
 * between the two dtypes with view_as_real / view_as_complex.
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

/* How a view's dtype relates to its base's. */
enum { SAME_DTYPE, REAL_VIEW_OF_COMPLEX, COMPLEX_VIEW_OF_REAL };

static int32_t dtype_relation(const tc_tensor *view, const tc_tensor *base) {
    bool v = tc_dtype_is_complex(view->dtype), b = tc_dtype_is_complex(base->dtype);
    return v == b ? SAME_DTYPE : b ? REAL_VIEW_OF_COMPLEX : COMPLEX_VIEW_OF_REAL;
}

/* A complex geometry in real units: view_as_real's (strides doubled, a last dim of 2). */
typedef struct real_units {
    int32_t ndim;
    int64_t offset;
    int64_t sizes[TC_MAX_DIMS], strides[TC_MAX_DIMS];
} real_units;

static int as_real_units(const geometry *g, real_units *r) {
    if (g->ndim + 1 > TC_MAX_DIMS) return tc_set_error(TC_ERR_RUNTIME, "too many dimensions for a complex view");
    for (int32_t d = 0; d < g->ndim; d++) {
        r->sizes[d] = g->sizes[d];
        if (__builtin_mul_overflow(g->strides[d], 2, &r->strides[d]))
            return tc_set_error(TC_ERR_RUNTIME, "stride overflow");
    }
    r->sizes[g->ndim] = 2;
    r->strides[g->ndim] = 1;
    r->ndim = g->ndim + 1;
    if (__builtin_mul_overflow(g->offset, 2, &r->offset)) return tc_set_error(TC_ERR_RUNTIME, "offset overflow");
    return TC_OK;
}

static tc_int_list real_sizes(const real_units *r) { return (tc_int_list){r->sizes, r->ndim}; }
static tc_int_list real_strides(const real_units *r) { return (tc_int_list){r->strides, r->ndim}; }

/* The region of `whole` (a fresh tensor of the base's geometry and dtype) that the view covers, in
 * the view's dtype. */
static tc_tensor *view_region(tc_tensor *whole, const geometry *base, const geometry *view, int32_t relation) {
    if (relation == SAME_DTYPE)
        return tc_as_strided(whole, sizes_of(view), strides_of(view), TC_SOME_INT(view->offset - base->offset));
    real_units r;
    if (relation == REAL_VIEW_OF_COMPLEX) {
        tc_tensor *parts = as_real_units(base, &r) ? NULL : tc_view_as_real(whole);
        tc_tensor *v = parts ? tc_as_strided(parts, sizes_of(view), strides_of(view),
                                             TC_SOME_INT(view->offset - r.offset))
                             : NULL;
        tc_tensor_release(parts);
        return v;
    }
    tc_tensor *parts = as_real_units(view, &r) ? NULL
                       : tc_as_strided(whole, real_sizes(&r), real_strides(&r), TC_SOME_INT(r.offset - base->offset));
    tc_tensor *v = parts ? tc_view_as_complex(parts) : NULL;
    tc_tensor_release(parts);
    return v;
}

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
    int32_t relation; /* of the view's dtype to the base's */
    tc_node *fn;      /* the in-place op's node (owned) */
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
    if (!(slice = view_region(result, &s->base, &s->view, s->relation))) goto fail;
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
    s->relation = dtype_relation(t, base);
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
    int32_t relation; /* of the view's dtype to the base's */
} as_strided_state;

static int as_strided_apply(tc_node *n, void *state, tc_tensor *const *grads, tc_tensor **out) {
    as_strided_state *s = state;
    real_units r;
    if (s->relation == SAME_DTYPE) {
        out[0] = tc__as_strided_backward(grads[0], sizes_of(&s->base), strides_of(&s->base), s->base.offset,
                                         sizes_of(&s->view), strides_of(&s->view), s->view.offset);
    } else if (s->relation == REAL_VIEW_OF_COMPLEX) { /* the base's parts, then the base */
        tc_tensor *parts = as_real_units(&s->base, &r) ? NULL
                           : tc__as_strided_backward(grads[0], real_sizes(&r), real_strides(&r), r.offset,
                                                     sizes_of(&s->view), strides_of(&s->view), s->view.offset);
        out[0] = parts ? tc_view_as_complex(parts) : NULL;
        tc_tensor_release(parts);
    } else { /* the gradient's parts are what the real base sees */
        tc_tensor *plain = as_real_units(&s->view, &r) ? NULL : tc_resolve_conj(grads[0]);
        tc_tensor *parts = plain ? tc_view_as_real(plain) : NULL;
        out[0] = parts ? tc__as_strided_backward(parts, sizes_of(&s->base), strides_of(&s->base), s->base.offset,
                                                 real_sizes(&r), real_strides(&r), r.offset)
                       : NULL;
        tc_tensor_release(plain);
        tc_tensor_release(parts);
    }
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
    s->relation = dtype_relation(view, base);
    if (geometry_of(&s->base, base) || geometry_of(&s->view, view) || tc_ag_meta_record(&n->inputs[0], view) ||
        tc_ag_gradient_edge(base, &n->edges[0])) {
        tc_node_release(n);
        return NULL;
    }
    return n;
}
