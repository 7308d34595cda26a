/*
 * Autograd for ops added at run time: a plugin (tc_core_api.register_backward) or a C program
 * (tc_op_set_backward) gives the op's backward as a function of its arguments, results and result
 * gradients. The op then records like a built-in one, keeping every tensor argument and result
 * while a gradient may be needed.
 */
#include "autograd_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int runtime_backward(tc_node *node, tc_op_node *o, tc_tensor *const *grads, tc_tensor **out) {
    const tc_op_schema *s = &o->op->schema;
    int32_t n_args = s->n_args, n_ret = s->n_returns;
    tc_value *args = calloc((size_t)n_args + 1, sizeof(tc_value));
    tc_value results[TC_MAX_RETURNS];
    tc_tensor **grad_inputs = calloc((size_t)n_args + 1, sizeof(tc_tensor *));
    int rc = TC_FAIL;
    memset(results, 0, sizeof results);
    if (!args || !grad_inputs) {
        tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    memcpy(args, o->args, sizeof(tc_value) * (size_t)n_args);
    for (int32_t i = 0; i < n_args; i++) {
        if (args[i].tag != TC_VALUE_TENSOR) continue;
        if (tc_ag_op_saved(node, o, i, &args[i].v.tensor)) goto done;
    }
    for (int32_t j = 0; j < n_ret; j++) {
        if (s->returns[j].type != TC_VALUE_TENSOR) continue;
        results[j].tag = TC_VALUE_TENSOR;
        if (tc_ag_op_saved(node, o, n_args + j, &results[j].v.tensor)) goto done;
    }
    rc = o->op->user_backward(o->op->user_backward_ctx, o->op->id, args, results, grads, grad_inputs);
    for (int32_t i = 0; i < n_args; i++) {
        int32_t e = o->edge_of_arg[i];
        if (rc == TC_OK && e >= 0 && tc_node_needs_input_grad(node, e)) {
            out[e] = grad_inputs[i];
        } else {
            tc_tensor_release(grad_inputs[i]);
        }
        grad_inputs[i] = NULL;
    }
done:
    for (int32_t i = 0; args && i < n_args; i++)
        if (args[i].tag == TC_VALUE_TENSOR) tc_tensor_release(args[i].v.tensor);
    for (int32_t j = 0; j < n_ret; j++)
        if (results[j].tag == TC_VALUE_TENSOR) tc_tensor_release(results[j].v.tensor);
    free(args);
    free(grad_inputs);
    return rc;
}

/* "myns::scale_add" -> "ScaleAddBackward0", written into buf. */
static char *node_name(const tc_op_schema *s) {
    const char *name = strstr(s->name, "::");
    name = name ? name + 2 : s->name;
    size_t n = strlen(name);
    char *buf = malloc(n + sizeof "Backward0");
    if (!buf) return NULL;
    size_t k = 0;
    bool upper = true;
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '_') {
            upper = true;
            continue;
        }
        buf[k++] = upper ? (char)toupper((unsigned char)name[i]) : name[i];
        upper = false;
    }
    memcpy(buf + k, "Backward0", sizeof "Backward0");
    return buf;
}

int tc_op_set_backward(int32_t id, tc_backward_kernel_fn fn, void *ctx) {
    struct tc_op *op = tc_op_at(id);
    if (!op) return tc_set_error(TC_ERR_VALUE, "register_backward: unknown op id %d", id);
    if (!fn) return tc_set_error(TC_ERR_VALUE, "register_backward: no function");
    if (!(op->schema.flags & TC_OPF_RUNTIME))
        return tc_set_error(TC_ERR_RUNTIME, "%s is a built-in op: its derivative formulas live in core/ops.table",
                            op->schema.name);
    if (op->grad) return tc_set_error(TC_ERR_RUNTIME, "%s has a backward already", op->schema.name);
    int32_t n_args = op->schema.n_args, n_ret = op->schema.n_returns;
    if (n_args > 64) return tc_set_error(TC_ERR_RUNTIME, "register_backward: %s has too many arguments", op->schema.name);
    /* one allocation for the info and its tables (ops are never freed, and neither is this) */
    size_t bytes = sizeof(tc_grad_info) + sizeof(uint64_t) * (size_t)(2 * n_args + n_ret + 1);
    tc_grad_info *info = calloc(1, bytes);
    char *name = node_name(&op->schema);
    if (!info || !name) {
        free(info);
        free(name);
        return tc_set_error(TC_ERR_OUT_OF_MEMORY, "out of memory");
    }
    uint64_t *saved = (uint64_t *)(info + 1), *metas = saved + n_args + n_ret, tensors = 0;
    for (int32_t i = 0; i < n_args; i++)
        if (op->schema.args[i].type == TC_VALUE_TENSOR) tensors |= (uint64_t)1 << i;
    for (int32_t i = 0; i < n_args + n_ret; i++) {
        bool tensor = i < n_args ? (tensors >> i & 1) : op->schema.returns[i - n_args].type == TC_VALUE_TENSOR;
        saved[i] = tensor ? tensors : 0;
    }
    (void)metas;
    info->name = name;
    info->backward = runtime_backward;
    info->diff_args = tensors;
    info->formula_args = tensors;
    info->saved_users = saved;
    info->meta_users = metas;
    for (int32_t j = 0; j < n_ret && j < 32; j++)
        if (op->schema.returns[j].type == TC_VALUE_TENSOR) info->diff_results |= 1u << j;
    op->user_backward = fn;
    op->user_backward_ctx = ctx;
    __atomic_store_n(&op->grad, info, __ATOMIC_RELEASE);
    return TC_OK;
}
