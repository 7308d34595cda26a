/*
 * Meta functions of the fused LSTM layer (_lstm_layer) and its backward kernel
 * (_lstm_layer_backward_data): the operands' sizes must agree, float32 or float64, all contiguous
 * for the kernel. The user-facing checks (and their messages) are the lstm composites'; these
 * guard the kernel against sizes it could read past.
 */
#include "core_internal.h"
#include "nn_meta.h"

static bool sized(const tc_tensor *t, int32_t ndim, int64_t s0, int64_t s1, int64_t s2) {
    if (!t || t->ndim != ndim) return false;
    const int64_t want[3] = {s0, s1, s2};
    for (int32_t d = 0; d < ndim; d++)
        if (t->sizes[d] != want[d]) return false;
    return true;
}

/* input [T, B, I], hx and cx [B, H], w_ih [4H, I], w_hh [4H, H], biases [4H]; *g4 = 4H. */
static int check_layer(tc_tensor *input, tc_tensor *hx, tc_tensor *cx, tc_tensor *w_ih, tc_tensor *w_hh,
                       tc_tensor *b_ih, tc_tensor *b_hh, int64_t *g4) {
    if (input->ndim != 3 || hx->ndim != 2)
        return tc_set_error(TC_ERR_RUNTIME, "_lstm_layer: expected a 3-D input and 2-D hidden states");
    const int64_t B = input->sizes[1], I = input->sizes[2], H = hx->sizes[1];
    if (__builtin_mul_overflow(H, 5, g4)) return tc_set_error(TC_ERR_RUNTIME, "_lstm_layer: hidden size too large");
    *g4 = 4 * H;
    if (!sized(hx, 2, B, H, 0) || !sized(cx, 2, B, H, 0) || !sized(w_ih, 2, *g4, I, 0) || !sized(w_hh, 2, *g4, H, 0) ||
        (b_ih && !sized(b_ih, 1, *g4, 0, 0)) || (b_hh && !sized(b_hh, 1, *g4, 0, 0)))
        return tc_set_error(TC_ERR_RUNTIME, "_lstm_layer: the sizes of input, hidden states, weights and biases do "
                                            "not agree");
    tc_tensor *all[7] = {input, hx, cx, w_ih, w_hh, b_ih, b_hh};
    for (int i = 0; i < 7; i++)
        if (all[i] && all[i]->dtype != input->dtype)
            return tc_set_error(TC_ERR_RUNTIME, "_lstm_layer: expected all operands to have dtype %s, got %s",
                                tc_dtype_scalar_name(input->dtype), tc_dtype_scalar_name(all[i]->dtype));
    if (input->dtype != TC_FLOAT32 && input->dtype != TC_FLOAT64)
        return tc_set_error(TC_ERR_RUNTIME, "\"_lstm_layer\" not implemented for '%s'",
                            tc_dtype_scalar_name(input->dtype));
    return TC_OK;
}

static tc_tensor *optional_arg(const tc_opcall *c, int i) { return tc_arg_none(c, i) ? NULL : tc_arg_tensor(c, i); }

/* _lstm_layer(input, hx, cx, w_ih, w_hh, b_ih, b_hh, reverse) -> (output, hy, cy, workspace);
 * kernel ints[0]: which biases are present (bit 0 b_ih, bit 1 b_hh), inputs in that order. */
int tc_meta_lstm_layer(tc_opcall *c, tc_plan *p) {
    tc_tensor *in[7];
    for (int i = 0; i < 7; i++) in[i] = optional_arg(c, i);
    int64_t g4;
    if (check_layer(in[0], in[1], in[2], in[3], in[4], in[5], in[6], &g4)) return TC_FAIL;
    const int64_t T = in[0]->sizes[0], B = in[0]->sizes[1], H = in[1]->sizes[1];
    const int64_t out[3] = {T, B, H}, ws[3] = {T, B, g4 + H};
    int32_t dtype = in[0]->dtype;
    int rc = tc_plan_output(p, 0, 3, out, dtype);
    if (rc == TC_OK) rc = tc_plan_output(p, 1, 2, in[1]->sizes, dtype);
    if (rc == TC_OK) rc = tc_plan_output(p, 2, 2, in[1]->sizes, dtype);
    if (rc == TC_OK) rc = tc_plan_output(p, 3, 3, ws, dtype);
    for (int i = 0; i < 7 && rc == TC_OK; i++)
        if (in[i]) rc = tc_nn_contiguous_input(p, in[i], -1);
    p->dtype = dtype;
    return rc ? rc : tc_plan_int(p, (in[5] ? 1 : 0) | (in[6] ? 2 : 0));
}

/* _lstm_layer_backward_data(grad_output, grad_hy, grad_cy, input, hx, cx, w_ih, w_hh, output,
 * workspace, reverse, output_mask) -> (grad_input, grad_hx, grad_cx, grad_w_ih, grad_w_hh,
 * grad_bias) */
int tc_meta_lstm_layer_backward(tc_opcall *c, tc_plan *p) {
    tc_tensor *in[10];
    for (int i = 0; i < 10; i++) in[i] = tc_arg_tensor(c, i);
    int64_t g4;
    if (check_layer(in[3], in[4], in[5], in[6], in[7], NULL, NULL, &g4)) return TC_FAIL;
    const int64_t T = in[3]->sizes[0], B = in[3]->sizes[1], H = in[4]->sizes[1];
    if (!sized(in[0], 3, T, B, H) || !sized(in[1], 2, B, H, 0) || !sized(in[2], 2, B, H, 0) ||
        !sized(in[8], 3, T, B, H) || !sized(in[9], 3, T, B, g4 + H) || c->args[11].v.bools.len != 3)
        return tc_set_error(TC_ERR_RUNTIME, "_lstm_layer_backward_data: inconsistent sizes");
    int32_t dtype = in[3]->dtype;
    tc_tensor *like[5] = {in[3], in[4], in[5], in[6], in[7]};
    int rc = TC_OK;
    for (int i = 0; i < 5 && rc == TC_OK; i++) rc = tc_plan_output(p, i, like[i]->ndim, like[i]->sizes, dtype);
    if (rc == TC_OK) rc = tc_plan_output(p, 5, 1, &g4, dtype);
    for (int i = 0; i < 10 && rc == TC_OK; i++) rc = tc_nn_contiguous_input(p, in[i], dtype);
    p->dtype = dtype;
    return rc;
}
