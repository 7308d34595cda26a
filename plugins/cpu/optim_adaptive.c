/*
 * optim_adaptive.c - the fused updates of the optimizers that scale each element by a running average
 * of squared gradients: RMSprop (centred, momentum), Adagrad and Adadelta, each PyTorch 1.13's
 * single-tensor step element by element (optim.h says how roundings and fused multiply-adds follow
 * PyTorch's).
 */
#include <tgmath.h>

#include "optim.h"

/* ---- rmsprop_update: floats lr, alpha, eps, weight_decay, momentum; bools centered, maximize;
 * outputs param, square_avg[, momentum_buffer (momentum > 0)][, grad_avg (centered)]; input grad ---- */
static const optim_contract rmsprop_update_contract;
static int rmsprop_check(const tc_kernel_args *a) {
    const optim_contract *k = &rmsprop_update_contract;
    if (a->n_outputs == 2 + (OPTIM_F(4) > 0) + OPTIM_B(0)) return TC_OK;
    return cpu_core->set_error(TC_ERR_RUNTIME, "_rmsprop_update_: a momentum_buffer is needed exactly when momentum "
                                               "> 0, and a grad_avg exactly when centered");
}
static const optim_contract rmsprop_update_contract = {"rmsprop_update", 1, 2, 4, 5, 5, 2, rmsprop_check};

/* The optional buffers are separate loops; the flags are selects, so that the loops vectorise. */
#define RMSPROP_LOOP(S, T, C, HAS_BUF, CENTERED)                                                   \
    for (int64_t i = b; i < e; i++) {                                                              \
        OPTIM_DECAYED_GRAD(S, C, p, g);                                                            \
        const C v = OPTIM_R(S, fma(keep * g, g, OPTIM_R(S, OPTIM_LD(S, sq[i]) * alpha)));          \
        sq[i] = OPTIM_ST(S, v);                                                                    \
        C avg;                                                                                     \
        if (CENTERED) {                                                                            \
            const C ga = OPTIM_R(S, fma(keep, g, OPTIM_R(S, OPTIM_LD(S, gavg[i]) * alpha)));       \
            gavg[i] = OPTIM_ST(S, ga);                                                             \
            avg = OPTIM_R(S, sqrt(OPTIM_R(S, fma(-ga, ga, v))));                                   \
        } else {                                                                                   \
            avg = OPTIM_R(S, sqrt(v));                                                             \
        }                                                                                          \
        avg = OPTIM_R(S, avg + eps);                                                               \
        if (HAS_BUF) {                                                                             \
            const C m = OPTIM_R(S, OPTIM_R(S, OPTIM_LD(S, buf[i]) * mom) + g / avg);               \
            buf[i] = OPTIM_ST(S, m);                                                               \
            param[i] = OPTIM_ST(S, fma(neg_lr, m, p));                                             \
        } else {                                                                                   \
            param[i] = OPTIM_ST(S, p + neg_lr * g / avg);                                          \
        }                                                                                          \
    }

#define rmsprop_update_BODY(S, T, C)                                                               \
    const bool centered = OPTIM_B(0), decay = OPTIM_F(3) != 0;                                    \
    T *restrict param = OPTIM_OUT(T, 0), *restrict sq = OPTIM_OUT(T, 1);                           \
    T *restrict buf = OPTIM_F(4) > 0 ? OPTIM_OUT(T, 2) : NULL;                                     \
    T *restrict gavg = centered ? OPTIM_OUT(T, 2 + (buf != NULL)) : NULL;                          \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    const C neg_lr = (C)-OPTIM_F(0), alpha = (C)OPTIM_F(1), keep = (C)(1 - OPTIM_F(1));            \
    const C eps = (C)OPTIM_F(2), wd = (C)OPTIM_F(3), mom = (C)OPTIM_F(4), flip = OPTIM_B(1) ? -1 : 1; \
    if (buf && gavg)                                                                               \
        RMSPROP_LOOP(S, T, C, 1, 1)                                                                \
    else if (buf)                                                                                  \
        RMSPROP_LOOP(S, T, C, 1, 0)                                                                \
    else if (gavg)                                                                                 \
        RMSPROP_LOOP(S, T, C, 0, 1)                                                                \
    else                                                                                           \
        RMSPROP_LOOP(S, T, C, 0, 0)

