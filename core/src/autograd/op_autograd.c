/*
 * The autograd step of an op: what the dispatcher runs at TC_KEY_AUTOGRAD, the same code for every
 * op of the table (its tc_grad_info, generated from the formulas beside it, says what differs) and
 * for runtime ops with a registered backward.
 *
 *   1. no differentiable argument requires grad: run the op below this key, record nothing;
 *   2. out= variants refuse arguments that require grad (PyTorch's error); in-place ones refuse
 *      leaves that require grad and views of them;
 *   3. a node is made with an edge per differentiable argument, and keeps what the formulas read:
 *      the non-tensor arguments, the tensors (only those whose formulas will run: an argument that
 *      needs no gradient does not keep the other alive) or just their sizes;
 *   4. the op runs below this key, with this key excluded for everything it calls;
 *   5. floating results get the node as grad_fn (an in-place op rebases the written tensor's
 *      history); results the formulas read are saved as results.
 */
#include "autograd_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the node of an op ---- */

static int op_node_apply(tc_node *n, void *state, tc_tensor *const *grads, tc_tensor **out) {
    tc_op_node *o = state;
    const tc_grad_info *info = o->op->grad;
    if (!info || !info->backward) /* built-in ops are aten::'s, as PyTorch names them */
        return tc_set_error(TC_ERR_RUNTIME, "derivative for %s%s is not implemented",
                            strstr(o->op->schema.name, "::") ? "" : "aten::", o->op->schema.name);
    return info->backward(n, o, grads, out);
}

static void op_node_release_saved(tc_node *n, void *state) {
    tc_op_node *o = state;
    if (o->lists)
        for (int32_t i = 0; i < o->op->schema.n_args; i++)
            for (int64_t k = 0; k < o->lists[i].n; k++) tc_ag_saved_release(&o->lists[i].items[k]);
    if (!o->saved) return;
    int32_t slots = o->op->schema.n_args + o->op->schema.n_returns;
    for (int32_t i = 0; i < slots; i++) tc_ag_saved_release(&o->saved[i]);
}

static void arg_meta_clear(tc_arg_meta *a) {
    if (a->m.ndim > TC_INPUT_META_INLINE) free(a->strides);
    a->strides = NULL;
    tc_ag_meta_clear(&a->m);
}

static void op_node_destroy(tc_node *n, void *state) {
    tc_op_node *o = state;
    op_node_release_saved(n, state);
    int32_t n_args = o->op->schema.n_args;
    if (o->metas)
        for (int32_t i = 0; i < n_args; i++) arg_meta_clear(&o->metas[i]);
    for (int32_t i = 0; o->lists && i < n_args; i++) free(o->lists[i].items);
    for (int32_t i = 0; o->list_metas && i < n_args; i++) {
        for (int64_t k = 0; k < o->list_metas[i].n; k++) arg_meta_clear(&o->list_metas[i].items[k]);
        free(o->list_metas[i].items);
    }
    free(o->lists);
    free(o->list_metas);
}

static const tc_node_class op_node_class = {
    .name = "NotImplemented",
    .apply = op_node_apply,
    .release_saved = op_node_release_saved,
    .destroy = op_node_destroy,
    .flags = TC_NODE_MATERIALIZE_GRADS,
};

int tc_ag_op_saved(tc_node *node, tc_op_node *o, int32_t slot, tc_tensor **out) {
    *out = NULL;
    if (!o->saved) return TC_OK;
    return tc_ag_unpack(&o->saved[slot], node, out);
}

tc_int_list tc_ag_op_sizes(tc_op_node *o, int32_t arg) {
    if (o->metas && o->metas[arg].m.ndim >= 0) return (tc_int_list){o->metas[arg].m.sizes, o->metas[arg].m.ndim};
    return (tc_int_list){NULL, 0};
}

tc_int_list tc_ag_op_strides(tc_op_node *o, int32_t arg) {
    if (o->metas && o->metas[arg].m.ndim >= 0) return (tc_int_list){o->metas[arg].strides, o->metas[arg].m.ndim};
    return (tc_int_list){NULL, 0};
}

