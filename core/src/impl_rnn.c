/*
 * Recurrent layers: the cells (rnn_tanh_cell, rnn_relu_cell, lstm_cell, gru_cell) as PyTorch
 * composes them, and the full-sequence ops (lstm, gru, rnn_tanh, rnn_relu: layers, directions,
 * batch_first, dropout between layers).
 *
 * A layer's direction runs either as the fused LSTM layer (_lstm_layer: float32/float64 LSTMs, one
 * kernel over the sequence with its own backward) or step by step through the cell ops (GRU and
 * the simple RNNs, and other dtypes), whose parts record themselves. The outputs of the steps, the
 * two directions and the final states of every layer are gathered by copying into slices of one
 * result, so autograd sees the copies (CopySlices) and nothing else.
 *
 * _lstm_layer_backward is the fused layer's backward: its kernel (_lstm_layer_backward_data) when
 * nothing records, and, for double backward and forward-mode AD (grad mode on, an argument that
 * requires grad), the gradient of the layer recomputed step by step with create_graph, which is a
 * function of ops and so differentiable again.
 */
#include "core_internal.h"
#include "nn_temps.h"
#include "torch_core/tc_autograd.h"

#include <stdio.h>
#include <string.h>

#define ONE TC_SCALAR_OF_INT(1)
#define MUL(a, b) NN_KEEP(&k, tc_mul_Tensor((a), (b)))
#define ADD(a, b) NN_KEEP(&k, tc_add_Tensor((a), (b), ONE))
#define SUB(a, b) NN_KEEP(&k, tc_sub_Tensor((a), (b), ONE))

enum { MODE_LSTM, MODE_GRU, MODE_TANH, MODE_RELU };

static tc_tensor *optional_arg(const tc_opcall *c, int i) { return tc_arg_none(c, i) ? NULL : tc_arg_tensor(c, i); }

/* ---- cells ---- */

/* x @ w^T + b */
static tc_tensor *linear(nn_temps *kp, tc_tensor *x, tc_tensor *w, tc_tensor *b) {
    nn_temps k = *kp;
    tc_tensor *r = NN_KEEP(&k, tc_mm(x, NN_KEEP(&k, tc_t(w))));
    if (b) r = ADD(r, b);
    *kp = k;
    return r;
}

/* Chunk i of n equal chunks of t along dim 1. */
static tc_tensor *chunk(nn_temps *kp, tc_tensor *t, int64_t n, int64_t i) {
    nn_temps k = *kp;
    int64_t size = k.failed ? 0 : t->sizes[1] / n;
    tc_tensor *r = NN_KEEP(&k, tc_slice_Tensor(t, 1, TC_SOME_INT(i * size), TC_SOME_INT((i + 1) * size), 1));
    *kp = k;
    return r;
}

/* PyTorch's checks of a cell's input and hidden state. */
static int check_cell(const tc_tensor *input, const tc_tensor *h, const tc_tensor *w_ih, const tc_tensor *w_hh,
                      const char *label) {
    if (input->ndim != 2 || w_ih->ndim != 2 || w_hh->ndim != 2 || h->ndim != 2)
        return tc_set_error(TC_ERR_RUNTIME, "rnn cells expect 2-D input, hidden state and weights");
    if (input->sizes[1] != w_ih->sizes[1])
        return tc_set_error(TC_ERR_RUNTIME, "input has inconsistent input_size: got %lld expected %lld",
                            (long long)input->sizes[1], (long long)w_ih->sizes[1]);
    if (input->sizes[0] != h->sizes[0])
        return tc_set_error(TC_ERR_RUNTIME, "Input batch size %lld doesn't match hidden%s batch size %lld",
                            (long long)input->sizes[0], label, (long long)h->sizes[0]);
    if (h->sizes[1] != w_hh->sizes[1])
        return tc_set_error(TC_ERR_RUNTIME, "hidden%s has inconsistent hidden_size: got %lld, expected %lld", label,
                            (long long)h->sizes[1], (long long)w_hh->sizes[1]);
    return TC_OK;
}

