/*
 * Forward-mode AD: dual tensors carry a tangent, and every op with derivative formulas carries it
 * through, by the double-backward trick. The reverse formula gives the vector-Jacobian product
 * g(u) = J^T u, which is linear in u, so the Jacobian-vector product J t is the gradient of <g(u), t>
 * with respect to u: two small backward passes per op, over a graph of that op alone, and no
 * forward formulas to write or keep in step with the reverse ones.
 *
 * A dual tensor carries TC_KEY_FORWARD_AD; the step runs the op below the key for the primal
 * results, then the trick on detached copies of the arguments (so nothing of it reaches the
 * caller's graph), and sets the results' tangents. One level at a time, as PyTorch 1.13.
 */
#include "autograd_internal.h"

#include <stdlib.h>
#include <string.h>

static atomic_int_fast64_t live_level = -1;
static atomic_int_fast64_t next_level;

int64_t tc_fw_enter_level(void) {
    int_fast64_t expected = -1, level = atomic_fetch_add(&next_level, 1);
    if (!atomic_compare_exchange_strong(&live_level, &expected, level))
        return tc_set_error(TC_ERR_RUNTIME, "Nested forward mode AD is not supported at the moment");
    return level;
}

int tc_fw_exit_level(int64_t level) {
    int_fast64_t expected = level;
    if (level < 0 || !atomic_compare_exchange_strong(&live_level, &expected, -1))
        return tc_set_error(TC_ERR_RUNTIME, "Trying to exit a forward AD level that was not the last one that was "
                                            "created. This is not supported.");
    return TC_OK;
}

/* A tangent stored on t itself at the live level (borrowed), or NULL. */
static tc_tensor *own_tangent(const tc_tensor *t) {
    const tc_autograd_meta *m = t ? t->autograd : NULL;
    int64_t live = atomic_load(&live_level);
    return m && m->fw_grad && live >= 0 && m->fw_level == live ? m->fw_grad : NULL;
}

/* Calls made meanwhile carry no tangents (they compute tangents, or primal values). */
static tc_keyset exclude_fw(void) {
    tc_keyset ex = tc_dispatch_excluded();
    tc_dispatch_set_excluded(ex | TC_KEYBIT(TC_KEY_FORWARD_AD));
    return ex;
}

/* The region of a base's tangent that a view of the base covers (a base's tangent is laid out as
 * the base, so the view's geometry applies to it as it is). */
static tc_tensor *view_of_tangent(const tc_tensor *view, tc_tensor *base_tangent) {
    if (tc_dtype_is_complex(view->dtype) != tc_dtype_is_complex(view->base->dtype))
        return tc_set_error(TC_ERR_NOT_IMPLEMENTED, "forward-mode AD through a view of another dtype (view_as_real, "
                                                    "view_as_complex, real, imag) is not supported"), NULL;
    tc_keyset ex = exclude_fw();
    tc_tensor *r = tc_as_strided(base_tangent, (tc_int_list){view->sizes, view->ndim},
                                 (tc_int_list){view->strides, view->ndim},
                                 TC_SOME_INT(base_tangent->offset + view->offset - view->base->offset));
    tc_dispatch_set_excluded(ex);
    /* a conjugate or negative view reads its base's tangent the way it reads its base */
    if (r) r->flags ^= (view->flags ^ view->base->flags) & TC_TENSOR_MATH_BITS;
    return r;
}

/* t's tangent at the live level (new reference), or NULL: a view's is the matching region of its
 * base's, so that writing either is seen through the other, as in PyTorch. */
static tc_tensor *tangent_of(const tc_tensor *t) {
    if (!t) return NULL;
    tc_tensor *bt = t->base ? own_tangent(t->base) : NULL;
    if (bt) return view_of_tangent(t, bt);
    tc_tensor *own = own_tangent(t);
    if (own) tc_tensor_retain(own);
    return own;
}

tc_tensor *tc_fw_tangent(const tc_tensor *t, int64_t level) {
    return level == atomic_load(&live_level) ? tangent_of(t) : NULL;
}

static bool same_layout(const tc_tensor *a, const tc_tensor *b) {
    if (a->dtype != b->dtype || !tc_shape_equal(a->ndim, a->sizes, b->ndim, b->sizes)) return false;
    for (int32_t d = 0; d < a->ndim; d++)
        if (a->sizes[d] > 1 && a->strides[d] != b->strides[d]) return false;
    return true;
}

