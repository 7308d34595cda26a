/*
 * lstm.c - one direction of one LSTM layer over a whole sequence (_lstm_layer) and its backward
 * (_lstm_layer_backward_data): the matrix products go to the BLAS provider, everything else is one
 * fused pass per time step.
 *
 * Forward: the input projections of every step are one GEMM (x [T*B, I] @ w_ih^T), written into
 * the workspace; each step adds h_{t-1} @ w_hh^T (a GEMM with beta = 1), the biases, and the cell
 *   i, f, o = sigmoid(.), g = tanh(.), c_t = f c_{t-1} + i g, h_t = o tanh(c_t)
 * keeping the activations and c_t in the workspace [T, B, 5H] (i f g o c) for backward.
 * Backward runs the steps in reverse, turning dh, dc into the pre-activation gradients of each step
 * (kept, [T, B, 4H]) and dh_{t-1} = dgates_t @ w_hh; then the weight gradients are three GEMMs over
 * all steps at once and the bias gradient a column sum.
 *
 * The core hands contiguous float32/float64 operands (meta_rnn.c); `reverse` runs the sequence
 * from its end (the backward direction of a bidirectional layer).
 */
#include <string.h>

#include "cpu.h"
#include "dtype.h"
#include "nn_vmath.h"

/* C[m,n] = alpha op(A) op(B) + beta C, row-major (tc_blas_provider's contract), with a plain loop
 * when no provider is loaded and C = beta C when k == 0. */