/* One step of a cell of `mode` (c, cy: LSTM only); results are temporaries of k. */
static int cell(nn_temps *kp, int mode, tc_tensor *x, tc_tensor *h, tc_tensor *c, tc_tensor *w_ih, tc_tensor *w_hh,
                tc_tensor *b_ih, tc_tensor *b_hh, tc_tensor **hy, tc_tensor **cy) {
    nn_temps k = *kp;
    if (mode == MODE_LSTM) {
        tc_tensor *g = ADD(linear(&k, h, w_hh, b_hh), linear(&k, x, w_ih, b_ih));
        tc_tensor *i = NN_KEEP(&k, tc_sigmoid(chunk(&k, g, 4, 0)));
        tc_tensor *f = NN_KEEP(&k, tc_sigmoid(chunk(&k, g, 4, 1)));
        tc_tensor *cc = NN_KEEP(&k, tc_tanh(chunk(&k, g, 4, 2)));
        tc_tensor *o = NN_KEEP(&k, tc_sigmoid(chunk(&k, g, 4, 3)));
        *cy = ADD(MUL(f, c), MUL(i, cc));
        *hy = MUL(o, NN_KEEP(&k, tc_tanh(*cy)));
    } else if (mode == MODE_GRU) {
        tc_tensor *ig = linear(&k, x, w_ih, b_ih), *hg = linear(&k, h, w_hh, b_hh);
        tc_tensor *r = NN_KEEP(&k, tc_sigmoid(ADD(chunk(&k, hg, 3, 0), chunk(&k, ig, 3, 0))));
        tc_tensor *z = NN_KEEP(&k, tc_sigmoid(ADD(chunk(&k, hg, 3, 1), chunk(&k, ig, 3, 1))));
        tc_tensor *n = NN_KEEP(&k, tc_tanh(ADD(chunk(&k, ig, 3, 2), MUL(chunk(&k, hg, 3, 2), r))));
        *hy = ADD(MUL(SUB(h, n), z), n);
    } else {
        tc_tensor *pre = ADD(linear(&k, h, w_hh, b_hh), linear(&k, x, w_ih, b_ih));
        *hy = NN_KEEP(&k, mode == MODE_TANH ? tc_tanh(pre) : tc_relu(pre));
    }
    *kp = k;
    return k.failed ? TC_FAIL : TC_OK;
}

static int simple_cell(tc_opcall *c, int mode) {
    tc_tensor *x = tc_arg_tensor(c, 0), *h = tc_arg_tensor(c, 1), *w_ih = tc_arg_tensor(c, 2), *w_hh = tc_arg_tensor(c, 3);
    if (check_cell(x, h, w_ih, w_hh, "")) return TC_FAIL;
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *hy = NULL;
    cell(&k, mode, x, h, NULL, w_ih, w_hh, optional_arg(c, 4), optional_arg(c, 5), &hy, NULL);
    return nn_temps_return(&k, c, hy);
}

int tc_impl_rnn_tanh_cell(tc_opcall *c) { return simple_cell(c, MODE_TANH); }
int tc_impl_rnn_relu_cell(tc_opcall *c) { return simple_cell(c, MODE_RELU); }
int tc_impl_gru_cell(tc_opcall *c) { return simple_cell(c, MODE_GRU); }

/* lstm_cell(input, hx, w_ih, w_hh, b_ih, b_hh) -> (hy, cy) */
int tc_impl_lstm_cell(tc_opcall *c) {
    tc_tensor *x = tc_arg_tensor(c, 0), *w_ih = tc_arg_tensor(c, 2), *w_hh = tc_arg_tensor(c, 3);
    tc_tensor_list hx = {c->args[1].v.tensors.items, c->args[1].v.tensors.len};
    if (hx.len != 2) return tc_set_error(TC_ERR_RUNTIME, "lstm_cell expects two hidden states");
    if (check_cell(x, hx.items[0], w_ih, w_hh, "[0]") || check_cell(x, hx.items[1], w_ih, w_hh, "[1]")) return TC_FAIL;
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *hy = NULL, *cy = NULL;
    if (cell(&k, MODE_LSTM, x, hx.items[0], hx.items[1], w_ih, w_hh, optional_arg(c, 4), optional_arg(c, 5), &hy, &cy)) {
        nn_temps_free(&k);
        return TC_FAIL;
    }
    c->outs[0] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = nn_take(&k, hy)};
    c->outs[1] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = nn_take(&k, cy)};
    nn_temps_free(&k);
    return TC_OK;
}