/* Stores tangent as t's. A tensor keeps one laid out as itself. A view written in place writes it
 * into its base's (made, zero, when the base has none); a view just made by a view op of a dual
 * base has the matching region of the base's already, and keeps one of its own otherwise. */
static int set_tangent(tc_tensor *t, tc_tensor *tangent, int64_t level, bool written) {
    if (t->base && !written && own_tangent(t->base)) return TC_OK;
    tc_keyset ex = exclude_fw();
    int rc = TC_FAIL;
    bool into_base = t->base && written;
    tc_tensor *holder = into_base ? t->base : t, *keep = NULL, *region = NULL, *done = NULL;
    tc_autograd_meta *m = tc_ag_meta(holder);
    if (!m) goto out;
    tc_tensor *have = own_tangent(holder);
    if (!into_base && (same_layout(tangent, t) || !tc_tensor_non_overlapping_and_dense(t))) {
        tc_tensor_retain(keep = tangent);
    } else {
        if (have && into_base) {
            tc_tensor_retain(keep = have);
        } else if (!(keep = tc_empty_strided((tc_int_list){holder->sizes, holder->ndim},
                                             (tc_int_list){holder->strides, holder->ndim}, holder->dtype, -1,
                                             &holder->device, NULL))) {
            goto out;
        } else if (into_base) {
            if (!(done = tc_zero_(keep))) goto out;
            tc_tensor_release(done);
            done = NULL;
        }
        region = into_base ? view_of_tangent(t, keep) : (tc_tensor_retain(keep), keep);
        if (!region || !(done = tc_copy_(region, tangent, false))) goto out;
    }
    if (keep != have) {
        tc_tensor_release(m->fw_grad);
        m->fw_grad = keep;
        keep = NULL;
    }
    m->fw_level = level;
    holder->keys |= TC_KEYBIT(TC_KEY_FORWARD_AD);
    rc = TC_OK;
out:
    tc_tensor_release(keep);
    tc_tensor_release(region);
    tc_tensor_release(done);
    tc_dispatch_set_excluded(ex);
    return rc;
}