int tc_ag_op_saved_list(tc_node *node, tc_op_node *o, int32_t arg, tc_tensor_vec *out) {
    out->items = NULL;
    out->len = 0;
    if (!o->lists || !o->lists[arg].items) return TC_OK;
    int64_t n = o->lists[arg].n;
    if (!(out->items = calloc((size_t)(n ? n : 1), sizeof(tc_tensor *))))
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    out->len = n;
    for (int64_t k = 0; k < n; k++)
        if (tc_ag_unpack(&o->lists[arg].items[k], node, &out->items[k])) return TC_FAIL;
    return TC_OK;
}

void *tc_ag_arena_alloc(tc_ag_arena *a, size_t bytes) {
    if (a->n == a->cap) {
        int32_t cap = a->cap ? a->cap * 2 : 4;
        void **b = realloc(a->blocks, sizeof(void *) * (size_t)cap);
        if (!b) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory"), NULL;
        a->blocks = b;
        a->cap = cap;
    }
    void *p = malloc(bytes ? bytes : 1);
    if (!p) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory"), NULL;
    a->blocks[a->n++] = p;
    return p;
}

void tc_ag_arena_free(tc_ag_arena *a) {
    for (int32_t i = 0; i < a->n; i++) free(a->blocks[i]);
    free(a->blocks);
    a->blocks = NULL;
    a->n = a->cap = 0;
}

int tc_ag_op_list_sizes_at(tc_op_node *o, int32_t arg, int64_t dim, tc_ag_arena *a, tc_int_list *out) {
    *out = (tc_int_list){NULL, 0};
    if (!o->list_metas || !o->list_metas[arg].items) return TC_OK;
    const tc_meta_list *l = &o->list_metas[arg];
    int64_t *buf = tc_ag_arena_alloc(a, sizeof(int64_t) * (size_t)(l->n ? l->n : 1));
    if (!buf) return TC_FAIL;
    for (int64_t k = 0; k < l->n; k++) {
        const tc_input_meta *m = &l->items[k].m;
        int64_t d = dim < 0 ? dim + m->ndim : dim;
        buf[k] = m->ndim > 0 && d >= 0 && d < m->ndim ? m->sizes[d] : 0;
    }
    *out = (tc_int_list){buf, l->n};
    return TC_OK;
}

static int arg_meta_record(tc_arg_meta *a, const tc_tensor *t) {
    if (tc_ag_meta_record(&a->m, t)) return TC_FAIL;
    a->offset = t->offset;
    if (t->ndim > TC_INPUT_META_INLINE) {
        if (!(a->strides = malloc(sizeof(int64_t) * (size_t)t->ndim)))
            return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory recording an autograd node");
    } else {
        a->strides = a->inline_strides;
    }
    memcpy(a->strides, t->strides, sizeof(int64_t) * (size_t)t->ndim);
    return TC_OK;
}

/* ---- laying out a node's state ---- */

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Bytes the copies of the non-tensor arguments need beyond the tc_value array. */
static size_t args_extra(const tc_op_schema *s, const tc_value *args) {
    size_t extra = 0;
    for (int32_t i = 0; i < s->n_args; i++) {
        const tc_value *v = &args[i];
        switch (v->tag) {
        case TC_VALUE_INT_LIST: extra += align8(sizeof(int64_t) * (size_t)v->v.ints.len); break;
        case TC_VALUE_FLOAT_LIST: extra += align8(sizeof(double) * (size_t)v->v.floats.len); break;
        case TC_VALUE_BOOL_LIST: extra += align8(sizeof(bool) * (size_t)v->v.bools.len); break;
        case TC_VALUE_STR: extra += align8(strlen(v->v.s) + 1); break;
        default: break;
        }
    }
    return extra;
}

static void copy_args(tc_value *dst, const tc_value *src, int32_t n, char *room) {
    for (int32_t i = 0; i < n; i++) {
        dst[i] = src[i];
        tc_value *v = &dst[i];
        size_t bytes;
        switch (v->tag) {
        case TC_VALUE_TENSOR: v->v.tensor = NULL; break; /* tensors are saved, or not kept */
        case TC_VALUE_TENSOR_LIST: v->v.tensors.items = NULL; break;
        case TC_VALUE_INT_LIST:
            bytes = sizeof(int64_t) * (size_t)v->v.ints.len;
            if (bytes) memcpy(room, v->v.ints.items, bytes);
            v->v.ints.items = (const int64_t *)room;
            room += align8(bytes);
            break;
        case TC_VALUE_FLOAT_LIST:
            bytes = sizeof(double) * (size_t)v->v.floats.len;
            if (bytes) memcpy(room, v->v.floats.items, bytes);
            v->v.floats.items = (const double *)room;
            room += align8(bytes);
            break;
        case TC_VALUE_BOOL_LIST:
            bytes = sizeof(bool) * (size_t)v->v.bools.len;
            if (bytes) memcpy(room, v->v.bools.items, bytes);
            v->v.bools.items = (const bool *)room;
            room += align8(bytes);
            break;
        case TC_VALUE_STR:
            bytes = strlen(v->v.s) + 1;
            memcpy(room, v->v.s, bytes);
            v->v.s = room;
            room += align8(bytes);
            break;
        default: break;
        }
    }
}

