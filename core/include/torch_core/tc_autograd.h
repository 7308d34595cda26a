/*
 * tc_autograd.h - the tape: what libtorch_core records while ops run, and the engine that runs it
 * backwards. For front ends (torch._C) and C programs; conventions as in tc_core.h.
 *
 * A tensor that requires grad carries TC_KEY_AUTOGRAD, so every op with such an argument runs its
 * autograd step: the op computes below that key, then a node (tc_node) recording what backward
 * needs (saved tensors with the version they had, non-tensor arguments) becomes the results'
 * grad_fn, with one edge per differentiable input to that input's own grad_fn (or to the
 * AccumulateGrad node of a leaf). Derivative formulas live beside each op in core/ops.table and
 * are written in terms of ops, so running backward with grad mode on records a graph of its own
 * (create_graph).
 *
 * Nodes are reference counted: a tensor owns its grad_fn, a node owns the nodes its edges reach.
 * Nothing points back up the graph (a node saves its own outputs without their grad_fn), so a
 * graph is freed when its last result is.
 */
#ifndef TC_AUTOGRAD_H
#define TC_AUTOGRAD_H

#include "tc_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tc_node tc_node;

/* ---- modes (per thread) ---------------------------------------------------------------------- */

/* Grad mode: whether ops record (torch.no_grad turns it off). */
TC_EXPORT bool tc_grad_enabled(void);
TC_EXPORT void tc_set_grad_enabled(bool enabled);
/* Inference mode: grad mode off, and tensors made meanwhile are inference tensors, which autograd
 * refuses to save and which may not be written in place outside inference mode. */
TC_EXPORT bool tc_inference_mode_enabled(void);
TC_EXPORT void tc_set_inference_mode(bool enabled);
TC_EXPORT bool tc_tensor_is_inference(const tc_tensor *t);
/* Anomaly mode (process-wide, as in PyTorch): nodes remember the forward traceback the front end
 * gives (tc_set_anomaly_trace_fn), and backward raises when a node returns NaN. */
TC_EXPORT void tc_set_anomaly_enabled(bool enabled, bool check_nan);
TC_EXPORT bool tc_anomaly_enabled(void);
TC_EXPORT bool tc_anomaly_check_nan(void);
/* The front end's "where am I" for anomaly mode: a malloc'ed string (NULL when none). */
typedef char *(*tc_trace_fn)(void);
TC_EXPORT void tc_set_anomaly_trace_fn(tc_trace_fn fn);

/* ---- tensors --------------------------------------------------------------------------------- */

TC_EXPORT bool tc_requires_grad(const tc_tensor *t);
/* requires_grad_(): leaves only; floating and complex dtypes only (PyTorch's RuntimeErrors). */
TC_EXPORT int tc_set_requires_grad(tc_tensor *t, bool requires_grad);
/* A leaf is a tensor without grad_fn (tensors that do not require grad are leaves too). */
TC_EXPORT bool tc_is_leaf(const tc_tensor *t);
/* The node that made t, or NULL (no error) for leaves; new reference. A view whose base was
 * changed in place since gets its grad_fn regenerated from the base (AsStridedBackward0). */
TC_EXPORT tc_node *tc_tensor_grad_fn(tc_tensor *t);
TC_EXPORT uint32_t tc_tensor_output_nr(const tc_tensor *t);
/* .grad: a new reference, or NULL (no error) when there is none. */
TC_EXPORT tc_tensor *tc_tensor_grad(const tc_tensor *t);
/* Sets .grad (NULL clears it); PyTorch's errors for a grad of another shape, dtype or device. */
TC_EXPORT int tc_tensor_set_grad(tc_tensor *t, tc_tensor *grad);
TC_EXPORT int tc_tensor_retain_grad(tc_tensor *t);
TC_EXPORT bool tc_tensor_retains_grad(const tc_tensor *t);
/* detach(): shares t's storage (and version counter), no history, requires_grad False. */
TC_EXPORT tc_tensor *tc_tensor_detach(tc_tensor *t);
/* detach_(): drops t's history in place (refused for views, as in PyTorch). */
TC_EXPORT int tc_tensor_detach_(tc_tensor *t);
/* The tensor whose storage t views (the root of a chain of views), or NULL; new reference. */
TC_EXPORT tc_tensor *tc_tensor_base(const tc_tensor *t);
/* x.data = y: t takes y's storage, geometry and dtype, keeping its own autograd state. */
TC_EXPORT int tc_tensor_set_data(tc_tensor *t, tc_tensor *data);