tc_tensor *tc_fw_make_dual(tc_tensor *primal, tc_tensor *tangent, int64_t level) {
    if (level < 0 || level != atomic_load(&live_level))
        return tc_set_error(TC_ERR_RUNTIME, "Trying to create a dual Tensor for forward AD but no level exists, make "
                                            "sure to enter_dual_level() first."), NULL;
    if (!tc_dtype_is_floating(primal->dtype) || !tc_dtype_is_floating(tangent->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "Expected both tensor and its forward grad to be floating point or "
                                            "complex"), NULL;
    if (!tc_shape_equal(primal->ndim, primal->sizes, tangent->ndim, tangent->sizes)) {
        char a[256], b[256];
        tc_shape_format(primal->ndim, primal->sizes, a, sizeof a);
        tc_shape_format(tangent->ndim, tangent->sizes, b, sizeof b);
        return tc_set_error(TC_ERR_RUNTIME, "Trying to set a forward gradient that has a different size than that of "
                                            "the original Tensor, this is not supported. Tensor is of size %s while the "
                                            "given forward gradient is of size %s.", a, b), NULL;
    }
    if (primal->device.type != tangent->device.type || primal->device.index != tangent->device.index)
        return tc_set_error(TC_ERR_RUNTIME, "Expected tensor and its forward grad to be on the same device"), NULL;
    /* an alias of primal (gradients flow back to it) that is not one of its views: the primal itself
     * does not become dual */
    tc_keyset ex = exclude_fw();
    tc_tensor *dual = tc_alias(primal);
    tc_dispatch_set_excluded(ex);
    if (!dual) return NULL;
    tc_tensor_release(dual->base);
    dual->base = NULL;
    if (set_tangent(dual, tangent, level, false)) {
        tc_tensor_release(dual);
        return NULL;
    }
    return dual;
}

tc_tensor *tc_fw_primal(tc_tensor *t) {
    tc_keyset ex = exclude_fw();
    tc_tensor *p = tc_alias(t);
    tc_dispatch_set_excluded(ex);
    if (p) { /* not a view as far as tangents go: it has none */
        tc_tensor_release(p->base);
        p->base = NULL;
    }
    return p;
}

/* ---- the step ---- */

static int run_below(tc_opcall *call) {
    tc_keyset ex = exclude_fw();
    int rc = tc_redispatch(call, TC_KEYBIT(TC_KEY_FORWARD_AD) - 1);
    tc_dispatch_set_excluded(ex);
    return rc;
}

/* The tangents of op's results for tangents of its arguments (NULL: none), by the trick. args are
 * the functional op's arguments; results[j] NULL where no tangent results. */
static int tangents_by_trick(struct tc_op *op, const tc_value *args, tc_tensor *const *tangents, tc_tensor **results,
                             bool record) {
    const tc_op_schema *s = &op->schema;
    int32_t n_args = s->n_args, n_ret = s->n_returns;
    tc_value *a = calloc((size_t)n_args + 1, sizeof(tc_value));
    tc_tensor **leaves = calloc((size_t)n_args + 1, sizeof(tc_tensor *));
    tc_tensor **owned = calloc((size_t)n_args + 1, sizeof(tc_tensor *));
    tc_tensor **wrt = calloc((size_t)n_args + 1, sizeof(tc_tensor *));
    tc_tensor **tan = calloc((size_t)n_args + 1, sizeof(tc_tensor *));
    tc_value outs[TC_MAX_RETURNS];
    tc_tensor *ys[TC_MAX_RETURNS], *us[TC_MAX_RETURNS], *jvps[TC_MAX_RETURNS], **g = NULL;
    int32_t n_y = 0, n_wrt = 0, y_of[TC_MAX_RETURNS];
    int rc = TC_FAIL, have_outs = 0;
    memset(us, 0, sizeof us);
    memset(jvps, 0, sizeof jvps);
    if (!a || !leaves || !owned || !wrt || !tan) {
        tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    memcpy(a, args, sizeof(tc_value) * (size_t)n_args);
    /* detached arguments: those with a tangent become leaves that require grad (a written one is
     * a copy of its leaf, so that writing it is recorded) */
    for (int32_t i = 0; i < n_args; i++) {
        if (a[i].tag != TC_VALUE_TENSOR) continue;
        if (!(leaves[i] = tc_detach(a[i].v.tensor))) goto done;
        a[i].v.tensor = leaves[i];
        if (!tangents[i]) continue;
        if (tc_set_requires_grad(leaves[i], true)) goto done;
        wrt[n_wrt] = leaves[i];
        tan[n_wrt++] = tangents[i];
        if (s->args[i].flags & TC_ARG_WRITE) {
            if (!(owned[i] = tc_clone(leaves[i], -1))) goto done;
            a[i].v.tensor = owned[i];
        }
    }
    if (tc_dispatch(op, a, outs)) goto done;
    have_outs = 1;
    for (int32_t j = 0; j < n_ret; j++) {
        results[j] = NULL;
        if (outs[j].tag != TC_VALUE_TENSOR || !tc_requires_grad(outs[j].v.tensor)) continue;
        tc_tensor *y = outs[j].v.tensor;
        if (!(us[n_y] = tc_zeros_like(y, -1, -1, NULL, NULL, -1)) || tc_set_requires_grad(us[n_y], true)) goto done;
        y_of[n_y] = j;
        ys[n_y++] = y;
    }
    rc = TC_OK;
    if (!n_y || !n_wrt) goto done;
    rc = TC_FAIL;
    if (!(g = calloc((size_t)n_wrt, sizeof(tc_tensor *)))) goto done;
    if (tc_grad(n_y, ys, us, n_wrt, wrt, true, true, true, g)) goto done;
    /* J t = d<g(u), t>/du over the arguments whose gradient is defined */
    int32_t k = 0;
    for (int32_t i = 0; i < n_wrt; i++) {
        if (!g[i] || !tc_requires_grad(g[i])) { /* does not depend on u: no contribution */
            tc_tensor_release(g[i]);
            g[i] = NULL;
            continue;
        }
        tc_tensor *gi = g[i];
        g[i] = NULL;
        g[k] = gi;
        tan[k++] = tan[i];
    }
    if (k == 0 || tc_grad(k, g, tan, n_y, us, false, record, true, jvps)) {
        rc = k == 0 ? TC_OK : TC_FAIL;
        goto done;
    }
    for (int32_t m = 0; m < n_y; m++) {
        results[y_of[m]] = jvps[m];
        jvps[m] = NULL;
    }
    rc = TC_OK;
done:
    if (g)
        for (int32_t i = 0; i < n_wrt; i++) tc_tensor_release(g[i]);
    free(g);
    for (int32_t m = 0; m < TC_MAX_RETURNS; m++) {
        tc_tensor_release(us[m]);
        tc_tensor_release(jvps[m]);
    }
    if (have_outs) tc_values_release(outs, n_ret);
    for (int32_t i = 0; leaves && i < n_args; i++) {
        tc_tensor_release(leaves[i]);
        tc_tensor_release(owned[i]);
    }
    free(a);
    free(leaves);
    free(owned);
    free(wrt);
    free(tan);
    return rc;
}

int tc_fw_op_impl(tc_opcall *call) {
    struct tc_op *op = call->op;
    struct tc_op *base = tc_op_at(op->base);
    const tc_op_schema *s = &base->schema;
    int32_t n_args = s->n_args, n_ret = s->n_returns;
    tc_tensor *small[16], **tangents = n_args <= 16 ? small : calloc((size_t)n_args, sizeof(tc_tensor *));
    if (!tangents) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    bool any = false;
    for (int32_t i = 0; i < n_args; i++) {
        tangents[i] = call->args[i].tag == TC_VALUE_TENSOR ? tangent_of(call->args[i].v.tensor) : NULL;
        any = any || tangents[i];
    }
    for (int32_t i = n_args; i < op->schema.n_args; i++) { /* out= arguments */
        tc_tensor *t = call->args[i].tag == TC_VALUE_TENSOR ? tangent_of(call->args[i].v.tensor) : NULL;
        any = any || t;
        tc_tensor_release(t);
    }
    int rc = TC_FAIL;
    tc_tensor *self_before = NULL;
    tc_value args_before[TC_MAX_RETURNS + 64];
    if (!any) {
        rc = run_below(call);
        goto done;
    }
    if (op->variant == TC_VARIANT_OUT) {
        tc_set_error(TC_ERR_RUNTIME, "%s(): functions with out=... arguments don't support automatic differentiation, "
                                     "but one of the arguments requires grad.", op->schema.name);
        goto done;
    }
    if (!base->grad || !base->grad->backward) {
        tc_set_error(TC_ERR_NOT_IMPLEMENTED, "Trying to use forward AD with %s that does not support it because it has "
                                             "not been implemented yet.", s->name);
        goto done;
    }
    if (n_args > 64) {
        tc_set_error(TC_ERR_RUNTIME, "forward AD: too many arguments");
        goto done;
    }
    bool inplace = op->variant == TC_VARIANT_INPLACE;
    memcpy(args_before, call->args, sizeof(tc_value) * (size_t)n_args);
    if (inplace) { /* the trick needs self as it was */
        tc_keyset ex = exclude_fw();
        self_before = tc_detach(call->args[0].v.tensor);
        tc_tensor *copy = self_before ? tc_clone(self_before, -1) : NULL;
        tc_dispatch_set_excluded(ex);
        tc_tensor_release(self_before);
        if (!(self_before = copy)) goto done;
        args_before[0].v.tensor = self_before;
    }
    if (run_below(call)) goto done;
    tc_tensor *out_tangents[TC_MAX_RETURNS] = {NULL};
    tc_keyset ex = exclude_fw();
    bool was = tc_grad_enabled();
    /* the tangents get a history of their own only when something they depend on requires grad */
    bool record = false;
    for (int32_t i = 0; i < n_args; i++)
        record = record || (tangents[i] && tc_requires_grad(tangents[i])) ||
                 (args_before[i].tag == TC_VALUE_TENSOR && tc_requires_grad(args_before[i].v.tensor));
    tc_set_grad_enabled(true);
    rc = tangents_by_trick(base, args_before, tangents, out_tangents, was && record);
    tc_set_grad_enabled(was);
    tc_dispatch_set_excluded(ex);
    int64_t level = atomic_load(&live_level);
    for (int32_t j = 0; j < n_ret; j++) {
        tc_value *r = &call->outs[j];
        if (rc == TC_OK && inplace && j == 0 && !out_tangents[j]) {
            /* written with something that does not depend on any tangent: its own tangent is gone */
            tc_keyset ex2 = exclude_fw();
            if (!(out_tangents[j] = tc_zeros_like(r->v.tensor, -1, -1, NULL, NULL, -1))) rc = TC_FAIL;
            tc_dispatch_set_excluded(ex2);
        }
        if (rc == TC_OK && out_tangents[j] && r->tag == TC_VALUE_TENSOR && tc_dtype_is_floating(r->v.tensor->dtype))
            rc = set_tangent(r->v.tensor, out_tangents[j], level, inplace && j == 0);
        tc_tensor_release(out_tangents[j]);
    }
    if (rc) tc_values_release(call->outs, op->schema.n_returns);
done:
    tc_tensor_release(self_before);
    for (int32_t i = 0; i < n_args; i++) tc_tensor_release(tangents[i]);
    if (tangents != small) free(tangents);
    return rc;
}
