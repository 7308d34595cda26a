/*
 * ctc_loss.c - _ctc_loss (negative log likelihood and the alpha table) and _ctc_loss_backward, the
 * forward-backward algorithm of Graves et al. (2006) in log space, as PyTorch's CPU kernel
 * computes it: one batch item per task, each a dynamic programme over time and the extended
 * target (a blank between and around the labels).
 *
 * The core hands contiguous log_probs [T, N, C], targets (int64 or int32, [N, S] padded or the
 * concatenation of all targets) and, for backward, grad [N], neg_log_likelihood [N] and log_alpha
 * [N, T, 2 S + 1]; lengths come from the op's int[] arguments, checked by meta_loss.c. A target
 * label outside [0, C) is an error here (PyTorch would read out of bounds). Unlike PyTorch, every
 * entry of log_alpha is written (-inf where no path reaches).
 */
#include <math.h>

#include "cpu.h"
#include "dtype.h"

/* C++'s std::exp/std::log: the float functions for float */
#define EXP(x) _Generic((x), float: expf, default: exp)(x)
#define LOG(x) _Generic((x), float: logf, default: log)(x)

typedef struct ctc_job {
    const tc_kernel_args *a;
    const tc_view *targets;
    int64_t T, N, C, S;         /* max input length, batch, labels, max target length */
    const int64_t *in_len, *tg_len, *offsets;
    int64_t blank;
    bool concatenated, zero_infinity;
    int bad_label; /* a piece met a label outside [0, C): raised after the pool */
} ctc_job;

static int64_t label_at(const tc_view *t, int64_t i) {
    return t->dtype == TC_INT32 ? (int64_t)((const int32_t *)t->data)[i] : ((const int64_t *)t->data)[i];
}

/* The label of the extended target at s: blank at even s, the (s / 2)-th label at odd s. */
static inline int64_t prime(const ctc_job *j, int64_t b, int64_t s) {
    return s % 2 == 0 ? j->blank : label_at(j->targets, j->offsets[b] + s / 2);
}

static bool labels_valid(const ctc_job *j, int64_t b) {
    for (int64_t s = 1; s < 2 * j->tg_len[b] + 1; s += 2) {
        int64_t l = prime(j, b, s);
        if (l < 0 || l >= j->C) return false;
    }
    return true;
}

