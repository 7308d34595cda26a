/*
 * The engine: runs a graph backwards from some outputs, on the calling thread.
 *
 *   1. every node reachable from the outputs is counted: how many edges lead to it;
 *   2. when only some gradients are wanted (autograd.grad, backward(inputs=)), a node runs only if a
 *      wanted edge lies below it;
 *   3. a node is ready when every edge into it has delivered (gradients for one input add up in
 *      its buffer); of the ready nodes the most recently created runs first, as in PyTorch;
 *   4. a node's hooks run around it; what it returns is checked against what the next node expects
 *      (a broadcast gradient is summed back to the input's shape, the dtype converted);
 *   5. without retain_graph, a node's saved tensors are freed as soon as it has run.
 *
 * Grad mode during backward is create_graph, so a recorded backward is just ops recording. The
 * engine itself never touches Python: the front end releases the GIL around it, and nodes and
 * hooks written in Python take it back.
 */
#include "autograd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-node bookkeeping: an open-addressing map from node to its entry ---- */

typedef struct entry {
    tc_node *node; /* NULL: empty slot */
    int32_t deps;  /* edges still to deliver */
    bool needed;   /* runs (else it is at most a place where a gradient is captured) */
    bool visited;
    bool pushed;
    tc_tensor **buffer; /* n_inputs gradients received so far */
} entry;

/* Where wanted gradients are taken: autograd.grad's results, a non-leaf's .grad for
 * backward(inputs=), or a leaf's AccumulateGrad that must run. */
enum { CAPTURE_RESULT, CAPTURE_NON_LEAF, CAPTURE_LEAF };
typedef struct capture {
    int kind;
    tc_node *node; /* owned */
    uint32_t input_nr;
    int32_t index;      /* CAPTURE_RESULT: into the results */
    tc_tensor *tensor;  /* CAPTURE_NON_LEAF: whose .grad receives it */
} capture;

typedef struct task {
    entry *map;
    size_t cap, used;
    entry **heap; /* ready nodes, most recent first */
    size_t heap_len, heap_cap;
    capture *captures;
    int32_t n_captures;
    tc_tensor **results; /* autograd.grad's */
    bool keep_graph, create_graph, select; /* select: only nodes above a capture run */
} task;

static uint64_t hash_ptr(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static int map_grow(task *t) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    entry *m = calloc(cap, sizeof(entry));
    if (!m) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->map[i].node) continue;
        size_t j = hash_ptr(t->map[i].node) & (cap - 1);
        while (m[j].node) j = (j + 1) & (cap - 1);
        m[j] = t->map[i];
    }
    free(t->map);
    t->map = m;
    t->cap = cap;
    return TC_OK;
}

/* The node's entry, added when absent (NULL when out of memory). Entries move when the map grows:
 * hold no pointer to one across another insertion. */
static entry *map_get(task *t, tc_node *n, bool add) {
    if (add && (t->used + 1) * 2 > t->cap && map_grow(t)) return NULL;
    if (!t->cap) return NULL;
    size_t j = hash_ptr(n) & (t->cap - 1);
    while (t->map[j].node) {
        if (t->map[j].node == n) return &t->map[j];
        j = (j + 1) & (t->cap - 1);
    }
    if (!add) return NULL;
    t->map[j] = (entry){.node = n};
    t->used++;
    return &t->map[j];
}

static void task_free(task *t) {
    for (size_t i = 0; i < t->cap; i++) {
        entry *e = &t->map[i];
        if (!e->node || !e->buffer) continue;
        for (int32_t k = 0; k < e->node->n_inputs; k++) tc_tensor_release(e->buffer[k]);
        free(e->buffer);
    }
    free(t->map);
    free(t->heap);
    free(t->captures);
}

/* ---- the ready queue: a binary heap on the sequence number ---- */

static bool before(const entry *a, const entry *b) { return a->node->seq > b->node->seq; }

