/*
 * A tensor's autograd record (t->autograd), made the first time a tensor needs one: whether a leaf
 * requires grad, its .grad, the node that made a non-leaf, hooks. A tensor that requires grad
 * carries TC_KEY_AUTOGRAD in t->keys; a view also brings its base's keys to a call (dispatch.c), so
 * views made before their base started requiring grad still reach the autograd step.
 */
#include "autograd_internal.h"

#include <stdlib.h>
#include <string.h>

struct tc_grad_cell {
    atomic_int_fast64_t refcount;
    tc_tensor *grad;
};

static pthread_mutex_t ag_lock = PTHREAD_MUTEX_INITIALIZER;
void tc_ag_lock(void) { pthread_mutex_lock(&ag_lock); }
void tc_ag_unlock(void) { pthread_mutex_unlock(&ag_lock); }

tc_autograd_meta *tc_ag_meta(tc_tensor *t) {
    tc_autograd_meta *m = __atomic_load_n((tc_autograd_meta **)&t->autograd, __ATOMIC_ACQUIRE);
    if (m) return m;
    m = calloc(1, sizeof *m);
    if (!m) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory recording autograd state"), NULL;
    void *expected = NULL;
    if (!__atomic_compare_exchange_n(&t->autograd, &expected, m, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        free(m);
        return expected;
    }
    return m;
}

static void cell_release(void *p) {
    tc_grad_cell *c = p;
    if (!c || atomic_fetch_sub(&c->refcount, 1) != 1) return;
    tc_tensor_release(c->grad);
    free(c);
}

void tc_ag_meta_free(tc_tensor *t) {
    tc_autograd_meta *m = t->autograd;
    if (!m) return;
    t->autograd = NULL;
    if (m->accumulator) {
        tc_ag_accumulate_grad_orphan(m->accumulator);
        tc_node_release(m->accumulator);
    }
    tc_tensor_release(m->grad);
    tc_node_release(m->grad_fn);
    cell_release(m->retained);
    tc_ag_hooks_free(m->hooks);
    tc_tensor_release(m->fw_grad);
    free(m);
}

/* ---- requires_grad and leaves ---- */

static bool own_requires_grad(const tc_tensor *t) {
    const tc_autograd_meta *m = t->autograd;
    return m && (m->requires_grad || m->grad_fn);
}

bool tc_requires_grad(const tc_tensor *t) { return own_requires_grad(t) || (t->base && own_requires_grad(t->base)); }

bool tc_is_leaf(const tc_tensor *t) {
    const tc_autograd_meta *m = t->autograd;
    return !m || !m->grad_fn;
}

static void update_key(tc_tensor *t) {
    if (own_requires_grad(t)) t->keys |= TC_KEYBIT(TC_KEY_AUTOGRAD);
    else t->keys &= ~TC_KEYBIT(TC_KEY_AUTOGRAD);
}

int tc_set_requires_grad(tc_tensor *t, bool requires_grad) {
    if (!tc_is_leaf(t)) {
        if (requires_grad) return TC_OK;
        return tc_set_error(TC_ERR_RUNTIME, "you can only change requires_grad flags of leaf variables. If you want to "
                                            "use a computed variable in a subgraph that doesn't require "
                                            "differentiation use var_no_grad = var.detach().");
    }
    if (requires_grad && !tc_dtype_is_floating(t->dtype) && !tc_dtype_is_complex(t->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "only Tensors of floating point and complex dtype can require gradients");
    if (requires_grad && tc_tensor_is_inference(t) && !tc_inference_mode_enabled())
        return tc_set_error(TC_ERR_RUNTIME, "Setting requires_grad=True on inference tensor outside InferenceMode is "
                                            "not allowed.");
    if (!requires_grad && !t->autograd) return TC_OK;
    tc_autograd_meta *m = tc_ag_meta(t);
    if (!m) return TC_FAIL;
    m->requires_grad = requires_grad;
    update_key(t);
    return TC_OK;
}

uint32_t tc_tensor_output_nr(const tc_tensor *t) {
    const tc_autograd_meta *m = t->autograd;
    return m ? m->output_nr : 0;
}

/* ---- history ---- */

static int64_t retain_hook_add(tc_node *n, uint32_t nr, tc_grad_cell *cell);

int tc_ag_set_history(tc_tensor *t, tc_node *n, uint32_t nr) {
    tc_autograd_meta *m = tc_ag_meta(t);
    if (!m) return TC_FAIL;
    tc_node_retain(n);
    tc_node *old = m->grad_fn;
    m->grad_fn = n;
    m->output_nr = nr;
    m->requires_grad = false;
    if (t->base) m->view_version = *t->version;
    t->keys |= TC_KEYBIT(TC_KEY_AUTOGRAD);
    /* a retained gradient follows the tensor to its new history */
    if (m->retained && old) tc_node_remove_hook(old, m->retain_hook);
    tc_node_release(old);
    if (m->retained && (m->retain_hook = retain_hook_add(n, nr, m->retained)) < 0) return TC_FAIL;
    return TC_OK;
}

/* A view's grad_fn is made again from its base when the base or any view of it was written in
 * place since (PyTorch regenerates it as an as_strided of the base). */
TC_INTERNAL tc_node *tc_ag_view_grad_fn(tc_tensor *view, tc_tensor *base);

/* t's grad_fn (new reference, NULL for a leaf) in *out; TC_FAIL only when regenerating one failed. */
static int current_grad_fn(tc_tensor *t, tc_node **out) {
    *out = NULL;
    tc_autograd_meta *m = t->autograd;
    if (t->base && own_requires_grad(t->base)) {
        uint64_t version = *t->version;
        if (!m || !m->grad_fn || m->view_version != version) {
            tc_node *n = tc_ag_view_grad_fn(t, t->base);
            if (!n) return TC_FAIL;
            int rc = tc_ag_set_history(t, n, 0);
            tc_node_release(n);
            if (rc) return TC_FAIL;
            m = t->autograd;
        }
    }
    if (m && m->grad_fn) {
        tc_node_retain(m->grad_fn);
        *out = m->grad_fn;
    }
    return TC_OK;
}

tc_node *tc_tensor_grad_fn(tc_tensor *t) {
    tc_node *n;
    return current_grad_fn(t, &n) ? NULL : n;
}

int tc_ag_gradient_edge(tc_tensor *t, tc_edge *out) {
    *out = (tc_edge){NULL, 0};
    tc_node *n;
    if (current_grad_fn(t, &n)) return TC_FAIL;
    if (n) {
        *out = (tc_edge){n, tc_tensor_output_nr(t)};
        return TC_OK;
    }
    tc_autograd_meta *m = t->autograd;
    if (m && m->requires_grad && !(out->node = tc_ag_accumulator(t))) return TC_FAIL;
    return TC_OK;
}

/* A leaf owns its AccumulateGrad (which points back weakly), so that finding it while recording,
 * once per op and leaf, is a load and an increment: no lock and no weak-reference upgrade. */
tc_node *tc_ag_accumulator(tc_tensor *leaf) {
    tc_autograd_meta *m = tc_ag_meta(leaf);
    if (!m) return NULL;
    tc_node *n = __atomic_load_n(&m->accumulator, __ATOMIC_ACQUIRE);
    if (!n) {
        tc_node *made = tc_ag_accumulate_grad_new(leaf);
        if (!made) return NULL;
        tc_node *expected = NULL;
        if (__atomic_compare_exchange_n(&m->accumulator, &expected, made, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            n = made;
        } else { /* another thread made one first */
            tc_ag_accumulate_grad_orphan(made);
            tc_node_release(made);
            n = expected;
        }
    }
    tc_node_retain(n);
    return n;
}

/* ---- .grad ---- */

tc_tensor *tc_tensor_grad(const tc_tensor *t) {
    const tc_autograd_meta *m = t->autograd;
    if (!m) return NULL;
    tc_ag_lock();
    tc_tensor *g = m->retained && m->grad_fn ? m->retained->grad : m->grad;
    if (g) tc_tensor_retain(g);
    tc_ag_unlock();
    return g;
}

int tc_tensor_set_grad(tc_tensor *t, tc_tensor *grad) {
    if (grad) {
        if (grad->dtype != t->dtype) return tc_set_error(TC_ERR_RUNTIME, "assigned grad has data of a different type");
        if (grad->device.type != t->device.type || grad->device.index != t->device.index)
            return tc_set_error(TC_ERR_RUNTIME, "assigned grad has data located on a different device");
        if (!tc_shape_equal(grad->ndim, grad->sizes, t->ndim, t->sizes))
            return tc_set_error(TC_ERR_RUNTIME, "assigned grad has data of a different size");
    }
    if (!grad && !t->autograd) return TC_OK;
    tc_autograd_meta *m = tc_ag_meta(t);
    if (!m) return TC_FAIL;
    if (grad) tc_tensor_retain(grad);
    tc_ag_lock();
    tc_tensor **slot = m->retained && m->grad_fn ? &m->retained->grad : &m->grad;
    tc_tensor *old = *slot;
    *slot = grad;
    tc_ag_unlock();
    tc_tensor_release(old);
    return TC_OK;
}

void tc_ag_cell_store(tc_grad_cell *cell, tc_tensor *grad) {
    tc_ag_lock();
    tc_tensor *old = cell->grad;
    cell->grad = grad;
    tc_ag_unlock();
    tc_tensor_release(old);
}

/* The retain_grad hook: .grad = grad (a copy), or .grad + grad when one is there already. */
static int retain_hook(void *ctx, tc_tensor **grad) {
    tc_grad_cell *cell = ctx;
    tc_ag_lock();
    tc_tensor *have = cell->grad;
    if (have) tc_tensor_retain(have);
    tc_ag_unlock();
    tc_tensor *sum = have ? tc_add_Tensor(have, *grad, TC_SCALAR_OF_INT(1)) : tc_clone(*grad, -1);
    tc_tensor_release(have);
    if (!sum) return TC_FAIL;
    tc_ag_cell_store(cell, sum);
    return TC_OK;
}

static int64_t retain_hook_add(tc_node *n, uint32_t nr, tc_grad_cell *cell) {
    tc_hook *h = calloc(1, sizeof *h);
    if (!h) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory adding a hook");
    atomic_fetch_add(&cell->refcount, 1);
    h->kind = TC_HOOK_RETAIN;
    h->input_nr = (int32_t)nr;
    h->tensor_fn = retain_hook;
    h->ctx = cell;
    h->release = cell_release;
    return tc_ag_node_add_hook(n, h);
}

int tc_tensor_retain_grad(tc_tensor *t) {
    if (!tc_requires_grad(t))
        return tc_set_error(TC_ERR_RUNTIME, "can't retain_grad on Tensor that has requires_grad=False");
    tc_node *n;
    if (current_grad_fn(t, &n)) return TC_FAIL;
    if (!n) return TC_OK; /* leaves keep their grad anyway */
    tc_autograd_meta *m = t->autograd;
    int rc = TC_OK;
    if (!m->retained) {
        tc_grad_cell *cell = calloc(1, sizeof *cell);
        if (!cell) {
            rc = tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        } else {
            atomic_init(&cell->refcount, 1);
            m->retained = cell;
            if ((m->retain_hook = retain_hook_add(n, m->output_nr, cell)) < 0) rc = TC_FAIL;
        }
    }
    tc_node_release(n);
    return rc;
}

bool tc_tensor_retains_grad(const tc_tensor *t) {
    const tc_autograd_meta *m = t->autograd;
    return m && m->retained && m->grad_fn;
}

/* ---- hooks on tensors ---- */

int64_t tc_tensor_add_hook(tc_tensor *t, tc_tensor_hook_fn fn, void *ctx, void (*release)(void *)) {
    if (!tc_requires_grad(t))
        return tc_set_error(TC_ERR_RUNTIME, "cannot register a hook on a tensor that doesn't require gradient");
    tc_node *n;
    if (current_grad_fn(t, &n)) return TC_FAIL;
    tc_hook *h = calloc(1, sizeof *h);
    if (!h) {
        tc_node_release(n);
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory adding a hook");
    }
    h->kind = TC_HOOK_TENSOR;
    h->tensor_fn = fn;
    h->ctx = ctx;
    h->release = release;
    int64_t id;
    if (n) {
        h->input_nr = (int32_t)tc_tensor_output_nr(t);
        id = tc_ag_node_add_hook(n, h);
        tc_node_release(n);
    } else {
        tc_autograd_meta *m = tc_ag_meta(t);
        if (!m) {
            free(h);
            return TC_FAIL;
        }
        tc_ag_lock();
        tc_hook **tail = &m->hooks;
        while (*tail) tail = &(*tail)->next;
        *tail = h;
        tc_ag_unlock();
        static atomic_int_fast64_t leaf_ids = (int64_t)1 << 62; /* apart from node hook ids */
        id = h->id = atomic_fetch_add(&leaf_ids, 1);
    }
    return id;
}

/* ---- detaching ---- */

tc_tensor *tc_tensor_detach(tc_tensor *t) { return tc_detach(t); }

int tc_tensor_detach_(tc_tensor *t) {
    if (t->base)
        return tc_set_error(TC_ERR_RUNTIME,
                            "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                            "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                            "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
                            "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.");
    tc_autograd_meta *m = t->autograd;
    if (!m) return TC_OK;
    tc_node *old = m->grad_fn;
    m->grad_fn = NULL;
    m->output_nr = 0;
    m->requires_grad = false;
    update_key(t);
    tc_node_release(old);
    return TC_OK;
}

tc_tensor *tc_tensor_base(const tc_tensor *t) {
    if (t->base) tc_tensor_retain(t->base);
    return t->base;
}

int tc_tensor_set_data(tc_tensor *t, tc_tensor *data) {
    if (data->layout != t->layout || data->device.type != t->device.type)
        return tc_set_error(TC_ERR_RUNTIME, "setting .data to a tensor of another layout or device type is not "
                                            "supported");
    if (tc_requires_grad(t) && !tc_dtype_is_floating(data->dtype) && !tc_dtype_is_complex(data->dtype))
        return tc_set_error(TC_ERR_RUNTIME, "data set to a tensor that requires gradients must be floating point or "
                                            "complex dtype");
    if (data->ndim > t->ndim && t->sizes == (int64_t *)(t + 1)) {
        int64_t *shape = malloc(2 * sizeof(int64_t) * (size_t)data->ndim);
        if (!shape) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        t->sizes = shape;
    } else if (data->ndim > t->ndim) {
        int64_t *shape = realloc(t->sizes, 2 * sizeof(int64_t) * (size_t)data->ndim);
        if (!shape) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        t->sizes = shape;
    }
    tc_storage_retain(data->storage);
    tc_storage_release(t->storage);
    t->storage = data->storage;
    t->offset = data->offset;
    t->ndim = data->ndim;
    t->strides = t->sizes + data->ndim;
    memcpy(t->sizes, data->sizes, sizeof(int64_t) * (size_t)data->ndim);
    memcpy(t->strides, data->strides, sizeof(int64_t) * (size_t)data->ndim);
    t->dtype = data->dtype;
    t->device = data->device;
    t->version = data->version;
    if (data->own_version) atomic_fetch_add(&data->own_version->refcount, 1);
    tc_version_counter_release(t->own_version);
    t->own_version = data->own_version;
    return TC_OK;
}
