/*
 * Nodes of the graph: one allocation holds the header, the edges, what the node expects of each
 * gradient it receives, and its class's state.
 *
 * Freeing is iterative: a node's last release frees its saved tensors and edges, which may free
 * the next nodes, and so on down a chain as long as the program's loop (an RNN of 100,000 steps);
 * releases that happen while a thread is already freeing nodes are queued instead of recursing.
 */
#include "autograd_internal.h"

#include <stdlib.h>
#include <string.h>

static _Thread_local uint64_t next_seq;

uint64_t tc_ag_next_sequence_nr(void) { return next_seq++; }

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

tc_node *tc_ag_node_alloc(const tc_node_class *cls, int32_t n_inputs, int32_t n_edges, size_t state_size) {
    if (n_inputs < 0 || n_edges < 0 || n_inputs > (1 << 20) || n_edges > (1 << 24) || state_size > ((size_t)1 << 30))
        return tc_set_error(TC_ERR_RUNTIME, "autograd node too large"), NULL;
    size_t head = align16(sizeof(tc_node));
    size_t edges = align16(sizeof(tc_edge) * (size_t)n_edges);
    size_t inputs = align16(sizeof(tc_input_meta) * (size_t)n_inputs);
    tc_node *n = calloc(1, head + edges + inputs + state_size);
    if (!n) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory recording an autograd node"), NULL;
    atomic_init(&n->refcount, 1);
    n->cls = cls;
    n->name = cls->name;
    n->seq = tc_ag_next_sequence_nr();
    n->n_inputs = n_inputs;
    n->n_edges = n_edges;
    n->edges = (tc_edge *)((char *)n + head);
    n->inputs = (tc_input_meta *)((char *)n + head + edges);
    for (int32_t i = 0; i < n_inputs; i++) n->inputs[i].ndim = -1;
    n->state = state_size ? (char *)n + head + edges + inputs : NULL;
    atomic_init(&n->released, false);
    if (tc_anomaly_enabled()) n->trace = tc_ag_capture_trace();
    return n;
}

int tc_ag_meta_record(tc_input_meta *m, const tc_tensor *t) {
    tc_ag_meta_clear(m);
    if (t->ndim > TC_INPUT_META_INLINE) {
        if (!(m->sizes = malloc(sizeof(int64_t) * (size_t)t->ndim)))
            return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory recording an autograd node");
    } else {
        m->sizes = m->inline_sizes;
    }
    memcpy(m->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim);
    m->ndim = t->ndim;
    m->dtype = t->dtype;
    m->device = t->device;
    return TC_OK;
}

void tc_ag_meta_clear(tc_input_meta *m) {
    if (m->ndim > TC_INPUT_META_INLINE) free(m->sizes);
    m->sizes = NULL;
    m->ndim = -1;
}

int tc_ag_node_set_edge(tc_node *n, int32_t i, tc_tensor *t) {
    n->edges[i] = (tc_edge){NULL, 0};
    if (!t) return TC_OK;
    return tc_ag_gradient_edge(t, &n->edges[i]);
}

/* ---- lifetime ---- */

/* Nodes waiting to be freed by this thread, chained through their (now unused) frontend slot. */
static _Thread_local tc_node *pending;
static _Thread_local bool freeing;

static void destroy(tc_node *n) {
    if (n->cls->destroy) n->cls->destroy(n, n->state);
    for (int32_t i = 0; i < n->n_inputs; i++) tc_ag_meta_clear(&n->inputs[i]);
    tc_ag_hooks_free(n->hooks);
    if (n->lock) {
        pthread_mutex_destroy(n->lock);
        free(n->lock);
    }
    free(n->trace);
    /* edges last: releasing them may queue more nodes */
    for (int32_t i = 0; i < n->n_edges; i++) tc_node_release(n->edges[i].node);
    free(n);
}

void tc_node_retain(tc_node *n) {
    if (n) atomic_fetch_add_explicit(&n->refcount, 1, memory_order_relaxed);
}

void tc_node_release(tc_node *n) {
    if (!n || atomic_fetch_sub_explicit(&n->refcount, 1, memory_order_acq_rel) != 1) return;
    n->frontend = pending;
    pending = n;
    if (freeing) return;
    freeing = true;
    while (pending) {
        tc_node *next = pending;
        pending = next->frontend;
        destroy(next);
    }
    freeing = false;
}

void tc_ag_node_release_saved(tc_node *n) {
    if (atomic_exchange(&n->released, true)) return;
    if (n->cls->release_saved) n->cls->release_saved(n, n->state);
}

/* ---- the public view of nodes ---- */