/* ---- one direction of one layer ---- */

/* dst <- src (autograd sees the copy into dst's view) */
static int copy_into(tc_tensor *dst_view, tc_tensor *src) {
    tc_tensor *r = dst_view && src ? tc_copy_(dst_view, src, false) : NULL;
    tc_tensor_release(r);
    return r ? TC_OK : TC_FAIL;
}

/* The layer step by step through the cells: out [T, B, H] and the final states. */
static int layer_by_cells(nn_temps *kp, int mode, tc_tensor *x, tc_tensor *h0, tc_tensor *c0, tc_tensor *w_ih,
                          tc_tensor *w_hh, tc_tensor *b_ih, tc_tensor *b_hh, bool reverse, tc_tensor **out,
                          tc_tensor **hy, tc_tensor **cy) {
    nn_temps k = *kp;
    const int64_t T = x->sizes[0], sizes[3] = {T, h0->sizes[0], h0->sizes[1]};
    tc_tensor *o = NN_KEEP(&k, tc_empty(3, sizes, h0->dtype, h0->device));
    tc_tensor *h = h0, *cc = c0;
    for (int64_t s = 0; s < T && !k.failed; s++) {
        const int64_t t = reverse ? T - 1 - s : s;
        tc_tensor *xt = NN_KEEP(&k, tc_select_int(x, 0, t)), *nh = NULL, *nc = NULL;
        if (k.failed || cell(&k, mode, xt, h, cc, w_ih, w_hh, b_ih, b_hh, &nh, &nc)) break;
        if (copy_into(NN_KEEP(&k, tc_select_int(o, 0, t)), nh)) k.failed = true;
        h = nh;
        cc = nc;
    }
    *out = o;
    *hy = h;
    if (cy) *cy = cc;
    *kp = k;
    return k.failed ? TC_FAIL : TC_OK;
}

/* The fused LSTM layer (float32/float64). */
static int fused_lstm(nn_temps *kp, tc_tensor *x, tc_tensor *h0, tc_tensor *c0, tc_tensor *w_ih, tc_tensor *w_hh,
                      tc_tensor *b_ih, tc_tensor *b_hh, bool reverse, tc_tensor **out, tc_tensor **hy, tc_tensor **cy) {
    nn_temps k = *kp;
    tc_tensor *ws = NULL;
    *out = *hy = *cy = NULL;
    if (!k.failed && tc__lstm_layer(x, h0, c0, w_ih, w_hh, b_ih, b_hh, reverse, out, hy, cy, &ws) == TC_OK) {
        NN_KEEP(&k, *out);
        NN_KEEP(&k, *hy);
        NN_KEEP(&k, *cy);
        NN_KEEP(&k, ws);
    } else {
        k.failed = true;
    }
    *kp = k;
    return k.failed ? TC_FAIL : TC_OK;
}

static bool fusable(int mode, tc_tensor *const *ts, int n) {
    if (mode != MODE_LSTM) return false;
    for (int i = 0; i < n; i++)
        if (ts[i] && ((ts[i]->dtype != TC_FLOAT32 && ts[i]->dtype != TC_FLOAT64) || ts[i]->dtype != ts[0]->dtype))
            return false;
    return true;
}

/* ---- the full-sequence ops ---- */

/* dropout(y, p, train) through the op of that name, which the random numbers family provides. */
static tc_tensor *dropout(tc_tensor *y, double p, bool train) {
    int32_t op = tc_op_lookup("dropout");
    if (op < 0) {
        tc_set_error(TC_ERR_NOT_IMPLEMENTED, "dropout between recurrent layers needs aten::dropout (the random numbers "
                                             "ops), which this build does not have; use dropout=0 or eval mode");
        return NULL;
    }
    tc_value args[3] = {{.tag = TC_VALUE_TENSOR, .v.tensor = y}, {.tag = TC_VALUE_FLOAT, .v.f = p},
                        {.tag = TC_VALUE_BOOL, .v.b = train}};
    tc_value out;
    if (tc_call_op(op, args, &out)) return NULL;
    return out.v.tensor;
}

typedef struct rnn_config {
    int mode;
    bool has_biases, train, bidirectional, batch_first;
    int64_t layers;
    double dropout;
} rnn_config;