static int heap_push(task *t, entry *e) {
    if (t->heap_len == t->heap_cap) {
        size_t cap = t->heap_cap ? t->heap_cap * 2 : 32;
        entry **h = realloc(t->heap, cap * sizeof *h);
        if (!h) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
        t->heap = h;
        t->heap_cap = cap;
    }
    size_t i = t->heap_len++;
    while (i > 0 && before(e, t->heap[(i - 1) / 2])) {
        t->heap[i] = t->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    t->heap[i] = e;
    return TC_OK;
}

static entry *heap_pop(task *t) {
    entry *top = t->heap[0], *last = t->heap[--t->heap_len];
    size_t i = 0, n = t->heap_len;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && before(t->heap[c + 1], t->heap[c])) c++;
        if (!before(t->heap[c], last)) break;
        t->heap[i] = t->heap[c];
        i = c;
    }
    if (n) t->heap[i] = last;
    return top;
}

/* ---- graph discovery ---- */

/* Counts edges into every node reachable from n (iteratively: graphs may be very deep). */
static int count_dependencies(task *t, tc_node *root) {
    size_t cap = 64, len = 0;
    tc_node **stack = malloc(cap * sizeof *stack);
    if (!stack) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
    entry *e = map_get(t, root, true);
    if (!e) goto oom;
    if (e->visited) {
        free(stack);
        return TC_OK;
    }
    e->visited = true;
    stack[len++] = root;
    while (len) {
        tc_node *n = stack[--len];
        for (int32_t i = 0; i < n->n_edges; i++) {
            tc_node *next = n->edges[i].node;
            if (!next) continue;
            entry *ne = map_get(t, next, true);
            if (!ne) goto oom;
            ne->deps++;
            if (ne->visited) continue;
            ne->visited = true;
            if (len == cap) {
                tc_node **s = realloc(stack, 2 * cap * sizeof *s);
                if (!s) goto oom;
                stack = s;
                cap *= 2;
            }
            stack[len++] = next;
        }
    }
    free(stack);
    return TC_OK;
oom:
    free(stack);
    return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
}

static bool is_capture_node(const task *t, const tc_node *n) {
    for (int32_t i = 0; i < t->n_captures; i++)
        if (t->captures[i].node == n) return true;
    return false;
}

static bool must_run(const task *t, const tc_node *n) {
    for (int32_t i = 0; i < t->n_captures; i++)
        if (t->captures[i].node == n && t->captures[i].kind == CAPTURE_LEAF) return true;
    return false;
}

/* needed(n) = some capture lies at or below n and n is not only a capture point. Post-order over the
 * graph, iteratively. */
static int mark_needed(task *t, tc_node *const *roots, int32_t n_roots) {
    typedef struct frame {
        tc_node *node;
        int32_t next_edge;
    } frame;
    size_t cap = 64, len = 0;
    frame *stack = malloc(cap * sizeof *stack);
    if (!stack) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
    /* visited is reused as "in progress or done" for this pass: clear it */
    for (size_t i = 0; i < t->cap; i++) t->map[i].visited = false;
    for (int32_t r = 0; r < n_roots; r++) {
        if (!roots[r]) continue;
        entry *re = map_get(t, roots[r], false);
        if (!re || re->visited) continue;
        re->visited = true;
        stack[len++] = (frame){roots[r], 0};
        while (len) {
            frame *f = &stack[len - 1];
            if (f->next_edge < f->node->n_edges) {
                tc_node *next = f->node->edges[f->next_edge++].node;
                if (!next) continue;
                entry *ne = map_get(t, next, false);
                if (!ne || ne->visited) continue;
                ne->visited = true;
                if (len == cap) {
                    frame *s = realloc(stack, 2 * cap * sizeof *s);
                    if (!s) {
                        free(stack);
                        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
                    }
                    stack = s;
                    cap *= 2;
                }
                stack[len++] = (frame){next, 0};
                continue;
            }
            /* all children done */
            tc_node *n = f->node;
            len--;
            entry *e = map_get(t, n, false);
            bool below = false;
            for (int32_t i = 0; i < n->n_edges && !below; i++) {
                tc_node *next = n->edges[i].node;
                if (!next) continue;
                entry *ne = map_get(t, next, false);
                below = ne && (ne->needed || is_capture_node(t, next));
            }
            e->needed = below || must_run(t, n);
        }
    }
    free(stack);
    return TC_OK;
}

