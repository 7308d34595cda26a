/*
 * autograd_internal.h - what the autograd files of the core share (prefix tc_ag_).
 *
 *   meta.c            a tensor's autograd record: requires_grad, grad, grad_fn, hooks
 *   node.c            nodes: edges, what each expects of its gradients, hooks, names
 *   saved.c           saved tensors, checked against in-place changes when unpacked
 *   accumulate_grad.c the node at every leaf: hooks, then .grad += gradient
 *   views.c           in-place ops on views: the base's history is rebased (CopySlices)
 *   op_autograd.c     the autograd step of every op of the table (and of runtime ops)
 *   engine.c          backward() and grad()
 *   modes.c           grad mode, inference mode, anomaly mode
 * The derivative formulas are generated from core/ops.table into tc_autograd_gen.c.
 */
#ifndef TC_AUTOGRAD_INTERNAL_H
#define TC_AUTOGRAD_INTERNAL_H

#include "core_internal.h"
#include "torch_core/tc_autograd.h"

#include <pthread.h>

typedef struct tc_edge {
    tc_node *node; /* owned; NULL: the input needs no gradient */
    uint32_t input_nr;
} tc_edge;

/* What a node expects of the gradient of one of its inputs (a forward result): the engine reduces
 * a broadcast gradient to these sizes and converts it to this dtype. */
#define TC_INPUT_META_INLINE 5
typedef struct tc_input_meta {
    int32_t ndim; /* -1: not set (a result that is not differentiable) */
    int32_t dtype;
    tc_device device;
    int64_t *sizes; /* inline_sizes, or malloc'ed beyond TC_INPUT_META_INLINE dims */
    int64_t inline_sizes[TC_INPUT_META_INLINE];
} tc_input_meta;

enum { TC_HOOK_PRE, TC_HOOK_POST, TC_HOOK_TENSOR, TC_HOOK_RETAIN };

typedef struct tc_hook {
    struct tc_hook *next;
    int64_t id;
    int32_t kind;
    int32_t input_nr;          /* TC_HOOK_TENSOR / RETAIN: which received gradient */
    tc_node_hook_fn node_fn;   /* PRE / POST */
    tc_tensor_hook_fn tensor_fn;
    void *ctx;
    void (*release)(void *ctx);
} tc_hook;

struct tc_node {
    atomic_int_fast64_t refcount;
    const tc_node_class *cls;
    const char *name; /* cls->name unless the node has its own (generated op nodes) */
    uint64_t seq;     /* creation order in this thread; the engine runs later nodes first */
    int32_t n_inputs;
    int32_t n_edges;
    tc_edge *edges;
    tc_input_meta *inputs;
    tc_hook *hooks;
    pthread_mutex_t *lock; /* AccumulateGrad only: concurrent backwards into one leaf */
    void *frontend;
    char *trace;          /* anomaly mode: where the forward op ran */
    atomic_bool released; /* saved tensors freed by a backward without retain_graph */
    void *state;
};

/* ---- nodes (node.c) ---- */
/* One allocation for the node, its edges, input metas and state (all zeroed). */
TC_INTERNAL tc_node *tc_ag_node_alloc(const tc_node_class *cls, int32_t n_inputs, int32_t n_edges,
                                      size_t state_size);
/* Records t's sizes, dtype and device in *m. */
TC_INTERNAL int tc_ag_meta_record(tc_input_meta *m, const tc_tensor *t);
TC_INTERNAL void tc_ag_meta_clear(tc_input_meta *m);
/* Edge i: t's gradient edge (its grad_fn or a leaf's AccumulateGrad), none when t is NULL or does
 * not require grad. */
TC_INTERNAL int tc_ag_node_set_edge(tc_node *n, int32_t i, tc_tensor *t);
TC_INTERNAL int64_t tc_ag_node_add_hook(tc_node *n, tc_hook *h);
TC_INTERNAL uint64_t tc_ag_next_sequence_nr(void);
/* Frees the node's saved tensors (backward without retain_graph). */
TC_INTERNAL void tc_ag_node_release_saved(tc_node *n);

/* ---- tensor records (meta.c) ---- */
typedef struct tc_grad_cell tc_grad_cell; /* .grad of a non-leaf that retains it, shared with its hook */