#define LSTM_GEMM(FT, SUF, BLAS)                                                                   \
    static void gemm_##SUF(int ta, int tb, int64_t m, int64_t n, int64_t k, FT alpha, const FT *a, int64_t lda, \
                           const FT *b, int64_t ldb, FT beta, FT *c, int64_t ldc) {                \
        if (m == 0 || n == 0) return;                                                              \
        const tc_blas_provider *bp = cpu_core->blas_current ? cpu_core->blas_current() : NULL;     \
        if (k > 0 && bp && bp->BLAS) {                                                             \
            bp->BLAS(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                        \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < m; i++)                                                            \
            for (int64_t j = 0; j < n; j++) {                                                      \
                FT s = 0;                                                                          \
                for (int64_t p = 0; p < k; p++)                                                    \
                    s += (ta ? a[p * lda + i] : a[i * lda + p]) * (tb ? b[j * ldb + p] : b[p * ldb + j]); \
                c[i * ldc + j] = alpha * s + (beta == 0 ? (FT)0 : beta * c[i * ldc + j]);          \
            }                                                                                      \
    }
LSTM_GEMM(float, f32, sgemm)
LSTM_GEMM(double, f64, dgemm)

typedef struct lstm_dims {
    int64_t T, B, I, H;
    bool reverse;
} lstm_dims;

/* The time index of step s. */
static inline int64_t step_t(const lstm_dims *d, int64_t s) { return d->reverse ? d->T - 1 - s : s; }

#define LSTM_DEFINE(FT, SUF)                                                                       \
    /* the cell of one step for one batch row: z = the gate pre-activations (i f g o), bias added  \
     * here, then the activations and c_t written back over z (the workspace row), h_t into h */   \
    static void cell_##SUF(FT *z, const FT *bias, const FT *c_prev, FT *h, int64_t H, FT *tmp) {   \
        if (bias)                                                                                  \
            for (int64_t j = 0; j < 4 * H; j++) z[j] += bias[j];                                   \
        for (int64_t j = 0; j < 4 * H; j++) tmp[j] = -z[j];                                        \
        nnv_exp_##SUF(tmp, tmp, 4 * H);                                                            \
        nnv_tanh_##SUF(z + 2 * H, z + 2 * H, H);                                                   \
        for (int64_t j = 0; j < H; j++) {                                                          \
            z[j] = (FT)1 / ((FT)1 + tmp[j]);                                                       \
            z[H + j] = (FT)1 / ((FT)1 + tmp[H + j]);                                               \
            z[3 * H + j] = (FT)1 / ((FT)1 + tmp[3 * H + j]);                                       \
        }                                                                                          \
        FT *c = z + 4 * H;                                                                         \
        for (int64_t j = 0; j < H; j++) c[j] = z[H + j] * c_prev[j] + z[j] * z[2 * H + j];         \
        nnv_tanh_##SUF(tmp, c, H);                                                                 \
        for (int64_t j = 0; j < H; j++) h[j] = z[3 * H + j] * tmp[j];                              \
    }                                                                                              \
    /* inputs: x, hx, cx, w_ih, w_hh[, b_ih][, b_hh]; outputs: output, hy, cy, workspace */        \
    static int forward_##SUF(const tc_kernel_args *a, const lstm_dims *d, int biases) {            \
        const int64_t T = d->T, B = d->B, I = d->I, H = d->H, W = 5 * H;                           \
        const FT *x = a->inputs[0].data, *hx = a->inputs[1].data, *cx = a->inputs[2].data;         \
        const FT *w_ih = a->inputs[3].data, *w_hh = a->inputs[4].data;                             \
        FT *out = a->outputs[0].data, *hy = a->outputs[1].data, *cy = a->outputs[2].data;          \
        FT *ws = a->outputs[3].data;                                                               \
        const size_t tmp_bytes = sizeof(FT) * (size_t)(9 * H + 1);                                 \
        FT *tmp = cpu_core->host_alloc(tmp_bytes), *bias = tmp + 4 * H + 1;                        \
        if (!tmp) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory in lstm");       \
        /* the two biases summed once */                                                           \
        int k = 5;                                                                                 \
        const FT *b1 = biases & 1 ? a->inputs[k++].data : NULL, *b2 = biases & 2 ? a->inputs[k].data : NULL; \
        for (int64_t j = 0; j < 4 * H; j++) bias[j] = (b1 ? b1[j] : 0) + (b2 ? b2[j] : 0);         \
        gemm_##SUF(0, 1, T * B, 4 * H, I, 1, x, I, w_ih, I, 0, ws, W);                             \
        for (int64_t s = 0; s < T; s++) {                                                          \
            const int64_t t = step_t(d, s), tp = step_t(d, s - 1);                                 \
            const FT *h_prev = s == 0 ? hx : out + tp * B * H;                                     \
            FT *z = ws + t * B * W;                                                                \
            gemm_##SUF(0, 1, B, 4 * H, H, 1, h_prev, H, w_hh, H, 1, z, W);                         \
            for (int64_t b = 0; b < B; b++) {                                                      \
                const FT *c_prev = s == 0 ? cx + b * H : ws + (tp * B + b) * W + 4 * H;            \
                cell_##SUF(z + b * W, biases ? bias : NULL, c_prev, out + (t * B + b) * H, H, tmp); \
            }                                                                                      \
        }                                                                                          \
        if (T == 0) {                                                                              \
            memcpy(hy, hx, sizeof(FT) * (size_t)(B * H));                                          \
            memcpy(cy, cx, sizeof(FT) * (size_t)(B * H));                                          \
        } else {                                                                                   \
            const int64_t tl = step_t(d, T - 1);                                                   \
            memcpy(hy, out + tl * B * H, sizeof(FT) * (size_t)(B * H));                            \
            for (int64_t b = 0; b < B; b++)                                                        \
                memcpy(cy + b * H, ws + (tl * B + b) * W + 4 * H, sizeof(FT) * (size_t)H);         \
        }                                                                                          \
        cpu_core->host_free(tmp, tmp_bytes);                                                       \
        return TC_OK;                                                                              \
    }                                                                                              \
    /* one step's cell backward for one batch row: dh, dc in; the pre-activation gradients out,    \
     * dc replaced by dc_{t-1} */                                                                  \
    static void cell_backward_##SUF(const FT *z, const FT *c_prev, const FT *dh, FT *dc, FT *dz, int64_t H, \
                                    FT *tmp) {                                                     \
        const FT *i = z, *f = z + H, *g = z + 2 * H, *o = z + 3 * H, *c = z + 4 * H;               \
        nnv_tanh_##SUF(tmp, c, H);                                                                 \
        for (int64_t j = 0; j < H; j++) {                                                          \
            const FT tc = tmp[j], dcj = dc[j] + dh[j] * o[j] * ((FT)1 - tc * tc);                  \
            dz[j] = dcj * g[j] * i[j] * ((FT)1 - i[j]);                                            \
            dz[H + j] = dcj * c_prev[j] * f[j] * ((FT)1 - f[j]);                                   \
            dz[2 * H + j] = dcj * i[j] * ((FT)1 - g[j] * g[j]);                                    \
            dz[3 * H + j] = dh[j] * tc * o[j] * ((FT)1 - o[j]);                                    \
            dc[j] = dcj * f[j];                                                                    \
        }                                                                                          \
    }                                                                                              \
    /* inputs: grad_output, grad_hy, grad_cy, input, hx, cx, w_ih, w_hh, output, workspace;        \
     * outputs: grad_input, grad_hx, grad_cx, grad_w_ih, grad_w_hh, grad_bias */                   \
    static int backward_##SUF(const tc_kernel_args *a, const lstm_dims *d, const bool *mask) {     \
        const int64_t T = d->T, B = d->B, I = d->I, H = d->H, W = 5 * H, G = 4 * H;                \
        const FT *go = a->inputs[0].data, *ghy = a->inputs[1].data, *gcy = a->inputs[2].data;      \
        const FT *x = a->inputs[3].data, *hx = a->inputs[4].data, *cx = a->inputs[5].data;         \
        const FT *w_ih = a->inputs[6].data, *w_hh = a->inputs[7].data;                             \
        const FT *out = a->inputs[8].data, *ws = a->inputs[9].data;                                \
        FT *gx = a->outputs[0].data, *ghx = a->outputs[1].data, *gcx = a->outputs[2].data;         \
        FT *gw_ih = a->outputs[3].data, *gw_hh = a->outputs[4].data, *gb = a->outputs[5].data;     \
        const size_t dz_bytes = sizeof(FT) * (size_t)(T * B * G + B * H + H + 1);                  \
        FT *dz = cpu_core->host_alloc(dz_bytes);                                                   \
        if (!dz) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory in lstm backward"); \
        FT *dh = dz + T * B * G, *tmp = dh + B * H;                                                \
        /* dh, dc of the last step: the gradients of hy and cy (the outputs' are added per step) */ \
        memcpy(ghx, ghy, sizeof(FT) * (size_t)(B * H));                                            \
        memcpy(gcx, gcy, sizeof(FT) * (size_t)(B * H));                                            \
        for (int64_t s = T - 1; s >= 0; s--) {                                                     \
            const int64_t t = step_t(d, s), tp = step_t(d, s - 1);                                 \
            for (int64_t j = 0; j < B * H; j++) dh[j] = go[t * B * H + j] + ghx[j];                \
            for (int64_t b = 0; b < B; b++) {                                                      \
                const FT *c_prev = s == 0 ? cx + b * H : ws + (tp * B + b) * W + 4 * H;            \
                cell_backward_##SUF(ws + (t * B + b) * W, c_prev, dh + b * H, gcx + b * H,         \
                                    dz + (t * B + b) * G, H, tmp);                                 \
            }                                                                                      \
            gemm_##SUF(0, 0, B, H, G, 1, dz + t * B * G, G, w_hh, H, 0, ghx, H);                   \
        }                                                                                          \
        if (mask[0]) gemm_##SUF(0, 0, T * B, I, G, 1, dz, G, w_ih, I, 0, gx, I);                   \
        else memset(gx, 0, sizeof(FT) * (size_t)(T * B * I));                                     \
        if (mask[1]) {                                                                             \
            gemm_##SUF(1, 0, G, I, T * B, 1, dz, G, x, I, 0, gw_ih, I);                            \
            /* h_{t-1} of the steps after the first lie in `out`, one step behind */               \
            const int64_t rows = (T - 1) * B;                                                      \
            const FT *dz_later = dz + (d->reverse ? 0 : B * G), *h_earlier = out + (d->reverse ? B * H : 0); \
            gemm_##SUF(1, 0, G, H, rows, 1, dz_later, G, h_earlier, H, 0, gw_hh, H);               \
            const FT *dz_first = dz + (d->reverse ? (T - 1) * B * G : 0);                          \
            gemm_##SUF(1, 0, G, H, T > 0 ? B : 0, 1, dz_first, G, hx, H, rows > 0 ? 1 : 0, gw_hh, H); \
            if (T == 0) memset(gw_hh, 0, sizeof(FT) * (size_t)(G * H));                            \
        } else {                                                                                   \
            memset(gw_ih, 0, sizeof(FT) * (size_t)(G * I));                                        \
            memset(gw_hh, 0, sizeof(FT) * (size_t)(G * H));                                        \
        }                                                                                          \
        for (int64_t j = 0; j < G; j++) gb[j] = 0;                                                 \
        if (mask[2])                                                                               \
            for (int64_t r = 0; r < T * B; r++)                                                    \
                for (int64_t j = 0; j < G; j++) gb[j] += dz[r * G + j];                            \
        cpu_core->host_free(dz, dz_bytes);                                                         \
        return TC_OK;                                                                              \
    }