/* Tensor hooks run on the gradient computed for t before it is used (or, for leaves, accumulated);
 * a hook may replace *grad (releasing the old reference). Returns a handle id for removal, or
 * TC_FAIL. `release` (may be NULL) is called on ctx when the hook goes. */
typedef int (*tc_tensor_hook_fn)(void *ctx, tc_tensor **grad);
TC_EXPORT int64_t tc_tensor_add_hook(tc_tensor *t, tc_tensor_hook_fn fn, void *ctx, void (*release)(void *ctx));
TC_EXPORT void tc_tensor_remove_hook(tc_tensor *t, int64_t id);

/* ---- nodes ----------------------------------------------------------------------------------- */

TC_EXPORT void tc_node_retain(tc_node *n);
TC_EXPORT void tc_node_release(tc_node *n);
TC_EXPORT const char *tc_node_name(const tc_node *n);
/* Gradients it receives (the forward op's results) and produces (its edges). */
TC_EXPORT int32_t tc_node_num_inputs(const tc_node *n);
TC_EXPORT int32_t tc_node_num_edges(const tc_node *n);
/* Edge i: the node (borrowed; NULL for an input that needs no gradient) and its input number. */
TC_EXPORT tc_node *tc_node_edge(const tc_node *n, int32_t i, uint32_t *input_nr);
/* The leaf of an AccumulateGrad node (new reference), NULL for other nodes. */
TC_EXPORT tc_tensor *tc_node_variable(const tc_node *n);
TC_EXPORT uint64_t tc_node_sequence_nr(const tc_node *n);
/* The forward traceback anomaly mode recorded, or NULL. */
TC_EXPORT const char *tc_node_trace(const tc_node *n);
/* A slot for the front end's object of this node (torch._C keeps the Python object here; weak). */
TC_EXPORT void *tc_node_frontend(const tc_node *n);
TC_EXPORT void tc_node_set_frontend(tc_node *n, void *obj);

/* Node hooks. A pre-hook sees the gradients the node receives (n = inputs) and may replace them; a
 * post-hook sees the gradients it produced (`grads`, n = edges, replaceable) and those it received. */
typedef int (*tc_node_hook_fn)(void *ctx, tc_tensor **grads, int32_t n, tc_tensor *const *received,
                               int32_t n_received);
TC_EXPORT int64_t tc_node_add_prehook(tc_node *n, tc_node_hook_fn fn, void *ctx, void (*release)(void *ctx));
TC_EXPORT int64_t tc_node_add_posthook(tc_node *n, tc_node_hook_fn fn, void *ctx, void (*release)(void *ctx));
TC_EXPORT void tc_node_remove_hook(tc_node *n, int64_t id);

/* Nodes of one's own (custom Functions, extension ops). `apply` receives the node's n_inputs
 * gradients (borrowed; NULL for an undefined one unless the class asks for zeros) and writes
 * n_edges new references (NULL: no gradient) into `out`; TC_OK or TC_FAIL with the error set.
 * `release_saved` drops what backward needs (after a backward without retain_graph); `destroy`
 * frees the rest. The state is `state_size` zeroed bytes owned by the node. */
#define TC_NODE_MATERIALIZE_GRADS 1u /* undefined received gradients arrive as zeros */
#define TC_NODE_APPLY_UNDEFINED 2u   /* run even when every received gradient is undefined */
typedef struct tc_node_class {
    const char *name;
    int (*apply)(tc_node *n, void *state, tc_tensor *const *grads, tc_tensor **out);
    void (*release_saved)(tc_node *n, void *state);
    void (*destroy)(tc_node *n, void *state);
    uint32_t flags;
} tc_node_class;
/* A node of `cls` with n_inputs received gradients and one edge per entry of `inputs` (a NULL
 * entry, or one that does not require grad, gets no edge). */
TC_EXPORT tc_node *tc_node_create(const tc_node_class *cls, int32_t n_inputs, tc_tensor *const *inputs,
                                  int32_t n_edges, size_t state_size);
TC_EXPORT void *tc_node_state(tc_node *n);
/* Gives the node a name of its own (the class name otherwise); `name` must outlive the node. */
TC_EXPORT void tc_node_set_name(tc_node *n, const char *name);
TC_EXPORT bool tc_node_needs_input_grad(const tc_node *n, int32_t edge);
/* Makes `output` result number `nr` of node n (sets its grad_fn and what n expects of its
 * gradient). For a tensor the forward wrote in place (`inplace`), its previous history becomes an
 * input of n and a view's base is rebased, as the built-in in-place ops do. */