typedef struct tc_autograd_meta {
    tc_tensor *grad;        /* leaves: owned */
    tc_node *grad_fn;       /* owned; NULL for leaves */
    tc_node *accumulator;   /* leaves: their AccumulateGrad node (owned; it points back weakly) */
    uint32_t output_nr;
    bool requires_grad;     /* leaves */
    uint64_t view_version;  /* views: the version their grad_fn was made at */
    tc_grad_cell *retained; /* non-leaves after retain_grad() */
    int64_t retain_hook;    /* the id of its hook on grad_fn */
    tc_hook *hooks;         /* leaves: tensor hooks (non-leaves keep theirs on grad_fn) */
    tc_tensor *fw_grad;     /* forward AD: the tangent (owned), valid while fw_level is the live level */
    int64_t fw_level;
} tc_autograd_meta;

TC_INTERNAL tc_autograd_meta *tc_ag_meta(tc_tensor *t); /* created on first use; NULL when out of memory */
TC_INTERNAL void tc_ag_meta_free(tc_tensor *t);
/* The gradient edge of t: (grad_fn, output_nr), or a leaf's AccumulateGrad; node NULL when t does not
 * require grad. The node is a new reference. */
TC_INTERNAL int tc_ag_gradient_edge(tc_tensor *t, tc_edge *out);
/* Makes t result `nr` of node n (a new reference to n is taken). */
TC_INTERNAL int tc_ag_set_history(tc_tensor *t, tc_node *n, uint32_t nr);
/* Global lock for weak references (leaf <-> AccumulateGrad) and retained-grad cells. */
TC_INTERNAL void tc_ag_lock(void);
TC_INTERNAL void tc_ag_unlock(void);
/* The AccumulateGrad node of a leaf requiring grad (new reference), created on first use. */
TC_INTERNAL tc_node *tc_ag_accumulator(tc_tensor *leaf);
TC_INTERNAL tc_node *tc_ag_accumulate_grad_new(tc_tensor *leaf);
/* The leaf is going: its AccumulateGrad forgets it (gradients reaching it later are dropped). */
TC_INTERNAL void tc_ag_accumulate_grad_orphan(tc_node *n);
/* Runs t's leaf hooks on *grad (AccumulateGrad). */
TC_INTERNAL int tc_ag_run_tensor_hooks(tc_hook *hooks, int32_t input_nr, tc_tensor **grad);
TC_INTERNAL void tc_ag_hooks_free(tc_hook *h);
/* The retain_grad hook writes into a shared cell. */
TC_INTERNAL void tc_ag_cell_store(tc_grad_cell *cell, tc_tensor *grad);

/* ---- views (views.c) ---- */
/* PyTorch's errors for an in-place op on a leaf requiring grad, or a view of one. */
TC_INTERNAL int tc_ag_check_inplace(tc_tensor *t);
/* After an in-place op recorded as node n wrote t: t's history becomes n (a view's base gets a
 * CopySlices node around n, and the view's grad_fn is regenerated from it). */
TC_INTERNAL int tc_ag_rebase_history(tc_tensor *t, tc_node *n);

/* ---- saved tensors (saved.c) ---- */
struct tc_saved_tensor {
    tc_tensor *data;      /* the tensor (inputs), or an alias without history (outputs) */
    uint64_t version;
    bool defined;
    bool is_output;
    bool requires_grad;   /* outputs: whether unpacking gives the node as grad_fn */
    bool is_leaf;
    uint32_t output_nr;
    void *packed;         /* saved_tensors_hooks */
    tc_saved_hooks hooks;
};
TC_INTERNAL int tc_ag_save(tc_saved_tensor *s, tc_tensor *t, bool is_output);
TC_INTERNAL int tc_ag_unpack(tc_saved_tensor *s, tc_node *owner, tc_tensor **out);
TC_INTERNAL void tc_ag_saved_release(tc_saved_tensor *s);

/* ---- op nodes (op_autograd.c, tc_autograd_gen.c) ---- */

/* What a formula may read of a tensor argument without keeping the tensor: x.sizes, x.strides,
 * x.storage_offset, x.dtype, x.device. */
typedef struct tc_arg_meta {
    tc_input_meta m;
    int64_t offset;
    int64_t *strides; /* inline_strides, or malloc'ed beyond TC_INPUT_META_INLINE dims */
    int64_t inline_strides[TC_INPUT_META_INLINE];
} tc_arg_meta;

/* A Tensor[] / Tensor?[] argument kept for the formulas: each item saved, or only its metadata. */
typedef struct tc_saved_list {
    int64_t n;
    tc_saved_tensor *items;
} tc_saved_list;
typedef struct tc_meta_list {
    int64_t n;
    tc_arg_meta *items; /* m.ndim -1 for a None item */
} tc_meta_list;