/* ---- gradients in flight ---- */

tc_tensor *tc_ag_zeros_for(const tc_input_meta *m) {
    return tc_zeros((tc_int_list){m->sizes, m->ndim}, m->dtype, -1, &m->device, NULL);
}

static bool expandable_to(int32_t nfrom, const int64_t *from, int32_t nto, const int64_t *to) {
    if (nfrom > nto) return false;
    for (int32_t i = 0; i < nfrom; i++) {
        int64_t a = from[nfrom - 1 - i], b = to[nto - 1 - i];
        if (a != b && a != 1) return false;
    }
    return true;
}

tc_tensor *tc_ag_sum_to(tc_tensor *grad, int32_t ndim, const int64_t *sizes) {
    int64_t dims[TC_MAX_DIMS];
    int32_t n = 0, lead = grad->ndim - ndim;
    for (int32_t d = 0; d < grad->ndim; d++)
        if (d < lead || (sizes[d - lead] == 1 && grad->sizes[d] != 1)) dims[n++] = d;
    tc_tensor *r;
    if (n == 0) {
        tc_tensor_retain(grad);
        r = grad;
    } else if (!(r = tc_sum_dim_IntList(grad, &(tc_int_list){dims, n}, true, -1))) {
        return NULL;
    }
    if (tc_shape_equal(r->ndim, r->sizes, ndim, sizes)) return r;
    tc_tensor *v = tc_reshape(r, (tc_int_list){sizes, ndim});
    tc_tensor_release(r);
    return v;
}

/* PyTorch's validate_outputs for one gradient on its way to (node, input_nr). */
static int validate(tc_node *from, int32_t index, const tc_input_meta *m, tc_tensor **grad) {
    tc_tensor *g = *grad;
    if (m->device.type != g->device.type || m->device.index != g->device.index)
        return tc_set_error(TC_ERR_RUNTIME, "Function %s returned an invalid gradient at index %d - expected device %s:%d "
                                            "but got %s:%d", from->name, index, tc_device_type_name(m->device.type),
                            m->device.index, tc_device_type_name(g->device.type), g->device.index);
    if (!tc_shape_equal(g->ndim, g->sizes, m->ndim, m->sizes)) {
        if (!expandable_to(m->ndim, m->sizes, g->ndim, g->sizes)) {
            char got[256], want[256];
            tc_shape_format(g->ndim, g->sizes, got, sizeof got);
            tc_shape_format(m->ndim, m->sizes, want, sizeof want);
            return tc_set_error(TC_ERR_RUNTIME, "Function %s returned an invalid gradient at index %d - got %s but "
                                                "expected shape compatible with %s", from->name, index, got, want);
        }
        tc_tensor *r = tc_ag_sum_to(g, m->ndim, m->sizes);
        if (!r) return TC_FAIL;
        tc_tensor_release(g);
        *grad = g = r;
    }
    if (tc_dtype_is_complex(g->dtype) && !tc_dtype_is_complex(m->dtype)) {
        /* a real input's gradient is the real part (PyTorch's formulas say handle_r_to_c) */
        tc_tensor *r = tc_real(g);
        if (!r) return TC_FAIL;
        tc_tensor_release(g);
        *grad = g = r;
    }
    if (g->dtype != m->dtype) {
        tc_tensor *r = tc__to_copy(g, m->dtype, -1, NULL, NULL, false, -1);
        if (!r) return TC_FAIL;
        tc_tensor_release(g);
        *grad = r;
    }
    return TC_OK;
}