/* input [T, B, I] (or [B, T, I]), hidden states [L*D, B, H] (h, and c for LSTM), params per layer
 * and direction: w_ih, w_hh[, b_ih, b_hh]. Results: output, h_n[, c_n]. */
static int run_rnn(tc_opcall *c, const rnn_config *cfg, tc_tensor *input, tc_tensor *hx, tc_tensor *cx,
                   tc_tensor_list params) {
    const int64_t D = cfg->bidirectional ? 2 : 1, per = cfg->has_biases ? 4 : 2;
    if (cfg->layers < 1) return tc_set_error(TC_ERR_RUNTIME, "num_layers must be at least 1");
    if (params.len != cfg->layers * D * per) return tc_set_error(TC_ERR_RUNTIME, "got an incorrect number of RNN parameters");
    if (input->ndim != 3) return tc_set_error(TC_ERR_RUNTIME, "input must have 3 dimensions, got %d", input->ndim);
    if (input->sizes[cfg->batch_first ? 1 : 0] == 0) /* no step would run, leaving h_n unwritten */
        return tc_set_error(TC_ERR_RUNTIME, "Expected sequence length to be larger than 0 in RNN");
    const tc_tensor *states[2] = {hx, cx};
    for (int s = 0; s < (cfg->mode == MODE_LSTM ? 2 : 1); s++) {
        const tc_tensor *st = states[s];
        int64_t batch = input->sizes[cfg->batch_first ? 0 : 1];
        if (st->ndim != 3 || st->sizes[0] != cfg->layers * D || st->sizes[1] != batch)
            return tc_set_error(TC_ERR_RUNTIME, "Expected hidden size (%lld, %lld, *), got a tensor of %d dims",
                                (long long)(cfg->layers * D), (long long)batch, st->ndim);
    }
    for (int64_t i = 0; i < params.len; i++)
        if (params.items[i]->dtype != input->dtype || params.items[i]->device.type != input->device.type)
            return tc_set_error(TC_ERR_RUNTIME, "Expected all parameters to have the input's dtype and device");
    if (input->dtype == TC_FLOAT16 && cfg->mode == MODE_LSTM)
        return tc_set_error(TC_ERR_RUNTIME, "\"addmm_impl_cpu_\" not implemented for 'Half'");
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *x = cfg->batch_first ? NN_KEEP(&k, tc_transpose_int(input, 0, 1)) : input;
    tc_tensor *h_all = NN_KEEP(&k, tc_empty(3, hx->sizes, hx->dtype, hx->device));
    tc_tensor *c_all = cx ? NN_KEEP(&k, tc_empty(3, cx->sizes, cx->dtype, cx->device)) : NULL;
    for (int64_t l = 0; l < cfg->layers && !k.failed; l++) {
        tc_tensor *outs[2] = {NULL, NULL};
        for (int64_t d = 0; d < D && !k.failed; d++) {
            const int64_t idx = l * D + d;
            tc_tensor *const *w = params.items + idx * per;
            tc_tensor *b_ih = cfg->has_biases ? w[2] : NULL, *b_hh = cfg->has_biases ? w[3] : NULL;
            tc_tensor *h0 = NN_KEEP(&k, tc_select_int(hx, 0, idx));
            tc_tensor *c0 = cx ? NN_KEEP(&k, tc_select_int(cx, 0, idx)) : NULL;
            tc_tensor *hy = NULL, *cy = NULL, *ts[7] = {x, h0, c0, w[0], w[1], b_ih, b_hh};
            if (k.failed) break;
            if (fusable(cfg->mode, ts, 7)) fused_lstm(&k, x, h0, c0, w[0], w[1], b_ih, b_hh, d == 1, &outs[d], &hy, &cy);
            else layer_by_cells(&k, cfg->mode, x, h0, c0, w[0], w[1], b_ih, b_hh, d == 1, &outs[d], &hy, &cy);
            if (k.failed || copy_into(NN_KEEP(&k, tc_select_int(h_all, 0, idx)), hy) ||
                (cx && copy_into(NN_KEEP(&k, tc_select_int(c_all, 0, idx)), cy)))
                k.failed = true;
        }
        tc_tensor *y = outs[0];
        if (D == 2 && !k.failed) {
            const int64_t H = outs[0]->sizes[2], sizes[3] = {outs[0]->sizes[0], outs[0]->sizes[1], 2 * H};
            y = NN_KEEP(&k, tc_empty(3, sizes, outs[0]->dtype, outs[0]->device));
            for (int64_t d = 0; d < 2 && !k.failed; d++)
                if (copy_into(NN_KEEP(&k, tc_slice_Tensor(y, 2, TC_SOME_INT(d * H), TC_SOME_INT((d + 1) * H), 1)),
                              outs[d]))
                    k.failed = true;
        }
        if (cfg->train && cfg->dropout > 0 && l < cfg->layers - 1) y = NN_KEEP(&k, dropout(y, cfg->dropout, cfg->train));
        x = y;
    }
    tc_tensor *output = cfg->batch_first ? NN_KEEP(&k, tc_transpose_int(x, 0, 1)) : x;
    if (k.failed) {
        nn_temps_free(&k);
        return TC_FAIL;
    }
    tc_tensor *results[3] = {output, h_all, c_all};
    for (int i = 0; i < (cx ? 3 : 2); i++) c->outs[i] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = nn_take(&k, results[i])};
    nn_temps_free(&k);
    return TC_OK;
}