/* ---- the step ---- */

static bool tensor_requires_grad(const tc_tensor *t) { return t && tc_requires_grad(t); }

static bool arg_requires_grad(const tc_value *v) {
    if (v->tag == TC_VALUE_TENSOR) return tensor_requires_grad(v->v.tensor);
    if (v->tag == TC_VALUE_TENSOR_LIST)
        for (int64_t j = 0; j < v->v.tensors.len; j++)
            if (tensor_requires_grad(v->v.tensors.items[j])) return true;
    return false;
}

static int edges_of(const tc_value *v) {
    if (v->tag == TC_VALUE_TENSOR_LIST) return (int)v->v.tensors.len;
    return 1;
}

/* Runs the op below the autograd key, with the key excluded for everything it calls. */
static int run_below(tc_opcall *call) {
    tc_keyset ex = tc_dispatch_excluded();
    tc_dispatch_set_excluded(ex | TC_KEYBIT(TC_KEY_AUTOGRAD));
    int rc = tc_redispatch(call, TC_KEYBIT(TC_KEY_AUTOGRAD) - 1);
    tc_dispatch_set_excluded(ex);
    return rc;
}

static bool differentiable_dtype(int32_t dtype) { return tc_dtype_is_floating(dtype) || tc_dtype_is_complex(dtype); }

static const char *op_name(const struct tc_op *op) { return op->schema.name; }

static bool has_edge(const tc_op_schema *s, const tc_value *args, uint64_t diff, int32_t i) {
    const tc_value *v = &args[i];
    return i < 64 && (diff >> i & 1) &&
           (v->tag == TC_VALUE_TENSOR || v->tag == TC_VALUE_TENSOR_LIST ||
            (v->tag == TC_VALUE_NONE && s->args[i].type == TC_VALUE_TENSOR));
}

/* Keeps what the formulas read of a Tensor[] argument: its items, or their metadata. */
static int save_list(tc_op_node *o, int32_t n_args, int32_t i, const tc_value *v, bool items, bool metas) {
    int64_t n = v->v.tensors.len;
    if (items) {
        if (!o->lists && !(o->lists = calloc((size_t)n_args, sizeof(tc_saved_list)))) goto oom;
        if (!(o->lists[i].items = calloc((size_t)(n ? n : 1), sizeof(tc_saved_tensor)))) goto oom;
        o->lists[i].n = n;
        for (int64_t k = 0; k < n; k++)
            if (tc_ag_save(&o->lists[i].items[k], v->v.tensors.items[k], false)) return TC_FAIL;
    }
    if (metas) {
        if (!o->list_metas && !(o->list_metas = calloc((size_t)n_args, sizeof(tc_meta_list)))) goto oom;
        if (!(o->list_metas[i].items = calloc((size_t)(n ? n : 1), sizeof(tc_arg_meta)))) goto oom;
        o->list_metas[i].n = n;
        for (int64_t k = 0; k < n; k++) {
            o->list_metas[i].items[k].m.ndim = -1;
            tc_tensor *t = v->v.tensors.items[k];
            if (t && arg_meta_record(&o->list_metas[i].items[k], t)) return TC_FAIL;
        }
    }
    return TC_OK;
oom:
    return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory recording an autograd node");
}

/* How many gradients the node receives: one per result, or one per item of a Tensor[] result (split,
 * unbind), whose length is known only once the op has run. */
static int32_t count_results(const tc_op_schema *s, const tc_value *outs) {
    if (s->n_returns == 1 && s->returns[0].type == TC_VALUE_TENSOR_LIST) return (int32_t)outs[0].v.tensors.len;
    return s->n_returns;
}