const char *tc_node_name(const tc_node *n) { return n->name; }
int32_t tc_node_num_inputs(const tc_node *n) { return n->n_inputs; }
int32_t tc_node_num_edges(const tc_node *n) { return n->n_edges; }
uint64_t tc_node_sequence_nr(const tc_node *n) { return n->seq; }
const char *tc_node_trace(const tc_node *n) { return n->trace; }
void *tc_node_frontend(const tc_node *n) { return n->frontend; }
void tc_node_set_frontend(tc_node *n, void *obj) { n->frontend = obj; }
void *tc_node_state(tc_node *n) { return n->state; }
void tc_node_set_name(tc_node *n, const char *name) { n->name = name; }

tc_node *tc_node_edge(const tc_node *n, int32_t i, uint32_t *input_nr) {
    if (i < 0 || i >= n->n_edges) return NULL;
    if (input_nr) *input_nr = n->edges[i].input_nr;
    return n->edges[i].node;
}

bool tc_node_needs_input_grad(const tc_node *n, int32_t i) {
    return i >= 0 && i < n->n_edges && n->edges[i].node != NULL;
}

tc_node *tc_node_create(const tc_node_class *cls, int32_t n_inputs, tc_tensor *const *inputs, int32_t n_edges,
                        size_t state_size) {
    tc_node *n = tc_ag_node_alloc(cls, n_inputs, n_edges, state_size);
    if (!n) return NULL;
    for (int32_t i = 0; i < n_edges; i++) {
        if (tc_ag_node_set_edge(n, i, inputs ? inputs[i] : NULL)) {
            tc_node_release(n);
            return NULL;
        }
    }
    return n;
}

int tc_node_set_output(tc_node *n, int32_t nr, tc_tensor *output, bool inplace) {
    if (nr < 0 || nr >= n->n_inputs) return tc_set_error(TC_ERR_RUNTIME, "node %s has no output %d", n->name, nr);
    if (inplace) {
        const tc_autograd_meta *m = output->autograd;
        if (m && m->requires_grad && !m->grad_fn)
            return tc_set_error(TC_ERR_RUNTIME, "a leaf Variable that requires grad has been used in an in-place "
                                                "operation.");
        if (tc_ag_check_inplace(output)) return TC_FAIL;
        if (nr != 0) return tc_set_error(TC_ERR_RUNTIME, "only the first result of a node may be written in place");
        return tc_ag_rebase_history(output, n);
    }
    if (tc_ag_meta_record(&n->inputs[nr], output)) return TC_FAIL;
    return tc_ag_set_history(output, n, (uint32_t)nr);
}

/* ---- hooks ---- */

static atomic_int_fast64_t next_hook_id = 1;

int64_t tc_ag_node_add_hook(tc_node *n, tc_hook *h) {
    h->id = atomic_fetch_add(&next_hook_id, 1);
    tc_hook **tail = &n->hooks; /* hooks run in the order they were added */
    while (*tail) tail = &(*tail)->next;
    *tail = h;
    return h->id;
}

static int64_t add_node_hook(tc_node *n, int kind, tc_node_hook_fn fn, void *ctx, void (*release)(void *)) {
    tc_hook *h = calloc(1, sizeof *h);
    if (!h) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory adding a hook");
    h->kind = kind;
    h->node_fn = fn;
    h->ctx = ctx;
    h->release = release;
    return tc_ag_node_add_hook(n, h);
}

int64_t tc_node_add_prehook(tc_node *n, tc_node_hook_fn fn, void *ctx, void (*release)(void *)) {
    return add_node_hook(n, TC_HOOK_PRE, fn, ctx, release);
}

int64_t tc_node_add_posthook(tc_node *n, tc_node_hook_fn fn, void *ctx, void (*release)(void *)) {
    return add_node_hook(n, TC_HOOK_POST, fn, ctx, release);
}

static void remove_hook(tc_hook **list, int64_t id) {
    for (tc_hook **p = list; *p; p = &(*p)->next) {
        if ((*p)->id != id) continue;
        tc_hook *h = *p;
        *p = h->next;
        if (h->release) h->release(h->ctx);
        free(h);
        return;
    }
}

void tc_node_remove_hook(tc_node *n, int64_t id) { remove_hook(&n->hooks, id); }

void tc_ag_hooks_free(tc_hook *h) {
    while (h) {
        tc_hook *next = h->next;
        if (h->release) h->release(h->ctx);
        free(h);
        h = next;
    }
}

int tc_ag_run_tensor_hooks(tc_hook *hooks, int32_t input_nr, tc_tensor **grad) {
    for (tc_hook *h = hooks; h; h = h->next) {
        if (h->kind != TC_HOOK_TENSOR || h->input_nr != input_nr || !*grad) continue;
        if (h->tensor_fn(h->ctx, grad)) return TC_FAIL;
    }
    return TC_OK;
}

void tc_tensor_remove_hook(tc_tensor *t, int64_t id) {
    tc_autograd_meta *m = t->autograd;
    if (!m) return;
    remove_hook(&m->hooks, id);
    if (m->grad_fn) remove_hook(&m->grad_fn->hooks, id);
}
