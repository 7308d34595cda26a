/*
 * The op registry: the generated built-in ops, then ops added while the program runs (a plugin's
 * register_op, torch.library's define). Ids are dense and never change; records live in chunks that
 * never move, so tc_op_at needs no lock. Names are looked up in a hash table (string -> id) built on
 * first use and extended under a lock.
 */
#include "core_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 1024
#define MAX_CHUNKS 1024

static _Atomic(struct tc_op *) *runtime_chunks[MAX_CHUNKS]; /* ids from TC_NUM_BUILTIN_OPS on */
static atomic_int n_ops = TC_NUM_BUILTIN_OPS;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- lookup by name: open addressing over "name.overload" ---- */

static struct {
    char **keys;
    int32_t *ids;
    size_t cap, used;
} names;

static uint64_t hash_str(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static char *qualified(const tc_op_schema *s) {
    size_t n = strlen(s->name) + strlen(s->overload) + 2;
    char *q = malloc(n);
    if (q) snprintf(q, n, "%s%s%s", s->name, s->overload[0] ? "." : "", s->overload);
    return q;
}

static int names_insert(char *key, int32_t id) {
    if ((names.used + 1) * 2 > names.cap) {
        size_t cap = names.cap ? names.cap * 2 : 1024;
        char **keys = calloc(cap, sizeof(char *));
        int32_t *ids = calloc(cap, sizeof(int32_t));
        if (!keys || !ids) {
            free(keys);
            free(ids);
            return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        }
        for (size_t i = 0; i < names.cap; i++) {
            if (!names.keys[i]) continue;
            size_t j = hash_str(names.keys[i]) & (cap - 1);
            while (keys[j]) j = (j + 1) & (cap - 1);
            keys[j] = names.keys[i];
            ids[j] = names.ids[i];
        }
        free(names.keys);
        free(names.ids);
        names.keys = keys;
        names.ids = ids;
        names.cap = cap;
    }
    size_t j = hash_str(key) & (names.cap - 1);
    while (names.keys[j]) j = (j + 1) & (names.cap - 1);
    names.keys[j] = key;
    names.ids[j] = id;
    names.used++;
    return TC_OK;
}

static int32_t names_find(const char *key) {
    if (!names.cap) return -1;
    size_t j = hash_str(key) & (names.cap - 1);
    while (names.keys[j]) {
        if (strcmp(names.keys[j], key) == 0) return names.ids[j];
        j = (j + 1) & (names.cap - 1);
    }
    return -1;
}

static int builtin_status = TC_OK;

static void add_builtin_names(void) {
    pthread_mutex_lock(&lock);
    for (int32_t i = 0; i < TC_NUM_BUILTIN_OPS && builtin_status == TC_OK; i++) {
        char *q = qualified(&tc_builtin_ops[i].schema);
        builtin_status = q ? names_insert(q, i) : tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    pthread_mutex_unlock(&lock);
}

int tc_op_registry_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, add_builtin_names);
    return builtin_status;
}

/* ---- records ---- */

struct tc_op *tc_op_at(int32_t id) {
    if (id >= 0 && id < TC_NUM_BUILTIN_OPS) return &tc_builtin_ops[id];
    if (id < 0 || id >= atomic_load(&n_ops)) return NULL;
    int32_t r = id - TC_NUM_BUILTIN_OPS;
    return atomic_load(&runtime_chunks[r / CHUNK][r % CHUNK]);
}

int32_t tc_op_count(void) { return atomic_load(&n_ops); }

const char *tc_op_kernel_name(int32_t id) {
    struct tc_op *op = tc_op_at(id);
    return op && op->kernel >= 0 ? tc_kernel_name(op->kernel) : NULL;
}

const tc_op_schema *tc_op_schema_of(int32_t id) {
    struct tc_op *op = tc_op_at(id);
    return op ? &op->schema : NULL;
}