/* Adds g (taken over) into slot. In place when nothing else can see the slot's tensor. */
static int accumulate(tc_tensor **slot, tc_tensor *g, bool create_graph) {
    tc_tensor *have = *slot;
    if (!have) {
        *slot = g;
        return TC_OK;
    }
    if (!create_graph && __atomic_load_n(&have->refcount, __ATOMIC_ACQUIRE) == 1 &&
        atomic_load(&have->storage->refcount) == 1 && have->dtype == g->dtype && !tc_requires_grad(have) &&
        tc_shape_equal(have->ndim, have->sizes, g->ndim, g->sizes) && tc_tensor_non_overlapping_and_dense(have)) {
        tc_tensor *r = tc_add__Tensor(have, g, TC_SCALAR_OF_INT(1));
        tc_tensor_release(g);
        tc_tensor_release(r);
        return r ? TC_OK : TC_FAIL;
    }
    tc_tensor *sum = tc_add_Tensor(have, g, TC_SCALAR_OF_INT(1));
    tc_tensor_release(g);
    if (!sum) return TC_FAIL;
    tc_tensor_release(have);
    *slot = sum;
    return TC_OK;
}

static int deliver(task *t, tc_node *n, uint32_t input_nr, tc_tensor *g) {
    entry *e = map_get(t, n, false);
    if (!e) { /* not part of this graph task: cannot happen for reachable nodes */
        tc_tensor_release(g);
        return tc_set_error(TC_ERR_RUNTIME, "internal error: gradient for a node outside the graph");
    }
    if (!e->buffer && !(e->buffer = calloc((size_t)(n->n_inputs ? n->n_inputs : 1), sizeof(tc_tensor *)))) {
        tc_tensor_release(g);
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
    }
    if (!g) return TC_OK;
    if ((int32_t)input_nr >= n->n_inputs) {
        tc_tensor_release(g);
        return tc_set_error(TC_ERR_RUNTIME, "internal error: input %u of %s", input_nr, n->name);
    }
    return accumulate(&e->buffer[input_nr], g, t->create_graph);
}

/* Applies n to grads (its n_inputs received gradients): undefined ones become zeros when its class
 * asks, and a node receiving nothing defined produces nothing. */
TC_INTERNAL int tc_ag_call_node(tc_node *n, tc_tensor *const *grads, tc_tensor **out) {
    bool any = false;
    for (int32_t i = 0; i < n->n_inputs; i++) any = any || grads[i];
    for (int32_t i = 0; i < n->n_edges; i++) out[i] = NULL;
    if (!any && !(n->cls->flags & TC_NODE_APPLY_UNDEFINED)) return TC_OK;
    tc_tensor *small[8], **filled = NULL;
    tc_tensor *const *use = grads;
    if (n->cls->flags & TC_NODE_MATERIALIZE_GRADS) {
        bool missing = false;
        for (int32_t i = 0; i < n->n_inputs; i++) missing = missing || (!grads[i] && n->inputs[i].ndim >= 0);
        if (missing) {
            filled = n->n_inputs <= 8 ? small : malloc(sizeof(tc_tensor *) * (size_t)n->n_inputs);
            if (!filled) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
            for (int32_t i = 0; i < n->n_inputs; i++) {
                filled[i] = grads[i];
                if (filled[i]) {
                    tc_tensor_retain(filled[i]);
                } else if (n->inputs[i].ndim >= 0 && !(filled[i] = tc_ag_zeros_for(&n->inputs[i]))) {
                    for (int32_t k = 0; k < i; k++) tc_tensor_release(filled[k]);
                    if (filled != small) free(filled);
                    return TC_FAIL;
                }
            }
            use = filled;
        }
    }
    int rc = n->cls->apply(n, n->state, use, out);
    if (filled) {
        for (int32_t i = 0; i < n->n_inputs; i++) tc_tensor_release(filled[i]);
        if (filled != small) free(filled);
    }
    if (rc)
        for (int32_t i = 0; i < n->n_edges; i++) {
            tc_tensor_release(out[i]);
            out[i] = NULL;
        }
    return rc;
}

static int run_prehooks(tc_node *n, tc_tensor **grads) {
    for (int pass = 0; pass < 3; pass++) { /* tensor hooks, then retain_grad, then the node's pre-hooks */
        for (tc_hook *h = n->hooks; h; h = h->next) {
            if (pass == 0 && h->kind == TC_HOOK_TENSOR && grads[h->input_nr]) {
                if (h->tensor_fn(h->ctx, &grads[h->input_nr])) return TC_FAIL;
            } else if (pass == 1 && h->kind == TC_HOOK_RETAIN && grads[h->input_nr]) {
                if (h->tensor_fn(h->ctx, &grads[h->input_nr])) return TC_FAIL;
            } else if (pass == 2 && h->kind == TC_HOOK_PRE) {
                if (h->node_fn(h->ctx, grads, n->n_inputs, NULL, 0)) return TC_FAIL;
            }
        }
    }
    return TC_OK;
}