int tc_ag_op_impl(tc_opcall *call) {
    struct tc_op *op = call->op;
    struct tc_op *base = tc_op_at(op->base); /* the declared op (its variants share its formulas) */
    const tc_grad_info *info = base->grad;
    const tc_op_schema *s = &base->schema;
    const tc_value *args = call->args;
    uint64_t diff = info ? info->diff_args : ~(uint64_t)0;

    uint64_t requiring = 0; /* differentiable arguments that require grad */
    for (int32_t i = 0; i < s->n_args && i < 64; i++)
        if ((diff >> i & 1) && arg_requires_grad(&args[i])) requiring |= (uint64_t)1 << i;

    if (op->variant == TC_VARIANT_OUT) {
        bool any = requiring != 0;
        for (int32_t i = s->n_args; i < op->schema.n_args; i++) any = any || arg_requires_grad(&args[i]);
        if (any)
            return tc_set_error(TC_ERR_RUNTIME, "%s(): functions with out=... arguments don't support automatic "
                                                "differentiation, but one of the arguments requires grad.", op_name(op));
        return run_below(call);
    }
    if (!requiring) return run_below(call);
    bool inplace = op->variant == TC_VARIANT_INPLACE;
    tc_tensor *self = inplace ? args[0].v.tensor : NULL;
    if (inplace && tc_ag_check_inplace(self)) return TC_FAIL;
    /* an op returning a Tensor[] is functional: it runs first, to know how many results it has */
    bool list_result = s->n_returns == 1 && s->returns[0].type == TC_VALUE_TENSOR_LIST;
    if (list_result && run_below(call)) return TC_FAIL;

    /* which saved slots and metas the formulas that will run read */
    int32_t n_args = s->n_args, n_ret = s->n_returns, n_slots = n_args + n_ret;
    uint64_t slots_needed = 0, metas_needed = 0;
    if (info) {
        for (int32_t k = 0; k < n_slots && k < 64; k++)
            if (info->saved_users && (info->saved_users[k] & requiring)) slots_needed |= (uint64_t)1 << k;
        for (int32_t k = 0; k < n_args && k < 64; k++)
            if (info->meta_users && (info->meta_users[k] & requiring)) metas_needed |= (uint64_t)1 << k;
    }
    int32_t n_edges = 0;
    for (int32_t i = 0; i < n_args; i++)
        if (has_edge(s, args, diff, i)) n_edges += edges_of(&args[i]);

    size_t state = align8(sizeof(tc_op_node));
    size_t at_args = state;
    state += align8(sizeof(tc_value) * (size_t)n_args);
    size_t at_extra = state;
    state += args_extra(s, args);
    size_t at_edge_of = state;
    state += align8(sizeof(int32_t) * (size_t)n_args) * 2;
    size_t at_saved = state;
    if (slots_needed) state += sizeof(tc_saved_tensor) * (size_t)n_slots;
    size_t at_metas = state;
    if (metas_needed) state += sizeof(tc_arg_meta) * (size_t)n_args;

    int32_t n_inputs = list_result ? count_results(s, call->outs) : n_ret;
    tc_node *node = tc_ag_node_alloc(&op_node_class, n_inputs, n_edges, state);
    if (!node) {
        if (list_result) tc_values_release(call->outs, n_ret);
        return TC_FAIL;
    }
    if (info) node->name = info->name;
    char *room = node->state;
    tc_op_node *o = node->state;
    o->op = base;
    o->args = (tc_value *)(room + at_args);
    o->edge_of_arg = (int32_t *)(room + at_edge_of);
    o->arg_edges = o->edge_of_arg + align8(sizeof(int32_t) * (size_t)n_args) / sizeof(int32_t);
    copy_args(o->args, args, n_args, room + at_extra);
    if (slots_needed) o->saved = (tc_saved_tensor *)(room + at_saved);
    if (metas_needed) {
        o->metas = (tc_arg_meta *)(room + at_metas);
        for (int32_t i = 0; i < n_args; i++) o->metas[i].m.ndim = -1;
    }

    tc_tensor *self_copy = NULL;
    int rc = TC_OK;
    int32_t e = 0;
    for (int32_t i = 0; i < n_args && rc == TC_OK; i++) {
        o->edge_of_arg[i] = -1;
        o->arg_edges[i] = 0;
        const tc_value *v = &args[i];
        if (has_edge(s, args, diff, i)) {
            o->edge_of_arg[i] = e;
            o->arg_edges[i] = edges_of(v);
            if (v->tag == TC_VALUE_TENSOR) {
                rc = tc_ag_node_set_edge(node, e++, v->v.tensor);
            } else if (v->tag == TC_VALUE_TENSOR_LIST) {
                for (int64_t j = 0; j < v->v.tensors.len && rc == TC_OK; j++)
                    rc = tc_ag_node_set_edge(node, e++, v->v.tensors.items[j]);
            } else {
                e++;
            }
        }
        if (rc) break;
        if (v->tag == TC_VALUE_TENSOR_LIST) {
            if ((slots_needed | metas_needed) >> i & 1)
                rc = save_list(o, n_args, i, v, slots_needed >> i & 1, metas_needed >> i & 1);
            continue;
        }
        if (v->tag != TC_VALUE_TENSOR) continue;
        if (metas_needed >> i & 1) rc = arg_meta_record(&o->metas[i], v->v.tensor);
        if (rc == TC_OK && (slots_needed >> i & 1)) {
            tc_tensor *t = v->v.tensor;
            if (inplace && i == 0) { /* the op overwrites self: keep what it was (with its history,
                                      * for a backward that is recorded) */
                if (!(self_copy = tc_clone(t, -1))) rc = TC_FAIL;
                t = self_copy;
            }
            if (rc == TC_OK) rc = tc_ag_save(&o->saved[i], t, false);
        }
    }
    tc_tensor_release(self_copy);
    if (rc == TC_OK && !list_result) rc = run_below(call);
    if (rc) {
        if (list_result) tc_values_release(call->outs, n_ret);
        tc_node_release(node);
        return TC_FAIL;
    }

    /* results */
    uint32_t diff_results = info ? info->diff_results : ~(uint32_t)0;
    if (list_result) {
        tc_value *r = &call->outs[0];
        for (int64_t k = 0; k < r->v.tensors.len && rc == TC_OK && (diff_results & 1); k++) {
            tc_tensor *t = r->v.tensors.items[k];
            if (!differentiable_dtype(t->dtype)) continue;
            if ((rc = tc_ag_meta_record(&node->inputs[k], t)) == TC_OK) rc = tc_ag_set_history(t, node, (uint32_t)k);
        }
    }
    for (int32_t j = 0; j < n_ret && rc == TC_OK && !list_result; j++) {
        tc_value *r = &call->outs[j];
        if (r->tag != TC_VALUE_TENSOR) continue;
        if ((diff_results >> j & 1) && differentiable_dtype(r->v.tensor->dtype)) {
            if (inplace && j == 0) {
                rc = tc_ag_rebase_history(r->v.tensor, node);
            } else if ((rc = tc_ag_meta_record(&node->inputs[j], r->v.tensor)) == TC_OK) {
                rc = tc_ag_set_history(r->v.tensor, node, (uint32_t)j);
            }
        }
        if (rc == TC_OK && (slots_needed >> (n_args + j) & 1)) /* indices of max.dim, say */
            rc = tc_ag_save(&o->saved[n_args + j], r->v.tensor, true);
    }
    tc_node_release(node); /* the results hold it now */
    if (rc) {
        tc_values_release(call->outs, n_ret);
        return TC_FAIL;
    }
    return TC_OK;
}

int tc_op_autograd(int32_t id, const char **node_name, uint64_t *args_with_formula) {
    struct tc_op *op = tc_op_at(id);
    if (node_name) *node_name = NULL;
    if (args_with_formula) *args_with_formula = 0;
    if (!op || op->variant == TC_VARIANT_OUT) return TC_OP_GRAD_NONE;
    struct tc_op *base = tc_op_at(op->base);
    if (base->grad) {
        if (node_name) *node_name = base->grad->name;
        if (args_with_formula) *args_with_formula = base->grad->formula_args;
        return TC_OP_GRAD_FORMULA;
    }
    if (op->impl_autograd == tc_ag_op_impl) return TC_OP_GRAD_MISSING;
    if (op->schema.flags & TC_OPF_COMPOSITE) return TC_OP_GRAD_COMPOSITE;
    return TC_OP_GRAD_NONE;
}