#define CTC_DEFINE(FT, SUF)                                                                         \
    static void forward_##SUF(const ctc_job *j, int64_t b) {                                       \
        const FT neginf = -INFINITY;                                                                \
        const FT *lp = (const FT *)j->a->inputs[0].data;                                             \
        FT *nll = (FT *)j->a->outputs[0].data, *la = (FT *)j->a->outputs[1].data;                     \
        const int64_t W = 2 * j->S + 1, in = j->in_len[b], L = j->tg_len[b];                       \
        FT *alpha = la + b * j->T * W;                                                              \
        for (int64_t i = 0; i < j->T * W; i++) alpha[i] = neginf;                                  \
        if (!labels_valid(j, b)) {                                                                 \
            __atomic_store_n((int *)&j->bad_label, 1, __ATOMIC_RELAXED);                           \
            return;                                                                                \
        }                                                                                          \
        if (in == 0) {                                                                             \
            nll[b] = L == 0 ? (FT)0 : (FT)INFINITY;                                                  \
            return;                                                                                \
        }                                                                                          \
        alpha[0] = lp[b * j->C + j->blank];                                                        \
        if (L > 0) alpha[1] = lp[b * j->C + prime(j, b, 1)];                                       \
        for (int64_t t = 1; t < in; t++) {                                                         \
            const FT *row = lp + (t * j->N + b) * j->C;                                             \
            const FT *prev = alpha + (t - 1) * W;                                                   \
            FT *cur = alpha + t * W;                                                                \
            for (int64_t s = 0; s < 2 * L + 1; s++) {                                              \
                const int64_t p = prime(j, b, s);                                                  \
                FT la1 = prev[s], lamax = la1, la2 = neginf, la3 = neginf;                          \
                if (s > 0) {                                                                       \
                    la2 = prev[s - 1];                                                             \
                    if (la2 > lamax) lamax = la2;                                                  \
                }                                                                                  \
                if (s > 1 && prime(j, b, s - 2) != p) {                                            \
                    la3 = prev[s - 2];                                                             \
                    if (la3 > lamax) lamax = la3;                                                  \
                }                                                                                  \
                if (lamax == neginf) lamax = 0;                                                    \
                cur[s] = LOG(EXP(la1 - lamax) + EXP(la2 - lamax) + EXP(la3 - lamax)) + lamax + row[p]; \
            }                                                                                      \
        }                                                                                          \
        const FT *last = alpha + (in - 1) * W;                                                      \
        if (L == 0) {                                                                              \
            nll[b] = -last[0];                                                                     \
        } else {                                                                                   \
            const FT l1 = last[2 * L], l2 = last[2 * L - 1];                                        \
            FT m = l1 > l2 ? l1 : l2;                                                               \
            m = m == neginf ? 0 : m;                                                               \
            nll[b] = -(LOG(EXP(l1 - m) + EXP(l2 - m)) + m);                                        \
        }                                                                                          \
    }                                                                                              \
    /* grad of log_probs for batch item b; `beta` is scratch of FT x W */                           \
    static void backward_##SUF(const ctc_job *j, int64_t b, FT *beta) {                             \
        const FT neginf = -INFINITY;                                                                \
        const FT *go = (const FT *)j->a->inputs[0].data, *lp = (const FT *)j->a->inputs[1].data;      \
        const FT *nllv = (const FT *)j->a->inputs[3].data, *la = (const FT *)j->a->inputs[4].data;    \
        FT *grad = (FT *)j->a->outputs[0].data;                                                      \
        const int64_t W = 2 * j->S + 1, in = j->in_len[b], L = j->tg_len[b], C = j->C;             \
        const FT *alpha = la + b * j->T * W, nll = nllv[b];                                         \
        for (int64_t t = 0; t < j->T; t++)                                                         \
            for (int64_t c = 0; c < C; c++) grad[(t * j->N + b) * C + c] = t < in ? neginf : (FT)0; \
        if ((j->zero_infinity && nll == (FT)INFINITY) || !labels_valid(j, b)) {                     \
            for (int64_t t = 0; t < j->T; t++)                                                     \
                for (int64_t c = 0; c < C; c++) grad[(t * j->N + b) * C + c] = 0;                  \
            if (!labels_valid(j, b)) __atomic_store_n((int *)&j->bad_label, 1, __ATOMIC_RELAXED);  \
            return;                                                                                \
        }                                                                                          \
        if (in == 0) return;                                                                       \
        for (int64_t i = 0; i < W; i++) beta[(in - 1) * W + i] = neginf;                           \
        {                                                                                          \
            const FT *row = lp + ((in - 1) * j->N + b) * C;                                         \
            FT *g = grad + ((in - 1) * j->N + b) * C;                                               \
            beta[(in - 1) * W + 2 * L] = row[j->blank];                                            \
            g[j->blank] = alpha[(in - 1) * W + 2 * L] + beta[(in - 1) * W + 2 * L];                \
            if (L > 0) {                                                                           \
                const int64_t p = prime(j, b, 2 * L - 1);                                          \
                beta[(in - 1) * W + 2 * L - 1] = row[p];                                           \
                g[p] = alpha[(in - 1) * W + 2 * L - 1] + beta[(in - 1) * W + 2 * L - 1];           \
            }                                                                                      \
        }                                                                                          \
        for (int64_t t = in - 2; t >= 0; t--) {                                                    \
            const FT *row = lp + (t * j->N + b) * C, *next = beta + (t + 1) * W;                    \
            FT *cur = beta + t * W, *g = grad + (t * j->N + b) * C;                                 \
            for (int64_t s = 2 * L; s >= 0; s--) {                                                 \
                const int64_t p = prime(j, b, s);                                                  \
                FT lb1 = next[s], lbmax = lb1, lb2 = neginf, lb3 = neginf;                          \
                if (s < 2 * L) {                                                                   \
                    lb2 = next[s + 1];                                                             \
                    if (lb2 > lbmax) lbmax = lb2;                                                  \
                }                                                                                  \
                if (s < 2 * L - 1 && prime(j, b, s + 2) != p) {                                    \
                    lb3 = next[s + 2];                                                             \
                    if (lb3 > lbmax) lbmax = lb3;                                                  \
                }                                                                                  \
                if (lbmax == neginf) lbmax = 0;                                                    \
                cur[s] = LOG(EXP(lb1 - lbmax) + EXP(lb2 - lbmax) + EXP(lb3 - lbmax)) + lbmax + row[p]; \
                const FT lab = alpha[t * W + s] + cur[s];                                           \
                FT *lcab = &g[p];                                                                   \
                if (*lcab == neginf) {                                                             \
                    *lcab = lab;                                                                   \
                } else {                                                                           \
                    const FT mx = *lcab > lab ? *lcab : lab;                                        \
                    *lcab = LOG(EXP(*lcab - mx) + EXP(lab - mx)) + mx;                             \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        const FT gr = go[b];                                                                        \
        for (int64_t t = 0; t < in; t++) {                                                         \
            const FT *row = lp + (t * j->N + b) * C;                                                \
            FT *g = grad + (t * j->N + b) * C;                                                      \
            for (int64_t c = 0; c < C; c++) g[c] = (EXP(row[c]) - EXP(g[c] + nll - row[c])) * gr;  \
        }                                                                                          \
    }
CTC_DEFINE(float, f32)
CTC_DEFINE(double, f64)

static void forward_items(void *ctx, int64_t b0, int64_t b1) {
    const ctc_job *j = ctx;
    for (int64_t b = b0; b < b1; b++) {
        if (j->a->outputs[0].dtype == TC_FLOAT32) forward_f32(j, b);
        else forward_f64(j, b);
    }
}

static void backward_items(void *ctx, int64_t b0, int64_t b1) {
    ctc_job *j = ctx;
    const size_t es = cpu_dtype_size(j->a->outputs[0].dtype);
    const size_t bytes = (size_t)(j->T * (2 * j->S + 1)) * es + 1;
    void *beta = cpu_core->host_alloc(bytes);
    if (!beta) { /* a failure to allocate scratch reads as a bad label would: raised after the pool */
        __atomic_store_n(&j->bad_label, 2, __ATOMIC_RELAXED);
        return;
    }
    for (int64_t b = b0; b < b1; b++) {
        if (j->a->outputs[0].dtype == TC_FLOAT32) backward_f32(j, b, beta);
        else backward_f64(j, b, beta);
    }
    cpu_core->host_free(beta, bytes);
}

/* The batch layout of the targets: each item's offset into them. */
static int prepare(ctc_job *j, const tc_kernel_args *a, const tc_view *lp, const tc_view *tg, int in_arg) {
    j->a = a;
    j->targets = tg;
    j->T = lp->sizes[0];
    j->N = lp->sizes[1];
    j->C = lp->sizes[2];
    j->in_len = a->args[in_arg].v.ints.items;
    j->tg_len = a->args[in_arg + 1].v.ints.items;
    j->concatenated = tg->ndim == 1;
    int64_t *offsets = cpu_core->host_alloc(sizeof(int64_t) * (size_t)(j->N + 1));
    if (!offsets) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory in ctc_loss");
    int64_t pos = 0;
    j->S = 0;
    for (int64_t b = 0; b < j->N; b++) {
        offsets[b] = j->concatenated ? pos : b * (tg->ndim == 2 ? tg->sizes[1] : 0);
        pos += j->tg_len[b];
        if (j->tg_len[b] > j->S) j->S = j->tg_len[b];
    }
    j->offsets = offsets;
    return TC_OK;
}

static int finish(ctc_job *j) {
    cpu_core->host_free((void *)j->offsets, sizeof(int64_t) * (size_t)(j->N + 1));
    if (j->bad_label == 2) return cpu_core->set_error(TC_ERR_OUT_OF_MEMORY, "out of memory in ctc_loss");
    if (j->bad_label)
        return cpu_core->set_error(TC_ERR_RUNTIME, "ctc_loss: target labels must be in the range [0, %lld)",
                                   (long long)j->C);
    return TC_OK;
}

/* _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity) */
static int k_ctc_loss(const tc_kernel_args *a) {
    if (cpu_check_args(a, 2, 2, "_ctc_loss")) return TC_FAIL;
    ctc_job j = {.blank = a->args[4].v.i};
    if (prepare(&j, a, &a->inputs[0], &a->inputs[1], 2)) return TC_FAIL;
    cpu_parallel(j.N, cpu_threads_for(j.N * j.T * (2 * j.S + 1) * 8), forward_items, &j);
    return finish(&j);
}

/* _ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood,
 * log_alpha, blank, zero_infinity); inputs: grad, log_probs, targets, nll, log_alpha */
static int k_ctc_loss_backward(const tc_kernel_args *a) {
    if (cpu_check_args(a, 5, 1, "_ctc_loss_backward")) return TC_FAIL;
    ctc_job j = {.blank = a->args[7].v.i, .zero_infinity = a->args[8].v.b};
    if (prepare(&j, a, &a->inputs[1], &a->inputs[2], 3)) return TC_FAIL;
    cpu_parallel(j.N, cpu_threads_for(j.N * j.T * (2 * j.S + 1) * 16), backward_items, &j);
    return finish(&j);
}

static const cpu_kernel_entry kernels[] = {
    {"_ctc_loss", TC_FLOAT32, k_ctc_loss},
    {"_ctc_loss", TC_FLOAT64, k_ctc_loss},
    {"_ctc_loss_backward", TC_FLOAT32, k_ctc_loss_backward},
    {"_ctc_loss_backward", TC_FLOAT64, k_ctc_loss_backward},
};
CPU_KERNEL_TABLE(kernels);