TC_EXPORT int tc_node_set_output(tc_node *n, int32_t nr, tc_tensor *output, bool inplace);
/* Saved tensors for nodes of one's own: checked against in-place changes when unpacked, released
 * with the graph. An output of the node itself is saved with is_output (no reference cycle). */
typedef struct tc_saved_tensor tc_saved_tensor;
TC_EXPORT tc_saved_tensor *tc_saved_tensor_new(tc_tensor *t, bool is_output);
/* The saved tensor (new reference; NULL with no error when it saved None), or NULL with
 * PyTorch's error when it was freed or modified. */
TC_EXPORT int tc_saved_tensor_unpack(tc_saved_tensor *s, tc_node *owner, tc_tensor **out);
TC_EXPORT void tc_saved_tensor_free(tc_saved_tensor *s);

/* Saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks), per thread: `pack` turns a tensor
 * being saved into an opaque object, `unpack` back into a tensor (new reference), `drop` releases
 * the object. NULL pack: none installed. */
typedef struct tc_saved_hooks {
    void *(*pack)(void *ctx, tc_tensor *t);
    tc_tensor *(*unpack)(void *ctx, void *packed);
    void (*drop)(void *packed);
    void *ctx;
} tc_saved_hooks;
TC_EXPORT tc_saved_hooks tc_saved_hooks_current(void);
TC_EXPORT void tc_set_saved_hooks(tc_saved_hooks hooks);

/* ---- forward-mode AD -------------------------------------------------------------------------- */

/* One level at a time (as PyTorch 1.13): entering while one is live is an error. Tangents set at a
 * level are gone once it is exited. */
TC_EXPORT int64_t tc_fw_enter_level(void);
TC_EXPORT int tc_fw_exit_level(int64_t level);
/* A dual tensor: an alias of primal whose tangent is `tangent` (same sizes) at `level`. */
TC_EXPORT tc_tensor *tc_fw_make_dual(tc_tensor *primal, tc_tensor *tangent, int64_t level);
/* t's tangent at level (new reference), or NULL (no error) when it has none. */
TC_EXPORT tc_tensor *tc_fw_tangent(const tc_tensor *t, int64_t level);
/* An alias of t without its tangent. */
TC_EXPORT tc_tensor *tc_fw_primal(tc_tensor *t);

/* ---- ops ------------------------------------------------------------------------------------- */

/* How an op takes part in autograd. */
enum {
    TC_OP_GRAD_NONE = 0,      /* nothing to record: no tensor in or out, or an out= variant (refuses) */
    TC_OP_GRAD_FORMULA = 1,   /* derivative formulas (core/ops.table) */
    TC_OP_GRAD_COMPOSITE = 2, /* its parts record themselves */
    TC_OP_GRAD_MISSING = 3    /* records a node that raises: no formula */
};
/* Gives a runtime op its backward (tc_abi.h, tc_backward_kernel_fn): what tc_core_api's
 * register_backward does. RuntimeError for built-in ops (their formulas are in ops.table) and for an
 * op that has one already. */
TC_EXPORT int tc_op_set_backward(int32_t op, tc_backward_kernel_fn fn, void *ctx);
/* The kind, and for formulas the node's name and the arguments that have a formula (bit i: argument
 * i; those declared not_implemented excluded). */
TC_EXPORT int tc_op_autograd(int32_t op, const char **node_name, uint64_t *args_with_formula);

/* ---- the engine ------------------------------------------------------------------------------ */

/* backward(): gradients of `outputs` (grad_outputs entries may be NULL for 1-element outputs:
 * ones) flow back through the graph and accumulate into the .grad of the leaves (only those of
 * `inputs` when n_inputs > 0). keep_graph keeps saved tensors for another backward; create_graph
 * records the backward pass. */
TC_EXPORT int tc_backward(int32_t n_outputs, tc_tensor *const *outputs, tc_tensor *const *grad_outputs,
                          bool keep_graph, bool create_graph, int32_t n_inputs, tc_tensor *const *inputs);
/* autograd.grad(): the gradients of outputs with respect to inputs, written to results (new
 * references; NULL for an unused input when allow_unused). */
TC_EXPORT int tc_grad(int32_t n_outputs, tc_tensor *const *outputs, tc_tensor *const *grad_outputs,
                      int32_t n_inputs, tc_tensor *const *inputs, bool keep_graph, bool create_graph,
                      bool allow_unused, tc_tensor **results);

#ifdef __cplusplus
}
#endif
#endif /* TC_AUTOGRAD_H */