/* lstm.input(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first) */
int tc_impl_lstm_input(tc_opcall *c) {
    tc_tensor_list hx = {c->args[1].v.tensors.items, c->args[1].v.tensors.len};
    if (hx.len != 2) return tc_set_error(TC_ERR_RUNTIME, "lstm expects two hidden states");
    rnn_config cfg = {MODE_LSTM, tc_arg_bool(c, 3), tc_arg_bool(c, 6), tc_arg_bool(c, 7), tc_arg_bool(c, 8),
                      tc_arg_int(c, 4), c->args[5].v.f};
    return run_rnn(c, &cfg, tc_arg_tensor(c, 0), hx.items[0], hx.items[1],
                   (tc_tensor_list){c->args[2].v.tensors.items, c->args[2].v.tensors.len});
}

/* gru.input / rnn_tanh.input / rnn_relu.input(input, hx, params, has_biases, num_layers, dropout,
 * train, bidirectional, batch_first) */
static int simple_rnn(tc_opcall *c, int mode) {
    rnn_config cfg = {mode, tc_arg_bool(c, 3), tc_arg_bool(c, 6), tc_arg_bool(c, 7), tc_arg_bool(c, 8),
                      tc_arg_int(c, 4), c->args[5].v.f};
    return run_rnn(c, &cfg, tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), NULL,
                   (tc_tensor_list){c->args[2].v.tensors.items, c->args[2].v.tensors.len});
}

int tc_impl_gru_input(tc_opcall *c) { return simple_rnn(c, MODE_GRU); }
int tc_impl_rnn_tanh_input(tc_opcall *c) { return simple_rnn(c, MODE_TANH); }
int tc_impl_rnn_relu_input(tc_opcall *c) { return simple_rnn(c, MODE_RELU); }

/* ---- the fused layer's backward ---- */

enum { N_LAYER_ARGS = 7 }; /* input, hx, cx, w_ih, w_hh, b_ih, b_hh */

/* The differentiable gradient: the layer recomputed step by step from the arguments (those that
 * record no history replaced by leaves that do), then its gradient with create_graph. */