/* ---- adagrad_update: floats clr (the decayed learning rate), weight_decay, eps; bools maximize;
 * outputs param, state_sum; input grad ---- */
static const optim_contract adagrad_update_contract = {"adagrad_update", 1, 2, 2, 3, 3, 1, NULL};

#define adagrad_update_BODY(S, T, C)                                                               \
    T *restrict param = OPTIM_OUT(T, 0), *restrict sum = OPTIM_OUT(T, 1);                          \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    const C neg_clr = (C)-OPTIM_F(0), wd = (C)OPTIM_F(1), eps = (C)OPTIM_F(2), flip = OPTIM_B(0) ? -1 : 1; \
    const bool decay = OPTIM_F(1) != 0;                                                            \
    for (int64_t i = b; i < e; i++) {                                                              \
        OPTIM_DECAYED_GRAD(S, C, p, g);                                                            \
        const C s = OPTIM_R(S, fma(g, g, OPTIM_LD(S, sum[i])));                                    \
        sum[i] = OPTIM_ST(S, s);                                                                   \
        const C std = OPTIM_R(S, OPTIM_R(S, sqrt(s)) + eps);                                       \
        param[i] = OPTIM_ST(S, p + neg_clr * g / std);                                             \
    }

/* ---- adadelta_update: floats lr, rho, eps, weight_decay; bools maximize; outputs param, square_avg,
 * acc_delta; input grad ---- */
static const optim_contract adadelta_update_contract = {"adadelta_update", 1, 3, 3, 4, 4, 1, NULL};

#define adadelta_update_BODY(S, T, C)                                                              \
    T *restrict param = OPTIM_OUT(T, 0), *restrict sq = OPTIM_OUT(T, 1), *restrict acc = OPTIM_OUT(T, 2); \
    const T *restrict grad = OPTIM_IN(T, 0);                                                       \
    const C neg_lr = (C)-OPTIM_F(0), rho = (C)OPTIM_F(1), keep = (C)(1 - OPTIM_F(1));              \
    const C eps = (C)OPTIM_F(2), wd = (C)OPTIM_F(3), flip = OPTIM_B(0) ? -1 : 1;                   \
    const bool decay = OPTIM_F(3) != 0;                                                            \
    for (int64_t i = b; i < e; i++) {                                                              \
        OPTIM_DECAYED_GRAD(S, C, p, g);                                                            \
        const C v = OPTIM_R(S, fma(keep * g, g, OPTIM_R(S, OPTIM_LD(S, sq[i]) * rho)));            \
        sq[i] = OPTIM_ST(S, v);                                                                    \
        const C std = OPTIM_R(S, sqrt(OPTIM_R(S, v + eps)));                                       \
        const C d0 = OPTIM_LD(S, acc[i]);                                                          \
        const C delta = OPTIM_R(S, OPTIM_R(S, OPTIM_R(S, sqrt(OPTIM_R(S, d0 + eps))) / std) * g);  \
        acc[i] = OPTIM_ST(S, fma(keep * delta, delta, OPTIM_R(S, d0 * rho)));                      \
        param[i] = OPTIM_ST(S, fma(neg_lr, delta, p));                                             \
    }

#define KERNELS(X, A) X(A, rmsprop_update) X(A, adagrad_update) X(A, adadelta_update)
#define STAMP(unused, S) KERNELS(OPTIM_DEFINE, S)
CPU_DTYPES_FLOAT(STAMP, _)
#define ENTRIES(unused, S) KERNELS(OPTIM_ENTRY, S)
static const cpu_kernel_entry kernels[] = {CPU_DTYPES_FLOAT(ENTRIES, _)};
CPU_KERNEL_TABLE(kernels);