static int run_posthooks(tc_node *n, tc_tensor **out, tc_tensor *const *grads) {
    for (tc_hook *h = n->hooks; h; h = h->next)
        if (h->kind == TC_HOOK_POST && h->node_fn(h->ctx, out, n->n_edges, grads, n->n_inputs)) return TC_FAIL;
    return TC_OK;
}

static int check_nan(tc_node *n, tc_tensor *const *out) {
    for (int32_t i = 0; i < n->n_edges; i++) {
        tc_tensor *g = out[i];
        if (!g || (!tc_dtype_is_floating(g->dtype) && !tc_dtype_is_complex(g->dtype))) continue;
        tc_tensor *ne = tc_ne_Tensor(g, g);
        tc_tensor *count = ne ? tc_sum(ne, -1) : NULL;
        tc_scalar s = {0};
        int rc = count ? tc__local_scalar_dense(count, &s) : TC_FAIL;
        tc_tensor_release(ne);
        tc_tensor_release(count);
        if (rc) return TC_FAIL;
        if (s.v.i != 0) {
            if (n->trace) tc_warn("Error detected in %s. Traceback of forward call that caused the error:\n%s", n->name,
                                  n->trace);
            return tc_set_error(TC_ERR_RUNTIME, "Function '%s' returned nan values in its %dth output.", n->name, i);
        }
    }
    return TC_OK;
}

/* Runs one ready node and passes what it returns on. */
static int execute(task *t, entry *e_in) {
    tc_node *n = e_in->node;
    tc_tensor **grads = e_in->buffer; /* taken over from the entry */
    e_in->buffer = NULL;
    bool needed = e_in->needed || !t->select;
    int rc = TC_OK;
    int32_t n_in = n->n_inputs;
    tc_tensor *small[8], **out = NULL;
    if (!grads && !(grads = calloc((size_t)(n_in ? n_in : 1), sizeof(tc_tensor *))))
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
    rc = run_prehooks(n, grads);
    /* captures (autograd.grad, backward(inputs=) of non-leaves) */
    for (int32_t i = 0; rc == TC_OK && i < t->n_captures; i++) {
        capture *c = &t->captures[i];
        if (c->node != n || c->kind == CAPTURE_LEAF || !grads[c->input_nr]) continue;
        tc_tensor *g = grads[c->input_nr];
        if (c->kind == CAPTURE_NON_LEAF) {
            tc_tensor *have = tc_tensor_grad(c->tensor);
            tc_tensor *sum = have ? tc_add_Tensor(have, g, TC_SCALAR_OF_INT(1)) : tc_clone(g, -1);
            tc_tensor_release(have);
            rc = sum ? tc_tensor_set_grad(c->tensor, sum) : TC_FAIL;
            tc_tensor_release(sum);
        } else if (t->results[c->index]) {
            tc_tensor *sum = tc_add_Tensor(t->results[c->index], g, TC_SCALAR_OF_INT(1));
            if (!sum) rc = TC_FAIL;
            tc_tensor_release(t->results[c->index]);
            t->results[c->index] = sum;
        } else {
            tc_tensor_retain(g);
            t->results[c->index] = g;
        }
    }
    if (rc == TC_OK && needed) {
        out = n->n_edges <= 8 ? small : malloc(sizeof(tc_tensor *) * (size_t)n->n_edges);
        if (!out) rc = tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
        if (rc == TC_OK) rc = tc_ag_call_node(n, grads, out);
        if (rc && n->trace && tc_anomaly_enabled())
            tc_warn("Error detected in %s. Traceback of forward call that caused the error:\n%s", n->name, n->trace);
        if (rc == TC_OK) rc = run_posthooks(n, out, grads);
        if (rc == TC_OK && tc_anomaly_check_nan()) rc = check_nan(n, out);
        if (rc) {
            for (int32_t i = 0; i < n->n_edges; i++) tc_tensor_release(out[i]);
            if (out != small) free(out);
            out = NULL;
        }
    }
    for (int32_t i = 0; i < n_in; i++) tc_tensor_release(grads[i]);
    free(grads);
    if (rc) return TC_FAIL;
    if (!t->keep_graph) tc_ag_node_release_saved(n);
    /* pass gradients on; every edge counts down its node, gradient or not */
    for (int32_t i = 0; i < n->n_edges; i++) {
        tc_edge *edge = &n->edges[i];
        tc_tensor *g = out ? out[i] : NULL;
        if (out) out[i] = NULL;
        if (!edge->node) {
            tc_tensor_release(g);
            continue;
        }
        const tc_input_meta *m = &edge->node->inputs[edge->input_nr];
        if (g && m->ndim < 0) { /* the next node expects no gradient there */
            tc_tensor_release(g);
            g = NULL;
        }
        if (rc == TC_OK && g && (rc = validate(n, i, m, &g))) {
            tc_tensor_release(g);
            g = NULL;
        }
        if (rc == TC_OK) {
            rc = deliver(t, edge->node, edge->input_nr, g);
        } else {
            tc_tensor_release(g);
            continue;
        }
        entry *ne = map_get(t, edge->node, false);
        if (rc == TC_OK && ne && --ne->deps == 0 && (ne->needed || !t->select || is_capture_node(t, edge->node))) {
            ne->pushed = true;
            rc = heap_push(t, ne);
        }
    }
    if (out && out != small) free(out);
    return rc;
}