static int backward_by_recompute(tc_opcall *c, tc_tensor **grads) {
    tc_tensor *arg[N_LAYER_ARGS], *leaf[N_LAYER_ARGS] = {NULL};
    const bool *mask = c->args[13].v.bools.items;
    for (int i = 0; i < N_LAYER_ARGS; i++) arg[i] = optional_arg(c, 3 + i);
    int rc = TC_FAIL;
    nn_temps k = NN_TEMPS_INIT;
    tc_tensor *wrt[N_LAYER_ARGS], *got[N_LAYER_ARGS] = {NULL};
    int32_t n_wrt = 0, slot[N_LAYER_ARGS];
    for (int i = 0; i < N_LAYER_ARGS; i++) {
        slot[i] = -1;
        if (!arg[i]) continue;
        if (!tc_requires_grad(arg[i]) && mask[i]) {
            if (!(leaf[i] = tc_detach(arg[i])) || tc_set_requires_grad(leaf[i], true)) goto done;
        }
        tc_tensor *use = leaf[i] ? leaf[i] : arg[i];
        arg[i] = use;
        if (mask[i]) {
            slot[i] = n_wrt;
            wrt[n_wrt++] = use;
        }
    }
    tc_tensor *out = NULL, *hy = NULL, *cy = NULL;
    if (layer_by_cells(&k, MODE_LSTM, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5], arg[6], tc_arg_bool(c, 12), &out,
                       &hy, &cy))
        goto done;
    tc_tensor *ys[3] = {out, hy, cy}, *gs[3] = {tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), tc_arg_tensor(c, 2)};
    tc_tensor *yk[3], *gk[3];
    int32_t n_y = 0;
    for (int j = 0; j < 3; j++)
        if (tc_requires_grad(ys[j])) {
            yk[n_y] = ys[j];
            gk[n_y++] = gs[j];
        }
    if (n_wrt && n_y && tc_grad(n_y, yk, gk, n_wrt, wrt, true, true, true, got)) goto done; /* the graph is kept: differentiating the gradient again walks it */
    for (int i = 0; i < N_LAYER_ARGS; i++) {
        tc_tensor *g = slot[i] >= 0 ? got[slot[i]] : NULL;
        if (g) tc_tensor_retain(g);
        else if (arg[i]) g = tc_zeros_like(arg[i], -1, -1, NULL, NULL, -1);
        else g = tc_zeros(TC_INTS(tc_arg_tensor(c, 6)->sizes[0]), tc_arg_tensor(c, 6)->dtype, -1,
                          &tc_arg_tensor(c, 6)->device, NULL);
        if (!(grads[i] = g)) goto done;
    }
    rc = TC_OK;
done:
    for (int i = 0; i < N_LAYER_ARGS; i++) {
        tc_tensor_release(leaf[i]);
        if (slot[i] >= 0) tc_tensor_release(got[slot[i]]);
    }
    nn_temps_free(&k);
    return rc;
}

/* The kernel: gradients of input, hx, cx, w_ih, w_hh and one bias gradient serving both biases. */
static int backward_by_kernel(tc_opcall *c, tc_tensor **grads) {
    const bool *mask = c->args[13].v.bools.items;
    bool m3[3] = {mask[0], mask[3] || mask[4], mask[5] || mask[6]};
    tc_tensor *r[6] = {NULL};
    if (tc__lstm_layer_backward_data(tc_arg_tensor(c, 0), tc_arg_tensor(c, 1), tc_arg_tensor(c, 2), tc_arg_tensor(c, 3),
                                     tc_arg_tensor(c, 4), tc_arg_tensor(c, 5), tc_arg_tensor(c, 6), tc_arg_tensor(c, 7),
                                     tc_arg_tensor(c, 10), tc_arg_tensor(c, 11), tc_arg_bool(c, 12),
                                     (tc_bool_list){m3, 3}, &r[0], &r[1], &r[2], &r[3], &r[4], &r[5]))
        return TC_FAIL;
    for (int i = 0; i < 6; i++) grads[i] = r[i];
    tc_tensor_retain(r[5]);
    grads[6] = r[5];
    return TC_OK;
}

/* _lstm_layer_backward(grad_output, grad_hy, grad_cy, input, hx, cx, w_ih, w_hh, b_ih, b_hh,
 * output, workspace, reverse, output_mask) -> the gradients of input, hx, cx, w_ih, w_hh, b_ih, b_hh */
int tc_impl__lstm_layer_backward(tc_opcall *c) {
    bool recording = false;
    for (int i = 0; i < 12; i++)
        if (!tc_arg_none(c, i) && tc_requires_grad(tc_arg_tensor(c, i))) recording = true;
    recording = recording && tc_grad_enabled();
    tc_tensor *grads[N_LAYER_ARGS] = {NULL};
    if ((recording ? backward_by_recompute : backward_by_kernel)(c, grads)) {
        for (int i = 0; i < N_LAYER_ARGS; i++) tc_tensor_release(grads[i]);
        return TC_FAIL;
    }
    for (int i = 0; i < N_LAYER_ARGS; i++) c->outs[i] = (tc_value){.tag = TC_VALUE_TENSOR, .v.tensor = grads[i]};
    return TC_OK;
}