int32_t tc_op_lookup(const char *name) {
    if (!name || tc_op_registry_init()) return -1;
    pthread_mutex_lock(&lock);
    int32_t id = names_find(name);
    pthread_mutex_unlock(&lock);
    return id;
}

/* Runtime ops run through the structured runner with a meta function of this adapter's making. */
static int runtime_meta(tc_opcall *c, tc_plan *p);

int32_t tc_op_define(const char *schema, tc_meta_fn meta) {
    if (tc_op_registry_init()) return TC_FAIL;
    struct tc_op *op = tc_schema_parse(schema);
    if (!op) return TC_FAIL;
    if (!strstr(op->schema.name, "::")) {
        tc_set_error(TC_ERR_VALUE, "an op defined at run time needs a namespace (\"myns::%s\")", op->schema.name);
        free(op);
        return TC_FAIL;
    }
    char *q = qualified(&op->schema);
    if (!q) {
        free(op);
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    int32_t kernel = tc_kernel_add_name(q);
    if (kernel < 0) {
        free(q);
        free(op);
        return TC_FAIL;
    }
    pthread_mutex_lock(&lock);
    int32_t id = -1;
    if (names_find(q) >= 0) {
        tc_set_error(TC_ERR_RUNTIME, "op %s is already defined", q);
    } else {
        id = atomic_load(&n_ops);
        int32_t r = id - TC_NUM_BUILTIN_OPS;
        if (r / CHUNK >= MAX_CHUNKS) {
            tc_set_error(TC_ERR_RUNTIME, "too many ops");
            id = -1;
        } else if (!runtime_chunks[r / CHUNK] &&
                   !(runtime_chunks[r / CHUNK] = calloc(CHUNK, sizeof(_Atomic(struct tc_op *))))) {
            tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
            id = -1;
        } else if (names_insert(q, id) != TC_OK) {
            id = -1;
        } else {
            op->id = id;
            op->base = id;
            op->kernel = kernel;
            op->user_meta = meta;
            op->meta = runtime_meta;
            op->impl = tc_structured_run;
            /* autograd: a node that raises until a backward is registered (tc_op_set_backward) */
            op->impl_autograd = tc_ag_op_impl;
            op->impl_forward_ad = tc_fw_op_impl;
            op->schema.flags |= TC_OPF_RUNTIME | TC_OPF_FUNCTION;
            atomic_store(&runtime_chunks[r / CHUNK][r % CHUNK], op);
            atomic_store(&n_ops, id + 1);
        }
    }
    pthread_mutex_unlock(&lock);
    if (id < 0) {
        free(q);
        free(op);
        return TC_FAIL;
    }
    return id;
}

/* Every tensor argument is an input; outputs as the op's meta says, or like the first tensor. */
static int runtime_meta(tc_opcall *c, tc_plan *p) {
    const tc_op_schema *s = &c->op->schema;
    tc_tensor *first = NULL;
    for (int32_t i = 0; i < s->n_args; i++) {
        const tc_value *v = &c->args[i];
        if (v->tag == TC_VALUE_TENSOR && !(s->args[i].flags & TC_ARG_WRITE)) {
            if (!first) first = v->v.tensor;
            if (tc_plan_input(p, v->v.tensor, -1)) return TC_FAIL;
        } else if (v->tag == TC_VALUE_TENSOR_LIST) {
            for (int64_t j = 0; j < v->v.tensors.len; j++)
                if (v->v.tensors.items[j] && tc_plan_input(p, v->v.tensors.items[j], -1)) return TC_FAIL;
        }
    }
    tc_tensor_spec specs[TC_MAX_RETURNS];
    for (int32_t i = 0; i < s->n_returns; i++) {
        specs[i].struct_size = sizeof(tc_tensor_spec);
        specs[i].ndim = first ? first->ndim : 0;
        specs[i].dtype = first ? first->dtype : tc_default_dtype();
        for (int32_t d = 0; first && d < first->ndim; d++) specs[i].sizes[d] = first->sizes[d];
    }
    if (c->op->user_meta) {
        tc_meta_args m = {.struct_size = sizeof m, .op = c->op->id, .n_args = s->n_args,
                          .n_outputs = s->n_returns, .args = c->args, .outputs = specs};
        tc_error_clear();
        if (c->op->user_meta(&m) != TC_OK) {
            if (!tc_last_error_kind()) tc_set_error(TC_ERR_RUNTIME, "%s: meta function failed", s->name);
            return TC_FAIL;
        }
    } else if (!first && s->n_returns) {
        return tc_set_error(TC_ERR_RUNTIME, "%s has no tensor argument to shape its result on; give it a meta "
                                            "function", s->name);
    }
    p->dtype = first ? first->dtype : specs[0].dtype;
    for (int32_t i = 0; i < s->n_returns; i++) {
        if (specs[i].ndim < 0 || specs[i].ndim > TC_MAX_DIMS || specs[i].dtype < 0 || specs[i].dtype >= TC_NUM_DTYPES)
            return tc_set_error(TC_ERR_RUNTIME, "%s: meta function gave output %d an invalid shape or dtype",
                                s->name, i);
        if (tc_plan_output(p, i, specs[i].ndim, specs[i].sizes, specs[i].dtype)) return TC_FAIL;
    }
    return TC_OK;
}

/* ---- per-backend boxed impls ---- */

int tc_op_impl(int32_t id, int32_t device_type, int32_t layout, tc_boxed_fn fn, void *ctx, const char *owner) {
    struct tc_op *op = tc_op_at(id);
    if (!op) return tc_set_error(TC_ERR_VALUE, "unknown op id %d", id);
    if (!fn || device_type < 0 || device_type >= TC_MAX_DEVICE_TYPES || layout < 0 || layout >= TC_MAX_LAYOUTS)
        return tc_set_error(TC_ERR_VALUE, "impl for %s: bad device type %d or layout %d", op->schema.name,
                            device_type, layout);
    int32_t backend = tc_backend_of(device_type, layout);
    tc_backend_impl *impl = calloc(1, sizeof *impl);
    if (!impl) return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    impl->fn = fn;
    impl->ctx = ctx;
    snprintf(impl->owner, sizeof impl->owner, "%s", owner ? owner : "?");
    pthread_mutex_lock(&lock);
    int rc = TC_OK;
    _Atomic(tc_backend_impl *) *slots = atomic_load(&op->overrides);
    if (!slots) {
        slots = calloc(TC_MAX_BACKENDS, sizeof *slots);
        if (slots) atomic_store(&op->overrides, slots);
    }
    if (!slots) {
        rc = tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    } else if (atomic_load(&slots[backend])) {
        char where[64];
        tc_backend_format(backend, where, sizeof where);
        rc = tc_set_error(TC_ERR_RUNTIME, "%s already has an implementation for %s, registered by %s; %s cannot "
                                          "register another", op->schema.text, where,
                          atomic_load(&slots[backend])->owner, impl->owner);
    } else {
        atomic_store(&slots[backend], impl);
        impl = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(impl);
    return rc;
}

/* ---- results ---- */

void tc_values_release(tc_value *values, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        if (values[i].tag == TC_VALUE_TENSOR) {
            tc_tensor_release(values[i].v.tensor);
        } else if (values[i].tag == TC_VALUE_TENSOR_LIST) {
            tc_tensor_vec v = {(tc_tensor **)values[i].v.tensors.items, values[i].v.tensors.len};
            tc_tensor_vec_release(&v);
        }
        values[i].tag = TC_VALUE_NONE;
    }
}

void tc_tensor_vec_release(tc_tensor_vec *v) {
    for (int64_t i = 0; v->items && i < v->len; i++) tc_tensor_release(v->items[i]);
    free(v->items);
    v->items = NULL;
    v->len = 0;
}