/* ---- entry points ---- */

static int run(task *t, int32_t n_outputs, tc_tensor *const *outputs, tc_tensor *const *grad_outputs) {
    tc_edge *roots = calloc((size_t)(n_outputs ? n_outputs : 1), sizeof(tc_edge));
    tc_tensor **root_grads = calloc((size_t)(n_outputs ? n_outputs : 1), sizeof(tc_tensor *));
    int rc = TC_OK;
    if (!roots || !root_grads) rc = tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
    for (int32_t i = 0; rc == TC_OK && i < n_outputs; i++) {
        tc_tensor *o = outputs[i];
        if (!tc_requires_grad(o)) {
            rc = tc_set_error(TC_ERR_RUNTIME, "element %d of tensors does not require grad and does not have a grad_fn", i);
            break;
        }
        if ((rc = tc_ag_gradient_edge(o, &roots[i]))) break;
        tc_tensor *g = grad_outputs ? grad_outputs[i] : NULL;
        if (g) {
            tc_tensor_retain(g);
        } else if (tc_tensor_numel(o) != 1) {
            rc = tc_set_error(TC_ERR_RUNTIME, "grad can be implicitly created only for scalar outputs");

        } else if (!(g = tc_ones_like(o, -1, -1, NULL, NULL, 1 /* contiguous */))) {
            rc = TC_FAIL;
        }
        root_grads[i] = g;
    }
    for (int32_t i = 0; rc == TC_OK && i < n_outputs; i++) rc = count_dependencies(t, roots[i].node);
    if (rc == TC_OK && t->select) {
        tc_node **nodes = malloc(sizeof(tc_node *) * (size_t)(n_outputs ? n_outputs : 1));
        if (!nodes) {
            rc = tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
        } else {
            for (int32_t i = 0; i < n_outputs; i++) nodes[i] = roots[i].node;
            rc = mark_needed(t, nodes, n_outputs);
            free(nodes);
        }
    }
    /* grad mode is create_graph while the graph runs */
    bool was_enabled = tc_grad_enabled();
    tc_set_grad_enabled(t->create_graph);
    for (int32_t i = 0; rc == TC_OK && i < n_outputs; i++) {
        tc_node *n = roots[i].node;
        tc_tensor *g = root_grads[i];
        root_grads[i] = NULL;
        const tc_input_meta *m = &n->inputs[roots[i].input_nr];
        if (g && m->ndim >= 0 && (rc = validate(n, i, m, &g))) {
            tc_tensor_release(g);
            break;
        }
        if ((rc = deliver(t, n, roots[i].input_nr, g))) break;
    }
    for (int32_t i = 0; rc == TC_OK && i < n_outputs; i++) {
        entry *e = map_get(t, roots[i].node, false);
        if (e && e->deps == 0 && !e->pushed && (e->needed || !t->select || is_capture_node(t, e->node))) {
            e->pushed = true; /* once, even when several outputs share a node */
            rc = heap_push(t, e);
        }
    }
    while (rc == TC_OK && t->heap_len) rc = execute(t, heap_pop(t));
    tc_set_grad_enabled(was_enabled);
    for (int32_t i = 0; i < n_outputs; i++) {
        if (roots) tc_node_release(roots[i].node);
        if (root_grads) tc_tensor_release(root_grads[i]);
    }
    free(roots);
    free(root_grads);
    return rc;
}