/* What the generated backward of one op sees. */
typedef struct tc_op_node {
    struct tc_op *op;       /* the functional op */
    tc_value *args;         /* its non-tensor arguments (tensor slots NONE); lists copied */
    tc_saved_tensor *saved; /* n_args + n_returns slots; only those the formulas use are filled */
    int32_t *edge_of_arg;   /* first edge of each argument, -1 when it has none */
    int32_t *arg_edges;     /* how many edges each argument has (a Tensor[]'s length) */
    tc_saved_list *lists;   /* n_args: saved Tensor[] arguments (NULL when none is kept) */
    tc_meta_list *list_metas; /* n_args: metadata of Tensor[] arguments' items (NULL when none) */
    struct tc_arg_meta *metas; /* n_args: geometry, dtype and device of arguments whose formulas read only those */
} tc_op_node;

typedef int (*tc_backward_fn)(tc_node *node, tc_op_node *o, tc_tensor *const *grads, tc_tensor **out);

/* What the formulas of one op need (generated; an op's variants share their functional op's). An
 * argument or result "slot" is kept only when a formula reading it will run: saved_users[slot] and
 * meta_users[arg] are the sets of differentiable arguments whose formulas read it. */
struct tc_grad_info {
    const char *name;              /* "AddBackward0" */
    tc_backward_fn backward;       /* NULL: not implemented (the node raises) */
    uint64_t diff_args;            /* arguments that get edges */
    uint64_t formula_args;         /* those with a formula (the rest raise: not_implemented) */
    const uint64_t *saved_users;   /* n_args + n_returns: tensors kept */
    const uint64_t *meta_users;    /* n_args: only sizes, dtype and device kept */
    uint32_t diff_results;         /* results that get a grad_fn */
};
typedef struct tc_grad_info tc_grad_info;
/* Unpacks a saved argument or result for a formula (NULL with no error for a None argument). */
TC_INTERNAL int tc_ag_op_saved(tc_node *node, tc_op_node *o, int32_t slot, tc_tensor **out);
/* A saved Tensor[] argument, unpacked (items NULL for None); release with tc_tensor_vec_release. */
TC_INTERNAL int tc_ag_op_saved_list(tc_node *node, tc_op_node *o, int32_t arg, tc_tensor_vec *out);
/* Scratch memory of one backward call, freed at its end. */
typedef struct tc_ag_arena {
    void **blocks;
    int32_t n, cap;
} tc_ag_arena;
TC_INTERNAL void *tc_ag_arena_alloc(tc_ag_arena *a, size_t bytes);
TC_INTERNAL void tc_ag_arena_free(tc_ag_arena *a);
/* Each item's size along dim of a Tensor[] argument (from its saved metadata). */
TC_INTERNAL int tc_ag_op_list_sizes_at(tc_op_node *o, int32_t arg, int64_t dim, tc_ag_arena *a, tc_int_list *out);
/* Each item's number of dims of a Tensor[] argument (0 for a None item). */
TC_INTERNAL int tc_ag_op_list_dims(tc_op_node *o, int32_t arg, tc_ag_arena *a, tc_int_list *out);
/* Sizes and strides of argument i from its meta. */
TC_INTERNAL tc_int_list tc_ag_op_sizes(tc_op_node *o, int32_t arg);
TC_INTERNAL tc_int_list tc_ag_op_strides(tc_op_node *o, int32_t arg);

/* ---- engine helpers ---- */
/* Zeros of the sizes/dtype/device an input meta describes. */
TC_INTERNAL tc_tensor *tc_ag_zeros_for(const tc_input_meta *m);
/* sum_to: reduce a broadcast gradient to sizes. */
TC_INTERNAL tc_tensor *tc_ag_sum_to(tc_tensor *grad, int32_t ndim, const int64_t *sizes);

/* ---- forward AD (forward_ad.c) ---- */
/* The forward-AD step of ops (what the dispatcher runs at TC_KEY_FORWARD_AD). */
TC_INTERNAL int tc_fw_op_impl(tc_opcall *call);

/* ---- modes (modes.c) ---- */
TC_INTERNAL char *tc_ag_capture_trace(void); /* anomaly mode's traceback, or NULL */
TC_INTERNAL bool tc_ag_grad_mode(void);

#endif