LSTM_DEFINE(float, f32)
LSTM_DEFINE(double, f64)

static int k_lstm_layer(const tc_kernel_args *a) {
    if (cpu_check_args(a, 5, 4, "_lstm_layer")) return TC_FAIL;
    const tc_view *x = &a->inputs[0], *hx = &a->inputs[1];
    lstm_dims d = {x->sizes[0], x->sizes[1], x->sizes[2], hx->sizes[1], a->args[7].v.b};
    const int biases = (int)a->ints[0];
    return x->dtype == TC_FLOAT32 ? forward_f32(a, &d, biases) : forward_f64(a, &d, biases);
}

static int k_lstm_layer_backward(const tc_kernel_args *a) {
    if (cpu_check_args(a, 10, 6, "_lstm_layer_backward_data")) return TC_FAIL;
    const tc_view *x = &a->inputs[3], *hx = &a->inputs[4];
    lstm_dims d = {x->sizes[0], x->sizes[1], x->sizes[2], hx->sizes[1], a->args[10].v.b};
    const bool *mask = a->args[11].v.bools.items;
    return x->dtype == TC_FLOAT32 ? backward_f32(a, &d, mask) : backward_f64(a, &d, mask);
}

static const cpu_kernel_entry kernels[] = {
    {"_lstm_layer", TC_FLOAT32, k_lstm_layer},
    {"_lstm_layer", TC_FLOAT64, k_lstm_layer},
    {"_lstm_layer_backward_data", TC_FLOAT32, k_lstm_layer_backward},
    {"_lstm_layer_backward_data", TC_FLOAT64, k_lstm_layer_backward},
};
CPU_KERNEL_TABLE(kernels);