static int add_capture(task *t, tc_tensor *input, int kind, int32_t index) {
    if (!tc_requires_grad(input)) return tc_set_error(TC_ERR_RUNTIME, "One of the differentiated Tensors does not require grad");
    tc_edge edge;
    if (tc_ag_gradient_edge(input, &edge)) return TC_FAIL;
    if (!edge.node) return tc_set_error(TC_ERR_RUNTIME, "One of the differentiated Tensors does not require grad");
    t->captures[t->n_captures++] = (capture){kind, edge.node, edge.input_nr, index, input};
    return TC_OK;
}

static void release_captures(task *t) {
    for (int32_t i = 0; i < t->n_captures; i++) tc_node_release(t->captures[i].node);
}

int tc_backward(int32_t n_outputs, tc_tensor *const *outputs, tc_tensor *const *grad_outputs, bool keep_graph,
                bool create_graph, int32_t n_inputs, tc_tensor *const *inputs) {
    task t = {.keep_graph = keep_graph, .create_graph = create_graph, .select = n_inputs > 0};
    int rc = TC_OK;
    if (n_inputs > 0 && !(t.captures = calloc((size_t)n_inputs, sizeof(capture))))
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
    for (int32_t i = 0; i < n_inputs && rc == TC_OK; i++)
        rc = add_capture(&t, inputs[i], tc_is_leaf(inputs[i]) ? CAPTURE_LEAF : CAPTURE_NON_LEAF, -1);
    if (rc == TC_OK) rc = run(&t, n_outputs, outputs, grad_outputs);
    release_captures(&t);
    task_free(&t);
    return rc;
}

int tc_grad(int32_t n_outputs, tc_tensor *const *outputs, tc_tensor *const *grad_outputs, int32_t n_inputs,
            tc_tensor *const *inputs, bool keep_graph, bool create_graph, bool allow_unused, tc_tensor **results) {
    task t = {.keep_graph = keep_graph, .create_graph = create_graph, .select = true, .results = results};
    for (int32_t i = 0; i < n_inputs; i++) results[i] = NULL;
    if (n_inputs <= 0) return tc_set_error(TC_ERR_RUNTIME, "grad requires at least one input");
    if (!(t.captures = calloc((size_t)n_inputs, sizeof(capture))))
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory running backward");
    int rc = TC_OK;
    for (int32_t i = 0; i < n_inputs && rc == TC_OK; i++) rc = add_capture(&t, inputs[i], CAPTURE_RESULT, i);
    if (rc == TC_OK) rc = run(&t, n_outputs, outputs, grad_outputs);
    for (int32_t i = 0; rc == TC_OK && i < n_inputs; i++)
        if (!results[i] && !allow_unused)
            rc = tc_set_error(TC_ERR_RUNTIME, "One of the differentiated Tensors appears to not have been used in the "
                                              "graph. Set allow_unused=True if this is the desired behavior.");
    if (rc)
        for (int32_t i = 0; i < n_inputs; i++) {
            tc_tensor_release(results[i]);
            results[i] = NULL;
        }
    release_captures(&t);
    task_free(&t);
    return rc;
}
