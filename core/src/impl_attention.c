/*
 * _scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, need_attn_weights,
 * is_causal) -> (output, attention weights): PyTorch 1.13's math path, as other ops.
 *
 *   attn = softmax(query / sqrt(E) @ key^T + mask) [dropout], output = attn @ value
 *
 * A bool mask (True: may attend) becomes an additive one, 0 or -inf, as log(mask) in the query's
 * dtype; is_causal is the lower-triangular bool mask of i >= j. As in PyTorch 1.13's CPU path the
 * weights are returned whether or not they were asked for.
 */
#include "core_internal.h"
#include "nn_temps.h"

#include <math.h>

int tc_impl__scaled_dot_product_attention(tc_opcall *c) {
    tc_tensor *q = tc_arg_tensor(c, 0), *k_ = tc_arg_tensor(c, 1), *v = tc_arg_tensor(c, 2);
    tc_tensor *mask = tc_arg_none(c, 3) ? NULL : tc_arg_tensor(c, 3);
    double dropout_p = c->args[4].v.f;
    bool causal = tc_arg_bool(c, 6);
    if (q->ndim < 1 || k_->ndim < 2 || q->ndim < 2)
        return tc_set_error(TC_ERR_RUNTIME, "_scaled_dot_product_attention: query and key need at least 2 dimensions");
    if (causal && mask)
        return tc_set_error(TC_ERR_RUNTIME, "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                                            "is_causal=True");
    nn_temps k = NN_TEMPS_INIT;
    const int64_t E = q->sizes[q->ndim - 1], L = q->sizes[q->ndim - 2], S = k_->sizes[k_->ndim - 2];
    tc_tensor *scaled = NN_KEEP(&k, tc_mul_Tensor(q, NN_KEEP(&k, nn_number(1.0 / sqrt((double)E)))));
    if (causal) { /* arange(L)[:, None] >= arange(S)[None, :] */
        tc_device dev = q->device;
        tc_tensor *rows = NN_KEEP(&k, tc_arange(TC_SCALAR_OF_INT(L), TC_INT64, -1, &dev, NULL));
        tc_tensor *cols = NN_KEEP(&k, tc_arange(TC_SCALAR_OF_INT(S), TC_INT64, -1, &dev, NULL));
        mask = NN_KEEP(&k, tc_ge_Tensor(NN_KEEP(&k, tc_unsqueeze(rows, 1)), NN_KEEP(&k, tc_unsqueeze(cols, 0))));
    }
    if (mask && mask->dtype == TC_BOOL)
        mask = NN_KEEP(&k, tc_log(NN_KEEP(&k, tc_to_dtype(mask, q->dtype, false, false, -1))));
    tc_tensor *attn = NN_KEEP(&k, tc_matmul(scaled, NN_KEEP(&k, tc_transpose_int(k_, -2, -1))));
    if (mask) attn = NN_KEEP(&k, tc_add_Tensor(attn, mask, TC_SCALAR_OF_INT(1)));
    attn = NN_KEEP(&k, tc_softmax_int(attn, -1, -1));
    if (dropout_p > 0 && !k.failed) {
        int32_t op = tc_op_lookup("dropout");
        if (op < 0) {
            tc_set_error(TC_ERR_NOT_IMPLEMENTED, "attention dropout needs aten::dropout (the random numbers ops), which "
                                                 "this build does not have; use dropout_p=0");
            attn = nn_fail(&k);
        } else {
            tc_value args[3] = {{.tag = TC_VALUE_TENSOR, .v.tensor = attn}, {.tag = TC_VALUE_FLOAT, .v.f = dropout_p},
                                {.tag = TC_VALUE_BOOL, .v.b = true}};
            tc_value out;
            attn = tc_call_op(op, args, &out) ? nn_fail(&k) : NN_KEEP(&k, out.v.tensor);
        }
    }
    tc_tensor *output = NN_KEEP(&k, tc_matmul(attn, v));
    if (k.failed) {
        nn_temps_free(&k);
        return TC_FAIL;
    }
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = nn_take(&k, output)};
    c->outs[1] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = nn_take(&k, attn)};
    nn_temps_free(&k);
    return TC_OK;
}
